# The daemon (src/server: cuzk-daemon, and `cuzk client` in the CLI) is optional. It needs
# gRPC + protobuf (and their code generators), toml++, cpp-httplib and spdlog (Debian 12:
# libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler
# libtomlplusplus-dev libcpp-httplib-dev libspdlog-dev; scripts/deps installs them).
# AUTO builds it when all are found and otherwise says which are missing; the GPU machine
# has none of them, and everything else still builds there.
set(CUZK_SERVER "AUTO" CACHE STRING "Build the gRPC daemon and `cuzk client`: AUTO, ON or OFF")
set_property(CACHE CUZK_SERVER PROPERTY STRINGS AUTO ON OFF)

set(CUZK_HAVE_SERVER OFF)
if(NOT CUZK_SERVER STREQUAL "OFF")
  set(_cuzk_missing)
  find_package(Protobuf QUIET)
  find_package(gRPC CONFIG QUIET)
  find_program(CUZK_PROTOC protoc)
  find_program(CUZK_GRPC_CPP_PLUGIN grpc_cpp_plugin)
  find_package(tomlplusplus QUIET)
  find_package(spdlog QUIET)
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    # Debian ships cpp-httplib as a compiled library; its .pc carries the defines
    # (OpenSSL, zlib, brotli) the header must be read with to match the library.
    pkg_check_modules(CUZK_HTTPLIB QUIET IMPORTED_TARGET cpp-httplib)
  endif()
  if(NOT Protobuf_FOUND)
    list(APPEND _cuzk_missing "protobuf (libprotobuf-dev)")
  endif()
  if(NOT gRPC_FOUND)
    list(APPEND _cuzk_missing "gRPC (libgrpc++-dev)")
  endif()
  if(NOT CUZK_PROTOC)
    list(APPEND _cuzk_missing "protoc (protobuf-compiler)")
  endif()
  if(NOT CUZK_GRPC_CPP_PLUGIN)
    list(APPEND _cuzk_missing "grpc_cpp_plugin (protobuf-compiler-grpc)")
  endif()
  if(NOT tomlplusplus_FOUND)
    list(APPEND _cuzk_missing "toml++ (libtomlplusplus-dev)")
  endif()
  if(NOT spdlog_FOUND)
    list(APPEND _cuzk_missing "spdlog (libspdlog-dev)")
  endif()
  if(NOT CUZK_HTTPLIB_FOUND)
    list(APPEND _cuzk_missing "cpp-httplib (libcpp-httplib-dev)")
  endif()
  if(_cuzk_missing)
    list(JOIN _cuzk_missing ", " _cuzk_missing_text)
    if(CUZK_SERVER STREQUAL "ON")
      message(FATAL_ERROR "cuzk: CUZK_SERVER=ON but missing: ${_cuzk_missing_text}")
    endif()
    message(STATUS "cuzk: daemon not built (CUZK_SERVER=AUTO), missing: ${_cuzk_missing_text}")
  else()
    set(CUZK_HAVE_SERVER ON)
    message(STATUS "cuzk: daemon enabled (gRPC ${gRPC_VERSION}, protobuf ${Protobuf_VERSION})")
  endif()
endif()

# cuzk_proto: the code protoc generates from proto/cuzk/v1/proving.proto, in the build
# directory. It is third-party-style code: none of our -Werror flags apply to it, and its
# headers are SYSTEM includes for its users so their warnings do not fail our targets.
function(cuzk_add_proto_library)
  set(proto_dir ${PROJECT_SOURCE_DIR}/proto)
  set(proto_file ${proto_dir}/cuzk/v1/proving.proto)
  set(out_dir ${PROJECT_BINARY_DIR}/generated)
  set(outputs
    ${out_dir}/cuzk/v1/proving.pb.cc ${out_dir}/cuzk/v1/proving.pb.h
    ${out_dir}/cuzk/v1/proving.grpc.pb.cc ${out_dir}/cuzk/v1/proving.grpc.pb.h)
  file(MAKE_DIRECTORY ${out_dir})
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND ${CUZK_PROTOC} --proto_path=${proto_dir} --cpp_out=${out_dir} --grpc_out=${out_dir}
            --plugin=protoc-gen-grpc=${CUZK_GRPC_CPP_PLUGIN} ${proto_file}
    DEPENDS ${proto_file}
    COMMENT "protoc: cuzk/v1/proving.proto"
    VERBATIM)
  add_library(cuzk_proto STATIC ${outputs})
  target_include_directories(cuzk_proto SYSTEM PUBLIC ${out_dir})
  target_link_libraries(cuzk_proto PUBLIC gRPC::grpc++ protobuf::libprotobuf)
  if(CUZK_SANITIZE)
    target_link_options(cuzk_proto PUBLIC ${CUZK_SANITIZE_FLAGS})
  endif()
endfunction()
