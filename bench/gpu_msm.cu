// GPU MSM benchmarks: G1 at 2^20, 2^22, 2^24, 2^26 with random 255-bit scalars, bases
// and scalars resident on the device, timed with device events (median of 5 after one
// warm-up run; printed per size and reported as Google Benchmark manual time); the 0/1
// path at 2^26 (half zeros, half ones), G2 at 2^24, and G1 with the batch-affine pairing
// rounds off and on side by side (BM_GpuMsmG1Affine), level 1 with and without the
// gather one entry ahead (BM_GpuMsmG1Prefetch), and G1 over a precomputed table of
// shifted bases (BM_GpuMsmG1Precomputed, with its build time and size); bases streamed
// from host memory in chunks (BM_GpuMsmG1Streamed).
// Targets (issue "CUDA backend"): G1 <= 12 / 30 / 90 / 300 ms at 2^20 / 22 / 24 / 26;
// sppark on the same H200: 22.0 / 53.8 / 158.6 / 557 ms.
//
// Bases: 2^20 distinct points i*G (2^18 for G2) built on the CPU, tiled on the device to
// the largest size. Duplicate bases are fine for timing (the work does not depend on the
// point values), not for correctness: the result is checked once against the CPU msm at
// 2^20, where the bases are distinct.
//
// After the timed runs, one more run with GpuMsmOptions::phases prints where the time
// goes (classify, ones, sort, pair, accumulate, carries, reduce) and reports it as the
// counters ph_*_ms; that run is not part of the timing.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuzk/gpu/host_memory.hpp"
#include "cuzk/gpu/msm.hpp"
#include "cuzk/gpu/testing.hpp"
#include "cuzk/msm/msm.hpp"
#include "gpu_timing.hpp"

namespace cuzk {
namespace {

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

constexpr size_t kMaxLogG1 = 26, kMaxLogG2 = 24;
constexpr size_t kDistinctG1 = size_t(1) << 20, kDistinctG2 = size_t(1) << 18;

// Uniform Fr values written directly in Montgomery form (a uniform value below r is a
// uniform Montgomery representative), which avoids 2^26 conversions.
template <class F = Fr>
std::vector<F> random_scalars(size_t n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<F> s(n);
    for (auto& x : s) {
        for (;;) {
            BigInt<4> b;
            for (auto& l : b.l) l = rng();
            b.l[3] &= (uint64_t(1) << 63) - 1;
            if (b < F::kP) {
                x = F::from_raw_montgomery(b);
                break;
            }
        }
    }
    return s;
}

template <class T>
struct DevArray {
    T* p = nullptr;
    explicit DevArray(size_t n) { check(cudaMalloc(&p, n * sizeof(T)), "cudaMalloc"); }
    ~DevArray() { cudaFree(p); }
    DevArray(const DevArray&) = delete;
    DevArray& operator=(const DevArray&) = delete;
};

// An Msm over `distinct` CPU-made bases tiled to 2^log_n.
template <class Curve>
std::unique_ptr<gpu::Msm<Curve>> tiled_msm(size_t log_n, size_t distinct) {
    static const auto b = generator_multiples<Curve>(distinct);
    const size_t n = size_t(1) << log_n;
    DevArray<Affine<Curve>> tiled(n);
    for (size_t off = 0; off < n; off += distinct)
        check(cudaMemcpy(tiled.p + off, b.data(), std::min(distinct, n - off) * sizeof(Affine<Curve>),
                         cudaMemcpyHostToDevice),
              "cudaMemcpy bases");
    return std::make_unique<gpu::Msm<Curve>>(typename gpu::Msm<Curve>::FromDevice{}, tiled.p, n);
}

// One resident Msm over 2^max_log tiled bases, per size.
template <class Curve>
gpu::Msm<Curve>& resident(size_t max_log, size_t distinct) {
    static std::map<size_t, gpu::Msm<Curve>*> sets;  // live to exit
    gpu::Msm<Curve>*& m = sets[max_log];
    if (!m) m = tiled_msm<Curve>(max_log, distinct).release();
    return *m;
}

// Device-resident scalars: random (kind 0) or 0/1 (kind 1), n_max of them, per (kind, n_max).
const Fr* device_scalars(int kind, size_t n_max) {
    static std::map<std::pair<int, size_t>, DevArray<Fr>*> arrays;  // live to exit
    DevArray<Fr>*& arr = arrays[{kind, n_max}];
    if (!arr) {
        std::vector<Fr> s;
        if (kind == 0) {
            s = random_scalars(n_max, 1);
        } else if (kind == 2) {  // a PoRep B query's mix: 1/4 full, 1/2 ones, 1/4 zeros
            s = random_scalars(n_max, 3);
            std::mt19937_64 rng(4);
            for (auto& x : s) {
                const unsigned r = unsigned(rng() & 3);
                if (r == 1 || r == 2) x = Fr::one();
                if (r == 3) x = Fr::zero();
            }
        } else {
            std::mt19937_64 rng(2);
            s.resize(n_max);
            for (auto& x : s) x = (rng() & 1) ? Fr::one() : Fr::zero();
        }
        arr = new DevArray<Fr>(n_max);
        check(cudaMemcpy(arr->p, s.data(), n_max * sizeof(Fr), cudaMemcpyHostToDevice), "cudaMemcpy scalars");
    }
    return arr->p;
}

// Warm-up, then events around each run; reports the median as manual time.
template <class Curve>
void time_runs(benchmark::State& state, gpu::Msm<Curve>& m, const typename Curve::Scalar* scalars, size_t n,
               const char* label, const gpu::GpuMsmOptions& base = {}) {
    bench_gpu::EventTimer timer;
    MsmStats st;
    gpu::GpuMsmOptions o = base;
    o.stats = &st;
    m.run_device(scalars, n, o);  // warm-up: scratch allocation, module load
    const gpu::GpuMsmOptions timed = base;
    std::vector<double> ms;
    for (auto _ : state) {
        const float t = timer.ms([&] {
            auto r = m.run_device(scalars, n, timed);
            benchmark::DoNotOptimize(r);
        });
        ms.push_back(t);
        state.SetIterationTime(t / 1e3);
    }
    const auto sum = bench_gpu::summarize(ms);
    state.counters["median_ms"] = sum.median;
    state.counters["window_bits"] = st.window_bits;
    std::printf("%s n=2^%d: median %.2f ms over %zu runs (min %.2f, max %.2f), c=%u, full=%zu ones=%zu\n", label,
                int(state.range(0)), sum.median, sum.runs, sum.min, sum.max, st.window_bits, st.full, st.ones);

    // One untimed run with phase events.
    gpu::GpuMsmPhases ph;
    gpu::GpuMsmOptions phased = base;
    phased.phases = &ph;
    benchmark::DoNotOptimize(m.run_device(scalars, n, phased));
    const std::pair<const char*, float> parts[] = {
        {"classify", ph.classify},     {"ones", ph.ones},       {"sort", ph.sort},     {"pair", ph.pair},
        {"accumulate", ph.accumulate}, {"carries", ph.carries}, {"reduce", ph.reduce}, {"total", ph.total}};
    std::printf("%s n=2^%d phases (ms):", label, int(state.range(0)));
    for (const auto& [name, t] : parts) {
        std::printf(" %s %.2f", name, double(t));
        state.counters[std::string("ph_") + name + "_ms"] = t;
    }
    std::printf("\n");
}

// Checks the device result against the CPU at 2^20 once (distinct bases there).
void check_once() {
    static bool done = false;
    if (done) return;
    done = true;
    const size_t n = size_t(1) << 20;
    auto& m = resident<G1Curve>(kMaxLogG1, kDistinctG1);
    auto bases = generator_multiples<G1Curve>(n);
    auto s = random_scalars(n, 1);  // the same values as the device buffer's first 2^20
    const auto cpu = msm<G1Curve>(bases, s);
    const auto gpu = m.run_device(device_scalars(0, size_t(1) << kMaxLogG1), n);
    std::printf("check against the CPU at 2^20: %s\n", cpu == gpu ? "OK" : "MISMATCH");
    if (cpu != gpu) throw std::runtime_error("gpu msm differs from the CPU msm at 2^20");
}

void BM_GpuMsmG1(benchmark::State& state) {
    try {
        check_once();
        const size_t n = size_t(1) << state.range(0);
        time_runs<G1Curve>(state, resident<G1Curve>(kMaxLogG1, kDistinctG1), device_scalars(0, size_t(1) << kMaxLogG1),
                           n, "G1");
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}
BENCHMARK(BM_GpuMsmG1)->DenseRange(18, 26, 2)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);

// BN254 G1 (alt_bn128; the sppark anchor's curve), random scalars below r, tiled distinct
// bases resident on the device as for BLS12-381; checked against the CPU at 2^20 once.
// Filter: BM_GpuMsmBn254G1/.
// The bases (i + 1) G from G = (1, 2) built here from Fp::one(): bn254::G1Curve's inline
// generator_x() and b() go through Field::from_u64, whose host-device body nvcc would
// instantiate for the device in this .cu file, where it may not read the modulus.
std::vector<bn254::G1Affine> bn254_g1_bases(size_t n) {
    static std::vector<bn254::G1Affine> cached;
    if (cached.size() < n) {
        const bn254::Fp one = bn254::Fp::one();
        const bn254::G1Jacobian g = bn254::G1Jacobian::from_affine(bn254::G1Affine{one, one + one, false});
        std::vector<bn254::G1Jacobian> js(n);
        bn254::G1Jacobian acc = g;
        for (size_t i = 0; i < n; ++i) {
            js[i] = acc;
            acc += g;
        }
        cached = batch_to_affine<bn254::G1Curve>(std::span<const bn254::G1Jacobian>(js));
    }
    return std::vector<bn254::G1Affine>(cached.begin(), cached.begin() + std::ptrdiff_t(n));
}
gpu::Msm<bn254::G1Curve>& bn254_resident(size_t max_log) {
    static gpu::Msm<bn254::G1Curve>* m = nullptr;  // live to exit
    if (!m) {
        const auto b = bn254_g1_bases(kDistinctG1);
        const size_t n = size_t(1) << max_log;
        DevArray<bn254::G1Affine> tiled(n);
        for (size_t off = 0; off < n; off += b.size())
            check(cudaMemcpy(tiled.p + off, b.data(), std::min(b.size(), n - off) * sizeof(bn254::G1Affine),
                             cudaMemcpyHostToDevice),
                  "cudaMemcpy bases");
        m = new gpu::Msm<bn254::G1Curve>(gpu::Msm<bn254::G1Curve>::FromDevice{}, tiled.p, n);
    }
    return *m;
}
const bn254::Fr* bn254_device_scalars(size_t n_max) {
    static DevArray<bn254::Fr>* arr = nullptr;  // live to exit
    if (!arr) {
        const auto s = random_scalars<bn254::Fr>(n_max, 5);
        arr = new DevArray<bn254::Fr>(n_max);
        check(cudaMemcpy(arr->p, s.data(), n_max * sizeof(bn254::Fr), cudaMemcpyHostToDevice), "cudaMemcpy scalars");
    }
    return arr->p;
}
void BM_GpuMsmBn254G1(benchmark::State& state) {
    try {
        auto& m = bn254_resident(kMaxLogG1);
        const bn254::Fr* scalars = bn254_device_scalars(size_t(1) << kMaxLogG1);
        static bool checked = false;
        if (!checked) {
            checked = true;
            const size_t n = size_t(1) << 20;
            const auto bases = bn254_g1_bases(n);
            const auto s = random_scalars<bn254::Fr>(n, 5);  // the device buffer's first 2^20
            const bool ok = bn254::msm_g1(bases, s) == m.run_device(scalars, n);
            std::printf("BN254 G1 check against the CPU at 2^20: %s\n", ok ? "OK" : "MISMATCH");
            if (!ok) throw std::runtime_error("gpu msm differs from the CPU msm at 2^20 (BN254 G1)");
        }
        time_runs<bn254::G1Curve>(state, m, scalars, size_t(1) << state.range(0), "BN254 G1");
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}
BENCHMARK(BM_GpuMsmBn254G1)->DenseRange(20, 26, 1)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);

// Level 1 with and without the base gathered one entry ahead (MsmTuning::
// level1_prefetch), side by side.
void BM_GpuMsmG1Prefetch(benchmark::State& state) {
    try {
        const size_t n = size_t(1) << state.range(0);
        gpu::GpuMsmOptions o;
        gpu::MsmTuning tuning;
        o.tuning = &tuning;
        tuning.level1_prefetch = state.range(1) != 0;
        const std::string label = std::string("G1 prefetch ") + (tuning.level1_prefetch ? "on" : "off");
        time_runs<G1Curve>(state, resident<G1Curve>(kMaxLogG1, kDistinctG1), device_scalars(0, size_t(1) << kMaxLogG1),
                           n, label.c_str(), o);
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}
BENCHMARK(BM_GpuMsmG1Prefetch)
    ->ArgsProduct({{22, 24, 26}, {0, 1}})
    ->Iterations(5)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// With the precomputed table (Msm::precompute): 2^n bases of their own, a table of
// window size c (0: the default, gpu_msm_precomputed_table; with odd > 1 a table of base odd 2^c,
// Msm::precompute_base), built once before the timed runs
// (its time and size are printed and reported). The result is checked against the plain
// resident path at the same size.
template <class Curve>
void time_precomputed(benchmark::State& state, const char* curve, size_t distinct, size_t max_log, unsigned c,
                      const gpu::GpuMsmOptions& opt = {}, uint32_t odd = 1) {
    const size_t log_n = size_t(state.range(0)), n = size_t(1) << log_n;
    auto m = tiled_msm<Curve>(log_n, distinct);
    const auto t0 = std::chrono::steady_clock::now();
    if (odd > 1)
        m->precompute_base(odd, c);
    else
        m->precompute(c);
    const double build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double gib = double(m->device_base_bytes()) / double(size_t(1) << 30);
    const auto tb = m->precomputed_base();
    std::printf("%s precomputed n=2^%zu: table base %u 2^%u, %u windows, %u buckets, %.1f GiB, built in %.2f s\n",
                curve, log_n, tb.odd, tb.shift, tb.windows, tb.buckets(), gib, build_s);
    state.counters["table_gib"] = gib;
    state.counters["build_s"] = build_s;
    const Fr* sc = device_scalars(0, size_t(1) << kMaxLogG1);
    const auto want = resident<Curve>(max_log, distinct).run_device(sc, n);
    if (m->run_device(sc, n, opt) != want)
        throw std::runtime_error(std::string(curve) + " precomputed msm differs from the plain msm");
    const std::string label =
        std::string(curve) + " precomputed " + (tb.odd > 1 ? "base " + std::to_string(tb.odd) + " 2^" : "c=") +
        std::to_string(tb.shift) + (opt.tuning && !opt.tuning->level1_prefetch ? " prefetch off" : "") +
        (tb.odd > 1 && opt.tuning && !opt.tuning->partition_sort ? " one sort" : "");
    time_runs<Curve>(state, *m, sc, n, label.c_str(), opt);
}

void BM_GpuMsmG1Precomputed(benchmark::State& state) {
    try {
        time_precomputed<G1Curve>(state, "G1", kDistinctG1, kMaxLogG1, unsigned(state.range(1)));
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}
BENCHMARK(BM_GpuMsmG1Precomputed)
    ->ArgsProduct({{18, 20, 22, 24, 26}, {0}})
    ->Iterations(5)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
// Tables of base m 2^s (Msm::precompute_base; args n, m, s; m = 1: the 2^s table) side by
// side with the power-of-two default: fewer buckets for the same windows (2^26: 9 2^20,
// 11 windows, 4.7M buckets against c = 24's 8.4M) or fewer windows for more buckets
// (45 2^20: 10 windows, 23.6M buckets; args n, m, s, MsmTuning::partition_sort).
void BM_GpuMsmG1PrecomputedBase(benchmark::State& state) {
    try {
        gpu::GpuMsmOptions o;
        gpu::MsmTuning tuning;
        o.tuning = &tuning;
        tuning.partition_sort = state.range(3) != 0;
        time_precomputed<G1Curve>(state, "G1", kDistinctG1, kMaxLogG1, unsigned(state.range(2)), o,
                                  uint32_t(state.range(1)));
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}
BENCHMARK(BM_GpuMsmG1PrecomputedBase)
    ->Args({20, 1, 18, 1})  // 2^20-2^22: the power-of-two default, then gpu_msm_precomputed_table's pick
    ->Args({20, 37, 13, 1})
    ->Args({22, 1, 20, 1})
    ->Args({22, 151, 14, 1})
    ->Args({24, 1, 22, 1})
    ->Args({24, 9, 20, 1})
    ->Args({24, 5, 19, 1})
    ->Args({26, 1, 24, 1})
    ->Args({26, 9, 20, 1})
    ->Args({26, 45, 20, 0})
    ->Args({26, 45, 20, 1})
    ->Iterations(5)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
// The same with level 1 gathering the base ahead (MsmTuning::level1_prefetch) on and
// off, side by side: registers, and so blocks a SM, differ between the two kernels.
void BM_GpuMsmG1PrecomputedPrefetch(benchmark::State& state) {
    try {
        gpu::GpuMsmOptions o;
        gpu::MsmTuning tuning;
        o.tuning = &tuning;
        tuning.level1_prefetch = state.range(1) != 0;
        time_precomputed<G1Curve>(state, "G1", kDistinctG1, kMaxLogG1, 0, o);
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}
BENCHMARK(BM_GpuMsmG1PrecomputedPrefetch)
    ->ArgsProduct({{24, 26}, {0, 1}})
    ->Iterations(5)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
// Window sweep with the table (each point builds its own table).
BENCHMARK(BM_GpuMsmG1Precomputed)
    ->ArgsProduct({{22}, {19, 21, 22}})
    ->ArgsProduct({{24}, {20, 21, 23, 24}})
    ->ArgsProduct({{26}, {22, 23, 26}})
    ->Iterations(5)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// Window-size sweep behind gpu_msm_window_bits().
void BM_GpuMsmG1Window(benchmark::State& state) {
    try {
        const size_t n = size_t(1) << state.range(0);
        gpu::GpuMsmOptions o;
        o.window_bits = unsigned(state.range(1));
        time_runs<G1Curve>(state, resident<G1Curve>(kMaxLogG1, kDistinctG1), device_scalars(0, size_t(1) << kMaxLogG1),
                           n, "G1 window sweep", o);
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}
BENCHMARK(BM_GpuMsmG1Window)
    ->ArgsProduct({{20}, {13, 14, 15, 17}})
    ->ArgsProduct({{22}, {15, 16, 17, 19}})
    ->ArgsProduct({{26}, {16, 17, 18, 19, 20, 21, 22}})
    ->Iterations(3)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// The same at 2^27 (the H MSM of a 32 GiB PoRep partition), over a resident set and scalars
// of that size (the others stop at 2^26): the rule's 22 against the 20 it picked before.
void BM_GpuMsmG1Window27(benchmark::State& state) {
    try {
        constexpr size_t kLog = 27;
        gpu::GpuMsmOptions o;
        o.window_bits = unsigned(state.range(1));
        time_runs<G1Curve>(state, resident<G1Curve>(kLog, kDistinctG1), device_scalars(0, size_t(1) << kLog),
                           size_t(1) << kLog, "G1 window sweep", o);
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}
BENCHMARK(BM_GpuMsmG1Window27)
    ->ArgsProduct({{27}, {20, 21, 22}})
    ->Iterations(5)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// Batch-affine rounds side by side: mode 0 none (the default, XYZZ accumulation only),
// otherwise their automatic rule (affine_rounds = -1) with `mode` x 128 threads a SM.
void BM_GpuMsmG1Affine(benchmark::State& state) {
    try {
        const size_t n = size_t(1) << state.range(0);
        gpu::GpuMsmOptions o;
        gpu::MsmTuning tuning;
        o.tuning = &tuning;
        const int mode = int(state.range(1));
        if (mode != 0) {
            tuning.affine_rounds = -1;
            tuning.affine_threads_per_sm = unsigned(mode) * 128;
        }
        const std::string label = "G1 affine mode " + std::to_string(mode);
        time_runs<G1Curve>(state, resident<G1Curve>(kMaxLogG1, kDistinctG1), device_scalars(0, size_t(1) << kMaxLogG1),
                           n, label.c_str(), o);
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}
BENCHMARK(BM_GpuMsmG1Affine)
    ->ArgsProduct({{24, 26}, {0, 3}})
    ->Iterations(5)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

void BM_GpuMsmG1ZeroOne(benchmark::State& state) {
    try {
        const size_t n = size_t(1) << state.range(0);
        time_runs<G1Curve>(state, resident<G1Curve>(kMaxLogG1, kDistinctG1), device_scalars(1, size_t(1) << kMaxLogG1),
                           n, "G1 0/1");
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}
BENCHMARK(BM_GpuMsmG1ZeroOne)->Arg(26)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);

// Scalars mixed as a PoRep B query's (1/4 full, 1/2 ones, 1/4 zeros): the classification
// and compaction of the full ones (MsmTuning::compact_in_place 1 / 0) show in the
// classify phase.
template <class Curve>
void BM_GpuMsmMixed(benchmark::State& state) {
    try {
        const size_t n = size_t(1) << state.range(0);
        gpu::GpuMsmOptions o;
        gpu::MsmTuning tuning;
        o.tuning = &tuning;
        tuning.compact_in_place = state.range(1) != 0;
        constexpr bool g1 = std::is_same_v<Curve, G1Curve>;
        auto& m = resident<Curve>(g1 ? kMaxLogG1 : kMaxLogG2, g1 ? kDistinctG1 : kDistinctG2);
        time_runs<Curve>(state, m, device_scalars(2, size_t(1) << kMaxLogG1), n,
                         tuning.compact_in_place ? (g1 ? "G1 mixed, in place" : "G2 mixed, in place")
                                                 : (g1 ? "G1 mixed, copies" : "G2 mixed, copies"),
                         o);
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}
BENCHMARK_TEMPLATE(BM_GpuMsmMixed, G1Curve)
    ->ArgsProduct({{24, 26}, {1, 0}})
    ->Iterations(5)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_GpuMsmMixed, G2Curve)
    ->ArgsProduct({{24}, {1, 0}})
    ->Iterations(5)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

// G2 over a precomputed table (2^n bases of its own), against the plain resident G2
// result at the same size.
void BM_GpuMsmG2Precomputed(benchmark::State& state) {
    try {
        time_precomputed<G2Curve>(state, "G2", kDistinctG2, kMaxLogG2, 0);
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}
BENCHMARK(BM_GpuMsmG2Precomputed)->DenseRange(18, 24, 2)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_GpuMsmG2(benchmark::State& state) {
    try {
        const size_t n = size_t(1) << state.range(0);
        time_runs<G2Curve>(state, resident<G2Curve>(kMaxLogG2, kDistinctG2), device_scalars(0, size_t(1) << kMaxLogG1),
                           n, "G2");
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}
BENCHMARK(BM_GpuMsmG2)->DenseRange(18, 24, 2)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);

// Streamed bases (Msm::Streamed: host memory, through the device in chunks of n / pieces):
// host 0 pageable (through the staging buffers), 1 page-locked by the caller, 2 page-locked
// by the object (page_lock; the time to make it is printed), against the resident set's
// time at the same size in the same process (BM_GpuMsmG1 n=2^log_n, printed there). The
// sum is checked against the resident one's. Host bases: the tiled 2^20 distinct points.
void BM_GpuMsmG1Streamed(benchmark::State& state) {
    try {
        const unsigned log_n = unsigned(state.range(0));
        const size_t n = size_t(1) << log_n, pieces = size_t(state.range(1));
        const int mode = int(state.range(2));  // 0 pageable (staged), 1 caller page-locked, 2 page_lock
        const bool pinned = mode == 1;
        static std::vector<G1Affine> host;  // the largest size asked for, kept
        if (host.size() < n) {
            const auto b = generator_multiples<G1Curve>(kDistinctG1);
            host.resize(n);
            for (size_t off = 0; off < n; off += kDistinctG1)
                std::copy_n(b.begin(), std::min(kDistinctG1, n - off), host.begin() + ptrdiff_t(off));
        }
        const Fr* scalars = device_scalars(0, size_t(1) << kMaxLogG1);
        if (pinned && !gpu::host_register(host.data(), n * sizeof(G1Affine)))
            throw std::runtime_error("host_register of the host bases failed");
        struct Unregister {
            bool on;
            void* p;
            ~Unregister() {
                if (on) gpu::host_unregister(p);
            }
        } unregister{pinned, host.data()};
        const auto t0 = std::chrono::steady_clock::now();
        gpu::MsmG1 m(gpu::MsmG1::Streamed{}, std::span<const G1Affine>(host.data(), n), n / pieces, 0, mode == 2);
        const double make_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        std::printf("streamed object over 2^%u bases (%s): made in %.1f ms\n", log_n,
                    m.host_page_locked() ? "page-locked" : "pageable", make_ms);
        state.counters["make_ms"] = make_ms;
        const auto want = resident<G1Curve>(kMaxLogG1, kDistinctG1).run_device(scalars, n);
        if (m.run_device(scalars, n) != want) throw std::runtime_error("streamed msm differs from the resident one");
        const char* how = mode == 0 ? "pageable (staged)" : mode == 1 ? "page-locked" : "page_lock by the object";
        const std::string label = "G1 streamed, " + std::to_string(pieces) + " chunks, " + how;
        time_runs<G1Curve>(state, m, scalars, n, label.c_str());
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}
BENCHMARK(BM_GpuMsmG1Streamed)
    ->ArgsProduct({{24, 26}, {4, 8}, {0, 1, 2}})
    ->ArgNames({"log_n", "pieces", "host"})
    ->Iterations(3)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cuzk

BENCHMARK_MAIN();
