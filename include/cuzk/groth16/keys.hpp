// Groth16 keys and proofs, laid out as bellperson's (filecoin-project/bellperson
// src/groth16/{parameters,proof}.rs) so that files convert byte for byte:
//   vk:  alpha_g1, beta_g1, beta_g2, gamma_g2, delta_g1, delta_g2, ic[num_inputs]
//   h:   m-1 points tau^i Z(tau) / delta            (m = domain size)
//   l:   one point per aux variable (beta a_j + alpha b_j + c_j) / delta
//   a:   inputs, then aux variables whose A column is non-zero; points at infinity left out
//   b_g1, b_g2: inputs then aux variables whose B column is non-zero, likewise
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ff/fp12.hpp"

namespace cuzk::groth16 {

struct VerifyingKey {
    G1Affine alpha_g1, beta_g1;
    G2Affine beta_g2, gamma_g2;
    G1Affine delta_g1;
    G2Affine delta_g2;
    std::vector<G1Affine> ic;  // one per public input, ONE first

    size_t num_inputs() const { return ic.size(); }  // ONE included
    friend bool operator==(const VerifyingKey&, const VerifyingKey&) = default;
};

struct Parameters {
    VerifyingKey vk;
    std::vector<G1Affine> h, l, a, b_g1;
    std::vector<G2Affine> b_g2;

    friend bool operator==(const Parameters&, const Parameters&) = default;
};

struct Proof {
    G1Affine a;
    G2Affine b;
    G1Affine c;
    friend bool operator==(const Proof&, const Proof&) = default;
};

}  // namespace cuzk::groth16
