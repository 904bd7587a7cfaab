// A small process-wide thread pool for the CPU layers (ntt, msm, r1cs products).
//
// parallel_for(begin, end, grain, fn) calls fn(b, e) on disjoint sub-ranges that cover
// [begin, end); each sub-range has at least `grain` indices unless the whole range is
// shorter. The calling thread takes part, so n threads means the caller plus n-1 workers.
//
// - Thread count: std::thread::hardware_concurrency() by default, the environment
//   variable CUZK_THREADS when set (read once, on first use), or set_num_threads().
//   With 1 thread, or a range no larger than one grain, fn runs inline on the caller.
// - Nesting: a parallel_for issued from inside a parallel_for body (on a worker or on
//   the calling thread) runs inline, so nested calls never wait on the pool.
// - Exceptions: the first exception thrown by fn is rethrown on the caller once every
//   started sub-range has finished; sub-ranges not yet started are skipped.
// - Several application threads may call parallel_for at once; their jobs share the pool.
//
// No external dependency (oneTBB/OpenMP are not available everywhere cuzk runs).
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

namespace cuzk {

// Number of threads parallel_for uses (>= 1).
size_t num_threads();

// Sets the thread count; 0 restores the default (CUZK_THREADS, else hardware
// concurrency). Waits for running parallel_for calls to finish before resizing.
// Throws std::invalid_argument above kMaxThreads.
void set_num_threads(size_t n);
inline constexpr size_t kMaxThreads = 1024;

// The thread count that CUZK_THREADS's `value` asks for: an integer in [1, kMaxThreads].
// Throws std::invalid_argument naming the value and the range otherwise (0, a sign, any
// other text). Sets *warning (when given) to a line naming the value and `cores` when it
// is above them (more threads than cores only add switching), else clears it. The pool
// warns and falls back to the hardware count; the command line refuses a bad value.
size_t parse_thread_count(const char* value, size_t cores, std::string* warning = nullptr);

// True while the current thread runs a parallel_for body.
bool in_parallel_region();

// Sets the thread count for the lifetime of the object, then restores the previous one.
class ScopedNumThreads {
 public:
    explicit ScopedNumThreads(size_t n) : saved_(num_threads()) { set_num_threads(n); }
    ~ScopedNumThreads() { set_num_threads(saved_); }
    ScopedNumThreads(const ScopedNumThreads&) = delete;
    ScopedNumThreads& operator=(const ScopedNumThreads&) = delete;

 private:
    size_t saved_;
};

namespace par_detail {
// Non-owning reference to a callable void(size_t, size_t): no allocation per call.
struct RangeFn {
    void* obj;
    void (*call)(void*, size_t, size_t);
    void operator()(size_t b, size_t e) const { call(obj, b, e); }
};
void run(size_t begin, size_t end, size_t grain, RangeFn fn);
}  // namespace par_detail

template <class Fn>
void parallel_for(size_t begin, size_t end, size_t grain, Fn&& fn) {
    static_assert(std::is_invocable_v<Fn&, size_t, size_t>, "fn must be callable as fn(size_t begin, size_t end)");
    if (end <= begin) return;
    using F = std::remove_reference_t<Fn>;
    par_detail::RangeFn ref{const_cast<void*>(static_cast<const void*>(&fn)),
                            [](void* o, size_t b, size_t e) { (*static_cast<F*>(o))(b, e); }};
    par_detail::run(begin, end, grain, ref);
}

}  // namespace cuzk
