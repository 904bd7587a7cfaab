// `cuzk setup | prove | verify | inspect` over the built-in circuits, with keys and
// proofs in bellperson's formats (and snarkjs JSON on request).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace cuzk::cli {
// Adds the subcommands to app; each returns a callable that runs it (exit status).
void add_proving_commands(CLI::App& app, std::vector<std::pair<CLI::App*, std::function<int()>>>& commands);
}  // namespace cuzk::cli
