// The constraint-system interface shared by the three modes. Circuits and gadgets are
// templates over the CS type (template <class CS> void synthesize(CS& cs)), so one
// circuit source serves
//   ShapeCS   (shape_cs.hpp)  records A, B, C for setup and the per-shape cache;
//   WitnessCS (eval_cs.hpp)   computes the assignment only (the proving hot path) and,
//                             when asked, a·z, b·z, c·z per constraint;
//   CheckCS   (eval_cs.hpp)   evaluates every constraint from z and reports the first
//                             unsatisfied one by namespace path;
//   CountCS   (count_cs.hpp)  counts inputs, aux variables and constraints and stores
//                             nothing (circuit-size tables, 32 GiB shapes without 100 GB).
//
// Each CS has its own linear-combination type CS::LC. In ShapeCS it is a list of terms;
// in WitnessCS and CheckCS it is the evaluated value a·z itself (one Fr), so a gadget
// that builds LCs costs a few field additions and no allocation. LCs are therefore only
// built and combined through the CS (the witness LC needs z to evaluate a term):
//
//   LC l = cs.lc();                  // zero          LC l = cs.lc(v);  // 1·v
//   cs.add(l, v); cs.add(l, v, c);   // l += v, c·v   cs.sub(l, v); cs.sub(l, v, c);
//   cs.add_bit(l, v, value, c);      // l += c·v where the caller knows v = value ∈ {0,1}:
//                                    // witness mode adds c or nothing (no lookup, no mul)
//   cs.add_not_bit(l, v, value, c);  // l += c·(1 - v), same shortcut
//   cs.add_const(l, c);              // l += c·ONE
//   cs.add_lc(l, m); cs.sub_lc(l, m); cs.add_lc(l, m, c);   // l += m, -= m, += c·m
//   cs.scale(l, c);                  // l *= c
//
//   Variable v = cs.alloc(fn);       // fn() -> Fr is called only where values exist
//   Variable v = cs.alloc_input(fn); // input 0 is ONE (Variable::one()), allocated up front
//   cs.enforce(name, a, b, c);       // a · b = c
//   auto ns = cs.namespace_(name);   // scoped; popped when ns dies
//
// A name is a string (literal or std::string) or a callable returning one. Names are
// used only by CheckCS: namespace names are resolved when pushed, constraint names
// only when that constraint is the first unsatisfied one; ShapeCS and WitnessCS never
// call a name callable, so `[&] { return "bit " + std::to_string(i); }` costs nothing there.
//
// CS::kHasValues: values exist (gadgets may read them; in ShapeCS they are
// meaningless). CS::kTrustValues: the values gadgets carry are the assignment, so a
// gadget may evaluate an LC from them directly (WitnessCS only; CheckCS evaluates from
// z so that a wrong witness is caught).
#pragma once

#include <concepts>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/r1cs/variable.hpp"

namespace cuzk::r1cs {

enum class Mode { Shape, Witness, Check, Count };

// A circuit that cannot be synthesized (bellperson's SynthesisError): e.g. two constant
// booleans asserted equal that differ, or a value that needs an inverse of zero.
class SynthesisError : public std::runtime_error {
 public:
    using std::runtime_error::runtime_error;
};

// Resolves a name argument (string-like or a callable returning one).
template <class N>
std::string name_string(N&& n) {
    if constexpr (std::is_invocable_v<N>) {
        return std::string(n());
    } else {
        return std::string(std::forward<N>(n));
    }
}

// The namespace guard of the modes that ignore names. The user-provided destructor keeps
// `auto ns = cs.namespace_(...)` free of -Wunused-variable; it compiles to nothing.
struct NoNamespace {
    NoNamespace() = default;
    NoNamespace(const NoNamespace&) = delete;
    NoNamespace& operator=(const NoNamespace&) = delete;
    ~NoNamespace() {}
};

// Pops one namespace of cs when it goes out of scope.
template <class CS>
class NamespaceGuard {
 public:
    explicit NamespaceGuard(CS& cs) : cs_(&cs) {}
    NamespaceGuard(const NamespaceGuard&) = delete;
    NamespaceGuard& operator=(const NamespaceGuard&) = delete;
    ~NamespaceGuard() { cs_->pop_namespace(); }

 private:
    CS* cs_;
};

template <class CS>
concept ConstraintSystem = requires(CS& cs, const CS& ccs, typename CS::LC& l, const typename CS::LC& m, Variable v,
                                    const Fr& c) {
    { CS::kMode } -> std::convertible_to<Mode>;
    { CS::kHasValues } -> std::convertible_to<bool>;
    { CS::kTrustValues } -> std::convertible_to<bool>;
    { ccs.lc() } -> std::same_as<typename CS::LC>;
    { ccs.lc(v) } -> std::same_as<typename CS::LC>;
    ccs.add(l, v);
    ccs.add(l, v, c);
    ccs.sub(l, v);
    ccs.sub(l, v, c);
    ccs.add_bit(l, v, true, c);
    ccs.add_not_bit(l, v, true, c);
    ccs.add_const(l, c);
    ccs.scale(l, c);
    ccs.add_lc(l, m);
    ccs.add_lc(l, m, c);
    ccs.sub_lc(l, m);
    {
        cs.alloc([] { return Fr::zero(); })
        } -> std::same_as<Variable>;
    {
        cs.alloc_input([] { return Fr::zero(); })
        } -> std::same_as<Variable>;
    cs.enforce("name", m, m, m);
    { ccs.num_inputs() } -> std::convertible_to<size_t>;
    { ccs.num_aux() } -> std::convertible_to<size_t>;
    { ccs.num_constraints() } -> std::convertible_to<size_t>;
};

// bellperson's Groth16 appends input_i * 0 = 0 for every public input (ONE included)
// after synthesis, so that the A query is dense in the inputs and the IC/L split works.
// Call this once synthesis is done (groth16 decides; kept here so any CS can do it).
template <class CS>
void enforce_inputs_times_zero(CS& cs) {
    const size_t n = cs.num_inputs();
    for (size_t i = 0; i < n; ++i) {
        cs.enforce("input * 0 = 0", cs.lc(Variable::input(uint32_t(i))), cs.lc(), cs.lc());
    }
}

}  // namespace cuzk::r1cs
