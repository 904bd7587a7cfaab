// The two primitives of the Filecoin SDR graph besides SHA-256:
//  - ChaCha8, as rand_chacha's ChaCha8Rng (rust-random/rand rand_chacha/src/chacha.rs): 256-bit key =
//    the seed, 64-bit block counter from 0, 64-bit stream 0, words drawn in keystream order; used by the
//    DRG bucket sampler (storage-proofs-core/src/drgraph.rs).
//  - BLAKE2b-512 without key (RFC 7693), as blake2b_simd::blake2b; the round function of the Feistel
//    permutation behind the expander parents (storage-proofs-core/src/crypto/feistel.rs).
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace cuzk::filecoin {

// One ChaCha block (RFC 7539 section 2.3, with the original 64-bit counter and 64-bit nonce layout:
// words 12..13 = counter, 14..15 = nonce). rounds = 8 for ChaCha8, 20 for ChaCha20.
std::array<uint32_t, 16> chacha_block(const std::array<uint32_t, 8>& key, uint64_t counter, uint64_t nonce, int rounds);

// rand_chacha's ChaCha8Rng::from_seed(seed): next_u32 takes the keystream's next word (little-endian),
// next_u64 takes two words, low word first (rand_core BlockRng::next_u64).
class ChaCha8Rng {
 public:
    explicit ChaCha8Rng(const std::array<uint8_t, 32>& seed);
    uint32_t next_u32();
    uint64_t next_u64() {
        const uint64_t lo = next_u32();
        return lo | (uint64_t(next_u32()) << 32);
    }

 private:
    std::array<uint32_t, 8> key_{};
    std::array<uint32_t, 16> block_{};
    uint64_t counter_ = 0;
    unsigned index_ = 16;
};

// BLAKE2b with a 64-byte digest and no key (RFC 7693).
std::array<uint8_t, 64> blake2b_512(std::span<const uint8_t> data);

}  // namespace cuzk::filecoin
