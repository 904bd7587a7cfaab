// Optimal ate pairings of BLS12-381 and BN254: Miller loop with G2 in homogeneous
// projective coordinates on the sextic twist (M-type for BLS12-381: E': y^2 = x^3 + 4 xi;
// D-type for BN254: E': y^2 = x^3 + 3/xi), and the final exponentiations. One Miller loop,
// one set of line formulas, parameterised by the curve (Bls12381, Bn254 below).
// Operation counts in Fp2 multiplications (M) and squarings (S).
#include "cuzk/pairing/pairing.hpp"

#include <array>
#include <bit>
#include <stdexcept>

namespace cuzk {
namespace {

// |x| = 0xd201000000010000: 64 bits, Hamming weight 6, so the loop has 63 doublings and
// 5 additions.
constexpr uint64_t kX = kBlsXAbs;
constexpr int kLoopTop = 62;  // the bit below the leading one

// The digits of a loop scalar below its leading one, most significant first: the bits of
// |x| for BLS12-381.
constexpr std::array<int8_t, 63> bls_loop_digits() {
    std::array<int8_t, 63> d{};
    for (int i = kLoopTop; i >= 0; --i) d[size_t(kLoopTop - i)] = int8_t((kX >> i) & 1);
    return d;
}

// The non-adjacent form of 6x + 2 for BN254 (x = 4965661367192848881): 66 digits, 22 of
// them nonzero (plain binary has 37 ones), so 65 doublings and 21 additions. Checked at
// compile time against 6x + 2.
constexpr size_t kBnLoopDigits = 65;
constexpr std::array<int8_t, kBnLoopDigits> bn_loop_digits() {
    unsigned __int128 n = static_cast<unsigned __int128>(bn254::kBnX) * 6 + 2;
    std::array<int8_t, kBnLoopDigits + 1> lsb{};  // least significant first
    size_t len = 0;
    while (n != 0) {
        int8_t d = 0;
        if (n & 1) {
            d = int8_t(2 - int(n & 3));  // 1 or -1, leaving n - d divisible by 4
            n = d > 0 ? n - 1 : n + 1;
        }
        if (len > kBnLoopDigits) throw "6x + 2 has more NAF digits than expected";
        lsb[len++] = d;
        n >>= 1;
    }
    if (len != kBnLoopDigits + 1 || lsb[kBnLoopDigits] != 1) throw "unexpected NAF of 6x + 2";
    std::array<int8_t, kBnLoopDigits> msb{};
    for (size_t i = 0; i < kBnLoopDigits; ++i) msb[i] = lsb[kBnLoopDigits - 1 - i];
    return msb;
}

constexpr bool digits_make(const std::array<int8_t, kBnLoopDigits>& d, unsigned __int128 want) {
    __int128 v = 1;
    for (int8_t x : d) v = 2 * v + x;
    return static_cast<unsigned __int128>(v) == want;
}
static_assert(digits_make(bn_loop_digits(), static_cast<unsigned __int128>(bn254::kBnX) * 6 + 2));

// The curves' pairing parameters.
struct Bls12381 {
    using Fp = cuzk::Fp;
    using Fp2 = cuzk::Fp2;
    using Fp12 = cuzk::Fp12;
    using G1 = G1Affine;
    using G2 = G2Affine;
    using G2C = G2Curve;
    static constexpr bool kDTwist = false;
    static constexpr bool kXNegative = true;
    static constexpr bool kFrobeniusLines = false;
    static constexpr std::array<int8_t, 63> kLoop = bls_loop_digits();
    static constexpr size_t kLines = 68;
    static constexpr const char* kG1Error = "pairing: G1 point is not on the curve y^2 = x^3 + 4";
    static constexpr const char* kG2Error = "pairing: G2 point is not on the curve y^2 = x^3 + 4(1 + u)";
    // 3b' c = 12 xi c (b' = 4 xi): additions and the multiplication by xi.
    static Fp2 mul_by_3b(const Fp2& c) {
        Fp2 c3 = c.dbl() + c;
        return c3.dbl().dbl().mul_by_nonresidue();
    }
};

struct Bn254 {
    using Fp = bn254::Fp;
    using Fp2 = bn254::Fp2;
    using Fp12 = bn254::Fp12;
    using G1 = bn254::G1Affine;
    using G2 = bn254::G2Affine;
    using G2C = bn254::G2Curve;
    static constexpr bool kDTwist = true;
    static constexpr bool kXNegative = false;
    static constexpr bool kFrobeniusLines = true;
    static constexpr std::array<int8_t, kBnLoopDigits> kLoop = bn_loop_digits();
    static constexpr size_t kLines = 65 + 21 + 2;
    static constexpr const char* kG1Error = "pairing: BN254 G1 point is not on the curve y^2 = x^3 + 3";
    static constexpr const char* kG2Error = "pairing: BN254 G2 point is not on the curve y^2 = x^3 + 3/(9 + u)";
    // 3b' c with b' = 3/(9 + u): one Fp2 multiplication by a constant.
    static Fp2 mul_by_3b(const Fp2& c) {
        static const Fp2 three_b = bn254::G2Curve::b() * Fp::from_u64(3);
        return c * three_b;
    }
};

template <class G2C>
struct ParamsOf;
template <>
struct ParamsOf<G2Curve> {
    using type = Bls12381;
};
template <>
struct ParamsOf<bn254::G2Curve> {
    using type = Bn254;
};

// a/2 in Fp (Montgomery form commutes with halving): add p when odd, shift right.
// p < 2^(64N - 1), so a + p fits the N limbs.
template <class Fp>
Fp fp_half(const Fp& a) {
    constexpr size_t N = Fp::N;
    Fp r = a;
    uint64_t mask = 0 - (a.l[0] & 1);
    uint64_t carry = 0;
    for (size_t i = 0; i < N; ++i) {
        u128 t = u128(r.l[i]) + (Fp::kP.l[i] & mask) + carry;
        r.l[i] = uint64_t(t);
        carry = uint64_t(t >> 64);
    }
    for (size_t i = 0; i + 1 < N; ++i) r.l[i] = (r.l[i] >> 1) | (r.l[i + 1] << 63);
    r.l[N - 1] >>= 1;
    return r;
}
template <class Fp2>
Fp2 fp2_half(const Fp2& a) {
    return {fp_half(a.c0), fp_half(a.c1)};
}

// A point of E'(Fp2) in homogeneous projective coordinates: (X : Y : Z) = (X/Z, Y/Z).
template <class Fp2>
struct G2Proj {
    Fp2 x, y, z;
};

// Derivation of the line shapes. M-type (BLS12-381): the untwisting map psi(x', y') =
// (x'/w^2, y'/w^3) takes E' to E: y^2 = x^3 + 4 (w^6 = xi). A line through psi(T) with twist
// slope l' = dy'/dx' is y - (l'/w) x - (y_T - l' x_T)/w^3; times w^3 (in Fp4, killed by the
// final exponentiation) it is yP w^3 - l' xP w^2 - (y_T - l' x_T): coefficients 0, 1 (w^2 =
// v) and 4 (w^3 = v w). D-type (BN254): psi(x', y') = (x' w^2, y' w^3) takes E': y^2 = x^3 +
// b/xi to E, the slope on E is l' w, and the line at P is yP - l' xP w + (l' x_T - y_T) w^3:
// coefficients 0, 3 (w) and 4 (w^3). The same projective formulas give both, with the
// coefficients in another order (as arkworks' TwistType::M and ::D).

// Doubling T <- 2T and its tangent line: Costello, Lange and Naehrig, "Faster pairing
// computations on curves with high-degree twists", PKC 2010, section 5, in the form of
// Aranha, Karabina, Longa, Gebotys and Lopez, "Faster explicit formulas for computing
// pairings over ordinary curves", EUROCRYPT 2011 (ePrint 2010/526), equation (10).
// 3M + 6S + a multiplication by the constant 3b' (12 xi for BLS12-381: additions).
// The tangent times 2YZ (an Fp2 factor): (3b'Z^2 - Y^2) + 3X^2 xP w^2 - 2YZ yP w^3 (M-type);
// times -2YZ: -2YZ yP + 3X^2 xP w + (3b'Z^2 - Y^2) w^3 (D-type).
template <class C>
LineCoeffsT<typename C::Fp2> doubling_step(G2Proj<typename C::Fp2>& t) {
    using Fp2 = typename C::Fp2;
    Fp2 a = fp2_half(t.x * t.y);             // A = XY/2
    Fp2 b = t.y.square();                    // B = Y^2
    Fp2 c = t.z.square();                    // C = Z^2
    Fp2 e = C::mul_by_3b(c);                 // E = 3b'C
    Fp2 f = e.dbl() + e;                     // F = 3E
    Fp2 g = fp2_half(b + f);                 // G = (B + F)/2
    Fp2 h = (t.y + t.z).square() - (b + c);  // H = 2YZ
    Fp2 i = e - b;                           // I = E - B
    Fp2 j = t.x.square();                    // J = X^2
    Fp2 e2 = e.square();
    t.x = a * (b - f);                 // X3 = A(B - F)
    t.y = g.square() - e2.dbl() - e2;  // Y3 = G^2 - 3E^2
    t.z = b * h;                       // Z3 = BH
    if constexpr (C::kDTwist) {
        return {-h, j.dbl() + j, i};
    } else {
        return {i, j.dbl() + j, -h};
    }
}

// Mixed addition T <- T + Q (Q affine) and the line through them: Aranha et al.
// (ePrint 2010/526), equation (12). 11M + 2S.
// The line times lambda = X - x2 Z (an Fp2 factor): (theta x2 - lambda y2) - theta xP w^2
// + lambda yP w^3 (M-type), lambda yP - theta xP w + (theta x2 - lambda y2) w^3 (D-type),
// with theta = Y - y2 Z.
template <class C>
LineCoeffsT<typename C::Fp2> addition_step(G2Proj<typename C::Fp2>& t, const typename C::G2& q) {
    using Fp2 = typename C::Fp2;
    Fp2 theta = t.y - q.y * t.z;
    Fp2 lambda = t.x - q.x * t.z;
    Fp2 c = theta.square();
    Fp2 d = lambda.square();
    Fp2 e = lambda * d;
    Fp2 f = t.z * c;
    Fp2 g = t.x * d;
    Fp2 h = e + f - g.dbl();
    t.x = lambda * h;
    t.y = theta * (g - h) - t.y * e;
    t.z = t.z * e;
    const Fp2 j = theta * q.x - lambda * q.y;
    if constexpr (C::kDTwist) {
        return {lambda, -theta, j};
    } else {
        return {j, -theta, lambda};
    }
}

// f * line(P): 4 Fp multiplies to place P, then the 13M sparse product.
template <class C>
void ell(typename C::Fp12& f, const LineCoeffsT<typename C::Fp2>& l, const typename C::Fp& xp,
         const typename C::Fp& yp) {
    if constexpr (C::kDTwist) {
        f = f.mul_by_034(l.c0 * yp, l.c1 * xp, l.c2);
    } else {
        f = f.mul_by_014(l.c0, l.c1 * xp, l.c2 * yp);
    }
}

template <class C>
void check_on_curve(const typename C::G1& p) {
    if (!p.is_on_curve()) throw std::invalid_argument(C::kG1Error);
}
template <class C>
void check_on_curve(const typename C::G2& q) {
    if (!q.is_on_curve()) throw std::invalid_argument(C::kG2Error);
}

// The two extra points of BN's loop: psi(Q) and -psi^2(Q).
inline std::pair<bn254::G2Affine, bn254::G2Affine> frobenius_points(const bn254::G2Affine& q) {
    const bn254::G2Affine q1 = bn254::psi(q);
    return {q1, -bn254::psi(q1)};
}

// The Miller loop over the signed digits of the loop scalar, shared by all pairs: one Fp12
// squaring per step. Src supplies, for pair k, its P and its next doubling or addition line.
template <class C, class Src>
typename C::Fp12 miller_loop_core(Src& src) {
    using Fp12 = typename C::Fp12;
    Fp12 f = Fp12::one();
    if (src.size() == 0) return f;
    for (size_t i = 0; i < C::kLoop.size(); ++i) {
        if (i != 0) f = f.square();  // f starts at 1: skip the first squaring
        for (size_t k = 0; k < src.size(); ++k) ell<C>(f, src.dbl(k), src.xp(k), src.yp(k));
        if (const int d = C::kLoop[i]; d != 0) {
            for (size_t k = 0; k < src.size(); ++k) ell<C>(f, src.add(k, d < 0), src.xp(k), src.yp(k));
        }
    }
    // x < 0: f_{x,Q} = 1/(f_{|x|,Q} v_{|x|Q}); the vertical line dies in the final
    // exponentiation and 1/f equals conj(f) up to a (p^6 - 1)-th power.
    if constexpr (C::kXNegative) f = f.conjugate();
    if constexpr (C::kFrobeniusLines) {
        for (size_t k = 0; k < src.size(); ++k) ell<C>(f, src.frob1(k), src.xp(k), src.yp(k));
        for (size_t k = 0; k < src.size(); ++k) ell<C>(f, src.frob2(k), src.xp(k), src.yp(k));
    }
    return f;
}

// Pairs with the G2 point as affine input: the G2 arithmetic runs alongside.
template <class C>
struct AffineSource {
    using Fp = typename C::Fp;
    using G2 = typename C::G2;
    using Line = LineCoeffsT<typename C::Fp2>;
    struct Item {
        Fp xp, yp;
        G2 q;
        G2Proj<typename C::Fp2> t;
    };
    std::vector<Item> items;
    explicit AffineSource(std::span<const std::pair<typename C::G1, G2>> pairs) {
        items.reserve(pairs.size());
        for (const auto& [p, q] : pairs) {
            check_on_curve<C>(p);
            check_on_curve<C>(q);
            if (p.is_identity() || q.is_identity()) continue;
            items.push_back({p.x, p.y, q, {q.x, q.y, C::Fp2::one()}});
        }
    }
    size_t size() const { return items.size(); }
    const Fp& xp(size_t k) const { return items[k].xp; }
    const Fp& yp(size_t k) const { return items[k].yp; }
    Line dbl(size_t k) { return doubling_step<C>(items[k].t); }
    Line add(size_t k, bool neg) { return addition_step<C>(items[k].t, neg ? -items[k].q : items[k].q); }
    Line frob1(size_t k) { return addition_step<C>(items[k].t, frobenius_points(items[k].q).first); }
    Line frob2(size_t k) { return addition_step<C>(items[k].t, frobenius_points(items[k].q).second); }
};

// Pairs with prepared G2 points: the lines are read in order.
template <class C>
struct PreparedSource {
    using Fp = typename C::Fp;
    using Line = LineCoeffsT<typename C::Fp2>;
    using Prepared = G2PreparedT<typename C::G2C>;
    struct Item {
        Fp xp, yp;
        const Line* next;
    };
    std::vector<Item> items;
    explicit PreparedSource(std::span<const std::pair<typename C::G1, const Prepared*>> pairs) {
        items.reserve(pairs.size());
        for (const auto& [p, q] : pairs) {
            check_on_curve<C>(p);
            if (q == nullptr) throw std::invalid_argument("pairing: null G2Prepared pointer");
            if (p.is_identity() || q->infinity) continue;
            items.push_back({p.x, p.y, q->lines.data()});
        }
    }
    size_t size() const { return items.size(); }
    const Fp& xp(size_t k) const { return items[k].xp; }
    const Fp& yp(size_t k) const { return items[k].yp; }
    const Line& dbl(size_t k) { return *items[k].next++; }
    const Line& add(size_t k, bool) { return *items[k].next++; }
    const Line& frob1(size_t k) { return *items[k].next++; }
    const Line& frob2(size_t k) { return *items[k].next++; }
};

// g^x for g in the cyclotomic subgroup: square-and-multiply over |x| with cyclotomic
// squarings (63S_cyc + 5 Fp12 multiplies), then conjugate (the inverse) since x < 0.
// The reference for the compressed version below, and its fallback.
Fp12 cyclotomic_exp_by_x_plain(const Fp12& g) {
    Fp12 r = g;
    for (int i = kLoopTop; i >= 0; --i) {
        r = r.cyclotomic_square();
        if ((kX >> i) & 1) r *= g;
    }
    if constexpr (kBlsXIsNegative) r = r.conjugate();
    return r;
}

// The same with compressed squarings: g^|x| = prod of g^(2^k) over the 6 set bits k of
// |x| (16, 48, 57, 60, 62, 63). The 63 squarings run compressed (6S instead of 9S each),
// the 6 powers are decompressed with one shared Fp2 inversion (Montgomery's trick), then
// multiplied (5 Fp12 multiplies). Where a denominator is zero (g = 1, or rare elements
// whose B, C do not determine A) it falls back to the plain loop.
// Dev machine, side by side: final exponentiation 399-414 -> 361-366 us (compressed squaring
// 656 ns against 939 for the full one; decompression and the inversion cost ~10 us an exponentiation).
Fp12 cyclotomic_exp_by_x(const Fp12& g) {
    constexpr int kPowers = std::popcount(kX);
    static_assert((kX & 1) == 0, "g^(2^0) is not taken from the squaring chain");
    // 1^x = 1: after the easy part a product of pairings such as e(P, Q) e(-P, Q) is often
    // exactly 1, and the compressed chain would end in a zero denominator (B = C = 0). Other
    // elements with B = C = 0 (in Fp4) cannot be decompressed either: the plain loop at once.
    if (g.is_one()) return g;
    if (g.c0.c1.is_zero() && g.c0.c2.is_zero() && g.c1.c0.is_zero() && g.c1.c2.is_zero()) {
        return cyclotomic_exp_by_x_plain(g);
    }
    Fp12 pw[kPowers];
    Fp2 n0[kPowers], n1[kPowers], d[kPowers], prefix[kPowers];
    Fp12 c = g;
    int n = 0;
    for (int k = 1; k <= kLoopTop + 1; ++k) {
        c = c.cyclotomic_square_compressed();
        if ((kX >> k) & 1) pw[n++] = c;
    }
    Fp2 acc = Fp2::one();
    for (int i = 0; i < kPowers; ++i) {
        pw[i].cyclotomic_decompress_parts(n0[i], n1[i], d[i]);
        if (d[i].is_zero()) return cyclotomic_exp_by_x_plain(g);
        prefix[i] = acc;
        acc *= d[i];
    }
    Fp2 inv = acc.inverse();
    for (int i = kPowers; i-- > 0;) {
        pw[i].cyclotomic_decompress_finish(n0[i], n1[i], inv * prefix[i]);
        inv *= d[i];
    }
    Fp12 r = pw[0];
    for (int i = 1; i < kPowers; ++i) r *= pw[i];
    if constexpr (kBlsXIsNegative) r = r.conjugate();
    return r;
}

// g^x for g in the cyclotomic subgroup of BN254's Fp12, x = 4965661367192848881 > 0:
// square-and-multiply over the 63 bits of x with cyclotomic squarings (62 S_cyc and 27
// multiplies).
bn254::Fp12 cyclotomic_exp_by_bn_x(const bn254::Fp12& g) {
    constexpr uint64_t x = bn254::kBnX;
    constexpr int top = 63 - std::countl_zero(x);
    bn254::Fp12 r = g;
    for (int i = top - 1; i >= 0; --i) {
        r = r.cyclotomic_square();
        if ((x >> i) & 1) r *= g;
    }
    return r;
}

template <class C>
typename C::Fp12 multi_miller_loop_affine(std::span<const std::pair<typename C::G1, typename C::G2>> pairs) {
    AffineSource<C> src(pairs);
    return miller_loop_core<C>(src);
}

template <class C>
typename C::Fp12 multi_miller_loop_prepared(
    std::span<const std::pair<typename C::G1, const G2PreparedT<typename C::G2C>*>> pairs) {
    PreparedSource<C> src(pairs);
    return miller_loop_core<C>(src);
}

}  // namespace

template <class G2C>
G2PreparedT<G2C>::G2PreparedT(const Affine<G2C>& q) {
    using C = typename ParamsOf<G2C>::type;
    check_on_curve<C>(q);
    infinity = q.is_identity();
    if (infinity) return;
    lines.reserve(C::kLines);
    G2Proj<typename C::Fp2> t{q.x, q.y, C::Fp2::one()};
    for (const int d : C::kLoop) {
        lines.push_back(doubling_step<C>(t));
        if (d != 0) lines.push_back(addition_step<C>(t, d < 0 ? -q : q));
    }
    if constexpr (C::kFrobeniusLines) {
        const auto [q1, q2] = frobenius_points(q);
        lines.push_back(addition_step<C>(t, q1));
        lines.push_back(addition_step<C>(t, q2));
    }
}
template struct G2PreparedT<G2Curve>;
template struct G2PreparedT<bn254::G2Curve>;

Fp12 multi_miller_loop(std::span<const std::pair<G1Affine, G2Affine>> pairs) {
    return multi_miller_loop_affine<Bls12381>(pairs);
}

Fp12 multi_miller_loop(std::span<const std::pair<G1Affine, const G2Prepared*>> pairs) {
    return multi_miller_loop_prepared<Bls12381>(pairs);
}

Fp12 miller_loop(const G1Affine& p, const G2Affine& q) {
    const std::pair<G1Affine, G2Affine> one_pair[1] = {{p, q}};
    return multi_miller_loop(std::span<const std::pair<G1Affine, G2Affine>>(one_pair));
}

Fp12 final_exponentiation(const Fp12& f) {
    // Easy part: f^((p^6 - 1)(p^2 + 1)) = (conj(f)/f)^(p^2 + 1). The result is unitary
    // and lies in the cyclotomic subgroup, where conj is the inverse.
    Fp12 t = f.conjugate() * f.inverse();
    t = t.frobenius_map(2) * t;
    // Hard part, 3 (p^4 - p^2 + 1)/r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3 (HHT 2020/875):
    // 5 exponentiations by x, 3 Frobenius maps, 8 multiplies.
    Fp12 a = cyclotomic_exp_by_x(t) * t.conjugate();                                            // t^(x - 1)
    a = cyclotomic_exp_by_x(a) * a.conjugate();                                                 // t^((x - 1)^2)
    Fp12 b = cyclotomic_exp_by_x(a) * a.frobenius_map(1);                                       // a^(x + p)
    Fp12 c = cyclotomic_exp_by_x(cyclotomic_exp_by_x(b)) * b.frobenius_map(2) * b.conjugate();  // b^(x^2 + p^2 - 1)
    return c * t.cyclotomic_square() * t;                                                       // * t^3
}

Fp12 pairing(const G1Affine& p, const G2Affine& q) { return final_exponentiation(miller_loop(p, q)); }

bool pairing_product_is_one(std::span<const std::pair<G1Affine, G2Affine>> pairs) {
    return final_exponentiation(multi_miller_loop(pairs)).is_one();
}

bool pairing_product_is_one(std::span<const std::pair<G1Affine, const G2Prepared*>> pairs) {
    return final_exponentiation(multi_miller_loop(pairs)).is_one();
}

namespace bn254 {

Fp12 multi_miller_loop(std::span<const std::pair<G1Affine, G2Affine>> pairs) {
    return multi_miller_loop_affine<Bn254>(pairs);
}

Fp12 multi_miller_loop(std::span<const std::pair<G1Affine, const G2Prepared*>> pairs) {
    return multi_miller_loop_prepared<Bn254>(pairs);
}

Fp12 miller_loop(const G1Affine& p, const G2Affine& q) {
    const std::pair<G1Affine, G2Affine> one_pair[1] = {{p, q}};
    return multi_miller_loop(std::span<const std::pair<G1Affine, G2Affine>>(one_pair));
}

// Easy part as for BLS12-381. Hard part: Fuentes-Castaneda, Knapp and Rodriguez-Henriquez
// (SAC 2011), the addition chain for t^(2x(6x^2 + 3x + 1)(p^4 - p^2 + 1)/r) =
// t^(p^3 (12x^3 + 6x^2 + 4x - 1) + p^2 (12x^3 + 6x^2 + 6x) + p (12x^3 + 6x^2 + 4x)
//   + (12x^3 + 12x^2 + 6x + 1)), with conj as the inverse in the cyclotomic subgroup.
Fp12 final_exponentiation(const Fp12& f) {
    Fp12 t = f.conjugate() * f.inverse();
    t = t.frobenius_map(2) * t;
    const Fp12 y0 = cyclotomic_exp_by_bn_x(t).conjugate();   // t^-x
    const Fp12 y1 = y0.cyclotomic_square();                  // t^-2x
    const Fp12 y2 = y1.cyclotomic_square();                  // t^-4x
    const Fp12 y3 = y2 * y1;                                 // t^-6x
    const Fp12 y4 = cyclotomic_exp_by_bn_x(y3).conjugate();  // t^6x^2
    const Fp12 y5 = y4.cyclotomic_square();                  // t^12x^2
    const Fp12 y6 = cyclotomic_exp_by_bn_x(y5).conjugate();  // t^-12x^3
    const Fp12 y7 = y6.conjugate() * y4;                     // t^(12x^3 + 6x^2)
    const Fp12 y8 = y7 * y3.conjugate();                     // t^(12x^3 + 6x^2 + 6x)
    const Fp12 y9 = y8 * y1;                                 // t^(12x^3 + 6x^2 + 4x)
    const Fp12 y10 = y8 * y4;                                // t^(12x^3 + 12x^2 + 6x)
    const Fp12 y11 = y10 * t;                                // t^(12x^3 + 12x^2 + 6x + 1)
    const Fp12 y13 = y9.frobenius_map(1) * y11;              // + p (12x^3 + 6x^2 + 4x)
    const Fp12 y14 = y8.frobenius_map(2) * y13;              // + p^2 (12x^3 + 6x^2 + 6x)
    return (t.conjugate() * y9).frobenius_map(3) * y14;      // + p^3 (12x^3 + 6x^2 + 4x - 1)
}

Fp12 pairing(const G1Affine& p, const G2Affine& q) { return final_exponentiation(miller_loop(p, q)); }

bool pairing_product_is_one(std::span<const std::pair<G1Affine, G2Affine>> pairs) {
    return final_exponentiation(multi_miller_loop(pairs)).is_one();
}

bool pairing_product_is_one(std::span<const std::pair<G1Affine, const G2Prepared*>> pairs) {
    return final_exponentiation(multi_miller_loop(pairs)).is_one();
}

}  // namespace bn254

}  // namespace cuzk
