// bellperson .params/.vk/proof files: round trips, and one rejected corruption per error
// class, each asserting that the message names the section/index and the problem.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdio>
#include <cstring>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "cuzk/ec/ec.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "support/seed.hpp"

namespace cuzk::formats {
namespace {

using groth16::Parameters;
using groth16::Proof;
using groth16::VerifyingKey;
using Bytes = std::vector<uint8_t>;

template <class Curve>
Affine<Curve> random_point(std::mt19937_64& rng) {
    // A random multiple of the generator: in the subgroup, never infinity in practice.
    return mul(Affine<Curve>::generator(), Fr::random(rng)).to_affine();
}
template <class Curve>
std::vector<Affine<Curve>> random_points(std::mt19937_64& rng, size_t n) {
    std::vector<Affine<Curve>> v;
    for (size_t i = 0; i < n; ++i) v.push_back(random_point<Curve>(rng));
    return v;
}

VerifyingKey random_vk(std::mt19937_64& rng, size_t n_ic) {
    VerifyingKey vk;
    vk.alpha_g1 = random_point<G1Curve>(rng);
    vk.beta_g1 = random_point<G1Curve>(rng);
    vk.beta_g2 = random_point<G2Curve>(rng);
    vk.gamma_g2 = random_point<G2Curve>(rng);
    vk.delta_g1 = random_point<G1Curve>(rng);
    vk.delta_g2 = random_point<G2Curve>(rng);
    vk.ic = random_points<G1Curve>(rng, n_ic);
    return vk;
}

// Small parameters with distinct counts, so a section mix-up cannot go unnoticed.
Parameters random_params(std::mt19937_64& rng) {
    Parameters p;
    p.vk = random_vk(rng, 3);
    p.h = random_points<G1Curve>(rng, 7);
    p.l = random_points<G1Curve>(rng, 5);
    p.a = random_points<G1Curve>(rng, 6);
    p.b_g1 = random_points<G1Curve>(rng, 4);
    p.b_g2 = random_points<G2Curve>(rng, 3);
    return p;
}

// Runs fn, expects a FormatError whose message contains every one of parts.
template <class Fn>
std::string expect_error(Fn fn, std::initializer_list<std::string> parts) {
    try {
        fn();
    } catch (const FormatError& e) {
        const std::string msg = e.what();
        for (const std::string& p : parts)
            EXPECT_NE(msg.find(p), std::string::npos) << "missing \"" << p << "\" in: " << msg;
        std::printf("[ message  ] %s\n", msg.c_str());
        return msg;
    }
    ADD_FAILURE() << "no FormatError thrown";
    return {};
}

// Offsets of the sections of random_params: vk 864 + ic(4 + 3*96), then count + points.
constexpr uint64_t kIcCount = 864, kIc = 868;
constexpr uint64_t kHCount = kIc + 3 * 96, kH = kHCount + 4;
constexpr uint64_t kLCount = kH + 7 * 96, kL = kLCount + 4;
constexpr uint64_t kACount = kL + 5 * 96, kA = kACount + 4;
constexpr uint64_t kB1Count = kA + 6 * 96, kB1 = kB1Count + 4;
constexpr uint64_t kB2Count = kB1 + 4 * 96, kB2 = kB2Count + 4;
constexpr uint64_t kEnd = kB2 + 3 * 192;

class ParamsFile : public ::testing::Test {
 protected:
    void SetUp() override {
        std::mt19937_64 rng(cuzk::test::seed());
        params = random_params(rng);
        bytes = params_to_bytes(params);
        stray_g1 = random_curve_point<G1Curve>(rng);
        stray_g2 = random_curve_point<G2Curve>(rng);
    }
    Parameters params;
    Bytes bytes;
    G1Affine stray_g1;  // on the curve, (almost surely) not in G1
    G2Affine stray_g2;
};

TEST_F(ParamsFile, LayoutMatchesBellperson) {
    ASSERT_EQ(bytes.size(), kEnd);
    EXPECT_EQ(bytes.size(), params_size(params));
    // Counts are u32 big-endian at the expected offsets.
    auto u32 = [&](uint64_t o) { return (bytes[o] << 24) | (bytes[o + 1] << 16) | (bytes[o + 2] << 8) | bytes[o + 3]; };
    EXPECT_EQ(u32(kIcCount), 3);
    EXPECT_EQ(u32(kHCount), 7);
    EXPECT_EQ(u32(kLCount), 5);
    EXPECT_EQ(u32(kACount), 6);
    EXPECT_EQ(u32(kB1Count), 4);
    EXPECT_EQ(u32(kB2Count), 3);
    // Points are uncompressed Zcash encodings at the expected places.
    auto delta_g2 = to_uncompressed(params.vk.delta_g2);
    EXPECT_EQ(0, std::memcmp(bytes.data() + 672, delta_g2.data(), 192));
    auto h3 = to_uncompressed(params.h[3]);
    EXPECT_EQ(0, std::memcmp(bytes.data() + kH + 3 * 96, h3.data(), 96));
    auto b2_2 = to_uncompressed(params.b_g2[2]);
    EXPECT_EQ(0, std::memcmp(bytes.data() + kB2 + 2 * 192, b2_2.data(), 192));
}

TEST_F(ParamsFile, RoundTripInMemory) {
    EXPECT_EQ(read_params_from_bytes(bytes), params);
    EXPECT_EQ(read_params_from_bytes(bytes, {.check_subgroup = false}), params);
}

TEST_F(ParamsFile, RoundTripThroughFiles) {
    const auto dir = std::filesystem::temp_directory_path() / ("cuzk_formats_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    write_params(params, dir / "k.params");
    write_vk(params.vk, dir / "k.vk");
    EXPECT_FALSE(std::filesystem::exists(dir / "k.params.tmp"));
    EXPECT_EQ(std::filesystem::file_size(dir / "k.params"), bytes.size());
    EXPECT_EQ(read_params(dir / "k.params"), params);
    EXPECT_EQ(read_vk(dir / "k.vk"), params.vk);

    const FileLayout layout = inspect_params(dir / "k.params");
    EXPECT_EQ(layout.file_size, kEnd);
    ASSERT_EQ(layout.sections.size(), 7u);
    EXPECT_EQ(layout.find("h")->count, 7u);
    EXPECT_EQ(layout.find("h")->data_offset, kH);
    EXPECT_EQ(layout.find("b_g2")->count, 3u);
    EXPECT_EQ(layout.find("b_g2")->data_bytes, 3u * 192);
    EXPECT_EQ(layout.num_inputs(), 3u);
    EXPECT_EQ(layout.num_aux(), 5u);
    EXPECT_EQ(layout.domain_size(), 8u);
    EXPECT_NE(describe(layout).find("b_g2"), std::string::npos);
    std::printf("%s", describe(layout).c_str());
    EXPECT_EQ(inspect_vk(dir / "k.vk").find("ic")->count, 3u);

    expect_error([&] { read_params(dir / "missing.params"); }, {"missing.params", "cannot open"});
    std::filesystem::remove_all(dir);
}

TEST_F(ParamsFile, TruncatedAtSeveralOffsets) {
    struct Case {
        uint64_t size;
        std::vector<std::string> parts;
    };
    const std::vector<Case> cases = {
        {0, {"vk.alpha_g1 at byte 0", "truncated"}},
        {50, {"vk.alpha_g1 at byte 0", "only 50 left"}},
        {700, {"vk.delta_g2 at byte 672", "truncated"}},
        {kIcCount + 2, {"ic.count at byte 864", "needs 4 bytes, only 2 left"}},
        {kIc + 100, {"ic.count", "count 3 needs 288 bytes", "truncated"}},
        {kH + 5 * 96 + 10, {"h.count", "count 7 needs 672 bytes"}},
        {kB2Count, {"b_g2.count", "truncated"}},
        {kEnd - 1, {"b_g2.count", "count 3 needs 576 bytes of points but only 575 remain"}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.size);
        std::span<const uint8_t> cut(bytes.data(), c.size);
        std::vector<std::string> parts(c.parts.begin(), c.parts.end());
        try {
            read_params_from_bytes(cut, {}, "cut.params");
            ADD_FAILURE() << "accepted";
        } catch (const FormatError& e) {
            const std::string msg = e.what();
            EXPECT_EQ(e.file(), "cut.params");
            for (const auto& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << msg;
        }
        EXPECT_THROW(inspect_params_bytes(cut), FormatError);
    }
}

TEST_F(ParamsFile, CorruptCountFailsBeforeAllocating) {
    bytes[kLCount] = bytes[kLCount + 1] = bytes[kLCount + 2] = bytes[kLCount + 3] = 0xff;
    expect_error([&] { read_params_from_bytes(bytes); },
                 {"l.count at byte " + std::to_string(kLCount), "count 4294967295", "corrupt count"});
    EXPECT_THROW(inspect_params_bytes(bytes), FormatError);
}

TEST_F(ParamsFile, SmallerCountLeavesTrailingBytes) {
    bytes[kB2Count + 3] = 2;  // 3 -> 2: one G2 point of trailing bytes
    expect_error([&] { read_params_from_bytes(bytes); }, {"after b_g2", "192 trailing bytes"});
}

// A real file whose first bytes happen to look like JSON text (uncompressed alpha_g1.x may
// start with a newline, then '[') is still read as a .params file: its layout is parsed,
// and only the point is refused.
TEST_F(ParamsFile, FirstBytesThatLookLikeJsonAreNotTakenForJson) {
    bytes[0] = '\n';
    bytes[1] = '[';
    EXPECT_NO_THROW(inspect_params_bytes(bytes));
    expect_error([&] { read_params_from_bytes(bytes, {}, "x.params"); }, {"x.params: vk.alpha_g1"});
}

TEST_F(ParamsFile, TrailingBytes) {
    bytes.push_back(0);
    expect_error([&] { read_params_from_bytes(bytes); },
                 {"after b_g2 at byte " + std::to_string(kEnd), "1 trailing bytes"});
    expect_error([&] { inspect_params_bytes(bytes); }, {"trailing"});
}

TEST_F(ParamsFile, PointOffTheCurve) {
    bytes[kH + 2 * 96 + 95] ^= 1;  // low bit of h[2].y
    expect_error([&] { read_params_from_bytes(bytes, {}, "x.params"); },
                 {"x.params: h[2] at byte " + std::to_string(kH + 2 * 96), "not on the curve"});
    // The curve equation is checked even without the subgroup check.
    expect_error([&] { read_params_from_bytes(bytes, {.check_subgroup = false}); }, {"h[2]", "not on the curve"});
    // A header-only inspection does not decode points.
    EXPECT_NO_THROW(inspect_params_bytes(bytes));
}

TEST_F(ParamsFile, LowestBadIndexIsReported) {
    bytes[kA + 5 * 96 + 95] ^= 1;
    bytes[kA + 1 * 96 + 95] ^= 1;
    expect_error([&] { read_params_from_bytes(bytes); }, {"a[1] at byte " + std::to_string(kA + 96)});
}

TEST_F(ParamsFile, PointNotInSubgroup) {
    ASSERT_FALSE(is_in_subgroup(stray_g1));
    ASSERT_FALSE(is_in_subgroup(stray_g2));
    Bytes g1 = bytes, g2 = bytes;
    auto e1 = to_uncompressed(stray_g1);
    std::memcpy(g1.data() + kL + 96, e1.data(), 96);
    expect_error([&] { read_params_from_bytes(g1); }, {"l[1] at byte " + std::to_string(kL + 96), "subgroup"});
    auto e2 = to_uncompressed(stray_g2);
    std::memcpy(g2.data() + kB2, e2.data(), 192);
    expect_error([&] { read_params_from_bytes(g2); }, {"b_g2[0]", "subgroup"});
    // Trusted-file mode skips exactly this check.
    EXPECT_EQ(read_params_from_bytes(g1, {.check_subgroup = false}).l[1], stray_g1);
    EXPECT_EQ(read_params_from_bytes(g2, {.check_subgroup = false}).b_g2[0], stray_g2);
}

TEST_F(ParamsFile, PointAtInfinity) {
    Bytes b = bytes;
    auto inf = to_uncompressed(G1Affine::identity());
    std::memcpy(b.data() + kA + 3 * 96, inf.data(), 96);
    expect_error([&] { read_params_from_bytes(b); }, {"a[3]", "point at infinity"});
    b = bytes;
    std::memcpy(b.data() + 576, inf.data(), 96);
    expect_error([&] { read_params_from_bytes(b); }, {"vk.delta_g1 at byte 576", "point at infinity"});
    b = bytes;
    auto inf2 = to_uncompressed(G2Affine::identity());
    std::memcpy(b.data() + kB2 + 192, inf2.data(), 192);
    expect_error([&] { read_params_from_bytes(b); }, {"b_g2[1]", "point at infinity"});
    // The writers refuse what the readers refuse.
    Parameters p = params;
    p.b_g1[2] = G1Affine::identity();
    expect_error([&] { params_to_bytes(p); }, {"b_g1[2]", "infinity"});
}

// An identity L or IC point means a variable in no constraint: the writer says so.
TEST_F(ParamsFile, InfinityInLOrIcNamesTheUnusedVariable) {
    Parameters p = params;
    p.l[1] = G1Affine::identity();
    expect_error([&] { params_to_bytes(p); }, {"l[1]", "aux variable 1 appears in no constraint", "L point"});
    p = params;
    p.vk.ic[1] = G1Affine::identity();
    expect_error([&] { params_to_bytes(p); }, {"ic[1]", "public input 1 appears in no constraint", "IC point"});
}

// The point tests/cli/cli_errors.sh writes into a params file: x = 4, the smallest x > 0 of a
// point of E(Fp), is on the curve and outside G1 (a cofactor component), so only the
// subgroup check refuses it.
TEST(StrayPoint, TheCliTestsPointIsOnTheCurveOutsideG1) {
    const std::string hex =
        "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000040a989badd40d62"
        "12b33cffc3f3763e9bc760f988c9926b26da9dd85e928483446346b8ed00e1de5d5ea93e354abe706c";
    Bytes b;
    for (size_t i = 0; i < hex.size(); i += 2) b.push_back(uint8_t(std::stoul(hex.substr(i, 2), nullptr, 16)));
    ASSERT_EQ(b.size(), 96u);
    const auto loose = decode_g1(b, Validation::kNoSubgroupCheck);
    ASSERT_EQ(loose.error, DecodeError::kNone);
    EXPECT_EQ(loose.point.x, Fp::from_u64(4));
    EXPECT_TRUE(loose.point.is_on_curve());
    EXPECT_FALSE(is_in_subgroup(loose.point));
    EXPECT_EQ(decode_g1(b).error, DecodeError::kNotInSubgroup);
    for (uint64_t x = 1; x < 4; ++x)  // x^3 + 4 is not a square for x = 1, 2, 3
        EXPECT_FALSE((Fp::from_u64(x).square() * Fp::from_u64(x) + G1Curve::b()).sqrt()) << x;
}

// Files of snarkjs/circom (and cuzk's shape file) are named for what they look like.
TEST(OtherFormats, RecognisedByTheirMagic) {
    auto head = [](std::string_view s) {
        Bytes b(s.begin(), s.end());
        b.resize(2000, 0);
        return b;
    };
    EXPECT_NE(other_format(head("zkey")).find("snarkjs/circom .zkey"), std::string::npos);
    EXPECT_NE(other_format(head("wtns")).find(".wtns"), std::string::npos);
    EXPECT_NE(other_format(head("r1cs")).find("circom .r1cs"), std::string::npos);
    EXPECT_NE(other_format(head("CUZKR1CS")).find("cuzk shape file"), std::string::npos);
    EXPECT_NE(other_format(head(" {\"protocol\"")).find("JSON"), std::string::npos);
    EXPECT_EQ(other_format(head("zke")), "");
    EXPECT_EQ(other_format({}), "");
    expect_error([&] { read_params_from_bytes(head("zkey"), {}, "x.zkey"); },
                 {"x.zkey", "not a bellperson .params file", "snarkjs/circom .zkey"});
    expect_error([&] { read_vk_from_bytes(head("wtns"), {}, "x.wtns"); }, {"x.wtns", "not a bellperson .vk file"});
    expect_error([&] { inspect_params_bytes(head("r1cs"), "x.r1cs"); }, {"x.r1cs", "circom .r1cs"});
}

TEST_F(ParamsFile, BadFlags) {
    bytes[kIc] |= 0x80;  // compressed flag on an uncompressed point
    expect_error([&] { read_params_from_bytes(bytes); }, {"ic[0]", "compression flag"});
}

TEST(VkFile, RoundTripAndErrors) {
    std::mt19937_64 rng(cuzk::test::seed());
    for (size_t n : {size_t(0), size_t(1), size_t(5)}) {
        const VerifyingKey vk = random_vk(rng, n);
        const Bytes b = vk_to_bytes(vk);
        EXPECT_EQ(b.size(), 868 + 96 * n);
        EXPECT_EQ(read_vk_from_bytes(b), vk);
        EXPECT_EQ(inspect_vk_bytes(b).find("ic")->count, n);
    }
    const VerifyingKey vk = random_vk(rng, 2);
    Bytes b = vk_to_bytes(vk);
    Bytes longer = b;
    longer.push_back(7);
    expect_error([&] { read_vk_from_bytes(longer, {}, "k.vk"); }, {"k.vk: after ic", "1 trailing bytes"});
    b[200] ^= 0x01;  // inside vk.beta_g2's x
    expect_error([&] { read_vk_from_bytes(b); }, {"vk.beta_g2 at byte 192"});
    // A .params file is not a .vk file (trailing sections).
    const Parameters p = random_params(rng);
    expect_error([&] { read_vk_from_bytes(params_to_bytes(p)); }, {"after ic", "trailing"});
}

class ProofBytes : public ::testing::Test {
 protected:
    void SetUp() override {
        std::mt19937_64 rng(cuzk::test::seed());
        for (int i = 0; i < 3; ++i)
            proofs.push_back({random_point<G1Curve>(rng), random_point<G2Curve>(rng), random_point<G1Curve>(rng)});
        bytes = proofs_to_bytes(proofs);
        stray = random_curve_point<G2Curve>(rng);
    }
    std::vector<Proof> proofs;
    Bytes bytes;
    G2Affine stray;
};

TEST_F(ProofBytes, RoundTrip) {
    ASSERT_EQ(bytes.size(), 3 * kProofBytes);
    EXPECT_EQ(read_proofs_from_bytes(bytes), proofs);
    EXPECT_EQ(read_proofs_from_bytes(bytes, 3), proofs);
    const auto one = proof_to_bytes(proofs[1]);
    EXPECT_EQ(0, std::memcmp(one.data(), bytes.data() + 192, 192));
    // Layout: A compressed | B compressed | C compressed.
    auto b = to_compressed(proofs[1].b);
    EXPECT_EQ(0, std::memcmp(bytes.data() + 192 + 48, b.data(), 96));
    EXPECT_EQ(read_proofs_from_bytes(std::span<const uint8_t>(one)), std::vector<Proof>{proofs[1]});
}

TEST_F(ProofBytes, WrongLength) {
    for (size_t len : {size_t(1), size_t(191), size_t(193), size_t(385)}) {
        SCOPED_TRACE(len);
        std::span<const uint8_t> s(bytes.data(), len);
        expect_error([&] { read_proofs_from_bytes(s); },
                     {"proof[" + std::to_string(len / 192) + "]", "not a multiple of 192"});
    }
    expect_error([&] { read_proofs_from_bytes(std::span<const uint8_t>()); }, {"proof[0]", "empty"});
    expect_error([&] { read_proofs_from_bytes(bytes, 10); }, {"expected 10 proofs", "found 3"});
}

TEST_F(ProofBytes, BadPointsNamed) {
    Bytes b = bytes;
    b[192 + 48 + 95] ^= 1;  // proof[1].B's x changes: most likely off the curve
    const std::string msg = expect_error([&] { read_proofs_from_bytes(b, 0, "p.bin"); },
                                         {"p.bin: proof[1].B at byte " + std::to_string(192 + 48)});
    b = bytes;
    b[2 * 192 + 144] &= 0x7f;  // proof[2].C without the compression flag
    expect_error([&] { read_proofs_from_bytes(b); }, {"proof[2].C at byte 528", "compression flag"});
    b = bytes;
    auto s = to_compressed(stray);
    std::memcpy(b.data() + 48, s.data(), 96);
    expect_error([&] { read_proofs_from_bytes(b); }, {"proof[0].B at byte 48", "subgroup"});
    b = bytes;
    auto inf = to_compressed(G1Affine::identity());
    std::memcpy(b.data() + 192, inf.data(), 48);
    expect_error([&] { read_proofs_from_bytes(b); }, {"proof[1].A", "infinity"});
}

}  // namespace
}  // namespace cuzk::formats
