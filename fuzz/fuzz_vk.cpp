// .vk bytes. Never crashes; the header inspector and the reader agree on what is
// well-formed; what is accepted re-encodes to the same bytes.
#include "cuzk/formats/bellperson.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace cuzk::formats;
    const std::span<const uint8_t> in(data, size);
    bool layout_ok = true;
    try {
        const FileLayout l = inspect_vk_bytes(in);
        FUZZ_CHECK(l.file_size == size && l.sections.size() == 2);
    } catch (const FormatError&) {
        layout_ok = false;
    }
    try {
        const auto vk = read_vk_from_bytes(in, {.check_subgroup = false});
        FUZZ_CHECK(layout_ok);
        FUZZ_CHECK(cuzk::fuzz::same_bytes(vk_to_bytes(vk), in));
        try {
            FUZZ_CHECK(read_vk_from_bytes(in) == vk);
        } catch (const FormatError&) {
        }
    } catch (const FormatError&) {
    }
    return 0;
}
