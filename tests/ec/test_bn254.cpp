// BN254 G1 and G2: constants against their definitions, the G2 subgroup check and cofactor
// clearing, and Ethereum's encoding (EIP-196/197) with every malformed class rejected. The
// group laws run in test_group.cpp (GroupTest over the BN254 curves too).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/ec/bn254.hpp"
#include "cuzk/ec/subgroup.hpp"
#include "support/seed.hpp"

namespace cuzk::bn254 {
namespace {

TEST(Bn254Curves, ConstantsMatchTheirDefinitions) {
    const Fp2 xi{Fp::from_u64(9), Fp::one()};
    EXPECT_EQ(G2Curve::b() * xi, Fp2(Fp::from_u64(3), Fp::zero()));
    EXPECT_TRUE(G1Affine::generator().is_on_curve());
    EXPECT_TRUE(G2Affine::generator().is_on_curve());
    EXPECT_TRUE(mul_wnaf(G1Jacobian::generator(), Fr::kP).is_identity());
    EXPECT_TRUE(mul_wnaf(G2Jacobian::generator(), Fr::kP).is_identity());
    EXPECT_FALSE(G2Jacobian::generator().is_identity());
    // (0, 0) is on neither curve, so the all-zero encoding of infinity is unambiguous.
    EXPECT_FALSE((G1Affine{Fp::zero(), Fp::zero(), false}.is_on_curve()));
    EXPECT_FALSE((G2Affine{Fp2::zero(), Fp2::zero(), false}.is_on_curve()));
}

TEST(Bn254Curves, PsiActsAsPOnG2) {
    std::mt19937_64 rng(test::seed());
    // p mod r = 6x^2 (p - r = 6x^2 < r).
    const BigInt<2> six_x2 = [] {
        const unsigned __int128 v = static_cast<unsigned __int128>(kBnX) * kBnX * 6;
        return BigInt<2>{{uint64_t(v), uint64_t(v >> 64)}};
    }();
    for (int i = 0; i < 4; ++i) {
        const G2Affine q = random_subgroup_point<G2Curve>(rng);
        EXPECT_EQ(G2Jacobian::from_affine(psi(q)), mul_wnaf(G2Jacobian::from_affine(q), six_x2));
    }
}

TEST(Bn254Subgroup, G2CheckAndCofactorClearing) {
    std::mt19937_64 rng(test::seed());
    int outside = 0;
    for (int i = 0; i < 8; ++i) {
        const G2Affine q = random_curve_point<G2Curve>(rng);
        ASSERT_TRUE(q.is_on_curve());
        // A random twist point lies in G2 with probability 1/h2 (about 2^-254).
        if (!is_in_subgroup(q)) ++outside;
        const G2Jacobian c = clear_cofactor(G2Jacobian::from_affine(q));
        EXPECT_TRUE(is_in_subgroup(c));
        EXPECT_TRUE(c.is_on_curve());
    }
    EXPECT_EQ(outside, 8);
    EXPECT_TRUE(is_in_subgroup(G2Affine::generator()));
    EXPECT_TRUE(is_in_subgroup(G2Affine::identity()));
    const G1Affine p = random_subgroup_point<G1Curve>(rng);
    EXPECT_TRUE(p.is_on_curve());
}

// The endomorphism test against [r] Q == O: twist points outside G2 (random ones, and
// subgroup points plus one of them), subgroup points, and psi on Jacobian points.
TEST(Bn254Subgroup, G2FastAndReferenceAgree) {
    std::mt19937_64 rng(test::seed());
    for (int i = 0; i < 8; ++i) {
        const G2Jacobian out = G2Jacobian::from_affine(random_curve_point<G2Curve>(rng));
        const G2Jacobian in = G2Jacobian::from_affine(random_subgroup_point<G2Curve>(rng));
        for (const G2Jacobian& q : {out, in, in + out, in.dbl()}) {
            ASSERT_EQ(is_in_subgroup(q), is_in_subgroup_reference(q));
        }
        EXPECT_FALSE(is_in_subgroup(out));
        EXPECT_TRUE(is_in_subgroup(in));
        EXPECT_FALSE(is_in_subgroup(in + out));
        EXPECT_EQ(psi(in).to_affine(), psi(in.to_affine()));
    }
}

TEST(Bn254Encoding, GeneratorsKnownBytes) {
    const auto g1 = to_eth_bytes(G1Affine::generator());
    for (size_t i = 0; i < g1.size(); ++i) EXPECT_EQ(g1[i], i == 31 ? 1 : i == 63 ? 2 : 0) << i;
    // EIP-197's generator, x then y, each imaginary part first.
    const auto g2 = to_eth_bytes(G2Affine::generator());
    const auto x_c1 =
        Fp::from_string("11559732032986387107991004021392285783925812861821192530917403151452391805634")->to_bytes_be();
    EXPECT_TRUE(std::equal(x_c1.begin(), x_c1.end(), g2.begin()));
    const auto y_c0 =
        Fp::from_string("8495653923123431417604973247489272438418190587263600148770280649306958101930")->to_bytes_be();
    EXPECT_TRUE(std::equal(y_c0.begin(), y_c0.end(), g2.begin() + 96));
}

TEST(Bn254Encoding, RoundTripAndInfinity) {
    std::mt19937_64 rng(test::seed());
    for (int i = 0; i < 8; ++i) {
        const G1Affine p = random_subgroup_point<G1Curve>(rng);
        const G2Affine q = random_subgroup_point<G2Curve>(rng);
        EXPECT_EQ(decode_eth_g1(to_eth_bytes(p)).value(), p);
        EXPECT_EQ(decode_eth_g2(to_eth_bytes(q)).value(), q);
    }
    const auto z1 = to_eth_bytes(G1Affine::identity());
    const auto z2 = to_eth_bytes(G2Affine::identity());
    EXPECT_TRUE(std::all_of(z1.begin(), z1.end(), [](uint8_t b) { return b == 0; }));
    EXPECT_TRUE(std::all_of(z2.begin(), z2.end(), [](uint8_t b) { return b == 0; }));
    EXPECT_TRUE(decode_eth_g1(z1).value().is_identity());
    EXPECT_TRUE(decode_eth_g2(z2).value().is_identity());
}

TEST(Bn254Encoding, EveryMalformedClassIsRejectedWithItsOwnError) {
    std::mt19937_64 rng(test::seed());
    auto g1 = to_eth_bytes(G1Affine::generator());
    auto g2 = to_eth_bytes(G2Affine::generator());
    // Lengths.
    EXPECT_EQ(decode_eth_g1(std::span<const uint8_t>(g1).first(63)).error, DecodeError::kWrongLengthEthereum);
    EXPECT_EQ(decode_eth_g2(std::span<const uint8_t>(g1)).error, DecodeError::kWrongLengthEthereum);
    EXPECT_EQ(decode_eth_g1(std::vector<uint8_t>(96, 0)).error, DecodeError::kWrongLengthEthereum);
    // A coordinate equal to p (x of G1, then the imaginary part of y of G2).
    const auto p_bytes = [] {
        std::array<uint8_t, 32> b{};
        for (size_t i = 0; i < 32; ++i) b[31 - i] = uint8_t(Fp::kP.l[i / 8] >> (8 * (i % 8)));
        return b;
    }();
    auto bad = g1;
    std::copy(p_bytes.begin(), p_bytes.end(), bad.begin());
    EXPECT_EQ(decode_eth_g1(bad).error, DecodeError::kCoordinateNotInField);
    auto bad2 = g2;
    std::copy(p_bytes.begin(), p_bytes.end(), bad2.begin() + 64);
    EXPECT_EQ(decode_eth_g2(bad2).error, DecodeError::kCoordinateNotInField);
    // Off the curve: y of G1 is 3 instead of 2; a flipped bit in G2's y.
    bad = g1;
    bad[63] = 3;
    EXPECT_EQ(decode_eth_g1(bad).error, DecodeError::kNotOnCurve);
    bad2 = g2;
    bad2[127] ^= 1;
    EXPECT_EQ(decode_eth_g2(bad2).error, DecodeError::kNotOnCurve);
    // The coordinates of G2 in the wrong order (real part first) are off the curve too.
    auto swapped = g2;
    std::swap_ranges(swapped.begin(), swapped.begin() + 32, swapped.begin() + 32);
    std::swap_ranges(swapped.begin() + 64, swapped.begin() + 96, swapped.begin() + 96);
    EXPECT_NE(decode_eth_g2(swapped).error, DecodeError::kNone);
    // On the twist but outside G2; accepted without the subgroup check.
    const G2Affine q = random_curve_point<G2Curve>(rng);
    EXPECT_EQ(decode_eth_g2(to_eth_bytes(q)).error, DecodeError::kNotInSubgroup);
    EXPECT_EQ(decode_eth_g2(to_eth_bytes(q), Validation::kNoSubgroupCheck).value(), q);
    EXPECT_STRNE(decode_error_message(DecodeError::kWrongLengthEthereum),
                 decode_error_message(DecodeError::kWrongLength));
}

}  // namespace
}  // namespace cuzk::bn254
