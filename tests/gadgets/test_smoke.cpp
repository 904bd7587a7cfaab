#include <gtest/gtest.h>

#include "cuzk/gadgets/gadgets.hpp"
#include "cuzk/r1cs/r1cs.hpp"

using namespace cuzk;
using namespace cuzk::gadgets;

template <class CS>
void block(CS& cs) {
    std::vector<Boolean> bits;
    for (int i = 0; i < 512; ++i) {
        auto ns = cs.namespace_([i] { return "input bit " + std::to_string(i); });
        bits.push_back(AllocatedBit::alloc(cs, (i * 7) % 3 == 0));
    }
    auto ns = cs.namespace_("sha256");
    auto iv = sha256_iv();
    sha256_compression(cs, bits, iv);
}

TEST(Smoke, Counts) {
    r1cs::ShapeCS s;
    block(s);
    EXPECT_EQ(s.num_constraints() - 512, 25840u);
    r1cs::WitnessCS w;
    block(w);
    EXPECT_EQ(w.num_constraints() - 512, 25840u);
    r1cs::CheckCS c;
    block(c);
    EXPECT_TRUE(c.is_satisfied());
}
