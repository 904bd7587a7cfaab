// The engine's building blocks: memory budget, reservations, bounded queue, buffer pool,
// circuit ids, timing spans.
#include <gtest/gtest.h>

#include <atomic>
#include <nlohmann/json.hpp>
#include <thread>

#include "cuzk/common/trace.hpp"
#include "cuzk/engine/engine.hpp"
#include "cuzk/engine/memory.hpp"
#include "cuzk/engine/params.hpp"
#include "cuzk/engine/queue.hpp"
#include "cuzk/gpu/device.hpp"

using namespace cuzk;
using namespace cuzk::engine;
using namespace std::chrono_literals;

TEST(MemoryBudget, ReservesReleasesAndTracksHighWater) {
    MemoryBudget b(1000);
    EXPECT_TRUE(b.try_reserve(600));
    EXPECT_FALSE(b.try_reserve(401));
    EXPECT_TRUE(b.try_reserve(400));
    EXPECT_EQ(b.reserved(), 1000u);
    b.release(700);
    EXPECT_EQ(b.reserved(), 300u);
    EXPECT_EQ(b.high_water(), 1000u);
    EXPECT_THROW(b.release(301), std::logic_error);
    EXPECT_FALSE(b.reserve(1001));  // can never fit: no wait
}

TEST(MemoryBudget, ReserveWaitsForARelease) {
    MemoryBudget b(100);
    ASSERT_TRUE(b.try_reserve(80));
    std::atomic<bool> got{false};
    std::thread t([&] {
        EXPECT_TRUE(b.reserve(50));
        got = true;
    });
    std::this_thread::sleep_for(50ms);
    EXPECT_FALSE(got.load());
    b.release(80);
    t.join();
    EXPECT_TRUE(got.load());
    EXPECT_EQ(b.reserved(), 50u);
    EXPECT_LE(b.high_water(), 100u);
}

TEST(MemoryBudget, ReserveGivesUpAndAsksTheReclaimer) {
    MemoryBudget b(100);
    ASSERT_TRUE(b.try_reserve(90));
    std::atomic<int> stop{0};
    std::thread t([&] { stop = 1; });
    t.join();
    EXPECT_FALSE(b.reserve(
        20, [&] { return stop.load() == 1; }, 5ms));
    EXPECT_EQ(b.reserved(), 90u);
    // A reclaimer that frees 40 of the 90 held lets the reservation through.
    int calls = 0;
    b.set_reclaimer([&](uint64_t want) -> uint64_t {
        ++calls;
        EXPECT_EQ(want, 10u);
        b.release(40);
        return 40;
    });
    EXPECT_TRUE(b.reserve(20));
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(b.reserved(), 70u);
}

TEST(Reservation, GivesBackOnDestructionAndInParts) {
    MemoryBudget b(100);
    ASSERT_TRUE(b.try_reserve(60));
    {
        Reservation r(&b, 60);
        r.release(10);
        EXPECT_EQ(b.reserved(), 50u);
        Reservation moved = std::move(r);
        EXPECT_EQ(r.bytes(), 0u);
        EXPECT_EQ(moved.bytes(), 50u);
        EXPECT_THROW(moved.release(51), std::logic_error);
    }
    EXPECT_EQ(b.reserved(), 0u);
}

TEST(BoundedQueue, BlocksWhenFullAndDrainsAfterClose) {
    BoundedQueue<int> q(2);
    ASSERT_TRUE(q.push(1));
    ASSERT_TRUE(q.push(2));
    std::atomic<bool> pushed{false};
    std::thread t([&] {
        EXPECT_TRUE(q.push(3));
        pushed = true;
    });
    std::this_thread::sleep_for(50ms);
    EXPECT_FALSE(pushed.load());  // back-pressure
    EXPECT_EQ(q.pop(), 1);
    t.join();
    EXPECT_TRUE(pushed.load());
    EXPECT_EQ(q.high_water(), 2u);
    q.close();
    EXPECT_FALSE(q.push(4));
    EXPECT_EQ(q.pop(), 2);
    EXPECT_EQ(q.pop(), 3);
    EXPECT_EQ(q.pop(), std::nullopt);
}

// visit_front lets a consumer change the next element in place (the engine starts its
// device copies there) without taking it; nothing is visited when the queue is empty.
TEST(BoundedQueue, VisitFrontChangesTheNextElementInPlace) {
    BoundedQueue<int> q(3);
    int visits = 0;
    q.visit_front([&](int&) { ++visits; });
    EXPECT_EQ(visits, 0);
    ASSERT_TRUE(q.push(1));
    ASSERT_TRUE(q.push(2));
    q.visit_front([&](int& v) {
        ++visits;
        v += 10;
    });
    EXPECT_EQ(visits, 1);
    EXPECT_EQ(q.size(), 2u);
    EXPECT_EQ(q.pop(), 11);
    EXPECT_EQ(q.pop(), 2);
}

TEST(BufferPool, ReusesStorageAndCountsIdleBuffersInTheBudget) {
    MemoryBudget b(uint64_t(1) << 30);
    BufferPool pool(b, uint64_t(1) << 28, /*pin=*/false);
    auto v = pool.take(1000);
    EXPECT_GE(v.capacity(), 1000u);
    EXPECT_TRUE(v.empty());
    v.resize(1000, Fr::one());
    const Fr* storage = v.data();
    pool.give(std::move(v));
    EXPECT_EQ(pool.idle_bytes(), fr_bytes(1000));
    EXPECT_EQ(b.reserved(), fr_bytes(1000));  // idle pooled bytes are held against the budget
    auto w = pool.take(900);
    EXPECT_EQ(w.data(), storage);  // the same storage came back
    // with its length, cut to the size asked for (stale contents, not zero-filled again)
    ASSERT_EQ(w.size(), 900u);
    EXPECT_TRUE(w[899] == Fr::one());
    EXPECT_EQ(pool.reuses(), 1u);
    EXPECT_EQ(b.reserved(), 0u);
    // Much smaller requests do not take a large buffer.
    pool.give(std::move(w));
    auto small = pool.take(10);
    EXPECT_NE(small.data(), storage);
    EXPECT_EQ(pool.reclaim(1), fr_bytes(1000));
    EXPECT_EQ(pool.idle_bytes(), 0u);
    EXPECT_EQ(b.reserved(), 0u);
    pool.flush();
}

TEST(BufferPool, KeepsNoMoreThanItsIdleLimit) {
    MemoryBudget b(uint64_t(1) << 30);
    BufferPool pool(b, fr_bytes(1500), false);
    pool.give(r1cs::WitnessVector(1000));
    pool.give(r1cs::WitnessVector(1000));  // over the idle limit: freed in the background
    pool.flush();
    EXPECT_EQ(pool.idle_bytes(), fr_bytes(1000));
}

// With pin, a given buffer is page-locked on the pool's background thread (not on the
// giver's: 12.9 GB of a 32 GiB PoRep partition's a, b, c took seconds), counted as idle at
// once and taken only once registered; one already registered is not registered again; a
// pool destroyed with registrations queued frees them and gives their bytes back.
TEST(BufferPool, PageLocksGivenBuffersInTheBackground) {
    const bool gpu = gpu::device_count() > 0;  // without one, registration fails: pooled unpinned
    MemoryBudget b(uint64_t(1) << 30);
    BufferPool pool(b, uint64_t(1) << 28, /*pin=*/true);
    const size_t n = size_t(1) << 16;  // 2 MiB: above the pool's page-locking minimum
    r1cs::WitnessVector v(n);
    const Fr* storage = v.data();
    pool.give(std::move(v));
    EXPECT_EQ(pool.idle_bytes(), fr_bytes(n));  // idle (and in the budget) from the give on
    EXPECT_EQ(b.reserved(), fr_bytes(n));
    pool.flush();
    EXPECT_EQ(pool.pinned_bytes(), gpu ? fr_bytes(n) : 0u);
    auto w = pool.take(n);
    EXPECT_EQ(w.data(), storage);
    EXPECT_EQ(pool.reuses(), 1u);
    EXPECT_EQ(b.reserved(), 0u);
    pool.give(std::move(w));
    pool.flush();
    EXPECT_EQ(pool.pinned_bytes(), gpu ? fr_bytes(n) : 0u);  // the same registration
    EXPECT_EQ(pool.idle_bytes(), fr_bytes(n));
    {
        BufferPool closing(b, uint64_t(1) << 28, true);
        for (size_t k = 0; k < 4; ++k) closing.give(r1cs::WitnessVector(n << k));
        EXPECT_EQ(b.reserved(), fr_bytes(n) + fr_bytes(15 * n));
    }  // destroyed with registrations queued or running
    EXPECT_EQ(b.reserved(), fr_bytes(n));
    EXPECT_EQ(pool.idle_bytes(), fr_bytes(n));
}

TEST(CircuitKey, IdsRoundTripAndBadIdsAreNamed) {
    JobSpec spec;
    spec.circuit = "sha256-chain";
    spec.size = 4;
    EXPECT_EQ(Engine::circuit_id(spec), "sha256-chain-4");
    spec.circuit = "random-dense";
    spec.size = 1000;
    spec.seed = 7;
    EXPECT_EQ(Engine::circuit_id(spec), "random-dense-1000-4-7");
    for (const char* id : {"sha256-chain-4", "random-dense-1000-4-7"}) {
        const auto key = CircuitKey::parse(id);
        ASSERT_TRUE(key) << id;
        EXPECT_EQ(key->id(), id);
        EXPECT_FALSE(key->has_filecoin_params()) << id;
    }
    std::string why;
    EXPECT_FALSE(CircuitKey::parse("no-such-1", &why));
    EXPECT_NE(why.find("unknown circuit"), std::string::npos) << why;
    // PoRep ids name a registered proof (test_engine_porep.cpp).
    EXPECT_FALSE(CircuitKey::parse("porep-32g", &why));
    EXPECT_NE(why.find("unknown registered proof '32g'"), std::string::npos) << why;
    EXPECT_FALSE(CircuitKey::parse("sha256-chain-x", &why));
    EXPECT_NE(why.find("sha256-chain-<size>"), std::string::npos) << why;
    EXPECT_FALSE(CircuitKey::parse("random-dense-10-2", &why));
    EXPECT_FALSE(CircuitKey::parse("sha256-chain-0", &why));
}

TEST(Trace, SpansGoToTheContextSinkAndMakeAChromeTrace) {
    trace::Recorder rec(3);
    {
        trace::Span outside("nobody", "test");  // no sink: dropped
    }
    {
        trace::ScopedContext ctx({&rec, 7, 2, 0});
        trace::Span a("alpha", "test");
        a.end();
        a.end();  // once only
        { trace::Span b("beta", "test"); }
    }
    auto ev = rec.events();
    ASSERT_EQ(ev.size(), 2u);
    EXPECT_STREQ(ev[0].name, "alpha");
    EXPECT_EQ(ev[0].job, 7u);
    EXPECT_EQ(ev[0].partition, 2u);
    EXPECT_EQ(ev[0].device, 0);
    auto j = nlohmann::json::parse(rec.chrome_json());
    size_t complete = 0;
    for (auto& e : j["traceEvents"])
        if (e["ph"] == "X") {
            ++complete;
            EXPECT_EQ(e["args"]["job"], 7);
            EXPECT_EQ(e["pid"], 1);
        }
    EXPECT_EQ(complete, 2u);
    // The ring keeps the last `capacity` spans.
    trace::ScopedContext ctx({&rec, 1, 0, -1});
    for (int i = 0; i < 5; ++i) trace::Span s("x", "test");
    EXPECT_EQ(rec.events().size(), 3u);
    EXPECT_EQ(rec.dropped(), 4u);
    // A filtered copy: only the accepted events, oldest first.
    {
        trace::ScopedContext other({&rec, 9, 0, -1});
        trace::Span s("y", "test");
    }
    const auto nine = rec.events([](const trace::Event& e) { return e.job == 9; });
    ASSERT_EQ(nine.size(), 1u);
    EXPECT_STREQ(nine[0].name, "y");
    EXPECT_EQ(rec.events([](const trace::Event& e) { return e.job == 1; }).size(), 2u);
}

TEST(Trace, UnionOfOverlappingIntervals) {
    using trace::Clock;
    auto t = Clock::time_point{};
    auto ms = [](int n) { return std::chrono::milliseconds(n); };
    EXPECT_DOUBLE_EQ(trace::union_ms({{t, t + ms(10)}, {t + ms(5), t + ms(12)}, {t + ms(20), t + ms(25)}}), 17.0);
    EXPECT_DOUBLE_EQ(trace::union_ms({}), 0.0);
}
