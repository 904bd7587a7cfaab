// Jacobian coordinates for short Weierstrass curves y^2 = x^3 + b (a = 0), templated
// over the curve so that G1 (over Fp) and G2 (over Fp2) share one implementation.
//   (X : Y : Z) represents the affine point (X/Z^2, Y/Z^3); Z = 0 is the identity.
// Formulas from the Explicit-Formulas Database (EFD),
//   https://hyperelliptic.org/EFD/g1p/auto-shortw-jacobian-0.html
// Operation counts: M = field multiply, S = field square (additions not counted).
// Every formula handles the identity and the doubling/inverse cases itself, so callers
// need no special cases. Formulas are CUZK_HD so that the GPU code can reuse them.
#pragma once

#include <span>
#include <vector>

#include "cuzk/common/hd.hpp"
#include "cuzk/ec/affine.hpp"

namespace cuzk {

template <class Curve>
struct Jacobian {
    using F = typename Curve::Field;
    using AffinePoint = Affine<Curve>;
    F X, Y, Z;

    CUZK_HD static Jacobian identity() { return {F::one(), F::one(), F::zero()}; }
    CUZK_HD static Jacobian from_affine(const AffinePoint& a) {
        if (a.infinity) return identity();
        return {a.x, a.y, F::one()};
    }
    static Jacobian generator() { return from_affine(AffinePoint::generator()); }

    CUZK_HD bool is_identity() const { return Z.is_zero(); }
    CUZK_HD Jacobian operator-() const { return {X, -Y, Z}; }

    // Projective equality without inversion: X1 Z2^2 == X2 Z1^2 and Y1 Z2^3 == Y2 Z1^3.
    CUZK_HD friend bool operator==(const Jacobian& p, const Jacobian& q) {
        const bool pi = p.is_identity(), qi = q.is_identity();
        if (pi || qi) return pi == qi;
        F z1z1 = p.Z.square(), z2z2 = q.Z.square();
        if (p.X * z2z2 != q.X * z1z1) return false;
        return p.Y * (z2z2 * q.Z) == q.Y * (z1z1 * p.Z);
    }
    CUZK_HD friend bool operator!=(const Jacobian& p, const Jacobian& q) { return !(p == q); }

    // Y^2 == X^3 + b Z^6 (the identity counts as on the curve).
    bool is_on_curve() const {
        if (is_identity()) return true;
        F z2 = Z.square();
        F z6 = z2.square() * z2;
        return Y.square() == X.square() * X + Curve::b() * z6;
    }

    // dbl-2009-l (a = 0): 2M + 5S.
    CUZK_HD Jacobian dbl() const {
        if (is_identity()) return *this;
        F A = X.square();                        // A = X1^2
        F B = Y.square();                        // B = Y1^2
        F C = B.square();                        // C = B^2
        F D = ((X + B).square() - A - C).dbl();  // D = 2((X1+B)^2 - A - C) = 4 X1 Y1^2
        F E = A.dbl() + A;                       // E = 3A
        F Fv = E.square();                       // F = E^2
        Jacobian r;
        r.Z = (Y * Z).dbl();                        // Z3 = 2 Y1 Z1 (before X, Y are overwritten)
        r.X = Fv - D.dbl();                         // X3 = F - 2D
        r.Y = E * (D - r.X) - C.dbl().dbl().dbl();  // Y3 = E (D - X3) - 8C
        return r;
    }

    // add-2007-bl: 11M + 5S. H = 0 means equal x: doubles when also S1 == S2, else
    // the points are inverses and the sum is the identity.
    CUZK_HD Jacobian add(const Jacobian& q) const {
        if (is_identity()) return q;
        if (q.is_identity()) return *this;
        F Z1Z1 = Z.square();    // Z1Z1 = Z1^2
        F Z2Z2 = q.Z.square();  // Z2Z2 = Z2^2
        F U1 = X * Z2Z2;        // U1 = X1 Z2Z2
        F U2 = q.X * Z1Z1;      // U2 = X2 Z1Z1
        F S1 = Y * q.Z * Z2Z2;  // S1 = Y1 Z2 Z2Z2
        F S2 = q.Y * Z * Z1Z1;  // S2 = Y2 Z1 Z1Z1
        F H = U2 - U1;          // H = U2 - U1
        F r = (S2 - S1).dbl();  // r = 2 (S2 - S1)
        if (H.is_zero()) {
            if (r.is_zero()) return dbl();
            return identity();
        }
        F I = H.dbl().square();  // I = (2H)^2
        F J = H * I;             // J = H I
        F V = U1 * I;            // V = U1 I
        Jacobian out;
        out.X = r.square() - J - V.dbl();                // X3 = r^2 - J - 2V
        out.Y = r * (V - out.X) - (S1 * J).dbl();        // Y3 = r (V - X3) - 2 S1 J
        out.Z = ((Z + q.Z).square() - Z1Z1 - Z2Z2) * H;  // Z3 = ((Z1+Z2)^2 - Z1Z1 - Z2Z2) H
        return out;
    }

    // madd-2007-bl (Z2 = 1): 7M + 4S.
    CUZK_HD Jacobian add(const AffinePoint& q) const {
        if (q.infinity) return *this;
        if (is_identity()) return from_affine(q);
        F Z1Z1 = Z.square();    // Z1Z1 = Z1^2
        F U2 = q.x * Z1Z1;      // U2 = X2 Z1Z1
        F S2 = q.y * Z * Z1Z1;  // S2 = Y2 Z1 Z1Z1
        F H = U2 - X;           // H = U2 - X1
        F r = (S2 - Y).dbl();   // r = 2 (S2 - Y1)
        if (H.is_zero()) {
            if (r.is_zero()) return dbl();
            return identity();
        }
        F HH = H.square();     // HH = H^2
        F I = HH.dbl().dbl();  // I = 4 HH
        F J = H * I;           // J = H I
        F V = X * I;           // V = X1 I
        Jacobian out;
        out.X = r.square() - J - V.dbl();         // X3 = r^2 - J - 2V
        out.Y = r * (V - out.X) - (Y * J).dbl();  // Y3 = r (V - X3) - 2 Y1 J
        out.Z = (Z + H).square() - Z1Z1 - HH;     // Z3 = (Z1 + H)^2 - Z1Z1 - HH
        return out;
    }

    CUZK_HD Jacobian sub(const Jacobian& q) const { return add(-q); }
    CUZK_HD Jacobian sub(const AffinePoint& q) const { return add(-q); }
    CUZK_HD friend Jacobian operator+(const Jacobian& p, const Jacobian& q) { return p.add(q); }
    CUZK_HD friend Jacobian operator+(const Jacobian& p, const AffinePoint& q) { return p.add(q); }
    CUZK_HD friend Jacobian operator-(const Jacobian& p, const Jacobian& q) { return p.sub(q); }
    CUZK_HD Jacobian& operator+=(const Jacobian& q) { return *this = add(q); }
    CUZK_HD Jacobian& operator+=(const AffinePoint& q) { return *this = add(q); }
    CUZK_HD Jacobian& operator-=(const Jacobian& q) { return *this = sub(q); }

    // One inversion: x = X / Z^2, y = Y / Z^3.
    CUZK_HD AffinePoint to_affine() const {
        if (is_identity()) return AffinePoint::identity();
        F zi = Z.inverse();
        F zi2 = zi.square();
        return {X * zi2, Y * zi2 * zi, false};
    }
};

// Converts many Jacobian points to affine with one field inversion (Montgomery's
// trick): 3(n-1) M for the products, then 1 inversion, then 3 M + 1 S per point.
// Identities are skipped (they map to the affine identity and cost nothing).
template <class Curve>
void batch_to_affine(std::span<const Jacobian<Curve>> in, std::span<Affine<Curve>> out) {
    using F = typename Curve::Field;
    const size_t n = in.size() < out.size() ? in.size() : out.size();
    std::vector<F> prefix(n);
    F acc = F::one();
    for (size_t i = 0; i < n; ++i) {
        prefix[i] = acc;  // product of the nonzero Z before i
        if (!in[i].is_identity()) acc *= in[i].Z;
    }
    F inv = acc.inverse();
    for (size_t i = n; i-- > 0;) {
        if (in[i].is_identity()) {
            out[i] = Affine<Curve>::identity();
            continue;
        }
        F zi = inv * prefix[i];  // 1/Z_i
        inv *= in[i].Z;          // drop Z_i from the running inverse
        F zi2 = zi.square();
        out[i] = {in[i].X * zi2, in[i].Y * zi2 * zi, false};
    }
}

template <class Curve>
std::vector<Affine<Curve>> batch_to_affine(std::span<const Jacobian<Curve>> in) {
    std::vector<Affine<Curve>> out(in.size());
    batch_to_affine<Curve>(in, std::span<Affine<Curve>>(out));
    return out;
}

// The distinct points (i + 1) * G for i < n, by repeated addition and one batch
// conversion: cheap bases for MSM tests and benchmarks (about 1 us a point on the CPU).
template <class Curve>
std::vector<Affine<Curve>> generator_multiples(size_t n) {
    std::vector<Jacobian<Curve>> js(n);
    Jacobian<Curve> g = Jacobian<Curve>::generator(), acc = g;
    for (size_t i = 0; i < n; ++i) {
        js[i] = acc;
        acc += g;
    }
    return batch_to_affine<Curve>(std::span<const Jacobian<Curve>>(js));
}

using G1Jacobian = Jacobian<G1Curve>;
using G2Jacobian = Jacobian<G2Curve>;

}  // namespace cuzk
