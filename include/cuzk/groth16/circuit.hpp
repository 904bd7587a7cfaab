// A circuit as the Groth16 layer sees it: one source that can record its shape and
// compute its witness. Circuits are templates over the constraint system
// (`template <class CS> void synthesize(CS&) const`, see r1cs/cs.hpp); CircuitOf<C>
// type-erases one so that setup, the prover and the command line can take any circuit.
//
// Both modes append bellperson's `input_i * 0 = 0` constraints (one per public input,
// ONE included) after synthesis, so the shape and the witness describe exactly the
// constraint system whose QAP the keys encode.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/common/cancel.hpp"
#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/r1cs/eval_cs.hpp"
#include "cuzk/r1cs/shape.hpp"
#include "cuzk/r1cs/shape_cs.hpp"

namespace cuzk::groth16 {

// What the prover needs of one assignment.
struct Witness {
    std::vector<Fr> inputs;  // ONE first
    r1cs::WitnessVector aux;
    // A·z, B·z, C·z, one entry per constraint (input constraints included). WitnessVector:
    // resize(n) leaves new entries unwritten (see r1cs::WitnessBuffers).
    r1cs::WitnessVector a, b, c;
};

// The counts and densities of a circuit without its matrices: what the prover needs when
// the keys come from a file.
struct ShapeSummary {
    uint64_t num_inputs = 1, num_aux = 0, num_constraints = 0;  // inputs: ONE included
    r1cs::Density density;
};

// How shape() and summary() run: `cancel` is checked every few thousand constraints
// (r1cs::ShapeCS::kCancelEvery; cuzk::Cancelled is thrown when it turns true); `reserve`,
// when set, sizes the matrices up front (r1cs::ShapeCS::reserve).
struct ShapeOptions {
    CancelCheck cancel;
    std::optional<r1cs::ShapeCounts> reserve;
};

class Circuit {
 public:
    virtual ~Circuit() = default;
    virtual std::string name() const = 0;
    // Shape mode: the R1CS matrices (with the input constraints).
    r1cs::Shape shape() const { return shape(ShapeOptions{}); }
    virtual r1cs::Shape shape(const ShapeOptions& opt) const = 0;
    // Shape mode without the matrices (r1cs::ShapeCS(false)): equal to shape()'s counts and
    // density(), in memory proportional to the variables.
    ShapeSummary summary() const { return summary(ShapeOptions{}); }
    virtual ShapeSummary summary(const ShapeOptions& opt) const = 0;
    // Witness mode: the assignment and the per-constraint evaluations.
    Witness witness() const { return witness(r1cs::WitnessBuffers{}, 0, 0); }
    // The same, reusing the storage of `reuse` (see r1cs::WitnessBuffers) and reserving
    // room for `num_aux` aux variables and `num_constraints` evaluations up front; `cancel`
    // is checked every few thousand constraints (r1cs::WitnessOptions::cancel).
    virtual Witness witness(r1cs::WitnessBuffers&& reuse, size_t num_aux, size_t num_constraints,
                            const CancelCheck& cancel = {}) const = 0;
    // Check mode: nullopt when every constraint holds, else what failed (by namespace).
    virtual std::optional<std::string> check() const = 0;
};

template <class C>
class CircuitOf final : public Circuit {
 public:
    explicit CircuitOf(C c, std::string name) : c_(std::move(c)), name_(std::move(name)) {}
    std::string name() const override { return name_; }
    using Circuit::shape;
    r1cs::Shape shape(const ShapeOptions& opt) const override {
        r1cs::ShapeCS cs;
        cs.set_cancel(opt.cancel);
        if (opt.reserve) cs.reserve(*opt.reserve);
        c_.synthesize(cs);
        r1cs::enforce_inputs_times_zero(cs);
        return cs.finish();
    }
    using Circuit::summary;
    ShapeSummary summary(const ShapeOptions& opt) const override {
        r1cs::ShapeCS cs(false);
        cs.set_cancel(opt.cancel);
        c_.synthesize(cs);
        r1cs::enforce_inputs_times_zero(cs);
        return {cs.num_inputs(), cs.num_aux(), cs.num_constraints(), cs.density()};
    }
    using Circuit::witness;
    Witness witness(r1cs::WitnessBuffers&& reuse, size_t num_aux, size_t num_constraints,
                    const CancelCheck& cancel = {}) const override {
        r1cs::WitnessOptions opt;
        opt.cancel = cancel;
        opt.record_evals = true;
        opt.reserve_aux = num_aux;
        opt.reserve_constraints = num_constraints;
        r1cs::WitnessCS cs(opt, std::move(reuse));
        c_.synthesize(cs);
        r1cs::enforce_inputs_times_zero(cs);
        Witness w;
        w.inputs = cs.take_inputs();
        w.aux = cs.take_aux();
        w.a = cs.take_a_evals();
        w.b = cs.take_b_evals();
        w.c = cs.take_c_evals();
        return w;
    }
    std::optional<std::string> check() const override {
        r1cs::CheckCS cs;
        c_.synthesize(cs);
        r1cs::enforce_inputs_times_zero(cs);
        if (auto f = cs.first_failure()) return f->message;
        return std::nullopt;
    }
    const C& inner() const { return c_; }

 private:
    C c_;
    std::string name_;
};

template <class C>
std::unique_ptr<Circuit> make_circuit(C c, std::string name) {
    return std::make_unique<CircuitOf<C>>(std::move(c), std::move(name));
}

}  // namespace cuzk::groth16
