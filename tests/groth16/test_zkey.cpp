// The snarkjs Groth16 prover on the committed circom/snarkjs artefacts (tests/data/circom,
// scripts/circom): its proofs verify under the key's own verifying key and under the one
// snarkjs exported; a witness off by one is refused before any MSM, naming the
// constraint; the roots of unity are ffjavascript's.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <vector>

#include "cuzk/formats/circom.hpp"
#include "cuzk/formats/snarkjs.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/groth16/zkey.hpp"
#include "cuzk/ntt/ntt.hpp"
#include "support/seed.hpp"

namespace cuzk::groth16 {
namespace {

using E = Bls12_381;
const std::filesystem::path kData = std::filesystem::path(CUZK_TEST_DATA_DIR) / "circom";

struct ZkeyProver : ::testing::Test {
    static void SetUpTestSuite() {
        key = new Zkey<E>(formats::circom::read_zkey<E>(kData / "chain8.zkey"));
        wtns = new Wtns<E>(formats::circom::read_wtns<E>(kData / "chain8.wtns"));
        r1cs = new CircomR1cs<E>(formats::circom::read_r1cs<E>(kData / "chain8.r1cs"));
    }
    static void TearDownTestSuite() {
        delete key;
        delete wtns;
        delete r1cs;
    }
    static Zkey<E>* key;
    static Wtns<E>* wtns;
    static CircomR1cs<E>* r1cs;
    std::unique_ptr<ProverBackend> cpu = make_cpu_backend();
};
Zkey<E>* ZkeyProver::key = nullptr;
Wtns<E>* ZkeyProver::wtns = nullptr;
CircomR1cs<E>* ZkeyProver::r1cs = nullptr;

TEST(ZkeyRoots, FfjavascriptRoots) {
    // The 2^32-th root from generator 5 (docs: 0x212d79e5...b912f1f), not cuzk's from 7.
    const std::string hex = snarkjs_root_of_unity<E>(32).to_hex();
    EXPECT_EQ(hex.substr(0, 10), "0x212d79e5") << hex;
    EXPECT_EQ(hex.substr(hex.size() - 7), "b912f1f") << hex;
    EXPECT_NE(snarkjs_root_of_unity<E>(32), ntt::root_of_unity(32));
    for (unsigned k : {1u, 4u, 16u, 29u}) {
        const Fr w = snarkjs_root_of_unity<E>(k);
        EXPECT_TRUE(w.pow(uint64_t(1) << k).is_one()) << k;
        EXPECT_FALSE(w.pow(uint64_t(1) << (k - 1)).is_one()) << k;
    }
    EXPECT_THROW(snarkjs_root_of_unity<E>(33), std::invalid_argument);
}

// One H scalar per H point, the same for the same witness (their values are checked by the
// proofs verifying, below).
TEST_F(ZkeyProver, HScalarsAreDeterministic) {
    const auto h1 = zkey_h_scalars<E>(*key, wtns->values);
    const auto h2 = zkey_h_scalars<E>(*key, wtns->values);
    ASSERT_EQ(h1.size(), key->domain_size);
    EXPECT_EQ(h1, h2);
}

// The H scalars against their definition, by Lagrange interpolation on snarkjs' domain
// (O(n^2)): A(x) = sum_i a_i L_i(x), L_i(x) = (x^n - 1) w^i / (n (x - w^i)), at the odd
// points x_j = w_2n w_n^j, for random rows and witness, at several domain sizes.
TEST(ZkeyH, MatchesLagrangeInterpolationOnTheOddCoset) {
    std::mt19937_64 rng(cuzk::test::seed());
    for (unsigned k : {0u, 1u, 3u, 6u}) {
        const size_t n = size_t(1) << k, vars = 5;
        Zkey<E> key;
        key.n_vars = vars;
        key.domain_size = uint32_t(n);
        for (SparseRows<Fr>* m : {&key.a_rows, &key.b_rows}) {
            for (size_t i = 0; i < n; ++i) {
                for (size_t t = 0; t < rng() % 3; ++t) {
                    m->signal.push_back(uint32_t(rng() % vars));
                    m->coeff.push_back(Fr::random(rng));
                }
                m->row_ptr.push_back(m->signal.size());
            }
        }
        std::vector<Fr> w(vars);
        for (Fr& x : w) x = Fr::random(rng);
        auto dot = [&](const SparseRows<Fr>& m, size_t i) {
            Fr acc = Fr::zero();
            for (uint64_t t = m.row_ptr[i]; t < m.row_ptr[i + 1]; ++t) acc += m.coeff[t] * w[m.signal[t]];
            return acc;
        };
        const Fr wn = snarkjs_root_of_unity<E>(k), w2n = snarkjs_root_of_unity<E>(k + 1);
        const Fr n_inv = Fr::from_u64(n).inverse();
        auto interpolate = [&](auto&& value, const Fr& x) {
            const Fr zx = x.pow(uint64_t(n)) - Fr::one();
            Fr acc = Fr::zero(), wi = Fr::one();
            for (size_t i = 0; i < n; ++i, wi *= wn) acc += value(i) * zx * wi * n_inv * (x - wi).inverse();
            return acc;
        };
        const auto h = zkey_h_scalars<E>(key, w);
        ASSERT_EQ(h.size(), n);
        Fr x = w2n;
        for (size_t j = 0; j < n; ++j, x *= wn) {
            const Fr a = interpolate([&](size_t i) { return dot(key.a_rows, i); }, x);
            const Fr b = interpolate([&](size_t i) { return dot(key.b_rows, i); }, x);
            const Fr c = interpolate([&](size_t i) { return dot(key.a_rows, i) * dot(key.b_rows, i); }, x);
            EXPECT_EQ(h[j], a * b - c) << "domain 2^" << k << ", point " << j;
        }
    }
}

TEST_F(ZkeyProver, ProofVerifiesUnderBothVerifyingKeys) {
    std::mt19937_64 rng(cuzk::test::seed());
    const Randomness rs{Fr::random(rng), Fr::random(rng)};
    const Proof proof = prove_zkey(*key, wtns->values, rs, *cpu, r1cs);
    const auto pub = public_signals<E>(*key, wtns->values);
    ASSERT_EQ(pub.size(), 2u);
    EXPECT_EQ(pub[1], Fr::from_u64(3));  // the public input a, after the output c
    const std::vector<Fr> inputs(pub.begin(), pub.end());
    EXPECT_TRUE(verify(PreparedVerifyingKey(verifying_key(*key)), proof, inputs).ok);
    // The verification_key.json that snarkjs exported from the same .zkey.
    const auto sj = formats::snarkjs::read_vk(kData / "chain8.vkey.json");
    EXPECT_TRUE(verify(PreparedVerifyingKey(sj.to_verifying_key()), proof, inputs).ok);
    // A wrong public input is rejected.
    std::vector<Fr> wrong = inputs;
    wrong[0] += Fr::one();
    EXPECT_FALSE(verify(PreparedVerifyingKey(sj.to_verifying_key()), proof, wrong).ok);
    // Fresh randomness: another proof, which verifies too.
    const Proof other = prove_zkey(*key, wtns->values, random_randomness(), *cpu);
    EXPECT_NE(other, proof);
    EXPECT_TRUE(verify(PreparedVerifyingKey(sj.to_verifying_key()), other, inputs).ok);
}

// cuzk's development keys (setup_zkey) for the same .r1cs: written, read back, proven and
// verified like snarkjs' own.
TEST_F(ZkeyProver, DevelopmentKeyProvesAndVerifies) {
    const auto contents = setup_zkey(*r1cs, ToxicWaste::from_seed(cuzk::test::seed()));
    EXPECT_EQ(contents.domain_size, key->domain_size);
    const auto bytes = formats::circom::zkey_to_bytes<E>(contents);
    const auto dev = formats::circom::read_zkey_bytes<E>(bytes);
    EXPECT_FALSE(check_r1cs_matches<E>(dev, *r1cs).has_value());
    const Proof proof = prove_zkey(dev, wtns->values, random_randomness(), *cpu, r1cs);
    const auto pub = public_signals<E>(dev, wtns->values);
    const std::vector<Fr> inputs(pub.begin(), pub.end());
    EXPECT_TRUE(verify(PreparedVerifyingKey(verifying_key(dev)), proof, inputs).ok);
    EXPECT_FALSE(verify(PreparedVerifyingKey(verifying_key(*key)), proof, inputs).ok);  // another key
}

TEST_F(ZkeyProver, OffByOneWitnessRefusedBeforeAnyMsm) {
    // Signal 4 is t[0] = a b (first constraint of the chain): one more breaks constraint 0
    // or a later one that reads it; the message names the first failing constraint.
    for (size_t s = 3; s < key->n_vars; ++s) {
        std::vector<Fr> w = wtns->values;
        w[s] += Fr::one();
        const auto why = check_witness<E>(*key, w, r1cs);
        ASSERT_TRUE(why.has_value()) << "signal " << s;
        EXPECT_NE(why->find("constraint "), std::string::npos) << *why;
        try {
            (void)prove_zkey(*key, w, random_randomness(), *cpu, r1cs);
            ADD_FAILURE() << "an unsatisfied witness was proven (signal " << s << ")";
        } catch (const ProverError& e) {
            EXPECT_NE(std::string(e.what()).find("does not hold"), std::string::npos) << e.what();
        }
        // Without the .r1cs the key cannot tell; the proof then fails verification.
        const Proof p = prove_zkey(*key, w, random_randomness(), *cpu);
        const auto pub = public_signals<E>(*key, std::span<const Fr>(w));
        EXPECT_FALSE(verify(PreparedVerifyingKey(verifying_key(*key)), p, std::vector<Fr>(pub.begin(), pub.end())).ok);
    }
}

TEST_F(ZkeyProver, WitnessShapeRefused) {
    std::vector<Fr> w = wtns->values;
    w.pop_back();
    EXPECT_THROW(prove_zkey(*key, w, random_randomness(), *cpu), ProverError);
    w = wtns->values;
    w[0] = Fr::from_u64(2);
    const auto why = check_witness<E>(*key, w);
    ASSERT_TRUE(why.has_value());
    EXPECT_NE(why->find("ONE"), std::string::npos);
}

TEST_F(ZkeyProver, R1csOfAnotherCircuitRefused) {
    CircomR1cs<E> other = *r1cs;
    other.a.coeff[0] += Fr::one();
    const auto why = check_r1cs_matches<E>(*key, other);
    ASSERT_TRUE(why.has_value());
    EXPECT_NE(why->find("constraint 0 differs"), std::string::npos) << *why;
    other = *r1cs;
    other.n_wires += 1;
    EXPECT_TRUE(check_r1cs_matches<E>(*key, other).has_value());
    EXPECT_FALSE(check_r1cs_matches<E>(*key, *r1cs).has_value());
}

}  // namespace
}  // namespace cuzk::groth16
