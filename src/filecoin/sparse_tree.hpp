// Internal to src/filecoin: pseudo-random values and sparse Merkle trees for synthetic vanilla
// proofs (PoRep C1 in synthetic.cpp, PoSt in post.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/filecoin/registry.hpp"
#include "cuzk/gadgets/merkle.hpp"
#include "cuzk/hash/sha256.hpp"
#include "proof_paths.hpp"

namespace cuzk::filecoin::detail {

// Pseudo-random 32-byte values: SHA256(master ‖ tag ‖ a ‖ b) with the top two bits cleared,
// so every value is below 2^254 < r (a canonical Fr, and a possible 254-bit SHA node).
class Derive {
 public:
    explicit Derive(uint64_t seed) {
        Sha256 h;
        static constexpr std::string_view kTag = "cuzk synthetic vanilla proofs v1";
        h.update({reinterpret_cast<const uint8_t*>(kTag.data()), kTag.size()});
        put(h, seed);
        master_ = h.final();
    }
    Bytes32 operator()(std::string_view tag, uint64_t a = 0, uint64_t b = 0) const {
        Sha256 h;
        h.update(master_);
        h.update({reinterpret_cast<const uint8_t*>(tag.data()), tag.size()});
        put(h, a);
        put(h, b);
        Bytes32 out = h.final();
        out[31] &= 0x3f;
        return out;
    }

 private:
    static void put(Sha256& h, uint64_t v) {
        uint8_t le[8];
        for (int i = 0; i < 8; ++i) le[i] = uint8_t(v >> (8 * i));
        h.update(le);
    }
    Bytes32 master_{};
};

// A Merkle tree of which only the paths of some leaves exist. A node that is an ancestor of a
// given leaf is the hash of its children; any other node (leaf or inner) is pseudo-random from
// the tree's tag and its (level, index). Memory: the given leaves times the depth.
class SparseTree {
 public:
    SparseTree(gadgets::MerkleHasher hasher, std::vector<uint32_t> arities, const Derive& derive, std::string tag,
               const std::map<uint64_t, Fr>& leaves)
        : hasher_(hasher), arities_(std::move(arities)), derive_(derive), tag_(std::move(tag)) {
        known_.resize(arities_.size() + 1);
        known_[0] = leaves;
        std::vector<Fr> group;
        for (size_t l = 0; l < arities_.size(); ++l) {
            const uint32_t a = arities_[l];
            for (const auto& [index, value] : known_[l]) {
                const uint64_t up = index / a;
                if (known_[l + 1].count(up)) continue;
                group.clear();
                for (uint64_t i = up * a; i < up * a + a; ++i) group.push_back(node(l, i));
                known_[l + 1].emplace(up, gadgets::merkle_node(hasher_, group));
            }
        }
        if (known_.back().size() != 1) throw std::logic_error("SparseTree: no single root");
    }

    const Fr& root() const { return known_.back().begin()->second; }

    // The path of a given leaf, bottom up.
    std::vector<gadgets::PathElement> path(uint64_t leaf) const {
        return gadgets::merkle_path(arities_, leaf,
                                    [this](size_t level, uint64_t index) { return node(level, index); });
    }

    const Fr& leaf(uint64_t index) const { return known_[0].at(index); }

 private:
    Fr node(size_t level, uint64_t index) const {
        const auto it = known_[level].find(index);
        if (it != known_[level].end()) return it->second;
        return to_fr(derive_(tag_, level, index));
    }

    gadgets::MerkleHasher hasher_;
    std::vector<uint32_t> arities_;
    const Derive& derive_;
    std::string tag_;
    std::vector<std::map<uint64_t, Fr>> known_;  // per level, the materialized nodes
};

}  // namespace cuzk::filecoin::detail
