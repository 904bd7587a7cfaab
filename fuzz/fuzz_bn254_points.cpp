// BN254 point decoding (Ethereum's encoding, EIP-196/197: G1 64 bytes, G2 128 bytes; the
// length picks the group, any other length must be refused by both). Properties: never
// crashes; an accepted encoding is canonical (re-encoding gives the same bytes); full
// validation accepts a subset of the no-subgroup-check validation.
#include "cuzk/ec/bn254.hpp"
#include "cuzk/ec/subgroup.hpp"
#include "fuzz_common.hpp"

namespace {

template <class Decode>
void check(std::span<const uint8_t> in, Decode decode) {
    using namespace cuzk;
    const auto full = decode(in, Validation::kFull);
    const auto loose = decode(in, Validation::kNoSubgroupCheck);
    if (full.ok()) FUZZ_CHECK(loose.ok() && loose.point == full.point);
    if (loose.ok()) {
        FUZZ_CHECK(loose.point.is_on_curve());
        FUZZ_CHECK(fuzz::same_bytes(bn254::to_eth_bytes(loose.point), in));
        FUZZ_CHECK(full.ok() == bn254::is_in_subgroup(loose.point));
    } else {
        FUZZ_CHECK(!full.ok());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace cuzk;
    const std::span<const uint8_t> in(data, size);
    check(in, [](std::span<const uint8_t> b, Validation v) { return bn254::decode_eth_g1(b, v); });
    check(in, [](std::span<const uint8_t> b, Validation v) { return bn254::decode_eth_g2(b, v); });
    if (size != bn254::kG1EthBytes) FUZZ_CHECK(!bn254::decode_eth_g1(in).ok());
    if (size != bn254::kG2EthBytes) FUZZ_CHECK(!bn254::decode_eth_g2(in).ok());
    return 0;
}
