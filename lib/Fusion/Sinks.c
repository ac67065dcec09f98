/* gpt-oss's attention sinks (see Sinks.h and docs/passes.md). */
#include "Fusion/Sinks.h"
#include "Support/Builders.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

enum { MAX_RANK = FA_EXPR_MAX_RANK };

static void addChainCallback(MlirOperation op, void *m) { faAttentionAddChain(m, op); }

static void addMaybeDeadCallback(MlirOperation op, void *m) { faAttentionAddMaybeDead(m, op); }

/* --- the slice ---------------------------------------------------------------- */

/* The static offsets, sizes and strides of a slice (tensor.extract_slice
 * without dynamic ones, or tosa.slice with constant shapes). */
static bool sliceParams(MlirOperation op, intptr_t rank, int64_t *off, int64_t *size,
                        int64_t *stride) {
  if (faOpIsA(op, "tosa.slice")) {
    for (intptr_t i = 0; i < rank; ++i)
      stride[i] = 1;
    return mlirOperationGetNumOperands(op) == 3 &&
           faConstShapeGet(mlirOperationGetOperand(op, 1), off, rank) &&
           faConstShapeGet(mlirOperationGetOperand(op, 2), size, rank);
  }
  if (!faOpIsA(op, "tensor.extract_slice") || mlirOperationGetNumOperands(op) != 1)
    return false;
  static const char *const kNames[3] = {"static_offsets", "static_sizes", "static_strides"};
  int64_t *out[3] = {off, size, stride};
  for (int k = 0; k < 3; ++k) {
    MlirAttribute a = faOpGetAttr(op, kNames[k]);
    if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a) ||
        mlirDenseArrayGetNumElements(a) != rank)
      return false;
    for (intptr_t i = 0; i < rank; ++i)
      out[k][i] = mlirDenseI64ArrayGetElement(a, i);
  }
  return true;
}

/* Whether `op` slices [.., N + 1] to [.., N] from offset 0, unit strides:
 * the drop of the last column (static shapes). */
static bool dropsLastColumn(MlirOperation op, MlirValue src, MlirValue res) {
  intptr_t rank = faAttentionRankOf(res);
  int64_t off[MAX_RANK], size[MAX_RANK], stride[MAX_RANK];
  if (rank < 2 || rank > MAX_RANK || faAttentionRankOf(src) != rank ||
      !sliceParams(op, rank, off, size, stride))
    return false;
  for (intptr_t i = 0; i < rank; ++i) {
    int64_t want = faAttentionSizeOf(src, i) - (i == rank - 1);
    if (off[i] != 0 || stride[i] != 1 || faAttentionSizeOf(src, i) < 1 || size[i] != want ||
        faAttentionSizeOf(res, i) != want)
      return false;
  }
  return true;
}

const char *faSinksPeelSlice(FaAttentionMatch *m, MlirValue *p, bool *isCandidate) {
  MlirOperation def = faValueGetDefiningOp(*p);
  if (!faOpIsA(def, "tensor.extract_slice") && !faOpIsA(def, "tosa.slice"))
    return NULL;
  MlirValue src = mlirOperationGetOperand(def, 0);
  if (!dropsLastColumn(def, src, *p)) {
    *isCandidate = faAttentionLooksLikeSoftmax(m, src);
    return "P reaches P*V through a slice that is not the drop of its last (sink) column";
  }
  m->sinkSlice = def;
  faAttentionAddChain(m, def);
  *p = src;
  return NULL;
}

/* --- the concatenation --------------------------------------------------------- */

/* `x` without a shift by its own row max (x - max_j x: the softmax's max is
 * then exactly 0, so the softmax of either is the same computation); casts
 * around it must widen (none rounds but the subtraction itself). */
static FaExpr *stripRowShift(FaAttentionMatch *m, FaExpr *x, const char **why) {
  FaExpr *sub = faExprStripCasts(x);
  if (!sub || sub->kind != FA_EXPR_SUB || !faExprIsRowLeaf(faExprStripCasts(sub->ops[1]),
                                                           m->scoreRank))
    return x;
  FaExpr *in = faAttentionReducedInput(m, faExprStripCasts(sub->ops[1]), FA_EXPR_MAX, why);
  if (!in)
    return NULL;
  if (!faExprEqual(faExprStripCasts(in), faExprStripCasts(sub->ops[0]))) {
    *why = "the sink column's row max is not taken over the values it shifts";
    return NULL;
  }
  return sub->ops[0];
}

/* Whether every cast at the top of `e` (down to the node returned) is exact:
 * a widening float cast or a reshape's (same type). */
static FaExpr *stripExactCasts(FaExpr *e) {
  for (; e && e->kind == FA_EXPR_CAST; e = e->ops[0]) {
    MlirType from = e->ops[0] ? e->ops[0]->type : (MlirType){NULL};
    if (!from.ptr || !(mlirTypeEqual(from, e->type) ||
                       (mlirTypeIsAFloat(from) && mlirTypeIsAFloat(e->type) &&
                        mlirFloatTypeGetWidth(from) < mlirFloatTypeGetWidth(e->type))))
      return NULL;
  }
  return e;
}

/* The [H] tensor the sink column (read over the score space) broadcasts:
 * its one dim is the head (score dim 1). */
static const char *sinkVector(FaAttentionMatch *m, FaExpr *col, MlirValue *out) {
  FaExpr *e = stripExactCasts(col);
  if (!e)
    return m->exprs.error ? m->exprs.error : "the sink column is rounded on its way to the scores";
  MlirType et = e->type;
  if (e->kind != FA_EXPR_LEAF || e->rank != 1 || e->dims[0] != 1 ||
      faAttentionSizeOf(e->tensor, 0) != faAttentionSizeOf(m->scores, 1) ||
      !(mlirTypeIsAF32(et) || mlirTypeIsAF16(et) || mlirTypeIsABF16(et)))
    return "the sink column is not a per-head [H] f32, f16 or bf16 tensor";
  faExprForEachOp(col, NULL, addMaybeDeadCallback, m);
  *out = e->tensor;
  return NULL;
}

const char *faSinksMatch(FaAttentionMatch *m, FaExpr **x) {
  if (!m->sinkSlice.ptr)
    return NULL;
  const char *why = NULL;
  FaExpr *y = stripRowShift(m, *x, &why);
  if (!y)
    return why;
  FaExpr *cat = stripExactCasts(y);
  MlirOperation def = cat && cat->kind == FA_EXPR_LEAF ? faValueGetDefiningOp(cat->tensor)
                                                        : (MlirOperation){NULL};
  MlirAttribute axis = faOpIsA(def, "tensor.concat") ? faOpGetAttr(def, "dim")
                       : faOpIsA(def, "tosa.concat") ? faOpGetAttr(def, "axis")
                                                     : (MlirAttribute){NULL};
  int rank = m->scoreRank;
  if (mlirAttributeIsNull(axis) || mlirOperationGetNumOperands(def) != 2 ||
      mlirIntegerAttrGetValueInt(axis) != rank - 1)
    return "the column P drops is not one concatenated to the scores before the softmax";
  for (int k = 0; k < rank; ++k)
    if (cat->dims[k] != k)
      return "the concatenated scores are read with a broadcast or permutation";
  MlirValue scores = mlirOperationGetOperand(def, 0), column = mlirOperationGetOperand(def, 1);
  if (rank != 4 || faAttentionSizeOf(column, rank - 1) != 1)
    return "the dropped column is not a sink column of [B, H, M, N + 1] scores";
  m->scores = scores;
  TRY_MATCH(sinkVector(m, faExprBuild(&m->exprs, column, NULL), &m->sinks));
  /* The shift and the casts above the concatenation are the chain's. */
  faExprForEachOp(*x, NULL, addChainCallback, m);
  faAttentionAddChain(m, def);
  *x = faExprBuild(&m->exprs, scores, NULL);
  return *x ? NULL : m->exprs.error;
}
