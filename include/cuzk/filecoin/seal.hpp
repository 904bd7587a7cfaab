// Sealing a small sector in memory, from the data to the C1 output (SealCommitPhase1Output),
// as rust-fil-proofs does it, and a generator of synthetic but consistent C1 outputs for any
// sector size.
//
// Sources (rust-fil-proofs):
//  - filecoin-proofs/src/api/seal.rs: seal_pre_commit_phase1 (tree D over the 32-byte nodes of
//    the fr32-padded sector, comm_d, replica_id, labels), seal_pre_commit_phase2 (tree C,
//    replica, tree R_last, comm_r), seal_commit_phase1 (challenges, vanilla proofs).
//  - storage-proofs-porep/src/stacked/vanilla/proof.rs: replicate_phase2 (column hashes,
//    tree C, encoding, tree R_last, comm_r = hash2(comm_c, comm_r_last)), prove_layers_generate
//    (per challenge: tree-D proof, the challenge's column and its 6 + 8 parent columns in tree C,
//    the tree-R proof, a labeling proof per layer and the encoding proof).
//  - storage-proofs-porep/src/stacked/vanilla/hash.rs: hash_single_column = Poseidon of the
//    column's labels, arity = layers (2 or 11), MerkleTree domain tag.
//  - filecoin-hashers/src/poseidon.rs: hash2 = Poseidon arity 2 with the MerkleTree tag.
//  - fr32/src/padding.rs: fr32 padding, 254 data bits then 2 zero bits per 32-byte node, bits
//    taken little-endian; 127 raw bytes become 128.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cuzk/filecoin/c1.hpp"
#include "cuzk/filecoin/registry.hpp"

namespace cuzk::filecoin {

// Receives one line of progress ("labels: layer 2 of 2", ...). May be empty.
using ProgressFn = std::function<void(const std::string&)>;

// ---- sector data -----------------------------------------------------------------------------

// The unpadded capacity of a sector: sector_size · 127 / 128.
inline uint64_t unpadded_sector_size(uint64_t sector_size) { return sector_size / 128 * 127; }
// fr32 padding of raw bytes whose length is a multiple of 127.
std::vector<uint8_t> fr32_pad(std::span<const uint8_t> raw);
// The inverse of fr32_pad (length a multiple of 128).
std::vector<uint8_t> fr32_unpad(std::span<const uint8_t> padded);
// The sector's 32-byte nodes from user bytes: exactly sector_size bytes are taken as already
// padded (every node must be below 2^254, else std::invalid_argument naming the first bad
// node); up to unpadded_sector_size bytes are zero-filled to that size and fr32-padded; more
// throws std::invalid_argument.
std::vector<uint8_t> sector_data_from_bytes(const PoRepConfig& cfg, std::span<const uint8_t> bytes);
// A deterministic pseudo-random padded sector (every node a random value below 2^254).
std::vector<uint8_t> pseudo_random_sector_data(const PoRepConfig& cfg, uint64_t seed);

// ---- sealing ---------------------------------------------------------------------------------

struct SealParams {
    RegisteredSealProof proof = RegisteredSealProof::StackedDrg2KiBV1_1;
    Bytes32 prover_id{}, ticket{};
    uint64_t sector_id = 0;
};

struct PreCommitCommitments {
    Bytes32 comm_d{}, comm_c{}, comm_r_last{}, comm_r{}, replica_id{};
};

// A sealed sector held in memory: its data, labels and trees C, D, R_last. Everything is kept,
// so it is for small sectors (2 KiB, 8 MiB; 512 MiB needs several GiB and minutes).
// Synthetic PoRep is not supported (std::invalid_argument).
class SealedSector {
 public:
    // Pre-commit phases 1 and 2: tree D and comm_d, replica_id, the SDR labels, tree C, the
    // replica (last layer's labels + data, in Fr) and tree R_last, comm_r.
    // `data` is the padded sector (sector_data_from_bytes): sector_size bytes.
    static SealedSector seal(const SealParams& params, std::vector<uint8_t> data, const ProgressFn& progress = {});

    const PoRepConfig& config() const;
    const PreCommitCommitments& commitments() const;
    // labels[layer - 1][node]
    const std::vector<std::vector<Bytes32>>& labels() const;
    // The sealed replica, node by node.
    const std::vector<Bytes32>& replica() const;

    // Commit phase 1 for the interactive seed (ignored for NI-PoRep, whose challenges come
    // from comm_r): the challenges of every partition and their vanilla proofs.
    SealCommitPhase1Output commit_phase1(const Bytes32& seed, const ProgressFn& progress = {}) const;

    SealedSector(SealedSector&&) noexcept;
    SealedSector& operator=(SealedSector&&) noexcept;
    ~SealedSector();

 private:
    struct Impl;
    explicit SealedSector(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

// ---- synthetic vanilla proofs ----------------------------------------------------------------

// A C1 output for any sector size (32 GiB and 64 GiB included) that passes
// check_c1_consistency, materializing only the challenged paths:
//  - replica_id, seed and ticket are pseudo-random (replica_id is not derived from a prover
//    and a comm_d, which C1 cannot show); the challenges are derived from them as in real
//    interactive PoRep;
//  - the columns of the challenges' parents are random; each challenge's label in every
//    layer is computed from its parents' labels by the real label function (a challenge that
//    is also a parent keeps its computed column); data leaves are random, and the tree-R leaf
//    is last label + data;
//  - trees D, C and R_last are sparse: a node above a proven leaf is the hash of its children,
//    every other node is pseudo-random from the seed, the tree and its position.
// Memory and time grow with partitions × challenges × path length, not with the sector.
// Deterministic in (proof, seed, challenges).
//
// NI-PoRep's challenges come from comm_r, which the proven leaves fix, so no synthetic C1 can
// hold them: SyntheticChallenges::Derived makes interactive PoRep only (std::invalid_argument
// otherwise). SyntheticChallenges::FromSeed makes NI-PoRep's shape (its partitions ×
// challenges) with the challenges drawn as interactive PoRep draws them from the seed: it passes
// every check of check_c1_consistency but the challenges' derivation, and a proof of it does not
// verify, but its witness costs what a real one's does (NI-PoRep benchmarks at 32 GiB).
enum class SyntheticChallenges { Derived, FromSeed };
SealCommitPhase1Output synthetic_c1(RegisteredSealProof proof, uint64_t seed, const ProgressFn& progress = {},
                                    SyntheticChallenges challenges = SyntheticChallenges::Derived);

}  // namespace cuzk::filecoin
