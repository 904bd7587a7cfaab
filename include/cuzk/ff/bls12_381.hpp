// The two prime fields of BLS12-381: the base field Fp (381 bits) and the scalar
// field Fr (255 bits). Moduli from the curve's specification (draft-irtf-cfrg-pairing-
// friendly-curves-11, section 4.2.1); Montgomery constants are derived by Field and
// checked here against the values that zkcrypto/bls12_381 and blst publish.
#pragma once

#include "cuzk/ff/field.hpp"

namespace cuzk {

struct FpTraits {
    static constexpr size_t kLimbs = 6;
    static constexpr const char* kModulus =
        "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";
    static constexpr uint64_t kNonResidue = 2;  // unused: p = 3 mod 4 takes the direct sqrt
    static constexpr const char* kName = "Fp";
};

struct FrTraits {
    static constexpr size_t kLimbs = 4;
    static constexpr const char* kModulus = "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";
    // 7 generates Fr^* (bellperson's multiplicative generator; also the coset shift).
    static constexpr uint64_t kNonResidue = 7;
    static constexpr const char* kName = "Fr";
};

using Fp = Field<FpTraits>;
using Fr = Field<FrTraits>;

static_assert(Fp::kBits == 381 && Fp::kBytes == 48);
static_assert(Fr::kBits == 255 && Fr::kBytes == 32);
static_assert(Fp::kInv == 0x89f3fffcfffcfffdULL);
static_assert(Fr::kInv == 0xfffffffeffffffffULL);
static_assert(Fp::kR == BigInt<6>{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                                   0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}});
static_assert(Fp::kR2 == BigInt<6>{{0xf4df1f341c341746ULL, 0x0a76e6a609d104f1ULL, 0x8de5476c4c95b6d5ULL,
                                    0x67eb88a9939d83c0ULL, 0x9a793e85b519952dULL, 0x11988fe592cae3aaULL}});
static_assert(Fr::kR ==
              BigInt<4>{{0x00000001fffffffeULL, 0x5884b7fa00034802ULL, 0x998c4fefecbc4ff5ULL, 0x1824b159acc5056fULL}});
static_assert(Fr::kR2 ==
              BigInt<4>{{0xc999e990f3f29c6dULL, 0x2b6cedcb87925c23ULL, 0x05d314967254398fULL, 0x0748d9d99f59ff11ULL}});
static_assert(Fr::kTwoAdicity == 32);
static_assert(Fp::kTwoAdicity == 1);

}  // namespace cuzk
