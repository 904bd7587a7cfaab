// Native Merkle trees and paths, the insertion gadgets, and the `por` inclusion gadget: pinned
// per-level costs (rust-fil-proofs storage-proofs-core/tests/por_circuit.rs), valid paths
// satisfying every mode, and a wrong leaf, sibling, index or root caught in check mode.
#include <gtest/gtest.h>

#include <random>

#include "cuzk/gadgets/por.hpp"
#include "cuzk/hash/sha256.hpp"
#include "harness.hpp"
#include "support/seed.hpp"

namespace cuzk::gadgets {
namespace {

using test::from_limbs;

// A leaf as rust-fil-proofs stores data: a random Fr below 2^254 for SHA trees (fr32 padding).
std::vector<Fr> random_leaves(std::mt19937_64& rng, size_t n) {
    std::vector<Fr> v;
    for (size_t i = 0; i < n; ++i) {
        auto b = Fr::random(rng).to_bigint();
        b.l[3] &= (uint64_t(1) << 62) - 1;
        v.push_back(*Fr::from_bigint(b));
    }
    return v;
}

// ---- native trees -------------------------------------------------------------------------

TEST(MerkleNative, PoseidonBinaryKat) {
    // filecoin-hashers/src/poseidon.rs::test_poseidon_hasher: leaves [1, 0, 0, 1].
    MerkleTree t(TreeShape::poseidon(2), {Fr::one(), Fr::zero(), Fr::zero(), Fr::one()});
    EXPECT_EQ(t.levels()[1][0],
              from_limbs(0xb339ff6079800b5e, 0xec5907b3dc3094af, 0x93c003cc74a24f26, 0x042f94ffbe786bc3));
    EXPECT_EQ(t.root(), from_limbs(0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb));
    for (uint64_t i = 0; i < 4; ++i) EXPECT_TRUE(t.prove(i).verify());
}

TEST(MerkleNative, Sha256NodeIsTruncatedDigestOfLittleEndianBytes) {
    std::mt19937_64 rng(test::seed());
    const auto l = random_leaves(rng, 2);
    uint8_t buf[64];
    l[0].to_bytes_le(buf);
    l[1].to_bytes_le(buf + 32);
    auto d = sha256_bytes(buf);
    d[31] &= 0x3F;
    EXPECT_EQ(sha256_node(l[0], l[1]), *Fr::from_bytes_le(d.data()));
    // A tree of 2 leaves is one node.
    MerkleTree t(TreeShape::sha256_binary(), l);
    EXPECT_EQ(t.root(), sha256_node(l[0], l[1]));
}

TEST(MerkleNative, ShapesRootsAndPaths) {
    std::mt19937_64 rng(test::seed());
    struct Case {
        TreeShape shape;
        size_t leaves;
        size_t levels;
    };
    const Case cases[] = {
        {TreeShape::poseidon(8), 64, 2},        {TreeShape::poseidon(8, 8), 64, 2},
        {TreeShape::poseidon(8, 8, 2), 128, 3}, {TreeShape::poseidon(8, 8, 2), 1024, 4},
        {TreeShape::poseidon(2), 16, 4},        {TreeShape::poseidon(4), 16, 2},
        {TreeShape::sha256_binary(), 16, 4},
    };
    for (const Case& c : cases) {
        const auto leaves = random_leaves(rng, c.leaves);
        MerkleTree t(c.shape, leaves);
        ASSERT_EQ(t.levels().size(), c.levels + 1);
        for (int k = 0; k < 4; ++k) {
            const uint64_t i = rng() % c.leaves;
            auto p = t.prove(i);
            EXPECT_EQ(p.leaf, leaves[i]);
            EXPECT_EQ(p.leaf_index(), i);
            EXPECT_TRUE(p.verify());
            p.path[k % p.path.size()].siblings[0] += Fr::one();
            EXPECT_FALSE(p.verify());
        }
    }
    // The compound 8-8-2 tree is the top hash of two 8-8 trees over the two halves.
    const auto leaves = random_leaves(rng, 128);
    MerkleTree whole(TreeShape::poseidon(8, 8, 2), leaves);
    MerkleTree lo(TreeShape::poseidon(8, 8), std::vector<Fr>(leaves.begin(), leaves.begin() + 64));
    MerkleTree hi(TreeShape::poseidon(8, 8), std::vector<Fr>(leaves.begin() + 64, leaves.end()));
    const Fr tops[] = {lo.root(), hi.root()};
    EXPECT_EQ(whole.root(), poseidon_hash(tops));
    EXPECT_THROW(MerkleTree(TreeShape::poseidon(8, 8, 2), random_leaves(rng, 64)), std::invalid_argument);
    EXPECT_THROW(MerkleTree(TreeShape::poseidon(8), random_leaves(rng, 24)), std::invalid_argument);
}

// ---- insertion ----------------------------------------------------------------------------

TEST(Insertion, EveryPositionAndCounts) {
    std::mt19937_64 rng(test::seed());
    for (size_t size : {2, 4, 8, 16}) {
        std::vector<Fr> vals;
        for (size_t i = 0; i < size; ++i) vals.push_back(Fr::random(rng));
        for (size_t index = 0; index < size; ++index) {
            size_t setup = 0;
            std::vector<Fr> got;
            auto runs = test::run_all_modes([&](auto& cs) {
                auto x = AllocatedNum::alloc(cs, [&] { return vals[0]; });
                std::vector<AllocatedNum> others;
                for (size_t i = 1; i < size; ++i) others.push_back(AllocatedNum::alloc(cs, [&] { return vals[i]; }));
                std::vector<Boolean> bits;
                for (size_t b = 0; (size_t(1) << b) < size; ++b)
                    bits.push_back(AllocatedBit::alloc(cs, (index >> b) & 1));
                setup = cs.num_constraints();
                auto out = insert(cs, x, std::span<const Boolean>(bits), std::span<const AllocatedNum>(others));
                got.clear();
                for (auto& o : out) got.push_back(o.value);
            });
            EXPECT_EQ(runs.shape.num_constraints - setup, insert_constraints(size)) << "size " << size;
            // vals[0] lands at `index`, the others keep their order.
            std::vector<Fr> want(vals.begin() + 1, vals.end());
            want.insert(want.begin() + index, vals[0]);
            EXPECT_TRUE(got == want) << "size " << size << " index " << index;
        }
    }
    EXPECT_EQ(insert_constraints(8), 22u);
}

// ---- por ----------------------------------------------------------------------------------

struct PorRun {
    size_t constraints, inputs;
    bool satisfied;
    Fr index_input;
};

// PoRCircuit in check mode with the given (possibly tampered) values.
PorRun run_por_check(const MerkleProof& p, bool private_root) {
    r1cs::CheckCS cs;
    por(cs, p.shape, NumOrValue::val(p.leaf), p.path, NumOrValue::val(p.root), private_root);
    return {cs.num_constraints(), cs.num_inputs(), cs.is_satisfied(),
            cs.inputs().size() > 1 ? cs.inputs()[1] : Fr::zero()};
}

size_t expected_por_constraints(const TreeShape& s, size_t base_levels, bool private_root) {
    size_t n = base_levels * por_level_constraints(s.hasher, s.base_arity);
    if (s.sub_arity) n += por_level_constraints(s.hasher, s.sub_arity);
    if (s.top_arity) n += por_level_constraints(s.hasher, s.top_arity);
    return n + 1 /* pack */ + 1 /* root equality */ + (private_root ? 0 : 1);
}

TEST(PorGadget, PerLevelCosts) {
    // storage-proofs-core/tests/por_circuit.rs.
    EXPECT_EQ(por_level_constraints(MerkleHasher::Poseidon, 8), 530u);
    EXPECT_EQ(por_level_constraints(MerkleHasher::Poseidon, 2), 314u);
    EXPECT_EQ(por_level_constraints(MerkleHasher::Sha256, 2), 45382u);
    // Measured: the difference between trees one level apart (shape mode).
    auto count = [](TreeShape s, size_t leaves) {
        std::vector<Fr> l(leaves, Fr::zero());
        auto p = MerkleTree(s, l).prove(0);
        r1cs::ShapeCS cs;
        por(cs, s, NumOrValue::val(p.leaf), p.path, NumOrValue::val(p.root), true);
        return cs.num_constraints();
    };
    EXPECT_EQ(count(TreeShape::poseidon(8), 64) - count(TreeShape::poseidon(8), 8), 530u);
    EXPECT_EQ(count(TreeShape::poseidon(2), 4) - count(TreeShape::poseidon(2), 2), 314u);
    EXPECT_EQ(count(TreeShape::sha256_binary(), 4) - count(TreeShape::sha256_binary(), 2), 45382u);
    EXPECT_EQ(count(TreeShape::poseidon(8, 8, 2), 128), 2 * 530u + 314 + 2);
}

struct PorCountRow {
    TreeShape shape;
    size_t leaves;
    bool private_root;
    size_t constraints;
};

void check_por_counts(std::span<const PorCountRow> table) {
    for (const PorCountRow& r : table) {
        std::vector<PathElement> path;
        for (uint32_t a : r.shape.level_arities(r.leaves)) path.push_back({std::vector<Fr>(a - 1, Fr::zero()), 0});
        r1cs::ShapeCS cs;
        por(cs, r.shape, NumOrValue::val(Fr::zero()), path, NumOrValue::val(Fr::zero()), r.private_root);
        EXPECT_EQ(cs.num_constraints(), r.constraints)
            << r.shape.base_arity << "-" << r.shape.sub_arity << "-" << r.shape.top_arity;
        EXPECT_EQ(cs.num_inputs(), r.private_root ? 2u : 3u);
    }
}

TEST(PorGadget, RustFilProofsCircuitCounts) {
    // storage-proofs-core/tests/por_circuit.rs: 64 leaves per base tree, root public (3 inputs)
    // or private (2 inputs). Shape mode only needs the path sizes.
    const PorCountRow table[] = {
        {TreeShape::poseidon(2), 64, false, 1887},         {TreeShape::poseidon(4), 64, false, 1164},
        {TreeShape::poseidon(8), 64, false, 1063},         {TreeShape::poseidon(8, 2), 128, false, 1377},
        {TreeShape::poseidon(8, 4, 2), 512, false, 1764},  {TreeShape::poseidon(8, 8), 512, false, 1593},
        {TreeShape::poseidon(8, 8, 2), 1024, false, 1907}, {TreeShape::poseidon(8, 2, 4), 512, false, 1764},
        {TreeShape::poseidon(2), 64, true, 1886},          {TreeShape::poseidon(4), 64, true, 1163},
        {TreeShape::poseidon(8), 64, true, 1062},
    };
    check_por_counts(table);
}

// The SHA-256 row of the same table: 272k constraints (3 s under the sanitizers).
TEST(SlowPorGadget, RustFilProofsSha256CircuitCount) {
    const PorCountRow table[] = {{TreeShape::sha256_binary(), 64, false, 272295}};
    check_por_counts(table);
}

TEST(PorGadget, ValidPathsSatisfyAllModes) {
    std::mt19937_64 rng(test::seed());
    struct Case {
        TreeShape shape;
        size_t leaves, base_levels;
        bool private_root;
    };
    const Case cases[] = {
        {TreeShape::poseidon(8), 64, 2, true},        {TreeShape::poseidon(8, 8), 64, 1, false},
        {TreeShape::poseidon(8, 8, 2), 128, 1, true}, {TreeShape::poseidon(2), 8, 3, false},
        {TreeShape::poseidon(4), 16, 2, true},        {TreeShape::sha256_binary(), 2, 1, true},
    };
    for (const Case& c : cases) {
        MerkleTree t(c.shape, random_leaves(rng, c.leaves));
        const uint64_t i = rng() % c.leaves;
        const auto p = t.prove(i);
        auto runs = test::run_all_modes([&](auto& cs) {
            por(cs, c.shape, NumOrValue::val(p.leaf), p.path, NumOrValue::val(p.root), c.private_root);
        });
        EXPECT_EQ(runs.shape.num_constraints, expected_por_constraints(c.shape, c.base_levels, c.private_root));
        ASSERT_EQ(runs.witness.num_inputs(), c.private_root ? 2u : 3u);
        EXPECT_EQ(runs.witness.inputs()[1], Fr::from_u64(i)) << "the public input is the leaf index";
        if (!c.private_root) {
            EXPECT_EQ(runs.witness.inputs()[2], t.root());
        }
    }
}

TEST(PorGadget, WrongLeafSiblingIndexOrRootFails) {
    std::mt19937_64 rng(test::seed());
    for (TreeShape shape : {TreeShape::poseidon(8, 8, 2), TreeShape::poseidon(2)}) {
        const size_t n = shape.top_arity ? 128 : 16;
        MerkleTree t(shape, random_leaves(rng, n));
        const uint64_t i = rng() % n;
        const auto good = t.prove(i);
        EXPECT_TRUE(run_por_check(good, true).satisfied);
        {
            auto p = good;
            p.leaf += Fr::one();
            EXPECT_FALSE(run_por_check(p, true).satisfied) << "wrong leaf";
        }
        for (size_t l = 0; l < good.path.size(); ++l) {
            auto p = good;
            p.path[l].siblings[rng() % p.path[l].siblings.size()] += Fr::one();
            EXPECT_FALSE(run_por_check(p, true).satisfied) << "wrong sibling at level " << l;
        }
        for (size_t l = 0; l < good.path.size(); ++l) {
            auto p = good;
            const uint32_t a = uint32_t(p.path[l].siblings.size() + 1);
            p.path[l].index = (p.path[l].index + 1 + uint32_t(rng() % (a - 1))) % a;
            auto r = run_por_check(p, true);
            EXPECT_FALSE(r.satisfied) << "wrong index at level " << l;
            EXPECT_EQ(r.index_input, Fr::from_u64(p.leaf_index()));
        }
        {
            auto p = good;
            p.root += Fr::one();
            EXPECT_FALSE(run_por_check(p, false).satisfied) << "wrong root";
        }
    }
}

TEST(PorGadget, SharedLeafAndRootVariables) {
    // PoRep calls PoRCircuit with Root::Var leaf and root (params.rs::enforce_inclusion).
    std::mt19937_64 rng(test::seed());
    MerkleTree t(TreeShape::poseidon(8, 8), random_leaves(rng, 64));
    const auto p = t.prove(rng() % 64);
    auto runs = test::run_all_modes([&](auto& cs) {
        auto root = AllocatedNum::alloc(cs, [&] { return p.root; });
        auto leaf = AllocatedNum::alloc(cs, [&] { return p.leaf; });
        por(cs, p.shape, NumOrValue::var(leaf), p.path, NumOrValue::var(root), true);
    });
    EXPECT_EQ(runs.shape.num_constraints, 2 * 530u + 2);
    EXPECT_EQ(runs.shape.num_aux, 2 + 2 * (3 + 7 + 22 + 505));  // bits, siblings, nor/and + picks, Poseidon
}

TEST(PorGadget, NoChallengeInput) {
    std::mt19937_64 rng(test::seed());
    const TreeShape shape = TreeShape::poseidon(8, 8, 2);
    MerkleTree t(shape, random_leaves(rng, 128));
    const uint64_t i = rng() % 128;
    const auto p = t.prove(i);
    auto circuit = [&](auto& cs, const MerkleProof& q, uint64_t index) {
        std::vector<AllocatedBit> bits;
        for (int b = 0; b < 7; ++b) bits.push_back(AllocatedBit::alloc(cs, (index >> b) & 1));
        auto leaf = AllocatedNum::alloc(cs, [&] { return q.leaf; });
        std::vector<std::vector<AllocatedNum>> path;
        for (const auto& e : q.path) {
            path.emplace_back();
            for (const Fr& s : e.siblings) path.back().push_back(AllocatedNum::alloc(cs, [&] { return s; }));
        }
        auto root = AllocatedNum::alloc(cs, [&] { return q.root; });
        por_no_challenge_input(cs, shape, std::span<const AllocatedBit>(bits), leaf, path, root);
    };
    auto runs = test::run_all_modes([&](auto& cs) { circuit(cs, p, i); });
    EXPECT_EQ(runs.shape.num_constraints, 7 + 2 * (22 + 505) + (2 + 311) + 1);
    EXPECT_EQ(runs.shape.num_inputs, 1u);
    r1cs::CheckCS bad;
    circuit(bad, p, i ^ 1);
    EXPECT_FALSE(bad.is_satisfied());
}

// An empty path (the apex root of a one-partition sector update, storage-proofs-update's
// apex_por) is one constraint: leaf · 1 = root.
TEST(PorGadget, NoChallengeInputEmptyPath) {
    std::mt19937_64 rng(test::seed());
    const Fr v = random_leaves(rng, 1)[0];
    for (const Fr& root : {v, v + Fr::one()}) {
        r1cs::CheckCS cs;
        auto leaf = AllocatedNum::alloc(cs, [&] { return v; });
        auto r = AllocatedNum::alloc(cs, [&] { return root; });
        por_no_challenge_input(cs, TreeShape::sha256_binary(), {}, leaf, {}, r);
        EXPECT_EQ(cs.num_constraints(), 1u);
        EXPECT_EQ(cs.is_satisfied(), root == v);
    }
}

}  // namespace
}  // namespace cuzk::gadgets
