// Internal to src/filecoin: conversions between the native Merkle trees (gadgets/merkle.hpp,
// values as Fr) and the C1 JSON structures (c1.hpp, values as 32-byte little-endian reprs).
#pragma once

#include <stdexcept>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/filecoin/c1.hpp"
#include "cuzk/gadgets/merkle.hpp"

namespace cuzk::filecoin::detail {

inline Fr to_fr(const Bytes32& b) {
    const auto f = Fr::from_bytes_le(b.data());
    if (!f) throw std::invalid_argument("value is not a canonical Fr");
    return *f;
}
inline Bytes32 to_bytes(const Fr& f) { return f.to_bytes_le(); }

// The native shape of a tree C / tree R (Poseidon) of this config.
inline gadgets::TreeShape poseidon_shape(const PoRepConfig& cfg) {
    return gadgets::TreeShape::poseidon(cfg.tree.base_arity, cfg.tree.sub_arity, cfg.tree.top_arity);
}

// A C1 Merkle proof from a leaf, a root and the path bottom up (base levels, then the sub level
// and the top level when `tree` has them). Tree D is TreeShape{2, 0, 0}: a Single proof.
inline MerkleProof c1_merkle_proof(const Fr& leaf, const Fr& root, const std::vector<gadgets::PathElement>& path,
                                   const TreeShape& tree) {
    MerkleProof m;
    m.kind = tree.top_arity   ? MerkleProof::Kind::Top
             : tree.sub_arity ? MerkleProof::Kind::Sub
                              : MerkleProof::Kind::Single;
    m.leaf = to_bytes(leaf);
    m.root = to_bytes(root);
    const size_t upper = (tree.sub_arity ? 1 : 0) + (tree.top_arity ? 1 : 0);
    if (path.size() <= upper) throw std::logic_error("c1_merkle_proof: path shorter than the tree shape");
    for (size_t l = 0; l < path.size(); ++l) {
        PathElement e;
        e.index = path[l].index;
        for (const Fr& s : path[l].siblings) e.hashes.push_back(to_bytes(s));
        const size_t base = path.size() - upper;
        (l < base ? m.base : l == base && tree.sub_arity ? m.sub : m.top).push_back(std::move(e));
    }
    return m;
}

inline MerkleProof c1_merkle_proof(const gadgets::MerkleProof& p, const TreeShape& tree) {
    return c1_merkle_proof(p.leaf, p.root, p.path, tree);
}

}  // namespace cuzk::filecoin::detail
