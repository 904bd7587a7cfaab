// Field arithmetic micro-benchmarks (Google Benchmark), one thread.
//
// Multiplications run as dependent chains (a = a * b), so the figure is the latency of
// one operation in ns, which is what curve formulas and exponentiations see. The
// "Portable" variants call the portable CIOS directly, for comparison with the
// MULX/ADX path that Field::operator* picks on x86-64 with BMI2+ADX.
//
// Run: build/cpu/bench/cuzk_bench_ff --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <random>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254_tower.hpp"
#include "cuzk/ff/fp2.hpp"

namespace {

using cuzk::Fp;
using cuzk::Fp2;
using cuzk::Fr;

template <class F>
F random_element(uint64_t seed) {
    std::mt19937_64 rng(seed);
    return F::random(rng);
}

template <class F>
void BM_Mul(benchmark::State& state) {
    F a = random_element<F>(1), b = random_element<F>(2);
    for (auto _ : state) a = a * b;
    benchmark::DoNotOptimize(a);
}

template <class F>
void BM_MulPortable(benchmark::State& state) {
    F a = random_element<F>(1), b = random_element<F>(2);
    for (auto _ : state) F::mul_portable(a, a, b);
    benchmark::DoNotOptimize(a);
}

// The two halves that the towers' lazy reduction uses: 2N-limb product, then REDC.
template <class F>
void BM_MulWideRedc(benchmark::State& state) {
    F a = random_element<F>(1), b = random_element<F>(2);
    typename F::Wide w;
    for (auto _ : state) {
        F::mul_wide(w, a, b);
        F::redc(a, w);
    }
    benchmark::DoNotOptimize(a);
}

template <class F>
void BM_Square(benchmark::State& state) {
    F a = random_element<F>(1);
    for (auto _ : state) a = a.square();
    benchmark::DoNotOptimize(a);
}

template <class F>
void BM_Add(benchmark::State& state) {
    F a = random_element<F>(1), b = random_element<F>(2);
    for (auto _ : state) a = a + b;
    benchmark::DoNotOptimize(a);
}

// Each inverse depends on the previous one (adding one keeps the chain from cycling
// between two values); "inverse" is the binary GCD, "inverse_fermat" is a^(p-2).
template <class F>
void BM_Inverse(benchmark::State& state) {
    F a = random_element<F>(1);
    const F one = F::one();
    for (auto _ : state) a = a.inverse() + one;
    benchmark::DoNotOptimize(a);
}

template <class F>
void BM_InverseFermat(benchmark::State& state) {
    F a = random_element<F>(1);
    const F one = F::one();
    for (auto _ : state) a = a.inverse_fermat() + one;
    benchmark::DoNotOptimize(a);
}

void BM_Fp2Mul(benchmark::State& state) {
    Fp2 a = {random_element<Fp>(1), random_element<Fp>(2)};
    Fp2 b = {random_element<Fp>(3), random_element<Fp>(4)};
    for (auto _ : state) a = a * b;
    benchmark::DoNotOptimize(a);
}

void BM_Fp2Square(benchmark::State& state) {
    Fp2 a = {random_element<Fp>(1), random_element<Fp>(2)};
    for (auto _ : state) a = a.square();
    benchmark::DoNotOptimize(a);
}

BENCHMARK(BM_Mul<Fp>)->Name("Fp/mul");
BENCHMARK(BM_MulPortable<Fp>)->Name("Fp/mul_portable");
BENCHMARK(BM_MulWideRedc<Fp>)->Name("Fp/mul_wide_redc");
BENCHMARK(BM_Square<Fp>)->Name("Fp/square");
BENCHMARK(BM_Add<Fp>)->Name("Fp/add");
BENCHMARK(BM_Inverse<Fp>)->Name("Fp/inverse");
BENCHMARK(BM_InverseFermat<Fp>)->Name("Fp/inverse_fermat");
BENCHMARK(BM_Mul<Fr>)->Name("Fr/mul");
BENCHMARK(BM_MulPortable<Fr>)->Name("Fr/mul_portable");
BENCHMARK(BM_MulWideRedc<Fr>)->Name("Fr/mul_wide_redc");
BENCHMARK(BM_Square<Fr>)->Name("Fr/square");
BENCHMARK(BM_Inverse<Fr>)->Name("Fr/inverse");
BENCHMARK(BM_InverseFermat<Fr>)->Name("Fr/inverse_fermat");
BENCHMARK(BM_Fp2Mul)->Name("Fp2/mul");
BENCHMARK(BM_Fp2Square)->Name("Fp2/square");
BENCHMARK(BM_Mul<cuzk::bn254::Fp>)->Name("bn254/Fp/mul");
BENCHMARK(BM_MulPortable<cuzk::bn254::Fp>)->Name("bn254/Fp/mul_portable");
BENCHMARK(BM_Square<cuzk::bn254::Fp>)->Name("bn254/Fp/square");
BENCHMARK(BM_Mul<cuzk::bn254::Fr>)->Name("bn254/Fr/mul");
BENCHMARK(BM_Mul<cuzk::bn254::Fp2>)->Name("bn254/Fp2/mul");

}  // namespace

BENCHMARK_MAIN();
