// The registered StackedDrg PoRep proofs and what each fixes: sector size, layers, partitions,
// challenges, tree shape, porep_id, and the name of its Groth16 parameter files; the registered
// Fallback PoSt proofs (Winning and Window) likewise.
//
// Sources (rust-fil-proofs unless noted):
//  - ids, names, api versions, features, porep_id: filecoin-project/rust-filecoin-proofs-api
//    src/registry.rs (RegisteredSealProof, REGISTERED_PROOF_IDS, version(), porep_id()).
//  - layers, partitions, minimum challenges: filecoin-proofs/src/constants.rs;
//    challenges per partition: filecoin-proofs/src/parameters.rs::select_challenges.
//  - tree shapes: filecoin-proofs/src/constants.rs (SectorShape*).
//  - parameter identifier and file name: storage-proofs-porep/src/stacked/vanilla/params.rs
//    (PublicParams::identifier), storage-proofs-core/src/parameter_cache.rs (cache_identifier).
//  - PoSt: rust-filecoin-proofs-api src/registry.rs (RegisteredPoStProof: version(),
//    sector_count(), as_v1_config()); filecoin-proofs/src/constants.rs (WINNING_POST_*,
//    WINDOW_POST_*); filecoin-proofs/src/parameters.rs (winning_post_setup_params,
//    window_post_setup_params); storage-proofs-post/src/fallback/vanilla.rs
//    (PublicParams::identifier) and compound.rs (cache_prefix).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace cuzk::filecoin {

using Bytes32 = std::array<uint8_t, 32>;

std::string to_hex(std::span<const uint8_t> bytes);
// Parses exactly 2*N hex digits; nullopt otherwise.
std::optional<Bytes32> bytes32_from_hex(std::string_view hex);

// storage-proofs-core/src/api_version.rs
enum class ApiVersion { V1_0_0, V1_1_0, V1_2_0 };
// storage-proofs-core/src/api_version.rs (ApiFeature); Interactive = no feature.
enum class PoRepKind { Interactive, SyntheticPoRep, NonInteractivePoRep };

// The enum values are the registered proof ids (REGISTERED_PROOF_IDS), which are also the first
// 8 bytes of porep_id.
enum class RegisteredSealProof : uint64_t {
    StackedDrg2KiBV1 = 0,
    StackedDrg8MiBV1 = 1,
    StackedDrg512MiBV1 = 2,
    StackedDrg32GiBV1 = 3,
    StackedDrg64GiBV1 = 4,
    StackedDrg2KiBV1_1 = 5,
    StackedDrg8MiBV1_1 = 6,
    StackedDrg512MiBV1_1 = 7,
    StackedDrg32GiBV1_1 = 8,
    StackedDrg64GiBV1_1 = 9,
    StackedDrg2KiBV1_1_Feat_SyntheticPoRep = 10,
    StackedDrg8MiBV1_1_Feat_SyntheticPoRep = 11,
    StackedDrg512MiBV1_1_Feat_SyntheticPoRep = 12,
    StackedDrg32GiBV1_1_Feat_SyntheticPoRep = 13,
    StackedDrg64GiBV1_1_Feat_SyntheticPoRep = 14,
    StackedDrg2KiBV1_2_Feat_NonInteractivePoRep = 15,
    StackedDrg8MiBV1_2_Feat_NonInteractivePoRep = 16,
    StackedDrg512MiBV1_2_Feat_NonInteractivePoRep = 17,
    StackedDrg32GiBV1_2_Feat_NonInteractivePoRep = 18,
    StackedDrg64GiBV1_2_Feat_NonInteractivePoRep = 19,
};
inline constexpr uint64_t kRegisteredSealProofCount = 20;

// Poseidon tree R / tree C shape: base arity 8, then an optional sub level and top level
// (0 = absent). 2K/8M/512M: 8-0-0; 32G: 8-8-0; 64G: 8-8-2.
struct TreeShape {
    unsigned base_arity = 8, sub_arity = 0, top_arity = 0;
    // Tree::display(), e.g. "merkletree-poseidon_hasher-8-8-0".
    std::string display() const;
};

struct PoRepConfig {
    RegisteredSealProof proof;
    std::string_view name;               // serde name, e.g. "StackedDrg32GiBV1_1"
    std::string_view vanilla_proof_tag;  // the VanillaSealProof variant in C1 JSON, e.g. "StackedDrg32GiBV1"
    uint64_t sector_size;                // bytes
    uint64_t nodes;                      // sector_size / 32
    ApiVersion api_version;
    PoRepKind kind;
    unsigned layers;
    unsigned partitions;
    unsigned minimum_challenges;        // over all partitions
    unsigned challenges_per_partition;  // ceil(minimum_challenges / partitions)
    TreeShape tree;
    Bytes32 porep_id;

    // Levels of the tree-R/tree-C inclusion paths: base (arity 8), sub (0 or 1), top (0 or 1).
    unsigned base_path_levels() const;
    unsigned path_levels() const { return base_path_levels() + (tree.sub_arity ? 1 : 0) + (tree.top_arity ? 1 : 0); }
    // Levels of the tree-D (binary SHA-256) inclusion path: log2(nodes).
    unsigned comm_d_path_levels() const;
};

// Every registered proof has a config; throws std::invalid_argument on an unknown enum value.
const PoRepConfig& porep_config(RegisteredSealProof proof);
std::optional<RegisteredSealProof> seal_proof_from_name(std::string_view name);
std::optional<RegisteredSealProof> seal_proof_from_id(uint64_t id);

// The interactive V1_1 proof of the same sector size. Every registered proof of a size proves
// the same circuit with the same parameter files: porep_parameter_identifier holds neither the
// porep_id, nor the api version, nor how the challenges are derived, and NI-PoRep keeps the
// interactive challenges per partition (2 at test sizes, 18 at 32/64 GiB) for exactly that
// reason (get_porep_non_interactive_partitions). The graph's parents differ by version, but
// they are public inputs, not the circuit's shape.
RegisteredSealProof circuit_proof(RegisteredSealProof proof);

// porep_id: u64 LE registered-proof id in bytes 0..8, u64 LE nonce (0 for every proof so far)
// in bytes 8..16, zeros after (rust-filecoin-proofs-api src/registry.rs::porep_id).
Bytes32 porep_id(RegisteredSealProof proof);

// "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{...}, challenges: ..., tree: ... }"
std::string porep_parameter_identifier(const PoRepConfig& cfg);
// "stacked-proof-of-replication-<TREE>-sha256_hasher-<sha256hex(identifier)>"
std::string porep_parameter_cache_id(const PoRepConfig& cfg);
// "v28-<cache id>.params" / ".vk"
std::string porep_params_file_name(const PoRepConfig& cfg);
std::string porep_vk_file_name(const PoRepConfig& cfg);

// ---- Fallback PoSt -----------------------------------------------------------------------------

// filecoin-proofs/src/types/post_config.rs (PoStType).
enum class PoStType { Winning, Window };

// The enum values are the registered proof ids (the enum order of rust-filecoin-proofs-api's
// RegisteredPoStProof, the numbers of go-state-types' abi.RegisteredPoStProof). Go names the
// last five "StackedDrgWindow<size>V1_1"; Rust (and serde) "...V1_2"; both are ApiVersion 1.2.
enum class RegisteredPoStProof : uint64_t {
    StackedDrgWinning2KiBV1 = 0,
    StackedDrgWinning8MiBV1 = 1,
    StackedDrgWinning512MiBV1 = 2,
    StackedDrgWinning32GiBV1 = 3,
    StackedDrgWinning64GiBV1 = 4,
    StackedDrgWindow2KiBV1 = 5,
    StackedDrgWindow8MiBV1 = 6,
    StackedDrgWindow512MiBV1 = 7,
    StackedDrgWindow32GiBV1 = 8,
    StackedDrgWindow64GiBV1 = 9,
    StackedDrgWindow2KiBV1_2 = 10,
    StackedDrgWindow8MiBV1_2 = 11,
    StackedDrgWindow512MiBV1_2 = 12,
    StackedDrgWindow32GiBV1_2 = 13,
    StackedDrgWindow64GiBV1_2 = 14,
};
inline constexpr uint64_t kRegisteredPoStProofCount = 15;

struct PoStConfig {
    RegisteredPoStProof proof;
    std::string_view name;     // Rust/serde name, e.g. "StackedDrgWindow32GiBV1_2"
    std::string_view go_name;  // go-state-types name, e.g. "StackedDrgWindow32GiBV1_1"
    PoStType type;
    uint64_t sector_size;    // bytes
    uint64_t nodes;          // sector_size / 32: the leaves of tree R
    ApiVersion api_version;  // Winning and Window V1: 1.0.0; Window V1_2: 1.2.0
    // The PoStConfig of as_v1_config: challenges per sector (66 Winning, 10 Window) and sectors
    // (1 Winning; Window: per partition, 2 up to 512 MiB, 2349 at 32 GiB, 2300 at 64 GiB).
    unsigned challenge_count;
    unsigned sector_count;
    // The circuit's FallbackPoSt PublicParams: Winning proves its one sector's 66 challenges as
    // 66 circuit sectors of 1 challenge (winning_post_setup_params); Window as configured.
    unsigned circuit_sectors;
    unsigned circuit_challenges;
    TreeShape tree;  // tree R

    // Levels of a tree-R inclusion path: base (arity 8), then the sub and top levels.
    unsigned base_path_levels() const;
    unsigned path_levels() const { return base_path_levels() + (tree.sub_arity ? 1 : 0) + (tree.top_arity ? 1 : 0); }
};

// Every registered PoSt proof has a config; throws std::invalid_argument on an unknown value.
const PoStConfig& post_config(RegisteredPoStProof proof);
// Either the Rust or the Go name.
std::optional<RegisteredPoStProof> post_proof_from_name(std::string_view name);
std::optional<RegisteredPoStProof> post_proof_from_id(uint64_t id);

// "FallbackPoSt::PublicParams{sector_size: S, challenge_count: C, sector_count: K}" with the
// circuit's C and K (the api version is not part of it: Window V1 and V1_2 share the files).
std::string post_parameter_identifier(const PoStConfig& cfg);
// "proof-of-spacetime-fallback-<TREE>-<sha256hex(identifier)>"
std::string post_parameter_cache_id(const PoStConfig& cfg);
std::string post_params_file_name(const PoStConfig& cfg);
std::string post_vk_file_name(const PoStConfig& cfg);

}  // namespace cuzk::filecoin
