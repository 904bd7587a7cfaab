// NTT over Fr against a naive O(n^2) DFT, round trips, linearity, thread-count
// independence, size checks and the twiddle cache.
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

#include "cuzk/common/parallel.hpp"
#include "cuzk/ntt/ntt.hpp"
#include "support/seed.hpp"

namespace cuzk {
namespace {

std::vector<Fr> random_vector(std::mt19937_64& rng, size_t n) {
    std::vector<Fr> v(n);
    for (auto& x : v) x = Fr::random(rng);
    return v;
}

// out_j = sum_i a_i (shift w^j)^i: the polynomial a evaluated at shift * w^j.
std::vector<Fr> naive_dft(const std::vector<Fr>& a, const Fr& w, const Fr& shift) {
    const size_t n = a.size();
    std::vector<Fr> out(n);
    Fr point = shift;  // shift * w^j
    for (size_t j = 0; j < n; ++j) {
        Fr acc = Fr::zero();
        for (size_t i = n; i-- > 0;) acc = acc * point + a[i];  // Horner
        out[j] = acc;
        point *= w;
    }
    return out;
}

TEST(Ntt, RootsOfUnity) {
    const Fr w32 = ntt::root_of_unity(32);
    // bellperson/blstrs Fr::ROOT_OF_UNITY (7^((r-1)/2^32)).
    EXPECT_EQ(w32.to_hex(), "0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b");
    for (unsigned k = 0; k <= 32; ++k) {
        Fr w = ntt::root_of_unity(k);
        Fr x = w;
        for (unsigned i = 0; i < k; ++i) x = x.square();
        EXPECT_TRUE(x.is_one()) << "w_" << k << "^(2^" << k << ") != 1";
        if (k > 0) {
            Fr half = w;
            for (unsigned i = 0; i + 1 < k; ++i) half = half.square();
            EXPECT_EQ(half, -Fr::one()) << "w_" << k << " is not primitive";
        }
    }
    EXPECT_THROW(ntt::root_of_unity(33), std::invalid_argument);
    EXPECT_EQ(ntt::coset_generator() * ntt::coset_generator_inverse(), Fr::one());
}

TEST(Ntt, MatchesNaiveDftUpTo2To10) {
    std::mt19937_64 rng(test::seed());
    const Fr g = ntt::coset_generator();
    for (unsigned k = 0; k <= 10; ++k) {
        const size_t n = size_t(1) << k;
        const Fr w = ntt::root_of_unity(k);
        const Fr n_inv = Fr::from_u64(n).inverse();
        auto a = random_vector(rng, n);

        auto fwd = a;
        ntt::forward(fwd);
        ASSERT_EQ(fwd, naive_dft(a, w, Fr::one())) << "forward, n=" << n;

        auto inv = a;
        ntt::inverse(inv);
        auto expect_inv = naive_dft(a, w.inverse(), Fr::one());
        for (auto& x : expect_inv) x *= n_inv;
        ASSERT_EQ(inv, expect_inv) << "inverse, n=" << n;

        auto cf = a;
        ntt::coset_forward(cf);
        ASSERT_EQ(cf, naive_dft(a, w, g)) << "coset_forward, n=" << n;

        // coset_inverse: out_i = n^-1 g^-i sum_j a_j w^-ij.
        auto ci = a;
        ntt::coset_inverse(ci);
        Fr gi = Fr::one();
        for (size_t i = 0; i < n; ++i) {
            ASSERT_EQ(ci[i], expect_inv[i] * gi) << "coset_inverse, n=" << n << " i=" << i;
            gi *= ntt::coset_generator_inverse();
        }
    }
}

// The transform of the monomial X is the list of the domain's points.
TEST(Ntt, KnownAnswerMonomial) {
    for (unsigned k : {1u, 5u, 13u, 15u}) {
        const size_t n = size_t(1) << k;
        std::vector<Fr> a(n, Fr::zero());
        a[1] = Fr::one();
        ntt::forward(a);
        Fr x = Fr::one();
        const Fr w = ntt::root_of_unity(k);
        for (size_t j = 0; j < n; ++j) {
            ASSERT_EQ(a[j], x) << "n=" << n << " j=" << j;
            x *= w;
        }
    }
}

// Sizes past the naive test, where the blocked and tiled large stages run: spot-check
// outputs against Horner evaluation a(w^j) (and a(g w^j) for the coset transform).
void spot_check(std::mt19937_64& rng, unsigned k) {
    const size_t n = size_t(1) << k;
    const auto a = random_vector(rng, n);
    auto f = a, cf = a;
    ntt::forward(f);
    ntt::coset_forward(cf);
    const Fr w = ntt::root_of_unity(k);
    auto eval = [&](const Fr& x) {
        Fr acc = Fr::zero();
        for (size_t i = n; i-- > 0;) acc = acc * x + a[i];
        return acc;
    };
    std::vector<size_t> js = {0, 1, n / 2, n / 2 + 1, n - 1};
    for (int i = 0; i < 4; ++i) js.push_back(size_t(rng() % n));
    for (size_t j : js) {
        ASSERT_EQ(f[j], eval(w.pow(uint64_t(j)))) << "forward n=2^" << k << " j=" << j;
        ASSERT_EQ(cf[j], eval(ntt::coset_generator() * w.pow(uint64_t(j)))) << "coset n=2^" << k << " j=" << j;
    }
}

TEST(Ntt, SpotChecksAgainstEvaluation2To11To2To17) {
    std::mt19937_64 rng(test::seed());
    for (unsigned k = 11; k <= 17; ++k) spot_check(rng, k);
}

TEST(SlowNtt, SpotChecksAgainstEvaluation2To21) {
    std::mt19937_64 rng(test::seed());
    spot_check(rng, 21);
}

void check_round_trips(std::mt19937_64& rng, unsigned k) {
    const size_t n = size_t(1) << k;
    const auto a = random_vector(rng, n);
    auto x = a;
    ntt::forward(x);
    if (n > 1) {
        ASSERT_NE(x, a);  // a size-1 transform is the identity
    }
    ntt::inverse(x);
    ASSERT_EQ(x, a) << "inverse(forward(x)) != x at n=2^" << k;
    ntt::inverse(x);
    ntt::forward(x);
    ASSERT_EQ(x, a) << "forward(inverse(x)) != x at n=2^" << k;
    ntt::coset_forward(x);
    ntt::coset_inverse(x);
    ASSERT_EQ(x, a) << "coset_inverse(coset_forward(x)) != x at n=2^" << k;
    ntt::coset_inverse(x);
    ntt::coset_forward(x);
    ASSERT_EQ(x, a) << "coset_forward(coset_inverse(x)) != x at n=2^" << k;
}

TEST(Ntt, RoundTripsUpTo2To16) {
    std::mt19937_64 rng(test::seed());
    for (unsigned k = 0; k <= 16; ++k) check_round_trips(rng, k);
}

TEST(SlowNtt, RoundTrips2To20) {
    std::mt19937_64 rng(test::seed());
    check_round_trips(rng, 20);
}

TEST(Ntt, Linearity) {
    std::mt19937_64 rng(test::seed());
    for (unsigned k : {3u, 12u, 14u}) {
        const size_t n = size_t(1) << k;
        auto x = random_vector(rng, n), y = random_vector(rng, n);
        const Fr alpha = Fr::random(rng);
        std::vector<Fr> z(n);
        for (size_t i = 0; i < n; ++i) z[i] = alpha * x[i] + y[i];
        ntt::forward(x);
        ntt::forward(y);
        ntt::forward(z);
        for (size_t i = 0; i < n; ++i) ASSERT_EQ(z[i], alpha * x[i] + y[i]) << "n=" << n << " i=" << i;
    }
}

// Every transform gives bit-identical results whatever the thread count.
TEST(Ntt, ThreadCountDoesNotChangeResults) {
    std::mt19937_64 rng(test::seed());
    using Transform = void (*)(std::span<Fr>);
    const Transform transforms[] = {ntt::forward, ntt::inverse, ntt::coset_forward, ntt::coset_inverse};
    for (unsigned k : {4u, 12u, 13u, 15u}) {
        const auto a = random_vector(rng, size_t(1) << k);
        for (Transform t : transforms) {
            std::vector<Fr> ref = a;
            {
                ScopedNumThreads st(1);
                t(ref);
            }
            for (size_t threads : {2, 3, 5}) {
                ScopedNumThreads st(threads);
                std::vector<Fr> x = a;
                t(x);
                ASSERT_EQ(x, ref) << "k=" << k << " threads=" << threads;
            }
        }
    }
}

// bit_reverse sends element i to rev(i) (written out here bit by bit), is its own inverse,
// and refuses what the transforms refuse.
TEST(Ntt, BitReverse) {
    std::mt19937_64 rng(test::seed());
    for (unsigned k : {0u, 1u, 3u, 10u, 17u}) {
        const size_t n = size_t(1) << k;
        const auto v = random_vector(rng, n);
        auto r = v;
        ntt::bit_reverse(r);
        for (size_t i = 0; i < n; ++i) {
            size_t rev = 0;
            for (unsigned b = 0; b < k; ++b) rev |= ((i >> b) & 1) << (k - 1 - b);
            ASSERT_EQ(r[rev], v[i]) << "k=" << k << " i=" << i;
        }
        ntt::bit_reverse(r);
        ASSERT_EQ(r, v) << "k=" << k;
    }
    std::vector<Fr> bad(3);
    EXPECT_THROW(ntt::bit_reverse(bad), std::invalid_argument);
}

TEST(Ntt, RejectsBadSizes) {
    std::vector<Fr> v(3);
    EXPECT_THROW(ntt::forward(v), std::invalid_argument);
    EXPECT_THROW(ntt::inverse(std::span<Fr>()), std::invalid_argument);
    v.resize(12);
    EXPECT_THROW(ntt::coset_forward(v), std::invalid_argument);
    EXPECT_THROW(ntt::coset_inverse(v), std::invalid_argument);
    EXPECT_EQ(ntt::checked_log_size(size_t(1) << 28, "t"), 28u);
    EXPECT_EQ(ntt::checked_log_size(1, "t"), 0u);
    try {
        ntt::checked_log_size(size_t(1) << 29, "ntt::forward");
        FAIL() << "2^29 accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("2^29"), std::string::npos) << e.what();
    }
    try {
        ntt::checked_log_size(12, "ntt::forward");
        FAIL() << "12 accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("not a power of two"), std::string::npos) << e.what();
    }
}

// Transforms from several application threads while the twiddle cache is cleared.
TEST(Ntt, ConcurrentUseAndCacheClearing) {
    std::mt19937_64 rng(test::seed());
    ScopedNumThreads st(2);
    std::vector<std::vector<Fr>> inputs, expected;
    for (unsigned k : {13u, 14u, 15u, 13u}) {
        inputs.push_back(random_vector(rng, size_t(1) << k));
        expected.push_back(inputs.back());
        ntt::forward(expected.back());
    }
    std::atomic<bool> ok{true};
    std::vector<std::thread> users;
    for (size_t u = 0; u < inputs.size(); ++u) {
        users.emplace_back([&, u] {
            for (int rep = 0; rep < 6; ++rep) {
                auto x = inputs[u];
                ntt::forward(x);
                if (x != expected[u]) ok = false;
            }
        });
    }
    for (int rep = 0; rep < 20; ++rep) {
        ntt::clear_twiddle_cache();
        std::this_thread::sleep_for(std::chrono::microseconds(300));
    }
    for (auto& t : users) t.join();
    EXPECT_TRUE(ok.load());
}

}  // namespace
}  // namespace cuzk
