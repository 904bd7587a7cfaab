// Multi-scalar multiplication on the CPU: sum_i k_i * P_i for G1 and G2.
//
// The shape Groth16 needs (bellperson's multiexp): the scalars are the full assignment,
// and an optional density bitmap says which of them have a base (the query arrays hold
// points only for variables that occur in that matrix). Scalars split three ways:
//   0  -> skipped;
//   1  -> the bases are summed by batch-affine addition (Montgomery's trick: ~6 field
//         multiplies an addition instead of ~10 for a mixed XYZZ addition);
//   else -> Pippenger with signed digits; buckets are affine, updated by batch-affine
//         additions (one inversion per 256 updates), with an XYZZ overflow for a
//         bucket already updated in the current batch; multi-threaded over (window,
//         chunk of points) tasks. Measured on the dev machine, 1 thread, G1: 2^16
//         598 -> 505 ms and 2^18 2198 -> 1817 ms against XYZZ buckets alone.
// Most Filecoin scalars are 0 or 1 (bits of SHA-256 and Merkle paths), so the split pays.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ff/bls12_381.hpp"

namespace cuzk {

struct MsmStats {
    size_t zeros = 0;  // scalars equal to 0 (or without a base)
    size_t ones = 0;   // scalars equal to 1, summed by batch-affine addition
    size_t full = 0;   // other scalars, through Pippenger
    unsigned window_bits = 0;
    unsigned windows = 0;
    size_t chunks = 0;  // point chunks per window (parallel tasks = windows * chunks)
};

struct MsmOptions {
    // Bit i of density[i / 64] says whether scalar i has a base. With a density, bases
    // holds exactly popcount(density over scalars.size()) points, in order; without one,
    // bases and scalars have the same length.
    const uint64_t* density = nullptr;
    // 0 picks the window size from the cost model (msm_window_bits).
    unsigned window_bits = 0;
    MsmStats* stats = nullptr;
};

// Throws std::invalid_argument when the lengths do not match (naming both).
template <class Curve>
Jacobian<Curve> msm(std::span<const Affine<Curve>> bases, std::span<const Fr> scalars, const MsmOptions& opt = {});

inline G1Jacobian msm_g1(std::span<const G1Affine> bases, std::span<const Fr> scalars, const MsmOptions& opt = {}) {
    return msm<G1Curve>(bases, scalars, opt);
}
inline G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars, const MsmOptions& opt = {}) {
    return msm<G2Curve>(bases, scalars, opt);
}

// Sum of the given affine points by batch-affine addition (pairwise rounds, one batch
// inversion a round), multi-threaded over chunks. Points at infinity are allowed.
template <class Curve>
Jacobian<Curve> sum_affine(std::span<const Affine<Curve>> points);

// Window size (bits) minimising the estimated cost of n mixed additions a window plus
// the bucket reduction (two full additions a bucket) with `tasks_per_window` chunks.
unsigned msm_window_bits(size_t n, size_t tasks_per_window);

}  // namespace cuzk
