// Groth16 proving time by phase on the CPU backend for the SHA-256 chain at about
// 2^16, 2^18 and 2^20 constraints (2, 10 and 40 blocks: domains 2^16, 2^18, 2^20).
// Setup (development keys) runs once per size outside the timed region. Counters are
// milliseconds per phase of the last timed proof; the proof is verified once.
#include <benchmark/benchmark.h>

#include <chrono>
#include <map>
#include <memory>
#include <stdexcept>

#include "cuzk/circuits/builtin.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"

namespace cuzk {
namespace {

struct Prepared {
    circuits::BuiltinCircuit circuit;
    r1cs::Shape shape;
    r1cs::Density density;
    groth16::Parameters params;
};

const Prepared& prepared(size_t blocks) {
    static std::map<size_t, std::unique_ptr<Prepared>> cache;
    auto& p = cache[blocks];
    if (!p) {
        p = std::make_unique<Prepared>();
        p->circuit = circuits::make_builtin("sha256-chain", blocks, 1);
        p->shape = p->circuit.circuit->shape();
        p->density = p->shape.density();
        p->params = groth16::setup(p->shape, groth16::ToxicWaste::from_seed(blocks));
    }
    return *p;
}

void BM_ProveSha256Chain(benchmark::State& state) {
    const Prepared& p = prepared(size_t(state.range(0)));
    auto backend = groth16::make_cpu_backend();
    groth16::ProofTimings t;
    double witness_ms = 0;
    groth16::Proof proof;
    for (auto _ : state) {
        auto t0 = std::chrono::steady_clock::now();
        groth16::Witness w = p.circuit.circuit->witness();
        witness_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        proof = groth16::prove(p.params, p.density, w, groth16::random_randomness(), *backend, &t);
    }
    if (!groth16::verify(groth16::PreparedVerifyingKey(p.params.vk), proof, p.circuit.public_inputs))
        state.SkipWithError("proof does not verify");
    state.counters["constraints"] = double(p.shape.num_constraints);
    state.counters["witness_ms"] = witness_ms;
    state.counters["h_ms"] = t.h;
    state.counters["msm_h_ms"] = t.msm_h;
    state.counters["msm_l_ms"] = t.msm_l;
    state.counters["msm_a_ms"] = t.msm_a;
    state.counters["msm_b_g1_ms"] = t.msm_b_g1;
    state.counters["msm_b_g2_ms"] = t.msm_b_g2;
    state.counters["prove_ms"] = t.total();
}
BENCHMARK(BM_ProveSha256Chain)
    ->Arg(2)
    ->Arg(10)
    ->Arg(40)
    ->Iterations(1)
    ->Repetitions(3)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace cuzk

BENCHMARK_MAIN();
