// Groth16 keys and proofs, laid out as bellperson's (filecoin-project/bellperson
// src/groth16/{parameters,proof}.rs) so that files convert byte for byte:
//   vk:  alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2, ic[num_inputs]
//   h:   m-1 points tau^i Z(tau) / delta            (m = domain size)
//   l:   one point per aux variable (beta a_j + alpha b_j + c_j) / delta
//   a:   inputs, then aux variables whose A column is non-zero; points at infinity left out
//   b_g1, b_g2: inputs then aux variables whose B column is non-zero, likewise
// The verifying key and the proof are templates over the G1 and G2 curve descriptions
// (BLS12-381's by the aliases below; BN254's for snarkjs keys, cuzk/groth16/zkey.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ff/fp12.hpp"

namespace cuzk::groth16 {

template <class G1C, class G2C>
struct VerifyingKeyT {
    Affine<G1C> alpha_g1, beta_g1;
    Affine<G2C> beta_g2, gamma_g2;
    Affine<G1C> delta_g1;
    Affine<G2C> delta_g2;
    std::vector<Affine<G1C>> ic;  // one per public input, ONE first

    size_t num_inputs() const { return ic.size(); }  // ONE included
    friend bool operator==(const VerifyingKeyT&, const VerifyingKeyT&) = default;
};
using VerifyingKey = VerifyingKeyT<G1Curve, G2Curve>;

struct Parameters {
    VerifyingKey vk;
    std::vector<G1Affine> h, l, a, b_g1;
    std::vector<G2Affine> b_g2;

    friend bool operator==(const Parameters&, const Parameters&) = default;
};

template <class G1C, class G2C>
struct ProofT {
    Affine<G1C> a;
    Affine<G2C> b;
    Affine<G1C> c;
    friend bool operator==(const ProofT&, const ProofT&) = default;
};
using Proof = ProofT<G1Curve, G2Curve>;

}  // namespace cuzk::groth16
