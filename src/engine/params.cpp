#include "cuzk/engine/params.hpp"

#include "cuzk/common/trace.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/ntt/domain.hpp"

namespace cuzk::engine {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

std::string mib(uint64_t b) { return std::to_string((b + (1 << 20) - 1) >> 20) + " MiB"; }

}  // namespace

std::optional<CircuitKey> CircuitKey::parse(const std::string& id, std::string* why, const kinds::Registry* registry) {
    try {
        return CircuitKey{(registry ? *registry : *kinds::Registry::all()).shape(id, kinds::Limits{})};
    } catch (const kinds::KindError& e) {
        if (why) *why = e.what();
        return std::nullopt;
    }
}

ParamManager::ParamManager(MemoryBudget& budget, std::filesystem::path cache_dir, uint64_t setup_seed,
                           std::chrono::milliseconds min_idle, Log log)
    : budget_(budget),
      cache_dir_(std::move(cache_dir)),
      setup_seed_(setup_seed),
      min_idle_(min_idle),
      log_(std::move(log)) {}

void ParamManager::set_filecoin(std::filesystem::path dir, bool allow_dev_params) {
    filecoin_dir_ = std::move(dir);
    allow_dev_params_ = allow_dev_params;
}

std::filesystem::path ParamManager::filecoin_params_path(const CircuitKey& key) const {
    return filecoin_param_dir(filecoin_dir_) / key.params_file_name();
}

std::optional<std::string> ParamManager::missing_params_error(const CircuitKey& key) const {
    if (!key.has_filecoin_params() || allow_dev_params_ || key_source_) return std::nullopt;
    const auto file = filecoin_params_path(key);
    std::error_code ec;
    if (std::filesystem::exists(file, ec)) return std::nullopt;
    return "no Filecoin parameters for " + key.id() + ": " + file.string() +
           " does not exist (set FIL_PROOFS_PARAMETER_CACHE or filecoin_param_dir; allow_dev_params is off)";
}

void ParamManager::estimate(LoadedCircuit& c, uint64_t h, uint64_t l, uint64_t a, uint64_t b) {
    // Parameters: the five queries as held in memory, the vk and the densities.
    c.bytes = sizeof(G1Affine) * (h + l + a + b + c.num_inputs) + sizeof(G2Affine) * b + 4096 +
              (3 * (c.num_aux + c.num_inputs)) / 8;
    // A work item: a, b, c padded to the domain (freed after H), then the assignment, its
    // copy z for the a/b queries, h, the densities, and MSM scratch.
    const uint64_t n = c.num_inputs + c.num_aux;
    c.item_abc_bytes = 3 * fr_bytes(c.domain);
    const uint64_t rest = 2 * fr_bytes(n) + fr_bytes(c.domain) + n / 4;
    c.item_bytes = c.item_abc_bytes + rest + rest / 8 + (uint64_t(8) << 20);
}

Footprint ParamManager::footprint(const r1cs::ShapeCounts& k, bool keys_from_file) {
    const uint64_t n = k.num_inputs + k.num_aux;
    const uint64_t m = ntt::EvaluationDomain::size_for(k.num_constraints);
    Footprint f;
    // Densities: three bits a variable, in vectors grown by doubling; the circuit's own
    // bookkeeping (random-dense keeps a variable table): 8 bytes a variable.
    const uint64_t per_variable = n + 8 * n;
    if (keys_from_file) {
        f.shape = per_variable;
    } else {
        // CSR rows and entries (reserved from the counts, so no doubling slack), and a
        // coefficient dictionary entry (the Fr, its hash node and bucket: ~128 bytes) for
        // each distinct coefficient: random-dense draws two a constraint.
        const uint64_t matrices = 3 * 8 * (k.num_constraints + 1) + 8 * k.nnz() + 128 * k.coeffs;
        // Read back from a cache file, the file's bytes sit beside the shape for a moment.
        f.shape = 2 * matrices + per_variable;
        // Setup (groth16/setup.cpp): powers of tau, their Lagrange form and the H scalars (3 m
        // scalars); then the H scalars, a_j, b_j, c_j(tau) and the four query scalars (m + 8 n,
        // a query's vector at most twice its length) beside one matrix's column copy; the
        // fixed-base tables and chunk buffers: 8 MiB.
        const uint64_t nnz_max = std::max({k.nnz_a, k.nnz_b, k.nnz_c});
        f.setup = std::max(fr_bytes(3 * m), fr_bytes(m + 8 * n) + 8 * (n + 1) + 8 * nnz_max) + (uint64_t(8) << 20);
    }
    LoadedCircuit c;
    c.num_inputs = k.num_inputs;
    c.num_aux = k.num_aux;
    c.num_constraints = k.num_constraints;
    c.domain = m;
    // The a and b queries hold at most one base a variable.
    estimate(c, m - 1, k.num_aux, n, n);
    f.params = c.bytes;
    f.item = c.item_bytes;
    return f;
}

void ParamManager::check_fits(const std::string& id, const Footprint& fp) const {
    const uint64_t limit = budget_.limit();
    if (fp.load_peak() <= limit && fp.params + fp.item <= limit) return;
    throw EngineError(EngineError::Code::ResourceExhausted,
                      "circuit " + id + " needs an estimated " + mib(fp.load_peak()) + " to load (shape " +
                          mib(fp.shape) + ", setup " + mib(fp.setup) + ", parameters " + mib(fp.params) + ") and " +
                          mib(fp.item) + " per partition beside its parameters, more than the memory budget of " +
                          mib(limit));
}

std::shared_ptr<LoadedCircuit> ParamManager::load(const CircuitKey& key, const std::function<bool()>& give_up,
                                                  Reservation& mem) {
    namespace fs = std::filesystem;
    const std::string id = key.id();
    if (auto own = key.shape->own_keys()) {
        // A shape with its own keys (a snarkjs key its kind loaded once): nothing is prepared
        // here; the keys stay where the kind holds them, outside the budget.
        auto c = std::make_shared<LoadedCircuit>();
        c->key = key;
        c->source = own->source;
        c->num_inputs = own->num_inputs;
        c->num_aux = own->num_aux;
        c->domain = own->domain;
        c->vk_bytes = own->vk_bytes;  // no pvk: the kind verifies its proofs (Work::verify)
        c->bytes = 0;
        c->item_bytes = own->item_bytes;
        c->item_abc_bytes = 0;
        return c;
    }
    auto blank = key.blank_circuit();
    const bool cached = !cache_dir_.empty();
    const fs::path base = cached ? cache_dir_ / (id + "-setup" + std::to_string(setup_seed_)) : fs::path();
    // Keys read from Filecoin's files need only the counts and densities (no matrices:
    // r1cs::ShapeCS(false)); a setup needs the whole shape.
    std::error_code fec;
    const fs::path filecoin_file = key.has_filecoin_params() ? filecoin_params_path(key) : fs::path();
    const bool from_file = !key_source_ && key.has_filecoin_params() && fs::exists(filecoin_file, fec);
    // Keys from the key source, like keys from a file, need only the counts and densities.
    const bool density_only = from_file || key_source_;
    // Nothing large is allocated before the estimate from the counts fits the budget and is
    // reserved; the reservation is settled on the parameters' exact size once they exist.
    const r1cs::ShapeCounts counts = key.counts(give_up);
    Footprint fp = footprint(counts, density_only);
    if (from_file) {
        // The file's counts are the queries' real lengths (inspect_params reads only them); the
        // bounds from the counts alone would take every variable as dense.
        const formats::FileLayout layout = formats::inspect_params(filecoin_file);
        auto count = [&](const char* s) { return layout.find(s) ? layout.find(s)->count : 0; };
        LoadedCircuit exact;
        exact.num_inputs = counts.num_inputs;
        exact.num_aux = counts.num_aux;
        exact.domain = ntt::EvaluationDomain::size_for(counts.num_constraints);
        estimate(exact, count("h"), count("l"), count("a"), count("b_g1"));
        fp.params = exact.bytes;
    }
    check_fits(id, fp);
    if (!budget_.reserve(fp.load_peak(), give_up))
        throw EngineError(EngineError::Code::ShuttingDown, "gave up waiting for memory to load " + id);
    mem = Reservation(&budget_, fp.load_peak());
    r1cs::Shape shape;
    groth16::ShapeSummary summary;
    if (density_only) {
        trace::Span span("shape", "engine");
        auto t0 = Clock::now();
        summary = blank->summary({give_up, std::nullopt});
        log_(1, "event=shape circuit=" + id + " constraints=" + std::to_string(summary.num_constraints) +
                    " mode=density_only ms=" + std::to_string(int64_t(ms_since(t0))));
    } else {
        trace::Span span("shape", "engine");
        std::error_code ec;
        if (cached && fs::exists(base.string() + ".shape", ec)) {
            try {
                shape = r1cs::read_shape(base.string() + ".shape");
            } catch (const std::exception& e) {
                log_(2, "event=param_cache_bad circuit=" + id + " file=" + base.string() + ".shape error=\"" +
                            e.what() + "\"; recomputing");
                shape = blank->shape({give_up, counts});
            }
        } else {
            shape = blank->shape({give_up, counts});
            // A Filecoin shape takes a while (PoRep 2 KiB: 2.7M constraints): keep it beside the keys.
            if (cached && key.has_filecoin_params()) {
                try {
                    fs::create_directories(cache_dir_);
                    r1cs::write_shape(base.string() + ".shape", shape);
                } catch (const std::exception& e) {
                    log_(2, "event=param_cache_write_failed circuit=" + id + " error=\"" + e.what() + "\"");
                }
            }
        }
        summary = {shape.num_inputs, shape.num_aux, shape.num_constraints, shape.density()};
    }
    blank.reset();
    auto c = std::make_shared<LoadedCircuit>();
    c->key = key;
    c->num_inputs = summary.num_inputs;
    c->num_aux = summary.num_aux;
    c->num_constraints = summary.num_constraints;
    c->domain = ntt::EvaluationDomain::size_for(summary.num_constraints);
    c->density = std::move(summary.density);

    const fs::path params_file = base.string() + ".params";
    std::error_code ec;
    bool have = false;
    if (key_source_) {
        trace::Span span("key_source", "engine");
        c->params = key_source_(id, {c->num_inputs, c->num_aux, c->num_constraints, c->density});
        if (c->params.vk.ic.size() != c->num_inputs || c->params.l.size() != c->num_aux ||
            c->params.h.size() + 1 != c->domain)
            throw EngineError(EngineError::Code::InvalidArgument, "the key source's keys do not fit circuit " + id +
                                                                      ": " + std::to_string(c->params.vk.ic.size()) +
                                                                      " inputs, " + std::to_string(c->params.l.size()) +
                                                                      " aux, domain " +
                                                                      std::to_string(c->params.h.size() + 1));
        have = true;
        c->source = "key-source";
    }
    // Filecoin's parameter files first (or files in their naming, `cuzk setup porep`).
    if (!have && key.has_filecoin_params()) {
        const fs::path& file = filecoin_file;
        if (from_file) {
            trace::Span span("param_read", "engine");
            // On the curve is always checked; the subgroup check is most of the decoding time
            // (minutes for 32 GiB) and, as in rust-fil-proofs (read_cached_params), left to the
            // file's digest (parameters.json, checked by paramfetch).
            formats::ReadOptions opt;
            opt.check_subgroup = false;
            c->params = formats::read_params(file, opt);
            if (c->params.vk.ic.size() != c->num_inputs || c->params.l.size() != c->num_aux ||
                c->params.h.size() + 1 != c->domain)
                throw EngineError(
                    EngineError::Code::InvalidArgument,
                    file.string() + " does not fit circuit " + id + ": " + std::to_string(c->params.vk.ic.size()) +
                        " inputs, " + std::to_string(c->params.l.size()) + " aux, domain " +
                        std::to_string(c->params.h.size() + 1) + "; the circuit has " + std::to_string(c->num_inputs) +
                        ", " + std::to_string(c->num_aux) + ", " + std::to_string(c->domain));
            const fs::path vk_file = filecoin_param_dir(filecoin_dir_) / key.vk_file_name();
            if (fs::exists(vk_file, ec) &&
                formats::vk_to_bytes(formats::read_vk(vk_file)) != formats::vk_to_bytes(c->params.vk))
                throw EngineError(EngineError::Code::InvalidArgument,
                                  vk_file.string() + " is not the verifying key of " + file.string());
            have = true;
            c->source = "filecoin:" + file.string();
        } else if (!allow_dev_params_) {
            throw EngineError(EngineError::Code::NotFound, *missing_params_error(key));
        } else {
            log_(2, "event=dev_params circuit=" + id + " missing=" + file.string() +
                        " reason=\"development keys, NOT Filecoin's: proofs will not verify on chain\"");
        }
    }
    if (!have && cached && fs::exists(params_file, ec)) {
        trace::Span span("param_read", "engine");
        try {
            formats::ReadOptions opt;
            opt.check_subgroup = false;  // our own cache, written by this code after setup
            c->params = formats::read_params(params_file, opt);
            have = c->params.vk.ic.size() == c->num_inputs && c->params.l.size() == c->num_aux &&
                   c->params.h.size() + 1 == c->domain;
            c->source = "dev-setup";
            if (!have) log_(2, "event=param_cache_bad circuit=" + id + " reason=\"sizes do not match the shape\"");
        } catch (const std::exception& e) {
            log_(2, "event=param_cache_bad circuit=" + id + " file=" + params_file.string() + " error=\"" + e.what() +
                        "\"");
        }
    }
    if (!have) {
        trace::Span span("setup", "engine");
        auto t0 = Clock::now();
        c->params = groth16::setup(shape, groth16::ToxicWaste::from_seed(setup_seed_), {}, give_up);
        c->source = "dev-setup";
        log_(1, "event=setup circuit=" + id + " constraints=" + std::to_string(c->num_constraints) +
                    " ms=" + std::to_string(int64_t(ms_since(t0))));
        if (cached) {
            try {
                fs::create_directories(cache_dir_);
                formats::write_params(c->params, params_file);
                if (!key.has_filecoin_params()) r1cs::write_shape(base.string() + ".shape", shape);
            } catch (const std::exception& e) {
                log_(2, "event=param_cache_write_failed circuit=" + id + " error=\"" + e.what() + "\"");
            }
        }
    }
    c->vk_bytes = formats::vk_to_bytes(c->params.vk);
    c->pvk = std::make_unique<groth16::PreparedVerifyingKey>(c->params.vk);
    const auto& p = c->params;
    estimate(*c, p.h.size(), p.l.size(), p.a.size(), p.b_g1.size());
    // Settle the reservation on the exact size.
    if (c->bytes < mem.bytes()) {
        mem.release(mem.bytes() - c->bytes);
    } else if (c->bytes > mem.bytes()) {
        const uint64_t more = c->bytes - mem.bytes();
        if (!budget_.reserve(more, give_up))
            throw EngineError(EngineError::Code::ShuttingDown, "gave up waiting for memory to load " + id);
        mem.absorb(more);
    }
    return c;
}

std::shared_ptr<const LoadedCircuit> ParamManager::acquire(const CircuitKey& key, double* load_ms,
                                                           const std::function<bool()>& give_up) {
    const std::string id = key.id();
    auto t0 = Clock::now();
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
        auto it = slots_.find(id);
        if (it == slots_.end()) break;
        if (!it->second.loading) {
            it->second.last_used = Clock::now();
            if (load_ms) *load_ms = ms_since(t0);
            return it->second.circuit;
        }
        cv_.wait(lock);  // another thread loads it
    }
    slots_[id].loading = true;
    lock.unlock();
    Reservation mem;
    std::shared_ptr<LoadedCircuit> c;
    try {
        auto t1 = Clock::now();
        try {
            c = load(key, give_up, mem);
        } catch (const Cancelled& e) {
            throw EngineError(EngineError::Code::ShuttingDown, "loading " + id + " stopped (" + e.what() +
                                                                   "): its job was cancelled or the engine is "
                                                                   "shutting down");
        }
        log_(1, "event=params_loaded circuit=" + id + " bytes=" + std::to_string(c->bytes) +
                    " ms=" + std::to_string(int64_t(ms_since(t1))));
    } catch (...) {
        lock.lock();
        slots_.erase(id);
        cv_.notify_all();
        throw;
    }
    lock.lock();
    Slot& s = slots_[id];
    s.circuit = c;
    s.mem = std::move(mem);
    s.loading = false;
    s.last_used = Clock::now();
    cv_.notify_all();
    if (load_ms) *load_ms = ms_since(t0);
    return c;
}

EvictInfo ParamManager::evict(const std::string& id) {
    std::shared_ptr<const LoadedCircuit> drop;
    Reservation mem;
    EvictInfo info;
    {
        std::lock_guard<std::mutex> lock(mu_);
        auto it = slots_.find(id);
        if (it == slots_.end() || it->second.loading) return info;
        info.was_loaded = true;
        if (it->second.circuit.use_count() > 1) return info;  // in use: stays (freed_bytes 0)
        info.freed_bytes = it->second.mem.bytes();
        drop = std::move(it->second.circuit);
        mem = std::move(it->second.mem);
        slots_.erase(it);
    }
    if (on_evict_) on_evict_(*drop);
    drop.reset();  // free before giving the bytes back
    mem.reset();
    log_(1, "event=params_evicted circuit=" + id + " bytes=" + std::to_string(info.freed_bytes));
    return info;
}

uint64_t ParamManager::reclaim(uint64_t want) {
    uint64_t freed = 0;
    while (freed < want) {
        std::string victim;
        {
            std::lock_guard<std::mutex> lock(mu_);
            auto now = Clock::now();
            Clock::time_point oldest = Clock::time_point::max();
            for (auto& [id, s] : slots_) {
                if (s.loading || s.circuit.use_count() > 1 || now - s.last_used < min_idle_) continue;
                if (s.last_used < oldest) oldest = s.last_used, victim = id;
            }
        }
        if (victim.empty()) break;
        freed += evict(victim).freed_bytes;
    }
    return freed;
}

std::vector<ParamStatus> ParamManager::list() const {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<ParamStatus> out;
    for (const auto& [id, s] : slots_) {
        ParamStatus p;
        p.circuit_id = id;
        p.tier = s.loading ? ParamStatus::Tier::Warm : ParamStatus::Tier::Hot;
        p.size_bytes = s.mem.bytes();
        p.ref_count = s.circuit ? uint32_t(s.circuit.use_count() - 1) : 0;
        p.idle_ms = std::chrono::duration<double, std::milli>(Clock::now() - s.last_used).count();
        out.push_back(p);
    }
    return out;
}

bool ParamManager::loaded(const std::string& id) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = slots_.find(id);
    return it != slots_.end() && !it->second.loading;
}

}  // namespace cuzk::engine
