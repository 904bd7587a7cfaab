#include "cuzk/r1cs/shape.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <fstream>
#include <thread>

#include "cuzk/hash/sha256.hpp"

namespace cuzk::r1cs {

static_assert(std::endian::native == std::endian::little, "shape files are written in host order: little-endian");

size_t BitVec::count() const {
    size_t n = 0;
    for (uint64_t w : words_) n += size_t(std::popcount(w));
    return n;
}

namespace {

// dst bits [offset, offset + src.size()) |= src, 64 bits at a time. Bits of src's last
// word beyond its size are masked off (a BitVec shrunk by resize() may keep them).
void or_bits_at(std::vector<uint64_t>& dst, size_t offset, const BitVec& src) {
    const auto words = src.words();
    const size_t base = offset / 64, shift = offset % 64;
    for (size_t k = 0; k < words.size(); ++k) {
        uint64_t w = words[k];
        const size_t left = src.size() - 64 * k;  // > 0: bits of src from word k on
        if (left < 64) w &= (uint64_t(1) << left) - 1;
        dst[base + k] |= w << shift;
        if (shift != 0 && base + k + 1 < dst.size()) dst[base + k + 1] |= w >> (64 - shift);
    }
}

// dst bits [0, n) set.
void set_prefix(std::vector<uint64_t>& dst, size_t n) {
    std::fill(dst.begin(), dst.begin() + std::ptrdiff_t(n / 64), ~uint64_t(0));
    if (n % 64) dst[n / 64] |= (uint64_t(1) << (n % 64)) - 1;
}

size_t popcount(const std::vector<uint64_t>& v) {
    size_t n = 0;
    for (uint64_t w : v) n += size_t(std::popcount(w));
    return n;
}

}  // namespace

ZDensity make_z_density(const Density& d) {
    const size_t ni = d.b_input.size();
    if (d.a_aux.size() != d.b_aux.size())
        throw std::invalid_argument("make_z_density: a_aux has " + std::to_string(d.a_aux.size()) + " bits but b_aux " +
                                    std::to_string(d.b_aux.size()));
    const size_t words = (ni + d.a_aux.size() + 63) / 64;
    ZDensity z;
    z.a.assign(words, 0);
    z.b.assign(words, 0);
    set_prefix(z.a, ni);
    or_bits_at(z.a, ni, d.a_aux);
    or_bits_at(z.b, 0, d.b_input);
    or_bits_at(z.b, ni, d.b_aux);
    z.a_count = popcount(z.a);
    z.b_count = popcount(z.b);
    return z;
}

const ZDensity& Density::z() const {
    std::lock_guard lock(z_cache.mu_);
    if (!z_cache.z_) z_cache.z_ = std::make_shared<const ZDensity>(make_z_density(*this));
    return *z_cache.z_;
}

std::vector<Fr> Shape::product(Matrix which, std::span<const Fr> inputs, std::span<const Fr> aux,
                               unsigned threads) const {
    if (inputs.size() != num_inputs || aux.size() != num_aux) {
        throw std::invalid_argument("Shape::product: assignment has " + std::to_string(inputs.size()) + " inputs and " +
                                    std::to_string(aux.size()) + " aux, the shape has " + std::to_string(num_inputs) +
                                    " and " + std::to_string(num_aux));
    }
    const SparseMatrix& m = matrix(which);
    std::vector<Fr> out(m.rows());
    // Coefficients 1 and -1 (most of them) cost an add or a sub instead of a multiplication.
    std::vector<uint8_t> kind(coeffs.size());
    for (size_t i = 0; i < coeffs.size(); ++i) kind[i] = coeffs[i].is_one() ? 1 : (-coeffs[i]).is_one() ? 2 : 0;
    auto rows = [&](size_t begin, size_t end) {
        for (size_t r = begin; r < end; ++r) {
            Fr acc = Fr::zero();
            for (uint64_t k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) {
                const Variable v = Variable::from_raw(m.col[k]);
                const Fr& z = v.is_aux() ? aux[v.index()] : inputs[v.index()];
                const uint32_t ci = m.coeff[k];
                if (kind[ci] == 1)
                    acc += z;
                else if (kind[ci] == 2)
                    acc -= z;
                else
                    acc += z * coeffs[ci];
            }
            out[r] = acc;
        }
    };
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    const size_t n = m.rows();
    if (threads == 1 || n < 4096) {
        rows(0, n);
        return out;
    }
    std::vector<std::thread> pool;
    const size_t chunk = (n + threads - 1) / threads;
    for (unsigned t = 0; t < threads; ++t) {
        size_t b = std::min(n, t * chunk), e = std::min(n, b + chunk);
        if (b < e) pool.emplace_back(rows, b, e);
    }
    for (auto& th : pool) th.join();
    return out;
}

Density Shape::density() const {
    Density d{BitVec(num_aux), BitVec(num_inputs), BitVec(num_aux)};
    for (uint32_t raw : a.col) {
        Variable v = Variable::from_raw(raw);
        if (v.is_aux()) d.a_aux.set(v.index());
    }
    for (uint32_t raw : b.col) {
        Variable v = Variable::from_raw(raw);
        if (v.is_aux())
            d.b_aux.set(v.index());
        else
            d.b_input.set(v.index());
    }
    return d;
}

ColumnMatrix Shape::transpose(Matrix which) const {
    const SparseMatrix& m = matrix(which);
    const size_t ncols = num_inputs + num_aux;
    auto dense = [&](uint32_t raw) {
        Variable v = Variable::from_raw(raw);
        return v.is_aux() ? num_inputs + v.index() : uint64_t(v.index());
    };
    ColumnMatrix t;
    t.col_ptr.assign(ncols + 1, 0);
    for (uint32_t raw : m.col) ++t.col_ptr[dense(raw) + 1];
    for (size_t j = 0; j < ncols; ++j) t.col_ptr[j + 1] += t.col_ptr[j];
    t.row.resize(m.nnz());
    t.coeff.resize(m.nnz());
    std::vector<uint64_t> next(t.col_ptr.begin(), t.col_ptr.end() - 1);
    for (size_t r = 0; r < m.rows(); ++r) {  // rows in order, so rows increase within a column
        for (uint64_t k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) {
            uint64_t pos = next[dense(m.col[k])]++;
            t.row[pos] = uint32_t(r);
            t.coeff[pos] = m.coeff[k];
        }
    }
    return t;
}

// ---- serialization ---------------------------------------------------------------------

namespace {

constexpr char kMagic[8] = {'C', 'U', 'Z', 'K', 'R', '1', 'C', 'S'};
constexpr uint32_t kVersion = 1;
constexpr size_t kHeaderSize = 8 + 4 + 4 + 8 * 7 + 32;

template <class T>
void put_vec(std::vector<uint8_t>& out, const std::vector<T>& v) {
    const auto* p = reinterpret_cast<const uint8_t*>(v.data());
    out.insert(out.end(), p, p + v.size() * sizeof(T));
}

void serialize_body(const Shape& s, std::vector<uint8_t>& out) {
    for (const Fr& c : s.coeffs) {
        auto b = c.to_bytes_le();
        out.insert(out.end(), b.begin(), b.end());
    }
    for (const SparseMatrix* m : {&s.a, &s.b, &s.c}) {
        put_vec(out, m->row_ptr);
        put_vec(out, m->col);
        put_vec(out, m->coeff);
    }
}

struct Reader {
    std::span<const uint8_t> in;
    size_t pos = 0;
    template <class T>
    T get() {
        T v;
        std::memcpy(&v, in.data() + pos, sizeof(T));
        pos += sizeof(T);
        return v;
    }
    template <class T>
    void get_vec(std::vector<T>& v, size_t n) {
        v.resize(n);
        std::memcpy(v.data(), in.data() + pos, n * sizeof(T));
        pos += n * sizeof(T);
    }
};

// Checked a*b + c for sizes read from a file.
uint64_t checked_size(uint64_t a, uint64_t b, uint64_t c) {
    unsigned __int128 r = (unsigned __int128)a * b + c;
    if (r > (uint64_t(1) << 60)) throw ShapeError("shape file: sizes in the header are implausibly large");
    return uint64_t(r);
}

void check_matrix(const SparseMatrix& m, const char* name, const Shape& s) {
    if (m.row_ptr.front() != 0 || m.row_ptr.back() != m.nnz())
        throw ShapeError(std::string("shape file: matrix ") + name + " row pointers do not span its entries");
    for (size_t r = 0; r < m.rows(); ++r) {
        if (m.row_ptr[r] > m.row_ptr[r + 1])
            throw ShapeError(std::string("shape file: matrix ") + name + " row pointers decrease at row " +
                             std::to_string(r));
    }
    for (size_t k = 0; k < m.nnz(); ++k) {
        Variable v = Variable::from_raw(m.col[k]);
        if (v.index() >= (v.is_aux() ? s.num_aux : s.num_inputs))
            throw ShapeError(std::string("shape file: matrix ") + name + " entry " + std::to_string(k) +
                             " names a variable out of range");
        if (m.coeff[k] >= s.coeffs.size())
            throw ShapeError(std::string("shape file: matrix ") + name + " entry " + std::to_string(k) +
                             " names a coefficient out of range");
    }
}

}  // namespace

std::array<uint8_t, 32> Shape::hash() const {
    std::vector<uint8_t> body;
    serialize_body(*this, body);
    return sha256_bytes(body);
}

std::vector<uint8_t> Shape::serialize() const {
    // The header is written at fixed offsets into a pre-sized buffer (GCC 12 raises a
    // false -Wstringop-overflow on vector::insert from a char array here).
    std::vector<uint8_t> out(kHeaderSize);
    size_t pos = 0;
    auto write = [&](const void* p, size_t n) {
        std::memcpy(out.data() + pos, p, n);
        pos += n;
    };
    write(kMagic, 8);
    const uint32_t words[2] = {kVersion, 0};
    write(words, sizeof(words));
    const uint64_t counts[7] = {num_inputs,        num_aux,           num_constraints,  uint64_t(coeffs.size()),
                                uint64_t(a.nnz()), uint64_t(b.nnz()), uint64_t(c.nnz())};
    write(counts, sizeof(counts));
    serialize_body(*this, out);
    auto h = sha256_bytes(std::span<const uint8_t>(out).subspan(kHeaderSize));
    write(h.data(), h.size());
    return out;
}

Shape Shape::deserialize(std::span<const uint8_t> bytes) {
    if (bytes.size() < 8 || std::memcmp(bytes.data(), kMagic, 8) != 0)
        throw ShapeError("shape file: bad magic (not a cuzk R1CS shape)");
    if (bytes.size() < kHeaderSize)
        throw ShapeError("shape file: truncated header (" + std::to_string(bytes.size()) + " of " +
                         std::to_string(kHeaderSize) + " bytes)");
    Reader r{bytes, 8};
    const uint32_t version = r.get<uint32_t>();
    if (version != kVersion)
        throw ShapeError("shape file: unsupported version " + std::to_string(version) + " (this build reads " +
                         std::to_string(kVersion) + ")");
    r.get<uint32_t>();
    Shape s;
    s.num_inputs = r.get<uint64_t>();
    s.num_aux = r.get<uint64_t>();
    s.num_constraints = r.get<uint64_t>();
    const uint64_t dict = r.get<uint64_t>();
    const uint64_t nnz[3] = {r.get<uint64_t>(), r.get<uint64_t>(), r.get<uint64_t>()};
    std::array<uint8_t, 32> want;
    std::memcpy(want.data(), bytes.data() + r.pos, 32);
    r.pos += 32;
    if (s.num_inputs == 0) throw ShapeError("shape file: no inputs (input 0 is ONE)");
    if (s.num_inputs > Variable::kMaxIndex + uint64_t(1) || s.num_aux > Variable::kMaxIndex + uint64_t(1) ||
        s.num_constraints > UINT32_MAX)
        throw ShapeError("shape file: variable or constraint counts exceed the supported range");
    uint64_t body = checked_size(dict, 32, 0);
    for (uint64_t n : nnz) body = checked_size(n, 8, checked_size(s.num_constraints + 1, 8, body));
    if (bytes.size() - kHeaderSize < body)
        throw ShapeError("shape file: truncated body (" + std::to_string(bytes.size() - kHeaderSize) + " of " +
                         std::to_string(body) + " bytes)");
    if (bytes.size() - kHeaderSize > body) throw ShapeError("shape file: trailing bytes after the body");
    if (sha256_bytes(bytes.subspan(kHeaderSize)) != want)
        throw ShapeError("shape file: content hash mismatch (corrupted body)");
    s.coeffs.resize(dict);
    for (uint64_t i = 0; i < dict; ++i) {
        auto v = Fr::from_bytes_le(bytes.data() + r.pos);
        if (!v) throw ShapeError("shape file: coefficient " + std::to_string(i) + " is not a canonical Fr element");
        s.coeffs[i] = *v;
        r.pos += 32;
    }
    SparseMatrix* ms[3] = {&s.a, &s.b, &s.c};
    for (int k = 0; k < 3; ++k) {
        r.get_vec(ms[k]->row_ptr, s.num_constraints + 1);
        r.get_vec(ms[k]->col, nnz[k]);
        r.get_vec(ms[k]->coeff, nnz[k]);
    }
    check_matrix(s.a, "A", s);
    check_matrix(s.b, "B", s);
    check_matrix(s.c, "C", s);
    return s;
}

void write_shape(const std::filesystem::path& path, const Shape& s) {
    std::vector<uint8_t> bytes = s.serialize();
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!f) throw ShapeError("shape file: cannot open " + path.string() + " for writing");
    f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    if (!f) throw ShapeError("shape file: write to " + path.string() + " failed");
}

Shape read_shape(const std::filesystem::path& path) {
    std::ifstream f(path, std::ios::binary | std::ios::ate);
    if (!f) throw ShapeError("shape file: cannot open " + path.string());
    const auto size = f.tellg();
    std::vector<uint8_t> bytes(static_cast<size_t>(size));
    f.seekg(0);
    f.read(reinterpret_cast<char*>(bytes.data()), size);
    if (!f) throw ShapeError("shape file: read of " + path.string() + " failed");
    try {
        return Shape::deserialize(bytes);
    } catch (const ShapeError& e) {
        const std::string what = e.what();
        const std::string prefix = "shape file: ";
        throw ShapeError(path.string() + ": " + (what.starts_with(prefix) ? what.substr(prefix.size()) : what));
    }
}

}  // namespace cuzk::r1cs
