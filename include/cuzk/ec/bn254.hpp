// BN254 (alt_bn128) G1 and G2 on the generic ec layer (Affine/Jacobian/XYZZ over a curve
// description), with Ethereum's point encoding.
//   G1: y^2 = x^3 + 3 over Fp, prime order r (cofactor 1), generator (1, 2)
//   G2: y^2 = x^3 + 3/(9 + u) over Fp2 (the D-type sextic twist), order h2 r with
//       h2 = 2p - r; generator from EIP-197
// Encoding (EIP-196, EIP-197; go-ethereum's bn256 precompiles): uncompressed only, each Fp
// coordinate 32 bytes big-endian; G1 x || y (64 bytes), G2 x || y (128 bytes) with an Fp2
// element c0 + c1 u written c1 then c0 (imaginary part first). The point at infinity is all
// zero bytes ((0, 0) is on neither curve). Decoding checks, in this order: length,
// coordinates < p, curve equation, subgroup (G2 only; Validation::kNoSubgroupCheck skips it).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/ec/xyzz.hpp"
#include "cuzk/ff/bn254_tower.hpp"

namespace cuzk::bn254 {

struct G1Curve {
    using Field = Fp;
    using Scalar = Fr;
    static constexpr const char* kName = "BN254 G1";
    static Fp b() { return Fp::from_u64(3); }
    static Fp generator_x() { return Fp::from_u64(1); }
    static Fp generator_y() { return Fp::from_u64(2); }
};

struct G2Curve {
    using Field = Fp2;
    using Scalar = Fr;
    static constexpr const char* kName = "BN254 G2";
    static Fp2 b();  // 3/(9 + u)
    static Fp2 generator_x();
    static Fp2 generator_y();
};

using G1Affine = Affine<G1Curve>;
using G2Affine = Affine<G2Curve>;
using G1Jacobian = Jacobian<G1Curve>;
using G2Jacobian = Jacobian<G2Curve>;
using G1Xyzz = XYZZ<G1Curve>;
using G2Xyzz = XYZZ<G2Curve>;

// psi = twist^-1 o Frobenius o twist on E'(Fp2): (x, y) -> (conj(x) gamma_1^2, conj(y) gamma_1^3)
// with gamma_1^e = xi^(e(p - 1)/6) (the tower's Frobenius constants). On G2 it acts as [p].
G2Affine psi(const G2Affine& q);

G2Jacobian psi(const G2Jacobian& q);

// G1 has prime order: every point on the curve is in it. G2: an endomorphism test with one
// multiplication by x (src/ec/bn254.cpp), equivalent to [r] Q == O.
inline bool is_in_subgroup(const G1Jacobian&) { return true; }
inline bool is_in_subgroup(const G1Affine&) { return true; }
bool is_in_subgroup(const G2Jacobian& q);
inline bool is_in_subgroup(const G2Affine& q) { return is_in_subgroup(G2Jacobian::from_affine(q)); }

// Cofactor clearing (random_subgroup_point): G1 the identity map, G2 [h2] Q.
inline G1Jacobian clear_cofactor(const G1Jacobian& p) { return p; }
G2Jacobian clear_cofactor(const G2Jacobian& q);

inline constexpr size_t kG1EthBytes = 64;
inline constexpr size_t kG2EthBytes = 128;

std::array<uint8_t, kG1EthBytes> to_eth_bytes(const G1Affine& p);
std::array<uint8_t, kG2EthBytes> to_eth_bytes(const G2Affine& q);
// Errors: kWrongLengthEthereum, kCoordinateNotInField, kNotOnCurve, kNotInSubgroup.
DecodeResult<G1Affine> decode_eth_g1(std::span<const uint8_t> bytes, Validation v = Validation::kFull);
DecodeResult<G2Affine> decode_eth_g2(std::span<const uint8_t> bytes, Validation v = Validation::kFull);

}  // namespace cuzk::bn254
