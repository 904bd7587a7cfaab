// The CUDA backend proves exactly what the CPU backend proves: with the same r and s the
// proof bytes are equal for every built-in circuit, and the proofs verify. Backend
// selection falls back to the CPU with a reason when there is no GPU.
#include <gtest/gtest.h>

#include <cstdlib>

#include "cuzk/circuits/builtin.hpp"
#include "cuzk/gpu/backend.hpp"
#include "cuzk/gpu/device.hpp"
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

}  // namespace
}  // namespace cuzk
