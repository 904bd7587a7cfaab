// The CUDA backend's entry points that exist from day one: device discovery and a
// device-side field check. Declared in every build; without CUDA they report that the
// build has no GPU support rather than failing to link.
#pragma once

#include <cstddef>
#include <string>

#include "cuzk/ff/bls12_381.hpp"

namespace cuzk::gpu {

// True when this binary was compiled with the CUDA backend.
bool built_with_cuda();

// Number of usable CUDA devices; 0 without CUDA or without a GPU. When 0, *why (if given)
// says why ("built without CUDA", "no CUDA device", a driver error, ...).
int device_count(std::string* why = nullptr);

// The reason device_count gives when cudaGetDeviceCount fails: `error` is its cudaError_t
// as a number and `error_text` cudaGetErrorString's text. With no NVIDIA driver loaded
// (`driver_loaded` false: no /proc/driver/nvidia) the runtime says "CUDA driver version is
// insufficient" (cudaErrorInsufficientDriver, 35) or "no CUDA-capable device" (100); the
// reason then says that there is no NVIDIA driver rather than an old one.
std::string no_device_reason(int error, const std::string& error_text, bool driver_loaded);
// Whether the NVIDIA kernel driver is loaded (/proc/driver/nvidia/version exists).
bool nvidia_driver_loaded();

// Free and total bytes of a device's memory as the driver reports them (cudaMemGetInfo;
// other processes' allocations count as used). Throws std::runtime_error without CUDA or
// on a driver error.
struct DeviceMemory {
    size_t free = 0, total = 0;
};
DeviceMemory device_memory(int device);

// A device made to look smaller: holds, in one allocation, all of the device's memory but
// what a card of `card_bytes` would have free now (card_bytes less what is in use already:
// this process's context and anything else on the device), until destroyed. Every later
// allocation and cudaMemGetInfo then see that card, so a benchmark can prove under a small
// card's memory on a large one. Throws std::runtime_error without CUDA, for a bad ordinal,
// when card_bytes is less than what is in use already, or when the allocation fails.
class DeviceMemoryHold {
 public:
    DeviceMemoryHold(int device, size_t card_bytes);
    ~DeviceMemoryHold();
    DeviceMemoryHold(const DeviceMemoryHold&) = delete;
    DeviceMemoryHold& operator=(const DeviceMemoryHold&) = delete;
    size_t held_bytes() const { return bytes_; }

 private:
    int device_ = 0;
    void* ptr_ = nullptr;
    size_t bytes_ = 0;
};

// out[i] = a[i] * b[i] + a[i] - b[i], computed on device 0. Throws std::runtime_error
// naming the failing CUDA call. Used by tests to pin the device arithmetic to the host's.
void fp_mul_add_sub_on_device(const Fp* a, const Fp* b, Fp* out, size_t n);
void fr_mul_add_sub_on_device(const Fr* a, const Fr* b, Fr* out, size_t n);

// Every field operation that device code uses, on pairs (a[i], b[i]), computed on device 0,
// plus the portable 64-bit CIOS (Field::mul_portable) that the device used before the PTX
// path (cuzk/ff/mont_ptx.hpp). Tests compare each with the host.
template <class F>
struct DeviceFieldOps {
    F mul, sqr, add, sub, dbl, neg, inv, mul_portable, mul_sub_mul, mul_fp64;
};
void fp_ops_on_device(const Fp* a, const Fp* b, DeviceFieldOps<Fp>* out, size_t n);
void fr_ops_on_device(const Fr* a, const Fr* b, DeviceFieldOps<Fr>* out, size_t n);

}  // namespace cuzk::gpu
