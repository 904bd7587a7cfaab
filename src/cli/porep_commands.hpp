// `cuzk setup porep | prove porep | verify porep`: PoRep C2 from the command line. Setup
// writes development keys under Filecoin's v28 parameter file names; prove runs a C1 output
// through the engine (every partition, each verified) with the keys of the parameter
// directory; verify checks a proof from comm_r, comm_d, replica_id and the seed alone.
// The helpers below serve the PoSt commands (post_commands.hpp) too.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/params.hpp"
#include "cuzk/filecoin/c1.hpp"
#include "cuzk/filecoin/registry.hpp"

namespace cuzk::cli {
// Call after add_proving_commands: the subcommands hang under its setup, prove and verify.
void add_porep_commands(CLI::App& app, std::vector<std::pair<CLI::App*, std::function<int()>>>& commands);

// A parameter file in --param-dir (or the default directory), and how a message says where
// that directory came from.
std::filesystem::path param_file(const std::string& dir_opt, const std::string& name);
std::string where_from(const std::string& dir_opt);
// 64 hex digits (an optional 0x), or std::invalid_argument naming the option.
filecoin::Bytes32 hex32(std::string hex, const char* option);

// Development keys of a circuit shape, written under its Filecoin file names into out_dir
// (default: the parameter directory); refuses to overwrite without `force`. `what` describes
// the circuit in the progress line. seed 0: random toxic waste.
int write_dev_keys(const engine::CircuitKey& key, const std::string& what, const std::string& out_dir, uint64_t seed,
                   bool force);

// One job through an in-process engine with the keys of the parameter directory (no
// development keys), its partitions reported as they finish, the proof written to `out`.
struct EngineRun {
    std::string param_dir, backend = "auto", out = "proof.bin";
    bool check_vanilla = true;
    // Rewrites a refusal of the input at submit (InvalidArgument) so that it names the file.
    std::function<std::string(const std::string&)> name_input;
};
int prove_job(engine::JobSpec spec, const EngineRun& run);
}  // namespace cuzk::cli
