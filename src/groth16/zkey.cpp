// The snarkjs Groth16 prover (snarkjs 0.7.6 src/groth16_prove.js) on cuzk's NTT and
// backends; see cuzk/groth16/zkey.hpp for how its keys differ from bellperson's.
#include "cuzk/groth16/zkey.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>

#include "cuzk/common/parallel.hpp"
#include "cuzk/common/trace.hpp"
#include "cuzk/msm/msm.hpp"
#include "cuzk/ntt/ntt.hpp"

namespace cuzk::groth16 {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// e with snarkjs_root(k) = cuzk_root(k)^e (e odd, below 2^k): both are generators of the
// 2^k-th roots of unity, so the point snarkjs numbers i is the one cuzk's NTT numbers
// e i mod 2^k. Found bit by bit (Pohlig-Hellman in a group of order 2^k): 28 squaring
// chains at most.
template <class E>
uint64_t root_exponent(unsigned k) {
    using Fr = typename E::Fr;
    const Fr ws = snarkjs_root_of_unity<E>(k), wc = ntt::root_of_unity<Fr>(k);
    const Fr wc_inv = wc.inverse();
    uint64_t e = 0;
    for (unsigned i = 0; i < k; ++i) {
        Fr g = ws * wc_inv.pow(e);  // of order dividing 2^(k - i)
        for (unsigned j = 0; j + 1 + i < k; ++j) g = g.square();
        if (!g.is_one()) e |= uint64_t(1) << i;
    }
    return e;
}

// Row i of m times w.
template <class Fr>
Fr row_dot(const SparseRows<Fr>& m, size_t i, std::span<const Fr> w) {
    Fr acc = Fr::zero();
    for (uint64_t t = m.row_ptr[i]; t < m.row_ptr[i + 1]; ++t) {
        const Fr& c = m.coeff[t];
        const Fr& x = w[m.signal[t]];
        acc += c.is_one() ? x : c * x;
    }
    return acc;
}

// The lowest index in [0, n) for which bad(i), or n.
template <class Bad>
size_t first_failing(size_t n, Bad bad) {
    std::atomic<size_t> first{n};
    parallel_for(0, n, 1024, [&](size_t b, size_t e) {
        for (size_t i = b; i < e && i < first.load(std::memory_order_relaxed); ++i) {
            if (!bad(i)) continue;
            size_t cur = first.load();
            while (i < cur && !first.compare_exchange_weak(cur, i)) {
            }
            return;
        }
    });
    return first.load();
}

// A row's non-zero terms, sorted by signal, for comparing matrices written in any order.
template <class Fr>
std::vector<std::pair<uint32_t, Fr>> sorted_row(const SparseRows<Fr>& m, size_t i) {
    std::vector<std::pair<uint32_t, Fr>> r;
    for (uint64_t t = m.row_ptr[i]; t < m.row_ptr[i + 1]; ++t)
        if (!m.coeff[t].is_zero()) r.emplace_back(m.signal[t], m.coeff[t]);
    std::sort(r.begin(), r.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    return r;
}

}  // namespace

template <class E>
typename E::Fr snarkjs_root_of_unity(unsigned log_n) {
    using Fr = typename E::Fr;
    constexpr size_t s = Fr::kTwoAdicity;
    if (log_n > s)
        throw std::invalid_argument("snarkjs_root_of_unity: 2^" + std::to_string(log_n) + " exceeds Fr's 2^" +
                                    std::to_string(s) + " roots of unity");
    typename Fr::Big t = Fr::kP;
    Fr::Big::sub(t, t, Fr::Big::from_u64(1));
    t = t.shr(s);
    Fr w = Fr::from_u64(5).pow(t);  // ffjavascript: the smallest non-residue, 5
    for (size_t i = log_n; i < s; ++i) w = w.square();
    return w;
}

template <class E>
std::optional<std::string> check_r1cs_matches(const Zkey<E>& key, const CircomR1cs<E>& r) {
    if (r.n_wires != key.n_vars)
        return "the .r1cs has " + std::to_string(r.n_wires) + " wires, the .zkey " + std::to_string(key.n_vars) +
               " signals: not the same circuit";
    if (r.n_public() != key.n_public)
        return "the .r1cs has " + std::to_string(r.n_public()) + " public signals, the .zkey " +
               std::to_string(key.n_public) + ": not the same circuit";
    if (r.n_constraints() + key.n_public + 1 > key.domain_size)
        return "the .r1cs's " + std::to_string(r.n_constraints()) + " constraints and " +
               std::to_string(key.n_public + 1) + " input rows do not fit the .zkey's domain of " +
               std::to_string(key.domain_size) + ": not the same circuit";
    const size_t bad = first_failing(r.n_constraints(), [&](size_t i) {
        return sorted_row(r.a, i) != sorted_row(key.a_rows, i) || sorted_row(r.b, i) != sorted_row(key.b_rows, i);
    });
    if (bad != r.n_constraints())
        return "constraint " + std::to_string(bad) +
               " differs between the .r1cs and the .zkey's coefficients: not the same circuit";
    return std::nullopt;
}

template <class E>
std::optional<std::string> check_witness(const Zkey<E>& key, std::span<const typename E::Fr> w,
                                         const CircomR1cs<E>* r) {
    using Fr = typename E::Fr;
    if (w.size() != key.n_vars)
        return "the witness has " + std::to_string(w.size()) + " values, the key " + std::to_string(key.n_vars) +
               " signals (ONE included)";
    if (!w[0].is_one()) return "the witness's first value (ONE) is " + w[0].to_dec() + ", not 1";
    if (!r) return std::nullopt;
    if (auto why = check_r1cs_matches(key, *r)) return why;
    const size_t m = r->n_constraints();
    const size_t bad =
        first_failing(m, [&](size_t i) { return row_dot(r->a, i, w) * row_dot(r->b, i, w) != row_dot(r->c, i, w); });
    if (bad == m) return std::nullopt;
    std::string why = "constraint " + std::to_string(bad) + " of " + std::to_string(m) +
                      " does not hold: (A·w)(B·w) = " + (row_dot(r->a, bad, w) * row_dot(r->b, bad, w)).to_dec() +
                      " but C·w = " + row_dot(r->c, bad, w).to_dec();
    std::string signals;
    for (const SparseRows<Fr>* mat : {&r->a, &r->b, &r->c})
        for (uint64_t t = mat->row_ptr[bad]; t < mat->row_ptr[bad + 1] && signals.size() < 200; ++t)
            signals += (signals.empty() ? "" : ", ") + std::string("w[") + std::to_string(mat->signal[t]) +
                       "] = " + w[mat->signal[t]].to_dec();
    return why + " (" + signals + ")";
}

template <class E>
std::vector<typename E::Fr> zkey_h_scalars(const Zkey<E>& key, std::span<const typename E::Fr> w) {
    using Fr = typename E::Fr;
    const size_t n = key.domain_size;
    const unsigned k = ntt::checked_log_size(n, "zkey domainSize");
    const uint64_t e = root_exponent<E>(k), mask = n - 1;
    // A·w and B·w at snarkjs' point i, stored at cuzk's index of that point; C = A∘B.
    std::vector<Fr> a(n), b(n), c(n);
    parallel_for(0, n, 4096, [&](size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; ++i) {
            const size_t j = (e * i) & mask;
            a[j] = row_dot(key.a_rows, i, w);
            b[j] = row_dot(key.b_rows, i, w);
            c[j] = a[j] * b[j];
        }
    });
    // Each to coefficients, shifted onto the coset w_2n <w_n> (coefficient i times
    // w_2n^i, with 1/n from the inverse transform), and evaluated there.
    const Fr n_inv = Fr::from_u64(n).inverse(), shift = snarkjs_root_of_unity<E>(k + 1);
    for (std::vector<Fr>* v : {&a, &b, &c}) {
        ntt::detail::inverse_unscaled(std::span<Fr>(*v));
        ntt::distribute_powers(std::span<Fr>(*v), n_inv, shift);
        ntt::forward(std::span<Fr>(*v));
    }
    // A·B − C at snarkjs' coset point j, which cuzk's transform put at e j.
    std::vector<Fr> h(n);
    parallel_for(0, n, 4096, [&](size_t lo, size_t hi) {
        for (size_t j = lo; j < hi; ++j) {
            const size_t i = (e * j) & mask;
            h[j] = a[i] * b[i] - c[i];
        }
    });
    return h;
}

Proof prove_zkey(const Zkey<Bls12_381>& key, std::span<const Fr> w, const Randomness& rs, ProverBackend& backend,
                 const CircomR1cs<Bls12_381>* r1cs, ProofTimings* timings) {
    {
        trace::Span span("check", "groth16");
        if (auto why = check_witness(key, w, r1cs)) throw ProverError("prove-zkey: " + why.value());
    }
    ProofTimings t;
    auto t0 = Clock::now();
    std::vector<Fr> h;
    {
        trace::Span span("h", "groth16");
        h = zkey_h_scalars(key, w);
    }
    t.h = ms_since(t0);
    t0 = Clock::now();
    G1Jacobian h_sum;
    {
        trace::Span span("msm_h", "groth16");
        h_sum = backend.msm_g1(G1Query::H, key.h, h, nullptr);
    }
    t.msm_h = ms_since(t0);
    const QueryView q{key.alpha_1, key.beta_1, key.delta_1, key.beta_2, key.delta_2, key.c, key.a, key.b1, key.b2};
    const size_t ni = size_t(key.n_public) + 1;
    Proof proof = prove_with_h_sum(q, key.z_density, w.first(ni), w.subspan(ni), h_sum, rs, backend, t);
    if (timings) *timings = t;
    return proof;
}

namespace {

// The CPU MSM (cuzk/msm/msm.hpp) behind the ZkeyMsm seam.
class CpuZkeyMsm final : public ZkeyMsm<Bn254> {
 public:
    std::string name() const override { return "cpu"; }
    bn254::G1Jacobian msm_g1(std::span<const bn254::G1Affine> bases, std::span<const bn254::Fr> scalars) override {
        return bn254::msm_g1(bases, scalars);
    }
    bn254::G2Jacobian msm_g2(std::span<const bn254::G2Affine> bases, std::span<const bn254::Fr> scalars) override {
        return bn254::msm_g2(bases, scalars);
    }
};

// The scalars of the signals whose bit is set in density (one per point of the query).
template <class Fr>
std::vector<Fr> dense_scalars(std::span<const Fr> w, const std::vector<uint64_t>& density, size_t count) {
    std::vector<Fr> out;
    out.reserve(count);
    for (size_t i = 0; i < w.size(); ++i)
        if (density[i / 64] >> (i % 64) & 1) out.push_back(w[i]);
    return out;
}

}  // namespace

std::unique_ptr<ZkeyMsm<Bn254>> select_zkey_msm(const std::string& backend) {
    if (backend == "cpu" || backend == "auto") return std::make_unique<CpuZkeyMsm>();
    if (backend == "cuda")
        throw std::invalid_argument(
            "--backend cuda: BN254's GPU MSM comes from a CUDA ProverBackend (ProverBackend::bn254_msm), not "
            "from the groth16 layer");
    throw std::invalid_argument("--backend " + backend + ": cpu, cuda or auto");
}

ProofOn<Bn254> prove_zkey(const Zkey<Bn254>& key, std::span<const bn254::Fr> w, const RandomnessT<bn254::Fr>& rs,
                          ZkeyMsm<Bn254>& msm, const CircomR1cs<Bn254>* r1cs, ProofTimings* timings) {
    using Fr = bn254::Fr;
    {
        trace::Span span("check", "groth16");
        if (auto why = check_witness(key, w, r1cs)) throw ProverError("prove-zkey: " + why.value());
    }
    ProofTimings t;
    ProofSums<bn254::G1Curve, bn254::G2Curve> sums;
    auto t0 = Clock::now();
    std::vector<Fr> h;
    {
        trace::Span span("h", "groth16");
        h = zkey_h_scalars(key, w);
    }
    t.h = ms_since(t0);
    // One stage at a time, each timed as ProofTimings names it (C is the L query here).
    auto stage = [&](const char* name, double& ms, auto run) {
        trace::Span span(name, "groth16");
        const auto start = Clock::now();
        run();
        ms = ms_since(start);
    };
    bn254::G1Jacobian h_sum, l_sum;
    stage("msm_h", t.msm_h, [&] { h_sum = msm.msm_g1(key.h, h); });
    h = {};
    stage("msm_l", t.msm_l, [&] { l_sum = msm.msm_g1(key.c, w.subspan(size_t(key.n_public) + 1)); });
    stage("msm_a", t.msm_a, [&] { sums.a = msm.msm_g1(key.a, dense_scalars(w, key.z_density.a, key.a.size())); });
    const std::vector<Fr> zb = dense_scalars(w, key.z_density.b, key.b1.size());
    stage("msm_b_g1", t.msm_b_g1, [&] { sums.b_g1 = msm.msm_g1(key.b1, zb); });
    stage("msm_b_g2", t.msm_b_g2, [&] { sums.b_g2 = msm.msm_g2(key.b2, zb); });
    sums.c = h_sum + l_sum;
    t0 = Clock::now();
    const auto proof = assemble_proof(key.alpha_1, key.beta_1, key.delta_1, key.beta_2, key.delta_2, sums, rs);
    t.assemble = ms_since(t0);
    if (timings) *timings = t;
    return proof;
}

template <class E>
VerifyingKeyOn<E> verifying_key(const Zkey<E>& key) {
    VerifyingKeyOn<E> vk;
    vk.alpha_g1 = key.alpha_1;
    vk.beta_g1 = key.beta_1;
    vk.beta_g2 = key.beta_2;
    vk.gamma_g2 = key.gamma_2;
    vk.delta_g1 = key.delta_1;
    vk.delta_g2 = key.delta_2;
    vk.ic = key.ic;
    return vk;
}

#define CUZK_ZKEY_INSTANTIATE(E)                                                                             \
    template typename E::Fr snarkjs_root_of_unity<E>(unsigned);                                              \
    template std::optional<std::string> check_witness<E>(const Zkey<E>&, std::span<const typename E::Fr>,    \
                                                         const CircomR1cs<E>*);                              \
    template std::optional<std::string> check_r1cs_matches<E>(const Zkey<E>&, const CircomR1cs<E>&);         \
    template std::vector<typename E::Fr> zkey_h_scalars<E>(const Zkey<E>&, std::span<const typename E::Fr>); \
    template VerifyingKeyOn<E> verifying_key<E>(const Zkey<E>&);
CUZK_ZKEY_INSTANTIATE(Bls12_381)
CUZK_ZKEY_INSTANTIATE(Bn254)
#undef CUZK_ZKEY_INSTANTIATE

}  // namespace cuzk::groth16
