// The StackedDRG PoRep circuit: constraint and input counts pinned against rust-fil-proofs,
// a per-challenge cost model for the production sizes, a self-consistent 2 KiB sector that
// satisfies the circuit (check mode, witness mode, public inputs computed without a vanilla
// proof), rejection of a wrong comm_r / label / challenge, and (Slow) Groth16 end to end.
#include <gtest/gtest.h>

#include "cuzk/common/parallel.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "cuzk/circuits/porep.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/r1cs/r1cs.hpp"
#include "support/circuit_counts.hpp"
#include "support/porep_sector.hpp"
#include "support/seed.hpp"
#include "support/witness_checks.hpp"

namespace cuzk {
namespace {

using circuits::StackedCircuit;
using circuits::StackedParams;
using filecoin::RegisteredSealProof;

using test::count;

StackedParams params_of(RegisteredSealProof p) { return StackedParams::from_config(filecoin::porep_config(p)); }

// ---- counts -------------------------------------------------------------------------------

// filecoin-circuits.md §1 table: 2 KiB is 2,687,921 constraints and 40 inputs (ONE included),
// counted here in full (the input constraints x·0 = 0 excluded, as in the table).
TEST(PoRepCount, TwoKiBPartition) {
    const auto c = count(StackedCircuit::blank(params_of(RegisteredSealProof::StackedDrg2KiBV1_1)));
    EXPECT_EQ(c.constraints, 2'687'921u);
    EXPECT_EQ(c.inputs, 40u);
}

// storage-proofs-porep/tests/stacked_circuit.rs: nodes = 8 · base tree count, 2 layers, one
// interactive challenge, 22 inputs (ONE included); counts by tree shape.
TEST(PoRepCount, RustFilProofsStackedCircuitTests) {
    struct Case {
        gadgets::TreeShape tree;
        uint64_t nodes;
        size_t constraints;
    };
    const Case cases[] = {
        {gadgets::TreeShape::poseidon(2), 8, 1'206'212},         // test_stacked_porep_circuit_poseidon_base_2
        {gadgets::TreeShape::poseidon(8), 8, 1'199'620},         // test_stacked_input_circuit_poseidon_base_8
        {gadgets::TreeShape::poseidon(8, 4), 32, 1'296'576},     // ..._poseidon_sub_8_4
        {gadgets::TreeShape::poseidon(8, 4, 2), 64, 1'346'982},  // ..._poseidon_top_8_4_2
    };
    for (const Case& k : cases) {
        StackedParams p{k.nodes, 2, 1, k.tree};
        const auto c = count(StackedCircuit::blank(p));
        EXPECT_EQ(c.constraints, k.constraints)
            << "tree " << k.tree.base_arity << "-" << k.tree.sub_arity << "-" << k.tree.top_arity;
        EXPECT_EQ(c.inputs, 22u);
    }
}

// Per-challenge cost model: the header (0 challenges) plus c times one challenge, each
// synthesized once in counting mode; the totals are the table's (8 MiB / 512 MiB computed
// from the per-gadget model, 32 GiB quoted from rust-fil-proofs PR #1325, 64 GiB computed).
TEST(PoRepCount, PerChallengeModel) {
    struct Case {
        RegisteredSealProof proof;
        size_t per_challenge;
        size_t constraints;
        size_t inputs;
    };
    const Case cases[] = {
        {RegisteredSealProof::StackedDrg2KiBV1_1, 1'343'675, 2'687'921, 40},
        {RegisteredSealProof::StackedDrg8MiBV1_1, 1'922'179, 3'844'929, 40},
        {RegisteredSealProof::StackedDrg512MiBV1_1, 2'211'431, 4'423'433, 40},
        {RegisteredSealProof::StackedDrg32GiBV1_1, 7'237'665, 130'278'541, 328},
        {RegisteredSealProof::StackedDrg64GiBV1_1, 7'288'071, 131'185'849, 328},
    };
    for (const Case& k : cases) {
        StackedParams p = params_of(k.proof);
        const size_t challenges = p.challenges;
        p.challenges = 0;
        const auto header = count(StackedCircuit::blank(p));
        p.challenges = 1;
        const auto one = count(StackedCircuit::blank(p));
        const size_t per = one.constraints - header.constraints;
        EXPECT_EQ(header.constraints, 571u);
        EXPECT_EQ(header.inputs, 4u);
        EXPECT_EQ(one.inputs - header.inputs, 18u);
        EXPECT_EQ(per, k.per_challenge) << filecoin::porep_config(k.proof).name;
        EXPECT_EQ(header.constraints + challenges * per, k.constraints) << filecoin::porep_config(k.proof).name;
        EXPECT_EQ(header.inputs + challenges * 18, k.inputs);
    }
}

// Shape mode and counting mode agree on the smallest rust-fil-proofs test graph (Slow: 4 s
// under the sanitizers; the 2 KiB partition goes through ShapeCS in the Groth16 test).
TEST(SlowPoRepCount, ShapeModeAgreesWithCountingMode) {
    StackedParams p{8, 2, 1, gadgets::TreeShape::poseidon(8)};
    const auto blank = StackedCircuit::blank(p);
    r1cs::ShapeCS s;
    blank.synthesize(s);
    const auto c = count(blank);
    EXPECT_EQ(s.num_constraints(), c.constraints);
    EXPECT_EQ(s.num_inputs(), c.inputs);
    EXPECT_EQ(s.num_aux(), c.aux);
}

// ---- public inputs ------------------------------------------------------------------------

TEST(PoRepInputs, LayoutFromChallengesAndGraph) {
    const auto& cfg = filecoin::porep_config(RegisteredSealProof::StackedDrg2KiBV1_1);
    const filecoin::StackedGraph g(cfg);
    filecoin::Bytes32 rid{}, d{}, r{}, seed{};
    for (int i = 0; i < 31; ++i) rid[i] = uint8_t(i), d[i] = uint8_t(2 * i), r[i] = uint8_t(3 * i), seed[i] = 0x11;
    const auto x = circuits::porep_public_inputs(cfg.proof, rid, d, r, seed, 0);
    ASSERT_EQ(x.size(), 3u + 18 * cfg.challenges_per_partition);
    EXPECT_EQ(x[0], test::to_fr(rid));
    EXPECT_EQ(x[1], test::to_fr(d));
    EXPECT_EQ(x[2], test::to_fr(r));
    const auto ch = filecoin::porep_challenges(cfg, rid, seed, r, 0);
    for (size_t i = 0; i < ch.size(); ++i) {
        const Fr* row = &x[3 + 18 * i];
        std::array<uint32_t, filecoin::kDegree> parents{};
        g.parents(ch[i], parents);
        EXPECT_EQ(row[0], Fr::from_u64(ch[i]));
        for (unsigned j = 0; j < filecoin::kDegree; ++j) EXPECT_EQ(row[1 + j], Fr::from_u64(parents[j]));
        EXPECT_EQ(row[15], Fr::from_u64(ch[i]));
        EXPECT_EQ(row[16], Fr::from_u64(ch[i]));
        EXPECT_EQ(row[17], Fr::from_u64(ch[i]));
    }
    // 32 GiB: 10 partitions of 18 challenges, 3 + 324 inputs each.
    EXPECT_EQ(circuits::porep_public_inputs(RegisteredSealProof::StackedDrg32GiBV1_1, rid, d, r, seed, 9).size(), 327u);
    filecoin::Bytes32 big = rid;
    big[31] = 0xff;
    EXPECT_THROW(circuits::porep_public_inputs(cfg.proof, big, d, r, seed, 0), std::invalid_argument);
    EXPECT_THROW(circuits::porep_public_inputs(cfg.proof, rid, d, r, seed, 1), std::invalid_argument);
}

// ---- a real 2 KiB partition -----------------------------------------------------------------

struct Sector2K {
    test::TestSector s;
    std::vector<filecoin::VanillaProof> proofs;
    StackedCircuit circuit;
};

const Sector2K& sector_2k() {
    static const Sector2K k = [] {
        Sector2K r;
        r.s = test::build_test_sector(RegisteredSealProof::StackedDrg2KiBV1_1, 20261130);
        r.proofs = test::partition_proofs(r.s, 0, r.s.seed);
        r.circuit = StackedCircuit::from_vanilla(*r.s.cfg, r.s.replica_id, r.s.comm_d, r.s.comm_r, r.proofs);
        return r;
    }();
    return k;
}

std::vector<Fr> expected_inputs(const test::TestSector& s, const filecoin::Bytes32& seed) {
    return circuits::porep_public_inputs(s.cfg->proof, s.replica_id, s.comm_d, s.comm_r, seed, 0);
}

std::optional<std::string> check(const StackedCircuit& c) {
    r1cs::CheckCS cs;
    c.synthesize(cs);
    if (auto f = cs.first_failure()) return f->message;
    return std::nullopt;
}

// The test sector is what the vanilla checker expects (challenges, parents, labels, tree D).
TEST(PoRep, TestSectorPassesTheVanillaChecks) {
    const auto& k = sector_2k();
    EXPECT_NO_THROW(filecoin::check_c1_consistency(test::c1_output(k.s)));
    for (const auto& p : k.proofs) {
        EXPECT_TRUE(k.s.tree_c->prove(p.labeling_proofs[0].node).verify());
        EXPECT_EQ(p.comm_r_last_proof.root, k.s.comm_r_last);
    }
}

TEST(PoRep, TwoKiBSatisfiedAndInputsMatch) {
    const auto& k = sector_2k();
    r1cs::CheckCS cs;
    k.circuit.synthesize(cs);
    ASSERT_TRUE(cs.is_satisfied()) << cs.first_failure()->message;
    EXPECT_EQ(cs.num_constraints(), 2'687'921u);
    // The inputs the circuit allocated are those computed from the seed without proofs.
    const auto x = expected_inputs(k.s, k.s.seed);
    ASSERT_EQ(cs.inputs().size(), x.size() + 1);
    EXPECT_TRUE(cs.inputs()[0].is_one());
    EXPECT_TRUE(std::equal(x.begin(), x.end(), cs.inputs().begin() + 1));
    // Witness mode computes the same assignment (it trusts values; check mode evaluates).
    r1cs::WitnessCS w;
    k.circuit.synthesize(w);
    EXPECT_TRUE(w.inputs() == cs.inputs());
    EXPECT_TRUE(std::ranges::equal(w.aux(), cs.aux())) << "witness and check modes computed different assignments";
}

// The challenges synthesized in parallel, each into its own block, give exactly the
// assignment and the A·z, B·z, C·z of synthesizing them one after another.
TEST(PoRep, ParallelWitnessEqualsSerialWitness) {
    ScopedNumThreads threads(4);
    auto serial = sector_2k().circuit;
    serial.parallel_witness = false;
    auto par = sector_2k().circuit;
    par.parallel_witness = true;
    r1cs::WitnessOptions opt;
    opt.record_evals = true;
    r1cs::WitnessCS ws(opt), wp(opt);
    serial.synthesize(ws);
    par.synthesize(wp);
    EXPECT_EQ(wp.num_constraints(), 2'687'921u);
    test::expect_same_witness(wp, ws);
}

TEST(PoRep, WrongCommRIsUnsatisfied) {
    auto c = sector_2k().circuit;
    c.comm_r += Fr::one();
    auto f = check(c);
    ASSERT_TRUE(f.has_value());
    EXPECT_NE(f->find("enforce comm_r = H(comm_c || comm_r_last)"), std::string::npos) << *f;
}

TEST(PoRep, WrongLabelIsUnsatisfied) {
    // A parent's layer-1 label changed: its column no longer hashes into tree C.
    auto c = sector_2k().circuit;
    c.proofs[1].drg_parents[3].rows[0] += Fr::one();
    auto f = check(c);
    ASSERT_TRUE(f.has_value());
    EXPECT_NE(f->find("challenge_1/drg_parent_3_inclusion"), std::string::npos) << *f;
    // The challenge's own label (tree R and tree C): a wrong data leaf breaks tree D first.
    auto d = sector_2k().circuit;
    d.proofs[0].data_leaf += Fr::one();
    f = check(d);
    ASSERT_TRUE(f.has_value());
    EXPECT_NE(f->find("challenge_0/comm_d_inclusion"), std::string::npos) << *f;
}

TEST(PoRep, ChallengeFromAnotherSeedIsRejected) {
    // Proofs for the challenges of another seed are internally consistent, but their public
    // inputs are not those of the real seed: replaying the witness against the real inputs
    // fails at the first index that differs.
    const auto& k = sector_2k();
    filecoin::Bytes32 other = k.s.seed;
    other[0] ^= 1;
    const auto proofs = test::partition_proofs(k.s, 0, other);
    ASSERT_NE(proofs[0].labeling_proofs[0].node, k.proofs[0].labeling_proofs[0].node);
    const auto c = StackedCircuit::from_vanilla(*k.s.cfg, k.s.replica_id, k.s.comm_d, k.s.comm_r, proofs);
    r1cs::WitnessCS w;
    c.synthesize(w);
    std::vector<Fr> x{Fr::one()};
    const auto real = expected_inputs(k.s, k.s.seed);
    x.insert(x.end(), real.begin(), real.end());
    EXPECT_FALSE(x == w.inputs());
    r1cs::CheckCS replay(x, w.aux());
    c.synthesize(replay);
    ASSERT_FALSE(replay.is_satisfied());
    EXPECT_NE(replay.first_failure()->message.find("challenge_0/comm_d_inclusion/path"), std::string::npos)
        << replay.first_failure()->message;
    // With its own inputs the same witness is satisfied.
    const auto own = expected_inputs(k.s, other);
    std::vector<Fr> y{Fr::one()};
    y.insert(y.end(), own.begin(), own.end());
    EXPECT_TRUE(y == w.inputs());
}

TEST(PoRep, FromVanillaRejectsMalformedProofs) {
    const auto& k = sector_2k();
    auto bad = k.proofs;
    bad[1].comm_r_last_proof.root[0] ^= 1;
    EXPECT_THROW(StackedCircuit::from_vanilla(*k.s.cfg, k.s.replica_id, k.s.comm_d, k.s.comm_r, bad),
                 std::invalid_argument);
    bad = k.proofs;
    bad[0].replica_column_proofs.exp_parents.pop_back();
    EXPECT_THROW(StackedCircuit::from_vanilla(*k.s.cfg, k.s.replica_id, k.s.comm_d, k.s.comm_r, bad),
                 std::invalid_argument);
    bad = k.proofs;
    bad[0].comm_d_proofs.base.pop_back();
    EXPECT_THROW(StackedCircuit::from_vanilla(*k.s.cfg, k.s.replica_id, k.s.comm_d, k.s.comm_r, bad),
                 std::invalid_argument);
    EXPECT_THROW(StackedCircuit::from_vanilla(*k.s.cfg, k.s.replica_id, k.s.comm_d, k.s.comm_r,
                                              std::span(k.proofs).subspan(0, 1)),
                 std::invalid_argument);
    // A circuit built by hand with a short path would be another circuit: refused.
    auto c = k.circuit;
    c.proofs[1].comm_c_path.pop_back();
    r1cs::CountCS cs;
    EXPECT_THROW(c.synthesize(cs), std::invalid_argument);
    c = k.circuit;
    c.proofs[0].exp_parents[2].path.pop_back();
    EXPECT_THROW(c.synthesize(cs), std::invalid_argument);
}

// porep_counts sizes the engine's reservation for a PoRep shape before it is recorded: its
// counts must be the shape's and its non-zero bounds hold.
TEST(SlowPoRep, CountsBoundTheRecordedShape2KiB) {
    const auto params = params_of(RegisteredSealProof::StackedDrg2KiBV1_1);
    const r1cs::ShapeCounts c = circuits::porep_counts(params);
    const r1cs::Shape s = circuits::make_stacked_circuit(StackedCircuit::blank(params))->shape();
    EXPECT_EQ(c.num_inputs, s.num_inputs);
    EXPECT_EQ(c.num_aux, s.num_aux);
    EXPECT_EQ(c.num_constraints, s.num_constraints);
    std::printf("%zu distinct coefficients\n", s.coeffs.size());
    EXPECT_GE(c.coeffs, s.coeffs.size());
    const size_t nnz[3] = {s.a.nnz(), s.b.nnz(), s.c.nnz()};
    const uint64_t bound[3] = {c.nnz_a, c.nnz_b, c.nnz_c};
    for (int m = 0; m < 3; ++m) {
        std::printf("matrix %c: %.3f non-zeros per constraint\n", "ABC"[m], double(nnz[m]) / double(s.num_constraints));
        EXPECT_GE(bound[m], nnz[m]) << "matrix "
                                    << "ABC"[m];
    }
    int calls = 0;
    EXPECT_THROW(circuits::porep_counts(params, [&] { return ++calls > 3; }), Cancelled);
}

// ---- Groth16 end to end (dev setup: not Filecoin's parameters) --------------------------------

TEST(VerySlowPoRep, Groth16SetupProveVerify2KiB) {
    using namespace groth16;
    const auto& k = sector_2k();
    const auto circuit = circuits::make_stacked_circuit(k.circuit, "porep-2KiB");
    const auto blank = circuits::make_stacked_circuit(StackedCircuit::blank(k.circuit.params), "porep-2KiB-blank");
    auto t0 = std::chrono::steady_clock::now();
    const r1cs::Shape shape = blank->shape();
    EXPECT_EQ(shape.num_constraints, 2'687'921u + 40);
    EXPECT_EQ(shape.num_inputs, 40u);
    auto t1 = std::chrono::steady_clock::now();
    const Parameters params = setup(shape, ToxicWaste::from_seed(test::seed()));
    auto t2 = std::chrono::steady_clock::now();
    auto backend = make_cpu_backend();
    const Proof proof = prove(params, shape.density(), circuit->witness(), random_randomness(), *backend);
    auto t3 = std::chrono::steady_clock::now();
    const PreparedVerifyingKey pvk(params.vk);
    const auto x = expected_inputs(k.s, k.s.seed);
    const auto ok = verify(pvk, proof, x);
    EXPECT_TRUE(ok) << ok.error;
    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    std::printf("2 KiB PoRep: shape %.0f ms, setup %.0f ms, prove %.0f ms\n", ms(t0, t1), ms(t1, t2), ms(t2, t3));
    // A flipped proof byte (one in each of A, B, C; a byte that no longer decodes is
    // rejected by the reader), a changed comm_r, inputs of another seed: rejected.
    const auto bytes = formats::proof_to_bytes(proof);
    for (size_t i : {20, 100, 170}) {
        auto flipped = bytes;
        flipped[i] ^= 0x04;
        try {
            const auto tampered = formats::read_proofs_from_bytes(flipped, 1);
            EXPECT_FALSE(verify(pvk, tampered[0], x)) << "byte " << i;
        } catch (const formats::FormatError&) {
        }
    }
    auto bad = x;
    bad[2] += Fr::one();
    EXPECT_FALSE(verify(pvk, proof, bad));
    filecoin::Bytes32 other = k.s.seed;
    other[0] ^= 1;
    EXPECT_FALSE(verify(pvk, proof, expected_inputs(k.s, other)));
}

}  // namespace
}  // namespace cuzk
