// SHA-256 in the constraint system (bellperson gadgets/sha256.rs, FIPS 180-4 section 6.2).
// Same operation order, namespaces and MultiEq batching as bellperson, hence the same
// constraints in the same order:
//   sha256_compression of 512 allocated bits and a constant IV   25,840 constraints
//   sha256 of 512 allocated bits (two blocks, the second constant) 44,874
//   any all-constant input                                          0
// Additions are deferred as bellperson does: e and a of a round are kept as operand
// lists and summed (one addmany) only when the next round needs them, so
// e = d + temp1 and a = temp1 + temp2 cost one addmany each.
#pragma once

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cuzk/gadgets/boolean.hpp"
#include "cuzk/gadgets/multieq.hpp"
#include "cuzk/gadgets/uint32.hpp"
#include "cuzk/hash/sha256.hpp"

namespace cuzk::gadgets {

inline std::array<UInt32, 8> sha256_iv() {
    std::array<UInt32, 8> iv;
    for (int i = 0; i < 8; ++i) iv[i] = UInt32::constant(kSha256Iv[i]);
    return iv;
}

namespace sha256_detail {
// bellperson's Maybe: a word known as a UInt32, or as operands still to be summed.
struct Maybe {
    std::optional<UInt32> concrete;
    std::vector<UInt32> deferred;

    template <class CS>
    UInt32 compute(MultiEq<CS>& meq, std::span<const UInt32> others) {
        if (concrete) return *concrete;
        std::vector<UInt32> ops = deferred;
        ops.insert(ops.end(), others.begin(), others.end());
        return UInt32::addmany(meq, std::span<const UInt32>(ops));
    }
};
}  // namespace sha256_detail

// One compression: 512 input bits (SHA-256 word order, big-endian words) into 8 words.
template <class CS>
std::array<UInt32, 8> sha256_compression(CS& cs, std::span<const Boolean> input, std::span<const UInt32> current) {
    using sha256_detail::Maybe;
    if (input.size() != 512) throw std::invalid_argument("sha256_compression needs 512 input bits");
    if (current.size() != 8) throw std::invalid_argument("sha256_compression needs 8 state words");
    std::vector<UInt32> w;
    w.reserve(64);
    for (int i = 0; i < 16; ++i) w.push_back(UInt32::from_bits_be(input.subspan(32 * i, 32)));

    MultiEq<CS> meq(cs);
    for (int i = 16; i < 64; ++i) {
        auto ns = cs.namespace_([i] { return "w extension " + std::to_string(i); });
        UInt32 s0 = w[i - 15].rotr(7);
        {
            auto n1 = cs.namespace_("first xor for s0");
            s0 = s0.xor_(cs, w[i - 15].rotr(18));
        }
        {
            auto n1 = cs.namespace_("second xor for s0");
            s0 = s0.xor_(cs, w[i - 15].shr(3));
        }
        UInt32 s1 = w[i - 2].rotr(17);
        {
            auto n1 = cs.namespace_("first xor for s1");
            s1 = s1.xor_(cs, w[i - 2].rotr(19));
        }
        {
            auto n1 = cs.namespace_("second xor for s1");
            s1 = s1.xor_(cs, w[i - 2].shr(10));
        }
        auto n1 = cs.namespace_("computation of w[i]");
        const UInt32 ops[4] = {w[i - 16], s0, w[i - 7], s1};
        w.push_back(UInt32::addmany(meq, ops));
    }

    Maybe a{current[0], {}};
    UInt32 b = current[1], c = current[2], d = current[3];
    Maybe e{current[4], {}};
    UInt32 f = current[5], g = current[6], h = current[7];

    for (int i = 0; i < 64; ++i) {
        auto ns = cs.namespace_([i] { return "compression round " + std::to_string(i); });
        UInt32 new_e;
        {
            auto n1 = cs.namespace_("deferred e computation");
            new_e = e.compute(meq, {});
        }
        UInt32 s1 = new_e.rotr(6);
        {
            auto n1 = cs.namespace_("first xor for s1");
            s1 = s1.xor_(cs, new_e.rotr(11));
        }
        {
            auto n1 = cs.namespace_("second xor for s1");
            s1 = s1.xor_(cs, new_e.rotr(25));
        }
        UInt32 ch;
        {
            auto n1 = cs.namespace_("ch");
            ch = UInt32::sha256_ch(cs, new_e, f, g);
        }
        const std::array<UInt32, 5> temp1 = {h, s1, ch, UInt32::constant(kSha256RoundConstants[i]), w[i]};

        UInt32 new_a;
        {
            auto n1 = cs.namespace_("deferred a computation");
            new_a = a.compute(meq, {});
        }
        UInt32 s0 = new_a.rotr(2);
        {
            auto n1 = cs.namespace_("first xor for s0");
            s0 = s0.xor_(cs, new_a.rotr(13));
        }
        {
            auto n1 = cs.namespace_("second xor for s0");
            s0 = s0.xor_(cs, new_a.rotr(22));
        }
        UInt32 maj;
        {
            auto n1 = cs.namespace_("maj");
            maj = UInt32::sha256_maj(cs, new_a, b, c);
        }

        h = g;
        g = f;
        f = new_e;
        e = Maybe{std::nullopt, {temp1.begin(), temp1.end()}};
        e.deferred.push_back(d);
        d = c;
        c = b;
        b = new_a;
        a = Maybe{std::nullopt, {temp1.begin(), temp1.end()}};
        a.deferred.push_back(s0);
        a.deferred.push_back(maj);
    }

    std::array<UInt32, 8> out;
    auto add2 = [&](const char* name, const UInt32& x, const UInt32& y) {
        auto n1 = cs.namespace_(name);
        const UInt32 ops[2] = {x, y};
        return UInt32::addmany(meq, ops);
    };
    {
        auto n1 = cs.namespace_("deferred h0 computation");
        out[0] = a.compute(meq, current.subspan(0, 1));
    }
    out[1] = add2("new h1", current[1], b);
    out[2] = add2("new h2", current[2], c);
    out[3] = add2("new h3", current[3], d);
    {
        auto n1 = cs.namespace_("deferred h4 computation");
        out[4] = e.compute(meq, current.subspan(4, 1));
    }
    out[5] = add2("new h5", current[5], f);
    out[6] = add2("new h6", current[6], g);
    out[7] = add2("new h7", current[7], h);
    meq.finish();  // bellperson flushes here, when its MultiEq is dropped
    return out;
}

// 512 bits in, 256 bits out (big-endian words), no padding.
template <class CS>
std::vector<Boolean> sha256_block_no_padding(CS& cs, std::span<const Boolean> input) {
    if (input.size() != 512) throw std::invalid_argument("sha256_block_no_padding needs 512 input bits");
    auto iv = sha256_iv();
    auto st = sha256_compression(cs, input, iv);
    std::vector<Boolean> out;
    out.reserve(256);
    for (const UInt32& x : st) {
        auto be = x.into_bits_be();
        out.insert(out.end(), be.begin(), be.end());
    }
    return out;
}

// SHA-256 of a message of whole bytes (bits most significant first within each byte):
// pads with constants (FIPS 180-4 section 5.1.1) and compresses each block in
// namespace "block i". Returns the 256 digest bits, most significant first.
template <class CS>
std::vector<Boolean> sha256(CS& cs, std::span<const Boolean> input) {
    if (input.size() % 8 != 0) throw std::invalid_argument("sha256 gadget: input length must be whole bytes");
    std::vector<Boolean> padded(input.begin(), input.end());
    const uint64_t plen = input.size();
    padded.push_back(Boolean::constant(true));
    while ((padded.size() + 64) % 512 != 0) padded.push_back(Boolean::constant(false));
    for (int i = 63; i >= 0; --i) padded.push_back(Boolean::constant((plen >> i) & 1));

    auto cur = sha256_iv();
    for (size_t blk = 0; blk * 512 < padded.size(); ++blk) {
        auto ns = cs.namespace_([blk] { return "block " + std::to_string(blk); });
        cur = sha256_compression(cs, std::span<const Boolean>(padded).subspan(blk * 512, 512), cur);
    }
    std::vector<Boolean> out;
    out.reserve(256);
    for (const UInt32& x : cur) {
        auto be = x.into_bits_be();
        out.insert(out.end(), be.begin(), be.end());
    }
    return out;
}

}  // namespace cuzk::gadgets
