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

// RandomDense by its definition: one constraint at a time, draws interleaved with the work.
struct RandomDenseOneAtATime {
    size_t constraints = 3, inputs = 1;  // input constraints included
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
        size_t next_unread = 1;  // the inputs and the first private value are read in turn first
        auto draw = [&](size_t n) {
            const size_t r = rng() % n;
            return next_unread < inputs + 2 ? next_unread++ : r;
        };
        for (size_t k = 0; k + inputs + 1 < constraints; ++k) {
            const size_t n = vars.size();
            const size_t i = draw(n), j = draw(n), l = draw(n);
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
    // Products around the block of 64 and its prefetch distance of 8.
    for (size_t products : {size_t(1), size_t(7), size_t(63), size_t(64), size_t(65), size_t(200), size_t(1000)}) {
        for (size_t inputs : {size_t(1), size_t(2)}) {
            const size_t constraints = products + inputs + 1;
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

// --size N is the constraint count, input constraints included.
TEST(BuiltinRandomDense, SizeIsTheConstraintCount) {
    for (auto [size, inputs] : {std::pair<size_t, size_t>{3, 1}, {7, 4}, {200, 3}, {1000, 64}}) {
        const auto b = circuits::make_builtin("random-dense", size, 1, inputs);
        const r1cs::Shape shape = b.circuit->shape();
        EXPECT_EQ(shape.num_constraints, size) << "inputs " << inputs;
        EXPECT_EQ(shape.num_inputs, inputs + 1);
        EXPECT_EQ(b.public_inputs.size(), inputs);
    }
}

// Every input and aux variable is in some constraint: one in none has the identity as its
// L (or IC) point, which the key writer refuses after the whole setup. The smallest sizes
// (and 64 inputs for 64 constraints, and 10 for 10, before the sizes were checked) lost
// the first private value in ~1 of 8 seeds.
TEST(BuiltinRandomDense, EveryVariableIsInAConstraint) {
    const uint64_t seed = test::seed();
    for (size_t inputs : {size_t(0), size_t(1), size_t(2), size_t(3), size_t(10), size_t(20), size_t(50), size_t(64)}) {
        const size_t min = circuits::random_dense_min_size(inputs);
        for (size_t size : {min, min + 1, min + 2, min + 10, 2 * min + 64}) {
            for (uint64_t s = seed; s < seed + 8; ++s) {
                const r1cs::Shape shape = circuits::make_builtin("random-dense", size, s, inputs).circuit->shape();
                std::vector<bool> used(shape.num_inputs + shape.num_aux, false);
                for (const r1cs::Matrix m : {r1cs::Matrix::A, r1cs::Matrix::B, r1cs::Matrix::C}) {
                    const r1cs::ColumnMatrix t = shape.transpose(m);
                    for (size_t v = 0; v < used.size(); ++v) used[v] = used[v] || t.col_ptr[v + 1] > t.col_ptr[v];
                }
                for (size_t v = 1; v < used.size(); ++v)
                    ASSERT_TRUE(used[v]) << "variable " << v << " (inputs first) in no constraint: size " << size
                                         << ", inputs " << inputs << ", seed " << s;
            }
        }
    }
}

// The size and input count are checked before any work, with the range in the message.
TEST(BuiltinRandomDense, SizeAndInputsCheckedUpFront) {
    auto message = [](auto f) {
        try {
            f();
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("(no exception)");
    };
    EXPECT_NE(message([] { circuits::check_builtin("random-dense", 64, 64); }).find("at least 87"), std::string::npos);
    for (size_t inputs : {size_t(10), size_t(11), size_t(20), size_t(50)})
        EXPECT_NE(message([&] { circuits::make_builtin("random-dense", 10, 1, inputs); }).find("needs a size"),
                  std::string::npos)
            << inputs;
    EXPECT_NE(message([] { circuits::check_builtin("random-dense", 10, ~size_t(0)); }).find("needs a size"),
              std::string::npos);
    EXPECT_NE(message([] { circuits::check_builtin("sha256-chain", 0); }).find("[1, 2^28]"), std::string::npos);
    EXPECT_NE(message([] { circuits::check_builtin("foo", 1); }).find("unknown circuit 'foo'"), std::string::npos);
    EXPECT_NO_THROW(circuits::check_builtin("random-dense", circuits::random_dense_min_size(64), 64));
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
    for (size_t inputs : {size_t(1), size_t(4)}) {
        for (size_t constraints : {circuits::random_dense_min_size(inputs), size_t(100), size_t(5000)}) {
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
