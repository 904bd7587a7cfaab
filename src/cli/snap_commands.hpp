// SnapDeals commands (snap_commands.cpp).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace cuzk::cli {
void add_snap_commands(CLI::App& app, std::vector<std::pair<CLI::App*, std::function<int()>>>& commands);
// gen-vanilla --kind snap-deals-update: a synthetic update's vanilla-<k>.bin in out_dir and its
// commitments on stdout.
int run_snap_gen_vanilla(const std::string& sector_size, uint64_t seed, const std::string& out_dir);
}  // namespace cuzk::cli
