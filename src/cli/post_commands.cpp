#include "post_commands.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "cli_util.hpp"
#include "cuzk/backend/backend.hpp"
#include "cuzk/circuits/post.hpp"
#include "cuzk/common/parallel.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/params.hpp"
#include "cuzk/filecoin/post.hpp"
#include "cuzk/filecoin/registry.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/hash/sha256.hpp"
#include "cuzk/kinds/kind.hpp"
#include "porep_commands.hpp"
#include "seal_commands.hpp"

namespace cuzk::cli {

using namespace cuzk::filecoin;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;
double seconds(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

PoStType post_type(const std::string& kind) {
    if (kind == "window-post") return PoStType::Window;
    if (kind == "winning-post") return PoStType::Winning;
    throw std::invalid_argument("--kind '" + kind + "': expected window-post or winning-post");
}
const char* kind_name(PoStType t) { return t == PoStType::Window ? "window-post" : "winning-post"; }

// The registered proof: --registered-proof if given (of this kind and size), else the newest
// of the size (Window: StackedDrgWindow<size>V1_2; Winning: StackedDrgWinning<size>V1).
const PoStConfig& choose_post_proof(PoStType type, const std::string& size_text, const std::string& name) {
    const uint64_t size = size_text.empty() ? 0 : parse_sector_size(size_text);
    if (!name.empty()) {
        const auto p = post_proof_from_name(name);
        if (!p)
            throw std::invalid_argument("unknown registered PoSt proof '" + name +
                                        "' (e.g. StackedDrgWindow2KiBV1_2, StackedDrgWinning2KiBV1)");
        const PoStConfig& c = post_config(*p);
        if (c.type != type)
            throw std::invalid_argument("registered proof " + name + " is not a " + kind_name(type) + " proof");
        if (size && c.sector_size != size)
            throw std::invalid_argument("registered proof " + name + " is for " + std::to_string(c.sector_size) +
                                        "-byte sectors, not " + size_text);
        return c;
    }
    if (!size) throw std::invalid_argument("give --sector-size or --registered-proof");
    const PoStConfig* best = nullptr;
    for (uint64_t id = 0; id < kRegisteredPoStProofCount; ++id) {
        const PoStConfig& c = post_config(RegisteredPoStProof(id));
        if (c.type == type && c.sector_size == size && (!best || c.api_version > best->api_version)) best = &c;
    }
    if (!best) throw std::logic_error("no PoSt proof for this size");
    return *best;
}

std::shared_ptr<const kinds::Shape> post_shape(const PoStConfig& cfg) {
    return kinds::Registry::all()->shape(std::string(kind_name(cfg.type)) + "-" + std::string(cfg.name),
                                         kinds::Limits{});
}

// The sector index that challenges position i of the request (Window: across partitions).
uint64_t sector_index(const PoStConfig& cfg, uint32_t partition, size_t i) {
    return cfg.type == PoStType::Window ? uint64_t(partition) * cfg.sector_count + i : 0;
}

void verify_vanilla(const PoStConfig& cfg, const Bytes32& randomness, uint32_t partition,
                    const std::vector<FallbackPoStSectorProof>& sectors) {
    if (cfg.type == PoStType::Window)
        post_verify_window_partition(cfg, randomness, partition, sectors);
    else
        post_verify_winning(cfg, randomness, sectors);
}

// The file's vanilla proofs, decoded; errors name the file and the field.
std::vector<FallbackPoStSectorProof> decode_sectors(const PoStRequestFile& f, const std::string& file) {
    const PoStConfig& cfg = post_config(f.proof);
    std::vector<FallbackPoStSectorProof> out;
    out.reserve(f.vanilla_proofs.size());
    for (size_t i = 0; i < f.vanilla_proofs.size(); ++i)
        out.push_back(
            decode_post_sector_proof(cfg, f.vanilla_proofs[i], file + ": vanilla_proofs[" + std::to_string(i) + "]"));
    return out;
}

void print_request(const PoStRequestFile& f) {
    const PoStConfig& cfg = post_config(f.proof);
    std::printf("registered_proof %s (id %llu, %s)\n", std::string(cfg.name).c_str(), (unsigned long long)f.proof,
                kind_name(cfg.type));
    std::printf("randomness       %s\n", to_hex(f.randomness).c_str());
    std::printf("miner_id         %llu\n", (unsigned long long)f.miner_id);
    std::printf("partition_index  %u\n", f.partition_index);
    std::printf("sectors          %zu\n", f.vanilla_proofs.size());
}

struct SetupOptions {
    std::string kind, sector_size, registered_proof, out_dir;
    uint64_t seed = 0;
    bool force = false;
};

int run_setup_post(const SetupOptions& o) {
    const PoStConfig& cfg = choose_post_proof(post_type(o.kind), o.sector_size, o.registered_proof);
    return write_dev_keys(engine::CircuitKey{post_shape(cfg)},
                          std::to_string(cfg.sector_size) + "-byte sectors, " + std::to_string(cfg.circuit_sectors) +
                              " sectors x " + std::to_string(cfg.circuit_challenges) + " challenges",
                          o.out_dir, o.seed, o.force);
}

struct ProveOptions {
    std::string vanilla, param_dir, backend = "auto", out = "proof.bin";
};

int run_prove_post(const ProveOptions& o) {
    gpu::check_backend_name(o.backend);
    PoStRequestFile f = read_post_request_file(o.vanilla);
    const PoStConfig& cfg = post_config(f.proof);
    engine::JobSpec spec;
    spec.kind = kind_name(cfg.type);
    spec.registered_proof = std::string(cfg.name);
    spec.randomness.assign(f.randomness.begin(), f.randomness.end());
    spec.miner_id = f.miner_id;
    spec.partition_index = f.partition_index;
    spec.vanilla_proofs = std::move(f.vanilla_proofs);
    EngineRun run{o.param_dir, o.backend, o.out, true,
                  [file = o.vanilla](const std::string& what) { return file + ": " + what; }};
    return prove_job(std::move(spec), run);
}

struct VerifyOptions {
    std::string proof, vanilla, randomness, param_dir;
};

int run_verify_post(const VerifyOptions& o) {
    const PoStRequestFile f = read_post_request_file(o.vanilla);
    const PoStConfig& cfg = post_config(f.proof);
    const Bytes32 randomness = o.randomness.empty() ? f.randomness : hex32(o.randomness, "--randomness");
    if (!Fr::from_bytes_le(randomness.data()))
        throw std::invalid_argument((o.randomness.empty() ? o.vanilla + ": randomness" : std::string("--randomness")) +
                                    ": not a canonical field element (as_safe_commitment refuses it)");
    // The public values only: the sector ids and comm_r's (the paths are not looked at).
    const auto sectors = decode_sectors(f, o.vanilla);
    std::error_code ec;
    const auto size = fs::file_size(o.proof, ec);
    if (ec) throw std::runtime_error(o.proof + ": cannot read (" + ec.message() + ")");
    if (size != formats::kProofBytes)
        throw std::runtime_error(o.proof + ": " + std::to_string(size) + " bytes, expected " +
                                 std::to_string(formats::kProofBytes) + " (one partition)" +
                                 (size < formats::kProofBytes ? ": truncated" : ""));
    const auto shape = post_shape(cfg);
    const fs::path vk_file = param_file(o.param_dir, shape->vk_file_name());
    if (!fs::exists(vk_file, ec))
        throw std::runtime_error("no verifying key for " + std::string(cfg.name) + ": " + vk_file.string() +
                                 " does not exist" + where_from(o.param_dir));
    std::vector<circuits::PoStPublicSector> pub;
    for (const auto& s : sectors) pub.push_back({s.sector_id, s.comm_r});
    const auto inputs = cfg.type == PoStType::Window
                            ? circuits::window_post_public_inputs(cfg, randomness, f.partition_index, pub)
                            : circuits::winning_post_public_inputs(cfg, randomness, pub.at(0));
    const auto proofs = formats::read_proofs(o.proof, 1);
    const groth16::PreparedVerifyingKey pvk(formats::read_vk(vk_file));
    const auto v = groth16::verify(pvk, proofs[0], inputs);
    std::printf("%s proof (%s, %zu sectors, partition %u): %s\n", kind_name(cfg.type), std::string(cfg.name).c_str(),
                sectors.size(), f.partition_index, v ? "valid" : ("INVALID: " + v.error).c_str());
    return v ? 0 : 1;
}

}  // namespace

int run_gen_vanilla_post(const PoStGenOptions& o) {
    const PoStType type = post_type(o.kind);
    const PoStConfig& cfg = choose_post_proof(type, o.sector_size, o.registered_proof);
    const uint32_t most = type == PoStType::Window ? cfg.sector_count : 1;
    const uint32_t n = o.sectors ? o.sectors : most;
    if (n > most)
        throw std::invalid_argument("--sectors " + std::to_string(n) + ": " + std::string(cfg.name) + " takes 1 to " +
                                    std::to_string(most) + " sectors a partition");
    if (type == PoStType::Winning && o.partition_index)
        throw std::invalid_argument("--partition-index: a Winning PoSt has one partition (0)");
    if (o.sealed && cfg.sector_size > (512ull << 20))
        throw std::invalid_argument("--sealed holds each sector in memory: 2KiB, 8MiB or 512MiB; for " +
                                    std::string(cfg.name) + " leave it out (synthetic vanilla proofs)");
    check_writable(o.out);
    PoStRequestFile f;
    f.proof = cfg.proof;
    f.miner_id = o.miner_id;
    f.partition_index = o.partition_index;
    if (o.randomness_hex.empty()) {
        // From the seed; the top two bits cleared: a canonical field element.
        Sha256 h;
        const std::string tag = "cuzk gen-vanilla randomness " + std::to_string(o.seed);
        h.update({reinterpret_cast<const uint8_t*>(tag.data()), tag.size()});
        f.randomness = h.final();
        f.randomness[31] &= 0x3f;
    } else {
        f.randomness = hex32(o.randomness_hex, "--randomness-hex");
        if (!Fr::from_bytes_le(f.randomness.data()))
            throw std::invalid_argument(
                "--randomness-hex: not a canonical field element (little-endian, below the BLS12-381 scalar modulus)");
    }
    const auto t0 = Clock::now();
    std::vector<FallbackPoStSectorProof> sectors(n);
    if (o.sealed) {
        const PoRepConfig& seal = choose_proof(std::to_string(cfg.sector_size), "");
        for (uint32_t i = 0; i < n; ++i) {
            SealParams params;
            params.proof = seal.proof;
            params.sector_id = o.first_sector_id + i;
            const SealedSector sector = SealedSector::seal(params, pseudo_random_sector_data(seal, o.seed + i));
            sectors[i] = post_vanilla_proof(cfg, sector, params.sector_id, f.randomness,
                                            sector_index(cfg, f.partition_index, i));
            std::fprintf(stderr, "[%7.2f s] sealed sector %llu (%u of %u)\n", seconds(t0),
                         (unsigned long long)params.sector_id, i + 1, n);
        }
    } else {
        parallel_for(0, n, 1, [&](size_t b, size_t e) {
            for (size_t i = b; i < e; ++i)
                sectors[i] = synthetic_post_vanilla_proof(cfg, o.seed, o.first_sector_id + i, f.randomness,
                                                          sector_index(cfg, f.partition_index, i));
        });
        std::fprintf(stderr, "[%7.2f s] %u synthetic vanilla proofs\n", seconds(t0), n);
    }
    if (!o.no_check) {
        verify_vanilla(cfg, f.randomness, f.partition_index, sectors);
        std::fprintf(stderr, "[%7.2f s] the vanilla proofs verify\n", seconds(t0));
    }
    f.vanilla_proofs.reserve(n);
    for (const auto& s : sectors) f.vanilla_proofs.push_back(encode_post_sector_proof(s));
    const auto bytes = encode_post_request_file(f);
    formats::write_file_atomically(o.out, bytes);
    print_request(f);
    std::printf("wrote %zu bytes to %s\n", bytes.size(), o.out.c_str());
    return 0;
}

void add_post_commands(CLI::App& app, std::vector<std::pair<CLI::App*, std::function<int()>>>& commands) {
    static SetupOptions so;
    static ProveOptions po;
    static VerifyOptions vo;
    std::vector<std::pair<CLI::App*, std::function<int()>>> mine;
    const std::string param_dir_help =
        "Parameter directory (default: env FIL_PROOFS_PARAMETER_CACHE, else /var/tmp/filecoin-proof-parameters)";

    auto* setup = app.get_subcommand("setup")->add_subcommand(
        "post", "Development keys for a Window or Winning PoSt circuit, written under Filecoin's v28 file names");
    setup->add_option("--kind", so.kind, "window-post or winning-post")->required();
    setup->add_option("--sector-size", so.sector_size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
    setup->add_option("--registered-proof", so.registered_proof,
                      "e.g. StackedDrgWindow2KiBV1_2 (default: Window <size>V1_2, Winning <size>V1)");
    setup->add_option("--out-dir", so.out_dir, "Directory (default: the parameter directory)");
    setup->add_option("--setup-seed", so.seed, "Reproducible toxic waste from this seed (default: random)");
    setup->add_flag("--force", so.force, "Overwrite existing files");
    mine.push_back({setup, [] { return run_setup_post(so); }});

    auto* prove = app.get_subcommand("prove")->add_subcommand(
        "post", "Window or Winning PoSt: prove a PoSt request file with the keys in the parameter directory");
    prove->add_option("--vanilla", po.vanilla, "PoSt request file (cuzk gen-vanilla --kind ...)")->required();
    prove->add_option("--param-dir", po.param_dir, param_dir_help);
    prove->add_option("--backend", po.backend, "cpu, cuda or auto")->capture_default_str();
    prove->add_option("--out", po.out, "Proof file: 192 bytes")->capture_default_str();
    mine.push_back({prove, [] { return run_prove_post(po); }});

    auto* verify = app.get_subcommand("verify")->add_subcommand(
        "post", "Verify a PoSt proof from the request file's public values (randomness, sector ids, comm_r's)");
    verify->add_option("--proof", vo.proof, "Proof file (192 bytes)")->required();
    verify->add_option("--vanilla", vo.vanilla, "The PoSt request file the proof was made from")->required();
    verify->add_option("--randomness", vo.randomness, "Check against this randomness instead (64 hex digits)");
    verify->add_option("--param-dir", vo.param_dir, param_dir_help);
    mine.push_back({verify, [] { return run_verify_post(vo); }});

    // Ahead of their parents: `cuzk setup post` also marks `setup` as parsed.
    commands.insert(commands.begin(), mine.begin(), mine.end());
}

}  // namespace cuzk::cli
