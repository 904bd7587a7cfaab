// Montgomery arithmetic over 32-bit limbs with explicit carry chains, for the GPU.
//
// Why: the portable CIOS (mont_portable.hpp) multiplies 64-bit limbs into 128-bit
// products, which the GPU has no instruction for: nvcc emulates each with four 32-bit
// multiplies and a carry fix-up. The GPU's native step is a 32x32 multiply-add into a
// carry chain (PTX mad.lo.cc / madc.hi.cc, CUDA's IMAD with carry), so these routines work
// on n = 2N words of 32 bits, over the SAME storage as the host: limb i (64 bits,
// little-endian) is words 2i (low half) and 2i+1 (high half), so converting costs no
// instruction on the device and every buffer still copies byte for byte.
//
// The algorithms are written once against a tiny instruction set `Isa` (the PTX carry-
// chain instructions, one method each): DeviceIsa issues the PTX itself (device code
// only); tests/gpu/test_ptx_emulated.cpp runs the same code on the host with an emulated
// carry flag that also records any carry that a bound below claims cannot happen.
//
// Multiplication: CIOS (Koc, Acar, Kaliski, "Analyzing and comparing Montgomery
// multiplication algorithms", 1996) with the accumulator split in two, the fact behind
// the public GPU implementations (sppark ff/mont_t.cuh, see shared/reference/gpu-msm-ntt.md):
// the products a_j b_i of even j are non-overlapping 64-bit pieces at words j, j+1, so
// their sum is ONE carry chain (lo, hi, lo, hi, ...), and likewise for odd j one word up.
// The running value is T = E + 2^32 O (E: even chain, n+1 words; O: odd chain, n words at
// word 1), two independent chains that the GPU can overlap. Per word b_i:
//   E += sum_{j even} a_j b_i 2^(32j),  O += sum_{j odd} a_j b_i 2^(32(j-1))
//   m = E_0 (-p^-1) mod 2^32
//   E += sum_{j even} p_j m 2^(32j),    O += sum_{j odd} p_j m 2^(32(j-1))   (now E_0 = 0)
//   T/2^32 = O + E_1 + 2^32 (E_2..E_n): the roles swap (O becomes the even accumulator,
//   E_2.. the odd one) and the single word E_1 is added to the new even accumulator's
//   word 0 with add.cc, whose carry feeds the next odd chain (madc). No per-step
//   n-word addition. After the last word: T = O + (E >> 32), then one conditional
//   subtraction of p.
// Bounds (p < 2^(32n-1), true for BLS12-381 Fp: 381 of 384 bits, and Fr: 255 of 256):
// the CIOS value stays < 2p, so T + a b_i + m p < 2p + 2 (2^32 - 1) p < 2^(32(n+1)); every
// partial E is below that (n+1 words) and every partial O below 2^(32n) (n words). The
// chain ends written without .cc below therefore never drop a carry.
//
// Squaring: the cross products sum_{i<j} a_i a_j 2^(32(i+j)) in two chains per row (j-i
// odd / even, again non-overlapping pieces), doubled by a funnel shift, plus the diagonal
// a_i^2 (one chain); then the Montgomery reduction of the low half with the same split
// accumulators (SOS order, same reference): n(n-1)/2 + n instead of n^2 word products.
// Measured on an H200 (bench/gpu_field.cu): Fp mul 27.1 G/s (portable 64-bit CIOS: 17.2),
// Fp square 32.7 (as a mul: 27.0); Fr mul 52.2 (38.9), Fr square 59.2 (51.8). Through Field,
// with Fr's p and -p^-1 from constant memory (field.hpp, device_modulus): Fr
// mul 59.7 (four independent chains 60.2), Fr square 68.9; Fp unchanged.
//
// Inputs are fully reduced (< p) and so are the outputs, as everywhere in Field.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/common/hd.hpp"

// Field add/sub on the device through the 32-bit chains below (1) or the portable 64-bit
// code (0); mul and square always take the 32-bit path on the device. H200 throughput
// (bench/gpu_field.cu): Fp add 455 vs 213 G/s, sub 449 vs 201; Fr add 673 vs 349.
#ifndef CUZK_PTX_ADDSUB
#define CUZK_PTX_ADDSUB 1
#endif

// Field multiplication on the device through mont_mul32_rot (1: rotating accumulators) or
// mont_mul32 (0: one split accumulator, words moved between steps). H200, side by side:
// Fr mul 52.58 vs 52.33 G/s (four independent chains 52.90 vs 52.41), Fp
// 27.19 vs 27.21; NTT forward 2^27 46.7 vs 47.6 ms, compute_h 2^24 39.65 vs 40.3, G1 MSM
// 2^26 422.3 vs 424.1. With -p^-1 a compile-time constant both compile Fr's m p products
// to unfused IMAD.X + IMAD.HI.U32.X pairs (Fr's -p^-1 mod 2^32 is 2^32 - 1: ptxas makes m
// = -E_0 and loses the fused form); Field passes Fr's p and -p^-1 from constant memory
// (field.hpp, device_modulus): 60.3 G/s.
#ifndef CUZK_PTX_MUL_ROT
#define CUZK_PTX_MUL_ROT 1
#endif

// Reduction steps without the multiplies by p's low words when they are 1 and 2^32 - 1
// (Field::kSparseLow, Fr; SparseLowWords below): 1, or 0 to multiply as for any p (the
// default). H200 side by side: the Fr multiply chain gains (Field mul 59.9 ->
// 64.4 G/s) but the square loses (68.9 -> 66.3) and so does everything built on them:
// NTT forward 2^24 4.78 -> 4.90 ms, 2^27 42.6 -> 44.4, compute_h 2^27 321 -> 336, with the
// same registers (no spill): the selects and compares it adds sit on the NTT's path.
#ifndef CUZK_PTX_SPARSE_LOW
#define CUZK_PTX_SPARSE_LOW 0
#endif

// a b - c d with one reduction on the device where p has two spare top bits (Fp; Field::
// mul_sub_mul, mont_mul2_32_rot below): 1, or 0 for two multiplications. H200 side by
// side: Fp mul_sub_mul 18.1 G/s (two multiplies: 13.6); G1 MSM 2^26 422.2 ->
// 401.7 ms, 2^24 113.2 -> 107.6, 2^22 34.4 -> 32.8 (Y3 of the XYZZ additions).
#ifndef CUZK_PTX_MUL2
#define CUZK_PTX_MUL2 1
#endif

// Device multiplication as a Karatsuba product then a separate reduction (mont_mul32_kara)
// for: 0 no field (the default), 1 Fp (6 limbs), 2 Fr (4 limbs), 3 both (Field::
// kKaratsuba). H200 side by side with both on: the Fp multiply chain gains
// (27.2 -> 28.5 G/s; four independent chains 27.3 -> 27.0), everything else loses: Fr mul
// 64.4 -> 52.7 G/s, G1 MSM 2^26 401.7 -> 448.7 ms, G2 2^24 351 -> 879 (spills), NTT
// forward 2^24 4.90 -> 5.89 ms. The extra live words (three half products, the sums)
// cost more than the 36 fewer wide multiply-adds save.
#ifndef CUZK_PTX_KARATSUBA
#define CUZK_PTX_KARATSUBA 0
#endif

namespace cuzk::ff_detail::ptx {

#if defined(__CUDACC__)  // declared in both passes of nvcc, used only by device code
// The PTX carry-chain instructions (PTX ISA, "Extended-Precision Integer Arithmetic").
// The carry flag CC.CF lives between the statements: each is `asm volatile`, so they keep
// their order, and the code between them (moves, mul.lo for m, and, shifts, selects) has
// no .cc instruction of its own; the convention of NVIDIA's CGBN. The compiler does emit
// .cc for 128-bit arithmetic, so none must be interleaved: the device field test and the
// MSM/NTT/proof tests against the CPU guard that. For subtraction CF is the borrow.
struct DeviceIsa {
#define CUZK_PTX_OP3(name, insn)                                                   \
    __device__ __forceinline__ uint32_t name(uint32_t a, uint32_t b, uint32_t c) { \
        uint32_t d;                                                                \
        asm volatile(insn " %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c));  \
        return d;                                                                  \
    }
#define CUZK_PTX_OP2(name, insn)                                       \
    __device__ __forceinline__ uint32_t name(uint32_t a, uint32_t b) { \
        uint32_t d;                                                    \
        asm volatile(insn " %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b));  \
        return d;                                                      \
    }
    __device__ __forceinline__ uint32_t mul_lo(uint32_t a, uint32_t b) { return a * b; }
    __device__ __forceinline__ uint32_t mul_hi(uint32_t a, uint32_t b) { return __umulhi(a, b); }
    CUZK_PTX_OP3(mad_lo_cc, "mad.lo.cc.u32")
    CUZK_PTX_OP3(madc_lo_cc, "madc.lo.cc.u32")
    CUZK_PTX_OP3(madc_hi_cc, "madc.hi.cc.u32")
    CUZK_PTX_OP3(mad_hi_cc, "mad.hi.cc.u32")
    CUZK_PTX_OP3(madc_hi, "madc.hi.u32")
    CUZK_PTX_OP2(add_cc, "add.cc.u32")
    CUZK_PTX_OP2(addc_cc, "addc.cc.u32")
    CUZK_PTX_OP2(addc, "addc.u32")
    CUZK_PTX_OP2(sub_cc, "sub.cc.u32")
    CUZK_PTX_OP2(subc_cc, "subc.cc.u32")
    CUZK_PTX_OP2(subc, "subc.u32")
#undef CUZK_PTX_OP3
#undef CUZK_PTX_OP2
};
#endif

// --- shared pieces --------------------------------------------------------------------

// Moduli whose two low words are p_0 = 1 and p_1 = 2^32 - 1 (p = 2^64 - 2^32 + 1 mod 2^64:
// BLS12-381's Fr) need no multiplication for them in a reduction step. Then -p^-1 = -1 mod
// 2^32, so m = -E_0, and with E_0 != 0 (m = 2^32 - E_0):
//   p_0 m = m              word 0: E_0 + m = 2^32, i.e. 0 and a carry of (E_0 != 0);
//   p_1 m = m 2^32 - m = (m - 1) 2^32 + (2^32 - m): lo = E_0, hi = m - 1 = ~E_0;
// with E_0 = 0 all of them are 0 (m = 0). Two of the n/2 wide multiply-adds of each chain
// become additions: Fr's multiply has 96 + 16 instead of 128 (a b and m p) + 8 (m).
// m itself is still E_0 inv with inv read at run time (Field passes it from constant
// memory): written as m = -E_0, ptxas again compiled every remaining m p_k product to an
// unfused IMAD.X + IMAD.HI.U32.X pair (SASS, H200: Fr mul 59.9 -> 56.1 G/s).
struct SparseLowWords {
    uint32_t lo1, hi1, carry0;
    CUZK_HD_INLINE explicit SparseLowWords(uint32_t e0) : lo1(e0), hi1(e0 != 0 ? ~e0 : 0u), carry0(e0 != 0 ? 1u : 0u) {}
};

// One reduction step on the split accumulator: m = E_0 inv, E += p_even m, O += p_odd m.
// `first`: O holds nothing yet, so its products are written, not added. `pending`: the
// carry flag holds the carry of the word-0 addition made by the caller, owed to O_0.
// kSparseLow: p_0 = 1, p_1 = 2^32 - 1 (SparseLowWords).
template <size_t n, bool kSparseLow, class Isa>
CUZK_HD_INLINE void reduce_step(Isa& isa, uint32_t* E, uint32_t* O, const uint32_t* p, uint32_t inv, bool first,
                                bool pending) {
    const SparseLowWords w(E[0]);
    const uint32_t m = isa.mul_lo(E[0], inv);
    // Odd chain first: it consumes the pending carry (mul.lo does not touch the flag).
    if (first) {
        O[0] = kSparseLow ? w.lo1 : isa.mul_lo(p[1], m);
        O[1] = kSparseLow ? w.hi1 : isa.mul_hi(p[1], m);
        CUZK_UNROLL
        for (size_t k = 1; k < n / 2; ++k) {
            O[2 * k] = isa.mul_lo(p[2 * k + 1], m);
            O[2 * k + 1] = isa.mul_hi(p[2 * k + 1], m);
        }
    } else {
        if constexpr (kSparseLow) {
            O[0] = pending ? isa.addc_cc(O[0], w.lo1) : isa.add_cc(O[0], w.lo1);
            O[1] = isa.addc_cc(O[1], w.hi1);
        } else {
            O[0] = pending ? isa.madc_lo_cc(p[1], m, O[0]) : isa.mad_lo_cc(p[1], m, O[0]);
            O[1] = isa.madc_hi_cc(p[1], m, O[1]);
        }
        CUZK_UNROLL
        for (size_t k = 1; k < n / 2; ++k) {
            O[2 * k] = isa.madc_lo_cc(p[2 * k + 1], m, O[2 * k]);
            if (k + 1 < n / 2)
                O[2 * k + 1] = isa.madc_hi_cc(p[2 * k + 1], m, O[2 * k + 1]);
            else
                O[2 * k + 1] = isa.madc_hi(p[2 * k + 1], m, O[2 * k + 1]);  // O < 2^(32n): no carry out
        }
    }
    if constexpr (kSparseLow) {
        E[1] = isa.add_cc(E[1], w.carry0);
        E[0] = 0;
    } else {
        E[0] = isa.mad_lo_cc(p[0], m, E[0]);  // 0 by the choice of m; only the carry matters
        E[1] = isa.madc_hi_cc(p[0], m, E[1]);
    }
    CUZK_UNROLL
    for (size_t k = 1; k < n / 2; ++k) {
        E[2 * k] = isa.madc_lo_cc(p[2 * k], m, E[2 * k]);
        E[2 * k + 1] = isa.madc_hi_cc(p[2 * k], m, E[2 * k + 1]);
    }
    E[n] = isa.addc(E[n], 0);  // E < 2^(32(n+1)): no carry out
}

// Divides T = E + 2^32 O (E_0 = 0) by 2^32 into the same form with the roles swapped:
// new E = O + E_1 (word 0, by add.cc: its carry is left in the flag for the next odd
// chain), new O = E_2..E_n, both padded with a zero top word.
template <size_t n, class Isa>
CUZK_HD_INLINE void shift_swap(Isa& isa, uint32_t* E, uint32_t* O) {
    uint32_t nE[n + 1], nO[n];
    CUZK_UNROLL
    for (size_t k = 0; k < n; ++k) nE[k] = O[k];
    nE[n] = 0;
    CUZK_UNROLL
    for (size_t k = 0; k + 1 < n; ++k) nO[k] = E[k + 2];
    nO[n - 1] = 0;
    nE[0] = isa.add_cc(nE[0], E[1]);
    CUZK_UNROLL
    for (size_t k = 0; k <= n; ++k) E[k] = nE[k];
    CUZK_UNROLL
    for (size_t k = 0; k < n; ++k) O[k] = nO[k];
}

// r = t - p if t >= p, else t (t < 2p).
template <size_t n, class Isa>
CUZK_HD_INLINE void final_sub(Isa& isa, uint32_t* r, const uint32_t* t, const uint32_t* p) {
    uint32_t s[n];
    s[0] = isa.sub_cc(t[0], p[0]);
    CUZK_UNROLL
    for (size_t k = 1; k < n; ++k) s[k] = isa.subc_cc(t[k], p[k]);
    const uint32_t borrow = isa.subc(0, 0);  // all ones when t < p
    CUZK_UNROLL
    for (size_t k = 0; k < n; ++k) r[k] = borrow ? t[k] : s[k];
}

// r = O + (E >> 32) + add (add: n words or nullptr), then reduced below p (kReduce) or
// left as it is (the redundant form, below 2p). The sum is < 2p.
template <size_t n, bool kReduce = true, class Isa>
CUZK_HD_INLINE void finish(Isa& isa, uint32_t* r, const uint32_t* E, const uint32_t* O, const uint32_t* add,
                           const uint32_t* p) {
    uint32_t t[n];
    t[0] = isa.add_cc(O[0], E[1]);
    CUZK_UNROLL
    for (size_t k = 1; k + 1 < n; ++k) t[k] = isa.addc_cc(O[k], E[k + 1]);
    t[n - 1] = isa.addc(O[n - 1], E[n]);
    if (add) {
        t[0] = isa.add_cc(t[0], add[0]);
        CUZK_UNROLL
        for (size_t k = 1; k + 1 < n; ++k) t[k] = isa.addc_cc(t[k], add[k]);
        t[n - 1] = isa.addc(t[n - 1], add[n - 1]);
    }
    if constexpr (kReduce) {
        final_sub<n>(isa, r, t, p);
    } else {
        CUZK_UNROLL
        for (size_t k = 0; k < n; ++k) r[k] = t[k];
    }
}

// --- the operations on n 32-bit words ---------------------------------------------------

// r = a b 2^(-32n) mod p. r may alias a or b.
template <size_t n, bool kSparseLow = false, class Isa>
CUZK_HD_INLINE void mont_mul32(Isa& isa, uint32_t* r, const uint32_t* a, const uint32_t* b, const uint32_t* p,
                               uint32_t inv) {
    static_assert(n % 2 == 0 && n >= 4, "whole 64-bit limbs, at least two");
    uint32_t E[n + 1], O[n];
    // Word b_0: the products are written, not added.
    CUZK_UNROLL
    for (size_t k = 0; k < n / 2; ++k) {
        E[2 * k] = isa.mul_lo(a[2 * k], b[0]);
        E[2 * k + 1] = isa.mul_hi(a[2 * k], b[0]);
        O[2 * k] = isa.mul_lo(a[2 * k + 1], b[0]);
        O[2 * k + 1] = isa.mul_hi(a[2 * k + 1], b[0]);
    }
    E[n] = 0;
    reduce_step<n, kSparseLow>(isa, E, O, p, inv, false, false);
    CUZK_UNROLL
    for (size_t i = 1; i < n; ++i) {
        shift_swap<n>(isa, E, O);  // leaves the word-0 carry in the flag, owed to O_0
        const uint32_t bi = b[i];
        // Odd products, consuming that carry. O's top word is the zero padding: no carry out.
        CUZK_UNROLL
        for (size_t k = 0; k < n / 2; ++k) {
            O[2 * k] = isa.madc_lo_cc(a[2 * k + 1], bi, O[2 * k]);
            if (k + 1 < n / 2)
                O[2 * k + 1] = isa.madc_hi_cc(a[2 * k + 1], bi, O[2 * k + 1]);
            else
                O[2 * k + 1] = isa.madc_hi(a[2 * k + 1], bi, O[2 * k + 1]);
        }
        // Even products; the carry out lands in the zero padding E_n.
        E[0] = isa.mad_lo_cc(a[0], bi, E[0]);
        E[1] = isa.madc_hi_cc(a[0], bi, E[1]);
        CUZK_UNROLL
        for (size_t k = 1; k < n / 2; ++k) {
            E[2 * k] = isa.madc_lo_cc(a[2 * k], bi, E[2 * k]);
            E[2 * k + 1] = isa.madc_hi_cc(a[2 * k], bi, E[2 * k + 1]);
        }
        E[n] = isa.addc(E[n], 0);
        reduce_step<n, kSparseLow>(isa, E, O, p, inv, false, false);
    }
    finish<n>(isa, r, E, O, nullptr, p);
}

// The same product with two n-word accumulators whose roles alternate (the arrangement of
// sppark's mont_t, shared/reference/gpu-msm-ntt.md): after a word's reduction T = X +
// 2^32 Y with X_0 = 0, so T / 2^32 = Y + (X >> 32): Y becomes the even accumulator (X_1
// added to its word 0) and X the odd one, shifted down two words inside the multiply-adds
// of the next word's odd products (madc reads X_(j+2), writes X_j), so no word is moved
// and no (n+1)-th word is kept: the even chain's carry out is word n, the odd
// accumulator's top word. Bounds as above (T + a b_i + m p < 2^(32(n+1))): every chain
// end written without .cc holds no carry (the emulated test records any).
// X (odd accumulator, words 1..n) and Y (even, words 0..n-1) += c d_i in two fresh chains,
// the even one's carry out into word n (X's top): the second product of mont_mul2_32_rot.
template <size_t n, class Isa>
CUZK_HD_INLINE void add_product(Isa& isa, uint32_t* X, uint32_t* Y, const uint32_t* c, uint32_t di) {
    X[0] = isa.mad_lo_cc(c[1], di, X[0]);
    X[1] = isa.madc_hi_cc(c[1], di, X[1]);
    CUZK_UNROLL
    for (size_t k = 1; k < n / 2; ++k) {
        X[2 * k] = isa.madc_lo_cc(c[2 * k + 1], di, X[2 * k]);
        X[2 * k + 1] = (k + 1 < n / 2) ? isa.madc_hi_cc(c[2 * k + 1], di, X[2 * k + 1])
                                       : isa.madc_hi(c[2 * k + 1], di, X[2 * k + 1]);  // X < 2^(32n)
    }
    Y[0] = isa.mad_lo_cc(c[0], di, Y[0]);
    Y[1] = isa.madc_hi_cc(c[0], di, Y[1]);
    CUZK_UNROLL
    for (size_t k = 1; k < n / 2; ++k) {
        Y[2 * k] = isa.madc_lo_cc(c[2 * k], di, Y[2 * k]);
        Y[2 * k + 1] = isa.madc_hi_cc(c[2 * k], di, Y[2 * k + 1]);
    }
    X[n - 1] = isa.addc(X[n - 1], 0);  // word n
}

// kTwo: also adds c d_i (c, di) before the reduction (mont_mul2_32_rot).
template <size_t n, bool kSparseLow, bool kTwo, class Isa>
CUZK_HD_INLINE void rot_step(Isa& isa, uint32_t* X, uint32_t* Y, const uint32_t* a, uint32_t bi, const uint32_t* c,
                             uint32_t di, const uint32_t* p, uint32_t inv, bool first) {
    // X: the odd accumulator (word 1 up), Y: the even one (word 0 up).
    if (first) {
        CUZK_UNROLL
        for (size_t k = 0; k < n / 2; ++k) {
            X[2 * k] = isa.mul_lo(a[2 * k + 1], bi);
            X[2 * k + 1] = isa.mul_hi(a[2 * k + 1], bi);
            Y[2 * k] = isa.mul_lo(a[2 * k], bi);
            Y[2 * k + 1] = isa.mul_hi(a[2 * k], bi);
        }
    } else {
        // On entry T = X + 2^32 Y with X_0 = 0 (the previous step's even accumulator is this
        // step's X): T / 2^32 = Y + (X >> 32).
        Y[0] = isa.add_cc(Y[0], X[1]);  // its carry belongs to word 1: the odd chain's first word
        CUZK_UNROLL
        for (size_t k = 0; k + 1 < n / 2; ++k) {
            X[2 * k] = isa.madc_lo_cc(a[2 * k + 1], bi, X[2 * k + 2]);
            X[2 * k + 1] = isa.madc_hi_cc(a[2 * k + 1], bi, X[2 * k + 3]);
        }
        X[n - 2] = isa.madc_lo_cc(a[n - 1], bi, 0);
        X[n - 1] = isa.madc_hi(a[n - 1], bi, 0);
        Y[0] = isa.mad_lo_cc(a[0], bi, Y[0]);
        Y[1] = isa.madc_hi_cc(a[0], bi, Y[1]);
        CUZK_UNROLL
        for (size_t k = 1; k < n / 2; ++k) {
            Y[2 * k] = isa.madc_lo_cc(a[2 * k], bi, Y[2 * k]);
            Y[2 * k + 1] = isa.madc_hi_cc(a[2 * k], bi, Y[2 * k + 1]);
        }
        X[n - 1] = isa.addc(X[n - 1], 0);  // word n
    }
    if constexpr (kTwo) add_product<n>(isa, X, Y, c, di);
    const SparseLowWords w(Y[0]);
    const uint32_t m = isa.mul_lo(Y[0], inv);
    if constexpr (kSparseLow) {
        X[0] = isa.add_cc(X[0], w.lo1);
        X[1] = isa.addc_cc(X[1], w.hi1);
    } else {
        X[0] = isa.mad_lo_cc(p[1], m, X[0]);
        X[1] = isa.madc_hi_cc(p[1], m, X[1]);
    }
    CUZK_UNROLL
    for (size_t k = 1; k < n / 2; ++k) {
        X[2 * k] = isa.madc_lo_cc(p[2 * k + 1], m, X[2 * k]);
        X[2 * k + 1] = (k + 1 < n / 2) ? isa.madc_hi_cc(p[2 * k + 1], m, X[2 * k + 1])
                                       : isa.madc_hi(p[2 * k + 1], m, X[2 * k + 1]);  // X < 2^(32n)
    }
    if constexpr (kSparseLow) {
        Y[1] = isa.add_cc(Y[1], w.carry0);
        Y[0] = 0;
    } else {
        Y[0] = isa.mad_lo_cc(p[0], m, Y[0]);  // 0 by the choice of m; only the carry matters
        Y[1] = isa.madc_hi_cc(p[0], m, Y[1]);
    }
    CUZK_UNROLL
    for (size_t k = 1; k < n / 2; ++k) {
        Y[2 * k] = isa.madc_lo_cc(p[2 * k], m, Y[2 * k]);
        Y[2 * k + 1] = isa.madc_hi_cc(p[2 * k], m, Y[2 * k + 1]);
    }
    X[n - 1] = isa.addc(X[n - 1], 0);  // word n
}

// r = (a b [+ c d]) 2^(-32n) mod p by rot_step over the words of b (and d when kTwo), then
// T / 2^32 = E + (O >> 32) < 2p and one conditional subtraction. The loop of both
// mont_mul32_rot and mont_mul2_32_rot.
template <size_t n, bool kSparseLow, bool kTwo, bool kReduce = true, class Isa>
CUZK_HD_INLINE void rot_product(Isa& isa, uint32_t* r, const uint32_t* a, const uint32_t* b, const uint32_t* c,
                                const uint32_t* d, const uint32_t* p, uint32_t inv) {
    static_assert(n % 2 == 0 && n >= 4, "whole 64-bit limbs, at least two");
    uint32_t E[n], O[n];
    CUZK_UNROLL
    for (size_t i = 0; i < n; i += 2) {
        // leaves T = E + 2^32 O, E_0 = 0, then T = O + 2^32 E, O_0 = 0
        rot_step<n, kSparseLow, kTwo>(isa, O, E, a, b[i], c, kTwo ? d[i] : 0, p, inv, i == 0);
        rot_step<n, kSparseLow, kTwo>(isa, E, O, a, b[i + 1], c, kTwo ? d[i + 1] : 0, p, inv, false);
    }
    uint32_t t[n];
    t[0] = isa.add_cc(E[0], O[1]);
    CUZK_UNROLL
    for (size_t k = 1; k + 1 < n; ++k) t[k] = isa.addc_cc(E[k], O[k + 1]);
    t[n - 1] = isa.addc(E[n - 1], 0);
    if constexpr (kReduce) {
        final_sub<n>(isa, r, t, p);
    } else {
        CUZK_UNROLL
        for (size_t k = 0; k < n; ++k) r[k] = t[k];
    }
}

// r = a b 2^(-32n) mod p through rot_step. r may alias a or b.
template <size_t n, bool kSparseLow = false, bool kReduce = true, class Isa>
CUZK_HD_INLINE void mont_mul32_rot(Isa& isa, uint32_t* r, const uint32_t* a, const uint32_t* b, const uint32_t* p,
                                   uint32_t inv) {
    rot_product<n, kSparseLow, false, kReduce>(isa, r, a, b, nullptr, nullptr, p, inv);
}

// r = (a b + c d) 2^(-32n) mod p with ONE reduction: the rotating multiply with a second
// product added per word of d (add_product), 2 n^2 + n^2 + n word products instead of
// 2 (2 n^2 + n) (lazy reduction, as in the ZPrize MSMs; shared/reference/gpu-msm-ntt.md).
// Needs p < 2^(32n - 2) (Fp: 381 of 384 bits; NOT Fr): every step adds a b_i + c d_i + m p
// < 3 (2^32 - 1) p to T < 3p, so T stays below 3p and each partial sum below
// 3p + 3 2^32 p < 2^(32(n+1)); the result (a b + c d + M p) / 2^(32n) < 2p^2 / 2^(32n) + p
// < 2p takes one conditional subtraction. Operands below p, except that d may equal p.
template <size_t n, bool kReduce = true, class Isa>
CUZK_HD_INLINE void mont_mul2_32_rot(Isa& isa, uint32_t* r, const uint32_t* a, const uint32_t* b, const uint32_t* c,
                                     const uint32_t* d, const uint32_t* p, uint32_t inv) {
    rot_product<n, false, true, kReduce>(isa, r, a, b, c, d, p, inv);
}

// nd = p - d for d < p: no borrow, and p - d <= p (the operand bound of mont_mul2_32_rot).
template <size_t n, class Isa>
CUZK_HD_INLINE void p_minus(Isa& isa, uint32_t* nd, const uint32_t* p, const uint32_t* d) {
    nd[0] = isa.sub_cc(p[0], d[0]);
    CUZK_UNROLL
    for (size_t k = 1; k + 1 < n; ++k) nd[k] = isa.subc_cc(p[k], d[k]);
    nd[n - 1] = isa.subc(p[n - 1], d[n - 1]);
}

// r = (a b - c d) 2^(-32n) mod p: mont_mul2_32_rot with p - d.
template <size_t n, class Isa>
CUZK_HD_INLINE void mont_mul_sub_mul32(Isa& isa, uint32_t* r, const uint32_t* a, const uint32_t* b, const uint32_t* c,
                                       const uint32_t* d, const uint32_t* p, uint32_t inv) {
    uint32_t nd[n];
    p_minus<n>(isa, nd, p, d);
    mont_mul2_32_rot<n>(isa, r, a, b, c, nd, p, inv);
}

// r = T 2^(-32n) mod p for T < p 2^(32n) (2n words; SOS, the reference of mont_mul32):
// n steps of reduce_step on E = T_0..T_(n-1), then the high half added: below 2p before
// the one conditional subtraction.
template <size_t n, bool kSparseLow, bool kReduce = true, class Isa>
CUZK_HD_INLINE void redc_wide(Isa& isa, uint32_t* r, const uint32_t* T, const uint32_t* p, uint32_t inv) {
    uint32_t E[n + 1], O[n];
    CUZK_UNROLL
    for (size_t k = 0; k < n; ++k) E[k] = T[k];
    E[n] = 0;
    reduce_step<n, kSparseLow>(isa, E, O, p, inv, true, false);
    CUZK_UNROLL
    for (size_t i = 1; i < n; ++i) {
        shift_swap<n>(isa, E, O);
        reduce_step<n, kSparseLow>(isa, E, O, p, inv, false, true);
    }
    finish<n, kReduce>(isa, r, E, O, T + n, p);
}

// r = a^2 2^(-32n) mod p. r may alias a.
template <size_t n, bool kSparseLow = false, bool kReduce = true, class Isa>
CUZK_HD_INLINE void mont_sqr32(Isa& isa, uint32_t* r, const uint32_t* a, const uint32_t* p, uint32_t inv) {
    static_assert(n % 2 == 0 && n >= 4, "whole 64-bit limbs, at least two");
    // Cross products a_i a_j (i < j): X gets the pieces of odd j - i (row i starts at word
    // 2i+1), Y those of even j - i (row i starts at word 2i+2). Each row is one chain whose
    // carry lands in a word that is either fresh or holds only the previous row's carry.
    // X is stored one word down (X[k] is word k+1) so that every (lo, hi) piece sits in an
    // even-aligned register pair, which lets ptxas fuse it into one 64-bit multiply-add
    // (unaligned, the squaring compiled to more SASS instructions than a multiplication).
    uint32_t X[2 * n], Y[2 * n];
    CUZK_UNROLL
    for (size_t k = 0; k < 2 * n; ++k) X[k] = Y[k] = 0;
    CUZK_UNROLL
    for (size_t i = 0; i + 1 < n; ++i) {
        CUZK_UNROLL
        for (size_t j = i + 1; j < n; j += 2) {
            const size_t w = i + j - 1;  // word i + j, one down
            X[w] = (j == i + 1) ? isa.mad_lo_cc(a[i], a[j], X[w]) : isa.madc_lo_cc(a[i], a[j], X[w]);
            X[w + 1] = isa.madc_hi_cc(a[i], a[j], X[w + 1]);
        }
        const size_t x_end = i + ((n - 1 - i) % 2 == 1 ? n - 1 : n - 2) + 1;  // last word of row i in X
        X[x_end] = isa.addc(X[x_end], 0);                                     // word x_end + 1, one down
        if (i + 2 < n) {
            CUZK_UNROLL
            for (size_t j = i + 2; j < n; j += 2) {
                Y[i + j] = (j == i + 2) ? isa.mad_lo_cc(a[i], a[j], Y[i + j]) : isa.madc_lo_cc(a[i], a[j], Y[i + j]);
                Y[i + j + 1] = isa.madc_hi_cc(a[i], a[j], Y[i + j + 1]);
            }
            const size_t y_end = i + ((n - 1 - i) % 2 == 0 ? n - 1 : n - 2) + 1;
            Y[y_end + 1] = isa.addc(Y[y_end + 1], 0);
        }
    }
    // C = X + Y < a^2 / 2 (word 0 of both is zero), then T = 2C (funnel shift) + the
    // diagonal a_i^2 at words 2i, 2i+1.
    uint32_t T[2 * n];
    T[0] = 0;
    T[1] = isa.add_cc(X[0], Y[1]);
    CUZK_UNROLL
    for (size_t k = 2; k + 1 < 2 * n; ++k) T[k] = isa.addc_cc(X[k - 1], Y[k]);
    T[2 * n - 1] = isa.addc(X[2 * n - 2], Y[2 * n - 1]);
    CUZK_UNROLL
    for (size_t k = 2 * n - 1; k > 0; --k) T[k] = (T[k] << 1) | (T[k - 1] >> 31);
    T[0] <<= 1;
    T[0] = isa.mad_lo_cc(a[0], a[0], T[0]);
    T[1] = isa.madc_hi_cc(a[0], a[0], T[1]);
    CUZK_UNROLL
    for (size_t i = 1; i < n; ++i) {
        T[2 * i] = isa.madc_lo_cc(a[i], a[i], T[2 * i]);
        T[2 * i + 1] = (i + 1 < n) ? isa.madc_hi_cc(a[i], a[i], T[2 * i + 1]) : isa.madc_hi(a[i], a[i], T[2 * i + 1]);
    }
    redc_wide<n, kSparseLow, kReduce>(isa, r, T, p, inv);
}

// z = x y (2h words) for h-word x, y: row i's pieces x_j y_i of even j and of odd j are
// two chains (non-overlapping (lo, hi) pieces), kept in two accumulators by the parity of
// the word where the chain starts: Y even, X odd (stored one word down, so that every
// piece is an aligned register pair, which ptxas fuses into one wide multiply-add, as in
// mont_sqr32). Two chains start at each word s (rows s - 1 and s); the word s + h where
// their carries land is fresh before them, so it holds at most 2 (no carry out). Then
// z = Y + 2^32 X.
template <size_t h, class Isa>
CUZK_HD_INLINE void mul_words(Isa& isa, uint32_t* z, const uint32_t* x, const uint32_t* y) {
    static_assert(h % 2 == 0 && h >= 2, "pairs of words");
    uint32_t X[2 * h], Y[2 * h];  // X[k] is word k + 1
    CUZK_UNROLL
    for (size_t k = 0; k < 2 * h; ++k) X[k] = Y[k] = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < h; ++i) {
        CUZK_UNROLL
        for (size_t j0 = 0; j0 < 2; ++j0) {
            const size_t s = i + j0;  // first word of the chain
            uint32_t* A = (s % 2 == 0) ? Y : X;
            const size_t off = s % 2;  // X is one word down
            CUZK_UNROLL
            for (size_t j = j0; j < h; j += 2) {
                const size_t w = i + j - off;
                A[w] = (j == j0) ? isa.mad_lo_cc(x[j], y[i], A[w]) : isa.madc_lo_cc(x[j], y[i], A[w]);
                // The last chain's top piece ends the product: no carry out (x y < 2^(64h)).
                A[w + 1] = (j + 2 >= h && s + h - off >= 2 * h) ? isa.madc_hi(x[j], y[i], A[w + 1])
                                                                : isa.madc_hi_cc(x[j], y[i], A[w + 1]);
            }
            if (s + h - off < 2 * h) A[s + h - off] = isa.addc(A[s + h - off], 0);
        }
    }
    z[0] = Y[0];
    z[1] = isa.add_cc(Y[1], X[0]);
    CUZK_UNROLL
    for (size_t k = 2; k + 1 < 2 * h; ++k) z[k] = isa.addc_cc(Y[k], X[k - 1]);
    z[2 * h - 1] = isa.addc(Y[2 * h - 1], X[2 * h - 2]);
}

// T = a b (2n words) by one level of Karatsuba: z0 = a0 b0, z2 = a1 b1, z1 = (a0 + a1)
// (b0 + b1) - z0 - z2 over halves of h = n/2 words: 3 h^2 word products instead of 4 h^2
// (Fp: 108 instead of 144), for ~6n additions meant to issue beside the multiplies. Off by
// default: the extra live words made every kernel slower (CUZK_PTX_KARATSUBA has the
// figures). a0 + a1 has h words and a carry bit c:
// (a0 + a1)(b0 + b1) = sa sb + 2^(32h) (ca sb + cb sa) + 2^(32n) ca cb.
template <size_t n, class Isa>
CUZK_HD_INLINE void mul_karatsuba(Isa& isa, uint32_t* T, const uint32_t* a, const uint32_t* b) {
    constexpr size_t h = n / 2;
    static_assert(n % 4 == 0, "halves of whole word pairs");
    uint32_t z0[n], z1[n], z2[n], sa[h], sb[h];
    mul_words<h>(isa, z0, a, b);
    mul_words<h>(isa, z2, a + h, b + h);
    sa[0] = isa.add_cc(a[0], a[h]);
    CUZK_UNROLL
    for (size_t k = 1; k < h; ++k) sa[k] = isa.addc_cc(a[k], a[h + k]);
    const uint32_t ca = isa.addc(0, 0);
    sb[0] = isa.add_cc(b[0], b[h]);
    CUZK_UNROLL
    for (size_t k = 1; k < h; ++k) sb[k] = isa.addc_cc(b[k], b[h + k]);
    const uint32_t cb = isa.addc(0, 0);
    mul_words<h>(isa, z1, sa, sb);
    const uint32_t mask_a = 0u - ca, mask_b = 0u - cb;
    uint32_t top;
    z1[h] = isa.add_cc(z1[h], sb[0] & mask_a);
    CUZK_UNROLL
    for (size_t k = 1; k < h; ++k) z1[h + k] = isa.addc_cc(z1[h + k], sb[k] & mask_a);
    top = isa.addc(ca & cb, 0);
    z1[h] = isa.add_cc(z1[h], sa[0] & mask_b);
    CUZK_UNROLL
    for (size_t k = 1; k < h; ++k) z1[h + k] = isa.addc_cc(z1[h + k], sa[k] & mask_b);
    top = isa.addc(top, 0);
    // z1 = a0 b1 + a1 b0 >= 0: the subtractions end without a borrow.
    z1[0] = isa.sub_cc(z1[0], z0[0]);
    CUZK_UNROLL
    for (size_t k = 1; k < n; ++k) z1[k] = isa.subc_cc(z1[k], z0[k]);
    top = isa.subc(top, 0);
    z1[0] = isa.sub_cc(z1[0], z2[0]);
    CUZK_UNROLL
    for (size_t k = 1; k < n; ++k) z1[k] = isa.subc_cc(z1[k], z2[k]);
    top = isa.subc(top, 0);
    // T = z0 + 2^(32h) z1 + 2^(32n) z2 < 2^(64n): the last addition has no carry out.
    CUZK_UNROLL
    for (size_t k = 0; k < h; ++k) T[k] = z0[k];
    T[h] = isa.add_cc(z0[h], z1[0]);
    CUZK_UNROLL
    for (size_t k = h + 1; k < n; ++k) T[k] = isa.addc_cc(z0[k], z1[k - h]);
    CUZK_UNROLL
    for (size_t k = n; k < n + h; ++k) T[k] = isa.addc_cc(z2[k - n], z1[k - h]);
    T[n + h] = isa.addc_cc(z2[h], top);
    CUZK_UNROLL
    for (size_t k = n + h + 1; k + 1 < 2 * n; ++k) T[k] = isa.addc_cc(z2[k - n], 0);
    T[2 * n - 1] = isa.addc(z2[n - 1], 0);
}

// r = a b 2^(-32n) mod p: the Karatsuba product, then redc_wide.
template <size_t n, bool kSparseLow = false, class Isa>
CUZK_HD_INLINE void mont_mul32_kara(Isa& isa, uint32_t* r, const uint32_t* a, const uint32_t* b, const uint32_t* p,
                                    uint32_t inv) {
    uint32_t T[2 * n];
    mul_karatsuba<n>(isa, T, a, b);
    redc_wide<n, kSparseLow>(isa, r, T, p, inv);
}

// r = (a b - c d) 2^(-32n) mod p: both products by Karatsuba, summed (a b + c (p - d) <
// 2p^2 < p 2^(32n), so redc_wide applies), one reduction.
template <size_t n, class Isa>
CUZK_HD_INLINE void mont_mul_sub_mul32_kara(Isa& isa, uint32_t* r, const uint32_t* a, const uint32_t* b,
                                            const uint32_t* c, const uint32_t* d, const uint32_t* p, uint32_t inv) {
    uint32_t nd[n], T[2 * n], U[2 * n];
    p_minus<n>(isa, nd, p, d);
    mul_karatsuba<n>(isa, T, a, b);
    mul_karatsuba<n>(isa, U, c, nd);
    T[0] = isa.add_cc(T[0], U[0]);
    CUZK_UNROLL
    for (size_t k = 1; k + 1 < 2 * n; ++k) T[k] = isa.addc_cc(T[k], U[k]);
    T[2 * n - 1] = isa.addc(T[2 * n - 1], U[2 * n - 1]);
    redc_wide<n, false>(isa, r, T, p, inv);
}

// r = a + b mod p (a + b < 2p < 2^(32n) fits in n words).
template <size_t n, class Isa>
CUZK_HD_INLINE void mod_add32(Isa& isa, uint32_t* r, const uint32_t* a, const uint32_t* b, const uint32_t* p) {
    uint32_t t[n];
    t[0] = isa.add_cc(a[0], b[0]);
    CUZK_UNROLL
    for (size_t k = 1; k + 1 < n; ++k) t[k] = isa.addc_cc(a[k], b[k]);
    t[n - 1] = isa.addc(a[n - 1], b[n - 1]);
    final_sub<n>(isa, r, t, p);
}

// r = a - b mod p: subtract, then add p back masked by the borrow (the carry out of that
// addition is the wrap-around, discarded).
template <size_t n, class Isa>
CUZK_HD_INLINE void mod_sub32(Isa& isa, uint32_t* r, const uint32_t* a, const uint32_t* b, const uint32_t* p) {
    uint32_t t[n];
    t[0] = isa.sub_cc(a[0], b[0]);
    CUZK_UNROLL
    for (size_t k = 1; k < n; ++k) t[k] = isa.subc_cc(a[k], b[k]);
    const uint32_t mask = isa.subc(0, 0);  // all ones after a borrow
    r[0] = isa.add_cc(t[0], p[0] & mask);
    CUZK_UNROLL
    for (size_t k = 1; k < n; ++k) r[k] = isa.addc_cc(t[k], p[k] & mask);
}

// --- the same on N 64-bit limbs (the Field storage) ------------------------------------

template <size_t N>
CUZK_HD_INLINE void split(uint32_t* w, const uint64_t* x) {
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) {
        w[2 * i] = uint32_t(x[i]);
        w[2 * i + 1] = uint32_t(x[i] >> 32);
    }
}
template <size_t N>
CUZK_HD_INLINE void join(uint64_t* x, const uint32_t* w) {
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) x[i] = uint64_t(w[2 * i]) | (uint64_t(w[2 * i + 1]) << 32);
}

// The entry points on 64-bit limbs: split the operands into words, run the operation on
// them, join the result (no instruction on the device: the words are the limbs' halves).
enum class WordOp { kMul, kMulRot, kMulKara, kSqr, kAdd, kSub };
template <WordOp op, size_t N, bool kSparseLow, class Isa>
CUZK_HD_INLINE void on_words(Isa& isa, uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p,
                             uint32_t inv) {
    uint32_t a32[2 * N], b32[2 * N], p32[2 * N], r32[2 * N];
    split<N>(a32, a);
    split<N>(b32, b);
    split<N>(p32, p);
    if constexpr (op == WordOp::kMul) mont_mul32<2 * N, kSparseLow>(isa, r32, a32, b32, p32, inv);
    if constexpr (op == WordOp::kMulRot) mont_mul32_rot<2 * N, kSparseLow>(isa, r32, a32, b32, p32, inv);
    if constexpr (op == WordOp::kMulKara) mont_mul32_kara<2 * N, kSparseLow>(isa, r32, a32, b32, p32, inv);
    if constexpr (op == WordOp::kSqr) mont_sqr32<2 * N, kSparseLow>(isa, r32, a32, p32, inv);
    if constexpr (op == WordOp::kAdd) mod_add32<2 * N>(isa, r32, a32, b32, p32);
    if constexpr (op == WordOp::kSub) mod_sub32<2 * N>(isa, r32, a32, b32, p32);
    join<N>(r, r32);
}

// inv64 = -p^-1 mod 2^64 (Field::kInv); its low half is -p^-1 mod 2^32. kSparseLow: p's
// low words are 1 and 2^32 - 1 (SparseLowWords), the caller's promise.
template <size_t N, bool kSparseLow = false, class Isa>
CUZK_HD_INLINE void mont_mul(Isa& isa, uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p,
                             uint64_t inv64) {
    on_words<WordOp::kMul, N, kSparseLow>(isa, r, a, b, p, uint32_t(inv64));
}
template <size_t N, bool kSparseLow = false, class Isa>
CUZK_HD_INLINE void mont_mul_rot(Isa& isa, uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p,
                                 uint64_t inv64) {
    on_words<WordOp::kMulRot, N, kSparseLow>(isa, r, a, b, p, uint32_t(inv64));
}
template <size_t N, bool kSparseLow = false, class Isa>
CUZK_HD_INLINE void mont_mul_kara(Isa& isa, uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p,
                                  uint64_t inv64) {
    on_words<WordOp::kMulKara, N, kSparseLow>(isa, r, a, b, p, uint32_t(inv64));
}
template <size_t N, bool kSparseLow = false, class Isa>
CUZK_HD_INLINE void mont_sqr(Isa& isa, uint64_t* r, const uint64_t* a, const uint64_t* p, uint64_t inv64) {
    on_words<WordOp::kSqr, N, kSparseLow>(isa, r, a, a, p, uint32_t(inv64));
}
// a b - c d with one reduction (mont_mul_sub_mul32: p < 2^(64N - 2) only); kKara: the
// products by Karatsuba (mont_mul_sub_mul32_kara).
template <size_t N, bool kKara = false, class Isa>
CUZK_HD_INLINE void mont_mul_sub_mul(Isa& isa, uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* c,
                                     const uint64_t* d, const uint64_t* p, uint64_t inv64) {
    uint32_t a32[2 * N], b32[2 * N], c32[2 * N], d32[2 * N], p32[2 * N], r32[2 * N];
    split<N>(a32, a);
    split<N>(b32, b);
    split<N>(c32, c);
    split<N>(d32, d);
    split<N>(p32, p);
    if constexpr (kKara)
        mont_mul_sub_mul32_kara<2 * N>(isa, r32, a32, b32, c32, d32, p32, uint32_t(inv64));
    else
        mont_mul_sub_mul32<2 * N>(isa, r32, a32, b32, c32, d32, p32, uint32_t(inv64));
    join<N>(r, r32);
}
template <size_t N, class Isa>
CUZK_HD_INLINE void mod_add(Isa& isa, uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p) {
    on_words<WordOp::kAdd, N, false>(isa, r, a, b, p, 0);
}
template <size_t N, class Isa>
CUZK_HD_INLINE void mod_sub(Isa& isa, uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p) {
    on_words<WordOp::kSub, N, false>(isa, r, a, b, p, 0);
}

// --- the redundant form: values below 2p instead of p ---------------------------------
// For p < 2^(64N - 3) (Fp: 381 of 384 bits; Field::kRedundant). The multiplications skip
// their conditional subtraction: for a, b < 2p the Montgomery value (a b + M p) / R is
// below 4p^2 / R + p < 2p once 4p < R, and the steps' partial sums stay below
// 3p + 3 2^32 p as for mont_mul2_32_rot. a b - c d with one reduction takes 2p - d (d < 2p,
// so 2p - d <= 2p): (a b + c (2p - d) + M p) / R < 8p^2 / R + p < 2p once 8p < R, each
// step's partial sum below 5p + 5 2^32 p < 2^(32(n+1)). Sums and differences are mod_add /
// mod_sub with 2p as the modulus (a + b < 4p < R; a - b + 2p on a borrow). A value is zero
// mod p when it is 0 or p; canonical_r takes it below p. The emulated test (tests/gpu/
// test_ptx_emulated.cpp) records any carry that these bounds claim cannot happen.
template <size_t N, class Isa>
CUZK_HD_INLINE void mul_r(Isa& isa, uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p,
                          uint64_t inv64) {
    uint32_t a32[2 * N], b32[2 * N], p32[2 * N], r32[2 * N];
    split<N>(a32, a);
    split<N>(b32, b);
    split<N>(p32, p);
    mont_mul32_rot<2 * N, false, false>(isa, r32, a32, b32, p32, uint32_t(inv64));
    join<N>(r, r32);
}
template <size_t N, class Isa>
CUZK_HD_INLINE void sqr_r(Isa& isa, uint64_t* r, const uint64_t* a, const uint64_t* p, uint64_t inv64) {
    uint32_t a32[2 * N], p32[2 * N], r32[2 * N];
    split<N>(a32, a);
    split<N>(p32, p);
    mont_sqr32<2 * N, false, false>(isa, r32, a32, p32, uint32_t(inv64));
    join<N>(r, r32);
}
// a b + c d, one reduction (the same bound: below 8p^2 before it).
template <size_t N, class Isa>
CUZK_HD_INLINE void mul_add_mul_r(Isa& isa, uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* c,
                                  const uint64_t* d, const uint64_t* p, uint64_t inv64) {
    uint32_t a32[2 * N], b32[2 * N], c32[2 * N], d32[2 * N], p32[2 * N], r32[2 * N];
    split<N>(a32, a);
    split<N>(b32, b);
    split<N>(c32, c);
    split<N>(d32, d);
    split<N>(p32, p);
    mont_mul2_32_rot<2 * N, false>(isa, r32, a32, b32, c32, d32, p32, uint32_t(inv64));
    join<N>(r, r32);
}
// a b - c d as a b + c (2p - d); p2 = 2p.
template <size_t N, class Isa>
CUZK_HD_INLINE void mul_sub_mul_r(Isa& isa, uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* c,
                                  const uint64_t* d, const uint64_t* p, const uint64_t* p2, uint64_t inv64) {
    uint32_t d32[2 * N], p2_32[2 * N], nd32[2 * N];
    split<N>(d32, d);
    split<N>(p2_32, p2);
    p_minus<2 * N>(isa, nd32, p2_32, d32);
    uint64_t nd[N];
    join<N>(nd, nd32);
    mul_add_mul_r<N>(isa, r, a, b, c, nd, p, inv64);
}
template <size_t N, class Isa>
CUZK_HD_INLINE void canonical_r(Isa& isa, uint64_t* r, const uint64_t* a, const uint64_t* p) {
    uint32_t a32[2 * N], p32[2 * N], r32[2 * N];
    split<N>(a32, a);
    split<N>(p32, p);
    final_sub<2 * N>(isa, r32, a32, p32);
    join<N>(r, r32);
}

}  // namespace cuzk::ff_detail::ptx
