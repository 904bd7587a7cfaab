// Parameter generation for tests and development (NOT a trusted setup: whoever runs it
// knows the toxic waste). Follows bellperson's generator (src/groth16/generator.rs):
// Lagrange coefficients at tau by an inverse FFT of the powers of tau, then per variable
// a_j(tau), b_j(tau), c_j(tau) from the shape's columns, then fixed-base multiplications.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "cuzk/common/cancel.hpp"
#include "cuzk/groth16/keys.hpp"
#include "cuzk/r1cs/shape.hpp"

namespace cuzk::groth16 {

// F: the scalar field (BN254's for snarkjs keys, cuzk/groth16/zkey.hpp).
template <class F>
struct ToxicWasteT {
    F tau, alpha, beta, gamma, delta;
    static ToxicWasteT random();                  // from std::random_device
    static ToxicWasteT from_seed(uint64_t seed);  // reproducible, for tests and benchmarks
};
using ToxicWaste = ToxicWasteT<Fr>;

// Progress: (stage name, done, total), called from the setup thread now and then.
using SetupProgress = std::function<void(const char* stage, size_t done, size_t total)>;

// Throws std::invalid_argument for a shape without the input constraints (fewer
// constraints than inputs) or too large a domain, and when tau makes Z(tau) zero.
// `cancel` is checked between the stages and every 2,048 points of the multiplications;
// when it turns true, setup throws cuzk::Cancelled.
Parameters setup(const r1cs::Shape& shape, const ToxicWaste& tw, const SetupProgress& progress = {},
                 const CancelCheck& cancel = {});

}  // namespace cuzk::groth16
