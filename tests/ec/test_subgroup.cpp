// Endomorphism constants, subgroup checks (fast vs reference) and cofactor clearing.
#include <gtest/gtest.h>

#include <random>

#include "cuzk/ec/ec.hpp"
#include "support/seed.hpp"

namespace cuzk {
namespace {

Fp::Big p_minus_1_over(uint64_t d) {
    // (p - 1) / d by schoolbook long division on 64-bit limbs (d small).
    Fp::Big x = Fp::kP;
    x.l[0] -= 1;
    Fp::Big q = Fp::Big::zero();
    u128 rem = 0;
    for (size_t i = Fp::N; i-- > 0;) {
        u128 cur = (rem << 64) | x.l[i];
        q.l[i] = uint64_t(cur / d);
        rem = cur % d;
    }
    EXPECT_EQ(uint64_t(rem), 0u);
    return q;
}

TEST(Endomorphisms, ConstantsMatchTheirDefinitions) {
    // beta is a primitive cube root of unity.
    const Fp beta = ec_psi::beta();
    EXPECT_FALSE(beta.is_one());
    EXPECT_TRUE((beta.square() * beta).is_one());
    EXPECT_EQ(beta.to_hex(), "0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe");
    // kPsiX = 1/(1+u)^((p-1)/3), kPsiY = 1/(1+u)^((p-1)/2).
    const Fp2 xi = {Fp::one(), Fp::one()};
    EXPECT_EQ(ec_psi::psi_x(), xi.pow(p_minus_1_over(3)).inverse());
    EXPECT_EQ(ec_psi::psi_y(), xi.pow(p_minus_1_over(2)).inverse());
}

TEST(Endomorphisms, ActAsScalarsOnTheSubgroups) {
    std::mt19937_64 rng(test::seed());
    for (int i = 0; i < 3; ++i) {
        G1Jacobian p = G1Jacobian::from_affine(random_subgroup_point<G1Curve>(rng));
        // phi = [-x^2] on G1 (this picks beta out of the two cube roots).
        EXPECT_EQ(ec_psi::phi(p), -mul_by_x_abs(mul_by_x_abs(p)));
        EXPECT_TRUE(ec_psi::phi(p).is_on_curve());
        G2Jacobian q = G2Jacobian::from_affine(random_subgroup_point<G2Curve>(rng));
        EXPECT_TRUE(ec_psi::psi(q).is_on_curve());
        EXPECT_EQ(ec_psi::psi(q), mul_by_x(q));
        // psi^2 - t psi + p = 0 on E'(Fp2) with trace t = x + 1 (the Frobenius relation).
        G2Jacobian r = G2Jacobian::from_affine(random_curve_point<G2Curve>(rng));
        G2Jacobian lhs = ec_psi::psi2(r) + mul_wnaf(r, Fp::kP);
        G2Jacobian rhs = ec_psi::psi(r) + mul_by_x(ec_psi::psi(r));
        EXPECT_EQ(lhs, rhs);
    }
}

// Random curve points fail both checks; after cofactor clearing both pass; the fast and
// the reference check agree everywhere. The identity is in the subgroup.
template <class Curve>
void check_subgroup(std::mt19937_64& rng) {
    using J = Jacobian<Curve>;
    EXPECT_TRUE(is_in_subgroup(Affine<Curve>::identity()));
    EXPECT_TRUE(is_in_subgroup_reference(Affine<Curve>::identity()));
    EXPECT_TRUE(is_in_subgroup(Affine<Curve>::generator()));
    EXPECT_TRUE(is_in_subgroup_reference(Affine<Curve>::generator()));
    for (int i = 0; i < 6; ++i) {
        Affine<Curve> raw = random_curve_point<Curve>(rng);
        ASSERT_TRUE(raw.is_on_curve());
        const bool fast_raw = is_in_subgroup(raw);
        EXPECT_EQ(fast_raw, is_in_subgroup_reference(raw));
        EXPECT_FALSE(fast_raw) << "random curve point in the subgroup (probability ~2^-126)";
        J cleared = clear_cofactor(J::from_affine(raw));
        ASSERT_TRUE(cleared.is_on_curve());
        EXPECT_TRUE(is_in_subgroup(cleared.to_affine()));
        EXPECT_TRUE(is_in_subgroup_reference(cleared));
        // cleared + raw keeps the nonzero cofactor-order part of raw, so it fails too.
        J mixed = cleared + J::from_affine(raw);
        EXPECT_EQ(is_in_subgroup(mixed), is_in_subgroup_reference(mixed));
        EXPECT_FALSE(is_in_subgroup(mixed));
    }
}

TEST(Subgroup, G1FastAndReferenceAgree) {
    std::mt19937_64 rng(test::seed());
    check_subgroup<G1Curve>(rng);
}

TEST(Subgroup, G2FastAndReferenceAgree) {
    std::mt19937_64 rng(test::seed());
    check_subgroup<G2Curve>(rng);
}

TEST(Subgroup, G1PointsOfSmallOrderAreRejected) {
    // [r] P has order dividing h1 for any curve point P; it is in G1 only if it is O.
    std::mt19937_64 rng(test::seed());
    for (int i = 0; i < 3; ++i) {
        G1Jacobian t = mul_wnaf(G1Jacobian::from_affine(random_curve_point<G1Curve>(rng)), Fr::kP);
        ASSERT_FALSE(t.is_identity());
        EXPECT_FALSE(is_in_subgroup(t));
        EXPECT_FALSE(is_in_subgroup_reference(t));
        // h1 = (x - 1)^2 / 3 kills it.
        const BigInt<2> h1{{0x8c00aaab0000aaabULL, 0x396c8c005555e156ULL}};
        EXPECT_TRUE(mul_wnaf(t, h1).is_identity());
    }
}

TEST(CofactorClearing, MatchesMultiplicationByHeff) {
    std::mt19937_64 rng(test::seed());
    // G1: h_eff = 1 - x.
    G1Jacobian p = G1Jacobian::from_affine(random_curve_point<G1Curve>(rng));
    EXPECT_EQ(clear_cofactor(p), mul_u64(p, kG1CofactorEff));
    // G2: h_eff from draft-irtf-cfrg-hash-to-curve-16, section 8.8.2.
    constexpr auto heff2 = BigInt<10>::must_parse(
        "0xbc69f08f2ee75b3584c6a0ea91b352888e2a8e9145ad7689986ff031508ffe1329c2f178731db956d82bf015d1212b02ec0ec69d7"
        "477c1ae954cbc06689f6a359894c0adebbf6b4e8020005aaa95551");
    G2Jacobian q = G2Jacobian::from_affine(random_curve_point<G2Curve>(rng));
    EXPECT_EQ(clear_cofactor(q), mul_wnaf(q, heff2));
    EXPECT_TRUE(clear_cofactor(G2Jacobian::identity()).is_identity());
    EXPECT_TRUE(clear_cofactor(G1Jacobian::identity()).is_identity());
}

}  // namespace
}  // namespace cuzk
