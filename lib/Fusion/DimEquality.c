/* Proving two tensor dims equal without running the program: each dim is
 * traced to a canonical source, and two dims are equal when their sources
 * are the same constant, the same SSA value, or the same dim of the same
 * tensor, or the same product of such sources and a constant. A dim is
 * traced
 *   - of a tensor.empty, to its size operand;
 *   - of a tensor.reshape whose shape is a tensor.from_elements, to that
 *     element;
 *   - of a linalg op's result, to the same dim of its init operand;
 * and a size value through index_cast / extsi / extui to index or 64-bit
 * integers (a dim is below 2^63, so they keep it), tensor.dim of a constant
 * index, muli (a product), and
 * `select(x < 0, _, x)` where x is a size (never negative: the select
 * torch-mlir emits for view sizes that may be -1). Anything else is its own
 * source, so the answer is "equal" only when it is. */
#include "Fusion/DimEquality.h"
#include "Support/Builders.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <string.h>

enum { MAX_DEPTH = 32, MAX_FACTORS = 4 };

/* A size as coef * factors[0] * ... : the factors are dims of tensors that
 * could not be traced further (`tensor`, `dim`) or opaque values (`value`,
 * dim -1). n = -1: not representable (too many factors). */
typedef struct {
  MlirValue v;
  intptr_t dim;
} Factor;

typedef struct {
  int64_t coef;
  int n;
  Factor f[MAX_FACTORS];
} DimSource;

static DimSource dimSource(MlirValue t, intptr_t d, int depth);

static DimSource constantSource(int64_t c) {
  DimSource s = {c, 0, {{{NULL}, 0}}};
  return s;
}

static DimSource atomSource(MlirValue v, intptr_t dim) {
  DimSource s = {1, 1, {{v, dim}}};
  return s;
}

static DimSource unknownSource(void) {
  DimSource s = {0, -1, {{{NULL}, 0}}};
  return s;
}

static DimSource productSource(DimSource a, DimSource b) {
  if (a.n < 0 || b.n < 0 || a.n + b.n > MAX_FACTORS ||
      __builtin_mul_overflow(a.coef, b.coef, &a.coef))
    return unknownSource();
  for (int i = 0; i < b.n; ++i)
    a.f[a.n++] = b.f[i];
  return a;
}

/* Sizes of tensors, and products of them with non-negative constants. */
static bool isNonNegative(DimSource s) {
  if (s.n < 0 || s.coef < 0)
    return false;
  for (int i = 0; i < s.n; ++i)
    if (s.f[i].dim < 0)
      return false;
  return true;
}

static bool sameFactor(Factor a, Factor b) {
  return mlirValueEqual(a.v, b.v) && a.dim == b.dim;
}

/* Equal coefficients and the same factors in any order. */
static bool sameSource(DimSource a, DimSource b) {
  if (a.n < 0 || b.n < 0 || a.n != b.n || a.coef != b.coef)
    return false;
  bool used[MAX_FACTORS] = {false};
  for (int i = 0; i < a.n; ++i) {
    int j = 0;
    while (j < b.n && (used[j] || !sameFactor(a.f[i], b.f[j])))
      ++j;
    if (j == b.n)
      return false;
    used[j] = true;
  }
  return true;
}

static bool constantInt(MlirValue v, int64_t *out) {
  MlirOperation def = faValueGetDefiningOp(v);
  if (mlirOperationIsNull(def) || !faOpIsA(def, "arith.constant"))
    return false;
  MlirAttribute a = faOpGetAttr(def, "value");
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

/* `select(x < 0, _, x)` (or `select(0 > x, _, x)`): x, else a null value. */
static MlirValue negativeGuardedValue(MlirOperation select) {
  MlirValue x = mlirOperationGetOperand(select, 2);
  MlirOperation cmp = faValueGetDefiningOp(mlirOperationGetOperand(select, 0));
  if (mlirOperationIsNull(cmp) || !faOpIsA(cmp, "arith.cmpi"))
    return (MlirValue){NULL};
  int64_t pred = mlirIntegerAttrGetValueInt(faOpGetAttr(cmp, "predicate")), zero;
  MlirValue lhs = mlirOperationGetOperand(cmp, 0), rhs = mlirOperationGetOperand(cmp, 1);
  enum { SLT = 2, SGT = 4 }; /* arith::CmpIPredicate */
  bool ltZero = pred == SLT && mlirValueEqual(lhs, x) && constantInt(rhs, &zero) && !zero;
  bool zeroGt = pred == SGT && mlirValueEqual(rhs, x) && constantInt(lhs, &zero) && !zero;
  return ltZero || zeroGt ? x : (MlirValue){NULL};
}

/* index or an integer of 64 bits or more: a cast to it keeps any size (a
 * narrower one could truncate, so the trace stops there). */
static bool holdsAnySize(MlirType t) {
  return mlirTypeIsAIndex(t) || (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) >= 64);
}

static DimSource sizeSource(MlirValue v, int depth) {
  int64_t c;
  if (constantInt(v, &c))
    return constantSource(c);
  MlirOperation def = faValueGetDefiningOp(v);
  if (depth > MAX_DEPTH || mlirOperationIsNull(def))
    return atomSource(v, -1);
  if ((faOpIsA(def, "arith.index_cast") || faOpIsA(def, "arith.index_castui") ||
       faOpIsA(def, "arith.extsi") || faOpIsA(def, "arith.extui")) &&
      holdsAnySize(mlirValueGetType(v)))
    return sizeSource(mlirOperationGetOperand(def, 0), depth + 1);
  if (faOpIsA(def, "tensor.dim") && constantInt(mlirOperationGetOperand(def, 1), &c)) {
    MlirValue t = mlirOperationGetOperand(def, 0);
    MlirType type = mlirValueGetType(t);
    if (mlirTypeIsARankedTensor(type) && c >= 0 && c < mlirShapedTypeGetRank(type))
      return dimSource(t, (intptr_t)c, depth + 1);
  }
  if (faOpIsA(def, "arith.muli"))
    return productSource(sizeSource(mlirOperationGetOperand(def, 0), depth + 1),
                         sizeSource(mlirOperationGetOperand(def, 1), depth + 1));
  if (faOpIsA(def, "arith.select")) {
    MlirValue x = negativeGuardedValue(def);
    if (x.ptr) {
      DimSource s = sizeSource(x, depth + 1);
      if (isNonNegative(s))
        return s;
    }
  }
  return atomSource(v, -1);
}

/* The dynamic dims before `d` in `type`: the index of d's size operand. */
static intptr_t dynamicIndex(MlirType type, intptr_t d) {
  intptr_t n = 0;
  for (intptr_t i = 0; i < d; ++i)
    n += mlirShapedTypeIsDynamicDim(type, i);
  return n;
}

static DimSource dimSource(MlirValue t, intptr_t d, int depth) {
  MlirType type = mlirValueGetType(t);
  if (!mlirShapedTypeIsDynamicDim(type, d))
    return constantSource(mlirShapedTypeGetDimSize(type, d));
  DimSource self = atomSource(t, d);
  MlirOperation def = faValueGetDefiningOp(t);
  if (depth > MAX_DEPTH || mlirOperationIsNull(def))
    return self;
  if (faOpIsA(def, "tensor.empty")) {
    intptr_t i = dynamicIndex(type, d);
    return i < mlirOperationGetNumOperands(def)
               ? sizeSource(mlirOperationGetOperand(def, i), depth + 1)
               : self;
  }
  if (faOpIsA(def, "tensor.reshape")) {
    MlirOperation shape = faValueGetDefiningOp(mlirOperationGetOperand(def, 1));
    if (!mlirOperationIsNull(shape) && faOpIsA(shape, "tensor.from_elements") &&
        d < mlirOperationGetNumOperands(shape))
      return sizeSource(mlirOperationGetOperand(shape, d), depth + 1);
    return self;
  }
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(def));
  intptr_t results = mlirOperationGetNumResults(def);
  intptr_t operands = mlirOperationGetNumOperands(def);
  if (name.length > 7 && strncmp(name.data, "linalg.", 7) == 0 && results > 0 &&
      operands >= results) {
    /* Destination style: result k has the shape of init k, the last
     * `results` operands. */
    for (intptr_t k = 0; k < results; ++k) {
      if (!mlirValueEqual(mlirOperationGetResult(def, k), t))
        continue;
      MlirValue init = mlirOperationGetOperand(def, operands - results + k);
      MlirType it = mlirValueGetType(init);
      if (mlirTypeIsARankedTensor(it) && mlirShapedTypeGetRank(it) == mlirShapedTypeGetRank(type))
        return dimSource(init, d, depth + 1);
    }
  }
  return self;
}

bool faDimsProvablyEqual(MlirValue a, intptr_t da, MlirValue b, intptr_t db) {
  MlirType ta = mlirValueGetType(a), tb = mlirValueGetType(b);
  if (!mlirTypeIsARankedTensor(ta) || !mlirTypeIsARankedTensor(tb) || da < 0 || db < 0 ||
      da >= mlirShapedTypeGetRank(ta) || db >= mlirShapedTypeGetRank(tb))
    return false;
  return sameSource(dimSource(a, da, 0), dimSource(b, db, 0));
}

bool faDimProductProvablyEqual(MlirValue a, const intptr_t *dims, int n, MlirValue b,
                               intptr_t db) {
  MlirType ta = mlirValueGetType(a), tb = mlirValueGetType(b);
  if (!mlirTypeIsARankedTensor(ta) || !mlirTypeIsARankedTensor(tb) || db < 0 ||
      db >= mlirShapedTypeGetRank(tb))
    return false;
  DimSource prod = constantSource(1);
  for (int i = 0; i < n; ++i) {
    if (dims[i] < 0 || dims[i] >= mlirShapedTypeGetRank(ta))
      return false;
    prod = productSource(prod, dimSource(a, dims[i], 0));
  }
  return sameSource(prod, dimSource(b, db, 0));
}

bool faSizeProvablyEqualsDim(MlirValue size, MlirValue t, intptr_t d) {
  MlirType tt = mlirValueGetType(t);
  if (!mlirTypeIsARankedTensor(tt) || d < 0 || d >= mlirShapedTypeGetRank(tt))
    return false;
  return sameSource(sizeSource(size, 0), dimSource(t, d, 0));
}
