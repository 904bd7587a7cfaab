// Host memory the GPU copies from at full speed, and what the engine reports of a device.
// Declared in every build; without CUDA, registration is a no-op that returns false.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace cuzk::gpu {

// Page-locks [p, p + bytes) for DMA (cudaHostRegister), so that copies between it and a
// device run at full PCIe speed without a staging copy. False when not possible (no
// CUDA, no GPU, or the driver refused); the memory stays usable either way. The caller
// must unregister before freeing.
bool host_register(void* p, size_t bytes);
void host_unregister(void* p);

struct DeviceInfo {
    std::string name;
    uint64_t memory_total = 0, memory_free = 0;
};
// Empty name when the device does not exist (or without CUDA).
DeviceInfo device_info(int device);

}  // namespace cuzk::gpu
