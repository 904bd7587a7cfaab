// GPU MSM against the CPU msm (cuzk/msm/msm.hpp) at odd sizes with zeros, ones, points at
// infinity and density bitmaps mixed in; skipped without a GPU. The host self-check
// (GpuMsmHost.*) runs everywhere: it drives the device pipeline's per-element functions
// (msm_detail, the code the kernels run) through a CPU emulation of the pipeline, with
// tiny segment targets so that every carry level is exercised.
#include <gtest/gtest.h>
#if CUZK_HAVE_CUDA
#include <cuda_runtime.h>
#endif

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/gpu/device.hpp"
#include "cuzk/gpu/host_memory.hpp"
#include "cuzk/gpu/msm.hpp"
#include "cuzk/gpu/testing.hpp"
#include "cuzk/msm/msm.hpp"
#include "gpu/msm/msm_detail.hpp"
#include "support/mixed_scalars.hpp"
#include "support/seed.hpp"

namespace cuzk {
namespace {

using namespace gpu::msm_detail;

std::vector<Fr> mixed_scalars(size_t n, std::mt19937_64& rng) { return test::mixed_scalars<Fr>(n, rng); }

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

// Entry i's point: the signed base of round 0, or the list a round wrote.
template <class Curve>
struct EntryPoints {
    std::span<const Affine<Curve>> bases;
    const std::vector<uint32_t>& vals;
    const std::vector<Affine<Curve>>* list;
    Affine<Curve> operator()(size_t i) const {
        if (list) return (*list)[i];
        if (vals[i] == kSkip) return Affine<Curve>::identity();
        const Affine<Curve> p = bases[vals[i] & 0x7fffffffu];
        return (vals[i] >> 31) ? -p : p;
    }
    bool x(size_t i, typename Curve::Field& x) const {
        const Affine<Curve> p = (*this)(i);
        x = p.x;
        return p.infinity;
    }
};

// Batch-affine rounds over a sorted entry list, as the device runs them (K pairs a
// thread): the list shrinks, stays sorted, and the points become explicit.
template <class Curve>
void emulate_pair_rounds(std::span<const Affine<Curve>> bases, std::vector<uint32_t>& keys,
                         std::vector<Affine<Curve>>& pts, const std::vector<uint32_t>& vals, int rounds, size_t K) {
    using F = typename Curve::Field;
    bool explicit_pts = false;
    for (int r = 0; r < rounds && keys.size() >= 2; ++r) {
        const size_t len = keys.size(), slots = pair_slots(len);
        std::vector<uint32_t> before(slots);
        uint32_t acc = 0;
        for (size_t j = 0; j < slots; ++j) {
            before[j] = acc;
            acc += slot_splits(keys.data(), len, j);
        }
        std::vector<uint32_t> ok(slots + acc, 0xdeadbeefu);
        std::vector<Affine<Curve>> op(slots + acc);
        std::vector<F> cells(slots);
        const EntryPoints<Curve> point{bases, vals, explicit_pts ? &pts : nullptr};
        const size_t threads = (slots + K - 1) / K;  // strided, K slots each, as on the device
        for (size_t t = 0; t < threads; ++t)
            pair_round<Curve>(
                t, threads, len, keys.data(), point, [&](size_t jj) -> F& { return cells[jj]; }, before.data(),
                ok.data(), op.data());
        EXPECT_TRUE(std::is_sorted(ok.begin(), ok.end())) << "round " << r;  // every cell written, in order
        EXPECT_EQ(std::count(ok.begin(), ok.end(), 0xdeadbeefu), 0);
        keys.swap(ok);
        pts.swap(op);
        explicit_pts = true;
    }
    if (!explicit_pts) {
        const EntryPoints<Curve> signed_base{bases, vals, nullptr};
        pts.clear();
        for (size_t i = 0; i < keys.size(); ++i) pts.push_back(signed_base(i));
    }
}

// rounds > 0: batch-affine rounds of K pairs a thread before the accumulation.
template <class Curve>
Jacobian<Curve> emulate(std::span<const Affine<Curve>> bases, std::span<const Fr> scalars, const uint64_t* density,
                        unsigned c, size_t target, int rounds = 0, size_t K = 1) {
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
        std::vector<uint32_t> keys, vals;
        for (const Entry& x : e) {
            keys.push_back(x.key);
            vals.push_back(x.val);
        }
        std::vector<Affine<Curve>> pts;
        emulate_pair_rounds<Curve>(bases, keys, pts, vals, rounds, K);
        SegmentPlan sp = plan_segments(keys.size(), target, 4);
        std::vector<uint32_t> ck(2 * sp.segments);
        std::vector<P> cp(2 * sp.segments);
        for (size_t s = 0; s < sp.segments; ++s) {
            accumulate_segment<P>(
                s * sp.seg_len, std::min(keys.size(), (s + 1) * sp.seg_len), s, [&](size_t i) { return keys[i]; },
                [&](size_t i, P& acc) { acc += pts[i]; }, gb, ck.data(), cp.data());
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
        for (size_t lo = 0; lo < nb; lo += R) {
            const P part = reduce_range(buckets.data() + w * nb, lo, std::min(nb, lo + R));
            // The running sums in the redundant form (the device's default) give the same point.
            EXPECT_EQ((reduce_range<P, true>(buckets.data() + w * nb, lo, std::min(nb, lo + R))), part);
            ws += part;
        }
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

// The split's digits (k + h once, shifted a window at a time) are digit()'s, for every
// window size a table or a plain run takes and past the top window.
TEST(GpuMsmHost, DigitWalkerMatchesDigit) {
    std::mt19937_64 rng(test::seed());
    for (unsigned c = 2; c <= 26; ++c) {  // (tables go to 26 bits, plain runs to kMaxWindowBits)
        const BigInt<5> h = recode_offset(c);
        for (int t = 0; t < 50; ++t) {
            const Fr k = t == 0 ? -Fr::one() : t == 1 ? Fr::zero() : Fr::random(rng);
            DigitWalker digits(k.to_bigint(), h, c);
            for (unsigned w = 0; w <= num_windows(c) + 1; ++w)
                ASSERT_EQ(digits.next(), digit(k.to_bigint(), h, w, c)) << "c=" << c << " w=" << w;
        }
    }
}

// Signed base-B digits (tables of base m 2^s): at the fewest windows base_windows gives,
// every digit has |d| <= B / 2, the digits recompose k (mod r), nothing is left above the
// top window, and one window fewer does not cover (r - 1) / 2 or (r + 1) / 2.
TEST(GpuMsmHost, BaseDigitsRecomposeTheScalar) {
    std::mt19937_64 rng(test::seed());
    const BigInt<4> r = Fr::kP;
    struct Case {
        uint32_t odd;
        unsigned shift, windows;
    };
    // windows: the least W with (B / 2) (B^W - 1) / (B - 1) >= (r - 1) / 2, worked out with
    // Python's integers (9 2^20 covers it at 11 windows by 0.8%, 45 2^20 at 10 by 4.4%).
    for (const Case t : {Case{9, 20, 11}, Case{45, 20, 10}, Case{3, 24, 10}, Case{5, 19, 12}, Case{3, 4, 46},
                         Case{255, 4, 22}, Case{127, 23, 9}}) {
        const unsigned W = base_windows(t.odd, t.shift, r);
        ASSERT_EQ(W, t.windows) << t.odd << " 2^" << t.shift;
        const int64_t B = int64_t(t.odd) << t.shift;
        const Fr Bf = Fr::from_u64(uint64_t(B));
        const Fr half = -Fr::from_u64(2).inverse();  // (r - 1) / 2
        for (int i = 0; i < 40; ++i) {
            const Fr k = i == 0   ? Fr::zero()
                         : i == 1 ? -Fr::one()
                         : i == 2 ? half
                         : i == 3 ? half + Fr::one()
                         : i == 4 ? Fr::one()
                                  : Fr::random(rng);
            BaseDigitWalker digits(k.to_bigint(), r, t.odd, t.shift);
            Fr sum = Fr::zero(), pow = Fr::one();
            for (unsigned w = 0; w < W; ++w) {
                const int32_t d = digits.next();
                ASSERT_LE(std::abs(int64_t(d)), B / 2) << t.odd << " 2^" << t.shift << " w=" << w;
                sum += (d < 0 ? -Fr::from_u64(uint64_t(-int64_t(d))) : Fr::from_u64(uint64_t(d))) * pow;
                pow *= Bf;
            }
            ASSERT_EQ(sum, k) << t.odd << " 2^" << t.shift << " i=" << i;
            for (unsigned w = 0; w < 8; ++w) ASSERT_EQ(digits.k[w], 0u) << "left above the top window, i=" << i;
        }
        // One window fewer leaves the largest |k| uncovered: something remains above it.
        if (W > 1) {
            bool left = false;
            for (const Fr k : {half, half + Fr::one()}) {
                BaseDigitWalker digits(k.to_bigint(), r, t.odd, t.shift);
                for (unsigned w = 0; w + 1 < W; ++w) digits.next();
                for (unsigned w = 0; w < 8; ++w) left = left || digits.k[w] != 0;
            }
            EXPECT_TRUE(left) << t.odd << " 2^" << t.shift;
        }
    }
    EXPECT_EQ(base_windows(1, 20, r), 0u);   // m = 1: the power-of-two tables
    EXPECT_EQ(base_windows(4, 20, r), 0u);   // even
    EXPECT_EQ(base_windows(257, 4, r), 0u);  // m too large
    EXPECT_EQ(base_windows(3, 30, r), 0u);   // B >= 2^31
    EXPECT_EQ(base_windows(3, 0, r), 0u);    // B odd
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
    EXPECT_EQ(gpu::gpu_msm_window_bits(size_t(1) << 24), 20u);
    EXPECT_EQ(gpu::gpu_msm_window_bits(size_t(1) << 25), 20u);
    EXPECT_EQ(gpu::gpu_msm_window_bits(size_t(1) << 26), 22u);  // 12 windows, not 13 (H200 sweep)
    EXPECT_EQ(gpu::gpu_msm_window_bits(size_t(1) << 27), 22u);
    EXPECT_EQ(gpu::gpu_msm_window_bits(size_t(1) << 30), gpu::kMaxWindowBits);
    // With a precomputed table (one reduction): wider windows, fewer of them.
    EXPECT_EQ(gpu::gpu_msm_precomputed_window_bits(1u << 20), 18u);
    EXPECT_EQ(gpu::gpu_msm_precomputed_window_bits(size_t(1) << 22), 20u);
    EXPECT_EQ(gpu::gpu_msm_precomputed_window_bits(size_t(1) << 24), 22u);
    EXPECT_EQ(gpu::gpu_msm_precomputed_window_bits(size_t(1) << 26), 24u);
    for (size_t m : {size_t(1), size_t(1000), size_t(1) << 30}) {
        const unsigned c = gpu::gpu_msm_precomputed_window_bits(m);
        EXPECT_GE(c, 4u);
        EXPECT_LE(c, 26u);
    }
}

// The table chooser over bases m 2^s as well: never costlier by its own model than the
// power-of-two table, a table that covers the scalars with buckets in 25 key bits, and at
// 2^24 / 2^26 the bases the model prefers (one window fewer than 2^22 / 2^24 tables).
TEST(GpuMsmHost, TableChooserPrefersFewerWindowsWhereTheModelSays) {
    using gpu::msm_detail::TableBase;
    for (unsigned lg = 0; lg <= 30; ++lg) {
        const size_t m = size_t(1) << lg;
        const TableBase t = gpu::gpu_msm_precomputed_table(m);
        const unsigned c = gpu::gpu_msm_precomputed_window_bits(m);
        ASSERT_GT(t.windows, 0u) << "2^" << lg;
        EXPECT_LE(t.buckets(), 1u << 25) << "2^" << lg;
        EXPECT_LE(gpu::msm_detail::table_cost(m, t.windows, t.buckets()),
                  gpu::msm_detail::table_cost(m, gpu::msm_detail::num_windows(c), uint64_t(1) << (c - 1)))
            << "2^" << lg;
        if (t.odd == 1) {
            EXPECT_EQ(t.shift, c) << "2^" << lg;
            EXPECT_EQ(t.windows, gpu::msm_detail::num_windows(c)) << "2^" << lg;
        } else {
            EXPECT_EQ(t.windows, gpu::msm_detail::base_windows(t.odd, t.shift, Fr::kP)) << "2^" << lg;
            EXPECT_GE(t.shift, 4u);
        }
    }
    const TableBase t24 = gpu::gpu_msm_precomputed_table(size_t(1) << 24);
    EXPECT_EQ(t24.windows, 11u);
    EXPECT_LT(t24.buckets(), 1u << 23);
    const TableBase t26 = gpu::gpu_msm_precomputed_table(size_t(1) << 26);
    EXPECT_EQ(t26.windows, 10u);
    EXPECT_GT(t26.buckets(), 1u << 24);
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

// Batch-affine rounds: every K, any number of rounds, with the doubling and opposite-
// point cases that i*G bases and repeated scalars produce, equal the CPU msm.
TEST(GpuMsmHost, EmulatedAffineRoundsMatchCpu) {
    std::mt19937_64 rng(test::seed());
    for (size_t n : {1, 2, 7, 300, 1000}) {
        auto bases = generator_multiples<G1Curve>(n);
        put_infinities(bases);
        const auto scalars = mixed_scalars(n, rng);
        const auto expect = msm<G1Curve>(bases, scalars);
        for (unsigned c : {3u, 6u})
            for (int rounds : {1, 2, 30})
                for (size_t K : {1, 3, 64})
                    ASSERT_EQ((emulate<G1Curve>(bases, scalars, nullptr, c, 7, rounds, K)), expect)
                        << "n=" << n << " c=" << c << " rounds=" << rounds << " K=" << K;
    }
}

// One round over a crafted list: P+P (doubling), P+(-P), identities, a plain sum, a
// split slot and an odd tail, each against the Jacobian sum; one batch of all slots.
TEST(GpuMsmHost, PairRoundCases) {
    using A = G1Affine;
    const auto g = generator_multiples<G1Curve>(8);  // i*G, i = 1..8
    const A inf = A::identity();
    const std::vector<uint32_t> keys = {1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8};
    const std::vector<A> in = {g[2], g[2], g[3], -g[3], inf, g[4], g[5], inf, g[0], g[6], g[1], g[7], g[3]};
    const size_t len = keys.size(), slots = pair_slots(len);
    ASSERT_EQ(slots, 7u);
    std::vector<uint32_t> before(slots);
    uint32_t acc = 0;
    for (size_t j = 0; j < slots; ++j) {
        before[j] = acc;
        acc += slot_splits(keys.data(), len, j);
    }
    ASSERT_EQ(acc, 1u);  // slot 5 (keys 6, 7)
    std::vector<uint32_t> ok(slots + acc);
    std::vector<A> op(slots + acc);
    std::vector<Fp> cells(slots);
    const std::vector<uint32_t> want_keys = {1, 2, 3, 4, 5, 6, 7, 8};
    const std::vector<G1Jacobian> want = {G1Jacobian::from_affine(g[2]).dbl(),
                                          G1Jacobian::identity(),
                                          G1Jacobian::from_affine(g[4]),
                                          G1Jacobian::from_affine(g[5]),
                                          G1Jacobian::from_affine(g[0]) + G1Jacobian::from_affine(g[6]),
                                          G1Jacobian::from_affine(g[1]),
                                          G1Jacobian::from_affine(g[7]),
                                          G1Jacobian::from_affine(g[3])};
    struct Points {
        const std::vector<A>& in;
        A operator()(size_t i) const { return in[i]; }
        bool x(size_t i, Fp& x) const {
            x = in[i].x;
            return in[i].infinity;
        }
    };
    for (size_t threads : {size_t(1), size_t(2), slots}) {  // one batch, two, one slot each
        std::fill(ok.begin(), ok.end(), 0u);
        for (size_t t = 0; t < threads; ++t)
            pair_round<G1Curve>(
                t, threads, len, keys.data(), Points{in}, [&](size_t j) -> Fp& { return cells[j]; }, before.data(),
                ok.data(), op.data());
        EXPECT_EQ(ok, want_keys) << threads << " threads";
        for (size_t i = 0; i < want.size(); ++i) {
            EXPECT_EQ(G1Jacobian::from_affine(op[i]), want[i]) << "output " << i << ", " << threads << " threads";
            EXPECT_TRUE(op[i].is_on_curve()) << "output " << i;
        }
        EXPECT_TRUE(op[1].infinity);
    }
}

// ---- on the device ---------------------------------------------------------------------

#define SKIP_WITHOUT_GPU()                                                   \
    do {                                                                     \
        std::string why;                                                     \
        if (gpu::device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why; \
    } while (0)

// The device keeps the last density it was given and copies none when a run brings the
// same words (every proof of a circuit does): runs with the density changed in place (same
// address), with fewer scalars inside the same last word, and back again must each use
// their own bits, equal to the CPU.
TEST(GpuMsm, DensityKeptOnTheDeviceOnlyForTheSameWords) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    const size_t n = 1000;
    const auto bases = generator_multiples<G1Curve>(n);
    gpu::Msm<G1Curve> g(bases);
    auto scalars = mixed_scalars(n, rng);
    auto dens = random_density(n, rng);
    auto check = [&](size_t count, const char* what) {
        const std::span<const Fr> s(scalars.data(), count);
        MsmOptions co;
        co.density = dens.data();
        gpu::GpuMsmOptions o;
        o.density = dens.data();
        const size_t nb = popcount_prefix(dens, count);
        ASSERT_EQ(g.run(s, o), msm<G1Curve>(std::span<const G1Affine>(bases.data(), nb), s, co)) << what;
    };
    ASSERT_NO_FATAL_FAILURE(check(n, "first"));
    ASSERT_NO_FATAL_FAILURE(check(n, "the same words again"));
    dens[3] ^= 0x00f0f0f0f0f0f0f0ull;  // in place: same pointer, other bits
    ASSERT_NO_FATAL_FAILURE(check(n, "changed in place"));
    dens.back() |= uint64_t(1) << ((n - 3) % 64);  // a bit among the last word's scalars
    ASSERT_NO_FATAL_FAILURE(check(n, "last word changed"));
    ASSERT_NO_FATAL_FAILURE(check(n - 5, "fewer scalars, same words"));
    ASSERT_NO_FATAL_FAILURE(check(n, "all scalars again"));
}

#if CUZK_HAVE_CUDA
// The run-scratch estimate that the CUDA backend's residency decisions use covers what a
// run over a density takes: 2^25 scalars (their classification, ~74 B each, 2.5 GB, well
// above the per-SM sums), one in 64 with a base (2^19), those full, the rest 0. The
// classification is sized by the scalars read, not the bases (the H200 ran out of memory
// at a 24 GiB budget when B_G1's 33M bases over a 130M z were judged by the bases).
TEST(GpuMsm, RunScratchEstimateCoversTheScalarsReadThroughADensity) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    const size_t n = size_t(1) << 25, nb = n / 64;
    std::vector<uint64_t> dens(n / 64);
    std::vector<Fr> scalars(n, Fr::zero());
    for (size_t w = 0; w < dens.size(); ++w) {
        const unsigned bit = unsigned(rng() % 64);
        dens[w] = uint64_t(1) << bit;
        scalars[64 * w + bit] = Fr::random(rng);
    }
    const auto bases = generator_multiples<G1Curve>(nb);
    gpu::Msm<G1Curve> g(bases);
    g.use_scratch(gpu::make_msm_scratch());  // its own, empty: what the run takes is all it holds
    gpu::GpuMsmOptions o;
    o.density = dens.data();
    MsmOptions co;
    co.density = dens.data();
    ASSERT_EQ(g.run(scalars, o), msm<G1Curve>(bases, scalars, co));
    const size_t took = gpu::msm_scratch_bytes(*g.scratch());
    int sms = 0;
    ASSERT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), cudaSuccess);
    EXPECT_GE(gpu::msm_run_scratch_bytes<G1Curve>(nb, sms, 0, {}, n), took);
    EXPECT_LT(gpu::msm_run_scratch_bytes<G1Curve>(nb, sms, 0, {}), took) << "the bases alone cover it: no test";
    // Fewer scalars than bases: the bases decide.
    EXPECT_EQ(gpu::msm_run_scratch_bytes<G1Curve>(nb, sms, 0, {}, nb / 2),
              gpu::msm_run_scratch_bytes<G1Curve>(nb, sms));
}
#endif

// A PoRep sector's MSMs see the same bases with a different split of 0 / 1 / full scalars
// each partition; a run that grew a scratch buffer freed the old one, and that cudaFree
// waited for the whole device (the next partition's inputs being copied on another stream:
// 50-146 ms stalls). After a run that sized the scratch, none grows: more full scalars, all
// full, mostly 1s (fixed window size, so the bucket sets stay as they are). Results equal
// the CPU's.
TEST(GpuMsm, LaterRunsGrowNoScratch) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    const size_t n = size_t(1) << 15;
    const auto bases = generator_multiples<G1Curve>(n);
    gpu::Msm<G1Curve> g(bases);
    // Full random with probability full_pct %, else 1 or 0 alike.
    auto split = [&](unsigned full_pct) {
        std::vector<Fr> s(n);
        for (auto& x : s) {
            const unsigned r = unsigned(rng() % 200);
            x = r < 2 * full_pct ? Fr::random(rng) : (r & 1) ? Fr::one() : Fr::zero();
        }
        return s;
    };
    gpu::GpuMsmOptions o;
    o.window_bits = 13;
    const auto first = split(30);
    ASSERT_EQ(g.run(first, o), msm<G1Curve>(bases, first)) << "30% full";
    for (unsigned pct : {60u, 100u, 5u, 31u}) {
        const auto s = split(pct);
        ASSERT_EQ(g.run(s, o), msm<G1Curve>(bases, s)) << pct << "% full";
        EXPECT_EQ(g.scratch_growths(), 0u) << pct << "% full after 30%";
    }
    // The count is real: a larger window's bucket sets grow.
    o.window_bits = 15;
    ASSERT_EQ(g.run(first, o), msm<G1Curve>(bases, first)) << "c = 15";
    EXPECT_GT(g.scratch_growths(), 0u) << "c = 13 -> 15 must grow the buckets";
}

// The full scalars compacted in place (the default) or into copies give the CPU's sum, with
// and without a density, on one object in turn (the copies' buffers are allocated by the
// first run that wants them and kept).
TEST(GpuMsm, CompactionInPlaceAndByCopiesAgree) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    const size_t n = 5000;
    const auto bases = generator_multiples<G1Curve>(n);
    gpu::Msm<G1Curve> g(bases);
    const auto s = mixed_scalars(n, rng);
    auto dens = random_density(n, rng);
    const size_t nb = popcount_prefix(dens, n);
    MsmOptions co;
    co.density = dens.data();
    const auto want = msm<G1Curve>(bases, s);
    const auto want_dens = msm<G1Curve>(std::span<const G1Affine>(bases.data(), nb), s, co);
    for (bool in_place : {false, true, false}) {
        gpu::GpuMsmOptions o;
        gpu::MsmTuning tuning;
        o.tuning = &tuning;
        tuning.compact_in_place = in_place;
        ASSERT_EQ(g.run(s, o), want) << "in place " << in_place;
        o.density = dens.data();
        ASSERT_EQ(g.run(s, o), want_dens) << "in place " << in_place << ", density";
    }
}

// Msm objects given one MsmScratch (as the CUDA backend gives all its resident sets) run in
// the same buffers: a G1 set, a smaller G1 set and a G2 set interleaved, each sum equal to
// the CPU's; once the largest has run, the smaller G1 set runs in its buffers without
// growing any, and after one round nobody grows anything.
TEST(GpuMsm, SharedScratchGivesTheSameSums) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    const auto big_bases = generator_multiples<G1Curve>(20000);
    auto small_bases = generator_multiples<G1Curve>(3000);
    put_infinities(small_bases);
    const auto g2_bases = generator_multiples<G2Curve>(500);
    gpu::Msm<G1Curve> big(big_bases), small(small_bases);
    gpu::Msm<G2Curve> g2(g2_bases);
    EXPECT_THROW(big.use_scratch(nullptr), std::invalid_argument);
    const auto shared = gpu::make_msm_scratch();
    for (auto* m : {&big, &small}) m->use_scratch(shared);
    g2.use_scratch(shared);
    EXPECT_EQ(big.scratch(), shared);
    EXPECT_EQ(g2.scratch(), shared);
    for (int round = 0; round < 2; ++round) {
        const std::string r = " (round " + std::to_string(round) + ")";
        auto s = mixed_scalars(big_bases.size(), rng);
        ASSERT_EQ(big.run(s), msm<G1Curve>(big_bases, s)) << "big" << r;
        if (round == 1) {
            EXPECT_EQ(big.scratch_growths(), 0u) << "big" << r;
        }
        s = mixed_scalars(small_bases.size(), rng);
        ASSERT_EQ(small.run(s), msm<G1Curve>(small_bases, s)) << "small" << r;
        EXPECT_EQ(small.scratch_growths(), 0u) << "small after big" << r;
        s = mixed_scalars(g2_bases.size(), rng);
        ASSERT_EQ(g2.run(s), msm<G2Curve>(g2_bases, s)) << "G2" << r;
        if (round == 1) {
            EXPECT_EQ(g2.scratch_growths(), 0u) << "G2" << r;
        }
    }
}

// On a resident object over `bases`: a random density (the first popcount bases), then
// scalars that are only 0 and 1 (the batch path alone); `what` names the case.
template <class Curve>
void check_density_and_zero_one(gpu::Msm<Curve>& g, const std::vector<Affine<Curve>>& bases,
                                const std::vector<Fr>& scalars, std::mt19937_64& rng, const std::string& what) {
    const size_t n = bases.size();
    auto dens = random_density(n, rng);
    const size_t nb = popcount_prefix(dens, n);
    MsmOptions co;
    co.density = dens.data();
    gpu::GpuMsmOptions o;
    o.density = dens.data();
    ASSERT_EQ(g.run(scalars, o), msm<Curve>(std::span<const Affine<Curve>>(bases.data(), nb), scalars, co))
        << what << " with density";
    std::vector<Fr> zo(n);
    for (auto& x : zo) x = (rng() & 1) ? Fr::one() : Fr::zero();
    ASSERT_EQ(g.run(zo), msm<Curve>(bases, zo)) << what << " 0/1";
}

// n bases i G with points at infinity mixed in, mixed scalars, and the CPU's sum.
template <class Curve>
struct MixedCase {
    std::vector<Affine<Curve>> bases;
    std::vector<Fr> scalars;
    Jacobian<Curve> expect;
    MixedCase(size_t n, std::mt19937_64& rng) : bases(generator_multiples<Curve>(n)) {
        put_infinities(bases);
        scalars = mixed_scalars(n, rng);
        expect = msm<Curve>(bases, scalars);
    }
};

template <class Curve>
void check_sizes(std::initializer_list<size_t> sizes, std::initializer_list<unsigned> windows) {
    std::mt19937_64 rng(test::seed());
    for (size_t n : sizes) {
        const MixedCase<Curve> mc(n, rng);
        const auto& [bases, scalars, expect] = mc;
        gpu::Msm<Curve> g(bases);  // resident, reused below
        for (unsigned c : windows) {
            gpu::GpuMsmOptions o;
            gpu::MsmTuning tuning;
            o.tuning = &tuning;
            o.window_bits = c;
            MsmStats st;
            o.stats = &st;
            ASSERT_EQ(g.run(scalars, o), expect) << "n=" << n << " c=" << c;
            ASSERT_EQ(st.zeros + st.ones + st.full, n);
            if constexpr (std::is_same_v<Curve, G1Curve>) {
                // Batch-affine rounds forced at this size: batches of 1, 5 and 300 pairs.
                for (unsigned K : {1u, 5u, 300u}) {
                    tuning.affine_rounds = 30;
                    tuning.affine_batch = K;
                    ASSERT_EQ(g.run(scalars, o), expect) << "n=" << n << " c=" << c << " affine K=" << K;
                }
                tuning.affine_rounds = -1;  // the size rule (rounds at 2^20 and above)
                tuning.affine_batch = 0;
                ASSERT_EQ(g.run(scalars, o), expect) << "n=" << n << " c=" << c << " affine by size";
                tuning.affine_rounds = 0;  // and never
                ASSERT_EQ(g.run(scalars, o), expect) << "n=" << n << " c=" << c << " no affine rounds";
                tuning.level1_prefetch = false;  // level 1 without the gather one entry ahead
                ASSERT_EQ(g.run(scalars, o), expect) << "n=" << n << " c=" << c << " no prefetch";
            }
        }
        ASSERT_NO_FATAL_FAILURE(check_density_and_zero_one(g, bases, scalars, rng, "n=" + std::to_string(n)));
    }
}

// The precomputed tables against the CPU for mixed scalars, a density, 0/1 scalars:
// {1, c} the power-of-two table of window bits c (copies 2^(c w) P of every base, one
// bucket set; c = 0 the default), whose window size is enforced; {m, s} with m odd a
// table of base m 2^s (Msm::precompute_base), with more than 2^24 buckets also in one
// sort (MsmTuning::partition_sort off). Dropping the table gives the plain path back.
struct TableArg {
    unsigned odd, bits;
};
template <class Curve>
void check_precomputed(std::initializer_list<size_t> sizes, std::initializer_list<TableArg> tables) {
    std::mt19937_64 rng(test::seed());
    for (size_t n : sizes) {
        const MixedCase<Curve> mc(n, rng);
        const auto& [bases, scalars, expect] = mc;
        gpu::Msm<Curve> g(bases);
        const size_t plain_bytes = g.device_base_bytes();
        for (const TableArg t : tables) {
            if (t.odd == 1)
                g.precompute(t.bits);
            else
                g.precompute_base(t.odd, t.bits);
            const unsigned tc = g.precomputed_window_bits();
            const auto tb = g.precomputed_base();
            // bits 0: the table gpu_msm_precomputed_table picks (2^c or m 2^s)
            const TableBase want = t.bits != 0 ? TableBase{t.odd, t.bits, 0} : gpu::gpu_msm_precomputed_table(n);
            ASSERT_EQ(tc, want.shift);
            ASSERT_EQ(tb.odd, want.odd);
            ASSERT_EQ(tb.shift, tc);
            ASSERT_EQ(tb.windows, tb.odd == 1 ? num_windows(tc) : base_windows(tb.odd, tc, Fr::kP));
            ASSERT_EQ(g.device_base_bytes(), plain_bytes * tb.windows);
            const std::string what =
                "n=" + std::to_string(n) + " table " + std::to_string(tb.odd) + " 2^" + std::to_string(tc);
            MsmStats st;
            gpu::GpuMsmOptions o;
            gpu::MsmTuning tuning;
            o.tuning = &tuning;
            o.stats = &st;
            ASSERT_EQ(g.run(scalars, o), expect) << what;
            ASSERT_EQ(st.window_bits, tc);
            ASSERT_EQ(st.windows, tb.windows);
            if (tb.buckets() > (1u << 24) + 1) {
                tuning.partition_sort = false;
                ASSERT_EQ(g.run(scalars, o), expect) << what << " one sort";
                tuning.partition_sort = true;
            }
            tuning.level1_prefetch = false;
            ASSERT_EQ(g.run(scalars, o), expect) << what << " no prefetch";
            o.window_bits = tc == 5 ? 6 : 5;
            EXPECT_THROW(g.run(scalars, o), std::invalid_argument);
            ASSERT_NO_FATAL_FAILURE(check_density_and_zero_one(g, bases, scalars, rng, what));
        }
        EXPECT_THROW(g.precompute_base(1, 20), std::invalid_argument);
        EXPECT_THROW(g.precompute_base(4, 20), std::invalid_argument);
        EXPECT_THROW(g.precompute_base(3, 3), std::invalid_argument);
        g.drop_precomputed();
        EXPECT_EQ(g.precomputed_window_bits(), 0u);
        EXPECT_EQ(g.precomputed_base().windows, 0u);
        EXPECT_EQ(g.device_base_bytes(), plain_bytes);
        ASSERT_EQ(g.run(scalars), expect) << "n=" << n << " after dropping the table";
    }
}

TEST(GpuMsm, G1MatchesCpu) {
    SKIP_WITHOUT_GPU();
    check_sizes<G1Curve>({1, 7, 1000, 65537}, {0, 2, 5, 13});
    check_sizes<G1Curve>({1000}, {21, gpu::kMaxWindowBits});  // the widest windows
}

// Runs of one bucket that meet every special case of the mixed addition: a base equal to
// the running sum (doubling), its negation (the identity, then the run goes on), and the
// point at infinity. Every base has the same full scalar, so that they all land in one
// bucket of window 0 (and in a few others), in base order; the CPU gives the sum. Level 1
// runs in the field's redundant form where kRedundantMadd puts it (G1),
// whose zero tests see 0 and p: this checks them, with the table and without, at several
// segment lengths.
template <class Curve>
void check_bucket_runs_with_doublings_and_cancellations() {
    using A = Affine<Curve>;
    const auto g = generator_multiples<Curve>(64);  // g[j] = (j + 1) G
    std::vector<A> bases;
    for (size_t i = 0; bases.size() < 4000; ++i) {
        // Triples p, p, -2p from a run's identity: p is then added to p (a doubling), -2p
        // to 2p (the identity again). Every fifth triple ends on -(2p - G) instead, so that
        // the runs and the sum are not all the identity.
        const size_t j = i % 32;
        bases.push_back(g[j]);
        bases.push_back(g[j]);
        bases.push_back(-g[i % 5 == 4 ? 2 * j : 2 * j + 1]);
        if (i % 7 == 0) bases.push_back(A::identity());
    }
    for (uint64_t k : {3ull, 5ull, 0x123456789ull}) {
        const std::vector<Fr> scalars(bases.size(), Fr::from_u64(k));
        const auto expect = msm<Curve>(bases, scalars);
        gpu::Msm<Curve> m(bases);
        for (unsigned c : {0u, 4u, 13u}) {
            gpu::GpuMsmOptions o;
            gpu::MsmTuning tuning;
            o.tuning = &tuning;
            o.window_bits = c;
            ASSERT_EQ(m.run(scalars, o), expect) << "k=" << k << " c=" << c;
            tuning.level1_prefetch = false;
            ASSERT_EQ(m.run(scalars, o), expect) << "k=" << k << " c=" << c << " no prefetch";
        }
        m.precompute(8);
        ASSERT_EQ(m.run(scalars), expect) << "k=" << k << " with a table";
    }
}
TEST(GpuMsm, G1BucketRunsWithDoublingsAndCancellations) {
    SKIP_WITHOUT_GPU();
    check_bucket_runs_with_doublings_and_cancellations<G1Curve>();
}
TEST(GpuMsm, G2BucketRunsWithDoublingsAndCancellations) {
    SKIP_WITHOUT_GPU();
    check_bucket_runs_with_doublings_and_cancellations<G2Curve>();
}

TEST(GpuMsm, G2MatchesCpu) {
    SKIP_WITHOUT_GPU();
    check_sizes<G2Curve>({1, 7, 1000}, {0, 3});
}

TEST(GpuMsm, G1PrecomputedMatchesCpu) {
    SKIP_WITHOUT_GPU();
    check_precomputed<G1Curve>({1, 7, 1000, 65537}, {{1, 0}, {1, 5}, {1, 21}});
}

TEST(GpuMsm, G1PrecomputedBaseMatchesCpu) {
    SKIP_WITHOUT_GPU();
    check_precomputed<G1Curve>({1, 7, 1000, 65537}, {{3, 4}, {9, 20}, {45, 6}, {255, 10}, {45, 20}});
}

TEST(GpuMsm, G2PrecomputedBaseMatchesCpu) {
    SKIP_WITHOUT_GPU();
    check_precomputed<G2Curve>({7, 1000}, {{3, 4}, {9, 20}, {45, 6}});
}

TEST(GpuMsm, G2PrecomputedMatchesCpu) {
    SKIP_WITHOUT_GPU();
    check_precomputed<G2Curve>({1, 7, 1000}, {{1, 0}, {1, 9}});
}

TEST(GpuMsm, PrecomputeBadInput) {
    SKIP_WITHOUT_GPU();
    auto bases = generator_multiples<G1Curve>(10);
    gpu::MsmG1 g(bases);
    EXPECT_THROW(g.precompute(3), std::invalid_argument);
    EXPECT_THROW(g.precompute(27), std::invalid_argument);
    EXPECT_EQ(g.precomputed_window_bits(), 0u);
    std::vector<Fr> s3 = {Fr::from_u64(3), Fr::from_u64(5), Fr::from_u64(7)};
    EXPECT_EQ(g.run(s3), mul(G1Jacobian::generator(), Fr::from_u64(3 + 10 + 21)));
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
    o.window_bits = gpu::kMaxWindowBits + 1;
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
    const float sum = ph.classify + ph.ones + ph.sort + ph.pair + ph.accumulate + ph.carries + ph.reduce;
    EXPECT_NEAR(ph.total, sum, 1e-3 * ph.total + 1e-3);
}

// Streamed bases (host memory, through the device in chunks): the CPU's sums for chunks
// from the smallest (kMinChunkBases) to one for everything, with a density (its pieces
// end on words), 0/1 scalars and a prefix of the scalars; the counts add up over the
// chunks, and the phase times too.
template <class Curve>
void check_streamed(std::initializer_list<size_t> sizes, std::initializer_list<size_t> chunks) {
    std::mt19937_64 rng(test::seed());
    for (size_t n : sizes) {
        const MixedCase<Curve> mc(n, rng);
        const auto& [bases, scalars, expect] = mc;
        const size_t k = n / 2 + 1;
        const auto expect_prefix =
            msm<Curve>(std::span<const Affine<Curve>>(bases.data(), k), std::span<const Fr>(scalars.data(), k));
        for (size_t chunk : chunks) {
            const std::string what = "n=" + std::to_string(n) + " chunk=" + std::to_string(chunk);
            gpu::Msm<Curve> g(typename gpu::Msm<Curve>::Streamed{}, bases, chunk);
            EXPECT_EQ(g.chunk_bases(), chunk);
            EXPECT_EQ(g.size(), n);
            EXPECT_EQ(g.device_base_bytes(), 2 * std::min(n, chunk) * sizeof(Affine<Curve>));
            MsmStats st;
            gpu::GpuMsmPhases ph;
            gpu::GpuMsmOptions o;
            o.stats = &st;
            o.phases = &ph;
            ASSERT_EQ(g.run(scalars, o), expect) << what;
            EXPECT_EQ(st.zeros + st.ones + st.full, n) << what;
            const size_t zeros = size_t(std::count(scalars.begin(), scalars.end(), Fr::zero()));
            const size_t ones = size_t(std::count(scalars.begin(), scalars.end(), Fr::one()));
            EXPECT_EQ(st.ones, ones) << what;
            EXPECT_GE(st.zeros, zeros) << what;  // and points at infinity
            const float sum = ph.classify + ph.ones + ph.sort + ph.pair + ph.accumulate + ph.carries + ph.reduce;
            EXPECT_GT(ph.total, 0.0f) << what;
            EXPECT_NEAR(ph.total, sum, 1e-3 * ph.total + 1e-3) << what;
            ASSERT_EQ(g.run(std::span<const Fr>(scalars.data(), k)), expect_prefix) << what << " prefix";
            ASSERT_NO_FATAL_FAILURE(check_density_and_zero_one(g, bases, scalars, rng, what));
        }
    }
}

TEST(GpuMsm, G1StreamedMatchesCpu) {
    SKIP_WITHOUT_GPU();
    check_streamed<G1Curve>({1, 7, 1000, 65537}, {64, 100, 1000, 30000, size_t(1) << 20});
}

TEST(GpuMsm, G2StreamedMatchesCpu) {
    SKIP_WITHOUT_GPU();
    check_streamed<G2Curve>({7, 1000}, {64, 333});
}

// Page-locked host bases go by DMA straight (the caller's, or the object's own with
// page_lock, undone when it goes); the sums are the same. Streamed objects take
// no table, refuse chunks under a density word, and more scalars (with a base) than bases.
TEST(GpuMsm, StreamedPinnedAndBadInput) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    const size_t n = 5000;
    auto bases = generator_multiples<G1Curve>(n);
    const auto scalars = mixed_scalars(n, rng);
    const auto expect = msm<G1Curve>(bases, scalars);
    const size_t bytes = bases.size() * sizeof(G1Affine);
    {  // pageable: staged, or page-locked by the object for its lifetime
        gpu::MsmG1 staged(gpu::MsmG1::Streamed{}, bases, 1000);
        EXPECT_FALSE(staged.host_page_locked());
        EXPECT_EQ(staged.run(scalars), expect);
        gpu::MsmG1 locked(gpu::MsmG1::Streamed{}, bases, 1000, 0, /*page_lock=*/true);
        EXPECT_TRUE(locked.host_page_locked());
        EXPECT_EQ(locked.run(scalars), expect);
    }
    // Unlocked again when it went: seen as pageable, and registering succeeds.
    EXPECT_FALSE(gpu::MsmG1(gpu::MsmG1::Streamed{}, bases, 1024).host_page_locked());
    ASSERT_TRUE(gpu::host_register(bases.data(), bytes));
    {
        gpu::MsmG1 g(gpu::MsmG1::Streamed{}, bases, 1024, 0, /*page_lock=*/true);
        EXPECT_TRUE(g.host_page_locked());  // the caller's registration, left to the caller
        EXPECT_EQ(g.run(scalars), expect);
        EXPECT_THROW(g.precompute(), std::invalid_argument);
        EXPECT_EQ(g.precomputed_window_bits(), 0u);
        std::vector<Fr> more(n + 1, Fr::one());
        EXPECT_THROW(g.run(more), std::invalid_argument);
        // A density with more set bits than bases.
        std::vector<uint64_t> dens((n + 1 + 63) / 64, ~uint64_t(0));
        gpu::GpuMsmOptions o;
        o.density = dens.data();
        EXPECT_THROW(g.run(more, o), std::invalid_argument);
        EXPECT_EQ(g.run(scalars), expect);  // still usable
        EXPECT_TRUE(g.run({}).is_identity());
    }
    // The caller's registration outlived the object (asked without registering again, which
    // compute-sanitizer would report as an API error).
    EXPECT_TRUE(gpu::MsmG1(gpu::MsmG1::Streamed{}, bases, 1024).host_page_locked())
        << "the object unregistered the caller's range";
    gpu::host_unregister(bases.data());
    EXPECT_FALSE(gpu::MsmG1(gpu::MsmG1::Streamed{}, bases, 1024).host_page_locked());
    try {
        gpu::MsmG1 g(gpu::MsmG1::Streamed{}, bases, 63);
        ADD_FAILURE() << "a chunk of 63 bases accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("at least 64"), std::string::npos) << e.what();
    }
}

// Runs under a scratch's caps (MsmScratchLimits) give the CPU's sums: sort groups of one
// window (4096 entries, fewer than a window's full scalars) and bucket sets held to 300 KiB
// (G1: 6-bit windows, 43 x 33 buckets of 192 B; G2: 4 bits, the floor). Streamed sets that
// share a scratch share its two chunk buffers: a second set costs no device memory for them.
TEST(GpuMsm, ScratchLimitsAndSharedChunkBuffers) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    const MixedCase<G1Curve> g1(65537, rng);
    const MixedCase<G2Curve> g2(3000, rng);
    const auto capped = gpu::make_msm_scratch();
    gpu::MsmScratchLimits lim;
    lim.sort_entries = 4096;
    lim.bucket_bytes = 300 << 10;
    gpu::set_msm_scratch_limits(*capped, lim);
    EXPECT_EQ(gpu::msm_scratch_limits(*capped).sort_entries, 4096u);
    EXPECT_EQ(gpu::msm_scratch_limits(*capped).bucket_bytes, size_t(300) << 10);
    gpu::MsmG1 a(g1.bases);
    gpu::MsmG2 b(g2.bases);
    a.use_scratch(capped);
    b.use_scratch(capped);
    for (int round = 0; round < 2; ++round) {
        MsmStats st;
        gpu::GpuMsmOptions o;
        o.stats = &st;
        ASSERT_EQ(a.run(g1.scalars, o), g1.expect) << "G1, round " << round;
        EXPECT_EQ(st.window_bits, 6u);
        EXPECT_GT(st.full, lim.sort_entries);  // so one window a sort
        ASSERT_EQ(b.run(g2.scalars, o), g2.expect) << "G2, round " << round;
        EXPECT_EQ(st.window_bits, 4u);
    }
    // Without caps the rule picks wider windows for these sizes (the caps did something).
    gpu::MsmG1 free_run(g1.bases);
    MsmStats st;
    gpu::GpuMsmOptions o;
    o.stats = &st;
    ASSERT_EQ(free_run.run(g1.scalars, o), g1.expect);
    EXPECT_GT(st.window_bits, 6u);

    // Two streamed sets of 3 x 2^17 bases in chunks of 2^17 (12 MiB a buffer) on one scratch.
    const size_t n = size_t(3) << 17, chunk = size_t(1) << 17;
    const auto bases = generator_multiples<G1Curve>(n);
    std::vector<Fr> scalars(n);
    for (auto& x : scalars) x = Fr::random(rng);
    const auto expect = gpu::MsmG1(bases).run(scalars);  // the resident path: checked against the CPU above
    const auto shared = gpu::make_msm_scratch();
    gpu::MsmG1 first(gpu::MsmG1::Streamed{}, bases, chunk);
    first.use_scratch(shared);
    ASSERT_EQ(first.run(scalars), expect);
    const size_t held = gpu::msm_scratch_bytes(*shared);
    EXPECT_GE(held, 2 * chunk * sizeof(G1Affine));  // the chunk buffers are the scratch's
    const size_t free_before = gpu::device_memory(0).free;
    gpu::MsmG1 second(gpu::MsmG1::Streamed{}, bases, chunk);
    second.use_scratch(shared);  // frees the buffers it made for itself
    ASSERT_EQ(second.run(scalars), expect);
    ASSERT_EQ(first.run(scalars), expect);
    EXPECT_EQ(gpu::msm_scratch_bytes(*shared), held);
    const size_t free_after = gpu::device_memory(0).free;
    EXPECT_LT(free_before - std::min(free_before, free_after), chunk * sizeof(G1Affine))
        << "the second streamed set took device memory of its own for its chunks";
}

TEST(SlowGpuMsm, G1Large) {
    SKIP_WITHOUT_GPU();
    check_sizes<G1Curve>({(size_t(1) << 20) + 3}, {0});
    check_precomputed<G1Curve>({(size_t(1) << 20) + 3}, {{1, 0}});
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
