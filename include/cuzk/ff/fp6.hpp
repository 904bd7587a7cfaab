// Fp6 = Fp2[v] / (v^3 - xi), xi = 1 + u: the middle of the BLS12-381 tower (the same
// tower as zkcrypto/bls12_381 and blst, so their published values compare limb for limb).
// Elements are c0 + c1 v + c2 v^2; the storage is three Fp2 values, host and device alike.
// Operation counts are in Fp2 multiplications (M) and squarings (S).
#pragma once

#include "cuzk/ff/fp2.hpp"

namespace cuzk {

// Frobenius constants gamma_k^e = xi^(e(p^k - 1)/6) = w^(e(p^k - 1)) for k = 1, 2, 3 and
// e = 1..5, as Montgomery limbs (c0 then c1). x -> x^(p^k) sends w^e to gamma_k^e w^e.
// Generated from the definition; tests/ff/test_towers.cpp re-derives every entry.
namespace tower_detail {
inline constexpr uint64_t kFrobeniusGamma[15][2][6] = {
    // gamma_1^1 = xi^(1(p^1 - 1)/6)
    {{0x07089552b319d465ULL, 0xc6695f92b50a8313ULL, 0x97e83cccd117228fULL, 0xa35baecab2dc29eeULL, 0x1ce393ea5daace4dULL,
      0x08f2220fb0fb66ebULL},
     {0xb2f66aad4ce5d646ULL, 0x5842a06bfc497cecULL, 0xcf4895d42599d394ULL, 0xc11b9cba40a8e8d0ULL, 0x2e3813cbe5a0de89ULL,
      0x110eefda88847fafULL}},
    // gamma_1^2 = xi^(2(p^1 - 1)/6)
    {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
      0x0000000000000000ULL},
     {0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL,
      0x18f0206554638741ULL}},
    // gamma_1^3 = xi^(3(p^1 - 1)/6)
    {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL,
      0x0e2b7eedbbfd87d2ULL},
     {0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL,
      0x0e2b7eedbbfd87d2ULL}},
    // gamma_1^4 = xi^(4(p^1 - 1)/6)
    {{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL, 0xa20d1b8c7e881024ULL, 0x14e4f04fe2db9068ULL,
      0x14e56d3f1564853aULL},
     {0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
      0x0000000000000000ULL}},
    // gamma_1^5 = xi^(5(p^1 - 1)/6)
    {{0x82d83cf50dbce43fULL, 0xa2813e53df9d018fULL, 0xc6f0caa53c65e181ULL, 0x7525cf528d50fe95ULL, 0x4a85ed50f4798a6bULL,
      0x171da0fd6cf8eebdULL},
     {0x3726c30af242c66cULL, 0x7c2ac1aad1b6fe70ULL, 0xa04007fbba4b14a2ULL, 0xef517c3266341429ULL, 0x0095ba654ed2226bULL,
      0x02e370eccc86f7ddULL}},
    // gamma_2^1 = xi^(1(p^2 - 1)/6)
    {{0xecfb361b798dba3aULL, 0xc100ddb891865a2cULL, 0x0ec08ff1232bda8eULL, 0xd5c13cc6f1ca4721ULL, 0x47222a47bf7b5c04ULL,
      0x0110f184e51c5f59ULL},
     {0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
      0x0000000000000000ULL}},
    // gamma_2^2 = xi^(2(p^2 - 1)/6)
    {{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL, 0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL,
      0x051ba4ab241b6160ULL},
     {0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
      0x0000000000000000ULL}},
    // gamma_2^3 = xi^(3(p^2 - 1)/6)
    {{0x43f5fffffffcaaaeULL, 0x32b7fff2ed47fffdULL, 0x07e83a49a2e99d69ULL, 0xeca8f3318332bb7aULL, 0xef148d1ea0f4c069ULL,
      0x040ab3263eff0206ULL},
     {0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
      0x0000000000000000ULL}},
    // gamma_2^4 = xi^(4(p^2 - 1)/6)
    {{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL,
      0x18f0206554638741ULL},
     {0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
      0x0000000000000000ULL}},
    // gamma_2^5 = xi^(5(p^2 - 1)/6)
    {{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL, 0xa20d1b8c7e881024ULL, 0x14e4f04fe2db9068ULL,
      0x14e56d3f1564853aULL},
     {0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
      0x0000000000000000ULL}},
    // gamma_3^1 = xi^(1(p^3 - 1)/6)
    {{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL,
      0x0bd592fc7d825ec8ULL},
     {0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL,
      0x0e2b7eedbbfd87d2ULL}},
    // gamma_3^2 = xi^(2(p^3 - 1)/6)
    {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
      0x0000000000000000ULL},
     {0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL, 0x5c071a97a256ec6dULL,
      0x15f65ec3fa80e493ULL}},
    // gamma_3^3 = xi^(3(p^3 - 1)/6)
    {{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL,
      0x0bd592fc7d825ec8ULL},
     {0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL,
      0x0bd592fc7d825ec8ULL}},
    // gamma_3^4 = xi^(4(p^3 - 1)/6)
    {{0x43f5fffffffcaaaeULL, 0x32b7fff2ed47fffdULL, 0x07e83a49a2e99d69ULL, 0xeca8f3318332bb7aULL, 0xef148d1ea0f4c069ULL,
      0x040ab3263eff0206ULL},
     {0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
      0x0000000000000000ULL}},
    // gamma_3^5 = xi^(5(p^3 - 1)/6)
    {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL,
      0x0e2b7eedbbfd87d2ULL},
     {0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL,
      0x0bd592fc7d825ec8ULL}},
};
CUZK_HD_INLINE Fp2 frobenius_gamma(unsigned k, unsigned e) {
    const uint64_t(&g)[2][6] = kFrobeniusGamma[5 * (k - 1) + (e - 1)];
    Fp2 r;
    for (int i = 0; i < 6; ++i) {
        r.c0.l[i] = g[0][i];
        r.c1.l[i] = g[1][i];
    }
    return r;
}
// x^(p^k) on Fp2: conjugation when k is odd.
CUZK_HD_INLINE Fp2 fp2_frobenius(const Fp2& a, unsigned k) { return (k & 1) ? a.conjugate() : a; }
}  // namespace tower_detail

struct Fp6 {
    Fp2 c0, c1, c2;

    Fp6() = default;
    CUZK_HD constexpr Fp6(const Fp2& a, const Fp2& b, const Fp2& c) : c0(a), c1(b), c2(c) {}

    CUZK_HD static constexpr Fp6 zero() { return {Fp2::zero(), Fp2::zero(), Fp2::zero()}; }
    CUZK_HD static constexpr Fp6 one() { return {Fp2::one(), Fp2::zero(), Fp2::zero()}; }
    template <class Rng>
    static Fp6 random(Rng& rng) {
        Fp2 a = Fp2::random(rng);
        Fp2 b = Fp2::random(rng);
        return {a, b, Fp2::random(rng)};
    }

    CUZK_HD bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
    CUZK_HD bool is_one() const { return c0.is_one() && c1.is_zero() && c2.is_zero(); }
    CUZK_HD friend bool operator==(const Fp6& a, const Fp6& b) { return a.c0 == b.c0 && a.c1 == b.c1 && a.c2 == b.c2; }
    CUZK_HD friend bool operator!=(const Fp6& a, const Fp6& b) { return !(a == b); }

    CUZK_HD_INLINE friend Fp6 operator+(const Fp6& a, const Fp6& b) { return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2}; }
    CUZK_HD_INLINE friend Fp6 operator-(const Fp6& a, const Fp6& b) { return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2}; }
    CUZK_HD_INLINE Fp6 operator-() const { return {-c0, -c1, -c2}; }
    CUZK_HD_INLINE Fp6 dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }
    CUZK_HD_INLINE Fp6& operator+=(const Fp6& b) { return *this = *this + b; }
    CUZK_HD_INLINE Fp6& operator-=(const Fp6& b) { return *this = *this - b; }
    CUZK_HD_INLINE Fp6& operator*=(const Fp6& b) { return *this = *this * b; }

    // Karatsuba over three coefficients, 6M (Devegili, O hEigeartaigh, Scott, Dahab,
    // "Multiplication and squaring on pairing-friendly fields", ePrint 2006/471, section 4).
    CUZK_HD friend Fp6 operator*(const Fp6& a, const Fp6& b) {
        Fp2 v0 = a.c0 * b.c0;
        Fp2 v1 = a.c1 * b.c1;
        Fp2 v2 = a.c2 * b.c2;
        // c0 = v0 + xi((a1 + a2)(b1 + b2) - v1 - v2)
        Fp2 r0 = ((a.c1 + a.c2) * (b.c1 + b.c2) - v1 - v2).mul_by_nonresidue() + v0;
        // c1 = (a0 + a1)(b0 + b1) - v0 - v1 + xi v2
        Fp2 r1 = (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1 + v2.mul_by_nonresidue();
        // c2 = (a0 + a2)(b0 + b2) - v0 - v2 + v1
        Fp2 r2 = (a.c0 + a.c2) * (b.c0 + b.c2) - v0 - v2 + v1;
        return {r0, r1, r2};
    }
    CUZK_HD_INLINE friend Fp6 operator*(const Fp6& a, const Fp2& b) { return {a.c0 * b, a.c1 * b, a.c2 * b}; }

    // Chung-Hasan SQR2, 2M + 3S (Devegili et al. 2006/471, section 4; Chung and Hasan,
    // "Asymmetric squaring formulae", ARITH 2007).
    CUZK_HD Fp6 square() const {
        Fp2 s0 = c0.square();
        Fp2 s1 = (c0 * c1).dbl();
        Fp2 s2 = (c0 - c1 + c2).square();
        Fp2 s3 = (c1 * c2).dbl();
        Fp2 s4 = c2.square();
        return {s3.mul_by_nonresidue() + s0, s4.mul_by_nonresidue() + s1, s1 + s2 + s3 - s0 - s4};
    }

    // Multiplication by v: (c0 + c1 v + c2 v^2) v = xi c2 + c0 v + c1 v^2 (no multiplies).
    CUZK_HD_INLINE Fp6 mul_by_nonresidue() const { return {c2.mul_by_nonresidue(), c0, c1}; }

    // Sparse products used by Fp12::mul_by_014. By b0 + b1 v: 5M.
    CUZK_HD Fp6 mul_by_01(const Fp2& b0, const Fp2& b1) const {
        Fp2 v0 = c0 * b0;
        Fp2 v1 = c1 * b1;
        Fp2 r0 = ((c1 + c2) * b1 - v1).mul_by_nonresidue() + v0;  // v0 + xi (a2 b1)
        Fp2 r1 = (c0 + c1) * (b0 + b1) - v0 - v1;                 // a0 b1 + a1 b0
        Fp2 r2 = (c0 + c2) * b0 - v0 + v1;                        // a2 b0 + a1 b1
        return {r0, r1, r2};
    }
    // By b1 v: 3M.
    CUZK_HD Fp6 mul_by_1(const Fp2& b1) const { return {(c2 * b1).mul_by_nonresidue(), c0 * b1, c1 * b1}; }

    // Inverse via the adjugate (Scott, "Implementing cryptographic pairings", 2007, section 3.2;
    // Guide to Pairing-Based Cryptography, Algorithm 5.23): 9M + 3S + one Fp2 inverse.
    // Zero maps to zero.
    CUZK_HD Fp6 inverse() const {
        Fp2 t0 = c0.square() - (c1 * c2).mul_by_nonresidue();
        Fp2 t1 = c2.square().mul_by_nonresidue() - c0 * c1;
        Fp2 t2 = c1.square() - c0 * c2;
        Fp2 n = c0 * t0 + (c2 * t1 + c1 * t2).mul_by_nonresidue();
        Fp2 ni = n.inverse();
        return {t0 * ni, t1 * ni, t2 * ni};
    }

    // x -> x^(p^k) for k = 1, 2, 3: apply Fp2's Frobenius k times to the coefficients and
    // multiply c1, c2 by v^(p^k - 1) = gamma_k^2 and v^(2(p^k - 1)) = gamma_k^4.
    CUZK_HD Fp6 frobenius_map(unsigned k) const {
        using namespace tower_detail;
        return {fp2_frobenius(c0, k), fp2_frobenius(c1, k) * frobenius_gamma(k, 2),
                fp2_frobenius(c2, k) * frobenius_gamma(k, 4)};
    }

    template <size_t M>
    CUZK_HD Fp6 pow(const BigInt<M>& e) const {
        Fp6 r = one();
        for (size_t i = e.num_bits(); i-- > 0;) {
            r = r.square();
            if (e.bit(i)) r *= *this;
        }
        return r;
    }
};

}  // namespace cuzk
