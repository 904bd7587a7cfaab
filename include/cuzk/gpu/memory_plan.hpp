// How the CUDA backend spends a device-memory budget on its MSMs (host code only, so that
// the rules are tested without a GPU; src/backend/cuda/cuda_backend.cu applies them).
//
// A proof's device memory: the a, b, c scratch of its domain (3 x 32 B x m: 12 GiB at a 32
// GiB PoRep partition's 2^27; two vectors, 8 GiB, on a small budget: h_step_vectors) and the
// NTT's twiddle pairs (32 B x m: 4 GiB) are fixed; what
// is left goes to the MSMs: resident base sets where they fit, and the per-run scratch
// (sort entries, bucket sets, classification, sums) and the two chunk buffers of the
// streamed sets, which grow with the sizes run unless capped. Uncapped, the MSM scratch of a
// 32 GiB partition was ~15 GB and every streamed set held two chunk buffers of its own, so a
// sector needed ~47 GiB with every set streamed. The caps below keep them to about four
// fifths of what the MSMs may use.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace cuzk::gpu {

// Caps on what the runs over one MSM scratch may take (0: no cap). sort_entries: (bucket,
// base) pairs sorted at once; window groups shrink to fit, never below one window of a
// run's full scalars. bucket_bytes: the bucket sets of a run without a precomputed table;
// the window size shrinks until they fit (down to kMinCappedWindowBits).
struct MsmScratchLimits {
    size_t sort_entries = 0;
    size_t bucket_bytes = 0;
};
inline constexpr unsigned kMinCappedWindowBits = 4;

struct MsmMemoryPlan {
    MsmScratchLimits limits;
    size_t chunk_bytes = 0;  // each of the two chunk buffers that every streamed set shares
};

// Device bytes a sort entry takes: keys and values, double-buffered (16 B), and CUB's
// scratch, on the high side (8 B).
inline constexpr size_t kSortEntryBytes = 24;
// The sort's cap without a budget (4 GiB of keys and values).
inline constexpr size_t kMaxSortEntries = size_t(1) << 28;
inline constexpr size_t kMinSortEntries = size_t(1) << 20;

// The plan for `avail` bytes that the MSMs may use (free device memory within the budget,
// plus what their scratch and chunk buffers hold already, less a reserve): a fifth each for
// the sort (a power of two of entries, 2^20 to 2^28), the bucket sets and the two chunk
// buffers; the rest is the classification (~74 B a scalar of a chunk: about 0.8 of a G1
// chunk's bytes) and the sums (~0.5 GB of G1 and ~1 GB of G2 points on an H200's 132
// multiprocessors). With 30 GiB or more the sort keeps its 2^28 and the buckets are larger
// than any run asks, so a large card's runs are as before; its chunks (a set streamed under
// CUZK_GPU_MEMORY) are about what they were (two in a quarter of the free memory).
inline MsmMemoryPlan plan_msm_memory(size_t avail) {
    MsmMemoryPlan p;
    const size_t fifth = avail / 5;
    p.limits.sort_entries =
        std::clamp(std::bit_floor(std::max<size_t>(fifth / kSortEntryBytes, 1)), kMinSortEntries, kMaxSortEntries);
    p.limits.bucket_bytes = std::max<size_t>(fifth, 1);
    p.chunk_bytes = fifth / 2;
    return p;
}

// Device bytes the fixed part of an H step takes for a domain of m: `vectors` vectors of m
// values (32 B each; 3: a, b and c at once, 2: c copied after the quotient, where b was),
// the NTT's table of twiddle pairs (m / 2 + 1 pairs of 64 B, counted as 32 B x m: the 8 MiB
// covers the one pair more) and the coset shifts' power tables (8 MiB). At 2^27 (a 32 GiB
// PoRep partition): 16 GiB with three vectors, 12 GiB with two.
inline constexpr size_t h_step_fixed_bytes(size_t m, unsigned vectors = 3) {
    return vectors * 32 * m + 32 * m + (size_t(8) << 20);
}

// How many of a, b, c an H step of domain m keeps on the device at once, given the budget's
// total and what of it the backend may use now (free memory plus what its own scratch
// holds): three while that leaves the MSMs at least as much again as the three take (at
// 2^27: 32 GiB + 16 MiB available, a 48 GB card), else two, c copied in after the quotient
// has read b; 0 when not even two fit the budget's total (the backend refuses the proof by
// name). Three save ~41 ms an H step at 2^27 (c's copy under a's and b's transforms, and a
// later proof's c copied ahead), but the 4 GiB they take are worth more to the MSMs' sorts
// and chunks on a small card: the H200 held to 24 GiB proved a 32 GiB sector in 24.7 s with
// two against 26.5 s with three, to 32 GiB 22.5 against 24.5 s (two leave room to keep B_G1
// resident), to 48 GiB 20.8 s either way (at 16 GiB, two: 29.6 s).
inline constexpr unsigned h_step_vectors(size_t m, size_t total, size_t avail) {
    if (total < h_step_fixed_bytes(m, 2)) return 0;
    const size_t three = h_step_fixed_bytes(m, 3);
    return total >= three && avail >= 2 * three ? 3 : 2;
}

// Whether the H steps of domain m lend their twiddle table (32 B x m: 4 GiB at 2^27) to the
// MSMs until the next H step (the table is built again then: ~20 ms an H step at 2^27), given
// what the backend may use (as for h_step_vectors): below twice the two-vector step's need (24
// GiB + 16 MiB at 2^27, so 24 GB cards and smaller), where the MSMs' scratch is short. H200,
// a 32 GiB sector side by side, kept -> lent (two runs): 15 GiB 33.6-33.9 ->
// 26.0-26.3 s, 24 GiB 24.3 -> 23.9-24.3 s, 32 GiB 22.3 -> 22.5 s (there the rebuild costs
// more than the room gains).
inline constexpr bool lend_twiddles(size_t m, size_t avail) { return avail < 2 * h_step_fixed_bytes(m, 2); }

// The base sets of one proof (H, L, A, B_G1, B_G2), as the residency plan sees them.
struct BaseSetNeed {
    size_t bases = 0;       // points in the set
    size_t bytes = 0;       // their device bytes
    bool g2 = false;        // G2 points (B_G2)
    bool resident = false;  // on the device already: kept, and its bytes are spent
};

// Which of a proof's base sets to keep resident on a device that cannot hold them all: in
// the order of what keeping them saves a proof per byte, each taken while it fits in what is
// left (fits(i, free): set i's bases plus the run scratch it may add, with `free` bytes
// left). The order is fewer bases first, G2 before G1 at equal count. On a 32 GiB PoRep
// partition (H200, streamed against resident, ms a proof per GB of bases): L,
// A, B_G2 and B_G1 save ~30 each (369, 372, 190, ~95 ms), H 14 (184 ms: its full scalars
// over 2^27 bases run long enough to hide most of its copies), so H goes last, and a
// small set first leaves the most room for the next. Before, the sets went resident first
// come in the prover's order H, L, A, B_G1, B_G2: a 40 GiB budget kept B_G1 (22.6 s a
// sector) where the plan keeps B_G2 (21.7 s); 64 GiB kept B_G1, L, H (18.7 s, 63.7 GiB in
// use) where the plan keeps B_G1, A, B_G2 (18.5 s, 58.6 GiB); 32 and 48 GiB keep the same.
// Returns a mask over `sets`; sets already resident are in it and cost nothing.
template <class Fits>
std::vector<bool> choose_resident_sets(std::span<const BaseSetNeed> sets, size_t free, Fits&& fits) {
    std::vector<size_t> order(sets.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
        if (sets[x].bases != sets[y].bases) return sets[x].bases < sets[y].bases;
        return sets[x].g2 && !sets[y].g2;
    });
    std::vector<bool> keep(sets.size(), false);
    for (size_t i : order) {
        if (sets[i].resident) {
            keep[i] = true;
        } else if (sets[i].bytes <= free && fits(i, free)) {
            keep[i] = true;
            free -= sets[i].bytes;
        }
    }
    return keep;
}

// A size as CUZK_GPU_MEMORY and the benchmarks' --device-memory take it: a positive count of
// bytes with an optional binary suffix K, M, G or T (either case: 24G = 24 GiB); nullopt for
// anything else (empty, zero, a sign, another suffix, an overflow).
inline std::optional<size_t> parse_byte_size(std::string_view v) {
    size_t i = 0, n = 0;
    for (; i < v.size() && v[i] >= '0' && v[i] <= '9'; ++i) {
        if (n > (~size_t(0) - 9) / 10) return std::nullopt;
        n = n * 10 + size_t(v[i] - '0');
    }
    if (i == 0 || n == 0) return std::nullopt;
    unsigned shift = 0;
    if (i < v.size()) {
        if (i + 1 != v.size()) return std::nullopt;
        constexpr std::string_view kUnits = "KMGT";
        const char u = v[i] >= 'a' && v[i] <= 'z' ? char(v[i] - 'a' + 'A') : v[i];
        const size_t k = kUnits.find(u);
        if (k == std::string_view::npos) return std::nullopt;
        shift = 10 * unsigned(k + 1);
    }
    if (shift && (n >> (8 * sizeof(size_t) - 1 - shift)) != 0) return std::nullopt;
    return n << shift;
}

}  // namespace cuzk::gpu
