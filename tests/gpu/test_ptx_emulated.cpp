// The 32-bit carry-chain algorithms of the device (cuzk/ff/mont_ptx.hpp) run on the host
// over an emulated PTX carry flag, against the host Field (portable / ADX). Runs in every
// build, GPU or not: it checks the algorithms and their "no carry out" bounds; the real
// PTX is checked on the device by test_device_field.cpp.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <type_traits>
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
template <class F>
struct ShoupConstants {
    typename F::Big neg_inv, np;
    ShoupConstants() : neg_inv(ff_detail::ptx::neg_inverse_mod_word_power<F::N>(F::kP)) {
        F::Big::sub(np, F::Big::zero(), F::kP);  // 2^256 - p
    }
};

template <class F>
typename F::Big limbs_of(const F& x) {
    typename F::Big b;
    for (size_t i = 0; i < F::N; ++i) b.l[i] = x.l[i];
    return b;
}

// a b as 2N limbs (host reference).
template <class F>
std::array<uint64_t, 2 * F::N> wide_product(const uint64_t* a, const uint64_t* b) {
    std::array<uint64_t, 2 * F::N> r{};
    for (size_t i = 0; i < F::N; ++i) {
        unsigned __int128 carry = 0;
        for (size_t j = 0; j < F::N; ++j) {
            const unsigned __int128 t = (unsigned __int128)a[i] * b[j] + r[i + j] + carry;
            r[i + j] = uint64_t(t);
            carry = t >> 64;
        }
        r[i + F::N] = uint64_t(carry);
    }
    return r;
}

// x + j p (below 2^256 for x < p, j < 2: 2p < 2^256), 2p, and the F whose Montgomery
// limbs are x mod p (x < 2p).
template <class F>
typename F::Big plus_multiple(typename F::Big x, unsigned j) {
    for (unsigned i = 0; i < j; ++i) {
        unsigned __int128 c = 0;
        for (size_t l = 0; l < F::N; ++l) {
            const unsigned __int128 t = (unsigned __int128)x.l[l] + F::kP.l[l] + c;
            x.l[l] = uint64_t(t);
            c = t >> 64;
        }
        EXPECT_EQ(uint64_t(c), 0u) << "x + " << j << " p overflows 2^256";
    }
    return x;
}
template <class F>
typename F::Big twice(const typename F::Big& p) {
    return plus_multiple<F>(p, 1);
}
template <class F>
F residue(typename F::Big x) {
    while (x >= F::kP) F::Big::sub(x, x, F::kP);
    return F::from_raw_montgomery(x);
}

template <class F>
void check_shoup(const ShoupConstants<F>& k, const F& x, const F& w, uint64_t seed) {
    const typename F::Big p = F::kP;
    EmulatedIsa isa;
    const typename F::Big w_std = w.to_bigint();
    typename F::Big wq;
    ff_detail::ptx::mul_low<F::N>(isa, wq.l, w.l, k.neg_inv.l);
    // w' p <= w 2^256 < (w' + 1) p: the wide product's high half is w or w - 1 with the
    // low half then >= 2^256 - p, i.e. w 2^256 - w' p = w~ < p.
    const auto qp = wide_product<F>(wq.l, p.l);
    unsigned __int128 borrow = 0;
    std::array<uint64_t, 2 * F::N> rem{};
    for (size_t i = 0; i < 2 * F::N; ++i) {
        const uint64_t top = i < F::N ? 0 : w_std.l[i - F::N];
        const unsigned __int128 d = (unsigned __int128)top - qp[i] - borrow;
        rem[i] = uint64_t(d);
        borrow = (d >> 64) ? 1 : 0;
    }
    ASSERT_EQ(uint64_t(borrow), 0u) << "w' p > w 2^256 for w " << w.to_hex() << " seed " << seed;
    for (size_t i = F::N; i < 2 * F::N; ++i) ASSERT_EQ(rem[i], 0u) << "w 2^256 - w' p >= 2^256, w " << w.to_hex();
    typename F::Big low;
    for (size_t i = 0; i < F::N; ++i) low.l[i] = rem[i];
    ASSERT_EQ(low, limbs_of(w)) << "w 2^256 - w' p is not w~, w " << w.to_hex() << " seed " << seed;

    F r;
    ff_detail::ptx::shoup_mul<F::N>(isa, r.l, x.l, w_std.l, wq.l, p.l, k.np.l);
    ASSERT_EQ(r, x * w) << name<F>() << " shoup_mul " << x.to_hex() << " " << w.to_hex() << " seed " << seed;
    // The NTT's form: the zero words of 2^256 - r skipped (their rows add nothing).
    constexpr uint32_t kZero = ff_detail::ptx::np_zero_words<F::N>(F::kP);
    ff_detail::ptx::shoup_mul<F::N, kZero>(isa, r.l, x.l, w_std.l, wq.l, p.l, k.np.l);
    ASSERT_EQ(r, x * w) << name<F>() << " shoup_mul (np zero words skipped) " << x.to_hex() << " " << w.to_hex()
                        << " seed " << seed;
    // ... and np's word 0 (2^32 - 1, BLS12-381's r) as a shift and a subtraction.
    if constexpr (ff_detail::ptx::np_word0_ones<F::N>(F::kP)) {
        ff_detail::ptx::shoup_mul<F::N, kZero, true>(isa, r.l, x.l, w_std.l, wq.l, p.l, k.np.l);
        ASSERT_EQ(r, x * w) << "shoup_mul (np word 0 by shift) " << x.to_hex() << " " << w.to_hex() << " seed " << seed;
    }
    typename F::Big x2 = limbs_of(x);  // x~ + p, still below 2^256 (2p < 2^256)
    unsigned __int128 c = 0;
    for (size_t i = 0; i < F::N; ++i) {
        const unsigned __int128 t = (unsigned __int128)x2.l[i] + p.l[i] + c;
        x2.l[i] = uint64_t(t);
        c = t >> 64;
    }
    ASSERT_EQ(uint64_t(c), 0u);
    ff_detail::ptx::shoup_mul<F::N>(isa, r.l, x2.l, w_std.l, wq.l, p.l, k.np.l);
    ASSERT_EQ(r, x * w) << name<F>() << " shoup_mul of x~ + p " << x.to_hex() << " " << w.to_hex() << " seed " << seed;
    // Without the final subtraction (the lazy butterflies): x~ and x~ + p, below 2p out.
    for (unsigned j = 0; j < 2; ++j) {
        const typename F::Big xj = plus_multiple<F>(limbs_of(x), j);
        typename F::Big lazy;
        ff_detail::ptx::shoup_mul<F::N, kZero, false, false>(isa, lazy.l, xj.l, w_std.l, wq.l, p.l, k.np.l);
        ASSERT_LT(lazy, twice<F>(p)) << "lazy shoup_mul of x~ + " << j << " p not below 2p, " << x.to_hex() << " "
                                     << w.to_hex() << " seed " << seed;
        ASSERT_EQ(residue<F>(lazy), x * w)
            << "lazy shoup_mul of x~ + " << j << " p, " << x.to_hex() << " " << w.to_hex() << " seed " << seed;
    }
    ASSERT_EQ(isa.lost, 0) << "shoup_mul: a carry claimed impossible happened, " << x.to_hex() << " " << w.to_hex()
                           << " seed " << seed;
}

template <class F>
void check_shoup_field() {
    const ShoupConstants<F> k;
    {  // p (-p^-1) = -1 mod 2^256
        EmulatedIsa isa;
        typename F::Big pn;
        const typename F::Big p = F::kP;
        ff_detail::ptx::mul_low<F::N>(isa, pn.l, p.l, k.neg_inv.l);
        for (size_t i = 0; i < F::N; ++i) ASSERT_EQ(pn.l[i], ~uint64_t(0)) << "limb " << i;
    }
    {  // np_zero_words marks exactly the zero 32-bit words of 2^256 - r (word 1 for F)
        uint32_t want = 0;
        for (size_t i = 0; i < 2 * F::N; ++i)
            if (uint32_t(k.np.l[i / 2] >> (32 * (i % 2))) == 0) want |= 1u << i;
        EXPECT_EQ(ff_detail::ptx::np_zero_words<F::N>(F::kP), want);
        if constexpr (std::is_same_v<F, Fr>) {
            EXPECT_EQ(want, 2u);
        }
    }
    const uint64_t seed = test::seed();
    std::mt19937_64 rng(seed);
    const auto edges = test::field_edge_values<F>();
    for (const F& x : edges)
        for (const F& w : edges) check_shoup(k, x, w, seed);
    for (int i = 0; i < 20000; ++i) {
        const F x = F::random(rng), w = F::random(rng);
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
template <class F>
void check_lazy_butterflies(const ShoupConstants<F>& k, const F& x, const F& y, const F& w, uint64_t seed) {
    const typename F::Big p = F::kP, p2 = twice<F>(p);
    const typename F::Big w_std = w.to_bigint();
    EmulatedIsa isa;
    typename F::Big wq;
    ff_detail::ptx::mul_low<F::N>(isa, wq.l, w.l, k.neg_inv.l);
    constexpr uint32_t kZero = ff_detail::ptx::np_zero_words<F::N>(F::kP);
    const F t = y * w;
    for (unsigned i = 0; i < 2; ++i) {
        for (unsigned j = 0; j < 2; ++j) {
            for (int variant = 0; variant < 3; ++variant) {  // forward, inverse (swap), w^0
                const bool swap = variant == 1, one = variant == 2;
                const F tv = one ? y : t;
                const auto where = [&] {
                    return ::testing::Message()
                           << " x~ + " << i << " p, y~ + " << j << " p, variant " << variant << ", x " << x.to_hex()
                           << " y " << y.to_hex() << " w " << w.to_hex() << " seed " << seed;
                };
                // DIT: (x + t, x - t), swapped for the inverse.
                typename F::Big a = plus_multiple<F>(limbs_of(x), i), b = plus_multiple<F>(limbs_of(y), j);
                ff_detail::ptx::lazy_dit_butterfly<F::N, kZero>(isa, a.l, b.l, one, swap, w_std.l, wq.l, p.l, k.np.l,
                                                                p2.l);
                ASSERT_LT(a, p2) << "DIT x out of range" << where();
                ASSERT_LT(b, p2) << "DIT y out of range" << where();
                ASSERT_EQ(residue<F>(a), swap && !one ? x - tv : x + tv) << "DIT x" << where();
                ASSERT_EQ(residue<F>(b), swap && !one ? x + tv : x - tv) << "DIT y" << where();
                F c;
                ff_detail::ptx::lazy_canonical<F::N>(isa, c.l, a.l, p.l);
                ASSERT_EQ(c, residue<F>(a)) << "lazy_canonical of the DIT x" << where();
                ASSERT_LT(limbs_of(c), p) << where();
                // DIF (Gentleman-Sande): (x + y, (x - y) w), (y - x) w for the inverse.
                a = plus_multiple<F>(limbs_of(x), i);
                b = plus_multiple<F>(limbs_of(y), j);
                ff_detail::ptx::lazy_dif_butterfly<F::N, kZero>(isa, a.l, b.l, one, swap, w_std.l, wq.l, p.l, k.np.l,
                                                                p2.l);
                ASSERT_LT(a, p2) << "DIF x out of range" << where();
                ASSERT_LT(b, p2) << "DIF y out of range" << where();
                ASSERT_EQ(residue<F>(a), x + y) << "DIF x" << where();
                const F d = swap && !one ? y - x : x - y;
                ASSERT_EQ(residue<F>(b), one ? d : d * w) << "DIF y" << where();
                ff_detail::ptx::lazy_canonical<F::N>(isa, c.l, b.l, p.l);
                ASSERT_EQ(c, residue<F>(b)) << "lazy_canonical of the DIF y" << where();
            }
        }
    }
    ASSERT_EQ(isa.lost, 0) << "lazy butterflies: a carry claimed impossible happened, x " << x.to_hex() << " y "
                           << y.to_hex() << " w " << w.to_hex() << " seed " << seed;
}

template <class F>
void check_lazy_butterflies_field() {
    const ShoupConstants<F> k;
    const uint64_t seed = test::seed();
    std::mt19937_64 rng(seed);
    const auto edges = test::field_edge_values<F>();
    for (const F& x : edges)
        for (const F& y : edges) {
            check_lazy_butterflies(k, x, y, edges[(x.l[0] ^ y.l[1]) % edges.size()], seed);
            if (::testing::Test::HasFatalFailure()) return;
        }
    for (int i = 0; i < 1000; ++i) {
        const F x = F::random(rng), y = F::random(rng), w = F::random(rng);
        check_lazy_butterflies(k, x, y, w, seed);
        check_lazy_butterflies(k, edges[size_t(i) % edges.size()], y, w, seed);
        check_lazy_butterflies(k, x, edges[size_t(i) % edges.size()], w, seed);
        if (::testing::Test::HasFatalFailure()) return;
    }
}

// The w^0 DIT butterfly of a first pass on canonical inputs: (x + y, x - y) in [0, 2p).
template <class F>
void check_canonical_stage_zero() {
    const typename F::Big p = F::kP, p2 = twice<F>(p);
    const uint64_t seed = test::seed();
    std::mt19937_64 rng(seed);
    const auto edges = test::field_edge_values<F>();
    const auto check = [&](const F& x, const F& y) {
        EmulatedIsa isa;
        typename F::Big a = limbs_of(x), b = limbs_of(y);
        ff_detail::ptx::canonical_one_dit_butterfly<F::N>(isa, a.l, b.l, p.l);
        ASSERT_LT(a, p2) << "x out of range, x " << x.to_hex() << " y " << y.to_hex() << " seed " << seed;
        ASSERT_LT(b, p2) << "y out of range, x " << x.to_hex() << " y " << y.to_hex() << " seed " << seed;
        ASSERT_EQ(residue<F>(a), x + y) << "x " << x.to_hex() << " y " << y.to_hex() << " seed " << seed;
        ASSERT_EQ(residue<F>(b), x - y) << "x " << x.to_hex() << " y " << y.to_hex() << " seed " << seed;
        ASSERT_EQ(isa.lost, 0) << "a carry claimed impossible happened, x " << x.to_hex() << " y " << y.to_hex();
    };
    for (const F& x : edges)
        for (const F& y : edges) {
            check(x, y);
            if (::testing::Test::HasFatalFailure()) return;
        }
    for (int i = 0; i < 20000; ++i) {
        check(F::random(rng), F::random(rng));
        check(edges[size_t(i) % edges.size()], F::random(rng));
        if (::testing::Test::HasFatalFailure()) return;
    }
}

TEST(PtxEmulated, FrShoupMatchesHost) { check_shoup_field<Fr>(); }
TEST(PtxEmulated, FrLazyButterfliesMatchHost) { check_lazy_butterflies_field<Fr>(); }
TEST(PtxEmulated, FrCanonicalStageZeroButterflyMatchesHost) { check_canonical_stage_zero<Fr>(); }
// BN254's Fr (the device NTT over BN254): the same products and butterflies, with its own
// p (2p < 2^255: more room than BLS12-381's r for the values below 2p).
TEST(PtxEmulated, Bn254FrShoupMatchesHost) { check_shoup_field<bn254::Fr>(); }
TEST(PtxEmulated, Bn254FrLazyButterfliesMatchHost) { check_lazy_butterflies_field<bn254::Fr>(); }
TEST(PtxEmulated, Bn254FrCanonicalStageZeroButterflyMatchesHost) { check_canonical_stage_zero<bn254::Fr>(); }

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
