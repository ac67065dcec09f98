/* Internal: fa.blockwise_* on memref tiles, lowered for every target from the
 * templates Kernels/Portable/blockwise_{fill,gemm,reduction}.mlir (loops run
 * by the threads of a workgroup, Lowering.h). */
#ifndef FA_LIB_LOWERING_KERNELS_PORTABLE_BLOCKWISEPORTABLE_H
#define FA_LIB_LOWERING_KERNELS_PORTABLE_BLOCKWISEPORTABLE_H

#include "Lowering/Lowering.h"
#include "Support/IRText.h"

#include "mlir-c/IR.h"

/* Appends function `name` implementing `op` (a fill, GEMM or reduction on
 * static f32 memref tiles) for `target`; NULL or an error. */
const char *faBlockwisePortableAppend(FaText *t, MlirOperation op, const char *name,
                                      FaTarget target);

#endif
