// The C1 output JSON: the C1 of a real 2 KiB seal (seal.hpp) round-trips byte for byte, passes
// the consistency checks, and every kind of damage is rejected with the JSON path of the
// damaged field.
#include <gtest/gtest.h>

#include <malloc.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "cuzk/filecoin/c1.hpp"
#include "cuzk/filecoin/sdr.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/formats/error.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::filecoin {
namespace {

using json = nlohmann::json;

Bytes32 h254(std::span<const Bytes32> parts) {
    Sha256 h;
    for (const auto& p : parts) h.update(p);
    Bytes32 out = h.final();
    out[31] &= 0x3f;
    return out;
}

Bytes32 pseudo(uint64_t i, uint8_t salt) {
    Bytes32 b{};
    b[0] = salt;
    for (int k = 0; k < 8; ++k) b[1 + k] = uint8_t(i >> (8 * k));
    return h254(std::span<const Bytes32>(&b, 1));
}

// A real 2 KiB seal (seal.hpp): pseudo-random data, labels, trees D, C, R_last, then C1.
SealCommitPhase1Output make_c1(RegisteredSealProof proof) {
    const PoRepConfig& cfg = porep_config(proof);
    SealParams params;
    params.proof = proof;
    params.prover_id[0] = 0x42;
    params.ticket.fill(0x07);
    params.sector_id = 77;
    Bytes32 seed;
    seed.fill(0x5a);
    return SealedSector::seal(params, pseudo_random_sector_data(cfg, 1)).commit_phase1(seed);
}

const std::string& sample_json() {
    static const std::string s = write_c1_output(make_c1(RegisteredSealProof::StackedDrg2KiBV1_1));
    return s;
}

// The error message of parsing `text`, or "" when it parses.
std::string parse_error(const std::string& text) {
    try {
        parse_c1_output(text, "c1.json");
    } catch (const formats::FormatError& e) {
        return e.what();
    }
    return "";
}

std::string damaged(const std::function<void(json&)>& damage) {
    json j = json::parse(sample_json());
    damage(j);
    return j.dump();
}

json& proof01(json& j) { return j["vanilla_proofs"]["StackedDrg2KiBV1"][0][1]; }

TEST(C1, RoundTripIsByteExact) {
    const SealCommitPhase1Output c1 = make_c1(RegisteredSealProof::StackedDrg2KiBV1_1);
    const std::string text = write_c1_output(c1);
    const SealCommitPhase1Output back = parse_c1_output(text);
    EXPECT_EQ(back, c1);
    EXPECT_EQ(write_c1_output(back), text);
    // serde's layout, spot-checked.
    const json j = json::parse(text);
    EXPECT_EQ(nlohmann::ordered_json::parse(text).begin().key(), "registered_proof");  // serde's field order
    EXPECT_EQ(j["registered_proof"], "StackedDrg2KiBV1_1");
    const json& p = j["vanilla_proofs"]["StackedDrg2KiBV1"][0][0];
    EXPECT_EQ(p["comm_d_proofs"]["data"]["Single"]["path"]["path"].size(), 6u);
    EXPECT_EQ(p["comm_r_last_proof"]["data"]["Single"]["path"]["path"][0]["hashes"].size(), 7u);
    EXPECT_TRUE(p["replica_column_proofs"]["c_x"]["column"]["_h"].is_null());
    EXPECT_EQ(p["labeling_proofs"][1]["layer_index"], 2);
    EXPECT_EQ(j["seed"].size(), 32u);
    EXPECT_EQ(j["seed"][0], 0x5a);
    // The V1 proof of the same size writes the same vanilla-proof tag.
    EXPECT_EQ(
        json::parse(write_c1_output(make_c1(RegisteredSealProof::StackedDrg2KiBV1)))["vanilla_proofs"].begin().key(),
        "StackedDrg2KiBV1");
}

TEST(C1, ConsistencyOfTheSample) {
    for (auto proof : {RegisteredSealProof::StackedDrg2KiBV1, RegisteredSealProof::StackedDrg2KiBV1_1,
                       RegisteredSealProof::StackedDrg2KiBV1_2_Feat_NonInteractivePoRep}) {
        const SealCommitPhase1Output c1 = make_c1(proof);
        EXPECT_NO_THROW(check_c1_consistency(c1)) << porep_config(proof).name;
        EXPECT_EQ(c1.vanilla_proofs.size(), porep_config(proof).partitions);
    }
}

// NI-PoRep's C1 differs from interactive PoRep's only in registered_proof and the number of
// partitions (13 at test sizes); its seed is carried but not used (seal.rs: "when using NI-PoRep
// the PoRep challenge generation seed is ignored"), its challenges come from comm_r.
TEST(C1, NonInteractivePoRep) {
    const SealCommitPhase1Output c1 = make_c1(RegisteredSealProof::StackedDrg2KiBV1_2_Feat_NonInteractivePoRep);
    const std::string text = write_c1_output(c1);
    const json j = json::parse(text);
    EXPECT_EQ(j["registered_proof"], "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep");
    EXPECT_EQ(j["vanilla_proofs"]["StackedDrg2KiBV1"].size(), 13u);
    EXPECT_EQ(j["vanilla_proofs"]["StackedDrg2KiBV1"][12].size(), 2u);
    EXPECT_EQ(parse_c1_output(text), c1);
    auto error = [](const SealCommitPhase1Output& c) -> std::string {
        try {
            check_c1_consistency(c, "c1.json");
        } catch (const formats::FormatError& e) {
            return e.what();
        }
        return "";
    };
    EXPECT_EQ(error(c1), "");
    // The proven nodes are comm_r's challenges in every partition.
    for (unsigned k = 0; k < 13; ++k)
        for (unsigned i = 0; i < 2; ++i)
            EXPECT_EQ(c1.vanilla_proofs[k][i].replica_column_proofs.c_x.column.index,
                      ni_challenges(64, c1.replica_id, c1.comm_r, 2, uint8_t(k))[i]);
    auto other = c1;
    other.seed[0] ^= 1;  // not used
    EXPECT_EQ(error(other), "");
    other = c1;
    other.comm_r[0] ^= 1;  // other challenges
    EXPECT_NE(error(other).find("but the challenge is node"), std::string::npos) << error(other);
    other = c1;
    other.replica_id[0] ^= 1;
    EXPECT_NE(error(other), "");
    // The interactive proof's partition count is refused, naming the NI proof.
    json one = j;
    while (one["vanilla_proofs"]["StackedDrg2KiBV1"].size() > 1) one["vanilla_proofs"]["StackedDrg2KiBV1"].erase(1);
    EXPECT_EQ(parse_error(one.dump()),
              "c1.json: vanilla_proofs.StackedDrg2KiBV1: expected 13 partitions for "
              "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep, found 1");
    // And an interactive C1 relabelled NI: 1 partition, and its challenges are the seed's.
    json relabel = json::parse(sample_json());
    relabel["registered_proof"] = "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep";
    EXPECT_NE(parse_error(relabel.dump()).find("expected 13 partitions"), std::string::npos);
}

TEST(C1, ConsistencyRejectsWrongData) {
    const SealCommitPhase1Output good = make_c1(RegisteredSealProof::StackedDrg2KiBV1_1);
    auto error = [](const SealCommitPhase1Output& c1) -> std::string {
        try {
            check_c1_consistency(c1, "c1.json");
        } catch (const formats::FormatError& e) {
            return e.what();
        }
        return "";
    };
    const std::string at = "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].";
    {
        auto c1 = good;  // another seed: other challenges
        c1.seed[0] ^= 1;
        EXPECT_NE(error(c1).find("but the challenge is node"), std::string::npos) << error(c1);
    }
    {
        auto c1 = good;  // a DRG parent column of the wrong node
        auto& col = c1.vanilla_proofs[0][1].replica_column_proofs.drg_parents[3];
        col = c1.vanilla_proofs[0][1].replica_column_proofs.exp_parents[0];
        EXPECT_EQ(error(c1).rfind(at + "replica_column_proofs.drg_parents[3]: column of node", 0), 0u) << error(c1);
    }
    {
        auto c1 = good;  // a parent label changed
        c1.vanilla_proofs[0][1].labeling_proofs[1].parents[20][0] ^= 1;
        EXPECT_EQ(error(c1), at + "labeling_proofs[1].parents[20]: does not match the parent columns' labels");
    }
    {
        auto c1 = good;  // a label row changed
        c1.vanilla_proofs[0][1].replica_column_proofs.c_x.column.rows[0][3] ^= 1;
        EXPECT_EQ(error(c1),
                  at + "replica_column_proofs.c_x.inclusion_proof.leaf: is not the Poseidon hash of the column's rows");
    }
    {
        auto c1 = good;
        c1.vanilla_proofs[0][1].comm_r_last_proof.leaf[2] ^= 1;
        EXPECT_EQ(error(c1), at + "comm_r_last_proof: leaf is not the last label + the data leaf (encoding)");
    }
    {
        auto c1 = good;
        c1.vanilla_proofs[0][1].comm_d_proofs.base[4].hashes[0][0] ^= 1;
        EXPECT_EQ(error(c1), at + "comm_d_proofs: the path does not hash to comm_d");
    }
    {
        auto c1 = good;
        c1.vanilla_proofs[0][1].replica_column_proofs.exp_parents[7].inclusion_proof.root[0] ^= 1;
        EXPECT_EQ(error(c1),
                  at + "replica_column_proofs.exp_parents[7].inclusion_proof: the path does not hash to its root "
                       "(tree C)");
    }
}

TEST(C1, RejectsMalformedInputNamingTheField) {
    const std::string p01 = "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].";
    EXPECT_EQ(parse_error(sample_json()), "");
    EXPECT_EQ(parse_error(damaged([](json& j) {
                  proof01(j)["comm_r_last_proof"]["data"]["Single"]["path"]["path"][1]["hashes"].erase(0);
              })),
              p01 + "comm_r_last_proof.data.Single.path.path[1].hashes: expected 7 siblings, found 6");
    EXPECT_EQ(
        parse_error(damaged([](json& j) { proof01(j)["comm_d_proofs"]["data"]["Single"]["path"]["path"].erase(5); })),
        p01 + "comm_d_proofs.data.Single.path.path: expected 6 path levels, found 5");
    EXPECT_EQ(parse_error(damaged(
                  [](json& j) { proof01(j)["comm_r_last_proof"]["data"]["Single"]["path"]["path"][0]["index"] = 8; })),
              p01 + "comm_r_last_proof.data.Single.path.path[0].index: index 8 is not below the arity 8");
    EXPECT_EQ(parse_error(damaged([](json& j) {
                  auto& d = proof01(j)["comm_r_last_proof"]["data"];
                  d["Sub"] = d["Single"];
                  d.erase("Single");
              })),
              p01 + "comm_r_last_proof.data: expected a \"Single\" proof for this tree shape, found \"Sub\"");
    EXPECT_EQ(parse_error(damaged([](json& j) { proof01(j)["replica_column_proofs"]["exp_parents"].erase(7); })),
              p01 + "replica_column_proofs.exp_parents: expected 8 expander parent columns, found 7");
    EXPECT_EQ(parse_error(damaged(
                  [](json& j) { proof01(j)["replica_column_proofs"]["drg_parents"][2]["column"]["rows"].erase(1); })),
              p01 + "replica_column_proofs.drg_parents[2].column.rows: expected 2 rows (one per layer), found 1");
    EXPECT_EQ(parse_error(damaged([](json& j) { proof01(j)["labeling_proofs"][0]["parents"].erase(36); })),
              p01 + "labeling_proofs[0].parents: expected 37 parent labels, found 36");
    EXPECT_EQ(parse_error(damaged([](json& j) { proof01(j)["labeling_proofs"][1]["layer_index"] = 3; })),
              p01 + "labeling_proofs[1].layer_index: expected layer 2, found 3");
    EXPECT_EQ(parse_error(damaged([](json& j) { proof01(j)["encoding_proof"].erase("node"); })),
              p01 + "encoding_proof.node: missing field");
    EXPECT_EQ(
        parse_error(damaged([](json& j) { proof01(j)["comm_r_last_proof"]["data"]["Single"]["root"][31] = 0xff; })),
        p01 + "comm_r_last_proof.data.Single.root: value is not a canonical Fr (it is >= the Fr modulus)");
    EXPECT_EQ(parse_error(damaged([](json& j) { proof01(j)["comm_d_proofs"]["data"]["Single"]["leaf"][4] = 256; })),
              p01 + "comm_d_proofs.data.Single.leaf[4]: byte value 256 is out of range 0..255");
    EXPECT_EQ(parse_error(damaged([](json& j) { proof01(j)["comm_d_proofs"]["data"]["Single"]["leaf"][4] = -1; })),
              p01 +
                  "comm_d_proofs.data.Single.leaf[4]: expected an unsigned integer, found a negative or "
                  "fractional number");
    EXPECT_EQ(parse_error(damaged([](json& j) { proof01(j)["replica_column_proofs"]["c_x"]["column"]["index"] = 64; })),
              p01 + "replica_column_proofs.c_x.column.index: node 64 is not below the sector's 64 nodes");
    EXPECT_EQ(parse_error(damaged([](json& j) { j["vanilla_proofs"]["StackedDrg2KiBV1"][0].erase(1); })),
              "c1.json: vanilla_proofs.StackedDrg2KiBV1[0]: expected 2 challenge proofs per partition, found 1");
    EXPECT_EQ(parse_error(damaged([](json& j) {
                  auto& v = j["vanilla_proofs"]["StackedDrg2KiBV1"];
                  v.push_back(v[0]);
              })),
              "c1.json: vanilla_proofs.StackedDrg2KiBV1: expected 1 partitions for StackedDrg2KiBV1_1, found 2");
    EXPECT_EQ(parse_error(damaged([](json& j) {
                  j["vanilla_proofs"]["StackedDrg8MiBV1"] = j["vanilla_proofs"]["StackedDrg2KiBV1"];
                  j["vanilla_proofs"].erase("StackedDrg2KiBV1");
              })),
              "c1.json: vanilla_proofs: expected \"StackedDrg2KiBV1\" proofs for StackedDrg2KiBV1_1, found "
              "\"StackedDrg8MiBV1\"");
    EXPECT_EQ(parse_error(damaged([](json& j) { j["registered_proof"] = "StackedDrg4KiBV1"; })),
              "c1.json: registered_proof: unknown registered seal proof \"StackedDrg4KiBV1\"");
    EXPECT_EQ(parse_error(damaged([](json& j) { j["registered_proof"] = 5; })),
              "c1.json: registered_proof: expected a string, found number");
    EXPECT_EQ(parse_error(damaged([](json& j) { j.erase("seed"); })), "c1.json: seed: missing field");
    EXPECT_EQ(parse_error(damaged([](json& j) { j["ticket"].erase(31); })),
              "c1.json: ticket: expected 32 bytes, found 31");
    EXPECT_EQ(parse_error(damaged([](json& j) { proof01(j)["replica_column_proofs"]["c_x"]["column"]["_h"] = 1; })),
              p01 + "replica_column_proofs.c_x.column._h: expected null (a PhantomData)");
    EXPECT_EQ(parse_error("[]"), "c1.json: (root): expected a JSON object, found array");
    // A missing "_h" is accepted (Rust would want it; nothing depends on it).
    EXPECT_EQ(parse_error(damaged([](json& j) { proof01(j)["replica_column_proofs"]["c_x"]["column"].erase("_h"); })),
              "");
}

// The reader streams: values beyond what a proof or a field can hold are refused naming it,
// unknown fields are skipped, and vanilla_proofs is read against the registered_proof before it.
TEST(C1, RefusesOversizedValuesAndSkipsUnknownFields) {
    const std::string p01 = "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1]";
    const json big = json(std::vector<uint32_t>(1 << 17, 7));  // more than a 2 KiB proof's ~70k values
    std::string e = parse_error(damaged([&](json& j) { proof01(j)["encoding_proof"]["parents"][3] = big; }));
    EXPECT_EQ(e.rfind(p01 + ": more than ", 0), 0u) << e;
    e = parse_error(damaged([&](json& j) { proof01(j)["extra"] = big; }));
    EXPECT_EQ(e.rfind(p01 + ": more than ", 0), 0u) << e;
    e = parse_error(damaged([&](json& j) { j["ticket"] = big; }));
    EXPECT_EQ(e.rfind("c1.json: ticket: more than ", 0), 0u) << e;
    // Extra challenge proofs are counted without being read.
    EXPECT_EQ(parse_error(damaged([&](json& j) {
                  for (int i = 0; i < 10; ++i) j["vanilla_proofs"]["StackedDrg2KiBV1"][0].push_back(big);
              })),
              "c1.json: vanilla_proofs.StackedDrg2KiBV1[0]: expected 2 challenge proofs per partition, found 12");
    EXPECT_EQ(parse_error(damaged([&](json& j) { j["zz_unknown"] = big; })), "");
    // Fields in another order than serde's: fine, except vanilla_proofs before registered_proof.
    nlohmann::ordered_json o = nlohmann::ordered_json::parse(sample_json());
    nlohmann::ordered_json reordered;
    for (const char* k : {"ticket", "seed", "registered_proof", "vanilla_proofs", "comm_r", "comm_d", "replica_id"})
        reordered[k] = o[k];
    EXPECT_EQ(parse_error(reordered.dump()), "");
    reordered.erase("registered_proof");
    reordered["registered_proof"] = o["registered_proof"];
    EXPECT_EQ(parse_error(reordered.dump()),
              "c1.json: vanilla_proofs: registered_proof must come before vanilla_proofs (as filecoin-ffi writes it)");
    EXPECT_EQ(parse_error(damaged([](json& j) { j.erase("vanilla_proofs"); })),
              "c1.json: vanilla_proofs: missing field");
    EXPECT_EQ(parse_error(damaged([](json& j) { j["vanilla_proofs"]["StackedDrg2KiBV1"] = 3; })),
              "c1.json: vanilla_proofs.StackedDrg2KiBV1: expected an array, found number");
    EXPECT_EQ(parse_error(damaged([](json& j) { j["vanilla_proofs"]["StackedDrg2KiBV1"][0] = json::object(); })),
              "c1.json: vanilla_proofs.StackedDrg2KiBV1[0]: expected an array, found object");
    EXPECT_EQ(parse_error(damaged([](json& j) { proof01(j) = 1; })), p01 + ": expected a JSON object, found number");
}

TEST(C1, RejectsTruncatedInput) {
    const std::string& s = sample_json();
    for (size_t len : {size_t(0), size_t(1), s.size() / 3, s.size() - 1}) {
        const std::string e = parse_error(s.substr(0, len));
        EXPECT_EQ(e.rfind("c1.json at byte ", 0), 0u) << e;
        EXPECT_NE(e.find("invalid JSON"), std::string::npos) << e;
    }
    EXPECT_THROW(read_c1_output_file("/nonexistent/c1.json"), formats::FormatError);
}

TEST(C1, MerklePathIndex) {
    MerkleProof m;
    m.kind = MerkleProof::Kind::Top;
    m.base = {{{}, 3}, {{}, 5}};  // base index 5·8 + 3 = 43
    m.sub = {{{}, 6}};
    m.top = {{{}, 1}};
    // ((1·8 + 6)·64) + 43 (storage-proofs-core merkle/proof.rs TopProof::path_index)
    EXPECT_EQ(m.path_index(8, 8, 2), (1u * 8 + 6) * 64 + 43);
}

}  // namespace
}  // namespace cuzk::filecoin

namespace cuzk::filecoin {
namespace {

// A C1 of the right shape for a large sector, filled with arbitrary canonical values (no
// consistency): exercises the Sub (32 GiB, 8-8-0) and Top (64 GiB, 8-8-2) tree-R/tree-C proofs.
SealCommitPhase1Output shape_only_c1(RegisteredSealProof proof) {
    const PoRepConfig& cfg = porep_config(proof);
    uint64_t counter = 0;
    auto value = [&] { return pseudo(counter++, 9); };
    auto path = [&](unsigned levels, unsigned arity) {
        std::vector<PathElement> out(levels);
        for (auto& e : out) {
            for (unsigned s = 0; s + 1 < arity; ++s) e.hashes.push_back(value());
            e.index = counter % arity;
        }
        return out;
    };
    auto tree_r_proof = [&] {
        MerkleProof m;
        m.kind = cfg.tree.top_arity ? MerkleProof::Kind::Top : MerkleProof::Kind::Sub;
        m.base = path(cfg.base_path_levels(), 8);
        m.sub = path(1, cfg.tree.sub_arity);
        if (cfg.tree.top_arity) m.top = path(1, cfg.tree.top_arity);
        m.root = value(), m.leaf = value();
        return m;
    };
    auto column = [&] {
        ColumnProof c;
        c.column.index = uint32_t(counter % cfg.nodes);
        for (unsigned l = 0; l < cfg.layers; ++l) c.column.rows.push_back(value());
        c.inclusion_proof = tree_r_proof();
        return c;
    };
    SealCommitPhase1Output c1;
    c1.registered_proof = proof;
    c1.comm_r = value(), c1.comm_d = value(), c1.replica_id = value(), c1.seed = value(), c1.ticket = value();
    for (unsigned k = 0; k < cfg.partitions; ++k) {
        std::vector<VanillaProof> part;
        for (unsigned i = 0; i < cfg.challenges_per_partition; ++i) {
            VanillaProof p;
            p.comm_d_proofs.base = path(cfg.comm_d_path_levels(), 2);
            p.comm_d_proofs.root = value(), p.comm_d_proofs.leaf = value();
            p.comm_r_last_proof = tree_r_proof();
            p.replica_column_proofs.c_x = column();
            for (unsigned j = 0; j < kBaseDegree; ++j) p.replica_column_proofs.drg_parents.push_back(column());
            for (unsigned j = 0; j < kExpDegree; ++j) p.replica_column_proofs.exp_parents.push_back(column());
            for (uint32_t layer = 1; layer <= cfg.layers; ++layer) {
                LabelingProof l{{}, layer, counter};
                for (unsigned q = 0; q < kTotalParents; ++q) l.parents.push_back(value());
                p.labeling_proofs.push_back(std::move(l));
            }
            p.encoding_proof = p.labeling_proofs.back();
            part.push_back(std::move(p));
        }
        c1.vanilla_proofs.push_back(std::move(part));
    }
    return c1;
}

// This process's peak resident set (VmHWM), in bytes; reset_peak() sets it to the current one.
uint64_t peak_rss() {
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) << 10;
    return 0;
}
// Free heap goes back to the system first, so that what the parse takes shows as growth.
void reset_peak() {
    malloc_trim(0);
    std::ofstream("/proc/self/clear_refs") << "5";
}

// A 32 GiB C1 (38.5 MB of JSON) parses within c1_parse_bytes of its text: the peak resident
// set grows by less than twice the text (a DOM of the whole document took ~6 times it).
TEST(SlowC1, ParsingALargeC1StaysWithinItsBound) {
    const std::string text = write_c1_output(shape_only_c1(RegisteredSealProof::StackedDrg32GiBV1_1));
    reset_peak();
    const uint64_t before = peak_rss();
    const SealCommitPhase1Output c1 = parse_c1_output(text);
    const uint64_t growth = peak_rss() - before;
    std::printf("%zu bytes of JSON: peak RSS +%llu KiB, result %llu KiB\n", text.size(),
                (unsigned long long)(growth >> 10), (unsigned long long)(c1_heap_bytes(c1) >> 10));
    EXPECT_EQ(c1.vanilla_proofs.size(), 10u);
    EXPECT_LT(growth, 2 * text.size());
    EXPECT_LT(growth, c1_parse_bytes(text.size()));
    EXPECT_LT(c1_heap_bytes(c1), text.size());
    EXPECT_GT(c1_heap_bytes(c1), text.size() / 4);
}

// 32 GiB and 64 GiB C1 files are ~40 MB of JSON each: about 20 s on the dev machine.
TEST(SlowC1, LargeSectorShapesRoundTrip) {
    for (auto proof : {RegisteredSealProof::StackedDrg32GiBV1_1, RegisteredSealProof::StackedDrg64GiBV1_1}) {
        const SealCommitPhase1Output c1 = shape_only_c1(proof);
        const std::string text = write_c1_output(c1);
        const SealCommitPhase1Output back = parse_c1_output(text);
        EXPECT_EQ(back, c1);
        EXPECT_EQ(write_c1_output(back), text);

        json j = json::parse(text);
        const bool top = proof == RegisteredSealProof::StackedDrg64GiBV1_1;
        const char* tag = top ? "StackedDrg64GiBV1" : "StackedDrg32GiBV1";
        auto& m = j["vanilla_proofs"][tag][9][17]["replica_column_proofs"]["exp_parents"][7]["inclusion_proof"]["data"]
                   [top ? "Top" : "Sub"];
        ASSERT_FALSE(m.is_null());
        EXPECT_EQ(m["base_proof"]["path"].size(), 9u);
        EXPECT_EQ(m["sub_proof"]["path"][0]["hashes"].size(), 7u);
        if (top) {
            EXPECT_EQ(m["top_proof"]["path"][0]["hashes"].size(), 1u);  // arity 2
            m["top_proof"]["path"][0]["hashes"].push_back(m["root"]);
        } else {
            m["sub_proof"]["path"].erase(0);
        }
        const std::string where = std::string("c1.json: vanilla_proofs.") + tag +
                                  "[9][17].replica_column_proofs.exp_parents[7].inclusion_proof.data." +
                                  (top ? "Top.top_proof.path[0].hashes: expected 1 siblings, found 2"
                                       : "Sub.sub_proof.path: expected 1 path levels, found 0");
        EXPECT_EQ(parse_error(j.dump()), where);
    }
}

}  // namespace
}  // namespace cuzk::filecoin
