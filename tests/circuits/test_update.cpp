// The EmptySectorUpdate circuit: constraint and input counts pinned for every sector size
// (rust-fil-proofs' tests/circuit.rs figures for 1..32 KiB and 32 GiB), a real 2 KiB update
// (sealed and encoded in memory) and synthetic updates whose circuits are satisfied with the
// public inputs a verifier computes, and the rejection of another comm_r_new, another
// partition and flipped bytes.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "cuzk/circuits/update.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/r1cs/r1cs.hpp"
#include "support/circuit_counts.hpp"
#include "support/seed.hpp"
#include "support/witness_checks.hpp"

namespace cuzk {
namespace {

using circuits::EmptySectorUpdateCircuit;
using filecoin::Bytes32;
using U = filecoin::RegisteredUpdateProof;
using test::count;

constexpr uint64_t kKiB = 1024, kMiB = 1024 * kKiB, kGiB = 1024 * kMiB;

const filecoin::UpdateConfig& size_cfg(uint64_t bytes) {
    const auto* c = filecoin::update_config_for_sector_size(bytes);
    if (!c) throw std::invalid_argument("no update config for " + std::to_string(bytes));
    return *c;
}

// ---- counts -------------------------------------------------------------------------------

// storage-proofs-update/tests/circuit.rs (1..32 KiB, isolated-testing) and
// test_empty_sector_update_constraints_32gib; 8 MiB, 16 MiB, 512 MiB and 64 GiB computed here.
TEST(UpdateCount, EverySize) {
    const std::pair<uint64_t, size_t> cases[] = {
        {1 * kKiB, 1'248'389}, {2 * kKiB, 1'705'039},  {4 * kKiB, 2'165'109},
        {8 * kKiB, 2'620'359}, {16 * kKiB, 6'300'021}, {32 * kKiB, 6'760'091},
    };
    for (auto [bytes, constraints] : cases) {
        const auto c = count(EmptySectorUpdateCircuit::blank(size_cfg(bytes)));
        EXPECT_EQ(c.constraints, constraints) << bytes;
        EXPECT_EQ(c.inputs, 5u) << bytes;
    }
}

// 8 MiB, 16 MiB and 32 GiB; 512 MiB and 64 GiB in SlowUpdateCount.
TEST(UpdateCount, ProductionSizes) {
    const std::pair<uint64_t, size_t> cases[] = {
        {8 * kMiB, 10'007'503},
        {16 * kMiB, 10'467'573},
        {32 * kGiB, 81'049'499},
    };
    for (auto [bytes, constraints] : cases) {
        const auto c = count(EmptySectorUpdateCircuit::blank(size_cfg(bytes)));
        EXPECT_EQ(c.constraints, constraints) << bytes;
        EXPECT_EQ(c.inputs, 5u) << bytes;
    }
}

TEST(SlowUpdateCount, FiveHundredTwelveMiBAndSixtyFourGiB) {
    EXPECT_EQ(count(EmptySectorUpdateCircuit::blank(size_cfg(512 * kMiB))).constraints, 57'450'479u);
    EXPECT_EQ(count(EmptySectorUpdateCircuit::blank(size_cfg(64 * kGiB))).constraints, 85'006'101u);
}

TEST(SlowUpdateCount, ShapeModeAgreesWithCountingMode) {
    const auto blank = EmptySectorUpdateCircuit::blank(size_cfg(2 * kKiB));
    r1cs::ShapeCS s;
    blank.synthesize(s);
    const auto c = count(blank);
    EXPECT_EQ(s.num_constraints(), c.constraints);
    EXPECT_EQ(s.num_inputs(), c.inputs);
    EXPECT_EQ(s.num_aux(), c.aux);
}

// ---- a real 2 KiB update --------------------------------------------------------------------

const filecoin::SealedSector& sealed_2k() {
    static const filecoin::SealedSector s = [] {
        filecoin::SealParams p;
        p.proof = filecoin::RegisteredSealProof::StackedDrg2KiBV1_1;
        p.sector_id = 42;
        p.prover_id[0] = 0xe8, p.prover_id[1] = 0x03;
        for (int i = 0; i < 31; ++i) p.ticket[i] = uint8_t(5 * i);
        return filecoin::SealedSector::seal(p, filecoin::pseudo_random_sector_data(filecoin::porep_config(p.proof), 5));
    }();
    return s;
}

const filecoin::SectorUpdate& update_2k() {
    static const filecoin::SectorUpdate u =
        filecoin::SectorUpdate::encode(sealed_2k(), filecoin::pseudo_random_sector_data(sealed_2k().config(), 6));
    return u;
}

std::vector<Fr> with_one(const std::vector<Fr>& x) {
    std::vector<Fr> y{Fr::one()};
    y.insert(y.end(), x.begin(), x.end());
    return y;
}

// Replays a witness against the given public inputs; the first failure, or "" when satisfied.
std::string replay(const EmptySectorUpdateCircuit& c, const std::vector<Fr>& inputs) {
    r1cs::WitnessCS w;
    c.synthesize(w);
    r1cs::CheckCS cs(with_one(inputs), w.aux());
    c.synthesize(cs);
    return cs.is_satisfied() ? "" : cs.first_failure()->path + ": " + cs.first_failure()->message;
}

void expect_satisfied(const filecoin::SectorUpdate& u, unsigned k, size_t constraints) {
    const auto& cfg = u.config();
    const auto proof = u.partition_proof(k);
    const auto c = EmptySectorUpdateCircuit::partition(cfg, u.public_inputs(), k, proof);
    r1cs::CheckCS cs;
    c.synthesize(cs);
    ASSERT_TRUE(cs.is_satisfied()) << cfg.size_name() << " partition " << k << ": " << cs.first_failure()->path << ": "
                                   << cs.first_failure()->message;
    EXPECT_EQ(cs.num_constraints(), constraints);
    const auto x = circuits::update_public_inputs(cfg, u.public_inputs(), k);
    EXPECT_TRUE(cs.inputs() == with_one(x)) << cfg.size_name() << " partition " << k;
}

TEST(Update, TwoKiBEncodedSectorSatisfiesTheCircuit) {
    const auto& u = update_2k();
    EXPECT_EQ(u.public_inputs().comm_r_old, sealed_2k().commitments().comm_r);
    EXPECT_NE(u.public_inputs().comm_r_new, u.public_inputs().comm_r_old);
    expect_satisfied(u, 0, 1'705'039);
}

// 2 KiB, and the last partition of 16 KiB (2 partitions, tree R 8-8-0); every partition of
// 1, 4, 16 and 32 KiB (trees 8-4-0, 8-2-0, 8-8-0, 8-8-2) in SlowUpdate.
TEST(Update, SyntheticUpdatesSatisfyTheCircuit) {
    const uint64_t seed = test::seed();
    expect_satisfied(filecoin::SectorUpdate::synthetic(size_cfg(2 * kKiB), seed), 0, 1'705'039);
    expect_satisfied(filecoin::SectorUpdate::synthetic(size_cfg(16 * kKiB), seed), 1, 6'300'021);
}

TEST(SlowUpdate, SyntheticUpdatesOfEveryTreeShapeSatisfyTheCircuit) {
    const uint64_t seed = test::seed();
    const std::pair<uint64_t, size_t> cases[] = {
        {1 * kKiB, 1'248'389}, {4 * kKiB, 2'165'109}, {16 * kKiB, 6'300'021}, {32 * kKiB, 6'760'091}};
    for (auto [bytes, constraints] : cases) {
        const auto u = filecoin::SectorUpdate::synthetic(size_cfg(bytes), seed);
        for (unsigned k = 0; k < u.config().partition_count; ++k) expect_satisfied(u, k, constraints);
    }
}

TEST(Update, AnotherCommRNewOrPartitionIsRejected) {
    const auto u = filecoin::SectorUpdate::synthetic(size_cfg(16 * kKiB), test::seed());
    const auto& cfg = u.config();
    const auto proof = u.partition_proof(0);
    auto other = u.public_inputs();
    other.comm_r_new[0] ^= 1;
    try {
        filecoin::update_verify_partition(cfg, other, 0, proof);
        ADD_FAILURE() << "accepted another comm_r_new";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("partition 0: comm_r_new: is not Poseidon2"), std::string::npos)
            << e.what();
    }
    try {
        filecoin::update_verify_partition(cfg, u.public_inputs(), 1, proof);
        ADD_FAILURE() << "accepted partition 0's proof as partition 1";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("partition 1: challenge_proofs[0].proof_r_old: opens leaf"),
                  std::string::npos)
            << e.what();
    }
    // The witness of partition 0 against the inputs of another comm_r_new or partition.
    const auto c = EmptySectorUpdateCircuit::partition(cfg, u.public_inputs(), 0, proof);
    EXPECT_EQ(replay(c, circuits::update_public_inputs(cfg, u.public_inputs(), 0)), "");
    const std::string f = replay(c, circuits::update_public_inputs(cfg, other, 0));
    EXPECT_NE(f.find("comm_r_new_input"), std::string::npos) << f;
    const std::string g = replay(c, circuits::update_public_inputs(cfg, u.public_inputs(), 1));
    EXPECT_NE(g.find("k_and_h_select (public input)"), std::string::npos) << g;
    // h outside hs, k outside the partitions.
    EXPECT_THROW(
        circuits::update_public_inputs(
            cfg, {u.public_inputs().comm_r_old, u.public_inputs().comm_d_new, u.public_inputs().comm_r_new, 2}, 0),
        std::invalid_argument);
    EXPECT_THROW(circuits::update_public_inputs(cfg, u.public_inputs(), 2), std::invalid_argument);
}

TEST(Update, FlippedBytesAreRejected) {
    const auto& u = update_2k();
    const auto& cfg = u.config();
    const auto bytes = filecoin::encode_update_partition_proof(u.partition_proof(0));
    // Offsets in the bincode of a 2 KiB partition (tree R 8-0-0, 2 levels; tree D 6 levels):
    // comm_c 0, apex leaves from 40, challenge proofs from 304, each proof_r_old (556 bytes),
    // proof_d_new (364), proof_r_new (556); a proof is variant 4, root 32, leaf 32, path.
    const size_t r_len = 4 + 64 + 8 + 2 * 240, d_len = 4 + 64 + 8 + 6 * 48, ch_len = 2 * r_len + d_len;
    ASSERT_EQ(bytes.size(), 304 + 10 * ch_len);
    auto ch = [&](size_t i) { return 304 + i * ch_len; };
    struct Flip {
        size_t at;
        const char* vanilla;  // what vanilla verification names
        const char* circuit;  // where the unchecked circuit fails
    };
    const Flip flips[] = {
        {2, "partition 0: comm_r_old: is not Poseidon2", "enforce comm_r_old_calc == comm_r_old"},
        {40 + 32 * 5 + 1, "is not the apex tree's node", "apex_gadget/partition-tree por"},
        // challenge 3: proof_r_old's leaf (a Single proof: variant, root, leaf, path), the
        // second sibling of proof_r_new's top level, proof_d_new's first sibling.
        {ch(3) + 4 + 32 + 1, "challenge_proofs[3].proof_r_old: the path does not hash", "por tree_r_old (c_index=3)"},
        {ch(3) + 2 * r_len + d_len - 240 + 8 + 8 + 3, "challenge_proofs[3].proof_r_new: the path does not hash",
         "por tree_r_new (c_index=3)"},
        {ch(3) + r_len + 4 + 64 + 8 + 8 + 2, "challenge_proofs[3].proof_d_new: the path does not hash",
         "por to_apex_leaf (c_index=3)"},
    };
    for (const Flip& fl : flips) {
        auto b = bytes;
        b[fl.at] ^= 0x02;
        const auto tampered = filecoin::decode_update_partition_proof(cfg, b, "vanilla proof 0");
        try {
            EmptySectorUpdateCircuit::partition(cfg, u.public_inputs(), 0, tampered);
            ADD_FAILURE() << "byte " << fl.at << " accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(fl.vanilla), std::string::npos) << fl.at << ": " << e.what();
        }
        // Without the vanilla check the circuit is unsatisfied.
        const auto c = EmptySectorUpdateCircuit::from_partition_proof(cfg, u.public_inputs(), 0, tampered);
        const std::string f = replay(c, circuits::update_public_inputs(cfg, u.public_inputs(), 0));
        EXPECT_NE(f.find(fl.circuit), std::string::npos) << fl.at << ": " << f;
    }
}

TEST(Update, ParallelWitnessEqualsSerialWitness) {
    ScopedNumThreads threads(4);
    const auto& u = update_2k();
    auto serial = EmptySectorUpdateCircuit::partition(u.config(), u.public_inputs(), 0, u.partition_proof(0));
    serial.parallel_witness = false;
    auto par = serial;
    par.parallel_witness = true;
    r1cs::WitnessOptions opt;
    opt.record_evals = true;
    r1cs::WitnessCS ws(opt), wp(opt);
    serial.synthesize(ws);
    par.synthesize(wp);
    EXPECT_EQ(wp.num_constraints(), 1'705'039u);
    test::expect_same_witness(wp, ws);
}

TEST(Update, MalformedInputsAreRefused) {
    const auto& u = update_2k();
    const auto& cfg = u.config();
    auto p = u.partition_proof(0);
    p.challenge_proofs.pop_back();
    EXPECT_THROW(EmptySectorUpdateCircuit::from_partition_proof(cfg, u.public_inputs(), 0, p), std::invalid_argument);
    p = u.partition_proof(0);
    p.challenge_proofs[2].proof_r_old.base.pop_back();
    EXPECT_THROW(EmptySectorUpdateCircuit::from_partition_proof(cfg, u.public_inputs(), 0, p), std::invalid_argument);
    p = u.partition_proof(0);
    p.apex_leafs[0][31] = 0xff;  // not canonical
    EXPECT_THROW(EmptySectorUpdateCircuit::from_partition_proof(cfg, u.public_inputs(), 0, p), std::invalid_argument);
    // A hand-built circuit whose shape differs is refused, not synthesized as another circuit.
    auto c = EmptySectorUpdateCircuit::blank(cfg);
    c.challenges[4].path_d_new.pop_back();
    r1cs::CountCS cs;
    EXPECT_THROW(c.synthesize(cs), std::invalid_argument);
    c = EmptySectorUpdateCircuit::blank(cfg);
    c.apex_leafs.pop_back();
    EXPECT_THROW(c.synthesize(cs), std::invalid_argument);
}

// Partitions whose challenges share a partition path (16 KiB: 2 partitions of 10): a proof
// whose challenges disagree on it is refused before synthesis.
TEST(Update, ChallengesMustShareThePartitionPath) {
    const auto u = filecoin::SectorUpdate::synthetic(size_cfg(16 * kKiB), test::seed());
    auto p = u.partition_proof(1);
    p.challenge_proofs[6].proof_d_new.base.back().hashes[0][0] ^= 8;
    try {
        EmptySectorUpdateCircuit::from_partition_proof(u.config(), u.public_inputs(), 1, p);
        ADD_FAILURE() << "accepted differing partition paths";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("partition 1: challenge_proofs[6].proof_d_new: level 8 differs"),
                  std::string::npos)
            << e.what();
    }
}

// ---- Groth16 end to end (dev setup: not Filecoin's parameters) --------------------------------

TEST(VerySlowUpdate, Groth16SetupProveVerifyTwoKiB) {
    using namespace groth16;
    const auto& u = update_2k();
    const auto& cfg = u.config();
    const auto circuit = circuits::make_update_circuit(
        EmptySectorUpdateCircuit::partition(cfg, u.public_inputs(), 0, u.partition_proof(0)));
    const r1cs::Shape shape = circuits::make_update_circuit(EmptySectorUpdateCircuit::blank(cfg))->shape();
    EXPECT_EQ(shape.num_inputs, 5u);
    const Parameters params = setup(shape, ToxicWaste::from_seed(test::seed()));
    auto backend = make_cpu_backend();
    const Proof proof = prove(params, shape.density(), circuit->witness(), random_randomness(), *backend);
    const PreparedVerifyingKey pvk(params.vk);
    const auto ok = verify(pvk, proof, circuits::update_public_inputs(cfg, u.public_inputs(), 0));
    EXPECT_TRUE(ok) << ok.error;
    auto other = u.public_inputs();
    other.comm_r_new[3] ^= 1;
    EXPECT_FALSE(verify(pvk, proof, circuits::update_public_inputs(cfg, other, 0)));
}

}  // namespace
}  // namespace cuzk
