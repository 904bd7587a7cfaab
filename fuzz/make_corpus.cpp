// Writes the seed corpora of the fuzz targets: valid encodings of known points and
// small valid files, plus a few near-misses. Deterministic (fixed seed).
//   cuzk_fuzz_make_corpus <dir>   ->  <dir>/fuzz_<target>/seed_<n>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "cuzk/ec/bn254.hpp"
#include "cuzk/ec/ec.hpp"
#include "cuzk/filecoin/post.hpp"
#include "cuzk/formats/bellperson.hpp"
#include "cuzk/formats/circom.hpp"
#include "cuzk/formats/snarkjs.hpp"

namespace {

using namespace cuzk;
using Bytes = std::vector<uint8_t>;

std::mt19937_64 rng(20240611);

template <class Curve>
Affine<Curve> point() {
    return mul(Affine<Curve>::generator(), Fr::random(rng)).to_affine();
}
template <class Curve>
std::vector<Affine<Curve>> points(size_t n) {
    std::vector<Affine<Curve>> v;
    for (size_t i = 0; i < n; ++i) v.push_back(point<Curve>());
    return v;
}

void put(const std::filesystem::path& dir, const std::string& target, size_t& n, const Bytes& b) {
    std::filesystem::create_directories(dir / target);
    std::ofstream(dir / target / ("seed_" + std::to_string(n++)), std::ios::binary)
        .write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}
template <size_t N>
Bytes bytes(const std::array<uint8_t, N>& a) {
    return Bytes(a.begin(), a.end());
}
Bytes text(const std::string& s) { return Bytes(s.begin(), s.end()); }

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s <corpus dir>\n", argv[0]);
        return 2;
    }
    const std::filesystem::path dir = argv[1];
    size_t n = 0;
    for (int i = 0; i < 4; ++i) {
        const G1Affine p = i == 0 ? G1Affine::identity() : point<G1Curve>();
        const G2Affine q = i == 0 ? G2Affine::identity() : point<G2Curve>();
        put(dir, "fuzz_g1", n, bytes(to_compressed(p)));
        put(dir, "fuzz_g1", n, bytes(to_uncompressed(p)));
        put(dir, "fuzz_g2", n, bytes(to_compressed(q)));
        put(dir, "fuzz_g2", n, bytes(to_uncompressed(q)));
    }
    // Curve points outside the subgroups.
    put(dir, "fuzz_g1", n, bytes(to_uncompressed(random_curve_point<G1Curve>(rng))));
    put(dir, "fuzz_g2", n, bytes(to_compressed(random_curve_point<G2Curve>(rng))));
    // BN254 in Ethereum's encoding: infinity, subgroup points, a twist point outside G2.
    for (int i = 0; i < 3; ++i) {
        const bn254::G1Affine p = i == 0 ? bn254::G1Affine::identity()
                                         : mul(bn254::G1Affine::generator(), bn254::Fr::random(rng)).to_affine();
        const bn254::G2Affine q = i == 0 ? bn254::G2Affine::identity()
                                         : mul(bn254::G2Affine::generator(), bn254::Fr::random(rng)).to_affine();
        put(dir, "fuzz_bn254_points", n, bytes(bn254::to_eth_bytes(p)));
        put(dir, "fuzz_bn254_points", n, bytes(bn254::to_eth_bytes(q)));
    }
    put(dir, "fuzz_bn254_points", n, bytes(bn254::to_eth_bytes(random_curve_point<bn254::G2Curve>(rng))));

    std::vector<groth16::Proof> proofs;
    for (int i = 0; i < 2; ++i) proofs.push_back({point<G1Curve>(), point<G2Curve>(), point<G1Curve>()});
    put(dir, "fuzz_proof", n, formats::proofs_to_bytes({proofs.data(), 1}));
    put(dir, "fuzz_proof", n, formats::proofs_to_bytes(proofs));

    groth16::Parameters p;
    p.vk = {point<G1Curve>(), point<G1Curve>(), point<G2Curve>(),  point<G2Curve>(),
            point<G1Curve>(), point<G2Curve>(), points<G1Curve>(2)};
    p.h = points<G1Curve>(3);
    p.l = points<G1Curve>(1);
    p.a = points<G1Curve>(2);
    p.b_g1 = points<G1Curve>(1);
    p.b_g2 = points<G2Curve>(1);
    put(dir, "fuzz_vk", n, formats::vk_to_bytes(p.vk));
    groth16::VerifyingKey vk0 = p.vk;
    vk0.ic.clear();
    put(dir, "fuzz_vk", n, formats::vk_to_bytes(vk0));
    put(dir, "fuzz_params", n, formats::params_to_bytes(p));
    groth16::Parameters empty;
    empty.vk = vk0;
    put(dir, "fuzz_params", n, formats::params_to_bytes(empty));

    Fp12 ab;  // any value: the reader does not recompute it
    ab.c0 = ab.c1 = Fp6(Fp2::one(), Fp2::one(), Fp2::one());
    put(dir, "fuzz_snarkjs", n, text(formats::snarkjs::vk_to_json(p.vk, ab)));
    put(dir, "fuzz_snarkjs", n, text(formats::snarkjs::proof_to_json(proofs[0])));
    const std::vector<Fr> inputs = {Fr::from_u64(1), Fr::random(rng)};
    put(dir, "fuzz_snarkjs", n, text(formats::snarkjs::public_to_json(inputs)));
    // PoSt vanilla proofs: the proof id byte, then the bincode (Single, Sub and Top trees);
    // and request files.
    using filecoin::RegisteredPoStProof;
    filecoin::Bytes32 randomness{};
    for (size_t i = 0; i < 31; ++i) randomness[i] = uint8_t(rng());
    for (RegisteredPoStProof id :
         {RegisteredPoStProof::StackedDrgWindow2KiBV1_2, RegisteredPoStProof::StackedDrgWindow8MiBV1_2,
          RegisteredPoStProof::StackedDrgWindow64GiBV1_2}) {
        const auto& cfg = filecoin::post_config(id);
        filecoin::PoStRequestFile f;
        f.proof = id;
        f.randomness = randomness;
        f.miner_id = 1000;
        for (uint64_t s = 0; s < 2; ++s) {
            auto b = filecoin::encode_post_sector_proof(
                filecoin::synthetic_post_vanilla_proof(cfg, 1, 40 + s, randomness, s));
            f.vanilla_proofs.push_back(b);
            b.insert(b.begin(), uint8_t(id));
            if (s == 0) put(dir, "fuzz_post_vanilla", n, b);
        }
        if (cfg.sector_size == 2048) put(dir, "fuzz_post_vanilla", n, filecoin::encode_post_request_file(f));
    }
    // circom/snarkjs files: the committed snarkjs artefacts on both curves (made by
    // scripts/circom) when the source tree is beside the build, and a small hand-built key.
    const std::filesystem::path circom_dir = std::filesystem::path(CUZK_SOURCE_DIR) / "tests/data/circom";
    for (const char* stem : {"chain8.", "chain8_bn254."})  // BLS12-381 and BN254 (bn128)
        for (const char* what : {"zkey", "wtns", "r1cs"}) {
            std::ifstream in(circom_dir / (std::string(stem) + what), std::ios::binary);
            if (in) put(dir, std::string("fuzz_") + what, n, Bytes(std::istreambuf_iterator<char>(in), {}));
        }
    for (const char* stem : {"chain8", "chain8_bn254"}) {  // verification_key.json of both curves
        std::ifstream in(circom_dir / (std::string(stem) + ".vkey.json"), std::ios::binary);
        if (in) put(dir, "fuzz_snarkjs", n, Bytes(std::istreambuf_iterator<char>(in), {}));
    }
    {
        using E = groth16::Bls12_381;
        formats::circom::ZkeyContents<E> z;
        z.n_vars = 3;
        z.n_public = 1;
        z.domain_size = 4;
        z.alpha_1 = z.beta_1 = z.delta_1 = point<G1Curve>();
        z.beta_2 = z.gamma_2 = z.delta_2 = point<G2Curve>();
        z.ic = points<G1Curve>(2);
        z.a = points<G1Curve>(3);
        z.b1 = {point<G1Curve>(), G1Affine::identity(), point<G1Curve>()};
        z.b2 = {point<G2Curve>(), G2Affine::identity(), point<G2Curve>()};
        z.c = points<G1Curve>(1);
        z.h = points<G1Curve>(4);
        z.a_rows.row_ptr = {0, 1, 2, 3, 3};
        z.a_rows.signal = {2, 0, 1};
        z.a_rows.coeff = {Fr::from_u64(3), Fr::one(), Fr::one()};
        z.b_rows.row_ptr = {0, 1, 1, 1, 1};
        z.b_rows.signal = {2};
        z.b_rows.coeff = {-Fr::one()};
        put(dir, "fuzz_zkey", n, formats::circom::zkey_to_bytes<E>(z));
        const std::vector<Fr> w = {Fr::one(), Fr::from_u64(9), Fr::random(rng)};
        put(dir, "fuzz_wtns", n, formats::circom::wtns_to_bytes<E>(w));
        groth16::CircomR1cs<E> r;
        r.n_wires = 3;
        r.n_pub_out = 1;
        r.n_labels = 3;
        r.a = r.b = r.c = z.a_rows;
        r.a.row_ptr = r.b.row_ptr = r.c.row_ptr = {0, 1, 2, 3};
        r.wire_to_label = {0, 1, 2};
        put(dir, "fuzz_r1cs", n, formats::circom::r1cs_to_bytes<E>(r));
    }
    std::printf("cuzk_fuzz_make_corpus: %zu seeds in %s\n", n, dir.c_str());
    return 0;
}
