// Seeds for randomised tests: printed with every test, overridable with CUZK_TEST_SEED
// so that a failure can be replayed exactly.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace cuzk::test {

inline uint64_t seed() {
    uint64_t s;
    if (const char* env = std::getenv("CUZK_TEST_SEED")) {
        s = std::strtoull(env, nullptr, 0);
    } else {
        s = uint64_t(std::chrono::high_resolution_clock::now().time_since_epoch().count());
    }
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "?";
    ::testing::Test::RecordProperty("seed", std::to_string(s));
    std::printf("[ seed     ] %s CUZK_TEST_SEED=%llu\n", name.c_str(), static_cast<unsigned long long>(s));
    return s;
}

}  // namespace cuzk::test
