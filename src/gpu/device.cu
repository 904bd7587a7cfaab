// Device discovery and the day-one device field check. The kernels use the same
// Field<> code as the host (portable CIOS with 64-bit limbs); the PTX fast paths of the
// CUDA backend come later and are tested against this.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "cuzk/gpu/device.hpp"

namespace cuzk::gpu {
namespace {

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

template <class F>
__global__ void mul_add_sub_kernel(const F* a, const F* b, F* out, size_t n) {
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] * b[i] + a[i] - b[i];
}

// RAII device buffer so an exception in the middle frees what was allocated.
template <class T>
struct DeviceBuffer {
    T* ptr = nullptr;
    explicit DeviceBuffer(size_t n) { check(cudaMalloc(&ptr, n * sizeof(T) + 1), "cudaMalloc"); }
    ~DeviceBuffer() { cudaFree(ptr); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

template <class F>
void mul_add_sub(const F* a, const F* b, F* out, size_t n) {
    if (n == 0) return;
    DeviceBuffer<F> da(n), db(n), dout(n);
    check(cudaMemcpy(da.ptr, a, n * sizeof(F), cudaMemcpyHostToDevice), "cudaMemcpy a");
    check(cudaMemcpy(db.ptr, b, n * sizeof(F), cudaMemcpyHostToDevice), "cudaMemcpy b");
    const unsigned threads = 128;
    const unsigned blocks = unsigned((n + threads - 1) / threads);
    mul_add_sub_kernel<F><<<blocks, threads>>>(da.ptr, db.ptr, dout.ptr, n);
    check(cudaGetLastError(), "kernel launch");
    check(cudaDeviceSynchronize(), "kernel run");
    check(cudaMemcpy(out, dout.ptr, n * sizeof(F), cudaMemcpyDeviceToHost), "cudaMemcpy out");
}

}  // namespace

bool built_with_cuda() { return true; }

int device_count(std::string* why) {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        if (why) *why = std::string("no usable CUDA device: ") + cudaGetErrorString(e);
        return 0;
    }
    if (n == 0 && why) *why = "no CUDA device";
    return n;
}

void fp_mul_add_sub_on_device(const Fp* a, const Fp* b, Fp* out, size_t n) { mul_add_sub(a, b, out, n); }
void fr_mul_add_sub_on_device(const Fr* a, const Fr* b, Fr* out, size_t n) { mul_add_sub(a, b, out, n); }

}  // namespace cuzk::gpu
