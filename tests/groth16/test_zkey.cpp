// The snarkjs Groth16 prover on the committed circom/snarkjs artefacts (tests/data/circom,
// scripts/circom), on BLS12-381 (chain8.*) and BN254 (chain8_bn254.*): its proofs verify
// under the key's own verifying key and under the one snarkjs exported and equal a naive
// reference's for fixed r, s; a witness off by one is refused before any MSM, naming the
// constraint; the roots of unity are ffjavascript's.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <vector>

#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/formats/circom.hpp"
#include "cuzk/formats/snarkjs.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/groth16/zkey.hpp"
#include "cuzk/ntt/ntt.hpp"
#include "support/seed.hpp"

namespace cuzk::groth16 {
namespace {

const std::filesystem::path kData = std::filesystem::path(CUZK_TEST_DATA_DIR) / "circom";

// What differs between the curves: the artefacts' names and where the MSMs run.
template <class E>
struct CurveCase;
template <>
struct CurveCase<Bls12_381> {
    static constexpr const char* kStem = "chain8";
    std::unique_ptr<ProverBackend> cpu = make_cpu_backend();
    Proof prove(const Zkey<Bls12_381>& key, std::span<const Fr> w, const Randomness& rs,
                const CircomR1cs<Bls12_381>* r1cs = nullptr) {
        return prove_zkey(key, w, rs, *cpu, r1cs);
    }
};
template <>
struct CurveCase<Bn254> {
    static constexpr const char* kStem = "chain8_bn254";
    std::unique_ptr<ZkeyMsm<Bn254>> msm = select_zkey_msm("cpu");
    ProofOn<Bn254> prove(const Zkey<Bn254>& key, std::span<const bn254::Fr> w, const RandomnessT<bn254::Fr>& rs,
                         const CircomR1cs<Bn254>* r1cs = nullptr) {
        return prove_zkey(key, w, rs, *msm, r1cs);
    }
};

template <class E>
using Pvk = PreparedVerifyingKeyT<typename E::G1, typename E::G2>;

template <class E>
struct ZkeyProver : ::testing::Test {
    using Fr = typename E::Fr;
    static void SetUpTestSuite() {
        const std::string stem = CurveCase<E>::kStem;
        key = new Zkey<E>(formats::circom::read_zkey<E>(kData / (stem + ".zkey")));
        wtns = new Wtns<E>(formats::circom::read_wtns<E>(kData / (stem + ".wtns")));
        r1cs = new CircomR1cs<E>(formats::circom::read_r1cs<E>(kData / (stem + ".r1cs")));
    }
    static void TearDownTestSuite() {
        delete key;
        delete wtns;
        delete r1cs;
    }
    static std::filesystem::path vkey_json() { return kData / (std::string(CurveCase<E>::kStem) + ".vkey.json"); }
    static inline Zkey<E>* key = nullptr;
    static inline Wtns<E>* wtns = nullptr;
    static inline CircomR1cs<E>* r1cs = nullptr;
    CurveCase<E> curve;
};
using Curves = ::testing::Types<Bls12_381, Bn254>;
struct CurveNames {
    template <class E>
    static std::string GetName(int) {
        return std::is_same_v<E, Bn254> ? "Bn254" : "Bls12_381";
    }
};
TYPED_TEST_SUITE(ZkeyProver, Curves, CurveNames);

template <class E>
struct ZkeyH : ::testing::Test {};
TYPED_TEST_SUITE(ZkeyH, Curves, CurveNames);

TEST(ZkeyRoots, FfjavascriptRoots) {
    using E = Bls12_381;
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

// BN254: ffjavascript's generator 5 is cuzk's (and arkworks'), so the roots agree; the
// 2^28-th is arkworks' TWO_ADIC_ROOT_OF_UNITY.
TEST(ZkeyRoots, Bn254RootsAreCuzks) {
    EXPECT_EQ(snarkjs_root_of_unity<Bn254>(28).to_dec(),
              "19103219067921713944291392827692070036145651957329286315305642004821462161904");
    for (unsigned k : {1u, 4u, 16u, 28u}) EXPECT_EQ(snarkjs_root_of_unity<Bn254>(k), ntt::root_of_unity<bn254::Fr>(k));
    EXPECT_THROW(snarkjs_root_of_unity<Bn254>(29), std::invalid_argument);
}

// One H scalar per H point, the same for the same witness (their values are checked by the
// proofs verifying, below).
TYPED_TEST(ZkeyProver, HScalarsAreDeterministic) {
    using E = TypeParam;
    auto& key = this->key;
    auto& wtns = this->wtns;
    const auto h1 = zkey_h_scalars<E>(*key, wtns->values);
    const auto h2 = zkey_h_scalars<E>(*key, wtns->values);
    ASSERT_EQ(h1.size(), key->domain_size);
    EXPECT_EQ(h1, h2);
}

// The H scalars against their definition, by Lagrange interpolation on snarkjs' domain
// (O(n^2)): A(x) = sum_i a_i L_i(x), L_i(x) = (x^n - 1) w^i / (n (x - w^i)), at the odd
// points x_j = w_2n w_n^j, for random rows and witness, at several domain sizes.
TYPED_TEST(ZkeyH, MatchesLagrangeInterpolationOnTheOddCoset) {
    using E = TypeParam;
    using Fr = typename E::Fr;
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

TYPED_TEST(ZkeyProver, ProofVerifiesUnderBothVerifyingKeys) {
    using E = TypeParam;
    using Fr = typename E::Fr;
    auto& key = this->key;
    auto& wtns = this->wtns;
    std::mt19937_64 rng(cuzk::test::seed());
    const RandomnessT<Fr> rs{Fr::random(rng), Fr::random(rng)};
    const auto proof = this->curve.prove(*key, wtns->values, rs, this->r1cs);
    const auto pub = public_signals<E>(*key, wtns->values);
    ASSERT_EQ(pub.size(), 2u);
    EXPECT_EQ(pub[1], Fr::from_u64(3));  // the public input a, after the output c
    const std::vector<Fr> inputs(pub.begin(), pub.end());
    EXPECT_TRUE(verify(Pvk<E>(verifying_key(*key)), proof, inputs).ok);
    // The verification_key.json that snarkjs exported from the same .zkey.
    const auto sj = formats::snarkjs::read_vk<E>(this->vkey_json());
    EXPECT_TRUE(verify(Pvk<E>(sj.to_verifying_key()), proof, inputs).ok);
    // A wrong public input is rejected.
    std::vector<Fr> wrong = inputs;
    wrong[0] += Fr::one();
    EXPECT_FALSE(verify(Pvk<E>(sj.to_verifying_key()), proof, wrong).ok);
    // Fresh randomness: another proof, which verifies too.
    const auto other = this->curve.prove(*key, wtns->values, random_randomness<Fr>());
    EXPECT_NE(other, proof);
    EXPECT_TRUE(verify(Pvk<E>(sj.to_verifying_key()), other, inputs).ok);
    // Through snarkjs JSON and back: the same proof and public signals.
    EXPECT_EQ(formats::snarkjs::parse_proof<E>(formats::snarkjs::proof_to_json<E>(proof)), proof);
    EXPECT_EQ(formats::snarkjs::parse_public<E>(formats::snarkjs::public_to_json<E>(inputs)), inputs);
}

// vk_alphabeta_12 of snarkjs' verification_key.json is cuzk's e(alpha, beta) on both curves
// (ffjavascript's tower and final exponent are cuzk's), so the vk cuzk writes matches.
TYPED_TEST(ZkeyProver, SnarkjsAlphaBetaIsCuzksPairing) {
    using E = TypeParam;
    const auto sj = formats::snarkjs::read_vk<E>(this->vkey_json());
    EXPECT_EQ(pairing(sj.alpha_1, sj.beta_2), sj.alphabeta_12);
}

// Known answer for fixed r, s: the proof equals the Groth16 formulas evaluated with one
// scalar multiplication per point (no MSM, no density, no NTT for the H scalars' MSM).
TYPED_TEST(ZkeyProver, ProofEqualsNaiveReferenceForFixedRandomness) {
    using E = TypeParam;
    using Fr = typename E::Fr;
    using J1 = Jacobian<typename E::G1>;
    using J2 = Jacobian<typename E::G2>;
    const Zkey<E>& key = *this->key;
    const std::vector<Fr>& w = this->wtns->values;
    const RandomnessT<Fr> rs{Fr::from_u64(7), Fr::from_u64(11)};
    const auto proof = this->curve.prove(key, w, rs, this->r1cs);
    // sum over the signals of a density: w_i P_k for the k-th point of the query.
    auto naive = [&](const auto& points, const std::vector<uint64_t>& density) {
        using J = std::conditional_t<std::is_same_v<std::decay_t<decltype(points[0])>, Affine<typename E::G1>>, J1, J2>;
        J acc = J::identity();
        for (size_t i = 0, k = 0; i < w.size(); ++i)
            if (density[i / 64] >> (i % 64) & 1) acc += mul(points[k++], w[i]);
        return acc;
    };
    const auto h = zkey_h_scalars<E>(key, w);
    J1 c = J1::identity();
    for (size_t i = 0; i < h.size(); ++i) c += mul(key.h[i], h[i]);
    for (size_t j = 0; j < key.c.size(); ++j) c += mul(key.c[j], w[key.n_public + 1 + j]);
    const J1 a = naive(key.a, key.z_density.a) + key.alpha_1 + mul(key.delta_1, rs.r);
    const J2 b = naive(key.b2, key.z_density.b) + key.beta_2 + mul(key.delta_2, rs.s);
    const J1 b1 = naive(key.b1, key.z_density.b) + key.beta_1 + mul(key.delta_1, rs.s);
    c = c + mul(a, rs.s) + mul(b1, rs.r) - mul(key.delta_1, rs.r * rs.s);
    EXPECT_EQ(proof.a, a.to_affine());
    EXPECT_EQ(proof.b, b.to_affine());
    EXPECT_EQ(proof.c, c.to_affine());
}
// cuzk's development keys (setup_zkey) for the same .r1cs: written, read back, proven and
// verified like snarkjs' own.
TYPED_TEST(ZkeyProver, DevelopmentKeyProvesAndVerifies) {
    using E = TypeParam;
    using Fr = typename E::Fr;
    auto& key = this->key;
    auto& wtns = this->wtns;
    auto& r1cs = this->r1cs;
    const auto contents = setup_zkey<E>(*r1cs, ToxicWasteT<Fr>::from_seed(cuzk::test::seed()));
    EXPECT_EQ(contents.domain_size, key->domain_size);
    const auto bytes = formats::circom::zkey_to_bytes<E>(contents);
    const auto dev = formats::circom::read_zkey_bytes<E>(bytes);
    EXPECT_FALSE(check_r1cs_matches<E>(dev, *r1cs).has_value());
    const auto proof = this->curve.prove(dev, wtns->values, random_randomness<Fr>(), r1cs);
    const auto pub = public_signals<E>(dev, wtns->values);
    const std::vector<Fr> inputs(pub.begin(), pub.end());
    EXPECT_TRUE(verify(Pvk<E>(verifying_key(dev)), proof, inputs).ok);
    EXPECT_FALSE(verify(Pvk<E>(verifying_key(*key)), proof, inputs).ok);  // another key
}

TYPED_TEST(ZkeyProver, OffByOneWitnessRefusedBeforeAnyMsm) {
    using E = TypeParam;
    using Fr = typename E::Fr;
    auto& key = this->key;
    auto& wtns = this->wtns;
    auto& r1cs = this->r1cs;
    // Signal 4 is t[0] = a b (first constraint of the chain): one more breaks constraint 0
    // or a later one that reads it; the message names the first failing constraint.
    for (size_t s = 3; s < key->n_vars; ++s) {
        std::vector<Fr> w = wtns->values;
        w[s] += Fr::one();
        const auto why = check_witness<E>(*key, w, r1cs);
        ASSERT_TRUE(why.has_value()) << "signal " << s;
        EXPECT_NE(why->find("constraint "), std::string::npos) << *why;
        try {
            (void)this->curve.prove(*key, w, random_randomness<Fr>(), r1cs);
            ADD_FAILURE() << "an unsatisfied witness was proven (signal " << s << ")";
        } catch (const ProverError& e) {
            EXPECT_NE(std::string(e.what()).find("does not hold"), std::string::npos) << e.what();
        }
        // Without the .r1cs the key cannot tell; the proof then fails verification.
        const auto p = this->curve.prove(*key, w, random_randomness<Fr>());
        const auto pub = public_signals<E>(*key, std::span<const Fr>(w));
        EXPECT_FALSE(verify(Pvk<E>(verifying_key(*key)), p, std::vector<Fr>(pub.begin(), pub.end())).ok);
    }
}

TYPED_TEST(ZkeyProver, WitnessShapeRefused) {
    using E = TypeParam;
    using Fr = typename E::Fr;
    auto& key = this->key;
    auto& wtns = this->wtns;
    std::vector<Fr> w = wtns->values;
    w.pop_back();
    EXPECT_THROW(this->curve.prove(*key, w, random_randomness<Fr>()), ProverError);
    w = wtns->values;
    w[0] = Fr::from_u64(2);
    const auto why = check_witness<E>(*key, w);
    ASSERT_TRUE(why.has_value());
    EXPECT_NE(why->find("ONE"), std::string::npos);
}

TYPED_TEST(ZkeyProver, R1csOfAnotherCircuitRefused) {
    using E = TypeParam;
    using Fr = typename E::Fr;
    auto& key = this->key;
    auto& r1cs = this->r1cs;
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

// BN254 has no GPU MSM yet: asking for CUDA is a clear error, not a silent CPU run.
// The groth16 layer gives only the CPU's BN254 MSMs; the device's come from a CUDA
// ProverBackend (GpuMsmBn254.ZkeyMsmOfTheCudaBackendEqualsTheCpus), the CPU backend's are the CPU's.
TEST(ZkeyBn254, CudaMsmComesFromABackendNotFromThisLayer) {
    try {
        (void)select_zkey_msm("cuda");
        ADD_FAILURE() << "select_zkey_msm(\"cuda\") returned a backend";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("ProverBackend::bn254_msm"), std::string::npos) << e.what();
    }
    EXPECT_EQ(make_cpu_backend()->bn254_msm()->name(), "cpu");
    EXPECT_EQ(select_zkey_msm("auto")->name(), "cpu");
    EXPECT_THROW(select_zkey_msm("gpu"), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::groth16
