// Boolean and AllocatedBit: every op over every operand mix (constant true/false,
// allocated true/false, negated allocated true/false), as bellpepper's boolean tests do:
// value, result kind, constraint count, and agreement of the three modes.
#include <gtest/gtest.h>

#include <array>
#include <functional>

#include "cuzk/gadgets/boolean.hpp"
#include "harness.hpp"

namespace cuzk::gadgets {
namespace {

using Kind = Boolean::Kind;

enum class Op { ConstTrue, ConstFalse, AllocTrue, AllocFalse, NotTrue, NotFalse };
constexpr std::array<Op, 6> kOps = {Op::ConstTrue,  Op::ConstFalse, Op::AllocTrue,
                                    Op::AllocFalse, Op::NotTrue,    Op::NotFalse};

// The operand: NotTrue is the negation of an allocated bit whose value is true.
template <class CS>
Boolean make(CS& cs, Op op) {
    switch (op) {
        case Op::ConstTrue:
            return Boolean::constant(true);
        case Op::ConstFalse:
            return Boolean::constant(false);
        case Op::AllocTrue:
            return AllocatedBit::alloc(cs, true);
        case Op::AllocFalse:
            return AllocatedBit::alloc(cs, false);
        case Op::NotTrue:
            return Boolean(AllocatedBit::alloc(cs, true)).not_();
        case Op::NotFalse:
            return Boolean(AllocatedBit::alloc(cs, false)).not_();
    }
    return {};
}
bool value_of(Op op) { return op == Op::ConstTrue || op == Op::AllocTrue || op == Op::NotFalse; }
bool is_const(Op op) { return op == Op::ConstTrue || op == Op::ConstFalse; }
bool is_not(Op op) { return op == Op::NotTrue || op == Op::NotFalse; }
Kind kind_of(Op op) { return is_const(op) ? Kind::Constant : is_not(op) ? Kind::Not : Kind::Is; }
size_t allocs(Op op) { return is_const(op) ? 0 : 1; }

struct Result {
    bool value;
    Kind kind;
    size_t constraints;  // beyond the operands' own boolean constraints
};

template <class F>
Result run_binary(Op x, Op y, F&& op) {
    Result res{};
    auto runs = test::run_all_modes([&](auto& cs) {
        Boolean a = make(cs, x), b = make(cs, y);
        const size_t before = cs.num_constraints();
        Boolean r = op(cs, a, b);
        res = {r.value(), r.kind(), cs.num_constraints() - before};
    });
    EXPECT_EQ(runs.witness.num_constraints(), allocs(x) + allocs(y) + res.constraints);
    return res;
}

TEST(Boolean, XorAllOperandMixes) {
    for (Op x : kOps) {
        for (Op y : kOps) {
            SCOPED_TRACE(::testing::Message() << int(x) << "," << int(y));
            auto r = run_binary(x, y, [](auto& cs, auto& a, auto& b) { return Boolean::xor_(cs, a, b); });
            EXPECT_EQ(r.value, value_of(x) != value_of(y));
            // bellperson: a constant operand passes the other through (negated for true);
            // Is/Not mixed gives Not(xor), same kinds give Is(xor).
            Kind want;
            if (is_const(x) && is_const(y))
                want = Kind::Constant;
            else if (is_const(x) || is_const(y)) {
                Op other = is_const(x) ? y : x;
                bool flip = is_const(x) ? value_of(x) : value_of(y);
                want = kind_of(other) == Kind::Is ? (flip ? Kind::Not : Kind::Is) : (flip ? Kind::Is : Kind::Not);
            } else
                want = is_not(x) != is_not(y) ? Kind::Not : Kind::Is;
            EXPECT_EQ(r.kind, want);
            EXPECT_EQ(r.constraints, is_const(x) || is_const(y) ? 0u : 1u);
        }
    }
}

TEST(Boolean, AndAllOperandMixes) {
    for (Op x : kOps) {
        for (Op y : kOps) {
            SCOPED_TRACE(::testing::Message() << int(x) << "," << int(y));
            auto r = run_binary(x, y, [](auto& cs, auto& a, auto& b) { return Boolean::and_(cs, a, b); });
            EXPECT_EQ(r.value, value_of(x) && value_of(y));
            Kind want;
            if (x == Op::ConstFalse || y == Op::ConstFalse)
                want = Kind::Constant;
            else if (x == Op::ConstTrue)
                want = kind_of(y);
            else if (y == Op::ConstTrue)
                want = kind_of(x);
            else
                want = Kind::Is;  // and, and_not or nor: always a fresh Is bit
            EXPECT_EQ(r.kind, want);
            EXPECT_EQ(r.constraints, is_const(x) || is_const(y) ? 0u : 1u);
        }
    }
}

TEST(Boolean, OrAllOperandMixes) {
    for (Op x : kOps) {
        for (Op y : kOps) {
            auto r = run_binary(x, y, [](auto& cs, auto& a, auto& b) { return Boolean::or_(cs, a, b); });
            EXPECT_EQ(r.value, value_of(x) || value_of(y)) << int(x) << "," << int(y);
            EXPECT_EQ(r.constraints, is_const(x) || is_const(y) ? 0u : 1u);
        }
    }
}

template <class F>
void check_ternary(const char* name, F&& op, std::function<bool(bool, bool, bool)> ref,
                   std::function<size_t(Op, Op, Op)> count) {
    for (Op x : kOps)
        for (Op y : kOps)
            for (Op z : kOps) {
                SCOPED_TRACE(::testing::Message() << name << " " << int(x) << "," << int(y) << "," << int(z));
                Result res{};
                test::run_all_modes([&](auto& cs) {
                    Boolean a = make(cs, x), b = make(cs, y), c = make(cs, z);
                    const size_t before = cs.num_constraints();
                    Boolean r = op(cs, a, b, c);
                    res = {r.value(), r.kind(), cs.num_constraints() - before};
                });
                EXPECT_EQ(res.value, ref(value_of(x), value_of(y), value_of(z)));
                EXPECT_EQ(res.constraints, count(x, y, z));
            }
}

TEST(Boolean, Sha256ChAllOperandMixes) {
    check_ternary(
        "ch", [](auto& cs, auto& a, auto& b, auto& c) { return Boolean::sha256_ch(cs, a, b, c); },
        [](bool a, bool b, bool c) { return (a && b) != (!a && c); },
        [](Op a, Op b, Op c) -> size_t {
            // bellperson's match: all constant 0; a false → c (0); b false → a'∧c; c false →
            // a∧b; c true → ¬(a∧¬b); b true → ¬(¬a∧¬c); otherwise one constraint.
            if (is_const(a) && is_const(b) && is_const(c)) return 0;
            if (a == Op::ConstFalse) return 0;
            if (b == Op::ConstFalse) return is_const(a) || is_const(c) ? 0 : 1;
            if (c == Op::ConstFalse || c == Op::ConstTrue) return is_const(a) || is_const(b) ? 0 : 1;
            if (b == Op::ConstTrue) return is_const(a) || is_const(c) ? 0 : 1;
            return 1;
        });
}

TEST(Boolean, Sha256MajAllOperandMixes) {
    check_ternary(
        "maj", [](auto& cs, auto& a, auto& b, auto& c) { return Boolean::sha256_maj(cs, a, b, c); },
        [](bool a, bool b, bool c) { return ((a && b) != (a && c)) != (b && c); },
        [](Op a, Op b, Op c) -> size_t {
            if (is_const(a) && is_const(b) && is_const(c)) return 0;
            if (is_const(c)) return is_const(a) || is_const(b) ? 0 : 1;
            if (is_const(b)) return is_const(a) ? 0 : 1;
            if (is_const(a)) return 1;
            return 2;  // b∧c, then the maj constraint
        });
}

TEST(Boolean, EnforceEqualAllOperandMixes) {
    for (Op x : kOps) {
        for (Op y : kOps) {
            SCOPED_TRACE(::testing::Message() << int(x) << "," << int(y));
            const bool equal = value_of(x) == value_of(y);
            if (is_const(x) && is_const(y)) {
                r1cs::CheckCS cs;
                auto f = [&] { Boolean::enforce_equal(cs, make(cs, x), make(cs, y)); };
                if (equal) {
                    EXPECT_NO_THROW(f());
                    EXPECT_EQ(cs.num_constraints(), 0u);
                } else {
                    EXPECT_THROW(f(), r1cs::SynthesisError);
                }
                continue;
            }
            auto runs =
                test::run_all_modes([&](auto& cs) { Boolean::enforce_equal(cs, make(cs, x), make(cs, y)); }, false);
            EXPECT_EQ(runs.check.is_satisfied(), equal);
            EXPECT_EQ(runs.witness.num_constraints(), allocs(x) + allocs(y) + 1);
        }
    }
}

TEST(AllocatedBit, OpsOverAllValues) {
    for (int xa = 0; xa < 2; ++xa) {
        for (int ya = 0; ya < 2; ++ya) {
            const bool x = xa, y = ya;
            bool got[4];
            test::run_all_modes([&](auto& cs) {
                auto a = AllocatedBit::alloc(cs, x), b = AllocatedBit::alloc(cs, y);
                got[0] = AllocatedBit::xor_(cs, a, b).value;
                got[1] = AllocatedBit::and_(cs, a, b).value;
                got[2] = AllocatedBit::and_not(cs, a, b).value;
                got[3] = AllocatedBit::nor(cs, a, b).value;
                EXPECT_EQ(cs.num_constraints(), 6u);
                EXPECT_EQ(cs.num_aux(), 6u);
            });
            EXPECT_EQ(got[0], x != y);
            EXPECT_EQ(got[1], x && y);
            EXPECT_EQ(got[2], x && !y);
            EXPECT_EQ(got[3], !x && !y);
        }
    }
}

TEST(AllocatedBit, WrongResultIsCaught) {
    // A CheckCS replaying a witness whose xor result is flipped reports that constraint.
    r1cs::WitnessCS w;
    auto circuit = [](auto& cs) {
        auto a = AllocatedBit::alloc(cs, true), b = AllocatedBit::alloc(cs, false);
        auto ns = cs.namespace_("gate");
        AllocatedBit::xor_(cs, a, b);
    };
    circuit(w);
    std::vector<Fr> aux(w.aux().begin(), w.aux().end());
    aux[2] = Fr::zero();  // 1 xor 0 claimed to be 0
    r1cs::CheckCS c(w.inputs(), aux);
    circuit(c);
    ASSERT_FALSE(c.is_satisfied());
    EXPECT_EQ(c.first_failure()->index, 2u);
    EXPECT_EQ(c.first_failure()->message, "constraint 2 'gate/xor constraint' is not satisfied");
}

TEST(AllocatedBit, AllocConditionally) {
    for (int f = 0; f < 2; ++f) {
        for (int v = 0; v < 2; ++v) {
            auto runs = test::run_all_modes(
                [&](auto& cs) {
                    auto must = AllocatedBit::alloc(cs, f);
                    AllocatedBit::alloc_conditionally(cs, v, must);
                },
                false);
            EXPECT_EQ(runs.check.is_satisfied(), !(f && v)) << f << v;
            EXPECT_EQ(runs.witness.num_constraints(), 2u);
        }
    }
}

TEST(AllocatedBit, NonBooleanValueIsCaught) {
    r1cs::CheckCS c(std::vector<Fr>{Fr::one()}, std::vector<Fr>{Fr::from_u64(2)});
    AllocatedBit::alloc(c, true);
    ASSERT_FALSE(c.is_satisfied());
    EXPECT_EQ(c.first_failure()->message, "constraint 0 'boolean constraint' is not satisfied");
}

}  // namespace
}  // namespace cuzk::gadgets
