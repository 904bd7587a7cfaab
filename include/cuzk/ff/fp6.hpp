// Fp6 = Fp2[v] / (v^3 - xi): the middle of the pairing tower, xi = 1 + u for BLS12-381 (the
// same tower as zkcrypto/bls12_381 and blst, so their published values compare limb for
// limb) and 9 + u for BN254 (as go-ethereum, gnark-crypto and arkworks).
// Elements are c0 + c1 v + c2 v^2; the storage is three Fp2 values, host and device alike.
// Operation counts are in Fp2 multiplications (M) and squarings (S).
#pragma once

#include "cuzk/ff/fp2.hpp"

namespace cuzk {

// Frobenius constants gamma_k^e = xi^(e(p^k - 1)/6) = w^(e(p^k - 1)) for k = 1, 2, 3 and
// e = 1..5 (Cfg::kFrobeniusGamma, Montgomery limbs, c0 then c1). x -> x^(p^k) sends w^e to
// gamma_k^e w^e.
namespace tower_detail {
template <class Cfg>
CUZK_HD_INLINE Fp2T<Cfg> frobenius_gamma(unsigned k, unsigned e) {
    constexpr size_t N = Cfg::Base::N;
    const uint64_t(&g)[2][N] = Cfg::kFrobeniusGamma[5 * (k - 1) + (e - 1)];
    Fp2T<Cfg> r;
    for (size_t i = 0; i < N; ++i) {
        r.c0.l[i] = g[0][i];
        r.c1.l[i] = g[1][i];
    }
    return r;
}
// x^(p^k) on Fp2: conjugation when k is odd.
template <class Cfg>
CUZK_HD_INLINE Fp2T<Cfg> fp2_frobenius(const Fp2T<Cfg>& a, unsigned k) {
    return (k & 1) ? a.conjugate() : a;
}
}  // namespace tower_detail

template <class Cfg>
struct Fp6T {
    using Fp2 = Fp2T<Cfg>;
    Fp2 c0, c1, c2;

    Fp6T() = default;
    CUZK_HD constexpr Fp6T(const Fp2& a, const Fp2& b, const Fp2& c) : c0(a), c1(b), c2(c) {}

    CUZK_HD static constexpr Fp6T zero() { return {Fp2::zero(), Fp2::zero(), Fp2::zero()}; }
    CUZK_HD static constexpr Fp6T one() { return {Fp2::one(), Fp2::zero(), Fp2::zero()}; }
    template <class Rng>
    static Fp6T random(Rng& rng) {
        Fp2 a = Fp2::random(rng);
        Fp2 b = Fp2::random(rng);
        return {a, b, Fp2::random(rng)};
    }

    CUZK_HD bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
    CUZK_HD bool is_one() const { return c0.is_one() && c1.is_zero() && c2.is_zero(); }
    CUZK_HD friend bool operator==(const Fp6T& a, const Fp6T& b) {
        return a.c0 == b.c0 && a.c1 == b.c1 && a.c2 == b.c2;
    }
    CUZK_HD friend bool operator!=(const Fp6T& a, const Fp6T& b) { return !(a == b); }

    CUZK_HD_INLINE friend Fp6T operator+(const Fp6T& a, const Fp6T& b) {
        return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2};
    }
    CUZK_HD_INLINE friend Fp6T operator-(const Fp6T& a, const Fp6T& b) {
        return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2};
    }
    CUZK_HD_INLINE Fp6T operator-() const { return {-c0, -c1, -c2}; }
    CUZK_HD_INLINE Fp6T dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }
    CUZK_HD_INLINE Fp6T& operator+=(const Fp6T& b) { return *this = *this + b; }
    CUZK_HD_INLINE Fp6T& operator-=(const Fp6T& b) { return *this = *this - b; }
    CUZK_HD_INLINE Fp6T& operator*=(const Fp6T& b) { return *this = *this * b; }

    // Karatsuba over three coefficients, 6M (Devegili, O hEigeartaigh, Scott, Dahab,
    // "Multiplication and squaring on pairing-friendly fields", ePrint 2006/471, section 4).
    CUZK_HD friend Fp6T operator*(const Fp6T& a, const Fp6T& b) {
        Fp2 v0 = a.c0 * b.c0;
        Fp2 v1 = a.c1 * b.c1;
        Fp2 v2 = a.c2 * b.c2;
        // c0 = v0 + xi((a1 + a2)(b1 + b2) - v1 - v2)
        Fp2 r0 = ((a.c1 + a.c2) * (b.c1 + b.c2) - v1 - v2).mul_by_nonresidue() + v0;
        // c1 = (a0 + a1)(b0 + b1) - v0 - v1 + xi v2
        Fp2 r1 = (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1 + v2.mul_by_nonresidue();
        // c2 = (a0 + a2)(b0 + b2) - v0 - v2 + v1
        Fp2 r2 = (a.c0 + a.c2) * (b.c0 + b.c2) - v0 - v2 + v1;
        return {r0, r1, r2};
    }
    CUZK_HD_INLINE friend Fp6T operator*(const Fp6T& a, const Fp2& b) { return {a.c0 * b, a.c1 * b, a.c2 * b}; }

    // Chung-Hasan SQR2, 2M + 3S (Devegili et al. 2006/471, section 4; Chung and Hasan,
    // "Asymmetric squaring formulae", ARITH 2007).
    CUZK_HD Fp6T square() const {
        Fp2 s0 = c0.square();
        Fp2 s1 = (c0 * c1).dbl();
        Fp2 s2 = (c0 - c1 + c2).square();
        Fp2 s3 = (c1 * c2).dbl();
        Fp2 s4 = c2.square();
        return {s3.mul_by_nonresidue() + s0, s4.mul_by_nonresidue() + s1, s1 + s2 + s3 - s0 - s4};
    }

    // Multiplication by v: (c0 + c1 v + c2 v^2) v = xi c2 + c0 v + c1 v^2 (no multiplies).
    CUZK_HD_INLINE Fp6T mul_by_nonresidue() const { return {c2.mul_by_nonresidue(), c0, c1}; }

    // Sparse products used by Fp12::mul_by_014. By b0 + b1 v: 5M.
    CUZK_HD Fp6T mul_by_01(const Fp2& b0, const Fp2& b1) const {
        Fp2 v0 = c0 * b0;
        Fp2 v1 = c1 * b1;
        Fp2 r0 = ((c1 + c2) * b1 - v1).mul_by_nonresidue() + v0;  // v0 + xi (a2 b1)
        Fp2 r1 = (c0 + c1) * (b0 + b1) - v0 - v1;                 // a0 b1 + a1 b0
        Fp2 r2 = (c0 + c2) * b0 - v0 + v1;                        // a2 b0 + a1 b1
        return {r0, r1, r2};
    }
    // By b1 v: 3M.
    CUZK_HD Fp6T mul_by_1(const Fp2& b1) const { return {(c2 * b1).mul_by_nonresidue(), c0 * b1, c1 * b1}; }

    // Inverse via the adjugate (Scott, "Implementing cryptographic pairings", 2007, section 3.2;
    // Guide to Pairing-Based Cryptography, Algorithm 5.23): 9M + 3S + one Fp2 inverse.
    // Zero maps to zero.
    CUZK_HD Fp6T inverse() const {
        Fp2 t0 = c0.square() - (c1 * c2).mul_by_nonresidue();
        Fp2 t1 = c2.square().mul_by_nonresidue() - c0 * c1;
        Fp2 t2 = c1.square() - c0 * c2;
        Fp2 n = c0 * t0 + (c2 * t1 + c1 * t2).mul_by_nonresidue();
        Fp2 ni = n.inverse();
        return {t0 * ni, t1 * ni, t2 * ni};
    }

    // x -> x^(p^k) for k = 1, 2, 3: apply Fp2's Frobenius k times to the coefficients and
    // multiply c1, c2 by v^(p^k - 1) = gamma_k^2 and v^(2(p^k - 1)) = gamma_k^4.
    CUZK_HD Fp6T frobenius_map(unsigned k) const {
        using namespace tower_detail;
        return {fp2_frobenius(c0, k), fp2_frobenius(c1, k) * frobenius_gamma<Cfg>(k, 2),
                fp2_frobenius(c2, k) * frobenius_gamma<Cfg>(k, 4)};
    }

    template <size_t M>
    CUZK_HD Fp6T pow(const BigInt<M>& e) const {
        Fp6T r = one();
        for (size_t i = e.num_bits(); i-- > 0;) {
            r = r.square();
            if (e.bit(i)) r *= *this;
        }
        return r;
    }
};

using Fp6 = Fp6T<Bls12381Tower>;

}  // namespace cuzk
