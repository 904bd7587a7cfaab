// SealCommitPhase1Output JSON: reader, writer, and the consistency checks (shapes and sources
// in the header).
#include "cuzk/filecoin/c1.hpp"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

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

SealCommitPhase1Output parse_c1_output(std::string_view text, std::string_view file) {
    json doc;
    try {
        doc = json::parse(text);
    } catch (const json::parse_error& e) {
        throw FormatError(std::string(file), "", e.byte ? e.byte - 1 : 0, std::string("invalid JSON: ") + e.what());
    }
    const Node root{doc, "", file};
    SealCommitPhase1Output c1;
    const Node rp = root.field("registered_proof");
    const std::string name = rp.string();
    const auto proof = seal_proof_from_name(name);
    if (!proof) rp.fail("unknown registered seal proof \"" + name + "\"");
    c1.registered_proof = *proof;
    const PoRepConfig& cfg = porep_config(*proof);

    const Node vp = root.field("vanilla_proofs");
    if (!vp.j.is_object() || vp.j.size() != 1)
        vp.fail("expected an object with one key, \"" + std::string(cfg.vanilla_proof_tag) + "\"");
    if (vp.j.begin().key() != cfg.vanilla_proof_tag)
        vp.fail("expected \"" + std::string(cfg.vanilla_proof_tag) + "\" proofs for " + name + ", found \"" +
                vp.j.begin().key() + "\"");
    const Node parts = vp.field(cfg.vanilla_proof_tag);
    parts.array(cfg.partitions, ("partitions for " + name).c_str());
    for (size_t k = 0; k < cfg.partitions; ++k) {
        const Node part = parts.at(k);
        part.array(cfg.challenges_per_partition, "challenge proofs per partition");
        std::vector<VanillaProof> proofs;
        proofs.reserve(cfg.challenges_per_partition);
        for (size_t i = 0; i < cfg.challenges_per_partition; ++i) proofs.push_back(read_proof(part.at(i), cfg));
        c1.vanilla_proofs.push_back(std::move(proofs));
    }
    c1.comm_r = root.field("comm_r").domain();
    c1.comm_d = root.field("comm_d").domain();
    c1.replica_id = root.field("replica_id").domain();
    c1.seed = root.field("seed").bytes32();
    c1.ticket = root.field("ticket").bytes32();
    return c1;
}

SealCommitPhase1Output read_c1_output_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw FormatError(path, "", FormatError::kNoOffset, "cannot open the file");
    std::ostringstream ss;
    ss << in.rdbuf();
    return parse_c1_output(ss.str(), path);
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
