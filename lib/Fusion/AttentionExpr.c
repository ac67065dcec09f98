/* Scalar expression trees of tensor computations (see AttentionExpr.h). */
#include "Fusion/AttentionExpr.h"
#include "Support/Builders.h"
#include "Support/IRText.h"

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Linalg.h"

#include <math.h>
#include <string.h>

void faExprBuilderInit(FaExprBuilder *b) {
  b->numNodes = 0;
  b->error = NULL;
}

static FaExpr *fail(FaExprBuilder *b, const char *why) {
  if (!b->error)
    b->error = why;
  return NULL;
}

static FaExpr *node(FaExprBuilder *b, FaExprKind kind, MlirType type) {
  if (b->numNodes == FA_EXPR_MAX_NODES)
    return fail(b, "the chain is too large to analyze");
  FaExpr *e = &b->nodes[b->numNodes++];
  memset(e, 0, sizeof(*e));
  e->kind = kind;
  e->type = type;
  return e;
}

FaExpr *faExprNew(FaExprBuilder *b, FaExprKind kind, MlirType type) {
  return node(b, kind, type);
}

/* --- constants -------------------------------------------------------------- */

static double halfToDouble(uint16_t h, bool bf16) {
  if (bf16) {
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, 4);
    return f;
  }
  int exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (exp == 0)
    return sign * ldexp(mant, -24);
  if (exp == 31)
    return mant ? NAN : sign * INFINITY;
  return sign * ldexp(mant + 1024, exp - 25);
}

/* Element `pos` of a dense_resource attribute (blobs are never splats). */
static double resourceElementGet(MlirAttribute a, MlirType et, intptr_t pos) {
  if (mlirTypeIsAF32(et))
    return mlirDenseFloatResourceElementsAttrGetValue(a, pos);
  if (mlirTypeIsAF64(et))
    return mlirDenseDoubleResourceElementsAttrGetValue(a, pos);
  bool isUnsigned = mlirIntegerTypeIsUnsigned(et);
  switch (mlirIntegerTypeGetWidth(et)) {
  case 1: return mlirDenseBoolResourceElementsAttrGetValue(a, pos);
  case 8: return isUnsigned ? mlirDenseUInt8ResourceElementsAttrGetValue(a, pos)
                            : mlirDenseInt8ResourceElementsAttrGetValue(a, pos);
  case 32: return mlirDenseInt32ResourceElementsAttrGetValue(a, pos);
  default: return (double)mlirDenseInt64ResourceElementsAttrGetValue(a, pos);
  }
}

double faDenseElementGet(MlirAttribute dense, intptr_t pos) {
  MlirType et = mlirShapedTypeGetElementType(mlirAttributeGetType(dense));
  if (mlirAttributeIsADenseResourceElements(dense))
    return resourceElementGet(dense, et, pos);
  if (mlirDenseElementsAttrIsSplat(dense))
    pos = 0;
  if (mlirTypeIsAF32(et))
    return mlirDenseElementsAttrGetFloatValue(dense, pos);
  if (mlirTypeIsAF64(et))
    return mlirDenseElementsAttrGetDoubleValue(dense, pos);
  if (mlirTypeIsAF16(et) || mlirTypeIsABF16(et))
    return halfToDouble(((const uint16_t *)mlirDenseElementsAttrGetRawData(dense))[pos],
                        mlirTypeIsABF16(et));
  switch (mlirIntegerTypeGetWidth(et)) {
  case 1: return mlirDenseElementsAttrGetBoolValue(dense, pos);
  case 8: return mlirDenseElementsAttrGetInt8Value(dense, pos);
  case 16: return mlirDenseElementsAttrGetInt16Value(dense, pos);
  case 32: return mlirDenseElementsAttrGetInt32Value(dense, pos);
  default: return (double)mlirDenseElementsAttrGetInt64Value(dense, pos);
  }
}

static bool attrSplat(MlirAttribute a, double *out) {
  if (mlirAttributeIsAFloat(a)) {
    *out = mlirFloatAttrGetValueDouble(a);
    return true;
  }
  if (mlirAttributeIsAInteger(a)) {
    *out = (double)mlirIntegerAttrGetValueInt(a);
    return true;
  }
  if (mlirAttributeIsADenseElements(a) && mlirDenseElementsAttrIsSplat(a)) {
    MlirType et = mlirShapedTypeGetElementType(mlirAttributeGetType(a));
    if (!mlirTypeIsAFloat(et) && !mlirTypeIsAInteger(et))
      return false;
    *out = faDenseElementGet(a, 0);
    return true;
  }
  return false;
}

MlirAttribute faConstantOpGetValue(MlirOperation op) {
  if (faOpIsA(op, "arith.constant"))
    return faOpGetAttr(op, "value");
  if (faOpIsA(op, "tosa.const"))
    return faOpGetAttr(op, "values");
  return mlirAttributeGetNull();
}

/* Bytes each element of a dense_resource of element type `et` takes in its
 * blob, or 0 for a type faDenseElementGet does not read from blobs. */
static int64_t resourceElementBytes(MlirType et) {
  if (mlirTypeIsAF32(et))
    return 4;
  if (mlirTypeIsAF64(et))
    return 8;
  if (!mlirTypeIsAInteger(et))
    return 0;
  switch (mlirIntegerTypeGetWidth(et)) {
  case 1: case 8: return 1;
  case 32: return 4;
  case 64: return 8;
  default: return 0;
  }
}

/* Data bytes of the blob behind the dense_resource that constant `op` holds,
 * or -1 when it has none. The parser accepts a missing blob and one shorter
 * than the type, and the C API reads blobs unchecked; a blob's size shows
 * only in the resource section of a printed module that uses it, so a module
 * holding a copy of `op` is printed. */
static int64_t resourceBlobBytes(MlirOperation op) {
  MlirModule tmp = mlirModuleCreateEmpty(mlirOperationGetLocation(op));
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(tmp), mlirOperationClone(op));
  FaText text;
  faTextInit(&text);
  mlirOperationPrint(mlirModuleGetOperation(tmp), faTextAppendStringRef, &text);
  mlirModuleDestroy(tmp);
  const char *section = text.data ? strstr(text.data, "dialect_resources") : NULL;
  const char *hex = section ? strstr(section, "\"0x") : NULL;
  int64_t bytes = -1;
  if (hex) {
    size_t digits = strspn(hex + 3, "0123456789abcdefABCDEF");
    bytes = (int64_t)digits / 2 - 4; /* the first 4 bytes hold the alignment */
  }
  faTextDestroy(&text);
  return bytes;
}

enum { RESOURCE_MAX_BYTES = 1 << 24 };

MlirAttribute faConstantOpGetElements(MlirOperation op) {
  MlirAttribute a = faConstantOpGetValue(op);
  if (mlirAttributeIsNull(a) || mlirAttributeIsADenseElements(a))
    return a;
  if (!mlirAttributeIsADenseResourceElements(a))
    return mlirAttributeGetNull();
  int64_t each = resourceElementBytes(mlirShapedTypeGetElementType(mlirAttributeGetType(a)));
  int64_t need = each * mlirElementsAttrGetNumElements(a);
  bool complete = each > 0 && need <= RESOURCE_MAX_BYTES && resourceBlobBytes(op) >= need;
  return complete ? a : mlirAttributeGetNull();
}

bool faValueGetSplat(MlirValue v, double *out) {
  MlirOperation def = faValueGetDefiningOp(v);
  MlirAttribute value = faConstantOpGetValue(def);
  if (!mlirAttributeIsNull(value))
    return attrSplat(value, out);
  if (faOpIsA(def, "linalg.fill"))
    return faValueGetSplat(mlirOperationGetOperand(def, 0), out);
  return false;
}

/* --- elementwise ops ------------------------------------------------------- */

static MlirType elementType(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsAShaped(t) ? mlirShapedTypeGetElementType(t) : t;
}

/* Maps op names (arith in bodies, tosa on tensors) to expression kinds. */
typedef struct {
  const char *name;
  FaExprKind kind;
  int arity;
} KindEntry;

static const KindEntry kKinds[] = {
    {"arith.addf", FA_EXPR_ADD, 2},      {"arith.addi", FA_EXPR_ADD, 2},
    {"arith.subf", FA_EXPR_SUB, 2},      {"arith.subi", FA_EXPR_SUB, 2},
    {"arith.mulf", FA_EXPR_MUL, 2},      {"arith.muli", FA_EXPR_MUL, 2},
    {"arith.divf", FA_EXPR_DIV, 2},      {"arith.maximumf", FA_EXPR_MAX, 2},
    {"arith.maxnumf", FA_EXPR_MAX, 2},   {"math.exp", FA_EXPR_EXP, 1},
    {"arith.negf", FA_EXPR_NEG, 1},      {"arith.extf", FA_EXPR_CAST, 1},
    {"arith.truncf", FA_EXPR_CAST, 1},   {"arith.select", FA_EXPR_SELECT, 3},
    {"arith.cmpi", FA_EXPR_CMP, 2},      {"arith.cmpf", FA_EXPR_CMP, 2},
    {"tosa.add", FA_EXPR_ADD, 2},        {"tosa.sub", FA_EXPR_SUB, 2},
    {"tosa.mul", FA_EXPR_MUL, 2},        {"tosa.maximum", FA_EXPR_MAX, 2},
    {"tosa.exp", FA_EXPR_EXP, 1},        {"tosa.reciprocal", FA_EXPR_RECIP, 1},
    {"tosa.cast", FA_EXPR_CAST, 1},      {"tosa.select", FA_EXPR_SELECT, 3},
    {"tosa.greater", FA_EXPR_CMP, 2},    {"tosa.greater_equal", FA_EXPR_CMP, 2},
    {"tosa.equal", FA_EXPR_CMP, 2},      {"arith.andi", FA_EXPR_AND, 2},
    {"tosa.logical_and", FA_EXPR_AND, 2}, {"math.log", FA_EXPR_LOG, 1},
    {"tosa.log", FA_EXPR_LOG, 1},        {"math.absf", FA_EXPR_ABS, 1},
    {"tosa.abs", FA_EXPR_ABS, 1},        {"math.sqrt", FA_EXPR_SQRT, 1},
    {"math.rsqrt", FA_EXPR_RSQRT, 1},    {"tosa.rsqrt", FA_EXPR_RSQRT, 1},
    {"math.tanh", FA_EXPR_TANH, 1},      {"tosa.tanh", FA_EXPR_TANH, 1},
    {"arith.ori", FA_EXPR_OR, 2},        {"tosa.logical_or", FA_EXPR_OR, 2},
    {"arith.xori", FA_EXPR_XOR, 2},      {"tosa.logical_xor", FA_EXPR_XOR, 2},
    {"tosa.logical_not", FA_EXPR_NOT, 1},
    {"arith.divsi", FA_EXPR_IDIV, 2},    {"arith.divui", FA_EXPR_IDIV, 2},
    {"tosa.intdiv", FA_EXPR_IDIV, 2},    {"arith.floordivsi", FA_EXPR_FLOORDIV, 2},
    {"math.absi", FA_EXPR_ABS, 1},
};

static const KindEntry *kindOf(MlirOperation op) {
  for (size_t i = 0; i < sizeof(kKinds) / sizeof(kKinds[0]); ++i)
    if (faOpIsA(op, kKinds[i].name))
      return &kKinds[i];
  return NULL;
}

/* arith.cmpi / cmpf predicate numbers, and tosa compare names, as a
 * relation and a mode. */
static bool predicateOf(MlirOperation op, FaCmp *out, FaCmpMode *mode) {
  if (faOpIsA(op, "tosa.greater") || faOpIsA(op, "tosa.greater_equal") ||
      faOpIsA(op, "tosa.equal")) {
    *out = faOpIsA(op, "tosa.greater") ? FA_CMP_GT
           : faOpIsA(op, "tosa.equal") ? FA_CMP_EQ : FA_CMP_GE;
    *mode = mlirTypeIsAFloat(elementType(mlirOperationGetOperand(op, 0)))
                ? FA_CMP_ORDERED : FA_CMP_SIGNED;
    return true;
  }
  MlirAttribute p = faOpGetAttr(op, "predicate");
  if (!mlirAttributeIsAInteger(p))
    return false;
  int64_t v = mlirIntegerAttrGetValueInt(p);
  /* cmpi: eq ne slt sle sgt sge ult ule ugt uge. */
  static const int8_t cmpi[10] = {FA_CMP_EQ, FA_CMP_NE, FA_CMP_LT, FA_CMP_LE,
                                  FA_CMP_GT, FA_CMP_GE, FA_CMP_LT, FA_CMP_LE,
                                  FA_CMP_GT, FA_CMP_GE};
  /* cmpf: false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno true. */
  static const int8_t cmpf[16] = {-1, FA_CMP_EQ, FA_CMP_GT, FA_CMP_GE, FA_CMP_LT,
                                  FA_CMP_LE, FA_CMP_NE, -1, FA_CMP_EQ, FA_CMP_GT,
                                  FA_CMP_GE, FA_CMP_LT, FA_CMP_LE, FA_CMP_NE, -1, -1};
  bool isInt = faOpIsA(op, "arith.cmpi");
  int r = v < 0 ? -1 : isInt ? (v < 10 ? cmpi[v] : -1) : (v < 16 ? cmpf[v] : -1);
  if (r < 0)
    return false;
  *out = (FaCmp)r;
  *mode = isInt ? (v >= 6 ? FA_CMP_UNSIGNED : FA_CMP_SIGNED)
                : (v >= 8 ? FA_CMP_UNORDERED : FA_CMP_ORDERED);
  return true;
}

bool faLinalgIsParallelOnly(MlirOperation generic) {
  MlirAttribute its = faOpGetAttr(generic, "iterator_types");
  MlirAttribute par = mlirAttributeParseGet(
      mlirOperationGetContext(generic),
      mlirStringRefCreateFromCString("#linalg.iterator_type<parallel>"));
  for (intptr_t i = 0, e = mlirArrayAttrGetNumElements(its); i < e; ++i)
    if (!mlirAttributeEqual(mlirArrayAttrGetElement(its, i), par))
      return false;
  return true;
}

/* Marks `e` as the value of tensor `v` read with `dims`. */
static FaExpr *setTensor(FaExpr *e, MlirValue v, const int8_t *dims) {
  if (!e)
    return NULL;
  e->tensor = v;
  e->rank = (int)mlirShapedTypeGetRank(mlirValueGetType(v));
  memcpy(e->dims, dims, (size_t)e->rank);
  return e;
}

/* sqrt, rsqrt, 1/x or x/y of constants as the source computes it at run
 * time: in f32 for f32 (each step rounded: rsqrt is 1/sqrt, as upstream
 * lowers it), in double for f64. Other kinds and types are not folded. */
static bool foldConstants(FaExprKind kind, MlirType t, double x, double y, double *out) {
  if (mlirTypeIsAF32(t)) {
    float a = (float)x, c = (float)y;
    switch (kind) {
    case FA_EXPR_SQRT: *out = sqrtf(a); return true;
    case FA_EXPR_RSQRT: *out = 1.0f / sqrtf(a); return true;
    case FA_EXPR_RECIP: *out = 1.0f / a; return true;
    case FA_EXPR_DIV: *out = a / c; return true;
    default: return false;
    }
  }
  if (mlirTypeIsAF64(t)) {
    switch (kind) {
    case FA_EXPR_SQRT: *out = sqrt(x); return true;
    case FA_EXPR_RSQRT: *out = 1.0 / sqrt(x); return true;
    case FA_EXPR_RECIP: *out = 1.0 / x; return true;
    case FA_EXPR_DIV: *out = x / y; return true;
    default: return false;
    }
  }
  return false;
}

/* A scale written as 1 / sqrt(d), rsqrt(d), sqrt(d) or tosa.reciprocal of
 * constants: one CONST that keeps its operands (for the ops they came
 * from). Null where `k` is not folded; a square root of anything else is
 * not read (*refused, b->error). */
static FaExpr *foldOp(FaExprBuilder *b, const KindEntry *k, MlirOperation op,
                      MlirOperation tensorOp, FaExpr **children, bool *refused) {
  bool sqrtKind = k->kind == FA_EXPR_SQRT || k->kind == FA_EXPR_RSQRT;
  *refused = sqrtKind;
  if (!sqrtKind && k->kind != FA_EXPR_RECIP && k->kind != FA_EXPR_DIV)
    return NULL;
  MlirType t = elementType(mlirOperationGetResult(op, 0));
  double v;
  bool consts = true;
  for (int i = 0; i < k->arity; ++i)
    consts &= children[i]->kind == FA_EXPR_CONST && mlirTypeEqual(children[i]->type, t);
  if (!consts || !foldConstants(k->kind, t, children[0]->value,
                                k->arity > 1 ? children[1]->value : 0, &v))
    return sqrtKind ? fail(b, "a linalg.generic body holds an operation the pattern "
                              "does not understand")
                    : NULL;
  *refused = false;
  FaExpr *e = node(b, FA_EXPR_CONST, t);
  if (e) {
    e->value = v;
    e->op = tensorOp;
    memcpy(e->ops, children, sizeof(FaExpr *) * (size_t)k->arity);
  }
  return e;
}

static FaExpr *makeOp(FaExprBuilder *b, const KindEntry *k, MlirOperation op,
                      MlirOperation tensorOp, FaExpr **children) {
  for (int i = 0; i < k->arity; ++i)
    if (!children[i])
      return NULL;
  bool refused;
  FaExpr *folded = foldOp(b, k, op, tensorOp, children, &refused);
  if (folded || refused)
    return folded;
  FaExpr *e = node(b, k->kind, elementType(mlirOperationGetResult(op, 0)));
  if (!e)
    return NULL;
  e->op = tensorOp;
  memcpy(e->ops, children, sizeof(FaExpr *) * (size_t)k->arity);
  if (k->kind == FA_EXPR_CMP && !predicateOf(op, &e->pred, &e->mode))
    return fail(b, "a comparison has an unsupported predicate");
  if (faOpIsA(op, "arith.divui"))
    e->mode = FA_CMP_UNSIGNED;
  return e;
}

/* Context of one inlined linalg.generic: its op, and for each of its
 * inputs the iteration dims (of the builder's space) its dims follow. */
typedef struct {
  MlirOperation op;
  MlirBlock body;
  intptr_t numInputs;
  const int8_t *loopDims; /* the generic's loop d -> builder dim */
  intptr_t numLoops;
  int8_t inputDims[8][FA_EXPR_MAX_RANK];
} GenericCtx;

static FaExpr *buildScalar(FaExprBuilder *b, const GenericCtx *g, MlirValue s);

/* Conversions from or between integers whose value a mask reader checks
 * (index_cast, extsi, trunci, sitofp; index_castui, whose CAST node has
 * mode FA_CMP_UNSIGNED: it reads a negative value as a huge one). */
static bool isIntegerConversion(MlirOperation op) {
  return faOpIsA(op, "arith.index_cast") || faOpIsA(op, "arith.index_castui") ||
         faOpIsA(op, "arith.extsi") || faOpIsA(op, "arith.trunci") ||
         faOpIsA(op, "arith.sitofp");
}

static FaExpr *buildBodyOp(FaExprBuilder *b, const GenericCtx *g,
                           MlirOperation def, MlirValue s) {
  double c;
  if (faOpIsA(def, "arith.constant") && faValueGetSplat(s, &c)) {
    FaExpr *e = node(b, FA_EXPR_CONST, mlirValueGetType(s));
    if (e) {
      e->value = c;
      e->source = def;
    }
    return e;
  }
  if (faOpIsA(def, "linalg.index") && g) {
    MlirAttribute dim = faOpGetAttr(def, "dim");
    int64_t d = mlirAttributeIsAInteger(dim) ? mlirIntegerAttrGetValueInt(dim) : -1;
    if (d < 0 || d >= g->numLoops)
      return fail(b, "linalg.index of a dimension the generic does not have");
    if (g->loopDims[d] < 0)
      return fail(b, "linalg.index of a broadcast dimension");
    FaExpr *e = node(b, FA_EXPR_INDEX, mlirValueGetType(s));
    if (e)
      e->dim = g->loopDims[d];
    return e;
  }
  if (isIntegerConversion(def)) {
    /* A conversion of an index value: the node keeps its result type, so
     * that a reader of masks can prove it exact (an index_cast to i8 of a
     * key index past 127 wraps; sitofp to f16 of one past 2048 rounds). */
    FaExpr *inner = buildScalar(b, g, mlirOperationGetOperand(def, 0));
    FaExpr *e = inner ? node(b, FA_EXPR_CAST, mlirValueGetType(s)) : NULL;
    if (e) {
      e->ops[0] = inner;
      e->op = g ? g->op : (MlirOperation){NULL};
      e->mode = faOpIsA(def, "arith.index_castui") ? FA_CMP_UNSIGNED : FA_CMP_SIGNED;
    }
    return e;
  }
  /* torch-mlir's floor division of integers: fptosi(floor(sitofp(a) /
   * sitofp(b))) in f64, read as a FLOORDIV of a and b (mode ORDERED). */
  MlirOperation fl = faOpIsA(def, "arith.fptosi")
                         ? faValueGetDefiningOp(mlirOperationGetOperand(def, 0))
                         : (MlirOperation){NULL};
  MlirOperation dv = !mlirOperationIsNull(fl) && faOpIsA(fl, "math.floor")
                         ? faValueGetDefiningOp(mlirOperationGetOperand(fl, 0))
                         : (MlirOperation){NULL};
  if (!mlirOperationIsNull(dv) && faOpIsA(dv, "arith.divf") &&
      mlirTypeIsAF64(mlirValueGetType(mlirOperationGetResult(dv, 0))) &&
      mlirTypeIsAInteger(mlirValueGetType(s))) {
    MlirOperation x = faValueGetDefiningOp(mlirOperationGetOperand(dv, 0));
    MlirOperation y = faValueGetDefiningOp(mlirOperationGetOperand(dv, 1));
    if (!mlirOperationIsNull(x) && !mlirOperationIsNull(y) && faOpIsA(x, "arith.sitofp") &&
        faOpIsA(y, "arith.sitofp")) {
      FaExpr *a = buildScalar(b, g, mlirOperationGetOperand(x, 0));
      FaExpr *c2 = a ? buildScalar(b, g, mlirOperationGetOperand(y, 0)) : NULL;
      FaExpr *e = c2 ? node(b, FA_EXPR_FLOORDIV, mlirValueGetType(s)) : NULL;
      if (e) {
        e->ops[0] = a;
        e->ops[1] = c2;
        e->op = g ? g->op : (MlirOperation){NULL};
        e->mode = FA_CMP_ORDERED;
      }
      return e;
    }
  }
  const KindEntry *k = kindOf(def);
  if (!k || mlirOperationGetNumOperands(def) != k->arity)
    return fail(b, "a linalg.generic body holds an operation the pattern does "
                   "not understand");
  FaExpr *ch[3] = {NULL, NULL, NULL};
  for (int i = 0; i < k->arity; ++i)
    ch[i] = buildScalar(b, g, mlirOperationGetOperand(def, i));
  return makeOp(b, k, def, g ? g->op : (MlirOperation){NULL}, ch);
}

static FaExpr *buildScalar(FaExprBuilder *b, const GenericCtx *g, MlirValue s) {
  if (mlirValueIsABlockArgument(s)) {
    if (!g || !mlirBlockEqual(mlirBlockArgumentGetOwner(s), g->body))
      return fail(b, "a value from an enclosing region is read");
    intptr_t n = mlirBlockArgumentGetArgNumber(s);
    if (n >= g->numInputs)
      return fail(b, "a linalg.generic reads its output tensor");
    return faExprBuild(b, mlirOperationGetOperand(g->op, n), g->inputDims[n]);
  }
  return buildBodyOp(b, g, mlirOpResultGetOwner(s), s);
}

/* Each input map result of `generic`, through `loopDims`, as builder dims. */
static bool composeInputMaps(FaExprBuilder *b, GenericCtx *g) {
  MlirAttribute maps = mlirLinalgGetIndexingMapsAttribute(g->op);
  for (intptr_t t = 0; t < g->numInputs; ++t) {
    MlirAffineMap m = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, t));
    intptr_t nr = mlirAffineMapGetNumResults(m);
    if (nr > FA_EXPR_MAX_RANK)
      return false;
    for (intptr_t j = 0; j < nr; ++j) {
      MlirAffineExpr r = mlirAffineMapGetResult(m, j);
      if (mlirAffineExprIsADim(r) && mlirAffineDimExprGetPosition(r) < g->numLoops)
        g->inputDims[t][j] = g->loopDims[mlirAffineDimExprGetPosition(r)];
      else if (mlirAffineExprIsAConstant(r) && mlirAffineConstantExprGetValue(r) == 0)
        g->inputDims[t][j] = -1;
      else
        return false;
    }
  }
  return true;
}

/* An elementwise linalg.generic producing `v` (one result, parallel loops,
 * identity output map) whose tree can be inlined. */
static FaExpr *buildGeneric(FaExprBuilder *b, MlirOperation def,
                            const int8_t *dims) {
  MlirAttribute maps = mlirLinalgGetIndexingMapsAttribute(def);
  intptr_t numOperands = mlirOperationGetNumOperands(def);
  if (mlirOperationGetNumResults(def) != 1 || numOperands > 9 ||
      !faLinalgIsParallelOnly(def) ||
      !mlirAffineMapIsIdentity(mlirAffineMapAttrGetValue(
          mlirArrayAttrGetElement(maps, numOperands - 1))))
    return NULL; /* not elementwise: a leaf */
  MlirAffineMap outMap =
      mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, numOperands - 1));
  GenericCtx g = {def, mlirRegionGetFirstBlock(mlirOperationGetRegion(def, 0)),
                  numOperands - 1, dims, mlirAffineMapGetNumDims(outMap), {{0}}};
  if (!composeInputMaps(b, &g))
    return fail(b, "a linalg.generic has indexing maps that are not "
                   "projections");
  MlirOperation yield = mlirBlockGetTerminator(g.body);
  FaExpr *e = buildScalar(b, &g, mlirOperationGetOperand(yield, 0));
  if (e && !mlirOperationEqual(e->op, def)) {
    /* The body yields a value it did not compute (an input, a constant):
     * wrap it, so that this node can stand for the generic's result. */
    FaExpr *w = node(b, FA_EXPR_CAST, e->type);
    if (w) {
      w->ops[0] = e;
      w->op = def;
    }
    e = w;
  }
  return e;
}

/* A TOSA elementwise op: operands broadcast by their unit dims. */
static FaExpr *buildTosa(FaExprBuilder *b, MlirOperation def,
                         const KindEntry *k, const int8_t *dims) {
  MlirType rt = mlirValueGetType(mlirOperationGetResult(def, 0));
  intptr_t rank = mlirShapedTypeGetRank(rt);
  FaExpr *ch[3] = {NULL, NULL, NULL};
  for (int i = 0; i < k->arity; ++i) {
    MlirValue x = mlirOperationGetOperand(def, i);
    MlirType xt = mlirValueGetType(x);
    if (!mlirTypeIsARankedTensor(xt) || mlirShapedTypeGetRank(xt) != rank)
      return fail(b, "a TOSA operand has another rank than its result");
    int8_t xd[FA_EXPR_MAX_RANK];
    for (intptr_t j = 0; j < rank; ++j)
      xd[j] = (mlirShapedTypeGetDimSize(xt, j) == 1 &&
               mlirShapedTypeGetDimSize(rt, j) != 1) ? -1 : dims[j];
    ch[i] = faExprBuild(b, x, xd);
  }
  if (faOpIsA(def, "tosa.mul") && mlirOperationGetNumOperands(def) == 3) {
    double shift;
    if (!faValueGetSplat(mlirOperationGetOperand(def, 2), &shift) || shift != 0)
      return fail(b, "a tosa.mul has a non-zero shift");
  }
  /* MIGraphX broadcasts by multiplying with ones: x * 1 is x, exactly
   * (NaN, infinities and -0 included), read through at the result's shape. */
  double one;
  for (int i = 0; faOpIsA(def, "tosa.mul") && ch[0] && ch[1] && i < 2; ++i)
    if (faValueGetSplat(mlirOperationGetOperand(def, 1 - i), &one) && one == 1.0) {
      FaExpr *w = node(b, FA_EXPR_CAST, ch[i]->type);
      if (w) {
        w->ops[0] = ch[i];
        w->op = def;
      }
      return w;
    }
  return makeOp(b, k, def, def, ch);
}

/* An expand_shape / collapse_shape whose every group has at most one dim
 * that is not a static 1 (dynamic dims included): that dim is the narrow
 * one, as the op's semantics make the group's product the narrow size. */
static bool reassociationIsUnit(MlirOperation def, MlirValue v) {
  MlirAttribute re = faOpGetAttr(def, "reassociation");
  MlirValue src = mlirOperationGetOperand(def, 0);
  MlirType wide = mlirValueGetType(faOpIsA(def, "tensor.expand_shape") ? v : src);
  intptr_t rank = mlirShapedTypeGetRank(wide);
  if (mlirAttributeIsNull(re) || !mlirAttributeIsAArray(re))
    return false;
  for (intptr_t g = 0; g < mlirArrayAttrGetNumElements(re); ++g) {
    MlirAttribute grp = mlirArrayAttrGetElement(re, g);
    if (!mlirAttributeIsAArray(grp))
      return false;
    int nonUnit = 0;
    for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(grp); ++i) {
      MlirAttribute a = mlirArrayAttrGetElement(grp, i);
      if (!mlirAttributeIsAInteger(a))
        return false;
      int64_t d = mlirIntegerAttrGetValueInt(a);
      if (d < 0 || d >= rank)
        return false;
      nonUnit += mlirShapedTypeIsDynamicDim(wide, d) || mlirShapedTypeGetDimSize(wide, d) != 1;
    }
    if (nonUnit > 1)
      return false;
  }
  return true;
}

/* A reshape that only inserts or drops unit dims (every non-unit dim keeps
 * its size and order). */
bool faOpIsUnitReshape(MlirOperation def, MlirValue v) {
  if (!faOpIsA(def, "tensor.expand_shape") && !faOpIsA(def, "tensor.collapse_shape") &&
      !faOpIsA(def, "tosa.reshape"))
    return false;
  MlirType st = mlirValueGetType(mlirOperationGetOperand(def, 0));
  MlirType rt = mlirValueGetType(v);
  if (!mlirTypeIsARankedTensor(st) || !mlirTypeIsARankedTensor(rt))
    return false;
  /* Dynamic dims: only tensor reshapes say which dims they group. */
  if (!mlirShapedTypeHasStaticShape(st) || !mlirShapedTypeHasStaticShape(rt))
    return !faOpIsA(def, "tosa.reshape") && reassociationIsUnit(def, v);
  intptr_t j = 0, rr = mlirShapedTypeGetRank(rt);
  for (intptr_t i = 0, sr = mlirShapedTypeGetRank(st); i < sr; ++i) {
    int64_t size = mlirShapedTypeGetDimSize(st, i);
    if (size == 1)
      continue;
    while (j < rr && mlirShapedTypeGetDimSize(rt, j) == 1)
      ++j;
    if (j == rr || mlirShapedTypeGetDimSize(rt, j) != size)
      return false;
    ++j;
  }
  for (; j < rr; ++j)
    if (mlirShapedTypeGetDimSize(rt, j) != 1)
      return false;
  return true;
}

/* Reads reassociation index `pos` of group `grp`: false unless it is an
 * integer in [0, rank) (source IR is read as it is, not trusted). */
static bool reassociationIndex(MlirAttribute grp, intptr_t pos, intptr_t rank,
                               int64_t *d) {
  MlirAttribute a = mlirArrayAttrGetElement(grp, pos);
  if (!mlirAttributeIsAInteger(a))
    return false;
  *d = mlirIntegerAttrGetValueInt(a);
  return *d >= 0 && *d < rank;
}

/* A unit reshape that keeps every source dim, unit ones included, in order
 * (only inserts unit dims): each source dim becomes the next result dim of
 * its size. A kept unit dim (M = 1 through [B*H, 1, N] -> [B, H, 1, N])
 * then reads as that dim, not as a broadcast. */
static bool alignAllDims(MlirType st, MlirType rt, int8_t *out) {
  intptr_t sr = mlirShapedTypeGetRank(st), rr = mlirShapedTypeGetRank(rt), j = 0;
  for (intptr_t i = 0; i < sr; ++i) {
    int64_t size = mlirShapedTypeGetDimSize(st, i);
    while (j < rr && mlirShapedTypeGetDimSize(rt, j) != size) {
      if (mlirShapedTypeGetDimSize(rt, j) != 1)
        return false;
      ++j;
    }
    if (j == rr)
      return false;
    out[i] = (int8_t)j++;
  }
  for (; j < rr; ++j)
    if (mlirShapedTypeGetDimSize(rt, j) != 1)
      return false;
  return true;
}

/* For each dim of the source of a unit reshape, the result dim it becomes
 * (-1: a dropped unit dim). tensor reshapes say it with their reassociation;
 * for tosa.reshape non-unit dims are matched in order. False if the
 * reassociation does not fit the shapes. */
static bool unitReshapeDims(MlirOperation def, MlirType st, MlirType rt,
                            int8_t *out);

bool faUnitReshapeGetSourceDims(MlirOperation def, MlirValue v, int8_t *out) {
  MlirType st = mlirValueGetType(mlirOperationGetOperand(def, 0));
  if (!faOpIsUnitReshape(def, v) || mlirShapedTypeGetRank(st) > FA_EXPR_MAX_RANK)
    return false;
  return unitReshapeDims(def, st, mlirValueGetType(v), out);
}

static bool unitReshapeDims(MlirOperation def, MlirType st, MlirType rt,
                            int8_t *out) {
  intptr_t sr = mlirShapedTypeGetRank(st), rr = mlirShapedTypeGetRank(rt);
  MlirAttribute re = faOpGetAttr(def, "reassociation");
  bool expand = faOpIsA(def, "tensor.expand_shape");
  for (intptr_t i = 0; i < sr; ++i)
    out[i] = -1;
  if (!mlirAttributeIsNull(re)) {
    MlirType wide = expand ? rt : st, narrow = expand ? st : rt;
    intptr_t narrowRank = mlirShapedTypeGetRank(narrow);
    if (!mlirAttributeIsAArray(re) || mlirArrayAttrGetNumElements(re) != narrowRank)
      return false;
    for (intptr_t g = 0; g < narrowRank; ++g) {
      MlirAttribute grp = mlirArrayAttrGetElement(re, g);
      int64_t narrowSize = mlirShapedTypeGetDimSize(narrow, g), d, pick = -1;
      if (!mlirAttributeIsAArray(grp))
        return false;
      for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(grp); ++i) {
        if (!reassociationIndex(grp, i, mlirShapedTypeGetRank(wide), &d))
          return false;
        if (pick < 0 && mlirShapedTypeGetDimSize(wide, d) == narrowSize)
          pick = d;
      }
      if (pick < 0)
        return false;
      if (expand)
        out[g] = (int8_t)pick;
      else
        out[pick] = (int8_t)g;
    }
    return true;
  }
  if (alignAllDims(st, rt, out))
    return true;
  intptr_t j = 0;
  for (intptr_t i = 0; i < sr; ++i) {
    out[i] = -1;
    if (mlirShapedTypeGetDimSize(st, i) == 1)
      continue;
    while (j < rr && mlirShapedTypeGetDimSize(rt, j) == 1)
      ++j;
    if (j == rr)
      return false;
    out[i] = (int8_t)j++;
  }
  return true;
}

/* `inner` seen through the view op `def` (a unit reshape, a broadcasting
 * tile): a no-op CAST that remembers the op. */
static FaExpr *wrapView(FaExprBuilder *b, FaExpr *inner, MlirOperation def) {
  FaExpr *w = inner ? node(b, FA_EXPR_CAST, inner->type) : NULL;
  if (w) {
    w->ops[0] = inner;
    w->op = def;
  }
  return w;
}

/* The source of a unit reshape, read through it. */
static FaExpr *buildUnitReshape(FaExprBuilder *b, MlirOperation def,
                                MlirValue v, const int8_t *dims) {
  MlirValue src = mlirOperationGetOperand(def, 0);
  MlirType st = mlirValueGetType(src), rt = mlirValueGetType(v);
  int8_t map[FA_EXPR_MAX_RANK], sd[FA_EXPR_MAX_RANK];
  intptr_t sr = mlirShapedTypeGetRank(st);
  if (sr > FA_EXPR_MAX_RANK)
    return fail(b, "a reshape in the chain has too many dims");
  if (!unitReshapeDims(def, st, rt, map))
    return fail(b, "a reshape in the chain has a reassociation that does not "
                   "fit its shapes");
  for (intptr_t i = 0; i < sr; ++i)
    sd[i] = map[i] < 0 ? -1 : dims[map[i]];
  return wrapView(b, faExprBuild(b, src, sd), def);
}

bool faConstShapeGet(MlirValue v, int64_t *out, intptr_t n) {
  MlirOperation def = faValueGetDefiningOp(v);
  if (!faOpIsA(def, "tosa.const_shape"))
    return false;
  MlirAttribute a = faOpGetAttr(def, "values");
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseElements(a) ||
      mlirElementsAttrGetNumElements(a) != n)
    return false;
  for (intptr_t i = 0; i < n; ++i)
    out[i] = mlirDenseElementsAttrGetIndexValue(a, i);
  return true;
}

/* Whether a tosa.tile repeats only unit dims (a broadcast, as TOSA exports
 * spell expand); `sd`: the dims its source is read with. */
static bool tileBroadcasts(MlirOperation def, MlirValue v, const int8_t *dims, int8_t *sd) {
  MlirValue src = mlirOperationGetOperand(def, 0);
  MlirType st = mlirValueGetType(src);
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(v));
  int64_t mult[FA_EXPR_MAX_RANK];
  if (mlirOperationGetNumOperands(def) != 2 || !mlirTypeIsARankedTensor(st) ||
      mlirShapedTypeGetRank(st) != rank ||
      !faConstShapeGet(mlirOperationGetOperand(def, 1), mult, rank))
    return false;
  for (intptr_t k = 0; k < rank; ++k) {
    if (mult[k] != 1 && mlirShapedTypeGetDimSize(st, k) != 1)
      return false;
    sd[k] = mult[k] == 1 ? dims[k] : -1;
  }
  return true;
}

FaExpr *faExprBuild(FaExprBuilder *b, MlirValue v, const int8_t *dims) {
  int8_t id[FA_EXPR_MAX_RANK], sd[FA_EXPR_MAX_RANK];
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) > FA_EXPR_MAX_RANK)
    return fail(b, "a value in the chain is not a ranked tensor");
  if (!dims) {
    for (int i = 0; i < FA_EXPR_MAX_RANK; ++i)
      id[i] = (int8_t)i;
    dims = id;
  }
  double c;
  if (faValueGetSplat(v, &c)) {
    FaExpr *e = node(b, FA_EXPR_CONST, elementType(v));
    if (e) {
      e->value = c;
      e->source = faValueGetDefiningOp(v);
    }
    return e;
  }
  MlirOperation def = faValueGetDefiningOp(v);
  if (faOpIsA(def, "linalg.generic")) {
    /* A generic the builder does not understand is an opaque leaf. */
    int mark = b->numNodes;
    FaExpr *e = buildGeneric(b, def, dims);
    if (e)
      return setTensor(e, v, dims);
    b->numNodes = mark;
    b->error = NULL;
  } else if (faOpIsUnitReshape(def, v)) {
    return setTensor(buildUnitReshape(b, def, v, dims), v, dims);
  } else if (faOpIsA(def, "tosa.tile") && tileBroadcasts(def, v, dims, sd)) {
    FaExpr *inner = faExprBuild(b, mlirOperationGetOperand(def, 0), sd);
    return setTensor(wrapView(b, inner, def), v, dims);
  } else if (!mlirOperationIsNull(def)) {
    const KindEntry *k = kindOf(def);
    /* tosa.rsqrt is read only of a constant (folded); of anything else it
     * is a leaf, as every op the builder does not understand. */
    double operand;
    bool read = k && (k->kind != FA_EXPR_RSQRT ||
                      faValueGetSplat(mlirOperationGetOperand(def, 0), &operand));
    if (read && !strncmp(k->name, "tosa.", 5))
      return setTensor(buildTosa(b, def, k, dims), v, dims);
  }
  return setTensor(node(b, FA_EXPR_LEAF, elementType(v)), v, dims);
}

void faExprForEachOp(const FaExpr *e, const FaExpr *skip,
                     void (*fn)(MlirOperation, void *), void *userData) {
  if (!e || e == skip)
    return;
  if (e->op.ptr)
    fn(e->op, userData);
  if (e->source.ptr)
    fn(e->source, userData);
  for (int i = 0; i < 3; ++i)
    faExprForEachOp(e->ops[i], skip, fn, userData);
}

/* --- queries ---------------------------------------------------------------- */

bool faExprEqual(const FaExpr *a, const FaExpr *b) {
  if (a == b)
    return true;
  if (!a || !b || a->kind != b->kind)
    return false;
  switch (a->kind) {
  case FA_EXPR_CONST:
    return a->value == b->value || (isnan(a->value) && isnan(b->value));
  case FA_EXPR_INDEX:
    return a->dim == b->dim;
  case FA_EXPR_LEAF:
    return mlirValueEqual(a->tensor, b->tensor) && a->rank == b->rank &&
           !memcmp(a->dims, b->dims, (size_t)a->rank);
  case FA_EXPR_CAST:
    return mlirTypeEqual(a->type, b->type) && faExprEqual(a->ops[0], b->ops[0]);
  case FA_EXPR_CMP:
    if (a->pred != b->pred || a->mode != b->mode)
      return false;
    break;
  default:
    break;
  }
  for (int i = 0; i < 3; ++i)
    if (!faExprEqual(a->ops[i], b->ops[i]))
      return false;
  return true;
}

FaExpr *faExprStripCasts(const FaExpr *e) {
  while (e && e->kind == FA_EXPR_CAST)
    e = e->ops[0];
  return (FaExpr *)e;
}

bool faExprIsConst(const FaExpr *e, double value) {
  return e && e->kind == FA_EXPR_CONST && e->value == value;
}

bool faExprIsRowLeaf(const FaExpr *e, int rank) {
  if (!e || e->kind != FA_EXPR_LEAF)
    return false;
  int next = 0;
  for (int k = 0; k < e->rank; ++k) {
    /* A unit dim read along the key axis is the row's one value: with a
     * single key (N = 1) TOSA's kept reduced dim is no broadcast. */
    MlirType t = mlirValueGetType(e->tensor);
    if (e->dims[k] == -1 ||
        (e->dims[k] == rank - 1 && !mlirShapedTypeIsDynamicDim(t, k) &&
         mlirShapedTypeGetDimSize(t, k) == 1))
      continue;
    if (e->dims[k] != next)
      return false;
    ++next;
  }
  return next == rank - 1;
}
