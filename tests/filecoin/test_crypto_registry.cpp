// ChaCha and BLAKE2b against published vectors; the registered-proof table and the parameter
// file names against rust-fil-proofs parameters.json.
#include <gtest/gtest.h>

#include <string>

#include "cuzk/filecoin/crypto.hpp"
#include "cuzk/filecoin/registry.hpp"

namespace cuzk::filecoin {
namespace {

std::string block_hex(const std::array<uint32_t, 16>& words) {
    std::array<uint8_t, 64> bytes{};
    for (int i = 0; i < 64; ++i) bytes[i] = uint8_t(words[i / 4] >> (8 * (i % 4)));
    return to_hex(bytes);
}

TEST(ChaCha, Rfc7539BlockFunction) {
    // RFC 7539 section 2.3.2: key 00..1f, nonce 00:00:00:09:00:00:00:4a:00:00:00:00, counter 1.
    // In the 64/64 layout the first nonce word is the counter's high word.
    std::array<uint32_t, 8> key{};
    for (int i = 0; i < 8; ++i)
        key[i] = uint32_t(4 * i) | uint32_t(4 * i + 1) << 8 | uint32_t(4 * i + 2) << 16 | uint32_t(4 * i + 3) << 24;
    EXPECT_EQ(block_hex(chacha_block(key, 1 | uint64_t(0x09000000) << 32, 0x4a000000, 20)),
              "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
              "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e");
}

TEST(ChaCha, EightRoundsZeroKeyTwoBlocks) {
    // draft-strombergson-chacha-test-vectors TC1, 256-bit key, 8 rounds: the first two blocks.
    ChaCha8Rng rng(Bytes32{});
    std::array<uint32_t, 16> b0{}, b1{};
    for (auto& w : b0) w = rng.next_u32();
    for (auto& w : b1) w = rng.next_u32();
    EXPECT_EQ(block_hex(b0),
              "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e"
              "984ce172b9216f419f445367456d5619314a42a3da86b001387bfdb80e0cfe42");
    EXPECT_EQ(block_hex(b1),
              "d2aefa0deaa5c151bf0adb6c01f2a5adc0fd581259f9a2aadcf20f8fd566a26b"
              "5032ec38bbc5da98ee0c6f568b872a65a08abf251deb21bb4b56e5d8821e68aa");
    // next_u64 = low word first.
    ChaCha8Rng a(Bytes32{}), b(Bytes32{});
    const uint64_t lo = b.next_u32(), hi = b.next_u32();
    EXPECT_EQ(a.next_u64(), lo | hi << 32);
}

TEST(Blake2b, Vectors) {
    auto hex = [](std::string_view s) {
        return to_hex(blake2b_512({reinterpret_cast<const uint8_t*>(s.data()), s.size()}));
    };
    // RFC 7693 appendix A ("abc") and the empty message.
    EXPECT_EQ(hex("abc"),
              "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1"
              "7d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923");
    EXPECT_EQ(hex(""),
              "786a02f742015903c6c6fd852552d272912f4740e15847618a86e217f71f5419"
              "d25e1031afee585313896444934eb04b903a685b1448b755d56f701afe9be2ce");
    // Block boundaries: bytes i % 251 (digests from Python's hashlib.blake2b).
    const std::pair<size_t, const char*> cases[] = {
        {128,
         "2319e3789c47e2daa5fe807f61bec2a1a6537fa03f19ff32e87eecbfd64b7e0e8ccff439ac333b040f19b0c4ddd11a61e24ac1fe0f10a"
         "039"
         "806c5dcc0da3d115"},
        {129,
         "f59711d44a031d5f97a9413c065d1e614c417ede998590325f49bad2fd444d3e4418be19aec4e11449ac1a57207898bc57d76a1bcf356"
         "629"
         "2c20c683a5c4648f"},
        {256,
         "93463ac058b6163eb43be3f5bb32b28541498f4e3366f1effe253ad44e1e076e41c3616046027c82a7124f8f4746668ad10b12e8e25a9"
         "5ac"
         "8f3151df01cd5a93"},
        {300,
         "3a482b7748b0bdc43c3d00c080890c10e57a9aa5618f78b86067eb7eaae4942acd96d827accbc16958364ae5b0df6105bbd3b15445092"
         "eba"
         "1137b5f69c1070f1"},
    };
    for (const auto& [n, want] : cases) {
        std::vector<uint8_t> data(n);
        for (size_t i = 0; i < n; ++i) data[i] = uint8_t(i % 251);
        EXPECT_EQ(to_hex(blake2b_512(data)), want) << n << " bytes";
    }
}

TEST(Registry, IdsNamesAndPorepIds) {
    for (uint64_t id = 0; id < kRegisteredSealProofCount; ++id) {
        const PoRepConfig& c = porep_config(RegisteredSealProof(id));
        EXPECT_EQ(uint64_t(c.proof), id);
        EXPECT_EQ(seal_proof_from_name(c.name), c.proof);
        Bytes32 want{};
        want[0] = uint8_t(id);  // u64 LE id, u64 LE nonce 0, zeros
        EXPECT_EQ(c.porep_id, want);
        EXPECT_EQ(c.nodes * 32, c.sector_size);
    }
    EXPECT_FALSE(seal_proof_from_name("StackedDrg2KiBV2"));
    EXPECT_FALSE(seal_proof_from_id(20));
    EXPECT_THROW(porep_config(RegisteredSealProof(20)), std::invalid_argument);

    const auto& c32 = porep_config(RegisteredSealProof::StackedDrg32GiBV1_1);
    EXPECT_EQ(c32.name, "StackedDrg32GiBV1_1");
    EXPECT_EQ(c32.vanilla_proof_tag, "StackedDrg32GiBV1");
    EXPECT_EQ(c32.api_version, ApiVersion::V1_1_0);
    EXPECT_EQ(c32.layers, 11u);
    EXPECT_EQ(c32.partitions, 10u);
    EXPECT_EQ(c32.challenges_per_partition, 18u);  // ceil(176 / 10)
    EXPECT_EQ(c32.tree.display(), "merkletree-poseidon_hasher-8-8-0");
    EXPECT_EQ(c32.base_path_levels(), 9u);  // 2^30 / 8 leaves per base tree = 8^9
    EXPECT_EQ(c32.path_levels(), 10u);
    EXPECT_EQ(c32.comm_d_path_levels(), 30u);

    const auto& c64 = porep_config(RegisteredSealProof::StackedDrg64GiBV1);
    EXPECT_EQ(c64.api_version, ApiVersion::V1_0_0);
    EXPECT_EQ(c64.tree.display(), "merkletree-poseidon_hasher-8-8-2");
    EXPECT_EQ(c64.path_levels(), 11u);

    const auto& c2 = porep_config(RegisteredSealProof::StackedDrg2KiBV1);
    EXPECT_EQ(c2.layers, 2u);
    EXPECT_EQ(c2.partitions, 1u);
    EXPECT_EQ(c2.challenges_per_partition, 2u);
    EXPECT_EQ(c2.path_levels(), 2u);  // 64 leaves, arity 8
    EXPECT_EQ(c2.comm_d_path_levels(), 6u);

    // Synthetic PoRep is V1_2 despite its name; NI-PoRep: 126 partitions of ceil(2253/126) = 18.
    EXPECT_EQ(porep_config(RegisteredSealProof::StackedDrg32GiBV1_1_Feat_SyntheticPoRep).api_version,
              ApiVersion::V1_2_0);
    const auto& ni = porep_config(RegisteredSealProof::StackedDrg32GiBV1_2_Feat_NonInteractivePoRep);
    EXPECT_EQ(ni.kind, PoRepKind::NonInteractivePoRep);
    EXPECT_EQ(ni.partitions, 126u);
    EXPECT_EQ(ni.challenges_per_partition, 18u);
    const auto& ni2 = porep_config(RegisteredSealProof::StackedDrg2KiBV1_2_Feat_NonInteractivePoRep);
    EXPECT_EQ(ni2.partitions, 13u);
    EXPECT_EQ(ni2.challenges_per_partition, 2u);
}

TEST(Registry, ParameterFileNamesMatchParametersJson) {
    // rust-fil-proofs parameters.json (the published PoRep parameter files, one per size).
    const std::pair<RegisteredSealProof, const char*> cases[] = {
        {RegisteredSealProof::StackedDrg2KiBV1_1,
         "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
         "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.params"},
        {RegisteredSealProof::StackedDrg8MiBV1_1,
         "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
         "ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb.params"},
        {RegisteredSealProof::StackedDrg512MiBV1_1,
         "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
         "6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472.params"},
        {RegisteredSealProof::StackedDrg32GiBV1_1,
         "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
         "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820.params"},
        {RegisteredSealProof::StackedDrg64GiBV1_1,
         "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
         "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2.params"},
    };
    for (const auto& [proof, want] : cases) {
        EXPECT_EQ(porep_params_file_name(porep_config(proof)), want);
        // Every version and feature of a size shares the files (NI-PoRep keeps 18 or 2
        // challenges per partition for exactly that reason).
        for (uint64_t id = uint64_t(proof) % 5; id < kRegisteredSealProofCount; id += 5)
            EXPECT_EQ(porep_params_file_name(porep_config(RegisteredSealProof(id))), want) << id;
    }
    EXPECT_EQ(porep_parameter_identifier(porep_config(RegisteredSealProof::StackedDrg32GiBV1_1)),
              "layered_drgporep::PublicParams{ graph: stacked_graph::StackedGraph{expansion_degree: 8 base_graph: "
              "drgraph::BucketGraph{size: 1073741824; degree: 6; hasher: poseidon_hasher} }, challenges: "
              "LayerChallenges { layers: 11, max_count: 18 }, tree: merkletree-poseidon_hasher-8-8-0 }");
    EXPECT_EQ(porep_vk_file_name(porep_config(RegisteredSealProof::StackedDrg2KiBV1)),
              "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
              "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.vk");
}

// NI-PoRep (FIP-0090): ids 15..19 (rust-filecoin-proofs-api REGISTERED_PROOF_IDS), api
// version 1.2 (ApiFeature::NonInteractivePoRep's first supported version), partitions and
// minimum challenges from constants.rs (get_porep_non_interactive_partitions / _minimum_
// challenges), and the interactive circuit and parameter files of the same size.
TEST(Registry, NonInteractivePoRepProofs) {
    struct Row {
        const char* name;
        uint64_t id, sector_size;
        unsigned partitions, min_challenges, per_partition;
    };
    const Row rows[] = {
        {"StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", 15, 2048, 13, 26, 2},
        {"StackedDrg8MiBV1_2_Feat_NonInteractivePoRep", 16, 8 << 20, 13, 26, 2},
        {"StackedDrg512MiBV1_2_Feat_NonInteractivePoRep", 17, 512 << 20, 13, 26, 2},
        {"StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", 18, uint64_t(32) << 30, 126, 2253, 18},
        {"StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", 19, uint64_t(64) << 30, 126, 2253, 18},
    };
    for (const Row& r : rows) {
        SCOPED_TRACE(r.name);
        const auto proof = seal_proof_from_name(r.name);
        ASSERT_TRUE(proof);
        EXPECT_EQ(uint64_t(*proof), r.id);
        EXPECT_EQ(seal_proof_from_id(r.id), proof);
        const PoRepConfig& c = porep_config(*proof);
        EXPECT_EQ(c.name, r.name);
        EXPECT_EQ(c.kind, PoRepKind::NonInteractivePoRep);
        EXPECT_EQ(c.api_version, ApiVersion::V1_2_0);
        EXPECT_EQ(c.sector_size, r.sector_size);
        EXPECT_EQ(c.partitions, r.partitions);
        EXPECT_EQ(c.minimum_challenges, r.min_challenges);
        EXPECT_EQ(c.challenges_per_partition, r.per_partition);
        EXPECT_GE(c.partitions * c.challenges_per_partition, c.minimum_challenges);
        // The VanillaSealProof variant is the size's V1 name whatever the version.
        EXPECT_EQ(std::string(c.vanilla_proof_tag) + "_2_Feat_NonInteractivePoRep", r.name);
        // porep_id: the id in bytes 0..8, nonce 0.
        Bytes32 want{};
        want[0] = uint8_t(r.id);
        EXPECT_EQ(c.porep_id, want);
        // The interactive V1_1 proof of the size names the circuit and its files.
        const PoRepConfig& v11 = porep_config(circuit_proof(*proof));
        EXPECT_EQ(v11.kind, PoRepKind::Interactive);
        EXPECT_EQ(v11.api_version, ApiVersion::V1_1_0);
        EXPECT_EQ(v11.sector_size, c.sector_size);
        EXPECT_EQ(v11.layers, c.layers);
        EXPECT_EQ(v11.challenges_per_partition, c.challenges_per_partition);
        EXPECT_EQ(v11.tree.display(), c.tree.display());
        EXPECT_EQ(porep_parameter_identifier(c), porep_parameter_identifier(v11));
        EXPECT_EQ(porep_params_file_name(c), porep_params_file_name(v11));
        EXPECT_EQ(porep_vk_file_name(c), porep_vk_file_name(v11));
    }
    // circuit_proof is the V1_1 proof for every version and feature of a size.
    for (uint64_t id = 0; id < kRegisteredSealProofCount; ++id)
        EXPECT_EQ(circuit_proof(RegisteredSealProof(id)), RegisteredSealProof(5 + id % 5)) << id;
    EXPECT_THROW(circuit_proof(RegisteredSealProof(kRegisteredSealProofCount)), std::invalid_argument);
    EXPECT_FALSE(seal_proof_from_name("StackedDrg32GiBV1_2_Feat_NonInteractive"));
}

TEST(Registry, Hex) {
    Bytes32 b{};
    for (int i = 0; i < 32; ++i) b[i] = uint8_t(i * 7);
    EXPECT_EQ(bytes32_from_hex(to_hex(b)), b);
    EXPECT_FALSE(bytes32_from_hex("00"));
    EXPECT_FALSE(bytes32_from_hex(std::string(63, '0') + "g"));
}

}  // namespace
}  // namespace cuzk::filecoin
