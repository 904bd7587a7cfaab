// `cuzk demo`'s proving part: setup -> prove -> verify of a built-in circuit, in memory,
// with the time of every phase.
#pragma once

#include <cstddef>
#include <string>

namespace cuzk::cli {
// Returns 0 when the proof verifies (and a tampered input is rejected), 1 otherwise.
int run_prove_demo(const std::string& circuit, size_t size, size_t proofs, const std::string& backend);
}  // namespace cuzk::cli
