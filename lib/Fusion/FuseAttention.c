/* fa-fuse-attention: finds gemm-softmax-gemm chains and rewrites each into one
 * fa.gridwise_attention.
 *
 * Structure: faAttentionMatch (AttentionMatch.c) is a pure matcher that
 * either describes a chain or returns the reason it refused. The pass walks
 * the IR once to collect the candidates (every contraction), reports refusals
 * of those whose left operand is a softmax when asked to explain, and rewrites
 * each match with an IRRewriter. (Not the greedy driver: through the C API it
 * runs on a whole region and also folds and erases unrelated dead ops, and
 * the rest of the module must stay as it was.) */
#include "Fusion/AttentionMatch.h"
#include "Fusion/IndexBias.h"
#include "Support/Builders.h"
#include "Support/IRText.h"
#include "Support/PassSupport.h"
#include "Registry/Passes.h"
#include "Fusion/Transpose.h"

#include "fa-c/Dialect.h"

#include "Support/Location.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <float.h>
#include <string.h>

/* --- rewrite --------------------------------------------------------------- */

/* Producers that may die with a chain (besides the chain itself). */
static const char *const kDeadOps[] = {
    "tensor.empty",          "linalg.fill",         "arith.constant",
    "tosa.const",            "tosa.const_shape",    "tensor.collapse_shape", "tensor.expand_shape",
    "tosa.reshape",          "linalg.transpose",    "tosa.transpose",        "tensor.dim",
    "linalg.broadcast",      "tosa.tile",           NULL};

static MlirType withShape(MlirType like, intptr_t rank, const int64_t *shape) {
  return mlirRankedTensorTypeGet(rank, shape, mlirShapedTypeGetElementType(like),
                                 mlirAttributeGetNull());
}

static int64_t sizeOf(MlirValue v, intptr_t d) {
  MlirType t = mlirValueGetType(v);
  return mlirShapedTypeIsDynamicDim(t, d) ? mlirShapedTypeGetDynamicSize()
                                          : mlirShapedTypeGetDimSize(t, d);
}

static int64_t orDynamic(int64_t n) { return n < 0 ? mlirShapedTypeGetDynamicSize() : n; }

/* How a rank-2 or rank-3 [.., X, Y] maps onto [B, H, X, Y]: the low dim of
 * each of the four dims. */
static const int kToRank4[2][4] = {{0, 0, 0, 1}, {0, 0, 1, 2}};

/* Heads folded into the rows: [B, M*H, X] <-> [B, M, H, X]. */
static const int kFoldRows[4] = {0, 1, 1, 2};

/* [B, M*H, D] as its [B, M, H, D] view (m->foldToHeads). */
static MlirValue expandFoldedRows(MlirRewriterBase rw, MlirLocation loc, MlirValue v,
                                  int64_t h) {
  int64_t shape[4] = {sizeOf(v, 0), sizeOf(v, 1) / h, h, sizeOf(v, 2)};
  return faBuildExpandShape(rw, loc, v, withShape(mlirValueGetType(v), 4, shape), kFoldRows);
}

/* [.., X, Y] of rank 2 or 3 as [b, h, X, Y]; rank 4 as it is. */
static MlirValue expandTo4(MlirRewriterBase rw, MlirLocation loc, MlirValue v,
                           int64_t b, int64_t h) {
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(v));
  if (rank == 4)
    return v;
  int64_t shape[4] = {orDynamic(b), orDynamic(h), sizeOf(v, rank - 2),
                      sizeOf(v, rank - 1)};
  return faBuildExpandShape(rw, loc, v, withShape(mlirValueGetType(v), 4, shape),
                            kToRank4[rank - 2]);
}

/* `v` collapsed by `group` to `like`'s rank (each dim the product of its
 * group, dynamic if one of them is), then cast to `like` where a static dim
 * of one is dynamic in the other. */
static MlirValue collapseTo(MlirRewriterBase rw, MlirLocation loc, MlirValue v,
                            MlirType like, const int *group) {
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(v));
  intptr_t lowRank = mlirShapedTypeGetRank(like);
  int64_t shape[4] = {1, 1, 1, 1};
  for (intptr_t d = 0; d < rank; ++d) {
    int64_t s = sizeOf(v, d), *g = &shape[group[d]];
    bool dynamic = mlirShapedTypeIsDynamicSize(s) || mlirShapedTypeIsDynamicSize(*g);
    *g = dynamic ? mlirShapedTypeGetDynamicSize() : *g * s;
  }
  MlirValue low = faBuildCollapseShape(rw, loc, v, withShape(like, lowRank, shape), group);
  return faBuildCastTo(rw, loc, low, like);
}

/* A boolean mask as an additive f32 bias: select(mask, maskBias, 0) (or the
 * other way round); maskBias is -inf or a finite fill. */
static MlirValue buildMaskBias(MlirRewriterBase rw, MlirLocation loc,
                               const FaAttentionMatch *m, MlirValue mask) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType f32 = mlirF32TypeGet(ctx);
  MlirType type = mlirRankedTensorTypeGet(
      4, (int64_t[4]){sizeOf(mask, 0), sizeOf(mask, 1), sizeOf(mask, 2), sizeOf(mask, 3)},
      f32, mlirAttributeGetNull());
  MlirValue zero = faBuildSplat(rw, loc, mlirFloatAttrDoubleGet(ctx, f32, 0.0), type, mask);
  MlirValue fill = faBuildSplat(rw, loc, mlirFloatAttrDoubleGet(ctx, f32, m->maskBias), type, mask);
  return m->maskedValue ? faBuildSelect(rw, loc, mask, fill, zero)
                        : faBuildSelect(rw, loc, mask, zero, fill);
}

/* A bias the source computes inside the scores' own generic from one tensor
 * (`src`), computed again at that tensor's shape: the same arithmetic in the
 * same types, as tensor ops (the matcher took only what this emits). */
static MlirValue buildComputedBias(MlirRewriterBase rw, MlirLocation loc, const FaExpr *e,
                                   const FaExpr *src) {
  if (e == src)
    return src->tensor;
  MlirType like = mlirValueGetType(src->tensor);
  intptr_t rank = mlirShapedTypeGetRank(like);
  int64_t shape[FA_EXPR_MAX_RANK];
  for (intptr_t d = 0; d < rank; ++d)
    shape[d] = mlirShapedTypeGetDimSize(like, d);
  MlirType t = mlirRankedTensorTypeGet(rank, shape, e->type, mlirAttributeGetNull());
  bool isFloat = mlirTypeIsAFloat(e->type);
  if (e->kind == FA_EXPR_CONST)
    return faBuildSplat(rw, loc,
                        isFloat ? mlirFloatAttrDoubleGet(mlirLocationGetContext(loc), e->type, e->value)
                                : mlirIntegerAttrGet(e->type, (int64_t)e->value),
                        t, src->tensor);
  MlirValue ops[2] = {buildComputedBias(rw, loc, e->ops[0], src), {NULL}};
  if (e->kind == FA_EXPR_CAST)
    return faBuildElementwise(rw, loc, mlirTypeIsAFloat(e->ops[0]->type) ? "arith.extf"
                                                                         : "arith.sitofp",
                              1, ops, t);
  if (e->kind == FA_EXPR_NEG)
    return faBuildElementwise(rw, loc, "arith.negf", 1, ops, t);
  ops[1] = buildComputedBias(rw, loc, e->ops[1], src);
  const char *name = e->kind == FA_EXPR_ADD   ? (isFloat ? "arith.addf" : "arith.addi")
                     : e->kind == FA_EXPR_SUB ? (isFloat ? "arith.subf" : "arith.subi")
                     : e->kind == FA_EXPR_MUL ? (isFloat ? "arith.mulf" : "arith.muli")
                                              : "arith.divf";
  return faBuildElementwise(rw, loc, name, 2, ops, t);
}

/* max(bias, lowest f32) for scores the source clamps there (ClampLowest.c),
 * NaN as the source's clamp treats it. */
static MlirValue buildClampedBias(MlirRewriterBase rw, MlirLocation loc,
                                  const FaAttentionMatch *m, MlirValue bias) {
  MlirType type = mlirValueGetType(bias);
  MlirAttribute lowest = mlirFloatAttrDoubleGet(mlirLocationGetContext(loc),
                                                mlirShapedTypeGetElementType(type), -FLT_MAX);
  MlirValue ops[2] = {bias, faBuildSplat(rw, loc, lowest, type, bias)};
  return faBuildElementwise(rw, loc, m->clampNumeric ? "arith.maxnumf" : "arith.maximumf", 2,
                            ops, type);
}

static MlirValue buildBias(MlirRewriterBase rw, MlirLocation loc,
                           const FaAttentionMatch *m) {
  int group[4];
  int64_t shape[4];
  bool direct;
  MlirValue t = m->biasSource ? buildComputedBias(rw, loc, m->bias, m->biasSource)
                              : m->bias->tensor;
  if (m->clampLowest)
    t = buildClampedBias(rw, loc, m, t);
  if (!faAttentionBiasPlan(m, group, shape, &direct) && !direct) {
    for (int d = 0; d < 4; ++d)
      shape[d] = orDynamic(shape[d]);
    t = faBuildExpandShape(rw, loc, t, withShape(mlirValueGetType(t), 4, shape), group);
  }
  return m->biasIsMask ? buildMaskBias(rw, loc, m, t) : t;
}

/* The KV-length leaf as [B], or [B, Hq] when it varies with the head (unit
 * dims dropped; a missing batch dim of size 1 added), plus the match's
 * adjustment. The matcher saw its non-unit dims follow batch, then head. */
static MlirValue buildKvLen(MlirRewriterBase rw, MlirLocation loc,
                            const FaAttentionMatch *m) {
  MlirValue t = m->kvLen->tensor;
  MlirType type = mlirValueGetType(t);
  intptr_t rank = mlirShapedTypeGetRank(type);
  int outRank = m->kvLenPerHead ? 2 : 1;
  int group[FA_EXPR_MAX_RANK] = {0};
  int64_t shape[2] = {1, 1};
  bool hasBatch = false;
  for (intptr_t d = 0, g = 0; d < rank; ++d) {
    if (sizeOf(t, d) != 1) {
      g = m->kvLenPerHead ? m->kvLen->dims[d] : 0;
      shape[g] = orDynamic(sizeOf(t, d));
      hasBatch |= g == 0;
    }
    group[d] = (int)g;
  }
  if (m->kvLenPerHead && !hasBatch) { /* [.., H, ..] with B = 1: [H], then [1, H] */
    int low[FA_EXPR_MAX_RANK] = {0}, high[2] = {0, 0};
    if (rank != 1)
      t = faBuildCollapseShape(rw, loc, t, withShape(type, 1, &shape[1]), low);
    t = faBuildExpandShape(rw, loc, t, withShape(type, 2, shape), high);
  } else if (rank != outRank) {
    t = faBuildCollapseShape(rw, loc, t, withShape(type, outRank, shape), group);
  }
  return m->kvLenAdjust ? faBuildAddIntConstant(rw, loc, t, m->kvLenAdjust) : t;
}

/* --- layouts with heads after the sequence ----------------------------------- */

/* Models that split heads as view(B, S, H, D) put transposes between those
 * tensors and attention; the op reads and writes [B, S, H, D] in place
 * instead (its *_bshd attributes), so the transposes, copies once lowered,
 * die with the chain. */
static const int64_t kSwapSeqHeads[4] = {0, 2, 1, 3}; /* [B,H,S,D] <-> [B,S,H,D] */
static const int64_t kBshdToKt[4] = {0, 2, 3, 1};     /* K^T [B,H,D,N] of [B,N,H,D] */

/* The transposes the fused op reads and writes through (null where none). */
typedef struct {
  MlirOperation inputs[3]; /* made Q, K, V from [B, S, H, D] tensors */
  MlirOperation output;    /* the only user of O, making [B, M, H, Dv] of it */
} FoldedLayouts;

/* The tensor that `v` transposes by `want`, and in `*transpose` the op. */
static MlirValue transposedFrom(MlirValue v, const int64_t *want, MlirOperation *transpose) {
  int64_t perm[4];
  MlirOperation def = faValueGetDefiningOp(v);
  MlirValue in = faTransposeGetInput(def, perm, 4);
  if (!in.ptr || !faPermutationIs(perm, want, 4))
    return (MlirValue){NULL};
  *transpose = def;
  return in;
}

/* Q, K and V read from the [B, S, H, D] tensors their transposes read (for
 * an input the matcher narrowed, the half tensor before its extension). */
static void foldInputLayouts(const FaAttentionMatch *m, FaAttentionOperands *operands,
                             FaAttentionAttrs *attrs, FoldedLayouts *folded) {
  MlirValue *values[3] = {&operands->q, &operands->k, &operands->v};
  const FaAttentionInput *inputs[3] = {&m->q, &m->k, &m->v};
  for (int t = FA_ATTENTION_Q; t <= FA_ATTENTION_V; ++t) {
    bool kt = t == FA_ATTENTION_K && attrs->kTransposed;
    MlirValue in = inputs[t]->narrow;
    if (in.ptr)
      folded->inputs[t] = inputs[t]->transpose;
    else
      in = transposedFrom(*values[t], kt ? kBshdToKt : kSwapSeqHeads, &folded->inputs[t]);
    if (!in.ptr)
      continue;
    *values[t] = in;
    attrs->bshd[t] = true;
    attrs->kTransposed &= !kt;
  }
}

/* The transpose to [B, M, H, Dv] that is the only user of `out` (the root's
 * result), in the root's block, or null. */
static MlirOperation transposingUser(MlirValue out) {
  MlirOperation user = faValueGetSoleUser(out), transpose;
  MlirValue in = user.ptr ? transposedFrom(mlirOperationGetResult(user, 0), kSwapSeqHeads,
                                           &transpose)
                          : (MlirValue){NULL};
  return in.ptr && mlirValueEqual(in, out) ? user : (MlirOperation){NULL};
}

/* Size of dim `d` of tensor `t` (q or v) in the layout `attrs` gives it. */
static int64_t layoutSize(MlirValue v, const FaAttentionAttrs *attrs, FaAttentionTensor t,
                          FaAttentionDim d) {
  return sizeOf(v, faAttentionLayoutGetAxis(attrs->bshd[t], false, d));
}

/* O's type: [B, Hq, M, Dv] (or [B, M, Hq, Dv] with o_bshd) of the root's
 * element type, the sizes from Q and V. */
static MlirType fusedOutType(const FaAttentionOperands *operands, const FaAttentionAttrs *attrs,
                             MlirType root) {
  int64_t heads = layoutSize(operands->q, attrs, FA_ATTENTION_Q, FA_DIM_HEADS);
  int64_t seq = layoutSize(operands->q, attrs, FA_ATTENTION_Q, FA_DIM_SEQ);
  bool oBshd = attrs->bshd[FA_ATTENTION_O];
  int64_t shape[4] = {sizeOf(operands->q, 0), oBshd ? seq : heads, oBshd ? heads : seq,
                      layoutSize(operands->v, attrs, FA_ATTENTION_V, FA_DIM_HEAD)};
  return withShape(root, 4, shape);
}

/* The fused op and the ops that feed and reshape it, built (not inserted)
 * into `block`; returns the value that replaces the root, and in `lse` the
 * one that replaces the log-sum-exp root (if the match has one). */
static MlirValue buildFused(MlirRewriterBase rw, MlirBlock block,
                            const FaAttentionMatch *m, MlirValue *lse,
                            FoldedLayouts *folded, MlirOperation *attnOut) {
  MlirLocation loc = mlirOperationGetLocation(m->pv);
  mlirRewriterBaseSetInsertionPointToEnd(rw, block);
  FaAttentionOperands operands = {
      .q = m->foldToHeads ? expandFoldedRows(rw, loc, m->q.value, m->h)
                          : expandTo4(rw, loc, m->q.value, m->b, m->h),
      .k = expandTo4(rw, loc, m->k.value, m->b, m->hkv),
      .v = expandTo4(rw, loc, m->v.value, m->b, m->hkv),
      .bias = m->bias ? buildBias(rw, loc, m) : (MlirValue){NULL},
      .kvLen = m->kvLen ? buildKvLen(rw, loc, m) : (MlirValue){NULL},
      .sinks = m->sinks};
  MlirValue rootOut = mlirOperationGetResult(m->root, 0);
  FaAttentionAttrs attrs = {.scale = (float)m->scale,
                            .causal = m->causal && !m->fillInScoreMod,
                            .causalOffset = m->causalOffset,
                            .withLse = m->lseRoot.ptr != NULL,
                            .kTransposed = m->kTransposed};
  *folded = (FoldedLayouts){{{NULL}, {NULL}, {NULL}}, {NULL}};
  foldInputLayouts(m, &operands, &attrs, folded);
  if (mlirShapedTypeGetRank(mlirValueGetType(rootOut)) == 4)
    folded->output = transposingUser(rootOut);
  attrs.bshd[FA_ATTENTION_Q] |= m->foldToHeads;
  attrs.bshd[FA_ATTENTION_O] = folded->output.ptr != NULL || m->foldToHeads;
  MlirType out4 = fusedOutType(&operands, &attrs, mlirValueGetType(rootOut));
  MlirOperation attn = faGridwiseAttentionOpCreate(loc, operands, attrs, out4);
  mlirRewriterBaseInsert(rw, attn);
  *attnOut = attn;
  MlirValue result = mlirOperationGetResult(attn, 0);
  if (m->lseRoot.ptr) { /* [B, Hq, M], or [B*Hq, M] for scores of rank 3 */
    static const int kMergeHeads[3] = {0, 0, 1};
    MlirValue lseOut = mlirOperationGetResult(m->lseRoot, 0);
    *lse = mlirOperationGetResult(attn, 1);
    /* The op's dims come from Q and V: a static dim of the source's results
     * may be dynamic in the op's (and the reverse): collapse, then cast. */
    MlirType lseType = mlirValueGetType(lseOut);
    *lse = mlirShapedTypeGetRank(lseType) == 2 ? collapseTo(rw, loc, *lse, lseType, kMergeHeads)
                                               : faBuildCastTo(rw, loc, *lse, lseType);
  }
  if (folded->output.ptr) /* it replaces O's transpose */
    return faBuildCastTo(rw, loc, result,
                         mlirValueGetType(mlirOperationGetResult(folded->output, 0)));
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(rootOut));
  if (rank < 4)
    return collapseTo(rw, loc, result, mlirValueGetType(rootOut),
                      m->foldToHeads ? kFoldRows : kToRank4[rank - 2]);
  return faBuildCastTo(rw, loc, result, mlirValueGetType(rootOut));
}

/* --- score_mod and mask functions ------------------------------------------- */

/* The nearest symbol table above `op` (where the op looks its functions
 * up), or a null operation. */
static MlirOperation symbolTableAbove(MlirOperation op) {
  for (MlirOperation p = mlirOperationGetParentOperation(op); !mlirOperationIsNull(p);
       p = mlirOperationGetParentOperation(p)) {
    MlirSymbolTable table = mlirSymbolTableCreate(p);
    if (!mlirSymbolTableIsNull(table)) {
      mlirSymbolTableDestroy(table);
      return p;
    }
  }
  return (MlirOperation){NULL};
}

/* The match's softcap c * tanh(s / k) (or tanh(s * k)). */
static FaIndexBiasSoftcap softcapOf(const FaAttentionMatch *m) {
  return (FaIndexBiasSoftcap){m->softcapInnerMul, m->softcapInner, m->softcapOuter};
}

/* The functions a match needs (its softcap as score_mod), created as
 * func.func private in the symbol table above the root, with their names in
 * `attrs`; false (nothing created) where there is no such table or the text
 * does not parse. */
typedef struct {
  char scoreMod[64], mask[64];
  MlirOperation table;
} FusedFunctions;

/* Appends the ops computing the match's mask formula (true: visible) from
 * %i and %j in index arithmetic; `result` gets its value's name. */
static void appendMaskFormula(const FaAttentionMatch *m, FaText *t, char result[16]) {
  static const char *const kPred[6] = {"eq", "ne", "slt", "sle", "sgt", "sge"};
  /* Terms whose node is still a compare (the causal one became true). */
  bool live[FA_MASK_MAX_TERMS] = {false};
  for (int n = 0; n < m->numMaskNodes; ++n)
    if (m->maskNodes[n].kind == FA_MASK_TERM)
      live[m->maskNodes[n].a] = true;
  for (int k = 0; k < m->numMaskTerms; ++k) {
    if (!live[k])
      continue;
    faTextAppend(t, "  %%ci%d = arith.constant %lld : index\n", k, (long long)m->maskTerms[k].ci);
    faTextAppend(t, "  %%cj%d = arith.constant %lld : index\n", k, (long long)m->maskTerms[k].cj);
    faTextAppend(t, "  %%k%d = arith.constant %lld : index\n", k, (long long)m->maskTerms[k].k);
    faTextAppend(t, "  %%xi%d = arith.muli %%ci%d, %%i : index\n", k, k);
    faTextAppend(t, "  %%xj%d = arith.muli %%cj%d, %%j : index\n", k, k);
    faTextAppend(t, "  %%e%d = arith.addi %%xi%d, %%xj%d : index\n", k, k, k);
    /* Quotients floor((x + o) / d): divui where x + o >= 0 (indices are). */
    char e[16];
    snprintf(e, sizeof e, "e%d", k);
    for (int side = 0; side < 2; ++side) {
      int64_t q = side ? m->maskTerms[k].qj : m->maskTerms[k].qi;
      int64_t d = side ? m->maskTerms[k].dj : m->maskTerms[k].di;
      int64_t o = side ? m->maskTerms[k].oj : m->maskTerms[k].oi;
      const char *x = side ? "j" : "i";
      if (!q)
        continue;
      faTextAppend(t, "  %%d%s%d = arith.constant %lld : index\n", x, k, (long long)d);
      faTextAppend(t, "  %%q%s%d = arith.constant %lld : index\n", x, k, (long long)q);
      if (o) {
        faTextAppend(t, "  %%o%s%d = arith.constant %lld : index\n", x, k, (long long)o);
        faTextAppend(t, "  %%p%s%d = arith.addi %%%s, %%o%s%d : index\n", x, k, x, x, k);
      }
      char p[16];
      snprintf(p, sizeof p, o ? "p%s%d" : "%s", x, k);
      faTextAppend(t, "  %%f%s%d = arith.%s %%%s, %%d%s%d : index\n", x, k,
                   o >= 0 ? "divui" : "floordivsi", p, x, k);
      faTextAppend(t, "  %%g%s%d = arith.muli %%q%s%d, %%f%s%d : index\n", x, k, x, k, x, k);
      faTextAppend(t, "  %%e%d%s = arith.addi %%%s, %%g%s%d : index\n", k, x, e, x, k);
      snprintf(e, sizeof e, "e%d%s", k, x);
    }
    faTextAppend(t, "  %%t%d = arith.cmpi %s, %%%s, %%k%d : index\n", k,
                 kPred[m->maskTerms[k].pred], e, k);
  }
  /* The formula's nodes in order (children come first); a term's node is
   * its compare; `true and x` is x. */
  bool haveTrue = false;
  char names[2 * FA_MASK_MAX_TERMS + 2][16];
  for (int n = 0; n < m->numMaskNodes; ++n) {
    int a = m->maskNodes[n].a, b = m->maskNodes[n].b, kind = m->maskNodes[n].kind;
    snprintf(names[n], sizeof names[n], "n%d", n);
    if (kind == FA_MASK_TERM) {
      snprintf(names[n], sizeof names[n], "t%d", a);
      continue;
    }
    if (kind == FA_MASK_AND && (!strcmp(names[a], "true") || !strcmp(names[b], "true"))) {
      memcpy(names[n], !strcmp(names[a], "true") ? names[b] : names[a], sizeof names[n]);
      continue;
    }
    if (!haveTrue && (kind != FA_MASK_AND && kind != FA_MASK_OR)) {
      faTextAppend(t, "  %%true = arith.constant true\n");
      haveTrue = true;
    }
    if (kind == FA_MASK_TRUE)
      snprintf(names[n], sizeof names[n], "true");
    else if (kind == FA_MASK_NOT)
      faTextAppend(t, "  %%n%d = arith.xori %%%s, %%true : i1\n", n, names[a]);
    else {
      if (!haveTrue && (!strcmp(names[a], "true") || !strcmp(names[b], "true"))) {
        faTextAppend(t, "  %%true = arith.constant true\n");
        haveTrue = true;
      }
      faTextAppend(t, "  %%n%d = arith.%s %%%s, %%%s : i1\n", n,
                   kind == FA_MASK_AND ? "andi" : "ori", names[a], names[b]);
    }
  }
  memcpy(result, names[m->numMaskNodes - 1], 16);
}

/* The mask function: the conjunction of the match's index compares (or its
 * negation), in index arithmetic. */
static bool buildMaskFunction(const FaAttentionMatch *m, FusedFunctions *fns) {
  faModuleUniqueSymbol(fns->table, "fa_mask", fns->mask, sizeof fns->mask);
  FaText t;
  faTextInit(&t);
  faTextAppend(&t, "func.func private @%s(%%b: index, %%h: index, %%i: index, %%j: index) "
                   "-> i1 {\n", fns->mask);
  char visible[16];
  appendMaskFormula(m, &t, visible);
  faTextAppend(&t, "  func.return %%%s : i1\n}\n", visible);
  bool ok = mlirLogicalResultIsSuccess(faModuleAppendParsed(fns->table, &t));
  faTextDestroy(&t);
  if (!ok)
    fns->mask[0] = 0;
  return ok;
}

/* Appends the ops computing whether key j is visible to query i: the
 * match's causal condition `j <= i + offset` and its mask formula, either or
 * both (a finite fill in score_mod); `result` gets the value's name. */
static void appendVisible(const FaAttentionMatch *m, FaText *t, char result[16]) {
  char formula[16] = "";
  if (m->numMaskTerms)
    appendMaskFormula(m, t, formula);
  snprintf(result, 16, "%s", formula);
  if (!m->causal)
    return;
  const char *limit = "i";
  if (m->causalOffset) {
    faTextAppend(t,
                 "  %%coffset = arith.constant %lld : index\n"
                 "  %%climit = arith.addi %%i, %%coffset : index\n",
                 (long long)m->causalOffset);
    limit = "climit";
  }
  faTextAppend(t, "  %%causal = arith.cmpi sle, %%j, %%%s : index\n", limit);
  snprintf(result, 16, "causal");
  if (formula[0]) {
    faTextAppend(t, "  %%visible = arith.andi %%causal, %%%s : i1\n", formula);
    snprintf(result, 16, "visible");
  }
}

static void eraseFunctions(FusedFunctions *fns);

static bool buildFunctions(const FaAttentionMatch *m, FusedFunctions *fns) {
  fns->scoreMod[0] = fns->mask[0] = 0;
  fns->table = symbolTableAbove(m->root);
  if (!m->softcap && !m->numMaskTerms)
    return true;
  if (mlirOperationIsNull(fns->table))
    return false;
  /* A finite fill in score_mod: the mask is computed there (IndexBias.c). */
  if (m->numMaskTerms && !m->fillInScoreMod && !buildMaskFunction(m, fns))
    return false;
  /* A bias after the softcap: score_mod is built with it (IndexBias.c). */
  if (!m->softcap || m->biasAfterSoftcap)
    return true;
  faModuleUniqueSymbol(fns->table, "fa_softcap", fns->scoreMod, sizeof fns->scoreMod);
  FaText t;
  faTextInit(&t);
  faTextAppend(&t, "func.func private @%s(%%s: f32, %%b: index, %%h: index, %%i: index, "
                    "%%j: index) -> f32 {\n", fns->scoreMod);
  FaIndexBiasSoftcap cap = softcapOf(m);
  faIndexBiasAppendSoftcap(&t, &cap, "s", "r");
  faTextAppend(&t, "  func.return %%r : f32\n}\n");
  bool ok = mlirLogicalResultIsSuccess(faModuleAppendParsed(fns->table, &t));
  faTextDestroy(&t);
  if (!ok) {
    fns->scoreMod[0] = 0;
    eraseFunctions(fns);
  }
  return ok;
}

/* Erases the functions buildFunctions created (the fusion failed). */
static void eraseFunctions(FusedFunctions *fns) {
  char *names[2] = {fns->scoreMod, fns->mask};
  for (int n = 0; n < 2; ++n) {
    if (!names[n][0])
      continue;
    MlirSymbolTable table = mlirSymbolTableCreate(fns->table);
    MlirOperation fn =
        mlirSymbolTableLookup(table, mlirStringRefCreateFromCString(names[n]));
    mlirSymbolTableDestroy(table);
    if (!mlirOperationIsNull(fn))
      mlirOperationDestroy(fn);
    names[n][0] = 0;
  }
}

/* Keeps the first error diagnostic reported while verifying. */
static MlirLogicalResult captureFirst(MlirDiagnostic d, void *userData) {
  FaText *first = userData;
  if (!first->size)
    mlirDiagnosticPrint(d, faTextAppendStringRef, first);
  return mlirLogicalResultSuccess();
}

/* Runs the upstream verifiers and ours on each op of `block`; the first
 * error goes to `why` instead of the diagnostic engine's other handlers. */
static bool verifyBlock(MlirContext ctx, MlirBlock block, FaText *why) {
  MlirDiagnosticHandlerID id =
      mlirContextAttachDiagnosticHandler(ctx, captureFirst, why, NULL);
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       ok && !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    ok = mlirOperationVerify(op) && mlirLogicalResultIsSuccess(faOperationVerify(op));
  mlirContextDetachDiagnosticHandler(ctx, id);
  return ok;
}

/* Adds `op` to `all` once, unless it is null, a root (erased by the
 * replacement) or inside another op's body (it dies with that op; only ops
 * beside the root are erased one by one). */
static void addErasable(MlirOperation *all, size_t *n, MlirOperation parent,
                        const FaAttentionMatch *m, MlirOperation op) {
  if (mlirOperationIsNull(op) || mlirOperationEqual(op, m->root) ||
      mlirOperationEqual(op, m->lseRoot) ||
      !mlirOperationEqual(mlirOperationGetParentOperation(op), parent))
    return;
  for (size_t j = 0; j < *n; ++j)
    if (mlirOperationEqual(all[j], op))
      return;
  all[(*n)++] = op;
}

/* Whether `op` is one the match looked through (its chain, the layout ops
 * around it) or a kind that may die with it (kDeadOps). */
static bool mayDieWith(const FaAttentionMatch *m, MlirOperation op) {
  for (int i = 0; i < m->numChain + m->numMaybeDead; ++i)
    if (mlirOperationEqual(op, i < m->numChain ? m->chain[i] : m->maybeDead[i - m->numChain]))
      return true;
  return faOpIsAnyOf(op, kDeadOps);
}

/* The producer of an operand of an op the rewrite replaces, if it may die
 * with the chain. (Not any producer: a destination operand may be a value
 * of other IR, another chain's P*V say, that only lends its shape.) */
static void addOperandProducer(MlirOperation *all, size_t *n, MlirOperation parent,
                               const FaAttentionMatch *m, MlirValue operand) {
  MlirOperation def = faValueGetDefiningOp(operand);
  if (!mlirOperationIsNull(def) && mayDieWith(m, def))
    addErasable(all, n, parent, m, def);
}

/* Whichever of `a` and `b` (same block; `b` may be null) comes first. */
static MlirOperation firstOf(MlirOperation a, MlirOperation b) {
  if (!b.ptr)
    return a;
  for (MlirOperation op = b; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (mlirOperationEqual(op, a))
      return b;
  return a;
}

/* Why a match's bias moves into score_mod (it has one reason at most), and
 * what the remark says when it does or cannot. */
enum { IN_SCORE_MOD_AFTER_SOFTCAP, IN_SCORE_MOD_FILL, IN_SCORE_MOD_HALF_SUM };
static const struct {
  const char *refused, *fused;
} kInScoreMod[3] = {
    {"a bias is added after the softcap and is not one the kernel can compute from the "
     "indices and small tables (the op adds its bias before score_mod)",
     " (its softcap and the bias after it computed in the kernel as score_mod)"},
    {"a mask's finite fill replaces scores that include a bias, and score_mod cannot read "
     "that bias",
     " (its mask's finite fill and the bias computed in the kernel as score_mod, every key "
     "tile visited)"},
    {"a bias or fill is added to the scores in f16/bf16 and may be large, and score_mod "
     "cannot read that bias to add it in that type",
     " (the scores plus its bias in f16/bf16 as the source adds them, computed in the kernel "
     "as score_mod, every key tile visited)"}};

static int inScoreModKind(const FaAttentionMatch *m) {
  return m->biasAfterSoftcap ? IN_SCORE_MOD_AFTER_SOFTCAP
         : m->fillInScoreMod ? IN_SCORE_MOD_FILL
                             : IN_SCORE_MOD_HALF_SUM;
}

/* The fused op `attn` (in place, the source chain still there) with its
 * bias moved into score_mod, after the match's softcap or under its mask
 * with a finite fill; `*producers` (owned by the caller) lists the source
 * ops it read. */
static bool biasInScoreMod(MlirRewriterBase rw, const FaAttentionMatch *m, MlirOperation attn,
                           MlirOperation table, FaIndexBiasProducers **producers) {
  FaIndexBiasSoftcap cap = softcapOf(m);
  FaText visible;
  char name[16] = "";
  faTextInit(&visible);
  if (m->fillInScoreMod)
    appendVisible(m, &visible, name);
  FaIndexBiasForm form = {m->biasAfterSoftcap ? &cap : NULL,
                          m->fillInScoreMod ? visible.data : NULL, name, m->fillMax,
                          m->halfBiasAdd, m->halfAddInHalf};
  *producers = malloc(sizeof **producers);
  bool ok = *producers && faIndexBiasToScoreModIn(rw, attn, table, &form, *producers);
  faTextDestroy(&visible);
  if (ok)
    return true;
  free(*producers);
  *producers = NULL;
  return false;
}

/* Rewrites the chain of `m` into one fused op, unless an op the rewrite
 * builds fails verification or (`*refused`) a bias after the softcap cannot
 * move into score_mod: then nothing changes and `why` says why. The new ops
 * are built in a block of their own, verified, and only then moved before
 * the root. */
static bool rewriteMatch(MlirRewriterBase rw, const FaAttentionMatch *m,
                         FaText *why, bool *refused) {
  *refused = false;
  MlirContext ctx = mlirOperationGetContext(m->root);
  FusedFunctions fns;
  if (!buildFunctions(m, &fns)) {
    faTextAppend(why, "its mask or score_mod function could not be built");
    return false;
  }
  MlirBlock block = mlirBlockCreate(0, NULL, NULL);
  MlirValue lse = {NULL};
  FoldedLayouts folded;
  MlirOperation attn;
  MlirValue result = buildFused(rw, block, m, &lse, &folded, &attn);
  /* The detached op cannot see its functions: it is verified without them,
   * then again in place with them (and taken out if that fails). */
  if (!verifyBlock(ctx, block, why)) {
    mlirBlockDestroy(block);
    eraseFunctions(&fns);
    return false;
  }
  MlirOperation first = firstOf(m->root, m->lseRoot);
  MlirOperation moved[FA_MATCH_MAX_OPS];
  int numMoved = 0;
  for (MlirOperation op; !mlirOperationIsNull(op = mlirBlockGetFirstOperation(block));) {
    mlirOperationMoveBefore(op, first);
    if (numMoved < FA_MATCH_MAX_OPS)
      moved[numMoved++] = op;
  }
  mlirBlockDestroy(block);
  if (fns.scoreMod[0] || fns.mask[0]) {
    if (fns.mask[0])
      mlirOperationSetAttributeByName(
          attn,
          mlirStringRefCreateFromCString(faGridwiseAttentionGetAttrName(FA_ATTENTION_ATTR_MASK)),
          mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(fns.mask)));
    if (fns.scoreMod[0])
      mlirOperationSetAttributeByName(
          attn,
          mlirStringRefCreateFromCString(
              faGridwiseAttentionGetAttrName(FA_ATTENTION_ATTR_SCORE_MOD)),
          mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(fns.scoreMod)));
    MlirDiagnosticHandlerID id = mlirContextAttachDiagnosticHandler(ctx, captureFirst, why, NULL);
    bool ok = mlirLogicalResultIsSuccess(faOperationVerify(attn));
    mlirContextDetachDiagnosticHandler(ctx, id);
    if (!ok) { /* nothing uses the new ops yet */
      for (int i = numMoved - 1; i >= 0; --i)
        mlirOperationDestroy(moved[i]);
      eraseFunctions(&fns);
      return false;
    }
  }
  /* A bias added after the softcap goes into score_mod, after it, where the
   * kernel can compute it; else nothing changes. */
  FaIndexBiasProducers *producers = NULL;
  bool inScoreMod = m->biasAfterSoftcap || m->fillInScoreMod || m->halfBiasAdd.ptr;
  if (inScoreMod && !biasInScoreMod(rw, m, attn, fns.table, &producers)) {
    for (int i = numMoved - 1; i >= 0; --i)
      mlirOperationDestroy(moved[i]);
    eraseFunctions(&fns);
    *refused = true;
    faTextAppend(why, "%s", kInScoreMod[inScoreModKind(m)].refused);
    return false;
  }
  /* One list: an op may be in both, and must be erased once; the root is
   * erased by the replacement, and its operands' producers join the list. */
  MlirOperation all[3 * FA_MATCH_MAX_OPS + FA_INDEX_BIAS_MAX_PRODUCERS];
  MlirOperation parent = mlirOperationGetParentOperation(m->root);
  size_t n = 0;
  for (int i = 0; i < m->numChain + m->numMaybeDead; ++i)
    addErasable(all, &n, parent, m,
                i < m->numChain ? m->chain[i] : m->maybeDead[i - m->numChain]);
  MlirOperation replaced[3] = {m->root, m->lseRoot, folded.output};
  for (int r = 0; r < 3; ++r)
    for (intptr_t i = 0, e = replaced[r].ptr ? mlirOperationGetNumOperands(replaced[r]) : 0;
         i < e; ++i)
      addOperandProducer(all, &n, parent, m, mlirOperationGetOperand(replaced[r], i));
  for (int t = 0; t < 3; ++t)
    addErasable(all, &n, parent, m, folded.inputs[t]);
  /* The bias's producers that score_mod read: one list with the chain's, as
   * an op may be in both (the bias's own ops are the chain's too). */
  for (int k = 0; producers && k < producers->n; ++k)
    addErasable(all, &n, parent, m, producers->ops[k]);
  if (m->lseRoot.ptr)
    mlirRewriterBaseReplaceOpWithValues(rw, m->lseRoot, 1, &lse);
  if (folded.output.ptr) { /* O's transpose is replaced; the root dies with it */
    mlirRewriterBaseReplaceOpWithValues(rw, folded.output, 1, &result);
    mlirRewriterBaseEraseOp(rw, m->root);
  } else {
    mlirRewriterBaseReplaceOpWithValues(rw, m->root, 1, &result);
  }
  faEraseDeadOps(rw, all, n, kDeadOps);
  if (producers) {
    free(producers);
    faTextAppend(why, "%s", kInScoreMod[inScoreModKind(m)].fused);
    return true;
  }
  /* A bias computed from the indices and small tables moves into the
   * kernel (IndexBias.c); the op's functions are its own here. */
  if (faIndexBiasToScoreMod(rw, attn, fns.table))
    faTextAppend(why, " (its bias computed in the kernel as score_mod)");
  return true;
}

/* --- pass ------------------------------------------------------------------ */

typedef struct {
  bool explain;
} FuseOptions;

/* The C API can only emit errors, so explanations are remark lines on stderr
 * in the diagnostic format: "file:line:col: remark: fa-fuse-attention: ...".
 * The parser of fa-opt names its buffer "-". */
static void explain(MlirLocation loc, const char *why, const char *detail) {
  MlirStringRef file = mlirStringRefCreateFromCString("<unknown>");
  unsigned line = 0, col = 0;
  faLocationResolve(loc, &file, &line, &col);
  fprintf(stderr, "%.*s:%u:%u: remark: fa-fuse-attention: %s%s%s\n",
          (int)file.length, file.data, line, col, why ? "not fused: " : "",
          why ? why : "fused into " FA_OP_GRIDWISE_ATTENTION, detail);
}

/* What became of one candidate (explained after the rewrites, which erase
 * the matched candidates: hence the location, owned by the context). */
typedef struct {
  MlirLocation loc;
  const char *why; /* NULL: matched */
  bool isCandidate;
  FaText invalid;  /* matched, but the fused op would not verify (why) */
} Outcome;

static void runFuse(MlirOperation root, MlirExternalPass pass,
                    const void *state) {
  const FuseOptions *options = state;
  FaOpList candidates =
      faOperationCollect(root, faOpIsContractionCandidate, MlirWalkPostOrder);
  FaAttentionMatch *m = malloc(sizeof(FaAttentionMatch));
  Outcome *outcomes = calloc(candidates.size ? candidates.size : 1, sizeof(Outcome));
  for (size_t i = 0; i < candidates.size; ++i) {
    outcomes[i].loc = mlirOperationGetLocation(candidates.ops[i]);
    outcomes[i].why = faAttentionMatch(candidates.ops[i], m, &outcomes[i].isCandidate);
  }
  /* Matched chains are disjoint (every chain op is used only inside its
   * chain) and a P*V op is never erased by another chain's rewrite, so each
   * is matched again and rewritten in turn. */
  MlirRewriterBase rewriter = mlirIRRewriterCreate(mlirOperationGetContext(root));
  for (size_t i = 0; i < candidates.size; ++i) {
    bool isCandidate;
    Outcome *o = &outcomes[i];
    if (o->why || faAttentionMatch(candidates.ops[i], m, &isCandidate))
      continue;
    faTextInit(&o->invalid);
    bool refused;
    if (!rewriteMatch(rewriter, m, &o->invalid, &refused))
      o->why = refused ? "" : "the fused op would not verify: ";
  }
  mlirIRRewriterDestroy(rewriter);
  for (size_t i = 0; options->explain && i < candidates.size; ++i)
    if (outcomes[i].isCandidate)
      explain(outcomes[i].loc, outcomes[i].why,
              outcomes[i].invalid.data ? outcomes[i].invalid.data : "");
  for (size_t i = 0; i < candidates.size; ++i)
    faTextDestroy(&outcomes[i].invalid);
  free(outcomes);
  free(m);
  faOpListDestroy(&candidates);
}

static const FaPassDef kFusePass = {
    "FaFuseAttention", "fa-fuse-attention",
    "Rewrite gemm-softmax-gemm chains into fa.gridwise_attention", "", runFuse, NULL};

MlirPass faCreateFusionFuseAttention(bool explainRefusals) {
  FuseOptions options = {explainRefusals};
  return faPassCreate(&kFusePass, &options, sizeof(options));
}

MlirPass faFuseAttentionPassCreateFromOptions(MlirStringRef options,
                                              MlirStringCallback errorCallback,
                                              void *userData) {
  bool explainRefusals = false;
  if (!faPassParseFlagOption(options, "explain", &explainRefusals,
                             errorCallback, userData))
    return (MlirPass){NULL};
  return faCreateFusionFuseAttention(explainRefusals);
}
