// Proving Window and Winning PoSt, against one PoRep partition of the same sector size, in
// one run (issue: PoSt performance). Plain C++: builds in the CPU build too.
//
//   build/cuda/bench/cuzk_bench_post_prove --size 32GiB --reps 3 --out post_prove.json
//   build/bench/bench/cuzk_bench_post_prove --backend cpu --size 32GiB --parts winning
//
// Parts, in this order (--parts picks):
//   winning: a Winning PoSt from request to verified proof through an in-process engine, the
//     keys resident: the request (a synthetic bincode FallbackPoStSectorProof, 66 challenges)
//     is submitted, decoded, checked as a vanilla proof, synthesized, proven and verified.
//     The keys are DEVELOPMENT keys (the engine's setup, cached in --param-cache; the setup
//     is not timed): the proofs verify. First request and the median of --reps more; per
//     request the engine's spans summed by phase (witness, check, densities, h, msm_h,
//     msm_l, msm_a, msm_b_g1, msm_b_g2, assemble, verify; param_load: the keys' wait) and
//     the process's CPU seconds, which the shared machine's load does not move.
//   window: one Window PoSt partition (synthetic vanilla proofs of cfg.sector_count sectors:
//     2349 at 32 GiB, 125,279,217 constraints) with TIMING-ONLY keys (timing_keys.hpp: real
//     shape and witness, fake parameters; THE PROOFS DO NOT VERIFY): the vanilla proofs and
//     circuit, counts and densities (replicated from 1 and 2 sectors), the witness (its time
//     and the process's peak RSS), the parameters, then the proofs (GPU time).
//   porep: one PoRep partition (StackedDrg<size>V1_1, partition 0) the same way, as the
//     anchor the Window partition is compared with (issue: GPU time <= 1.2x PoRep's).
// Measured on the dev machine (2 shared cores, CPU build): Winning 32 GiB from request to
//   verified proof, keys resident, see bench/RESULTS.md: ~15 CPU s a request, 90% of it in
//   the five MSMs (all but ~1% of their scalars are full: the Poseidon witness), B_G2 the
//   largest (29%), H's NTTs 6%, witness 0.7%, the keys' load and checks 0 (resident).
//   Window 32 GiB partition 0: 2,349 synthetic vanilla proofs and the circuit 86 s; counts
//   replicated from 1 and 2 sectors (1.9 s) equal the pinned 125,279,217 constraints and the
//   full pass's 126,902,376 aux;
//   densities a_aux 96.2M, b_aux 91.9M (PoRep 32 GiB: 129.8M, 33.1M), so timing-only keys of
//   60.64 GiB (PoRep: 47.55 GiB) and witness buffers of 15.78 GiB: about 100 GiB of host
//   memory for the CPU backend, which dev does not have.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/backend/backend.hpp"
#include "cuzk/circuits/porep.hpp"
#include "cuzk/circuits/post.hpp"
#include "cuzk/common/parallel.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/filecoin/post.hpp"
#include "cuzk/filecoin/registry.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/gpu/device.hpp"
#include "cuzk/groth16/prover.hpp"
#include "timing_keys.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::bench;
namespace fs = std::filesystem;

struct Args : RunArgs {
    std::string size = "32GiB";
    std::vector<std::string> parts{"winning", "window", "porep"};
    std::string param_cache = "/var/tmp/cuzk-bench-post-keys";
};

Args parse(int argc, char** argv) {
    Args a;
    CLI::App app(
        "Winning PoSt from request to verified proof (development keys, resident), one Window PoSt partition and "
        "one PoRep partition (timing-only keys) of one sector size.\nGoogle Benchmark flags are not taken.",
        "cuzk_bench_post_prove");
    add_run_options(app, a);
    app.add_option("--size", a.size, "sector size: 2KiB, 8MiB, 512MiB, 32GiB or 64GiB")->capture_default_str();
    app.add_option_function<std::string>(
           "--parts", [&a](const std::string& v) { a.parts = split_list(v); },
           "comma-separated: winning, window, porep (default all three)")
        ->type_name("LIST");
    app.add_option("--param-cache", a.param_cache, "where the Winning PoSt development keys are cached")
        ->capture_default_str();
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        std::exit(app.exit(e));
    }
    for (const auto& p : a.parts)
        if (p != "winning" && p != "window" && p != "porep") {
            std::fprintf(stderr, "cuzk_bench_post_prove: --parts: unknown part '%s' (winning, window, porep)\n",
                         p.c_str());
            std::exit(2);
        }
    if (!filecoin::post_proof_from_name("StackedDrgWinning" + a.size + "V1")) {
        std::fprintf(stderr, "cuzk_bench_post_prove: --size: unknown sector size '%s'\n", a.size.c_str());
        std::exit(2);
    }
    return a;
}

bool wants(const Args& a, const char* part) { return std::find(a.parts.begin(), a.parts.end(), part) != a.parts.end(); }

filecoin::Bytes32 bench_randomness(uint64_t seed) {
    std::mt19937_64 rng(seed);
    filecoin::Bytes32 r{};
    for (auto& b : r) b = uint8_t(rng());
    r[31] &= 0x3f;  // a canonical field element
    return r;
}

// ---- winning ---------------------------------------------------------------------------------

struct WinningResult {
    bool ran = false;
    std::string status = "ok";
    double keys_ms = 0, first_ms = 0, median_ms = 0;
    double median_cpu_s = 0;           // the process's CPU seconds a request (every thread)
    engine::JobTimings first, median;  // the engine's per-stage times
    // The spans of the timed requests summed by phase ("layer/name", in the order first
    // seen), median over the requests after the first.
    std::vector<std::pair<std::string, double>> phases;
};

// The engine's spans that started at or after t0, summed by "layer/name" (engine stages,
// the groth16 prover's check, densities, h, msm_h, msm_l, msm_a, msm_b_g1, msm_b_g2, assemble).
std::vector<std::pair<std::string, double>> phase_sums(const engine::Engine& e, Clock::time_point t0) {
    std::vector<std::pair<std::string, double>> out;
    for (const auto& ev : e.spans([&](const trace::Event& x) { return x.start >= t0; })) {
        const std::string key = std::string(ev.layer) + "/" + ev.name;
        auto it = std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.first == key; });
        if (it == out.end())
            out.emplace_back(key, ev.ms());
        else
            it->second += ev.ms();
    }
    return out;
}

WinningResult run_winning(const Args& args) {
    WinningResult out;
    const auto& cfg = filecoin::post_config(*filecoin::post_proof_from_name("StackedDrgWinning" + args.size + "V1"));
    say("\n== winning: %s from request to verified proof (development keys, resident)\n",
        std::string(cfg.name).c_str());
    const auto r = bench_randomness(args.seed);
    engine::JobSpec spec;
    spec.kind = "winning-post";
    spec.registered_proof = std::string(cfg.name);
    spec.randomness.assign(r.begin(), r.end());
    spec.miner_id = 1000;
    auto t0 = Clock::now();
    spec.vanilla_proofs.push_back(
        filecoin::encode_post_sector_proof(filecoin::synthetic_post_vanilla_proof(cfg, args.seed, 7, r, 0)));
    say("  synthetic vanilla proof (%zu bytes of bincode): %.1f ms\n", spec.vanilla_proofs[0].size(), ms_since(t0));

    engine::EngineConfig ec;
    ec.backend = args.backend;
    ec.param_cache = args.param_cache;
    ec.filecoin_param_dir = fs::path(args.param_cache) / "no-filecoin-parameters";  // development keys
    ec.allow_dev_params = true;
    ec.log = [](int level, const std::string& line) {
        if (level >= 2) say("  %s\n", line.c_str());
    };
    engine::Engine e(ec);
    t0 = Clock::now();
    e.preload(engine::Engine::circuit_id(spec));
    out.keys_ms = ms_since(t0);
    say("  keys: %.1f s (setup, or read from %s; not part of the figure), backend %s\n", out.keys_ms / 1e3,
        args.param_cache.c_str(), e.status().backend.c_str());
    std::vector<double> totals;
    std::vector<engine::JobTimings> stages;
    std::vector<std::vector<std::pair<std::string, double>>> phases;
    std::vector<double> cpu_s;
    say("    %-7s %10s %10s %10s %10s %10s %10s   (ms; CPU: the process's CPU seconds, every thread)\n", "request",
        "total", "queue", "witness", "prove", "verify", "CPU s");
    for (int rep = 0; rep <= args.reps; ++rep) {
        t0 = Clock::now();
        const double cpu0 = process_cpu_seconds();
        const auto info = e.submit(spec);
        const auto res = e.await(info.job_id);
        const double ms = ms_since(t0);
        const double cpu = process_cpu_seconds() - cpu0;
        if (!res || res->state != engine::JobState::Completed)
            throw std::runtime_error("winning PoSt failed: " + (res ? res->error : std::string("no result")));
        const engine::JobTimings& t = res->timings;
        say("    %-7s %10.1f %10.1f %10.1f %10.1f %10.1f %10.2f\n", rep ? ("#" + std::to_string(rep)).c_str() : "first",
            ms, t.queue_wait, t.witness, t.prove, t.verify, cpu);
        if (rep > 0 || args.reps == 0) cpu_s.push_back(cpu);
        auto sums = phase_sums(e, t0);
        say("            ");
        for (const auto& [name, v] : sums) say(" %s %.1f", name.c_str(), v);
        say("\n");
        if (rep == 0) {
            out.first_ms = ms;
            out.first = t;
        } else {
            totals.push_back(ms);
            stages.push_back(t);
        }
        if (rep > 0 || args.reps == 0) phases.push_back(std::move(sums));
    }
    for (const auto& [name, v] : phases.front()) {
        (void)v;
        std::vector<double> vs;
        for (const auto& rep : phases)
            for (const auto& [n, x] : rep)
                if (n == name) vs.push_back(x);
        out.phases.emplace_back(name, median(vs));
    }
    say("  by phase (ms, median):");
    for (const auto& [name, v] : out.phases) say(" %s %.1f", name.c_str(), v);
    say("\n");
    out.median_ms = totals.empty() ? out.first_ms : median(totals);
    out.median_cpu_s = median(cpu_s);
    if (!stages.empty()) {
        auto med = [&](double engine::JobTimings::*f) {
            std::vector<double> v;
            for (const auto& t : stages) v.push_back(t.*f);
            return median(v);
        };
        out.median = {med(&engine::JobTimings::queue_wait), med(&engine::JobTimings::param_load),
                      med(&engine::JobTimings::witness),    med(&engine::JobTimings::prove),
                      med(&engine::JobTimings::verify),     med(&engine::JobTimings::total)};
    } else {
        out.median = out.first;
    }
    say("  winning %s: request -> verified proof %.1f ms (median of %d; first %.1f ms), %.2f CPU s a request\n",
        args.size.c_str(), out.median_ms, args.reps, out.first_ms, out.median_cpu_s);
    out.ran = true;
    return out;
}

// ---- one partition with timing-only keys ------------------------------------------------------

struct PartitionResult {
    bool ran = false;
    std::string label, status = "ok";
    ShapeInfo shape;
    Pass build, shape_pass, witness, params, proofs;
    ProofSeries series;
    double witness_buffers_gib = 0;
    size_t peak_rss = 0;  // the process's, from the circuit's build to the last proof
    double prove_ms() const { return series.reps.empty() ? series.first.wall : series.med.wall; }
};

// The circuits' own constraint counts (without one input constraint per public input),
// pinned by tests/circuits/test_post.cpp and test_porep.cpp; 0: not pinned here.
size_t pinned_constraints(const std::string& part, const std::string& size) {
    static const std::pair<const char*, size_t> window[] = {
        {"2KiB", 21'866}, {"8MiB", 64'266}, {"512MiB", 85'466}, {"32GiB", 125'279'217}, {"64GiB", 129'887'900}};
    static const std::pair<const char*, size_t> porep[] = {
        {"2KiB", 2'687'921}, {"8MiB", 3'844'929}, {"512MiB", 4'423'433}, {"32GiB", 130'278'541}};
    using Table = std::span<const std::pair<const char*, size_t>>;
    for (const auto& [s, n] : part == "window" ? Table(window) : Table(porep))
        if (size == s) return n;
    return 0;
}

// `build` makes the partition's circuit (a type with synthesize<CS>), `units`/`resize` its
// identical units for replicated_shape; `pinned` its constraint count (0: unchecked).
template <class C, class Build, class Resize>
PartitionResult run_partition(const Args& args, const std::string& label, size_t pinned, Build build, Resize resize,
                              size_t (*units)(const C&), Clock::time_point t_start) {
    PartitionResult out;
    out.label = label;
    say("\n== %s (TIMING-ONLY keys: the proofs do not verify)\n", label.c_str());
    std::unique_ptr<groth16::CircuitOf<C>> circuit;
    out.build = timed_pass([&] { circuit = std::make_unique<groth16::CircuitOf<C>>(build(), label); });
    say("  vanilla proofs and circuit: %s\n", pass_text(out.build).c_str());
    out.shape_pass =
        timed_pass([&] { out.shape = replicated_shape(circuit->inner(), units(circuit->inner()), resize); });
    const ShapeInfo& s = out.shape;
    say("  counts and densities (replicated from 1 and 2 units): %s\n", pass_text(out.shape_pass).c_str());
    say("  %zu constraints (inputs included%s), %zu inputs, %zu aux; domain 2^%d; densities a_aux %zu, b_input %zu, "
        "b_aux %zu\n",
        s.constraints, pinned ? "; the tests' pinned count + one per input" : "", s.inputs, s.aux,
        int(std::countr_zero(s.domain)), s.density.a_aux.count(), s.density.b_input.count(), s.density.b_aux.count());
    if (pinned && pinned + s.inputs != s.constraints)
        throw std::logic_error("the replicated count differs from the pinned " + std::to_string(pinned) +
                               " constraints + " + std::to_string(s.inputs) + " inputs");
    const bool cpu = args.backend == "cpu";
    out.witness_buffers_gib = (s.aux + 3 * s.domain) * sizeof(Fr) / kGiB;
    const double estimate =
        out.witness_buffers_gib * (cpu ? 2 : 1) + s.params_gib() + (s.domain + s.inputs + s.aux) * sizeof(Fr) / kGiB;
    const double available = mem_available_bytes() / kGiB;
    say("  host memory estimate: witness buffers %.2f GiB + params %.2f GiB + scratch = %.2f GiB; available %.2f GiB\n",
        out.witness_buffers_gib, s.params_gib(), estimate, available);
    if (available > 0 && estimate > 0.95 * available) {
        char why[160];
        std::snprintf(why, sizeof why,
                      "skipped: the estimated %.2f GiB exceed 95%% of the available host memory (%.2f GiB)", estimate,
                      available);
        throw std::runtime_error(why);
    }
    auto backend = cpu ? groth16::make_cpu_backend() : gpu::make_cuda_backend(args.device);

    r1cs::WitnessBuffers bufs;
    bufs.aux.reserve(s.aux);
    for (auto* v : {&bufs.a, &bufs.b, &bufs.c}) v->reserve(s.domain);
    groth16::Witness w;  // before the registration: unregistered before it is freed
    PinnedBuffers locked({&bufs.aux, &bufs.a, &bufs.b, &bufs.c}, args.pinned && !cpu);
    out.witness = timed_pass([&] { w = circuit->witness(std::move(bufs), s.aux, s.domain); });
    say("  WITNESS (CPU): %s; buffers %.2f GiB%s\n", pass_text(out.witness).c_str(), out.witness_buffers_gib,
        locked.buffers() ? " (page-locked before the pass)" : "");
    circuit.reset();
    groth16::Parameters params;
    out.params = timed_pass([&] { params = fake_parameters(s, args.seed); });
    say("  timing-only parameters, %.2f GiB: %s -- FAKE KEYS\n", s.params_gib(), pass_text(out.params).c_str());
    r1cs::WitnessVector copy_a, copy_b, copy_c;  // the CPU backend consumes a, b, c
    if (cpu) copy_a = w.a, copy_b = w.b, copy_c = w.c;
    out.proofs = timed_pass([&] {
        run_proofs(
            params, s.density, w, *backend, args.reps, args.seed, 0,
            [&](groth16::Witness& x) {
                if (!cpu) return;
                x.a = copy_a;
                x.b = copy_b;
                x.c = copy_c;
            },
            [](groth16::Witness&) {}, [&] { return time_spent(args, t_start); }, out.series);
    });
    out.peak_rss = std::max({out.build.peak, out.shape_pass.peak, out.witness.peak, out.params.peak, out.proofs.peak});
    say("  %s: witness %.1f ms, prove %.1f ms (%s), peak host RSS %s\n", label.c_str(), out.witness.ms, out.prove_ms(),
        out.series.reps.empty() ? "first proof" : "median", mem_text(double(out.peak_rss)).c_str());
    out.ran = true;
    return out;
}

PartitionResult run_window(const Args& args, Clock::time_point t_start) {
    const auto& cfg = filecoin::post_config(*filecoin::post_proof_from_name("StackedDrgWindow" + args.size + "V1_2"));
    const auto r = bench_randomness(args.seed);
    using circuits::FallbackPoStCircuit;
    return run_partition<FallbackPoStCircuit>(
        args, "window " + std::string(cfg.name) + " partition 0 (" + std::to_string(cfg.sector_count) + " sectors)",
        pinned_constraints("window", args.size),
        [&] {
            std::vector<filecoin::FallbackPoStSectorProof> sectors(cfg.sector_count);
            parallel_for(0, sectors.size(), 1, [&](size_t b, size_t e) {
                for (size_t i = b; i < e; ++i)
                    sectors[i] = filecoin::synthetic_post_vanilla_proof(cfg, args.seed, 1000 + i, r, i);
            });
            return FallbackPoStCircuit::window(cfg, r, 0, sectors);
        },
        [](FallbackPoStCircuit& c, size_t k) {
            c.sectors.resize(k);
            c.params.sectors = unsigned(k);
        },
        +[](const FallbackPoStCircuit& c) { return c.sectors.size(); }, t_start);
}

PartitionResult run_porep(const Args& args, Clock::time_point t_start) {
    const auto proof = *filecoin::seal_proof_from_name("StackedDrg" + args.size + "V1_1");
    const auto& cfg = filecoin::porep_config(proof);
    using circuits::StackedCircuit;
    return run_partition<StackedCircuit>(
        args, "porep " + std::string(cfg.name) + " partition 0", pinned_constraints("porep", args.size),
        [&] {
            const auto c1 = filecoin::synthetic_c1(proof, args.seed);
            return StackedCircuit::from_vanilla(cfg, c1.replica_id, c1.comm_d, c1.comm_r, c1.vanilla_proofs.at(0));
        },
        [](StackedCircuit& c, size_t k) {
            c.proofs.resize(k);
            c.params.challenges = unsigned(k);
        },
        +[](const StackedCircuit& c) { return c.proofs.size(); }, t_start);
}

void write_json(const Args& args, const WinningResult& w, const std::vector<PartitionResult>& ps) {
    if (args.out.empty()) return;
    std::ofstream f(args.out);
    f << "{\n  \"bench\": \"post_prove\",\n  \"size\": \"" << args.size << "\",\n  \"backend\": \"" << args.backend
      << "\",\n  \"threads\": " << std::thread::hardware_concurrency() << ",\n  \"unit\": \"ms\"";
    if (w.ran) {
        f << ",\n  \"winning\": {\"keys_ms\": " << w.keys_ms << ", \"first_ms\": " << w.first_ms
          << ", \"median_ms\": " << w.median_ms << ", \"reps\": " << args.reps
          << ", \"median_witness_ms\": " << w.median.witness << ", \"median_prove_ms\": " << w.median.prove
          << ", \"median_verify_ms\": " << w.median.verify << ", \"median_cpu_s\": " << w.median_cpu_s
          << ", \"median_phases_ms\": {";
        for (size_t i = 0; i < w.phases.size(); ++i)
            f << (i ? ", " : "") << "\"" << json_escape(w.phases[i].first) << "\": " << w.phases[i].second;
        f << "}}";
    }
    f << ",\n  \"partitions\": [";
    for (size_t i = 0; i < ps.size(); ++i) {
        const PartitionResult& p = ps[i];
        f << (i ? "," : "") << "\n    {\"label\": \"" << json_escape(p.label) << "\", \"status\": \""
          << json_escape(p.status) << "\", \"constraints\": " << p.shape.constraints
          << ", \"domain\": " << p.shape.domain << ", \"witness\": " << json_pass(p.witness)
          << ", \"params_gib\": " << p.shape.params_gib() << ", \"witness_buffers_gib\": " << p.witness_buffers_gib
          << ", \"peak_rss_gib\": " << p.peak_rss / kGiB << ", \"prove_ms\": " << p.prove_ms();
        if (p.series.have_first) f << ", \"first\": " << json_phases(p.series.first);
        if (!p.series.reps.empty()) f << ", \"median\": " << json_phases(p.series.med);
        f << "}";
    }
    f << "\n  ]\n}\n";
}

}  // namespace

int main(int argc, char** argv) {
    const Args args = parse(argc, argv);
    const auto t_start = Clock::now();
    say("cuzk_bench_post_prove: backend %s, size %s, %d timed after the first; %u hardware threads\n",
        args.backend.c_str(), args.size.c_str(), args.reps, std::thread::hardware_concurrency());
    bool failed = false;
    WinningResult winning;
    if (wants(args, "winning")) {
        try {
            winning = run_winning(args);
        } catch (const std::exception& e) {
            winning.status = std::string("error: ") + e.what();
            failed = true;
            say("  %s\n", winning.status.c_str());
        }
    }
    std::vector<PartitionResult> parts;
    for (const char* part : {"window", "porep"}) {
        if (!wants(args, part)) continue;
        PartitionResult p;
        p.label = part;
        try {
            p = std::string(part) == "window" ? run_window(args, t_start) : run_porep(args, t_start);
        } catch (const std::exception& e) {
            p.status = std::string("error: ") + e.what();
            failed = true;
            say("  %s\n", p.status.c_str());
        }
        parts.push_back(std::move(p));  // its parameters and witness are freed by now
        write_json(args, winning, parts);
    }

    say("\n== summary (%s, backend %s)\n", args.size.c_str(), args.backend.c_str());
    if (winning.ran)
        say("  winning PoSt: request -> verified proof %.1f ms median (witness %.1f, prove %.1f, verify %.1f ms), %.2f "
            "CPU s a request\n",
            winning.median_ms, winning.median.witness, winning.median.prove, winning.median.verify,
            winning.median_cpu_s);
    const PartitionResult* window = nullptr;
    const PartitionResult* porep = nullptr;
    for (const auto& p : parts) {
        if (!p.ran) {
            say("  %s: %s\n", p.label.c_str(), p.status.c_str());
            continue;
        }
        say("  %-58s %12zu constraints  witness %9.1f ms  prove %9.1f ms  peak RSS %s\n", p.label.c_str(),
            p.shape.constraints, p.witness.ms, p.prove_ms(), mem_text(double(p.peak_rss)).c_str());
        (p.label.rfind("window", 0) == 0 ? window : porep) = &p;
    }
    if (window && porep)
        say("  window / porep prove time: %.2f (issue target <= 1.2 on the GPU)\n",
            window->prove_ms() / porep->prove_ms());
    write_json(args, winning, parts);
    say("total %.1f s\n", std::chrono::duration<double>(Clock::now() - t_start).count());
    return failed ? 1 : 0;
}
