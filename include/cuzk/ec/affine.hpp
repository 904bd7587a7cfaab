// Curve descriptions and affine points of BLS12-381: the contract between the ec layer
// (Jacobian/XYZZ arithmetic, encodings) and its users (pairing, msm, groth16). A curve
// gives Field (of the coordinates), Scalar (the field of the group order r), b() and the
// generator; BN254's are in bn254.hpp.
//   G1: y^2 = x^3 + 4 over Fp
//   G2: y^2 = x^3 + 4(1 + u) over Fp2 (the M-type sextic twist)
// Generators from draft-irtf-cfrg-pairing-friendly-curves-11, section 4.2.1.
#pragma once

#include "cuzk/common/hd.hpp"
#include "cuzk/ff/fp2.hpp"

namespace cuzk {

struct G1Curve {
    using Field = Fp;
    using Scalar = Fr;  // the group order's field
    static constexpr const char* kName = "G1";
    static Fp b() { return Fp::from_u64(4); }
    static Fp generator_x();
    static Fp generator_y();
};

struct G2Curve {
    using Field = Fp2;
    using Scalar = Fr;
    static constexpr const char* kName = "G2";
    static Fp2 b() { return {Fp::from_u64(4), Fp::from_u64(4)}; }
    static Fp2 generator_x();
    static Fp2 generator_y();
};

// An affine point; the point at infinity has infinity = true and x = y = 0.
// Same layout on host and device.
template <class Curve>
struct Affine {
    using F = typename Curve::Field;
    F x, y;
    bool infinity;

    CUZK_HD static Affine identity() { return {F::zero(), F::zero(), true}; }
    static Affine generator() { return {Curve::generator_x(), Curve::generator_y(), false}; }
    CUZK_HD bool is_identity() const { return infinity; }
    // y^2 == x^3 + b (the identity counts as on the curve).
    bool is_on_curve() const { return infinity || y.square() == x.square() * x + Curve::b(); }
    CUZK_HD Affine operator-() const { return infinity ? *this : Affine{x, -y, false}; }
    CUZK_HD friend bool operator==(const Affine& a, const Affine& b) {
        if (a.infinity || b.infinity) return a.infinity == b.infinity;
        return a.x == b.x && a.y == b.y;
    }
    CUZK_HD friend bool operator!=(const Affine& a, const Affine& b) { return !(a == b); }
};

using G1Affine = Affine<G1Curve>;
using G2Affine = Affine<G2Curve>;

// The BLS parameter x = -0xd201000000010000 (|x| and its sign), used by the pairing,
// the endomorphism subgroup checks and cofactor clearing.
inline constexpr uint64_t kBlsXAbs = 0xd201000000010000ULL;
inline constexpr bool kBlsXIsNegative = true;

}  // namespace cuzk
