// Wire compatibility with Curio's cuzk daemon (filecoin-project/curio,
// extern/cuzk/cuzk-proto/proto/cuzk/v1/proving.proto): every Curio message, field number,
// type, enum value and RPC, pinned here and checked against our generated descriptors.
// A change to proving.proto that would break a Curio client fails this test; cuzk's own
// additions (SubmitBuiltin, ...) are free to grow.
#include <google/protobuf/descriptor.h>
#include <gtest/gtest.h>

#include <sstream>

#include "cuzk/server/gpu_status.hpp"
#include "cuzk/v1/proving.grpc.pb.h"

namespace {

using google::protobuf::Descriptor;
using google::protobuf::DescriptorPool;
using google::protobuf::FieldDescriptor;

// "name=number:type" per field, in declaration order; type is the scalar name, or the
// message/enum name relative to cuzk.v1, prefixed "repeated " for repeated fields.
std::string describe(const Descriptor& d) {
    std::ostringstream os;
    for (int i = 0; i < d.field_count(); ++i) {
        const FieldDescriptor& f = *d.field(i);
        std::string type = f.type_name();
        if (f.message_type()) type = f.message_type()->full_name();
        if (f.enum_type()) type = f.enum_type()->full_name();
        if (type.rfind("cuzk.v1.", 0) == 0) type = type.substr(8);
        os << (i ? " " : "") << f.name() << "=" << f.number() << ":" << (f.is_repeated() ? "repeated " : "") << type;
    }
    return os.str();
}

TEST(ProtoCurioCompat, MessagesFieldsAndNumbers) {
    const std::pair<const char*, const char*> curio[] = {
        {"SubmitProofRequest",
         "request_id=1:string proof_kind=2:ProofKind sector_size=3:uint64 registered_proof=4:uint64 "
         "priority=5:Priority vanilla_proof=10:bytes vanilla_proofs=11:repeated bytes sector_number=20:uint64 "
         "miner_id=21:uint64 randomness=22:bytes partition_index=23:uint32 comm_r_old=30:bytes comm_r_new=31:bytes "
         "comm_d_new=32:bytes"},
        {"SubmitProofResponse", "job_id=1:string queue_position=2:uint32 assigned_gpu=3:string"},
        {"AwaitProofRequest", "job_id=1:string timeout_ms=2:uint64"},
        {"AwaitProofResponse",
         "job_id=1:string status=2:AwaitProofResponse.Status proof=3:bytes error_message=4:string "
         "queue_wait_ms=10:uint64 srs_load_ms=11:uint64 synthesis_ms=12:uint64 gpu_compute_ms=13:uint64 "
         "total_ms=14:uint64"},
        {"ProveRequest", "submit=1:SubmitProofRequest"},
        {"ProveResponse", "result=1:AwaitProofResponse"},
        {"CancelProofRequest", "job_id=1:string"},
        {"CancelProofResponse", "was_running=1:bool"},
        {"GetStatusRequest", ""},
        {"GetStatusResponse",
         "gpus=1:repeated GPUStatus loaded_srs=2:repeated SRSStatus queues=3:repeated QueueStatus "
         "total_proofs_completed=4:uint64 total_proofs_failed=5:uint64 uptime_seconds=6:uint64 "
         "pinned_memory_bytes=7:uint64 pinned_memory_limit_bytes=8:uint64"},
        {"GPUStatus",
         "ordinal=1:uint32 name=2:string vram_total_bytes=3:uint64 vram_free_bytes=4:uint64 current_job_id=5:string "
         "current_proof_kind=6:string"},
        {"SRSStatus", "circuit_id=1:string tier=2:SRSStatus.Tier size_bytes=3:uint64 ref_count=4:uint32"},
        {"QueueStatus", "proof_kind=1:string pending=2:uint32 in_progress=3:uint32"},
        {"PreloadSrsRequest", "circuit_id=1:string"},
        {"PreloadSrsResponse", "already_loaded=1:bool load_time_ms=2:uint64"},
        {"EvictSrsRequest", "circuit_id=1:string"},
        {"EvictSrsResponse", "was_loaded=1:bool freed_bytes=2:uint64"},
        {"GetMetricsRequest", ""},
        {"GetMetricsResponse", "prometheus_text=1:string"},
    };
    const DescriptorPool& pool = *DescriptorPool::generated_pool();
    for (const auto& [name, fields] : curio) {
        const Descriptor* d = pool.FindMessageTypeByName(std::string("cuzk.v1.") + name);
        ASSERT_NE(d, nullptr) << name;
        // Curio's fields first, as Curio numbers them; cuzk's own may follow (GPUStatus).
        const std::string all = describe(*d), curio_fields = fields;
        EXPECT_TRUE(all == curio_fields || all.rfind(curio_fields + " ", 0) == 0) << name << ": " << all;
    }
}

// cuzk's additions to GPUStatus (numbers 7 on), filled from the engine's device status.
TEST(ProtoCuzkFields, GpuStatusCarriesTheDeviceState) {
    const Descriptor* d = DescriptorPool::generated_pool()->FindMessageTypeByName("cuzk.v1.GPUStatus");
    ASSERT_NE(d, nullptr);
    for (int i = 6; i < d->field_count(); ++i) EXPECT_GE(d->field(i)->number(), 7) << d->field(i)->name();

    cuzk::engine::DeviceStatus s;
    s.ordinal = 3;
    s.name = "H200";
    s.memory_total = 150'000'000'000;
    s.memory_free = 90'000'000'000;
    s.current_job_id = "job-7";
    s.current_kind = "porep-32g";
    s.busy_ms = 1234.6;
    s.placed = 2;
    s.partitions_proven = 41;
    s.abc_copied_ahead = 39;
    s.z_copied_ahead = 40;
    s.base_sets_resident = 3;
    s.base_sets_streamed = 2;
    s.base_bytes_resident = 5'000'000'000;
    s.base_bytes_streamed = 9'000'000'000;
    s.h_step_vectors = 2;
    s.twiddles_lent_bytes = 4'294'967'296;
    cuzk::v1::GPUStatus g;
    cuzk::server::fill_gpu_status(s, &g);
    EXPECT_EQ(g.ordinal(), 3u);
    EXPECT_EQ(g.name(), "H200");
    EXPECT_EQ(g.vram_total_bytes(), 150'000'000'000u);
    EXPECT_EQ(g.vram_free_bytes(), 90'000'000'000u);
    EXPECT_EQ(g.current_job_id(), "job-7");
    EXPECT_EQ(g.current_proof_kind(), "porep-32g");
    EXPECT_EQ(g.busy_ms(), 1235u);
    EXPECT_EQ(g.partitions_placed(), 2u);
    EXPECT_EQ(g.partitions_proven(), 41u);
    EXPECT_EQ(g.abc_copied_ahead(), 39u);
    EXPECT_EQ(g.z_copied_ahead(), 40u);
    EXPECT_EQ(g.base_sets_resident(), 3u);
    EXPECT_EQ(g.base_sets_streamed(), 2u);
    EXPECT_EQ(g.base_bytes_resident(), 5'000'000'000u);
    EXPECT_EQ(g.base_bytes_streamed(), 9'000'000'000u);
    EXPECT_EQ(g.h_step_vectors(), 2u);
    EXPECT_EQ(g.twiddles_lent_bytes(), 4'294'967'296u);
}

TEST(ProtoCurioCompat, EnumValues) {
    const std::pair<const char*, const char*> curio[] = {
        {"ProofKind",
         "PROOF_KIND_UNSPECIFIED=0 POREP_SEAL_COMMIT=1 SNAP_DEALS_UPDATE=2 WINDOW_POST_PARTITION=3 "
         "WINNING_POST=4"},
        {"Priority", "PRIORITY_UNSPECIFIED=0 LOW=1 NORMAL=2 HIGH=3 CRITICAL=4"},
        {"AwaitProofResponse.Status", "UNKNOWN=0 COMPLETED=1 FAILED=2 CANCELLED=3 TIMEOUT=4"},
        {"SRSStatus.Tier", "HOT=0 WARM=1 COLD=2"},
    };
    const DescriptorPool& pool = *DescriptorPool::generated_pool();
    for (const auto& [name, values] : curio) {
        const auto* e = pool.FindEnumTypeByName(std::string("cuzk.v1.") + name);
        ASSERT_NE(e, nullptr) << name;
        std::ostringstream os;
        for (int i = 0; i < e->value_count(); ++i)
            os << (i ? " " : "") << e->value(i)->name() << "=" << e->value(i)->number();
        EXPECT_EQ(os.str(), values) << name;
    }
}

TEST(ProtoCurioCompat, ServiceAndRpcs) {
    const auto* s = DescriptorPool::generated_pool()->FindServiceByName("cuzk.v1.ProvingEngine");
    ASSERT_NE(s, nullptr);
    const char* curio[][3] = {
        {"SubmitProof", "SubmitProofRequest", "SubmitProofResponse"},
        {"AwaitProof", "AwaitProofRequest", "AwaitProofResponse"},
        {"Prove", "ProveRequest", "ProveResponse"},
        {"CancelProof", "CancelProofRequest", "CancelProofResponse"},
        {"GetStatus", "GetStatusRequest", "GetStatusResponse"},
        {"GetMetrics", "GetMetricsRequest", "GetMetricsResponse"},
        {"PreloadSRS", "PreloadSrsRequest", "PreloadSrsResponse"},
        {"EvictSRS", "EvictSrsRequest", "EvictSrsResponse"},
    };
    for (const auto& m : curio) {
        const auto* method = s->FindMethodByName(m[0]);
        ASSERT_NE(method, nullptr) << m[0];
        EXPECT_EQ(method->input_type()->full_name(), std::string("cuzk.v1.") + m[1]);
        EXPECT_EQ(method->output_type()->full_name(), std::string("cuzk.v1.") + m[2]);
        EXPECT_FALSE(method->client_streaming() || method->server_streaming()) << m[0];
    }
    // Curio's RPCs come first; cuzk's own follow.
    for (int i = 0; i < 8; ++i) EXPECT_EQ(s->method(i)->name(), curio[i][0]);
    EXPECT_NE(s->FindMethodByName("SubmitBuiltin"), nullptr);
    EXPECT_NE(s->FindMethodByName("AwaitBuiltin"), nullptr);
    EXPECT_NE(s->FindMethodByName("ProveBuiltin"), nullptr);
}

}  // namespace
