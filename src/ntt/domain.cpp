// Evaluation domain and Groth16's H (see domain.hpp).
#include "cuzk/ntt/domain.hpp"

#include <stdexcept>
#include <string>

#include "cuzk/common/parallel.hpp"
#include "cuzk/ntt/ntt.hpp"

namespace cuzk::ntt {
namespace {

constexpr size_t kPassGrain = size_t(1) << 12;

void check_same_size(size_t a, size_t b, const char* what) {
    if (a != b)
        throw std::invalid_argument(std::string(what) + ": domain sizes differ (" + std::to_string(a) + " vs " +
                                    std::to_string(b) + ")");
}

// Coefficients -> coset evaluations, from evaluations on H: the ifft (unscaled), then
// one pass multiplying by m^-1 g^i, then the forward NTT. Equals ifft(); coset_fft().
void eval_to_coset(std::span<Fr> v) {
    detail::inverse_unscaled(v);
    distribute_powers(v, Fr::from_u64(v.size()).inverse(), coset_generator());
    forward(v);
}

}  // namespace

size_t EvaluationDomain::size_for(size_t n) {
    if (n == 0) throw std::invalid_argument("EvaluationDomain: no values (a circuit has at least one constraint)");
    if (n > (size_t(1) << kMaxLogSize))
        throw std::invalid_argument("EvaluationDomain: " + std::to_string(n) + " values exceed the largest domain, 2^" +
                                    std::to_string(kMaxLogSize));
    size_t m = 1;
    while (m < n) m <<= 1;
    return m;
}

EvaluationDomain::EvaluationDomain(std::vector<Fr> values) : values_(std::move(values)) {
    size_t m = size_for(values_.size());
    values_.resize(m, Fr::zero());
    log_m_ = unsigned(__builtin_ctzll(m));
}

void EvaluationDomain::fft() { forward(values_); }
void EvaluationDomain::ifft() { inverse(values_); }
void EvaluationDomain::coset_fft() { coset_forward(values_); }
void EvaluationDomain::icoset_fft() { coset_inverse(values_); }

Fr EvaluationDomain::z(const Fr& tau) const { return tau.pow(uint64_t(size())) - Fr::one(); }

void EvaluationDomain::divide_by_z_on_coset() {
    Fr zinv = z(coset_generator()).inverse();  // g^m - 1 != 0: g is not a 2^k-th root of unity
    distribute_powers(values_, zinv, Fr::one());
}

void EvaluationDomain::mul_assign(const EvaluationDomain& other) {
    check_same_size(size(), other.size(), "EvaluationDomain::mul_assign");
    parallel_for(0, size(), kPassGrain, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) values_[i] *= other.values_[i];
    });
}

void EvaluationDomain::sub_assign(const EvaluationDomain& other) {
    check_same_size(size(), other.size(), "EvaluationDomain::sub_assign");
    parallel_for(0, size(), kPassGrain, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) values_[i] -= other.values_[i];
    });
}

namespace {

// compute_h for either storage (std::vector or the witness's DefaultInitVector).
template <class Vector>
Vector compute_h_in(Vector a, Vector b, Vector c) {
    if (a.size() != b.size() || a.size() != c.size())
        throw std::invalid_argument("compute_h: a, b, c must have one value per constraint each (got " +
                                    std::to_string(a.size()) + ", " + std::to_string(b.size()) + ", " +
                                    std::to_string(c.size()) + ")");
    const size_t m = EvaluationDomain::size_for(a.size());
    a.resize(m, Fr::zero());
    b.resize(m, Fr::zero());
    c.resize(m, Fr::zero());
    // Six transforms, not bellperson's seven: the coset iDFT is linear and C has degree
    // < m, so coset_iNTT(C on gH) is C's coefficients, iNTT(c). Hence
    //   h = coset_iNTT((A B - C) / Z) = (m Z)^-1 (g^-i iDFT_unscaled(a b)_i - iDFT_unscaled(c)_i)
    // with Z = g^m - 1 (constant on gH): c needs its iDFT only, no coset DFT. The result is
    // the same field elements for any a, b, c (satisfied or not); tests/ntt/test_domain.cpp
    // checks it against the seven domain operations.
    eval_to_coset(a);
    eval_to_coset(b);
    parallel_for(0, m, kPassGrain, [&](size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; ++i) a[i] *= b[i];
    });
    Vector().swap(b);  // released as soon as it is consumed (bellperson drops it too)
    detail::inverse_unscaled(c);
    detail::inverse_unscaled(a);
    const Fr zg = Fr::from_u64(kCosetGenerator).pow(uint64_t(m)) - Fr::one();
    const Fr scale = (Fr::from_u64(m) * zg).inverse();
    const Fr g_inv = coset_generator_inverse();
    parallel_for(0, m, kPassGrain, [&](size_t lo, size_t hi) {
        Fr x = g_inv.pow(uint64_t(lo));
        for (size_t i = lo; i < hi; ++i) {
            a[i] = (a[i] * x - c[i]) * scale;
            x *= g_inv;
        }
    });
    return a;
}

}  // namespace

std::vector<Fr> compute_h(std::vector<Fr> a, std::vector<Fr> b, std::vector<Fr> c) {
    return compute_h_in(std::move(a), std::move(b), std::move(c));
}
DefaultInitVector<Fr> compute_h(DefaultInitVector<Fr> a, DefaultInitVector<Fr> b, DefaultInitVector<Fr> c) {
    return compute_h_in(std::move(a), std::move(b), std::move(c));
}

}  // namespace cuzk::ntt
