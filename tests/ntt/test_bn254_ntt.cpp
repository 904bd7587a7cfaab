// NTT over BN254's Fr (two-adicity 28, generator 5): the roots against arkworks' published
// 2^28-th root, the transforms against a naive DFT at every size up to 2^10 (plain and
// coset), round trips at sizes past the small-stage block, and the size limits.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <vector>

#include "cuzk/ntt/ntt.hpp"
#include "support/seed.hpp"

namespace cuzk {
namespace {

using bn254::Fr;

std::vector<Fr> random_vector(std::mt19937_64& rng, size_t n) {
    std::vector<Fr> v(n);
    for (auto& x : v) x = Fr::random(rng);
    return v;
}

// out_j = a(shift w^j).
std::vector<Fr> naive_dft(const std::vector<Fr>& a, const Fr& w, const Fr& shift) {
    std::vector<Fr> out(a.size());
    Fr point = shift;
    for (size_t j = 0; j < a.size(); ++j) {
        Fr acc = Fr::zero();
        for (size_t i = a.size(); i-- > 0;) acc = acc * point + a[i];
        out[j] = acc;
        point *= w;
    }
    return out;
}

TEST(Bn254Ntt, RootsOfUnity) {
    // arkworks (ark-bn254 Fr, TWO_ADIC_ROOT_OF_UNITY) = 5^((r - 1)/2^28).
    const Fr w28 = ntt::root_of_unity<Fr>(28);
    EXPECT_EQ(w28, *Fr::from_string("19103219067921713944291392827692070036145651957329286315305642004821462161904"));
    for (unsigned k = 0; k <= 28; ++k) {
        Fr w = ntt::root_of_unity<Fr>(k);
        for (unsigned i = 0; i < k; ++i) {
            if (i + 1 == k) {
                EXPECT_EQ(w, -Fr::one()) << k;  // primitive: w^(2^(k-1)) = -1
            }
            w = w.square();
        }
        EXPECT_EQ(w, Fr::one()) << k;
    }
    EXPECT_THROW(ntt::root_of_unity<Fr>(29), std::invalid_argument);
    EXPECT_EQ(ntt::coset_generator<Fr>(), Fr::from_u64(5));
    EXPECT_EQ(ntt::coset_generator<Fr>() * ntt::coset_generator_inverse<Fr>(), Fr::one());
}

TEST(Bn254Ntt, MatchesNaiveDftUpTo2To10) {
    std::mt19937_64 rng(test::seed());
    const Fr g = ntt::coset_generator<Fr>();
    for (unsigned k = 0; k <= 10; ++k) {
        const size_t n = size_t(1) << k;
        const Fr w = ntt::root_of_unity<Fr>(k);
        const auto a = random_vector(rng, n);
        auto f = a;
        ntt::forward(std::span<Fr>(f));
        ASSERT_EQ(f, naive_dft(a, w, Fr::one())) << "forward 2^" << k;
        auto c = a;
        ntt::coset_forward(std::span<Fr>(c));
        ASSERT_EQ(c, naive_dft(a, w, g)) << "coset_forward 2^" << k;
        ntt::inverse(std::span<Fr>(f));
        ASSERT_EQ(f, a) << "inverse 2^" << k;
        ntt::coset_inverse(std::span<Fr>(c));
        ASSERT_EQ(c, a) << "coset_inverse 2^" << k;
    }
}

TEST(Bn254Ntt, RoundTripsPastTheBlockSizeAndSizeChecks) {
    std::mt19937_64 rng(test::seed());
    for (unsigned k : {12u, 13u, 16u}) {
        const auto a = random_vector(rng, size_t(1) << k);
        auto b = a;
        ntt::forward(std::span<Fr>(b));
        // A spot check against evaluation: b_1 = a(w).
        const Fr w = ntt::root_of_unity<Fr>(k);
        Fr acc = Fr::zero();
        for (size_t i = a.size(); i-- > 0;) acc = acc * w + a[i];
        ASSERT_EQ(b[1], acc) << "2^" << k;
        ntt::inverse(std::span<Fr>(b));
        ASSERT_EQ(b, a) << "2^" << k;
    }
    std::vector<Fr> bad(3);
    EXPECT_THROW(ntt::forward(std::span<Fr>(bad)), std::invalid_argument);
    ntt::clear_twiddle_cache();
}

}  // namespace
}  // namespace cuzk
