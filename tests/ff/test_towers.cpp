// Fp2, Fp6 and Fp12 of both towers (BLS12-381, BN254) against their definitions: products
// against schoolbook multiplication modulo v^3 - xi and w^6 - xi, Frobenius maps against
// powers by p^k (exponents from GMP), the Frobenius constant table against xi^(e(p^k - 1)/6).
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

#include "cuzk/ff/bn254_tower.hpp"
#include "cuzk/ff/fp12.hpp"
#include "support/gmp_ref.hpp"
#include "support/seed.hpp"

namespace cuzk {
namespace {

using test::Mpz;

template <class Cfg>
class TowerTest : public ::testing::Test {};
using Towers = ::testing::Types<Bls12381Tower, bn254::Tower>;
TYPED_TEST_SUITE(TowerTest, Towers);

// The tower of the test's configuration, by its usual names.
#define TOWER_TYPES                                 \
    using Cfg = TypeParam;                          \
    using Fp [[maybe_unused]] = typename Cfg::Base; \
    using Fp2 [[maybe_unused]] = Fp2T<Cfg>;         \
    using Fp6 [[maybe_unused]] = Fp6T<Cfg>;         \
    using Fp12 [[maybe_unused]] = Fp12T<Cfg>;       \
    [[maybe_unused]] const Fp2 kXi = xi<Cfg>()

// p^k as a big integer of M limbs.
template <class Cfg, size_t M>
BigInt<M> p_power(unsigned k) {
    Mpz p = test::to_mpz(Cfg::Base::kP), r;
    mpz_pow_ui(r.v, p.v, k);
    return test::from_mpz<M>(r);
}

template <class Cfg>
Fp2T<Cfg> xi() {
    return {Cfg::Base::from_u64(Cfg::kXiC0), Cfg::Base::one()};
}

// Schoolbook product in Fp2[v]/(v^3 - xi).
template <class Cfg>
Fp6T<Cfg> fp6_schoolbook(const Fp6T<Cfg>& a, const Fp6T<Cfg>& b) {
    using Fp2 = Fp2T<Cfg>;
    const Fp2 x[3] = {a.c0, a.c1, a.c2};
    const Fp2 y[3] = {b.c0, b.c1, b.c2};
    Fp2 c[5] = {Fp2::zero(), Fp2::zero(), Fp2::zero(), Fp2::zero(), Fp2::zero()};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) c[i + j] += x[i] * y[j];
    return {c[0] + c[3] * xi<Cfg>(), c[1] + c[4] * xi<Cfg>(), c[2]};
}

// Fp12 in the basis w^e, e = 0..5 over Fp2 (c0 = w^0, w^2, w^4; c1 = w^1, w^3, w^5).
template <class Cfg>
std::array<Fp2T<Cfg>, 6> to_w_basis(const Fp12T<Cfg>& a) {
    return {a.c0.c0, a.c1.c0, a.c0.c1, a.c1.c1, a.c0.c2, a.c1.c2};
}
template <class Cfg>
Fp12T<Cfg> from_w_basis(const std::array<Fp2T<Cfg>, 6>& e) {
    return {{e[0], e[2], e[4]}, {e[1], e[3], e[5]}};
}

// Schoolbook product in Fp2[w]/(w^6 - xi).
template <class Cfg>
Fp12T<Cfg> fp12_schoolbook(const Fp12T<Cfg>& a, const Fp12T<Cfg>& b) {
    using Fp2 = Fp2T<Cfg>;
    auto x = to_w_basis<Cfg>(a), y = to_w_basis<Cfg>(b);
    std::array<Fp2, 11> c;
    c.fill(Fp2::zero());
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) c[i + j] += x[i] * y[j];
    std::array<Fp2, 6> r;
    for (int i = 0; i < 6; ++i) r[i] = c[i] + (i + 6 < 11 ? c[i + 6] * xi<Cfg>() : Fp2::zero());
    return from_w_basis<Cfg>(r);
}

// Fp2 with lazy reduction (mul_lazy, square on the host) against the schoolbook product
// (a0 b0 - a1 b1) + (a0 b1 + a1 b0) u and the reduced Karatsuba, with components at the
// edges too (0, 1, p - 1, p - 2, as raw Montgomery words): the sums a0 + a1 reach 2p - 2.
TYPED_TEST(TowerTest, Fp2LazyMulAndSquareMatchSchoolbook) {
    TOWER_TYPES;
    std::mt19937_64 rng(test::seed());
    std::vector<Fp> comps;
    using Big = typename Fp::Big;
    for (uint64_t v : {0, 1, 2}) comps.push_back(Fp::from_raw_montgomery(Big::from_u64(v)));
    for (uint64_t v : {1, 2}) {
        Big b = Fp::kP;
        Big::sub(b, b, Big::from_u64(v));
        comps.push_back(Fp::from_raw_montgomery(b));
    }
    for (int i = 0; i < 6; ++i) comps.push_back(Fp::random(rng));
    std::vector<Fp2> xs;
    for (const Fp& a : comps)
        for (const Fp& b : comps) xs.push_back({a, b});
    for (int i = 0; i < 2000; ++i) xs.push_back(Fp2::random(rng));
    auto schoolbook = [](const Fp2& a, const Fp2& b) {
        return Fp2{a.c0 * b.c0 - a.c1 * b.c1, a.c0 * b.c1 + a.c1 * b.c0};
    };
    for (size_t i = 0; i < xs.size(); ++i) {
        const Fp2& a = xs[i];
        const Fp2& b = xs[(i * 13 + 5) % xs.size()];
        const Fp2 want = schoolbook(a, b);
        ASSERT_EQ(Fp2::mul_lazy(a, b), want) << "a=" << a.c0.to_hex() << "," << a.c1.to_hex();
        ASSERT_EQ(Fp2::mul_reduced(a, b), want);
        ASSERT_EQ(a * b, want);
        ASSERT_EQ(a.square(), schoolbook(a, a)) << "a=" << a.c0.to_hex() << "," << a.c1.to_hex();
        ASSERT_EQ(a.square_reduced(), schoolbook(a, a));
    }
}

TYPED_TEST(TowerTest, Fp6MulAndSquareMatchSchoolbook) {
    TOWER_TYPES;
    std::mt19937_64 rng(test::seed());
    for (int i = 0; i < 200; ++i) {
        Fp6 a = Fp6::random(rng), b = Fp6::random(rng);
        ASSERT_EQ(a * b, fp6_schoolbook<Cfg>(a, b));
        ASSERT_EQ(a.square(), fp6_schoolbook<Cfg>(a, a));
        ASSERT_EQ(a * b, b * a);
        // Sparse products and the multiplication by v.
        Fp2 b0 = Fp2::random(rng), b1 = Fp2::random(rng);
        ASSERT_EQ(a.mul_by_01(b0, b1), a * Fp6(b0, b1, Fp2::zero()));
        ASSERT_EQ(a.mul_by_1(b1), a * Fp6(Fp2::zero(), b1, Fp2::zero()));
        ASSERT_EQ(a.mul_by_nonresidue(), a * Fp6(Fp2::zero(), Fp2::one(), Fp2::zero()));
        ASSERT_EQ(a * b0, a * Fp6(b0, Fp2::zero(), Fp2::zero()));
    }
}

TYPED_TEST(TowerTest, Fp6InverseAndIdentities) {
    TOWER_TYPES;
    std::mt19937_64 rng(test::seed());
    EXPECT_TRUE(Fp6::zero().inverse().is_zero());
    EXPECT_TRUE(Fp6::one().is_one());
    EXPECT_FALSE(Fp6::zero().is_one());
    for (int i = 0; i < 100; ++i) {
        Fp6 a = Fp6::random(rng);
        ASSERT_TRUE((a * a.inverse()).is_one());
        ASSERT_EQ(a + (-a), Fp6::zero());
        ASSERT_EQ(a.dbl(), a + a);
        ASSERT_EQ((a - a).is_zero(), true);
    }
    // An element with only c2 set (exercises the xi terms of the adjugate).
    Fp6 s{Fp2::zero(), Fp2::zero(), Fp2::random(rng)};
    EXPECT_TRUE((s * s.inverse()).is_one());
}

TYPED_TEST(TowerTest, Fp6FrobeniusIsPowerOfP) {
    TOWER_TYPES;
    std::mt19937_64 rng(test::seed());
    Fp6 a = Fp6::random(rng);
    EXPECT_EQ(a.frobenius_map(1), a.pow(p_power<Cfg, 6>(1)));
    EXPECT_EQ(a.frobenius_map(2), a.pow(p_power<Cfg, 12>(2)));
    EXPECT_EQ(a.frobenius_map(3), a.pow(p_power<Cfg, 18>(3)));
    // x^(p^6) = x on Fp6.
    EXPECT_EQ(a.frobenius_map(3).frobenius_map(3), a);
    EXPECT_EQ(a.frobenius_map(1).frobenius_map(2), a.frobenius_map(3));
}

TYPED_TEST(TowerTest, Fp12MulAndSquareMatchSchoolbook) {
    TOWER_TYPES;
    std::mt19937_64 rng(test::seed());
    for (int i = 0; i < 100; ++i) {
        Fp12 a = Fp12::random(rng), b = Fp12::random(rng);
        ASSERT_EQ(a * b, fp12_schoolbook<Cfg>(a, b));
        ASSERT_EQ(a.square(), fp12_schoolbook<Cfg>(a, a));
        ASSERT_EQ(a.square(), a * a);
        // The sparse line product: o0 + o1 w^2 + o4 w^3.
        Fp2 o0 = Fp2::random(rng), o1 = Fp2::random(rng), o4 = Fp2::random(rng);
        Fp12 sparse{{o0, o1, Fp2::zero()}, {Fp2::zero(), o4, Fp2::zero()}};
        ASSERT_EQ(a.mul_by_014(o0, o1, o4), a * sparse);
        // The D-type twist's line shape: o0 + o1 w + o4 w^3.
        Fp12 sparse034{{o0, Fp2::zero(), Fp2::zero()}, {o1, o4, Fp2::zero()}};
        ASSERT_EQ(a.mul_by_034(o0, o1, o4), a * sparse034);
    }
}

TYPED_TEST(TowerTest, Fp12InverseAndConjugate) {
    TOWER_TYPES;
    std::mt19937_64 rng(test::seed());
    EXPECT_TRUE(Fp12::zero().inverse().is_zero());
    EXPECT_TRUE(Fp12::one().is_one());
    for (int i = 0; i < 50; ++i) {
        Fp12 a = Fp12::random(rng);
        ASSERT_TRUE((a * a.inverse()).is_one());
        ASSERT_FALSE(a.is_one());
        // conj(a) = a^(p^6), and a conj(a) lies in Fp6.
        ASSERT_EQ(a.conjugate(), a.frobenius_map(3).frobenius_map(3));
        ASSERT_TRUE((a * a.conjugate()).c1.is_zero());
    }
}

TYPED_TEST(TowerTest, Fp12FrobeniusIsPowerOfP) {
    TOWER_TYPES;
    std::mt19937_64 rng(test::seed());
    Fp12 a = Fp12::random(rng);
    EXPECT_EQ(a.frobenius_map(1), a.pow(p_power<Cfg, 6>(1)));
    EXPECT_EQ(a.frobenius_map(2), a.pow(p_power<Cfg, 12>(2)));
    EXPECT_EQ(a.frobenius_map(3), a.pow(p_power<Cfg, 18>(3)));
    // x^(p^12) = x, by each k.
    Fp12 b = a;
    for (int i = 0; i < 12; ++i) b = b.frobenius_map(1);
    EXPECT_EQ(b, a);
    b = a;
    for (int i = 0; i < 6; ++i) b = b.frobenius_map(2);
    EXPECT_EQ(b, a);
    b = a;
    for (int i = 0; i < 4; ++i) b = b.frobenius_map(3);
    EXPECT_EQ(b, a);
    EXPECT_NE(a.frobenius_map(1), a);
    // Frobenius is a field automorphism.
    Fp12 c = Fp12::random(rng);
    EXPECT_EQ((a * c).frobenius_map(1), a.frobenius_map(1) * c.frobenius_map(1));
}

TYPED_TEST(TowerTest, Fp12FrobeniusTableMatchesDefinition) {
    TOWER_TYPES;
    // gamma_k^e = xi^(e (p^k - 1) / 6).
    for (unsigned k = 1; k <= 3; ++k) {
        Mpz p = test::to_mpz(Fp::kP), pk;
        mpz_pow_ui(pk.v, p.v, k);
        mpz_sub_ui(pk.v, pk.v, 1);
        ASSERT_TRUE(mpz_divisible_ui_p(pk.v, 6));
        mpz_divexact_ui(pk.v, pk.v, 6);
        Fp2 gamma = kXi.pow(test::from_mpz<18>(pk));
        Fp2 power = Fp2::one();
        for (unsigned e = 1; e <= 5; ++e) {
            power *= gamma;
            EXPECT_EQ(tower_detail::frobenius_gamma<Cfg>(k, e), power) << "gamma_" << k << "^" << e;
        }
    }
}

TYPED_TEST(TowerTest, Fp12CyclotomicSquare) {
    TOWER_TYPES;
    std::mt19937_64 rng(test::seed());
    for (int i = 0; i < 20; ++i) {
        Fp12 f = Fp12::random(rng);
        // f^((p^6 - 1)(p^2 + 1)) lies in the cyclotomic subgroup.
        Fp12 g = f.conjugate() * f.inverse();
        g = g.frobenius_map(2) * g;
        ASSERT_EQ(g.cyclotomic_square(), g.square());
        ASSERT_EQ(g * g.conjugate(), Fp12::one());
        // Outside the subgroup the shortcut is wrong: the test can tell the two apart.
        ASSERT_NE(f.cyclotomic_square(), f.square());
    }
}

// Compressed squarings carry B, C = (w^1, w^4), (w^2, w^5) exactly as the full
// Granger-Scott squaring does, and decompression recovers A = (w^0, w^3) from them.
TYPED_TEST(TowerTest, Fp12CompressedCyclotomicSquareAndDecompress) {
    TOWER_TYPES;
    std::mt19937_64 rng(test::seed());
    auto same_bc = [](const Fp12& a, const Fp12& b) {
        return a.c0.c1 == b.c0.c1 && a.c0.c2 == b.c0.c2 && a.c1.c0 == b.c1.c0 && a.c1.c2 == b.c1.c2;
    };
    auto decompress = [](Fp12 c) {
        Fp2 n0, n1, d;
        c.cyclotomic_decompress_parts(n0, n1, d);
        EXPECT_FALSE(d.is_zero());
        c.cyclotomic_decompress_finish(n0, n1, d.inverse());
        return c;
    };
    for (int i = 0; i < 10; ++i) {
        Fp12 f = Fp12::random(rng);
        Fp12 g = f.conjugate() * f.inverse();
        g = g.frobenius_map(2) * g;
        Fp12 full = g, comp = g;
        for (int k = 0; k < 20; ++k) {
            full = full.cyclotomic_square();
            comp = comp.cyclotomic_square_compressed();
            ASSERT_TRUE(same_bc(full, comp)) << "squaring " << k;
            ASSERT_TRUE(comp.c0.c0.is_zero() && comp.c1.c1.is_zero());
        }
        ASSERT_EQ(decompress(comp), full);
        ASSERT_EQ(decompress(g), g);
        // Outside the unitary subgroup the recovered A is wrong: the test can tell.
        ASSERT_NE(decompress(f), f);
    }
    // 1 has B = C = 0: no information about A, the denominator is zero (the caller's fallback).
    Fp2 n0, n1, d;
    Fp12::one().cyclotomic_decompress_parts(n0, n1, d);
    EXPECT_TRUE(d.is_zero());
}

}  // namespace
}  // namespace cuzk
