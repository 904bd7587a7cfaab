// What a client of cuzk-daemon needs besides the generated stub
// (cuzk/v1/proving.grpc.pb.h): a channel from an address, and errors in words.
#pragma once

#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <memory>
#include <string>

namespace cuzk::server {

// address: "host:port" (TCP), "unix:/path" or "unix:///path". Throws ConfigError for a
// malformed address. max_message_bytes bounds the responses accepted.
std::shared_ptr<grpc::Channel> make_channel(const std::string& address, uint64_t max_message_bytes = uint64_t(256)
                                                                                                     << 20);

// A failed call in words, e.g. "cannot reach cuzk-daemon at 127.0.0.1:9820 (is it
// running?): failed to connect to all addresses" or "UNIMPLEMENTED: cuzk cannot prove ...".
std::string describe(const grpc::Status& status, const std::string& address);

}  // namespace cuzk::server
