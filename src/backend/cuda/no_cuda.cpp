// Without CUDA, the CUDA backend's entry points say so instead of failing to link; its
// counters read zero and its switches do nothing.
#include <stdexcept>

#include "cuzk/backend/backend.hpp"
#include "cuzk/backend/testing.hpp"

#if !CUZK_HAVE_CUDA
namespace cuzk::gpu {
std::unique_ptr<groth16::ProverBackend> make_cuda_backend(int) {
    throw std::runtime_error("cuzk was built without CUDA");
}
size_t tables_built(groth16::ProverBackend&) { return 0; }
CopyAheadStats copy_ahead_stats(groth16::ProverBackend&) { return {}; }
void set_copy_ahead(groth16::ProverBackend&, bool) {}
void set_h_step_vectors(groth16::ProverBackend&, unsigned) {}
void set_twiddle_lending(groth16::ProverBackend&, std::optional<bool>) {}
ResidencyStats residency_stats(groth16::ProverBackend&) { return {}; }
std::vector<BaseSetState> base_set_states(groth16::ProverBackend&) { return {}; }
void set_residency_plan(groth16::ProverBackend&, bool) {}
}  // namespace cuzk::gpu
#endif
