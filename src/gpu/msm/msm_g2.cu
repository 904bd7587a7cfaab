// The G2 instantiation of the device MSM (see the end of msm.cu): a translation unit of
// its own so that the two heavy instantiations compile in parallel.
#define CUZK_MSM_G2 1
#include "msm.cu"  // NOLINT(bugprone-suspicious-include)
