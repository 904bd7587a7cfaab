// Two witness-mode runs of one circuit (e.g. serial and parallel synthesis) gave the same
// assignment and the same A·z, B·z, C·z.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>

#include "cuzk/r1cs/eval_cs.hpp"

namespace cuzk::test {

inline void expect_same_witness(const r1cs::WitnessCS& a, const r1cs::WitnessCS& b) {
    EXPECT_EQ(a.num_constraints(), b.num_constraints());
    EXPECT_TRUE(a.inputs() == b.inputs());
    EXPECT_TRUE(std::ranges::equal(a.aux(), b.aux()));
    EXPECT_TRUE(std::ranges::equal(a.a_evals(), b.a_evals()));
    EXPECT_TRUE(std::ranges::equal(a.b_evals(), b.b_evals()));
    EXPECT_TRUE(std::ranges::equal(a.c_evals(), b.c_evals()));
}

}  // namespace cuzk::test
