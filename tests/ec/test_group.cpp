// Group laws, coordinate systems and scalar multiplication, one typed test for G1 and G2 of
// BLS12-381 and BN254.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <vector>

#include "cuzk/ec/bn254.hpp"
#include "cuzk/ec/ec.hpp"
#include "support/seed.hpp"

namespace cuzk {
namespace {

template <class Curve>
class GroupTest : public ::testing::Test {
 protected:
    using A = Affine<Curve>;
    using J = Jacobian<Curve>;
    using X = XYZZ<Curve>;

    // A subgroup point in Jacobian form with a random Z (not 1), so formulas see
    // general inputs: (X l^2, Y l^3, l).
    static J random_jacobian(std::mt19937_64& rng) {
        using F = typename Curve::Field;
        A a = random_subgroup_point<Curve>(rng);
        F l = F::random(rng);
        F l2 = l.square();
        return {a.x * l2, a.y * l2 * l, l};
    }
};

using Curves = ::testing::Types<G1Curve, G2Curve, bn254::G1Curve, bn254::G2Curve>;
TYPED_TEST_SUITE(GroupTest, Curves);

TYPED_TEST(GroupTest, IdentityCases) {
    using Fr [[maybe_unused]] = typename TypeParam::Scalar;
    using J = typename TestFixture::J;
    using X = typename TestFixture::X;
    using A = typename TestFixture::A;
    std::mt19937_64 rng(test::seed());
    const J O = J::identity();
    J p = this->random_jacobian(rng);
    A pa = p.to_affine();
    EXPECT_TRUE(O.is_identity());
    EXPECT_FALSE(p.is_identity());
    EXPECT_EQ(p + O, p);
    EXPECT_EQ(O + p, p);
    EXPECT_EQ(O + O, O);
    EXPECT_TRUE((p + (-p)).is_identity());
    EXPECT_TRUE(p.add(-pa).is_identity());
    EXPECT_TRUE(O.dbl().is_identity());
    EXPECT_EQ(O.add(pa), J::from_affine(pa));
    EXPECT_EQ(p.add(A::identity()), p);
    EXPECT_EQ(p + p, p.dbl());      // add falls to double
    EXPECT_EQ(p.add(pa), p.dbl());  // mixed add falls to double
    EXPECT_NE(p.dbl(), p);
    EXPECT_TRUE(O.to_affine().is_identity());
    EXPECT_TRUE(J::from_affine(A::identity()).is_identity());

    const X XO = X::identity();
    X px = X::from_jacobian(p);
    EXPECT_EQ(px + XO, px);
    EXPECT_EQ(XO + px, px);
    EXPECT_TRUE((px + (-px)).is_identity());
    EXPECT_TRUE(px.add(-pa).is_identity());
    EXPECT_EQ(px + px, px.dbl());
    // Equal points in different representations also double.
    const X pz = X::from_affine(pa);
    EXPECT_EQ(px + pz, px.dbl());
    EXPECT_EQ(pz + px, px.dbl());
    EXPECT_TRUE((pz + (-px)).is_identity());
    EXPECT_EQ(px.add(pa), px.dbl());
    EXPECT_EQ(XO.add(pa).to_affine(), pa);
    EXPECT_EQ(px.add(A::identity()), px);
    EXPECT_TRUE(XO.dbl().is_identity());
    EXPECT_TRUE(XO.to_affine().is_identity());
}

TYPED_TEST(GroupTest, GroupLawsOnRandomPoints) {
    using Fr [[maybe_unused]] = typename TypeParam::Scalar;
    using J = typename TestFixture::J;
    using X = typename TestFixture::X;
    std::mt19937_64 rng(test::seed());
    for (int iter = 0; iter < 8; ++iter) {
        J p = this->random_jacobian(rng), q = this->random_jacobian(rng), r = this->random_jacobian(rng);
        ASSERT_TRUE(p.is_on_curve());
        ASSERT_TRUE((p + q).is_on_curve());
        ASSERT_TRUE(p.dbl().is_on_curve());
        EXPECT_EQ(p + q, q + p);
        EXPECT_EQ((p + q) + r, p + (q + r));
        EXPECT_EQ((p + q) - q, p);
        EXPECT_EQ(p.dbl().dbl(), p + p + p + p);
        // Mixed vs general addition.
        EXPECT_EQ(p.add(q.to_affine()), p + q);
        EXPECT_EQ((J::from_affine(p.to_affine()) + q).to_affine(), (p + q).to_affine());
        // XYZZ agrees with Jacobian.
        X px = X::from_jacobian(p), qx = X::from_jacobian(q);
        EXPECT_EQ((px + qx).to_affine(), (p + q).to_affine());
        EXPECT_EQ(px.add(q.to_affine()).to_affine(), (p + q).to_affine());
        EXPECT_EQ(px.dbl().to_affine(), p.dbl().to_affine());
        EXPECT_EQ((px + qx).to_jacobian(), p + q);
        EXPECT_EQ(px.to_jacobian(), p);
        EXPECT_EQ((px - qx) + qx, px);
        // Projective equality is representation-independent and can say no.
        EXPECT_NE(p, q);
        EXPECT_NE(px, qx);
        EXPECT_NE(p, -p);
    }
}

// XYZZ::add_redundant (the device's bucket accumulation in the field's redundant form):
// the same points as add(), from accumulators whose coordinates are canonical or, word for
// word, canonical + p (both valid redundant values), through doublings and cancellations.
// On the host the field operations return canonical values, so this checks the formula
// and its branches; the device arithmetic is checked by the emulated PTX test and the GPU
// MSM tests.
Fp plus_p(const Fp& x) {
    Fp::Big b;
    for (size_t i = 0; i < Fp::N; ++i) b.l[i] = x.l[i];
    Fp::Big::add(b, b, Fp::kP);
    return Fp::from_raw_montgomery(b);
}
Fp2 plus_p(const Fp2& x) { return {plus_p(x.c0), plus_p(x.c1)}; }

// The redundant addition as one call a curve: inlined at each of the test's ten call sites
// (it is always_inline), g++ -O3 took 208 s over this file; 37 s with this wrapper, 16
// without the test.
template <class X, class A>
[[gnu::noinline]] X add_redundant(const X& acc, const A& q) {
    return acc.add_redundant(q);
}

TYPED_TEST(GroupTest, RedundantMixedAdditionMatchesTheMixedAddition) {
    using Fr [[maybe_unused]] = typename TypeParam::Scalar;
    using A = typename TestFixture::A;
    using X = typename TestFixture::X;
    using F = typename TypeParam::Field;
    if constexpr (!F::kRedundant) {
        GTEST_SKIP() << "no redundant form for " << TypeParam::kName << " (p >= 2^253)";
    } else {
        std::mt19937_64 rng(test::seed());
        for (int iter = 0; iter < 16; ++iter) {
            const A q = random_subgroup_point<TypeParam>(rng);
            const X acc = X::from_jacobian(this->random_jacobian(rng));  // ZZ != 1
            const A r = random_subgroup_point<TypeParam>(rng);
            const A s = acc.to_affine();
            X wide = acc;  // the same point, some coordinates + p
            const unsigned form = unsigned(rng());
            if (form & 1) wide.X = plus_p(acc.X);
            if (form & 2) wide.Y = plus_p(acc.Y);
            if (form & 4) wide.ZZ = plus_p(acc.ZZ);
            if (form & 8) wide.ZZZ = plus_p(acc.ZZZ);
            for (const X& a : {acc, wide}) {
                EXPECT_EQ(add_redundant(a, r).canonical(), acc.add(r)) << "form " << form;
                EXPECT_EQ(add_redundant(a, s).canonical(), acc.dbl()) << "q = acc doubles, form " << form;
                EXPECT_TRUE(add_redundant(a, -s).is_identity()) << "q = -acc, form " << form;
                EXPECT_EQ(add_redundant(a, A::identity()).canonical(), acc) << "form " << form;
            }
            EXPECT_EQ(add_redundant(X::identity(), r).canonical(), X::from_affine(r));
            // A run as the accumulation makes it.
            X run = X::identity(), ref = X::identity();
            for (const A& p : {r, q, r, -q, q, q, -r}) {
                run = add_redundant(run, p);
                ref = ref.add(p);
            }
            EXPECT_EQ(run.canonical(), ref);
        }
    }
}

TYPED_TEST(GroupTest, BatchToAffine) {
    using Fr [[maybe_unused]] = typename TypeParam::Scalar;
    using J = typename TestFixture::J;
    using A = typename TestFixture::A;
    std::mt19937_64 rng(test::seed());
    std::vector<J> pts;
    for (int i = 0; i < 9; ++i) {
        pts.push_back(i % 4 == 1 ? J::identity() : this->random_jacobian(rng));
    }
    pts.push_back(J::identity());
    std::vector<A> aff = batch_to_affine<TypeParam>(std::span<const J>(pts));
    ASSERT_EQ(aff.size(), pts.size());
    for (size_t i = 0; i < pts.size(); ++i) {
        EXPECT_EQ(aff[i], pts[i].to_affine()) << "point " << i;
        EXPECT_EQ(aff[i].infinity, pts[i].is_identity());
        EXPECT_TRUE(aff[i].is_on_curve());
    }
    EXPECT_TRUE(batch_to_affine<TypeParam>(std::span<const J>()).empty());
}

TYPED_TEST(GroupTest, ScalarMultiplication) {
    using Fr [[maybe_unused]] = typename TypeParam::Scalar;
    using J = typename TestFixture::J;
    using X = typename TestFixture::X;
    std::mt19937_64 rng(test::seed());
    const J g = J::generator();
    // Small scalars against repeated addition, every window size.
    J sum = J::identity();
    for (uint64_t k = 0; k < 70; ++k) {
        for (unsigned w = 2; w <= 8; ++w) {
            ASSERT_EQ(mul_wnaf(g, BigInt<1>::from_u64(k), w), sum) << "k=" << k << " w=" << w;
        }
        ASSERT_EQ(mul_double_and_add(g, BigInt<1>::from_u64(k)), sum) << "k=" << k;
        ASSERT_EQ(mul_u64(g, k), sum);
        sum += g;
    }
    // Random scalars: wNAF vs double-and-add, Jacobian vs XYZZ, [a]([b]P) = [ab]P.
    for (int iter = 0; iter < 4; ++iter) {
        J p = this->random_jacobian(rng);
        Fr a = Fr::random(rng), b = Fr::random(rng);
        J ap = mul(p, a);
        EXPECT_EQ(ap, mul_double_and_add(p, a.to_bigint()));
        for (unsigned w = 2; w <= 8; ++w) EXPECT_EQ(mul_wnaf(p, a.to_bigint(), w), ap) << "w=" << w;
        EXPECT_EQ(mul(X::from_jacobian(p), a).to_affine(), ap.to_affine());
        EXPECT_EQ(mul(ap, b), mul(p, a * b));
        EXPECT_EQ(mul(p, a + b), ap + mul(p, b));
        EXPECT_EQ(mul(p, -a), -ap);
        // Scalars near 2^256 exercise the wNAF carry into the spare limb.
        BigInt<4> big;
        for (auto& l : big.l) l = ~uint64_t(0);
        EXPECT_EQ(mul_wnaf(p, big), mul_double_and_add(p, big));
    }
    EXPECT_TRUE(mul(g, Fr::zero()).is_identity());
    EXPECT_EQ(mul(g, Fr::one()), g);
    EXPECT_TRUE(mul(J::identity(), Fr::random(rng)).is_identity());
    // r G = O, (r - 1) G = -G.
    EXPECT_TRUE(mul_wnaf(g, Fr::kP).is_identity());
    EXPECT_TRUE(mul_double_and_add(g, Fr::kP).is_identity());
    EXPECT_EQ(mul(g, -Fr::one()), -g);
}

TYPED_TEST(GroupTest, MsmNaive) {
    using Fr [[maybe_unused]] = typename TypeParam::Scalar;
    using J = typename TestFixture::J;
    using A = typename TestFixture::A;
    std::mt19937_64 rng(test::seed());
    // Closed form: P_i = [i] G and s_i = i k give sum_i s_i P_i = [k sum_i i^2] G.
    const size_t n = 7;
    Fr k = Fr::random(rng);
    std::vector<A> bases;
    std::vector<Fr> scalars;
    Fr total = Fr::zero();
    for (size_t i = 0; i < n; ++i) {
        Fr fi = Fr::from_u64(i);
        bases.push_back(mul(J::generator(), fi).to_affine());
        scalars.push_back(fi * k);
        total += fi * fi * k;
    }
    bases.push_back(A::identity());
    scalars.push_back(Fr::random(rng));
    EXPECT_EQ(msm_naive(std::span<const A>(bases), std::span<const Fr>(scalars)), mul(J::generator(), total));
    EXPECT_TRUE(msm_naive(std::span<const A>(), std::span<const Fr>()).is_identity());
    scalars.pop_back();
    EXPECT_THROW(msm_naive(std::span<const A>(bases), std::span<const Fr>(scalars)), std::invalid_argument);
}

TEST(WnafDigits, AreNonAdjacentAndReconstructTheScalar) {
    std::mt19937_64 rng(test::seed());
    for (int iter = 0; iter < 200; ++iter) {
        BigInt<4> k;
        for (auto& l : k.l) l = rng();
        if (iter == 0) k = BigInt<4>::zero();
        for (unsigned w = 2; w <= 8; ++w) {
            int8_t d[257];
            size_t n = wnaf_digits(k, w, d);
            ASSERT_LE(n, 257u);
            // Horner from the top: sum d_i 2^i, in 5 limbs to hold the carry.
            BigInt<5> acc = BigInt<5>::zero();
            for (size_t i = n; i-- > 0;) {
                BigInt<5>::add(acc, acc, acc);
                BigInt<5> v = BigInt<5>::from_u64(uint64_t(d[i] < 0 ? -d[i] : d[i]));
                if (d[i] > 0) BigInt<5>::add(acc, acc, v);
                if (d[i] < 0) BigInt<5>::sub(acc, acc, v);
                if (d[i] != 0) {
                    ASSERT_TRUE(d[i] & 1);
                    ASSERT_LT(std::abs(int(d[i])), 1 << (w - 1));
                    for (size_t j = 1; j < w && i + j < n; ++j) ASSERT_EQ(d[i + j], 0);
                }
            }
            for (size_t i = 0; i < 4; ++i) ASSERT_EQ(acc.l[i], k.l[i]);
            ASSERT_EQ(acc.l[4], 0u);
        }
    }
}

}  // namespace
}  // namespace cuzk
