// Witness and check modes: the "linear combination" is its value at z (one Fr), so
// gadgets evaluate constraints with a few field operations and build nothing.
//
// WitnessCS  computes the assignment (inputs with ONE at 0, aux) and, with
//            record_evals, a·z, b·z, c·z per constraint. Namespaces and names cost
//            nothing. It trusts the values gadgets carry (kTrustValues): add_bit adds
//            the coefficient or nothing, and gadgets may shortcut an LC whose value they
//            know (UInt32::addmany uses the integer sum). Densities are a property of
//            the shape (Shape::density()), not computed here.
// CheckCS    evaluates every term from z, so a wrong witness is caught, and keeps the
//            first unsatisfied constraint with its namespace path:
//              "constraint 1234 'sha256/block 0/compression round 3/maj/maj computation'
//               is not satisfied". A CheckCS can replay a given assignment (e.g. a
//            witness from elsewhere) instead of calling the value closures.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cuzk/common/cancel.hpp"
#include "cuzk/common/parallel.hpp"
#include "cuzk/r1cs/cs.hpp"
#include "cuzk/r1cs/witness_vector.hpp"

namespace cuzk::r1cs {

struct EvalLC {
    Fr value = Fr::zero();
};

struct WitnessOptions {
    bool record_evals = false;  // keep a·z, b·z, c·z per constraint
    size_t reserve_aux = 0;     // capacity hints (e.g. from the cached shape)
    size_t reserve_constraints = 0;
    // Checked every kCancelEvery constraints (in each block of synthesize_blocks too); when
    // it turns true, enforce() throws cuzk::Cancelled.
    CancelCheck cancel{};
    static constexpr size_t kCancelEvery = 4096;
};

// Storage a WitnessCS may reuse: the engine's buffer pool and the sector pipeline hand
// these back so that large per-partition vectors are not reallocated for every proof. Their
// contents are stale and their lengths are kept: the witness overwrites every entry it
// counts in place, so a reused vector is written once instead of zero-filled and then
// written (see EvalCS's counts).
//
// Fresh storage is not zero-filled either: WitnessVector's resize(n) leaves new entries
// unwritten (DefaultInitAllocator), and the witness writes every entry it counts. At a
// 32 GiB PoRep partition that zero-fill was 16.7 GB on one thread, ~2.3 s of the first
// witness into new buffers on the H200 host. Code that grows one of these vectors and
// reads the new entries must say their value: resize(n, Fr::zero()).
struct WitnessBuffers {
    WitnessVector aux, a, b, c;
};

struct CheckFailure {
    size_t index;      // constraint number, 0-based, in synthesis order
    std::string path;  // namespace path and constraint name joined by '/'
    std::string message;
};

// The linear-combination operations of the evaluating modes, over Derived::z(v) (the
// value of a variable). Shared by EvalCS and SegmentCS.
template <class Derived, bool kCheck>
struct EvalLcOps {
    using LC = EvalLC;
    LC lc() const { return LC{}; }
    LC lc(Variable v) const { return LC{z(v)}; }
    void add(LC& l, Variable v) const { l.value += z(v); }
    void add(LC& l, Variable v, const Fr& c) const { l.value += z(v) * c; }
    void sub(LC& l, Variable v) const { l.value -= z(v); }
    void sub(LC& l, Variable v, const Fr& c) const { l.value -= z(v) * c; }
    void add_bit(LC& l, Variable v, bool value, const Fr& c) const {
        if constexpr (kCheck) {
            (void)value;
            l.value += z(v) * c;
        } else {
            (void)v;
            if (value) l.value += c;
        }
    }
    void add_not_bit(LC& l, Variable v, bool value, const Fr& c) const {
        if constexpr (kCheck) {
            (void)value;
            l.value += (Fr::one() - z(v)) * c;
        } else {
            (void)v;
            if (!value) l.value += c;
        }
    }
    void add_const(LC& l, const Fr& c) const { l.value += c; }
    void add_lc(LC& l, const LC& m) const { l.value += m.value; }
    void add_lc(LC& l, const LC& m, const Fr& c) const { l.value += m.value * c; }
    void sub_lc(LC& l, const LC& m) const { l.value -= m.value; }
    void scale(LC& l, const Fr& c) const { l.value *= c; }

 private:
    const Fr& z(Variable v) const { return static_cast<const Derived*>(this)->z(v); }
};

// Counts of one block of a circuit (see WitnessCS::synthesize_blocks).
struct BlockCounts {
    size_t inputs = 0, aux = 0, constraints = 0;
    friend bool operator==(const BlockCounts&, const BlockCounts&) = default;
};

// Witness mode over one block of a larger assignment, written in place: its variables
// and constraints are numbered from the block's bases, and it reads every variable
// allocated before the block (the shared header of a Filecoin partition) from the same
// storage. Made by WitnessCS::synthesize_blocks; several run at once on disjoint blocks.
class SegmentCS : public EvalLcOps<SegmentCS, false> {
 public:
    static constexpr Mode kMode = Mode::Witness;
    static constexpr bool kHasValues = true;
    static constexpr bool kTrustValues = true;

    struct Storage {
        Fr* inputs = nullptr;
        Fr* aux = nullptr;
        Fr *a = nullptr, *b = nullptr, *c = nullptr;  // null: evaluations not recorded
        const CancelCheck* cancel = nullptr;          // WitnessOptions::cancel
    };
    SegmentCS(const Storage& st, const BlockCounts& base, const BlockCounts& limit)
        : st_(st), base_(base), next_(base), limit_(limit) {}

    const Fr& z(Variable v) const { return v.is_aux() ? st_.aux[v.index()] : st_.inputs[v.index()]; }
    template <class F>
    Variable alloc(F&& value) {
        if (next_.aux >= limit_.aux) overflow("aux variables");
        st_.aux[next_.aux] = value();
        return Variable::aux(uint32_t(next_.aux++));
    }
    template <class F>
    Variable alloc_input(F&& value) {
        if (next_.inputs >= limit_.inputs) overflow("inputs");
        st_.inputs[next_.inputs] = value();
        return Variable::input(uint32_t(next_.inputs++));
    }
    template <class N>
    void enforce(N&& name, const LC& a, const LC& b, const LC& c) {
        (void)name;
        if (next_.constraints >= limit_.constraints) overflow("constraints");
        if (st_.cancel && *st_.cancel && (next_.constraints - base_.constraints) % WitnessOptions::kCancelEvery == 0)
            throw_if_cancelled(*st_.cancel, "witness");
        if (st_.a) {
            st_.a[next_.constraints] = a.value;
            st_.b[next_.constraints] = b.value;
            st_.c[next_.constraints] = c.value;
        }
        ++next_.constraints;
    }
    template <class N>
    [[nodiscard]] NoNamespace namespace_(N&& name) {
        (void)name;
        return {};
    }
    size_t num_inputs() const { return next_.inputs; }
    size_t num_aux() const { return next_.aux; }
    size_t num_constraints() const { return next_.constraints; }
    // What this block used (to compare with the counts it was given).
    BlockCounts used() const {
        return {next_.inputs - base_.inputs, next_.aux - base_.aux, next_.constraints - base_.constraints};
    }

 private:
    [[noreturn]] void overflow(const char* what) const {
        throw SynthesisError(std::string("SegmentCS: a block allocates more ") + what +
                             " than the counts it was given (blocks of one circuit must have equal counts)");
    }
    Storage st_;
    BlockCounts base_, next_, limit_;
};

template <bool kCheck>
class EvalCS : public EvalLcOps<EvalCS<kCheck>, kCheck> {
 public:
    using LC = EvalLC;
    using EvalLcOps<EvalCS<kCheck>, kCheck>::lc;
    static constexpr Mode kMode = kCheck ? Mode::Check : Mode::Witness;
    static constexpr bool kHasValues = true;
    static constexpr bool kTrustValues = !kCheck;

    explicit EvalCS(const WitnessOptions& opt = {}) : EvalCS(opt, WitnessBuffers{}) {}
    EvalCS(const WitnessOptions& opt, WitnessBuffers&& reuse) requires(!kCheck)
        : record_(opt.record_evals),
          aux_(std::move(reuse.aux)),
          a_(std::move(reuse.a)),
          b_(std::move(reuse.b)),
          c_(std::move(reuse.c)) {
        // The reused vectors keep their lengths (stale entries, overwritten as counted).
        if (!record_) {
            a_.clear();
            b_.clear();
            c_.clear();
        }
        init(opt);
    }
    EvalCS(const WitnessOptions& opt, WitnessBuffers&& reuse) requires kCheck : record_(opt.record_evals) {
        (void)reuse;
        init(opt);
    }

 private:
    void init(const WitnessOptions& opt) {
        if constexpr (!kCheck) cancel_ = opt.cancel;
        inputs_.push_back(Fr::one());
        aux_.reserve(opt.reserve_aux);
        if (record_) {
            a_.reserve(opt.reserve_constraints);
            b_.reserve(opt.reserve_constraints);
            c_.reserve(opt.reserve_constraints);
        }
    }

 public:
    // CheckCS replaying an assignment: inputs[0] must be ONE; alloc/alloc_input take the
    // next value from copies of these instead of calling the closure.
    EvalCS(std::span<const Fr> inputs, std::span<const Fr> aux) requires kCheck
        : replay_(true),
          replay_inputs_(inputs.begin(), inputs.end()),
          replay_aux_(aux.begin(), aux.end()) {
        if (inputs.empty() || !inputs[0].is_one())
            throw std::invalid_argument("CheckCS: the replayed inputs must start with ONE");
        inputs_.push_back(Fr::one());
    }

    // --- linear combinations (EvalLcOps) and the assignment ------------------------------
    const Fr& z(Variable v) const { return v.is_aux() ? aux_[v.index()] : inputs_[v.index()]; }

    // --- variables and constraints -------------------------------------------------------
    template <class F>
    Variable alloc(F&& value) {
        if constexpr (kCheck) {
            if (replay_) {
                if (num_aux_ >= replay_aux_.size())
                    throw SynthesisError("CheckCS: the circuit allocates more aux variables than the " +
                                         std::to_string(replay_aux_.size()) + " replayed");
                put(aux_, num_aux_, replay_aux_[num_aux_]);
                return Variable::aux(uint32_t(num_aux_++));
            }
        }
        const Fr x = value();
        put(aux_, num_aux_, x);
        return Variable::aux(uint32_t(num_aux_++));
    }
    template <class F>
    Variable alloc_input(F&& value) {
        if constexpr (kCheck) {
            if (replay_) {
                if (inputs_.size() >= replay_inputs_.size())
                    throw SynthesisError("CheckCS: the circuit allocates more inputs than the " +
                                         std::to_string(replay_inputs_.size()) + " replayed");
                inputs_.push_back(replay_inputs_[inputs_.size()]);
                return Variable::input(uint32_t(inputs_.size() - 1));
            }
        }
        inputs_.push_back(value());
        return Variable::input(uint32_t(inputs_.size() - 1));
    }
    template <class N>
    void enforce(N&& name, const LC& a, const LC& b, const LC& c) {
        if constexpr (kCheck) {
            if (!failure_ && a.value * b.value != c.value) fail(name_string(std::forward<N>(name)));
        } else {
            (void)name;
            if (cancel_ && num_constraints_ % WitnessOptions::kCancelEvery == 0) throw_if_cancelled(cancel_, "witness");
            if (record_) {
                put(a_, num_constraints_, a.value);
                put(b_, num_constraints_, b.value);
                put(c_, num_constraints_, c.value);
            }
        }
        ++num_constraints_;
    }
    template <class N>
    [[nodiscard]] auto namespace_(N&& name) {
        if constexpr (kCheck) {
            ns_.push_back(name_string(std::forward<N>(name)));
            return NamespaceGuard<EvalCS>(*this);
        } else {
            (void)name;
            return NoNamespace{};
        }
    }
    void pop_namespace() { ns_.pop_back(); }

    // Witness mode: synthesizes n blocks with identical counts `per` (e.g. the challenges
    // of a Filecoin partition: the R1CS is fixed, so each allocates the same variables and
    // constraints) in parallel on the thread pool. The assignment (and the evaluations,
    // when recorded) grows by n * per; block i is numbered from the current counts plus
    // i * per and is written in place by body(i, SegmentCS&), which may read every
    // variable allocated before this call. The result equals synthesizing the blocks one
    // after another. Throws SynthesisError if a block's counts differ from `per`.
    template <class F>
    void synthesize_blocks(size_t n, const BlockCounts& per, F&& body) requires(!kCheck) {
        const BlockCounts start{inputs_.size(), num_aux_, num_constraints_};
        inputs_.resize(start.inputs + n * per.inputs);
        num_aux_ += n * per.aux;
        grow(aux_, num_aux_);
        if (record_) {
            const size_t m = start.constraints + n * per.constraints;
            grow(a_, m);
            grow(b_, m);
            grow(c_, m);
        }
        SegmentCS::Storage st{inputs_.data(),
                              aux_.data(),
                              record_ ? a_.data() : nullptr,
                              record_ ? b_.data() : nullptr,
                              record_ ? c_.data() : nullptr,
                              &cancel_};
        parallel_for(0, n, 1, [&](size_t lo, size_t hi) {
            for (size_t i = lo; i < hi; ++i) {
                const BlockCounts base{start.inputs + i * per.inputs, start.aux + i * per.aux,
                                       start.constraints + i * per.constraints};
                const BlockCounts limit{base.inputs + per.inputs, base.aux + per.aux,
                                        base.constraints + per.constraints};
                SegmentCS seg(st, base, limit);
                body(i, seg);
                if (seg.used() != per)
                    throw SynthesisError("synthesize_blocks: block " + std::to_string(i) +
                                         " used fewer variables or constraints than the counts it was given");
            }
        });
        num_constraints_ += n * per.constraints;
    }

    size_t num_inputs() const { return inputs_.size(); }
    size_t num_aux() const { return num_aux_; }
    size_t num_constraints() const { return num_constraints_; }

    // --- results ---------------------------------------------------------------------------
    // The counted entries (a reused vector may be longer: its tail is stale). take_* trim the
    // vector to its count (shrinking initialises nothing) and hand the storage over.
    const std::vector<Fr>& inputs() const { return inputs_; }
    std::span<const Fr> aux() const { return {aux_.data(), num_aux_}; }
    std::span<const Fr> a_evals() const { return {a_.data(), num_evals()}; }
    std::span<const Fr> b_evals() const { return {b_.data(), num_evals()}; }
    std::span<const Fr> c_evals() const { return {c_.data(), num_evals()}; }
    std::vector<Fr> take_inputs() { return std::move(inputs_); }
    WitnessVector take_aux() { return trimmed(aux_, num_aux_); }
    WitnessVector take_a_evals() { return trimmed(a_, num_evals()); }
    WitnessVector take_b_evals() { return trimmed(b_, num_evals()); }
    WitnessVector take_c_evals() { return trimmed(c_, num_evals()); }

    bool is_satisfied() const { return !failure_; }
    const std::optional<CheckFailure>& first_failure() const { return failure_; }

 private:
    // Entry n of v (n <= v.size()): written in place inside v's length, else appended.
    static void put(WitnessVector& v, size_t n, const Fr& x) {
        if (n < v.size())
            v[n] = x;
        else
            v.push_back(x);
    }
    // v long enough for n entries, the new ones unwritten (WitnessVector): the caller's
    // blocks write every entry of the range they are given.
    static void grow(WitnessVector& v, size_t n) {
        if (v.size() < n) v.resize(n);
    }
    static WitnessVector trimmed(WitnessVector& v, size_t n) {
        v.resize(n);
        return std::move(v);
    }
    size_t num_evals() const { return record_ && !kCheck ? num_constraints_ : 0; }  // check mode records none

    void fail(const std::string& name) {
        std::string path;
        for (const std::string& n : ns_) {
            path += n;
            path += '/';
        }
        path += name;
        if (!path.empty() && path.back() == '/') path.pop_back();
        failure_ = CheckFailure{num_constraints_, path,
                                "constraint " + std::to_string(num_constraints_) + " '" + path + "' is not satisfied"};
    }

    bool record_ = false;
    bool replay_ = false;
    CancelCheck cancel_;  // witness mode: WitnessOptions::cancel
    // Owned copies: callers pass temporaries (found by ASan), and check mode is not a hot path.
    std::vector<Fr> replay_inputs_, replay_aux_;
    std::vector<Fr> inputs_;
    WitnessVector aux_, a_, b_, c_;
    // Counts of the assignment and of the recorded evaluations, kept apart from the vectors'
    // lengths: storage reused from an earlier witness (WitnessBuffers) keeps its length, and
    // its entries are overwritten as they are counted. Growing a std::vector with resize()
    // zero-fills it first, one thread: at a 32 GiB PoRep partition 16.7 GB, all overwritten.
    // H200 host, 16 cores (bench/RESULTS.md): witness 2.9-3.6 s -> 0.66-0.86 s a partition,
    // a whole 32 GiB sector 33.9 -> 16.4 s wall (GPU-bound). Fresh storage does not
    // zero-fill either (WitnessVector).
    size_t num_aux_ = 0;
    size_t num_constraints_ = 0;
    std::vector<std::string> ns_;
    std::optional<CheckFailure> failure_;
};

using WitnessCS = EvalCS<false>;
using CheckCS = EvalCS<true>;

}  // namespace cuzk::r1cs
