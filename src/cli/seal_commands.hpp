// `cuzk seal | gen-vanilla | check-c1`: C1 outputs (SealCommitPhase1Output JSON) from an
// in-memory seal of a small sector, synthetic ones for any sector size, and their check.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <utility>
#include <vector>

namespace cuzk::cli {
void add_seal_commands(CLI::App& app, std::vector<std::pair<CLI::App*, std::function<int()>>>& commands);
}  // namespace cuzk::cli
