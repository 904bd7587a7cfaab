// The two prime fields of BN254 (alt_bn128, the curve of Ethereum's precompiles and of
// circom/snarkjs): the base field Fp and the scalar field Fr, both 254 bits in 4 limbs.
// Moduli from EIP-196 (p) and EIP-197 (r = the group order); with the BN parameter
// x = 4965661367192848881, p = 36x^4 + 36x^3 + 24x^2 + 6x + 1 and r = p - 6x^2.
// Montgomery constants are derived by Field and checked here against the values that
// gnark-crypto (ecc/bn254/fp, ecc/bn254/fr) publishes.
#pragma once

#include "cuzk/ff/field.hpp"

namespace cuzk::bn254 {

struct FpTraits {
    static constexpr size_t kLimbs = 4;
    static constexpr const char* kModulus = "0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47";
    static constexpr uint64_t kNonResidue = 3;  // unused: p = 3 mod 4 takes the direct sqrt
    static constexpr const char* kName = "BN254 Fp";
};

struct FrTraits {
    static constexpr size_t kLimbs = 4;
    static constexpr const char* kModulus = "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001";
    // 5 generates Fr^* (arkworks' and gnark-crypto's multiplicative generator).
    static constexpr uint64_t kNonResidue = 5;
    static constexpr const char* kName = "BN254 Fr";
};

using Fp = Field<FpTraits>;
using Fr = Field<FrTraits>;

// The BN parameter x (positive for BN254).
inline constexpr uint64_t kBnX = 4965661367192848881ULL;

static_assert(Fp::kBits == 254 && Fp::kBytes == 32);
static_assert(Fr::kBits == 254 && Fr::kBytes == 32);
static_assert(Fp::kInv == 0x87d20782e4866389ULL);
static_assert(Fr::kInv == 0xc2e1f593efffffffULL);
static_assert(Fp::kR ==
              BigInt<4>{{0xd35d438dc58f0d9dULL, 0x0a78eb28f5c70b3dULL, 0x666ea36f7879462cULL, 0x0e0a77c19a07df2fULL}});
static_assert(Fp::kR2 ==
              BigInt<4>{{0xf32cfc5b538afa89ULL, 0xb5e71911d44501fbULL, 0x47ab1eff0a417ff6ULL, 0x06d89f71cab8351fULL}});
static_assert(Fr::kR ==
              BigInt<4>{{0xac96341c4ffffffbULL, 0x36fc76959f60cd29ULL, 0x666ea36f7879462eULL, 0x0e0a77c19a07df2fULL}});
static_assert(Fr::kR2 ==
              BigInt<4>{{0x1bb8e645ae216da7ULL, 0x53fe3ab1e35c59e3ULL, 0x8c49833d53bb8085ULL, 0x0216d0b17f4e44a5ULL}});
static_assert(Fr::kTwoAdicity == 28);
static_assert(Fp::kTwoAdicity == 1);

}  // namespace cuzk::bn254
