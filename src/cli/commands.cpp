#include "commands.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cuzk/backend/backend.hpp"
#include "cuzk/circuits/builtin.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/formats/snarkjs.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/r1cs/shape.hpp"

namespace cuzk::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
double ms(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

// What `setup` writes next to the keys so that `prove` rebuilds the same circuit.
struct CircuitSpec {
    std::string name = "sha256-chain";
    size_t size = 1;
    uint64_t seed = 1;
    size_t inputs = 4;

    nlohmann::json to_json() const { return {{"circuit", name}, {"size", size}, {"seed", seed}, {"inputs", inputs}}; }
    static CircuitSpec load(const fs::path& file) {
        std::ifstream in(file);
        if (!in) throw std::runtime_error(file.string() + ": cannot open (run `cuzk setup` first)");
        try {
            auto j = nlohmann::json::parse(in);
            CircuitSpec s;
            s.name = j.at("circuit").get<std::string>();
            s.size = j.at("size").get<size_t>();
            s.seed = j.at("seed").get<uint64_t>();
            s.inputs = j.at("inputs").get<size_t>();
            return s;
        } catch (const nlohmann::json::exception& e) {
            throw std::runtime_error(file.string() + ": malformed circuit description: " + e.what());
        }
    }
};

// Partition k of a circuit: SHA-256 chains take a fresh preimage per partition (same
// shape); random-dense has one witness per shape, so every partition repeats it.
circuits::BuiltinCircuit partition(const CircuitSpec& s, size_t k) {
    const uint64_t seed = s.name == "sha256-chain" ? s.seed + k : s.seed;
    return circuits::make_builtin(s.name, s.size, seed, s.inputs);
}

nlohmann::json inputs_to_json(const std::vector<std::vector<Fr>>& xs) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& x : xs) {
        nlohmann::json row = nlohmann::json::array();
        for (const auto& v : x) row.push_back(v.to_dec());
        j.push_back(row);
    }
    return j;
}

std::vector<std::vector<Fr>> inputs_from_json(const fs::path& file) {
    std::ifstream in(file);
    if (!in) throw std::runtime_error(file.string() + ": cannot open");
    std::vector<std::vector<Fr>> out;
    try {
        auto j = nlohmann::json::parse(in);
        for (size_t p = 0; p < j.size(); ++p) {
            out.emplace_back();
            for (size_t i = 0; i < j.at(p).size(); ++i) {
                auto v = Fr::from_string(j.at(p).at(i).get<std::string>());
                if (!v)
                    throw std::runtime_error(file.string() + ": [" + std::to_string(p) + "][" + std::to_string(i) +
                                             "] is not a decimal integer below r");
                out.back().push_back(*v);
            }
        }
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(file.string() + ": malformed public inputs: " + e.what());
    }
    return out;
}

void write_text(const fs::path& file, const std::string& text) {
    std::ofstream out(file);
    out << text << "\n";
    if (!out) throw std::runtime_error(file.string() + ": cannot write");
}

int run_setup(const CircuitSpec& spec, const fs::path& dir) {
    fs::create_directories(dir);
    auto b = partition(spec, 0);
    auto t0 = Clock::now();
    r1cs::Shape shape = b.circuit->shape();
    std::printf("circuit %s: %llu constraints, %llu inputs, %llu aux (shape %.0f ms)\n", b.circuit->name().c_str(),
                (unsigned long long)shape.num_constraints, (unsigned long long)shape.num_inputs,
                (unsigned long long)shape.num_aux, ms(t0));
    t0 = Clock::now();
    const bool tty = isatty(2);
    auto params = groth16::setup(shape, groth16::ToxicWaste::random(), [&](const char* st, size_t done, size_t total) {
        if (tty) std::fprintf(stderr, "\r  setup: %-5s %3d%%", st, int(100 * done / total));
        if (!tty && done == total) std::fprintf(stderr, "  setup: %s done (%zu points)\n", st, total);
    });
    if (tty) std::fprintf(stderr, "\r%40s\r", "");
    std::printf("setup: %.0f ms (development keys: the toxic waste is discarded but was known to this process)\n",
                ms(t0));
    t0 = Clock::now();
    formats::write_params(params, dir / "params");
    formats::write_vk(params.vk, dir / "vk");
    r1cs::write_shape(dir / "shape.r1cs", shape);
    write_text(dir / "circuit.json", spec.to_json().dump(2));
    std::printf("wrote %s/{params,vk,shape.r1cs,circuit.json} (%.1f MB params) in %.0f ms\n", dir.c_str(),
                double(formats::params_size(params)) / 1e6, ms(t0));
    return 0;
}

int run_prove(const fs::path& dir, size_t partitions, const fs::path& out, const std::string& format,
              const std::string& backend_name) {
    if (format != "bellperson" && format != "snarkjs")
        throw std::runtime_error("unknown --format '" + format + "' (bellperson or snarkjs)");
    if (format == "snarkjs" && partitions != 1)
        throw std::runtime_error("--format snarkjs writes one proof: use --partitions 1");
    const CircuitSpec spec = CircuitSpec::load(dir / "circuit.json");
    auto t0 = Clock::now();
    const r1cs::Shape shape = r1cs::read_shape(dir / "shape.r1cs");
    formats::ReadOptions ropt;
    ropt.check_subgroup = false;  // our own file, hash-checked shape next to it; the points are still on-curve checked
    const groth16::Parameters params = formats::read_params(dir / "params", ropt);
    std::printf("loaded keys and shape in %.0f ms\n", ms(t0));
    const r1cs::Density density = shape.density();
    std::string why;
    auto backend = gpu::select_backend(backend_name, &why);
    std::printf("backend %s\n", why.c_str());
    std::vector<groth16::Proof> proofs;
    std::vector<std::vector<Fr>> inputs;
    for (size_t k = 0; k < partitions; ++k) {
        auto b = partition(spec, k);
        t0 = Clock::now();
        groth16::Witness w = b.circuit->witness();
        double witness_ms = ms(t0);
        groth16::ProofTimings t;
        proofs.push_back(groth16::prove(params, density, w, groth16::random_randomness(), *backend, &t));
        inputs.push_back(b.public_inputs);
        std::printf(
            "partition %zu: witness %.0f ms, H %.0f ms, MSM h %.0f / l %.0f / a %.0f / b_g1 %.0f / b_g2 %.0f ms, "
            "prove %.0f ms\n",
            k, witness_ms, t.h, t.msm_h, t.msm_l, t.msm_a, t.msm_b_g1, t.msm_b_g2, t.total());
    }
    if (format == "bellperson") {
        formats::write_proofs(proofs, out);
        write_text(fs::path(out.string() + ".public.json"), inputs_to_json(inputs).dump(1));
        std::printf("wrote %zu proof(s) (%zu bytes) to %s and public inputs to %s.public.json\n", proofs.size(),
                    proofs.size() * formats::kProofBytes, out.c_str(), out.c_str());
    } else {
        fs::create_directories(out);
        formats::snarkjs::write_proof(proofs[0], out / "proof.json");
        formats::snarkjs::write_public(inputs[0], out / "public.json");
        formats::snarkjs::write_vk(params.vk, pairing(params.vk.alpha_g1, params.vk.beta_g2),
                                   out / "verification_key.json");
        std::printf(
            "wrote %s/{proof,public,verification_key}.json (check with: snarkjs groth16 verify "
            "verification_key.json public.json proof.json)\n",
            out.c_str());
    }
    return 0;
}

int run_verify(const fs::path& vk_file, const fs::path& proof_file, const fs::path& public_file) {
    auto t0 = Clock::now();
    const groth16::PreparedVerifyingKey pvk(formats::read_vk(vk_file));
    const auto inputs = inputs_from_json(public_file);
    const auto proofs = formats::read_proofs(proof_file, inputs.size());
    int bad = 0;
    for (size_t k = 0; k < proofs.size(); ++k) {
        auto r = groth16::verify(pvk, proofs[k], inputs[k]);
        std::printf("proof %zu: %s\n", k, r ? "valid" : ("INVALID: " + r.error).c_str());
        bad += !r;
    }
    std::printf("%zu proof(s), %d invalid, %.1f ms\n", proofs.size(), bad, ms(t0));
    return bad == 0 ? 0 : 1;
}

int run_inspect(const fs::path& file) {
    // A .vk is a prefix of a .params: try the full layout first.
    formats::FileLayout layout;
    try {
        layout = formats::inspect_params(file);
    } catch (const formats::FormatError&) {
        layout = formats::inspect_vk(file);
    }
    std::printf("%s", formats::describe(layout).c_str());
    return 0;
}

}  // namespace

void add_proving_commands(CLI::App& app, std::vector<std::pair<CLI::App*, std::function<int()>>>& commands) {
    static CircuitSpec spec;
    static std::string dir = "cuzk-keys", out = "proof.bin", format = "bellperson", backend = "auto", vk, proof, pub,
                       file;
    static size_t partitions = 1;

    auto* setup = app.add_subcommand("setup", "Development keys for a built-in circuit (bellperson .params/.vk)");
    setup->add_option("--circuit", spec.name, "sha256-chain or random-dense")->capture_default_str();
    setup->add_option("--size", spec.size, "SHA-256 blocks, or constraints for random-dense")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    setup->add_option("--seed", spec.seed, "Witness seed (preimage, or the random-dense shape)")->capture_default_str();
    setup->add_option("--inputs", spec.inputs, "Public inputs of random-dense")->capture_default_str();
    setup->add_option("--out", dir, "Directory for params, vk, shape.r1cs, circuit.json")->capture_default_str();
    commands.push_back({setup, [] { return run_setup(spec, dir); }});

    auto* prove = app.add_subcommand("prove", "Prove a built-in circuit with keys from `cuzk setup`");
    prove->add_option("--keys", dir, "Directory written by `cuzk setup`")->capture_default_str();
    prove->add_option("--partitions", partitions, "Number of proofs (partitions), written concatenated")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    prove->add_option("--out", out, "Proof file (bellperson) or directory (snarkjs)")->capture_default_str();
    prove->add_option("--format", format, "bellperson or snarkjs")->capture_default_str();
    prove->add_option("--backend", backend, "cpu, cuda or auto (CUDA when built with it and a GPU is present)")
        ->capture_default_str();
    commands.push_back({prove, [] { return run_prove(dir, partitions, out, format, backend); }});

    auto* verify = app.add_subcommand("verify", "Verify bellperson proofs against a .vk and public inputs");
    // Required, but checked here: `cuzk verify porep` takes other options.
    verify->add_option("--vk", vk, "Verifying key (.vk) (required)");
    verify->add_option("--proof", proof, "Proof file (192 bytes per partition) (required)");
    verify->add_option("--public", pub, "Public inputs: JSON array of arrays of decimal strings (required)");
    commands.push_back({verify, [] {
                            if (vk.empty() || proof.empty() || pub.empty())
                                throw std::invalid_argument(
                                    "--vk, --proof and --public are required (a PoRep proof: cuzk verify porep)");
                            return run_verify(vk, proof, pub);
                        }});

    auto* inspect = app.add_subcommand("inspect", "Counts and sizes of the sections of a .params or .vk file");
    inspect->add_option("file", file, "The file")->required();
    commands.push_back({inspect, [] { return run_inspect(file); }});
}

}  // namespace cuzk::cli
