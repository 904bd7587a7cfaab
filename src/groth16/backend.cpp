// The default fused stages of every ProverBackend (h_msm, msm_z) and its default BN254
// MSMs (bn254_msm), in the groth16 layer with the class: h_msm is its key function, so the
// vtable and type info are emitted here, where every user of the class links.
#include "cuzk/groth16/backend.hpp"

#include "cuzk/common/trace.hpp"
#include "cuzk/groth16/zkey.hpp"

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

G1Jacobian ProverBackend::h_msm(r1cs::WitnessVector& a, r1cs::WitnessVector& b, r1cs::WitnessVector& c,
                                std::span<const G1Affine> h_bases, ZInputs, const AbcAhead*) {
    r1cs::WitnessVector h;
    {
        trace::Span span("h", "groth16");
        h = compute_h(a, b, c);
    }
    if (h.size() < h_bases.size())
        throw std::invalid_argument("h_msm: " + std::to_string(h.size()) + " coefficients of h for " +
                                    std::to_string(h_bases.size()) + " bases");
    trace::Span span("msm_h", "groth16");
    return msm_g1(G1Query::H, h_bases, std::span<const Fr>(h).first(h_bases.size()), nullptr);
}

std::unique_ptr<ZkeyMsm<Bn254>> ProverBackend::bn254_msm() { return select_zkey_msm("cpu"); }

ZSums ProverBackend::msm_z(std::span<const Fr> inputs, std::span<const Fr> aux, std::span<const G1Affine> l_bases,
                           std::span<const G1Affine> a_bases, std::span<const G1Affine> b_g1_bases,
                           std::span<const G2Affine> b_g2_bases, const uint64_t* a_density, const uint64_t* b_density) {
    ZSums s;
    {
        trace::Span span("msm_l", "groth16");
        s.l = msm_g1(G1Query::L, l_bases, aux, nullptr);
    }
    std::vector<Fr> z;
    z.reserve(inputs.size() + aux.size());
    z.insert(z.end(), inputs.begin(), inputs.end());
    z.insert(z.end(), aux.begin(), aux.end());
    {
        trace::Span span("msm_a", "groth16");
        s.a = msm_g1(G1Query::A, a_bases, z, a_density);
    }
    {
        trace::Span span("msm_b_g1", "groth16");
        s.b_g1 = msm_g1(G1Query::BG1, b_g1_bases, z, b_density);
    }
    trace::Span span("msm_b_g2", "groth16");
    s.b_g2 = msm_g2(b_g2_bases, z, b_density);
    return s;
}

}  // namespace cuzk::groth16
