// Sealing (seal.hpp) and synthetic vanilla proofs: a sealed 2 KiB sector's C1 survives JSON and
// passes the full consistency check (Poseidon included), damage is named, synthetic proofs of
// every size pass the same check, and both are deterministic.
#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/filecoin/c1.hpp"
#include "cuzk/filecoin/sdr.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/formats/error.hpp"
#include "cuzk/gadgets/poseidon.hpp"

namespace cuzk::filecoin {
namespace {

std::string check_error(const SealCommitPhase1Output& c1) {
    try {
        check_c1_consistency(c1, "c1.json");
    } catch (const formats::FormatError& e) {
        return e.what();
    }
    return "";
}

SealParams params_2k() {
    SealParams p;
    p.proof = RegisteredSealProof::StackedDrg2KiBV1_1;
    for (int i = 0; i < 32; ++i) p.prover_id[i] = uint8_t(i), p.ticket[i] = uint8_t(3 * i) & 0x3f;
    p.sector_id = 4242;
    return p;
}

Bytes32 seed_2k() {
    Bytes32 s;
    for (int i = 0; i < 32; ++i) s[i] = uint8_t(200 - i);
    return s;
}

const SealedSector& sealed_2k() {
    static const SealedSector s = SealedSector::seal(
        params_2k(), pseudo_random_sector_data(porep_config(RegisteredSealProof::StackedDrg2KiBV1_1), 7));
    return s;
}

Fr fr(const Bytes32& b) { return *Fr::from_bytes_le(b.data()); }

// ---- fr32 ------------------------------------------------------------------------------------

TEST(Fr32, PadsEvery254BitsWithTwoZeroBits) {
    // 127 bytes of ones: four nodes of 254 ones each, i.e. 31 bytes 0xff then 0x3f.
    const std::vector<uint8_t> ones(127, 0xff);
    const auto padded = fr32_pad(ones);
    ASSERT_EQ(padded.size(), 128u);
    for (size_t n = 0; n < 4; ++n)
        for (size_t b = 0; b < 32; ++b) EXPECT_EQ(padded[32 * n + b], b == 31 ? 0x3f : 0xff) << n << " " << b;
    // One set bit at raw bit 254 lands at bit 0 of node 1.
    std::vector<uint8_t> raw(127, 0);
    raw[254 / 8] = uint8_t(1u << (254 % 8));
    const auto p = fr32_pad(raw);
    for (size_t b = 0; b < 128; ++b) EXPECT_EQ(p[b], b == 32 ? 1 : 0) << b;
    // Round trip on random data, and every node below 2^254.
    std::mt19937_64 rng(11);
    std::vector<uint8_t> data(127 * 9);
    for (auto& v : data) v = uint8_t(rng());
    const auto q = fr32_pad(data);
    for (size_t n = 0; n < q.size() / 32; ++n) EXPECT_EQ(q[32 * n + 31] & 0xc0, 0) << n;
    EXPECT_EQ(fr32_unpad(q), data);
    EXPECT_THROW(fr32_pad(std::vector<uint8_t>(128)), std::invalid_argument);
}

TEST(Fr32, SectorDataFromBytes) {
    const PoRepConfig& cfg = porep_config(RegisteredSealProof::StackedDrg2KiBV1_1);
    EXPECT_EQ(unpadded_sector_size(2048), 2032u);
    // Short raw data is zero-filled and padded.
    const auto d = sector_data_from_bytes(cfg, std::vector<uint8_t>(100, 0xff));
    ASSERT_EQ(d.size(), 2048u);
    EXPECT_EQ(fr32_unpad(d)[99], 0xff);
    EXPECT_EQ(fr32_unpad(d)[100], 0);
    // Exactly a sector: taken as padded, and checked.
    std::vector<uint8_t> padded(2048, 0x11);
    EXPECT_EQ(sector_data_from_bytes(cfg, padded), padded);
    padded[32 * 5 + 31] = 0x80;
    try {
        sector_data_from_bytes(cfg, padded);
        ADD_FAILURE() << "accepted a node above 2^254";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("node 5 (byte 191)"), std::string::npos) << e.what();
    }
    try {
        sector_data_from_bytes(cfg, std::vector<uint8_t>(2033));
        ADD_FAILURE() << "accepted 2033 bytes";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("at most 2032 bytes"), std::string::npos) << e.what();
    }
}

// ---- sealing ---------------------------------------------------------------------------------

TEST(Seal, EmptySectorCommDIsTheZeroPieceCommitment) {
    // rust-fil-proofs filecoin-proofs/tests/pieces.rs: compute_comm_d(2048, []).
    const Bytes32 expected = {252, 126, 146, 130, 150, 229, 22, 250, 173, 233, 134, 178, 143, 146, 212, 74,
                              79,  36,  185, 53,  72,  82,  35, 55,  106, 121, 144, 39,  188, 24,  248, 51};
    const auto s = SealedSector::seal(params_2k(), std::vector<uint8_t>(2048, 0));
    EXPECT_EQ(s.commitments().comm_d, expected);
}

TEST(Seal, TwoKiBCommitmentsFollowTheirDefinitions) {
    const SealedSector& s = sealed_2k();
    const PoRepConfig& cfg = s.config();
    const auto& c = s.commitments();
    const auto data = pseudo_random_sector_data(cfg, 7);
    const Bytes32 comm_d = c.comm_d;
    EXPECT_EQ(c.replica_id, generate_replica_id(params_2k().prover_id, 4242, params_2k().ticket, comm_d, cfg.porep_id));
    // Labels as sdr_labels computes them; the replica is last label + data.
    EXPECT_EQ(s.labels(), sdr_labels(StackedGraph(cfg), cfg.layers, c.replica_id));
    for (uint64_t n = 0; n < cfg.nodes; ++n) {
        Bytes32 d;
        std::copy_n(data.begin() + 32 * n, 32, d.begin());
        EXPECT_EQ(s.replica()[n], *encode_node(s.labels().back()[n], d)) << n;
    }
    const std::array<Fr, 2> pair{fr(c.comm_c), fr(c.comm_r_last)};
    EXPECT_EQ(c.comm_r, gadgets::poseidon_hash(pair).to_bytes_le());
}

TEST(Seal, TwoKiBC1PassesTheFullCheckThroughJson) {
    const SealCommitPhase1Output c1 = sealed_2k().commit_phase1(seed_2k());
    EXPECT_EQ(check_error(c1), "");
    const std::string text = write_c1_output(c1);
    const SealCommitPhase1Output back = parse_c1_output(text, "c1.json");
    EXPECT_EQ(back, c1);
    EXPECT_EQ(write_c1_output(back), text);
    EXPECT_EQ(check_error(back), "");
    EXPECT_EQ(c1.comm_r, sealed_2k().commitments().comm_r);
    EXPECT_EQ(c1.vanilla_proofs[0][0].comm_r_last_proof.root, sealed_2k().commitments().comm_r_last);
    EXPECT_EQ(c1.vanilla_proofs[0][0].replica_column_proofs.c_x.inclusion_proof.root, sealed_2k().commitments().comm_c);
}

TEST(Seal, DamageIsNamed) {
    const SealCommitPhase1Output good = sealed_2k().commit_phase1(seed_2k());
    const std::string at = "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][0].";
    {
        auto c1 = good;
        c1.seed[5] ^= 1;
        EXPECT_NE(check_error(c1).find("but the challenge is node"), std::string::npos) << check_error(c1);
    }
    {
        auto c1 = good;
        c1.comm_r[0] ^= 1;
        EXPECT_EQ(check_error(c1),
                  "c1.json: comm_r: is not Poseidon2(comm_c, comm_r_last) of the proofs' tree-C and tree-R roots");
    }
    {
        auto c1 = good;  // a label in a parent's column: its tree-C leaf no longer matches
        c1.vanilla_proofs[0][0].replica_column_proofs.exp_parents[4].column.rows[1][7] ^= 1;
        EXPECT_EQ(check_error(c1), at + "replica_column_proofs.exp_parents[4].inclusion_proof.leaf: is not the "
                                        "Poseidon hash of the column's rows");
    }
    {
        auto c1 = good;  // the same label flipped in the labeling proof
        c1.vanilla_proofs[0][0].labeling_proofs[1].parents[10][7] ^= 1;
        EXPECT_EQ(check_error(c1), at + "labeling_proofs[1].parents[10]: does not match the parent columns' labels");
    }
    {
        auto c1 = good;  // two siblings swapped in the tree-R path
        auto& h = c1.vanilla_proofs[0][0].comm_r_last_proof.base[1].hashes;
        std::swap(h[2], h[5]);
        EXPECT_EQ(check_error(c1), at + "comm_r_last_proof: the path does not hash to its root (tree R)");
    }
    {
        auto c1 = good;  // two siblings swapped in a tree-C path
        auto& h = c1.vanilla_proofs[0][0].replica_column_proofs.drg_parents[2].inclusion_proof.base[0].hashes;
        std::swap(h[0], h[6]);
        EXPECT_EQ(check_error(c1),
                  at + "replica_column_proofs.drg_parents[2].inclusion_proof: the path does not hash to its root "
                       "(tree C)");
    }
    {
        auto c1 = good;  // the path index moved: another node is proven
        auto& m = c1.vanilla_proofs[0][0].comm_r_last_proof;
        m.base[0].index = (m.base[0].index + 1) % 8;
        EXPECT_NE(check_error(c1).find(at + "comm_r_last_proof: proves node"), std::string::npos) << check_error(c1);
    }
}

TEST(Seal, DeterministicAndSeedDependent) {
    const std::string a = write_c1_output(sealed_2k().commit_phase1(seed_2k()));
    const auto again = SealedSector::seal(
        params_2k(), pseudo_random_sector_data(porep_config(RegisteredSealProof::StackedDrg2KiBV1_1), 7));
    EXPECT_EQ(write_c1_output(again.commit_phase1(seed_2k())), a);
    Bytes32 other = seed_2k();
    other[0] ^= 1;
    EXPECT_NE(write_c1_output(sealed_2k().commit_phase1(other)), a);
}

TEST(Seal, NonInteractiveAndV1) {
    for (auto proof :
         {RegisteredSealProof::StackedDrg2KiBV1, RegisteredSealProof::StackedDrg2KiBV1_2_Feat_NonInteractivePoRep}) {
        SealParams p = params_2k();
        p.proof = proof;
        const auto s = SealedSector::seal(p, pseudo_random_sector_data(porep_config(proof), 3));
        const auto c1 = s.commit_phase1(seed_2k());
        EXPECT_EQ(c1.vanilla_proofs.size(), porep_config(proof).partitions);
        EXPECT_EQ(check_error(c1), "") << porep_config(proof).name;
    }
    SealParams p = params_2k();
    p.proof = RegisteredSealProof::StackedDrg2KiBV1_1_Feat_SyntheticPoRep;
    EXPECT_THROW(SealedSector::seal(p, std::vector<uint8_t>(2048)), std::invalid_argument);
    EXPECT_THROW(SealedSector::seal(params_2k(), std::vector<uint8_t>(2047)), std::invalid_argument);
}

// ---- synthetic vanilla proofs ----------------------------------------------------------------

TEST(Synthetic, TwoKiBPassesTheFullCheck) {
    for (uint64_t seed : {1u, 2u, 3u}) {
        const auto c1 = synthetic_c1(RegisteredSealProof::StackedDrg2KiBV1_1, seed);
        EXPECT_EQ(check_error(c1), "") << seed;
        EXPECT_EQ(check_error(parse_c1_output(write_c1_output(c1))), "");
    }
    EXPECT_EQ(check_error(synthetic_c1(RegisteredSealProof::StackedDrg2KiBV1, 9)), "");
}

TEST(Synthetic, DeterministicAndDamageIsNamed) {
    const auto a = synthetic_c1(RegisteredSealProof::StackedDrg8MiBV1_1, 5);
    EXPECT_EQ(check_error(a), "");
    EXPECT_EQ(write_c1_output(synthetic_c1(RegisteredSealProof::StackedDrg8MiBV1_1, 5)), write_c1_output(a));
    EXPECT_NE(synthetic_c1(RegisteredSealProof::StackedDrg8MiBV1_1, 6).comm_r, a.comm_r);
    auto c1 = a;
    std::swap(c1.vanilla_proofs[0][1].comm_r_last_proof.base[3].hashes[0],
              c1.vanilla_proofs[0][1].comm_r_last_proof.base[3].hashes[1]);
    EXPECT_EQ(check_error(c1),
              "c1.json: vanilla_proofs.StackedDrg8MiBV1[0][1].comm_r_last_proof: the path does not hash to its "
              "root (tree R)");
    EXPECT_THROW(synthetic_c1(RegisteredSealProof::StackedDrg32GiBV1_2_Feat_NonInteractivePoRep, 1),
                 std::invalid_argument);
}

// NI-PoRep's shape with the seed's challenges (for benchmarks): 13 partitions at 2 KiB, the
// challenge check names the first proof, deterministic; interactive proofs are unchanged.
TEST(Synthetic, NonInteractiveShapeFromTheSeed) {
    const auto ni = RegisteredSealProof::StackedDrg2KiBV1_2_Feat_NonInteractivePoRep;
    const auto c1 = synthetic_c1(ni, 4, {}, SyntheticChallenges::FromSeed);
    EXPECT_EQ(c1.registered_proof, ni);
    ASSERT_EQ(c1.vanilla_proofs.size(), 13u);
    for (unsigned k = 0; k < 13; ++k) {
        const auto want = interactive_challenges(64, c1.replica_id, c1.seed, 2, uint8_t(k));
        ASSERT_EQ(c1.vanilla_proofs[k].size(), 2u);
        for (unsigned i = 0; i < 2; ++i) EXPECT_EQ(c1.vanilla_proofs[k][i].labeling_proofs[0].node, want[i]);
    }
    EXPECT_EQ(check_error(c1).rfind("c1.json: vanilla_proofs.StackedDrg2KiBV1[0][0].comm_d_proofs: proves node", 0), 0u)
        << check_error(c1);
    EXPECT_EQ(parse_c1_output(write_c1_output(c1)), c1);
    EXPECT_EQ(write_c1_output(synthetic_c1(ni, 4, {}, SyntheticChallenges::FromSeed)), write_c1_output(c1));
    EXPECT_EQ(
        write_c1_output(synthetic_c1(RegisteredSealProof::StackedDrg2KiBV1_1, 4, {}, SyntheticChallenges::FromSeed)),
        write_c1_output(synthetic_c1(RegisteredSealProof::StackedDrg2KiBV1_1, 4)));
    EXPECT_THROW(synthetic_c1(ni, 4), std::invalid_argument);
}

TEST(Synthetic, FiveHundredTwelveMiBPasses) {
    EXPECT_EQ(check_error(synthetic_c1(RegisteredSealProof::StackedDrg512MiBV1_1, 1)), "");
}

// 10 partitions × 18 challenges, 11 layers, 8-8-0 trees: about 2 s to make and 2 s to check
// on one core.
TEST(SlowSynthetic, ThirtyTwoGiBPasses) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto c1 = synthetic_c1(RegisteredSealProof::StackedDrg32GiBV1_1, 1);
    const auto t1 = std::chrono::steady_clock::now();
    EXPECT_EQ(check_error(c1), "");
    const auto t2 = std::chrono::steady_clock::now();
    std::printf("32 GiB synthetic: generate %.2f s, check %.2f s\n", std::chrono::duration<double>(t1 - t0).count(),
                std::chrono::duration<double>(t2 - t1).count());
    EXPECT_EQ(c1.vanilla_proofs.size(), 10u);
    EXPECT_EQ(c1.vanilla_proofs[9].size(), 18u);
    EXPECT_EQ(c1.vanilla_proofs[9][17].comm_r_last_proof.kind, MerkleProof::Kind::Sub);
    auto bad = c1;
    bad.vanilla_proofs[9][17].replica_column_proofs.c_x.inclusion_proof.sub[0].hashes[3][0] ^= 1;
    EXPECT_EQ(check_error(bad),
              "c1.json: vanilla_proofs.StackedDrg32GiBV1[9][17].replica_column_proofs.c_x.inclusion_proof: the path "
              "does not hash to its root (tree C)");
}

TEST(SlowSynthetic, SixtyFourGiBPassesThroughJson) {
    const auto c1 = synthetic_c1(RegisteredSealProof::StackedDrg64GiBV1_1, 2);
    EXPECT_EQ(c1.vanilla_proofs[0][0].comm_r_last_proof.kind, MerkleProof::Kind::Top);
    EXPECT_EQ(check_error(parse_c1_output(write_c1_output(c1))), "");
}

TEST(SlowSeal, EightMiBPassesTheFullCheck) {
    SealParams p = params_2k();
    p.proof = RegisteredSealProof::StackedDrg8MiBV1_1;
    const auto s = SealedSector::seal(p, pseudo_random_sector_data(porep_config(p.proof), 1));
    EXPECT_EQ(check_error(s.commit_phase1(seed_2k())), "");
}

}  // namespace
}  // namespace cuzk::filecoin
