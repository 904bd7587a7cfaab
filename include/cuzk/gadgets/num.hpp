// Field elements in a constraint system (bellpepper-core gadgets/num.rs):
//   AllocatedNum  a variable with its value: alloc (0 constraints), inputize (1),
//                 add / mul / square (1 each), assert_nonzero (1),
//                 conditionally_reverse (2), to_bits_le (255 bits + 1 = 256).
//   Num<CS>       an unallocated linear combination with its value (packing, sums).
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/gadgets/boolean.hpp"
#include "cuzk/r1cs/lc.hpp"

namespace cuzk::gadgets {

struct AllocatedNum {
    Variable var;
    Fr value = Fr::zero();

    template <class CS, class F>
    static AllocatedNum alloc(CS& cs, F&& value_fn) {
        Fr v = Fr::zero();
        Variable var = cs.alloc([&] { return v = value_fn(); });
        return {var, v};
    }
    template <class CS, class F>
    static AllocatedNum alloc_input(CS& cs, F&& value_fn) {
        Fr v = Fr::zero();
        Variable var = cs.alloc_input([&] { return v = value_fn(); });
        return {var, v};
    }
    // Exposes this value as a new public input: input · 1 = self.
    template <class CS>
    void inputize(CS& cs) const {
        Variable in = cs.alloc_input([&] { return value; });
        cs.enforce("enforce input is correct", cs.lc(in), cs.lc(r1cs::Variable::one()), cs.lc(var));
    }
    template <class CS>
    AllocatedNum add(CS& cs, const AllocatedNum& o) const {
        const Fr s = value + o.value;
        Variable v = cs.alloc([&] { return s; });
        auto a = cs.lc(var);
        cs.add(a, o.var);
        cs.enforce("addition constraint", a, cs.lc(r1cs::Variable::one()), cs.lc(v));
        return {v, s};
    }
    template <class CS>
    AllocatedNum mul(CS& cs, const AllocatedNum& o) const {
        const Fr p = value * o.value;
        Variable v = cs.alloc([&] { return p; });
        cs.enforce("multiplication constraint", cs.lc(var), cs.lc(o.var), cs.lc(v));
        return {v, p};
    }
    template <class CS>
    AllocatedNum square(CS& cs) const {
        const Fr p = value.square();
        Variable v = cs.alloc([&] { return p; });
        cs.enforce("squaring constraint", cs.lc(var), cs.lc(var), cs.lc(v));
        return {v, p};
    }
    // self · inv = 1; throws SynthesisError for a zero value where values exist.
    template <class CS>
    void assert_nonzero(CS& cs) const {
        Variable inv = cs.alloc([&] {
            if (value.is_zero()) throw SynthesisError("AllocatedNum::assert_nonzero: division by zero");
            return value.inverse();
        });
        cs.enforce("nonzero assertion constraint", cs.lc(var), cs.lc(inv), cs.lc(r1cs::Variable::one()));
    }
    // (c, d) = condition ? (b, a) : (a, b).
    template <class CS>
    static std::pair<AllocatedNum, AllocatedNum> conditionally_reverse(CS& cs, const AllocatedNum& a,
                                                                       const AllocatedNum& b,
                                                                       const Boolean& condition) {
        const bool swap = condition.value();
        AllocatedNum c, d;
        {
            auto ns = cs.namespace_("conditional reversal result 1");
            c = alloc(cs, [&] { return swap ? b.value : a.value; });
        }
        {
            auto la = cs.lc(a.var);
            cs.sub(la, b.var);
            auto lc = cs.lc(a.var);
            cs.sub(lc, c.var);
            cs.enforce("first conditional reversal", la, condition.lc(cs, Fr::one()), lc);
        }
        {
            auto ns = cs.namespace_("conditional reversal result 2");
            d = alloc(cs, [&] { return swap ? a.value : b.value; });
        }
        {
            auto la = cs.lc(b.var);
            cs.sub(la, a.var);
            auto lc = cs.lc(b.var);
            cs.sub(lc, d.var);
            cs.enforce("second conditional reversal", la, condition.lc(cs, Fr::one()), lc);
        }
        return {c, d};
    }
    // 255 allocated bits, least significant first, with Σ 2^i b_i = self: 256 constraints.
    // Not range-checked: x and x + r (when below 2^255) both satisfy it, as in bellperson.
    template <class CS>
    std::vector<Boolean> to_bits_le(CS& cs) const;
};

// 255 allocated bits of value, least significant first (bellpepper's
// field_into_allocated_bits_le): namespaces "bit i", 255 constraints.
template <class CS>
std::vector<AllocatedBit> field_into_allocated_bits_le(CS& cs, const Fr& value) {
    const auto big = value.to_bigint();
    std::vector<AllocatedBit> bits;
    bits.reserve(Fr::kBits);
    for (size_t i = 0; i < Fr::kBits; ++i) {
        auto ns = cs.namespace_([i] { return "bit " + std::to_string(i); });
        bits.push_back(AllocatedBit::alloc(cs, big.bit(i)));
    }
    return bits;
}

template <class CS>
std::vector<Boolean> AllocatedNum::to_bits_le(CS& cs) const {
    auto bits = field_into_allocated_bits_le(cs, value);
    auto lc = cs.lc();
    for (size_t i = 0; i < bits.size(); ++i) cs.add_bit(lc, bits[i].var, bits[i].value, r1cs::pow2(i));
    cs.sub(lc, var);
    cs.enforce("unpacking constraint", cs.lc(), cs.lc(), lc);
    return {bits.begin(), bits.end()};
}

template <class CS>
class Num {
 public:
    using LC = typename CS::LC;

    static Num zero(const CS& cs) { return Num(cs.lc(), Fr::zero()); }
    static Num from(const CS& cs, const AllocatedNum& n) { return Num(cs.lc(n.var), n.value); }

    const Fr& value() const { return value_; }
    const LC& raw_lc() const { return lc_; }
    // coeff · self as a fresh LC.
    LC lc(const CS& cs, const Fr& coeff) const {
        LC l = cs.lc();
        cs.add_lc(l, lc_, coeff);
        return l;
    }
    Num& add_bool_with_coeff(const CS& cs, const Boolean& bit, const Fr& coeff) {
        if (bit.value()) value_ += coeff;
        bit.add_to_lc(cs, lc_, coeff);
        return *this;
    }
    Num& add(const CS& cs, const Num& o) {
        cs.add_lc(lc_, o.lc_);
        value_ += o.value_;
        return *this;
    }
    Num& scale(const CS& cs, const Fr& s) {
        cs.scale(lc_, s);
        value_ *= s;
        return *this;
    }

 private:
    Num(LC l, const Fr& v) : lc_(std::move(l)), value_(v) {}
    LC lc_;
    Fr value_;
};

}  // namespace cuzk::gadgets
