// The recorded R1CS of one circuit shape: three sparse matrices A, B, C over the
// variables z = (inputs, aux), one row per constraint, and a content hash that names
// the shape in caches.
//
// Storage (per matrix, CSR): row_ptr[m+1] (u64), and per non-zero a column (u32,
// Variable::raw(): bit 31 = aux) and a coefficient index (u32) into one dictionary of
// distinct coefficients shared by A, B and C. SHA-256 circuits use a few hundred
// distinct coefficients (+-1, +-2^k), so a non-zero costs 8 bytes instead of 36.
//
// Shape file (little-endian; version 1):
//   header  magic "CUZKR1CS" | u32 version | u32 reserved(0) | u64 num_inputs | u64 num_aux
//           | u64 num_constraints | u64 dict_size | u64 nnz_a | u64 nnz_b | u64 nnz_c
//           | 32-byte SHA-256 of the body
//   body    dict_size x 32-byte canonical little-endian Fr
//           then for A, B, C: row_ptr (num_constraints+1 u64), cols (nnz u32), coeff idx (nnz u32)
// read_shape() checks magic, version, sizes (truncation), hash, and the body's own
// consistency (monotone row_ptr, columns and coefficient indices in range), each with
// its own message.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/r1cs/variable.hpp"

namespace cuzk::r1cs {

// Error for a malformed shape file or buffer; what() names the problem.
class ShapeError : public std::runtime_error {
 public:
    using std::runtime_error::runtime_error;
};

// A fixed-size bit vector (the densities the prover's MSMs skip zeros with).
class BitVec {
 public:
    BitVec() = default;
    explicit BitVec(size_t n) : n_(n), words_((n + 63) / 64, 0) {}
    size_t size() const { return n_; }
    bool test(size_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
    void set(size_t i) { words_[i / 64] |= uint64_t(1) << (i % 64); }
    void resize(size_t n) {
        n_ = n;
        words_.resize((n + 63) / 64, 0);
    }
    size_t count() const;
    std::span<const uint64_t> words() const { return words_; }
    friend bool operator==(const BitVec& a, const BitVec& b) { return a.n_ == b.n_ && a.words_ == b.words_; }

 private:
    size_t n_ = 0;
    std::vector<uint64_t> words_;
};

// The densities over z = (inputs, aux) that the prover hands the A and B MSMs: bit i of
// a[i / 64] is set when z_i has a base in the a query (every input, then a_aux), likewise
// b (b_input, then b_aux); the counts are the query lengths.
struct ZDensity {
    std::vector<uint64_t> a, b;  // ceil((num_inputs + num_aux) / 64) words each
    size_t a_count = 0, b_count = 0;
};

// Holds the ZDensity of the Density it is a member of, built on first use (once, under a
// mutex: the engine proves several partitions of one circuit at a time). It is a cache,
// not part of the value: copies start empty and any two compare equal.
class ZDensityCache {
 public:
    ZDensityCache() = default;
    ZDensityCache(const ZDensityCache&) {}
    ZDensityCache& operator=(const ZDensityCache&) {
        std::lock_guard lock(mu_);
        z_.reset();
        return *this;
    }
    friend bool operator==(const ZDensityCache&, const ZDensityCache&) { return true; }

 private:
    friend struct Density;
    mutable std::mutex mu_;
    mutable std::shared_ptr<const ZDensity> z_;
};

// bellperson's DensityTracker, as bits: a variable is set when it occurs with a
// non-zero merged coefficient in at least one constraint of that matrix. (Inputs are
// always dense in A because of the input_i * 0 = 0 constraints, so A has no input set.)
struct Density {
    BitVec a_aux;
    BitVec b_input;
    BitVec b_aux;
    ZDensityCache z_cache{};

    // The bitmaps over z, built word by word (num_inputs = b_input.size()) on the first
    // call and kept: change no bit after calling it (the cache would not see it; a copy
    // or an assignment starts a fresh cache).
    const ZDensity& z() const;
    friend bool operator==(const Density&, const Density&) = default;
};

// The ZDensity of d, computed afresh (what Density::z() caches).
ZDensity make_z_density(const Density& d);

struct SparseMatrix {
    std::vector<uint64_t> row_ptr{0};  // size rows()+1
    std::vector<uint32_t> col;         // Variable::raw()
    std::vector<uint32_t> coeff;       // index into Shape::coeffs
    size_t rows() const { return row_ptr.size() - 1; }
    size_t nnz() const { return col.size(); }
    friend bool operator==(const SparseMatrix&, const SparseMatrix&) = default;
};

// Column-major copy of one matrix for per-variable iteration (setup evaluates the QAP
// polynomials at tau variable by variable). Columns are numbered inputs first, then
// aux: column j < num_inputs is input j, otherwise aux j - num_inputs.
struct ColumnMatrix {
    std::vector<uint64_t> col_ptr;  // size num_inputs + num_aux + 1
    std::vector<uint32_t> row;      // constraint index, increasing within a column
    std::vector<uint32_t> coeff;    // index into Shape::coeffs
};

enum class Matrix { A, B, C };

// The sizes of a circuit's R1CS known before recording it (closed forms for the built-in
// circuits, counting mode for others): what the engine estimates memory from before it
// allocates, and what ShapeCS::reserve takes. Non-zeros may be upper bounds.
struct ShapeCounts {
    uint64_t num_inputs = 1;  // ONE included
    uint64_t num_aux = 0;
    uint64_t num_constraints = 0;  // the input constraints included
    uint64_t nnz_a = 0, nnz_b = 0, nnz_c = 0;
    uint64_t coeffs = 2;  // distinct coefficients (the dictionary), at most
    uint64_t nnz() const { return nnz_a + nnz_b + nnz_c; }
};

struct Shape {
    uint64_t num_inputs = 1;  // ONE included
    uint64_t num_aux = 0;
    uint64_t num_constraints = 0;
    std::vector<Fr> coeffs;  // the coefficient dictionary
    SparseMatrix a, b, c;

    const SparseMatrix& matrix(Matrix m) const { return m == Matrix::A ? a : m == Matrix::B ? b : c; }

    // M·z for z = (inputs, aux): one entry per constraint. inputs[0] must be ONE.
    // threads = 0 picks std::thread::hardware_concurrency().
    std::vector<Fr> product(Matrix m, std::span<const Fr> inputs, std::span<const Fr> aux, unsigned threads = 1) const;
    // Densities as bellperson's prover computes them, from the matrices.
    Density density() const;
    ColumnMatrix transpose(Matrix m) const;

    // SHA-256 of the serialized body (the file's content hash).
    std::array<uint8_t, 32> hash() const;
    std::vector<uint8_t> serialize() const;
    static Shape deserialize(std::span<const uint8_t> bytes);  // throws ShapeError

    friend bool operator==(const Shape&, const Shape&) = default;
};

void write_shape(const std::filesystem::path& path, const Shape& s);  // throws ShapeError on I/O failure
Shape read_shape(const std::filesystem::path& path);                  // throws ShapeError

}  // namespace cuzk::r1cs
