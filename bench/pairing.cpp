// Pairing benchmarks, one thread: Fp12 arithmetic, the Miller loop, the final
// exponentiation, one pairing, and a product of 4 pairings (one shared Miller loop and one
// final exponentiation, the Groth16 verifier's shape), with and without prepared G2.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/pairing/pairing.hpp"

namespace cuzk {
namespace {

// Base-field and Fp2 products, to read the tower figures in units of Fp multiplies.
void BM_FpMul(benchmark::State& state) {
    std::mt19937_64 rng(5);
    Fp a = Fp::random(rng), b = Fp::random(rng);
    for (auto _ : state) {
        a = a * b;
        benchmark::DoNotOptimize(a);
    }
}
BENCHMARK(BM_FpMul);

void BM_Fp2Mul(benchmark::State& state) {
    std::mt19937_64 rng(6);
    Fp2 a = Fp2::random(rng), b = Fp2::random(rng);
    for (auto _ : state) {
        a = a * b;
        benchmark::DoNotOptimize(a);
    }
}
BENCHMARK(BM_Fp2Mul);

void BM_Fp12Mul(benchmark::State& state) {
    std::mt19937_64 rng(1);
    Fp12 a = Fp12::random(rng), b = Fp12::random(rng);
    for (auto _ : state) {
        a = a * b;
        benchmark::DoNotOptimize(a);
    }
}
BENCHMARK(BM_Fp12Mul);

void BM_Fp12Square(benchmark::State& state) {
    std::mt19937_64 rng(2);
    Fp12 a = Fp12::random(rng);
    for (auto _ : state) {
        a = a.square();
        benchmark::DoNotOptimize(a);
    }
}
BENCHMARK(BM_Fp12Square);

void BM_Fp12CyclotomicSquare(benchmark::State& state) {
    std::mt19937_64 rng(3);
    Fp12 a = Fp12::random(rng);
    for (auto _ : state) {
        a = a.cyclotomic_square();
        benchmark::DoNotOptimize(a);
    }
}
BENCHMARK(BM_Fp12CyclotomicSquare);

// The compressed form carried through the final exponentiation's runs of squarings.
void BM_Fp12CyclotomicSquareCompressed(benchmark::State& state) {
    std::mt19937_64 rng(3);
    Fp12 a = Fp12::random(rng);
    for (auto _ : state) {
        a = a.cyclotomic_square_compressed();
        benchmark::DoNotOptimize(a);
    }
}
BENCHMARK(BM_Fp12CyclotomicSquareCompressed);

void BM_Fp12Inverse(benchmark::State& state) {
    std::mt19937_64 rng(4);
    Fp12 a = Fp12::random(rng);
    for (auto _ : state) {
        a = a.inverse();
        benchmark::DoNotOptimize(a);
    }
}
BENCHMARK(BM_Fp12Inverse);

void BM_MillerLoop(benchmark::State& state) {
    const G1Affine p = G1Affine::generator();
    const G2Affine q = G2Affine::generator();
    for (auto _ : state) benchmark::DoNotOptimize(miller_loop(p, q));
}
BENCHMARK(BM_MillerLoop)->Unit(benchmark::kMicrosecond);

void BM_MillerLoopPrepared(benchmark::State& state) {
    const G2Prepared q(G2Affine::generator());
    const std::pair<G1Affine, const G2Prepared*> pairs[] = {{G1Affine::generator(), &q}};
    for (auto _ : state) benchmark::DoNotOptimize(multi_miller_loop(pairs));
}
BENCHMARK(BM_MillerLoopPrepared)->Unit(benchmark::kMicrosecond);

void BM_G2Prepare(benchmark::State& state) {
    const G2Affine q = G2Affine::generator();
    for (auto _ : state) {
        G2Prepared prep(q);
        benchmark::DoNotOptimize(prep.lines.data());
    }
}
BENCHMARK(BM_G2Prepare)->Unit(benchmark::kMicrosecond);

void BM_FinalExponentiation(benchmark::State& state) {
    const Fp12 f = miller_loop(G1Affine::generator(), G2Affine::generator());
    for (auto _ : state) benchmark::DoNotOptimize(final_exponentiation(f));
}
BENCHMARK(BM_FinalExponentiation)->Unit(benchmark::kMicrosecond);

void BM_Pairing(benchmark::State& state) {
    const G1Affine p = G1Affine::generator();
    const G2Affine q = G2Affine::generator();
    for (auto _ : state) benchmark::DoNotOptimize(pairing(p, q));
}
BENCHMARK(BM_Pairing)->Unit(benchmark::kMicrosecond);

// BN254: one pairing of the generators, and the Miller loop and final exponentiation apart.
void BM_Bn254Pairing(benchmark::State& state) {
    const bn254::G1Affine p = bn254::G1Affine::generator();
    const bn254::G2Affine q = bn254::G2Affine::generator();
    for (auto _ : state) benchmark::DoNotOptimize(bn254::pairing(p, q));
}
BENCHMARK(BM_Bn254Pairing)->Unit(benchmark::kMicrosecond);

void BM_Bn254MillerLoop(benchmark::State& state) {
    const bn254::G1Affine p = bn254::G1Affine::generator();
    const bn254::G2Affine q = bn254::G2Affine::generator();
    for (auto _ : state) benchmark::DoNotOptimize(bn254::miller_loop(p, q));
}
BENCHMARK(BM_Bn254MillerLoop)->Unit(benchmark::kMicrosecond);

void BM_Bn254FinalExponentiation(benchmark::State& state) {
    const bn254::Fp12 f = bn254::miller_loop(bn254::G1Affine::generator(), bn254::G2Affine::generator());
    for (auto _ : state) benchmark::DoNotOptimize(bn254::final_exponentiation(f));
}
BENCHMARK(BM_Bn254FinalExponentiation)->Unit(benchmark::kMicrosecond);

// Four independent pairs (aP, bQ) whose product is not 1, as in a Groth16 check (a
// product equal to 1 would let the final exponentiation take its shortcut for 1).
std::vector<std::pair<G1Affine, G2Affine>> four_pairs() {
    const G1Affine p = G1Affine::generator();
    const G2Affine q = G2Affine::generator();
    std::vector<std::pair<G1Affine, G2Affine>> out;
    for (auto [a, b] : {std::pair{2u, 3u}, {5u, 7u}, {11u, 13u}, {17u, 19u}})
        out.push_back({mul(p, Fr::from_u64(a)).to_affine(), mul(q, Fr::from_u64(b)).to_affine()});
    return out;
}

void BM_PairingProduct4(benchmark::State& state) {
    const auto pairs = four_pairs();
    for (auto _ : state) benchmark::DoNotOptimize(final_exponentiation(multi_miller_loop(pairs)));
}
BENCHMARK(BM_PairingProduct4)->Unit(benchmark::kMicrosecond);

void BM_PairingProduct4Prepared(benchmark::State& state) {
    const auto pairs = four_pairs();
    std::vector<G2Prepared> prepared;
    for (const auto& pq : pairs) prepared.emplace_back(pq.second);
    std::vector<std::pair<G1Affine, const G2Prepared*>> pp;
    for (size_t i = 0; i < pairs.size(); ++i) pp.push_back({pairs[i].first, &prepared[i]});
    for (auto _ : state) benchmark::DoNotOptimize(final_exponentiation(multi_miller_loop(pp)));
}
BENCHMARK(BM_PairingProduct4Prepared)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace cuzk

BENCHMARK_MAIN();
