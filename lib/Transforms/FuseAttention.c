/* fa-fuse-attention: finds gemm-softmax-gemm chains and rewrites each into one
 * fa.gridwise_attention.
 *
 * Structure: matchAttention() is a pure matcher that either fills a Match or
 * returns the reason it refused. The pass walks the IR once to collect the
 * candidates (every linalg.softmax), reports refusals as remarks when asked
 * to explain, and rewrites each match with an IRRewriter. (Not the greedy
 * driver: through the C API it runs on a whole region and also folds and
 * erases unrelated dead ops, and the rest of the module must stay as it was.)
 *
 * Spellings recognized so far (see docs/passes.md):
 *   linalg.matmul / linalg.batch_matmul (default indexing maps, zero-filled
 *   accumulators) of Q and linalg.transpose(K), optionally an elementwise
 *   linalg.generic multiplying or dividing by a constant, linalg.softmax over the last
 *   dimension, linalg.matmul / linalg.batch_matmul of P and V; static shapes;
 *   one element type (f32, f16 or bf16) throughout. */
#include "Builders.h"
#include "PassSupport.h"
#include "Passes.h"

#include "fa-c/Dialect.h"

#include "../Support/Location.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Match {
  MlirOperation qk, transpose, scaleOp, softmax, pv; /* scaleOp may be null */
  MlirValue q, k, v;
  float scale;
} Match;

static const char *const kDefaultMaps[2] = {
    /* linalg.matmul */
    "[affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, "
    "d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]",
    /* linalg.batch_matmul */
    "[affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, "
    "d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]"};

static MlirAttribute attrOf(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
}

/* A matmul of the given rank (2: linalg.matmul, 3: linalg.batch_matmul) with
 * MLIR's default operand roles. */
static bool isPlainMatmul(MlirOperation op, intptr_t rank) {
  if (!faOpIsA(op, rank == 2 ? "linalg.matmul" : "linalg.batch_matmul"))
    return false;
  MlirAttribute maps = attrOf(op, "indexing_maps");
  if (mlirAttributeIsNull(maps))
    return true;
  MlirAttribute expected = mlirAttributeParseGet(
      mlirOperationGetContext(op),
      mlirStringRefCreateFromCString(kDefaultMaps[rank - 2]));
  return mlirAttributeEqual(maps, expected);
}

/* The value of `v` if it is a scalar float arith.constant. */
static bool floatConstantValue(MlirValue v, double *out) {
  MlirOperation def = faValueGetDefiningOp(v);
  if (!faOpIsA(def, "arith.constant"))
    return false;
  MlirAttribute a = attrOf(def, "value");
  if (!mlirAttributeIsAFloat(a))
    return false;
  *out = mlirFloatAttrGetValueDouble(a);
  return true;
}

/* A float constant equal to zero (the splat of a linalg.fill). */
static bool isZeroConstant(MlirValue v) {
  double c;
  return floatConstantValue(v, &c) && c == 0.0;
}

/* The accumulator of a matmul must start at zero, or the math differs. */
static bool hasZeroInit(MlirOperation matmul) {
  MlirOperation fill = faValueGetDefiningOp(mlirOperationGetOperand(matmul, 2));
  return faOpIsA(fill, "linalg.fill") &&
         isZeroConstant(mlirOperationGetOperand(fill, 0));
}

static bool isStaticFloatTensor(MlirType t, MlirType elt) {
  return mlirTypeIsARankedTensor(t) && mlirShapedTypeHasStaticShape(t) &&
         mlirTypeEqual(mlirShapedTypeGetElementType(t), elt);
}

/* K^T given as linalg.transpose(K) swapping the last two dims. */
static const char *matchTransposedK(MlirValue kt, intptr_t rank, Match *m) {
  MlirOperation tr = faValueGetDefiningOp(kt);
  if (!faOpIsA(tr, "linalg.transpose"))
    return "the right operand of Q*K^T is not a linalg.transpose of K";
  MlirAttribute perm = attrOf(tr, "permutation");
  bool swapsLast = mlirAttributeIsADenseI64Array(perm) &&
                   mlirDenseArrayGetNumElements(perm) == rank;
  for (intptr_t i = 0; swapsLast && i < rank; ++i) {
    int64_t want = i < rank - 2 ? i : (i == rank - 2 ? rank - 1 : rank - 2);
    swapsLast = mlirDenseI64ArrayGetElement(perm, i) == want;
  }
  if (!swapsLast)
    return "the transpose of K does not swap exactly the last two dimensions";
  if (!faValueHasSingleUse(kt, m->qk, 1))
    return "the transposed K has other users";
  m->transpose = tr;
  m->k = mlirOperationGetOperand(tr, 0);
  return NULL;
}

static const char *matchTypes(const Match *m) {
  MlirType elt = mlirShapedTypeGetElementType(mlirValueGetType(m->q));
  if (!mlirTypeIsAF32(elt) && !mlirTypeIsAF16(elt) && !mlirTypeIsABF16(elt))
    return "the element type is not f32, f16 or bf16";
  MlirValue all[6] = {m->q, m->k, m->v, mlirOperationGetResult(m->qk, 0),
                      mlirOperationGetResult(m->softmax, 0),
                      mlirOperationGetResult(m->pv, 0)};
  for (int i = 0; i < 6; ++i)
    if (!isStaticFloatTensor(mlirValueGetType(all[i]), elt))
      return "shapes are not static or element types differ along the chain";
  return NULL;
}

static bool allIdentityMaps(MlirAttribute maps) {
  for (intptr_t i = 0, e = mlirArrayAttrGetNumElements(maps); i < e; ++i)
    if (!mlirAffineMapIsIdentity(
            mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, i))))
      return false;
  return true;
}

/* Elementwise scale of the scores: a linalg.generic with identity maps whose
 * body is `x * c`, `c * x` or `x / c` for a float constant c. On success sets
 * m->scaleOp and m->scale and returns the unscaled scores. */
static const char *matchScale(MlirValue scaled, MlirOperation softmax,
                              Match *m, MlirValue *scores) {
  MlirOperation g = faValueGetDefiningOp(scaled);
  *scores = scaled;
  m->scale = 1.0f;
  if (!faOpIsA(g, "linalg.generic"))
    return NULL;
  if (mlirOperationGetNumOperands(g) != 2 ||
      !allIdentityMaps(attrOf(g, "indexing_maps")))
    return "the op before the softmax is not an elementwise scale";
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(g, 0));
  MlirOperation arith = mlirBlockGetFirstOperation(body);
  MlirOperation yield = mlirOperationGetNextInBlock(arith);
  bool isMul = faOpIsA(arith, "arith.mulf"), isDiv = faOpIsA(arith, "arith.divf");
  if ((!isMul && !isDiv) || !faOpIsA(yield, "linalg.yield") ||
      !mlirValueEqual(mlirOperationGetOperand(yield, 0),
                      mlirOperationGetResult(arith, 0)))
    return "the op before the softmax is not a multiplication or division by "
           "a constant";
  MlirValue x = mlirBlockGetArgument(body, 0);
  MlirValue lhs = mlirOperationGetOperand(arith, 0);
  MlirValue rhs = mlirOperationGetOperand(arith, 1);
  double c;
  bool xFirst = mlirValueEqual(lhs, x);
  if (!(xFirst && floatConstantValue(rhs, &c)) &&
      !(isMul && mlirValueEqual(rhs, x) && floatConstantValue(lhs, &c)))
    return "the scale is not a splat constant";
  if (isDiv && c == 0.0)
    return "the scale divides by zero";
  if (!faValueHasSingleUse(scaled, softmax, 0))
    return "the scaled scores have other users";
  m->scaleOp = g;
  m->scale = (float)(isDiv ? 1.0 / c : c);
  *scores = mlirOperationGetOperand(g, 0);
  if (!faValueHasSingleUse(*scores, g, 0))
    return "the scores have other users";
  return NULL;
}

/* Returns NULL and fills `m` if `softmax` is the middle of an attention chain;
 * otherwise returns why not. */
static const char *matchAttention(MlirOperation softmax, Match *m) {
  MlirValue s = mlirOperationGetOperand(softmax, 0);
  MlirType st = mlirValueGetType(s);
  if (!mlirTypeIsARankedTensor(st))
    return "the softmax input is not a ranked tensor";
  intptr_t rank = mlirShapedTypeGetRank(st);
  MlirAttribute dim = attrOf(softmax, "dimension");
  if (mlirAttributeIsNull(dim) || mlirIntegerAttrGetValueInt(dim) != rank - 1)
    return "the softmax is not over the last (key) dimension";
  if (rank != 2 && rank != 3)
    return "the scores are neither 2-D (matmul) nor 3-D (batch_matmul)";
  *m = (Match){{NULL}, {NULL}, {NULL}, softmax, {NULL},
               {NULL}, {NULL}, {NULL}, 1.0f};
  MlirOperation scoresUser = softmax;
  const char *why = matchScale(s, softmax, m, &s);
  if (why)
    return why;
  if (m->scaleOp.ptr)
    scoresUser = m->scaleOp;
  m->qk = faValueGetDefiningOp(s);
  if (!isPlainMatmul(m->qk, rank))
    return "the scores are not produced by a matmul with default indexing maps";
  if (!faValueHasSingleUse(s, scoresUser, 0))
    return "the scores have other users";
  if (!hasZeroInit(m->qk))
    return "the Q*K^T accumulator is not zero-filled";
  MlirValue p = mlirOperationGetResult(softmax, 0);
  MlirOpOperand use = mlirValueGetFirstUse(p);
  if (mlirOpOperandIsNull(use))
    return "the probabilities are unused";
  m->pv = mlirOpOperandGetOwner(use);
  if (!faValueHasSingleUse(p, m->pv, 0))
    return "the probabilities have other users or are not the left operand of P*V";
  if (!isPlainMatmul(m->pv, rank))
    return "P*V is not a matmul with default indexing maps";
  if (!hasZeroInit(m->pv))
    return "the P*V accumulator is not zero-filled";
  m->q = mlirOperationGetOperand(m->qk, 0);
  m->v = mlirOperationGetOperand(m->pv, 1);
  why = matchTransposedK(mlirOperationGetOperand(m->qk, 1), rank, m);
  return why ? why : matchTypes(m);
}

/* --- rewrite --------------------------------------------------------------- */

static const char *const kChainOps[] = {
    "linalg.softmax", "linalg.generic", "linalg.matmul", "linalg.batch_matmul",
    "linalg.transpose",
    "linalg.fill",    "tensor.empty",  "arith.constant",      NULL};

static void rewriteMatch(MlirRewriterBase rewriter, const Match *m) {
  MlirLocation loc = mlirOperationGetLocation(m->softmax);
  mlirRewriterBaseSetInsertionPointBefore(rewriter, m->pv);
  FaAttentionOperands operands = {
      faBuildExpandToRank4(rewriter, loc, m->q),
      faBuildExpandToRank4(rewriter, loc, m->k),
      faBuildExpandToRank4(rewriter, loc, m->v), {NULL}, {NULL}};
  MlirType outType = mlirValueGetType(mlirOperationGetResult(m->pv, 0));
  MlirType v4 = mlirValueGetType(operands.v), q4 = mlirValueGetType(operands.q);
  int64_t shape[4] = {mlirShapedTypeGetDimSize(q4, 0),
                      mlirShapedTypeGetDimSize(q4, 1),
                      mlirShapedTypeGetDimSize(q4, 2),
                      mlirShapedTypeGetDimSize(v4, 3)};
  MlirType out4 = mlirRankedTensorTypeGet(
      4, shape, mlirShapedTypeGetElementType(outType), mlirAttributeGetNull());
  FaAttentionAttrs attrs = {m->scale, false, 0, false};
  MlirOperation attn =
      faGridwiseAttentionOpCreateOwned(loc, operands, attrs, out4);
  mlirRewriterBaseInsert(rewriter, attn);
  MlirValue result = faBuildCollapseFromRank4(
      rewriter, loc, mlirOperationGetResult(attn, 0), outType);
  MlirOperation pvInit = faValueGetDefiningOp(mlirOperationGetOperand(m->pv, 2));
  mlirRewriterBaseReplaceOpWithValues(rewriter, m->pv, 1, &result);
  faEraseDeadChain(rewriter, m->softmax, kChainOps);
  faEraseDeadChain(rewriter, pvInit, kChainOps);
}

/* --- pass ------------------------------------------------------------------ */

typedef struct {
  bool explain;
} FuseOptions;

typedef struct {
  MlirOperation *ops;
  size_t size, cap;
} OpList;

static MlirWalkResult collectSoftmax(MlirOperation op, void *userData) {
  OpList *list = userData;
  if (!faOpIsA(op, "linalg.softmax"))
    return MlirWalkResultAdvance;
  if (list->size == list->cap)
    list->ops = realloc(list->ops, (list->cap = list->cap * 2 + 8) *
                                       sizeof(MlirOperation));
  list->ops[list->size++] = op;
  return MlirWalkResultAdvance;
}

/* The C API can only emit errors, so explanations are remark lines on stderr
 * in the diagnostic format: "file:line:col: remark: fa-fuse-attention: ...".
 * The parser of fa-opt names its buffer "-". */
static void explain(MlirOperation op, const char *why) {
  MlirStringRef file = mlirStringRefCreateFromCString("<unknown>");
  unsigned line = 0, col = 0;
  faLocationResolve(mlirOperationGetLocation(op), &file, &line, &col);
  fprintf(stderr, "%.*s:%u:%u: remark: fa-fuse-attention: %s%s\n",
          (int)file.length, file.data, line, col, why ? "not fused: " : "",
          why ? why : "fused into " FA_OP_GRIDWISE_ATTENTION);
}

static void runFuse(MlirOperation root, MlirExternalPass pass,
                    const void *state) {
  const FuseOptions *options = state;
  OpList candidates = {NULL, 0, 0};
  mlirOperationWalk(root, collectSoftmax, &candidates, MlirWalkPostOrder);
  size_t matched = 0;
  for (size_t i = 0; i < candidates.size; ++i) {
    Match m;
    const char *why = matchAttention(candidates.ops[i], &m);
    if (options->explain)
      explain(candidates.ops[i], why);
    if (!why)
      candidates.ops[matched++] = candidates.ops[i];
  }
  if (matched) {
    /* Matches are disjoint chains (each matmul, softmax and transpose has a
     * single user in its chain), so rewriting one leaves the others valid. */
    MlirRewriterBase rewriter = mlirIRRewriterCreate(mlirOperationGetContext(root));
    for (size_t i = 0; i < matched; ++i) {
      Match m;
      if (!matchAttention(candidates.ops[i], &m))
        rewriteMatch(rewriter, &m);
    }
    mlirIRRewriterDestroy(rewriter);
  }
  free(candidates.ops);
}

static const FaPassDef kFusePass = {
    "FaFuseAttention", "fa-fuse-attention",
    "Rewrite gemm-softmax-gemm chains into fa.gridwise_attention", "", runFuse};

MlirPass faCreateFuseAttentionPassOwned(bool explainRefusals) {
  FuseOptions options = {explainRefusals};
  return faPassCreateOwned(&kFusePass, &options, sizeof(options));
}

MlirPass faFuseAttentionPassCreateFromOptions(MlirStringRef options,
                                              MlirStringCallback errorCallback,
                                              void *userData) {
  bool explainRefusals = false;
  if (!faPassParseFlagOption(options, "explain", &explainRefusals,
                             errorCallback, userData))
    return (MlirPass){NULL};
  return faCreateFuseAttentionPassOwned(explainRefusals);
}
