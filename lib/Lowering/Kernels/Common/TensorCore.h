/* Internal: what the tensor-core kernels share (TensorCore.c). */
#ifndef FA_LIB_LOWERING_KERNELS_COMMON_TENSORCORE_H
#define FA_LIB_LOWERING_KERNELS_COMMON_TENSORCORE_H

#include "Lowering/AttentionKernel.h"

/* Bytes of an element of Q, K and V, and of O. */
int64_t faTensorCoreEltBytes(const FaAttentionKernel *k);
int64_t faTensorCoreOutBytes(const FaAttentionKernel *k);
/* The causal offset clamped to +-2^30 (beyond any i32 index). */
long faTensorCoreClampOffset(int64_t off);

/* The variables every kernel template takes (name, types, scale, arguments,
 * features), for a template of kernel `kind` (mma.sync or wgmma). */
void faTensorCoreSetCommon(FaTemplateVars *vars, const FaAttentionKernel *k, const char *name,
                           FaKernelKind kind);
/* The kernel `name`'s score_mod on a fragment, @NAME_mod (and
 * @NAME_mod_tile for the tile-uniform copy), from attention_score_mod.mlir
 * with the kernel's `vars` (its fragments, NATURAL); NULL or an error.
 * Nothing without a score_mod. */
const char *faTensorCoreAppendScoreMod(FaText *t, FaTemplateVars *vars, const FaAttentionKernel *k,
                                       const char *name);
/* The register fragments of k's tiles with rm 16-row slices per warp. */
void faTensorCoreSetFragments(FaTemplateVars *vars, const FaAttentionKernel *k, long rm);

#endif
