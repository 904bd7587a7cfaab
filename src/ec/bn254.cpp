// BN254 G1/G2 constants, subgroup check, cofactor clearing and Ethereum's encoding; see
// include/cuzk/ec/bn254.hpp.
#include "cuzk/ec/bn254.hpp"

#include <cstring>
#include <optional>

#include "cuzk/ec/subgroup.hpp"

namespace cuzk::bn254 {
namespace {

Fp must(const char* s) { return *Fp::from_string(s); }

// h2 = 2p - r, the order of E'(Fp2) over r.
constexpr BigInt<4> kG2Cofactor =
    BigInt<4>::must_parse("0x30644e72e131a029b85045b68181585e06ceecda572a2489345f2299c0f9fa8d");

void write_field(const Fp& a, uint8_t* out) { a.to_bytes_be(out); }
void write_field(const Fp2& a, uint8_t* out) {
    a.c1.to_bytes_be(out);
    a.c0.to_bytes_be(out + Fp::kBytes);
}
std::optional<Fp> read_field(const uint8_t* in, const Fp*) { return Fp::from_bytes_be(in); }
std::optional<Fp2> read_field(const uint8_t* in, const Fp2*) {
    auto c1 = Fp::from_bytes_be(in);
    auto c0 = Fp::from_bytes_be(in + Fp::kBytes);
    if (!c0 || !c1) return std::nullopt;
    return Fp2{*c0, *c1};
}

template <class Curve, size_t Bytes>
std::array<uint8_t, Bytes> encode(const Affine<Curve>& p) {
    std::array<uint8_t, Bytes> out{};
    if (p.infinity) return out;
    write_field(p.x, out.data());
    write_field(p.y, out.data() + Bytes / 2);
    return out;
}

template <class Curve, size_t Bytes>
DecodeResult<Affine<Curve>> decode(std::span<const uint8_t> bytes, Validation v) {
    using F = typename Curve::Field;
    using A = Affine<Curve>;
    auto fail = [](DecodeError e) { return DecodeResult<A>{A::identity(), e}; };
    if (bytes.size() != Bytes) return fail(DecodeError::kWrongLengthEthereum);
    uint8_t acc = 0;
    for (uint8_t b : bytes) acc |= b;
    if (acc == 0) return {A::identity(), DecodeError::kNone};
    auto x = read_field(bytes.data(), static_cast<const F*>(nullptr));
    auto y = read_field(bytes.data() + Bytes / 2, static_cast<const F*>(nullptr));
    if (!x || !y) return fail(DecodeError::kCoordinateNotInField);
    const A p{*x, *y, false};
    if (!p.is_on_curve()) return fail(DecodeError::kNotOnCurve);
    if (v == Validation::kFull && !is_in_subgroup(p)) return fail(DecodeError::kNotInSubgroup);
    return {p, DecodeError::kNone};
}

}  // namespace

// EIP-197: b' = 3/(9 + u) =
//   0x2b149d40ceb8aaae81be18991be06ac3b5b4c5e559dbefa33267e6dc24a138e5
//   + 0x009713b03af0fed4cd2cafadeed8fdf4a74fa084e52d1852e4a2bd0685c315d2 u
// (tests/ec/test_bn254.cpp checks b' (9 + u) = 3).
Fp2 G2Curve::b() {
    static const Fp2 v{must("0x2b149d40ceb8aaae81be18991be06ac3b5b4c5e559dbefa33267e6dc24a138e5"),
                       must("0x009713b03af0fed4cd2cafadeed8fdf4a74fa084e52d1852e4a2bd0685c315d2")};
    return v;
}
// The generator of EIP-197 (as go-ethereum's bn256 twistGen).
Fp2 G2Curve::generator_x() {
    return {must("10857046999023057135944570762232829481370756359578518086990519993285655852781"),
            must("11559732032986387107991004021392285783925812861821192530917403151452391805634")};
}
Fp2 G2Curve::generator_y() {
    return {must("8495653923123431417604973247489272438418190587263600148770280649306958101930"),
            must("4082367875863433681332203403145435568316851327593401208105741076214120093531")};
}

G2Affine psi(const G2Affine& q) {
    if (q.infinity) return q;
    return {q.x.conjugate() * tower_detail::frobenius_gamma<Tower>(1, 2),
            q.y.conjugate() * tower_detail::frobenius_gamma<Tower>(1, 3), false};
}

// psi on Jacobian points: conj(X/Z^2) = conj(X)/conj(Z)^2, so all three coordinates are
// conjugated and X, Y scaled as in the affine map.
G2Jacobian psi(const G2Jacobian& q) {
    return {q.X.conjugate() * tower_detail::frobenius_gamma<Tower>(1, 2),
            q.Y.conjugate() * tower_detail::frobenius_gamma<Tower>(1, 3), q.Z.conjugate()};
}

// Dai, Lin, Zhao and Zhou, "Fast subgroup membership testings for G1, G2 and GT on
// pairing-friendly curves", ePrint 2022/348, sections 3 and 5.1 (as gnark-crypto):
//   Q in G2  iff  [x + 1] Q + psi([x] Q) + psi^2([x] Q) == psi^3([2x] Q).
// One 63-bit scalar multiplication instead of the 254-bit [r] Q: 56 against 153 us on the dev
// machine (bench/ec.cpp); tests/ec/test_bn254.cpp checks it against [r] Q == O.
bool is_in_subgroup(const G2Jacobian& q) {
    if (q.is_identity()) return true;
    const G2Jacobian xq = mul_wnaf(q, BigInt<1>::from_u64(kBnX));
    const G2Jacobian psi_xq = psi(xq);
    const G2Jacobian lhs = xq + q + psi_xq + psi(psi_xq);
    return lhs == psi(psi(psi(xq.dbl())));
}

G2Jacobian clear_cofactor(const G2Jacobian& q) { return mul_wnaf(q, kG2Cofactor); }

std::array<uint8_t, kG1EthBytes> to_eth_bytes(const G1Affine& p) { return encode<G1Curve, kG1EthBytes>(p); }
std::array<uint8_t, kG2EthBytes> to_eth_bytes(const G2Affine& q) { return encode<G2Curve, kG2EthBytes>(q); }
DecodeResult<G1Affine> decode_eth_g1(std::span<const uint8_t> bytes, Validation v) {
    return decode<G1Curve, kG1EthBytes>(bytes, v);
}
DecodeResult<G2Affine> decode_eth_g2(std::span<const uint8_t> bytes, Validation v) {
    return decode<G2Curve, kG2EthBytes>(bytes, v);
}

}  // namespace cuzk::bn254
