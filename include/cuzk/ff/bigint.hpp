// Fixed-width unsigned integers of N 64-bit limbs, little-endian limb order.
// Everything here is constexpr so that field constants (Montgomery R, R^2, -p^-1)
// are derived at compile time from the modulus literal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "cuzk/common/hd.hpp"

namespace cuzk {

using u128 = unsigned __int128;

template <size_t N>
struct BigInt {
    uint64_t l[N];

    static constexpr size_t kLimbs = N;
    static constexpr size_t kBits = 64 * N;

    CUZK_HD static constexpr BigInt zero() {
        BigInt r{};
        for (size_t i = 0; i < N; ++i) r.l[i] = 0;
        return r;
    }
    CUZK_HD static constexpr BigInt from_u64(uint64_t v) {
        BigInt r = zero();
        r.l[0] = v;
        return r;
    }

    CUZK_HD constexpr bool is_zero() const {
        uint64_t acc = 0;
        for (size_t i = 0; i < N; ++i) acc |= l[i];
        return acc == 0;
    }
    CUZK_HD constexpr bool bit(size_t i) const { return (l[i / 64] >> (i % 64)) & 1; }
    // Number of significant bits (0 for zero).
    CUZK_HD constexpr size_t num_bits() const {
        for (size_t i = N; i-- > 0;) {
            if (l[i] != 0) {
                size_t b = 64;
                uint64_t v = l[i];
                while (!(v >> 63)) {
                    v <<= 1;
                    --b;
                }
                return 64 * i + b;
            }
        }
        return 0;
    }

    CUZK_HD friend constexpr bool operator==(const BigInt& a, const BigInt& b) {
        uint64_t acc = 0;
        for (size_t i = 0; i < N; ++i) acc |= a.l[i] ^ b.l[i];
        return acc == 0;
    }
    CUZK_HD friend constexpr bool operator!=(const BigInt& a, const BigInt& b) { return !(a == b); }
    // a < b
    CUZK_HD friend constexpr bool operator<(const BigInt& a, const BigInt& b) {
        for (size_t i = N; i-- > 0;) {
            if (a.l[i] != b.l[i]) return a.l[i] < b.l[i];
        }
        return false;
    }
    CUZK_HD friend constexpr bool operator>=(const BigInt& a, const BigInt& b) { return !(a < b); }

    // r = a + b, returns the carry out.
    CUZK_HD static constexpr uint64_t add(BigInt& r, const BigInt& a, const BigInt& b) {
        uint64_t carry = 0;
        for (size_t i = 0; i < N; ++i) {
            u128 t = u128(a.l[i]) + b.l[i] + carry;
            r.l[i] = uint64_t(t);
            carry = uint64_t(t >> 64);
        }
        return carry;
    }
    // r = a - b, returns the borrow out.
    CUZK_HD static constexpr uint64_t sub(BigInt& r, const BigInt& a, const BigInt& b) {
        uint64_t borrow = 0;
        for (size_t i = 0; i < N; ++i) {
            u128 t = u128(a.l[i]) - b.l[i] - borrow;
            r.l[i] = uint64_t(t);
            borrow = uint64_t(t >> 64) & 1;
        }
        return borrow;
    }
    CUZK_HD constexpr void shr1() {
        for (size_t i = 0; i + 1 < N; ++i) l[i] = (l[i] >> 1) | (l[i + 1] << 63);
        l[N - 1] >>= 1;
    }
    CUZK_HD constexpr BigInt shr(size_t s) const {
        BigInt r = zero();
        size_t w = s / 64, b = s % 64;
        for (size_t i = 0; i + w < N; ++i) {
            uint64_t lo = l[i + w] >> b;
            uint64_t hi = (b && i + w + 1 < N) ? (l[i + w + 1] << (64 - b)) : 0;
            r.l[i] = lo | hi;
        }
        return r;
    }
    // r = a * m + c (single-limb multiplier); returns the high limb.
    constexpr uint64_t mul_small_add(uint64_t m, uint64_t c) {
        uint64_t carry = c;
        for (size_t i = 0; i < N; ++i) {
            u128 t = u128(l[i]) * m + carry;
            l[i] = uint64_t(t);
            carry = uint64_t(t >> 64);
        }
        return carry;
    }
    // Bits [pos, pos+width) as an integer, width <= 64.
    CUZK_HD constexpr uint64_t bits(size_t pos, size_t width) const {
        if (pos >= kBits) return 0;
        size_t w = pos / 64, b = pos % 64;
        uint64_t v = l[w] >> b;
        if (b + width > 64 && w + 1 < N) v |= l[w + 1] << (64 - b);
        return width == 64 ? v : (v & ((uint64_t(1) << width) - 1));
    }

    // Parses decimal digits or, with a 0x prefix, hex digits. Returns nullopt on a
    // character that is not a digit, an empty string, or overflow of N limbs.
    static constexpr std::optional<BigInt> parse(std::string_view s) {
        BigInt r = zero();
        uint64_t base = 10;
        if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
            base = 16;
            s.remove_prefix(2);
        }
        if (s.empty()) return std::nullopt;
        for (char c : s) {
            uint64_t d;
            if (c >= '0' && c <= '9')
                d = uint64_t(c - '0');
            else if (base == 16 && c >= 'a' && c <= 'f')
                d = uint64_t(c - 'a' + 10);
            else if (base == 16 && c >= 'A' && c <= 'F')
                d = uint64_t(c - 'A' + 10);
            else
                return std::nullopt;
            if (d >= base) return std::nullopt;
            if (r.mul_small_add(base, d) != 0) return std::nullopt;
        }
        return r;
    }
    // Compile-time parse of a literal known to be valid.
    static constexpr BigInt must_parse(std::string_view s) {
        auto v = parse(s);
        if (!v) throw "invalid integer literal";  // fails constant evaluation
        return *v;
    }
};

namespace bigint_detail {
// (a + b) mod m for a, b < m, where m may use the top bit.
template <size_t N>
constexpr BigInt<N> add_mod(const BigInt<N>& a, const BigInt<N>& b, const BigInt<N>& m) {
    BigInt<N> s{};
    uint64_t carry = BigInt<N>::add(s, a, b);
    if (carry || s >= m) BigInt<N>::sub(s, s, m);
    return s;
}
}  // namespace bigint_detail

// 2^k mod m by repeated doubling (compile time only; k is a few hundred).
template <size_t N>
constexpr BigInt<N> pow2_mod(size_t k, const BigInt<N>& m) {
    BigInt<N> r = BigInt<N>::from_u64(1);
    for (size_t i = 0; i < k; ++i) r = bigint_detail::add_mod(r, r, m);
    return r;
}

// -m^{-1} mod 2^64 for odd m0, by Newton iteration (each step doubles the correct bits).
constexpr uint64_t neg_inv64(uint64_t m0) {
    uint64_t x = 1;
    for (int i = 0; i < 7; ++i) x *= 2 - m0 * x;
    return ~x + 1;
}

}  // namespace cuzk
