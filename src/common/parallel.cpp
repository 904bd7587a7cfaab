// The thread pool behind parallel_for (see parallel.hpp for the contract).
//
// A job is a range cut into equal chunks; participants (the caller and any idle worker)
// claim chunks with one atomic fetch_add each, so load balances itself. Jobs live on the
// caller's stack; a worker registers itself (`active`) under the pool mutex before it
// touches a job and deregisters under the same mutex, and the caller returns only when
// every chunk has been claimed and no worker is registered.
#include "cuzk/common/parallel.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace cuzk {
namespace {

thread_local bool tl_in_region = false;

// Marks the current thread as inside a parallel_for body for the lifetime of the object.
struct RegionGuard {
    bool saved = tl_in_region;
    RegionGuard() { tl_in_region = true; }
    ~RegionGuard() { tl_in_region = saved; }
};

struct Job {
    par_detail::RangeFn fn;
    size_t begin, end, chunk, nchunks;
    std::atomic<size_t> next{0};
    size_t active = 0;  // workers currently inside run_chunks (guarded by Pool::mu)
    std::atomic<bool> failed{false};
    std::exception_ptr error;  // written once, by whoever set `failed`

    void run_chunks() {
        for (;;) {
            size_t i = next.fetch_add(1, std::memory_order_relaxed);
            if (i >= nchunks) return;
            size_t b = begin + i * chunk;
            size_t e = std::min(end, b + chunk);
            try {
                fn(b, e);
            } catch (...) {
                if (!failed.exchange(true)) error = std::current_exception();
                next.store(nchunks, std::memory_order_relaxed);  // skip the chunks not yet started
            }
        }
    }
};

size_t default_threads() {
    const size_t hw = std::min(std::max<size_t>(1, std::thread::hardware_concurrency()), kMaxThreads);
    const char* env = std::getenv("CUZK_THREADS");
    if (!env || !*env) return hw;
    try {
        std::string warning;
        const size_t n = parse_thread_count(env, hw, &warning);
        if (!warning.empty()) std::fprintf(stderr, "cuzk: warning: %s\n", warning.c_str());
        return n;
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "cuzk: ignoring %s; using %zu threads\n", e.what(), hw);
        return hw;
    }
}

class Pool {
 public:
    Pool() { start(default_threads()); }
    ~Pool() { stop_workers(); }

    size_t threads() const { return nthreads_.load(std::memory_order_relaxed); }

    void resize(size_t n) {
        std::unique_lock rl(resize_mu_);  // waits for running top-level jobs
        if (n == threads()) return;
        stop_workers();
        start(n);
    }

    void run(size_t begin, size_t end, size_t grain, par_detail::RangeFn fn) {
        std::shared_lock rl(resize_mu_);
        const size_t n = end - begin;
        const size_t t = threads();
        // About four chunks per thread: enough slack to balance uneven chunks.
        size_t chunk = std::max(grain, (n + 4 * t - 1) / (4 * t));
        size_t nchunks = (n + chunk - 1) / chunk;
        if (nchunks <= 1) {
            RegionGuard g;
            fn(begin, end);
            return;
        }
        Job job;
        job.fn = fn;
        job.begin = begin;
        job.end = end;
        job.chunk = chunk;
        job.nchunks = nchunks;
        {
            std::lock_guard lk(mu_);
            jobs_.push_back(&job);
        }
        work_cv_.notify_all();
        {
            RegionGuard g;
            job.run_chunks();
        }
        {
            std::unique_lock lk(mu_);
            done_cv_.wait(lk, [&] { return job.active == 0; });
            jobs_.erase(std::find(jobs_.begin(), jobs_.end(), &job));
        }
        if (job.error) std::rethrow_exception(job.error);
    }

 private:
    void start(size_t n) {
        nthreads_.store(n, std::memory_order_relaxed);
        stop_ = false;
        for (size_t i = 1; i < n; ++i) workers_.emplace_back([this] { worker_loop(); });
    }

    void stop_workers() {
        {
            std::lock_guard lk(mu_);
            stop_ = true;
        }
        work_cv_.notify_all();
        for (auto& w : workers_) w.join();
        workers_.clear();
    }

    Job* find_job() {
        for (Job* j : jobs_)
            if (j->next.load(std::memory_order_relaxed) < j->nchunks) return j;
        return nullptr;
    }

    void worker_loop() {
        tl_in_region = true;  // anything a worker runs is inside a parallel region
        std::unique_lock lk(mu_);
        for (;;) {
            Job* job = nullptr;
            work_cv_.wait(lk, [&] { return stop_ || (job = find_job()) != nullptr; });
            if (stop_) return;  // resize holds resize_mu_ exclusively: no job is running
            ++job->active;
            lk.unlock();
            job->run_chunks();
            lk.lock();
            if (--job->active == 0) done_cv_.notify_all();
        }
    }

    std::atomic<size_t> nthreads_{1};
    std::shared_mutex resize_mu_;  // shared: a running top-level job; exclusive: resize
    std::mutex mu_;                // guards jobs_, Job::active, stop_
    std::condition_variable work_cv_, done_cv_;
    std::vector<Job*> jobs_;
    std::vector<std::thread> workers_;
    bool stop_ = false;
};

Pool& pool() {
    static Pool p;
    return p;
}

}  // namespace

size_t parse_thread_count(const char* value, size_t cores, std::string* warning) {
    if (warning) warning->clear();
    const std::string v = value ? value : "";
    const bool digits = !v.empty() && v.size() <= 9 && v.find_first_not_of("0123456789") == std::string::npos;
    const unsigned long n = digits ? std::stoul(v) : 0;
    if (n < 1 || n > kMaxThreads)
        throw std::invalid_argument("CUZK_THREADS=\"" + v + "\": expected a thread count in [1, " +
                                    std::to_string(kMaxThreads) + "]");
    if (n > cores && warning)
        *warning = "CUZK_THREADS=" + v + " is above the " + std::to_string(cores) + " cores of this machine";
    return size_t(n);
}

size_t num_threads() { return pool().threads(); }

void set_num_threads(size_t n) {
    if (n > kMaxThreads)
        throw std::invalid_argument("set_num_threads: " + std::to_string(n) + " threads requested, the most is " +
                                    std::to_string(kMaxThreads));
    if (tl_in_region) throw std::logic_error("set_num_threads: called from inside a parallel_for body");
    pool().resize(n == 0 ? default_threads() : n);
}

bool in_parallel_region() { return tl_in_region; }

namespace par_detail {
void run(size_t begin, size_t end, size_t grain, RangeFn fn) {
    if (grain == 0) grain = 1;
    if (tl_in_region || end - begin <= grain || num_threads() == 1) {
        RegionGuard g;
        fn(begin, end);
        return;
    }
    pool().run(begin, end, grain, fn);
}
}  // namespace par_detail

}  // namespace cuzk
