/* Index-derived biases as score_mod functions (IndexBias.h).
 *
 * Fusion turns a bias the source adds to the scores into the op's bias
 * operand: a [B, Hq, M, N] tensor (or a broadcast of one) that the kernels
 * read from memory. Where the source computes that tensor from the indices
 * alone (T5's relative-position buckets gathered from a [32, H] table,
 * ALiBi's slope[h] * (j - i)), the kernel can compute it instead: this step
 * follows the bias's producers back, evaluates them at one (b, h, i, j) by
 * mapping the indices through views, transposes and each generic's indexing
 * maps, and clones each generic body's ops into a score_mod function (the
 * source's ops, in the source's types: nothing is re-derived). The tensors
 * it reads that no understood op computes (function arguments, non-splat
 * constants) become captures. TOSA chains are read the same way, each
 * elementwise op as the arith/math ops tosa-to-linalg lowers it to (the TOSA
 * section below). Anything else leaves the op as it was. */
#include "Fusion/IndexBias.h"
#include "Fusion/AttentionExpr.h"
#include "Fusion/Transpose.h"
#include "Support/Builders.h"
#include "Support/IRText.h"

#include "fa-c/Dialect.h"

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/Linalg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
  kMaxRank = FA_EXPR_MAX_RANK,
  kMaxMemo = 256,    /* tensors evaluated at some indices */
  kMaxVisited = FA_INDEX_BIAS_MAX_PRODUCERS, /* source ops read through (erased once dead) */
  kMaxLocals = 128,  /* values of one generic body */
  kMaxSmallTable = 65536,
  kMaxLinear = 32,   /* row-major positions of reshaped indices */
};

/* Which of the function's indices a value depends on. */
enum { kDepB = 1, kDepH = 2, kDepI = 4, kDepJ = 8 };

/* A value of the function being built, with the indices it depends on. */
typedef struct {
  MlirValue v;
  unsigned deps;
} Scalar;

/* Tensor `tensor` read at `idx`: its value. */
typedef struct {
  MlirValue tensor;
  intptr_t rank;
  MlirValue idx[kMaxRank];
  Scalar value;
} Memo;

/* `value` = the row-major position of `comps` over `sizes` (a reshape's). */
typedef struct {
  Scalar value;
  int n;
  Scalar comps[kMaxRank];
  int64_t sizes[kMaxRank];
} Linear;

/* How a capture is read: `split` if some read indexes it with the query and
 * the key in different dims (an [M, N] data tensor), `joint` if some index
 * depends on both (a gather at a computed position). */
typedef struct {
  MlirValue tensor;
  MlirValue arg;
  bool split, joint;
} Capture;

typedef struct {
  MlirContext ctx;
  MlirLocation loc;
  MlirBlock entry;
  MlirOperation anchor; /* new ops go before it */
  Scalar zero;          /* index 0 */
  Scalar args[4];       /* b, h, i, j */
  Capture captures[FA_ATTENTION_MAX_CAPTURES];
  int numCaptures;
  bool readsIndex; /* some body reads linalg.index, or a capture at computed indices */
  bool anyBias;    /* take a bias that is only data, of any size (after a softcap: there
                      is no dense bias operand to keep instead) */
  Memo memo[kMaxMemo];
  int numMemo;
  MlirOperation visited[kMaxVisited];
  int numVisited;
  Linear linear[kMaxLinear];
  int numLinear;
  MlirValue outside[kMaxLocals]; /* the source's scalar constants, */
  Scalar outsideValue[kMaxLocals]; /* cloned once */
  int numOutside;
  MlirOperation wrappers[FA_ATTENTION_MAX_CAPTURES]; /* rank-0 tensors of scalar captures */
  int numWrappers;
} Builder;

/* One linalg.generic body being evaluated at one point of its loops. */
typedef struct {
  MlirOperation generic;
  MlirBlock body;
  intptr_t numInputs, numLoops;
  Scalar loops[kMaxRank];
  MlirValue from[kMaxLocals];
  Scalar to[kMaxLocals];
  int numLocals;
} Body;

static bool readTensor(Builder *b, MlirValue t, const Scalar *idx, Scalar *out);

static Scalar scalar(MlirValue v, unsigned deps) { return (Scalar){v, deps}; }

static void visit(Builder *b, MlirOperation op) {
  for (int i = 0; i < b->numVisited; ++i)
    if (mlirOperationEqual(b->visited[i], op))
      return;
  if (b->numVisited < kMaxVisited)
    b->visited[b->numVisited++] = op;
}

static MlirType elementTypeOf(MlirValue t) {
  return mlirShapedTypeGetElementType(mlirValueGetType(t));
}

/* An arith.constant of `value` (a typed scalar attribute). */
static Scalar constant(Builder *b, MlirAttribute value) {
  MlirNamedAttribute attr = faNamedAttributeGet(b->ctx, "value", value);
  MlirType type = mlirAttributeGetType(value);
  MlirOperation op = faOperationCreateBefore(b->anchor, "arith.constant", 0, NULL, 1, &type,
                                             1, &attr);
  return scalar(mlirOperationGetResult(op, 0), 0);
}

static bool readCapture(Builder *b, MlirValue tensor, const Scalar *idx, Scalar *out);

/* A scalar capture: `v` (an integer or float the source computes outside
 * the ops being evaluated: a function argument, a value of the function's
 * body) as a rank-0 tensor, made right after its definition (so that it
 * dominates the op as `v` does), read with tensor.extract. The tensor is
 * erased again where the step keeps the dense bias. */
static bool readScalarCapture(Builder *b, MlirValue v, Scalar *out) {
  MlirType t = mlirValueGetType(v);
  if (!(mlirTypeIsAFloat(t) || mlirTypeIsAInteger(t)) || b->numWrappers == FA_ATTENTION_MAX_CAPTURES)
    return false;
  MlirType rt = mlirRankedTensorTypeGet(0, NULL, t, mlirAttributeGetNull());
  MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString("tensor.from_elements"), b->loc);
  mlirOperationStateAddOperands(&st, 1, &v);
  mlirOperationStateAddResults(&st, 1, &rt);
  MlirOperation wrap = mlirOperationCreate(&st);
  if (mlirValueIsABlockArgument(v))
    mlirBlockInsertOwnedOperation(mlirBlockArgumentGetOwner(v), 0, wrap);
  else
    mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(mlirOpResultGetOwner(v)),
                                       mlirOpResultGetOwner(v), wrap);
  b->wrappers[b->numWrappers++] = wrap;
  return readCapture(b, mlirOperationGetResult(wrap, 0), NULL, out);
}

/* A scalar the source defines outside the ops being evaluated: a constant,
 * cloned, or else a scalar capture. */
static bool readOutside(Builder *b, MlirValue v, Scalar *out) {
  for (int k = 0; k < b->numOutside; ++k)
    if (mlirValueEqual(b->outside[k], v)) {
      *out = b->outsideValue[k];
      return true;
    }
  MlirOperation def = faValueGetDefiningOp(v);
  MlirAttribute value = faOpIsA(def, "arith.constant") ? faOpGetAttr(def, "value")
                                                       : mlirAttributeGetNull();
  if (mlirTypeIsAShaped(mlirValueGetType(v)))
    return false;
  if (mlirAttributeIsNull(value)) {
    if (!readScalarCapture(b, v, out))
      return false;
  } else {
    visit(b, def);
    *out = constant(b, value);
  }
  if (b->numOutside < kMaxLocals) {
    b->outside[b->numOutside] = v;
    b->outsideValue[b->numOutside++] = *out;
  }
  return true;
}

/* `tensor` as a capture (added to the function's arguments once). */
static Capture *captureOf(Builder *b, MlirValue tensor) {
  for (int c = 0; c < b->numCaptures; ++c)
    if (mlirValueEqual(b->captures[c].tensor, tensor))
      return &b->captures[c];
  if (b->numCaptures == FA_ATTENTION_MAX_CAPTURES)
    return NULL;
  Capture *c = &b->captures[b->numCaptures++];
  *c = (Capture){tensor, mlirBlockAddArgument(b->entry, mlirValueGetType(tensor), b->loc),
                 false, false};
  return c;
}

/* tensor.extract of capture `tensor` at `idx`. */
static bool readCapture(Builder *b, MlirValue tensor, const Scalar *idx, Scalar *out) {
  Capture *c = captureOf(b, tensor);
  if (!c)
    return false;
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(tensor));
  MlirValue operands[1 + kMaxRank] = {c->arg};
  unsigned deps = 0, withI = 0, withJ = 0;
  for (intptr_t d = 0; d < rank; ++d) {
    operands[1 + d] = idx[d].v;
    deps |= idx[d].deps;
    withI |= (idx[d].deps & kDepI) ? 1u << d : 0;
    withJ |= (idx[d].deps & kDepJ) ? 1u << d : 0;
  }
  c->joint |= (withI & withJ) != 0;
  c->split |= withI && withJ && (withI | withJ) != (withI & withJ);
  MlirType et = elementTypeOf(tensor);
  MlirOperation op =
      faOperationCreateBefore(b->anchor, "tensor.extract", 1 + rank, operands, 1, &et, 0, NULL);
  *out = scalar(mlirOperationGetResult(op, 0), deps);
  return true;
}

/* The number of elements of the static shape `t`. */
static int64_t numElements(MlirType t) {
  int64_t n = 1;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); ++d)
    n *= mlirShapedTypeGetDimSize(t, d);
  return n;
}

/* --- generic bodies ------------------------------------------------------- */

static bool readBodyValue(Builder *b, Body *g, MlirValue v, Scalar *out);

/* Indices of input `t` of the generic: its map's results through the loops
 * (a constant 0 reads a broadcast unit dim). */
static bool inputIndices(Builder *b, const Body *g, intptr_t t, Scalar *idx) {
  MlirAttribute maps = mlirLinalgGetIndexingMapsAttribute(g->generic);
  MlirAffineMap m = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, t));
  if (mlirAffineMapGetNumResults(m) > kMaxRank)
    return false;
  for (intptr_t r = 0; r < mlirAffineMapGetNumResults(m); ++r) {
    MlirAffineExpr e = mlirAffineMapGetResult(m, r);
    if (mlirAffineExprIsADim(e) && mlirAffineDimExprGetPosition(e) < g->numLoops)
      idx[r] = g->loops[mlirAffineDimExprGetPosition(e)];
    else if (mlirAffineExprIsAConstant(e) && mlirAffineConstantExprGetValue(e) == 0)
      idx[r] = b->zero;
    else
      return false;
  }
  return true;
}

/* A block argument: input t read at its mapped indices; an output's is the
 * destination's old value, which the bias must not depend on. */
static bool readBodyArgument(Builder *b, Body *g, MlirValue v, Scalar *out) {
  intptr_t t = mlirBlockArgumentGetArgNumber(v);
  if (t >= g->numInputs)
    return false;
  MlirValue in = mlirOperationGetOperand(g->generic, t);
  if (!mlirTypeIsARankedTensor(mlirValueGetType(in)))
    return readOutside(b, in, out);
  Scalar idx[kMaxRank];
  return inputIndices(b, g, t, idx) && readTensor(b, in, idx, out);
}

/* tensor.extract of a tensor defined outside the body, at indices the body
 * computes. */
static bool readBodyExtract(Builder *b, Body *g, MlirOperation op, Scalar *out) {
  MlirValue src = mlirOperationGetOperand(op, 0);
  intptr_t rank = mlirOperationGetNumOperands(op) - 1;
  Scalar idx[kMaxRank];
  if (rank > kMaxRank || (mlirValueIsABlockArgument(src) &&
                          mlirBlockEqual(mlirBlockArgumentGetOwner(src), g->body)))
    return false;
  for (intptr_t d = 0; d < rank; ++d)
    if (!readBodyValue(b, g, mlirOperationGetOperand(op, d + 1), &idx[d]))
      return false;
  b->readsIndex = true;
  return readTensor(b, src, idx, out);
}

/* An arith, math or index op of the body, cloned with its operands' values. */
static bool cloneBodyOp(Builder *b, Body *g, MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  bool allowed = (name.length > 6 && !strncmp(name.data, "arith.", 6)) ||
                 (name.length > 5 && !strncmp(name.data, "math.", 5)) ||
                 (name.length > 6 && !strncmp(name.data, "index.", 6));
  intptr_t n = mlirOperationGetNumOperands(op);
  if (!allowed || mlirOperationGetNumRegions(op) || n > 8 ||
      g->numLocals + mlirOperationGetNumResults(op) > kMaxLocals)
    return false;
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r)
    if (mlirTypeIsAShaped(mlirValueGetType(mlirOperationGetResult(op, r))))
      return false; /* scalars only: what every kernel inlines per score */
  Scalar ops[8];
  unsigned deps = 0;
  for (intptr_t k = 0; k < n; ++k) {
    if (!readBodyValue(b, g, mlirOperationGetOperand(op, k), &ops[k]))
      return false;
    deps |= ops[k].deps;
  }
  MlirOperation clone = mlirOperationClone(op);
  mlirBlockInsertOwnedOperationBefore(b->entry, b->anchor, clone);
  for (intptr_t k = 0; k < n; ++k)
    mlirOperationSetOperand(clone, k, ops[k].v);
  for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r) {
    g->from[g->numLocals] = mlirOperationGetResult(op, r);
    g->to[g->numLocals++] = scalar(mlirOperationGetResult(clone, r), deps);
  }
  return true;
}

/* Value `v` of the body (or a constant from outside it) at the body's loop
 * point. Only what the yielded value depends on is evaluated (the
 * bounds checks torch-mlir asserts on a gather's indices are not: the
 * kernels read a capture's nearest element instead). */
static bool readBodyValue(Builder *b, Body *g, MlirValue v, Scalar *out) {
  for (int k = 0; k < g->numLocals; ++k)
    if (mlirValueEqual(g->from[k], v)) {
      *out = g->to[k];
      return true;
    }
  if (mlirValueIsABlockArgument(v))
    return mlirBlockEqual(mlirBlockArgumentGetOwner(v), g->body)
               ? readBodyArgument(b, g, v, out)
               : readOutside(b, v, out); /* a function argument */
  MlirOperation op = mlirOpResultGetOwner(v);
  if (!mlirOperationEqual(mlirOperationGetParentOperation(op), g->generic))
    return readOutside(b, v, out);
  if (faOpIsA(op, "linalg.index")) {
    MlirAttribute dim = faOpGetAttr(op, "dim");
    if (mlirAttributeIsNull(dim) || !mlirAttributeIsAInteger(dim) ||
        mlirIntegerAttrGetValueInt(dim) < 0 || mlirIntegerAttrGetValueInt(dim) >= g->numLoops)
      return false;
    b->readsIndex = true;
    *out = g->loops[mlirIntegerAttrGetValueInt(dim)];
    return true;
  }
  if (faOpIsA(op, "tensor.extract")) {
    if (g->numLocals == kMaxLocals || !readBodyExtract(b, g, op, out))
      return false;
    g->from[g->numLocals] = v;
    g->to[g->numLocals++] = *out;
    return true;
  }
  if (!cloneBodyOp(b, g, op))
    return false;
  return readBodyValue(b, g, v, out);
}

/* The source's constants that the body uses (its bounds checks' too): they
 * may die with the generic. */
static void visitBodyConstants(Builder *b, MlirBlock body) {
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); ++k) {
      MlirOperation def = faValueGetDefiningOp(mlirOperationGetOperand(op, k));
      if (faOpIsA(def, "arith.constant") &&
          !mlirBlockEqual(mlirOperationGetBlock(def), body))
        visit(b, def);
    }
}

/* Result `r` of an all-parallel linalg.generic whose output map is a
 * permutation, at `idx`: its body evaluated at the loop point `idx` names. */
static bool readGeneric(Builder *b, MlirOperation generic, intptr_t r, const Scalar *idx,
                        Scalar *out) {
  intptr_t numResults = mlirOperationGetNumResults(generic);
  Body g;
  memset(&g, 0, sizeof g);
  g.generic = generic;
  g.body = mlirRegionGetFirstBlock(mlirOperationGetRegion(generic, 0));
  g.numInputs = mlirOperationGetNumOperands(generic) - numResults;
  if (!faLinalgIsParallelOnly(generic) || g.numInputs < 0 || r >= numResults)
    return false;
  MlirAttribute maps = mlirLinalgGetIndexingMapsAttribute(generic);
  MlirAffineMap m = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, g.numInputs + r));
  g.numLoops = mlirAffineMapGetNumDims(m);
  if (!mlirAffineMapIsPermutation(m) || g.numLoops > kMaxRank)
    return false;
  for (intptr_t k = 0; k < g.numLoops; ++k)
    g.loops[mlirAffineDimExprGetPosition(mlirAffineMapGetResult(m, k))] = idx[k];
  MlirOperation yield = mlirBlockGetTerminator(g.body);
  if (!readBodyValue(b, &g, mlirOperationGetOperand(yield, r), out))
    return false;
  visitBodyConstants(b, g.body);
  return true;
}

/* --- tensors ---------------------------------------------------------------- */

/* A reshape that only adds or drops unit dims, read through. */
static bool readUnitReshape(Builder *b, MlirOperation def, MlirValue t, const Scalar *idx,
                            Scalar *out) {
  int8_t dims[kMaxRank];
  MlirValue src = mlirOperationGetOperand(def, 0);
  if (!faUnitReshapeGetSourceDims(def, t, dims))
    return false;
  Scalar in[kMaxRank];
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(mlirValueGetType(src)); ++d)
    in[d] = dims[d] < 0 ? b->zero : idx[dims[d]];
  return readTensor(b, src, in, out);
}

/* linalg.broadcast: the input without the added dims. */
static bool readBroadcast(Builder *b, MlirOperation def, const Scalar *idx, Scalar *out) {
  MlirAttribute added = faOpGetAttr(def, "dimensions");
  MlirValue t = mlirOperationGetResult(def, 0);
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(t));
  if (mlirAttributeIsNull(added) || !mlirAttributeIsADenseI64Array(added))
    return false;
  Scalar in[kMaxRank];
  intptr_t n = 0;
  for (intptr_t d = 0; d < rank; ++d) {
    bool isAdded = false;
    for (intptr_t k = 0; k < mlirDenseArrayGetNumElements(added); ++k)
      isAdded |= mlirDenseI64ArrayGetElement(added, k) == d;
    if (!isAdded)
      in[n++] = idx[d];
  }
  return readTensor(b, mlirOperationGetOperand(def, 0), in, out);
}

/* An elementwise arith op on tensors of one shape (what fusion itself
 * builds: a clamp, a mask's select), as the same op on scalars. */
static bool readTensorArith(Builder *b, MlirOperation def, const Scalar *idx, Scalar *out) {
  intptr_t n = mlirOperationGetNumOperands(def);
  MlirValue ops[4];
  unsigned deps = 0;
  if (n > 4 || mlirOperationGetNumResults(def) != 1 || mlirOperationGetNumRegions(def))
    return false;
  for (intptr_t k = 0; k < n; ++k) {
    Scalar s;
    if (!readTensor(b, mlirOperationGetOperand(def, k), idx, &s))
      return false;
    ops[k] = s.v;
    deps |= s.deps;
  }
  MlirNamedAttribute attrs[8];
  intptr_t na = mlirOperationGetNumAttributes(def);
  if (na > 8)
    return false;
  for (intptr_t k = 0; k < na; ++k)
    attrs[k] = mlirOperationGetAttribute(def, k);
  MlirType et = elementTypeOf(mlirOperationGetResult(def, 0));
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(def));
  char buf[64];
  if (name.length >= sizeof buf)
    return false;
  memcpy(buf, name.data, name.length);
  buf[name.length] = 0;
  MlirOperation op = faOperationCreateBefore(b->anchor, buf, n, ops, 1, &et, na, attrs);
  *out = scalar(mlirOperationGetResult(op, 0), deps);
  return true;
}

static bool isTensorArith(MlirOperation def) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(def));
  if (mlirOperationGetNumResults(def) != 1 || name.length <= 6 || strncmp(name.data, "arith.", 6) || faOpIsA(def, "arith.constant"))
    return false;
  MlirType rt = mlirValueGetType(mlirOperationGetResult(def, 0));
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(def); ++k) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(def, k));
    if (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) != mlirShapedTypeGetRank(rt))
      return false;
  }
  return mlirTypeIsARankedTensor(rt);
}



/* --- TOSA ------------------------------------------------------------------ */

/* The TOSA spellings of the same chains (torch-mlir's TOSA exports): each
 * elementwise op is evaluated as the arith/math ops MLIR's tosa-to-linalg
 * emits for it (its cast from float to integer rounds to nearest even and
 * saturates), its operands read with TOSA's broadcast (equal ranks, a dim of
 * 1 read at 0); tosa.reshape through the linear index of each group of dims
 * it regroups, tosa.gather as a read of its values at the index it reads.
 * An op, type or attribute outside what is spelled out here is refused. */

/* Op `name` of `n` operands giving one `type`: its deps, theirs. */
static Scalar emit(Builder *b, const char *name, intptr_t n, const Scalar *ops, MlirType type,
                   intptr_t na, const MlirNamedAttribute *attrs) {
  MlirValue vs[3];
  unsigned deps = 0;
  for (intptr_t k = 0; k < n; ++k) {
    vs[k] = ops[k].v;
    deps |= ops[k].deps;
  }
  MlirOperation op = faOperationCreateBefore(b->anchor, name, n, vs, 1, &type, na, attrs);
  return scalar(mlirOperationGetResult(op, 0), deps);
}

static Scalar emit1(Builder *b, const char *name, Scalar x, MlirType type) {
  return emit(b, name, 1, &x, type, 0, NULL);
}

static Scalar emit2(Builder *b, const char *name, Scalar x, Scalar y) {
  Scalar ops[2] = {x, y};
  return emit(b, name, 2, ops, mlirValueGetType(x.v), 0, NULL);
}

static Scalar emitSelect(Builder *b, Scalar c, Scalar x, Scalar y) {
  Scalar ops[3] = {c, x, y};
  return emit(b, "arith.select", 3, ops, mlirValueGetType(x.v), 0, NULL);
}

/* arith.cmpi / arith.cmpf `pred` (the arith enums' values). */
static Scalar emitCmp(Builder *b, bool isFloat, int64_t pred, Scalar x, Scalar y) {
  Scalar ops[2] = {x, y};
  MlirNamedAttribute attr = faNamedAttributeGet(
      b->ctx, "predicate", mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 64), pred));
  return emit(b, isFloat ? "arith.cmpf" : "arith.cmpi", 2, ops, mlirIntegerTypeGet(b->ctx, 1),
              1, &attr);
}

enum { kCmpiEq = 0, kCmpiNe = 1, kCmpiSgt = 4, kCmpiSge = 5 };
enum { kCmpfOeq = 1, kCmpfOgt = 2, kCmpfOge = 3, kCmpfUeq = 8, kCmpfUge = 10, kCmpfUne = 13 };

static Scalar intConstant(Builder *b, MlirType t, int64_t v) {
  return constant(b, mlirIntegerAttrGet(t, v));
}

static Scalar floatConstant(Builder *b, MlirType t, double v) {
  return constant(b, mlirFloatAttrDoubleGet(b->ctx, t, v));
}

static bool isFloat(MlirType t) { return mlirTypeIsAFloat(t); }

static bool isInt(MlirType t) {
  return mlirTypeIsAInteger(t) && mlirIntegerTypeIsSignless(t) &&
         mlirIntegerTypeGetWidth(t) <= 64;
}

/* tosa.cast from `x`'s type to `to`, as tosa-to-linalg lowers it (MLIR 22);
 * false for the pairs not spelled out here. */
static bool castScalar(Builder *b, Scalar x, MlirType to, Scalar *out) {
  MlirType from = mlirValueGetType(x.v);
  if (mlirTypeEqual(from, to)) {
    *out = x;
    return true;
  }
  if (isInt(from) && isInt(to)) {
    unsigned fw = mlirIntegerTypeGetWidth(from), tw = mlirIntegerTypeGetWidth(to);
    if (tw == 1)
      *out = emitCmp(b, false, kCmpiNe, x, intConstant(b, from, 0));
    else
      *out = emit1(b, fw == 1 ? "arith.extui" : fw < tw ? "arith.extsi" : "arith.trunci", x, to);
    return true;
  }
  if (isInt(from) && isFloat(to)) {
    *out = emit1(b, mlirIntegerTypeGetWidth(from) == 1 ? "arith.uitofp" : "arith.sitofp", x, to);
    return true;
  }
  if (isFloat(from) && isFloat(to)) {
    unsigned fw = mlirFloatTypeGetWidth(from), tw = mlirFloatTypeGetWidth(to);
    if (fw == tw)
      return false; /* f16 <-> bf16 */
    *out = emit1(b, fw < tw ? "arith.extf" : "arith.truncf", x, to);
    return true;
  }
  if (!isFloat(from) || !isInt(to))
    return false;
  unsigned w = mlirIntegerTypeGetWidth(to);
  if (w == 1) {
    *out = emitCmp(b, true, kCmpfUne, x, floatConstant(b, from, 0.0));
    return true;
  }
  if (w != 32 && w != 64)
    return false;
  Scalar r = emit1(b, "math.roundeven", x, from);
  int64_t imax = w == 32 ? INT32_MAX : INT64_MAX, imin = w == 32 ? INT32_MIN : INT64_MIN;
  if (mlirTypeIsAF16(from)) {
    /* f16's range inside the integer's: only +-inf saturate. */
    Scalar i = emit1(b, "arith.fptosi", r, to);
    Scalar isInf = emitCmp(b, true, kCmpfUeq, r, floatConstant(b, from, INFINITY));
    Scalar isNinf = emitCmp(b, true, kCmpfUeq, r, floatConstant(b, from, -INFINITY));
    Scalar hi = emitSelect(b, isInf, intConstant(b, to, imax), i);
    *out = emitSelect(b, isNinf, intConstant(b, to, imin), hi);
    return true;
  }
  if (!mlirTypeIsAF32(from) && !mlirTypeIsAF64(from))
    return false;
  /* -2^(w-1) exact, 2^(w-1) the first value past the integer's max. */
  double edge = w == 32 ? 2147483648.0 : 9223372036854775808.0;
  Scalar lo = emit2(b, "arith.maximumf", r, floatConstant(b, from, -edge));
  Scalar i = emit1(b, "arith.fptosi", lo, to);
  Scalar big = emitCmp(b, true, kCmpfUge, r, floatConstant(b, from, edge));
  *out = emitSelect(b, big, intConstant(b, to, imax), i);
  return true;
}

static void containsPropagate(MlirStringRef s, void *user) {
  for (size_t k = 0; k + 9 <= s.length; ++k)
    if (!strncmp(s.data + k, "PROPAGATE", 9))
      *(bool *)user = true;
}

/* NaN propagation (tosa-to-linalg's minimumf / maximumf): the default. */
static bool propagatesNan(MlirOperation op) {
  MlirAttribute mode = faOpGetAttr(op, "nan_mode");
  bool ok = mlirAttributeIsNull(mode);
  if (!ok)
    mlirAttributePrint(mode, containsPropagate, &ok);
  return ok;
}

/* Whether `v` is a constant of zeros (tosa.mul's shift). */
static bool isZeroConstant(MlirValue v) {
  double x;
  return faValueGetSplat(v, &x) && x == 0.0;
}

/* TOSA's logic on i1 values x[0..n) (torch's &, |, ^, ~ on masks). */
static bool readTosaLogic(Builder *b, MlirOperation def, intptr_t n, const Scalar *x,
                          Scalar *out) {
  const char *name = faOpIsA(def, "tosa.logical_and")   ? "arith.andi"
                     : faOpIsA(def, "tosa.logical_or")  ? "arith.ori"
                     : faOpIsA(def, "tosa.logical_xor") ? "arith.xori"
                                                        : NULL;
  if (name && n == 2) {
    *out = emit2(b, name, x[0], x[1]);
    return true;
  }
  if (!faOpIsA(def, "tosa.logical_not") || n != 1)
    return false;
  *out = emit2(b, "arith.xori", x[0], intConstant(b, mlirValueGetType(x[0].v), 1));
  return true;
}

/* An elementwise TOSA op at `idx`: its tensor operands (the first `n`) read
 * with TOSA's broadcast, then the scalar ops. */
static bool readTosaElementwise(Builder *b, MlirOperation def, MlirValue t, const Scalar *idx,
                                Scalar *out) {
  MlirType rt = mlirValueGetType(t), et = elementTypeOf(t);
  intptr_t rank = mlirShapedTypeGetRank(rt), n = mlirOperationGetNumOperands(def);
  bool mul = faOpIsA(def, "tosa.mul");
  if (mul) {
    if (n != 3 || !isZeroConstant(mlirOperationGetOperand(def, 2)))
      return false;
    visit(b, faValueGetDefiningOp(mlirOperationGetOperand(def, 2)));
    n = 2;
  }
  if (n < 1 || n > 3 || mlirOperationGetNumResults(def) != 1 || !mlirShapedTypeHasStaticShape(rt))
    return false;
  Scalar x[3];
  for (intptr_t k = 0; k < n; ++k) {
    MlirValue in = mlirOperationGetOperand(def, k);
    MlirType it = mlirValueGetType(in);
    if (!mlirTypeIsARankedTensor(it) || mlirShapedTypeGetRank(it) != rank ||
        !mlirShapedTypeHasStaticShape(it))
      return false;
    Scalar inIdx[kMaxRank];
    for (intptr_t d = 0; d < rank; ++d)
      inIdx[d] = mlirShapedTypeGetDimSize(it, d) == 1 ? b->zero : idx[d];
    if (!readTensor(b, in, inIdx, &x[k]))
      return false;
  }
  if (faOpIsA(def, "tosa.select")) {
    if (n != 3 || !mlirTypeEqual(mlirValueGetType(x[1].v), et) ||
        !mlirTypeEqual(mlirValueGetType(x[2].v), et))
      return false;
    *out = emitSelect(b, x[0], x[1], x[2]);
    return true;
  }
  MlirType xt = mlirValueGetType(x[0].v);
  bool fl = isFloat(xt);
  if (!fl && !isInt(xt))
    return false;
  for (intptr_t k = 1; k < n; ++k)
    if (!mlirTypeEqual(mlirValueGetType(x[k].v), xt))
      return false;
  if (faOpIsA(def, "tosa.cast"))
    return n == 1 && castScalar(b, x[0], et, out);
  bool cmp = faOpIsA(def, "tosa.greater") || faOpIsA(def, "tosa.greater_equal") ||
             faOpIsA(def, "tosa.equal");
  if (!cmp && !mlirTypeEqual(xt, et))
    return false; /* the other ops keep their operands' type */
  if (cmp && n == 2) {
    int64_t pred = faOpIsA(def, "tosa.greater")         ? (fl ? kCmpfOgt : kCmpiSgt)
                   : faOpIsA(def, "tosa.greater_equal") ? (fl ? kCmpfOge : kCmpiSge)
                                                        : (fl ? kCmpfOeq : kCmpiEq);
    *out = emitCmp(b, fl, pred, x[0], x[1]);
    return true;
  }
  if (!fl && mlirIntegerTypeGetWidth(xt) == 1)
    return readTosaLogic(b, def, n, x, out); /* i1: only logic */
  if (n == 2) {
    const char *name = NULL;
    if (faOpIsA(def, "tosa.add"))
      name = fl ? "arith.addf" : "arith.addi";
    else if (faOpIsA(def, "tosa.sub"))
      name = fl ? "arith.subf" : "arith.subi";
    else if (mul)
      name = fl ? "arith.mulf" : "arith.muli";
    else if (faOpIsA(def, "tosa.minimum") && propagatesNan(def))
      name = fl ? "arith.minimumf" : "arith.minsi";
    else if (faOpIsA(def, "tosa.maximum") && propagatesNan(def))
      name = fl ? "arith.maximumf" : "arith.maxsi";
    if (!name)
      return false;
    *out = emit2(b, name, x[0], x[1]);
    return true;
  }
  if (n != 1)
    return false;
  if (faOpIsA(def, "tosa.abs")) {
    *out = fl ? emit1(b, "math.absf", x[0], et)
              : emit2(b, "arith.maxsi", x[0], emit2(b, "arith.subi", intConstant(b, et, 0), x[0]));
    return true;
  }
  if (faOpIsA(def, "tosa.clamp")) {
    MlirAttribute lo = faOpGetAttr(def, "min_val"), hi = faOpGetAttr(def, "max_val");
    if (mlirAttributeIsNull(lo) || mlirAttributeIsNull(hi) ||
        !mlirTypeEqual(mlirAttributeGetType(lo), et) ||
        !mlirTypeEqual(mlirAttributeGetType(hi), et) || !propagatesNan(def))
      return false;
    if (fl)
      *out = emit2(b, "arith.maximumf", emit2(b, "arith.minimumf", x[0], constant(b, hi)),
                   constant(b, lo));
    else
      *out = emit2(b, "arith.minsi", constant(b, hi), emit2(b, "arith.maxsi", constant(b, lo), x[0]));
    return true;
  }
  if (!fl)
    return false;
  if (faOpIsA(def, "tosa.reciprocal")) {
    *out = emit2(b, "arith.divf", floatConstant(b, et, 1.0), x[0]);
    return true;
  }
  const char *name = faOpIsA(def, "tosa.log")     ? "math.log"
                     : faOpIsA(def, "tosa.exp")   ? "math.exp"
                     : faOpIsA(def, "tosa.floor") ? "math.floor"
                     : faOpIsA(def, "tosa.ceil")  ? "math.ceil"
                                                  : NULL;
  if (!name)
    return false;
  *out = emit1(b, name, x[0], et);
  return true;
}

/* `idx` (index values) over `sizes` flattened row-major; the components are
 * remembered so that a reshape back finds them (no divisions). */
static Scalar linearize(Builder *b, int n, const Scalar *idx, const int64_t *sizes) {
  Scalar comps[kMaxRank];
  int64_t compSizes[kMaxRank];
  int m = 0;
  for (int k = 0; k < n; ++k)
    if (sizes[k] != 1) {
      comps[m] = idx[k];
      compSizes[m++] = sizes[k];
    }
  if (m == 0)
    return b->zero;
  if (m == 1)
    return comps[0];
  for (int k = 0; k < b->numLinear; ++k) {
    Linear *l = &b->linear[k];
    bool same = l->n == m;
    for (int c = 0; same && c < m; ++c)
      same = mlirValueEqual(l->comps[c].v, comps[c].v) && l->sizes[c] == compSizes[c];
    if (same)
      return l->value;
  }
  MlirType index = mlirIndexTypeGet(b->ctx);
  Scalar acc = comps[0];
  for (int c = 1; c < m; ++c)
    acc = emit2(b, "arith.addi", emit2(b, "arith.muli", acc, intConstant(b, index, compSizes[c])),
                comps[c]);
  if (b->numLinear < kMaxLinear) {
    Linear *l = &b->linear[b->numLinear++];
    l->n = m;
    l->value = acc;
    memcpy(l->comps, comps, sizeof comps);
    memcpy(l->sizes, compSizes, sizeof compSizes);
  }
  return acc;
}

/* The indices over `sizes` of the row-major position `lin`: the components
 * it was linearized from, if it was over these sizes, else divisions. */
static void delinearize(Builder *b, Scalar lin, int n, const int64_t *sizes, Scalar *idx) {
  int64_t compSizes[kMaxRank];
  int m = 0;
  for (int k = 0; k < n; ++k)
    if (sizes[k] != 1)
      compSizes[m++] = sizes[k];
  Scalar comps[kMaxRank];
  bool found = m <= 1;
  if (m == 1)
    comps[0] = lin;
  for (int k = 0; !found && k < b->numLinear; ++k) {
    Linear *l = &b->linear[k];
    found = mlirValueEqual(l->value.v, lin.v) && l->n == m &&
            !memcmp(l->sizes, compSizes, (size_t)m * sizeof *compSizes);
    if (found)
      memcpy(comps, l->comps, sizeof comps);
  }
  MlirType index = mlirIndexTypeGet(b->ctx);
  int64_t stride = 1;
  for (int c = m - 1; !found && c >= 0; --c) {
    Scalar q = stride == 1 ? lin : emit2(b, "arith.divui", lin, intConstant(b, index, stride));
    comps[c] = c == 0 ? q : emit2(b, "arith.remui", q, intConstant(b, index, compSizes[c]));
    stride *= compSizes[c];
  }
  for (int k = 0, c = 0; k < n; ++k)
    idx[k] = sizes[k] == 1 ? b->zero : comps[c++];
}

/* A reshape (tosa.reshape, tensor.expand_shape or collapse_shape) of
 * static shapes: the dims in groups of equal products, each group's indices
 * linearized over the result's sizes and delinearized over the source's. */
static bool readStaticReshape(Builder *b, MlirOperation def, MlirValue t, const Scalar *idx,
                              Scalar *out) {
  MlirValue src = mlirOperationGetOperand(def, 0);
  MlirType st = mlirValueGetType(src), rt = mlirValueGetType(t);
  if (faOpIsA(def, "tosa.reshape"))
    visit(b, faValueGetDefiningOp(mlirOperationGetOperand(def, 1)));
  int8_t dims[kMaxRank];
  if (faUnitReshapeGetSourceDims(def, t, dims))
    return readUnitReshape(b, def, t, idx, out);
  if (!mlirTypeIsARankedTensor(st) || !mlirShapedTypeHasStaticShape(st) ||
      !mlirShapedTypeHasStaticShape(rt) || mlirShapedTypeGetRank(st) > kMaxRank)
    return false;
  int sr = (int)mlirShapedTypeGetRank(st), rr = (int)mlirShapedTypeGetRank(rt);
  int64_t ss[kMaxRank], rs[kMaxRank];
  for (int d = 0; d < sr; ++d)
    ss[d] = mlirShapedTypeGetDimSize(st, d);
  for (int d = 0; d < rr; ++d)
    rs[d] = mlirShapedTypeGetDimSize(rt, d);
  Scalar in[kMaxRank];
  int i = 0, k = 0;
  while (i < rr || k < sr) {
    int i0 = i, k0 = k;
    int64_t pr = 1, ps = 1;
    if (i < rr)
      pr *= rs[i++];
    if (k < sr)
      ps *= ss[k++];
    while (pr != ps) {
      if (pr == 0 || ps == 0)
        return false;
      if (pr < ps && i < rr)
        pr *= rs[i++];
      else if (ps < pr && k < sr)
        ps *= ss[k++];
      else
        return false;
    }
    Scalar lin = linearize(b, i - i0, idx + i0, rs + i0);
    delinearize(b, lin, k - k0, ss + k0, in + k0);
  }
  return readTensor(b, src, in, out);
}

/* tosa.gather: out[n, w, c] = values[n, indices[n, w], c]. */
static bool readTosaGather(Builder *b, MlirOperation def, const Scalar *idx, Scalar *out) {
  MlirValue values = mlirOperationGetOperand(def, 0), indices = mlirOperationGetOperand(def, 1);
  Scalar nw[2] = {idx[0], idx[1]}, k;
  if (mlirShapedTypeGetRank(mlirValueGetType(values)) != 3 ||
      mlirShapedTypeGetRank(mlirValueGetType(indices)) != 2 || !readTensor(b, indices, nw, &k) ||
      !isInt(mlirValueGetType(k.v)))
    return false;
  b->readsIndex = true;
  Scalar at[3] = {idx[0], emit1(b, "arith.index_cast", k, mlirIndexTypeGet(b->ctx)), idx[2]};
  return readTensor(b, values, at, out);
}

/* tosa.tile of static shapes: out[.., x, ..] = in[.., x mod in_dim, ..]
 * (the index itself where the dim is not repeated, 0 where it is 1). */
static bool readTosaTile(Builder *b, MlirOperation def, MlirValue t, const Scalar *idx,
                         Scalar *out) {
  MlirValue src = mlirOperationGetOperand(def, 0);
  MlirType st = mlirValueGetType(src), rt = mlirValueGetType(t);
  if (!mlirTypeIsARankedTensor(st) || !mlirShapedTypeHasStaticShape(st) ||
      !mlirShapedTypeHasStaticShape(rt) || mlirShapedTypeGetRank(st) != mlirShapedTypeGetRank(rt) ||
      mlirShapedTypeGetRank(st) > kMaxRank)
    return false;
  visit(b, faValueGetDefiningOp(mlirOperationGetOperand(def, 1)));
  Scalar in[kMaxRank];
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(st); ++d) {
    int64_t n = mlirShapedTypeGetDimSize(st, d);
    if (n == mlirShapedTypeGetDimSize(rt, d))
      in[d] = idx[d];
    else if (n == 1)
      in[d] = b->zero;
    else
      in[d] = emit2(b, "arith.remui", idx[d], intConstant(b, mlirIndexTypeGet(b->ctx), n));
  }
  return readTensor(b, src, in, out);
}

static bool readTosa(Builder *b, MlirOperation def, MlirValue t, const Scalar *idx,
                     Scalar *out) {
  if (faOpIsA(def, "tosa.reshape"))
    return readStaticReshape(b, def, t, idx, out);
  if (faOpIsA(def, "tosa.tile"))
    return readTosaTile(b, def, t, idx, out);
  if (faOpIsA(def, "tosa.gather"))
    return readTosaGather(b, def, idx, out);
  return readTosaElementwise(b, def, t, idx, out);
}

/* The dim along which integer constant `t` (static, not a splat) counts
 * its own index (an iota: torch's arange in TOSA), or -1. */
static intptr_t iotaDim(MlirOperation def, MlirValue t) {
  MlirType type = mlirValueGetType(t);
  MlirAttribute dense = faConstantOpGetElements(def);
  if (mlirAttributeIsNull(dense) || !isInt(elementTypeOf(t)) ||
      mlirIntegerTypeGetWidth(elementTypeOf(t)) < 8 || !mlirShapedTypeHasStaticShape(type) ||
      numElements(type) > kMaxSmallTable)
    return -1;
  intptr_t rank = mlirShapedTypeGetRank(type);
  for (intptr_t d = 0; d < rank; ++d) {
    int64_t size = mlirShapedTypeGetDimSize(type, d), inner = 1;
    if (size == 1)
      continue;
    for (intptr_t e = d + 1; e < rank; ++e)
      inner *= mlirShapedTypeGetDimSize(type, e);
    bool ok = true;
    for (int64_t pos = 0; ok && pos < numElements(type); ++pos)
      ok = faDenseElementGet(dense, (intptr_t)pos) == (double)((pos / inner) % size);
    if (ok)
      return d;
  }
  return -1;
}

/* A constant tensor: its splat value, the index an iota counts, or (any
 * other) a capture. */
static bool readConstant(Builder *b, MlirOperation def, MlirValue t, const Scalar *idx,
                         Scalar *out) {
  MlirAttribute value = faConstantOpGetValue(def);
  if (!mlirAttributeIsNull(value) && mlirAttributeIsADenseElements(value) &&
      mlirDenseElementsAttrIsSplat(value)) {
    *out = constant(b, mlirDenseElementsAttrGetSplatValue(value));
    return true;
  }
  intptr_t d = iotaDim(def, t);
  if (d >= 0) {
    b->readsIndex = true;
    *out = emit1(b, "arith.index_cast", idx[d], elementTypeOf(t));
    return true;
  }
  return readCapture(b, t, idx, out);
}

static bool readOp(Builder *b, MlirOperation def, MlirValue t, const Scalar *idx, Scalar *out) {
  int64_t perm[kMaxRank];
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(t));
  if (faOpIsA(def, "arith.constant") || faOpIsA(def, "tosa.const"))
    return readConstant(b, def, t, idx, out);
  if (faOpIsA(def, "linalg.fill") || faOpIsA(def, "tensor.splat"))
    return readOutside(b, mlirOperationGetOperand(def, 0), out);
  if (faOpIsA(def, "linalg.generic"))
    return readGeneric(b, def, mlirOpResultGetResultNumber(t), idx, out);
  if (faOpIsA(def, "linalg.broadcast"))
    return readBroadcast(b, def, idx, out);
  if (faOpIsA(def, "linalg.transpose") || faOpIsA(def, "tosa.transpose")) {
    MlirValue in = faTransposeGetInput(def, perm, rank);
    Scalar inIdx[kMaxRank];
    for (intptr_t d = 0; in.ptr && d < rank; ++d)
      inIdx[perm[d]] = idx[d];
    return in.ptr && readTensor(b, in, inIdx, out);
  }
  if (faOpIsA(def, "tensor.expand_shape") || faOpIsA(def, "tensor.collapse_shape"))
    return readStaticReshape(b, def, t, idx, out);
  if (isTensorArith(def))
    return readTensorArith(b, def, idx, out);
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(def));
  if (name.length > 5 && !strncmp(name.data, "tosa.", 5))
    return readTosa(b, def, t, idx, out);
  return false;
}

/* The element of tensor `t` at `idx` (memoized: a value the source reads
 * twice is computed once). Function arguments are captures; any other
 * producer must be one readOp understands. */
static bool readTensor(Builder *b, MlirValue t, const Scalar *idx, Scalar *out) {
  MlirType type = mlirValueGetType(t);
  if (!mlirTypeIsARankedTensor(type) || mlirShapedTypeGetRank(type) > kMaxRank)
    return false;
  intptr_t rank = mlirShapedTypeGetRank(type);
  for (int k = 0; k < b->numMemo; ++k) {
    Memo *m = &b->memo[k];
    bool same = mlirValueEqual(m->tensor, t);
    for (intptr_t d = 0; same && d < rank; ++d)
      same = mlirValueEqual(m->idx[d], idx[d].v);
    if (same) {
      *out = m->value;
      return true;
    }
  }
  MlirOperation def = faValueGetDefiningOp(t);
  bool ok = mlirOperationIsNull(def) ? readCapture(b, t, idx, out) : readOp(b, def, t, idx, out);
  if (!ok || b->numMemo == kMaxMemo)
    return false;
  if (!mlirOperationIsNull(def))
    visit(b, def);
  Memo *m = &b->memo[b->numMemo++];
  m->tensor = t;
  m->rank = rank;
  for (intptr_t d = 0; d < rank; ++d)
    m->idx[d] = idx[d].v;
  m->value = *out;
  return true;
}

/* --- the function --------------------------------------------------------- */

/* Whether every capture is small: never a data tensor read at [.., i, .., j]
 * (that stays the bias operand: the same bytes, read per score), and one
 * read at a position computed from both i and j (a gather) only from a
 * static table of at most kMaxSmallTable elements. */
static bool capturesAreSmall(const Builder *b) {
  for (int c = 0; c < b->numCaptures; ++c) {
    MlirType t = mlirValueGetType(b->captures[c].tensor);
    if (b->captures[c].split)
      return false;
    if (b->captures[c].joint &&
        (!mlirShapedTypeHasStaticShape(t) || numElements(t) > kMaxSmallTable))
      return false;
  }
  return true;
}

void faIndexBiasAppendSoftcap(FaText *t, const FaIndexBiasSoftcap *softcap, const char *in,
                              const char *out) {
  faTextAppendF32Constant(t, "k", softcap->inner);
  faTextAppendF32Constant(t, "c", softcap->outer);
  faTextAppend(t,
               "  %%x = arith.%s %%%s, %%k : f32\n"
               "  %%t = math.tanh %%x : f32\n"
               "  %%%s = arith.mulf %%t, %%c : f32\n",
               softcap->innerMul ? "mulf" : "divf", in, out);
}

/* The lowest value the kernels take from score_mod as a finite score (the
 * bias operand's domain, docs/dialect.md, is -FLT_MAX / log2(e)). */
static const double kLowestScore = -2.3e38;

/* The skeleton, the function @NAME: `s + clamp(bias)` (or softcap(s) +
 * clamp(bias)), the bias a placeholder constant (%bias, the second op) that
 * buildBias replaces by the evaluated bias; where `form` has a visibility,
 * the fill where it is false. The clamp keeps the bias operand's domain
 * (docs/dialect.md): the kernels take bias * log2(e) no lower than the
 * lowest f32 unless it is -inf, while score_mod's result is not clamped. */
/* "  %OUT = max(%IN, kLowestScore)", -inf kept: an f32 value into the op's
 * score domain (the names %ninf, %low, %isninf, %max its own). */
static void appendClamp(FaText *t, const char *in, const char *out) {
  faTextAppend(t,
               "  %%ninf = arith.constant 0xFF800000 : f32\n"
               "  %%low = arith.constant %e : f32\n"
               "  %%isninf = arith.cmpf oeq, %%%s, %%ninf : f32\n"
               "  %%max = arith.maximumf %%%s, %%low : f32\n"
               "  %%%s = arith.select %%isninf, %%ninf, %%max : f32\n",
               kLowestScore, in, in, out);
}

/* The function's end: `%result` returned, or where `form` has a visibility
 * the fill where it is false (clamped into the op's domain as the bias is). */
static void appendReturn(FaText *t, const FaIndexBiasForm *form, const char *result) {
  if (form && form->visible) {
    faTextAppend(t, "%s", form->visible);
    faTextAppendF32Constant(t, "fill", isinf(form->fill) ? form->fill
                                                         : fmax(form->fill, kLowestScore));
    faTextAppend(t, "  %%rv = arith.select %%%s, %%%s, %%fill : f32\n", form->visibleName,
                 result);
    result = "rv";
  }
  faTextAppend(t, "  func.return %%%s : f32\n}\n", result);
}

/* A skeleton's head: @NAME's signature, the placeholder %bias (the second
 * op, of type `biasType`) and, with `softcap`, the capped score %s of the
 * argument %s0. */
static void appendHead(FaText *t, const char *name, const FaIndexBiasSoftcap *softcap,
                       const char *biasType) {
  faTextAppend(t,
               "func.func private @%s(%%%s: f32, %%b: index, %%h: index, %%i: index, "
               "%%j: index) -> f32 {\n"
               "  %%c0 = arith.constant 0 : index\n"
               "  %%bias = arith.constant 0.0 : %s\n",
               name, softcap ? "s0" : "s", biasType);
  if (softcap)
    faIndexBiasAppendSoftcap(t, softcap, "s0", "s");
}

/* The half form's skeleton: the sum rounded as the source rounds it (under
 * the form's visibility as the f32 form's: BLOOM's f16 baddbmm under its
 * causal fill; after the form's softcap, in f32 as the f32 form computes it, then rounded to
 * the half type: Gemma-2's bf16 padding mask), the placeholder %bias of the
 * bias's own type `biasType` (f32 or `half`). */
static bool appendHalfSkeleton(MlirOperation table, const char *name, const FaIndexBiasForm *form,
                               MlirType biasType) {
  const char *h = mlirTypeIsAF16(form->half) ? "f16" : "bf16";
  bool biasHalf = mlirTypeEqual(biasType, form->half);
  FaText t;
  faTextInit(&t);
  appendHead(&t, name, form->softcap, biasHalf ? h : "f32");
  if (form->addInHalf) {
    faTextAppend(&t, "  %%sh = arith.truncf %%s : f32 to %s\n", h);
    if (biasHalf)
      faTextAppend(&t, "  %%rh = arith.addf %%sh, %%bias : %s\n", h);
    else
      faTextAppend(&t,
                   "  %%bh = arith.truncf %%bias : f32 to %s\n"
                   "  %%rh = arith.addf %%sh, %%bh : %s\n",
                   h, h);
  } else {
    if (biasHalf)
      faTextAppend(&t,
                   "  %%bf = arith.extf %%bias : %s to f32\n"
                   "  %%sum = arith.addf %%s, %%bf : f32\n",
                   h);
    else
      faTextAppend(&t, "  %%sum = arith.addf %%s, %%bias : f32\n");
    faTextAppend(&t, "  %%rh = arith.truncf %%sum : f32 to %s\n", h);
  }
  /* Into the op's domain as the f32 form's bias is (bf16's lowest is below
   * -2.36e38): -inf stays -inf. */
  faTextAppend(&t, "  %%re = arith.extf %%rh : %s to f32\n", h);
  appendClamp(&t, "re", "r");
  appendReturn(&t, form, "r");
  bool ok = mlirLogicalResultIsSuccess(faModuleAppendParsed(table, &t));
  faTextDestroy(&t);
  return ok;
}

static bool appendSkeleton(MlirOperation table, const char *name, const FaIndexBiasForm *form) {
  const FaIndexBiasSoftcap *softcap = form ? form->softcap : NULL;
  FaText t;
  faTextInit(&t);
  appendHead(&t, name, softcap, "f32");
  appendClamp(&t, "bias", "clamped");
  faTextAppend(&t, "  %%r = arith.addf %%s, %%clamped : f32\n");
  appendReturn(&t, form, "r");
  bool ok = mlirLogicalResultIsSuccess(faModuleAppendParsed(table, &t));
  faTextDestroy(&t);
  return ok;
}

static MlirOperation lookup(MlirOperation table, const char *name) {
  MlirSymbolTable st = mlirSymbolTableCreate(table);
  MlirOperation fn = mlirSymbolTableLookup(st, mlirStringRefCreateFromCString(name));
  mlirSymbolTableDestroy(st);
  return fn;
}

/* Sets `fn`'s function_type to its entry block's arguments -> `result`. */
static void retype(MlirOperation fn, MlirType result) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  MlirType inputs[5 + FA_ATTENTION_MAX_CAPTURES];
  intptr_t n = mlirBlockGetNumArguments(entry);
  for (intptr_t k = 0; k < n; ++k)
    inputs[k] = mlirValueGetType(mlirBlockGetArgument(entry, k));
  MlirType type = mlirFunctionTypeGet(mlirOperationGetContext(fn), n, inputs, 1, &result);
  mlirOperationSetAttributeByName(fn, mlirStringRefCreateFromCString("function_type"),
                                  mlirTypeAttrGet(type));
}

/* Erases the function's ops whose results are unused (a reshape's
 * linearized position once a reshape back found its components). */
static void eraseUnused(MlirBlock entry) {
  for (bool changed = true; changed;) {
    changed = false;
    MlirOperation op = mlirBlockGetFirstOperation(entry);
    while (!mlirOperationIsNull(op)) {
      MlirOperation next = mlirOperationGetNextInBlock(op);
      bool dead = mlirOperationGetNumResults(op) > 0 && !mlirOperationGetNumRegions(op);
      for (intptr_t r = 0; dead && r < mlirOperationGetNumResults(op); ++r)
        dead = mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, r)));
      if (dead) {
        mlirOperationDestroy(op);
        changed = true;
      }
      op = next;
    }
  }
}

/* Evaluates the op's bias at (b, h, i, j) into `fn` (the skeleton): a unit
 * dim of the bias is read at 0. False where anything is not understood. */
static bool buildBias(Builder *b, MlirOperation fn, MlirValue bias, MlirType half) {
  MlirRegion body = mlirOperationGetRegion(fn, 0);
  b->entry = mlirRegionGetFirstBlock(body);
  MlirOperation c0 = mlirBlockGetFirstOperation(b->entry);
  b->anchor = mlirOperationGetNextInBlock(c0); /* the placeholder */
  b->zero = scalar(mlirOperationGetResult(c0, 0), 0);
  for (int d = 0; d < 4; ++d)
    b->args[d] = scalar(mlirBlockGetArgument(b->entry, 1 + d), 1u << d);
  MlirType type = mlirValueGetType(bias);
  Scalar idx[4], value;
  for (int d = 0; d < 4; ++d) {
    /* A dynamic dim of size 1 at run time is broadcast by the kernels:
     * which index it reads is not known here. */
    if (mlirShapedTypeIsDynamicDim(type, d))
      return false;
    idx[d] = mlirShapedTypeGetDimSize(type, d) == 1 ? b->zero : b->args[d];
  }
  if (!readTensor(b, bias, idx, &value) ||
      (!b->anyBias && (!b->readsIndex || !capturesAreSmall(b))))
    return false;
  MlirType et = elementTypeOf(bias), f32 = mlirF32TypeGet(b->ctx);
  if (half.ptr) {
    /* The skeleton takes the bias in its own type, f32 or that half. */
    if (!mlirTypeEqual(et, half) && !mlirTypeEqual(et, f32))
      return false;
  } else if (!mlirTypeEqual(et, f32)) {
    if (!mlirTypeIsAF16(et) && !mlirTypeIsABF16(et))
      return false;
    /* As the kernels extend a half bias operand. */
    value.v = mlirOperationGetResult(
        faOperationCreateBefore(b->anchor, "arith.extf", 1, &value.v, 1, &f32, 0, NULL), 0);
  }
  MlirOperation placeholder = b->anchor;
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(placeholder, 0), value.v);
  mlirOperationDestroy(placeholder);
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(b->zero.v)))
    mlirOperationDestroy(c0);
  eraseUnused(b->entry);
  retype(fn, f32);
  return true;
}

/* The op's operands with `captures` in place of its bias (operand 3, after
 * Q, K and V), and its operand segments so. */
static void setOperands(MlirOperation attn, const Builder *b) {
  MlirValue operands[16];
  intptr_t n = 0;
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(attn); ++k)
    if (k != FA_ATTENTION_SEGMENT_BIAS)
      operands[n++] = mlirOperationGetOperand(attn, k);
  int32_t segments[FA_ATTENTION_SEGMENT_COUNT];
  for (int s = 0; s < FA_ATTENTION_SEGMENT_COUNT; ++s)
    segments[s] = !mlirValueIsNull(faGridwiseAttentionGetOperand(attn, s));
  segments[FA_ATTENTION_SEGMENT_BIAS] = 0;
  for (int c = 0; c < b->numCaptures; ++c) {
    operands[n++] = b->captures[c].tensor;
    segments[FA_ATTENTION_SEGMENT_CAPTURE0 + c] = 1;
  }
  mlirOperationSetOperands(attn, n, operands);
  mlirOperationSetAttributeByName(
      attn,
      mlirStringRefCreateFromCString(
          faGridwiseAttentionGetAttrName(FA_ATTENTION_ATTR_OPERAND_SEGMENT_SIZES)),
      mlirDenseI32ArrayGet(b->ctx, FA_ATTENTION_SEGMENT_COUNT, segments));
}

/* Appends the captures' types to the mask function's arguments (both
 * functions take the op's captures). */
static void extendMask(MlirOperation mask, const Builder *b) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(mask, 0));
  for (int c = 0; c < b->numCaptures; ++c)
    mlirBlockAddArgument(entry, mlirValueGetType(b->captures[c].tensor), b->loc);
  retype(mask, mlirIntegerTypeGet(b->ctx, 1));
}

static MlirLogicalResult ignoreDiagnostic(MlirDiagnostic d, void *userData) {
  (void)d;
  (void)userData;
  return mlirLogicalResultSuccess();
}

/* The op and its functions verify (diagnostics swallowed: a failure only
 * keeps the dense bias). */
static bool verifies(MlirOperation attn, MlirOperation fn) {
  MlirContext ctx = mlirOperationGetContext(attn);
  MlirDiagnosticHandlerID id = mlirContextAttachDiagnosticHandler(ctx, ignoreDiagnostic, NULL,
                                                                  NULL);
  bool ok = mlirOperationVerify(fn) && mlirLogicalResultIsSuccess(faOperationVerify(attn));
  mlirContextDetachDiagnosticHandler(ctx, id);
  return ok;
}

/* Whether `attn` is one this step takes: a bias, no score_mod, no captures. */
static bool isCandidate(MlirOperation attn) {
  return !mlirValueIsNull(faGridwiseAttentionGetBias(attn)) &&
         mlirAttributeIsNull(faGridwiseAttentionGetAttr(attn, FA_ATTENTION_ATTR_SCORE_MOD)) &&
         faGridwiseAttentionGetNumCaptures(attn) == 0 &&
         mlirOperationGetNumOperands(attn) <= 16 - FA_ATTENTION_MAX_CAPTURES;
}

/* The scalar captures' rank-0 tensors, unused where the dense bias stays. */
static void eraseWrappers(Builder *b) {
  for (int k = 0; k < b->numWrappers; ++k)
    mlirOperationDestroy(b->wrappers[k]);
  b->numWrappers = 0;
}

/* Puts `attn` back as it was: operands, segments, no score_mod, the mask's
 * signature. */
static void restore(MlirOperation attn, intptr_t n, const MlirValue *operands,
                    MlirAttribute segments, MlirOperation mask, const Builder *b) {
  mlirOperationSetOperands(attn, n, operands);
  mlirOperationSetAttributeByName(
      attn,
      mlirStringRefCreateFromCString(
          faGridwiseAttentionGetAttrName(FA_ATTENTION_ATTR_OPERAND_SEGMENT_SIZES)),
      segments);
  mlirOperationRemoveAttributeByName(
      attn, mlirStringRefCreateFromCString(
                faGridwiseAttentionGetAttrName(FA_ATTENTION_ATTR_SCORE_MOD)));
  if (mlirOperationIsNull(mask))
    return;
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(mask, 0));
  for (int c = b->numCaptures; c > 0; --c)
    mlirBlockEraseArgument(entry, (unsigned)(mlirBlockGetNumArguments(entry) - 1));
  retype(mask, mlirIntegerTypeGet(b->ctx, 1));
}

/* Dead producers of the bias: the ops read through, and the destinations
 * and constants they leave. */
static const char *const kDeadProducers[] = {"tensor.empty", "linalg.fill", "arith.constant",
                                             "tosa.const", "tosa.const_shape", NULL};

/* The rewrite of faIndexBiasToScoreMod (and of its softcap variant): the
 * producers read through are erased where they died, or listed. */
static bool toScoreMod(MlirRewriterBase rewriter, MlirOperation attn, MlirOperation table,
                       const FaIndexBiasForm *form, FaIndexBiasProducers *producers) {
  if (mlirOperationIsNull(attn) || mlirOperationIsNull(table) || !isCandidate(attn))
    return false;
  char name[64];
  faModuleUniqueSymbol(table, "fa_bias", name, sizeof name);
  MlirType biasType = elementTypeOf(faGridwiseAttentionGetBias(attn));
  if (!(form && form->half.ptr ? appendHalfSkeleton(table, name, form, biasType)
                               : appendSkeleton(table, name, form)))
    return false;
  MlirOperation fn = lookup(table, name);
  if (mlirOperationIsNull(fn))
    return false;
  Builder *b = calloc(1, sizeof *b);
  if (!b)
    return false;
  b->ctx = mlirOperationGetContext(attn);
  b->loc = mlirOperationGetLocation(attn);
  b->anyBias = form != NULL;
  MlirValue bias = faGridwiseAttentionGetBias(attn);
  if (!buildBias(b, fn, bias, form ? form->half : (MlirType){NULL})) {
    eraseWrappers(b);
    mlirOperationDestroy(fn);
    free(b);
    return false;
  }
  MlirValue old[16];
  intptr_t numOld = mlirOperationGetNumOperands(attn);
  for (intptr_t k = 0; k < numOld; ++k)
    old[k] = mlirOperationGetOperand(attn, k);
  MlirAttribute oldSegments =
      faGridwiseAttentionGetAttr(attn, FA_ATTENTION_ATTR_OPERAND_SEGMENT_SIZES);
  MlirOperation mask = faGridwiseAttentionGetFunction(attn, FA_ATTENTION_ATTR_MASK);
  setOperands(attn, b);
  mlirOperationSetAttributeByName(
      attn,
      mlirStringRefCreateFromCString(faGridwiseAttentionGetAttrName(FA_ATTENTION_ATTR_SCORE_MOD)),
      mlirFlatSymbolRefAttrGet(b->ctx, mlirStringRefCreateFromCString(name)));
  if (!mlirOperationIsNull(mask) && b->numCaptures)
    extendMask(mask, b);
  bool ok = verifies(attn, fn);
  if (!ok) {
    restore(attn, numOld, old, oldSegments, b->numCaptures ? mask : (MlirOperation){NULL}, b);
    eraseWrappers(b);
    mlirOperationDestroy(fn);
  } else if (producers) {
    producers->n = 0;
    for (int k = 0; k < b->numVisited; ++k)
      producers->ops[producers->n++] = b->visited[k];
  } else {
    faEraseDeadOps(rewriter, b->visited, (size_t)b->numVisited, kDeadProducers);
  }
  free(b);
  return ok;
}

bool faIndexBiasToScoreMod(MlirRewriterBase rewriter, MlirOperation attn,
                           MlirOperation table) {
  return toScoreMod(rewriter, attn, table, NULL, NULL);
}

bool faIndexBiasToScoreModIn(MlirRewriterBase rewriter, MlirOperation attn, MlirOperation table,
                             const FaIndexBiasForm *form, FaIndexBiasProducers *producers) {
  return form && producers && toScoreMod(rewriter, attn, table, form, producers);
}
