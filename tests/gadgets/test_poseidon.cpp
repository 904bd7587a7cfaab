// Poseidon: neptune's constants and known answers, the optimized form against the reference
// form, and the legacy circuit (constraint counts, output, satisfiability, a wrong witness).
#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "cuzk/gadgets/poseidon.hpp"
#include "harness.hpp"
#include "support/seed.hpp"

namespace cuzk::gadgets {
namespace {

using test::from_limbs;

std::vector<Fr> iota(size_t n) {
    std::vector<Fr> v;
    for (size_t i = 0; i < n; ++i) v.push_back(Fr::from_u64(i));
    return v;
}

// ---- constants ----------------------------------------------------------------------------

TEST(PoseidonConstants, GrainFirstConstantT9) {
    // neptune parameters/round_constants-1-1-255-9-8-57-...txt, first line.
    const auto& c = poseidon_constants(8);
    const Fr want = *Fr::from_string("0x6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9");
    EXPECT_EQ(c.round_constants[0], want) << c.round_constants[0].to_hex();
}

TEST(PoseidonConstants, SizesAndMatrices) {
    for (size_t arity : {2, 4, 8, 11}) {
        const auto& c = poseidon_constants(arity);
        const size_t t = arity + 1;
        EXPECT_EQ(c.width, t);
        EXPECT_EQ(c.full_rounds, 8u);
        EXPECT_EQ(c.round_constants.size(), (c.full_rounds + c.partial_rounds) * t);
        EXPECT_EQ(c.compressed_round_constants.size(), c.full_rounds * t + c.partial_rounds);
        EXPECT_EQ(c.sparse_matrices.size(), c.partial_rounds);
        for (size_t i = 0; i < t; ++i)
            for (size_t j = 0; j < t; ++j) {
                EXPECT_EQ(c.m(i, j) * Fr::from_u64(i + t + j), Fr::one());  // Cauchy 1/(i + t + j)
                EXPECT_EQ(c.m(i, j), c.m(j, i));
                Fr dot = Fr::zero();
                for (size_t k = 0; k < t; ++k) dot += c.mds[i * t + k] * c.mds_inv[k * t + j];
                EXPECT_EQ(dot, i == j ? Fr::one() : Fr::zero());
            }
    }
    EXPECT_EQ(poseidon_round_numbers(2).second, 55u);
    EXPECT_EQ(poseidon_round_numbers(4).second, 56u);
    EXPECT_EQ(poseidon_round_numbers(8).second, 57u);
    EXPECT_EQ(poseidon_round_numbers(11).second, 57u);
    EXPECT_THROW(poseidon_constants(3), std::invalid_argument);
}

TEST(PoseidonConstants, CachedAndThreadSafe) {
    const PoseidonConstants* seen[4] = {};
    std::vector<std::thread> th;
    for (int k = 0; k < 4; ++k) th.emplace_back([&seen, k] { seen[k] = &poseidon_constants(4); });
    for (auto& x : th) x.join();
    for (int k = 0; k < 4; ++k) EXPECT_EQ(seen[k], &poseidon_constants(4));
}

TEST(PoseidonConstants, DomainTags) {
    using H = PoseidonHashType;
    EXPECT_EQ(H::merkle_tree().domain_tag(2), Fr::from_u64(3));
    EXPECT_EQ(H::merkle_tree().domain_tag(8), Fr::from_u64(255));
    EXPECT_EQ(H::merkle_tree().domain_tag(11), Fr::from_u64(2047));
    EXPECT_EQ(H::constant_length(3).domain_tag(8), from_limbs(0, 3, 0, 0));
    EXPECT_EQ(H::custom(1).domain_tag(2), Fr::from_u64(uint64_t(1) << 40));
    EXPECT_EQ(H::encryption().domain_tag(2), Fr::from_u64(uint64_t(1) << 32));
    EXPECT_THROW(H::custom(0).domain_tag(2), std::invalid_argument);
}

// ---- native hashes ------------------------------------------------------------------------

TEST(PoseidonNative, NeptuneHashValues) {
    // neptune src/poseidon.rs::hash_values (Strength::Standard, MerkleTree, preimage 0..arity-1).
    const std::pair<size_t, Fr> kats[] = {
        {2, from_limbs(0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b)},
        {4, from_limbs(0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a)},
        {8, from_limbs(0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55)},
        {11, from_limbs(0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28)},
    };
    for (const auto& [arity, want] : kats) {
        const auto pre = iota(arity);
        EXPECT_EQ(poseidon_hash(pre), want) << "arity " << arity;
        EXPECT_EQ(poseidon_hash_reference(pre), want) << "arity " << arity;
    }
}

TEST(PoseidonNative, FilecoinHasherHash2) {
    // rust-fil-proofs filecoin-hashers/src/poseidon.rs::test_poseidon_hasher.
    const Fr one = Fr::one(), zero = Fr::zero();
    const Fr h10[] = {one, zero};
    EXPECT_EQ(poseidon_hash(h10),
              from_limbs(0xb339ff6079800b5e, 0xec5907b3dc3094af, 0x93c003cc74a24f26, 0x042f94ffbe786bc3));
    const Fr h01[] = {zero, one};
    const Fr root_in[] = {poseidon_hash(h10), poseidon_hash(h01)};
    EXPECT_EQ(poseidon_hash(root_in),
              from_limbs(0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb));
}

TEST(PoseidonNative, OptimizedEqualsReference) {
    std::mt19937_64 rng(test::seed());
    using H = PoseidonHashType;
    for (size_t arity : {2, 4, 8, 11}) {
        const auto& c = poseidon_constants(arity);
        for (int k = 0; k < 8; ++k) {
            std::vector<Fr> pre;
            for (size_t i = 0; i < arity; ++i) pre.push_back(Fr::random(rng));
            for (H type : {H::merkle_tree(), H::custom(1 + k), H::constant_length(arity)}) {
                EXPECT_EQ(poseidon_hash(c, pre, type), poseidon_hash_reference(c, pre, type)) << "arity " << arity;
            }
            // ConstantLength shorter than the arity is zero padded.
            const size_t len = 1 + rng() % arity;
            std::span<const Fr> part(pre.data(), len);
            EXPECT_EQ(poseidon_hash(c, part, H::constant_length(len)),
                      poseidon_hash_reference(c, part, H::constant_length(len)));
        }
    }
}

// ---- the legacy circuit -------------------------------------------------------------------

template <class CS>
AllocatedNum hash_in_circuit(CS& cs, const std::vector<Fr>& pre, PoseidonHashType type = {}) {
    std::vector<AllocatedNum> nums;
    for (size_t i = 0; i < pre.size(); ++i) {
        auto ns = cs.namespace_([i] { return "preimage " + std::to_string(i); });
        nums.push_back(AllocatedNum::alloc(cs, [&] { return pre[i]; }));
    }
    auto ns = cs.namespace_("poseidon");
    return poseidon_hash_circuit(cs, std::span<const AllocatedNum>(nums), type);
}

TEST(PoseidonGadget, ConstraintCountTable) {
    // neptune src/circuit.rs::test_poseidon_hash (2, 4, 8) and rust-fil-proofs
    // storage-proofs-porep/src/stacked/circuit/hash.rs (11).
    const std::pair<size_t, size_t> table[] = {{2, 311}, {4, 377}, {8, 505}, {11, 598}};
    for (const auto& [arity, count] : table) {
        EXPECT_EQ(poseidon_circuit_constraints(arity), count);
        r1cs::ShapeCS cs;
        hash_in_circuit(cs, iota(arity));
        EXPECT_EQ(cs.num_constraints(), count) << "arity " << arity;
        EXPECT_EQ(cs.num_inputs(), 1u);
        // Every constraint allocates one variable, except the first-round squares of the
        // preimage elements' ensure_allocated (they are allocated already): aux = arity + count.
        EXPECT_EQ(cs.num_aux(), arity + count) << "arity " << arity;
    }
}

TEST(PoseidonGadget, AllModesMatchNative) {
    std::mt19937_64 rng(test::seed());
    using H = PoseidonHashType;
    for (size_t arity : {2, 4, 8, 11}) {
        std::vector<Fr> pre;
        for (size_t i = 0; i < arity; ++i) pre.push_back(Fr::random(rng));
        for (H type : {H::merkle_tree(), H::custom(1), H::constant_length(arity)}) {
            Fr out_w = Fr::zero(), out_c = Fr::zero();
            int call = 0;
            auto runs = test::run_all_modes([&](auto& cs) {
                auto out = hash_in_circuit(cs, pre, type);
                if (call == 1) out_w = out.value;
                if (call == 2) out_c = out.value;
                ++call;
            });
            const Fr want = poseidon_hash(poseidon_constants(arity), pre, type);
            EXPECT_EQ(out_w, want) << "arity " << arity;
            EXPECT_EQ(out_c, want) << "arity " << arity;
            EXPECT_EQ(runs.witness.aux().back(), want);
        }
    }
}

TEST(PoseidonGadget, WrongWitnessIsCaught) {
    std::mt19937_64 rng(test::seed());
    std::vector<Fr> pre;
    for (size_t i = 0; i < 8; ++i) pre.push_back(Fr::random(rng));
    r1cs::WitnessCS w;
    hash_in_circuit(w, pre);
    const size_t n = w.aux().size();
    // Corrupt one intermediate value (never the preimage) and replay it in check mode.
    for (int k = 0; k < 5; ++k) {
        std::vector<Fr> aux(w.aux().begin(), w.aux().end());
        const size_t at = 8 + rng() % (n - 8);
        aux[at] += Fr::one();
        r1cs::CheckCS c(w.inputs(), aux);
        hash_in_circuit(c, pre);
        ASSERT_FALSE(c.is_satisfied()) << "corrupting aux " << at << " went unnoticed";
        std::printf("  aux %zu corrupted: %s\n", at, c.first_failure()->message.c_str());
    }
    // The true witness replays cleanly.
    r1cs::CheckCS ok(w.inputs(), w.aux());
    hash_in_circuit(ok, pre);
    EXPECT_TRUE(ok.is_satisfied());
}

}  // namespace
}  // namespace cuzk::gadgets
