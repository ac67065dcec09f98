/* Builders for fa ops, shared by every pass that creates them. */
#include "fa-c/Dialect.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

static MlirNamedAttribute namedAttr(MlirContext ctx, const char *name,
                                    MlirAttribute attr) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), attr);
}

MlirOperation faGridwiseAttentionOpCreate(MlirLocation loc,
                                          FaAttentionOperands operands,
                                          FaAttentionAttrs attrs,
                                          MlirType outType) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirOperationState state = mlirOperationStateGet(
      mlirStringRefCreateFromCString(FA_OP_GRIDWISE_ATTENTION), loc);

  MlirValue values[5] = {operands.q, operands.k, operands.v};
  intptr_t n = 3;
  bool hasBias = !mlirValueIsNull(operands.bias);
  bool hasKvLen = !mlirValueIsNull(operands.kvLen);
  if (hasBias)
    values[n++] = operands.bias;
  if (hasKvLen)
    values[n++] = operands.kvLen;
  mlirOperationStateAddOperands(&state, n, values);

  MlirType results[2] = {outType};
  intptr_t nres = 1;
  if (attrs.withLse) { /* [B, Hq, M], from O in its layout */
    int64_t shape[3];
    for (int d = FA_DIM_BATCH; d <= FA_DIM_SEQ; ++d)
      shape[d] = mlirShapedTypeGetDimSize(
          outType, faAttentionLayoutGetAxis(attrs.bshd[FA_ATTENTION_O], false, d));
    results[nres++] = mlirRankedTensorTypeGet(3, shape, mlirF32TypeGet(ctx),
                                              mlirAttributeGetNull());
  }
  mlirOperationStateAddResults(&state, nres, results);

  int32_t segments[5] = {1, 1, 1, hasBias, hasKvLen};
  MlirNamedAttribute named[8];
  intptr_t nattr = 0;
  named[nattr++] = namedAttr(ctx, "operandSegmentSizes",
                             mlirDenseI32ArrayGet(ctx, 5, segments));
  named[nattr++] = namedAttr(
      ctx, "scale", mlirFloatAttrDoubleGet(ctx, mlirF32TypeGet(ctx), attrs.scale));
  if (attrs.causal)
    named[nattr++] = namedAttr(
        ctx, "causal_offset",
        mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), attrs.causalOffset));
  if (attrs.kTransposed)
    named[nattr++] = namedAttr(ctx, "k_transposed", mlirUnitAttrGet(ctx));
  for (int t = FA_ATTENTION_Q; t <= FA_ATTENTION_O; ++t)
    if (attrs.bshd[t])
      named[nattr++] = namedAttr(ctx, faGridwiseAttentionGetBshdAttrName(t),
                                 mlirUnitAttrGet(ctx));
  mlirOperationStateAddAttributes(&state, nattr, named);
  return mlirOperationCreate(&state);
}
