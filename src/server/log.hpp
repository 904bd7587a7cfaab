// Structured log lines: "event=<name> key=value ..." through spdlog's default logger.
#pragma once

#include <spdlog/spdlog.h>

#include <string>
#include <string_view>

#include "cuzk/common/echo.hpp"

namespace cuzk::server {

// Longest value a log line carries (echo(): longer ones are cut, naming their length).
// Values from requests are echo()ed at kEchoMax where they enter a message.
inline constexpr size_t kLogValueMax = 1024;

// A value as it appears after "key=": bare when it is a single word, otherwise quoted
// with " and \ escaped, so that a line splits unambiguously into fields; bytes outside
// printable ASCII are escaped and the length bounded (echo()).
inline std::string kv(std::string_view raw) {
    const std::string e = echo(raw, kLogValueMax);
    const std::string_view v = e;
    bool bare = !v.empty();
    for (char c : v) bare &= c > ' ' && c != '"' && c != '=' && c != '\\' && c != 0x7f;
    if (bare) return std::string(v);
    std::string out = "\"";
    for (char c : v) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

}  // namespace cuzk::server
