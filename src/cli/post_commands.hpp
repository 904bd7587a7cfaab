// `cuzk gen-vanilla --kind window-post|winning-post`, `cuzk setup post | prove post | verify
// post`: Window and Winning PoSt from the command line. gen-vanilla writes a PoSt request file
// (filecoin::PoStRequestFile: Curio's bincode vanilla proofs, randomness, miner id, partition
// index, registered proof) from small sectors sealed in memory or synthetic for any size;
// setup writes development keys under Filecoin's v28 file names; prove runs the file through
// the engine; verify checks a proof from the file's public values (randomness, sector ids,
// comm_r's).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace cuzk::cli {

struct PoStGenOptions {
    std::string kind, sector_size, registered_proof, out, randomness_hex;
    uint64_t seed = 0, miner_id = 1000, first_sector_id = 1;
    uint32_t partition_index = 0, sectors = 0;  // sectors 0: a full partition (Window), 1 (Winning)
    bool sealed = false, no_check = false;
};
int run_gen_vanilla_post(const PoStGenOptions& o);

// Call after add_proving_commands: the subcommands hang under its setup, prove and verify.
void add_post_commands(CLI::App& app, std::vector<std::pair<CLI::App*, std::function<int()>>>& commands);

}  // namespace cuzk::cli
