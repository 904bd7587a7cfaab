// Scalar multiplication: width-w NAF (wNAF) with a table of odd multiples, a plain
// double-and-add reference, and a naive MSM (sum of scalar multiplications) that the
// real MSM code is tested against. Templated over the point type (Jacobian or XYZZ).
//
// wNAF (Hankerson, Menezes, Vanstone, "Guide to Elliptic Curve Cryptography", Alg. 3.36):
// a b-bit scalar costs about b doublings and b/(w+1) additions, plus 2^(w-2) - 1
// additions and one doubling for the table P, 3P, ..., (2^(w-1) - 1)P.
// w = 5 (8 table entries) minimises b + b/(w+1) + 2^(w-2) for b = 255.
#pragma once

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ff/bigint.hpp"
#include "cuzk/ff/bls12_381.hpp"

namespace cuzk {

inline constexpr unsigned kDefaultWnafWindow = 5;
inline constexpr unsigned kMaxWnafWindow = 8;

// wNAF digits of k, least significant first: each digit is 0 or odd with |d| < 2^(w-1),
// and any nonzero digit is followed by at least w-1 zeros. Returns the digit count
// (at most 64N + 1). digits must hold 64N + 1 entries. 2 <= w <= 8.
template <size_t N>
CUZK_HD size_t wnaf_digits(const BigInt<N>& k, unsigned w, int8_t* digits) {
    // One spare limb: subtracting a negative digit adds up to 2^(w-1) and may carry out.
    BigInt<N + 1> t = BigInt<N + 1>::zero();
    for (size_t i = 0; i < N; ++i) t.l[i] = k.l[i];
    const uint64_t mask = (uint64_t(1) << w) - 1;
    const int64_t half = int64_t(1) << (w - 1);
    size_t n = 0;
    while (!t.is_zero()) {
        int64_t d = 0;
        if (t.l[0] & 1) {
            d = int64_t(t.l[0] & mask);
            if (d >= half) d -= int64_t(1) << w;
            // t -= d
            BigInt<N + 1> dd = BigInt<N + 1>::from_u64(uint64_t(d < 0 ? -d : d));
            if (d > 0)
                BigInt<N + 1>::sub(t, t, dd);
            else
                BigInt<N + 1>::add(t, t, dd);
        }
        digits[n++] = int8_t(d);
        t.shr1();
    }
    return n;
}

// [k]P by wNAF, left to right.
template <class Point, size_t N>
CUZK_HD Point mul_wnaf(const Point& p, const BigInt<N>& k, unsigned w = kDefaultWnafWindow) {
    if (w < 2) w = 2;
    if (w > kMaxWnafWindow) w = kMaxWnafWindow;
    int8_t digits[64 * N + 1];
    const size_t n = wnaf_digits(k, w, digits);
    // table[i] = (2i + 1) P
    Point table[size_t(1) << (kMaxWnafWindow - 2)];
    const size_t entries = size_t(1) << (w - 2);
    table[0] = p;
    const Point p2 = p.dbl();
    for (size_t i = 1; i < entries; ++i) table[i] = table[i - 1].add(p2);
    Point r = Point::identity();
    for (size_t i = n; i-- > 0;) {
        r = r.dbl();
        const int d = digits[i];
        if (d > 0) r = r.add(table[d >> 1]);
        if (d < 0) r = r.sub(table[(-d) >> 1]);
    }
    return r;
}

// [k]P by left-to-right double-and-add: the reference for mul_wnaf.
template <class Point, size_t N>
CUZK_HD Point mul_double_and_add(const Point& p, const BigInt<N>& k) {
    Point r = Point::identity();
    for (size_t i = k.num_bits(); i-- > 0;) {
        r = r.dbl();
        if (k.bit(i)) r = r.add(p);
    }
    return r;
}

// [k]P for k an element of a scalar field (its canonical integer value).
template <class Point, class Traits>
CUZK_HD Point mul(const Point& p, const Field<Traits>& k) {
    return mul_wnaf(p, k.to_bigint());
}
template <class Point, size_t N>
CUZK_HD Point mul(const Point& p, const BigInt<N>& k) {
    return mul_wnaf(p, k);
}
template <class Point>
CUZK_HD Point mul_u64(const Point& p, uint64_t k) {
    return mul_wnaf(p, BigInt<1>::from_u64(k));
}
template <class Curve, class Traits>
Jacobian<Curve> mul(const Affine<Curve>& p, const Field<Traits>& k) {
    return mul_wnaf(Jacobian<Curve>::from_affine(p), k.to_bigint());
}

// sum_i [scalars_i] bases_i, one scalar multiplication per term. For tests only:
// about 300 group operations per term. Throws std::invalid_argument on a length mismatch.
template <class Curve>
Jacobian<Curve> msm_naive(std::span<const Affine<Curve>> bases, std::span<const typename Curve::Scalar> scalars) {
    if (bases.size() != scalars.size()) {
        throw std::invalid_argument("msm_naive: " + std::to_string(bases.size()) + " bases but " +
                                    std::to_string(scalars.size()) + " scalars");
    }
    Jacobian<Curve> acc = Jacobian<Curve>::identity();
    for (size_t i = 0; i < bases.size(); ++i) acc += mul(bases[i], scalars[i]);
    return acc;
}
// Non-template overloads so that vectors and arrays convert to the spans.
inline G1Jacobian msm_naive(std::span<const G1Affine> bases, std::span<const Fr> scalars) {
    return msm_naive<G1Curve>(bases, scalars);
}
inline G2Jacobian msm_naive(std::span<const G2Affine> bases, std::span<const Fr> scalars) {
    return msm_naive<G2Curve>(bases, scalars);
}

}  // namespace cuzk
