// Sparse linear combinations sum_i c_i * x_i over Fr, as recorded in shape mode.
//
// Terms are appended unsorted (an append is one vector push: gadgets build LCs of a few
// hundred terms bit by bit) and merged once, by normalize(), when the constraint is
// recorded: sort by column (inputs before aux, as bellperson orders them), add the
// coefficients of equal variables, drop terms whose merged coefficient is zero. A
// variable whose merged coefficient is zero therefore does not occur in the matrix nor
// in the densities, exactly as bellperson's eval_with_trackers skips zero coefficients.
#pragma once

#include <algorithm>
#include <array>
#include <span>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/r1cs/variable.hpp"

namespace cuzk::r1cs {

// 2^i in Fr for i < 256 (multipacking, UInt32 sums and MultiEq shifts use them).
const Fr& pow2(size_t i);

struct Term {
    Variable var;
    Fr coeff;
};

class LinearCombination {
 public:
    LinearCombination() = default;
    explicit LinearCombination(Variable v) { terms_.push_back({v, Fr::one()}); }

    void add(Variable v) { terms_.push_back({v, Fr::one()}); }
    void add(Variable v, const Fr& c) { terms_.push_back({v, c}); }
    void sub(Variable v) { terms_.push_back({v, -Fr::one()}); }
    void sub(Variable v, const Fr& c) { terms_.push_back({v, -c}); }
    void add(const LinearCombination& o) { terms_.insert(terms_.end(), o.terms_.begin(), o.terms_.end()); }
    void sub(const LinearCombination& o) {
        for (const Term& t : o.terms_) terms_.push_back({t.var, -t.coeff});
    }
    // this += c * o (one field multiplication per term of o).
    void add_scaled(const LinearCombination& o, const Fr& c) {
        if (c.is_one()) return add(o);
        for (const Term& t : o.terms_) terms_.push_back({t.var, t.coeff * c});
    }
    void scale(const Fr& c) {
        for (Term& t : terms_) t.coeff *= c;
    }
    void reserve(size_t n) { terms_.reserve(n); }
    void clear() { terms_.clear(); }

    // Sort by column, merge equal variables, drop zero coefficients.
    void normalize();

    std::span<const Term> terms() const { return terms_; }
    size_t size() const { return terms_.size(); }
    bool empty() const { return terms_.empty(); }

    // sum c_i * z_i with z = (inputs, aux); inputs[0] must be ONE.
    Fr eval(std::span<const Fr> inputs, std::span<const Fr> aux) const;

 private:
    std::vector<Term> terms_;
};

}  // namespace cuzk::r1cs
