// snarkjs .wtns bytes, read on both curves (BLS12-381 and BN254: each refuses the other's
// prime). Never crashes; a corrupt count never allocates; an accepted witness written back
// reads as the same values.
#include "cuzk/formats/circom.hpp"
#include "fuzz_common.hpp"

namespace {

template <class E>
void read_on(std::span<const uint8_t> in) {
    using namespace cuzk::formats;
    try {
        const auto w = circom::read_wtns_bytes<E>(in);
        FUZZ_CHECK(!w.values.empty());
        FUZZ_CHECK(circom::read_wtns_bytes<E>(circom::wtns_to_bytes<E>(w.values)).values == w.values);
    } catch (const FormatError&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    read_on<cuzk::groth16::Bls12_381>({data, size});
    read_on<cuzk::groth16::Bn254>({data, size});
    return 0;
}
