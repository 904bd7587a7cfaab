// ChaCha (RFC 7539) and BLAKE2b (RFC 7693); see the header for how Filecoin uses them.
#include "cuzk/filecoin/crypto.hpp"

#include <bit>
#include <cstring>

namespace cuzk::filecoin {

namespace {

uint32_t load32_le(const uint8_t* p) {
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
uint64_t load64_le(const uint8_t* p) { return uint64_t(load32_le(p)) | uint64_t(load32_le(p + 4)) << 32; }

// RFC 7539 section 2.1: the quarter round.
void quarter_round(uint32_t& a, uint32_t& b, uint32_t& c, uint32_t& d) {
    a += b, d ^= a, d = std::rotl(d, 16);
    c += d, b ^= c, b = std::rotl(b, 12);
    a += b, d ^= a, d = std::rotl(d, 8);
    c += d, b ^= c, b = std::rotl(b, 7);
}

}  // namespace

std::array<uint32_t, 16> chacha_block(const std::array<uint32_t, 8>& key, uint64_t counter, uint64_t nonce,
                                      int rounds) {
    // "expand 32-byte k", key, counter, nonce (RFC 7539 section 2.3).
    std::array<uint32_t, 16> in = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    for (int i = 0; i < 8; ++i) in[4 + i] = key[i];
    in[12] = uint32_t(counter), in[13] = uint32_t(counter >> 32);
    in[14] = uint32_t(nonce), in[15] = uint32_t(nonce >> 32);
    std::array<uint32_t, 16> x = in;
    for (int r = 0; r < rounds; r += 2) {
        // column round, then diagonal round
        quarter_round(x[0], x[4], x[8], x[12]);
        quarter_round(x[1], x[5], x[9], x[13]);
        quarter_round(x[2], x[6], x[10], x[14]);
        quarter_round(x[3], x[7], x[11], x[15]);
        quarter_round(x[0], x[5], x[10], x[15]);
        quarter_round(x[1], x[6], x[11], x[12]);
        quarter_round(x[2], x[7], x[8], x[13]);
        quarter_round(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; ++i) x[i] += in[i];
    return x;
}

ChaCha8Rng::ChaCha8Rng(const std::array<uint8_t, 32>& seed) {
    for (int i = 0; i < 8; ++i) key_[i] = load32_le(seed.data() + 4 * i);
}

uint32_t ChaCha8Rng::next_u32() {
    if (index_ == 16) {
        block_ = chacha_block(key_, counter_++, 0, 8);
        index_ = 0;
    }
    return block_[index_++];
}

// ---- BLAKE2b (RFC 7693) -------------------------------------------------------------------

namespace {

// RFC 7693 section 2.6: the SHA-512 initial hash values.
constexpr uint64_t kBlake2bIv[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
                                    0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};

// RFC 7693 section 2.7: the message schedule SIGMA (rounds 10 and 11 reuse rows 0 and 1).
constexpr uint8_t kSigma[10][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4}, {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13}, {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11}, {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5}, {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
};

// RFC 7693 section 3.1: the mixing function G (rotations 32, 24, 16, 63).
void mix(uint64_t* v, int a, int b, int c, int d, uint64_t x, uint64_t y) {
    v[a] = v[a] + v[b] + x, v[d] = std::rotr(v[d] ^ v[a], 32);
    v[c] = v[c] + v[d], v[b] = std::rotr(v[b] ^ v[c], 24);
    v[a] = v[a] + v[b] + y, v[d] = std::rotr(v[d] ^ v[a], 16);
    v[c] = v[c] + v[d], v[b] = std::rotr(v[b] ^ v[c], 63);
}

// RFC 7693 section 3.2: the compression function F over one 128-byte block; t = bytes so far
// (fits 64 bits here), last = final block flag.
void compress(uint64_t h[8], const uint8_t block[128], uint64_t t, bool last) {
    uint64_t m[16], v[16];
    for (int i = 0; i < 16; ++i) m[i] = load64_le(block + 8 * i);
    for (int i = 0; i < 8; ++i) v[i] = h[i], v[8 + i] = kBlake2bIv[i];
    v[12] ^= t;  // low word of the offset counter; the high word (v[13]) stays 0
    if (last) v[14] = ~v[14];
    for (int r = 0; r < 12; ++r) {
        const uint8_t* s = kSigma[r % 10];
        mix(v, 0, 4, 8, 12, m[s[0]], m[s[1]]);
        mix(v, 1, 5, 9, 13, m[s[2]], m[s[3]]);
        mix(v, 2, 6, 10, 14, m[s[4]], m[s[5]]);
        mix(v, 3, 7, 11, 15, m[s[6]], m[s[7]]);
        mix(v, 0, 5, 10, 15, m[s[8]], m[s[9]]);
        mix(v, 1, 6, 11, 12, m[s[10]], m[s[11]]);
        mix(v, 2, 7, 8, 13, m[s[12]], m[s[13]]);
        mix(v, 3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; ++i) h[i] ^= v[i] ^ v[8 + i];
}

}  // namespace

std::array<uint8_t, 64> blake2b_512(std::span<const uint8_t> data) {
    uint64_t h[8];
    for (int i = 0; i < 8; ++i) h[i] = kBlake2bIv[i];
    h[0] ^= 0x01010000 ^ 64;  // parameter block: depth 1, fanout 1, no key, 64-byte digest
    // Every full block but the last is compressed as it comes; the last (possibly empty, zero
    // padded) block carries the final flag.
    size_t off = 0;
    while (data.size() - off > 128) {
        off += 128;
        compress(h, data.data() + off - 128, off, false);
    }
    uint8_t last[128] = {};
    if (data.size() > off) std::memcpy(last, data.data() + off, data.size() - off);
    compress(h, last, data.size(), true);
    std::array<uint8_t, 64> out{};
    for (int i = 0; i < 64; ++i) out[i] = uint8_t(h[i / 8] >> (8 * (i % 8)));
    return out;
}

}  // namespace cuzk::filecoin
