// Device field arithmetic throughput: the 32-bit PTX carry chains (cuzk/ff/mont_ptx.hpp,
// what Field uses on the device) against the portable 64-bit CIOS that the device used
// before, for Fp and Fr mul, square, add and sub. Each thread runs two interleaved
// dependent chains of `kIters` operations over values in registers (no memory traffic
// inside the loop); the grid fills the GPU several times over. Reported: operations per
// second (median of the repetitions, device events), and a summary table at the end.
// Also: four independent chains a thread ("x4 indep", the form of the sppark anchor), the
// modulus read from constant memory ("p cmem", "p0 cmem": its low limb only), and the
// rotating-accumulator multiply ("rot"), and Field's own operator* / square() ("Field":
// rot with p and -p^-1 read from constant memory, see field.hpp).
//   build/gpu/bench/cuzk_bench_gpu_field --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// H200, 2026-11-29 (G op/s, median of 15 launches; PTX / portable): Fp mul 27.1 / 17.2,
// Fp sqr 32.7 (mul(a, a): 27.0), Fp add 455 / 213, Fp sub 449 / 201; Fr mul 52.2 / 38.9,
// Fr sqr 59.2 (51.8), Fr add 673 / 349, Fr sub 698 / 326. SASS: the Fp mul is 277
// IMAD.WIDE.U32(.X) (one per 32x32 product pair of the chains) and ~60 other
// instructions; 27 G/s at 1.98 GHz is ~1240 cycles per warp-multiplication per
// scheduler, ~4.5 per wide multiply-add: the multiply pipe is the limit, as the model of
// shared/reference/gpu-msm-ntt.md section 5 assumes.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/shoup_ptx.hpp"

namespace {

using cuzk::Fp;
using cuzk::Fr;
namespace ptx = cuzk::ff_detail::ptx;

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

constexpr int kIters = 256;
enum Op {
    kMulPtx,
    kMulPortable,
    kSqrPtx,
    kSqrAsMulPtx,
    kAddPtx,
    kAddPortable,
    kSubPtx,
    kSubPortable,
    kMulPtxConstMem,
    kMulPtxConstMemLimb0,
    kMulPtxRot,
    kMulField,
    kSqrField,
    kMulSubMulField,
    kMulShoup,  // Fr, x4 indep only: x_k <- x_k w_k by shoup_mul (the NTT's twiddle product)
    kOps
};
const char* op_name(int op) {
    static const char* names[kOps] = {"mul ptx",        "mul portable",      "sqr ptx",     "sqr as mul ptx",
                                      "add ptx",        "add portable",      "sub ptx",     "sub portable",
                                      "mul ptx p cmem", "mul ptx p0 cmem",   "mul ptx rot", "mul Field",
                                      "sqr Field",      "mul_sub_mul Field", "mul shoup"};
    return names[op];
}

// The modulus in constant memory, so that ptxas cannot fold its words into immediates:
// the Fr multiplication with immediates compiled its m p products to unfused IMAD.X +
// IMAD.HI.U32.X pairs (p's low limb is 2^32 (2^32 - 1) + 1), the Fp one to IMAD.WIDE.
__constant__ uint64_t c_fp_p[Fp::N] = {Fp::kP.l[0], Fp::kP.l[1], Fp::kP.l[2], Fp::kP.l[3], Fp::kP.l[4], Fp::kP.l[5]};
__constant__ uint64_t c_fr_p[Fr::N] = {Fr::kP.l[0], Fr::kP.l[1], Fr::kP.l[2], Fr::kP.l[3]};
template <class F>
__device__ __forceinline__ const uint64_t* const_modulus() {
    if constexpr (F::kBits == 381)
        return c_fp_p;
    else
        return c_fr_p;
}

template <class F, int OP>
__device__ __forceinline__ F apply(const F& x, const F& y) {
    constexpr typename F::Big p = F::kP;
    F r;
    if constexpr (OP == kMulPtx) {
        ptx::DeviceIsa isa;
        ptx::mont_mul<F::N>(isa, r.l, x.l, y.l, p.l, F::kInv);
    } else if constexpr (OP == kMulPtxConstMem) {
        ptx::DeviceIsa isa;
        ptx::mont_mul<F::N>(isa, r.l, x.l, y.l, const_modulus<F>(), F::kInv);
    } else if constexpr (OP == kMulPtxConstMemLimb0) {
        ptx::DeviceIsa isa;
        uint64_t q[F::N];
        q[0] = const_modulus<F>()[0];
#pragma unroll
        for (size_t i = 1; i < F::N; ++i) q[i] = p.l[i];
        ptx::mont_mul<F::N>(isa, r.l, x.l, y.l, q, F::kInv);
    } else if constexpr (OP == kMulPtxRot) {
        ptx::DeviceIsa isa;
        ptx::mont_mul_rot<F::N>(isa, r.l, x.l, y.l, p.l, F::kInv);
    } else if constexpr (OP == kMulField) {
        r = x * y;
    } else if constexpr (OP == kSqrField) {
        r = x.square();
    } else if constexpr (OP == kMulSubMulField) {  // x y - y y, one reduction for Fp (Field::mul_sub_mul)
        r = F::mul_sub_mul(x, y, y, y);
    } else if constexpr (OP == kMulPortable) {
        F::mul_portable(r, x, y);
    } else if constexpr (OP == kSqrPtx) {
        ptx::DeviceIsa isa;
        ptx::mont_sqr<F::N>(isa, r.l, x.l, p.l, F::kInv);
    } else if constexpr (OP == kSqrAsMulPtx) {
        ptx::DeviceIsa isa;
        ptx::mont_mul<F::N>(isa, r.l, x.l, x.l, p.l, F::kInv);
    } else if constexpr (OP == kAddPtx) {
        ptx::DeviceIsa isa;
        ptx::mod_add<F::N>(isa, r.l, x.l, y.l, p.l);
    } else if constexpr (OP == kAddPortable) {
        cuzk::ff_detail::mod_add<F::N>(r.l, x.l, y.l, p.l);
    } else if constexpr (OP == kSubPtx) {
        ptx::DeviceIsa isa;
        ptx::mod_sub<F::N>(isa, r.l, x.l, y.l, p.l);
    } else {
        cuzk::ff_detail::mod_sub<F::N>(r.l, x.l, y.l, p.l);
    }
    return r;
}

// Two chains per thread: x <- op(x, y), y <- op(y, x'), so neither can be skipped.
template <class F, int OP>
__global__ void __launch_bounds__(128) chain_kernel(F* v, size_t threads) {
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= threads) return;
    F x = v[2 * t], y = v[2 * t + 1];
    for (int i = 0; i < kIters; ++i) {
        x = apply<F, OP>(x, y);
        y = apply<F, OP>(y, x);
    }
    v[2 * t] = x;
    v[2 * t + 1] = y;
}

// Four independent chains per thread, x_k <- x_k * y_k (the form of the sppark anchor,
// shared/reference/anchors-measured.md): the chain kernel above is one dependent chain (y
// waits for the new x), so it measures the multiply with no instruction-level parallelism
// inside a thread; this one shows what the scheduler gets from four.
template <class F, int OP>
__global__ void __launch_bounds__(128) independent_kernel(F* v, size_t threads) {
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= threads) return;
    F x[4], y[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        x[k] = v[2 * t + (k & 1)];
        y[k] = v[2 * t + 1 - (k & 1)];
    }
    for (int i = 0; i < kIters; ++i) {
#pragma unroll
        for (int k = 0; k < 4; ++k) x[k] = apply<F, OP>(x[k], y[k]);
    }
    v[2 * t] = (x[0] + x[1]) + (x[2] + x[3]);
}

// Four independent chains x_k <- x_k w_k with Shoup's product by a constant (shoup_ptx.hpp;
// w_k in standard form with w'_k = -w~_k r^-1 mod 2^256, made once a thread): against
// "Fr mul Field x4 indep", the same chains as Montgomery products.
__constant__ uint64_t c_fr_np[Fr::N];
__global__ void __launch_bounds__(128) shoup_kernel(Fr* v, size_t threads, cuzk::BigInt<Fr::N> neg_inv) {
    const size_t t = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= threads) return;
    ptx::DeviceIsa isa;
    Fr x[4];
    cuzk::BigInt<Fr::N> w[4], wq[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        x[k] = v[2 * t + (k & 1)];
        const Fr y = v[2 * t + 1 - (k & 1)];
        w[k] = y.to_bigint();
        ptx::mul_low<Fr::N>(isa, wq[k].l, y.l, neg_inv.l);
    }
    for (int i = 0; i < kIters; ++i) {
#pragma unroll
        for (int k = 0; k < 4; ++k) ptx::shoup_mul<Fr::N>(isa, x[k].l, x[k].l, w[k].l, wq[k].l, c_fr_p, c_fr_np);
    }
    v[2 * t] = (x[0] + x[1]) + (x[2] + x[3]);
}

std::map<std::string, std::vector<double>>& samples() {
    static std::map<std::string, std::vector<double>> s;
    return s;
}

template <class F, int OP, bool kIndependent = false>
void BM_Chain(benchmark::State& state) {
    try {
        int sms = 0;
        check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "cudaDeviceGetAttribute");
        const size_t threads = size_t(sms) * 128 * 32;  // many waves: the tail does not matter
        std::mt19937_64 rng(1);
        std::vector<F> h(2 * threads);
        for (size_t i = 0; i < std::min<size_t>(h.size(), 4096); ++i) h[i] = F::random(rng);
        for (size_t i = 4096; i < h.size(); ++i) h[i] = h[i % 4096];
        F* d = nullptr;
        check(cudaMalloc(&d, h.size() * sizeof(F)), "cudaMalloc");
        check(cudaMemcpy(d, h.data(), h.size() * sizeof(F), cudaMemcpyHostToDevice), "cudaMemcpy");
        cudaEvent_t a, b;
        check(cudaEventCreate(&a), "cudaEventCreate");
        check(cudaEventCreate(&b), "cudaEventCreate");
        const unsigned blocks = unsigned(threads / 128);
        cuzk::BigInt<Fr::N> neg_inv{}, np{};
        if constexpr (OP == kMulShoup) {
            neg_inv = ptx::neg_inverse_mod_word_power<Fr::N>(Fr::kP);
            cuzk::BigInt<Fr::N>::sub(np, cuzk::BigInt<Fr::N>::zero(), Fr::kP);  // 2^256 - r
            check(cudaMemcpyToSymbol(c_fr_np, np.l, sizeof(np.l)), "cudaMemcpyToSymbol");
        }
        const auto launch = [&] {
            if constexpr (OP == kMulShoup)
                shoup_kernel<<<blocks, 128>>>(reinterpret_cast<Fr*>(d), threads, neg_inv);
            else if constexpr (kIndependent)
                independent_kernel<F, OP><<<blocks, 128>>>(d, threads);
            else
                chain_kernel<F, OP><<<blocks, 128>>>(d, threads);
        };
        const double ops_per_thread = kIndependent ? 4.0 * kIters : 2.0 * kIters;
        launch();  // warm-up
        check(cudaGetLastError(), "launch");
        check(cudaDeviceSynchronize(), "warm-up");
        const std::string key =
            std::string(F::kBits == 381 ? "Fp " : "Fr ") + op_name(OP) + (kIndependent ? " x4 indep" : "");
        for (auto _ : state) {
            check(cudaEventRecord(a), "cudaEventRecord");
            launch();
            check(cudaEventRecord(b), "cudaEventRecord");
            check(cudaEventSynchronize(b), "cudaEventSynchronize");
            float ms = 0;
            check(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
            state.SetIterationTime(ms / 1e3);
            samples()[key].push_back(double(threads) * ops_per_thread / (ms * 1e-3) / 1e9);
        }
        state.counters["ops"] = benchmark::Counter(double(threads) * ops_per_thread * double(state.iterations()),
                                                   benchmark::Counter::kIsRate);
        cudaEventDestroy(a);
        cudaEventDestroy(b);
        cudaFree(d);
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
}

#define CUZK_FIELD_BENCH(F, OP) \
    BENCHMARK(BM_Chain<F, OP>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond)
CUZK_FIELD_BENCH(Fp, kMulPtx);
CUZK_FIELD_BENCH(Fp, kMulPortable);
CUZK_FIELD_BENCH(Fp, kSqrPtx);
CUZK_FIELD_BENCH(Fp, kSqrAsMulPtx);
CUZK_FIELD_BENCH(Fp, kAddPtx);
CUZK_FIELD_BENCH(Fp, kAddPortable);
CUZK_FIELD_BENCH(Fp, kSubPtx);
CUZK_FIELD_BENCH(Fp, kSubPortable);
CUZK_FIELD_BENCH(Fr, kMulPtx);
CUZK_FIELD_BENCH(Fr, kMulPortable);
CUZK_FIELD_BENCH(Fr, kSqrPtx);
CUZK_FIELD_BENCH(Fr, kSqrAsMulPtx);
CUZK_FIELD_BENCH(Fr, kAddPtx);
CUZK_FIELD_BENCH(Fr, kAddPortable);
CUZK_FIELD_BENCH(Fr, kSubPtx);
CUZK_FIELD_BENCH(Fr, kSubPortable);
CUZK_FIELD_BENCH(Fp, kMulPtxConstMem);
CUZK_FIELD_BENCH(Fp, kMulPtxConstMemLimb0);
CUZK_FIELD_BENCH(Fr, kMulPtxConstMem);
CUZK_FIELD_BENCH(Fr, kMulPtxConstMemLimb0);
BENCHMARK(BM_Chain<Fp, kMulPtx, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fr, kMulPtx, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
CUZK_FIELD_BENCH(Fp, kMulPtxRot);
CUZK_FIELD_BENCH(Fr, kMulPtxRot);
CUZK_FIELD_BENCH(Fp, kMulField);
CUZK_FIELD_BENCH(Fr, kMulField);
CUZK_FIELD_BENCH(Fp, kSqrField);
CUZK_FIELD_BENCH(Fr, kSqrField);
CUZK_FIELD_BENCH(Fp, kMulSubMulField);
BENCHMARK(BM_Chain<Fr, kMulField, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fp, kMulField, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fp, kMulPtxRot, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fr, kMulPtxRot, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fr, kMulPtxConstMem, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Chain<Fr, kMulShoup, true>)->Iterations(5)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::printf("\n%-22s %12s %12s %6s\n", "gpu_field op", "median G/s", "max G/s", "runs");
    for (auto& [key, v] : samples()) {
        std::sort(v.begin(), v.end());
        std::printf("%-22s %12.2f %12.2f %6zu\n", key.c_str(), v[v.size() / 2], v.back(), v.size());
    }
    return 0;
}
