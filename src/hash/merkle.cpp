#include "cuzk/hash/merkle.hpp"

#include <stdexcept>
#include <string>

#include "cuzk/common/parallel.hpp"
#include "cuzk/hash/poseidon.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::hash {

namespace {
bool pow2(uint32_t a) { return a >= 2 && (a & (a - 1)) == 0; }
}  // namespace

size_t TreeShape::base_levels(uint64_t leaves) const {
    if (!pow2(base_arity) || (sub_arity && !pow2(sub_arity)) || (top_arity && !pow2(top_arity)))
        throw std::invalid_argument("merkle: arities must be powers of two (>= 2)");
    if (top_arity && !sub_arity) throw std::invalid_argument("merkle: a top level needs a sub level");
    if (hasher == MerkleHasher::Sha256 && (base_arity != 2 || sub_arity || top_arity))
        throw std::invalid_argument("merkle: SHA-256 trees are binary");
    uint64_t n = leaves;
    for (uint32_t a : {top_arity, sub_arity}) {
        if (!a) continue;
        if (n % a) throw std::invalid_argument("merkle: leaf count does not fit the tree shape");
        n /= a;
    }
    size_t h = 0;
    while (n > 1) {
        if (n % base_arity) throw std::invalid_argument("merkle: leaf count does not fit the tree shape");
        n /= base_arity;
        ++h;
    }
    if (n != 1 || h == 0) throw std::invalid_argument("merkle: leaf count does not fit the tree shape");
    return h;
}

std::vector<uint32_t> TreeShape::level_arities(uint64_t leaves) const {
    std::vector<uint32_t> a(base_levels(leaves), base_arity);
    if (sub_arity) a.push_back(sub_arity);
    if (top_arity) a.push_back(top_arity);
    return a;
}

Fr sha256_node(const Fr& left, const Fr& right) {
    uint8_t buf[64];
    left.to_bytes_le(buf);
    right.to_bytes_le(buf + 32);
    auto d = sha256_bytes(buf);
    d[31] &= 0x3F;  // trim_to_fr32: the top two bits go, so the value is below 2^254 < r
    return *Fr::from_bytes_le(d.data());
}

Fr merkle_node(MerkleHasher h, std::span<const Fr> children) {
    if (h == MerkleHasher::Sha256) {
        if (children.size() != 2) throw std::invalid_argument("merkle: SHA-256 nodes have two children");
        return sha256_node(children[0], children[1]);
    }
    return poseidon_hash(children);
}

Fr MerkleProof::computed_root() const {
    Fr cur = leaf;
    std::vector<Fr> group;
    for (const PathElement& e : path) {
        const size_t arity = e.siblings.size() + 1;
        if (e.index >= arity) throw std::invalid_argument("merkle: path index out of range");
        group.assign(e.siblings.begin(), e.siblings.end());
        group.insert(group.begin() + e.index, cur);
        cur = merkle_node(shape.hasher, group);
    }
    return cur;
}

uint64_t MerkleProof::leaf_index() const {
    uint64_t idx = 0, scale = 1;
    for (const PathElement& e : path) {
        idx += e.index * scale;
        scale *= e.siblings.size() + 1;
    }
    return idx;
}

MerkleTree::MerkleTree(TreeShape shape, std::vector<Fr> leaves)
    : shape_(shape), arities_(shape.level_arities(leaves.size())) {
    levels_.push_back(std::move(leaves));
    for (uint32_t a : arities_) {
        const std::vector<Fr>& below = levels_.back();
        std::vector<Fr> up(below.size() / a);
        parallel_for(0, up.size(), 256, [&](size_t b, size_t e) {
            for (size_t i = b; i < e; ++i)
                up[i] = merkle_node(shape_.hasher, std::span<const Fr>(below).subspan(i * a, a));
        });
        levels_.push_back(std::move(up));
    }
}

MerkleProof MerkleTree::prove(uint64_t index) const {
    if (index >= num_leaves()) throw std::out_of_range("merkle: leaf index out of range");
    MerkleProof p;
    p.shape = shape_;
    p.leaf = levels_[0][index];
    p.root = root();
    p.path = merkle_path(arities_, index, [&](size_t level, uint64_t k) { return levels_[level][k]; });
    return p;
}

}  // namespace cuzk::hash
