// Structured log lines: "event=<name> key=value ..." through spdlog's default logger.
#pragma once

#include <spdlog/spdlog.h>

#include <string>
#include <string_view>

namespace cuzk::server {

// A value as it appears after "key=": bare when it is a single word, otherwise quoted
// with " and \ escaped, so that a line splits unambiguously into fields.
inline std::string kv(std::string_view v) {
    bool bare = !v.empty();
    for (char c : v) bare &= c > ' ' && c != '"' && c != '=' && c != '\\' && c != 0x7f;
    if (bare) return std::string(v);
    std::string out = "\"";
    for (char c : v) {
        if (c == '"' || c == '\\') out += '\\';
        out += (c == '\n' || c == '\r') ? ' ' : c;
    }
    return out + "\"";
}

}  // namespace cuzk::server
