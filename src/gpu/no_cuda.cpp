// Without the CUDA backend, the gpu entry points say so instead of failing to link.
#include <stdexcept>

#include "cuzk/gpu/device.hpp"
#include "cuzk/gpu/ntt.hpp"

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

namespace cuzk::gpu::ntt {
namespace {
[[noreturn]] void no_cuda() { throw std::runtime_error("cuzk was built without CUDA"); }
}  // namespace
void forward(Fr*, size_t, Stream, Impl) { no_cuda(); }
void inverse(Fr*, size_t, Stream, Impl) { no_cuda(); }
void coset_forward(Fr*, size_t, Stream, Impl) { no_cuda(); }
void coset_inverse(Fr*, size_t, Stream, Impl) { no_cuda(); }
void forward(std::span<Fr>, Impl) { no_cuda(); }
void inverse(std::span<Fr>, Impl) { no_cuda(); }
void coset_forward(std::span<Fr>, Impl) { no_cuda(); }
void coset_inverse(std::span<Fr>, Impl) { no_cuda(); }
void compute_h_device(Fr*, Fr*, Fr*, size_t, Stream, Impl) { no_cuda(); }
std::vector<Fr> compute_h(const std::vector<Fr>&, const std::vector<Fr>&, const std::vector<Fr>&, Impl) { no_cuda(); }
void clear_twiddle_cache() {}
}  // namespace cuzk::gpu::ntt
#endif

#if !CUZK_HAVE_CUDA
#include "cuzk/gpu/backend.hpp"
namespace cuzk::gpu {
std::unique_ptr<groth16::ProverBackend> make_cuda_backend(int) {
    throw std::runtime_error("cuzk was built without CUDA");
}
}  // namespace cuzk::gpu
#endif
