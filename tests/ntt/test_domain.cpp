// EvaluationDomain (bellperson semantics) and compute_h on hand-built QAPs, checked
// with NTT-free references: Horner evaluation and Lagrange interpolation.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <vector>

#include "cuzk/common/parallel.hpp"
#include "cuzk/ntt/domain.hpp"
#include "cuzk/ntt/ntt.hpp"
#include "support/seed.hpp"

namespace cuzk {
namespace {

using ntt::EvaluationDomain;

std::vector<Fr> random_vector(std::mt19937_64& rng, size_t n) {
    std::vector<Fr> v(n);
    for (auto& x : v) x = Fr::random(rng);
    return v;
}

Fr horner(const std::vector<Fr>& coeffs, const Fr& x) {
    Fr acc = Fr::zero();
    for (size_t i = coeffs.size(); i-- > 0;) acc = acc * x + coeffs[i];
    return acc;
}

// P(tau) for the polynomial of degree < m with P(w^i) = vals[i] (m = vals.size(), a
// power of two): Lagrange over the roots of unity, L_i(tau) = w^i (tau^m - 1) / (m (tau - w^i)).
// tau must not be in H.
Fr lagrange_eval(const std::vector<Fr>& vals, const Fr& tau) {
    const size_t m = vals.size();
    const Fr w = ntt::root_of_unity(unsigned(__builtin_ctzll(m)));
    std::vector<Fr> den(m), wi(m);
    Fr x = Fr::one();
    for (size_t i = 0; i < m; ++i) {
        wi[i] = x;
        den[i] = tau - x;
        x *= w;
    }
    batch_inverse(std::span<Fr>(den));
    Fr acc = Fr::zero();
    for (size_t i = 0; i < m; ++i) acc += vals[i] * wi[i] * den[i];
    return acc * (tau.pow(uint64_t(m)) - Fr::one()) * Fr::from_u64(m).inverse();
}

TEST(Domain, SizeFor) {
    EXPECT_EQ(EvaluationDomain::size_for(1), 1u);
    EXPECT_EQ(EvaluationDomain::size_for(2), 2u);
    EXPECT_EQ(EvaluationDomain::size_for(3), 4u);
    EXPECT_EQ(EvaluationDomain::size_for(5), 8u);
    EXPECT_EQ(EvaluationDomain::size_for(1024), 1024u);
    EXPECT_EQ(EvaluationDomain::size_for(1025), 2048u);
    EXPECT_EQ(EvaluationDomain::size_for(130278541), size_t(1) << 27);  // 32 GiB PoRep partition
    EXPECT_EQ(EvaluationDomain::size_for(size_t(1) << 28), size_t(1) << 28);
    EXPECT_THROW(EvaluationDomain::size_for(0), std::invalid_argument);
    EXPECT_THROW(EvaluationDomain::size_for((size_t(1) << 28) + 1), std::invalid_argument);
    EXPECT_THROW(EvaluationDomain(std::vector<Fr>{}), std::invalid_argument);

    EvaluationDomain d(std::vector<Fr>(5, Fr::one()));
    EXPECT_EQ(d.size(), 8u);
    EXPECT_EQ(d.log_size(), 3u);
    for (size_t i = 0; i < 8; ++i) EXPECT_EQ(d.values()[i], i < 5 ? Fr::one() : Fr::zero()) << i;
}

TEST(Domain, ZAndDivideByZ) {
    std::mt19937_64 rng(test::seed());
    EvaluationDomain d(random_vector(rng, 13));  // m = 16
    const auto before = std::vector<Fr>(d.values().begin(), d.values().end());
    const Fr g = ntt::coset_generator();
    EXPECT_EQ(d.z(g), g.pow(16) - Fr::one());
    EXPECT_TRUE(d.z(ntt::root_of_unity(4).pow(5)).is_zero()) << "Z vanishes on H";
    d.divide_by_z_on_coset();
    for (size_t i = 0; i < 16; ++i) EXPECT_EQ(d.values()[i] * d.z(g), before[i]);

    EvaluationDomain other(random_vector(rng, 40));
    EXPECT_THROW(d.mul_assign(other), std::invalid_argument);
    EXPECT_THROW(d.sub_assign(other), std::invalid_argument);
}

// bellperson's polynomial_arith test: products through the domain equal naive ones.
TEST(Domain, PolynomialMultiplication) {
    std::mt19937_64 rng(test::seed());
    for (size_t da : {1, 2, 7, 33, 300}) {
        for (size_t db : {1, 5, 64, 700}) {
            auto a = random_vector(rng, da), b = random_vector(rng, db);
            std::vector<Fr> naive(da + db, Fr::zero());
            for (size_t i = 0; i < da; ++i)
                for (size_t j = 0; j < db; ++j) naive[i + j] += a[i] * b[j];
            a.resize(da + db, Fr::zero());
            b.resize(da + db, Fr::zero());
            for (bool coset : {false, true}) {
                EvaluationDomain x(a), y(b);
                if (coset) {
                    x.coset_fft();
                    y.coset_fft();
                } else {
                    x.fft();
                    y.fft();
                }
                x.mul_assign(y);
                if (coset) {
                    x.icoset_fft();
                } else {
                    x.ifft();
                }
                auto got = std::move(x).take();
                ASSERT_EQ(got.size(), EvaluationDomain::size_for(da + db));
                for (size_t i = 0; i < got.size(); ++i)
                    ASSERT_EQ(got[i], i < naive.size() ? naive[i] : Fr::zero())
                        << "deg " << da << "*" << db << " coset " << coset << " i " << i;
            }
        }
    }
}

// fft/ifft/coset variants evaluate and interpolate as their names say.
TEST(Domain, TransformsEvaluate) {
    std::mt19937_64 rng(test::seed());
    auto coeffs = random_vector(rng, 100);  // m = 128
    EvaluationDomain d(coeffs);
    d.coset_fft();
    const Fr w = ntt::root_of_unity(7);
    const Fr g = ntt::coset_generator();
    for (size_t j : {0, 1, 77, 127}) EXPECT_EQ(d.values()[j], horner(coeffs, g * w.pow(j))) << j;
    d.icoset_fft();
    for (size_t i = 0; i < 128; ++i) ASSERT_EQ(d.values()[i], i < 100 ? coeffs[i] : Fr::zero());
    d.fft();
    for (size_t j : {0, 3, 64, 127}) EXPECT_EQ(d.values()[j], horner(coeffs, w.pow(j))) << j;
    d.ifft();
    for (size_t i = 0; i < 128; ++i) ASSERT_EQ(d.values()[i], i < 100 ? coeffs[i] : Fr::zero());
}

// The bellperson sequence (groth16 prover, execute_fft) with the domain's own operations.
std::vector<Fr> h_by_domain_ops(std::vector<Fr> a, std::vector<Fr> b, std::vector<Fr> c) {
    EvaluationDomain da(std::move(a)), db(std::move(b)), dc(std::move(c));
    da.ifft();
    db.ifft();
    dc.ifft();
    da.coset_fft();
    db.coset_fft();
    dc.coset_fft();
    da.mul_assign(db);
    da.sub_assign(dc);
    da.divide_by_z_on_coset();
    da.icoset_fft();
    return std::move(da).take();
}

struct Qap {
    std::vector<Fr> a, b, c;
};

// n constraints with random a, b and c = a b: A B - C vanishes on all of H (the padded
// rows are 0 * 0 = 0).
Qap satisfied_qap(std::mt19937_64& rng, size_t n) {
    Qap q{random_vector(rng, n), random_vector(rng, n), std::vector<Fr>(n)};
    for (size_t i = 0; i < n; ++i) q.c[i] = q.a[i] * q.b[i];
    return q;
}

// A(tau) B(tau) - C(tau) == H(tau) Z(tau) at a random tau, with A, B, C interpolated
// from their (zero-padded) values on H by Lagrange.
bool divides(const Qap& q, const std::vector<Fr>& h, std::mt19937_64& rng) {
    const size_t m = h.size();
    auto pad = [m](std::vector<Fr> v) {
        v.resize(m, Fr::zero());
        return v;
    };
    const Fr tau = Fr::random(rng);
    const Fr lhs = lagrange_eval(pad(q.a), tau) * lagrange_eval(pad(q.b), tau) - lagrange_eval(pad(q.c), tau);
    const Fr rhs = horner(h, tau) * (tau.pow(uint64_t(m)) - Fr::one());
    return lhs == rhs;
}

TEST(Domain, ComputeHOnHandBuiltQap) {
    std::mt19937_64 rng(test::seed());
    for (size_t n : {1, 2, 3, 5, 8, 9, 100, 1000, 4097, 20000}) {
        const Qap q = satisfied_qap(rng, n);
        const size_t m = EvaluationDomain::size_for(n);
        auto h = ntt::compute_h(q.a, q.b, q.c);
        ASSERT_EQ(h.size(), m);
        EXPECT_TRUE(h[m - 1].is_zero()) << "deg H <= m-2, so the top coefficient must be zero (n=" << n << ")";
        EXPECT_TRUE(divides(q, h, rng)) << "H Z != A B - C at n=" << n;
        EXPECT_EQ(h, h_by_domain_ops(q.a, q.b, q.c)) << "fused compute_h differs from the domain operations";

        // An unsatisfied constraint: no polynomial H of that shape exists, and the check sees it.
        Qap bad = q;
        bad.c[size_t(rng() % n)] += Fr::one();
        auto hb = ntt::compute_h(bad.a, bad.b, bad.c);
        EXPECT_FALSE(divides(bad, hb, rng)) << "n=" << n;
        // compute_h skips c's coset DFT by linearity, which holds for any a, b, c.
        EXPECT_EQ(hb, h_by_domain_ops(bad.a, bad.b, bad.c)) << "unsatisfied, n=" << n;
    }
}

TEST(Domain, ComputeHThreadCountDoesNotChangeResults) {
    std::mt19937_64 rng(test::seed());
    const Qap q = satisfied_qap(rng, 10000);
    std::vector<Fr> ref;
    {
        ScopedNumThreads st(1);
        ref = ntt::compute_h(q.a, q.b, q.c);
    }
    for (size_t t : {2, 3}) {
        ScopedNumThreads st(t);
        EXPECT_EQ(ntt::compute_h(q.a, q.b, q.c), ref) << "threads=" << t;
    }
}

TEST(Domain, ComputeHRejectsBadInput) {
    std::vector<Fr> three(3, Fr::one()), four(4, Fr::one());
    EXPECT_THROW(ntt::compute_h(three, three, four), std::invalid_argument);
    EXPECT_THROW(ntt::compute_h(std::vector<Fr>{}, {}, {}), std::invalid_argument);
    EXPECT_THROW(ntt::compute_h(DefaultInitVector<Fr>{}, {}, {}), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk
