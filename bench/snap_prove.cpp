// Proving SnapDeals (EmptySectorUpdate) sectors per size from synthetic vanilla proofs,
// streamed through the engine as the daemon proves them (bench/engine_sectors.hpp, shared with
// cuzk_bench_porep_prove --engine 1): the witness of partition k+1 is synthesized while
// partition k is proved. Reports seconds a sector (and a partition) and the device's busy share
// of the sector's wall time. Backend-generic: --backend cpu builds and runs in the CPU build;
// cuda on the GPU machine (`scripts/gpu bench snap`).
//
//   build/cuda/bench/cuzk_bench_snap_prove --sizes 32GiB --out snap_prove.json     (16 x 81 M)
//   build/dev/bench/cuzk_bench_snap_prove --backend cpu --sizes 2KiB --keys dev    (verified, no GPU)
//
// Keys (--keys): timing (default) are TIMING-ONLY (bench/timing_keys.hpp: the real circuit
// shape from the engine's counting pass, fake parameters; verification off: THE PROOFS DO NOT
// VERIFY); dev are the engine's development keys (its setup, cached in --param-cache, minutes
// on 2 cores at 2 KiB; not part of the figures): the engine verifies every proof.
// Per size: the synthetic update (filecoin::SectorUpdate::synthetic: periodic sector key and
// data, every tree computed from its few distinct subtrees), its vanilla proofs verified and
// encoded as the request's bincode; the keys loaded (outside the sectors); on a GPU a warm-up
// sector (its first proof uploads the bases), then --reps timed sectors, their median.
// --witness-only 1 instead builds each partition's circuit and witness one after the other,
// without the engine (--partitions of them).
// The sector time compares with a 32 GiB PoRep sector (cuzk_bench_porep_prove --engine 1)
// measured in the same call on the same card (issue target: SnapDeals <= 1.3x PoRep C2).
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/backend/backend.hpp"
#include "cuzk/circuits/update.hpp"
#include "cuzk/filecoin/update.hpp"
#include "cuzk/gpu/device.hpp"
#include "cuzk/groth16/prover.hpp"
#include "engine_sectors.hpp"
#include "timing_keys.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::bench;
using circuits::EmptySectorUpdateCircuit;

struct Args : RunArgs {
    std::vector<std::string> sizes{"2KiB"};
    unsigned partitions = 0;  // --witness-only: 0, every partition of the sector
    bool witness_only = false;
    SectorKeys keys = SectorKeys::Timing;
    std::string param_cache = "/var/tmp/cuzk-bench-snap-keys";
    unsigned witness_workers = 0;  // 0: the engine's default
    unsigned prove_workers = 0;    // per device (and on the CPU); 0: the engine's default
};

struct Result {
    std::string size, status = "ok";
    unsigned partitions = 0;
    double synthetic_ms = 0, verify_ms = 0, load_ms = 0;
    EngineSector warm;
    std::vector<EngineSector> timed;
    std::vector<double> witness_ms;  // --witness-only: per partition
    double median_wall_ms() const {
        std::vector<double> v;
        for (const auto& x : timed) v.push_back(x.wall_ms);
        return v.empty() ? 0 : median(v);
    }
    double median_busy_pct() const {
        std::vector<double> v;
        for (const auto& x : timed) v.push_back(x.busy_pct());
        return v.empty() ? 0 : median(v);
    }
};

uint64_t sector_bytes(const std::string& s) {
    static const std::pair<const char*, uint64_t> kSizes[] = {{"2KiB", 2ull << 10},
                                                              {"8MiB", 8ull << 20},
                                                              {"512MiB", 512ull << 20},
                                                              {"32GiB", 32ull << 30},
                                                              {"64GiB", 64ull << 30}};
    for (const auto& [name, bytes] : kSizes)
        if (s == name) return bytes;
    throw std::invalid_argument("unknown size " + s + " (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)");
}

// The request of the whole sector, as Curio sends it: commitments and one bincode partition proof a
// partition.
engine::JobSpec snap_spec(const filecoin::UpdateConfig& cfg, const filecoin::SectorUpdate& u,
                          const std::vector<filecoin::UpdatePartitionProof>& proofs) {
    engine::JobSpec s;
    s.kind = "snap-deals-update";
    s.registered_proof = std::string(cfg.name);
    const auto& pub = u.public_inputs();
    s.comm_r_old.assign(pub.comm_r_old.begin(), pub.comm_r_old.end());
    s.comm_r_new.assign(pub.comm_r_new.begin(), pub.comm_r_new.end());
    s.comm_d_new.assign(pub.comm_d_new.begin(), pub.comm_d_new.end());
    s.update_h = pub.h;
    for (const auto& p : proofs) s.vanilla_proofs.push_back(filecoin::encode_update_partition_proof(p));
    return s;
}

// --witness-only: each partition's circuit and witness, one after the other, no engine.
void run_witnesses(const Args& args, const filecoin::UpdateConfig& cfg, const filecoin::SectorUpdate& u,
                   const std::vector<filecoin::UpdatePartitionProof>& proofs, Result& r) {
    for (unsigned k = 0; k < proofs.size(); ++k) {
        auto t0 = Clock::now();
        auto circuit = circuits::make_update_circuit(
            EmptySectorUpdateCircuit::from_partition_proof(cfg, u.public_inputs(), k, proofs[k]));
        const double circuit_ms = ms_since(t0);
        t0 = Clock::now();
        groth16::Witness w = circuit->witness();
        r.witness_ms.push_back(ms_since(t0));
        say("  partition %u: circuit %.0f ms, witness %.0f ms (%zu aux, %zu constraints with the inputs')\n", k,
            circuit_ms, r.witness_ms.back(), w.aux.size(), w.a.size());
    }
    (void)args;
}

void run_size(const Args& args, Result& r) {
    const auto* cfg = filecoin::update_config_for_sector_size(sector_bytes(r.size));
    if (!cfg || !cfg->proof) throw std::invalid_argument("no registered update proof for " + r.size);
    say("\n== SnapDeals %s (%s): %u partitions x %u challenges\n", r.size.c_str(), std::string(cfg->name).c_str(),
        cfg->partition_count, cfg->challenge_count);
    auto t0 = Clock::now();
    const auto u = filecoin::SectorUpdate::synthetic(*cfg, args.seed);
    const unsigned n =
        args.witness_only && args.partitions ? std::min(args.partitions, cfg->partition_count) : cfg->partition_count;
    std::vector<filecoin::UpdatePartitionProof> proofs;
    for (unsigned k = 0; k < n; ++k) proofs.push_back(u.partition_proof(k));
    r.synthetic_ms = ms_since(t0);
    t0 = Clock::now();
    for (unsigned k = 0; k < n; ++k) filecoin::update_verify_partition(*cfg, u.public_inputs(), k, proofs[k]);
    r.verify_ms = ms_since(t0);
    r.partitions = n;
    say("  synthetic update and %u vanilla proofs %.0f ms, verified %.0f ms\n", n, r.synthetic_ms, r.verify_ms);
    if (args.witness_only) return run_witnesses(args, *cfg, u, proofs, r);

    t0 = Clock::now();
    const engine::JobSpec spec = snap_spec(*cfg, u, proofs);
    const double prep_ms = r.synthetic_ms + ms_since(t0);
    engine::Engine e(sector_engine_config(args, args.witness_workers, args.prove_workers, args.keys, args.param_cache));
    const engine::EngineStatus st = e.status();
    say("    engine: backend %s; %s\n", st.backend.c_str(),
        args.keys == SectorKeys::Dev
            ? ("development keys (cached in " + args.param_cache + "), proofs verified").c_str()
            : "TIMING-ONLY keys, verification off");
    t0 = Clock::now();
    e.preload(engine::Engine::circuit_id(spec));  // counts, densities and keys, outside the sectors
    r.load_ms = ms_since(t0);
    say("    keys loaded in %.1f s (not part of the figures)\n", r.load_ms / 1e3);
    const std::string name = "SnapDeals " + std::string(cfg->name);
    // On a GPU the first proof uploads the bases; the CPU backend has nothing to warm.
    if (args.backend != "cpu") r.warm = engine_sector(e, name + " (warm-up)", spec, prep_ms);
    for (int rep = 0; rep < std::max(1, args.reps); ++rep) r.timed.push_back(engine_sector(e, name, spec, prep_ms));
    say("  %s: %.2f s a sector (median of %zu), %.3f s a partition, device busy %.1f%%\n", r.size.c_str(),
        r.median_wall_ms() / 1e3, r.timed.size(), r.median_wall_ms() / 1e3 / r.partitions, r.median_busy_pct());
}

void write_json(const Args& args, const std::vector<Result>& results) {
    if (args.out.empty()) return;
    std::ofstream f(args.out);
    f << "{\n  \"bench\": \"snap_prove\",\n  \"backend\": \"" << json_escape(args.backend) << "\",\n  \"keys\": \""
      << (args.keys == SectorKeys::Dev ? "development" : "timing-only (proofs do not verify)")
      << "\",\n  \"threads\": " << std::thread::hardware_concurrency() << ",\n  \"unit\": \"ms\",\n  \"sizes\": [";
    for (size_t i = 0; i < results.size(); ++i) {
        const Result& r = results[i];
        f << (i ? "," : "") << "\n    {\"size\": \"" << r.size << "\", \"status\": \"" << json_escape(r.status)
          << "\", \"partitions\": " << r.partitions << ", \"synthetic_ms\": " << r.synthetic_ms
          << ", \"vanilla_verify_ms\": " << r.verify_ms << ", \"load_ms\": " << r.load_ms;
        if (!r.timed.empty()) {
            f << ", \"sector_ms\": " << r.median_wall_ms() << ", \"device_busy_pct\": " << r.median_busy_pct();
            if (r.warm.partitions) f << ", \"warm_up\": " << engine_sector_json(r.warm);
            f << ", \"sectors\": [";
            for (size_t k = 0; k < r.timed.size(); ++k) f << (k ? ", " : "") << engine_sector_json(r.timed[k]);
            f << "]";
        }
        if (!r.witness_ms.empty()) {
            f << ", \"witness_ms\": [";
            for (size_t k = 0; k < r.witness_ms.size(); ++k) f << (k ? ", " : "") << r.witness_ms[k];
            f << "]";
        }
        f << "}";
    }
    f << "\n  ]\n}\n";
    if (!f) say("warning: could not write %s\n", args.out.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    Args args;
    args.reps = 1;
    CLI::App app(
        "SnapDeals sectors per size from synthetic vanilla proofs, streamed through the engine (witness of "
        "partition k+1 under the proof of k): seconds a sector and device busy %.",
        "cuzk_bench_snap_prove");
    add_run_options(app, args);
    app.get_option("--reps")->description("timed sectors, after a warm-up one on a GPU (at least 1)")->default_str("1");
    app.add_option_function<std::string>(
           "--sizes", [&args](const std::string& v) { args.sizes = split_list(v); },
           "comma-separated sector sizes (default 2KiB)")
        ->type_name("LIST");
    app.add_option_function<std::string>(
           "--keys", [&args](const std::string& v) { args.keys = v == "dev" ? SectorKeys::Dev : SectorKeys::Timing; },
           "timing (fake keys, no verification; default) or dev (the engine's development keys, verified)")
        ->check(CLI::IsMember({"timing", "dev"}));
    app.add_option("--param-cache", args.param_cache, "where --keys dev caches the development keys")
        ->capture_default_str();
    app.add_option("--witness-workers", args.witness_workers, "the engine's witness workers (0: its default)");
    app.add_option("--prove-workers", args.prove_workers, "the engine's prove workers a device (0: its default)");
    app.add_option("--partitions", args.partitions, "--witness-only: partitions (default: all of the sector)");
    add_flag01(app, "--witness-only", args.witness_only, "each partition's witness, one after the other, no proofs");
    CLI11_PARSE(app, argc, argv);
    say("cuzk_bench_snap_prove: backend %s; %u hardware threads\n", args.backend.c_str(),
        std::thread::hardware_concurrency());
    std::vector<Result> results;
    const auto t_start = Clock::now();
    int rc = 0;
    for (const std::string& size : args.sizes) {
        Result& r = results.emplace_back();
        r.size = size;
        if (time_spent(args, t_start)) {
            r.status = "skipped: --max-seconds spent";
            continue;
        }
        try {
            run_size(args, r);
        } catch (const std::exception& e) {
            r.status = e.what();
            say("  %s: FAILED: %s\n", size.c_str(), e.what());
            rc = 1;
        }
        write_json(args, results);
    }
    say("\n== SnapDeals sectors through the engine (busy: the device's share of the sector's wall time)\n");
    say("%-7s %6s %9s %11s %7s\n", "size", "parts", "sector s", "s/partition", "busy %");
    for (const Result& r : results) {
        if (r.timed.empty()) {
            say("%-7s  %s\n", r.size.c_str(), r.status.c_str());
            continue;
        }
        say("%-7s %6u %9.2f %11.3f %7.1f\n", r.size.c_str(), r.partitions, r.median_wall_ms() / 1e3,
            r.median_wall_ms() / 1e3 / r.partitions, r.median_busy_pct());
    }
    say("total %.1f s\n", ms_since(t_start) / 1e3);
    return rc;
}
