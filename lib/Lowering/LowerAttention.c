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
  k->maskFn = faGridwiseAttentionGetFunction(op, FA_ATTENTION_ATTR_MASK);
  k->modFn = faGridwiseAttentionGetFunction(op, FA_ATTENTION_ATTR_SCORE_MOD);
  k->sinks = faGridwiseAttentionGetSinks(op);
  if (!mlirValueIsNull(k->sinks))
    k->sinksElt = eltOf(k->sinks);
  k->numCaptures = faGridwiseAttentionGetNumCaptures(op);
  for (intptr_t i = 0; i < k->numCaptures; ++i)
    k->captures[i] = faGridwiseAttentionGetCapture(op, i);
  faAttentionPlanSummaries(k);
  k->onGpu = faTargetIsGpu(target);
  k->d = faAttentionSize(k, FA_ATTENTION_Q, FA_DIM_HEAD);
  k->dv = faAttentionSize(k, FA_ATTENTION_V, FA_DIM_HEAD);
  if (k->d < 0 || k->dv < 0)
    return "the head dims D and Dv must be static to be lowered";
  return faAttentionSelect(k, target);
}

/* --- what every kernel takes: its buffers ------------------------------------ */
/* (The kernels themselves are templates: Kernels/Portable/attention_portable.mlir
 * (AttentionPortable.c), Kernels/MmaSync and Kernels/Wgmma.) */

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

static void appendAliases(FaText *t, const Kernel *k) {
  faTextAppend(t, "!Q = ");
  appendAnyMemref(t, 4, k->elt, faAttentionUsesTensorCores(k));
  faTextAppend(t, "\n!K = ");
  appendAnyMemref(t, 4, k->elt, faAttentionUsesTensorCores(k));
  faTextAppend(t, "\n!V = ");
  appendAnyMemref(t, 4, k->elt, faAttentionUsesTensorCores(k));
  faTextAppend(t, "\n!O = ");
  appendAnyMemref(t, 4, k->outElt, faAttentionUsesTensorCores(k));
  faTextAppend(t, "\n!LSE = ");
  appendAnyMemref(t, 3, mlirF32TypeGet(mlirOperationGetContext(k->op)), faAttentionUsesTensorCores(k));
  if (k->kvElt.ptr) {
    faTextAppend(t, "\n!KVL = ");
    appendAnyMemref(t, k->kvPerHead ? 2 : 1, k->kvElt, faAttentionUsesTensorCores(k));
  }
  if (k->biasElt.ptr) {
    faTextAppend(t, "\n!BIAS = ");
    appendAnyMemref(t, 4, k->biasElt, faAttentionUsesTensorCores(k));
  }
  if (k->sinksElt.ptr) {
    faTextAppend(t, "\n!SINKS = ");
    appendAnyMemref(t, 1, k->sinksElt, faAttentionUsesTensorCores(k));
  }
  for (intptr_t i = 0; i < k->numCaptures; ++i) {
    faTextAppend(t, "\n!C%ld = ", (long)i);
    faAttentionAppendCaptureType(t, k, i);
  }
  faTextAppend(t, "\n"); /* each kernel's template declares its tile types */
}

void faAttentionAppendCaptureType(FaText *t, const Kernel *k, intptr_t i) {
  MlirType type = mlirValueGetType(k->captures[i]);
  if (!mlirTypeIsARankedTensor(type)) {
    faTextAppendType(t, type);
    return;
  }
  appendAnyMemref(t, (int)mlirShapedTypeGetRank(type), mlirShapedTypeGetElementType(type),
                  faAttentionUsesTensorCores(k));
}

void faAttentionAppendArgs(FaText *t, const Kernel *k) {
  faTextAppend(t, "%%q: !Q, %%k: !K, %%v: !V");
  if (k->biasElt.ptr)
    faTextAppend(t, ", %%bias: !BIAS");
  if (k->kvElt.ptr)
    faTextAppend(t, ", %%kvl: !KVL");
  if (k->sinksElt.ptr)
    faTextAppend(t, ", %%sinks: !SINKS");
  faAttentionAppendCaptures(t, k, FA_CAPTURES_PARAMS);
  faTextAppend(t, ", %%o: !O%s", k->hasLse ? ", %lse: !LSE" : "");
}

void faAttentionSetArgs(FaTemplateVars *vars, const Kernel *k) {
  FaText t;
  faTextInit(&t);
  faAttentionAppendArgs(&t, k);
  faTemplateVarsSetText(vars, "ARGS", t.data);
  faTextDestroy(&t);
}

void faAttentionSetFeatures(FaTemplateVars *vars, const Kernel *k, long causalOffset) {
  faTemplateVarsSetFlag(vars, "CAUSAL", k->causal);
  faTemplateVarsSetInt(vars, "CAUSAL_OFFSET", causalOffset);
  faTemplateVarsSetFlag(vars, "KVLEN", k->kvElt.ptr != NULL);
  faTemplateVarsSetFlag(vars, "KVLEN_PER_HEAD", k->kvPerHead);
  if (k->kvElt.ptr)
    faTemplateVarsSetType(vars, "KV_ELT", k->kvElt);
  faTemplateVarsSetFlag(vars, "BIAS", k->biasElt.ptr != NULL);
  if (k->biasElt.ptr) {
    faTemplateVarsSetFlag(vars, "BIAS_F32", mlirTypeIsAF32(k->biasElt));
    faTemplateVarsSetType(vars, "BIAS_ELT", k->biasElt);
  }
  faTemplateVarsSetFlag(vars, "LSE", k->hasLse);
  faTemplateVarsSetFlag(vars, "OUT_F32", mlirTypeIsAF32(k->outElt));
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
  appendAnyMemref(t, 4, elt, faAttentionUsesTensorCores(k));
  faTextAppend(t, " to ");
  appendAnyMemref(t, 4, elt, faAttentionUsesTensorCores(k));
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
                  faAttentionUsesTensorCores(k));
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

/* The op's operands by segment: their names in the wrapper and the kernel's
 * argument types. */
static const char *const kOperandNames[FA_ATTENTION_SEGMENT_COUNT] = {
    "q", "k", "v", "bias", "kvl", "sinks", "cap0", "cap1", "cap2", "cap3"};
static const char *const kOperandTypes[FA_ATTENTION_SEGMENT_COUNT] = {
    "!Q", "!K", "!V", "!BIAS", "!KVL", "!SINKS", "!C0", "!C1", "!C2", "!C3"};

static void appendWrapper(FaText *t, const Kernel *k, const char *name) {
  MlirOperation op = k->op;
  int segs[FA_ATTENTION_SEGMENT_COUNT];
  MlirValue vals[FA_ATTENTION_SEGMENT_COUNT];
  int n = 0;
  for (int s = 0; s < FA_ATTENTION_SEGMENT_COUNT; ++s) {
    MlirValue v = faGridwiseAttentionGetOperand(op, s);
    if (!mlirValueIsNull(v))
      segs[n] = s, vals[n++] = v;
  }
  faTextAppend(t, "func.func private @%s_t(", name);
  for (int i = 0; i < n; ++i) {
    faTextAppend(t, "%s%%%s: ", i ? ", " : "", kOperandNames[segs[i]]);
    faTextAppendType(t, mlirValueGetType(vals[i]));
  }
  faTextAppend(t, ") -> (");
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    faTextAppend(t, i ? ", " : "");
    faTextAppendType(t, mlirValueGetType(mlirOperationGetResult(op, i)));
  }
  faTextAppend(t, ") {\n");
  for (int i = 0; i < n; ++i)
    if (mlirTypeIsARankedTensor(mlirValueGetType(vals[i])))
      appendToBuffer(t, k, kOperandNames[segs[i]], vals[i]);
  appendProblemDims(t, k);
  MlirType outType = mlirValueGetType(mlirOperationGetResult(op, 0));
  appendAlloc(t, k, "o", outType, FA_ATTENTION_O);
  if (k->hasLse)
    appendAlloc(t, k, "lse", mlirValueGetType(mlirOperationGetResult(op, 1)), FA_ATTENTION_O);
  static const char *const kViews[4] = {"q", "k", "v", "o"};
  for (int i = FA_ATTENTION_Q; i <= FA_ATTENTION_O; ++i)
    appendKernelView(t, k, kViews[i], i, i == FA_ATTENTION_O ? k->outElt : k->elt);
  faTextAppend(t, "  call @%s(", name);
  for (int i = 0; i < n; ++i) {
    bool tensor = mlirTypeIsARankedTensor(mlirValueGetType(vals[i]));
    faTextAppend(t, "%%%s%s%s, ", kOperandNames[segs[i]], tensor ? "_" : "",
                 !tensor ? "" : segs[i] < 3 ? kernelViewSuffix(k, segs[i]) : "c");
  }
  faTextAppend(t, "%%o_%s%s) : (", kernelViewSuffix(k, FA_ATTENTION_O),
               k->hasLse ? ", %lse_c" : "");
  for (int i = 0; i < n; ++i)
    faTextAppend(t, "%s, ", kOperandTypes[segs[i]]);
  faTextAppend(t, "!O%s) -> ()\n", k->hasLse ? ", !LSE" : "");
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
  char name[sizeof k.name];
  faModuleUniqueSymbol(module, "fa_attention", name, sizeof name);
  snprintf(k.name, sizeof k.name, "%s", name);
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
  appendAliases(&t, &k);
  const char *missing = NULL;
  if (k.kernel == FA_KERNEL_PORTABLE)
    missing = faAttentionPortableAppend(&t, &k, target, name);
  else
    missing = faAttentionTensorCoreAppend(&t, &k, name);
  if (missing) {
    faTextDestroy(&t);
    return emitError(op, "internal error: ", missing);
  }
  appendWrapper(&t, &k, name);
  faAttentionAppendFunctions(module, &k);
  const char *rangeWhy = faAttentionAppendMaskRange(module, &k);
  if (!rangeWhy)
    rangeWhy = faAttentionAppendModTileRange(module, &k);
  if (!rangeWhy)
    rangeWhy = faAttentionAppendSummaries(module, &k);
  if (rangeWhy) {
    faTextDestroy(&t);
    return emitError(op, "internal error: ", rangeWhy);
  }
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
