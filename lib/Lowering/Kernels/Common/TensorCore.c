/* What the tensor-core kernels share (mma.sync, Kernels/MmaSync; wgmma,
 * Kernels/Wgmma): the variables every kernel template takes (name, types,
 * scale, arguments, features), the register fragments of the scores and the
 * output, and the entry that runs the main kernel or the decode kernel by M
 * (attention_dispatch.mlir). */
#include "Lowering/Kernels/Common/TensorCore.h"
#include "Support/Template.h"

#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>

/* P = exp2(S - m) <= 2^TC_MAX_SLACK where m lags the row's max (f16 holds
 * up to 65504, bf16 far more; f32 sums of such P stay exact enough). */
enum { TC_MAX_SLACK = 8 };
/* Causal workgroups run longest first in chunks of (batch, head) pairs whose
 * K and V take at most this much of L2 (H100: 50 MB, A100: 40 MB). */
enum { TC_L2_BUDGET = 16 << 20 };

int64_t faTensorCoreEltBytes(const FaAttentionKernel *k) {
  return mlirFloatTypeGetWidth(k->elt) / 8;
}

int64_t faTensorCoreOutBytes(const FaAttentionKernel *k) {
  return mlirTypeIsAF32(k->outElt) ? 4 : faTensorCoreEltBytes(k);
}

/* Which fragment entry a thread's element i of a [16*RM*warps x cols] tile
 * is: slice r, column tile j, entry e (see blockwise_mma.mlir). */
typedef enum { ROW_OFFSET, COL_OFFSET, COL_MINUS_ROW, ROW_STAT, STAT_ROW_OFFSET } FragField;

static long fragField(FragField f, long i, long ct) {
  long e = i % 4, j = (i / 4) % ct, r = i / 4 / ct;
  switch (f) {
  case ROW_OFFSET: return r * 16 + (e / 2) * 8;
  case COL_OFFSET: return j * 8 + e % 2;
  case COL_MINUS_ROW: return j * 8 + e % 2 - (r * 16 + (e / 2) * 8);
  case ROW_STAT: return r * 2 + e / 2;
  default: return (i / 2) * 16 + (i % 2) * 8; /* row of row-vector entry i */
  }
}

/* NAME = "v0, v1, ..." over the n entries of a fragment with ct column tiles. */
static void setFragList(FaTemplateVars *vars, const char *name, FragField f, long n,
                        long ct) {
  FaText t;
  faTextInit(&t);
  for (long i = 0; i < n; ++i)
    faTextAppend(&t, "%s%ld", i ? ", " : "", fragField(f, i, ct));
  faTemplateVarsSetText(vars, name, t.data);
  faTextDestroy(&t);
}

/* P V runs in pv_split chunks of BNC keys: S_CHUNK<c> lists the entries of an
 * S fragment that belong to chunk c, in the fragment order of a [rows x BNC]
 * tile. */
static void setChunks(FaTemplateVars *vars, const FaAttentionKernel *k, long ns) {
  long ct = (long)k->bn / 8, chunks = (long)k->pvSplit, ctc = ct / chunks;
  for (long c = 0; c < chunks; ++c) {
    FaText t;
    faTextInit(&t);
    for (long i = 0, n = 0; i < ns; ++i)
      if ((i / 4) % ct / ctc == c)
        faTextAppend(&t, "%s%ld", n++ ? ", " : "", i);
    faTemplateVarsSetText(vars, c ? "S_CHUNK1" : "S_CHUNK0", t.data);
    faTextDestroy(&t);
  }
  faTemplateVarsSetInt(vars, "PV_CHUNKS", chunks);
  faTemplateVarsSetInt(vars, "NSC", ns / chunks);
  faTemplateVarsSetInt(vars, "BNC", (long)k->bn / chunks);
  faTemplateVarsSetFlag(vars, "PV_SPLIT", chunks == 2);
}

/* The entry's calls: CALL_ARGS "%q, %k, %v[, %bias][, %kvl][, %capI...], %o[, %lse]"
 * (the kernels' ARGS in order), PACKED_ARGS the same with the packed views of
 * Q, O and lse, TYPES theirs. */
static void setCallArgs(FaTemplateVars *vars, const FaAttentionKernel *k) {
  FaText opt, optTypes;
  faTextInit(&opt);
  faTextInit(&optTypes);
  if (k->biasElt.ptr)
    faTextAppend(&opt, ", %%bias"), faTextAppend(&optTypes, ", !BIAS");
  if (k->kvElt.ptr)
    faTextAppend(&opt, ", %%kvl"), faTextAppend(&optTypes, ", !KVL");
  if (k->sinksElt.ptr)
    faTextAppend(&opt, ", %%sinks"), faTextAppend(&optTypes, ", !SINKS");
  faAttentionAppendCaptures(&opt, k, FA_CAPTURES_VALUES);
  faAttentionAppendCaptures(&optTypes, k, FA_CAPTURES_TYPES);
  faTemplateVarsSet(vars, "CALL_ARGS", "%%q, %%k, %%v%s, %%o%s", opt.data,
                    k->hasLse ? ", %lse" : "");
  faTemplateVarsSet(vars, "PACKED_ARGS", "%%qp, %%k, %%v%s, %%op%s", opt.data,
                    k->hasLse ? ", %lsep" : "");
  faTemplateVarsSet(vars, "TYPES", "!Q, !K, !V%s, !O%s", optTypes.data,
                    k->hasLse ? ", !LSE" : "");
  faTextDestroy(&opt);
  faTextDestroy(&optTypes);
}

long faTensorCoreClampOffset(int64_t off) {
  const int64_t lim = (int64_t)1 << 30; /* |offset| beyond any i32 index */
  return (long)(off > lim ? lim : off < -lim ? -lim : off);
}


static void setFeatures(FaTemplateVars *vars, const FaAttentionKernel *k) {
  faTemplateVarsSetInt(vars, "KV_ROW_BYTES", (long)(faTensorCoreEltBytes(k) * (k->d + k->dv)));
  faTemplateVarsSetInt(vars, "L2_BUDGET", (long)TC_L2_BUDGET);
  faAttentionSetFeatures(vars, k, faTensorCoreClampOffset(k->causalOffset));
}

/* The register fragments of a workgroup of k->warps warps, each owning rm
 * 16-row slices of the [bm x bn] scores and [bm x dv] output (shared with
 * the Hopper kernel, whose warps own one slice each). */
void faTensorCoreSetFragments(FaTemplateVars *vars, const FaAttentionKernel *k, long rm) {
  long ns = rm * (long)k->bn / 2, no = rm * (long)k->dv / 2;
  faTemplateVarsSetInt(vars, "NS", ns);
  faTemplateVarsSetInt(vars, "NO", no);
  faTemplateVarsSetInt(vars, "NR", 2 * rm);
  faTemplateVarsSetInt(vars, "NO_PAIRS", no / 2);
  setFragList(vars, "S_ROWS", ROW_OFFSET, ns, (long)k->bn / 8);
  setFragList(vars, "S_COLS", COL_OFFSET, ns, (long)k->bn / 8);
  setFragList(vars, "S_COLS_MINUS_ROWS", COL_MINUS_ROW, ns, (long)k->bn / 8);
  setFragList(vars, "S_ROW_STAT", ROW_STAT, ns, (long)k->bn / 8);
  setChunks(vars, k, ns);
  setFragList(vars, "O_ROWS", ROW_OFFSET, no, (long)k->dv / 8);
  setFragList(vars, "O_COLS", COL_OFFSET, no, (long)k->dv / 8);
  setFragList(vars, "O_ROW_STAT", ROW_STAT, no, (long)k->dv / 8);
  /* Row-vector entry r*2 + h: one entry per row of the fragment. */
  setFragList(vars, "R_ROWS", STAT_ROW_OFFSET, 2 * rm, 1);
  faTemplateVarsSetInt(vars, "PAIR_ALIGN", 2 * (long)faTensorCoreOutBytes(k));
}

void faTensorCoreSetCommon(FaTemplateVars *vars, const FaAttentionKernel *k,
                             const char *name, FaKernelKind kind) {
  faTemplateVarsSet(vars, "NAME", "%s", name);
  /* The template's type aliases, one set per kernel of a module. */
  faTemplateVarsSet(vars, "P", "%s_", name);
  faTemplateVarsSetType(vars, "E", k->elt);
  faTemplateVarsSetType(vars, "OE", k->outElt);
  /* Without a bias and with a positive scale, the max runs on raw scores
   * and the scale folds into the exponent (one FFMA per score). */
  /* With a score_mod and no bias the Hopper kernel scales the scores into
   * natural units (what score_mod takes), and log2(e) folds into the
   * exponent instead (two FMULs a score fewer; the mma.sync kernels spill
   * with it, 2026-11-28: they keep the log2 domain). */
  bool funcs = !mlirOperationIsNull(k->maskFn) || !mlirOperationIsNull(k->modFn);
  bool natural = !mlirOperationIsNull(k->modFn) && !k->biasElt.ptr && kind == FA_KERNEL_WGMMA;
  bool prescale = k->biasElt.ptr || !(k->scale > 0) || !mlirOperationIsNull(k->modFn);
  double scaleLog2e = k->scale * FA_LOG2E;
  faTemplateVarsSet(vars, "SCORE_SCALE", "%.9e", natural ? k->scale : scaleLog2e);
  faTemplateVarsSetFlag(vars, "PRESCALE", prescale);
  faTemplateVarsSetFlag(vars, "NATURAL", natural);
  /* How far (log2) a row's running max may lag behind its true max. */
  faTemplateVarsSetInt(vars, "MAX_SLACK", TC_MAX_SLACK);
  faTemplateVarsSet(vars, "EXP_SCALE", "%.9e", natural ? FA_LOG2E : prescale ? 1.0 : scaleLog2e);
  faAttentionSetArgs(vars, k);
  faAttentionSetFunctionVars(vars, k);
  faTemplateVarsSetFlag(vars, "FUNCS", funcs);
  /* A Hopper warp owns 16 consecutive rows (the wgmma accumulator's): the
   * tile-uniform test of score_mod covers those, not the work item's. */
  faTemplateVarsSetFlag(vars, "WARP_TILE_TEST", kind == FA_KERNEL_WGMMA);
  /* The row test of a data mask's mixed tiles (attention_scores.mlir): the
   * Hopper kernel's (measured there; the mma.sync kernels spill with it). */
  faTemplateVarsSetFlag(vars, "ROW_TEST", kind == FA_KERNEL_WGMMA && faAttentionUsesKeyTable(k));
  setCallArgs(vars, k);
  setFeatures(vars, k);
}

const char *faTensorCoreAppendScoreMod(FaText *t, FaTemplateVars *vars, const FaAttentionKernel *k,
                                       const char *name) {
  if (mlirOperationIsNull(k->modFn))
    return NULL;
  const char *missing = NULL;
  for (int tile = 0; tile < 1 + faAttentionModIsTiled(k) && !missing; ++tile) {
    faTemplateVarsSet(vars, "FRAG_FN", "%s_mod%s", name, tile ? "_tile" : "");
    faTemplateVarsSet(vars, "MOD_CALLEE", "%s_mod%s", k->name, tile ? "_tile" : "");
    missing = faTextAppendTemplate(t, faTemplateAttentionScoreMod, vars);
  }
  return missing;
}

/* Whether a decode step of grouped heads may pack its heads into rows:
 * nothing in the op may tell the heads or the rows apart. */
static bool mayPackHeads(const FaAttentionKernel *k, int64_t m) {
  if ((m >= 0 && m != 1) || !mlirOperationIsNull(k->maskFn) || !mlirOperationIsNull(k->modFn) ||
      k->sinksElt.ptr)
    return false;
  if (k->kvElt.ptr && k->kvPerHead)
    return false;
  if (k->biasElt.ptr) {
    MlirType b = mlirValueGetType(k->bias);
    if (mlirShapedTypeGetDimSize(b, 1) != 1 || mlirShapedTypeGetDimSize(b, 2) != 1)
      return false;
  }
  return true;
}

const char *faAttentionTensorCoreAppend(FaText *t, const FaAttentionKernel *k, const char *name) {
  int64_t m = faAttentionSize(k, FA_ATTENTION_Q, FA_DIM_SEQ);
  bool hasMain = k->hasMain, hasDecode = k->hasDecode;
  char variant[192];
  const char *missing = NULL;
  if (hasMain) {
    snprintf(variant, sizeof variant, "%s_main", name);
    if (k->kernel == FA_KERNEL_WGMMA)
      missing = faAttentionWgmmaAppend(t, k, variant);
    else
      missing = faAttentionMmaAppendMain(t, k, variant);
  }
  if (hasDecode && !missing) {
    snprintf(variant, sizeof variant, "%s_decode", name);
    missing = faAttentionMmaAppendDecode(t, k, variant);
  }
  if (missing)
    return missing;
  FaTemplateVars vars;
  faTemplateVarsInit(&vars);
  faTemplateVarsSet(&vars, "NAME", "%s", name);
  faTemplateVarsSetType(&vars, "E", k->elt);
  faTemplateVarsSetType(&vars, "OE", k->outElt);
  faAttentionSetArgs(&vars, k);
  faAttentionSetFunctionVars(&vars, k);
  setCallArgs(&vars, k);
  faTemplateVarsSetFlag(&vars, "HAS_MAIN", hasMain);
  faTemplateVarsSetFlag(&vars, "HAS_DECODE", hasDecode);
  faTemplateVarsSetFlag(&vars, "PACK", hasDecode && mayPackHeads(k, m));
  faTemplateVarsSetFlag(&vars, "CAUSAL", k->causal);
  faTemplateVarsSetFlag(&vars, "LSE", k->hasLse);
  faTemplateVarsSetInt(&vars, "CAUSAL_OFFSET", faTensorCoreClampOffset(k->causalOffset));
  faTemplateVarsSetInt(&vars, "DECODE_MAX_M", FA_DECODE_MAX_M);
  missing = faTextAppendTemplate(t, faTemplateAttentionDispatch, &vars);
  faTemplateVarsDestroy(&vars);
  return faTemplateError("the tensor-core dispatch", missing);
}
