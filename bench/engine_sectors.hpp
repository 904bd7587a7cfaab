// Shared by the sector benches that stream a whole sector through the engine (porep_prove.cpp
// --engine 1, snap_prove.cpp): the engine's witness workers synthesize partition k+1 while its
// prove worker proves partition k, as the daemon does. One sector is one job: its wall time
// (submit to result), the device's busy share of it, and the job's witness and prove sums.
// Keys: TIMING-ONLY (timing_keys.hpp, fake_parameters sized from the engine's counting pass;
// verification off: THE PROOFS DO NOT VERIFY) or the engine's development keys (its setup,
// cached in a folder; verification on).
#pragma once

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <string>

#include "cuzk/engine/engine.hpp"
#include "timing_keys.hpp"

namespace cuzk::bench {

struct EngineSector {
    std::string proof;
    unsigned partitions = 0;
    // prep: building the request (synthetic vanilla proofs, their encoding); wall: submit to
    // result; submit: the request's parse and checks inside it (until submit returns)
    double prep_ms = 0, wall_ms = 0, submit_ms = 0, busy_ms = 0, witness_ms = 0, prove_ms = 0, verify_ms = 0;
    unsigned recomputes = 0;  // proofs that failed the engine's verification (recomputed on the CPU)
    double busy_pct() const { return wall_ms > 0 ? 100 * busy_ms / wall_ms : 0; }
    double seconds_a_partition() const { return partitions ? wall_ms / 1e3 / partitions : 0; }
};

// Time inside device stages since the engine started, every device (the CPU backend is one).
inline double device_busy_ms(const engine::Engine& e) {
    double b = 0;
    for (const engine::DeviceStatus& d : e.status().devices) b += d.busy_ms;
    return b;
}

// Submits one sector's job and waits for it; throws when it fails. `proof` names it in the
// report; prep_ms is what building `spec` took.
inline EngineSector engine_sector(engine::Engine& e, const std::string& proof, const engine::JobSpec& spec,
                                  double prep_ms) {
    EngineSector out;
    out.proof = proof;
    out.prep_ms = prep_ms;
    const double busy0 = device_busy_ms(e);
    const auto t0 = Clock::now();
    const engine::SubmitInfo info = e.submit(spec);
    out.submit_ms = ms_since(t0);
    const auto r = e.await(info.job_id);
    out.wall_ms = ms_since(t0);
    out.busy_ms = device_busy_ms(e) - busy0;
    if (!r || r->state != engine::JobState::Completed)
        throw std::runtime_error(proof + ": the job failed: " + (r ? r->error : std::string("no result")));
    out.partitions = r->partitions_total;
    out.witness_ms = r->timings.witness;
    out.prove_ms = r->timings.prove;
    out.verify_ms = r->timings.verify;
    out.recomputes = r->cpu_recomputes;
    const std::string verified =
        out.verify_ms > 0 ? ", " + std::to_string(out.recomputes) + " proof(s) failed verification" : ", not verified";
    say("    %s: %u partitions in %.2f s (%.3f s a partition; submit, the request checked, %.2f s of it), device "
        "busy %.1f%%, witness %.1f s, prove %.1f s, verify %.2f s (sums over partitions)%s\n",
        out.proof.c_str(), out.partitions, out.wall_ms / 1e3, out.seconds_a_partition(), out.submit_ms / 1e3,
        out.busy_pct(), out.witness_ms / 1e3, out.prove_ms / 1e3, out.verify_ms / 1e3, verified.c_str());
    return out;
}

// One sector as a JSON object.
inline std::string engine_sector_json(const EngineSector& x) {
    std::ostringstream f;
    f << "{\"proof\": \"" << json_escape(x.proof) << "\", \"partitions\": " << x.partitions
      << ", \"prep_ms\": " << x.prep_ms << ", \"wall_ms\": " << x.wall_ms << ", \"submit_ms\": " << x.submit_ms
      << ", \"device_busy_ms\": " << x.busy_ms << ", \"device_busy_pct\": " << x.busy_pct()
      << ", \"witness_ms\": " << x.witness_ms << ", \"prove_ms\": " << x.prove_ms << ", \"verify_ms\": " << x.verify_ms
      << ", \"verify_failures\": " << x.recomputes << "}";
    return f.str();
}

// The keys a sector bench's engine proves with.
enum class SectorKeys {
    Timing,  // fake_parameters from the engine's counts: any size, the proofs do not verify
    Dev,     // the engine's development setup, cached in param_cache: small sizes, verified
};

// An engine configuration for sector runs: args' backend and device, the worker counts (0: the
// engine's defaults), and the keys.
inline engine::EngineConfig sector_engine_config(const RunArgs& args, unsigned witness_workers, unsigned prove_workers,
                                                 SectorKeys keys, const std::string& param_cache = {}) {
    engine::EngineConfig ec;
    ec.backend = args.backend;
    if (args.backend == "cuda") ec.devices = {args.device};
    if (witness_workers) ec.witness_workers = witness_workers;
    if (prove_workers) ec.prove_workers_per_device = ec.cpu_prove_workers = prove_workers;
    ec.log = [](int level, const std::string& line) {
        if (level >= 2) say("    engine: %s\n", line.c_str());
    };
    if (keys == SectorKeys::Dev) {
        if (param_cache.empty()) throw std::invalid_argument("development keys need a parameter cache folder");
        ec.param_cache = param_cache;
        ec.filecoin_param_dir = std::filesystem::path(param_cache) / "no-filecoin-parameters";
        ec.allow_dev_params = true;
        ec.verify_proofs = true;
        return ec;
    }
    ec.verify_proofs = false;  // timing-only keys: the proofs do not verify
    const uint64_t seed = args.seed;
    ec.key_source = [seed](const std::string& id, const groth16::ShapeSummary& sum) {
        ShapeInfo s;
        s.inputs = sum.num_inputs;
        s.aux = sum.num_aux;
        s.constraints = sum.num_constraints;
        s.density = sum.density;
        s.derive_lengths();
        const auto t0 = Clock::now();
        auto p = fake_parameters(s, seed);
        say("    %s: %zu constraints, domain 2^%d, timing-only keys %.2f GiB in %.1f s -- FAKE KEYS\n", id.c_str(),
            s.constraints, int(std::countr_zero(s.domain)), s.params_gib(), ms_since(t0) / 1e3);
        return p;
    };
    return ec;
}

}  // namespace cuzk::bench
