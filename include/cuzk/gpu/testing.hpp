// Test and benchmark hooks of the gpu layer: NOT part of the API an application uses.
//
// Tests and benchmarks include this header to run both sides of a choice the NTT or the MSM
// makes by itself in one process. The daemon, the engine and the CLI never include it
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

namespace cuzk::gpu {

// The MSM's internal choices (GpuMsmOptions::tuning); the defaults are what every run
// without it does.
struct MsmTuning {
    // Batch-affine pairing rounds before the bucket accumulation (G1 only; src/gpu/msm/msm.cu):
    // 0 never (the default: on the H200 they are still slower than the XYZZ accumulation,
    // 0.47 against 0.43 ns an addition), -1 while a thread's batch is at least
    // kMinAffineBatch pairs, r > 0 at most r rounds whatever the size (tests, benchmarks).
    int affine_rounds = 0;
    // Pairs per thread in those rounds; 0 picks slots / (SMs x affine_threads_per_sm), at
    // most kMaxAffineBatch.
    unsigned affine_batch = 0;
    unsigned affine_threads_per_sm = 384;
    // Level 1 over the bases (G1): load the next entry's base before adding the current
    // one, so that the gather's latency overlaps an addition (msm_detail::
    // accumulate_segment_pipelined). Off: load, then add. H200: G1 2^26 391.6 -> 377.8 ms.
    bool level1_prefetch = true;
    // Tables of more than 2^24 buckets (Msm::precompute_base, 25-bit keys): the entries
    // written in two parts by key bit 24, each sorted in three 8-bit passes instead of
    // four for the whole (src/gpu/msm/msm.cu, partitioned_base_entries_kernel). Off: one sort.
    bool partition_sort = true;
    // The full scalars and their base indices compacted in place (CUB's in-place
    // DeviceSelect::Flagged) rather than into second n-entry buffers (36 B a scalar: 4.7 GB
    // at a 32 GiB partition's 130M). Off: the copies, kept for side-by-side benchmarks.
    bool compact_in_place = true;
};

}  // namespace cuzk::gpu
