// Fallback PoSt natively: the registered proofs and their parameter files, the challenges
// (known answers computed with Python's hashlib from the formulas of rust-fil-proofs'
// fallback/vanilla.rs), the bincode form of FallbackPoStSectorProof (byte vectors built here
// from the Rust type layout), vanilla verification and the two generators.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>

#include "cuzk/filecoin/post.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/formats/error.hpp"
#include "cuzk/gadgets/poseidon.hpp"
#include "cuzk/hash/sha256.hpp"
#include "support/seed.hpp"

namespace cuzk::filecoin {
namespace {

using P = RegisteredPoStProof;

Bytes32 test_randomness() {
    Bytes32 r{};
    for (int i = 0; i < 32; ++i) r[i] = uint8_t(i);  // byte 31 = 31: a canonical Fr
    return r;
}

Bytes32 prover_id_1000() {
    Bytes32 p{};
    p[0] = 0xe8, p[1] = 0x03;  // actor id 1000, u64 little-endian
    return p;
}

// ---- registry ---------------------------------------------------------------------------------

TEST(PoStRegistry, ConfigsOfEveryRegisteredProof) {
    struct Row {
        P proof;
        const char* name;
        PoStType type;
        uint64_t size;
        ApiVersion version;
        unsigned challenges, sectors, circuit_sectors, circuit_challenges, levels;
    };
    const Row rows[] = {
        {P::StackedDrgWinning2KiBV1, "StackedDrgWinning2KiBV1", PoStType::Winning, 2048, ApiVersion::V1_0_0, 66, 1, 66,
         1, 2},
        {P::StackedDrgWinning32GiBV1, "StackedDrgWinning32GiBV1", PoStType::Winning, 32ull << 30, ApiVersion::V1_0_0,
         66, 1, 66, 1, 10},
        {P::StackedDrgWindow8MiBV1, "StackedDrgWindow8MiBV1", PoStType::Window, 8 << 20, ApiVersion::V1_0_0, 10, 2, 2,
         10, 6},
        {P::StackedDrgWindow512MiBV1_2, "StackedDrgWindow512MiBV1_2", PoStType::Window, 512 << 20, ApiVersion::V1_2_0,
         10, 2, 2, 10, 8},
        {P::StackedDrgWindow32GiBV1_2, "StackedDrgWindow32GiBV1_2", PoStType::Window, 32ull << 30, ApiVersion::V1_2_0,
         10, 2349, 2349, 10, 10},
        {P::StackedDrgWindow64GiBV1_2, "StackedDrgWindow64GiBV1_2", PoStType::Window, 64ull << 30, ApiVersion::V1_2_0,
         10, 2300, 2300, 10, 11},
    };
    for (const Row& r : rows) {
        const PoStConfig& c = post_config(r.proof);
        EXPECT_EQ(c.name, r.name);
        EXPECT_EQ(c.type, r.type) << r.name;
        EXPECT_EQ(c.sector_size, r.size) << r.name;
        EXPECT_EQ(c.nodes, r.size / 32) << r.name;
        EXPECT_EQ(c.api_version, r.version) << r.name;
        EXPECT_EQ(c.challenge_count, r.challenges) << r.name;
        EXPECT_EQ(c.sector_count, r.sectors) << r.name;
        EXPECT_EQ(c.circuit_sectors, r.circuit_sectors) << r.name;
        EXPECT_EQ(c.circuit_challenges, r.circuit_challenges) << r.name;
        EXPECT_EQ(c.path_levels(), r.levels) << r.name;
        EXPECT_EQ(post_proof_from_name(r.name), r.proof);
        EXPECT_EQ(post_proof_from_id(uint64_t(r.proof)), r.proof);
    }
    // Go's names of the 1.2 Window proofs end in V1_1.
    EXPECT_EQ(post_proof_from_name("StackedDrgWindow32GiBV1_1"), P::StackedDrgWindow32GiBV1_2);
    EXPECT_EQ(post_config(P::StackedDrgWindow32GiBV1_2).go_name, "StackedDrgWindow32GiBV1_1");
    EXPECT_EQ(post_config(P::StackedDrgWindow64GiBV1).go_name, "StackedDrgWindow64GiBV1");
    EXPECT_EQ(post_proof_from_id(15), std::nullopt);
    EXPECT_EQ(post_proof_from_name("StackedDrgWindow32GiBV1_3"), std::nullopt);
    EXPECT_THROW(post_config(RegisteredPoStProof(15)), std::invalid_argument);
    for (uint64_t id = 0; id < kRegisteredPoStProofCount; ++id) {
        const PoStConfig& c = post_config(RegisteredPoStProof(id));
        EXPECT_EQ(uint64_t(c.proof), id);
        EXPECT_EQ(c.tree.display(), porep_config(RegisteredSealProof(id % 5)).tree.display());
    }
}

// The 10 PoSt parameter files of rust-fil-proofs' parameters.json; Window V1 and V1_2 share.
TEST(PoStRegistry, ParameterFileNamesMatchParametersJson) {
    struct Row {
        P proof;
        const char* hash;
    };
    const Row rows[] = {
        {P::StackedDrgWinning2KiBV1, "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e"},
        {P::StackedDrgWinning8MiBV1, "50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331"},
        {P::StackedDrgWinning512MiBV1, "7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781"},
        {P::StackedDrgWinning32GiBV1, "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e"},
        {P::StackedDrgWinning64GiBV1, "b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c"},
        {P::StackedDrgWindow2KiBV1_2, "0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0"},
        {P::StackedDrgWindow8MiBV1_2, "5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9"},
        {P::StackedDrgWindow512MiBV1_2, "0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9"},
        {P::StackedDrgWindow32GiBV1_2, "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc"},
        {P::StackedDrgWindow64GiBV1_2, "2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def"},
    };
    for (const Row& r : rows) {
        const PoStConfig& c = post_config(r.proof);
        const std::string stem = "v28-proof-of-spacetime-fallback-" + c.tree.display() + "-" + r.hash;
        EXPECT_EQ(post_params_file_name(c), stem + ".params") << c.name;
        EXPECT_EQ(post_vk_file_name(c), stem + ".vk") << c.name;
    }
    EXPECT_EQ(post_parameter_identifier(post_config(P::StackedDrgWinning32GiBV1)),
              "FallbackPoSt::PublicParams{sector_size: 34359738368, challenge_count: 1, sector_count: 66}");
    EXPECT_EQ(post_parameter_identifier(post_config(P::StackedDrgWindow32GiBV1)),
              "FallbackPoSt::PublicParams{sector_size: 34359738368, challenge_count: 10, sector_count: 2349}");
    EXPECT_EQ(post_params_file_name(post_config(P::StackedDrgWindow2KiBV1)),
              post_params_file_name(post_config(P::StackedDrgWindow2KiBV1_2)));
}

// ---- challenges -------------------------------------------------------------------------------

// Known answers: Python hashlib, SHA-256(prover_id ‖ randomness ‖ u64_le(n)) and
// SHA-256(randomness ‖ u64_le(sector_id) ‖ u64_le(index)), first 8 bytes little-endian, mod n.
TEST(PoStChallenges, KnownAnswers) {
    const Bytes32 r = test_randomness(), prover = prover_id_1000();
    EXPECT_EQ(post_sector_challenges(r, prover, 3, 1000003), (std::vector<uint64_t>{403421, 461398, 154124}));
    EXPECT_EQ(post_sector_challenges(r, prover, 1, 1)[0], 0u);
    EXPECT_EQ(post_sector_challenges(r, prover, 1, 7)[0], 4u);
    EXPECT_EQ(post_sector_challenges(r, prover, 1, uint64_t(1) << 40)[0], 675184311148u);
    EXPECT_EQ(post_sector_challenges(r, prover, 1, ~uint64_t(0))[0], 0xa895459d341efb6cu % ~uint64_t(0));
    EXPECT_THROW(post_sector_challenges(r, prover, 1, 0), std::invalid_argument);
    const auto& winning = post_config(P::StackedDrgWinning2KiBV1);
    EXPECT_EQ(winning_post_sector_challenges(winning, r, prover, 1000003), (std::vector<uint64_t>{403421}));
    EXPECT_THROW(winning_post_sector_challenges(post_config(P::StackedDrgWindow2KiBV1), r, prover, 5),
                 std::invalid_argument);

    const uint64_t leaf2k[] = {53, 5, 42, 29, 62};
    for (uint64_t i = 0; i < 5; ++i) EXPECT_EQ(post_leaf_challenge(64, r, 17, i), leaf2k[i]) << i;
    const std::pair<uint64_t, uint64_t> leaf32g[] = {
        {0, 1040050165}, {1, 1035030981}, {10, 137537612}, {11, 200626180}, {23499, 603661563}};
    for (auto [i, want] : leaf32g) EXPECT_EQ(post_leaf_challenge(uint64_t(1) << 30, r, 17, i), want) << i;
}

TEST(PoStChallenges, ChallengeIndexByApiVersion) {
    EXPECT_EQ(post_challenge_index(ApiVersion::V1_0_0, 3, 10, 4), 34u);
    EXPECT_EQ(post_challenge_index(ApiVersion::V1_1_0, 3, 10, 4), 34u);
    EXPECT_EQ(post_challenge_index(ApiVersion::V1_2_0, 3, 10, 4), 4u);
    // Window 2 KiB, partition 1, its second sector (sector index 3), id 42.
    const Bytes32 r = test_randomness();
    EXPECT_EQ(post_vanilla_challenges(post_config(P::StackedDrgWindow2KiBV1), r, 42, 3),
              (std::vector<uint64_t>{0, 34, 17, 5, 50, 48, 4, 28, 59, 2}));
    EXPECT_EQ(post_vanilla_challenges(post_config(P::StackedDrgWindow2KiBV1_2), r, 42, 3),
              (std::vector<uint64_t>{10, 0, 6, 16, 52, 40, 51, 7, 7, 47}));
    // Winning: one sector, 66 challenges numbered 0..65 in every version.
    const auto w = post_vanilla_challenges(post_config(P::StackedDrgWinning2KiBV1), r, 17, 0);
    ASSERT_EQ(w.size(), 66u);
    for (uint64_t i = 0; i < 5; ++i) EXPECT_EQ(w[i], post_leaf_challenge(64, r, 17, i));
}

// An independent reimplementation: one SHA-256 over the whole preimage, built byte by byte.
TEST(PoStChallenges, AgreeWithOneShotHashOverRandomInputs) {
    const uint64_t seed = test::seed();
    std::mt19937_64 rng(seed);
    for (int t = 0; t < 200; ++t) {
        Bytes32 r{};
        for (auto& b : r) b = uint8_t(rng());
        const uint64_t id = rng(), index = rng() % 100000, nodes = uint64_t(1) << (5 + rng() % 27);
        std::vector<uint8_t> pre(r.begin(), r.end());
        for (int i = 0; i < 8; ++i) pre.push_back(uint8_t(id >> (8 * i)));
        for (int i = 0; i < 8; ++i) pre.push_back(uint8_t(index >> (8 * i)));
        const auto d = sha256_bytes(pre);
        uint64_t v = 0;
        std::memcpy(&v, d.data(), 8);  // little-endian host
        EXPECT_EQ(post_leaf_challenge(nodes, r, id, index), v % nodes) << "seed " << seed;
    }
}

// ---- bincode ----------------------------------------------------------------------------------

// Appends the bincode of the Rust types, written out field by field from their declarations.
struct Bytes {
    std::vector<uint8_t> v;
    Bytes& u64(uint64_t x) {
        for (int i = 0; i < 8; ++i) v.push_back(uint8_t(x >> (8 * i)));
        return *this;
    }
    Bytes& u32(uint32_t x) {
        for (int i = 0; i < 4; ++i) v.push_back(uint8_t(x >> (8 * i)));
        return *this;
    }
    Bytes& fill32(uint8_t b) {
        v.insert(v.end(), 32, b);
        return *this;
    }
};

// A 2 KiB (tree 8-0-0, 2 levels) FallbackPoStSectorProof for Window PoSt: 10 Single proofs.
// Values are placeholders: byte b of hash h is a tag that says where it sits.
std::vector<uint8_t> hand_built_2k_window(uint64_t sector_id) {
    Bytes b;
    b.u64(sector_id);  // sector_id: SectorId(u64)
    b.fill32(0xa1);    // comm_r: PoseidonDomain([u8; 32])
    b.u64(1);          // vanilla_proof: Proof { sectors: Vec<SectorProof> }, 1 entry
    b.u64(10);         // SectorProof.inclusion_proofs: Vec<MerkleProof>
    for (int i = 0; i < 10; ++i) {
        b.u32(0);                           // MerkleProof.data: ProofData::Single (variant 0)
        b.fill32(0xb0).fill32(uint8_t(i));  // SingleProof.root, .leaf
        b.u64(2);                           // .path: InclusionPath { path: Vec<PathElement> }
        for (int l = 0; l < 2; ++l) {
            b.u64(7);  // PathElement.hashes: Vec<PoseidonDomain>
            for (int k = 0; k < 7; ++k) b.fill32(uint8_t(0x10 * l + k));
            b.u64(uint64_t(i + l) % 8);  // PathElement.index: usize as u64
        }
    }
    b.fill32(0xc0);  // SectorProof.comm_c
    b.fill32(0xb0);  // SectorProof.comm_r_last
    return b.v;
}

TEST(PoStBincode, DecodesHandBuiltBytesAndEncodesThemBack) {
    const auto& cfg = post_config(P::StackedDrgWindow2KiBV1_2);
    const auto bytes = hand_built_2k_window(0x0102030405060708);
    EXPECT_EQ(bytes.size(), 8 + 32 + 8 + 8 + 10 * (4 + 64 + 8 + 2 * (8 + 7 * 32 + 8)) + 64);
    const auto p = decode_post_sector_proof(cfg, bytes);
    EXPECT_EQ(p.sector_id, 0x0102030405060708u);
    EXPECT_EQ(p.comm_r[0], 0xa1);
    ASSERT_EQ(p.sectors.size(), 1u);
    ASSERT_EQ(p.sectors[0].inclusion_proofs.size(), 10u);
    const MerkleProof& m = p.sectors[0].inclusion_proofs[3];
    EXPECT_EQ(m.kind, MerkleProof::Kind::Single);
    EXPECT_EQ(m.root[5], 0xb0);
    EXPECT_EQ(m.leaf[5], 3);
    ASSERT_EQ(m.base.size(), 2u);
    EXPECT_EQ(m.base[1].hashes[6][0], 0x16);
    EXPECT_EQ(m.base[1].index, 4u);
    EXPECT_EQ(p.sectors[0].comm_c[0], 0xc0);
    EXPECT_EQ(encode_post_sector_proof(p), bytes);
}

// 64 GiB (8-8-2): ProofData::Top (variant 2) with fields base_proof, sub_proof, top_proof,
// root, leaf in that order.
TEST(PoStBincode, TopProofFieldOrder) {
    const auto& cfg = post_config(P::StackedDrgWinning64GiBV1);
    Bytes b;
    b.u64(9).fill32(1).u64(1).u64(66);
    for (int i = 0; i < 66; ++i) {
        b.u32(2);
        b.u64(9);  // base levels: 2^31 leaves / 2 / 8 = 8^9
        for (int l = 0; l < 9; ++l) {
            b.u64(7);
            for (int k = 0; k < 7; ++k) b.fill32(2);
            b.u64(l % 8);
        }
        b.u64(1).u64(7);  // sub_proof: 1 level, arity 8
        for (int k = 0; k < 7; ++k) b.fill32(3);
        b.u64(5);
        b.u64(1).u64(1).fill32(4).u64(1);  // top_proof: 1 level, arity 2, index 1
        b.fill32(5).fill32(6);             // root, leaf
    }
    b.fill32(7).fill32(8);
    const auto p = decode_post_sector_proof(cfg, b.v);
    const MerkleProof& m = p.sectors[0].inclusion_proofs[65];
    EXPECT_EQ(m.kind, MerkleProof::Kind::Top);
    EXPECT_EQ(m.base.size(), 9u);
    EXPECT_EQ(m.sub[0].index, 5u);
    EXPECT_EQ(m.top[0].hashes.size(), 1u);
    EXPECT_EQ(m.top[0].index, 1u);
    EXPECT_EQ(m.root[0], 5);
    EXPECT_EQ(m.leaf[0], 6);
    uint64_t base = 0;  // index l % 8 at level l
    for (int l = 8; l >= 0; --l) base = base * 8 + uint64_t(l % 8);
    EXPECT_EQ(m.path_index(8, 8, 2), (uint64_t(1) << 30) + 5 * (uint64_t(1) << 27) + base);
    EXPECT_EQ(encode_post_sector_proof(p), b.v);
}

std::string decode_error(const PoStConfig& cfg, const std::vector<uint8_t>& bytes) {
    try {
        decode_post_sector_proof(cfg, bytes, "vanilla proof 7");
    } catch (const formats::FormatError& e) {
        return e.what();
    }
    return "";
}

TEST(PoStBincode, RefusesMalformedBytesNamingTheField) {
    const auto& cfg = post_config(P::StackedDrgWindow2KiBV1_2);
    const auto good = hand_built_2k_window(1);
    auto expect = [&](std::vector<uint8_t> bytes, const std::string& part) {
        const std::string e = decode_error(cfg, bytes);
        EXPECT_NE(e.find(part), std::string::npos) << "got: " << e;
        EXPECT_EQ(e.rfind("vanilla proof 7: ", 0), 0u) << e;
    };
    // Every truncation is refused.
    for (size_t n = 0; n < good.size(); n += 97)
        EXPECT_THROW(decode_post_sector_proof(cfg, std::span(good).first(n)), formats::FormatError) << n;
    expect(std::vector<uint8_t>(good.begin(), good.begin() + 20), "comm_r at byte 8: truncated");
    auto bad = good;
    bad.push_back(0);
    expect(bad, "1 trailing bytes");
    // A huge count is refused before anything is allocated.
    bad = good;
    bad[48] = 0xff, bad[55] = 0x7f;  // inclusion_proofs length
    expect(bad, "vanilla_proof.sectors[0].inclusion_proofs at byte 48: expected 10 inclusion proofs, found");
    bad = good;
    bad[40] = 2;  // two sector proofs
    expect(bad, "vanilla_proof.sectors at byte 40: expected 1 sector proofs, found 2");
    bad = good;
    bad[56] = 1;  // first proof: ProofData::Sub
    expect(bad,
           "inclusion_proofs[0].data at byte 56: expected ProofData::Single for tree "
           "merkletree-poseidon_hasher-8-0-0, found Sub");
    bad[56] = 3;
    expect(bad, "unknown ProofData variant 3");
    bad = good;
    bad[56 + 4 + 64] = 3;  // path levels
    expect(bad, "inclusion_proofs[0].data.Single.path.path at byte 124: expected 2 levels, found 3");
    bad = good;
    bad[56 + 4 + 64 + 8] = 6;  // siblings
    expect(bad, "inclusion_proofs[0].data.Single.path.path[0].hashes at byte 132: expected 7 siblings, found 6");
    bad = good;
    bad[56 + 4 + 64 + 8 + 8 + 7 * 32] = 8;  // index
    expect(bad, "path[0].index at byte 364: index 8 out of range for arity 8");
    // A proof of a smaller size's shape: too short for the sector proof 32 GiB needs.
    const std::string e = decode_error(post_config(P::StackedDrgWindow32GiBV1_2), good);
    EXPECT_NE(e.find("vanilla_proof.sectors at byte 40: 1 sector proofs need at least 24912 bytes, 5632 are left"),
              std::string::npos)
        << e;
}

// Random damage to a valid encoding (overwritten bytes, cut or extended tails) decodes or is
// refused with a FormatError; never a crash or an allocation sized by the damage.
TEST(PoStBincode, RandomDamageIsDecodedOrRefused) {
    const uint64_t seed = test::seed();
    std::mt19937_64 rng(seed);
    for (P proof : {P::StackedDrgWindow2KiBV1_2, P::StackedDrgWinning64GiBV1}) {
        const auto& cfg = post_config(proof);
        const auto good = encode_post_sector_proof(synthetic_post_vanilla_proof(cfg, seed, 5, test_randomness(), 0));
        for (int t = 0; t < 300; ++t) {
            auto b = good;
            const int kind = int(rng() % 3);
            if (kind == 0) {
                for (int k = 0, n = 1 + int(rng() % 4); k < n; ++k) b[rng() % b.size()] = uint8_t(rng());
            } else if (kind == 1) {
                b.resize(rng() % b.size());
            } else {
                b.insert(b.end(), 1 + rng() % 64, uint8_t(rng()));
            }
            try {
                const auto p = decode_post_sector_proof(cfg, b);
                EXPECT_EQ(encode_post_sector_proof(p), b) << "seed " << seed << " trial " << t;
            } catch (const formats::FormatError&) {
            }
        }
    }
}

// ---- the request file -----------------------------------------------------------------------------

// The layout of post.hpp, written out field by field.
TEST(PoStRequestFile, LayoutByteForByteAndRoundTrip) {
    PoStRequestFile f;
    f.proof = P::StackedDrgWindow2KiBV1_2;
    f.randomness = test_randomness();
    f.miner_id = 0x1122334455667788;
    f.partition_index = 3;
    f.vanilla_proofs = {hand_built_2k_window(42), {1, 2, 3}};
    Bytes b;
    for (char c : std::string("cuzkpost")) b.v.push_back(uint8_t(c));
    b.u32(1).u64(10);  // version, registered_proof StackedDrgWindow2KiBV1_2
    b.v.insert(b.v.end(), f.randomness.begin(), f.randomness.end());
    b.u64(0x1122334455667788).u32(3).u64(2);
    for (const auto& v : f.vanilla_proofs) {
        b.u64(v.size());
        b.v.insert(b.v.end(), v.begin(), v.end());
    }
    EXPECT_EQ(encode_post_request_file(f), b.v);
    EXPECT_EQ(decode_post_request_file(b.v, "req.bin"), f);
}

TEST(PoStRequestFile, RefusesMalformedFilesNamingTheField) {
    PoStRequestFile f;
    f.proof = P::StackedDrgWindow2KiBV1_2;
    f.randomness = test_randomness();
    f.vanilla_proofs = {{1, 2, 3}, {4}};
    const auto good = encode_post_request_file(f);
    auto error = [](const std::vector<uint8_t>& b) -> std::string {
        try {
            decode_post_request_file(b, "req.bin");
        } catch (const formats::FormatError& e) {
            return e.what();
        }
        return "";
    };
    auto expect = [&](const std::vector<uint8_t>& b, const std::string& want) { EXPECT_EQ(error(b), want); };
    // Every truncation is refused.
    for (size_t n = 0; n < good.size(); ++n) EXPECT_NE(error({good.begin(), good.begin() + n}), "") << n;
    auto bad = good;
    bad[0] = 'C';
    EXPECT_NE(error(bad).find("req.bin: magic at byte 0: not a PoSt request file"), std::string::npos) << error(bad);
    bad = good;
    bad[8] = 2;
    expect(bad, "req.bin: version at byte 8: format version 2, this cuzk reads 1");
    bad = good;
    bad[12] = 15;
    expect(bad, "req.bin: registered_proof at byte 12: 15 is not a registered PoSt proof (0..14)");
    bad = good;
    bad[64] = 3;  // three sectors: at most 2 at 2 KiB
    expect(bad, "req.bin: vanilla_proofs at byte 64: expected 1 to 2 sectors, found 3");
    bad[64] = 0;
    expect(bad, "req.bin: vanilla_proofs at byte 64: expected 1 to 2 sectors, found 0");
    bad = good;
    bad[72] = 0xff, bad[79] = 0x7f;  // a huge length: refused before anything is allocated
    EXPECT_NE(error(bad).find("req.bin: vanilla_proofs[0] at byte 80: truncated"), std::string::npos) << error(bad);
    bad = good;
    bad.push_back(0);
    expect(bad, "req.bin: vanilla_proofs at byte 92: 1 trailing bytes");
    // Winning: one sector, partition 0.
    f.proof = P::StackedDrgWinning2KiBV1;
    f.partition_index = 1;
    f.vanilla_proofs.resize(1);
    expect(encode_post_request_file(f),
           "req.bin: partition_index at byte 60: partition 1 of a Winning PoSt (it has one)");
    f.partition_index = 0;
    f.vanilla_proofs.resize(2);
    expect(encode_post_request_file(f), "req.bin: vanilla_proofs at byte 64: expected 1 to 1 sectors, found 2");
}

// ---- verification and generators ----------------------------------------------------------------

const SealedSector& sealed_2k() {
    static const SealedSector s = [] {
        SealParams p;
        p.proof = RegisteredSealProof::StackedDrg2KiBV1_1;
        p.sector_id = 42;
        for (int i = 0; i < 32; ++i) p.prover_id[i] = uint8_t(3 * i), p.ticket[i] = uint8_t(i);
        p.ticket[31] = 0;
        p.prover_id[31] = 0;
        return SealedSector::seal(p, pseudo_random_sector_data(porep_config(p.proof), 11));
    }();
    return s;
}

std::string verify_error(const PoStConfig& cfg, const Bytes32& r, const FallbackPoStSectorProof& p,
                         uint64_t sector_index = 0) {
    try {
        post_verify_sector(cfg, r, p, sector_index, "sector 0");
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

TEST(PoStVanilla, RealSectorProofVerifiesAndRoundTrips) {
    for (P proof : {P::StackedDrgWindow2KiBV1, P::StackedDrgWindow2KiBV1_2, P::StackedDrgWinning2KiBV1}) {
        const auto& cfg = post_config(proof);
        const auto p = post_vanilla_proof(cfg, sealed_2k(), 42, test_randomness(), 0);
        EXPECT_EQ(p.comm_r, sealed_2k().commitments().comm_r);
        EXPECT_EQ(p.sectors[0].comm_c, sealed_2k().commitments().comm_c);
        EXPECT_EQ(p.sectors[0].comm_r_last, sealed_2k().commitments().comm_r_last);
        EXPECT_EQ(verify_error(cfg, test_randomness(), p), "") << cfg.name;
        const auto bytes = encode_post_sector_proof(p);
        EXPECT_EQ(decode_post_sector_proof(cfg, bytes), p);
        EXPECT_EQ(encode_post_sector_proof(decode_post_sector_proof(cfg, bytes)), bytes);
    }
    const auto& win = post_config(P::StackedDrgWinning2KiBV1);
    const auto p = post_vanilla_proof(win, sealed_2k(), 42, test_randomness(), 0);
    EXPECT_NO_THROW(post_verify_winning(win, test_randomness(), std::span(&p, 1)));
    EXPECT_THROW(post_verify_window_partition(win, test_randomness(), 0, std::span(&p, 1)), std::invalid_argument);
    EXPECT_THROW(post_vanilla_proof(post_config(P::StackedDrgWindow8MiBV1), sealed_2k(), 42, test_randomness(), 0),
                 std::invalid_argument);
}

TEST(PoStVanilla, RefusalsNameTheSectorAndField) {
    const auto& cfg = post_config(P::StackedDrgWindow2KiBV1_2);
    const Bytes32 r = test_randomness();
    const auto good = post_vanilla_proof(cfg, sealed_2k(), 42, r, 0);
    auto expect = [&](const FallbackPoStSectorProof& p, const std::string& part, const Bytes32& rr) {
        const std::string e = verify_error(cfg, rr, p);
        EXPECT_EQ(e.rfind("sector 0 (id ", 0), 0u) << e;
        EXPECT_NE(e.find(part), std::string::npos) << "got: " << e;
    };
    // Another randomness: other challenges.
    Bytes32 r2 = r;
    r2[0] ^= 1;
    expect(good, "inclusion_proofs[0]: opens leaf", r2);
    // Another sector id: other challenges.
    auto p = good;
    p.sector_id = 43;
    expect(p, "(id 43): inclusion_proofs[0]: opens leaf", r);
    // A flipped byte of a leaf, a sibling, comm_c, comm_r, comm_r_last.
    p = good;
    p.sectors[0].inclusion_proofs[4].leaf[0] ^= 1;
    expect(p, "inclusion_proofs[4]: the path does not hash to comm_r_last", r);
    p = good;
    p.sectors[0].inclusion_proofs[9].base[1].hashes[2][3] ^= 0x10;
    expect(p, "inclusion_proofs[9]: the path does not hash to comm_r_last", r);
    p = good;
    p.sectors[0].comm_c[0] ^= 1;
    expect(p, "comm_r: is not Poseidon2(comm_c, comm_r_last)", r);
    p = good;
    p.comm_r[1] ^= 1;
    expect(p, "comm_r: is not Poseidon2(comm_c, comm_r_last)", r);
    p = good;
    p.sectors[0].inclusion_proofs[2].root[0] ^= 1;
    expect(p, "inclusion_proofs[2].root: differs from comm_r_last", r);
    p = good;
    p.sectors[0].comm_r_last[31] = 0xff;
    expect(p, "comm_r_last: not a canonical field element", r);
    p = good;
    p.sectors[0].inclusion_proofs.pop_back();
    expect(p, "inclusion_proofs: expected 10, found 9", r);
    p = good;
    p.sectors[0].inclusion_proofs[1].base[0].index = 9;
    expect(p, "inclusion_proofs[1].path[0]: 7 siblings at index 9 do not fit arity 8", r);
    p = good;
    p.sectors.push_back(p.sectors[0]);
    expect(p, "vanilla_proof.sectors: expected 1 sector proof, found 2", r);
    Bytes32 big = r;
    big[31] = 0x80;
    expect(good, "randomness: not a canonical field element", big);
    // Window: sector index matters for API 1.0 (challenges numbered across sectors).
    const auto& v1 = post_config(P::StackedDrgWindow2KiBV1);
    const auto p0 = post_vanilla_proof(v1, sealed_2k(), 42, r, 0);
    EXPECT_EQ(verify_error(v1, r, p0, 0), "");
    EXPECT_NE(verify_error(v1, r, p0, 1).find("opens leaf"), std::string::npos);
    // A partition: duplicate ids and too many sectors are refused, naming the partition.
    const auto p1 = post_vanilla_proof(v1, sealed_2k(), 42, r, 1);
    const FallbackPoStSectorProof pair[] = {p0, p1};
    try {
        post_verify_window_partition(v1, r, 0, pair);
        ADD_FAILURE();
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("window partition 0, sector 1: sector id 42 appears twice"),
                  std::string::npos)
            << e.what();
    }
    const FallbackPoStSectorProof three[] = {p0, p0, p0};
    EXPECT_THROW(post_verify_window_partition(v1, r, 0, three), std::invalid_argument);
    EXPECT_NO_THROW(post_verify_window_partition(v1, r, 0, std::span(pair, 1)));
    // Sectors are verified in parallel; of two bad ones the first is reported.
    auto q0 = p0, q1 = post_vanilla_proof(v1, sealed_2k(), 43, r, 1);
    EXPECT_NO_THROW(post_verify_window_partition(v1, r, 0, std::vector{q0, q1}));
    q0.sectors[0].comm_c[0] ^= 1;
    q1.sectors[0].comm_c[0] ^= 1;
    try {
        post_verify_window_partition(v1, r, 0, std::vector{q0, q1});
        ADD_FAILURE();
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()).rfind("window partition 0, sector 0 (id 42): comm_r:", 0), 0u) << e.what();
    }
}

TEST(PoStVanilla, SyntheticProofsVerifyForEverySize) {
    const uint64_t seed = test::seed();
    const Bytes32 r = test_randomness();
    for (uint64_t id = 0; id < kRegisteredPoStProofCount; ++id) {
        const auto& cfg = post_config(RegisteredPoStProof(id));
        const auto p = synthetic_post_vanilla_proof(cfg, seed, 1000 + id, r, 3);
        EXPECT_EQ(verify_error(cfg, r, p, 3), "") << cfg.name << " seed " << seed;
        const auto bytes = encode_post_sector_proof(p);
        EXPECT_EQ(encode_post_sector_proof(decode_post_sector_proof(cfg, bytes)), bytes) << cfg.name;
        EXPECT_EQ(synthetic_post_vanilla_proof(cfg, seed, 1000 + id, r, 3), p) << "deterministic";
    }
    // 32 GiB: Sub proofs, 10 levels.
    const auto& big = post_config(P::StackedDrgWindow32GiBV1_2);
    const auto p = synthetic_post_vanilla_proof(big, seed, 5, r, 0);
    EXPECT_EQ(p.sectors[0].inclusion_proofs[0].kind, MerkleProof::Kind::Sub);
    EXPECT_EQ(p.sectors[0].inclusion_proofs[0].base.size(), 9u);
    // Another randomness: refused.
    Bytes32 r2 = r;
    r2[5] ^= 1;
    EXPECT_NE(verify_error(big, r2, p).find("opens leaf"), std::string::npos);
}

}  // namespace
}  // namespace cuzk::filecoin
