// snarkjs JSON files for Groth16 on BLS12-381 (iden3/snarkjs 0.7: src/zkey_export_
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

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/fp12.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/groth16/keys.hpp"

namespace cuzk::formats::snarkjs {

// What verification_key.json holds (it has no beta_g1 or delta_g1).
struct VerificationKey {
    G1Affine alpha_1;
    G2Affine beta_2, gamma_2, delta_2;
    Fp12 alphabeta_12;         // e(alpha_1, beta_2), precomputed by snarkjs
    std::vector<G1Affine> ic;  // nPublic + 1 points
    size_t n_public() const { return ic.empty() ? 0 : ic.size() - 1; }

    // A groth16::VerifyingKey with beta_g1 and delta_g1 left at infinity (unknown here;
    // the verifier does not use them).
    groth16::VerifyingKey to_verifying_key() const;
};

// alphabeta = e(alpha_g1, beta_g2), computed by the caller (the pairing layer).
std::string vk_to_json(const groth16::VerifyingKey& vk, const Fp12& alphabeta);
std::string proof_to_json(const groth16::Proof& proof);
// The public inputs without ONE, in circuit order.
std::string public_to_json(std::span<const Fr> inputs);

VerificationKey parse_vk(std::string_view json, const ReadOptions& opt = {}, std::string_view name = "<memory>");
groth16::Proof parse_proof(std::string_view json, std::string_view name = "<memory>");
std::vector<Fr> parse_public(std::string_view json, std::string_view name = "<memory>");

// File forms of the above (written atomically; read whole).
void write_vk(const groth16::VerifyingKey& vk, const Fp12& alphabeta, const std::filesystem::path& file);
void write_proof(const groth16::Proof& proof, const std::filesystem::path& file);
void write_public(std::span<const Fr> inputs, const std::filesystem::path& file);
VerificationKey read_vk(const std::filesystem::path& file, const ReadOptions& opt = {});
groth16::Proof read_proof(const std::filesystem::path& file);
std::vector<Fr> read_public(const std::filesystem::path& file);

}  // namespace cuzk::formats::snarkjs
