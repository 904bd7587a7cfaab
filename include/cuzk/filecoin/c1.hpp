// The output of seal phase C1 (`SealCommitPhase1Output`), the JSON that Lotus/Curio hand to a
// C2 prover, exactly as filecoin-ffi writes it with serde_json.
//
// Shapes (serde derive, field order = declaration order; sources):
//  - rust-filecoin-proofs-api src/seal.rs: SealCommitPhase1Output {registered_proof (unit
//    variant name as a string), vanilla_proofs (enum VanillaSealProof: {"StackedDrg<size>V1":
//    [partition][challenge] Proof}), comm_r, comm_d, replica_id, seed, ticket}.
//  - storage-proofs-porep/src/stacked/vanilla/params.rs: Proof {comm_d_proofs,
//    comm_r_last_proof, replica_column_proofs, labeling_proofs, encoding_proof};
//    ReplicaColumnProof {c_x, drg_parents, exp_parents}.
//  - column_proof.rs ColumnProof {column, inclusion_proof}; column.rs Column {index, rows, _h}
//    (`_h` is a PhantomData, written as null); labeling_proof.rs / encoding_proof.rs
//    {parents, layer_index, node}.
//  - storage-proofs-core/src/merkle/proof.rs: MerkleProof {data: {"Single": {root, leaf, path}} |
//    {"Sub": {base_proof, sub_proof, root, leaf}} | {"Top": {base_proof, sub_proof, top_proof,
//    root, leaf}}}; InclusionPath {path: [PathElement {hashes, index}]}.
//  - Every 32-byte value (Commitment, Ticket, Sha256Domain, PoseidonDomain = Fr repr, little
//    endian) is a JSON array of 32 integers 0..255.
// Curio's Go mirror of the same types (lib/proof/porep_vproof_types.go) round-trips this JSON.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/filecoin/registry.hpp"

namespace cuzk::filecoin {

struct PathElement {
    std::vector<Bytes32> hashes;  // the arity − 1 siblings
    uint64_t index = 0;           // position of the running hash among the arity inputs
    bool operator==(const PathElement&) const = default;
};

struct MerkleProof {
    enum class Kind { Single, Sub, Top };
    Kind kind = Kind::Single;
    Bytes32 root{}, leaf{};
    std::vector<PathElement> base, sub, top;  // sub and top empty for Single; top empty for Sub
    bool operator==(const MerkleProof&) const = default;
    // MerkleProofTrait::path_index: the leaf index from the per-level indices (base levels at
    // base arity, then the sub and top levels at theirs).
    uint64_t path_index(unsigned base_arity, unsigned sub_arity, unsigned top_arity) const;
};

struct Column {
    uint32_t index = 0;
    std::vector<Bytes32> rows;  // one label per layer
    bool operator==(const Column&) const = default;
};

struct ColumnProof {
    Column column;
    MerkleProof inclusion_proof;  // in tree C
    bool operator==(const ColumnProof&) const = default;
};

struct ReplicaColumnProof {
    ColumnProof c_x;
    std::vector<ColumnProof> drg_parents;  // 6
    std::vector<ColumnProof> exp_parents;  // 8
    bool operator==(const ReplicaColumnProof&) const = default;
};

// LabelingProof and EncodingProof have the same fields.
struct LabelingProof {
    std::vector<Bytes32> parents;  // 37
    uint32_t layer_index = 0;
    uint64_t node = 0;
    bool operator==(const LabelingProof&) const = default;
};

struct VanillaProof {
    MerkleProof comm_d_proofs;      // tree D: SHA-256, binary
    MerkleProof comm_r_last_proof;  // tree R: Poseidon, the config's shape
    ReplicaColumnProof replica_column_proofs;
    std::vector<LabelingProof> labeling_proofs;  // one per layer
    LabelingProof encoding_proof;
    bool operator==(const VanillaProof&) const = default;
};

struct SealCommitPhase1Output {
    RegisteredSealProof registered_proof{};
    std::vector<std::vector<VanillaProof>> vanilla_proofs;  // [partition][challenge]
    Bytes32 comm_r{}, comm_d{}, replica_id{}, seed{}, ticket{};
    bool operator==(const SealCommitPhase1Output&) const = default;
};

// Parses and validates the structure against the registered proof's config: partition and
// challenge counts, layers, 6 + 8 parent columns, 37 label parents, Merkle proof kind, path
// lengths, siblings per level, index ranges, and every domain value a canonical Fr. Malformed
// or truncated input throws formats::FormatError naming `file` and the JSON path, e.g.
// "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].comm_r_last_proof.data.Single.path.path[1]
// .hashes: expected 7 siblings, found 6".
// The text is read as a stream (one challenge proof's DOM at a time, see c1.cpp's C1Reader), so
// the memory it takes is bounded by c1_parse_bytes; registered_proof must precede
// vanilla_proofs, as serde writes them. A proof, partition or field with more values than
// its shape allows is refused naming it.
SealCommitPhase1Output parse_c1_output(std::string_view json, std::string_view file = "c1 output");
// The most memory parse_c1_output takes beyond its input for `text_bytes` of JSON (the result
// and one challenge proof's DOM): what the engine reserves from its budget before parsing.
uint64_t c1_parse_bytes(uint64_t text_bytes);
// The heap bytes a parsed C1 output holds (what the engine keeps reserved while the job lives).
uint64_t c1_heap_bytes(const SealCommitPhase1Output& c1);
SealCommitPhase1Output read_c1_output_file(const std::string& path);

// serde_json::to_vec's form: compact, fields in declaration order. parse ∘ write is the
// identity, and write ∘ parse reproduces filecoin-ffi's bytes.
std::string write_c1_output(const SealCommitPhase1Output& c1);

// Checks that the vanilla proofs are consistent (throws formats::FormatError naming the field):
// the challenges derived from replica_id and seed (or comm_r for NI-PoRep) are the proven
// nodes in every proof; parent columns sit at the graph's parents; every column's tree-C leaf
// is the Poseidon hash of its rows (arity = layers) and its path hashes to its root; labeling
// proofs carry the column labels in the hash order and hash to the challenge's column rows;
// the encoding proof repeats the last labeling proof and key + data = the tree-R leaf, whose
// Poseidon path hashes to its root; every tree-D path hashes (SHA-256, binary, 254-bit) to
// comm_d; all tree-R and tree-C roots agree; comm_r = Poseidon2(comm_c, comm_r_last).
// Not checkable from C1: that replica_id derives from a prover id, sector id and ticket.
// Synthetic PoRep throws std::logic_error (its challenges come from a Poseidon-based generator).
void check_c1_consistency(const SealCommitPhase1Output& c1, std::string_view file = "c1 output");

}  // namespace cuzk::filecoin
