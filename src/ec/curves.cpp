// Generator coordinates of BLS12-381 (draft-irtf-cfrg-pairing-friendly-curves-11, 4.2.1).
#include "cuzk/ec/affine.hpp"

namespace cuzk {
namespace {
Fp must(const char* hex) { return *Fp::from_string(hex); }
}  // namespace

Fp G1Curve::generator_x() {
    return must("0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb");
}
Fp G1Curve::generator_y() {
    return must("0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1");
}
Fp2 G2Curve::generator_x() {
    return {must("0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"),
            must("0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e")};
}
Fp2 G2Curve::generator_y() {
    return {must("0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801"),
            must("0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be")};
}
}  // namespace cuzk
