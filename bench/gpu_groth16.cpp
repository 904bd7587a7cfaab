// Groth16 proving of the built-in circuits at 2^20, 2^24 and 2^26 constraints, total and per
// phase, on the CUDA backend (issue #4). Targets on one H200 at 2^26 constraints:
// random-dense (every scalar full-size) <= 2.5 s, sha256-chain (scalars mostly 0/1) <= 0.8 s.
//
//   build/gpu/bench/cuzk_bench_gpu_groth16 --sizes 20,24,26 --reps 5 --out gpu_groth16.json
//   build/cuda/bench/cuzk_bench_gpu_groth16 --sizes 12,14 --backend cpu    (smoke test, no GPU)
//
// TIMING-ONLY PARAMETERS (bench/timing_keys.hpp): a real setup of 2^24 or 2^26 constraints
// takes far too long for a benchmark run, so the parameters here have the real shape of the
// circuit (query lengths from its counts and densities) but fake contents: every query holds
// the distinct points (i+1)·G (the same prefix in every query) and the verifying key is
// random. The MSMs' cost does not depend on the bases' values, and H and the scalars come
// from the circuit's real witness, so the timings are those of a real proof. THE PROOFS DO
// NOT VERIFY; that the GPU path computes the right proof is the tests' job (proof bytes
// GPU == CPU in cuzk_test_gpu).
//
// Per (circuit, size), from small to large: counts and densities (DensityCS, timing_keys.hpp) and the
// witness are synthesized once
// on the CPU (timed, single run), the parameters are generated, then the first proof (bases
// upload included) and the median of --reps proofs (bases resident). Before each proof the
// witness is refilled outside the timed region, because prove() consumes A·z, B·z, C·z: with
// --pinned 1 (default) into one set of buffers page-locked once, as the engine's buffer pool
// keeps them; with --pinned 0 as a fresh pageable copy.
// A failure of one (circuit, size) is reported and the next one runs; --max-seconds stops
// starting new work once spent; the JSON (--out) is rewritten after each (circuit, size).
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/backend/backend.hpp"
#include "cuzk/backend/testing.hpp"
#include "cuzk/circuits/builtin.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/gpu/host_memory.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/ntt/domain.hpp"
#include "cuzk/r1cs/shape_cs.hpp"
#include "timing_keys.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::bench;

struct Args : RunArgs {
    Args() { reps = 5; }
    std::vector<int> sizes{20, 24, 26};
    std::vector<std::string> circuits{"random-dense", "sha256-chain"};
};

// Options through CLI11 (RunArgs' from timing_keys.hpp), with the names and checks the bench
// has always had; a bad one exits 2 with CLI11's message.
Args parse(int argc, char** argv) {
    Args a;
    CLI::App app{
        "Groth16 proving of the built-in circuits, per phase (timing-only keys). --pinned 1 (default)\n"
        "page-locks the witness buffers (aux, A.z, B.z, C.z) once and reuses them, as the engine's\n"
        "buffer pool does; --pinned 0 gives every proof a fresh pageable copy.",
        "cuzk_bench_gpu_groth16"};
    add_run_options(app, a);
    app.add_option("--sizes", a.sizes, "log2 of the constraint count (the domain), comma-separated")
        ->delimiter(',')
        ->check(CLI::Range(10, 28));
    app.add_option("--circuits", a.circuits, "built-in circuits, comma-separated")
        ->delimiter(',')
        ->check(CLI::IsMember({"random-dense", "sha256-chain"}));
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        std::exit(app.exit(e) == 0 ? 0 : 2);
    }
    if (a.reps < 1) {
        std::fprintf(stderr, "--reps must be >= 1\n");
        std::exit(2);
    }
    std::sort(a.sizes.begin(), a.sizes.end());  // small to large: a failure at 2^26 loses nothing smaller
    a.sizes.erase(std::unique(a.sizes.begin(), a.sizes.end()), a.sizes.end());
    return a;
}

// Issue #4's targets for the total of one proof (bases resident), in ms; 0 where none.
double target_ms(const std::string& circuit, int log_n) {
    if (log_n != 26) return 0;
    if (circuit == "random-dense") return 2500;
    if (circuit == "sha256-chain") return 800;
    return 0;
}

template <class C>
bool density_of(const groth16::Circuit& c, ShapeInfo& s) {
    const auto* of = dynamic_cast<const groth16::CircuitOf<C>*>(&c);
    if (!of) return false;
    s = density_shape(of->inner());
    return true;
}

ShapeInfo shape_info(const groth16::Circuit& c) {
    ShapeInfo s;
    if (!density_of<circuits::RandomDense>(c, s) && !density_of<circuits::Sha256Chain>(c, s)) {
        const r1cs::Shape sh = c.shape();
        s.inputs = sh.num_inputs;
        s.aux = sh.num_aux;
        s.constraints = sh.num_constraints;
        s.density = sh.density();
        s.full_shape = true;
    } else if (s.constraints <= (size_t(1) << 18)) {
        const r1cs::Shape sh = c.shape();
        if (sh.num_inputs != s.inputs || sh.num_aux != s.aux || sh.num_constraints != s.constraints ||
            !(sh.density() == s.density))
            throw std::logic_error("DensityCS disagrees with the full shape of " + c.name());
    }
    s.derive_lengths();
    return s;
}

struct Result : ProofSeries {
    std::string circuit;
    int log_n = 0;
    size_t size_param = 0;  // constraints (random-dense) or blocks (sha256-chain)
    ShapeInfo shape;
    double shape_ms = 0, witness_ms = 0, params_ms = 0, backend_ms = 0;
    double params_gib = 0, witness_gib = 0;
};

void write_json(const Args& args, const std::string& backend_name, const std::vector<Result>& rs) {
    if (args.out.empty()) return;
    std::ofstream f(args.out);
    f << "{\n  \"bench\": \"gpu_groth16\",\n  \"note\": \"TIMING-ONLY fake parameters: the proofs do not verify\",\n"
      << "  \"backend\": \"" << json_escape(backend_name) << "\",\n  \"pinned\": " << (args.pinned ? "true" : "false")
      << ",\n  \"reps\": " << args.reps << ",\n  \"unit\": \"ms\",\n  \"results\": [";
    for (size_t i = 0; i < rs.size(); ++i) {
        const Result& r = rs[i];
        const ShapeInfo& s = r.shape;
        f << (i ? "," : "") << "\n    {\"circuit\": \"" << r.circuit << "\", \"log_n\": " << r.log_n
          << ", \"size_param\": " << r.size_param << ", \"status\": \"" << json_escape(r.status) << "\""
          << ", \"constraints\": " << s.constraints << ", \"inputs\": " << s.inputs << ", \"aux\": " << s.aux
          << ", \"domain\": " << s.domain << ", \"len_h\": " << s.len_h << ", \"len_l\": " << s.len_l
          << ", \"len_a\": " << s.len_a << ", \"len_b\": " << s.len_b << ", \"params_gib\": " << r.params_gib
          << ", \"witness_gib\": " << r.witness_gib << ", \"shape_ms\": " << r.shape_ms
          << ", \"witness_ms\": " << r.witness_ms << ", \"params_gen_ms\": " << r.params_ms
          << ", \"backend_init_ms\": " << r.backend_ms;
        const double tgt = target_ms(r.circuit, r.log_n);
        if (tgt > 0) f << ", \"target_ms\": " << tgt;
        if (r.have_first) f << ",\n     \"first\": " << json_phases(r.first);
        if (!r.reps.empty()) {
            f << ",\n     \"median\": " << json_phases(r.med) << ",\n     \"reps\": [";
            for (size_t j = 0; j < r.reps.size(); ++j) f << (j ? ", " : "") << json_phases(r.reps[j]);
            f << "]";
        }
        f << "}";
    }
    f << "\n  ]\n}\n";
    if (!f) say("warning: could not write %s\n", args.out.c_str());
}

std::unique_ptr<groth16::ProverBackend> make_backend(const Args& args) {
    return args.backend == "cpu" ? groth16::make_cpu_backend() : gpu::make_cuda_backend(args.device);
}

// The circuit's size parameter whose constraint count (input constraints included) stays
// within 2^log_n, so that the domain is 2^log_n.
size_t size_param_for(const std::string& circuit, int log_n) {
    const size_t n = size_t(1) << log_n;
    if (circuit == "random-dense") return n - 64;  // its size is its constraint count, inputs included
    if (circuit == "sha256-chain") {
        // Constraints are affine in the block count: measure the fixed part and the per-block
        // part on 1 and 2 blocks (about 25.6k constraints a block), rather than guessing.
        auto count = [](size_t blocks) {
            return circuits::make_builtin("sha256-chain", blocks).circuit->shape().num_constraints;
        };
        static size_t c1 = 0, per = 0;
        if (!per) {
            c1 = count(1);
            per = count(2) - c1;
        }
        if (n <= c1) return 1;
        return 1 + (n - c1) / per;
    }
    throw std::invalid_argument("unknown circuit " + circuit);
}

void run_one(const Args& args, Result& r, Clock::time_point t_start) {
    say("\n== %s, 2^%d constraints\n", r.circuit.c_str(), r.log_n);
    r.size_param = size_param_for(r.circuit, r.log_n);
    auto built = circuits::make_builtin(r.circuit, r.size_param, args.seed, 4);
    // The witness is synthesized on a second thread while this one counts the shape and
    // makes the keys: the passes are independent and each single-threaded, and on the GPU
    // machine they are device time spent waiting (random-dense 2^26: ~100 s of counts,
    // ~115 s of witness, ~30 s of keys one after the other).
    auto t0 = Clock::now();
    auto witness_job = std::async(std::launch::async, [&, t0] {
        groth16::Witness w = built.circuit->witness();
        return std::make_pair(std::move(w), ms_since(t0));
    });
    r.shape = shape_info(*built.circuit);
    r.shape_ms = ms_since(t0);
    const ShapeInfo& s = r.shape;
    say("  %s: %zu constraints (inputs included), %zu inputs (ONE included), %zu aux; domain 2^%d%s; %s %.0f ms\n",
        built.circuit->name().c_str(), s.constraints, s.inputs, s.aux, int(std::countr_zero(s.domain)),
        s.domain == (size_t(1) << r.log_n) ? "" : " (NOT the size asked for)",
        s.full_shape                         ? "full shape"
        : s.constraints <= (size_t(1) << 18) ? "counts and densities (checked against the full shape)"
                                             : "counts and densities",
        r.shape_ms);
    say("  queries: h %zu, l %zu, a %zu, b_g1 %zu, b_g2 %zu\n", s.len_h, s.len_l, s.len_a, s.len_b, s.len_b);

    // Host memory before allocating: parameters, the witness, each proof's copy of it, and
    // the prover's own vectors (h: m values, z: inputs + aux).
    r.params_gib = s.params_gib();
    r.witness_gib = (s.inputs + s.aux + 3 * s.constraints) * sizeof(Fr) / kGiB;
    const double scratch_gib = (s.domain + s.inputs + s.aux) * sizeof(Fr) / kGiB;
    // Parameter generation holds one extra G1 query while it copies prefixes.
    const double peak_gib =
        r.params_gib + std::max(s.len_h, s.len_l) * sizeof(G1Affine) / kGiB + 2 * r.witness_gib + scratch_gib;
    const double avail_gib = mem_available_bytes() / kGiB;
    say("  host memory estimate: params %.2f GiB (G1 %zu B, G2 %zu B a point) + witness %.2f GiB + a proof's copy "
        "%.2f GiB + prover scratch %.2f GiB; peak about %.2f GiB; available %.2f GiB\n",
        r.params_gib, sizeof(G1Affine), sizeof(G2Affine), r.witness_gib, r.witness_gib, scratch_gib, peak_gib,
        avail_gib);
    if (avail_gib > 0 && peak_gib > 0.95 * avail_gib) {
        witness_job.wait();  // its references die with this frame
        throw std::runtime_error("skipped: the estimated peak exceeds the available host memory");
    }

    t0 = Clock::now();
    const groth16::Parameters params = fake_parameters(s, args.seed);
    r.params_ms = ms_since(t0);
    say("  timing-only parameters generated in %.1f ms (%u threads) -- FAKE KEYS, proofs will NOT verify\n",
        r.params_ms, std::thread::hardware_concurrency());

    t0 = Clock::now();
    auto [master, witness_ms] = witness_job.get();
    r.witness_ms = witness_ms;
    say("  witness synthesis (CPU, one thread, alongside the counts and keys): %.1f ms; waited %.1f ms for it\n",
        r.witness_ms, ms_since(t0));

    t0 = Clock::now();
    auto backend = make_backend(args);
    r.backend_ms = ms_since(t0);

    // The proofs' witness: one set of buffers, refilled from master before each proof
    // (outside the timed region) and, with --pinned 1, page-locked once. The CPU backend
    // takes a, b, c's storage over in H, so it gets a fresh copy every proof instead.
    const bool reuse = args.pinned && args.backend != "cpu";
    groth16::Witness w = master;
    t0 = Clock::now();
    PinnedBuffers pinned({&w.aux, &w.a, &w.b, &w.c}, reuse);  // after w: unregisters before it frees
    if (reuse)
        say("  witness buffers page-locked: %zu of 4, %.2f GiB in %.1f ms (--pinned 1)\n", pinned.buffers(),
            pinned.bytes() / kGiB, ms_since(t0));
    else
        say("  witness buffers pageable, a fresh copy per proof (--pinned 0 or --backend cpu)\n");

    run_proofs(
        params, s.density, w, *backend, args.reps, args.seed, target_ms(r.circuit, r.log_n),
        [&](groth16::Witness& x) {  // prove() consumes A·z, B·z, C·z (and may scribble on them)
            if (!reuse) {
                x = master;
                return;
            }
            for (auto* v : {&x.a, &x.b, &x.c}) {
                const r1cs::WitnessVector& from = v == &x.a ? master.a : v == &x.b ? master.b : master.c;
                if (v->capacity() < from.size()) throw std::logic_error("witness buffer lost its storage");
                v->assign(from.begin(), from.end());  // within capacity: the registered storage stays
            }
        },
        [](groth16::Witness&) {}, [&] { return time_spent(args, t_start); }, r);
    // Which sets got a table shows in the MSM phases; how many, here (a set that stays
    // without one on a smaller card, as B_G2 probably on an H100 at 2^24, is one fewer).
    if (args.backend != "cpu")
        say("  precomputed tables built: %zu (base sets H, L, A, B_G1, B_G2 with >= 2^18 full scalars)\n",
            gpu::tables_built(*backend));
}

}  // namespace

int main(int argc, char** argv) {
    const Args args = parse(argc, argv);
    const auto t_start = Clock::now();
    std::string backend_name = args.backend;
    say("cuzk_bench_gpu_groth16: backend %s, sizes", args.backend.c_str());
    for (int s : args.sizes) say(" 2^%d", s);
    say(", %d timed proofs each after the first%s\n", args.reps, args.max_seconds > 0 ? " (bounded)" : "");
    say("!! TIMING-ONLY PARAMETERS: real circuit shapes and witnesses, fake keys (points i*G, random vk).\n"
        "!! The proofs do NOT verify; correctness of the GPU path is checked by the tests (proof bytes GPU == CPU).\n");
    say("Phases (ProofTimings): the backend's fused stage h_msm is H + msm_h (H = upload of A.z, B.z, C.z and the\n"
        "NTT kernels, the copies overlapping the transforms; msm_h = the H MSM on the device-resident h), msm_z\n"
        "is msm_l + msm_a + msm_b_g1 + msm_b_g2 (msm_a includes the one upload of z, which the L MSM reads\n"
        "aux from); sum = their total (ProofTimings::total()); prove = wall\n"
        "time of the whole prove() call (targets compare against it). first = first proof, bases upload included;\n"
        "median over the next proofs, bases resident. Witness synthesis (CPU) is timed separately.\n");
    say("Witness buffers: %s\n", args.pinned ? "page-locked once and reused (--pinned 1, as the engine's pool)"
                                             : "pageable, a fresh copy per proof (--pinned 0)");

    std::vector<Result> results;
    bool any_failed = false;
    for (int log_n : args.sizes) {
        for (const auto& circuit : args.circuits) {
            Result r;
            r.circuit = circuit;
            r.log_n = log_n;
            if (time_spent(args, t_start)) {
                r.status = "skipped: --max-seconds spent";
                say("\n== %s, 2^%d: %s\n", circuit.c_str(), log_n, r.status.c_str());
            } else {
                try {
                    run_one(args, r, t_start);
                } catch (const std::exception& e) {
                    r.status = std::string("error: ") + e.what();
                    any_failed = true;
                    say("  %s\n", r.status.c_str());
                }
            }
            results.push_back(std::move(r));  // the job's parameters and witness are freed by now
            write_json(args, backend_name, results);
        }
    }

    say("\n== summary (ms; median of the timed proofs; TIMING-ONLY keys, the proofs do not verify)\n");
    say("%-13s %4s %10s %10s %9s %9s %9s %9s %9s %9s %9s %9s %s\n", "circuit", "logn", "witness", "first", "H", "msm_h",
        "msm_l", "msm_a", "msm_b_g1", "msm_b_g2", "assemble", "prove", "target");
    for (const auto& r : results) {
        if (r.reps.empty()) {
            say("%-13s %4d  %s\n", r.circuit.c_str(), r.log_n, r.status.c_str());
            continue;
        }
        const Phases& m = r.med;
        say("%-13s %4d %10.1f %10.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f", r.circuit.c_str(), r.log_n,
            r.witness_ms, r.first.wall, m.h, m.msm_h, m.msm_l, m.msm_a, m.msm_b_g1, m.msm_b_g2, m.assemble, m.wall);
        const double tgt = target_ms(r.circuit, r.log_n);
        if (tgt > 0) say(" <= %.0f %s", tgt, m.wall <= tgt ? "MET" : "MISSED");
        if (r.status != "ok") say("  (%s)", r.status.c_str());
        say("\n");
    }
    say("total %.1f s\n", std::chrono::duration<double>(Clock::now() - t_start).count());
    return any_failed ? 1 : 0;
}
