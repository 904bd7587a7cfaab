// Proving ONE Filecoin PoRep partition (StackedDrg<size>V1_1, partition 0) per sector size,
// and with --sector 1 then the whole sector (every partition, the witness of partition k+1
// synthesized while partition k is proved, as the engine pipelines them: run_sector),
// from synthetic vanilla proofs, total and per phase, with TIMING-ONLY keys (see
// bench/timing_keys.hpp: real circuit shape and witness, fake parameters; THE PROOFS DO NOT
// VERIFY). Also the per-partition witness generation time and memory (issue: a required
// benchmark). Plain C++: builds in the CPU build too (--backend cpu at small sizes).
//
//   build/cuda/bench/cuzk_bench_porep_prove --sizes 2KiB,512MiB,32GiB --reps 3 --out porep_prove.json
//   build/cpu/bench/cuzk_bench_porep_prove --backend cpu --sizes 2KiB --reps 1      (smoke, no GPU)
//   build/cuda/bench/cuzk_bench_porep_prove --engine 1 --sizes 32GiB --out ni.json  (scripts/gpu bench ni-porep)
// --engine 1 streams whole sectors through the engine instead: the interactive sector, then the
// NI-PoRep one (126 partitions at 32 GiB), seconds a sector and device busy % (engine_main).
//
// Per size, in the order given (--max-seconds skips the last ones), every pass timed (and its
// peak RSS, VmHWM reset before it):
//   1. synthetic C1 (filecoin::synthetic_c1: only the challenged paths are materialized),
//   2. StackedCircuit::from_vanilla of the partition,
//   3. counts and densities (DensityCS: no matrices; 32 GiB = 130,278,541 constraints,
//      domain 2^27, whose full shape would take ~100 GB); --shape replicate derives them
//      from the header and two challenges (6x faster at 32 GiB, checked equal),
//   4. witness synthesis into engine-style buffers (aux: num_aux, a/b/c: the domain, taken
//      from the counts, page-locked before synthesis as the engine's warm buffer pool has
//      them; 4 x 4 GiB at 2^27),
//   5. timing-only parameters sized from the counts (every core),
//   6. the first proof (bases upload included) and --reps more (bases resident; median).
// The host memory needed is estimated and printed before anything large is allocated, and
// a size that would not fit MemAvailable is refused with a message. The CUDA backend only
// reads the host a, b, c (it uploads them), so every proof reuses the one synthesized
// witness (a sampled fingerprint of a, b, c and aux is checked after every proof); the CPU
// backend consumes a, b, c, so it refills them from a copy (outside the timed region).
// Measured on the dev machine (2 shared cores, CPU build), partition 0:
//   32 GiB: 130,278,869 constraints (328 input constraints included), 130,169,893 aux, domain
//     2^27; densities a_aux 129,753,292, b_input 1, b_aux 33,112,281, so queries h 134.2M,
//     l 130.2M, a 129.8M, b 33.1M: timing-only keys 47.55 GiB (G1 104 B, G2 200 B a point),
//     witness buffers 15.88 GiB; synthetic C1 1.2-3.7 s; counts and densities 100-142 s (load-
//     dependent), peak RSS 85 MiB; --shape replicate 16.5 s, equal to the full pass (--shape both).
//   512 MiB: 4,423,473 constraints, domain 2^23; counts and densities 4.1 s; witness 1.4 s,
//     0.53 GiB of values. 2 KiB: 2,687,961, 2^22; 2.4 s; witness 1.0 s, 0.32 GiB; the
//     densities equal the full shape's (--check-density 1).
// H200 + 16 cores (`scripts/gpu bench porep`, bench/RESULTS.md): a 32 GiB sector, 10
//   partitions, in 12.4 s wall, proof 1.16 s a partition, witness 0.66-0.97 s: proof
//   (GPU)-bound. --sector-compare 1 (buffers cleared before each witness against storage
//   overwritten in place): 33.9 against 16.4 s wall with 1.40 s proofs.
// A failure of one size is reported and the next one runs; --max-seconds stops starting new
// sizes (and new proofs) once spent; the JSON (--out) is rewritten after each size.
#include <algorithm>
#include <array>
#include <bit>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <mutex>
#include <optional>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/backend/backend.hpp"
#include "cuzk/backend/testing.hpp"
#include "cuzk/circuits/porep.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/filecoin/registry.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/gpu/device.hpp"
#include "cuzk/gpu/memory_plan.hpp"
#include "cuzk/groth16/prover.hpp"
#include "engine_sectors.hpp"
#include "timing_keys.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::bench;
using circuits::StackedCircuit;
using filecoin::RegisteredSealProof;

struct Args : RunArgs {
    std::vector<std::string> sizes{"2KiB", "512MiB", "32GiB"};
    unsigned partition = 0;
    bool check_density = false;       // compare DensityCS with the full shape (small sizes only)
    bool witness_only = false;        // stop after the witness: no parameters, no proofs
    std::string shape = "full";       // counts and densities: full, replicate or both (see replicated_shape)
    bool sector = false;              // then every partition, witness k+1 alongside proof k (run_sector)
    bool sector_compare = false;      // first a sector run with each buffer set cleared before its witness
    bool copy_ahead_compare = false;  // first sector runs without the copies ahead, then with z's only
    size_t device_memory = 0;         // prove as on a card of this many bytes (0: the card's own)
    std::string device_memory_text;
    // --device-sweep: after the main run, the sector again per entry, each with a new CUDA
    // backend within SIZE (a hold as --device-memory) and its H step's vectors (0: the budget's)
    struct SweepPoint {
        std::string text;
        size_t bytes = 0;
        unsigned h_vectors = 0;
        bool first_come = false;   // the backend's residency plan off
        std::optional<bool> lend;  // twiddles lent (:lend) or kept (:keep-twiddles); else by budget
    };
    std::vector<SweepPoint> sweep;
    // --engine 1: whole sectors through the engine instead (run_engine_sectors)
    bool engine = false;
    unsigned witness_workers = 0;  // 0: the engine's default
    unsigned prove_workers = 0;    // per device (and on the CPU); 0: the engine's default
};

// Device memory that --device-memory holds back (reported memory use leaves it out).
size_t g_device_memory_held = 0;

const char* const kDescription =
    "One PoRep partition per sector size, per phase (timing-only keys).\n"
    "Sizes are sector sizes of registered StackedDrg<size>V1_1 proofs (2KiB, 8MiB, 512MiB, 32GiB,\n"
    "64GiB), run in the order given. --check-density 1 also records the full shape (<= 2^22\n"
    "constraints) to check the densities. --witness-only 1 stops after the witness (no keys, no\n"
    "proofs). --shape replicate takes the counts and densities from the header and two\n"
    "challenges (checked shift-invariant), both runs full and replicate and compares them.\n"
    "--sector 1 then proves every partition of the sector, the witness of partition\n"
    "k+1 synthesized while partition k is proved (two page-locked buffer sets), and reports the\n"
    "sector's wall time. --sector-compare 1 runs the sector twice: first with each buffer set\n"
    "cleared before its witness (the witness then zero-fills its vectors as they grow),\n"
    "then as the engine does (stale entries overwritten in place).\n"
    "--copy-ahead-compare 1 runs the sector first with the CUDA backend's copies ahead off (each\n"
    "proof copies its own a, b, c and z when it needs them), then with z's only (under the H MSM),\n"
    "then as the engine does (also the next partition's a and c under this one's other MSMs).\n"
    "--device-memory SIZE (e.g. 24G) proves as on a card of that much memory: all of the device's\n"
    "memory but what such a card would have free is held by one allocation, so that the backend\n"
    "plans with what is free and any allocation beyond it fails (CUZK_GPU_MEMORY is not set: it\n"
    "would count the held memory against the limit a second time).\n"
    "--device-sweep 24G:2,24G:3,32G,48G:first-come then proves the sector once per entry (with\n"
    "--sector 1), each with a new CUDA backend within SIZE as --device-memory holds it and, after :2\n"
    "or :3, that many of a, b, c on the device in the H step (CUZK_GPU_H_VECTORS), after :first-come\n"
    "its base sets resident first come (the residency plan off), after :lend or :keep-twiddles the H\n"
    "step's twiddles lent to the MSMs between H steps or kept (CUZK_GPU_LEND_TWIDDLES; else by the\n"
    "budget), after one proof to warm it: one process, one set of parameters, configurations side by\n"
    "side.\n"
    "--engine 1 instead streams whole sectors through the engine (kind porep-seal-commit, timing-only\n"
    "keys from EngineConfig::key_source, verification off), per size: the interactive StackedDrg<size>V1_1\n"
    "sector once to warm up and once timed, then the NI-PoRep sector (StackedDrg<size>V1_2_Feat_\n"
    "NonInteractivePoRep: 126 partitions at 32/64 GiB, 13 at test sizes; its synthetic C1 has NI-PoRep's\n"
    "shape with the seed's challenges), the engine's witness workers synthesizing partition k+1 while\n"
    "partition k is proved. Reports seconds a sector, the device's busy share of the sector's wall time\n"
    "(EngineStatus busy_ms) and the NI/interactive time ratio against the partition ratio (12.6 at 32 GiB).\n"
    "--witness-workers and --prove-workers set the engine's (default: its own).\n"
    "Google Benchmark flags are not taken.";

[[noreturn]] void usage(const std::string& why) {
    std::fprintf(stderr, "cuzk_bench_porep_prove: %s (--help for usage)\n", why.c_str());
    std::exit(2);
}

// "24G:2:first-come" -> a sweep point; std::invalid_argument on anything else.
Args::SweepPoint parse_sweep_point(const std::string& item) {
    Args::SweepPoint pt;
    pt.text = item;
    const size_t colon = item.find(':');
    for (size_t at = colon; at != std::string::npos;) {
        const size_t next = item.find(':', at + 1);
        const std::string opt = item.substr(at + 1, next == std::string::npos ? next : next - at - 1);
        if (opt == "2" || opt == "3")
            pt.h_vectors = unsigned(opt[0] - '0');
        else if (opt == "first-come")
            pt.first_come = true;
        else if (opt == "lend")
            pt.lend = true;
        else if (opt == "keep-twiddles")
            pt.lend = false;
        else
            throw std::invalid_argument(item);
        at = next;
    }
    const std::optional<size_t> n = gpu::parse_byte_size(item.substr(0, colon));
    if (!n) throw std::invalid_argument(item);
    pt.bytes = *n;
    return pt;
}

Args parse(int argc, char** argv) {
    Args a;
    CLI::App app(kDescription, "cuzk_bench_porep_prove");
    app.get_formatter()->column_width(34);
    add_run_options(app, a);
    app.add_option_function<std::string>(
           "--sizes", [&a](const std::string& v) { a.sizes = split_list(v); },
           "comma-separated sector sizes (default 2KiB,512MiB,32GiB)")
        ->type_name("LIST");
    app.add_option("--partition", a.partition, "partition index")->capture_default_str();
    add_flag01(app, "--check-density", a.check_density, "check the densities against the full shape");
    add_flag01(app, "--witness-only", a.witness_only, "stop after the witness");
    app.add_option("--shape", a.shape, "counts and densities: full, replicate or both")
        ->check(CLI::IsMember({"full", "replicate", "both"}))
        ->capture_default_str();
    add_flag01(app, "--sector", a.sector, "then the whole sector, witness k+1 beside proof k");
    add_flag01(app, "--sector-compare", a.sector_compare, "the sector with buffers cleared, then reused");
    add_flag01(app, "--copy-ahead-compare", a.copy_ahead_compare, "the sector without, then with copies ahead");
    add_flag01(app, "--engine", a.engine, "interactive and NI-PoRep sectors through the engine");
    app.add_option("--witness-workers", a.witness_workers, "--engine 1: the engine's witness workers");
    app.add_option("--prove-workers", a.prove_workers, "--engine 1: prove workers a device (and on the CPU)");
    app.add_option_function<std::string>(
           "--device-memory",
           [&a](const std::string& v) {
               const std::optional<size_t> n = gpu::parse_byte_size(v);
               if (!n) throw CLI::ValidationError("--device-memory", "not a size: " + v);
               a.device_memory = *n;
               a.device_memory_text = v;
           },
           "prove as on a card of this much memory (e.g. 24G)")
        ->type_name("SIZE");
    app.add_option_function<std::string>(
           "--device-sweep",
           [&a](const std::string& v) {
               for (const std::string& item : split_list(v)) {
                   try {
                       a.sweep.push_back(parse_sweep_point(item));
                   } catch (const std::logic_error&) {
                       throw CLI::ValidationError("--device-sweep", "bad entry: " + item);
                   }
               }
           },
           "SIZE[:2|3][:first-come][:lend|:keep-twiddles],...")
        ->type_name("LIST");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        std::exit(app.exit(e));
    }
    if (a.sector && a.witness_only) usage("--sector 1 proves: not with --witness-only 1");
    if (a.sector_compare && !a.sector) usage("--sector-compare 1 needs --sector 1");
    if (a.copy_ahead_compare && !a.sector) usage("--copy-ahead-compare 1 needs --sector 1");
    if (!a.sweep.empty() && (!a.sector || a.backend != "cuda")) usage("--device-sweep needs --sector 1 --backend cuda");
    if (a.engine && (a.sector || a.witness_only || !a.sweep.empty() || a.device_memory))
        usage(
            "--engine 1 runs whole sectors by itself: not with --sector, --witness-only, --device-sweep or "
            "--device-memory");
    for (const auto& s : a.sizes)
        if (!filecoin::seal_proof_from_name("StackedDrg" + s + "V1_1"))
            usage("unknown sector size " + s + " (no registered proof StackedDrg" + s + "V1_1)");
    // In the order given (a bounded run lists first what it must not lose), repeats dropped.
    std::vector<std::string> once;
    for (const auto& s : a.sizes)
        if (std::find(once.begin(), once.end(), s) == once.end()) once.push_back(s);
    a.sizes = std::move(once);
    return a;
}

// Constraint counts pinned by tests/circuits/test_porep.cpp: the circuit's own, without the
// one input constraint per public input that the prover's system adds.
size_t pinned_constraints(const std::string& size) {
    if (size == "2KiB") return 2'687'921;
    if (size == "8MiB") return 3'844'929;
    if (size == "512MiB") return 4'423'433;
    if (size == "32GiB") return 130'278'541;
    return 0;
}

// Counts and densities of the partition from a circuit of 1 and one of 2 challenges
// (replicated_shape, timing_keys.hpp): about 2/c of the full pass's time (c = 18 challenges at
// 32 GiB).
ShapeInfo replicated_porep_shape(const StackedCircuit& c) {
    return replicated_shape(c, c.proofs.size(), [](StackedCircuit& ck, size_t k) {
        ck.proofs.resize(k);
        ck.params.challenges = unsigned(k);
    });
}

// What the sector run lets the CUDA backend copy before a proof needs it: nothing; z (under
// the H MSM, h_msm's own); z and the next partition's a and c (copy_abc_ahead), the default.
enum class CopyAhead { kNone, kZ, kAll };

// The whole sector (--sector 1): per partition, its witness synthesis, how long the prover
// waited for it, and its proof; wall = first synthesis start to last proof end.
struct SectorRun {
    bool ran = false;
    double wall_ms = 0;
    std::vector<double> witness_ms, wait_ms, prove_ms;
    std::vector<groth16::ProofTimings> phases;
};

struct Result : ProofSeries {
    std::string size, proof_name;
    // sector_cleared: --sector-compare's first run; sector_no_ahead and sector_z_ahead:
    // --copy-ahead-compare's
    SectorRun sector, sector_cleared, sector_no_ahead, sector_z_ahead;
    // --device-sweep's, one per point: its warm-up proof and sector, what the backend kept
    struct SweepRun {
        std::string point;
        Phases first;
        SectorRun sector;
        unsigned h_vectors = 0;
        size_t twiddles_lent = 0;  // bytes, after the sector
        size_t resident_sets = 0, streamed_sets = 0;
        std::string resident;  // e.g. "B_G2 B_G1"
        double in_use_gib = 0;
    };
    std::vector<SweepRun> sweep;
    ShapeInfo shape;
    Pass c1, circuit, shape_pass, witness, params;
    double pin_ms = 0, backend_ms = 0;
    double witness_gib = 0, values_gib = 0, params_gib = 0, estimate_gib = 0, available_gib = 0;
    size_t pinned_buffers = 0;
};

void write_json(const Args& args, const std::vector<Result>& rs) {
    if (args.out.empty()) return;
    std::ofstream f(args.out);
    f << "{\n  \"bench\": \"porep_prove\",\n  \"note\": \"TIMING-ONLY fake parameters: the proofs do not verify\",\n"
      << "  \"backend\": \"" << args.backend << "\",\n  \"pinned\": " << (args.pinned ? "true" : "false")
      << ",\n  \"partition\": " << args.partition << ",\n  \"reps\": " << args.reps
      << ",\n  \"threads\": " << std::thread::hardware_concurrency() << ",\n  \"unit\": \"ms\",\n  \"results\": [";
    for (size_t i = 0; i < rs.size(); ++i) {
        const Result& r = rs[i];
        const ShapeInfo& s = r.shape;
        f << (i ? "," : "") << "\n    {\"size\": \"" << r.size << "\", \"proof\": \"" << r.proof_name
          << "\", \"status\": \"" << json_escape(r.status) << "\", \"constraints\": " << s.constraints
          << ", \"inputs\": " << s.inputs << ", \"aux\": " << s.aux << ", \"domain\": " << s.domain
          << ", \"len_h\": " << s.len_h << ", \"len_l\": " << s.len_l << ", \"len_a\": " << s.len_a
          << ", \"len_b\": " << s.len_b << ", \"shape_mode\": \"" << args.shape
          << "\", \"witness_buffers_gib\": " << r.witness_gib << ", \"witness_values_gib\": " << r.values_gib
          << ", \"params_gib\": " << r.params_gib << ", \"host_estimate_gib\": " << r.estimate_gib
          << ", \"mem_available_gib\": " << r.available_gib << ",\n     \"c1\": " << json_pass(r.c1)
          << ",\n     \"from_vanilla\": " << json_pass(r.circuit) << ",\n     \"shape\": " << json_pass(r.shape_pass)
          << ",\n     \"witness\": " << json_pass(r.witness) << ",\n     \"params_gen\": " << json_pass(r.params)
          << ",\n     \"pin_ms\": " << r.pin_ms << ", \"pinned_buffers\": " << r.pinned_buffers
          << ", \"backend_init_ms\": " << r.backend_ms;
        if (r.have_first) f << ",\n     \"first\": " << json_phases(r.first);
        if (!r.reps.empty()) {
            f << ",\n     \"median\": " << json_phases(r.med) << ",\n     \"reps\": [";
            for (size_t j = 0; j < r.reps.size(); ++j) f << (j ? ", " : "") << json_phases(r.reps[j]);
            f << "]";
        }
        auto sector = [&](const char* key, const SectorRun& run) {
            if (!run.ran) return;
            auto list = [&](const std::vector<double>& v) {
                f << "[";
                for (size_t j = 0; j < v.size(); ++j) f << (j ? ", " : "") << v[j];
                f << "]";
            };
            f << ",\n     \"" << key << "\": {\"wall_ms\": " << run.wall_ms << ", \"witness_ms\": ";
            list(run.witness_ms);
            f << ", \"wait_ms\": ";
            list(run.wait_ms);
            f << ", \"prove_ms\": ";
            list(run.prove_ms);
            f << ", \"phases\": [";
            for (size_t j = 0; j < run.phases.size(); ++j) {
                const groth16::ProofTimings& t = run.phases[j];
                f << (j ? ", " : "") << "{\"h\": " << t.h << ", \"msm_h\": " << t.msm_h << ", \"msm_l\": " << t.msm_l
                  << ", \"msm_a\": " << t.msm_a << ", \"msm_b_g1\": " << t.msm_b_g1 << ", \"msm_b_g2\": " << t.msm_b_g2
                  << "}";
            }
            f << "]}";
        };
        sector("sector_cleared", r.sector_cleared);
        sector("sector_no_copy_ahead", r.sector_no_ahead);
        sector("sector_z_copied_ahead", r.sector_z_ahead);
        sector("sector", r.sector);
        if (!r.sweep.empty()) {
            f << ",\n     \"device_sweep\": [";
            for (size_t j = 0; j < r.sweep.size(); ++j) {
                const Result::SweepRun& sw = r.sweep[j];
                f << (j ? ",\n      " : "\n      ") << "{\"point\": \"" << json_escape(sw.point)
                  << "\", \"h_vectors\": " << sw.h_vectors << ", \"twiddles_lent\": " << sw.twiddles_lent
                  << ", \"resident_sets\": " << sw.resident_sets << ", \"streamed_sets\": " << sw.streamed_sets
                  << ", \"resident\": \"" << sw.resident << "\", \"in_use_gib\": " << sw.in_use_gib
                  << ", \"first\": " << json_phases(sw.first);
                sector("run", sw.sector);
                f << "}";
            }
            f << "]";
        }
        f << "}";
    }
    f << "\n  ]\n}\n";
    if (!f) say("warning: could not write %s\n", args.out.c_str());
}

// A sampled fingerprint of a witness vector (about 64k entries and the last one): cheap
// enough to take around every proof at 2^27, and it catches a backend that overwrites or
// frees the host buffers it was only meant to read.
uint64_t fingerprint(std::span<const Fr> v) {
    uint64_t h = v.size() * 0x9e3779b97f4a7c15ull;
    const size_t stride = std::max<size_t>(1, v.size() / 65536);
    auto mix = [&](const Fr& x) {
        for (uint64_t limb : x.l) h = (h ^ limb) * 0x100000001b3ull;
    };
    for (size_t i = 0; i < v.size(); i += stride) mix(v[i]);
    if (!v.empty()) mix(v.back());
    return h;
}

uint64_t fingerprint(const groth16::Witness& w) {
    return fingerprint(w.aux) ^ (fingerprint(w.a) * 3) ^ (fingerprint(w.b) * 5) ^ (fingerprint(w.c) * 7);
}

// The base sets a CUDA backend keeps on the device, by query ("B_G2 B_G1"; empty: none).
std::string resident_set_names(groth16::ProverBackend& backend, const ShapeInfo& s) {
    std::string names;
    for (const gpu::BaseSetState& b : gpu::base_set_states(backend)) {
        if (!b.resident) continue;
        const char* name = b.g2                 ? "B_G2"
                           : b.bases == s.len_h ? "H"
                           : b.bases == s.len_l ? "L"
                           : b.bases == s.len_a ? "A"
                           : b.bases == s.len_b ? "B_G1"
                                                : "?";
        if (!names.empty()) names += ' ';
        names += name;
    }
    return names;
}

// Every partition of the sector on the GPU, as the engine pipelines them: a producer thread
// builds partition k's circuit and synthesizes its witness (every core: the challenges in
// parallel) into one of two page-locked buffer sets while this thread proves partition k-1
// from the other; one set of keys serves every partition (one shape). slot0 is the single-
// partition run's witness (its buffers page-locked by the caller): its storage is lent to
// the pipeline and handed back, so that it is unregistered before it is freed.
void run_sector(const Args& args, Result& r, const filecoin::PoRepConfig& cfg,
                const filecoin::SealCommitPhase1Output& c1, const groth16::Parameters& params,
                groth16::ProverBackend& backend, groth16::Witness& slot0, SectorRun& out, bool clear_buffers,
                CopyAhead copy_ahead) {
    const ShapeInfo& s = r.shape;
    const size_t parts = c1.vanilla_proofs.size();
    say("\n  == the whole sector: %zu partitions, witness k+1 (CPU) alongside proof k (GPU), two buffer sets%s%s\n",
        parts, clear_buffers ? ", each cleared before its witness (zero-filled as it grows)" : "",
        copy_ahead == CopyAhead::kNone ? ", no copies ahead"
        : copy_ahead == CopyAhead::kZ  ? ", z copied ahead, not a and c"
                                       : "");
    gpu::set_copy_ahead(backend, copy_ahead != CopyAhead::kNone);
    const gpu::CopyAheadStats ahead_before = gpu::copy_ahead_stats(backend);
    // Slot 0 takes slot0's storage, slot 1 new buffers; each slot's storage stays its own.
    // Declared before `pinned`, so that it is unregistered before anything here frees it.
    std::array<r1cs::WitnessBuffers, 2> free_bufs;
    std::array<groth16::Witness, 2> ready;
    free_bufs[0] = take_buffers(slot0);
    free_bufs[1].aux.reserve(s.aux);
    for (auto* v : {&free_bufs[1].a, &free_bufs[1].b, &free_bufs[1].c}) v->reserve(s.domain);
    PinnedBuffers pinned({&free_bufs[1].aux, &free_bufs[1].a, &free_bufs[1].b, &free_bufs[1].c}, args.pinned);
    std::array<int, 2> state{0, 0};  // 0 free, 1 being filled, 2 ready
    // The next partition's a, b, c on their way to the device (copy_abc_ahead, started once
    // the current proof's H is done and that witness is ready). Dropped before its storage.
    std::shared_ptr<groth16::AbcAhead> ahead;
    std::mutex mu;
    std::condition_variable cv;
    std::exception_ptr failed;
    bool stop = false;
    out.witness_ms.assign(parts, 0);
    out.wait_ms.assign(parts, 0);
    out.prove_ms.assign(parts, 0);
    out.phases.assign(parts, {});
    const auto t_sector = Clock::now();

    std::thread producer([&] {
        try {
            for (size_t k = 0; k < parts; ++k) {
                const size_t slot = k % 2;
                r1cs::WitnessBuffers bufs;
                {
                    std::unique_lock lk(mu);
                    cv.wait(lk, [&] { return state[slot] == 0 || stop; });
                    if (stop) return;
                    state[slot] = 1;
                    bufs = std::move(free_bufs[slot]);
                    if (clear_buffers)
                        for (auto* v : {&bufs.aux, &bufs.a, &bufs.b, &bufs.c}) v->clear();
                }
                const auto t0 = Clock::now();
                const StackedCircuit circuit =
                    StackedCircuit::from_vanilla(cfg, c1.replica_id, c1.comm_d, c1.comm_r, c1.vanilla_proofs[k]);
                groth16::Witness w =
                    groth16::CircuitOf<StackedCircuit>(circuit, "partition").witness(std::move(bufs), s.aux, s.domain);
                out.witness_ms[k] = ms_since(t0);
                std::lock_guard lk(mu);
                ready[slot] = std::move(w);
                state[slot] = 2;
                cv.notify_all();
            }
        } catch (...) {
            std::lock_guard lk(mu);
            failed = std::current_exception();
            cv.notify_all();
        }
    });
    // Gives every buffer back to its slot, then the lent one to slot0 (also on a throw).
    auto finish = [&] {
        {
            std::lock_guard lk(mu);
            stop = true;
            cv.notify_all();
        }
        producer.join();
        ahead.reset();  // waits for its copies
        for (size_t slot = 0; slot < 2; ++slot)
            if (state[slot] == 2) free_bufs[slot] = take_buffers(ready[slot]);
        give_buffers(std::move(free_bufs[0]), slot0);
    };
    try {
        std::mt19937_64 rng(args.seed ^ 0x5ec7025ec7025ec7ull);
        say("    %-9s %11s %9s %9s %9s %9s %9s %9s %9s %9s   (ms)\n", "partition", "witness", "wait", "prove", "H",
            "msm_h", "msm_l", "msm_a", "msm_b_g1", "msm_b_g2");
        for (size_t k = 0; k < parts; ++k) {
            const size_t slot = k % 2;
            groth16::Witness w;
            {
                const auto t0 = Clock::now();
                std::unique_lock lk(mu);
                cv.wait(lk, [&] { return state[slot] == 2 || failed; });
                if (failed) std::rethrow_exception(failed);
                out.wait_ms[k] = ms_since(t0);
                w = std::move(ready[slot]);
                state[slot] = 1;  // in the prover's hands
            }
            const groth16::Randomness rs{Fr::random(rng), Fr::random(rng)};
            std::shared_ptr<groth16::AbcAhead> mine = std::move(ahead);  // made for w's vectors, or null
            auto after_h = [&] {
                mine.reset();  // h_msm used it (or it waited for its copies)
                std::lock_guard lk(mu);
                if (copy_ahead == CopyAhead::kAll && k + 1 < parts && state[1 - slot] == 2)
                    ahead = backend.copy_abc_ahead(ready[1 - slot].a, ready[1 - slot].b, ready[1 - slot].c);
            };
            out.prove_ms[k] =
                prove_keeping_storage(params, s.density, w, rs, backend, &out.phases[k], mine.get(), after_h);
            mine.reset();
            std::lock_guard lk(mu);
            free_bufs[slot] = take_buffers(w);
            state[slot] = 0;
            cv.notify_all();
            const groth16::ProofTimings& t = out.phases[k];
            say("    %-9zu %11.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f\n", k, out.witness_ms[k],
                out.wait_ms[k], out.prove_ms[k], t.h, t.msm_h, t.msm_l, t.msm_a, t.msm_b_g1, t.msm_b_g2);
        }
    } catch (...) {
        finish();
        throw;
    }
    out.wall_ms = ms_since(t_sector);
    finish();
    out.ran = true;
    double prove_sum = 0, witness_sum = 0;
    for (size_t k = 0; k < parts; ++k) prove_sum += out.prove_ms[k], witness_sum += out.witness_ms[k];
    say("    sector: %zu partitions in %.1f s wall; proofs %.1f s (prover busy %.0f%% of the wall), witnesses %.1f s; "
        "%s-bound\n",
        parts, out.wall_ms / 1e3, prove_sum / 1e3, 100 * prove_sum / out.wall_ms, witness_sum / 1e3,
        witness_sum > prove_sum ? "witness (CPU)" : "proof (GPU)");
    const gpu::CopyAheadStats ahead_after = gpu::copy_ahead_stats(backend);
    say("    copies ahead (CUDA backend): z %zu, a and c %zu of %zu partitions\n", ahead_after.z - ahead_before.z,
        ahead_after.abc - ahead_before.abc, parts);
    if (gpu::device_count() > 0) {  // what the resident bases and the backends' scratch hold
        const gpu::DeviceMemory mem = gpu::device_memory(0);
        say("    device 0 memory after the sector: %.1f GiB in use of %.1f GiB (cudaMemGetInfo; less the %.1f GiB "
            "that --device-memory holds)\n",
            double(mem.total - mem.free - g_device_memory_held) / double(1ull << 30),
            double(mem.total) / double(1ull << 30), double(g_device_memory_held) / double(1ull << 30));
        const gpu::ResidencyStats rs = gpu::residency_stats(backend);
        say("    base sets (CUDA backend): %zu resident, %zu streamed from host memory, %zu evictions; "
            "H step with %u of a, b, c on the device, %.2f GiB of its twiddles lent to the MSMs; "
            "CUZK_GPU_MEMORY %s\n",
            rs.resident_sets, rs.streamed_sets, rs.evictions, rs.h_vectors,
            double(rs.twiddles_lent) / double(1ull << 30),
            rs.memory_limit ? (std::to_string(rs.memory_limit >> 30) + " GiB").c_str() : "unset");
        const std::string names = resident_set_names(backend, s);
        say("    resident base sets: %s\n", names.empty() ? "none" : names.c_str());
    }
    gpu::set_copy_ahead(backend, true);
}

void run_one(const Args& args, Result& r, Clock::time_point t_start) {
    const RegisteredSealProof proof = *filecoin::seal_proof_from_name("StackedDrg" + r.size + "V1_1");
    const filecoin::PoRepConfig& cfg = filecoin::porep_config(proof);
    r.proof_name = std::string(cfg.name);
    say("\n== %s (registered proof %s), partition %u of %u\n", r.size.c_str(), r.proof_name.c_str(), args.partition,
        unsigned(cfg.partitions));
    if (args.partition >= cfg.partitions) throw std::invalid_argument("--partition beyond the proof's partitions");

    // 1-2. Synthetic C1 and the partition's circuit (the C1 output is dropped after).
    std::unique_ptr<groth16::CircuitOf<StackedCircuit>> circuit;
    filecoin::SealCommitPhase1Output c1;  // kept for --sector, else dropped after the circuit
    {
        r.c1 = timed_pass([&] { c1 = filecoin::synthetic_c1(proof, args.seed); });
        say("  synthetic C1 (%zu partitions x %zu challenges): %s\n", c1.vanilla_proofs.size(),
            c1.vanilla_proofs.empty() ? size_t(0) : c1.vanilla_proofs[0].size(), pass_text(r.c1).c_str());
        r.circuit = timed_pass([&] {
            circuit = std::make_unique<groth16::CircuitOf<StackedCircuit>>(
                StackedCircuit::from_vanilla(cfg, c1.replica_id, c1.comm_d, c1.comm_r,
                                             c1.vanilla_proofs.at(args.partition)),
                r.proof_name + "/partition" + std::to_string(args.partition));
        });
        say("  StackedCircuit::from_vanilla: %s\n", pass_text(r.circuit).c_str());
        if (!args.sector) c1 = {};
    }

    // 3. Counts and densities, no matrices.
    r.shape_pass = timed_pass([&] {
        r.shape =
            args.shape == "replicate" ? replicated_porep_shape(circuit->inner()) : density_shape(circuit->inner());
    });
    const ShapeInfo& s = r.shape;
    const size_t pinned = pinned_constraints(r.size);
    const bool pinned_ok = pinned == 0 || pinned + s.inputs == s.constraints;
    say("  counts and densities (DensityCS, no matrices; --shape %s): %s\n", args.shape.c_str(),
        pass_text(r.shape_pass).c_str());
    if (args.shape == "both") {
        ShapeInfo rep;
        const Pass p = timed_pass([&] { rep = replicated_porep_shape(circuit->inner()); });
        if (rep.inputs != s.inputs || rep.aux != s.aux || rep.constraints != s.constraints ||
            !(rep.density == s.density))
            throw std::logic_error("--shape both: the replicated counts and densities differ from the full pass");
        say("  --shape both: replicated from 2 challenges = the full pass (%s)\n", pass_text(p).c_str());
    }
    say("  %zu constraints (inputs included%s), %zu inputs (ONE included), %zu aux; domain 2^%d\n", s.constraints,
        pinned == 0 ? ""
        : pinned_ok ? "; the tests' pinned count + one per input"
                    : "; DIFFERS from the count pinned by the tests",
        s.inputs, s.aux, int(std::countr_zero(s.domain)));
    say("  densities: a_aux %zu, b_input %zu, b_aux %zu; queries: h %zu, l %zu, a %zu, b_g1 %zu, b_g2 %zu\n",
        s.density.a_aux.count(), s.density.b_input.count(), s.density.b_aux.count(), s.len_h, s.len_l, s.len_a, s.len_b,
        s.len_b);
    if (!pinned_ok) throw std::logic_error("constraint count differs from the pinned one");
    if (args.check_density) {
        if (s.constraints > (size_t(1) << 22)) {
            say("  --check-density: skipped above 2^22 constraints (the full shape would not fit)\n");
        } else {
            const auto t0 = Clock::now();
            const r1cs::Shape sh = circuit->shape();
            if (sh.num_inputs != s.inputs || sh.num_aux != s.aux || sh.num_constraints != s.constraints ||
                !(sh.density() == s.density))
                throw std::logic_error("DensityCS disagrees with the full shape");
            say("  --check-density: counts and densities = the full shape's (%.1f ms)\n", ms_since(t0));
        }
    }

    // Host memory before allocating: the witness buffers (engine-style capacities), the CPU
    // backend's copy of a, b, c, the parameters, and the prover's own vectors (gpu_groth16's
    // estimate: domain + z values).
    const bool cpu = args.backend == "cpu";
    r.witness_gib = (s.aux + 3 * s.domain) * sizeof(Fr) / kGiB;
    r.values_gib = (s.inputs + s.aux + 3 * s.constraints) * sizeof(Fr) / kGiB;
    r.params_gib = s.params_gib();
    const double copy_gib = cpu && !args.witness_only ? 3 * s.domain * sizeof(Fr) / kGiB : 0;
    const double scratch_gib = args.witness_only ? 0 : (s.domain + s.inputs + s.aux) * sizeof(Fr) / kGiB;
    r.estimate_gib =
        r.witness_gib * (args.sector ? 2 : 1) + copy_gib + (args.witness_only ? 0 : r.params_gib) + scratch_gib;
    r.available_gib = mem_available_bytes() / kGiB;
    say("  host memory estimate: witness buffers %.2f GiB (aux %.2f + a, b, c 3 x %.2f) + params %.2f GiB (G1 %zu B, "
        "G2 %zu B a point) + the CPU backend's copy of a, b, c %.2f GiB + prover scratch %.2f GiB = %.2f GiB more; "
        "available %.2f GiB\n",
        r.witness_gib, s.aux * sizeof(Fr) / kGiB, s.domain * sizeof(Fr) / kGiB, r.params_gib, sizeof(G1Affine),
        sizeof(G2Affine), copy_gib, scratch_gib, r.estimate_gib, r.available_gib);
    if (r.available_gib > 0 && r.estimate_gib > 0.95 * r.available_gib) {
        char why[160];
        std::snprintf(why, sizeof why,
                      "skipped: the estimated %.2f GiB exceed 95%% of the available host memory (%.2f GiB)",
                      r.estimate_gib, r.available_gib);
        throw std::runtime_error(why);
    }

    // The backend first: a machine without a usable GPU fails here, not after the keys.
    auto t0 = Clock::now();
    // --device-memory: the hold first (the backend and its allocations go before it).
    std::unique_ptr<gpu::DeviceMemoryHold> hold;
    if (args.device_memory && !cpu && !args.witness_only) {
        hold = std::make_unique<gpu::DeviceMemoryHold>(args.device, args.device_memory);
        g_device_memory_held = hold->held_bytes();
        say("  --device-memory %s: %.2f GiB of device %d held back\n", args.device_memory_text.c_str(),
            double(hold->held_bytes()) / kGiB, args.device);
    }
    std::unique_ptr<groth16::ProverBackend> backend;
    if (!args.witness_only) backend = cpu ? groth16::make_cpu_backend() : gpu::make_cuda_backend(args.device);
    r.backend_ms = ms_since(t0);

    // 4. The witness, into engine-style buffers page-locked before synthesis (the engine's
    // pool registers the buffers it recycles, so a warm engine synthesizes into them).
    const bool reuse = !cpu;  // the CUDA backend only reads a, b, c
    r1cs::WitnessBuffers bufs;
    bufs.aux.reserve(s.aux);
    for (auto* v : {&bufs.a, &bufs.b, &bufs.c}) v->reserve(s.domain);
    const Fr* storage[] = {bufs.aux.data(), bufs.a.data(), bufs.b.data(), bufs.c.data()};
    // The witness: declared before the registration, so that its buffers are unregistered
    // before they are freed (run_proofs hands a, b, c back to it after each proof).
    groth16::Witness w;
    t0 = Clock::now();
    PinnedBuffers pinned_bufs({&bufs.aux, &bufs.a, &bufs.b, &bufs.c}, args.pinned && !cpu);
    r.pin_ms = ms_since(t0);
    r.pinned_buffers = pinned_bufs.buffers();
    if (args.pinned && !cpu)
        say("  witness buffers page-locked before synthesis: %zu of 4, %.2f GiB in %.1f ms\n", pinned_bufs.buffers(),
            pinned_bufs.bytes() / kGiB, r.pin_ms);
    r.witness = timed_pass([&] { w = circuit->witness(std::move(bufs), s.aux, s.domain); });
    say("  WITNESS per partition (CPU; challenges in parallel on the thread pool): %s; values %.2f GiB (z + A.z, B.z, "
        "C.z) in buffers of %.2f GiB%s\n",
        pass_text(r.witness).c_str(), r.values_gib, r.witness_gib,
        r.pinned_buffers ? " (page-locked, hence resident, before the pass)" : "");
    if (w.aux.data() != storage[0] || w.a.data() != storage[1] || w.b.data() != storage[2] || w.c.data() != storage[3])
        throw std::logic_error("witness synthesis did not keep the reserved buffers");
    if (w.a.size() != s.constraints || w.aux.size() != s.aux || w.inputs.size() != s.inputs)
        throw std::logic_error("the witness's sizes differ from the counts");
    circuit.reset();  // the vanilla values are no longer needed
    if (args.witness_only) {
        r.status = "witness only (--witness-only 1)";
        return;
    }

    // 5. Timing-only parameters.
    groth16::Parameters params;
    r.params = timed_pass([&] { params = fake_parameters(s, args.seed); });
    say("  timing-only parameters, %.2f GiB: %s (%u threads) -- FAKE KEYS, proofs will NOT verify\n", r.params_gib,
        pass_text(r.params).c_str(), std::thread::hardware_concurrency());

    // 6. Proofs.
    r1cs::WitnessVector copy_a, copy_b, copy_c;  // the CPU backend's refill source
    if (!reuse) copy_a = w.a, copy_b = w.b, copy_c = w.c;
    const uint64_t print = reuse ? fingerprint(w) : 0;
    run_proofs(
        params, s.density, w, *backend, args.reps, args.seed, 0,
        [&](groth16::Witness& x) {
            if (reuse) return;  // the CUDA backend only reads a, b, c
            x.a = copy_a;
            x.b = copy_b;
            x.c = copy_c;
        },
        [&](groth16::Witness& x) {
            if (reuse && fingerprint(x) != print)
                throw std::logic_error("the backend changed the host witness buffers; later proofs would differ");
        },
        [&] { return time_spent(args, t_start); }, r);
    if (args.sector && r.have_first) {
        if (args.sector_compare)
            run_sector(args, r, cfg, c1, params, *backend, w, r.sector_cleared, true, CopyAhead::kAll);
        if (args.copy_ahead_compare) {
            run_sector(args, r, cfg, c1, params, *backend, w, r.sector_no_ahead, false, CopyAhead::kNone);
            run_sector(args, r, cfg, c1, params, *backend, w, r.sector_z_ahead, false, CopyAhead::kZ);
        }
        run_sector(args, r, cfg, c1, params, *backend, w, r.sector, false, CopyAhead::kAll);
        if (!args.sweep.empty()) {
            // The main run's backend and hold go first: each point gets the card as that size
            // of card would have it.
            backend.reset();
            hold.reset();
            g_device_memory_held = 0;
            for (const Args::SweepPoint& pt : args.sweep) {
                if (time_spent(args, t_start)) {
                    say("\n  --device-sweep %s: skipped, --max-seconds spent\n", pt.text.c_str());
                    continue;
                }
                Result::SweepRun sw;
                sw.point = pt.text;
                auto point_hold = std::make_unique<gpu::DeviceMemoryHold>(args.device, pt.bytes);
                g_device_memory_held = point_hold->held_bytes();
                auto point_backend = gpu::make_cuda_backend(args.device);
                if (pt.h_vectors) gpu::set_h_step_vectors(*point_backend, pt.h_vectors);
                if (pt.first_come) gpu::set_residency_plan(*point_backend, false);
                if (pt.lend) gpu::set_twiddle_lending(*point_backend, pt.lend);
                say("\n  == --device-sweep %s: %.2f GiB of device %d held back, H step vectors %s, base sets %s, "
                    "twiddles %s\n",
                    pt.text.c_str(), double(point_hold->held_bytes()) / kGiB, args.device,
                    pt.h_vectors ? std::to_string(pt.h_vectors).c_str() : "by the budget",
                    pt.first_come ? "resident first come" : "planned",
                    pt.lend ? (*pt.lend ? "lent" : "kept") : "by the budget");
                ProofSeries warm;
                const uint64_t before = fingerprint(w);  // the last partition's witness, as run_sector left it
                run_proofs(
                    params, s.density, w, *point_backend, 0, args.seed, 0, [](groth16::Witness&) {},
                    [&](groth16::Witness& x) {
                        if (fingerprint(x) != before)
                            throw std::logic_error("the backend changed the host witness buffers");
                    },
                    [] { return false; }, warm);
                sw.first = warm.first;
                run_sector(args, r, cfg, c1, params, *point_backend, w, sw.sector, false, CopyAhead::kAll);
                const gpu::ResidencyStats rs = gpu::residency_stats(*point_backend);
                sw.h_vectors = rs.h_vectors;
                sw.twiddles_lent = rs.twiddles_lent;
                sw.resident_sets = rs.resident_sets;
                sw.streamed_sets = rs.streamed_sets;
                sw.resident = resident_set_names(*point_backend, s);
                const gpu::DeviceMemory mem = gpu::device_memory(args.device);
                sw.in_use_gib = double(mem.total - mem.free - g_device_memory_held) / kGiB;
                point_backend.reset();
                point_hold.reset();
                g_device_memory_held = 0;
                r.sweep.push_back(std::move(sw));
                write_json(args, {r});
            }
            say("\n  == --device-sweep: the whole sector per point (partitions 1-8's median proof, ms)\n");
            say("    %-12s %8s %22s %10s %9s %9s %9s %9s %9s %9s %9s\n", "point", "vectors", "resident", "in use GiB",
                "sector s", "prove", "H", "msm_h", "msm_l", "msm_a", "msm_b_g1");
            for (const Result::SweepRun& sw : r.sweep) {
                const auto med = [&](auto get) {
                    std::vector<double> v;
                    for (size_t k = 1; k + 1 < sw.sector.phases.size(); ++k) v.push_back(get(k));
                    if (v.empty()) return 0.0;
                    std::sort(v.begin(), v.end());
                    return v[v.size() / 2];
                };
                const auto& ph = sw.sector.phases;
                say("    %-12s %8u %22s %10.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f  msm_b_g2 %.1f  twiddles lent "
                    "%.1f GiB\n",
                    sw.point.c_str(), sw.h_vectors, sw.resident.empty() ? "none" : sw.resident.c_str(), sw.in_use_gib,
                    sw.sector.wall_ms / 1e3, med([&](size_t k) { return sw.sector.prove_ms[k]; }),
                    med([&](size_t k) { return ph[k].h; }), med([&](size_t k) { return ph[k].msm_h; }),
                    med([&](size_t k) { return ph[k].msm_l; }), med([&](size_t k) { return ph[k].msm_a; }),
                    med([&](size_t k) { return ph[k].msm_b_g1; }), med([&](size_t k) { return ph[k].msm_b_g2; }),
                    double(sw.twiddles_lent) / kGiB);
            }
        }
    }
    if (r.size == "32GiB")
        say("  anchor: /work/shared/reference/anchors-measured.md has no 32 GiB partition proof; at 2^27 it has\n"
            "  sppark's H (7 NTTs, device-resident) ~320 ms and H MSM ~1.1 s (extrapolated from 2^26). Reference,\n"
            "  not measured here (curio-cuzk.md): cuzk/Curio GPU time per 32 GiB partition ~950 ms (RTX 5070 Ti).\n");
}

// ---- --engine 1: whole sectors through the engine ---------------------------------------------

struct EngineRun {
    std::string size, status = "ok";
    double load_ms = 0;
    EngineSector warm, interactive, ni;
};

// One PoRep sector from a synthetic C1 (the challenges the seed's) through the engine.
EngineSector porep_engine_sector(engine::Engine& e, filecoin::RegisteredSealProof proof, uint64_t seed) {
    const auto& cfg = filecoin::porep_config(proof);
    const auto t0 = Clock::now();
    const auto c1 = filecoin::synthetic_c1(proof, seed, {}, filecoin::SyntheticChallenges::FromSeed);
    engine::JobSpec spec;
    spec.kind = "porep-seal-commit";
    spec.c1_json = filecoin::write_c1_output(c1);
    const double c1_ms = ms_since(t0);
    say("    %s: synthetic C1 of %zu partitions, %.1f MiB of JSON, in %.1f s\n", std::string(cfg.name).c_str(),
        c1.vanilla_proofs.size(), spec.c1_json.size() / (1024.0 * 1024.0), c1_ms / 1e3);
    return engine_sector(e, std::string(cfg.name), spec, c1_ms);
}

// The interactive sector (warm-up, then timed) and the NI-PoRep sector of one size, through one
// engine whose keys (one set: both proofs share the V1_1 circuit) are timing-only.
void run_engine_sectors(const Args& args, EngineRun& run) {
    const auto inter = filecoin::seal_proof_from_name("StackedDrg" + run.size + "V1_1");
    const auto ni = filecoin::seal_proof_from_name("StackedDrg" + run.size + "V1_2_Feat_NonInteractivePoRep");
    if (!inter || !ni) throw std::invalid_argument("no registered proofs for " + run.size);
    say("\n== %s through the engine: %s, then %s (timing-only keys)\n", run.size.c_str(),
        std::string(filecoin::porep_config(*inter).name).c_str(),
        std::string(filecoin::porep_config(*ni).name).c_str());
    engine::EngineConfig ec = sector_engine_config(args, args.witness_workers, args.prove_workers, SectorKeys::Timing);
    ec.check_c1 = false;  // the NI C1's challenges are the seed's, not comm_r's
    engine::Engine e(ec);
    say("    engine: backend %s, %u witness workers, %u prove workers a device\n", e.status().backend.c_str(),
        ec.witness_workers, ec.prove_workers_per_device);
    engine::JobSpec id_spec;
    id_spec.kind = "porep-seal-commit";
    id_spec.registered_proof = std::string(filecoin::porep_config(*ni).name);
    const auto t0 = Clock::now();
    e.preload(engine::Engine::circuit_id(id_spec));  // densities and keys, outside the sectors
    run.load_ms = ms_since(t0);
    say("    keys loaded in %.1f s (density-only pass and timing-only keys)\n", run.load_ms / 1e3);
    run.warm = porep_engine_sector(e, *inter, args.seed);
    run.interactive = porep_engine_sector(e, *inter, args.seed + 1);
    run.ni = porep_engine_sector(e, *ni, args.seed + 2);
    const double ratio = run.ni.wall_ms / run.interactive.wall_ms;
    const double parts = double(run.ni.partitions) / run.interactive.partitions;
    say("    NI-PoRep / interactive sector time %.2f for %.1fx the partitions (%s)\n", ratio, parts,
        ratio <= parts ? "per-partition time held or better" : "per-partition time grew on the long job");
}

void write_engine_json(const Args& args, const std::vector<EngineRun>& runs) {
    if (args.out.empty()) return;
    std::ofstream f(args.out);
    auto sector = [&](const char* key, const EngineSector& x) {
        f << ", \"" << key << "\": " << engine_sector_json(x);
    };
    f << "{\n  \"bench\": \"porep_prove --engine\",\n  \"note\": \"TIMING-ONLY fake parameters: the proofs do "
         "not verify\",\n  \"backend\": \""
      << args.backend << "\",\n  \"threads\": " << std::thread::hardware_concurrency()
      << ",\n  \"unit\": \"ms\",\n  \"results\": [";
    for (size_t i = 0; i < runs.size(); ++i) {
        const EngineRun& r = runs[i];
        f << (i ? "," : "") << "\n    {\"size\": \"" << r.size << "\", \"status\": \"" << json_escape(r.status)
          << "\", \"load_ms\": " << r.load_ms;
        if (r.ni.partitions) {
            sector("warm_up", r.warm);
            sector("interactive", r.interactive);
            sector("non_interactive", r.ni);
            f << ", \"ni_over_interactive\": " << r.ni.wall_ms / r.interactive.wall_ms;
        }
        f << "}";
    }
    f << "\n  ]\n}\n";
    if (!f) say("warning: could not write %s\n", args.out.c_str());
}

int engine_main(const Args& args) {
    const auto t_start = Clock::now();
    say("cuzk_bench_porep_prove --engine 1: backend %s; %u hardware threads\n"
        "!! TIMING-ONLY PARAMETERS: the proofs do NOT verify (verification off)\n",
        args.backend.c_str(), std::thread::hardware_concurrency());
    std::vector<EngineRun> runs;
    bool failed = false;
    for (const auto& size : args.sizes) {
        EngineRun r;
        r.size = size;
        if (time_spent(args, t_start)) {
            r.status = "skipped: --max-seconds spent";
        } else {
            try {
                run_engine_sectors(args, r);
            } catch (const std::exception& e) {
                r.status = std::string("error: ") + e.what();
                failed = true;
                say("  %s\n", r.status.c_str());
            }
        }
        runs.push_back(std::move(r));
        write_engine_json(args, runs);
    }
    say("\n== sectors through the engine (s; busy: the device's share of the sector's wall time)\n");
    say("%-7s %-46s %6s %9s %11s %7s\n", "size", "proof", "parts", "sector s", "s/partition", "busy %");
    for (const EngineRun& r : runs) {
        if (!r.ni.partitions) {
            say("%-7s  %s\n", r.size.c_str(), r.status.c_str());
            continue;
        }
        for (const EngineSector* x : {&r.interactive, &r.ni})
            say("%-7s %-46s %6u %9.2f %11.3f %7.1f\n", r.size.c_str(), x->proof.c_str(), x->partitions,
                x->wall_ms / 1e3, x->wall_ms / 1e3 / x->partitions, x->busy_pct());
        say("%-7s NI / interactive: %.2f (partitions %.1fx)\n", r.size.c_str(), r.ni.wall_ms / r.interactive.wall_ms,
            double(r.ni.partitions) / r.interactive.partitions);
    }
    say("total %.1f s\n", ms_since(t_start) / 1e3);
    return failed ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
    const Args args = parse(argc, argv);
    if (args.engine) return engine_main(args);
    const auto t_start = Clock::now();
    say("cuzk_bench_porep_prove: backend %s, sizes", args.backend.c_str());
    for (const auto& s : args.sizes) say(" %s", s.c_str());
    say(", partition %u, first proof + %d timed%s; %u hardware threads\n", args.partition, args.reps,
        args.max_seconds > 0 ? " (bounded by --max-seconds)" : "", std::thread::hardware_concurrency());
    say("!! TIMING-ONLY PARAMETERS: real circuit shape and witness (synthetic vanilla proofs), fake keys (points\n"
        "!! i*G, random vk). The proofs do NOT verify; the GPU path's correctness is the tests' (GPU == CPU bytes).\n");
    say("Phases (ProofTimings): H = upload of A.z, B.z, C.z and the NTT kernels; msm_h = the H MSM; msm_l = the L\n"
        "MSM; msm_a (includes the upload of z), msm_b_g1, msm_b_g2; sum = their total; prove = wall time of the\n"
        "prove() call. first = first proof, bases upload included; median over the next proofs, bases resident.\n"
        "Peak RSS of a pass: /proc/self/status VmHWM after resetting it (clear_refs 5) before the pass.\n");

    std::vector<Result> results;
    bool any_failed = false;
    for (const auto& size : args.sizes) {
        Result r;
        r.size = size;
        if (time_spent(args, t_start)) {
            r.status = "skipped: --max-seconds spent";
            say("\n== %s: %s\n", size.c_str(), r.status.c_str());
        } else {
            try {
                run_one(args, r, t_start);
            } catch (const std::exception& e) {
                r.status = std::string("error: ") + e.what();
                any_failed = true;
                say("  %s\n", r.status.c_str());
            }
        }
        results.push_back(std::move(r));  // the size's parameters and witness are freed by now
        write_json(args, results);
    }

    say("\n== witness generation per partition (CPU, challenges in parallel). shape GiB: peak RSS of the counts and "
        "densities\n"
        "pass; values: z + A.z, B.z, C.z; buffers: their engine-style capacity (aux + 3 x domain); growth: peak RSS\n"
        "growth during synthesis (small when the buffers were page-locked, hence resident, before it)\n");
    say("%-7s %12s %5s %12s %9s %10s %10s %11s %10s %11s %10s\n", "size", "constraints", "logn", "aux", "C1 ms",
        "shape ms", "shape GiB", "witness ms", "values GiB", "buffers GiB", "growth GiB");
    for (const auto& r : results) {
        if (r.shape.constraints == 0) {
            say("%-7s  %s\n", r.size.c_str(), r.status.c_str());
            continue;
        }
        say("%-7s %12zu %5d %12zu %9.1f %10.1f %10.3f %11.1f %10.3f %11.3f %10.3f\n", r.size.c_str(),
            r.shape.constraints, int(std::countr_zero(r.shape.domain)), r.shape.aux, r.c1.ms, r.shape_pass.ms,
            r.shape_pass.peak / kGiB, r.witness.ms, r.values_gib, r.witness_gib, r.witness.growth_gib());
    }
    say("\n== proofs (ms; median of the timed proofs; TIMING-ONLY keys, the proofs do not verify)\n");
    say("%-7s %10s %10s %9s %9s %9s %9s %9s %9s %9s %9s\n", "size", "params ms", "first", "H", "msm_h", "msm_l",
        "msm_a", "msm_b_g1", "msm_b_g2", "assemble", "prove");
    for (const auto& r : results) {
        if (!r.have_first) {
            say("%-7s  %s\n", r.size.c_str(), r.status.c_str());
            continue;
        }
        const Phases& m = r.reps.empty() ? r.first : r.med;
        say("%-7s %10.1f %10.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f%s", r.size.c_str(), r.params.ms,
            r.first.wall, m.h, m.msm_h, m.msm_l, m.msm_a, m.msm_b_g1, m.msm_b_g2, m.assemble, m.wall,
            r.reps.empty() ? "  (first proof only)" : "");
        if (r.size == "32GiB") say("   anchor: none measured (see above)");
        if (r.status != "ok") say("  (%s)", r.status.c_str());
        say("\n");
    }
    say("total %.1f s\n", std::chrono::duration<double>(Clock::now() - t_start).count());
    return any_failed ? 1 : 0;
}
