// SnapDeals natively: the registered update proofs and their parameter files
// (rust-fil-proofs' parameters.json), the public parameters of every size (constants.rs), the
// challenges, the bincode form of PartitionProof (byte vectors built here from the Rust type
// layout), vanilla verification with errors naming the partition and field, the encoding of a
// sector sealed in memory and synthetic updates of any size.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <random>
#include <set>
#include <string>

#include "cuzk/filecoin/seal.hpp"
#include "cuzk/filecoin/update.hpp"
#include "cuzk/formats/error.hpp"
#include "cuzk/gadgets/poseidon.hpp"
#include "support/seed.hpp"

namespace cuzk::filecoin {
namespace {

using U = RegisteredUpdateProof;
constexpr uint64_t kKiB = 1024, kMiB = 1024 * kKiB, kGiB = 1024 * kMiB;

const UpdateConfig& size_cfg(uint64_t bytes) { return *update_config_for_sector_size(bytes); }

// ---- registry ---------------------------------------------------------------------------------

TEST(UpdateRegistry, ParameterFileNamesMatchParametersJson) {
    const std::pair<U, const char*> rows[] = {
        {U::StackedDrg2KiBV1,
         "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
         "fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194"},
        {U::StackedDrg8MiBV1,
         "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
         "92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63"},
        {U::StackedDrg512MiBV1,
         "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
         "61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c"},
        {U::StackedDrg32GiBV1,
         "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-"
         "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18"},
        {U::StackedDrg64GiBV1,
         "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-2-"
         "102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7"},
    };
    for (auto [proof, name] : rows) {
        const auto& cfg = update_config(proof);
        EXPECT_EQ(update_params_file_name(cfg), std::string(name) + ".params");
        EXPECT_EQ(update_vk_file_name(cfg), std::string(name) + ".vk");
        EXPECT_EQ(update_proof_from_name(cfg.name), proof);
        EXPECT_EQ(update_proof_from_id(uint64_t(proof)), proof);
    }
    EXPECT_EQ(update_proof_from_id(5), std::nullopt);
    EXPECT_EQ(update_proof_from_name("StackedDrg2KiBV1_1"), std::nullopt);
    EXPECT_THROW(update_config(U(7)), std::invalid_argument);
}

TEST(UpdateRegistry, PublicParamsOfEverySize) {
    struct Row {
        uint64_t size;
        unsigned partitions, challenges, apex, h;
        TreeShape tree;
        bool registered;
    };
    const Row rows[] = {
        {1 * kKiB, 1, 10, 8, 1, {8, 4, 0}, false},      {2 * kKiB, 1, 10, 8, 1, {8, 0, 0}, true},
        {4 * kKiB, 1, 10, 8, 1, {8, 2, 0}, false},      {8 * kKiB, 1, 10, 8, 1, {8, 4, 0}, false},
        {16 * kKiB, 2, 10, 128, 1, {8, 8, 0}, false},   {32 * kKiB, 2, 10, 128, 1, {8, 8, 2}, false},
        {8 * kMiB, 4, 10, 128, 10, {8, 0, 0}, true},    {16 * kMiB, 4, 10, 128, 10, {8, 2, 0}, false},
        {512 * kMiB, 16, 86, 128, 10, {8, 0, 0}, true}, {32 * kGiB, 16, 86, 128, 10, {8, 8, 0}, true},
        {64 * kGiB, 16, 86, 128, 10, {8, 8, 2}, true},
    };
    for (const Row& r : rows) {
        const UpdateConfig* c = update_config_for_sector_size(r.size);
        ASSERT_NE(c, nullptr) << r.size;
        EXPECT_EQ(c->partition_count, r.partitions) << r.size;
        EXPECT_EQ(c->challenge_count, r.challenges) << r.size;
        EXPECT_EQ(c->apex_leaf_count, r.apex) << r.size;
        EXPECT_EQ(c->h_default(), r.h) << r.size;
        EXPECT_EQ(c->tree.display(), r.tree.display()) << r.size;
        EXPECT_EQ(c->proof.has_value(), r.registered) << r.size;
        EXPECT_EQ(uint64_t(1) << c->challenge_bit_len, r.size / 32);
    }
    EXPECT_EQ(update_config_for_sector_size(4 * kMiB), nullptr);
    // k_and_h_select = k | 2^index(h) << partition_bit_len (circuit.rs PublicInputs::new).
    const auto& g32 = update_config(U::StackedDrg32GiBV1);
    EXPECT_EQ(g32.k_and_h_select(0, 10), uint64_t(8) << 4);
    EXPECT_EQ(g32.k_and_h_select(15, 12), 15u | uint64_t(32) << 4);
    EXPECT_EQ(update_config(U::StackedDrg2KiBV1).k_and_h_select(0, 1), 1u);
    EXPECT_THROW(g32.k_and_h_select(16, 10), std::invalid_argument);
    EXPECT_THROW(g32.k_and_h_select(0, 6), std::invalid_argument);
}

// Challenges::new: partition k's challenges lie in its k-th chunk of nodes; the first digest
// is Poseidon2_Custom(1)(comm_r_new, k · digests); its bits give the challenges, little-endian.
TEST(UpdateChallenges, InThePartitionAndFromTheDigestBits) {
    std::mt19937_64 rng(test::seed());
    for (uint64_t bytes : {2 * kKiB, 16 * kKiB, 8 * kMiB, 32 * kGiB}) {
        const auto& cfg = size_cfg(bytes);
        const Fr comm_r_new = Fr::from_u64(rng());
        const unsigned bits = cfg.challenge_bit_len - cfg.partition_bit_len;
        const unsigned per_digest = 254 / bits;
        const uint64_t digests = (cfg.challenge_count + per_digest - 1) / per_digest;
        for (unsigned k = 0; k<cfg.partition_count; k += cfg.partition_count> 1 ? cfg.partition_count - 1 : 1) {
            const auto c = update_challenges(cfg, comm_r_new, k);
            ASSERT_EQ(c.size(), cfg.challenge_count);
            for (uint64_t x : c) EXPECT_EQ(x >> bits, k) << bytes;
            const std::array<Fr, 2> pre{comm_r_new, Fr::from_u64(k * digests)};
            const auto d = gadgets::poseidon_hash(pre, gadgets::PoseidonHashType::custom(1)).to_bigint();
            uint64_t first = 0;
            for (unsigned b = 0; b < bits; ++b)
                if (d.bit(b)) first |= uint64_t(1) << b;
            EXPECT_EQ(c[0], first | uint64_t(k) << bits) << bytes;
        }
        EXPECT_THROW(update_challenges(cfg, comm_r_new, cfg.partition_count), std::invalid_argument);
    }
}

// ---- bincode ----------------------------------------------------------------------------------

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
        for (int i = 0; i < 32; ++i) v.push_back(i == 31 ? 0 : uint8_t(b + i));
        return *this;
    }
};

// A 2 KiB PartitionProof by the Rust layout: comm_c; apex_leafs: Vec<[u8; 32]> (8); per
// challenge (10) proof_r_old (ProofData::Single {root, leaf, path: 2 levels of 7 siblings}),
// proof_d_new (Single, 6 levels of 1 sibling), proof_r_new.
std::vector<uint8_t> hand_built_2k() {
    Bytes b;
    b.fill32(0xc0).u64(8);
    for (int i = 0; i < 8; ++i) b.fill32(uint8_t(0x40 + i));
    b.u64(10);
    auto tree_r = [&](uint8_t tag, int c) {
        b.u32(0).fill32(tag).fill32(uint8_t(tag + c)).u64(2);
        for (int l = 0; l < 2; ++l) {
            b.u64(7);
            for (int k = 0; k < 7; ++k) b.fill32(uint8_t(0x10 * l + k));
            b.u64(uint64_t(c + l) % 8);
        }
    };
    for (int c = 0; c < 10; ++c) {
        tree_r(0x20, c);
        b.u32(0).fill32(0x30).fill32(uint8_t(0x31 + c)).u64(6);
        for (int l = 0; l < 6; ++l) b.u64(1).fill32(uint8_t(0x50 + l)).u64(uint64_t(c >> l) & 1);
        tree_r(0x60, c);
    }
    return b.v;
}

TEST(UpdateBincode, DecodesHandBuiltBytesAndEncodesThemBack) {
    const auto& cfg = update_config(U::StackedDrg2KiBV1);
    const auto bytes = hand_built_2k();
    EXPECT_EQ(bytes.size(), 32 + 8 + 8 * 32 + 8 + 10 * (2 * (4 + 64 + 8 + 2 * 240) + (4 + 64 + 8 + 6 * 48)));
    const auto p = decode_update_partition_proof(cfg, bytes);
    EXPECT_EQ(p.comm_c[0], 0xc0);
    ASSERT_EQ(p.apex_leafs.size(), 8u);
    EXPECT_EQ(p.apex_leafs[7][0], 0x47);
    ASSERT_EQ(p.challenge_proofs.size(), 10u);
    const auto& c = p.challenge_proofs[3];
    EXPECT_EQ(c.proof_r_old.root[0], 0x20);
    EXPECT_EQ(c.proof_r_old.leaf[0], 0x23);
    EXPECT_EQ(c.proof_r_old.base[1].hashes[6][0], 0x16);
    EXPECT_EQ(c.proof_r_old.base[1].index, 4u);
    EXPECT_EQ(c.proof_d_new.leaf[0], 0x34);
    ASSERT_EQ(c.proof_d_new.base.size(), 6u);
    EXPECT_EQ(c.proof_d_new.base[5].hashes[0][0], 0x55);
    EXPECT_EQ(c.proof_d_new.base[1].index, 1u);
    EXPECT_EQ(c.proof_r_new.root[0], 0x60);
    EXPECT_EQ(encode_update_partition_proof(p), bytes);
}

std::string decode_error(const UpdateConfig& cfg, const std::vector<uint8_t>& bytes) {
    try {
        decode_update_partition_proof(cfg, bytes, "vanilla_proofs[2]");
    } catch (const formats::FormatError& e) {
        return e.what();
    }
    return "";
}

TEST(UpdateBincode, RefusesMalformedBytesNamingTheField) {
    const auto& cfg = update_config(U::StackedDrg2KiBV1);
    const auto good = hand_built_2k();
    auto expect = [&](std::vector<uint8_t> bytes, const std::string& part) {
        const std::string e = decode_error(cfg, bytes);
        EXPECT_NE(e.find(part), std::string::npos) << "got: " << e;
        EXPECT_EQ(e.rfind("vanilla_proofs[2]: ", 0), 0u) << e;
    };
    for (size_t n = 0; n < good.size(); n += 101)
        EXPECT_THROW(decode_update_partition_proof(cfg, std::span(good).first(n)), formats::FormatError) << n;
    auto bad = good;
    bad.push_back(0);
    expect(bad, "1 trailing bytes");
    bad = good;
    bad[32] = 9;
    expect(bad, "apex_leafs at byte 32: expected 8 apex leaves, found 9");
    bad = good;
    bad[296] = 0xff, bad[303] = 0x7f;
    expect(bad, "challenge_proofs at byte 296: expected 10 challenge proofs, found");
    const size_t d0 = 304 + 556;  // challenge 0's proof_d_new
    bad = good;
    bad[d0] = 1;
    expect(bad, "challenge_proofs[0].proof_d_new.data at byte 860: expected ProofData::Single for tree D, found Sub");
    bad = good;
    bad[d0 + 4 + 64] = 5;
    expect(bad, "challenge_proofs[0].proof_d_new.data.Single.path.path at byte 928: expected 6 levels, found 5");
    bad = good;
    bad[d0 + 4 + 64 + 8] = 2;
    expect(bad, "proof_d_new.data.Single.path.path[0].hashes at byte 936: expected 1 siblings, found 2");
    bad = good;
    bad[d0 + 4 + 64 + 8 + 8 + 32] = 2;
    expect(bad, "proof_d_new.data.Single.path.path[0].index at byte 976: index 2 out of range for arity 2");
    // A 2 KiB proof for 32 GiB: too short for the challenge proofs 32 GiB needs.
    const std::string e = decode_error(update_config(U::StackedDrg32GiBV1), good);
    EXPECT_NE(e.find("apex_leafs at byte 32: expected 128 apex leaves, found 8"), std::string::npos) << e;
}

TEST(UpdateBincode, RandomDamageIsDecodedOrRefused) {
    const uint64_t seed = test::seed();
    std::mt19937_64 rng(seed);
    const auto u = SectorUpdate::synthetic(size_cfg(32 * kKiB), seed);  // tree R 8-8-2: Top proofs
    const auto good = encode_update_partition_proof(u.partition_proof(1));
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
            const auto p = decode_update_partition_proof(u.config(), b);
            EXPECT_EQ(encode_update_partition_proof(p), b) << "seed " << seed << " trial " << t;
        } catch (const formats::FormatError&) {
        }
    }
}

// ---- verification and generators ----------------------------------------------------------------

const SealedSector& sealed_2k() {
    static const SealedSector s = [] {
        SealParams p;
        p.proof = RegisteredSealProof::StackedDrg2KiBV1_1;
        p.sector_id = 7;
        for (int i = 0; i < 31; ++i) p.ticket[i] = uint8_t(3 * i);
        return SealedSector::seal(p, pseudo_random_sector_data(porep_config(p.proof), 11));
    }();
    return s;
}

std::string verify_error(const UpdateConfig& cfg, const UpdatePublicInputs& pub, unsigned k,
                         const UpdatePartitionProof& p) {
    try {
        update_verify_partition(cfg, pub, k, p);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "";
}

TEST(UpdateVanilla, EncodedTwoKiBSectorVerifiesAndRoundTrips) {
    const auto data = pseudo_random_sector_data(sealed_2k().config(), 12);
    const auto u = SectorUpdate::encode(sealed_2k(), data);
    const auto& cfg = u.config();
    EXPECT_EQ(cfg.proof, U::StackedDrg2KiBV1);
    const auto& pub = u.public_inputs();
    EXPECT_EQ(pub.comm_r_old, sealed_2k().commitments().comm_r);
    EXPECT_EQ(pub.h, 1u);
    // encode_into: new replica = sector key + data · rho(phi, node >> (bits - h)).
    const Fr phi = update_phi(*Fr::from_bytes_le(pub.comm_d_new.data()), *Fr::from_bytes_le(pub.comm_r_old.data()));
    for (uint64_t n : {0, 31, 32, 63}) {
        const Fr key = *Fr::from_bytes_le(sealed_2k().replica()[n].data());
        const Fr d = *Fr::from_bytes_le(data.data() + 32 * n);
        EXPECT_EQ(*Fr::from_bytes_le(u.replica_new()[n].data()), key + d * update_rho(phi, n >> 5)) << n;
    }
    const auto proofs = u.partition_proofs();
    ASSERT_EQ(proofs.size(), 1u);
    update_verify_all(cfg, pub, proofs);
    const auto bytes = encode_update_partition_proof(proofs[0]);
    EXPECT_EQ(decode_update_partition_proof(cfg, bytes), proofs[0]);
    EXPECT_EQ(encode_update_partition_proof(decode_update_partition_proof(cfg, bytes)), bytes);
    // Another h gives another encoding; a size without a registered update proof is refused.
    const auto new_data_wrong_size = std::vector<uint8_t>(data.begin(), data.end() - 32);
    EXPECT_THROW(SectorUpdate::encode(sealed_2k(), new_data_wrong_size), std::invalid_argument);
    EXPECT_THROW(SectorUpdate::encode(sealed_2k(), data, 7), std::invalid_argument);
}

TEST(UpdateVanilla, ErrorsNameThePartitionAndField) {
    const auto u = SectorUpdate::synthetic(size_cfg(16 * kKiB), test::seed());
    const auto& cfg = u.config();
    const auto& pub = u.public_inputs();
    const auto good = u.partition_proof(1);
    EXPECT_EQ(verify_error(cfg, pub, 1, good), "");
    auto other = pub;
    other.comm_d_new[4] ^= 1;
    EXPECT_NE(verify_error(cfg, other, 1, good)
                  .find("partition 1: challenge_proofs[0].proof_d_new.root: differs from "
                        "comm_d_new"),
              std::string::npos);
    other = pub;
    other.comm_r_old[4] ^= 1;
    EXPECT_EQ(verify_error(cfg, other, 1, good),
              "partition 1: comm_r_old: is not Poseidon2(comm_c, the root of tree R old)");
    other = pub;
    other.comm_r_new[31] = 0xff;
    EXPECT_EQ(verify_error(cfg, other, 1, good), "partition 1: comm_r_new: not a canonical field element");
    auto p = good;
    p.apex_leafs.pop_back();
    EXPECT_EQ(verify_error(cfg, pub, 1, p), "partition 1: apex_leafs: expected 128, found 127");
    p = good;
    p.challenge_proofs[4].proof_r_new.leaf[0] ^= 1;
    EXPECT_NE(verify_error(cfg, pub, 1, p).find("partition 1: challenge_proofs[4].proof_r_new: the path does not hash"),
              std::string::npos);
    p = good;
    std::swap(p.challenge_proofs[2], p.challenge_proofs[3]);
    EXPECT_NE(verify_error(cfg, pub, 1, p).find("partition 1: challenge_proofs[2].proof_r_old: opens leaf"),
              std::string::npos);
    p = good;
    p.challenge_proofs[0].proof_r_new.sub.clear();
    EXPECT_EQ(verify_error(cfg, pub, 1, p),
              "partition 1: challenge_proofs[0].proof_r_new: a path of 2 levels, the tree has 3");
    EXPECT_NE(verify_error(cfg, {pub.comm_r_old, pub.comm_d_new, pub.comm_r_new, 5}, 1, good).find("h = 5"),
              std::string::npos);
    EXPECT_THROW(update_verify_all(cfg, pub, std::span(&good, 1)), std::invalid_argument);
}

// A synthetic 32 GiB update (periodic sector key and data, trees computed from their few
// distinct subtrees): partitions 0 and 15 verify; timed.
TEST(UpdateVanilla, SyntheticThirtyTwoGiBPartitionsVerify) {
    const uint64_t seed = test::seed();
    const auto t0 = std::chrono::steady_clock::now();
    const auto u = SectorUpdate::synthetic(update_config(U::StackedDrg32GiBV1), seed);
    const auto t1 = std::chrono::steady_clock::now();
    for (unsigned k : {0u, 15u}) {
        const auto p = u.partition_proof(k);
        update_verify_partition(u.config(), u.public_inputs(), k, p);
        EXPECT_EQ(decode_update_partition_proof(u.config(), encode_update_partition_proof(p)), p);
    }
    const auto t2 = std::chrono::steady_clock::now();
    std::printf("synthetic 32 GiB update: trees %.2f s, 2 partition proofs made and verified %.2f s\n",
                std::chrono::duration<double>(t1 - t0).count(), std::chrono::duration<double>(t2 - t1).count());
    // Deterministic in the seed.
    const auto again = SectorUpdate::synthetic(update_config(U::StackedDrg32GiBV1), seed);
    EXPECT_EQ(again.public_inputs().comm_r_new, u.public_inputs().comm_r_new);
}

// Sealing 8 MiB takes about a minute on 2 cores: VerySlow.
TEST(VerySlowUpdateVanilla, EightMiBEncodedSectorVerifiesForEveryH) {
    SealParams sp;
    sp.proof = RegisteredSealProof::StackedDrg8MiBV1_1;
    const auto sealed = SealedSector::seal(sp, pseudo_random_sector_data(porep_config(sp.proof), 3));
    const auto data = pseudo_random_sector_data(sealed.config(), 4);
    std::set<Bytes32> comm_r_new;
    for (unsigned h : {7u, 10u, 12u}) {
        const auto u = SectorUpdate::encode(sealed, data, h);
        update_verify_all(u.config(), u.public_inputs(), u.partition_proofs());
        comm_r_new.insert(u.public_inputs().comm_r_new);
    }
    EXPECT_EQ(comm_r_new.size(), 3u);
}

}  // namespace
}  // namespace cuzk::filecoin
