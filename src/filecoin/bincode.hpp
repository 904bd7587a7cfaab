// Internal to src/filecoin: bincode 1 with default options (integers little-endian fixed
// width, usize as u64, a Vec as its u64 length then its elements, [u8; 32] as 32 bytes, an
// enum as its u32 variant index then its fields, structs as their fields in order), as
// rust-fil-proofs' vanilla proofs are serialized (PoSt: post.cpp, SnapDeals: update.cpp), and
// the storage-proofs-core MerkleProof in it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/filecoin/c1.hpp"
#include "cuzk/filecoin/registry.hpp"
#include "cuzk/formats/error.hpp"

namespace cuzk::filecoin::bincode {

inline uint64_t le_u64(const uint8_t* p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
    return v;
}

// The expected ProofData variant (its serde index) of a tree shape.
inline MerkleProof::Kind proof_kind(const TreeShape& t) {
    return t.top_arity ? MerkleProof::Kind::Top : t.sub_arity ? MerkleProof::Kind::Sub : MerkleProof::Kind::Single;
}
inline const char* kind_name(MerkleProof::Kind k) {
    return k == MerkleProof::Kind::Top ? "Top" : k == MerkleProof::Kind::Sub ? "Sub" : "Single";
}

// A bounds-checked reader. `path_` is the field path of what is being read (grown and shrunk
// by Field), named by every error with the byte offset.
class Reader {
 public:
    Reader(std::span<const uint8_t> bytes, const std::string& file) : b_(bytes), file_(file) {}

    class Field {
     public:
        Field(Reader& r, const std::string& name) : r_(r), size_(r.path_.size()) {
            if (!r.path_.empty() && name[0] != '[') r.path_ += '.';
            r.path_ += name;
        }
        ~Field() { r_.path_.resize(size_); }
        Field(const Field&) = delete;
        Field& operator=(const Field&) = delete;

     private:
        Reader& r_;
        size_t size_;
    };

    [[noreturn]] void fail(const std::string& problem) const { fail_at(pos_, problem); }
    [[noreturn]] void fail_at(size_t at, const std::string& problem) const {
        throw formats::FormatError(file_, path_, at, problem);
    }
    size_t pos() const { return pos_; }

    uint64_t u64() {
        need(8, "a u64");
        const uint64_t v = le_u64(b_.data() + pos_);
        pos_ += 8;
        return v;
    }
    uint32_t u32() {
        need(4, "a u32");
        uint32_t v = 0;
        for (int i = 3; i >= 0; --i) v = v << 8 | b_[pos_ + i];
        pos_ += 4;
        return v;
    }
    Bytes32 b32() {
        need(32, "32 bytes");
        Bytes32 v;
        std::copy_n(b_.data() + pos_, 32, v.begin());
        pos_ += 32;
        return v;
    }
    // A Vec length that must equal `expected`, with at least min_elem bytes per element left.
    size_t len(uint64_t expected, uint64_t min_elem, const char* what) {
        const size_t at = pos_;
        const uint64_t n = u64();
        if (n != expected) {
            pos_ = at;
            fail("expected " + std::to_string(expected) + " " + what + ", found " + std::to_string(n));
        }
        if (min_elem && n > (b_.size() - pos_) / min_elem) {
            pos_ = at;
            fail(std::to_string(n) + " " + what + " need at least " + std::to_string(n * min_elem) + " bytes, " +
                 std::to_string(b_.size() - pos_ - 8) + " are left");
        }
        return size_t(n);
    }
    // A Vec length in [lo, hi], with at least min_elem bytes per element left.
    size_t len_in(uint64_t lo, uint64_t hi, uint64_t min_elem, const char* what) {
        const size_t at = pos_;
        const uint64_t n = u64();
        if (n < lo || n > hi) {
            pos_ = at;
            fail("expected " + std::to_string(lo) + " to " + std::to_string(hi) + " " + what + ", found " +
                 std::to_string(n));
        }
        if (min_elem && n > (b_.size() - pos_) / min_elem) {
            pos_ = at;
            fail(std::to_string(n) + " " + what + " need at least " + std::to_string(n * min_elem) + " bytes, " +
                 std::to_string(b_.size() - pos_ - 8) + " are left");
        }
        return size_t(n);
    }
    // n bytes (their count already read and checked against nothing: checked here).
    std::span<const uint8_t> bytes(uint64_t n) {
        if (n > b_.size() - pos_)
            fail("truncated: " + std::to_string(n) + " bytes, " + std::to_string(b_.size() - pos_) + " are left");
        const auto out = b_.subspan(pos_, size_t(n));
        pos_ += size_t(n);
        return out;
    }
    void finish() const {
        if (pos_ != b_.size()) fail(std::to_string(b_.size() - pos_) + " trailing bytes");
    }

 private:
    void need(size_t n, const char* what) const {
        if (b_.size() - pos_ < n)
            fail("truncated: " + std::string(what) + " needs " + std::to_string(n) + " bytes, " +
                 std::to_string(b_.size() - pos_) + " are left");
    }

    std::span<const uint8_t> b_;
    const std::string& file_;
    std::string path_;
    size_t pos_ = 0;
};

// "[i]", built in steps (GCC 12 warns falsely about "[" + std::string).
inline std::string index_name(size_t i) {
    std::string s(1, '[');
    s += std::to_string(i);
    s += ']';
    return s;
}

// Smallest encodings, for the length checks: a path element of arity a is 8 + 32(a-1) + 8.
inline uint64_t path_element_bytes(unsigned arity) { return 16 + 32ull * (arity - 1); }

inline std::vector<PathElement> read_path(Reader& r, const char* name, size_t levels, unsigned arity) {
    Reader::Field f(r, name);
    Reader::Field fp(r, "path");
    const size_t n = r.len(levels, path_element_bytes(arity), "levels");
    std::vector<PathElement> out(n);
    for (size_t l = 0; l < n; ++l) {
        Reader::Field fl(r, index_name(l));
        {
            Reader::Field fh(r, "hashes");
            const size_t k = r.len(arity - 1, 32, "siblings");
            out[l].hashes.resize(k);
            for (auto& h : out[l].hashes) h = r.b32();
        }
        Reader::Field fi(r, "index");
        const size_t at = r.pos();
        out[l].index = r.u64();
        if (out[l].index >= arity)
            r.fail_at(at, "index " + std::to_string(out[l].index) + " out of range for arity " + std::to_string(arity));
    }
    return out;
}

// A MerkleProof of a tree of this shape with `base_levels` base levels. `tree_name` names the
// tree in the variant mismatch message ("tree merkletree-poseidon_hasher-8-8-0").
inline MerkleProof read_merkle_proof(Reader& r, const TreeShape& tree, size_t base_levels,
                                     const std::string& tree_name) {
    Reader::Field f(r, "data");
    const size_t at = r.pos();
    const uint32_t variant = r.u32();
    const MerkleProof::Kind want = proof_kind(tree);
    if (variant > 2) r.fail_at(at, "unknown ProofData variant " + std::to_string(variant));
    MerkleProof m;
    m.kind = MerkleProof::Kind(variant);
    if (m.kind != want)
        r.fail_at(at, std::string("expected ProofData::") + kind_name(want) + " for " + tree_name + ", found " +
                          kind_name(m.kind));
    Reader::Field fk(r, kind_name(m.kind));
    if (m.kind == MerkleProof::Kind::Single) {
        {
            Reader::Field g(r, "root");
            m.root = r.b32();
        }
        {
            Reader::Field g(r, "leaf");
            m.leaf = r.b32();
        }
        m.base = read_path(r, "path", base_levels, tree.base_arity);
        return m;
    }
    m.base = read_path(r, "base_proof", base_levels, tree.base_arity);
    m.sub = read_path(r, "sub_proof", 1, tree.sub_arity);
    if (m.kind == MerkleProof::Kind::Top) m.top = read_path(r, "top_proof", 1, tree.top_arity);
    {
        Reader::Field g(r, "root");
        m.root = r.b32();
    }
    Reader::Field g(r, "leaf");
    m.leaf = r.b32();
    return m;
}

// The smallest encoding of one MerkleProof of this shape (for the count checks).
inline uint64_t merkle_proof_bytes(const TreeShape& tree, size_t base_levels) {
    uint64_t n = 4 + 64 + 8 + base_levels * path_element_bytes(tree.base_arity);
    if (tree.sub_arity) n += 8 + path_element_bytes(tree.sub_arity);
    if (tree.top_arity) n += 8 + path_element_bytes(tree.top_arity);
    return n;
}

class Writer {
 public:
    void u64(uint64_t v) {
        for (int i = 0; i < 8; ++i) out.push_back(uint8_t(v >> (8 * i)));
    }
    void u32(uint32_t v) {
        for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
    }
    void b32(const Bytes32& v) { out.insert(out.end(), v.begin(), v.end()); }
    void bytes(std::span<const uint8_t> v) { out.insert(out.end(), v.begin(), v.end()); }
    void path(const std::vector<PathElement>& p) {
        u64(p.size());
        for (const PathElement& e : p) {
            u64(e.hashes.size());
            for (const Bytes32& h : e.hashes) b32(h);
            u64(e.index);
        }
    }
    void merkle_proof(const MerkleProof& m) {
        u32(uint32_t(m.kind));
        if (m.kind == MerkleProof::Kind::Single) {
            b32(m.root);
            b32(m.leaf);
            path(m.base);
            return;
        }
        path(m.base);
        path(m.sub);
        if (m.kind == MerkleProof::Kind::Top) path(m.top);
        b32(m.root);
        b32(m.leaf);
    }
    std::vector<uint8_t> out;
};

}  // namespace cuzk::filecoin::bincode
