// Without the CUDA backend, the gpu entry points say so instead of failing to link.
#include <stdexcept>

#include "cuzk/gpu/device.hpp"

#if !CUZK_HAVE_CUDA
namespace cuzk::gpu {
bool built_with_cuda() { return false; }
int device_count(std::string* why) {
    if (why) *why = "built without CUDA";
    return 0;
}
void fp_mul_add_sub_on_device(const Fp*, const Fp*, Fp*, size_t) {
    throw std::runtime_error("cuzk was built without CUDA");
}
void fr_mul_add_sub_on_device(const Fr*, const Fr*, Fr*, size_t) {
    throw std::runtime_error("cuzk was built without CUDA");
}
}  // namespace cuzk::gpu
#endif
