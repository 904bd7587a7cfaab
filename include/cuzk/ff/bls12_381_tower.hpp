// The BLS12-381 tower: Fp2 = Fp[u]/(u^2 + 1), Fp6 = Fp2[v]/(v^3 - xi), Fp12 = Fp6[w]/(w^2 - v)
// with xi = 1 + u (draft-irtf-cfrg-pairing-friendly-curves-11, section 4.2.1), the
// configuration of the generic Fp2T/Fp6T/Fp12T (fp2.hpp).
#pragma once

#include "cuzk/ff/bls12_381.hpp"

namespace cuzk {

struct Bls12381Tower {
    using Base = Fp;
    static constexpr uint64_t kXiC0 = 1;  // xi = 1 + u
    // gamma_k^e = xi^(e(p^k - 1)/6) as Montgomery limbs (c0 then c1), k = 1..3, e = 1..5.
    // Generated from the definition; tests/ff/test_towers.cpp re-derives every entry.
    static constexpr uint64_t kFrobeniusGamma[15][2][6] = {
        // gamma_1^1 = xi^(1(p^1 - 1)/6)
        {{0x07089552b319d465ULL, 0xc6695f92b50a8313ULL, 0x97e83cccd117228fULL, 0xa35baecab2dc29eeULL,
          0x1ce393ea5daace4dULL, 0x08f2220fb0fb66ebULL},
         {0xb2f66aad4ce5d646ULL, 0x5842a06bfc497cecULL, 0xcf4895d42599d394ULL, 0xc11b9cba40a8e8d0ULL,
          0x2e3813cbe5a0de89ULL, 0x110eefda88847fafULL}},
        // gamma_1^2 = xi^(2(p^1 - 1)/6)
        {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
          0x0000000000000000ULL, 0x0000000000000000ULL},
         {0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL,
          0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}},
        // gamma_1^3 = xi^(3(p^1 - 1)/6)
        {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL,
          0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL},
         {0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL,
          0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}},
        // gamma_1^4 = xi^(4(p^1 - 1)/6)
        {{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL, 0xa20d1b8c7e881024ULL,
          0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL},
         {0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
          0x0000000000000000ULL, 0x0000000000000000ULL}},
        // gamma_1^5 = xi^(5(p^1 - 1)/6)
        {{0x82d83cf50dbce43fULL, 0xa2813e53df9d018fULL, 0xc6f0caa53c65e181ULL, 0x7525cf528d50fe95ULL,
          0x4a85ed50f4798a6bULL, 0x171da0fd6cf8eebdULL},
         {0x3726c30af242c66cULL, 0x7c2ac1aad1b6fe70ULL, 0xa04007fbba4b14a2ULL, 0xef517c3266341429ULL,
          0x0095ba654ed2226bULL, 0x02e370eccc86f7ddULL}},
        // gamma_2^1 = xi^(1(p^2 - 1)/6)
        {{0xecfb361b798dba3aULL, 0xc100ddb891865a2cULL, 0x0ec08ff1232bda8eULL, 0xd5c13cc6f1ca4721ULL,
          0x47222a47bf7b5c04ULL, 0x0110f184e51c5f59ULL},
         {0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
          0x0000000000000000ULL, 0x0000000000000000ULL}},
        // gamma_2^2 = xi^(2(p^2 - 1)/6)
        {{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL, 0xc26a2ff874fd029bULL,
          0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL},
         {0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
          0x0000000000000000ULL, 0x0000000000000000ULL}},
        // gamma_2^3 = xi^(3(p^2 - 1)/6)
        {{0x43f5fffffffcaaaeULL, 0x32b7fff2ed47fffdULL, 0x07e83a49a2e99d69ULL, 0xeca8f3318332bb7aULL,
          0xef148d1ea0f4c069ULL, 0x040ab3263eff0206ULL},
         {0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
          0x0000000000000000ULL, 0x0000000000000000ULL}},
        // gamma_2^4 = xi^(4(p^2 - 1)/6)
        {{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL,
          0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL},
         {0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
          0x0000000000000000ULL, 0x0000000000000000ULL}},
        // gamma_2^5 = xi^(5(p^2 - 1)/6)
        {{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL, 0xa20d1b8c7e881024ULL,
          0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL},
         {0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
          0x0000000000000000ULL, 0x0000000000000000ULL}},
        // gamma_3^1 = xi^(1(p^3 - 1)/6)
        {{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL,
          0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL},
         {0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL,
          0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}},
        // gamma_3^2 = xi^(2(p^3 - 1)/6)
        {{0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
          0x0000000000000000ULL, 0x0000000000000000ULL},
         {0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL,
          0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
        // gamma_3^3 = xi^(3(p^3 - 1)/6)
        {{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL,
          0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL},
         {0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL,
          0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
        // gamma_3^4 = xi^(4(p^3 - 1)/6)
        {{0x43f5fffffffcaaaeULL, 0x32b7fff2ed47fffdULL, 0x07e83a49a2e99d69ULL, 0xeca8f3318332bb7aULL,
          0xef148d1ea0f4c069ULL, 0x040ab3263eff0206ULL},
         {0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL, 0x0000000000000000ULL,
          0x0000000000000000ULL, 0x0000000000000000ULL}},
        // gamma_3^5 = xi^(5(p^3 - 1)/6)
        {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL,
          0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL},
         {0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL,
          0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
    };
};

}  // namespace cuzk
