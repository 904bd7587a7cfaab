// The curves of the circom/snarkjs world as cuzk's templates take them: a description holds
// the fields, the groups and the names snarkjs and circom give the curve. The snarkjs key,
// witness and constraint files (cuzk/groth16/zkey.hpp, cuzk/formats/circom.hpp) and its JSON
// (cuzk/formats/snarkjs.hpp) are templates over one of these.
#pragma once

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/fp12.hpp"
#include "cuzk/groth16/keys.hpp"

namespace cuzk::groth16 {

struct Bls12_381 {
    using Fq = cuzk::Fp;
    using Fq2 = cuzk::Fp2;
    using Fq6 = cuzk::Fp6;
    using Fq12 = cuzk::Fp12;
    using Fr = cuzk::Fr;
    using G1 = G1Curve;
    using G2 = G2Curve;
    static constexpr const char* kName = "BLS12-381";
    static constexpr const char* kSnarkjsName = "bls12381";  // "curve" in snarkjs JSON
    static constexpr const char* kCircomPrime = "bls12381";  // circom --prime
};

// BN254 (alt_bn128), which snarkjs and circom call bn128.
struct Bn254 {
    using Fq = bn254::Fp;
    using Fq2 = bn254::Fp2;
    using Fq6 = bn254::Fp6;
    using Fq12 = bn254::Fp12;
    using Fr = bn254::Fr;
    using G1 = bn254::G1Curve;
    using G2 = bn254::G2Curve;
    static constexpr const char* kName = "BN254";
    static constexpr const char* kSnarkjsName = "bn128";
    static constexpr const char* kCircomPrime = "bn128";
};

// A Groth16 proof and verifying key on curve E.
template <class E>
using ProofOn = ProofT<typename E::G1, typename E::G2>;
template <class E>
using VerifyingKeyOn = VerifyingKeyT<typename E::G1, typename E::G2>;

// Which of the two a file or a JSON names.
enum class SnarkjsCurve { kBls12_381, kBn254 };

// Calls f with the description of curve c (f(Bls12_381{}) or f(Bn254{})): the one place
// where a curve read from a file becomes a template argument.
template <class F>
decltype(auto) with_curve(SnarkjsCurve c, F&& f) {
    if (c == SnarkjsCurve::kBn254) return f(Bn254{});
    return f(Bls12_381{});
}

}  // namespace cuzk::groth16
