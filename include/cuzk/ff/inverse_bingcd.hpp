// Modular inversion by Pornin's optimised binary GCD (T. Pornin, "Optimized Binary GCD
// for Modular Inversion", IACR ePrint 2020/972, Algorithm 2), variable-time variant:
// host only, for values that are not secret (every input of a Groth16 prover is public
// or blinded). Field::inverse() uses it on the host; inverse_fermat() stays for the
// device and as the test reference.
//
// Binary extended GCD keeps a = u*Y*c and b = v*Y*c (mod p) for the input Y and a known
// factor c; at the end a = 0, b = gcd = 1, so v = 1/(Y*c). The trick is to run 31 steps
// at a time on 64-bit approximations of a and b (low 31 bits and the top 33 bits of the
// longer one), recording the steps as a 2x2 matrix of small signed factors, and only
// then apply the matrix to the full-width a, b (exactly, then >> 31) and to u, v
// (mod p). Those 31 cheap word steps replace 31 multi-limb steps.
//
// u, v are updated as (f*u + g*v) / 2^64 mod p (one Montgomery word reduction), so each
// outer step multiplies c by 2^64/2^31 = 2^33; after k outer steps v = 1/(Y*2^33k) and
// the answer (x^-1 in Montgomery form, for Y = x*R) is v*R^2*2^33k = montmul(v, 2^(3*64N
// + 33k) mod p), read from a compile-time table.
//
// Cost per outer step: 31 branch-free word steps + 4 (N+1)-limb linear combinations and
// 2 word reductions; ceil(2*bits/31) ~ 25 outer steps for Fp (17 for Fr), against ~570
// Montgomery multiplications for Fermat.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "cuzk/ff/bigint.hpp"

namespace cuzk::ff_detail {

struct BinGcdMatrix {
    int64_t f0, g0, f1, g1;
};

// 31 binary-GCD steps on approximations xa, xb (Pornin, Algorithm 2, inner loop): each
// step does "if xa is odd: make xa >= xb by a swap, xa -= xb", then xa /= 2. The matrix
// records a' * 2^31 = f0*a + g0*b, b' * 2^31 = f1*a + g1*b. Variable-time form: a run
// of halvings is one shift by the trailing-zero count (a subtraction leaves at least
// one zero, about two on average, so ~16 rounds instead of 31), and the swap uses
// masks because its branch would be mispredicted half of the time. Measured on the dev
// VM: 86 ns per call for the one-step-per-round version.
inline BinGcdMatrix bingcd_inner(uint64_t xa, uint64_t xb) {
    int64_t f0 = 1, g0 = 0, f1 = 0, g1 = 1;
    int left = 31;  // steps still to do
    for (;;) {
        // Halvings: xa even, shift it; b's factors double instead (a is not divided by 2
        // until the matrix is applied). xa = 0 only halves from here on.
        int s = xa ? __builtin_ctzll(xa) : left;
        if (s > left) s = left;
        xa >>= s;
        f1 = int64_t(uint64_t(f1) << s);
        g1 = int64_t(uint64_t(g1) << s);
        left -= s;
        if (left == 0) break;
        // xa is odd: swap so that xa >= xb, then subtract (the halving that completes
        // this step is the shift at the top of the next round; xb is always odd).
        const uint64_t swap = uint64_t(0) - uint64_t(xa < xb);
        const uint64_t t = (xa ^ xb) & swap;
        xa ^= t;
        xb ^= t;
        const int64_t tf = (f0 ^ f1) & int64_t(swap);
        f0 ^= tf;
        f1 ^= tf;
        const int64_t tg = (g0 ^ g1) & int64_t(swap);
        g0 ^= tg;
        g1 ^= tg;
        xa -= xb;
        f0 -= f1;
        g0 -= g1;
    }
    return {f0, g0, f1, g1};
}

// out = f*a + g*b as an (N+1)-limb two's complement number, |f|, |g| <= 2^31. Computed
// as (|f|*a ^ sf) + (|g|*b ^ sg) + [f<0] + [g<0] with sf, sg the sign masks (-x = ~x + 1),
// so every product is one unsigned 64x64->128 multiply.
template <size_t N>
inline void bingcd_lincomb(uint64_t* out, const uint64_t* a, int64_t f, const uint64_t* b, int64_t g) {
    const uint64_t sf = uint64_t(f >> 63), sg = uint64_t(g >> 63);
    const uint64_t af = (uint64_t(f) ^ sf) - sf, ag = (uint64_t(g) ^ sg) - sg;
    uint64_t cf = 0, cg = 0;  // carries of the two products
    u128 acc = (sf & 1) + (sg & 1);
    for (size_t j = 0; j < N; ++j) {
        const u128 pf = u128(af) * a[j] + cf;
        const u128 pg = u128(ag) * b[j] + cg;
        cf = uint64_t(pf >> 64);
        cg = uint64_t(pg >> 64);
        acc += u128(uint64_t(pf) ^ sf) + (uint64_t(pg) ^ sg);
        out[j] = uint64_t(acc);
        acc >>= 64;
    }
    out[N] = uint64_t(acc) + (cf ^ sf) + (cg ^ sg);
}

// x = -x for an (N+1)-limb two's complement number.
template <size_t N>
inline void bingcd_negate(uint64_t* x) {
    uint64_t c = 1;
    for (size_t j = 0; j <= N; ++j) {
        u128 s = u128(~x[j]) + c;
        x[j] = uint64_t(s);
        c = uint64_t(s >> 64);
    }
}

// a = (f0*a + g0*b) >> 31 and b = (f1*a + g1*b) >> 31, made non-negative by negating the
// row of the matrix whose result came out negative (Pornin, section 3).
template <size_t N>
inline void bingcd_update_ab(BigInt<N>& a, BigInt<N>& b, BinGcdMatrix& m) {
    uint64_t na[N + 1], nb[N + 1];
    bingcd_lincomb<N>(na, a.l, m.f0, b.l, m.g0);
    bingcd_lincomb<N>(nb, a.l, m.f1, b.l, m.g1);
    if (int64_t(na[N]) < 0) {
        bingcd_negate<N>(na);
        m.f0 = -m.f0;
        m.g0 = -m.g0;
    }
    if (int64_t(nb[N]) < 0) {
        bingcd_negate<N>(nb);
        m.f1 = -m.f1;
        m.g1 = -m.g1;
    }
    for (size_t j = 0; j < N; ++j) {
        a.l[j] = (na[j] >> 31) | (na[j + 1] << 33);
        b.l[j] = (nb[j] >> 31) | (nb[j + 1] << 33);
    }
}

// r = (f*u + g*v) / 2^64 mod p for u, v in [0, p): one Montgomery word reduction of the
// signed combination, then at most one correction by p either way. |f*u + g*v| < 2^32 p,
// so the quotient lies in (-p, 2p), which N limbs hold when p < 2^(64N-1) (Field checks).
template <size_t N>
inline void bingcd_update_uv(BigInt<N>& r, const BigInt<N>& u, int64_t f, const BigInt<N>& v, int64_t g,
                             const BigInt<N>& p, uint64_t inv) {
    uint64_t w[N + 1];
    bingcd_lincomb<N>(w, u.l, f, v.l, g);
    const uint64_t m = w[0] * inv;  // w + m*p = 0 mod 2^64
    uint64_t s[N + 1];
    // w + m*p limb by limb: the low N limbs unsigned, then w's signed top limb.
    u128 c = 0;
    for (size_t j = 0; j < N; ++j) {
        u128 x = u128(m) * p.l[j] + w[j] + c;
        s[j] = uint64_t(x);
        c = x >> 64;
    }
    // Top limb: w[N] is signed, the carry c unsigned (< 2^64); their sum fits 65 bits and
    // its sign is the sign of w + m*p.
    const __int128 carry = __int128(int64_t(w[N])) + __int128(c);
    s[N] = uint64_t(carry);
    const bool neg = carry < 0;
    // (w + m*p) / 2^64 = s[1..N] (s[0] is zero), sign in `neg`.
    BigInt<N> q;
    for (size_t j = 0; j < N; ++j) q.l[j] = s[j + 1];
    if (neg) {
        BigInt<N>::add(q, q, p);  // q in (-p, 0): wraps to q + p in [0, p)
    } else if (!(q < p)) {
        BigInt<N>::sub(q, q, p);
    }
    r = q;
}

// 2^(192N + 33k) mod p for k = 0..K-1 (see the header comment).
template <size_t N, size_t K>
constexpr std::array<BigInt<N>, K> bingcd_fix_table(const BigInt<N>& p) {
    std::array<BigInt<N>, K> t{};
    BigInt<N> x = pow2_mod(192 * N, p);
    for (size_t k = 0; k < K; ++k) {
        t[k] = x;
        for (int i = 0; i < 33; ++i) x = bigint_detail::add_mod(x, x, p);
    }
    return t;
}

// Outer steps allowed before giving up (the caller then falls back to Fermat). Each
// outer step shortens len(a) + len(b) by about 31 bits; 2*bits/31 + 8 leaves room.
template <size_t Bits>
inline constexpr size_t kBinGcdMaxOuter = (2 * Bits) / 31 + 8;

// y: a nonzero value in [0, p) (raw limbs). Returns the number k of outer steps and
// sets v = 1 / (y * 2^33k) mod p; returns 0 when it did not converge within kMax steps.
template <size_t N>
inline size_t bingcd_core(BigInt<N>& v_out, const BigInt<N>& y, const BigInt<N>& p, uint64_t inv, size_t k_max) {
    BigInt<N> a = y, b = p;
    BigInt<N> u = BigInt<N>::from_u64(1), v = BigInt<N>::zero();
    for (size_t k = 1; k <= k_max; ++k) {
        // Approximations: the low 31 bits and the top 33 bits of the longer number.
        // n = max(len(a), len(b)) = len(a | b).
        size_t top = N - 1;
        while (top > 0 && (a.l[top] | b.l[top]) == 0) --top;
        const uint64_t w = a.l[top] | b.l[top];
        const size_t n = 64 * top + (w ? 64 - size_t(__builtin_clzll(w)) : 0);
        uint64_t xa, xb;
        if (n <= 64) {
            xa = a.l[0];
            xb = b.l[0];
        } else {
            const uint64_t low = (uint64_t(1) << 31) - 1;
            xa = (a.l[0] & low) | (a.bits(n - 33, 33) << 31);
            xb = (b.l[0] & low) | (b.bits(n - 33, 33) << 31);
        }
        BinGcdMatrix m = bingcd_inner(xa, xb);
        bingcd_update_ab<N>(a, b, m);
        BigInt<N> nu, nv;
        bingcd_update_uv<N>(nu, u, m.f0, v, m.g0, p, inv);
        bingcd_update_uv<N>(nv, u, m.f1, v, m.g1, p, inv);
        u = nu;
        v = nv;
        if (a.is_zero()) {
            v_out = v;
            return k;
        }
    }
    return 0;
}

}  // namespace cuzk::ff_detail
