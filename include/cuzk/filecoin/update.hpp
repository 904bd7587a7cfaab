// SnapDeals (EmptySectorUpdate) natively: the registered update proofs and their public
// parameters, the challenges, phi and rho, the vanilla proofs as Curio hands them to a SNARK
// prover (one bincode-serialized PartitionProof per partition), their verification, the
// sector-update encoding of a small sector sealed in memory, and synthetic vanilla proofs for
// any sector size.
//
// Sources (rust-fil-proofs unless noted):
//  - storage-proofs-update/src/constants.rs: sector sizes, partition_count, challenge_count,
//    hs, h_default, apex_leaf_count, tree-R shapes, HASH_TYPE_GEN_RANDOMNESS = Custom(1).
//  - storage-proofs-update/src/vanilla.rs: PublicParams (and its identifier), ChallengeProof,
//    PartitionProof, EmptySectorUpdate::verify, prove_inner (apex leaves), encode_into, phi, rho.
//  - storage-proofs-update/src/challenges.rs: Challenges::new.
//  - storage-proofs-update/src/compound.rs: cache_prefix "empty-sector-update-<TREE>".
//  - rust-filecoin-proofs-api src/registry.rs: RegisteredUpdateProof (ids 0..4, the numbers
//    of go-state-types' abi.RegisteredUpdateProof).
//  - The bincode layout is the one of filecoin/post.hpp: ChallengeProof {proof_r_old,
//    proof_d_new, proof_r_new}, PartitionProof {comm_c, apex_leafs, challenge_proofs}.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/filecoin/c1.hpp"
#include "cuzk/filecoin/registry.hpp"
#include "cuzk/gadgets/merkle.hpp"

namespace cuzk::filecoin {

class SealedSector;

// ---- registry --------------------------------------------------------------------------------

enum class RegisteredUpdateProof : uint64_t {
    StackedDrg2KiBV1 = 0,
    StackedDrg8MiBV1 = 1,
    StackedDrg512MiBV1 = 2,
    StackedDrg32GiBV1 = 3,
    StackedDrg64GiBV1 = 4,
};
inline constexpr uint64_t kRegisteredUpdateProofCount = 5;

// vanilla.rs PublicParams::from_sector_size, with the tree-R shape of the size.
struct UpdateConfig {
    std::optional<RegisteredUpdateProof> proof;  // none for the sizes only tests use (1..32 KiB)
    std::string_view name;                       // "StackedDrg32GiBV1"; "" for a test size
    uint64_t sector_size = 0;                    // bytes
    uint64_t nodes = 0;                          // sector_size / 32
    unsigned challenge_count = 0;                // per partition: 10 up to 16 MiB, 86 above
    unsigned challenge_bit_len = 0;              // log2(nodes)
    unsigned partition_count = 0;                // 1 up to 8 KiB, 2 up to 32 KiB, 4 up to 16 MiB, else 16
    unsigned partition_bit_len = 0;
    unsigned apex_leaf_count = 0;  // 8 up to 8 KiB, else 128
    unsigned apex_leaf_bit_len = 0;
    std::array<unsigned, 6> hs{};  // [1; 6] up to 32 KiB, else 7..12
    TreeShape tree;                // tree R (old and new)

    unsigned h_default() const { return hs[3]; }
    // The arities of tree R's levels bottom up, and tree D's (all 2).
    std::vector<uint32_t> tree_r_arities() const;
    gadgets::TreeShape tree_r_shape() const;
    // k_and_h_select = k | h_select << partition_bit_len, h_select = 2^(index of h in hs);
    // std::invalid_argument for k ≥ partition_count or an h not in hs.
    uint64_t k_and_h_select(unsigned k, unsigned h) const;
    // The sector size in words, e.g. "2KiB", "32GiB".
    std::string size_name() const;
};

// A registered proof's config; std::invalid_argument for an unknown value.
const UpdateConfig& update_config(RegisteredUpdateProof proof);
// Any size EmptySectorUpdate allows (1, 2, 4, 8, 16, 32 KiB, 8, 16, 512 MiB, 32, 64 GiB);
// nullptr otherwise.
const UpdateConfig* update_config_for_sector_size(uint64_t sector_size);
std::optional<RegisteredUpdateProof> update_proof_from_name(std::string_view name);
std::optional<RegisteredUpdateProof> update_proof_from_id(uint64_t id);

// "empty_sector_update::PublicParams{ sector_nodes: N }"
std::string update_parameter_identifier(const UpdateConfig& cfg);
// "empty-sector-update-<TREE>-<sha256hex(identifier)>"
std::string update_parameter_cache_id(const UpdateConfig& cfg);
std::string update_params_file_name(const UpdateConfig& cfg);
std::string update_vk_file_name(const UpdateConfig& cfg);

// A commitment as a client sends it: 32 raw bytes (Curio's proofshare path), or the binary
// CID (Curio's ProveUpdateCuzk sends cid.Bytes()): version 1, codec
// fil-commitment-sealed (0xf102, comm_r) or fil-commitment-unsealed (0xf101, comm_d), a
// multihash of poseidon-bls12_381-a2-fc1 (0xb401) or sha2-256-trunc254-padded (0x1012) and
// 32 digest bytes (go-fil-commcid). std::invalid_argument naming `field` otherwise.
Bytes32 commitment_from_bytes(std::span<const uint8_t> bytes, bool sealed, const std::string& field);
// The binary CID of a commitment (commitment_from_bytes' inverse for the CID form).
std::vector<uint8_t> commitment_cid_bytes(const Bytes32& commitment, bool sealed);

// ---- challenges and randomness ---------------------------------------------------------------

// phi = Poseidon2_Custom(1)(comm_d_new, comm_r_old); rho = Poseidon2_Custom(1)(phi, high).
Fr update_phi(const Fr& comm_d_new, const Fr& comm_r_old);
Fr update_rho(const Fr& phi, uint64_t high);
// Challenges::new(sector_nodes, comm_r_new, k): challenge_count leaves of partition k.
std::vector<uint64_t> update_challenges(const UpdateConfig& cfg, const Fr& comm_r_new, unsigned k);

// ---- vanilla proofs --------------------------------------------------------------------------

struct UpdateChallengeProof {
    MerkleProof proof_r_old, proof_d_new, proof_r_new;  // tree R old, tree D new, tree R new
    bool operator==(const UpdateChallengeProof&) const = default;
};

struct UpdatePartitionProof {
    Bytes32 comm_c{};
    std::vector<Bytes32> apex_leafs;  // this partition's apex_leaf_count nodes of tree D
    std::vector<UpdateChallengeProof> challenge_proofs;
    bool operator==(const UpdatePartitionProof&) const = default;
};

// What a verifier knows of an update: the commitments and h.
struct UpdatePublicInputs {
    Bytes32 comm_r_old{}, comm_d_new{}, comm_r_new{};
    unsigned h = 0;  // 0: cfg.h_default()
};

// bincode of a PartitionProof: counts, variants, path levels, sibling counts and indices are
// checked against the config before memory is taken; trailing bytes are refused.
// formats::FormatError whose file is `what` and whose section is the field path, e.g.
// "challenge_proofs[3].proof_d_new.data.Single.path[2].hashes". Values are not checked here.
UpdatePartitionProof decode_update_partition_proof(const UpdateConfig& cfg, std::span<const uint8_t> bytes,
                                                   const std::string& what = "vanilla proof");
std::vector<uint8_t> encode_update_partition_proof(const UpdatePartitionProof& proof);

// EmptySectorUpdate::verify for partition k, plus what the circuit needs: every value a
// canonical Fr; comm_r_old / comm_r_new = Poseidon2(comm_c, root of tree R old / new); every
// proof of its tree's shape, opening the partition's challenge c_i, with the same roots
// (tree D's: comm_d_new); label_r_new = label_r_old + label_d_new · rho(phi, c_i >> (bits - h));
// the apex leaves hash to the node of tree D the paths pass through. std::invalid_argument
// "partition k: <field>: <problem>", e.g. "partition 2: challenge_proofs[5].proof_r_new: opens
// leaf 17, the challenge is leaf 12".
void update_verify_partition(const UpdateConfig& cfg, const UpdatePublicInputs& pub, unsigned k,
                             const UpdatePartitionProof& proof);
// Every partition, in order (exactly cfg.partition_count proofs).
void update_verify_all(const UpdateConfig& cfg, const UpdatePublicInputs& pub,
                       std::span<const UpdatePartitionProof> proofs);

// ---- generators ------------------------------------------------------------------------------

// A sector update: tree R old (the sector key), tree D over the new data, tree R new over the
// new replica, as node sources (level, index) -> Fr; vanilla proofs of any partition.
class SectorUpdate {
 public:
    using NodeFn = std::function<Fr(size_t level, uint64_t index)>;

    const UpdateConfig& config() const { return *cfg_; }
    const UpdatePublicInputs& public_inputs() const { return pub_; }
    const Bytes32& comm_c() const { return comm_c_; }
    // The new replica's leaves (only for an encoded sector, empty for a synthetic one).
    const std::vector<Bytes32>& replica_new() const { return replica_new_; }

    // prove_inner: the apex leaves of partition k and the three proofs of each challenge.
    UpdatePartitionProof partition_proof(unsigned k) const;
    std::vector<UpdatePartitionProof> partition_proofs() const;

    // encode_into for a sector sealed in memory: new_data is the padded sector
    // (sector_data_from_bytes: sector_size bytes); h 0 takes cfg.h_default(). The update
    // proof is the registered update proof of the sector's size; std::invalid_argument when
    // the size has none.
    static SectorUpdate encode(const SealedSector& sector, std::span<const uint8_t> new_data, unsigned h = 0);

    // A consistent update of any size, fast at 32 and 64 GiB: the old replica and the new
    // data are periodic (period 64 nodes, pseudo-random from the seed), so every tree has few
    // distinct subtrees and is computed in full from them (about 15,000 Poseidon hashes at
    // 32 GiB); comm_c is pseudo-random. The vanilla proofs verify and the circuits are
    // satisfied like a real update's. Deterministic in (cfg, seed, h).
    static SectorUpdate synthetic(const UpdateConfig& cfg, uint64_t seed, unsigned h = 0);

 private:
    const UpdateConfig* cfg_ = nullptr;
    UpdatePublicInputs pub_;
    Bytes32 comm_c_{};
    Fr root_r_old_ = Fr::zero(), root_r_new_ = Fr::zero(), root_d_ = Fr::zero();
    NodeFn r_old_, d_new_, r_new_;
    std::vector<Bytes32> replica_new_;
};

}  // namespace cuzk::filecoin
