// The device NTT over BN254's Fr: ntt.cu compiled for that field (see its head).
#define CUZK_NTT_BN254 1
#include "ntt.cu"  // NOLINT(bugprone-suspicious-include)
