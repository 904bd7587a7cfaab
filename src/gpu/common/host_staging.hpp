// Host -> device copies from host memory that may be pageable, shared by the CUDA backend's
// uploads (a, b, c, z) and the streamed MSM's base chunks (src/gpu/msm/msm.cu). Internal to
// src/gpu (CUDA sources only).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace cuzk::gpu::detail {

// True when all of [p, p + bytes) is page-locked host memory that the current device can
// DMA from (cudaHostRegister'ed or cudaMallocHost'ed): checked at both ends, since a
// registered range need not cover the whole buffer. bytes 0: p alone.
inline bool is_page_locked(const void* p, size_t bytes) {
    const void* last = static_cast<const char*>(p) + (bytes ? bytes - 1 : 0);
    for (const void* q : {p, last}) {
        cudaPointerAttributes attr{};
        if (cudaPointerGetAttributes(&attr, q) != cudaSuccess) {
            cudaGetLastError();  // older drivers report unregistered memory as an error
            return false;
        }
        if (attr.type != cudaMemoryTypeHost) return false;
    }
    return true;
}

// Copies through two page-locked buffers of kBytes: piece k is copied into buffer k % 2 (by
// `threads` host threads) while the DMA of piece k - 1 runs, after the DMA of piece k - 2
// (that buffer's previous reader) is done. A 32 MiB piece is ~1 ms of DMA at PCIe 5 speed,
// long enough to hide the other piece's host copy. The buffers are allocated on first use.
// On return the last pieces may still be in flight: the caller synchronises `stream`.
class HostStaging {
 public:
    static constexpr size_t kBytes = size_t(32) << 20;
    explicit HostStaging(unsigned threads = 1) : threads_(std::max(threads, 1u)) {}
    HostStaging(const HostStaging&) = delete;
    HostStaging& operator=(const HostStaging&) = delete;
    ~HostStaging() {
        for (int i = 0; i < 2; ++i) {
            if (read_[i]) {
                cudaEventSynchronize(read_[i]);
                cudaEventDestroy(read_[i]);
            }
            if (buf_[i]) cudaFreeHost(buf_[i]);
        }
    }

    // Enqueues the copy of `bytes` from host `from` to device `to` on `stream`.
    void copy(void* to, const void* from, size_t bytes, cudaStream_t stream) {
        for (int i = 0; i < 2; ++i) {
            if (!buf_[i]) check(cudaMallocHost(&buf_[i], kBytes), "cudaMallocHost staging");
            if (!read_[i]) check(cudaEventCreateWithFlags(&read_[i], cudaEventDisableTiming), "cudaEventCreate");
        }
        auto* dst = static_cast<char*>(to);
        const auto* src = static_cast<const char*>(from);
        for (size_t off = 0, k = 0; off < bytes; off += kBytes, ++k) {
            const size_t len = std::min(kBytes, bytes - off);
            const int i = int(k % 2);
            check(cudaEventSynchronize(read_[i]), "staging event");  // a never-recorded event is complete
            fill(static_cast<char*>(buf_[i]), src + off, len);
            check(cudaMemcpyAsync(dst + off, buf_[i], len, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync staged");
            check(cudaEventRecord(read_[i], stream), "cudaEventRecord");
        }
    }

 private:
    static void check(cudaError_t e, const char* what) {
        if (e != cudaSuccess)
            throw std::runtime_error(std::string("host staging: ") + what + ": " + cudaGetErrorString(e));
    }
    // memcpy of len bytes split over threads_ threads (this one included).
    void fill(char* stage, const char* src, size_t len) const {
        const size_t part = (len + threads_ - 1) / threads_;
        std::vector<std::thread> helpers;
        for (unsigned t = 1; t < threads_ && t * part < len; ++t)
            helpers.emplace_back(
                [=] { std::memcpy(stage + t * part, src + t * part, std::min(part, len - t * part)); });
        std::memcpy(stage, src, std::min(part, len));
        for (auto& h : helpers) h.join();
    }

    unsigned threads_;
    void* buf_[2] = {nullptr, nullptr};
    cudaEvent_t read_[2] = {nullptr, nullptr};
};

}  // namespace cuzk::gpu::detail
