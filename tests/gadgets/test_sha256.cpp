// SHA-256 gadget: pinned constraint counts (bellperson's), FIPS 180-4 vectors through
// the circuit, the three modes agreeing, and a wrong witness reported by path.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "cuzk/gadgets/sha256.hpp"
#include "cuzk/hash/sha256.hpp"
#include "harness.hpp"
#include "support/seed.hpp"

namespace cuzk::gadgets {
namespace {

std::vector<uint8_t> hex(std::string_view s) {
    std::vector<uint8_t> out;
    for (size_t i = 0; i + 1 < s.size(); i += 2)
        out.push_back(uint8_t(std::stoi(std::string(s.substr(i, 2)), nullptr, 16)));
    return out;
}

// Message bits, most significant first in each byte, allocated one AllocatedBit each.
template <class CS>
std::vector<Boolean> alloc_bytes(CS& cs, std::span<const uint8_t> msg) {
    std::vector<Boolean> bits;
    for (size_t i = 0; i < msg.size(); ++i)
        for (int k = 7; k >= 0; --k) {
            auto ns = cs.namespace_([&] { return "input bit " + std::to_string(8 * i + (7 - k)); });
            bits.push_back(AllocatedBit::alloc(cs, (msg[i] >> k) & 1));
        }
    return bits;
}

std::vector<uint8_t> digest_bytes(const std::vector<Boolean>& bits) {
    std::vector<uint8_t> out(bits.size() / 8, 0);
    for (size_t i = 0; i < bits.size(); ++i) out[i / 8] |= uint8_t(bits[i].value()) << (7 - i % 8);
    return out;
}

std::vector<uint8_t> hash_in_circuit(std::span<const uint8_t> msg) {
    r1cs::WitnessCS cs;
    auto bits = alloc_bytes(cs, msg);
    return digest_bytes(sha256(cs, bits));
}

// ---- the pinned constraint-count table (bellperson's sha256.rs tests) ------------------

struct CountRow {
    const char* what;
    size_t constraints;
};

TEST(Sha256Gadget, ConstraintCountTable) {
    std::mt19937_64 rng(test::seed());
    std::vector<uint8_t> msg(64);
    for (auto& b : msg) b = uint8_t(rng());
    const CountRow table[] = {
        {"one compression of 512 allocated bits", 25840},
        {"sha256 of 512 allocated bits", 44874},
        {"sha256 of a constant 64-byte message", 0},
        {"compression of a constant block", 0},
    };
    size_t got[4];
    {
        r1cs::ShapeCS cs;
        auto bits = alloc_bytes(cs, msg);
        auto iv = sha256_iv();
        sha256_compression(cs, bits, iv);
        got[0] = cs.num_constraints() - 512;
    }
    {
        r1cs::ShapeCS cs;
        auto bits = alloc_bytes(cs, msg);
        sha256(cs, bits);
        got[1] = cs.num_constraints() - 512;
    }
    {
        r1cs::ShapeCS cs;
        std::vector<Boolean> bits(512);
        for (size_t i = 0; i < 512; ++i) bits[i] = Boolean::constant((msg[i / 8] >> (7 - i % 8)) & 1);
        auto d = sha256(cs, bits);
        got[2] = cs.num_constraints();
        EXPECT_EQ(digest_bytes(d), [&] {
            auto h = sha256_bytes(msg);
            return std::vector<uint8_t>(h.begin(), h.end());
        }());
    }
    {
        // bellperson's test_blank_hash: a constant padded empty message, 0 constraints.
        r1cs::CheckCS cs;
        std::vector<Boolean> bits(512, Boolean::constant(false));
        bits[0] = Boolean::constant(true);
        auto d = sha256_block_no_padding(cs, bits);
        got[3] = cs.num_constraints();
        EXPECT_EQ(digest_bytes(d), hex("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
    }
    for (size_t i = 0; i < 4; ++i) EXPECT_EQ(got[i], table[i].constraints) << table[i].what;
}

// ---- FIPS 180-4 vectors (NIST "SHA256.pdf" examples and the empty string) -------------

TEST(Sha256Gadget, Fips180Vectors) {
    struct V {
        std::string msg;
        const char* digest;
    };
    const V vs[] = {
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    };
    for (const V& v : vs) {
        std::span<const uint8_t> m(reinterpret_cast<const uint8_t*>(v.msg.data()), v.msg.size());
        EXPECT_EQ(hash_in_circuit(m), hex(v.digest)) << "circuit, message '" << v.msg << "'";
        auto plain = sha256_bytes(m);
        EXPECT_EQ(std::vector<uint8_t>(plain.begin(), plain.end()), hex(v.digest)) << "plain, '" << v.msg << "'";
    }
}

TEST(Sha256Gadget, RandomLengthsMatchPlainSha256) {
    std::mt19937_64 rng(test::seed());
    for (size_t len : {1u, 31u, 55u, 56u, 63u, 64u, 65u, 100u}) {
        std::vector<uint8_t> msg(len);
        for (auto& b : msg) b = uint8_t(rng());
        auto h = sha256_bytes(msg);
        EXPECT_EQ(hash_in_circuit(msg), std::vector<uint8_t>(h.begin(), h.end())) << len;
    }
}

TEST(Sha256Gadget, PlainSha256IncrementalMatchesOneShot) {
    std::mt19937_64 rng(test::seed());
    std::vector<uint8_t> msg(300);
    for (auto& b : msg) b = uint8_t(rng());
    Sha256 h;
    for (size_t i = 0; i < msg.size();) {
        size_t n = std::min<size_t>(msg.size() - i, rng() % 70);
        h.update(std::span<const uint8_t>(msg).subspan(i, n));
        i += n;
    }
    EXPECT_EQ(h.final(), sha256_bytes(msg));
}

// An empty span (a default one: null data) hashes as nothing; the sanitizer build checks that
// no null pointer reaches memcpy (an empty string field of a request digest is one).
TEST(Sha256Gadget, PlainSha256TakesEmptySpans) {
    Sha256 h;
    h.update(std::span<const uint8_t>());
    h.update(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>("abc"), 3));
    h.update(std::span<const uint8_t>());
    const std::string abc = "abc";
    EXPECT_EQ(h.final(), sha256_bytes(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(abc.data()), 3)));
    EXPECT_EQ(Sha256().final(), sha256_bytes(std::span<const uint8_t>()));
}

// ---- modes agree on the whole circuit ---------------------------------------------------

TEST(Sha256Gadget, ShapeProductsEqualWitnessEvaluations) {
    std::mt19937_64 rng(test::seed());
    std::vector<uint8_t> msg(64);
    for (auto& b : msg) b = uint8_t(rng());
    auto runs = test::run_all_modes([&](auto& cs) {
        auto bits = alloc_bytes(cs, msg);
        auto ns = cs.namespace_("sha256");
        sha256(cs, bits);
    });
    EXPECT_EQ(runs.shape.num_constraints, 512u + 44874u);
    // SHA-256's coefficients are ±2^k: the dictionary stays small.
    EXPECT_LT(runs.shape.coeffs.size(), 1024u);
    // Round trip through the shape file format keeps the products.
    auto back = r1cs::Shape::deserialize(runs.shape.serialize());
    EXPECT_EQ(back, runs.shape);
    EXPECT_TRUE(std::ranges::equal(back.product(r1cs::Matrix::C, runs.witness.inputs(), runs.witness.aux(), 4),
                                   runs.witness.c_evals()));
}

TEST(Sha256Gadget, WrongWitnessReportedByPath) {
    std::vector<uint8_t> msg(64, 0x5a);
    auto circuit = [&](auto& cs) {
        auto bits = alloc_bytes(cs, msg);
        auto ns = cs.namespace_("sha256");
        sha256(cs, bits);
    };
    r1cs::ShapeCS scs;
    circuit(scs);
    r1cs::Shape shape = scs.finish();
    r1cs::WitnessCS w;
    circuit(w);
    std::vector<Fr> aux(w.aux().begin(), w.aux().end());
    r1cs::CheckCS probe;
    circuit(probe);
    ASSERT_TRUE(probe.is_satisfied());
    // Flip one aux value a third of the way in: the first failure must be the first
    // constraint (row of A, B or C) that mentions that variable.
    const size_t target = aux.size() / 3;
    aux[target] = aux[target].is_zero() ? Fr::one() : Fr::zero();
    r1cs::CheckCS c(w.inputs(), aux);
    circuit(c);
    ASSERT_FALSE(c.is_satisfied());
    const auto& f = *c.first_failure();
    size_t first_row = SIZE_MAX;
    const auto v = r1cs::Variable::aux(uint32_t(target)).raw();
    for (const r1cs::SparseMatrix* m : {&shape.a, &shape.b, &shape.c})
        for (size_t r = 0; r < m->rows() && r < first_row; ++r)
            for (uint64_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; ++k)
                if (m->col[k] == v) first_row = std::min(first_row, r);
    EXPECT_EQ(f.index, first_row);
    EXPECT_EQ(f.message, "constraint " + std::to_string(f.index) + " '" + f.path + "' is not satisfied");
    EXPECT_EQ(f.path.rfind("sha256/block 0/", 0), 0u) << f.path;
    std::printf("  reported: %s\n", f.message.c_str());
}

TEST(Sha256Gadget, WrongWitnessInMajNamed) {
    // A maj result bit (round 3, bit 0) set wrong: the report names the maj constraint.
    std::vector<uint8_t> msg(64, 0xa7);
    size_t maj_var = 0;
    auto circuit = [&](auto& cs) {
        auto bits = alloc_bytes(cs, msg);
        auto ns = cs.namespace_("sha256");
        sha256(cs, bits);
    };
    r1cs::WitnessCS w;
    circuit(w);
    r1cs::ShapeCS scs;
    circuit(scs);
    auto shape = scs.finish();
    // Round 3 is the first round whose a, b, c are all allocated, so its bit 0 holds the
    // first "maj computation" row: A = 2·bc - b - c (three terms, one coefficient 2),
    // C = bc - maj (two terms; the maj variable has coefficient -1).
    const Fr two = Fr::from_u64(2);
    for (size_t r = 0; r < shape.c.rows() && !maj_var; ++r) {
        const r1cs::SparseMatrix &a = shape.a, &m = shape.c;
        if (m.row_ptr[r + 1] - m.row_ptr[r] != 2 || a.row_ptr[r + 1] - a.row_ptr[r] != 3) continue;
        bool has_two = false;
        for (uint64_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) has_two |= shape.coeffs[a.coeff[k]] == two;
        if (!has_two) continue;
        for (uint64_t k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k)
            if (shape.coeffs[m.coeff[k]] == -Fr::one()) maj_var = r1cs::Variable::from_raw(m.col[k]).index();
    }
    ASSERT_NE(maj_var, 0u);
    std::vector<Fr> aux(w.aux().begin(), w.aux().end());
    aux[maj_var] = Fr::one() - aux[maj_var];
    r1cs::CheckCS c(w.inputs(), aux);
    circuit(c);
    ASSERT_FALSE(c.is_satisfied());
    EXPECT_EQ(c.first_failure()->path, "sha256/block 0/compression round 3/maj/maj 0/maj computation")
        << c.first_failure()->message;
}

}  // namespace
}  // namespace cuzk::gadgets
