// Page-locking host memory (gpu::host_register, cudaHostRegister) at witness-buffer sizes,
// and what the engine's BufferPool::give costs the thread that gives.
//
// BM_HostRegister/mib/touched: the registration of one buffer, written first (touched: 1,
// as the engine's buffers are when a proof gives them back) or only reserved (0: the kernel
// faults every page in as the driver locks it). A 32 GiB PoRep partition's a, b, c are
// 3 x 4 GiB. BM_PoolGive: BufferPool::give of a written buffer with page-locking on, the
// registration left to the pool's background thread (it was inline on the giver, the
// engine's prove thread, before 97e5719).
//
//   cuzk_bench_host_register [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstring>
#include <string>

#include "cuzk/common/parallel.hpp"
#include "cuzk/engine/memory.hpp"
#include "cuzk/gpu/device.hpp"
#include "cuzk/gpu/host_memory.hpp"

namespace {

using namespace cuzk;
using Clock = std::chrono::steady_clock;

size_t elements(int64_t mib) { return size_t(mib) * (size_t(1) << 20) / sizeof(Fr); }

void touch(r1cs::WitnessVector& v) {
    parallel_for(0, v.size(), size_t(1) << 16, [&](size_t b, size_t e) {
        std::memset(static_cast<void*>(v.data() + b), 0x3c, (e - b) * sizeof(Fr));
    });
}

bool have_gpu(benchmark::State& state) {
    std::string why;
    if (gpu::device_count(&why) > 0) return true;
    state.SkipWithError(("no GPU: " + why).c_str());
    return false;
}

void BM_HostRegister(benchmark::State& state) {
    if (!have_gpu(state)) return;
    const size_t n = elements(state.range(0));
    const bool touched = state.range(1) != 0;
    for (auto _ : state) {
        r1cs::WitnessVector v;
        if (touched) {
            v.resize(n);
            touch(v);
        } else {
            v.reserve(n);
        }
        const auto t0 = Clock::now();
        const bool ok = gpu::host_register(v.data(), n * sizeof(Fr));
        state.SetIterationTime(std::chrono::duration<double>(Clock::now() - t0).count());
        if (!ok) {
            state.SkipWithError("host_register refused");
            return;
        }
        gpu::host_unregister(v.data());
    }
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(n * sizeof(Fr)));
}
BENCHMARK(BM_HostRegister)
    ->ArgNames({"mib", "touched"})
    ->Args({1024, 1})
    ->Args({4096, 1})
    ->Args({4096, 0})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

void BM_PoolGive(benchmark::State& state) {
    if (!have_gpu(state)) return;
    const size_t n = elements(state.range(0));
    for (auto _ : state) {
        engine::MemoryBudget budget(uint64_t(64) << 30);
        engine::BufferPool pool(budget, uint64_t(32) << 30, /*pin=*/true);
        r1cs::WitnessVector v(n);
        touch(v);
        const auto t0 = Clock::now();
        pool.give(std::move(v));
        state.SetIterationTime(std::chrono::duration<double>(Clock::now() - t0).count());
        pool.flush();  // the background registration, untimed
        if (pool.pinned_bytes() == 0) {
            state.SkipWithError("the pool page-locked nothing");
            return;
        }
    }
}
BENCHMARK(BM_PoolGive)->ArgNames({"mib"})->Arg(4096)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
