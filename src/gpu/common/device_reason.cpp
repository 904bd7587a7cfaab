// Why no CUDA device can be used, in words an operator can act on (cuzk/gpu/device.hpp).
// Built in every configuration: the CPU-only build's tests check the wording too.
#include <filesystem>
#include <string>

#include "cuzk/gpu/device.hpp"

namespace cuzk::gpu {

std::string no_device_reason(int error, const std::string& error_text, bool driver_loaded) {
    constexpr int kInsufficientDriver = 35, kNoDevice = 100;  // cudaError_t values
    if (!driver_loaded && (error == kInsufficientDriver || error == kNoDevice))
        return "no NVIDIA driver (/proc/driver/nvidia is missing; the CUDA runtime said: " + error_text + ")";
    if (error == kInsufficientDriver)
        return "the NVIDIA driver is older than this build's CUDA runtime needs (" + error_text + ")";
    return "no usable CUDA device: " + error_text;
}

bool nvidia_driver_loaded() {
    std::error_code ec;
    return std::filesystem::exists("/proc/driver/nvidia/version", ec);
}

}  // namespace cuzk::gpu
