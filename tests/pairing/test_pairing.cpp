// The optimal ate pairing: the published value of e(G1, G2), the final exponent against
// GMP, bilinearity, order r, non-degeneracy, inverses, multi-pairing and prepared G2.
#include "cuzk/pairing/pairing.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <vector>

#include "support/gmp_ref.hpp"
#include "support/seed.hpp"

namespace cuzk {
namespace {

using test::Mpz;

// Test-local affine double-and-add (one inversion per step); the ec layer's scalar
// multiplication will replace it.
template <class Curve>
Affine<Curve> affine_add(const Affine<Curve>& a, const Affine<Curve>& b) {
    using F = typename Curve::Field;
    if (a.infinity) return b;
    if (b.infinity) return a;
    F lambda;
    if (a.x == b.x) {
        if (a.y != b.y || a.y.is_zero()) return Affine<Curve>::identity();
        F x2 = a.x.square();
        lambda = (x2.dbl() + x2) * a.y.dbl().inverse();
    } else {
        lambda = (b.y - a.y) * (b.x - a.x).inverse();
    }
    F x3 = lambda.square() - a.x - b.x;
    return {x3, lambda * (a.x - x3) - a.y, false};
}
template <class Curve, size_t M>
Affine<Curve> affine_mul(const Affine<Curve>& p, const BigInt<M>& k) {
    Affine<Curve> r = Affine<Curve>::identity();
    for (size_t i = k.num_bits(); i-- > 0;) {
        r = affine_add(r, r);
        if (k.bit(i)) r = affine_add(r, p);
    }
    return r;
}

Fp12 gt_pow(const Fp12& g, const Fr& k) { return g.pow(k.to_bigint()); }

// e(G1, G2) from zkcrypto/bls12_381 src/pairings.rs (Gt::generator), Montgomery limbs in
// the same tower Fp2[v]/(v^3 - (u + 1)), Fp6[w]/(w^2 - v); cross-checked there against RELIC.
Fp12 published_gt_generator() {
    auto fp = [](std::array<uint64_t, 6> l) {
        return Fp::from_raw_montgomery(BigInt<6>{{l[0], l[1], l[2], l[3], l[4], l[5]}});
    };
    Fp6 c0{{fp({0x1972e433a01f85c5, 0x97d32b76fd772538, 0xc8ce546fc96bcdf9, 0xcef63e7366d40614, 0xa611342781843780,
                0x13f3448a3fc6d825}),
            fp({0xd26331b02e9d6995, 0x9d68a482f7797e7d, 0x9c9b29248d39ea92, 0xf4801ca2e13107aa, 0xa16c0732bdbcb066,
                0x083ca4afba360478})},
           {fp({0x59e261db0916b641, 0x2716b6f4b23e960d, 0xc8e55b10a0bd9c45, 0x0bdb0bd99c4deda8, 0x8cf89ebf57fdaac5,
                0x12d6b7929e777a5e}),
            fp({0x5fc85188b0e15f35, 0x34a06e3a8f096365, 0xdb3126a6e02ad62c, 0xfc6f5aa97d9a990b, 0xa12f55f5eb89c210,
                0x1723703a926f8889})},
           {fp({0x93588f2971828778, 0x43f65b8611ab7585, 0x3183aaf5ec279fdf, 0xfa73d7e18ac99df6, 0x64e176a6a64c99b0,
                0x179fa78c58388f1f}),
            fp({0x672a0a11ca2aef12, 0x0d11b9b52aa3f16b, 0xa44412d0699d056e, 0xc01d0177221a5ba5, 0x66e0cede6c735529,
                0x05f5a71e9fddc339})}};
    Fp6 c1{{fp({0xd30a88a1b062c679, 0x5ac56a5d35fc8304, 0xd0c834a6a81f290d, 0xcd5430c2da3707c7, 0xf0c27ff780500af0,
                0x09245da6e2d72eae}),
            fp({0x9f2e0676791b5156, 0xe2d1c8234918fe13, 0x4c9e459f3c561bf4, 0xa3e85e53b9d3e3c1, 0x820a121e21a70020,
                0x15af618341c59acc})},
           {fp({0x7c95658c24993ab1, 0x73eb38721ca886b9, 0x5256d749477434bc, 0x8ba41902ea504a8b, 0x04a3d3f80c86ce6d,
                0x18a64a87fb686eaa}),
            fp({0xbb83e71bb920cf26, 0x2a5277ac92a73945, 0xfc0ee59f94f046a0, 0x7158cdf3786058f7, 0x7cc1061b82f945f6,
                0x03f847aa9fdbe567})},
           {fp({0x8078dba56134e657, 0x1cd7ec9a43998a6e, 0xb1aa599a1a993766, 0xc9a0f62f0842ee44, 0x8e159be3b605dffa,
                0x0c86ba0d4af13fc2}),
            fp({0xe80ff2a06a52ffb1, 0x7694ca48721a906c, 0x7583183e03b08514, 0xf567afdd40cee4e2, 0x9a6d96d2e526a5fc,
                0x197e9f49861f2242})}};
    return {c0, c1};
}

TEST(Pairing, GeneratorMatchesPublishedValue) {
    Fp12 e = pairing(G1Affine::generator(), G2Affine::generator());
    EXPECT_EQ(e, published_gt_generator());
}

TEST(Pairing, HardPartDecompositionHolds) {
    // (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3 == 3 (p^4 - p^2 + 1) / r, with x = -|x|.
    Mpz p = test::to_mpz(Fp::kP), r = test::to_mpz(Fr::kP), x, lhs, t, rhs;
    mpz_set_ui(x.v, kBlsXAbs);
    mpz_neg(x.v, x.v);
    mpz_sub_ui(t.v, x.v, 1);
    mpz_mul(lhs.v, t.v, t.v);  // (x - 1)^2
    mpz_add(t.v, x.v, p.v);
    mpz_mul(lhs.v, lhs.v, t.v);  // * (x + p)
    Mpz x2, p2;
    mpz_mul(x2.v, x.v, x.v);
    mpz_mul(p2.v, p.v, p.v);
    mpz_add(t.v, x2.v, p2.v);
    mpz_sub_ui(t.v, t.v, 1);
    mpz_mul(lhs.v, lhs.v, t.v);  // * (x^2 + p^2 - 1)
    mpz_add_ui(lhs.v, lhs.v, 3);
    mpz_mul(rhs.v, p2.v, p2.v);
    mpz_sub(rhs.v, rhs.v, p2.v);
    mpz_add_ui(rhs.v, rhs.v, 1);
    ASSERT_TRUE(mpz_divisible_p(rhs.v, r.v));
    mpz_divexact(rhs.v, rhs.v, r.v);
    mpz_mul_ui(rhs.v, rhs.v, 3);
    EXPECT_EQ(mpz_cmp(lhs.v, rhs.v), 0);
}

TEST(Pairing, FinalExponentiationIsPowerByDefinition) {
    // final_exponentiation(f) == f^(3 (p^12 - 1) / r) for a random f.
    std::mt19937_64 rng(test::seed());
    Mpz p = test::to_mpz(Fp::kP), r = test::to_mpz(Fr::kP), e;
    mpz_pow_ui(e.v, p.v, 12);
    mpz_sub_ui(e.v, e.v, 1);
    mpz_divexact(e.v, e.v, r.v);
    mpz_mul_ui(e.v, e.v, 3);
    Fp12 f = Fp12::random(rng);
    EXPECT_EQ(final_exponentiation(f), f.pow(test::from_mpz<72>(e)));
}

// Inputs that the easy part sends to 1 (any f in Fp6: f^(p^6 - 1) = conj(f)/f = 1) and
// the benchmark's e(P, Q) e(-P, Q) e(P, -Q) e(-P, -Q): the exponentiation by x takes its
// shortcut for 1 (the compressed squarings cannot be decompressed there).
TEST(Pairing, FinalExponentiationOfDegenerateInputs) {
    std::mt19937_64 rng(test::seed());
    Mpz p = test::to_mpz(Fp::kP), r = test::to_mpz(Fr::kP), e;
    mpz_pow_ui(e.v, p.v, 12);
    mpz_sub_ui(e.v, e.v, 1);
    mpz_divexact(e.v, e.v, r.v);
    mpz_mul_ui(e.v, e.v, 3);
    const Fp12 f = {Fp6::random(rng), Fp6::zero()};
    EXPECT_TRUE(final_exponentiation(f).is_one());
    EXPECT_TRUE(f.pow(test::from_mpz<72>(e)).is_one());
    const G1Affine g1 = G1Affine::generator();
    const G2Affine g2 = G2Affine::generator();
    std::vector<std::pair<G1Affine, G2Affine>> four = {{g1, g2}, {-g1, g2}, {g1, -g2}, {-g1, -g2}};
    EXPECT_TRUE(pairing_product_is_one(four));
    four[3].first = g1;  // the last factor becomes e(P, -Q): the product is e(P, Q)^-2, not 1
    EXPECT_FALSE(pairing_product_is_one(four));
}

TEST(Pairing, BilinearAndOfOrderR) {
    std::mt19937_64 rng(test::seed());
    const G1Affine g1 = G1Affine::generator();
    const G2Affine g2 = G2Affine::generator();
    const Fp12 e = pairing(g1, g2);
    EXPECT_FALSE(e.is_one());  // non-degenerate
    EXPECT_TRUE(e.pow(Fr::kP).is_one());
    for (int i = 0; i < 2; ++i) {
        Fr a = Fr::random(rng), b = Fr::random(rng);
        G1Affine pa = affine_mul(g1, a.to_bigint());
        G2Affine qb = affine_mul(g2, b.to_bigint());
        ASSERT_TRUE(pa.is_on_curve() && qb.is_on_curve());
        Fp12 eab = pairing(pa, qb);
        EXPECT_EQ(eab, gt_pow(e, a * b));
        EXPECT_EQ(pairing(pa, g2), gt_pow(e, a));
        EXPECT_EQ(pairing(g1, qb), gt_pow(e, b));
        EXPECT_TRUE(eab.pow(Fr::kP).is_one());
    }
}

TEST(Pairing, NegationGivesInverse) {
    const G1Affine g1 = G1Affine::generator();
    const G2Affine g2 = G2Affine::generator();
    const Fp12 e = pairing(g1, g2);
    EXPECT_EQ(pairing(-g1, g2), e.inverse());
    EXPECT_EQ(pairing(g1, -g2), e.conjugate());
    EXPECT_EQ(pairing(-g1, -g2), e);
    EXPECT_TRUE((pairing(-g1, g2) * e).is_one());
}

TEST(Pairing, InfinityGivesOne) {
    EXPECT_TRUE(pairing(G1Affine::identity(), G2Affine::generator()).is_one());
    EXPECT_TRUE(pairing(G1Affine::generator(), G2Affine::identity()).is_one());
    EXPECT_TRUE(pairing(G1Affine::identity(), G2Affine::identity()).is_one());
    EXPECT_TRUE(miller_loop(G1Affine::identity(), G2Affine::generator()).is_one());
    EXPECT_TRUE(multi_miller_loop(std::span<const std::pair<G1Affine, G2Affine>>()).is_one());
    G2Prepared inf(G2Affine::identity());
    EXPECT_TRUE(inf.infinity);
    std::pair<G1Affine, const G2Prepared*> one_pair[] = {{G1Affine::generator(), &inf}};
    EXPECT_TRUE(multi_miller_loop(std::span<const std::pair<G1Affine, const G2Prepared*>>(one_pair)).is_one());
}

TEST(Pairing, MultiPairingIsProductOfPairings) {
    std::mt19937_64 rng(test::seed());
    const G1Affine g1 = G1Affine::generator();
    const G2Affine g2 = G2Affine::generator();
    std::vector<std::pair<G1Affine, G2Affine>> pairs;
    Fp12 product = Fp12::one();
    for (int i = 0; i < 3; ++i) {
        G1Affine p = affine_mul(g1, Fr::random(rng).to_bigint());
        G2Affine q = affine_mul(g2, Fr::random(rng).to_bigint());
        pairs.push_back({p, q});
        product *= pairing(p, q);
    }
    pairs.push_back({G1Affine::identity(), g2});  // contributes 1
    pairs.push_back({g1, G2Affine::identity()});
    Fp12 multi = final_exponentiation(multi_miller_loop(pairs));
    EXPECT_EQ(multi, product);

    // Prepared G2 points give the same Miller loop value.
    std::vector<G2Prepared> prepared;
    for (const auto& pq : pairs) prepared.emplace_back(pq.second);
    EXPECT_EQ(prepared[0].lines.size(), 68u);
    std::vector<std::pair<G1Affine, const G2Prepared*>> pp;
    for (size_t i = 0; i < pairs.size(); ++i) pp.push_back({pairs[i].first, &prepared[i]});
    EXPECT_EQ(multi_miller_loop(pp), multi_miller_loop(pairs));
}

TEST(Pairing, ProductIsOneCheck) {
    std::mt19937_64 rng(test::seed());
    const G1Affine g1 = G1Affine::generator();
    const G2Affine g2 = G2Affine::generator();
    Fr a = Fr::random(rng);
    G1Affine ag1 = affine_mul(g1, a.to_bigint());
    G2Affine ag2 = affine_mul(g2, a.to_bigint());
    // e(aP, Q) e(-P, aQ) = 1.
    std::vector<std::pair<G1Affine, G2Affine>> good = {{ag1, g2}, {-g1, ag2}};
    EXPECT_TRUE(pairing_product_is_one(good));
    std::vector<std::pair<G1Affine, G2Affine>> bad = {{ag1, g2}, {g1, ag2}};
    EXPECT_FALSE(pairing_product_is_one(bad));
    G2Prepared pg2(g2), pag2(ag2);
    std::vector<std::pair<G1Affine, const G2Prepared*>> good_p = {{ag1, &pg2}, {-g1, &pag2}};
    EXPECT_TRUE(pairing_product_is_one(good_p));
    std::vector<std::pair<G1Affine, const G2Prepared*>> bad_p = {{ag1, &pg2}, {ag1, &pag2}};
    EXPECT_FALSE(pairing_product_is_one(bad_p));
}

TEST(Pairing, RejectsPointsOffTheCurve) {
    G1Affine p = G1Affine::generator();
    p.y += Fp::one();
    G2Affine q = G2Affine::generator();
    q.x += Fp2::one();
    EXPECT_THROW(pairing(p, G2Affine::generator()), std::invalid_argument);
    EXPECT_THROW(pairing(G1Affine::generator(), q), std::invalid_argument);
    EXPECT_THROW(G2Prepared{q}, std::invalid_argument);
    std::pair<G1Affine, const G2Prepared*> null_pair[] = {{G1Affine::generator(), nullptr}};
    EXPECT_THROW(multi_miller_loop(std::span<const std::pair<G1Affine, const G2Prepared*>>(null_pair)),
                 std::invalid_argument);
}

}  // namespace
}  // namespace cuzk
