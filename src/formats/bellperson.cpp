// bellperson .params / .vk / proof files: layout parsing, parallel decoding, writing.
// Layout facts: bellperson src/groth16/{params,verifying_key,proof}.rs (see the header).
#include "cuzk/formats/bellperson.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <mutex>
#include <sstream>
#include <system_error>

#include "cuzk/common/parallel.hpp"
#include "cuzk/ec/encoding.hpp"

namespace cuzk::formats {

using groth16::Parameters;
using groth16::Proof;
using groth16::VerifyingKey;

namespace {

constexpr uint64_t kG1 = kG1UncompressedBytes;  // 96
constexpr uint64_t kG2 = kG2UncompressedBytes;  // 192

// The six fixed vk points: name, offset, size.
struct FixedPoint {
    const char* name;
    uint64_t offset;
    bool g2;
};
constexpr FixedPoint kFixed[6] = {
    {"vk.alpha_g1", 0, false},  {"vk.beta_g1", 96, false},   {"vk.beta_g2", 192, true},
    {"vk.gamma_g2", 384, true}, {"vk.delta_g1", 576, false}, {"vk.delta_g2", 672, true},
};
static_assert(672 + 192 == kVkFixedBytes);

// The sections after the vk's fixed part, in file order.
struct SectionSpec {
    const char* name;
    uint64_t point_bytes;
};
constexpr SectionSpec kParamsSections[] = {{"ic", kG1}, {"h", kG1},    {"l", kG1},
                                           {"a", kG1},  {"b_g1", kG1}, {"b_g2", kG2}};

[[noreturn]] void fail(std::string_view file, std::string section, uint64_t offset, std::string problem) {
    throw FormatError(std::string(file), std::move(section), offset, std::move(problem));
}

std::string indexed(std::string_view section, uint64_t i) {
    return std::string(section) + "[" + std::to_string(i) + "]";
}

uint32_t load_u32_be(const uint8_t* p) {
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}
void store_u32_be(uint8_t* p, uint32_t v) {
    p[0] = uint8_t(v >> 24);
    p[1] = uint8_t(v >> 16);
    p[2] = uint8_t(v >> 8);
    p[3] = uint8_t(v);
}

// Parses the counts of a .vk (params = false) or .params file and checks that every
// section fits the bytes that remain and that nothing follows the last one. Nothing is
// allocated in proportion to a count before this has passed.
FileLayout parse_layout_of(std::span<const uint8_t> bytes, std::string_view file, bool params);

// A file whose layout does not parse is named after the format its first bytes suggest,
// when they suggest one; that guess is made only then, since a bellperson file's first
// coordinate may itself begin with bytes that look like JSON text (a newline, then '[').
FileLayout parse_layout(std::span<const uint8_t> bytes, std::string_view file, bool params) {
    try {
        return parse_layout_of(bytes, file, params);
    } catch (const FormatError&) {
        if (const std::string other = other_format(bytes); !other.empty())
            fail(file, "", FormatError::kNoOffset,
                 std::string("not a bellperson ") + (params ? ".params" : ".vk") + " file: it looks like " + other);
        throw;
    }
}

FileLayout parse_layout_of(std::span<const uint8_t> bytes, std::string_view file, bool params) {
    FileLayout layout;
    layout.file_size = bytes.size();
    const uint64_t size = bytes.size();
    for (const FixedPoint& f : kFixed) {
        const uint64_t need = f.g2 ? kG2 : kG1;
        if (size < f.offset + need) {
            fail(file, f.name, f.offset,
                 "truncated: the point needs " + std::to_string(need) + " bytes, only " +
                     std::to_string(size > f.offset ? size - f.offset : 0) + " left");
        }
    }
    layout.sections.push_back({"vk", 6, FormatError::kNoOffset, 0, kVkFixedBytes, kVkFixedBytes});
    uint64_t pos = kVkFixedBytes;
    const size_t n_sections = params ? std::size(kParamsSections) : 1;
    for (size_t s = 0; s < n_sections; ++s) {
        const SectionSpec& spec = kParamsSections[s];
        if (size - pos < 4) {
            fail(file, std::string(spec.name) + ".count", pos,
                 "truncated: the u32 count needs 4 bytes, only " + std::to_string(size - pos) + " left");
        }
        const uint64_t count = load_u32_be(bytes.data() + pos);
        const uint64_t data = pos + 4;
        const uint64_t need = count * spec.point_bytes;  // < 2^32 * 192: no overflow
        if (need > size - data) {
            fail(file, std::string(spec.name) + ".count", pos,
                 "count " + std::to_string(count) + " needs " + std::to_string(need) + " bytes of points but only " +
                     std::to_string(size - data) + " remain (corrupt count or truncated file)");
        }
        layout.sections.push_back({spec.name, count, pos, data, spec.point_bytes, need});
        pos = data + need;
    }
    if (pos != size) {
        fail(file, params ? "after b_g2" : "after ic", pos,
             std::to_string(size - pos) + " trailing bytes after the last section");
    }
    return layout;
}

// Decodes one uncompressed point; on failure returns the problem.
template <class P>
DecodeError decode_one(const uint8_t* p, Validation v, P& out) {
    if constexpr (std::is_same_v<P, G1Affine>) {
        auto r = decode_g1({p, kG1}, v);
        out = r.point;
        return r.error;
    } else {
        auto r = decode_g2({p, kG2}, v);
        out = r.point;
        return r.error;
    }
}

constexpr const char* kInfinityProblem = "point at infinity (bellperson rejects it in keys and proofs)";

// Decodes `count` consecutive uncompressed points starting at bytes[offset] into out,
// in parallel. On failure throws for the lowest failing index (deterministic).
template <class P>
void decode_section(std::span<const uint8_t> bytes, std::string_view file, std::string_view section, uint64_t offset,
                    uint64_t count, Validation v, std::vector<P>& out) {
    constexpr uint64_t kBytes = std::is_same_v<P, G1Affine> ? kG1 : kG2;
    out.resize(count);
    std::atomic<uint64_t> first_bad{std::numeric_limits<uint64_t>::max()};
    std::mutex m;
    std::string problem;
    // ~50 us per G1 point with the subgroup check: 64-point grains keep the pool busy.
    parallel_for(0, count, 64, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) {
            if (i > first_bad.load(std::memory_order_relaxed)) return;
            DecodeError err = decode_one(bytes.data() + offset + i * kBytes, v, out[i]);
            if (err == DecodeError::kNone && !out[i].infinity) continue;
            std::lock_guard<std::mutex> lock(m);
            if (i < first_bad.load()) {
                first_bad.store(i);
                problem = err != DecodeError::kNone ? decode_error_message(err) : kInfinityProblem;
            }
            return;
        }
    });
    const uint64_t bad = first_bad.load();
    if (bad != std::numeric_limits<uint64_t>::max()) fail(file, indexed(section, bad), offset + bad * kBytes, problem);
}

template <class P>
P decode_fixed(std::span<const uint8_t> bytes, std::string_view file, const FixedPoint& f, Validation v) {
    P out;
    DecodeError err = decode_one(bytes.data() + f.offset, v, out);
    if (err != DecodeError::kNone) fail(file, f.name, f.offset, decode_error_message(err));
    if (out.infinity) fail(file, f.name, f.offset, kInfinityProblem);
    return out;
}

VerifyingKey decode_vk(std::span<const uint8_t> bytes, std::string_view file, const FileLayout& layout, Validation v) {
    VerifyingKey vk;
    vk.alpha_g1 = decode_fixed<G1Affine>(bytes, file, kFixed[0], v);
    vk.beta_g1 = decode_fixed<G1Affine>(bytes, file, kFixed[1], v);
    vk.beta_g2 = decode_fixed<G2Affine>(bytes, file, kFixed[2], v);
    vk.gamma_g2 = decode_fixed<G2Affine>(bytes, file, kFixed[3], v);
    vk.delta_g1 = decode_fixed<G1Affine>(bytes, file, kFixed[4], v);
    vk.delta_g2 = decode_fixed<G2Affine>(bytes, file, kFixed[5], v);
    const SectionInfo& ic = *layout.find("ic");
    decode_section(bytes, file, "ic", ic.data_offset, ic.count, v, vk.ic);
    return vk;
}

Validation validation(const ReadOptions& opt) {
    return opt.check_subgroup ? Validation::kFull : Validation::kNoSubgroupCheck;
}

// ---- writing ---------------------------------------------------------------------------

// Where encoded bytes go: a growing vector or a file.
class Sink {
 public:
    virtual ~Sink() = default;
    virtual void put(const uint8_t* p, size_t n) = 0;
};

class VectorSink final : public Sink {
 public:
    explicit VectorSink(std::vector<uint8_t>& v) : v_(v) {}
    void put(const uint8_t* p, size_t n) override { v_.insert(v_.end(), p, p + n); }

 private:
    std::vector<uint8_t>& v_;
};

// Writes "<file>.tmp" and renames it over file on commit(); removes it otherwise.
class FileSink final : public Sink {
 public:
    explicit FileSink(std::filesystem::path file) : file_(std::move(file)), tmp_(file_) {
        tmp_ += ".tmp";
        f_ = std::fopen(tmp_.c_str(), "wb");
        if (!f_) throw std::system_error(errno, std::generic_category(), "cannot create " + tmp_.string());
    }
    ~FileSink() override {
        if (f_) {
            std::fclose(f_);
            std::error_code ec;
            std::filesystem::remove(tmp_, ec);
        }
    }
    void put(const uint8_t* p, size_t n) override {
        if (n && std::fwrite(p, 1, n, f_) != n)
            throw std::system_error(errno, std::generic_category(), "cannot write " + tmp_.string());
    }
    void commit() {
        const bool ok = std::fflush(f_) == 0 && ::fsync(::fileno(f_)) == 0;
        const int err = errno;
        const bool closed = std::fclose(f_) == 0;
        f_ = nullptr;
        if (!ok || !closed) {
            std::error_code ec;
            std::filesystem::remove(tmp_, ec);
            throw std::system_error(ok ? errno : err, std::generic_category(), "cannot write " + tmp_.string());
        }
        std::filesystem::rename(tmp_, file_);
    }

 private:
    std::filesystem::path file_, tmp_;
    std::FILE* f_ = nullptr;
};

void put_u32(Sink& sink, uint64_t v) {
    uint8_t b[4];
    store_u32_be(b, uint32_t(v));
    sink.put(b, 4);
}

// Encodes points uncompressed in parallel, 32 MiB at a time.
template <class P>
void put_points(Sink& sink, std::span<const P> points, std::vector<uint8_t>& scratch) {
    constexpr size_t kBytes = std::is_same_v<P, G1Affine> ? kG1 : kG2;
    constexpr size_t kChunk = (size_t(32) << 20) / kBytes;
    for (size_t start = 0; start < points.size(); start += kChunk) {
        const size_t n = std::min(kChunk, points.size() - start);
        scratch.resize(n * kBytes);
        parallel_for(0, n, 1024, [&](size_t b, size_t e) {
            for (size_t i = b; i < e; ++i) {
                auto enc = to_uncompressed(points[start + i]);
                std::memcpy(scratch.data() + i * kBytes, enc.data(), kBytes);
            }
        });
        sink.put(scratch.data(), scratch.size());
    }
}

// Rejects what the readers would reject: points at infinity and counts above u32.
template <class P>
void check_writable(std::string_view file, std::string_view section, std::span<const P> points) {
    if (points.size() > std::numeric_limits<uint32_t>::max()) {
        fail(file, std::string(section), FormatError::kNoOffset,
             std::to_string(points.size()) + " points do not fit the u32 count");
    }
    for (size_t i = 0; i < points.size(); ++i) {
        if (!points[i].infinity) continue;
        std::string why = "point at infinity cannot be written";
        // ic[i] and l[i] are the identity exactly when variable i is in no constraint.
        if (section == "ic")
            why += ": public input " + std::to_string(i) +
                   " appears in no constraint (not even its input constraint), so its IC point is the identity";
        if (section == "l")
            why += ": aux variable " + std::to_string(i) +
                   " appears in no constraint, so its L point is the identity; the circuit must use every variable";
        fail(file, indexed(section, i), FormatError::kNoOffset, why);
    }
}
template <class P>
void check_writable_one(std::string_view file, std::string_view section, const P& p) {
    if (p.infinity) fail(file, std::string(section), FormatError::kNoOffset, "point at infinity cannot be written");
}

void check_vk_writable(const VerifyingKey& vk, std::string_view file) {
    check_writable_one(file, "vk.alpha_g1", vk.alpha_g1);
    check_writable_one(file, "vk.beta_g1", vk.beta_g1);
    check_writable_one(file, "vk.beta_g2", vk.beta_g2);
    check_writable_one(file, "vk.gamma_g2", vk.gamma_g2);
    check_writable_one(file, "vk.delta_g1", vk.delta_g1);
    check_writable_one(file, "vk.delta_g2", vk.delta_g2);
    check_writable<G1Affine>(file, "ic", vk.ic);
}

void check_params_writable(const Parameters& p, std::string_view file) {
    check_vk_writable(p.vk, file);
    check_writable<G1Affine>(file, "h", p.h);
    check_writable<G1Affine>(file, "l", p.l);
    check_writable<G1Affine>(file, "a", p.a);
    check_writable<G1Affine>(file, "b_g1", p.b_g1);
    check_writable<G2Affine>(file, "b_g2", p.b_g2);
}

template <class P>
void put_one(Sink& sink, const P& p) {
    auto enc = to_uncompressed(p);
    sink.put(enc.data(), enc.size());
}

void put_vk(Sink& sink, const VerifyingKey& vk, std::vector<uint8_t>& scratch) {
    put_one(sink, vk.alpha_g1);
    put_one(sink, vk.beta_g1);
    put_one(sink, vk.beta_g2);
    put_one(sink, vk.gamma_g2);
    put_one(sink, vk.delta_g1);
    put_one(sink, vk.delta_g2);
    put_u32(sink, vk.ic.size());
    put_points<G1Affine>(sink, vk.ic, scratch);
}

void put_params(Sink& sink, const Parameters& p) {
    std::vector<uint8_t> scratch;
    put_vk(sink, p.vk, scratch);
    put_u32(sink, p.h.size());
    put_points<G1Affine>(sink, p.h, scratch);
    put_u32(sink, p.l.size());
    put_points<G1Affine>(sink, p.l, scratch);
    put_u32(sink, p.a.size());
    put_points<G1Affine>(sink, p.a, scratch);
    put_u32(sink, p.b_g1.size());
    put_points<G1Affine>(sink, p.b_g1, scratch);
    put_u32(sink, p.b_g2.size());
    put_points<G2Affine>(sink, p.b_g2, scratch);
}

uint64_t vk_size(const VerifyingKey& vk) { return kVkFixedBytes + 4 + kG1 * vk.ic.size(); }

}  // namespace

// ---- MappedFile ------------------------------------------------------------------------

MappedFile::MappedFile(const std::filesystem::path& file) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail(file.string(), "", FormatError::kNoOffset, std::string("cannot open: ") + std::strerror(errno));
    struct stat st;
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        fail(file.string(), "", FormatError::kNoOffset, std::string("cannot stat: ") + std::strerror(err));
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        fail(file.string(), "", FormatError::kNoOffset, "not a regular file");
    }
    size_ = size_t(st.st_size);
    if (size_ > 0) {
        void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            const int err = errno;
            ::close(fd);
            fail(file.string(), "", FormatError::kNoOffset, std::string("cannot mmap: ") + std::strerror(err));
        }
        data_ = static_cast<const uint8_t*>(p);
    }
    ::close(fd);  // the mapping stays valid
}

MappedFile::~MappedFile() {
    if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
}

void write_file_atomically(const std::filesystem::path& file, std::span<const uint8_t> bytes) {
    FileSink sink(file);
    sink.put(bytes.data(), bytes.size());
    sink.commit();
}

// ---- layout ----------------------------------------------------------------------------

const SectionInfo* FileLayout::find(std::string_view name) const {
    for (const SectionInfo& s : sections)
        if (s.name == name) return &s;
    return nullptr;
}
uint64_t FileLayout::num_inputs() const {
    const SectionInfo* s = find("ic");
    return s ? s->count : 0;
}
uint64_t FileLayout::num_aux() const {
    const SectionInfo* s = find("l");
    return s ? s->count : 0;
}
uint64_t FileLayout::domain_size() const {
    const SectionInfo* s = find("h");
    return s ? s->count + 1 : 0;
}

FileLayout inspect_params_bytes(std::span<const uint8_t> bytes, std::string_view name) {
    return parse_layout(bytes, name, true);
}
FileLayout inspect_params(const std::filesystem::path& file) {
    MappedFile m(file);
    return parse_layout(m.bytes(), file.string(), true);
}
FileLayout inspect_vk_bytes(std::span<const uint8_t> bytes, std::string_view name) {
    return parse_layout(bytes, name, false);
}
FileLayout inspect_vk(const std::filesystem::path& file) {
    MappedFile m(file);
    return parse_layout(m.bytes(), file.string(), false);
}

std::string describe(const FileLayout& layout) {
    std::ostringstream o;
    char line[160];
    std::snprintf(line, sizeof line, "%-7s %12s %14s %16s\n", "section", "points", "offset", "bytes");
    o << line;
    for (const SectionInfo& s : layout.sections) {
        std::snprintf(line, sizeof line, "%-7s %12llu %14llu %16llu\n", s.name.c_str(),
                      static_cast<unsigned long long>(s.count), static_cast<unsigned long long>(s.data_offset),
                      static_cast<unsigned long long>(s.data_bytes));
        o << line;
    }
    o << "file size " << layout.file_size << " bytes; public inputs (incl. ONE) " << layout.num_inputs();
    if (layout.find("h")) o << "; aux variables " << layout.num_aux() << "; domain size " << layout.domain_size();
    o << "\n";
    return o.str();
}

std::string other_format(std::span<const uint8_t> head) {
    static constexpr std::pair<std::string_view, const char*> kMagics[] = {
        {"zkey", "a snarkjs/circom .zkey (magic \"zkey\")"},
        {"wtns", "a snarkjs/circom witness .wtns (magic \"wtns\")"},
        {"r1cs", "a circom .r1cs constraint system (magic \"r1cs\")"},
        {"CUZKR1CS", "a cuzk shape file (shape.r1cs, magic \"CUZKR1CS\")"},
    };
    const std::string_view text(reinterpret_cast<const char*>(head.data()), head.size());
    for (const auto& [magic, what] : kMagics)
        if (text.starts_with(magic)) return what;
    const size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && (text[first] == '{' || text[first] == '['))
        return "JSON text (a snarkjs verification_key.json or proof.json?)";
    return "";
}

// ---- .params ---------------------------------------------------------------------------

Parameters read_params_from_bytes(std::span<const uint8_t> bytes, const ReadOptions& opt, std::string_view name) {
    const FileLayout layout = parse_layout(bytes, name, true);
    const Validation v = validation(opt);
    Parameters p;
    p.vk = decode_vk(bytes, name, layout, v);
    auto g1 = [&](const char* s, std::vector<G1Affine>& out) {
        const SectionInfo& info = *layout.find(s);
        decode_section(bytes, name, s, info.data_offset, info.count, v, out);
    };
    g1("h", p.h);
    g1("l", p.l);
    g1("a", p.a);
    g1("b_g1", p.b_g1);
    const SectionInfo& b2 = *layout.find("b_g2");
    decode_section(bytes, name, "b_g2", b2.data_offset, b2.count, v, p.b_g2);
    return p;
}

Parameters read_params(const std::filesystem::path& file, const ReadOptions& opt) {
    MappedFile m(file);
    return read_params_from_bytes(m.bytes(), opt, file.string());
}

uint64_t params_size(const Parameters& p) {
    return vk_size(p.vk) + 5 * 4 + kG1 * (p.h.size() + p.l.size() + p.a.size() + p.b_g1.size()) + kG2 * p.b_g2.size();
}

std::vector<uint8_t> params_to_bytes(const Parameters& params) {
    check_params_writable(params, "<memory>");
    std::vector<uint8_t> out;
    out.reserve(params_size(params));
    VectorSink sink(out);
    put_params(sink, params);
    return out;
}

void write_params(const Parameters& params, const std::filesystem::path& file) {
    check_params_writable(params, file.string());
    FileSink sink(file);
    put_params(sink, params);
    sink.commit();
}

// ---- .vk -------------------------------------------------------------------------------

VerifyingKey read_vk_from_bytes(std::span<const uint8_t> bytes, const ReadOptions& opt, std::string_view name) {
    const FileLayout layout = parse_layout(bytes, name, false);
    return decode_vk(bytes, name, layout, validation(opt));
}

VerifyingKey read_vk(const std::filesystem::path& file, const ReadOptions& opt) {
    MappedFile m(file);
    return read_vk_from_bytes(m.bytes(), opt, file.string());
}

std::vector<uint8_t> vk_to_bytes(const VerifyingKey& vk) {
    check_vk_writable(vk, "<memory>");
    std::vector<uint8_t> out;
    out.reserve(vk_size(vk));
    VectorSink sink(out);
    std::vector<uint8_t> scratch;
    put_vk(sink, vk, scratch);
    return out;
}

void write_vk(const VerifyingKey& vk, const std::filesystem::path& file) {
    check_vk_writable(vk, file.string());
    FileSink sink(file);
    std::vector<uint8_t> scratch;
    put_vk(sink, vk, scratch);
    sink.commit();
}

// ---- proofs ----------------------------------------------------------------------------

namespace {

std::array<uint8_t, kProofBytes> encode_proof(const Proof& p, std::string_view file, size_t index) {
    const std::string at = indexed("proof", index);
    check_writable_one(file, at + ".A", p.a);
    check_writable_one(file, at + ".B", p.b);
    check_writable_one(file, at + ".C", p.c);
    std::array<uint8_t, kProofBytes> out;
    auto a = to_compressed(p.a);
    auto b = to_compressed(p.b);
    auto c = to_compressed(p.c);
    std::memcpy(out.data(), a.data(), 48);
    std::memcpy(out.data() + 48, b.data(), 96);
    std::memcpy(out.data() + 144, c.data(), 48);
    return out;
}

}  // namespace

std::array<uint8_t, kProofBytes> proof_to_bytes(const Proof& proof) { return encode_proof(proof, "<memory>", 0); }

std::vector<uint8_t> proofs_to_bytes(std::span<const Proof> proofs) {
    std::vector<uint8_t> out;
    out.reserve(proofs.size() * kProofBytes);
    for (size_t i = 0; i < proofs.size(); ++i) {
        auto b = encode_proof(proofs[i], "<memory>", i);
        out.insert(out.end(), b.begin(), b.end());
    }
    return out;
}

std::vector<Proof> read_proofs_from_bytes(std::span<const uint8_t> bytes, size_t expected_count,
                                          std::string_view name) {
    if (bytes.empty()) fail(name, "proof[0]", 0, "empty: a proof is 192 bytes per partition");
    const size_t n = bytes.size() / kProofBytes;
    if (bytes.size() % kProofBytes != 0) {
        fail(name, indexed("proof", n), n * kProofBytes,
             "length " + std::to_string(bytes.size()) + " is not a multiple of 192 bytes (" +
                 std::to_string(bytes.size() % kProofBytes) + " bytes of an incomplete proof)");
    }
    if (expected_count != 0 && n != expected_count) {
        fail(name, "proof", FormatError::kNoOffset,
             "expected " + std::to_string(expected_count) + " proofs (partitions), found " + std::to_string(n));
    }
    // 3n points, G2 first (the slowest), decoded in parallel; lowest failing point wins.
    struct Part {
        const char* name;
        size_t offset, len;
    };
    constexpr Part kParts[3] = {{"A", 0, 48}, {"B", 48, 96}, {"C", 144, 48}};
    std::vector<Proof> out(n);
    std::atomic<uint64_t> first_bad{std::numeric_limits<uint64_t>::max()};  // 3 * proof + part
    std::mutex m;
    std::string problem;
    parallel_for(0, 3 * n, 1, [&](size_t b, size_t e) {
        for (size_t k = b; k < e; ++k) {
            const size_t proof = k / 3, part = k % 3;
            const uint64_t key = 3 * proof + part;
            if (key > first_bad.load(std::memory_order_relaxed)) return;
            const uint8_t* p = bytes.data() + proof * kProofBytes + kParts[part].offset;
            DecodeError err;
            bool inf;
            if (part == 1) {
                auto r = decode_g2({p, kParts[part].len});
                err = r.error;
                inf = r.point.infinity;
                out[proof].b = r.point;
            } else {
                auto r = decode_g1({p, kParts[part].len});
                err = r.error;
                inf = r.point.infinity;
                (part == 0 ? out[proof].a : out[proof].c) = r.point;
            }
            if (err == DecodeError::kNone && !inf) continue;
            std::lock_guard<std::mutex> lock(m);
            if (key < first_bad.load()) {
                first_bad.store(key);
                problem = err != DecodeError::kNone ? decode_error_message(err) : kInfinityProblem;
            }
            return;
        }
    });
    const uint64_t bad = first_bad.load();
    if (bad != std::numeric_limits<uint64_t>::max()) {
        const size_t proof = bad / 3, part = bad % 3;
        fail(name, indexed("proof", proof) + "." + kParts[part].name, proof * kProofBytes + kParts[part].offset,
             problem);
    }
    return out;
}

std::vector<Proof> read_proofs(const std::filesystem::path& file, size_t expected_count) {
    MappedFile m(file);
    return read_proofs_from_bytes(m.bytes(), expected_count, file.string());
}

void write_proofs(std::span<const Proof> proofs, const std::filesystem::path& file) {
    std::vector<uint8_t> bytes;
    bytes.reserve(proofs.size() * kProofBytes);
    for (size_t i = 0; i < proofs.size(); ++i) {
        auto b = encode_proof(proofs[i], file.string(), i);
        bytes.insert(bytes.end(), b.begin(), b.end());
    }
    write_file_atomically(file, bytes);
}

}  // namespace cuzk::formats
