// The constraint-system layer: LC merging, random circuits in the three modes, densities
// against their definition, transpose, the shape file and its corruptions, check mode.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <tuple>

#include <unistd.h>

#include "cuzk/r1cs/r1cs.hpp"
#include "support/seed.hpp"

namespace cuzk::r1cs {
namespace {

TEST(LinearCombination, MergesTermsAndDropsZeros) {
    LinearCombination l;
    l.add(Variable::aux(3), Fr::from_u64(5));
    l.add(Variable::one());
    l.add(Variable::input(2), Fr::from_u64(7));
    l.sub(Variable::aux(3), Fr::from_u64(5));  // cancels
    l.add(Variable::aux(1));
    l.add(Variable::aux(1));
    l.normalize();
    ASSERT_EQ(l.size(), 3u);
    EXPECT_EQ(l.terms()[0].var, Variable::one());  // inputs first, then aux, by index
    EXPECT_EQ(l.terms()[1].var, Variable::input(2));
    EXPECT_EQ(l.terms()[2].var, Variable::aux(1));
    EXPECT_EQ(l.terms()[2].coeff, Fr::from_u64(2));
}

// A random satisfied circuit: random inputs and aux, then constraints a·b = c where a and
// b are random LCs (with repeated and cancelling terms) and c is a fresh aux variable
// plus random terms whose value is subtracted back out.
struct RandomCircuit {
    uint64_t seed;
    size_t n_inputs = 4, n_aux = 12, n_constraints = 60;

    template <class CS>
    void operator()(CS& cs) const {
        std::mt19937_64 rng(seed);
        std::vector<Variable> vars{Variable::one()};
        std::vector<Fr> vals{Fr::one()};
        auto lc_val = [&](auto& l, Fr& v, size_t terms) {
            for (size_t t = 0; t < terms; ++t) {
                size_t k = rng() % vars.size();
                switch (rng() % 5) {
                    case 0:
                        cs.add(l, vars[k]);
                        v += vals[k];
                        break;
                    case 1:
                        cs.sub(l, vars[k]);
                        v -= vals[k];
                        break;
                    case 2: {  // a term and its negation: merged coefficient zero
                        Fr c = Fr::from_u64(rng() % 9 + 2);
                        cs.add(l, vars[k], c);
                        cs.sub(l, vars[k], c);
                        break;
                    }
                    case 3:
                        cs.add_bit(l, vars[k], false, Fr::zero());  // explicit zero coefficient
                        break;
                    default: {
                        Fr c = Fr::random(rng);
                        cs.add(l, vars[k], c);
                        v += vals[k] * c;
                    }
                }
            }
        };
        for (size_t i = 0; i < n_inputs; ++i) {
            Fr x = Fr::random(rng);
            vars.push_back(cs.alloc_input([&] { return x; }));
            vals.push_back(x);
        }
        for (size_t i = 0; i < n_aux; ++i) {
            Fr x = Fr::from_u64(rng() % 3);  // many 0/1 values, as in real circuits
            vars.push_back(cs.alloc([&] { return x; }));
            vals.push_back(x);
        }
        for (size_t i = 0; i < n_constraints; ++i) {
            auto ns = cs.namespace_([i] { return "c" + std::to_string(i); });
            auto a = cs.lc();
            auto b = cs.lc();
            Fr av = Fr::zero(), bv = Fr::zero();
            lc_val(a, av, rng() % 6);
            lc_val(b, bv, rng() % 6);
            Fr prod = av * bv;
            auto c = cs.lc();
            Fr cv = Fr::zero();
            lc_val(c, cv, rng() % 4);
            // c + out - cv = a·b  with out = a·b  (out is a fresh aux variable)
            Variable out = cs.alloc([&] { return prod; });
            vars.push_back(out);
            vals.push_back(prod);
            cs.add(c, out);
            cs.add_const(c, -cv);
            cs.enforce("product", a, b, c);
        }
    }
};

// Densities from their definition: a variable is set iff some row of the matrix holds it.
Density density_by_definition(const Shape& s) {
    Density d{BitVec(s.num_aux), BitVec(s.num_inputs), BitVec(s.num_aux)};
    for (size_t r = 0; r < s.num_constraints; ++r) {
        for (uint64_t k = s.a.row_ptr[r]; k < s.a.row_ptr[r + 1]; ++k) {
            Variable v = Variable::from_raw(s.a.col[k]);
            EXPECT_FALSE(s.coeffs[s.a.coeff[k]].is_zero());
            if (v.is_aux()) d.a_aux.set(v.index());
        }
        for (uint64_t k = s.b.row_ptr[r]; k < s.b.row_ptr[r + 1]; ++k) {
            Variable v = Variable::from_raw(s.b.col[k]);
            EXPECT_FALSE(s.coeffs[s.b.coeff[k]].is_zero());
            (v.is_aux() ? d.b_aux : d.b_input).set(v.index());
        }
    }
    return d;
}

TEST(RandomCircuits, ModesAgreeAndDensitiesMatchDefinition) {
    const uint64_t seed = test::seed();
    for (uint64_t t = 0; t < 40; ++t) {
        RandomCircuit circ{seed + t};
        ShapeCS s;
        circ(s);
        const Density tracked = s.density();
        Shape shape = s.finish();
        WitnessCS w(WitnessOptions{.record_evals = true});
        circ(w);
        CheckCS c;
        circ(c);
        ASSERT_TRUE(c.is_satisfied()) << c.first_failure()->message;
        ASSERT_EQ(shape.num_constraints, w.num_constraints());
        for (Matrix m : {Matrix::A, Matrix::B, Matrix::C}) {
            auto p = shape.product(m, w.inputs(), w.aux());
            auto p4 = shape.product(m, w.inputs(), w.aux(), 3);
            const auto e = m == Matrix::A ? w.a_evals() : m == Matrix::B ? w.b_evals() : w.c_evals();
            EXPECT_TRUE(std::ranges::equal(p, e)) << "product " << int(m);
            EXPECT_TRUE(std::ranges::equal(p4, e)) << "threaded product " << int(m);
        }
        Density def = density_by_definition(shape);
        EXPECT_EQ(tracked, def);
        EXPECT_EQ(shape.density(), def);
    }
}

TEST(Density, ZeroMergedCoefficientDoesNotOccur) {
    ShapeCS s;
    Variable x = s.alloc([] { return Fr::one(); });
    Variable y = s.alloc([] { return Fr::one(); });
    auto a = s.lc(x);
    s.sub(a, x);  // x cancels out of A
    s.add(a, y);
    auto b = s.lc(x);
    s.add(b, Variable::one(), Fr::from_u64(3));
    s.sub(b, Variable::one(), Fr::from_u64(3));  // ONE cancels out of B
    s.enforce("c", a, b, s.lc());
    Density d = s.density();
    EXPECT_FALSE(d.a_aux.test(x.index()));
    EXPECT_TRUE(d.a_aux.test(y.index()));
    EXPECT_TRUE(d.b_aux.test(x.index()));
    EXPECT_FALSE(d.b_input.test(0));
    EXPECT_EQ(d.a_aux.count(), 1u);
}

TEST(Shape, TransposeListsEveryEntryByColumn) {
    ShapeCS s;
    RandomCircuit{test::seed()}(s);
    Shape shape = s.finish();
    for (Matrix m : {Matrix::A, Matrix::B, Matrix::C}) {
        const SparseMatrix& rm = shape.matrix(m);
        ColumnMatrix t = shape.transpose(m);
        ASSERT_EQ(t.col_ptr.size(), shape.num_inputs + shape.num_aux + 1);
        ASSERT_EQ(t.row.size(), rm.nnz());
        // Rebuild the row-major entries from the columns and compare as sets.
        std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> from_t, from_r;
        for (size_t j = 0; j + 1 < t.col_ptr.size(); ++j) {
            uint32_t raw = j < shape.num_inputs ? Variable::input(uint32_t(j)).raw()
                                                : Variable::aux(uint32_t(j - shape.num_inputs)).raw();
            for (uint64_t k = t.col_ptr[j]; k < t.col_ptr[j + 1]; ++k) {
                if (k > t.col_ptr[j]) {
                    EXPECT_LT(t.row[k - 1], t.row[k]);
                }
                from_t.emplace_back(t.row[k], raw, t.coeff[k]);
            }
        }
        for (size_t r = 0; r < rm.rows(); ++r) {
            for (uint64_t k = rm.row_ptr[r]; k < rm.row_ptr[r + 1]; ++k)
                from_r.emplace_back(uint32_t(r), rm.col[k], rm.coeff[k]);
        }
        std::sort(from_t.begin(), from_t.end());
        std::sort(from_r.begin(), from_r.end());
        EXPECT_EQ(from_t, from_r);
    }
}

TEST(Shape, InputsTimesZeroConstraints) {
    RandomCircuit circ{test::seed()};
    ShapeCS s;
    circ(s);
    const size_t before = s.num_constraints();
    const Density d_before = s.density();
    enforce_inputs_times_zero(s);
    EXPECT_EQ(s.num_constraints(), before + s.num_inputs());
    EXPECT_EQ(s.density(), d_before);  // densities unchanged: inputs only in A, A has no input set
    WitnessCS w(WitnessOptions{.record_evals = true});
    circ(w);
    enforce_inputs_times_zero(w);
    Shape shape = s.finish();
    EXPECT_TRUE(std::ranges::equal(shape.product(Matrix::A, w.inputs(), w.aux()), w.a_evals()));
    for (size_t i = 0; i < w.num_inputs(); ++i) EXPECT_EQ(w.a_evals()[before + i], w.inputs()[i]);
}

// ---- the shape file --------------------------------------------------------------------

class ShapeFile : public ::testing::Test {
 protected:
    void SetUp() override {
        ShapeCS s;
        RandomCircuit{test::seed()}(s);
        shape = s.finish();
        bytes = shape.serialize();
    }
    static std::string error_of(const std::vector<uint8_t>& b) {
        try {
            Shape::deserialize(b);
        } catch (const ShapeError& e) {
            return e.what();
        }
        return "(accepted)";
    }
    Shape shape;
    std::vector<uint8_t> bytes;
};

TEST_F(ShapeFile, RoundTripThroughDisk) {
    auto path = std::filesystem::temp_directory_path() / ("cuzk_shape_" + std::to_string(::getpid()) + ".r1cs");
    write_shape(path, shape);
    Shape back = read_shape(path);
    std::filesystem::remove(path);
    EXPECT_EQ(back, shape);
    EXPECT_EQ(back.hash(), shape.hash());
    EXPECT_THROW(read_shape(path), ShapeError);  // missing file
}

TEST_F(ShapeFile, HashIsOverContent) {
    ShapeCS s;
    RandomCircuit{test::seed() + 1}(s);
    EXPECT_NE(s.finish().hash(), shape.hash());
}

TEST_F(ShapeFile, TruncationRejected) {
    for (size_t len : {size_t(4), size_t(20), size_t(100), bytes.size() / 2, bytes.size() - 1}) {
        std::vector<uint8_t> b(bytes.begin(), bytes.begin() + std::ptrdiff_t(len));
        std::string e = error_of(b);
        EXPECT_NE(e.find(len < 8 ? "bad magic" : "truncated"), std::string::npos) << len << ": " << e;
    }
}

TEST_F(ShapeFile, FlippedBodyByteRejectedByHash) {
    for (size_t pos : {bytes.size() - 1, bytes.size() / 2, size_t(104)}) {
        auto b = bytes;
        b[pos] ^= 0x10;
        EXPECT_EQ(error_of(b), "shape file: content hash mismatch (corrupted body)") << pos;
    }
}

TEST_F(ShapeFile, BadMagicVersionAndCountsRejected) {
    auto b = bytes;
    b[0] = 'X';
    EXPECT_EQ(error_of(b), "shape file: bad magic (not a cuzk R1CS shape)");
    b = bytes;
    b[8] = 9;
    EXPECT_EQ(error_of(b), "shape file: unsupported version 9 (this build reads 1)");
    b = bytes;
    b[40] = uint8_t(b[40] + 1);  // dict_size: the body no longer has the size the header promises
    EXPECT_NE(error_of(b).find("truncated body"), std::string::npos);
    b = bytes;
    b.push_back(0);
    EXPECT_EQ(error_of(b), "shape file: trailing bytes after the body");
    b = bytes;
    b[16] = 0;  // num_inputs = 0 (low byte of a small count)
    b[17] = b[18] = 0;
    EXPECT_EQ(error_of(b), "shape file: no inputs (input 0 is ONE)");
}

// A file's errors name the file, not only "shape file".
TEST_F(ShapeFile, ReadErrorsNameTheFile) {
    auto path = std::filesystem::temp_directory_path() / ("cuzk_bad_shape_" + std::to_string(::getpid()) + ".r1cs");
    auto b = bytes;
    b[0] = 'X';
    {
        std::FILE* f = std::fopen(path.c_str(), "wb");
        ASSERT_NE(f, nullptr);
        ASSERT_EQ(std::fwrite(b.data(), 1, b.size(), f), b.size());
        std::fclose(f);
    }
    try {
        read_shape(path);
        ADD_FAILURE() << "a bad magic accepted";
    } catch (const ShapeError& e) {
        EXPECT_EQ(std::string(e.what()), path.string() + ": bad magic (not a cuzk R1CS shape)");
    }
    std::filesystem::remove(path);
}

// ---- check mode --------------------------------------------------------------------------

TEST(CheckMode, ReportsFirstUnsatisfiedConstraintByPath) {
    auto circuit = [](auto& cs, uint64_t claimed) {
        Variable x = cs.alloc([] { return Fr::from_u64(3); });
        Variable y = cs.alloc([&] { return Fr::from_u64(claimed); });
        auto outer = cs.namespace_("outer");
        cs.enforce("ok", cs.lc(x), cs.lc(x), [&] {
            auto c = cs.lc();
            cs.add_const(c, Fr::from_u64(9));
            return c;
        }());
        {
            auto inner = cs.namespace_([] { return std::string("inner ") + std::to_string(7); });
            cs.enforce([] { return std::string("square"); }, cs.lc(x), cs.lc(x), cs.lc(y));
            auto nine = cs.lc();
            cs.add_const(nine, Fr::from_u64(9));
            cs.enforce("also wrong", cs.lc(y), cs.lc(Variable::one()), nine);
        }
    };
    CheckCS good;
    circuit(good, 9);
    EXPECT_TRUE(good.is_satisfied());
    CheckCS bad;
    circuit(bad, 10);
    ASSERT_FALSE(bad.is_satisfied());
    EXPECT_EQ(bad.first_failure()->index, 1u);
    EXPECT_EQ(bad.first_failure()->path, "outer/inner 7/square");
    EXPECT_EQ(bad.first_failure()->message, "constraint 1 'outer/inner 7/square' is not satisfied");
    EXPECT_EQ(bad.num_constraints(), 3u);
}

TEST(CheckMode, ReplayRejectsShortAssignment) {
    std::vector<Fr> in{Fr::one()}, aux{Fr::one()};
    CheckCS c(in, aux);
    c.alloc([] { return Fr::one(); });
    EXPECT_THROW(c.alloc([] { return Fr::one(); }), SynthesisError);
    EXPECT_THROW(CheckCS(std::vector<Fr>{Fr::zero()}, aux), std::invalid_argument);
}

TEST(WitnessMode, NamesAreNeverResolved) {
    WitnessCS w;
    bool called = false;
    {
        auto ns = w.namespace_([&] {
            called = true;
            return std::string("x");
        });
        w.enforce(
            [&] {
                called = true;
                return std::string("y");
            },
            w.lc(), w.lc(), w.lc());
    }
    ShapeCS s;
    {
        auto ns = s.namespace_([&] {
            called = true;
            return std::string("x");
        });
    }
    EXPECT_FALSE(called);
    EXPECT_EQ(w.num_constraints(), 1u);
    EXPECT_TRUE(w.a_evals().empty());  // evaluations only when asked
}

TEST(Shape, ProductRejectsWrongAssignmentSize) {
    ShapeCS s;
    RandomCircuit{test::seed()}(s);
    Shape shape = s.finish();
    std::vector<Fr> in(shape.num_inputs, Fr::one()), aux(shape.num_aux - 1);
    EXPECT_THROW(shape.product(Matrix::A, in, aux), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::r1cs

// synthesize_blocks: blocks that read a shared header variable and allocate their own give
// the serial assignment; a block that allocates more than its counts is refused.
TEST(WitnessBlocks, ParallelBlocksEqualSerialAndCountsAreEnforced) {
    using namespace cuzk;
    using namespace cuzk::r1cs;
    ScopedNumThreads threads(3);
    auto block = [](auto& cs, Variable header, size_t i) {
        const Fr x = Fr::from_u64(i + 2);
        Variable v = cs.alloc([&] { return x; });
        Variable w = cs.alloc_input([&] { return x * x; });
        auto a = cs.lc(v);
        cs.add(a, header);
        cs.enforce("w = v * v", cs.lc(v), cs.lc(v), cs.lc(w));
        cs.enforce("(v + h) * 1 = v + h", a, cs.lc(Variable::one()), a);
    };
    WitnessOptions opt;
    opt.record_evals = true;
    WitnessCS serial(opt), par(opt);
    for (WitnessCS* cs : {&serial, &par}) {
        Variable h = cs->alloc([] { return Fr::from_u64(7); });
        if (cs == &serial) {
            for (size_t i = 0; i < 10; ++i) block(*cs, h, i);
        } else {
            cs->synthesize_blocks(10, BlockCounts{1, 1, 2}, [&](size_t i, SegmentCS& seg) { block(seg, h, i); });
        }
    }
    EXPECT_EQ(par.num_constraints(), serial.num_constraints());
    EXPECT_TRUE(par.inputs() == serial.inputs());
    EXPECT_TRUE(std::ranges::equal(par.aux(), serial.aux()));
    EXPECT_TRUE(std::ranges::equal(par.a_evals(), serial.a_evals()));
    EXPECT_TRUE(std::ranges::equal(par.c_evals(), serial.c_evals()));

    WitnessCS bad(opt);
    Variable h = bad.alloc([] { return Fr::one(); });
    EXPECT_THROW(bad.synthesize_blocks(4, BlockCounts{1, 1, 1}, [&](size_t i, SegmentCS& seg) { block(seg, h, i); }),
                 SynthesisError);
}

// Reused storage (WitnessBuffers) keeps its length and stale contents: the witness must
// overwrite every entry it counts, in the serial and the parallel-block parts alike, keep the
// storage it was given, and hand back vectors of exactly its counts, whatever the reused
// vectors held: longer than needed, shorter, or of another length each, garbage past their
// lengths as well.
TEST(WitnessBlocks, ReusedStaleStorageGivesTheFreshWitness) {
    using namespace cuzk;
    using namespace cuzk::r1cs;
    ScopedNumThreads threads(3);
    const uint64_t seed = test::seed();
    std::mt19937_64 rng(seed);
    auto block = [](auto& cs, Variable header, size_t i) {
        const Fr x = Fr::from_u64(i + 3);
        Variable v = cs.alloc([&] { return x; });
        Variable u = cs.alloc([&] { return x + x; });
        auto a = cs.lc(v);
        cs.add(a, header);
        auto two = cs.lc(Variable::one());
        cs.add(two, Variable::one());
        cs.enforce("u = 2 v", cs.lc(v), two, cs.lc(u));
        cs.enforce("(v + h) * v", a, cs.lc(v), a);
    };
    // A header allocated and constrained one at a time, then blocks, then a tail again.
    auto synthesize = [&](WitnessCS& cs) {
        Variable h = cs.alloc([] { return Fr::from_u64(11); });
        Variable h2 = cs.alloc([] { return Fr::from_u64(121); });
        cs.enforce("h * h = h2", cs.lc(h), cs.lc(h), cs.lc(h2));
        cs.synthesize_blocks(9, BlockCounts{0, 2, 2}, [&](size_t i, SegmentCS& seg) { block(seg, h, i); });
        block(cs, h2, 100);
    };
    WitnessOptions opt;
    opt.record_evals = true;
    WitnessCS fresh(opt);
    synthesize(fresh);
    const size_t n_aux = fresh.num_aux(), n_cons = fresh.num_constraints();
    ASSERT_EQ(n_aux, 2u + 18 + 2);
    ASSERT_EQ(n_cons, 1u + 18 + 2);

    auto garbage = [&](size_t len) {
        WitnessVector v(len);
        for (Fr& x : v) x = Fr::random(rng);
        return v;
    };
    const size_t lengths[][4] = {{n_aux + 40, n_cons + 7, n_cons + 1, n_cons + 100},  // all longer
                                 {n_aux / 2, 3, n_cons - 1, 0},                       // shorter
                                 {n_aux, n_cons, n_cons, n_cons},                     // the same shape
                                 {0, n_cons + 3, 1, n_cons}};
    for (const auto& len : lengths) {
        SCOPED_TRACE(testing::Message() << "seed " << seed << ", lengths " << len[0] << " " << len[1] << " " << len[2]
                                        << " " << len[3]);
        WitnessBuffers bufs{garbage(len[0]), garbage(len[1]), garbage(len[2]), garbage(len[3])};
        for (auto* v : {&bufs.aux, &bufs.a, &bufs.b, &bufs.c}) {
            v->reserve(n_aux + n_cons + 200);  // no reallocation
            // Past the length too: a WitnessVector grows into its capacity without a zero-fill.
            std::memset(static_cast<void*>(v->data() + v->size()), 0x5A, (v->capacity() - v->size()) * sizeof(Fr));
        }
        const Fr* storage[4] = {bufs.aux.data(), bufs.a.data(), bufs.b.data(), bufs.c.data()};
        WitnessCS reused(opt, std::move(bufs));
        synthesize(reused);
        EXPECT_EQ(reused.num_aux(), n_aux);
        EXPECT_EQ(reused.num_constraints(), n_cons);
        EXPECT_TRUE(std::ranges::equal(reused.aux(), fresh.aux()));
        EXPECT_TRUE(std::ranges::equal(reused.a_evals(), fresh.a_evals()));
        EXPECT_TRUE(std::ranges::equal(reused.b_evals(), fresh.b_evals()));
        EXPECT_TRUE(std::ranges::equal(reused.c_evals(), fresh.c_evals()));
        const WitnessVector aux = reused.take_aux(), a = reused.take_a_evals(), b = reused.take_b_evals(),
                            c = reused.take_c_evals();
        EXPECT_EQ(aux.size(), n_aux);
        EXPECT_EQ(a.size(), n_cons);
        EXPECT_EQ(b.size(), n_cons);
        EXPECT_EQ(c.size(), n_cons);
        EXPECT_TRUE(std::ranges::equal(c, fresh.c_evals()));
        EXPECT_EQ(aux.data(), storage[0]);
        EXPECT_EQ(a.data(), storage[1]);
        EXPECT_EQ(b.data(), storage[2]);
        EXPECT_EQ(c.data(), storage[3]);
    }

    // Without recorded evaluations the reused a, b, c are dropped, not handed back stale.
    WitnessCS no_evals(WitnessOptions{}, WitnessBuffers{garbage(5), garbage(5), garbage(5), garbage(5)});
    synthesize(no_evals);
    EXPECT_TRUE(no_evals.a_evals().empty());
    EXPECT_TRUE(no_evals.take_b_evals().empty());
    EXPECT_TRUE(std::ranges::equal(no_evals.aux(), fresh.aux()));
}
