/* Internal: fa.blockwise_* on register fragments, lowered for NVIDIA tensor
 * cores from the templates Kernels/MmaSync/blockwise_mma.mlir (layout
 * "mma_m16n8k16") and Kernels/Wgmma/blockwise_wgmma.mlir (the "wgmma_m64"
 * GEMM and its wait). */
#ifndef FA_LIB_LOWERING_KERNELS_COMMON_BLOCKWISEMMA_H
#define FA_LIB_LOWERING_KERNELS_COMMON_BLOCKWISEMMA_H

#include "Support/IRText.h"

#include "mlir-c/IR.h"

#include <stdbool.h>

#define FA_LAYOUT_MMA "mma_m16n8k16"
/* Hopper's warpgroup fragments (wgmma m64nNk16); fill and reduction are
 * those of FA_LAYOUT_MMA with one 16-row slice per warp. */
#define FA_LAYOUT_WGMMA "wgmma_m64"

/* Whether `op` works on register fragments (has a vector operand). */
bool faBlockwiseIsFragment(MlirOperation op);
/* Why `op` cannot be lowered as a fragment op, or NULL. */
const char *faBlockwiseMmaUnsupported(MlirOperation op);
/* Appends function `name` implementing `op` ((operands) -> result). */
const char *faBlockwiseMmaAppend(FaText *t, MlirOperation op, const char *name);

/* Appends function `name` ((vector<nc x f32>) -> same): waits until at most
 * `pending` wgmma groups are pending, the fragment's registers tied through
 * (the partner of fa.blockwise_gemm {async} on "wgmma_m64" fragments). */
const char *faBlockwiseWgmmaAppendWait(FaText *t, const char *name, long nc, int pending);

#endif
