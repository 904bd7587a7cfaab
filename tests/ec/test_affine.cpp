#include <gtest/gtest.h>

#include "cuzk/ec/affine.hpp"

namespace cuzk {
namespace {
TEST(Generators, AreOnTheirCurves) {
    EXPECT_TRUE(G1Affine::generator().is_on_curve());
    EXPECT_TRUE(G2Affine::generator().is_on_curve());
    G1Affine bad = G1Affine::generator();
    bad.y += Fp::one();
    EXPECT_FALSE(bad.is_on_curve());
}
}  // namespace
}  // namespace cuzk
