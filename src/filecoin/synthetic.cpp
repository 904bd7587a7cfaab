// Synthetic but consistent C1 outputs for any sector size (see seal.hpp): only the nodes on
// challenged paths are materialized.
#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>

#include "cuzk/filecoin/graph.hpp"
#include "cuzk/filecoin/sdr.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/gadgets/merkle.hpp"
#include "cuzk/gadgets/poseidon.hpp"
#include "cuzk/hash/sha256.hpp"
#include "proof_paths.hpp"
#include "sparse_tree.hpp"

namespace cuzk::filecoin {

using detail::Derive;
using detail::SparseTree;
using detail::to_bytes;
using detail::to_fr;

namespace {

void report(const ProgressFn& progress, const std::string& line) {
    if (progress) progress(line);
}

}  // namespace

SealCommitPhase1Output synthetic_c1(RegisteredSealProof proof, uint64_t seed, const ProgressFn& progress,
                                    SyntheticChallenges mode) {
    const PoRepConfig& cfg = porep_config(proof);
    const bool from_seed = mode == SyntheticChallenges::FromSeed && cfg.kind == PoRepKind::NonInteractivePoRep;
    if (cfg.kind != PoRepKind::Interactive && !from_seed)
        throw std::invalid_argument(std::string(cfg.name) +
                                    ": synthetic vanilla proofs are made for interactive PoRep only (the "
                                    "challenges of NI-PoRep and synthetic PoRep depend on the trees)");
    const Derive derive(seed);
    const StackedGraph g(cfg);

    SealCommitPhase1Output c1;
    c1.registered_proof = proof;
    c1.replica_id = derive("replica_id");
    c1.seed = derive("seed");
    c1.ticket = derive("ticket");

    // The challenges and the nodes whose columns are opened.
    report(progress, "challenges: " + std::to_string(cfg.partitions) + " partitions × " +
                         std::to_string(cfg.challenges_per_partition));
    std::vector<std::vector<uint64_t>> challenges;
    std::set<uint64_t> challenged;
    for (unsigned k = 0; k < cfg.partitions; ++k) {
        challenges.push_back(from_seed ? interactive_challenges(cfg.nodes, c1.replica_id, c1.seed,
                                                                cfg.challenges_per_partition, uint8_t(k))
                                       : porep_challenges(cfg, c1.replica_id, c1.seed, c1.comm_r, k));
        challenged.insert(challenges.back().begin(), challenges.back().end());
    }
    std::map<uint64_t, std::array<uint32_t, kDegree>> parents;
    for (uint64_t c : challenged) g.parents(c, parents[c]);

    // Columns: random for parents, computed by the label function for challenges (layer by
    // layer, challenges in increasing order: a DRG parent is below its child, an expander
    // parent is read from the layer below).
    std::map<uint64_t, std::vector<Bytes32>> columns;
    for (const auto& [c, ps] : parents)
        for (uint32_t p : ps)
            if (!challenged.count(p) && !columns.count(p)) {
                std::vector<Bytes32> rows;
                for (unsigned l = 0; l < cfg.layers; ++l) rows.push_back(derive("column", p, l));
                columns.emplace(p, std::move(rows));
            }
    for (uint64_t c : challenged) columns[c].resize(cfg.layers);
    report(progress, "labels: " + std::to_string(challenged.size()) + " challenged nodes × " +
                         std::to_string(cfg.layers) + " layers");
    for (uint32_t layer = 1; layer <= cfg.layers; ++layer)
        for (uint64_t c : challenged) {
            const auto& ps = parents[c];
            const unsigned base = layer == 1 ? kBaseDegree : kDegree;
            std::vector<Bytes32> in(kTotalParents);
            for (unsigned i = 0; i < base; ++i) in[i] = columns.at(ps[i])[i < kBaseDegree ? layer - 1 : layer - 2];
            for (unsigned i = base; i < kTotalParents; ++i) in[i] = in[i % base];
            columns[c][layer - 1] = label_from_parents(c1.replica_id, layer, c, in);
        }

    // The leaves of the three trees.
    std::map<uint64_t, Fr> data, encoded, column_hashes;
    for (uint64_t c : challenged) {
        data[c] = to_fr(derive("data", c));
        encoded[c] = to_fr(columns[c].back()) + data[c];
    }
    const auto& column_constants = gadgets::poseidon_constants(cfg.layers);
    std::vector<Fr> rows(cfg.layers);
    for (const auto& [n, col] : columns) {
        for (unsigned l = 0; l < cfg.layers; ++l) rows[l] = to_fr(col[l]);
        column_hashes[n] = gadgets::poseidon_hash(column_constants, rows);
    }
    const auto shape = detail::poseidon_shape(cfg);
    report(progress, "tree D: " + std::to_string(challenged.size()) + " paths of " +
                         std::to_string(cfg.comm_d_path_levels()) + " levels");
    const SparseTree tree_d(gadgets::MerkleHasher::Sha256, gadgets::TreeShape::sha256_binary().level_arities(cfg.nodes),
                            derive, "tree_d", data);
    report(progress, "tree C: " + std::to_string(columns.size()) + " paths, " + cfg.tree.display());
    const SparseTree tree_c(gadgets::MerkleHasher::Poseidon, shape.level_arities(cfg.nodes), derive, "tree_c",
                            column_hashes);
    report(progress, "tree R_last: " + std::to_string(challenged.size()) + " paths, " + cfg.tree.display());
    const SparseTree tree_r(gadgets::MerkleHasher::Poseidon, shape.level_arities(cfg.nodes), derive, "tree_r", encoded);
    c1.comm_d = to_bytes(tree_d.root());
    const std::array<Fr, 2> pair{tree_c.root(), tree_r.root()};
    c1.comm_r = to_bytes(gadgets::poseidon_hash(pair));

    auto column_proof = [&](uint64_t n) {
        ColumnProof cp;
        cp.column.index = uint32_t(n);
        cp.column.rows = columns.at(n);
        cp.inclusion_proof = detail::c1_merkle_proof(tree_c.leaf(n), tree_c.root(), tree_c.path(n), cfg.tree);
        return cp;
    };
    report(progress, "vanilla proofs");
    for (unsigned k = 0; k < cfg.partitions; ++k) {
        std::vector<VanillaProof> part;
        for (uint64_t c : challenges[k]) {
            VanillaProof p;
            p.comm_d_proofs =
                detail::c1_merkle_proof(tree_d.leaf(c), tree_d.root(), tree_d.path(c), TreeShape{2, 0, 0});
            p.comm_r_last_proof = detail::c1_merkle_proof(tree_r.leaf(c), tree_r.root(), tree_r.path(c), cfg.tree);
            p.replica_column_proofs.c_x = column_proof(c);
            const auto& ps = parents.at(c);
            for (unsigned j = 0; j < kDegree; ++j)
                (j < kBaseDegree ? p.replica_column_proofs.drg_parents : p.replica_column_proofs.exp_parents)
                    .push_back(column_proof(ps[j]));
            for (uint32_t layer = 1; layer <= cfg.layers; ++layer) {
                const unsigned base = layer == 1 ? kBaseDegree : kDegree;
                LabelingProof lp{std::vector<Bytes32>(kTotalParents), layer, c};
                for (unsigned i = 0; i < base; ++i)
                    lp.parents[i] = columns.at(ps[i])[i < kBaseDegree ? layer - 1 : layer - 2];
                for (unsigned i = base; i < kTotalParents; ++i) lp.parents[i] = lp.parents[i % base];
                p.labeling_proofs.push_back(std::move(lp));
            }
            p.encoding_proof = p.labeling_proofs.back();
            part.push_back(std::move(p));
        }
        c1.vanilla_proofs.push_back(std::move(part));
    }
    return c1;
}

}  // namespace cuzk::filecoin
