/* Block sparsity from the IR: the interval extension of the op's mask.
 *
 * For kernel NAME with a mask function, this appends
 *   func.func private @NAME_mask_range(%b, %h, %ilo, %ihi, %jlo, %jhi: index,
 *                                      captures...) -> (i1, i1)
 * which says, for every query i in [ilo, ihi] and key j in [jlo, jhi] of
 * batch b and head h at once, whether the mask MAY be true for some pair
 * (may) and whether it MUST be true for all (must). It is the mask's body
 * evaluated on intervals: each integer value becomes [lo, hi] in i64 and a
 * flag `known`, each i1 value (may, must). The rules are sound (the set of
 * values a source op can give lies in its interval) and monotone in the
 * input intervals; anything they cannot bound (a float, a product of large
 * values, a value outside its type's range, where the source would wrap) is
 * unknown: may = true, must = false. A read of a captured tensor of
 * integers lies within the minimum and maximum its tile summary gives for
 * the read's index intervals (MaskSummary.c: the summaries are arguments
 * %sumS after the captures); of any other capture, unknown.
 * Kernels use it to visit only key tiles that may be visible (a binary
 * search: the mask's "may" over keys [0, x] grows with x) and to skip the
 * mask on tiles it must keep whole (Kernels/Common/attention_key_range.mlir).
 * Where they read the key-range table, its copy @NAME_mask_row_range reads
 * a capture at one point (a query's document id) exactly: the kernels' row
 * test of mixed tiles (attention_scores.mlir).
 * docs/lowering.md, "Block sparsity". */
#include "Lowering/AttentionKernel.h"
#include "Support/Builders.h"
#include "Support/IRText.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a value of the mask function is on intervals. */
typedef enum { V_INT, V_BOOL, V_FLOAT, V_OTHER } ValueKind;

typedef struct {
  MlirValue value;
  ValueKind kind;
  int id; /* %vID_lo, %vID_hi, %vID_k (ints) or %vID_may, %vID_must (i1) */
} Slot;

enum { MAX_SLOTS = 512 };

typedef struct {
  FaText *t;
  const FaAttentionKernel *k;
  Slot slots[MAX_SLOTS];
  int numSlots, tmp;
  bool failed;     /* too many values */
  bool pointReads; /* a read at one point is that element, not its tile's summary */
} Range;

static const Slot *lookup(const Range *r, MlirValue v) {
  for (int i = 0; i < r->numSlots; ++i)
    if (mlirValueEqual(r->slots[i].value, v))
      return &r->slots[i];
  return NULL;
}

static const Slot *define(Range *r, MlirValue v, ValueKind kind) {
  if (r->numSlots == MAX_SLOTS) {
    r->failed = true;
    return &r->slots[0];
  }
  Slot *s = &r->slots[r->numSlots];
  *s = (Slot){v, kind, r->numSlots};
  ++r->numSlots;
  return s;
}

static bool isBool(MlirType t) { return mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 1; }
static bool isInt(MlirType t) { return mlirTypeIsAIndex(t) || (mlirTypeIsAInteger(t) && !isBool(t)); }

/* A fresh temporary, %tN. */
static int fresh(Range *r) { return r->tmp++; }

/* %tN = OP a, b : TYPE; returns N. */
static int emit2(Range *r, const char *op, const char *a, const char *b, const char *type) {
  int n = fresh(r);
  faTextAppend(r->t, "  %%t%d = %s %s, %s : %s\n", n, op, a, b, type);
  return n;
}

/* The names of a slot's parts, in buffers. */
static void part(char *buf, size_t n, const Slot *s, const char *which) {
  snprintf(buf, n, "%%v%d_%s", s->id, which);
}

/* Defines an unknown value: an int [0, 0] not known, an i1 (true, false). */
static void defineUnknown(Range *r, MlirValue v) {
  MlirType t = mlirValueGetType(v);
  const Slot *s = define(r, v, isBool(t) ? V_BOOL : isInt(t) ? V_INT : V_OTHER);
  if (s->kind == V_BOOL)
    faTextAppend(r->t, "  %%v%d_may = arith.addi %%true, %%false : i1\n"
                       "  %%v%d_must = arith.addi %%false, %%false : i1\n", s->id, s->id);
  else if (s->kind == V_INT)
    faTextAppend(r->t, "  %%v%d_lo = arith.addi %%z, %%z : i64\n  %%v%d_hi = arith.addi %%z, %%z : i64\n"
                       "  %%v%d_k = arith.addi %%false, %%false : i1\n", s->id, s->id, s->id);
}

/* An int slot from i64 names lo, hi and i1 name k, with `k` and-ed with
 * "lo and hi fit the result type `type`" (the source would wrap otherwise;
 * index and i64 keep within +-2^62 so that sums never overflow i64). */
static void defineInt(Range *r, MlirValue v, const char *lo, const char *hi, const char *k) {
  MlirType type = mlirValueGetType(v);
  int w = mlirTypeIsAIndex(type) ? 64 : (int)mlirIntegerTypeGetWidth(type);
  long long lim = w >= 63 ? (1LL << 62) : (1LL << (w - 1));
  const Slot *s = define(r, v, V_INT);
  int a = fresh(r), b = fresh(r), c = fresh(r), d = fresh(r);
  faTextAppend(r->t,
               "  %%t%d = arith.constant %lld : i64\n  %%t%d = arith.constant %lld : i64\n"
               "  %%t%d = arith.cmpi sge, %s, %%t%d : i64\n  %%t%d = arith.cmpi slt, %s, %%t%d : i64\n",
               a, -lim, b, lim, c, lo, a, d, hi, b);
  faTextAppend(r->t, "  %%v%d_lo = arith.addi %s, %%z : i64\n  %%v%d_hi = arith.addi %s, %%z : i64\n",
               s->id, lo, s->id, hi);
  int e = emit2(r, "arith.andi", k, "%true", "i1");
  int f = fresh(r);
  faTextAppend(r->t, "  %%t%d = arith.andi %%t%d, %%t%d : i1\n  %%v%d_k = arith.andi %%t%d, %%t%d : i1\n",
               f, c, d, s->id, e, f);
}

static void defineBool(Range *r, MlirValue v, const char *may, const char *must) {
  const Slot *s = define(r, v, V_BOOL);
  faTextAppend(r->t, "  %%v%d_may = arith.addi %s, %%false : i1\n  %%v%d_must = arith.addi %s, %%false : i1\n",
               s->id, may, s->id, must);
}

/* An index or integer value `name` of type `type` as i64, in %tN. */
static int toI64(Range *r, const char *name, MlirType type) {
  int n = fresh(r);
  if (mlirTypeIsAIndex(type))
    faTextAppend(r->t, "  %%t%d = arith.index_cast %s : index to i64\n", n, name);
  else if (mlirIntegerTypeGetWidth(type) < 64) {
    faTextAppend(r->t, "  %%t%d = arith.extsi %s : ", n, name);
    faTextAppendType(r->t, type);
    faTextAppend(r->t, " to i64\n");
  } else
    faTextAppend(r->t, "  %%t%d = arith.addi %s, %%z : i64\n", n, name);
  return n;
}

/* Names of an int slot's parts. */
typedef struct {
  char lo[32], hi[32], k[32];
} IntNames;
static IntNames intNames(const Slot *s) {
  IntNames n;
  part(n.lo, sizeof n.lo, s, "lo");
  part(n.hi, sizeof n.hi, s, "hi");
  part(n.k, sizeof n.k, s, "k");
  return n;
}

typedef struct {
  char may[32], must[32];
} BoolNames;
static BoolNames boolNames(const Slot *s) {
  BoolNames n;
  part(n.may, sizeof n.may, s, "may");
  part(n.must, sizeof n.must, s, "must");
  return n;
}

static const char *tname(char *buf, int n) {
  snprintf(buf, 32, "%%t%d", n);
  return buf;
}

/* --- the rules ------------------------------------------------------------ */

static void ruleConstant(Range *r, MlirOperation op, MlirValue res) {
  MlirAttribute a = faOpGetAttr(op, "value");
  MlirType t = mlirValueGetType(res);
  if (!mlirAttributeIsAInteger(a) || !(isInt(t) || isBool(t))) {
    defineUnknown(r, res);
    return;
  }
  if (isBool(t)) {
    bool v = mlirIntegerAttrGetValueInt(a) != 0;
    defineBool(r, res, v ? "%true" : "%false", v ? "%true" : "%false");
    return;
  }
  int n = fresh(r);
  faTextAppend(r->t, "  %%t%d = arith.constant %lld : i64\n", n, (long long)mlirIntegerAttrGetValueInt(a));
  char b[32];
  defineInt(r, res, tname(b, n), b, "%true");
}

/* lo/hi of x OP y for add and sub. */
static void ruleAddSub(Range *r, MlirValue res, const IntNames *x, const IntNames *y, bool sub) {
  char lo[32], hi[32];
  tname(lo, emit2(r, sub ? "arith.subi" : "arith.addi", x->lo, sub ? y->hi : y->lo, "i64"));
  tname(hi, emit2(r, sub ? "arith.subi" : "arith.addi", x->hi, sub ? y->lo : y->hi, "i64"));
  char k[32];
  tname(k, emit2(r, "arith.andi", x->k, y->k, "i1"));
  defineInt(r, res, lo, hi, k);
}

/* [min, max] of `op` over the four combinations of x's and y's bounds (i64
 * or f32). */
static void cornerBounds(Range *r, const char *op, const IntNames *x, const IntNames *y, bool f32,
                         char lo[32], char hi[32]) {
  const char *type = f32 ? "f32" : "i64", *mn = f32 ? "arith.minimumf" : "arith.minsi",
             *mx = f32 ? "arith.maximumf" : "arith.maxsi";
  const char *xs[2] = {x->lo, x->hi}, *ys[2] = {y->lo, y->hi};
  char p[4][32], m0[32], m1[32];
  for (int i = 0; i < 4; ++i)
    tname(p[i], emit2(r, op, xs[i / 2], ys[i % 2], type));
  tname(m0, emit2(r, mn, p[0], p[1], type));
  tname(m1, emit2(r, mn, p[2], p[3], type));
  tname(lo, emit2(r, mn, m0, m1, type));
  tname(m0, emit2(r, mx, p[0], p[1], type));
  tname(m1, emit2(r, mx, p[2], p[3], type));
  tname(hi, emit2(r, mx, m0, m1, type));
}

/* Whether an interval lies in [-2^31, 2^31): %tN (i1). */
static int small(Range *r, const IntNames *x) {
  int a = fresh(r), b = fresh(r), c = fresh(r), d = fresh(r), e = fresh(r);
  faTextAppend(r->t,
               "  %%t%d = arith.constant -2147483648 : i64\n  %%t%d = arith.constant 2147483648 : i64\n"
               "  %%t%d = arith.cmpi sge, %s, %%t%d : i64\n  %%t%d = arith.cmpi slt, %s, %%t%d : i64\n"
               "  %%t%d = arith.andi %%t%d, %%t%d : i1\n",
               a, b, c, x->lo, a, d, x->hi, b, e, c, d);
  return e;
}

static void ruleMul(Range *r, MlirValue res, const IntNames *x, const IntNames *y) {
  char lo[32], hi[32], k[32], s0[32], s1[32];
  cornerBounds(r, "arith.muli", x, y, false, lo, hi);
  tname(s0, small(r, x));
  tname(s1, small(r, y));
  char a[32], b[32];
  tname(a, emit2(r, "arith.andi", x->k, y->k, "i1"));
  tname(b, emit2(r, "arith.andi", s0, s1, "i1"));
  tname(k, emit2(r, "arith.andi", a, b, "i1"));
  defineInt(r, res, lo, hi, k);
}

/* y a known positive singleton: %tN (i1); its safe divisor in %tM. */
static int positiveConstant(Range *r, const IntNames *y, int *divisor) {
  int a = fresh(r), b = fresh(r), c = fresh(r), d = fresh(r), e = fresh(r);
  faTextAppend(r->t,
               "  %%t%d = arith.cmpi eq, %s, %s : i64\n  %%t%d = arith.cmpi sgt, %s, %%z : i64\n"
               "  %%t%d = arith.andi %%t%d, %%t%d : i1\n  %%t%d = arith.andi %%t%d, %s : i1\n",
               a, y->lo, y->hi, b, y->lo, c, a, b, d, c, y->k);
  faTextAppend(r->t, "  %%t%d = arith.select %%t%d, %s, %%one : i64\n", e, d, y->lo);
  *divisor = e;
  return d;
}

/* Whether x.lo >= 0: %tN. */
static int nonNegative(Range *r, const IntNames *x) {
  int n = fresh(r);
  faTextAppend(r->t, "  %%t%d = arith.cmpi sge, %s, %%z : i64\n", n, x->lo);
  return n;
}

/* Division by a positive constant: monotone, so the ends map to the ends.
 * The unsigned ones need x >= 0 (then they are the signed ones). */
static void ruleDiv(Range *r, MlirValue res, const char *i64op, const IntNames *x,
                    const IntNames *y, bool isUnsigned) {
  int div;
  int ok = positiveConstant(r, y, &div);
  char dv[32], lo[32], hi[32], k[32], okn[32];
  tname(dv, div);
  tname(lo, emit2(r, i64op, x->lo, dv, "i64"));
  tname(hi, emit2(r, i64op, x->hi, dv, "i64"));
  tname(okn, ok);
  tname(k, emit2(r, "arith.andi", x->k, okn, "i1"));
  if (isUnsigned) {
    char nn[32];
    tname(nn, nonNegative(r, x));
    tname(k, emit2(r, "arith.andi", k, nn, "i1"));
  }
  defineInt(r, res, lo, hi, k);
}

/* x mod c, x >= 0, c a positive constant: [x.lo mod c, x.hi mod c] when both
 * ends are in one period, else [0, c - 1]. */
static void ruleRem(Range *r, MlirValue res, const IntNames *x, const IntNames *y) {
  int div;
  int ok = positiveConstant(r, y, &div);
  char dv[32], q0[32], q1[32], same[32], r0[32], r1[32], c1[32], lo[32], hi[32], k[32], nn[32], okn[32];
  tname(dv, div);
  tname(q0, emit2(r, "arith.divsi", x->lo, dv, "i64"));
  tname(q1, emit2(r, "arith.divsi", x->hi, dv, "i64"));
  tname(same, emit2(r, "arith.cmpi eq,", q0, q1, "i64"));
  tname(r0, emit2(r, "arith.remsi", x->lo, dv, "i64"));
  tname(r1, emit2(r, "arith.remsi", x->hi, dv, "i64"));
  tname(c1, emit2(r, "arith.subi", dv, "%one", "i64"));
  int a = fresh(r), b = fresh(r);
  faTextAppend(r->t, "  %%t%d = arith.select %s, %s, %%z : i64\n  %%t%d = arith.select %s, %s, %s : i64\n",
               a, same, r0, b, same, r1, c1);
  tname(lo, a);
  tname(hi, b);
  tname(nn, nonNegative(r, x));
  tname(okn, ok);
  tname(k, emit2(r, "arith.andi", x->k, okn, "i1"));
  tname(k, emit2(r, "arith.andi", k, nn, "i1"));
  defineInt(r, res, lo, hi, k);
}

/* k = both intervals known (and, for an unsigned reading, both >= 0). */
static void bothKnown(Range *r, char k[32], const IntNames *x, const IntNames *y,
                      bool isUnsigned) {
  tname(k, emit2(r, "arith.andi", x->k, y->k, "i1"));
  if (!isUnsigned)
    return;
  char a[32], b[32];
  tname(a, nonNegative(r, x));
  tname(b, nonNegative(r, y));
  tname(k, emit2(r, "arith.andi", k, a, "i1"));
  tname(k, emit2(r, "arith.andi", k, b, "i1"));
}

static void ruleMinMax(Range *r, MlirValue res, const char *i64op, const IntNames *x,
                       const IntNames *y, bool isUnsigned) {
  char lo[32], hi[32], k[32];
  tname(lo, emit2(r, i64op, x->lo, y->lo, "i64"));
  tname(hi, emit2(r, i64op, x->hi, y->hi, "i64"));
  bothKnown(r, k, x, y, isUnsigned);
  defineInt(r, res, lo, hi, k);
}

/* A cast between integer types (index, iN): the same interval, where it fits
 * the result; from an unsigned reading, only where x >= 0. */
static void ruleCast(Range *r, MlirValue res, const IntNames *x, bool isUnsigned) {
  char k[32];
  snprintf(k, sizeof k, "%s", x->k);
  if (isUnsigned) {
    char nn[32];
    tname(nn, nonNegative(r, x));
    tname(k, emit2(r, "arith.andi", x->k, nn, "i1"));
  }
  defineInt(r, res, x->lo, x->hi, k);
}

/* An i1 extended to an integer: extui gives [must, may], extsi [-may, -must]. */
static void ruleExtBool(Range *r, MlirValue res, const BoolNames *x, bool isSigned) {
  int a = fresh(r), b = fresh(r);
  const char *one = isSigned ? "%mone" : "%one";
  faTextAppend(r->t, "  %%t%d = arith.select %s, %s, %%z : i64\n  %%t%d = arith.select %s, %s, %%z : i64\n",
               a, isSigned ? x->may : x->must, one, b, isSigned ? x->must : x->may, one);
  char lo[32], hi[32];
  defineInt(r, res, tname(lo, a), tname(hi, b), "%true");
}

/* cmpi: (may, must) of the predicate over the intervals; unknown unless both
 * are known (and, for an unsigned predicate, both >= 0). */
static void ruleCmp(Range *r, MlirValue res, int64_t pred, const IntNames *x, const IntNames *y) {
  /* arith.cmpi predicates: eq ne slt sle sgt sge ult ule ugt uge. */
  bool isUnsigned = pred >= 6;
  int p = isUnsigned ? (int)pred - 4 : (int)pred; /* ult->slt, ... */
  char may[32], must[32];
  static const char *const kOrder[4] = {"arith.cmpi slt,", "arith.cmpi sle,", "arith.cmpi sgt,",
                                        "arith.cmpi sge,"};
  if (p >= 2 && p <= 5) {
    /* x < y may hold when x.lo < y.hi and must when x.hi < y.lo; > mirrors. */
    bool less = p <= 3;
    tname(may, emit2(r, kOrder[p - 2], less ? x->lo : x->hi, less ? y->hi : y->lo, "i64"));
    tname(must, emit2(r, kOrder[p - 2], less ? x->hi : x->lo, less ? y->lo : y->hi, "i64"));
  } else { /* eq, ne */
    char o1[32], o2[32], overlap[32], sx[32], sy[32], se[32], a[32], single[32];
    tname(o1, emit2(r, "arith.cmpi sle,", x->lo, y->hi, "i64"));
    tname(o2, emit2(r, "arith.cmpi sle,", y->lo, x->hi, "i64"));
    tname(overlap, emit2(r, "arith.andi", o1, o2, "i1"));
    tname(sx, emit2(r, "arith.cmpi eq,", x->lo, x->hi, "i64"));
    tname(sy, emit2(r, "arith.cmpi eq,", y->lo, y->hi, "i64"));
    tname(se, emit2(r, "arith.cmpi eq,", x->lo, y->lo, "i64"));
    tname(a, emit2(r, "arith.andi", sx, sy, "i1"));
    tname(single, emit2(r, "arith.andi", a, se, "i1"));
    if (p == 0) {
      snprintf(may, sizeof may, "%s", overlap);
      snprintf(must, sizeof must, "%s", single);
    } else {
      tname(may, emit2(r, "arith.xori", single, "%true", "i1"));
      tname(must, emit2(r, "arith.xori", overlap, "%true", "i1"));
    }
  }
  char k[32], fm[32], fs[32];
  bothKnown(r, k, x, y, isUnsigned);
  /* Unknown: may = true, must = false. */
  char nk[32];
  tname(nk, emit2(r, "arith.xori", k, "%true", "i1"));
  tname(fm, emit2(r, "arith.ori", may, nk, "i1"));
  tname(fs, emit2(r, "arith.andi", must, k, "i1"));
  defineBool(r, res, fm, fs);
}

static void ruleLogic(Range *r, MlirValue res, const char *op, const BoolNames *x,
                      const BoolNames *y) {
  char may[32], must[32];
  if (!strcmp(op, "arith.andi") || !strcmp(op, "arith.ori")) {
    tname(may, emit2(r, op, x->may, y->may, "i1"));
    tname(must, emit2(r, op, x->must, y->must, "i1"));
  } else { /* xori */
    char nmx[32], nmy[32], nMx[32], nMy[32], a[32], b[32];
    tname(nmx, emit2(r, "arith.xori", x->must, "%true", "i1"));
    tname(nmy, emit2(r, "arith.xori", y->must, "%true", "i1"));
    tname(nMx, emit2(r, "arith.xori", x->may, "%true", "i1"));
    tname(nMy, emit2(r, "arith.xori", y->may, "%true", "i1"));
    tname(a, emit2(r, "arith.andi", x->may, nmy, "i1"));
    tname(b, emit2(r, "arith.andi", nmx, y->may, "i1"));
    tname(may, emit2(r, "arith.ori", a, b, "i1"));
    tname(a, emit2(r, "arith.andi", x->must, nMy, "i1"));
    tname(b, emit2(r, "arith.andi", nMx, y->must, "i1"));
    tname(must, emit2(r, "arith.ori", a, b, "i1"));
  }
  defineBool(r, res, may, must);
}

/* The bounds of select %c, %x, %y of two int (i64 bounds) or f32 slots:
 * where c must hold, x's; where it may not, y's; else their union. */
static void selectBounds(Range *r, const BoolNames *c, const IntNames *a, const IntNames *b, bool f32,
                         char lo[32], char hi[32], char k[32]) {
  const char *type = f32 ? "f32" : "i64";
  char ulo[32], uhi[32], uk[32], nmay[32];
  tname(ulo, emit2(r, f32 ? "arith.minimumf" : "arith.minsi", a->lo, b->lo, type));
  tname(uhi, emit2(r, f32 ? "arith.maximumf" : "arith.maxsi", a->hi, b->hi, type));
  tname(uk, emit2(r, "arith.andi", a->k, b->k, "i1"));
  tname(nmay, emit2(r, "arith.xori", c->may, "%true", "i1"));
  int l1 = fresh(r), l2 = fresh(r), h1 = fresh(r), h2 = fresh(r), k1 = fresh(r), k2 = fresh(r);
  faTextAppend(r->t,
               "  %%t%d = arith.select %s, %s, %s : %s\n  %%t%d = arith.select %s, %s, %%t%d : %s\n"
               "  %%t%d = arith.select %s, %s, %s : %s\n  %%t%d = arith.select %s, %s, %%t%d : %s\n"
               "  %%t%d = arith.select %s, %s, %s : i1\n  %%t%d = arith.select %s, %s, %%t%d : i1\n",
               l1, nmay, b->lo, ulo, type, l2, c->must, a->lo, l1, type, h1, nmay, b->hi, uhi, type,
               h2, c->must, a->hi, h1, type, k1, nmay, b->k, uk, k2, c->must, a->k, k1);
  tname(lo, l2);
  tname(hi, h2);
  tname(k, k2);
}

/* select %c, %x, %y: where c is decided, its side; else both. */
static void ruleSelect(Range *r, MlirValue res, const BoolNames *c, const Slot *x, const Slot *y) {
  char nmust[32];
  tname(nmust, emit2(r, "arith.xori", c->must, "%true", "i1"));
  if (x->kind == V_BOOL) {
    BoolNames a = boolNames(x), b = boolNames(y);
    char t1[32], t2[32], may[32], must[32], nmay[32], t3[32];
    tname(t1, emit2(r, "arith.andi", c->may, a.may, "i1"));
    tname(t2, emit2(r, "arith.andi", nmust, b.may, "i1"));
    tname(may, emit2(r, "arith.ori", t1, t2, "i1"));
    tname(nmay, emit2(r, "arith.xori", c->may, "%true", "i1"));
    tname(t1, emit2(r, "arith.andi", c->must, a.must, "i1"));
    tname(t2, emit2(r, "arith.andi", nmay, b.must, "i1"));
    tname(t3, emit2(r, "arith.andi", a.must, b.must, "i1"));
    tname(must, emit2(r, "arith.ori", t1, t2, "i1"));
    tname(must, emit2(r, "arith.ori", must, t3, "i1"));
    defineBool(r, res, may, must);
    return;
  }
  IntNames a = intNames(x), b = intNames(y);
  char lo[32], hi[32], k[32];
  selectBounds(r, c, &a, &b, false, lo, hi, k);
  defineInt(r, res, lo, hi, k);
}

/* --- reads of captured tensors: their tile summaries -------------------------- */

/* The summary of the capture `v` reads (-1: none) and the capture's number. */
static int summaryOfRead(const Range *r, MlirValue v, intptr_t *capture) {
  if (!mlirValueIsABlockArgument(v) || mlirBlockArgumentGetArgNumber(v) < 4)
    return -1;
  *capture = mlirBlockArgumentGetArgNumber(v) - 4;
  return *capture < r->k->numCaptures ? r->k->summaryOf[*capture] : -1;
}

/* A new i64 constant, in %tN. */
static int constant64(Range *r, long long v) {
  int n = fresh(r);
  faTextAppend(r->t, "  %%t%d = arith.constant %lld : i64\n", n, v);
  return n;
}

/* Index d's interval clamped into [0, dim - 1] (as the kernels clamp reads):
 * `lo`, `hi`; the dim (i64) in `dim`; `k` and-ed with "known, and the dim is
 * not empty". */
static void clampedIndex(Range *r, intptr_t capture, int d, const IntNames *x, char lo[32],
                         char hi[32], char dim[32], char k[32]) {
  int c = fresh(r), n = fresh(r), n64 = fresh(r);
  faTextAppend(r->t,
               "  %%t%d = arith.constant %d : index\n  %%t%d = memref.dim %%cap%ld, %%t%d : ",
               c, d, n, (long)capture, c);
  faAttentionAppendCaptureType(r->t, r->k, capture);
  faTextAppend(r->t, "\n  %%t%d = arith.index_cast %%t%d : index to i64\n", n64, n);
  char last[32], a[32];
  tname(dim, n64);
  tname(last, emit2(r, "arith.subi", dim, "%one", "i64"));
  tname(a, emit2(r, "arith.maxsi", x->lo, "%z", "i64"));
  tname(lo, emit2(r, "arith.minsi", a, last, "i64"));
  tname(a, emit2(r, "arith.maxsi", x->hi, "%z", "i64"));
  tname(hi, emit2(r, "arith.minsi", a, last, "i64"));
  tname(a, emit2(r, "arith.cmpi sgt,", dim, "%z", "i64"));
  tname(k, emit2(r, "arith.andi", k, a, "i1"));
  tname(k, emit2(r, "arith.andi", k, x->k, "i1"));
}

/* floor(log2(x)) of an i64 x >= 1, in %tN. */
static int log2Floor(Range *r, const char *x) {
  char lz[32], c63[32];
  int n = fresh(r);
  faTextAppend(r->t, "  %%t%d = math.ctlz %s : i64\n", n, x);
  tname(lz, n);
  tname(c63, constant64(r, 63));
  return emit2(r, "arith.subi", c63, lz, "i64");
}

/* The sparse table's entries for tiles [t0, t1] of row `row` of a capture
 * whose last dim is L (MaskSummary.c): the element indices of the minima
 * of the two runs of 2^l tiles that cover them, in %tA and %tB. */
static void tableEntries(Range *r, const char *row, const char *L, const char *t0,
                         const char *t1, int *ea, int *eb) {
  char c63[32], c64[32], nt[32], lv[32], cnt[32], lq[32], p[32], base[32], a[32], b[32];
  tname(c63, constant64(r, 63));
  tname(c64, constant64(r, 64));
  tname(nt, emit2(r, "arith.addi", L, c63, "i64"));
  tname(nt, emit2(r, "arith.divsi", nt, c64, "i64"));
  tname(nt, emit2(r, "arith.maxsi", nt, "%one", "i64"));
  tname(lv, log2Floor(r, nt));
  tname(lv, emit2(r, "arith.addi", lv, "%one", "i64")); /* the levels: NT's bit length */
  tname(cnt, emit2(r, "arith.subi", t1, t0, "i64"));
  tname(cnt, emit2(r, "arith.addi", cnt, "%one", "i64"));
  tname(cnt, emit2(r, "arith.maxsi", cnt, "%one", "i64"));
  tname(lq, log2Floor(r, cnt));
  tname(p, emit2(r, "arith.shli", "%one", lq, "i64"));
  tname(base, emit2(r, "arith.muli", row, lv, "i64"));
  tname(base, emit2(r, "arith.addi", base, lq, "i64"));
  tname(base, emit2(r, "arith.muli", base, nt, "i64"));
  tname(a, emit2(r, "arith.addi", base, t0, "i64"));
  tname(b, emit2(r, "arith.addi", base, t1, "i64"));
  tname(b, emit2(r, "arith.subi", b, p, "i64"));
  tname(b, emit2(r, "arith.addi", b, "%one", "i64"));
  *ea = emit2(r, "arith.addi", a, a, "i64");
  *eb = emit2(r, "arith.addi", b, b, "i64");
}

/* [min, max] of summary `s` at entries ea, eb, in %tN#0 and %tN#1 (garbage
 * where not `k`: the entries then read element 0, which every summary has).
 * The loads are unconditional, so that a kernel's compiler may hoist and
 * share the ones that do not change along its key loop (the query's). */
static int tableRead(Range *r, int s, const char *k, int ea, int eb) {
  int m = fresh(r);
  char a[32], b[32];
  snprintf(a, sizeof a, "%%t%d_sa", m);
  snprintf(b, sizeof b, "%%t%d_sb", m);
  faTextAppend(r->t, "  %s = arith.select %s, %%t%d, %%z : i64\n  %s = arith.select %s, %%t%d, %%z : i64\n",
               a, k, ea, b, k, eb);
  faTextAppend(r->t,
               "  %%t%d_a = arith.index_cast %s : i64 to index\n"
               "  %%t%d_b = arith.index_cast %s : i64 to index\n"
               "  %%t%d_1 = arith.constant 1 : index\n"
               "  %%t%d_a1 = arith.addi %%t%d_a, %%t%d_1 : index\n"
               "  %%t%d_b1 = arith.addi %%t%d_b, %%t%d_1 : index\n",
               m, a, m, b, m, m, m, m, m, m, m);
  static const char *const kParts[4][2] = {{"amin", "a"}, {"amax", "a1"}, {"bmin", "b"}, {"bmax", "b1"}};
  for (int i = 0; i < 4; ++i)
    faTextAppend(r->t, "  %%t%d_%s = memref.load %%sum%d[%%t%d_%s] : memref<?xi64>\n", m,
                 kParts[i][0], s, m, kParts[i][1]);
  faTextAppend(r->t,
               "  %%t%d_0 = arith.minsi %%t%d_amin, %%t%d_bmin : i64\n"
               "  %%t%d_1x = arith.maxsi %%t%d_amax, %%t%d_bmax : i64\n",
               m, m, m, m, m, m);
  return m;
}

/* Where the last index is one point too (`lo` == `hi`), the element at
 * `at` (the indices' clamped lows, i64; 0 where not `k`) in place of the
 * summary's [`mn`, `mx`] (renamed to the selections): exact where a kernel
 * asks about one query. The load is unconditional, at an index in bounds,
 * so that it may be hoisted out of a key loop. */
static void pointRead(Range *r, intptr_t capture, int rank, char at[][32], const char *lo,
                      const char *hi, const char *k, char mn[32], char mx[32]) {
  int n = fresh(r);
  for (int d = 0; d < rank; ++d)
    faTextAppend(r->t,
                 "  %%t%d_s%d = arith.select %s, %s, %%z : i64\n"
                 "  %%t%d_i%d = arith.index_cast %%t%d_s%d : i64 to index\n",
                 n, d, k, at[d], n, d, n, d);
  faTextAppend(r->t, "  %%t%d_v = memref.load %%cap%ld[", n, (long)capture);
  for (int d = 0; d < rank; ++d)
    faTextAppend(r->t, "%s%%t%d_i%d", d ? ", " : "", n, d);
  faTextAppend(r->t, "] : ");
  faAttentionAppendCaptureType(r->t, r->k, capture);
  MlirType elt = mlirShapedTypeGetElementType(mlirValueGetType(r->k->captures[capture]));
  unsigned w = mlirIntegerTypeGetWidth(elt);
  if (w == 64)
    faTextAppend(r->t, "\n  %%t%d_x = arith.addi %%t%d_v, %%z : i64\n", n, n);
  else
    faTextAppend(r->t, "\n  %%t%d_x = arith.%s %%t%d_v : i%u to i64\n", n,
                 w == 1 ? "extui" : "extsi", n, w);
  faTextAppend(r->t,
               "  %%t%d_pt = arith.cmpi eq, %s, %s : i64\n"
               "  %%t%d_mn = arith.select %%t%d_pt, %%t%d_x, %s : i64\n"
               "  %%t%d_mx = arith.select %%t%d_pt, %%t%d_x, %s : i64\n",
               n, lo, hi, n, n, n, mn, n, n, n, mx);
  snprintf(mn, 32, "%%t%d_mn", n);
  snprintf(mx, 32, "%%t%d_mx", n);
}

/* tensor.extract %cap[x0, .., xn] of a summarized capture: where every index
 * is known and the leading ones are one point after clamping, [min, max] of
 * the two runs of the summary that cover the last index's interval (an i1:
 * may = max, must = min); else unknown. */
static void ruleExtract(Range *r, MlirOperation op, MlirValue res) {
  intptr_t capture = 0;
  int s = summaryOfRead(r, mlirOperationGetOperand(op, 0), &capture);
  intptr_t rank = mlirOperationGetNumOperands(op) - 1;
  MlirType et = mlirValueGetType(res);
  bool ok = s >= 0 && rank >= 1 && (isInt(et) || isBool(et)) && !mlirTypeIsAIndex(et);
  for (intptr_t d = 0; ok && d < rank; ++d) {
    const Slot *x = lookup(r, mlirOperationGetOperand(op, d + 1));
    ok = x && x->kind == V_INT;
  }
  if (!ok) {
    defineUnknown(r, res);
    return;
  }
  char k[32] = "%true", row[32] = "%z", lo[32], hi[32], dim[32], a[32], at[8][32];
  for (intptr_t d = 0; d < rank; ++d) {
    IntNames x = intNames(lookup(r, mlirOperationGetOperand(op, d + 1)));
    clampedIndex(r, capture, (int)d, &x, lo, hi, dim, k);
    memcpy(at[d], lo, sizeof at[d]);
    if (d + 1 == rank)
      break;
    tname(a, emit2(r, "arith.cmpi eq,", lo, hi, "i64"));
    tname(k, emit2(r, "arith.andi", k, a, "i1"));
    tname(row, emit2(r, "arith.muli", row, dim, "i64"));
    tname(row, emit2(r, "arith.addi", row, lo, "i64"));
  }
  char c64[32], t0[32], t1[32];
  tname(c64, constant64(r, 64));
  tname(t0, emit2(r, "arith.divsi", lo, c64, "i64"));
  tname(t1, emit2(r, "arith.divsi", hi, c64, "i64"));
  int ea, eb;
  tableEntries(r, row, dim, t0, t1, &ea, &eb);
  int m = tableRead(r, s, k, ea, eb);
  char mn[32], mx[32];
  snprintf(mn, sizeof mn, "%%t%d_0", m);
  snprintf(mx, sizeof mx, "%%t%d_1x", m);
  if (r->pointReads && rank <= 8)
    pointRead(r, capture, (int)rank, at, lo, hi, k, mn, mx);
  if (!isBool(et)) {
    defineInt(r, res, mn, mx, k);
    return;
  }
  char may[32], must[32], nk[32];
  tname(may, emit2(r, "arith.cmpi ne,", mx, "%z", "i64"));
  tname(nk, emit2(r, "arith.xori", k, "%true", "i1"));
  tname(may, emit2(r, "arith.ori", may, nk, "i1"));
  tname(must, emit2(r, "arith.cmpi ne,", mn, "%z", "i64"));
  tname(must, emit2(r, "arith.andi", must, k, "i1"));
  defineBool(r, res, may, must);
}

static bool nameIs(MlirOperation op, const char *name) { return faOpIsA(op, name); }

static bool nameIn(MlirOperation op, const char *const *names) {
  for (; *names; ++names)
    if (nameIs(op, *names))
      return true;
  return false;
}

/* --- f32 values (score_mod's tile test) ---------------------------------------
 * An f32 value is [lo, hi] (f32) and `known`. Every rule below is monotone
 * in each operand (round-to-nearest keeps order), so the rounded results of
 * the bounds bound the rounded results; a NaN bound makes it unknown. */

static void defineFloat(Range *r, MlirValue v, const char *lo, const char *hi, const char *k) {
  const Slot *s = define(r, v, V_FLOAT);
  char ord[32], kk[32];
  tname(ord, emit2(r, "arith.cmpf ord,", lo, hi, "f32"));
  tname(kk, emit2(r, "arith.andi", k, ord, "i1"));
  faTextAppend(r->t, "  %%v%d_lo = arith.addf %s, %%fnz : f32\n  %%v%d_hi = arith.addf %s, %%fnz : f32\n"
                     "  %%v%d_k = arith.andi %s, %%true : i1\n", s->id, lo, s->id, hi, s->id, kk);
}

/* %tN = OP x : f32 (a unary op on f32). */
static int emit1f(Range *r, const char *op, const char *x) {
  int n = fresh(r);
  faTextAppend(r->t, "  %%t%d = %s %s : f32\n", n, op, x);
  return n;
}

/* The four combinations of x's and y's f32 bounds under `op`. */
static void corners(Range *r, MlirValue res, const char *op, const IntNames *x, const IntNames *y,
                    const char *k) {
  char lo[32], hi[32];
  cornerBounds(r, op, x, y, true, lo, hi);
  defineFloat(r, res, lo, hi, k);
}

static bool transformFloat(Range *r, MlirOperation op, MlirValue res, const Slot *const *s, intptr_t n) {
  MlirType t = mlirValueGetType(res);
  bool f1 = n == 1 && s[0] && s[0]->kind == V_FLOAT, f2 = n == 2 && s[0] && s[1] &&
                                                         s[0]->kind == V_FLOAT && s[1]->kind == V_FLOAT;
  IntNames x, y;
  memset(&x, 0, sizeof x);
  memset(&y, 0, sizeof y);
  if (s[0] && (s[0]->kind == V_FLOAT || s[0]->kind == V_INT))
    x = intNames(s[0]);
  if (n > 1 && s[1] && s[1]->kind == V_FLOAT)
    y = intNames(s[1]);
  char lo[32], hi[32], k[32], a[32];
  if (mlirTypeIsAF32(t) && nameIs(op, "arith.constant") && mlirAttributeIsAFloat(faOpGetAttr(op, "value"))) {
    float v = (float)mlirFloatAttrGetValueDouble(faOpGetAttr(op, "value"));
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    int c = fresh(r);
    faTextAppend(r->t, "  %%t%d = arith.constant 0x%08X : f32\n", c, (unsigned)bits);
    defineFloat(r, res, tname(lo, c), lo, "%true");
  } else if (mlirTypeIsAF32(t) && n == 1 && s[0] && s[0]->kind == V_INT && nameIs(op, "arith.sitofp")) {
    int l = fresh(r), h = fresh(r);
    faTextAppend(r->t, "  %%t%d = arith.sitofp %s : i64 to f32\n  %%t%d = arith.sitofp %s : i64 to f32\n",
                 l, x.lo, h, x.hi);
    defineFloat(r, res, tname(lo, l), tname(hi, h), x.k);
  } else if (f2 && (nameIs(op, "arith.addf") || nameIs(op, "arith.subf"))) {
    bool sub = nameIs(op, "arith.subf");
    tname(lo, emit2(r, sub ? "arith.subf" : "arith.addf", x.lo, sub ? y.hi : y.lo, "f32"));
    tname(hi, emit2(r, sub ? "arith.subf" : "arith.addf", x.hi, sub ? y.lo : y.hi, "f32"));
    defineFloat(r, res, lo, hi, tname(k, emit2(r, "arith.andi", x.k, y.k, "i1")));
  } else if (f2 && nameIs(op, "arith.mulf")) {
    corners(r, res, "arith.mulf", &x, &y, tname(k, emit2(r, "arith.andi", x.k, y.k, "i1")));
  } else if (f2 && nameIs(op, "arith.divf")) { /* only by an interval without 0 */
    char pos[32], neg[32], nz[32];
    tname(pos, emit2(r, "arith.cmpf ogt,", y.lo, "%fz", "f32"));
    tname(neg, emit2(r, "arith.cmpf olt,", y.hi, "%fz", "f32"));
    tname(nz, emit2(r, "arith.ori", pos, neg, "i1"));
    tname(k, emit2(r, "arith.andi", x.k, y.k, "i1"));
    corners(r, res, "arith.divf", &x, &y, tname(k, emit2(r, "arith.andi", k, nz, "i1")));
  } else if (f2 && (nameIs(op, "arith.minimumf") || nameIs(op, "arith.minnumf") ||
                    nameIs(op, "arith.maximumf") || nameIs(op, "arith.maxnumf"))) {
    const char *m = nameIs(op, "arith.minimumf") || nameIs(op, "arith.minnumf") ? "arith.minimumf"
                                                                                : "arith.maximumf";
    tname(lo, emit2(r, m, x.lo, y.lo, "f32"));
    tname(hi, emit2(r, m, x.hi, y.hi, "f32"));
    defineFloat(r, res, lo, hi, tname(k, emit2(r, "arith.andi", x.k, y.k, "i1")));
  } else if (f1 && (nameIs(op, "math.log") || nameIs(op, "math.roundeven") ||
                    nameIs(op, "math.floor") || nameIs(op, "math.ceil"))) {
    const char *m = faOpIsA(op, "math.log") ? "math.log" : faOpIsA(op, "math.floor") ? "math.floor"
                    : faOpIsA(op, "math.ceil") ? "math.ceil" : "math.roundeven";
    tname(lo, emit1f(r, m, x.lo));
    tname(hi, emit1f(r, m, x.hi));
    strcpy(k, x.k);
    if (faOpIsA(op, "math.log")) /* increasing on [0, inf] */
      tname(k, emit2(r, "arith.andi", x.k, tname(a, emit2(r, "arith.cmpf oge,", x.lo, "%fz", "f32")), "i1"));
    defineFloat(r, res, lo, hi, k);
  } else if (f1 && isInt(t) && !mlirTypeIsAIndex(t) && nameIs(op, "arith.fptosi")) {
    /* Non-decreasing; known where both bounds are within +-2^62 (the
     * conversion of the clamped bounds is then defined). */
    char lim[32], nlim[32], cl[32], ch[32], in0[32], in1[32];
    int c = fresh(r);
    faTextAppend(r->t, "  %%t%d = arith.constant 4.0e18 : f32\n", c);
    tname(lim, c);
    tname(nlim, emit1f(r, "arith.negf", lim));
    tname(cl, emit2(r, "arith.maximumf", x.lo, nlim, "f32"));
    tname(cl, emit2(r, "arith.minimumf", cl, lim, "f32"));
    tname(ch, emit2(r, "arith.maximumf", x.hi, nlim, "f32"));
    tname(ch, emit2(r, "arith.minimumf", ch, lim, "f32"));
    tname(in0, emit2(r, "arith.cmpf oge,", x.lo, nlim, "f32"));
    tname(in1, emit2(r, "arith.cmpf ole,", x.hi, lim, "f32"));
    tname(k, emit2(r, "arith.andi", x.k, in0, "i1"));
    tname(k, emit2(r, "arith.andi", k, in1, "i1"));
    int l = fresh(r), h = fresh(r);
    faTextAppend(r->t, "  %%t%d = arith.fptosi %s : f32 to i64\n  %%t%d = arith.fptosi %s : f32 to i64\n",
                 l, cl, h, ch);
    defineInt(r, res, tname(lo, l), tname(hi, h), k);
  } else
    return false;
  return true;
}

/* select %c, %x, %y of f32: where c is decided, its side; else both. */
static void ruleSelectFloat(Range *r, MlirValue res, const BoolNames *c, const Slot *x, const Slot *y) {
  IntNames a = intNames(x), b = intNames(y);
  char lo[32], hi[32], k[32];
  selectBounds(r, c, &a, &b, true, lo, hi, k);
  defineFloat(r, res, lo, hi, k);
}

/* One op of the mask's body. */
static void transformOp(Range *r, MlirOperation op) {
  if (nameIs(op, "func.return"))
    return;
  if (mlirOperationGetNumResults(op) != 1) {
    for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
      defineUnknown(r, mlirOperationGetResult(op, i));
    return;
  }
  MlirValue res = mlirOperationGetResult(op, 0);
  if (nameIs(op, "arith.constant") && !mlirTypeIsAF32(mlirValueGetType(res))) {
    ruleConstant(r, op, res);
    return;
  }
  if (nameIs(op, "tensor.extract")) {
    ruleExtract(r, op, res);
    return;
  }
  intptr_t n = mlirOperationGetNumOperands(op);
  const Slot *s[3] = {NULL, NULL, NULL};
  for (intptr_t i = 0; i < n && i < 3; ++i)
    s[i] = lookup(r, mlirOperationGetOperand(op, i));
  bool ints2 = n == 2 && s[0] && s[1] && s[0]->kind == V_INT && s[1]->kind == V_INT;
  bool bools2 = n == 2 && s[0] && s[1] && s[0]->kind == V_BOOL && s[1]->kind == V_BOOL;
  bool int1 = n == 1 && s[0] && s[0]->kind == V_INT && isInt(mlirValueGetType(res));
  IntNames x, y;
  memset(&x, 0, sizeof x);
  memset(&y, 0, sizeof y);
  if (s[0] && s[0]->kind == V_INT)
    x = intNames(s[0]);
  if (s[1] && s[1]->kind == V_INT)
    y = intNames(s[1]);
  static const char *const kSignedCasts[] = {"arith.index_cast", "arith.extsi", "arith.trunci", NULL};
  static const char *const kUnsignedCasts[] = {"arith.index_castui", "arith.extui", NULL};
  if (ints2 && (nameIs(op, "arith.addi") || nameIs(op, "arith.subi")))
    ruleAddSub(r, res, &x, &y, nameIs(op, "arith.subi"));
  else if (ints2 && nameIs(op, "arith.muli"))
    ruleMul(r, res, &x, &y);
  else if (ints2 && (nameIs(op, "arith.divsi") || nameIs(op, "arith.divui")))
    ruleDiv(r, res, "arith.divsi", &x, &y, nameIs(op, "arith.divui"));
  else if (ints2 && nameIs(op, "arith.floordivsi"))
    ruleDiv(r, res, "arith.floordivsi", &x, &y, false);
  else if (ints2 && (nameIs(op, "arith.ceildivsi") || nameIs(op, "arith.ceildivui")))
    ruleDiv(r, res, "arith.ceildivsi", &x, &y, nameIs(op, "arith.ceildivui"));
  else if (ints2 && (nameIs(op, "arith.remsi") || nameIs(op, "arith.remui")))
    ruleRem(r, res, &x, &y);
  else if (ints2 && (nameIs(op, "arith.minsi") || nameIs(op, "arith.minui")))
    ruleMinMax(r, res, "arith.minsi", &x, &y, nameIs(op, "arith.minui"));
  else if (ints2 && (nameIs(op, "arith.maxsi") || nameIs(op, "arith.maxui")))
    ruleMinMax(r, res, "arith.maxsi", &x, &y, nameIs(op, "arith.maxui"));
  else if (int1 && nameIn(op, kSignedCasts))
    ruleCast(r, res, &x, false);
  else if (int1 && nameIn(op, kUnsignedCasts))
    ruleCast(r, res, &x, true);
  else if (n == 1 && s[0] && s[0]->kind == V_BOOL && isInt(mlirValueGetType(res)) &&
           (nameIs(op, "arith.extui") || nameIs(op, "arith.extsi"))) {
    BoolNames b = boolNames(s[0]);
    ruleExtBool(r, res, &b, nameIs(op, "arith.extsi"));
  } else if (ints2 && nameIs(op, "arith.cmpi"))
    ruleCmp(r, res, mlirIntegerAttrGetValueInt(faOpGetAttr(op, "predicate")), &x, &y);
  else if (bools2 && (nameIs(op, "arith.andi") || nameIs(op, "arith.ori") || nameIs(op, "arith.xori"))) {
    BoolNames a = boolNames(s[0]), b = boolNames(s[1]);
    ruleLogic(r, res, nameIs(op, "arith.andi") ? "arith.andi" : nameIs(op, "arith.ori") ? "arith.ori" : "arith.xori", &a, &b);
  } else if (nameIs(op, "arith.select") && n == 3 && s[0] && s[1] && s[2] && s[0]->kind == V_BOOL &&
             s[1]->kind == s[2]->kind && s[1]->kind != V_OTHER) {
    BoolNames c = boolNames(s[0]);
    if (s[1]->kind == V_FLOAT)
      ruleSelectFloat(r, res, &c, s[1], s[2]);
    else
      ruleSelect(r, res, &c, s[1], s[2]);
  } else if (!transformFloat(r, op, res, s, n))
    defineUnknown(r, res);
}

/* The block arguments from `first` (before it: a score, unknown): b, h
 * exact; i in [ilo, ihi]; j in [jlo, jhi]; integer scalar captures exact;
 * the rest unknown. */
static void defineArgs(Range *r, MlirBlock entry, intptr_t first) {
  static const char *const kLo[4] = {"%b", "%h", "%ilo", "%jlo"}, *const kHi[4] = {"%b", "%h", "%ihi", "%jhi"};
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); ++i) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    MlirType t = mlirValueGetType(arg);
    intptr_t a = i - first;
    if (a < 0 || (a >= 4 && !isInt(t))) {
      defineUnknown(r, arg);
      continue;
    }
    char lo[32], hi[32], name[32];
    if (a < 4) {
      tname(lo, toI64(r, kLo[a], t));
      tname(hi, toI64(r, kHi[a], t));
    } else {
      snprintf(name, sizeof name, "%%cap%ld", (long)(a - 4));
      tname(lo, toI64(r, name, t));
      snprintf(hi, sizeof hi, "%s", lo);
    }
    defineInt(r, arg, lo, hi, "%true");
  }
}

/* `func.func private @NAME_SUFFIX(%b, %h, %ilo, %ihi, %jlo, %jhi: index,
 * captures[, summaries]) -> RESULTS` up to its body, with its constants, and
 * the body of `fn` (indices from argument `first`) on intervals; the return
 * op of `fn`, or a null op. */
static MlirOperation transformFunction(Range *r, MlirOperation fn, intptr_t first, const char *suffix,
                                       bool summaries, const char *results) {
  const FaAttentionKernel *k = r->k;
  faTextAppend(r->t, "func.func private @%s_%s(%%b: index, %%h: index, %%ilo: index, "
                     "%%ihi: index, %%jlo: index, %%jhi: index", k->name, suffix);
  if (summaries)
    faAttentionAppendRangeCaptures(r->t, k, FA_CAPTURES_FULL_PARAMS);
  else
    faAttentionAppendCaptures(r->t, k, FA_CAPTURES_FULL_PARAMS);
  faTextAppend(r->t, ") -> %s attributes {" FA_INLINE_ATTR "} {\n"
                     "  %%true = arith.constant true\n  %%false = arith.constant false\n"
                     "  %%z = arith.constant 0 : i64\n  %%one = arith.constant 1 : i64\n"
                     "  %%mone = arith.constant -1 : i64\n  %%fnz = arith.constant -0.0 : f32\n"
                     "  %%fz = arith.constant 0.0 : f32\n", results);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  defineArgs(r, entry, first);
  MlirOperation ret = (MlirOperation){NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    transformOp(r, op);
    if (nameIs(op, "func.return"))
      ret = op;
  }
  return ret;
}

/* @NAME_SUFFIX: the mask's interval function (reads at one point exact
 * where `pointReads`). */
static const char *appendMaskRange(MlirOperation module, const FaAttentionKernel *k,
                                   const char *suffix, bool pointReads) {
  FaText t;
  faTextInit(&t);
  Range r = {&t, k, {{{NULL}, V_OTHER, 0}}, 0, 0, false, pointReads};
  MlirOperation ret = transformFunction(&r, k->maskFn, 0, suffix, true, "(i1, i1)");
  const Slot *out = mlirOperationIsNull(ret) ? NULL : lookup(&r, mlirOperationGetOperand(ret, 0));
  if (r.failed || !out || out->kind != V_BOOL) {
    faTextDestroy(&t);
    return "the mask's interval function could not be made";
  }
  faTextAppend(&t, "  return %%v%d_may, %%v%d_must : i1, i1\n}\n", out->id, out->id);
  MlirLogicalResult ok = faModuleAppendParsed(module, &t);
  faTextDestroy(&t);
  return mlirLogicalResultIsSuccess(ok) ? NULL : "the mask's interval function did not parse";
}

/* @NAME_mask_range, and where the kernel reads the key-range table (whose
 * mixed tiles it tests row by row) @NAME_mask_row_range. */
const char *faAttentionAppendMaskRange(MlirOperation module, const FaAttentionKernel *k) {
  if (mlirOperationIsNull(k->maskFn))
    return NULL;
  const char *why = appendMaskRange(module, k, "mask_range", false);
  if (!why && faAttentionUsesKeyTable(k))
    why = appendMaskRange(module, k, "mask_row_range", true);
  return why;
}

/* --- the test of score_mod's tile-uniform copy ------------------------------
 * A value is uniform over the tile where it does not depend on the query and
 * key (the score, b, h, the captures), or its interval is one point (an
 * i1: may == must; an f32: a nonzero point, as -0 and +0 compare equal), or
 * every scalar operand of its op is uniform. The copy is exact where the
 * result is: it then depends on the query and key only through values that
 * are one value over the tile (a T5 bucket past the table's last distance). */

typedef struct {
  MlirValue value;
  int name; /* %tN: i1 */
} Uniform;

/* %tN: whether the slot's interval is one point. */
static int pointInterval(Range *r, const Slot *s) {
  char a[32], b[32];
  if (s->kind == V_INT) {
    IntNames x = intNames(s);
    tname(a, emit2(r, "arith.cmpi eq,", x.lo, x.hi, "i64"));
    return emit2(r, "arith.andi", a, x.k, "i1");
  }
  if (s->kind == V_BOOL) {
    BoolNames x = boolNames(s);
    return emit2(r, "arith.cmpi eq,", x.may, x.must, "i1");
  }
  if (s->kind == V_FLOAT) {
    IntNames x = intNames(s);
    tname(a, emit2(r, "arith.cmpf oeq,", x.lo, x.hi, "f32"));
    tname(b, emit2(r, "arith.cmpf one,", x.lo, "%fz", "f32"));
    tname(a, emit2(r, "arith.andi", a, b, "i1"));
    return emit2(r, "arith.andi", a, x.k, "i1");
  }
  return emit2(r, "arith.andi", "%false", "%false", "i1");
}

static int uniformOf(const Uniform *u, int n, MlirValue v) {
  for (int i = 0; i < n; ++i)
    if (mlirValueEqual(u[i].value, v))
      return u[i].name;
  return -1; /* a captured tensor: the same for every score */
}

/* %tN: the conjunction of the uniformity of `op`'s operands. */
static int operandsUniform(Range *r, const Uniform *u, int n, MlirOperation op) {
  char acc[32], x[32];
  tname(acc, emit2(r, "arith.andi", "%true", "%true", "i1"));
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    int name = uniformOf(u, n, mlirOperationGetOperand(op, i));
    if (name >= 0)
      tname(acc, emit2(r, "arith.andi", acc, tname(x, name), "i1"));
  }
  return atoi(acc + 2);
}

const char *faAttentionAppendModTileRange(MlirOperation module, const FaAttentionKernel *k) {
  if (!faAttentionModIsTiled(k))
    return NULL;
  FaText t;
  faTextInit(&t);
  Range r = {&t, k, {{{NULL}, V_OTHER, 0}}, 0, 0, false, false};
  transformFunction(&r, k->modFn, 1, "mod_tile_range", false, "i1");
  Uniform u[MAX_SLOTS];
  int n = 0;
  char a[32], b[32];
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(k->modFn, 0));
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); ++i) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    bool position = i == 3 || i == 4; /* (s, b, h, i, j, captures) */
    u[n++] = (Uniform){arg, position ? pointInterval(&r, lookup(&r, arg))
                                     : emit2(&r, "arith.andi", "%true", "%true", "i1")};
  }
  MlirValue result = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op) && n < MAX_SLOTS;
       op = mlirOperationGetNextInBlock(op)) {
    if (nameIs(op, "func.return")) {
      result = mlirOperationGetOperand(op, 0);
      continue;
    }
    if (mlirOperationGetNumResults(op) != 1)
      continue; /* (no such op in a verified function) */
    int ops = operandsUniform(&r, u, n, op);
    const Slot *s = lookup(&r, mlirOperationGetResult(op, 0));
    int point = s ? pointInterval(&r, s) : emit2(&r, "arith.andi", "%false", "%false", "i1");
    u[n++] = (Uniform){mlirOperationGetResult(op, 0),
                       emit2(&r, "arith.ori", tname(a, point), tname(b, ops), "i1")};
  }
  int all = mlirValueIsNull(result) ? -1 : uniformOf(u, n, result);
  if (r.failed || n == MAX_SLOTS || all < 0) {
    faTextDestroy(&t);
    return "score_mod's tile test could not be made";
  }
  faTextAppend(&t, "  return %%t%d : i1\n}\n", all);
  MlirLogicalResult ok = faModuleAppendParsed(module, &t);
  faTextDestroy(&t);
  return mlirLogicalResultIsSuccess(ok) ? NULL : "score_mod's tile test did not parse";
}
