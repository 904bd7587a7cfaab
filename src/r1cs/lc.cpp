#include "cuzk/r1cs/lc.hpp"

namespace cuzk::r1cs {

const Fr& pow2(size_t i) {
    static const std::array<Fr, 256> table = [] {
        std::array<Fr, 256> t{};
        t[0] = Fr::one();
        for (size_t k = 1; k < t.size(); ++k) t[k] = t[k - 1].dbl();
        return t;
    }();
    return table.at(i);
}

void LinearCombination::normalize() {
    if (terms_.size() > 1) {
        // Stable, so that equal variables merge in insertion order (the sum is the same anyway).
        std::stable_sort(terms_.begin(), terms_.end(), [](const Term& a, const Term& b) { return a.var < b.var; });
    }
    size_t out = 0;
    for (size_t i = 0; i < terms_.size();) {
        Term t = terms_[i++];
        while (i < terms_.size() && terms_[i].var == t.var) t.coeff += terms_[i++].coeff;
        if (!t.coeff.is_zero()) terms_[out++] = t;
    }
    terms_.resize(out);
}

Fr LinearCombination::eval(std::span<const Fr> inputs, std::span<const Fr> aux) const {
    Fr acc = Fr::zero();
    for (const Term& t : terms_) {
        const Fr& z = t.var.is_aux() ? aux[t.var.index()] : inputs[t.var.index()];
        acc += t.coeff.is_one() ? z : z * t.coeff;
    }
    return acc;
}

}  // namespace cuzk::r1cs
