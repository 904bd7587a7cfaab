// MultiEq (bellperson gadgets/multieq.rs): batches several equalities lhs_k = rhs_k of
// small bit-widths into one constraint (Σ 2^{s_k} lhs_k) · 1 = Σ 2^{s_k} rhs_k, packing
// while the total width stays below Fr's capacity (254 bits). UInt32::addmany feeds it;
// this is why one SHA-256 compression costs 25,840 constraints and not ~26,000.
//
// A pending batch is flushed when the next equality would not fit, and by finish() (or
// the destructor, as bellperson's Drop does) — call finish() explicitly where the flush
// must happen at a known point; sha256_compression does.
#pragma once

#include <string>

#include "cuzk/r1cs/cs.hpp"
#include "cuzk/r1cs/lc.hpp"

namespace cuzk::gadgets {

template <class CS>
class MultiEq {
 public:
    static constexpr size_t kCapacity = 254;  // Fr::CAPACITY = NUM_BITS - 1

    explicit MultiEq(CS& cs) : cs_(cs), lhs_(cs.lc()), rhs_(cs.lc()) {}
    MultiEq(const MultiEq&) = delete;
    MultiEq& operator=(const MultiEq&) = delete;
    ~MultiEq() {
        if (bits_used_ > 0) accumulate();
    }

    CS& cs() { return cs_; }

    void enforce_equal(size_t num_bits, const typename CS::LC& lhs, const typename CS::LC& rhs) {
        if (kCapacity <= bits_used_ + num_bits) accumulate();
        if (kCapacity <= bits_used_ + num_bits) throw SynthesisError("MultiEq: an equality wider than 253 bits");
        const Fr& coeff = r1cs::pow2(bits_used_);
        cs_.add_lc(lhs_, lhs, coeff);
        cs_.add_lc(rhs_, rhs, coeff);
        bits_used_ += num_bits;
    }
    void finish() {
        if (bits_used_ > 0) accumulate();
    }

 private:
    void accumulate() {
        const size_t ops = ops_;
        cs_.enforce([ops] { return "multieq " + std::to_string(ops); }, std::move(lhs_), cs_.lc(r1cs::Variable::one()),
                    std::move(rhs_));
        lhs_ = cs_.lc();
        rhs_ = cs_.lc();
        bits_used_ = 0;
        ++ops_;
    }

    CS& cs_;
    size_t ops_ = 0;
    size_t bits_used_ = 0;
    typename CS::LC lhs_, rhs_;
};

}  // namespace cuzk::gadgets
