/* max(s + bias, lowest f32) at the softmax input: LLaMA 4.28's
 * `torch.max(w, torch.tensor(finfo.min))` after adding a mask whose padding
 * and causal parts (finfo.min each) sum to -inf where both mask. The clamp
 * turns every masked score into the lowest f32, so a fully masked row
 * averages V in the source. The op reads the same as s + max(bias, lowest):
 * its bias below -FLT_MAX / log2(e) counts as its lowest (docs/dialect.md),
 * which s + bias with bias near the lowest rounds to; masked scores are
 * equal, a fully masked row averages V, and elsewhere they weigh 0. Only a
 * scale and one plain bias may lie under the clamp: a -inf mask there (a
 * causal select, a KV length) would become finite in the source and stay
 * -inf in the op. */
#include "Fusion/AttentionMatch.h"
#include "Support/Builders.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"

#include <float.h>
#include <string.h>

static bool isLowestF32(const FaExpr *e) {
  e = faExprStripCasts(e);
  return e && e->kind == FA_EXPR_CONST && mlirTypeIsAF32(e->type) && e->value == -FLT_MAX;
}

/* tosa.maximum propagates NaN unless its nan_mode is IGNORE. */
static bool tosaMaxIgnoresNan(MlirOperation op) {
  MlirAttribute mode = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("nan_mode"));
  if (mlirAttributeIsNull(mode) || !mlirAttributeIsAString(mode))
    return false;
  MlirStringRef s = mlirStringAttrGetValue(mode);
  return s.length == 6 && !strncmp(s.data, "IGNORE", 6);
}

/* max(y, L) as tosa.maximum: *y and whether NaN gives L. */
static bool clampByMax(const FaExpr *x, FaExpr **y, bool *numeric) {
  if (mlirOperationIsNull(x->op) || !faOpIsA(x->op, "tosa.maximum"))
    return false;
  int c = isLowestF32(x->ops[1]) ? 1 : isLowestF32(x->ops[0]) ? 0 : -1;
  if (c < 0)
    return false;
  *y = x->ops[1 - c];
  *numeric = tosaMaxIgnoresNan(x->op);
  return true;
}

/* select(cmp(y, L), y, L) (or the branches and the compare's sides the
 * other way round) computing max(y, L): *y and whether NaN gives L. */
static bool clampBySelect(const FaExpr *x, FaExpr **y, bool *numeric) {
  const FaExpr *cmp = faExprStripCasts(x->ops[0]);
  if (!cmp || cmp->kind != FA_EXPR_CMP || cmp->pred == FA_CMP_EQ || cmp->pred == FA_CMP_NE)
    return false;
  int lc = isLowestF32(cmp->ops[1]) ? 1 : isLowestF32(cmp->ops[0]) ? 0 : -1;
  int lb = isLowestF32(x->ops[2]) ? 2 : isLowestF32(x->ops[1]) ? 1 : -1;
  if (lc < 0 || lb < 0)
    return false;
  FaExpr *v = x->ops[3 - lb];
  if (!faExprEqual(faExprStripCasts(cmp->ops[1 - lc]), faExprStripCasts(v)))
    return false;
  /* Whether the compare holds where y > L (y on the left, or L on it). */
  bool greater = cmp->pred == FA_CMP_GT || cmp->pred == FA_CMP_GE;
  if (lc == 0)
    greater = !greater;
  /* It must pick y where y > L and L where y < L (at y == L both are L). */
  if (greater != (lb == 2))
    return false;
  bool nanTrue = cmp->mode == FA_CMP_UNORDERED;
  *y = v;
  *numeric = nanTrue == (lb == 1); /* NaN picks the L branch */
  return true;
}

const char *faAttentionMatchClampLowest(FaAttentionMatch *m, FaExpr *x, bool scaled,
                                        FaExpr **next, bool *tried) {
  FaExpr *y = NULL;
  bool numeric = false;
  *tried = x->kind == FA_EXPR_MAX ? clampByMax(x, &y, &numeric)
                                  : clampBySelect(x, &y, &numeric);
  if (!*tried && x->kind == FA_EXPR_MAX) {
    *tried = true;
    return "a max on the scores is not a clamp at the lowest f32 (a tosa.maximum "
           "with -3.4028235e38, or a select of the two by a compare)";
  }
  if (!*tried)
    return NULL;
  if (!mlirTypeIsAF32(x->type) || (m->roundedTo.ptr && !mlirTypeIsAF32(m->roundedTo)))
    return "the scores are clamped at the lowest f32 but not softmaxed in f32";
  if (scaled || m->bias || m->causal || m->kvLen || m->numMaskTerms || m->softcap ||
      m->numSelectMasks || m->clampLowest)
    return "the scores are clamped at the lowest f32 after a scale or a mask (only "
           "a clamp right at the softmax input is read)";
  m->clampLowest = true;
  m->clampNumeric = numeric;
  *next = y;
  return NULL;
}

const char *faAttentionCheckClampLowest(const FaAttentionMatch *m) {
  if (!m->clampLowest)
    return NULL;
  if (m->causal || m->kvLen || m->numMaskTerms || m->biasIsMask || m->softcap ||
      m->numSelectMasks || m->additiveMask)
    return "a mask under the clamp at the lowest f32 (the clamp makes its masked "
           "scores finite in the source: a fully masked row averages V)";
  if (m->bias && !mlirTypeIsAF32(m->bias->type))
    return "the bias under the clamp at the lowest f32 is not f32";
  if (!mlirOperationIsNull(m->lseRoot))
    return "a log-sum-exp beside scores clamped at the lowest f32 (a fully masked "
           "row's is the lowest + log N in the source)";
  return NULL;
}
