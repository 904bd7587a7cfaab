// Booleans in a constraint system: AllocatedBit (a variable constrained to 0 or 1) and
// Boolean (a constant, an allocated bit, or the negation of one). Constraint order,
// counts and short-circuits follow bellpepper-core's gadgets/boolean.rs, which
// bellperson re-exports:
//   AllocatedBit::alloc              1 constraint   (1 - v) · v = 0
//   AllocatedBit::alloc_conditionally 1             (1 - f - v) · v = 0
//   AllocatedBit::xor                1              (a + a) · b = a + b - r
//   AllocatedBit::and / and_not / nor 1             a·b = r, a·(1-b) = r, (1-a)·(1-b) = r
//   Boolean ops: 0 constraints when an operand is constant, else one AllocatedBit op;
//   sha256_ch 1 (or one `and`), sha256_maj 2 (an `and` for b∧c, then one).
// Every op allocates its result before enforcing, as bellperson does, so variable and
// constraint indices match bellperson's exactly.
//
// Values: a bit carries its value (meaningful in witness and check modes). In shape
// mode the value is whatever the caller passed; only constant-ness shapes a circuit.
#pragma once

#include "cuzk/r1cs/cs.hpp"

namespace cuzk::gadgets {

using r1cs::SynthesisError;
using r1cs::Variable;

struct AllocatedBit {
    Variable var;
    bool value = false;

    template <class CS>
    static AllocatedBit alloc(CS& cs, bool value) {
        Variable v = cs.alloc([&] { return value ? Fr::one() : Fr::zero(); });
        auto a = cs.lc();
        cs.add_const(a, Fr::one());
        cs.sub(a, v);
        cs.enforce("boolean constraint", a, cs.lc(v), cs.lc());
        return {v, value};
    }
    // A bit that must be 0 when must_be_false is 1 (used by to_bits_le_strict).
    template <class CS>
    static AllocatedBit alloc_conditionally(CS& cs, bool value, const AllocatedBit& must_be_false) {
        Variable v = cs.alloc([&] { return value ? Fr::one() : Fr::zero(); });
        auto a = cs.lc();
        cs.add_const(a, Fr::one());
        cs.sub(a, must_be_false.var);
        cs.sub(a, v);
        cs.enforce("boolean constraint", a, cs.lc(v), cs.lc());
        return {v, value};
    }
    // (a + a) · b = a + b - r, i.e. r = a + b - 2ab.
    template <class CS>
    static AllocatedBit xor_(CS& cs, const AllocatedBit& x, const AllocatedBit& y) {
        const bool r = x.value != y.value;
        Variable v = cs.alloc([&] { return r ? Fr::one() : Fr::zero(); });
        auto a = cs.lc(x.var);
        cs.add(a, x.var);
        auto c = cs.lc(x.var);
        cs.add(c, y.var);
        cs.sub(c, v);
        cs.enforce("xor constraint", a, cs.lc(y.var), c);
        return {v, r};
    }
    template <class CS>
    static AllocatedBit and_(CS& cs, const AllocatedBit& x, const AllocatedBit& y) {
        const bool r = x.value && y.value;
        Variable v = cs.alloc([&] { return r ? Fr::one() : Fr::zero(); });
        cs.enforce("and constraint", cs.lc(x.var), cs.lc(y.var), cs.lc(v));
        return {v, r};
    }
    // x ∧ ¬y
    template <class CS>
    static AllocatedBit and_not(CS& cs, const AllocatedBit& x, const AllocatedBit& y) {
        const bool r = x.value && !y.value;
        Variable v = cs.alloc([&] { return r ? Fr::one() : Fr::zero(); });
        auto b = cs.lc();
        cs.add_const(b, Fr::one());
        cs.sub(b, y.var);
        cs.enforce("and not constraint", cs.lc(x.var), b, cs.lc(v));
        return {v, r};
    }
    // ¬x ∧ ¬y
    template <class CS>
    static AllocatedBit nor(CS& cs, const AllocatedBit& x, const AllocatedBit& y) {
        const bool r = !x.value && !y.value;
        Variable v = cs.alloc([&] { return r ? Fr::one() : Fr::zero(); });
        auto a = cs.lc();
        cs.add_const(a, Fr::one());
        cs.sub(a, x.var);
        auto b = cs.lc();
        cs.add_const(b, Fr::one());
        cs.sub(b, y.var);
        cs.enforce("nor constraint", a, b, cs.lc(v));
        return {v, r};
    }
};

class Boolean {
 public:
    enum class Kind : uint8_t { Constant, Is, Not };

    Boolean() = default;                                                             // constant false
    Boolean(const AllocatedBit& b) : kind_(Kind::Is), bit_(b.value), var_(b.var) {}  // NOLINT: as bellperson's From
    static Boolean constant(bool b) {
        Boolean r;
        r.bit_ = b;
        return r;
    }

    Kind kind() const { return kind_; }
    bool is_constant() const { return kind_ == Kind::Constant; }
    // The boolean's value (for Not, the negation of the bit's value).
    bool value() const { return kind_ == Kind::Not ? !bit_ : bit_; }
    // The underlying bit of Is / Not (meaningless for a constant).
    AllocatedBit bit() const { return {var_, bit_}; }
    Variable var() const { return var_; }

    Boolean not_() const {
        Boolean r = *this;
        if (kind_ == Kind::Constant)
            r.bit_ = !bit_;
        else
            r.kind_ = kind_ == Kind::Is ? Kind::Not : Kind::Is;
        return r;
    }

    // lc += coeff · self, with no temporaries: a constant adds coeff·ONE or nothing, Is
    // adds coeff·v, Not adds coeff·ONE - coeff·v (bellperson's Boolean::lc, appended).
    template <class CS>
    void add_to_lc(const CS& cs, typename CS::LC& lc, const Fr& coeff) const {
        switch (kind_) {
            case Kind::Constant:
                if (bit_) cs.add_const(lc, coeff);
                break;
            case Kind::Is:
                cs.add_bit(lc, var_, bit_, coeff);
                break;
            case Kind::Not:
                cs.add_not_bit(lc, var_, bit_, coeff);
                break;
        }
    }
    template <class CS>
    typename CS::LC lc(const CS& cs, const Fr& coeff) const {
        auto l = cs.lc();
        add_to_lc(cs, l, coeff);
        return l;
    }

    // Constant operands short-circuit in bellperson's match order (first arm that fits).
    template <class CS>
    static Boolean xor_(CS& cs, const Boolean& a, const Boolean& b) {
        if (a.is_const(false)) return b;
        if (b.is_const(false)) return a;
        if (a.is_const(true)) return b.not_();
        if (b.is_const(true)) return a.not_();
        if (a.kind_ == Kind::Is && b.kind_ == Kind::Not) return xor_(cs, a, b.not_()).not_();
        if (a.kind_ == Kind::Not && b.kind_ == Kind::Is) return xor_(cs, b, a.not_()).not_();
        return AllocatedBit::xor_(cs, a.bit(), b.bit());  // Is,Is or Not,Not
    }
    template <class CS>
    static Boolean and_(CS& cs, const Boolean& a, const Boolean& b) {
        if (a.is_const(false) || b.is_const(false)) return constant(false);
        if (a.is_const(true)) return b;
        if (b.is_const(true)) return a;
        if (a.kind_ == Kind::Is && b.kind_ == Kind::Not) return AllocatedBit::and_not(cs, a.bit(), b.bit());
        if (a.kind_ == Kind::Not && b.kind_ == Kind::Is) return AllocatedBit::and_not(cs, b.bit(), a.bit());
        if (a.kind_ == Kind::Not) return AllocatedBit::nor(cs, a.bit(), b.bit());
        return AllocatedBit::and_(cs, a.bit(), b.bit());
    }
    template <class CS>
    static Boolean or_(CS& cs, const Boolean& a, const Boolean& b) {
        auto ns = cs.namespace_("not and (not a) (not b)");
        return and_(cs, a.not_(), b.not_()).not_();
    }

    // Enforces a == b (0 constraints for two constants; throws SynthesisError if they differ).
    template <class CS>
    static void enforce_equal(CS& cs, const Boolean& a, const Boolean& b) {
        if (a.is_constant() && b.is_constant()) {
            if (a.bit_ != b.bit_) throw SynthesisError("Boolean::enforce_equal: constants differ (unsatisfiable)");
            return;
        }
        if (a.is_const(true) || b.is_const(true)) {
            const Boolean& x = a.is_const(true) ? b : a;
            auto c = cs.lc();
            cs.add_const(c, Fr::one());
            x.add_to_lc(cs, c, -Fr::one());
            cs.enforce("enforce equal to one", cs.lc(), cs.lc(), c);
            return;
        }
        if (a.is_const(false) || b.is_const(false)) {
            const Boolean& x = a.is_const(false) ? b : a;
            cs.enforce("enforce equal to zero", cs.lc(), cs.lc(), x.lc(cs, Fr::one()));
            return;
        }
        auto c = a.lc(cs, Fr::one());
        b.add_to_lc(cs, c, -Fr::one());
        cs.enforce("enforce equal", cs.lc(), cs.lc(), c);
    }

    // ch = (a ∧ b) ⊕ (¬a ∧ c): one constraint (b - c) · a = ch - c.
    template <class CS>
    static Boolean sha256_ch(CS& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
        const bool value = (a.value() && b.value()) != (!a.value() && c.value());
        if (a.is_constant() && b.is_constant() && c.is_constant()) return constant(value);
        if (a.is_const(false)) return c;
        if (b.is_const(false)) return and_(cs, a.not_(), c);
        if (c.is_const(false)) return and_(cs, a, b);
        if (c.is_const(true)) return and_(cs, a, b.not_()).not_();
        if (b.is_const(true)) return and_(cs, a.not_(), c.not_()).not_();
        // a is constant true or all three are allocated.
        Variable ch = cs.alloc([&] { return value ? Fr::one() : Fr::zero(); });
        auto la = b.lc(cs, Fr::one());
        c.add_to_lc(cs, la, -Fr::one());
        auto lc = cs.lc(ch);
        c.add_to_lc(cs, lc, -Fr::one());
        cs.enforce("ch computation", la, a.lc(cs, Fr::one()), lc);
        return AllocatedBit{ch, value};
    }

    // maj = (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c): bc = b ∧ c, then (2bc - b - c) · a = bc - maj.
    template <class CS>
    static Boolean sha256_maj(CS& cs, const Boolean& a, const Boolean& b, const Boolean& c) {
        const bool av = a.value(), bv = b.value(), cv = c.value();
        const bool value = ((av && bv) != (av && cv)) != (bv && cv);
        if (a.is_constant() && b.is_constant() && c.is_constant()) return constant(value);
        if (a.is_const(false)) return and_(cs, b, c);
        if (b.is_const(false)) return and_(cs, a, c);
        if (c.is_const(false)) return and_(cs, a, b);
        if (c.is_const(true)) return and_(cs, a.not_(), b.not_()).not_();
        if (b.is_const(true)) return and_(cs, a.not_(), c.not_()).not_();
        if (a.is_const(true)) return and_(cs, b.not_(), c.not_()).not_();
        Variable maj = cs.alloc([&] { return value ? Fr::one() : Fr::zero(); });
        Boolean bc;
        {
            auto ns = cs.namespace_("b and c");
            bc = and_(cs, b, c);
        }
        const Fr two = Fr::from_u64(2);
        auto la = bc.lc(cs, two);
        b.add_to_lc(cs, la, -Fr::one());
        c.add_to_lc(cs, la, -Fr::one());
        auto lc = bc.lc(cs, Fr::one());
        cs.sub(lc, maj);
        cs.enforce("maj computation", la, a.lc(cs, Fr::one()), lc);
        return AllocatedBit{maj, value};
    }

 private:
    bool is_const(bool v) const { return kind_ == Kind::Constant && bit_ == v; }

    Kind kind_ = Kind::Constant;
    bool bit_ = false;  // the constant, or the allocated bit's value
    Variable var_;
};

}  // namespace cuzk::gadgets
