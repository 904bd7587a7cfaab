// Variables of a rank-1 constraint system, indexed exactly as bellperson indexes them:
// inputs (public) and aux (private) are two separate sequences, and input 0 is the
// constant ONE, allocated by every constraint system before synthesis starts.
//
// A Variable is one 32-bit word: bit 31 tells aux from input, bits 0..30 are the index.
// That raw word is also the column index stored in the recorded matrices (shape.hpp),
// so sorting by raw() orders inputs before aux, as bellperson's LinearCombination does.
#pragma once

#include <cstdint>

namespace cuzk::r1cs {

class Variable {
 public:
    static constexpr uint32_t kAuxBit = 0x80000000u;
    static constexpr uint32_t kMaxIndex = kAuxBit - 1;  // 2^31 - 1 variables of each kind

    constexpr Variable() = default;  // ONE
    static constexpr Variable one() { return Variable(0); }
    static constexpr Variable input(uint32_t i) { return Variable(i); }
    static constexpr Variable aux(uint32_t i) { return Variable(i | kAuxBit); }
    static constexpr Variable from_raw(uint32_t raw) { return Variable(raw); }

    constexpr bool is_aux() const { return raw_ & kAuxBit; }
    constexpr bool is_input() const { return !is_aux(); }
    constexpr bool is_one() const { return raw_ == 0; }
    constexpr uint32_t index() const { return raw_ & kMaxIndex; }
    constexpr uint32_t raw() const { return raw_; }

    friend constexpr bool operator==(Variable a, Variable b) { return a.raw_ == b.raw_; }
    friend constexpr bool operator!=(Variable a, Variable b) { return a.raw_ != b.raw_; }
    friend constexpr bool operator<(Variable a, Variable b) { return a.raw_ < b.raw_; }

 private:
    explicit constexpr Variable(uint32_t raw) : raw_(raw) {}
    uint32_t raw_ = 0;
};

}  // namespace cuzk::r1cs
