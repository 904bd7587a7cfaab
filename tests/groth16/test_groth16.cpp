// Groth16 end to end on the CPU: setup, prove, verify for every built-in circuit and a
// hand-written one; wrong inputs, tampered proofs and mismatched witnesses rejected with
// clear errors; the batch verifier finds the one bad proof among 64.
#include <gtest/gtest.h>

#include <random>
#include <thread>
#include <vector>

#include "cuzk/circuits/builtin.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/ec/scalar_mul.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/msm/msm.hpp"
#include "cuzk/ntt/domain.hpp"
#include "support/seed.hpp"

namespace cuzk {
namespace {

using namespace groth16;

// x^3 + x + 5 = y with y public (the classic hand-written example).
struct Cubic {
    Fr x;
    template <class CS>
    void synthesize(CS& cs) const {
        Fr x2 = x * x, x3 = x2 * x;
        auto vx = cs.alloc([&] { return x; });
        auto vx2 = cs.alloc([&] { return x2; });
        auto vx3 = cs.alloc([&] { return x3; });
        auto y = cs.alloc_input([&] { return x3 + x + Fr::from_u64(5); });
        cs.enforce("x*x", cs.lc(vx), cs.lc(vx), cs.lc(vx2));
        cs.enforce("x2*x", cs.lc(vx2), cs.lc(vx), cs.lc(vx3));
        auto lhs = cs.lc(vx3);
        cs.add(lhs, vx);
        cs.add_const(lhs, Fr::from_u64(5));
        cs.enforce("y", lhs, cs.lc(r1cs::Variable::one()), cs.lc(y));
    }
};

struct Keys {
    r1cs::Shape shape;
    Parameters params;
};

Keys keys_for(const Circuit& c, uint64_t seed) {
    Keys k{c.shape(), {}};
    k.params = setup(k.shape, ToxicWaste::from_seed(seed));
    return k;
}

void prove_and_verify(const Circuit& c, const std::vector<Fr>& x, uint64_t seed) {
    ASSERT_FALSE(c.check().has_value()) << *c.check();
    Keys k = keys_for(c, seed);
    auto backend = make_cpu_backend();
    Witness w = c.witness();
    ProofTimings t;
    Proof proof = prove(k.params, k.shape.density(), w, random_randomness(), *backend, &t);
    PreparedVerifyingKey pvk(k.params.vk);
    auto ok = verify(pvk, proof, x);
    ASSERT_TRUE(ok) << c.name() << ": " << ok.error;
    // A wrong public input is rejected.
    auto bad = x;
    bad[0] += Fr::one();
    EXPECT_FALSE(verify(pvk, proof, bad)) << c.name();
    // So is a proof with its points swapped around.
    Proof swapped = proof;
    std::swap(swapped.a, swapped.c);
    EXPECT_FALSE(verify(pvk, swapped, x)) << c.name();
}

TEST(Groth16, HandWrittenCubic) {
    std::mt19937_64 rng(test::seed());
    Cubic c{Fr::random(rng)};
    Fr y = c.x * c.x * c.x + c.x + Fr::from_u64(5);
    prove_and_verify(*make_circuit(c, "cubic"), {y}, rng());
}

// Shape recording, setup and the witness stop when their cancellation check turns true, also inside
// gadgets that enforce from their destructors (SHA-256's MultiEq), and the same calls
// without a cancellation give the usual results.
TEST(Groth16, ShapeSetupAndWitnessStopWhenCancelled) {
    const auto b = circuits::make_builtin("sha256-chain", 1, test::seed());
    int calls = 0;
    ShapeOptions opt;
    opt.cancel = [&] { return ++calls > 3; };
    EXPECT_THROW(b.circuit->shape(opt), Cancelled);
    EXPECT_EQ(calls, 4);  // checked every r1cs::ShapeCS::kCancelEvery constraints
    calls = 0;
    EXPECT_THROW(b.circuit->summary(opt), Cancelled);
    const r1cs::Shape shape = b.circuit->shape();
    calls = 0;
    EXPECT_THROW(setup(shape, ToxicWaste::from_seed(1), {}, [&] { return ++calls > 5; }), Cancelled);
    EXPECT_EQ(setup(shape, ToxicWaste::from_seed(1), {}, [] { return false; }).vk.ic.size(), shape.num_inputs);
    calls = 0;
    EXPECT_THROW(b.circuit->witness({}, 0, 0, [&] { return ++calls > 2; }), Cancelled);
    EXPECT_EQ(calls, 3);
    EXPECT_EQ(b.circuit->witness({}, 0, 0, [] { return false; }).aux.size(), shape.num_aux);
}

TEST(Groth16, EveryBuiltinCircuit) {
    const uint64_t seed = test::seed();
    for (const auto& name : circuits::builtin_names()) {
        auto b = circuits::make_builtin(name, name == "sha256-chain" ? 1 : 300, seed, 3);
        prove_and_verify(*b.circuit, b.public_inputs, seed);
    }
}

TEST(Groth16, SameRandomnessSameProofAndDifferentRandomnessDifferentProof) {
    auto b = circuits::make_builtin("random-dense", 64, test::seed(), 2);
    Keys k = keys_for(*b.circuit, 7);
    auto backend = make_cpu_backend();
    Witness w = b.circuit->witness();
    Randomness rs = random_randomness();
    Proof p1 = prove(k.params, k.shape.density(), w, rs, *backend);
    Proof p2 = prove(k.params, k.shape.density(), w, rs, *backend);
    EXPECT_EQ(p1, p2);
    Proof p3 = prove(k.params, k.shape.density(), w, random_randomness(), *backend);
    EXPECT_NE(p1, p3);
    EXPECT_TRUE(verify(PreparedVerifyingKey(k.params.vk), p3, b.public_inputs));
}

TEST(Groth16, ConsumingProverGivesTheSameProofAndReleasesABCAfterH) {
    auto b = circuits::make_builtin("random-dense", 100, test::seed(), 2);
    Keys k = keys_for(*b.circuit, 3);
    auto backend = make_cpu_backend();
    Randomness rs = random_randomness();
    Witness w = b.circuit->witness();
    const Proof want = prove(k.params, k.shape.density(), w, rs, *backend);
    // The hook runs once, after H, and may take a, b, c's storage.
    int calls = 0;
    r1cs::WitnessVector taken;
    ProveHooks hooks;
    hooks.abc_released = [&] {
        ++calls;
        taken = std::move(w.b);
    };
    // Reusing buffers from an earlier witness gives the same witness.
    Witness again = b.circuit->witness(r1cs::WitnessBuffers{std::move(w.aux), std::move(w.a), {}, {}}, 0, 0);
    w = std::move(again);
    EXPECT_EQ(w.a.size(), w.b.size());
    Proof got = prove(k.params, k.shape.density(), std::move(w), rs, *backend, nullptr, &hooks);
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(got, want);
    // Without a hook the prover frees them itself.
    Witness w2 = b.circuit->witness();
    EXPECT_EQ(prove(k.params, k.shape.density(), std::move(w2), rs, *backend), want);
    EXPECT_TRUE(w2.a.empty() && w2.b.empty() && w2.c.empty());
}

// A backend that implements only the three primitive stages (as test fakes and
// out-of-tree backends do) and records the calls that the default h_msm / msm_z make.
class RecordingBackend final : public ProverBackend {
 public:
    struct Call {
        std::string what;
        size_t bases = 0, scalars = 0;
        bool density = false;
    };
    std::vector<Call> calls;
    std::string name() const override { return "recording"; }
    r1cs::WitnessVector compute_h(r1cs::WitnessVector& a, r1cs::WitnessVector& b, r1cs::WitnessVector& c) override {
        calls.push_back({"compute_h", 0, a.size(), false});
        return ntt::compute_h(a, b, c);
    }
    G1Jacobian msm_g1(G1Query q, std::span<const G1Affine> bases, std::span<const Fr> scalars,
                      const uint64_t* density) override {
        calls.push_back({std::string("g1:") + query_name(q), bases.size(), scalars.size(), density != nullptr});
        MsmOptions opt;
        opt.density = density;
        return msm<G1Curve>(bases, scalars, opt);
    }
    G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars, const uint64_t* density) override {
        calls.push_back({"g2", bases.size(), scalars.size(), density != nullptr});
        MsmOptions opt;
        opt.density = density;
        return msm<G2Curve>(bases, scalars, opt);
    }
};

// The prover as it was before the fused stages, written out with the CPU primitives: H,
// then five separate MSMs over a host z, then the assembly.
Proof reference_proof(const Parameters& p, const r1cs::Density& d, const Witness& w, const Randomness& rs) {
    const r1cs::WitnessVector h = ntt::compute_h(w.a, w.b, w.c);
    const G1Jacobian h_sum = msm<G1Curve>(p.h, std::span<const Fr>(h).first(p.h.size()));
    const G1Jacobian l_sum = msm<G1Curve>(p.l, w.aux);
    std::vector<Fr> z = w.inputs;
    z.insert(z.end(), w.aux.begin(), w.aux.end());
    const size_t ni = w.inputs.size();
    std::vector<uint64_t> da((z.size() + 63) / 64), db(da.size());
    for (size_t i = 0; i < z.size(); ++i) {
        const bool in_a = i < ni || d.a_aux.test(i - ni);
        const bool in_b = i < ni ? d.b_input.test(i) : d.b_aux.test(i - ni);
        if (in_a) da[i / 64] |= uint64_t(1) << (i % 64);
        if (in_b) db[i / 64] |= uint64_t(1) << (i % 64);
    }
    MsmOptions oa, ob;
    oa.density = da.data();
    ob.density = db.data();
    const G1Jacobian a_sum = msm<G1Curve>(p.a, z, oa);
    const G1Jacobian b1_sum = msm<G1Curve>(p.b_g1, z, ob);
    const G2Jacobian b2_sum = msm<G2Curve>(p.b_g2, z, ob);
    const auto& vk = p.vk;
    G1Jacobian a = a_sum + vk.alpha_g1 + mul(vk.delta_g1, rs.r);
    G2Jacobian b = b2_sum + vk.beta_g2 + mul(vk.delta_g2, rs.s);
    G1Jacobian b1 = b1_sum + vk.beta_g1 + mul(vk.delta_g1, rs.s);
    G1Jacobian c = h_sum + l_sum + mul(a, rs.s) + mul(b1, rs.r) - mul(vk.delta_g1, rs.r * rs.s);
    return Proof{a.to_affine(), b.to_affine(), c.to_affine()};
}

TEST(Groth16, DefaultFusedStagesGiveTheProofOfTheSeparateStages) {
    const uint64_t seed = test::seed();
    for (const auto& name : circuits::builtin_names()) {
        auto b = circuits::make_builtin(name, name == "sha256-chain" ? 1 : 333, seed, 3);
        Keys k = keys_for(*b.circuit, seed);
        const r1cs::Density d = k.shape.density();
        Witness w = b.circuit->witness();
        const Randomness rs = random_randomness();
        const Proof want = reference_proof(k.params, d, w, rs);
        RecordingBackend rec;
        ProofTimings t;
        EXPECT_EQ(prove(k.params, d, w, rs, rec, &t), want) << name;
        // The default h_msm and msm_z went through the primitive stages, in this order.
        const size_t nz = w.inputs.size() + w.aux.size();
        ASSERT_EQ(rec.calls.size(), 6u) << name;
        EXPECT_EQ(rec.calls[0].what, "compute_h");
        EXPECT_EQ(rec.calls[0].scalars, w.a.size());
        EXPECT_EQ(rec.calls[1].what, "g1:h");
        EXPECT_EQ(rec.calls[1].scalars, k.params.h.size());
        EXPECT_FALSE(rec.calls[1].density);
        EXPECT_EQ(rec.calls[2].what, "g1:l");
        EXPECT_EQ(rec.calls[2].scalars, w.aux.size());
        EXPECT_EQ(rec.calls[3].what, "g1:a");
        EXPECT_EQ(rec.calls[4].what, "g1:b_g1");
        EXPECT_EQ(rec.calls[5].what, "g2");
        for (size_t i = 3; i < 6; ++i) {
            EXPECT_EQ(rec.calls[i].scalars, nz) << rec.calls[i].what;
            EXPECT_TRUE(rec.calls[i].density) << rec.calls[i].what;
        }
        // Every stage has a time, and the total is their sum.
        for (double v : {t.h, t.msm_h, t.msm_l, t.msm_a, t.msm_b_g1, t.msm_b_g2, t.assemble}) EXPECT_GE(v, 0.0);
        EXPECT_GT(t.msm_h, 0.0);
        EXPECT_GT(t.msm_b_g2, 0.0);
        // The consuming prover gives the same proof through the same stages.
        RecordingBackend rec2;
        EXPECT_EQ(prove(k.params, d, Witness(w), rs, rec2), want) << name;
        EXPECT_EQ(rec2.calls.size(), 6u);
    }
}

// A backend that overrides the fused stages (as a device backend does) is what the
// prover calls; the primitive stages are not used for H, L, A and B.
TEST(Groth16, OverriddenFusedStagesAreCalledInsteadOfThePrimitives) {
    struct Fused final : ProverBackend {
        std::unique_ptr<ProverBackend> cpu = make_cpu_backend();
        int primitive = 0, fused = 0;
        std::string name() const override { return "fused"; }
        r1cs::WitnessVector compute_h(r1cs::WitnessVector& a, r1cs::WitnessVector& b, r1cs::WitnessVector& c) override {
            ++primitive;
            return cpu->compute_h(a, b, c);
        }
        G1Jacobian msm_g1(G1Query q, std::span<const G1Affine> bases, std::span<const Fr> scalars,
                          const uint64_t* density) override {
            ++primitive;
            return cpu->msm_g1(q, bases, scalars, density);
        }
        G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars,
                          const uint64_t* density) override {
            ++primitive;
            return cpu->msm_g2(bases, scalars, density);
        }
        G1Jacobian h_msm(r1cs::WitnessVector& a, r1cs::WitnessVector& b, r1cs::WitnessVector& c,
                         std::span<const G1Affine> h_bases, ZInputs next_z, const AbcAhead* ahead) override {
            ++fused;
            return cpu->h_msm(a, b, c, h_bases, next_z, ahead);
        }
        ZSums msm_z(std::span<const Fr> inputs, std::span<const Fr> aux, std::span<const G1Affine> l_bases,
                    std::span<const G1Affine> a_bases, std::span<const G1Affine> b_g1_bases,
                    std::span<const G2Affine> b_g2_bases, const uint64_t* a_density,
                    const uint64_t* b_density) override {
            ++fused;
            return cpu->msm_z(inputs, aux, l_bases, a_bases, b_g1_bases, b_g2_bases, a_density, b_density);
        }
    } backend;
    auto b = circuits::make_builtin("random-dense", 77, test::seed(), 2);
    Keys k = keys_for(*b.circuit, 5);
    Witness w = b.circuit->witness();
    const Randomness rs = random_randomness();
    EXPECT_EQ(prove(k.params, k.shape.density(), w, rs, backend), reference_proof(k.params, k.shape.density(), w, rs));
    EXPECT_EQ(backend.fused, 2);
    EXPECT_EQ(backend.primitive, 0);
}

TEST(Groth16, FlippedProofByteIsRejected) {
    auto b = circuits::make_builtin("random-dense", 40, test::seed(), 1);
    Keys k = keys_for(*b.circuit, 3);
    auto backend = make_cpu_backend();
    Proof proof = prove(k.params, k.shape.density(), b.circuit->witness(), random_randomness(), *backend);
    PreparedVerifyingKey pvk(k.params.vk);
    auto bytes = to_compressed(proof.a);
    int rejected = 0;
    for (size_t i = 0; i < bytes.size(); i += 5) {
        auto flipped = bytes;
        flipped[i] ^= 0x04;
        auto d = decode_g1(flipped);
        if (!d) {
            ++rejected;  // the decoder already refuses it
            continue;
        }
        Proof tampered = proof;
        tampered.a = d.point;
        EXPECT_FALSE(verify(pvk, tampered, b.public_inputs)) << "byte " << i;
        ++rejected;
    }
    EXPECT_EQ(rejected, int((bytes.size() + 4) / 5));
}

TEST(Groth16, MismatchedWitnessAndWrongInputCountAreClearErrors) {
    auto small = circuits::make_builtin("random-dense", 30, 1, 2);
    auto other = circuits::make_builtin("random-dense", 60, 1, 2);
    Keys k = keys_for(*small.circuit, 5);
    auto backend = make_cpu_backend();
    try {
        prove(k.params, k.shape.density(), other.circuit->witness(), random_randomness(), *backend);
        FAIL() << "a witness of another circuit was accepted";
    } catch (const ProverError& e) {
        EXPECT_NE(std::string(e.what()).find("aux"), std::string::npos) << e.what();
    }
    Proof p = prove(k.params, k.shape.density(), small.circuit->witness(), random_randomness(), *backend);
    auto r = verify(PreparedVerifyingKey(k.params.vk), p, std::vector<Fr>{Fr::one()});
    EXPECT_FALSE(r);
    EXPECT_NE(r.error.find("number of public inputs"), std::string::npos) << r.error;
}

TEST(Groth16, UnsatisfiedWitnessFailsCheckAndVerification) {
    std::mt19937_64 rng(test::seed());
    Cubic good{Fr::random(rng)};
    auto c = make_circuit(good, "cubic");
    Keys k = keys_for(*c, 11);
    Witness w = c->witness();
    w.aux[1] += Fr::one();  // x^2 wrong: a*b != c in the first two constraints
    w.c[0] += Fr::one();
    auto backend = make_cpu_backend();
    Fr y = good.x * good.x * good.x + good.x + Fr::from_u64(5);
    Proof p = prove(k.params, k.shape.density(), w, random_randomness(), *backend);
    EXPECT_FALSE(verify(PreparedVerifyingKey(k.params.vk), p, std::vector<Fr>{y}));
}

TEST(Groth16, BatchVerifierFindsTheOneBadProofAmong64) {
    auto b = circuits::make_builtin("random-dense", 20, test::seed(), 2);
    Keys k = keys_for(*b.circuit, 13);
    auto backend = make_cpu_backend();
    Witness w = b.circuit->witness();
    std::vector<Proof> proofs;
    std::vector<std::vector<Fr>> inputs;
    for (int i = 0; i < 64; ++i) {
        proofs.push_back(prove(k.params, k.shape.density(), w, random_randomness(), *backend));
        inputs.push_back(b.public_inputs);
    }
    PreparedVerifyingKey pvk(k.params.vk);
    std::vector<size_t> bad;
    EXPECT_TRUE(verify_batch(pvk, proofs, inputs, &bad));
    EXPECT_TRUE(bad.empty());
    std::mt19937_64 rng(test::seed());
    const size_t victim = rng() % 64;
    inputs[victim][1] += Fr::one();
    EXPECT_FALSE(verify_batch(pvk, proofs, inputs, &bad));
    ASSERT_EQ(bad, std::vector<size_t>{victim});
}

TEST(Groth16, SetupRejectsAShapeWithoutInputConstraints) {
    r1cs::Shape s;
    s.num_inputs = 3;
    s.num_constraints = 1;
    s.a.row_ptr = {0, 0};
    s.b.row_ptr = {0, 0};
    s.c.row_ptr = {0, 0};
    EXPECT_THROW(setup(s, ToxicWaste::from_seed(1)), std::invalid_argument);
}

// The densities over z as the prover built them before Density::z(): bit by bit.
std::vector<uint64_t> z_density_bit_by_bit(size_t num_inputs, const r1cs::BitVec* input_bits,
                                           const r1cs::BitVec& aux_bits) {
    const size_t n = num_inputs + aux_bits.size();
    std::vector<uint64_t> d((n + 63) / 64, 0);
    for (size_t i = 0; i < num_inputs; ++i)
        if (!input_bits || input_bits->test(i)) d[i / 64] |= uint64_t(1) << (i % 64);
    for (size_t j = 0; j < aux_bits.size(); ++j)
        if (aux_bits.test(j)) d[(num_inputs + j) / 64] |= uint64_t(1) << ((num_inputs + j) % 64);
    return d;
}

TEST(Groth16, WordWiseZDensitiesEqualTheBitByBitOnes) {
    std::mt19937_64 rng(test::seed());
    // Input counts on both sides of word boundaries, aux counts too (0 included), bits
    // sparse, dense and all set.
    for (size_t ni : {1, 2, 5, 63, 64, 65, 127, 128, 130, 200})
        for (size_t na : {0, 1, 63, 64, 65, 100, 1000, 4097})
            for (unsigned fill : {0u, 1u, 50u, 100u}) {
                r1cs::Density d{r1cs::BitVec(na), r1cs::BitVec(ni), r1cs::BitVec(na)};
                auto draw = [&](r1cs::BitVec& v) {
                    for (size_t i = 0; i < v.size(); ++i)
                        if (rng() % 100 < fill) v.set(i);
                };
                draw(d.a_aux);
                draw(d.b_input);
                draw(d.b_aux);
                const auto want_a = z_density_bit_by_bit(ni, nullptr, d.a_aux);
                const auto want_b = z_density_bit_by_bit(ni, &d.b_input, d.b_aux);
                const r1cs::ZDensity& z = d.z();
                ASSERT_EQ(z.a, want_a) << "ni " << ni << " na " << na << " fill " << fill;
                ASSERT_EQ(z.b, want_b) << "ni " << ni << " na " << na << " fill " << fill;
                EXPECT_EQ(z.a_count, ni + d.a_aux.count());
                EXPECT_EQ(z.b_count, d.b_input.count() + d.b_aux.count());
                EXPECT_EQ(&d.z(), &z);  // cached: built once
                const r1cs::Density copy = d;
                EXPECT_EQ(copy, d);
                EXPECT_EQ(copy.z().a, want_a);  // the copy builds its own
            }
}

TEST(Groth16, ZDensityIgnoresBitsBeyondAShrunkBitVec) {
    r1cs::Density d{r1cs::BitVec(70), r1cs::BitVec(3), r1cs::BitVec(70)};
    for (size_t i = 0; i < 70; ++i) d.a_aux.set(i), d.b_aux.set(i);
    d.a_aux.resize(10);
    d.b_aux.resize(10);
    EXPECT_EQ(d.z().a, z_density_bit_by_bit(3, nullptr, d.a_aux));
    EXPECT_EQ(d.z().b, z_density_bit_by_bit(3, &d.b_input, d.b_aux));
    EXPECT_EQ(d.z().a_count, 13u);
    EXPECT_EQ(d.z().b_count, 10u);
}

TEST(Groth16, ZDensityIsBuiltOnceUnderConcurrentProofs) {
    r1cs::Density d{r1cs::BitVec(5000), r1cs::BitVec(7), r1cs::BitVec(5000)};
    for (size_t i = 0; i < 5000; i += 3) d.a_aux.set(i), d.b_aux.set(i / 2);
    std::vector<const r1cs::ZDensity*> seen(8);
    std::vector<std::thread> threads;
    for (size_t t = 0; t < seen.size(); ++t) threads.emplace_back([&, t] { seen[t] = &d.z(); });
    for (auto& th : threads) th.join();
    for (const auto* z : seen) EXPECT_EQ(z, seen[0]);
    EXPECT_EQ(seen[0]->a, z_density_bit_by_bit(7, nullptr, d.a_aux));
}

// Proof bytes for fixed keys, witness and randomness: a change to the prover, the MSM, the
// NTT or the arithmetic that gives a different (even if valid) proof fails here, so that a
// refactoring is seen to leave every byte as it was. sha256-chain, one block; keys from
// seed 11; r = 5, s = 7; the proof compressed (a 48, b 96, c 48 bytes) in hex.
TEST(Groth16, ProofBytesForFixedKeysAndRandomnessArePinned) {
    auto b = circuits::make_builtin("sha256-chain", 1, 1, 1);
    Keys k = keys_for(*b.circuit, 11);
    auto backend = make_cpu_backend();
    Witness w = b.circuit->witness();
    const Proof p = prove(k.params, k.shape.density(), w, Randomness{Fr::from_u64(5), Fr::from_u64(7)}, *backend);
    std::string hex;
    auto append = [&](std::span<const uint8_t> bytes) {
        for (uint8_t v : bytes) hex += "0123456789abcdef"[v >> 4], hex += "0123456789abcdef"[v & 15];
    };
    append(to_compressed(p.a));
    append(to_compressed(p.b));
    append(to_compressed(p.c));
    EXPECT_EQ(hex,
              "9208026a661849e97aa19822952f5d745044fa5fa698c6a37615a8c1b12534dfec874e8822a4c5968146557471ea5d1e"
              "905e5979ebe2a4371194598a6f10d41ea4334630c50a16e5a962895f6487af23d622c7701f50cfb5012254b823488aa5"
              "0f761e8450d08183fa17caefd38a00c9ea140c5684a1b3db4bf65cae41f5d5cea728db1f36630981414e15c8e91751e0"
              "a66287faf299f6a67a3b0e146d2fa1fb95dfd892ba4ca654330caa200bf2d3cbb5ae9bc0713510fd34ac0c122eb531b8");
    EXPECT_TRUE(verify(PreparedVerifyingKey(k.params.vk), p, b.public_inputs));
}

}  // namespace
}  // namespace cuzk
