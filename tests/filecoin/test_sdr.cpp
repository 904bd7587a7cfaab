// Replica id, challenges and SDR labels. The expected replica id and challenges were computed
// with Python's hashlib from the rules in the Rust sources (see sdr.hpp); the labels are checked
// against a naive, rule-by-rule recomputation of the hash preimage.
#include <gtest/gtest.h>

#include <set>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/filecoin/sdr.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {
namespace {

Bytes32 filled(uint8_t v) {
    Bytes32 b;
    b.fill(v);
    return b;
}

Bytes32 test_replica_id() {
    Bytes32 prover{}, comm_d{};
    for (int i = 0; i < 32; ++i) prover[i] = uint8_t(i), comm_d[i] = uint8_t(i * 3);
    return generate_replica_id(prover, 1234567, filled(0xaa), comm_d,
                               porep_config(RegisteredSealProof::StackedDrg2KiBV1_1).porep_id);
}

TEST(Sdr, ReplicaId) {
    EXPECT_EQ(to_hex(test_replica_id()), "6861f534530f6f1c48c96ffabbcaeca75ba4202559246d77f6df0d80b4a9a932");
}

TEST(Sdr, InteractiveChallenges) {
    const Bytes32 rid = test_replica_id(), seed = filled(0x11);
    EXPECT_EQ(interactive_challenges(64, rid, seed, 2, 0), (std::vector<uint64_t>{24, 45}));
    EXPECT_EQ(interactive_challenges(uint64_t(1) << 30, rid, seed, 18, 3),
              (std::vector<uint64_t>{900686609, 676197876, 492510644, 540537422, 1046018218, 855669450, 751616744,
                                     887843251, 249708285, 956372299, 718617566, 566943902, 86228266, 1055154968,
                                     947598271, 580188601, 151322781, 589168302}));
    // challenges.rs challenge_partition_equivalence: partitions split one long list.
    const auto all = interactive_challenges(uint64_t(1) << 30, rid, seed, 40, 0);
    std::vector<uint64_t> split;
    for (uint8_t k = 0; k < 5; ++k)
        for (uint64_t c : interactive_challenges(uint64_t(1) << 30, rid, seed, 8, k)) split.push_back(c);
    EXPECT_EQ(std::vector<uint64_t>(all.begin(), all.end()), split);
    // Never node 0, always in range.
    for (uint8_t k = 0; k < 50; ++k)
        for (uint64_t c : interactive_challenges(64, rid, seed, 2, k)) {
            EXPECT_GE(c, 1u);
            EXPECT_LT(c, 64u);
        }
    // The config picks the right derivation.
    const auto& cfg = porep_config(RegisteredSealProof::StackedDrg2KiBV1_1);
    EXPECT_EQ(porep_challenges(cfg, rid, seed, Bytes32{}, 0), (std::vector<uint64_t>{24, 45}));
    EXPECT_THROW(porep_challenges(porep_config(RegisteredSealProof::StackedDrg2KiBV1_1_Feat_SyntheticPoRep), rid, seed,
                                  Bytes32{}, 0),
                 std::logic_error);
}

// challenges.rs NiChallenges::derive: SHA256("filecoin.io|PoRep|1|NonInteractive|1" ‖ replica_id
// ‖ comm_r ‖ u32_le(n·k + i)) → mod (nodes − 1) + 1. rust-fil-proofs has no hard-coded NI
// vectors; these are Python hashlib's from that rule (test_replica_id, comm_r = 0x22 × 32).
TEST(Sdr, NonInteractiveChallenges) {
    const Bytes32 rid = test_replica_id(), comm_r = filled(0x22);
    const auto& c32 = porep_config(RegisteredSealProof::StackedDrg32GiBV1_2_Feat_NonInteractivePoRep);
    // The last of the 126 partitions (k = 125: j = 18·125 + i, still below the u8 k's 256).
    EXPECT_EQ(porep_challenges(c32, rid, Bytes32{}, comm_r, 125),
              (std::vector<uint64_t>{911696975, 861656051, 303739510, 642345106, 964689352, 52849377, 1002906058,
                                     860842371, 225444156, 623629348, 505833843, 901652169, 193376831, 161876495,
                                     584958965, 749790088, 173758079, 1031534520}));
    const auto& c64 = porep_config(RegisteredSealProof::StackedDrg64GiBV1_2_Feat_NonInteractivePoRep);
    EXPECT_EQ(porep_challenges(c64, rid, Bytes32{}, comm_r, 0),
              (std::vector<uint64_t>{838451742, 2061054358, 34862016, 514202263, 1674700425, 1223606369, 1993990891,
                                     1970400957, 1722737404, 1018787398, 104304587, 815290281, 99742333, 1370728306,
                                     617679311, 725307060, 1921178893, 1889663235}));
    const auto& c512 = porep_config(RegisteredSealProof::StackedDrg512MiBV1_2_Feat_NonInteractivePoRep);
    EXPECT_EQ(porep_challenges(c512, rid, Bytes32{}, comm_r, 12), (std::vector<uint64_t>{8259528, 16555675}));
    // 2 KiB: all 13 partitions of 2 challenges.
    const auto& c2 = porep_config(RegisteredSealProof::StackedDrg2KiBV1_2_Feat_NonInteractivePoRep);
    const std::vector<std::vector<uint64_t>> want2k = {{6, 10},  {19, 39}, {49, 2},  {59, 3},  {19, 47},
                                                       {24, 55}, {22, 9},  {56, 38}, {40, 55}, {22, 11},
                                                       {5, 59},  {29, 51}, {39, 31}};
    ASSERT_EQ(c2.partitions, want2k.size());
    std::vector<uint64_t> all2k;
    for (unsigned k = 0; k < c2.partitions; ++k) {
        EXPECT_EQ(porep_challenges(c2, rid, Bytes32{}, comm_r, k), want2k[k]) << "partition " << k;
        all2k.insert(all2k.end(), want2k[k].begin(), want2k[k].end());
    }
    // Partitions split one long list (as challenge_partition_equivalence for interactive).
    EXPECT_EQ(ni_challenges(c2.nodes, rid, comm_r, 2 * c2.partitions, 0), all2k);
    // The interactive seed plays no part; comm_r and replica_id do; the tag makes them differ
    // from interactive challenges with comm_r as the seed ([28, 21]).
    EXPECT_EQ(porep_challenges(c2, rid, filled(0x99), comm_r, 0), want2k[0]);
    EXPECT_NE(porep_challenges(c2, rid, Bytes32{}, filled(0x23), 0), want2k[0]);
    EXPECT_NE(porep_challenges(c2, filled(0x01), Bytes32{}, comm_r, 0), want2k[0]);
    EXPECT_EQ(interactive_challenges(c2.nodes, rid, comm_r, 2, 0), (std::vector<uint64_t>{28, 21}));
}

// The label preimage spelled out byte by byte, as the circuit builds it (filecoin-circuits.md
// §1 step 4): replica_id (32) ‖ u32_be(layer) ‖ u64_be(node) ‖ zeros to 64 bytes ‖ 37 parents.
Bytes32 naive_label(const StackedGraph& g, const std::vector<std::vector<Bytes32>>& labels, const Bytes32& rid,
                    uint32_t layer, uint64_t node) {
    std::vector<uint8_t> pre(64, 0);
    std::copy(rid.begin(), rid.end(), pre.begin());
    for (int i = 0; i < 4; ++i) pre[32 + i] = uint8_t(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; ++i) pre[36 + i] = uint8_t(node >> (56 - 8 * i));
    if (node > 0) {
        std::array<uint32_t, kDegree> p{};
        g.parents(node, p);
        std::vector<const Bytes32*> order;
        if (layer == 1) {
            for (int rep = 0; rep < 6; ++rep)
                for (int i = 0; i < 6; ++i) order.push_back(&labels[0][p[i]]);
            order.push_back(&labels[0][p[0]]);
        } else {
            std::vector<const Bytes32*> fourteen;
            for (int i = 0; i < 6; ++i) fourteen.push_back(&labels[layer - 1][p[i]]);
            for (int i = 6; i < 14; ++i) fourteen.push_back(&labels[layer - 2][p[i]]);
            for (int rep = 0; rep < 2; ++rep) order.insert(order.end(), fourteen.begin(), fourteen.end());
            order.insert(order.end(), fourteen.begin(), fourteen.begin() + 9);
        }
        EXPECT_EQ(order.size(), 37u);
        for (const Bytes32* l : order) pre.insert(pre.end(), l->begin(), l->end());
        EXPECT_EQ(pre.size(), 64u + 37 * 32);
    }
    Bytes32 out = sha256_bytes(pre);
    out[31] &= 0x3f;
    return out;
}

TEST(Sdr, Labels2KiBMatchNaiveRecomputation) {
    for (auto proof : {RegisteredSealProof::StackedDrg2KiBV1, RegisteredSealProof::StackedDrg2KiBV1_1}) {
        const auto& cfg = porep_config(proof);
        const StackedGraph g(cfg);
        const Bytes32 rid = test_replica_id();
        const auto labels = sdr_labels(g, cfg.layers, rid);
        ASSERT_EQ(labels.size(), 2u);
        std::set<Bytes32> distinct;
        for (uint32_t layer = 1; layer <= cfg.layers; ++layer)
            for (uint64_t node = 0; node < g.size(); ++node) {
                const Bytes32& l = labels[layer - 1][node];
                EXPECT_EQ(l, naive_label(g, labels, rid, layer, node)) << "layer " << layer << " node " << node;
                EXPECT_EQ(l[31] & 0xc0, 0);
                EXPECT_TRUE(Fr::from_bytes_le(l.data()).has_value());
                distinct.insert(l);
            }
        EXPECT_EQ(distinct.size(), 2 * g.size());
        // Deterministic, and the api version matters (different porep_id, different graph).
        EXPECT_EQ(sdr_labels(g, cfg.layers, rid), labels);
    }
    const Bytes32 rid = test_replica_id();
    EXPECT_NE(sdr_labels(StackedGraph(porep_config(RegisteredSealProof::StackedDrg2KiBV1)), 2, rid),
              sdr_labels(StackedGraph(porep_config(RegisteredSealProof::StackedDrg2KiBV1_1)), 2, rid));
}

TEST(Sdr, LabelingProofParentsAndEncoding) {
    const auto& cfg = porep_config(RegisteredSealProof::StackedDrg2KiBV1_1);
    const StackedGraph g(cfg);
    const Bytes32 rid = test_replica_id();
    const auto labels = sdr_labels(g, cfg.layers, rid);
    // A labeling proof carries exactly label_parents(); re-hashing it gives the label.
    for (uint64_t node : {1u, 2u, 17u, 63u})
        for (uint32_t layer = 1; layer <= cfg.layers; ++layer) {
            const auto parents = label_parents(g, labels, layer, node);
            ASSERT_EQ(parents.size(), kTotalParents);
            EXPECT_EQ(label_from_parents(rid, layer, node, parents), labels[layer - 1][node]);
        }
    // encode = key + data in Fr.
    Bytes32 one{}, two{};
    one[0] = 1, two[0] = 2;
    Bytes32 three{};
    three[0] = 3;
    EXPECT_EQ(encode_node(one, two), three);
    const auto r_minus_1 = (Fr::zero() - Fr::one()).to_bytes_le();
    EXPECT_EQ(encode_node(r_minus_1, two), one);   // wraps mod r
    EXPECT_FALSE(encode_node(filled(0xff), one));  // not canonical
}

}  // namespace
}  // namespace cuzk::filecoin
