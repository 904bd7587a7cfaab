#include "cuzk/server/client.hpp"

#include "cuzk/server/config.hpp"

namespace cuzk::server {

std::shared_ptr<grpc::Channel> make_channel(const std::string& address, uint64_t max_message_bytes) {
    const std::string target = check_listen_address(address, "--address");
    grpc::ChannelArguments args;
    args.SetMaxReceiveMessageSize(int(std::min<uint64_t>(max_message_bytes, (uint64_t(2) << 30) - 1)));
    args.SetMaxSendMessageSize(-1);  // the daemon enforces its own request limit
    return grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args);
}

std::string describe(const grpc::Status& s, const std::string& address) {
    static const char* names[] = {
        "OK",        "CANCELLED",      "UNKNOWN",           "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
        "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
        "ABORTED",   "OUT_OF_RANGE",   "UNIMPLEMENTED",     "INTERNAL",           "UNAVAILABLE",
        "DATA_LOSS", "UNAUTHENTICATED"};
    const int code = int(s.error_code());
    const std::string name = code >= 0 && code < 17 ? names[code] : "code " + std::to_string(code);
    if (s.error_code() == grpc::StatusCode::UNAVAILABLE && s.error_message().find("shutting down") == std::string::npos)
        return "cannot reach cuzk-daemon at " + address + " (is it running?): " + s.error_message();
    if (s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED)
        return "no answer from cuzk-daemon at " + address + " in time: " + s.error_message();
    return name + ": " + s.error_message();
}

}  // namespace cuzk::server
