// Device discovery and the device field checks. The kernels use the same Field<> code as
// the host; on the device it takes the 32-bit PTX carry chains of cuzk/ff/mont_ptx.hpp,
// and the portable 64-bit CIOS (Field::mul_portable) is computed alongside for the tests.
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

template <class F>
__global__ void ops_kernel(const F* a, const F* b, DeviceFieldOps<F>* out, size_t n) {
    size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const F x = a[i], y = b[i];
    DeviceFieldOps<F> r;
    r.mul = x * y;
    r.sqr = x.square();
    r.add = x + y;
    r.sub = x - y;
    r.dbl = x.dbl();
    r.neg = -x;
    r.inv = x.inverse();  // Fermat on the device: a chain of squares and multiplies
    F::mul_portable(r.mul_portable, x, y);
    r.mul_sub_mul = F::mul_sub_mul(x, y, r.add, r.sub);  // x y - (x + y)(x - y)
    r.mul_fp64 = F::mul_fp64(x, y);                      // the FP64 pipe (mont_fp64.hpp)
    out[i] = r;
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

template <class F>
void ops(const F* a, const F* b, DeviceFieldOps<F>* out, size_t n) {
    if (n == 0) return;
    DeviceBuffer<F> da(n), db(n);
    DeviceBuffer<DeviceFieldOps<F>> dout(n);
    check(cudaMemcpy(da.ptr, a, n * sizeof(F), cudaMemcpyHostToDevice), "cudaMemcpy a");
    check(cudaMemcpy(db.ptr, b, n * sizeof(F), cudaMemcpyHostToDevice), "cudaMemcpy b");
    check(cudaMemset(dout.ptr, 0xa5, n * sizeof(DeviceFieldOps<F>)), "cudaMemset out");  // poison
    const unsigned threads = 128;
    const unsigned blocks = unsigned((n + threads - 1) / threads);
    ops_kernel<F><<<blocks, threads>>>(da.ptr, db.ptr, dout.ptr, n);
    check(cudaGetLastError(), "kernel launch");
    check(cudaDeviceSynchronize(), "kernel run");
    check(cudaMemcpy(out, dout.ptr, n * sizeof(DeviceFieldOps<F>), cudaMemcpyDeviceToHost), "cudaMemcpy out");
}

}  // namespace

bool built_with_cuda() { return true; }

int device_count(std::string* why) {
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        if (why) *why = no_device_reason(int(e), cudaGetErrorString(e), nvidia_driver_loaded());
        return 0;
    }
    if (n == 0 && why) *why = "no CUDA device";
    return n;
}

DeviceMemory device_memory(int device) {
    // A bad ordinal is refused before cudaSetDevice, whose failure would stay in the
    // runtime's last error and fail the next unrelated launch check of this thread.
    int count = 0;
    check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
    if (device < 0 || device >= count)
        throw std::runtime_error("device_memory: no CUDA device " + std::to_string(device) + " (" +
                                 std::to_string(count) + " present)");
    int current = 0;
    check(cudaGetDevice(&current), "cudaGetDevice");
    check(cudaSetDevice(device), "cudaSetDevice");
    DeviceMemory m;
    const cudaError_t e = cudaMemGetInfo(&m.free, &m.total);
    cudaSetDevice(current);
    if (e != cudaSuccess) cudaGetLastError();  // not left for the next launch check
    check(e, "cudaMemGetInfo");
    return m;
}

DeviceMemoryHold::DeviceMemoryHold(int device, size_t card_bytes) : device_(device) {
    const DeviceMemory m = device_memory(device);  // refuses a bad ordinal
    const size_t used = m.total - m.free;
    if (card_bytes < used)
        throw std::runtime_error("DeviceMemoryHold: a card of " + std::to_string(card_bytes >> 20) + " MiB, but " +
                                 std::to_string(used >> 20) + " MiB of device " + std::to_string(device) +
                                 " are in use already");
    const size_t leave = card_bytes - used;
    if (m.free <= leave) return;  // the device is that small already
    int current = 0;
    check(cudaGetDevice(&current), "cudaGetDevice");
    check(cudaSetDevice(device), "cudaSetDevice");
    const cudaError_t e = cudaMalloc(&ptr_, m.free - leave);
    cudaSetDevice(current);
    if (e != cudaSuccess) {
        cudaGetLastError();
        ptr_ = nullptr;
        check(e, "DeviceMemoryHold: cudaMalloc");
    }
    bytes_ = m.free - leave;
}
DeviceMemoryHold::~DeviceMemoryHold() {
    if (!ptr_) return;
    int current = 0;
    if (cudaGetDevice(&current) != cudaSuccess) return;
    if (cudaSetDevice(device_) == cudaSuccess) cudaFree(ptr_);
    cudaSetDevice(current);
}

void fp_mul_add_sub_on_device(const Fp* a, const Fp* b, Fp* out, size_t n) { mul_add_sub(a, b, out, n); }
void fr_mul_add_sub_on_device(const Fr* a, const Fr* b, Fr* out, size_t n) { mul_add_sub(a, b, out, n); }
void fp_ops_on_device(const Fp* a, const Fp* b, DeviceFieldOps<Fp>* out, size_t n) { ops(a, b, out, n); }
void fr_ops_on_device(const Fr* a, const Fr* b, DeviceFieldOps<Fr>* out, size_t n) { ops(a, b, out, n); }

}  // namespace cuzk::gpu
