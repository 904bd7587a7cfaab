// UInt32, Num/AllocatedNum and multipacking against plain integer / field arithmetic.
#include <gtest/gtest.h>

#include <random>

#include "cuzk/gadgets/multipack.hpp"
#include "cuzk/gadgets/num.hpp"
#include "cuzk/gadgets/uint32.hpp"
#include "harness.hpp"
#include "support/seed.hpp"

namespace cuzk::gadgets {
namespace {

uint32_t rotr32(uint32_t x, int n) { return n ? (x >> n) | (x << (32 - n)) : x; }

uint32_t bits_value(const UInt32& u) {
    uint32_t v = 0;
    for (int i = 0; i < 32; ++i) v |= uint32_t(u.bits()[i].value()) << i;
    return v;
}

TEST(UInt32, RotrShrAndBitOrder) {
    std::mt19937_64 rng(test::seed());
    for (int t = 0; t < 50; ++t) {
        const uint32_t x = uint32_t(rng());
        r1cs::CheckCS cs;
        UInt32 u = UInt32::alloc(cs, x);
        EXPECT_EQ(cs.num_constraints(), 32u);
        for (int n = 0; n < 32; ++n) {
            EXPECT_EQ(u.rotr(n).value(), rotr32(x, n));
            EXPECT_EQ(bits_value(u.rotr(n)), rotr32(x, n));
            EXPECT_EQ(u.shr(n).value(), x >> n);
            EXPECT_EQ(bits_value(u.shr(n)), x >> n);
        }
        auto be = u.into_bits_be();
        EXPECT_EQ(be[0].value(), bool(x >> 31));
        EXPECT_EQ(UInt32::from_bits_be(be).value(), x);
        EXPECT_EQ(UInt32::from_bits(u.bits()).value(), x);
        EXPECT_EQ(cs.num_constraints(), 32u);  // rewiring costs nothing
    }
}

TEST(UInt32, XorConstantAndAllocatedMixes) {
    std::mt19937_64 rng(test::seed());
    for (int mix = 0; mix < 4; ++mix) {
        const uint32_t x = uint32_t(rng()), y = uint32_t(rng());
        uint32_t got = 0;
        auto runs = test::run_all_modes([&](auto& cs) {
            UInt32 a = (mix & 1) ? UInt32::alloc(cs, x) : UInt32::constant(x);
            UInt32 b = (mix & 2) ? UInt32::alloc(cs, y) : UInt32::constant(y);
            UInt32 r = a.xor_(cs, b);
            got = r.value();
            EXPECT_EQ(bits_value(r), x ^ y);
        });
        EXPECT_EQ(got, x ^ y);
        const size_t allocs = 32 * ((mix & 1) + ((mix >> 1) & 1));
        EXPECT_EQ(runs.witness.num_constraints(), allocs + (mix == 3 ? 32 : 0)) << mix;
    }
}

TEST(UInt32, AddmanyMatchesIntegerSum) {
    std::mt19937_64 rng(test::seed());
    for (size_t n = 2; n <= 10; ++n) {
        for (int mix = 0; mix < 3; ++mix) {  // all constant, all allocated, alternating
            std::vector<uint32_t> xs(n);
            uint32_t want = 0;
            for (auto& x : xs) want += (x = uint32_t(rng()));
            UInt32 r;
            auto runs = test::run_all_modes([&](auto& cs) {
                std::vector<UInt32> ops;
                for (size_t i = 0; i < n; ++i) {
                    bool allocated = mix == 1 || (mix == 2 && i % 2 == 0);
                    ops.push_back(allocated ? UInt32::alloc(cs, xs[i]) : UInt32::constant(xs[i]));
                }
                {
                    MultiEq<std::remove_reference_t<decltype(cs)>> meq(cs);
                    r = UInt32::addmany(meq, ops);
                }
                EXPECT_EQ(bits_value(r), want);
            });
            EXPECT_EQ(r.value(), want);
            // ceil(log2(n (2^32 - 1))) result bits + one MultiEq constraint, or nothing.
            size_t result_bits = 0;
            for (uint64_t m = n * 0xffffffffULL; m; m >>= 1) ++result_bits;
            const size_t allocated = mix == 0 ? 0 : mix == 1 ? n : (n + 1) / 2;
            EXPECT_EQ(runs.witness.num_constraints(), 32 * allocated + (mix == 0 ? 0 : result_bits + 1));
        }
    }
}

TEST(MultiEq, PacksEqualitiesUpToCapacity) {
    // 2-operand sums need 33 bits each: 7 fit in 254 bits (231), the 8th opens a new batch.
    std::mt19937_64 rng(test::seed());
    const uint32_t x = uint32_t(rng());
    auto runs = test::run_all_modes([&](auto& cs) {
        UInt32 a = UInt32::alloc(cs, x);
        MultiEq<std::remove_reference_t<decltype(cs)>> meq(cs);
        for (int i = 0; i < 8; ++i) {
            const UInt32 ops[2] = {a, a.rotr(i + 1)};
            UInt32::addmany(meq, ops);
        }
    });
    EXPECT_EQ(runs.witness.num_constraints(), 32u + 8 * 33 + 2);
}

TEST(Num, AllocatedNumOps) {
    std::mt19937_64 rng(test::seed());
    const Fr x = Fr::random(rng), y = Fr::random(rng);
    Fr sum, prod, sq;
    auto runs = test::run_all_modes([&](auto& cs) {
        auto a = AllocatedNum::alloc(cs, [&] { return x; });
        auto b = AllocatedNum::alloc_input(cs, [&] { return y; });
        sum = a.add(cs, b).value;
        prod = a.mul(cs, b).value;
        sq = a.square(cs).value;
        a.assert_nonzero(cs);
        a.inputize(cs);
        EXPECT_EQ(cs.num_constraints(), 5u);
    });
    EXPECT_EQ(sum, x + y);
    EXPECT_EQ(prod, x * y);
    EXPECT_EQ(sq, x * x);
    EXPECT_EQ(runs.witness.num_inputs(), 3u);
    r1cs::WitnessCS w;
    auto z = AllocatedNum::alloc(w, [] { return Fr::zero(); });
    EXPECT_THROW(z.assert_nonzero(w), r1cs::SynthesisError);
}

TEST(Num, ConditionallyReverse) {
    for (int cond = 0; cond < 2; ++cond) {
        const Fr x = Fr::from_u64(11), y = Fr::from_u64(22);
        std::pair<AllocatedNum, AllocatedNum> out;
        auto runs = test::run_all_modes([&](auto& cs) {
            auto a = AllocatedNum::alloc(cs, [&] { return x; });
            auto b = AllocatedNum::alloc(cs, [&] { return y; });
            Boolean c = AllocatedBit::alloc(cs, cond);
            out = AllocatedNum::conditionally_reverse(cs, a, b, c);
        });
        EXPECT_EQ(out.first.value, cond ? y : x);
        EXPECT_EQ(out.second.value, cond ? x : y);
        EXPECT_EQ(runs.witness.num_constraints(), 3u);
    }
}

TEST(Num, ToBitsLe) {
    std::mt19937_64 rng(test::seed());
    const Fr x = Fr::random(rng);
    std::vector<Boolean> bits;
    auto runs = test::run_all_modes([&](auto& cs) {
        auto a = AllocatedNum::alloc(cs, [&] { return x; });
        bits = a.to_bits_le(cs);
    });
    ASSERT_EQ(bits.size(), 255u);
    auto big = x.to_bigint();
    for (size_t i = 0; i < 255; ++i) EXPECT_EQ(bits[i].value(), big.bit(i));
    EXPECT_EQ(runs.witness.num_constraints(), 256u);
}

TEST(Multipack, PackIntoInputsMatchesComputeMultipacking) {
    std::mt19937_64 rng(test::seed());
    for (size_t nbits : {1u, 253u, 254u, 255u, 600u}) {
        std::vector<bool> raw(nbits);
        for (size_t i = 0; i < nbits; ++i) raw[i] = rng() & 1;
        auto runs = test::run_all_modes([&](auto& cs) {
            std::vector<Boolean> bits;
            for (size_t i = 0; i < nbits; ++i)
                bits.push_back(i % 3 == 2 ? Boolean::constant(raw[i]) : Boolean(AllocatedBit::alloc(cs, raw[i])));
            pack_into_inputs(cs, bits);
        });
        auto want = compute_multipacking(raw);
        ASSERT_EQ(runs.witness.num_inputs(), 1 + want.size()) << nbits;
        EXPECT_EQ((nbits + 253) / 254, want.size());
        for (size_t k = 0; k < want.size(); ++k) EXPECT_EQ(runs.witness.inputs()[1 + k], want[k]) << nbits << " " << k;
    }
    // Little-endian within an input: bit j of chunk k is worth 2^j.
    std::vector<bool> one_bit(300, false);
    one_bit[254 + 3] = true;
    auto p = compute_multipacking(one_bit);
    EXPECT_TRUE(p[0].is_zero());
    EXPECT_EQ(p[1], Fr::from_u64(8));
    const uint8_t bytes[2] = {0x80, 0x01};
    EXPECT_TRUE(bytes_to_bits(bytes)[0]);
    EXPECT_TRUE(bytes_to_bits_le(bytes)[7]);
    EXPECT_TRUE(bytes_to_bits_le(bytes)[8]);
}

}  // namespace
}  // namespace cuzk::gadgets
