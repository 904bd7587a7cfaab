#include "zkey_commands.hpp"

#include <chrono>
#include <cstdio>

#include "cli_util.hpp"
#include "cuzk/backend/backend.hpp"
#include "cuzk/formats/circom.hpp"
#include "cuzk/formats/snarkjs.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/groth16/zkey.hpp"

namespace cuzk::cli {
namespace {

namespace fs = std::filesystem;
using groth16::Bls12_381;
using groth16::Bn254;
using Clock = std::chrono::steady_clock;
double ms(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

struct ProveOptions {
    std::string zkey, wtns, proof, pub, r1cs, backend = "auto";
    bool no_subgroup_check = false, timings = false;
};

// The MSMs of a proof on curve E: BLS12-381's on a ProverBackend (CPU or CUDA), BN254's on
// the ZkeyMsm that the selected backend gives (ProverBackend::bn254_msm: the CPU MSM, or the
// device's BN254 MSM).
struct Bls12_381Prover {
    std::unique_ptr<groth16::ProverBackend> backend;
    explicit Bls12_381Prover(const std::string& name) : backend(gpu::select_backend(name, nullptr)) {}
    std::string name() const { return backend->name(); }
    groth16::Proof prove(const groth16::Zkey<Bls12_381>& key, std::span<const Fr> w,
                         const groth16::CircomR1cs<Bls12_381>* r1cs, groth16::ProofTimings* t) {
        return groth16::prove_zkey(key, w, groth16::random_randomness(), *backend, r1cs, t);
    }
};
struct Bn254Prover {
    std::unique_ptr<groth16::ProverBackend> backend;
    std::unique_ptr<groth16::ZkeyMsm<Bn254>> msm;
    explicit Bn254Prover(const std::string& name)
        : backend(gpu::select_backend(name, nullptr)), msm(backend->bn254_msm()) {}
    std::string name() const { return msm->name(); }
    groth16::ProofOn<Bn254> prove(const groth16::Zkey<Bn254>& key, std::span<const bn254::Fr> w,
                                  const groth16::CircomR1cs<Bn254>* r1cs, groth16::ProofTimings* t) {
        return groth16::prove_zkey(key, w, groth16::random_randomness<bn254::Fr>(), *msm, r1cs, t);
    }
};

// The curve of the .zkey; the witness and the .r1cs must be on it (their readers refuse a
// prime of the other curve, naming the file and its header).
template <class E>
int prove_zkey_on(const ProveOptions& o) {
    using Prover = std::conditional_t<std::is_same_v<E, Bn254>, Bn254Prover, Bls12_381Prover>;
    auto t0 = Clock::now();
    const auto key = formats::circom::read_zkey<E>(o.zkey, {.check_subgroup = !o.no_subgroup_check});
    const double load_key = ms(t0);
    t0 = Clock::now();
    const auto wtns = formats::circom::read_wtns<E>(o.wtns);
    std::optional<groth16::CircomR1cs<E>> r1cs;
    if (!o.r1cs.empty()) r1cs = formats::circom::read_r1cs<E>(o.r1cs);
    const double load_rest = ms(t0);
    Prover prover(o.backend);
    groth16::ProofTimings t;
    t0 = Clock::now();
    const auto proof = prover.prove(key, wtns.values, r1cs ? &*r1cs : nullptr, &t);
    const double prove = ms(t0);
    // A proof that does not verify is never written: without an .r1cs an unsatisfied
    // witness is found here (a few milliseconds of pairings).
    t0 = Clock::now();
    const auto pub = groth16::public_signals<E>(key, wtns.values);
    const std::vector<typename E::Fr> inputs(pub.begin(), pub.end());
    if (auto v = groth16::verify(
            groth16::PreparedVerifyingKeyT<typename E::G1, typename E::G2>(groth16::verifying_key(key)), proof, inputs);
        !v.ok)
        throw std::runtime_error(o.wtns +
                                 ": the proof does not verify under the key: the witness does not satisfy the "
                                 "circuit (pass --r1cs circuit.r1cs to name the first failing constraint)" +
                                 (v.error.empty() ? "" : " [" + v.error + "]"));
    const double self_verify = ms(t0);
    formats::snarkjs::write_proof<E>(proof, o.proof);
    formats::snarkjs::write_public<E>(inputs, o.pub);
    if (o.timings) {
        std::fprintf(stderr,
                     "cuzk prove-zkey: %s, backend %s; load key %.1f ms (%s), witness%s %.1f ms; prove %.1f ms "
                     "(H %.1f, MSM H %.1f, C %.1f, A %.1f, B1 %.1f, B2 %.1f, assemble %.1f); self-verify %.1f ms\n",
                     E::kName, prover.name().c_str(), load_key,
                     o.no_subgroup_check ? "no subgroup check" : "subgroup checked", r1cs ? " and r1cs" : "", load_rest,
                     prove, t.h, t.msm_h, t.msm_l, t.msm_a, t.msm_b_g1, t.msm_b_g2, t.assemble, self_verify);
    }
    return 0;
}

int run_prove_zkey(const ProveOptions& o) {
    gpu::check_backend_name(o.backend);
    check_writable(o.proof);
    check_writable(o.pub);
    return groth16::with_curve(formats::circom::detect_curve(o.zkey),
                               [&](auto curve) { return prove_zkey_on<decltype(curve)>(o); });
}

// The curve of verification_key.json; public.json and proof.json are read on it (a proof
// naming the other curve is refused).
int run_verify_zkey(const std::string& vk_file, const std::string& pub_file, const std::string& proof_file) {
    return groth16::with_curve(formats::snarkjs::read_vk_curve(vk_file), [&](auto curve) {
        using E = decltype(curve);
        const auto vk = formats::snarkjs::read_vk<E>(vk_file);
        const auto pub = formats::snarkjs::read_public<E>(pub_file);
        const auto proof = formats::snarkjs::read_proof<E>(proof_file);
        if (pub.size() != vk.n_public())
            throw std::runtime_error(pub_file + ": " + std::to_string(pub.size()) + " public signals, " + vk_file +
                                     " has nPublic " + std::to_string(vk.n_public()));
        const auto r = groth16::verify(
            groth16::PreparedVerifyingKeyT<typename E::G1, typename E::G2>(vk.to_verifying_key()), proof, pub);
        if (!r.ok) {
            std::fprintf(stderr, "cuzk verify-zkey: INVALID proof%s%s\n", r.error.empty() ? "" : ": ", r.error.c_str());
            return 1;
        }
        std::printf("OK\n");
        return 0;
    });
}

int run_setup_zkey(const std::string& r1cs_file, const std::string& zkey_file, const std::string& vk_file,
                   uint64_t seed) {
    check_writable(zkey_file);
    check_writable(vk_file);
    return groth16::with_curve(formats::circom::detect_curve(r1cs_file), [&](auto curve) {
        using E = decltype(curve);
        using Tw = groth16::ToxicWasteT<typename E::Fr>;
        const auto r1cs = formats::circom::read_r1cs<E>(r1cs_file);
        const auto t0 = Clock::now();
        const Tw tw = seed ? Tw::from_seed(seed) : Tw::random();
        const auto contents = groth16::setup_zkey<E>(r1cs, tw);
        formats::write_file_atomically(zkey_file, formats::circom::zkey_to_bytes<E>(contents));
        groth16::VerifyingKeyOn<E> vk;
        vk.alpha_g1 = contents.alpha_1;
        vk.beta_g1 = contents.beta_1;
        vk.beta_g2 = contents.beta_2;
        vk.gamma_g2 = contents.gamma_2;
        vk.delta_g1 = contents.delta_1;
        vk.delta_g2 = contents.delta_2;
        vk.ic = contents.ic;
        formats::snarkjs::write_vk<E>(vk, pairing(vk.alpha_g1, vk.beta_g2), vk_file);
        std::printf(
            "%s: %s, %zu constraints, %u signals, %u public, domain %u (development key: NOT a trusted setup), "
            "%.1f ms\n",
            zkey_file.c_str(), E::kName, r1cs.n_constraints(), contents.n_vars, contents.n_public, contents.domain_size,
            ms(t0));
        return 0;
    });
}

}  // namespace

void add_zkey_commands(CLI::App& app, std::vector<std::pair<CLI::App*, std::function<int()>>>& commands) {
    static ProveOptions o;
    auto* prove = app.add_subcommand(
        "prove-zkey",
        "Prove a circom circuit from its snarkjs Groth16 key and witness (rapidsnark's arguments; BN254 (bn128) or "
        "BLS12-381, from the key)");
    prove->add_option("zkey", o.zkey, "The circuit's .zkey (snarkjs groth16 setup)")->required();
    prove->add_option("witness", o.wtns, "The witness .wtns (snarkjs wtns calculate, or circom's generator)")
        ->required();
    prove->add_option("proof", o.proof, "proof.json to write")->required();
    prove->add_option("public", o.pub, "public.json to write")->required();
    prove->add_option("--backend", o.backend, "cpu, cuda or auto (CUDA when built with it and a GPU is present)")
        ->capture_default_str();
    prove->add_option("--r1cs", o.r1cs,
                      "The circuit's .r1cs: check every constraint before any MSM, naming the first that fails");
    prove->add_flag("--no-subgroup-check", o.no_subgroup_check,
                    "Skip the subgroup check of the key's points (trusted keys only: most of the load time)");
    prove->add_flag("--timings", o.timings, "Print the time of each stage on stderr");
    commands.push_back({prove, [] { return run_prove_zkey(o); }});

    static std::string setup_r1cs, setup_zkey, setup_vk = "verification_key.json";
    static uint64_t seed = 0;
    auto* setup = app.add_subcommand(
        "setup-zkey",
        "Development .zkey for a circom .r1cs, as snarkjs groth16 setup lays it out (toxic waste known: NOT a "
        "trusted setup)");
    setup->add_option("r1cs", setup_r1cs, "The circuit's .r1cs (circom --r1cs --prime bn128 or bls12381)")->required();
    setup->add_option("zkey", setup_zkey, ".zkey to write")->required();
    setup->add_option("--vk", setup_vk, "verification_key.json to write")->capture_default_str();
    setup->add_option("--seed", seed, "Toxic waste from this seed (reproducible keys; 0: random)");
    commands.push_back({setup, [] { return run_setup_zkey(setup_r1cs, setup_zkey, setup_vk, seed); }});

    static std::string vk, pub, proof;
    auto* verify = app.add_subcommand(
        "verify-zkey", "Verify a snarkjs Groth16 proof (snarkjs groth16 verify's arguments: vk, public, proof)");
    verify->add_option("verification_key", vk, "verification_key.json (snarkjs zkey export verificationkey)")
        ->required();
    verify->add_option("public", pub, "public.json")->required();
    verify->add_option("proof", proof, "proof.json")->required();
    commands.push_back({verify, [] { return run_verify_zkey(vk, pub, proof); }});
}

}  // namespace cuzk::cli
