/* The query and key indices in the kernels' copies of the op's functions.
 *
 * Index arithmetic is 64-bit on GPUs, and an integer -> f32 conversion is a
 * quarter-rate instruction, as many per score as the exponential itself
 * (ALiBi's slope * (k - q)). Three rewrites make such functions cheaper per
 * score, each exact:
 * - a conversion whose static range fits i32 converts in 32 bits (the
 *   indices b, h, i, j are below 2^31: the kernels' i32 rows and columns);
 * - in the tensor-core kernels, which pass each score's query and key as a
 *   thread's first row and column plus the element's offsets (split
 *   indices), a conversion of +-i +-j + c is computed from the per-thread
 *   part B = +-i0 +-j0 + c and the per-element constant D = +-di +-dj:
 *   B = hi + lo with hi = B & -1024, lo = B & 1023; f32(hi) - 2^23 is exact
 *   (|B| < 2^33 leaves hi 24 significant bits), so are 2^23 + lo (made from
 *   its bits) and 2^23 + lo + f32(D) (integers below 2^24), and their sum
 *   rounds the exact B + D once, as the conversion does: two FADDs a score,
 *   the conversion of hi once per thread and tile;
 * - the tile-uniform copy (faScoreModMakeTileUniform).
 * docs/lowering.md, "Score modifications". */
#include "Lowering/ScoreIndices.h"
#include "Support/Builders.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <math.h>
#include <stdint.h>

FaScoreIndices faScoreIndicesGet(MlirOperation fn, int first) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  FaScoreIndices ix;
  for (int n = 0; n < 4; ++n) {
    ix.idx[n] = mlirBlockGetArgument(entry, first + n);
    ix.parts[n] = (MlirValue){NULL};
  }
  ix.split = false;
  return ix;
}

void faScoreIndicesSplit(MlirOperation fn, FaScoreIndices *ix) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  MlirContext ctx = mlirOperationGetContext(fn);
  MlirType index = mlirIndexTypeGet(ctx);
  MlirLocation loc = mlirOperationGetLocation(fn);
  unsigned at = (unsigned)mlirBlockArgumentGetArgNumber(ix->idx[2]);
  for (unsigned n = 0; n < 4; ++n)
    ix->parts[n] = mlirBlockInsertArgument(entry, at + n, index, loc);
  MlirOperation first = mlirBlockGetFirstOperation(entry);
  MlirNamedAttribute nsw = faNamedAttributeGet(
      ctx, "overflowFlags",
      mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString("#arith.overflow<nsw>")));
  for (int n = 0; n < 2; ++n) {
    MlirValue operands[2] = {ix->parts[2 * n], ix->parts[2 * n + 1]};
    MlirValue sum = mlirOperationGetResult(
        faOperationCreateBefore(first, "arith.addi", 2, operands, 1, &index, 1, &nsw), 0);
    mlirValueReplaceAllUsesOfWith(ix->idx[2 + n], sum);
    ix->idx[2 + n] = sum;
  }
  mlirBlockEraseArgument(entry, at + 5); /* the old j, then the old i */
  mlirBlockEraseArgument(entry, at + 4);
  ix->split = true;
}

/* --- static ranges ----------------------------------------------------------- */

typedef struct {
  bool known;
  long double lo, hi; /* exact for the |values| < 2^62 kept known */
} StaticRange;

static StaticRange rangeOf(MlirValue v, const FaScoreIndices *ix, int depth);

static const char *const kDivisions[] = {"arith.divsi", "arith.floordivsi", "arith.ceildivsi", NULL};

/* The range of a * b from the products of the bounds (inputs below 2^62:
 * the long double products are exact enough to be compared with 2^62). */
static StaticRange cornerRange(StaticRange a, StaticRange b) {
  long double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  StaticRange r = {true, p[0], p[0]};
  for (int n = 1; n < 4; ++n) {
    r.lo = p[n] < r.lo ? p[n] : r.lo;
    r.hi = p[n] > r.hi ? p[n] : r.hi;
  }
  return r;
}

static StaticRange binaryRange(MlirOperation op, const FaScoreIndices *ix, int depth) {
  StaticRange a = rangeOf(mlirOperationGetOperand(op, 0), ix, depth + 1);
  StaticRange b = rangeOf(mlirOperationGetOperand(op, 1), ix, depth + 1);
  StaticRange r = {false, 0, 0};
  if (!a.known || !b.known)
    return r;
  if (faOpIsA(op, "arith.addi"))
    r = (StaticRange){true, a.lo + b.lo, a.hi + b.hi};
  else if (faOpIsA(op, "arith.subi"))
    r = (StaticRange){true, a.lo - b.hi, a.hi - b.lo};
  else if (faOpIsA(op, "arith.minsi"))
    r = (StaticRange){true, a.lo < b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi};
  else if (faOpIsA(op, "arith.maxsi"))
    r = (StaticRange){true, a.lo > b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
  else if (faOpIsA(op, "arith.muli"))
    r = cornerRange(a, b);
  else if (b.lo == b.hi && b.lo > 0 && faOpIsAnyOf(op, kDivisions))
    r = (StaticRange){true, floorl(a.lo / b.lo), ceill(a.hi / b.lo)}; /* covers every rounding */
  else if (b.lo == b.hi && b.lo > 0 && faOpIsA(op, "arith.remsi"))
    r = (StaticRange){true, a.lo >= 0 ? 0 : 1 - b.lo, b.lo - 1};
  const long double lim = 4611686018427387904.0L; /* 2^62 */
  if (r.known && (r.lo < -lim || r.hi > lim))
    r.known = false;
  return r;
}

/* The half range of `type`: 2^(w-1) (2^62 for 64 bits and index). */
static long double halfRange(MlirType type) {
  int w = mlirTypeIsAIndex(type) ? 64 : (int)mlirIntegerTypeGetWidth(type);
  return w >= 63 ? 4611686018427387904.0L : (long double)(1LL << (w - 1));
}

static StaticRange rangeOf(MlirValue v, const FaScoreIndices *ix, int depth) {
  StaticRange unknown = {false, 0, 0};
  if (depth > 16)
    return unknown;
  for (int n = 0; n < 4; ++n)
    if (mlirValueEqual(v, ix->idx[n]))
      return (StaticRange){true, 0, 2147483647.0L};
  if (mlirValueIsABlockArgument(v))
    return unknown; /* index captures */
  MlirOperation op = mlirOpResultGetOwner(v);
  if (faOpIsA(op, "arith.constant")) {
    MlirAttribute a = faOpGetAttr(op, "value");
    if (!mlirAttributeIsAInteger(a))
      return unknown;
    long double c = (long double)mlirIntegerAttrGetValueInt(a);
    return (StaticRange){true, c, c};
  }
  if (faOpIsA(op, "arith.index_cast") || faOpIsA(op, "arith.extsi") || faOpIsA(op, "arith.trunci")) {
    /* Casts to a narrower type truncate: only where the value fits. */
    StaticRange r = rangeOf(mlirOperationGetOperand(op, 0), ix, depth + 1);
    long double half = halfRange(mlirValueGetType(v));
    if (r.known && (r.lo < -half || r.hi >= half))
      r.known = false;
    return r;
  }
  if (mlirOperationGetNumOperands(op) == 2 && mlirOperationGetNumResults(op) == 1) {
    StaticRange r = binaryRange(op, ix, depth);
    long double half = halfRange(mlirValueGetType(v));
    if (r.known && (r.lo < -half || r.hi >= half))
      r.known = false; /* the source would wrap */
    return r;
  }
  return unknown;
}

static bool fitsI32(StaticRange r) {
  return r.known && r.lo >= -2147483648.0L && r.hi <= 2147483647.0L;
}

bool faScoreIndexFitsI32(MlirValue v, const FaScoreIndices *ix) {
  StaticRange r = rangeOf(v, ix, 0);
  return r.known && r.lo >= 0 && r.hi <= 2147483647.0L;
}

/* sitofp %x : i64 -> f32 where x fits i32: trunci to i32, then sitofp. */
static void narrowConversion(MlirOperation op, const FaScoreIndices *ix) {
  MlirValue x = mlirOperationGetOperand(op, 0);
  MlirType t = mlirValueGetType(x);
  if (!mlirTypeIsAInteger(t) || mlirIntegerTypeGetWidth(t) != 64)
    return;
  if (!fitsI32(rangeOf(x, ix, 0)))
    return;
  MlirType i32 = mlirIntegerTypeGet(mlirOperationGetContext(op), 32);
  mlirOperationSetOperand(op, 0, faBuildUnaryBefore(op, "arith.trunci", x, i32));
}

/* --- exact conversions of +-i +-j + c ---------------------------------------- */

typedef struct {
  bool ok;
  int64_t ci, cj, c;
} Linear;

static Linear linearOf(MlirValue v, const FaScoreIndices *ix, int depth) {
  Linear none = {false, 0, 0, 0};
  if (mlirValueEqual(v, ix->idx[2]))
    return (Linear){true, 1, 0, 0};
  if (mlirValueEqual(v, ix->idx[3]))
    return (Linear){true, 0, 1, 0};
  if (depth > 16 || mlirValueIsABlockArgument(v) || !rangeOf(v, ix, 0).known)
    return none; /* (known: no op on the way wraps) */
  MlirOperation op = mlirOpResultGetOwner(v);
  if (faOpIsA(op, "arith.constant"))
    return (Linear){true, 0, 0, (int64_t)mlirIntegerAttrGetValueInt(faOpGetAttr(op, "value"))};
  if (faOpIsA(op, "arith.index_cast") || faOpIsA(op, "arith.extsi") || faOpIsA(op, "arith.trunci"))
    return linearOf(mlirOperationGetOperand(op, 0), ix, depth + 1);
  bool sub = faOpIsA(op, "arith.subi");
  if (!sub && !faOpIsA(op, "arith.addi"))
    return none;
  Linear a = linearOf(mlirOperationGetOperand(op, 0), ix, depth + 1);
  Linear b = linearOf(mlirOperationGetOperand(op, 1), ix, depth + 1);
  int64_t s = sub ? -1 : 1;
  Linear r = {a.ok && b.ok, a.ci + s * b.ci, a.cj + s * b.cj, a.c + s * b.c};
  if (r.ci < -1 || r.ci > 1 || r.cj < -1 || r.cj > 1 || r.c < -(INT64_C(1) << 31) ||
      r.c > (INT64_C(1) << 31))
    return none;
  return r;
}

/* c + ci * x + cj * y in i64, before `before`. */
static MlirValue combine(MlirOperation before, const Linear *l, MlirValue x, MlirValue y, bool withC) {
  MlirType i64 = mlirIntegerTypeGet(mlirOperationGetContext(before), 64);
  MlirValue r = faBuildIntConstantBefore(before, i64, withC ? l->c : 0);
  int64_t coef[2] = {l->ci, l->cj};
  MlirValue parts[2] = {x, y};
  for (int n = 0; n < 2; ++n)
    if (coef[n])
      r = faBuildBinaryBefore(before, coef[n] > 0 ? "arith.addi" : "arith.subi", r,
                   faBuildUnaryBefore(before, "arith.index_cast", parts[n], i64));
  return r;
}

static bool exactConversion(MlirOperation op, const FaScoreIndices *ix) {
  MlirType f32 = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!ix->split || !mlirTypeIsAF32(f32))
    return false;
  Linear l = linearOf(mlirOperationGetOperand(op, 0), ix, 0);
  if (!l.ok || (!l.ci && !l.cj))
    return false;
  MlirContext ctx = mlirOperationGetContext(op);
  MlirType i64 = mlirIntegerTypeGet(ctx, 64), i32 = mlirIntegerTypeGet(ctx, 32);
  MlirValue base = combine(op, &l, ix->parts[0], ix->parts[2], true);
  MlirValue offset = combine(op, &l, ix->parts[1], ix->parts[3], false);
  MlirValue hi = faBuildBinaryBefore(op, "arith.andi", base, faBuildIntConstantBefore(op, i64, -1024));
  MlirValue lo = faBuildUnaryBefore(op, "arith.trunci", faBuildBinaryBefore(op, "arith.andi", base, faBuildIntConstantBefore(op, i64, 1023)), i32);
  /* f32(hi) - 2^23 and 2^23 + lo (lo in the mantissa of 2^23's bits):
   * both exact, as is 2^23 + lo + D; no integer conversion of lo that a
   * compiler could merge with D's into one per score. */
  MlirValue magic = mlirOperationGetResult(
      faOperationCreateBefore(op, "arith.constant", 0, NULL, 1, &f32, 1,
                              (MlirNamedAttribute[]){faNamedAttributeGet(
                                  ctx, "value", mlirFloatAttrDoubleGet(ctx, f32, 8388608.0))}),
      0);
  MlirValue fhi = faBuildBinaryBefore(op, "arith.subf", faBuildUnaryBefore(op, "arith.sitofp", hi, f32), magic);
  MlirValue bits = faBuildBinaryBefore(op, "arith.ori", lo, faBuildIntConstantBefore(op, i32, 0x4B000000));
  MlirValue flo = faBuildUnaryBefore(op, "arith.bitcast", bits, f32);
  MlirValue fd = faBuildUnaryBefore(op, "arith.sitofp", faBuildUnaryBefore(op, "arith.trunci", offset, i32), f32);
  MlirValue sum = faBuildBinaryBefore(op, "arith.addf", fhi, faBuildBinaryBefore(op, "arith.addf", flo, fd));
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), sum);
  mlirOperationDestroy(op);
  return true;
}

/* --- 32-bit index arithmetic ------------------------------------------------ */

static bool isWide(MlirType t) {
  return mlirTypeIsAIndex(t) || (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 64);
}

/* An addi/subi/minsi/maxsi/muli (or a division or remainder by a positive
 * constant) of index or i64 whose operands and result lie in
 * i32 by their static ranges (no wrap at either width: the same value), or
 * a cmpi of two such operands, computed on i32 operands (the kernels' rows
 * and columns, which the copies' index casts of them fold back to): a GPU's
 * 64-bit integer operation is two instructions. */
static void narrowIndexOp(MlirOperation op, const FaScoreIndices *ix) {
  static const char *const kArith[] = {"arith.addi",      "arith.subi",      "arith.minsi",
                                       "arith.maxsi",     "arith.muli",      "arith.divsi",
                                       "arith.floordivsi", "arith.ceildivsi", "arith.remsi", NULL};
  bool cmp = faOpIsA(op, "arith.cmpi");
  if ((!cmp && !faOpIsAnyOf(op, kArith)) || mlirOperationGetNumOperands(op) != 2)
    return;
  MlirValue a = mlirOperationGetOperand(op, 0), b = mlirOperationGetOperand(op, 1);
  MlirType wide = mlirValueGetType(a);
  if (!isWide(wide) || !fitsI32(rangeOf(a, ix, 0)) || !fitsI32(rangeOf(b, ix, 0)))
    return;
  MlirValue result = mlirOperationGetResult(op, 0);
  if (!cmp && !fitsI32(rangeOf(result, ix, 0)))
    return;
  MlirType i32 = mlirIntegerTypeGet(mlirOperationGetContext(op), 32);
  const char *cast = mlirTypeIsAIndex(wide) ? "arith.index_cast" : "arith.trunci";
  mlirOperationSetOperand(op, 0, faBuildUnaryBefore(op, cast, a, i32));
  mlirOperationSetOperand(op, 1, faBuildUnaryBefore(op, cast, b, i32));
  if (cmp)
    return;
  /* The op now yields i32; its users get it widened again (sign: exact). */
  MlirOperation next = mlirOperationGetNextInBlock(op);
  mlirValueSetType(result, i32);
  MlirValue widened = faBuildUnaryBefore(next, mlirTypeIsAIndex(wide) ? "arith.index_cast" : "arith.extsi",
                                         result, wide);
  mlirValueReplaceAllUsesOfWith(result, widened);
  mlirOperationSetOperand(mlirOpResultGetOwner(widened), 0, result);
}

void faScoreIndicesRewrite(MlirOperation op, const FaScoreIndices *ix) {
  if (faOpIsA(op, "arith.sitofp") && !exactConversion(op, ix))
    narrowConversion(op, ix);
  else
    narrowIndexOp(op, ix);
}

/* --- the tile-uniform copy --------------------------------------------------- */

/* Whether `v` is computed from block argument `a` or `b` of `entry`. */
static bool dependsOn(MlirValue v, MlirValue a, MlirValue b, int depth) {
  if (mlirValueEqual(v, a) || mlirValueEqual(v, b))
    return true;
  if (depth > 32 || mlirValueIsABlockArgument(v))
    return false;
  MlirOperation op = mlirOpResultGetOwner(v);
  for (intptr_t n = 0; n < mlirOperationGetNumOperands(op); ++n)
    if (dependsOn(mlirOperationGetOperand(op, n), a, b, depth + 1))
      return true;
  return false;
}

bool faScoreModReadsByPosition(MlirOperation fn) {
  FaScoreIndices ix = faScoreIndicesGet(fn, 1);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!faOpIsA(op, "tensor.extract") && !faOpIsA(op, "memref.load"))
      continue;
    for (intptr_t n = 1; n < mlirOperationGetNumOperands(op); ++n)
      if (dependsOn(mlirOperationGetOperand(op, n), ix.idx[2], ix.idx[3], 0))
        return true;
  }
  return false;
}

void faScoreModMakeTileUniform(MlirOperation fn) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  MlirOperation first = mlirBlockGetFirstOperation(entry);
  MlirValue zero = faBuildIntConstantBefore(first, mlirIndexTypeGet(mlirOperationGetContext(fn)), 0);
  /* (s, b, h, i0, di, j0, dj, ...): the offsets are arguments 4 and 6. */
  mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(entry, 4), zero);
  mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(entry, 6), zero);
}
