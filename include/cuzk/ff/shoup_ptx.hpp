// Multiplication by a constant with a precomputed quotient (Shoup), over 32-bit words with
// explicit carry chains, for the GPU's NTT twiddles.
//
// Why: a Montgomery product of n words costs 2n^2 + n wide multiply-adds (a b, then m p);
// when one factor w is fixed, Shoup's precomputed w' = floor(w 2^(32n) / p) turns the
// reduction into a quotient estimate and two half products:
//   q = floor(x w' / 2^(32n)) (the high half, from the columns >= n - 1 only),
//   t = x w - q p, computed mod 2^(32n) as x w + q (2^(32n) - p) (two low halves),
// n (n + 1) + (n - 1) + 2 n^2 PTX multiply-adds (lo and hi counted apart) instead of the
// Montgomery product's 4 n^2 + n (Fr, n = 8: 207 instead of 264; ptxas fuses a lo/hi pair
// into one IMAD.WIDE in both). H200 (bench/gpu_field.cu, four
// independent chains): 72.1 G/s against 60.1 for Field's Montgomery product;
// NTT forward 2^27 41.24 -> 39.01 ms, 2^24 4.64 -> 4.47 (src/gpu/ntt/ntt.cu).
// (V. Shoup, NTL's MulModPrecon; D. Harvey, "Faster arithmetic for number-theoretic
// transforms", J. Symbolic Computation 60, 2014, sec. 2, for its use in NTT butterflies.)
//
// With Montgomery-form x~ = x R (R = 2^(32n)) and the standard-form constant w, the result
// x~ w mod p is (x w) R: the Montgomery form of the product, so this drops into code that
// keeps its values in Montgomery form. And w' needs no division: w~ = w R mod p satisfies
// w R = w' p + w~, so w' = -w~ p^-1 mod 2^(32n) (mul_low by neg_inverse_mod_word_power below).
//
// Bounds (x < 2p, w < p, p < 2^(32n - 1)): with w R / p = w' + d (0 <= d < 1) and
// x w' / R = q* + f (q* its floor, 0 <= f < 1), x w - q* p = p (f + x d / R) < p (1 + 2p/R).
// The truncated high half drops the columns below n - 1 and the low halves of column
// n - 2, less than 2n 2^-32 in units of R, so q is q* or, when f < 2n 2^-32, q* - 1; then
// t < p (2n 2^-32 + 2p/R) + p. Either way t < 2p < R for Fr (2p/R = 0.905), so t mod R is
// t itself and one conditional subtraction leaves it below p. The emulated test
// (tests/gpu/test_ptx_emulated.cpp) records any carry that these bounds claim cannot happen.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/common/hd.hpp"
#include "cuzk/ff/bigint.hpp"
#include "cuzk/ff/mont_portable.hpp"
#include "cuzk/ff/mont_ptx.hpp"

namespace cuzk::ff_detail::ptx {

// E + O += a b mod 2^(32n). Products a_j b_i whose word i + j is even go in one chain into
// E (E[k] = word k), those at odd words in one into O (O[k] = word k + 1): each product's
// (lo, hi) pair then sits on an aligned register pair, which ptxas fuses into one
// IMAD.WIDE (the first version kept a chain per parity of j: misaligned pairs for odd i,
// 204 instead of ~120 IMADs a product; H200 SASS). Carries out of word n - 1
// are the mod: each chain ends on a .cc form whose flag the next chain's first
// instruction (no carry in) ignores. kZeroWords: bit i set says b[i] is 0 (a constant's
// known zero word): row i adds nothing and is left out (its chains start without carry in,
// so no other row depends on it). Tried and removed (H100 side by side): x w's
// first row written by plain multiplies into the zeroed accumulators, without a carry chain
// between them: the DIT all-full kernel's spills rose 76 -> 128 B a thread and its register
// copies 280 -> 365; forward 2^24 3.385 -> 3.405 ms, 2^27 30.06 -> 30.33.
template <size_t n, uint32_t kZeroWords = 0, class Isa>
CUZK_HD_INLINE void mul_low_add32(Isa& isa, uint32_t* E, uint32_t* O, const uint32_t* a, const uint32_t* b) {
    CUZK_UNROLL
    for (size_t i = 0; i < n; ++i) {
        if ((kZeroWords >> i) & 1u) continue;
        CUZK_UNROLL
        for (size_t j = i % 2; i + j < n; j += 2) {
            E[i + j] = j == i % 2 ? isa.mad_lo_cc(a[j], b[i], E[i + j]) : isa.madc_lo_cc(a[j], b[i], E[i + j]);
            if (i + j + 1 < n) E[i + j + 1] = isa.madc_hi_cc(a[j], b[i], E[i + j + 1]);
        }
        CUZK_UNROLL
        for (size_t j = 1 - i % 2; i + j < n; j += 2) {
            O[i + j - 1] =
                j == 1 - i % 2 ? isa.mad_lo_cc(a[j], b[i], O[i + j - 1]) : isa.madc_lo_cc(a[j], b[i], O[i + j - 1]);
            if (i + j + 1 < n) O[i + j] = isa.madc_hi_cc(a[j], b[i], O[i + j]);
        }
    }
}

// t = E + O mod 2^(32n) for the accumulators of mul_low_add32.
template <size_t n, class Isa>
CUZK_HD_INLINE void low_sum32(Isa& isa, uint32_t* t, const uint32_t* E, const uint32_t* O) {
    t[0] = E[0];
    t[1] = isa.add_cc(E[1], O[0]);
    CUZK_UNROLL
    for (size_t k = 2; k < n; ++k) t[k] = isa.addc_cc(E[k], O[k - 1]);  // the carry out is the mod
}

// q = floor(S / 2^(32n)), S = the columns >= n - 1 of x wq plus the high halves of column
// n - 2 (so q is the exact quotient or one less; see the bounds above). Per word x_i two
// chains, by the parity of the column as in mul_low_add32: A, the products j = n-1-i,
// n+1-i, ... <= n - 1 (lo at column i + j >= n - 1), into P (P[k] = column n - 1 + k); B,
// the high half of j = n-2-i (column n - 1) then j = n-i, n+2-i, ..., into Q (Q[k] = column
// n - 2 + k: Q[0] stays 0). After word x_i each accumulator is below x_(<=i) wq / 2^(32c)
// (c its first column) < 2^(32(i + 1 + n - c)): columns up to n + i. So a chain whose
// last high half is at column n + i has no carry out, and one that ends at column n + i - 1
// carries into column n + i, still zero.
template <size_t n, class Isa>
CUZK_HD_INLINE void shoup_quotient32(Isa& isa, uint32_t* q, const uint32_t* x, const uint32_t* wq) {
    uint32_t P[n + 1], Q[n + 2];
    CUZK_UNROLL
    for (size_t k = 0; k <= n; ++k) P[k] = 0;
    CUZK_UNROLL
    for (size_t k = 0; k <= n + 1; ++k) Q[k] = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < n; ++i) {
        const uint32_t xi = x[i];
        // Chain A: its last product is j = n - 1 (i even) or n - 2 (i odd).
        CUZK_UNROLL
        for (size_t j = n - 1 - i; j < n; j += 2) {
            const size_t k = i + j - (n - 1);  // P index of the low half
            P[k] = j == n - 1 - i ? isa.mad_lo_cc(xi, wq[j], P[k]) : isa.madc_lo_cc(xi, wq[j], P[k]);
            P[k + 1] = k + 1 == i + 1 ? isa.madc_hi(xi, wq[j], P[k + 1]) : isa.madc_hi_cc(xi, wq[j], P[k + 1]);
        }
        if (i % 2 == 1) P[i + 1] = isa.addc(P[i + 1], 0);  // column n + i
        // Chain B: products of the other parity, j <= n - 1.
        const bool hi_only = i + 2 <= n;  // j = n - 2 - i exists
        if (hi_only) Q[1] = isa.mad_hi_cc(xi, wq[n - 2 - i], Q[1]);
        size_t last = 1;  // Q index of the chain's last high half
        CUZK_UNROLL
        for (size_t j = n - i; j < n; j += 2) {
            const size_t k = i + j - (n - 2);  // Q index of the low half
            Q[k] = (hi_only || j != n - i) ? isa.madc_lo_cc(xi, wq[j], Q[k]) : isa.mad_lo_cc(xi, wq[j], Q[k]);
            Q[k + 1] = k + 1 == i + 2 ? isa.madc_hi(xi, wq[j], Q[k + 1]) : isa.madc_hi_cc(xi, wq[j], Q[k + 1]);
            last = k + 1;
        }
        if (last + 1 == i + 2) Q[i + 2] = isa.addc(Q[i + 2], 0);  // column n + i
    }
    (void)isa.add_cc(P[0], Q[1]);  // column n - 1: only its carry
    CUZK_UNROLL
    for (size_t k = 1; k < n; ++k) q[k - 1] = isa.addc_cc(P[k], Q[k + 1]);
    q[n - 1] = isa.addc(P[n], Q[n + 1]);  // S < 2^(64n): no carry out
}

// r = x w mod p (x < 2p, w < p, wq = floor(w 2^(32n) / p), np = 2^(32n) - p); r < p.
// r may alias x. kNpZeroWords: the words of np known to be 0 (np_zero_words), whose rows of
// q np are skipped; np still comes from the caller (constant memory on the device: a
// compile-time modulus loses ptxas's fused multiply-adds, field.hpp says why).
// kNpWord0Ones: np's word 0 is 2^32 - 1 (np_word0_ones), so its row q (2^32 - 1) =
// (q << 32) - q is added and subtracted on the integer ALU instead of multiplied.
// kReduce = false: no final subtraction, r < 2p (the lazy butterflies below).
template <size_t n, uint32_t kNpZeroWords = 0, bool kNpWord0Ones = false, bool kReduce = true, class Isa>
CUZK_HD_INLINE void shoup_mul32(Isa& isa, uint32_t* r, const uint32_t* x, const uint32_t* w, const uint32_t* wq,
                                const uint32_t* p, const uint32_t* np) {
    static_assert(n % 2 == 0 && n >= 4, "whole 64-bit limbs, at least two");
    uint32_t q[n];
    shoup_quotient32<n>(isa, q, x, wq);
    uint32_t E[n], O[n - 1];
    CUZK_UNROLL
    for (size_t k = 0; k < n; ++k) E[k] = 0;
    CUZK_UNROLL
    for (size_t k = 0; k + 1 < n; ++k) O[k] = 0;
    mul_low_add32<n>(isa, E, O, x, w);
    mul_low_add32<n, kNpZeroWords | (kNpWord0Ones ? 1u : 0u)>(isa, E, O, q, np);
    uint32_t t[n];
    low_sum32<n>(isa, t, E, O);
    if constexpr (kNpWord0Ones) {  // t += (q << 32) - q mod 2^(32n): carries and borrows out are the mod
        t[1] = isa.add_cc(t[1], q[0]);
        CUZK_UNROLL
        for (size_t k = 2; k < n; ++k) t[k] = isa.addc_cc(t[k], q[k - 1]);
        t[0] = isa.sub_cc(t[0], q[0]);
        CUZK_UNROLL
        for (size_t k = 1; k < n; ++k) t[k] = isa.subc_cc(t[k], q[k]);
    }
    if constexpr (kReduce) {
        final_sub<n>(isa, r, t, p);
    } else {
        CUZK_UNROLL
        for (size_t k = 0; k < n; ++k) r[k] = t[k];
    }
}

// Mask of the 32-bit words of 2^(64N) - p that are 0 (bit i: word i), for shoup_mul's
// kNpZeroWords. BLS12-381 r ends in words 1, 2^32 - 1, so 2^256 - r has word 1 = 0: one
// row of q (2^256 - r), 7 of its ~116 wide multiply-adds, needs no instruction. H200 side
// by side: Shoup product 72.06 -> 76.30 G/s (field bench, four chains); NTT
// forward 2^24 4.15 -> 4.03 ms, 2^27 36.36 -> 35.46; compute_h 2^27 277.4 -> 270.7.
template <size_t N>
constexpr uint32_t np_zero_words(const BigInt<N>& p) {
    static_assert(2 * N <= 32, "a word mask of 32 bits");
    uint32_t mask = 0;
    uint64_t carry = 1;  // 2^(64N) - p = ~p + 1
    for (size_t i = 0; i < N; ++i) {
        const uint64_t limb = ~p.l[i] + carry;
        carry = (carry && limb == 0) ? 1 : 0;
        if (uint32_t(limb) == 0) mask |= 1u << (2 * i);
        if (uint32_t(limb >> 32) == 0) mask |= 1u << (2 * i + 1);
    }
    return mask;
}

// Whether word 0 of 2^(64N) - p is 2^32 - 1 (p = 1 mod 2^32: BLS12-381 r), for
// shoup_mul's kNpWord0Ones.
template <size_t N>
constexpr bool np_word0_ones(const BigInt<N>& p) {
    return uint32_t(~p.l[0] + 1) == 0xffffffffu;
}

// The same on N 64-bit limbs (Field storage; no instruction on the device).
template <size_t N, uint32_t kNpZeroWords = 0, bool kNpWord0Ones = false, bool kReduce = true, class Isa>
CUZK_HD_INLINE void shoup_mul(Isa& isa, uint64_t* r, const uint64_t* x, const uint64_t* w, const uint64_t* wq,
                              const uint64_t* p, const uint64_t* np) {
    uint32_t x32[2 * N], w32[2 * N], wq32[2 * N], p32[2 * N], np32[2 * N], r32[2 * N];
    split<N>(x32, x);
    split<N>(w32, w);
    split<N>(wq32, wq);
    split<N>(p32, p);
    split<N>(np32, np);
    shoup_mul32<2 * N, kNpZeroWords, kNpWord0Ones, kReduce>(isa, r32, x32, w32, wq32, p32, np32);
    join<N>(r, r32);
}

// --- lazy butterflies (the device NTT's register passes) -------------------------------
// The butterflies keep their values in [0, 2p) instead of [0, p) (after D. Harvey, "Faster
// arithmetic for number-theoretic transforms", J. Symbolic Computation 60, 2014, sec. 4,
// whose [0, 4p) form needs 4p < 2^(32n): Fr has 4p = 1.81 2^256, so only 2p fits). The
// product skips its final subtraction (shoup_mul32, kReduce = false: x < 2p in, below 2p
// out), the sum and the difference reduce modulo 2p (the sum of two values below 2p may
// carry out of 2^(32n)): 16 instructions fewer a butterfly than the canonical form's
// three reductions modulo p. The device NTT's passes store canonical values
// (lazy_canonical).
//   DIT:  t = y w (< 2p), (x, y) <- ((x + t) mod 2p, (x - t) mod 2p).
//   DIF (Gentleman-Sande):  (x, y) <- ((x + y) mod 2p, ((x - y) mod 2p) w).
// `one`: the twiddle is w^0 (no product). `swap`: the inverse's twiddle -w (DIT: the
// outputs swapped; DIF: y - x).

// r = (a + b) mod m for a, b < m, where a + b may carry out of 2^(32n) (m < 2^(32n)).
template <size_t n, class Isa>
CUZK_HD_INLINE void add_mod_carry(Isa& isa, uint32_t* r, const uint32_t* a, const uint32_t* b, const uint32_t* m) {
    uint32_t t[n], s[n];
    t[0] = isa.add_cc(a[0], b[0]);
    CUZK_UNROLL
    for (size_t k = 1; k < n; ++k) t[k] = isa.addc_cc(a[k], b[k]);
    const uint32_t c = isa.addc(0, 0);
    s[0] = isa.sub_cc(t[0], m[0]);
    CUZK_UNROLL
    for (size_t k = 1; k < n; ++k) s[k] = isa.subc_cc(t[k], m[k]);
    // c - borrow: nonzero (all ones) only when the sum is below m. c = 1 comes with a borrow
    // (a + b - m < m < 2^(32n)).
    const uint32_t below = isa.subc(c, 0);
    CUZK_UNROLL
    for (size_t k = 0; k < n; ++k) r[k] = below ? t[k] : s[k];
}

// r = x w below 2p (shoup_mul32 without its final subtraction) for 32-bit words x, r (r may
// alias x) and the 64-bit limbs of the twiddle pair and the constants.
template <size_t N, uint32_t kNpZeroWords, bool kNpWord0Ones, class Isa>
CUZK_HD_INLINE void lazy_twiddle_product(Isa& isa, uint32_t* r, const uint32_t* x, const uint64_t* w,
                                         const uint64_t* wq, const uint64_t* p, const uint64_t* np) {
    constexpr size_t n = 2 * N;
    uint32_t w32[n], wq32[n], p32[n], np32[n];
    split<N>(w32, w);
    split<N>(wq32, wq);
    split<N>(p32, p);
    split<N>(np32, np);
    shoup_mul32<n, kNpZeroWords, kNpWord0Ones, false>(isa, r, x, w32, wq32, p32, np32);
}

template <size_t N, uint32_t kNpZeroWords = 0, bool kNpWord0Ones = false, class Isa>
CUZK_HD_INLINE void lazy_dit_butterfly(Isa& isa, uint64_t* x, uint64_t* y, bool one, bool swap, const uint64_t* w,
                                       const uint64_t* wq, const uint64_t* p, const uint64_t* np, const uint64_t* p2) {
    constexpr size_t n = 2 * N;
    uint32_t x32[n], y32[n], p2_32[n], t[n], s[n], d[n];
    split<N>(x32, x);
    split<N>(y32, y);
    split<N>(p2_32, p2);
    if (one) {
        CUZK_UNROLL
        for (size_t k = 0; k < n; ++k) t[k] = y32[k];
    } else {
        lazy_twiddle_product<N, kNpZeroWords, kNpWord0Ones>(isa, t, y32, w, wq, p, np);
    }
    add_mod_carry<n>(isa, s, x32, t, p2_32);
    mod_sub32<n>(isa, d, x32, t, p2_32);
    if (swap && !one) {  // (no pointer chosen at run time: the arrays would go to local memory)
        join<N>(x, d);
        join<N>(y, s);
    } else {
        join<N>(x, s);
        join<N>(y, d);
    }
}

template <size_t N, uint32_t kNpZeroWords = 0, bool kNpWord0Ones = false, class Isa>
CUZK_HD_INLINE void lazy_dif_butterfly(Isa& isa, uint64_t* x, uint64_t* y, bool one, bool swap, const uint64_t* w,
                                       const uint64_t* wq, const uint64_t* p, const uint64_t* np, const uint64_t* p2) {
    constexpr size_t n = 2 * N;
    uint32_t x32[n], y32[n], p2_32[n], s[n], d[n];
    split<N>(x32, x);
    split<N>(y32, y);
    split<N>(p2_32, p2);
    add_mod_carry<n>(isa, s, x32, y32, p2_32);
    if (swap && !one)
        mod_sub32<n>(isa, d, y32, x32, p2_32);
    else
        mod_sub32<n>(isa, d, x32, y32, p2_32);
    if (!one) lazy_twiddle_product<N, kNpZeroWords, kNpWord0Ones>(isa, d, d, w, wq, p, np);
    join<N>(x, s);
    join<N>(y, d);
}

// The w^0 DIT butterfly on canonical inputs (x, y < p: the elements a transform's first pass
// loads), into the lazy range: (x + y, x - y + p), both below 2p, so neither needs the
// comparison and selection of add_mod_carry / mod_sub32 (8 + 16 instructions instead of
// ~51). The inverse's swap never applies to w^0.
template <size_t N, class Isa>
CUZK_HD_INLINE void canonical_one_dit_butterfly(Isa& isa, uint64_t* x, uint64_t* y, const uint64_t* p) {
    constexpr size_t n = 2 * N;
    uint32_t x32[n], y32[n], p32[n], s[n], d[n];
    split<N>(x32, x);
    split<N>(y32, y);
    split<N>(p32, p);
    s[0] = isa.add_cc(x32[0], y32[0]);
    CUZK_UNROLL
    for (size_t k = 1; k + 1 < n; ++k) s[k] = isa.addc_cc(x32[k], y32[k]);
    s[n - 1] = isa.addc(x32[n - 1], y32[n - 1]);  // x + y < 2p < 2^(32n): no carry out
    d[0] = isa.sub_cc(x32[0], y32[0]);
    CUZK_UNROLL
    for (size_t k = 1; k < n; ++k) d[k] = isa.subc_cc(x32[k], y32[k]);
    d[0] = isa.add_cc(d[0], p32[0]);  // the borrow out above and the carry out here are the mod 2^(32n)
    CUZK_UNROLL
    for (size_t k = 1; k < n; ++k) d[k] = isa.addc_cc(d[k], p32[k]);
    join<N>(x, s);
    join<N>(y, d);
}

// r = x mod p for x < 2p.
template <size_t N, class Isa>
CUZK_HD_INLINE void lazy_canonical(Isa& isa, uint64_t* r, const uint64_t* x, const uint64_t* p) {
    constexpr size_t n = 2 * N;
    uint32_t x32[n], p32[n];
    split<N>(x32, x);
    split<N>(p32, p);
    final_sub<n>(isa, x32, x32, p32);
    join<N>(r, x32);
}

// r = a b mod 2^(64N) (the low half of the product).
template <size_t N, class Isa>
CUZK_HD_INLINE void mul_low(Isa& isa, uint64_t* r, const uint64_t* a, const uint64_t* b) {
    uint32_t a32[2 * N], b32[2 * N], E[2 * N], O[2 * N - 1], r32[2 * N];
    split<N>(a32, a);
    split<N>(b32, b);
    CUZK_UNROLL
    for (size_t k = 0; k < 2 * N; ++k) E[k] = 0;
    CUZK_UNROLL
    for (size_t k = 0; k + 1 < 2 * N; ++k) O[k] = 0;
    mul_low_add32<2 * N>(isa, E, O, a32, b32);
    low_sum32<2 * N>(isa, r32, E, O);
    join<N>(r, r32);
}

// -p^-1 mod 2^(64N) (the twiddle tables' constant: w' = w~ (-p^-1) mod 2^(64N)), by
// Newton's iteration inv <- inv (2 - p inv), each step doubling the correct low bits (p
// odd: p p = 1 mod 8 to start). Host code. 2^(64N) - p, the other constant, is
// BigInt<N>::sub from zero.
template <size_t N>
inline BigInt<N> neg_inverse_mod_word_power(const BigInt<N>& p) {
    const auto mul_low = [](const BigInt<N>& a, const BigInt<N>& b) {
        uint64_t wide[2 * N];
        mul_wide_portable<N>(wide, a.l, b.l);
        BigInt<N> r;
        for (size_t i = 0; i < N; ++i) r.l[i] = wide[i];
        return r;
    };
    BigInt<N> inv = p;
    for (size_t bits = 3; bits < 64 * N; bits *= 2) {
        BigInt<N> two_minus;
        BigInt<N>::sub(two_minus, BigInt<N>::from_u64(2), mul_low(p, inv));
        inv = mul_low(inv, two_minus);
    }
    BigInt<N> r;
    BigInt<N>::sub(r, BigInt<N>::zero(), inv);
    return r;
}

}  // namespace cuzk::ff_detail::ptx
