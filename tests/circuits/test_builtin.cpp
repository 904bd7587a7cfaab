// The built-in random-dense circuit draws its constraints in blocks (so that the random
// reads of a constraint a few ahead can be prefetched): the circuit must stay the one its
// definition gives, constraint by constraint. The reference below is that definition, one
// constraint at a time; shapes (matrices, densities, counts) and witnesses must be equal.
#include <gtest/gtest.h>

#include <random>

#include "cuzk/circuits/builtin.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "support/seed.hpp"

namespace cuzk {
namespace {

// RandomDense as first written: one constraint at a time, draws interleaved with the work.
struct RandomDenseOneAtATime {
    size_t constraints = 1, inputs = 1;
    uint64_t seed = 1;
    template <class CS>
    void synthesize(CS& cs) const {
        std::mt19937_64 rng(seed);
        using r1cs::Variable;
        std::vector<Variable> vars{Variable::one()};
        std::vector<Fr> vals{Fr::one()};
        for (size_t i = 0; i < inputs; ++i) {
            Fr v = Fr::random(rng);
            vars.push_back(cs.alloc_input([&] { return v; }));
            vals.push_back(v);
        }
        {
            Fr v = Fr::random(rng);
            vars.push_back(cs.alloc([&] { return v; }));
            vals.push_back(v);
        }
        for (size_t k = 0; k < constraints; ++k) {
            const size_t n = vars.size();
            const size_t i = rng() % n, j = rng() % n, l = rng() % n;
            const Fr ck = Fr::random(rng), dk = Fr::random(rng);
            const Fr w = (ck * vals[i] + vals[j]) * (vals[l] + dk);
            Variable wv = cs.alloc([&] { return w; });
            auto a = cs.lc();
            cs.add(a, vars[i], ck);
            cs.add(a, vars[j]);
            auto b = cs.lc(vars[l]);
            cs.add_const(b, dk);
            cs.enforce([k] { return "product " + std::to_string(k); }, a, b, cs.lc(wv));
            vars.push_back(wv);
            vals.push_back(w);
        }
    }
};

TEST(BuiltinRandomDense, BlockDrawsGiveTheOneAtATimeCircuit) {
    const uint64_t seed = test::seed();
    // Sizes around the block of 64 and its prefetch distance of 8.
    for (size_t constraints : {size_t(1), size_t(7), size_t(63), size_t(64), size_t(65), size_t(200), size_t(1000)}) {
        for (size_t inputs : {size_t(1), size_t(5)}) {
            SCOPED_TRACE("constraints " + std::to_string(constraints) + ", inputs " + std::to_string(inputs));
            circuits::RandomDense fast;
            fast.constraints = constraints;
            fast.inputs = inputs;
            fast.seed = seed + constraints;
            RandomDenseOneAtATime ref{constraints, inputs, fast.seed};
            const auto cf = groth16::make_circuit(fast, "fast");
            const auto cr = groth16::make_circuit(ref, "reference");
            EXPECT_TRUE(cf->shape() == cr->shape());
            const groth16::Witness wf = cf->witness(), wr = cr->witness();
            EXPECT_EQ(wf.inputs, wr.inputs);
            EXPECT_EQ(wf.aux, wr.aux);
            EXPECT_EQ(wf.a, wr.a);
            EXPECT_EQ(wf.b, wr.b);
            EXPECT_EQ(wf.c, wr.c);
            EXPECT_EQ(cf->check(), std::nullopt);
        }
    }
}

// builtin_counts is what the engine sizes its memory reservations from before recording a
// shape: the counts must be the recorded ones and the non-zeros at least them.
TEST(BuiltinCounts, MatchTheRecordedShapes) {
    const uint64_t seed = test::seed();
    auto expect_fits = [](const r1cs::ShapeCounts& c, const r1cs::Shape& s) {
        EXPECT_EQ(c.num_inputs, s.num_inputs);
        EXPECT_EQ(c.num_aux, s.num_aux);
        EXPECT_EQ(c.num_constraints, s.num_constraints);
        EXPECT_GE(c.nnz_a, s.a.nnz());
        EXPECT_GE(c.nnz_b, s.b.nnz());
        EXPECT_GE(c.nnz_c, s.c.nnz());
        EXPECT_GE(c.coeffs, s.coeffs.size());
        // Bounds, but tight ones: a reservation from them is not wasteful.
        EXPECT_LE(c.nnz(), s.a.nnz() + s.b.nnz() + s.c.nnz() + s.num_constraints / 16 + 8);
    };
    for (size_t blocks : {size_t(1), size_t(2), size_t(3)}) {
        SCOPED_TRACE("sha256-chain " + std::to_string(blocks));
        const r1cs::ShapeCounts c = circuits::builtin_counts("sha256-chain", blocks);
        expect_fits(c, circuits::make_builtin("sha256-chain", blocks, seed).circuit->shape());
        EXPECT_EQ(c.nnz_a, circuits::make_builtin("sha256-chain", blocks, seed).circuit->shape().a.nnz());
    }
    for (size_t constraints : {size_t(1), size_t(100), size_t(5000)}) {
        for (size_t inputs : {size_t(1), size_t(4)}) {
            SCOPED_TRACE("random-dense " + std::to_string(constraints) + " " + std::to_string(inputs));
            expect_fits(circuits::builtin_counts("random-dense", constraints, inputs),
                        circuits::make_builtin("random-dense", constraints, seed, inputs).circuit->shape());
        }
    }
    EXPECT_THROW(circuits::builtin_counts("nope", 1), std::invalid_argument);
    EXPECT_THROW(circuits::builtin_counts("random-dense", 0), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk
