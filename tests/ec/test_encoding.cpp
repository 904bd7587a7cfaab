// Zcash point encoding: the zkcrypto/bls12_381 test vectors (k G for k = 0..999) and
// one rejected mutation per error class.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cuzk/ec/ec.hpp"
#include "support/seed.hpp"

namespace cuzk {
namespace {

using Bytes = std::vector<uint8_t>;

Bytes read_file(const std::string& name) {
    const std::string path = std::string(CUZK_TEST_DATA_DIR) + "/zcash/" + name;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        ADD_FAILURE() << "cannot open test vector file " << path;
        return {};
    }
    return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

DecodeResult<G1Affine> decode(const G1Affine&, std::span<const uint8_t> b, Validation v = Validation::kFull) {
    return decode_g1(b, v);
}
DecodeResult<G2Affine> decode(const G2Affine&, std::span<const uint8_t> b, Validation v = Validation::kFull) {
    return decode_g2(b, v);
}
template <class A>
Bytes enc(const A& p, bool compressed) {
    if (compressed) {
        auto a = to_compressed(p);
        return Bytes(a.begin(), a.end());
    }
    auto a = to_uncompressed(p);
    return Bytes(a.begin(), a.end());
}

// Vector file i-th entry is [i] G; every entry decodes to the running sum and
// re-encodes to the same bytes.
template <class Curve>
void check_vectors(const std::string& file, bool compressed) {
    using A = Affine<Curve>;
    const Bytes data = read_file(file);
    const size_t size = compressed ? sizeof(to_compressed(A{})) : sizeof(to_uncompressed(A{}));
    ASSERT_EQ(data.size(), 1000 * size) << file;
    Jacobian<Curve> acc = Jacobian<Curve>::identity();
    const A g = A::generator();
    for (size_t k = 0; k < 1000; ++k) {
        std::span<const uint8_t> b(data.data() + k * size, size);
        auto r = decode(g, b);
        ASSERT_TRUE(r.ok()) << file << " k=" << k << ": " << r.message();
        ASSERT_EQ(r.point, acc.to_affine()) << file << " k=" << k;
        ASSERT_EQ(enc(r.point, compressed), Bytes(b.begin(), b.end())) << file << " k=" << k;
        acc += g;
    }
}

TEST(ZcashVectors, G1Compressed) { check_vectors<G1Curve>("g1_compressed_valid_test_vectors.dat", true); }
TEST(ZcashVectors, G1Uncompressed) { check_vectors<G1Curve>("g1_uncompressed_valid_test_vectors.dat", false); }
TEST(ZcashVectors, G2Compressed) { check_vectors<G2Curve>("g2_compressed_valid_test_vectors.dat", true); }
TEST(ZcashVectors, G2Uncompressed) { check_vectors<G2Curve>("g2_uncompressed_valid_test_vectors.dat", false); }

TEST(Encoding, ErrorMessagesAreDistinct) {
    std::set<std::string> seen;
    for (int e = 0; e <= int(DecodeError::kWrongLengthEthereum); ++e) {
        std::string m = decode_error_message(DecodeError(e));
        EXPECT_FALSE(m.empty());
        EXPECT_TRUE(seen.insert(m).second) << "duplicate message: " << m;
    }
}

// Writes p (as 48 big-endian bytes) over b[off..off+48), keeping b's flag bits when
// off == 0.
void put_fp_be(Bytes& b, size_t off, const Fp::Big& v) {
    const uint8_t flags = off == 0 ? (b[0] & 0xe0) : 0;
    for (size_t i = 0; i < 48; ++i) b[off + 47 - i] = uint8_t(v.l[i / 8] >> (8 * (i % 8)));
    b[off] |= flags;
}

template <class Curve>
class EncodingTest : public ::testing::Test {};
using Curves = ::testing::Types<G1Curve, G2Curve>;
TYPED_TEST_SUITE(EncodingTest, Curves);

TYPED_TEST(EncodingTest, RoundTripAndSign) {
    using A = Affine<TypeParam>;
    std::mt19937_64 rng(test::seed());
    for (int i = 0; i < 10; ++i) {
        A p = random_subgroup_point<TypeParam>(rng);
        for (bool c : {true, false}) {
            Bytes b = enc(p, c);
            auto r = decode(p, b);
            ASSERT_TRUE(r.ok()) << r.message();
            EXPECT_EQ(r.point, p);
            EXPECT_EQ(r.value(), p);
        }
        // Flipping the sign bit of a compressed encoding gives -P.
        Bytes b = enc(p, true);
        b[0] ^= 0x20;
        auto r = decode(p, b);
        ASSERT_TRUE(r.ok()) << r.message();
        EXPECT_EQ(r.point, -p);
    }
    for (bool c : {true, false}) {
        auto r = decode(A{}, enc(A::identity(), c));
        ASSERT_TRUE(r.ok());
        EXPECT_TRUE(r.point.is_identity());
    }
}

TYPED_TEST(EncodingTest, EveryMalformedClassIsRejectedWithItsOwnError) {
    using A = Affine<TypeParam>;
    using F = typename TypeParam::Field;
    std::mt19937_64 rng(test::seed());
    const A p = random_subgroup_point<TypeParam>(rng);
    const Bytes c = enc(p, true), u = enc(p, false);
    const Bytes ci = enc(A::identity(), true), ui = enc(A::identity(), false);
    auto expect = [&](const Bytes& b, DecodeError e, const char* what) {
        auto r = decode(p, b);
        EXPECT_EQ(r.error, e) << what << ": got \"" << r.message() << "\", want \"" << decode_error_message(e) << "\"";
        EXPECT_FALSE(r.ok()) << what;
        EXPECT_THROW((void)r.value(), std::invalid_argument) << what;
    };

    // Wrong length: empty, one short, one long, between the two sizes.
    expect(Bytes{}, DecodeError::kWrongLength, "empty");
    expect(Bytes(c.begin(), c.end() - 1), DecodeError::kWrongLength, "compressed minus one byte");
    Bytes longer = u;
    longer.push_back(0);
    expect(longer, DecodeError::kWrongLength, "uncompressed plus one byte");
    Bytes mid = c;
    mid.push_back(0);
    expect(mid, DecodeError::kWrongLength, "compressed plus one byte");

    // Compression flag against the length.
    Bytes b = c;
    b[0] &= 0x7f;
    expect(b, DecodeError::kCompressionFlagMismatch, "compressed length without 0x80");
    b = u;
    b[0] |= 0x80;
    expect(b, DecodeError::kCompressionFlagMismatch, "uncompressed length with 0x80");

    // Sign flag on uncompressed (finite and infinity).
    b = u;
    b[0] |= 0x20;
    expect(b, DecodeError::kSignFlagOnUncompressed, "uncompressed with 0x20");
    b = ui;
    b[0] |= 0x20;
    expect(b, DecodeError::kSignFlagOnUncompressed, "uncompressed infinity with 0x20");

    // Sign flag on compressed infinity.
    b = ci;
    b[0] |= 0x20;
    expect(b, DecodeError::kSignFlagOnInfinity, "compressed infinity with 0x20");

    // Infinity with other bits set: low bits of byte 0, the last byte, a real x.
    b = ci;
    b[0] |= 0x01;
    expect(b, DecodeError::kInfinityNotCanonical, "0xc1 infinity");
    b = ci;
    b.back() = 1;
    expect(b, DecodeError::kInfinityNotCanonical, "compressed infinity, last byte 1");
    b = ui;
    b[ui.size() / 2] = 0x10;
    expect(b, DecodeError::kInfinityNotCanonical, "uncompressed infinity, nonzero y");
    b = c;
    b[0] |= 0x40;
    b[0] &= uint8_t(~0x20);
    expect(b, DecodeError::kInfinityNotCanonical, "compressed finite x with 0x40");

    // Coordinates >= p: x = p, x = 2^381 - 1, and (uncompressed) y = p; for G2 each of
    // the two Fp components separately (c1 is written first).
    const Fp::Big pbig = Fp::kP;
    Fp::Big all_ones = Fp::Big::zero();
    for (size_t i = 0; i < 6; ++i) all_ones.l[i] = ~uint64_t(0);
    all_ones.l[5] >>= 3;  // 2^381 - 1, leaving the flag bits to the flags
    for (size_t comp = 0; comp < sizeof(F) / sizeof(Fp); ++comp) {
        b = c;
        put_fp_be(b, 48 * comp, pbig);
        expect(b, DecodeError::kCoordinateNotInField, "compressed x component = p");
        b = c;
        put_fp_be(b, 48 * comp, all_ones);
        expect(b, DecodeError::kCoordinateNotInField, "compressed x component = 2^381 - 1");
        b = u;
        put_fp_be(b, 48 * comp, pbig);
        expect(b, DecodeError::kCoordinateNotInField, "uncompressed x component = p");
        b = u;
        put_fp_be(b, u.size() / 2 + 48 * comp, pbig);
        expect(b, DecodeError::kCoordinateNotInField, "uncompressed y component = p");
    }

    // Compressed x with no point: search for x where x^3 + b is not a square.
    A fake = p;
    do {
        fake.x = F::random(rng);
    } while ((fake.x.square() * fake.x + TypeParam::b()).sqrt());
    fake.y = F::zero();
    expect(enc(fake, true), DecodeError::kXNotOnCurve, "compressed x off the curve");

    // Uncompressed point off the curve: y + 1.
    A off = p;
    off.y += F::one();
    expect(enc(off, false), DecodeError::kNotOnCurve, "uncompressed y + 1");

    // On the curve, not in the subgroup; the unchecked decoder accepts it.
    const A raw = random_curve_point<TypeParam>(rng);
    ASSERT_FALSE(is_in_subgroup(raw));
    for (bool cmp : {true, false}) {
        expect(enc(raw, cmp), DecodeError::kNotInSubgroup,
               cmp ? "compressed non-subgroup" : "uncompressed non-subgroup");
        auto r = decode(raw, enc(raw, cmp), Validation::kNoSubgroupCheck);
        ASSERT_TRUE(r.ok()) << r.message();
        EXPECT_EQ(r.point, raw);
    }
    // The unchecked decoder still checks everything else.
    auto r = decode(p, enc(off, false), Validation::kNoSubgroupCheck);
    EXPECT_EQ(r.error, DecodeError::kNotOnCurve);
}

TEST(Encoding, UncheckedWrappers) {
    std::mt19937_64 rng(test::seed());
    const G1Affine p = random_curve_point<G1Curve>(rng);
    const G2Affine q = random_curve_point<G2Curve>(rng);
    EXPECT_TRUE(decode_g1_unchecked(to_compressed(p)).ok());
    EXPECT_TRUE(decode_g2_unchecked(to_uncompressed(q)).ok());
    EXPECT_EQ(decode_g1(to_compressed(p)).error, DecodeError::kNotInSubgroup);
    EXPECT_EQ(decode_g2(to_uncompressed(q)).error, DecodeError::kNotInSubgroup);
    // G1 length given to G2 and vice versa.
    EXPECT_EQ(decode_g2(to_compressed(p)).error, DecodeError::kWrongLength);
    EXPECT_EQ(decode_g1(to_uncompressed(q)).error, DecodeError::kWrongLength);
}

}  // namespace
}  // namespace cuzk
