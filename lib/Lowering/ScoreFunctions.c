/* The op's mask and score_mod functions as the kernels call them.
 *
 * fa.gridwise_attention names func.funcs on tensors (docs/dialect.md); a
 * kernel works on buffers. For kernel NAME this appends @NAME_mask and
 * @NAME_mod: clones of the functions whose captured tensors are memref
 * arguments of the kernel's buffer types, each tensor.extract of one a
 * memref.load at its indices clamped into [0, dim - 1] (a dynamic index out
 * of range reads the nearest element: defined, and never outside the
 * buffer). They carry {fa.inline}: fa-lower-attention inlines their calls in
 * every kernel once all kernels are in (faModuleInlineMarked). */
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

const char *faAttentionAppendFunctions(MlirOperation module, const FaAttentionKernel *k) {
  if (!mlirOperationIsNull(k->maskFn))
    appendClone(module, k, k->maskFn, k->name, "mask", 4);
  if (!mlirOperationIsNull(k->modFn))
    appendClone(module, k, k->modFn, k->name, "mod", 5);
  return NULL;
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
  FaText caps, types;
  faTextInit(&caps);
  faTextInit(&types);
  for (intptr_t i = 0; i < k->numCaptures; ++i) {
    faTextAppend(&caps, ", %%cap%ld", (long)i);
    faTextAppend(&types, ", !C%ld", (long)i);
  }
  faTemplateVarsSet(vars, "CAPS", "%s", caps.data);
  faTemplateVarsSet(vars, "CAP_TYPES", "%s", types.data);
  faTextDestroy(&caps);
  faTextDestroy(&types);
}
