// Plain SHA-256 on bytes (FIPS 180-4): the hash layer, below r1cs, which uses it for
// shape-file content hashes; also the native side of Filecoin's SHA-256 and the reference of
// the SHA-256 gadget.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace cuzk {

// FIPS 180-4 section 4.2.2 (K) and 5.3.3 (initial hash value H(0)).
extern const std::array<uint32_t, 64> kSha256RoundConstants;
extern const std::array<uint32_t, 8> kSha256Iv;

// One compression (FIPS 180-4 section 6.2.2) of a 64-byte block into state.
void sha256_compress(std::array<uint32_t, 8>& state, const uint8_t* block);

// Incremental hasher: update() any number of times, then final() once.
class Sha256 {
 public:
    void update(std::span<const uint8_t> data);
    std::array<uint8_t, 32> final();

 private:
    std::array<uint32_t, 8> state_ = kSha256Iv;
    std::array<uint8_t, 64> buf_{};
    size_t buf_len_ = 0;
    uint64_t total_ = 0;
};

std::array<uint8_t, 32> sha256_bytes(std::span<const uint8_t> data);

}  // namespace cuzk
