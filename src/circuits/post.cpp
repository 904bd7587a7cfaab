// The Fallback PoSt circuit's construction from vanilla proofs and its public inputs (the
// synthesis is in the header).
#include "cuzk/circuits/post.hpp"

#include <stdexcept>

#include "cuzk/circuits/porep.hpp"

namespace cuzk::circuits {

namespace {

Fr canonical(const filecoin::Bytes32& b, const std::string& what) { return fr_from_bytes32(b, what.c_str()); }

}  // namespace

FallbackPoStParams FallbackPoStParams::from_config(const filecoin::PoStConfig& cfg) {
    FallbackPoStParams p;
    p.nodes = cfg.nodes;
    p.sectors = cfg.circuit_sectors;
    p.challenges = cfg.circuit_challenges;
    p.tree = filecoin::post_tree_shape(cfg);
    return p;
}

FallbackPoStCircuit FallbackPoStCircuit::blank(const FallbackPoStParams& params) {
    std::vector<gadgets::PathElement> path;
    for (uint32_t a : params.arities()) path.push_back({std::vector<Fr>(a - 1, Fr::zero()), 0});
    PoStCircuitSector s;
    s.leaves.assign(params.challenges, Fr::zero());
    s.paths.assign(params.challenges, path);
    FallbackPoStCircuit c;
    c.params = params;
    c.sectors.assign(params.sectors, s);
    return c;
}

FallbackPoStCircuit FallbackPoStCircuit::from_sector_proofs(const FallbackPoStParams& params,
                                                            std::span<const filecoin::Bytes32> comm_rs,
                                                            std::span<const filecoin::PoStSectorProof> proofs) {
    if (proofs.empty() || proofs.size() > params.sectors || comm_rs.size() != proofs.size())
        throw std::invalid_argument("FallbackPoStCircuit: " + std::to_string(proofs.size()) + " sector proofs and " +
                                    std::to_string(comm_rs.size()) + " comm_rs for a circuit of " +
                                    std::to_string(params.sectors) + " sectors");
    const auto arities = params.arities();
    FallbackPoStCircuit c;
    c.params = params;
    c.sectors.reserve(params.sectors);
    for (size_t i = 0; i < proofs.size(); ++i) {
        const std::string who = "sector " + std::to_string(i);
        const filecoin::PoStSectorProof& sp = proofs[i];
        if (sp.inclusion_proofs.size() != params.challenges)
            throw std::invalid_argument(who + ": " + std::to_string(sp.inclusion_proofs.size()) +
                                        " inclusion proofs for " + std::to_string(params.challenges) + " challenges");
        PoStCircuitSector s;
        s.comm_r = canonical(comm_rs[i], who + ": comm_r");
        s.comm_c = canonical(sp.comm_c, who + ": comm_c");
        s.comm_r_last = canonical(sp.comm_r_last, who + ": comm_r_last");
        for (size_t j = 0; j < sp.inclusion_proofs.size(); ++j) {
            const std::string field = who + ": inclusion_proofs[" + std::to_string(j) + "]";
            const filecoin::MerkleProof& m = sp.inclusion_proofs[j];
            s.leaves.push_back(canonical(m.leaf, field + ".leaf"));
            auto path = filecoin::merkle_path_fr(m, field);
            if (path.size() != arities.size())
                throw std::invalid_argument(field + ": a path of " + std::to_string(path.size()) +
                                            " levels, the sector needs " + std::to_string(arities.size()));
            for (size_t l = 0; l < path.size(); ++l)
                if (path[l].siblings.size() + 1 != arities[l] || path[l].index >= arities[l])
                    throw std::invalid_argument(field + ": path level " + std::to_string(l) + " does not fit arity " +
                                                std::to_string(arities[l]));
            s.paths.push_back(std::move(path));
        }
        c.sectors.push_back(std::move(s));
    }
    while (c.sectors.size() < params.sectors) c.sectors.push_back(c.sectors.back());
    return c;
}

FallbackPoStCircuit FallbackPoStCircuit::window(const filecoin::PoStConfig& cfg, const filecoin::Bytes32& randomness,
                                                unsigned partition,
                                                std::span<const filecoin::FallbackPoStSectorProof> sectors) {
    filecoin::post_verify_window_partition(cfg, randomness, partition, sectors);
    std::vector<filecoin::Bytes32> comm_rs;
    std::vector<filecoin::PoStSectorProof> proofs;
    for (const auto& s : sectors) comm_rs.push_back(s.comm_r), proofs.push_back(s.sectors[0]);
    return from_sector_proofs(FallbackPoStParams::from_config(cfg), comm_rs, proofs);
}

FallbackPoStCircuit FallbackPoStCircuit::winning(const filecoin::PoStConfig& cfg, const filecoin::Bytes32& randomness,
                                                 std::span<const filecoin::FallbackPoStSectorProof> sectors) {
    filecoin::post_verify_winning(cfg, randomness, sectors);
    const filecoin::PoStSectorProof& sp = sectors[0].sectors[0];
    std::vector<filecoin::Bytes32> comm_rs(sp.inclusion_proofs.size(), sectors[0].comm_r);
    std::vector<filecoin::PoStSectorProof> proofs;
    proofs.reserve(sp.inclusion_proofs.size());
    for (const auto& m : sp.inclusion_proofs) proofs.push_back({{m}, sp.comm_c, sp.comm_r_last});
    return from_sector_proofs(FallbackPoStParams::from_config(cfg), comm_rs, proofs);
}

namespace {

// compound.rs generate_public_inputs for one partition: `per_sector` challenges a sector,
// `sector_count` sectors a partition, sector_index = partition · sector_count + i.
std::vector<Fr> fallback_public_inputs(const filecoin::PoStConfig& cfg, const filecoin::Bytes32& randomness,
                                       unsigned partition, unsigned sector_count, unsigned per_sector,
                                       std::span<const PoStPublicSector> sectors) {
    canonical(randomness, "randomness");
    if (sectors.empty() || sectors.size() > sector_count)
        throw std::invalid_argument(std::to_string(sectors.size()) + " sectors for a partition of " +
                                    std::to_string(sector_count));
    std::vector<Fr> in;
    in.reserve(size_t(sector_count) * (1 + per_sector));
    for (size_t i = 0; i < sectors.size(); ++i) {
        in.push_back(canonical(sectors[i].comm_r, "sector " + std::to_string(i) + ": comm_r"));
        const uint64_t sector_index = uint64_t(partition) * sector_count + i;
        for (unsigned n = 0; n < per_sector; ++n) {
            const uint64_t index = filecoin::post_challenge_index(cfg.api_version, sector_index, per_sector, n);
            in.push_back(
                Fr::from_u64(filecoin::post_leaf_challenge(cfg.nodes, randomness, sectors[i].sector_id, index)));
        }
    }
    const size_t per = 1 + per_sector;
    const std::vector<Fr> last(in.end() - per, in.end());
    while (in.size() < size_t(sector_count) * per) in.insert(in.end(), last.begin(), last.end());
    return in;
}

}  // namespace

std::vector<Fr> window_post_public_inputs(const filecoin::PoStConfig& cfg, const filecoin::Bytes32& randomness,
                                          unsigned partition, std::span<const PoStPublicSector> sectors) {
    if (cfg.type != filecoin::PoStType::Window)
        throw std::invalid_argument(std::string(cfg.name) + " is not a Window PoSt proof");
    return fallback_public_inputs(cfg, randomness, partition, cfg.circuit_sectors, cfg.circuit_challenges, sectors);
}

std::vector<Fr> winning_post_public_inputs(const filecoin::PoStConfig& cfg, const filecoin::Bytes32& randomness,
                                           const PoStPublicSector& sector) {
    if (cfg.type != filecoin::PoStType::Winning)
        throw std::invalid_argument(std::string(cfg.name) + " is not a Winning PoSt proof");
    const std::vector<PoStPublicSector> repeated(cfg.circuit_sectors, sector);
    return fallback_public_inputs(cfg, randomness, 0, cfg.circuit_sectors, cfg.circuit_challenges, repeated);
}

}  // namespace cuzk::circuits
