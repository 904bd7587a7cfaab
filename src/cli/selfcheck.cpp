#include "selfcheck.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/ec/subgroup.hpp"
#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/fp2.hpp"
#include "cuzk/pairing/pairing.hpp"

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
        {"G1, G2: generators on their curves and in their subgroups",
         [] {
             return G1Affine::generator().is_on_curve() && G2Affine::generator().is_on_curve() &&
                    is_in_subgroup(G1Affine::generator()) && is_in_subgroup(G2Affine::generator());
         }},
        {"G1: the generator's published compressed encoding (Zcash format)",
         [] {
             // 97f1d3a7...: x of G with the compression flag (draft-irtf-cfrg-pairing-friendly-curves).
             auto enc = to_compressed(G1Affine::generator());
             const uint8_t head[4] = {0x97, 0xf1, 0xd3, 0xa7};
             auto back = decode_g1(enc);
             return std::equal(head, head + 4, enc.begin()) && back && back.point == G1Affine::generator();
         }},
        {"G1, G2: r*G = O",
         [] {
             BigInt<4> r = Fr::kP;
             return mul(G1Jacobian::generator(), r).is_identity() && mul(G2Jacobian::generator(), r).is_identity();
         }},
        {"pairing: e(aP, bQ) = e(P, Q)^(ab), e(P, Q) != 1",
         [] {
             std::mt19937_64 rng(3);
             Fr a = Fr::random(rng), b = Fr::random(rng);
             Fp12 e = pairing(G1Affine::generator(), G2Affine::generator());
             Fp12 lhs =
                 pairing(mul(G1Jacobian::generator(), a).to_affine(), mul(G2Jacobian::generator(), b).to_affine());
             return !e.is_one() && lhs == e.pow((a * b).to_bigint());
         }},
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
    G1Jacobian p1 = G1Jacobian::generator().dbl(), q1 = G1Jacobian::generator();
    double g1_add = time_ns(seconds, [&](size_t n) {
        for (size_t i = 0; i < n; ++i) p1 = p1 + q1;
    });
    G2Jacobian p2 = G2Jacobian::generator().dbl(), q2 = G2Jacobian::generator();
    double g2_add = time_ns(seconds, [&](size_t n) {
        for (size_t i = 0; i < n; ++i) p2 = p2 + q2;
    });
    G1Affine pa = G1Affine::generator();
    G2Affine qa = G2Affine::generator();
    Fp12 acc = Fp12::one();
    double pair = time_ns(seconds, [&](size_t n) {
        for (size_t i = 0; i < n; ++i) acc *= pairing(pa, qa);
    });
    std::printf("  %-28s %10.1f ns\n", "Fp mul", fp_mul);
    std::printf("  %-28s %10.1f ns\n", "Fr mul", fr_mul);
    std::printf("  %-28s %10.1f ns\n", "Fp inverse", fp_inv);
    std::printf("  %-28s %10.1f ns\n", "G1 add (Jacobian)", g1_add);
    std::printf("  %-28s %10.1f ns\n", "G2 add (Jacobian)", g2_add);
    std::printf("  %-28s %10.1f us\n", "pairing", pair / 1000);
    if (p1.is_identity() && p2.is_identity() && acc.is_zero()) std::printf(" ");
    if (a.is_zero() && x.is_zero()) std::printf(" ");  // keep the chains alive
}

}  // namespace cuzk::cli
