// Endomorphism-based subgroup checks and cofactor clearing for BLS12-381.
#include "cuzk/ec/subgroup.hpp"

namespace cuzk {

// Scott, ePrint 2021/1130, section 6: P in G1 iff phi(P) == [-x^2] P.
bool is_in_subgroup(const G1Jacobian& p) {
    if (p.is_identity()) return true;
    G1Jacobian minus_x2p = -mul_by_x_abs(mul_by_x_abs(p));  // [-x^2] P = -[|x|]([|x|] P)
    return ec_psi::phi(p) == minus_x2p;
}

// Scott, ePrint 2021/1130, section 4 (corrected proof: ePrint 2022/352): P in G2 iff
// psi(P) == [x] P.
bool is_in_subgroup(const G2Jacobian& p) {
    if (p.is_identity()) return true;
    return ec_psi::psi(p) == mul_by_x(p);
}

G1Jacobian clear_cofactor(const G1Jacobian& p) { return p + mul_by_x_abs(p); }

// draft-irtf-cfrg-hash-to-curve-16, appendix G.3 (clear_cofactor_bls12381_g2), with
// c1 = x: 2 multiplications by x, 3 psi, 6 additions, 1 doubling.
G2Jacobian clear_cofactor(const G2Jacobian& p) {
    G2Jacobian t1 = mul_by_x(p);            // t1 = [x] P
    G2Jacobian t2 = ec_psi::psi(p);         // t2 = psi(P)
    G2Jacobian t3 = ec_psi::psi2(p.dbl());  // t3 = psi^2(2P)
    t3 = t3 - t2;                           // t3 = psi^2(2P) - psi(P)
    t2 = mul_by_x(t1 + t2);                 // t2 = [x](t1 + t2) = [x^2] P + [x] psi(P)
    t3 = t3 + t2;                           // t3 = psi^2(2P) + [x - 1] psi(P) + [x^2] P
    t3 = t3 - t1;                           //      ... - [x] P
    return t3 - p;                          //      ... - P
}

}  // namespace cuzk
