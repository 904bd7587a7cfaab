// Poseidon constants and native hashing (see include/cuzk/hash/poseidon.hpp). Each rule
// cites the neptune source it follows (argumentcomputer/neptune, src/...).
#include "cuzk/hash/poseidon.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>

namespace cuzk::hash {

namespace {

using Matrix = std::vector<Fr>;  // n×n row-major

// ---- Grain LFSR (round_constants.rs::generate_constants, spec/poseidon_spec.md) -----------

class Grain {
 public:
    // 80 initial bits, most significant first in each field: field (2 bits) = 1 (GF(p)),
    // S-box (4) = 1 (neptune's SBOX, x^5), field size n (12) = 255, t (12), RF (10), RP (10),
    // then 30 ones. The first 160 generated bits are discarded.
    Grain(size_t t, size_t rf, size_t rp) {
        size_t k = 0;
        auto append = [&](size_t nbits, uint64_t v) {
            for (size_t i = nbits; i-- > 0;) state_[k++] = (v >> i) & 1;
        };
        append(2, 1);
        append(4, 1);
        append(12, 255);
        append(12, t);
        append(10, rf);
        append(10, rp);
        append(30, (uint64_t(1) << 30) - 1);
        for (int i = 0; i < 160; ++i) step();
    }

    // b_{i+80} = b_{i+62} ⊕ b_{i+51} ⊕ b_{i+38} ⊕ b_{i+23} ⊕ b_{i+13} ⊕ b_i.
    bool step() {
        const bool b = at(62) ^ at(51) ^ at(38) ^ at(23) ^ at(13) ^ at(0);
        state_[head_] = b;  // overwrites b_i, the oldest bit
        head_ = (head_ + 1) % 80;
        return b;
    }

    // Self-shrinking: bits in pairs; a pair (1, x) outputs x, a pair (0, x) outputs nothing.
    bool next() {
        for (;;) {
            const bool first = step();
            const bool second = step();
            if (first) return second;
        }
    }

    // One candidate constant: 255 bits, the first generated is the most significant
    // (get_next_bytes: a 7-bit first byte, then 31 whole bytes, read big-endian).
    BigInt<4> next_candidate() {
        BigInt<4> x = BigInt<4>::zero();
        for (int i = 254; i >= 0; --i)
            if (next()) x.l[i / 64] |= uint64_t(1) << (i % 64);
        return x;
    }

 private:
    bool at(size_t i) const { return state_[(head_ + i) % 80]; }
    std::array<bool, 80> state_{};
    size_t head_ = 0;
};

// ---- matrices (matrix.rs, mds.rs) --------------------------------------------------------

Matrix identity(size_t n) {
    Matrix m(n * n, Fr::zero());
    for (size_t i = 0; i < n; ++i) m[i * n + i] = Fr::one();
    return m;
}

Matrix mat_mul(const Matrix& a, const Matrix& b, size_t n) {
    Matrix r(n * n, Fr::zero());
    for (size_t i = 0; i < n; ++i)
        for (size_t k = 0; k < n; ++k) {
            const Fr aik = a[i * n + k];
            for (size_t j = 0; j < n; ++j) r[i * n + j] += aik * b[k * n + j];
        }
    return r;
}

// Gauss-Jordan; the inverse is unique, so any elimination order gives neptune's values.
Matrix invert(Matrix a, size_t n) {
    Matrix inv = identity(n);
    for (size_t col = 0; col < n; ++col) {
        size_t piv = col;
        while (piv < n && a[piv * n + col].is_zero()) ++piv;
        if (piv == n) throw std::logic_error("poseidon: singular matrix");
        if (piv != col)
            for (size_t j = 0; j < n; ++j) {
                std::swap(a[piv * n + j], a[col * n + j]);
                std::swap(inv[piv * n + j], inv[col * n + j]);
            }
        const Fr s = a[col * n + col].inverse();
        for (size_t j = 0; j < n; ++j) {
            a[col * n + j] *= s;
            inv[col * n + j] *= s;
        }
        for (size_t r = 0; r < n; ++r) {
            if (r == col || a[r * n + col].is_zero()) continue;
            const Fr f = a[r * n + col];
            for (size_t j = 0; j < n; ++j) {
                a[r * n + j] -= f * a[col * n + j];
                inv[r * n + j] -= f * inv[col * n + j];
            }
        }
    }
    return inv;
}

// M·v (matrix.rs::left_apply_matrix).
std::vector<Fr> left_apply(const Matrix& m, std::span<const Fr> v) {
    const size_t n = v.size();
    std::vector<Fr> r(n, Fr::zero());
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j) r[i] += m[i * n + j] * v[j];
    return r;
}

// vᵀ·M, i.e. r[j] = Σ_i M[i][j] v[i] (matrix.rs::apply_matrix).
void apply_in_place(const Matrix& m, std::span<Fr> v, std::span<Fr> tmp) {
    const size_t n = v.size();
    for (size_t j = 0; j < n; ++j) {
        Fr acc = Fr::zero();
        for (size_t i = 0; i < n; ++i) acc += m[i * n + j] * v[i];
        tmp[j] = acc;
    }
    std::copy(tmp.begin(), tmp.end(), v.begin());
}

// mds.rs::generate_mds: the Cauchy matrix 1/(x_i + y_j), x_i = i, y_j = t + j.
Matrix generate_mds(size_t t) {
    Matrix m(t * t);
    for (size_t i = 0; i < t; ++i)
        for (size_t j = 0; j < t; ++j) m[i * t + j] = Fr::from_u64(i + t + j).inverse();
    return m;
}

// mds.rs::factor_to_sparse_matrices(base, n): repeatedly factor curr = M'·M'' (M' keeps
// curr's lower-right minor, M'' is sparse), keep M'', continue with base·M'. Returns the final
// curr (the pre-sparse matrix) and the M''s in the order the partial rounds use them.
void factor_to_sparse(const Matrix& base, size_t t, size_t n, Matrix& pre_sparse,
                      std::vector<PoseidonConstants::Sparse>& sparse) {
    Matrix curr = base;
    sparse.clear();
    for (size_t round = 0; round < n; ++round) {
        // m_hat = minor(curr, 0, 0) and its inverse; w = curr[1..][0]; v = curr[0][1..].
        const size_t h = t - 1;
        Matrix m_hat(h * h);
        for (size_t i = 0; i < h; ++i)
            for (size_t j = 0; j < h; ++j) m_hat[i * h + j] = curr[(i + 1) * t + (j + 1)];
        const Matrix m_hat_inv = invert(m_hat, h);
        std::vector<Fr> w(h);
        for (size_t i = 0; i < h; ++i) w[i] = curr[(i + 1) * t];
        const std::vector<Fr> w_hat = left_apply(m_hat_inv, w);
        // M'' as SparseMatrix::new_from_ref: w_hat column = [curr[0][0], m_hat⁻¹·w], v_rest = v.
        PoseidonConstants::Sparse s;
        s.w_hat.push_back(curr[0]);
        s.w_hat.insert(s.w_hat.end(), w_hat.begin(), w_hat.end());
        s.v_rest.assign(curr.begin() + 1, curr.begin() + t);
        sparse.push_back(std::move(s));
        // M' (make_prime): 1 at [0][0], curr's minor below-right, zeros elsewhere.
        Matrix m_prime(t * t, Fr::zero());
        m_prime[0] = Fr::one();
        for (size_t i = 1; i < t; ++i)
            for (size_t j = 1; j < t; ++j) m_prime[i * t + j] = curr[i * t + j];
        curr = mat_mul(base, m_prime, t);
    }
    std::reverse(sparse.begin(), sparse.end());
    pre_sparse = std::move(curr);
}

// preprocessing.rs::compress_round_constants with partial_preprocessed = RP (all of them).
std::vector<Fr> compress_round_constants(const PoseidonConstants& c) {
    const size_t t = c.width, hf = c.half_full_rounds, rp = c.partial_rounds;
    auto keys = [&](size_t r) { return std::span<const Fr>(c.round_constants).subspan(r * t, t); };
    std::vector<Fr> res;
    res.reserve(t * c.full_rounds + rp);
    // The first round's keys as they are (added before the first S-box layer).
    res.insert(res.end(), keys(0).begin(), keys(0).end());
    // After each of the first hf - 1 full rounds: M⁻¹·(next round's keys).
    for (size_t i = 0; i + 1 < hf; ++i) {
        auto inv = left_apply(c.mds_inv, keys(i + 1));
        res.insert(res.end(), inv.begin(), inv.end());
    }
    // Partial rounds, from the last back: acc starts as the keys of the first full round after
    // them; each step inverts acc, keeps its element 0 as that partial round's single key,
    // zeroes it and adds the previous round's keys.
    std::vector<Fr> partial_keys;
    const size_t final_round = hf + rp;
    std::vector<Fr> acc(keys(final_round).begin(), keys(final_round).end());
    for (size_t i = 0; i < rp; ++i) {
        auto inv = left_apply(c.mds_inv, acc);
        partial_keys.push_back(inv[0]);
        inv[0] = Fr::zero();
        auto prev = keys(final_round - i - 1);
        for (size_t j = 0; j < t; ++j) acc[j] = prev[j] + inv[j];
    }
    auto last = left_apply(c.mds_inv, acc);
    res.insert(res.end(), last.begin(), last.end());
    res.insert(res.end(), partial_keys.rbegin(), partial_keys.rend());
    // After each of the second half's full rounds but the last: M⁻¹·(next round's keys).
    for (size_t i = 1; i < hf; ++i) {
        auto inv = left_apply(c.mds_inv, keys(i + hf + rp));
        res.insert(res.end(), inv.begin(), inv.end());
    }
    return res;
}

std::unique_ptr<PoseidonConstants> make_constants(size_t arity) {
    auto c = std::make_unique<PoseidonConstants>();
    auto [rf, rp] = poseidon_round_numbers(arity);
    c->arity = arity;
    c->width = arity + 1;
    c->full_rounds = rf;
    c->half_full_rounds = rf / 2;
    c->partial_rounds = rp;
    c->round_constants = poseidon_grain_round_constants(c->width, rf, rp);
    c->mds = generate_mds(c->width);
    c->mds_inv = invert(c->mds, c->width);
    c->compressed_round_constants = compress_round_constants(*c);
    // poseidon.rs::new_from_parameters factors transpose(M); M is symmetric, so M itself.
    factor_to_sparse(c->mds, c->width, rp, c->pre_sparse_matrix, c->sparse_matrices);
    return c;
}

// x^5 (lib.rs::quintic_s_box).
inline Fr pow5(const Fr& x) { return x * x.square().square(); }

// The largest width neptune defines (arity 36); the native hash keeps its state on the stack.
constexpr size_t kMaxWidth = 37;

// The initial state: [tag, preimage..., zero padding], into s[0 .. c.width).
void initial_state(const PoseidonConstants& c, std::span<const Fr> preimage, PoseidonHashType type, Fr* s) {
    const bool padded =
        type.kind == PoseidonHashType::Kind::ConstantLength || type.kind == PoseidonHashType::Kind::Encryption;
    if (preimage.size() > c.arity || (!padded && preimage.size() != c.arity))
        throw std::invalid_argument("poseidon_hash: preimage length does not fit the arity");
    if (type.kind == PoseidonHashType::Kind::ConstantLength && type.param != preimage.size())
        throw std::invalid_argument("poseidon_hash: preimage length differs from ConstantLength");
    s[0] = type.domain_tag(c.arity);
    for (size_t i = 1; i < c.width; ++i) s[i] = i <= preimage.size() ? preimage[i - 1] : Fr::zero();
}

// s = M·s for the row-major n×n matrix m (left_apply_matrix), through tmp.
void left_apply_in_place(const std::vector<Fr>& m, Fr* s, Fr* tmp, size_t n) {
    for (size_t i = 0; i < n; ++i) {
        Fr acc = Fr::zero();
        for (size_t j = 0; j < n; ++j) acc += m[i * n + j] * s[j];
        tmp[i] = acc;
    }
    std::copy(tmp, tmp + n, s);
}

}  // namespace

Fr PoseidonHashType::domain_tag(size_t arity) const {
    switch (kind) {
        case Kind::MerkleTree:
            if (arity >= 64) throw std::invalid_argument("poseidon: MerkleTree tag needs arity < 64");
            return Fr::from_u64((uint64_t(1) << arity) - 1);
        case Kind::ConstantLength:
            return Fr::from_u64(param) * Fr::from_u64(2).pow(64);
        case Kind::Encryption:
            return Fr::from_u64(uint64_t(1) << 32);
        case Kind::Custom:
            if (param == 0 || param > 256) throw std::invalid_argument("poseidon: custom tag id must be in 1..=256");
            return Fr::from_u64(param) * Fr::from_u64(uint64_t(1) << 40);
    }
    throw std::invalid_argument("poseidon: unknown hash type");
}

std::pair<size_t, size_t> poseidon_round_numbers(size_t arity) {
    // neptune round_numbers.rs (Strength::Standard), checked against parameters/round_numbers.txt.
    switch (arity) {
        case 2:
            return {8, 55};
        case 4:
            return {8, 56};
        case 8:
            return {8, 57};
        case 11:
            return {8, 57};
        case 16:
            return {8, 59};
        case 24:
            return {8, 59};
        case 36:
            return {8, 60};
        default:
            throw std::invalid_argument("poseidon: unsupported arity " + std::to_string(arity));
    }
}

std::vector<Fr> poseidon_grain_round_constants(size_t t, size_t full_rounds, size_t partial_rounds) {
    Grain g(t, full_rounds, partial_rounds);
    std::vector<Fr> out;
    out.reserve((full_rounds + partial_rounds) * t);
    while (out.size() < (full_rounds + partial_rounds) * t) {
        // Candidates >= p are rejected and the next one drawn (from_repr_vartime fails).
        if (auto f = Fr::from_bigint(g.next_candidate())) out.push_back(*f);
    }
    return out;
}

const PoseidonConstants& poseidon_constants(size_t arity) {
    static constexpr std::array<size_t, 7> kArities = {2, 4, 8, 11, 16, 24, 36};
    static std::array<std::once_flag, kArities.size()> once;
    static std::array<std::unique_ptr<PoseidonConstants>, kArities.size()> cache;
    for (size_t k = 0; k < kArities.size(); ++k) {
        if (kArities[k] != arity) continue;
        std::call_once(once[k], [&] { cache[k] = make_constants(arity); });
        return *cache[k];
    }
    throw std::invalid_argument("poseidon: unsupported arity " + std::to_string(arity));
}

// poseidon_alt.rs::hash_correct: round r adds round_constants[r·t .. (r+1)·t) to every
// element, then the S-box (all elements in full rounds, element 0 in partial rounds), then M·x.
Fr poseidon_hash_reference(const PoseidonConstants& c, std::span<const Fr> preimage, PoseidonHashType type) {
    Fr s[kMaxWidth], tmp[kMaxWidth];
    initial_state(c, preimage, type, s);
    const size_t t = c.width;
    size_t off = 0;
    auto round = [&](bool full) {
        for (size_t i = 0; i < t; ++i) s[i] += c.round_constants[off + i];
        off += t;
        if (full) {
            for (size_t i = 0; i < t; ++i) s[i] = pow5(s[i]);
        } else {
            s[0] = pow5(s[0]);
        }
        left_apply_in_place(c.mds, s, tmp, t);
    };
    for (size_t r = 0; r < c.half_full_rounds; ++r) round(true);
    for (size_t r = 0; r < c.partial_rounds; ++r) round(false);
    for (size_t r = 0; r < c.half_full_rounds; ++r) round(true);
    return s[1];
}

// poseidon.rs::hash_optimized_static: add the first t compressed constants; then every S-box
// is followed by its compressed key (none after the last round); matrices as in the circuit.
Fr poseidon_hash(const PoseidonConstants& c, std::span<const Fr> preimage, PoseidonHashType type) {
    Fr s[kMaxWidth], tmp[kMaxWidth];
    initial_state(c, preimage, type, s);
    const size_t t = c.width, hf = c.half_full_rounds;
    const Fr* key = c.compressed_round_constants.data();
    for (size_t i = 0; i < t; ++i) s[i] += key[i];
    key += t;
    size_t round = 0;
    auto mix = [&] {
        if (round == hf - 1) {
            apply_in_place(c.pre_sparse_matrix, std::span<Fr>(s, t), std::span<Fr>(tmp, t));
        } else if (round > hf - 1 && round < hf + c.partial_rounds) {
            // Sparse M'': [0] = Σ w_hat[i] s[i]; [j] = s[j] + v_rest[j-1]·s[0].
            const auto& sp = c.sparse_matrices[round - hf];
            Fr first = Fr::zero();
            for (size_t i = 0; i < t; ++i) first += sp.w_hat[i] * s[i];
            for (size_t j = 1; j < t; ++j) s[j] += sp.v_rest[j - 1] * s[0];
            s[0] = first;
        } else {
            left_apply_in_place(c.mds, s, tmp, t);
        }
        ++round;
    };
    auto full = [&](bool last) {
        for (size_t i = 0; i < t; ++i) {
            s[i] = pow5(s[i]);
            if (!last) s[i] += key[i];
        }
        if (!last) key += t;
        mix();
    };
    for (size_t r = 0; r < hf; ++r) full(false);
    for (size_t r = 0; r < c.partial_rounds; ++r) {
        s[0] = pow5(s[0]) + *key++;
        mix();
    }
    for (size_t r = 1; r < hf; ++r) full(false);
    full(true);
    if (key != c.compressed_round_constants.data() + c.compressed_round_constants.size())
        throw std::logic_error("poseidon: compressed constants not consumed exactly");
    return s[1];
}

Fr poseidon_hash(std::span<const Fr> preimage, PoseidonHashType type) {
    return poseidon_hash(poseidon_constants(preimage.size()), preimage, type);
}

Fr poseidon_hash_reference(std::span<const Fr> preimage, PoseidonHashType type) {
    return poseidon_hash_reference(poseidon_constants(preimage.size()), preimage, type);
}

}  // namespace cuzk::hash
