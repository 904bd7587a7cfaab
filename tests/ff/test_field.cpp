// Fp and Fr against GMP on random inputs and edge values, one typed test per field.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"
#include "support/gmp_ref.hpp"
#include "support/seed.hpp"

namespace cuzk {
namespace {

using test::Mpz;

template <class F>
class FieldTest : public ::testing::Test {
 protected:
    Mpz p = test::to_mpz(F::kP);

    Mpz ref(const F& a) { return test::to_mpz(a.to_bigint()); }
    // Edge values 0, 1, 2, p-1, p-2, (p-1)/2 and (p+1)/2, then random ones.
    std::vector<F> samples(std::mt19937_64& rng, size_t random_count) {
        std::vector<F> v = {F::zero(), F::one(), F::from_u64(2), -F::one(), -F::from_u64(2)};
        v.push_back(*F::from_bigint(F::kP.shr(1)));
        v.push_back(*F::from_bigint(F::kP.shr(1)) + F::one());
        for (size_t i = 0; i < random_count; ++i) v.push_back(F::random(rng));
        return v;
    }
};

using Fields = ::testing::Types<Fp, Fr, bn254::Fp, bn254::Fr>;
TYPED_TEST_SUITE(FieldTest, Fields);

TYPED_TEST(FieldTest, ArithmeticMatchesGmp) {
    using F = TypeParam;
    std::mt19937_64 rng(test::seed());
    auto xs = this->samples(rng, 200);
    Mpz r, t;
    for (size_t i = 0; i < xs.size(); ++i) {
        for (size_t j = 0; j < xs.size(); j += 7) {
            const F& a = xs[i];
            const F& b = xs[(i + j) % xs.size()];
            Mpz ra = this->ref(a), rb = this->ref(b);
            mpz_add(r.v, ra.v, rb.v);
            mpz_mod(r.v, r.v, this->p.v);
            ASSERT_EQ(mpz_cmp(this->ref(a + b).v, r.v), 0) << "add " << a.to_hex() << " " << b.to_hex();
            mpz_sub(r.v, ra.v, rb.v);
            mpz_mod(r.v, r.v, this->p.v);
            ASSERT_EQ(mpz_cmp(this->ref(a - b).v, r.v), 0) << "sub";
            mpz_mul(r.v, ra.v, rb.v);
            mpz_mod(r.v, r.v, this->p.v);
            ASSERT_EQ(mpz_cmp(this->ref(a * b).v, r.v), 0) << "mul " << a.to_hex() << " " << b.to_hex();
            F pm;
            F::mul_portable(pm, a, b);
            ASSERT_EQ(pm, a * b) << "portable mul differs from the fast path";
        }
    }
}

TYPED_TEST(FieldTest, UnaryOpsMatchGmp) {
    using F = TypeParam;
    std::mt19937_64 rng(test::seed());
    Mpz r, e;
    for (const F& a : this->samples(rng, 100)) {
        Mpz ra = this->ref(a);
        mpz_neg(r.v, ra.v);
        mpz_mod(r.v, r.v, this->p.v);
        ASSERT_EQ(mpz_cmp(this->ref(-a).v, r.v), 0) << "neg";
        mpz_mul_2exp(r.v, ra.v, 1);
        mpz_mod(r.v, r.v, this->p.v);
        ASSERT_EQ(mpz_cmp(this->ref(a.dbl()).v, r.v), 0) << "dbl";
        mpz_mul(r.v, ra.v, ra.v);
        mpz_mod(r.v, r.v, this->p.v);
        ASSERT_EQ(mpz_cmp(this->ref(a.square()).v, r.v), 0) << "square";
        if (!a.is_zero()) {
            ASSERT_NE(mpz_invert(r.v, ra.v, this->p.v), 0);
            ASSERT_EQ(mpz_cmp(this->ref(a.inverse()).v, r.v), 0) << "inverse";
        } else {
            EXPECT_TRUE(a.inverse().is_zero());
        }
        // pow with a random 128-bit exponent
        BigInt<2> x{{uint64_t(rng()), uint64_t(rng())}};
        e = test::to_mpz(x);
        mpz_powm(r.v, ra.v, e.v, this->p.v);
        ASSERT_EQ(mpz_cmp(this->ref(a.pow(x)).v, r.v), 0) << "pow";
        // Legendre symbol
        int expect = mpz_legendre(ra.v, this->p.v);
        ASSERT_EQ(a.legendre(), expect);
        auto s = a.sqrt();
        ASSERT_EQ(s.has_value(), expect >= 0);
        if (s) {
            ASSERT_EQ(s->square(), a);
        }
    }
}

// Chains of additions and doublings in a loop against multiplication by the constant: at -O3
// GCC 12 merged the x86-64 assembly additions of two such chains (r = r + r looped next to
// the same chain unrolled by hand) when those statements were not volatile.
TYPED_TEST(FieldTest, AdditionChainsMatchMultiplication) {
    using F = TypeParam;
    std::mt19937_64 rng(test::seed());
    for (int trial = 0; trial < 20; ++trial) {
        const F a = F::random(rng);
        F r = a;
        for (int i = 2; i >= 0; --i) r = r + r;
        F s = a;
        s = s + s;
        s = s + s;
        s = s + s;
        const F eight = a * F::from_u64(8);
        ASSERT_EQ(r, eight) << "looped doublings, a = " << a.to_hex();
        ASSERT_EQ(s, eight) << "unrolled doublings, a = " << a.to_hex();
        F t = a;
        for (int i = 2; i >= 0; --i) {
            t = t.dbl();
            if ((9 >> i) & 1) t += a;
        }
        ASSERT_EQ(t, a * F::from_u64(9)) << "double-and-add by 9, a = " << a.to_hex();
        F u = a;
        for (int i = 0; i < 3; ++i) u = u - a - a;
        ASSERT_EQ(u, -(a * F::from_u64(5))) << "looped subtractions, a = " << a.to_hex();
    }
}

TYPED_TEST(FieldTest, BatchInverse) {
    using F = TypeParam;
    std::mt19937_64 rng(test::seed());
    std::vector<F> xs;
    for (int i = 0; i < 50; ++i) xs.push_back(i % 9 == 3 ? F::zero() : F::random(rng));
    std::vector<F> inv = xs;
    batch_inverse<F>(inv);
    for (size_t i = 0; i < xs.size(); ++i) ASSERT_EQ(inv[i], xs[i].inverse()) << i;
}

TYPED_TEST(FieldTest, BytesRoundTripAndRejectNonCanonical) {
    using F = TypeParam;
    std::mt19937_64 rng(test::seed());
    for (const F& a : this->samples(rng, 50)) {
        auto le = a.to_bytes_le();
        auto be = a.to_bytes_be();
        ASSERT_EQ(F::from_bytes_le(le.data()), a);
        ASSERT_EQ(F::from_bytes_be(be.data()), a);
        for (size_t i = 0; i < F::kBytes; ++i) ASSERT_EQ(le[i], be[F::kBytes - 1 - i]);
        ASSERT_EQ(F::from_string(a.to_dec()), a);
        ASSERT_EQ(F::from_string(a.to_hex()), a);
    }
    // p itself, p+1 and all-ones are rejected; p-1 is accepted.
    std::array<uint8_t, F::kBytes> b{};
    auto put = [&](const typename F::Big& x) {
        for (size_t i = 0; i < F::kBytes; ++i) b[i] = uint8_t(x.l[i / 8] >> (8 * (i % 8)));
    };
    put(F::kP);
    EXPECT_FALSE(F::from_bytes_le(b.data()).has_value());
    typename F::Big pm1 = F::kP;
    pm1.l[0] -= 1;
    put(pm1);
    EXPECT_EQ(F::from_bytes_le(b.data()), -F::one());
    b.fill(0xff);
    EXPECT_FALSE(F::from_bytes_le(b.data()).has_value());
    EXPECT_FALSE(F::from_string(this->p.hex()).has_value());
    EXPECT_FALSE(F::from_string("12x4").has_value());
    EXPECT_FALSE(F::from_string("").has_value());
    EXPECT_FALSE(F::from_string("0x").has_value());
}

TEST(FieldKnownAnswers, LittleEndianFrAndBigEndianFp) {
    // Fr 1 as 32 little-endian bytes is 01 00 .. 00; Fp 1 as 48 big-endian bytes is 00 .. 00 01.
    auto fr = Fr::one().to_bytes_le();
    EXPECT_EQ(fr[0], 1);
    for (size_t i = 1; i < 32; ++i) EXPECT_EQ(fr[i], 0);
    auto fp = Fp::one().to_bytes_be();
    EXPECT_EQ(fp[47], 1);
    for (size_t i = 0; i < 47; ++i) EXPECT_EQ(fp[i], 0);
    // 7 generates Fr^*: 7^((r-1)/2) = -1 and the 2^32-th root of unity has exact order 2^32.
    Fr g = Fr::from_u64(7);
    EXPECT_EQ(g.legendre(), -1);
    Fr w = g.pow(Fr::kP.shr(32));
    Fr x = w;
    for (int i = 0; i < 31; ++i) x = x.square();
    EXPECT_EQ(x, -Fr::one());
    EXPECT_EQ(x.square(), Fr::one());
}

}  // namespace
}  // namespace cuzk
