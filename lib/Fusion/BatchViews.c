/* Scores across views of the merged batch (see BatchViews.h). */
#include "Fusion/BatchViews.h"
#include "Fusion/Transpose.h"
#include "Support/Builders.h"

#include "mlir-c/BuiltinTypes.h"

static int64_t sizeOf(MlirValue v, intptr_t d) {
  MlirType t = mlirValueGetType(v);
  return mlirShapedTypeIsDynamicDim(t, d) ? -1 : mlirShapedTypeGetDimSize(t, d);
}

/* Whether `e` reads its tensor in place over the score space `space` (each
 * dim the score dim of its position, static sizes equal). */
static bool readsInPlace(const FaExpr *e, MlirValue space) {
  if (e->rank != mlirShapedTypeGetRank(mlirValueGetType(space)))
    return false;
  for (int k = 0; k < e->rank; ++k)
    if (e->dims[k] != k || sizeOf(e->tensor, k) < 0 || sizeOf(e->tensor, k) != sizeOf(space, k))
      return false;
  return true;
}

/* Dims of a [B, H, M, N] read as the [B*H, M, N] space: M, N move down one;
 * false where a dim follows the batch or the head (no view of it there). */
static bool projectDims(const int8_t *dims, int rank, int8_t *out) {
  for (int k = 0; k < rank; ++k) {
    if (dims[k] == 0 || dims[k] == 1)
      return false;
    out[k] = dims[k] < 0 ? dims[k] : (int8_t)(dims[k] - 1);
  }
  return true;
}

static const char *const kVaries =
    "the scores are combined across a view of the merged batch with a value that "
    "varies with the batch or the head";

static FaExpr *project(FaAttentionMatch *m, const FaExpr *e, MlirValue space4,
                       const char **why);

/* A leaf of the [B, H, M, N] tree in the merged space: one that varies with
 * neither the batch nor the head, or the split of a [B*H, M, N] tensor read
 * in place (that tensor, read on: the split and the merge cancel). */
static FaExpr *projectLeaf(FaAttentionMatch *m, const FaExpr *e, MlirValue space4,
                           const char **why) {
  int8_t dims[FA_EXPR_MAX_RANK];
  if (projectDims(e->dims, e->rank, dims)) {
    FaExpr *n = faExprNew(&m->exprs, e->kind, e->type);
    if (n) {
      *n = *e;
      for (int k = 0; k < e->rank; ++k)
        n->dims[k] = dims[k];
    }
    return n;
  }
  MlirOperation split;
  MlirValue low = faAttentionPeelBatchReshape(e->tensor, false, &split);
  if (!low.ptr || !readsInPlace(e, space4)) {
    *why = kVaries;
    return NULL;
  }
  faAttentionAddChain(m, split);
  return faExprBuild(&m->exprs, low, NULL);
}

/* The tree `e` over [B, H, M, N] read over [B*H, M, N] (new nodes; a node
 * whose tensor follows the batch or the head keeps no tensor: it is then
 * computed inside the scores' operation, as fusion reads such nodes). */
static FaExpr *project(FaAttentionMatch *m, const FaExpr *e, MlirValue space4,
                       const char **why) {
  if (!e)
    return NULL;
  if (e->kind == FA_EXPR_LEAF)
    return projectLeaf(m, e, space4, why);
  if (e->kind == FA_EXPR_INDEX && e->dim < 2) {
    *why = kVaries;
    return NULL;
  }
  FaExpr *n = faExprNew(&m->exprs, e->kind, e->type);
  if (!n)
    return NULL;
  *n = *e;
  n->dim = e->kind == FA_EXPR_INDEX ? e->dim - 1 : e->dim;
  if (n->tensor.ptr && !projectDims(e->dims, e->rank, n->dims)) {
    n->tensor = (MlirValue){NULL};
    n->rank = 0;
  }
  for (int i = 0; i < 3; ++i)
    if (e->ops[i] && !(n->ops[i] = project(m, e->ops[i], space4, why)))
      return NULL;
  return n;
}

/* [B*H, M, N] space, `leaf` the merge of [B, H, M, N]: that computation
 * projected onto the merged space. */
static const char *readMerge(FaAttentionMatch *m, FaExpr *leaf, MlirValue high,
                             MlirOperation merge) {
  FaExpr *tree = faExprBuild(&m->exprs, high, NULL);
  const char *why = m->exprs.error;
  FaExpr *low = tree ? project(m, tree, high, &why) : NULL;
  if (!low)
    return why ? why : m->exprs.error;
  faAttentionAddChain(m, merge);
  *leaf = *low;
  return NULL;
}

/* [B, H, M, N] space, `leaf` the split of [B*H, M, N]: the score space
 * becomes the merged one. What the walk read above the split is the op's
 * in either space (scale, index masks), except tensors read over [B, H]
 * (a bias, a boolean mask, a KV length): with one, the view is refused. */
static const char *readSplit(FaAttentionMatch *m, FaExpr *leaf, MlirValue low,
                             MlirOperation split) {
  if (m->bias || m->kvLen)
    return "a bias or mask tensor is read over [B, H] above a split of the merged "
           "batch";
  FaExpr *tree = faExprBuild(&m->exprs, low, NULL);
  if (!tree)
    return m->exprs.error;
  faAttentionAddChain(m, split);
  m->scoreRank = 3;
  m->scores = low;
  *leaf = *tree;
  return NULL;
}

const char *faBatchViewsRead(FaAttentionMatch *m, FaExpr *leaf, bool *read) {
  *read = false;
  if (leaf->kind != FA_EXPR_LEAF || !readsInPlace(leaf, m->scores))
    return NULL;
  bool merged = m->scoreRank == 3;
  MlirOperation view;
  MlirValue src = faAttentionPeelBatchReshape(leaf->tensor, merged, &view);
  if (!src.ptr || (m->scoreRank != 3 && m->scoreRank != 4))
    return NULL;
  const char *why = merged ? readMerge(m, leaf, src, view) : readSplit(m, leaf, src, view);
  *read = !why;
  m->scoresViewed |= *read;
  return why;
}

/* Whether the permutation moves only unit dims of `in`: its other dims,
 * and the last, keep their places relative to each other. */
static bool movesOnlyUnitDims(MlirValue in, const int64_t *perm, intptr_t rank) {
  int64_t last = -1;
  for (intptr_t i = 0; i < rank; ++i) {
    if (sizeOf(in, perm[i]) == 1)
      continue;
    if (perm[i] < last)
      return false;
    last = perm[i];
  }
  return perm[rank - 1] == rank - 1;
}

const char *faBatchViewsPeelTranspose(FaAttentionMatch *m, MlirValue *p, bool *isCandidate) {
  int64_t perm[8];
  MlirType t = mlirValueGetType(*p);
  intptr_t rank = mlirTypeIsARankedTensor(t) ? mlirShapedTypeGetRank(t) : 0;
  MlirOperation def = faValueGetDefiningOp(*p);
  MlirValue in = rank >= 2 && rank <= 8 ? faTransposeGetInput(def, perm, rank) : (MlirValue){NULL};
  if (!in.ptr)
    return NULL;
  if (!movesOnlyUnitDims(in, perm, rank)) {
    *isCandidate = faAttentionLooksLikeSoftmax(m, in);
    return "P reaches P*V through a transpose that moves more than unit dims";
  }
  faAttentionAddChain(m, def);
  *p = in;
  return NULL;
}
