// The device computes the same field arithmetic as the host, byte for byte.
// Skipped (not passed) where the build has no CUDA or the machine has no GPU.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuzk/gpu/device.hpp"
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

}  // namespace
}  // namespace cuzk
