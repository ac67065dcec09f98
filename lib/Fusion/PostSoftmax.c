/* Probabilities zeroed after the softmax by the mask that hid the scores
 * (docs/passes.md):
 *   ESPnet / WeNet  softmax(masked_fill(s, mask, fill)).masked_fill(mask, 0)
 *   flash-attn ref  softmax(masked_fill(s, ~mask, -inf))
 *                     .masked_fill(all(~mask, -1, keepdim), 0)
 * On a row that keeps a visible key the zeroing changes nothing (the masked
 * keys weigh 0, or less than the source's rounding where a finite fill
 * provably dominates: checkFiniteMask); on a fully masked row it gives 0,
 * the op's rule. So the zeroing is the op's own where it zeroes exactly the
 * keys (or the rows) the score mask masks, and then a finite fill stands
 * for -inf. Any other zeroing is refused. */
#include "Fusion/AttentionMatch.h"

#include "mlir-c/BuiltinTypes.h"

#include <math.h>

static bool isBoolean(const FaExpr *e) {
  return e && mlirTypeIsAInteger(e->type) && mlirIntegerTypeGetWidth(e->type) == 1;
}

bool faAttentionIsKeyConstantLeaf(const FaExpr *e, int rank) {
  if (!e || e->kind != FA_EXPR_LEAF)
    return false;
  MlirType t = mlirValueGetType(e->tensor);
  for (int k = 0; k < e->rank; ++k)
    if (e->dims[k] == rank - 1 &&
        (mlirShapedTypeIsDynamicDim(t, k) || mlirShapedTypeGetDimSize(t, k) != 1))
      return false;
  return true;
}

FaExpr *faAttentionStripPostSoftmaxZero(FaAttentionMatch *m, FaExpr *e) {
  if (!e || e->kind != FA_EXPR_SELECT || !faExprIsConst(faExprStripCasts(e->ops[1]), 0.0))
    return e;
  FaExpr *c = faExprStripCasts(e->ops[0]);
  /* A condition constant along the keys is a row guard (stripMaskedRowGuard). */
  if (!isBoolean(c) || faAttentionIsKeyConstantLeaf(c, m->scoreRank))
    return e;
  m->zeroKeys = c;
  return faExprStripCasts(e->ops[2]);
}

bool faAttentionNoteRowGuardOnMask(FaAttentionMatch *m, const FaExpr *all) {
  if (!isBoolean(all))
    return false;
  m->zeroRowsAll = all;
  return true;
}

/* Whether condition `a` (true where `aTrue`) and `b` (true where `bTrue`)
 * mark the same scores: the same tree, up to negations. */
static bool sameSet(const FaExpr *a, bool aTrue, const FaExpr *b, bool bTrue) {
  bool na = !aTrue, nb = !bTrue;
  a = faAttentionPeelNot(a, &na);
  b = faAttentionPeelNot(b, &nb);
  return a && b && na == nb && faExprEqual(a, b);
}

const char *faAttentionCheckPostSoftmaxZero(FaAttentionMatch *m) {
  const FaExpr *zero = m->zeroKeys ? m->zeroKeys : m->zeroRowsAll;
  if (!zero)
    return NULL;
  if (m->numSelectMasks != 1 || m->additiveMask)
    return "the probabilities are zeroed after the softmax where the scores are "
           "masked by more than one select (fusion proves the zeroing only against "
           "one mask)";
  if (!sameSet(zero, true, m->selectCond, m->selectMaskedWhenTrue))
    return "the probabilities are zeroed after the softmax by another mask than the "
           "one on the scores (a post-softmax mask that is no fully-masked-row rule)";
  /* Fully masked rows are 0 in the source: a finite fill is a -inf mask. */
  if (m->biasIsMask && isfinite(m->maskBias))
    m->maskBias = -INFINITY;
  return NULL;
}
