// Subgroup membership, cofactor clearing and random points for BLS12-381 G1 and G2.
//
// E(Fp) has order h1 * r and E'(Fp2) order h2 * r; G1 and G2 are the order-r subgroups.
// A point read from outside must be checked to lie in them (small-subgroup attacks).
//   fast:      G1: phi(P) == [-x^2] P   G2: psi(P) == [x] P   (ePrint 2021/1130)
//              each about 2 x 64 doublings (G1) or 64 doublings (G2) plus a few adds
//   reference: [r] P == O, about 255 doublings + 51 additions (wNAF)
// Both assume P is on the curve (the decoders check that first).
#pragma once

#include <cstdint>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/psi.hpp"
#include "cuzk/ec/scalar_mul.hpp"

namespace cuzk {

// Effective G1 cofactor h_eff = 1 - x (draft-irtf-cfrg-hash-to-curve-16, section 8.8.1).
inline constexpr uint64_t kG1CofactorEff = 0xd201000000010001ULL;

// [|x|] P by double-and-add: |x| = 0xd201000000010000 has 6 set bits, so 63 doublings
// and 5 additions, cheaper than wNAF for this sparse scalar.
template <class Curve>
CUZK_HD Jacobian<Curve> mul_by_x_abs(const Jacobian<Curve>& p) {
    return mul_double_and_add(p, BigInt<1>::from_u64(kBlsXAbs));
}
// [x] P with the negative x of BLS12-381.
template <class Curve>
CUZK_HD Jacobian<Curve> mul_by_x(const Jacobian<Curve>& p) {
    return -mul_by_x_abs(p);
}

bool is_in_subgroup(const G1Jacobian& p);
bool is_in_subgroup(const G2Jacobian& p);
inline bool is_in_subgroup(const G1Affine& p) { return is_in_subgroup(G1Jacobian::from_affine(p)); }
inline bool is_in_subgroup(const G2Affine& p) { return is_in_subgroup(G2Jacobian::from_affine(p)); }

// [r] P == O with r the order of the curve's scalar field.
template <class Curve>
bool is_in_subgroup_reference(const Jacobian<Curve>& p) {
    return mul_wnaf(p, Curve::Scalar::kP).is_identity();
}
template <class Curve>
bool is_in_subgroup_reference(const Affine<Curve>& p) {
    return is_in_subgroup_reference(Jacobian<Curve>::from_affine(p));
}

// G1: [h_eff] P with h_eff = 1 - x, computed as P + [|x|] P (x < 0).
G1Jacobian clear_cofactor(const G1Jacobian& p);
// G2: [h_eff] P by the endomorphism method of Budroni and Pintore (ePrint 2017/419),
// as written in draft-irtf-cfrg-hash-to-curve-16 appendix G.3:
//   h_eff P = [x^2 - x - 1] P + [x - 1] psi(P) + psi^2(2P).
G2Jacobian clear_cofactor(const G2Jacobian& p);

// A uniformly random point of E (not of the subgroup): random x until x^3 + b is a
// square, then a random one of the two roots. Hash-free, for tests and benchmarks.
template <class Curve, class Rng>
Affine<Curve> random_curve_point(Rng& rng) {
    using F = typename Curve::Field;
    for (;;) {
        F x = F::random(rng);
        auto y = (x.square() * x + Curve::b()).sqrt();
        if (!y) continue;
        if (rng() & 1) *y = -*y;
        return {x, *y, false};
    }
}

// A random point of G1 or G2: a random curve point with its cofactor cleared.
template <class Curve, class Rng>
Affine<Curve> random_subgroup_point(Rng& rng) {
    for (;;) {
        Jacobian<Curve> q = clear_cofactor(Jacobian<Curve>::from_affine(random_curve_point<Curve>(rng)));
        if (!q.is_identity()) return q.to_affine();
    }
}

}  // namespace cuzk
