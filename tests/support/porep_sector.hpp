// A small self-consistent sealed sector for PoRep circuit tests: pseudo-random data, tree D
// (SHA-256, binary), SDR labels (filecoin::sdr_labels), tree C over the column hashes
// (Poseidon of arity = layers), tree R over the encoded nodes (last label + data), comm_r =
// Poseidon2(comm_c, comm_r_last), and the vanilla proofs of a partition's challenges in the
// C1 form (filecoin::VanillaProof). Everything is held in memory: test sizes only (2 KiB).
//
// Stand-in for the sealer (src/filecoin/seal*): once it lands, its C1 output can replace
// build_test_sector + partition_proofs in the tests unchanged (they consume VanillaProof).
#pragma once

#include <optional>
#include <random>
#include <vector>

#include "cuzk/filecoin/c1.hpp"
#include "cuzk/filecoin/graph.hpp"
#include "cuzk/filecoin/sdr.hpp"
#include "cuzk/gadgets/merkle.hpp"
#include "cuzk/gadgets/poseidon.hpp"

namespace cuzk::test {

struct TestSector {
    const filecoin::PoRepConfig* cfg = nullptr;
    std::optional<filecoin::StackedGraph> graph;
    filecoin::Bytes32 replica_id{}, comm_d{}, comm_r{}, comm_c{}, comm_r_last{}, seed{}, ticket{}, prover_id{};
    uint64_t sector_id = 0;
    std::vector<std::vector<filecoin::Bytes32>> labels;  // [layer - 1][node]
    std::optional<gadgets::MerkleTree> tree_d, tree_c, tree_r;
};

inline filecoin::Bytes32 to_bytes(const Fr& x) { return x.to_bytes_le(); }

inline Fr to_fr(const filecoin::Bytes32& b) { return *Fr::from_bytes_le(b.data()); }

// A Poseidon or SHA-256 tree's path in the C1 form: base levels, then sub, then top.
inline filecoin::MerkleProof to_vanilla(const gadgets::MerkleProof& p) {
    filecoin::MerkleProof m;
    m.root = to_bytes(p.root);
    m.leaf = to_bytes(p.leaf);
    const size_t extra = (p.shape.sub_arity ? 1 : 0) + (p.shape.top_arity ? 1 : 0);
    const size_t nbase = p.path.size() - extra;
    for (size_t l = 0; l < p.path.size(); ++l) {
        filecoin::PathElement e;
        for (const Fr& s : p.path[l].siblings) e.hashes.push_back(to_bytes(s));
        e.index = p.path[l].index;
        (l < nbase ? m.base : (l == nbase && p.shape.sub_arity ? m.sub : m.top)).push_back(std::move(e));
    }
    m.kind = p.shape.top_arity   ? filecoin::MerkleProof::Kind::Top
             : p.shape.sub_arity ? filecoin::MerkleProof::Kind::Sub
                                 : filecoin::MerkleProof::Kind::Single;
    return m;
}

// Seals pseudo-random data (seeded) under `proof` (interactive PoRep, test sizes).
inline TestSector build_test_sector(filecoin::RegisteredSealProof proof, uint64_t seed) {
    TestSector s;
    s.cfg = &filecoin::porep_config(proof);
    const auto& cfg = *s.cfg;
    std::mt19937_64 rng(seed);
    auto random_bytes = [&] {
        filecoin::Bytes32 b;
        for (auto& x : b) x = uint8_t(rng());
        return b;
    };
    s.prover_id = random_bytes();
    s.ticket = random_bytes();
    s.seed = random_bytes();
    s.sector_id = rng() % 100000;
    std::vector<Fr> data(cfg.nodes);
    for (auto& d : data) {
        auto b = random_bytes();
        b[31] &= 0x3f;  // fr32 padding: every 32-byte node is a canonical Fr
        d = to_fr(b);
    }
    s.tree_d.emplace(gadgets::TreeShape::sha256_binary(), data);
    s.comm_d = to_bytes(s.tree_d->root());
    s.replica_id = filecoin::generate_replica_id(s.prover_id, s.sector_id, s.ticket, s.comm_d, cfg.porep_id);
    s.graph.emplace(cfg);
    s.labels = filecoin::sdr_labels(*s.graph, cfg.layers, s.replica_id);

    const auto shape = gadgets::TreeShape::poseidon(cfg.tree.base_arity, cfg.tree.sub_arity, cfg.tree.top_arity);
    std::vector<Fr> columns(cfg.nodes), encoded(cfg.nodes);
    std::vector<Fr> rows(cfg.layers);
    for (uint64_t n = 0; n < cfg.nodes; ++n) {
        for (unsigned l = 0; l < cfg.layers; ++l) rows[l] = to_fr(s.labels[l][n]);
        columns[n] = gadgets::poseidon_hash(rows);
        encoded[n] = rows.back() + data[n];
    }
    s.tree_c.emplace(shape, columns);
    s.tree_r.emplace(shape, encoded);
    s.comm_c = to_bytes(s.tree_c->root());
    s.comm_r_last = to_bytes(s.tree_r->root());
    const Fr pre[2] = {s.tree_c->root(), s.tree_r->root()};
    s.comm_r = to_bytes(gadgets::poseidon_hash(pre));
    return s;
}

inline filecoin::ColumnProof column_proof(const TestSector& s, uint64_t node) {
    filecoin::ColumnProof c;
    c.column.index = uint32_t(node);
    for (const auto& layer : s.labels) c.column.rows.push_back(layer[node]);
    c.inclusion_proof = to_vanilla(s.tree_c->prove(node));
    return c;
}

// The vanilla proof of one challenged node (stacked/vanilla/proof.rs prove_layers).
inline filecoin::VanillaProof vanilla_proof(const TestSector& s, uint64_t challenge) {
    filecoin::VanillaProof v;
    v.comm_d_proofs = to_vanilla(s.tree_d->prove(challenge));
    v.comm_r_last_proof = to_vanilla(s.tree_r->prove(challenge));
    v.replica_column_proofs.c_x = column_proof(s, challenge);
    std::array<uint32_t, filecoin::kDegree> parents{};
    s.graph->parents(challenge, parents);
    for (unsigned i = 0; i < filecoin::kDegree; ++i)
        (i < filecoin::kBaseDegree ? v.replica_column_proofs.drg_parents : v.replica_column_proofs.exp_parents)
            .push_back(column_proof(s, parents[i]));
    for (uint32_t layer = 1; layer <= s.cfg->layers; ++layer) {
        filecoin::LabelingProof lp;
        lp.parents = filecoin::label_parents(*s.graph, s.labels, layer, challenge);
        lp.layer_index = layer;
        lp.node = challenge;
        v.labeling_proofs.push_back(std::move(lp));
    }
    v.encoding_proof = v.labeling_proofs.back();
    return v;
}

// The vanilla proofs of partition k's challenges (derived from replica_id and `seed`).
inline std::vector<filecoin::VanillaProof> partition_proofs(const TestSector& s, unsigned k,
                                                            const filecoin::Bytes32& seed) {
    std::vector<filecoin::VanillaProof> out;
    for (uint64_t c : filecoin::porep_challenges(*s.cfg, s.replica_id, seed, s.comm_r, k))
        out.push_back(vanilla_proof(s, c));
    return out;
}

// The whole C1 output (every partition), e.g. for filecoin::check_c1_consistency.
inline filecoin::SealCommitPhase1Output c1_output(const TestSector& s) {
    filecoin::SealCommitPhase1Output c1;
    c1.registered_proof = s.cfg->proof;
    for (unsigned k = 0; k < s.cfg->partitions; ++k) c1.vanilla_proofs.push_back(partition_proofs(s, k, s.seed));
    c1.comm_r = s.comm_r;
    c1.comm_d = s.comm_d;
    c1.replica_id = s.replica_id;
    c1.seed = s.seed;
    c1.ticket = s.ticket;
    return c1;
}

}  // namespace cuzk::test
