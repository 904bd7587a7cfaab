// The optimal ate pairing of BLS12-381, e: G1 x G2 -> GT in Fp12, as computed by
// zkcrypto/bls12_381 and blst (the same Fp12 tower and the same final exponent, so values
// agree limb for limb):
//   e(P, Q) = f_{x,Q}(P)^(3 (p^12 - 1) / r)   with x = -0xd201000000010000.
// (The factor 3 comes from the hard part's decomposition, see final_exponentiation; a
// fixed power coprime to r, so the map stays a non-degenerate bilinear pairing.)
//
// The optimal ate pairing of BN254 (bn254:: below) shares the Miller loop, the line
// functions and the tower code; it differs in the loop scalar (6x + 2 in signed digits, then
// two lines through the Frobenius images of Q), the twist type (D instead of M) and the
// final exponentiation's hard part:
//   e(P, Q) = (f_{6x+2,Q}(P) l_{T,psi(Q)}(P) l_{T',-psi^2(Q)}(P))^((p^12 - 1)/r * m)
// with m = 2x(6x^2 + 3x + 1) (coprime to r), the hard part of Fuentes-Castaneda, Knapp and
// Rodriguez-Henriquez, "Faster hashing to G2", SAC 2011, section 6 (as arkworks and
// gnark-crypto compute it). ffjavascript (snarkjs) computes the same value: the
// vk_alphabeta_12 of a snarkjs verification_key.json equals cuzk's e(alpha, beta)
// (tests/groth16/test_zkey.cpp).
//
// Inputs must lie in the prime-order subgroups (the ec layer's decoders check that); a
// point off its curve is rejected with std::invalid_argument. The point at infinity on
// either side contributes 1.
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/ff/fp12.hpp"

namespace cuzk {

// One line function of the Miller loop with P = (xP, yP) factored out. M-type twist
// (BLS12-381): the line at P is c0 + (c1 xP) w^2 + (c2 yP) w^3 (Fp12::mul_by_014); D-type
// (BN254): (c0 yP) + (c1 xP) w + c2 w^3 (Fp12::mul_by_034).
template <class Fp2T_>
struct LineCoeffsT {
    Fp2T_ c0, c1, c2;
};
using LineCoeffs = LineCoeffsT<Fp2>;

// The line functions of the Miller loop of a fixed G2 point, computed once: a verifier
// with a fixed key (gamma, delta in G2) skips all G2 arithmetic in its Miller loops.
// BLS12-381: 63 doubling lines and 5 addition lines, in loop order (68 x 288 bytes);
// BN254: 65 doublings, 21 additions and the 2 Frobenius lines.
template <class G2C>
struct G2PreparedT {
    bool infinity = true;
    std::vector<LineCoeffsT<typename G2C::Field>> lines;

    G2PreparedT() = default;
    // Throws std::invalid_argument when q is not on the curve.
    explicit G2PreparedT(const Affine<G2C>& q);
};
using G2Prepared = G2PreparedT<G2Curve>;

// f_{x,Q}(P) (conjugated for the negative x), before the final exponentiation.
Fp12 miller_loop(const G1Affine& p, const G2Affine& q);

// The product of the Miller loops of all pairs, with one Fp12 squaring per loop step
// shared by all of them. An empty span gives 1.
Fp12 multi_miller_loop(std::span<const std::pair<G1Affine, G2Affine>> pairs);
Fp12 multi_miller_loop(std::span<const std::pair<G1Affine, const G2Prepared*>> pairs);

// f^(3 (p^12 - 1) / r): easy part (p^6 - 1)(p^2 + 1), then the hard part
// 3 (p^4 - p^2 + 1) / r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3 (Hayashida, Hayasaka and
// Teruya, ePrint 2020/875, section 4). Zero maps to zero (a Miller loop never gives zero).
Fp12 final_exponentiation(const Fp12& f);

// e(P, Q) = final_exponentiation(miller_loop(P, Q)).
Fp12 pairing(const G1Affine& p, const G2Affine& q);

// prod_i e(P_i, Q_i) == 1 with one shared Miller loop and one final exponentiation (the
// Groth16 check e(A, B) e(-alpha, beta) e(-L, gamma) e(-C, delta) == 1).
bool pairing_product_is_one(std::span<const std::pair<G1Affine, G2Affine>> pairs);
bool pairing_product_is_one(std::span<const std::pair<G1Affine, const G2Prepared*>> pairs);

// The same interface for BN254 (found by argument-dependent lookup on BN254 points).
namespace bn254 {
using G2Prepared = G2PreparedT<G2Curve>;
Fp12 miller_loop(const G1Affine& p, const G2Affine& q);
Fp12 multi_miller_loop(std::span<const std::pair<G1Affine, G2Affine>> pairs);
Fp12 multi_miller_loop(std::span<const std::pair<G1Affine, const G2Prepared*>> pairs);
// f^((p^12 - 1)/r * 2x(6x^2 + 3x + 1)): the easy part (p^6 - 1)(p^2 + 1), then the hard part
// by 3 exponentiations by x, 13 multiplications and 3 Frobenius maps.
Fp12 final_exponentiation(const Fp12& f);
Fp12 pairing(const G1Affine& p, const G2Affine& q);
bool pairing_product_is_one(std::span<const std::pair<G1Affine, G2Affine>> pairs);
bool pairing_product_is_one(std::span<const std::pair<G1Affine, const G2Prepared*>> pairs);
}  // namespace bn254

}  // namespace cuzk
