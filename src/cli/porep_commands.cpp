#include "porep_commands.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <stdexcept>

#include "cli_util.hpp"
#include "cuzk/backend/backend.hpp"
#include "cuzk/circuits/porep.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/params.hpp"
#include "cuzk/filecoin/c1.hpp"
#include "cuzk/filecoin/registry.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/kinds/kind.hpp"
#include "seal_commands.hpp"

namespace cuzk::cli {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {
double seconds(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
}  // namespace

fs::path param_file(const std::string& dir_opt, const std::string& name) {
    return engine::filecoin_param_dir(dir_opt) / name;
}
std::string where_from(const std::string& dir_opt) {
    return dir_opt.empty() ? " (the directory is env FIL_PROOFS_PARAMETER_CACHE, else "
                             "/var/tmp/filecoin-proof-parameters; or pass --param-dir)"
                           : " (--param-dir)";
}

filecoin::Bytes32 hex32(std::string hex, const char* option) {
    if (hex.rfind("0x", 0) == 0 || hex.rfind("0X", 0) == 0) hex = hex.substr(2);
    const auto b = filecoin::bytes32_from_hex(hex);
    if (!b)
        throw std::invalid_argument(std::string(option) + ": expected 64 hex digits (32 bytes, little-endian as in " +
                                    "the C1 JSON), got '" + hex + "' (" + std::to_string(hex.size()) + " characters)");
    return *b;
}

int write_dev_keys(const engine::CircuitKey& key, const std::string& what, const std::string& out_dir, uint64_t seed,
                   bool force) {
    const fs::path dir = engine::filecoin_param_dir(out_dir);
    const fs::path params_file = dir / key.params_file_name(), vk_file = dir / key.vk_file_name();
    std::error_code ec;
    if (!force && (fs::exists(params_file, ec) || fs::exists(vk_file, ec)))
        throw std::runtime_error(params_file.string() +
                                 " (or its .vk) exists: these may be Filecoin's keys; remove them or pass --force");
    check_writable_dir(dir);
    check_writable(params_file);
    check_writable(vk_file);
    auto t0 = Clock::now();
    std::fprintf(stderr, "%s: synthesizing the blank circuit (%s)\n", key.id().c_str(), what.c_str());
    const r1cs::Shape shape = key.blank_circuit()->shape();
    std::fprintf(stderr, "  %llu constraints, %llu inputs, %llu aux (%.1f s)\n",
                 (unsigned long long)shape.num_constraints, (unsigned long long)shape.num_inputs,
                 (unsigned long long)shape.num_aux, seconds(t0));
    t0 = Clock::now();
    const bool tty = isatty(2);
    const auto waste = seed ? groth16::ToxicWaste::from_seed(seed) : groth16::ToxicWaste::random();
    auto params = groth16::setup(shape, waste, [&](const char* st, size_t done, size_t total) {
        if (tty) std::fprintf(stderr, "\r  setup: %-5s %3d%%", st, int(100 * done / total));
        if (!tty && done == total) std::fprintf(stderr, "  setup: %s done (%zu points)\n", st, total);
    });
    if (tty) std::fprintf(stderr, "\r%40s\r", "");
    std::fprintf(stderr, "  setup %.1f s\n", seconds(t0));
    formats::write_params(params, params_file);
    formats::write_vk(params.vk, vk_file);
    std::printf(
        "wrote %s and %s\nthese are DEVELOPMENT keys (cuzk's own setup), not Filecoin's: proofs made with them do not "
        "verify on chain\n",
        params_file.c_str(), vk_file.c_str());
    return 0;
}

int prove_job(engine::JobSpec spec, const EngineRun& run) {
    gpu::check_backend_name(run.backend);
    check_writable(run.out);
    engine::EngineConfig ec;
    ec.backend = run.backend;
    ec.filecoin_param_dir = engine::filecoin_param_dir(run.param_dir);
    ec.allow_dev_params = false;  // the keys come from the parameter directory (`cuzk setup ...`)
    ec.check_c1 = run.check_vanilla;
    ec.witness_workers = 1;
    ec.log = [](int level, const std::string& line) {
        if (level >= 1 && line.find("event=job_") == std::string::npos) std::fprintf(stderr, "  %s\n", line.c_str());
    };
    const auto t0 = Clock::now();
    engine::Engine e(ec);
    engine::SubmitInfo info;
    try {
        info = e.submit(spec);
    } catch (const engine::EngineError& err) {
        const bool input = err.code() == engine::EngineError::Code::InvalidArgument && run.name_input;
        throw std::runtime_error(input ? run.name_input(err.what()) : std::string(err.what()));
    }
    const engine::JobResult first = e.peek(info.job_id);
    std::fprintf(stderr, "%s: %u partition(s), backend %s\n", first.circuit_id.c_str(), first.partitions_total,
                 e.status().backend.c_str());
    uint32_t reported = 0;
    std::optional<engine::JobResult> r;
    while (!(r = e.await(info.job_id, std::chrono::milliseconds(500)))) {
        const auto now = e.peek(info.job_id);
        for (; reported < now.partitions_done; ++reported)
            std::fprintf(stderr, "[%7.1f s] partition %u of %u proven and verified\n", seconds(t0), reported + 1,
                         now.partitions_total);
    }
    if (r->state != engine::JobState::Completed) throw std::runtime_error("proving failed: " + r->error);
    for (; reported < r->partitions_done; ++reported)
        std::fprintf(stderr, "[%7.1f s] partition %u of %u proven and verified\n", seconds(t0), reported + 1,
                     r->partitions_total);
    formats::write_file_atomically(run.out, r->proof);
    std::printf("wrote %zu bytes (%u partitions) to %s in %.1f s (witness %.1f s, prove %.1f s, backend %s)\n",
                r->proof.size(), r->partitions_total, run.out.c_str(), seconds(t0), r->timings.witness / 1000,
                r->timings.prove / 1000, r->backend.c_str());
    return 0;
}

namespace {

struct SetupOptions {
    std::string sector_size, registered_proof, out_dir;
    uint64_t seed = 0;  // 0 = random toxic waste
    bool force = false;
};

int run_setup_porep(const SetupOptions& o) {
    const filecoin::PoRepConfig& cfg = choose_proof(o.sector_size, o.registered_proof);
    return write_dev_keys(engine::CircuitKey{kinds::porep_shape(uint64_t(cfg.proof))},
                          std::to_string(cfg.sector_size) + "-byte sectors, " +
                              std::to_string(cfg.challenges_per_partition) + " challenges a partition",
                          o.out_dir, o.seed, o.force);
}

struct ProveOptions {
    std::string c1, param_dir, backend = "auto", out = "proof.bin";
    bool no_check = false;
};

int run_prove_porep(const ProveOptions& o) {
    gpu::check_backend_name(o.backend);
    std::ifstream in(o.c1, std::ios::binary);
    if (!in) throw std::runtime_error(o.c1 + ": cannot open: " + std::strerror(errno));
    std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw std::runtime_error(o.c1 + ": cannot read: " + std::strerror(errno));
    engine::JobSpec spec;
    spec.kind = "porep-seal-commit";
    spec.c1_json = std::move(json);
    // The engine says "c1 output: ..."; the file is named instead.
    const std::string file = o.c1;
    EngineRun run{o.param_dir, o.backend, o.out, !o.no_check, [file](const std::string& what) {
                      constexpr std::string_view kTag = "c1 output";
                      return std::string_view(what).substr(0, kTag.size()) == kTag ? file + what.substr(kTag.size())
                                                                                   : what;
                  }};
    return prove_job(std::move(spec), run);
}

struct VerifyOptions {
    std::string proof, sector_size, registered_proof, comm_r, comm_d, replica_id, seed, param_dir;
    bool non_interactive = false;
};

int run_verify_porep(const VerifyOptions& o) {
    if (o.sector_size.empty() && o.registered_proof.empty())
        throw std::invalid_argument("give --sector-size or --registered-proof");
    const filecoin::PoRepConfig* cfg = nullptr;
    if (o.sector_size.empty()) {
        const auto p = filecoin::seal_proof_from_name(o.registered_proof);
        if (!p)
            throw std::invalid_argument("unknown registered proof '" + o.registered_proof +
                                        "' (e.g. StackedDrg2KiBV1_1)");
        cfg = &filecoin::porep_config(*p);
    } else {
        cfg = &choose_proof(o.sector_size, o.registered_proof, o.non_interactive);
    }
    // NI-PoRep's challenges come from comm_r: it takes no seed.
    const bool ni = cfg->kind == filecoin::PoRepKind::NonInteractivePoRep;
    if (!ni && o.seed.empty()) throw std::invalid_argument("--seed is required for interactive PoRep");
    const auto comm_r = hex32(o.comm_r, "--comm-r"), comm_d = hex32(o.comm_d, "--comm-d"),
               replica_id = hex32(o.replica_id, "--replica-id");
    const auto seed = ni && o.seed.empty() ? filecoin::Bytes32{} : hex32(o.seed, "--seed");
    // The proof's length first: a truncated file is named before any key is looked for.
    std::error_code ec;
    const uint64_t want = uint64_t(cfg->partitions) * formats::kProofBytes;
    const auto size = fs::file_size(o.proof, ec);
    if (ec) throw std::runtime_error(o.proof + ": cannot read (" + ec.message() + ")");
    if (size != want)
        throw std::runtime_error(o.proof + ": " + std::to_string(size) + " bytes, expected " + std::to_string(want) +
                                 " (" + std::string(cfg->name) + ": " + std::to_string(cfg->partitions) +
                                 " partition(s) of 192 bytes)" + (size < want ? ": truncated" : ""));
    const auto key = engine::CircuitKey{kinds::porep_shape(uint64_t(cfg->proof))};
    const fs::path vk_file = param_file(o.param_dir, key.vk_file_name());
    if (!fs::exists(vk_file, ec))
        throw std::runtime_error("no verifying key for " + std::string(cfg->name) + ": " + vk_file.string() +
                                 " does not exist" + where_from(o.param_dir));
    const auto proofs = formats::read_proofs(o.proof, cfg->partitions);
    const groth16::PreparedVerifyingKey pvk(formats::read_vk(vk_file));
    int bad = 0;
    for (unsigned k = 0; k < cfg->partitions; ++k) {
        const auto inputs = circuits::porep_public_inputs(cfg->proof, replica_id, comm_d, comm_r, seed, k);
        const auto v = groth16::verify(pvk, proofs[k], inputs);
        std::printf("partition %u: %s\n", k, v ? "valid" : ("INVALID: " + v.error).c_str());
        bad += !v;
    }
    std::printf("%s proof: %s\n", std::string(cfg->name).c_str(), bad ? "INVALID" : "valid");
    return bad ? 1 : 0;
}

}  // namespace

void add_porep_commands(CLI::App& app, std::vector<std::pair<CLI::App*, std::function<int()>>>& commands) {
    static SetupOptions so;
    static ProveOptions po;
    static VerifyOptions vo;
    std::vector<std::pair<CLI::App*, std::function<int()>>> mine;

    auto* setup = app.get_subcommand("setup")->add_subcommand(
        "porep", "Development keys for a PoRep circuit, written under Filecoin's v28 file names");
    setup->add_option("--sector-size", so.sector_size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB")->required();
    setup->add_option("--registered-proof", so.registered_proof, "A proof of this size (default <size>V1_1)");
    setup->add_option("--out-dir", so.out_dir,
                      "Directory (default: env FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters)");
    setup->add_option("--setup-seed", so.seed, "Reproducible toxic waste from this seed (default: random)");
    setup->add_flag("--force", so.force, "Overwrite existing files");
    mine.push_back({setup, [] { return run_setup_porep(so); }});

    auto* prove = app.get_subcommand("prove")->add_subcommand(
        "porep", "PoRep C2: prove a C1 output (every partition) with the keys in the parameter directory");
    prove->add_option("--c1", po.c1, "C1 output JSON (SealCommitPhase1Output)")->required();
    prove->add_option("--param-dir", po.param_dir,
                      "Parameter directory (default: env FIL_PROOFS_PARAMETER_CACHE, else "
                      "/var/tmp/filecoin-proof-parameters)");
    prove->add_option("--backend", po.backend, "cpu, cuda or auto")->capture_default_str();
    prove->add_option("--out", po.out, "Proof file: 192 bytes a partition, concatenated")->capture_default_str();
    prove->add_flag("--no-check-c1", po.no_check, "Skip the consistency check of the vanilla proofs");
    mine.push_back({prove, [] { return run_prove_porep(po); }});

    auto* verify = app.get_subcommand("verify")->add_subcommand(
        "porep", "Verify a PoRep proof from the sector's public values and the verifying key");
    verify->add_option("--proof", vo.proof, "Proof file (192 bytes a partition)")->required();
    verify->add_option("--sector-size", vo.sector_size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
    verify->add_option("--registered-proof", vo.registered_proof, "e.g. StackedDrg2KiBV1_1 (default <size>V1_1)");
    verify->add_option("--comm-r", vo.comm_r, "comm_r, 64 hex digits (the C1's bytes in order)")->required();
    verify->add_option("--comm-d", vo.comm_d, "comm_d, 64 hex digits")->required();
    verify->add_option("--replica-id", vo.replica_id, "replica_id, 64 hex digits")->required();
    verify->add_option("--seed", vo.seed, "interactive seed, 64 hex digits (not used by NI-PoRep)");
    verify->add_flag("--non-interactive", vo.non_interactive,
                     "NI-PoRep: StackedDrg<size>V1_2_Feat_NonInteractivePoRep (challenges from comm_r)");
    verify->add_option("--param-dir", vo.param_dir,
                       "Parameter directory (default: env FIL_PROOFS_PARAMETER_CACHE, else "
                       "/var/tmp/filecoin-proof-parameters)");
    mine.push_back({verify, [] { return run_verify_porep(vo); }});

    // Ahead of their parents: `cuzk setup porep` also marks `setup` as parsed.
    commands.insert(commands.begin(), mine.begin(), mine.end());
}

}  // namespace cuzk::cli
