// `cuzk seal | gen-vanilla | check-c1`: C1 outputs (SealCommitPhase1Output JSON) from an
// in-memory seal of a small sector, synthetic ones for any sector size, and their check.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace cuzk::filecoin {
struct PoRepConfig;
}

namespace cuzk::cli {
// "2KiB" (any case), or the byte count; std::invalid_argument naming the known sizes.
uint64_t parse_sector_size(const std::string& s);
// The registered proof: `name` if given (it must have this sector size, and be NI-PoRep when
// `non_interactive`), else StackedDrg<size>V1_2_Feat_NonInteractivePoRep when
// `non_interactive`, else the interactive StackedDrg<size>V1_1.
const filecoin::PoRepConfig& choose_proof(const std::string& size_text, const std::string& name,
                                          bool non_interactive = false);
void add_seal_commands(CLI::App& app, std::vector<std::pair<CLI::App*, std::function<int()>>>& commands);
}  // namespace cuzk::cli
