/* fa-lower-attention: fa.gridwise_attention -> the FlashAttention-2 loop.
 *
 * Each op becomes a call of a private function on tensors (`@NAME_t`) that
 * takes buffers of its operands (bufferization.to_buffer), allocates the
 * results and calls the kernel `@NAME` on memrefs, then wraps the results
 * with bufferization.to_tensor (restrict, writable). That is how the op meets
 * bufferization: after this pass no fa op works on tensors, and one-shot
 * bufferization sees only upstream ops. `inline` then removes the wrapper.
 *
 * The kernel owns a [block_m] tile of query rows per workgroup (CPU:
 * scf.parallel over (b, h, m-tile); GPU: gpu.launch with that grid) and loops
 * over [block_n] key tiles:
 *   S = Q K^T (fa.blockwise_gemm; Q pre-scaled by scale*log2(e)),
 *   bias*log2(e) added, keys past N / kv_len / the causal diagonal -> -inf,
 *   m' = max(m, rowmax S) (fa.blockwise_reduction), P = exp2(S - m'),
 *   alpha = exp2(m - m'), l = l*alpha + rowsum P, O = O*alpha + P V.
 * Key tiles past the causal diagonal or the KV length are not visited. At the
 * end O / l (0 where l = 0: fully masked rows), lse = (m + log2 l) * ln 2.
 * Tiles live in workgroup memory; all arithmetic is f32. */
#include "Lowering/AttentionKernel.h"
#include "Support/Builders.h"
#include "Support/IRText.h"
#include "Lowering/Lowering.h"
#include "Support/PassSupport.h"
#include "Registry/Passes.h"

#include "fa-c/Dialect.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- what one op asks for -------------------------------------------------- */

typedef FaAttentionKernel Kernel;

static int64_t dimOf(MlirValue v, intptr_t d) {
  MlirType t = mlirValueGetType(v);
  return mlirShapedTypeIsDynamicDim(t, d) ? -1 : mlirShapedTypeGetDimSize(t, d);
}

static MlirType eltOf(MlirValue v) {
  return mlirShapedTypeGetElementType(mlirValueGetType(v));
}

int64_t faAttentionIntAttr(const Kernel *k, FaAttentionHint hint, int64_t dflt) {
  return faGridwiseAttentionGetIntHint(k->op, hint, dflt);
}

int64_t faAttentionSize(const Kernel *k, FaAttentionTensor t, FaAttentionDim d) {
  MlirValue v = t == FA_ATTENTION_Q ? k->q : t == FA_ATTENTION_K ? k->k : k->v;
  return dimOf(v, faGridwiseAttentionGetAxis(k->op, t, d));
}

static const char *kernelRead(MlirOperation op, Kernel *k, FaTarget target) {
  memset(k, 0, sizeof(*k));
  k->op = op;
  k->q = faGridwiseAttentionGetOperand(op, FA_ATTENTION_SEGMENT_Q);
  k->k = faGridwiseAttentionGetOperand(op, FA_ATTENTION_SEGMENT_K);
  k->v = faGridwiseAttentionGetOperand(op, FA_ATTENTION_SEGMENT_V);
  k->bias = faGridwiseAttentionGetBias(op);
  k->kvLen = faGridwiseAttentionGetKvLen(op);
  bool hasBias = !mlirValueIsNull(k->bias), hasLen = !mlirValueIsNull(k->kvLen);
  k->elt = eltOf(k->q);
  k->outElt = eltOf(mlirOperationGetResult(op, 0));
  if (hasBias)
    k->biasElt = eltOf(k->bias);
  if (hasLen) {
    k->kvElt = eltOf(k->kvLen);
    k->kvPerHead = mlirShapedTypeGetRank(mlirValueGetType(k->kvLen)) == 2;
  }
  k->hasLse = faGridwiseAttentionHasLse(op);
  k->kTransposed = faGridwiseAttentionIsKTransposed(op);
  k->causal = faGridwiseAttentionGetCausalOffset(op, &k->causalOffset);
  k->scale = faGridwiseAttentionGetScale(op);
  k->d = faAttentionSize(k, FA_ATTENTION_Q, FA_DIM_HEAD);
  k->dv = faAttentionSize(k, FA_ATTENTION_V, FA_DIM_HEAD);
  if (k->d < 0 || k->dv < 0)
    return "the head dims D and Dv must be static to be lowered";
  return faAttentionSelect(k, target);
}

/* --- text of the kernel ---------------------------------------------------- */

/* memref<?x..x?xT, strided<[?, ..], offset: ?>>: any buffer of that rank. */
/* With `unitInner`, the innermost stride is 1 (the tensor-core kernel's
 * 16-byte copies and stores need it; bufferized buffers have it). */
static void appendAnyMemref(FaText *t, int rank, MlirType elt, bool unitInner) {
  faTextAppend(t, "memref<");
  for (int i = 0; i < rank; ++i)
    faTextAppend(t, "?x");
  faTextAppendType(t, elt);
  faTextAppend(t, ", strided<[");
  for (int i = 0; i < rank; ++i)
    faTextAppend(t, "%s%s", i ? ", " : "", unitInner && i == rank - 1 ? "1" : "?");
  faTextAppend(t, "], offset: ?>>");
}

static void appendAliases(FaText *t, const Kernel *k, FaTarget target) {
  faTextAppend(t, "!Q = ");
  appendAnyMemref(t, 4, k->elt, k->mma);
  faTextAppend(t, "\n!K = ");
  appendAnyMemref(t, 4, k->elt, k->mma);
  faTextAppend(t, "\n!V = ");
  appendAnyMemref(t, 4, k->elt, k->mma);
  faTextAppend(t, "\n!O = ");
  appendAnyMemref(t, 4, k->outElt, k->mma);
  faTextAppend(t, "\n!LSE = ");
  appendAnyMemref(t, 3, mlirF32TypeGet(mlirOperationGetContext(k->op)), k->mma);
  if (k->kvElt.ptr) {
    faTextAppend(t, "\n!KVL = ");
    appendAnyMemref(t, k->kvPerHead ? 2 : 1, k->kvElt, k->mma);
  }
  if (k->biasElt.ptr) {
    faTextAppend(t, "\n!BIAS = ");
    appendAnyMemref(t, 4, k->biasElt, k->mma);
  }
  faTextAppend(t, "\n");
  if (k->mma)
    return; /* the tensor-core template declares its own tile types */
  const char *space = faTargetIsGpu(target) ? ", #gpu.address_space<workgroup>" : "";
  faTextAppend(t, "!tQ = memref<%ldx%ldxf32%s>\n", (long)k->bm, (long)k->d, space);
  faTextAppend(t, "!tK = memref<%ldx%ldxf32%s>\n", (long)k->bn, (long)k->d, space);
  faTextAppend(t, "!tV = memref<%ldx%ldxf32%s>\n", (long)k->bn, (long)k->dv, space);
  faTextAppend(t, "!tS = memref<%ldx%ldxf32%s>\n", (long)k->bm, (long)k->bn, space);
  faTextAppend(t, "!tA = memref<%ldx%ldxf32%s>\n", (long)k->bm, (long)k->dv, space);
  faTextAppend(t, "!tR = memref<%ldxf32%s>\n", (long)k->bm, space);
}

/* `dst = extf(src)` or a rename when the type is already f32. */
static void appendToF32(FaText *t, const char *dst, const char *src, MlirType elt) {
  if (mlirTypeIsAF32(elt)) {
    faTextAppend(t, "      %%%s = arith.addf %%%s, %%zf : f32\n", dst, src);
    return;
  }
  faTextAppend(t, "      %%%s = arith.extf %%%s : ", dst, src);
  faTextAppendType(t, elt);
  faTextAppend(t, " to f32\n");
}

static void appendEltType(FaText *t, MlirType elt) { faTextAppendType(t, elt); }

/* tile[r, c] = row r < limit ? SRC[...] * mul : 0, for a [rows x cols] tile.
 * `index` is the memref index list, with %row (global row) and %c. */
static void appendTileLoad(FaText *t, const char *tile, const char *tileType,
                           const char *src, const char *srcType, MlirType elt,
                           long rows, long cols, const char *base,
                           const char *limit, const char *index, const char *mul) {
  faTextAppend(t, "  %%%s_n = arith.constant %ld : index\n", tile, rows * cols);
  faTextAppend(t, "  %%%s_w = arith.constant %ld : index\n", tile, cols);
  faTextAppend(t, "  scf.for %%e = %%tid to %%%s_n step %%nth {\n", tile);
  faTextAppend(t, "    %%r = arith.divui %%e, %%%s_w : index\n", tile);
  faTextAppend(t, "    %%c = arith.remui %%e, %%%s_w : index\n", tile);
  faTextAppend(t, "    %%in = arith.cmpi ult, %%r, %%%s : index\n", limit);
  faTextAppend(t, "    %%val = scf.if %%in -> f32 {\n");
  faTextAppend(t, "      %%row = arith.addi %%%s, %%r : index\n", base);
  faTextAppend(t, "      %%x = memref.load %%%s[%s] : %s\n", src, index, srcType);
  appendToF32(t, "xf", "x", elt);
  faTextAppend(t, "      %%xs = arith.mulf %%xf, %%%s : f32\n", mul);
  faTextAppend(t, "      scf.yield %%xs : f32\n    } else {\n      scf.yield %%zf : f32\n    }\n");
  faTextAppend(t, "    memref.store %%val, %%%s[%%r, %%c] : %s\n  }\n", tile, tileType);
}

/* The key range [0, %nend) this workgroup visits. */
static void appendKeyRange(FaText *t, const Kernel *k) {
  faTextAppend(t, "  %%nend0 = arith.addi %%N, %%c0 : index\n");
  const char *cur = "nend0";
  if (k->kvElt.ptr) {
    faTextAppend(t, "  %%kvv = memref.load %%kvl[%%b%s] : !KVL\n", k->kvPerHead ? ", %h" : "");
    faTextAppend(t, "  %%kvi = arith.index_cast %%kvv : ");
    appendEltType(t, k->kvElt);
    faTextAppend(t, " to index\n  %%kvc = arith.maxsi %%kvi, %%c0 : index\n"
                    "  %%nend1 = arith.minsi %%nend0, %%kvc : index\n");
    cur = "nend1";
  }
  if (k->causal) {
    faTextAppend(t, "  %%coff = arith.constant %ld : index\n", (long)k->causalOffset);
    faTextAppend(t, "  %%mlast = arith.addi %%m0, %%rows : index\n"
                    "  %%cend = arith.addi %%mlast, %%coff : index\n"
                    "  %%cendc = arith.maxsi %%cend, %%c0 : index\n");
    faTextAppend(t, "  %%nend2 = arith.minsi %%%s, %%cendc : index\n", cur);
    cur = "nend2";
  }
  faTextAppend(t, "  %%nend = arith.addi %%%s, %%c0 : index\n", cur);
  faTextAppend(t, "  %%NT = arith.ceildivui %%nend, %%cBN : index\n");
}

/* Bias operand indices: a dim of size 1 is broadcast. */
static void appendBiasSetup(FaText *t) {
  static const char *const kIdx[4] = {"b", "h", "", ""};
  for (int d = 0; d < 4; ++d) {
    faTextAppend(t, "  %%bd%d = memref.dim %%bias, %%c%d : !BIAS\n", d, d);
    faTextAppend(t, "  %%bone%d = arith.cmpi eq, %%bd%d, %%c1 : index\n", d, d);
    if (d < 2)
      faTextAppend(t, "  %%bi%d = arith.select %%bone%d, %%c0, %%%s : index\n", d, d, kIdx[d]);
  }
}

/* S[r, c] for keys outside the mask -> -inf; bias added. */
static void appendMaskStep(FaText *t, const Kernel *k) {
  faTextAppend(t, "  %%s_n = arith.constant %ld : index\n", (long)(k->bm * k->bn));
  faTextAppendElementLoop(t, "e", "%s_n");
  faTextAppend(t, "    %%r = arith.divui %%e, %%cBN : index\n"
                  "    %%c = arith.remui %%e, %%cBN : index\n"
                  "    %%i = arith.addi %%m0, %%r : index\n"
                  "    %%j = arith.addi %%n0, %%c : index\n"
                  "    %%vr = arith.cmpi ult, %%r, %%rows : index\n"
                  "    %%vc = arith.cmpi ult, %%c, %%cols : index\n"
                  "    %%v0 = arith.andi %%vr, %%vc : i1\n");
  const char *valid = "v0";
  if (k->causal) {
    faTextAppend(t, "    %%jlim = arith.addi %%i, %%coff : index\n"
                    "    %%vis = arith.cmpi sle, %%j, %%jlim : index\n"
                    "    %%v1 = arith.andi %%v0, %%vis : i1\n");
    valid = "v1";
  }
  faTextAppend(t, "    %%s = memref.load %%st[%%r, %%c] : !tS\n");
  faTextAppend(t, "    %%res = scf.if %%%s -> f32 {\n", valid);
  if (k->biasElt.ptr) {
    faTextAppend(t, "      %%bi2 = arith.select %%bone2, %%c0, %%i : index\n"
                    "      %%bi3 = arith.select %%bone3, %%c0, %%j : index\n"
                    "      %%x = memref.load %%bias[%%bi0, %%bi1, %%bi2, %%bi3] : !BIAS\n");
    appendToF32(t, "xf", "x", k->biasElt);
    /* bias*log2(e), kept finite where the bias is (a finite "lowest" fill
     * must not overflow to -inf: a row of only such keys is not masked). */
    faTextAppend(t, "      %%xl0 = arith.mulf %%xf, %%log2e : f32\n"
                    "      %%xl1 = arith.maximumf %%xl0, %%lowest : f32\n"
                    "      %%xinf = arith.cmpf oeq, %%xf, %%ninf : f32\n"
                    "      %%xl = arith.select %%xinf, %%ninf, %%xl1 : f32\n"
                    "      %%sb = arith.addf %%s, %%xl : f32\n"
                    "      scf.yield %%sb : f32\n");
  } else {
    faTextAppend(t, "      scf.yield %%s : f32\n");
  }
  faTextAppend(t, "    } else {\n      scf.yield %%ninf : f32\n    }\n"
                  "    memref.store %%res, %%st[%%r, %%c] : !tS\n  }\n");
}

/* %NAME = max m, with -inf replaced by 0 so that exp2(x - m) stays 0 for
 * masked x instead of NaN. */
static void appendSafeMax(FaText *t, const char *name, const char *m) {
  faTextAppend(t, "    %%%s_inf = arith.cmpf oeq, %%%s, %%ninf : f32\n", name, m);
  faTextAppend(t, "    %%%s = arith.select %%%s_inf, %%zf, %%%s : f32\n", name, name, m);
}

static void appendSoftmaxStep(FaText *t, const Kernel *k, FaTarget target) {
  /* m' = max(m, rowmax S) */
  faTextAppendElementLoop(t, "e", "%cBM");
  faTextAppend(t, "    %%x = memref.load %%mrow[%%e] : !tR\n"
                  "    memref.store %%x, %%mnew[%%e] : !tR\n  }\n");
  faTextAppendBarrier(t, target);
  faTextAppend(t, "  \"fa.blockwise_reduction\"(%%st, %%mnew) {kind = \"max\", axis = 1 : i64}"
                  " : (!tS, !tR) -> ()\n");
  /* P = exp2(S - m') */
  faTextAppendElementLoop(t, "e", "%s_n");
  faTextAppend(t, "    %%r = arith.divui %%e, %%cBN : index\n"
                  "    %%c = arith.remui %%e, %%cBN : index\n"
                  "    %%mn = memref.load %%mnew[%%r] : !tR\n");
  appendSafeMax(t, "ms", "mn");
  faTextAppend(t, "    %%s = memref.load %%st[%%r, %%c] : !tS\n"
                  "    %%d = arith.subf %%s, %%ms : f32\n"
                  "    %%p = math.exp2 %%d : f32\n"
                  "    memref.store %%p, %%st[%%r, %%c] : !tS\n  }\n");
  /* O *= alpha */
  faTextAppend(t, "  %%a_n = arith.constant %ld : index\n", (long)(k->bm * k->dv));
  faTextAppendElementLoop(t, "e", "%a_n");
  faTextAppend(t, "    %%r = arith.divui %%e, %%cDV : index\n"
                  "    %%c = arith.remui %%e, %%cDV : index\n"
                  "    %%mo = memref.load %%mrow[%%r] : !tR\n"
                  "    %%mn = memref.load %%mnew[%%r] : !tR\n");
  appendSafeMax(t, "ms", "mn");
  faTextAppend(t, "    %%dm = arith.subf %%mo, %%ms : f32\n"
                  "    %%al = math.exp2 %%dm : f32\n"
                  "    %%a = memref.load %%acc[%%r, %%c] : !tA\n"
                  "    %%as = arith.mulf %%a, %%al : f32\n"
                  "    memref.store %%as, %%acc[%%r, %%c] : !tA\n  }\n");
  faTextAppendBarrier(t, target);
  /* l *= alpha, m = m' */
  faTextAppendElementLoop(t, "e", "%cBM");
  faTextAppend(t, "    %%mo = memref.load %%mrow[%%e] : !tR\n"
                  "    %%mn = memref.load %%mnew[%%e] : !tR\n");
  appendSafeMax(t, "ms", "mn");
  faTextAppend(t, "    %%dm = arith.subf %%mo, %%ms : f32\n"
                  "    %%al = math.exp2 %%dm : f32\n"
                  "    %%l = memref.load %%lrow[%%e] : !tR\n"
                  "    %%ls = arith.mulf %%l, %%al : f32\n"
                  "    memref.store %%ls, %%lrow[%%e] : !tR\n"
                  "    memref.store %%mn, %%mrow[%%e] : !tR\n  }\n");
  faTextAppendBarrier(t, target);
  faTextAppend(t, "  \"fa.blockwise_reduction\"(%%st, %%lrow) {kind = \"sum\", axis = 1 : i64}"
                  " : (!tS, !tR) -> ()\n"
                  "  \"fa.blockwise_gemm\"(%%st, %%vt, %%acc) : (!tS, !tV, !tA) -> ()\n");
}

static void appendEpilogue(FaText *t, const Kernel *k, FaTarget target) {
  faTextAppendElementLoop(t, "e", "%a_n0");
  faTextAppend(t, "    %%r = arith.divui %%e, %%cDV : index\n"
                  "    %%c = arith.remui %%e, %%cDV : index\n"
                  "    %%in = arith.cmpi ult, %%r, %%rows : index\n"
                  "    scf.if %%in {\n"
                  "      %%l = memref.load %%lrow[%%r] : !tR\n"
                  "      %%a = memref.load %%acc[%%r, %%c] : !tA\n"
                  "      %%z = arith.cmpf oeq, %%l, %%zf : f32\n"
                  "      %%dv = arith.divf %%a, %%l : f32\n"
                  "      %%y = arith.select %%z, %%zf, %%dv : f32\n"
                  "      %%i = arith.addi %%m0, %%r : index\n");
  if (mlirTypeIsAF32(k->outElt)) {
    faTextAppend(t, "      memref.store %%y, %%o[%%b, %%h, %%i, %%c] : !O\n");
  } else {
    faTextAppend(t, "      %%yt = arith.truncf %%y : f32 to ");
    appendEltType(t, k->outElt);
    faTextAppend(t, "\n      memref.store %%yt, %%o[%%b, %%h, %%i, %%c] : !O\n");
  }
  faTextAppend(t, "    }\n  }\n");
  if (!k->hasLse)
    return;
  faTextAppendElementLoop(t, "e", "%cBM");
  faTextAppend(t, "    %%in = arith.cmpi ult, %%e, %%rows : index\n"
                  "    scf.if %%in {\n"
                  "      %%l = memref.load %%lrow[%%e] : !tR\n"
                  "      %%m = memref.load %%mrow[%%e] : !tR\n"
                  "      %%z = arith.cmpf oeq, %%l, %%zf : f32\n"
                  "      %%lg = math.log2 %%l : f32\n"
                  "      %%s2 = arith.addf %%m, %%lg : f32\n"
                  "      %%ln = arith.mulf %%s2, %%ln2 : f32\n"
                  "      %%y = arith.select %%z, %%ninf, %%ln : f32\n"
                  "      %%i = arith.addi %%m0, %%e : index\n"
                  "      memref.store %%y, %%lse[%%b, %%h, %%i] : !LSE\n"
                  "    }\n  }\n");
}

/* The workgroup's work: one [block_m] tile of rows of one (b, h). */
static void appendBody(FaText *t, const Kernel *k, FaTarget target) {
  faTextAppendThreadIds(t, target);
  faTextAppend(t, "  %%hk = arith.divui %%h, %%G : index\n"
                  "  %%m0 = arith.muli %%mt, %%cBM : index\n"
                  "  %%mrem = arith.subi %%M, %%m0 : index\n"
                  "  %%rows = arith.minui %%mrem, %%cBM : index\n");
  appendKeyRange(t, k);
  if (k->biasElt.ptr)
    appendBiasSetup(t);
  appendTileLoad(t, "qt", "!tQ", "q", "!Q", k->elt, k->bm, k->d, "m0", "rows",
                 "%b, %h, %row, %c", "qs");
  faTextAppend(t, "  \"fa.blockwise_fill\"(%%acc, %%zf) : (!tA, f32) -> ()\n"
                  "  \"fa.blockwise_fill\"(%%mrow, %%ninf) : (!tR, f32) -> ()\n"
                  "  \"fa.blockwise_fill\"(%%lrow, %%zf) : (!tR, f32) -> ()\n");
  faTextAppend(t, "  %%a_n0 = arith.constant %ld : index\n", (long)(k->bm * k->dv));
  faTextAppend(t, "  scf.for %%nt = %%c0 to %%NT step %%c1 {\n"
                  "  %%n0 = arith.muli %%nt, %%cBN : index\n"
                  "  %%nrem = arith.subi %%nend, %%n0 : index\n"
                  "  %%cols = arith.minui %%nrem, %%cBN : index\n");
  appendTileLoad(t, "kt", "!tK", "k", "!K", k->elt, k->bn, k->d, "n0", "cols",
                 k->kTransposed ? "%b, %hk, %c, %row" : "%b, %hk, %row, %c", "one");
  appendTileLoad(t, "vt", "!tV", "v", "!V", k->elt, k->bn, k->dv, "n0", "cols",
                 "%b, %hk, %row, %c", "one");
  faTextAppendBarrier(t, target);
  faTextAppend(t, "  \"fa.blockwise_fill\"(%%st, %%zf) : (!tS, f32) -> ()\n"
                  "  \"fa.blockwise_gemm\"(%%qt, %%kt, %%st) {transpose_b} : (!tQ, !tK, !tS) -> ()\n");
  appendMaskStep(t, k);
  faTextAppendBarrier(t, target);
  appendSoftmaxStep(t, k, target);
  faTextAppend(t, "  }\n");
  appendEpilogue(t, k, target);
}

static const char *const kTiles[] = {"qt : !tQ", "kt : !tK", "vt : !tV", "st : !tS",
                                     "acc : !tA", "mrow : !tR", "mnew : !tR",
                                     "lrow : !tR", NULL};

void faAttentionAppendArgs(FaText *t, const Kernel *k) {
  faTextAppend(t, "%%q: !Q, %%k: !K, %%v: !V");
  if (k->biasElt.ptr)
    faTextAppend(t, ", %%bias: !BIAS");
  if (k->kvElt.ptr)
    faTextAppend(t, ", %%kvl: !KVL");
  faTextAppend(t, ", %%o: !O%s", k->hasLse ? ", %lse: !LSE" : "");
}

static void appendKernel(FaText *t, const Kernel *k, FaTarget target, const char *name) {
  faTextAppend(t, "func.func private @%s(", name);
  faAttentionAppendArgs(t, k);
  /* fa.attention_kernel marks it for fa-compile --export-kernels. */
  faTextAppend(t, ") attributes {fa.attention_kernel} {\n");
  faTextAppend(t, "  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n"
                  "  %%c2 = arith.constant 2 : index\n  %%c3 = arith.constant 3 : index\n");
  faTextAppend(t, "  %%cBM = arith.constant %ld : index\n  %%cBN = arith.constant %ld : index\n"
                  "  %%cDV = arith.constant %ld : index\n",
               (long)k->bm, (long)k->bn, (long)k->dv);
  faTextAppend(t, "  %%zf = arith.constant 0.0 : f32\n  %%one = arith.constant 1.0 : f32\n"
                  "  %%ninf = arith.constant 0xFF800000 : f32\n"
                  "  %%log2e = arith.constant 1.4426950408889634 : f32\n"
                  "  %%lowest = arith.constant -3.40282347E+38 : f32\n"
                  "  %%ln2 = arith.constant 0.69314718055994531 : f32\n");
  faTextAppend(t, "  %%qs = arith.constant %.9e : f32\n", k->scale * 1.4426950408889634);
  faTextAppend(t, "  %%B = memref.dim %%q, %%c0 : !Q\n  %%Hq = memref.dim %%q, %%c1 : !Q\n"
                  "  %%M = memref.dim %%q, %%c2 : !Q\n  %%Hkv = memref.dim %%v, %%c1 : !V\n"
                  "  %%N = memref.dim %%v, %%c2 : !V\n  %%G = arith.divui %%Hq, %%Hkv : index\n"
                  "  %%MT = arith.ceildivui %%M, %%cBM : index\n");
  if (faTargetIsGpu(target)) {
    faTextAppend(t, "  %%nthreads = arith.constant %d : index\n", FA_GPU_THREADS);
    faTextAppend(t, "  gpu.launch blocks(%%mt, %%h, %%b) in (%%gx = %%MT, %%gy = %%Hq, %%gz = %%B)"
                    " threads(%%tx, %%ty, %%tz) in (%%sx = %%nthreads, %%sy = %%c1, %%sz = %%c1)"
                    " workgroup(");
    for (int i = 0; kTiles[i]; ++i)
      faTextAppend(t, "%s%%%s", i ? ", " : "", kTiles[i]);
    /* The body sits in an scf.execute_region: the inliner does not inline
     * calls directly in a gpu.launch region. */
    faTextAppend(t, ") {\n  scf.execute_region {\n");
    appendBody(t, k, target);
    faTextAppend(t, "  scf.yield\n  }\n  gpu.terminator\n  }\n");
  } else {
    faTextAppend(t, "  scf.parallel (%%b, %%h, %%mt) = (%%c0, %%c0, %%c0) to (%%B, %%Hq, %%MT)"
                    " step (%%c1, %%c1, %%c1) {\n");
    /* Heap tiles per workgroup: allocas in a loop would grow the stack. */
    for (int i = 0; kTiles[i]; ++i) {
      const char *colon = strchr(kTiles[i], ':');
      faTextAppend(t, "  %%%.*s = memref.alloc() %s\n", (int)(colon - kTiles[i] - 1),
                   kTiles[i], colon);
    }
    appendBody(t, k, target);
    for (int i = 0; kTiles[i]; ++i) {
      const char *colon = strchr(kTiles[i], ':');
      faTextAppend(t, "  memref.dealloc %%%.*s %s\n", (int)(colon - kTiles[i] - 1),
                   kTiles[i], colon);
    }
    faTextAppend(t, "  scf.reduce\n  }\n");
  }
  faTextAppend(t, "  return\n}\n");
}

/* --- the tensor-level wrapper ---------------------------------------------- */

/* memref<...> of the same shape as tensor type `type`, identity layout. */
static void appendBufferType(FaText *t, MlirType type) {
  FaText s;
  faTextInit(&s);
  faTextAppendType(&s, type);
  faTextAppend(t, "memref%s", s.data + strlen("tensor"));
  faTextDestroy(&s);
}

/* Whether the op keeps tensor `t` as [B, S, H, D]. */
static bool isBshd(const Kernel *k, FaAttentionTensor t) {
  return faGridwiseAttentionGetAxis(k->op, t, FA_DIM_SEQ) == 1;
}

/* The kernel sees every tensor as [B, H, S, D]: where the op keeps one as
 * [B, S, H, D], %NAME_v views its buffer %NAME_c so (memref.transpose: new
 * strides, no copy). */
static void appendKernelView(FaText *t, const Kernel *k, const char *name,
                             FaAttentionTensor tensor, MlirType elt) {
  if (!isBshd(k, tensor))
    return;
  faTextAppend(t, "  %%%s_v = memref.transpose %%%s_c (d0, d1, d2, d3) -> (d0, d2, d1, d3) : ",
               name, name);
  appendAnyMemref(t, 4, elt, k->mma);
  faTextAppend(t, " to ");
  appendAnyMemref(t, 4, elt, k->mma);
  faTextAppend(t, "\n");
}

/* The kernel's argument for tensor `t`: %NAME_v or %NAME_c. */
static const char *kernelViewSuffix(const Kernel *k, FaAttentionTensor t) {
  return isBshd(k, t) ? "v" : "c";
}

/* %NAME_c: buffer %NAME_b cast to the kernel's memref of any shape. */
static void appendCastToAny(FaText *t, const Kernel *k, const char *name, MlirType type) {
  faTextAppend(t, "  %%%s_c = memref.cast %%%s_b : ", name, name);
  appendBufferType(t, type);
  faTextAppend(t, " to ");
  appendAnyMemref(t, (int)mlirShapedTypeGetRank(type), mlirShapedTypeGetElementType(type),
                  k->mma);
  faTextAppend(t, "\n");
}

static void appendToBuffer(FaText *t, const Kernel *k, const char *name, MlirValue v) {
  MlirType type = mlirValueGetType(v);
  faTextAppend(t, "  %%%s_b = bufferization.to_buffer %%%s read_only : ", name, name);
  faTextAppendType(t, type);
  faTextAppend(t, " to ");
  appendBufferType(t, type);
  faTextAppend(t, "\n");
  appendCastToAny(t, k, name, type);
}

/* The problem's dims, each from the axis of Q (B, Hq, M) or V (Dv) that
 * holds it: %dB, %dH, %dM, %dDv. */
static const char *const kDimNames[4] = {"dB", "dH", "dM", "dDv"};

static void appendProblemDims(FaText *t, const Kernel *k) {
  for (int d = FA_DIM_BATCH; d <= FA_DIM_HEAD; ++d) {
    FaAttentionTensor of = d == FA_DIM_HEAD ? FA_ATTENTION_V : FA_ATTENTION_Q;
    MlirValue v = d == FA_DIM_HEAD ? k->v : k->q;
    faTextAppend(t, "  %%i%d = arith.constant %ld : index\n", d,
                 (long)faGridwiseAttentionGetAxis(k->op, of, d));
    faTextAppend(t, "  %%%s = tensor.dim %%%s, %%i%d : ", kDimNames[d],
                 d == FA_DIM_HEAD ? "v" : "q", d);
    faTextAppendType(t, mlirValueGetType(v));
    faTextAppend(t, "\n");
  }
}

/* A result buffer of `type` ([B, H, M, Dv] or [B, M, H, Dv] for O, per
 * `dims`; [B, H, M] for the lse) and its kernel view. */
static void appendAlloc(FaText *t, const Kernel *k, const char *name, MlirType type,
                        FaAttentionTensor tensor) {
  intptr_t rank = mlirShapedTypeGetRank(type);
  faTextAppend(t, "  %%%s_b = memref.alloc(", name);
  for (intptr_t a = 0, n = 0; a < rank; ++a) {
    int d = (int)a; /* the dim on axis a */
    for (int e = 0; rank == 4 && e < 4; ++e)
      if (faGridwiseAttentionGetAxis(k->op, tensor, e) == a)
        d = e;
    if (mlirShapedTypeIsDynamicDim(type, a))
      faTextAppend(t, "%s%%%s", n++ ? ", " : "", kDimNames[d]);
  }
  faTextAppend(t, ") : ");
  appendBufferType(t, type);
  faTextAppend(t, "\n");
  appendCastToAny(t, k, name, type);
}

static void appendWrapper(FaText *t, const Kernel *k, const char *name) {
  MlirOperation op = k->op;
  intptr_t numOperands = mlirOperationGetNumOperands(op);
  static const char *const kNames[] = {"q", "k", "v", "bias", "kvl"};
  const char *names[5];
  for (intptr_t i = 0, n = 0; i < 5; ++i)
    if ((i != 3 || k->biasElt.ptr) && (i != 4 || k->kvElt.ptr))
      names[n++] = kNames[i];
  faTextAppend(t, "func.func private @%s_t(", name);
  for (intptr_t i = 0; i < numOperands; ++i) {
    faTextAppend(t, "%s%%%s: ", i ? ", " : "", names[i]);
    faTextAppendType(t, mlirValueGetType(mlirOperationGetOperand(op, i)));
  }
  faTextAppend(t, ") -> (");
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    faTextAppend(t, i ? ", " : "");
    faTextAppendType(t, mlirValueGetType(mlirOperationGetResult(op, i)));
  }
  faTextAppend(t, ") {\n");
  for (intptr_t i = 0; i < numOperands; ++i)
    appendToBuffer(t, k, names[i], mlirOperationGetOperand(op, i));
  appendProblemDims(t, k);
  MlirType outType = mlirValueGetType(mlirOperationGetResult(op, 0));
  appendAlloc(t, k, "o", outType, FA_ATTENTION_O);
  if (k->hasLse)
    appendAlloc(t, k, "lse", mlirValueGetType(mlirOperationGetResult(op, 1)), FA_ATTENTION_O);
  static const char *const kViews[4] = {"q", "k", "v", "o"};
  for (int i = FA_ATTENTION_Q; i <= FA_ATTENTION_O; ++i)
    appendKernelView(t, k, kViews[i], i, i == FA_ATTENTION_O ? k->outElt : k->elt);
  faTextAppend(t, "  call @%s(", name);
  for (intptr_t i = 0; i < numOperands; ++i)
    faTextAppend(t, "%%%s_%s, ", names[i], i < 3 ? kernelViewSuffix(k, i) : "c");
  faTextAppend(t, "%%o_%s%s) : (!Q, !K, !V%s%s, !O%s) -> ()\n",
               kernelViewSuffix(k, FA_ATTENTION_O), k->hasLse ? ", %lse_c" : "",
               k->biasElt.ptr ? ", !BIAS" : "", k->kvElt.ptr ? ", !KVL" : "",
               k->hasLse ? ", !LSE" : "");
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    const char *r = i ? "lse" : "o";
    MlirType type = mlirValueGetType(mlirOperationGetResult(op, i));
    faTextAppend(t, "  %%%s_t = bufferization.to_tensor %%%s_b restrict writable : ", r, r);
    appendBufferType(t, type);
    faTextAppend(t, " to ");
    faTextAppendType(t, type);
    faTextAppend(t, "\n");
  }
  faTextAppend(t, "  return %%o_t%s : ", k->hasLse ? ", %lse_t" : "");
  faTextAppendType(t, outType);
  if (k->hasLse) {
    faTextAppend(t, ", ");
    faTextAppendType(t, mlirValueGetType(mlirOperationGetResult(op, 1)));
  }
  faTextAppend(t, "\n}\n");
}

/* --- the pass ---------------------------------------------------------------- */


/* "fa-lower-attention: PREFIXWHY" at the op's location; failure. */
static MlirLogicalResult emitError(MlirOperation op, const char *prefix, const char *why) {
  char msg[320];
  snprintf(msg, sizeof msg, "fa-lower-attention: %s%s", prefix, why);
  mlirEmitError(mlirOperationGetLocation(op), msg);
  return mlirLogicalResultFailure();
}

/* K stored transposed ([B, Hkv, D, N]) becomes [B, Hkv, N, D] by a
 * linalg.transpose before the op (one pass over K; the tensor-core kernel
 * reads K rows), in a function @NAME_k that the inliner inlines:
 *   %e = tensor.empty(..) : KN
 *   %t = linalg.transpose ins(%k : KT) outs(%e : KN) permutation = [0, 1, 3, 2] */
static MlirLogicalResult untransposeK(MlirOperation module, MlirOperation op,
                                      const char *name) {
  MlirValue kt = mlirOperationGetOperand(op, 1);
  MlirType ktType = mlirValueGetType(kt);
  int64_t shape[4];
  const int perm[4] = {0, 1, 3, 2};
  for (int i = 0; i < 4; ++i)
    shape[i] = mlirShapedTypeGetDimSize(ktType, perm[i]);
  MlirType knType = mlirRankedTensorTypeGet(4, shape, mlirShapedTypeGetElementType(ktType),
                                            mlirAttributeGetNull());
  FaText t;
  faTextInit(&t);
  faTextAppend(&t, "func.func private @%s_k(%%k: ", name);
  faTextAppendType(&t, ktType);
  faTextAppend(&t, ") -> ");
  faTextAppendType(&t, knType);
  faTextAppend(&t, " {\n");
  for (int i = 0; i < 4; ++i) {
    if (!mlirShapedTypeIsDynamicDim(knType, i))
      continue;
    faTextAppend(&t, "  %%c%d = arith.constant %d : index\n  %%d%d = tensor.dim %%k, %%c%d : ",
                 i, perm[i], i, i);
    faTextAppendType(&t, ktType);
    faTextAppend(&t, "\n");
  }
  faTextAppend(&t, "  %%e = tensor.empty(");
  for (int i = 0, n = 0; i < 4; ++i)
    if (mlirShapedTypeIsDynamicDim(knType, i))
      faTextAppend(&t, "%s%%d%d", n++ ? ", " : "", i);
  faTextAppend(&t, ") : ");
  faTextAppendType(&t, knType);
  faTextAppend(&t, "\n  %%t = linalg.transpose ins(%%k : ");
  faTextAppendType(&t, ktType);
  faTextAppend(&t, ") outs(%%e : ");
  faTextAppendType(&t, knType);
  faTextAppend(&t, ") permutation = [0, 1, 3, 2]\n  return %%t : ");
  faTextAppendType(&t, knType);
  faTextAppend(&t, "\n}\n");
  MlirLogicalResult ok = faModuleAppendParsed(module, &t);
  faTextDestroy(&t);
  if (mlirLogicalResultIsFailure(ok))
    return ok;
  MlirContext ctx = mlirOperationGetContext(op);
  char callee[160];
  snprintf(callee, sizeof callee, "%s_k", name);
  MlirNamedAttribute attr = faNamedAttributeGet(
      ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(callee)));
  MlirOperation call = faOperationCreateBefore(op, "func.call", 1, &kt, 1, &knType, 1, &attr);
  mlirOperationSetOperand(op, 1, mlirOperationGetResult(call, 0));
  mlirOperationRemoveAttributeByName(
      op, mlirStringRefCreateFromCString(faGridwiseAttentionGetAttrName(FA_ATTENTION_ATTR_K_TRANSPOSED)));
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult lowerOne(MlirOperation module, MlirOperation op, const void *state) {
  FaTarget target = *(const FaTarget *)state;
  Kernel k;
  const char *why = kernelRead(op, &k, target);
  char name[128];
  faModuleUniqueSymbol(module, "fa_attention", name, sizeof name);
  /* (Before any complaint about the portable kernel's tiles: it is not used.) */
  if (faAttentionSelectUntransposesK(&k, target)) {
    if (mlirLogicalResultIsFailure(untransposeK(module, op, name)))
      return emitError(op, "internal error: ", "the transpose of K did not parse");
    why = kernelRead(op, &k, target);
  }
  if (why)
    return emitError(op, "", why);
  FaText t;
  faTextInit(&t);
  appendAliases(&t, &k, target);
  const char *missing = NULL;
  if (k.mma)
    missing = faAttentionTensorCoreAppend(&t, &k, name);
  else
    appendKernel(&t, &k, target, name);
  if (missing) {
    faTextDestroy(&t);
    return emitError(op, "internal error: ", missing);
  }
  appendWrapper(&t, &k, name);
  MlirLogicalResult ok = faModuleAppendParsed(module, &t);
  faTextDestroy(&t);
  if (mlirLogicalResultIsFailure(ok)) {
    mlirEmitError(mlirOperationGetLocation(op),
                  "fa-lower-attention: cannot add the kernel to the module (the error "
                  "before says why)");
    return ok;
  }
  char callee[160];
  snprintf(callee, sizeof callee, "%s_t", name);
  faOperationReplaceWithCall(op, callee);
  return mlirLogicalResultSuccess();
}

static bool isGridwise(MlirOperation op) { return faOpIsA(op, "fa.gridwise_attention"); }

static void runLowerAttention(MlirOperation module, MlirExternalPass pass,
                              const void *state) {
  faPassRunOnEach(module, isGridwise, lowerOne, state, pass);
  /* The kernels' helpers ({fa.inline}) hold nvgpu ops, which MLIR's
   * inliner refuses: inlined once all kernels are in. */
  faModuleInlineMarked(module, FA_INLINE_ATTR);
}

static const FaPassDef kLowerAttention = {
    "FaLowerAttention", "fa-lower-attention",
    "Lower fa.gridwise_attention to a tiled online-softmax kernel of "
    "fa.blockwise_* ops (CPU: scf.parallel; GPU: gpu.launch)",
    "builtin.module", runLowerAttention, faLoweringDialects};

MlirPass faCreateLoweringLowerAttention(bool gpu) {
  return faLoweringPassCreate(&kLowerAttention, gpu ? FA_TARGET_GPU : FA_TARGET_CPU);
}

MlirPass faLowerAttentionPassCreateFromOptions(MlirStringRef options,
                                               MlirStringCallback errorCallback,
                                               void *userData) {
  return faLoweringPassCreateFromOptions(&kLowerAttention, options, errorCallback, userData);
}
