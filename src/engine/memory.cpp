#include "cuzk/engine/memory.hpp"

#include <stdexcept>
#include <string>

#include "cuzk/gpu/host_memory.hpp"

namespace cuzk::engine {

uint64_t MemoryBudget::reserved() const {
    std::lock_guard<std::mutex> lock(mu_);
    return reserved_;
}

uint64_t MemoryBudget::high_water() const {
    std::lock_guard<std::mutex> lock(mu_);
    return high_water_;
}

void MemoryBudget::set_reclaimer(std::function<uint64_t(uint64_t)> reclaim) {
    std::lock_guard<std::mutex> lock(mu_);
    reclaim_ = std::move(reclaim);
}

bool MemoryBudget::try_reserve(uint64_t bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    if (bytes > limit_ - reserved_) return false;
    reserved_ += bytes;
    high_water_ = std::max(high_water_, reserved_);
    return true;
}

bool MemoryBudget::reserve(uint64_t bytes, const std::function<bool()>& give_up, std::chrono::milliseconds poll) {
    if (bytes > limit_) return false;
    for (;;) {
        if (try_reserve(bytes)) return true;
        std::function<uint64_t(uint64_t)> reclaim;
        uint64_t shortfall;
        {
            std::lock_guard<std::mutex> lock(mu_);
            reclaim = reclaim_;
            shortfall = reserved_ + bytes - limit_;
        }
        if (reclaim && reclaim(shortfall) > 0) continue;
        std::unique_lock<std::mutex> lock(mu_);
        if (bytes <= limit_ - reserved_) continue;
        cv_.wait_for(lock, poll);
        lock.unlock();
        if (give_up && give_up()) return false;
    }
}

void MemoryBudget::release(uint64_t bytes) {
    if (bytes == 0) return;
    {
        std::lock_guard<std::mutex> lock(mu_);
        if (bytes > reserved_)
            throw std::logic_error("MemoryBudget::release: " + std::to_string(bytes) + " bytes released but only " +
                                   std::to_string(reserved_) + " reserved");
        reserved_ -= bytes;
    }
    cv_.notify_all();
}

void Reservation::release(uint64_t part) {
    if (part > bytes_) throw std::logic_error("Reservation::release: more than the reservation holds");
    if (part == 0 || !budget_) return;
    bytes_ -= part;
    budget_->release(part);
}

// ---- BufferPool ---------------------------------------------------------------------

namespace {
// Page-locking pays only for buffers large enough to be copied in bulk.
constexpr uint64_t kPinMin = uint64_t(1) << 20;
}  // namespace

BufferPool::BufferPool(MemoryBudget& budget, uint64_t max_idle_bytes, bool pin)
    : budget_(budget), max_idle_(max_idle_bytes), pin_(pin), background_([this] { background_loop(); }) {}

BufferPool::~BufferPool() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        for (auto& [cap, v] : idle_) drop_idle(std::move(v));
        idle_.clear();
        for (auto& v : to_pin_) drop_idle(std::move(v));
        to_pin_.clear();
        stop_ = true;  // a buffer being registered now is freed once registered
    }
    cv_.notify_all();
    background_.join();
}

r1cs::WitnessVector BufferPool::take(size_t n) {
    r1cs::WitnessVector v;
    {
        std::lock_guard<std::mutex> lock(mu_);
        auto it = idle_.lower_bound(n);
        // Take a buffer at most twice the size wanted, so small items don't hold large ones.
        if (it != idle_.end() && (it->first <= 2 * n + 64)) {
            v = std::move(it->second);
            idle_bytes_ -= fr_bytes(it->first);
            budget_.release(fr_bytes(it->first));
            idle_.erase(it);
            ++reuses_;
        }
    }
    if (v.size() > n) v.resize(n);  // shrinking initialises nothing
    v.reserve(n);
    return v;
}

void BufferPool::give(r1cs::WitnessVector&& v) {
    const size_t cap = v.capacity();
    if (cap == 0) return;
    const uint64_t bytes = fr_bytes(cap);
    std::unique_lock<std::mutex> lock(mu_);
    if (stop_ || idle_bytes_ + bytes > max_idle_ || !budget_.try_reserve(bytes)) {
        lock.unlock();
        free_later(std::move(v));
        return;
    }
    // Kept with its length: a witness into it overwrites the entries instead of zero-filling.
    idle_bytes_ += bytes;
    if (pin_ && bytes >= kPinMin && !pinned_.count(v.data())) {
        to_pin_.push_back(std::move(v));  // idle once registered (background_loop)
        lock.unlock();
        cv_.notify_all();
        return;
    }
    idle_.emplace(cap, std::move(v));
}

uint64_t BufferPool::reclaim(uint64_t want) {
    uint64_t freed = 0;
    std::vector<r1cs::WitnessVector> drop;
    {
        std::lock_guard<std::mutex> lock(mu_);
        // Largest first: fewest buffers dropped for the room wanted.
        while (freed < want && !idle_.empty()) {
            auto it = std::prev(idle_.end());
            freed += fr_bytes(it->first);
            idle_bytes_ -= fr_bytes(it->first);
            drop.push_back(std::move(it->second));
            idle_.erase(it);
        }
    }
    if (freed) budget_.release(freed);
    for (auto& v : drop) free_later(std::move(v));
    return freed;
}

void BufferPool::drop_idle(r1cs::WitnessVector&& v) {
    const uint64_t bytes = fr_bytes(v.capacity());
    budget_.release(bytes);
    idle_bytes_ -= bytes;
    to_free_.push_back(std::move(v));
}

void BufferPool::free_later(r1cs::WitnessVector&& v) {
    {
        std::lock_guard<std::mutex> lock(mu_);
        to_free_.push_back(std::move(v));
    }
    cv_.notify_all();
}

void BufferPool::background_loop() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
        cv_.wait(lock, [this] { return stop_ || !to_free_.empty() || !to_pin_.empty(); });
        if (!to_pin_.empty()) {
            r1cs::WitnessVector v = std::move(to_pin_.front());
            to_pin_.pop_front();
            const uint64_t bytes = fr_bytes(v.capacity());
            ++busy_;
            lock.unlock();
            const bool registered = gpu::host_register(v.data(), bytes);
            lock.lock();
            --busy_;
            if (registered) {
                pinned_[v.data()] = bytes;
                pinned_bytes_ += bytes;
            }
            if (stop_) {  // closing: the destructor has dropped every other idle buffer
                drop_idle(std::move(v));
            } else {
                idle_.emplace(v.capacity(), std::move(v));
            }
            cv_done_.notify_all();
            continue;
        }
        if (to_free_.empty()) {
            if (stop_) return;
            continue;
        }
        r1cs::WitnessVector v = std::move(to_free_.front());
        to_free_.pop_front();
        ++busy_;
        auto pin = pinned_.find(v.data());
        const bool registered = pin != pinned_.end();
        if (registered) {
            pinned_bytes_ -= pin->second;
            pinned_.erase(pin);
        }
        lock.unlock();
        if (registered) gpu::host_unregister(v.data());
        r1cs::WitnessVector().swap(v);  // the large free, on this thread
        lock.lock();
        --busy_;
        cv_done_.notify_all();
    }
}

void BufferPool::flush() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_done_.wait(lock, [this] { return to_free_.empty() && to_pin_.empty() && busy_ == 0; });
}

uint64_t BufferPool::idle_bytes() const {
    std::lock_guard<std::mutex> lock(mu_);
    return idle_bytes_;
}
uint64_t BufferPool::pinned_bytes() const {
    std::lock_guard<std::mutex> lock(mu_);
    return pinned_bytes_;
}
uint64_t BufferPool::reuses() const {
    std::lock_guard<std::mutex> lock(mu_);
    return reuses_;
}

}  // namespace cuzk::engine
