#include <cuda_runtime.h>

#include "cuzk/gpu/host_memory.hpp"

namespace cuzk::gpu {

bool host_register(void* p, size_t bytes) {
    if (!p || bytes == 0) return false;
    if (cudaHostRegister(p, bytes, cudaHostRegisterPortable) != cudaSuccess) {
        cudaGetLastError();  // clear the sticky-free error so later calls are unaffected
        return false;
    }
    return true;
}

void host_unregister(void* p) {
    if (p && cudaHostUnregister(p) != cudaSuccess) cudaGetLastError();
}

DeviceInfo device_info(int device) {
    DeviceInfo info;
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
        cudaGetLastError();
        return info;
    }
    info.name = prop.name;
    int saved = 0;
    size_t free_b = 0, total_b = 0;
    if (cudaGetDevice(&saved) == cudaSuccess && cudaSetDevice(device) == cudaSuccess &&
        cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) {
        info.memory_free = free_b;
        info.memory_total = total_b;
    }
    cudaSetDevice(saved);
    cudaGetLastError();
    return info;
}

}  // namespace cuzk::gpu
