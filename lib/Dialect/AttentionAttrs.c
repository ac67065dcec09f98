/* fa.gridwise_attention's attribute table (AttentionAttrs.def) as data, and
 * the typed getters of fa-c/Dialect.h that read the op through it. */
#include "Dialect/AttentionAttrs.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#define FA_PRESENCE_REQUIRED true
#define FA_PRESENCE_OPTIONAL false
#define FA_ATTENTION_ATTR_NONE FA_ATTENTION_ATTR_COUNT /* excludes nothing */

static const FaAttentionAttrInfo kAttrs[FA_ATTENTION_ATTR_COUNT] = {
#define FA_ATTENTION_ATTR(ID, name, kind, presence, min, max, pow2, excludes, dflt)             \
  [FA_ATTENTION_ATTR_##ID] = {name, FA_ATTR_KIND_##kind, FA_PRESENCE_##presence, min, max, pow2, \
                              FA_ATTENTION_ATTR_##excludes, dflt},
#include "Dialect/AttentionAttrs.def"
};

/* A row per enumerator: the designated initializers put each row at its
 * FaAttentionAttr (a row without one does not compile, nor do two rows of
 * one ID here); this checks that no enumerator lacks a row. */
enum {
#define FA_ATTENTION_ATTR(ID, ...) kRow_##ID,
#include "Dialect/AttentionAttrs.def"
  kRowCount
};
_Static_assert((int)kRowCount == (int)FA_ATTENTION_ATTR_COUNT, "a FaAttentionAttr without a row");

/* Whether each operand segment is optional. */
static const bool kSegmentOptional[FA_ATTENTION_SEGMENT_COUNT] = {
#define FA_ATTENTION_OPERAND(ID, name, presence) [FA_ATTENTION_SEGMENT_##ID] = !FA_PRESENCE_##presence,
#include "Dialect/AttentionAttrs.def"
};
_Static_assert(FA_ATTENTION_SEGMENT_CAPTURE3 - FA_ATTENTION_SEGMENT_CAPTURE0 + 1 ==
                   FA_ATTENTION_MAX_CAPTURES,
               "one capture segment per capture");

_Static_assert(FA_ATTENTION_ATTR_PV_SPLIT - FA_ATTENTION_ATTR_BLOCK_M == FA_ATTENTION_HINT_PV_SPLIT,
               "the hints' attributes follow FaAttentionHint");
_Static_assert(FA_ATTENTION_ATTR_O_BSHD - FA_ATTENTION_ATTR_Q_BSHD == FA_ATTENTION_O,
               "the layout attributes follow FaAttentionTensor");

/* --- the table --------------------------------------------------------------- */

const FaAttentionAttrInfo *faAttentionAttrGetInfo(FaAttentionAttr a) {
  return (unsigned)a < FA_ATTENTION_ATTR_COUNT ? &kAttrs[a] : NULL;
}

FaAttentionAttr faAttentionAttrLookup(MlirStringRef name) {
  int a = 0;
  while (a < FA_ATTENTION_ATTR_COUNT &&
         !mlirStringRefEqual(name, mlirStringRefCreateFromCString(kAttrs[a].name)))
    ++a;
  return (FaAttentionAttr)a;
}

bool faAttentionSegmentIsOptional(FaAttentionOperandSegment s) {
  return (unsigned)s < FA_ATTENTION_SEGMENT_COUNT && kSegmentOptional[s];
}

static bool isKind(FaAttentionAttr a, FaAttrKind kind) {
  const FaAttentionAttrInfo *info = faAttentionAttrGetInfo(a);
  return info && info->kind == kind;
}

MlirAttribute faAttentionAttrGetInt(MlirContext ctx, FaAttentionAttr a, int64_t value) {
  if (isKind(a, FA_ATTR_KIND_INTEGER))
    return mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), value);
  if (isKind(a, FA_ATTR_KIND_UNIT) && value)
    return mlirUnitAttrGet(ctx);
  return mlirAttributeGetNull();
}

MlirAttribute faAttentionAttrGetFloat(MlirContext ctx, FaAttentionAttr a, double value) {
  return isKind(a, FA_ATTR_KIND_F32) ? mlirFloatAttrDoubleGet(ctx, mlirF32TypeGet(ctx), value)
                                     : mlirAttributeGetNull();
}

/* --- getters ----------------------------------------------------------------- */

const char *faGridwiseAttentionGetAttrName(FaAttentionAttr a) {
  const FaAttentionAttrInfo *info = faAttentionAttrGetInfo(a);
  return info ? info->name : "";
}

const char *faGridwiseAttentionGetBshdAttrName(FaAttentionTensor t) {
  return (unsigned)t <= FA_ATTENTION_O ? faGridwiseAttentionGetAttrName(faAttentionAttrOfBshd(t))
                                       : "";
}

MlirAttribute faGridwiseAttentionGetAttr(MlirOperation op, FaAttentionAttr a) {
  const FaAttentionAttrInfo *info = faAttentionAttrGetInfo(a);
  if (mlirOperationIsNull(op) || !info)
    return mlirAttributeGetNull();
  return mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(info->name));
}

/* Integer attribute `a` of `op` in `*value`; false when it has none. */
static bool getInt(MlirOperation op, FaAttentionAttr a, int64_t *value) {
  MlirAttribute attr = faGridwiseAttentionGetAttr(op, a);
  if (mlirAttributeIsNull(attr) || !mlirAttributeIsAInteger(attr))
    return false;
  *value = mlirIntegerAttrGetValueInt(attr);
  return true;
}

static bool hasAttr(MlirOperation op, FaAttentionAttr a) {
  return !mlirAttributeIsNull(faGridwiseAttentionGetAttr(op, a));
}

double faGridwiseAttentionGetScale(MlirOperation op) {
  MlirAttribute attr = faGridwiseAttentionGetAttr(op, FA_ATTENTION_ATTR_SCALE);
  return !mlirAttributeIsNull(attr) && mlirAttributeIsAFloat(attr)
             ? mlirFloatAttrGetValueDouble(attr)
             : kAttrs[FA_ATTENTION_ATTR_SCALE].dflt;
}

bool faGridwiseAttentionGetCausalOffset(MlirOperation op, int64_t *offset) {
  int64_t value = (int64_t)kAttrs[FA_ATTENTION_ATTR_CAUSAL_OFFSET].dflt;
  bool causal = getInt(op, FA_ATTENTION_ATTR_CAUSAL_OFFSET, &value);
  if (offset)
    *offset = value;
  return causal;
}

bool faGridwiseAttentionIsKTransposed(MlirOperation op) {
  return hasAttr(op, FA_ATTENTION_ATTR_K_TRANSPOSED);
}

bool faGridwiseAttentionIsBshd(MlirOperation op, FaAttentionTensor t) {
  return (unsigned)t <= FA_ATTENTION_O && hasAttr(op, faAttentionAttrOfBshd(t));
}

int64_t faGridwiseAttentionGetIntHint(MlirOperation op, FaAttentionHint h, int64_t dflt) {
  int64_t value = dflt;
  if ((unsigned)h < FA_ATTENTION_HINT_COUNT)
    getInt(op, faAttentionAttrOfHint(h), &value);
  return value;
}

/* The number of operands in segment `s` of `op`: its operandSegmentSizes
 * entry, or, without that attribute (an unverified op), 1 for a required
 * segment and 0 for an optional one. */
static int32_t segmentSize(MlirAttribute segments, FaAttentionOperandSegment s) {
  if (mlirAttributeIsNull(segments) || !mlirAttributeIsADenseI32Array(segments) ||
      s >= mlirDenseArrayGetNumElements(segments))
    return !faAttentionSegmentIsOptional(s);
  return mlirDenseI32ArrayGetElement(segments, s);
}

intptr_t faAttentionSegmentGetStart(MlirOperation op, FaAttentionOperandSegment s,
                                    intptr_t *size) {
  *size = 0;
  if (mlirOperationIsNull(op) || (unsigned)s >= FA_ATTENTION_SEGMENT_COUNT)
    return 0;
  MlirAttribute segments = faGridwiseAttentionGetAttr(op, FA_ATTENTION_ATTR_OPERAND_SEGMENT_SIZES);
  intptr_t start = 0;
  for (int g = 0; g < (int)s; ++g)
    start += segmentSize(segments, (FaAttentionOperandSegment)g);
  intptr_t n = segmentSize(segments, s), numOperands = mlirOperationGetNumOperands(op);
  *size = start + n <= numOperands ? n : 0;
  return start;
}

MlirValue faGridwiseAttentionGetOperand(MlirOperation op, FaAttentionOperandSegment s) {
  intptr_t size;
  intptr_t start = faAttentionSegmentGetStart(op, s, &size);
  if (size != 1)
    return (MlirValue){NULL};
  return mlirOperationGetOperand(op, start);
}

MlirValue faGridwiseAttentionGetBias(MlirOperation op) {
  return faGridwiseAttentionGetOperand(op, FA_ATTENTION_SEGMENT_BIAS);
}

MlirValue faGridwiseAttentionGetKvLen(MlirOperation op) {
  return faGridwiseAttentionGetOperand(op, FA_ATTENTION_SEGMENT_KV_LEN);
}

bool faGridwiseAttentionHasLse(MlirOperation op) {
  return !mlirOperationIsNull(op) && mlirOperationGetNumResults(op) > 1;
}

MlirValue faGridwiseAttentionGetSinks(MlirOperation op) {
  return faGridwiseAttentionGetOperand(op, FA_ATTENTION_SEGMENT_SINKS);
}

intptr_t faGridwiseAttentionGetNumCaptures(MlirOperation op) {
  intptr_t n = 0;
  while (n < FA_ATTENTION_MAX_CAPTURES && !mlirValueIsNull(faGridwiseAttentionGetCapture(op, n)))
    ++n;
  return n;
}

MlirValue faGridwiseAttentionGetCapture(MlirOperation op, intptr_t i) {
  if (i < 0 || i >= FA_ATTENTION_MAX_CAPTURES)
    return (MlirValue){NULL};
  return faGridwiseAttentionGetOperand(op, FA_ATTENTION_SEGMENT_CAPTURE0 + (int)i);
}

MlirOperation faGridwiseAttentionGetFunction(MlirOperation op, FaAttentionAttr a) {
  MlirAttribute ref = faGridwiseAttentionGetAttr(op, a);
  if (mlirAttributeIsNull(ref) || !isKind(a, FA_ATTR_KIND_SYMBOL) ||
      !mlirAttributeIsAFlatSymbolRef(ref))
    return (MlirOperation){NULL};
  /* The nearest op above `op` that is a symbol table. */
  for (MlirOperation p = mlirOperationGetParentOperation(op); !mlirOperationIsNull(p);
       p = mlirOperationGetParentOperation(p)) {
    MlirSymbolTable table = mlirSymbolTableCreate(p);
    if (mlirSymbolTableIsNull(table))
      continue;
    MlirOperation fn = mlirSymbolTableLookup(table, mlirFlatSymbolRefAttrGetValue(ref));
    mlirSymbolTableDestroy(table);
    return fn;
  }
  return (MlirOperation){NULL};
}
