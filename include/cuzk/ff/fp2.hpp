// Fp2 = Fp[u] / (u^2 + 1), the field of G2's coordinates, for any base field Fp with
// p = 3 mod 4 (BLS12-381 and BN254). Elements are c0 + c1*u; the storage is two Fp values,
// the same layout on host and device.
//
// A tower configuration Cfg (bls12_381_tower.hpp, bn254_tower.hpp) gives the base field and
// the constants of the tower Fp2 -> Fp6 -> Fp12 above it:
//   using Base;                          the field Fp
//   static constexpr uint64_t kXiC0;     the sextic non-residue xi = kXiC0 + u
//   kFrobeniusGamma[15][2][Base::N]      xi^(e(p^k - 1)/6), k = 1..3, e = 1..5 (fp6.hpp)
// Fp2, Fp6 and Fp12 (without a namespace) are BLS12-381's; bn254::Fp2 ... are BN254's.
#pragma once

#include <optional>

#include "cuzk/ff/field.hpp"

namespace cuzk {

template <class Cfg>
struct Fp2T {
    using Fp = typename Cfg::Base;
    static_assert((Fp::kP.l[0] & 3) == 3, "u^2 = -1 needs -1 to be a non-square: p = 3 mod 4");
    Fp c0, c1;

    Fp2T() = default;
    CUZK_HD constexpr Fp2T(const Fp& a, const Fp& b) : c0(a), c1(b) {}

    CUZK_HD static constexpr Fp2T zero() { return {Fp::zero(), Fp::zero()}; }
    CUZK_HD static constexpr Fp2T one() { return {Fp::one(), Fp::zero()}; }
    template <class Rng>
    static Fp2T random(Rng& rng) {
        Fp a = Fp::random(rng);
        return {a, Fp::random(rng)};
    }

    CUZK_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
    CUZK_HD bool is_one() const { return c0.is_one() && c1.is_zero(); }
    CUZK_HD friend bool operator==(const Fp2T& a, const Fp2T& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
    CUZK_HD friend bool operator!=(const Fp2T& a, const Fp2T& b) { return !(a == b); }

    CUZK_HD_INLINE friend Fp2T operator+(const Fp2T& a, const Fp2T& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
    CUZK_HD_INLINE friend Fp2T operator-(const Fp2T& a, const Fp2T& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
    CUZK_HD_INLINE Fp2T operator-() const { return {-c0, -c1}; }
    // Karatsuba: 3 Fp multiplies. (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1) + ((a0+a1)(b0+b1) - a0 b0 - a1 b1) u
    // On the host with lazy reduction (mul_lazy); the device keeps the reduced form.
    CUZK_HD_INLINE friend Fp2T operator*(const Fp2T& a, const Fp2T& b) {
#if CUZK_IN_DEVICE
        return mul_reduced(a, b);
#else
        return mul_lazy(a, b);
#endif
    }
    CUZK_HD_INLINE static Fp2T mul_reduced(const Fp2T& a, const Fp2T& b) {
        Fp t0 = a.c0 * b.c0;
        Fp t1 = a.c1 * b.c1;
        Fp t2 = (a.c0 + a.c1) * (b.c0 + b.c1);
        return {t0 - t1, t2 - t0 - t1};
    }
    // Karatsuba with lazy reduction (Aranha et al., ePrint 2010/526, section 3): three
    // 768-bit products, combined unreduced, two Montgomery reductions instead of three,
    // and the sums a0 + a1, b0 + b1 left below 2p. Bounds: t0, t1 < p^2;
    // (a0 + a1)(b0 + b1) < 4p^2, minus t0 and t1 gives a0 b1 + a1 b0 < 2p^2 < pR;
    // t0 - t1 > -p^2 gets pR added when negative. Dev machine, dependent chain: 148 -> 93 ns
    // (square: 108 -> 75 ns).
    CUZK_HD_INLINE static Fp2T mul_lazy(const Fp2T& a, const Fp2T& b) {
        static_assert(Fp::kLazyOk);
        typename Fp::Wide t0, t1, t2;
        Fp::mul_wide(t0, a.c0, b.c0);
        Fp::mul_wide(t1, a.c1, b.c1);
        Fp::mul_wide(t2, Fp::add_unreduced(a.c0, a.c1), Fp::add_unreduced(b.c0, b.c1));
        Fp::wide_sub(t2, t2, t0);
        Fp::wide_sub(t2, t2, t1);
        Fp::wide_sub_mod(t0, t0, t1);
        Fp2T r;
        Fp::redc(r.c0, t0);
        Fp::redc(r.c1, t2);
        return r;
    }
    // The redundant form (Field::mul_r: coordinates below 2p; the device's G2 bucket
    // accumulation, XYZZ::add_redundant). A product is two one-reduction pairs, a0 b0 -
    // a1 b1 and a0 b1 + a1 b0 (6n^2 + 2n word products against Karatsuba's 6n^2 + 3n, and
    // no conditional subtraction); a square (a0 + a1)(a0 - a1) + 2 a0 a1 u, two products.
    static constexpr bool kRedundant = Fp::kRedundant;
    CUZK_HD_INLINE static Fp2T mul_r(const Fp2T& a, const Fp2T& b) {
        return {Fp::mul_sub_mul_r(a.c0, b.c0, a.c1, b.c1), Fp::mul_add_mul_r(a.c0, b.c1, a.c1, b.c0)};
    }
    CUZK_HD_INLINE static Fp2T sqr_r(const Fp2T& a) {
        return {Fp::mul_r(Fp::add_r(a.c0, a.c1), Fp::sub_r(a.c0, a.c1)), Fp::mul_r(Fp::add_r(a.c0, a.c0), a.c1)};
    }
    CUZK_HD_INLINE static Fp2T add_r(const Fp2T& a, const Fp2T& b) {
        return {Fp::add_r(a.c0, b.c0), Fp::add_r(a.c1, b.c1)};
    }
    CUZK_HD_INLINE static Fp2T sub_r(const Fp2T& a, const Fp2T& b) {
        return {Fp::sub_r(a.c0, b.c0), Fp::sub_r(a.c1, b.c1)};
    }
    CUZK_HD_INLINE static Fp2T mul_sub_mul_r(const Fp2T& a, const Fp2T& b, const Fp2T& c, const Fp2T& d) {
        return sub_r(mul_r(a, b), mul_r(c, d));
    }
    CUZK_HD_INLINE static Fp2T canonical_r(const Fp2T& a) { return {Fp::canonical_r(a.c0), Fp::canonical_r(a.c1)}; }
    CUZK_HD_INLINE static bool is_zero_r(const Fp2T& a) { return Fp::is_zero_r(a.c0) && Fp::is_zero_r(a.c1); }
    CUZK_HD_INLINE friend Fp2T operator*(const Fp2T& a, const Fp& b) { return {a.c0 * b, a.c1 * b}; }
    CUZK_HD_INLINE Fp2T& operator+=(const Fp2T& b) { return *this = *this + b; }
    CUZK_HD_INLINE Fp2T& operator-=(const Fp2T& b) { return *this = *this - b; }
    CUZK_HD_INLINE Fp2T& operator*=(const Fp2T& b) { return *this = *this * b; }
    CUZK_HD_INLINE Fp2T dbl() const { return {c0.dbl(), c1.dbl()}; }
    // Complex squaring: (a0 + a1)(a0 - a1) + 2 a0 a1 u, 2 Fp multiplies. On the host the
    // factors stay unreduced (a0 + a1, a0 - a1 + p, 2 a0 all below 2p; products below 4p^2).
    CUZK_HD_INLINE Fp2T square() const {
#if CUZK_IN_DEVICE
        return square_reduced();
#else
        static_assert(Fp::kLazyOk);
        typename Fp::Wide t0, t1;
        Fp::mul_wide(t0, Fp::add_unreduced(c0, c1), Fp::sub_unreduced(c0, c1));
        Fp::mul_wide(t1, Fp::add_unreduced(c0, c0), c1);
        Fp2T r;
        Fp::redc(r.c0, t0);
        Fp::redc(r.c1, t1);
        return r;
#endif
    }
    CUZK_HD_INLINE Fp2T square_reduced() const {
        Fp t = c0 * c1;
        return {(c0 + c1) * (c0 - c1), t.dbl()};
    }
    CUZK_HD_INLINE Fp2T conjugate() const { return {c0, -c1}; }
    // Multiply by the sextic non-residue xi = k + u (k = Cfg::kXiC0): (k a0 - a1) + (a0 + k a1) u.
    // BLS12-381 (k = 1) takes no multiplications; BN254 (k = 9) three doublings and an addition
    // a component.
    CUZK_HD_INLINE Fp2T mul_by_nonresidue() const {
        if constexpr (Cfg::kXiC0 == 1) {
            return {c0 - c1, c0 + c1};
        } else {
            return {mul_by_xi_c0(c0) - c1, c0 + mul_by_xi_c0(c1)};
        }
    }
    // k a for the small constant k = Cfg::kXiC0, by doublings and additions.
    static constexpr int kXiC0TopBit = [] {
        int t = 0;
        while ((Cfg::kXiC0 >> (t + 1)) != 0) ++t;
        return t;
    }();
    CUZK_HD_INLINE static Fp mul_by_xi_c0(const Fp& a) {
        constexpr uint64_t k = Cfg::kXiC0;
        Fp r = a;
        for (int i = kXiC0TopBit - 1; i >= 0; --i) {
            r = r.dbl();
            if ((k >> i) & 1) r += a;
        }
        return r;
    }
    // The p-power Frobenius is conjugation since u^p = -u.
    CUZK_HD_INLINE Fp2T frobenius() const { return conjugate(); }
    CUZK_HD Fp norm() const { return c0.square() + c1.square(); }
    // 1/(a0 + a1 u) = (a0 - a1 u) / (a0^2 + a1^2); zero maps to zero.
    CUZK_HD Fp2T inverse() const {
        Fp t = norm().inverse();
        return {c0 * t, -(c1 * t)};
    }
    template <size_t M>
    CUZK_HD Fp2T pow(const BigInt<M>& e) const {
        Fp2T r = one();
        for (size_t i = e.num_bits(); i-- > 0;) {
            r = r.square();
            if (e.bit(i)) r *= *this;
        }
        return r;
    }
    // Zcash "lexicographically largest": compare c1 first, then c0 when c1 is zero.
    bool lexicographically_largest() const {
        if (!c1.is_zero()) return c1.lexicographically_largest();
        return c0.lexicographically_largest();
    }
    // A square exists iff the norm is a square in Fp.
    int legendre() const { return norm().legendre(); }

    // Square root for p = 3 mod 4: Adj and Rodriguez-Henriquez, "Square root computation
    // over even extension fields", 2012, Algorithm 9. nullopt for a non-square.
    std::optional<Fp2T> sqrt() const {
        if (is_zero()) return zero();
        constexpr typename Fp::Big p = Fp::kP;
        constexpr typename Fp::Big e1 = p.shr(2);  // (p-3)/4 since p = 3 mod 4
        constexpr typename Fp::Big e2 = p.shr(1);  // (p-1)/2
        Fp2T a1 = pow(e1);
        Fp2T alpha = a1.square() * *this;
        Fp2T a0 = alpha.frobenius() * alpha;
        const Fp2T minus_one = {-Fp::one(), Fp::zero()};
        if (a0 == minus_one) return std::nullopt;
        Fp2T x0 = a1 * *this;
        Fp2T x;
        if (alpha == minus_one) {
            x = {-x0.c1, x0.c0};  // u * x0
        } else {
            Fp2T b = (one() + alpha).pow(e2);
            x = b * x0;
        }
        if (x.square() != *this) return std::nullopt;
        return x;
    }
};

}  // namespace cuzk

#include "cuzk/ff/bls12_381_tower.hpp"

namespace cuzk {
using Fp2 = Fp2T<Bls12381Tower>;
}  // namespace cuzk
