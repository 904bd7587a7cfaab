// The per-run device buffers of GPU MSMs (include/cuzk/gpu/msm.hpp: MsmScratch), one
// growing allocation per role, shared by the Msm objects given the same MsmScratch.
// Internal to src/gpu/msm/msm.cu and its G2 twin msm_g2.cu (one definition for both).
#pragma once

#include <cstddef>

#include "cuzk/gpu/memory_plan.hpp"

namespace cuzk::gpu {

class MsmScratch {
 public:
    struct Buffer {
        void* p = nullptr;
        size_t bytes = 0;
    };
    // One buffer per role of Msm::Impl's per-run scratch.
    enum Slot : unsigned {
        kScalars,
        kCanon,
        kFullK,
        kFullB,
        kBidx,
        kOnesIdx,
        kIsOne,
        kIsFull,
        kCounts,
        kSelected,
        kKeys0,
        kKeys1,
        kVals0,
        kVals1,
        kBuckets,
        kCarryPt0,
        kCarryPt1,
        kCarryKey0,
        kCarryKey1,
        kRanges0,
        kRanges1,
        kTemp,
        kSplitFlags,
        kSplitsBefore,
        kRoundKeys0,
        kRoundKeys1,
        kRoundPts0,
        kRoundPts1,
        kProducts,
        kChunk0,  // a streamed set's two chunk buffers (every streamed set sharing the
        kChunk1,  // scratch shares them: its runs do not overlap)
        kSlots
    };
    MsmScratch() = default;
    MsmScratch(const MsmScratch&) = delete;
    MsmScratch& operator=(const MsmScratch&) = delete;
    ~MsmScratch();  // frees every buffer (msm.cu)

    int device = -1;  // the device of the first Msm that used it
    Buffer buf[kSlots];
    MsmScratchLimits limits;  // set_msm_scratch_limits (msm.hpp)
};

}  // namespace cuzk::gpu
