// Runs one circuit (a generic lambda taking the CS) in the three modes and checks that
// they agree: same counts, the shape's sparse products equal the witness-mode a·z, b·z,
// c·z exactly, the tracked densities equal the densities of the recorded matrices, and
// (unless told otherwise) every constraint holds in check mode.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>

#include "cuzk/r1cs/r1cs.hpp"

namespace cuzk::test {

// Canonical little-endian u64 limbs, as neptune's scalar_from_u64s (known answers).
inline Fr from_limbs(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
    BigInt<4> x;
    x.l[0] = a;
    x.l[1] = b;
    x.l[2] = c;
    x.l[3] = d;
    return *Fr::from_bigint(x);
}

struct ModeRuns {
    r1cs::Shape shape;
    r1cs::WitnessCS witness{r1cs::WitnessOptions{.record_evals = true}};
    r1cs::CheckCS check;
};

template <class F>
ModeRuns run_all_modes(F&& circuit, bool expect_satisfied = true) {
    ModeRuns r;
    r1cs::ShapeCS s;
    circuit(s);
    const r1cs::Density tracked = s.density();
    r.shape = s.finish();
    circuit(r.witness);
    circuit(r.check);
    EXPECT_EQ(r.shape.num_constraints, r.witness.num_constraints());
    EXPECT_EQ(r.shape.num_constraints, r.check.num_constraints());
    EXPECT_EQ(r.shape.num_inputs, r.witness.num_inputs());
    EXPECT_EQ(r.shape.num_aux, r.witness.num_aux());
    EXPECT_TRUE(std::ranges::equal(r.witness.aux(), r.check.aux()))
        << "witness and check modes computed different assignments";
    EXPECT_EQ(tracked, r.shape.density());
    if (r.shape.num_inputs == r.witness.num_inputs() && r.shape.num_aux == r.witness.num_aux()) {
        EXPECT_TRUE(std::ranges::equal(r.shape.product(r1cs::Matrix::A, r.witness.inputs(), r.witness.aux()),
                                       r.witness.a_evals()))
            << "A·z from the shape differs from the witness-mode evaluations";
        EXPECT_TRUE(std::ranges::equal(r.shape.product(r1cs::Matrix::B, r.witness.inputs(), r.witness.aux()),
                                       r.witness.b_evals()))
            << "B·z from the shape differs from the witness-mode evaluations";
        EXPECT_TRUE(std::ranges::equal(r.shape.product(r1cs::Matrix::C, r.witness.inputs(), r.witness.aux()),
                                       r.witness.c_evals()))
            << "C·z from the shape differs from the witness-mode evaluations";
    }
    if (expect_satisfied) {
        EXPECT_TRUE(r.check.is_satisfied()) << r.check.first_failure()->message;
    }
    return r;
}

}  // namespace cuzk::test
