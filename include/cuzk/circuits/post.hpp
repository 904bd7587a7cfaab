// The Fallback PoSt circuit (Winning and Window PoSt), bit-compatible with rust-fil-proofs
// (the published Groth16 parameters fix its R1CS). Sources, read for facts (rust-fil-proofs):
//   storage-proofs-post/src/fallback/circuit.rs    Sector::synthesize, FallbackPoStCircuit
//   storage-proofs-post/src/fallback/compound.rs   generate_public_inputs, circuit, blank_circuit
//   storage-proofs-core/src/gadgets/{por,constraint}.rs
//   filecoin-proofs/src/api/post_util.rs           single_partition_vanilla_proofs (padding,
//                                                  Winning's 66 inclusion proofs as 66 sectors)
//
// Synthesis, per sector ("sector_i"): comm_r_last, comm_c, comm_r allocated (private), comm_r
// inputized, comm_r · 1 = Poseidon2(comm_c, comm_r_last) (313 constraints with the input);
// per challenge ("challenge_inclusion_j") the PoR gadget: the leaf allocated, its tree-R path
// (index bits, siblings, insert, Poseidon per level), the index bits packed into one public
// input (the leaf index), computed root · 1 = comm_r_last (530 per arity-8 level + 2).
// Missing sectors are filled with the last one (compound.rs circuit()).
//
// Public inputs (ONE excluded), compound.rs generate_public_inputs: per sector comm_r, then
// its challenged leaf indices; the last sector's inputs repeated up to the sector count.
//
// Constraints (tests/circuits/test_post.cpp pins them; inputs with ONE):
//   Winning (66 sectors × 1 challenge, 133 inputs): 2 KiB 90,750 · 8 MiB 230,670 ·
//     512 MiB 300,630 · 32 GiB 370,590 · 64 GiB 391,314.
//   Window per partition (10 challenges a sector): 2 KiB 21,866 · 8 MiB 64,266 ·
//     512 MiB 85,466 (2 sectors, 23 inputs) · 32 GiB 125,279,217 (2349 sectors, 25,840 inputs) ·
//     64 GiB 129,887,900 (2300 sectors, 25,301 inputs).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "cuzk/common/parallel.hpp"
#include "cuzk/filecoin/post.hpp"
#include "cuzk/filecoin/registry.hpp"
#include "cuzk/gadgets/merkle.hpp"
#include "cuzk/gadgets/num.hpp"
#include "cuzk/gadgets/por.hpp"
#include "cuzk/gadgets/poseidon.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/r1cs/count_cs.hpp"
#include "cuzk/r1cs/eval_cs.hpp"

namespace cuzk::circuits {

// FallbackPoSt PublicParams as far as the circuit sees them.
struct FallbackPoStParams {
    uint64_t nodes = 0;       // leaves of tree R (sector size / 32)
    unsigned sectors = 0;     // sectors of the circuit (Winning: 66)
    unsigned challenges = 0;  // challenges per sector (Winning: 1)
    gadgets::TreeShape tree;  // tree R (Poseidon)
    static FallbackPoStParams from_config(const filecoin::PoStConfig& cfg);
    // Arities of the tree-R path levels, bottom up (base, sub, top).
    std::vector<uint32_t> arities() const { return tree.level_arities(nodes); }
};

// One sector of the circuit (circuit.rs Sector): its commitments and, per challenge, the
// challenged leaf and its path in tree R.
struct PoStCircuitSector {
    Fr comm_r = Fr::zero(), comm_c = Fr::zero(), comm_r_last = Fr::zero();
    std::vector<Fr> leaves;
    std::vector<std::vector<gadgets::PathElement>> paths;
};

// (sector id, comm_r): what a verifier knows of a sector (fallback::PublicSector).
struct PoStPublicSector {
    uint64_t sector_id = 0;
    filecoin::Bytes32 comm_r{};
};

struct FallbackPoStCircuit {
    FallbackPoStParams params;
    std::vector<PoStCircuitSector> sectors;  // params.sectors of them
    // Witness mode synthesizes the sectors in parallel, each into its own block of the
    // assignment (r1cs::WitnessCS::synthesize_blocks); false: one after another.
    bool parallel_witness = true;

    // compound.rs blank_circuit: every value zero, every path of the right shape.
    static FallbackPoStCircuit blank(const FallbackPoStParams& params);
    // compound.rs circuit(): sector i from comm_rs[i] and proofs[i]; fewer than params.sectors:
    // the last repeated. Checks only what the circuit's shape needs (counts, path shapes,
    // canonical values): std::invalid_argument naming the sector and field otherwise. A proof
    // that does not verify gives an unsatisfied circuit.
    static FallbackPoStCircuit from_sector_proofs(const FallbackPoStParams& params,
                                                  std::span<const filecoin::Bytes32> comm_rs,
                                                  std::span<const filecoin::PoStSectorProof> proofs);
    // A Window PoSt partition from Curio's per-sector vanilla proofs (1..cfg.sector_count,
    // in the partition's order): post_verify_window_partition, then from_sector_proofs.
    static FallbackPoStCircuit window(const filecoin::PoStConfig& cfg, const filecoin::Bytes32& randomness,
                                      unsigned partition, std::span<const filecoin::FallbackPoStSectorProof> sectors);
    // Winning PoSt from its one sector's vanilla proof: post_verify_winning, then its 66
    // inclusion proofs as 66 circuit sectors of one challenge.
    static FallbackPoStCircuit winning(const filecoin::PoStConfig& cfg, const filecoin::Bytes32& randomness,
                                       std::span<const filecoin::FallbackPoStSectorProof> sectors);

    template <class CS>
    void synthesize(CS& cs) const;
};

// compound.rs generate_public_inputs (ONE excluded) for Window partition `partition` whose
// sectors (1..cfg.sector_count, in order) are given.
std::vector<Fr> window_post_public_inputs(const filecoin::PoStConfig& cfg, const filecoin::Bytes32& randomness,
                                          unsigned partition, std::span<const PoStPublicSector> sectors);
// The same for Winning PoSt: the sector repeated 66 times (verify_winning_post).
std::vector<Fr> winning_post_public_inputs(const filecoin::PoStConfig& cfg, const filecoin::Bytes32& randomness,
                                           const PoStPublicSector& sector);

inline std::unique_ptr<groth16::Circuit> make_post_circuit(FallbackPoStCircuit c, std::string name = "post") {
    return groth16::make_circuit(std::move(c), std::move(name));
}

namespace post_detail {

// circuit.rs Sector::synthesize.
template <class CS>
void synthesize_sector(CS& cs, const FallbackPoStParams& pp, const PoStCircuitSector& s) {
    using gadgets::AllocatedNum;
    if (s.leaves.size() != pp.challenges || s.paths.size() != pp.challenges)
        throw std::invalid_argument("FallbackPoStCircuit: a sector has " + std::to_string(s.leaves.size()) +
                                    " leaves and " + std::to_string(s.paths.size()) + " paths for " +
                                    std::to_string(pp.challenges) + " challenges");
    const size_t levels = pp.arities().size();
    for (const auto& p : s.paths)
        if (p.size() != levels)
            throw std::invalid_argument("FallbackPoStCircuit: a path of " + std::to_string(p.size()) +
                                        " levels, the sector needs " + std::to_string(levels));
    auto alloc = [&](const char* name, const Fr& v) {
        auto ns = cs.namespace_(name);
        return AllocatedNum::alloc(cs, [&] { return v; });
    };
    const AllocatedNum comm_r_last = alloc("comm_r_last", s.comm_r_last);
    const AllocatedNum comm_c = alloc("comm_c", s.comm_c);
    const AllocatedNum comm_r = alloc("comm_r", s.comm_r);
    {
        auto ns = cs.namespace_("comm_r_input");
        comm_r.inputize(cs);
    }
    AllocatedNum h;
    {
        auto ns = cs.namespace_("H_comm_c_comm_r_last");
        const AllocatedNum pre[2] = {comm_c, comm_r_last};
        h = gadgets::poseidon_hash_circuit(cs, std::span<const AllocatedNum>(pre));
    }
    // constraint::equal: comm_r · 1 = hash.
    cs.enforce("enforce_comm_c_comm_r_last_hash_comm_r", cs.lc(comm_r.var), cs.lc(r1cs::Variable::one()), cs.lc(h.var));
    for (size_t j = 0; j < s.paths.size(); ++j) {
        auto ns = cs.namespace_([j] { return "challenge_inclusion_" + std::to_string(j); });
        gadgets::por(cs, pp.tree, gadgets::NumOrValue::val(s.leaves[j]), s.paths[j],
                     gadgets::NumOrValue::var(comm_r_last), true);
    }
}

}  // namespace post_detail

template <class CS>
void FallbackPoStCircuit::synthesize(CS& cs) const {
    if (sectors.size() != params.sectors)
        throw std::invalid_argument("FallbackPoStCircuit: " + std::to_string(sectors.size()) + " sectors for " +
                                    std::to_string(params.sectors));
    if constexpr (std::is_same_v<CS, r1cs::WitnessCS>) {
        // Every sector has the same variables and constraints, so they are synthesized in
        // parallel, each into its own block: the counts of one block from counting sector 0.
        if (parallel_witness && sectors.size() > 1 && num_threads() > 1) {
            r1cs::CountCS counter;
            post_detail::synthesize_sector(counter, params, sectors[0]);
            const r1cs::BlockCounts per{counter.num_inputs() - 1, counter.num_aux(), counter.num_constraints()};
            cs.synthesize_blocks(sectors.size(), per, [&](size_t i, r1cs::SegmentCS& seg) {
                post_detail::synthesize_sector(seg, params, sectors[i]);
            });
            return;
        }
    }
    auto outer = cs.namespace_("outer namespace");
    for (size_t i = 0; i < sectors.size(); ++i) {
        auto ns = cs.namespace_([i] { return "sector_" + std::to_string(i); });
        post_detail::synthesize_sector(cs, params, sectors[i]);
    }
}

}  // namespace cuzk::circuits
