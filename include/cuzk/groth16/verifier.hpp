// Groth16 verification: e(A, B) = e(alpha, beta) e(sum_i x_i IC_i, gamma) e(C, delta),
// checked as one multi-Miller loop e(A, B) e(IC, -gamma) e(C, -delta) and one final
// exponentiation compared with the precomputed e(alpha, beta).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "cuzk/groth16/keys.hpp"
#include "cuzk/pairing/pairing.hpp"

namespace cuzk::groth16 {

struct PreparedVerifyingKey {
    explicit PreparedVerifyingKey(const VerifyingKey& vk);
    VerifyingKey vk;
    Fp12 alpha_beta;                  // e(alpha_g1, beta_g2)
    G2Prepared neg_gamma, neg_delta;  // -gamma_g2, -delta_g2 with their line coefficients
};

// Outcome of a verification; `error` says why a proof was rejected.
struct VerifyResult {
    bool ok = false;
    std::string error;
    explicit operator bool() const { return ok; }
};

// public_inputs excludes ONE (as bellperson and Filecoin pass them).
VerifyResult verify(const PreparedVerifyingKey& pvk, const Proof& proof, std::span<const Fr> public_inputs);

// Many proofs of one key: a random linear combination with 128-bit coefficients, one
// multi-Miller loop and one final exponentiation. When the batch fails, bisection finds
// the bad proofs; `bad` (if given) receives their indices, ascending.
bool verify_batch(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs,
                  std::span<const std::vector<Fr>> public_inputs, std::vector<size_t>* bad = nullptr);

}  // namespace cuzk::groth16
