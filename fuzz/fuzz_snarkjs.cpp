// snarkjs JSON (verification_key.json, proof.json, public.json) parsed from any text, on
// both curves (BLS12-381 and BN254: "curve" "bls12381" or "bn128"). Never crashes (malformed
// input is a FormatError); an accepted proof or public list re-serialises and parses back
// to the same values.
#include <string_view>

#include "cuzk/formats/snarkjs.hpp"
#include "fuzz_common.hpp"

namespace {

template <class E>
void parse_on(std::string_view text) {
    using namespace cuzk::formats;
    try {
        const auto p = snarkjs::parse_proof<E>(text);
        FUZZ_CHECK(snarkjs::parse_proof<E>(snarkjs::proof_to_json<E>(p)) == p);
    } catch (const FormatError&) {
    }
    try {
        const auto v = snarkjs::parse_public<E>(text);
        FUZZ_CHECK(snarkjs::parse_public<E>(snarkjs::public_to_json<E>(v)) == v);
    } catch (const FormatError&) {
    }
    try {
        const auto vk = snarkjs::parse_vk<E>(text, {.check_subgroup = false});
        FUZZ_CHECK(vk.ic.size() == vk.n_public() + 1);
    } catch (const FormatError&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        (void)cuzk::formats::snarkjs::parse_vk_curve(text);
    } catch (const cuzk::formats::FormatError&) {
    }
    parse_on<cuzk::groth16::Bls12_381>(text);
    parse_on<cuzk::groth16::Bn254>(text);
    return 0;
}
