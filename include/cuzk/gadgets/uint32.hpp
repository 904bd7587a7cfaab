// UInt32 (bellperson gadgets/uint32.rs): 32 Booleans, least significant first, and the
// value. Constraint counts: rotr/shr 0 (rewiring); xor 1 per bit pair that is not
// constant-short-circuited; sha256_ch/maj as Boolean's per bit; addmany of n operands
// allocates ceil(log2(n·(2^32-1))) result bits (33 for 2, 35 for 5; 1 constraint each)
// and one MultiEq equality, or nothing when every operand bit is constant.
#pragma once

#include <array>
#include <span>
#include <string>
#include <vector>

#include "cuzk/gadgets/boolean.hpp"
#include "cuzk/gadgets/multieq.hpp"

namespace cuzk::gadgets {

class UInt32 {
 public:
    UInt32() : UInt32(constant(0)) {}

    static UInt32 constant(uint32_t v) {
        UInt32 r(0);
        for (int i = 0; i < 32; ++i) r.bits_[i] = Boolean::constant((v >> i) & 1);
        r.value_ = v;
        return r;
    }
    template <class CS>
    static UInt32 alloc(CS& cs, uint32_t v) {
        UInt32 r(v);
        for (int i = 0; i < 32; ++i) {
            auto ns = cs.namespace_([i] { return "allocated bit " + std::to_string(i); });
            r.bits_[i] = AllocatedBit::alloc(cs, (v >> i) & 1);
        }
        return r;
    }
    // 32 bits, most significant first (SHA-256 word order).
    static UInt32 from_bits_be(std::span<const Boolean> bits);
    std::array<Boolean, 32> into_bits_be() const;
    // 32 bits, least significant first.
    static UInt32 from_bits(std::span<const Boolean> bits);
    const std::array<Boolean, 32>& bits() const { return bits_; }
    uint32_t value() const { return value_; }

    UInt32 rotr(size_t by) const;
    UInt32 shr(size_t by) const;

    template <class CS>
    UInt32 xor_(CS& cs, const UInt32& o) const {
        UInt32 r(value_ ^ o.value_);
        for (int i = 0; i < 32; ++i) {
            auto ns = cs.namespace_([i] { return "xor of bit " + std::to_string(i); });
            r.bits_[i] = Boolean::xor_(cs, bits_[i], o.bits_[i]);
        }
        return r;
    }
    template <class CS>
    static UInt32 sha256_maj(CS& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
        UInt32 r((a.value_ & b.value_) ^ (a.value_ & c.value_) ^ (b.value_ & c.value_));
        for (int i = 0; i < 32; ++i) {
            auto ns = cs.namespace_([i] { return "maj " + std::to_string(i); });
            r.bits_[i] = Boolean::sha256_maj(cs, a.bits_[i], b.bits_[i], c.bits_[i]);
        }
        return r;
    }
    template <class CS>
    static UInt32 sha256_ch(CS& cs, const UInt32& a, const UInt32& b, const UInt32& c) {
        UInt32 r((a.value_ & b.value_) ^ (~a.value_ & c.value_));
        for (int i = 0; i < 32; ++i) {
            auto ns = cs.namespace_([i] { return "ch " + std::to_string(i); });
            r.bits_[i] = Boolean::sha256_ch(cs, a.bits_[i], b.bits_[i], c.bits_[i]);
        }
        return r;
    }

    // Sum of 2..10 operands modulo 2^32.
    template <class CS>
    static UInt32 addmany(MultiEq<CS>& meq, std::span<const UInt32> ops) {
        if (ops.size() < 2 || ops.size() > 10) throw SynthesisError("UInt32::addmany takes 2 to 10 operands");
        CS& cs = meq.cs();
        uint64_t max_value = uint64_t(ops.size()) * 0xffffffffULL;
        uint64_t sum = 0;
        bool all_constants = true;
        for (const UInt32& op : ops) {
            sum += op.value_;
            for (const Boolean& b : op.bits_) all_constants &= b.is_constant();
        }
        if (all_constants) return constant(uint32_t(sum));

        auto lc = cs.lc();
        if constexpr (CS::kTrustValues) {
            // Witness mode: Σ_ops Σ_i 2^i bit = the integer sum (< 2^36), no per-bit work.
            cs.add_const(lc, Fr::from_u64(sum));
        } else {
            for (const UInt32& op : ops)
                for (int i = 0; i < 32; ++i) op.bits_[i].add_to_lc(cs, lc, r1cs::pow2(i));
        }
        UInt32 r{uint32_t(sum)};
        auto result_lc = cs.lc();
        size_t i = 0;
        for (; max_value != 0; ++i, max_value >>= 1) {
            auto ns = cs.namespace_([i] { return "result bit " + std::to_string(i); });
            AllocatedBit b = AllocatedBit::alloc(cs, (sum >> i) & 1);
            if constexpr (!CS::kTrustValues) cs.add(result_lc, b.var, r1cs::pow2(i));
            if (i < 32) r.bits_[i] = b;
        }
        if constexpr (CS::kTrustValues) cs.add_const(result_lc, Fr::from_u64(sum));
        meq.enforce_equal(i, lc, result_lc);
        return r;
    }

 private:
    explicit UInt32(uint32_t v) : value_(v) {}
    std::array<Boolean, 32> bits_;
    uint32_t value_;
};

inline UInt32 UInt32::from_bits_be(std::span<const Boolean> bits) {
    if (bits.size() != 32) throw std::invalid_argument("UInt32::from_bits_be needs 32 bits");
    UInt32 r(0);
    for (int i = 0; i < 32; ++i) {
        r.bits_[i] = bits[31 - i];
        r.value_ |= uint32_t(bits[31 - i].value()) << i;
    }
    return r;
}

inline std::array<Boolean, 32> UInt32::into_bits_be() const {
    std::array<Boolean, 32> out;
    for (int i = 0; i < 32; ++i) out[i] = bits_[31 - i];
    return out;
}

inline UInt32 UInt32::from_bits(std::span<const Boolean> bits) {
    if (bits.size() != 32) throw std::invalid_argument("UInt32::from_bits needs 32 bits");
    UInt32 r(0);
    for (int i = 0; i < 32; ++i) {
        r.bits_[i] = bits[i];
        r.value_ |= uint32_t(bits[i].value()) << i;
    }
    return r;
}

inline UInt32 UInt32::rotr(size_t by) const {
    by %= 32;
    UInt32 r(by ? (value_ >> by) | (value_ << (32 - by)) : value_);
    for (size_t i = 0; i < 32; ++i) r.bits_[i] = bits_[(i + by) % 32];
    return r;
}

inline UInt32 UInt32::shr(size_t by) const {
    by %= 32;
    UInt32 r(value_ >> by);
    for (size_t i = 0; i < 32; ++i) r.bits_[i] = i + by < 32 ? bits_[i + by] : Boolean::constant(false);
    return r;
}

}  // namespace cuzk::gadgets
