// The reason given when no CUDA device can be used: a machine without the NVIDIA driver is
// told so, not that its (absent) driver is too old. Pure text logic, run without a GPU.
#include <gtest/gtest.h>

#include "cuzk/gpu/device.hpp"

namespace cuzk::gpu {
namespace {

constexpr int kInsufficientDriver = 35, kNoDevice = 100, kUnknown = 999;

TEST(NoDeviceReason, NoDriverLoaded) {
    for (int e : {kInsufficientDriver, kNoDevice}) {
        const std::string why =
            no_device_reason(e, "CUDA driver version is insufficient for CUDA runtime version", false);
        EXPECT_NE(why.find("no NVIDIA driver"), std::string::npos) << why;
        EXPECT_EQ(why.find("no usable CUDA device"), std::string::npos) << why;
    }
}

TEST(NoDeviceReason, OldDriver) {
    const std::string why = no_device_reason(kInsufficientDriver, "CUDA driver version is insufficient", true);
    EXPECT_NE(why.find("NVIDIA driver is older"), std::string::npos) << why;
    EXPECT_NE(why.find("CUDA driver version is insufficient"), std::string::npos) << why;
}

TEST(NoDeviceReason, OtherErrorsKeepTheRuntimeText) {
    EXPECT_EQ(no_device_reason(kNoDevice, "no CUDA-capable device is detected", true),
              "no usable CUDA device: no CUDA-capable device is detected");
    EXPECT_EQ(no_device_reason(kUnknown, "unknown error", false), "no usable CUDA device: unknown error");
}

}  // namespace
}  // namespace cuzk::gpu
