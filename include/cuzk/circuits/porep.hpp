// The StackedDRG PoRep circuit of one partition, bit-compatible with rust-fil-proofs (the
// published Groth16 parameters fix its R1CS: allocation order, constraint order and which
// variables occur in A and B). Sources, read for facts (rust-fil-proofs):
//   storage-proofs-porep/src/stacked/circuit/proof.rs   StackedCircuit::synthesize (header),
//                                                       StackedCompound::generate_public_inputs
//   storage-proofs-porep/src/stacked/circuit/params.rs  Proof::synthesize (one challenge)
//   storage-proofs-porep/src/stacked/circuit/{column,column_proof,hash,create_label}.rs
//   storage-proofs-core/src/gadgets/{por,encode,uint64,variables,constraint}.rs
//
// Synthesis (namespaces as in Rust):
//   header      replica_id (alloc, inputize, to_bits_le, bits reversed within bytes), comm_d
//               (alloc, inputize), comm_r (alloc, inputize), comm_r_last and comm_c (private),
//               comm_r · 1 = Poseidon2(comm_c, comm_r_last)                    571 constraints
//   challenge_i data_leaf; tree-D inclusion (SHA-256, binary, root = the comm_d variable);
//               6 DRG then 8 expander parent columns: rows allocated, column hash (Poseidon
//               arity = layers, 2 or 11), tree-C inclusion; the challenge as a UInt64 (64
//               bits) packed into one input; labels of layers 1..L (SHA-256 of replica_id ‖
//               u32_be(layer) ‖ u64_be(node) ‖ zeros to 512 bits ‖ 37 parents, the first 254
//               bits of the byte-bit-reversed digest packed); encoded = label_L + data_leaf;
//               tree-R inclusion of encoded; the challenge's own column hash in tree C.
// Every inclusion is por() with a private root and one public input, the leaf index.
//
// Public inputs (ONE excluded), StackedCompound::generate_public_inputs: replica_id, comm_d,
// comm_r, then per challenge: its tree-D index, the 6 DRG parents, the 8 expander parents,
// the challenge, its tree-R index, its tree-C index (every index is the node number):
// 3 + 18·c inputs.
//
// Constraints (tests/circuits/test_porep.cpp pins them): 2 KiB 2,687,921 (40 inputs with
// ONE), 8 MiB 3,844,929, 512 MiB 4,423,433, 32 GiB 130,278,541 (328 inputs).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/filecoin/c1.hpp"
#include "cuzk/filecoin/graph.hpp"
#include "cuzk/filecoin/registry.hpp"
#include "cuzk/gadgets/merkle.hpp"
#include "cuzk/groth16/circuit.hpp"

namespace cuzk::circuits {

// What fixes the circuit's shape (StackedDrg PublicParams, as far as the circuit sees it).
struct StackedParams {
    uint64_t nodes = 0;       // sector nodes (a power of two)
    unsigned layers = 0;      // 2 or 11 (the column hash arity)
    unsigned challenges = 0;  // per partition
    gadgets::TreeShape tree;  // tree C and tree R (Poseidon)
    static StackedParams from_config(const filecoin::PoRepConfig& cfg);
    // Levels of the tree-D path (log2 nodes) and of the tree-C/tree-R paths.
    size_t comm_d_levels() const;
    size_t tree_levels() const;
    // Arity of tree-C/tree-R level l (base levels, then sub, then top).
    uint32_t tree_arity(size_t level) const;
};

// One column of a parent node: its rows (label of layer 1..L) and its tree-C path.
struct StackedColumnProof {
    std::vector<Fr> rows;
    std::vector<gadgets::PathElement> path;
};

// One challenge's private values (params.rs Proof).
struct StackedChallengeProof {
    uint64_t challenge = 0;
    Fr data_leaf = Fr::zero();
    std::vector<gadgets::PathElement> comm_d_path;       // binary, log2(nodes) levels
    std::vector<StackedColumnProof> drg_parents;         // 6
    std::vector<StackedColumnProof> exp_parents;         // 8
    std::vector<gadgets::PathElement> comm_r_last_path;  // tree R
    std::vector<gadgets::PathElement> comm_c_path;       // tree C (the challenge's own column)
};

struct StackedCircuit {
    StackedParams params;
    Fr replica_id = Fr::zero(), comm_d = Fr::zero(), comm_r = Fr::zero();
    Fr comm_r_last = Fr::zero(), comm_c = Fr::zero();
    std::vector<StackedChallengeProof> proofs;  // params.challenges of them
    // Witness mode synthesizes the challenges in parallel (r1cs::WitnessCS::synthesize_blocks:
    // the same assignment, written in place); false: one after another.
    bool parallel_witness = true;

    // StackedCompound::blank_circuit: every value zero, every path of the right length.
    // Its shape is the circuit's shape (shape and count modes never read values).
    static StackedCircuit blank(const StackedParams& params);
    // StackedCompound::circuit: one partition of C1 output (comm_r_last and comm_c from the
    // proofs, which must agree). Throws std::invalid_argument on a value that is not a
    // canonical Fr, on paths of the wrong shape or inconsistent roots.
    static StackedCircuit from_vanilla(const filecoin::PoRepConfig& cfg, const filecoin::Bytes32& replica_id,
                                       const filecoin::Bytes32& comm_d, const filecoin::Bytes32& comm_r,
                                       std::span<const filecoin::VanillaProof> partition);

    template <class CS>
    void synthesize(CS& cs) const;
};

// StackedCompound::generate_public_inputs (ONE excluded) from the challenged nodes.
std::vector<Fr> stacked_public_inputs(const filecoin::StackedGraph& graph, const Fr& replica_id, const Fr& comm_d,
                                      const Fr& comm_r, std::span<const uint64_t> challenges);
// The same for a registered proof's partition, the challenges derived from replica_id and
// seed (interactive) or comm_r (NI-PoRep): what a verifier needs, no vanilla proof.
// Throws std::invalid_argument for a value that is not a canonical Fr, std::logic_error for
// synthetic PoRep (challenges not implemented in filecoin::porep_challenges).
std::vector<Fr> porep_public_inputs(filecoin::RegisteredSealProof proof, const filecoin::Bytes32& replica_id,
                                    const filecoin::Bytes32& comm_d, const filecoin::Bytes32& comm_r,
                                    const filecoin::Bytes32& seed, unsigned partition);

// A canonical little-endian Fr from 32 bytes; std::invalid_argument naming `what` otherwise.
Fr fr_from_bytes32(const filecoin::Bytes32& b, const char* what);

// A partition's R1CS sizes without recording it: the counts from counting mode (r1cs::CountCS:
// nothing stored, `cancel` checked between challenges), the non-zeros bounded by
// kPoRepNnzPerConstraint (tests/circuits/test_porep.cpp checks the bound on 2 KiB's shape).
r1cs::ShapeCounts porep_counts(const StackedParams& params, const CancelCheck& cancel = {});
// Non-zeros per constraint in A, B, C, at most: 2 KiB's shape has 2.39, 1.00, 2.17; the
// margin covers the other sectors' mix of gadgets (11 layers from 32 GiB on), whose shapes
// are too large to record in a test.
inline constexpr double kPoRepNnzPerConstraint[3] = {3.0, 1.5, 3.0};
// Distinct coefficients, at most: Poseidon's constants for each arity and powers of two
// (2 KiB's shape has 1,526), which do not grow with the sector's nodes.
inline constexpr uint64_t kPoRepCoeffs = uint64_t(1) << 16;

// The circuit type-erased for setup, the prover and the command line.
inline std::unique_ptr<groth16::Circuit> make_stacked_circuit(StackedCircuit c, std::string name = "porep") {
    return groth16::make_circuit(std::move(c), std::move(name));
}

}  // namespace cuzk::circuits

#include "cuzk/circuits/porep_impl.hpp"
