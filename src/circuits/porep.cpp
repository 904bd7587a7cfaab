#include "cuzk/circuits/porep.hpp"

#include <bit>
#include <stdexcept>

#include "cuzk/filecoin/sdr.hpp"

namespace cuzk::circuits {

namespace {

unsigned log2_exact(uint64_t x, const char* what) {
    if (x == 0 || (x & (x - 1))) throw std::invalid_argument(std::string(what) + " must be a power of two");
    return unsigned(std::countr_zero(x));
}

std::vector<gadgets::PathElement> blank_path(size_t levels, const StackedParams* pp) {
    std::vector<gadgets::PathElement> path(levels);
    for (size_t l = 0; l < levels; ++l) path[l].siblings.assign((pp ? pp->tree_arity(l) : 2) - 1, Fr::zero());
    return path;
}

}  // namespace

Fr fr_from_bytes32(const filecoin::Bytes32& b, const char* what) {
    auto f = Fr::from_bytes_le(b.data());
    if (!f) throw std::invalid_argument(std::string(what) + " is not a canonical field element");
    return *f;
}

StackedParams StackedParams::from_config(const filecoin::PoRepConfig& cfg) {
    StackedParams p;
    p.nodes = cfg.nodes;
    p.layers = cfg.layers;
    p.challenges = cfg.challenges_per_partition;
    p.tree = gadgets::TreeShape::poseidon(cfg.tree.base_arity, cfg.tree.sub_arity, cfg.tree.top_arity);
    return p;
}

size_t StackedParams::comm_d_levels() const { return log2_exact(nodes, "StackedParams: nodes"); }

size_t StackedParams::tree_levels() const {
    unsigned bits = log2_exact(nodes, "StackedParams: nodes");
    size_t extra = 0;
    if (tree.sub_arity) bits -= log2_exact(tree.sub_arity, "sub arity"), ++extra;
    if (tree.top_arity) bits -= log2_exact(tree.top_arity, "top arity"), ++extra;
    const unsigned base = log2_exact(tree.base_arity, "base arity");
    if (bits % base) throw std::invalid_argument("StackedParams: nodes do not fill the tree shape");
    return bits / base + extra;
}

uint32_t StackedParams::tree_arity(size_t level) const {
    const size_t n = tree_levels();
    const size_t extra = (tree.sub_arity ? 1 : 0) + (tree.top_arity ? 1 : 0);
    const size_t nbase = n - extra;
    if (level < nbase) return tree.base_arity;
    if (level == nbase && tree.sub_arity) return tree.sub_arity;
    return tree.top_arity;
}

r1cs::ShapeCounts porep_counts(const StackedParams& params, const CancelCheck& cancel) {
    r1cs::CountCS cs;
    cs.set_cancel(cancel);
    StackedCircuit::blank(params).synthesize(cs);
    r1cs::enforce_inputs_times_zero(cs);
    r1cs::ShapeCounts c;
    c.num_inputs = cs.num_inputs();
    c.num_aux = cs.num_aux();
    c.num_constraints = cs.num_constraints();
    const double m = double(c.num_constraints);
    c.nnz_a = uint64_t(m * kPoRepNnzPerConstraint[0]) + 1;
    c.nnz_b = uint64_t(m * kPoRepNnzPerConstraint[1]) + 1;
    c.nnz_c = uint64_t(m * kPoRepNnzPerConstraint[2]) + 1;
    c.coeffs = kPoRepCoeffs;
    return c;
}

StackedCircuit StackedCircuit::blank(const StackedParams& params) {
    StackedCircuit c;
    c.params = params;
    StackedChallengeProof p;
    p.comm_d_path = blank_path(params.comm_d_levels(), nullptr);
    const auto tree_path = blank_path(params.tree_levels(), &params);
    StackedColumnProof col{std::vector<Fr>(params.layers, Fr::zero()), tree_path};
    p.drg_parents.assign(filecoin::kBaseDegree, col);
    p.exp_parents.assign(filecoin::kExpDegree, col);
    p.comm_r_last_path = tree_path;
    p.comm_c_path = tree_path;
    c.proofs.assign(params.challenges, p);
    return c;
}

namespace {

// A vanilla Merkle proof's levels (base, sub, top) as the gadget's path, checking each
// level's arity against the shape.
std::vector<gadgets::PathElement> to_path(const filecoin::MerkleProof& mp, const StackedParams* pp, size_t levels,
                                          const char* what) {
    std::vector<gadgets::PathElement> out;
    auto add = [&](const std::vector<filecoin::PathElement>& v) {
        for (const filecoin::PathElement& e : v) {
            gadgets::PathElement g;
            for (const auto& h : e.hashes) g.siblings.push_back(fr_from_bytes32(h, what));
            g.index = uint32_t(e.index);
            out.push_back(std::move(g));
        }
    };
    add(mp.base);
    add(mp.sub);
    add(mp.top);
    if (out.size() != levels) throw std::invalid_argument(std::string(what) + ": wrong path length");
    for (size_t l = 0; l < out.size(); ++l) {
        const uint32_t arity = pp ? pp->tree_arity(l) : 2;
        if (out[l].siblings.size() + 1 != arity || out[l].index >= arity)
            throw std::invalid_argument(std::string(what) + ": path level does not match the tree shape");
    }
    return out;
}

StackedColumnProof to_column(const filecoin::ColumnProof& cp, const StackedParams& pp) {
    StackedColumnProof c;
    if (cp.column.rows.size() != pp.layers) throw std::invalid_argument("column proof: wrong number of rows");
    for (const auto& r : cp.column.rows) c.rows.push_back(fr_from_bytes32(r, "column row"));
    c.path = to_path(cp.inclusion_proof, &pp, pp.tree_levels(), "column inclusion proof");
    return c;
}

}  // namespace

StackedCircuit StackedCircuit::from_vanilla(const filecoin::PoRepConfig& cfg, const filecoin::Bytes32& replica_id,
                                            const filecoin::Bytes32& comm_d, const filecoin::Bytes32& comm_r,
                                            std::span<const filecoin::VanillaProof> partition) {
    StackedCircuit c;
    c.params = StackedParams::from_config(cfg);
    if (partition.size() != c.params.challenges)
        throw std::invalid_argument("StackedCircuit::from_vanilla: " + std::to_string(partition.size()) +
                                    " proofs for " + std::to_string(c.params.challenges) + " challenges");
    c.replica_id = fr_from_bytes32(replica_id, "replica_id");
    c.comm_d = fr_from_bytes32(comm_d, "comm_d");
    c.comm_r = fr_from_bytes32(comm_r, "comm_r");
    const filecoin::Bytes32 r_last = partition[0].comm_r_last_proof.root;
    const filecoin::Bytes32 cc = partition[0].replica_column_proofs.c_x.inclusion_proof.root;
    c.comm_r_last = fr_from_bytes32(r_last, "comm_r_last");
    c.comm_c = fr_from_bytes32(cc, "comm_c");
    const size_t tree_levels = c.params.tree_levels();
    for (const filecoin::VanillaProof& v : partition) {
        // StackedCompound::circuit: all proofs of a partition share comm_r_last and comm_c.
        if (v.comm_r_last_proof.root != r_last) throw std::invalid_argument("inconsistent comm_r_lasts");
        if (v.replica_column_proofs.c_x.inclusion_proof.root != cc) throw std::invalid_argument("inconsistent comm_cs");
        if (v.labeling_proofs.empty()) throw std::invalid_argument("vanilla proof without labeling proofs");
        StackedChallengeProof p;
        p.challenge = v.labeling_proofs[0].node;
        p.data_leaf = fr_from_bytes32(v.comm_d_proofs.leaf, "data leaf");
        p.comm_d_path = to_path(v.comm_d_proofs, nullptr, c.params.comm_d_levels(), "comm_d_proofs");
        p.comm_r_last_path = to_path(v.comm_r_last_proof, &c.params, tree_levels, "comm_r_last_proof");
        p.comm_c_path = to_path(v.replica_column_proofs.c_x.inclusion_proof, &c.params, tree_levels, "c_x");
        const auto& rcp = v.replica_column_proofs;
        if (rcp.drg_parents.size() != filecoin::kBaseDegree || rcp.exp_parents.size() != filecoin::kExpDegree)
            throw std::invalid_argument("replica column proofs: need 6 DRG and 8 expander parents");
        for (const auto& cp : rcp.drg_parents) p.drg_parents.push_back(to_column(cp, c.params));
        for (const auto& cp : rcp.exp_parents) p.exp_parents.push_back(to_column(cp, c.params));
        c.proofs.push_back(std::move(p));
    }
    return c;
}

std::vector<Fr> stacked_public_inputs(const filecoin::StackedGraph& graph, const Fr& replica_id, const Fr& comm_d,
                                      const Fr& comm_r, std::span<const uint64_t> challenges) {
    std::vector<Fr> in{replica_id, comm_d, comm_r};
    in.reserve(3 + 18 * challenges.size());
    for (uint64_t c : challenges) {
        if (c >= graph.size()) throw std::invalid_argument("stacked_public_inputs: challenge out of range");
        in.push_back(Fr::from_u64(c));  // tree-D path index
        std::array<uint32_t, filecoin::kBaseDegree> drg{};
        graph.drg_parents(c, drg);
        for (uint32_t p : drg) in.push_back(Fr::from_u64(p));
        std::array<uint32_t, filecoin::kExpDegree> exp{};
        graph.expander_parents(c, exp);
        for (uint32_t p : exp) in.push_back(Fr::from_u64(p));
        in.push_back(Fr::from_u64(c));  // the challenge (UInt64 packed)
        in.push_back(Fr::from_u64(c));  // tree-R path index
        in.push_back(Fr::from_u64(c));  // tree-C path index
    }
    return in;
}

std::vector<Fr> porep_public_inputs(filecoin::RegisteredSealProof proof, const filecoin::Bytes32& replica_id,
                                    const filecoin::Bytes32& comm_d, const filecoin::Bytes32& comm_r,
                                    const filecoin::Bytes32& seed, unsigned partition) {
    const filecoin::PoRepConfig& cfg = filecoin::porep_config(proof);
    if (partition >= cfg.partitions) throw std::invalid_argument("porep_public_inputs: partition out of range");
    const Fr rid = fr_from_bytes32(replica_id, "replica_id");
    const Fr d = fr_from_bytes32(comm_d, "comm_d");
    const Fr r = fr_from_bytes32(comm_r, "comm_r");
    const auto challenges = filecoin::porep_challenges(cfg, replica_id, seed, comm_r, partition);
    const filecoin::StackedGraph graph(cfg);
    return stacked_public_inputs(graph, rid, d, r, challenges);
}

}  // namespace cuzk::circuits
