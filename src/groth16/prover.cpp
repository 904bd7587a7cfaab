#include "cuzk/groth16/prover.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <random>
#include <string>

#include "cuzk/common/parallel.hpp"
#include "cuzk/common/trace.hpp"
#include "cuzk/ec/bn254.hpp"
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

// O(1) checks of the witness against the parameters and the density (sizes only).
void check_sizes(const Parameters& p, const r1cs::Density& d, const Witness& w) {
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
}

// The checks above ("check"), then the density bitmaps over z ("densities": built on the
// first proof with this Density, cached in it after), then the query lengths against
// their popcounts. No pass over the witness or the bits once the bitmaps are cached.
const r1cs::ZDensity& checked_densities(const Parameters& p, const r1cs::Density& d, const Witness& w) {
    {
        trace::Span span("check", "groth16");
        check_sizes(p, d, w);
    }
    const r1cs::ZDensity* z = nullptr;
    {
        trace::Span span("densities", "groth16");
        z = &d.z();
    }
    if (p.a.size() != z->a_count) mismatch("a query length vs the shape's A density", z->a_count, p.a.size());
    if (p.b_g1.size() != z->b_count) mismatch("b_g1 query length vs the shape's B density", z->b_count, p.b_g1.size());
    if (p.b_g2.size() != z->b_count) mismatch("b_g2 query length vs the shape's B density", z->b_count, p.b_g2.size());
    return *z;
}

}  // namespace

template <class F>
RandomnessT<F> random_randomness() {
    std::random_device rd;
    auto next = [&rd] { return (uint64_t(rd()) << 32) | uint64_t(rd()); };
    RandomnessT<F> rs;
    rs.r = F::random(next);
    rs.s = F::random(next);
    return rs;
}
template RandomnessT<Fr> random_randomness<Fr>();
template RandomnessT<bn254::Fr> random_randomness<bn254::Fr>();

namespace {

// Sums the lengths of the "groth16" spans that the backend's fused stages open on this
// thread ("h", "msm_h" inside h_msm; "msm_l", "msm_a", "msm_b_g1", "msm_b_g2" inside msm_z), and
// passes every event on to the sink that was installed before it.
class StageClock final : public trace::Sink {
 public:
    StageClock() : outer_(trace::current()), scope_(with_sink(outer_, this)) {}
    void record(const trace::Event& e) override {
        if (outer_.sink) outer_.sink->record(e);
        if (std::strcmp(e.layer, "groth16") != 0) return;
        for (size_t i = 0; i < kNames.size(); ++i)
            if (std::strcmp(e.name, kNames[i]) == 0) ms_[i] += e.ms();
    }
    double ms(const char* name) const {
        for (size_t i = 0; i < kNames.size(); ++i)
            if (std::strcmp(name, kNames[i]) == 0) return ms_[i];
        return 0;
    }

 private:
    static constexpr std::array<const char*, 6> kNames = {"h", "msm_h", "msm_l", "msm_a", "msm_b_g1", "msm_b_g2"};
    static trace::Context with_sink(trace::Context c, trace::Sink* s) {
        c.sink = s;
        return c;
    }
    trace::Context outer_;
    trace::ScopedContext scope_;
    std::array<double, kNames.size()> ms_{};
};

// h_msm: the time around it is h + msm_h; msm_h is the backend's "msm_h" span, h the rest
// (H itself and whatever copying the backend does).
// The witness's z goes along, so that a device backend can copy it under the H MSM, and the
// bases of msm_z, so that it plans which base sets to keep resident with the whole proof.
G1Jacobian run_h_msm(const Parameters& p, r1cs::WitnessVector& a, r1cs::WitnessVector& b, r1cs::WitnessVector& c,
                     const Witness& w, ProverBackend& backend, ProofTimings& t, const AbcAhead* abc_ahead = nullptr) {
    StageClock clock;
    auto t0 = Clock::now();
    G1Jacobian h_sum = backend.h_msm(a, b, c, p.h, ZInputs{w.inputs, w.aux, p.l, p.a, p.b_g1, p.b_g2}, abc_ahead);
    const double all = ms_since(t0);
    t.msm_h = std::min(clock.ms("msm_h"), all);
    t.h = all - t.msm_h;
    return h_sum;
}

}  // namespace

Proof prove_with_h_sum(const QueryView& p, const r1cs::ZDensity& zd, std::span<const Fr> inputs,
                       std::span<const Fr> aux, const G1Jacobian& h_sum, const Randomness& rs, ProverBackend& backend,
                       ProofTimings& t) {
    // zd: the densities over z = (inputs, aux) for the a and b queries; z itself is the
    // backend's to build (on the host or on a device).
    ZSums z_sums;
    {
        // msm_l, msm_b_g1 and msm_b_g2 are the backend's spans; msm_a is the rest of msm_z
        // (with the upload of z on a device).
        StageClock clock;
        const auto t0 = Clock::now();
        z_sums = backend.msm_z(inputs, aux, p.l, p.a, p.b_g1, p.b_g2, zd.a.data(), zd.b.data());
        const double all = ms_since(t0);
        t.msm_l = clock.ms("msm_l");
        t.msm_b_g1 = clock.ms("msm_b_g1");
        t.msm_b_g2 = clock.ms("msm_b_g2");
        t.msm_a = std::max(0.0, all - t.msm_l - t.msm_b_g1 - t.msm_b_g2);
    }

    const auto t0 = Clock::now();
    Proof proof = assemble_proof(p.alpha_g1, p.beta_g1, p.delta_g1, p.beta_g2, p.delta_g2,
                                 ProofSums<G1Curve, G2Curve>{z_sums.a, z_sums.b_g1, h_sum + z_sums.l, z_sums.b_g2}, rs);
    t.assemble = ms_since(t0);
    return proof;
}

template <class G1C, class G2C>
ProofT<G1C, G2C> assemble_proof(const Affine<G1C>& alpha_g1, const Affine<G1C>& beta_g1, const Affine<G1C>& delta_g1,
                                const Affine<G2C>& beta_g2, const Affine<G2C>& delta_g2,
                                const ProofSums<G1C, G2C>& sums, const RandomnessT<typename G1C::Scalar>& rs) {
    trace::Span span("assemble", "groth16");
    // Six scalar multiplications, in two rounds of independent ones on the pool: r delta,
    // s delta (G1 and G2) and rs delta, then s A and r B1, which need the first round. One
    // after the other they took 0.9-1.1 ms (1.2-2.1 on the H200 host of the GPU prover,
    // whose 2^20-constraint SHA-256 proof takes 21 ms); dev, 2 cores, `cuzk demo --circuit
    // random-dense --size 1024 --proofs 21 --backend cpu`, median: 0.9 / 0.8 -> 0.7 / 0.7 ms.
    Jacobian<G1C> r_delta, s_delta, rs_delta, s_a, r_b1;
    Jacobian<G2C> s_delta2;
    const auto rs_product = rs.r * rs.s;
    parallel_for(0, 4, 1, [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
            if (i == 0) s_delta2 = mul(delta_g2, rs.s);
            if (i == 1) r_delta = mul(delta_g1, rs.r);
            if (i == 2) s_delta = mul(delta_g1, rs.s);
            if (i == 3) rs_delta = mul(delta_g1, rs_product);
        }
    });
    const Jacobian<G1C> a = sums.a + alpha_g1 + r_delta;
    const Jacobian<G2C> b = sums.b_g2 + beta_g2 + s_delta2;
    const Jacobian<G1C> b1 = sums.b_g1 + beta_g1 + s_delta;
    parallel_for(0, 2, 1, [&](size_t begin, size_t end) {
        for (size_t i = begin; i < end; ++i) {
            if (i == 0) s_a = mul(a, rs.s);
            if (i == 1) r_b1 = mul(b1, rs.r);
        }
    });
    const Jacobian<G1C> c = sums.c + s_a + r_b1 - rs_delta;
    return {a.to_affine(), b.to_affine(), c.to_affine()};
}
template Proof assemble_proof(const G1Affine&, const G1Affine&, const G1Affine&, const G2Affine&, const G2Affine&,
                              const ProofSums<G1Curve, G2Curve>&, const Randomness&);
template ProofT<bn254::G1Curve, bn254::G2Curve> assemble_proof(const bn254::G1Affine&, const bn254::G1Affine&,
                                                               const bn254::G1Affine&, const bn254::G2Affine&,
                                                               const bn254::G2Affine&,
                                                               const ProofSums<bn254::G1Curve, bn254::G2Curve>&,
                                                               const RandomnessT<bn254::Fr>&);

namespace {

QueryView view(const Parameters& p) {
    return {p.vk.alpha_g1, p.vk.beta_g1, p.vk.delta_g1, p.vk.beta_g2, p.vk.delta_g2, p.l, p.a, p.b_g1, p.b_g2};
}

Proof prove_after_h(const Parameters& p, const r1cs::ZDensity& zd, const Witness& w, const G1Jacobian& h_sum,
                    const Randomness& rs, ProverBackend& backend, ProofTimings& t) {
    return prove_with_h_sum(view(p), zd, w.inputs, w.aux, h_sum, rs, backend, t);
}

}  // namespace

Proof prove(const Parameters& p, const r1cs::Density& d, const Witness& w, const Randomness& rs, ProverBackend& backend,
            ProofTimings* timings) {
    const r1cs::ZDensity& zd = checked_densities(p, d, w);
    ProofTimings t;
    G1Jacobian h_sum;
    {
        r1cs::WitnessVector a = w.a, b = w.b, c = w.c;
        h_sum = run_h_msm(p, a, b, c, w, backend, t);
    }
    Proof proof = prove_after_h(p, zd, w, h_sum, rs, backend, t);
    if (timings) *timings = t;
    return proof;
}

Proof prove(const Parameters& p, const r1cs::Density& d, Witness&& w, const Randomness& rs, ProverBackend& backend,
            ProofTimings* timings, const ProveHooks* hooks) {
    const r1cs::ZDensity& zd = checked_densities(p, d, w);
    ProofTimings t;
    const G1Jacobian h_sum = run_h_msm(p, w.a, w.b, w.c, w, backend, t, hooks ? hooks->abc_ahead : nullptr);
    // a, b, c are spent: free them (or let the caller recycle their storage) before the
    // other MSMs.
    if (hooks && hooks->abc_released)
        hooks->abc_released();
    else
        w.a = {}, w.b = {}, w.c = {};
    Proof proof = prove_after_h(p, zd, w, h_sum, rs, backend, t);
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
