// Zcash BLS12-381 point encoding; see include/cuzk/ec/encoding.hpp for the format.
#include "cuzk/ec/encoding.hpp"

#include <cstring>
#include <optional>
#include <type_traits>

#include "cuzk/ec/subgroup.hpp"

namespace cuzk {
namespace {

constexpr uint8_t kFlagCompressed = 0x80;
constexpr uint8_t kFlagInfinity = 0x40;
constexpr uint8_t kFlagSign = 0x20;
constexpr uint8_t kFlagMask = 0xe0;

// Big-endian field element I/O: Fp is 48 bytes, Fp2 is c1 then c0.
void write_field(const Fp& a, uint8_t* out) { a.to_bytes_be(out); }
void write_field(const Fp2& a, uint8_t* out) {
    a.c1.to_bytes_be(out);
    a.c0.to_bytes_be(out + Fp::kBytes);
}
template <class F>
std::optional<F> read_field(const uint8_t* in);
template <>
std::optional<Fp> read_field<Fp>(const uint8_t* in) {
    return Fp::from_bytes_be(in);
}
template <>
std::optional<Fp2> read_field<Fp2>(const uint8_t* in) {
    auto c1 = Fp::from_bytes_be(in);
    auto c0 = Fp::from_bytes_be(in + Fp::kBytes);
    if (!c0 || !c1) return std::nullopt;
    return Fp2{*c0, *c1};
}
template <class F>
constexpr size_t field_bytes() {
    return std::is_same_v<F, Fp> ? Fp::kBytes : 2 * Fp::kBytes;
}

template <class Curve, size_t Bytes>
std::array<uint8_t, Bytes> encode(const Affine<Curve>& p) {
    using F = typename Curve::Field;
    constexpr size_t fb = field_bytes<F>();
    static_assert(Bytes == fb || Bytes == 2 * fb);
    constexpr bool compressed = Bytes == fb;
    std::array<uint8_t, Bytes> out{};
    if (p.infinity) {
        out[0] = compressed ? uint8_t(kFlagCompressed | kFlagInfinity) : kFlagInfinity;
        return out;
    }
    write_field(p.x, out.data());
    if constexpr (compressed) {
        out[0] |= kFlagCompressed;
        if (p.y.lexicographically_largest()) out[0] |= kFlagSign;
    } else {
        write_field(p.y, out.data() + fb);
    }
    return out;
}

template <class Curve>
DecodeResult<Affine<Curve>> decode(std::span<const uint8_t> bytes, Validation v) {
    using F = typename Curve::Field;
    using A = Affine<Curve>;
    constexpr size_t fb = field_bytes<F>();
    auto fail = [](DecodeError e) { return DecodeResult<A>{A::identity(), e}; };

    bool compressed;
    if (bytes.size() == fb)
        compressed = true;
    else if (bytes.size() == 2 * fb)
        compressed = false;
    else
        return fail(DecodeError::kWrongLength);

    const uint8_t flags = bytes[0] & kFlagMask;
    if (bool(flags & kFlagCompressed) != compressed) return fail(DecodeError::kCompressionFlagMismatch);
    if (!compressed && (flags & kFlagSign)) return fail(DecodeError::kSignFlagOnUncompressed);
    if (flags & kFlagInfinity) {
        if (flags & kFlagSign) return fail(DecodeError::kSignFlagOnInfinity);
        uint8_t acc = bytes[0] & uint8_t(~kFlagMask);
        for (size_t i = 1; i < bytes.size(); ++i) acc |= bytes[i];
        if (acc != 0) return fail(DecodeError::kInfinityNotCanonical);
        return {A::identity(), DecodeError::kNone};
    }

    uint8_t xbuf[fb];
    std::memcpy(xbuf, bytes.data(), fb);
    xbuf[0] &= uint8_t(~kFlagMask);
    auto x = read_field<F>(xbuf);
    if (!x) return fail(DecodeError::kCoordinateNotInField);

    A p;
    p.x = *x;
    p.infinity = false;
    if (compressed) {
        auto y = (x->square() * *x + Curve::b()).sqrt();
        if (!y) return fail(DecodeError::kXNotOnCurve);
        if (y->lexicographically_largest() != bool(flags & kFlagSign)) *y = -*y;
        p.y = *y;
    } else {
        auto y = read_field<F>(bytes.data() + fb);
        if (!y) return fail(DecodeError::kCoordinateNotInField);
        p.y = *y;
        if (!p.is_on_curve()) return fail(DecodeError::kNotOnCurve);
    }
    if (v == Validation::kFull && !is_in_subgroup(p)) return fail(DecodeError::kNotInSubgroup);
    return {p, DecodeError::kNone};
}

}  // namespace

const char* decode_error_message(DecodeError e) {
    switch (e) {
        case DecodeError::kNone:
            return "ok";
        case DecodeError::kWrongLength:
            return "point encoding has the wrong length (G1: 48 or 96 bytes, G2: 96 or 192 bytes)";
        case DecodeError::kCompressionFlagMismatch:
            return "compression flag (0x80) does not match the encoding's length";
        case DecodeError::kSignFlagOnUncompressed:
            return "sign flag (0x20) set on an uncompressed encoding";
        case DecodeError::kSignFlagOnInfinity:
            return "sign flag (0x20) set on the point at infinity";
        case DecodeError::kInfinityNotCanonical:
            return "infinity flag (0x40) set but the remaining bits are not all zero";
        case DecodeError::kCoordinateNotInField:
            return "a coordinate is not below the field modulus p";
        case DecodeError::kXNotOnCurve:
            return "x is not the abscissa of a curve point (x^3 + b has no square root)";
        case DecodeError::kNotOnCurve:
            return "point is not on the curve (y^2 != x^3 + b)";
        case DecodeError::kNotInSubgroup:
            return "point is not in the prime-order subgroup";
        case DecodeError::kWrongLengthEthereum:
            return "point encoding has the wrong length (BN254 G1: 64 bytes, G2: 128 bytes)";
    }
    return "unknown decode error";
}

std::array<uint8_t, kG1CompressedBytes> to_compressed(const G1Affine& p) {
    return encode<G1Curve, kG1CompressedBytes>(p);
}
std::array<uint8_t, kG1UncompressedBytes> to_uncompressed(const G1Affine& p) {
    return encode<G1Curve, kG1UncompressedBytes>(p);
}
std::array<uint8_t, kG2CompressedBytes> to_compressed(const G2Affine& p) {
    return encode<G2Curve, kG2CompressedBytes>(p);
}
std::array<uint8_t, kG2UncompressedBytes> to_uncompressed(const G2Affine& p) {
    return encode<G2Curve, kG2UncompressedBytes>(p);
}

DecodeResult<G1Affine> decode_g1(std::span<const uint8_t> bytes, Validation v) { return decode<G1Curve>(bytes, v); }
DecodeResult<G2Affine> decode_g2(std::span<const uint8_t> bytes, Validation v) { return decode<G2Curve>(bytes, v); }

}  // namespace cuzk
