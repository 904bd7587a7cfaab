// Explicit instantiations keep the field templates compiled once for the library.
#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"
#include "cuzk/ff/fp2.hpp"

namespace cuzk {
template class Field<FpTraits>;
template class Field<FrTraits>;
template class Field<bn254::FpTraits>;
template class Field<bn254::FrTraits>;
}  // namespace cuzk
