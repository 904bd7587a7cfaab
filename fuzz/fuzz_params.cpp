// .params bytes: the header inspector on any input, the full reader on inputs up to
// 64 KiB (the pool decodes in parallel, as for real files). Never crashes; a corrupt
// count never allocates (ASan's rss limit would catch it); inspector and reader agree;
// what is accepted re-encodes to the same bytes.
#include "cuzk/formats/bellperson.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace cuzk::formats;
    const std::span<const uint8_t> in(data, size);
    bool layout_ok = true;
    try {
        const FileLayout l = inspect_params_bytes(in);
        FUZZ_CHECK(l.file_size == size && l.sections.size() == 7);
        uint64_t total = 0;
        for (const SectionInfo& s : l.sections) total += s.data_bytes + (s.name == "vk" ? 0 : 4);
        FUZZ_CHECK(total == size);
    } catch (const FormatError&) {
        layout_ok = false;
    }
    if (size > (64u << 10)) return 0;
    try {
        const auto p = read_params_from_bytes(in, {.check_subgroup = false});
        FUZZ_CHECK(layout_ok);
        FUZZ_CHECK(cuzk::fuzz::same_bytes(params_to_bytes(p), in));
    } catch (const FormatError&) {
    }
    return 0;
}
