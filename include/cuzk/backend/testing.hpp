// Test and benchmark hooks of the CUDA backend: NOT part of the API an application uses.
//
// Tests and benchmarks include this header to run both sides of a choice the backend makes
// by itself (its residency plan, copies ahead, twiddle lending) in one process, and to read
// counters that only a test checks. The daemon, the engine and the CLI never include it.
#pragma once

#include <cstddef>
#include <optional>

#include "cuzk/groth16/backend.hpp"

namespace cuzk::gpu {

// How many precomputed tables a CUDA backend has built (0 for any other backend).
size_t tables_built(groth16::ProverBackend& backend);
// Turns a CUDA backend's copies ahead (cuzk/backend/backend.hpp) on or off from now on; no effect on any
// other backend.
void set_copy_ahead(groth16::ProverBackend& backend, bool on);
// Turns a CUDA backend's residency plan off (first come, where it fits) or back on, from the
// next proof on.
void set_residency_plan(groth16::ProverBackend& backend, bool on);
// Forces the twiddle lending of a CUDA backend (cuzk/backend/backend.hpp; nullopt: by the budget), from the
// next H step on.
void set_twiddle_lending(groth16::ProverBackend& backend, std::optional<bool> on);

}  // namespace cuzk::gpu
