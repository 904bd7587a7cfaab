// The CUDA prover backend: H and the five MSMs on the device, bases resident.
#include <map>
#include <mutex>
#include <tuple>

#include "cuzk/gpu/backend.hpp"
#include "cuzk/gpu/msm.hpp"
#include "cuzk/gpu/ntt.hpp"

namespace cuzk::gpu {
namespace {

class CudaBackend final : public groth16::ProverBackend {
 public:
    explicit CudaBackend(int device) : device_(device) {}
    std::string name() const override { return "cuda:" + std::to_string(device_); }

    std::vector<Fr> compute_h(std::vector<Fr>& a, std::vector<Fr>& b, std::vector<Fr>& c) override {
        return ntt::compute_h(a, b, c);
    }
    G1Jacobian msm_g1(groth16::G1Query, std::span<const G1Affine> bases, std::span<const Fr> scalars,
                      const uint64_t* density) override {
        GpuMsmOptions opt;
        opt.density = density;
        return resident(g1_, bases).run(scalars, opt);
    }
    G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars, const uint64_t* density) override {
        GpuMsmOptions opt;
        opt.density = density;
        return resident(g2_, bases).run(scalars, opt);
    }

 private:
    // Bases stay on the device while the span they came from is the same (the
    // Parameters outlive the proofs made with them).
    template <class Curve>
    using Cache = std::map<std::pair<const void*, size_t>, std::unique_ptr<Msm<Curve>>>;
    template <class Curve>
    Msm<Curve>& resident(Cache<Curve>& cache, std::span<const Affine<Curve>> bases) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto& slot = cache[{static_cast<const void*>(bases.data()), bases.size()}];
        if (!slot) slot = std::make_unique<Msm<Curve>>(bases, device_);
        return *slot;
    }
    int device_;
    std::mutex mutex_;
    Cache<G1Curve> g1_;
    Cache<G2Curve> g2_;
};

}  // namespace

std::unique_ptr<groth16::ProverBackend> make_cuda_backend(int device) { return std::make_unique<CudaBackend>(device); }

}  // namespace cuzk::gpu
