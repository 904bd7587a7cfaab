#include "commands.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_util.hpp"
#include "cuzk/backend/backend.hpp"
#include "cuzk/circuits/builtin.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/formats/circom.hpp"
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
        if (!in)
            throw std::runtime_error(file.string() + ": cannot open: " + std::strerror(errno) +
                                     " (run `cuzk setup` first)");
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

// Public inputs: a JSON array with one entry per proof, each an array of `per_proof`
// decimal strings below r. Anything else is refused naming the file and the entry.
std::vector<std::vector<Fr>> inputs_from_json(const fs::path& file, size_t per_proof) {
    std::ifstream in(file);
    if (!in) throw std::runtime_error(file.string() + ": cannot open: " + std::strerror(errno));
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(in);
    } catch (const nlohmann::json::exception& e) {
        throw std::runtime_error(file.string() + ": not JSON: " + e.what());
    }
    const std::string want = "an array of " + std::to_string(per_proof) + " decimal strings (the vk's public inputs)";
    if (!j.is_array())
        throw std::runtime_error(file.string() + ": expected a JSON array with one entry per proof, each " + want +
                                 "; found " + j.type_name());
    if (j.empty())
        throw std::runtime_error(file.string() + ": no public inputs (an empty array): expected one entry per " +
                                 "proof, each " + want);
    std::vector<std::vector<Fr>> out;
    for (size_t p = 0; p < j.size(); ++p) {
        const std::string at = file.string() + ": [" + std::to_string(p) + "]";
        const nlohmann::json& row = j[p];
        if (!row.is_array())
            throw std::runtime_error(at + " is " + row.type_name() + ", expected " + want +
                                     " (a snarkjs public.json is one flat array: wrap it in [ ])");
        if (row.size() != per_proof)
            throw std::runtime_error(at + " has " + std::to_string(row.size()) + " values, expected " +
                                     std::to_string(per_proof) + " (the vk's public inputs)");
        out.emplace_back();
        for (size_t i = 0; i < row.size(); ++i) {
            const std::string ati = at + "[" + std::to_string(i) + "]";
            if (!row[i].is_string())
                throw std::runtime_error(ati + " is " + row[i].type_name() + ", expected a decimal string");
            auto v = Fr::from_string(row[i].get<std::string>());
            if (!v) throw std::runtime_error(ati + " is not a decimal integer below r");
            out.back().push_back(*v);
        }
    }
    return out;
}

void write_text(const fs::path& file, const std::string& text) {
    const std::string line = text + "\n";
    formats::write_file_atomically(file, {reinterpret_cast<const uint8_t*>(line.data()), line.size()});
}

int run_setup(const CircuitSpec& spec, const fs::path& dir) {
    circuits::check_builtin(spec.name, spec.size, spec.inputs);
    check_writable_dir(dir);
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
    gpu::check_backend_name(backend_name);
    const CircuitSpec spec = CircuitSpec::load(dir / "circuit.json");
    circuits::check_builtin(spec.name, spec.size, spec.inputs);
    if (format == "bellperson") {
        check_writable(out);
        check_writable(fs::path(out.string() + ".public.json"));
    } else {
        check_writable_dir(out);
    }
    auto t0 = Clock::now();
    const r1cs::Shape shape = r1cs::read_shape(dir / "shape.r1cs");
    // Points are read with the curve check only. Checking every point's subgroup makes the
    // load ~90x slower (random-dense 2^15, 13 MB, 2 threads: 18 s against 0.2 s, and the
    // proof takes 5 s), so each proof is verified instead before anything is written, and
    // a failed one has the params read again with the check, to name the bad point.
    formats::ReadOptions ropt;
    ropt.check_subgroup = false;
    const groth16::Parameters params = formats::read_params(dir / "params", ropt);
    std::printf("loaded keys and shape in %.0f ms\n", ms(t0));
    const groth16::PreparedVerifyingKey pvk(params.vk);
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
        if (w.inputs.size() != shape.num_inputs || w.aux.size() != shape.num_aux ||
            w.a.size() != shape.num_constraints) {
            auto counts = [](uint64_t c, uint64_t i, uint64_t a) {
                return std::to_string(c) + " constraints, " + std::to_string(i) + " inputs, " + std::to_string(a) +
                       " aux";
            };
            throw std::runtime_error((dir / "circuit.json").string() + " gives " + b.circuit->name() + " with " +
                                     counts(w.a.size(), w.inputs.size(), w.aux.size()) + ", but " +
                                     (dir / "shape.r1cs").string() + " has " +
                                     counts(shape.num_constraints, shape.num_inputs, shape.num_aux) +
                                     ": keys of another circuit or cuzk version; run `cuzk setup` again");
        }
        groth16::ProofTimings t;
        proofs.push_back(groth16::prove(params, density, w, groth16::random_randomness(), *backend, &t));
        inputs.push_back(b.public_inputs);
        // A proof is checked before it is written, as the engine does: keys that do not
        // match the circuit, or a fault, must not leave a proof that fails later.
        if (auto ok = groth16::verify(pvk, proofs.back(), inputs.back()); !ok) {
            std::string cause;
            try {
                formats::read_params(dir / "params");
                cause = "every point of the params is in its subgroup: the keys do not match the circuit";
            } catch (const formats::FormatError& e) {
                cause = e.what();
            }
            throw std::runtime_error("partition " + std::to_string(k) +
                                     ": the proof does not verify against the params' own vk (" + ok.error +
                                     "): " + cause + "; nothing written");
        }
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
    const groth16::VerifyingKey vk = formats::read_vk(vk_file);
    if (vk.ic.empty()) throw std::runtime_error(vk_file.string() + ": ic has no points (IC[0], for ONE, is required)");
    const groth16::PreparedVerifyingKey pvk(vk);
    const auto inputs = inputs_from_json(public_file, vk.ic.size() - 1);  // ic holds ONE's point too
    const auto proofs = formats::read_proofs(proof_file, inputs.size());  // inputs.size() >= 1
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
    {
        const formats::MappedFile m(file);
        if (formats::circom::is_circom_file(m.bytes())) {
            std::printf("%s", formats::circom::describe(m.bytes(), file.string()).c_str());
            return 0;
        }
        if (const std::string other = formats::other_format(m.bytes()); !other.empty())
            throw std::runtime_error(file.string() + ": not a bellperson .params or .vk file: it looks like " + other);
    }
    // A .vk is a prefix of a .params: try the full layout first.
    formats::FileLayout layout;
    try {
        layout = formats::inspect_params(file);
    } catch (const formats::FormatError& as_params) {
        try {
            layout = formats::inspect_vk(file);
        } catch (const formats::FormatError& as_vk) {
            auto where = [](const formats::FormatError& e) {
                std::string s = e.section();
                if (e.offset() != formats::FormatError::kNoOffset) s += " at byte " + std::to_string(e.offset());
                return s + ": " + e.problem();
            };
            throw std::runtime_error(file.string() + ": neither a bellperson .params (" + where(as_params) +
                                     ") nor a .vk (" + where(as_vk) + ")");
        }
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
    setup->add_option("--size", spec.size, "SHA-256 blocks, or random-dense's constraint count (inputs included)")
        ->check(in_range(1, circuits::kMaxBuiltinSize))
        ->capture_default_str();
    setup->add_option("--seed", spec.seed, "Witness seed (preimage, or the random-dense shape)")->capture_default_str();
    setup->add_option("--inputs", spec.inputs, "Public inputs of random-dense")->capture_default_str();
    setup->add_option("--out", dir, "Directory for params, vk, shape.r1cs, circuit.json")->capture_default_str();
    commands.push_back({setup, [] { return run_setup(spec, dir); }});

    auto* prove = app.add_subcommand("prove", "Prove a built-in circuit with keys from `cuzk setup`");
    prove->add_option("--keys", dir, "Directory written by `cuzk setup`")->capture_default_str();
    prove->add_option("--partitions", partitions, "Number of proofs (partitions), written concatenated")
        ->check(in_range(1, 1 << 16))
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

    auto* inspect =
        app.add_subcommand("inspect", "Counts and sizes of the sections of a .params, .vk, .zkey, .wtns or .r1cs file");
    inspect->add_option("file", file, "The file")->required();
    commands.push_back({inspect, [] { return run_inspect(file); }});
}

}  // namespace cuzk::cli
