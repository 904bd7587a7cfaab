// The device computes the same field arithmetic as the host, byte for byte: every
// operation of the device path (the 32-bit PTX carry chains of cuzk/ff/mont_ptx.hpp:
// mul, square, add, sub, double, negate, and the Fermat inverse built on them) and the
// portable 64-bit CIOS, on random values and on every pair of edge values.
// Skipped (not passed) where the build has no CUDA or the machine has no GPU.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#if CUZK_HAVE_CUDA
#include <cuda_runtime.h>
#endif

#include "cuzk/gpu/device.hpp"
#include "gpu/field_edges.hpp"
#include "support/seed.hpp"

namespace cuzk {
namespace {

template <class F>
void check_against_host(void (*on_device)(const F*, const F*, F*, size_t)) {
    std::string why;
    if (gpu::device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why;
    auto seed = test::seed();
    std::mt19937_64 rng(seed);
    for (size_t n : {1u, 7u, 1000u, 65537u}) {
        std::vector<F> a(n), b(n), out(n, F::one());
        for (size_t i = 0; i < n; ++i) {
            a[i] = F::random(rng);
            b[i] = F::random(rng);
        }
        if (n > 2) {  // edge values: zero, one, p-1
            a[0] = F::zero();
            b[1] = F::one();
            a[2] = -F::one();
            b[2] = -F::one();
        }
        on_device(a.data(), b.data(), out.data(), n);
        for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], a[i] * b[i] + a[i] - b[i]) << "n=" << n << " i=" << i;
    }
}

TEST(GpuField, FpMatchesHost) { check_against_host<Fp>(gpu::fp_mul_add_sub_on_device); }
TEST(GpuField, FrMatchesHost) { check_against_host<Fr>(gpu::fr_mul_add_sub_on_device); }

// Every edge pair first, then random pairs (and random values against edges), odd count.
template <class F>
void check_ops(void (*on_device)(const F*, const F*, gpu::DeviceFieldOps<F>*, size_t)) {
    std::string why;
    if (gpu::device_count(&why) == 0) GTEST_SKIP() << "no GPU: " << why;
    const auto seed = test::seed();
    std::mt19937_64 rng(seed);
    const auto edges = test::field_edge_values<F>();
    std::vector<F> a, b;
    for (const F& x : edges)
        for (const F& y : edges) {
            a.push_back(x);
            b.push_back(y);
        }
    const size_t n = 100003;
    while (a.size() < n) {
        a.push_back(F::random(rng));
        b.push_back(a.size() % 5 == 0 ? edges[a.size() % edges.size()] : F::random(rng));
    }
    std::vector<gpu::DeviceFieldOps<F>> out(n);
    on_device(a.data(), b.data(), out.data(), n);
    for (size_t i = 0; i < n; ++i) {
        const F& x = a[i];
        const F& y = b[i];
        const auto& r = out[i];
        const auto where = [&] { return " at i=" + std::to_string(i) + " a=" + x.to_hex() + " b=" + y.to_hex(); };
        ASSERT_EQ(r.mul, x * y) << "mul" << where();
        ASSERT_EQ(r.sqr, x * x) << "square" << where();
        ASSERT_EQ(r.add, x + y) << "add" << where();
        ASSERT_EQ(r.sub, x - y) << "sub" << where();
        ASSERT_EQ(r.dbl, x + x) << "dbl" << where();
        ASSERT_EQ(r.neg, F::zero() - x) << "neg" << where();
        ASSERT_EQ(r.mul_portable, x * y) << "mul_portable" << where();
        ASSERT_EQ(r.mul_sub_mul, x * y - (x + y) * (x - y)) << "mul_sub_mul" << where();
        ASSERT_EQ(r.mul_fp64, x * y) << "mul_fp64" << where();
        if (i < edges.size() * edges.size() || i % 16 == 0) {
            ASSERT_EQ(r.inv, x.inverse()) << "inverse" << where();
        }
    }
}

TEST(GpuField, FpAllOpsMatchHost) { check_ops<Fp>(gpu::fp_ops_on_device); }
TEST(GpuField, FrAllOpsMatchHost) { check_ops<Fr>(gpu::fr_ops_on_device); }

// device_memory: a plausible report, an unknown device refused, and 256 MiB allocated
// shows as (about) that much less free.
TEST(GpuDevice, MemoryReportSeesAnAllocation) {
    std::string why;
    if (gpu::device_count(&why) == 0) {
        if (!gpu::built_with_cuda()) {
            EXPECT_THROW(gpu::device_memory(0), std::runtime_error);
        }
        GTEST_SKIP() << "no GPU: " << why;
    }
    const gpu::DeviceMemory before = gpu::device_memory(0);
    ASSERT_GT(before.total, size_t(0));
    ASSERT_LE(before.free, before.total);
    EXPECT_THROW(gpu::device_memory(1 << 20), std::runtime_error) << "no such device";
    EXPECT_THROW(gpu::device_memory(-1), std::runtime_error) << "no such device";
    // ... and the refusal leaves no error behind for the next launch check.
    std::vector<Fr> a(64, Fr::one()), out(64);
    EXPECT_NO_THROW(gpu::fr_mul_add_sub_on_device(a.data(), a.data(), out.data(), a.size()));
#if CUZK_HAVE_CUDA
    const size_t bytes = size_t(256) << 20;
    void* p = nullptr;
    ASSERT_EQ(cudaMalloc(&p, bytes), cudaSuccess);
    const gpu::DeviceMemory during = gpu::device_memory(0);
    ASSERT_EQ(cudaFree(p), cudaSuccess);
    EXPECT_EQ(during.total, before.total);
    EXPECT_LE(during.free + bytes * 3 / 4, before.free) << "256 MiB allocated, free fell by less than 192 MiB";
#endif
}

}  // namespace
}  // namespace cuzk
