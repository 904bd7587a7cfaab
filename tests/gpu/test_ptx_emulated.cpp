// The 32-bit carry-chain algorithms of the device (cuzk/ff/mont_ptx.hpp) run on the host
// over an emulated PTX carry flag, against the host Field (portable / ADX). Runs in every
// build, GPU or not: it checks the algorithms and their "no carry out" bounds; the real
// PTX is checked on the device by test_device_field.cpp.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"
#include "cuzk/ff/mont_ptx.hpp"
#include "cuzk/ff/shoup_ptx.hpp"
#include "gpu/field_edges.hpp"
#include "support/seed.hpp"

namespace cuzk {
namespace {

// PTX semantics (PTX ISA, extended-precision arithmetic): .cc writes the carry flag CF,
// madc/addc/subc read it; for subtraction CF is the borrow. The forms without .cc drop
// their carry out: the algorithms use them only where a bound says there is none, so
// here such a carry is recorded as `lost`.
struct EmulatedIsa {
    uint32_t cf = 0;
    int lost = 0;
    static uint32_t lo(uint64_t x) { return uint32_t(x); }
    static uint32_t hi(uint64_t x) { return uint32_t(x >> 32); }
    uint32_t set(uint64_t t) {
        cf = hi(t);
        return lo(t);
    }
    uint32_t drop(uint64_t t) {
        lost += hi(t) != 0;
        return lo(t);
    }
    uint32_t mul_lo(uint32_t a, uint32_t b) { return lo(uint64_t(a) * b); }
    uint32_t mul_hi(uint32_t a, uint32_t b) { return hi(uint64_t(a) * b); }
    uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) { return set(uint64_t(mul_lo(a, b)) + c); }
    uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) { return set(uint64_t(mul_lo(a, b)) + c + cf); }
    uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) { return set(uint64_t(mul_hi(a, b)) + c + cf); }
    uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) { return set(uint64_t(mul_hi(a, b)) + c); }
    uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c) { return drop(uint64_t(mul_hi(a, b)) + c + cf); }
    uint32_t add_cc(uint32_t a, uint32_t b) { return set(uint64_t(a) + b); }
    uint32_t addc_cc(uint32_t a, uint32_t b) { return set(uint64_t(a) + b + cf); }
    uint32_t addc(uint32_t a, uint32_t b) { return drop(uint64_t(a) + b + cf); }
    uint32_t sub_cc(uint32_t a, uint32_t b) {
        const uint64_t t = uint64_t(a) - b;
        cf = uint32_t(t >> 63);
        return lo(t);
    }
    uint32_t subc_cc(uint32_t a, uint32_t b) {
        const uint64_t t = uint64_t(a) - b - cf;
        cf = uint32_t(t >> 63);
        return lo(t);
    }
    uint32_t subc(uint32_t a, uint32_t b) { return lo(uint64_t(a) - b - cf); }  // the borrow mask idiom
};

template <class F>
const char* name() {
    return F::Params::kName;
}

template <class F>
void check_pair(const F& a, const F& b, uint64_t seed) {
    constexpr typename F::Big p = F::kP;
    EmulatedIsa isa;
    F r;
    ff_detail::ptx::mont_mul<F::N>(isa, r.l, a.l, b.l, p.l, F::kInv);
    ASSERT_EQ(r, a * b) << name<F>() << " mul " << a.to_hex() << " " << b.to_hex() << " seed " << seed;
    ff_detail::ptx::mont_mul_rot<F::N>(isa, r.l, a.l, b.l, p.l, F::kInv);
    ASSERT_EQ(r, a * b) << name<F>() << " mul (rotating accumulators) " << a.to_hex() << " " << b.to_hex() << " seed "
                        << seed;
    ff_detail::ptx::mont_sqr<F::N>(isa, r.l, a.l, p.l, F::kInv);
    ASSERT_EQ(r, a * a) << name<F>() << " sqr " << a.to_hex() << " seed " << seed;
    ff_detail::ptx::mont_mul_kara<F::N>(isa, r.l, a.l, b.l, p.l, F::kInv);
    ASSERT_EQ(r, a * b) << name<F>() << " mul (Karatsuba) " << a.to_hex() << " " << b.to_hex() << " seed " << seed;
    if constexpr (p.l[F::N - 1] < (uint64_t(1) << 62)) {  // Fp: one reduction for a b - c d
        const F c = a + b, d = a - b;
        ff_detail::ptx::mont_mul_sub_mul<F::N>(isa, r.l, a.l, b.l, c.l, d.l, p.l, F::kInv);
        ASSERT_EQ(r, a * b - c * d) << name<F>() << " mul_sub_mul " << a.to_hex() << " " << b.to_hex() << " seed "
                                    << seed;
        ff_detail::ptx::mont_mul_sub_mul<F::N>(isa, r.l, b.l, a.l, a.l, b.l, p.l, F::kInv);
        ASSERT_EQ(r, F::zero()) << name<F>() << " mul_sub_mul (b a - a b) " << a.to_hex() << " " << b.to_hex()
                                << " seed " << seed;
        ff_detail::ptx::mont_mul_sub_mul<F::N, true>(isa, r.l, a.l, b.l, c.l, d.l, p.l, F::kInv);
        ASSERT_EQ(r, a * b - c * d) << name<F>() << " mul_sub_mul (Karatsuba) " << a.to_hex() << " " << b.to_hex()
                                    << " seed " << seed;
    }
    if constexpr (p.l[0] == 0xffffffff00000001ull) {  // the device path of Fr (Field::kSparseLow)
        ff_detail::ptx::mont_mul<F::N, true>(isa, r.l, a.l, b.l, p.l, F::kInv);
        ASSERT_EQ(r, a * b) << name<F>() << " mul (sparse low words) " << a.to_hex() << " " << b.to_hex() << " seed "
                            << seed;
        ff_detail::ptx::mont_mul_rot<F::N, true>(isa, r.l, a.l, b.l, p.l, F::kInv);
        ASSERT_EQ(r, a * b) << name<F>() << " mul (rotating, sparse low words) " << a.to_hex() << " " << b.to_hex()
                            << " seed " << seed;
        ff_detail::ptx::mont_mul_kara<F::N, true>(isa, r.l, a.l, b.l, p.l, F::kInv);
        ASSERT_EQ(r, a * b) << name<F>() << " mul (Karatsuba, sparse low words) " << a.to_hex() << " " << b.to_hex()
                            << " seed " << seed;
        ff_detail::ptx::mont_sqr<F::N, true>(isa, r.l, a.l, p.l, F::kInv);
        ASSERT_EQ(r, a * a) << name<F>() << " sqr (sparse low words) " << a.to_hex() << " seed " << seed;
    }
    ff_detail::ptx::mod_add<F::N>(isa, r.l, a.l, b.l, p.l);
    ASSERT_EQ(r, a + b) << name<F>() << " add " << a.to_hex() << " " << b.to_hex() << " seed " << seed;
    ff_detail::ptx::mod_sub<F::N>(isa, r.l, a.l, b.l, p.l);
    ASSERT_EQ(r, a - b) << name<F>() << " sub " << a.to_hex() << " " << b.to_hex() << " seed " << seed;
    ASSERT_EQ(isa.lost, 0) << name<F>() << ": a carry claimed impossible happened, " << a.to_hex() << " " << b.to_hex()
                           << " seed " << seed;
}

template <class F>
void check_field() {
    const uint64_t seed = test::seed();
    std::mt19937_64 rng(seed);
    const auto edges = test::field_edge_values<F>();
    for (const F& a : edges)
        for (const F& b : edges) check_pair(a, b, seed);
    for (int i = 0; i < 20000; ++i) {
        const F a = F::random(rng), b = F::random(rng);
        check_pair(a, b, seed);
        check_pair(a, edges[size_t(i) % edges.size()], seed);
        if (::testing::Test::HasFatalFailure()) return;
    }
}

TEST(PtxEmulated, FpMatchesHost) { check_field<Fp>(); }
TEST(PtxEmulated, FrMatchesHost) { check_field<Fr>(); }
// BN254's 4-limb fields (the device MSM over BN254 G1 / G2 and its NTT): two spare top bits,
// so a b - c d takes one reduction there too (Field::kLazyMulSubMul).
TEST(PtxEmulated, Bn254FpMatchesHost) { check_field<bn254::Fp>(); }
TEST(PtxEmulated, Bn254FrMatchesHost) { check_field<bn254::Fr>(); }

// The redundant form (mont_ptx.hpp, Field::mul_r; the device's G1 accumulation): every
// operand either x or x + p (both below 2p), every result below 2p and congruent to the
// reduced one, no carry that the bounds rule out. a + p and b + p at the top of the range
// (p - 1 + p) are the bounds' worst case.
Fp::Big raw_plus_p(const Fp& x) {
    Fp::Big r;
    for (size_t i = 0; i < Fp::N; ++i) r.l[i] = x.l[i];
    const uint64_t carry = Fp::Big::add(r, r, Fp::kP);
    EXPECT_EQ(carry, 0u);
    return r;
}
Fp redundant(const Fp& x, bool plus_p) { return plus_p ? Fp::from_raw_montgomery(raw_plus_p(x)) : x; }
bool below_2p(const Fp& x) {
    Fp::Big b;
    for (size_t i = 0; i < Fp::N; ++i) b.l[i] = x.l[i];
    return b < Fp::kP2;
}

void check_redundant(const Fp& a, const Fp& b, unsigned form, uint64_t seed) {
    static_assert(Fp::kRedundant && !Fr::kRedundant);
    constexpr Fp::Big p = Fp::kP, p2 = Fp::kP2;
    const Fp c = a + b, d = a - b;
    const Fp ar = redundant(a, form & 1), br = redundant(b, form & 2), cr = redundant(c, form & 4),
             dr = redundant(d, form & 8);
    EmulatedIsa isa;
    const auto check = [&](const Fp& got, const Fp& want, const char* what) {
        EXPECT_TRUE(below_2p(got)) << what << ": not below 2p, " << a.to_hex() << " " << b.to_hex() << " form " << form
                                   << " seed " << seed;
        Fp canon;
        ff_detail::ptx::canonical_r<Fp::N>(isa, canon.l, got.l, p.l);
        EXPECT_EQ(canon, want) << what << " " << a.to_hex() << " " << b.to_hex() << " form " << form << " seed "
                               << seed;
    };
    Fp r;
    ff_detail::ptx::mul_r<Fp::N>(isa, r.l, ar.l, br.l, p.l, Fp::kInv);
    check(r, a * b, "mul_r");
    ff_detail::ptx::sqr_r<Fp::N>(isa, r.l, ar.l, p.l, Fp::kInv);
    check(r, a * a, "sqr_r");
    ff_detail::ptx::mul_sub_mul_r<Fp::N>(isa, r.l, ar.l, br.l, cr.l, dr.l, p.l, p2.l, Fp::kInv);
    check(r, a * b - c * d, "mul_sub_mul_r");
    ff_detail::ptx::mod_add<Fp::N>(isa, r.l, ar.l, br.l, p2.l);
    check(r, a + b, "add with 2p");
    ff_detail::ptx::mod_sub<Fp::N>(isa, r.l, ar.l, br.l, p2.l);
    check(r, a - b, "sub with 2p");
    EXPECT_EQ(Fp::is_zero_r(ar), a.is_zero()) << a.to_hex() << " form " << form;
    EXPECT_EQ(Fp::canonical_r(ar), a) << "host canonical_r " << a.to_hex() << " form " << form;
    EXPECT_EQ(isa.lost, 0) << "redundant form: a carry claimed impossible happened, " << a.to_hex() << " " << b.to_hex()
                           << " form " << form << " seed " << seed;
}

TEST(PtxEmulated, FpRedundantFormMatchesHost) {
    const uint64_t seed = test::seed();
    std::mt19937_64 rng(seed);
    const auto edges = test::field_edge_values<Fp>();
    for (const Fp& a : edges)
        for (const Fp& b : edges)
            for (unsigned form = 0; form < 16; ++form) check_redundant(a, b, form, seed);
    for (int i = 0; i < 20000; ++i) {
        const Fp a = Fp::random(rng), b = Fp::random(rng);
        const unsigned form = unsigned(rng() & 15);
        check_redundant(a, b, form, seed);
        check_redundant(a, edges[size_t(i) % edges.size()], form, seed);
        if (::testing::Test::HasFailure()) return;
    }
}

// Shoup's multiplication by a constant (cuzk/ff/shoup_ptx.hpp, the device NTT's twiddle
// product): x~ w mod p with w in standard form and w' = -w~ p^-1 mod 2^256 equals the
// Montgomery product x~ * w~, for reduced x and for x in [p, 2p) (the bound's other end),
// and w' is floor(w 2^256 / p), checked against a schoolbook 512-bit product.
struct ShoupConstants {
    Fr::Big neg_inv, np;
    ShoupConstants() : neg_inv(ff_detail::ptx::neg_inverse_mod_word_power<Fr::N>(Fr::kP)) {
        Fr::Big::sub(np, Fr::Big::zero(), Fr::kP);  // 2^256 - p
    }
};

Fr::Big limbs_of(const Fr& x) {
    Fr::Big b;
    for (size_t i = 0; i < Fr::N; ++i) b.l[i] = x.l[i];
    return b;
}

// a b as 2N limbs (host reference).
std::array<uint64_t, 2 * Fr::N> wide_product(const uint64_t* a, const uint64_t* b) {
    std::array<uint64_t, 2 * Fr::N> r{};
    for (size_t i = 0; i < Fr::N; ++i) {
        unsigned __int128 carry = 0;
        for (size_t j = 0; j < Fr::N; ++j) {
            const unsigned __int128 t = (unsigned __int128)a[i] * b[j] + r[i + j] + carry;
            r[i + j] = uint64_t(t);
            carry = t >> 64;
        }
        r[i + Fr::N] = uint64_t(carry);
    }
    return r;
}

// x + j p (below 2^256 for x < p, j < 2: 2p < 2^256), 2p, and the Fr whose Montgomery
// limbs are x mod p (x < 2p).
Fr::Big plus_multiple(Fr::Big x, unsigned j) {
    for (unsigned i = 0; i < j; ++i) {
        unsigned __int128 c = 0;
        for (size_t l = 0; l < Fr::N; ++l) {
            const unsigned __int128 t = (unsigned __int128)x.l[l] + Fr::kP.l[l] + c;
            x.l[l] = uint64_t(t);
            c = t >> 64;
        }
        EXPECT_EQ(uint64_t(c), 0u) << "x + " << j << " p overflows 2^256";
    }
    return x;
}
Fr::Big twice(const Fr::Big& p) { return plus_multiple(p, 1); }
Fr residue(Fr::Big x) {
    while (x >= Fr::kP) Fr::Big::sub(x, x, Fr::kP);
    return Fr::from_raw_montgomery(x);
}

void check_shoup(const ShoupConstants& k, const Fr& x, const Fr& w, uint64_t seed) {
    const Fr::Big p = Fr::kP;
    EmulatedIsa isa;
    const Fr::Big w_std = w.to_bigint();
    Fr::Big wq;
    ff_detail::ptx::mul_low<Fr::N>(isa, wq.l, w.l, k.neg_inv.l);
    // w' p <= w 2^256 < (w' + 1) p: the wide product's high half is w or w - 1 with the
    // low half then >= 2^256 - p, i.e. w 2^256 - w' p = w~ < p.
    const auto qp = wide_product(wq.l, p.l);
    unsigned __int128 borrow = 0;
    std::array<uint64_t, 2 * Fr::N> rem{};
    for (size_t i = 0; i < 2 * Fr::N; ++i) {
        const uint64_t top = i < Fr::N ? 0 : w_std.l[i - Fr::N];
        const unsigned __int128 d = (unsigned __int128)top - qp[i] - borrow;
        rem[i] = uint64_t(d);
        borrow = (d >> 64) ? 1 : 0;
    }
    ASSERT_EQ(uint64_t(borrow), 0u) << "w' p > w 2^256 for w " << w.to_hex() << " seed " << seed;
    for (size_t i = Fr::N; i < 2 * Fr::N; ++i) ASSERT_EQ(rem[i], 0u) << "w 2^256 - w' p >= 2^256, w " << w.to_hex();
    Fr::Big low;
    for (size_t i = 0; i < Fr::N; ++i) low.l[i] = rem[i];
    ASSERT_EQ(low, limbs_of(w)) << "w 2^256 - w' p is not w~, w " << w.to_hex() << " seed " << seed;

    Fr r;
    ff_detail::ptx::shoup_mul<Fr::N>(isa, r.l, x.l, w_std.l, wq.l, p.l, k.np.l);
    ASSERT_EQ(r, x * w) << "Fr shoup_mul " << x.to_hex() << " " << w.to_hex() << " seed " << seed;
    // The NTT's form: the zero words of 2^256 - r skipped (their rows add nothing).
    constexpr uint32_t kZero = ff_detail::ptx::np_zero_words<Fr::N>(Fr::kP);
    ff_detail::ptx::shoup_mul<Fr::N, kZero>(isa, r.l, x.l, w_std.l, wq.l, p.l, k.np.l);
    ASSERT_EQ(r, x * w) << "Fr shoup_mul (np zero words skipped) " << x.to_hex() << " " << w.to_hex() << " seed "
                        << seed;
    // ... and np's word 0 (2^32 - 1) as a shift and a subtraction.
    static_assert(ff_detail::ptx::np_word0_ones<Fr::N>(Fr::kP));
    ff_detail::ptx::shoup_mul<Fr::N, kZero, true>(isa, r.l, x.l, w_std.l, wq.l, p.l, k.np.l);
    ASSERT_EQ(r, x * w) << "Fr shoup_mul (np word 0 by shift) " << x.to_hex() << " " << w.to_hex() << " seed " << seed;
    Fr::Big x2 = limbs_of(x);  // x~ + p, still below 2^256 (2p < 2^256)
    unsigned __int128 c = 0;
    for (size_t i = 0; i < Fr::N; ++i) {
        const unsigned __int128 t = (unsigned __int128)x2.l[i] + p.l[i] + c;
        x2.l[i] = uint64_t(t);
        c = t >> 64;
    }
    ASSERT_EQ(uint64_t(c), 0u);
    ff_detail::ptx::shoup_mul<Fr::N>(isa, r.l, x2.l, w_std.l, wq.l, p.l, k.np.l);
    ASSERT_EQ(r, x * w) << "Fr shoup_mul of x~ + p " << x.to_hex() << " " << w.to_hex() << " seed " << seed;
    // Without the final subtraction (the lazy butterflies): x~ and x~ + p, below 2p out.
    for (unsigned j = 0; j < 2; ++j) {
        const Fr::Big xj = plus_multiple(limbs_of(x), j);
        Fr::Big lazy;
        ff_detail::ptx::shoup_mul<Fr::N, kZero, false, false>(isa, lazy.l, xj.l, w_std.l, wq.l, p.l, k.np.l);
        ASSERT_LT(lazy, twice(p)) << "lazy shoup_mul of x~ + " << j << " p not below 2p, " << x.to_hex() << " "
                                  << w.to_hex() << " seed " << seed;
        ASSERT_EQ(residue(lazy), x * w) << "lazy shoup_mul of x~ + " << j << " p, " << x.to_hex() << " " << w.to_hex()
                                        << " seed " << seed;
    }
    ASSERT_EQ(isa.lost, 0) << "shoup_mul: a carry claimed impossible happened, " << x.to_hex() << " " << w.to_hex()
                           << " seed " << seed;
}

TEST(PtxEmulated, FrShoupMatchesHost) {
    const ShoupConstants k;
    {  // p (-p^-1) = -1 mod 2^256
        EmulatedIsa isa;
        Fr::Big pn;
        const Fr::Big p = Fr::kP;
        ff_detail::ptx::mul_low<Fr::N>(isa, pn.l, p.l, k.neg_inv.l);
        for (size_t i = 0; i < Fr::N; ++i) ASSERT_EQ(pn.l[i], ~uint64_t(0)) << "limb " << i;
    }
    {  // np_zero_words marks exactly the zero 32-bit words of 2^256 - r (word 1 for Fr)
        uint32_t want = 0;
        for (size_t i = 0; i < 2 * Fr::N; ++i)
            if (uint32_t(k.np.l[i / 2] >> (32 * (i % 2))) == 0) want |= 1u << i;
        EXPECT_EQ(ff_detail::ptx::np_zero_words<Fr::N>(Fr::kP), want);
        EXPECT_EQ(want, 2u);
    }
    const uint64_t seed = test::seed();
    std::mt19937_64 rng(seed);
    const auto edges = test::field_edge_values<Fr>();
    for (const Fr& x : edges)
        for (const Fr& w : edges) check_shoup(k, x, w, seed);
    for (int i = 0; i < 20000; ++i) {
        const Fr x = Fr::random(rng), w = Fr::random(rng);
        check_shoup(k, x, w, seed);
        check_shoup(k, edges[size_t(i) % edges.size()], w, seed);
        check_shoup(k, x, edges[size_t(i) % edges.size()], seed);
        if (::testing::Test::HasFatalFailure()) return;
    }
}

// The lazy butterflies (shoup_ptx.hpp; the device NTT's register passes): inputs x~ + i p,
// y~ + j p (i, j < 2: anywhere below 2p), outputs congruent to the canonical butterfly's and
// below 2p, for the forward and the inverse twiddle and for w^0 (no product);
// lazy_canonical then gives the canonical value.
void check_lazy_butterflies(const ShoupConstants& k, const Fr& x, const Fr& y, const Fr& w, uint64_t seed) {
    const Fr::Big p = Fr::kP, p2 = twice(p);
    const Fr::Big w_std = w.to_bigint();
    EmulatedIsa isa;
    Fr::Big wq;
    ff_detail::ptx::mul_low<Fr::N>(isa, wq.l, w.l, k.neg_inv.l);
    constexpr uint32_t kZero = ff_detail::ptx::np_zero_words<Fr::N>(Fr::kP);
    const Fr t = y * w;
    for (unsigned i = 0; i < 2; ++i) {
        for (unsigned j = 0; j < 2; ++j) {
            for (int variant = 0; variant < 3; ++variant) {  // forward, inverse (swap), w^0
                const bool swap = variant == 1, one = variant == 2;
                const Fr tv = one ? y : t;
                const auto where = [&] {
                    return ::testing::Message()
                           << " x~ + " << i << " p, y~ + " << j << " p, variant " << variant << ", x " << x.to_hex()
                           << " y " << y.to_hex() << " w " << w.to_hex() << " seed " << seed;
                };
                // DIT: (x + t, x - t), swapped for the inverse.
                Fr::Big a = plus_multiple(limbs_of(x), i), b = plus_multiple(limbs_of(y), j);
                ff_detail::ptx::lazy_dit_butterfly<Fr::N, kZero>(isa, a.l, b.l, one, swap, w_std.l, wq.l, p.l, k.np.l,
                                                                 p2.l);
                ASSERT_LT(a, p2) << "DIT x out of range" << where();
                ASSERT_LT(b, p2) << "DIT y out of range" << where();
                ASSERT_EQ(residue(a), swap && !one ? x - tv : x + tv) << "DIT x" << where();
                ASSERT_EQ(residue(b), swap && !one ? x + tv : x - tv) << "DIT y" << where();
                Fr c;
                ff_detail::ptx::lazy_canonical<Fr::N>(isa, c.l, a.l, p.l);
                ASSERT_EQ(c, residue(a)) << "lazy_canonical of the DIT x" << where();
                ASSERT_LT(limbs_of(c), p) << where();
                // DIF (Gentleman-Sande): (x + y, (x - y) w), (y - x) w for the inverse.
                a = plus_multiple(limbs_of(x), i);
                b = plus_multiple(limbs_of(y), j);
                ff_detail::ptx::lazy_dif_butterfly<Fr::N, kZero>(isa, a.l, b.l, one, swap, w_std.l, wq.l, p.l, k.np.l,
                                                                 p2.l);
                ASSERT_LT(a, p2) << "DIF x out of range" << where();
                ASSERT_LT(b, p2) << "DIF y out of range" << where();
                ASSERT_EQ(residue(a), x + y) << "DIF x" << where();
                const Fr d = swap && !one ? y - x : x - y;
                ASSERT_EQ(residue(b), one ? d : d * w) << "DIF y" << where();
                ff_detail::ptx::lazy_canonical<Fr::N>(isa, c.l, b.l, p.l);
                ASSERT_EQ(c, residue(b)) << "lazy_canonical of the DIF y" << where();
            }
        }
    }
    ASSERT_EQ(isa.lost, 0) << "lazy butterflies: a carry claimed impossible happened, x " << x.to_hex() << " y "
                           << y.to_hex() << " w " << w.to_hex() << " seed " << seed;
}

TEST(PtxEmulated, FrLazyButterfliesMatchHost) {
    const ShoupConstants k;
    const uint64_t seed = test::seed();
    std::mt19937_64 rng(seed);
    const auto edges = test::field_edge_values<Fr>();
    for (const Fr& x : edges)
        for (const Fr& y : edges) {
            check_lazy_butterflies(k, x, y, edges[(x.l[0] ^ y.l[1]) % edges.size()], seed);
            if (::testing::Test::HasFatalFailure()) return;
        }
    for (int i = 0; i < 1000; ++i) {
        const Fr x = Fr::random(rng), y = Fr::random(rng), w = Fr::random(rng);
        check_lazy_butterflies(k, x, y, w, seed);
        check_lazy_butterflies(k, edges[size_t(i) % edges.size()], y, w, seed);
        check_lazy_butterflies(k, x, edges[size_t(i) % edges.size()], w, seed);
        if (::testing::Test::HasFatalFailure()) return;
    }
}

// The w^0 DIT butterfly of a first pass on canonical inputs: (x + y, x - y) in [0, 2p).
TEST(PtxEmulated, FrCanonicalStageZeroButterflyMatchesHost) {
    const Fr::Big p = Fr::kP, p2 = twice(p);
    const uint64_t seed = test::seed();
    std::mt19937_64 rng(seed);
    const auto edges = test::field_edge_values<Fr>();
    const auto check = [&](const Fr& x, const Fr& y) {
        EmulatedIsa isa;
        Fr::Big a = limbs_of(x), b = limbs_of(y);
        ff_detail::ptx::canonical_one_dit_butterfly<Fr::N>(isa, a.l, b.l, p.l);
        ASSERT_LT(a, p2) << "x out of range, x " << x.to_hex() << " y " << y.to_hex() << " seed " << seed;
        ASSERT_LT(b, p2) << "y out of range, x " << x.to_hex() << " y " << y.to_hex() << " seed " << seed;
        ASSERT_EQ(residue(a), x + y) << "x " << x.to_hex() << " y " << y.to_hex() << " seed " << seed;
        ASSERT_EQ(residue(b), x - y) << "x " << x.to_hex() << " y " << y.to_hex() << " seed " << seed;
        ASSERT_EQ(isa.lost, 0) << "a carry claimed impossible happened, x " << x.to_hex() << " y " << y.to_hex();
    };
    for (const Fr& x : edges)
        for (const Fr& y : edges) {
            check(x, y);
            if (::testing::Test::HasFatalFailure()) return;
        }
    for (int i = 0; i < 20000; ++i) {
        check(Fr::random(rng), Fr::random(rng));
        check(edges[size_t(i) % edges.size()], Fr::random(rng));
        if (::testing::Test::HasFatalFailure()) return;
    }
}

// The emulation itself: a carry that must be dropped is seen, a chain carries.
TEST(PtxEmulated, CarryFlagSemantics) {
    EmulatedIsa isa;
    EXPECT_EQ(isa.add_cc(0xffffffffu, 1), 0u);
    EXPECT_EQ(isa.cf, 1u);
    EXPECT_EQ(isa.addc_cc(0, 0), 1u);
    EXPECT_EQ(isa.cf, 0u);
    EXPECT_EQ(isa.sub_cc(0, 1), 0xffffffffu);
    EXPECT_EQ(isa.subc(0, 0), 0xffffffffu);                               // borrow mask
    EXPECT_EQ(isa.mad_lo_cc(0xffffffffu, 0xffffffffu, 0xffffffffu), 0u);  // 1 + 0xffffffff
    EXPECT_EQ(isa.madc_hi(0xffffffffu, 0xffffffffu, 0), 0xffffffffu);     // 0xfffffffe + 1
    EXPECT_EQ(isa.lost, 0);
    isa.add_cc(0xffffffffu, 1);
    isa.addc(0xffffffffu, 0);
    EXPECT_EQ(isa.lost, 1);
}
}  // namespace
}  // namespace cuzk
