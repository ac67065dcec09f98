/* Internal: one fa.gridwise_attention as fa-lower-attention sees it, shared
 * by the portable kernel (Kernels/Portable/AttentionPortable.c) and the
 * tensor-core kernels (Kernels/MmaSync/AttentionMma.c, Kernels/Wgmma). */
#ifndef FA_LIB_TRANSFORMS_ATTENTIONKERNEL_H
#define FA_LIB_TRANSFORMS_ATTENTIONKERNEL_H

#include "Lowering/Lowering.h"
#include "Support/IRText.h"
#include "Support/Template.h"

#include "fa-c/Dialect.h"

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct {
  MlirOperation op;
  MlirValue q, k, v, bias, kvLen;
  MlirType elt, outElt, biasElt, kvElt; /* biasElt/kvElt null when absent */
  bool kvPerHead;                        /* kv_len is [B, Hq], not [B] */
  bool hasLse, causal, kTransposed;
  /* The tensor-core kernel: its buffers have a unit innermost stride. */
  bool mma;
  /* Hopper (sm_90a): the main kernel is the wgmma one where it applies. */
  bool hopper;
  int64_t causalOffset, d, dv;
  /* Tiles: query rows and keys per workgroup step, warps per workgroup,
   * K / V buffer stages and key chunks of P V (tensor-core kernel),
   * workgroups resident per SM (Hopper kernel). */
  int64_t bm, bn, warps, stages, pvSplit, ctasPerSm;
  /* A persistent grid: a workgroup per SM walking work items (Hopper). */
  bool persistent;
  /* Shared-memory tiles swizzled instead of padded (tensor-core decode). */
  bool swizzle;
  double scale;
} FaAttentionKernel;

/* Static size of dim `d` of Q, K or V (`t`) of the op, wherever its layout
 * keeps it; -1 when dynamic. (The kernels see every tensor as
 * [B, H, S, D]: a view of what the op's layout attributes say.) */
int64_t faAttentionSize(const FaAttentionKernel *k, FaAttentionTensor t, FaAttentionDim d);

/* "%q: !Q, %k: !K, %v: !V[, %bias: !BIAS][, %kvl: !KVL], %o: !O[, %lse: !LSE]" */
void faAttentionAppendArgs(FaText *t, const FaAttentionKernel *k);

/* An integer attribute of the op, or `dflt` when it has none. */
int64_t faAttentionIntAttr(const FaAttentionKernel *k, const char *name, int64_t dflt);

/* Portable kernel (Kernels/Portable/AttentionPortable.c): appends kernel
 * `name` for `target` with k's tiles (bm, bn) to `t`; NULL or an error. */
const char *faAttentionPortableAppend(FaText *t, const FaAttentionKernel *k, FaTarget target,
                                      const char *name);

/* Tensor-core kernel (GPU/AttentionMma.c). Why the op cannot take it (NULL
 * when it can), for chip-independent reasons: element types, head dims,
 * layout. */
const char *faAttentionMmaUnsupported(const FaAttentionKernel *k);
/* Whether the op carries the mma.sync kernel's tuning attributes (block_m,
 * block_n, warps, stages, pv_split). */
bool faAttentionMmaIsTuned(const FaAttentionKernel *k);
/* Chooses the tiles (tuning table, then the op's attributes) and checks
 * them; returns why they are unusable, or NULL. */
const char *faAttentionMmaChooseTiles(FaAttentionKernel *k);
/* Appends kernel `name` (its entry, main and decode kernels, and their
 * helpers) to `t`; NULL or an error. */
const char *faAttentionMmaAppend(FaText *t, const FaAttentionKernel *k, const char *name);
/* Shared by the tensor-core kernels: the variables every kernel template
 * takes (name, types, scale, arguments, features), and the register
 * fragments of k's tiles with rm 16-row slices per warp. */
void faAttentionMmaSetCommon(FaTemplateVars *vars, const FaAttentionKernel *k,
                             const char *name);
void faAttentionMmaSetFragments(FaTemplateVars *vars, const FaAttentionKernel *k, long rm);

/* Hopper kernel (GPU/AttentionWgmma.c): why it cannot take `k` (NULL when
 * it can), and its text as kernel `name`. */
const char *faAttentionWgmmaUnsupported(const FaAttentionKernel *k);
const char *faAttentionWgmmaAppend(FaText *t, const FaAttentionKernel *k, const char *name);

#endif
