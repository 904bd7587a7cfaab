// Portable Montgomery multiplication (CIOS) over N 64-bit limbs with 128-bit products.
// Used on every target (host and device) and as the reference for the x86-64 ADX path.
//
// Requires the top limb of p to be below 2^63 - 1 (one spare bit), which lets the
// carry word of CIOS be dropped ("no-carry" CIOS: gnark-crypto, "Faster Montgomery
// multiplication", 2020; BLS12-381 Fp has 3 spare bits and Fr 1). Inputs and output
// are fully reduced, in [0, p).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/common/hd.hpp"
#include "cuzk/ff/bigint.hpp"

#if defined(__x86_64__) && !defined(__CUDA_ARCH__) && !defined(CUZK_FF_FORCE_PORTABLE)
#include <immintrin.h>
#define CUZK_FF_X86_CARRY 1
#else
#define CUZK_FF_X86_CARRY 0
#endif

namespace cuzk::ff_detail {

// r = a*b*R^-1 mod p.
template <size_t N>
CUZK_HD_INLINE void mont_mul_portable(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p,
                                      uint64_t inv) {
    uint64_t t[N];
    for (size_t j = 0; j < N; ++j) t[j] = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) {
        // t += a * b[i]
        uint64_t c = 0;
        CUZK_UNROLL
        for (size_t j = 0; j < N; ++j) {
            u128 x = u128(a[j]) * b[i] + t[j] + c;
            t[j] = uint64_t(x);
            c = uint64_t(x >> 64);
        }
        const uint64_t hi = c;
        // t = (t + m*p) / 2^64 with m chosen to clear the low limb.
        const uint64_t m = t[0] * inv;
        u128 x = u128(m) * p[0] + t[0];
        c = uint64_t(x >> 64);
        CUZK_UNROLL
        for (size_t j = 1; j < N; ++j) {
            x = u128(m) * p[j] + t[j] + c;
            t[j - 1] = uint64_t(x);
            c = uint64_t(x >> 64);
        }
        t[N - 1] = c + hi;  // cannot overflow thanks to the spare top bit of p
    }
    // t < 2p: one conditional subtraction.
    uint64_t s[N];
    uint64_t borrow = 0;
    CUZK_UNROLL
    for (size_t j = 0; j < N; ++j) {
        u128 x = u128(t[j]) - p[j] - borrow;
        s[j] = uint64_t(x);
        borrow = uint64_t(x >> 64) & 1;
    }
    CUZK_UNROLL
    for (size_t j = 0; j < N; ++j) r[j] = borrow ? t[j] : s[j];
}

// r = a + b mod p for a, b < p (p with a spare top bit, so a + b fits in N limbs).
// On x86-64 hosts the carry chains use ADC/SBB through _addcarry_u64/_subborrow_u64 and a
// mask select: 2x faster than the 128-bit version, whose select GCC turns into branches
// (measured on the dev machine: Fp add 30-43 -> 23 cycles).
template <size_t N>
CUZK_HD_INLINE void mod_add(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p) {
#if CUZK_FF_X86_CARRY
    unsigned long long t[N], s[N];
    unsigned char c = 0;
    CUZK_UNROLL
    for (size_t j = 0; j < N; ++j) c = _addcarry_u64(c, a[j], b[j], &t[j]);
    unsigned char br = 0;
    CUZK_UNROLL
    for (size_t j = 0; j < N; ++j) br = _subborrow_u64(br, t[j], p[j], &s[j]);
    const uint64_t keep = uint64_t(0) - uint64_t(br);  // all ones when t < p
    CUZK_UNROLL
    for (size_t j = 0; j < N; ++j) r[j] = (t[j] & keep) | (s[j] & ~keep);
    (void)c;
#else
    uint64_t t[N], s[N];
    uint64_t c = 0;
    CUZK_UNROLL
    for (size_t j = 0; j < N; ++j) {
        u128 x = u128(a[j]) + b[j] + c;
        t[j] = uint64_t(x);
        c = uint64_t(x >> 64);
    }
    uint64_t borrow = 0;
    CUZK_UNROLL
    for (size_t j = 0; j < N; ++j) {
        u128 x = u128(t[j]) - p[j] - borrow;
        s[j] = uint64_t(x);
        borrow = uint64_t(x >> 64) & 1;
    }
    CUZK_UNROLL
    for (size_t j = 0; j < N; ++j) r[j] = borrow ? t[j] : s[j];
#endif
}

// r = a - b mod p for a, b < p.
template <size_t N>
CUZK_HD_INLINE void mod_sub(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p) {
#if CUZK_FF_X86_CARRY
    unsigned long long t[N];
    unsigned char br = 0;
    CUZK_UNROLL
    for (size_t j = 0; j < N; ++j) br = _subborrow_u64(br, a[j], b[j], &t[j]);
    const uint64_t mask = uint64_t(0) - uint64_t(br);  // add p back after a borrow
    unsigned char c = 0;
    unsigned long long o[N];
    CUZK_UNROLL
    for (size_t j = 0; j < N; ++j) c = _addcarry_u64(c, t[j], p[j] & mask, &o[j]);
    CUZK_UNROLL
    for (size_t j = 0; j < N; ++j) r[j] = o[j];
    (void)c;
#else
    uint64_t t[N];
    uint64_t borrow = 0;
    CUZK_UNROLL
    for (size_t j = 0; j < N; ++j) {
        u128 x = u128(a[j]) - b[j] - borrow;
        t[j] = uint64_t(x);
        borrow = uint64_t(x >> 64) & 1;
    }
    // Add p back when the subtraction borrowed; mask instead of branching.
    const uint64_t mask = uint64_t(0) - borrow;
    uint64_t c = 0;
    CUZK_UNROLL
    for (size_t j = 0; j < N; ++j) {
        u128 x = u128(t[j]) + (p[j] & mask) + c;
        r[j] = uint64_t(x);
        c = uint64_t(x >> 64);
    }
#endif
}

// w[0..2N) = a * b for any N-limb a, b (operand scanning). With redc_portable below, the
// two halves of a Montgomery multiplication that the towers use for lazy reduction.
template <size_t N>
CUZK_HD_INLINE void mul_wide_portable(uint64_t* w, const uint64_t* a, const uint64_t* b) {
    CUZK_UNROLL
    for (size_t j = 0; j < 2 * N; ++j) w[j] = 0;
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) {
        uint64_t c = 0;
        CUZK_UNROLL
        for (size_t j = 0; j < N; ++j) {
            u128 x = u128(a[j]) * b[i] + w[i + j] + c;
            w[i + j] = uint64_t(x);
            c = uint64_t(x >> 64);
        }
        w[i + N] = c;
    }
}

// r = w * R^-1 mod p in [0, p) for w < p * R, R = 2^(64N). Reduces the low half into
// u = (w_low + m p) / R <= p, then t = u + w_high < 2p (w_high < p), one subtraction.
template <size_t N>
CUZK_HD_INLINE void redc_portable(uint64_t* r, const uint64_t* w, const uint64_t* p, uint64_t inv) {
    uint64_t t[N];
    CUZK_UNROLL
    for (size_t j = 0; j < N; ++j) t[j] = w[j];
    CUZK_UNROLL
    for (size_t i = 0; i < N; ++i) {
        const uint64_t m = t[0] * inv;
        u128 x = u128(m) * p[0] + t[0];
        uint64_t c = uint64_t(x >> 64);
        CUZK_UNROLL
        for (size_t j = 1; j < N; ++j) {
            x = u128(m) * p[j] + t[j] + c;
            t[j - 1] = uint64_t(x);
            c = uint64_t(x >> 64);
        }
        t[N - 1] = c;
    }
    uint64_t c = 0;
    CUZK_UNROLL
    for (size_t j = 0; j < N; ++j) {
        u128 x = u128(t[j]) + w[N + j] + c;
        t[j] = uint64_t(x);
        c = uint64_t(x >> 64);
    }
    uint64_t s[N];
    uint64_t borrow = 0;
    CUZK_UNROLL
    for (size_t j = 0; j < N; ++j) {
        u128 x = u128(t[j]) - p[j] - borrow;
        s[j] = uint64_t(x);
        borrow = uint64_t(x >> 64) & 1;
    }
    CUZK_UNROLL
    for (size_t j = 0; j < N; ++j) r[j] = borrow ? t[j] : s[j];
}

// r = a + b over M limbs, no reduction; returns the carry out.
template <size_t M>
CUZK_HD_INLINE uint64_t add_limbs(uint64_t* r, const uint64_t* a, const uint64_t* b) {
    uint64_t c = 0;
#if CUZK_FF_X86_CARRY
    unsigned char cf = 0;
    CUZK_UNROLL
    for (size_t j = 0; j < M; ++j) {
        unsigned long long o;
        cf = _addcarry_u64(cf, a[j], b[j], &o);
        r[j] = o;
    }
    c = cf;
#else
    CUZK_UNROLL
    for (size_t j = 0; j < M; ++j) {
        u128 x = u128(a[j]) + b[j] + c;
        r[j] = uint64_t(x);
        c = uint64_t(x >> 64);
    }
#endif
    return c;
}

// r = a - b over M limbs, no reduction; returns the borrow out.
template <size_t M>
CUZK_HD_INLINE uint64_t sub_limbs(uint64_t* r, const uint64_t* a, const uint64_t* b) {
    uint64_t borrow = 0;
#if CUZK_FF_X86_CARRY
    unsigned char bf = 0;
    CUZK_UNROLL
    for (size_t j = 0; j < M; ++j) {
        unsigned long long o;
        bf = _subborrow_u64(bf, a[j], b[j], &o);
        r[j] = o;
    }
    borrow = bf;
#else
    CUZK_UNROLL
    for (size_t j = 0; j < M; ++j) {
        u128 x = u128(a[j]) - b[j] - borrow;
        r[j] = uint64_t(x);
        borrow = uint64_t(x >> 64) & 1;
    }
#endif
    return borrow;
}

}  // namespace cuzk::ff_detail
