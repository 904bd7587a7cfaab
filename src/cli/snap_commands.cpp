// SnapDeals from the command line: `cuzk snap encode|prove|verify`, `cuzk setup snap` and the
// synthetic vanilla proofs of `cuzk gen-vanilla --kind snap-deals-update`.
#include "snap_commands.hpp"

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
#include "cuzk/circuits/update.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/params.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/filecoin/update.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/kinds/kind.hpp"
#include "porep_commands.hpp"
#include "seal_commands.hpp"

namespace cuzk::cli {

using namespace cuzk::filecoin;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;
double seconds(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

const char* kParamDirHelp =
    "Parameter directory (default: env FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters)";

// The registered update proof of a sector size (2KiB, 8MiB, 512MiB, 32GiB, 64GiB).
const UpdateConfig& update_cfg(const std::string& size_text) {
    const uint64_t size = parse_sector_size(size_text);
    const UpdateConfig* c = update_config_for_sector_size(size);
    if (!c || !c->proof) throw std::invalid_argument("no registered update proof for " + size_text);
    return *c;
}

fs::path vanilla_file(const fs::path& dir, unsigned k) { return dir / ("vanilla-" + std::to_string(k) + ".bin"); }

// Writes vanilla-<k>.bin (bincode PartitionProof) for every partition and prints the
// commitments and h (the values `snap prove` and `snap verify` take).
void write_update(const SectorUpdate& u, const std::string& out_dir) {
    check_writable_dir(out_dir);
    const UpdateConfig& cfg = u.config();
    for (unsigned k = 0; k < cfg.partition_count; ++k) {
        const auto bytes = encode_update_partition_proof(u.partition_proof(k));
        formats::write_file_atomically(vanilla_file(out_dir, k), bytes);
    }
    const auto& pub = u.public_inputs();
    std::printf("registered_proof %s (%u partitions x %u challenges, h %u)\n", std::string(cfg.name).c_str(),
                cfg.partition_count, cfg.challenge_count, pub.h);
    std::printf("comm_r_old  %s\ncomm_r_new  %s\ncomm_d_new  %s\nh           %u\n", to_hex(pub.comm_r_old).c_str(),
                to_hex(pub.comm_r_new).c_str(), to_hex(pub.comm_d_new).c_str(), pub.h);
    std::printf("wrote %u vanilla proof(s) to %s/vanilla-<k>.bin\n", cfg.partition_count, out_dir.c_str());
}

struct EncodeOptions {
    std::string sector_size, out_dir, prover_id_hex, ticket_hex;
    uint64_t sector_id = 0, data_seed = 0, new_data_seed = 1;
    unsigned h = 0;
};

int run_encode(const EncodeOptions& o) {
    const UpdateConfig& ucfg = update_cfg(o.sector_size);
    if (ucfg.sector_size > (8ull << 20))
        throw std::invalid_argument("encoding holds the sector and its trees in memory: 2KiB or 8MiB; for " +
                                    o.sector_size + " use `cuzk gen-vanilla --kind snap-deals-update`");
    SealParams params;
    params.proof = choose_proof(o.sector_size, "").proof;
    params.sector_id = o.sector_id;
    if (!o.prover_id_hex.empty()) params.prover_id = hex32(o.prover_id_hex, "--prover-id-hex");
    if (!o.ticket_hex.empty()) params.ticket = hex32(o.ticket_hex, "--ticket-hex");
    const auto t0 = Clock::now();
    const PoRepConfig& pcfg = porep_config(params.proof);
    const SealedSector sector = SealedSector::seal(params, pseudo_random_sector_data(pcfg, o.data_seed));
    std::fprintf(stderr, "[%7.2f s] sealed (data seed %llu)\n", seconds(t0), (unsigned long long)o.data_seed);
    const SectorUpdate u = SectorUpdate::encode(sector, pseudo_random_sector_data(pcfg, o.new_data_seed), o.h);
    std::fprintf(stderr, "[%7.2f s] encoded the new data (seed %llu)\n", seconds(t0),
                 (unsigned long long)o.new_data_seed);
    update_verify_all(u.config(), u.public_inputs(), u.partition_proofs());
    write_update(u, o.out_dir);
    return 0;
}

struct CommOptions {
    std::string sector_size, comm_r_old, comm_r_new, comm_d_new, param_dir;
    unsigned h = 0;
    UpdatePublicInputs pub() const {
        return {hex32(comm_r_old, "--comm-r-old"), hex32(comm_d_new, "--comm-d-new"), hex32(comm_r_new, "--comm-r-new"),
                h};
    }
};

struct ProveOptions : CommOptions {
    std::string vanilla_dir, backend = "auto", out = "proof.bin";
};

std::vector<uint8_t> read_bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) throw std::runtime_error(p.string() + ": cannot open: " + std::strerror(errno));
    std::vector<uint8_t> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw std::runtime_error(p.string() + ": cannot read: " + std::strerror(errno));
    return b;
}

int run_prove(const ProveOptions& o) {
    gpu::check_backend_name(o.backend);
    const UpdateConfig& cfg = update_cfg(o.sector_size);
    const UpdatePublicInputs pub = o.pub();
    check_writable(o.out);
    engine::JobSpec spec;
    spec.kind = "snap-deals-update";
    spec.registered_proof = std::string(cfg.name);
    spec.comm_r_old.assign(pub.comm_r_old.begin(), pub.comm_r_old.end());
    spec.comm_r_new.assign(pub.comm_r_new.begin(), pub.comm_r_new.end());
    spec.comm_d_new.assign(pub.comm_d_new.begin(), pub.comm_d_new.end());
    spec.update_h = o.h;
    for (unsigned k = 0; k < cfg.partition_count; ++k)
        spec.vanilla_proofs.push_back(read_bytes(vanilla_file(o.vanilla_dir, k)));
    engine::EngineConfig ec;
    ec.backend = o.backend;
    ec.filecoin_param_dir = engine::filecoin_param_dir(o.param_dir);
    ec.allow_dev_params = false;  // the keys come from the parameter directory (`cuzk setup snap`)
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
        throw std::runtime_error(err.what());
    }
    std::fprintf(stderr, "%s: %u partition(s), backend %s\n", e.peek(info.job_id).circuit_id.c_str(),
                 cfg.partition_count, e.status().backend.c_str());
    std::optional<engine::JobResult> r;
    while (!(r = e.await(info.job_id, std::chrono::milliseconds(500)))) {
    }
    if (r->state != engine::JobState::Completed) throw std::runtime_error("proving failed: " + r->error);
    formats::write_file_atomically(o.out, r->proof);
    std::printf("wrote %zu bytes (%u partitions) to %s in %.1f s (witness %.1f s, prove %.1f s, backend %s)\n",
                r->proof.size(), r->partitions_total, o.out.c_str(), seconds(t0), r->timings.witness / 1000,
                r->timings.prove / 1000, r->backend.c_str());
    return 0;
}

struct VerifyOptions : CommOptions {
    std::string proof;
};

int run_verify(const VerifyOptions& o) {
    const UpdateConfig& cfg = update_cfg(o.sector_size);
    const UpdatePublicInputs pub = o.pub();
    std::error_code ec;
    const uint64_t want = uint64_t(cfg.partition_count) * formats::kProofBytes;
    const auto size = fs::file_size(o.proof, ec);
    if (ec) throw std::runtime_error(o.proof + ": cannot read (" + ec.message() + ")");
    if (size != want)
        throw std::runtime_error(o.proof + ": " + std::to_string(size) + " bytes, expected " + std::to_string(want) +
                                 " (" + std::string(cfg.name) + ": " + std::to_string(cfg.partition_count) +
                                 " partition(s) of 192 bytes)" + (size < want ? ": truncated" : ""));
    const fs::path vk_file = engine::filecoin_param_dir(o.param_dir) / update_vk_file_name(cfg);
    if (!fs::exists(vk_file, ec))
        throw std::runtime_error("no verifying key for the " + std::string(cfg.name) + " update: " + vk_file.string() +
                                 " does not exist (`cuzk setup snap`, or --param-dir)");
    const auto proofs = formats::read_proofs(o.proof, cfg.partition_count);
    const groth16::PreparedVerifyingKey pvk(formats::read_vk(vk_file));
    int bad = 0;
    for (unsigned k = 0; k < cfg.partition_count; ++k) {
        const auto v = groth16::verify(pvk, proofs[k], circuits::update_public_inputs(cfg, pub, k));
        std::printf("partition %u: %s\n", k, v ? "valid" : ("INVALID: " + v.error).c_str());
        bad += !v;
    }
    std::printf("%s update proof: %s\n", std::string(cfg.name).c_str(), bad ? "INVALID" : "valid");
    return bad ? 1 : 0;
}

struct SetupOptions {
    std::string sector_size, out_dir;
    uint64_t seed = 0;
    bool force = false;
};

}  // namespace

int run_snap_gen_vanilla(const std::string& sector_size, uint64_t seed, const std::string& out_dir) {
    const UpdateConfig& cfg = update_cfg(sector_size);
    const auto t0 = Clock::now();
    const SectorUpdate u = SectorUpdate::synthetic(cfg, seed);
    std::fprintf(stderr, "[%7.2f s] synthetic update (seed %llu)\n", seconds(t0), (unsigned long long)seed);
    write_update(u, out_dir);
    return 0;
}

void add_snap_commands(CLI::App& app, std::vector<std::pair<CLI::App*, std::function<int()>>>& commands) {
    static EncodeOptions eo;
    static ProveOptions po;
    static VerifyOptions vo;
    static SetupOptions so;
    std::vector<std::pair<CLI::App*, std::function<int()>>> mine;

    auto* snap = app.add_subcommand("snap", "SnapDeals (EmptySectorUpdate): encode a small sector, prove, verify");
    auto* encode = snap->add_subcommand(
        "encode", "Seal a small sector in memory, encode new data into it, write the vanilla proofs");
    encode->add_option("--sector-size", eo.sector_size, "2KiB or 8MiB")->required();
    encode->add_option("--out-dir", eo.out_dir, "Directory of the vanilla proofs (vanilla-<k>.bin)")->required();
    encode->add_option("--data-seed", eo.data_seed, "Seed of the sealed sector's pseudo-random data")
        ->capture_default_str();
    encode->add_option("--new-data-seed", eo.new_data_seed, "Seed of the new pseudo-random data")
        ->capture_default_str();
    encode->add_option("--sector-id", eo.sector_id, "Sector number")->capture_default_str();
    encode->add_option("--prover-id-hex", eo.prover_id_hex, "Prover id, 64 hex digits (default zeros)");
    encode->add_option("--ticket-hex", eo.ticket_hex, "Ticket, 64 hex digits (default zeros)");
    encode->add_option("--h", eo.h, "High bits of a challenge that pick rho (default: the size's, 1 or 10)");
    mine.push_back({encode, [] { return run_encode(eo); }});

    auto comm = [](CLI::App* c, CommOptions& o) {
        c->add_option("--sector-size", o.sector_size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB")->required();
        c->add_option("--comm-r-old", o.comm_r_old, "comm_r_old, 64 hex digits")->required();
        c->add_option("--comm-r-new", o.comm_r_new, "comm_r_new, 64 hex digits")->required();
        c->add_option("--comm-d-new", o.comm_d_new, "comm_d_new, 64 hex digits")->required();
        c->add_option("--h", o.h, "h (default: the size's)");
        c->add_option("--param-dir", o.param_dir, kParamDirHelp);
    };
    auto* prove =
        snap->add_subcommand("prove", "Prove every partition of an update with the keys of `cuzk setup snap`");
    comm(prove, po);
    prove->add_option("--vanilla-dir", po.vanilla_dir, "Directory of vanilla-<k>.bin (bincode PartitionProof)")
        ->required();
    prove->add_option("--backend", po.backend, "cpu, cuda or auto")->capture_default_str();
    prove->add_option("--out", po.out, "Proof file: 192 bytes a partition, concatenated")->capture_default_str();
    mine.push_back({prove, [] { return run_prove(po); }});

    auto* verify = snap->add_subcommand("verify", "Verify an update proof from its commitments and the verifying key");
    comm(verify, vo);
    verify->add_option("--proof", vo.proof, "Proof file (192 bytes a partition)")->required();
    mine.push_back({verify, [] { return run_verify(vo); }});

    auto* setup = app.get_subcommand("setup")->add_subcommand(
        "snap", "Development keys for a SnapDeals circuit, written under Filecoin's v28 empty-sector-update names");
    setup->add_option("--sector-size", so.sector_size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB")->required();
    setup->add_option("--out-dir", so.out_dir,
                      "Directory (default: env FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters)");
    setup->add_option("--setup-seed", so.seed, "Reproducible toxic waste from this seed (default: random)");
    setup->add_flag("--force", so.force, "Overwrite existing files");
    mine.push_back({setup, [] {
                        const UpdateConfig& cfg = update_cfg(so.sector_size);
                        const auto shape = kinds::Registry::all()->shape("snap-deals-update-" + std::string(cfg.name),
                                                                         kinds::Limits{});
                        return write_dev_keys(engine::CircuitKey{shape},
                                              std::to_string(cfg.sector_size) + "-byte sectors, " +
                                                  std::to_string(cfg.challenge_count) + " challenges a partition",
                                              so.out_dir, so.seed, so.force);
                    }});

    // Ahead of their parents: `cuzk snap encode` also marks `snap` as parsed.
    commands.insert(commands.begin(), mine.begin(), mine.end());
}

}  // namespace cuzk::cli
