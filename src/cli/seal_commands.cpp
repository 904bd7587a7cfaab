#include "seal_commands.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "cli_util.hpp"
#include "cuzk/filecoin/c1.hpp"
#include "cuzk/filecoin/registry.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "post_commands.hpp"
#include "snap_commands.hpp"

namespace cuzk::cli {

using namespace cuzk::filecoin;

// "2KiB" (any case), or the byte count.
uint64_t parse_sector_size(const std::string& s) {
    std::string l;
    for (char c : s) l.push_back(char(std::tolower(static_cast<unsigned char>(c))));
    static const std::pair<const char*, uint64_t> kNames[] = {{"2kib", 2ull << 10},
                                                              {"8mib", 8ull << 20},
                                                              {"512mib", 512ull << 20},
                                                              {"32gib", 32ull << 30},
                                                              {"64gib", 64ull << 30}};
    for (const auto& [name, size] : kNames)
        if (l == name || l == std::to_string(size)) return size;
    throw std::invalid_argument("unknown sector size '" + s + "': expected 2KiB, 8MiB, 512MiB, 32GiB or 64GiB");
}

const PoRepConfig& choose_proof(const std::string& size_text, const std::string& name, bool non_interactive) {
    const uint64_t size = parse_sector_size(size_text);
    if (name.empty()) {
        const PoRepKind kind = non_interactive ? PoRepKind::NonInteractivePoRep : PoRepKind::Interactive;
        const ApiVersion version = non_interactive ? ApiVersion::V1_2_0 : ApiVersion::V1_1_0;
        for (uint64_t id = 0; id < kRegisteredSealProofCount; ++id) {
            const PoRepConfig& c = porep_config(RegisteredSealProof(id));
            if (c.sector_size == size && c.api_version == version && c.kind == kind) return c;
        }
        throw std::logic_error("no registered proof of this kind for this size");
    }
    const auto proof = seal_proof_from_name(name);
    if (!proof) throw std::invalid_argument("unknown registered proof '" + name + "' (e.g. StackedDrg2KiBV1_1)");
    const PoRepConfig& c = porep_config(*proof);
    if (c.sector_size != size)
        throw std::invalid_argument("registered proof " + name + " is for " + std::to_string(c.sector_size) +
                                    "-byte sectors, not " + size_text);
    if (non_interactive && c.kind != PoRepKind::NonInteractivePoRep)
        throw std::invalid_argument("--non-interactive: registered proof " + name +
                                    " is not NI-PoRep (e.g. StackedDrg2KiBV1_2_Feat_NonInteractivePoRep)");
    return c;
}

namespace {

using Clock = std::chrono::steady_clock;

struct SealOptions {
    std::string sector_size, registered_proof, data_file, out;
    std::string prover_id_hex, ticket_hex, seed_hex;
    uint64_t sector_id = 0, data_seed = 0;
    bool no_check = false, non_interactive = false;
};

struct GenOptions {
    std::string kind = "porep-seal-commit", sector_size, registered_proof, out;
    uint64_t seed = 0;
    bool no_check = false;
};

Bytes32 hex_option(const std::string& hex, const char* option) {
    if (hex.empty()) return Bytes32{};
    const auto b = bytes32_from_hex(hex);
    if (!b) throw std::invalid_argument(std::string(option) + ": expected 64 hex digits (32 bytes), got '" + hex + "'");
    return *b;
}

ProgressFn progress_printer() {
    const auto t0 = Clock::now();
    return [t0](const std::string& line) {
        std::fprintf(stderr, "[%7.2f s] %s\n", std::chrono::duration<double>(Clock::now() - t0).count(), line.c_str());
    };
}

void write_c1(const SealCommitPhase1Output& c1, const std::string& path, const ProgressFn& progress) {
    progress("writing " + path);
    const std::string text = write_c1_output(c1);
    formats::write_file_atomically(path, {reinterpret_cast<const uint8_t*>(text.data()), text.size()});
    progress("wrote " + std::to_string(text.size()) + " bytes");
}

void print_summary(const SealCommitPhase1Output& c1) {
    const PoRepConfig& cfg = porep_config(c1.registered_proof);
    std::printf("registered_proof %s (%u partitions x %u challenges)\n", std::string(cfg.name).c_str(), cfg.partitions,
                cfg.challenges_per_partition);
    std::printf("comm_d      %s\n", to_hex(c1.comm_d).c_str());
    std::printf("comm_r      %s\n", to_hex(c1.comm_r).c_str());
    std::printf("replica_id  %s\n", to_hex(c1.replica_id).c_str());
    std::printf("seed        %s\n", to_hex(c1.seed).c_str());
}

int run_seal(const SealOptions& o) {
    const PoRepConfig& cfg = choose_proof(o.sector_size, o.registered_proof, o.non_interactive);
    if (cfg.sector_size > (512ull << 20))
        throw std::invalid_argument("sealing holds the whole sector in memory: 2KiB, 8MiB or 512MiB; for " +
                                    o.sector_size + " use `cuzk gen-vanilla` (synthetic vanilla proofs)");
    if (cfg.kind == PoRepKind::SyntheticPoRep)
        throw std::invalid_argument(std::string(cfg.name) + ": synthetic PoRep is not supported");
    SealParams params;
    params.proof = cfg.proof;
    check_writable(o.out);
    params.prover_id = hex_option(o.prover_id_hex, "--prover-id-hex");
    params.ticket = hex_option(o.ticket_hex, "--ticket-hex");
    params.sector_id = o.sector_id;
    const Bytes32 seed = hex_option(o.seed_hex, "--seed-hex");
    const ProgressFn progress = progress_printer();

    std::vector<uint8_t> data;
    if (!o.data_file.empty()) {
        std::error_code ec;
        const uint64_t size = std::filesystem::file_size(o.data_file, ec);
        if (ec) throw std::runtime_error(o.data_file + ": cannot read the data file: " + ec.message());
        if (size > cfg.sector_size)
            throw std::runtime_error(o.data_file + ": " + std::to_string(size) + " bytes of data do not fit a " +
                                     std::to_string(cfg.sector_size) + "-byte sector");
        std::ifstream in(o.data_file, std::ios::binary);
        if (!in) throw std::runtime_error(o.data_file + ": cannot open the data file: " + std::strerror(errno));
        const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        data = sector_data_from_bytes(cfg, bytes);
        progress("data: " + std::to_string(bytes.size()) + " bytes from " + o.data_file +
                 (bytes.size() == cfg.sector_size ? " (fr32-padded)" : " (fr32-padded here, zero-filled)"));
    } else {
        data = pseudo_random_sector_data(cfg, o.data_seed);
        progress("data: pseudo-random, seed " + std::to_string(o.data_seed));
    }
    const SealedSector sector = SealedSector::seal(params, std::move(data), progress);
    const SealCommitPhase1Output c1 = sector.commit_phase1(seed, progress);
    if (!o.no_check) {
        progress("checking the C1 output");
        check_c1_consistency(c1, o.out);
    }
    write_c1(c1, o.out, progress);
    print_summary(c1);
    std::printf("comm_c      %s\ncomm_r_last %s\n", to_hex(sector.commitments().comm_c).c_str(),
                to_hex(sector.commitments().comm_r_last).c_str());
    return 0;
}

int run_gen_vanilla(const GenOptions& o) {
    if (o.kind == "snap-deals-update") return run_snap_gen_vanilla(o.sector_size, o.seed, o.out);
    if (o.kind != "porep-seal-commit")
        throw std::invalid_argument("--kind '" + o.kind + "': expected porep-seal-commit or snap-deals-update");
    const PoRepConfig& cfg = choose_proof(o.sector_size, o.registered_proof);
    check_writable(o.out);
    const ProgressFn progress = progress_printer();
    const SealCommitPhase1Output c1 = synthetic_c1(cfg.proof, o.seed, progress);
    if (!o.no_check) {
        progress("checking the C1 output");
        check_c1_consistency(c1, o.out);
    }
    write_c1(c1, o.out, progress);
    print_summary(c1);
    return 0;
}

int run_check_c1(const std::string& file) {
    const auto t0 = Clock::now();
    const SealCommitPhase1Output c1 = read_c1_output_file(file);
    check_c1_consistency(c1, file);
    print_summary(c1);
    std::printf("%s: consistent (%.2f s)\n", file.c_str(), std::chrono::duration<double>(Clock::now() - t0).count());
    return 0;
}

}  // namespace

void add_seal_commands(CLI::App& app, std::vector<std::pair<CLI::App*, std::function<int()>>>& commands) {
    static SealOptions s;
    static GenOptions g;
    static PoStGenOptions pg;
    static std::string gen_kind = "porep";
    static std::string check_file;

    auto* seal = app.add_subcommand("seal", "Seal a small sector in memory and write its C1 output (vanilla proofs)");
    seal->add_option("--sector-size", s.sector_size, "2KiB, 8MiB or 512MiB")->required();
    seal->add_option("--registered-proof", s.registered_proof,
                     "e.g. StackedDrg2KiBV1 or StackedDrg2KiBV1_2_Feat_NonInteractivePoRep (default: <size>V1_1)");
    seal->add_option("--data", s.data_file,
                     "Sector data: exactly sector-size bytes (fr32-padded) or at most 127/128 of it (padded here); "
                     "default: pseudo-random");
    seal->add_option("--data-seed", s.data_seed, "Seed of the pseudo-random data")->capture_default_str();
    seal->add_option("--prover-id-hex", s.prover_id_hex, "Prover id, 64 hex digits (default zeros)");
    seal->add_option("--sector-id", s.sector_id, "Sector number")->capture_default_str();
    seal->add_option("--ticket-hex", s.ticket_hex, "Ticket, 64 hex digits (default zeros)");
    seal->add_flag("--non-interactive", s.non_interactive,
                   "NI-PoRep (FIP-0090): StackedDrg<size>V1_2_Feat_NonInteractivePoRep, 13 partitions at test "
                   "sizes, challenges from comm_r");
    seal->add_option("--seed-hex", s.seed_hex,
                     "Interactive seed, 64 hex digits (default zeros); NI-PoRep carries it in the C1 without using "
                     "it, but rust-fil-proofs' C2 refuses an all-zero seed");
    seal->add_option("--out", s.out, "C1 output JSON file")->required();
    seal->add_flag("--no-check", s.no_check, "Skip the consistency check of the output");
    commands.push_back({seal, [] { return run_seal(s); }});

    auto* gen = app.add_subcommand(
        "gen-vanilla",
        "Vanilla proofs for any sector size: a synthetic but consistent C1 output (porep), a PoSt request file "
        "(window-post, winning-post) from synthetic or sealed sectors, or SnapDeals partition proofs "
        "(snap-deals-update)");
    gen->add_option("--kind", gen_kind,
                    "porep (or porep-seal-commit: a C1 output JSON), window-post, winning-post (a PoSt request file) "
                    "or snap-deals-update (--out is a directory: vanilla-<k>.bin per partition, the commitments on "
                    "stdout)")
        ->capture_default_str();
    gen->add_option("--sector-size", g.sector_size, "2KiB, 8MiB, 512MiB, 32GiB or 64GiB")->required();
    gen->add_option("--registered-proof", g.registered_proof,
                    "A proof of this size and kind (default: porep <size>V1_1, Window <size>V1_2, Winning <size>V1)");
    gen->add_option("--seed", g.seed, "Seed of every pseudo-random value")->capture_default_str();
    gen->add_option("--out", g.out, "Output: C1 output JSON (porep), PoSt request file (PoSt)")->required();
    gen->add_flag("--no-check", g.no_check, "Skip the consistency check of the output");
    const char* post_only = "PoSt";
    gen->add_option("--sectors", pg.sectors,
                    "Window PoSt: sectors in the partition (default: a full partition, 2349 at 32GiB)")
        ->check(in_range(1, 1u << 20))
        ->group(post_only);
    gen->add_option("--partition-index", pg.partition_index, "Window PoSt: the partition")->group(post_only);
    gen->add_option("--sector-id", pg.first_sector_id, "First sector number (the others follow)")
        ->capture_default_str()
        ->group(post_only);
    gen->add_option("--miner-id", pg.miner_id, "Miner actor id")->capture_default_str()->group(post_only);
    gen->add_option("--randomness-hex", pg.randomness_hex,
                    "Challenge randomness, 64 hex digits, a canonical field element (default: from --seed)")
        ->group(post_only);
    gen->add_flag("--sealed", pg.sealed,
                  "Seal each sector in memory and prove from its tree R (2KiB, 8MiB, 512MiB; default: synthetic)")
        ->group(post_only);
    commands.push_back(
        {gen, [gen] {
             if (gen_kind == "porep" || gen_kind == "porep-seal-commit" || gen_kind == "snap-deals-update") {
                 for (const char* opt :
                      {"--sectors", "--partition-index", "--sector-id", "--miner-id", "--randomness-hex", "--sealed"})
                     if (gen->count(opt))
                         throw std::invalid_argument(std::string(opt) + " is for --kind window-post or winning-post");
                 g.kind = gen_kind == "porep" ? "porep-seal-commit" : gen_kind;
                 return run_gen_vanilla(g);
             }
             if (gen_kind != "window-post" && gen_kind != "winning-post")
                 throw std::invalid_argument("--kind '" + gen_kind +
                                             "': expected porep, window-post, winning-post or snap-deals-update");
             pg.kind = gen_kind;
             pg.sector_size = g.sector_size;
             pg.registered_proof = g.registered_proof;
             pg.seed = g.seed;
             pg.out = g.out;
             pg.no_check = g.no_check;
             return run_gen_vanilla_post(pg);
         }});

    auto* check = app.add_subcommand("check-c1", "Parse a C1 output JSON file and check its vanilla proofs");
    check->add_option("file", check_file, "The C1 output JSON")->required();
    commands.push_back({check, [] { return run_check_c1(check_file); }});
}

}  // namespace cuzk::cli
