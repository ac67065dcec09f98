/* Builders for fa ops, shared by every pass that creates them. The
 * attributes of fa.gridwise_attention get their names and types from its
 * table (AttentionAttrs.def). */
#include "Dialect/AttentionAttrs.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* The attributes of an op being built. */
typedef struct {
  MlirContext ctx;
  MlirNamedAttribute named[FA_ATTENTION_ATTR_COUNT];
  intptr_t n;
} AttrList;

/* Adds attribute `a` with `value`, unless `value` is null (absent). */
static void addAttr(AttrList *list, FaAttentionAttr a, MlirAttribute value) {
  if (mlirAttributeIsNull(value))
    return;
  MlirIdentifier name = mlirIdentifierGet(
      list->ctx, mlirStringRefCreateFromCString(faGridwiseAttentionGetAttrName(a)));
  list->named[list->n++] = mlirNamedAttributeGet(name, value);
}

/* The segments of `operands` (a required one always holds its operand) and
 * the operands, in `values`; returns how many. */
static intptr_t collectOperands(FaAttentionOperands operands, int32_t *segments,
                                MlirValue *values) {
  MlirValue bySegment[FA_ATTENTION_SEGMENT_COUNT] = {
      operands.q, operands.k, operands.v, operands.bias, operands.kvLen, operands.sinks};
  for (intptr_t i = 0; i < operands.numCaptures; ++i)
    bySegment[FA_ATTENTION_SEGMENT_CAPTURE0 + i] = operands.captures[i];
  intptr_t n = 0;
  for (int s = 0; s < FA_ATTENTION_SEGMENT_COUNT; ++s) {
    segments[s] = !faAttentionSegmentIsOptional(s) || !mlirValueIsNull(bySegment[s]);
    if (segments[s])
      values[n++] = bySegment[s];
  }
  return n;
}

static MlirAttribute symbolOrNull(MlirContext ctx, const char *name) {
  return name ? mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(name))
              : mlirAttributeGetNull();
}

/* The attributes `attrs` asks for, and the operand segments. */
static void collectAttrs(AttrList *list, FaAttentionAttrs attrs, const int32_t *segments) {
  MlirContext ctx = list->ctx;
  addAttr(list, FA_ATTENTION_ATTR_OPERAND_SEGMENT_SIZES,
          mlirDenseI32ArrayGet(ctx, FA_ATTENTION_SEGMENT_COUNT, segments));
  addAttr(list, FA_ATTENTION_ATTR_SCALE,
          faAttentionAttrGetFloat(ctx, FA_ATTENTION_ATTR_SCALE, attrs.scale));
  if (attrs.causal)
    addAttr(list, FA_ATTENTION_ATTR_CAUSAL_OFFSET,
            faAttentionAttrGetInt(ctx, FA_ATTENTION_ATTR_CAUSAL_OFFSET, attrs.causalOffset));
  addAttr(list, FA_ATTENTION_ATTR_MASK, symbolOrNull(ctx, attrs.mask));
  addAttr(list, FA_ATTENTION_ATTR_SCORE_MOD, symbolOrNull(ctx, attrs.scoreMod));
  addAttr(list, FA_ATTENTION_ATTR_K_TRANSPOSED,
          faAttentionAttrGetInt(ctx, FA_ATTENTION_ATTR_K_TRANSPOSED, attrs.kTransposed));
  for (int t = FA_ATTENTION_Q; t <= FA_ATTENTION_O; ++t)
    addAttr(list, faAttentionAttrOfBshd(t),
            faAttentionAttrGetInt(ctx, faAttentionAttrOfBshd(t), attrs.bshd[t]));
  for (int h = 0; h < FA_ATTENTION_HINT_COUNT; ++h)
    if (attrs.hints[h])
      addAttr(list, faAttentionAttrOfHint(h),
              faAttentionAttrGetInt(ctx, faAttentionAttrOfHint(h), attrs.hints[h]));
}

/* O's type, and with `withLse` the f32 LSE [B, Hq, M] (from O in its
 * layout), in `results`; returns how many. */
static intptr_t collectResults(MlirContext ctx, MlirType outType, FaAttentionAttrs attrs,
                               MlirType *results) {
  results[0] = outType;
  if (!attrs.withLse)
    return 1;
  int64_t shape[3];
  for (int d = FA_DIM_BATCH; d <= FA_DIM_SEQ; ++d)
    shape[d] = mlirShapedTypeGetDimSize(
        outType, faAttentionLayoutGetAxis(attrs.bshd[FA_ATTENTION_O], false, d));
  results[1] = mlirRankedTensorTypeGet(3, shape, mlirF32TypeGet(ctx), mlirAttributeGetNull());
  return 2;
}

MlirOperation faGridwiseAttentionOpCreate(MlirLocation loc,
                                          FaAttentionOperands operands,
                                          FaAttentionAttrs attrs,
                                          MlirType outType) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirOperationState state = mlirOperationStateGet(
      mlirStringRefCreateFromCString(FA_OP_GRIDWISE_ATTENTION), loc);

  if (operands.numCaptures < 0 || operands.numCaptures > FA_ATTENTION_MAX_CAPTURES)
    return (MlirOperation){NULL};
  int32_t segments[FA_ATTENTION_SEGMENT_COUNT];
  MlirValue values[FA_ATTENTION_SEGMENT_COUNT];
  mlirOperationStateAddOperands(&state, collectOperands(operands, segments, values), values);

  MlirType results[2];
  mlirOperationStateAddResults(&state, collectResults(ctx, outType, attrs, results), results);

  AttrList list = {ctx, {{{NULL}, {NULL}}}, 0};
  collectAttrs(&list, attrs, segments);
  mlirOperationStateAddAttributes(&state, list.n, list.named);
  return mlirOperationCreate(&state);
}
