// Fp12 = Fp6[w] / (w^2 - v): the top of the pairing tower (BLS12-381, BN254) and the
// pairing's target field. Elements are c0 + c1 w. Over Fp2 the basis is w^e, e = 0..5, with
// c0 = (w^0, w^2, w^4) and c1 = (w^1, w^3, w^5) coefficients (w^6 = xi).
// Operation counts are in Fp2 multiplications (M) and squarings (S).
#pragma once

#include "cuzk/ff/fp6.hpp"

namespace cuzk {

template <class Cfg>
struct Fp12T {
    using Fp2 = Fp2T<Cfg>;
    using Fp6 = Fp6T<Cfg>;
    Fp6 c0, c1;

    Fp12T() = default;
    CUZK_HD constexpr Fp12T(const Fp6& a, const Fp6& b) : c0(a), c1(b) {}

    CUZK_HD static constexpr Fp12T zero() { return {Fp6::zero(), Fp6::zero()}; }
    CUZK_HD static constexpr Fp12T one() { return {Fp6::one(), Fp6::zero()}; }
    template <class Rng>
    static Fp12T random(Rng& rng) {
        Fp6 a = Fp6::random(rng);
        return {a, Fp6::random(rng)};
    }

    CUZK_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
    CUZK_HD bool is_one() const { return c0.is_one() && c1.is_zero(); }
    CUZK_HD friend bool operator==(const Fp12T& a, const Fp12T& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
    CUZK_HD friend bool operator!=(const Fp12T& a, const Fp12T& b) { return !(a == b); }

    CUZK_HD_INLINE friend Fp12T operator+(const Fp12T& a, const Fp12T& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
    CUZK_HD_INLINE friend Fp12T operator-(const Fp12T& a, const Fp12T& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
    CUZK_HD_INLINE Fp12T operator-() const { return {-c0, -c1}; }
    CUZK_HD_INLINE Fp12T& operator+=(const Fp12T& b) { return *this = *this + b; }
    CUZK_HD_INLINE Fp12T& operator-=(const Fp12T& b) { return *this = *this - b; }
    CUZK_HD_INLINE Fp12T& operator*=(const Fp12T& b) { return *this = *this * b; }

    // Karatsuba over Fp6, 3 Fp6 multiplies = 18M:
    // (a0 + a1 w)(b0 + b1 w) = (a0 b0 + v a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) w.
    CUZK_HD friend Fp12T operator*(const Fp12T& a, const Fp12T& b) {
        Fp6 t0 = a.c0 * b.c0;
        Fp6 t1 = a.c1 * b.c1;
        Fp6 t2 = (a.c0 + a.c1) * (b.c0 + b.c1);
        return {t1.mul_by_nonresidue() + t0, t2 - t0 - t1};
    }

    // Complex squaring, 2 Fp6 multiplies = 12M (Devegili et al., ePrint 2006/471, section 3):
    // (a0 + a1 w)^2 = ((a0 + a1)(a0 + v a1) - t - v t) + 2t w with t = a0 a1.
    CUZK_HD Fp12T square() const {
        Fp6 t = c0 * c1;
        Fp6 s = (c0 + c1) * (c0 + c1.mul_by_nonresidue());
        return {s - t - t.mul_by_nonresidue(), t.dbl()};
    }

    // Multiplication by a sparse element o0 + o1 w^2 + o4 w^3 (coefficients 0, 1 and 4 in
    // the order c0.c0, c0.c1, c0.c2, c1.c0, c1.c1, c1.c2): the shape of a line function on
    // the M-type twist. Karatsuba over Fp6 with sparse operands: 5M + 3M + 5M = 13M.
    CUZK_HD Fp12T mul_by_014(const Fp2& o0, const Fp2& o1, const Fp2& o4) const {
        Fp6 t0 = c0.mul_by_01(o0, o1);
        Fp6 t1 = c1.mul_by_1(o4);
        Fp6 t2 = (c0 + c1).mul_by_01(o0, o1 + o4);
        return {t1.mul_by_nonresidue() + t0, t2 - t0 - t1};
    }

    // Multiplication by a sparse element o0 + o3 w + o4 w^3 (coefficients 0, 3 and 4 in the
    // order above): the shape of a line function on the D-type twist (BN254). Karatsuba over
    // Fp6 with sparse operands: 3M + 5M + 5M = 13M.
    CUZK_HD Fp12T mul_by_034(const Fp2& o0, const Fp2& o3, const Fp2& o4) const {
        Fp6 t0 = c0 * o0;
        Fp6 t1 = c1.mul_by_01(o3, o4);
        Fp6 t2 = (c0 + c1).mul_by_01(o0 + o3, o4);
        return {t1.mul_by_nonresidue() + t0, t2 - t0 - t1};
    }

    // Conjugation a0 - a1 w = x^(p^6); the inverse of a unitary element (norm 1 over Fp6),
    // which every element is after the easy part of the final exponentiation.
    CUZK_HD_INLINE Fp12T conjugate() const { return {c0, -c1}; }

    // 1/(a0 + a1 w) = (a0 - a1 w) / (a0^2 - v a1^2); zero maps to zero.
    CUZK_HD Fp12T inverse() const {
        Fp6 n = c0.square() - c1.square().mul_by_nonresidue();
        Fp6 ni = n.inverse();
        return {c0 * ni, -(c1 * ni)};
    }

    // x -> x^(p^k) for k = 1, 2, 3: w^e -> gamma_k^e w^e, coefficients through Fp2's Frobenius.
    CUZK_HD Fp12T frobenius_map(unsigned k) const {
        using namespace tower_detail;
        Fp6 r1 = {fp2_frobenius(c1.c0, k) * frobenius_gamma<Cfg>(k, 1),
                  fp2_frobenius(c1.c1, k) * frobenius_gamma<Cfg>(k, 3),
                  fp2_frobenius(c1.c2, k) * frobenius_gamma<Cfg>(k, 5)};
        return {c0.frobenius_map(k), r1};
    }

    // Squaring in the cyclotomic subgroup (elements with x^(p^6 + 1) = 1 and
    // x^(p^4 - p^2 + 1) in it; every value after the easy part of the final exponentiation):
    // Granger and Scott, "Faster squaring in the cyclotomic subgroup of sixth degree
    // extensions", PKC 2010 (ePrint 2009/565), section 3.1. Viewing Fp12T as Fp4[t]/(t^3 - s)
    // with Fp4 = Fp2[s]/(s^2 - xi), s = w^3, t = w, and x = A + B t + C t^2:
    //   A' = 3A^2 - 2 conj(A),  B' = 3 s C^2 + 2 conj(B),  C' = 3 B^2 - 2 conj(C)
    // where conj negates the s coefficient. Three Fp4 squarings = 9S plus additions, against
    // 12M for a general square. A = (c0.c0, c1.c1), B = (c1.c0, c0.c2), C = (c0.c1, c1.c2).
    CUZK_HD Fp12T cyclotomic_square() const {
        Fp2 a0, a1;
        fp4_square(c0.c0, c1.c1, a0, a1);  // A^2
        Fp12T r = cyclotomic_square_compressed();
        // A' = 3A^2 - 2 conj(A): 3a0 - 2A_0, 3a1 + 2A_1.
        r.c0.c0 = (a0 - c0.c0).dbl() + a0;
        r.c1.c1 = (a1 + c1.c1).dbl() + a1;
        return r;
    }

    // (a + b s)^2 = (a^2 + xi b^2) + ((a + b)^2 - a^2 - b^2) s in Fp4 = Fp2[s]/(s^2 - xi): 3S.
    CUZK_HD_INLINE static void fp4_square(const Fp2& a, const Fp2& b, Fp2& r0, Fp2& r1) {
        Fp2 t0 = a.square();
        Fp2 t1 = b.square();
        r0 = t1.mul_by_nonresidue() + t0;
        r1 = (a + b).square() - t0 - t1;
    }

    // Compressed cyclotomic squaring: B' and C' above depend on B and C only, so a run of
    // squarings can carry just those four Fp2 coefficients (w^1, w^2, w^4, w^5): 6S
    // instead of 9S. (The idea of Karabina, "Squaring in cyclotomic subgroups", Math.
    // Comp. 2013, ePrint 2010/542, here on Granger-Scott's coordinates.) The result has
    // A = (c0.c0, c1.c1) set to zero; cyclotomic_decompress_parts recovers it.
    CUZK_HD Fp12T cyclotomic_square_compressed() const {
        Fp2 b0, b1, g0, g1;
        fp4_square(c1.c0, c0.c2, b0, b1);  // B^2
        fp4_square(c0.c1, c1.c2, g0, g1);  // C^2
        Fp12T r;
        r.c0.c0 = Fp2::zero();
        r.c1.c1 = Fp2::zero();
        // B' = 3 s C^2 + 2 conj(B): s (g0 + g1 s) = xi g1 + g0 s.
        Fp2 sg = g1.mul_by_nonresidue();
        r.c1.c0 = (sg + c1.c0).dbl() + sg;
        r.c0.c2 = (g0 - c0.c2).dbl() + g0;
        // C' = 3 B^2 - 2 conj(C).
        r.c0.c1 = (b0 - c0.c1).dbl() + b0;
        r.c1.c2 = (b1 + c1.c2).dbl() + b1;
        return r;
    }

    // Decompression: A = (a0, a1) = (c0.c0, c1.c1) from x1 = c0.c1, x2 = c0.c2, y0 = c1.c0,
    // y2 = c1.c2. A unitary element has c0^2 - v c1^2 = 1 (f conj(f) = 1); its v and v^2
    // coefficients are linear in a0, a1 (derived here by expanding the squares):
    //   2 x1 a0 - 2 xi y2 a1 = y0^2 - xi x2^2 =: ty,   2 x2 a0 - 2 y0 a1 = xi y2^2 - x1^2 =: tx,
    // so by Cramer's rule a0 = (xi y2 tx - y0 ty) / d, a1 = (x1 tx - x2 ty) / d with
    // d = 2 (xi x2 y2 - x1 y0). When d = 0 (e.g. f = 1) the system does not determine A and
    // the caller must not use the compressed form. 4S + 6M; the division is left to the
    // caller so that several denominators share one inversion.
    CUZK_HD void cyclotomic_decompress_parts(Fp2& n0, Fp2& n1, Fp2& d) const {
        const Fp2 &x1 = c0.c1, &x2 = c0.c2, &y0 = c1.c0, &y2 = c1.c2;
        Fp2 ty = y0.square() - x2.square().mul_by_nonresidue();
        Fp2 tx = y2.square().mul_by_nonresidue() - x1.square();
        n0 = (y2 * tx).mul_by_nonresidue() - y0 * ty;
        n1 = x1 * tx - x2 * ty;
        d = ((x2 * y2).mul_by_nonresidue() - x1 * y0).dbl();
    }
    // Fills in A = (n0, n1) / d given 1/d.
    CUZK_HD void cyclotomic_decompress_finish(const Fp2& n0, const Fp2& n1, const Fp2& d_inv) {
        c0.c0 = n0 * d_inv;
        c1.c1 = n1 * d_inv;
    }

    template <size_t M>
    CUZK_HD Fp12T pow(const BigInt<M>& e) const {
        Fp12T r = one();
        for (size_t i = e.num_bits(); i-- > 0;) {
            r = r.square();
            if (e.bit(i)) r *= *this;
        }
        return r;
    }
};

using Fp12 = Fp12T<Bls12381Tower>;

}  // namespace cuzk
