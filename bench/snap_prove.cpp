// Proving a SnapDeals (EmptySectorUpdate) sector per size from synthetic vanilla proofs,
// partition by partition, total and per phase, with TIMING-ONLY keys (bench/timing_keys.hpp:
// real circuit shape and witness, fake parameters; THE PROOFS DO NOT VERIFY). Backend-generic:
// --backend cpu builds and runs in the CPU build; cuda on the GPU machine.
//
//   build/cuda/bench/cuzk_bench_snap_prove --sizes 32GiB --out snap_prove.json     (16 x 81 M)
//   build/cpu/bench/cuzk_bench_snap_prove --backend cpu --sizes 2KiB               (smoke, no GPU)
//
// Per size, every pass timed:
//   1. the synthetic update (filecoin::SectorUpdate::synthetic: periodic sector key and data,
//      every tree computed from its few distinct subtrees) and its vanilla proofs' verification,
//   2. counts and densities of partition 0's circuit (DensityCS: no matrices; 32 GiB =
//      81,049,504 constraints with the input constraints, domain 2^27),
//   3. timing-only parameters sized from them,
//   4. per partition (--partitions, default all): the circuit from its vanilla proof, its
//      witness, its proof (the first one uploads the bases); one after the other, so the
//      sector's wall time is the sum (the engine overlaps the witness of k+1 with proof k).
// The sector time compares with a 32 GiB PoRep sector (cuzk_bench_porep_prove --sector 1)
// measured in the same call on the same card (issue target: SnapDeals ≤ 1.3× PoRep C2).
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
#include "timing_keys.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::bench;
using circuits::EmptySectorUpdateCircuit;

struct Args : RunArgs {
    std::vector<std::string> sizes{"2KiB"};
    unsigned partitions = 0;  // 0: every partition of the sector
    bool witness_only = false;
};

struct PartitionResult {
    double circuit_ms = 0, witness_ms = 0;
    Phases proof;
};

struct Result {
    std::string size, status = "ok";
    size_t constraints = 0, aux = 0, domain = 0;
    double synthetic_ms = 0, verify_ms = 0, shape_ms = 0, keys_ms = 0, params_gib = 0, sector_ms = 0;
    std::vector<PartitionResult> parts;
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

void run_size(const Args& args, groth16::ProverBackend* backend, Result& r) {
    const auto* cfg = filecoin::update_config_for_sector_size(sector_bytes(r.size));
    if (!cfg || !cfg->proof) throw std::invalid_argument("no registered update proof for " + r.size);
    say("\n== SnapDeals %s: %u partitions x %u challenges\n", r.size.c_str(), cfg->partition_count,
        cfg->challenge_count);
    auto t0 = Clock::now();
    const auto u = filecoin::SectorUpdate::synthetic(*cfg, args.seed);
    const unsigned n = args.partitions ? std::min(args.partitions, cfg->partition_count) : cfg->partition_count;
    std::vector<filecoin::UpdatePartitionProof> proofs;
    for (unsigned k = 0; k < n; ++k) proofs.push_back(u.partition_proof(k));
    r.synthetic_ms = ms_since(t0);
    t0 = Clock::now();
    for (unsigned k = 0; k < n; ++k) filecoin::update_verify_partition(*cfg, u.public_inputs(), k, proofs[k]);
    r.verify_ms = ms_since(t0);
    say("  synthetic update and %u vanilla proofs %.0f ms, verified %.0f ms\n", n, r.synthetic_ms, r.verify_ms);
    t0 = Clock::now();
    const ShapeInfo s =
        density_shape(EmptySectorUpdateCircuit::from_partition_proof(*cfg, u.public_inputs(), 0, proofs[0]));
    r.shape_ms = ms_since(t0);
    r.constraints = s.constraints, r.aux = s.aux, r.domain = s.domain;
    r.params_gib = s.params_gib();
    say("  counts and densities %.0f ms: %zu constraints, %zu aux, domain 2^%d, timing-only keys %.2f GiB\n",
        r.shape_ms, s.constraints, s.aux, std::countr_zero(s.domain), r.params_gib);
    groth16::Parameters params;
    if (!args.witness_only) {
        t0 = Clock::now();
        params = fake_parameters(s, args.seed);
        r.keys_ms = ms_since(t0);
        say("  timing-only keys %.0f ms\n", r.keys_ms);
        print_phases_header();
    }
    const auto t_sector = Clock::now();
    for (unsigned k = 0; k < n; ++k) {
        PartitionResult p;
        t0 = Clock::now();
        auto circuit = circuits::make_update_circuit(
            EmptySectorUpdateCircuit::from_partition_proof(*cfg, u.public_inputs(), k, proofs[k]));
        p.circuit_ms = ms_since(t0);
        t0 = Clock::now();
        groth16::Witness w = circuit->witness();
        p.witness_ms = ms_since(t0);
        if (!args.witness_only) {
            groth16::ProofTimings t;
            const double wall = prove_keeping_storage(params, s.density, w, groth16::random_randomness(), *backend, &t);
            p.proof = phases_from(t, wall);
            print_phases_row(("partition " + std::to_string(k)).c_str(), p.proof, 0);
        }
        say("  partition %u: circuit %.0f ms, witness %.0f ms\n", k, p.circuit_ms, p.witness_ms);
        r.parts.push_back(p);
    }
    r.sector_ms = ms_since(t_sector);
    say("  %u partition(s) in %.2f s (one after the other: witness, then proof)\n", n, r.sector_ms / 1000);
}

void write_json(const Args& args, const std::vector<Result>& results) {
    if (args.out.empty()) return;
    std::ofstream f(args.out);
    f << "{\n  \"bench\": \"snap_prove\",\n  \"backend\": \"" << json_escape(args.backend) << "\",\n  \"sizes\": [";
    for (size_t i = 0; i < results.size(); ++i) {
        const Result& r = results[i];
        f << (i ? "," : "") << "\n    {\"size\": \"" << r.size << "\", \"status\": \"" << json_escape(r.status)
          << "\", \"constraints\": " << r.constraints << ", \"aux\": " << r.aux << ", \"domain\": " << r.domain
          << ", \"synthetic_ms\": " << r.synthetic_ms << ", \"vanilla_verify_ms\": " << r.verify_ms
          << ", \"shape_ms\": " << r.shape_ms << ", \"keys_ms\": " << r.keys_ms << ", \"params_gib\": " << r.params_gib
          << ", \"sector_ms\": " << r.sector_ms << ", \"partitions\": [";
        for (size_t k = 0; k < r.parts.size(); ++k)
            f << (k ? ", " : "") << "{\"circuit_ms\": " << r.parts[k].circuit_ms
              << ", \"witness_ms\": " << r.parts[k].witness_ms << ", \"proof\": " << json_phases(r.parts[k].proof)
              << "}";
        f << "]}";
    }
    f << "\n  ]\n}\n";
    if (!f) say("warning: could not write %s\n", args.out.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    Args args;
    CLI::App app("SnapDeals sectors per size from synthetic vanilla proofs, per phase (timing-only keys).",
                 "cuzk_bench_snap_prove");
    add_run_options(app, args);
    app.add_option_function<std::string>(
           "--sizes", [&args](const std::string& v) { args.sizes = split_list(v); },
           "comma-separated sector sizes (default 2KiB)")
        ->type_name("LIST");
    app.add_option("--partitions", args.partitions, "partitions to prove (default: all of the sector)");
    add_flag01(app, "--witness-only", args.witness_only, "stop after the witnesses");
    CLI11_PARSE(app, argc, argv);
    std::unique_ptr<groth16::ProverBackend> backend;
    if (!args.witness_only)
        backend = args.backend == "cpu" ? groth16::make_cpu_backend() : gpu::make_cuda_backend(args.device);
    std::vector<Result> results;
    const auto t_start = Clock::now();
    int rc = 0;
    for (const std::string& size : args.sizes) {
        if (time_spent(args, t_start)) break;
        Result& r = results.emplace_back();
        r.size = size;
        try {
            run_size(args, backend.get(), r);
        } catch (const std::exception& e) {
            r.status = e.what();
            say("  %s: FAILED: %s\n", size.c_str(), e.what());
            rc = 1;
        }
        write_json(args, results);
    }
    return rc;
}
