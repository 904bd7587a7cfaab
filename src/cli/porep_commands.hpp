// `cuzk setup porep | prove porep | verify porep`: PoRep C2 from the command line. Setup
// writes development keys under Filecoin's v28 parameter file names; prove runs a C1 output
// through the engine (every partition, each verified) with the keys of the parameter
// directory; verify checks a proof from comm_r, comm_d, replica_id and the seed alone.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "cuzk/engine/params.hpp"
#include "cuzk/filecoin/registry.hpp"

namespace cuzk::cli {
// Development keys of a circuit under its Filecoin file names in out_dir (default: the
// Filecoin parameter directory); existing files are kept unless force. seed 0: random.
int write_dev_keys(const engine::CircuitKey& key, const std::string& out_dir, uint64_t seed, bool force,
                   const std::string& about);
// 64 hex digits (an optional 0x), the 32 bytes in order; std::invalid_argument naming option.
filecoin::Bytes32 hex32(std::string hex, const char* option);
// Call after add_proving_commands: the subcommands hang under its setup, prove and verify.
void add_porep_commands(CLI::App& app, std::vector<std::pair<CLI::App*, std::function<int()>>>& commands);
}  // namespace cuzk::cli
