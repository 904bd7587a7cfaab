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
using E = groth16::Bls12_381;
using Clock = std::chrono::steady_clock;
double ms(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

struct ProveOptions {
    std::string zkey, wtns, proof, pub, r1cs, backend = "auto";
    bool no_subgroup_check = false, timings = false;
};

int run_prove_zkey(const ProveOptions& o) {
    gpu::check_backend_name(o.backend);
    check_writable(o.proof);
    check_writable(o.pub);
    auto t0 = Clock::now();
    const auto key = formats::circom::read_zkey<E>(o.zkey, {.check_subgroup = !o.no_subgroup_check});
    const double load_key = ms(t0);
    t0 = Clock::now();
    const auto wtns = formats::circom::read_wtns<E>(o.wtns);
    std::optional<groth16::CircomR1cs<E>> r1cs;
    if (!o.r1cs.empty()) r1cs = formats::circom::read_r1cs<E>(o.r1cs);
    const double load_rest = ms(t0);
    std::string why;
    auto backend = gpu::select_backend(o.backend, &why);
    groth16::ProofTimings t;
    t0 = Clock::now();
    const groth16::Proof proof =
        groth16::prove_zkey(key, wtns.values, groth16::random_randomness(), *backend, r1cs ? &*r1cs : nullptr, &t);
    const double prove = ms(t0);
    // A proof that does not verify is never written: without an .r1cs an unsatisfied
    // witness is found here (a few milliseconds of pairings).
    t0 = Clock::now();
    const auto pub = groth16::public_signals<E>(key, wtns.values);
    const std::vector<Fr> inputs(pub.begin(), pub.end());
    if (auto v = groth16::verify(groth16::PreparedVerifyingKey(groth16::verifying_key(key)), proof, inputs); !v.ok)
        throw std::runtime_error(o.wtns +
                                 ": the proof does not verify under the key: the witness does not satisfy the "
                                 "circuit (pass --r1cs circuit.r1cs to name the first failing constraint)" +
                                 (v.error.empty() ? "" : " [" + v.error + "]"));
    const double self_verify = ms(t0);
    formats::snarkjs::write_proof(proof, o.proof);
    formats::snarkjs::write_public(inputs, o.pub);
    if (o.timings) {
        std::fprintf(stderr,
                     "cuzk prove-zkey: backend %s; load key %.1f ms (%s), witness%s %.1f ms; prove %.1f ms "
                     "(H %.1f, MSM H %.1f, C %.1f, A %.1f, B1 %.1f, B2 %.1f, assemble %.1f); self-verify %.1f ms\n",
                     backend->name().c_str(), load_key, o.no_subgroup_check ? "no subgroup check" : "subgroup checked",
                     r1cs ? " and r1cs" : "", load_rest, prove, t.h, t.msm_h, t.msm_l, t.msm_a, t.msm_b_g1, t.msm_b_g2,
                     t.assemble, self_verify);
    }
    return 0;
}

int run_verify_zkey(const std::string& vk_file, const std::string& pub_file, const std::string& proof_file) {
    const auto vk = formats::snarkjs::read_vk(vk_file);
    const auto pub = formats::snarkjs::read_public(pub_file);
    const auto proof = formats::snarkjs::read_proof(proof_file);
    if (pub.size() != vk.n_public())
        throw std::runtime_error(pub_file + ": " + std::to_string(pub.size()) + " public signals, " + vk_file +
                                 " has nPublic " + std::to_string(vk.n_public()));
    const auto r = groth16::verify(groth16::PreparedVerifyingKey(vk.to_verifying_key()), proof, pub);
    if (!r.ok) {
        std::fprintf(stderr, "cuzk verify-zkey: INVALID proof%s%s\n", r.error.empty() ? "" : ": ", r.error.c_str());
        return 1;
    }
    std::printf("OK\n");
    return 0;
}

int run_setup_zkey(const std::string& r1cs_file, const std::string& zkey_file, const std::string& vk_file,
                   uint64_t seed) {
    check_writable(zkey_file);
    check_writable(vk_file);
    const auto r1cs = formats::circom::read_r1cs<E>(r1cs_file);
    const auto t0 = Clock::now();
    const auto tw = seed ? groth16::ToxicWaste::from_seed(seed) : groth16::ToxicWaste::random();
    const auto contents = groth16::setup_zkey(r1cs, tw);
    formats::write_file_atomically(zkey_file, formats::circom::zkey_to_bytes<E>(contents));
    groth16::VerifyingKey vk;
    vk.alpha_g1 = contents.alpha_1;
    vk.beta_g1 = contents.beta_1;
    vk.beta_g2 = contents.beta_2;
    vk.gamma_g2 = contents.gamma_2;
    vk.delta_g1 = contents.delta_1;
    vk.delta_g2 = contents.delta_2;
    vk.ic = contents.ic;
    formats::snarkjs::write_vk(vk, groth16::PreparedVerifyingKey(vk).alpha_beta, vk_file);
    std::printf(
        "%s: %zu constraints, %u signals, %u public, domain %u (development key: NOT a trusted setup), %.1f ms\n",
        zkey_file.c_str(), r1cs.n_constraints(), contents.n_vars, contents.n_public, contents.domain_size, ms(t0));
    return 0;
}

}  // namespace

void add_zkey_commands(CLI::App& app, std::vector<std::pair<CLI::App*, std::function<int()>>>& commands) {
    static ProveOptions o;
    auto* prove = app.add_subcommand(
        "prove-zkey",
        "Prove a circom circuit from its snarkjs Groth16 key and witness (rapidsnark's arguments; BLS12-381)");
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
    setup->add_option("r1cs", setup_r1cs, "The circuit's .r1cs (circom --r1cs --prime bls12381)")->required();
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
