// snarkjs JSON files for Groth16 on BLS12-381 and BN254 (iden3/snarkjs 0.7: src/zkey_export_
// verificationkey.js writes the vk, src/groth16_verify.js reads all three):
//
//   verification_key.json  {"protocol":"groth16","curve":"bls12381","nPublic":n,
//                           "vk_alpha_1":G1,"vk_beta_2":G2,"vk_gamma_2":G2,"vk_delta_2":G2,
//                           "vk_alphabeta_12":Fp12,"IC":[G1 x (n+1)]}
//   proof.json             {"pi_a":G1,"pi_b":G2,"pi_c":G1,"protocol":"groth16","curve":"bls12381"}
//   public.json            ["<decimal Fr>", ...]   the public inputs without ONE
//
// Values are decimal strings of canonical (not Montgomery) integers. Points are
// projective with z = 1 (ffjavascript's toObject of an affine point):
//   G1 = [x, y, "1"],  G2 = [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]]
// and the point at infinity is [0, 1, 0] (G2: [["0","0"],["1","0"],["0","0"]]).
// Fp12 is [2][3][2]: c0/c1 of Fp12 over Fp6, c0/c1/c2 of Fp6 over Fp2, c0/c1 of Fp2;
// ffjavascript's tower (Fp6 = Fp2[v]/(v^3 - (1+u)), Fp12 = Fp6[w]/(w^2 - v)) is cuzk's.
// "curve" is "bls12381" or "bn128" (BN254): every function is a template over the curve
// description (cuzk/groth16/curves.hpp), BLS12-381 by default; a file naming the other
// curve is refused. vk_alphabeta_12 is e(alpha, beta) as cuzk's pairing computes it, the
// value snarkjs writes on both curves (tests/groth16/test_zkey.cpp checks it).
//
// Readers throw FormatError naming the file and the JSON path of the bad value
// ("pi_b[1][0]", "IC[3]"): malformed JSON, a missing or mistyped field, a value that is
// not a decimal integer below the modulus, a point off the curve or outside the
// subgroup (ReadOptions::check_subgroup), nPublic disagreeing with IC.
#pragma once

#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/formats/bellperson.hpp"
#include "cuzk/groth16/curves.hpp"
#include "cuzk/groth16/keys.hpp"

namespace cuzk::formats::snarkjs {

using groth16::Bls12_381;

// What verification_key.json holds (it has no beta_g1 or delta_g1).
template <class E = Bls12_381>
struct VerificationKeyT {
    Affine<typename E::G1> alpha_1;
    Affine<typename E::G2> beta_2, gamma_2, delta_2;
    typename E::Fq12 alphabeta_12;           // e(alpha_1, beta_2), precomputed by snarkjs
    std::vector<Affine<typename E::G1>> ic;  // nPublic + 1 points
    size_t n_public() const { return ic.empty() ? 0 : ic.size() - 1; }

    // A groth16::VerifyingKey with beta_g1 and delta_g1 left at infinity (unknown here;
    // the verifier does not use them).
    groth16::VerifyingKeyOn<E> to_verifying_key() const;
};
using VerificationKey = VerificationKeyT<>;

// alphabeta = e(alpha_g1, beta_g2), computed by the caller (the pairing layer).
template <class E = Bls12_381>
std::string vk_to_json(const groth16::VerifyingKeyOn<E>& vk, const typename E::Fq12& alphabeta);
template <class E = Bls12_381>
std::string proof_to_json(const groth16::ProofOn<E>& proof);
// The public inputs without ONE, in circuit order.
template <class E = Bls12_381>
std::string public_to_json(std::span<const typename E::Fr> inputs);

template <class E = Bls12_381>
VerificationKeyT<E> parse_vk(std::string_view json, const ReadOptions& opt = {}, std::string_view name = "<memory>");
template <class E = Bls12_381>
groth16::ProofOn<E> parse_proof(std::string_view json, std::string_view name = "<memory>");
template <class E = Bls12_381>
std::vector<typename E::Fr> parse_public(std::string_view json, std::string_view name = "<memory>");
// The curve a verification_key.json names in "curve" (FormatError when it is missing or
// neither "bls12381" nor "bn128").
groth16::SnarkjsCurve parse_vk_curve(std::string_view json, std::string_view name = "<memory>");

// File forms of the above (written atomically; read whole).
template <class E = Bls12_381>
void write_vk(const groth16::VerifyingKeyOn<E>& vk, const typename E::Fq12& alphabeta,
              const std::filesystem::path& file);
template <class E = Bls12_381>
void write_proof(const groth16::ProofOn<E>& proof, const std::filesystem::path& file);
template <class E = Bls12_381>
void write_public(std::span<const typename E::Fr> inputs, const std::filesystem::path& file);
template <class E = Bls12_381>
VerificationKeyT<E> read_vk(const std::filesystem::path& file, const ReadOptions& opt = {});
template <class E = Bls12_381>
groth16::ProofOn<E> read_proof(const std::filesystem::path& file);
template <class E = Bls12_381>
std::vector<typename E::Fr> read_public(const std::filesystem::path& file);
groth16::SnarkjsCurve read_vk_curve(const std::filesystem::path& file);

}  // namespace cuzk::formats::snarkjs
