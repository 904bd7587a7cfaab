// The SDR graph: rust-fil-proofs' own graph properties, and the end-to-end known answer of the
// parent cache digests in storage-proofs-porep/parent_cache.json (SHA-256 of every node's 14
// parents as u32 LE), which pins the ChaCha8 DRG and the Feistel expander bit for bit.
#include <gtest/gtest.h>

#include <set>

#include "cuzk/filecoin/graph.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {
namespace {

Bytes32 id_byte0(uint8_t b) {
    Bytes32 id{};
    id[0] = b;
    return id;
}

// storage-proofs-porep/parent_cache.json: cache id -> digest, for 2 KiB and 8 MiB.
struct CacheKat {
    RegisteredSealProof proof;
    const char* id;
    const char* digest;
};

std::string cache_digest(const StackedGraph& g) { return to_hex(sha256_bytes(g.parent_cache())); }

// Which registered proof a parent_cache.json entry belongs to is not written there; the
// entry's name (a hash over the graph identifier and the Feistel keys) says it.
TEST(Graph, ParentCache2KiBMatchesParentCacheJson) {
    const CacheKat kats[] = {
        {RegisteredSealProof::StackedDrg2KiBV1,
         "v28-sdr-parent-3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899",
         "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d"},
        {RegisteredSealProof::StackedDrg2KiBV1_1,
         "v28-sdr-parent-494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b",
         "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97"},
    };
    for (const auto& k : kats) {
        const StackedGraph g(porep_config(k.proof));
        EXPECT_EQ(g.parent_cache_id(), k.id) << porep_config(k.proof).name;
        EXPECT_EQ(cache_digest(g), k.digest) << porep_config(k.proof).name;
    }
}

// About 7 s on the dev machine (262,144 nodes, 2 M Feistel evaluations).
TEST(SlowGraph, ParentCache8MiBMatchesParentCacheJson) {
    const CacheKat kats[] = {
        {RegisteredSealProof::StackedDrg8MiBV1,
         "v28-sdr-parent-dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc",
         "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce"},
        {RegisteredSealProof::StackedDrg8MiBV1_1,
         "v28-sdr-parent-5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5",
         "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab"},
    };
    for (const auto& k : kats) {
        const StackedGraph g(porep_config(k.proof));
        EXPECT_EQ(g.parent_cache_id(), k.id) << porep_config(k.proof).name;
        EXPECT_EQ(cache_digest(g), k.digest) << porep_config(k.proof).name;
    }
}

TEST(Graph, ParentCacheIdsOfLargerSizes) {
    // The names (not the digests: those need the whole graph) of the 512 MiB, 32 GiB and 64 GiB
    // entries pin the identifier and the Feistel keys of the other sizes.
    const std::pair<RegisteredSealProof, const char*> ids[] = {
        {RegisteredSealProof::StackedDrg512MiBV1,
         "v28-sdr-parent-7ba215a1d2345774ab90b8cb1158d296e409d6068819d7b8c7baf0b25d63dc34"},
        {RegisteredSealProof::StackedDrg512MiBV1_1,
         "v28-sdr-parent-2aa9c77c3e58259481351cc4be2079cc71e1c9af39700866545c043bfa30fb42"},
        {RegisteredSealProof::StackedDrg32GiBV1,
         "v28-sdr-parent-e1fa5d5b811ddbd118be3412c4a8c329156b8b8acc72632bca459455b5a05a13"},
        {RegisteredSealProof::StackedDrg32GiBV1_1,
         "v28-sdr-parent-21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117"},
        {RegisteredSealProof::StackedDrg64GiBV1,
         "v28-sdr-parent-8a99e8d6b6be7ab87a56b632e6739ff201c23ea14e99737c74690f0e265574d6"},
        {RegisteredSealProof::StackedDrg64GiBV1_1,
         "v28-sdr-parent-4905486b7af19558ac3649bc6261411858b6add534438878c4ee3b29d8b9de0b"},
    };
    std::set<std::string> want, got;
    for (const auto& [proof, id] : ids) {
        want.insert(id);
        got.insert(StackedGraph(porep_config(proof)).parent_cache_id());
    }
    EXPECT_EQ(got, want);
}

// drgraph.rs graph_bucket: deterministic, no self reference, the predecessor in place.
TEST(Graph, BucketGraphProperties) {
    for (const auto& [porep, version] :
         {std::pair{id_byte0(0), ApiVersion::V1_0_0}, std::pair{id_byte0(5), ApiVersion::V1_2_0}}) {
        for (uint64_t size : {4u, 16u, 256u, 2048u}) {
            const StackedGraph g(size, porep, version);
            std::array<uint32_t, kBaseDegree> p{}, q{};
            g.drg_parents(0, p);
            EXPECT_EQ(p, (std::array<uint32_t, kBaseDegree>{}));
            g.drg_parents(1, p);
            EXPECT_EQ(p, (std::array<uint32_t, kBaseDegree>{}));
            for (uint64_t i = 2; i < size; ++i) {
                g.drg_parents(i, p);
                g.drg_parents(i, q);
                EXPECT_EQ(p, q);
                for (uint32_t parent : p) {
                    EXPECT_NE(parent, i);
                    EXPECT_LT(parent, i);
                }
                EXPECT_EQ(p[version == ApiVersion::V1_0_0 ? kBaseDegree - 1 : 0], i - 1);
            }
        }
    }
}

// feistel.rs tests: powers of 4 permute exactly; other sizes need the cycle walk, which then
// gives a permutation with a working inverse.
TEST(Graph, FeistelPermutes) {
    const std::array<uint64_t, 4> keys = {1, 2, 3, 4};
    for (uint64_t n : {4u, 16u, 64u, 256u}) {
        const Feistel f(n, keys);
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t p = f.encode(i);
            EXPECT_LT(p, n);
            EXPECT_EQ(f.decode(p), i);
        }
    }
    for (uint64_t n : {5u, 6u, 8u, 12u, 17u}) {
        const Feistel f(n, keys);
        bool plain_encode_fails = false;
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t p = f.encode(i);
            plain_encode_fails |= p >= n || f.decode(p) != i;
        }
        EXPECT_TRUE(plain_encode_fails) << n;  // BAD_NS: not a permutation without cycle walking
        std::set<uint64_t> image;
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t p = f.permute(i);
            EXPECT_LT(p, n);
            EXPECT_EQ(f.invert_permute(p), i);
            image.insert(p);
        }
        EXPECT_EQ(image.size(), n);
    }
    // graph.rs test_shuffle: n = 2^10 nodes, d = 8, keys 1..4: a bijection of [0, n·d).
    const uint64_t n = 1024 * 8;
    const Feistel f(n, keys);
    std::vector<bool> seen(n);
    for (uint64_t i = 0; i < n; ++i) seen[f.permute(i)] = true;
    EXPECT_EQ(std::count(seen.begin(), seen.end(), true), int64_t(n));
}

TEST(Graph, ParentsAreDrgThenExpander) {
    const StackedGraph g(porep_config(RegisteredSealProof::StackedDrg2KiBV1_1));
    for (uint64_t node = 0; node < g.size(); ++node) {
        std::array<uint32_t, kDegree> all{};
        std::array<uint32_t, kBaseDegree> drg{};
        std::array<uint32_t, kExpDegree> exp{};
        g.parents(node, all);
        g.drg_parents(node, drg);
        g.expander_parents(node, exp);
        EXPECT_TRUE(std::equal(drg.begin(), drg.end(), all.begin()));
        EXPECT_TRUE(std::equal(exp.begin(), exp.end(), all.begin() + kBaseDegree));
        for (uint32_t e : exp) EXPECT_LT(e, g.size());
    }
}

}  // namespace
}  // namespace cuzk::filecoin
