// Prime field in Montgomery form over N 64-bit limbs, parameterised by a small
// traits struct that gives the modulus literal (see bls12_381.hpp). All Montgomery
// constants are derived here at compile time; bls12_381.hpp checks them against
// published literals with static_assert.
//
// Values are always fully reduced (in [0, p)), so equality is limb equality.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/common/hd.hpp"
#include "cuzk/ff/bigint.hpp"
#include "cuzk/ff/inverse_bingcd.hpp"
#include "cuzk/ff/mont_fp64.hpp"
#include "cuzk/ff/mont_portable.hpp"
#include "cuzk/ff/mont_ptx.hpp"
#include "cuzk/ff/mont_x86_adx.hpp"

namespace cuzk {

#if defined(__CUDACC__)
namespace ff_detail {
// A field's modulus and -p^-1 mod 2^32 in constant memory, read by the device multiply and
// square. As compile-time constants, ptxas folds Fr's m = E_0 (-p^-1) (that inverse is 2^32
// - 1: m = -E_0) and then compiles every m p product to an unfused IMAD.X + IMAD.HI.U32.X
// pair instead of one IMAD.WIDE.U32.X (SASS, H200): read from constant memory they stay
// fused. H200, four chains a thread: Fr mul 52.9 -> 60.6 G/s (sppark 60.0), Fp
// 27.45 either way. Static: each translation unit's device code has its own copy (no
// relocatable device code), as with any constant of a header.
template <class Traits>
static __constant__ BigInt<Traits::kLimbs> device_modulus = BigInt<Traits::kLimbs>::must_parse(Traits::kModulus);
template <class Traits>
static __constant__ uint32_t device_inv32 =
    uint32_t(neg_inv64(BigInt<Traits::kLimbs>::must_parse(Traits::kModulus).l[0]));
}  // namespace ff_detail
#endif

// Traits: struct X { static constexpr size_t kLimbs; static constexpr const char* kModulus;
//                    static constexpr uint64_t kNonResidue; static constexpr const char* kName; };
template <class Traits>
class Field {
 public:
    static constexpr size_t N = Traits::kLimbs;
    using Big = BigInt<N>;
    using Params = Traits;  // kName, kNonResidue (a scalar field's multiplicative generator)

    // --- compile-time constants ---------------------------------------------------
    static constexpr Big kP = Big::must_parse(Traits::kModulus);
    static constexpr size_t kBits = kP.num_bits();
    static constexpr size_t kBytes = (kBits + 7) / 8;
    static constexpr uint64_t kInv = neg_inv64(kP.l[0]);  // -p^-1 mod 2^64
#if defined(__CUDACC__)
    // The device multiply and square read p and -p^-1 from constant memory (device_modulus)
    // when -p^-1 = -1 mod 2^32 (p = 1 mod 2^32, Fr): see device_modulus for why. For Fp the
    // compile-time constants are faster in the MSM (G1 2^26 421.5 vs 431.5 ms, G2 2^24 352.5
    // vs 360-366, H200 side by side, same Fp multiply rate in the field bench).
    static constexpr bool kConstMemOperands = uint32_t(kInv) == 0xffffffffu;
    // p's low words are 1 and 2^32 - 1 (Fr): with CUZK_PTX_SPARSE_LOW=1 the device reduction
    // steps skip the multiplies by them (mont_ptx.hpp, SparseLowWords). Off by default: the
    // NTT was slower with it (figures at the macro).
    static constexpr bool kSparseLow = CUZK_PTX_SPARSE_LOW && kP.l[0] == 0xffffffff00000001ull;
    // a b - c d with one reduction on the device (mont_ptx.hpp, mont_mul2_32_rot): needs two
    // spare top bits (Fp; not Fr). CUZK_PTX_MUL2=0: two multiplications (benchmarks).
    static constexpr bool kLazyMulSubMul = CUZK_PTX_MUL2 && kP.l[N - 1] < (uint64_t(1) << 62);
    // Karatsuba product + separate reduction for the device multiply (mont_mul32_kara), by
    // CUZK_PTX_KARATSUBA; off by default (slower in every kernel: figures at the macro).
    static constexpr bool kKaratsuba = (CUZK_PTX_KARATSUBA & (N == 6 ? 1 : N == 4 ? 2 : 0)) != 0;
#endif
    static constexpr Big kR = pow2_mod(64 * N, kP);    // R mod p (Montgomery one)
    static constexpr Big kR2 = pow2_mod(128 * N, kP);  // R^2 mod p (to Montgomery)
    static_assert(kP.l[0] & 1, "modulus must be odd");
    static_assert(kP.l[N - 1] < (uint64_t(1) << 63) - 1, "no-carry CIOS needs a spare top bit");
    static_assert(uint64_t(kP.l[0] * (~kInv + 1)) == 1, "kInv must be -p^-1 mod 2^64");
    // Binary-GCD inversion: step budget and the fix-up factors 2^(192N + 33k) mod p.
    static constexpr size_t kBinGcdMaxOuter = ff_detail::kBinGcdMaxOuter<kBits>;
    static constexpr std::array<Big, kBinGcdMaxOuter + 1> kBinGcdFix =
        ff_detail::bingcd_fix_table<N, kBinGcdMaxOuter + 1>(kP);

    uint64_t l[N];  // Montgomery representation a*R mod p, little-endian limbs

    // --- construction ---------------------------------------------------------------
    Field() = default;
    CUZK_HD static constexpr Field from_raw_montgomery(const Big& m) {
        Field r{};
        for (size_t i = 0; i < N; ++i) r.l[i] = m.l[i];
        return r;
    }
    CUZK_HD static constexpr Field zero() { return from_raw_montgomery(Big::zero()); }
    CUZK_HD static constexpr Field one() { return from_raw_montgomery(kR); }
    // x must be < p (checked by the callers that take untrusted input).
    CUZK_HD static Field from_bigint_unchecked(const Big& x) {
        Field a = from_raw_montgomery(x);
        Field r2 = from_raw_montgomery(kR2);
        return a * r2;
    }
    static std::optional<Field> from_bigint(const Big& x) {
        if (x >= kP) return std::nullopt;
        return from_bigint_unchecked(x);
    }
    CUZK_HD static Field from_u64(uint64_t v) {
        Big b = Big::from_u64(v);
        if (b >= kP) {  // only possible for tiny moduli; keep it exact anyway
            Big::sub(b, b, kP);
        }
        return from_bigint_unchecked(b);
    }
    // Decimal or 0x-prefixed hex; nullopt for malformed text or a value >= p.
    static std::optional<Field> from_string(std::string_view s) {
        auto b = Big::parse(s);
        if (!b) return std::nullopt;
        return from_bigint(*b);
    }
    CUZK_HD Big to_bigint() const {
        Big one = Big::from_u64(1);
        Field r;
        mont_mul(r, *this, from_raw_montgomery(one));
        Big out;
        for (size_t i = 0; i < N; ++i) out.l[i] = r.l[i];
        return out;
    }
    std::string to_hex() const;
    std::string to_dec() const;

    // Canonical bytes: little-endian (Fr, as bellperson/Filecoin write it) or big-endian
    // (Fp, as the Zcash point encoding). Decoding rejects a value >= p.
    void to_bytes_le(uint8_t* out) const {
        Big b = to_bigint();
        for (size_t i = 0; i < kBytes; ++i) out[i] = uint8_t(b.l[i / 8] >> (8 * (i % 8)));
    }
    void to_bytes_be(uint8_t* out) const {
        Big b = to_bigint();
        for (size_t i = 0; i < kBytes; ++i) out[kBytes - 1 - i] = uint8_t(b.l[i / 8] >> (8 * (i % 8)));
    }
    static std::optional<Field> from_bytes_le(const uint8_t* in) {
        Big b = Big::zero();
        for (size_t i = 0; i < kBytes; ++i) b.l[i / 8] |= uint64_t(in[i]) << (8 * (i % 8));
        return from_bigint(b);
    }
    static std::optional<Field> from_bytes_be(const uint8_t* in) {
        Big b = Big::zero();
        for (size_t i = 0; i < kBytes; ++i) b.l[i / 8] |= uint64_t(in[kBytes - 1 - i]) << (8 * (i % 8));
        return from_bigint(b);
    }
    std::array<uint8_t, kBytes> to_bytes_le() const {
        std::array<uint8_t, kBytes> out{};
        to_bytes_le(out.data());
        return out;
    }
    std::array<uint8_t, kBytes> to_bytes_be() const {
        std::array<uint8_t, kBytes> out{};
        to_bytes_be(out.data());
        return out;
    }

    // Uniform in [0, p) by rejection sampling from any 64-bit generator.
    template <class Rng>
    static Field random(Rng& rng) {
        for (;;) {
            Big b;
            for (size_t i = 0; i < N; ++i) b.l[i] = uint64_t(rng());
            const size_t top = kBits % 64;
            if (top) b.l[N - 1] &= (uint64_t(1) << top) - 1;
            if (b < kP) return from_bigint_unchecked(b);
        }
    }

    // --- predicates ------------------------------------------------------------------
    CUZK_HD bool is_zero() const {
        uint64_t acc = 0;
        for (size_t i = 0; i < N; ++i) acc |= l[i];
        return acc == 0;
    }
    CUZK_HD bool is_one() const { return *this == one(); }
    CUZK_HD friend bool operator==(const Field& a, const Field& b) {
        uint64_t acc = 0;
        for (size_t i = 0; i < N; ++i) acc |= a.l[i] ^ b.l[i];
        return acc == 0;
    }
    CUZK_HD friend bool operator!=(const Field& a, const Field& b) { return !(a == b); }
    // "Lexicographically largest" in the Zcash sense: canonical value > (p-1)/2.
    bool lexicographically_largest() const {
        constexpr Big half = kP.shr(1);  // (p-1)/2 since p is odd
        return half < to_bigint();
    }

    // --- arithmetic ------------------------------------------------------------------
    CUZK_HD_INLINE static void mont_mul(Field& r, const Field& a, const Field& b) {
#if CUZK_IN_DEVICE  // 32-bit words with PTX carry chains (mont_ptx.hpp)
        if constexpr (kConstMemOperands) {
            device_mul(r, a, b, ff_detail::device_modulus<Traits>.l, ff_detail::device_inv32<Traits>);
        } else {
            constexpr Big p = kP;
            device_mul(r, a, b, p.l, uint32_t(kInv));
        }
#else
#if CUZK_FF_HAVE_ADX
        if constexpr (ff_detail::kHaveAdxMul<N>) {
            ff_detail::mont_mul_adx<N>(r.l, a.l, b.l, kP.l, kInv);
            return;
        }
#endif
        mul_portable(r, a, b);
#endif
    }
#if CUZK_IN_DEVICE
    __device__ __forceinline__ static void device_mul(Field& r, const Field& a, const Field& b, const uint64_t* p,
                                                      uint32_t inv) {
        ff_detail::ptx::DeviceIsa isa;
        if constexpr (kKaratsuba) {
            ff_detail::ptx::mont_mul_kara<N, kSparseLow>(isa, r.l, a.l, b.l, p, inv);
            return;
        }
#if CUZK_PTX_MUL_ROT
        ff_detail::ptx::mont_mul_rot<N, kSparseLow>(isa, r.l, a.l, b.l, p, inv);
#else
        ff_detail::ptx::mont_mul<N, kSparseLow>(isa, r.l, a.l, b.l, p, inv);
#endif
    }
#endif
    CUZK_HD_INLINE static void mul_portable(Field& r, const Field& a, const Field& b) {
        constexpr Big p = kP;
        ff_detail::mont_mul_portable<N>(r.l, a.l, b.l, p.l, kInv);
    }
    // a b - c d. On the device for Fp one Montgomery reduction instead of two (the Y
    // coordinate of the XYZZ additions, cuzk/ec/xyzz.hpp).
    CUZK_HD_INLINE static Field mul_sub_mul(const Field& a, const Field& b, const Field& c, const Field& d) {
#if CUZK_IN_DEVICE
        if constexpr (kLazyMulSubMul && !kConstMemOperands) {
            constexpr Big p = kP;
            ff_detail::ptx::DeviceIsa isa;
            Field r;
            ff_detail::ptx::mont_mul_sub_mul<N, kKaratsuba>(isa, r.l, a.l, b.l, c.l, d.l, p.l, kInv);
            return r;
        }
#endif
        return a * b - c * d;
    }
    // --- the redundant form (the device MSM's bucket accumulation) ------------------
    // Values below 2p instead of p, so that the multiplications skip their conditional
    // subtraction (mont_ptx.hpp has the bounds; needs 8p < R: Fp, not Fr). Any canonical
    // value is also redundant; canonical_r() takes a redundant one below p; zero mod p is 0
    // or p (is_zero_r). On the host the operations return canonical values (any value below
    // 2p is allowed), so host code using them gives the same residues. Meaningful only where
    // kRedundant holds (callers check it; no requires-clause: clang's explicit instantiation
    // of Field<FrTraits> instantiated the constrained members anyway).
    static constexpr bool kRedundant = kP.l[N - 1] < (uint64_t(1) << 61);
    static constexpr Big kP2 = [] {
        Big r{};
        Big::add(r, kP, kP);
        return r;
    }();
    CUZK_HD_INLINE static Field canonical_r(const Field& a) {
        Field r;
#if CUZK_IN_DEVICE
        constexpr Big p = kP;
        ff_detail::ptx::DeviceIsa isa;
        ff_detail::ptx::canonical_r<N>(isa, r.l, a.l, p.l);
#else
        Big t = Big::zero();
        for (size_t i = 0; i < N; ++i) t.l[i] = a.l[i];
        if (t >= kP) Big::sub(t, t, kP);
        r = from_raw_montgomery(t);
#endif
        return r;
    }
    CUZK_HD_INLINE static bool is_zero_r(const Field& a) {
        constexpr Big p = kP;
        bool z = true, eq_p = true;
        for (size_t i = 0; i < N; ++i) {
            z = z && a.l[i] == 0;
            eq_p = eq_p && a.l[i] == p.l[i];
        }
        return z || eq_p;
    }
    CUZK_HD_INLINE static Field mul_r(const Field& a, const Field& b) {
#if CUZK_IN_DEVICE
        constexpr Big p = kP;
        ff_detail::ptx::DeviceIsa isa;
        Field r;
        ff_detail::ptx::mul_r<N>(isa, r.l, a.l, b.l, p.l, kInv);
        return r;
#else
        return canonical_r(a) * canonical_r(b);
#endif
    }
    CUZK_HD_INLINE static Field sqr_r(const Field& a) {
#if CUZK_IN_DEVICE
        constexpr Big p = kP;
        ff_detail::ptx::DeviceIsa isa;
        Field r;
        ff_detail::ptx::sqr_r<N>(isa, r.l, a.l, p.l, kInv);
        return r;
#else
        return canonical_r(a).square();
#endif
    }
    CUZK_HD_INLINE static Field add_r(const Field& a, const Field& b) {
#if CUZK_IN_DEVICE
        constexpr Big p2 = kP2;
        ff_detail::ptx::DeviceIsa isa;
        Field r;
        ff_detail::ptx::mod_add<N>(isa, r.l, a.l, b.l, p2.l);
        return r;
#else
        return canonical_r(a) + canonical_r(b);
#endif
    }
    CUZK_HD_INLINE static Field sub_r(const Field& a, const Field& b) {
#if CUZK_IN_DEVICE
        constexpr Big p2 = kP2;
        ff_detail::ptx::DeviceIsa isa;
        Field r;
        ff_detail::ptx::mod_sub<N>(isa, r.l, a.l, b.l, p2.l);
        return r;
#else
        return canonical_r(a) - canonical_r(b);
#endif
    }
    // a b - c d, one reduction.
    CUZK_HD_INLINE static Field mul_sub_mul_r(const Field& a, const Field& b, const Field& c, const Field& d) {
#if CUZK_IN_DEVICE
        constexpr Big p = kP, p2 = kP2;
        ff_detail::ptx::DeviceIsa isa;
        Field r;
        ff_detail::ptx::mul_sub_mul_r<N>(isa, r.l, a.l, b.l, c.l, d.l, p.l, p2.l, kInv);
        return r;
#else
        return canonical_r(a) * canonical_r(b) - canonical_r(c) * canonical_r(d);
#endif
    }
    // a b + c d, one reduction.
    CUZK_HD_INLINE static Field mul_add_mul_r(const Field& a, const Field& b, const Field& c, const Field& d) {
#if CUZK_IN_DEVICE
        constexpr Big p = kP;
        ff_detail::ptx::DeviceIsa isa;
        Field r;
        ff_detail::ptx::mul_add_mul_r<N>(isa, r.l, a.l, b.l, c.l, d.l, p.l, kInv);
        return r;
#else
        return canonical_r(a) * canonical_r(b) + canonical_r(c) * canonical_r(d);
#endif
    }
    // a b with the word products on the FP64 pipe (mont_fp64.hpp): the same value as
    // operator*, so a device kernel can give some of its multiplies to the FP64 pipe while
    // the IMAD pipe does the others. On the host: exact integer limb products (tests).
    CUZK_HD_INLINE static Field mul_fp64(const Field& a, const Field& b) {
        constexpr Big p = kP;
        constexpr ff_detail::fp64::Limbs<N> p52 = ff_detail::fp64::split_modulus<N>(p.l);
        Field r;
        ff_detail::fp64::mont_mul<N>(r.l, a.l, b.l, p52, p.l, kInv);
        return r;
    }
    CUZK_HD_INLINE friend Field operator*(const Field& a, const Field& b) {
        Field r;
        mont_mul(r, a, b);
        return r;
    }
    CUZK_HD_INLINE friend Field operator+(const Field& a, const Field& b) {
        Field r;
        constexpr Big p = kP;
#if CUZK_IN_DEVICE && CUZK_PTX_ADDSUB
        ff_detail::ptx::DeviceIsa isa;
        ff_detail::ptx::mod_add<N>(isa, r.l, a.l, b.l, p.l);
#else
#if CUZK_FF_HAVE_ADX && !CUZK_IN_DEVICE
        if constexpr (ff_detail::kHaveAdxWide<N>) {
            ff_detail::mod_add_adx<N>(r.l, a.l, b.l, kP.l);
            return r;
        }
#endif
        ff_detail::mod_add<N>(r.l, a.l, b.l, p.l);
#endif
        return r;
    }
    CUZK_HD_INLINE friend Field operator-(const Field& a, const Field& b) {
        Field r;
        constexpr Big p = kP;
#if CUZK_IN_DEVICE && CUZK_PTX_ADDSUB
        ff_detail::ptx::DeviceIsa isa;
        ff_detail::ptx::mod_sub<N>(isa, r.l, a.l, b.l, p.l);
#else
#if CUZK_FF_HAVE_ADX && !CUZK_IN_DEVICE
        if constexpr (ff_detail::kHaveAdxWide<N>) {
            ff_detail::mod_sub_adx<N>(r.l, a.l, b.l, kP.l);
            return r;
        }
#endif
        ff_detail::mod_sub<N>(r.l, a.l, b.l, p.l);
#endif
        return r;
    }

    // --- lazy reduction ---------------------------------------------------------------
    // The towers (fp2.hpp) add and subtract 2N-limb products before one reduction, and
    // multiply unreduced sums below 2p: for a, b < 2p, a*b < 4p^2 < pR when 4p < R, the
    // bound redc needs (kLazyOk). Wide values hold plain integers, not residues mod p.
    static constexpr bool kLazyOk = kP.l[N - 1] < (uint64_t(1) << 62);
    struct Wide {
        uint64_t l[2 * N];
    };
    // w = a * b for any N-limb a, b.
    CUZK_HD_INLINE static void mul_wide(Wide& w, const Field& a, const Field& b) {
#if CUZK_FF_HAVE_ADX && !CUZK_IN_DEVICE
        if constexpr (ff_detail::kHaveAdxWide<N>) {
            ff_detail::mul_wide_adx<N>(w.l, a.l, b.l);
            return;
        }
#endif
        ff_detail::mul_wide_portable<N>(w.l, a.l, b.l);
    }
    // r = w R^-1 mod p, fully reduced, for w < pR.
    CUZK_HD_INLINE static void redc(Field& r, const Wide& w) {
#if CUZK_FF_HAVE_ADX && !CUZK_IN_DEVICE
        if constexpr (ff_detail::kHaveAdxWide<N>) {
            ff_detail::redc_adx<N>(r.l, w.l, kP.l, kInv);
            return;
        }
#endif
        constexpr Big p = kP;
        ff_detail::redc_portable<N>(r.l, w.l, p.l, kInv);
    }
    // The portable halves, the reference of the fast ones in the tests.
    CUZK_HD_INLINE static void mul_wide_portable(Wide& w, const Field& a, const Field& b) {
        ff_detail::mul_wide_portable<N>(w.l, a.l, b.l);
    }
    CUZK_HD_INLINE static void redc_portable(Field& r, const Wide& w) {
        constexpr Big p = kP;
        ff_detail::redc_portable<N>(r.l, w.l, p.l, kInv);
    }
    // a + b without reduction: below 2p for a, b < p (p has a spare top bit).
    CUZK_HD_INLINE static Field add_unreduced(const Field& a, const Field& b) {
        Field r;
        ff_detail::add_limbs<N>(r.l, a.l, b.l);
        return r;
    }
    // a - b + p without reduction: in (0, 2p) for a, b < p.
    CUZK_HD_INLINE static Field sub_unreduced(const Field& a, const Field& b) {
        constexpr Big p = kP;
        Field r;
        ff_detail::sub_limbs<N>(r.l, p.l, b.l);
        ff_detail::add_limbs<N>(r.l, r.l, a.l);
        return r;
    }
    // Wide a + b and a - b as integers (the caller keeps them in [0, 2^(128N))).
    CUZK_HD_INLINE static void wide_add(Wide& r, const Wide& a, const Wide& b) {
        ff_detail::add_limbs<2 * N>(r.l, a.l, b.l);
    }
    CUZK_HD_INLINE static void wide_sub(Wide& r, const Wide& a, const Wide& b) {
        ff_detail::sub_limbs<2 * N>(r.l, a.l, b.l);
    }
    // a - b, plus pR when negative (a residue change of 0 after redc): below pR for a, b < pR.
    CUZK_HD_INLINE static void wide_sub_mod(Wide& r, const Wide& a, const Wide& b) {
        constexpr Big p = kP;
        const uint64_t mask = uint64_t(0) - ff_detail::sub_limbs<2 * N>(r.l, a.l, b.l);
        uint64_t pm[N];
        CUZK_UNROLL
        for (size_t j = 0; j < N; ++j) pm[j] = p.l[j] & mask;
        ff_detail::add_limbs<N>(r.l + N, r.l + N, pm);
    }
    CUZK_HD_INLINE Field operator-() const { return zero() - *this; }
    CUZK_HD_INLINE Field& operator*=(const Field& b) { return *this = *this * b; }
    CUZK_HD_INLINE Field& operator+=(const Field& b) { return *this = *this + b; }
    CUZK_HD_INLINE Field& operator-=(const Field& b) { return *this = *this - b; }
    CUZK_HD_INLINE Field dbl() const { return *this + *this; }
    // a^2; on x86-64 with ADX a dedicated squaring (mont_x86_adx.hpp) with fewer MULX, on
    // the GPU one with fewer word products (mont_ptx.hpp).
    CUZK_HD_INLINE Field square() const {
#if CUZK_IN_DEVICE  // operands as in mont_mul
        ff_detail::ptx::DeviceIsa isa;
        Field r;
        if constexpr (kConstMemOperands) {
            ff_detail::ptx::mont_sqr<N, kSparseLow>(isa, r.l, l, ff_detail::device_modulus<Traits>.l,
                                                    ff_detail::device_inv32<Traits>);
        } else {
            constexpr Big p = kP;
            ff_detail::ptx::mont_sqr<N, kSparseLow>(isa, r.l, l, p.l, kInv);
        }
        return r;
#else
#if CUZK_FF_HAVE_ADX
        if constexpr (ff_detail::kHaveAdxSqr<N>) {
            Field r;
            ff_detail::mont_sqr_adx<N>(r.l, l, kP.l, kInv);
            return r;
        }
#endif
        return *this * *this;
#endif
    }
    CUZK_HD_INLINE Field neg() const { return -*this; }

    // a^e for a little-endian multi-limb exponent (left-to-right square and multiply).
    template <size_t M>
    CUZK_HD Field pow(const BigInt<M>& e) const {
        Field r = one();
        for (size_t i = e.num_bits(); i-- > 0;) {
            r = r.square();
            if (e.bit(i)) r *= *this;
        }
        return r;
    }
    CUZK_HD Field pow(uint64_t e) const { return pow(BigInt<1>::from_u64(e)); }

    // Multiplicative inverse; the inverse of zero is zero. On the host: Pornin's binary
    // GCD (inverse_bingcd.hpp), variable-time; on the device: Fermat.
    CUZK_HD Field inverse() const {
#if CUZK_IN_DEVICE
        return inverse_fermat();
#else
        if (is_zero()) return zero();
        Big y, v;
        for (size_t i = 0; i < N; ++i) y.l[i] = l[i];
        const size_t k = ff_detail::bingcd_core<N>(v, y, kP, kInv, kBinGcdMaxOuter);
        if (k == 0) return inverse_fermat();  // not reached for a prime p; kept as a safety net
        Field r;
        mont_mul(r, from_raw_montgomery(v), from_raw_montgomery(kBinGcdFix[k]));
        return r;
#endif
    }

    // Multiplicative inverse by Fermat (a^(p-2)), constant-time; the inverse of zero is zero.
    CUZK_HD Field inverse_fermat() const {
        constexpr Big e = [] {
            Big x = kP;
            Big two = Big::from_u64(2);
            Big::sub(x, x, two);
            return x;
        }();
        return pow(e);
    }

    // Legendre symbol: 0 for zero, 1 for a nonzero square, -1 otherwise.
    int legendre() const {
        constexpr Big e = kP.shr(1);  // (p-1)/2
        Field t = pow(e);
        if (t.is_zero()) return 0;
        return t.is_one() ? 1 : -1;
    }

    // A square root (either one), or nullopt for a non-square.
    std::optional<Field> sqrt() const;

    // Two-adicity s of p-1 and the matching constants for Tonelli-Shanks.
    static constexpr size_t kTwoAdicity = [] {
        Big x = kP;
        x.l[0] -= 1;
        size_t s = 0;
        while (!x.bit(s)) ++s;
        return s;
    }();
};

// Inverts every element of xs in place with one inversion (Montgomery's trick).
// Zeros stay zero and do not poison the others.
template <class F>
void batch_inverse(std::span<F> xs) {
    std::vector<F> prefix(xs.size());
    F acc = F::one();
    for (size_t i = 0; i < xs.size(); ++i) {
        prefix[i] = acc;
        if (!xs[i].is_zero()) acc *= xs[i];
    }
    F inv = acc.inverse();
    for (size_t i = xs.size(); i-- > 0;) {
        if (xs[i].is_zero()) continue;
        F next = inv * xs[i];
        xs[i] = inv * prefix[i];
        inv = next;
    }
}

// Text forms are built in fixed buffers: GCC 12 at -O3 raises a false -Wrestrict on
// std::string concatenation (GCC PR 105329).
template <class Traits>
std::string Field<Traits>::to_hex() const {
    Big b = to_bigint();
    static const char* digits = "0123456789abcdef";
    char buf[2 + 16 * N];
    size_t len = 0;
    buf[len++] = '0';
    buf[len++] = 'x';
    bool started = false;
    for (size_t i = N; i-- > 0;) {
        for (int k = 60; k >= 0; k -= 4) {
            unsigned d = unsigned(b.l[i] >> k) & 0xf;
            if (d) started = true;
            if (started) buf[len++] = digits[d];
        }
    }
    if (!started) buf[len++] = '0';
    return std::string(buf, len);
}

template <class Traits>
std::string Field<Traits>::to_dec() const {
    Big b = to_bigint();
    char buf[20 * N + 1];
    size_t pos = sizeof(buf);
    do {
        u128 rem = 0;  // b /= 10, keeping the remainder
        for (size_t i = N; i-- > 0;) {
            u128 cur = (rem << 64) | b.l[i];
            b.l[i] = uint64_t(cur / 10);
            rem = cur % 10;
        }
        buf[--pos] = char('0' + int(rem));
    } while (!b.is_zero());
    return std::string(buf + pos, sizeof(buf) - pos);
}

template <class Traits>
std::optional<Field<Traits>> Field<Traits>::sqrt() const {
    if (is_zero()) return zero();
    if constexpr ((kP.l[0] & 3) == 3) {
        // p = 3 mod 4: a^((p+1)/4).
        constexpr Big e = [] {
            Big x = kP;
            Big one = Big::from_u64(1);
            Big::add(x, x, one);
            return x.shr(2);
        }();
        Field c = pow(e);
        if (c.square() == *this) return c;
        return std::nullopt;
    } else {
        // Tonelli-Shanks (Cohen, "A Course in Computational Algebraic Number Theory", 1.5.1).
        constexpr size_t s = kTwoAdicity;
        constexpr Big t = kP.shr(s);  // odd part of p-1 ((p-1) >> s == p >> s for s >= 1)
        if (legendre() != 1) return std::nullopt;
        const Field z = from_u64(Traits::kNonResidue).pow(t);  // a primitive 2^s-th root
        constexpr Big t1 = [] {
            Big x = kP.shr(s);
            Big one = Big::from_u64(1);
            Big::add(x, x, one);
            return x.shr(1);
        }();
        Field x = pow(t1);  // a^((t+1)/2)
        Field b = pow(t);   // a^t
        Field g = z;
        size_t r = s;
        while (!b.is_one()) {
            size_t m = 0;
            Field b2 = b;
            while (!b2.is_one()) {
                b2 = b2.square();
                ++m;
            }
            Field gs = g;
            for (size_t i = 0; i + m + 1 < r; ++i) gs = gs.square();
            x *= gs;
            g = gs.square();
            b *= g;
            r = m;
        }
        return x;
    }
}

}  // namespace cuzk
