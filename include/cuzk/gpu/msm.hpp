// Multi-scalar multiplication on the GPU: sum_i k_i * P_i for G1 and G2, with the
// semantics of the CPU msm (cuzk/msm/msm.hpp): an optional density bitmap says which
// scalars have a base (bases then holds only those points, in order); scalars 0 are
// skipped, scalars 1 are summed apart from Pippenger, the rest go through Pippenger with
// signed digits ("k + H" recoding) and XYZZ buckets.
//
// The bases stay resident on the device between calls (the Groth16 parameters are
// uploaded once per circuit): build one Msm per base set and call run() per proof.
//
// Bases that do not fit on the device can stay in host memory instead (Msm::Streamed):
// they pass through the device in chunks, the next chunk's copy under the current one's
// kernels.
//
// Pipeline on the device (src/gpu/msm/msm.cu says why each step is shaped as it is):
//   classify scalars (from Montgomery, 0 / 1 / full, base index through the density)
//   -> compact the 1s and the full scalars (CUB DeviceSelect)
//   -> per group of windows: (bucket, signed point index) pairs, CUB radix sort by bucket,
//      bucket accumulation over equal-length segments of the sorted list with mixed XYZZ
//      additions, segment boundaries combined level by level
//   -> bucket reduction (ranges of buckets by running sums, weighted correction)
//   -> window sums to the host, Horner over windows on the host; the 1s summed by a
//      tree of XYZZ additions.
// Every entry point throws std::runtime_error naming the failing CUDA call, and
// std::invalid_argument for inputs that do not fit (length mismatch, too many bases).
// Built without CUDA, every entry point throws "cuzk was built without CUDA".
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "cuzk/common/hd.hpp"
#include "cuzk/ec/affine.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/ec/jacobian.hpp"
#include "cuzk/ec/xyzz.hpp"
#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/gpu/memory_plan.hpp"
#include "cuzk/msm/msm.hpp"

namespace cuzk::gpu {

// Device time of each phase of one run, in milliseconds (cudaEvent intervals on the
// run's stream, so each phase includes the launch gaps before its kernels). Phases that
// repeat per window group are summed over the groups; `total` runs from the first event
// to the last, which is the sum of the others.
struct GpuMsmPhases {
    float classify = 0;    // density upload, classify, the three compactions, the host sync on the counts
    float ones = 0;        // scalars equal to 1: chunk sums, sum tree, copy of the result
    float sort = 0;        // bucket clearing, entries and radix sort, all window groups
    float pair = 0;        // batch-affine pairing rounds (when they run), all groups
    float accumulate = 0;  // level-1 bucket accumulation (mixed additions), all groups
    float carries = 0;     // carry levels and the final combine, all groups
    float reduce = 0;      // range reduction, sum tree, copy of the window sums
    float total = 0;
};

struct MsmTuning;  // cuzk/gpu/testing.hpp

struct GpuMsmOptions {
    // Bit i of density[i / 64] (host memory) says whether scalar i has a base; see
    // MsmOptions::density.
    const uint64_t* density = nullptr;
    // 0 picks the window size from gpu_msm_window_bits(); otherwise 2..kMaxWindowBits. With a
    // precomputed table (Msm::precompute) the table's window size is used: 0 or that.
    unsigned window_bits = 0;
    // Filled with the split (zeros / ones / full), window bits and windows; `chunks`
    // holds the number of level-1 accumulation segments of the last window group.
    MsmStats* stats = nullptr;
    // When set, filled with device-event times of the phases (GpuMsmPhases). Off by
    // default: without it no event is created or recorded.
    GpuMsmPhases* phases = nullptr;
    // Both sides of choices the MSM makes by itself, for tests and benchmarks
    // (cuzk/gpu/testing.hpp); null: the defaults there.
    const MsmTuning* tuning = nullptr;
};
// A round's inversion (~540 multiplications) is shared by a thread's batch: below ~200
// pairs it costs more than the XYZZ additions it replaces save.
inline constexpr size_t kMinAffineBatch = 192;
inline constexpr size_t kMaxAffineBatch = 1024;

// Window size for m full scalars of scalar_bits bits on the device: minimises
// W(c) * (m + w * 2^(c-1) + 2^14) over c in [4, kMaxWindowBits], W(c) = num_windows(c,
// scalar_bits) windows (BLS12-381 Fr: ceil(257 / c), BN254 Fr: ceil(256 / c)). The 2^(c-1) term is the bucket
// reduction (a running-sum step costs ~2 full additions, ~3 mixed ones, plus the weighted
// correction); 2^14 stands for the fixed cost of a window (launches, sort passes).
// w = 11 up to 2^20 scalars, where the reduction is latency-bound, 3.2 from 2^22 (linear in
// log m between; the sweep below put a bucket at 1.2-1.3 ns against 0.38 ns an addition at
// 2^26-2^27): phase timings on the H200 gave 4.8 ns a bucket at 557K buckets (2^20, c = 16)
// against 2.3 ns at 2M (2^22, c = 18), for 0.43 ns a bucket addition at both. Window sweeps
// there: 2^20 c = 13/14/15/16/17: 12.02/11.96/12.22/12.20/12.30 ms; 2^22 c = 15/16/17/18/19:
// 38.65/37.13/35.94/35.28/35.53 ms; c = 20/21/22: 2^26 374.9/383.4/368.4 ms,
// 2^27 740.3/749.8/708.2 ms (12 windows instead of 13 for 4x the buckets; reduce 9 -> 30 ms).
// So m = 2^20 -> 14, 2^22 -> 18, 2^24 and 2^25 -> 20, 2^26 and 2^27 (the H MSM of a 32 GiB
// PoRep partition) -> 22 (m = 2^16 -> 11: the model, unmeasured).
unsigned gpu_msm_window_bits(size_t m, unsigned scalar_bits = Fr::kBits);  // defined below
// Largest window of the plain path (GpuMsmOptions::window_bits, the rule above): 12 bucket
// sets of 2^21 at 22 bits (4.8 GB of G1 buckets, 9.7 GB of G2).
inline constexpr unsigned kMaxWindowBits = 22;
// Window size with a precomputed table (Msm::precompute): every window shares one set of
// 2^(c-1) buckets, so the reduction is paid once: minimises W(c) * (m + 2^14) +
// w * 2^(c-1) over c in [4, 26] (w as above). m = 2^20 -> 18, 2^22 -> 20, 2^24 -> 22,
// 2^26 -> 24.
unsigned gpu_msm_precomputed_window_bits(size_t m, unsigned scalar_bits = Fr::kBits);  // defined below

// The per-run device buffers of MSMs (classification, sort, buckets, sums; ~42 B a scalar
// plus 2^28 sort entries (4 GiB) and the bucket sets (4.8 GB of G1 at 12 x 2^21) at
// 2^26-2^27 scalars: ~15 GB for a 32 GiB PoRep partition's H, unless capped:
// set_msm_scratch_limits), and the two chunk buffers of streamed sets. Every Msm owns one unless
// given another by use_scratch: Msm objects that share one hold one set of buffers between
// them, the largest any of them needs, instead of one each. Their runs must not overlap (runs are synchronous: one
// thread at a time, or a lock, as the CUDA backend's run_mu_), and they must be on the same device.
class MsmScratch;
namespace msm_detail {
struct TableBase;
}
// The table for m bases when its base may also be m' 2^s (Msm::precompute_base): the same
// cost, W (m + 2^14) + w (B / 2 + 1) over the power-of-two tables above and the bases
// m' 2^s, m' odd in [3, 255], s >= 4, whose buckets take at most 25 key bits (the sort's
// partitioned path). A power of two wins ties. Picks: 2^20 -> 37 2^13, 2^22 -> 151 2^14,
// 2^24 -> 9 2^20 (11 windows, 4.7M buckets, against 12 of 22 bits), 2^26 -> 45 2^20 (10
// windows, 23.6M buckets, against 11 of 24 bits). The model said 4.8 / 3.4 / 4.0 / 2.4% less
// work than the power-of-two tables; the H100 measured 3.1 / 2.2 / 3.9% less
// time at 2^20 / 2^22 / 2^24 (8.76 -> 8.49, 24.74 -> 24.19, 85.1 -> 82.05 ms); 2^26 unmeasured
// (its tables need more than the H100's 78 GiB). any_base false: the power-of-two table
// (gpu_msm_precomputed_window_bits). r: the scalar field's modulus (its bit count sets the
// windows).
msm_detail::TableBase gpu_msm_precomputed_table(size_t m, bool any_base = true,
                                                const BigInt<4>& r = Fr::kP);  // defined below
// Device bytes of the per-run scratch that an MSM over n scalars, all full and with a base,
// may take on a device of `sms` multiprocessors, without a precomputed table
// (table_window_bits 0) or with one of that window size: what a caller keeps free for it
// beside the bases (the CUDA backend's residency decisions). An estimate, on the high side.
// Under `limits` (cuzk/gpu/memory_plan.hpp), the sort and bucket parts are capped as a run
// over a scratch with those limits caps them. `scalars`: how many scalars the runs read,
// when more than n (a density picks n of them: the classification takes ~74 B for each
// scalar read, 9.6 GB for the 130M of a 32 GiB partition's z; the H200 at a 24 GiB budget ran
// out of memory there when the estimate counted the 33M bases of B_G1 instead).
template <class Curve>
size_t msm_run_scratch_bytes(size_t n, int sms, unsigned table_window_bits = 0, const MsmScratchLimits& limits = {},
                             size_t scalars = 0);
// A new, empty scratch (its buffers are allocated by the first runs that use it). Throws
// std::runtime_error in a build without CUDA.
std::shared_ptr<MsmScratch> make_msm_scratch();
// The caps that runs over `scratch` keep to from their next run on (MsmScratchLimits; none
// by default), and the bytes its buffers hold now. Buffers never shrink: a cap lowered after
// a larger run bounds what later runs ask for, not what is held.
void set_msm_scratch_limits(MsmScratch& scratch, const MsmScratchLimits& limits);
MsmScratchLimits msm_scratch_limits(const MsmScratch& scratch);
size_t msm_scratch_bytes(const MsmScratch& scratch);
// Frees every buffer of `scratch` (cudaFree: waits for the whole device); later runs allocate
// them again, growths not counted (Msm::scratch_growths). The CUDA backend gives the memory to
// the H step's twiddle table on a small budget (memory_plan.hpp's lend_twiddles). Call it only
// between runs. Returns the bytes freed.
size_t release_msm_scratch(MsmScratch& scratch);

// Curve: BLS12-381's G1Curve / G2Curve or BN254's bn254::G1Curve / bn254::G2Curve (the
// instantiations in src/gpu/msm/); scalars are the curve's Curve::Scalar (4 limbs).
template <class Curve>
class Msm {
 public:
    using AffinePoint = Affine<Curve>;
    using Result = Jacobian<Curve>;
    using ScalarField = typename Curve::Scalar;
    static_assert(ScalarField::N == 4, "the digit code takes 4-limb scalars");

    // Uploads the bases (host memory) to `device`. Throws std::invalid_argument for
    // 2^31 - 1 or more bases.
    explicit Msm(std::span<const AffinePoint> bases, int device = 0);
    // Copies n bases already on `device` (device pointer), e.g. parameters loaded by
    // another component or generated there.
    struct FromDevice {};
    Msm(FromDevice, const AffinePoint* device_bases, size_t n, int device = 0);
    // Bases that stay in host memory and pass through the device in chunks of at most
    // chunk_bases (two device buffers of that size, the scratch's: shared with the other
    // streamed sets of a shared scratch; the next chunk's copy runs under the current
    // chunk's kernels), for base sets that do not fit on the device. Each chunk is
    // an MSM of its own over the scalars whose bases it holds (with a density, the chunks
    // end on 64-scalar words); the result equals the resident path's. The host bases must
    // stay where they are, unchanged, while this object lives (page-locked memory is copied
    // by DMA straight, pageable memory through two page-locked staging buffers). With
    // page_lock, pageable host bases are page-locked (cudaHostRegister) for the object's
    // lifetime: a one-off cost, then every run copies them at DMA speed; where the driver
    // refuses, the staging buffers serve. Pieces are of about equal size,
    // ceil(bases / chunk_bases) of them. Throws std::invalid_argument for chunk_bases <
    // kMinChunkBases (a density word's 64 bases must fit in one chunk) or 2^31 - 1 or more
    // bases.
    struct Streamed {};
    static constexpr size_t kMinChunkBases = 64;
    Msm(Streamed, std::span<const AffinePoint> host_bases, size_t chunk_bases, int device = 0, bool page_lock = false);
    ~Msm();
    Msm(Msm&&) noexcept;
    Msm& operator=(Msm&&) noexcept;
    Msm(const Msm&) = delete;
    Msm& operator=(const Msm&) = delete;

    size_t size() const;
    int device() const;
    // Bases a chunk holds when streamed (Msm(Streamed, ...)); 0 for resident bases.
    size_t chunk_bases() const;
    // Streamed: whether the host bases are page-locked (copied by DMA straight); resident: false.
    bool host_page_locked() const;

    // Precomputed multiples of the fixed bases: copy w of the table holds 2^(c w) P_i
    // for the W = num_windows(c) windows, so that every window's digits go to one set of
    // buckets: one bucket reduction instead of W, no doublings between windows, and
    // windows wide enough that fewer of them cover the scalar (2^26: 11 windows of 24
    // bits instead of 13 of 20). Costs W times the bases' memory (2^26 G1 bases, c = 24:
    // 11 x 6.5 GiB) and W c doublings a base once. window_bits 0 picks the table
    // gpu_msm_precomputed_table(size()) prefers, which may be of base m 2^s
    // (precompute_base); otherwise 4..26. Replaces an earlier table;
    // throws std::invalid_argument when W x size() does not fit the 31-bit base index and
    // std::runtime_error (naming the size) when the device memory does not hold it;
    // std::invalid_argument for streamed bases (they stay in host memory).
    void precompute(unsigned window_bits = 0);
    // A table of base B = odd 2^shift instead (msm_detail::TableBase: odd in [3, 255] and
    // shift >= 4, B < 2^31): copy w holds B^w P_i, W the fewest windows of signed base-B
    // digits that cover the scalars (msm_detail::base_windows), B / 2 + 1 buckets. Same
    // errors as precompute.
    void precompute_base(uint32_t odd, unsigned shift);
    // The table's window size, 0 without a table (with a base odd 2^s: s).
    unsigned precomputed_window_bits() const;
    // The table's base and windows (odd 1 for 2^c; windows 0 without a table).
    msm_detail::TableBase precomputed_base() const;
    // Device bytes of the bases (with their table when there is one; streamed: the two
    // chunk buffers it uses, which streamed sets sharing a scratch share).
    size_t device_base_bytes() const;
    // Back to the bases alone (frees the table).
    void drop_precomputed();

    // sum_i scalars[i] * base(i), scalars in host memory (copied to the device).
    Result run(std::span<const ScalarField> scalars, const GpuMsmOptions& opt = {});
    // Same with n scalars (Montgomery form, as the field stores them) already on the device.
    Result run_device(const ScalarField* device_scalars, size_t n, const GpuMsmOptions& opt = {});

    // Device scratch buffers the last run reallocated to grow them. Scratch is sized for
    // the most full scalars and 1s the scalar count allows, so after a run with full
    // scalars, later runs over as many scalars with the same window size grow none,
    // whatever their split into 0 / 1 / full (a growth's cudaFree waits for every stream
    // of the device: copies on other streams too).
    size_t scratch_growths() const;

    // Runs from now on use `scratch` (see MsmScratch) instead of the buffers they had; this
    // object's own are freed unless another object shares them. Throws
    // std::invalid_argument for a null scratch or one used on another device.
    void use_scratch(std::shared_ptr<MsmScratch> scratch);
    const std::shared_ptr<MsmScratch>& scratch() const;

 private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

using MsmG1 = Msm<G1Curve>;
using MsmG2 = Msm<G2Curve>;

// One-shot: uploads the bases, runs once, frees.
G1Jacobian msm_g1(std::span<const G1Affine> bases, std::span<const Fr> scalars, const GpuMsmOptions& opt = {});
G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars, const GpuMsmOptions& opt = {});

// BN254 (alt_bn128): the same pipeline over bn254::G1Curve / bn254::G2Curve, windows over
// BN254 Fr's 254 bits.
using MsmBn254G1 = Msm<bn254::G1Curve>;
using MsmBn254G2 = Msm<bn254::G2Curve>;
bn254::G1Jacobian msm_g1(std::span<const bn254::G1Affine> bases, std::span<const bn254::Fr> scalars,
                         const GpuMsmOptions& opt = {});
bn254::G2Jacobian msm_g2(std::span<const bn254::G2Affine> bases, std::span<const bn254::Fr> scalars,
                         const GpuMsmOptions& opt = {});

namespace msm_detail {
// What the window rules below need of the device pipeline's digit arithmetic (the rest of
// it is private to src/gpu/msm: msm_detail.hpp).

// Number of windows for c-bit digits of k + H (k < 2^scalar_bits): ceil((scalar_bits + 2) / c)
// (see recode in src/msm/msm.cpp: W c >= scalar_bits + 2 makes k + H fit in W windows, H <
// 2^(Wc - 1) 2^c / (2^c - 1)). BLS12-381 Fr (255 bits): ceil(257 / c); BN254 Fr: ceil(256 / c).
CUZK_HD inline unsigned num_windows(unsigned c, unsigned scalar_bits = 255) { return (scalar_bits + 2 + c - 1) / c; }

// ---- tables of base B = m 2^s (m odd) --------------------------------------------------
// A precomputed table need not use a power of two: copy w holds B^w P, and scalar k is
// written in W signed base-B digits, |d| <= B / 2, so the one bucket set has B / 2 + 1
// buckets. A base between powers of two trades buckets (reduction) against windows
// (level-1 additions and sort entries) more finely: 2^26 bases, W = 11 takes B >= 2^23.17
// (9 2^20: 4.7M buckets instead of the 8.4M of c = 24), W = 10 B >= 2^25.49 (45 2^20).
// k > (r - 1) / 2 is recoded as -(r - k), so the digits cover |k| <= (r - 1) / 2 only.
struct TableBase {
    uint32_t odd = 1;    // m: 1 for the power-of-two tables (window bits s, num_windows(s))
    unsigned shift = 0;  // s
    unsigned windows = 0;
    uint64_t base() const { return uint64_t(odd) << shift; }
    uint32_t buckets() const { return uint32_t(base() / 2) + 1; }  // |d| = 0 .. B / 2
};

// The fewest windows W for which W signed base-B digits (d in (-B/2, B/2]) cover every
// |k| <= (r - 1) / 2: (B / 2) (B^W - 1) / (B - 1) >= (r - 1) / 2, in exact arithmetic.
// 0 when B is not m 2^s with m odd in [3, 255], s >= 1 and B < 2^31.
inline unsigned base_windows(uint32_t odd, unsigned shift, const BigInt<4>& r) {
    if (odd < 3 || odd > 255 || odd % 2 == 0 || shift < 1 || shift > 30 || (uint64_t(odd) << shift) >= (1ull << 31))
        return 0;
    const uint64_t B = uint64_t(odd) << shift;
    constexpr size_t kL = 12;  // 32-bit limbs, enough for (B / 2) B^W up to 2^340
    using Num = std::array<uint32_t, kL>;
    const auto mul_add = [](Num& a, uint64_t f, uint64_t add) {
        uint64_t carry = add;
        for (uint32_t& x : a) {
            const unsigned __int128 t = (unsigned __int128)x * f + carry;
            x = uint32_t(t);
            carry = uint64_t(t >> 32);
        }
    };
    const auto geq = [](const Num& a, const Num& b) {
        for (size_t i = kL; i-- > 0;)
            if (a[i] != b[i]) return a[i] > b[i];
        return true;
    };
    Num half_r{};  // (r - 1) / 2 (r odd)
    for (size_t i = 0; i < 4; ++i) {
        half_r[2 * i] = uint32_t(r.l[i]);
        half_r[2 * i + 1] = uint32_t(r.l[i] >> 32);
    }
    for (size_t i = 0; i < kL; ++i) half_r[i] = (half_r[i] >> 1) | (i + 1 < kL ? half_r[i + 1] << 31 : 0);
    Num cover{};  // (B / 2) (1 + B + .. + B^(W-1)): Horner, cover = cover B + B / 2
    for (unsigned W = 1; W <= 64; ++W) {
        mul_add(cover, B, B / 2);
        if (geq(cover, half_r)) return W;
    }
    return 0;
}
}  // namespace msm_detail

namespace msm_detail {
// The cost of a bucket in the window rules, in mixed additions (see gpu_msm_window_bits).
inline double bucket_weight(size_t m) {
    const double lg = std::log2(double(m) + 1.0);
    return lg <= 20 ? 11.0 : lg >= 22 ? 3.2 : 11.0 - 3.9 * (lg - 20);
}
}  // namespace msm_detail

inline unsigned gpu_msm_window_bits(size_t m, unsigned scalar_bits) {
    unsigned best = 4;
    double best_cost = 1e300;
    const double w = msm_detail::bucket_weight(m);
    for (unsigned c = 4; c <= kMaxWindowBits; ++c) {
        const double cost =
            double(msm_detail::num_windows(c, scalar_bits)) * (double(m) + w * double(1u << (c - 1)) + 16384.0);
        if (cost < best_cost) {
            best_cost = cost;
            best = c;
        }
    }
    return best;
}

namespace msm_detail {
// The precomputed-table cost of the rules above, in mixed additions.
inline double table_cost(size_t m, unsigned windows, uint64_t buckets) {
    return double(windows) * (double(m) + 16384.0) + bucket_weight(m) * double(buckets);
}
}  // namespace msm_detail

inline unsigned gpu_msm_precomputed_window_bits(size_t m, unsigned scalar_bits) {
    unsigned best = 4;
    double best_cost = 1e300;
    for (unsigned c = 4; c <= 26; ++c) {
        const double cost = msm_detail::table_cost(m, msm_detail::num_windows(c, scalar_bits), uint64_t(1) << (c - 1));
        if (cost < best_cost) {
            best_cost = cost;
            best = c;
        }
    }
    return best;
}

inline msm_detail::TableBase gpu_msm_precomputed_table(size_t m, bool any_base, const BigInt<4>& r) {
    const unsigned bits = unsigned(r.num_bits());
    const unsigned c = gpu_msm_precomputed_window_bits(m, bits);
    msm_detail::TableBase best{1, c, msm_detail::num_windows(c, bits)};
    if (!any_base) return best;
    double best_cost = msm_detail::table_cost(m, best.windows, uint64_t(1) << (c - 1));
    for (uint32_t odd = 3; odd <= 255; odd += 2) {
        for (unsigned s = 4; (uint64_t(odd) << s) < (uint64_t(1) << 31); ++s) {
            const msm_detail::TableBase t{odd, s, 0};
            if (t.buckets() > (uint32_t(1) << 25)) break;  // beyond the 25 key bits
            const unsigned W = msm_detail::base_windows(odd, s, r);
            if (W == 0) continue;
            const double cost = msm_detail::table_cost(m, W, t.buckets());
            if (cost < best_cost) {
                best_cost = cost;
                best = msm_detail::TableBase{odd, s, W};
            }
        }
    }
    return best;
}

}  // namespace cuzk::gpu
