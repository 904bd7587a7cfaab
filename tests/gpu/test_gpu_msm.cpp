// GPU MSM against the CPU msm (cuzk/msm/msm.hpp) at odd sizes with zeros, ones, points at
// infinity and density bitmaps mixed in; skipped without a GPU. The host self-check
// (GpuMsmHost.*) runs everywhere: it drives the device pipeline's per-element functions
// (msm_detail, the code the kernels run) through a CPU emulation of the pipeline, with
// tiny segment targets so that every carry level is exercised.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/gpu/device.hpp"
#include "cuzk/gpu/msm.hpp"
#include "cuzk/msm/msm.hpp"
#include "support/seed.hpp"

namespace cuzk {
namespace {

using namespace gpu::msm_detail;

// 0, 1, -1, small, full random, and a repeated value (one large bucket in every window).
std::vector<Fr> mixed_scalars(size_t n, std::mt19937_64& rng) {
    std::vector<Fr> s(n);
    const Fr repeated = Fr::random(rng);
    for (auto& x : s) {
        switch (rng() % 8) {
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
            case 4:
                x = repeated;
                break;
            default:
                x = Fr::random(rng);
        }
    }
    return s;
}

template <class Curve>
void put_infinities(std::vector<Affine<Curve>>& bases) {
    for (size_t i = 5; i < bases.size(); i += 11) bases[i] = Affine<Curve>::identity();
}

std::vector<uint64_t> random_density(size_t n, std::mt19937_64& rng) {
    std::vector<uint64_t> d((n + 63) / 64);
    for (auto& w : d) w = rng() & rng();  // ~1/4 set: long gaps
    if (!d.empty()) d[0] |= 1;
    return d;
}

size_t popcount_prefix(const std::vector<uint64_t>& d, size_t n) {
    size_t c = 0;
    for (size_t i = 0; i < n; ++i) c += (d[i / 64] >> (i % 64)) & 1;
    return c;
}

// ---- host emulation of the device pipeline -------------------------------------------

template <class Curve>
Jacobian<Curve> emulate(std::span<const Affine<Curve>> bases, std::span<const Fr> scalars, const uint64_t* density,
                        unsigned c, size_t target) {
    using P = XYZZ<Curve>;
    const size_t n = scalars.size();
    std::vector<uint32_t> prefix;
    if (density) {
        uint32_t acc = 0;
        for (size_t w = 0; w < (n + 63) / 64; ++w) {
            prefix.push_back(acc);
            acc += uint32_t(__builtin_popcountll(density[w]));
        }
    }
    P ones = P::identity();
    std::vector<BigInt<4>> fk;
    std::vector<uint32_t> fb;
    for (size_t i = 0; i < n; ++i) {
        if (density && !((density[i / 64] >> (i % 64)) & 1)) continue;
        const uint32_t b = density ? base_index(density, prefix.data(), i) : uint32_t(i);
        const BigInt<4> k = scalars[i].to_bigint();
        if (k.is_zero()) continue;
        if (k == BigInt<4>::from_u64(1)) {
            ones += bases[b];
            continue;
        }
        fk.push_back(k);
        fb.push_back(b);
    }
    const size_t m = fk.size();
    const unsigned W = num_windows(c);
    const size_t nb = (size_t(1) << (c - 1)) + 1;
    std::vector<P> buckets(W * nb, P::identity());
    const BigInt<5> h = recode_offset(c);
    const unsigned G = 3;  // small groups, so several group passes run
    for (unsigned w0 = 0; w0 < W; w0 += G) {
        const unsigned g = std::min(G, W - w0);
        std::vector<Entry> e;
        for (unsigned wl = 0; wl < g; ++wl)
            for (size_t j = 0; j < m; ++j) e.push_back(make_entry(wl, digit(fk[j], h, w0 + wl, c), fb[j], c));
        std::stable_sort(e.begin(), e.end(), [](const Entry& a, const Entry& b) { return a.key < b.key; });
        if (e.empty()) continue;
        P* gb = buckets.data() + size_t(w0) * nb;
        SegmentPlan sp = plan_segments(e.size(), target, 4);
        std::vector<uint32_t> ck(2 * sp.segments);
        std::vector<P> cp(2 * sp.segments);
        for (size_t s = 0; s < sp.segments; ++s) {
            accumulate_segment<P>(
                s * sp.seg_len, std::min(e.size(), (s + 1) * sp.seg_len), s, [&](size_t i) { return e[i].key; },
                [&](size_t i, P& acc) {
                    if (e[i].val == kSkip) return;
                    const Affine<Curve> p = bases[e[i].val & 0x7fffffffu];
                    acc += (e[i].val >> 31) ? -p : p;
                },
                gb, ck.data(), cp.data());
        }
        while (ck.size() > 64) {
            EXPECT_TRUE(std::is_sorted(ck.begin(), ck.end()));
            SegmentPlan cpl = plan_segments(ck.size(), target, 32);
            std::vector<uint32_t> ck2(2 * cpl.segments);
            std::vector<P> cp2(2 * cpl.segments);
            for (size_t s = 0; s < cpl.segments; ++s) {
                accumulate_segment<P>(
                    s * cpl.seg_len, std::min(ck.size(), (s + 1) * cpl.seg_len), s, [&](size_t i) { return ck[i]; },
                    [&](size_t i, P& acc) { acc += cp[i]; }, gb, ck2.data(), cp2.data());
            }
            ck.swap(ck2);
            cp.swap(cp2);
        }
        for (size_t t = 0; t < ck.size(); ++t) combine_head(t, ck.size(), ck.data(), cp.data(), gb);
    }
    const size_t R = 5;  // not a power of two, not dividing nb
    Jacobian<Curve> acc = Jacobian<Curve>::identity();
    for (unsigned w = W; w-- > 0;) {
        P ws = P::identity();
        for (size_t lo = 0; lo < nb; lo += R) ws += reduce_range(buckets.data() + w * nb, lo, std::min(nb, lo + R));
        for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
        acc += ws.to_jacobian();
    }
    return acc + ones.to_jacobian();
}

TEST(GpuMsmHost, SignedDigitsRecomposeTheScalar) {
    std::mt19937_64 rng(test::seed());
    for (unsigned c = 2; c <= 20; ++c) {
        const BigInt<5> h = recode_offset(c);
        for (int t = 0; t < 20; ++t) {
            Fr k = t == 0 ? -Fr::one() : t == 1 ? Fr::zero() : Fr::random(rng);
            Fr sum = Fr::zero(), pow = Fr::one(), two_c = Fr::from_u64(uint64_t(1) << c);
            for (unsigned w = 0; w < num_windows(c); ++w) {
                const int32_t d = digit(k.to_bigint(), h, w, c);
                ASSERT_GE(d, -(int32_t(1) << (c - 1)));
                ASSERT_LT(d, int32_t(1) << (c - 1));
                sum += (d < 0 ? -Fr::from_u64(uint64_t(-int64_t(d))) : Fr::from_u64(uint64_t(d))) * pow;
                pow *= two_c;
            }
            ASSERT_EQ(sum, k) << "c=" << c;
        }
    }
}

TEST(GpuMsmHost, EntriesAndBaseIndex) {
    std::mt19937_64 rng(test::seed());
    const unsigned c = 7;
    const uint32_t nb = (1u << (c - 1)) + 1;
    auto e = make_entry(2, -5, 1234, c);
    EXPECT_EQ(e.key, 2 * nb + 5);
    EXPECT_EQ(e.val, 1234u | 0x80000000u);
    e = make_entry(1, 64, 7, c);
    EXPECT_EQ(e.key, nb + 64);
    EXPECT_EQ(e.val, 7u);
    e = make_entry(3, 0, 7, c);
    EXPECT_EQ(e.key, 3 * nb);
    EXPECT_EQ(e.val, kSkip);
    auto d = random_density(1000, rng);
    std::vector<uint32_t> prefix;
    uint32_t acc = 0;
    for (auto w : d) {
        prefix.push_back(acc);
        acc += uint32_t(__builtin_popcountll(w));
    }
    for (size_t i = 0; i < 1000; ++i) ASSERT_EQ(base_index(d.data(), prefix.data(), i), popcount_prefix(d, i));
    auto plan = plan_segments(1000, 64, 4);
    EXPECT_EQ(plan.seg_len, 16u);
    EXPECT_EQ(plan.segments, 63u);
    plan = plan_segments(10, 64, 4);
    EXPECT_EQ(plan.seg_len, 4u);
    EXPECT_EQ(plan.segments, 3u);
    EXPECT_EQ(plan_segments(0, 64, 4).segments, 0u);
    EXPECT_EQ(gpu::gpu_msm_window_bits(1u << 20), 14u);  // the H200 sweep's best (msm.hpp)
    EXPECT_EQ(gpu::gpu_msm_window_bits(size_t(1) << 22), 18u);
    EXPECT_EQ(gpu::gpu_msm_window_bits(size_t(1) << 26), 20u);
}

TEST(GpuMsmHost, EmulatedPipelineMatchesCpu) {
    std::mt19937_64 rng(test::seed());
    for (size_t n : {1u, 7u, 300u, 2000u}) {
        auto bases = generator_multiples<G1Curve>(n);
        put_infinities(bases);
        auto scalars = mixed_scalars(n, rng);
        auto expect = msm<G1Curve>(bases, scalars);
        for (unsigned c : {2u, 5u, 9u}) {
            for (size_t target : {1u, 7u, 1000u}) {
                ASSERT_EQ((emulate<G1Curve>(bases, scalars, nullptr, c, target)), expect)
                    << "n=" << n << " c=" << c << " target=" << target;
            }
        }
        auto dens = random_density(n, rng);
        const size_t nb = popcount_prefix(dens, n);
        std::span<const G1Affine> sub(bases.data(), nb);
        MsmOptions o;
        o.density = dens.data();
        ASSERT_EQ((emulate<G1Curve>(sub, scalars, dens.data(), 6, 7)), msm<G1Curve>(sub, scalars, o)) << "n=" << n;
    }
    auto b2 = generator_multiples<G2Curve>(50);
    auto s2 = mixed_scalars(50, rng);
    ASSERT_EQ((emulate<G2Curve>(b2, s2, nullptr, 4, 3)), msm<G2Curve>(b2, s2));
}

// ---- on the device ---------------------------------------------------------------------

#define SKIP_WITHOUT_GPU()                                                   \
    do {                                                                     \
        std::string why;                                                     \
        if (gpu::device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why; \
    } while (0)

template <class Curve>
void check_sizes(std::initializer_list<size_t> sizes, std::initializer_list<unsigned> windows) {
    std::mt19937_64 rng(test::seed());
    for (size_t n : sizes) {
        auto bases = generator_multiples<Curve>(n);
        put_infinities(bases);
        auto scalars = mixed_scalars(n, rng);
        const auto expect = msm<Curve>(bases, scalars);
        gpu::Msm<Curve> g(bases);  // resident, reused below
        for (unsigned c : windows) {
            gpu::GpuMsmOptions o;
            o.window_bits = c;
            MsmStats st;
            o.stats = &st;
            ASSERT_EQ(g.run(scalars, o), expect) << "n=" << n << " c=" << c;
            ASSERT_EQ(st.zeros + st.ones + st.full, n);
        }
        // Density: the first popcount bases, the same resident object.
        auto dens = random_density(n, rng);
        const size_t nb = popcount_prefix(dens, n);
        MsmOptions co;
        co.density = dens.data();
        gpu::GpuMsmOptions o;
        o.density = dens.data();
        ASSERT_EQ(g.run(scalars, o), msm<Curve>(std::span<const Affine<Curve>>(bases.data(), nb), scalars, co))
            << "n=" << n << " with density";
        // Only zeros and ones: the batch path alone.
        std::vector<Fr> zo(n);
        for (auto& x : zo) x = (rng() & 1) ? Fr::one() : Fr::zero();
        ASSERT_EQ(g.run(zo), msm<Curve>(bases, zo)) << "n=" << n << " 0/1";
    }
}

TEST(GpuMsm, G1MatchesCpu) {
    SKIP_WITHOUT_GPU();
    check_sizes<G1Curve>({1, 7, 1000, 65537}, {0, 2, 5, 13});
}

TEST(GpuMsm, G2MatchesCpu) {
    SKIP_WITHOUT_GPU();
    check_sizes<G2Curve>({1, 7, 1000}, {0, 3});
}

TEST(GpuMsm, EmptyAndBadInput) {
    SKIP_WITHOUT_GPU();
    auto bases = generator_multiples<G1Curve>(10);
    gpu::MsmG1 g(bases);
    EXPECT_EQ(g.size(), 10u);
    EXPECT_TRUE(g.run({}).is_identity());
    std::vector<Fr> s(11, Fr::one());
    EXPECT_THROW(g.run(s), std::invalid_argument);
    gpu::GpuMsmOptions o;
    o.window_bits = 21;
    EXPECT_THROW(g.run(std::span<const Fr>(s.data(), 10), o), std::invalid_argument);
    // Fewer scalars than bases: a prefix of the bases.
    std::vector<Fr> s3 = {Fr::from_u64(3), Fr::from_u64(5), Fr::from_u64(7)};
    EXPECT_EQ(g.run(s3), mul(G1Jacobian::generator(), Fr::from_u64(3 + 10 + 21)));
}

// Phase timing: the same result, every phase that ran has a time, and they add up.
TEST(GpuMsm, PhaseTimes) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    auto bases = generator_multiples<G1Curve>(5000);
    auto scalars = mixed_scalars(5000, rng);
    gpu::MsmG1 g(bases);
    gpu::GpuMsmPhases ph;
    gpu::GpuMsmOptions o;
    o.phases = &ph;
    ASSERT_EQ(g.run(scalars, o), msm<G1Curve>(bases, scalars));
    for (float t : {ph.classify, ph.ones, ph.sort, ph.accumulate, ph.carries, ph.reduce}) EXPECT_GT(t, 0.0f);
    const float sum = ph.classify + ph.ones + ph.sort + ph.accumulate + ph.carries + ph.reduce;
    EXPECT_NEAR(ph.total, sum, 1e-3 * ph.total + 1e-3);
}

TEST(SlowGpuMsm, G1Large) {
    SKIP_WITHOUT_GPU();
    check_sizes<G1Curve>({(size_t(1) << 20) + 3}, {0});
}

TEST(GpuMsm, OneShot) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    auto bases = generator_multiples<G1Curve>(333);
    auto scalars = mixed_scalars(333, rng);
    EXPECT_EQ(gpu::msm_g1(bases, scalars), msm<G1Curve>(bases, scalars));
    auto b2 = generator_multiples<G2Curve>(33);
    auto s2 = mixed_scalars(33, rng);
    EXPECT_EQ(gpu::msm_g2(b2, s2), msm<G2Curve>(b2, s2));
}

}  // namespace
}  // namespace cuzk
