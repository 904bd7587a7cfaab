// DefaultInitAllocator: resize(n) leaves new entries as the storage had them (no zero-fill),
// while every way of growing a vector with a value still writes that value.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "cuzk/common/default_init_allocator.hpp"

namespace cuzk {
namespace {

struct Limbs {  // trivially default-constructible, as Fr is
    uint64_t l[4];
};

// The bytes of v's storage, read without reading the (indeterminate) objects.
template <class V>
std::vector<unsigned char> storage_bytes(const V& v, size_t count) {
    std::vector<unsigned char> out(count * sizeof(typename V::value_type));
    std::memcpy(out.data(), static_cast<const void*>(v.data()), out.size());
    return out;
}

TEST(DefaultInitAllocator, ResizeLeavesTheStorageUnwritten) {
    DefaultInitVector<Limbs> v;
    const size_t n = 1000;
    v.reserve(n);
    // Storage the vector owns but holds no objects in: write a pattern into it, then grow.
    std::memset(static_cast<void*>(v.data()), 0xA5, n * sizeof(Limbs));
    asm volatile("" ::: "memory");  // the pattern is observable: no store may be dropped
    const Limbs* before = v.data();
    v.resize(n);
    ASSERT_EQ(v.data(), before) << "grew within capacity: no reallocation";
    ASSERT_EQ(v.size(), n);
    const std::vector<unsigned char> want(n * sizeof(Limbs), 0xA5);
    EXPECT_EQ(storage_bytes(v, n), want) << "resize(n) wrote the new entries (a zero-fill?)";

    // The same with std::allocator zero-fills: the property is the allocator's.
    std::vector<Limbs> z;
    z.reserve(n);
    std::memset(static_cast<void*>(z.data()), 0xA5, n * sizeof(Limbs));
    asm volatile("" ::: "memory");
    z.resize(n);
    EXPECT_EQ(storage_bytes(z, n), std::vector<unsigned char>(n * sizeof(Limbs), 0));
}

TEST(DefaultInitAllocator, ValuesGivenAreWritten) {
    DefaultInitVector<uint64_t> v;
    v.reserve(64);
    std::memset(static_cast<void*>(v.data()), 0xFF, 64 * sizeof(uint64_t));
    asm volatile("" ::: "memory");
    v.resize(10, 7);  // an explicit value
    for (uint64_t x : v) EXPECT_EQ(x, 7u);
    v.push_back(3);
    v.insert(v.end(), 5, 9);
    ASSERT_EQ(v.size(), 16u);
    EXPECT_EQ(v[10], 3u);
    for (size_t i = 11; i < 16; ++i) EXPECT_EQ(v[i], 9u);
    v.assign(20, 0);  // assign writes every entry, zero included
    for (uint64_t x : v) EXPECT_EQ(x, 0u);

    const DefaultInitVector<uint64_t> copy = v;
    EXPECT_EQ(copy, v);
    DefaultInitVector<uint64_t> moved = std::move(v);
    EXPECT_EQ(moved, copy);

    // Non-trivial types are constructed as usual (default construction included).
    DefaultInitVector<std::string> s;
    s.resize(3);
    for (const std::string& x : s) EXPECT_TRUE(x.empty());
    s.emplace_back(4, 'x');
    EXPECT_EQ(s.back(), "xxxx");
}

TEST(DefaultInitAllocator, ComparesEqualAcrossTypes) {
    const DefaultInitAllocator<int> a;
    const DefaultInitAllocator<double> b(a);  // rebinding copy
    EXPECT_TRUE(a == b);
    int* p = DefaultInitAllocator<int>{}.allocate(3);
    ASSERT_NE(p, nullptr);
    DefaultInitAllocator<int>{}.deallocate(p, 3);
}

}  // namespace
}  // namespace cuzk
