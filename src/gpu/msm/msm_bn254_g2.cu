// The BN254 G2 instantiation of the device MSM (see the end of msm.cu): a translation unit
// of its own so that the heavy instantiations compile in parallel.
#define CUZK_MSM_G2 1
#define CUZK_MSM_BN254 1
#include "msm.cu"  // NOLINT(bugprone-suspicious-include)
