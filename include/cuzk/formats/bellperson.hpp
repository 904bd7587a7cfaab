// bellperson's Groth16 files, byte for byte (filecoin-project/bellperson
// src/groth16/{params,verifying_key,proof}.rs):
//
//   .vk      alpha_g1 beta_g1 beta_g2 gamma_g2 delta_g1 delta_g2   (uncompressed: 96/192 B)
//            u32 BE ic count, ic points (G1 uncompressed)          = 868 + 96 n bytes
//   .params  the .vk bytes, then five sections h, l, a, b_g1 (G1) and b_g2 (G2), each a
//            u32 BE count followed by that many uncompressed points; no padding, no trailer
//   proof    A (G1 compressed, 48) | B (G2 compressed, 96) | C (G1 compressed, 48) = 192 B;
//            a proof of N partitions is N of these concatenated
//
// Readers validate everything and throw FormatError naming the file, the section
// ("h[12]", "vk.delta_g2", "proof[3].B"), the byte offset and the problem:
//   - every count is checked against the bytes that remain before anything is
//     allocated, so a corrupt count fails at once instead of allocating terabytes;
//   - every point must decode (flags, coordinates < p, on the curve) and lie in the
//     order-r subgroup (ReadOptions::check_subgroup, on by default; turn it off only
//     for trusted local files: it is most of the decoding time);
//   - no point may be the point at infinity (bellperson's readers reject it; the key
//     generator filters such points out of a, b_g1 and b_g2);
//   - nothing may follow the last section.
// Files are read through mmap (no copy into a buffer) and points decode in parallel
// (common/parallel.hpp). Writers encode in parallel into a large buffer and write
// through a temporary file renamed into place, so a crash never leaves half a file
// under the final name.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/formats/error.hpp"
#include "cuzk/groth16/keys.hpp"

namespace cuzk::formats {

struct ReadOptions {
    // Check that every point lies in the order-r subgroup (the curve equation is always
    // checked). Off only for files this process or a trusted tool already checked.
    bool check_subgroup = true;
};

inline constexpr size_t kProofBytes = 192;
inline constexpr size_t kVkFixedBytes = 3 * 96 + 3 * 192;  // the six fixed points: 864

// ---- layout (no point decoded) ---------------------------------------------------------

// One section of a .vk/.params file. "vk" is the six fixed points (count 6, no count
// field); the others are a u32 count at count_offset followed by the points.
struct SectionInfo {
    std::string name;       // "vk", "ic", "h", "l", "a", "b_g1", "b_g2"
    uint64_t count;         // number of points
    uint64_t count_offset;  // byte offset of the u32 count (FormatError::kNoOffset for "vk")
    uint64_t data_offset;   // byte offset of the first point
    uint64_t point_bytes;   // 96 (G1) or 192 (G2); for "vk" the whole fixed part (864)
    uint64_t data_bytes;    // bytes of the points
};

struct FileLayout {
    uint64_t file_size = 0;
    std::vector<SectionInfo> sections;  // vk, ic[, h, l, a, b_g1, b_g2]

    const SectionInfo* find(std::string_view name) const;
    // Derived figures (params only): public inputs including ONE, aux variables,
    // the domain size (h count + 1).
    uint64_t num_inputs() const;
    uint64_t num_aux() const;
    uint64_t domain_size() const;
};

// Reads only the counts and checks that they fit the size exactly (no trailing bytes).
// For `cuzk inspect`: a 47 GB file is inspected by touching a few pages.
FileLayout inspect_params(const std::filesystem::path& file);
FileLayout inspect_params_bytes(std::span<const uint8_t> bytes, std::string_view name = "<memory>");
FileLayout inspect_vk(const std::filesystem::path& file);
FileLayout inspect_vk_bytes(std::span<const uint8_t> bytes, std::string_view name = "<memory>");
// A human-readable table of the sections (name, count, offset, bytes) and derived figures.
std::string describe(const FileLayout& layout);

// What a file that is not bellperson's looks like, from its first bytes: "a snarkjs/circom
// .zkey (magic \"zkey\")", a .wtns, a circom .r1cs, a cuzk shape file or JSON text; empty
// when nothing is recognised. A bellperson key starts with an uncompressed point, whose
// first byte has its top three bits clear, so it matches none of these. Every reader of
// .params/.vk files refuses such a file with this description.
std::string other_format(std::span<const uint8_t> head);

// ---- .params ---------------------------------------------------------------------------

groth16::Parameters read_params(const std::filesystem::path& file, const ReadOptions& opt = {});
groth16::Parameters read_params_from_bytes(std::span<const uint8_t> bytes, const ReadOptions& opt = {},
                                           std::string_view name = "<memory>");
// Throws FormatError (file = the path or "<memory>") on a point at infinity or a section
// of more than 2^32 - 1 points (neither can be read back), std::system_error on I/O.
void write_params(const groth16::Parameters& params, const std::filesystem::path& file);
std::vector<uint8_t> params_to_bytes(const groth16::Parameters& params);
uint64_t params_size(const groth16::Parameters& params);  // the file's size in bytes

// ---- .vk -------------------------------------------------------------------------------

groth16::VerifyingKey read_vk(const std::filesystem::path& file, const ReadOptions& opt = {});
groth16::VerifyingKey read_vk_from_bytes(std::span<const uint8_t> bytes, const ReadOptions& opt = {},
                                         std::string_view name = "<memory>");
void write_vk(const groth16::VerifyingKey& vk, const std::filesystem::path& file);
std::vector<uint8_t> vk_to_bytes(const groth16::VerifyingKey& vk);

// ---- proofs ----------------------------------------------------------------------------

// Proof points are always fully checked (they come from outside).
std::array<uint8_t, kProofBytes> proof_to_bytes(const groth16::Proof& proof);
std::vector<uint8_t> proofs_to_bytes(std::span<const groth16::Proof> proofs);
// Rejects an empty input and a length that is not a multiple of 192; expected_count
// (0 = any) additionally pins the number of proofs (partitions).
std::vector<groth16::Proof> read_proofs_from_bytes(std::span<const uint8_t> bytes, size_t expected_count = 0,
                                                   std::string_view name = "<memory>");
// The file's proofs; expected_count has no default, so that a caller states how many it reads
// (0 = any, only where the caller checks the count against its inputs itself).
std::vector<groth16::Proof> read_proofs(const std::filesystem::path& file, size_t expected_count);
void write_proofs(std::span<const groth16::Proof> proofs, const std::filesystem::path& file);

// ---- small file helpers shared by the formats layer ------------------------------------

// A read-only memory map of a whole file (empty files map to an empty span).
// Throws FormatError when the file cannot be opened or mapped.
class MappedFile {
 public:
    explicit MappedFile(const std::filesystem::path& file);
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    std::span<const uint8_t> bytes() const { return {data_, size_}; }

 private:
    const uint8_t* data_ = nullptr;
    size_t size_ = 0;
};

// Writes bytes to file through "<file>.tmp" + rename. Throws std::system_error.
void write_file_atomically(const std::filesystem::path& file, std::span<const uint8_t> bytes);

}  // namespace cuzk::formats
