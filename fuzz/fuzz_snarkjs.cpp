// snarkjs JSON (verification_key.json, proof.json, public.json) parsed from any text.
// Never crashes (malformed input is a FormatError); an accepted proof or public list
// re-serialises and parses back to the same values.
#include <string_view>

#include "cuzk/formats/snarkjs.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace cuzk::formats;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const auto p = snarkjs::parse_proof(text);
        FUZZ_CHECK(snarkjs::parse_proof(snarkjs::proof_to_json(p)) == p);
    } catch (const FormatError&) {
    }
    try {
        const auto v = snarkjs::parse_public(text);
        FUZZ_CHECK(snarkjs::parse_public(snarkjs::public_to_json(v)) == v);
    } catch (const FormatError&) {
    }
    try {
        const auto vk = snarkjs::parse_vk(text, {.check_subgroup = false});
        FUZZ_CHECK(vk.ic.size() == vk.n_public() + 1);
    } catch (const FormatError&) {
    }
    return 0;
}
