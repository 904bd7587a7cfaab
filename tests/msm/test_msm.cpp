// CPU MSM against simple references: the naive sum of scalar multiplications, and the
// closed form sum_i s_i * (i G) = (sum_i s_i i) G, for every window size, with zeros,
// ones, points at infinity and density bitmaps mixed in.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/common/parallel.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/msm/msm.hpp"
#include "support/seed.hpp"

namespace cuzk {
namespace {

// Scalars: a mix of 0, 1, -1, small and random full-size values.
template <class Fr = cuzk::Fr>
std::vector<Fr> mixed_scalars(size_t n, std::mt19937_64& rng) {
    std::vector<Fr> s(n);
    for (auto& x : s) {
        switch (rng() % 6) {
            case 0:
                x = Fr::zero();
                break;
            case 1:
                x = Fr::one();
                break;
            case 2:
                x = -Fr::one();
                break;
            case 3:
                x = Fr::from_u64(rng() % 1000);
                break;
            default:
                x = Fr::random(rng);
        }
    }
    return s;
}

template <class Curve>
void check_closed_form(size_t n, unsigned window_bits, std::mt19937_64& rng) {
    using Fr = typename Curve::Scalar;
    auto bases = generator_multiples<Curve>(n);
    auto scalars = mixed_scalars<Fr>(n, rng);
    Fr expect = Fr::zero();
    for (size_t i = 0; i < n; ++i) expect += scalars[i] * Fr::from_u64(i + 1);
    MsmOptions opt;
    opt.window_bits = window_bits;
    auto got = msm<Curve>(bases, scalars, opt);
    ASSERT_EQ(got, mul(Jacobian<Curve>::generator(), expect)) << "n=" << n << " c=" << window_bits;
}

TEST(Msm, ClosedFormEveryWindowSize) {
    std::mt19937_64 rng(test::seed());
    for (unsigned c = 2; c <= 12; ++c) check_closed_form<G1Curve>(300, c, rng);
    check_closed_form<G2Curve>(100, 3, rng);
    check_closed_form<G2Curve>(100, 0, rng);
}

// BN254: Pippenger over full 254-bit scalars (no GLV split), the same closed form and
// naive sums with points at infinity and a density bitmap.
TEST(Bn254Msm, ClosedFormEveryWindowSize) {
    std::mt19937_64 rng(test::seed());
    for (unsigned c : {0u, 2u, 3u, 5u, 8u, 11u, 13u}) check_closed_form<bn254::G1Curve>(301, c, rng);
    check_closed_form<bn254::G2Curve>(101, 3, rng);
    check_closed_form<bn254::G2Curve>(101, 0, rng);
}

TEST(Bn254Msm, NaiveSumAtOddSizesWithInfinityAndDensity) {
    std::mt19937_64 rng(test::seed());
    for (size_t n : {1u, 3u, 1001u}) {
        auto bases = generator_multiples<bn254::G1Curve>(n);
        for (size_t i = 0; i < n; ++i) {
            if (i % 11 == 5)
                bases[i] = bn254::G1Affine::identity();
            else if (i % 3 == 0)
                bases[i] = mul(bases[i], bn254::Fr::random(rng)).to_affine();
        }
        auto scalars = mixed_scalars<bn254::Fr>(n, rng);
        ASSERT_EQ(bn254::msm_g1(bases, scalars), msm_naive<bn254::G1Curve>(bases, scalars)) << "n=" << n;
        // Every other scalar without a base.
        std::vector<uint64_t> density((n + 63) / 64, 0);
        std::vector<bn254::G1Affine> dense_bases;
        std::vector<bn254::Fr> dense_scalars;
        for (size_t i = 0; i < n; i += 2) {
            density[i / 64] |= uint64_t(1) << (i % 64);
            dense_bases.push_back(bases[i]);
            dense_scalars.push_back(scalars[i]);
        }
        MsmOptions opt;
        opt.density = density.data();
        ASSERT_EQ(bn254::msm_g1(dense_bases, scalars, opt), msm_naive<bn254::G1Curve>(dense_bases, dense_scalars));
    }
}

TEST(Msm, NaiveSumAtOddSizesWithZerosOnesAndInfinity) {
    std::mt19937_64 rng(test::seed());
    for (size_t n : {0u, 1u, 2u, 3u, 1000u, 4097u}) {
        auto bases = generator_multiples<G1Curve>(n);
        // Random multiples instead of i*G, and some points at infinity.
        for (size_t i = 0; i < n; ++i) {
            if (i % 11 == 5)
                bases[i] = G1Affine::identity();
            else if (i % 3 == 0)
                bases[i] = mul(bases[i], Fr::random(rng)).to_affine();
        }
        auto scalars = mixed_scalars(n, rng);
        MsmStats stats;
        MsmOptions opt;
        opt.stats = &stats;
        auto got = msm<G1Curve>(bases, scalars, opt);
        ASSERT_EQ(got, msm_naive<G1Curve>(bases, scalars)) << "n=" << n;
        ASSERT_EQ(stats.zeros + stats.ones + stats.full, n);
    }
}

TEST(Msm, DensitySelectsWhichScalarsHaveBases) {
    std::mt19937_64 rng(test::seed());
    const size_t n = 777;
    auto scalars = mixed_scalars(n, rng);
    std::vector<uint64_t> density((n + 63) / 64, 0);
    std::vector<G1Affine> dense_bases;
    std::vector<Fr> dense_scalars;
    auto all = generator_multiples<G1Curve>(n);
    for (size_t i = 0; i < n; ++i) {
        if (rng() % 3) {
            density[i / 64] |= uint64_t(1) << (i % 64);
            dense_bases.push_back(all[i]);
            dense_scalars.push_back(scalars[i]);
        }
    }
    MsmOptions opt;
    opt.density = density.data();
    auto got = msm<G1Curve>(dense_bases, scalars, opt);
    ASSERT_EQ(got, msm_naive<G1Curve>(dense_bases, dense_scalars));
    // A base count that does not match the density is an error that names the counts.
    std::vector<G1Affine> short_bases(dense_bases.begin(), dense_bases.end() - 1);
    EXPECT_THROW(msm<G1Curve>(short_bases, scalars, opt), std::invalid_argument);
    EXPECT_THROW(msm<G1Curve>(std::span<const G1Affine>(all).subspan(1), scalars), std::invalid_argument);
}

TEST(Msm, BatchAffineSumHandlesDoublingAndCancellation) {
    std::mt19937_64 rng(test::seed());
    auto base = generator_multiples<G1Curve>(200);
    std::vector<G1Affine> pts;
    Jacobian<G1Curve> expect = Jacobian<G1Curve>::identity();
    for (size_t i = 0; i < 200; ++i) {
        pts.push_back(base[i]);
        expect += base[i];
        if (i % 4 == 0) {  // P, P: a doubling in the first round
            pts.push_back(base[i]);
            expect += base[i];
        }
        if (i % 4 == 2) pts.push_back(-pts.back());  // P, -P: cancellation
        if (i % 4 == 2) expect -= Jacobian<G1Curve>::from_affine(base[i]);
        if (i % 7 == 0) pts.push_back(G1Affine::identity());
    }
    ASSERT_EQ(sum_affine<G1Curve>(pts), expect);
}

// Equal scalars send every point of a window to one bucket, so the batch-affine buckets
// meet P + P (doubling), P + (-P) (cancellation) and deferred same-bucket additions.
TEST(Msm, RepeatedAndOppositeBasesInOneBucket) {
    std::mt19937_64 rng(test::seed());
    auto g = generator_multiples<G1Curve>(5);
    std::vector<G1Affine> bases;
    for (int i = 0; i < 700; ++i) {
        const G1Affine& p = g[size_t(rng() % 5)];
        bases.push_back(rng() % 3 == 0 ? -p : p);
        if (i % 50 == 0) bases.push_back(G1Affine::identity());
    }
    for (const Fr& s : {Fr::random(rng), Fr::from_u64(3), -Fr::from_u64(2)}) {
        std::vector<Fr> scalars(bases.size(), s);
        for (unsigned c : {0u, 4u, 9u, 13u, 16u}) {
            MsmOptions opt;
            opt.window_bits = c;
            ASSERT_EQ(msm<G1Curve>(bases, scalars, opt), msm_naive<G1Curve>(bases, scalars)) << "c=" << c;
        }
    }
}

TEST(Msm, ThreadCountDoesNotChangeTheResult) {
    std::mt19937_64 rng(test::seed());
    auto bases = generator_multiples<G1Curve>(5000);
    std::vector<Fr> scalars(bases.size());
    for (auto& s : scalars) s = Fr::random(rng);
    Jacobian<G1Curve> one_thread, two_threads;
    {
        ScopedNumThreads t(1);
        one_thread = msm<G1Curve>(bases, scalars);
    }
    {
        ScopedNumThreads t(4);
        two_threads = msm<G1Curve>(bases, scalars);
    }
    ASSERT_EQ(one_thread, two_threads);
}

// k = lo + hi z with lo, hi < z, at the edges (0, z - 1, z, r - 1) and at random.
TEST(Msm, GlvSplitRecombines) {
    std::mt19937_64 rng(test::seed());
    using B = BigInt<4>;
    const B z = msm_detail::glv_z();
    EXPECT_EQ(z.num_bits(), 128u);
    B one = B::from_u64(1), z1, rm1;
    B::sub(z1, z, one);
    B::sub(rm1, Fr::kP, one);
    std::vector<B> ks = {B::zero(), one, z1, z, rm1};
    for (int i = 0; i < 2000; ++i) ks.push_back(Fr::random(rng).to_bigint());
    const Fr zf = Fr::from_bigint_unchecked(z);
    for (const B& k : ks) {
        B lo, hi;
        msm_detail::glv_split(k, lo, hi);
        ASSERT_TRUE(lo < z && hi < z) << "k=" << Fr::from_bigint_unchecked(k).to_hex();
        ASSERT_EQ(Fr::from_bigint_unchecked(lo) + Fr::from_bigint_unchecked(hi) * zf, Fr::from_bigint_unchecked(k));
    }
}

// Every plan covers the scalars (k + H fits, so the digits are exact), respects the width
// cap, and has a top window whose digits stay inside its buckets; a plan whose H leaves
// no room is rejected.
TEST(Msm, WindowPlansFitTheScalars) {
    using B = BigInt<4>;
    B z1, rm1;
    B::sub(z1, msm_detail::glv_z(), B::from_u64(1));
    B::sub(rm1, Fr::kP, B::from_u64(1));
    for (const B& kmax : {z1, rm1}) {
        for (size_t points : {size_t(1), size_t(7), size_t(1000), size_t(1) << 17, size_t(1) << 19, size_t(1) << 24}) {
            for (size_t threads : {1u, 2u, 16u}) {
                for (unsigned cap : {0u, 2u, 3u, 7u, 12u, 15u, 16u, 17u, 24u}) {
                    auto plan = msm_detail::plan_windows(points, kmax, cap, threads);
                    ASSERT_FALSE(plan.widths.empty());
                    ASSERT_TRUE(msm_detail::plan_fits(plan.widths, kmax));
                    unsigned bits = 0;
                    for (unsigned c : plan.widths) {
                        ASSERT_TRUE(c >= 1 && c <= (cap ? cap : 20u)) << c;
                        bits += c;
                    }
                    ASSERT_GT(bits, kmax.num_bits());
                    ASSERT_LT(plan.top_digit_max, uint64_t(1) << (plan.widths.back() - 1));
                    ASSERT_GE(plan.chunks, 1u);
                }
            }
        }
    }
    // 64 windows of 2 bits over 128-bit scalars: H = (2/3) 2^128 leaves no room.
    EXPECT_FALSE(msm_detail::plan_fits(std::vector<unsigned>(64, 2), z1));
    EXPECT_TRUE(msm_detail::plan_fits(std::vector<unsigned>(65, 2), z1));
}

// The MSM at odd sizes under many window plans (mixed widths, narrow and wide top
// windows, chunked tasks on 2 threads), G1 and G2, with the extreme scalars of the GLV
// split mixed in: r - 1, z - 1, z, z + 1.
TEST(Msm, NaiveSumUnderManyWindowPlans) {
    std::mt19937_64 rng(test::seed());
    using B = BigInt<4>;
    B z = msm_detail::glv_z(), z1, z2;
    B::sub(z1, z, B::from_u64(1));
    B::add(z2, z, B::from_u64(1));
    const Fr edges[] = {-Fr::one(), Fr::from_bigint_unchecked(z1), Fr::from_bigint_unchecked(z),
                        Fr::from_bigint_unchecked(z2)};
    for (size_t threads : {1u, 2u}) {
        ScopedNumThreads t(threads);
        for (size_t n : {1u, 2u, 5u, 64u, 1000u, 4097u}) {
            auto bases = generator_multiples<G1Curve>(n);
            for (size_t i = 0; i < n; i += 3) bases[i] = mul(bases[i], Fr::random(rng)).to_affine();
            auto scalars = mixed_scalars(n, rng);
            for (size_t i = 0; i < n; i += 7) scalars[i] = edges[(i / 7) % 4];
            const auto expect = msm_naive<G1Curve>(bases, scalars);
            for (unsigned c : {0u, 2u, 3u, 5u, 9u, 13u, 16u, 17u}) {
                if (n > 1000 && c == 2) continue;  // slow and covered at smaller n
                MsmOptions opt;
                MsmStats stats;
                opt.window_bits = c;
                opt.stats = &stats;
                ASSERT_EQ(msm<G1Curve>(bases, scalars, opt), expect)
                    << "n=" << n << " c=" << c << " threads=" << threads;
                if (stats.full) {
                    EXPECT_LE(stats.window_bits, c ? c : 20u);
                }
            }
        }
    }
    for (size_t n : {3u, 200u}) {
        auto bases = generator_multiples<G2Curve>(n);
        auto scalars = mixed_scalars(n, rng);
        for (size_t i = 0; i < n; i += 5) scalars[i] = edges[(i / 5) % 4];
        const auto expect = msm_naive<G2Curve>(bases, scalars);
        for (unsigned c : {0u, 4u, 11u}) {
            MsmOptions opt;
            opt.window_bits = c;
            ASSERT_EQ(msm<G2Curve>(bases, scalars, opt), expect) << "G2 n=" << n << " c=" << c;
        }
    }
}

}  // namespace
}  // namespace cuzk
