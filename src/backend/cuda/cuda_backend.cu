// The CUDA prover backend: H and the five MSMs on the device, bases resident.
//
// The fused stages keep data on the device and copy each input once:
//   h_msm: a, b, c up, pipelined with the transforms: a's copy (on copy_stream_), then
//          a's iNTT + coset NTT (ntt::prepare_h_input, on stream_) while b is copied, b's
//          while c is copied, then c's iNTT, then a b / Z, the coset iNTT and - c
//          (ntt::quotient_and_coset_inverse) -> the H MSM reads h where that left it (no
//          copy of h to the host and back). Spans: h2d_abc until the last copy is done
//          (the transforms of a and b run under it), h_kernels the transforms after it.
//          On a small budget (h_vectors_for) two of the three at once: the quotient of a
//          and b first (ntt::quotient_coset_inverse), c copied over b once that has read
//          it, c's iNTT, the subtraction (8 instead of 12 GiB at 2^27; a 16 GiB H200
//          budget proves a 32 GiB sector in 29.6 s, against 26.5 s at 24 GiB with three);
//   msm_z: inputs and aux up into one device z (h2d_z; no z on the host) -> the L MSM
//          reads aux inside it, the A, B_G1 and B_G2 MSMs all of it (aux copied once).
//          When h_msm was told this z (ZInputs) and aux is page-locked, h_msm already
//          copied it, into the scratch's b and c part once the quotient has read them,
//          under the H MSM (copy_stream_), and msm_z starts on it at once. A 32 GiB PoRep
//          partition's z is 4.2 GB, ~76 ms of PCIe 5 that msm_a used to wait for.
//   copy_abc_ahead: a pipeline hands over the next proof's a, b, c once this proof's
//          h_msm is done. Its a and c go (copy_stream_) where h and c were, the parts of
//          the scratch that this proof's msm_z leaves alone (its z sits where b was),
//          while this proof's other MSMs run; the next h_msm, given the handle, starts on
//          a at once and copies only b, under a's transforms. No memory beyond the
//          scratch: on the H200 the resident PoRep bases and the MSMs' own scratch left
//          too little for a second 3 x 4.3 GB buffer. A 32 GiB partition's H had waited
//          ~77 ms for the first of its three copies.
// A copy ahead is trusted by the host addresses it came from, so the callers promise
// (backend.hpp) not to change those vectors in between; anything else that writes the
// scratch first drops the z and the a, c copied ahead (waiting for those copies).
// CUZK_GPU_COPY_AHEAD=0 (or set_copy_ahead) turns both off.
// Host buffers that are page-locked (registered by the engine's buffer pool) are copied
// straight by DMA; pageable ones go through a ring of two pinned staging chunks, the
// host memcpy of one chunk overlapping the DMA of the other. The device scratch (a, b,
// c, reused for z) stays with the backend and only grows.
// Every entry point selects the backend's device first: the engine runs one backend per
// GPU from threads that may have touched another device.
// Precomputed tables (Msm::precompute): after its second MSM with at least
// kTableMinFull full scalars, a base set (G1 or G2) gets a table of shifted copies if the card keeps
// a quarter of its memory free beside it (and the table's sort scratch); later proofs'
// MSMs over that set then run 12-17% faster (H200, 2^22-2^24 full scalars: 30.9 -> 25.9, 101.7 -> 89.4 ms;
// Groth16 2^24 random-dense 590 -> 548 ms, sha256-chain 182.5 -> 172.7; the proof that
// builds them pays 1.4 s a 2^24 set, so a one-off proof builds none).
// A mostly-0/1 set never gets one (its Pippenger part is small). CUZK_GPU_TABLES=0 turns
// them off, CUZK_GPU_TABLES=<n> sets kTableMinFull to n. Every run holds run_mu_, so a
// table is never built under a running MSM, and all resident base sets share one set of
// MSM scratch (gpu::MsmScratch: classification, sort and bucket buffers, ~15 GB at a 32
// GiB partition's sizes) instead of one each: device memory after a 32 GiB sector on the
// H200 137.2 -> 82.7 GiB (78.2 with the in-place compaction; bench/RESULTS.md).
// Device-memory budget (CUZK_GPU_MEMORY, or the card; cuzk/gpu/memory_plan.hpp): an H step
// of domain m needs its a, b, c scratch and the NTT's twiddle pairs (16 GiB at 2^27), refused
// by name where the budget is smaller; the rest goes to the MSMs. Each residency decision
// recomputes their share (free memory plus what their scratch holds, less 512 MiB) and caps
// the shared scratch's sort and bucket sets to a fifth of it each, and the two chunk buffers,
// which every streamed set shares, to another fifth (uncapped, the scratch grew to ~15 GB at
// a 32 GiB partition's sizes whatever the budget). Which sets stay resident when not all fit
// is planned per proof with its five sets in view, the most worth per byte first
// (plan_residency); first come would mean H first on a 32 GiB partition, the least worth a
// byte.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

#include "cuzk/backend/backend.hpp"
#include "cuzk/backend/testing.hpp"
#include "cuzk/common/trace.hpp"
#include "cuzk/gpu/memory_plan.hpp"
#include "cuzk/gpu/msm.hpp"
#include "cuzk/gpu/ntt.hpp"
#include "cuzk/groth16/zkey.hpp"  // ZkeyMsm, complete for bn254_msm()
#include "cuzk/ntt/domain.hpp"
#include "gpu/common/host_staging.hpp"
#include "gpu/msm/msm_scratch.hpp"

namespace cuzk::gpu {
namespace {

void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string("cuda backend: ") + what + ": " + cudaGetErrorString(e));
}

// Full scalars in an MSM from which its base set gets a precomputed table. On the H200
// a G1 table saves 1.5 ms a run at 2^20 (10.6 -> 9.1 ms, built in 0.09 s), 12 ms at 2^24;
// a G2 table 5.5 ms at 2^20 (39.9 -> 34.4, 0.23 s), 47 ms at 2^24. From 2^18 on, so that
// a 2^20-constraint circuit's sets qualify (its B_G2 MSM: ~2^19 full scalars).
constexpr size_t kTableMinFull = size_t(1) << 18;

// CUZK_GPU_COPY_AHEAD=0 turns both copies ahead off (h_msm copies no z, copy_abc_ahead
// starts nothing): the way to measure what they save, or to rule them out. Anything but 0
// or 1 is refused.
bool copy_ahead_enabled() {
    const char* v = std::getenv("CUZK_GPU_COPY_AHEAD");
    if (!v || !*v || std::strcmp(v, "1") == 0) return true;
    if (std::strcmp(v, "0") == 0) return false;
    throw std::invalid_argument(std::string("CUZK_GPU_COPY_AHEAD must be 0 or 1, got '") + v + "'");
}

// CUZK_GPU_MEMORY: the device memory the backend plans with, as if the card had that much
// (whatever else uses the card counts against it too); 0 (unset): the whole card. A count
// of bytes with an optional binary suffix K, M, G or T (80G = 80 GiB); anything else is
// refused.
size_t gpu_memory_limit() {
    const char* v = std::getenv("CUZK_GPU_MEMORY");
    if (!v || !*v) return 0;
    const std::optional<size_t> n = parse_byte_size(v);
    if (!n)
        throw std::invalid_argument(std::string("CUZK_GPU_MEMORY must be a positive size in bytes, with an optional "
                                                "K, M, G or T (binary units), got '") +
                                    v + "'");
    return *n;
}

// CUZK_GPU_H_VECTORS: how many of a, b, c an H step keeps on the device at once, 2 or 3
// (unset: by the budget, memory_plan.hpp's h_step_vectors); anything else is refused.
unsigned forced_h_vectors() {
    const char* v = std::getenv("CUZK_GPU_H_VECTORS");
    if (!v || !*v) return 0;
    if (std::strcmp(v, "2") == 0) return 2;
    if (std::strcmp(v, "3") == 0) return 3;
    throw std::invalid_argument(std::string("CUZK_GPU_H_VECTORS must be 2 or 3, got '") + v + "'");
}

// CUZK_GPU_LEND_TWIDDLES: 1 / 0 lends the H step's twiddle table to the MSMs between H steps
// or never (unset: by the budget, memory_plan.hpp's lend_twiddles); anything else is refused.
std::optional<bool> forced_lend_twiddles() {
    const char* v = std::getenv("CUZK_GPU_LEND_TWIDDLES");
    if (!v || !*v) return std::nullopt;
    if (std::strcmp(v, "1") == 0) return true;
    if (std::strcmp(v, "0") == 0) return false;
    throw std::invalid_argument(std::string("CUZK_GPU_LEND_TWIDDLES must be 0 or 1, got '") + v + "'");
}

// kTableMinFull, or CUZK_GPU_TABLES (0: never).
size_t table_min_full() {
    const char* v = std::getenv("CUZK_GPU_TABLES");
    if (!v || !*v) return kTableMinFull;
    char* end = nullptr;
    const unsigned long long n = std::strtoull(v, &end, 10);
    if (*end != '\0' || v[0] == '-')
        throw std::invalid_argument(
            std::string("CUZK_GPU_TABLES must be a count of full scalars (0: no tables), got '") + v + "'");
    return size_t(n);
}

// CUZK_GPU_TABLE_BASE: the bases of the tables (gpu_msm_precomputed_table's any_base), "pow2"
// (2^c only) or "any" (m 2^s as well); unset: kTableAnyBase. Anything else is refused.
// any, as Msm::precompute(0): on the H100 the m 2^s picks took G1 MSMs with a
// table from 8.76 / 24.74 / 85.1 ms to 8.49 / 24.19 / 82.05 at 2^20 / 2^22 / 2^24 and Groth16
// 2^24 random-dense from 540.6 to 528.0 ms (msm_b_g1 55.0 -> 45.9).
constexpr bool kTableAnyBase = true;
bool table_any_base() {
    const char* v = std::getenv("CUZK_GPU_TABLE_BASE");
    if (!v || !*v) return kTableAnyBase;
    if (std::strcmp(v, "pow2") == 0) return false;
    if (std::strcmp(v, "any") == 0) return true;
    throw std::invalid_argument(std::string("CUZK_GPU_TABLE_BASE must be pow2 or any, got '") + v + "'");
}

using detail::is_page_locked;

class CudaBackend final : public groth16::ProverBackend {
 public:
    explicit CudaBackend(int device)
        : device_(device),
          table_min_full_(table_min_full()),
          table_any_base_(table_any_base()),
          copy_ahead_(copy_ahead_enabled()),
          memory_limit_(gpu_memory_limit()),
          forced_h_vectors_(forced_h_vectors()),
          forced_lend_(forced_lend_twiddles()) {}
    ~CudaBackend() override {
        if (cudaSetDevice(device_) != cudaSuccess) return;
        if (scratch_) cudaFree(scratch_);
        for (auto& e : copied_)
            if (e) cudaEventDestroy(e);
        for (auto e : {quotient_done_, b_read_, z_copied_, ahead_copied_[0], ahead_copied_[1]})
            if (e) cudaEventDestroy(e);
        if (copy_stream_) cudaStreamDestroy(copy_stream_);
        if (stream_) cudaStreamDestroy(stream_);
    }
    CudaBackend(const CudaBackend&) = delete;
    CudaBackend& operator=(const CudaBackend&) = delete;

    std::string name() const override { return "cuda:" + std::to_string(device_); }
    std::unique_ptr<groth16::ZkeyMsm<groth16::Bn254>> bn254_msm() override { return make_cuda_bn254_msm(device_); }
    size_t tables_built() {
        std::lock_guard<std::mutex> lock(run_mu_);
        return tables_built_;
    }
    // Without locks (atomics): the engine's status reads them while resident() uploads.
    ResidencyStats residency() const {
        return ResidencyStats{resident_sets_.load(), streamed_sets_.load(), evictions_.load(),
                              memory_limit_,         h_vectors_.load(),     lent_.load()};
    }
    void set_plan(bool on) {
        std::lock_guard<std::mutex> lock(mutex_);
        plan_on_ = on;
    }
    std::vector<BaseSetState> base_sets() {
        std::lock_guard<std::mutex> lock(mutex_);
        std::vector<BaseSetState> v;
        const auto add = [&](auto& cache, bool g2, size_t point_bytes) {
            for (auto& [k, e] : cache) {
                if (!e.msm) continue;
                const bool on_device = !e.msm->chunk_bases();
                v.push_back(BaseSetState{k.second, g2, on_device, e.plan == Plan::kKeep,
                                         on_device ? e.msm->device_base_bytes() : k.second * point_bytes});
            }
        };
        add(g1_, false, sizeof(Affine<G1Curve>));
        add(g2_, true, sizeof(Affine<G2Curve>));
        return v;
    }
    // 2 or 3 from the next H step on, 0: by the budget (CUZK_GPU_H_VECTORS's setting).
    void set_h_vectors(unsigned k) {
        if (k != 0 && k != 2 && k != 3)
            throw std::invalid_argument("set_h_step_vectors: 0, 2 or 3, got " + std::to_string(k));
        std::lock_guard<std::mutex> lock(run_mu_);
        forced_h_vectors_ = k;
        h_plans_.clear();
    }
    // Lend the twiddles from the next H step on (true / false), or by the budget (nullopt).
    void set_lend(std::optional<bool> on) {
        std::lock_guard<std::mutex> lock(run_mu_);
        forced_lend_ = on;
    }

    r1cs::WitnessVector compute_h(r1cs::WitnessVector& a, r1cs::WitnessVector& b, r1cs::WitnessVector& c) override {
        select_device();
        // A copy into the witness's vector type: only the unfused path (tests, the
        // engine's device_h) takes h to the host.
        const std::vector<Fr> h = ntt::compute_h(a, b, c);
        return r1cs::WitnessVector(h.begin(), h.end());
    }
    G1Jacobian msm_g1(groth16::G1Query, std::span<const G1Affine> bases, std::span<const Fr> scalars,
                      const uint64_t* density) override {
        select_device();
        auto msm = resident(g1_, bases, scalars.size());
        std::lock_guard<std::mutex> lock(run_mu_);
        MsmStats st;
        GpuMsmOptions opt;
        opt.density = density;
        opt.stats = &st;
        const G1Jacobian r = msm->run(scalars, opt);
        maybe_precompute(msm, st.full);
        return r;
    }
    G2Jacobian msm_g2(std::span<const G2Affine> bases, std::span<const Fr> scalars, const uint64_t* density) override {
        select_device();
        auto msm = resident(g2_, bases, scalars.size());
        std::lock_guard<std::mutex> lock(run_mu_);
        MsmStats st;
        GpuMsmOptions opt;
        opt.density = density;
        opt.stats = &st;
        const G2Jacobian r = msm->run(scalars, opt);
        maybe_precompute(msm, st.full);
        return r;
    }

    void set_copy_ahead(bool on) {
        std::lock_guard<std::mutex> lock(run_mu_);
        std::lock_guard<std::mutex> l(ahead_mu_);
        copy_ahead_ = on;
    }
    // Without locks (atomics): the engine's status reads them while a proof runs.
    CopyAheadStats copy_ahead_stats() const { return CopyAheadStats{z_ahead_.load(), abc_ahead_.load()}; }

    // Starts copying a and c into the scratch's first and last thirds (see the top of this
    // file); with two vectors to an H step (h_vectors_for), a alone into the first half. The
    // caller keeps the host vectors as they are until the handle is dropped.
    std::shared_ptr<groth16::AbcAhead> copy_abc_ahead(std::span<const Fr> a, std::span<const Fr> b,
                                                      std::span<const Fr> c) override {
        select_device();
        const size_t n = a.size();
        if (n == 0 || b.size() != n || c.size() != n) return nullptr;
        size_t m = 0;
        try {
            m = cuzk::ntt::EvaluationDomain::size_for(n);
        } catch (const std::invalid_argument&) {
            return nullptr;  // too many: h_msm will say so
        }
        if (!is_page_locked(a.data(), a.size_bytes()) || !is_page_locked(c.data(), c.size_bytes())) return nullptr;
        // Never under a running stage (another thread's proof): the scratch is that stage's.
        std::unique_lock<std::mutex> run(run_mu_, std::try_to_lock);
        if (!run.owns_lock()) return nullptr;
        std::lock_guard<std::mutex> lock(ahead_mu_);
        const auto decided = h_plans_.find(m);  // by this size's earlier H steps
        if (!copy_ahead_ || ahead_pending_ || !scratch_ || decided == h_plans_.end()) return nullptr;
        const unsigned nv = decided->second.vectors;
        const int copies = nv == 3 ? 2 : 1;  // a and c, or a alone
        if (scratch_cap_ < nv * m) return nullptr;
        Fr* const to[2] = {scratch_, scratch_ + 2 * m};
        if (staged_z_.dz) {  // the current proof's msm_z still reads it: not over it
            const Fr* z0 = staged_z_.dz;
            const Fr* z1 = z0 + staged_z_.z.inputs.size() + staged_z_.z.aux.size();
            for (int k = 0; k < copies; ++k)
                if (to[k] < z1 && z0 < to[k] + m) return nullptr;
        }
        for (int k = 0; k < copies; ++k) {
            const std::span<const Fr> v = k == 0 ? a : c;
            cudaError_t e = cudaMemcpyAsync(to[k], v.data(), v.size_bytes(), cudaMemcpyHostToDevice, copy_stream_);
            if (e == cudaSuccess) e = cudaEventRecord(ahead_copied_[k], copy_stream_);
            if (e != cudaSuccess) {
                cudaStreamSynchronize(copy_stream_);  // nothing of it may read the host vectors later
                check(e, "copy a, c ahead");
            }
        }
        auto handle = std::make_shared<AheadCopy>(this, a.data(), b.data(), c.data(), n, copies == 2);
        ahead_pending_ = handle.get();
        return handle;
    }

    G1Jacobian h_msm(r1cs::WitnessVector& a, r1cs::WitnessVector& b, r1cs::WitnessVector& c,
                     std::span<const G1Affine> h_bases, groth16::ZInputs next_z,
                     const groth16::AbcAhead* abc_ahead) override {
        select_device();
        if (a.size() != b.size() || a.size() != c.size())
            throw std::invalid_argument("cuda backend: h_msm: a, b, c must have one value per constraint each (got " +
                                        std::to_string(a.size()) + ", " + std::to_string(b.size()) + ", " +
                                        std::to_string(c.size()) + ")");
        const size_t n = a.size();
        const size_t m = cuzk::ntt::EvaluationDomain::size_for(n);  // invalid_argument for 0 or too many
        if (h_bases.size() > m)
            throw std::invalid_argument("cuda backend: h_msm: " + std::to_string(h_bases.size()) +
                                        " H bases for a domain of " + std::to_string(m));
        std::lock_guard<std::mutex> lock(run_mu_);
        const unsigned nv = h_vectors_for(m);  // refused by name when not even two fit
        staged_z_ = StagedZ{};                 // the scratch is overwritten below
        // a and c copied ahead for these vectors (copy_abc_ahead): the transforms wait for
        // those copies instead; b is copied as usual. Anything else pending is dropped by
        // scratch().
        bool ahead = false;
        if (const auto* h = dynamic_cast<const AheadCopy*>(abc_ahead); h && h->owner == this) {
            std::lock_guard<std::mutex> l(ahead_mu_);
            if (ahead_pending_ == h && h->src[0] == a.data() && h->src[1] == b.data() && h->src[2] == c.data() &&
                h->n == n && h->with_c == (nv == 3) && scratch_cap_ >= nv * m) {
                ahead_pending_ = nullptr;  // consumed: its copies are stream_'s to wait for
                ahead = true;
                ++abc_ahead_;
            }
        }
        Fr* d = ahead ? scratch_ : scratch(nv * m);
        Fr* const dv[3] = {d, d + m, d + (nv - 1) * m};  // two vectors: c goes where b was
        const bool lend = forced_lend_ ? *forced_lend_ : h_plans_.at(m).lend;
        if (lend || lent_.load() != 0) take_back_twiddles(m);  // lent before: room for it now
        const r1cs::WitnessVector* const hv[3] = {&a, &b, &c};
        Fr* const da = dv[0];
        // z copied ahead: kept in staged_z_ only once its copy is done. If anything throws
        // on the way, the copies are waited for here (the caller may free the host vectors).
        StagedZ staging;
        struct CopyGuard {
            cudaStream_t copies, kernels;
            bool done = false;
            ~CopyGuard() {
                if (done) return;
                cudaStreamSynchronize(copies);
                cudaStreamSynchronize(kernels);  // it waits for copies ahead
            }
        } guard{copy_stream_, stream_};
        {
            trace::Span span("h", "groth16");
            // Vector k's copy (copy_stream_) overlaps vector k-1's transforms (stream_),
            // each transform waiting for its own copy through an event: the copies go one
            // after the other over the link, the transforms one after the other on the
            // device. Each upload is enqueued after the previous transforms, so a staged
            // (pageable) upload, which blocks the host, does not hold them back. With two
            // vectors, the quotient of a and b comes before c: c's copy waits until the
            // quotient's first kernel has read b (b_read_) and runs under the rest of it.
            trace::Span copy("h2d_abc", "gpu");
            for (int k = 0; k < 3; ++k) {
                if (k == 2 && nv == 2) {
                    ntt::quotient_coset_inverse(dv[0], dv[1], m, stream_, ntt::Impl::kFast, b_read_);
                    check(cudaStreamWaitEvent(copy_stream_, b_read_, 0), "cudaStreamWaitEvent");
                }
                if (ahead && (k == 0 || (k == 2 && nv == 3))) {
                    check(cudaStreamWaitEvent(stream_, ahead_copied_[k / 2], 0), "cudaStreamWaitEvent");
                } else {
                    upload(dv[k], *hv[k], copy_stream_);
                    check(cudaEventRecord(copied_[k], copy_stream_), "cudaEventRecord");
                    check(cudaStreamWaitEvent(stream_, copied_[k], 0), "cudaStreamWaitEvent");
                }
                ntt::prepare_h_input(unsigned(k), dv[k], n, stream_);
            }
            if (nv == 3)
                ntt::quotient_and_coset_inverse(dv[0], dv[1], dv[2], m, stream_);
            else
                ntt::subtract_scaled_c(dv[0], dv[2], m, stream_);
            h_vectors_ = nv;
            // z goes where b and c were, once the quotient has read them: its copy runs
            // under the H MSM below.
            if (stage_z_allowed(next_z, (nv - 1) * m)) {
                check(cudaEventRecord(quotient_done_, stream_), "cudaEventRecord");
                check(cudaStreamWaitEvent(copy_stream_, quotient_done_, 0), "cudaStreamWaitEvent");
                staging = StagedZ{next_z, dv[1]};
                upload(dv[1], next_z.inputs, copy_stream_);
                upload(dv[1] + next_z.inputs.size(), next_z.aux, copy_stream_);
                check(cudaEventRecord(z_copied_, copy_stream_), "cudaEventRecord");
            }
            // (Copied ahead, only b's copy is this call's: the events of a's and c's may be
            // recorded again by the next copy_abc_ahead meanwhile; stream_ waits for them.)
            check(cudaEventSynchronize(copied_[ahead && nv == 3 ? 1 : 2]), "upload a, b, c");
            copy.end();
            trace::Span kernels("h_kernels", "gpu");
            check(cudaStreamSynchronize(stream_), "compute_h on the device");
        }
        // Lent: the table's memory goes to the MSMs until the next H step (stream-ordered, no
        // wait for z's copy; the residency decisions below keep those bytes free).
        if (lend) lent_ = ntt::release_twiddles(m, stream_);
        // h (m coefficients, the last zero) is in da; the MSM runs on its own stream,
        // after the synchronisation above. The proof's base sets are planned and H's looked
        // up (made resident or streamed) only now, so that on the first proof the decisions
        // see the memory the a, b, c scratch and the NTT's twiddles took.
        plan_residency(h_bases, next_z);
        auto msm = resident(g1_, h_bases, h_bases.size());
        G1Jacobian r;
        MsmStats st;
        {
            trace::Span span("msm_h", "groth16");
            trace::Span kernels("msm_kernels", "gpu");
            GpuMsmOptions opt;
            opt.stats = &st;
            r = msm->run_device(da, h_bases.size(), opt);
        }
        // The caller may free its host z once this returns (a failed proof never reaches
        // msm_z): the copy must be done. It ran under the MSM, so this rarely waits.
        if (staging.dz) {
            check(cudaEventSynchronize(z_copied_), "upload z ahead");
            staged_z_ = std::exchange(staging, StagedZ{});
        }
        guard.done = true;
        maybe_precompute(msm, st.full);
        return r;
    }

    groth16::ZSums msm_z(std::span<const Fr> inputs, std::span<const Fr> aux, std::span<const G1Affine> l_bases,
                         std::span<const G1Affine> a_bases, std::span<const G1Affine> b_g1_bases,
                         std::span<const G2Affine> b_g2_bases, const uint64_t* a_density,
                         const uint64_t* b_density) override {
        select_device();
        if (l_bases.size() != aux.size())
            throw std::invalid_argument("cuda backend: msm_z: " + std::to_string(l_bases.size()) + " L bases for " +
                                        std::to_string(aux.size()) + " aux values");
        const size_t nz = inputs.size() + aux.size();
        auto msm_l = resident(g1_, l_bases, aux.size());
        auto msm_a = resident(g1_, a_bases, nz);
        auto msm_b1 = resident(g1_, b_g1_bases, nz);
        auto msm_b2 = resident(g2_, b_g2_bases, nz);
        std::lock_guard<std::mutex> lock(run_mu_);
        const StagedZ staged = std::exchange(staged_z_, StagedZ{});  // this call reuses the scratch either way
        Fr* dz = nullptr;
        if (staged.dz && staged.holds(inputs, aux)) {
            dz = staged.dz;  // copied by h_msm, which waited for it
            ++z_ahead_;
        } else {
            dz = scratch(nz);
            trace::Span copy("h2d_z", "gpu");
            upload(dz, inputs, stream_);
            upload(dz + inputs.size(), aux, stream_);
            check(cudaStreamSynchronize(stream_), "upload z");
        }
        groth16::ZSums s;
        MsmStats st_l, st_a, st_b, st_b2;
        GpuMsmOptions opt;
        {
            trace::Span span("msm_l", "groth16");
            trace::Span kernels("msm_kernels", "gpu");
            opt.stats = &st_l;
            s.l = msm_l->run_device(dz + inputs.size(), aux.size(), opt);
        }
        {
            trace::Span span("msm_a", "groth16");
            trace::Span kernels("msm_kernels", "gpu");
            opt.density = a_density;
            opt.stats = &st_a;
            s.a = msm_a->run_device(dz, nz, opt);
        }
        opt.density = b_density;
        {
            trace::Span span("msm_b_g1", "groth16");
            trace::Span kernels("msm_kernels", "gpu");
            opt.stats = &st_b;
            s.b_g1 = msm_b1->run_device(dz, nz, opt);
        }
        {
            trace::Span span("msm_b_g2", "groth16");
            trace::Span kernels("msm_kernels", "gpu");
            opt.stats = &st_b2;
            s.b_g2 = msm_b2->run_device(dz, nz, opt);
        }
        // After the proof's sums (the tables serve the next proofs).
        maybe_precompute(msm_l, st_l.full);
        maybe_precompute(msm_a, st_a.full);
        maybe_precompute(msm_b1, st_b.full);
        maybe_precompute(msm_b2, st_b2.full);
        return s;
    }

 private:
    void select_device() {
        check(cudaSetDevice(device_), "cudaSetDevice");
        std::call_once(stream_once_, [this] {
            check(cudaStreamCreate(&stream_), "cudaStreamCreate");
            check(cudaStreamCreateWithFlags(&copy_stream_, cudaStreamNonBlocking), "cudaStreamCreate");
            for (auto& e : copied_) check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
            for (auto& e : ahead_copied_)
                check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
            for (auto* e : {&quotient_done_, &b_read_, &z_copied_})
                check(cudaEventCreateWithFlags(e, cudaEventDisableTiming), "cudaEventCreate");
        });
    }

    // How many of a, b, c the H steps of domain m keep on the device at once (memory_plan.hpp's
    // h_step_vectors; CUZK_GPU_H_VECTORS or set_h_step_vectors force it): decided once per
    // domain size, at its first H step, on what the backend could use then (free memory
    // within the budget plus the a, b, c scratch and MSM scratch it holds), before any base
    // set of the proof is on the device; later steps keep it, as copy_abc_ahead relies on
    // it. An H step needs its vectors and the NTT's tables whatever else gives way: refused
    // by name when the budget (CUZK_GPU_MEMORY, or the card) is smaller, rather than failing
    // in an allocation or exceeding the budget. Called with run_mu_ held.
    unsigned h_vectors_for(size_t m) {
        if (auto it = h_plans_.find(m); it != h_plans_.end()) return it->second.vectors;
        size_t free_b = 0, total_b = 0;
        unsigned k = forced_h_vectors_ ? forced_h_vectors_ : 3;
        bool lend = false;  // the memory could not be queried: keep the table
        if (usable_memory(free_b, total_b)) {
            size_t held = scratch_cap_ * sizeof(Fr);
            {
                std::lock_guard<std::mutex> lock(mutex_);
                if (msm_scratch_) held += msm_scratch_bytes(*msm_scratch_);
            }
            const unsigned fit = h_step_vectors(m, total_b, free_b + held);
            if (!forced_h_vectors_) k = fit;
            lend = lend_twiddles(m, free_b + held);
            const size_t need = h_step_fixed_bytes(m, k ? k : 2);
            if (k == 0 || need > total_b) {
                const auto gib = [](size_t b) {
                    char s[32];
                    std::snprintf(s, sizeof s, "%.2f GiB", double(b) / double(size_t(1) << 30));
                    return std::string(s);
                };
                throw std::runtime_error("cuda backend: a domain of " + std::to_string(m) + " needs " + gib(need) +
                                         " of device memory for " + (k == 3 ? "a, b, c" : "two of a, b, c") +
                                         " and the NTT's tables, more than the " + gib(total_b) +
                                         (memory_limit_ ? " that CUZK_GPU_MEMORY allows" : " the card has"));
            }
        }
        h_plans_[m] = HStepPlan{k, lend};
        return k;
    }

    // Whether h_msm copies next_z ahead into `room` elements of scratch: z known and fits,
    // and aux page-locked (a pageable copy would hold this thread in the staging loop
    // while the H MSM waits to be launched; the inputs are a few elements either way).
    bool stage_z_allowed(const groth16::ZInputs& z, size_t room) const {
        const size_t nz = z.inputs.size() + z.aux.size();
        return copy_ahead_ && !z.aux.empty() && nz <= room && is_page_locked(z.aux.data(), z.aux.size_bytes());
    }

    // A precomputed table for a base set whose run had `full` full scalars, once, when
    // it pays and fits (see the top of this file). Called with run_mu_ held. A failed
    // build leaves the set as it was (Msm::precompute frees what it took).
    template <class Curve>
    void maybe_precompute(const std::shared_ptr<Msm<Curve>>& set, size_t full) {
        if (table_min_full_ == 0 || full < table_min_full_ || set->precomputed_window_bits() != 0) return;
        TableState& ts = table_state_[set.get()];
        if (ts.set.expired() && (ts.runs > 0 || ts.tried)) ts = TableState{};  // a new set at an old address
        ts.set = set;
        // From its second such run: a one-off proof would only pay for the build (2^24: a
        // 1.4 s build, 12 ms saved a run).
        if (++ts.runs < 2 || ts.tried) return;
        ts.tried = true;
        Msm<Curve>& msm = *set;
        const size_t n = msm.size();
        const msm_detail::TableBase tb = gpu_msm_precomputed_table(n, table_any_base_);
        const size_t W = tb.windows;
        const size_t table = W * n * sizeof(Affine<Curve>);
        const size_t sort = W * full * 16 + size_t(tb.buckets()) * sizeof(XYZZ<Curve>);  // keys, values x2; buckets
        size_t free_b = 0, total_b = 0;
        if (!usable_memory(free_b, total_b)) return;
        free_b = free_b > lent_.load() ? free_b - lent_.load() : 0;  // the lent twiddles stay free
        if (free_b < table + sort + total_b / 4) return;
        try {
            if (tb.odd == 1)
                msm.precompute(tb.shift);
            else
                msm.precompute_base(tb.odd, tb.shift);
            ++tables_built_;
        } catch (const std::exception&) {
            // Out of memory after all (another process): proofs go on without the table.
        }
    }

    // The device scratch, at least n elements; grows only (the old contents are dropped).
    Fr* scratch(size_t n) {
        // Whatever grows or not, the caller is about to overwrite it.
        staged_z_ = StagedZ{};
        drop_pending_ahead();
        if (n <= scratch_cap_ && scratch_) return scratch_;
        if (scratch_) {
            check(cudaStreamSynchronize(copy_stream_), "cudaStreamSynchronize");
            check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize");
            cudaFree(scratch_);
            scratch_ = nullptr;
            scratch_cap_ = 0;
        }
        check(cudaMalloc(&scratch_, std::max<size_t>(n, 1) * sizeof(Fr)), "cudaMalloc scratch");
        scratch_cap_ = std::max<size_t>(n, 1);
        return scratch_;
    }

    // Enqueues the copy of src to d_dst on `stream`. Page-locked memory is copied directly,
    // pageable memory through the staging buffers (detail::HostStaging, one host thread;
    // bench/gpu_groth16 --pinned 0 shows that path's cost in H and msm_a). On return the
    // host buffer may still be read: the caller synchronises `stream`.
    void upload(Fr* d_dst, std::span<const Fr> src, cudaStream_t stream) {
        const size_t bytes = src.size_bytes();
        if (bytes == 0) return;
        if (is_page_locked(src.data(), bytes)) {
            check(cudaMemcpyAsync(d_dst, src.data(), bytes, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync");
            return;
        }
        staging_.copy(d_dst, src.data(), bytes, stream);
    }

    // Bases stay on the device while the span they came from is the same (the
    // Parameters outlive the proofs made with them, and the engine calls release() before
    // freeing them). Entries are shared: one evicted while a stage still runs on it lives
    // until that stage ends.
    // plan: what the last residency plan that covered the set said (plan_residency);
    // kNone: no plan covered it (a set of msm_g1 / msm_g2, or a prover that did not pass the
    // proof's bases): resident first come, where it fits.
    enum class Plan : uint8_t { kNone, kKeep, kStream };
    template <class Curve>
    struct Entry {
        std::shared_ptr<Msm<Curve>> msm;
        uint64_t last_use = 0;
        Plan plan = Plan::kNone;
    };
    template <class Curve>
    using Cache = std::map<std::pair<const void*, size_t>, Entry<Curve>>;

    // Free and total device memory as the backend plans with them: the card's, or with
    // CUZK_GPU_MEMORY as if the card had that much (what the rest of the card holds beyond
    // the limit is taken off the free bytes). False when CUDA cannot say.
    bool usable_memory(size_t& free_b, size_t& total_b) const {
        if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
            cudaGetLastError();
            return false;
        }
        if (memory_limit_ && memory_limit_ < total_b) {
            const size_t beyond = total_b - memory_limit_;
            free_b = free_b > beyond ? free_b - beyond : 0;
            total_b = memory_limit_;
        }
        return true;
    }
    int sms() const {
        int v = 0;
        if (cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, device_) != cudaSuccess) cudaGetLastError();
        return v;
    }
    size_t usable_free() const {
        size_t free_b = 0, total_b = 0;
        return usable_memory(free_b, total_b) ? free_b : 0;
    }
    // What base sets and tables may take: the free bytes less the twiddle table lent to the
    // MSMs (their scratch gives it back at the next H step; what stays resident could not).
    size_t sets_free() const {
        const size_t f = usable_free(), l = lent_.load();
        return f > l ? f - l : 0;
    }
    // Before an H step that lends its twiddles: the table back on the device, built now
    // (ntt::prepare_twiddles, before the step's copies, whose end its synchronisation would
    // otherwise wait for), with the MSM scratch released first when the free memory is short
    // of it (the scratch grows again in the next MSM). Also the first step after lending was
    // turned off, whose transforms would otherwise build the table where the scratch may be.
    // Called with run_mu_ held.
    void take_back_twiddles(size_t m) {
        const size_t need = ntt::twiddle_table_bytes(m) + kTwiddleSlack;
        if (usable_free() < need) {
            std::lock_guard<std::mutex> lock(mutex_);
            if (msm_scratch_) release_msm_scratch(*msm_scratch_);
        }
        ntt::prepare_twiddles(m, stream_);
        lent_ = 0;
    }
    // Beyond the table: its build's power tables (2 MiB at 2^27) and the pool's rounding.
    static constexpr size_t kTwiddleSlack = size_t(64) << 20;

    // The Msm of a base set: resident on the device when it fits, otherwise streamed from
    // host memory in chunks (gpu::Msm::Streamed). "Fits": its bases plus what a run over
    // it (of `scalars` scalars: with a density, the whole z) may add to the shared MSM
    // scratch (msm_run_scratch_bytes beyond what the scratch holds) plus 512 MiB are free,
    // after dropping resident sets that none of the last kProofSets calls used (least
    // recently used first). The sets of the proof under way (h, l, a, b_g1, b_g2: five
    // calls) never push each other out: evicting them would upload each of them again every
    // proof, where streaming the one that does not fit moves only that one, under its own
    // kernels. A set that plan_residency marked kStream is streamed without trying; one it
    // marked kKeep is made resident where it fits (a streamed one too); an unmarked streamed
    // set becomes resident when a later call finds room for it without evicting anything.
    static constexpr uint64_t kProofSets = 5;

    // Which of the proof's five base sets to keep resident, with all of them in view
    // (memory_plan.hpp's choose_resident_sets: the most worth per byte first; first come,
    // the prover's order H, L, A, B_G1, B_G2, put the least worth first): each set's Entry
    // is marked kKeep or kStream, and resident() follows the mark. Made at every proof
    // from what is free then, plus what evicting the resident sets that none of the last
    // kProofSets calls used would free; a set marked kStream at one proof is marked kKeep
    // at a later one once there is room for it beside those kept. Nothing when h_msm was
    // not told msm_z's bases.
    void plan_residency(std::span<const G1Affine> h, const groth16::ZInputs& z) {
        if (z.l_bases.empty() || z.a_bases.empty() || z.b_g1_bases.empty() || z.b_g2_bases.empty()) return;
        std::lock_guard<std::mutex> lock(mutex_);
        if (!plan_on_) {  // first come: every mark cleared
            for (auto& [k, e] : g1_) e.plan = Plan::kNone;
            for (auto& [k, e] : g2_) e.plan = Plan::kNone;
            return;
        }
        if (!msm_scratch_) msm_scratch_ = make_msm_scratch();
        const size_t nz = z.inputs.size() + z.aux.size();
        auto key = [](auto span) { return std::pair{static_cast<const void*>(span.data()), span.size()}; };
        Entry<G1Curve>* g1[4] = {&g1_[key(h)], &g1_[key(z.l_bases)], &g1_[key(z.a_bases)], &g1_[key(z.b_g1_bases)]};
        Entry<G2Curve>* g2 = &g2_[key(z.b_g2_bases)];
        const size_t counts[5] = {h.size(), z.l_bases.size(), z.a_bases.size(), z.b_g1_bases.size(),
                                  z.b_g2_bases.size()};
        const size_t scalars[5] = {h.size(), z.aux.size(), nz, nz, nz};  // what each set's runs read
        std::array<BaseSetNeed, 5> sets;
        for (size_t i = 0; i < 5; ++i) {
            const bool is_g2 = i == 4;
            const bool on_device =
                is_g2 ? g2->msm && !g2->msm->chunk_bases() : g1[i]->msm && !g1[i]->msm->chunk_bases();
            sets[i] =
                BaseSetNeed{counts[i], counts[i] * (is_g2 ? sizeof(G2Affine) : sizeof(G1Affine)), is_g2, on_device};
        }
        // What evicting the sets the proof does not use, and none of the last kProofSets
        // calls did, would free (resident() evicts them for a kKeep set that needs it).
        const uint64_t protect_after = use_clock_ > kProofSets ? use_clock_ - kProofSets : 0;
        size_t evictable = 0;
        const auto count_evictable = [&](auto& cache, auto... mine) {
            for (auto& [k, e] : cache)
                if (e.msm && !e.msm->chunk_bases() && e.last_use <= protect_after && ((&e != mine) && ...))
                    evictable += e.msm->device_base_bytes();
        };
        count_evictable(g1_, g1[0], g1[1], g1[2], g1[3]);
        count_evictable(g2_, g2);
        const size_t held = msm_scratch_bytes(*msm_scratch_);
        const int n_sms = sms();
        const std::vector<bool> keep = choose_resident_sets(
            std::span<const BaseSetNeed>(sets), sets_free() + evictable, [&](size_t i, size_t free) {
                const size_t share = free + held;
                const MsmScratchLimits limits = plan_msm_memory(share > kReserve ? share - kReserve : 0).limits;
                const size_t run = i == 4 ? msm_run_scratch_bytes<G2Curve>(counts[i], n_sms, 0, limits, scalars[i])
                                          : msm_run_scratch_bytes<G1Curve>(counts[i], n_sms, 0, limits, scalars[i]);
                return free >= sets[i].bytes + (run > held ? run - held : 0) + kReserve;
            });
        for (size_t i = 0; i < 4; ++i) g1[i]->plan = keep[i] ? Plan::kKeep : Plan::kStream;
        g2->plan = keep[4] ? Plan::kKeep : Plan::kStream;
    }
    static constexpr size_t kReserve = size_t(512) << 20;  // kept free beyond every plan
    static constexpr size_t kMinChunk = size_t(1) << 16;   // bases of a streamed chunk, at least
    template <class Curve>
    std::shared_ptr<Msm<Curve>> resident(Cache<Curve>& cache, std::span<const Affine<Curve>> bases, size_t scalars) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto& e = cache[{static_cast<const void*>(bases.data()), bases.size()}];
        e.last_use = ++use_clock_;
        if (e.msm && !e.msm->chunk_bases()) return e.msm;
        if (!msm_scratch_) msm_scratch_ = make_msm_scratch();
        const size_t n = bases.size(), bytes = n * sizeof(Affine<Curve>);
        // The MSMs' share of the budget (memory_plan.hpp): what is free plus what their
        // scratch holds, less the reserve; its caps hold from the next run on.
        const size_t held = msm_scratch_bytes(*msm_scratch_);
        const size_t share = usable_free() + held;
        const MsmMemoryPlan plan = plan_msm_memory(share > kReserve ? share - kReserve : 0);
        set_msm_scratch_limits(*msm_scratch_, plan.limits);
        // The scratch a run may add: estimated with a resident Msm's rule, on the high side.
        const size_t run_scratch = msm_run_scratch_bytes<Curve>(n, sms(), 0, plan.limits, scalars);
        const auto want_for = [&](size_t scratch_bytes) {
            return bytes + (scratch_bytes > held ? scratch_bytes - held : 0) + kReserve;
        };
        if (e.msm && e.plan == Plan::kStream) return e.msm;
        if (e.msm && e.plan == Plan::kNone) {  // streamed: resident now if it fits as things are
            if (sets_free() < want_for(run_scratch)) return e.msm;
            try {
                auto m = std::make_shared<Msm<Curve>>(bases, device_);
                m->use_scratch(msm_scratch_);
                e.msm = std::move(m);
                recount_locked();
            } catch (const std::runtime_error&) {
                cudaGetLastError();
            }
            return e.msm;
        }
        // New, or streamed and planned kKeep: resident where it fits after the evictions.
        std::shared_ptr<Msm<Curve>> m;
        if (e.plan != Plan::kStream) try {
                const size_t want = want_for(run_scratch);
                evict_until_free_locked(want, &e, use_clock_ > kProofSets ? use_clock_ - kProofSets : 0);
                if (sets_free() >= want) m = std::make_shared<Msm<Curve>>(bases, device_);
            } catch (const std::runtime_error&) {
                cudaGetLastError();  // out of device memory after all (another process): streamed
                m.reset();
            }
        if (!m && e.msm) return e.msm;  // planned kKeep, no room after all: streamed as it was
        if (!m) {
            // The plan's chunk (the two buffers are the scratch's, shared by every streamed
            // set), at least kMinChunk bases (or the whole set when smaller): with nothing
            // free the plan's would be Msm's 64-base minimum, a 2^27 set in 2M chunks, which
            // ran for minutes on the H200 (the budget counted twice).
            const size_t chunk = std::max(std::min(std::max(plan.chunk_bytes / sizeof(Affine<Curve>), kMinChunk), n),
                                          Msm<Curve>::kMinChunkBases);
            // Page-locked for as long as the set streams (one-off, then DMA speed each proof).
            m = std::make_shared<Msm<Curve>>(typename Msm<Curve>::Streamed{}, bases, chunk, device_, true);
        }
        // Every set's runs hold run_mu_, so they share one set of per-run buffers (MsmScratch).
        m->use_scratch(msm_scratch_);
        e.msm = std::move(m);
        recount_locked();
        return e.msm;
    }

    // The residency counts (under mutex_, after any change to the caches).
    void recount_locked() {
        size_t resident = 0, streamed = 0;
        const auto count = [&](auto& cache) {
            for (auto& [k, e] : cache) {
                if (!e.msm) continue;
                ++(e.msm->chunk_bases() ? streamed : resident);
            }
        };
        count(g1_);
        count(g2_);
        resident_sets_ = resident;
        streamed_sets_ = streamed;
    }

    // Drops resident base sets, least recently used first, until `want` bytes of device
    // memory are free or nothing is left but `keep` and the sets used after `protect_after`.
    void evict_until_free_locked(size_t want, const void* keep, uint64_t protect_after) {
        for (;;) {
            if (sets_free() >= want) return;
            uint64_t oldest = std::numeric_limits<uint64_t>::max();
            int which = -1;
            const void* key_ptr = nullptr;
            size_t key_n = 0;
            auto scan = [&](auto& cache, int id) {
                for (auto& [k, e] : cache)
                    if (e.msm && !e.msm->chunk_bases() && static_cast<const void*>(&e) != keep &&
                        e.last_use <= protect_after && e.last_use < oldest) {
                        oldest = e.last_use;
                        which = id;
                        key_ptr = k.first;
                        key_n = k.second;
                    }
            };
            scan(g1_, 1);
            scan(g2_, 2);
            if (which < 0) return;
            if (which == 1)
                g1_.erase({key_ptr, key_n});
            else
                g2_.erase({key_ptr, key_n});
            ++evictions_;
            recount_locked();
        }
    }

 public:
    void release(const void* bases) override {
        std::lock_guard<std::mutex> lock(mutex_);
        std::erase_if(g1_, [&](const auto& kv) { return kv.first.first == bases; });
        std::erase_if(g2_, [&](const auto& kv) { return kv.first.first == bases; });
        recount_locked();
    }

 private:
    int device_;
    size_t table_min_full_;  // see kTableMinFull; 0: no tables
    bool table_any_base_;    // CUZK_GPU_TABLE_BASE: tables of base m 2^s too
    bool copy_ahead_;        // z and a, b, c may be copied ahead (CUZK_GPU_COPY_AHEAD; under run_mu_ and ahead_mu_)
    size_t memory_limit_;    // CUZK_GPU_MEMORY, 0: the whole card
    // Under run_mu_: CUZK_GPU_H_VECTORS or set_h_step_vectors (0: by the budget).
    unsigned forced_h_vectors_;
    // Under run_mu_, per domain size, decided at its first H step (h_vectors_for): how many
    // of a, b, c the step keeps, and whether the NTT's twiddles are lent to the MSMs
    // between steps (memory_plan.hpp lend_twiddles; false when the memory was not known).
    struct HStepPlan {
        unsigned vectors;
        bool lend;
    };
    std::map<size_t, HStepPlan> h_plans_;
    std::atomic<unsigned> h_vectors_{0};  // of the last H step
    // Under run_mu_: CUZK_GPU_LEND_TWIDDLES or set_twiddle_lending (nullopt: by the budget).
    std::optional<bool> forced_lend_;
    // Bytes of the H step's twiddle table released to the MSMs until the next H step (0: none).
    std::atomic<size_t> lent_{0};
    // Per base set (under run_mu_): runs with enough full scalars, whether a table was
    // considered. Weak, so that a new set at an evicted one's address counts as new.
    struct TableState {
        std::weak_ptr<void> set;
        unsigned runs = 0;
        bool tried = false;
    };
    std::map<const void*, TableState> table_state_;
    size_t tables_built_ = 0;                  // under run_mu_
    std::mutex mutex_;                         // the caches
    std::shared_ptr<MsmScratch> msm_scratch_;  // every resident set's per-run buffers (under mutex_)
    Cache<G1Curve> g1_;
    Cache<G2Curve> g2_;
    uint64_t use_clock_ = 0;  // under mutex_
    bool plan_on_ = true;     // under mutex_: plan_residency (set_residency_plan)
    std::atomic<size_t> resident_sets_{0}, streamed_sets_{0}, evictions_{0};
    std::once_flag stream_once_;
    cudaStream_t stream_ = nullptr;        // kernels, and the copies of msm_z
    cudaStream_t copy_stream_ = nullptr;   // h_msm's copies of a, b, c
    cudaEvent_t copied_[3] = {};           // h_msm: a, b, c are on the device
    cudaEvent_t quotient_done_ = nullptr;  // h_msm: b and c are read, z may go there
    cudaEvent_t b_read_ = nullptr;         // h_msm with two vectors: b is read, c may go there
    cudaEvent_t z_copied_ = nullptr;       // h_msm: next_z is on the device
    // The z that h_msm copied ahead (under run_mu_): the host spans it came from and where
    // it is; cleared by anything else that writes the scratch.
    struct StagedZ {
        groth16::ZInputs z;
        Fr* dz = nullptr;
        bool holds(std::span<const Fr> inputs, std::span<const Fr> aux) const {
            return inputs.data() == z.inputs.data() && inputs.size() == z.inputs.size() && aux.data() == z.aux.data() &&
                   aux.size() == z.aux.size();
        }
    };
    StagedZ staged_z_;
    std::atomic<size_t> z_ahead_{0}, abc_ahead_{0};  // msm_z on a z copied ahead; h_msm on a, b, c copied ahead

    // copy_abc_ahead's handle: the host vectors it stands for (b's too: h_msm matches all
    // three).
    struct AheadCopy final : groth16::AbcAhead {
        AheadCopy(CudaBackend* o, const Fr* a, const Fr* b, const Fr* c, size_t count, bool c_too)
            : owner(o), src{a, b, c}, n(count), with_c(c_too) {}
        ~AheadCopy() override { owner->drop_pending_ahead(this); }
        CudaBackend* owner;
        const Fr* src[3];
        size_t n;
        bool with_c;  // a and c copied (three vectors to an H step), or a alone
    };
    // Drops the pending copy ahead (only if it is `only`, when given) once its copies are
    // done: another writer of the scratch (its h_msm then copies a, b, c itself), or its
    // handle dropped unused (the host vectors may go next). A handle its h_msm used is no
    // longer pending.
    void drop_pending_ahead(const AheadCopy* only = nullptr) {
        std::lock_guard<std::mutex> lock(ahead_mu_);
        if (!ahead_pending_ || (only && ahead_pending_ != only)) return;
        for (auto e : ahead_copied_) cudaEventSynchronize(e);
        ahead_pending_ = nullptr;
    }
    // The handle whose a and c copies are in the scratch (first and last thirds; a alone,
    // first half, with two vectors), not yet used by its h_msm; their events.
    std::mutex ahead_mu_;  // after run_mu_ when taken with it
    const AheadCopy* ahead_pending_ = nullptr;
    cudaEvent_t ahead_copied_[2] = {};
    std::mutex run_mu_;  // one fused stage at a time: they share the scratch and staging
    Fr* scratch_ = nullptr;
    size_t scratch_cap_ = 0;
    detail::HostStaging staging_;  // upload()'s two page-locked buffers
};

}  // namespace

std::unique_ptr<groth16::ProverBackend> make_cuda_backend(int device) { return std::make_unique<CudaBackend>(device); }

size_t tables_built(groth16::ProverBackend& backend) {
    auto* b = dynamic_cast<CudaBackend*>(&backend);
    return b ? b->tables_built() : 0;
}
void set_copy_ahead(groth16::ProverBackend& backend, bool on) {
    if (auto* b = dynamic_cast<CudaBackend*>(&backend)) b->set_copy_ahead(on);
}

void set_h_step_vectors(groth16::ProverBackend& backend, unsigned k) {
    if (auto* b = dynamic_cast<CudaBackend*>(&backend)) b->set_h_vectors(k);
}

void set_twiddle_lending(groth16::ProverBackend& backend, std::optional<bool> on) {
    if (auto* b = dynamic_cast<CudaBackend*>(&backend)) b->set_lend(on);
}

CopyAheadStats copy_ahead_stats(groth16::ProverBackend& backend) {
    auto* b = dynamic_cast<CudaBackend*>(&backend);
    return b ? b->copy_ahead_stats() : CopyAheadStats{};
}

void set_residency_plan(groth16::ProverBackend& backend, bool on) {
    if (auto* b = dynamic_cast<CudaBackend*>(&backend)) b->set_plan(on);
}

std::vector<BaseSetState> base_set_states(groth16::ProverBackend& backend) {
    auto* b = dynamic_cast<CudaBackend*>(&backend);
    return b ? b->base_sets() : std::vector<BaseSetState>{};
}

ResidencyStats residency_stats(groth16::ProverBackend& backend) {
    auto* b = dynamic_cast<CudaBackend*>(&backend);
    return b ? b->residency() : ResidencyStats{};
}

}  // namespace cuzk::gpu
