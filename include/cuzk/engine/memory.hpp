// The engine's memory budget and its pool of large per-partition buffers.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/r1cs/witness_vector.hpp"

namespace cuzk::engine {

// One budget for everything the engine holds: work items' buffers, loaded parameters
// and idle pooled buffers. reserve() blocks until the bytes fit; when they do not, it
// first asks the reclaimer (idle parameters, idle pool buffers) to give some back.
class MemoryBudget {
 public:
    explicit MemoryBudget(uint64_t limit) : limit_(limit) {}
    uint64_t limit() const { return limit_; }
    uint64_t reserved() const;
    uint64_t high_water() const;

    // Frees up to `want` bytes of idle memory (calling release() for what it frees) and
    // returns how much it freed. Called without the budget's lock held.
    void set_reclaimer(std::function<uint64_t(uint64_t want)> reclaim);

    // Blocks until `bytes` fit. Returns false without reserving when `give_up()` turns
    // true (checked every `poll`), or at once when `bytes` exceed the whole limit.
    bool reserve(uint64_t bytes, const std::function<bool()>& give_up = {},
                 std::chrono::milliseconds poll = std::chrono::milliseconds(20));
    bool try_reserve(uint64_t bytes);
    void release(uint64_t bytes);  // bytes more than reserved is a bug: throws std::logic_error

 private:
    const uint64_t limit_;
    mutable std::mutex mu_;
    std::condition_variable cv_;
    uint64_t reserved_ = 0, high_water_ = 0;
    std::function<uint64_t(uint64_t)> reclaim_;
};

// Bytes held against a budget, given back in parts or all at once when destroyed, so
// that no path (an exception, a cancellation) can leak a reservation.
class Reservation {
 public:
    Reservation() = default;
    Reservation(MemoryBudget* budget, uint64_t bytes) : budget_(budget), bytes_(bytes) {}
    Reservation(Reservation&& o) noexcept : budget_(o.budget_), bytes_(o.bytes_) { o.bytes_ = 0; }
    Reservation& operator=(Reservation&& o) noexcept {
        if (this != &o) {
            reset();
            budget_ = o.budget_;
            bytes_ = o.bytes_;
            o.bytes_ = 0;
        }
        return *this;
    }
    ~Reservation() { reset(); }
    uint64_t bytes() const { return bytes_; }
    void release(uint64_t part);  // at most bytes()
    // Takes over `more` bytes the caller has just reserved on the same budget.
    void absorb(uint64_t more) { bytes_ += more; }
    void reset() { release(bytes_); }

 private:
    MemoryBudget* budget_ = nullptr;
    uint64_t bytes_ = 0;
};

// Recycles witness storage (r1cs::WitnessVector) across work items. Idle buffers are held
// against the budget (so RSS stays inside it) up to `max_idle_bytes`; when the budget needs
// room, reclaim() drops idle buffers. With `pin` (CUDA present) a buffer is page-locked
// (gpu::host_register) once, when first pooled, and stays so while pooled, so host↔device
// copies from it run at full speed. The registrations and the frees of large buffers (with
// their unregistration) run on a background thread, off the hot path: the engine gives a
// proof's a, b, c back between its H and its other MSMs, and registering a 32 GiB PoRep
// partition's 12.9 GB there held the prove thread (and the GPU) for seconds. A buffer being
// registered counts as idle but is taken only once registered.
class BufferPool {
 public:
    BufferPool(MemoryBudget& budget, uint64_t max_idle_bytes, bool pin);
    ~BufferPool();
    BufferPool(const BufferPool&) = delete;
    BufferPool& operator=(const BufferPool&) = delete;

    // A vector with capacity >= n: the smallest idle one that fits, else a new (empty) one.
    // A reused one keeps its length up to n, its contents stale: the witness overwrites the
    // entries it counts (r1cs::WitnessBuffers), so that it need not zero-fill them first.
    // The bytes are the caller's (its reservation covers them) from here on.
    r1cs::WitnessVector take(size_t n);
    // Returns storage to the pool (kept if it fits in max_idle_bytes and the budget, else
    // freed in the background). The caller releases its own reservation for the bytes.
    void give(r1cs::WitnessVector&& v);
    // Frees idle buffers until `want` bytes are released from the budget; returns the bytes.
    uint64_t reclaim(uint64_t want);

    uint64_t idle_bytes() const;
    uint64_t pinned_bytes() const;
    uint64_t reuses() const;
    // Waits until the background registrations and frees queued so far are done.
    void flush();

 private:
    void free_later(r1cs::WitnessVector&& v);
    // An idle (or being registered) buffer leaves the pool: its bytes go back to the budget
    // and it is queued for the background free. With mu_ held.
    void drop_idle(r1cs::WitnessVector&& v);
    void background_loop();

    MemoryBudget& budget_;
    const uint64_t max_idle_;
    const bool pin_;
    mutable std::mutex mu_;
    std::multimap<size_t, r1cs::WitnessVector> idle_;  // by capacity
    std::map<const void*, size_t> pinned_;             // registered storage -> bytes
    uint64_t idle_bytes_ = 0, pinned_bytes_ = 0, reuses_ = 0;
    std::deque<r1cs::WitnessVector> to_free_;
    std::deque<r1cs::WitnessVector> to_pin_;  // given, to be registered, then idle
    bool stop_ = false;
    size_t busy_ = 0;  // buffers the background thread holds (registering or freeing)
    std::condition_variable cv_, cv_done_;
    std::thread background_;
};

// Bytes a vector of n field elements holds.
inline uint64_t fr_bytes(size_t n) { return uint64_t(n) * sizeof(Fr); }

}  // namespace cuzk::engine
