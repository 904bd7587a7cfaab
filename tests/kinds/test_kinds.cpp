// The proof-kind registry: kinds found by name, circuit ids parsed to shapes, refusals named.
#include <gtest/gtest.h>

#include <cstdio>

#include "cuzk/filecoin/registry.hpp"
#include "cuzk/filecoin/update.hpp"
#include "cuzk/kinds/kind.hpp"

using namespace cuzk;
using namespace cuzk::kinds;

namespace {
KindError::Code code_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const KindError& e) {
        return e.code();
    }
    ADD_FAILURE() << "no KindError";
    return KindError::Code::NotFound;
}

// The engine reserves memory from Shape::counts before a shape is recorded: the PoSt and
// SnapDeals shapes take the default counting pass, whose non-zero bounds must hold for their
// gadgets (SnapDeals overrides the bounds: its SHA-256 paths put 2.12 a constraint in C).
TEST(Kinds, DefaultCountsBoundThePoStAndSnapShapes) {
    const auto r = Registry::all();
    for (const char* id : {"window-post-StackedDrgWindow2KiBV1_2", "winning-post-StackedDrgWinning2KiBV1",
                           "snap-deals-update-StackedDrg2KiBV1"}) {
        SCOPED_TRACE(id);
        const auto shape = r->shape(id, Limits{});
        const r1cs::ShapeCounts c = shape->counts({});
        const r1cs::Shape s = shape->blank_circuit()->shape();
        const double m = double(s.num_constraints);
        std::printf("%s: %llu constraints, non-zeros a constraint A %.3f B %.3f C %.3f, %zu coefficients\n", id,
                    (unsigned long long)s.num_constraints, double(s.a.nnz()) / m, double(s.b.nnz()) / m,
                    double(s.c.nnz()) / m, s.coeffs.size());
        EXPECT_EQ(c.num_inputs, s.num_inputs);
        EXPECT_EQ(c.num_aux, s.num_aux);
        EXPECT_EQ(c.num_constraints, s.num_constraints);
        EXPECT_GE(c.nnz_a, s.a.nnz());
        EXPECT_GE(c.nnz_b, s.b.nnz());
        EXPECT_GE(c.nnz_c, s.c.nnz());
        EXPECT_GE(c.coeffs, s.coeffs.size());
    }
}

}  // namespace

TEST(Kinds, RegistryNamesEveryKindAndRefusesUnknownOnes) {
    const auto r = Registry::all();
    EXPECT_EQ(r->names(), (std::vector<std::string>{"builtin", "porep-seal-commit", "snap-deals-update", "window-post",
                                                    "winning-post"}));
    try {
        r->find("no-such-kind");
        FAIL();
    } catch (const KindError& e) {
        EXPECT_EQ(e.code(), KindError::Code::InvalidArgument);
        EXPECT_NE(std::string(e.what()).find("unknown proof kind 'no-such-kind' (known: builtin, porep-seal-commit"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(code_of([&] { r->find("snap-deals-update").prepare(Request{}, Limits{}); }),
              KindError::Code::InvalidArgument);
}

// SnapDeals shapes: one per registered update proof, named by it, with the v28
// empty-sector-update files; 32 GiB counted (81,049,499 constraints) without a witness.
TEST(Kinds, SnapShapesNameTheirParameterFilesAndCount) {
    const auto r = Registry::all();
    const auto s = r->shape("snap-deals-update-StackedDrg32GiBV1", Limits{});
    const auto& cfg = filecoin::update_config(filecoin::RegisteredUpdateProof::StackedDrg32GiBV1);
    EXPECT_EQ(s->params_file_name(), filecoin::update_params_file_name(cfg));
    EXPECT_EQ(s->vk_file_name(), filecoin::update_vk_file_name(cfg));
    const r1cs::ShapeCounts c = s->counts({});
    EXPECT_EQ(c.num_constraints, 81'049'499u + 5);  // and one a public input (ONE included)
    EXPECT_EQ(c.num_inputs, 5u);
    EXPECT_EQ(code_of([&] { r->shape("snap-deals-update-StackedDrg32GiBV1_1", Limits{}); }),
              KindError::Code::InvalidArgument);
    Request req;
    req.kind = "snap-deals-update";
    req.registered_proof = "3";
    EXPECT_EQ(r->find(req.kind).circuit_id(req), "snap-deals-update-StackedDrg32GiBV1");
    req.registered_proof = "5";
    EXPECT_EQ(code_of([&] { r->find(req.kind).circuit_id(req); }), KindError::Code::InvalidArgument);
}

TEST(Kinds, BuiltinPartitionsAndShape) {
    const Kind& k = Registry::all()->find("builtin");
    Request req;
    req.circuit = "sha256-chain";
    req.size = 1;
    req.partitions = 3;
    req.seed = 5;
    auto work = k.prepare(req, Limits{});
    EXPECT_EQ(work->partitions(), 3u);
    EXPECT_EQ(work->shape()->id(), "sha256-chain-1");
    EXPECT_EQ(k.circuit_id(req), "sha256-chain-1");
    EXPECT_TRUE(work->shape()->params_file_name().empty());
    // Partitions share the shape, not the witness (preimage seed + k).
    EXPECT_NE(work->partition(0).public_inputs, work->partition(1).public_inputs);
    EXPECT_EQ(work->partition(1).public_inputs, work->partition(1).public_inputs);
    req.partitions = 129;
    EXPECT_EQ(code_of([&] { k.prepare(req, Limits{}); }), KindError::Code::InvalidArgument);
    EXPECT_EQ(Registry::all()->shape("random-dense-300-3-7", Limits{})->id(), "random-dense-300-3-7");
}

TEST(Kinds, PoRepShapesNameTheirParameterFiles) {
    const auto s = Registry::all()->shape("porep-StackedDrg2KiBV1_1", Limits{});
    const auto& cfg = filecoin::porep_config(filecoin::RegisteredSealProof::StackedDrg2KiBV1_1);
    EXPECT_EQ(s->id(), "porep-StackedDrg2KiBV1_1");
    EXPECT_EQ(s->params_file_name(), filecoin::porep_params_file_name(cfg));
    EXPECT_EQ(s->vk_file_name(), filecoin::porep_vk_file_name(cfg));
    // Every registered proof of a size shares the V1_1 proof's shape (one loaded copy of the
    // parameter files): V1 and NI-PoRep too.
    for (const char* id : {"porep-StackedDrg2KiBV1", "porep-StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"})
        EXPECT_EQ(Registry::all()->shape(id, Limits{})->id(), "porep-StackedDrg2KiBV1_1") << id;
    EXPECT_EQ(porep_shape(uint64_t(filecoin::RegisteredSealProof::StackedDrg32GiBV1_2_Feat_NonInteractivePoRep))->id(),
              "porep-StackedDrg32GiBV1_1");
    EXPECT_EQ(porep_shape(uint64_t(filecoin::RegisteredSealProof::StackedDrg64GiBV1))->params_file_name(),
              filecoin::porep_params_file_name(
                  filecoin::porep_config(filecoin::RegisteredSealProof::StackedDrg64GiBV1_2_Feat_NonInteractivePoRep)));
    Request req;
    req.kind = "porep-seal-commit";
    EXPECT_EQ(code_of([&] { Registry::all()->find(req.kind).prepare(req, Limits{}); }),
              KindError::Code::InvalidArgument);
    try {
        Registry::all()->shape("nothing-1", Limits{});
        FAIL();
    } catch (const KindError& e) {
        EXPECT_NE(std::string(e.what()).find("known: sha256-chain, random-dense, porep-<registered proof>"),
                  std::string::npos)
            << e.what();
    }
}

TEST(Kinds, PoStShapesAndDefaultPriorities) {
    const auto r = Registry::all();
    const auto w = r->shape("window-post-StackedDrgWindow2KiBV1_2", Limits{});
    EXPECT_EQ(w->id(), "window-post-StackedDrgWindow2KiBV1_2");
    EXPECT_EQ(w->params_file_name().rfind("v28-proof-of-spacetime-fallback", 0), 0u) << w->params_file_name();
    EXPECT_EQ(r->shape("winning-post-StackedDrgWinning2KiBV1", Limits{})->id(), "winning-post-StackedDrgWinning2KiBV1");
    // A Winning proof is not a Window circuit.
    EXPECT_EQ(code_of([&] { r->shape("window-post-StackedDrgWinning2KiBV1", Limits{}); }),
              KindError::Code::InvalidArgument);
    EXPECT_EQ(r->find("winning-post").default_priority(), Priority::Critical);
    EXPECT_EQ(r->find("window-post").default_priority(), Priority::High);
    EXPECT_EQ(r->find("porep-seal-commit").default_priority(), Priority::Normal);
    EXPECT_EQ(r->find("snap-deals-update").default_priority(), Priority::Normal);
    EXPECT_EQ(r->find("builtin").default_priority(), Priority::Normal);
    Request req;
    req.kind = "window-post";
    req.registered_proof = "10";
    EXPECT_EQ(r->find(req.kind).circuit_id(req), "window-post-StackedDrgWindow2KiBV1_2");
}
