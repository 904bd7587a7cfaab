// SealCommitPhase1Output JSON: reader, writer, and the consistency checks (shapes and sources
// in the header).
#include "cuzk/filecoin/c1.hpp"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/filecoin/graph.hpp"
#include "cuzk/filecoin/sdr.hpp"
#include "cuzk/formats/error.hpp"
#include "cuzk/gadgets/poseidon.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {

using formats::FormatError;
using json = nlohmann::json;
using ojson = nlohmann::ordered_json;  // keeps serde's field order when writing

uint64_t MerkleProof::path_index(unsigned base_arity, unsigned sub_arity, unsigned top_arity) const {
    // SubProof/TopProof::path_index: top index, then sub index, then the base levels from the
    // root down, as mixed-radix digits.
    uint64_t acc = 0;
    for (const auto& e : top) acc = acc * top_arity + e.index;
    for (const auto& e : sub) acc = acc * sub_arity + e.index;
    for (auto it = base.rbegin(); it != base.rend(); ++it) acc = acc * base_arity + it->index;
    return acc;
}

namespace {

// ---- reading ---------------------------------------------------------------------------------

// A JSON value with its path, for error messages.
struct Node {
    const json& j;
    std::string path;
    std::string_view file;

    [[noreturn]] void fail(const std::string& problem) const {
        throw FormatError(std::string(file), path.empty() ? "(root)" : path, FormatError::kNoOffset, problem);
    }
    std::string child_path(std::string_view key) const {
        return path.empty() ? std::string(key) : path + "." + std::string(key);
    }
    Node field(std::string_view key) const {
        if (!j.is_object()) fail(std::string("expected a JSON object, found ") + j.type_name());
        auto it = j.find(key);
        if (it == j.end())
            throw FormatError(std::string(file), child_path(key), FormatError::kNoOffset, "missing field");
        return {*it, child_path(key), file};
    }
    const json* optional_field(std::string_view key) const {
        auto it = j.find(key);
        return it == j.end() ? nullptr : &*it;
    }
    Node at(size_t i) const { return {j[i], path + "[" + std::to_string(i) + "]", file}; }
    // An array; `what` names its elements in the count error ("expected 7 siblings, found 6").
    size_t array(size_t expected, const char* what) const {
        if (!j.is_array()) fail(std::string("expected an array, found ") + j.type_name());
        if (j.size() != expected)
            fail("expected " + std::to_string(expected) + " " + what + ", found " + std::to_string(j.size()));
        return expected;
    }
    uint64_t u64() const {
        if (j.is_number_unsigned()) return j.get<uint64_t>();
        if (j.is_number_integer() && j.get<int64_t>() >= 0) return uint64_t(j.get<int64_t>());
        fail(std::string("expected an unsigned integer, found ") +
             (j.is_number() ? "a negative or fractional number" : j.type_name()));
    }
    uint32_t u32() const {
        const uint64_t v = u64();
        if (v > 0xffffffffu) fail("value " + std::to_string(v) + " does not fit in a u32");
        return uint32_t(v);
    }
    std::string string() const {
        if (!j.is_string()) fail(std::string("expected a string, found ") + j.type_name());
        return j.get<std::string>();
    }
    // [u8; 32] as serde writes it: an array of 32 integers 0..255.
    Bytes32 bytes32() const {
        array(32, "bytes");
        Bytes32 out{};
        for (size_t i = 0; i < 32; ++i) {
            const uint64_t v = at(i).u64();
            if (v > 255) at(i).fail("byte value " + std::to_string(v) + " is out of range 0..255");
            out[i] = uint8_t(v);
        }
        return out;
    }
    // A hasher domain value, which the prover turns into an Fr: must be canonical.
    Bytes32 domain() const {
        const Bytes32 b = bytes32();
        if (!Fr::from_bytes_le(b.data())) fail("value is not a canonical Fr (it is >= the Fr modulus)");
        return b;
    }
};

std::string_view kind_name(MerkleProof::Kind k) {
    return k == MerkleProof::Kind::Single ? "Single" : k == MerkleProof::Kind::Sub ? "Sub" : "Top";
}

// What a Merkle proof in this C1 must look like.
struct MerkleShape {
    MerkleProof::Kind kind;
    unsigned base_levels, base_arity, sub_arity, top_arity;
};

MerkleShape comm_d_shape(const PoRepConfig& cfg) {
    return {MerkleProof::Kind::Single, cfg.comm_d_path_levels(), 2, 0, 0};
}
MerkleShape tree_r_shape(const PoRepConfig& cfg) {
    const auto kind = cfg.tree.top_arity   ? MerkleProof::Kind::Top
                      : cfg.tree.sub_arity ? MerkleProof::Kind::Sub
                                           : MerkleProof::Kind::Single;
    return {kind, cfg.base_path_levels(), cfg.tree.base_arity, cfg.tree.sub_arity, cfg.tree.top_arity};
}

std::vector<PathElement> read_path(const Node& n, unsigned levels, unsigned arity) {
    const Node p = n.field("path");  // InclusionPath { path: [...] }
    p.array(levels, "path levels");
    std::vector<PathElement> out(levels);
    for (size_t i = 0; i < levels; ++i) {
        const Node e = p.at(i);
        const Node hashes = e.field("hashes");
        hashes.array(arity - 1, "siblings");
        for (size_t h = 0; h < arity - 1; ++h) out[i].hashes.push_back(hashes.at(h).domain());
        const Node index = e.field("index");
        out[i].index = index.u64();
        if (out[i].index >= arity)
            index.fail("index " + std::to_string(out[i].index) + " is not below the arity " + std::to_string(arity));
    }
    return out;
}

MerkleProof read_merkle(const Node& n, const MerkleShape& shape) {
    const Node data = n.field("data");
    if (!data.j.is_object() || data.j.size() != 1)
        data.fail("expected an object with one key, \"" + std::string(kind_name(shape.kind)) + "\"");
    const std::string key = data.j.begin().key();
    if (key != kind_name(shape.kind))
        data.fail("expected a \"" + std::string(kind_name(shape.kind)) + "\" proof for this tree shape, found \"" +
                  key + "\"");
    const Node body = data.field(key);
    MerkleProof m;
    m.kind = shape.kind;
    if (shape.kind == MerkleProof::Kind::Single) {
        m.base = read_path(body.field("path"), shape.base_levels, shape.base_arity);
    } else {
        m.base = read_path(body.field("base_proof"), shape.base_levels, shape.base_arity);
        m.sub = read_path(body.field("sub_proof"), 1, shape.sub_arity);
        if (shape.kind == MerkleProof::Kind::Top) m.top = read_path(body.field("top_proof"), 1, shape.top_arity);
    }
    m.root = body.field("root").domain();
    m.leaf = body.field("leaf").domain();
    return m;
}

ColumnProof read_column_proof(const Node& n, const PoRepConfig& cfg) {
    ColumnProof c;
    const Node col = n.field("column");
    c.column.index = col.field("index").u32();
    if (c.column.index >= cfg.nodes)
        col.field("index").fail("node " + std::to_string(c.column.index) + " is not below the sector's " +
                                std::to_string(cfg.nodes) + " nodes");
    const Node rows = col.field("rows");
    rows.array(cfg.layers, "rows (one per layer)");
    for (size_t i = 0; i < cfg.layers; ++i) c.column.rows.push_back(rows.at(i).domain());
    if (const json* h = col.optional_field("_h"); h && !h->is_null())
        Node{*h, col.child_path("_h"), col.file}.fail("expected null (a PhantomData)");
    c.inclusion_proof = read_merkle(n.field("inclusion_proof"), tree_r_shape(cfg));
    return c;
}

LabelingProof read_labeling(const Node& n) {
    LabelingProof l;
    const Node parents = n.field("parents");
    parents.array(kTotalParents, "parent labels");
    for (size_t i = 0; i < kTotalParents; ++i) l.parents.push_back(parents.at(i).domain());
    l.layer_index = n.field("layer_index").u32();
    l.node = n.field("node").u64();
    return l;
}

VanillaProof read_proof(const Node& n, const PoRepConfig& cfg) {
    VanillaProof p;
    p.comm_d_proofs = read_merkle(n.field("comm_d_proofs"), comm_d_shape(cfg));
    p.comm_r_last_proof = read_merkle(n.field("comm_r_last_proof"), tree_r_shape(cfg));
    const Node rcp = n.field("replica_column_proofs");
    p.replica_column_proofs.c_x = read_column_proof(rcp.field("c_x"), cfg);
    const Node drg = rcp.field("drg_parents");
    drg.array(kBaseDegree, "DRG parent columns");
    for (size_t i = 0; i < kBaseDegree; ++i)
        p.replica_column_proofs.drg_parents.push_back(read_column_proof(drg.at(i), cfg));
    const Node exp = rcp.field("exp_parents");
    exp.array(kExpDegree, "expander parent columns");
    for (size_t i = 0; i < kExpDegree; ++i)
        p.replica_column_proofs.exp_parents.push_back(read_column_proof(exp.at(i), cfg));
    const Node labeling = n.field("labeling_proofs");
    labeling.array(cfg.layers, "labeling proofs (one per layer)");
    for (size_t i = 0; i < cfg.layers; ++i) {
        p.labeling_proofs.push_back(read_labeling(labeling.at(i)));
        if (p.labeling_proofs.back().layer_index != i + 1)
            labeling.at(i)
                .field("layer_index")
                .fail("expected layer " + std::to_string(i + 1) + ", found " +
                      std::to_string(p.labeling_proofs.back().layer_index));
    }
    p.encoding_proof = read_labeling(n.field("encoding_proof"));
    return p;
}

// ---- writing ---------------------------------------------------------------------------------

ojson bytes_json(const Bytes32& b) {
    ojson a = ojson::array();
    for (uint8_t v : b) a.push_back(v);
    return a;
}
ojson domains_json(const std::vector<Bytes32>& v) {
    ojson a = ojson::array();
    for (const auto& b : v) a.push_back(bytes_json(b));
    return a;
}
ojson path_json(const std::vector<PathElement>& path) {
    ojson a = ojson::array();
    for (const auto& e : path) {
        ojson o;
        o["hashes"] = domains_json(e.hashes);
        o["index"] = e.index;
        a.push_back(std::move(o));
    }
    ojson p;
    p["path"] = std::move(a);
    return p;
}
ojson merkle_json(const MerkleProof& m) {
    ojson body;
    if (m.kind == MerkleProof::Kind::Single) {
        body["root"] = bytes_json(m.root);
        body["leaf"] = bytes_json(m.leaf);
        body["path"] = path_json(m.base);
    } else {
        body["base_proof"] = path_json(m.base);
        body["sub_proof"] = path_json(m.sub);
        if (m.kind == MerkleProof::Kind::Top) body["top_proof"] = path_json(m.top);
        body["root"] = bytes_json(m.root);
        body["leaf"] = bytes_json(m.leaf);
    }
    ojson data;
    data[std::string(kind_name(m.kind))] = std::move(body);
    ojson out;
    out["data"] = std::move(data);
    return out;
}
ojson column_proof_json(const ColumnProof& c) {
    ojson col;
    col["index"] = c.column.index;
    col["rows"] = domains_json(c.column.rows);
    col["_h"] = nullptr;
    ojson out;
    out["column"] = std::move(col);
    out["inclusion_proof"] = merkle_json(c.inclusion_proof);
    return out;
}
ojson labeling_json(const LabelingProof& l) {
    ojson o;
    o["parents"] = domains_json(l.parents);
    o["layer_index"] = l.layer_index;
    o["node"] = l.node;
    return o;
}
ojson proof_json(const VanillaProof& p) {
    ojson o;
    o["comm_d_proofs"] = merkle_json(p.comm_d_proofs);
    o["comm_r_last_proof"] = merkle_json(p.comm_r_last_proof);
    ojson rcp;
    rcp["c_x"] = column_proof_json(p.replica_column_proofs.c_x);
    rcp["drg_parents"] = ojson::array();
    for (const auto& c : p.replica_column_proofs.drg_parents) rcp["drg_parents"].push_back(column_proof_json(c));
    rcp["exp_parents"] = ojson::array();
    for (const auto& c : p.replica_column_proofs.exp_parents) rcp["exp_parents"].push_back(column_proof_json(c));
    o["replica_column_proofs"] = std::move(rcp);
    o["labeling_proofs"] = ojson::array();
    for (const auto& l : p.labeling_proofs) o["labeling_proofs"].push_back(labeling_json(l));
    o["encoding_proof"] = labeling_json(p.encoding_proof);
    return o;
}

}  // namespace

namespace {

// JSON values a challenge proof of `cfg` may hold: 33 a 32-byte value (the array and its
// bytes), a few more a path level and an object; four times the count as a margin.
uint64_t proof_value_limit(const PoRepConfig& cfg) {
    const MerkleShape r = tree_r_shape(cfg);
    const uint64_t tree_r = uint64_t(r.base_levels) * (r.base_arity - 1) + (r.sub_arity ? r.sub_arity - 1 : 0) +
                            (r.top_arity ? r.top_arity - 1 : 0) + 2;
    const uint64_t levels = cfg.comm_d_path_levels() + 16 * (r.base_levels + 2);
    const uint64_t values32 = cfg.comm_d_path_levels() + 2 + tree_r +
                              (1 + kBaseDegree + kExpDegree) * (cfg.layers + tree_r) + (cfg.layers + 1) * kTotalParents;
    return 4 * (33 * values32 + 8 * levels) + 4096;
}

// Values of any other field (a 32-byte value or a name): a generous bound.
constexpr uint64_t kFieldValueLimit = 4096;

// The C1 JSON read as a stream of SAX events (nlohmann::json::sax_parse) into the result:
// each challenge proof, vanilla_proofs.<tag>[k][i], is built as a DOM, read (read_proof) and
// dropped as soon as it ends, the other known fields are kept as small DOMs and unknown
// fields are skipped. So the memory beyond the result is one challenge proof's DOM (about
// 20 times its text), never the whole document's; counts beyond the expected ones are
// skipped, not stored, and a proof or field with more values than it can have is refused.
// registered_proof must come before vanilla_proofs (serde and Curio write it first): it
// fixes the shapes the proofs are read against.
class C1Reader {
 public:
    using binary_t = json::binary_t;
    C1Reader(std::string_view file, SealCommitPhase1Output& out) : file_(file), out_(out) {}

    bool null() { return scalar(json(nullptr)); }
    bool boolean(bool v) { return scalar(json(v)); }
    bool number_integer(int64_t v) { return scalar(json(v)); }
    bool number_unsigned(uint64_t v) { return scalar(json(v)); }
    bool number_float(double v, const std::string&) { return scalar(json(v)); }
    bool string(std::string& v) { return scalar(json(std::move(v))); }
    bool binary(binary_t&) { return scalar(json(nullptr)); }
    bool start_object(size_t) { return start(true); }
    bool start_array(size_t) { return start(false); }
    bool end_object() { return end(); }
    bool end_array() { return end(); }
    bool key(std::string& k) {
        if (skip_) return true;
        if (building_) {
            key_ = std::move(k);
            return true;
        }
        if (depth_ == 1) {
            if (k == "vanilla_proofs" && seen_proofs_) fail("vanilla_proofs", "the field appears twice");
            root_key_ = std::move(k);
        } else if (depth_ == 2) {
            if (tag_seen_) fail("vanilla_proofs", "expected an object with one key, \"" + tag() + "\"");
            if (k != cfg_->vanilla_proof_tag)
                fail("vanilla_proofs",
                     "expected \"" + tag() + "\" proofs for " + std::string(cfg_->name) + ", found \"" + k + "\"");
            tag_seen_ = true;
        }
        return true;
    }
    bool parse_error(size_t position, const std::string&, const nlohmann::detail::exception& e) {
        throw FormatError(std::string(file_), "", position ? position - 1 : 0,
                          std::string("invalid JSON: ") + e.what());
    }

    // The fields other than vanilla_proofs, once the document has ended.
    const json& fields() const { return fields_; }
    bool saw_proofs() const { return seen_proofs_; }
    const PoRepConfig* config() const { return cfg_; }

 private:
    [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
        throw FormatError(std::string(file_), path.empty() ? "(root)" : path, FormatError::kNoOffset, problem);
    }
    std::string tag() const { return std::string(cfg_->vanilla_proof_tag); }
    std::string parts_path() const { return "vanilla_proofs." + tag(); }
    std::string part_path() const { return parts_path() + "[" + std::to_string(k_) + "]"; }
    std::string proof_path() const { return part_path() + "[" + std::to_string(i_) + "]"; }
    static bool known_field(const std::string& k) {
        for (const char* f : {"registered_proof", "comm_r", "comm_d", "replica_id", "seed", "ticket"})
            if (k == f) return true;
        return false;
    }

    // A value (a scalar, or a container's start) inside a DOM being built.
    json* put(json&& v) {
        if (++values_ > limit_)
            fail(building_proof_ ? proof_path() : root_key_,
                 "more than " + std::to_string(limit_) + " JSON values, more than the field can hold");
        if (stack_.empty()) {
            dom_ = std::move(v);
            return &dom_;
        }
        json& top = *stack_.back();
        if (top.is_array()) {
            top.push_back(std::move(v));
            return &top.back();
        }
        json& slot = top[key_];
        slot = std::move(v);
        return &slot;
    }
    void begin_build(bool proof) {
        building_ = true;
        building_proof_ = proof;
        values_ = 0;
        limit_ = proof ? proof_limit_ : kFieldValueLimit;
    }
    // The DOM being built is complete.
    void built() {
        building_ = false;
        if (building_proof_) {
            out_.vanilla_proofs.back().push_back(read_proof(Node{dom_, proof_path(), file_}, *cfg_));
            ++i_;
        } else {
            fields_[root_key_] = std::move(dom_);
        }
        dom_ = json();
    }

    bool scalar(json&& v) {
        if (skip_) return true;
        if (building_) {
            put(std::move(v));
            if (stack_.empty()) built();
            return true;
        }
        switch (depth_) {
            case 0:
                fail("", std::string("expected a JSON object, found ") + v.type_name());
            case 1:
                if (root_key_ == "vanilla_proofs") {
                    seen_proofs_ = true;
                    fail("vanilla_proofs", std::string("expected an object, found ") + v.type_name());
                }
                if (known_field(root_key_)) {
                    begin_build(false);
                    put(std::move(v));
                    built();
                }
                return true;
            case 2:
                fail(parts_path(), std::string("expected an array, found ") + v.type_name());
            case 3:
                if (k_ < cfg_->partitions) fail(part_path(), std::string("expected an array, found ") + v.type_name());
                ++k_;
                return true;
            default:  // 4: a challenge proof that is not an object: read_proof says so
                if (i_ >= cfg_->challenges_per_partition) {
                    ++i_;
                    return true;
                }
                begin_build(true);
                put(std::move(v));
                built();
                return true;
        }
    }

    bool start(bool object) {
        if (skip_) {
            ++skip_;
            return true;
        }
        if (building_) {
            stack_.push_back(put(object ? json::object() : json::array()));
            return true;
        }
        switch (depth_) {
            case 0:
                if (!object) fail("", "expected a JSON object, found array");
                fields_ = json::object();
                depth_ = 1;
                return true;
            case 1:
                if (root_key_ == "vanilla_proofs") {
                    enter_proofs(object);
                    depth_ = 2;
                } else if (known_field(root_key_)) {
                    begin_build(false);
                    stack_.push_back(put(object ? json::object() : json::array()));
                } else {
                    skip_ = 1;  // a field this reader does not use
                }
                return true;
            case 2:
                if (object) fail(parts_path(), "expected an array, found object");
                depth_ = 3;
                return true;
            case 3:
                if (k_ >= cfg_->partitions) {  // counted, not read: the count is refused at the end
                    ++k_;
                    skip_ = 1;
                    return true;
                }
                if (object) fail(part_path(), "expected an array, found object");
                out_.vanilla_proofs.emplace_back().reserve(cfg_->challenges_per_partition);
                i_ = 0;
                depth_ = 4;
                return true;
            default:  // 4: a challenge proof
                if (i_ >= cfg_->challenges_per_partition) {
                    ++i_;
                    skip_ = 1;
                    return true;
                }
                begin_build(true);
                stack_.push_back(put(object ? json::object() : json::array()));
                return true;
        }
    }

    bool end() {
        if (skip_) {
            --skip_;
            return true;
        }
        if (building_) {
            stack_.pop_back();
            if (stack_.empty()) built();
            return true;
        }
        switch (depth_) {
            case 1:
                depth_ = 0;
                return true;
            case 2:
                if (!tag_seen_) fail("vanilla_proofs", "expected an object with one key, \"" + tag() + "\"");
                depth_ = 1;
                return true;
            case 3:
                if (k_ != cfg_->partitions)
                    fail(parts_path(), "expected " + std::to_string(cfg_->partitions) + " partitions for " +
                                           std::string(cfg_->name) + ", found " + std::to_string(k_));
                depth_ = 2;
                return true;
            default:  // 4
                if (i_ != cfg_->challenges_per_partition)
                    fail(part_path(), "expected " + std::to_string(cfg_->challenges_per_partition) +
                                          " challenge proofs per partition, found " + std::to_string(i_));
                ++k_;
                depth_ = 3;
                return true;
        }
    }

    // vanilla_proofs starts: the registered proof read so far fixes what the proofs must be.
    void enter_proofs(bool object) {
        if (seen_proofs_) fail("vanilla_proofs", "the field appears twice");
        seen_proofs_ = true;
        if (!fields_.contains("registered_proof"))
            fail("vanilla_proofs", "registered_proof must come before vanilla_proofs (as filecoin-ffi writes it)");
        const Node rp = Node{fields_, "", file_}.field("registered_proof");
        const std::string name = rp.string();
        const auto proof = seal_proof_from_name(name);
        if (!proof) rp.fail("unknown registered seal proof \"" + name + "\"");
        cfg_ = &porep_config(*proof);
        if (!object) fail("vanilla_proofs", "expected an object with one key, \"" + tag() + "\"");
        proof_limit_ = proof_value_limit(*cfg_);
        out_.vanilla_proofs.reserve(cfg_->partitions);
    }

    std::string_view file_;
    SealCommitPhase1Output& out_;
    const PoRepConfig* cfg_ = nullptr;
    json fields_;           // the known fields other than vanilla_proofs
    std::string root_key_;  // the field whose value comes next (document depth 1)
    int depth_ = 0;         // containers of the structure open: root, vanilla_proofs, partitions, partition
    uint64_t skip_ = 0;     // depth inside a value being skipped
    bool seen_proofs_ = false, tag_seen_ = false;
    size_t k_ = 0, i_ = 0;  // partition, challenge
    // The DOM being built (a challenge proof or a small field).
    bool building_ = false, building_proof_ = false;
    json dom_;
    std::vector<json*> stack_;
    std::string key_;
    uint64_t values_ = 0, limit_ = 0, proof_limit_ = 0;
};

}  // namespace

SealCommitPhase1Output parse_c1_output(std::string_view text, std::string_view file) {
    SealCommitPhase1Output c1;
    C1Reader reader(file, c1);
    json::sax_parse(text.begin(), text.end(), &reader);
    if (!reader.saw_proofs()) {
        if (!reader.fields().contains("registered_proof"))
            throw FormatError(std::string(file), "registered_proof", FormatError::kNoOffset, "missing field");
        throw FormatError(std::string(file), "vanilla_proofs", FormatError::kNoOffset, "missing field");
    }
    const Node root{reader.fields(), "", file};
    c1.registered_proof = *seal_proof_from_name(root.field("registered_proof").string());
    c1.comm_r = root.field("comm_r").domain();
    c1.comm_d = root.field("comm_d").domain();
    c1.replica_id = root.field("replica_id").domain();
    c1.seed = root.field("seed").bytes32();
    c1.ticket = root.field("ticket").bytes32();
    return c1;
}

// The result holds under half the text (a 32 GiB C1: 14.5 MiB for 36.8 MiB of JSON, the peak
// resident set growing by 16 MiB); a challenge proof's DOM is at most its value limit, ~12 MiB.
uint64_t c1_parse_bytes(uint64_t text_bytes) { return text_bytes + (uint64_t(32) << 20); }

namespace {
template <class T>
uint64_t vec_bytes(const std::vector<T>& v) {
    return uint64_t(v.capacity()) * sizeof(T);
}
uint64_t heap_bytes(const MerkleProof& m) {
    uint64_t b = vec_bytes(m.base) + vec_bytes(m.sub) + vec_bytes(m.top);
    for (const auto* path : {&m.base, &m.sub, &m.top})
        for (const auto& e : *path) b += vec_bytes(e.hashes);
    return b;
}
uint64_t heap_bytes(const ColumnProof& c) { return vec_bytes(c.column.rows) + heap_bytes(c.inclusion_proof); }
}  // namespace

uint64_t c1_heap_bytes(const SealCommitPhase1Output& c1) {
    uint64_t b = vec_bytes(c1.vanilla_proofs);
    for (const auto& part : c1.vanilla_proofs) {
        b += vec_bytes(part);
        for (const VanillaProof& p : part) {
            b += heap_bytes(p.comm_d_proofs) + heap_bytes(p.comm_r_last_proof);
            const ReplicaColumnProof& r = p.replica_column_proofs;
            b += heap_bytes(r.c_x) + vec_bytes(r.drg_parents) + vec_bytes(r.exp_parents);
            for (const auto& c : r.drg_parents) b += heap_bytes(c);
            for (const auto& c : r.exp_parents) b += heap_bytes(c);
            b += vec_bytes(p.labeling_proofs) + vec_bytes(p.encoding_proof.parents);
            for (const auto& l : p.labeling_proofs) b += vec_bytes(l.parents);
        }
    }
    return b;
}

SealCommitPhase1Output read_c1_output_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) throw FormatError(path, "", FormatError::kNoOffset, "cannot open the file");
    // Read in place at the file's size (a string stream would hold the text twice).
    const std::streamoff size = in.tellg();
    std::string text(size_t(std::max<std::streamoff>(size, 0)), '\0');
    in.seekg(0);
    if (!in.read(text.data(), std::streamsize(text.size())))
        throw FormatError(path, "", FormatError::kNoOffset, "cannot read the file");
    return parse_c1_output(text, path);
}

std::string write_c1_output(const SealCommitPhase1Output& c1) {
    const PoRepConfig& cfg = porep_config(c1.registered_proof);
    ojson root;
    root["registered_proof"] = std::string(cfg.name);
    ojson parts = ojson::array();
    for (const auto& part : c1.vanilla_proofs) {
        ojson a = ojson::array();
        for (const auto& p : part) a.push_back(proof_json(p));
        parts.push_back(std::move(a));
    }
    ojson vp;
    vp[std::string(cfg.vanilla_proof_tag)] = std::move(parts);
    root["vanilla_proofs"] = std::move(vp);
    root["comm_r"] = bytes_json(c1.comm_r);
    root["comm_d"] = bytes_json(c1.comm_d);
    root["replica_id"] = bytes_json(c1.replica_id);
    root["seed"] = bytes_json(c1.seed);
    root["ticket"] = bytes_json(c1.ticket);
    return root.dump();
}

// ---- consistency -----------------------------------------------------------------------------

namespace {

// filecoin-hashers/src/sha256.rs: a tree-D node is SHA256(left ‖ right) with byte 31 &= 0x3f.
Bytes32 sha254_node(const Bytes32& l, const Bytes32& r) {
    Sha256 h;
    h.update(l);
    h.update(r);
    Bytes32 out = h.final();
    out[31] &= 0x3f;
    return out;
}

// The root a Poseidon tree path (tree C, tree R) hashes to: base levels at the base arity, then
// the sub and top levels (storage-proofs-core merkle/proof.rs validate). `fail` is called with
// a problem when a value is not a canonical Fr or an index is out of range.
template <class Fail>
Fr poseidon_path_root(const MerkleProof& m, const Fail& fail) {
    auto fr = [&](const Bytes32& b, const char* what) {
        const auto f = Fr::from_bytes_le(b.data());
        if (!f) fail(std::string(what) + " is not a canonical Fr");
        return *f;
    };
    Fr cur = fr(m.leaf, "the leaf");
    std::vector<Fr> group;
    for (const auto* levels : {&m.base, &m.sub, &m.top})
        for (const PathElement& e : *levels) {
            if (e.index > e.hashes.size()) fail("a path index is out of range");
            group.clear();
            for (const Bytes32& h : e.hashes) group.push_back(fr(h, "a sibling"));
            group.insert(group.begin() + std::ptrdiff_t(e.index), cur);
            cur = gadgets::poseidon_hash(group);  // MerkleTree tag, arity = group size
        }
    return cur;
}

}  // namespace

void check_c1_consistency(const SealCommitPhase1Output& c1, std::string_view file) {
    const PoRepConfig& cfg = porep_config(c1.registered_proof);
    const StackedGraph g(cfg);
    const std::string tag = "vanilla_proofs." + std::string(cfg.vanilla_proof_tag);
    auto fail = [&](const std::string& where, const std::string& problem) {
        throw FormatError(std::string(file), where, FormatError::kNoOffset, problem);
    };
    const unsigned a = cfg.tree.base_arity, b = cfg.tree.sub_arity, t = cfg.tree.top_arity;
    const Bytes32* comm_r_last = nullptr;
    const Bytes32* comm_c = nullptr;
    for (size_t k = 0; k < c1.vanilla_proofs.size(); ++k) {
        const auto challenges = porep_challenges(cfg, c1.replica_id, c1.seed, c1.comm_r, unsigned(k));
        for (size_t i = 0; i < c1.vanilla_proofs[k].size(); ++i) {
            const VanillaProof& p = c1.vanilla_proofs[k][i];
            const std::string at = tag + "[" + std::to_string(k) + "][" + std::to_string(i) + "]";
            const uint64_t c = challenges.at(i);
            auto expect_node = [&](uint64_t got, const std::string& where) {
                if (got != c)
                    fail(at + "." + where,
                         "proves node " + std::to_string(got) + ", but the challenge is node " + std::to_string(c));
            };
            // The challenge everywhere.
            expect_node(p.comm_d_proofs.path_index(2, 0, 0), "comm_d_proofs");
            expect_node(p.comm_r_last_proof.path_index(a, b, t), "comm_r_last_proof");
            const ReplicaColumnProof& rcp = p.replica_column_proofs;
            expect_node(rcp.c_x.column.index, "replica_column_proofs.c_x.column.index");
            expect_node(rcp.c_x.inclusion_proof.path_index(a, b, t), "replica_column_proofs.c_x.inclusion_proof");
            for (size_t l = 0; l < p.labeling_proofs.size(); ++l)
                expect_node(p.labeling_proofs[l].node, "labeling_proofs[" + std::to_string(l) + "].node");
            // The parents.
            std::array<uint32_t, kDegree> parents{};
            g.parents(c, parents);
            for (unsigned j = 0; j < kDegree; ++j) {
                const bool drg = j < kBaseDegree;
                const ColumnProof& col = drg ? rcp.drg_parents[j] : rcp.exp_parents[j - kBaseDegree];
                const std::string where = "replica_column_proofs." +
                                          std::string(drg ? "drg_parents[" : "exp_parents[") +
                                          std::to_string(drg ? j : j - kBaseDegree) + "]";
                if (col.column.index != parents[j] || col.inclusion_proof.path_index(a, b, t) != parents[j])
                    fail(at + "." + where, "column of node " + std::to_string(col.column.index) +
                                               ", but the graph's parent is node " + std::to_string(parents[j]));
            }
            // Tree C: each column's leaf is the Poseidon hash of its rows (arity = layers), and
            // its path hashes to its root.
            auto check_column = [&](const ColumnProof& col, const std::string& name) {
                const std::string where = at + ".replica_column_proofs." + name + ".inclusion_proof";
                std::vector<Fr> rows;
                for (size_t l = 0; l < col.column.rows.size(); ++l) {
                    const auto f = Fr::from_bytes_le(col.column.rows[l].data());
                    if (!f)
                        fail(at + ".replica_column_proofs." + name + ".column.rows[" + std::to_string(l) + "]",
                             "is not a canonical Fr");
                    rows.push_back(*f);
                }
                if (gadgets::poseidon_hash(rows).to_bytes_le() != col.inclusion_proof.leaf)
                    fail(where + ".leaf", "is not the Poseidon hash of the column's rows");
                const Fr root = poseidon_path_root(col.inclusion_proof, [&](const std::string& e) { fail(where, e); });
                if (root.to_bytes_le() != col.inclusion_proof.root)
                    fail(where, "the path does not hash to its root (tree C)");
            };
            check_column(rcp.c_x, "c_x");
            for (size_t j = 0; j < rcp.drg_parents.size(); ++j)
                check_column(rcp.drg_parents[j], "drg_parents[" + std::to_string(j) + "]");
            for (size_t j = 0; j < rcp.exp_parents.size(); ++j)
                check_column(rcp.exp_parents[j], "exp_parents[" + std::to_string(j) + "]");
            // Labeling proofs: the column labels in hash order, hashing to the challenge's rows.
            for (uint32_t layer = 1; layer <= cfg.layers; ++layer) {
                const LabelingProof& lp = p.labeling_proofs[layer - 1];
                const std::string where = at + ".labeling_proofs[" + std::to_string(layer - 1) + "]";
                std::vector<Bytes32> base;
                for (const auto& col : rcp.drg_parents) base.push_back(col.column.rows[layer - 1]);
                if (layer > 1)
                    for (const auto& col : rcp.exp_parents) base.push_back(col.column.rows[layer - 2]);
                for (unsigned q = 0; q < kTotalParents; ++q)
                    if (lp.parents[q] != base[q % base.size()])
                        fail(where + ".parents[" + std::to_string(q) + "]",
                             "does not match the parent columns' labels");
                if (label_from_parents(c1.replica_id, layer, c, lp.parents) != rcp.c_x.column.rows[layer - 1])
                    fail(where, "the label it hashes to is not the challenge column's row " + std::to_string(layer));
            }
            // Encoding: the last labeling proof again; key + data = the replica leaf.
            if (!(p.encoding_proof == p.labeling_proofs.back()))
                fail(at + ".encoding_proof", "differs from the last labeling proof");
            const auto encoded = encode_node(rcp.c_x.column.rows.back(), p.comm_d_proofs.leaf);
            if (!encoded || *encoded != p.comm_r_last_proof.leaf)
                fail(at + ".comm_r_last_proof", "leaf is not the last label + the data leaf (encoding)");
            // Tree R: Poseidon up to its root.
            {
                const std::string where = at + ".comm_r_last_proof";
                const Fr root = poseidon_path_root(p.comm_r_last_proof, [&](const std::string& e) { fail(where, e); });
                if (root.to_bytes_le() != p.comm_r_last_proof.root)
                    fail(where, "the path does not hash to its root (tree R)");
            }
            // Tree D: SHA-256 up to comm_d.
            Bytes32 h = p.comm_d_proofs.leaf;
            for (const auto& e : p.comm_d_proofs.base)
                h = e.index == 0 ? sha254_node(h, e.hashes[0]) : sha254_node(e.hashes[0], h);
            if (h != p.comm_d_proofs.root || h != c1.comm_d)
                fail(at + ".comm_d_proofs", "the path does not hash to comm_d");
            // One tree R and one tree C for the whole proof.
            if (!comm_r_last) comm_r_last = &p.comm_r_last_proof.root;
            if (p.comm_r_last_proof.root != *comm_r_last)
                fail(at + ".comm_r_last_proof.root", "differs from the first proof's tree-R root");
            if (!comm_c) comm_c = &rcp.c_x.inclusion_proof.root;
            auto same_c = [&](const ColumnProof& col, const std::string& where) {
                if (col.inclusion_proof.root != *comm_c)
                    fail(at + ".replica_column_proofs." + where + ".inclusion_proof",
                         "root differs from the first proof's tree-C root");
            };
            same_c(rcp.c_x, "c_x");
            for (size_t j = 0; j < rcp.drg_parents.size(); ++j)
                same_c(rcp.drg_parents[j], "drg_parents[" + std::to_string(j) + "]");
            for (size_t j = 0; j < rcp.exp_parents.size(); ++j)
                same_c(rcp.exp_parents[j], "exp_parents[" + std::to_string(j) + "]");
        }
    }
    // comm_r = Poseidon2(comm_c, comm_r_last) (filecoin-hashers poseidon.rs hash2: arity 2,
    // MerkleTree tag), with the roots every proof agreed on.
    if (comm_c && comm_r_last) {
        const auto c = Fr::from_bytes_le(comm_c->data()), r = Fr::from_bytes_le(comm_r_last->data());
        if (!c || !r) fail("comm_r", "the tree-C or tree-R root is not a canonical Fr");
        const std::array<Fr, 2> pair{*c, *r};
        if (gadgets::poseidon_hash(pair).to_bytes_le() != c1.comm_r)
            fail("comm_r", "is not Poseidon2(comm_c, comm_r_last) of the proofs' tree-C and tree-R roots");
    }
}

}  // namespace cuzk::filecoin
