// circom .r1cs bytes, read on both curves (BLS12-381 and BN254). Never crashes; a corrupt count never allocates; an
// accepted constraint system written back reads as the same matrices.
#include "cuzk/formats/circom.hpp"
#include "fuzz_common.hpp"

namespace {

template <class E>
void read_on(std::span<const uint8_t> in) {
    using namespace cuzk::formats;
    try {
        const auto r = circom::read_r1cs_bytes<E>(in);
        const auto again = circom::read_r1cs_bytes<E>(circom::r1cs_to_bytes<E>(r));
        FUZZ_CHECK(again.n_constraints() == r.n_constraints() && again.n_wires == r.n_wires);
        FUZZ_CHECK(again.a.coeff == r.a.coeff && again.b.signal == r.b.signal && again.c.row_ptr == r.c.row_ptr);
        FUZZ_CHECK(again.wire_to_label == r.wire_to_label);
    } catch (const FormatError&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    read_on<cuzk::groth16::Bls12_381>({data, size});
    read_on<cuzk::groth16::Bn254>({data, size});
    return 0;
}
