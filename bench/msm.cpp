// CPU MSM benchmarks: G1 with random full-size scalars at 2^16 and 2^18 on one and two
// threads (issue 3's targets: one thread no slower than blst's Pippenger, 526 / 1802 ms
// on the dev machine; two threads >= 1.8x one), plus the 0/1-scalar batch-addition path
// and a G2 MSM; BN254 G1 at 2^16 (no GLV split).
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "cuzk/common/parallel.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/msm/msm.hpp"

namespace cuzk {
namespace {

// Distinct bases i*G by repeated addition (cheap) and one batch conversion.
template <class Curve>
const std::vector<Affine<Curve>>& bases(size_t n) {
    static std::vector<Affine<Curve>> cache;
    if (cache.size() < n) cache = generator_multiples<Curve>(n);
    return cache;
}

template <class Fr = cuzk::Fr>
std::vector<Fr> random_scalars(size_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<Fr> s(n);
    for (auto& x : s) x = Fr::random(rng);
    return s;
}

void BM_MsmG1(benchmark::State& state) {
    const size_t n = size_t(1) << state.range(0);
    ScopedNumThreads threads(size_t(state.range(1)));
    const auto& b = bases<G1Curve>(n);
    auto s = random_scalars(n, 1);
    for (auto _ : state) {
        auto r = msm<G1Curve>(std::span<const G1Affine>(b.data(), n), s);
        benchmark::DoNotOptimize(r);
    }
    state.counters["threads"] = double(state.range(1));
}
BENCHMARK(BM_MsmG1)->ArgsProduct({{16, 18}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

// Scalars all 0 or 1 (half each): the batch-affine path alone.
void BM_MsmG1ZeroOne(benchmark::State& state) {
    const size_t n = size_t(1) << state.range(0);
    const auto& b = bases<G1Curve>(n);
    std::mt19937_64 rng(2);
    std::vector<Fr> s(n);
    for (auto& x : s) x = (rng() & 1) ? Fr::one() : Fr::zero();
    for (auto _ : state) {
        auto r = msm<G1Curve>(std::span<const G1Affine>(b.data(), n), s);
        benchmark::DoNotOptimize(r);
    }
}
BENCHMARK(BM_MsmG1ZeroOne)->Arg(18)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_MsmG2(benchmark::State& state) {
    const size_t n = size_t(1) << state.range(0);
    const auto& b = bases<G2Curve>(n);
    auto s = random_scalars(n, 3);
    for (auto _ : state) {
        auto r = msm<G2Curve>(std::span<const G2Affine>(b.data(), n), s);
        benchmark::DoNotOptimize(r);
    }
}
BENCHMARK(BM_MsmG2)->Arg(14)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Bn254MsmG1(benchmark::State& state) {
    const size_t n = size_t(1) << state.range(0);
    ScopedNumThreads threads(size_t(state.range(1)));
    const auto& b = bases<bn254::G1Curve>(n);
    auto s = random_scalars<bn254::Fr>(n, 1);
    for (auto _ : state) {
        auto r = bn254::msm_g1(std::span<const bn254::G1Affine>(b.data(), n), s);
        benchmark::DoNotOptimize(r);
    }
    state.counters["threads"] = double(state.range(1));
}
BENCHMARK(BM_Bn254MsmG1)->ArgsProduct({{16}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace cuzk

BENCHMARK_MAIN();
