// Extended Jacobian ("XYZZ") coordinates for y^2 = x^3 + b (a = 0), templated over
// the curve. (X : Y : ZZ : ZZZ) with ZZ^3 = ZZZ^2 represents (X/ZZ, Y/ZZZ); ZZ = 0
// is the identity. Cheaper mixed addition than Jacobian (8M + 2S vs 7M + 4S but no
// Z1 Z1Z1 product chain) and the usual choice for MSM buckets (sppark ec/xyzz_t.hpp).
// Formulas from the EFD, https://hyperelliptic.org/EFD/g1p/auto-shortw-xyzz.html
// Operation counts: M = field multiply, S = field square.
#pragma once

#include <span>
#include <vector>

#include "cuzk/common/hd.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"

namespace cuzk {

namespace ec_detail {
// a b - c d through the field's one-reduction form where it has one (Field::mul_sub_mul;
// Fp2 has none).
template <class F>
CUZK_HD_INLINE F mul_sub_mul(const F& a, const F& b, const F& c, const F& d) {
    if constexpr (requires { F::mul_sub_mul(a, b, c, d); })
        return F::mul_sub_mul(a, b, c, d);
    else
        return a * b - c * d;
}
}  // namespace ec_detail

template <class Curve>
struct XYZZ {
    using F = typename Curve::Field;
    using AffinePoint = Affine<Curve>;
    F X, Y, ZZ, ZZZ;

    CUZK_HD static XYZZ identity() { return {F::one(), F::one(), F::zero(), F::zero()}; }
    CUZK_HD static XYZZ from_affine(const AffinePoint& a) {
        if (a.infinity) return identity();
        return {a.x, a.y, F::one(), F::one()};
    }
    // (X : Y : Z) Jacobian -> (X : Y : Z^2 : Z^3): 1M + 1S.
    CUZK_HD static XYZZ from_jacobian(const Jacobian<Curve>& p) {
        if (p.is_identity()) return identity();
        F zz = p.Z.square();
        return {p.X, p.Y, zz, zz * p.Z};
    }
    static XYZZ generator() { return from_affine(AffinePoint::generator()); }

    CUZK_HD bool is_identity() const { return ZZ.is_zero(); }
    CUZK_HD XYZZ operator-() const { return {X, -Y, ZZ, ZZZ}; }

    // x1 == x2: X1 ZZ2 == X2 ZZ1; y1 == y2: Y1 ZZZ2 == Y2 ZZZ1.
    CUZK_HD friend bool operator==(const XYZZ& p, const XYZZ& q) {
        const bool pi = p.is_identity(), qi = q.is_identity();
        if (pi || qi) return pi == qi;
        return p.X * q.ZZ == q.X * p.ZZ && p.Y * q.ZZZ == q.Y * p.ZZZ;
    }
    CUZK_HD friend bool operator!=(const XYZZ& p, const XYZZ& q) { return !(p == q); }

    // dbl-2008-s-1 with a = 0: 6M + 3S.
    CUZK_HD XYZZ dbl() const {
        if (is_identity()) return *this;
        F U = Y.dbl();     // U = 2 Y1
        F V = U.square();  // V = U^2
        F W = U * V;       // W = U V
        F S = X * V;       // S = X1 V
        F X2 = X.square();
        F M = X2.dbl() + X2;  // M = 3 X1^2 (+ a ZZ1^2, a = 0)
        XYZZ r;
        r.X = M.square() - S.dbl();                      // X3 = M^2 - 2S
        r.Y = ec_detail::mul_sub_mul(M, S - r.X, W, Y);  // Y3 = M (S - X3) - W Y1
        r.ZZ = V * ZZ;                                   // ZZ3 = V ZZ1
        r.ZZZ = W * ZZZ;                                 // ZZZ3 = W ZZZ1
        return r;
    }

    // add-2008-s: 12M + 2S. P = R = 0 doubles, P = 0 alone gives the identity.
    CUZK_HD XYZZ add(const XYZZ& q) const {
        if (is_identity()) return q;
        if (q.is_identity()) return *this;
        F U1 = X * q.ZZ;   // U1 = X1 ZZ2
        F U2 = q.X * ZZ;   // U2 = X2 ZZ1
        F S1 = Y * q.ZZZ;  // S1 = Y1 ZZZ2
        F S2 = q.Y * ZZZ;  // S2 = Y2 ZZZ1
        F P = U2 - U1;     // P = U2 - U1
        F R = S2 - S1;     // R = S2 - S1
        if (P.is_zero()) {
            if (R.is_zero()) return dbl();
            return identity();
        }
        F PP = P.square();  // PP = P^2
        F PPP = P * PP;     // PPP = P PP
        F Q = U1 * PP;      // Q = U1 PP
        XYZZ r;
        r.X = R.square() - PPP - Q.dbl();                   // X3 = R^2 - PPP - 2Q
        r.Y = ec_detail::mul_sub_mul(R, Q - r.X, S1, PPP);  // Y3 = R (Q - X3) - S1 PPP
        r.ZZ = ZZ * q.ZZ * PP;                              // ZZ3 = ZZ1 ZZ2 PP
        r.ZZZ = ZZZ * q.ZZZ * PPP;                          // ZZZ3 = ZZZ1 ZZZ2 PPP
        return r;
    }

    // madd-2008-s (ZZ2 = ZZZ2 = 1): 8M + 2S; over Fp on the device Y3's two products share
    // one reduction (Field::mul_sub_mul: the MSM's accumulation 5% faster).
    // Always inlined: over Fp2 nvcc made it a call, which put the GPU MSM's bucket
    // accumulator in local memory (src/gpu/msm.cu has the register counts). The P = 0
    // test stays between the formulas: after them (q = -this then falls out as ZZ3 = 0,
    // only q = this needs a test) the GPU accumulation was 0.3% slower (H200).
    CUZK_HD_INLINE XYZZ add(const AffinePoint& q) const {
        if (q.infinity) return *this;
        if (is_identity()) return from_affine(q);
        F U2 = q.x * ZZ;   // U2 = X2 ZZ1
        F S2 = q.y * ZZZ;  // S2 = Y2 ZZZ1
        F P = U2 - X;      // P = U2 - X1
        F R = S2 - Y;      // R = S2 - Y1
        if (P.is_zero()) {
            if (R.is_zero()) return dbl();
            return identity();
        }
        F PP = P.square();  // PP = P^2
        F PPP = P * PP;     // PPP = P PP
        F Q = X * PP;       // Q = X1 PP
        XYZZ r;
        r.X = R.square() - PPP - Q.dbl();                  // X3 = R^2 - PPP - 2Q
        r.Y = ec_detail::mul_sub_mul(R, Q - r.X, Y, PPP);  // Y3 = R (Q - X3) - Y1 PPP
        r.ZZ = ZZ * PP;                                    // ZZ3 = ZZ1 PP
        r.ZZZ = ZZZ * PPP;                                 // ZZZ3 = ZZZ1 PPP
        return r;
    }

    // The same in the field's redundant form (F::kRedundant: Fp, Fp2; coordinates below 2p, see
    // Field::mul_r): this point's coordinates redundant, q's canonical, the result's
    // redundant. The multiplications skip their conditional subtractions, which sit on the
    // dependency chain of a bucket's run. Zero tests take 0 or p (is_zero_r); ZZ of a
    // point that is not the identity is never 0 or p (a product of nonzero residues), and
    // the identity is always written canonical, so is_identity() stays exact. The rare
    // doubling runs on canonical coordinates.
    CUZK_HD_INLINE XYZZ add_redundant(const AffinePoint& q) const {
        if (q.infinity) return *this;
        if (is_identity()) return from_affine(q);
        F U2 = F::mul_r(q.x, ZZ);   // U2 = X2 ZZ1
        F S2 = F::mul_r(q.y, ZZZ);  // S2 = Y2 ZZZ1
        F P = F::sub_r(U2, X);      // P = U2 - X1
        F R = F::sub_r(S2, Y);      // R = S2 - Y1
        if (F::is_zero_r(P)) {
            if (F::is_zero_r(R)) return canonical().dbl();
            return identity();
        }
        F PP = F::sqr_r(P);       // PP = P^2
        F PPP = F::mul_r(P, PP);  // PPP = P PP
        F Q = F::mul_r(X, PP);    // Q = X1 PP
        XYZZ r;
        r.X = F::sub_r(F::sub_r(F::sqr_r(R), PPP), F::add_r(Q, Q));  // X3 = R^2 - PPP - 2Q
        r.Y = F::mul_sub_mul_r(R, F::sub_r(Q, r.X), Y, PPP);         // Y3 = R (Q - X3) - Y1 PPP
        r.ZZ = F::mul_r(ZZ, PP);                                     // ZZ3 = ZZ1 PP
        r.ZZZ = F::mul_r(ZZZ, PPP);                                  // ZZZ3 = ZZZ1 PPP
        return r;
    }
    // add-2008-s in the redundant form: both points' coordinates redundant (below 2p), the
    // result's too (the bucket reduction's running sums; see add_redundant above).
    CUZK_HD XYZZ add_redundant(const XYZZ& q) const {
        if (is_identity()) return q;
        if (q.is_identity()) return *this;
        F U1 = F::mul_r(X, q.ZZ);   // U1 = X1 ZZ2
        F U2 = F::mul_r(q.X, ZZ);   // U2 = X2 ZZ1
        F S1 = F::mul_r(Y, q.ZZZ);  // S1 = Y1 ZZZ2
        F S2 = F::mul_r(q.Y, ZZZ);  // S2 = Y2 ZZZ1
        F P = F::sub_r(U2, U1);     // P = U2 - U1
        F R = F::sub_r(S2, S1);     // R = S2 - S1
        if (F::is_zero_r(P)) {
            if (F::is_zero_r(R)) return canonical().dbl();
            return identity();
        }
        F PP = F::sqr_r(P);       // PP = P^2
        F PPP = F::mul_r(P, PP);  // PPP = P PP
        F Q = F::mul_r(U1, PP);   // Q = U1 PP
        XYZZ r;
        r.X = F::sub_r(F::sub_r(F::sqr_r(R), PPP), F::add_r(Q, Q));  // X3 = R^2 - PPP - 2Q
        r.Y = F::mul_sub_mul_r(R, F::sub_r(Q, r.X), S1, PPP);        // Y3 = R (Q - X3) - S1 PPP
        r.ZZ = F::mul_r(F::mul_r(ZZ, q.ZZ), PP);                     // ZZ3 = ZZ1 ZZ2 PP
        r.ZZZ = F::mul_r(F::mul_r(ZZZ, q.ZZZ), PPP);                 // ZZZ3 = ZZZ1 ZZZ2 PPP
        return r;
    }
    // Coordinates below p (from the redundant form).
    CUZK_HD_INLINE XYZZ canonical() const {
        return {F::canonical_r(X), F::canonical_r(Y), F::canonical_r(ZZ), F::canonical_r(ZZZ)};
    }

    CUZK_HD XYZZ sub(const XYZZ& q) const { return add(-q); }
    CUZK_HD XYZZ sub(const AffinePoint& q) const { return add(-q); }
    CUZK_HD friend XYZZ operator+(const XYZZ& p, const XYZZ& q) { return p.add(q); }
    CUZK_HD friend XYZZ operator+(const XYZZ& p, const AffinePoint& q) { return p.add(q); }
    CUZK_HD friend XYZZ operator-(const XYZZ& p, const XYZZ& q) { return p.sub(q); }
    CUZK_HD XYZZ& operator+=(const XYZZ& q) { return *this = add(q); }
    CUZK_HD_INLINE XYZZ& operator+=(const AffinePoint& q) { return *this = add(q); }

    // To Jacobian without inversion, taking Z' = ZZZ: x = X/ZZ = X'/ZZZ^2 gives
    // X' = X ZZZ^2/ZZ = X ZZ^2 (as ZZZ^2 = ZZ^3); y = Y/ZZZ = Y'/ZZZ^3 gives
    // Y' = Y ZZZ^2. Cost 2M + 2S.
    CUZK_HD Jacobian<Curve> to_jacobian() const {
        if (is_identity()) return Jacobian<Curve>::identity();
        F zzz2 = ZZZ.square();
        return {X * ZZ.square(), Y * zzz2, ZZZ};
    }

    // One inversion: 1/ZZZ, then 1/ZZ = (ZZ/ZZZ)^2 (since ZZ^3 = ZZZ^2).
    CUZK_HD AffinePoint to_affine() const {
        if (is_identity()) return AffinePoint::identity();
        F izzz = ZZZ.inverse();
        F izz = (izzz * ZZ).square();
        return {X * izz, Y * izzz, false};
    }
};

using G1XYZZ = XYZZ<G1Curve>;
using G2XYZZ = XYZZ<G2Curve>;

}  // namespace cuzk
