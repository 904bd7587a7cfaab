// snarkjs .zkey bytes: the section-table inspector, the curve detection and the full reader
// on both curves (BLS12-381 and BN254; inputs up to
// 64 KiB, the pool decoding points in parallel as for real files). Never crashes; a
// corrupt count never allocates; what is accepted is described too, and written back and
// read again gives the same key.
#include "cuzk/formats/circom.hpp"
#include "fuzz_common.hpp"

namespace {

// The section's points in full again: the compacted ones where the density has a bit, the
// point at infinity elsewhere.
template <class P>
std::vector<P> expand(const std::vector<P>& compact, const std::vector<uint64_t>& density, size_t n) {
    std::vector<P> out(n, P::identity());
    size_t k = 0;
    for (size_t i = 0; i < n; ++i)
        if (density[i / 64] >> (i % 64) & 1) out[i] = compact.at(k++);
    FUZZ_CHECK(k == compact.size());
    return out;
}

template <class E>
void read_on(std::span<const uint8_t> in) {
    using namespace cuzk::formats;
    try {
        const auto z = circom::read_zkey_bytes<E>(in, {.check_subgroup = false});
        FUZZ_CHECK(!circom::describe(in, "fuzz").empty());
        circom::ZkeyContents<E> c;
        c.n_vars = z.n_vars;
        c.n_public = z.n_public;
        c.domain_size = z.domain_size;
        c.alpha_1 = z.alpha_1, c.beta_1 = z.beta_1, c.delta_1 = z.delta_1;
        c.beta_2 = z.beta_2, c.gamma_2 = z.gamma_2, c.delta_2 = z.delta_2;
        c.ic = z.ic, c.c = z.c, c.h = z.h;
        c.a = expand(z.a, z.z_density.a, z.n_vars);
        c.b1 = expand(z.b1, z.z_density.b, z.n_vars);
        c.b2 = expand(z.b2, z.z_density.b, z.n_vars);
        c.a_rows = z.a_rows, c.b_rows = z.b_rows;
        const auto again = circom::read_zkey_bytes<E>(circom::zkey_to_bytes<E>(c), {.check_subgroup = false});
        FUZZ_CHECK(again.h == z.h && again.a == z.a && again.b2 == z.b2 && again.c == z.c);
        FUZZ_CHECK(again.a_rows.coeff == z.a_rows.coeff && again.b_rows.signal == z.b_rows.signal);
    } catch (const FormatError&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace cuzk::formats;
    const std::span<const uint8_t> in(data, size);
    try {
        const circom::BinFile f = circom::read_bin_layout(in, "fuzz");
        FUZZ_CHECK(f.file_size == size);
        (void)circom::detect_curve(in, "fuzz");
    } catch (const FormatError&) {
    }
    if (size > (64u << 10)) return 0;
    read_on<cuzk::groth16::Bls12_381>(in);
    read_on<cuzk::groth16::Bn254>(in);
    return 0;
}
