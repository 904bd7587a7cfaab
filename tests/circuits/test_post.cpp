// The Fallback PoSt circuit: constraint and input counts pinned for every registered size and
// against rust-fil-proofs' fallback_circuit.rs tests, a real 2 KiB sector (sealed in memory)
// whose Window and Winning circuits are satisfied with the public inputs a verifier computes,
// and the rejection of another randomness, another sector id and flipped bytes; (Slow) the
// witness of synthetic sectors of a 32 GiB Window partition, timed.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "cuzk/circuits/post.hpp"
#include "cuzk/common/parallel.hpp"
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

using circuits::FallbackPoStCircuit;
using circuits::FallbackPoStParams;
using filecoin::Bytes32;
using P = filecoin::RegisteredPoStProof;

using test::count;

FallbackPoStParams params_of(P p) { return FallbackPoStParams::from_config(filecoin::post_config(p)); }

// ---- counts -------------------------------------------------------------------------------

// filecoin-circuits.md §2: Winning 66 sectors × 1 challenge, 133 inputs (ONE included); the
// 32 GiB figure is quoted from rust-fil-proofs PR #1325, the others computed from the model.
TEST(PoStCount, WinningEverySize) {
    const std::pair<P, size_t> cases[] = {
        {P::StackedDrgWinning2KiBV1, 90'750},    {P::StackedDrgWinning8MiBV1, 230'670},
        {P::StackedDrgWinning512MiBV1, 300'630}, {P::StackedDrgWinning32GiBV1, 370'590},
        {P::StackedDrgWinning64GiBV1, 391'314},
    };
    for (auto [proof, constraints] : cases) {
        const auto c = count(FallbackPoStCircuit::blank(params_of(proof)));
        EXPECT_EQ(c.constraints, constraints) << filecoin::post_config(proof).name;
        EXPECT_EQ(c.inputs, 133u) << filecoin::post_config(proof).name;
    }
}

TEST(PoStCount, WindowSmallSizes) {
    const std::pair<P, size_t> cases[] = {
        {P::StackedDrgWindow2KiBV1_2, 21'866},
        {P::StackedDrgWindow8MiBV1_2, 64'266},
        {P::StackedDrgWindow512MiBV1_2, 85'466},
        {P::StackedDrgWindow512MiBV1, 85'466},
    };
    for (auto [proof, constraints] : cases) {
        const auto c = count(FallbackPoStCircuit::blank(params_of(proof)));
        EXPECT_EQ(c.constraints, constraints) << filecoin::post_config(proof).name;
        EXPECT_EQ(c.inputs, 23u) << filecoin::post_config(proof).name;
    }
}

// storage-proofs-post/tests/fallback_circuit.rs: 64 · base-tree-count leaves, 5 challenges
// a sector; and its 32 GiB base-8 bench (10 challenges, 5 sectors: 266,665).
TEST(PoStCount, RustFilProofsFallbackCircuitTests) {
    struct Case {
        gadgets::TreeShape tree;
        uint64_t nodes;
        unsigned sectors, challenges;
        size_t inputs, constraints;
    };
    const Case cases[] = {
        {gadgets::TreeShape::poseidon(8), 64, 3, 5, 19, 16'869},                   // single_partition_base_8
        {gadgets::TreeShape::poseidon(8, 4), 256, 3, 5, 19, 22'674},               // single_partition_sub_8_4
        {gadgets::TreeShape::poseidon(8, 4, 2), 512, 3, 5, 19, 27'384},            // single_partition_top_8_4_2
        {gadgets::TreeShape::poseidon(8), 64, 2, 5, 13, 11'246},                   // two_partitions_base_8
        {gadgets::TreeShape::poseidon(8), uint64_t(1) << 30, 5, 10, 56, 266'665},  // base_8_bench_cs
    };
    for (const Case& k : cases) {
        const auto c = count(FallbackPoStCircuit::blank({k.nodes, k.sectors, k.challenges, k.tree}));
        EXPECT_EQ(c.constraints, k.constraints) << k.nodes << " leaves, " << k.sectors << " sectors";
        EXPECT_EQ(c.inputs, k.inputs);
    }
}

// 32 and 64 GiB Window partitions: every sector adds the same count (checked for 1, 2 and 3
// sectors), so a partition is sector_count × one sector (the full count: SlowPoStCount).
TEST(PoStCount, BigWindowPerSectorModel) {
    struct Case {
        P proof;
        size_t per_sector, constraints, inputs;
    };
    const Case cases[] = {
        {P::StackedDrgWindow32GiBV1_2, 53'333, 125'279'217, 25'840},
        {P::StackedDrgWindow64GiBV1_2, 56'473, 129'887'900, 25'301},
    };
    for (const Case& k : cases) {
        FallbackPoStParams p = params_of(k.proof);
        const unsigned sectors = p.sectors;
        std::vector<test::Counts> c;
        for (unsigned n = 1; n <= 3; ++n) {
            p.sectors = n;
            c.push_back(count(FallbackPoStCircuit::blank(p)));
        }
        EXPECT_EQ(c[0].constraints, k.per_sector);
        EXPECT_EQ(c[1].constraints, 2 * k.per_sector);
        EXPECT_EQ(c[2].constraints, 3 * k.per_sector);
        EXPECT_EQ(c[0].inputs, 1u + 11);
        EXPECT_EQ(c[2].aux, 3 * c[0].aux);
        EXPECT_EQ(sectors * k.per_sector, k.constraints);
        EXPECT_EQ(1 + sectors * 11u, k.inputs);
    }
}

TEST(SlowPoStCount, ThirtyTwoGiBWindowPartitionCountedInFull) {
    const auto t0 = std::chrono::steady_clock::now();
    const auto c = count(FallbackPoStCircuit::blank(params_of(P::StackedDrgWindow32GiBV1_2)));
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(c.constraints, 125'279'217u);
    EXPECT_EQ(c.inputs, 25'840u);
    std::printf("32 GiB Window partition: %zu constraints, %zu aux, counted in %.1f s\n", c.constraints, c.aux, s);
}

TEST(SlowPoStCount, ShapeModeAgreesWithCountingMode) {
    const auto blank = FallbackPoStCircuit::blank(params_of(P::StackedDrgWindow2KiBV1_2));
    r1cs::ShapeCS s;
    blank.synthesize(s);
    const auto c = count(blank);
    EXPECT_EQ(s.num_constraints(), c.constraints);
    EXPECT_EQ(s.num_inputs(), c.inputs);
    EXPECT_EQ(s.num_aux(), c.aux);
}

// ---- a real 2 KiB sector --------------------------------------------------------------------

Bytes32 randomness(uint8_t salt) {
    Bytes32 r{};
    for (int i = 0; i < 32; ++i) r[i] = uint8_t(7 * i + salt);
    r[31] &= 0x3f;
    return r;
}

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

// Window partition `partition` of sectors with these ids, all with the sealed sector's trees.
std::vector<filecoin::FallbackPoStSectorProof> window_proofs(P proof, const Bytes32& r, unsigned partition,
                                                             std::vector<uint64_t> ids) {
    const auto& cfg = filecoin::post_config(proof);
    std::vector<filecoin::FallbackPoStSectorProof> out;
    for (size_t i = 0; i < ids.size(); ++i)
        out.push_back(filecoin::post_vanilla_proof(cfg, sealed_2k(), ids[i], r, partition * cfg.sector_count + i));
    return out;
}

std::vector<circuits::PoStPublicSector> public_sectors(const std::vector<filecoin::FallbackPoStSectorProof>& v) {
    std::vector<circuits::PoStPublicSector> out;
    for (const auto& p : v) out.push_back({p.sector_id, p.comm_r});
    return out;
}

std::vector<Fr> with_one(const std::vector<Fr>& x) {
    std::vector<Fr> y{Fr::one()};
    y.insert(y.end(), x.begin(), x.end());
    return y;
}

// Replays a witness against the given public inputs; the first failure, or "" when satisfied.
std::string replay(const FallbackPoStCircuit& c, const std::vector<Fr>& inputs) {
    r1cs::WitnessCS w;
    c.synthesize(w);
    r1cs::CheckCS cs(with_one(inputs), w.aux());
    c.synthesize(cs);
    return cs.is_satisfied() ? "" : cs.first_failure()->message;
}

TEST(PoSt, WindowTwoKiBSatisfiedWithTheVerifiersInputs) {
    for (P proof : {P::StackedDrgWindow2KiBV1_2, P::StackedDrgWindow2KiBV1}) {
        const auto& cfg = filecoin::post_config(proof);
        for (unsigned partition : {0u, 3u})
            for (const std::vector<uint64_t>& ids : {std::vector<uint64_t>{42, 7}, std::vector<uint64_t>{9}}) {
                const Bytes32 r = randomness(uint8_t(partition));
                const auto proofs = window_proofs(proof, r, partition, ids);
                const auto c = FallbackPoStCircuit::window(cfg, r, partition, proofs);
                r1cs::CheckCS cs;
                c.synthesize(cs);
                ASSERT_TRUE(cs.is_satisfied()) << cs.first_failure()->message;
                EXPECT_EQ(cs.num_constraints(), 21'866u);
                const auto x = circuits::window_post_public_inputs(cfg, r, partition, public_sectors(proofs));
                ASSERT_EQ(x.size(), 22u);
                EXPECT_TRUE(cs.inputs() == with_one(x)) << cfg.name << " partition " << partition;
                r1cs::WitnessCS w;
                c.synthesize(w);
                EXPECT_TRUE(w.inputs() == cs.inputs());
                EXPECT_TRUE(std::ranges::equal(w.aux(), cs.aux()));
            }
    }
}

TEST(PoSt, WinningTwoKiBSatisfiedWithTheVerifiersInputs) {
    const auto& cfg = filecoin::post_config(P::StackedDrgWinning2KiBV1);
    const Bytes32 r = randomness(1);
    const auto proof = filecoin::post_vanilla_proof(cfg, sealed_2k(), 42, r, 0);
    const auto c = FallbackPoStCircuit::winning(cfg, r, std::span(&proof, 1));
    r1cs::CheckCS cs;
    c.synthesize(cs);
    ASSERT_TRUE(cs.is_satisfied()) << cs.first_failure()->message;
    EXPECT_EQ(cs.num_constraints(), 90'750u);
    const auto x = circuits::winning_post_public_inputs(cfg, r, {42, proof.comm_r});
    ASSERT_EQ(x.size(), 132u);
    EXPECT_TRUE(cs.inputs() == with_one(x));
    // Sector i of the circuit is challenge i: its input is that challenge's leaf.
    const auto leaves = filecoin::post_vanilla_challenges(cfg, r, 42, 0);
    for (size_t i = 0; i < 66; ++i) EXPECT_EQ(x[2 * i + 1], Fr::from_u64(leaves[i])) << i;
}

TEST(PoSt, ParallelWitnessEqualsSerialWitness) {
    ScopedNumThreads threads(4);
    const auto& cfg = filecoin::post_config(P::StackedDrgWindow2KiBV1_2);
    const Bytes32 r = randomness(2);
    auto serial = FallbackPoStCircuit::window(cfg, r, 0, window_proofs(P::StackedDrgWindow2KiBV1_2, r, 0, {1, 2}));
    serial.parallel_witness = false;
    auto par = serial;
    par.parallel_witness = true;
    r1cs::WitnessOptions opt;
    opt.record_evals = true;
    r1cs::WitnessCS ws(opt), wp(opt);
    serial.synthesize(ws);
    par.synthesize(wp);
    EXPECT_EQ(wp.num_constraints(), 21'866u);
    test::expect_same_witness(wp, ws);
}

TEST(PoSt, AnotherRandomnessOrSectorIdIsRejected) {
    const P proof = P::StackedDrgWindow2KiBV1_2;
    const auto& cfg = filecoin::post_config(proof);
    const Bytes32 r = randomness(3), other = randomness(4);
    const auto proofs = window_proofs(proof, r, 0, {42, 7});
    // Vanilla verification refuses proofs of another randomness.
    try {
        FallbackPoStCircuit::window(cfg, other, 0, proofs);
        ADD_FAILURE() << "accepted proofs of another randomness";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("window partition 0, sector 0 (id 42): inclusion_proofs[0]: opens leaf"),
                  std::string::npos)
            << e.what();
    }
    // The witness of the real proofs against the inputs of another randomness or sector id:
    // the first leaf-index input differs.
    const auto c = FallbackPoStCircuit::window(cfg, r, 0, proofs);
    EXPECT_EQ(replay(c, circuits::window_post_public_inputs(cfg, r, 0, public_sectors(proofs))), "");
    const std::string f = replay(c, circuits::window_post_public_inputs(cfg, other, 0, public_sectors(proofs)));
    EXPECT_NE(f.find("sector_0/challenge_inclusion_0/path"), std::string::npos) << f;
    auto moved = public_sectors(proofs);
    moved[1].sector_id = 8;
    const std::string g = replay(c, circuits::window_post_public_inputs(cfg, r, 0, moved));
    EXPECT_NE(g.find("sector_1/challenge_inclusion_0/path"), std::string::npos) << g;
    // Another comm_r among the inputs.
    auto other_comm = public_sectors(proofs);
    other_comm[0].comm_r[0] ^= 1;
    const std::string h = replay(c, circuits::window_post_public_inputs(cfg, r, 0, other_comm));
    EXPECT_NE(h.find("sector_0/comm_r_input"), std::string::npos) << h;
}

TEST(PoSt, FlippedBytesAreRejected) {
    const P proof = P::StackedDrgWindow2KiBV1_2;
    const auto& cfg = filecoin::post_config(proof);
    const Bytes32 r = randomness(5);
    const auto proofs = window_proofs(proof, r, 0, {42, 7});
    const auto bytes = filecoin::encode_post_sector_proof(proofs[1]);
    const auto params = FallbackPoStParams::from_config(cfg);
    // Byte offsets in the bincode (tree 8-0-0): comm_r at 8, then per inclusion proof 4 + 64 +
    // 8 + 2 levels × 240 bytes from byte 56; comm_c follows the 10 proofs.
    struct Flip {
        size_t at;
        const char* vanilla;  // what vanilla verification names
        const char* circuit;  // where the unchecked circuit fails
    };
    const size_t proof0 = 56, proof_len = 4 + 64 + 8 + 2 * 240, comm_c = 56 + 10 * proof_len;
    const Flip flips[] = {
        {9, "comm_r: is not Poseidon2", "sector_1/enforce_comm_c_comm_r_last_hash_comm_r"},
        {comm_c + 2, "comm_r: is not Poseidon2", "sector_1/enforce_comm_c_comm_r_last_hash_comm_r"},
        {proof0 + 4 + 32 + 3, "inclusion_proofs[0]: the path does not hash", "sector_1/challenge_inclusion_0/"},
        {proof0 + 3 * proof_len + 4 + 64 + 8 + 8 + 40, "inclusion_proofs[3]: the path does not hash",
         "sector_1/challenge_inclusion_3/"},
    };
    for (const Flip& fl : flips) {
        auto b = bytes;
        ASSERT_EQ(bytes.size(), comm_c + 64);
        b[fl.at] ^= 0x02;
        const auto tampered = filecoin::decode_post_sector_proof(cfg, b, "vanilla proof 1");
        const std::vector<filecoin::FallbackPoStSectorProof> set{proofs[0], tampered};
        try {
            FallbackPoStCircuit::window(cfg, r, 0, set);
            ADD_FAILURE() << "byte " << fl.at << " accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(fl.vanilla), std::string::npos) << fl.at << ": " << e.what();
            EXPECT_NE(std::string(e.what()).find("sector 1 (id 7)"), std::string::npos) << e.what();
        }
        // Without the vanilla check the circuit is unsatisfied.
        const std::vector<Bytes32> comm_rs{proofs[0].comm_r, tampered.comm_r};
        const std::vector<filecoin::PoStSectorProof> sps{proofs[0].sectors[0], tampered.sectors[0]};
        const auto c = FallbackPoStCircuit::from_sector_proofs(params, comm_rs, sps);
        r1cs::CheckCS cs;
        c.synthesize(cs);
        ASSERT_FALSE(cs.is_satisfied()) << "byte " << fl.at;
        EXPECT_NE(cs.first_failure()->message.find(fl.circuit), std::string::npos)
            << fl.at << ": " << cs.first_failure()->message;
    }
}

TEST(PoSt, MalformedInputsAreRefused) {
    const auto& cfg = filecoin::post_config(P::StackedDrgWindow2KiBV1_2);
    const Bytes32 r = randomness(6);
    const auto proofs = window_proofs(P::StackedDrgWindow2KiBV1_2, r, 0, {1, 2});
    const auto params = FallbackPoStParams::from_config(cfg);
    const std::vector<Bytes32> comm_rs{proofs[0].comm_r};
    auto sp = proofs[0].sectors[0];
    sp.inclusion_proofs[2].base.pop_back();
    EXPECT_THROW(FallbackPoStCircuit::from_sector_proofs(params, comm_rs, std::span(&sp, 1)), std::invalid_argument);
    sp = proofs[0].sectors[0];
    sp.inclusion_proofs.pop_back();
    EXPECT_THROW(FallbackPoStCircuit::from_sector_proofs(params, comm_rs, std::span(&sp, 1)), std::invalid_argument);
    EXPECT_THROW(FallbackPoStCircuit::from_sector_proofs(params, {}, {}), std::invalid_argument);
    // A hand-built circuit whose shape differs is refused, not synthesized as another circuit.
    auto c = FallbackPoStCircuit::blank(params);
    c.sectors[1].paths[4].pop_back();
    r1cs::CountCS cs;
    EXPECT_THROW(c.synthesize(cs), std::invalid_argument);
    c = FallbackPoStCircuit::blank(params);
    c.sectors.pop_back();
    EXPECT_THROW(c.synthesize(cs), std::invalid_argument);
    // Public inputs: too many sectors, a non-canonical randomness, the wrong PoSt type.
    const std::vector<circuits::PoStPublicSector> three(3, {1, proofs[0].comm_r});
    EXPECT_THROW(circuits::window_post_public_inputs(cfg, r, 0, three), std::invalid_argument);
    Bytes32 big = r;
    big[31] = 0xff;
    EXPECT_THROW(circuits::window_post_public_inputs(cfg, big, 0, public_sectors(proofs)), std::invalid_argument);
    EXPECT_THROW(circuits::winning_post_public_inputs(cfg, r, {1, proofs[0].comm_r}), std::invalid_argument);
}

// ---- Groth16 end to end (dev setup: not Filecoin's parameters) --------------------------------

TEST(SlowPoSt, Groth16SetupProveVerifyWindow2KiB) {
    using namespace groth16;
    const auto& cfg = filecoin::post_config(P::StackedDrgWindow2KiBV1_2);
    const Bytes32 r = randomness(8);
    const auto proofs = window_proofs(P::StackedDrgWindow2KiBV1_2, r, 0, {42});
    const auto circuit = circuits::make_post_circuit(FallbackPoStCircuit::window(cfg, r, 0, proofs), "window-2KiB");
    const auto blank = circuits::make_post_circuit(FallbackPoStCircuit::blank(FallbackPoStParams::from_config(cfg)));
    const r1cs::Shape shape = blank->shape();
    EXPECT_EQ(shape.num_constraints, 21'866u + 23);
    EXPECT_EQ(shape.num_inputs, 23u);
    const Parameters params = setup(shape, ToxicWaste::from_seed(test::seed()));
    auto backend = make_cpu_backend();
    const Proof proof = prove(params, shape.density(), circuit->witness(), random_randomness(), *backend);
    const PreparedVerifyingKey pvk(params.vk);
    const auto x = circuits::window_post_public_inputs(cfg, r, 0, public_sectors(proofs));
    const auto ok = verify(pvk, proof, x);
    EXPECT_TRUE(ok) << ok.error;
    // The inputs of another randomness or another sector id do not verify.
    EXPECT_FALSE(
        verify(pvk, proof, circuits::window_post_public_inputs(cfg, randomness(9), 0, public_sectors(proofs))));
    auto moved = public_sectors(proofs);
    moved[0].sector_id = 41;
    EXPECT_FALSE(verify(pvk, proof, circuits::window_post_public_inputs(cfg, r, 0, moved)));
}

// ---- cost of a 32 GiB Window partition's witness --------------------------------------------

size_t rss_peak_kib() {
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::strtoull(line.c_str() + 6, nullptr, 10);
    return 0;
}

// CUZK_POST_WITNESS_SECTORS sectors (default 64 of the 2349) of synthetic 32 GiB vanilla
// proofs: vanilla verification, circuit, witness with A·z, B·z, C·z as the prover takes it.
TEST(SlowPoStWitness, ThirtyTwoGiBWindowPartitionSynthetic) {
    const auto& cfg = filecoin::post_config(P::StackedDrgWindow32GiBV1_2);
    const char* env = std::getenv("CUZK_POST_WITNESS_SECTORS");
    const unsigned n = env ? unsigned(std::strtoul(env, nullptr, 10)) : 64;
    ASSERT_TRUE(n >= 1 && n <= cfg.sector_count);
    const uint64_t seed = test::seed();
    const Bytes32 r = randomness(7);
    auto t = std::chrono::steady_clock::now();
    auto lap = [&t] {
        const auto now = std::chrono::steady_clock::now();
        const double s = std::chrono::duration<double>(now - t).count();
        t = now;
        return s;
    };
    std::vector<filecoin::FallbackPoStSectorProof> proofs(n);
    parallel_for(0, n, 1, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) proofs[i] = filecoin::synthetic_post_vanilla_proof(cfg, seed, 1000 + i, r, i);
    });
    const double t_gen = lap();
    filecoin::post_verify_window_partition(cfg, r, 0, proofs);
    const double t_verify = lap();
    std::vector<Bytes32> comm_rs;
    std::vector<filecoin::PoStSectorProof> sps;
    for (const auto& p : proofs) comm_rs.push_back(p.comm_r), sps.push_back(p.sectors[0]);
    auto params = FallbackPoStParams::from_config(cfg);
    params.sectors = n;  // only the given sectors (a partition pads to 2349 by repeating)
    const auto c = FallbackPoStCircuit::from_sector_proofs(params, comm_rs, sps);
    const double t_circuit = lap();
    r1cs::WitnessOptions opt;
    opt.record_evals = true;
    r1cs::WitnessCS w(opt);
    c.synthesize(w);
    const double t_witness = lap();
    EXPECT_EQ(w.num_constraints(), size_t(n) * 53'333);
    std::printf(
        "32 GiB Window PoSt, %u synthetic sectors, %zu threads: generate %.2f s, vanilla verify %.2f s, circuit "
        "%.2f s, witness %.2f s (%.1f ms/sector), %zu aux, peak RSS %.2f GiB\n",
        n, num_threads(), t_gen, t_verify, t_circuit, t_witness, 1e3 * t_witness / n, w.aux().size(),
        double(rss_peak_kib()) / (1 << 20));
}

}  // namespace
}  // namespace cuzk
