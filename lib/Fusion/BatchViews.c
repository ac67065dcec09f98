/* Scores across views of the merged batch (see BatchViews.h). */
#include "Fusion/BatchViews.h"
#include "Fusion/Transpose.h"
#include "Support/Builders.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <string.h>

/* Whether `e` reads its tensor in place over the score space `space` (each
 * dim the score dim of its position, static sizes equal). */
static bool readsInPlace(const FaExpr *e, MlirValue space) {
  if (e->rank != mlirShapedTypeGetRank(mlirValueGetType(space)))
    return false;
  for (int k = 0; k < e->rank; ++k)
    if (e->dims[k] != k || faAttentionSizeOf(e->tensor, k) < 0 ||
        faAttentionSizeOf(e->tensor, k) != faAttentionSizeOf(space, k))
      return false;
  return true;
}

/* How a rank-4 computation is read over a rank-3 space: each rank-4 dim's
 * rank-3 dim (or VARIES: no value of the rank-3 space may follow it, or
 * QUOTIENT: it is floor(r / heads) of rank-3 dim 1), and the regrouping
 * whose split a leaf read in place may be (it cancels). */
enum { VARIES = -2, QUOTIENT = -3 };
typedef struct {
  int8_t map[4];
  const int *groups;
  int64_t heads;
  MlirValue space4;
} View;

static void addChainCallback(MlirOperation op, void *m) { faAttentionAddChain(m, op); }

static const int kMergeBatch[4] = {0, 0, 1, 2}; /* [B, H, M, N] <-> [B*H, M, N] */
static const int kFoldQuery[4] = {0, 1, 1, 2};  /* [B, M, H, N] <-> [B, M*H, N] */

/* The rank-3 dims of a rank-4 read (broadcasts stay); false where a dim has
 * no rank-3 dim of its own. */
static bool projectDims(const View *w, const int8_t *dims, int rank, int8_t *out) {
  for (int k = 0; k < rank; ++k) {
    if (dims[k] >= 4 || (dims[k] >= 0 && w->map[dims[k]] < 0))
      return false;
    out[k] = dims[k] < 0 ? dims[k] : w->map[dims[k]];
  }
  return true;
}

static const char *const kVaries =
    "the scores are combined across a view of the merged batch with a value that "
    "varies with the batch or the head";

/* floor(r / heads) of rank-3 dim 1, as `type` (an index cast of it). */
static FaExpr *quotientIndex(FaAttentionMatch *m, const View *w, MlirType type) {
  MlirType index = mlirIndexTypeGet(mlirTypeGetContext(type));
  FaExpr *r = faExprNew(&m->exprs, FA_EXPR_INDEX, index);
  FaExpr *c = faExprNew(&m->exprs, FA_EXPR_CONST, index);
  FaExpr *q = faExprNew(&m->exprs, FA_EXPR_FLOORDIV, index);
  if (!r || !c || !q)
    return NULL;
  r->dim = 1;
  c->value = (double)w->heads;
  q->ops[0] = r;
  q->ops[1] = c;
  FaExpr *cast = mlirTypeIsAIndex(type) ? q : faExprNew(&m->exprs, FA_EXPR_CAST, type);
  if (cast && cast != q)
    cast->ops[0] = q;
  return cast;
}

/* A constant leaf counting 0, 1, .. along its one non-unit dim, which
 * follows rank-4 dim `d` (an iota, as TOSA exports build indices). */
static bool isIotaAlong(const FaExpr *e, int d) {
  MlirAttribute dense = faConstantOpGetElements(faValueGetDefiningOp(e->tensor));
  int varying = -1;
  for (int k = 0; k < e->rank; ++k)
    if (faAttentionSizeOf(e->tensor, k) != 1) {
      if (varying >= 0 || e->dims[k] != d)
        return false;
      varying = k;
    }
  if (mlirAttributeIsNull(dense) || varying < 0 || !mlirTypeIsAInteger(e->type))
    return false;
  for (int64_t t = 0; t < faAttentionSizeOf(e->tensor, varying); ++t)
    if (faDenseElementGet(dense, t) != (double)t)
      return false;
  return true;
}

static FaExpr *project(FaAttentionMatch *m, const View *w, const FaExpr *e, const char **why);

/* A leaf of the rank-4 tree in the rank-3 space: one whose dims all have
 * rank-3 dims, an iota along a QUOTIENT dim, or the split of a rank-3 tensor
 * read in place (that tensor, read on: the split and the merge cancel). */
static FaExpr *projectLeaf(FaAttentionMatch *m, const View *w, const FaExpr *e,
                           const char **why) {
  int8_t dims[FA_EXPR_MAX_RANK];
  if (projectDims(w, e->dims, e->rank, dims)) {
    FaExpr *n = faExprNew(&m->exprs, e->kind, e->type);
    if (n) {
      *n = *e;
      memcpy(n->dims, dims, sizeof(dims));
    }
    return n;
  }
  for (int d = 0; d < 4; ++d)
    if (w->map[d] == QUOTIENT && isIotaAlong(e, d))
      return quotientIndex(m, w, e->type);
  MlirOperation split;
  MlirValue low = w->groups ? faAttentionPeelRegroup(e->tensor, w->groups, false, &split)
                            : (MlirValue){NULL};
  if (!low.ptr || !readsInPlace(e, w->space4)) {
    *why = kVaries;
    return NULL;
  }
  faAttentionAddChain(m, split);
  /* Read on in the rank-3 space as it is (no split of its own). */
  static const View kSame = {{0, 1, 2, VARIES}, NULL, 0, {NULL}};
  FaExpr *t = faExprBuild(&m->exprs, low, NULL);
  return t ? project(m, &kSame, t, why) : NULL;
}

/* The tree `e` over the rank-4 space read over the rank-3 one (new nodes; a
 * node whose tensor has no rank-3 read keeps no tensor: it is then computed
 * inside the scores' operation, as fusion reads such nodes). x + 0 is x
 * (baddbmm on zeros; only -0 becomes +0, the same to a softmax). */
static FaExpr *project(FaAttentionMatch *m, const View *w, const FaExpr *e, const char **why) {
  if (!e)
    return NULL;
  if (e->kind == FA_EXPR_LEAF)
    return projectLeaf(m, w, e, why);
  for (int i = 0; e->kind == FA_EXPR_ADD && i < 2; ++i)
    if (faExprIsConst(e->ops[i], 0.0) && e->ops[1 - i]) {
      faExprForEachOp(e, e->ops[1 - i], addChainCallback, m);
      return project(m, w, e->ops[1 - i], why);
    }
  if (e->kind == FA_EXPR_INDEX && (e->dim < 0 || e->dim >= 4 || w->map[e->dim] == VARIES)) {
    *why = kVaries;
    return NULL;
  }
  if (e->kind == FA_EXPR_INDEX && w->map[e->dim] == QUOTIENT)
    return quotientIndex(m, w, e->type);
  FaExpr *n = faExprNew(&m->exprs, e->kind, e->type);
  if (!n)
    return NULL;
  *n = *e;
  n->dim = e->kind == FA_EXPR_INDEX ? w->map[e->dim] : e->dim;
  if (n->tensor.ptr && !projectDims(w, e->dims, e->rank, n->dims)) {
    n->tensor = (MlirValue){NULL};
    n->rank = 0;
  }
  for (int i = 0; i < 3; ++i)
    if (e->ops[i] && !(n->ops[i] = project(m, w, e->ops[i], why)))
      return NULL;
  return n;
}

/* [B*H, M, N] space, `leaf` the merge of [B, H, M, N]: that computation
 * projected onto the merged space. */
static const char *readMerge(FaAttentionMatch *m, FaExpr *leaf, MlirValue high,
                             MlirOperation merge) {
  View w = {{VARIES, VARIES, 1, 2}, kMergeBatch, 0, high};
  FaExpr *tree = faExprBuild(&m->exprs, high, NULL);
  const char *why = m->exprs.error;
  FaExpr *low = tree ? project(m, &w, tree, &why) : NULL;
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
  MlirValue src = faAttentionPeelRegroup(leaf->tensor, kMergeBatch, merged, &view);
  if (!src.ptr || (m->scoreRank != 3 && m->scoreRank != 4))
    return NULL;
  const char *why = merged ? readMerge(m, leaf, src, view) : readSplit(m, leaf, src, view);
  *read = !why;
  m->scoresViewed |= *read;
  return why;
}

/* Whether the permutation keeps the relative order of the dims of `in`
 * that are not unit: the elements' row-major order is then unchanged. */
static bool keepsElementOrder(MlirValue in, const int64_t *perm, intptr_t rank) {
  int64_t last = -1;
  for (intptr_t i = 0; i < rank; ++i) {
    if (faAttentionSizeOf(in, perm[i]) == 1)
      continue;
    if (perm[i] < last)
      return false;
    last = perm[i];
  }
  return true;
}

/* Whether the permutation moves only unit dims of `in`: its other dims,
 * and the last, keep their places relative to each other. */
static bool movesOnlyUnitDims(MlirValue in, const int64_t *perm, intptr_t rank) {
  return keepsElementOrder(in, perm, rank) && perm[rank - 1] == rank - 1;
}

/* --- scores through reshapes and unit-dim transposes ----------------------- */

static bool isStaticTensor(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsARankedTensor(t) && mlirShapedTypeHasStaticShape(t);
}

/* The input of `v`'s defining op where that op keeps the row-major order of
 * the elements (a reshape, a transpose of unit dims), static shapes; else
 * null. */
static MlirValue orderKeepingSource(MlirValue v, MlirOperation *def) {
  *def = faValueGetDefiningOp(v);
  if (mlirOperationIsNull(*def) || !isStaticTensor(v))
    return (MlirValue){NULL};
  static const char *const kReshapes[] = {"tensor.expand_shape", "tensor.collapse_shape",
                                          "tosa.reshape", NULL};
  MlirValue in = (MlirValue){NULL};
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(v));
  int64_t perm[8];
  if (faOpIsAnyOf(*def, kReshapes))
    in = mlirOperationGetOperand(*def, 0);
  else if (rank <= 8 && (in = faTransposeGetInput(*def, perm, rank)).ptr &&
           !keepsElementOrder(in, perm, rank))
    in = (MlirValue){NULL};
  return in.ptr && isStaticTensor(in) ? in : (MlirValue){NULL};
}

/* Whether x ([p, q, r]) is [B*H, M, N] of m's scores. */
static bool hasScoreSizes(const FaAttentionMatch *m, MlirValue x) {
  MlirValue s = m->scores;
  return faAttentionSizeOf(x, 0) == faAttentionSizeOf(s, 0) * faAttentionSizeOf(s, 1) &&
         faAttentionSizeOf(x, 1) == faAttentionSizeOf(s, 2) &&
         faAttentionSizeOf(x, 2) == faAttentionSizeOf(s, 3);
}

MlirValue faBatchViewsPeelScoreReshapes(FaAttentionMatch *m, MlirValue v) {
  MlirOperation steps[6];
  MlirValue x = v;
  for (int n = 0; n < 6; ++n) {
    x = orderKeepingSource(x, &steps[n]);
    if (!x.ptr)
      return x;
    if (mlirShapedTypeGetRank(mlirValueGetType(x)) != 3)
      continue;
    if (m && (mlirShapedTypeGetRank(mlirValueGetType(m->scores)) != 4 || !hasScoreSizes(m, x)))
      return (MlirValue){NULL};
    for (int i = 0; m && i <= n; ++i)
      faAttentionAddChain(m, steps[i]);
    return x;
  }
  return (MlirValue){NULL};
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

MlirValue faBatchViewsPeelFold(FaAttentionMatch *m, MlirValue pvLhs) {
  MlirOperation fold;
  MlirValue src = faAttentionPeelRegroup(pvLhs, kFoldQuery, true, &fold);
  if (!src.ptr || faAttentionSizeOf(src, 1) < 1 || faAttentionSizeOf(src, 2) < 1)
    return (MlirValue){NULL};
  faAttentionAddChain(m, fold);
  m->foldHeads = faAttentionSizeOf(src, 2);
  m->foldScores = pvLhs;
  return src;
}

const char *faBatchViewsFoldScores(FaAttentionMatch *m, FaExpr **x) {
  if (!m->foldHeads)
    return NULL;
  if (m->sinks.ptr)
    return "sinks of heads folded into the query axis are not fused";
  /* One head: the rows are the queries (floor(r / 1) = r). */
  View w = {{0, m->foldHeads == 1 ? 1 : QUOTIENT, VARIES, 2}, kFoldQuery, m->foldHeads,
            m->scores};
  const char *why = NULL;
  FaExpr *low = project(m, &w, *x, &why);
  if (!low)
    return why ? why : m->exprs.error;
  m->scoreRank = 3;
  m->scores = m->foldScores;
  m->scoresViewed = true;
  *x = low;
  return NULL;
}

/* Whether every mask term reads the folded row r only as floor(r / H). */
static bool termsReadQueryOnly(const FaAttentionMatch *m) {
  for (int t = 0; t < m->numMaskTerms; ++t)
    if (m->maskTerms[t].ci != 0 ||
        (m->maskTerms[t].qi != 0 &&
         (m->maskTerms[t].di != m->foldHeads || m->maskTerms[t].oi != 0)))
      return false;
  return true;
}

/* [B, M*H, X] values the op reads or writes as [B, M, H, X] views. */
static bool isFoldedRows(MlirValue v, int64_t b, int64_t rows) {
  return faAttentionRankOf(v) == 3 && faAttentionSizeOf(v, 0) == b &&
         faAttentionSizeOf(v, 1) == rows;
}

void faBatchViewsFoldHeads(FaAttentionMatch *m) {
  int64_t b = m->foldHeads ? faAttentionSizeOf(m->foldScores, 0) : -1;
  int64_t rows = m->foldHeads ? faAttentionSizeOf(m->foldScores, 1) : -1;
  if (b < 1 || rows < 1 || m->bias || m->kvLen || m->causal || m->q.narrow.ptr ||
      m->k.groups != 1 || faAttentionRankOf(m->k.value) != 3 ||
      faAttentionRankOf(m->v.value) != 3 || !isFoldedRows(m->q.value, b, rows) ||
      !isFoldedRows(mlirOperationGetResult(m->root, 0), b, rows) || !termsReadQueryOnly(m))
    return;
  for (int t = 0; t < m->numMaskTerms; ++t)
    if (m->maskTerms[t].qi) {
      m->maskTerms[t].ci = m->maskTerms[t].qi;
      m->maskTerms[t].qi = 0;
    }
  int64_t offset;
  if (m->numMaskNodes == 1 && m->maskNodes[0].kind == FA_MASK_TERM &&
      faAttentionTermIsCausal(m, m->maskNodes[0].a, &offset)) {
    m->causal = true;
    m->causalOffset = offset;
    m->numMaskTerms = m->numMaskNodes = 0;
  }
  m->foldToHeads = true;
  m->b = b;
  m->h = m->foldHeads;
  m->hkv = 1;
}
