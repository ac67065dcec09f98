/* Recognizes attention chains (see AttentionMatch.h and docs/passes.md).
 *
 * The match starts at a contraction (the candidate P*V) and walks up:
 *   P      -> a softmax over the last dim of the score space: linalg.softmax,
 *             or exp(x - max) / sum (or * 1/sum) with the max and the sum
 *             reductions reading the same x, in generics or TOSA ops;
 *   x      -> scale (mul/div by constants), additive bias, causal masks
 *             (constant triangle, or select on index compares) around
 *   scores -> a Q*K^T contraction with a zero accumulator;
 *   Q,K,V  -> batch merges, K transposes, constant scales of Q and K and GQA
 *             broadcasts of K and V are looked through.
 * Every step either matches exactly or the whole chain is refused with the
 * reason; nothing is rewritten here. */
#include "Fusion/AttentionMatch.h"
#include "Support/Builders.h"
#include "Fusion/DimEquality.h"
#include "Fusion/BatchViews.h"
#include "Fusion/Sinks.h"
#include "Fusion/Transpose.h"

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Linalg.h"

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static const char *const kNotDominant =
    "a finite mask fill does not provably dominate every visible score "
    "(masked keys would keep weight in the source; -inf or the lowest value "
    "of the scores' type would not)";

static const char *const kHalfBias =
    "a bias or fill is added to the scores in f16/bf16 and may be large: the "
    "source's sum rounds or saturates there (fully masked rows average V), the "
    "op adds in f32";

static const char *const kUnboundedBias =
    "a mask with a finite fill is combined with a bias fusion cannot bound "
    "(masked scores might keep weight in the source)";

/* A fill at most this (once scaled) masks: see MaskFill. */
static const double kMaskValue = -1.0e4;

/* The rank of a ranked tensor; -1 for any other type (a scalar, a memref),
 * which no step of a chain accepts. */
static intptr_t rankOf(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsARankedTensor(t) ? mlirShapedTypeGetRank(t) : -1;
}

static int64_t sizeOf(MlirValue v, intptr_t d) {
  MlirType t = mlirValueGetType(v);
  return mlirShapedTypeIsDynamicDim(t, d) ? -1 : mlirShapedTypeGetDimSize(t, d);
}

static void addOp(MlirOperation *list, int *n, MlirOperation op) {
  if (mlirOperationIsNull(op))
    return;
  for (int i = 0; i < *n; ++i)
    if (mlirOperationEqual(list[i], op))
      return;
  if (*n < FA_MATCH_MAX_OPS)
    list[(*n)++] = op;
}

static void addChain(FaAttentionMatch *m, MlirOperation op) {
  addOp(m->chain, &m->numChain, op);
}

static void addMaybeDead(FaAttentionMatch *m, MlirOperation op) {
  addOp(m->maybeDead, &m->numMaybeDead, op);
}

static void addMaybeDeadCallback(MlirOperation op, void *m) { addMaybeDead(m, op); }

/* Ops of a matched tree: computations join the chain; constants they read
 * may die with it. */
static void addChainCallback(MlirOperation op, void *m) {
  if (faOpIsA(op, "arith.constant") || faOpIsA(op, "tosa.const") ||
      faOpIsA(op, "linalg.fill"))
    addMaybeDead(m, op);
  else
    addChain(m, op);
}

static bool isIteratorType(MlirAttribute its, intptr_t i, const char *kind) {
  char text[64];
  snprintf(text, sizeof(text), "#linalg.iterator_type<%s>", kind);
  return mlirAttributeEqual(
      mlirArrayAttrGetElement(its, i),
      mlirAttributeParseGet(mlirAttributeGetContext(its),
                            mlirStringRefCreateFromCString(text)));
}

/* The dense elements of a constant tensor (arith.constant or tosa.const),
 * or a null attribute. */
static MlirAttribute denseConstant(MlirValue v) {
  return faConstantOpGetElements(faValueGetDefiningOp(v));
}

/* --- reshapes of batch dims ------------------------------------------------ */

/* Does `reassociation` group the dims as `groups` (a group id per dim)? */
static bool reassociationIs(MlirAttribute r, const int *groups, int rank) {
  if (!mlirAttributeIsAArray(r))
    return false;
  int d = 0;
  for (intptr_t g = 0, e = mlirArrayAttrGetNumElements(r); g < e; ++g) {
    MlirAttribute grp = mlirArrayAttrGetElement(r, g);
    for (intptr_t i = 0, n = mlirArrayAttrGetNumElements(grp); i < n; ++i, ++d)
      if (d >= rank || groups[d] != g ||
          mlirIntegerAttrGetValueInt(mlirArrayAttrGetElement(grp, i)) != d)
        return false;
  }
  return d == rank;
}

/* Whether the dims of `high` and `low` regroup as `groups` says: each low
 * dim is provably the product of its group of high dims (static sizes, or
 * sizes traced to the same values: DimEquality.c). */
static bool sizesRegroup(MlirValue high, MlirValue low, const int *groups) {
  int hr = (int)rankOf(high), lr = (int)rankOf(low);
  for (int g = 0; g < lr; ++g) {
    intptr_t dims[8];
    int n = 0;
    for (int d = 0; d < hr && n < 8; ++d)
      if (groups[d] == g)
        dims[n++] = d;
    if (!faDimProductProvablyEqual(high, dims, n, low, g))
      return false;
  }
  return true;
}

static bool staticRegroup(MlirValue high, MlirValue low, const int *groups);

/* A reassociation that lists the dims 0 .. rank-1 in order (source IR is
 * read as it is: MLIR 22's verifier takes an index of 2^32). */
static bool reassociationWellFormed(MlirAttribute r, int rank) {
  if (!mlirAttributeIsAArray(r))
    return false;
  int d = 0;
  for (intptr_t g = 0, e = mlirArrayAttrGetNumElements(r); g < e; ++g) {
    MlirAttribute grp = mlirArrayAttrGetElement(r, g);
    if (!mlirAttributeIsAArray(grp))
      return false;
    for (intptr_t i = 0, n = mlirArrayAttrGetNumElements(grp); i < n; ++i, ++d) {
      MlirAttribute a = mlirArrayAttrGetElement(grp, i);
      if (!mlirAttributeIsAInteger(a) || mlirIntegerAttrGetValueInt(a) != d)
        return false;
    }
  }
  return d == rank;
}

/* A reshape between `high` and `low` that merges/splits high dims as
 * `groups` says (a tensor.collapse_shape / expand_shape with that
 * reassociation, a static tosa.reshape with those sizes, or a
 * tensor.reshape whose sizes provably regroup so: dynamic exports). */
static bool isRegroup(MlirOperation op, MlirValue high, MlirValue low,
                      const int *groups) {
  int hr = (int)rankOf(high), lr = (int)rankOf(low);
  if (groups[hr - 1] != lr - 1)
    return false;
  if (faOpIsA(op, "tensor.collapse_shape") || faOpIsA(op, "tensor.expand_shape"))
    return reassociationIs(faOpGetAttr(op, "reassociation"), groups, hr) ||
           (reassociationWellFormed(faOpGetAttr(op, "reassociation"), hr) &&
            staticRegroup(high, low, groups));
  if (faOpIsA(op, "tensor.reshape"))
    return sizesRegroup(high, low, groups);
  return faOpIsA(op, "tosa.reshape") && staticRegroup(high, low, groups);
}

/* Static shapes whose sizes regroup as `groups` says. A reshape never
 * reorders elements, so any reshape between them is that regroup (a unit
 * head dim may be grouped with either neighbour: [B, M, N] -> [B, 1, M, N]
 * through [[0], [1, 2], [3]] is the split of B*1). */
static bool staticRegroup(MlirValue high, MlirValue low, const int *groups) {
  int hr = (int)rankOf(high), lr = (int)rankOf(low);
  int64_t prod[8];
  for (int g = 0; g < lr; ++g)
    prod[g] = 1;
  for (int d = 0; d < hr; ++d) {
    if (sizeOf(high, d) < 0)
      return false;
    prod[groups[d]] *= sizeOf(high, d);
  }
  for (int g = 0; g < lr; ++g)
    if (sizeOf(low, g) != prod[g])
      return false;
  return true;
}

static const int kMergeBatch4[4] = {0, 0, 1, 2}; /* [B,H,X,Y] <-> [BH,X,Y] */
static const int kMergeHeads5[5] = {0, 1, 1, 2, 3}; /* [B,Hkv,G,N,D] -> [B,H,N,D] */

/* If `v` comes from a reshape between [B, H, X, Y] and [B*H, X, Y] (merging
 * when `merge`, else splitting), that reshape's source. */
static MlirValue peelBatchReshape(MlirValue v, bool merge, MlirOperation *reshape) {
  return faAttentionPeelRegroup(v, kMergeBatch4, merge, reshape);
}

static MlirValue peelBatchMerge(MlirValue v, MlirOperation *reshape) {
  return peelBatchReshape(v, true, reshape);
}

static MlirValue peelBatchSplit(MlirValue v, MlirOperation *reshape) {
  return peelBatchReshape(v, false, reshape);
}

/* An integer constant equal to `want` (the indices and sizes of a copy). */
static bool isConstantInt(MlirValue v, int64_t want) {
  double c;
  return faValueGetSplat(v, &c) && c == (double)want;
}

static bool isLinalgIndex(MlirValue v, int64_t dim) {
  MlirOperation def = faValueGetDefiningOp(v);
  if (mlirOperationIsNull(def) || !faOpIsA(def, "linalg.index"))
    return false;
  MlirAttribute a = faOpGetAttr(def, "dim");
  return !mlirAttributeIsNull(a) && mlirIntegerAttrGetValueInt(a) == dim;
}

/* Index k of the copy below: linalg.index k, or select(S == 1, 0,
 * linalg.index k) with S provably dim k of `src` (so S == 1 only where that
 * dim, and the copy's, is 1: the select picks 0 = linalg.index k). */
static bool isCopyIndex(MlirValue v, MlirValue src, int64_t k) {
  if (isLinalgIndex(v, k))
    return true;
  MlirOperation sel = faValueGetDefiningOp(v);
  if (mlirOperationIsNull(sel) || !faOpIsA(sel, "arith.select") ||
      !isConstantInt(mlirOperationGetOperand(sel, 1), 0) ||
      !isLinalgIndex(mlirOperationGetOperand(sel, 2), k))
    return false;
  MlirOperation cmp = faValueGetDefiningOp(mlirOperationGetOperand(sel, 0));
  if (mlirOperationIsNull(cmp) || !faOpIsA(cmp, "arith.cmpi") ||
      mlirIntegerAttrGetValueInt(faOpGetAttr(cmp, "predicate")) != 0 /* eq */)
    return false;
  MlirValue a = mlirOperationGetOperand(cmp, 0), b = mlirOperationGetOperand(cmp, 1);
  MlirValue size = isConstantInt(b, 1) ? a : isConstantInt(a, 1) ? b : (MlirValue){NULL};
  return size.ptr && faSizeProvablyEqualsDim(size, src, k);
}

/* torch-mlir's broadcast of a matmul operand with dynamic dims: a
 * linalg.generic with no inputs yielding tensor.extract %src[..] of a
 * tensor of v's rank and element type. Returns src and the extract. */
static MlirValue copySource(MlirValue v, MlirOperation *extract) {
  MlirOperation def = faValueGetDefiningOp(v);
  intptr_t rank = rankOf(v);
  if (mlirOperationIsNull(def) || !faOpIsA(def, "linalg.generic") ||
      mlirOperationGetNumOperands(def) != 1 || mlirOperationGetNumResults(def) != 1)
    return (MlirValue){NULL};
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(def, 0));
  MlirOperation yield = mlirBlockGetTerminator(body);
  if (mlirOperationIsNull(yield) || mlirOperationGetNumOperands(yield) != 1)
    return (MlirValue){NULL};
  *extract = faValueGetDefiningOp(mlirOperationGetOperand(yield, 0));
  if (mlirOperationIsNull(*extract) || !faOpIsA(*extract, "tensor.extract"))
    return (MlirValue){NULL};
  MlirValue src = mlirOperationGetOperand(*extract, 0);
  if (rankOf(src) != rank || mlirOperationGetNumOperands(*extract) != rank + 1 ||
      !mlirTypeEqual(mlirShapedTypeGetElementType(mlirValueGetType(src)),
                     mlirShapedTypeGetElementType(mlirValueGetType(v))))
    return (MlirValue){NULL};
  return src;
}

/* Whether that copy leaves src unchanged: each index is the loop's own (see
 * isCopyIndex) and every dim of the result is provably src's. */
static bool copyIsIdentity(MlirValue v, MlirOperation extract, MlirValue src) {
  for (intptr_t k = 0, rank = rankOf(v); k < rank; ++k)
    if (!isCopyIndex(mlirOperationGetOperand(extract, k + 1), src, k) ||
        !faDimsProvablyEqual(v, k, src, k))
      return false;
  return true;
}

/* The float types attention is computed in (no 8-bit formats: a rounding to
 * those is not one fusion may drop). */
static bool isComputeFloat(MlirType t) {
  return mlirTypeIsAF16(t) || mlirTypeIsABF16(t) || mlirTypeIsAF32(t) || mlirTypeIsAF64(t);
}

/* Whether the casts at the top of `e` stay among the types attention is
 * computed in (a rounding to an 8-bit float, or through an integer, is not
 * one fusion may drop). */
static bool castsKeepPrecision(const FaExpr *e) {
  for (; e && e->kind == FA_EXPR_CAST; e = e->ops[0])
    if (!isComputeFloat(e->type) || !e->ops[0] || !isComputeFloat(e->ops[0]->type))
      return false;
  return true;
}

/* If `v` is a float-to-float cast of a whole tensor (tosa.cast, arith.extf /
 * truncf on tensors, or an elementwise linalg.generic whose body is only
 * that cast), its source; with `widening`, only casts that extend (exact). */
static MlirValue peelCast(MlirValue v, bool widening, MlirOperation *castOp) {
  MlirOperation def = faValueGetDefiningOp(v);
  *castOp = def;
  if (mlirOperationIsNull(def) || mlirOperationGetNumResults(def) != 1 ||
      mlirOperationGetNumOperands(def) < 1)
    return (MlirValue){NULL};
  MlirValue src = mlirOperationGetOperand(def, 0);
  MlirOperation cast = def;
  if (faOpIsA(def, "linalg.generic")) {
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(def, 0));
    MlirOperation first = mlirBlockGetFirstOperation(body);
    MlirOperation yield = mlirOperationGetNextInBlock(first);
    MlirAttribute maps = mlirLinalgGetIndexingMapsAttribute(def);
    if (mlirOperationGetNumOperands(def) != 2 || mlirOperationIsNull(first) ||
        mlirOperationGetNumOperands(first) != 1 || mlirOperationGetNumResults(first) != 1 ||
        mlirOperationIsNull(yield) || !faOpIsA(yield, "linalg.yield") ||
        mlirOperationGetNumOperands(yield) != 1 ||
        !mlirValueEqual(mlirOperationGetOperand(yield, 0), mlirOperationGetResult(first, 0)) ||
        !mlirValueEqual(mlirOperationGetOperand(first, 0), mlirBlockGetArgument(body, 0)))
      return (MlirValue){NULL};
    for (intptr_t i = 0; i < 2; ++i)
      if (!mlirAffineMapIsIdentity(mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, i))))
        return (MlirValue){NULL};
    cast = first;
  } else if (!faOpIsA(def, "tosa.cast") && !faOpIsA(def, "arith.extf") &&
             !faOpIsA(def, "arith.truncf")) {
    return (MlirValue){NULL};
  }
  if (!faOpIsA(cast, "arith.extf") && !faOpIsA(cast, "arith.truncf") && !faOpIsA(cast, "tosa.cast"))
    return (MlirValue){NULL};
  MlirType from = mlirShapedTypeGetElementType(mlirValueGetType(src));
  MlirType to = mlirShapedTypeGetElementType(mlirValueGetType(v));
  if (!isComputeFloat(from) || !isComputeFloat(to))
    return (MlirValue){NULL};
  if (widening && mlirFloatTypeGetWidth(to) <= mlirFloatTypeGetWidth(from))
    return (MlirValue){NULL};
  return src;
}

/* The matmul result behind the raw scores `v`: through a split of the batch
 * dim and casts (torch-mlir rounds f32-accumulated scores to f16 / bf16 and
 * extends them again for the softmax; fusion keeps them in f32). Each op
 * looked through goes to `chain` when it is non-NULL. */
static MlirValue peelScoreLayout(MlirValue v, FaAttentionMatch *chain) {
  for (int steps = 0; steps < 4; ++steps) {
    MlirOperation op;
    MlirValue next = peelBatchSplit(v, &op);
    if (!next.ptr)
      next = peelCast(v, false, &op);
    if (!next.ptr && (next = faBatchViewsPeelScoreReshapes(chain, v)).ptr)
      return next;
    if (!next.ptr)
      break;
    if (chain)
      addChain(chain, op);
    v = next;
  }
  return v;
}

/* --- contractions --------------------------------------------------------- */

typedef struct {
  MlirValue lhs, rhs;
  bool lhsT, rhsT; /* lhs is [.., k, i]; rhs is [.., j, k] */
} Contraction;

bool faOpIsContractionCandidate(MlirOperation op) {
  return faOpIsA(op, "linalg.matmul") || faOpIsA(op, "linalg.batch_matmul") ||
         faOpIsA(op, "linalg.generic") || faOpIsA(op, "tosa.matmul");
}

static int dimPos(MlirAffineMap m, intptr_t i) {
  MlirAffineExpr e = mlirAffineMapGetResult(m, i);
  return mlirAffineExprIsADim(e) ? (int)mlirAffineDimExprGetPosition(e) : -1;
}

/* The operand map [batch.., a, b] of a contraction over (batch.., i, j, k):
 * returns 0 if (a, b) = (x, y), 1 if (y, x), -1 otherwise. */
static int operandOrder(MlirAffineMap m, const int *out, int rank, int x, int y) {
  if (mlirAffineMapGetNumResults(m) != rank)
    return -1;
  for (int d = 0; d < rank - 2; ++d)
    if (dimPos(m, d) != out[d])
      return -1;
  int a = dimPos(m, rank - 2), b = dimPos(m, rank - 1);
  return (a == x && b == y) ? 0 : (a == y && b == x) ? 1 : -1;
}

/* A named matmul is a contraction by definition, also with f16/bf16
 * operands and an f32 result (its body extends the operands first, which
 * the C API's contraction test does not accept); a generic must have a plain
 * multiply-add body. */
static bool isLinalgContraction(MlirOperation op) {
  if (mlirOperationGetNumOperands(op) != 3)
    return false;
  return faOpIsA(op, "linalg.matmul") || faOpIsA(op, "linalg.batch_matmul") ||
         mlirLinalgIsAContractionOp(op);
}

static const char *linalgContraction(MlirOperation op, Contraction *c,
                                     bool pv) {
  if (!isLinalgContraction(op))
    return pv ? "P*V is not a contraction" : "Q*K^T is not a contraction";
  MlirAttribute maps = mlirLinalgGetIndexingMapsAttribute(op);
  MlirAffineMap mo = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 2));
  int loops = (int)mlirAffineMapGetNumDims(mo), rank = loops - 1;
  int out[8], k = -1;
  bool used[9] = {false};
  if (rank < 2 || rank > 4 || mlirAffineMapGetNumResults(mo) != rank)
    return "a matmul has an unsupported rank";
  for (int d = 0; d < rank; ++d) {
    out[d] = dimPos(mo, d);
    if (out[d] < 0)
      return "a matmul's result map is not a permutation";
    used[out[d]] = true;
  }
  for (int d = 0; d < loops; ++d)
    if (!used[d])
      k = d;
  int lo = operandOrder(mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 0)),
                        out, rank, out[rank - 2], k);
  int ro = operandOrder(mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 1)),
                        out, rank, k, out[rank - 1]);
  if (lo < 0 || ro < 0)
    return pv ? "the contraction dims of P*V are not the ones attention needs"
              : "the contraction dims of Q*K^T are not the ones attention needs";
  if (faOpIsA(op, "linalg.generic")) {
    MlirAttribute its = faOpGetAttr(op, "iterator_types");
    for (int d = 0; d < loops; ++d)
      if (!isIteratorType(its, d, d == k ? "reduction" : "parallel"))
        return "a contraction generic has unexpected iterator types";
  }
  double init;
  if (!faValueGetSplat(mlirOperationGetOperand(op, 2), &init) || init != 0.0)
    return pv ? "the P*V accumulator is not zero-filled"
              : "the Q*K^T accumulator is not zero-filled";
  *c = (Contraction){mlirOperationGetOperand(op, 0),
                     mlirOperationGetOperand(op, 1), lo == 1, ro == 1};
  return NULL;
}

static const char *matchContraction(MlirOperation op, Contraction *c, bool pv) {
  if (faOpIsA(op, "tosa.matmul")) {
    for (intptr_t i = 2; i < mlirOperationGetNumOperands(op); ++i) {
      double zp;
      if (!faValueGetSplat(mlirOperationGetOperand(op, i), &zp) || zp != 0)
        return "a tosa.matmul has a non-zero zero point";
    }
    *c = (Contraction){mlirOperationGetOperand(op, 0),
                       mlirOperationGetOperand(op, 1), false, false};
    return NULL;
  }
  if (!faOpIsContractionCandidate(op))
    return pv ? "P*V is not a matmul" : "the scores are not produced by a matmul";
  return linalgContraction(op, c, pv);
}

/* --- softmax ---------------------------------------------------------------- */

/* The body of a reduction: its first yielded value is op(in, acc) with op
 * of the given kind (further results, e.g. an argmax, are checked unused by
 * the caller). */
static bool reductionBodyIs(MlirOperation red, FaExprKind kind) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(red, 0));
  MlirOperation yield = mlirBlockGetTerminator(body);
  MlirOperation op = faValueGetDefiningOp(mlirOperationGetOperand(yield, 0));
  bool isKind = kind == FA_EXPR_MAX
                    ? faOpIsA(op, "arith.maximumf") || faOpIsA(op, "arith.maxnumf")
                : kind == FA_EXPR_AND ? faOpIsA(op, "arith.andi")
                                      : faOpIsA(op, "arith.addf");
  if (!isKind || mlirBlockGetNumArguments(body) < 2)
    return false;
  MlirValue a = mlirOperationGetOperand(op, 0), b = mlirOperationGetOperand(op, 1);
  MlirValue x = mlirBlockGetArgument(body, 0), acc = mlirBlockGetArgument(body, 1);
  return (mlirValueEqual(a, x) && mlirValueEqual(b, acc)) ||
         (mlirValueEqual(a, acc) && mlirValueEqual(b, x));
}

static bool initIsNeutral(MlirValue init, FaExprKind kind) {
  double c;
  if (!faValueGetSplat(init, &c))
    return false;
  return kind == FA_EXPR_MAX ? c <= -65504.0 : kind == FA_EXPR_AND ? c != 0 : c == 0.0;
}

static bool resultsAfterFirstUnused(MlirOperation op) {
  for (intptr_t r = 1, e = mlirOperationGetNumResults(op); r < e; ++r)
    if (!mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, r))))
      return false;
  return true;
}

/* A linalg.generic reducing its one input over the last loop into a tensor
 * indexed by the other loops in order (keep-dim maps allowed). */
static bool isRowReductionGeneric(MlirOperation g, int rank) {
  intptr_t numResults = mlirOperationGetNumResults(g);
  if (mlirOperationGetNumOperands(g) != 1 + numResults || !resultsAfterFirstUnused(g))
    return false;
  MlirAttribute its = faOpGetAttr(g, "iterator_types");
  if (mlirArrayAttrGetNumElements(its) != rank)
    return false;
  for (int d = 0; d < rank; ++d)
    if (!isIteratorType(its, d, d == rank - 1 ? "reduction" : "parallel"))
      return false;
  MlirAttribute maps = mlirLinalgGetIndexingMapsAttribute(g);
  MlirAffineMap in = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 0));
  MlirAffineMap out = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 1));
  if (!mlirAffineMapIsIdentity(in))
    return false;
  intptr_t nr = mlirAffineMapGetNumResults(out);
  for (intptr_t i = 0; i < nr; ++i) {
    MlirAffineExpr e = mlirAffineMapGetResult(out, i);
    bool ok = i < rank - 1 ? dimPos(out, i) == i
                           : mlirAffineExprIsAConstant(e) &&
                                 mlirAffineConstantExprGetValue(e) == 0;
    if (!ok)
      return false;
  }
  return nr == rank - 1 || nr == rank;
}

/* `row` is a per-row leaf; its tensor must be a max or sum reduction over the
 * last dim of the score space. Returns the tree of the reduced values. */
static FaExpr *reducedInputAs(FaAttentionMatch *m, const FaExpr *row,
                              FaExprKind kind, const char **why, bool rowDims) {
  MlirOperation red = faValueGetDefiningOp(row->tensor);
  int rank = m->scoreRank;
  bool ok = false;
  static const char *const kTosa[3] = {"tosa.reduce_max", "tosa.reduce_sum",
                                      "tosa.reduce_all"};
  int which = kind == FA_EXPR_MAX ? 0 : kind == FA_EXPR_ADD ? 1 : 2;
  if (mlirValueIsAOpResult(row->tensor) && mlirOpResultGetResultNumber(row->tensor) != 0)
    red = (MlirOperation){NULL};
  if (faOpIsA(red, kTosa[which])) {
    MlirAttribute axis = faOpGetAttr(red, "axis");
    ok = rankOf(mlirOperationGetOperand(red, 0)) == rank &&
         mlirIntegerAttrGetValueInt(axis) == rank - 1;
  } else if (faOpIsA(red, "linalg.generic")) {
    ok = isRowReductionGeneric(red, rank) && reductionBodyIs(red, kind) &&
         initIsNeutral(mlirOperationGetOperand(red, 1), kind);
  } else if (faOpIsA(red, "linalg.reduce")) {
    MlirAttribute dims = faOpGetAttr(red, "dimensions");
    ok = mlirOperationGetNumOperands(red) == 2 && resultsAfterFirstUnused(red) &&
         rankOf(mlirOperationGetOperand(red, 0)) == rank &&
         mlirDenseArrayGetNumElements(dims) == 1 &&
         mlirDenseI64ArrayGetElement(dims, 0) == rank - 1 &&
         reductionBodyIs(red, kind) &&
         initIsNeutral(mlirOperationGetOperand(red, 1), kind);
  }
  if (!ok) {
    static const char *const kWhy[3] = {
        "the softmax max is not a max-reduction over the key axis starting at "
        "-inf",
        "the softmax denominator is not a sum-reduction over the key axis "
        "starting at 0",
        "the select around the softmax is not a fully-masked-row guard"};
    *why = kWhy[which];
    return NULL;
  }
  addChain(m, red);
  /* With rowDims, the reduced tensor read as the row leaf is, along the keys
   * (a guard over a mask broadcast on the heads reads that mask so). */
  MlirValue src = mlirOperationGetOperand(red, 0);
  int8_t dims[FA_EXPR_MAX_RANK];
  intptr_t srcRank = rankOf(src);
  if (rowDims && (srcRank < 1 || srcRank > FA_EXPR_MAX_RANK || row->rank < srcRank - 1 ||
                  row->rank > srcRank)) {
    *why = "a row reduction's result does not read its input's rows";
    return NULL;
  }
  if (rowDims) {
    memcpy(dims, row->dims, (size_t)(srcRank - 1));
    dims[srcRank - 1] = (int8_t)(rank - 1);
  }
  FaExpr *in = faExprBuild(&m->exprs, src, rowDims ? dims : NULL);
  if (!in)
    *why = m->exprs.error;
  return in;
}

static FaExpr *reducedInput(FaAttentionMatch *m, const FaExpr *row,
                            FaExprKind kind, const char **why) {
  return reducedInputAs(m, row, kind, why, false);
}

/* 1/x as RECIP(x) or DIV(1, x). */
static FaExpr *reciprocalOf(FaExpr *e) {
  e = faExprStripCasts(e);
  if (e && e->kind == FA_EXPR_RECIP)
    return e->ops[0];
  if (e && e->kind == FA_EXPR_DIV && faExprIsConst(faExprStripCasts(e->ops[0]), 1.0))
    return e->ops[1];
  return NULL;
}

static const char *matchLinalgSoftmax(FaAttentionMatch *m, FaExpr *e,
                                      FaExpr **x) {
  MlirOperation sm = faValueGetDefiningOp(e->tensor);
  MlirAttribute dim = faOpGetAttr(sm, "dimension");
  for (int d = 0; d < e->rank; ++d)
    if (e->dims[d] != d)
      return "the softmax result is read with a broadcast or permutation";
  if (mlirAttributeIsNull(dim) || mlirIntegerAttrGetValueInt(dim) != m->scoreRank - 1)
    return "the softmax is not over the last (key) dimension";
  addChain(m, sm);
  *x = faExprBuild(&m->exprs, mlirOperationGetOperand(sm, 0), NULL);
  return *x ? NULL : m->exprs.error;
}

/* Why a softmax's max or sum is refused: it is computed further after the
 * reduction (select(max == -inf, 0, max), sum + 1), or a tensor that is not
 * per-row. */
typedef struct {
  const char *computed, *notPerRow;
} RowWhy;

static const RowWhy kMaxWhy = {
    "the softmax subtracts a value computed from the row max (e.g. a select "
    "or an add), not the row max itself",
    "the softmax max is not taken over the last (key) axis"};
static const RowWhy kSumWhy = {
    "the softmax denominator is computed from the row sum (e.g. sum + 1), not "
    "the row sum itself",
    "the softmax sum is not taken over the last (key) axis"};

static const char *checkRowLeaf(const FaExpr *e, int rank, RowWhy why) {
  if (faExprIsRowLeaf(e, rank))
    return NULL;
  return e->kind == FA_EXPR_LEAF ? why.notPerRow : why.computed;
}

/* P = exp(x - max(x)) / sum(exp(x - max(x))), decomposed. */
static const char *matchDecomposedSoftmax(FaAttentionMatch *m, FaExpr *e,
                                          FaExpr **x, bool *isCandidate) {
  FaExpr *num = NULL, *den = NULL;
  if (e->kind == FA_EXPR_DIV) {
    num = e->ops[0];
    den = e->ops[1];
  } else if (e->kind == FA_EXPR_MUL) {
    for (int i = 0; i < 2 && !num; ++i)
      if ((den = reciprocalOf(e->ops[i])))
        num = e->ops[1 - i];
  }
  num = faExprStripCasts(num);
  den = faExprStripCasts(den);
  FaExpr *sub = num && num->kind == FA_EXPR_EXP ? faExprStripCasts(num->ops[0]) : NULL;
  if (!sub || sub->kind != FA_EXPR_SUB)
    return "the left operand of the contraction is not a softmax";
  *isCandidate = true;
  FaExpr *mx = faExprStripCasts(sub->ops[1]);
  TRY_MATCH(checkRowLeaf(mx, m->scoreRank, kMaxWhy));
  TRY_MATCH(checkRowLeaf(den, m->scoreRank, kSumWhy));
  const char *why = NULL;
  FaExpr *maxIn = reducedInput(m, mx, FA_EXPR_MAX, &why);
  FaExpr *sumIn = maxIn ? reducedInput(m, den, FA_EXPR_ADD, &why) : NULL;
  if (!sumIn)
    return why;
  if (!faExprEqual(faExprStripCasts(sumIn), num))
    return "the softmax sum does not add the same exponentials it divides";
  *x = sub->ops[0];
  if (!faExprEqual(faExprStripCasts(maxIn), faExprStripCasts(*x)))
    return "the softmax max is not taken over the scores it subtracts from";
  faExprForEachOp(e, NULL, addChainCallback, m);
  faExprForEachOp(maxIn, NULL, addChainCallback, m);
  faExprForEachOp(sumIn, NULL, addChainCallback, m);
  return NULL;
}

/* select(all_j(x == -inf), 0, P): the guard PyTorch emits so that fully
 * masked rows give 0, which is what the fused op does anyway. Returns the
 * guarded P, or `e` itself if there is no guard. */
static FaExpr *stripMaskedRowGuard(FaAttentionMatch *m, FaExpr *e, FaExpr **guard) {
  *guard = NULL;
  if (e->kind != FA_EXPR_SELECT || !faExprIsConst(faExprStripCasts(e->ops[1]), 0.0) ||
      !faAttentionIsKeyConstantLeaf(faExprStripCasts(e->ops[0]), m->scoreRank))
    return e;
  *guard = faExprStripCasts(e->ops[0]);
  return faExprStripCasts(e->ops[2]);
}

static const char *checkMaskedRowGuard(FaAttentionMatch *m, FaExpr *guard,
                                       const FaExpr *x) {
  const char *why = NULL;
  FaExpr *all = faExprStripCasts(reducedInputAs(m, guard, FA_EXPR_AND, &why, true));
  if (!all)
    return why;
  bool ok = all->kind == FA_EXPR_CMP && all->pred == FA_CMP_EQ;
  if (ok && all->mode == FA_CMP_UNORDERED)
    return "the fully-masked-row guard compares unordered (a NaN score would "
           "count as masked)";
  for (int i = 0; ok && i < 2; ++i) {
    FaExpr *c = faExprStripCasts(all->ops[i]);
    ok = c && c->kind == FA_EXPR_CONST && isinf(c->value) && c->value < 0 &&
         faExprEqual(faExprStripCasts(all->ops[1 - i]), faExprStripCasts(x));
    if (ok)
      break;
    ok = i == 0;
  }
  if (!ok && !faAttentionNoteRowGuardOnMask(m, all))
    return "the select around the softmax is not a fully-masked-row guard";
  faExprForEachOp(all, NULL, addChainCallback, m);
  return NULL;
}

/* Does `e` hold an exponential or a linalg.softmax anywhere? (Then the
 * contraction is worth explaining when it is refused.) */
static bool looksLikeSoftmax(const FaExpr *e) {
  if (!e)
    return false;
  if (e->kind == FA_EXPR_EXP ||
      (e->kind == FA_EXPR_LEAF && faOpIsA(faValueGetDefiningOp(e->tensor), "linalg.softmax")))
    return true;
  for (int i = 0; i < 3; ++i)
    if (looksLikeSoftmax(e->ops[i]))
      return true;
  return false;
}

static const char *matchSoftmax(FaAttentionMatch *m, MlirValue p, FaExpr **x,
                                bool *isCandidate) {
  FaExpr *top = faExprBuild(&m->exprs, p, NULL), *guard;
  FaExpr *e = faExprStripCasts(top);
  if (!e)
    return m->exprs.error;
  if (!castsKeepPrecision(top))
    return "the probabilities are cast to a type other than f16, bf16, f32 or f64";
  *isCandidate = looksLikeSoftmax(e);
  e = stripMaskedRowGuard(m, faAttentionStripPostSoftmaxZero(m, e), &guard);
  const char *why;
  if (e->kind == FA_EXPR_LEAF && faOpIsA(faValueGetDefiningOp(e->tensor), "linalg.softmax")) {
    *isCandidate = true;
    why = matchLinalgSoftmax(m, e, x);
  } else {
    why = matchDecomposedSoftmax(m, e, x, isCandidate);
  }
  if (why)
    return why;
  faExprForEachOp(top, NULL, addChainCallback, m);
  return guard ? checkMaskedRowGuard(m, guard, *x) : NULL;
}

/* --- scores: scale, bias, masks --------------------------------------------- */

/* A leaf holding the raw scores: the result of a contraction, possibly
 * split from [B*H, M, N] to [B, H, M, N]. */
static bool isScoresLeaf(const FaExpr *e) {
  if (!e || e->kind != FA_EXPR_LEAF)
    return false;
  MlirOperation def = faValueGetDefiningOp(peelScoreLayout(e->tensor, NULL));
  /* Any linalg.generic may be a contraction, but one that is not (e.g. an
   * iota or a broadcast feeding an ALiBi bias) holds no scores. */
  return faOpIsContractionCandidate(def) &&
         (!faOpIsA(def, "linalg.generic") || isLinalgContraction(def));
}

static bool containsScores(const FaExpr *e) {
  if (!e)
    return false;
  if (isScoresLeaf(e))
    return true;
  for (int i = 0; i < 3; ++i)
    if (containsScores(e->ops[i]))
      return true;
  return false;
}

/* i = dim rank-2 (query), j = dim rank-1 (key), L = a non-constant integer
 * leaf (a KV length): e = ci*i + cj*j + ck*L + c. */
typedef struct {
  double ci, cj, ck, c;
  const FaExpr *kv;
} Linear;

static bool isIntegerLeaf(const FaExpr *e) {
  return e->kind == FA_EXPR_LEAF && mlirTypeIsAInteger(e->type);
}

/* Whether leaves `a` and `b` read the same element: one tensor, one map. */
static bool sameLeafElement(const FaExpr *a, const FaExpr *b) {
  if (!mlirValueEqual(a->tensor, b->tensor) || a->rank != b->rank)
    return false;
  for (int k = 0; k < a->rank; ++k)
    if (a->dims[k] != b->dims[k])
      return false;
  return true;
}

/* a + s*b, unless both hold different KV-length leaves (another tensor, or
 * the same one read elsewhere). */
static bool linearCombine(Linear a, Linear b, double s, Linear *out) {
  if (a.kv && b.kv && !sameLeafElement(a.kv, b.kv))
    return false;
  *out = (Linear){a.ci + s * b.ci, a.cj + s * b.cj, a.ck + s * b.ck,
                  a.c + s * b.c, a.kv ? a.kv : b.kv};
  return true;
}

static bool iotaLeafDim(const FaExpr *e, int *dim);

static bool linearOf(const FaExpr *e, int rank, Linear *out) {
  Linear a, b;
  int dim;
  e = faExprStripCasts(e);
  if (!e)
    return false;
  switch (e->kind) {
  case FA_EXPR_CONST:
    *out = (Linear){0, 0, 0, e->value, NULL};
    return true;
  case FA_EXPR_INDEX:
  case FA_EXPR_LEAF:
    if (e->kind == FA_EXPR_INDEX)
      dim = e->dim;
    else if (!iotaLeafDim(e, &dim)) {
      if (!isIntegerLeaf(e) || !mlirAttributeIsNull(denseConstant(e->tensor)))
        return false;
      *out = (Linear){0, 0, 1, 0, e};
      return true;
    }
    if (dim != rank - 2 && dim != rank - 1)
      return false;
    *out = (Linear){dim == rank - 2, dim == rank - 1, 0, 0, NULL};
    return true;
  case FA_EXPR_ADD:
  case FA_EXPR_SUB:
    return linearOf(e->ops[0], rank, &a) && linearOf(e->ops[1], rank, &b) &&
           linearCombine(a, b, e->kind == FA_EXPR_ADD ? 1 : -1, out);
  default:
    return false;
  }
}

/* A constant tensor leaf whose values count 0, 1, ... along its one
 * non-unit dim (an iota, as TOSA graphs build column/row indices). */
static bool iotaLeafDim(const FaExpr *e, int *dim) {
  MlirAttribute dense = denseConstant(e->tensor);
  if (mlirAttributeIsNull(dense))
    return false;
  int varying = -1;
  for (int k = 0; k < e->rank; ++k)
    if (sizeOf(e->tensor, k) != 1) {
      if (varying >= 0 || e->dims[k] < 0)
        return false;
      varying = k;
    }
  if (varying < 0)
    return false;
  for (int64_t t = 0; t < sizeOf(e->tensor, varying); ++t)
    if (faDenseElementGet(dense, t) != (double)t)
      return false;
  *dim = e->dims[varying];
  return true;
}

/* MaskFill: AttentionMatch.h. */
static bool fillIsFinite(MaskFill fill) { return isfinite(fill.value); }

/* Significand bits of a float type (0: not a float). */
static int floatPrecision(MlirType t) {
  return mlirTypeIsAF16(t) ? 11 : mlirTypeIsABF16(t) ? 8 : mlirTypeIsAF32(t) ? 24
       : mlirTypeIsAF64(t) ? 53 : 0;
}

/* The lowest finite value of float type `t` and the distance from it to
 * the next one (0, 0 for other types). */
static double lowestOf(MlirType t, double *gap) {
  int p = floatPrecision(t), emax = mlirTypeIsAF16(t) ? 15 : mlirTypeIsAF64(t) ? 1023 : 127;
  *gap = p ? ldexp(1.0, emax - p + 1) : 0;
  return p ? -ldexp(2.0 - ldexp(1.0, 1 - p), emax) : 0;
}

/* A finite fill read as a mask (as -inf): checkFiniteMask proves it
 * dominates. The scales seen so far are those applied after it, and a
 * bias seen so far is added after it. A fill of its select's lowest value
 * is below every visible score of that type (but the lowest itself) by at
 * least the type's step there: f16 32, bf16 2^120, f32 2^104. */
static void noteFiniteFill(FaAttentionMatch *m, MaskFill fill) {
  double scaled = fill.value * m->scale, step = 0;
  bool lowest = fill.replaces && fill.type.ptr && fill.value == lowestOf(fill.type, &step);
  double tieGap = lowest ? step * m->scale : 0;
  m->fillMax = m->finiteMask ? fmax(m->fillMax, scaled) : scaled;
  m->fillTieGap = m->finiteMask ? fmin(m->fillTieGap, tieGap) : tieGap;
  m->fillAdded |= !fill.replaces;
  m->biasAfterFill |= m->bias != NULL;
  m->finiteMask = true;
}

static const char *setCausal(FaAttentionMatch *m, int64_t offset, MaskFill fill);
static const char *setBooleanMask(FaAttentionMatch *m, FaExpr *mask,
                                  bool maskedValue, MaskFill fill);

/* --- masks computed exactly ------------------------------------------------- */

/* The values a node of a mask's index arithmetic takes: multiples of
 * 2^-frac in [lo, hi] (frac > 0 only through a fractional float constant). */
typedef struct {
  double lo, hi;
  int frac;
} Span;

/* Whether type `t` holds every value of `s` as it is: an integer type
 * (index: 64 bits) without wrapping, a float type without rounding. */
static bool spanFits(MlirType t, Span s) {
  if (mlirTypeIsAIndex(t) || mlirTypeIsAInteger(t)) {
    int w = mlirTypeIsAIndex(t) ? 64 : (int)mlirIntegerTypeGetWidth(t);
    double lim = ldexp(1.0, w - 1);
    return w > 1 && s.frac == 0 && s.lo >= -lim && s.hi < lim;
  }
  int p = floatPrecision(t);
  return p && ldexp(fmax(fabs(s.lo), fabs(s.hi)), s.frac) <= ldexp(1.0, p);
}

/* Bits after the binary point of `c` (-1: more than 64, or not finite). */
static int fractionBits(double c) {
  for (int k = 0; k <= 64 && isfinite(c); ++k)
    if (ldexp(c, k) == floor(ldexp(c, k)))
      return k;
  return -1;
}

/* The largest value of score dim `d`'s index (2^53 where it is dynamic:
 * fusion's bound on every size, as for offsets). */
static double indexMax(const FaAttentionMatch *m, int d) {
  int64_t n = sizeOf(m->scores, d);
  return n < 0 ? ldexp(1.0, 53) : (double)(n - 1);
}

static int condValue(const FaAttentionMatch *m, const FaExpr *e, int depth);

/* The values of `e`, an operand tree of a mask compare (what linearOf
 * reads), where every node holds them in its own type: no integer wraps,
 * no conversion truncates or rounds, no float sum rounds. A KV length is
 * taken in [0, N] (a length of the keys). */
static const char *spanOf(const FaAttentionMatch *m, const FaExpr *e, Span *s) {
  static const char *kInexact = "a mask's index arithmetic may wrap or round in its "
                                "type (the source would mask other keys)";
  int rank = m->scoreRank, dim;
  Span a, b;
  switch (e->kind) {
  case FA_EXPR_CONST: {
    int k = fractionBits(e->value);
    if (k < 0)
      return kInexact;
    *s = (Span){e->value, e->value, k};
    break;
  }
  case FA_EXPR_INDEX:
  case FA_EXPR_LEAF:
    if (e->kind == FA_EXPR_INDEX || iotaLeafDim(e, &dim))
      *s = (Span){0, indexMax(m, e->kind == FA_EXPR_INDEX ? e->dim : dim), 0};
    else
      *s = (Span){0, indexMax(m, rank - 1) + 1, 0}; /* a KV length */
    break;
  case FA_EXPR_ADD:
  case FA_EXPR_SUB:
    TRY_MATCH(spanOf(m, e->ops[0], &a));
    TRY_MATCH(spanOf(m, e->ops[1], &b));
    *s = e->kind == FA_EXPR_ADD ? (Span){a.lo + b.lo, a.hi + b.hi, 0}
                                : (Span){a.lo - b.hi, a.hi - b.lo, 0};
    s->frac = a.frac > b.frac ? a.frac : b.frac;
    break;
  case FA_EXPR_CAST:
    TRY_MATCH(spanOf(m, e->ops[0], s));
    if (e->mode == FA_CMP_UNSIGNED && s->lo < 0)
      return kInexact;
    break;
  case FA_EXPR_MUL: {
    TRY_MATCH(spanOf(m, e->ops[0], &a));
    TRY_MATCH(spanOf(m, e->ops[1], &b));
    double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
    *s = (Span){fmin(fmin(p[0], p[1]), fmin(p[2], p[3])),
                fmax(fmax(p[0], p[1]), fmax(p[2], p[3])), a.frac + b.frac};
    break;
  }
  case FA_EXPR_IDIV:
  case FA_EXPR_FLOORDIV: {
    /* By a positive integer constant C only. Unsigned: of values >= 0.
     * Through f64 (mode ORDERED): floor(fl(x / C)) = floor(x / C) where
     * |x| + C < 2^52 (a non-integer x / C is at least 1 / C below the next
     * integer n, more than half an ulp of n < 2^52 / C). */
    TRY_MATCH(spanOf(m, e->ops[0], &a));
    TRY_MATCH(spanOf(m, e->ops[1], &b));
    double c = b.lo;
    if (b.lo != b.hi || b.frac != 0 || c < 1 || a.frac != 0)
      return "a mask divides by something other than a positive integer constant";
    if (e->kind == FA_EXPR_IDIV && e->mode == FA_CMP_UNSIGNED && a.lo < 0)
      return kInexact;
    if (e->mode == FA_CMP_ORDERED && fmax(fabs(a.lo), fabs(a.hi)) + c >= ldexp(1.0, 52))
      return kInexact;
    if (e->kind == FA_EXPR_FLOORDIV)
      *s = (Span){floor(a.lo / c), floor(a.hi / c), 0};
    else
      *s = (Span){trunc(a.lo / c), trunc(a.hi / c), 0};
    break;
  }
  case FA_EXPR_ABS:
    TRY_MATCH(spanOf(m, e->ops[0], &a));
    *s = a.lo >= 0 ? a : a.hi <= 0 ? (Span){-a.hi, -a.lo, a.frac}
                                   : (Span){0, fmax(-a.lo, a.hi), a.frac};
    break;
  case FA_EXPR_SELECT: {
    int v = condValue(m, e->ops[0], 0);
    if (v >= 0)
      return spanOf(m, e->ops[v ? 1 : 2], s);
    TRY_MATCH(spanOf(m, e->ops[1], &a));
    TRY_MATCH(spanOf(m, e->ops[2], &b));
    *s = (Span){fmin(a.lo, b.lo), fmax(a.hi, b.hi), a.frac > b.frac ? a.frac : b.frac};
    break;
  }
  default:
    return "a mask compares values the pattern cannot bound";
  }
  return spanFits(e->type, *s) ? NULL : kInexact;
}

/* The value of boolean `e` (on index values) for every i, j as the spans
 * of its compares decide it: 1, 0, or -1 (not decided). */
static int condValue(const FaAttentionMatch *m, const FaExpr *e, int depth) {
  e = faExprStripCasts(e);
  if (!e || depth > 8)
    return -1;
  switch (e->kind) {
  case FA_EXPR_CONST:
    return mlirTypeIsAInteger(e->type) && mlirIntegerTypeGetWidth(e->type) == 1 ? e->value != 0
                                                                                 : -1;
  case FA_EXPR_AND:
  case FA_EXPR_OR: {
    int a = condValue(m, e->ops[0], depth + 1), b = condValue(m, e->ops[1], depth + 1);
    int absorb = e->kind == FA_EXPR_AND ? 0 : 1;
    if (a == absorb || b == absorb)
      return absorb;
    return a >= 0 && b >= 0 ? !absorb : -1;
  }
  case FA_EXPR_NOT: {
    int a = condValue(m, e->ops[0], depth + 1);
    return a < 0 ? -1 : !a;
  }
  case FA_EXPR_XOR: {
    int a = condValue(m, e->ops[0], depth + 1), b = condValue(m, e->ops[1], depth + 1);
    return a < 0 || b < 0 ? -1 : a != b;
  }
  case FA_EXPR_CMP: {
    Span a, b;
    if ((e->mode != FA_CMP_SIGNED && e->mode != FA_CMP_UNSIGNED) ||
        !(mlirTypeIsAInteger(e->ops[0]->type) || mlirTypeIsAIndex(e->ops[0]->type)) ||
        spanOf(m, e->ops[0], &a) ||
        spanOf(m, e->ops[1], &b) || (e->mode == FA_CMP_UNSIGNED && (a.lo < 0 || b.lo < 0)))
      return -1;
    bool lt = a.hi < b.lo, gt = a.lo > b.hi, le = a.hi <= b.lo, ge = a.lo >= b.hi;
    bool same = a.lo == a.hi && b.lo == b.hi && a.lo == b.lo;
    switch (e->pred) {
    case FA_CMP_EQ: return same ? 1 : (lt || gt) ? 0 : -1;
    case FA_CMP_NE: return same ? 0 : (lt || gt) ? 1 : -1;
    case FA_CMP_LT: return lt ? 1 : ge ? 0 : -1;
    case FA_CMP_LE: return le ? 1 : gt ? 0 : -1;
    case FA_CMP_GT: return gt ? 1 : le ? 0 : -1;
    default: return ge ? 1 : lt ? 0 : -1;
    }
  }
  default:
    return -1;
  }
}

/* Both sides of a mask compare hold their values exactly. */
static const char *compareIsExact(const FaAttentionMatch *m, const FaExpr *cmp) {
  Span s;
  TRY_MATCH(spanOf(m, cmp->ops[0], &s));
  return spanOf(m, cmp->ops[1], &s);
}

/* masked iff j - L + c > 0 (or >= 0): keys j >= L + adjust are masked. The
 * KV length L may vary with the batch and the head (in that order: the op's
 * operand is [B] or [B, Hq]), nothing else. */
static const char *setKvLen(FaAttentionMatch *m, const FaExpr *kv,
                            int64_t adjust, MaskFill fill) {
  if (fillIsFinite(fill))
    return "a KV-length mask has a finite fill (a batch with no keys would "
           "average V in the source; the op gives 0)";
  if (m->scoreRank != 4 || kv->rank == 0)
    return "a KV-length mask on scores without a batch dim of their own";
  bool perBatch = false, perHead = false;
  for (int k = 0, last = -1; k < kv->rank; ++k) {
    if (sizeOf(kv->tensor, k) == 1)
      continue;
    if (kv->dims[k] < 0 || kv->dims[k] > 1 || kv->dims[k] <= last)
      return "the KV length varies with something other than the batch and the head";
    last = kv->dims[k];
    perBatch |= last == 0;
    perHead |= last == 1;
  }
  if (!perBatch && sizeOf(m->scores, 0) != 1)
    return "the KV length is one value for every batch";
  int width = mlirIntegerTypeGetWidth(kv->type);
  if (width != 32 && width != 64)
    return "the KV length is not i32 or i64";
  /* The op's kv_len is L + adjust computed in L's type: it must not wrap
   * there for any length L in [0, N]. */
  double n = indexMax(m, m->scoreRank - 1) + 1;
  if (!spanFits(kv->type, (Span){(double)adjust, n + (double)adjust, 0}))
    return "the KV-length offset does not fit the length's type (the op's "
           "kv_len would wrap)";
  if (m->kvLen && (!mlirValueEqual(m->kvLen->tensor, kv->tensor) ||
                   m->kvLenAdjust != adjust))
    return "two different KV-length masks";
  m->kvLen = kv;
  m->kvLenAdjust = adjust;
  m->kvLenPerHead = perHead;
  return NULL;
}

/* Can `l` be negative for some i, j >= 0? (A KV length may be anything.) */
static bool mayBeNegative(Linear l) {
  return l.ci < 0 || l.cj < 0 || l.ck != 0 || l.c < 0;
}

/* `cond` selects masked scores (when `maskedWhenTrue`, else unmasked ones).
 * Recognizes key j visible iff j <= i + offset, and keys j >= L + c masked
 * for a per-batch KV length L. */
static const char *causalFromCompare(FaAttentionMatch *m, const FaExpr *cond,
                                     bool maskedWhenTrue, MaskFill fill) {
  cond = faExprStripCasts(cond);
  Linear l, r, d;
  if (!cond || cond->kind != FA_EXPR_CMP ||
      !linearOf(cond->ops[0], m->scoreRank, &l) ||
      !linearOf(cond->ops[1], m->scoreRank, &r) ||
      !linearCombine(l, r, -1, &d)) /* masked iff d pred 0 */
    return "a select on the scores is not a causal mask on query/key indices";
  /* Offsets this large make the source's own index arithmetic wrap (i + c
   * for a row i), which no mask of the op means: refused, never wrapped. */
  const int64_t kMaxOffset = (int64_t)1 << 53;
  if (d.c > kMaxOffset || d.c < -kMaxOffset || l.c > kMaxOffset || l.c < -kMaxOffset ||
      r.c > kMaxOffset || r.c < -kMaxOffset)
    return "a mask offset beyond +-2^53: the source's index arithmetic may wrap";
  /* Unsigned is signed only where neither side can be negative (index
   * values never are; i - 3 or a KV length may be, and then wrap). Floats
   * here are iotas and constants, never NaN: ordered or not is the same. */
  if (cond->mode == FA_CMP_UNSIGNED && (mayBeNegative(l) || mayBeNegative(r)))
    return "an unsigned compare of index expressions that may be negative "
           "(they wrap; the op's masks compare signed)";
  FaCmp pred = cond->pred;
  static const FaCmp negate[6] = {FA_CMP_NE, FA_CMP_EQ, FA_CMP_GE,
                                  FA_CMP_GT, FA_CMP_LE, FA_CMP_LT};
  static const FaCmp flip[6] = {FA_CMP_EQ, FA_CMP_NE, FA_CMP_GT,
                                FA_CMP_GE, FA_CMP_LT, FA_CMP_LE};
  if (!maskedWhenTrue)
    pred = negate[pred];
  if (d.cj < 0) {
    d = (Linear){-d.ci, -d.cj, -d.ck, -d.c, d.kv};
    pred = flip[pred];
  }
  bool boolean = cond->tensor.ptr && mlirTypeIsAInteger(cond->type) &&
                 mlirIntegerTypeGetWidth(cond->type) == 1;
  /* masked iff j - x + c > 0 (or >= 0) for x = i or L: over integers j - x,
   * iff j >= x + first with first the least integer above (or at) -c (a
   * float compare may hold a fractional c). */
  double first = pred == FA_CMP_GT ? floor(-d.c) + 1 : ceil(-d.c);
  if (d.ck != 0) {
    /* A compare on an integer tensor that is no KV length (DistilBERT's
     * `attention_mask == 0`), or a KV length whose fill is finite (a batch
     * with no keys averages V in the source, which a bias of the lowest f32
     * keeps and the op's kv_len would not): the boolean tensor the source
     * computes is the mask, exactly. */
    bool kvLen = d.cj == 1 && d.ci == 0 && d.ck == -1 &&
                 (pred == FA_CMP_GT || pred == FA_CMP_GE);
    if (boolean && (!kvLen || fillIsFinite(fill)))
      return setBooleanMask(m, (FaExpr *)cond, maskedWhenTrue, fill);
    if (!kvLen)
      return "a mask on the scores is not keys at or past a KV length";
    TRY_MATCH(compareIsExact(m, cond));
    return setKvLen(m, d.kv, (int64_t)first, fill);
  }
  if (d.cj != 1 || d.ci != -1 || (pred != FA_CMP_GT && pred != FA_CMP_GE))
    return "a mask on the scores is not causal (keys after query + offset)";
  TRY_MATCH(compareIsExact(m, cond));
  return setCausal(m, (int64_t)first - 1, fill);
}

/* How a constant mask tensor marks masked scores. */
typedef enum { MASK_ADDITIVE, MASK_TRUE_MASKED, MASK_TRUE_VISIBLE } MaskKind;

/* An additive triangle is causal only with -inf: a finite one stays a bias
 * (which is exact). NaN is neither visible nor masked. */
static bool maskValueOk(double v, bool visible, MaskKind kind) {
  if (isnan(v))
    return false;
  switch (kind) {
  case MASK_ADDITIVE: return visible ? v == 0.0 : isinf(v) && v < 0;
  case MASK_TRUE_MASKED: return (v != 0) == !visible;
  default: return (v != 0) == visible;
  }
}

/* A constant leaf masking exactly the keys j > i + offset. */
static bool constantCausalOffset(const FaAttentionMatch *m, const FaExpr *e,
                                 MaskKind kind, int64_t *offset) {
  MlirAttribute dense = denseConstant(e->tensor);
  int rank = m->scoreRank;
  if (mlirAttributeIsNull(dense) ||
      (mlirAttributeIsADenseElements(dense) && mlirDenseElementsAttrIsSplat(dense)))
    return false;
  int64_t strideI = 0, strideJ = 0, rows = 0, cols = 0, stride = 1;
  for (int k = e->rank - 1; k >= 0; --k) {
    int64_t size = sizeOf(e->tensor, k);
    if (e->dims[k] == rank - 2) { strideI = stride; rows = size; }
    else if (e->dims[k] == rank - 1) { strideJ = stride; cols = size; }
    else if (size != 1) return false;
    stride *= size;
  }
  if (rows <= 0 || cols <= 0)
    return false;
  /* The offset from the first row that is neither fully open nor closed. */
  int64_t off = INT64_MIN;
  for (int64_t i = 0; i < rows && off == INT64_MIN; ++i) {
    int64_t open = 0;
    while (open < cols &&
           maskValueOk(faDenseElementGet(dense, i * strideI + open * strideJ),
                       true, kind))
      ++open;
    if (open > 0 && open < cols)
      off = open - 1 - i;
  }
  if (off == INT64_MIN)
    return false;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      if (!maskValueOk(faDenseElementGet(dense, i * strideI + j * strideJ),
                       j <= i + off, kind))
        return false;
  *offset = off;
  return true;
}

/* With a finite fill, offset >= 0 leaves every row key 0: it differs from
 * -inf only in masked keys weighing exp(fill - max), 0 in f32 whenever a
 * visible score exceeds fill + 104 (fills are <= -1e4). */
static const char *setCausal(FaAttentionMatch *m, int64_t offset, MaskFill fill) {
  if (fillIsFinite(fill) && offset < 0)
    return "a causal mask with a finite fill leaves rows no visible key (the "
           "source averages V there; the op gives 0)";
  if (m->causal && m->causalOffset != offset)
    return "two different causal masks";
  m->causal = true;
  m->causalOffset = offset;
  if (fillIsFinite(fill))
    noteFiniteFill(m, fill);
  return NULL;
}

/* Any other i1 tensor (a padding mask) becomes a bias: maskBias where it is
 * `maskedValue`, 0 elsewhere (built by the rewrite). An added fill is the
 * bias as it is; a fill that replaces the scores becomes the lowest f32,
 * which absorbs every score below 2^103 (s + lowest == lowest): masked
 * scores are then all equal, as in the source, and a fully masked row
 * averages V. */
static const char *setBooleanMask(FaAttentionMatch *m, FaExpr *mask,
                                  bool maskedValue, MaskFill fill) {
  if (!mlirTypeIsAInteger(mask->type) || mlirIntegerTypeGetWidth(mask->type) != 1)
    return "a select on the scores uses a mask that is not causal or boolean";
  if (m->bias)
    return "more than one bias is added to the scores";
  m->bias = mask;
  m->biasIsMask = true;
  m->maskedValue = maskedValue;
  m->maskBias = fillIsFinite(fill) && fill.replaces ? -FLT_MAX : fill.value;
  if (fillIsFinite(fill) && fill.replaces)
    noteFiniteFill(m, fill);
  return NULL;
}

/* A decode step (a static M = 1) has the one query row i = 0, and TOSA
 * exports write the row iota of that row as a splat constant r: a compare
 * of the key index with a constant, `j > r`, is `j > i + r`. Returns `cond`
 * with the row index added to its constant side (which changes no value:
 * i = 0), or `cond` itself where it is not such a compare. */
static const FaExpr *withDecodeRow(FaAttentionMatch *m, const FaExpr *cond) {
  int rank = m->scoreRank;
  Linear side[2];
  if (rank < 2 || sizeOf(m->scores, rank - 2) != 1 || !cond || cond->kind != FA_EXPR_CMP ||
      !linearOf(cond->ops[0], rank, &side[0]) || !linearOf(cond->ops[1], rank, &side[1]))
    return cond;
  int keySide = side[0].cj != 0 ? 0 : 1;
  Linear k = side[keySide], c = side[1 - keySide];
  if (k.cj == 0 || k.ci != 0 || k.ck != 0 || c.cj != 0 || c.ci != 0 || c.ck != 0)
    return cond;
  FaExpr *constSide = cond->ops[1 - keySide];
  FaExpr *row = faExprNew(&m->exprs, FA_EXPR_INDEX,
                          mlirIndexTypeGet(mlirTypeGetContext(constSide->type)));
  FaExpr *sum = faExprNew(&m->exprs, FA_EXPR_ADD, constSide->type);
  FaExpr *cmp = faExprNew(&m->exprs, FA_EXPR_CMP, cond->type);
  if (!row || !sum || !cmp)
    return cond;
  row->dim = rank - 2;
  sum->ops[0] = constSide;
  sum->ops[1] = row;
  *cmp = *cond;
  cmp->ops[1 - keySide] = sum;
  return cmp;
}

/* --- mask functions ----------------------------------------------------------- */

static const char *const kNotIndexMask =
    "a mask combines conditions that are not all compares of query and key indices";

/* A new node of the mask formula (-1: full). */
static int maskNode(FaAttentionMatch *m, int kind, int a, int b) {
  int cap = (int)(sizeof m->maskNodes / sizeof m->maskNodes[0]);
  if (m->numMaskNodes >= cap || a < -1 || b < -1)
    return -1;
  m->maskNodes[m->numMaskNodes].kind = kind;
  m->maskNodes[m->numMaskNodes].a = a;
  m->maskNodes[m->numMaskNodes].b = b;
  return m->numMaskNodes++;
}

/* The i1 constant true (read as 1, or as -1 where a reader sign-extends). */
static bool isTrueConst(const FaExpr *e) {
  e = faExprStripCasts(e);
  return e && e->kind == FA_EXPR_CONST && mlirTypeIsAInteger(e->type) &&
         mlirIntegerTypeGetWidth(e->type) == 1 && e->value != 0;
}

/* A side of a mask compare with quotients of indices:
 * l + qi*floor((i + oi) / di) + qj*floor((j + oj) / dj). */
typedef struct {
  Linear l;
  double qi, qj;
  int64_t di, dj, oi, oj;
} QLinear;

/* a + s*b, unless they divide the same index differently. */
static bool qlinearCombine(QLinear a, QLinear b, double s, QLinear *out) {
  if (!linearCombine(a.l, b.l, s, &out->l))
    return false;
  if ((a.qi != 0 && b.qi != 0 && (a.di != b.di || a.oi != b.oi)) ||
      (a.qj != 0 && b.qj != 0 && (a.dj != b.dj || a.oj != b.oj)))
    return false;
  out->qi = a.qi + s * b.qi;
  out->di = a.qi != 0 ? a.di : b.di;
  out->oi = a.qi != 0 ? a.oi : b.oi;
  out->qj = a.qj + s * b.qj;
  out->dj = a.qj != 0 ? a.dj : b.dj;
  out->oj = a.qj != 0 ? a.oj : b.oj;
  if (out->qi == 0)
    out->di = 1, out->oi = 0;
  if (out->qj == 0)
    out->dj = 1, out->oj = 0;
  return true;
}

/* `e` as a QLinear: sums of linear index expressions and quotients
 * (index + c) / C by a positive constant C, floor division (floordivsi,
 * torch-mlir's floor of an f64 quotient) or truncating (divsi, divui,
 * tosa.intdiv: only where index + c >= 0, where both agree); a select
 * whose condition the spans decide is its branch (TOSA's floor division
 * from intdiv corrects the quotient of negative values only). */
static const char *qlinearOf(const FaAttentionMatch *m, const FaExpr *e, int depth,
                             QLinear *out) {
  int rank = m->scoreRank;
  QLinear a, b;
  e = faExprStripCasts(e);
  if (!e || depth > 16)
    return kNotIndexMask;
  switch (e->kind) {
  case FA_EXPR_ADD:
  case FA_EXPR_SUB:
    TRY_MATCH(qlinearOf(m, e->ops[0], depth + 1, &a));
    TRY_MATCH(qlinearOf(m, e->ops[1], depth + 1, &b));
    return qlinearCombine(a, b, e->kind == FA_EXPR_ADD ? 1 : -1, out) ? NULL : kNotIndexMask;
  case FA_EXPR_SELECT: {
    int v = condValue(m, e->ops[0], 0);
    if (v < 0)
      return kNotIndexMask;
    return qlinearOf(m, e->ops[v ? 1 : 2], depth + 1, out);
  }
  case FA_EXPR_IDIV:
  case FA_EXPR_FLOORDIV: {
    Linear x;
    const FaExpr *dv = faExprStripCasts(e->ops[1]);
    if (!dv || dv->kind != FA_EXPR_CONST || dv->value < 1 || dv->value > (1 << 20) ||
        dv->value != floor(dv->value))
      return "a mask divides an index by something other than a positive integer constant";
    if (!linearOf(e->ops[0], rank, &x) || x.ck != 0 || x.c != floor(x.c) ||
        fabs(x.c) > ldexp(1.0, 53) ||
        !((x.ci == 1 && x.cj == 0) || (x.ci == 0 && x.cj == 1)))
      return kNotIndexMask;
    if (e->kind == FA_EXPR_IDIV && x.c < 0)
      return "a truncating (or unsigned) division of an index expression that may be "
             "negative (it is not the floor division there)";
    *out = (QLinear){{0, 0, 0, 0, NULL}, 0, 0, 1, 1, 0, 0};
    if (x.ci != 0)
      out->qi = 1, out->di = (int64_t)dv->value, out->oi = (int64_t)x.c;
    else
      out->qj = 1, out->dj = (int64_t)dv->value, out->oj = (int64_t)x.c;
    return NULL;
  }
  default:
    *out = (QLinear){{0, 0, 0, 0, NULL}, 0, 0, 1, 1, 0, 0};
    return linearOf(e, rank, &out->l) ? NULL : kNotIndexMask;
  }
}

static bool qMayBeNegative(QLinear q) {
  return mayBeNegative(q.l) || q.qi < 0 || q.qj < 0 || (q.qi != 0 && q.oi < 0) ||
         (q.qj != 0 && q.oj < 0);
}

/* Compare `c` as a term of the formula (read exactly: compareIsExact), or
 * why not. |x| == 0 (!= 0) is read as x == 0 (!= 0). */
static const char *maskTerm(FaAttentionMatch *m, const FaExpr *c, int *node) {
  QLinear l, r, d;
  if (!c || c->kind != FA_EXPR_CMP)
    return kNotIndexMask;
  const FaExpr *lhs = c->ops[0], *rhs = c->ops[1];
  if (c->pred == FA_CMP_EQ || c->pred == FA_CMP_NE) {
    const FaExpr *x = faExprStripCasts(lhs), *y = faExprStripCasts(rhs);
    if (x && x->kind == FA_EXPR_ABS && faExprIsConst(y, 0.0))
      lhs = x->ops[0];
    else if (y && y->kind == FA_EXPR_ABS && faExprIsConst(x, 0.0))
      rhs = y->ops[0];
  }
  TRY_MATCH(qlinearOf(m, lhs, 0, &l));
  TRY_MATCH(qlinearOf(m, rhs, 0, &r));
  if (!qlinearCombine(l, r, -1, &d) || d.l.ck != 0)
    return kNotIndexMask;
  double imax = indexMax(m, m->scoreRank - 2), jmax = indexMax(m, m->scoreRank - 1);
  if (fabs(d.l.ci) > 1 << 20 || fabs(d.l.cj) > 1 << 20 || fabs(d.l.c) > ldexp(1.0, 53) ||
      fabs(d.qi) > 1 << 20 || fabs(d.qj) > 1 << 20 ||
      fabs(d.l.ci) * imax + fabs(d.l.cj) * jmax + fabs(d.l.c) +
              fabs(d.qi) * (imax + fabs((double)d.oi) + 1) +
              fabs(d.qj) * (jmax + fabs((double)d.oj) + 1) + 2 >= ldexp(1.0, 62))
    return "a mask offset beyond +-2^53: the source's index arithmetic may wrap";
  if (c->mode == FA_CMP_UNSIGNED && (qMayBeNegative(l) || qMayBeNegative(r)))
    return "an unsigned compare of index expressions that may be negative "
           "(they wrap; the op's masks compare signed)";
  TRY_MATCH(compareIsExact(m, c));
  /* ci*i + cj*j + quotients <pred> -c over integers (c may be fractional). */
  double k = -d.l.c;
  int64_t kk;
  switch (c->pred) {
  case FA_CMP_GT: kk = (int64_t)floor(k); break; /* e > k  <=> e > floor k */
  case FA_CMP_GE: kk = (int64_t)ceil(k); break;  /* e >= ceil k */
  case FA_CMP_LT: kk = (int64_t)ceil(k); break;  /* e < ceil k */
  case FA_CMP_LE: kk = (int64_t)floor(k); break; /* e <= floor k */
  default:
    if (k != floor(k)) /* e == k never, e != k always: a constant mask */
      return kNotIndexMask;
    kk = (int64_t)k;
  }
  if (m->numMaskTerms >= FA_MASK_MAX_TERMS)
    return "a mask combines more than six compares";
  int t = m->numMaskTerms++;
  m->maskTerms[t].ci = (int64_t)d.l.ci;
  m->maskTerms[t].cj = (int64_t)d.l.cj;
  m->maskTerms[t].k = kk;
  m->maskTerms[t].qi = (int64_t)d.qi;
  m->maskTerms[t].qj = (int64_t)d.qj;
  m->maskTerms[t].di = d.di;
  m->maskTerms[t].dj = d.dj;
  m->maskTerms[t].oi = d.oi;
  m->maskTerms[t].oj = d.oj;
  m->maskTerms[t].pred = c->pred;
  *node = maskNode(m, FA_MASK_TERM, t, -1);
  return *node < 0 ? "a mask combines more than six compares" : NULL;
}

/* The formula of boolean tree `e`: and, or, not (xor with true), compares;
 * `and true` / `or false` are not simplified (they are read as written). */
static const char *maskFormula(FaAttentionMatch *m, const FaExpr *e, int depth, int *node) {
  e = faExprStripCasts(e);
  int a, b;
  if (!e || depth > 8)
    return kNotIndexMask;
  switch (e->kind) {
  case FA_EXPR_CMP:
    return maskTerm(m, e, node);
  case FA_EXPR_CONST:
    if (!isTrueConst(e))
      return kNotIndexMask;
    *node = maskNode(m, FA_MASK_TRUE, -1, -1);
    break;
  case FA_EXPR_AND:
  case FA_EXPR_OR:
    TRY_MATCH(maskFormula(m, e->ops[0], depth + 1, &a));
    TRY_MATCH(maskFormula(m, e->ops[1], depth + 1, &b));
    *node = maskNode(m, e->kind == FA_EXPR_AND ? FA_MASK_AND : FA_MASK_OR, a, b);
    break;
  case FA_EXPR_XOR: {
    int t = isTrueConst(e->ops[1]) ? 0 : isTrueConst(e->ops[0]) ? 1 : -1;
    if (t < 0)
      return kNotIndexMask;
    TRY_MATCH(maskFormula(m, e->ops[t], depth + 1, &a));
    *node = maskNode(m, FA_MASK_NOT, a, -1);
    break;
  }
  case FA_EXPR_NOT:
    TRY_MATCH(maskFormula(m, e->ops[0], depth + 1, &a));
    *node = maskNode(m, FA_MASK_NOT, a, -1);
    break;
  default:
    return kNotIndexMask;
  }
  return *node < 0 ? "a mask combines more than six compares" : NULL;
}

/* floor(x / d) for d > 0. */
static int64_t floorDiv(int64_t x, int64_t d) {
  return x / d - (x % d != 0 && x < 0);
}

static bool maskEval(const FaAttentionMatch *m, int n, int64_t i, int64_t j) {
  switch (m->maskNodes[n].kind) {
  case FA_MASK_TRUE: return true;
  case FA_MASK_NOT: return !maskEval(m, m->maskNodes[n].a, i, j);
  case FA_MASK_AND:
    return maskEval(m, m->maskNodes[n].a, i, j) && maskEval(m, m->maskNodes[n].b, i, j);
  case FA_MASK_OR:
    return maskEval(m, m->maskNodes[n].a, i, j) || maskEval(m, m->maskNodes[n].b, i, j);
  default: {
    int t = m->maskNodes[n].a;
    int64_t e = m->maskTerms[t].ci * i + m->maskTerms[t].cj * j, k = m->maskTerms[t].k;
    if (m->maskTerms[t].qi)
      e += m->maskTerms[t].qi * floorDiv(i + m->maskTerms[t].oi, m->maskTerms[t].di);
    if (m->maskTerms[t].qj)
      e += m->maskTerms[t].qj * floorDiv(j + m->maskTerms[t].oj, m->maskTerms[t].dj);
    switch ((FaCmp)m->maskTerms[t].pred) {
    case FA_CMP_EQ: return e == k;
    case FA_CMP_NE: return e != k;
    case FA_CMP_LT: return e < k;
    case FA_CMP_LE: return e <= k;
    case FA_CMP_GT: return e > k;
    default: return e >= k;
    }
  }
  }
}

/* Whether key j is visible for query i under the mask function of `m` (and
 * its causal offset). */
static bool maskVisible(const FaAttentionMatch *m, int64_t i, int64_t j) {
  if (m->causal && j > i + m->causalOffset)
    return false;
  return maskEval(m, m->numMaskNodes - 1, i, j);
}

/* Whether every query row keeps a visible key under the mask function and
 * causal offset: 1 yes, 0 no, -1 unknown (dynamic or large sizes). */
static int maskKeepsEveryRow(const FaAttentionMatch *m) {
  int64_t rows = sizeOf(m->scores, m->scoreRank - 2), cols = sizeOf(m->scores, m->scoreRank - 1);
  if (rows < 0 || cols < 0 || rows * cols > (1 << 22))
    return -1;
  for (int64_t i = 0; i < rows; ++i) {
    bool any = false;
    for (int64_t j = 0; j < cols && !any; ++j)
      any = maskVisible(m, i, j);
    if (!any)
      return 0;
  }
  return 1;
}

/* Whether term t reads exactly "j <= i + off". */
static bool termIsCausal(const FaAttentionMatch *m, int t, int64_t off) {
  int64_t ci = m->maskTerms[t].ci, cj = m->maskTerms[t].cj, k = m->maskTerms[t].k;
  if (m->maskTerms[t].qi || m->maskTerms[t].qj)
    return false;
  switch ((FaCmp)m->maskTerms[t].pred) {
  case FA_CMP_LE: return ci == -1 && cj == 1 && k == off;
  case FA_CMP_LT: return ci == -1 && cj == 1 && k == off + 1;
  case FA_CMP_GE: return ci == 1 && cj == -1 && k == -off;
  case FA_CMP_GT: return ci == 1 && cj == -1 && k == -off - 1;
  default: return false;
  }
}

/* A condition on query/key indices only that combines several compares
 * (a sliding window and causal, a chunk and causal, a prefix or causal):
 * the op's mask function. Each compare is ci*i + cj*j + c <pred> 0 read
 * exactly (compareIsExact: the source's arithmetic neither wraps nor
 * rounds), so index arithmetic in the function computes the same. Where
 * the condition marks the visible keys, an exactly causal compare among its
 * top-level conjuncts becomes causal_offset (the canonical form) and the
 * rest the function. */
static const char *setMaskFunctionIn(FaAttentionMatch *m, const FaExpr *cond,
                                     bool maskedWhenTrue, MaskFill fill) {
  if (m->numMaskTerms)
    return "two mask functions on the scores";
  if (fillIsFinite(fill) && (m->causal || m->kvLen || m->bias))
    return "a mask with a finite fill is combined with another mask (rows they "
           "mask together would differ)";
  /* select(not(visible), fill, s): the visible condition itself. */
  const FaExpr *c = faExprStripCasts(cond);
  if (maskedWhenTrue && c && (c->kind == FA_EXPR_NOT || c->kind == FA_EXPR_XOR)) {
    int t = c->kind == FA_EXPR_NOT ? 0 : isTrueConst(c->ops[1]) ? 0 : isTrueConst(c->ops[0]) ? 1 : -1;
    if (t >= 0) {
      cond = c->ops[t];
      maskedWhenTrue = false;
    }
  }
  int root;
  TRY_MATCH(maskFormula(m, cond, 0, &root));
  if (maskedWhenTrue && maskNode(m, FA_MASK_NOT, root, -1) < 0)
    return "a mask combines more than six compares";
  if (!maskedWhenTrue) {
    /* Top-level conjuncts that are causal: a term node of such a compare
     * becomes true (terms are created in tree order: walk in step). */
    const FaExpr *stack[16];
    int sp = 0;
    stack[sp++] = faExprStripCasts(cond);
    while (sp > 0 && !m->causal) {
      const FaExpr *e = stack[--sp];
      if (!e)
        continue;
      if (e->kind == FA_EXPR_AND && sp + 2 <= 16) {
        stack[sp++] = faExprStripCasts(e->ops[1]);
        stack[sp++] = faExprStripCasts(e->ops[0]);
        continue;
      }
      if (e->kind != FA_EXPR_CMP)
        continue;
      Linear l, r, d;
      if (!linearOf(e->ops[0], m->scoreRank, &l) || !linearOf(e->ops[1], m->scoreRank, &r) ||
          !linearCombine(l, r, -1, &d) || fabs(d.ci) != 1 || d.ci != -d.cj ||
          causalFromCompare(m, e, false, fill))
        continue;
      m->maskWithCausal = true;
      /* Its term (the first that reads j <= i + offset) becomes true. */
      for (int n = 0; n < m->numMaskNodes; ++n)
        if (m->maskNodes[n].kind == FA_MASK_TERM &&
            termIsCausal(m, m->maskNodes[n].a, m->causalOffset)) {
          m->maskNodes[n].kind = FA_MASK_TRUE;
          break;
        }
    }
  }
  if (fillIsFinite(fill)) {
    /* A fully masked row averages V in the source, 0 in the op: every row
     * must keep a key (checked on the static sizes). */
    int keeps = maskKeepsEveryRow(m);
    if (keeps < 0)
      return "a mask function with a finite fill on dynamic or large scores (a row "
             "it masks fully would average V in the source; the op gives 0)";
    if (!keeps)
      return "a mask function with a finite fill leaves a row no visible key (the "
             "source averages V there; the op gives 0)";
    if (!m->maskWithCausal)
      noteFiniteFill(m, fill);
  }
  m->maskFiniteFill = fillIsFinite(fill);
  return NULL;
}

/* Whether `e` divides integers (IDIV, FLOORDIV). */
static bool containsDivision(const FaExpr *e, int depth) {
  if (!e || depth > 16)
    return false;
  if (e->kind == FA_EXPR_IDIV || e->kind == FA_EXPR_FLOORDIV)
    return true;
  for (int i = 0; i < 3; ++i)
    if (containsDivision(e->ops[i], depth + 1))
      return true;
  return false;
}

/* As setMaskFunctionIn; `m` changes only where it succeeds. */
static const char *setMaskFunction(FaAttentionMatch *m, const FaExpr *cond,
                                   bool maskedWhenTrue, MaskFill fill) {
  FaAttentionMatch *saved = malloc(sizeof *saved);
  if (!saved)
    return "out of memory";
  memcpy(saved, m, sizeof *saved);
  const char *why = setMaskFunctionIn(m, cond, maskedWhenTrue, fill);
  if (why)
    memcpy(m, saved, sizeof *saved);
  free(saved);
  return why;
}

/* The mask function of `cond`; where it is none but `cond` divides
 * integers and is an i1 tensor of the source's, that tensor as a boolean
 * mask (as it was read before divisions were: their ops ended the tree). */
static const char *maskFunctionOrTensor(FaAttentionMatch *m, const FaExpr *cond,
                                        bool maskedWhenTrue, MaskFill fill) {
  const char *why = setMaskFunction(m, cond, maskedWhenTrue, fill);
  if (!why || !cond->tensor.ptr || !containsDivision(cond, 0))
    return why;
  return setBooleanMask(m, (FaExpr *)cond, maskedWhenTrue, fill);
}

/* A mask function, or a data tensor and index compares (DataMasks.c). */
static const char *maskFunctionOrData(FaAttentionMatch *m, const FaExpr *cond,
                                      bool maskedWhenTrue, MaskFill fill) {
  bool tried;
  const char *why = faAttentionSplitDataMask(m, cond, maskedWhenTrue, fill, &tried);
  return tried ? why : maskFunctionOrTensor(m, cond, maskedWhenTrue, fill);
}

/* A boolean condition marking masked scores (or, if !maskedWhenTrue, the
 * visible ones): index compares or a constant triangle; `and true` is
 * looked through. */
static const char *causalFromCondition(FaAttentionMatch *m, const FaExpr *cond,
                                       bool maskedWhenTrue, MaskFill fill) {
  cond = faExprStripCasts(cond);
  while (cond && cond->kind == FA_EXPR_AND) {
    if (faExprIsConst(faExprStripCasts(cond->ops[1]), 1.0))
      cond = faExprStripCasts(cond->ops[0]);
    else if (faExprIsConst(faExprStripCasts(cond->ops[0]), 1.0))
      cond = faExprStripCasts(cond->ops[1]);
    else
      return maskFunctionOrData(m, cond, maskedWhenTrue, fill);
  }
  /* or / not of index compares: a mask function; otherwise an i1 tensor of
   * the source's (as such conditions were read before they were
   * understood: a boolean mask). */
  if (cond && (cond->kind == FA_EXPR_OR || cond->kind == FA_EXPR_XOR ||
               cond->kind == FA_EXPR_NOT)) {
    bool tried;
    const char *why = faAttentionSplitDataMask(m, cond, maskedWhenTrue, fill, &tried);
    if (tried)
      return why;
    why = setMaskFunction(m, cond, maskedWhenTrue, fill);
    if (!why || !cond->tensor.ptr)
      return why;
    return setBooleanMask(m, (FaExpr *)cond, maskedWhenTrue, fill);
  }
  /* x != 0 on a constant tensor: the tensor read as booleans (NaN elements
   * are refused by maskValueOk, so one and une read the same). */
  if (cond && cond->kind == FA_EXPR_CMP && cond->pred == FA_CMP_NE) {
    FaExpr *a = faExprStripCasts(cond->ops[0]), *b = faExprStripCasts(cond->ops[1]);
    if (faExprIsConst(b, 0.0) && a && a->kind == FA_EXPR_LEAF)
      cond = a;
    else if (faExprIsConst(a, 0.0) && b && b->kind == FA_EXPR_LEAF)
      cond = b;
  }
  int64_t offset;
  if (cond && cond->kind == FA_EXPR_LEAF) {
    /* A triangle whose finite fill would mask whole rows stays boolean. */
    if (constantCausalOffset(m, cond,
                             maskedWhenTrue ? MASK_TRUE_MASKED : MASK_TRUE_VISIBLE,
                             &offset) &&
        (!fillIsFinite(fill) || offset >= 0))
      return setCausal(m, offset, fill);
    return setBooleanMask(m, (FaExpr *)cond, maskedWhenTrue, fill);
  }
  /* A lone compare of index quotients (block-diagonal chunks): a mask
   * function. */
  if (cond && cond->kind == FA_EXPR_CMP && containsDivision(cond, 0))
    return maskFunctionOrTensor(m, cond, maskedWhenTrue, fill);
  return causalFromCompare(m, withDecodeRow(m, cond), maskedWhenTrue, fill);
}

const char *faAttentionMaskFromCondition(FaAttentionMatch *m, const FaExpr *cond,
                                         bool maskedWhenTrue, MaskFill fill) {
  return causalFromCondition(m, cond, maskedWhenTrue, fill);
}

const char *faAttentionSetBooleanMask(FaAttentionMatch *m, FaExpr *mask,
                                      bool maskedValue, MaskFill fill) {
  return setBooleanMask(m, mask, maskedValue, fill);
}

/* A constant that masks: -inf, or finite at most kMaskValue once scaled by
 * `scale` (the scales applied after it). */
static bool maskConst(const FaExpr *e, double scale, double *value) {
  e = faExprStripCasts(e);
  if (!e || e->kind != FA_EXPR_CONST || isnan(e->value) || e->value * scale > kMaskValue)
    return false;
  *value = e->value;
  return true;
}

static const char *addBias(FaAttentionMatch *m, FaExpr *b) {
  int64_t offset;
  double fill;
  if (b->kind == FA_EXPR_CONST)
    return "a constant is added to the scores";
  if (b->kind == FA_EXPR_SELECT) {
    /* select(cond, 0, -inf) or select(cond, -inf, 0): a causal mask built
     * as an additive tensor, as PyTorch's SDPA decomposition does. */
    bool zeroFirst = faExprIsConst(faExprStripCasts(b->ops[1]), 0.0);
    bool zeroSecond = faExprIsConst(faExprStripCasts(b->ops[2]), 0.0);
    if (((zeroFirst && maskConst(b->ops[2], 1.0, &fill)) ||
         (zeroSecond && maskConst(b->ops[1], 1.0, &fill))) &&
        !(m->addedFillsAsBias && isfinite(fill) && b->tensor.ptr)) {
      /* The setters change `m` only when they succeed. */
      if (!causalFromCondition(m, b->ops[0], zeroSecond, (MaskFill){fill, false, {NULL}})) {
        m->additiveMask = true;
        return NULL;
      }
    }
  }
  if (!b->tensor.ptr)
    return "the bias is computed inside the scores' own operation";
  if (constantCausalOffset(m, b, MASK_ADDITIVE, &offset)) {
    m->additiveMask = true;
    return setCausal(m, offset, (MaskFill){-INFINITY, false, {NULL}});
  }
  if (m->bias)
    return "more than one bias is added to the scores";
  m->bias = b;
  return NULL;
}

/* The narrower (fewer significand bits) of two float types; `b` may be null. */
static MlirType narrower(MlirType a, MlirType b) {
  return b.ptr && floatPrecision(b) < floatPrecision(a) ? b : a;
}

/* Roundings on the way from here to the softmax (a cast chain the walk
 * strips): the narrowest type the scores are rounded to after this point. */
static void noteRoundings(FaAttentionMatch *m, const FaExpr *e) {
  for (; e && e->kind == FA_EXPR_CAST; e = e->ops[0])
    if (floatPrecision(e->type))
      m->roundedTo = m->roundedTo.ptr ? narrower(m->roundedTo, e->type) : e->type;
}

/* A replacing fill as the softmax sees it: rounded to the narrowest type the
 * scores pass through after the select, where a fill past that type's range
 * becomes -inf (the lowest f32 rounded to f16 is -inf: an exact mask). */
static MaskFill roundedFill(const FaAttentionMatch *m, double fill, MlirType selType) {
  MlirType t = m->roundedTo.ptr ? narrower(selType, m->roundedTo) : selType;
  double step, lowest = lowestOf(t, &step);
  if (step > 0 && fill <= lowest - step / 2)
    fill = -INFINITY; /* rounds to -inf (ties away from the largest value) */
  return (MaskFill){fill, true, t};
}

static const char *addSelectMask(FaAttentionMatch *m, FaExpr *sel, FaExpr **next) {
  double fa, fb;
  bool aMask = maskConst(sel->ops[1], m->scale, &fa);
  bool bMask = maskConst(sel->ops[2], m->scale, &fb);
  if (aMask == bMask)
    return "a select on the scores does not pick between the scores and -inf "
           "or a finite fill of at most -1e4";
  *next = aMask ? sel->ops[2] : sel->ops[1];
  m->selectCond = sel->ops[0];
  m->selectMaskedWhenTrue = aMask;
  m->numSelectMasks++;
  return causalFromCondition(m, sel->ops[0], aMask, roundedFill(m, aMask ? fa : fb, sel->type));
}

/* A finite fill read as a mask is exact only where it masks alone: with
 * another mask, a row they mask together averages V over some keys in the
 * source but gives 0 in the op. */
/* --- bounds of a bias ----------------------------------------------------------- */

/* An interval that holds every value of a tensor or tree. */
typedef struct {
  double lo, hi;
} Range;

enum { RANGE_MAX_DEPTH = 8, RANGE_MAX_ELEMENTS = 1 << 20 };

static bool rangeOfExpr(FaAttentionMatch *m, const FaExpr *e, MlirValue space, int depth,
                        Range *r);

/* Elements of a dense (or dense_resource) constant. */
static bool rangeOfConstant(MlirAttribute dense, Range *r) {
  if (mlirAttributeIsNull(dense) || !mlirAttributeIsAElements(dense))
    return false;
  int64_t n = mlirElementsAttrGetNumElements(dense);
  if (n < 1 || n > RANGE_MAX_ELEMENTS)
    return false;
  *r = (Range){INFINITY, -INFINITY};
  for (int64_t i = 0; i < n; ++i) {
    double x = faDenseElementGet(dense, (intptr_t)i);
    if (!isfinite(x))
      return false;
    r->lo = fmin(r->lo, x), r->hi = fmax(r->hi, x);
  }
  return true;
}

/* A generic whose body only converts its one input keeping its value
 * (sitofp, extf, truncf; not uitofp, which reads a negative integer as a huge
 * one), which the expression builder keeps as an opaque leaf. */
static bool isConversionGeneric(MlirOperation g) {
  if (!faOpIsA(g, "linalg.generic") || mlirOperationGetNumOperands(g) != 2)
    return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(g, 0));
  MlirOperation op = mlirBlockGetFirstOperation(body);
  MlirOperation yield = mlirOperationGetNextInBlock(op);
  return (faOpIsA(op, "arith.sitofp") || faOpIsA(op, "arith.extf") ||
          faOpIsA(op, "arith.truncf")) &&
         faOpIsA(yield, "linalg.yield") &&
         mlirValueEqual(mlirOperationGetOperand(op, 0), mlirBlockGetArgument(body, 0));
}

/* Every element of `v`: constants, fills, iotas and elementwise arithmetic on
 * them (through reshapes, which move no value). */
static bool rangeOfTensor(FaAttentionMatch *m, MlirValue v, int depth, Range *r) {
  if (depth > RANGE_MAX_DEPTH)
    return false;
  MlirOperation def = faValueGetDefiningOp(v);
  double splat;
  if (faValueGetSplat(v, &splat) && isfinite(splat)) {
    *r = (Range){splat, splat};
    return true;
  }
  if (faOpIsA(def, "tensor.expand_shape") || faOpIsA(def, "tensor.collapse_shape") ||
      faOpIsA(def, "tosa.reshape"))
    return rangeOfTensor(m, mlirOperationGetOperand(def, 0), depth + 1, r);
  if (faOpIsA(def, "arith.constant") || faOpIsA(def, "tosa.const"))
    return rangeOfConstant(faConstantOpGetElements(def), r);
  if (isConversionGeneric(def))
    return rangeOfTensor(m, mlirOperationGetOperand(def, 0), depth + 1, r);
  FaExpr *e = faExprBuild(&m->exprs, v, NULL);
  if (!e || e->kind == FA_EXPR_LEAF)
    return false;
  return rangeOfExpr(m, e, v, depth + 1, r);
}

static bool rangeOfExpr(FaAttentionMatch *m, const FaExpr *e, MlirValue space, int depth,
                        Range *r) {
  if (!e || depth > RANGE_MAX_DEPTH)
    return false;
  switch (e->kind) {
  case FA_EXPR_CONST: *r = (Range){e->value, e->value}; return isfinite(e->value);
  case FA_EXPR_INDEX: {
    int64_t n = sizeOf(space, e->dim);
    *r = (Range){0, (double)(n - 1)};
    return n > 0;
  }
  case FA_EXPR_LEAF: return rangeOfTensor(m, e->tensor, depth + 1, r);
  default: break;
  }
  /* Operands' ranges: a select's two values (not its condition), else the
   * one or two operands. */
  Range a, b = {0, 0};
  int first = e->kind == FA_EXPR_SELECT ? 1 : 0;
  if (!rangeOfExpr(m, e->ops[first], space, depth + 1, &a) ||
      (e->ops[first + 1] && !rangeOfExpr(m, e->ops[first + 1], space, depth + 1, &b)))
    return false;
  switch (e->kind) {
  case FA_EXPR_CAST: /* an integer conversion keeps only values that fit */
    *r = a;
    return !(mlirTypeIsAInteger(e->type) || mlirTypeIsAIndex(e->type)) ||
           (spanFits(e->type, (Span){a.lo, a.hi, 0}) &&
            (e->mode != FA_CMP_UNSIGNED || a.lo >= 0));
  case FA_EXPR_NEG: *r = (Range){-a.hi, -a.lo}; return true;
  case FA_EXPR_ADD: *r = (Range){a.lo + b.lo, a.hi + b.hi}; return true;
  case FA_EXPR_SUB: *r = (Range){a.lo - b.hi, a.hi - b.lo}; return true;
  case FA_EXPR_MAX: *r = (Range){fmax(a.lo, b.lo), fmax(a.hi, b.hi)}; return true;
  case FA_EXPR_SELECT: *r = (Range){fmin(a.lo, b.lo), fmax(a.hi, b.hi)}; return true;
  case FA_EXPR_MUL: {
    double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
    *r = (Range){fmin(fmin(p[0], p[1]), fmin(p[2], p[3])),
                 fmax(fmax(p[0], p[1]), fmax(p[2], p[3]))};
    return true;
  }
  default: return false;
  }
}

/* The largest |scale * q.k| a score can take: D products of the Q and K
 * types' largest values (f16: 65504), or INFINITY (a dynamic D, f32 or bf16
 * inputs, whose products reach past f32). */
static double scoreBound(const FaAttentionMatch *m) {
  MlirValue in[2] = {m->q.value, m->k.value};
  double bound = fabs(m->scale);
  for (int t = 0; t < 2; ++t)
    if (!mlirTypeIsAF16(mlirShapedTypeGetElementType(mlirValueGetType(in[t]))))
      return INFINITY;
  int64_t d = sizeOf(m->q.value, rankOf(m->q.value) - 1);
  bound *= (double)d * 65504.0 * 65504.0;
  return d > 0 && bound < FLT_MAX ? bound : INFINITY;
}

/* A finite fill stands for -inf only where it is the only mask and
 * dominates every visible score: in the source a masked key weighs
 * exp(masked - max), in the op 0. Where masked < max - (17 + ln N) in every
 * row that keeps a visible key, the masked keys together weigh less than
 * 2^-24 of the row (the source's own f32 rounding); a fully masked row
 * averages V in both (the op's lowest-f32 bias absorbs the scores). The gap
 * is proven from the score bound of the inputs' types, or, for a fill of
 * its select's lowest value, from that type: the fill is below every
 * visible score by the type's step at its lowest value (a visible score
 * equal to the lowest itself is one that overflowed). */
static const char *checkFiniteMask(FaAttentionMatch *m) {
  if (!m->finiteMask)
    return NULL;
  if (m->biasIsMask + (m->causal || m->numMaskTerms) +
          (m->numMaskTerms && m->causal && !m->maskWithCausal) + (m->kvLen != NULL) > 1)
    return "a mask with a finite fill is combined with another mask (rows they "
           "mask together would differ)";
  Range bias = {0, 0};
  if (m->bias && !m->biasIsMask && !rangeOfExpr(m, m->bias, m->scores, 0, &bias)) {
    m->fillInScoreMod = !m->fillAdded && !m->biasAfterFill;
    return m->fillInScoreMod ? NULL : kUnboundedBias;
  }
  /* Masks come after a softcap (matchSoftcap): the scores they see lie in
   * [-c, c] (tanh rounds to at most 1 in any type). */
  double s = m->softcap ? fmin(scoreBound(m), m->softcapOuter) : scoreBound(m);
  double need = 17 + log(indexMax(m, m->scoreRank - 1) + 1);
  double tieGap = m->fillTieGap - (m->biasAfterFill ? bias.hi - bias.lo : 0);
  double masked = m->fillMax + (m->fillAdded ? s : 0) + fmax(bias.hi, 0);
  double boundGap = -s + fmin(bias.lo, 0) - masked;
  if (fmax(tieGap, boundGap) >= need)
    return NULL;
  return kNotDominant;
}

/* A bias added to the scores in f16 or bf16: the source rounds each sum to
 * that type (and near its largest value saturates: every score of a row
 * masked by f16's lowest becomes -65504 and the row averages V) while the
 * op adds in f32. Exact enough only for a bias within a few units (the
 * sum's rounding then about the score's own, which fusion elides), or
 * adding only 0 and -inf. */
static const char *checkHalfBias(FaAttentionMatch *m, MlirType addType) {
  double limit = mlirTypeIsAF16(addType) ? 64 : mlirTypeIsABF16(addType) ? 8 : INFINITY;
  Range r;
  if (isinf(limit) || (m->biasIsMask && isinf(m->maskBias)))
    return NULL;
  if (!m->biasIsMask && rangeOfExpr(m, m->bias, m->scores, 0, &r) && r.lo >= -limit &&
      r.hi <= limit)
    return NULL;
  return kHalfBias;
}

/* Whether `e` (a node of a bias computed inside the scores' generic) is
 * arithmetic fusion can compute again, exactly, at the shape of the one
 * tensor it reads (*src): constants, that tensor (any node that is a whole
 * tensor), add, sub, mul, div, neg, and the exact conversions extf and
 * sitofp. HF's `(1 - mask) * finfo.min`, fused into the scores' generic. */
static bool biasComputable(const FaExpr *e, const FaExpr **src) {
  if (!e)
    return false;
  if (e->tensor.ptr) {
    if (*src && *src != e)
      return false;
    *src = e;
    return true;
  }
  MlirType from = e->ops[0] ? e->ops[0]->type : (MlirType){NULL};
  switch (e->kind) {
  case FA_EXPR_CONST: /* integers as the double the tree holds: exact to 2^53 */
    return mlirTypeIsAFloat(e->type) ||
           (mlirTypeIsAInteger(e->type) && fabs(e->value) <= 9007199254740992.0);
  case FA_EXPR_ADD:
  case FA_EXPR_SUB:
  case FA_EXPR_MUL:
    return (mlirTypeIsAFloat(e->type) || mlirTypeIsAInteger(e->type)) &&
           biasComputable(e->ops[0], src) && biasComputable(e->ops[1], src);
  case FA_EXPR_DIV:
    return mlirTypeIsAFloat(e->type) && biasComputable(e->ops[0], src) &&
           biasComputable(e->ops[1], src);
  case FA_EXPR_NEG: return mlirTypeIsAFloat(e->type) && biasComputable(e->ops[0], src);
  case FA_EXPR_CAST:
    /* extf, or sitofp (signed integer to float); nothing that rounds or wraps
     * by a mode the tree does not keep. */
    return mlirTypeIsAFloat(e->type) && from.ptr &&
           ((mlirTypeIsAFloat(from) && mlirFloatTypeGetWidth(from) < mlirFloatTypeGetWidth(e->type)) ||
            (mlirTypeIsAInteger(from) && e->mode == FA_CMP_SIGNED)) &&
           biasComputable(e->ops[0], src);
  default: return false;
  }
}

/* Constant ops of a tree die with the chain (its computations are the
 * scores' own generic). */
static void addConstantCallback(MlirOperation op, void *m) {
  if (faOpIsA(op, "arith.constant") || faOpIsA(op, "tosa.const") || faOpIsA(op, "linalg.fill"))
    addMaybeDead(m, op);
}

/* A bias computed inside the scores' own generic from one tensor: fusion
 * computes it again at that tensor's shape (biasSource); otherwise the
 * bias is read by addBias. */
static const char *addBiasOrComputed(FaAttentionMatch *m, FaExpr *raw) {
  FaExpr *b = faExprStripCasts(raw);
  const FaExpr *src = NULL;
  if (!b || b->tensor.ptr || b->kind == FA_EXPR_CONST || b->kind == FA_EXPR_SELECT ||
      !biasComputable(raw, &src) || !src)
    return addBias(m, b);
  if (m->bias)
    return "more than one bias is added to the scores";
  m->bias = raw;
  m->biasSource = src;
  faExprForEachOp(raw, src, addConstantCallback, m);
  return NULL;
}

/* The scores leaf `x` is the score space itself: its dims follow score dims
 * in order, and every score dim it lacks has size 1 (leading unit dims
 * dropped, or a single head: [B, M, N] read as [B, 1, M, N]). */
static bool readsScoresInPlace(const FaAttentionMatch *m, const FaExpr *x) {
  int next = 0;
  for (int k = 0; k < x->rank; ++k) {
    /* A unit dim of the leaf that no score dim reads (a reshape's). */
    if (x->dims[k] < 0 && sizeOf(x->tensor, k) == 1)
      continue;
    if (x->dims[k] < next)
      return false;
    for (; next < x->dims[k]; ++next)
      if (sizeOf(m->scores, next) != 1)
        return false;
    ++next;
  }
  for (; next < m->scoreRank; ++next)
    if (sizeOf(m->scores, next) != 1)
      return false;
  return true;
}

/* Significand bits of the constant `e` (stripped of casts) as the source
 * holds it: its own type's. */
static int constPrecision(const FaExpr *e) {
  int p = floatPrecision(e->type);
  return p ? p : 53;
}

/* `outer` * tanh(`inner`): a softcap c * tanh(s / c) (or tanh(s * k) with k
 * the constant 1/c rounded to its type), PyTorch's `tanh(w / cap) * cap`
 * (Gemma-2, Grok). `x` is the multiply; on success `*next` is s. Masks may
 * come after it (causal, KV length: the op applies them as visibility,
 * after score_mod); a bias operand (or a boolean mask, which becomes one)
 * would be added before score_mod by the op: one added after the softcap
 * (Gemma-2's padding mask) is fused only where the kernel can compute it
 * inside score_mod (biasAfterSoftcap, FuseAttention.c). */
static const char *matchSoftcap(FaAttentionMatch *m, FaExpr *x, bool scaled, FaExpr **next) {
  static const char *kNotCap = "a tanh on the scores is not a softcap c * tanh(s / c)";
  if (x->kind != FA_EXPR_MUL)
    return kNotCap;
  FaExpr *a = faExprStripCasts(x->ops[0]), *b = faExprStripCasts(x->ops[1]);
  FaExpr *c = a && a->kind == FA_EXPR_CONST ? a : b && b->kind == FA_EXPR_CONST ? b : NULL;
  FaExpr *tRaw = c == a ? x->ops[1] : x->ops[0];
  if (!c || !castsKeepPrecision(tRaw))
    return kNotCap;
  FaExpr *t = faExprStripCasts(tRaw);
  if (!t || t->kind != FA_EXPR_TANH || !castsKeepPrecision(t->ops[0]))
    return kNotCap;
  double cap = c->value;
  if (!(cap > 0) || !isfinite(cap))
    return "a softcap's constant is not positive and finite";
  FaExpr *in = faExprStripCasts(t->ops[0]);
  if (!in || (in->kind != FA_EXPR_DIV && in->kind != FA_EXPR_MUL))
    return kNotCap;
  FaExpr *i0 = faExprStripCasts(in->ops[0]), *i1 = faExprStripCasts(in->ops[1]);
  int ki = i1 && i1->kind == FA_EXPR_CONST ? 1
           : in->kind == FA_EXPR_MUL && i0 && i0->kind == FA_EXPR_CONST ? 0 : -1;
  if (ki < 0)
    return kNotCap;
  FaExpr *k = ki ? i1 : i0;
  bool mul = in->kind == FA_EXPR_MUL;
  /* The same cap inside and outside: c itself, or 1/c as the constant's
   * type holds it (within half its step of 1/c). */
  if (mul ? !(fabs(k->value * cap - 1.0) <= ldexp(1.0, -constPrecision(k)))
          : k->value != cap)
    return "a softcap's constants inside and outside the tanh differ";
  if ((double)(float)k->value != k->value || (double)(float)cap != cap)
    return "a softcap's constant is not an f32 value (score_mod computes in f32)";
  if (m->softcap)
    return "two softcaps on the scores";
  if (scaled)
    return "the scores are scaled after the softcap (score_mod would be scaled)";
  m->biasAfterSoftcap = m->bias != NULL;
  m->softcap = true;
  m->softcapInnerMul = mul;
  m->softcapInner = k->value;
  m->softcapOuter = cap;
  noteRoundings(m, tRaw);
  noteRoundings(m, t->ops[0]);
  *next = ki ? in->ops[0] : in->ops[1];
  return NULL;
}

/* Is `x` (stripped) c * tanh(..) or tanh(..) * c? */
static bool isTanhProduct(const FaExpr *x) {
  if (!x || x->kind != FA_EXPR_MUL)
    return false;
  for (int i = 0; i < 2; ++i) {
    const FaExpr *t = faExprStripCasts(x->ops[i]);
    if (t && t->kind == FA_EXPR_TANH)
      return true;
  }
  return false;
}

/* Walks from the softmax input down to the Q*K^T result. */
static const char *matchScores(FaAttentionMatch *m, FaExpr *x, FaExpr **qk) {
  bool scaled = false;
  for (;;) {
    if (!castsKeepPrecision(x))
      return "the scores are cast to a type other than f16, bf16, f32 or f64";
    noteRoundings(m, x);
    x = faExprStripCasts(x);
    if (!x)
      return m->exprs.error ? m->exprs.error : "the scores could not be read";
    switch (x->kind) {
    case FA_EXPR_LEAF: {
      bool viewed = false;
      if (!isScoresLeaf(x))
        TRY_MATCH(faBatchViewsRead(m, x, &viewed));
      if (viewed)
        break;
      if (!isScoresLeaf(x))
        return "the softmax input does not come from a Q*K^T matmul";
      if (!readsScoresInPlace(m, x))
        return "the scores are read with a broadcast or permutation";
      *qk = x;
      return NULL;
    }
    case FA_EXPR_MUL:
    case FA_EXPR_DIV: {
      if (isTanhProduct(x)) {
        TRY_MATCH(matchSoftcap(m, x, scaled, &x));
        break;
      }
      FaExpr *c1 = faExprStripCasts(x->ops[1]), *c0 = faExprStripCasts(x->ops[0]);
      int ci = c1 && c1->kind == FA_EXPR_CONST ? 1
               : x->kind == FA_EXPR_MUL && c0 && c0->kind == FA_EXPR_CONST ? 0 : -1;
      if (ci < 0)
        return "the scores are scaled by something that is not a splat constant";
      double c = faExprStripCasts(x->ops[ci])->value;
      if (c == 0.0 || !isfinite(c))
        return "the scores are scaled by zero or a non-finite constant";
      if (c < 0 && (m->causal || m->kvLen))
        return "a negative scale is applied to masked scores";
      m->scale = x->kind == FA_EXPR_MUL ? m->scale * c : m->scale / c;
      scaled = true;
      x = x->ops[1 - ci];
      break;
    }
    case FA_EXPR_ADD: {
      int si = containsScores(x->ops[0]) ? 0 : 1;
      if (containsScores(x->ops[1 - si]))
        return "the scores are added to themselves";
      if (scaled)
        return "the bias is added before the scale (the bias would be scaled)";
      if (m->softcap)
        return "a bias or mask is added before the softcap (the source caps it)";
      FaExpr *before = m->bias;
      int termsBefore = m->numMaskTerms;
      bool first = !before && !termsBefore && !m->causal && !m->kvLen && !m->finiteMask &&
                   !m->clampLowest && !m->numSelectMasks;
      /* Or under only a finite fill that replaces the scores (BLOOM's f16
       * baddbmm under its causal fill): score_mod's select, where
       * checkFiniteMask cannot bound the bias (checked in matchChain). */
      bool underFill = !before && m->finiteMask && !m->fillAdded && !m->kvLen &&
                       !m->clampLowest && m->numSelectMasks <= 1;
      TRY_MATCH(addBiasOrComputed(m, x->ops[1 - si]));
      if (m->bias != before) {
        const char *why = checkHalfBias(m, narrower(x->type, m->roundedTo));
        if (why && !first && !underFill)
          return why;
        /* The first thing done to the scores before the softmax: score_mod
         * adds it as the source does (checked whole in matchChain). */
        if (why) {
          m->halfBiasAdd = narrower(x->type, m->roundedTo);
          m->halfAddInHalf = mlirTypeEqual(m->halfBiasAdd, x->type);
        }
      }
      /* A finite fill of a mask function added in f16/bf16: as a bias there
       * (the sum rounds and saturates). */
      MlirType addType = narrower(x->type, m->roundedTo);
      if (m->numMaskTerms != termsBefore && m->maskFiniteFill &&
          (mlirTypeIsAF16(addType) || mlirTypeIsABF16(addType)))
        return kHalfBias;
      x = x->ops[si];
      break;
    }
    case FA_EXPR_MAX:
    case FA_EXPR_SELECT: {
      bool clamp;
      TRY_MATCH(faAttentionMatchClampLowest(m, x, scaled, &x, &clamp));
      if (clamp)
        break;
      if (m->softcap)
        return "a mask is applied before the softcap (the source caps the masked "
               "scores to -c, the op would drop them)";
      if (scaled && m->scale < 0)
        return "a negative scale is applied to masked scores";
      TRY_MATCH(addSelectMask(m, x, &x));
      break;
    }
    case FA_EXPR_TANH:
      return "a tanh on the scores is not a softcap c * tanh(s / c)";
    default:
      return "the scores pass through an operation the pattern does not "
             "understand";
    }
  }
}

/* --- Q, K, V ----------------------------------------------------------------- */

typedef enum { ROLE_Q, ROLE_K, ROLE_V } Role;

/* The input of a transpose of the last two dims (linalg.transpose,
 * tosa.transpose, or a generic copying through a transposed map). */
static MlirValue peelTranspose(MlirOperation def, MlirValue v) {
  intptr_t rank = rankOf(v);
  int64_t perm[FA_EXPR_MAX_RANK], want[FA_EXPR_MAX_RANK];
  MlirValue none = {NULL};
  if (rank < 2 || rank > FA_EXPR_MAX_RANK)
    return none;
  MlirValue in = faTransposeGetInput(def, perm, rank);
  for (intptr_t i = 0; i < rank; ++i)
    want[i] = i < rank - 2 ? i : (i == rank - 2 ? rank - 1 : rank - 2);
  return in.ptr && faPermutationIs(perm, want, rank) ? in : none;
}

/* x * c, c * x or x / c elementwise: returns x and multiplies *scale. */
/* `e` without its casts, but not through a tosa.tile the builder reads as a
 * broadcast (the tile is the whole tensor a scale multiplies). */
static FaExpr *stripCastsToTile(FaExpr *e) {
  while (e && e->kind == FA_EXPR_CAST && !faOpIsA(e->op, "tosa.tile"))
    e = e->ops[0];
  return e;
}

static MlirValue peelScale(FaAttentionMatch *m, MlirValue v, double *scale) {
  int base = m->exprs.numNodes;
  FaExpr *e = faExprStripCasts(faExprBuild(&m->exprs, v, NULL));
  MlirValue none = {NULL};
  if (!e || (e->kind != FA_EXPR_MUL && e->kind != FA_EXPR_DIV)) {
    m->exprs.numNodes = base;
    m->exprs.error = NULL;
    return none;
  }
  FaExpr *a = stripCastsToTile(e->ops[0]), *b = stripCastsToTile(e->ops[1]);
  FaExpr *leaf = NULL;
  double c = 0;
  /* The scaled operand is any whole tensor (a leaf or an inlined op). */
  if (b && b->kind == FA_EXPR_CONST && a && a->tensor.ptr) {
    leaf = a;
    c = e->kind == FA_EXPR_MUL ? b->value : 1.0 / b->value;
  } else if (e->kind == FA_EXPR_MUL && a && a->kind == FA_EXPR_CONST && b &&
             b->tensor.ptr) {
    leaf = b;
    c = a->value;
  }
  bool identity = leaf && leaf->rank == rankOf(v);
  for (int d = 0; identity && d < leaf->rank; ++d)
    identity = leaf->dims[d] == d;
  if (identity)
    faExprForEachOp(e, leaf, addMaybeDeadCallback, m);
  m->exprs.numNodes = base;
  if (!identity || !isfinite(c) || c == 0.0)
    return none;
  *scale *= c;
  return leaf->tensor;
}

/* A scalar constant of a generic's body: an arith.constant, or one extended
 * or rounded (its value in the result type: f64 -> f32 as torch-mlir writes
 * a scale). The constant op may die with the chain. */
static bool bodyConstant(FaAttentionMatch *m, MlirValue v, double *out) {
  MlirOperation def = faValueGetDefiningOp(v);
  bool cast = faOpIsA(def, "arith.truncf") || faOpIsA(def, "arith.extf");
  MlirValue c = cast ? mlirOperationGetOperand(def, 0) : v;
  if (!faValueGetSplat(c, out) || !faOpIsA(faValueGetDefiningOp(c), "arith.constant"))
    return false;
  if (mlirTypeIsAF32(mlirValueGetType(v)))
    *out = (float)*out;
  else if (!mlirTypeIsAF64(mlirValueGetType(v)))
    return false;
  addMaybeDead(m, faValueGetDefiningOp(c));
  if (cast)
    addMaybeDead(m, def);
  return true;
}

/* The body of a one-input linalg.generic `g` yields its input times or
 * divided by constants (none where `scale` is null), of the same element
 * type: those multiply *scale (read as it is: the tree builder would inline
 * the input's own producer). */
static bool bodyScalesInput(FaAttentionMatch *m, MlirOperation g, double *scale) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(g, 0));
  MlirValue arg = mlirBlockGetArgument(body, 0);
  MlirValue x = mlirOperationGetOperand(mlirBlockGetTerminator(body), 0);
  double c = 1.0, k;
  for (int steps = 0; steps < 4 && !mlirValueEqual(x, arg); ++steps) {
    MlirOperation op = faValueGetDefiningOp(x);
    bool mul = faOpIsA(op, "arith.mulf");
    if (!scale || (!mul && !faOpIsA(op, "arith.divf")) ||
        !mlirBlockEqual(mlirOperationGetBlock(op), body))
      return false;
    MlirValue a = mlirOperationGetOperand(op, 0), b = mlirOperationGetOperand(op, 1);
    if (bodyConstant(m, b, &k)) {
      c = mul ? c * k : c / k;
      x = a;
    } else if (mul && bodyConstant(m, a, &k)) {
      c *= k;
      x = b;
    } else {
      return false;
    }
  }
  if (!mlirValueEqual(x, arg) || !isfinite(c) || c == 0.0 ||
      !mlirTypeEqual(mlirValueGetType(arg), mlirShapedTypeGetElementType(
                                                  mlirValueGetType(mlirOperationGetResult(g, 0)))))
    return false;
  if (scale)
    *scale *= c;
  addMaybeDead(m, g);
  return true;
}

/* Whether linalg.generic `g` has one input read through `in` (dims of its
 * 5-D identity output space) and one result. */
static bool genericReads5(MlirOperation g, const int *in) {
  if (!faOpIsA(g, "linalg.generic") || mlirOperationGetNumOperands(g) != 2)
    return false;
  MlirAttribute maps = mlirLinalgGetIndexingMapsAttribute(g);
  MlirAffineMap im = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 0));
  MlirAffineMap om = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 1));
  int n = in[4] < 0 ? 4 : 5;
  if (mlirOperationGetNumResults(g) != 1 || mlirAffineMapGetNumResults(im) != n ||
      !mlirAffineMapIsIdentity(om) || mlirAffineMapGetNumDims(om) != 5)
    return false;
  for (int i = 0; i < n; ++i)
    if (dimPos(im, i) != in[i])
      return false;
  return true;
}

static const int kRepeatFrom[5] = {0, 1, 3, 4, -1}; /* (b, h, g, n, d) -> (b, h, n, d) */
static const int kSame5[5] = {0, 1, 2, 3, 4};

/* The [B, Hkv, N, D] input of linalg.generic `g` that repeats it G times as
 * [B, Hkv, G, N, D], yielding it or (K) it scaled by constants: PyTorch's
 * math SDPA scales K by sqrt(scale) after repeat_interleave, and elementwise
 * fusion puts that scale into the repeat. */
static MlirValue repeatGenericSource(FaAttentionMatch *m, MlirOperation g, double *scale) {
  return genericReads5(g, kRepeatFrom) && bodyScalesInput(m, g, scale)
             ? mlirOperationGetOperand(g, 0)
             : (MlirValue){NULL};
}

/* K's scale of the repeated [B, Hkv, G, N, D] tensor: a tensor op or
 * generic scaling its input by constants (peelScale), or a generic doing so
 * over the output of another generic (which the tree builder would inline). */
static MlirValue peelRepeatedScale(FaAttentionMatch *m, MlirValue y, double *scale) {
  MlirValue x = peelScale(m, y, scale);
  if (x.ptr)
    return x;
  MlirOperation g = faValueGetDefiningOp(y);
  return genericReads5(g, kSame5) && bodyScalesInput(m, g, scale) ? mlirOperationGetOperand(g, 0)
                                                                  : (MlirValue){NULL};
}

/* A GQA broadcast: [B, Hkv*G, N, D] (or [B*Hkv*G, N, D]) made from
 * [B, Hkv, N, D]. For K (`scale` non-null), constant scales of the repeated
 * tensor are looked through into *scale. */
static MlirValue peelGroupBroadcast(FaAttentionMatch *m, MlirOperation def, MlirValue v,
                                    int64_t *groups, double *scale) {
  static const int kMergeAll5[5] = {0, 0, 0, 1, 2};
  MlirValue none = {NULL};
  if (mlirOperationIsNull(def) || rankOf(v) < 3 || mlirOperationGetNumOperands(def) < 1)
    return none;
  MlirValue y = mlirOperationGetOperand(def, 0);
  if (!mlirTypeIsARankedTensor(mlirValueGetType(y)) || rankOf(y) != 5 ||
      !isRegroup(def, y, v, rankOf(v) == 4 ? kMergeHeads5 : kMergeAll5) ||
      sizeOf(y, 2) < 1)
    return none;
  int64_t g = sizeOf(y, 2);
  /* K * sqrt(scale) after the repeat, on the [B, Hkv, G, N, D] tensor. */
  for (MlirValue x; scale && (x = peelRepeatedScale(m, y, scale)).ptr;)
    y = x;
  MlirOperation b = faValueGetDefiningOp(y);
  MlirValue src = none;
  if (faOpIsA(b, "linalg.broadcast")) {
    MlirAttribute dims = faOpGetAttr(b, "dimensions");
    if (mlirDenseArrayGetNumElements(dims) == 1 &&
        mlirDenseI64ArrayGetElement(dims, 0) == 2)
      src = mlirOperationGetOperand(b, 0);
  } else if (faOpIsA(b, "tosa.tile")) {
    /* [B, Hkv, 1, N, D] tiled G times along dim 2, from a reshape. */
    MlirValue t = mlirOperationGetOperand(b, 0);
    MlirOperation r = faValueGetDefiningOp(t);
    static const int kInsertUnit[5] = {0, 1, 1, 2, 3};
    if (sizeOf(t, 2) == 1 && !mlirOperationIsNull(r) && mlirOperationGetNumOperands(r) >= 1 &&
        rankOf(mlirOperationGetOperand(r, 0)) == 4 &&
        isRegroup(r, t, mlirOperationGetOperand(r, 0), kInsertUnit))
      src = mlirOperationGetOperand(r, 0);
  } else if (faOpIsA(b, "linalg.generic") && mlirOperationGetNumOperands(b) == 2) {
    src = repeatGenericSource(m, b, scale);
  }
  if (!src.ptr)
    return none;
  *groups *= g;
  return src;
}

/* Looks through the layout ops of an attention input. */
static FaAttentionInput peelInput(FaAttentionMatch *m, MlirValue v, Role role,
                                  bool *transposed) {
  FaAttentionInput in = {v, 1, {NULL}, {NULL}};
  for (int steps = 0; steps < 16; ++steps) {
    MlirOperation def = faValueGetDefiningOp(in.value), reshape;
    MlirValue next = peelBatchMerge(in.value, &reshape);
    if (!next.ptr && role == ROLE_K && (next = peelTranspose(def, in.value)).ptr)
      *transposed = !*transposed;
    if (!next.ptr && role != ROLE_V)
      next = peelScale(m, in.value, &m->scale);
    if (!next.ptr && role != ROLE_Q)
      next = peelGroupBroadcast(m, def, in.value, &in.groups,
                                role == ROLE_K ? &m->scale : NULL);
    if (!next.ptr) /* f16 / bf16 inputs extended to f32: exact */
      next = peelCast(in.value, true, &reshape);
    if (!next.ptr)
      break;
    addMaybeDead(m, def);
    in.value = next;
  }
  return in;
}

/* The element type the op reads an input in. */
static MlirType inputElementType(const FaAttentionInput *in) {
  return mlirShapedTypeGetElementType(mlirValueGetType(in->narrow.ptr ? in->narrow : in->value));
}

/* The f16/bf16 [B, S, H, D] tensor that `in`'s value extends to f32 and
 * then transposes to [B, H, S, D] (for K read transposed: to [B, H, D, S]),
 * as exports of f16 models in SDPA's math form write V: the op reads it
 * with *_bshd, exactly (the extension is exact). */
static bool narrowThroughTranspose(FaAttentionMatch *m, FaAttentionInput *in, bool kt,
                                   MlirType narrow) {
  static const int64_t kSwap[4] = {0, 2, 1, 3}, kToKt[4] = {0, 2, 3, 1};
  int64_t perm[4];
  MlirOperation transpose = faValueGetDefiningOp(in->value), cast;
  MlirValue wide = rankOf(in->value) == 4 ? faTransposeGetInput(transpose, perm, 4)
                                          : (MlirValue){NULL};
  if (!wide.ptr || !faPermutationIs(perm, kt ? kToKt : kSwap, 4))
    return false;
  MlirValue src = peelCast(wide, true, &cast);
  if (!src.ptr || !mlirTypeEqual(mlirShapedTypeGetElementType(mlirValueGetType(src)), narrow))
    return false;
  in->narrow = src;
  in->transpose = transpose;
  addMaybeDead(m, transpose);
  addMaybeDead(m, cast);
  return true;
}

/* Where Q, K and V differ in element type, each that is wider than the
 * narrowest is read from the half tensor it was extended from before a
 * [B, S, H, D] transpose, if it was (otherwise they still differ). */
static void narrowInputs(FaAttentionMatch *m) {
  FaAttentionInput *in[3] = {&m->q, &m->k, &m->v};
  MlirType t[3], narrow = {NULL};
  for (int i = 0; i < 3; ++i) {
    t[i] = inputElementType(in[i]);
    if ((mlirTypeIsAF16(t[i]) || mlirTypeIsABF16(t[i])) && !narrow.ptr)
      narrow = t[i];
  }
  if (!narrow.ptr || (mlirTypeEqual(t[0], t[1]) && mlirTypeEqual(t[0], t[2])))
    return;
  for (int i = 0; i < 3; ++i)
    if (mlirTypeIsAF32(t[i]))
      narrowThroughTranspose(m, in[i], i == 1 && m->kTransposed, narrow);
}

static bool isAttentionFloat(MlirType t) {
  return mlirTypeIsAF32(t) || mlirTypeIsAF16(t) || mlirTypeIsABF16(t);
}

static const char *matchInputs(FaAttentionMatch *m, const Contraction *qk,
                               const Contraction *pv) {
  if (qk->lhsT)
    return "Q is transposed in Q*K^T";
  if (pv->rhsT)
    return "V is transposed in P*V";
  m->kTransposed = !qk->rhsT;
  m->q = peelInput(m, qk->lhs, ROLE_Q, NULL);
  m->k = peelInput(m, qk->rhs, ROLE_K, &m->kTransposed);
  m->v = peelInput(m, pv->rhs, ROLE_V, NULL);
  if (m->k.groups != m->v.groups)
    return "K and V are broadcast over different head groups";
  narrowInputs(m);
  MlirType et = inputElementType(&m->q);
  if (!isAttentionFloat(et))
    return "the element type of Q is not f32, f16 or bf16";
  if (!mlirTypeEqual(et, inputElementType(&m->k)) || !mlirTypeEqual(et, inputElementType(&m->v)))
    return "Q, K and V have different element types";
  if (!isAttentionFloat(mlirShapedTypeGetElementType(
          mlirValueGetType(mlirOperationGetResult(m->pv, 0)))))
    return "the result element type is not f32, f16 or bf16";
  /* Every lowering tiles D and Dv statically: fuse only what lowers. */
  MlirType qt = mlirValueGetType(m->q.value), vt = mlirValueGetType(m->v.value);
  if (mlirShapedTypeIsDynamicDim(qt, mlirShapedTypeGetRank(qt) - 1) ||
      mlirShapedTypeIsDynamicDim(vt, mlirShapedTypeGetRank(vt) - 1))
    return "the head dim (D or Dv) is dynamic; no lowering of the op takes it";
  return NULL;
}

/* --- uses ------------------------------------------------------------------- */

/* Whether `op` is a chain op or inside one's region (the tensor.extract of
 * an identity copy reads the probabilities from its body). */
static bool inChain(const FaAttentionMatch *m, MlirOperation op) {
  for (; !mlirOperationIsNull(op); op = mlirOperationGetParentOperation(op))
    for (int i = 0; i < m->numChain; ++i)
      if (mlirOperationEqual(m->chain[i], op))
        return true;
  return false;
}

static const char *const kOtherUser = "the scores or probabilities have another user";

/* Is chain op i computed from the scores (Q*K^T)? Masks built from iotas and
 * KV lengths are in the chain too, but others may share them. `memo[i]`: 0
 * unknown, 1 yes, 2 no, 3 being visited. */
static bool fromScores(const FaAttentionMatch *m, int i, uint8_t *memo) {
  if (memo[i] == 1 || memo[i] == 2 || memo[i] == 3)
    return memo[i] == 1;
  memo[i] = 3;
  bool yes = mlirOperationEqual(m->chain[i], m->qk);
  for (intptr_t o = 0, e = mlirOperationGetNumOperands(m->chain[i]); !yes && o < e; ++o) {
    MlirOperation def = faValueGetDefiningOp(mlirOperationGetOperand(m->chain[i], o));
    for (int j = 0; !yes && j < m->numChain; ++j)
      yes = mlirOperationEqual(m->chain[j], def) && fromScores(m, j, memo);
  }
  memo[i] = yes ? 1 : 2;
  return yes;
}

/* Every result of every chain op is used only inside the chain (the log-sum-
 * exp root, if any, is replaced by the op's lse). */
static const char *checkUses(const FaAttentionMatch *m) {
  if (m->numChain == FA_MATCH_MAX_OPS)
    return "the chain is too large to analyze";
  uint8_t memo[FA_MATCH_MAX_OPS] = {0};
  for (int i = 0; i < m->numChain; ++i) {
    MlirOperation op = m->chain[i];
    if (mlirOperationEqual(op, m->pv) || mlirOperationEqual(op, m->lseRoot) ||
        !fromScores(m, i, memo))
      continue;
    for (intptr_t r = 0, e = mlirOperationGetNumResults(op); r < e; ++r)
      for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, r));
           !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
        if (!inChain(m, mlirOpOperandGetOwner(u)))
          return kOtherUser;
  }
  return NULL;
}

/* --- log-sum-exp beside the attention ---------------------------------------- */

enum { LSE_MAX_OPS = 24 };

static bool inList(const MlirOperation *list, int n, MlirOperation op) {
  for (int i = 0; i < n; ++i)
    if (mlirOperationEqual(list[i], op))
      return true;
  return false;
}

/* Appends the users of `op`'s results that are in neither the chain nor
 * `out` and compute something (a return or a store is where values leave);
 * false if `out` would exceed LSE_MAX_OPS. */
static bool addOutsideUsers(const FaAttentionMatch *m, MlirOperation op,
                            MlirOperation *out, int *n) {
  for (intptr_t r = 0, e = mlirOperationGetNumResults(op); r < e; ++r)
    for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, r));
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      if (inChain(m, user) || inList(out, *n, user) || !mlirOperationGetNumResults(user))
        continue;
      if (*n == LSE_MAX_OPS)
        return false;
      out[(*n)++] = user;
    }
  return true;
}

/* The ops outside the chain computed from its values (transitively), or -1
 * if there are too many to be a log-sum-exp. */
static int collectOutside(const FaAttentionMatch *m, MlirOperation *out) {
  int n = 0;
  uint8_t memo[FA_MATCH_MAX_OPS] = {0};
  for (int i = 0; i < m->numChain; ++i)
    if (!mlirOperationEqual(m->chain[i], m->pv) && fromScores(m, i, memo) &&
        !addOutsideUsers(m, m->chain[i], out, &n))
      return -1;
  for (int i = 0; i < n; ++i)
    if (!addOutsideUsers(m, out[i], out, &n))
      return -1;
  return n;
}

/* The one op of `ops` whose (single) result is used beyond `ops` and the
 * chain; null if there is none or more than one. */
static MlirOperation outsideRoot(const FaAttentionMatch *m, const MlirOperation *ops, int n) {
  MlirOperation root = {NULL};
  for (int i = 0; i < n; ++i)
    for (intptr_t r = 0, e = mlirOperationGetNumResults(ops[i]); r < e; ++r)
      for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(ops[i], r));
           !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
        MlirOperation user = mlirOpOperandGetOwner(u);
        if (inChain(m, user) || inList(ops, n, user))
          continue;
        if ((root.ptr && !mlirOperationEqual(root, ops[i])) || e != 1)
          return (MlirOperation){NULL};
        root = ops[i];
      }
  return root;
}

/* `v` under reshapes that only add or drop unit dims (they join the chain). */
static MlirValue peelUnitReshapes(FaAttentionMatch *m, MlirValue v) {
  for (;;) {
    MlirOperation def = faValueGetDefiningOp(v);
    if (!faOpIsUnitReshape(def, v))
      return v;
    addChain(m, def);
    v = mlirOperationGetOperand(def, 0);
  }
}

/* The row max that `g` is: the max itself, or PyTorch's logsumexp guard
 * select(|max| == inf, 0, max) (a fully masked row then gives log(0) = -inf,
 * as the op's lse does). */
static FaExpr *guardedMax(const FaExpr *g, int rank) {
  if (faExprIsRowLeaf(g, rank))
    return (FaExpr *)g;
  if (g->kind != FA_EXPR_SELECT || !faExprIsConst(faExprStripCasts(g->ops[1]), 0.0))
    return NULL;
  FaExpr *mx = faExprStripCasts(g->ops[2]), *c = faExprStripCasts(g->ops[0]);
  if (!faExprIsRowLeaf(mx, rank) || !c || c->kind != FA_EXPR_CMP || c->pred != FA_CMP_EQ ||
      c->mode != FA_CMP_ORDERED)
    return NULL;
  for (int i = 0; i < 2; ++i) {
    FaExpr *abs = faExprStripCasts(c->ops[i]), *inf = faExprStripCasts(c->ops[1 - i]);
    if (abs && abs->kind == FA_EXPR_ABS && faExprEqual(faExprStripCasts(abs->ops[0]), mx) &&
        inf && inf->kind == FA_EXPR_CONST && isinf(inf->value) && inf->value > 0)
      return mx;
  }
  return NULL;
}

/* lse = log(sum_j exp(x - g)) + g over the softmax input x, g its (guarded)
 * row max: the log-sum-exp the op returns as its second result. */
/* Can a row of the scores have every key masked (-inf or a fill)? Not under
 * a causal offset >= 0 alone, nor a bias fusion bounds. */
static bool rowsMayBeFullyMasked(FaAttentionMatch *m) {
  Range r;
  /* A bias fusion bounds masks rows too where it reaches below the op's bias
   * domain (-FLT_MAX / log2(e)): an additive select(cond, 0, finfo.min)
   * hides the rows where cond is false for every key (fuzz finding
   * test/Fuzz/Inputs/findings-lse-index-bias-domain.mlir). */
  return m->kvLen || (m->causal && m->causalOffset < 0) ||
         (m->numMaskTerms && maskKeepsEveryRow(m) != 1) ||
         (m->bias && (m->biasIsMask || !rangeOfExpr(m, m->bias, m->scores, 0, &r) ||
                      r.lo < -FLT_MAX / M_LOG2E));
}

/* Every value of bias `e` is -inf or at least `limit`: a select of two such
 * constants (an additive mask), or a range fusion bounds. */
static bool biasWithin(FaAttentionMatch *m, const FaExpr *e, double limit) {
  e = faExprStripCasts(e);
  Range r;
  if (e && e->kind == FA_EXPR_SELECT) {
    bool ok = true;
    for (int i = 1; i < 3; ++i) {
      const FaExpr *c = faExprStripCasts(e->ops[i]);
      ok &= c && c->kind == FA_EXPR_CONST && (c->value == -INFINITY || c->value >= limit);
    }
    if (ok)
      return true;
  }
  MlirAttribute dense = e && e->tensor.ptr
                            ? faConstantOpGetElements(faValueGetDefiningOp(e->tensor))
                            : (MlirAttribute){NULL};
  if (!mlirAttributeIsNull(dense) && mlirAttributeIsAElements(dense)) {
    for (int64_t i = 0, n = mlirElementsAttrGetNumElements(dense); i < n; ++i) {
      double x = faDenseElementGet(dense, (intptr_t)i);
      if (!(x == -INFINITY || x >= limit))
        return false;
    }
    return true;
  }
  return rangeOfExpr(m, e, m->scores, 0, &r) && r.lo >= limit;
}

/* The op's lse of a row with no visible key is -inf. The source's is that
 * only with PyTorch's guard (`guarded`): unguarded, log(sum(exp(x - max))) +
 * max is NaN there (-inf - -inf); with a finite fill it is fill + log(N).
 * Either refuses unless no row can be fully masked. */
static const char *checkLseMaskedRows(FaAttentionMatch *m, bool guarded) {
  if (!rowsMayBeFullyMasked(m))
    return NULL;
  if (m->finiteMask)
    return "the log-sum-exp beside the attention is fill + log(N) on rows a finite fill "
           "masks entirely in the source; the op's is not";
  if (!guarded)
    return "the log-sum-exp beside the attention is unguarded: NaN on fully masked rows "
           "in the source, -inf in the op (torch.logsumexp's guard of the max fuses)";
  /* The op's bias domain ends at -FLT_MAX / log2(e) (docs/dialect.md): the lse
   * of a row whose every key carries a bias below it would be the clamp's. */
  double limit = -FLT_MAX / M_LOG2E;
  if (m->bias && (m->biasIsMask ? m->maskBias < limit && !isinf(m->maskBias)
                                : !biasWithin(m, m->bias, limit)))
    return "the log-sum-exp beside the attention would see a bias below -2.36e38 on rows "
           "it masks entirely (the op's bias domain clamps there)";
  return NULL;
}

static const char *matchLseTree(FaAttentionMatch *m, const FaExpr *x, FaExpr *t) {
  const char *why = kOtherUser;
  for (int i = 0; t && t->kind == FA_EXPR_ADD && i < 2; ++i) {
    FaExpr *lg = faExprStripCasts(t->ops[i]), *g = faExprStripCasts(t->ops[1 - i]);
    FaExpr *row = lg && lg->kind == FA_EXPR_LOG ? faExprStripCasts(lg->ops[0]) : NULL;
    if (!row || row->kind != FA_EXPR_LEAF || !g)
      continue;
    FaExpr *e = faExprStripCasts(reducedInput(m, row, FA_EXPR_ADD, &why));
    FaExpr *s = e && e->kind == FA_EXPR_EXP ? faExprStripCasts(e->ops[0]) : NULL;
    if (!s || s->kind != FA_EXPR_SUB)
      return "the log-sum-exp beside the attention does not sum exp(scores - max)";
    if (!faExprEqual(faExprStripCasts(s->ops[0]), faExprStripCasts(x)))
      return "the log-sum-exp beside the attention is not over the softmax's scores";
    FaExpr *gs = faExprStripCasts(s->ops[1]);
    FaExpr *mx = gs ? guardedMax(gs, m->scoreRank) : NULL;
    FaExpr *maxIn = mx ? faExprStripCasts(reducedInput(m, mx, FA_EXPR_MAX, &why)) : NULL;
    if (!maxIn || !faExprEqual(maxIn, faExprStripCasts(x)))
      return "the log-sum-exp beside the attention does not shift by the scores' row max";
    /* g is the same computation, or the same tensor as gs (up to reshapes
     * of unit dims: the row vector, read per row in both spaces). */
    bool same = faExprEqual(g, gs) ||
                (g->tensor.ptr && gs->tensor.ptr &&
                 mlirValueEqual(peelUnitReshapes(m, g->tensor), peelUnitReshapes(m, gs->tensor)));
    if (!same)
      return "the log-sum-exp beside the attention adds back another value than it shifted by";
    TRY_MATCH(checkLseMaskedRows(m, mx != gs));
    faExprForEachOp(t, NULL, addChainCallback, m);
    faExprForEachOp(e, NULL, addChainCallback, m);
    faExprForEachOp(gs, NULL, addChainCallback, m);
    return NULL;
  }
  return why;
}

/* Is `v` defined before `op` (so the fused op may move before `op`)? */
static bool definedBefore(MlirValue v, MlirOperation op) {
  if (!v.ptr || !mlirValueIsAOpResult(v))
    return true;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!mlirBlockEqual(mlirOperationGetBlock(def), mlirOperationGetBlock(op)))
    return true;
  for (MlirOperation o = def; !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
    if (mlirOperationEqual(o, op))
      return true;
  return false;
}

/* Users of the chain outside it are allowed only as one log-sum-exp of the
 * scores, [.., M] in f32: it becomes the op's lse result (m->lseRoot). */
static const char *matchLse(FaAttentionMatch *m, const FaExpr *x) {
  MlirOperation out[LSE_MAX_OPS];
  int n = collectOutside(m, out);
  if (n <= 0)
    return n < 0 ? kOtherUser : NULL;
  MlirOperation root = outsideRoot(m, out, n);
  if (!root.ptr)
    return kOtherUser;
  MlirValue lse = mlirOperationGetResult(root, 0);
  if (rankOf(lse) != m->scoreRank - 1 || m->scoreRank < 3 ||
      !mlirTypeIsAF32(mlirShapedTypeGetElementType(mlirValueGetType(lse))))
    return kOtherUser;
  TRY_MATCH(matchLseTree(m, x, faExprStripCasts(faExprBuild(&m->exprs, lse, NULL))));
  /* The fused op replaces both; it goes before the first, so every operand
   * must be there already. */
  if (!mlirBlockEqual(mlirOperationGetBlock(root), mlirOperationGetBlock(m->pv)) ||
      !definedBefore(m->q.value, root) || !definedBefore(m->k.value, root) ||
      !definedBefore(m->v.value, root) ||
      (m->bias && !definedBefore((m->biasSource ? m->biasSource : m->bias)->tensor, root)) ||
      (m->kvLen && !definedBefore(m->kvLen->tensor, root)))
    return "the log-sum-exp beside the attention is computed before V, the bias "
           "or the KV length exists";
  m->lseRoot = root;
  return NULL;
}

/* --- layout ------------------------------------------------------------------ */

static bool sizesMatch(int64_t a, int64_t b) { return a < 0 || b < 0 || a == b; }

/* Can a leading dim of size `n` be [b, h]? */
static bool splits(int64_t n, int64_t b, int64_t h) {
  if (b == 1)
    return sizesMatch(n, h);
  return b > 0 && h > 0 && n == b * h;
}

static bool fitsHeads(MlirValue v, int64_t b, int64_t h) {
  switch (rankOf(v)) {
  case 4: return sizesMatch(sizeOf(v, 0), b) && sizesMatch(sizeOf(v, 1), h);
  case 3: return splits(sizeOf(v, 0), b, h);
  default: return b == 1 && h == 1;
  }
}

/* Whether `r`, made by `cast` from `in`, rounds f32 to Q's type (f16 or
 * bf16) to nearest: arith.truncf without a rounding mode (alone or as a
 * generic's body) or tosa.cast. */
static bool roundsToQ(const FaAttentionMatch *m, MlirOperation cast, MlirValue in, MlirValue r) {
  MlirType to = mlirShapedTypeGetElementType(mlirValueGetType(r));
  if (!mlirTypeIsAF32(mlirShapedTypeGetElementType(mlirValueGetType(in))) ||
      !(mlirTypeIsAF16(to) || mlirTypeIsABF16(to)) ||
      !mlirTypeEqual(to, inputElementType(&m->q)))
    return false;
  MlirOperation op = cast;
  if (faOpIsA(cast, "linalg.generic"))
    op = mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(cast, 0)));
  return faOpIsA(op, "tosa.cast") ||
         (faOpIsA(op, "arith.truncf") && mlirAttributeIsNull(faOpGetAttr(op, "roundingmode")));
}

/* The op the fused result replaces: P*V, or past it (each the only user of
 * the last, in its block) a split of its batch into [B, H] and a rounding of
 * O from f32 to Q's f16 / bf16, in either order. The op then writes O in the
 * rounded type: it computes O in f32 and rounds it once, as the source does.
 * The ops passed die with the chain. */
static void planRoot(FaAttentionMatch *m) {
  bool split = false, rounded = false;
  for (MlirOperation user; (user = faValueGetSoleUser(mlirOperationGetResult(m->root, 0))).ptr;) {
    MlirValue r = mlirOperationGetResult(user, 0), out = mlirOperationGetResult(m->root, 0), in;
    MlirOperation def;
    if (!split && (in = peelBatchSplit(r, &def)).ptr && mlirValueEqual(in, out)) {
      split = true;
    } else if (!rounded && (in = peelCast(r, false, &def)).ptr && mlirValueEqual(in, out) &&
               roundsToQ(m, def, in, r)) {
      rounded = true;
    } else {
      break;
    }
    if (!mlirOperationEqual(m->root, m->pv))
      addMaybeDead(m, m->root);
    m->root = user;
  }
}

/* Picks [B, Hq] and Hkv, and the op the fused result replaces. */
static const char *planLayout(FaAttentionMatch *m) {
  MlirValue out = mlirOperationGetResult(m->pv, 0), reshape4;
  planRoot(m);
  reshape4 = mlirOperationGetResult(m->root, 0);
  MlirValue hints[3] = {m->q.value, reshape4, m->scores};
  m->b = 1;
  m->h = rankOf(out) == 3 ? sizeOf(out, 0) : 1;
  for (int i = 0; i < 3; ++i)
    if (rankOf(hints[i]) == 4) {
      m->b = sizeOf(hints[i], 0);
      m->h = sizeOf(hints[i], 1);
      break;
    }
  for (int i = 0; i < 3; ++i)
    if (!fitsHeads(hints[i], m->b, m->h))
      return "the batch and head dims of Q, the scores and the result disagree";
  m->hkv = m->h;
  if (m->k.groups > 1) {
    if (m->h < 0 || m->h % m->k.groups)
      return "the GQA group size does not divide the query heads";
    m->hkv = m->h / m->k.groups;
  }
  if (!fitsHeads(m->k.value, m->b, m->hkv) || !fitsHeads(m->v.value, m->b, m->hkv))
    return "the batch and head dims of K or V do not match Q's";
  return NULL;
}

const char *faAttentionBiasPlan(const FaAttentionMatch *m, int *group,
                                int64_t *shape, bool *direct) {
  const FaExpr *e = m->biasSource ? m->biasSource : m->bias;
  int rank = m->scoreRank;
  *direct = e->rank == 4 && rank == 4;
  for (int k = 0; *direct && k < 4; ++k)
    *direct = e->dims[k] == k || (e->dims[k] == -1 && sizeOf(e->tensor, k) == 1);
  if (*direct)
    return NULL;
  /* Score dim -> first and last 4-D dim it stands for. */
  static const int kLo[3][4] = {{2, 3}, {0, 2, 3}, {0, 1, 2, 3}};
  static const int kHi[3][4] = {{2, 3}, {1, 2, 3}, {0, 1, 2, 3}};
  int lo[FA_EXPR_MAX_RANK], hi[FA_EXPR_MAX_RANK];
  if (e->rank == 0 || rank < 2 || rank > 4)
    return "the bias has an unsupported rank";
  for (int k = 0, prev = -1; k < e->rank; ++k) {
    /* A broadcast unit dim of an equal-rank (TOSA) bias stays in place. */
    int d = e->dims[k] >= 0 ? e->dims[k]
            : (e->rank == rank && sizeOf(e->tensor, k) == 1) ? k : -1;
    if (d <= prev)
      return "the bias is broadcast or permuted in a way the op cannot express";
    prev = d;
    lo[k] = kLo[rank - 2][d];
    hi[k] = kHi[rank - 2][d];
  }
  for (int d = 0, k = 0; d < 4; ++d) {
    while (k < e->rank - 1 && d > hi[k])
      ++k;
    group[d] = k;
    bool covered = d >= lo[k] && d <= hi[k];
    int64_t size = sizeOf(e->tensor, k);
    if (!covered)
      shape[d] = 1;
    else if (lo[k] == hi[k])
      shape[d] = size;
    else if (size == 1)
      shape[d] = 1;
    else if (m->b > 0 && m->h > 0 && size == m->b * m->h)
      shape[d] = d == lo[k] ? m->b : m->h;
    else
      return "the bias has a merged batch*heads dim that cannot be split";
  }
  return NULL;
}

/* --- for the spellings in files of their own ------------------------------- */

void faAttentionAddChain(FaAttentionMatch *m, MlirOperation op) { addChain(m, op); }

intptr_t faAttentionRankOf(MlirValue v) { return rankOf(v); }

int64_t faAttentionSizeOf(MlirValue v, intptr_t d) { return sizeOf(v, d); }

void faAttentionAddMaybeDead(FaAttentionMatch *m, MlirOperation op) { addMaybeDead(m, op); }

bool faAttentionLooksLikeSoftmax(FaAttentionMatch *m, MlirValue v) {
  faExprBuilderInit(&m->exprs);
  return looksLikeSoftmax(faExprBuild(&m->exprs, v, NULL));
}

FaExpr *faAttentionReducedInput(FaAttentionMatch *m, const FaExpr *row,
                                FaExprKind kind, const char **why) {
  return reducedInput(m, row, kind, why);
}

MlirValue faAttentionPeelRegroup(MlirValue v, const int *groups, bool merge,
                                 MlirOperation *reshape) {
  MlirOperation def = faValueGetDefiningOp(v);
  *reshape = def;
  if (mlirOperationIsNull(def) || mlirOperationGetNumOperands(def) < 1 ||
      rankOf(v) != (merge ? 3 : 4))
    return (MlirValue){NULL};
  MlirValue src = mlirOperationGetOperand(def, 0);
  if (!mlirTypeIsARankedTensor(mlirValueGetType(src)) || rankOf(src) != (merge ? 4 : 3) ||
      !isRegroup(def, merge ? src : v, merge ? v : src, groups))
    return (MlirValue){NULL};
  return src;
}

bool faAttentionTermIsCausal(const FaAttentionMatch *m, int t, int64_t *offset) {
  int64_t k = m->maskTerms[t].k;
  switch ((FaCmp)m->maskTerms[t].pred) {
  case FA_CMP_LE: *offset = k; break;
  case FA_CMP_LT: *offset = k - 1; break;
  case FA_CMP_GE: *offset = -k; break;
  case FA_CMP_GT: *offset = -k - 1; break;
  default: return false;
  }
  return termIsCausal(m, t, *offset);
}

/* --- entry ------------------------------------------------------------------- */

/* A reshape to [BH, M, N] of a 4-D softmax-like tensor that
 * peelBatchMerge did not accept (sizes not provably [B, H] merged). */
static bool isUnprovenBatchMerge(FaAttentionMatch *m, MlirValue v) {
  MlirOperation def = faValueGetDefiningOp(v);
  if (mlirOperationIsNull(def) || rankOf(v) != 3 ||
      !(faOpIsA(def, "tensor.reshape") || faOpIsA(def, "tensor.collapse_shape") ||
        faOpIsA(def, "tosa.reshape")))
    return false;
  MlirValue src = mlirOperationGetOperand(def, 0);
  if (rankOf(src) != 4)
    return false;
  faExprBuilderInit(&m->exprs);
  return looksLikeSoftmax(faExprBuild(&m->exprs, src, NULL));
}

static const char *matchChain(MlirOperation op, FaAttentionMatch *m,
                              bool *isCandidate, bool addedFillsAsBias) {
  *isCandidate = false;
  memset(m, 0, offsetof(FaAttentionMatch, exprs));
  m->addedFillsAsBias = addedFillsAsBias;
  m->scale = 1.0;
  m->pv = m->root = op;
  Contraction pv, qk;
  if (!faOpIsContractionCandidate(op))
    return "not a P*V contraction";
  const char *why = matchContraction(op, &pv, true);
  if (why) {
    /* Worth explaining if the left operand is a softmax. */
    MlirValue lhs = mlirOperationGetOperand(op, 0);
    faExprBuilderInit(&m->exprs);
    *isCandidate = (!faOpIsA(op, "linalg.generic") || mlirLinalgIsAContractionOp(op)) &&
                   looksLikeSoftmax(faExprBuild(&m->exprs, lhs, NULL));
    return why;
  }
  MlirOperation reshape;
  MlirValue p = pv.lhs, p4 = peelBatchMerge(pv.lhs, &reshape);
  if (p4.ptr) {
    addChain(m, reshape);
    p = p4;
  } else if ((p4 = faBatchViewsPeelFold(m, pv.lhs)).ptr) {
    p = p4;
  } else if (isUnprovenBatchMerge(m, pv.lhs)) {
    *isCandidate = true;
    return "P reaches P*V through a reshape that is not provably a [B, H] batch merge";
  }
  MlirOperation extract;
  MlirValue copied = copySource(p, &extract);
  if (copied.ptr && copyIsIdentity(p, extract, copied)) {
    addChain(m, faValueGetDefiningOp(p));
    p = copied;
  } else if (copied.ptr) {
    faExprBuilderInit(&m->exprs);
    *isCandidate = looksLikeSoftmax(faExprBuild(&m->exprs, copied, NULL));
    return "P reaches P*V through a copy that may broadcast it (its sizes are not "
           "provably the softmax's)";
  }
  TRY_MATCH(faBatchViewsPeelTranspose(m, &p, isCandidate));
  TRY_MATCH(faSinksPeelSlice(m, &p, isCandidate));
  m->scoreRank = (int)rankOf(p);
  m->scores = p;
  faExprBuilderInit(&m->exprs);
  FaExpr *x = NULL, *scores = NULL;
  TRY_MATCH(matchSoftmax(m, p, &x, isCandidate));
  TRY_MATCH(faSinksMatch(m, &x));
  TRY_MATCH(faBatchViewsFoldScores(m, &x));
  if (pv.lhsT)
    return "P is transposed in P*V";
  TRY_MATCH(matchScores(m, x, &scores));
  TRY_MATCH(faAttentionCheckPostSoftmaxZero(m));
  faExprForEachOp(x, m->bias, addChainCallback, m);
  MlirOperation qkOp = faValueGetDefiningOp(peelScoreLayout(scores->tensor, m));
  m->qk = qkOp;
  TRY_MATCH(matchContraction(qkOp, &qk, false));
  addChain(m, qkOp);
  addChain(m, op);
  TRY_MATCH(matchInputs(m, &qk, &pv));
  TRY_MATCH(checkFiniteMask(m));
  addMaybeDead(m, faValueGetDefiningOp(mlirOperationGetOperand(qkOp, 2)));
  addMaybeDead(m, faValueGetDefiningOp(mlirOperationGetOperand(op, 2)));
  TRY_MATCH(matchLse(m, x));
  TRY_MATCH(faAttentionCheckClampLowest(m));
  if (m->lseRoot.ptr && (m->sinks.ptr || m->scoresViewed))
    return "a log-sum-exp beside sinks or scores read through a batch view is not fused";
  /* score_mod's select is the scores' whole mask (FuseAttention.c): nothing
   * else may read the mask or come between it and the softmax. */
  if (m->fillInScoreMod && (m->softcap || m->clampLowest || m->sinks.ptr || m->zeroKeys ||
                            m->zeroRowsAll || m->numSelectMasks > 1))
    return kUnboundedBias;
  /* A half add in score_mod is the scores' only modification but the scale,
   * a softcap before it and a finite fill's select after it (sinks join the
   * softmax after it). */
  bool maskedInScoreMod = m->fillInScoreMod; /* the fill's select, in score_mod too */
  if (m->halfBiasAdd.ptr &&
      ((m->softcap && !m->biasAfterSoftcap) || m->clampLowest || m->zeroKeys || m->zeroRowsAll ||
       m->kvLen || m->lseRoot.ptr ||
       (!maskedInScoreMod && (m->numSelectMasks || m->causal || m->numMaskTerms || m->finiteMask))))
    return kHalfBias;
  TRY_MATCH(checkUses(m));
  TRY_MATCH(planLayout(m));
  faBatchViewsFoldHeads(m);
  if (m->bias) {
    int group[4];
    int64_t shape[4];
    bool direct;
    TRY_MATCH(faAttentionBiasPlan(m, group, shape, &direct));
  }
  return NULL;
}

/* An added finite fill that cannot stand for -inf (its dominance unproven),
 * or that is added in f16/bf16 (it rounds and overflows there), is what the
 * source adds: the additive tensor becomes the bias (exact; in f16/bf16
 * score_mod adds it in that type). */
const char *faAttentionMatch(MlirOperation op, FaAttentionMatch *m,
                             bool *isCandidate) {
  const char *why = matchChain(op, m, isCandidate, false);
  if ((why == kNotDominant && m->fillAdded) || why == kHalfBias)
    why = matchChain(op, m, isCandidate, true);
  return why;
}
