// Device timing shared by the GPU benchmarks (bench/gpu_*.cu, gpu_*.cpp): CUDA events around
// the work a callable enqueues, and the summary of a sample list that each bench prints in
// its closing table.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuzk::bench_gpu {

// Two events; ms(f, s) records the first on stream s, runs f (which enqueues the work on
// s), records the second, waits for it and returns the device milliseconds in between.
class EventTimer {
 public:
    EventTimer() {
        ok(cudaEventCreate(&start_), "cudaEventCreate");
        if (const cudaError_t e = cudaEventCreate(&stop_); e != cudaSuccess) {
            cudaEventDestroy(start_);
            ok(e, "cudaEventCreate");
        }
    }
    ~EventTimer() {
        cudaEventDestroy(start_);
        cudaEventDestroy(stop_);
    }
    EventTimer(const EventTimer&) = delete;
    EventTimer& operator=(const EventTimer&) = delete;

    template <class F>
    float ms(F&& f, cudaStream_t s = nullptr) {
        ok(cudaEventRecord(start_, s), "cudaEventRecord");
        f();
        ok(cudaEventRecord(stop_, s), "cudaEventRecord");
        ok(cudaEventSynchronize(stop_), "cudaEventSynchronize");
        float t = 0;
        ok(cudaEventElapsedTime(&t, start_, stop_), "cudaEventElapsedTime");
        return t;
    }

 private:
    static void ok(cudaError_t e, const char* what) {
        if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
    }
    cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

struct SampleSummary {
    double median, min, max;
    size_t runs;
};
// Sorts v (at least one sample) and summarises it.
inline SampleSummary summarize(std::vector<double>& v) {
    std::sort(v.begin(), v.end());
    return {v[v.size() / 2], v.front(), v.back(), v.size()};
}

}  // namespace cuzk::bench_gpu
