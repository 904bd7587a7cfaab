// The multi-threaded CPU backend (the default stages every backend inherits are in
// src/groth16/backend.cpp).
#include <stdexcept>
#include <string>

#include "cuzk/groth16/backend.hpp"
#include "cuzk/msm/msm.hpp"
#include "cuzk/ntt/domain.hpp"

namespace cuzk::groth16 {

namespace {

class CpuBackend final : public ProverBackend {
 public:
    std::string name() const override { return "cpu"; }
    r1cs::WitnessVector compute_h(r1cs::WitnessVector& a, r1cs::WitnessVector& b, r1cs::WitnessVector& c) override {
        return ntt::compute_h(std::move(a), std::move(b), std::move(c));
    }
    G1Jacobian msm_g1(G1Query, std::span<const G1Affine> bases, std::span<const Fr> scalars,
                      const uint64_t* density) override {
        MsmOptions opt;
        opt.density = density;
        return msm<G1Curve>(bases, scalars, opt);
    }
    G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars, const uint64_t* density) override {
        MsmOptions opt;
        opt.density = density;
        return msm<G2Curve>(bases, scalars, opt);
    }
};

}  // namespace

std::unique_ptr<ProverBackend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

}  // namespace cuzk::groth16
