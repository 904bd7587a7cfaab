// The MSM's "sort" phase alone (src/gpu/msm/msm.cu, steps entries_kernel + cub SortPairs), and
// ways to make it cheaper, side by side on the same scalars:
//   0 pairs:         entries as two u32 arrays (key = bucket |d|, value = signed base), cub
//                    SortPairs over the key's bits [0, 24): what msm.cu does (3 onesweep passes);
//   1 packed:        one u64 a entry (key << 32 | value), cub SortKeys over bits [32, 56);
//   2 pairs, fused:  the first radix pass (key bits [0, 8)) done while the entries are
//                    made (a histogram kernel over the scalars, then each block ranks its
//                    entries by those bits in shared memory and writes them to their bins),
//                    cub SortPairs over [8, 24) (2 passes);
//   3 packed, fused: the same with u64 entries, cub SortKeys over [40, 56).
// With the table of msm.cu (c = 24 at 2^26 scalars: 11 windows sharing one bucket set, keys
// of 24 bits). Every variant is checked: keys in order, and an order-free checksum of the
// (key, value) pairs equal to the one of the pairs as made.
//   cuzk_bench_gpu_sort --benchmark_filter=BM_Sort
// H200 (median of 10, ms, 2^24 / 2^26 scalars): pairs 6.24 / 23.11, packed 6.86 /
// 25.19, pairs fused 9.63 / 35.46, packed fused 9.98 / 36.68. CUB's onesweep passes beat
// both: the u64 keys move the same bytes more slowly, and this first pass (shared-memory
// atomics on 256 bins, the digits made twice, 90 KiB a block) costs more than the onesweep
// pass it replaces. msm.cu keeps the pairs.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cub/device/device_radix_sort.cuh>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/gpu/device.hpp"
#include "cuzk/gpu/msm.hpp"
#include "gpu/msm/msm_detail.hpp"
#include "gpu_timing.hpp"

namespace {

using cuzk::BigInt;
namespace md = cuzk::gpu::msm_detail;
using Scalar = BigInt<4>;

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

constexpr unsigned kThreads = 256;
constexpr unsigned kScalarsPerThread = 4;  // fused scatter: 1024 scalars, 11264 entries a block

__device__ inline uint64_t mix(uint64_t x) {  // splitmix64 finaliser
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// Random canonical scalars below 2^254 (< r).
__global__ void random_scalars(Scalar* k, size_t m, uint64_t seed) {
    for (size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x; j < m; j += size_t(gridDim.x) * blockDim.x) {
        Scalar s;
        for (int i = 0; i < 4; ++i) s.l[i] = mix(seed + 4 * j + i);
        s.l[3] >>= 2;
        k[j] = s;
    }
}

// Entry of scalar j, window w (the table layout: value = base j of copy w).
__device__ inline md::Entry entry_of(const Scalar& kj, size_t j, size_t m, const BigInt<5>& h, unsigned w, unsigned c) {
    return md::make_entry(0, md::digit(kj, h, w, c), uint32_t(j + w * m), c);
}

__global__ void make_pairs(const Scalar* k, size_t m, BigInt<5> h, unsigned c, unsigned W, uint32_t* keys,
                           uint32_t* vals) {
    const size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (j >= m) return;
    const Scalar kj = k[j];
    for (unsigned w = 0; w < W; ++w) {
        const md::Entry e = entry_of(kj, j, m, h, w, c);
        keys[w * m + j] = e.key;
        vals[w * m + j] = e.val;
    }
}

__global__ void make_packed(const Scalar* k, size_t m, BigInt<5> h, unsigned c, unsigned W, uint64_t* out) {
    const size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (j >= m) return;
    const Scalar kj = k[j];
    for (unsigned w = 0; w < W; ++w) {
        const md::Entry e = entry_of(kj, j, m, h, w, c);
        out[w * m + j] = (uint64_t(e.key) << 32) | e.val;
    }
}

// Counts of the entries' low 8 key bits.
__global__ void low_histogram(const Scalar* k, size_t m, BigInt<5> h, unsigned c, unsigned W, unsigned* hist) {
    __shared__ unsigned cnt[256];
    cnt[threadIdx.x] = 0;
    __syncthreads();
    for (size_t j = size_t(blockIdx.x) * blockDim.x + threadIdx.x; j < m; j += size_t(gridDim.x) * blockDim.x) {
        const Scalar kj = k[j];
        for (unsigned w = 0; w < W; ++w) atomicAdd(&cnt[entry_of(kj, j, m, h, w, c).key & 255u], 1u);
    }
    __syncthreads();
    atomicAdd(&hist[threadIdx.x], cnt[threadIdx.x]);
}

// cursor[b] = sum of hist below b (one block of 256 threads).
__global__ void low_offsets(const unsigned* hist, unsigned* cursor) {
    __shared__ unsigned s[256];
    s[threadIdx.x] = hist[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned run = 0;
        for (int b = 0; b < 256; ++b) {
            const unsigned v = s[b];
            s[b] = run;
            run += v;
        }
    }
    __syncthreads();
    cursor[threadIdx.x] = s[threadIdx.x];
}

// The fused first pass: block b makes the entries of scalars [1024 b, 1024 b + 1024),
// ranks them by key bits [0, 8) in shared memory, reserves each bin's run at the global
// cursors and writes the runs out (consecutive entries of a bin to consecutive places).
template <bool kPacked>
__global__ void __launch_bounds__(kThreads)
    scatter_low(const Scalar* k, size_t m, BigInt<5> h, unsigned c, unsigned W, unsigned* cursor, uint32_t* keys,
                uint32_t* vals, uint64_t* packed) {
    extern __shared__ uint64_t stage[];
    __shared__ unsigned cnt[256], off[256], gbase[256];
    const unsigned t = threadIdx.x;
    const size_t j0 = size_t(blockIdx.x) * kThreads * kScalarsPerThread;
    const size_t jn = min(m, j0 + size_t(kThreads) * kScalarsPerThread);
    cnt[t] = 0;
    __syncthreads();
    for (size_t j = j0 + t; j < jn; j += kThreads) {
        const Scalar kj = k[j];
        for (unsigned w = 0; w < W; ++w) atomicAdd(&cnt[entry_of(kj, j, m, h, w, c).key & 255u], 1u);
    }
    __syncthreads();
    if (t < 32) {  // exclusive scan of 256 counts by one warp, 8 a lane
        unsigned v[8], sum = 0;
        for (int i = 0; i < 8; ++i) {
            v[i] = cnt[8 * t + i];
            sum += v[i];
        }
        unsigned incl = sum;
        for (int d = 1; d < 32; d <<= 1) {
            const unsigned o = __shfl_up_sync(0xffffffffu, incl, d);
            if (t >= unsigned(d)) incl += o;
        }
        unsigned run = incl - sum;
        for (int i = 0; i < 8; ++i) {
            off[8 * t + i] = run;
            run += v[i];
        }
    }
    __syncthreads();
    gbase[t] = atomicAdd(&cursor[t], cnt[t]);
    cnt[t] = 0;
    __syncthreads();
    for (size_t j = j0 + t; j < jn; j += kThreads) {
        const Scalar kj = k[j];
        for (unsigned w = 0; w < W; ++w) {
            const md::Entry e = entry_of(kj, j, m, h, w, c);
            const unsigned b = e.key & 255u;
            stage[off[b] + atomicAdd(&cnt[b], 1u)] = (uint64_t(e.key) << 32) | e.val;
        }
    }
    __syncthreads();
    const unsigned total = unsigned(jn - j0) * W;
    for (unsigned i = t; i < total; i += kThreads) {
        const uint64_t e = stage[i];
        const unsigned b = unsigned(e >> 32) & 255u;
        const size_t g = size_t(gbase[b]) + (i - off[b]);
        if (kPacked) {
            packed[g] = e;
        } else {
            keys[g] = uint32_t(e >> 32);
            vals[g] = uint32_t(e);
        }
    }
}

// Checks: keys in order; checksum (sum of mix(key, value)) into out[1], disorder count out[0].
__global__ void verify_pairs(const uint32_t* keys, const uint32_t* vals, size_t n, unsigned long long* out) {
    unsigned long long bad = 0, sum = 0;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        if (i + 1 < n && keys[i] > keys[i + 1]) ++bad;
        sum += mix((uint64_t(keys[i]) << 32) | vals[i]);
    }
    atomicAdd(&out[0], bad);
    atomicAdd(&out[1], sum);
}
__global__ void verify_packed(const uint64_t* e, size_t n, unsigned long long* out) {
    unsigned long long bad = 0, sum = 0;
    for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
        if (i + 1 < n && (e[i] >> 32) > (e[i + 1] >> 32)) ++bad;
        sum += mix(e[i]);
    }
    atomicAdd(&out[0], bad);
    atomicAdd(&out[1], sum);
}

template <class T>
struct Dev {
    T* p = nullptr;
    explicit Dev(size_t n) { check(cudaMalloc(&p, std::max<size_t>(n, 1) * sizeof(T)), "cudaMalloc"); }
    ~Dev() { cudaFree(p); }
    Dev(const Dev&) = delete;
    Dev& operator=(const Dev&) = delete;
};

std::map<std::pair<int, int>, std::vector<double>>& samples() {
    static std::map<std::pair<int, int>, std::vector<double>> s;
    return s;
}
const char* variant_name(int v) {
    static const char* names[] = {"pairs", "packed", "pairs, fused", "packed, fused"};
    return names[v];
}

void BM_Sort(benchmark::State& state) {
    std::string why;
    if (cuzk::gpu::device_count(&why) == 0) {
        state.SkipWithError(("no GPU: " + why).c_str());
        return;
    }
    const int variant = int(state.range(0)), log_m = int(state.range(1));
    const size_t m = size_t(1) << log_m;
    const unsigned c = log_m >= 26 ? 24 : log_m >= 24 ? 22 : 20;  // msm.cu's table windows
    const unsigned W = md::num_windows(c);
    const size_t n = m * W;
    const BigInt<5> h = md::recode_offset(c);
    const int end_bit = int(std::bit_width(uint64_t(1) << (c - 1)));  // keys 0 .. 2^(c-1)
    const bool packed = variant == 1 || variant == 3, fused = variant >= 2;
    Dev<Scalar> k(m);
    random_scalars<<<4096, kThreads>>>(k.p, m, 0x5eed0000ull + log_m);
    Dev<uint32_t> k0(packed ? 0 : n), k1(packed ? 0 : n), v0(packed ? 0 : n), v1(packed ? 0 : n);
    Dev<uint64_t> p0(packed ? n : 0), p1(packed ? n : 0);
    Dev<unsigned> hist(256), cursor(256);
    Dev<unsigned long long> out(2);
    cub::DoubleBuffer<uint32_t> dk(k0.p, k1.p), dv(v0.p, v1.p);
    cub::DoubleBuffer<uint64_t> dp(p0.p, p1.p);
    const int begin = fused ? 8 : 0;
    size_t temp_bytes = 0;
    if (packed)
        check(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, dp, int(n), 32 + begin, 32 + end_bit), "size");
    else
        check(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, dk, dv, int(n), begin, end_bit), "size");
    Dev<char> temp(temp_bytes);
    const unsigned scatter_blocks = unsigned((m + kThreads * kScalarsPerThread - 1) / (kThreads * kScalarsPerThread));
    const size_t stage_bytes = size_t(kThreads) * kScalarsPerThread * W * sizeof(uint64_t);
    check(cudaFuncSetAttribute(scatter_low<false>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(stage_bytes)),
          "smem");
    check(cudaFuncSetAttribute(scatter_low<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(stage_bytes)),
          "smem");
    const auto run = [&] {
        dk = cub::DoubleBuffer<uint32_t>(k0.p, k1.p);
        dv = cub::DoubleBuffer<uint32_t>(v0.p, v1.p);
        dp = cub::DoubleBuffer<uint64_t>(p0.p, p1.p);
        if (fused) {
            check(cudaMemsetAsync(hist.p, 0, 256 * sizeof(unsigned)), "memset");
            low_histogram<<<132 * 8, kThreads>>>(k.p, m, h, c, W, hist.p);
            low_offsets<<<1, 256>>>(hist.p, cursor.p);
            if (packed)
                scatter_low<true>
                    <<<scatter_blocks, kThreads, stage_bytes>>>(k.p, m, h, c, W, cursor.p, k0.p, v0.p, p0.p);
            else
                scatter_low<false>
                    <<<scatter_blocks, kThreads, stage_bytes>>>(k.p, m, h, c, W, cursor.p, k0.p, v0.p, p0.p);
        } else if (packed) {
            make_packed<<<unsigned((m + kThreads - 1) / kThreads), kThreads>>>(k.p, m, h, c, W, p0.p);
        } else {
            make_pairs<<<unsigned((m + kThreads - 1) / kThreads), kThreads>>>(k.p, m, h, c, W, k0.p, v0.p);
        }
        if (packed)
            check(cub::DeviceRadixSort::SortKeys(temp.p, temp_bytes, dp, int(n), 32 + begin, 32 + end_bit), "sort");
        else
            check(cub::DeviceRadixSort::SortPairs(temp.p, temp_bytes, dk, dv, int(n), begin, end_bit), "sort");
        check(cudaGetLastError(), "kernels");
    };
    run();
    check(cudaDeviceSynchronize(), "warm-up");
    // Check once: in order, and the same pairs as made (checksum of the pairs straight
    // from make_pairs).
    unsigned long long want[2] = {0, 0}, got[2] = {0, 0};
    {
        Dev<uint32_t> rk(n), rv(n);
        make_pairs<<<unsigned((m + kThreads - 1) / kThreads), kThreads>>>(k.p, m, h, c, W, rk.p, rv.p);
        check(cudaMemset(out.p, 0, 2 * sizeof(unsigned long long)), "memset");
        verify_pairs<<<132 * 16, kThreads>>>(rk.p, rv.p, n, out.p);
        check(cudaMemcpy(want, out.p, sizeof(want), cudaMemcpyDeviceToHost), "copy");
    }
    check(cudaMemset(out.p, 0, 2 * sizeof(unsigned long long)), "memset");
    if (packed)
        verify_packed<<<132 * 16, kThreads>>>(dp.Current(), n, out.p);
    else
        verify_pairs<<<132 * 16, kThreads>>>(dk.Current(), dv.Current(), n, out.p);
    check(cudaMemcpy(got, out.p, sizeof(got), cudaMemcpyDeviceToHost), "copy");
    if (got[0] != 0 || got[1] != want[1])
        throw std::runtime_error(std::string(variant_name(variant)) + " 2^" + std::to_string(log_m) + ": " +
                                 std::to_string(got[0]) + " keys out of order, checksum " +
                                 (got[1] == want[1] ? "equal" : "differs"));
    std::printf("check %s 2^%d: sorted, same pairs\n", variant_name(variant), log_m);
    cuzk::bench_gpu::EventTimer timer;
    for (auto _ : state) {
        const float ms = timer.ms(run);
        samples()[{variant, log_m}].push_back(ms);
        state.SetIterationTime(ms / 1e3);
    }
}

BENCHMARK(BM_Sort)
    ->ArgsProduct({{0, 1, 2, 3}, {24, 26}})
    ->ArgNames({"variant", "log_m"})
    ->Iterations(5)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::printf("\n%-16s %6s %10s %10s %6s\n", "entries + sort", "log_m", "median_ms", "min_ms", "runs");
    for (auto& [key, v] : samples()) {
        const auto sum = cuzk::bench_gpu::summarize(v);
        std::printf("%-16s %6d %10.3f %10.3f %6zu\n", variant_name(key.first), key.second, sum.median, sum.min,
                    sum.runs);
    }
    return 0;
}
