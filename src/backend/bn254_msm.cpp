// BN254's MSMs on a device for circom keys on snarkjs' bn128 (cuzk/backend/backend.hpp):
// the ZkeyMsm seam of cuzk/groth16/zkey.hpp over gpu::Msm's BN254 pipeline on one device.
// Plain C++ (the gpu layer's entry points say "built without CUDA" in a CPU-only build).
#include <stdexcept>

#include "cuzk/backend/backend.hpp"
#include "cuzk/gpu/device.hpp"
#include "cuzk/gpu/msm.hpp"
#include "cuzk/groth16/zkey.hpp"

namespace cuzk::gpu {
namespace {

class CudaBn254Msm final : public groth16::ZkeyMsm<groth16::Bn254> {
 public:
    explicit CudaBn254Msm(int device) : device_(device) {}
    std::string name() const override { return "cuda:" + std::to_string(device_); }
    bn254::G1Jacobian msm_g1(std::span<const bn254::G1Affine> bases, std::span<const bn254::Fr> scalars) override {
        MsmBn254G1 m(bases, device_);
        return m.run(scalars, {});
    }
    bn254::G2Jacobian msm_g2(std::span<const bn254::G2Affine> bases, std::span<const bn254::Fr> scalars) override {
        MsmBn254G2 m(bases, device_);
        return m.run(scalars, {});
    }

 private:
    int device_;
};

}  // namespace

std::unique_ptr<groth16::ZkeyMsm<groth16::Bn254>> make_cuda_bn254_msm(int device) {
    if (!built_with_cuda()) throw std::runtime_error("cuzk was built without CUDA");
    return std::make_unique<CudaBn254Msm>(device);
}

}  // namespace cuzk::gpu
