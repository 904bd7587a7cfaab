// The StackedDRG PoRep partition circuit (circuits/porep.hpp):
//   BM_PoRepCount/<proof>       the whole partition synthesized in counting mode (r1cs::CountCS:
//                               nothing stored), e.g. 32 GiB = 130,278,541 constraints, 328
//                               inputs, without the ~100 GB of recorded matrices;
//   BM_PoRepWitness/<proof>     witness synthesis (WitnessCS with a·z, b·z, c·z, as the prover
//                               runs it) of a partition of ONE challenge, i.e. the time per
//                               challenge (the 571-constraint header is included, negligible);
//                               values are pseudo-random of the right shape (the work does not
//                               depend on whether the witness satisfies the circuit).
//   BM_PoRepWitnessReused/<proof>/challenges:k/reuse:m
//                               witness synthesis of a partition of k challenges (in parallel
//                               on every thread, as a partition's witness runs) into storage
//                               from the previous iteration, as the engine's buffer pool and
//                               the sector pipeline hand it back: m = 1 cleared first (the
//                               vectors zero-filled again as they grow), m = 2 as it is
//                               (stale entries overwritten in place); the steady state of a
//                               sector's partitions.
// Counters: constraints, inputs (ONE included), aux, constraints/s. One thread (Reused: all).
// Run: build/cpu/bench/cuzk_bench_porep  (--benchmark_filter=32GiB for the production size).
#include <benchmark/benchmark.h>

#include <random>

#include "cuzk/circuits/porep.hpp"
#include "cuzk/r1cs/r1cs.hpp"

namespace {

using namespace cuzk;
using circuits::StackedCircuit;
using circuits::StackedParams;
using filecoin::RegisteredSealProof;

const RegisteredSealProof kProofs[] = {
    RegisteredSealProof::StackedDrg2KiBV1_1,
    RegisteredSealProof::StackedDrg512MiBV1_1,
    RegisteredSealProof::StackedDrg32GiBV1_1,
};

void randomize_path(std::mt19937_64& rng, std::vector<gadgets::PathElement>& path) {
    for (auto& e : path) {
        for (auto& s : e.siblings) s = Fr::random(rng);
        e.index = uint32_t(rng() % (e.siblings.size() + 1));
    }
}

// A blank circuit filled with pseudo-random values.
StackedCircuit random_circuit(const StackedParams& p, uint64_t seed) {
    std::mt19937_64 rng(seed);
    StackedCircuit c = StackedCircuit::blank(p);
    c.replica_id = Fr::random(rng);
    c.comm_d = Fr::random(rng);
    c.comm_r = Fr::random(rng);
    c.comm_r_last = Fr::random(rng);
    c.comm_c = Fr::random(rng);
    for (auto& pr : c.proofs) {
        pr.challenge = 1 + rng() % (p.nodes - 1);
        pr.data_leaf = Fr::random(rng);
        randomize_path(rng, pr.comm_d_path);
        randomize_path(rng, pr.comm_r_last_path);
        randomize_path(rng, pr.comm_c_path);
        for (auto* cols : {&pr.drg_parents, &pr.exp_parents})
            for (auto& col : *cols) {
                for (auto& r : col.rows) r = Fr::random(rng);
                randomize_path(rng, col.path);
            }
    }
    return c;
}

void BM_PoRepCount(benchmark::State& st, RegisteredSealProof proof) {
    const StackedCircuit c = StackedCircuit::blank(StackedParams::from_config(filecoin::porep_config(proof)));
    r1cs::CountCS last;
    for (auto _ : st) {
        r1cs::CountCS cs;
        c.synthesize(cs);
        last = cs;
    }
    st.counters["constraints"] = double(last.num_constraints());
    st.counters["inputs"] = double(last.num_inputs());
    st.counters["aux"] = double(last.num_aux());
    st.counters["constraints/s"] =
        benchmark::Counter(double(last.num_constraints()) * double(st.iterations()), benchmark::Counter::kIsRate);
}

void witness_counters(benchmark::State& st, size_t constraints, size_t aux) {
    st.counters["constraints"] = double(constraints);
    st.counters["aux"] = double(aux);
    st.counters["constraints/s"] =
        benchmark::Counter(double(constraints) * double(st.iterations()), benchmark::Counter::kIsRate);
}

void BM_PoRepWitness(benchmark::State& st, RegisteredSealProof proof) {
    StackedParams p = StackedParams::from_config(filecoin::porep_config(proof));
    p.challenges = 1;
    const StackedCircuit c = random_circuit(p, 7);
    size_t constraints = 0, aux = 0;
    for (auto _ : st) {
        r1cs::WitnessCS cs(
            r1cs::WitnessOptions{.record_evals = true, .reserve_aux = aux, .reserve_constraints = constraints});
        c.synthesize(cs);
        constraints = cs.num_constraints();
        aux = cs.num_aux();
        benchmark::DoNotOptimize(cs.aux().data());
    }
    witness_counters(st, constraints, aux);
}

void BM_PoRepWitnessReused(benchmark::State& st, RegisteredSealProof proof) {
    StackedParams p = StackedParams::from_config(filecoin::porep_config(proof));
    p.challenges = unsigned(st.range(0));
    const bool clear = st.range(1) == 1;
    const StackedCircuit c = random_circuit(p, 7);
    r1cs::WitnessBuffers bufs;
    size_t constraints = 0, aux = 0;
    auto synthesize = [&] {
        r1cs::WitnessCS cs(
            r1cs::WitnessOptions{.record_evals = true, .reserve_aux = aux, .reserve_constraints = constraints},
            std::move(bufs));
        c.synthesize(cs);
        constraints = cs.num_constraints();
        aux = cs.num_aux();
        bufs = {cs.take_aux(), cs.take_a_evals(), cs.take_b_evals(), cs.take_c_evals()};
    };
    synthesize();  // the storage's first use (page faults) is not timed
    for (auto _ : st) {
        if (clear)
            for (auto* v : {&bufs.aux, &bufs.a, &bufs.b, &bufs.c}) v->clear();
        synthesize();
        benchmark::DoNotOptimize(bufs.aux.data());
    }
    witness_counters(st, constraints, aux);
}

const int kRegistered = [] {
    for (RegisteredSealProof p : kProofs) {
        const std::string name(filecoin::porep_config(p).name);
        benchmark::RegisterBenchmark(("BM_PoRepCount/" + name).c_str(), BM_PoRepCount, p)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("BM_PoRepWitness/" + name).c_str(), BM_PoRepWitness, p)
            ->Unit(benchmark::kMillisecond);
        if (p != RegisteredSealProof::StackedDrg2KiBV1_1)
            benchmark::RegisterBenchmark(("BM_PoRepWitnessReused/" + name).c_str(), BM_PoRepWitnessReused, p)
                ->ArgsProduct({{4}, {1, 2}})
                ->ArgNames({"challenges", "reuse"})
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
    }
    return 0;
}();

}  // namespace

BENCHMARK_MAIN();
