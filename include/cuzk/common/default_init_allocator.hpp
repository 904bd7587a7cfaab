// An allocator whose value-less construct() default-initialises instead of value-
// initialising: a std::vector of a trivially default-constructible T (Fr) grown by
// resize(n) then leaves the new entries unwritten instead of zero-filling them first.
//
// For storage that is written in full before it is read, and that is large: the witness's
// vectors (r1cs::WitnessVector). A 32 GiB PoRep partition's are 16.7 GB; std::vector's
// resize() zero-filled them on one thread before the parallel synthesis overwrote every
// entry (~2.3 s of a 3.1 s witness on the H200 host, bench/RESULTS.md "PoRep C2: the
// witness overwrites reused storage").
//
// Anything else keeps its meaning: construct(p, args...) forwards (push_back, copies,
// resize(n, value)), and memory comes from std::allocator. Whoever grows such a vector
// with resize(n) must write every new entry, or say the value: resize(n, Fr::zero()).
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace cuzk {

template <class T>
struct DefaultInitAllocator {
    using value_type = T;

    DefaultInitAllocator() noexcept = default;
    template <class U>
    constexpr DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

    [[nodiscard]] T* allocate(std::size_t n) { return std::allocator<T>{}.allocate(n); }
    void deallocate(T* p, std::size_t n) noexcept { std::allocator<T>{}.deallocate(p, n); }

    template <class U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(p)) U;  // default-initialisation: nothing for a trivial U
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        std::construct_at(p, std::forward<Args>(args)...);
    }

    template <class U>
    friend constexpr bool operator==(const DefaultInitAllocator&, const DefaultInitAllocator<U>&) noexcept {
        return true;
    }
};

template <class T>
using DefaultInitVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace cuzk
