// The binary files of circom and snarkjs (iden3 "binfile" containers; snarkjs 0.7.6
// src/zkey_utils.js, src/wtns_utils.js, r1csfile 0.0.48 src/r1csfile.js):
//
//   every file   magic (4 bytes), u32 version, u32 number of sections, then sections
//                {u32 type, u64 size, size bytes}, in any order; integers little-endian
//   .zkey v1     1 protocol (u32, 1 = Groth16)
//                2 header: n8q, q, n8r, r, nVars, nPublic, domainSize, alpha_1, beta_1,
//                  beta_2, gamma_2, delta_1, delta_2
//                3 IC (nPublic + 1 G1)      4 coefficients: u32 count, then {u32 matrix
//                (0 = A, 1 = B), u32 constraint, u32 signal, n8r bytes c R^2 mod r}
//                5 A, 6 B1 (nVars G1)       7 B2 (nVars G2)
//                8 C (nVars - nPublic - 1 G1)   9 H (domainSize G1)   10 contributions
//                Points are affine, coordinates little-endian in Montgomery form (R =
//                2^(8 n8q)), Fp2 as c0 then c1; all zeros is the point at infinity.
//   .wtns v2     1 header: n8, r, nWitness      2 nWitness values, n8 bytes each, normal form
//   .r1cs v1     1 header: n8, prime, nWires, nPubOut, nPubIn, nPrvIn, u64 nLabels,
//                  nConstraints
//                2 constraints: per constraint A, B, C, each u32 nTerms then {u32 wire,
//                  n8-byte coefficient, normal form}
//                3 wire -> label map (nWires u64)
//
// Every reader checks everything before it trusts it: the magic and version, a section
// table whose sizes fit the file, each section present once (unknown types refused), each
// section's size against the counts of the header, the field primes against the curve,
// every field element below its modulus, every point on the curve and (ReadOptions::
// check_subgroup) in the prime-order subgroup, every index (constraint, signal, wire) in
// range. Nothing is allocated in proportion to a count before the bytes for it are known
// to be there. A problem is a FormatError naming the file, the section ("section 5 (A)
// point 7") and the byte offset in the file. Files are read through a memory map.
//
// The readers are templates over the curve (cuzk/groth16/curves.hpp: Bls12_381 and Bn254,
// snarkjs' bls12381 and bn128); detect_curve says which one a file is on, from its prime.
// A reader given a file of the other curve refuses it, naming the file and the prime.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/formats/bellperson.hpp"
#include "cuzk/groth16/zkey.hpp"

namespace cuzk::formats::circom {

// One section of an iden3 binary file.
struct Section {
    uint32_t type;
    uint64_t header_offset;  // where its {type, size} header starts
    uint64_t data_offset;    // its first byte
    uint64_t size;
};

// The container of a .zkey, .wtns or .r1cs: magic, version and the section table,
// checked (sizes within the file, every type known and present once, the required ones
// there); the sections' contents are not read.
struct BinFile {
    std::string magic;  // "zkey", "wtns" or "r1cs"
    uint32_t version = 0;
    uint64_t file_size = 0;
    std::vector<Section> sections;  // in file order
    const Section* find(uint32_t type) const;
};
BinFile read_bin_layout(std::span<const uint8_t> bytes, std::string_view name);

// The name of a section type of a file of that magic ("A", "coefficients", "header").
std::string section_name(std::string_view magic, uint32_t type);

// Readers (file forms map the file; _bytes forms take the bytes and a name for messages).
template <class E>
groth16::Zkey<E> read_zkey_bytes(std::span<const uint8_t> bytes, const ReadOptions& opt = {},
                                 std::string_view name = "<memory>");
template <class E>
groth16::Zkey<E> read_zkey(const std::filesystem::path& file, const ReadOptions& opt = {});
template <class E>
groth16::Wtns<E> read_wtns_bytes(std::span<const uint8_t> bytes, std::string_view name = "<memory>");
template <class E>
groth16::Wtns<E> read_wtns(const std::filesystem::path& file);
template <class E>
groth16::CircomR1cs<E> read_r1cs_bytes(std::span<const uint8_t> bytes, std::string_view name = "<memory>");
template <class E>
groth16::CircomR1cs<E> read_r1cs(const std::filesystem::path& file);

// Writers of the same formats (tests, fuzz corpora and `cuzk setup-zkey` build files with
// them; snarkjs reads what they write). The zkey writer takes groth16::ZkeyContents (the
// points in full); its contribution section is empty.
using groth16::ZkeyContents;
template <class E>
std::vector<uint8_t> zkey_to_bytes(const ZkeyContents<E>& z);
template <class E>
std::vector<uint8_t> wtns_to_bytes(std::span<const typename E::Fr> values);
template <class E>
std::vector<uint8_t> r1cs_to_bytes(const groth16::CircomR1cs<E>& r);

// The curve of a .zkey, .wtns or .r1cs: its scalar field prime (the .zkey's r, the prime
// of a .wtns's or an .r1cs's header). Throws FormatError for a malformed container or header
// or a prime of neither curve.
groth16::SnarkjsCurve detect_curve(std::span<const uint8_t> bytes, std::string_view name);
groth16::SnarkjsCurve detect_curve(const std::filesystem::path& file);

// For `cuzk inspect`: the section table and the header's figures of a .zkey, .wtns or
// .r1cs, after the checks of the container and the header (points are not decoded).
// Throws FormatError for anything malformed there.
std::string describe(std::span<const uint8_t> bytes, std::string_view name);
// True when the bytes start with the magic of one of these files.
bool is_circom_file(std::span<const uint8_t> head);

}  // namespace cuzk::formats::circom
