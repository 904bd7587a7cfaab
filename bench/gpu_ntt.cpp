// Device NTT and Groth16-H benchmarks (data resident on the device, timed with CUDA
// events around each call on one stream; the first call of each size, which builds the
// twiddle tables, is a warm-up and not timed).
//   build/gpu/bench/cuzk_bench_gpu_ntt --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// After the Google Benchmark report, one table line per operation and size gives the
// median and minimum over every timed call. Targets (issue "CUDA backend"): Fr NTT 2^24
// <= 3.0 ms, 2^27 <= 30 ms; sppark on an H200: 4.43 and 42.3 ms (coset inverse 2^27: 52).
// bench/RESULTS.md has this code's figures.
// Results are checked once per size: against the CPU at 2^20; at larger sizes against the
// reference path (Impl::kReference, up to 2^24) and by a device round trip (inverse after
// forward). "check" lines say which checks passed; a failed check stops the bench with an
// exception.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/gpu/device.hpp"
#include "cuzk/gpu/ntt.hpp"
#include "cuzk/gpu/testing.hpp"
#include "cuzk/ntt/domain.hpp"
#include "cuzk/ntt/ntt.hpp"
#include "gpu_timing.hpp"

namespace {

using cuzk::Fr;
namespace gntt = cuzk::gpu::ntt;

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// Every timed sample, by (operation, log n), for the final table.
std::map<std::pair<std::string, int>, std::vector<double>>& samples() {
    static std::map<std::pair<std::string, int>, std::vector<double>> s;
    return s;
}

struct DeviceVec {
    Fr* ptr = nullptr;
    size_t n = 0;
    explicit DeviceVec(size_t count) : n(count) { check(cudaMalloc(&ptr, n * sizeof(Fr)), "cudaMalloc"); }
    ~DeviceVec() { cudaFree(ptr); }
    DeviceVec(const DeviceVec&) = delete;
    DeviceVec& operator=(const DeviceVec&) = delete;
    // Random values: a 2^16 random pattern repeated (generating 2^27 on the host is slow).
    void fill(uint64_t seed) {
        std::mt19937_64 rng(seed);
        std::vector<Fr> pat(std::min<size_t>(n, size_t(1) << 16));
        for (auto& x : pat) x = Fr::random(rng);
        for (size_t off = 0; off < n; off += pat.size())
            check(cudaMemcpy(ptr + off, pat.data(), pat.size() * sizeof(Fr), cudaMemcpyHostToDevice), "fill");
    }
    std::vector<Fr> to_host() const {
        std::vector<Fr> v(n);
        check(cudaMemcpy(v.data(), ptr, n * sizeof(Fr), cudaMemcpyDeviceToHost), "to_host");
        return v;
    }
};

bool have_gpu(benchmark::State& state) {
    std::string why;
    if (cuzk::gpu::device_count(&why) > 0) return true;
    state.SkipWithError(("no GPU: " + why).c_str());
    return false;
}

// Operations 0-2 (and 5) run the default path (Impl::kFast with the default gntt::Reorder);
// 3 the reference path; 8-10 kFast with a bit-reversal pass, 15-17 with the gathering first
// pass, whatever the default. 4, 6, 7 and 11-14 are unused (the numbers of the others stay:
// scripts name them).
// 18-20 the orders of sppark's NTT figures (../shared/reference/anchors-measured.md: forward
// and inverse natural -> bit-reversed, coset forward bit-reversed -> natural; its coset
// inverse is natural -> natural, op 2): the like-for-like comparison.
enum Op {
    kForward,
    kCosetForward,
    kCosetInverse,
    kForwardReference,
    kInverse = 5,
    kForwardBitrevPass = 8,   // 8-10: kFast with the in-place bit-reversal pass instead of the
    kCosetForwardBitrevPass,  // gathering first pass (gntt::Reorder::kBitReversalPass)
    kCosetInverseBitrevPass,
    kForwardGather = 15,  // 15-17: gntt::Reorder::kGatheringFirstPass
    kCosetForwardGather,
    kCosetInverseGather,
    kForwardNR,  // 18-20: sppark's orders
    kInverseNR,
    kCosetForwardRN,
};

enum class Kind { kForward, kInverse, kCosetForward, kCosetInverse };
constexpr auto N = gntt::Order::kNatural, R = gntt::Order::kBitReversed;
using RO = gntt::Reorder;
struct OpInfo {
    const char* name;
    Kind kind;
    gntt::Impl impl = gntt::Impl::kFast;
    int reorder = -1;  // a gntt::Reorder, or -1 for the default
    gntt::Order in = N, out = N;
};
OpInfo info(int op) {
    using I = gntt::Impl;
    switch (op) {
        case kForward:
            return {"forward", Kind::kForward};
        case kCosetForward:
            return {"coset_forward", Kind::kCosetForward};
        case kCosetInverse:
            return {"coset_inverse", Kind::kCosetInverse};
        case kForwardReference:
            return {"forward(reference)", Kind::kForward, I::kReference};
        case kInverse:
            return {"inverse", Kind::kInverse};
        case kForwardBitrevPass:
            return {"forward(bitrev pass)", Kind::kForward, I::kFast, int(RO::kBitReversalPass)};
        case kCosetForwardBitrevPass:
            return {"coset_fwd(bitrev pass)", Kind::kCosetForward, I::kFast, int(RO::kBitReversalPass)};
        case kCosetInverseBitrevPass:
            return {"coset_inv(bitrev pass)", Kind::kCosetInverse, I::kFast, int(RO::kBitReversalPass)};
        case kForwardGather:
            return {"forward(gather)", Kind::kForward, I::kFast, int(RO::kGatheringFirstPass)};
        case kCosetForwardGather:
            return {"coset_fwd(gather)", Kind::kCosetForward, I::kFast, int(RO::kGatheringFirstPass)};
        case kCosetInverseGather:
            return {"coset_inv(gather)", Kind::kCosetInverse, I::kFast, int(RO::kGatheringFirstPass)};
        case kForwardNR:
            return {"forward(NR)", Kind::kForward, I::kFast, -1, N, R};
        case kInverseNR:
            return {"inverse(NR)", Kind::kInverse, I::kFast, -1, N, R};
        case kCosetForwardRN:
            return {"coset_forward(RN)", Kind::kCosetForward, I::kFast, -1, R, N};
        default:
            throw std::invalid_argument("gpu_ntt bench: unknown op " + std::to_string(op));
    }
}
const char* op_name(int op) { return info(op).name; }
gntt::Impl impl_of(int op) { return info(op).impl; }

void run_kind(Kind kind, Fr* d, size_t n, cudaStream_t s, gntt::Order in, gntt::Order out, gntt::Impl impl) {
    switch (kind) {
        case Kind::kForward:
            return gntt::forward(d, n, s, in, out, impl);
        case Kind::kInverse:
            return gntt::inverse(d, n, s, in, out, impl);
        case Kind::kCosetForward:
            return gntt::coset_forward(d, n, s, in, out, impl);
        case Kind::kCosetInverse:
            return gntt::coset_inverse(d, n, s, in, out, impl);
    }
}

void run_op(int op, Fr* d, size_t n, cudaStream_t s, gntt::Impl impl) {
    static const gntt::Reorder default_reorder = gntt::reorder();  // before any op sets it
    const OpInfo o = info(op);
    gntt::set_reorder(o.reorder < 0 ? default_reorder : gntt::Reorder(o.reorder));  // read as the call enqueues
    run_kind(o.kind, d, n, s, o.in, o.out, impl);
    gntt::set_reorder(default_reorder);
}
void run_op(int op, Fr* d, size_t n, cudaStream_t s) { run_op(op, d, n, s, impl_of(op)); }

// v stored in `order` (element i at rev(i) when bit-reversed).
std::vector<Fr> in_order(std::vector<Fr> v, gntt::Order order) {
    if (order == R) cuzk::ntt::bit_reverse(v);
    return v;
}

// Checks op on data x (host copy before) against the CPU or, for large n, by undoing it
// (with the inverse kind, the orders swapped).
void check_op(int op, const std::vector<Fr>& before, DeviceVec& d, cudaStream_t s) {
    const size_t n = before.size();
    const OpInfo o = info(op);
    std::string what = std::string(o.name) + " 2^" + std::to_string(__builtin_ctzll(n));
    if (n <= (size_t(1) << 20)) {  // before is stored in o.in: the CPU transforms it in natural order
        auto want = o.in == N ? before : in_order(before, R);  // the bit reversal is its own inverse
        void (*const cpu[])(std::span<Fr>) = {cuzk::ntt::forward, cuzk::ntt::inverse, cuzk::ntt::coset_forward,
                                              cuzk::ntt::coset_inverse};  // by Kind
        cpu[int(o.kind)](want);
        if (d.to_host() != in_order(want, o.out))
            throw std::runtime_error(what + ": device result differs from the CPU");
        std::printf("check %s: equals the CPU\n", what.c_str());
        return;
    }
    if (o.impl == gntt::Impl::kFast && n <= (size_t(1) << 24)) {  // the same operation, reference path
        DeviceVec other(n);
        check(cudaMemcpy(other.ptr, before.data(), n * sizeof(Fr), cudaMemcpyHostToDevice), "copy");
        run_op(op, other.ptr, n, s, gntt::Impl::kReference);
        check(cudaStreamSynchronize(s), "sync");
        if (other.to_host() != d.to_host()) throw std::runtime_error(what + ": kFast differs from kReference");
        std::printf("check %s: kFast equals kReference\n", what.c_str());
    }
    const Kind undo[] = {Kind::kInverse, Kind::kForward, Kind::kCosetInverse, Kind::kCosetForward};
    run_kind(undo[int(o.kind)], d.ptr, n, s, o.out, o.in, gntt::Impl::kFast);
    check(cudaStreamSynchronize(s), "sync");
    if (d.to_host() != before) throw std::runtime_error(what + ": round trip does not give the input back");
    std::printf("check %s: round trip gives the input back\n", what.c_str());
}

void BM_Transform(benchmark::State& state) {
    if (!have_gpu(state)) return;
    const int op = int(state.range(0));
    const int k = int(state.range(1));
    const size_t n = size_t(1) << k;
    DeviceVec d(n);
    d.fill(uint64_t(k));
    cudaStream_t s;
    check(cudaStreamCreate(&s), "cudaStreamCreate");
    cuzk::bench_gpu::EventTimer timer;
    // Warm-up (builds the tables); the first repetition also checks the result.
    auto& out = samples()[{op_name(op), k}];
    if (out.empty()) {
        const auto before = d.to_host();
        run_op(op, d.ptr, n, s);
        check(cudaStreamSynchronize(s), "warm-up");
        check_op(op, before, d, s);
    } else {
        run_op(op, d.ptr, n, s);
        check(cudaStreamSynchronize(s), "warm-up");
    }
    for (auto _ : state) {
        const float ms = timer.ms([&] { run_op(op, d.ptr, n, s); }, s);
        out.push_back(ms);
        state.SetIterationTime(ms / 1e3);
    }
    check(cudaStreamDestroy(s), "cudaStreamDestroy");
    state.SetItemsProcessed(int64_t(state.iterations()) << k);
}

// compute_h on m = 2^k evaluations. Later calls run on the previous call's outputs: the
// arithmetic takes the same time on any values.
void BM_ComputeH(benchmark::State& state) {
    if (!have_gpu(state)) return;
    const int k = int(state.range(0));
    const auto impl = gntt::Impl::kFast;
    const size_t n = size_t(1) << k;
    DeviceVec a(n), b(n), c(n);
    cudaStream_t s;
    check(cudaStreamCreate(&s), "cudaStreamCreate");
    cuzk::bench_gpu::EventTimer timer;
    const char* name = "compute_h";
    auto& out = samples()[{name, k}];
    const auto run = [&](DeviceVec& x, DeviceVec& y, DeviceVec& z, gntt::Impl im) {
        gntt::compute_h_device(x.ptr, y.ptr, z.ptr, n, s, im);
    };
    a.fill(1);
    b.fill(2);
    c.fill(3);
    if (k <= 20 && out.empty()) {  // checked against the CPU once
        auto ha = a.to_host(), hb = b.to_host(), hc = c.to_host();
        run(a, b, c, impl);
        check(cudaStreamSynchronize(s), "warm-up");
        if (a.to_host() != cuzk::ntt::compute_h(ha, hb, hc))
            throw std::runtime_error("compute_h 2^" + std::to_string(k) + ": device result differs from the CPU");
        std::printf("check %s 2^%d impl %d: equals the CPU\n", name, k, int(impl));
    } else if (k <= 24 && out.empty()) {  // checked against the reference path once
        DeviceVec a2(n), b2(n), c2(n);
        for (auto [src, dst] : {std::pair{&a, &a2}, std::pair{&b, &b2}, std::pair{&c, &c2}})
            check(cudaMemcpy(dst->ptr, src->ptr, n * sizeof(Fr), cudaMemcpyDeviceToDevice), "copy");
        run(a, b, c, impl);
        run(a2, b2, c2, gntt::Impl::kReference);
        check(cudaStreamSynchronize(s), "warm-up");
        if (a.to_host() != a2.to_host())
            throw std::runtime_error(std::string(name) + " 2^" + std::to_string(k) + ": differs from kReference");
        std::printf("check %s 2^%d: equals kReference\n", name, k);
    } else {
        run(a, b, c, impl);
        check(cudaStreamSynchronize(s), "warm-up");
    }
    for (auto _ : state) {
        const float ms = timer.ms([&] { run(a, b, c, impl); }, s);
        out.push_back(ms);
        state.SetIterationTime(ms / 1e3);
    }
    check(cudaStreamDestroy(s), "cudaStreamDestroy");
}

// BN254's Fr (filter BM_TransformBn254/): op 0 forward natural -> natural, 1 forward
// natural -> bit-reversed (sppark's NTT figures' order, the sppark-bn254 anchor's), 2
// coset_forward, 3 coset_inverse, 4 inverse (natural orders). Checked once per (op, size):
// against the CPU up to 2^20, by a device round trip above.
void BM_TransformBn254(benchmark::State& state) {
    using F = cuzk::bn254::Fr;
    if (!have_gpu(state)) return;
    const int op = int(state.range(0));
    const int k = int(state.range(1));
    const size_t n = size_t(1) << k;
    static const char* const kNames[] = {"bn254 forward", "bn254 forward(NR)", "bn254 coset_forward",
                                         "bn254 coset_inverse", "bn254 inverse"};
    if (op < 0 || op > 4) throw std::invalid_argument("gpu_ntt bench: unknown BN254 op " + std::to_string(op));
    F* d = nullptr;
    check(cudaMalloc(&d, n * sizeof(F)), "cudaMalloc");
    {
        std::mt19937_64 rng{uint64_t(k)};
        std::vector<F> pat(std::min<size_t>(n, size_t(1) << 16));
        for (auto& x : pat) x = F::random(rng);
        for (size_t off = 0; off < n; off += pat.size())
            check(cudaMemcpy(d + off, pat.data(), pat.size() * sizeof(F), cudaMemcpyHostToDevice), "fill");
    }
    const auto to_host = [&] {
        std::vector<F> v(n);
        check(cudaMemcpy(v.data(), d, n * sizeof(F), cudaMemcpyDeviceToHost), "to_host");
        return v;
    };
    cudaStream_t s;
    check(cudaStreamCreate(&s), "cudaStreamCreate");
    const auto run = [&](int o) {
        switch (o) {
            case 0:
                return gntt::forward(d, n, s);
            case 1:
                return gntt::forward(d, n, s, N, R);
            case 2:
                return gntt::coset_forward(d, n, s);
            case 3:
                return gntt::coset_inverse(d, n, s);
            default:
                return gntt::inverse(d, n, s);
        }
    };
    try {
        auto& out = samples()[{kNames[op], k}];
        const std::string what = std::string(kNames[op]) + " 2^" + std::to_string(k);
        const auto before = out.empty() ? to_host() : std::vector<F>{};
        run(op);  // warm-up: builds the tables
        check(cudaStreamSynchronize(s), "warm-up");
        if (!before.empty() && n <= (size_t(1) << 20)) {
            auto want = before;
            void (*const cpu[])(std::span<F>) = {cuzk::ntt::forward, cuzk::ntt::forward, cuzk::ntt::coset_forward,
                                                 cuzk::ntt::coset_inverse, cuzk::ntt::inverse};
            cpu[op](want);
            if (op == 1) cuzk::ntt::bit_reverse(std::span<F>(want));
            if (to_host() != want) throw std::runtime_error(what + ": device result differs from the CPU");
            std::printf("check %s: equals the CPU\n", what.c_str());
        } else if (!before.empty()) {
            if (op == 1)
                gntt::inverse(d, n, s, R, N);
            else if (op == 2)
                gntt::coset_inverse(d, n, s);
            else if (op == 3)
                gntt::coset_forward(d, n, s);
            else if (op == 4)
                gntt::forward(d, n, s);
            else
                gntt::inverse(d, n, s);
            check(cudaStreamSynchronize(s), "sync");
            if (to_host() != before) throw std::runtime_error(what + ": round trip does not give the input back");
            std::printf("check %s: round trip gives the input back\n", what.c_str());
        }
        cuzk::bench_gpu::EventTimer timer;
        for (auto _ : state) {
            const float ms = timer.ms([&] { run(op); }, s);
            out.push_back(ms);
            state.SetIterationTime(ms / 1e3);
        }
    } catch (const std::exception& e) {
        state.SkipWithError(e.what());
    }
    check(cudaStreamDestroy(s), "cudaStreamDestroy");
    cudaFree(d);
    state.SetItemsProcessed(int64_t(state.iterations()) << k);
}

BENCHMARK(BM_TransformBn254)
    ->ArgsProduct({{0, 1}, {20, 21, 22, 23, 24, 25, 26}})
    ->ArgsProduct({{2, 3, 4}, {20, 24, 26}})
    ->ArgNames({"op", "log_n"})
    ->Iterations(5)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Transform)
    ->ArgsProduct({{kForward, kCosetForward, kCosetInverse}, {20, 24, 26, 27}})
    // The sizes of the plan's other pass splits (plan::make_passes), for changes to the plan.
    ->ArgsProduct({{kForward}, {21, 22, 23, 25}})
    ->ArgsProduct({{kInverse}, {24, 27}})
    ->ArgsProduct({{kForwardBitrevPass, kCosetForwardBitrevPass, kCosetInverseBitrevPass}, {20, 24, 26, 27}})
    ->ArgsProduct({{kForwardGather, kCosetForwardGather, kCosetInverseGather}, {20, 24, 27}})
    ->ArgsProduct({{kForwardNR, kInverseNR, kCosetForwardRN}, {20, 24, 27}})
    ->Args({kForwardReference, 24})
    ->ArgNames({"op", "log_n"})
    ->Iterations(5)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ComputeH)
    ->Arg(20)
    ->Arg(24)
    ->Arg(25)
    ->Arg(26)
    ->Arg(27)
    ->ArgNames({"log_n"})
    ->Iterations(5)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    std::printf("\n%-24s %6s %10s %10s %6s\n", "gpu_ntt op", "log_n", "median_ms", "min_ms", "runs");
    for (auto& [key, v] : samples()) {
        if (v.empty()) continue;
        const auto sum = cuzk::bench_gpu::summarize(v);
        std::printf("%-24s %6d %10.3f %10.3f %6zu\n", key.first.c_str(), key.second, sum.median, sum.min, sum.runs);
    }
    return 0;
}
