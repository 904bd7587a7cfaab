// The SDR (stacked DRG) graph of Filecoin PoRep: per node, 6 DRG parents (bucket sampling with
// ChaCha8) and 8 expander parents (a Feistel permutation with BLAKE2b rounds).
//
// Sources (rust-fil-proofs):
//  - storage-proofs-core/src/drgraph.rs: BucketGraph::parents, derive_drg_seed, BASE_DEGREE.
//  - storage-proofs-core/src/crypto/mod.rs: derive_porep_domain_seed, DRSAMPLE_DST, FEISTEL_DST.
//  - storage-proofs-core/src/crypto/feistel.rs: precompute, permute, the round function.
//  - storage-proofs-porep/src/stacked/vanilla/graph.rs: StackedGraph (derive_feistel_keys,
//    correspondent, parents = base parents then expanded parents), EXP_DEGREE.
//  - storage-proofs-porep/src/stacked/vanilla/cache.rs: the parent cache file and its name.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/filecoin/registry.hpp"

namespace cuzk::filecoin {

inline constexpr unsigned kBaseDegree = 6;     // drgraph.rs BASE_DEGREE
inline constexpr unsigned kExpDegree = 8;      // graph.rs EXP_DEGREE
inline constexpr unsigned kDegree = 14;        // graph.rs DEGREE
inline constexpr unsigned kTotalParents = 37;  // vanilla/proof.rs TOTAL_PARENTS
inline constexpr unsigned kFeistelRounds = 3;  // feistel.rs FEISTEL_ROUNDS

// SHA256(tag ‖ porep_id) (crypto/mod.rs::derive_porep_domain_seed).
Bytes32 derive_porep_domain_seed(std::string_view tag, const Bytes32& porep_id);
// The first 28 bytes of the "Filecoin_DRSample" domain seed (drgraph.rs::derive_drg_seed).
std::array<uint8_t, 28> derive_drg_seed(const Bytes32& porep_id);
// The "Filecoin_Feistel" domain seed read as four u64 LE (graph.rs::derive_feistel_keys).
std::array<uint64_t, 4> derive_feistel_keys(const Bytes32& porep_id);

// The Feistel network of feistel.rs over [0, num_elements), which is padded to the next power
// of 4 (an even number of bits split into two halves) and cycle-walked back into range.
class Feistel {
 public:
    Feistel(uint64_t num_elements, const std::array<uint64_t, 4>& keys);
    uint64_t permute(uint64_t index) const;         // feistel.rs::permute
    uint64_t invert_permute(uint64_t index) const;  // feistel.rs::invert_permute
    uint64_t encode(uint64_t index) const;          // one pass, no cycle walk
    uint64_t decode(uint64_t index) const;
    unsigned half_bits() const { return half_bits_; }
    const std::array<uint64_t, 4>& keys() const { return keys_; }

 private:
    uint64_t round(uint64_t right, uint64_t key) const;
    uint64_t num_elements_;
    std::array<uint64_t, 4> keys_;
    uint64_t left_mask_, right_mask_;
    unsigned half_bits_;
};

// "stacked_graph::StackedGraph{expansion_degree: 8 base_graph: drgraph::BucketGraph{size: N;
// degree: 6; hasher: poseidon_hasher} }" (graph.rs StackedGraph::new, drgraph.rs identifier).
std::string stacked_graph_identifier(uint64_t nodes);

class StackedGraph {
 public:
    StackedGraph(uint64_t nodes, const Bytes32& porep_id, ApiVersion api_version);
    explicit StackedGraph(const PoRepConfig& cfg) : StackedGraph(cfg.nodes, cfg.porep_id, cfg.api_version) {}

    uint64_t size() const { return nodes_; }
    ApiVersion api_version() const { return api_version_; }
    const std::array<uint8_t, 28>& drg_seed() const { return drg_seed_; }
    const std::array<uint64_t, 4>& feistel_keys() const { return feistel_.keys(); }

    // BucketGraph::parents. Nodes 0 and 1 have all-zero parents. Otherwise the immediate
    // predecessor node-1 is parent 0 (V1_1, V1_2) or parent 5 (V1_0), and the other five are
    // drawn with a ChaCha8Rng seeded by drg_seed ‖ u32_le(node).
    void drg_parents(uint64_t node, std::span<uint32_t, kBaseDegree> out) const;
    // StackedGraph::generate_expanded_parents: correspondent(node, i) for i in 0..8, i.e.
    // feistel.permute(8·node + i) / 8 (V1_0 truncates the permuted value to u32 first).
    void expander_parents(uint64_t node, std::span<uint32_t, kExpDegree> out) const;
    // StackedGraph::parents: the 6 DRG parents, then the 8 expander parents.
    void parents(uint64_t node, std::span<uint32_t, kDegree> out) const;

    // The parent cache file (cache.rs ParentCache::generate): for each node, its 14 parents as
    // u32 little-endian; nodes · 56 bytes.
    std::vector<uint8_t> parent_cache() const;
    // "v28-sdr-parent-<hex>", the cache file's stem and its key in parent_cache.json
    // (cache.rs::cache_path: SHA256("poseidon_hasher" ‖ identifier ‖ feistel keys u64 LE ‖
    // u32_le(cache entries))).
    std::string parent_cache_id() const;

 private:
    uint64_t nodes_;
    ApiVersion api_version_;
    std::array<uint8_t, 28> drg_seed_;
    Feistel feistel_;  // over nodes · 8 elements
};

}  // namespace cuzk::filecoin
