// Groth16 verification: e(A, B) = e(alpha, beta) e(sum_i x_i IC_i, gamma) e(C, delta),
// checked as one multi-Miller loop e(A, B) e(IC, -gamma) e(C, -delta) and one final
// exponentiation compared with the precomputed e(alpha, beta). Templates over the G1 and G2
// curve descriptions, built for BLS12-381 and BN254 (snarkjs keys, cuzk/groth16/zkey.hpp).
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/groth16/keys.hpp"
#include "cuzk/pairing/pairing.hpp"

namespace cuzk::groth16 {

template <class G1C, class G2C>
struct PreparedVerifyingKeyT {
    // The pairing's target group (Fp12 of the curve's tower).
    using GT = decltype(pairing(std::declval<Affine<G1C>>(), std::declval<Affine<G2C>>()));
    explicit PreparedVerifyingKeyT(const VerifyingKeyT<G1C, G2C>& vk);
    VerifyingKeyT<G1C, G2C> vk;
    GT alpha_beta;                          // e(alpha_g1, beta_g2)
    G2PreparedT<G2C> neg_gamma, neg_delta;  // -gamma_g2, -delta_g2 with their line coefficients
};
using PreparedVerifyingKey = PreparedVerifyingKeyT<G1Curve, G2Curve>;

// Outcome of a verification; `error` says why a proof was rejected.
struct VerifyResult {
    bool ok = false;
    std::string error;
    explicit operator bool() const { return ok; }
};

// public_inputs excludes ONE (as bellperson and Filecoin pass them).
template <class G1C, class G2C>
VerifyResult verify(const PreparedVerifyingKeyT<G1C, G2C>& pvk, const ProofT<G1C, G2C>& proof,
                    std::span<const typename G1C::Scalar> public_inputs);

// Many proofs of one key: a random linear combination with 128-bit coefficients, one
// multi-Miller loop and one final exponentiation. When the batch fails, bisection finds
// the bad proofs; `bad` (if given) receives their indices, ascending.
bool verify_batch(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs,
                  std::span<const std::vector<Fr>> public_inputs, std::vector<size_t>* bad = nullptr);

}  // namespace cuzk::groth16
