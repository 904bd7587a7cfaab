// The optimal ate pairing of BN254: the final exponent against GMP, bilinearity, order r,
// non-degeneracy, prepared G2 points, and the Ethereum precompile test vectors (EIP-196
// ECADD and ECMUL, EIP-197 ECPAIRING; go-ethereum's files in tests/data/bn254, see the
// README there) through the ec layer's Ethereum decoding.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cuzk/ec/bn254.hpp"
#include "cuzk/ec/subgroup.hpp"
#include "cuzk/pairing/pairing.hpp"
#include "support/gmp_ref.hpp"
#include "support/seed.hpp"

namespace cuzk::bn254 {
namespace {

using test::Mpz;

struct Vector {
    std::string name;
    std::vector<uint8_t> input, expected;
};

std::vector<uint8_t> from_hex(const std::string& h) {
    std::vector<uint8_t> out(h.size() / 2);
    for (size_t i = 0; i < out.size(); ++i) out[i] = uint8_t(std::stoul(h.substr(2 * i, 2), nullptr, 16));
    return out;
}

// go-ethereum's precompile vectors: a JSON array of {"Input", "Expected", "Name", ...}.
std::vector<Vector> load(const std::string& file) {
    const std::string path = std::string(CUZK_TEST_DATA_DIR) + "/bn254/" + file;
    std::ifstream in(path);
    EXPECT_TRUE(in) << "cannot open " << path;
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    static const std::regex entry(
        R"re("Input":\s*"([0-9a-fA-F]*)",\s*"Expected":\s*"([0-9a-fA-F]*)",\s*"Name":\s*"([^"]*)")re");
    std::vector<Vector> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), entry); it != std::sregex_iterator(); ++it) {
        out.push_back({(*it)[3], from_hex((*it)[1]), from_hex((*it)[2])});
    }
    return out;
}

// The precompiles read their input as if right-padded with zeros (and ignore the rest).
std::vector<uint8_t> padded(const std::vector<uint8_t>& in, size_t n) {
    std::vector<uint8_t> out(n, 0);
    std::copy_n(in.begin(), std::min(n, in.size()), out.begin());
    return out;
}

TEST(Bn254PrecompileVectors, EcAdd) {
    const auto vs = load("bn256Add.json");
    ASSERT_GE(vs.size(), 10u);
    for (const Vector& v : vs) {
        const auto in = padded(v.input, 128);
        const auto a = decode_eth_g1(std::span<const uint8_t>(in).first(64));
        const auto b = decode_eth_g1(std::span<const uint8_t>(in).subspan(64, 64));
        ASSERT_TRUE(a.ok() && b.ok()) << v.name << ": " << a.message() << " / " << b.message();
        const auto sum = to_eth_bytes((G1Jacobian::from_affine(a.point) + b.point).to_affine());
        EXPECT_EQ(std::vector<uint8_t>(sum.begin(), sum.end()), v.expected) << v.name;
    }
}

TEST(Bn254PrecompileVectors, EcMul) {
    const auto vs = load("bn256ScalarMul.json");
    ASSERT_GE(vs.size(), 10u);
    for (const Vector& v : vs) {
        const auto in = padded(v.input, 96);
        const auto a = decode_eth_g1(std::span<const uint8_t>(in).first(64));
        ASSERT_TRUE(a.ok()) << v.name << ": " << a.message();
        BigInt<4> k = BigInt<4>::zero();  // any 256-bit integer, not reduced mod r
        for (size_t i = 0; i < 32; ++i) k.l[i / 8] |= uint64_t(in[95 - i]) << (8 * (i % 8));
        const auto prod = to_eth_bytes(mul_wnaf(G1Jacobian::from_affine(a.point), k).to_affine());
        EXPECT_EQ(std::vector<uint8_t>(prod.begin(), prod.end()), v.expected) << v.name;
    }
}

TEST(Bn254PrecompileVectors, EcPairing) {
    const auto vs = load("bn256Pairing.json");
    ASSERT_GE(vs.size(), 10u);
    for (const Vector& v : vs) {
        ASSERT_EQ(v.input.size() % 192, 0u) << v.name;
        std::vector<std::pair<G1Affine, G2Affine>> pairs;
        std::vector<G2Prepared> prepared;
        for (size_t off = 0; off < v.input.size(); off += 192) {
            const auto p = decode_eth_g1(std::span<const uint8_t>(v.input).subspan(off, 64));
            const auto q = decode_eth_g2(std::span<const uint8_t>(v.input).subspan(off + 64, 128));
            ASSERT_TRUE(p.ok() && q.ok()) << v.name << ": " << p.message() << " / " << q.message();
            pairs.emplace_back(p.point, q.point);
            prepared.emplace_back(q.point);
        }
        std::vector<uint8_t> want(32, 0);
        want[31] = pairing_product_is_one(pairs) ? 1 : 0;
        EXPECT_EQ(want, v.expected) << v.name;
        std::vector<std::pair<G1Affine, const G2Prepared*>> pp;
        for (size_t i = 0; i < pairs.size(); ++i) pp.emplace_back(pairs[i].first, &prepared[i]);
        EXPECT_EQ(pairing_product_is_one(pp), want[31] == 1) << v.name << " (prepared)";
    }
}

TEST(Bn254Pairing, FinalExponentiationIsPowerByDefinition) {
    // final_exponentiation(f) == f^((p^12 - 1)/r * 2x(6x^2 + 3x + 1)) for a random f.
    std::mt19937_64 rng(test::seed());
    Mpz p = test::to_mpz(Fp::kP), r = test::to_mpz(Fr::kP), e, x, m;
    mpz_pow_ui(e.v, p.v, 12);
    mpz_sub_ui(e.v, e.v, 1);
    mpz_divexact(e.v, e.v, r.v);
    mpz_set_ui(x.v, kBnX);
    mpz_mul(m.v, x.v, x.v);
    mpz_mul_ui(m.v, m.v, 6);  // 6x^2
    Mpz t;
    mpz_mul_ui(t.v, x.v, 3);
    mpz_add(m.v, m.v, t.v);
    mpz_add_ui(m.v, m.v, 1);  // 6x^2 + 3x + 1
    mpz_mul(m.v, m.v, x.v);
    mpz_mul_ui(m.v, m.v, 2);
    mpz_mul(e.v, e.v, m.v);
    EXPECT_EQ(mpz_divisible_p(m.v, r.v), 0);  // the extra power is coprime to r (r is prime)
    Fp12 f = Fp12::random(rng);
    EXPECT_EQ(final_exponentiation(f), f.pow(test::from_mpz<48>(e)));
}

TEST(Bn254Pairing, BilinearNonDegenerateOfOrderR) {
    std::mt19937_64 rng(test::seed());
    const G1Affine g1 = G1Affine::generator();
    const G2Affine g2 = G2Affine::generator();
    const Fp12 e = pairing(g1, g2);
    EXPECT_FALSE(e.is_one());
    EXPECT_TRUE(e.pow(Fr::kP).is_one());
    for (int i = 0; i < 3; ++i) {
        const Fr a = Fr::random(rng), b = Fr::random(rng);
        const G1Affine ap = mul(g1, a).to_affine();
        const G2Affine bq = mul(g2, b).to_affine();
        const Fp12 eab = pairing(ap, bq);
        EXPECT_EQ(eab, e.pow((a * b).to_bigint()));
        EXPECT_EQ(eab, pairing(mul(g1, a * b).to_affine(), g2));
        EXPECT_EQ(eab, pairing(g1, mul(g2, a * b).to_affine()));
        // Inverses and the prepared form.
        const std::pair<G1Affine, G2Affine> inv[] = {{ap, bq}, {-ap, bq}};
        EXPECT_TRUE(pairing_product_is_one(inv));
        const G2Prepared prep(bq);
        const std::pair<G1Affine, const G2Prepared*> one_pair[] = {{ap, &prep}};
        EXPECT_EQ(final_exponentiation(multi_miller_loop(one_pair)), eab);
        EXPECT_EQ(prep.lines.size(), 65u + 21u + 2u);
    }
    // Points at infinity contribute 1; a point off the curve is refused.
    EXPECT_TRUE(pairing(G1Affine::identity(), g2).is_one());
    EXPECT_TRUE(pairing(g1, G2Affine::identity()).is_one());
    const G1Affine off{Fp::from_u64(1), Fp::from_u64(3), false};
    EXPECT_THROW(pairing(off, g2), std::invalid_argument);
    const G2Affine off2{g2.x, g2.x, false};
    EXPECT_THROW(pairing(g1, off2), std::invalid_argument);
    EXPECT_THROW(G2Prepared{off2}, std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::bn254
