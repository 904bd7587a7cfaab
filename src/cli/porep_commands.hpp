// `cuzk setup porep | prove porep | verify porep`: PoRep C2 from the command line. Setup
// writes development keys under Filecoin's v28 parameter file names; prove runs a C1 output
// through the engine (every partition, each verified) with the keys of the parameter
// directory; verify checks a proof from comm_r, comm_d, replica_id and the seed alone.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <utility>
#include <vector>

namespace cuzk::cli {
// Call after add_proving_commands: the subcommands hang under its setup, prove and verify.
void add_porep_commands(CLI::App& app, std::vector<std::pair<CLI::App*, std::function<int()>>>& commands);
}  // namespace cuzk::cli
