// The EmptySectorUpdate circuit's construction from vanilla proofs and its public inputs (the
// synthesis is in the header).
#include "cuzk/circuits/update.hpp"

#include <stdexcept>

#include "cuzk/circuits/porep.hpp"

namespace cuzk::circuits {

namespace {

std::vector<std::vector<Fr>> siblings(const filecoin::MerkleProof& m, const std::string& what) {
    std::vector<std::vector<Fr>> out;
    for (const auto* part : {&m.base, &m.sub, &m.top})
        for (size_t l = 0; l < part->size(); ++l) {
            std::vector<Fr> row;
            for (const auto& h : (*part)[l].hashes) row.push_back(fr_from_bytes32(h, (what + " sibling").c_str()));
            out.push_back(std::move(row));
        }
    return out;
}

}  // namespace

EmptySectorUpdateCircuit EmptySectorUpdateCircuit::blank(const filecoin::UpdateConfig& cfg) {
    EmptySectorUpdateCircuit c;
    c.cfg = cfg;
    c.apex_leafs.assign(cfg.apex_leaf_count, Fr::zero());
    UpdateChallengeWitness w;
    for (uint32_t a : cfg.tree_r_arities()) w.path_r_old.emplace_back(a - 1, Fr::zero());
    w.path_r_new = w.path_r_old;
    w.path_d_new.assign(cfg.challenge_bit_len, std::vector<Fr>(1, Fr::zero()));
    c.challenges.assign(cfg.challenge_count, w);
    return c;
}

std::vector<Fr> update_public_inputs(const filecoin::UpdateConfig& cfg, const filecoin::UpdatePublicInputs& pub,
                                     unsigned k) {
    const unsigned h = pub.h ? pub.h : cfg.h_default();
    return {Fr::from_u64(cfg.k_and_h_select(k, h)), fr_from_bytes32(pub.comm_r_old, "comm_r_old"),
            fr_from_bytes32(pub.comm_d_new, "comm_d_new"), fr_from_bytes32(pub.comm_r_new, "comm_r_new")};
}

EmptySectorUpdateCircuit EmptySectorUpdateCircuit::from_partition_proof(const filecoin::UpdateConfig& cfg,
                                                                        const filecoin::UpdatePublicInputs& pub,
                                                                        unsigned k,
                                                                        const filecoin::UpdatePartitionProof& proof) {
    const std::string part = "partition " + std::to_string(k) + ": ";
    if (proof.apex_leafs.size() != cfg.apex_leaf_count || proof.challenge_proofs.size() != cfg.challenge_count)
        throw std::invalid_argument(part + std::to_string(proof.apex_leafs.size()) + " apex leaves and " +
                                    std::to_string(proof.challenge_proofs.size()) + " challenge proofs, a " +
                                    cfg.size_name() + " partition has " + std::to_string(cfg.apex_leaf_count) +
                                    " and " + std::to_string(cfg.challenge_count));
    EmptySectorUpdateCircuit c;
    c.cfg = cfg;
    const auto x = update_public_inputs(cfg, pub, k);
    c.k_and_h_select = x[0], c.comm_r_old = x[1], c.comm_d_new = x[2], c.comm_r_new = x[3];
    c.comm_c = fr_from_bytes32(proof.comm_c, (part + "comm_c").c_str());
    const auto& first = proof.challenge_proofs[0];
    c.root_r_old = fr_from_bytes32(first.proof_r_old.root, (part + "challenge_proofs[0].proof_r_old.root").c_str());
    c.root_r_new = fr_from_bytes32(first.proof_r_new.root, (part + "challenge_proofs[0].proof_r_new.root").c_str());
    for (size_t i = 0; i < proof.apex_leafs.size(); ++i)
        c.apex_leafs.push_back(
            fr_from_bytes32(proof.apex_leafs[i], (part + "apex_leafs[" + std::to_string(i) + "]").c_str()));
    const auto arities = cfg.tree_r_arities();
    const size_t part_from = cfg.challenge_bit_len - cfg.partition_bit_len;
    for (size_t i = 0; i < proof.challenge_proofs.size(); ++i) {
        const auto& cp = proof.challenge_proofs[i];
        const std::string field = part + "challenge_proofs[" + std::to_string(i) + "]";
        UpdateChallengeWitness w;
        w.leaf_r_old = fr_from_bytes32(cp.proof_r_old.leaf, (field + ".proof_r_old.leaf").c_str());
        w.leaf_d_new = fr_from_bytes32(cp.proof_d_new.leaf, (field + ".proof_d_new.leaf").c_str());
        w.leaf_r_new = fr_from_bytes32(cp.proof_r_new.leaf, (field + ".proof_r_new.leaf").c_str());
        w.path_r_old = siblings(cp.proof_r_old, field + ".proof_r_old");
        w.path_d_new = siblings(cp.proof_d_new, field + ".proof_d_new");
        w.path_r_new = siblings(cp.proof_r_new, field + ".proof_r_new");
        for (const auto* p : {&w.path_r_old, &w.path_r_new}) {
            bool fits = p->size() == arities.size();
            for (size_t l = 0; fits && l < p->size(); ++l) fits = (*p)[l].size() + 1 == arities[l];
            if (!fits) throw std::invalid_argument(field + ": a tree-R path does not fit tree " + cfg.tree.display());
        }
        bool fits = w.path_d_new.size() == cfg.challenge_bit_len;
        for (size_t l = 0; fits && l < w.path_d_new.size(); ++l) fits = w.path_d_new[l].size() == 1;
        if (!fits)
            throw std::invalid_argument(field + ": the tree-D path is not " + std::to_string(cfg.challenge_bit_len) +
                                        " binary levels");
        if (i > 0)
            for (size_t l = part_from; l < cfg.challenge_bit_len; ++l)
                if (w.path_d_new[l][0] != c.challenges[0].path_d_new[l][0])
                    throw std::invalid_argument(field + ".proof_d_new: level " + std::to_string(l) +
                                                " differs from challenge_proofs[0]'s partition path");
        c.challenges.push_back(std::move(w));
    }
    return c;
}

EmptySectorUpdateCircuit EmptySectorUpdateCircuit::partition(const filecoin::UpdateConfig& cfg,
                                                             const filecoin::UpdatePublicInputs& pub, unsigned k,
                                                             const filecoin::UpdatePartitionProof& proof) {
    filecoin::update_verify_partition(cfg, pub, k, proof);
    return from_partition_proof(cfg, pub, k, proof);
}

}  // namespace cuzk::circuits
