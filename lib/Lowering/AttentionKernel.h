/* Internal: one fa.gridwise_attention as fa-lower-attention sees it, shared
 * by the selection (Selection.c) and the kernels (Kernels/). */
#ifndef FA_LIB_LOWERING_ATTENTIONKERNEL_H
#define FA_LIB_LOWERING_ATTENTIONKERNEL_H

#include "Lowering/Lowering.h"
#include "Lowering/TileTable.h"
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
  /* The choice (Selection.c): the main kernel, and which of the main and the
   * decode kernel the entry has (the portable kernel: main only). */
  FaKernelKind kernel;
  bool hasMain, hasDecode;
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
  /* The mask and score_mod functions (null when absent), the sinks (null
   * when absent) and the captures the functions take. */
  MlirOperation maskFn, modFn;
  MlirValue sinks;
  MlirType sinksElt;
  intptr_t numCaptures;
  MlirValue captures[FA_ATTENTION_MAX_CAPTURES];
  /* Tile summaries of the captures the mask reads (MaskSummary.c): capture
   * c has summary summaryOf[c] (-1: none), numSummaries in all. */
  int numSummaries;
  int summaryOf[FA_ATTENTION_MAX_CAPTURES];
  /* Whether the kernels run on a GPU (the summaries are made there). */
  bool onGpu;
  /* The kernel's name: its functions are @<name>_mask and @<name>_mod. */
  char name[128];
} FaAttentionKernel;

/* log2(e): the kernels' exponentials are exp2 of scores scaled by it. */
#define FA_LOG2E 1.4426950408889634

/* Whether k runs on the tensor-core kernels (chosen by faAttentionSelect),
 * whose buffers have a unit innermost stride. */
static inline bool faAttentionUsesTensorCores(const FaAttentionKernel *k) {
  return k->kernel != FA_KERNEL_PORTABLE;
}

/* Query rows up to which the tensor-core entry runs the decode kernel. */
enum { FA_DECODE_MAX_M = 16 };

/* Chooses k's kernels and tiles for `target` (Selection.c); returns why the
 * op cannot be lowered, or NULL. */
const char *faAttentionSelect(FaAttentionKernel *k, FaTarget target);
/* Whether K, stored transposed, is to be transposed before the op: the
 * tensor-core kernels take it then. */
bool faAttentionSelectUntransposesK(const FaAttentionKernel *k, FaTarget target);

/* Static size of dim `d` of Q, K or V (`t`) of the op, wherever its layout
 * keeps it; -1 when dynamic. (The kernels see every tensor as
 * [B, H, S, D]: a view of what the op's layout attributes say.) */
int64_t faAttentionSize(const FaAttentionKernel *k, FaAttentionTensor t, FaAttentionDim d);

/* "%q: !Q, %k: !K, %v: !V[, %bias: !BIAS][, %kvl: !KVL], %o: !O[, %lse: !LSE]" */
void faAttentionAppendArgs(FaText *t, const FaAttentionKernel *k);
/* Sets the template variable ARGS to them. */
void faAttentionSetArgs(FaTemplateVars *vars, const FaAttentionKernel *k);
/* Sets the variables of the op's features that every kernel template takes:
 * CAUSAL, CAUSAL_OFFSET (`causalOffset`), KVLEN, KVLEN_PER_HEAD, KV_ELT,
 * BIAS, BIAS_F32, BIAS_ELT, LSE, OUT_F32. */
void faAttentionSetFeatures(FaTemplateVars *vars, const FaAttentionKernel *k, long causalOffset);

/* The op's functions for the kernels (ScoreFunctions.c): appends
 * @NAME_mask and @NAME_mod, copies of its mask and score_mod functions on
 * the kernel's buffers (a captured tensor is a memref argument, read at
 * indices clamped into its bounds), marked to be inlined. */
void faAttentionAppendFunctions(MlirOperation module, const FaAttentionKernel *k);
/* Whether k's kernels take score_mod through its tile-uniform copy
 * (@NAME_mod_tile and its test @NAME_mod_tile_range): tensor-core kernels
 * whose score_mod reads a captured tensor at a position computed from the
 * query or key (ScoreFunctions.c). */
bool faAttentionModIsTiled(const FaAttentionKernel *k);
/* The test of the tile-uniform copy (MaskRange.c): appends
 *   func.func private @NAME_mod_tile_range(%b, %h, %ilo, %ihi, %jlo, %jhi,
 *                                          captures...) -> i1
 * true where every integer score_mod derives from the query and key and
 * hands to another kind of op is one value over the tile; NULL or why it
 * could not be made. Nothing unless faAttentionModIsTiled. */
const char *faAttentionAppendModTileRange(MlirOperation module, const FaAttentionKernel *k);
/* The mask's interval extension @NAME_mask_range (MaskRange.c), for the
 * kernels' key-tile ranges and the tiles they need not mask; NULL or why it
 * could not be made. Nothing without a mask. */
const char *faAttentionAppendMaskRange(MlirOperation module, const FaAttentionKernel *k);
/* The captures' kernel types: the memref of a captured tensor (any shape,
 * unit inner stride on tensor cores), a scalar's own type, in `t`. */
void faAttentionAppendCaptureType(FaText *t, const FaAttentionKernel *k, intptr_t i);
/* The captures as the kernels' text lists them, each after ", ": their
 * values (%cap0, ...), their kernel types (!C0, ...) or both (%cap0: !C0). */
/* (The _FULL forms spell the capture types out: for functions parsed on
 * their own, without the kernel's aliases.) */
typedef enum {
  FA_CAPTURES_VALUES,
  FA_CAPTURES_TYPES,
  FA_CAPTURES_PARAMS,
  FA_CAPTURES_FULL_TYPES,
  FA_CAPTURES_FULL_PARAMS
} FaCapturesText;
void faAttentionAppendCaptures(FaText *t, const FaAttentionKernel *k, FaCapturesText form);
/* The same followed by the summaries (%sum0: memref<?xi64>, ...): what the
 * mask's interval function takes. */
void faAttentionAppendRangeCaptures(FaText *t, const FaAttentionKernel *k, FaCapturesText form);
/* Sets MASK, MOD, MOD_TILE, SINKS (flags), MASK_FN, MOD_FN, MOD_INDICES,
 * CAPS (", %cap0, ..."), CAP_TYPES (", !C0, ..."), CAP_PARAMS (", %cap0:
 * !C0, ..."), RANGE_CAPS and RANGE_CAP_TYPES (with the
 * summaries) and the summaries' SUMMARY_DECLS, SUMMARY_BEGIN and SUMMARY_END
 * for k's templates. */
void faAttentionSetFunctionVars(FaTemplateVars *vars, const FaAttentionKernel *k);

/* Whether k's GPU kernels read their key tiles from a key-range table made
 * before their launch (MaskSummary.c, attention_key_table.mlir) instead of
 * searching for them: tensor-core kernels of a mask with tile summaries. The
 * table is %keytab (memref<?xi32>), after the summaries in the range lists. */
bool faAttentionUsesKeyTable(const FaAttentionKernel *k);
/* Whether the key-range table also holds the work order of the Hopper
 * kernel's persistent grid, for work items of FA_WORK_ORDER_ROWS rows
 * (attention_key_table.mlir; the persistent rows of the tile table). */
enum { FA_WORK_ORDER_ROWS = 128 };
bool faAttentionUsesWorkOrder(const FaAttentionKernel *k);
/* The capture `doc` of a mask that is exactly doc[i] == doc[j] (packed
 * documents: a rank-1 tensor of integers read at the query and at the key),
 * else -1: where the ids are sorted, the key-range table's work order cuts
 * work items at documents' starts (attention_key_table.mlir, DOC_RUNS). */
intptr_t faAttentionDocumentCapture(const FaAttentionKernel *k);
/* Data masks (MaskSummary.c): chooses the captures to summarize (those of
 * integer elements the mask reads), in k->summaryOf. */
void faAttentionPlanSummaries(FaAttentionKernel *k);
/* Appends the functions that make k's summaries; NULL or why they could
 * not be made. */
const char *faAttentionAppendSummaries(MlirOperation module, const FaAttentionKernel *k);
/* Sets SUMMARY_DECLS (their declarations, at module level), SUMMARY_BEGIN
 * (allocate and fill them, in a kernel's host function before its launch)
 * and SUMMARY_END (free them, before its return). */
/* `ownDocuments`: the kernel reads packed documents' own work items (the
 * Hopper kernel's DOC_RUNS), so its host function lets the key-range table
 * find them first; any other kernel of such an op clears their flag, so
 * that the summaries and the entries it reads are made. */
void faAttentionSetSummaryVars(FaTemplateVars *vars, const FaAttentionKernel *k,
                               bool ownDocuments);

/* Tiling hint `hint` of the op, or `dflt` when it has none. */
int64_t faAttentionIntAttr(const FaAttentionKernel *k, FaAttentionHint hint, int64_t dflt);

/* Portable kernel (Kernels/Portable/AttentionPortable.c): appends kernel
 * `name` for `target` with k's tiles (bm, bn) to `t`; NULL or an error. */
const char *faAttentionPortableAppend(FaText *t, const FaAttentionKernel *k, FaTarget target,
                                      const char *name);

/* mma.sync kernel (Kernels/MmaSync/AttentionMma.c). Why the op cannot take it (NULL
 * when it can), for chip-independent reasons: element types, head dims,
 * layout. */
const char *faAttentionMmaUnsupported(const FaAttentionKernel *k);
/* Whether the op carries the mma.sync kernel's tuning attributes (block_m,
 * block_n, warps, stages, pv_split). */
bool faAttentionMmaIsTuned(const FaAttentionKernel *k);
/* Chooses the main kernel's tiles (the tile table, then the op's
 * attributes) and checks them; returns why they are unusable, or NULL. */
const char *faAttentionMmaChooseTiles(FaAttentionKernel *k);
/* The mma.sync kernel `name` with k's tiles, and its decode kernel (the
 * tile table's decode row, keys split over workgroups); NULL or an error. */
const char *faAttentionMmaAppendMain(FaText *t, const FaAttentionKernel *k, const char *name);
const char *faAttentionMmaAppendDecode(FaText *t, const FaAttentionKernel *k, const char *name);

/* Tensor cores (Kernels/Common/TensorCore.c): appends kernel `name`, the
 * entry that runs the main and decode kernels k->hasMain / k->hasDecode ask
 * for (k->kernel the main one), and their helpers to `t`; NULL or an error. */
const char *faAttentionTensorCoreAppend(FaText *t, const FaAttentionKernel *k, const char *name);

/* Hopper kernel (Kernels/Wgmma/AttentionWgmma.c): why it cannot take `k` (NULL when
 * it can), and its text as kernel `name`. */
const char *faAttentionWgmmaUnsupported(const FaAttentionKernel *k);
const char *faAttentionWgmmaAppend(FaText *t, const FaAttentionKernel *k, const char *name);
/* Whether a Hopper kernel of k is persistent with work items of
 * FA_WORK_ORDER_ROWS rows (it then takes the work order of a key table). */
bool faAttentionWgmmaTakesWorkOrder(const FaAttentionKernel *k);

#endif
