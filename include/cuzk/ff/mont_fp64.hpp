// Montgomery multiplication with its word products on the FP64 pipe: a drop-in for the
// device's 32-bit IMAD multiply (mont_ptx.hpp), same Montgomery form (R = 2^(64N)), same
// fully reduced output, so that a kernel could send some of its products here and the
// rest to the IMAD pipe.
//
// Measured and NOT used (H200, bench/gpu_field.cu, four chains a thread, G
// products/s): Fp IMAD (Field's operator*) 27.3, this 18.8, two chains of each 19.8,
// three IMAD + one FP64 24.7; Fr 60.3 / 49.8 / 57.0 / 57.8. Full 256-bit products without
// reduction: IMAD 113.1, FP64 114.6, two of each 121.1. The hope was that DFMA (64 lanes a
// clock a SM on paper) and IMAD.WIDE (~4 cycles a warp instruction a scheduler, measured)
// run side by side; on this part the FP64 multiply also issues only every ~4 cycles (Fp
// here: 256 DFMA + 148 DADD + 320 IADD3 a product, 1780 cycles a warp product a
// scheduler), a 52-bit product takes three FP64 instructions against one IMAD.WIDE for a
// 32-bit one, and the two pipes barely add up. Kept, tested, for the next GPU generation
// and as the record of why the IMAD floor stands.
//
// Operands are split into limbs of 52 bits held exactly as doubles (8 for Fp, 5 for Fr).
// A limb product a b < 2^104 splits exactly in two FMAs rounding toward zero (Emmart,
// Zheng, Weems, "Faster modular exponentiation using double precision floating point
// arithmetic on the GPU", ARITH 2018): hi = fma_rz(a, b, 2^104) = 2^104 + H 2^52 with
// H = floor(a b / 2^52), then lo = fma_rz(a, b, 2^104 + 2^52 - hi) = 2^52 + L with
// L = a b mod 2^52. The bit patterns of hi and lo are those of the constants plus H and
// L, so the columns are summed as 64-bit integers and the constants' patterns (multiples
// of 2^52, so the low 52 bits of a column are never touched) are taken off once, at the
// column's start. Reduction (separated, SOS): rows of 52 bits, the last one of the
// remaining 64N mod 52 bits (20 for Fp, 48 for Fr), so that R stays 2^(64N).
// On the host the products are exact integer products (the tests check the FMA split
// separately, and the device against Field's multiply).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cuzk/common/hd.hpp"

namespace cuzk::ff_detail::fp64 {

constexpr uint64_t kMask52 = (uint64_t(1) << 52) - 1;
constexpr uint64_t kBits2p52 = 0x4330000000000000ull;   // the double 2^52
constexpr uint64_t kBits2p104 = 0x4670000000000000ull;  // the double 2^104

template <size_t N>
struct Layout {
    static constexpr int kLimbs = int((64 * N + 51) / 52);          // 8 (Fp), 5 (Fr)
    static constexpr int kFullRows = int(64 * N / 52);              // 7, 4
    static constexpr int kLastBits = int(64 * N) - 52 * kFullRows;  // 20, 48
    static constexpr int kRows = kFullRows + 1;
    static constexpr int kCols = 2 * kLimbs;  // the last row's top hi lands in column kRows + kLimbs - 1
    static_assert(kLastBits > 0 && kRows + kLimbs <= kCols, "layout");
};

// The limbs of p as doubles (exact: each below 2^52).
template <size_t N>
struct Limbs {
    double d[Layout<N>::kLimbs];
};

// Bits [pos, pos + len) of an integer held in `count` words of `width` bits (len <= 64,
// pos and len constants once unrolled).
template <int kWidth, int kCount>
CUZK_HD_INLINE constexpr uint64_t bits_at(const uint64_t* w, int pos, int len) {
    const int wi = pos / kWidth, sh = pos % kWidth;
    uint64_t v = wi < kCount ? w[wi] >> sh : 0;
    if (wi + 1 < kCount && kWidth - sh < 64) v |= w[wi + 1] << (kWidth - sh);
    if (wi + 2 < kCount && 2 * kWidth - sh < 64) v |= w[wi + 2] << (2 * kWidth - sh);
    return len == 64 ? v : v & ((uint64_t(1) << len) - 1);
}

template <size_t N>
constexpr Limbs<N> split_modulus(const uint64_t* p) {
    Limbs<N> r{};
    for (int k = 0; k < Layout<N>::kLimbs; ++k) r.d[k] = double(bits_at<64, int(N)>(p, 52 * k, 52));
    return r;
}

// A column's starting value: minus the constant parts of every hi and lo that will land in
// it (mod 2^64; the true sum, below 2^58, never wraps).
template <size_t N>
constexpr uint64_t column_start(int k) {
    using Lay = Layout<N>;
    uint64_t n_lo = 0, n_hi = 0;
    for (int j = 0; j < Lay::kLimbs; ++j) {
        for (int i = 0; i < Lay::kLimbs; ++i) {  // a_i b_j
            n_lo += i + j == k;
            n_hi += i + j + 1 == k;
        }
        for (int t = 0; t < Lay::kRows; ++t) {  // m_t p_j
            n_lo += t + j == k;
            n_hi += t + j + 1 == k;
        }
    }
    return uint64_t(0) - (n_lo * kBits2p52 + n_hi * kBits2p104);
}

CUZK_HD_INLINE double as_double(uint64_t bits) {
#if CUZK_IN_DEVICE
    return __longlong_as_double(static_cast<long long>(bits));
#else
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
#endif
}
CUZK_HD_INLINE uint64_t as_bits(double d) {
#if CUZK_IN_DEVICE
    return static_cast<uint64_t>(__double_as_longlong(d));
#else
    uint64_t b;
    std::memcpy(&b, &d, sizeof b);
    return b;
#endif
}
// w < 2^52 as an exact double: (2^52 + w) - 2^52.
CUZK_HD_INLINE double limb_to_double(uint64_t w) { return as_double(kBits2p52 | w) - 0x1p52; }

// hi = bits(2^104) + floor(a b / 2^52), lo = bits(2^52) + (a b mod 2^52), for a, b
// integers below 2^52 held as doubles.
CUZK_HD_INLINE void product(double a, double b, uint64_t& hi, uint64_t& lo) {
#if CUZK_IN_DEVICE
    const double h = __fma_rz(a, b, 0x1p104);
    hi = as_bits(h);
    lo = as_bits(__fma_rz(a, b, (0x1p104 + 0x1p52) - h));
#else
    const unsigned __int128 ab = static_cast<unsigned __int128>(uint64_t(a)) * uint64_t(b);
    hi = kBits2p104 + uint64_t(ab >> 52);
    lo = kBits2p52 + (uint64_t(ab) & kMask52);
#endif
}

// r = a b R^-1 mod p, fully reduced, for a, b < p (N words each, R = 2^(64N)); inv is
// -p^-1 mod 2^64 (its low bits are -p^-1 mod 2^52 and mod 2^kLastBits). p has a spare
// top bit (p < 2^(64N-1)), as Field requires.
template <size_t N>
CUZK_HD_INLINE void mont_mul(uint64_t* r, const uint64_t* a, const uint64_t* b, const Limbs<N>& p52, const uint64_t* p,
                             uint64_t inv) {
    using Lay = Layout<N>;
    constexpr int L = Lay::kLimbs;
    double A[L], B[L];
    CUZK_UNROLL
    for (int k = 0; k < L; ++k) {
        A[k] = limb_to_double(bits_at<64, int(N)>(a, 52 * k, 52));
        B[k] = limb_to_double(bits_at<64, int(N)>(b, 52 * k, 52));
    }
    uint64_t c[Lay::kCols];
    CUZK_UNROLL
    for (int k = 0; k < Lay::kCols; ++k) c[k] = column_start<N>(k);
    uint64_t hi, lo;
    CUZK_UNROLL
    for (int i = 0; i < L; ++i) {
        CUZK_UNROLL
        for (int j = 0; j < L; ++j) {
            product(A[i], B[j], hi, lo);
            c[i + j] += lo;
            c[i + j + 1] += hi;
        }
    }
    // Row t clears the low bits of column t: m = c_t (-p^-1) mod 2^bits, c += m p 2^(52t).
    // Column t is complete once row t has added its lo, and its true value (offsets
    // cancelled) carries into column t + 1.
    CUZK_UNROLL
    for (int t = 0; t < Lay::kRows; ++t) {
        if (t > 0) c[t] += c[t - 1] >> 52;
        const uint64_t mask = t < Lay::kFullRows ? kMask52 : (uint64_t(1) << Lay::kLastBits) - 1;
        const double m = limb_to_double((c[t] * inv) & mask);
        CUZK_UNROLL
        for (int j = 0; j < L; ++j) {
            product(m, p52.d[j], hi, lo);
            c[t + j] += lo;
            c[t + j + 1] += hi;
        }
    }
    // The result (ab + M p) / 2^(64N) < 2p: bits from kLastBits of column kFullRows on.
    constexpr int kOut = Lay::kCols - Lay::kFullRows;
    uint64_t n[kOut];
    uint64_t carry = 0;
    CUZK_UNROLL
    for (int k = 0; k < kOut; ++k) {
        const uint64_t v = c[Lay::kFullRows + k] + carry;
        n[k] = v & kMask52;
        carry = v >> 52;
    }
    uint64_t t[N], s[N];
    CUZK_UNROLL
    for (int w = 0; w < int(N); ++w) t[w] = bits_at<52, kOut>(n, Lay::kLastBits + 64 * w, 64);
    // s = t - p; keep t where that borrows.
    uint64_t borrow = 0;
    CUZK_UNROLL
    for (int w = 0; w < int(N); ++w) {
        const uint64_t d = t[w] - p[w];
        const uint64_t b1 = t[w] < p[w];
        s[w] = d - borrow;
        borrow = b1 | (d < borrow);
    }
    CUZK_UNROLL
    for (int w = 0; w < int(N); ++w) r[w] = borrow ? t[w] : s[w];
}

}  // namespace cuzk::ff_detail::fp64
