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

#include "cuzk/r1cs/cs.hpp"

namespace cuzk::r1cs {

struct EvalLC {
    Fr value = Fr::zero();
};

struct WitnessOptions {
    bool record_evals = false;  // keep a·z, b·z, c·z per constraint
    size_t reserve_aux = 0;     // capacity hints (e.g. from the cached shape)
    size_t reserve_constraints = 0;
};

// Storage a WitnessCS may reuse (cleared, capacity kept): the engine's buffer pool hands
// these out so that large per-partition vectors are not reallocated for every proof.
struct WitnessBuffers {
    std::vector<Fr> aux, a, b, c;
};

struct CheckFailure {
    size_t index;      // constraint number, 0-based, in synthesis order
    std::string path;  // namespace path and constraint name joined by '/'
    std::string message;
};

template <bool kCheck>
class EvalCS {
 public:
    using LC = EvalLC;
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
        aux_.clear();
        a_.clear();
        b_.clear();
        c_.clear();
        init(opt);
    }
    EvalCS(const WitnessOptions& opt, WitnessBuffers&& reuse) requires kCheck : record_(opt.record_evals) {
        (void)reuse;
        init(opt);
    }

 private:
    void init(const WitnessOptions& opt) {
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

    // --- linear combinations -----------------------------------------------------------
    const Fr& z(Variable v) const { return v.is_aux() ? aux_[v.index()] : inputs_[v.index()]; }
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
            if (value) l.value += c;
        }
    }
    void add_not_bit(LC& l, Variable v, bool value, const Fr& c) const {
        if constexpr (kCheck) {
            (void)value;
            l.value += (Fr::one() - z(v)) * c;
        } else {
            if (!value) l.value += c;
        }
    }
    void add_const(LC& l, const Fr& c) const { l.value += c; }
    void add_lc(LC& l, const LC& m) const { l.value += m.value; }
    void add_lc(LC& l, const LC& m, const Fr& c) const { l.value += m.value * c; }
    void sub_lc(LC& l, const LC& m) const { l.value -= m.value; }
    void scale(LC& l, const Fr& c) const { l.value *= c; }

    // --- variables and constraints -------------------------------------------------------
    template <class F>
    Variable alloc(F&& value) {
        if constexpr (kCheck) {
            if (replay_) {
                if (aux_.size() >= replay_aux_.size())
                    throw SynthesisError("CheckCS: the circuit allocates more aux variables than the " +
                                         std::to_string(replay_aux_.size()) + " replayed");
                aux_.push_back(replay_aux_[aux_.size()]);
                return Variable::aux(uint32_t(aux_.size() - 1));
            }
        }
        aux_.push_back(value());
        return Variable::aux(uint32_t(aux_.size() - 1));
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
            if (record_) {
                a_.push_back(a.value);
                b_.push_back(b.value);
                c_.push_back(c.value);
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

    size_t num_inputs() const { return inputs_.size(); }
    size_t num_aux() const { return aux_.size(); }
    size_t num_constraints() const { return num_constraints_; }

    // --- results ---------------------------------------------------------------------------
    const std::vector<Fr>& inputs() const { return inputs_; }
    const std::vector<Fr>& aux() const { return aux_; }
    std::vector<Fr>& mutable_aux() { return aux_; }  // tests corrupt a witness through this
    const std::vector<Fr>& a_evals() const { return a_; }
    const std::vector<Fr>& b_evals() const { return b_; }
    const std::vector<Fr>& c_evals() const { return c_; }
    std::vector<Fr> take_inputs() { return std::move(inputs_); }
    std::vector<Fr> take_aux() { return std::move(aux_); }
    std::vector<Fr> take_a_evals() { return std::move(a_); }
    std::vector<Fr> take_b_evals() { return std::move(b_); }
    std::vector<Fr> take_c_evals() { return std::move(c_); }

    bool is_satisfied() const { return !failure_; }
    const std::optional<CheckFailure>& first_failure() const { return failure_; }

 private:
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
    // Owned copies: callers pass temporaries (found by ASan), and check mode is not a hot path.
    std::vector<Fr> replay_inputs_, replay_aux_;
    std::vector<Fr> inputs_, aux_;
    std::vector<Fr> a_, b_, c_;
    size_t num_constraints_ = 0;
    std::vector<std::string> ns_;
    std::optional<CheckFailure> failure_;
};

using WitnessCS = EvalCS<false>;
using CheckCS = EvalCS<true>;

}  // namespace cuzk::r1cs
