// The Zcash BLS12-381 point encoding (used by bellperson, Filecoin, zkcrypto/bls12_381,
// blst). Spec: docs.rs/bls12_381 `notes::serialization`.
//
//   G1: compressed 48 bytes (x), uncompressed 96 bytes (x, y)
//   G2: compressed 96 bytes (x), uncompressed 192 bytes (x, y); an Fp2 element c0 + c1 u
//       is written c1 then c0
//   Each Fp coordinate is 48 bytes big-endian. The three top bits of byte 0 are flags:
//     0x80  compressed (set exactly when only x is written)
//     0x40  point at infinity (all other bits zero: 0xc0 00.. or 0x40 00..)
//     0x20  sign: y is the lexicographically largest of y, -y (compressed, finite only)
//
// Decoding validates everything and reports the first failure as a DecodeError, each
// with its own message (decode_error_message). The checks run in this order:
// length, compression flag, sign flag on uncompressed, infinity form (sign flag on
// infinity, then nonzero bits), coordinates < p, curve equation, subgroup. The
// Validation::kNoSubgroupCheck variant skips only the last (for trusted input such as
// a parameter file already checked once); the curve equation is always checked.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>

#include "cuzk/ec/affine.hpp"

namespace cuzk {

enum class DecodeError : uint8_t {
    kNone = 0,
    kWrongLength,              // not the compressed or uncompressed size of the group
    kCompressionFlagMismatch,  // 0x80 flag disagrees with the length
    kSignFlagOnUncompressed,   // 0x20 flag set without compression
    kSignFlagOnInfinity,       // 0x20 flag set together with 0x40
    kInfinityNotCanonical,     // 0x40 flag set but some other bit is nonzero
    kCoordinateNotInField,     // a coordinate (or Fp2 component) is >= p
    kXNotOnCurve,              // compressed: x^3 + b has no square root
    kNotOnCurve,               // uncompressed: y^2 != x^3 + b
    kNotInSubgroup,            // on the curve but not in the order-r subgroup
    kWrongLengthEthereum,      // BN254 Ethereum encoding (bn254.hpp): not 64 (G1) or 128 (G2) bytes
};

// A fixed, human-readable sentence for each error ("ok" for kNone).
const char* decode_error_message(DecodeError e);

// The outcome of a decode: point is meaningful only when ok(). No exceptions on bad
// input; value() throws std::invalid_argument with the message for callers that
// prefer exceptions.
template <class Point>
struct DecodeResult {
    Point point;
    DecodeError error;

    bool ok() const { return error == DecodeError::kNone; }
    explicit operator bool() const { return ok(); }
    const char* message() const { return decode_error_message(error); }
    const Point& value() const {
        if (!ok()) throw std::invalid_argument(message());
        return point;
    }
};

enum class Validation { kFull, kNoSubgroupCheck };

inline constexpr size_t kG1CompressedBytes = 48;
inline constexpr size_t kG1UncompressedBytes = 96;
inline constexpr size_t kG2CompressedBytes = 96;
inline constexpr size_t kG2UncompressedBytes = 192;

std::array<uint8_t, kG1CompressedBytes> to_compressed(const G1Affine& p);
std::array<uint8_t, kG1UncompressedBytes> to_uncompressed(const G1Affine& p);
std::array<uint8_t, kG2CompressedBytes> to_compressed(const G2Affine& p);
std::array<uint8_t, kG2UncompressedBytes> to_uncompressed(const G2Affine& p);

// Decodes either form; the length selects which (48/96 for G1, 96/192 for G2).
DecodeResult<G1Affine> decode_g1(std::span<const uint8_t> bytes, Validation v = Validation::kFull);
DecodeResult<G2Affine> decode_g2(std::span<const uint8_t> bytes, Validation v = Validation::kFull);
// For trusted input: every check except subgroup membership.
inline DecodeResult<G1Affine> decode_g1_unchecked(std::span<const uint8_t> bytes) {
    return decode_g1(bytes, Validation::kNoSubgroupCheck);
}
inline DecodeResult<G2Affine> decode_g2_unchecked(std::span<const uint8_t> bytes) {
    return decode_g2(bytes, Validation::kNoSubgroupCheck);
}

}  // namespace cuzk
