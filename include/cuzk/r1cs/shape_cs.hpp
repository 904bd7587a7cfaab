// Shape mode: records the R1CS matrices (A, B, C), the variable counts and the densities.
// Value closures are never called; gadget values are meaningless here.
//
// Each enforce() normalizes its three LCs (lc.hpp: sort, merge, drop zeros) and appends
// one CSR row per matrix, mapping every coefficient to its index in a dictionary
// (pre-seeded with 1 and -1, looked up by hash otherwise). Densities are tracked at
// the same time, from the merged LCs, as bellperson's prover tracks them.
#pragma once

#include <unordered_map>

#include "cuzk/common/cancel.hpp"
#include "cuzk/r1cs/cs.hpp"
#include "cuzk/r1cs/lc.hpp"
#include "cuzk/r1cs/shape.hpp"

namespace cuzk::r1cs {

class ShapeCS {
 public:
    using LC = LinearCombination;
    static constexpr Mode kMode = Mode::Shape;
    static constexpr bool kHasValues = false;
    static constexpr bool kTrustValues = false;

    ShapeCS();
    // matrices = false: counts and densities only (the LCs are normalized for the
    // densities, then dropped), for circuits whose keys are read from a file: memory grows
    // with the variables, not with the non-zeros (the 32 GiB PoRep's matrices are ~100 GB).
    explicit ShapeCS(bool matrices) : ShapeCS() { matrices_ = matrices; }

    // Checked every kCancelEvery constraints; when it turns true, enforce() throws
    // cuzk::Cancelled (the recording so far is freed as the exception unwinds).
    void set_cancel(CancelCheck cancel) { cancel_ = std::move(cancel); }
    static constexpr uint64_t kCancelEvery = 4096;
    // Reserves the matrices for `counts` (upper bounds), so that they grow without the
    // doubling's slack and its copy.
    void reserve(const ShapeCounts& counts);

    // --- linear combinations -----------------------------------------------------------
    LC lc() const { return LC(); }
    LC lc(Variable v) const { return LC(v); }
    void add(LC& l, Variable v) const { l.add(v); }
    void add(LC& l, Variable v, const Fr& c) const { l.add(v, c); }
    void sub(LC& l, Variable v) const { l.sub(v); }
    void sub(LC& l, Variable v, const Fr& c) const { l.sub(v, c); }
    void add_bit(LC& l, Variable v, bool, const Fr& c) const { l.add(v, c); }
    void add_not_bit(LC& l, Variable v, bool, const Fr& c) const {
        l.add(Variable::one(), c);
        l.sub(v, c);
    }
    void add_const(LC& l, const Fr& c) const { l.add(Variable::one(), c); }
    void add_lc(LC& l, const LC& m) const { l.add(m); }
    void add_lc(LC& l, const LC& m, const Fr& c) const { l.add_scaled(m, c); }
    void sub_lc(LC& l, const LC& m) const { l.sub(m); }
    void scale(LC& l, const Fr& c) const { l.scale(c); }

    // --- variables and constraints -------------------------------------------------------
    template <class F>
    Variable alloc(F&&) {
        check_room(shape_.num_aux, "aux");
        return Variable::aux(uint32_t(shape_.num_aux++));
    }
    template <class F>
    Variable alloc_input(F&&) {
        check_room(shape_.num_inputs, "input");
        return Variable::input(uint32_t(shape_.num_inputs++));
    }
    template <class N>
    void enforce(N&&, LC a, LC b, LC c) {
        record(a, b, c);
    }
    template <class N>
    [[nodiscard]] NoNamespace namespace_(N&&) {
        return {};
    }

    size_t num_inputs() const { return shape_.num_inputs; }
    size_t num_aux() const { return shape_.num_aux; }
    size_t num_constraints() const { return shape_.num_constraints; }

    // Densities as tracked so far (sized to the current variable counts).
    Density density() const;
    // The recorded shape; the CS is left empty.
    Shape finish();

 private:
    void record(LC& a, LC& b, LC& c);
    void append(SparseMatrix& m, const LC& l);
    uint32_t coeff_index(const Fr& c);
    static void check_room(uint64_t n, const char* what);

    struct FrHash {
        size_t operator()(const Fr& x) const {
            return size_t(x.l[0] ^ (x.l[1] * 0x9e3779b97f4a7c15ULL) ^ (x.l[2] >> 7) ^ (x.l[3] << 13));
        }
    };
    Shape shape_;
    bool matrices_ = true;
    CancelCheck cancel_;
    std::unordered_map<Fr, uint32_t, FrHash> dict_;
    std::vector<uint64_t> a_aux_, b_input_, b_aux_;  // density bits, grown on demand
};

}  // namespace cuzk::r1cs
