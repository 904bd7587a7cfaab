// Without the CUDA backend, the gpu entry points say so instead of failing to link.
#include <atomic>
#include <stdexcept>

#include "cuzk/gpu/device.hpp"
#include "cuzk/gpu/ntt.hpp"
#include "cuzk/gpu/testing.hpp"

#if !CUZK_HAVE_CUDA
namespace cuzk::gpu {
bool built_with_cuda() { return false; }
int device_count(std::string* why) {
    if (why) *why = "built without CUDA";
    return 0;
}
DeviceMemory device_memory(int) { throw std::runtime_error("cuzk was built without CUDA"); }
DeviceMemoryHold::DeviceMemoryHold(int, size_t) { throw std::runtime_error("cuzk was built without CUDA"); }
DeviceMemoryHold::~DeviceMemoryHold() = default;
void fp_mul_add_sub_on_device(const Fp*, const Fp*, Fp*, size_t) {
    throw std::runtime_error("cuzk was built without CUDA");
}
void fr_mul_add_sub_on_device(const Fr*, const Fr*, Fr*, size_t) {
    throw std::runtime_error("cuzk was built without CUDA");
}
void fp_ops_on_device(const Fp*, const Fp*, DeviceFieldOps<Fp>*, size_t) {
    throw std::runtime_error("cuzk was built without CUDA");
}
void fr_ops_on_device(const Fr*, const Fr*, DeviceFieldOps<Fr>*, size_t) {
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
void forward(Fr*, size_t, Stream, Order, Order, Impl) { no_cuda(); }
void inverse(Fr*, size_t, Stream, Order, Order, Impl) { no_cuda(); }
void coset_forward(Fr*, size_t, Stream, Order, Order, Impl) { no_cuda(); }
void coset_inverse(Fr*, size_t, Stream, Order, Order, Impl) { no_cuda(); }
void forward(std::span<Fr>, Order, Order, Impl) { no_cuda(); }
void inverse(std::span<Fr>, Order, Order, Impl) { no_cuda(); }
void coset_forward(std::span<Fr>, Order, Order, Impl) { no_cuda(); }
void coset_inverse(std::span<Fr>, Order, Order, Impl) { no_cuda(); }
void forward(bn254::Fr*, size_t, Stream, Impl) { no_cuda(); }
void inverse(bn254::Fr*, size_t, Stream, Impl) { no_cuda(); }
void coset_forward(bn254::Fr*, size_t, Stream, Impl) { no_cuda(); }
void coset_inverse(bn254::Fr*, size_t, Stream, Impl) { no_cuda(); }
void forward(std::span<bn254::Fr>, Impl) { no_cuda(); }
void inverse(std::span<bn254::Fr>, Impl) { no_cuda(); }
void coset_forward(std::span<bn254::Fr>, Impl) { no_cuda(); }
void coset_inverse(std::span<bn254::Fr>, Impl) { no_cuda(); }
void forward(bn254::Fr*, size_t, Stream, Order, Order, Impl) { no_cuda(); }
void inverse(bn254::Fr*, size_t, Stream, Order, Order, Impl) { no_cuda(); }
void coset_forward(bn254::Fr*, size_t, Stream, Order, Order, Impl) { no_cuda(); }
void coset_inverse(bn254::Fr*, size_t, Stream, Order, Order, Impl) { no_cuda(); }
void forward(std::span<bn254::Fr>, Order, Order, Impl) { no_cuda(); }
void inverse(std::span<bn254::Fr>, Order, Order, Impl) { no_cuda(); }
void coset_forward(std::span<bn254::Fr>, Order, Order, Impl) { no_cuda(); }
void coset_inverse(std::span<bn254::Fr>, Order, Order, Impl) { no_cuda(); }
void compute_h_device(Fr*, Fr*, Fr*, size_t, Stream, Impl) { no_cuda(); }
void to_coset_evals(Fr*, size_t, Stream, Impl) { no_cuda(); }
void to_scaled_coefficients(Fr*, size_t, Stream, Impl) { no_cuda(); }
bool h_coefficients_bit_reversed(Impl, size_t) { no_cuda(); }
void prepare_h_input(unsigned, Fr*, size_t, Stream, Impl) { no_cuda(); }
void quotient_and_coset_inverse(Fr*, const Fr*, const Fr*, size_t, Stream, Impl) { no_cuda(); }
void quotient_coset_inverse(Fr*, const Fr*, size_t, Stream, Impl, CUevent_st*) { no_cuda(); }
void subtract_scaled_c(Fr*, const Fr*, size_t, Stream, Impl) { no_cuda(); }
std::vector<Fr> compute_h(std::span<const Fr>, std::span<const Fr>, std::span<const Fr>, Impl) { no_cuda(); }
void clear_twiddle_cache() {}
void prepare_twiddles(size_t, Stream) { no_cuda(); }
size_t release_twiddles(size_t, Stream) { return 0; }
size_t twiddle_table_bytes(size_t n) { return 32 * n + 64; }
namespace {
std::atomic<Reorder> reorder_setting{Reorder::kGatheringFirstPass};  // kept for reorder() alone
}
void set_reorder(Reorder how) { reorder_setting.store(how); }
Reorder reorder() { return reorder_setting.load(); }
}  // namespace cuzk::gpu::ntt
#endif

// The MSM entry points (cuzk/gpu/msm.hpp).
#include "cuzk/gpu/msm.hpp"

#if !CUZK_HAVE_CUDA
namespace cuzk::gpu {
namespace {
[[noreturn]] void no_cuda() { throw std::runtime_error("cuzk was built without CUDA"); }
}  // namespace
std::shared_ptr<MsmScratch> make_msm_scratch() { no_cuda(); }
template <class Curve>
struct Msm<Curve>::Impl {};
template <class Curve>
Msm<Curve>::Msm(std::span<const AffinePoint>, int) {
    no_cuda();
}
template <class Curve>
Msm<Curve>::Msm(FromDevice, const AffinePoint*, size_t, int) {
    no_cuda();
}
template <class Curve>
Msm<Curve>::Msm(Streamed, std::span<const AffinePoint>, size_t, int, bool) {
    no_cuda();
}
template <class Curve>
bool Msm<Curve>::host_page_locked() const {
    return false;
}
template <class Curve>
size_t Msm<Curve>::chunk_bases() const {
    return 0;
}
template <class Curve>
Msm<Curve>::~Msm() = default;
template <class Curve>
Msm<Curve>::Msm(Msm&&) noexcept = default;
template <class Curve>
Msm<Curve>& Msm<Curve>::operator=(Msm&&) noexcept = default;
template <class Curve>
size_t Msm<Curve>::size() const {
    return 0;
}
template <class Curve>
int Msm<Curve>::device() const {
    return -1;
}
template <class Curve>
void Msm<Curve>::precompute(unsigned) {
    no_cuda();
}
template <class Curve>
void Msm<Curve>::precompute_base(uint32_t, unsigned) {
    no_cuda();
}
template <class Curve>
unsigned Msm<Curve>::precomputed_window_bits() const {
    return 0;
}
template <class Curve>
msm_detail::TableBase Msm<Curve>::precomputed_base() const {
    return {};
}
template <class Curve>
size_t Msm<Curve>::device_base_bytes() const {
    return 0;
}
template <class Curve>
void Msm<Curve>::drop_precomputed() {}
template <class Curve>
size_t Msm<Curve>::scratch_growths() const {
    return 0;
}
template <class Curve>
void Msm<Curve>::use_scratch(std::shared_ptr<MsmScratch>) {
    no_cuda();
}
template <class Curve>
const std::shared_ptr<MsmScratch>& Msm<Curve>::scratch() const {
    static const std::shared_ptr<MsmScratch> none;
    return none;
}
template <class Curve>
Jacobian<Curve> Msm<Curve>::run(std::span<const ScalarField>, const GpuMsmOptions&) {
    no_cuda();
}
template <class Curve>
Jacobian<Curve> Msm<Curve>::run_device(const ScalarField*, size_t, const GpuMsmOptions&) {
    no_cuda();
}
template <class Curve>
size_t msm_run_scratch_bytes(size_t, int, unsigned, const MsmScratchLimits&, size_t) {
    return 0;
}
template size_t msm_run_scratch_bytes<G1Curve>(size_t, int, unsigned, const MsmScratchLimits&, size_t);
template size_t msm_run_scratch_bytes<G2Curve>(size_t, int, unsigned, const MsmScratchLimits&, size_t);
template size_t msm_run_scratch_bytes<bn254::G1Curve>(size_t, int, unsigned, const MsmScratchLimits&, size_t);
template size_t msm_run_scratch_bytes<bn254::G2Curve>(size_t, int, unsigned, const MsmScratchLimits&, size_t);
// No MsmScratch exists without CUDA (make_msm_scratch throws): nothing can call these.
void set_msm_scratch_limits(MsmScratch&, const MsmScratchLimits&) { no_cuda(); }
MsmScratchLimits msm_scratch_limits(const MsmScratch&) { no_cuda(); }
size_t msm_scratch_bytes(const MsmScratch&) { no_cuda(); }
size_t release_msm_scratch(MsmScratch&) { no_cuda(); }
template class Msm<G1Curve>;
template class Msm<G2Curve>;
template class Msm<bn254::G1Curve>;
template class Msm<bn254::G2Curve>;
G1Jacobian msm_g1(std::span<const G1Affine>, std::span<const Fr>, const GpuMsmOptions&) { no_cuda(); }
G2Jacobian msm_g2(std::span<const G2Affine>, std::span<const Fr>, const GpuMsmOptions&) { no_cuda(); }
bn254::G1Jacobian msm_g1(std::span<const bn254::G1Affine>, std::span<const bn254::Fr>, const GpuMsmOptions&) {
    no_cuda();
}
bn254::G2Jacobian msm_g2(std::span<const bn254::G2Affine>, std::span<const bn254::Fr>, const GpuMsmOptions&) {
    no_cuda();
}
}  // namespace cuzk::gpu
#endif

#if !CUZK_HAVE_CUDA
#include "cuzk/gpu/host_memory.hpp"
namespace cuzk::gpu {
bool host_register(void*, size_t) { return false; }
void host_unregister(void*) {}
DeviceInfo device_info(int) { return {}; }
}  // namespace cuzk::gpu
#endif
