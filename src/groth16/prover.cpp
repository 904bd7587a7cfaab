#include "cuzk/groth16/prover.hpp"

#include <chrono>
#include <random>
#include <string>

#include "cuzk/common/trace.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/ntt/domain.hpp"

namespace cuzk::groth16 {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

[[noreturn]] void mismatch(const std::string& what, size_t got, size_t want) {
    throw ProverError("prove: " + what + ": got " + std::to_string(got) + ", the parameters expect " +
                      std::to_string(want));
}

// Density over z = (inputs, aux) for a query: `inputs_all` sets every input bit (A),
// otherwise the input bits come from `input_bits` (B).
std::vector<uint64_t> full_density(size_t num_inputs, const r1cs::BitVec* input_bits, const r1cs::BitVec& aux_bits) {
    const size_t n = num_inputs + aux_bits.size();
    std::vector<uint64_t> d((n + 63) / 64, 0);
    for (size_t i = 0; i < num_inputs; ++i)
        if (!input_bits || input_bits->test(i)) d[i / 64] |= uint64_t(1) << (i % 64);
    for (size_t j = 0; j < aux_bits.size(); ++j)
        if (aux_bits.test(j)) {
            size_t i = num_inputs + j;
            d[i / 64] |= uint64_t(1) << (i % 64);
        }
    return d;
}

void check_shapes(const Parameters& p, const r1cs::Density& d, const Witness& w) {
    const size_t ni = p.vk.ic.size();
    if (w.inputs.size() != ni) mismatch("number of public inputs (ONE included)", w.inputs.size(), ni);
    if (w.inputs.empty() || !w.inputs[0].is_one()) throw ProverError("prove: the first input must be ONE");
    if (w.aux.size() != p.l.size()) mismatch("number of aux variables", w.aux.size(), p.l.size());
    if (w.a.size() != w.b.size() || w.a.size() != w.c.size())
        throw ProverError("prove: A·z, B·z and C·z have different lengths");
    const size_t m = p.h.size() + 1;
    if (w.a.size() > m) mismatch("number of constraints (domain " + std::to_string(m) + ")", w.a.size(), m);
    if (ntt::EvaluationDomain::size_for(w.a.size()) != m)
        mismatch("domain size of the constraint count", ntt::EvaluationDomain::size_for(w.a.size()), m);
    if (d.a_aux.size() != w.aux.size() || d.b_aux.size() != w.aux.size() || d.b_input.size() != ni)
        throw ProverError("prove: the density does not match the witness sizes (wrong circuit shape?)");
    if (p.a.size() != ni + d.a_aux.count())
        mismatch("a query length vs the shape's A density", ni + d.a_aux.count(), p.a.size());
    const size_t nb = d.b_input.count() + d.b_aux.count();
    if (p.b_g1.size() != nb) mismatch("b_g1 query length vs the shape's B density", nb, p.b_g1.size());
    if (p.b_g2.size() != nb) mismatch("b_g2 query length vs the shape's B density", nb, p.b_g2.size());
}

}  // namespace

Randomness random_randomness() {
    std::random_device rd;
    auto next = [&rd] { return (uint64_t(rd()) << 32) | uint64_t(rd()); };
    Randomness rs;
    rs.r = Fr::random(next);
    rs.s = Fr::random(next);
    return rs;
}

namespace {

// Everything after H: the five MSMs and the assembly of A, B, C.
Proof prove_after_h(const Parameters& p, const r1cs::Density& d, const Witness& w, const std::vector<Fr>& h,
                    const Randomness& rs, ProverBackend& backend, ProofTimings& t) {
    auto t0 = Clock::now();
    G1Jacobian h_sum;
    {
        trace::Span span("msm_h", "groth16");
        h_sum = backend.msm_g1(G1Query::H, p.h, std::span<const Fr>(h).first(p.h.size()), nullptr);
    }
    t.msm_h = ms_since(t0);

    t0 = Clock::now();
    G1Jacobian l_sum;
    {
        trace::Span span("msm_l", "groth16");
        l_sum = backend.msm_g1(G1Query::L, p.l, w.aux, nullptr);
    }
    t.msm_l = ms_since(t0);

    // z = (inputs, aux) for the a and b queries.
    std::vector<Fr> z;
    z.reserve(w.inputs.size() + w.aux.size());
    z.insert(z.end(), w.inputs.begin(), w.inputs.end());
    z.insert(z.end(), w.aux.begin(), w.aux.end());
    const auto a_density = full_density(w.inputs.size(), nullptr, d.a_aux);
    const auto b_density = full_density(w.inputs.size(), &d.b_input, d.b_aux);

    t0 = Clock::now();
    G1Jacobian a_sum;
    {
        trace::Span span("msm_a", "groth16");
        a_sum = backend.msm_g1(G1Query::A, p.a, z, a_density.data());
    }
    t.msm_a = ms_since(t0);
    t0 = Clock::now();
    G1Jacobian b_g1_sum;
    {
        trace::Span span("msm_b_g1", "groth16");
        b_g1_sum = backend.msm_g1(G1Query::BG1, p.b_g1, z, b_density.data());
    }
    t.msm_b_g1 = ms_since(t0);
    t0 = Clock::now();
    G2Jacobian b_g2_sum;
    {
        trace::Span span("msm_b_g2", "groth16");
        b_g2_sum = backend.msm_g2(p.b_g2, z, b_density.data());
    }
    t.msm_b_g2 = ms_since(t0);

    t0 = Clock::now();
    trace::Span span("assemble", "groth16");
    const auto& vk = p.vk;
    G1Jacobian a = a_sum + vk.alpha_g1 + mul(vk.delta_g1, rs.r);
    G2Jacobian b = b_g2_sum + vk.beta_g2 + mul(vk.delta_g2, rs.s);
    G1Jacobian b1 = b_g1_sum + vk.beta_g1 + mul(vk.delta_g1, rs.s);
    G1Jacobian c = h_sum + l_sum + mul(a, rs.s) + mul(b1, rs.r) - mul(vk.delta_g1, rs.r * rs.s);
    Proof proof{a.to_affine(), b.to_affine(), c.to_affine()};
    t.assemble = ms_since(t0);
    return proof;
}

}  // namespace

Proof prove(const Parameters& p, const r1cs::Density& d, const Witness& w, const Randomness& rs, ProverBackend& backend,
            ProofTimings* timings) {
    check_shapes(p, d, w);
    ProofTimings t;
    auto t0 = Clock::now();
    std::vector<Fr> h;
    {
        trace::Span span("h", "groth16");
        std::vector<Fr> a = w.a, b = w.b, c = w.c;
        h = backend.compute_h(a, b, c);
    }
    t.h = ms_since(t0);
    Proof proof = prove_after_h(p, d, w, h, rs, backend, t);
    if (timings) *timings = t;
    return proof;
}

Proof prove(const Parameters& p, const r1cs::Density& d, Witness&& w, const Randomness& rs, ProverBackend& backend,
            ProofTimings* timings, const ProveHooks* hooks) {
    check_shapes(p, d, w);
    ProofTimings t;
    auto t0 = Clock::now();
    std::vector<Fr> h;
    {
        trace::Span span("h", "groth16");
        h = backend.compute_h(w.a, w.b, w.c);
    }
    // a, b, c are spent: free them (or let the caller recycle their storage) before the MSMs.
    if (hooks && hooks->abc_released)
        hooks->abc_released();
    else
        w.a = {}, w.b = {}, w.c = {};
    t.h = ms_since(t0);
    Proof proof = prove_after_h(p, d, w, h, rs, backend, t);
    if (timings) *timings = t;
    return proof;
}

std::vector<Proof> prove_batch(const Parameters& params, const r1cs::Density& density,
                               std::span<const Witness> witnesses, std::span<const Randomness> rs,
                               ProverBackend& backend, std::vector<ProofTimings>* timings) {
    if (witnesses.size() != rs.size())
        throw ProverError("prove_batch: " + std::to_string(witnesses.size()) + " witnesses but " +
                          std::to_string(rs.size()) + " randomness pairs");
    std::vector<Proof> out;
    out.reserve(witnesses.size());
    if (timings) timings->assign(witnesses.size(), {});
    for (size_t i = 0; i < witnesses.size(); ++i)
        out.push_back(prove(params, density, witnesses[i], rs[i], backend, timings ? &(*timings)[i] : nullptr));
    return out;
}

}  // namespace cuzk::groth16
