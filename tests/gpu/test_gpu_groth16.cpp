// The CUDA backend proves exactly what the CPU backend proves: with the same r and s the
// proof bytes are equal for every built-in circuit, and the proofs verify (prove() goes
// through the fused stages h_msm and msm_z, which the CUDA backend overrides). The fused
// stages alone match the CPU's on an odd size large enough for several staging chunks,
// from pageable and from page-locked buffers, and every device gives the same bytes.
// Backend selection falls back to the CPU with a reason when there is no GPU.
#include <gtest/gtest.h>

#include <cstdlib>
#include <initializer_list>
#include <random>

#include "cuzk/backend/backend.hpp"
#include "cuzk/backend/testing.hpp"
#include "cuzk/circuits/builtin.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/gpu/device.hpp"
#include "cuzk/gpu/host_memory.hpp"
#include "cuzk/gpu/ntt.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/ntt/domain.hpp"
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
        // The smallest circuit of each (random-dense: its input constraints and one product
        // reading each input) and one of several blocks or thousands of constraints.
        const size_t smallest = name == "random-dense" ? circuits::random_dense_min_size(3) : 1;
        for (size_t size : {smallest, size_t(name == "sha256-chain" ? 3 : 5000)}) {
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

// Each value of the environment variable `name` makes make_cuda_backend throw
// std::invalid_argument naming the variable (left set to the last value: the caller sets
// or unsets it next).
void expect_env_rejected(const char* name, std::initializer_list<const char*> values) {
    for (const char* bad : values) {
        setenv(name, bad, 1);
        try {
            gpu::make_cuda_backend(0);
            ADD_FAILURE() << name << "=" << bad << " accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
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
// CUZK_GPU_TABLES=0 builds none; a malformed value is refused with its name. The same with
// CUZK_GPU_TABLE_BASE=pow2 (tables of base 2^c only).
TEST(GpuGroth16, TablesGiveTheSameProofBytes) {
    std::string why;
    if (gpu::device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why;
    const uint64_t seed = test::seed();
    auto cpu = groth16::make_cpu_backend();
    setenv("CUZK_GPU_TABLES", "100", 1);
    auto cuda = gpu::make_cuda_backend(0);
    // The default tables are of base m 2^s where the model prefers them
    // (gpu_msm_precomputed_table: at these sizes, ~4K bases, m > 1); pow2 keeps to 2^c.
    setenv("CUZK_GPU_TABLE_BASE", "pow2", 1);
    auto pow2 = gpu::make_cuda_backend(0);
    expect_env_rejected("CUZK_GPU_TABLE_BASE", {"odd", "2"});
    unsetenv("CUZK_GPU_TABLE_BASE");
    setenv("CUZK_GPU_TABLES", "0", 1);
    auto plain = gpu::make_cuda_backend(0);
    expect_env_rejected("CUZK_GPU_TABLES", {"lots", "-1"});
    unsetenv("CUZK_GPU_TABLES");
    const DenseCase k(seed);
    const auto& [shape, params, w, rs] = k;
    const groth16::Proof want = groth16::prove(params, shape.density(), w, rs, *cpu);
    EXPECT_EQ(groth16::prove(params, shape.density(), w, rs, *cuda), want);
    EXPECT_EQ(gpu::tables_built(*cuda), 0u);  // a one-off proof builds none
    EXPECT_EQ(groth16::prove(params, shape.density(), w, rs, *cuda), want);
    EXPECT_GE(gpu::tables_built(*cuda), 3u);  // H, L, A (B_G1 and B_G2 too where B is dense enough)
    EXPECT_EQ(groth16::prove(params, shape.density(), w, rs, *cuda), want);
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(groth16::prove(params, shape.density(), w, rs, *pow2), want) << "2^c tables, proof " << i;
    EXPECT_GE(gpu::tables_built(*pow2), 3u);
    EXPECT_EQ(groth16::prove(params, shape.density(), w, rs, *plain), want);
    EXPECT_EQ(gpu::tables_built(*plain), 0u);
    EXPECT_EQ(gpu::tables_built(*cpu), 0u);
}

// CUZK_GPU_MEMORY below what any base set needs: every set stays in host memory and
// streams through the device (one chunk a set at these sizes: the backend's chunks hold
// at least 2^16 bases; GpuMsm.*Streamed* cover many chunks), and the proofs keep the CPU's bytes; without a
// limit the sets are resident. Sizes parse in binary units; malformed ones are refused
// with the variable's name.
TEST(GpuGroth16, StreamedBaseSetsGiveTheSameProofBytes) {
    std::string why;
    if (gpu::device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why;
    const uint64_t seed = test::seed();
    auto cpu = groth16::make_cpu_backend();
    // 64 MiB: room for the H step's fixed part (a domain of 4096: 8.5 MiB), less than what
    // the card has in use already, so no base set fits and every one is streamed.
    setenv("CUZK_GPU_MEMORY", "64M", 1);
    auto tight = gpu::make_cuda_backend(0);
    setenv("CUZK_GPU_MEMORY", "64K", 1);  // not even that: refused by name
    auto too_small = gpu::make_cuda_backend(0);
    setenv("CUZK_GPU_MEMORY", "64g", 1);
    auto sized = gpu::make_cuda_backend(0);
    EXPECT_EQ(gpu::residency_stats(*sized).memory_limit, size_t(64) << 30);
    expect_env_rejected("CUZK_GPU_MEMORY", {"lots", "0", "-5", "12Q", "8GB", "99999999999999999999T"});
    unsetenv("CUZK_GPU_MEMORY");
    auto roomy = gpu::make_cuda_backend(0);
    EXPECT_EQ(gpu::residency_stats(*tight).memory_limit, size_t(64) << 20);
    const DenseCase k(seed);
    const auto& [shape, params, w, rs] = k;
    const groth16::Proof want = groth16::prove(params, shape.density(), w, rs, *cpu);
    try {
        groth16::prove(params, shape.density(), w, rs, *too_small);
        ADD_FAILURE() << "a proof within 64 KiB of device memory";
    } catch (const std::runtime_error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("CUZK_GPU_MEMORY"), std::string::npos) << what;
        EXPECT_NE(what.find("domain of 4096"), std::string::npos) << what;
    }
    for (int i = 0; i < 2; ++i) {  // the second proof finds the streamed sets in the cache
        EXPECT_EQ(groth16::prove(params, shape.density(), w, rs, *tight), want) << "proof " << i;
        const gpu::ResidencyStats t = gpu::residency_stats(*tight);
        EXPECT_EQ(t.resident_sets, 0u);
        EXPECT_EQ(t.streamed_sets, 5u);  // H, L, A, B_G1 (G1) and B_G2
    }
    EXPECT_EQ(groth16::prove(params, shape.density(), w, rs, *roomy), want);
    const gpu::ResidencyStats r = gpu::residency_stats(*roomy);
    EXPECT_EQ(r.streamed_sets, 0u);
    EXPECT_EQ(r.resident_sets, 5u);
    EXPECT_EQ(r.memory_limit, 0u);
    EXPECT_EQ(gpu::residency_stats(*cpu).resident_sets, 0u);
}

// Where not every base set fits, the backend keeps those worth most per byte (fewest bases
// first), not the first asked (H, the prover's first MSM, has the most bases): at the
// smallest budget whose plan keeps H resident, the plan keeps L (fewer bases, fewer bytes,
// fewer scalars) too, where first come would have had room for H alone. A budget a little
// above it has the sets the plan kept resident on the device, and the proof keeps the CPU's
// bytes; one below it streams H. Budgets: CUZK_GPU_MEMORY at what the card has in use plus
// an extra, binary-searched to 1 MiB.
TEST(GpuGroth16, ResidencyPlanKeepsTheSetsWorthMostPerByte) {
    std::string why;
    if (gpu::device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why;
    const uint64_t seed = test::seed();
    // 2^16 domain: L (aux ~60K bases) is ~5.7 MB, wider than the search's 1 MiB.
    auto b = circuits::make_builtin("random-dense", 60000, seed, 3);
    const r1cs::Shape shape = b.circuit->shape();
    const groth16::Parameters params = groth16::setup(shape, groth16::ToxicWaste::from_seed(seed));
    const groth16::Witness w = b.circuit->witness();
    const groth16::Randomness rs = groth16::random_randomness();
    const size_t n_h = params.h.size(), n_l = params.l.size();
    ASSERT_LT(n_l, n_h);
    struct Outcome {
        bool proved = false;
        std::vector<gpu::BaseSetState> sets;
        groth16::Proof proof;
    };
    const auto prove_within = [&](size_t extra) {
        const gpu::DeviceMemory mem = gpu::device_memory(0);
        setenv("CUZK_GPU_MEMORY", std::to_string(mem.total - mem.free + extra).c_str(), 1);
        auto cuda = gpu::make_cuda_backend(0);
        unsetenv("CUZK_GPU_MEMORY");
        Outcome o;
        try {
            o.proof = groth16::prove(params, shape.density(), w, rs, *cuda);
            o.proved = true;
        } catch (const std::runtime_error&) {  // below the H step's fixed part: refused by name
        }
        o.sets = gpu::base_set_states(*cuda);
        return o;
    };
    const auto find = [](const Outcome& o, size_t bases) {
        for (const auto& s : o.sets)
            if (!s.g2 && s.bases == bases) return s;
        return gpu::BaseSetState{};
    };
    const auto h_planned = [&](const Outcome& o) { return o.proved && find(o, n_h).planned; };
    size_t lo = 0, hi = size_t(4) << 30;  // H not kept at lo, kept at hi
    ASSERT_TRUE(h_planned(prove_within(hi))) << "4 GiB beside what the card has in use does not keep H";
    while (hi - lo > (size_t(1) << 20)) {
        const size_t mid = lo + (hi - lo) / 2;
        (h_planned(prove_within(mid)) ? hi : lo) = mid;
    }
    const Outcome at = prove_within(hi);
    std::string kept;
    for (const auto& s : at.sets)
        kept += std::to_string(s.bases) + (s.g2 ? " G2" : " G1") + (s.planned ? " kept, " : " streamed, ");
    SCOPED_TRACE("extra " + std::to_string(hi >> 20) + " MiB: " + kept);
    ASSERT_TRUE(h_planned(at));
    EXPECT_TRUE(find(at, n_l).planned) << "H kept resident while L, worth more per byte, is not";
    const Outcome below = prove_within(lo);
    if (below.proved) {
        EXPECT_FALSE(find(below, n_h).resident);
    }
    // With room to spare, the plan's sets are on the device, the others streamed.
    const groth16::Proof want = groth16::prove(params, shape.density(), w, rs, *groth16::make_cpu_backend());
    const Outcome roomy = prove_within(hi + (size_t(64) << 20));
    ASSERT_TRUE(roomy.proved);
    EXPECT_EQ(roomy.proof, want);
    EXPECT_EQ(roomy.sets.size(), 5u);
    for (const auto& s : roomy.sets) EXPECT_EQ(s.resident, s.planned) << s.bases << (s.g2 ? " G2" : " G1");
    EXPECT_EQ(at.proof, want);
}

template <class Curve>
std::vector<Affine<Curve>> random_points(size_t n, std::mt19937_64& rng) {
    std::vector<Affine<Curve>> v(n);
    for (auto& p : v) p = mul(Affine<Curve>::generator(), Fr::random(rng)).to_affine();
    return v;
}

r1cs::WitnessVector random_scalars(size_t n, std::mt19937_64& rng) {
    r1cs::WitnessVector v(n);
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
    explicit Registered(std::initializer_list<r1cs::WitnessVector*> vs) {
        for (auto* v : vs)
            if (gpu::host_register(v->data(), v->size() * sizeof(Fr))) ptrs.push_back(v->data());
    }
    ~Registered() {
        for (void* p : ptrs) gpu::host_unregister(p);
    }
};

void expect_z_sums(const groth16::ZSums& got, const groth16::ZSums& want, const char* what) {
    EXPECT_EQ(got.l, want.l) << what;
    EXPECT_EQ(got.a, want.a) << what;
    EXPECT_EQ(got.b_g1, want.b_g1) << what;
    EXPECT_EQ(got.b_g2, want.b_g2) << what;
}

// 2^21 + 12345 constraints (domain 2^22): a, b, c and aux are each a little over 64 MiB,
// so a pageable upload takes three 32 MiB staging chunks (both buffers, one reused).
TEST(GpuGroth16, FusedStagesMatchCpuFromPageableAndPinnedBuffers) {
    std::string why;
    if (gpu::device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why;
    const uint64_t seed = test::seed();
    std::mt19937_64 rng(seed);
    const size_t n = (size_t(1) << 21) + 12345;
    const r1cs::WitnessVector a0 = random_scalars(n, rng), b0 = random_scalars(n, rng), c0 = random_scalars(n, rng);
    const auto h_bases = random_points<G1Curve>(1001, rng);
    const r1cs::WitnessVector inputs = random_scalars(5, rng);
    r1cs::WitnessVector aux = random_scalars(n + 77, rng);
    size_t na = 0, nb = 0;
    const auto a_density = sparse_density(inputs.size() + aux.size(), 4096, rng, &na);
    const auto b_density = sparse_density(inputs.size() + aux.size(), 4096, rng, &nb);
    const auto l_bases = generator_multiples<G1Curve>(aux.size());  // dense: aux read inside z
    const auto a_bases = random_points<G1Curve>(na, rng);
    const auto b1_bases = random_points<G1Curve>(nb, rng);
    const auto b2_bases = random_points<G2Curve>(nb, rng);

    auto cpu = groth16::make_cpu_backend();
    auto cuda = gpu::make_cuda_backend(0);
    r1cs::WitnessVector a = a0, b = b0, c = c0;
    const G1Jacobian want_h = cpu->h_msm(a, b, c, h_bases, {}, nullptr);
    const groth16::ZSums want_z =
        cpu->msm_z(inputs, aux, l_bases, a_bases, b1_bases, b2_bases, a_density.data(), b_density.data());
    for (bool pinned : {false, true}) {
        a = a0, b = b0, c = c0;
        Registered reg(pinned ? std::initializer_list<r1cs::WitnessVector*>{&a, &b, &c, &aux}
                              : std::initializer_list<r1cs::WitnessVector*>{});
        if (pinned) {
            EXPECT_EQ(reg.ptrs.size(), 4u) << "host_register refused";
        }
        // Told its z, h_msm copies a page-locked aux ahead and msm_z uses that copy.
        const size_t ahead = gpu::copy_ahead_stats(*cuda).z;
        EXPECT_EQ(cuda->h_msm(a, b, c, h_bases, groth16::ZInputs{inputs, aux}, nullptr), want_h) << "pinned " << pinned;
        expect_z_sums(
            cuda->msm_z(inputs, aux, l_bases, a_bases, b1_bases, b2_bases, a_density.data(), b_density.data()), want_z,
            pinned ? "pinned, z copied ahead" : "pageable");
        EXPECT_EQ(gpu::copy_ahead_stats(*cuda).z, ahead + (pinned ? 1 : 0)) << "pinned " << pinned;
    }
    {
        // A z copied ahead is dropped by the next h_msm, which writes where it was (a,
        // b, c of the same size, no z): msm_z copies it again instead of reading b's
        // transform.
        a = a0, b = b0, c = c0;
        Registered reg({&a, &b, &c, &aux});
        const size_t ahead = gpu::copy_ahead_stats(*cuda).z;
        EXPECT_EQ(cuda->h_msm(a, b, c, h_bases, groth16::ZInputs{inputs, aux}, nullptr), want_h);
        a = c0, b = a0, c = b0;
        r1cs::WitnessVector ca = a, cb = b, cc = c;
        EXPECT_EQ(cuda->h_msm(a, b, c, h_bases, {}, nullptr), cpu->h_msm(ca, cb, cc, h_bases, {}, nullptr));
        expect_z_sums(
            cuda->msm_z(inputs, aux, l_bases, a_bases, b1_bases, b2_bases, a_density.data(), b_density.data()), want_z,
            "after another h_msm");
        // An msm_z for other spans than the ones copied ahead copies its own.
        a = a0, b = b0, c = c0;
        EXPECT_EQ(cuda->h_msm(a, b, c, h_bases, groth16::ZInputs{inputs, aux}, nullptr), want_h);
        const r1cs::WitnessVector aux2 = aux;
        expect_z_sums(
            cuda->msm_z(inputs, aux2, l_bases, a_bases, b1_bases, b2_bases, a_density.data(), b_density.data()), want_z,
            "other spans");
        EXPECT_EQ(gpu::copy_ahead_stats(*cuda).z, ahead);
    }
    // A smaller proof after the large one reuses the grown device scratch.
    r1cs::WitnessVector sa(a0.begin(), a0.begin() + 1000), sb(b0.begin(), b0.begin() + 1000),
        sc(c0.begin(), c0.begin() + 1000);
    r1cs::WitnessVector ca = sa, cb = sb, cc = sc;
    const auto few = random_points<G1Curve>(1023, rng);  // m - 1 for m = 1024
    EXPECT_EQ(cuda->h_msm(sa, sb, sc, few, {}, nullptr), cpu->h_msm(ca, cb, cc, few, {}, nullptr));
}

// A witness in page-locked memory (as the engine's buffer pool gives it) has its z copied
// under the H MSM by both prove()s, and the proof keeps the CPU's bytes.
TEST(GpuGroth16, PinnedWitnessHasItsZCopiedAhead) {
    std::string why;
    if (gpu::device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why;
    const uint64_t seed = test::seed();
    const DenseCase k(seed);
    const auto& [shape, params, w, rs] = k;
    auto cpu = groth16::make_cpu_backend();
    auto cuda = gpu::make_cuda_backend(0);
    const groth16::Proof want = groth16::prove(params, shape.density(), w, rs, *cpu);
    groth16::Witness moved = w;
    {
        Registered reg({&moved.aux, &moved.a, &moved.b, &moved.c});
        ASSERT_EQ(reg.ptrs.size(), 4u) << "host_register refused";
        EXPECT_EQ(groth16::prove(params, shape.density(), moved, rs, *cuda), want);
        EXPECT_EQ(gpu::copy_ahead_stats(*cuda).z, 1u);
        groth16::ProveHooks keep;  // a, b, c stay (registered) until `reg` unregisters them
        keep.abc_released = [] {};
        EXPECT_EQ(groth16::prove(params, shape.density(), std::move(moved), rs, *cuda, nullptr, &keep), want);
        EXPECT_EQ(gpu::copy_ahead_stats(*cuda).z, 2u);
    }
    EXPECT_EQ(groth16::prove(params, shape.density(), w, rs, *cuda), want);  // pageable: copied in msm_z
    EXPECT_EQ(gpu::copy_ahead_stats(*cuda).z, 2u);
    EXPECT_EQ(gpu::copy_ahead_stats(*cpu).z, 0u);
    // CUZK_GPU_COPY_AHEAD=0: pinned or not, msm_z copies z itself; a malformed value is refused.
    setenv("CUZK_GPU_COPY_AHEAD", "0", 1);
    auto own_copy = gpu::make_cuda_backend(0);
    setenv("CUZK_GPU_COPY_AHEAD", "yes", 1);
    EXPECT_THROW(gpu::make_cuda_backend(0), std::invalid_argument);
    unsetenv("CUZK_GPU_COPY_AHEAD");
    groth16::Witness again = w;
    Registered reg({&again.aux, &again.a, &again.b, &again.c});
    EXPECT_EQ(groth16::prove(params, shape.density(), again, rs, *own_copy), want);
    EXPECT_EQ(gpu::copy_ahead_stats(*own_copy).z, 0u);
    r1cs::WitnessVector pa = w.a, pb = w.b, pc = w.c;
    Registered abc({&pa, &pb, &pc});
    EXPECT_EQ(own_copy->copy_abc_ahead(pa, pb, pc), nullptr);  // off for a, b, c too
}

// kProofs SHA-256 chains of other preimages, one shape (a chain's shape depends on its
// length only), one key, the CPU's proofs.
struct ChainProofs {
    r1cs::Shape shape;
    groth16::Parameters params;
    std::vector<groth16::Witness> ws;
    std::vector<groth16::Randomness> rs;
    std::vector<groth16::Proof> want;
    ChainProofs(size_t count, uint64_t seed, std::mt19937_64& rng) {
        shape = circuits::make_builtin("sha256-chain", 1, seed).circuit->shape();
        params = groth16::setup(shape, groth16::ToxicWaste::from_seed(seed));
        auto cpu = groth16::make_cpu_backend();
        for (size_t i = 0; i < count; ++i) {
            ws.push_back(circuits::make_builtin("sha256-chain", 1, seed + i).circuit->witness());
            rs.push_back(groth16::Randomness{Fr::random(rng), Fr::random(rng)});
            want.push_back(groth16::prove(params, shape.density(), ws[i], rs[i], *cpu));
        }
    }
};

// Proves every witness in turn, each proof's hook (after its h_msm) starting the copy of the
// next witness's a, b, c (copy_abc_ahead) and the next proof's h_msm given the handle, as
// the engine's pipeline does; each proof must equal the CPU's. The witnesses must be
// page-locked; their a, b, c stay (the moving prove() proves in place, the hook keeps them).
void prove_in_pipeline(groth16::ProverBackend& cuda, ChainProofs& k) {
    std::shared_ptr<groth16::AbcAhead> ahead;
    for (size_t i = 0; i < k.ws.size(); ++i) {
        std::shared_ptr<groth16::AbcAhead> mine = std::move(ahead);
        groth16::ProveHooks hooks;
        hooks.abc_ahead = mine.get();
        hooks.abc_released = [&] {
            mine.reset();
            if (i + 1 < k.ws.size()) {
                ahead = cuda.copy_abc_ahead(k.ws[i + 1].a, k.ws[i + 1].b, k.ws[i + 1].c);
                EXPECT_NE(ahead, nullptr) << "proof " << i;
            }
        };
        EXPECT_EQ(groth16::prove(k.params, k.shape.density(), std::move(k.ws[i]), k.rs[i], cuda, nullptr, &hooks),
                  k.want[i])
            << "proof " << i;
    }
}

// Registers every witness's aux, a, b, c for the scope.
std::vector<std::unique_ptr<Registered>> register_witnesses(std::vector<groth16::Witness>& ws) {
    std::vector<std::unique_ptr<Registered>> regs;
    for (auto& w : ws) {
        regs.push_back(
            std::make_unique<Registered>(std::initializer_list<r1cs::WitnessVector*>{&w.aux, &w.a, &w.b, &w.c}));
        EXPECT_EQ(regs.back()->ptrs.size(), 4u) << "host_register refused";
    }
    return regs;
}

// Proofs in a pipeline: each proof's hook (after its h_msm) starts the copy of the next
// witness's a, b, c (copy_abc_ahead), the next proof's h_msm starts on it, and every proof
// keeps the CPU's bytes. The witnesses differ (SHA-256 chains of other preimages, one shape),
// so a proof that read another's copies, or its own from before the swap, would fail. Then
// the handle's rules: one pending copy at a time, one given with other vectors is not used,
// one dropped unused makes way, pageable memory or copies ahead switched off start nothing.
TEST(GpuGroth16, AbcCopiedAheadByTheProofBeforeGiveTheCpuBytes) {
    std::string why;
    if (gpu::device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why;
    const uint64_t seed = test::seed();
    std::mt19937_64 rng(seed);
    constexpr size_t kProofs = 4;
    ChainProofs k(kProofs, seed, rng);
    auto& [shape, params, ws, rs, want] = k;
    auto cpu = groth16::make_cpu_backend();
    auto cuda = gpu::make_cuda_backend(0);
    ASSERT_NE(want[0].a, want[1].a);
    const auto regs = register_witnesses(ws);
    prove_in_pipeline(*cuda, k);  // ws keep their a, b, c (registered, and read again below)
    EXPECT_EQ(gpu::copy_ahead_stats(*cuda).abc, kProofs - 1);
    EXPECT_EQ(gpu::copy_ahead_stats(*cuda).z, kProofs);

    // One pending copy at a time; a handle for other vectors is not used (the right H all
    // the same), and that h_msm, writing the scratch, drops the pending copy: the next one
    // starts while the unused handle lives, and that handle, used later, is not trusted.
    r1cs::WitnessVector &a = ws[0].a, &b = ws[0].b, &c = ws[0].c;
    auto h1 = cuda->copy_abc_ahead(ws[1].a, ws[1].b, ws[1].c);
    ASSERT_NE(h1, nullptr);
    EXPECT_EQ(cuda->copy_abc_ahead(a, b, c), nullptr) << "a second pending copy";
    auto cpu_h = [&](const groth16::Witness& w) {
        r1cs::WitnessVector ca = w.a, cb = w.b, cc = w.c;
        return cpu->h_msm(ca, cb, cc, params.h, {}, nullptr);
    };
    const G1Jacobian want_h0 = cpu_h(ws[0]), want_h1 = cpu_h(ws[1]);
    const size_t used = gpu::copy_ahead_stats(*cuda).abc;
    EXPECT_EQ(cuda->h_msm(a, b, c, params.h, {}, h1.get()), want_h0);
    EXPECT_EQ(gpu::copy_ahead_stats(*cuda).abc, used) << "a handle for other vectors was used";
    auto h2 = cuda->copy_abc_ahead(a, b, c);
    ASSERT_NE(h2, nullptr) << "the h_msm that overwrote the scratch left its copy pending";
    EXPECT_EQ(cuda->h_msm(ws[1].a, ws[1].b, ws[1].c, params.h, {}, h1.get()), want_h1) << "a dropped copy was used";
    EXPECT_EQ(gpu::copy_ahead_stats(*cuda).abc, used);
    h1.reset();
    h2 = cuda->copy_abc_ahead(a, b, c);
    ASSERT_NE(h2, nullptr);
    EXPECT_EQ(cuda->h_msm(a, b, c, params.h, {}, h2.get()), want_h0);
    EXPECT_EQ(gpu::copy_ahead_stats(*cuda).abc, used + 1);
    h2.reset();
    // Pageable vectors, mismatched lengths, copies ahead off, the CPU backend: nothing.
    const r1cs::WitnessVector pa = a, pb = b, pc = c;
    EXPECT_EQ(cuda->copy_abc_ahead(pa, pb, pc), nullptr);
    EXPECT_EQ(cuda->copy_abc_ahead(a, b, std::span<const Fr>(c).first(c.size() - 1)), nullptr);
    gpu::set_copy_ahead(*cuda, false);
    EXPECT_EQ(cuda->copy_abc_ahead(a, b, c), nullptr);
    gpu::set_copy_ahead(*cuda, true);
    EXPECT_NE(cuda->copy_abc_ahead(a, b, c), nullptr);  // dropped at once: waits for its copies
    EXPECT_EQ(cpu->copy_abc_ahead(a, b, c), nullptr);
    EXPECT_EQ(gpu::copy_ahead_stats(*cpu).abc, 0u);
    // Never over a z copied ahead for the current proof's msm_z: with more z than a third
    // of the scratch (here z runs into c's third), nothing starts.
    r1cs::WitnessVector big_aux = random_scalars(params.h.size() + 1 + 100, rng);
    Registered big({&big_aux});
    ASSERT_EQ(big.ptrs.size(), 1u);
    EXPECT_EQ(cuda->h_msm(a, b, c, params.h, groth16::ZInputs{ws[0].inputs, big_aux}, nullptr), want_h0);
    EXPECT_EQ(cuda->copy_abc_ahead(ws[1].a, ws[1].b, ws[1].c), nullptr) << "a, c would overwrite the z copied ahead";
}

// An H step with two of a, b, c on the device at once (c copied in over b after the
// quotient: what a small budget gets) proves the CPU's bytes: alone, with z copied ahead
// (into b's place once c's subtraction has read it), and in a pipeline where each proof's
// hook copies the next witness's a ahead (a alone: c has no room). Three vectors, forced,
// and the budget's own choice (64 MiB under a card that uses more already: nothing free, so
// two) give the same bytes; a malformed CUZK_GPU_H_VECTORS is refused by name.
TEST(GpuGroth16, TwoVectorHStepGivesTheSameProofBytes) {
    std::string why;
    if (gpu::device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why;
    const uint64_t seed = test::seed();
    std::mt19937_64 rng(seed);
    constexpr size_t kProofs = 3;
    ChainProofs k(kProofs, seed, rng);
    auto& [shape, params, ws, rs, want] = k;
    auto cpu = groth16::make_cpu_backend();

    expect_env_rejected("CUZK_GPU_H_VECTORS", {"1", "4", "two", "22"});
    setenv("CUZK_GPU_H_VECTORS", "2", 1);
    auto two = gpu::make_cuda_backend(0);
    setenv("CUZK_GPU_H_VECTORS", "3", 1);
    auto three = gpu::make_cuda_backend(0);
    unsetenv("CUZK_GPU_H_VECTORS");
    setenv("CUZK_GPU_MEMORY", "64M", 1);
    auto tight = gpu::make_cuda_backend(0);
    unsetenv("CUZK_GPU_MEMORY");
    EXPECT_EQ(gpu::residency_stats(*two).h_vectors, 0u) << "before any H step";
    EXPECT_EQ(groth16::prove(params, shape.density(), ws[0], rs[0], *two), want[0]);  // pageable
    EXPECT_EQ(gpu::residency_stats(*two).h_vectors, 2u);
    EXPECT_EQ(groth16::prove(params, shape.density(), ws[0], rs[0], *three), want[0]);
    EXPECT_EQ(gpu::residency_stats(*three).h_vectors, 3u);
    EXPECT_EQ(groth16::prove(params, shape.density(), ws[0], rs[0], *tight), want[0]);
    EXPECT_EQ(gpu::residency_stats(*tight).h_vectors, 2u) << "64 MiB with nothing free chose three";
    gpu::set_h_step_vectors(*tight, 3);  // forced from the next H step on
    EXPECT_EQ(groth16::prove(params, shape.density(), ws[1], rs[1], *tight), want[1]);
    EXPECT_EQ(gpu::residency_stats(*tight).h_vectors, 3u);
    EXPECT_THROW(gpu::set_h_step_vectors(*tight, 1), std::invalid_argument);

    // Page-locked witnesses in a pipeline on the two-vector backend.
    const auto regs = register_witnesses(ws);
    const gpu::CopyAheadStats before = gpu::copy_ahead_stats(*two);
    prove_in_pipeline(*two, k);
    EXPECT_EQ(gpu::copy_ahead_stats(*two).abc - before.abc, kProofs - 1);
    EXPECT_EQ(gpu::copy_ahead_stats(*two).z - before.z, kProofs);
    EXPECT_EQ(gpu::residency_stats(*two).h_vectors, 2u);
    // A handle made for two vectors is not used by an H step that keeps three (the right H
    // all the same: it copies a, b, c itself).
    auto h = two->copy_abc_ahead(ws[0].a, ws[0].b, ws[0].c);
    ASSERT_NE(h, nullptr);
    gpu::set_h_step_vectors(*two, 3);
    const size_t used = gpu::copy_ahead_stats(*two).abc;
    r1cs::WitnessVector ca = ws[0].a, cb = ws[0].b, cc = ws[0].c;
    EXPECT_EQ(two->h_msm(ws[0].a, ws[0].b, ws[0].c, params.h, {}, h.get()),
              cpu->h_msm(ca, cb, cc, params.h, {}, nullptr));
    EXPECT_EQ(gpu::copy_ahead_stats(*two).abc, used);
    EXPECT_EQ(gpu::residency_stats(*two).h_vectors, 3u);
}

// Twiddles lent to the MSMs between H steps (released after each H step, built again before
// the next; on a budget with no room, after the MSM scratch is released): the CPU's proof
// bytes, pageable and in a pipeline of copies ahead; the backend says what it lends.
TEST(GpuGroth16, LentTwiddlesGiveTheSameProofBytes) {
    std::string why;
    if (gpu::device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why;
    const uint64_t seed = test::seed();
    std::mt19937_64 rng(seed);
    constexpr size_t kProofs = 3;
    ChainProofs k(kProofs, seed, rng);
    auto& [shape, params, ws, rs, want] = k;
    const size_t m = ntt::EvaluationDomain::size_for(ws[0].a.size());

    expect_env_rejected("CUZK_GPU_LEND_TWIDDLES", {"2", "yes", "-1"});
    setenv("CUZK_GPU_LEND_TWIDDLES", "1", 1);
    auto lend = gpu::make_cuda_backend(0);  // three vectors (the whole card) and lent all the same
    unsetenv("CUZK_GPU_LEND_TWIDDLES");
    setenv("CUZK_GPU_MEMORY", "64M", 1);
    auto tight = gpu::make_cuda_backend(0);  // lent by the budget; nothing free: the MSM scratch gives way
    unsetenv("CUZK_GPU_MEMORY");
    setenv("CUZK_GPU_LEND_TWIDDLES", "0", 1);
    auto keep = gpu::make_cuda_backend(0);
    unsetenv("CUZK_GPU_LEND_TWIDDLES");
    gpu::set_h_step_vectors(*keep, 2);  // two vectors, the table kept all the same

    for (size_t i = 0; i < kProofs; ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(groth16::prove(params, shape.density(), ws[i], rs[i], *lend), want[i]);
        EXPECT_EQ(gpu::residency_stats(*lend).twiddles_lent, gpu::ntt::twiddle_table_bytes(m));
        EXPECT_EQ(groth16::prove(params, shape.density(), ws[i], rs[i], *tight), want[i]);
        EXPECT_EQ(gpu::residency_stats(*tight).twiddles_lent, gpu::ntt::twiddle_table_bytes(m));
        EXPECT_EQ(groth16::prove(params, shape.density(), ws[i], rs[i], *keep), want[i]);
        EXPECT_EQ(gpu::residency_stats(*keep).twiddles_lent, 0u);
    }
    // Page-locked witnesses in a pipeline (a and z copied ahead) on the tight backend.
    const auto regs = register_witnesses(ws);
    const gpu::CopyAheadStats before = gpu::copy_ahead_stats(*tight);
    prove_in_pipeline(*tight, k);
    EXPECT_EQ(gpu::copy_ahead_stats(*tight).z - before.z, kProofs);
    // Off from the next H step on: the table stays.
    gpu::set_twiddle_lending(*lend, false);
    EXPECT_EQ(groth16::prove(params, shape.density(), ws[0], rs[0], *lend), want[0]);
    EXPECT_EQ(gpu::residency_stats(*lend).twiddles_lent, 0u);
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
