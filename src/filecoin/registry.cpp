// Registered StackedDrg PoRep proofs (sources in the header).
#include "cuzk/filecoin/registry.hpp"

#include <bit>
#include <stdexcept>

#include "cuzk/filecoin/graph.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {

std::string to_hex(std::span<const uint8_t> bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string s;
    s.reserve(2 * bytes.size());
    for (uint8_t b : bytes) s += kDigits[b >> 4], s += kDigits[b & 15];
    return s;
}

std::optional<Bytes32> bytes32_from_hex(std::string_view hex) {
    if (hex.size() != 64) return std::nullopt;
    auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    Bytes32 out{};
    for (size_t i = 0; i < 32; ++i) {
        const int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return std::nullopt;
        out[i] = uint8_t(hi << 4 | lo);
    }
    return out;
}

std::string TreeShape::display() const {
    // storage-proofs-core/src/merkle/tree.rs: MerkleTreeWrapper::display
    return "merkletree-poseidon_hasher-" + std::to_string(base_arity) + "-" + std::to_string(sub_arity) + "-" +
           std::to_string(top_arity);
}

namespace {

// storage-proofs-core/src/merkle/proof.rs::base_path_length: the base trees hold
// nodes / top / sub leaves each, and have log8(leaves) levels.
unsigned tree_base_path_levels(uint64_t nodes, const TreeShape& tree) {
    uint64_t leaves = nodes;
    if (tree.top_arity) leaves /= tree.top_arity;
    if (tree.sub_arity) leaves /= tree.sub_arity;
    return unsigned(std::countr_zero(leaves)) / 3;
}

}  // namespace

unsigned PoRepConfig::base_path_levels() const { return tree_base_path_levels(nodes, tree); }

unsigned PoRepConfig::comm_d_path_levels() const { return unsigned(std::countr_zero(nodes)); }

namespace {

constexpr uint64_t kKiB = 1024, kMiB = 1024 * kKiB, kGiB = 1024 * kMiB;

// One row per sector size (filecoin-proofs/src/constants.rs).
struct SizeRow {
    uint64_t sector_size;
    std::string_view size_name;  // as in the registered proof names
    unsigned layers;
    unsigned interactive_partitions;      // POREP_PARTITIONS
    unsigned interactive_min_challenges;  // get_porep_interactive_minimum_challenges
    unsigned ni_partitions;               // get_porep_non_interactive_partitions
    unsigned ni_min_challenges;           // get_porep_non_interactive_minimum_challenges
    TreeShape tree;
};
constexpr SizeRow kSizes[5] = {
    {2 * kKiB, "2KiB", 2, 1, 2, 13, 26, {8, 0, 0}},          {8 * kMiB, "8MiB", 2, 1, 2, 13, 26, {8, 0, 0}},
    {512 * kMiB, "512MiB", 2, 1, 2, 13, 26, {8, 0, 0}},      {32 * kGiB, "32GiB", 11, 10, 176, 126, 2253, {8, 8, 0}},
    {64 * kGiB, "64GiB", 11, 10, 176, 126, 2253, {8, 8, 2}},
};

// Names in enum order; the id is the index.
constexpr std::string_view kNames[kRegisteredSealProofCount] = {
    "StackedDrg2KiBV1",
    "StackedDrg8MiBV1",
    "StackedDrg512MiBV1",
    "StackedDrg32GiBV1",
    "StackedDrg64GiBV1",
    "StackedDrg2KiBV1_1",
    "StackedDrg8MiBV1_1",
    "StackedDrg512MiBV1_1",
    "StackedDrg32GiBV1_1",
    "StackedDrg64GiBV1_1",
    "StackedDrg2KiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg8MiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg512MiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg32GiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg64GiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep",
};

// rust-filecoin-proofs-api src/seal.rs: VanillaSealProof has one variant per sector size, named
// after the V1 proof whatever the registered proof's version.
constexpr std::string_view kVanillaTags[5] = {"StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1",
                                              "StackedDrg32GiBV1", "StackedDrg64GiBV1"};

std::array<PoRepConfig, kRegisteredSealProofCount> build_configs() {
    std::array<PoRepConfig, kRegisteredSealProofCount> out{};
    for (uint64_t id = 0; id < kRegisteredSealProofCount; ++id) {
        const size_t size_index = id % 5;
        const SizeRow& row = kSizes[size_index];
        const uint64_t group = id / 5;  // V1, V1_1, V1_1 synthetic, V1_2 non-interactive
        PoRepConfig& c = out[id];
        c.proof = RegisteredSealProof(id);
        c.name = kNames[id];
        c.vanilla_proof_tag = kVanillaTags[size_index];
        c.sector_size = row.sector_size;
        c.nodes = row.sector_size / 32;
        // registry.rs::version(): the synthetic variants are V1_2 despite their names.
        c.api_version = group == 0 ? ApiVersion::V1_0_0 : group == 1 ? ApiVersion::V1_1_0 : ApiVersion::V1_2_0;
        c.kind = group == 2   ? PoRepKind::SyntheticPoRep
                 : group == 3 ? PoRepKind::NonInteractivePoRep
                              : PoRepKind::Interactive;
        c.layers = row.layers;
        const bool ni = c.kind == PoRepKind::NonInteractivePoRep;
        c.partitions = ni ? row.ni_partitions : row.interactive_partitions;
        c.minimum_challenges = ni ? row.ni_min_challenges : row.interactive_min_challenges;
        c.challenges_per_partition = (c.minimum_challenges + c.partitions - 1) / c.partitions;  // div_ceil
        c.tree = row.tree;
        c.porep_id = porep_id(c.proof);
    }
    return out;
}

}  // namespace

const PoRepConfig& porep_config(RegisteredSealProof proof) {
    static const std::array<PoRepConfig, kRegisteredSealProofCount> configs = build_configs();
    const uint64_t id = uint64_t(proof);
    if (id >= kRegisteredSealProofCount)
        throw std::invalid_argument("unknown registered seal proof id " + std::to_string(id));
    return configs[id];
}

std::optional<RegisteredSealProof> seal_proof_from_name(std::string_view name) {
    for (uint64_t id = 0; id < kRegisteredSealProofCount; ++id)
        if (kNames[id] == name) return RegisteredSealProof(id);
    return std::nullopt;
}

std::optional<RegisteredSealProof> seal_proof_from_id(uint64_t id) {
    if (id >= kRegisteredSealProofCount) return std::nullopt;
    return RegisteredSealProof(id);
}

RegisteredSealProof circuit_proof(RegisteredSealProof proof) {
    const uint64_t id = uint64_t(porep_config(proof).proof);  // throws for an unknown id
    return RegisteredSealProof(id % 5 + 5);                   // the V1_1 row of the size
}

Bytes32 porep_id(RegisteredSealProof proof) {
    const uint64_t id = uint64_t(proof);
    const uint64_t nonce = 0;  // registry.rs::nonce(): 0 for every registered proof so far
    Bytes32 out{};
    for (int i = 0; i < 8; ++i) out[i] = uint8_t(id >> (8 * i)), out[8 + i] = uint8_t(nonce >> (8 * i));
    return out;
}

std::string porep_parameter_identifier(const PoRepConfig& cfg) {
    // storage-proofs-porep/src/stacked/vanilla/params.rs: PublicParams::identifier (porep_id and
    // the api version are not part of it: all versions of a size share the parameter files).
    return "layered_drgporep::PublicParams{ graph: " + stacked_graph_identifier(cfg.nodes) +
           ", challenges: LayerChallenges { layers: " + std::to_string(cfg.layers) +
           ", max_count: " + std::to_string(cfg.challenges_per_partition) + " }, tree: " + cfg.tree.display() + " }";
}

std::string porep_parameter_cache_id(const PoRepConfig& cfg) {
    // storage-proofs-core/src/parameter_cache.rs::cache_identifier; cache_prefix from
    // storage-proofs-porep/src/stacked/circuit/proof.rs (StackedCompound::cache_prefix).
    const std::string id = porep_parameter_identifier(cfg);
    const auto digest = sha256_bytes({reinterpret_cast<const uint8_t*>(id.data()), id.size()});
    return "stacked-proof-of-replication-" + cfg.tree.display() + "-sha256_hasher-" + to_hex(digest);
}

std::string porep_params_file_name(const PoRepConfig& cfg) {
    return "v28-" + porep_parameter_cache_id(cfg) + ".params";
}
std::string porep_vk_file_name(const PoRepConfig& cfg) { return "v28-" + porep_parameter_cache_id(cfg) + ".vk"; }

// ---- Fallback PoSt -----------------------------------------------------------------------------

unsigned PoStConfig::base_path_levels() const { return tree_base_path_levels(nodes, tree); }

namespace {

constexpr unsigned kWinningPoStChallengeCount = 66;  // WINNING_POST_CHALLENGE_COUNT
constexpr unsigned kWinningPoStSectorCount = 1;      // WINNING_POST_SECTOR_COUNT
constexpr unsigned kWindowPoStChallengeCount = 10;   // WINDOW_POST_CHALLENGE_COUNT
// WINDOW_POST_SECTOR_COUNT by size (2K, 8M, 512M, 32G, 64G).
constexpr unsigned kWindowPoStSectorCount[5] = {2, 2, 2, 2349, 2300};

constexpr std::string_view kPoStNames[kRegisteredPoStProofCount] = {
    "StackedDrgWinning2KiBV1",    "StackedDrgWinning8MiBV1",   "StackedDrgWinning512MiBV1", "StackedDrgWinning32GiBV1",
    "StackedDrgWinning64GiBV1",   "StackedDrgWindow2KiBV1",    "StackedDrgWindow8MiBV1",    "StackedDrgWindow512MiBV1",
    "StackedDrgWindow32GiBV1",    "StackedDrgWindow64GiBV1",   "StackedDrgWindow2KiBV1_2",  "StackedDrgWindow8MiBV1_2",
    "StackedDrgWindow512MiBV1_2", "StackedDrgWindow32GiBV1_2", "StackedDrgWindow64GiBV1_2",
};
constexpr std::string_view kPoStGoNames[kRegisteredPoStProofCount] = {
    "StackedDrgWinning2KiBV1",    "StackedDrgWinning8MiBV1",   "StackedDrgWinning512MiBV1", "StackedDrgWinning32GiBV1",
    "StackedDrgWinning64GiBV1",   "StackedDrgWindow2KiBV1",    "StackedDrgWindow8MiBV1",    "StackedDrgWindow512MiBV1",
    "StackedDrgWindow32GiBV1",    "StackedDrgWindow64GiBV1",   "StackedDrgWindow2KiBV1_1",  "StackedDrgWindow8MiBV1_1",
    "StackedDrgWindow512MiBV1_1", "StackedDrgWindow32GiBV1_1", "StackedDrgWindow64GiBV1_1",
};

std::array<PoStConfig, kRegisteredPoStProofCount> build_post_configs() {
    std::array<PoStConfig, kRegisteredPoStProofCount> out{};
    for (uint64_t id = 0; id < kRegisteredPoStProofCount; ++id) {
        const size_t size_index = id % 5;
        const SizeRow& row = kSizes[size_index];
        PoStConfig& c = out[id];
        c.proof = RegisteredPoStProof(id);
        c.name = kPoStNames[id];
        c.go_name = kPoStGoNames[id];
        c.type = id < 5 ? PoStType::Winning : PoStType::Window;
        c.sector_size = row.sector_size;
        c.nodes = row.sector_size / 32;
        c.api_version = id < 10 ? ApiVersion::V1_0_0 : ApiVersion::V1_2_0;
        if (c.type == PoStType::Winning) {
            c.challenge_count = kWinningPoStChallengeCount;
            c.sector_count = kWinningPoStSectorCount;
            // winning_post_setup_params: K = challenge_count / sector_count, C = challenge_count / K.
            c.circuit_sectors = c.challenge_count / c.sector_count;
            c.circuit_challenges = c.challenge_count / c.circuit_sectors;
        } else {
            c.challenge_count = kWindowPoStChallengeCount;
            c.sector_count = kWindowPoStSectorCount[size_index];
            c.circuit_sectors = c.sector_count;
            c.circuit_challenges = c.challenge_count;
        }
        c.tree = row.tree;
    }
    return out;
}

}  // namespace

const PoStConfig& post_config(RegisteredPoStProof proof) {
    static const std::array<PoStConfig, kRegisteredPoStProofCount> configs = build_post_configs();
    const uint64_t id = uint64_t(proof);
    if (id >= kRegisteredPoStProofCount)
        throw std::invalid_argument("unknown registered PoSt proof id " + std::to_string(id));
    return configs[id];
}

std::optional<RegisteredPoStProof> post_proof_from_name(std::string_view name) {
    for (uint64_t id = 0; id < kRegisteredPoStProofCount; ++id)
        if (kPoStNames[id] == name || kPoStGoNames[id] == name) return RegisteredPoStProof(id);
    return std::nullopt;
}

std::optional<RegisteredPoStProof> post_proof_from_id(uint64_t id) {
    if (id >= kRegisteredPoStProofCount) return std::nullopt;
    return RegisteredPoStProof(id);
}

std::string post_parameter_identifier(const PoStConfig& cfg) {
    return "FallbackPoSt::PublicParams{sector_size: " + std::to_string(cfg.sector_size) +
           ", challenge_count: " + std::to_string(cfg.circuit_challenges) +
           ", sector_count: " + std::to_string(cfg.circuit_sectors) + "}";
}

std::string post_parameter_cache_id(const PoStConfig& cfg) {
    const std::string id = post_parameter_identifier(cfg);
    const auto digest = sha256_bytes({reinterpret_cast<const uint8_t*>(id.data()), id.size()});
    return "proof-of-spacetime-fallback-" + cfg.tree.display() + "-" + to_hex(digest);
}

std::string post_params_file_name(const PoStConfig& cfg) { return "v28-" + post_parameter_cache_id(cfg) + ".params"; }
std::string post_vk_file_name(const PoStConfig& cfg) { return "v28-" + post_parameter_cache_id(cfg) + ".vk"; }

}  // namespace cuzk::filecoin
