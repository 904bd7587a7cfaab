// The FP64-pipe Montgomery multiply (cuzk/ff/mont_fp64.hpp) on the host: its column
// sums, reduction rows and output packing against GMP (the host takes exact integer limb
// products), and the two-FMA split of a limb product that the device uses, emulated with
// std::fma rounding toward zero, against the integer split. The device's own results are
// checked against Field's multiply in tests/gpu/test_device_field.cpp.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"
#include "gpu/field_edges.hpp"
#include "support/gmp_ref.hpp"
#include "support/seed.hpp"

namespace cuzk {
namespace {

template <class F>
void check_mul_fp64_against_gmp() {
    const auto seed = test::seed();
    std::mt19937_64 rng(seed);
    std::vector<F> xs = test::field_edge_values<F>();
    const size_t edges = xs.size();
    for (int i = 0; i < 300; ++i) xs.push_back(F::random(rng));
    const test::Mpz p = test::to_mpz(F::kP);
    test::Mpz want;
    for (size_t i = 0; i < xs.size(); ++i)
        for (size_t j = 0; j < xs.size(); j += (i < edges ? 1 : 13)) {
            const F& a = xs[i];
            const F& b = xs[j];
            const F got = F::mul_fp64(a, b);
            // a b R^-1 mod p on the raw (Montgomery) words is the canonical value of a b.
            mpz_mul(want.v, test::to_mpz(a.to_bigint()).v, test::to_mpz(b.to_bigint()).v);
            mpz_mod(want.v, want.v, p.v);
            ASSERT_EQ(mpz_cmp(test::to_mpz(got.to_bigint()).v, want.v), 0)
                << "a=" << a.to_hex() << " b=" << b.to_hex() << " seed " << seed;
            ASSERT_EQ(got, a * b);  // raw words too: fully reduced
        }
}

TEST(MontFp64, FpMatchesGmp) { check_mul_fp64_against_gmp<Fp>(); }
TEST(MontFp64, FrMatchesGmp) { check_mul_fp64_against_gmp<Fr>(); }
TEST(MontFp64, Bn254FpMatchesGmp) { check_mul_fp64_against_gmp<bn254::Fp>(); }
TEST(MontFp64, Bn254FrMatchesGmp) { check_mul_fp64_against_gmp<bn254::Fr>(); }

uint64_t bits(double d) {
    uint64_t b;
    std::memcpy(&b, &d, sizeof b);
    return b;
}

// The device's split (mont_fp64.hpp, product): hi = fma_rz(a, b, 2^104), lo = fma_rz(a, b,
// 2^104 + 2^52 - hi), emulated here with the C library's fma under FE_TOWARDZERO.
TEST(MontFp64, TwoFmaSplitIsExact) {
    namespace f = ff_detail::fp64;
    const auto seed = test::seed();
    std::mt19937_64 rng(seed);
    std::vector<uint64_t> limbs = {0, 1, 2, f::kMask52, f::kMask52 - 1, uint64_t(1) << 51, (uint64_t(1) << 26) - 1};
    for (int i = 0; i < 2000; ++i) limbs.push_back(rng() & f::kMask52);
    for (int i = 0; i < 200; ++i) limbs.push_back(rng() >> (12 + rng() % 52));  // short limbs too
    const int saved = std::fegetround();
    ASSERT_EQ(std::fesetround(FE_TOWARDZERO), 0);
    size_t bad = 0;
    volatile double c104 = 0x1p104, c104_52 = 0x1p104 + 0x1p52;  // no folding under the default mode
    for (size_t i = 0; i < limbs.size() && bad == 0; ++i)
        for (size_t j = 0; j < limbs.size(); j += 1 + (i % 7)) {
            const double a = f::limb_to_double(limbs[i]), b = f::limb_to_double(limbs[j]);
            const double h = std::fma(a, b, c104);
            const uint64_t hi = bits(h), lo = bits(std::fma(a, b, c104_52 - h));
            uint64_t want_hi, want_lo;
            f::product(a, b, want_hi, want_lo);  // exact integer split on the host
            if (hi != want_hi || lo != want_lo) {
                ADD_FAILURE() << "limbs " << limbs[i] << " x " << limbs[j] << " seed " << seed;
                ++bad;
                break;
            }
        }
    std::fesetround(saved);
    // And the conversion it relies on: (2^52 + w) - 2^52 is w for every w < 2^52.
    for (uint64_t w : limbs) ASSERT_EQ(uint64_t(f::limb_to_double(w)), w);
}

}  // namespace
}  // namespace cuzk
