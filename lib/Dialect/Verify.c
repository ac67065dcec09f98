/* Verification of fa ops beyond what their IRDL definition expresses:
 * ranks, shape relations, element types, GQA group size and attribute ranges.
 * Every problem is reported at the op's location through MLIR's diagnostic
 * engine, in MLIR's own "'name' op message" form. */
#include "Dialect/AttentionAttrs.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* --- small helpers ------------------------------------------------------- */

static bool opNameIs(MlirOperation op, const char *name) {
  MlirIdentifier id = mlirOperationGetName(op);
  return mlirStringRefEqual(mlirIdentifierStr(id),
                            mlirStringRefCreateFromCString(name));
}

static MlirLogicalResult opError(MlirOperation op, const char *fmt, ...) {
  char msg[512];
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  int n = snprintf(msg, sizeof(msg), "'%.*s' op ", (int)name.length, name.data);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
  va_end(ap);
  mlirEmitError(mlirOperationGetLocation(op), msg);
  return mlirLogicalResultFailure();
}

/* Static size of dimension `i`, or -1 when dynamic. */
static int64_t dimOf(MlirType t, intptr_t i) {
  if (mlirShapedTypeIsDynamicDim(t, i))
    return -1;
  return mlirShapedTypeGetDimSize(t, i);
}

/* Two sizes are compatible when either is dynamic or they are equal. */
static bool sizesMatch(int64_t a, int64_t b) { return a < 0 || b < 0 || a == b; }

static bool isAttentionFloat(MlirType t) {
  return mlirTypeIsAF32(t) || mlirTypeIsAF16(t) || mlirTypeIsABF16(t);
}

static bool isRankedShaped(MlirType t) {
  return (mlirTypeIsARankedTensor(t) || mlirTypeIsAMemRef(t));
}

/* A ranked tensor of `rank` with an attention element type. */
static MlirLogicalResult checkTensor(MlirOperation op, const char *what,
                                     MlirType t, intptr_t rank) {
  if (!mlirTypeIsARankedTensor(t))
    return opError(op, "%s must be a ranked tensor", what);
  if (mlirShapedTypeGetRank(t) != rank)
    return opError(op, "%s must have rank %ld, got rank %ld", what, (long)rank,
                   (long)mlirShapedTypeGetRank(t));
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult checkDim(MlirOperation op, const char *what,
                                  MlirType t, intptr_t i, int64_t expected,
                                  const char *dimName) {
  int64_t got = dimOf(t, i);
  if (!sizesMatch(got, expected))
    return opError(op, "%s dimension %ld (%s) is %ld, expected %ld", what,
                   (long)i, dimName, (long)got, (long)expected);
  return mlirLogicalResultSuccess();
}

#define TRY(x)                                                                 \
  do {                                                                         \
    if (mlirLogicalResultIsFailure(x))                                         \
      return mlirLogicalResultFailure();                                       \
  } while (0)

/* --- fa.gridwise_attention's attributes, from its table (AttentionAttrs.def) - */

static MlirLogicalResult checkF32(MlirOperation op, const char *name, MlirAttribute a) {
  if (!mlirAttributeIsAFloat(a) || !mlirTypeIsAF32(mlirAttributeGetType(a)))
    return opError(op, "attribute '%s' must be an f32 float", name);
  double v = mlirFloatAttrGetValueDouble(a);
  if (!(v == v) || v > 3.4e38 || v < -3.4e38)
    return opError(op, "attribute '%s' must be finite", name);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult checkInteger(MlirOperation op, const FaAttentionAttrInfo *info,
                                      MlirAttribute a) {
  if (!mlirAttributeIsAInteger(a))
    return opError(op, "attribute '%s' must be an integer", info->name);
  int64_t v = mlirIntegerAttrGetValueInt(a);
  if (v < info->min || v > info->max)
    return opError(op, "attribute '%s' is %ld, expected a value in [%ld, %ld]", info->name,
                   (long)v, (long)info->min, (long)info->max);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult checkSymbol(MlirOperation op, const char *name, MlirAttribute a) {
  if (!mlirAttributeIsAFlatSymbolRef(a))
    return opError(op, "attribute '%s' must be a flat symbol reference (@name)", name);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult checkUnit(MlirOperation op, const char *name, MlirAttribute a) {
  if (!mlirAttributeIsAUnit(a))
    return opError(op, "attribute '%s' must be a unit attribute", name);
  return mlirLogicalResultSuccess();
}

/* Attribute `a` of `op`, if present, against its row. A missing required
 * one IRDL reports; the segment sizes IRDL checks. */
static MlirLogicalResult checkAttr(MlirOperation op, FaAttentionAttr a) {
  const FaAttentionAttrInfo *info = faAttentionAttrGetInfo(a);
  MlirAttribute attr = faGridwiseAttentionGetAttr(op, a);
  if (mlirAttributeIsNull(attr))
    return mlirLogicalResultSuccess();
  switch (info->kind) {
  case FA_ATTR_KIND_F32:
    return checkF32(op, info->name, attr);
  case FA_ATTR_KIND_INTEGER:
    return checkInteger(op, info, attr);
  case FA_ATTR_KIND_UNIT:
    return checkUnit(op, info->name, attr);
  case FA_ATTR_KIND_SYMBOL:
    return checkSymbol(op, info->name, attr);
  case FA_ATTR_KIND_SEGMENTS:
    break;
  }
  return mlirLogicalResultSuccess();
}

/* The attributes of `kind`, in the table's order. */
static MlirLogicalResult checkAttrsOfKind(MlirOperation op, FaAttrKind kind) {
  for (int a = 0; a < FA_ATTENTION_ATTR_COUNT; ++a)
    if (faAttentionAttrGetInfo(a)->kind == kind)
      TRY(checkAttr(op, a));
  return mlirLogicalResultSuccess();
}

/* The integers the table wants powers of two (once all are in range). */
static MlirLogicalResult checkPowersOfTwo(MlirOperation op) {
  for (int a = 0; a < FA_ATTENTION_ATTR_COUNT; ++a) {
    const FaAttentionAttrInfo *info = faAttentionAttrGetInfo(a);
    MlirAttribute attr = faGridwiseAttentionGetAttr(op, a);
    if (!info->powerOfTwo || mlirAttributeIsNull(attr))
      continue;
    int64_t v = mlirIntegerAttrGetValueInt(attr);
    if (v & (v - 1))
      return opError(op, "attribute '%s' is %ld, expected a power of two", info->name, (long)v);
  }
  return mlirLogicalResultSuccess();
}

static bool hasAttentionAttr(MlirOperation op, FaAttentionAttr a) {
  return !mlirAttributeIsNull(faGridwiseAttentionGetAttr(op, a));
}

/* The pairs of attributes the table says exclude each other. */
static MlirLogicalResult checkExclusions(MlirOperation op) {
  for (int a = 0; a < FA_ATTENTION_ATTR_COUNT; ++a) {
    FaAttentionAttr other = faAttentionAttrGetInfo(a)->excludes;
    if (other != FA_ATTENTION_ATTR_COUNT && hasAttentionAttr(op, a) &&
        hasAttentionAttr(op, other))
      return opError(op, "attributes '%s' and '%s' exclude each other",
                     faGridwiseAttentionGetAttrName(a), faGridwiseAttentionGetAttrName(other));
  }
  return mlirLogicalResultSuccess();
}

/* The unit attributes (the layouts of Q, K, V and O), before the shapes
 * they order are read. */
static MlirLogicalResult checkLayoutAttrs(MlirOperation op) {
  TRY(checkAttrsOfKind(op, FA_ATTR_KIND_UNIT));
  return checkExclusions(op);
}

/* The other attributes, once the shapes are right. */
static MlirLogicalResult checkAttentionAttrs(MlirOperation op) {
  TRY(checkAttrsOfKind(op, FA_ATTR_KIND_F32));
  TRY(checkAttrsOfKind(op, FA_ATTR_KIND_INTEGER));
  TRY(checkAttrsOfKind(op, FA_ATTR_KIND_SYMBOL));
  return checkPowersOfTwo(op);
}

/* --- fa.gridwise_attention ------------------------------------------------ */

/* Problem sizes taken from Q [B,Hq,M,D], K [B,Hkv,N,D], V [B,Hkv,N,Dv], each
 * dim on the axis its layout gives (faGridwiseAttentionGetAxis). */
typedef struct {
  int64_t b, hq, hkv, m, n, d, dv;
} AttentionDims;

/* Static size of dim `d` of tensor `t` (type `type`), -1 when dynamic. */
static int64_t sizeOfDim(MlirOperation op, MlirType type, FaAttentionTensor t,
                         FaAttentionDim d) {
  return dimOf(type, faGridwiseAttentionGetAxis(op, t, d));
}

/* Checks dim `d` of tensor `t` against `expected`, naming the axis. */
static MlirLogicalResult checkAttentionDim(MlirOperation op, const char *what, MlirType type,
                                           FaAttentionTensor t, FaAttentionDim d,
                                           int64_t expected, const char *dimName) {
  return checkDim(op, what, type, faGridwiseAttentionGetAxis(op, t, d), expected, dimName);
}

static MlirLogicalResult checkQKV(MlirOperation op, AttentionDims *dims) {
  MlirType q = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType k = mlirValueGetType(mlirOperationGetOperand(op, 1));
  MlirType v = mlirValueGetType(mlirOperationGetOperand(op, 2));
  TRY(checkTensor(op, "Q", q, 4));
  TRY(checkTensor(op, "K", k, 4));
  TRY(checkTensor(op, "V", v, 4));
  MlirType et = mlirShapedTypeGetElementType(q);
  if (!isAttentionFloat(et))
    return opError(op, "Q element type must be f32, f16 or bf16");
  if (!mlirTypeEqual(mlirShapedTypeGetElementType(k), et) ||
      !mlirTypeEqual(mlirShapedTypeGetElementType(v), et))
    return opError(op, "Q, K and V must have the same element type");
  TRY(checkLayoutAttrs(op));
  const FaAttentionTensor tq = FA_ATTENTION_Q, tk = FA_ATTENTION_K, tv = FA_ATTENTION_V;
  *dims = (AttentionDims){sizeOfDim(op, q, tq, FA_DIM_BATCH), sizeOfDim(op, q, tq, FA_DIM_HEADS),
                          sizeOfDim(op, k, tk, FA_DIM_HEADS), sizeOfDim(op, q, tq, FA_DIM_SEQ),
                          sizeOfDim(op, k, tk, FA_DIM_SEQ), sizeOfDim(op, q, tq, FA_DIM_HEAD),
                          sizeOfDim(op, v, tv, FA_DIM_HEAD)};
  TRY(checkAttentionDim(op, "K", k, tk, FA_DIM_BATCH, dims->b, "batch"));
  TRY(checkAttentionDim(op, "V", v, tv, FA_DIM_BATCH, dims->b, "batch"));
  TRY(checkAttentionDim(op, "K", k, tk, FA_DIM_HEAD, dims->d, "head dim of Q"));
  TRY(checkAttentionDim(op, "V", v, tv, FA_DIM_HEADS, dims->hkv, "KV heads of K"));
  TRY(checkAttentionDim(op, "V", v, tv, FA_DIM_SEQ, dims->n, "keys of K"));
  if (dims->hkv == 0)
    return opError(op, "KV heads (K dimension %ld) must be positive, got 0",
                   (long)faGridwiseAttentionGetAxis(op, FA_ATTENTION_K, FA_DIM_HEADS));
  if (dims->hq >= 0 && dims->hkv > 0 && dims->hq % dims->hkv != 0)
    return opError(op,
                   "query heads (%ld) must be a multiple of KV heads (%ld)",
                   (long)dims->hq, (long)dims->hkv);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult checkBias(MlirOperation op, MlirValue bias,
                                   const AttentionDims *d) {
  MlirType t = mlirValueGetType(bias);
  TRY(checkTensor(op, "bias", t, 4));
  if (!isAttentionFloat(mlirShapedTypeGetElementType(t)))
    return opError(op, "bias element type must be f32, f16 or bf16");
  const int64_t full[4] = {d->b, d->hq, d->m, d->n};
  const char *names[4] = {"batch", "query heads", "queries", "keys"};
  for (intptr_t i = 0; i < 4; ++i) {
    int64_t got = dimOf(t, i);
    if (got != 1 && !sizesMatch(got, full[i]))
      return opError(op,
                     "bias dimension %ld (%s) is %ld, expected 1 or %ld",
                     (long)i, names[i], (long)got, (long)full[i]);
  }
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult checkKvLen(MlirOperation op, MlirValue kvLen,
                                    const AttentionDims *d) {
  MlirType t = mlirValueGetType(kvLen);
  intptr_t rank = mlirTypeIsARankedTensor(t) ? mlirShapedTypeGetRank(t) : 0;
  if (rank != 1 && rank != 2)
    return opError(op, "kv_len must be a rank-1 tensor of per-batch lengths or a "
                       "rank-2 tensor of per-(batch, query head) lengths");
  MlirType et = mlirShapedTypeGetElementType(t);
  if (!mlirTypeIsAInteger(et) ||
      (mlirIntegerTypeGetWidth(et) != 32 && mlirIntegerTypeGetWidth(et) != 64))
    return opError(op, "kv_len element type must be i32 or i64");
  TRY(checkDim(op, "kv_len", t, 0, d->b, "batch"));
  return rank == 2 ? checkDim(op, "kv_len", t, 1, d->hq, "query heads")
                   : mlirLogicalResultSuccess();
}

static MlirLogicalResult checkResults(MlirOperation op,
                                      const AttentionDims *d) {
  MlirType o = mlirValueGetType(mlirOperationGetResult(op, 0));
  TRY(checkTensor(op, "result O", o, 4));
  if (!isAttentionFloat(mlirShapedTypeGetElementType(o)))
    return opError(op, "result O element type must be f32, f16 or bf16");
  const FaAttentionTensor to = FA_ATTENTION_O;
  TRY(checkAttentionDim(op, "result O", o, to, FA_DIM_BATCH, d->b, "batch"));
  TRY(checkAttentionDim(op, "result O", o, to, FA_DIM_HEADS, d->hq, "query heads"));
  TRY(checkAttentionDim(op, "result O", o, to, FA_DIM_SEQ, d->m, "queries"));
  TRY(checkAttentionDim(op, "result O", o, to, FA_DIM_HEAD, d->dv, "value head dim"));
  if (mlirOperationGetNumResults(op) < 2)
    return mlirLogicalResultSuccess();
  MlirType lse = mlirValueGetType(mlirOperationGetResult(op, 1));
  TRY(checkTensor(op, "result LSE", lse, 3));
  if (!mlirTypeIsAF32(mlirShapedTypeGetElementType(lse)))
    return opError(op, "result LSE element type must be f32");
  TRY(checkDim(op, "result LSE", lse, 0, d->b, "batch"));
  TRY(checkDim(op, "result LSE", lse, 1, d->hq, "query heads"));
  return checkDim(op, "result LSE", lse, 2, d->m, "queries");
}

static MlirLogicalResult checkSinks(MlirOperation op, MlirValue sinks,
                                    const AttentionDims *d) {
  MlirType t = mlirValueGetType(sinks);
  TRY(checkTensor(op, "sinks", t, 1));
  if (!isAttentionFloat(mlirShapedTypeGetElementType(t)))
    return opError(op, "sinks element type must be f32, f16 or bf16");
  return checkDim(op, "sinks", t, 0, d->hq, "query heads");
}

static MlirLogicalResult verifyGridwiseAttention(MlirOperation op) {
  AttentionDims dims = {0};
  TRY(checkQKV(op, &dims));
  MlirValue sinks = faGridwiseAttentionGetSinks(op);
  if (!mlirValueIsNull(sinks))
    TRY(checkSinks(op, sinks, &dims));

  MlirValue bias = faGridwiseAttentionGetBias(op);
  if (!mlirValueIsNull(bias))
    TRY(checkBias(op, bias, &dims));
  MlirValue kvLen = faGridwiseAttentionGetKvLen(op);
  if (!mlirValueIsNull(kvLen))
    TRY(checkKvLen(op, kvLen, &dims));
  TRY(checkResults(op, &dims));
  TRY(checkAttentionAttrs(op));
  return faAttentionVerifyFunctions(op);
}

/* --- blockwise ops --------------------------------------------------------- */

/* Destination style: a tensor destination yields one result of its type, a
 * memref destination is updated in place and yields nothing. */
static MlirLogicalResult checkDestination(MlirOperation op, intptr_t destIdx) {
  MlirType dest = mlirValueGetType(mlirOperationGetOperand(op, destIdx));
  intptr_t nres = mlirOperationGetNumResults(op);
  if (mlirTypeIsAMemRef(dest)) {
    if (nres != 0)
      return opError(op, "must have no result when the destination is a memref");
    return mlirLogicalResultSuccess();
  }
  if (nres != 1 ||
      !mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(op, 0)), dest))
    return opError(op, "must have one result of the destination's type when "
                       "the destination is a tensor");
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult checkTile(MlirOperation op, const char *what,
                                   intptr_t idx, intptr_t rank) {
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, idx));
  if (!isRankedShaped(t))
    return opError(op, "%s must be a ranked tensor or memref", what);
  if (mlirShapedTypeGetRank(t) != rank)
    return opError(op, "%s must have rank %ld, got rank %ld", what, (long)rank,
                   (long)mlirShapedTypeGetRank(t));
  if (!isAttentionFloat(mlirShapedTypeGetElementType(t)))
    return opError(op, "%s element type must be f32, f16 or bf16", what);
  return mlirLogicalResultSuccess();
}

static MlirType operandType(MlirOperation op, intptr_t i) {
  return mlirValueGetType(mlirOperationGetOperand(op, i));
}

static MlirLogicalResult verifyBlockwiseFill(MlirOperation op) {
  MlirType dest = operandType(op, 0);
  if (!isRankedShaped(dest) || mlirShapedTypeGetRank(dest) < 1 ||
      mlirShapedTypeGetRank(dest) > 2)
    return opError(op, "destination must be a rank-1 or rank-2 tensor or memref");
  if (!mlirTypeEqual(mlirShapedTypeGetElementType(dest), operandType(op, 1)))
    return opError(op, "fill value type must equal the destination element type");
  return checkDestination(op, 0);
}

static bool hasUnitAttr(MlirOperation op, const char *name) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAUnit(a);
}

static bool hasAttr(MlirOperation op, const char *name) {
  return !mlirAttributeIsNull(
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name)));
}

static MlirLogicalResult verifyBlockwiseReduction(MlirOperation op) {
  if (hasAttr(op, "partial"))
    return opError(op, "'partial' applies only to fragment reductions");
  TRY(checkTile(op, "input", 0, 2));
  TRY(checkTile(op, "init", 1, 1));
  MlirAttribute axisAttr =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("axis"));
  int64_t axis = mlirIntegerAttrGetValueInt(axisAttr);
  if (axis != 0 && axis != 1)
    return opError(op, "attribute 'axis' is %ld, expected 0 or 1", (long)axis);
  MlirType in = operandType(op, 0), init = operandType(op, 1);
  if (!mlirTypeEqual(mlirShapedTypeGetElementType(in),
                     mlirShapedTypeGetElementType(init)))
    return opError(op, "input and init must have the same element type");
  TRY(checkDim(op, "init", init, 0, dimOf(in, 1 - axis), "kept dimension"));
  return checkDestination(op, 1);
}

static MlirLogicalResult verifyBlockwiseGemm(MlirOperation op) {
  if (hasAttr(op, "async"))
    return opError(op, "'async' applies only to \"wgmma_m64\" fragment GEMMs");
  if (hasAttr(op, "swizzle"))
    return opError(op, "'swizzle' applies only to \"mma_m16n8k16\" fragment GEMMs");
  TRY(checkTile(op, "A", 0, 2));
  TRY(checkTile(op, "B", 1, 2));
  TRY(checkTile(op, "C", 2, 2));
  MlirType a = operandType(op, 0), b = operandType(op, 1), c = operandType(op, 2);
  if (!mlirTypeEqual(mlirShapedTypeGetElementType(a),
                     mlirShapedTypeGetElementType(b)))
    return opError(op, "A and B must have the same element type");
  bool tb = hasAttr(op, "transpose_b");
  TRY(checkDim(op, "B", b, tb ? 1 : 0, dimOf(a, 1), "reduction"));
  TRY(checkDim(op, "C", c, 0, dimOf(a, 0), "rows of A"));
  TRY(checkDim(op, "C", c, 1, dimOf(b, tb ? 0 : 1), "columns of B"));
  return checkDestination(op, 2);
}

/* --- blockwise ops on register fragments -------------------------------------
 * A vector operand is a thread's part of a workgroup tile in the layout the
 * `layout` attribute names; only "mma_m16n8k16" (docs/dialect.md) exists.
 * Such ops return the updated fragment. */

static bool isFloatVector(MlirType t) {
  return mlirTypeIsAVector(t) && mlirShapedTypeGetRank(t) == 1 &&
         mlirShapedTypeHasStaticShape(t);
}

static int64_t fragSize(MlirOperation op, intptr_t i) {
  return mlirShapedTypeGetDimSize(operandType(op, i), 0);
}

static bool layoutIs(MlirOperation op, const char *name) {
  MlirAttribute layout = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("layout"));
  return !mlirAttributeIsNull(layout) && mlirAttributeIsAString(layout) &&
         mlirStringRefEqual(mlirStringAttrGetValue(layout), mlirStringRefCreateFromCString(name));
}

static MlirLogicalResult checkFragResult(MlirOperation op, intptr_t destIdx) {
  MlirType dest = operandType(op, destIdx);
  if (!isFloatVector(dest) || !mlirTypeIsAF32(mlirShapedTypeGetElementType(dest)))
    return opError(op, "a fragment accumulator must be a 1-D vector of f32");
  if (mlirOperationGetNumResults(op) != 1 ||
      !mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(op, 0)), dest))
    return opError(op, "must have one result of the fragment's type");
  if (!layoutIs(op, "mma_m16n8k16") && !layoutIs(op, "wgmma_m64"))
    return opError(op, "fragment operands need layout = \"mma_m16n8k16\" or \"wgmma_m64\"");
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult verifyFragmentReduction(MlirOperation op) {
  TRY(checkFragResult(op, 1));
  if (!isFloatVector(operandType(op, 0)))
    return opError(op, "input must be a fragment when init is");
  int64_t nx = fragSize(op, 0), nr = fragSize(op, 1);
  if (nr % 2 || nx % (2 * nr))
    return opError(op, "a fragment of %ld entries has no row vector of %ld entries",
                   (long)nx, (long)nr);
  if (hasAttr(op, "partial") && !hasUnitAttr(op, "partial"))
    return opError(op, "'partial' must be a unit attribute");
  return mlirLogicalResultSuccess();
}

/* "wgmma_m64" tiles in shared memory are [chunks][rows][64]: 128-byte rows,
 * the logical tile [rows][chunks * 64]. */
/* Whether t is a memref of `rank` dims with known strides (into `strides`). */
static bool getStrides(MlirType t, intptr_t rank, int64_t *strides) {
  int64_t offset;
  return mlirTypeIsAMemRef(t) && mlirShapedTypeGetRank(t) == rank &&
         mlirLogicalResultIsSuccess(mlirMemRefTypeGetStridesAndOffset(t, strides, &offset));
}

static bool isChunkedTile(MlirType t) {
  /* Rows of 64 elements, chunks apart by a static multiple of 1024 bytes. */
  int64_t strides[3];
  if (!getStrides(t, 3, strides) || !mlirShapedTypeHasStaticShape(t) || dimOf(t, 2) != 64)
    return false;
  return strides[2] == 1 && strides[1] == 64 && !mlirShapedTypeIsDynamicStrideOrOffset(strides[0]) &&
         strides[0] % 512 == 0;
}

static MlirLogicalResult verifyWgmmaGemm(MlirOperation op) {
  MlirType a = operandType(op, 0), b = operandType(op, 1);
  if (!isChunkedTile(b))
    return opError(op, "with layout \"wgmma_m64\", B must be a static [chunks][rows][64] "
                       "memref tile (rows of 64, chunks a multiple of 1024 bytes apart)");
  bool tb = hasAttr(op, "transpose_b");
  /* B stored [K][N] in chunks of 64 columns: N is twice C's entries and may
   * end inside the last chunk (its other columns are not read). */
  int64_t k = tb ? dimOf(b, 0) * 64 : dimOf(b, 1);
  int64_t n = tb ? dimOf(b, 1) : 2 * fragSize(op, 2), nMax = tb ? n : dimOf(b, 0) * 64;
  if (k % 16 || n % 8 || n > 256 || n > nMax || n <= nMax - 64 || fragSize(op, 2) != n / 2)
    return opError(op, "a wgmma GEMM takes K a multiple of 16, N a multiple of 8 up to 256 "
                       "(in B's last chunk), and C of n/2 entries (64 rows per warpgroup)");
  if (mlirTypeIsAVector(a) && fragSize(op, 0) != k / 2)
    return opError(op, "an A fragment must hold k/2 entries (64 rows per warpgroup)");
  if (hasAttr(op, "async") && !hasUnitAttr(op, "async"))
    return opError(op, "'async' must be a unit attribute");
  if (mlirTypeIsAMemRef(a) && (!isChunkedTile(a) || dimOf(a, 1) != 64 || dimOf(a, 0) * 64 != k))
    return opError(op, "A must be a [chunks][64][64] tile with B's reduction dim");
  if (!mlirTypeEqual(mlirShapedTypeGetElementType(a), mlirShapedTypeGetElementType(b)))
    return opError(op, "A and B must have the same element type");
  return mlirLogicalResultSuccess();
}

/* With `swizzle`, row r of a shared-memory operand keeps its 16-byte chunk c
 * at chunk c ^ (r % 8): rows must be whole 128-byte groups, apart by a
 * static multiple of 128 bytes. */
static bool isSwizzledTile(MlirType t) {
  if (!mlirTypeIsAMemRef(t))
    return true; /* a register fragment */
  int64_t strides[2];
  if (!getStrides(t, 2, strides))
    return false;
  MlirType e = mlirShapedTypeGetElementType(t);
  if (!mlirTypeIsAFloat(e))
    return false;
  int64_t bytes = mlirFloatTypeGetWidth(e) / 8;
  return strides[1] == 1 && !mlirShapedTypeIsDynamicStrideOrOffset(strides[0]) &&
         (strides[0] * bytes) % 128 == 0 && (dimOf(t, 1) * bytes) % 128 == 0;
}

static MlirLogicalResult verifySwizzle(MlirOperation op) {
  if (!hasUnitAttr(op, "swizzle"))
    return opError(op, "'swizzle' must be a unit attribute");
  if (!layoutIs(op, "mma_m16n8k16"))
    return opError(op, "'swizzle' applies only to \"mma_m16n8k16\" fragment GEMMs");
  if (!isSwizzledTile(operandType(op, 0)) || !isSwizzledTile(operandType(op, 1)))
    return opError(op, "with 'swizzle', shared-memory tiles need rows of whole 128-byte groups, "
                       "a static multiple of 128 bytes apart");
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult verifyFragmentGemm(MlirOperation op) {
  TRY(checkFragResult(op, 2));
  if (hasAttr(op, "swizzle"))
    TRY(verifySwizzle(op));
  if (layoutIs(op, "wgmma_m64"))
    return verifyWgmmaGemm(op);
  if (hasAttr(op, "async"))
    return opError(op, "'async' applies only to \"wgmma_m64\" fragment GEMMs");
  MlirType a = operandType(op, 0), b = operandType(op, 1);
  if (!mlirTypeIsAMemRef(b) || mlirShapedTypeGetRank(b) != 2 || !mlirShapedTypeHasStaticShape(b))
    return opError(op, "B must be a static 2-D memref tile when C is a fragment");
  bool tb = hasAttr(op, "transpose_b");
  int64_t k = dimOf(b, tb ? 1 : 0), n = dimOf(b, tb ? 0 : 1), nc = fragSize(op, 2);
  if (k % 16 || n % 16 || nc % (n / 2))
    return opError(op, "B's dims must be multiples of 16 and C must hold n/2 entries "
                       "per 16-row slice");
  if (!mlirTypeEqual(mlirShapedTypeGetElementType(a), mlirShapedTypeGetElementType(b)))
    return opError(op, "A and B must have the same element type");
  if (mlirTypeIsAVector(a) && fragSize(op, 0) != (nc / (n / 2)) * k / 2)
    return opError(op, "an A fragment must hold k/2 entries per 16-row slice");
  if (mlirTypeIsAMemRef(a) && (mlirShapedTypeGetRank(a) != 2 || dimOf(a, 1) != k))
    return opError(op, "A must be a 2-D tile with B's reduction dim");
  return mlirLogicalResultSuccess();
}

static bool hasVectorOperand(MlirOperation op) {
  for (intptr_t i = 0, e = mlirOperationGetNumOperands(op); i < e; ++i)
    if (mlirTypeIsAVector(operandType(op, i)))
      return true;
  return false;
}

/* --- attribute names ------------------------------------------------------ */

/* The attributes each blockwise op knows (NULL-terminated); the attention
 * op's are its table's. Any other attribute is an error unless its name has
 * a dialect prefix ("dialect.name"): those are discardable attributes, which
 * MLIR lets any dialect attach. */
static const char *const kFillAttrs[] = {"layout", NULL};
static const char *const kReductionAttrs[] = {"kind", "axis", "layout", "partial", NULL};
static const char *const kGemmAttrs[] = {"transpose_b", "layout", "async", "swizzle", NULL};

static bool nameIn(MlirStringRef name, const char *const *names) {
  for (; *names; ++names)
    if (mlirStringRefEqual(name, mlirStringRefCreateFromCString(*names)))
      return true;
  return false;
}

/* The known attribute names of blockwise op `op`; NULL for other ops. */
static const char *const *blockwiseAttrs(MlirOperation op) {
  if (opNameIs(op, FA_OP_BLOCKWISE_FILL))
    return kFillAttrs;
  if (opNameIs(op, FA_OP_BLOCKWISE_REDUCTION))
    return kReductionAttrs;
  if (opNameIs(op, FA_OP_BLOCKWISE_GEMM))
    return kGemmAttrs;
  return NULL;
}

/* Whether fa op `op` knows an attribute `name`. */
static bool knowsAttr(MlirOperation op, MlirStringRef name) {
  if (opNameIs(op, FA_OP_GRIDWISE_ATTENTION))
    return faAttentionAttrLookup(name) != FA_ATTENTION_ATTR_COUNT;
  return nameIn(name, blockwiseAttrs(op));
}

static MlirLogicalResult checkAttrNames(MlirOperation op) {
  for (intptr_t i = 0, e = mlirOperationGetNumAttributes(op); i < e; ++i) {
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetAttribute(op, i).name);
    if (!knowsAttr(op, name) && !memchr(name.data, '.', name.length))
      return opError(op, "has unknown attribute '%.*s'", (int)name.length, name.data);
  }
  return mlirLogicalResultSuccess();
}

static bool isFaOp(MlirOperation op) {
  return opNameIs(op, FA_OP_GRIDWISE_ATTENTION) || blockwiseAttrs(op);
}

/* --- walk ------------------------------------------------------------------ */

static MlirLogicalResult verifyOne(MlirOperation op) {
  if (isFaOp(op))
    TRY(checkAttrNames(op));
  if (opNameIs(op, FA_OP_GRIDWISE_ATTENTION))
    return verifyGridwiseAttention(op);
  if (opNameIs(op, FA_OP_BLOCKWISE_FILL))
    return hasVectorOperand(op) ? checkFragResult(op, 0) : verifyBlockwiseFill(op);
  if (hasVectorOperand(op) && opNameIs(op, FA_OP_BLOCKWISE_REDUCTION))
    return verifyFragmentReduction(op);
  if (hasVectorOperand(op) && opNameIs(op, FA_OP_BLOCKWISE_GEMM))
    return verifyFragmentGemm(op);
  if (opNameIs(op, FA_OP_BLOCKWISE_REDUCTION))
    return verifyBlockwiseReduction(op);
  if (opNameIs(op, FA_OP_BLOCKWISE_GEMM))
    return verifyBlockwiseGemm(op);
  return mlirLogicalResultSuccess();
}

static MlirWalkResult verifyCallback(MlirOperation op, void *userData) {
  if (mlirLogicalResultIsFailure(verifyOne(op)))
    *(bool *)userData = true;
  return MlirWalkResultAdvance;
}

MlirLogicalResult faOperationVerify(MlirOperation root) {
  if (mlirOperationIsNull(root))
    return mlirLogicalResultFailure();
  bool failed = false;
  mlirOperationWalk(root, verifyCallback, &failed, MlirWalkPreOrder);
  return failed ? mlirLogicalResultFailure() : mlirLogicalResultSuccess();
}
