// Endomorphisms of BLS12-381 used by the subgroup checks and G2 cofactor clearing.
//
// G1: phi(x, y) = (beta x, y) with beta a primitive cube root of unity in Fp. Of the
//   two cube roots, beta below is the one for which phi acts on G1 as [-x^2]
//   (Scott, "A note on group membership tests for G1, G2 and GT on BLS pairing-friendly
//   curves", ePrint 2021/1130, section 6; the other root gives [x^2 - 1]).
// G2: psi = twist^-1 o Frobenius o twist, on the M-type twist E'(Fp2):
//   psi(x, y) = (conj(x) * kPsiX, conj(y) * kPsiY), kPsiX = 1/(1+u)^((p-1)/3),
//   kPsiY = 1/(1+u)^((p-1)/2) (draft-irtf-cfrg-hash-to-curve-16, appendix G.3).
//   On G2, psi acts as [x] (ePrint 2021/1130 section 4; proof fixed in ePrint 2022/352).
//
// Constants are stored as raw Montgomery limbs (a * 2^384 mod p) so that they are
// constexpr and usable on the device; tests/ec/test_subgroup.cpp derives each of them
// again from its definition. Canonical values in the comments.
#pragma once

#include "cuzk/common/hd.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ff/fp2.hpp"

namespace cuzk::ec_psi {

// beta = 0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe
inline constexpr Fp::Big kBetaMont{{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL,
                                    0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}};
// kPsiX = 0 + c1 u, c1 = 0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b
//                         409427eb4f49fffd8bfd00000000aaad
inline constexpr Fp::Big kPsiXc1Mont{{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL,
                                      0xa20d1b8c7e881024ULL, 0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}};
// kPsiY = c0 + c1 u,
//   c0 = 0x135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45e304466cf3e67fa0af1ee7b04121bdea2
//   c1 = 0x06af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09
inline constexpr Fp::Big kPsiYc0Mont{{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL,
                                      0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}};
inline constexpr Fp::Big kPsiYc1Mont{{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL,
                                      0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}};

CUZK_HD_INLINE Fp beta() { return Fp::from_raw_montgomery(kBetaMont); }
CUZK_HD_INLINE Fp2 psi_x() { return {Fp::zero(), Fp::from_raw_montgomery(kPsiXc1Mont)}; }
CUZK_HD_INLINE Fp2 psi_y() { return {Fp::from_raw_montgomery(kPsiYc0Mont), Fp::from_raw_montgomery(kPsiYc1Mont)}; }

// phi on Jacobian G1 points: x = X/Z^2 scales to beta X/Z^2, so only X changes. 1M.
CUZK_HD_INLINE G1Jacobian phi(const G1Jacobian& p) { return {p.X * beta(), p.Y, p.Z}; }

// psi on Jacobian G2 points: conj(X/Z^2) = conj(X)/conj(Z)^2, so conjugate all three
// coordinates and scale X and Y. 2 Fp2 M (the X scale is by a pure-imaginary constant).
CUZK_HD_INLINE G2Jacobian psi(const G2Jacobian& p) {
    const Fp2 x = p.X.conjugate();
    const Fp c1 = Fp::from_raw_montgomery(kPsiXc1Mont);
    // (a0 + a1 u)(c1 u) = -a1 c1 + a0 c1 u: 2 Fp M.
    return {{-(x.c1 * c1), x.c0 * c1}, p.Y.conjugate() * psi_y(), p.Z.conjugate()};
}
CUZK_HD_INLINE G2Jacobian psi2(const G2Jacobian& p) { return psi(psi(p)); }

}  // namespace cuzk::ec_psi
