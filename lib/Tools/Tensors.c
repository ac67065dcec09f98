/* Tensors, random inputs and comparison shared by fa-check and fa-run. */
#include "Tools/Tensors.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const size_t kEltBytes[] = {4, 2, 2, 1, 4, 8};
const char *const kEltNames[] = {"f32", "f16", "bf16", "i1", "i32", "i64"};

uint16_t halfFromFloat(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u, exp = (x >> 23) & 0xffu, man = x & 0x7fffffu;
  if (exp == 0xff)
    return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0));
  int e = (int)exp - 127 + 15;
  if (e >= 31)
    return (uint16_t)(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10)
      return (uint16_t)sign;
    man |= 0x800000u;
    uint32_t shift = (uint32_t)(14 - e), half = man >> shift;
    uint32_t rem = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1)))
      ++half;
    return (uint16_t)(sign | half);
  }
  uint32_t half = sign | ((uint32_t)e << 10) | (man >> 13), rem = man & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1)))
    ++half;
  return (uint16_t)half;
}

float floatFromHalf(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  float f;
  if (exp == 0)
    f = ldexpf((float)man, -24);
  else if (exp == 31)
    f = man ? NAN : INFINITY;
  else
    f = ldexpf((float)(man | 0x400u), (int)exp - 25);
  return sign ? -f : f;
}

uint16_t bf16FromFloat(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  x += 0x7fffu + ((x >> 16) & 1u);
  return (uint16_t)(x >> 16);
}

float floatFromBf16(uint16_t h) {
  uint32_t x = (uint32_t)h << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

double eltGet(const char *p, Elt e) {
  switch (e) {
  case ELT_F32: { float f; memcpy(&f, p, 4); return f; }
  case ELT_F16: { uint16_t h; memcpy(&h, p, 2); return floatFromHalf(h); }
  case ELT_BF16: { uint16_t h; memcpy(&h, p, 2); return floatFromBf16(h); }
  case ELT_I1: return (double)(*(const uint8_t *)p & 1);
  case ELT_I32: { int32_t i; memcpy(&i, p, 4); return i; }
  case ELT_I64: { int64_t i; memcpy(&i, p, 8); return (double)i; }
  default: return 0;
  }
}



void descInit(Desc *d, const TensorInfo *info, void *data) {
  memset(d, 0, sizeof *d);
  d->allocated = d->aligned = data;
  int64_t stride = 1;
  for (int k = info->rank - 1; k >= 0; --k) {
    d->words[1 + k] = info->sizes[k];
    d->words[1 + info->rank + k] = stride;
    stride *= info->sizes[k];
  }
}

/* Size in bytes of a descriptor of `rank` as the callee writes it. */
size_t descBytes(int rank) { return 2 * sizeof(void *) + 8 * (1 + 2 * (size_t)rank); }

uint64_t nextRandom(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

void randomFill(void *data, const TensorInfo *info, uint64_t *state, int64_t intMax,
                double scale, bool binary) {
  size_t bytes = kEltBytes[info->elt];
  for (int64_t i = 0; i < info->numElements; ++i) {
    uint64_t r = nextRandom(state);
    float f = (float)(((double)(r >> 11) / 9007199254740992.0 * 2.0 - 1.0) * scale);
    if (binary)
      f = (r % 8) != 0; /* mostly 1 */
    char *p = (char *)data + i * (int64_t)bytes;
    switch (info->elt) {
    case ELT_F32: memcpy(p, &f, 4); break;
    case ELT_F16: { uint16_t h = halfFromFloat(f); memcpy(p, &h, 2); break; }
    case ELT_BF16: { uint16_t h = bf16FromFloat(f); memcpy(p, &h, 2); break; }
    case ELT_I1: *p = (r % 8) != 0; break; /* mostly true: few fully masked rows */
    case ELT_I32: { int32_t v = (int32_t)(r % (uint64_t)(intMax + 1)); memcpy(p, &v, 4); break; }
    case ELT_I64: { int64_t v = (int64_t)(r % (uint64_t)(intMax + 1)); memcpy(p, &v, 8); break; }
    default: break;
    }
  }
}

bool tensorBytes(TensorInfo *info, uint64_t *bytes) {
  int64_t n = 1;
  for (int d = 0; d < info->rank; ++d)
    if (info->sizes[d] < 0 || __builtin_mul_overflow(n, info->sizes[d], &n))
      return false;
  info->numElements = n;
  return !__builtin_mul_overflow((uint64_t)n, (uint64_t)kEltBytes[info->elt], bytes) &&
         *bytes <= (uint64_t)INT64_MAX;
}

void tensorShapeText(const TensorInfo *info, char *buf, size_t size) {
  size_t at = 0;
  buf[0] = 0;
  for (int d = 0; d < info->rank && at < size; ++d)
    at += (size_t)snprintf(buf + at, size - at, "%ldx", (long)info->sizes[d]);
  if (at < size)
    snprintf(buf + at, size - at, "%s", info->elt < ELT_BAD ? kEltNames[info->elt] : "?");
}

static uint64_t physicalMemory(void) {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  return pages > 0 && pageSize > 0 ? (uint64_t)pages * (uint64_t)pageSize : UINT64_MAX;
}

bool checkFitsInMemory(const char *tool, const char *what, uint64_t bytes) {
  uint64_t mem = physicalMemory();
  if (bytes <= mem)
    return true;
  fprintf(stderr, "%s: %s %llu bytes, more than this machine's %.1f GiB of memory\n",
          tool, what, (unsigned long long)bytes, (double)mem / (1024.0 * 1024 * 1024));
  return false;
}

void *copyBuffer(const char *tool, const void *data, uint64_t bytes) {
  void *copy = malloc(bytes ? (size_t)bytes : 1);
  if (!copy)
    fprintf(stderr, "%s: out of memory allocating %llu bytes\n", tool,
            (unsigned long long)bytes);
  else
    memcpy(copy, data, (size_t)bytes);
  return copy;
}

/* The data pointer, offset and strides of result `i`. */
void resultView(const Results *r, int i, const char **data, int64_t *offset,
                       const int64_t **sizes, const int64_t **strides) {
  const char *p = r->storage;
  for (int k = 0; k < i; ++k)
    p += descBytes(r->info[k].rank);
  const void *aligned;
  memcpy(&aligned, p + sizeof(void *), sizeof(void *));
  const int64_t *words = (const int64_t *)(p + 2 * sizeof(void *));
  *data = aligned;
  *offset = words[0];
  *sizes = words + 1;
  *strides = words + 1 + r->info[i].rank;
}

/* A strided view of one output. */
typedef struct {
  const char *data;
  int64_t offset;
  const int64_t *sizes, *strides;
} View;

static View viewOf(const Results *r, int i) {
  View v;
  resultView(r, i, &v.data, &v.offset, &v.sizes, &v.strides);
  return v;
}

/* The address of element `idx` (rank indices) of `v`. */
static const char *viewAt(const View *v, const int64_t *idx, int rank, Elt e) {
  int64_t at = v->offset;
  for (int d = 0; d < rank; ++d)
    at += idx[d] * v->strides[d];
  return v->data + at * (int64_t)kEltBytes[e];
}

/* --- what fa-check compares ------------------------------------------------------
 *
 * The rules of fa-check's (and fa-run's) comparison, all in this section and
 * documented in docs/lowering.md ("What fa-check compares"); test/Unit/compare.c
 * tests them on hand-made buffers. Output `a` is the reference (the model lowered
 * by upstream MLIR; fa-run: the one fa-check saved), `b` fa-mlir's. Elements are
 * compared one by one as doubles (f16 and bf16 widen exactly):
 *
 * 1. Finite values agree when |a - b| <= atol + rtol |a| (the reference's
 *    magnitude), atol and rtol by the output's element type (kAtol, kRtol) times
 *    --tol-scale. Integer outputs (i1, i32, i64) have 0: they must be equal
 *    (i64 as integers: a double holds them exactly only up to 2^53).
 * 2. NaN and infinities are compared exactly: NaN agrees with NaN (any sign or
 *    payload) and nothing else, +inf only with +inf, -inf only with -inf. A NaN or
 *    infinity against anything else is a mismatch, reported as max abs err inf.
 * 3. One exemption, the fully masked row (isExemptMaskedRow): a row, the
 *    innermost dim of the output (a rank-1 output is one row; a rank-0 one a row
 *    of one element), where the reference is NaN in EVERY element and fa-mlir
 *    gives 0 (+0 or -0) in EVERY element is not compared; such rows are counted
 *    and reported ("[N fully masked rows: ...]"). fa.gridwise_attention defines
 *    the output of a query that sees no key as 0 (as FlashAttention and cuDNN
 *    do), while an unguarded softmax in the source divides 0 by 0 there. A row
 *    that is NaN only in part, or NaN everywhere where fa-mlir gives anything but
 *    0 in some element, is compared by rules 1 and 2: each NaN against a number
 *    is a mismatch.
 */

/* Absolute and relative tolerance per output element type (Elt order: f32, f16,
 * bf16, i1, i32, i64). f32: both sides compute in f32 and differ in the order
 * of the sums and in exp against exp2. f16/bf16: the reference accumulates
 * f16/bf16 GEMMs in f16/bf16 (D up to 256 terms), ours in f32, and fusion keeps
 * the scores in f32 where the source rounds them. The largest errors of the
 * 200-case sweep (test/Integration/sweep.test, inputs in [-1, 1]): f32 2.0e-6,
 * f16 1.4e-2, bf16 9.6e-2 (bf16 had 8e-2 before that sweep). */
const double kAtol[] = {2e-4, 2e-2, 1.5e-1, 0, 0, 0};
const double kRtol[] = {2e-3, 2e-2, 1.5e-1, 0, 0, 0};

/* The running state of one output's comparison. */
typedef struct {
  Elt elt;
  int rank;
  double atol, rtol, maxAbs, maxRel;
  int64_t bad, maskedRows;
} Comparison;

/* Rule 1 for i64: equal as integers. */
static bool int64sAgree(Comparison *c, const char *pa, const char *pb) {
  int64_t a, b;
  memcpy(&a, pa, 8);
  memcpy(&b, pb, 8);
  double err = a == b ? 0 : fmax(fabs((double)a - (double)b), 1);
  c->maxAbs = fmax(c->maxAbs, err);
  if (a != 0)
    c->maxRel = fmax(c->maxRel, err / fabs((double)a));
  return a == b;
}

/* Rules 1 and 2: true when the elements at `pa` (reference) and `pb` agree.
 * Records the errors. */
static bool elementsAgree(Comparison *c, const char *pa, const char *pb) {
  if (c->elt == ELT_I64)
    return int64sAgree(c, pa, pb);
  double a = eltGet(pa, c->elt), b = eltGet(pb, c->elt);
  if (isnan(a) || isnan(b) || isinf(a) || isinf(b)) {
    bool same = (isnan(a) && isnan(b)) || a == b;
    if (!same)
      c->maxAbs = INFINITY;
    return same;
  }
  double err = fabs(a - b);
  c->maxAbs = fmax(c->maxAbs, err);
  if (fabs(a) > 1e-6)
    c->maxRel = fmax(c->maxRel, err / fabs(a));
  return err <= c->atol + c->rtol * fabs(a);
}

/* Rule 3: true when the row at `idx` (innermost index free, `len` > 0
 * elements) is NaN in every element of `ref` and 0 in every element of `got`. */
static bool isExemptMaskedRow(const Comparison *c, const View *ref, const View *got,
                              int64_t *idx, int64_t len) {
  int last = c->rank - 1;
  for (int64_t j = 0; j < len; ++j) {
    if (last >= 0)
      idx[last] = j;
    if (!isnan(eltGet(viewAt(ref, idx, c->rank, c->elt), c->elt)) ||
        eltGet(viewAt(got, idx, c->rank, c->elt), c->elt) != 0)
      return false;
  }
  return len > 0;
}

/* With FA_CHECK_VERBOSE set: "  at [I, J]: reference A, fa B" for the first
 * three mismatches of an output. */
static void printMismatch(const Comparison *c, const int64_t *idx, const char *pa,
                          const char *pb) {
  if (c->bad > 3 || !getenv("FA_CHECK_VERBOSE"))
    return;
  printf("  at [");
  for (int d = 0; d < c->rank; ++d)
    printf("%s%ld", d ? ", " : "", (long)idx[d]);
  if (c->elt == ELT_I64) {
    int64_t a, b;
    memcpy(&a, pa, 8);
    memcpy(&b, pb, 8);
    printf("]: reference %lld, fa %lld\n", (long long)a, (long long)b);
  } else {
    printf("]: reference %.6g, fa %.6g\n", eltGet(pa, c->elt), eltGet(pb, c->elt));
  }
}

/* Compares the row at `idx` (innermost index free, `len` elements): exempt by
 * rule 3, or element by element. */
static void compareRow(Comparison *c, const View *ref, const View *got, int64_t *idx,
                       int64_t len) {
  if (isExemptMaskedRow(c, ref, got, idx, len)) {
    ++c->maskedRows;
    return;
  }
  int last = c->rank - 1;
  for (int64_t j = 0; j < len; ++j) {
    if (last >= 0)
      idx[last] = j;
    const char *a = viewAt(ref, idx, c->rank, c->elt), *b = viewAt(got, idx, c->rank, c->elt);
    if (!elementsAgree(c, a, b)) {
      ++c->bad;
      printMismatch(c, idx, a, b);
    }
  }
}

bool compareOutput(const char *func, int i, const Results *ref, const Results *got,
                   double tolScale) {
  const TensorInfo *info = &ref->info[i];
  View r = viewOf(ref, i), g = viewOf(got, i);
  for (int d = 0; d < info->rank; ++d)
    if (r.sizes[d] != g.sizes[d]) {
      printf("%s: output %d: shapes differ (dim %d: %ld vs %ld)\n", func, i, d,
             (long)r.sizes[d], (long)g.sizes[d]);
      return false;
    }
  Comparison c = {info->elt, info->rank, kAtol[info->elt] * tolScale,
                  kRtol[info->elt] * tolScale, 0, 0, 0, 0};
  int64_t rows = 1, len = info->rank ? r.sizes[info->rank - 1] : 1, idx[8] = {0};
  for (int d = 0; d + 1 < info->rank; ++d)
    rows *= r.sizes[d];
  for (int64_t n = 0; n < rows && len > 0; ++n) {
    compareRow(&c, &r, &g, idx, len);
    for (int d = info->rank - 2; d >= 0 && ++idx[d] == r.sizes[d]; --d)
      idx[d] = 0;
  }
  printf("%s: output %d (%s, %ld elements): max abs err %.3e, max rel err %.3e%s", func, i,
         kEltNames[info->elt], (long)(rows * len), c.maxAbs, c.maxRel,
         c.bad ? "  MISMATCH" : "  ok");
  if (c.bad)
    printf(" (%ld beyond atol %.1e + rtol %.1e)",
           (long)c.bad, c.atol, c.rtol);
  if (c.maskedRows)
    printf(" [%ld fully masked rows: NaN in the reference, 0 in fa by the op's definition]",
           (long)c.maskedRows);
  printf("\n");
  return c.bad == 0;
}
