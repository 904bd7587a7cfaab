// NTT and Groth16-H benchmarks.
//   build/cpu/bench/cuzk_bench_ntt --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// Arguments: {log2 size, threads}. BM_FrMul is the per-multiplication baseline: a
// radix-2 NTT of 2^k costs k 2^(k-1) of them plus 2 k 2^(k-1) additions.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "cuzk/common/parallel.hpp"
#include "cuzk/ntt/domain.hpp"
#include "cuzk/ntt/ntt.hpp"

namespace {

using cuzk::Fr;

std::vector<Fr> random_vector(size_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<Fr> v(n);
    for (auto& x : v) x = Fr::random(rng);
    return v;
}

void BM_FrMul(benchmark::State& state) {
    auto v = random_vector(1024, 1);
    Fr acc = v[0];
    for (auto _ : state) {
        for (const Fr& x : v) acc = acc * x;  // a dependent chain: latency per multiplication
        benchmark::DoNotOptimize(acc);
    }
    state.SetItemsProcessed(int64_t(state.iterations()) * 1024);
}
BENCHMARK(BM_FrMul);

template <void (*Transform)(std::span<Fr>)>
void BM_Transform(benchmark::State& state) {
    const unsigned k = unsigned(state.range(0));
    cuzk::ScopedNumThreads threads(size_t(state.range(1)));
    auto v = random_vector(size_t(1) << k, k);
    Transform(v);  // warm the twiddle cache
    for (auto _ : state) {
        Transform(v);
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(int64_t(state.iterations()) << k);
}

void transform_args(benchmark::internal::Benchmark* b) {
    for (int k : {16, 18, 20, 22})
        for (int t : {1, 2}) b->Args({k, t});
    b->ArgNames({"log_n", "threads"})->Unit(benchmark::kMillisecond)->UseRealTime();
}

BENCHMARK_TEMPLATE(BM_Transform, cuzk::ntt::forward)->Apply(transform_args);
BENCHMARK_TEMPLATE(BM_Transform, cuzk::ntt::coset_forward)->Apply(transform_args);

// compute_h on m - 1 constraints (the domain is m = 2^k): three iNTTs, three coset NTTs,
// one coset iNTT. Copying the inputs is excluded from the timing.
void BM_ComputeH(benchmark::State& state) {
    const unsigned k = unsigned(state.range(0));
    cuzk::ScopedNumThreads threads(size_t(state.range(1)));
    const size_t n = (size_t(1) << k) - 1;
    const auto a = random_vector(n, 1), b = random_vector(n, 2), c = random_vector(n, 3);
    for (auto _ : state) {
        state.PauseTiming();
        auto ca = a, cb = b, cc = c;
        state.ResumeTiming();
        auto h = cuzk::ntt::compute_h(std::move(ca), std::move(cb), std::move(cc));
        benchmark::DoNotOptimize(h.data());
    }
}
BENCHMARK(BM_ComputeH)
    ->ArgsProduct({{16, 17, 18, 19, 20}, {2}})
    ->ArgNames({"log_n", "threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
