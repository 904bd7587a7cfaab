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
// Pipeline on the device (src/gpu/msm.cu says why each step is shaped as it is):
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
    // Batch-affine pairing rounds before the bucket accumulation (G1 only; src/gpu/msm.cu):
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
    // four for the whole (src/gpu/msm.cu, partitioned_base_entries_kernel). Off: one sort.
    bool partition_sort = true;
    // The full scalars and their base indices compacted in place (CUB's in-place
    // DeviceSelect::Flagged) rather than into second n-entry buffers (36 B a scalar: 4.7 GB
    // at a 32 GiB partition's 130M). Off: the copies, kept for side-by-side benchmarks.
    bool compact_in_place = true;
};
// A round's inversion (~540 multiplications) is shared by a thread's batch: below ~200
// pairs it costs more than the XYZZ additions it replaces save.
inline constexpr size_t kMinAffineBatch = 192;
inline constexpr size_t kMaxAffineBatch = 1024;

// Window size for m full scalars on the device: minimises W(c) * (m + w * 2^(c-1) + 2^14)
// over c in [4, kMaxWindowBits], W(c) = ceil(257 / c) windows. The 2^(c-1) term is the bucket
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
unsigned gpu_msm_window_bits(size_t m);  // defined below
// Largest window of the plain path (GpuMsmOptions::window_bits, the rule above): 12 bucket
// sets of 2^21 at 22 bits (4.8 GB of G1 buckets, 9.7 GB of G2).
inline constexpr unsigned kMaxWindowBits = 22;
// Window size with a precomputed table (Msm::precompute): every window shares one set of
// 2^(c-1) buckets, so the reduction is paid once: minimises W(c) * (m + 2^14) +
// w * 2^(c-1) over c in [4, 26] (w as above). m = 2^20 -> 18, 2^22 -> 20, 2^24 -> 22,
// 2^26 -> 24.
unsigned gpu_msm_precomputed_window_bits(size_t m);  // defined below

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
// (gpu_msm_precomputed_window_bits).
msm_detail::TableBase gpu_msm_precomputed_table(size_t m, bool any_base = true);  // defined below
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

template <class Curve>
class Msm {
 public:
    using AffinePoint = Affine<Curve>;
    using Result = Jacobian<Curve>;

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
    Result run(std::span<const Fr> scalars, const GpuMsmOptions& opt = {});
    // Same with n scalars (Montgomery form, as Fr stores them) already on the device.
    Result run_device(const Fr* device_scalars, size_t n, const GpuMsmOptions& opt = {});

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

namespace msm_detail {
// The per-element logic of the device pipeline, CUZK_HD so that the kernels and the
// host self-check (tests/gpu/test_gpu_msm.cpp emulates the whole pipeline on the CPU
// with these functions) run the same code.

// Marks a sorted entry whose digit is 0: it is carried through the sort but adds nothing.
inline constexpr uint32_t kSkip = 0xffffffffu;
// Bases are addressed by 31 bits; the top bit of an entry is the digit's sign.
inline constexpr uint64_t kMaxBases = (uint64_t(1) << 31) - 1;

// Number of windows for c-bit digits of k + H (k < 2^255): ceil(257 / c) (see recode in
// src/msm/msm.cpp: W c >= 257 makes k + H fit in W windows).
CUZK_HD inline unsigned num_windows(unsigned c) { return (257 + c - 1) / c; }

// H = sum_j 2^(c-1) 2^(jc) over the W windows; the j-th c-bit window of k + H minus
// 2^(c-1) is the signed digit d_j in [-2^(c-1), 2^(c-1) - 1], k = sum_j d_j 2^(jc).
inline BigInt<5> recode_offset(unsigned c) {
    BigInt<5> h = BigInt<5>::zero();
    for (unsigned j = 0; j < num_windows(c); ++j) {
        size_t bit = size_t(j) * c + (c - 1);
        h.l[bit / 64] |= uint64_t(1) << (bit % 64);
    }
    return h;
}

// Signed digit of window w of the canonical scalar k.
CUZK_HD inline int32_t digit(const BigInt<4>& k, const BigInt<5>& h, unsigned w, unsigned c) {
    BigInt<5> kk, r;
    for (size_t i = 0; i < 4; ++i) kk.l[i] = k.l[i];
    kk.l[4] = 0;
    BigInt<5>::add(r, kk, h);
    return int32_t(r.bits(size_t(w) * c, c)) - int32_t(uint32_t(1) << (c - 1));
}

// The same digits, window w = 0, 1, ... in turn (next() is digit(k, h, w, c) for the next
// w), with k + h made once and shifted right c bits a window: every limb is read at a fixed
// index, so the device keeps the number in registers. BigInt::bits indexes its limbs at run
// time, which puts the number in local memory, and so did limbs picked by selects (nvcc
// turned them back into an indexed load). The table's sort in groups (src/gpu/msm.cu)
// takes every window's digit twice.
struct DigitWalker {
    BigInt<5> r;
    unsigned c;
    CUZK_HD DigitWalker(const BigInt<4>& k, const BigInt<5>& h, unsigned window_bits) : c(window_bits) {
        BigInt<5> kk;
        for (size_t i = 0; i < 4; ++i) kk.l[i] = k.l[i];
        kk.l[4] = 0;
        BigInt<5>::add(r, kk, h);
    }
    CUZK_HD int32_t next() {  // 2 <= c <= 63
        const int32_t d = int32_t(uint32_t(r.l[0] & ((uint64_t(1) << c) - 1))) - int32_t(uint32_t(1) << (c - 1));
        CUZK_UNROLL
        for (unsigned i = 0; i < 4; ++i) r.l[i] = (r.l[i] >> c) | (r.l[i + 1] << (64 - c));
        r.l[4] >>= c;
        return d;
    }
};

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

// The signed base-B digits of a canonical scalar k < r, window 0 first (next()): |k| made
// at most (r - 1) / 2 by taking r - k with every digit's sign flipped, then per window
// d = k mod B, k = k div B, and d > B / 2 borrows B from the next window. Eight 32-bit
// limbs at fixed indices (registers, as DigitWalker); k div m by a multiply-high with
// ceil(2^64 / m), exact here: the numerators stay below m 2^32 < 2^40 and the error term
// below 2^-24 < 1 / m.
struct BaseDigitWalker {
    uint32_t k[8];
    uint32_t odd;
    unsigned shift;
    uint64_t inv;  // ceil(2^64 / m)
    bool negate;
    CUZK_HD BaseDigitWalker(const BigInt<4>& scalar, const BigInt<4>& r, uint32_t m, unsigned s)
        : odd(m), shift(s), inv(~uint64_t(0) / m + 1) {
        BigInt<4> half = r;  // (r - 1) / 2
        for (size_t i = 0; i < 4; ++i) half.l[i] = (r.l[i] >> 1) | (i + 1 < 4 ? r.l[i + 1] << 63 : 0);
        BigInt<4> v = scalar;
        negate = half < scalar;
        if (negate) BigInt<4>::sub(v, r, scalar);
        CUZK_UNROLL
        for (size_t i = 0; i < 4; ++i) {
            k[2 * i] = uint32_t(v.l[i]);
            k[2 * i + 1] = uint32_t(v.l[i] >> 32);
        }
    }
    CUZK_HD static uint64_t mulhi(uint64_t a, uint64_t b) {
#if CUZK_IN_DEVICE
        return __umul64hi(a, b);
#else
        return uint64_t(((unsigned __int128)a * b) >> 64);
#endif
    }
    CUZK_HD int32_t next() {
        // low s bits, then k >>= s (s <= 30)
        const uint32_t low = k[0] & ((1u << shift) - 1);
        CUZK_UNROLL
        for (unsigned i = 0; i < 7; ++i) k[i] = (k[i] >> shift) | (k[i + 1] << (32 - shift));
        k[7] >>= shift;
        // k div m, top limb first
        uint64_t rem = 0;
        CUZK_UNROLL
        for (unsigned i = 8; i-- > 0;) {
            const uint64_t cur = (rem << 32) | k[i];
            const uint64_t q = mulhi(cur, inv);
            rem = cur - q * odd;
            k[i] = uint32_t(q);
        }
        const uint32_t B = odd << shift;
        uint32_t d = (uint32_t(rem) << shift) | low;  // k mod B
        int32_t digit = int32_t(d);
        if (d > B / 2) {
            digit = int32_t(d) - int32_t(B);
            uint32_t carry = 1;  // k += 1
            CUZK_UNROLL
            for (unsigned i = 0; i < 8; ++i) {
                const uint32_t t = k[i] + carry;
                carry = carry && t == 0 ? 1u : 0u;
                k[i] = t;
            }
        }
        return negate ? -digit : digit;
    }
};

// Sort key and value of (window-in-group wl, digit d, base index): buckets are numbered
// |d| in 0..2^(c-1) within a window, (2^(c-1) + 1) per window, so one sort orders a whole
// group of windows; bucket |d| = 0 collects the skipped entries.
struct Entry {
    uint32_t key, val;
};
CUZK_HD inline Entry make_entry(unsigned wl, int32_t d, uint32_t base, unsigned c) {
    const uint32_t per_window = (uint32_t(1) << (c - 1)) + 1;
    if (d == 0) return {wl * per_window, kSkip};
    const uint32_t mag = uint32_t(d < 0 ? -d : d);
    return {wl * per_window + mag, base | (d < 0 ? 0x80000000u : 0u)};
}

// Index of the base of scalar i through a density bitmap, given the exclusive prefix
// popcounts of its 64-bit words.
CUZK_HD inline uint32_t base_index(const uint64_t* density, const uint32_t* word_prefix, size_t i) {
    const uint64_t below = density[i / 64] & ((uint64_t(1) << (i % 64)) - 1);
#if CUZK_IN_DEVICE
    return word_prefix[i / 64] + uint32_t(__popcll(below));
#else
    return word_prefix[i / 64] + uint32_t(__builtin_popcountll(below));
#endif
}

// Segments of equal length over `len` sorted entries: at least min_len long, about
// target_threads of them.
struct SegmentPlan {
    size_t seg_len = 1;
    size_t segments = 0;
};
inline SegmentPlan plan_segments(size_t len, size_t target_threads, size_t min_len) {
    SegmentPlan p;
    if (len == 0) return p;
    p.seg_len = (len + target_threads - 1) / target_threads;
    if (p.seg_len < min_len) p.seg_len = min_len;
    p.segments = (len + p.seg_len - 1) / p.seg_len;
    return p;
}

// Sums the runs of equal keys in the sorted entries [begin, end) of one segment. Runs
// strictly inside the segment belong to no other segment: their sum goes straight to
// buckets[key]. The first and the last run may continue in the neighbours: they go to
// carry slots 2s and 2s+1 (a segment of one run puts it first and the identity last,
// with the same key, so that the carry keys stay sorted). load(i) returns entry i's data
// (say, the base gathered from memory), apply(item, acc) adds it. Entry i + 1's load is
// issued before entry i's addition, so that its latency overlaps that addition instead
// of stalling the next one. store(acc) is what a finished run writes (KeepPoint: acc
// itself; an accumulator in a redundant form writes its canonical form).
struct KeepPoint {
    template <class P>
    CUZK_HD_INLINE const P& operator()(const P& p) const {
        return p;
    }
};
template <class P, class KeyAt, class Load, class Apply, class Store = KeepPoint>
CUZK_HD void accumulate_segment_pipelined(size_t begin, size_t end, size_t s, KeyAt key_at, Load load, Apply apply,
                                          P* buckets, uint32_t* carry_key, P* carry_pt, Store store = {}) {
    uint32_t cur = key_at(begin);
    P acc = P::identity();
    bool first = true;
    auto next = load(begin);
    uint32_t next_key = cur;
    for (size_t i = begin; i < end; ++i) {
        const auto item = next;
        const uint32_t k = next_key;
        if (i + 1 < end) {
            next = load(i + 1);
            next_key = key_at(i + 1);
        }
        if (k != cur) {
            if (first) {
                carry_key[2 * s] = cur;
                carry_pt[2 * s] = store(acc);
                first = false;
            } else {
                buckets[cur] = store(acc);
            }
            cur = k;
            acc = P::identity();
        }
        apply(item, acc);
    }
    if (first) {
        carry_key[2 * s] = cur;
        carry_pt[2 * s] = store(acc);
        carry_key[2 * s + 1] = cur;
        carry_pt[2 * s + 1] = P::identity();
    } else {
        carry_key[2 * s + 1] = cur;
        carry_pt[2 * s + 1] = store(acc);
    }
}

// The same where add(i, acc) loads and adds entry i in one step (the loaded item is the
// index). A functor, not a lambda: see accumulate_bases_kernel in src/gpu/msm.cu.
struct IndexItem {
    CUZK_HD_INLINE size_t operator()(size_t i) const { return i; }
};
template <class P, class KeyAt, class Add, class Store = KeepPoint>
CUZK_HD void accumulate_segment(size_t begin, size_t end, size_t s, KeyAt key_at, Add add, P* buckets,
                                uint32_t* carry_key, P* carry_pt, Store store = {}) {
    accumulate_segment_pipelined<P>(begin, end, s, key_at, IndexItem{}, add, buckets, carry_key, carry_pt, store);
}

// Last combining step over few sorted carries: the first carry of each key sums its run.
template <class P>
CUZK_HD void combine_head(size_t t, size_t len, const uint32_t* key, const P* pt, P* buckets) {
    if (t > 0 && key[t - 1] == key[t]) return;
    P acc = pt[t];
    for (size_t u = t + 1; u < len && key[u] == key[t]; ++u) acc += pt[u];
    buckets[key[t]] = acc;
}

// k * p for a small k by double-and-add from the top bit. A call of its own on the
// device: inlined in reduce_range, its point and the caller's two running sums were live
// at once, which spilled inside the loops (G1 reduce_ranges: 312 B of spill stores ->
// none, the argument is written to local memory once instead).
#if defined(__CUDA_ARCH__)
#define CUZK_MSM_NOINLINE_ON_DEVICE __noinline__
#else
#define CUZK_MSM_NOINLINE_ON_DEVICE
#endif
template <class P>
CUZK_MSM_NOINLINE_ON_DEVICE CUZK_HD P mul_small(const P& p, uint64_t k) {
    P r = P::identity();
    for (int b = 63; b >= 0; --b) {
        r = r.dbl();
        if ((k >> b) & 1) r += p;
    }
    return r;
}

// sum_{i in [lo, hi)} i * b[i] for buckets b: running sums from the top give
// inner = sum_i (i - lo) b[i] and tot = sum_i b[i]; the range's share is then
// inner + lo * tot. 2 (hi - lo) full additions plus a small scalar multiplication.
// kRedundant: the running sums in the field's redundant form (XYZZ::add_redundant; the
// buckets are canonical), canonical again before mul_small and the result.
template <class P, bool kRedundant = false>
CUZK_HD P reduce_range(const P* b, size_t lo, size_t hi) {
    P running = P::identity(), inner = P::identity();
    for (size_t i = hi; i-- > lo + 1;) {
        if constexpr (kRedundant) {
            running = running.add_redundant(b[i]);
            inner = inner.add_redundant(running);
        } else {
            running += b[i];
            inner += running;
        }
    }
    if constexpr (kRedundant) {
        if (hi > lo) running = running.add_redundant(b[lo]);
        running = running.canonical();
        inner = inner.canonical();
    } else if (hi > lo) {
        running += b[lo];
    }
    if (lo == 0) return inner;
    return inner + mul_small(running, lo);
}

// ---- batch-affine pairing rounds ------------------------------------------------------
// One round halves a bucket-sorted list: slot j holds entries 2j and 2j+1; when their keys
// are equal they become one entry, their affine sum, otherwise both pass through (so the
// output, in slot order, is still sorted). The affine sums of a thread's slots share one
// inversion (Montgomery's trick): 5M + 1S a sum plus the inversion over the batch, against
// 8M + 2S for the XYZZ mixed addition the accumulation would otherwise make.

// Slots of a list of len entries.
CUZK_HD inline size_t pair_slots(size_t len) { return (len + 1) / 2; }
// 1 when slot j keeps both entries (different keys), 0 when it makes one.
CUZK_HD inline uint32_t slot_splits(const uint32_t* key, size_t len, size_t j) {
    return (2 * j + 1 < len && key[2 * j] != key[2 * j + 1]) ? 1u : 0u;
}

// What summing p and q needs: kNone when the sum needs no inversion (either is the
// identity, or q = -p), otherwise d, the value to invert (x_q - x_p, or 2 y_p to double).
enum class PairKind : uint8_t { kNone, kAdd, kDouble };
template <class Curve>
CUZK_HD_INLINE PairKind pair_kind(const Affine<Curve>& p, const Affine<Curve>& q, typename Curve::Field& d) {
    if (p.infinity || q.infinity) return PairKind::kNone;
    if (p.x != q.x) {
        d = q.x - p.x;
        return PairKind::kAdd;
    }
    if (p.y == q.y && !p.y.is_zero()) {
        d = p.y + p.y;
        return PairKind::kDouble;
    }
    return PairKind::kNone;  // q = -p (or a point of order 2 doubled): the identity
}

// One thread's slots first, first + stride, ... of a round over len sorted entries
// (strided, so that a warp's threads read neighbouring slots). pts(i): entry i's affine
// point; pts.x(i, x): only its x (returns whether it is the identity): the first pass
// needs no more. prefix(j): slot j's scratch cell (running products); splits_before[j]:
// exclusive prefix sum of slot_splits, so slot j writes at j + splits_before[j] (one or
// two entries). The first pass reads one slot ahead: it has one multiplication a slot to
// hide the latency of the next slot's reads behind.
template <class Curve, class Points, class Scratch>
CUZK_HD void pair_round(size_t first, size_t stride, size_t len, const uint32_t* key, Points pts, Scratch prefix,
                        const uint32_t* splits_before, uint32_t* out_key, Affine<Curve>* out_pt) {
    using F = typename Curve::Field;
    using A = Affine<Curve>;
    const size_t slots = pair_slots(len);
    F acc = F::one();
    {
        bool same = false, ia = false, ib = false;  // the slot ahead: keys equal, identities
        F xa, xb;
        auto fetch = [&](size_t j) {
            same = 2 * j + 1 < len && key[2 * j] == key[2 * j + 1];
            if (same) {
                ia = pts.x(2 * j, xa);
                ib = pts.x(2 * j + 1, xb);
            }
        };
        if (first < slots) fetch(first);
        for (size_t j = first; j < slots; j += stride) {
            const bool s = same, sa = ia, sb = ib;
            const F ca = xa, cb = xb;
            if (j + stride < slots) fetch(j + stride);
            if (!s || sa || sb) continue;
            F d;
            if (ca != cb) {
                d = cb - ca;
            } else if (pair_kind<Curve>(pts(2 * j), pts(2 * j + 1), d) == PairKind::kNone) {
                continue;
            }
            prefix(j) = acc;
            acc *= d;
        }
    }
    F inv = acc.inverse();  // of the product of every d of the batch (nonzero)
    if (first >= slots) return;
    const size_t last = first + (slots - 1 - first) / stride * stride;
    for (size_t j = last;; j -= stride) {
        const size_t o = j + splits_before[j];
        const uint32_t k0 = key[2 * j];
        if (2 * j + 1 >= len || k0 != key[2 * j + 1]) {
            out_key[o] = k0;
            out_pt[o] = pts(2 * j);
            if (2 * j + 1 < len) {
                out_key[o + 1] = key[2 * j + 1];
                out_pt[o + 1] = pts(2 * j + 1);
            }
        } else {
            const A p = pts(2 * j), q = pts(2 * j + 1);
            F d;
            const PairKind kind = pair_kind<Curve>(p, q, d);
            A r;
            if (kind == PairKind::kNone) {
                r = p.infinity ? q : q.infinity ? p : A::identity();
            } else {
                const F i = inv * prefix(j);  // 1 / d
                inv *= d;                     // now the inverse of the products before j
                F num;
                if (kind == PairKind::kAdd) {
                    num = q.y - p.y;
                } else {
                    const F xx = p.x.square();
                    num = xx + xx + xx;
                }
                const F lambda = num * i;
                r.x = lambda.square() - p.x - q.x;  // doubling: q.x = p.x
                r.y = lambda * (p.x - r.x) - p.y;
                r.infinity = false;
            }
            out_key[o] = k0;
            out_pt[o] = r;
        }
        if (j < first + stride) break;
    }
}
}  // namespace msm_detail

namespace msm_detail {
// The cost of a bucket in the window rules, in mixed additions (see gpu_msm_window_bits).
inline double bucket_weight(size_t m) {
    const double lg = std::log2(double(m) + 1.0);
    return lg <= 20 ? 11.0 : lg >= 22 ? 3.2 : 11.0 - 3.9 * (lg - 20);
}
}  // namespace msm_detail

inline unsigned gpu_msm_window_bits(size_t m) {
    unsigned best = 4;
    double best_cost = 1e300;
    const double w = msm_detail::bucket_weight(m);
    for (unsigned c = 4; c <= kMaxWindowBits; ++c) {
        const double cost = double(msm_detail::num_windows(c)) * (double(m) + w * double(1u << (c - 1)) + 16384.0);
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

inline unsigned gpu_msm_precomputed_window_bits(size_t m) {
    unsigned best = 4;
    double best_cost = 1e300;
    for (unsigned c = 4; c <= 26; ++c) {
        const double cost = msm_detail::table_cost(m, msm_detail::num_windows(c), uint64_t(1) << (c - 1));
        if (cost < best_cost) {
            best_cost = cost;
            best = c;
        }
    }
    return best;
}

inline msm_detail::TableBase gpu_msm_precomputed_table(size_t m, bool any_base) {
    const unsigned c = gpu_msm_precomputed_window_bits(m);
    msm_detail::TableBase best{1, c, msm_detail::num_windows(c)};
    if (!any_base) return best;
    double best_cost = msm_detail::table_cost(m, best.windows, uint64_t(1) << (c - 1));
    for (uint32_t odd = 3; odd <= 255; odd += 2) {
        for (unsigned s = 4; (uint64_t(odd) << s) < (uint64_t(1) << 31); ++s) {
            const msm_detail::TableBase t{odd, s, 0};
            if (t.buckets() > (uint32_t(1) << 25)) break;  // beyond the 25 key bits
            const unsigned W = msm_detail::base_windows(odd, s, Fr::kP);
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
