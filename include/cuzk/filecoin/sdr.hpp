// The native side of SDR PoRep around the graph: replica id, challenges, labels, encoding.
//
// Sources (rust-fil-proofs):
//  - storage-proofs-porep/src/stacked/vanilla/params.rs::generate_replica_id.
//  - storage-proofs-porep/src/stacked/vanilla/challenges.rs: InteractiveChallenges::derive,
//    NiChallenges::derive, bigint_to_challenge.
//  - storage-proofs-porep/src/stacked/vanilla/create_label/single.rs (create_label,
//    create_label_exp), graph.rs (copy_parents_data*), labeling_proof.rs (create_label).
//  - storage-proofs-porep/src/encode.rs (encode: key + value in Fr).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/filecoin/graph.hpp"
#include "cuzk/filecoin/registry.hpp"

namespace cuzk::filecoin {

// SHA256(prover_id ‖ u64_be(sector_id) ‖ ticket ‖ comm_d ‖ porep_id) with byte 31 &= 0x3f
// (bytes_into_fr_repr_safe), so the result is a canonical Fr.
Bytes32 generate_replica_id(const Bytes32& prover_id, uint64_t sector_id, const Bytes32& ticket, const Bytes32& comm_d,
                            const Bytes32& porep_id);

// Interactive PoRep challenges of partition k: for i in 0..n, j = u32(n·k + i),
// SHA256(replica_id ‖ seed ‖ u32_le(j)) as a little-endian integer, mod (nodes − 1), plus 1
// (node 0 is never challenged). Rust passes k as u8.
std::vector<uint64_t> interactive_challenges(uint64_t nodes, const Bytes32& replica_id, const Bytes32& seed,
                                             unsigned challenges_per_partition, uint8_t k);
// Non-interactive PoRep: the same with SHA256("filecoin.io|PoRep|1|NonInteractive|1" ‖
// replica_id ‖ comm_r ‖ u32_le(j)).
std::vector<uint64_t> ni_challenges(uint64_t nodes, const Bytes32& replica_id, const Bytes32& comm_r,
                                    unsigned challenges_per_partition, uint8_t k);
// By the config's kind; synthetic PoRep (Poseidon-derived challenges) throws std::logic_error.
std::vector<uint64_t> porep_challenges(const PoRepConfig& cfg, const Bytes32& replica_id, const Bytes32& seed,
                                       const Bytes32& comm_r, unsigned k);

// The label of `node` in `layer` (1-based) from its 37 parent labels (none for node 0):
// SHA256(replica_id ‖ u32_be(layer) ‖ u64_be(node) ‖ 20 zero bytes ‖ parents...) with byte 31
// &= 0x3f. The same function gives the encoding key (EncodingProof::create_key).
Bytes32 label_from_parents(const Bytes32& replica_id, uint32_t layer, uint64_t node, std::span<const Bytes32> parents);

// The 37 parent labels that feed `node` in `layer`, in the order of the hash input: layer 1
// repeats the 6 DRG parents (6 × 6 + the first); later layers take the 6 DRG parents from this
// layer and the 8 expander parents from the layer below, then repeat those 14, then the first 9.
// labels[l] is layer l+1; only layers < `layer` and this layer's nodes < `node` are read.
std::vector<Bytes32> label_parents(const StackedGraph& g, const std::vector<std::vector<Bytes32>>& labels,
                                   uint32_t layer, uint64_t node);

// All labels of a sector, labels[layer − 1][node], computed node by node as
// create_labels_for_encoding does. For test-sized sectors: it holds every layer in memory.
std::vector<std::vector<Bytes32>> sdr_labels(const StackedGraph& g, unsigned layers, const Bytes32& replica_id);

// encode(key, data) = key + data in Fr; both must be canonical (nullopt otherwise).
std::optional<Bytes32> encode_node(const Bytes32& key, const Bytes32& data);

}  // namespace cuzk::filecoin
