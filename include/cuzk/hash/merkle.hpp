// Filecoin Merkle trees, natively: building, roots and inclusion paths (the hash layer; the
// vanilla side of the `por` gadget in cuzk/gadgets/por.hpp).
//
// A tree has base levels of arity base_arity, then optionally one sub level (sub_arity) and
// one top level (top_arity): rust-fil-proofs' MerkleTreeWrapper<H, _, U, V, W> (storage-proofs-
// core/src/merkle/), where the top tree hashes the roots of sub trees, which hash the roots of
// base trees. Base trees hold consecutive leaves, so the whole thing is a tree whose levels have
// these arities and whose nodes hash consecutive groups; the leaf index's little-endian bits,
// log2(arity) per level from the bottom, are the insertion indices of the path.
//   Poseidon trees (tree C, tree R): node = Poseidon_arity(children), MerkleTree domain tag
//     (filecoin-hashers/src/poseidon.rs::multi_node). Shapes 8-0-0, 8-8-0, 8-8-2; binary 2-0-0.
//   SHA-256 trees (tree D): binary; node = SHA-256(left ‖ right) over the 32-byte little-endian
//     encodings, with the digest's last byte &= 0x3F (filecoin-hashers/src/sha256.rs::node,
//     trim_to_fr32), read back as a little-endian Fr.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"

namespace cuzk::hash {

enum class MerkleHasher : uint8_t { Poseidon, Sha256 };

struct TreeShape {
    MerkleHasher hasher = MerkleHasher::Poseidon;
    uint32_t base_arity = 8;
    uint32_t sub_arity = 0;  // 0: no sub level
    uint32_t top_arity = 0;  // 0: no top level (a top level needs a sub level)

    static TreeShape poseidon(uint32_t base, uint32_t sub = 0, uint32_t top = 0) {
        return {MerkleHasher::Poseidon, base, sub, top};
    }
    static TreeShape sha256_binary() { return {MerkleHasher::Sha256, 2, 0, 0}; }

    // Checks the arities (powers of two; SHA-256 is binary only) and that `leaves` fills the
    // tree exactly; returns the number of base levels. Throws std::invalid_argument otherwise.
    size_t base_levels(uint64_t leaves) const;
    // Arities of all levels, bottom up.
    std::vector<uint32_t> level_arities(uint64_t leaves) const;
};

// One level of an inclusion path: the other arity - 1 children of the group, in order, and the
// position of the proven node among the arity children.
struct PathElement {
    std::vector<Fr> siblings;
    uint32_t index = 0;
};

struct MerkleProof {
    TreeShape shape;
    Fr leaf = Fr::zero();
    Fr root = Fr::zero();
    std::vector<PathElement> path;  // base levels, then the sub level, then the top level

    // Recomputes the root from the leaf along the path.
    Fr computed_root() const;
    bool verify() const { return computed_root() == root; }
    // The leaf index the path encodes: Σ index_l · Π_{k<l} arity_k.
    uint64_t leaf_index() const;
};

// The inclusion path of leaf `index` in a tree whose level l (0: the leaves) hashes groups of
// arities[l] consecutive nodes: per level, bottom up, the position among its group and the
// other arity - 1 nodes of the group, read with node(level, index) -> Fr. The one walk that
// MerkleTree (all nodes stored) and the sparse trees of synthetic vanilla proofs (nodes made on
// demand, src/filecoin/synthetic.cpp) share.
template <class NodeAt>
std::vector<PathElement> merkle_path(std::span<const uint32_t> arities, uint64_t index, NodeAt&& node) {
    std::vector<PathElement> path;
    path.reserve(arities.size());
    for (size_t l = 0; l < arities.size(); ++l) {
        const uint32_t a = arities[l];
        const uint64_t first = index - index % a;
        PathElement e;
        e.index = uint32_t(index % a);
        e.siblings.reserve(a - 1);
        for (uint64_t k = first; k < first + a; ++k)
            if (k != index) e.siblings.push_back(node(l, k));
        path.push_back(std::move(e));
        index /= a;
    }
    return path;
}

// The hash of one group of children.
Fr merkle_node(MerkleHasher h, std::span<const Fr> children);
// SHA-256 node hash of two children (filecoin-hashers Sha256Function::hash2 / node).
Fr sha256_node(const Fr& left, const Fr& right);

// A tree with every node stored; each level is hashed with parallel_for.
class MerkleTree {
 public:
    MerkleTree(TreeShape shape, std::vector<Fr> leaves);

    const TreeShape& shape() const { return shape_; }
    const Fr& root() const { return levels_.back()[0]; }
    uint64_t num_leaves() const { return levels_[0].size(); }
    const std::vector<std::vector<Fr>>& levels() const { return levels_; }  // leaves first, root last
    MerkleProof prove(uint64_t index) const;

 private:
    TreeShape shape_;
    std::vector<uint32_t> arities_;
    std::vector<std::vector<Fr>> levels_;
};

}  // namespace cuzk::hash
