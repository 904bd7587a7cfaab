// Filecoin Merkle trees natively are in the hash layer (cuzk/hash/merkle.hpp); named here as
// the circuits and their tests name them.
#pragma once

#include "cuzk/hash/merkle.hpp"

namespace cuzk::gadgets {

using hash::merkle_node;
using hash::merkle_path;
using hash::MerkleHasher;
using hash::MerkleProof;
using hash::MerkleTree;
using hash::PathElement;
using hash::sha256_node;
using hash::TreeShape;

}  // namespace cuzk::gadgets
