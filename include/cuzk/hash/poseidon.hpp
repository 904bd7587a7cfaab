// Poseidon over BLS12-381 Fr exactly as neptune computes it for Filecoin (neptune v11..14,
// argumentcomputer/neptune; the constants and test vectors also match filecoin-project/neptune):
// the constants and the native hash (the hash layer; the circuit is cuzk/gadgets/poseidon.hpp).
//
// Native hashing (src/hash/poseidon.cpp):
//   poseidon_hash_reference  the plain permutation (neptune src/poseidon_alt.rs::hash_correct):
//                            RF/2 full rounds, RP partial rounds (S-box on state[0] only),
//                            RF/2 full rounds; round keys added before each S-box layer.
//   poseidon_hash            the optimized form neptune hashes with (src/poseidon.rs::
//                            hash_optimized_static): compressed round constants added after the
//                            S-boxes, the pre-sparse matrix, one sparse matrix per partial round.
// Width t = arity + 1; state[0] is the domain tag, the output is state[1]. S-box x^5.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"

namespace cuzk::hash {

// Domain separation (neptune src/hash_type.rs::domain_tag). Only the kinds with a fixed tag
// that Filecoin can reach are here (MerkleTreeSparse and VariableLength are unsupported upstream).
struct PoseidonHashType {
    enum class Kind : uint8_t { MerkleTree, ConstantLength, Encryption, Custom };
    Kind kind = Kind::MerkleTree;
    uint64_t param = 0;  // ConstantLength: the length; Custom: the identifier (1..=256)

    static PoseidonHashType merkle_tree() { return {}; }
    static PoseidonHashType constant_length(uint64_t len) { return {Kind::ConstantLength, len}; }
    static PoseidonHashType encryption() { return {Kind::Encryption, 0}; }
    static PoseidonHashType custom(uint64_t id) { return {Kind::Custom, id}; }

    // MerkleTree: 2^arity - 1; ConstantLength(l): l·2^64; Encryption: 2^32; Custom(id): id·2^40.
    Fr domain_tag(size_t arity) const;
};

// Everything one arity needs, computed once (poseidon_constants caches it).
struct PoseidonConstants {
    size_t arity = 0, width = 0;  // width t = arity + 1
    size_t full_rounds = 0, half_full_rounds = 0, partial_rounds = 0;
    std::vector<Fr> round_constants;             // (RF + RP)·t, Grain LFSR (round_constants.rs)
    std::vector<Fr> mds, mds_inv;                // t×t row-major: M[i][j] = 1/(i + t + j) (mds.rs)
    std::vector<Fr> compressed_round_constants;  // t·RF + RP (preprocessing.rs)
    std::vector<Fr> pre_sparse_matrix;           // t×t row-major (mds.rs::factor_to_sparse_matrixes)
    struct Sparse {
        std::vector<Fr> w_hat;   // first column (t entries)
        std::vector<Fr> v_rest;  // first row without its first entry (t - 1 entries)
    };
    std::vector<Sparse> sparse_matrices;  // one per partial round, in round order

    const Fr& m(size_t i, size_t j) const { return mds[i * width + j]; }
    const Fr& pre_sparse(size_t i, size_t j) const { return pre_sparse_matrix[i * width + j]; }
};

// Round numbers (neptune src/round_numbers.rs, Strength::Standard): RF = 8 and RP = 55 / 56 / 57 /
// 57 / 59 / 59 / 60 for arity 2 / 4 / 8 / 11 / 16 / 24 / 36. Other arities throw.
std::pair<size_t, size_t> poseidon_round_numbers(size_t arity);

// The constants of one arity, generated on first use and cached for the life of the process
// (thread-safe; the reference stays valid). Throws std::invalid_argument for an unsupported arity.
const PoseidonConstants& poseidon_constants(size_t arity);

// Grain LFSR constants for width t (exposed for the known-answer test).
std::vector<Fr> poseidon_grain_round_constants(size_t t, size_t full_rounds, size_t partial_rounds);

// Hashes with arity = preimage.size() (so ConstantLength(l) needs l == preimage.size()).
Fr poseidon_hash(std::span<const Fr> preimage, PoseidonHashType type = {});
Fr poseidon_hash_reference(std::span<const Fr> preimage, PoseidonHashType type = {});
// With explicit constants (arity = c.arity): preimage.size() == arity, except ConstantLength(l)
// and Encryption, which take l <= arity elements and pad with zeros.
Fr poseidon_hash(const PoseidonConstants& c, std::span<const Fr> preimage, PoseidonHashType type = {});
Fr poseidon_hash_reference(const PoseidonConstants& c, std::span<const Fr> preimage, PoseidonHashType type = {});

}  // namespace cuzk::hash
