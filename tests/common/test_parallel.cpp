// parallel_for: coverage of the range, grain, thread-count control, inline execution,
// nesting, exceptions and concurrent callers.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/common/parallel.hpp"

namespace cuzk {
namespace {

// Every index of [begin, end) is visited exactly once, chunks are >= grain (but the
// last may be shorter), for several thread counts and range shapes.
TEST(Parallel, CoversRangeExactlyOnce) {
    for (size_t threads : {1, 2, 3, 8}) {
        ScopedNumThreads st(threads);
        ASSERT_EQ(num_threads(), threads);
        for (size_t begin : {0, 5}) {
            for (size_t len : {0, 1, 2, 7, 64, 1000, 100003}) {
                for (size_t grain : {0, 1, 3, 100, 5000}) {
                    std::vector<std::atomic<int>> hits(len);
                    std::mutex mu;
                    std::vector<std::pair<size_t, size_t>> chunks;
                    parallel_for(begin, begin + len, grain, [&](size_t b, size_t e) {
                        {
                            std::lock_guard lk(mu);
                            chunks.emplace_back(b, e);
                        }
                        for (size_t i = b; i < e; ++i) hits[i - begin].fetch_add(1);
                    });
                    for (size_t i = 0; i < len; ++i)
                        ASSERT_EQ(hits[i].load(), 1) << "index " << i << " len " << len << " grain " << grain;
                    size_t small = 0;
                    for (auto [b, e] : chunks) {
                        ASSERT_LT(b, e);
                        if (e - b < std::max<size_t>(grain, 1)) ++small;
                    }
                    EXPECT_LE(small, 1u) << "only the last chunk may be shorter than the grain";
                }
            }
        }
    }
}

TEST(Parallel, UsesSeveralThreadsAndInlineForOne) {
    {
        ScopedNumThreads st(4);
        std::mutex mu;
        std::set<std::thread::id> ids;
        // Chunks that take a while, so idle workers certainly join in.
        parallel_for(0, 64, 1, [&](size_t, size_t) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            std::lock_guard lk(mu);
            ids.insert(std::this_thread::get_id());
        });
        EXPECT_GE(ids.size(), 2u);
        EXPECT_LE(ids.size(), 4u);
    }
    {
        ScopedNumThreads st(1);
        std::set<std::thread::id> ids;
        size_t calls = 0;
        parallel_for(0, 1000, 1, [&](size_t b, size_t e) {
            ids.insert(std::this_thread::get_id());
            ++calls;
            EXPECT_EQ(b, 0u);
            EXPECT_EQ(e, 1000u);
        });
        EXPECT_EQ(calls, 1u) << "one thread runs the whole range inline";
        ASSERT_EQ(ids.size(), 1u);
        EXPECT_EQ(*ids.begin(), std::this_thread::get_id());
    }
}

TEST(Parallel, ThreadCountControl) {
    size_t before = num_threads();
    EXPECT_GE(before, 1u);
    set_num_threads(3);
    EXPECT_EQ(num_threads(), 3u);
    set_num_threads(0);  // back to the default
    EXPECT_GE(num_threads(), 1u);
    EXPECT_THROW(set_num_threads(kMaxThreads + 1), std::invalid_argument);
    set_num_threads(before);
    EXPECT_EQ(num_threads(), before);
}

// set_num_threads(0) re-reads CUZK_THREADS; a malformed value falls back to the hardware.
TEST(Parallel, EnvironmentVariable) {
    size_t before = num_threads();
    size_t hw = std::max<size_t>(1, std::thread::hardware_concurrency());
    const char* old = std::getenv("CUZK_THREADS");
    std::string saved = old ? old : "";
    ASSERT_EQ(setenv("CUZK_THREADS", "3", 1), 0);
    set_num_threads(0);
    EXPECT_EQ(num_threads(), 3u);
    ASSERT_EQ(setenv("CUZK_THREADS", "lots", 1), 0);
    set_num_threads(0);
    EXPECT_EQ(num_threads(), std::min(hw, kMaxThreads));
    ASSERT_EQ(setenv("CUZK_THREADS", "0", 1), 0);
    set_num_threads(0);
    EXPECT_EQ(num_threads(), std::min(hw, kMaxThreads));
    if (old) {
        setenv("CUZK_THREADS", saved.c_str(), 1);
    } else {
        unsetenv("CUZK_THREADS");
    }
    set_num_threads(before);
}

// CUZK_THREADS: a count in [1, kMaxThreads]; anything else is refused naming the value,
// and a count above the cores gives a warning naming both.
TEST(Parallel, ParseThreadCount) {
    std::string warning = "stale";
    EXPECT_EQ(parse_thread_count("3", 8, &warning), 3u);
    EXPECT_EQ(warning, "");
    EXPECT_EQ(parse_thread_count("8", 8, &warning), 8u);
    EXPECT_EQ(warning, "");
    EXPECT_EQ(parse_thread_count("64", 2, &warning), 64u);
    EXPECT_NE(warning.find("CUZK_THREADS=64"), std::string::npos) << warning;
    EXPECT_NE(warning.find("2 cores"), std::string::npos) << warning;
    for (const char* bad : {"0", "lots", "", "-1", "+2", "2x", " 2", "1025", "99999999999999999999"}) {
        try {
            parse_thread_count(bad, 8, &warning);
            ADD_FAILURE() << "accepted CUZK_THREADS=\"" << bad << "\"";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("CUZK_THREADS=\"" + std::string(bad) + "\""), std::string::npos)
                << e.what();
            EXPECT_NE(std::string(e.what()).find("[1, 1024]"), std::string::npos) << e.what();
        }
    }
}

TEST(Parallel, InParallelRegion) {
    ScopedNumThreads st(2);
    EXPECT_FALSE(in_parallel_region());
    std::atomic<int> inside{0}, total{0};
    parallel_for(0, 100, 1, [&](size_t b, size_t e) {
        total += int(e - b);
        if (in_parallel_region()) inside += int(e - b);
    });
    EXPECT_EQ(total.load(), 100);
    EXPECT_EQ(inside.load(), 100);
    EXPECT_FALSE(in_parallel_region());
    parallel_for(0, 100, 1, [&](size_t, size_t) { EXPECT_THROW(set_num_threads(1), std::logic_error); });
}

TEST(Parallel, NestedCallsRunInlineWithoutDeadlock) {
    ScopedNumThreads st(4);
    constexpr size_t kOuter = 50, kInner = 1000;
    std::vector<std::atomic<int>> hits(kOuter * kInner);
    parallel_for(0, kOuter, 1, [&](size_t ob, size_t oe) {
        for (size_t o = ob; o < oe; ++o) {
            const auto me = std::this_thread::get_id();
            parallel_for(0, kInner, 1, [&](size_t b, size_t e) {
                EXPECT_EQ(std::this_thread::get_id(), me) << "a nested call must run on its caller";
                for (size_t i = b; i < e; ++i) hits[o * kInner + i]++;
            });
        }
    });
    for (auto& h : hits) ASSERT_EQ(h.load(), 1);
}

TEST(Parallel, ExceptionsPropagateToCaller) {
    for (size_t threads : {1, 2, 4}) {
        ScopedNumThreads st(threads);
        std::atomic<size_t> done{0};
        try {
            parallel_for(0, 10000, 10, [&](size_t b, size_t e) {
                if (b <= 5000 && 5000 < e) throw std::runtime_error("boom at 5000");
                done += e - b;
            });
            FAIL() << "expected an exception (threads=" << threads << ")";
        } catch (const std::runtime_error& e) {
            EXPECT_STREQ(e.what(), "boom at 5000");
        }
        EXPECT_LT(done.load(), 10000u);
        // The pool is still usable afterwards.
        std::atomic<size_t> sum{0};
        parallel_for(0, 10000, 10, [&](size_t b, size_t e) { sum += e - b; });
        EXPECT_EQ(sum.load(), 10000u);
    }
    // An exception thrown inside a nested (inline) call reaches the outer caller.
    ScopedNumThreads st(3);
    EXPECT_THROW(parallel_for(0, 100, 1,
                              [&](size_t, size_t) {
                                  parallel_for(0, 10, 1, [](size_t, size_t) { throw std::out_of_range("inner"); });
                              }),
                 std::out_of_range);
}

TEST(Parallel, ConcurrentCallersShareThePool) {
    ScopedNumThreads st(3);
    constexpr int kCallers = 4;
    std::vector<std::thread> callers;
    std::vector<uint64_t> sums(kCallers, 0);
    for (int c = 0; c < kCallers; ++c) {
        callers.emplace_back([&, c] {
            for (int rep = 0; rep < 50; ++rep) {
                std::atomic<uint64_t> s{0};
                parallel_for(0, 20000, 16, [&](size_t b, size_t e) {
                    uint64_t local = 0;
                    for (size_t i = b; i < e; ++i) local += i;
                    s += local;
                });
                sums[c] += s.load();
            }
        });
    }
    for (auto& t : callers) t.join();
    for (int c = 0; c < kCallers; ++c) EXPECT_EQ(sums[c], 50ull * (20000ull * 19999ull / 2));
}

TEST(Parallel, ResizeWhileOtherThreadsRun) {
    std::atomic<bool> stop{false};
    std::atomic<uint64_t> total{0};
    std::thread user([&] {
        while (!stop) {
            std::atomic<uint64_t> s{0};
            parallel_for(0, 5000, 8, [&](size_t b, size_t e) { s += e - b; });
            EXPECT_EQ(s.load(), 5000u);
            total += s;
        }
    });
    size_t before = num_threads();
    for (size_t n : {1, 4, 2, 3, 1, 2}) {
        set_num_threads(n);
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    stop = true;
    user.join();
    set_num_threads(before);
    EXPECT_GT(total.load(), 0u);
}

}  // namespace
}  // namespace cuzk
