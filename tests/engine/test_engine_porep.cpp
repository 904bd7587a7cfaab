// PoRep C2 through the engine (kind "porep-seal-commit"): a sealed sector's C1 output in, the
// partition proofs out.
//
// EnginePoRep* need no parameters: submit's validation (malformed C1, registered proof and
// sector size mismatches, the consistency check, missing parameters), circuit keys and the
// Filecoin parameter file lookup.
// VerySlowEnginePoRep seals a sector, proves it with development keys and verifies: 2 KiB
// (1 partition of 2,687,921 constraints: a dev setup of several minutes on 2 cores), 2 KiB
// NI-PoRep (13 such partitions, the same keys) and 8 MiB (sealing ~20 s on 2 cores;
// 1 partition of 3,844,929 constraints, the same 2^22 domain).
// The keys are cached in CUZK_TEST_PARAM_CACHE (default <tmp>/cuzk-porep-test-params), so
// later runs reuse them. CI leaves VerySlow* out; run it with
//   build/cpu/tests/cuzk_test_engine --gtest_filter='VerySlowEnginePoRep.*'
// (CUZK_TEST_BACKEND=cpu|cuda|auto picks the prove target, default auto).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "cuzk/circuits/porep.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/memory.hpp"
#include "cuzk/engine/params.hpp"
#include "cuzk/filecoin/c1.hpp"
#include "cuzk/filecoin/registry.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/kinds/kind.hpp"
#include "support/engine_checks.hpp"

using namespace cuzk;
using namespace cuzk::engine;
namespace fs = std::filesystem;
using filecoin::RegisteredSealProof;

namespace {

// One sealed sector and its C1 output per registered proof, made once (2 KiB: a fraction of a
// second; 8 MiB: ~20 s on 2 cores).
const filecoin::SealCommitPhase1Output& sealed_c1(RegisteredSealProof proof = RegisteredSealProof::StackedDrg2KiBV1_1) {
    static std::map<RegisteredSealProof, filecoin::SealCommitPhase1Output> made;
    if (const auto it = made.find(proof); it != made.end()) return it->second;
    filecoin::SealParams p;
    p.proof = proof;
    p.prover_id[0] = 7;
    p.ticket[1] = 9;
    p.sector_id = 42;
    const auto& cfg = filecoin::porep_config(p.proof);
    auto sector = filecoin::SealedSector::seal(p, filecoin::pseudo_random_sector_data(cfg, 5));
    filecoin::Bytes32 seed{};
    seed[0] = 0x5e;
    seed[31] = 0x11;
    return made.emplace(proof, sector.commit_phase1(seed)).first->second;
}

struct TempDir {
    fs::path path;
    explicit TempDir(const std::string& tag) {
        path = fs::temp_directory_path() / ("cuzk-porep-" + tag + "-" + std::to_string(::getpid()));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

EngineConfig quiet_cpu() {
    EngineConfig c;
    c.backend = "cpu";
    c.memory_budget = uint64_t(8) << 30;
    c.log = [](int, const std::string&) {};
    return c;
}

JobSpec porep_spec(const std::string& json) {
    JobSpec s;
    s.kind = "porep-seal-commit";
    s.c1_json = json;
    return s;
}

using test::refusal;

}  // namespace

TEST(EnginePoRep, CircuitKeysNameTheRegisteredProofAndItsFiles) {
    const auto k = CircuitKey{kinds::porep_shape(uint64_t(RegisteredSealProof::StackedDrg2KiBV1_1))};
    EXPECT_EQ(k.id(), "porep-StackedDrg2KiBV1_1");
    const auto back = CircuitKey::parse(k.id());
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, k);
    EXPECT_TRUE(back->has_filecoin_params());
    const auto& cfg = filecoin::porep_config(RegisteredSealProof::StackedDrg2KiBV1_1);
    EXPECT_EQ(k.params_file_name(), filecoin::porep_params_file_name(cfg));
    EXPECT_EQ(k.vk_file_name(), filecoin::porep_vk_file_name(cfg));
    EXPECT_EQ(k.params_file_name().rfind("v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0", 0), 0u);
    std::string why;
    EXPECT_FALSE(CircuitKey::parse("porep-StackedDrg3KiBV1", &why));
    EXPECT_NE(why.find("unknown registered proof 'StackedDrg3KiBV1'"), std::string::npos) << why;
    // Built-in ids are unchanged.
    EXPECT_EQ(CircuitKey::parse("sha256-chain-4")->id(), "sha256-chain-4");
    // Engine::circuit_id of a PoRep spec: from registered_proof, else from the C1.
    JobSpec s = porep_spec(filecoin::write_c1_output(sealed_c1()));
    EXPECT_EQ(Engine::circuit_id(s), "porep-StackedDrg2KiBV1_1");
    s.c1_json.clear();
    s.registered_proof = "StackedDrg32GiBV1_1";
    EXPECT_EQ(Engine::circuit_id(s), "porep-StackedDrg32GiBV1_1");
}

TEST(EnginePoRep, ParameterDirectoryLookup) {
    // Configured directory, else FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters.
    const char* old = std::getenv("FIL_PROOFS_PARAMETER_CACHE");
    const std::string saved = old ? old : "";
    ::unsetenv("FIL_PROOFS_PARAMETER_CACHE");
    EXPECT_EQ(filecoin_param_dir(), fs::path("/var/tmp/filecoin-proof-parameters"));
    ::setenv("FIL_PROOFS_PARAMETER_CACHE", "/some/where", 1);
    EXPECT_EQ(filecoin_param_dir(), fs::path("/some/where"));
    EXPECT_EQ(filecoin_param_dir("/configured"), fs::path("/configured"));
    if (old)
        ::setenv("FIL_PROOFS_PARAMETER_CACHE", saved.c_str(), 1);
    else
        ::unsetenv("FIL_PROOFS_PARAMETER_CACHE");

    // A tiny fake parameter set: only the file's presence is looked at before a load.
    TempDir dir("lookup");
    MemoryBudget budget(uint64_t(1) << 30);
    ParamManager pm(budget, {}, 1, std::chrono::milliseconds(0), [](int, const std::string&) {});
    const auto key = CircuitKey{kinds::porep_shape(uint64_t(RegisteredSealProof::StackedDrg2KiBV1_1))};
    pm.set_filecoin(dir.path, /*allow_dev_params=*/false);
    EXPECT_EQ(pm.filecoin_params_path(key), dir.path / key.params_file_name());
    auto why = pm.missing_params_error(key);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find((dir.path / key.params_file_name()).string()), std::string::npos) << *why;
    EXPECT_NE(why->find("FIL_PROOFS_PARAMETER_CACHE"), std::string::npos) << *why;
    std::ofstream(dir.path / key.params_file_name()) << "fake";
    EXPECT_FALSE(pm.missing_params_error(key));
    // V1 and V1_1 of one size share their parameter files (the identifier has no porep_id).
    EXPECT_FALSE(
        pm.missing_params_error(CircuitKey{kinds::porep_shape(uint64_t(RegisteredSealProof::StackedDrg2KiBV1))}));
    // With dev params allowed nothing is missing; built-in keys never are.
    fs::remove(dir.path / key.params_file_name());
    pm.set_filecoin(dir.path, true);
    EXPECT_FALSE(pm.missing_params_error(key));
    EXPECT_FALSE(pm.missing_params_error(*CircuitKey::parse("sha256-chain-1")));
}

TEST(EnginePoRep, SubmitValidatesTheC1Output) {
    TempDir dir("empty");
    EngineConfig cfg = quiet_cpu();
    cfg.filecoin_param_dir = dir.path;
    cfg.allow_dev_params = false;  // nothing may start a multi-minute setup here
    Engine e(cfg);
    const std::string good = filecoin::write_c1_output(sealed_c1());

    // No C1 at all.
    auto [c0, m0] = refusal(e, porep_spec(""));
    EXPECT_EQ(c0, EngineError::Code::InvalidArgument);
    EXPECT_NE(m0.find("C1 output"), std::string::npos) << m0;

    // Malformed: the parser's message names the field.
    auto [c1, m1] = refusal(e, porep_spec(good.substr(0, good.size() / 2)));
    EXPECT_EQ(c1, EngineError::Code::InvalidArgument);
    EXPECT_NE(m1.find("c1 output"), std::string::npos) << m1;
    std::string bad = good;
    const auto at = bad.find("\"comm_d\":[");
    ASSERT_NE(at, std::string::npos);
    bad.replace(at, 10, "\"comm_d\":[1,");  // 33 bytes
    auto [c2, m2] = refusal(e, porep_spec(bad));
    EXPECT_EQ(c2, EngineError::Code::InvalidArgument);
    EXPECT_NE(m2.find("comm_d"), std::string::npos) << m2;

    // Registered proof and sector size must agree with the C1.
    JobSpec s = porep_spec(good);
    s.registered_proof = "StackedDrg32GiBV1_1";
    auto [c3, m3] = refusal(e, s);
    EXPECT_EQ(c3, EngineError::Code::InvalidArgument);
    EXPECT_NE(m3.find("registered_proof StackedDrg32GiBV1_1 does not match the C1 output's registered_proof "
                      "StackedDrg2KiBV1_1"),
              std::string::npos)
        << m3;
    s.registered_proof = "StackedDrg9KiB";
    EXPECT_NE(refusal(e, s).second.find("unknown registered proof 'StackedDrg9KiB'"), std::string::npos);
    s.registered_proof = "";
    s.sector_size = uint64_t(32) << 30;
    auto [c4, m4] = refusal(e, s);
    EXPECT_EQ(c4, EngineError::Code::InvalidArgument);
    EXPECT_NE(m4.find("sector_size 34359738368 does not match"), std::string::npos) << m4;

    // Parses, but inconsistent: the consistency check names the field.
    auto tampered = sealed_c1();
    tampered.comm_r[0] ^= 1;
    auto [c5, m5] = refusal(e, porep_spec(filecoin::write_c1_output(tampered)));
    EXPECT_EQ(c5, EngineError::Code::InvalidArgument);
    EXPECT_NE(m5.find("comm_r"), std::string::npos) << m5;

    // Valid, with matching registered proof (by name or id) and size: refused only because
    // the parameter file is missing and dev params are off; the message names file and env.
    s = porep_spec(good);
    s.registered_proof = "5";  // StackedDrg2KiBV1_1
    s.sector_size = 2048;
    auto [c6, m6] = refusal(e, s);
    EXPECT_EQ(c6, EngineError::Code::NotFound);
    EXPECT_NE(
        m6.find(filecoin::porep_params_file_name(filecoin::porep_config(RegisteredSealProof::StackedDrg2KiBV1_1))),
        std::string::npos)
        << m6;
    EXPECT_NE(m6.find("FIL_PROOFS_PARAMETER_CACHE"), std::string::npos) << m6;

    // A SnapDeals request without its fields is refused by name.
    JobSpec w;
    w.kind = "snap-deals-update";
    w.registered_proof = "0";
    const auto [wc, wm] = refusal(e, w);
    EXPECT_EQ(wc, EngineError::Code::InvalidArgument);
    EXPECT_NE(wm.find("comm_r_old: expected 32 bytes"), std::string::npos) << wm;
}

// Parsing a C1 is reserved from the memory budget before it starts (its bound,
// filecoin::c1_parse_bytes), and what a refused submit parsed goes back.
TEST(EnginePoRep, TheC1ParseIsReservedFromTheBudget) {
    TempDir dir("budget");
    const std::string good = filecoin::write_c1_output(sealed_c1());
    {
        EngineConfig cfg = quiet_cpu();
        cfg.memory_budget = uint64_t(16) << 20;  // below the parse's 32 MiB + the text
        Engine e(cfg);
        auto [code, why] = refusal(e, porep_spec(good));
        EXPECT_EQ(code, EngineError::Code::ResourceExhausted);
        EXPECT_NE(why.find("reading the porep-seal-commit request"), std::string::npos) << why;
        EXPECT_NE(why.find("memory budget of 16 MiB"), std::string::npos) << why;
        EXPECT_EQ(e.status().memory_reserved, 0u);
    }
    EngineConfig cfg = quiet_cpu();
    cfg.filecoin_param_dir = dir.path;
    cfg.allow_dev_params = false;
    Engine e(cfg);
    EXPECT_EQ(refusal(e, porep_spec(good)).first, EngineError::Code::NotFound);
    EXPECT_EQ(e.status().memory_reserved, 0u);
    EXPECT_LE(e.status().memory_high_water, filecoin::c1_parse_bytes(good.size()));
    EXPECT_GT(e.status().memory_high_water, 0u);
}

// An NI-PoRep C1 names the interactive circuit of its size (one set of keys for both) and is
// refused only for the missing parameter file; the engine's partition bound covers its 13.
TEST(EnginePoRep, NonInteractiveC1SharesTheInteractiveCircuit) {
    TempDir dir("ni");
    EngineConfig cfg = quiet_cpu();
    cfg.filecoin_param_dir = dir.path;
    cfg.allow_dev_params = false;
    Engine e(cfg);
    const auto ni = RegisteredSealProof::StackedDrg2KiBV1_2_Feat_NonInteractivePoRep;
    const auto& c1 = sealed_c1(ni);
    ASSERT_EQ(c1.vanilla_proofs.size(), 13u);
    JobSpec s = porep_spec(filecoin::write_c1_output(c1));
    EXPECT_EQ(Engine::circuit_id(s), "porep-StackedDrg2KiBV1_1");
    s.registered_proof = "15";
    EXPECT_EQ(Engine::circuit_id(s), "porep-StackedDrg2KiBV1_1");
    auto [code, why] = refusal(e, s);
    EXPECT_EQ(code, EngineError::Code::NotFound) << why;
    EXPECT_NE(why.find("no Filecoin parameters for porep-StackedDrg2KiBV1_1"), std::string::npos) << why;
    // The interactive proof's name against the NI C1.
    s.registered_proof = "StackedDrg2KiBV1_1";
    EXPECT_NE(refusal(e, s).second.find("does not match the C1 output's registered_proof "
                                        "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"),
              std::string::npos);
    // Another comm_r: the NI challenges move, the consistency check names the proof.
    auto moved = c1;
    moved.comm_r[0] ^= 1;
    const auto [c2, m2] = refusal(e, porep_spec(filecoin::write_c1_output(moved)));
    EXPECT_EQ(c2, EngineError::Code::InvalidArgument);
    EXPECT_NE(m2.find("but the challenge is node"), std::string::npos) << m2;
    // The default partition bounds hold NI-PoRep's 126 at 32/64 GiB; a lower one refuses a job.
    const auto& ni32 = filecoin::porep_config(RegisteredSealProof::StackedDrg64GiBV1_2_Feat_NonInteractivePoRep);
    EXPECT_GE(EngineConfig{}.max_partitions, ni32.partitions);
    EXPECT_GE(kinds::Limits{}.max_partitions, ni32.partitions);
    cfg.max_partitions = 12;
    Engine low(cfg);
    const auto [c3, m3] = refusal(low, porep_spec(filecoin::write_c1_output(c1)));
    EXPECT_EQ(c3, EngineError::Code::InvalidArgument);
    EXPECT_NE(m3.find("partitions must be in [1, 12], got 13"), std::string::npos) << m3;
}

// A 32 GiB NI-PoRep C1 (synthetic, NI-PoRep's shape with the seed's challenges: ~460 MiB of
// JSON, minutes to make and parse on 2 shared cores) has 126 partitions, within the default
// max_partitions; a lower bound refuses it.
TEST(VerySlowEnginePoRep, NonInteractive32GiBHas126Partitions) {
    const auto ni = RegisteredSealProof::StackedDrg32GiBV1_2_Feat_NonInteractivePoRep;
    const auto c1 = filecoin::synthetic_c1(ni, 3, {}, filecoin::SyntheticChallenges::FromSeed);
    const std::string json = filecoin::write_c1_output(c1);
    kinds::Request r;
    r.kind = "porep-seal-commit";
    r.c1_json = json;
    kinds::Limits limits;
    limits.check_vanilla = false;  // the seed's challenges are not comm_r's
    const auto work = kinds::Registry::all()->find(r.kind).prepare(r, limits);
    EXPECT_EQ(work->partitions(), 126u);
    EXPECT_EQ(work->shape()->id(), "porep-StackedDrg32GiBV1_1");
    const auto last = work->partition(125);
    EXPECT_EQ(last.public_inputs.size(), 327u);  // 4 + 18 x 18, ONE excluded
    EXPECT_EQ(last.public_inputs, circuits::porep_public_inputs(ni, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed, 125));

    TempDir dir("ni32");
    EngineConfig cfg = quiet_cpu();
    cfg.filecoin_param_dir = dir.path;
    cfg.allow_dev_params = false;
    cfg.check_c1 = false;
    cfg.max_partitions = 64;
    Engine e(cfg);
    const auto [code, why] = refusal(e, porep_spec(json));
    EXPECT_EQ(code, EngineError::Code::InvalidArgument);
    EXPECT_NE(why.find("partitions must be in [1, 64], got 126"), std::string::npos) << why;
}

// ---- end to end (needs the PoRep keys: dev setup, cached) -----------------------------------

namespace {

fs::path test_param_cache() {
    const char* env = std::getenv("CUZK_TEST_PARAM_CACHE");
    return env && *env ? fs::path(env) : fs::temp_directory_path() / "cuzk-porep-test-params";
}

std::vector<Fr> inputs_for(const filecoin::SealCommitPhase1Output& c1, unsigned k) {
    return circuits::porep_public_inputs(c1.registered_proof, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed, k);
}

// Seal -> C1 JSON -> engine (dev keys) -> proofs that verify against the vk and the public
// inputs from comm_r, comm_d, replica_id and seed; a changed comm_r or replica_id and a flipped
// proof byte are rejected, and a C1 whose challenges are not its own fails in the engine.
// Interactive PoRep: a changed seed is rejected. NI-PoRep takes its challenges from comm_r:
// the proofs verify whatever the seed (rust-fil-proofs ignores it too), and the C1 that fails
// in the engine has another comm_r.
void seal_prove_verify(RegisteredSealProof proof) {
    EngineConfig cfg = quiet_cpu();
    // The prove target: CUZK_TEST_BACKEND (cpu, cuda, auto), default auto (the GPU when built
    // with CUDA and one is present).
    const char* backend = std::getenv("CUZK_TEST_BACKEND");
    cfg.backend = backend && *backend ? backend : "auto";
    cfg.param_cache = test_param_cache();
    cfg.filecoin_param_dir = cfg.param_cache / "no-filecoin-params";  // dev params, cached
    cfg.witness_workers = 1;
    const auto& c1 = sealed_c1(proof);
    const auto& pc = filecoin::porep_config(proof);
    SCOPED_TRACE(std::string(pc.name));
    {
        Engine e(cfg);
        JobSpec s = porep_spec(filecoin::write_c1_output(c1));
        s.registered_proof = std::string(pc.name);
        s.sector_size = pc.sector_size;
        const auto info = e.submit(s);
        const auto r = e.await(info.job_id);
        ASSERT_TRUE(r);
        ASSERT_EQ(r->state, JobState::Completed) << r->error;
        const unsigned parts = pc.partitions;
        EXPECT_EQ(r->partitions_total, parts);
        EXPECT_EQ(r->circuit_id, "porep-" + std::string(filecoin::porep_config(filecoin::circuit_proof(proof)).name));
        ASSERT_EQ(r->proof.size(), 192u * parts);

        // Verify from the C1's public values alone (as a chain would) with the returned key.
        const auto vk = formats::read_vk_from_bytes(r->verifying_key);
        groth16::PreparedVerifyingKey pvk(vk);
        const auto proofs = formats::read_proofs_from_bytes(r->proof, parts);
        const bool ni = pc.kind == filecoin::PoRepKind::NonInteractivePoRep;
        for (unsigned k = 0; k < parts; ++k) {
            EXPECT_TRUE(groth16::verify(pvk, proofs[k], inputs_for(c1, k))) << "partition " << k;
            auto other = c1;
            other.seed[0] ^= 1;  // interactive: other challenges; NI: the same
            EXPECT_EQ(bool(groth16::verify(pvk, proofs[k], inputs_for(other, k))), ni) << "partition " << k;
            other = c1;
            other.comm_r[0] ^= 1;  // NI: other challenges too
            EXPECT_FALSE(groth16::verify(pvk, proofs[k], inputs_for(other, k)));
            other = c1;
            other.replica_id[0] ^= 1;
            EXPECT_FALSE(groth16::verify(pvk, proofs[k], inputs_for(other, k)));
            if (k + 1 < parts && inputs_for(c1, k + 1) != inputs_for(c1, k)) {  // another partition's challenges
                EXPECT_FALSE(groth16::verify(pvk, proofs[k], inputs_for(c1, k + 1)));
            }
        }
        // A flipped proof byte is rejected: it no longer decodes, or the proof fails.
        auto flipped = r->proof;
        flipped[100] ^= 0x01;
        bool rejected = false;
        try {
            const auto f = formats::read_proofs_from_bytes(flipped, parts);
            rejected = !groth16::verify(pvk, f[0], inputs_for(c1, 0));
        } catch (const formats::FormatError&) {
            rejected = true;
        }
        EXPECT_TRUE(rejected);
    }  // one engine (and one copy of the keys) at a time

    // A C1 whose seed (interactive) or comm_r (NI) is not the one its challenges came from:
    // the engine's proof (with public inputs derived from it) fails verification, so the job
    // fails.
    auto wrong = c1;
    (pc.kind == filecoin::PoRepKind::NonInteractivePoRep ? wrong.comm_r : wrong.seed)[0] ^= 1;
    EngineConfig cfg2 = cfg;
    cfg2.check_c1 = false;  // let it through to the prover
    Engine e2(cfg2);
    const auto r2 = e2.await(e2.submit(porep_spec(filecoin::write_c1_output(wrong))).job_id);
    ASSERT_TRUE(r2);
    EXPECT_EQ(r2->state, JobState::Failed);
}

}  // namespace

TEST(VerySlowEnginePoRep, Sealed2KiBSectorProvesAndVerifies) {
    seal_prove_verify(RegisteredSealProof::StackedDrg2KiBV1_1);
}

// NI-PoRep, 2 KiB: 13 partitions with the 2 KiB interactive keys (the same circuit and files).
TEST(VerySlowEnginePoRep, Sealed2KiBNonInteractiveSectorProvesAndVerifies) {
    seal_prove_verify(RegisteredSealProof::StackedDrg2KiBV1_2_Feat_NonInteractivePoRep);
}

TEST(VerySlowEnginePoRep, Sealed8MiBSectorProvesAndVerifies) {
    seal_prove_verify(RegisteredSealProof::StackedDrg8MiBV1_1);
}

// What a PoRep load from Filecoin's files uses instead of the shape: the same counts and
// densities, computed without the matrices.
TEST(EnginePoRep, DensityOnlySummaryMatchesTheShape) {
    for (const char* id : {"sha256-chain-1", "random-dense-300-3-7"}) {
        const auto circuit = CircuitKey::parse(id)->blank_circuit();
        const r1cs::Shape shape = circuit->shape();
        const groth16::ShapeSummary s = circuit->summary();
        EXPECT_EQ(s.num_inputs, shape.num_inputs) << id;
        EXPECT_EQ(s.num_aux, shape.num_aux) << id;
        EXPECT_EQ(s.num_constraints, shape.num_constraints) << id;
        EXPECT_TRUE(s.density == shape.density()) << id;
    }
}
