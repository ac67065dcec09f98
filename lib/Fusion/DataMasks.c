/* A mask that combines a data tensor with index compares (docs/passes.md):
 * flash-attn's `key_padding_mask & (k <= q)`, a padding mask [B, N] and a
 * causal triangle. With a -inf fill the combination splits exactly: the
 * index compares become causal_offset or a mask function, the data tensor
 * the boolean mask bias over its own shape (no [M, N] tensor), and a key is
 * hidden in the op iff either part hides it, as in the source. A finite
 * fill does not split: on a row it masks fully the source averages V over
 * every key (the masked scores are equal), which neither part alone says;
 * the whole condition then stays the boolean mask it is (its finite fill a
 * bias of the lowest f32, exact on such rows too), where the source has it
 * as a tensor. */
#include "Fusion/AttentionMatch.h"
#include "Support/Builders.h"

#include "mlir-c/BuiltinTypes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_PARTS = 8 };

const FaExpr *faAttentionPeelNot(const FaExpr *e, bool *neg) {
  for (e = faExprStripCasts(e); e;) {
    int t = e->kind == FA_EXPR_NOT ? 0
            : e->kind != FA_EXPR_XOR ? -1
            : faExprIsConst(faExprStripCasts(e->ops[1]), 1.0) ? 0
            : faExprIsConst(faExprStripCasts(e->ops[0]), 1.0) ? 1 : -1;
    if (t < 0)
      return e;
    e = faExprStripCasts(e->ops[t]);
    *neg = !*neg;
  }
  return e;
}

/* Whether `e` reads a tensor that is no constant (iotas are constants in
 * TOSA and linalg.index in generics). */
static bool readsData(const FaExpr *e, int depth) {
  if (!e || depth > 32)
    return false;
  if (e->kind == FA_EXPR_LEAF) {
    MlirOperation def = faValueGetDefiningOp(e->tensor);
    return mlirOperationIsNull(def) ||
           !(faOpIsA(def, "arith.constant") || faOpIsA(def, "tosa.const"));
  }
  for (int i = 0; i < 3; ++i)
    if (readsData(e->ops[i], depth + 1))
      return true;
  return false;
}

/* The operands of a tree of `kind` (and / or) nodes, in order. */
static bool collectParts(const FaExpr *e, FaExprKind kind, const FaExpr **parts, int *n) {
  e = faExprStripCasts(e);
  if (!e)
    return false;
  if (e->kind != kind) {
    if (*n == MAX_PARTS)
      return false;
    parts[(*n)++] = e;
    return true;
  }
  return collectParts(e->ops[0], kind, parts, n) && collectParts(e->ops[1], kind, parts, n);
}

/* The `kind` node of parts[0..n) (n >= 1), built in `m`'s tree arena. */
static const FaExpr *joinParts(FaAttentionMatch *m, FaExprKind kind, const FaExpr **parts,
                               int n) {
  const FaExpr *acc = parts[0];
  for (int k = 1; k < n && acc; ++k) {
    FaExpr *node = faExprNew(&m->exprs, kind, parts[k]->type);
    if (node) {
      node->ops[0] = (FaExpr *)acc;
      node->ops[1] = (FaExpr *)parts[k];
    }
    acc = node;
  }
  return acc;
}

/* The index parts (joined by `kind`) as causal_offset or a mask function,
 * then the data part as any condition is read (a KV length, or the i1
 * tensor's boolean mask). */
static const char *splitParts(FaAttentionMatch *m, FaExprKind kind, const FaExpr **index,
                              int numIndex, const FaExpr *data, bool masked, MaskFill fill) {
  const FaExpr *idx = joinParts(m, kind, index, numIndex);
  if (!idx)
    return m->exprs.error ? m->exprs.error : "the mask's tree is too large";
  bool flip = false;
  idx = faAttentionPeelNot(idx, &flip);
  const char *why = faAttentionMaskFromCondition(m, idx, masked != flip, fill);
  return why ? why : faAttentionMaskFromCondition(m, data, masked, fill);
}

const char *faAttentionSplitDataMask(FaAttentionMatch *m, const FaExpr *cond,
                                     bool maskedWhenTrue, MaskFill fill, bool *tried) {
  *tried = false;
  bool neg = false;
  const FaExpr *c = faAttentionPeelNot(cond, &neg);
  bool masked = maskedWhenTrue != neg;
  /* Visible = a && b && ..., or masked = a || b || ... */
  FaExprKind kind = masked ? FA_EXPR_OR : FA_EXPR_AND;
  const FaExpr *parts[MAX_PARTS], *index[MAX_PARTS], *data = NULL;
  int n = 0, numIndex = 0, numData = 0;
  if (!c || c->kind != kind || !collectParts(c, kind, parts, &n))
    return NULL;
  for (int k = 0; k < n; ++k) {
    if (readsData(parts[k], 0)) {
      data = parts[k];
      ++numData;
    } else {
      index[numIndex++] = parts[k];
    }
  }
  /* A data part computed inside the scores' own operation has no tensor to
   * read (it would need a capture): the caller reads `cond` as before. */
  if (numData != 1 || numIndex == 0 || !data->tensor.ptr)
    return NULL;
  if (isfinite(fill.value)) {
    if (!cond->tensor.ptr)
      return NULL;
    *tried = true;
    return faAttentionSetBooleanMask(m, (FaExpr *)cond, maskedWhenTrue, fill);
  }
  *tried = true;
  /* Callers rely on `m` changing only where a mask is read: a failed split
   * leaves it as it was. */
  FaAttentionMatch *saved = malloc(sizeof *saved);
  if (!saved)
    return "out of memory";
  memcpy(saved, m, sizeof *saved);
  const char *why = splitParts(m, kind, index, numIndex, data, masked, fill);
  if (why)
    memcpy(m, saved, sizeof *saved);
  free(saved);
  return why;
}
