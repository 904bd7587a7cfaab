// The device-memory budget rules (cuzk/gpu/memory_plan.hpp): host code, run everywhere.
#include <gtest/gtest.h>

#include <bit>
#include <cstddef>
#include <span>
#include <vector>

#include "cuzk/gpu/memory_plan.hpp"

namespace cuzk::gpu {
namespace {

constexpr size_t kMiB = size_t(1) << 20, kGiB = size_t(1) << 30;

TEST(GpuMemoryPlan, ByteSizes) {
    EXPECT_EQ(parse_byte_size("1"), 1u);
    EXPECT_EQ(parse_byte_size("4096"), 4096u);
    EXPECT_EQ(parse_byte_size("24G"), 24 * kGiB);
    EXPECT_EQ(parse_byte_size("24g"), 24 * kGiB);
    EXPECT_EQ(parse_byte_size("512M"), 512 * kMiB);
    EXPECT_EQ(parse_byte_size("64k"), 64u << 10);
    EXPECT_EQ(parse_byte_size("2T"), size_t(2) << 40);
    EXPECT_EQ(parse_byte_size("8388607T"), size_t(8388607) << 40);  // 2^63 - 2^40: the largest
    for (const char* bad : {"", "0", "0G", "-5", "+5", "G", "12Q", "8GB", "1.5G", " 8G", "8G ", "99999999999999999999",
                            "8388608T", "18446744073709551616"})
        EXPECT_FALSE(parse_byte_size(bad).has_value()) << "'" << bad << "'";
}

TEST(GpuMemoryPlan, FixedPartOfTheHStep) {
    // A 32 GiB PoRep partition's domain: a, b, c (12 GiB), twiddle pairs (4 GiB), powers.
    EXPECT_EQ(h_step_fixed_bytes(size_t(1) << 27), 16 * kGiB + 8 * kMiB);
    EXPECT_EQ(h_step_fixed_bytes(1), 128u + 8 * kMiB);
    EXPECT_EQ(h_step_fixed_bytes(size_t(1) << 27, 2), 12 * kGiB + 8 * kMiB);
}

TEST(GpuMemoryPlan, HStepKeepsThreeVectorsOnlyWithRoomBesideThem) {
    const size_t m = size_t(1) << 27;
    // The budgets that matter for a 32 GiB sector: an 80 or 48 GiB card keeps a, b, c
    // together; a 32 GiB one (RTX 5090, ~31.5 GiB free), a 24 GiB one (measured: two beat
    // three, 24.7 against 26.5 s a sector), 20 or 16 GiB take two; 12 GiB is refused.
    EXPECT_EQ(h_step_vectors(m, 80 * kGiB, 79 * kGiB), 3u);
    EXPECT_EQ(h_step_vectors(m, 48 * kGiB, 47 * kGiB), 3u);
    EXPECT_EQ(h_step_vectors(m, 40 * kGiB, 33 * kGiB), 3u);
    EXPECT_EQ(h_step_vectors(m, 32 * kGiB, 31 * kGiB + 512 * kMiB), 2u);
    EXPECT_EQ(h_step_vectors(m, 24 * kGiB, 24 * kGiB), 2u);
    EXPECT_EQ(h_step_vectors(m, 24 * kGiB, 23 * kGiB + 512 * kMiB), 2u);
    EXPECT_EQ(h_step_vectors(m, 20 * kGiB, 20 * kGiB), 2u);
    EXPECT_EQ(h_step_vectors(m, 16 * kGiB, 15 * kGiB), 2u);
    EXPECT_EQ(h_step_vectors(m, 12 * kGiB + 8 * kMiB, 0), 2u);  // the total decides the refusal
    EXPECT_EQ(h_step_vectors(m, 12 * kGiB + 8 * kMiB - 1, 100 * kGiB), 0u);
    // Plenty available but a total below three vectors (CUZK_GPU_MEMORY under a held card).
    EXPECT_EQ(h_step_vectors(m, 16 * kGiB, 100 * kGiB), 2u);
    // The boundary, at every size: three from twice fixed(3) available on.
    for (size_t k = 0; k <= 27; ++k) {
        const size_t n = size_t(1) << k, three = h_step_fixed_bytes(n, 3);
        SCOPED_TRACE(k);
        EXPECT_EQ(h_step_vectors(n, three, 2 * three), 3u);
        EXPECT_EQ(h_step_vectors(n, three, 2 * three - 1), 2u);
        EXPECT_EQ(h_step_vectors(n, three - 1, ~size_t(0)), 2u);
        EXPECT_EQ(h_step_vectors(n, h_step_fixed_bytes(n, 2) - 1, ~size_t(0)), 0u);
    }
}

TEST(GpuMemoryPlan, TwiddlesLentOnSmallBudgets) {
    // At a 32 GiB partition's 2^27: a 16 GB card (15 GiB free) and a 24 GB one lend, a 32 GB
    // one (RTX 5090) and larger keep the table.
    const size_t m = size_t(1) << 27;
    EXPECT_TRUE(lend_twiddles(m, 15 * kGiB));
    EXPECT_TRUE(lend_twiddles(m, 23 * kGiB + 512 * kMiB));
    EXPECT_TRUE(lend_twiddles(m, 24 * kGiB + 16 * kMiB - 1));
    EXPECT_FALSE(lend_twiddles(m, 24 * kGiB + 16 * kMiB));
    EXPECT_FALSE(lend_twiddles(m, 31 * kGiB));
    EXPECT_FALSE(lend_twiddles(m, 139 * kGiB));
    // Small domains lend only on tiny budgets (CUZK_GPU_MEMORY in the tests).
    EXPECT_TRUE(lend_twiddles(size_t(1) << 12, 16 * kMiB));
    EXPECT_FALSE(lend_twiddles(size_t(1) << 12, 64 * kMiB));
}

// A 32 GiB PoRep partition's base sets (bench/porep_prove.cpp's counts; G1 96 B, G2 192 B
// a point on the device), in the prover's order H, L, A, B_G1, B_G2.
std::vector<BaseSetNeed> porep_32g_sets() {
    const size_t h = 134217727, l = 130169893, a = 129753620, b = 33112282;
    return {{h, 96 * h, false, false},
            {l, 96 * l, false, false},
            {a, 96 * a, false, false},
            {b, 96 * b, false, false},
            {b, 192 * b, true, false}};
}

std::vector<bool> keep_if_bytes_fit(const std::vector<BaseSetNeed>& sets, size_t free, size_t extra = 0) {
    return choose_resident_sets(std::span<const BaseSetNeed>(sets), free,
                                [&](size_t i, size_t left) { return sets[i].bytes + extra <= left; });
}

TEST(GpuMemoryPlan, ResidentSetsAreTheMostWorthPerByte) {
    const auto sets = porep_32g_sets();
    using V = std::vector<bool>;
    // Room for B_G2 (6.4 GB) alone: B_G2, not B_G1, though B_G1 would fit too and is asked first.
    EXPECT_EQ(keep_if_bytes_fit(sets, 7 * kGiB), (V{false, false, false, false, true}));
    // Both B sets (9.5 GiB).
    EXPECT_EQ(keep_if_bytes_fit(sets, 10 * kGiB), (V{false, false, false, true, true}));
    // Less than B_G2: B_G1 alone (the greedy goes on past what does not fit).
    EXPECT_EQ(keep_if_bytes_fit(sets, 4 * kGiB), (V{false, false, false, true, false}));
    // Then A (129.8M bases) before L (130.2M) before H (134.2M).
    EXPECT_EQ(keep_if_bytes_fit(sets, 22 * kGiB), (V{false, false, true, true, true}));
    EXPECT_EQ(keep_if_bytes_fit(sets, 33 * kGiB), (V{false, true, true, true, true}));
    EXPECT_EQ(keep_if_bytes_fit(sets, 60 * kGiB), (V{true, true, true, true, true}));
    EXPECT_EQ(keep_if_bytes_fit(sets, 1 * kGiB), (V{false, false, false, false, false}));
    // The fits callback decides beyond the bytes (each set's run scratch): 2 GiB more each.
    EXPECT_EQ(keep_if_bytes_fit(sets, 10 * kGiB, 2 * kGiB), (V{false, false, false, false, true}));
    // A set on the device already stays, at no cost, whatever its rank.
    auto held = sets;
    held[0].resident = true;
    EXPECT_EQ(keep_if_bytes_fit(held, 7 * kGiB), (V{true, false, false, false, true}));
    // Equal counts: G2 first, whatever the order given.
    const std::vector<BaseSetNeed> tie{{1000, 96000, false, false}, {1000, 192000, true, false}};
    EXPECT_EQ(keep_if_bytes_fit(tie, 200000), (V{false, true}));
    EXPECT_EQ(keep_if_bytes_fit(tie, 300000), (V{true, true}));
    EXPECT_TRUE(choose_resident_sets(std::span<const BaseSetNeed>(), 100, [](size_t, size_t) { return true; }).empty());
}

TEST(GpuMemoryPlan, ShareSplitsIntoFifths) {
    for (size_t avail : {size_t(0), size_t(1), 100 * kMiB, 2 * kGiB, 7 * kGiB, 24 * kGiB, 31 * kGiB, 100 * kGiB}) {
        const MsmMemoryPlan p = plan_msm_memory(avail);
        const size_t fifth = avail / 5;
        SCOPED_TRACE(avail);
        EXPECT_TRUE(std::has_single_bit(p.limits.sort_entries));
        EXPECT_GE(p.limits.sort_entries, kMinSortEntries);
        EXPECT_LE(p.limits.sort_entries, kMaxSortEntries);
        // Within its fifth unless held at the floor; the largest power of two that is.
        if (p.limits.sort_entries > kMinSortEntries) {
            EXPECT_LE(p.limits.sort_entries * kSortEntryBytes, fifth);
        }
        if (p.limits.sort_entries < kMaxSortEntries) {
            EXPECT_GT(2 * p.limits.sort_entries * kSortEntryBytes, fifth);
        }
        EXPECT_EQ(p.limits.bucket_bytes, std::max<size_t>(fifth, 1));  // never 0: 0 is "no cap"
        EXPECT_EQ(p.chunk_bytes, fifth / 2);
        EXPECT_LE(2 * p.chunk_bytes, fifth);
    }
    // A 24 GiB card after a 2^27 H step (16 GiB) and its context: ~7 GiB for the MSMs.
    const MsmMemoryPlan small = plan_msm_memory(7 * kGiB);
    EXPECT_EQ(small.limits.sort_entries, size_t(1) << 25);
    // A large card keeps the sort it had (2^28 entries) and buckets above any run's need
    // (12 G2 sets of 2^21 + 1 buckets of 384 B: 9.7 GB).
    const MsmMemoryPlan large = plan_msm_memory(100 * kGiB);
    EXPECT_EQ(large.limits.sort_entries, kMaxSortEntries);
    EXPECT_GT(large.limits.bucket_bytes, size_t(12) * ((size_t(1) << 21) + 1) * 384);
}

}  // namespace
}  // namespace cuzk::gpu
