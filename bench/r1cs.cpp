// Synthesis throughput on a chain of SHA-256 compressions (512 allocated message bits,
// then N compressions chained through the state): witness mode (the proving hot path,
// with and without a·z, b·z, c·z), check mode, and shape mode (recording A, B, C); and
// the sparse products of the recorded shape. Counters: constraints per second.
// Also Poseidon (native hashes per second, optimized form) and a Poseidon Merkle inclusion
// (the por gadget over 10 arity-8 levels, as tree C / tree R paths) in witness and shape mode.
#include <benchmark/benchmark.h>

#include "cuzk/gadgets/gadgets.hpp"
#include "cuzk/r1cs/r1cs.hpp"

namespace {

using namespace cuzk;
using namespace cuzk::gadgets;

template <class CS>
void chain(CS& cs, size_t blocks) {
    std::vector<Boolean> msg;
    msg.reserve(512);
    for (size_t i = 0; i < 512; ++i) msg.push_back(AllocatedBit::alloc(cs, (i * 2654435761u >> 7) & 1));
    auto state = sha256_iv();
    for (size_t b = 0; b < blocks; ++b) {
        auto ns = cs.namespace_([b] { return "block " + std::to_string(b); });
        state = sha256_compression(cs, msg, state);
    }
    benchmark::DoNotOptimize(state);
}

void report(benchmark::State& st, size_t constraints) {
    st.counters["constraints"] = double(constraints);
    st.counters["constraints/s"] =
        benchmark::Counter(double(constraints) * double(st.iterations()), benchmark::Counter::kIsRate);
}

void BM_Witness(benchmark::State& st) {
    const size_t blocks = size_t(st.range(0));
    size_t n = 0;
    for (auto _ : st) {
        r1cs::WitnessCS cs(r1cs::WitnessOptions{.record_evals = st.range(1) != 0});
        chain(cs, blocks);
        n = cs.num_constraints();
    }
    report(st, n);
}
BENCHMARK(BM_Witness)->ArgNames({"blocks", "evals"})->Args({64, 0})->Args({64, 1})->Unit(benchmark::kMillisecond);

void BM_Check(benchmark::State& st) {
    size_t n = 0;
    for (auto _ : st) {
        r1cs::CheckCS cs;
        chain(cs, size_t(st.range(0)));
        n = cs.num_constraints();
    }
    report(st, n);
}
BENCHMARK(BM_Check)->ArgNames({"blocks"})->Arg(64)->Unit(benchmark::kMillisecond);

void BM_Shape(benchmark::State& st) {
    size_t n = 0;
    for (auto _ : st) {
        r1cs::ShapeCS cs;
        chain(cs, size_t(st.range(0)));
        n = cs.num_constraints();
        benchmark::DoNotOptimize(cs.finish());
    }
    report(st, n);
}
BENCHMARK(BM_Shape)->ArgNames({"blocks"})->Arg(64)->Unit(benchmark::kMillisecond);

void BM_SparseProduct(benchmark::State& st) {
    r1cs::ShapeCS s;
    chain(s, 64);
    r1cs::Shape shape = s.finish();
    r1cs::WitnessCS w;
    chain(w, 64);
    for (auto _ : st) {
        for (auto m : {r1cs::Matrix::A, r1cs::Matrix::B, r1cs::Matrix::C})
            benchmark::DoNotOptimize(shape.product(m, w.inputs(), w.aux(), unsigned(st.range(0))));
    }
    report(st, shape.num_constraints);
    st.counters["nnz"] = double(shape.a.nnz() + shape.b.nnz() + shape.c.nnz());
    st.counters["coeffs"] = double(shape.coeffs.size());
}
BENCHMARK(BM_SparseProduct)->ArgNames({"threads"})->Arg(1)->Unit(benchmark::kMillisecond);

void BM_PoseidonNative(benchmark::State& st) {
    const size_t arity = size_t(st.range(0));
    std::vector<Fr> pre;
    for (size_t i = 0; i < arity; ++i) pre.push_back(Fr::from_u64(i + 1));
    for (auto _ : st) {
        pre[0] = poseidon_hash(pre);
        benchmark::DoNotOptimize(pre[0]);
    }
    st.counters["hashes/s"] = benchmark::Counter(double(st.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PoseidonNative)->ArgNames({"arity"})->Arg(2)->Arg(8)->Arg(11)->Unit(benchmark::kMicrosecond);

// One path of a 8-ary tree with 8^10 leaves (the circuit needs only the path, not the tree).
MerkleProof por_path() {
    MerkleProof p;
    p.shape = TreeShape::poseidon(8);
    Fr cur = Fr::from_u64(12345);
    p.leaf = cur;
    for (uint32_t l = 0; l < 10; ++l) {
        PathElement e;
        e.index = (l * 5) % 8;
        for (uint32_t k = 0; k < 7; ++k) e.siblings.push_back(Fr::from_u64(100 * l + k));
        p.path.push_back(e);
    }
    p.root = p.computed_root();
    return p;
}

template <class CS>
void por_circuit(CS& cs, const MerkleProof& p) {
    por(cs, p.shape, NumOrValue::val(p.leaf), p.path, NumOrValue::val(p.root), true);
}

void BM_PorWitness(benchmark::State& st) {
    const MerkleProof p = por_path();
    size_t n = 0;
    for (auto _ : st) {
        r1cs::WitnessCS cs;
        por_circuit(cs, p);
        n = cs.num_constraints();
    }
    report(st, n);
}
BENCHMARK(BM_PorWitness)->Unit(benchmark::kMillisecond);

void BM_PorShape(benchmark::State& st) {
    const MerkleProof p = por_path();
    size_t n = 0;
    for (auto _ : st) {
        r1cs::ShapeCS cs;
        por_circuit(cs, p);
        n = cs.num_constraints();
        benchmark::DoNotOptimize(cs.finish());
    }
    report(st, n);
}
BENCHMARK(BM_PorShape)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
