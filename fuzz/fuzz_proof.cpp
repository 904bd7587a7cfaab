// Proof bytes (N x 192: compressed A | B | C). Never crashes; what is accepted
// re-encodes to the same bytes.
#include "cuzk/formats/bellperson.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace cuzk::formats;
    try {
        const auto proofs = read_proofs_from_bytes({data, size});
        FUZZ_CHECK(proofs.size() * kProofBytes == size);
        FUZZ_CHECK(cuzk::fuzz::same_bytes(proofs_to_bytes(proofs), {data, size}));
    } catch (const FormatError&) {
    }
    return 0;
}
