#include "selfcheck.hpp"

#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/fp2.hpp"

namespace cuzk::cli {
namespace {

struct Check {
    const char* name;
    std::function<bool()> run;
};

std::vector<Check> checks() {
    return {
        {"Fr: 7 generates the 2^32-th roots of unity",
         [] {
             Fr w = Fr::from_u64(7).pow(Fr::kP.shr(32));
             for (int i = 0; i < 31; ++i) w = w.square();
             return w == -Fr::one();
         }},
        {"Fp: a * a^-1 = 1 and sqrt(a^2) = +-a on random values",
         [] {
             std::mt19937_64 rng(1);
             for (int i = 0; i < 64; ++i) {
                 Fp a = Fp::random(rng);
                 auto s = a.square().sqrt();
                 if (!(a * a.inverse()).is_one() || !s || (*s != a && *s != -a)) return false;
             }
             return true;
         }},
        {"Fp2: sqrt and inverse on random values",
         [] {
             std::mt19937_64 rng(2);
             for (int i = 0; i < 16; ++i) {
                 Fp2 a = Fp2::random(rng);
                 auto s = a.square().sqrt();
                 if (!(a * a.inverse()).is_one() || !s || s->square() != a.square()) return false;
             }
             return true;
         }},
        {"G1, G2: generators on their curves",
         [] { return G1Affine::generator().is_on_curve() && G2Affine::generator().is_on_curve(); }},
    };
}

template <class Fn>
double time_ns(double seconds, Fn&& fn) {
    using clock = std::chrono::steady_clock;
    size_t iters = 16, total = 0;
    auto start = clock::now();
    double elapsed = 0;
    while (elapsed < seconds) {
        fn(iters);
        total += iters;
        elapsed = std::chrono::duration<double>(clock::now() - start).count();
        iters *= 2;
    }
    return elapsed * 1e9 / double(total);
}

}  // namespace

int run_selfcheck() {
    int failed = 0;
    for (const auto& c : checks()) {
        bool ok = c.run();
        std::printf("  [%s] %s\n", ok ? " ok " : "FAIL", c.name);
        failed += !ok;
    }
    return failed;
}

void run_arith_bench(double seconds) {
    std::mt19937_64 rng(42);
    Fp a = Fp::random(rng), b = Fp::random(rng);
    Fr x = Fr::random(rng), y = Fr::random(rng);
    // Dependent chains (latency), as the blst anchors in bench/RESULTS.md were measured.
    double fp_mul = time_ns(seconds, [&](size_t n) {
        for (size_t i = 0; i < n; ++i) a *= b;
    });
    double fr_mul = time_ns(seconds, [&](size_t n) {
        for (size_t i = 0; i < n; ++i) x *= y;
    });
    double fp_inv = time_ns(seconds, [&](size_t n) {
        for (size_t i = 0; i < n; ++i) a = a.inverse() + b;
    });
    std::printf("  %-28s %10.1f ns\n", "Fp mul", fp_mul);
    std::printf("  %-28s %10.1f ns\n", "Fr mul", fr_mul);
    std::printf("  %-28s %10.1f ns\n", "Fp inverse", fp_inv);
    if (a.is_zero() && x.is_zero()) std::printf(" ");  // keep the chains alive
}

}  // namespace cuzk::cli
