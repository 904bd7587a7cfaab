// circom/snarkjs .zkey, .wtns and .r1cs: the committed snarkjs artefacts read as snarkjs
// wrote them, hand-built files round-trip through the writers, and malformed files (every
// truncation, every flipped byte, and each check on its own) are refused with a
// FormatError naming the section and the byte. The BN254 (bn128) artefacts read the same
// way; a file of one curve is refused by the readers of the other.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "cuzk/ec/ec.hpp"
#include "cuzk/formats/circom.hpp"
#include "support/seed.hpp"

namespace cuzk::formats::circom {
namespace {

using E = groth16::Bls12_381;
using Bytes = std::vector<uint8_t>;

const std::filesystem::path kData = std::filesystem::path(CUZK_TEST_DATA_DIR) / "circom";

Bytes load(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(in), {});
}

template <class Fn>
FormatError error_of(Fn fn) {
    try {
        fn();
    } catch (const FormatError& e) {
        return e;
    }
    ADD_FAILURE() << "no FormatError";
    return FormatError("", "", 0, "");
}

uint32_t u32_at(const Bytes& b, size_t off) {
    uint32_t v;
    std::memcpy(&v, b.data() + off, 4);
    return v;
}
void set_u32(Bytes& b, size_t off, uint32_t v) { std::memcpy(b.data() + off, &v, 4); }

// Where a section's data starts in a valid file.
uint64_t data_offset(const Bytes& b, uint32_t type) {
    const BinFile f = read_bin_layout(b, "t");
    return f.find(type)->data_offset;
}

// ---- the committed snarkjs artefacts (tests/data/circom, scripts/circom regenerate) ----

TEST(CircomFiles, SnarkjsArtefactsRead) {
    const auto z = read_zkey<E>(kData / "chain8.zkey");
    EXPECT_EQ(z.n_vars, 11u);
    EXPECT_EQ(z.n_public, 2u);
    EXPECT_EQ(z.domain_size, 16u);
    EXPECT_EQ(z.ic.size(), 3u);
    EXPECT_EQ(z.c.size(), 8u);
    EXPECT_EQ(z.h.size(), 16u);
    EXPECT_EQ(z.a_rows.rows(), 16u);
    // The input rows 8, 9, 10 put signals 0, 1, 2 into A with coefficient 1.
    for (uint32_t s = 0; s < 3; ++s) {
        ASSERT_EQ(z.a_rows.row_ptr[9 + s] - z.a_rows.row_ptr[8 + s], 1u);
        EXPECT_EQ(z.a_rows.signal[z.a_rows.row_ptr[8 + s]], s);
        EXPECT_TRUE(z.a_rows.coeff[z.a_rows.row_ptr[8 + s]].is_one());
    }
    EXPECT_EQ(z.z_density.a_count, z.a.size());
    EXPECT_EQ(z.b1.size(), z.b2.size());

    const auto w = read_wtns<E>(kData / "chain8.wtns");
    ASSERT_EQ(w.values.size(), 11u);
    EXPECT_TRUE(w.values[0].is_one());
    EXPECT_EQ(w.values[2], Fr::from_u64(3));  // the public input a

    const auto r = read_r1cs<E>(kData / "chain8.r1cs");
    EXPECT_EQ(r.n_constraints(), 8u);
    EXPECT_EQ(r.n_wires, 11u);
    EXPECT_EQ(r.n_pub_out, 1u);
    EXPECT_EQ(r.n_pub_in, 1u);
    EXPECT_EQ(r.n_prv_in, 1u);
    EXPECT_EQ(r.wire_to_label.size(), 11u);
    // The circuit's constraints hold for the witness snarkjs computed.
    for (size_t i = 0; i < r.n_constraints(); ++i) {
        auto dot = [&](const groth16::SparseRows<Fr>& m) {
            Fr acc = Fr::zero();
            for (uint64_t t = m.row_ptr[i]; t < m.row_ptr[i + 1]; ++t) acc += m.coeff[t] * w.values[m.signal[t]];
            return acc;
        };
        EXPECT_EQ(dot(r.a) * dot(r.b), dot(r.c)) << "constraint " << i;
    }
}

TEST(CircomFiles, DescribeNamesTheFigures) {
    const std::string d = describe(load(kData / "chain8.zkey"), "chain8.zkey");
    EXPECT_NE(d.find("nVars 11"), std::string::npos) << d;
    EXPECT_NE(d.find("domainSize 16"), std::string::npos) << d;
    EXPECT_NE(d.find("coefficients"), std::string::npos) << d;
    EXPECT_NE(describe(load(kData / "chain8.wtns"), "w").find("11 values"), std::string::npos);
    EXPECT_NE(describe(load(kData / "chain8.r1cs"), "r").find("8 constraints"), std::string::npos);
}

// ---- hand-built files -------------------------------------------------------------------

template <class Curve>
Affine<Curve> random_point(std::mt19937_64& rng) {
    return mul(Affine<Curve>::generator(), Fr::random(rng)).to_affine();
}

// A key of 6 signals (2 public), domain 8, random points; signal 5 is in neither A nor B.
ZkeyContents<E> small_key(std::mt19937_64& rng) {
    ZkeyContents<E> z;
    z.n_vars = 6;
    z.n_public = 2;
    z.domain_size = 8;
    z.alpha_1 = random_point<G1Curve>(rng);
    z.beta_1 = random_point<G1Curve>(rng);
    z.delta_1 = random_point<G1Curve>(rng);
    z.beta_2 = random_point<G2Curve>(rng);
    z.gamma_2 = G2Affine::generator();
    z.delta_2 = random_point<G2Curve>(rng);
    for (int i = 0; i < 3; ++i) z.ic.push_back(random_point<G1Curve>(rng));
    for (int i = 0; i < 6; ++i) {
        const bool used = i != 5;
        z.a.push_back(used ? random_point<G1Curve>(rng) : G1Affine::identity());
        z.b1.push_back(used ? random_point<G1Curve>(rng) : G1Affine::identity());
        z.b2.push_back(used ? random_point<G2Curve>(rng) : G2Affine::identity());
    }
    for (int i = 0; i < 3; ++i) z.c.push_back(random_point<G1Curve>(rng));
    for (int i = 0; i < 8; ++i) z.h.push_back(random_point<G1Curve>(rng));
    // Rows 0..2 of A and B, then the input rows 3..5 of A.
    for (uint32_t row = 0; row < 8; ++row) {
        if (row < 3) {
            z.a_rows.signal.push_back(row + 2);
            z.a_rows.coeff.push_back(Fr::random(rng));
            z.b_rows.signal.push_back(row + 1);
            z.b_rows.coeff.push_back(-Fr::one());
        } else if (row < 6) {
            z.a_rows.signal.push_back(row - 3);
            z.a_rows.coeff.push_back(Fr::one());
        }
        z.a_rows.row_ptr.push_back(z.a_rows.signal.size());
        z.b_rows.row_ptr.push_back(z.b_rows.signal.size());
    }
    return z;
}

groth16::CircomR1cs<E> small_r1cs(std::mt19937_64& rng) {
    groth16::CircomR1cs<E> r;
    r.n_wires = 5;
    r.n_pub_out = 1;
    r.n_pub_in = 1;
    r.n_prv_in = 1;
    r.n_labels = 7;
    for (uint32_t i = 0; i < 3; ++i) {
        for (auto* m : {&r.a, &r.b, &r.c}) {
            for (uint32_t t = 0; t <= (i + uint32_t(m == &r.b)) % 3; ++t) {
                m->signal.push_back((i + t) % 5);
                m->coeff.push_back(Fr::random(rng));
            }
            m->row_ptr.push_back(m->signal.size());
        }
    }
    r.wire_to_label = {0, 1, 2, 3, 6};
    return r;
}

struct CircomHandBuilt : ::testing::Test {
    void SetUp() override {
        rng.seed(cuzk::test::seed());
        key = small_key(rng);
        zkey = zkey_to_bytes<E>(key);
        for (int i = 0; i < 6; ++i) witness.push_back(i == 0 ? Fr::one() : Fr::random(rng));
        wtns = wtns_to_bytes<E>(witness);
        r1cs_value = small_r1cs(rng);
        r1cs = r1cs_to_bytes<E>(r1cs_value);
    }
    std::mt19937_64 rng;
    ZkeyContents<E> key;
    Bytes zkey, wtns, r1cs;
    std::vector<Fr> witness;
    groth16::CircomR1cs<E> r1cs_value;
};

TEST_F(CircomHandBuilt, RoundTrip) {
    const auto z = read_zkey_bytes<E>(zkey);
    EXPECT_EQ(z.n_vars, 6u);
    EXPECT_EQ(z.alpha_1, key.alpha_1);
    EXPECT_EQ(z.delta_2, key.delta_2);
    EXPECT_EQ(z.ic, key.ic);
    EXPECT_EQ(z.c, key.c);
    EXPECT_EQ(z.h, key.h);
    // Compacted: signal 5 (at infinity) left out, its density bit clear.
    ASSERT_EQ(z.a.size(), 5u);
    ASSERT_EQ(z.b2.size(), 5u);
    EXPECT_EQ(z.a[4], key.a[4]);
    EXPECT_EQ(z.b2[4], key.b2[4]);
    EXPECT_EQ(z.z_density.a[0], 0x1fu);
    EXPECT_EQ(z.z_density.b[0], 0x1fu);
    EXPECT_EQ(z.a_rows.row_ptr, key.a_rows.row_ptr);
    EXPECT_EQ(z.a_rows.coeff, key.a_rows.coeff);  // c R^2 stored, c read back
    EXPECT_EQ(z.b_rows.coeff, key.b_rows.coeff);

    EXPECT_EQ(read_wtns_bytes<E>(wtns).values, witness);

    const auto r = read_r1cs_bytes<E>(r1cs);
    EXPECT_EQ(r.n_constraints(), 3u);
    EXPECT_EQ(r.a.coeff, r1cs_value.a.coeff);
    EXPECT_EQ(r.b.signal, r1cs_value.b.signal);
    EXPECT_EQ(r.c.row_ptr, r1cs_value.c.row_ptr);
    EXPECT_EQ(r.wire_to_label, r1cs_value.wire_to_label);
}

// Every proper prefix of every file is refused (no crash, no allocation from a count).
TEST_F(CircomHandBuilt, EveryTruncationRefused) {
    for (size_t n = 0; n < wtns.size(); ++n) EXPECT_THROW(read_wtns_bytes<E>({wtns.data(), n}), FormatError) << n;
    for (size_t n = 0; n < r1cs.size(); ++n) EXPECT_THROW(read_r1cs_bytes<E>({r1cs.data(), n}), FormatError) << n;
    for (size_t n = 0; n < zkey.size(); n += 7)
        EXPECT_THROW(read_zkey_bytes<E>({zkey.data(), n}, {.check_subgroup = false}), FormatError) << n;
}

// Every single flipped byte gives either a FormatError or a file that still reads (a
// flipped value that stays in range); never a crash. Bytes of structure must be refused.
TEST_F(CircomHandBuilt, EveryFlippedByteRefusedOrHarmless) {
    size_t refused = 0;
    for (Bytes* file : {&zkey, &wtns, &r1cs}) {
        auto read = [&](const Bytes& b) {
            if (file == &zkey) (void)read_zkey_bytes<E>(b, {.check_subgroup = false});
            if (file == &wtns) (void)read_wtns_bytes<E>(b);
            if (file == &r1cs) (void)read_r1cs_bytes<E>(b);
        };
        for (size_t i = 0; i < file->size(); ++i) {
            Bytes b = *file;
            b[i] ^= 0x5a;
            try {
                read(b);
                EXPECT_GE(i, 12u) << "a flipped byte of the file header (magic, version, count) was accepted";
            } catch (const FormatError& e) {
                ++refused;
                EXPECT_FALSE(e.file().empty());
            }
        }
    }
    EXPECT_GT(refused, zkey.size() / 2);
}

TEST_F(CircomHandBuilt, ContainerErrors) {
    Bytes b = zkey;
    b[0] = 'x';
    EXPECT_NE(std::string(error_of([&] { read_zkey_bytes<E>(b); }).what()).find("magic"), std::string::npos);
    EXPECT_NE(std::string(error_of([&] { read_zkey_bytes<E>(wtns); }).what()).find("wtns"), std::string::npos);
    b = zkey;
    set_u32(b, 4, 2);
    EXPECT_EQ(error_of([&] { read_zkey_bytes<E>(b); }).offset(), 4u);
    // Section 1's type changed to 11 (unknown), then to 2 (a duplicate header).
    b = zkey;
    set_u32(b, 12, 11);
    auto e = error_of([&] { read_zkey_bytes<E>(b); });
    EXPECT_EQ(e.offset(), 12u);
    EXPECT_NE(std::string(e.what()).find("unknown section type 11"), std::string::npos);
    set_u32(b, 12, 2);
    EXPECT_NE(std::string(error_of([&] { read_zkey_bytes<E>(b); }).what()).find("twice"), std::string::npos);
    // A section size past the end of the file.
    b = zkey;
    set_u32(b, 16, 1000000);
    e = error_of([&] { read_zkey_bytes<E>(b); });
    EXPECT_EQ(e.offset(), 16u);
    EXPECT_NE(e.section().find("protocol"), std::string::npos);
    // Trailing bytes.
    b = zkey;
    b.push_back(0);
    EXPECT_NE(std::string(error_of([&] { read_zkey_bytes<E>(b); }).what()).find("trailing"), std::string::npos);
}

TEST_F(CircomHandBuilt, ZkeyHeaderErrors) {
    const uint64_t s1 = data_offset(zkey, 1), s2 = data_offset(zkey, 2);
    Bytes b = zkey;
    set_u32(b, s1, 2);
    EXPECT_NE(std::string(error_of([&] { read_zkey_bytes<E>(b); }).what()).find("PLONK"), std::string::npos);
    // q of BN254 in a BLS12-381 key: named, and refused.
    b = zkey;
    const Fp::Big bn_q =
        *Fp::Big::parse("21888242871839275222246405745257275088696311157297823662689037894645226208583");
    std::memcpy(b.data() + s2 + 4, bn_q.l, 48);
    auto e = error_of([&] { read_zkey_bytes<E>(b); });
    EXPECT_NE(std::string(e.what()).find("base field prime of bn128"), std::string::npos) << e.what();
    b = zkey;
    set_u32(b, s2, 32);
    EXPECT_NE(std::string(error_of([&] { read_zkey_bytes<E>(b); }).what()).find("32 bytes"), std::string::npos);
    b = zkey;
    b[s2 + 4] ^= 1;  // q changed
    e = error_of([&] { read_zkey_bytes<E>(b); });
    EXPECT_EQ(e.offset(), s2 + 4);
    EXPECT_NE(std::string(e.what()).find("not a prime"), std::string::npos) << e.what();
    // nVars 7: the A section no longer fits.
    const uint64_t counts = s2 + 4 + 48 + 4 + 32;
    b = zkey;
    set_u32(b, counts, 7);
    e = error_of([&] { read_zkey_bytes<E>(b); });
    EXPECT_NE(e.section().find("section 5 (A)"), std::string::npos) << e.what();
    // domainSize 12: not a power of two.
    b = zkey;
    set_u32(b, counts + 8, 12);
    e = error_of([&] { read_zkey_bytes<E>(b); });
    EXPECT_EQ(e.offset(), counts + 8);
    // nPublic 6 of nVars 6.
    b = zkey;
    set_u32(b, counts + 4, 6);
    EXPECT_EQ(error_of([&] { read_zkey_bytes<E>(b); }).offset(), counts + 4);
}

TEST_F(CircomHandBuilt, ZkeyContentErrors) {
    // Coefficient 2's signal out of range, then its matrix, then its value >= r.
    const uint64_t c0 = data_offset(zkey, 4) + 4, item = 12 + 32;
    Bytes b = zkey;
    set_u32(b, c0 + 2 * item + 8, 6);
    auto e = error_of([&] { read_zkey_bytes<E>(b); });
    EXPECT_EQ(e.offset(), c0 + 2 * item + 8);
    EXPECT_NE(e.section().find("coefficient 2"), std::string::npos);
    b = zkey;
    set_u32(b, c0 + 2 * item, 2);
    EXPECT_EQ(error_of([&] { read_zkey_bytes<E>(b); }).offset(), c0 + 2 * item);
    b = zkey;
    std::memset(b.data() + c0 + 2 * item + 12, 0xff, 32);
    EXPECT_EQ(error_of([&] { read_zkey_bytes<E>(b); }).offset(), c0 + 2 * item + 12);
    // A's point 3: y changed (off the curve); x >= q.
    const uint64_t a3 = data_offset(zkey, 5) + 3 * 96;
    b = zkey;
    b[a3 + 48] ^= 1;
    e = error_of([&] { read_zkey_bytes<E>(b); });
    EXPECT_EQ(e.offset(), a3);
    EXPECT_EQ(e.section(), "section 5 (A) point 3");
    EXPECT_NE(e.problem().find("not on the curve"), std::string::npos);
    b = zkey;
    std::memset(b.data() + a3, 0xff, 48);
    EXPECT_NE(error_of([&] { read_zkey_bytes<E>(b); }).problem().find("below q"), std::string::npos);
    // B2's point 2 at infinity while B1's is not.
    b = zkey;
    std::memset(b.data() + data_offset(zkey, 7) + 2 * 192, 0, 192);
    EXPECT_NE(std::string(error_of([&] { read_zkey_bytes<E>(b); }).what()).find("B1 and B2"), std::string::npos);
    // delta_2 at infinity.
    b = zkey;
    const uint64_t delta2 = data_offset(zkey, 2) + 4 + 48 + 4 + 32 + 12 + 3 * 96 + 2 * 192;
    std::memset(b.data() + delta2, 0, 192);
    e = error_of([&] { read_zkey_bytes<E>(b); });
    EXPECT_EQ(e.offset(), delta2);
    EXPECT_NE(e.section().find("delta_2"), std::string::npos);
}

// A point on the curve but outside the subgroup: refused with the subgroup check only.
TEST_F(CircomHandBuilt, SubgroupChecked) {
    ZkeyContents<E> k = key;
    k.h[5] = random_curve_point<G1Curve>(rng);
    ASSERT_FALSE(is_in_subgroup(k.h[5]));
    const Bytes b = zkey_to_bytes<E>(k);
    const auto e = error_of([&] { read_zkey_bytes<E>(b); });
    EXPECT_EQ(e.section(), "section 9 (H) point 5");
    EXPECT_NO_THROW(read_zkey_bytes<E>(b, {.check_subgroup = false}));
}

TEST_F(CircomHandBuilt, WtnsAndR1csErrors) {
    const uint64_t w1 = data_offset(wtns, 1), w2 = data_offset(wtns, 2);
    Bytes b = wtns;
    set_u32(b, w1 + 4 + 32, 7);  // nWitness 7, 6 values
    EXPECT_NE(error_of([&] { read_wtns_bytes<E>(b); }).section().find("section 2 (witness)"), std::string::npos);
    b = wtns;
    std::memset(b.data() + w2 + 3 * 32, 0xff, 32);
    auto e = error_of([&] { read_wtns_bytes<E>(b); });
    EXPECT_EQ(e.offset(), w2 + 3 * 32);
    EXPECT_EQ(e.section(), "section 2 (witness) value 3");
    b = wtns;
    b[w1 + 4] ^= 1;
    EXPECT_EQ(error_of([&] { read_wtns_bytes<E>(b); }).offset(), w1 + 4);

    // r1cs: constraint 0's first A term's wire out of range; its term count too large;
    // a custom-gates section.
    const uint64_t c2 = data_offset(r1cs, 2);
    b = r1cs;
    set_u32(b, c2 + 4, 5);
    e = error_of([&] { read_r1cs_bytes<E>(b); });
    EXPECT_EQ(e.offset(), c2 + 4);
    EXPECT_NE(e.section().find("constraint 0 A term 0"), std::string::npos) << e.what();
    b = r1cs;
    set_u32(b, c2, 0x10000000);
    EXPECT_EQ(error_of([&] { read_r1cs_bytes<E>(b); }).offset(), c2);
    b = r1cs;
    set_u32(b, 8, u32_at(b, 8) + 1);
    b.insert(b.end(), {4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    EXPECT_NE(std::string(error_of([&] { read_r1cs_bytes<E>(b); }).what()).find("custom gates"), std::string::npos);
    // A wire label >= nLabels.
    b = r1cs;
    const uint64_t s3 = data_offset(r1cs, 3);
    b[s3 + 8 * 4] = 7;
    EXPECT_EQ(error_of([&] { read_r1cs_bytes<E>(b); }).offset(), s3 + 8 * 4);
}

TEST(CircomFiles, ReadFromMissingFileNamesIt) {
    const auto e = error_of([] { read_zkey<E>("/nonexistent/x.zkey"); });
    EXPECT_EQ(e.file(), "/nonexistent/x.zkey");
}

// ---- BN254 (snarkjs' bn128) -------------------------------------------------------------

using B = groth16::Bn254;

TEST(CircomBn254, SnarkjsArtefactsRead) {
    const auto z = read_zkey<B>(kData / "chain8_bn254.zkey");
    EXPECT_EQ(z.n_vars, 11u);
    EXPECT_EQ(z.n_public, 2u);
    EXPECT_EQ(z.domain_size, 16u);
    EXPECT_EQ(z.h.size(), 16u);
    const auto w = read_wtns<B>(kData / "chain8_bn254.wtns");
    ASSERT_EQ(w.values.size(), 11u);
    EXPECT_EQ(w.values[2], bn254::Fr::from_u64(3));  // the public input a
    const auto r = read_r1cs<B>(kData / "chain8_bn254.r1cs");
    ASSERT_EQ(r.n_constraints(), 8u);
    for (size_t i = 0; i < r.n_constraints(); ++i) {
        auto dot = [&](const groth16::SparseRows<bn254::Fr>& m) {
            bn254::Fr acc = bn254::Fr::zero();
            for (uint64_t t = m.row_ptr[i]; t < m.row_ptr[i + 1]; ++t) acc += m.coeff[t] * w.values[m.signal[t]];
            return acc;
        };
        EXPECT_EQ(dot(r.a) * dot(r.b), dot(r.c)) << "constraint " << i;
    }
    const std::string d = describe(load(kData / "chain8_bn254.zkey"), "k");
    EXPECT_NE(d.find("Groth16 on bn128: nVars 11"), std::string::npos) << d;
    EXPECT_NE(describe(load(kData / "chain8_bn254.wtns"), "w").find("witness on bn128: 11 values"), std::string::npos);
    EXPECT_NE(describe(load(kData / "chain8_bn254.r1cs"), "r").find("R1CS on bn128: 8 constraints"), std::string::npos);
}

TEST(CircomBn254, CurveDetectedFromThePrime) {
    using groth16::SnarkjsCurve;
    for (const char* ext : {".zkey", ".wtns", ".r1cs"}) {
        EXPECT_EQ(detect_curve(kData / (std::string("chain8_bn254") + ext)), SnarkjsCurve::kBn254) << ext;
        EXPECT_EQ(detect_curve(kData / (std::string("chain8") + ext)), SnarkjsCurve::kBls12_381) << ext;
    }
    // A prime of neither curve is named.
    Bytes w = load(kData / "chain8_bn254.wtns");
    const uint64_t h = data_offset(w, 1);
    w[h + 4] ^= 1;
    const auto e = error_of([&] { (void)detect_curve(w, "x.wtns"); });
    EXPECT_EQ(e.section(), "section 1 (header) prime");
    EXPECT_NE(std::string(e.what()).find("not a prime of a curve snarkjs supports"), std::string::npos) << e.what();
}

// A file of one curve read as the other: refused, naming the file, the section and the
// curve the prime belongs to.
TEST(CircomBn254, FilesOfTheOtherCurveRefused) {
    auto expect_refused = [](auto read, const char* section, const char* owner) {
        const auto e = error_of(read);
        EXPECT_EQ(e.section(), section);
        EXPECT_NE(std::string(e.what()).find(owner), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("one curve"), std::string::npos) << e.what();
    };
    expect_refused([] { read_wtns<E>(kData / "chain8_bn254.wtns"); }, "section 1 (header) prime",
                   "the scalar field prime of bn128, not bls12381's");
    expect_refused([] { read_wtns<B>(kData / "chain8.wtns"); }, "section 1 (header) prime",
                   "the scalar field prime of bls12381, not bn128's");
    expect_refused([] { read_r1cs<E>(kData / "chain8_bn254.r1cs"); }, "section 1 (header) prime", "of bn128");
    expect_refused([] { read_r1cs<B>(kData / "chain8.r1cs"); }, "section 1 (header) prime", "of bls12381");
    // The .zkey's q comes first: 32 bytes where BLS12-381 needs 48.
    const auto e = error_of([] { read_zkey<E>(kData / "chain8_bn254.zkey"); });
    EXPECT_EQ(e.section(), "section 2 (header) q");
    EXPECT_NE(e.file().find("chain8_bn254.zkey"), std::string::npos);
    expect_refused([] { read_zkey<B>(kData / "chain8.zkey"); }, "section 2 (header) q",
                   "the base field prime of bls12381");
}

// Every flipped byte of the committed BN254 files: a FormatError naming the file, or a file
// that still reads (a value changed within range); the header and the primes always refused.
TEST(CircomBn254, EveryFlippedByteRefusedOrHarmless) {
    for (const char* ext : {".zkey", ".wtns", ".r1cs"}) {
        const Bytes file = load(kData / (std::string("chain8_bn254") + ext));
        const uint32_t header = std::string(ext) == ".zkey" ? 2 : 1;
        const uint64_t prime_at = data_offset(file, header) + 4;  // q (.zkey) or the prime
        size_t refused = 0;
        for (size_t i = 0; i < file.size(); ++i) {
            Bytes b = file;
            b[i] ^= 0x5a;
            try {
                if (header == 2) (void)read_zkey_bytes<B>(b, {.check_subgroup = false}, "f");
                if (std::string(ext) == ".wtns") (void)read_wtns_bytes<B>(b, "f");
                if (std::string(ext) == ".r1cs") (void)read_r1cs_bytes<B>(b, "f");
                EXPECT_GE(i, 12u) << ext << ": a flipped byte of the file header was accepted";
                EXPECT_FALSE(i >= prime_at && i < prime_at + 32) << ext << ": a flipped prime byte was accepted";
            } catch (const FormatError& e) {
                ++refused;
                EXPECT_EQ(e.file(), "f");
                EXPECT_FALSE(e.section().empty());
            }
        }
        EXPECT_GE(refused, 12u + 32u) << ext;  // at least the file header and the prime
    }
}

TEST(CircomBn254, WritersRoundTrip) {
    std::mt19937_64 rng(cuzk::test::seed());
    std::vector<bn254::Fr> w;
    for (int i = 0; i < 6; ++i) w.push_back(i == 0 ? bn254::Fr::one() : bn254::Fr::random(rng));
    EXPECT_EQ(read_wtns_bytes<B>(wtns_to_bytes<B>(w)).values, w);
    const auto r = read_r1cs<B>(kData / "chain8_bn254.r1cs");
    const auto again = read_r1cs_bytes<B>(r1cs_to_bytes<B>(r));
    EXPECT_EQ(again.a.coeff, r.a.coeff);
    EXPECT_EQ(again.c.signal, r.c.signal);
    EXPECT_EQ(again.wire_to_label, r.wire_to_label);
    // The committed key: the bytes it writes back read as the same key.
    const auto z = read_zkey<B>(kData / "chain8_bn254.zkey");
    groth16::ZkeyContents<B> c;
    c.n_vars = z.n_vars;
    c.n_public = z.n_public;
    c.domain_size = z.domain_size;
    c.alpha_1 = z.alpha_1, c.beta_1 = z.beta_1, c.delta_1 = z.delta_1;
    c.beta_2 = z.beta_2, c.gamma_2 = z.gamma_2, c.delta_2 = z.delta_2;
    c.ic = z.ic, c.c = z.c, c.h = z.h;
    c.a_rows = z.a_rows, c.b_rows = z.b_rows;
    // Every signal of chain8 has an A and a B point except those the density leaves out.
    for (uint32_t i = 0, ka = 0, kb = 0; i < z.n_vars; ++i) {
        const bool in_a = z.z_density.a[i / 64] >> (i % 64) & 1, in_b = z.z_density.b[i / 64] >> (i % 64) & 1;
        c.a.push_back(in_a ? z.a[ka++] : bn254::G1Affine::identity());
        c.b1.push_back(in_b ? z.b1[kb] : bn254::G1Affine::identity());
        c.b2.push_back(in_b ? z.b2[kb++] : bn254::G2Affine::identity());
    }
    const auto back = read_zkey_bytes<B>(zkey_to_bytes<B>(c));
    EXPECT_EQ(back.a, z.a);
    EXPECT_EQ(back.b2, z.b2);
    EXPECT_EQ(back.h, z.h);
    EXPECT_EQ(back.a_rows.coeff, z.a_rows.coeff);
    EXPECT_EQ(back.z_density.b, z.z_density.b);
}

}  // namespace
}  // namespace cuzk::formats::circom
