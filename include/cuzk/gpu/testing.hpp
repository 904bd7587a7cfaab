// Test and benchmark hooks of the gpu layer: NOT part of the API an application uses.
//
// Tests and benchmarks include this header to run both sides of a choice the NTT makes by
// itself in one process. The daemon, the engine and the CLI never include it
// (cuzk/backend/testing.hpp has the CUDA backend's hooks).
#pragma once

namespace cuzk::gpu::ntt {

// How natural -> natural transforms from 2^11 on (Impl::kFast, not compute_h's quotient) put
// their elements through the bit reversal, for the whole process:
//   kGatheringFirstPass (the default): DIT passes, the first reading its input in
//     bit-reversed order into a scratch buffer of n elements;
//   kBitReversalPass: a bit-reversal pass in place, then the DIT passes in place (also the
//     fallback of kGatheringFirstPass when the buffer cannot be had, which is why the tests
//     run it).
// Both methods give the same result.
enum class Reorder { kBitReversalPass, kGatheringFirstPass };
void set_reorder(Reorder how);
Reorder reorder();

}  // namespace cuzk::gpu::ntt
