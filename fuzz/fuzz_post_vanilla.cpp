// A PoSt vanilla proof as Curio sends it (one bincode FallbackPoStSectorProof), decoded for a
// registered PoSt proof that the first byte picks; the rest is the encoding. Never crashes;
// what is accepted re-encodes to the same bytes. The PoSt request file (gen-vanilla's) is
// decoded from the whole input too, with the same property.
#include "cuzk/filecoin/post.hpp"
#include "cuzk/formats/error.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace cuzk::filecoin;
    if (size == 0) return 0;
    const std::span<const uint8_t> all(data, size);
    const auto& cfg = post_config(RegisteredPoStProof(data[0] % kRegisteredPoStProofCount));
    try {
        const auto proof = decode_post_sector_proof(cfg, all.subspan(1));
        FUZZ_CHECK(cuzk::fuzz::same_bytes(encode_post_sector_proof(proof), all.subspan(1)));
    } catch (const cuzk::formats::FormatError&) {
    }
    try {
        const auto file = decode_post_request_file(all, "fuzz");
        FUZZ_CHECK(cuzk::fuzz::same_bytes(encode_post_request_file(file), all));
    } catch (const cuzk::formats::FormatError&) {
    }
    return 0;
}
