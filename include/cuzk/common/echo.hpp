// A string from outside (a request's circuit name, job id, request id, an HTTP path) as
// it may appear inside an error message or a log line: at most kEchoMax bytes of it, every
// byte outside printable ASCII written as \xNN, and a longer one cut with "...(N bytes)"
// naming its full length. The result is printable ASCII. A megabyte name then costs a short line, not
// a megabyte line or a gRPC status too large for its metadata.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace cuzk {

inline constexpr size_t kEchoMax = 128;

inline std::string echo(std::string_view s, size_t max = kEchoMax) {
    static const char hex[] = "0123456789abcdef";
    std::string out;
    const size_t n = s.size() < max ? s.size() : max;
    out.reserve(n + 24);
    for (size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c >= 0x20 && c < 0x7f) {
            out += char(c);
        } else {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    if (s.size() > max) out += "...(" + std::to_string(s.size()) + " bytes)";
    return out;
}

// True when every byte of s is printable ASCII (space included).
inline bool printable(std::string_view s) {
    for (char c : s)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) return false;
    return true;
}

}  // namespace cuzk
