// The CUDA prover backend and backend selection.
//
// make_cuda_backend: H on the device (gpu::ntt::compute_h) and every MSM on the device
// (gpu::Msm), with each query's bases uploaded once and kept resident, keyed by the
// span the prover passes (the Parameters' vectors), so a second proof with the same
// parameters uploads nothing but scalars.
//
// select_backend("cpu" | "cuda" | "auto"): "auto" takes CUDA when the build has it, a
// GPU is present and CUZK_NO_GPU is unset, else the CPU; `why` says which and why (the
// reason for a fallback), for the caller to log. "cuda" without a usable GPU throws.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "cuzk/groth16/backend.hpp"

namespace cuzk::gpu {

// A base set (G1 or G2) gets a precomputed table of shifted bases (gpu::Msm::precompute) after
// its second MSM with at least 2^18 full scalars, where a quarter of the card's memory
// stays free beside it. CUZK_GPU_TABLES=0 turns that off, CUZK_GPU_TABLES=<n> sets the count
// (std::invalid_argument from make_cuda_backend for anything else).
std::unique_ptr<groth16::ProverBackend> make_cuda_backend(int device = 0);
// BN254's MSMs (a circom key on snarkjs' bn128) on a device: gpu::MsmBn254G1 / G2, the
// bases uploaded per MSM (a CUDA backend's bn254_msm()). Throws without CUDA.
std::unique_ptr<groth16::ZkeyMsm<groth16::Bn254>> make_cuda_bn254_msm(int device = 0);
// Copies ahead (page-locked host memory only, no device memory beyond the H scratch):
// h_msm copies the proof's z under the H MSM, and copy_abc_ahead a later proof's a and c
// while this proof's other MSMs run (its h_msm then copies only b, under a's transforms);
// CUZK_GPU_COPY_AHEAD=0 turns both off (read by make_cuda_backend; std::invalid_argument for
// anything but 0 / 1). Counts of a CUDA backend (0 for any other backend): msm_z calls that
// found their z on the device, h_msm calls that started on a and c copied ahead.
struct CopyAheadStats {
    size_t z = 0, abc = 0;
};
CopyAheadStats copy_ahead_stats(groth16::ProverBackend& backend);

// Where a CUDA backend keeps its base sets (zeros for any other backend). A set whose
// bases (plus the MSM scratch a run over it may add) do not fit on the device, after
// dropping resident sets that the proof under way does not use, stays in host memory and is
// streamed through the device in chunks (gpu::Msm::Streamed), the next chunk's copy under
// the current chunk's kernels. CUZK_GPU_MEMORY=<bytes>[K|M|G|T] (binary units) makes the
// backend plan as if the card had that much memory (to share a card, or to see what a
// smaller one would do); read by make_cuda_backend, std::invalid_argument for anything but
// a positive size.
// h_vectors: how many of a, b, c the last H step kept on the device at once (0 before the
// first): 3, or 2 where the budget is small (c copied in after the quotient of a and b, where
// b was: 8 instead of 12 GiB at a 32 GiB PoRep partition's 2^27, so that a 16 GB card proves
// it; c's copy is then no longer under a's and b's transforms, and a later proof gets only a
// copied ahead). Decided per domain size at its first H step (cuzk/gpu/memory_plan.hpp's
// h_step_vectors); CUZK_GPU_H_VECTORS=2|3 forces it (read by make_cuda_backend,
// std::invalid_argument for anything else), as does set_h_step_vectors (0: by the budget).
struct ResidencyStats {
    size_t resident_sets = 0, streamed_sets = 0;  // now
    size_t evictions = 0;                         // resident sets dropped to make room, so far
    size_t memory_limit = 0;                      // CUZK_GPU_MEMORY, 0: the whole card
    unsigned h_vectors = 0;                       // of the last H step
    size_t twiddles_lent = 0;                     // bytes of the H step's twiddles lent to the MSMs now
};
ResidencyStats residency_stats(groth16::ProverBackend& backend);
// The base sets a CUDA backend holds, resident or streamed (empty for any other backend), in
// no particular order. Which a proof keeps resident when not all fit is chosen with the
// proof's five sets in view, the most worth per byte first (memory_plan.hpp's
// choose_resident_sets): on a 32 GiB PoRep partition B_G2, B_G1, A, L, then H (whose long
// kernels hide most of its copies).
struct BaseSetState {
    size_t bases = 0;
    bool g2 = false;
    bool resident = false;  // on the device; else streamed from host memory
    bool planned = false;   // the last plan that covered it said resident (what resident follows)
    // Resident: its device bytes (a precomputed table included); streamed: what each run over
    // it copies to the device (its bases' device bytes).
    size_t bytes = 0;
};
std::vector<BaseSetState> base_set_states(groth16::ProverBackend& backend);
void set_h_step_vectors(groth16::ProverBackend& backend, unsigned k);
// Twiddles lent (memory_plan.hpp's lend_twiddles, decided per domain size with h_vectors): on
// a small budget (24 GB cards and smaller at 2^27), the NTT's twiddle table
// of an H step (4 GiB at 2^27) is released once the step is done and built again (a few ms)
// before the next, so that the MSMs in between have its memory for their scratch (the MSM
// scratch is released to make room for it when the free memory is short); base sets and
// tables never take those bytes. CUZK_GPU_LEND_TWIDDLES=1|0 forces it (read by
// make_cuda_backend, std::invalid_argument for anything else), as does set_twiddle_lending
// (cuzk/gpu/testing.hpp), from the next H step on.

std::unique_ptr<groth16::ProverBackend> select_backend(const std::string& name, std::string* why = nullptr);
// Throws std::invalid_argument for a name select_backend does not know (before any work).
void check_backend_name(const std::string& name);

}  // namespace cuzk::gpu
