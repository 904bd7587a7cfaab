// Multi-scalar multiplication on the CPU: sum_i k_i * P_i for G1 and G2.
//
// The shape Groth16 needs (bellperson's multiexp): the scalars are the full assignment,
// and an optional density bitmap says which of them have a base (the query arrays hold
// points only for variables that occur in that matrix). Scalars split three ways:
//   0  -> skipped;
//   1  -> the bases are summed by batch-affine addition (Montgomery's trick: ~6 field
//         multiplies an addition instead of ~10 for a mixed XYZZ addition);
//   else -> GLV split k = lo + hi z (z = x^2, 128-bit halves; [z] P is P's image under
//         the cube-root-of-unity endomorphism, one multiply), then Pippenger over the 2n
//         points with signed digits in windows of mixed widths chosen by a cost model;
//         buckets are affine, updated by batch-affine additions (one inversion per 512
//         updates), with an XYZZ overflow for a bucket already updated in the current
//         batch, and reduced by batch-affine running sums over segments of buckets;
//         multi-threaded over (window, chunk of points) tasks. Dev machine, 1 thread,
//         G1: 2^16 505 -> ~410 ms, 2^18 1817 -> ~1510 ms (blst: 526 / 1802 ms).
// The GLV split assumes the bases lie in the prime-order subgroup (as every Groth16 key
// point does; the decoders check it unless told not to): for other points the result is
// not sum k_i P_i.
// Most Filecoin scalars are 0 or 1 (bits of SHA-256 and Merkle paths), so the split pays.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ff/bls12_381.hpp"

namespace cuzk {

struct MsmStats {
    size_t zeros = 0;          // scalars equal to 0 (or without a base)
    size_t ones = 0;           // scalars equal to 1, summed by batch-affine addition
    size_t full = 0;           // other scalars, through Pippenger
    unsigned window_bits = 0;  // widest window
    unsigned windows = 0;
    size_t chunks = 0;  // point chunks per window (parallel tasks = windows * chunks)
};

struct MsmOptions {
    // Bit i of density[i / 64] says whether scalar i has a base. With a density, bases
    // holds exactly popcount(density over scalars.size()) points, in order; without one,
    // bases and scalars have the same length.
    const uint64_t* density = nullptr;
    // 0 picks the windows from the cost model (msm_detail::plan_windows); otherwise the
    // widest window allowed (2..24), the 129 scalar bits split evenly under it.
    unsigned window_bits = 0;
    MsmStats* stats = nullptr;
};

// Throws std::invalid_argument when the lengths do not match (naming both).
template <class Curve>
Jacobian<Curve> msm(std::span<const Affine<Curve>> bases, std::span<const typename Curve::Scalar> scalars,
                    const MsmOptions& opt = {});

inline G1Jacobian msm_g1(std::span<const G1Affine> bases, std::span<const Fr> scalars, const MsmOptions& opt = {}) {
    return msm<G1Curve>(bases, scalars, opt);
}
inline G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars, const MsmOptions& opt = {}) {
    return msm<G2Curve>(bases, scalars, opt);
}

// BN254 (no GLV split: Pippenger over the full 254-bit scalars, the rest as above).
namespace bn254 {
inline G1Jacobian msm_g1(std::span<const G1Affine> bases, std::span<const Fr> scalars, const MsmOptions& opt = {}) {
    return msm<G1Curve>(bases, scalars, opt);
}
inline G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars, const MsmOptions& opt = {}) {
    return msm<G2Curve>(bases, scalars, opt);
}
}  // namespace bn254

// Sum of the given affine points by batch-affine addition (pairwise rounds, one batch
// inversion a round), multi-threaded over chunks. Points at infinity are allowed.
template <class Curve>
Jacobian<Curve> sum_affine(std::span<const Affine<Curve>> points);

// Internals, exposed for tests.
namespace msm_detail {

// z = x^2 for the BLS parameter x: the GLV split's modulus.
const BigInt<4>& glv_z();
// k = lo + hi z with 0 <= lo, hi < z, for k < r.
void glv_split(const BigInt<4>& k, BigInt<4>& lo, BigInt<4>& hi);

// Windows for Pippenger, bottom first; their widths sum to the recoded scalar's bits.
struct WindowPlan {
    std::vector<unsigned> widths;
    size_t chunks = 1;           // point chunks per window (tasks = windows * chunks)
    uint64_t top_digit_max = 0;  // largest digit of the top window (digits there are >= 0)
};
// Whether the signed recoding k + H (H = sum_j 2^(offset_j + width_j - 1)) fits the
// windows for every k <= kmax, so that each digit (window - 2^(width - 1)) is exact.
bool plan_fits(const std::vector<unsigned>& widths, const BigInt<4>& kmax);
uint64_t top_digit_max(const std::vector<unsigned>& widths, const BigInt<4>& kmax);
// The plan minimising the modelled time of `points` bucket additions a window plus the
// bucket reductions on `threads` threads; max_width = 0 lets the model pick the widths.
WindowPlan plan_windows(size_t points, const BigInt<4>& kmax, unsigned max_width, size_t threads);

}  // namespace msm_detail

}  // namespace cuzk
