// The device MSM and NTT over BN254 (alt_bn128) equal the CPU's (cuzk/msm/msm.hpp,
// cuzk/ntt/ntt.hpp bn254 overloads). The host tests check the window arithmetic the
// device runs for BN254's 254-bit scalars (windows of k + H, num_windows(c, 254)); the
// device tests are skipped (not passed) without CUDA or without a GPU.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "cuzk/backend/backend.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/gpu/device.hpp"
#include "cuzk/gpu/msm.hpp"
#include "cuzk/gpu/ntt.hpp"
#include "cuzk/groth16/zkey.hpp"
#include "cuzk/msm/msm.hpp"
#include "cuzk/ntt/ntt.hpp"
#include "gpu/msm/msm_detail.hpp"
#include "support/mixed_scalars.hpp"
#include "support/seed.hpp"

namespace cuzk {
namespace {

using bn254::Fr;
using namespace gpu::msm_detail;

constexpr unsigned kBits = unsigned(Fr::kBits);
static_assert(kBits == 254);

std::vector<Fr> mixed_scalars(size_t n, std::mt19937_64& rng) { return test::mixed_scalars<Fr>(n, rng); }

// d_0 + d_1 2^c + ... in Fr (Horner from the top window).
Fr recompose(const std::vector<int32_t>& digits, unsigned c) {
    const Fr step = Fr::from_u64(uint64_t(1) << c);
    Fr acc = Fr::zero();
    for (size_t j = digits.size(); j-- > 0;) {
        const int32_t d = digits[j];
        const Fr mag = Fr::from_u64(uint64_t(d < 0 ? -int64_t(d) : int64_t(d)));
        acc = acc * step + (d < 0 ? -mag : mag);
    }
    return acc;
}

// The signed digits of k + H over num_windows(c, 254) windows recompose k, for the largest
// scalar (r - 1) too, every digit in [-2^(c-1), 2^(c-1) - 1], and nothing of k + H is left
// above the last window (BN254 takes one window fewer than BLS12-381 where c divides 256).
TEST(GpuMsmBn254Host, SignedDigitsRecomposeTheScalar) {
    std::mt19937_64 rng(test::seed());
    std::vector<Fr> ks = {Fr::zero(), Fr::one(), -Fr::one(), Fr::from_u64(2), -Fr::from_u64(2)};
    for (int i = 0; i < 50; ++i) ks.push_back(Fr::random(rng));
    for (unsigned c = 2; c <= gpu::kMaxWindowBits; ++c) {
        const unsigned W = num_windows(c, kBits);
        ASSERT_GE(W * c, kBits + 2) << "c=" << c;
        ASSERT_LT((W - 1) * c, kBits + 2) << "c=" << c << ": the fewest windows";
        const BigInt<5> h = recode_offset(c, kBits);
        for (const Fr& k : ks) {
            const BigInt<4> kb = k.to_bigint();
            DigitWalker walk(kb, h, c);
            std::vector<int32_t> digits;
            for (unsigned w = 0; w < W; ++w) {
                const int32_t d = walk.next();
                ASSERT_EQ(d, digit(kb, h, w, c)) << "c=" << c << " w=" << w;
                ASSERT_GE(d, -(int32_t(1) << (c - 1)));
                ASSERT_LT(d, int32_t(1) << (c - 1));
                digits.push_back(d);
            }
            for (uint64_t limb : walk.r.l) ASSERT_EQ(limb, 0u) << "c=" << c << ": k + H above the last window";
            ASSERT_EQ(recompose(digits, c), k) << "c=" << c << " k=" << k.to_hex();
        }
    }
    EXPECT_EQ(num_windows(16, kBits), 16u);  // BLS12-381 Fr: 17
    EXPECT_EQ(num_windows(16), 17u);
}

// Tables of base m 2^s: the signed base-B digits over base_windows(.., r) windows of BN254's
// r recompose every scalar, r - 1 included.
TEST(GpuMsmBn254Host, BaseDigitsRecomposeTheScalar) {
    std::mt19937_64 rng(test::seed());
    const BigInt<4> r = Fr::kP;
    std::vector<Fr> ks = {Fr::zero(), Fr::one(), -Fr::one(), -Fr::from_u64(2)};
    for (int i = 0; i < 30; ++i) ks.push_back(Fr::random(rng));
    for (const TableBase& t : {TableBase{3, 8, 0}, TableBase{37, 13, 0}, TableBase{9, 20, 0}, TableBase{45, 20, 0}}) {
        const unsigned W = base_windows(t.odd, t.shift, r);
        ASSERT_GT(W, 0u);
        const Fr B = Fr::from_u64(t.base());
        for (const Fr& k : ks) {
            BaseDigitWalker walk(k.to_bigint(), r, t.odd, t.shift);
            Fr acc = Fr::zero(), pow = Fr::one();
            for (unsigned w = 0; w < W; ++w) {
                const int32_t d = walk.next();
                ASSERT_LE(uint32_t(d < 0 ? -d : d), t.buckets() - 1);
                const Fr mag = Fr::from_u64(uint64_t(d < 0 ? -int64_t(d) : int64_t(d)));
                acc += (d < 0 ? -mag : mag) * pow;
                pow *= B;
            }
            ASSERT_EQ(acc, k) << t.odd << " 2^" << t.shift << " k=" << k.to_hex();
        }
    }
    // The table chooser over BN254's r: its pick's windows are those of that r.
    for (unsigned lg : {16u, 20u, 24u}) {
        const TableBase t = gpu::gpu_msm_precomputed_table(size_t(1) << lg, true, r);
        EXPECT_EQ(t.windows, t.odd == 1 ? num_windows(t.shift, kBits) : base_windows(t.odd, t.shift, r)) << lg;
    }
}

// --- on the device ------------------------------------------------------------------

#define SKIP_WITHOUT_GPU()                                                   \
    do {                                                                     \
        std::string why;                                                     \
        if (gpu::device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why; \
    } while (0)

template <class Curve>
void put_infinities(std::vector<Affine<Curve>>& bases) {
    for (size_t i = 5; i < bases.size(); i += 11) bases[i] = Affine<Curve>::identity();
}

// The resident MSM at these sizes and window bits (0: the rule's) equals the CPU msm,
// with zero scalars, 1s, r - 1 and bases at infinity; then with a density and with
// precomputed tables (2^c and m 2^s).
template <class Curve>
void check_sizes(std::initializer_list<size_t> sizes, std::initializer_list<unsigned> window_bits) {
    std::mt19937_64 rng(test::seed());
    for (size_t n : sizes) {
        auto bases = generator_multiples<Curve>(n);
        put_infinities(bases);
        const auto scalars = mixed_scalars(n, rng);
        const auto expect = msm<Curve>(std::span<const Affine<Curve>>(bases), std::span<const Fr>(scalars));
        gpu::Msm<Curve> g(bases);
        for (unsigned c : window_bits) {
            gpu::GpuMsmOptions o;
            MsmStats st;
            o.window_bits = c;
            o.stats = &st;
            ASSERT_EQ(g.run(scalars, o), expect) << Curve::kName << " n=" << n << " c=" << c;
            EXPECT_EQ(st.windows, st.full ? num_windows(st.window_bits, kBits) : st.windows) << "n=" << n;
        }
        // All scalars r - 1: every window's digits at their extremes.
        const std::vector<Fr> top(n, -Fr::one());
        ASSERT_EQ(g.run(top), msm<Curve>(std::span<const Affine<Curve>>(bases), std::span<const Fr>(top)))
            << Curve::kName << " n=" << n << " all r - 1";
        // A density: every fourth scalar has a base.
        std::vector<uint64_t> density((n + 63) / 64, 0x1111111111111111ull);
        size_t nb = 0;
        for (size_t i = 0; i < n; ++i) nb += (density[i / 64] >> (i % 64)) & 1;
        const std::span<const Affine<Curve>> sub(bases.data(), nb);
        MsmOptions co;
        co.density = density.data();
        gpu::Msm<Curve> gs(sub);
        gpu::GpuMsmOptions o;
        o.density = density.data();
        ASSERT_EQ(gs.run(scalars, o), msm<Curve>(sub, std::span<const Fr>(scalars), co))
            << Curve::kName << " n=" << n << " density";
        if (n < 1000) continue;
        g.precompute(8);
        ASSERT_EQ(g.run(scalars), expect) << Curve::kName << " n=" << n << " table 2^8";
        g.precompute_base(3, 8);
        ASSERT_EQ(g.run(scalars), expect) << Curve::kName << " n=" << n << " table 3 2^8";
        EXPECT_EQ(g.precomputed_base().windows, base_windows(3, 8, Fr::kP));
    }
}

TEST(GpuMsmBn254, G1MatchesCpu) {
    SKIP_WITHOUT_GPU();
    check_sizes<bn254::G1Curve>({1, 3, 1000, (size_t(1) << 16) + 7}, {0, 2, 5, 13, 16});
    check_sizes<bn254::G1Curve>({1000}, {21, gpu::kMaxWindowBits});  // the widest windows
}

TEST(GpuMsmBn254, G2MatchesCpu) {
    SKIP_WITHOUT_GPU();
    check_sizes<bn254::G2Curve>({1, 3, 1000}, {0, 3, 16});
}

// The one-shot entry points (upload, run, free) over BN254.
TEST(GpuMsmBn254, OneShotEntryPoints) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    const auto b1 = generator_multiples<bn254::G1Curve>(300);
    const auto b2 = generator_multiples<bn254::G2Curve>(40);
    const auto s = mixed_scalars(300, rng);
    EXPECT_EQ(gpu::msm_g1(b1, s), bn254::msm_g1(b1, s));
    const std::span<const Fr> s2(s.data(), 40);
    EXPECT_EQ(gpu::msm_g2(b2, s2), bn254::msm_g2(b2, s2));
}

// A circom BN254 key's MSMs on a CUDA backend (ProverBackend::bn254_msm, what prove-zkey
// --backend cuda and the daemon's zkey kind use) equal the CPU backend's.
TEST(GpuMsmBn254, ZkeyMsmOfTheCudaBackendEqualsTheCpus) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    auto cuda = gpu::make_cuda_backend(0)->bn254_msm();
    auto cpu = groth16::make_cpu_backend()->bn254_msm();
    EXPECT_EQ(cuda->name(), "cuda:0");
    EXPECT_EQ(cpu->name(), "cpu");
    const auto b1 = generator_multiples<bn254::G1Curve>(1001);
    const auto b2 = generator_multiples<bn254::G2Curve>(77);
    const auto s = mixed_scalars(1001, rng);
    EXPECT_EQ(cuda->msm_g1(b1, s), cpu->msm_g1(b1, s));
    const std::span<const Fr> s2(s.data(), 77);
    EXPECT_EQ(cuda->msm_g2(b2, s2), cpu->msm_g2(b2, s2));
}

std::vector<Fr> random_vector(size_t n, std::mt19937_64& rng) {
    std::vector<Fr> v(n);
    for (auto& x : v) x = Fr::random(rng);
    return v;
}

struct Transform {
    const char* name;
    void (*cpu)(std::span<Fr>);
    void (*gpu)(std::span<Fr>, gpu::ntt::Impl);
};
const Transform kTransforms[] = {
    {"forward", ntt::forward, gpu::ntt::forward},
    {"inverse", ntt::inverse, gpu::ntt::inverse},
    {"coset_forward", ntt::coset_forward, gpu::ntt::coset_forward},
    {"coset_inverse", ntt::coset_inverse, gpu::ntt::coset_inverse},
};

// The four transforms of a random vector of 2^k elements, both device paths (the reference
// one up to 2^16), equal the CPU's; the natural -> bit-reversed forward (the benchmark's
// order) equals the CPU's bit-reversed.
void check_transforms(unsigned k, std::mt19937_64& rng) {
    const auto input = random_vector(size_t(1) << k, rng);
    for (const Transform& t : kTransforms) {
        auto want = input;
        t.cpu(want);
        for (auto impl : {gpu::ntt::Impl::kFast, gpu::ntt::Impl::kReference}) {
            if (impl == gpu::ntt::Impl::kReference && k > 16) continue;
            auto got = input;
            t.gpu(got, impl);
            ASSERT_TRUE(got == want) << t.name << " impl=" << int(impl) << " k=" << k;
        }
    }
    auto want = input;
    ntt::forward(std::span<Fr>(want));
    ntt::bit_reverse(std::span<Fr>(want));
    auto got = input;
    gpu::ntt::forward(std::span<Fr>(got), gpu::ntt::Order::kNatural, gpu::ntt::Order::kBitReversed);
    ASSERT_TRUE(got == want) << "forward natural -> bit-reversed k=" << k;
}

TEST(GpuNttBn254, MatchesCpu2To1Through16) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    for (unsigned k = 1; k <= 16; ++k) ASSERT_NO_FATAL_FAILURE(check_transforms(k, rng));
}

TEST(SlowGpuNttBn254, MatchesCpu2To17Through20) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    for (unsigned k = 17; k <= 20; ++k) ASSERT_NO_FATAL_FAILURE(check_transforms(k, rng));
}

// Both fields' tables live side by side: a BLS12-381 transform between two BN254 ones (the
// same size) leaves the BN254 result unchanged, and clear_twiddle_cache frees both.
TEST(GpuNttBn254, TablesOfBothFieldsCoexist) {
    SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(test::seed());
    const auto input = random_vector(size_t(1) << 12, rng);
    auto want = input;
    ntt::forward(std::span<Fr>(want));
    auto a = input;
    gpu::ntt::forward(std::span<Fr>(a));
    std::vector<cuzk::Fr> bls(size_t(1) << 12, cuzk::Fr::one());
    gpu::ntt::forward(std::span<cuzk::Fr>(bls));
    auto b = input;
    gpu::ntt::forward(std::span<Fr>(b));
    EXPECT_TRUE(a == want);
    EXPECT_TRUE(b == want);
    gpu::ntt::clear_twiddle_cache();
    auto c = input;
    gpu::ntt::coset_forward(std::span<Fr>(c));
    auto wc = input;
    ntt::coset_forward(std::span<Fr>(wc));
    EXPECT_TRUE(c == wc);
}

}  // namespace
}  // namespace cuzk
