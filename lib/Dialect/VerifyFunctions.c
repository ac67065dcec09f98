/* Verification of the functions fa.gridwise_attention's `mask` and
 * `score_mod` attributes name (docs/dialect.md, "Masks and score
 * modifications"):
 *   mask:      func.func @m(%b, %h, %i, %j: index, captures...) -> i1
 *   score_mod: func.func @s(%s: f32, %b, %h, %i, %j: index, captures...) -> f32
 * Each is one block of arith, math and index ops, tensor.extract of a
 * captured tensor, and func.return: what every kernel can inline on each
 * score. A capture read at a constant index outside its static shape is an
 * error here; a dynamic index out of range reads the nearest element in the
 * kernels (docs/dialect.md). */
#include "Dialect/AttentionAttrs.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* "'fa.gridwise_attention' op <fmt>" at `loc`; failure. */
static MlirLogicalResult fnError(MlirLocation loc, const char *fmt, ...) {
  char msg[512];
  int n = snprintf(msg, sizeof msg, "'" FA_OP_GRIDWISE_ATTENTION "' op ");
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
  va_end(ap);
  mlirEmitError(loc, msg);
  return mlirLogicalResultFailure();
}

#define TRY(x)                                                                 \
  do {                                                                         \
    if (mlirLogicalResultIsFailure(x))                                         \
      return mlirLogicalResultFailure();                                       \
  } while (0)

static bool nameIs(MlirOperation op, const char *name) {
  return mlirStringRefEqual(mlirIdentifierStr(mlirOperationGetName(op)),
                            mlirStringRefCreateFromCString(name));
}

static bool nameHasPrefix(MlirOperation op, const char *prefix) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  size_t n = strlen(prefix);
  return name.length > n && !strncmp(name.data, prefix, n);
}

/* A function being checked: which attribute names it, where its captures
 * start among its arguments. */
typedef struct {
  MlirOperation attention, fn;
  const char *attr;
  intptr_t firstCapture;
} FnCheck;

/* What a capture may be: a ranked tensor, or a scalar (int, index, float). */
static bool isCaptureType(MlirType t) {
  if (mlirTypeIsARankedTensor(t))
    t = mlirShapedTypeGetElementType(t);
  return mlirTypeIsAInteger(t) || mlirTypeIsAIndex(t) || mlirTypeIsAFloat(t);
}

static MlirLogicalResult checkSignature(const FnCheck *c, bool isMask) {
  MlirContext ctx = mlirOperationGetContext(c->fn);
  MlirType fnType = mlirTypeAttrGetValue(
      mlirOperationGetAttributeByName(c->fn, mlirStringRefCreateFromCString("function_type")));
  intptr_t numCaptures = faGridwiseAttentionGetNumCaptures(c->attention);
  MlirLocation loc = mlirOperationGetLocation(c->attention);
  if (mlirFunctionTypeGetNumInputs(fnType) != c->firstCapture + numCaptures ||
      mlirFunctionTypeGetNumResults(fnType) != 1)
    return fnError(loc, "'%s' function takes %s4 index arguments (b, h, i, j) and the op's "
                        "%ld captures and returns one %s",
                   c->attr, isMask ? "" : "the f32 score, ", (long)numCaptures,
                   isMask ? "i1" : "f32");
  for (intptr_t i = 0; i < c->firstCapture + numCaptures; ++i) {
    MlirType want = i >= c->firstCapture
                        ? mlirValueGetType(faGridwiseAttentionGetCapture(c->attention,
                                                                         i - c->firstCapture))
                    : (!isMask && i == 0) ? mlirF32TypeGet(ctx)
                                          : mlirIndexTypeGet(ctx);
    if (!mlirTypeEqual(mlirFunctionTypeGetInput(fnType, i), want))
      return fnError(loc, "'%s' function argument %ld has the wrong type (%s)", c->attr, (long)i,
                     i >= c->firstCapture ? "the capture's type" : isMask || i ? "index" : "f32");
  }
  MlirType res = isMask ? mlirIntegerTypeGet(ctx, 1) : mlirF32TypeGet(ctx);
  if (!mlirTypeEqual(mlirFunctionTypeGetResult(fnType, 0), res))
    return fnError(loc, "'%s' function must return %s", c->attr, isMask ? "i1" : "f32");
  return mlirLogicalResultSuccess();
}

/* `v` is argument i >= firstCapture of the function's block. */
static bool isCaptureArg(const FnCheck *c, MlirValue v) {
  return mlirValueIsABlockArgument(v) &&
         mlirBlockEqual(mlirBlockArgumentGetOwner(v),
                        mlirRegionGetFirstBlock(mlirOperationGetRegion(c->fn, 0))) &&
         mlirBlockArgumentGetArgNumber(v) >= c->firstCapture;
}

/* Constant index `v`, if it is one (an arith.constant of index type). */
static bool constantIndex(MlirValue v, int64_t *out) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!nameIs(def, "arith.constant"))
    return false;
  MlirAttribute a = mlirOperationGetAttributeByName(def, mlirStringRefCreateFromCString("value"));
  if (!mlirAttributeIsAInteger(a))
    return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

static MlirLogicalResult checkExtract(const FnCheck *c, MlirOperation op) {
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue src = mlirOperationGetOperand(op, 0);
  if (!isCaptureArg(c, src))
    return fnError(loc, "'%s' function: tensor.extract must read a captured tensor (an "
                        "argument after the indices)", c->attr);
  MlirType t = mlirValueGetType(src);
  for (intptr_t d = 0; d + 1 < mlirOperationGetNumOperands(op); ++d) {
    int64_t idx;
    if (mlirShapedTypeIsDynamicDim(t, d) || !constantIndex(mlirOperationGetOperand(op, d + 1), &idx))
      continue;
    if (idx < 0 || idx >= mlirShapedTypeGetDimSize(t, d))
      return fnError(loc, "'%s' function reads index %ld of dimension %ld of a capture of size "
                          "%ld", c->attr, (long)idx, (long)d, (long)mlirShapedTypeGetDimSize(t, d));
  }
  return mlirLogicalResultSuccess();
}

/* The body: one block, arith/math/index ops, tensor.extract of captures
 * (their uses only), func.return last. */
static MlirLogicalResult checkBody(const FnCheck *c) {
  MlirRegion body = mlirOperationGetRegion(c->fn, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(body);
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(entry)))
    return fnError(mlirOperationGetLocation(c->fn), "'%s' function must have one block",
                   c->attr);
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (nameIs(op, "tensor.extract")) {
      TRY(checkExtract(c, op));
      continue;
    }
    bool allowed = nameIs(op, "func.return") || nameHasPrefix(op, "arith.") ||
                   nameHasPrefix(op, "math.") || nameHasPrefix(op, "index.");
    if (!allowed || mlirOperationGetNumRegions(op)) {
      MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
      return fnError(mlirOperationGetLocation(op),
                     "'%s' function may hold only arith, math and index ops and "
                     "tensor.extract of captures, not '%.*s'",
                     c->attr, (int)name.length, name.data);
    }
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
      if (isCaptureArg(c, mlirOperationGetOperand(op, i)) &&
          mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetOperand(op, i))))
        return fnError(mlirOperationGetLocation(op),
                       "'%s' function may use a captured tensor only in tensor.extract",
                       c->attr);
  }
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult checkFunction(MlirOperation op, FaAttentionAttr a) {
  const char *attr = faGridwiseAttentionGetAttrName(a);
  if (mlirAttributeIsNull(faGridwiseAttentionGetAttr(op, a)))
    return mlirLogicalResultSuccess();
  MlirOperation fn = faGridwiseAttentionGetFunction(op, a);
  MlirLocation loc = mlirOperationGetLocation(op);
  if (mlirOperationIsNull(fn) || !nameIs(fn, "func.func"))
    return fnError(loc, "'%s' names no func.func in the enclosing symbol table", attr);
  if (mlirRegionIsNull(mlirOperationGetRegion(fn, 0)) ||
      mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0))))
    return fnError(loc, "'%s' function must have a body", attr);
  FnCheck c = {op, fn, attr, a == FA_ATTENTION_ATTR_MASK ? 4 : 5};
  TRY(checkSignature(&c, a == FA_ATTENTION_ATTR_MASK));
  return checkBody(&c);
}

MlirLogicalResult faAttentionVerifyFunctions(MlirOperation op) {
  intptr_t numCaptures = faGridwiseAttentionGetNumCaptures(op);
  MlirLocation loc = mlirOperationGetLocation(op);
  bool hasFn = !mlirAttributeIsNull(faGridwiseAttentionGetAttr(op, FA_ATTENTION_ATTR_MASK)) ||
               !mlirAttributeIsNull(faGridwiseAttentionGetAttr(op, FA_ATTENTION_ATTR_SCORE_MOD));
  for (intptr_t i = numCaptures; i < FA_ATTENTION_MAX_CAPTURES; ++i)
    if (!mlirValueIsNull(faGridwiseAttentionGetOperand(op, FA_ATTENTION_SEGMENT_CAPTURE0 + (int)i)))
      return fnError(loc, "captures must fill the segments from capture0 up (capture%ld is "
                          "empty)", (long)numCaptures);
  if (numCaptures && !hasFn)
    return fnError(loc, "has captures but no 'mask' or 'score_mod' function to take them");
  for (intptr_t i = 0; i < numCaptures; ++i)
    if (!isCaptureType(mlirValueGetType(faGridwiseAttentionGetCapture(op, i))))
      return fnError(loc, "capture %ld must be a ranked tensor or a scalar integer, index or "
                          "float", (long)i);
  TRY(checkFunction(op, FA_ATTENTION_ATTR_MASK));
  return checkFunction(op, FA_ATTENTION_ATTR_SCORE_MOD);
}
