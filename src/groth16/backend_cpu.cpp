#include "cuzk/groth16/backend.hpp"
#include "cuzk/msm/msm.hpp"
#include "cuzk/ntt/domain.hpp"

namespace cuzk::groth16 {

const char* query_name(G1Query q) {
    switch (q) {
        case G1Query::H:
            return "h";
        case G1Query::L:
            return "l";
        case G1Query::A:
            return "a";
        case G1Query::BG1:
            return "b_g1";
    }
    return "?";
}

namespace {

class CpuBackend final : public ProverBackend {
 public:
    std::string name() const override { return "cpu"; }
    std::vector<Fr> compute_h(std::vector<Fr>& a, std::vector<Fr>& b, std::vector<Fr>& c) override {
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
