// The quotient of Shoup's product (shoup_ptx.hpp, shoup_quotient32) on the GPU's FP64 pipe
// instead of its integer multiply-add (IMAD) pipe.
//
// Why: in the NTT's register passes every instruction waits on the IMAD pipe (ncu: 78% busy
// against 46% of the issue slots; a wide IMAD holds it 4 cycles a warp), and the quotient
// is 36 of a twiddle product's 86 wide IMADs plus 7 IMAD.HI. Hopper's FP64 pipe is separate
// and otherwise idle, and a 52 x 52-bit product there is 2 DFMAs (2 cycles each a warp,
// 64 FP64 lanes a SM): 2.6 times the bits a cycle of a 32 x 32-bit wide IMAD.
//
// Exact integer products in doubles (after N. Emmart, F. Zheng, C. Weems, "Faster modular
// exponentiation using double precision floating point arithmetic on the GPU", ARITH 2018):
// for integers a, b < 2^52 (exact doubles),
//   H = fma_rz(a, b, 2^104) = 2^104 + k 2^52 with k = floor(a b / 2^52), since a b + 2^104 lies
//       in [2^104, 2^105) where doubles are 2^52 apart and rounding toward zero floors;
//       H's mantissa field is k;
//   S = H - (2^104 + 2^52) = (k - 1) 2^52, exact (both terms and the result are doubles);
//   L = fma(a, b, -S) = 2^52 + (a b mod 2^52), exact in any rounding (it lies in [2^52, 2^53),
//       where doubles are 1 apart); L's mantissa field is a b mod 2^52.
// The mantissas are summed as the doubles' bit patterns, in 64-bit integers: every H has
// the exponent field of 2^104 and every L that of 2^52, so a column's sum less its known
// count of exponents (mod 2^64) is the exact sum of its mantissas.
//
// The quotient: x and wq as five 52-bit limbs each (x_4, wq_4 < 2^48), the products x_i wq_j
// at 2^(52(i+j)). q = floor(S / 2^256) for S = the products with i + j >= 4 and the high
// halves k of those with i + j = 3 (15 full products and 4 high halves: 49 FP64
// operations, and 10 more to make the limbs doubles). What is left out is below
// 3 2^208 + 4 2^208 < 2^211, i.e. 2^-45 in units of 2^256, well inside shoup_ptx.hpp's
// bound (q is q* or q* - 1, the latter only when x wq / 2^256 is within 2^-45 above an
// integer; t < 2p either way).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/common/hd.hpp"

namespace cuzk::ff_detail::ptx {

// The limbs of 256-bit values in 52-bit pieces, and the doubles' constants.
struct Fp64Limbs {
    static constexpr size_t kLimbs = 5;  // 5 x 52 = 260 >= 256
    static constexpr unsigned kBits = 52;
    static constexpr uint64_t kMask = (uint64_t(1) << kBits) - 1;
    static constexpr uint64_t kExp52 = 0x4330000000000000ull;   // bits of 2^52
    static constexpr uint64_t kExp104 = 0x4670000000000000ull;  // bits of 2^104
    static constexpr double k2p52 = 4503599627370496.0;
    static constexpr double k2p104 = 20282409603651670423947251286016.0;
    static constexpr double k2p104p52 = 20282409603651674927546878656512.0;  // 2^104 + 2^52
    // The first column of the quotient's full products, the high halves' column below it.
    static constexpr size_t kFullFrom = 4;
};
static_assert(Fp64Limbs::k2p104p52 - Fp64Limbs::k2p104 == Fp64Limbs::k2p52, "2^104 + 2^52 is a double");

// d[l] = the 52-bit limb l of the 256-bit value x (8 words), as a double: the limb's bits
// under the exponent of 2^52 make the double 2^52 + limb, less 2^52 (exact).
template <class Isa>
CUZK_HD_INLINE void fp64_limbs(Isa& isa, double* d, const uint32_t* x) {
    using L = Fp64Limbs;
    uint64_t x64[4];
    CUZK_UNROLL
    for (size_t k = 0; k < 4; ++k) x64[k] = uint64_t(x[2 * k]) | (uint64_t(x[2 * k + 1]) << 32);
    CUZK_UNROLL
    for (size_t l = 0; l < L::kLimbs; ++l) {
        const size_t s = L::kBits * l, k = s / 64, o = s % 64;
        uint64_t v = x64[k] >> o;
        if (o + L::kBits > 64 && k + 1 < 4) v |= x64[k + 1] << (64 - o);
        d[l] = isa.add_rn(isa.from_bits((v & L::kMask) | L::kExp52), -L::k2p52);
    }
}

// The count of exponent fields in column c of the bit-pattern sums (mod 2^64): the low
// halves of the products with i + j = c >= kFullFrom and the high halves of those with
// i + j = c - 1 >= kFullFrom - 1.
constexpr uint64_t fp64_column_exponents(size_t c) {
    using L = Fp64Limbs;
    uint64_t e = 0;
    for (size_t i = 0; i < L::kLimbs; ++i)
        for (size_t j = 0; j < L::kLimbs; ++j) {
            if (i + j == c && c >= L::kFullFrom) e += L::kExp52;
            if (i + j + 1 == c && i + j + 1 >= L::kFullFrom) e += L::kExp104;
        }
    return e;
}

// q = floor(S / 2^256) (8 words), S as above: q* or q* - 1 for q* = floor(x wq / 2^256);
// x, wq < 2^256.
template <class Isa>
CUZK_HD_INLINE void shoup_quotient_fp64(Isa& isa, uint32_t* q, const uint32_t* x, const uint32_t* wq) {
    using L = Fp64Limbs;
    constexpr size_t kCols = 2 * L::kLimbs;  // columns 0..9; 4..9 are kept
    double a[L::kLimbs], b[L::kLimbs];
    fp64_limbs(isa, a, x);
    fp64_limbs(isa, b, wq);
    uint64_t m[kCols];  // column sums of the bit patterns, then of the mantissas
    CUZK_UNROLL
    for (size_t c = L::kFullFrom; c < kCols; ++c) m[c] = uint64_t(0) - fp64_column_exponents(c);
    CUZK_UNROLL
    for (size_t i = 0; i < L::kLimbs; ++i) {
        CUZK_UNROLL
        for (size_t j = 0; j < L::kLimbs; ++j) {
            if (i + j + 1 < L::kFullFrom) continue;
            const double h = isa.fma_rz(a[i], b[j], L::k2p104);
            m[i + j + 1] += isa.bits(h);
            if (i + j < L::kFullFrom) continue;
            const double s = isa.add_rn(h, -L::k2p104p52);
            m[i + j] += isa.bits(isa.fma_rn(a[i], b[j], -s));
        }
    }
    // Each m[c] < 9 2^52 < 2^56: carry its bits from 52 on into the next column.
    CUZK_UNROLL
    for (size_t c = L::kFullFrom; c + 1 < kCols; ++c) {
        m[c + 1] += m[c] >> L::kBits;
        m[c] &= L::kMask;
    }
    // S / 2^208 = sum_k m[4 + k] 2^(52 k) (the last limb unbounded, below 2^44 as q <
    // 2^256); q = its bits from 256 - 208 = 48 on, in four 64-bit pieces.
    constexpr size_t kShift = 256 - L::kBits * L::kFullFrom;
    CUZK_UNROLL
    for (size_t t = 0; t < 4; ++t) {
        const size_t s = kShift + 64 * t;  // the piece's bits [s, s + 64)
        uint64_t v = 0;
        CUZK_UNROLL
        for (size_t k = 0; k + L::kFullFrom < kCols; ++k) {
            const size_t lo = L::kBits * k;
            const bool last = k + L::kFullFrom + 1 == kCols;
            if (lo >= s + 64 || (!last && lo + L::kBits <= s)) continue;
            v |= lo >= s ? m[k + L::kFullFrom] << (lo - s) : m[k + L::kFullFrom] >> (s - lo);
        }
        q[2 * t] = uint32_t(v);
        q[2 * t + 1] = uint32_t(v >> 32);
    }
}

}  // namespace cuzk::ff_detail::ptx
