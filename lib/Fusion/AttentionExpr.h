/* Internal: scalar expression trees of tensor computations.
 *
 * The fusion pass does not match op sequences one by one. It reads the value
 * a chain computes per element as a small expression tree over an iteration
 * space (the score space [.., M, N]): elementwise linalg.generic bodies and
 * TOSA elementwise ops are inlined through, with their indexing maps or
 * broadcasts composed, so one generic doing five steps and five generics
 * doing one step each give the same tree. Everything else (reductions,
 * contractions, function arguments, non-splat constants) is a leaf: a tensor
 * plus, for each of its dims, the iteration dim it follows (-1: a unit dim
 * that is broadcast). */
#ifndef FA_LIB_FUSION_ATTENTIONEXPR_H
#define FA_LIB_FUSION_ATTENTIONEXPR_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stdint.h>

#define FA_EXPR_MAX_RANK 6
#define FA_EXPR_MAX_NODES 256

typedef enum {
  FA_EXPR_LEAF,
  FA_EXPR_CONST,  /* scalar or splat constant (one folded from constant
                     operands, e.g. rsqrt(64), keeps them in ops) */
  FA_EXPR_INDEX,  /* linalg.index of an iteration dim */
  FA_EXPR_ADD,
  FA_EXPR_SUB,
  FA_EXPR_MUL,
  FA_EXPR_DIV,
  FA_EXPR_MAX,
  FA_EXPR_EXP,
  FA_EXPR_RECIP,
  FA_EXPR_NEG,
  FA_EXPR_CAST,   /* extf / truncf / tosa.cast, and conversions of integers
                     (index_cast, extsi, trunci, sitofp; mode UNSIGNED for
                     index_castui): the value is kept only where it fits the
                     new type, which readers of masks check */
  FA_EXPR_SELECT, /* ops[0] ? ops[1] : ops[2] */
  FA_EXPR_CMP,    /* ops[0] <pred> ops[1] */
  FA_EXPR_AND,    /* boolean and */
  FA_EXPR_LOG,    /* natural logarithm */
  FA_EXPR_ABS,
  FA_EXPR_SQRT,   /* sqrt / rsqrt: read only of constants, and folded into */
  FA_EXPR_RSQRT,  /* a CONST (never in a built tree) */
  FA_EXPR_TANH,   /* math.tanh / tosa.tanh (a softcap: c * tanh(s / c)) */
  FA_EXPR_OR,     /* boolean or */
  FA_EXPR_XOR,    /* boolean xor (arith.xori with true: not) */
  FA_EXPR_NOT,    /* boolean not (tosa.logical_not) */
  FA_EXPR_IDIV,   /* integer division truncating toward zero (arith.divsi,
                     tosa.intdiv; mode UNSIGNED for arith.divui) */
  FA_EXPR_FLOORDIV, /* integer division rounding down (arith.floordivsi; mode
                       ORDERED for fptosi(floor(sitofp a / sitofp b)) in f64,
                       ops the integers a, b: exact only where readers prove
                       the f64 quotient rounds to the same floor) */
} FaExprKind;

/* Comparison predicates: the relation, and how its operands are read
 * (every arith.cmpi / cmpf predicate but cmpf false/ord/uno/true is one
 * pair; users decide where a mode does not matter, e.g. unsigned equals
 * signed only for operands known to be non-negative). */
typedef enum { FA_CMP_EQ, FA_CMP_NE, FA_CMP_LT, FA_CMP_LE, FA_CMP_GT, FA_CMP_GE } FaCmp;
typedef enum {
  FA_CMP_SIGNED,    /* integers as two's complement: cmpi eq/ne/s*, TOSA */
  FA_CMP_UNSIGNED,  /* integers as unsigned: cmpi u* */
  FA_CMP_ORDERED,   /* floats, false if either is NaN: cmpf o*, TOSA */
  FA_CMP_UNORDERED, /* floats, true if either is NaN: cmpf u* */
} FaCmpMode;

typedef struct FaExpr {
  FaExprKind kind;
  MlirType type;     /* element type of the value */
  double value;      /* CONST */
  FaCmp pred;        /* CMP */
  FaCmpMode mode;    /* CMP; CAST: UNSIGNED for index_castui; IDIV, FLOORDIV */
  int dim;           /* INDEX */
  /* The tensor whose elements this node is (always set for a LEAF; also for
   * the root of an inlined op), with the iteration dim of each of its dims. */
  MlirValue tensor;
  int rank;
  int8_t dims[FA_EXPR_MAX_RANK];
  MlirOperation op;  /* the tensor-level op this node was inlined from */
  MlirOperation source; /* CONST: the constant op it was read from */
  struct FaExpr *ops[3];
} FaExpr;

/* Builds trees; owns their nodes. */
typedef struct FaExprBuilder {
  FaExpr nodes[FA_EXPR_MAX_NODES];
  int numNodes;
  const char *error; /* first reason a tree could not be built */
} FaExprBuilder;

void faExprBuilderInit(FaExprBuilder *b);

/* The tree of tensor `v` read with `dims` (one entry per dim of `v`; NULL
 * means the identity over the builder's space). Returns NULL and sets
 * b->error if a body holds something the builder does not understand. */
FaExpr *faExprBuild(FaExprBuilder *b, MlirValue v, const int8_t *dims);

/* A new node of `kind` and `type` owned by `b`, zeroed otherwise (for
 * readers that rewrite a tree), or NULL when `b` is full (b->error). */
FaExpr *faExprNew(FaExprBuilder *b, FaExprKind kind, MlirType type);

/* Calls `fn` on the op and constant source of every node of `e`, except
 * inside `skip`. */
void faExprForEachOp(const FaExpr *e, const FaExpr *skip,
                     void (*fn)(MlirOperation, void *), void *userData);

/* Structural equality (same leaves, constants and operations). */
bool faExprEqual(const FaExpr *a, const FaExpr *b);

/* Skips CAST nodes. */
FaExpr *faExprStripCasts(const FaExpr *e);

/* True if `e` is a constant equal to `value`. */
bool faExprIsConst(const FaExpr *e, double value);

/* True if `e` is a leaf that follows every iteration dim but the last (a
 * per-row vector, e.g. the running max), in order. */
bool faExprIsRowLeaf(const FaExpr *e, int rank);

/* Is `def` (producing `v`) a reshape (tensor.expand_shape / collapse_shape,
 * tosa.reshape) that only adds or drops unit dims of static shapes? */
bool faOpIsUnitReshape(MlirOperation def, MlirValue v);

/* For each dim of the source of the unit reshape `def` (producing `v`), the
 * dim of `v` it becomes (-1: a dropped unit dim); false if `def` is no unit
 * reshape or its reassociation does not fit its shapes. */
bool faUnitReshapeGetSourceDims(MlirOperation def, MlirValue v, int8_t *out);

/* Whether every iterator of the linalg op `generic` is parallel. */
bool faLinalgIsParallelOnly(MlirOperation generic);

/* The splat value of a constant-like op result (arith.constant, tosa.const,
 * linalg.fill), if it is one. */
bool faValueGetSplat(MlirValue v, double *out);

/* The `n` static values of a tosa.const_shape `v`, if it is one. */
bool faConstShapeGet(MlirValue v, int64_t *out, intptr_t n);

/* The `value` of an arith.constant or the `values` of a tosa.const (null
 * for any other op). */
MlirAttribute faConstantOpGetValue(MlirOperation op);

/* The elements attribute of a constant op (as faConstantOpGetValue) that
 * faDenseElementGet can read: dense elements, or a dense_resource of f32,
 * f64, i1, i8, i32 or i64 whose blob holds every element; null otherwise
 * (a missing or short blob, which the parser accepts). */
MlirAttribute faConstantOpGetElements(MlirOperation op);

/* Element `pos` of a dense (or dense_resource) float or integer elements
 * attribute: one that faConstantOpGetElements returned. */
double faDenseElementGet(MlirAttribute dense, intptr_t pos);

#endif
