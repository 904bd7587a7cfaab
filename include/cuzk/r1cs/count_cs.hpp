// Counting mode: the numbers of inputs, aux variables and constraints of a circuit, with
// nothing stored and no value computed. Linear combinations are empty and every LC
// operation is a no-op, so a circuit runs at the speed of its control flow: the 32 GiB
// PoRep partition (130,278,541 constraints) is counted without the ~100 GB its matrices
// would take. Like ShapeCS it has no values (value closures are never called), so it
// counts the same circuit ShapeCS records; only densities are not tracked.
#pragma once

#include "cuzk/common/cancel.hpp"
#include "cuzk/r1cs/cs.hpp"

namespace cuzk::r1cs {

class CountCS {
 public:
    struct LC {};
    static constexpr Mode kMode = Mode::Count;
    static constexpr bool kHasValues = false;
    static constexpr bool kTrustValues = false;

    // Checked every 4,096 constraints; cuzk::Cancelled is thrown when it turns true.
    void set_cancel(CancelCheck cancel) { cancel_ = std::move(cancel); }

    LC lc() const { return {}; }
    LC lc(Variable) const { return {}; }
    void add(LC&, Variable) const {}
    void add(LC&, Variable, const Fr&) const {}
    void sub(LC&, Variable) const {}
    void sub(LC&, Variable, const Fr&) const {}
    void add_bit(LC&, Variable, bool, const Fr&) const {}
    void add_not_bit(LC&, Variable, bool, const Fr&) const {}
    void add_const(LC&, const Fr&) const {}
    void add_lc(LC&, const LC&) const {}
    void add_lc(LC&, const LC&, const Fr&) const {}
    void sub_lc(LC&, const LC&) const {}
    void scale(LC&, const Fr&) const {}

    template <class F>
    Variable alloc(F&&) {
        return Variable::aux(uint32_t(num_aux_++));
    }
    template <class F>
    Variable alloc_input(F&&) {
        return Variable::input(uint32_t(num_inputs_++));
    }
    template <class N>
    void enforce(N&&, const LC&, const LC&, const LC&) {
        if (cancel_ && num_constraints_ % 4096 == 0) throw_if_cancelled(cancel_, "counting constraints");
        ++num_constraints_;
    }
    template <class N>
    [[nodiscard]] NoNamespace namespace_(N&&) {
        return {};
    }

    size_t num_inputs() const { return num_inputs_; }  // ONE included
    size_t num_aux() const { return num_aux_; }
    size_t num_constraints() const { return num_constraints_; }

 private:
    size_t num_inputs_ = 1;  // ONE
    size_t num_aux_ = 0;
    size_t num_constraints_ = 0;
    CancelCheck cancel_;
};

static_assert(ConstraintSystem<CountCS>);

}  // namespace cuzk::r1cs
