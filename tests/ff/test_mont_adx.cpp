// The x86-64 MULX/ADCX/ADOX Montgomery multiplication (mont_x86_adx.hpp) against the
// portable CIOS and against GMP, on random and edge operands, for Fp (6 limbs) and
// Fr (4 limbs). In a build without the fast path (CUZK_PORTABLE=ON, or a CPU without
// ADX) the fast-path tests skip; the squaring and inverse tests run on every build.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
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
class MontAdxTest : public ::testing::Test {
 protected:
    using Big = typename F::Big;
    static constexpr size_t N = F::N;

    static F raw(const Big& b) { return F::from_raw_montgomery(b); }

    // Raw Montgomery words (any value in [0, p) is a valid element): 0, 1, 2, p-1, p-2,
    // R mod p and R-1 mod p, values whose low k limbs are all ones (top limbs from p so
    // they stay below p), p with its low limb cleared, and 2^64*k - 1 style values.
    static std::vector<F> edges() {
        std::vector<F> v;
        auto add = [&](Big b) {
            if (b < F::kP) v.push_back(raw(b));
        };
        Big one = Big::from_u64(1), two = Big::from_u64(2);
        add(Big::zero());
        add(one);
        add(two);
        Big pm1 = F::kP, pm2 = F::kP;
        Big::sub(pm1, pm1, one);
        Big::sub(pm2, pm2, two);
        add(pm1);
        add(pm2);
        add(F::kR);
        Big rm1 = F::kR;
        Big::sub(rm1, rm1, one);
        add(rm1);
        add(F::kR2);
        for (size_t k = 1; k < N; ++k) {
            Big b = F::kP;  // low k limbs all ones, the rest from p minus one in limb k
            for (size_t j = 0; j < k; ++j) b.l[j] = ~uint64_t(0);
            b.l[k] -= 1;
            add(b);
            Big c = Big::zero();  // 2^(64k) - 1
            for (size_t j = 0; j < k; ++j) c.l[j] = ~uint64_t(0);
            add(c);
            Big d = Big::zero();  // 2^(64k)
            d.l[k] = 1;
            add(d);
        }
        Big top = Big::zero();  // largest value with only the top limb set, below p
        top.l[N - 1] = F::kP.l[N - 1] - 1;
        add(top);
        Big ones = Big::zero();  // every limb all ones but the top one, which is p's
        for (size_t j = 0; j + 1 < N; ++j) ones.l[j] = ~uint64_t(0);
        ones.l[N - 1] = F::kP.l[N - 1] - 1;
        add(ones);
        return v;
    }

    // r = a*b*R^-1 mod p by GMP.
    Mpz mont_ref(const F& a, const F& b) {
        Mpz p = test::to_mpz(F::kP), r = test::to_mpz(Big::zero()), rinv;
        Mpz ma = test::to_mpz(raw_of(a)), mb = test::to_mpz(raw_of(b));
        mpz_set_ui(rinv.v, 1);
        mpz_mul_2exp(rinv.v, rinv.v, 64 * N);
        EXPECT_NE(mpz_invert(rinv.v, rinv.v, p.v), 0);
        mpz_mul(r.v, ma.v, mb.v);
        mpz_mul(r.v, r.v, rinv.v);
        mpz_mod(r.v, r.v, p.v);
        return r;
    }
    static Big raw_of(const F& a) {
        Big b;
        for (size_t i = 0; i < N; ++i) b.l[i] = a.l[i];
        return b;
    }
    static bool fast_path() { return CUZK_FF_HAVE_ADX && ff_detail::kHaveAdxMul<N>; }
};

using Fields = ::testing::Types<Fp, Fr, bn254::Fp, bn254::Fr>;
TYPED_TEST_SUITE(MontAdxTest, Fields);

TYPED_TEST(MontAdxTest, FastPathIsEnabledWhereExpected) {
#if defined(__x86_64__) && defined(__BMI2__) && defined(__ADX__) && !defined(CUZK_FF_FORCE_PORTABLE)
    EXPECT_TRUE(this->fast_path()) << "BMI2+ADX target but Field::mont_mul still uses the portable code";
#else
    EXPECT_FALSE(this->fast_path());
#endif
}

TYPED_TEST(MontAdxTest, MatchesPortableOnRandomPairs) {
    using F = TypeParam;
    if (!this->fast_path()) GTEST_SKIP() << "built without the MULX/ADX path";
    std::mt19937_64 rng(test::seed());
    constexpr int kPairs = 100000;
    F a = F::random(rng), b = F::random(rng);
    for (int i = 0; i < kPairs; ++i) {
        // Mostly fresh random values; every fourth pair feeds the previous product back,
        // so outputs of the fast path are used as its inputs too.
        if (i % 4 != 0) a = F::random(rng);
        b = F::random(rng);
        F fast, port;
        F::mont_mul(fast, a, b);
        F::mul_portable(port, a, b);
        ASSERT_EQ(fast, port) << "a=" << a.to_hex() << " b=" << b.to_hex();
        ASSERT_TRUE(this->raw_of(fast) < F::kP) << "not fully reduced";
        a = fast;
    }
}

TYPED_TEST(MontAdxTest, MatchesPortableOnEdgeValues) {
    using F = TypeParam;
    if (!this->fast_path()) GTEST_SKIP() << "built without the MULX/ADX path";
    auto xs = this->edges();
    ASSERT_GE(xs.size(), 10u);
    for (const F& a : xs) {
        for (const F& b : xs) {
            F fast, port;
            F::mont_mul(fast, a, b);
            F::mul_portable(port, a, b);
            ASSERT_EQ(fast, port) << "a=" << a.to_hex() << " b=" << b.to_hex();
            ASSERT_TRUE(this->raw_of(fast) < F::kP) << "not fully reduced";
        }
    }
}

TYPED_TEST(MontAdxTest, AliasedOutput) {
    using F = TypeParam;
    std::mt19937_64 rng(test::seed());
    for (int i = 0; i < 1000; ++i) {
        F a = F::random(rng), b = F::random(rng);
        F expect;
        F::mul_portable(expect, a, b);
        F x = a;
        F::mont_mul(x, x, b);  // r == a
        ASSERT_EQ(x, expect);
        x = b;
        F::mont_mul(x, a, x);  // r == b
        ASSERT_EQ(x, expect);
        F::mul_portable(expect, a, a);
        x = a;
        F::mont_mul(x, x, x);  // r == a == b
        ASSERT_EQ(x, expect);
    }
}

TYPED_TEST(MontAdxTest, MatchesGmp) {
    using F = TypeParam;
    std::mt19937_64 rng(test::seed());
    std::vector<F> xs = this->edges();
    for (int i = 0; i < 2000; ++i) xs.push_back(F::random(rng));
    for (size_t i = 0; i < xs.size(); ++i) {
        const F& a = xs[i];
        const F& b = xs[(i * 7 + 3) % xs.size()];
        F r;
        F::mont_mul(r, a, b);
        Mpz want = this->mont_ref(a, b);
        ASSERT_EQ(mpz_cmp(test::to_mpz(this->raw_of(r)).v, want.v), 0)
            << "a=" << a.to_hex() << " b=" << b.to_hex() << " want " << want.hex();
    }
}

// The dedicated squaring (mont_sqr_adx where built, else mul) against the portable mul.
TYPED_TEST(MontAdxTest, SquareMatchesMul) {
    using F = TypeParam;
    std::mt19937_64 rng(test::seed());
    std::vector<F> xs = this->edges();
    for (int i = 0; i < 100000; ++i) xs.push_back(F::random(rng));
    for (const F& a : xs) {
        F port;
        F::mul_portable(port, a, a);
        ASSERT_EQ(a.square(), port) << "a=" << a.to_hex();
    }
}

// The lazy-reduction halves: mul_wide is the exact 2N-limb product (GMP), the fast and
// portable versions agree; redc(w) = w R^-1 mod p, fully reduced, for every w < pR,
// including unreduced factors below 2p (what Fp2 feeds it) and w = pR - 1.
TYPED_TEST(MontAdxTest, WideProductAndRedcMatchGmp) {
    using F = TypeParam;
    using W = typename F::Wide;
    std::mt19937_64 rng(test::seed());
    std::vector<F> xs = this->edges();
    for (int i = 0; i < 3000; ++i) xs.push_back(F::random(rng));
    if constexpr (F::kLazyOk) {  // unreduced sums a + b < 2p and a - b + p
        const size_t n = xs.size();
        for (size_t i = 0; i < n; ++i) {
            xs.push_back(F::add_unreduced(xs[i], xs[(i * 5 + 1) % n]));
            xs.push_back(F::sub_unreduced(xs[i], xs[(i * 3 + 2) % n]));
        }
    }
    auto to_mpz_wide = [](const W& w) {
        BigInt<2 * F::N> b;
        for (size_t i = 0; i < 2 * F::N; ++i) b.l[i] = w.l[i];
        return test::to_mpz(b);
    };
    Mpz p = test::to_mpz(F::kP), rinv, want;
    mpz_set_ui(rinv.v, 1);
    mpz_mul_2exp(rinv.v, rinv.v, 64 * F::N);
    ASSERT_NE(mpz_invert(rinv.v, rinv.v, p.v), 0);
    auto check_redc = [&](const W& w) {
        F r, rp;
        F::redc(r, w);
        F::redc_portable(rp, w);
        mpz_mul(want.v, to_mpz_wide(w).v, rinv.v);
        mpz_mod(want.v, want.v, p.v);
        ASSERT_EQ(mpz_cmp(test::to_mpz(this->raw_of(r)).v, want.v), 0) << "redc, want " << want.hex();
        ASSERT_EQ(r, rp);
    };
    for (size_t i = 0; i < xs.size(); ++i) {
        const F& a = xs[i];
        const F& b = xs[(i * 7 + 3) % xs.size()];
        W w, wp;
        F::mul_wide(w, a, b);
        F::mul_wide_portable(wp, a, b);
        Mpz prod;
        mpz_mul(prod.v, test::to_mpz(this->raw_of(a)).v, test::to_mpz(this->raw_of(b)).v);
        ASSERT_EQ(mpz_cmp(to_mpz_wide(w).v, prod.v), 0) << "a=" << a.to_hex() << " b=" << b.to_hex();
        for (size_t j = 0; j < 2 * F::N; ++j) ASSERT_EQ(w.l[j], wp.l[j]);
        if (F::kLazyOk || (this->raw_of(a) < F::kP && this->raw_of(b) < F::kP)) check_redc(w);
    }
    W top;  // pR - 1: low half all ones, high half p - 1
    for (size_t j = 0; j < F::N; ++j) top.l[j] = ~uint64_t(0);
    for (size_t j = 0; j < F::N; ++j) top.l[F::N + j] = F::kP.l[j];
    top.l[F::N] -= 1;
    check_redc(top);
    W zero{};
    check_redc(zero);
}

// Field + and - (register-only asm on x86-64) against the portable carry chains.
TYPED_TEST(MontAdxTest, AddSubMatchPortable) {
    using F = TypeParam;
    std::mt19937_64 rng(test::seed());
    std::vector<F> xs = this->edges();
    for (int i = 0; i < 300; ++i) xs.push_back(F::random(rng));
    constexpr typename F::Big p = F::kP;
    for (const F& a : xs) {
        for (const F& b : xs) {
            F sum, diff;
            ff_detail::mod_add<F::N>(sum.l, a.l, b.l, p.l);
            ff_detail::mod_sub<F::N>(diff.l, a.l, b.l, p.l);
            ASSERT_EQ(a + b, sum) << "a=" << a.to_hex() << " b=" << b.to_hex();
            ASSERT_EQ(a - b, diff) << "a=" << a.to_hex() << " b=" << b.to_hex();
            ASSERT_TRUE(this->raw_of(a + b) < F::kP);
            ASSERT_TRUE(this->raw_of(a - b) < F::kP);
        }
    }
}

// The binary-GCD inverse against Fermat, GMP and the defining property a * a^-1 = 1.
TYPED_TEST(MontAdxTest, InverseMatchesFermatAndGmp) {
    using F = TypeParam;
    std::mt19937_64 rng(test::seed());
    std::vector<F> xs = this->edges();
    // Canonical (not just raw) edge values too: 1, 2, -1, -2, small and large powers of 2.
    xs.push_back(F::one());
    xs.push_back(F::from_u64(2));
    xs.push_back(-F::one());
    xs.push_back(-F::from_u64(2));
    F two_k = F::one();
    for (int k = 0; k < 400; ++k, two_k = two_k.dbl()) xs.push_back(two_k);
    for (int i = 0; i < 3000; ++i) xs.push_back(F::random(rng));
    Mpz p = test::to_mpz(F::kP), want;
    size_t max_steps = 0;
    for (const F& a : xs) {
        const F inv = a.inverse();
        if (a.is_zero()) {
            ASSERT_TRUE(inv.is_zero());
            continue;
        }
        ASSERT_TRUE(this->raw_of(inv) < F::kP) << "not fully reduced";
        // The GCD itself converged (inverse() would otherwise fall back to Fermat and
        // the comparisons below could not tell).
        typename F::Big v;
        const size_t k = ff_detail::bingcd_core<F::N>(v, this->raw_of(a), F::kP, F::kInv, F::kBinGcdMaxOuter);
        ASSERT_NE(k, 0u) << "binary GCD did not converge for a=" << a.to_hex();
        max_steps = std::max(max_steps, k);
        ASSERT_EQ(a * inv, F::one()) << "a=" << a.to_hex();
        ASSERT_EQ(inv, a.inverse_fermat()) << "a=" << a.to_hex();
        Mpz ra = test::to_mpz(a.to_bigint());
        ASSERT_NE(mpz_invert(want.v, ra.v, p.v), 0);
        ASSERT_EQ(mpz_cmp(test::to_mpz(inv.to_bigint()).v, want.v), 0) << "a=" << a.to_hex();
    }
    std::printf("[ info     ] %zu-bit field: at most %zu outer binary-GCD steps of %zu allowed\n", F::kBits, max_steps,
                F::kBinGcdMaxOuter);
}

// Many more random inverses, checked by a * a^-1 = 1 only (cheap).
TYPED_TEST(MontAdxTest, InverseRandom) {
    using F = TypeParam;
    std::mt19937_64 rng(test::seed());
    for (int i = 0; i < 100000; ++i) {
        F a = F::random(rng);
        if (a.is_zero()) continue;
        ASSERT_EQ(a * a.inverse(), F::one()) << "a=" << a.to_hex();
    }
}

}  // namespace
}  // namespace cuzk
