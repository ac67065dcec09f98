/* The op's mask and score_mod functions as the kernels call them.
 *
 * fa.gridwise_attention names func.funcs on tensors (docs/dialect.md); a
 * kernel works on buffers. For kernel NAME this appends @NAME_mask and
 * @NAME_mod: clones of the functions whose captured tensors are memref
 * arguments of the kernel's buffer types, each tensor.extract of one a
 * memref.load at its indices clamped into [0, dim - 1] (a dynamic index out
 * of range reads the nearest element: defined, and never outside the
 * buffer). They carry {fa.inline}: fa-lower-attention inlines their calls in
 * every kernel once all kernels are in (faModuleInlineMarked). Two rewrites
 * make them cheaper per score, below: conversions to f32 of index values in
 * 32 bits, and divisions by a constant as products. */
#include "Lowering/AttentionKernel.h"
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
  MlirContext ctx = mlirOperationGetContext(before);
  MlirNamedAttribute attr =
      faNamedAttributeGet(ctx, "value", mlirIntegerAttrGet(mlirIndexTypeGet(ctx), value));
  MlirType index = mlirIndexTypeGet(ctx);
  return mlirOperationGetResult(
      faOperationCreateBefore(before, "arith.constant", 0, NULL, 1, &index, 1, &attr), 0);
}

static MlirValue binary(MlirOperation before, const char *name, MlirValue a, MlirValue b) {
  MlirValue operands[2] = {a, b};
  MlirType type = mlirValueGetType(a);
  return mlirOperationGetResult(
      faOperationCreateBefore(before, name, 2, operands, 1, &type, 0, NULL), 0);
}

/* `idx` clamped into [0, size of dim `d` of `buf`) before `before`. */
static MlirValue clampIndex(MlirOperation before, MlirValue buf, intptr_t d, MlirValue idx) {
  MlirType type = mlirValueGetType(buf);
  MlirValue last;
  if (mlirShapedTypeIsDynamicDim(type, d)) {
    MlirValue operands[2] = {buf, indexConstant(before, d)};
    MlirType index = mlirIndexTypeGet(mlirOperationGetContext(before));
    MlirValue size = mlirOperationGetResult(
        faOperationCreateBefore(before, "memref.dim", 2, operands, 1, &index, 0, NULL), 0);
    last = binary(before, "arith.subi", size, indexConstant(before, 1));
  } else {
    last = indexConstant(before, mlirShapedTypeGetDimSize(type, d) - 1);
  }
  MlirValue low = binary(before, "arith.maxsi", idx, indexConstant(before, 0));
  return binary(before, "arith.minsi", low, last);
}

/* tensor.extract %cap[idx...] -> memref.load %cap[clamped idx...]. */
static void rewriteExtract(MlirOperation extract) {
  MlirValue buf = mlirOperationGetOperand(extract, 0);
  intptr_t n = mlirOperationGetNumOperands(extract);
  MlirValue operands[1 + 8];
  if (n > 9)
    return; /* ranks above 8 are not captures any kernel makes */
  operands[0] = buf;
  for (intptr_t d = 0; d + 1 < n; ++d)
    operands[d + 1] = clampIndex(extract, buf, d, mlirOperationGetOperand(extract, d + 1));
  MlirValue old = mlirOperationGetResult(extract, 0);
  MlirType elt = mlirValueGetType(old);
  MlirOperation load = faOperationCreateBefore(extract, "memref.load", n, operands, 1, &elt, 0, NULL);
  mlirValueReplaceAllUsesOfWith(old, mlirOperationGetResult(load, 0));
  mlirOperationDestroy(extract);
}

/* --- integer conversions the kernels can do in 32 bits ----------------------
 * Index arithmetic is 64-bit on GPUs, and an i64 -> f32 conversion costs
 * several instructions per score (ALiBi's slope * (k - q)). Where the static
 * range of the converted value fits i32 (the indices b, h, i, j are below
 * 2^31, the kernels' i32 rows and columns), it is truncated to i32 first:
 * the same value, and the 64-bit arithmetic before it then narrows. */

typedef struct {
  bool known;
  long double lo, hi; /* exact for the |values| < 2^62 kept known */
} StaticRange;

static StaticRange rangeOf(MlirValue v, MlirBlock entry, int depth);

static StaticRange binaryRange(MlirOperation op, MlirBlock entry, int depth) {
  StaticRange a = rangeOf(mlirOperationGetOperand(op, 0), entry, depth + 1);
  StaticRange b = rangeOf(mlirOperationGetOperand(op, 1), entry, depth + 1);
  StaticRange r = {false, 0, 0};
  if (!a.known || !b.known)
    return r;
  if (faOpIsA(op, "arith.addi"))
    r = (StaticRange){true, a.lo + b.lo, a.hi + b.hi};
  else if (faOpIsA(op, "arith.subi"))
    r = (StaticRange){true, a.lo - b.hi, a.hi - b.lo};
  else if (faOpIsA(op, "arith.minsi"))
    r = (StaticRange){true, a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi};
  else if (faOpIsA(op, "arith.maxsi"))
    r = (StaticRange){true, a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
  const long double lim = 4611686018427387904.0L; /* 2^62 */
  if (r.known && (r.lo < -lim || r.hi > lim))
    r.known = false;
  return r;
}

static StaticRange rangeOf(MlirValue v, MlirBlock entry, int depth) {
  StaticRange unknown = {false, 0, 0};
  if (depth > 16)
    return unknown;
  if (mlirValueIsABlockArgument(v)) {
    bool index = mlirBlockEqual(mlirBlockArgumentGetOwner(v), entry) &&
                 mlirTypeIsAIndex(mlirValueGetType(v));
    /* b, h, i, j (and index captures: unknown) */
    intptr_t n = mlirBlockArgumentGetArgNumber(v);
    int first = mlirTypeIsAF32(mlirValueGetType(mlirBlockGetArgument(entry, 0))) ? 1 : 0;
    if (index && n >= first && n < first + 4)
      return (StaticRange){true, 0, 2147483647.0L};
    return unknown;
  }
  MlirOperation op = mlirOpResultGetOwner(v);
  if (faOpIsA(op, "arith.constant")) {
    MlirAttribute a = faOpGetAttr(op, "value");
    if (!mlirAttributeIsAInteger(a))
      return unknown;
    long double c = (long double)mlirIntegerAttrGetValueInt(a);
    return (StaticRange){true, c, c};
  }
  if (faOpIsA(op, "arith.index_cast") || faOpIsA(op, "arith.extsi")) {
    MlirType to = mlirValueGetType(v);
    StaticRange r = rangeOf(mlirOperationGetOperand(op, 0), entry, depth + 1);
    /* index_cast to a narrower type truncates: only where it fits. */
    int w = mlirTypeIsAIndex(to) ? 64 : (int)mlirIntegerTypeGetWidth(to);
    long double half = w >= 63 ? 4611686018427387904.0L : (long double)(1LL << (w - 1));
    if (r.known && (r.lo < -half || r.hi >= half))
      r.known = false;
    return r;
  }
  if (mlirOperationGetNumOperands(op) == 2 && mlirOperationGetNumResults(op) == 1)
    return binaryRange(op, entry, depth);
  return unknown;
}

/* sitofp %x : i64 -> f32 where x fits i32: trunci to i32, then sitofp. */
static void narrowConversion(MlirOperation op, MlirBlock entry) {
  if (!faOpIsA(op, "arith.sitofp"))
    return;
  MlirValue x = mlirOperationGetOperand(op, 0);
  MlirType t = mlirValueGetType(x);
  if (!mlirTypeIsAInteger(t) || mlirIntegerTypeGetWidth(t) != 64)
    return;
  StaticRange r = rangeOf(x, entry, 0);
  if (!r.known || r.lo < -2147483648.0L || r.hi > 2147483647.0L)
    return;
  MlirType i32 = mlirIntegerTypeGet(mlirOperationGetContext(op), 32);
  MlirValue narrow = mlirOperationGetResult(
      faOperationCreateBefore(op, "arith.trunci", 1, &x, 1, &i32, 0, NULL), 0);
  mlirOperationSetOperand(op, 0, narrow);
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

/* The clone's signature: its captured tensors become the kernel's buffers. */
static void retypeCaptures(MlirOperation clone, const FaAttentionKernel *k, intptr_t first) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(clone, 0));
  intptr_t n = mlirBlockGetNumArguments(entry);
  MlirType inputs[4 + 1 + FA_ATTENTION_MAX_CAPTURES];
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
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (faOpIsA(op, "tensor.extract") &&
        mlirTypeIsAMemRef(mlirValueGetType(mlirOperationGetOperand(op, 0))))
      rewriteExtract(op);
    else if (faOpIsA(op, "arith.divf"))
      divisionByConstant(op);
    else if (faOpIsA(op, "math.tanh") && tanhApproximates(k))
      approximateTanh(op);
    else
      narrowConversion(op, entry);
    op = next;
  }
}

/* Appends @NAME_SUFFIX, the kernel copy of `fn`, to `module`. */
static void appendClone(MlirOperation module, const FaAttentionKernel *k, MlirOperation fn,
                        const char *name, const char *suffix, intptr_t firstCapture) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirOperation clone = mlirOperationClone(fn);
  char symbol[192];
  snprintf(symbol, sizeof symbol, "%s_%s", name, suffix);
  mlirOperationSetAttributeByName(clone, mlirStringRefCreateFromCString("sym_name"),
                                  mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(symbol)));
  mlirOperationSetAttributeByName(clone, mlirStringRefCreateFromCString("sym_visibility"),
                                  mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("private")));
  mlirOperationSetAttributeByName(clone, mlirStringRefCreateFromCString(FA_INLINE_ATTR),
                                  mlirUnitAttrGet(ctx));
  retypeCaptures(clone, k, firstCapture);
  mlirBlockAppendOwnedOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0)),
                                clone);
}

void faAttentionAppendFunctions(MlirOperation module, const FaAttentionKernel *k) {
  if (!mlirOperationIsNull(k->maskFn))
    appendClone(module, k, k->maskFn, k->name, "mask", 4);
  if (!mlirOperationIsNull(k->modFn))
    appendClone(module, k, k->modFn, k->name, "mod", 5);
}

/* ", VALUE", ", TYPE" or ", VALUE: TYPE": one item of a kernel's list. */
static void appendListItem(FaText *t, FaCapturesText form, const char *value, const char *type) {
  if (form == FA_CAPTURES_VALUES)
    faTextAppend(t, ", %s", value);
  else if (form == FA_CAPTURES_TYPES)
    faTextAppend(t, ", %s", type);
  else
    faTextAppend(t, ", %s: %s", value, type);
}

void faAttentionAppendCaptures(FaText *t, const FaAttentionKernel *k, FaCapturesText form) {
  for (intptr_t i = 0; i < k->numCaptures; ++i) {
    char value[32], type[32];
    snprintf(value, sizeof value, "%%cap%ld", (long)i);
    snprintf(type, sizeof type, "!C%ld", (long)i);
    appendListItem(t, form, value, type);
  }
}

void faAttentionAppendRangeCaptures(FaText *t, const FaAttentionKernel *k, FaCapturesText form) {
  faAttentionAppendCaptures(t, k, form);
  for (int s = 0; s < k->numSummaries; ++s) {
    char value[32];
    snprintf(value, sizeof value, "%%sum%d", s);
    appendListItem(t, form, value, "memref<?xi64>");
  }
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
  faTemplateVarsSet(vars, "RANGE_FN", "%s_mask_range", name);
  static const char *const kNames[2][2] = {{"CAPS", "CAP_TYPES"}, {"RANGE_CAPS", "RANGE_CAP_TYPES"}};
  for (int range = 0; range < 2; ++range)
    for (int form = 0; form < 2; ++form) {
      FaText t;
      faTextInit(&t);
      if (range)
        faAttentionAppendRangeCaptures(&t, k, form ? FA_CAPTURES_TYPES : FA_CAPTURES_VALUES);
      else
        faAttentionAppendCaptures(&t, k, form ? FA_CAPTURES_TYPES : FA_CAPTURES_VALUES);
      faTemplateVarsSetText(vars, kNames[range][form], t.data);
      faTextDestroy(&t);
    }
  faAttentionSetSummaryVars(vars, k);
}
