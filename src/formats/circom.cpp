// circom/snarkjs binary files: .zkey (Groth16), .wtns and .r1cs (layouts in the header).
#include "cuzk/formats/circom.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <mutex>
#include <sstream>

#include "cuzk/common/parallel.hpp"
#include "cuzk/ec/subgroup.hpp"

namespace cuzk::formats::circom {

using groth16::Bls12_381;
using groth16::Bn254;
using groth16::SnarkjsCurve;

namespace {

constexpr uint64_t kNone = FormatError::kNoOffset;

[[noreturn]] void fail(std::string_view file, std::string section, uint64_t offset, std::string problem) {
    throw FormatError(std::string(file), std::move(section), offset, std::move(problem));
}

uint32_t load_u32(const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;  // little-endian host (x86-64, the CUDA hosts)
}
uint64_t load_u64(const uint8_t* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}
void put_u32(std::vector<uint8_t>& out, uint32_t v) {
    const uint8_t* p = reinterpret_cast<const uint8_t*>(&v);
    out.insert(out.end(), p, p + 4);
}
void put_u64(std::vector<uint8_t>& out, uint64_t v) {
    const uint8_t* p = reinterpret_cast<const uint8_t*>(&v);
    out.insert(out.end(), p, p + 8);
}

// ---- the primes of the curves snarkjs knows ---------------------------------------------

struct KnownCurve {
    const char* name;
    const char* q;  // base field, decimal
    const char* r;  // scalar field, decimal
};
constexpr KnownCurve kKnownCurves[] = {
    {"bls12381",
     "40024095552216673934177898257359041565568828199390078853320581361240316504908378644426876291290156640378942725597"
     "87",
     "52435875175126190479447740508185965837690552500527637822603658699938581184513"},
    {"bn128", "21888242871839275222246405745257275088696311157297823662689037894645226208583",
     "21888242871839275222246405745257275088548364400416034343698204186575808495617"},
};

// The decimal value of n8 little-endian bytes (for messages about primes).
std::string le_decimal(std::span<const uint8_t> b) {
    std::vector<uint32_t> digits{0};  // base 1e9, little-endian
    for (size_t i = b.size(); i-- > 0;) {
        uint64_t carry = b[i];
        for (uint32_t& d : digits) {
            const uint64_t v = uint64_t(d) * 256 + carry;
            d = uint32_t(v % 1000000000);
            carry = v / 1000000000;
        }
        while (carry) {
            digits.push_back(uint32_t(carry % 1000000000));
            carry /= 1000000000;
        }
    }
    std::string s = std::to_string(digits.back());
    for (size_t i = digits.size() - 1; i-- > 0;) {
        std::string part = std::to_string(digits[i]);
        s += std::string(9 - part.size(), '0') + part;
    }
    return s;
}

// Which known curve a prime belongs to (as its base or scalar field): its description.
std::string prime_owner(const std::string& dec) {
    for (const KnownCurve& c : kKnownCurves) {
        if (dec == c.q) return std::string("the base field prime of ") + c.name;
        if (dec == c.r) return std::string("the scalar field prime of ") + c.name;
    }
    return "not a prime of a curve snarkjs supports";
}

// Checks that a little-endian prime of n8 bytes at `off` is F's modulus.
template <class F>
void expect_prime(std::span<const uint8_t> bytes, uint64_t off, uint32_t n8, std::string_view file,
                  const std::string& section, const char* what, const char* curve) {
    if (n8 != F::N * 8) {
        // The caller checked that the n8 bytes are there: name whose prime they are (a size
        // of no known prime, above 64 bytes, is not decoded).
        const std::string owner = n8 <= 64 ? prime_owner(le_decimal(bytes.subspan(off, n8))) : "";
        const bool known = owner.rfind("the ", 0) == 0;
        fail(file, section, off - 4,
             std::string(what) + " is " + std::to_string(n8) + " bytes" + (known ? " (" + owner + ")" : "") + "; " +
                 curve + " needs " + std::to_string(F::N * 8) +
                 (known ? ": the files of one proof must all be on one curve" : ""));
    }
    const auto p = bytes.subspan(off, n8);
    bool same = true;
    for (size_t i = 0; i < n8; ++i) same = same && p[i] == uint8_t(F::kP.l[i / 8] >> (8 * (i % 8)));
    if (!same) {
        const std::string dec = le_decimal(p);
        fail(file, section, off,
             std::string(what) + " " + dec.substr(0, 100) + " is " + prime_owner(dec) + ", not " + curve +
                 "'s: the files of one proof must all be on one curve");
    }
}

// ---- the container -----------------------------------------------------------------------

struct FileKind {
    std::string_view magic;
    uint32_t version;
    std::vector<const char*> names;  // names[t - 1] for section type t
    std::vector<uint32_t> required;
};
const FileKind& kind_of(std::string_view magic) {
    static const FileKind kZkey{
        "zkey",
        1,
        {"protocol", "header", "IC", "coefficients", "A", "B1", "B2", "C", "H", "contributions"},
        {1, 2, 3, 4, 5, 6, 7, 8, 9}};
    static const FileKind kWtns{"wtns", 2, {"header", "witness"}, {1, 2}};
    static const FileKind kR1cs{
        "r1cs", 1, {"header", "constraints", "wire-to-label map", "custom gates list", "custom gate uses"}, {1, 2}};
    if (magic == "zkey") return kZkey;
    if (magic == "wtns") return kWtns;
    return kR1cs;
}

std::string section_label(std::string_view magic, uint32_t type) {
    return "section " + std::to_string(type) + " (" + section_name(magic, type) + ")";
}

BinFile layout(std::span<const uint8_t> bytes, std::string_view file, std::string_view want_magic) {
    if (bytes.size() < 12)
        fail(
            file, "file header", 0,
            "truncated: " + std::to_string(bytes.size()) + " bytes, the header alone is 12 (magic, version, sections)");
    BinFile f;
    f.file_size = bytes.size();
    f.magic.assign(reinterpret_cast<const char*>(bytes.data()), 4);
    if (f.magic != want_magic) {
        std::string seen;
        for (unsigned char ch : f.magic) seen += (ch >= 32 && ch < 127) ? char(ch) : '?';
        std::string other = other_format(bytes);
        fail(file, "file header", 0,
             "magic \"" + seen + "\": not a ." + std::string(want_magic) + " file" +
                 (other.empty() ? std::string() : " (it looks like " + other + ")"));
    }
    const FileKind& kind = kind_of(want_magic);
    f.version = load_u32(bytes.data() + 4);
    if (f.version != kind.version)
        fail(file, "file header", 4,
             "version " + std::to_string(f.version) + "; cuzk reads ." + f.magic + " version " +
                 std::to_string(kind.version));
    const uint32_t n = load_u32(bytes.data() + 8);
    uint64_t pos = 12;
    for (uint32_t i = 0; i < n; ++i) {
        if (bytes.size() - pos < 12)
            fail(file, "section header " + std::to_string(i), pos,
                 "truncated: the file says " + std::to_string(n) + " sections, " + std::to_string(i) +
                     " found before the end");
        Section s{load_u32(bytes.data() + pos), pos, pos + 12, load_u64(bytes.data() + pos + 4)};
        if (s.type == 0 || s.type > kind.names.size())
            fail(file, "section header " + std::to_string(i), pos,
                 "unknown section type " + std::to_string(s.type) + " in a ." + f.magic + " file");
        if (f.find(s.type))
            fail(file, section_label(f.magic, s.type), pos,
                 "appears twice (first at byte " + std::to_string(f.find(s.type)->header_offset) + ")");
        if (s.size > bytes.size() - s.data_offset)
            fail(file, section_label(f.magic, s.type), pos + 4,
                 "size " + std::to_string(s.size) + " runs past the end of the file (" +
                     std::to_string(bytes.size() - s.data_offset) + " bytes left)");
        f.sections.push_back(s);
        pos = s.data_offset + s.size;
    }
    if (pos != bytes.size())
        fail(file, "after the last section", pos, std::to_string(bytes.size() - pos) + " trailing bytes");
    for (uint32_t t : kind.required)
        if (!f.find(t)) fail(file, section_label(f.magic, t), kNone, "missing");
    return f;
}

// Reads a section's fixed fields in order, with bounds checks naming the section.
class Reader {
 public:
    Reader(std::span<const uint8_t> bytes, std::string_view file, const Section& s, std::string label)
        : bytes_(bytes), file_(file), s_(s), label_(std::move(label)), pos_(s.data_offset) {}
    uint64_t pos() const { return pos_; }
    uint64_t left() const { return s_.data_offset + s_.size - pos_; }
    const std::string& label() const { return label_; }
    void need(uint64_t n, const char* what) const {
        if (left() < n)
            fail(file_, label_, pos_,
                 std::string("truncated: ") + what + " needs " + std::to_string(n) + " bytes, the section has " +
                     std::to_string(left()) + " left");
    }
    uint32_t u32(const char* what) {
        need(4, what);
        pos_ += 4;
        return load_u32(bytes_.data() + pos_ - 4);
    }
    uint64_t u64(const char* what) {
        need(8, what);
        pos_ += 8;
        return load_u64(bytes_.data() + pos_ - 8);
    }
    uint64_t skip(uint64_t n, const char* what) {
        need(n, what);
        pos_ += n;
        return pos_ - n;
    }
    void end() const {
        if (left() != 0) fail(file_, label_, pos_, std::to_string(left()) + " bytes after the section's last field");
    }

 private:
    std::span<const uint8_t> bytes_;
    std::string_view file_;
    const Section& s_;
    std::string label_;
    uint64_t pos_;
};

// A field element of F from n8 = 8 N little-endian bytes: the limbs as stored. nullopt
// when not below the modulus.
template <class F>
std::optional<typename F::Big> load_limbs(const uint8_t* p) {
    typename F::Big b;
    std::memcpy(b.l, p, 8 * F::N);
    if (b >= F::kP) return std::nullopt;
    return b;
}

// ---- points ------------------------------------------------------------------------------

// Decodes one affine point (Montgomery little-endian coordinates, all zeros = infinity);
// returns the problem or nullptr.
template <class E, class Curve>
const char* decode_point(const uint8_t* p, bool subgroup, Affine<Curve>& out) {
    using Fq = typename E::Fq;
    constexpr size_t kCoords = std::is_same_v<typename Curve::Field, Fq> ? 2 : 4;
    constexpr size_t kN8 = 8 * Fq::N;
    bool zero = true;
    for (size_t i = 0; i < kCoords * kN8; ++i) zero = zero && p[i] == 0;
    if (zero) {
        out = Affine<Curve>::identity();
        return nullptr;
    }
    Fq c[kCoords];
    for (size_t i = 0; i < kCoords; ++i) {
        auto b = load_limbs<Fq>(p + i * kN8);
        if (!b) return "a coordinate is not below q";
        c[i] = Fq::from_raw_montgomery(*b);
    }
    if constexpr (kCoords == 2) {
        out = {c[0], c[1], false};
    } else {
        out = {{c[0], c[1]}, {c[2], c[3]}, false};
    }
    if (!out.is_on_curve()) return "point is not on the curve";
    if (subgroup && !is_in_subgroup(out)) return "point is not in the prime-order subgroup";
    return nullptr;
}

template <class E, class Curve>
constexpr uint64_t point_bytes() {
    return (std::is_same_v<typename Curve::Field, typename E::Fq> ? 2 : 4) * 8 * E::Fq::N;
}

// Decodes count points at offset in parallel; throws for the lowest failing index.
template <class E, class Curve>
std::vector<Affine<Curve>> decode_points(std::span<const uint8_t> bytes, std::string_view file,
                                         const std::string& label, uint64_t offset, uint64_t count, bool subgroup) {
    constexpr uint64_t kB = point_bytes<E, Curve>();
    std::vector<Affine<Curve>> out(count);
    std::atomic<uint64_t> first_bad{std::numeric_limits<uint64_t>::max()};
    std::mutex m;
    const char* problem = nullptr;
    parallel_for(0, count, 64, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) {
            if (i > first_bad.load(std::memory_order_relaxed)) return;
            const char* err = decode_point<E>(bytes.data() + offset + i * kB, subgroup, out[i]);
            if (!err) continue;
            std::lock_guard lock(m);
            if (i < first_bad.load()) {
                first_bad.store(i);
                problem = err;
            }
            return;
        }
    });
    const uint64_t bad = first_bad.load();
    if (bad != std::numeric_limits<uint64_t>::max())
        fail(file, label + " point " + std::to_string(bad), offset + bad * kB, problem);
    return out;
}

template <class E, class Curve>
Affine<Curve> fixed_point(std::span<const uint8_t> bytes, std::string_view file, Reader& r, const char* name,
                          bool subgroup) {
    const uint64_t off = r.skip(point_bytes<E, Curve>(), name);
    Affine<Curve> p;
    if (const char* err = decode_point<E>(bytes.data() + off, subgroup, p))
        fail(file, r.label() + " " + name, off, err);
    if (p.infinity) fail(file, r.label() + " " + name, off, "point at infinity");
    return p;
}

// Checks that a section holds exactly count items of item_bytes.
void expect_size(std::string_view file, const std::string& label, const Section& s, uint64_t count, uint64_t item_bytes,
                 const char* items) {
    const uint64_t want = count * item_bytes;  // count < 2^33, item_bytes <= 2^9: no overflow
    if (s.size != want)
        fail(file, label, s.header_offset + 4,
             "size " + std::to_string(s.size) + " bytes, but " + std::to_string(count) + " " + items + " of " +
                 std::to_string(item_bytes) + " bytes need " + std::to_string(want));
}

// ---- .zkey ------------------------------------------------------------------------------

struct ZkeyHeader {
    uint32_t n8q = 0, n8r = 0, n_vars = 0, n_public = 0, domain_size = 0;
    std::string curve;
    uint64_t points_offset = 0;  // alpha_1 in section 2
};

constexpr uint32_t kMaxLogDomain = 28;  // cuzk's NTT (cuzk/ntt/ntt.hpp kMaxLogSize)

// Sections 1 and 2, checked against curve E's primes; the points are left for the caller.
template <class E>
ZkeyHeader zkey_header(std::span<const uint8_t> bytes, std::string_view file, const BinFile& f) {
    const Section& s1 = *f.find(1);
    Reader p(bytes, file, s1, section_label("zkey", 1));
    const uint32_t protocol = p.u32("the protocol");
    p.end();
    if (protocol != 1) {
        const char* name = protocol == 2 ? " (PLONK)" : protocol == 10 ? " (FFLONK)" : "";
        fail(file, p.label(), s1.data_offset,
             "protocol " + std::to_string(protocol) + name + ": cuzk proves Groth16 keys (protocol 1) only");
    }
    const Section& s2 = *f.find(2);
    Reader r(bytes, file, s2, section_label("zkey", 2));
    ZkeyHeader h;
    h.n8q = r.u32("n8q");
    r.need(h.n8q, "q");
    expect_prime<typename E::Fq>(bytes, r.pos(), h.n8q, file, r.label() + " q", "q", E::kSnarkjsName);
    r.skip(h.n8q, "q");
    h.n8r = r.u32("n8r");
    r.need(h.n8r, "r");
    expect_prime<typename E::Fr>(bytes, r.pos(), h.n8r, file, r.label() + " r", "r", E::kSnarkjsName);
    r.skip(h.n8r, "r");
    h.curve = E::kSnarkjsName;
    const uint64_t counts = r.pos();
    h.n_vars = r.u32("nVars");
    h.n_public = r.u32("nPublic");
    h.domain_size = r.u32("domainSize");
    if (h.n_vars == 0 || uint64_t(h.n_public) + 1 > h.n_vars)
        fail(file, r.label() + " nPublic", counts + 4,
             "nPublic " + std::to_string(h.n_public) + " leaves no room for ONE among nVars " +
                 std::to_string(h.n_vars));
    const uint32_t d = h.domain_size;
    if (d == 0 || (d & (d - 1)) != 0 || d > (uint32_t(1) << kMaxLogDomain))
        fail(file, r.label() + " domainSize", counts + 8,
             "domainSize " + std::to_string(d) + " is not a power of two between 1 and 2^" +
                 std::to_string(kMaxLogDomain));
    if (uint64_t(h.n_public) + 1 > d)
        fail(file, r.label() + " domainSize", counts + 8,
             "domainSize " + std::to_string(d) + " cannot hold the " + std::to_string(h.n_public + 1) + " input rows");
    h.points_offset = r.pos();
    constexpr uint64_t kG1 = point_bytes<E, typename E::G1>(), kG2 = point_bytes<E, typename E::G2>();
    r.skip(3 * kG1 + 3 * kG2, "the six points alpha_1 .. delta_2");
    r.end();
    return h;
}

template <class E>
void check_layout(std::span<const uint8_t> bytes, std::string_view file, const BinFile& f, const ZkeyHeader& h) {
    constexpr uint64_t kG1 = point_bytes<E, typename E::G1>(), kG2 = point_bytes<E, typename E::G2>();
    const uint64_t aux = uint64_t(h.n_vars) - h.n_public - 1;
    auto label = [](uint32_t t) { return section_label("zkey", t); };
    expect_size(file, label(3), *f.find(3), uint64_t(h.n_public) + 1, kG1, "points");
    const Section& s4 = *f.find(4);
    Reader c(bytes, file, s4, label(4));
    const uint64_t n = c.u32("the coefficient count");
    const uint64_t item = 12 + h.n8r;
    if (c.left() != n * item)
        fail(file, label(4), s4.data_offset,
             "count " + std::to_string(n) + " needs " + std::to_string(n * item) +
                 " bytes of coefficients, the section has " + std::to_string(c.left()));
    expect_size(file, label(5), *f.find(5), h.n_vars, kG1, "points");
    expect_size(file, label(6), *f.find(6), h.n_vars, kG1, "points");
    expect_size(file, label(7), *f.find(7), h.n_vars, kG2, "points");
    expect_size(file, label(8), *f.find(8), aux, kG1, "points");
    expect_size(file, label(9), *f.find(9), h.domain_size, kG1, "points");
    // Section 10 (the MPC transcript) is not needed to prove: only its hash and count are
    // checked to be there.
    if (const Section* s10 = f.find(10); s10 && s10->size < 68)
        fail(file, label(10), s10->header_offset + 4,
             "size " + std::to_string(s10->size) + " bytes is less than its 64-byte hash and count");
}

// Section 4 into per-matrix rows. Coefficients are stored as c R^2 mod r: read as a
// Montgomery form they are c R, whose canonical integer is the Montgomery form of c.
template <class E>
void read_coefficients(std::span<const uint8_t> bytes, std::string_view file, const Section& s, const ZkeyHeader& h,
                       groth16::Zkey<E>& z) {
    using Fr = typename E::Fr;
    const std::string label = section_label("zkey", 4);
    const uint64_t n = load_u32(bytes.data() + s.data_offset);
    const uint64_t item = 12 + h.n8r;
    const uint64_t base = s.data_offset + 4;
    struct Term {
        uint32_t row, signal;
        Fr c;
    };
    std::vector<Term> terms[2];
    std::vector<uint64_t> counts[2] = {std::vector<uint64_t>(h.domain_size + 1, 0),
                                       std::vector<uint64_t>(h.domain_size + 1, 0)};
    for (uint64_t i = 0; i < n; ++i) {
        const uint8_t* p = bytes.data() + base + i * item;
        const uint64_t off = base + i * item;
        const std::string at = label + " coefficient " + std::to_string(i);
        const uint32_t m = load_u32(p), row = load_u32(p + 4), sig = load_u32(p + 8);
        if (m > 1) fail(file, at, off, "matrix " + std::to_string(m) + " (0 = A and 1 = B are the only ones)");
        if (row >= h.domain_size)
            fail(file, at, off + 4,
                 "constraint " + std::to_string(row) + " is outside the domain of " + std::to_string(h.domain_size));
        if (sig >= h.n_vars)
            fail(file, at, off + 8, "signal " + std::to_string(sig) + " of " + std::to_string(h.n_vars));
        auto v = load_limbs<Fr>(p + 12);
        if (!v) fail(file, at, off + 12, "value is not below r");
        const typename Fr::Big c_mont = Fr::from_raw_montgomery(*v).to_bigint();
        counts[m][row + 1]++;
        terms[m].push_back({row, sig, Fr::from_raw_montgomery(c_mont)});
    }
    groth16::SparseRows<Fr>* rows[2] = {&z.a_rows, &z.b_rows};
    for (int m = 0; m < 2; ++m) {
        auto& R = *rows[m];
        R.row_ptr.assign(h.domain_size + 1, 0);
        for (size_t i = 1; i <= h.domain_size; ++i) R.row_ptr[i] = R.row_ptr[i - 1] + counts[m][i];
        R.signal.resize(terms[m].size());
        R.coeff.resize(terms[m].size());
        std::vector<uint64_t> next(R.row_ptr.begin(), R.row_ptr.end() - 1);
        for (const Term& t : terms[m]) {
            const uint64_t k = next[t.row]++;
            R.signal[k] = t.signal;
            R.coeff[k] = t.c;
        }
    }
}

// The non-infinity points of a section and their bits in a density over the signals.
template <class P>
void compact(std::vector<P>&& all, std::vector<P>& out, std::vector<uint64_t>& density) {
    size_t n = 0;
    for (const P& p : all) n += !p.infinity;
    out.clear();
    out.reserve(n);
    for (size_t i = 0; i < all.size(); ++i) {
        if (all[i].infinity) continue;
        density[i / 64] |= uint64_t(1) << (i % 64);
        out.push_back(all[i]);
    }
    all = {};
}

// ---- .wtns and .r1cs field elements ------------------------------------------------------

template <class F>
F normal_element(std::span<const uint8_t> bytes, uint64_t off, std::string_view file, const std::string& at,
                 const char* what) {
    auto b = load_limbs<F>(bytes.data() + off);
    if (!b) fail(file, at, off, std::string(what) + " is not below the prime");
    return F::from_bigint_unchecked(*b);
}

}  // namespace

const Section* BinFile::find(uint32_t type) const {
    for (const Section& s : sections)
        if (s.type == type) return &s;
    return nullptr;
}

std::string section_name(std::string_view magic, uint32_t type) {
    if (magic != "zkey" && magic != "wtns" && magic != "r1cs") return "?";
    const FileKind& k = kind_of(magic);
    return type >= 1 && type <= k.names.size() ? k.names[type - 1] : "unknown";
}

bool is_circom_file(std::span<const uint8_t> head) {
    const std::string_view t(reinterpret_cast<const char*>(head.data()), std::min<size_t>(head.size(), 4));
    return t == "zkey" || t == "wtns" || t == "r1cs";
}

BinFile read_bin_layout(std::span<const uint8_t> bytes, std::string_view name) {
    if (!is_circom_file(bytes)) return layout(bytes, name, "zkey");  // fails with the magic found
    return layout(bytes, name, std::string_view(reinterpret_cast<const char*>(bytes.data()), 4));
}

template <class E>
groth16::Zkey<E> read_zkey_bytes(std::span<const uint8_t> bytes, const ReadOptions& opt, std::string_view file) {
    using G1 = typename E::G1;
    using G2 = typename E::G2;
    const BinFile f = layout(bytes, file, "zkey");
    const ZkeyHeader h = zkey_header<E>(bytes, file, f);
    check_layout<E>(bytes, file, f, h);
    const bool sub = opt.check_subgroup;
    groth16::Zkey<E> z;
    z.n_vars = h.n_vars;
    z.n_public = h.n_public;
    z.domain_size = h.domain_size;
    {
        Reader r(bytes, file, *f.find(2), section_label("zkey", 2));
        r.skip(h.points_offset - f.find(2)->data_offset, "the counts");
        z.alpha_1 = fixed_point<E, G1>(bytes, file, r, "alpha_1", sub);
        z.beta_1 = fixed_point<E, G1>(bytes, file, r, "beta_1", sub);
        z.beta_2 = fixed_point<E, G2>(bytes, file, r, "beta_2", sub);
        z.gamma_2 = fixed_point<E, G2>(bytes, file, r, "gamma_2", sub);
        z.delta_1 = fixed_point<E, G1>(bytes, file, r, "delta_1", sub);
        z.delta_2 = fixed_point<E, G2>(bytes, file, r, "delta_2", sub);
    }
    auto g1 = [&](uint32_t t, uint64_t count) {
        return decode_points<E, G1>(bytes, file, section_label("zkey", t), f.find(t)->data_offset, count, sub);
    };
    z.ic = g1(3, uint64_t(h.n_public) + 1);
    read_coefficients<E>(bytes, file, *f.find(4), h, z);
    const size_t words = (size_t(h.n_vars) + 63) / 64;
    z.z_density.a.assign(words, 0);
    z.z_density.b.assign(words, 0);
    compact(g1(5, h.n_vars), z.a, z.z_density.a);
    std::vector<uint64_t> b1_density(words, 0);
    compact(g1(6, h.n_vars), z.b1, b1_density);
    compact(decode_points<E, G2>(bytes, file, section_label("zkey", 7), f.find(7)->data_offset, h.n_vars, sub), z.b2,
            z.z_density.b);
    if (b1_density != z.z_density.b) {
        size_t i = 0;
        while (((b1_density[i / 64] ^ z.z_density.b[i / 64]) >> (i % 64) & 1) == 0) ++i;
        const bool inf1 = !(b1_density[i / 64] >> (i % 64) & 1);
        const uint32_t t = inf1 ? 6 : 7;
        fail(file, section_label("zkey", t) + " point " + std::to_string(i), kNone,
             std::string("point at infinity where ") + (inf1 ? "B2" : "B1") +
                 " has a point: B1 and B2 must agree on which signals are in B");
    }
    z.z_density.a_count = z.a.size();
    z.z_density.b_count = z.b1.size();
    z.c = g1(8, uint64_t(h.n_vars) - h.n_public - 1);
    z.h = g1(9, h.domain_size);
    return z;
}

template <class E>
groth16::Zkey<E> read_zkey(const std::filesystem::path& file, const ReadOptions& opt) {
    MappedFile m(file);
    return read_zkey_bytes<E>(m.bytes(), opt, file.string());
}

template <class E>
groth16::Wtns<E> read_wtns_bytes(std::span<const uint8_t> bytes, std::string_view file) {
    using Fr = typename E::Fr;
    const BinFile f = layout(bytes, file, "wtns");
    Reader r(bytes, file, *f.find(1), section_label("wtns", 1));
    const uint32_t n8 = r.u32("n8");
    r.need(n8, "the prime");
    expect_prime<Fr>(bytes, r.pos(), n8, file, r.label() + " prime", "the prime", E::kSnarkjsName);
    r.skip(n8, "the prime");
    const uint64_t count_at = r.pos();
    const uint32_t n = r.u32("nWitness");
    r.end();
    if (n == 0) fail(file, r.label() + " nWitness", count_at, "no values (a witness starts with ONE)");
    const Section& s2 = *f.find(2);
    const std::string label = section_label("wtns", 2);
    expect_size(file, label, s2, n, n8, "values");
    groth16::Wtns<E> w;
    w.values.resize(n);
    for (uint64_t i = 0; i < n; ++i)
        w.values[i] =
            normal_element<Fr>(bytes, s2.data_offset + i * n8, file, label + " value " + std::to_string(i), "value");
    return w;
}

template <class E>
groth16::Wtns<E> read_wtns(const std::filesystem::path& file) {
    MappedFile m(file);
    return read_wtns_bytes<E>(m.bytes(), file.string());
}

template <class E>
groth16::CircomR1cs<E> read_r1cs_bytes(std::span<const uint8_t> bytes, std::string_view file) {
    using Fr = typename E::Fr;
    const BinFile f = layout(bytes, file, "r1cs");
    for (uint32_t t : {4u, 5u})
        if (const Section* s = f.find(t))
            fail(file, section_label("r1cs", t), s->header_offset,
                 "custom gates (circom --O2 with PLONK gates) cannot be proven with Groth16");
    groth16::CircomR1cs<E> out;
    Reader r(bytes, file, *f.find(1), section_label("r1cs", 1));
    const uint32_t n8 = r.u32("n8");
    r.need(n8, "the prime");
    expect_prime<Fr>(bytes, r.pos(), n8, file, r.label() + " prime", "the prime", E::kCircomPrime);
    r.skip(n8, "the prime");
    const uint64_t counts_at = r.pos();
    out.n_wires = r.u32("nWires");
    out.n_pub_out = r.u32("nPubOut");
    out.n_pub_in = r.u32("nPubIn");
    out.n_prv_in = r.u32("nPrvIn");
    out.n_labels = r.u64("nLabels");
    const uint32_t m = r.u32("nConstraints");
    r.end();
    if (uint64_t(1) + out.n_pub_out + out.n_pub_in + out.n_prv_in > out.n_wires)
        fail(file, r.label() + " nWires", counts_at,
             "nWires " + std::to_string(out.n_wires) + " is less than ONE plus the " +
                 std::to_string(uint64_t(out.n_pub_out) + out.n_pub_in + out.n_prv_in) + " inputs and outputs");
    // Constraints: each needs at least 12 bytes (three term counts), checked before reserving.
    const Section& s2 = *f.find(2);
    Reader c(bytes, file, s2, section_label("r1cs", 2));
    if (uint64_t(m) * 12 > s2.size)
        fail(file, c.label(), s2.header_offset + 4,
             "size " + std::to_string(s2.size) + " bytes cannot hold " + std::to_string(m) +
                 " constraints of at least 12 bytes");
    groth16::SparseRows<Fr>* mats[3] = {&out.a, &out.b, &out.c};
    for (auto* mat : mats) mat->row_ptr.reserve(uint64_t(m) + 1);
    const uint64_t term_bytes = 4 + n8;
    for (uint32_t i = 0; i < m; ++i) {
        for (int k = 0; k < 3; ++k) {
            const uint64_t at = c.pos();
            const uint32_t terms = c.u32("a term count");
            const std::string where = c.label() + " constraint " + std::to_string(i) + " " + "ABC"[k];
            if (uint64_t(terms) * term_bytes > c.left())
                fail(file, where, at,
                     std::to_string(terms) + " terms need " + std::to_string(terms * term_bytes) +
                         " bytes, the section has " + std::to_string(c.left()) + " left");
            auto& mat = *mats[k];
            for (uint32_t t = 0; t < terms; ++t) {
                const uint64_t off = c.skip(term_bytes, "a term");
                const uint32_t wire = load_u32(bytes.data() + off);
                if (wire >= out.n_wires)
                    fail(file, where + " term " + std::to_string(t), off,
                         "wire " + std::to_string(wire) + " of " + std::to_string(out.n_wires));
                mat.signal.push_back(wire);
                mat.coeff.push_back(
                    normal_element<Fr>(bytes, off + 4, file, where + " term " + std::to_string(t), "coefficient"));
            }
            mat.row_ptr.push_back(mat.signal.size());
        }
    }
    c.end();
    if (const Section* s3 = f.find(3)) {
        const std::string label = section_label("r1cs", 3);
        expect_size(file, label, *s3, out.n_wires, 8, "labels");
        out.wire_to_label.resize(out.n_wires);
        for (uint64_t i = 0; i < out.n_wires; ++i) {
            const uint64_t off = s3->data_offset + 8 * i;
            out.wire_to_label[i] = load_u64(bytes.data() + off);
            if (out.wire_to_label[i] >= out.n_labels)
                fail(file, label + " wire " + std::to_string(i), off,
                     "label " + std::to_string(out.wire_to_label[i]) + " of nLabels " + std::to_string(out.n_labels));
        }
    }
    return out;
}

template <class E>
groth16::CircomR1cs<E> read_r1cs(const std::filesystem::path& file) {
    MappedFile m(file);
    return read_r1cs_bytes<E>(m.bytes(), file.string());
}

// ---- writers ---------------------------------------------------------------------------

namespace {

// Appends a section: type, size, then what fill writes.
template <class Fill>
void section(std::vector<uint8_t>& out, uint32_t type, Fill fill) {
    put_u32(out, type);
    const size_t size_at = out.size();
    put_u64(out, 0);
    const size_t start = out.size();
    fill();
    const uint64_t size = out.size() - start;
    std::memcpy(out.data() + size_at, &size, 8);
}

template <class F>
void put_limbs(std::vector<uint8_t>& out, const typename F::Big& b) {
    const uint8_t* p = reinterpret_cast<const uint8_t*>(b.l);
    out.insert(out.end(), p, p + 8 * F::N);
}
template <class F>
void put_mont(std::vector<uint8_t>& out, const F& x) {
    typename F::Big b;
    for (size_t i = 0; i < F::N; ++i) b.l[i] = x.l[i];
    put_limbs<F>(out, b);
}
template <class F>
void put_normal(std::vector<uint8_t>& out, const F& x) {
    put_limbs<F>(out, x.to_bigint());
}

template <class E, class Curve>
void put_point(std::vector<uint8_t>& out, const Affine<Curve>& p) {
    using Fq = typename E::Fq;
    if (p.infinity) {
        out.insert(out.end(), point_bytes<E, Curve>(), 0);
        return;
    }
    if constexpr (std::is_same_v<typename Curve::Field, Fq>) {
        put_mont(out, p.x);
        put_mont(out, p.y);
    } else {
        put_mont(out, p.x.c0);
        put_mont(out, p.x.c1);
        put_mont(out, p.y.c0);
        put_mont(out, p.y.c1);
    }
}

void put_header(std::vector<uint8_t>& out, const char* magic, uint32_t version, uint32_t sections) {
    out.insert(out.end(), magic, magic + 4);
    put_u32(out, version);
    put_u32(out, sections);
}

}  // namespace

template <class E>
std::vector<uint8_t> zkey_to_bytes(const ZkeyContents<E>& z) {
    using Fr = typename E::Fr;
    using Fq = typename E::Fq;
    std::vector<uint8_t> out;
    put_header(out, "zkey", 1, 10);
    section(out, 1, [&] { put_u32(out, 1); });
    section(out, 2, [&] {
        put_u32(out, 8 * Fq::N);
        put_limbs<Fq>(out, Fq::kP);
        put_u32(out, 8 * Fr::N);
        put_limbs<Fr>(out, Fr::kP);
        put_u32(out, z.n_vars);
        put_u32(out, z.n_public);
        put_u32(out, z.domain_size);
        put_point<E>(out, z.alpha_1);
        put_point<E>(out, z.beta_1);
        put_point<E>(out, z.beta_2);
        put_point<E>(out, z.gamma_2);
        put_point<E>(out, z.delta_1);
        put_point<E>(out, z.delta_2);
    });
    section(out, 3, [&] {
        for (const auto& p : z.ic) put_point<E>(out, p);
    });
    section(out, 4, [&] {
        put_u32(out, uint32_t(z.a_rows.terms() + z.b_rows.terms()));
        // c R^2 mod r: the Montgomery form of c R (see read_coefficients).
        const Fr r_mont = Fr::from_raw_montgomery(Fr::kR2);  // the value R
        const groth16::SparseRows<Fr>* m[2] = {&z.a_rows, &z.b_rows};
        for (uint32_t k = 0; k < 2; ++k)
            for (size_t row = 0; row < m[k]->rows(); ++row)
                for (uint64_t t = m[k]->row_ptr[row]; t < m[k]->row_ptr[row + 1]; ++t) {
                    put_u32(out, k);
                    put_u32(out, uint32_t(row));
                    put_u32(out, m[k]->signal[t]);
                    put_mont(out, m[k]->coeff[t] * r_mont);
                }
    });
    section(out, 5, [&] {
        for (const auto& p : z.a) put_point<E>(out, p);
    });
    section(out, 6, [&] {
        for (const auto& p : z.b1) put_point<E>(out, p);
    });
    section(out, 7, [&] {
        for (const auto& p : z.b2) put_point<E>(out, p);
    });
    section(out, 8, [&] {
        for (const auto& p : z.c) put_point<E>(out, p);
    });
    section(out, 9, [&] {
        for (const auto& p : z.h) put_point<E>(out, p);
    });
    section(out, 10, [&] {
        out.insert(out.end(), 64, 0);  // csHash
        put_u32(out, 0);               // no contributions
    });
    return out;
}

template <class E>
std::vector<uint8_t> wtns_to_bytes(std::span<const typename E::Fr> values) {
    using Fr = typename E::Fr;
    std::vector<uint8_t> out;
    put_header(out, "wtns", 2, 2);
    section(out, 1, [&] {
        put_u32(out, 8 * Fr::N);
        put_limbs<Fr>(out, Fr::kP);
        put_u32(out, uint32_t(values.size()));
    });
    section(out, 2, [&] {
        for (const Fr& v : values) put_normal(out, v);
    });
    return out;
}

template <class E>
std::vector<uint8_t> r1cs_to_bytes(const groth16::CircomR1cs<E>& r) {
    using Fr = typename E::Fr;
    std::vector<uint8_t> out;
    put_header(out, "r1cs", 1, r.wire_to_label.empty() ? 2 : 3);
    section(out, 1, [&] {
        put_u32(out, 8 * Fr::N);
        put_limbs<Fr>(out, Fr::kP);
        put_u32(out, r.n_wires);
        put_u32(out, r.n_pub_out);
        put_u32(out, r.n_pub_in);
        put_u32(out, r.n_prv_in);
        put_u64(out, r.n_labels);
        put_u32(out, uint32_t(r.n_constraints()));
    });
    section(out, 2, [&] {
        const groth16::SparseRows<Fr>* m[3] = {&r.a, &r.b, &r.c};
        for (size_t i = 0; i < r.n_constraints(); ++i)
            for (auto* mat : m) {
                put_u32(out, uint32_t(mat->row_ptr[i + 1] - mat->row_ptr[i]));
                for (uint64_t t = mat->row_ptr[i]; t < mat->row_ptr[i + 1]; ++t) {
                    put_u32(out, mat->signal[t]);
                    put_normal(out, mat->coeff[t]);
                }
            }
    });
    if (!r.wire_to_label.empty())
        section(out, 3, [&] {
            for (uint64_t l : r.wire_to_label) put_u64(out, l);
        });
    return out;
}

// ---- the curve of a file -------------------------------------------------------------

SnarkjsCurve detect_curve(std::span<const uint8_t> bytes, std::string_view file) {
    const BinFile f = read_bin_layout(bytes, file);
    // The scalar field prime: r in a .zkey's header (after n8q, q and n8r), the prime of a
    // .wtns's or an .r1cs's header (after n8).
    const uint32_t header = f.magic == "zkey" ? 2 : 1;
    const Section* s = f.find(header);
    const std::string label = section_label(f.magic, header);
    Reader r(bytes, file, *s, label);
    if (f.magic == "zkey") {
        const uint32_t n8q = r.u32("n8q");
        r.skip(n8q, "q");
    }
    const uint32_t n8 = r.u32(f.magic == "zkey" ? "n8r" : "n8");
    const char* what = f.magic == "zkey" ? "r" : "prime";
    const uint64_t at = r.skip(n8, what);
    if (n8 != 32 && n8 != 48)  // the scalar field prime of no curve snarkjs knows
        fail(file, label + " " + what, at - 4,
             std::string(what) + " is " + std::to_string(n8) + " bytes: cuzk proves bn128 (BN254) and bls12381 keys");
    const std::string dec = le_decimal(bytes.subspan(at, n8));
    for (const KnownCurve& c : kKnownCurves)
        if (dec == c.r) return std::string_view(c.name) == "bn128" ? SnarkjsCurve::kBn254 : SnarkjsCurve::kBls12_381;
    fail(file, label + " " + what, at,
         std::string(what) + " " + dec.substr(0, 100) + " is " + prime_owner(dec) +
             ": cuzk proves bn128 (BN254) and bls12381 keys");
}

SnarkjsCurve detect_curve(const std::filesystem::path& file) {
    MappedFile m(file);
    return detect_curve(m.bytes(), file.string());
}

// ---- inspect ---------------------------------------------------------------------------

std::string describe(std::span<const uint8_t> bytes, std::string_view name) {
    const BinFile f = read_bin_layout(bytes, name);
    std::ostringstream o;
    o << name << ": ." << f.magic << " version " << f.version << ", " << f.file_size << " bytes, " << f.sections.size()
      << " sections\n";
    char line[160];
    std::snprintf(line, sizeof line, "%-5s %-18s %14s %14s\n", "type", "section", "offset", "bytes");
    o << line;
    for (const Section& s : f.sections) {
        std::snprintf(line, sizeof line, "%-5u %-18s %14llu %14llu\n", s.type, section_name(f.magic, s.type).c_str(),
                      static_cast<unsigned long long>(s.data_offset), static_cast<unsigned long long>(s.size));
        o << line;
    }
    groth16::with_curve(detect_curve(bytes, name), [&](auto curve) {
        using E = decltype(curve);
        if (f.magic == "zkey") {
            const ZkeyHeader h = zkey_header<E>(bytes, name, f);
            check_layout<E>(bytes, name, f, h);
            o << "Groth16 on " << h.curve << ": nVars " << h.n_vars << " (ONE included), nPublic " << h.n_public
              << ", domainSize " << h.domain_size << ", coefficients "
              << load_u32(bytes.data() + f.find(4)->data_offset) << "\n";
        } else if (f.magic == "wtns") {
            const auto w = read_wtns_bytes<E>(bytes, name);
            o << "witness on " << E::kSnarkjsName << ": " << w.values.size() << " values (ONE included)\n";
        } else {
            const auto r = read_r1cs_bytes<E>(bytes, name);
            o << "R1CS on " << E::kCircomPrime << ": " << r.n_constraints() << " constraints, " << r.n_wires
              << " wires, " << r.n_pub_out << " public outputs, " << r.n_pub_in << " public inputs, " << r.n_prv_in
              << " private inputs, " << r.n_labels << " labels\n";
        }
    });
    return o.str();
}

#define CUZK_CIRCOM_INSTANTIATE(E)                                                                                \
    template groth16::Zkey<E> read_zkey_bytes<E>(std::span<const uint8_t>, const ReadOptions&, std::string_view); \
    template groth16::Zkey<E> read_zkey<E>(const std::filesystem::path&, const ReadOptions&);                     \
    template groth16::Wtns<E> read_wtns_bytes<E>(std::span<const uint8_t>, std::string_view);                     \
    template groth16::Wtns<E> read_wtns<E>(const std::filesystem::path&);                                         \
    template groth16::CircomR1cs<E> read_r1cs_bytes<E>(std::span<const uint8_t>, std::string_view);               \
    template groth16::CircomR1cs<E> read_r1cs<E>(const std::filesystem::path&);                                   \
    template std::vector<uint8_t> zkey_to_bytes<E>(const ZkeyContents<E>&);                                       \
    template std::vector<uint8_t> wtns_to_bytes<E>(std::span<const typename E::Fr>);                              \
    template std::vector<uint8_t> r1cs_to_bytes<E>(const groth16::CircomR1cs<E>&);
CUZK_CIRCOM_INSTANTIATE(Bls12_381)
CUZK_CIRCOM_INSTANTIATE(Bn254)
#undef CUZK_CIRCOM_INSTANTIATE

}  // namespace cuzk::formats::circom
