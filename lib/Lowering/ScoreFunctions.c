/* The op's mask and score_mod functions as the kernels call them.
 *
 * fa.gridwise_attention names func.funcs on tensors (docs/dialect.md); a
 * kernel works on buffers. For kernel NAME this appends @NAME_mask and
 * @NAME_mod: clones of the functions whose captured tensors are memref
 * arguments of the kernel's buffer types, each tensor.extract of one a
 * memref.load at its indices clamped into [0, dim - 1] (a dynamic index out
 * of range reads the nearest element: defined, and never outside the
 * buffer). They carry {fa.inline}: fa-lower-attention inlines their calls in
 * every kernel once all kernels are in (faModuleInlineMarked). Rewrites
 * make them cheaper per score: divisions by a constant as products and
 * tanh approximated (below), integer conversions (ScoreIndices.c). The
 * tensor-core kernels' score_mod copy takes its query and key split into
 * a per-thread base and a per-element offset, and has a tile-uniform copy
 * where it reads a captured tensor by position (@NAME_mod_tile, with
 * @NAME_mod_tile_range from MaskRange.c). */
#include "Lowering/AttentionKernel.h"
#include "Lowering/ScoreIndices.h"
#include "Support/Builders.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>

/* The kernel type of capture `i` (faAttentionAppendCaptureType), parsed. */
static MlirType captureType(const FaAttentionKernel *k, intptr_t i) {
  FaText t;
  faTextInit(&t);
  faAttentionAppendCaptureType(&t, k, i);
  MlirType type = mlirTypeParseGet(mlirOperationGetContext(k->op),
                                   mlirStringRefCreateFromCString(t.data));
  faTextDestroy(&t);
  return type;
}

static MlirValue indexConstant(MlirOperation before, int64_t value) {
  return faBuildIntConstantBefore(before, mlirIndexTypeGet(mlirOperationGetContext(before)), value);
}

/* The last index of dim `d` of `buf`, before `before`. */
static MlirValue lastIndex(MlirOperation before, MlirValue buf, intptr_t d) {
  MlirType type = mlirValueGetType(buf);
  if (!mlirShapedTypeIsDynamicDim(type, d))
    return indexConstant(before, mlirShapedTypeGetDimSize(type, d) - 1);
  MlirValue operands[2] = {buf, indexConstant(before, d)};
  MlirType index = mlirIndexTypeGet(mlirOperationGetContext(before));
  MlirValue size = mlirOperationGetResult(
      faOperationCreateBefore(before, "memref.dim", 2, operands, 1, &index, 0, NULL), 0);
  return faBuildBinaryBefore(before, "arith.subi", size, indexConstant(before, 1));
}

/* `idx` clamped into [0, size of dim `d` of `buf`) before `before`. An index
 * in [0, 2^31) by its static range (the query's, the key's, sums of them
 * with small constants) is clamped in 32 bits against min(last, 2^31 - 1)
 * and zero-extended: the same element, one 32-bit MIN a read where the
 * 64-bit clamp costs four instructions and the address a 64-bit shift. */
static MlirValue clampIndex(MlirOperation before, MlirValue buf, intptr_t d, MlirValue idx,
                            const FaScoreIndices *ix) {
  MlirValue last = lastIndex(before, buf, d);
  if (faScoreIndexFitsI32(idx, ix)) {
    MlirType i32 = mlirIntegerTypeGet(mlirOperationGetContext(before), 32);
    MlirValue last31 = faBuildBinaryBefore(before, "arith.minsi", last, indexConstant(before, 2147483647));
    MlirValue r = faBuildBinaryBefore(before, "arith.minsi", faBuildUnaryBefore(before, "arith.index_cast", idx, i32),
                                      faBuildUnaryBefore(before, "arith.index_cast", last31, i32));
    return faBuildUnaryBefore(before, "arith.index_castui", r, mlirIndexTypeGet(mlirOperationGetContext(before)));
  }
  MlirValue low = faBuildBinaryBefore(before, "arith.maxsi", idx, indexConstant(before, 0));
  return faBuildBinaryBefore(before, "arith.minsi", low, last);
}

/* tensor.extract %cap[idx...] -> memref.load %cap[clamped idx...]. */
static void rewriteExtract(MlirOperation extract, const FaScoreIndices *ix) {
  MlirValue buf = mlirOperationGetOperand(extract, 0);
  intptr_t n = mlirOperationGetNumOperands(extract);
  MlirValue operands[1 + 8];
  if (n > 9)
    return; /* ranks above 8 are not captures any kernel makes */
  operands[0] = buf;
  for (intptr_t d = 0; d + 1 < n; ++d)
    operands[d + 1] = clampIndex(extract, buf, d, mlirOperationGetOperand(extract, d + 1), ix);
  MlirValue old = mlirOperationGetResult(extract, 0);
  MlirType elt = mlirValueGetType(old);
  MlirOperation load = faOperationCreateBefore(extract, "memref.load", n, operands, 1, &elt, 0, NULL);
  mlirValueReplaceAllUsesOfWith(old, mlirOperationGetResult(load, 0));
  mlirOperationDestroy(extract);
}

/* divf %x, C (C a finite nonzero float constant) -> mulf %x, 1/C: a GPU's
 * correctly rounded division is a subroutine per score (softcap's s / c); the
 * product differs from it by at most an ulp of the quotient, less than the
 * kernels' exp2 approximation already allows (exact where 1/C is a power of
 * two). */
static void divisionByConstant(MlirOperation op) {
  if (!faOpIsA(op, "arith.divf") || !mlirValueIsAOpResult(mlirOperationGetOperand(op, 1)))
    return;
  MlirOperation c = mlirOpResultGetOwner(mlirOperationGetOperand(op, 1));
  MlirAttribute a = faOpGetAttr(c, "value");
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!faOpIsA(c, "arith.constant") || mlirAttributeIsNull(a) || !mlirAttributeIsAFloat(a) ||
      !mlirTypeIsAF32(t))
    return;
  double v = mlirFloatAttrGetValueDouble(a);
  if (!(v == v) || v == 0 || v > 3.4e38 || v < -3.4e38)
    return;
  MlirContext ctx = mlirOperationGetContext(op);
  MlirNamedAttribute value = faNamedAttributeGet(ctx, "value", mlirFloatAttrDoubleGet(ctx, t, 1.0 / v));
  MlirValue recip = mlirOperationGetResult(
      faOperationCreateBefore(op, "arith.constant", 0, NULL, 1, &t, 1, &value), 0);
  MlirValue operands[2] = {mlirOperationGetOperand(op, 0), recip};
  MlirOperation mul = faOperationCreateBefore(op, "arith.mulf", 2, operands, 1, &t, 0, NULL);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), mlirOperationGetResult(mul, 0));
  mlirOperationDestroy(op);
}

/* math.tanh on f32 -> PTX's tanh.approx.f32 (one MUFU.TANH; largest relative
 * error 2^-11, that of an f16) in the tensor-core kernels of ops whose Q, K
 * and V are f16 or bf16: their scores come from half-precision inputs and
 * their O is rounded to one, and the exact tanh costs an exp2 and a
 * reciprocal per score (softcap: FlashAttention-3 makes the same choice).
 * Ops on f32 keep the exact tanh. */
static bool tanhApproximates(const FaAttentionKernel *k) {
  return faAttentionUsesTensorCores(k) && (mlirTypeIsAF16(k->elt) || mlirTypeIsABF16(k->elt));
}

static void approximateTanh(MlirOperation op) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirTypeIsAF32(t))
    return;
  MlirContext ctx = mlirOperationGetContext(op);
  MlirNamedAttribute attrs[2] = {
      faNamedAttributeGet(ctx, "asm_string",
                          mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("tanh.approx.f32 $0, $1;"))),
      faNamedAttributeGet(ctx, "constraints",
                          mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("=f,f")))};
  MlirValue x = mlirOperationGetOperand(op, 0);
  MlirOperation asmOp = faOperationCreateBefore(op, "llvm.inline_asm", 1, &x, 1, &t, 2, attrs);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), mlirOperationGetResult(asmOp, 0));
  mlirOperationDestroy(op);
}

/* The clone's signature: its captured tensors (arguments from `first`) become
 * the kernel's buffers. */
static void retypeCaptures(MlirOperation clone, const FaAttentionKernel *k, intptr_t first) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(clone, 0));
  intptr_t n = mlirBlockGetNumArguments(entry);
  MlirType inputs[4 + 3 + FA_ATTENTION_MAX_CAPTURES];
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    if (i >= first && mlirTypeIsARankedTensor(mlirValueGetType(arg)))
      mlirBlockArgumentSetType(arg, captureType(k, i - first));
    inputs[i] = mlirValueGetType(arg);
  }
  MlirType fnType = mlirTypeAttrGetValue(faOpGetAttr(clone, "function_type"));
  MlirType result = mlirFunctionTypeGetResult(fnType, 0);
  MlirContext ctx = mlirOperationGetContext(clone);
  mlirOperationSetAttributeByName(
      clone, mlirStringRefCreateFromCString("function_type"),
      mlirTypeAttrGet(mlirFunctionTypeGet(ctx, n, inputs, 1, &result)));
}

/* In the tensor-core kernels a product and a sum of score_mod may contract
 * into one FMA (CUDA's default, -fmad=true): one rounding fewer, one
 * instruction fewer per score where FP32 issue is what limits them. A
 * product that does not depend on the score (ALiBi's slope * (k - q)) stays
 * a product: it is computed once per distinct value and shared by the
 * fragment's scores, so the sum contracts with the score's own scaling
 * instead (fma(S, scale, slope * (k - q)), not fma(k - q, slope, S * scale):
 * 2026-11-28, 64 FMULs a tile become 34). */
#define FA_SCORE_DEP_ATTR "fa.score_dependent"

static bool dependsOnScore(MlirValue v, MlirValue score) {
  if (mlirValueEqual(v, score))
    return true;
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  return !mlirAttributeIsNull(faOpGetAttr(def, FA_SCORE_DEP_ATTR));
}

/* Marks the ops of `entry` whose value depends on `score` (an op with
 * regions counts as dependent); allowContraction removes the marks. */
static void markScoreDependent(MlirBlock entry, MlirValue score) {
  MlirContext ctx = mlirOperationGetContext(mlirBlockGetParentOperation(entry));
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    bool dep = mlirOperationGetNumRegions(op) > 0;
    for (intptr_t i = 0; !dep && i < mlirOperationGetNumOperands(op); ++i)
      dep = dependsOnScore(mlirOperationGetOperand(op, i), score);
    if (dep)
      mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString(FA_SCORE_DEP_ATTR),
                                      mlirUnitAttrGet(ctx));
  }
}

static void allowContraction(MlirOperation op, const FaAttentionKernel *k, bool scoreDependent) {
  static const char *const kNames[] = {"arith.addf", "arith.subf", "arith.mulf", NULL};
  mlirOperationRemoveAttributeByName(op, mlirStringRefCreateFromCString(FA_SCORE_DEP_ATTR));
  if (!faAttentionUsesTensorCores(k) || !faOpIsAnyOf(op, kNames))
    return;
  if (faOpIsA(op, "arith.mulf") && !scoreDependent)
    return;
  MlirContext ctx = mlirOperationGetContext(op);
  mlirOperationSetAttributeByName(
      op, mlirStringRefCreateFromCString("fastmath"),
      mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString("#arith.fastmath<contract>")));
}

/* The body's reads become loads, and the rewrites above and of
 * ScoreIndices.c apply. */
static void rewriteBody(MlirOperation clone, const FaAttentionKernel *k, const FaScoreIndices *ix) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(clone, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (faOpIsA(op, "tensor.extract") &&
        mlirTypeIsAMemRef(mlirValueGetType(mlirOperationGetOperand(op, 0))))
      rewriteExtract(op, ix);
    else if (faOpIsA(op, "arith.divf"))
      divisionByConstant(op);
    else if (faOpIsA(op, "math.tanh") && tanhApproximates(k))
      approximateTanh(op);
    else
      faScoreIndicesRewrite(op, ix);
    op = next;
  }
  /* score_mod's first argument is the score; a mask has none (all its
   * products may contract). */
  MlirValue first = mlirBlockGetArgument(entry, 0);
  bool isMod = mlirTypeIsAF32(mlirValueGetType(first));
  if (isMod)
    markScoreDependent(entry, first);
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    allowContraction(op, k, !isMod || !mlirAttributeIsNull(faOpGetAttr(op, FA_SCORE_DEP_ATTR)));
}

/* A copy of `fn` named @NAME_SUFFIX, private and marked to be inlined. */
static MlirOperation cloneNamed(MlirOperation fn, const char *name, const char *suffix) {
  MlirContext ctx = mlirOperationGetContext(fn);
  MlirOperation clone = mlirOperationClone(fn);
  char symbol[192];
  snprintf(symbol, sizeof symbol, "%s_%s", name, suffix);
  mlirOperationSetAttributeByName(clone, mlirStringRefCreateFromCString("sym_name"),
                                  mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(symbol)));
  mlirOperationSetAttributeByName(clone, mlirStringRefCreateFromCString("sym_visibility"),
                                  mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("private")));
  mlirOperationSetAttributeByName(clone, mlirStringRefCreateFromCString(FA_INLINE_ATTR),
                                  mlirUnitAttrGet(ctx));
  return clone;
}

static void appendTo(MlirOperation module, MlirOperation fn) {
  mlirBlockAppendOwnedOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0)), fn);
}

/* Appends @NAME_SUFFIX, the kernel copy of `fn` whose indices start at
 * argument `first` (split: base and offset, two arguments more), and
 * returns it. */
static MlirOperation appendClone(MlirOperation module, const FaAttentionKernel *k,
                                 MlirOperation fn, const char *suffix, int first, bool split) {
  MlirOperation clone = cloneNamed(fn, k->name, suffix);
  FaScoreIndices ix = faScoreIndicesGet(clone, first);
  if (split)
    faScoreIndicesSplit(clone, &ix);
  retypeCaptures(clone, k, first + (split ? 6 : 4));
  rewriteBody(clone, k, &ix);
  appendTo(module, clone);
  return clone;
}

bool faAttentionModIsTiled(const FaAttentionKernel *k) {
  return faAttentionUsesTensorCores(k) && !mlirOperationIsNull(k->modFn) &&
         faScoreModReadsByPosition(k->modFn);
}

void faAttentionAppendFunctions(MlirOperation module, const FaAttentionKernel *k) {
  if (!mlirOperationIsNull(k->maskFn))
    appendClone(module, k, k->maskFn, "mask", 0, false);
  if (mlirOperationIsNull(k->modFn))
    return;
  MlirOperation mod = appendClone(module, k, k->modFn, "mod", 1, faAttentionUsesTensorCores(k));
  if (!faAttentionModIsTiled(k))
    return;
  MlirOperation tile = cloneNamed(mod, k->name, "mod_tile");
  faScoreModMakeTileUniform(tile);
  appendTo(module, tile);
}

/* ", VALUE", ", TYPE" or ", VALUE: TYPE": one item of a kernel's list. */
static void appendListItem(FaText *t, FaCapturesText form, const char *value, const char *type) {
  if (form == FA_CAPTURES_VALUES)
    faTextAppend(t, ", %s", value);
  else if (form == FA_CAPTURES_TYPES || form == FA_CAPTURES_FULL_TYPES)
    faTextAppend(t, ", %s", type);
  else
    faTextAppend(t, ", %s: %s", value, type);
}

void faAttentionAppendCaptures(FaText *t, const FaAttentionKernel *k, FaCapturesText form) {
  bool full = form == FA_CAPTURES_FULL_TYPES || form == FA_CAPTURES_FULL_PARAMS;
  for (intptr_t i = 0; i < k->numCaptures; ++i) {
    char value[32];
    FaText type;
    faTextInit(&type);
    snprintf(value, sizeof value, "%%cap%ld", (long)i);
    if (full)
      faAttentionAppendCaptureType(&type, k, i);
    else
      faTextAppend(&type, "!C%ld", (long)i);
    appendListItem(t, form, value, type.data);
    faTextDestroy(&type);
  }
}

void faAttentionAppendRangeCaptures(FaText *t, const FaAttentionKernel *k, FaCapturesText form) {
  faAttentionAppendCaptures(t, k, form);
  for (int s = 0; s < k->numSummaries; ++s) {
    char value[32];
    snprintf(value, sizeof value, "%%sum%d", s);
    appendListItem(t, form, value, "memref<?xi64>");
  }
  if (faAttentionUsesKeyTable(k))
    appendListItem(t, form, "%keytab", "memref<?xi32>");
}

void faAttentionSetFunctionVars(FaTemplateVars *vars, const FaAttentionKernel *k) {
  const char *name = k->name;
  faTemplateVarsSetFlag(vars, "MASK", !mlirOperationIsNull(k->maskFn));
  faTemplateVarsSetFlag(vars, "MOD", !mlirOperationIsNull(k->modFn));
  faTemplateVarsSetFlag(vars, "SINKS", k->sinksElt.ptr != NULL);
  if (k->sinksElt.ptr)
    faTemplateVarsSetFlag(vars, "SINKS_F32", mlirTypeIsAF32(k->sinksElt));
  if (k->sinksElt.ptr)
    faTemplateVarsSetType(vars, "SINKS_ELT", k->sinksElt);
  faTemplateVarsSet(vars, "MASK_FN", "%s_mask", name);
  faTemplateVarsSet(vars, "MOD_FN", "%s_mod", name);
  /* The tensor-core kernels' copy takes the query and key split. */
  bool split = faAttentionUsesTensorCores(k);
  faTemplateVarsSet(vars, "MOD_INDICES", "index, index, index, index%s",
                    split ? ", index, index" : "");
  faTemplateVarsSetFlag(vars, "MOD_TILE", faAttentionModIsTiled(k));
  faTemplateVarsSetFlag(vars, "KEY_TABLE", faAttentionUsesKeyTable(k));
  /* Packed documents' own work items: the Hopper kernel sets it. */
  faTemplateVarsSetFlag(vars, "DOC_RUNS", false);
  faTemplateVarsSet(vars, "RANGE_FN", "%s_mask_range", name);
  faTemplateVarsSet(vars, "ROW_RANGE_FN", "%s_mask_row_range", name);
  static const char *const kNames[2][3] = {{"CAPS", "CAP_TYPES", "CAP_PARAMS"},
                                            {"RANGE_CAPS", "RANGE_CAP_TYPES", NULL}};
  static const FaCapturesText kForms[3] = {FA_CAPTURES_VALUES, FA_CAPTURES_TYPES,
                                           FA_CAPTURES_PARAMS};
  for (int range = 0; range < 2; ++range)
    for (int form = 0; form < 3 && kNames[range][form]; ++form) {
      FaText t;
      faTextInit(&t);
      if (range)
        faAttentionAppendRangeCaptures(&t, k, kForms[form]);
      else
        faAttentionAppendCaptures(&t, k, kForms[form]);
      faTemplateVarsSetText(vars, kNames[range][form], t.data);
      faTextDestroy(&t);
    }
  faAttentionSetSummaryVars(vars, k, false);
}
