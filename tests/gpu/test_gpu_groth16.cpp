// The CUDA backend proves exactly what the CPU backend proves: with the same r and s the
// proof bytes are equal for every built-in circuit, and the proofs verify (prove() goes
// through the fused stages h_msm and msm_z, which the CUDA backend overrides). The fused
// stages alone match the CPU's on an odd size large enough for several staging chunks,
// from pageable and from page-locked buffers, and every device gives the same bytes.
// Backend selection falls back to the CPU with a reason when there is no GPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "cuzk/circuits/builtin.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/gpu/backend.hpp"
#include "cuzk/gpu/device.hpp"
#include "cuzk/gpu/host_memory.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "support/seed.hpp"

namespace cuzk {
namespace {

TEST(BackendSelection, NamesAndFallback) {
    std::string why;
    auto cpu = gpu::select_backend("cpu", &why);
    EXPECT_EQ(cpu->name(), "cpu");
    EXPECT_THROW(gpu::select_backend("tpu"), std::invalid_argument);
    if (gpu::device_count() == 0) {
        auto b = gpu::select_backend("auto", &why);
        EXPECT_EQ(b->name(), "cpu");
        EXPECT_NE(why.find("fallback"), std::string::npos) << why;
        EXPECT_THROW(gpu::select_backend("cuda"), std::runtime_error);
    }
    setenv("CUZK_NO_GPU", "1", 1);
    auto forced = gpu::select_backend("auto", &why);
    unsetenv("CUZK_NO_GPU");
    EXPECT_EQ(forced->name(), "cpu");
    EXPECT_NE(why.find("CUZK_NO_GPU"), std::string::npos) << why;
}

TEST(GpuGroth16, SameProofBytesAsCpuForEveryBuiltinCircuit) {
    std::string why;
    if (gpu::device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why;
    const uint64_t seed = test::seed();
    auto cpu = groth16::make_cpu_backend();
    auto cuda = gpu::make_cuda_backend(0);
    for (const auto& name : circuits::builtin_names()) {
        for (size_t size : {size_t(1), size_t(name == "sha256-chain" ? 3 : 5000)}) {
            auto b = circuits::make_builtin(name, size, seed, 3);
            r1cs::Shape shape = b.circuit->shape();
            groth16::Parameters params = groth16::setup(shape, groth16::ToxicWaste::from_seed(seed));
            groth16::Witness w = b.circuit->witness();
            groth16::Randomness rs = groth16::random_randomness();
            groth16::Proof on_cpu = groth16::prove(params, shape.density(), w, rs, *cpu);
            groth16::Proof on_gpu = groth16::prove(params, shape.density(), w, rs, *cuda);
            EXPECT_EQ(on_gpu, on_cpu) << name << " size " << size;
            // Twice on the GPU: the resident bases are reused and give the same answer.
            EXPECT_EQ(groth16::prove(params, shape.density(), w, rs, *cuda), on_cpu) << name;
            EXPECT_TRUE(groth16::verify(groth16::PreparedVerifyingKey(params.vk), on_gpu, b.public_inputs)) << name;
        }
    }
}

// A random-dense circuit of 3000 constraints, its parameters, witness and randomness.
struct DenseCase {
    r1cs::Shape shape;
    groth16::Parameters params;
    groth16::Witness w;
    groth16::Randomness rs;
    explicit DenseCase(uint64_t seed) {
        auto b = circuits::make_builtin("random-dense", 3000, seed, 3);
        shape = b.circuit->shape();
        params = groth16::setup(shape, groth16::ToxicWaste::from_seed(seed));
        w = b.circuit->witness();
        rs = groth16::random_randomness();
    }
};

// Precomputed tables (shifted bases) from 100 full scalars on: the first proof builds none,
// the second builds them for the G1 sets with that many, the third runs on them; all give
// the CPU's bytes.
// CUZK_GPU_TABLES=0 builds none; a malformed value is refused with its name.
TEST(GpuGroth16, TablesGiveTheSameProofBytes) {
    std::string why;
    if (gpu::device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why;
    const uint64_t seed = test::seed();
    auto cpu = groth16::make_cpu_backend();
    setenv("CUZK_GPU_TABLES", "100", 1);
    auto cuda = gpu::make_cuda_backend(0);
    setenv("CUZK_GPU_TABLES", "0", 1);
    auto plain = gpu::make_cuda_backend(0);
    setenv("CUZK_GPU_TABLES", "lots", 1);
    try {
        gpu::make_cuda_backend(0);
        ADD_FAILURE() << "CUZK_GPU_TABLES=lots accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("CUZK_GPU_TABLES"), std::string::npos) << e.what();
    }
    unsetenv("CUZK_GPU_TABLES");
    const DenseCase k(seed);
    const auto& [shape, params, w, rs] = k;
    const groth16::Proof want = groth16::prove(params, shape.density(), w, rs, *cpu);
    EXPECT_EQ(groth16::prove(params, shape.density(), w, rs, *cuda), want);
    EXPECT_EQ(gpu::tables_built(*cuda), 0u);  // a one-off proof builds none
    EXPECT_EQ(groth16::prove(params, shape.density(), w, rs, *cuda), want);
    EXPECT_GE(gpu::tables_built(*cuda), 3u);  // H, L, A (B_G1 and B_G2 too where B is dense enough)
    EXPECT_EQ(groth16::prove(params, shape.density(), w, rs, *cuda), want);
    EXPECT_EQ(groth16::prove(params, shape.density(), w, rs, *plain), want);
    EXPECT_EQ(gpu::tables_built(*plain), 0u);
    EXPECT_EQ(gpu::tables_built(*cpu), 0u);
}

template <class Curve>
std::vector<Affine<Curve>> random_points(size_t n, std::mt19937_64& rng) {
    std::vector<Affine<Curve>> v(n);
    for (auto& p : v) p = mul(Affine<Curve>::generator(), Fr::random(rng)).to_affine();
    return v;
}

std::vector<Fr> random_scalars(size_t n, std::mt19937_64& rng) {
    std::vector<Fr> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = i % 7 == 0 ? Fr::zero() : i % 7 == 1 ? Fr::one() : Fr::random(rng);
    return v;
}

// A bitmap over n with about one bit in `every` set (bases = its popcount).
std::vector<uint64_t> sparse_density(size_t n, size_t every, std::mt19937_64& rng, size_t* count) {
    std::vector<uint64_t> d((n + 63) / 64, 0);
    *count = 0;
    for (size_t i = 0; i < n; ++i)
        if (rng() % every == 0) {
            d[i / 64] |= uint64_t(1) << (i % 64);
            ++*count;
        }
    return d;
}

// Registers the buffers for DMA for the scope (as the engine's buffer pool does).
struct Registered {
    std::vector<void*> ptrs;
    explicit Registered(std::initializer_list<std::vector<Fr>*> vs) {
        for (auto* v : vs)
            if (gpu::host_register(v->data(), v->size() * sizeof(Fr))) ptrs.push_back(v->data());
    }
    ~Registered() {
        for (void* p : ptrs) gpu::host_unregister(p);
    }
};

// 2^21 + 12345 constraints (domain 2^22): a, b, c and aux are each a little over 64 MiB,
// so a pageable upload takes three 32 MiB staging chunks (both buffers, one reused).
TEST(GpuGroth16, FusedStagesMatchCpuFromPageableAndPinnedBuffers) {
    std::string why;
    if (gpu::device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why;
    const uint64_t seed = test::seed();
    std::mt19937_64 rng(seed);
    const size_t n = (size_t(1) << 21) + 12345;
    const std::vector<Fr> a0 = random_scalars(n, rng), b0 = random_scalars(n, rng), c0 = random_scalars(n, rng);
    const auto h_bases = random_points<G1Curve>(1001, rng);
    const std::vector<Fr> inputs = random_scalars(5, rng);
    std::vector<Fr> aux = random_scalars(n + 77, rng);
    size_t na = 0, nb = 0;
    const auto a_density = sparse_density(inputs.size() + aux.size(), 4096, rng, &na);
    const auto b_density = sparse_density(inputs.size() + aux.size(), 4096, rng, &nb);
    const auto l_bases = generator_multiples<G1Curve>(aux.size());  // dense: aux read inside z
    const auto a_bases = random_points<G1Curve>(na, rng);
    const auto b1_bases = random_points<G1Curve>(nb, rng);
    const auto b2_bases = random_points<G2Curve>(nb, rng);

    auto cpu = groth16::make_cpu_backend();
    auto cuda = gpu::make_cuda_backend(0);
    std::vector<Fr> a = a0, b = b0, c = c0;
    const G1Jacobian want_h = cpu->h_msm(a, b, c, h_bases);
    const groth16::ZSums want_z =
        cpu->msm_z(inputs, aux, l_bases, a_bases, b1_bases, b2_bases, a_density.data(), b_density.data());
    for (bool pinned : {false, true}) {
        a = a0, b = b0, c = c0;
        Registered reg(pinned ? std::initializer_list<std::vector<Fr>*>{&a, &b, &c, &aux}
                              : std::initializer_list<std::vector<Fr>*>{});
        if (pinned) {
            EXPECT_EQ(reg.ptrs.size(), 4u) << "host_register refused";
        }
        EXPECT_EQ(cuda->h_msm(a, b, c, h_bases), want_h) << "pinned " << pinned;
        const groth16::ZSums got =
            cuda->msm_z(inputs, aux, l_bases, a_bases, b1_bases, b2_bases, a_density.data(), b_density.data());
        EXPECT_EQ(got.l, want_z.l) << "pinned " << pinned;
        EXPECT_EQ(got.a, want_z.a) << "pinned " << pinned;
        EXPECT_EQ(got.b_g1, want_z.b_g1) << "pinned " << pinned;
        EXPECT_EQ(got.b_g2, want_z.b_g2) << "pinned " << pinned;
    }
    // A smaller proof after the large one reuses the grown device scratch.
    std::vector<Fr> sa(a0.begin(), a0.begin() + 1000), sb(b0.begin(), b0.begin() + 1000),
        sc(c0.begin(), c0.begin() + 1000);
    std::vector<Fr> ca = sa, cb = sb, cc = sc;
    const auto few = random_points<G1Curve>(1023, rng);  // m - 1 for m = 1024
    EXPECT_EQ(cuda->h_msm(sa, sb, sc, few), cpu->h_msm(ca, cb, cc, few));
}

// Each device's backend proves the same bytes as the CPU, with the backends' calls
// interleaved across devices (each stage must select its own device).
TEST(GpuGroth16, EveryDeviceInterleavedGivesTheCpuProof) {
    std::string why;
    const int devices = gpu::device_count(&why);
    if (devices == 0) GTEST_SKIP() << "no GPU: " << why;
    const uint64_t seed = test::seed();
    auto cpu = groth16::make_cpu_backend();
    std::vector<std::unique_ptr<groth16::ProverBackend>> cuda;
    for (int d = 0; d < devices; ++d) cuda.push_back(gpu::make_cuda_backend(d));
    const DenseCase k(seed);
    const auto& [shape, params, w, rs] = k;
    const groth16::Proof want = groth16::prove(params, shape.density(), w, rs, *cpu);
    for (int round = 0; round < 2; ++round) {
        for (int d = devices; d-- > 0;) {
            EXPECT_EQ(groth16::prove(params, shape.density(), w, rs, *cuda[size_t(d)]), want)
                << "device " << d << " round " << round;
        }
    }
}

}  // namespace
}  // namespace cuzk
