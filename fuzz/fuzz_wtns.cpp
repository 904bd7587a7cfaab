// snarkjs .wtns bytes. Never crashes; a corrupt count never allocates; an accepted witness
// written back reads as the same values.
#include "cuzk/formats/circom.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace cuzk::formats;
    using E = cuzk::groth16::Bls12_381;
    try {
        const auto w = circom::read_wtns_bytes<E>({data, size});
        FUZZ_CHECK(!w.values.empty());
        FUZZ_CHECK(circom::read_wtns_bytes<E>(circom::wtns_to_bytes<E>(w.values)).values == w.values);
    } catch (const FormatError&) {
    }
    return 0;
}
