// circom .r1cs bytes. Never crashes; a corrupt count never allocates; an accepted
// constraint system written back reads as the same matrices.
#include "cuzk/formats/circom.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace cuzk::formats;
    using E = cuzk::groth16::Bls12_381;
    try {
        const auto r = circom::read_r1cs_bytes<E>({data, size});
        const auto again = circom::read_r1cs_bytes<E>(circom::r1cs_to_bytes<E>(r));
        FUZZ_CHECK(again.n_constraints() == r.n_constraints() && again.n_wires == r.n_wires);
        FUZZ_CHECK(again.a.coeff == r.a.coeff && again.b.signal == r.b.signal && again.c.row_ptr == r.c.row_ptr);
        FUZZ_CHECK(again.wire_to_label == r.wire_to_label);
    } catch (const FormatError&) {
    }
    return 0;
}
