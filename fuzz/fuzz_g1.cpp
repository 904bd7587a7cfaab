// G1 point decoding (Zcash encoding, compressed 48 / uncompressed 96 bytes). Properties:
// never crashes; an accepted encoding is canonical (re-encoding gives the same bytes);
// full validation accepts a subset of the no-subgroup-check validation.
#include "cuzk/ec/ec.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace cuzk;
    const std::span<const uint8_t> in(data, size);
    const auto full = decode_g1(in);
    const auto loose = decode_g1(in, Validation::kNoSubgroupCheck);
    if (full.ok()) FUZZ_CHECK(loose.ok() && loose.point == full.point);
    if (loose.ok()) {
        FUZZ_CHECK(loose.point.is_on_curve());
        if (size == kG1CompressedBytes) FUZZ_CHECK(fuzz::same_bytes(to_compressed(loose.point), in));
        if (size == kG1UncompressedBytes) FUZZ_CHECK(fuzz::same_bytes(to_uncompressed(loose.point), in));
        FUZZ_CHECK(full.ok() == is_in_subgroup(loose.point));
    } else {
        FUZZ_CHECK(!full.ok());
    }
    return 0;
}
