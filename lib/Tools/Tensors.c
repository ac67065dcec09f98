/* Tensors, random inputs and comparison shared by fa-check and fa-run. */
#include "Tensors.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const size_t kEltBytes[] = {4, 2, 2, 1, 4, 8};
const char *const kEltNames[] = {"f32", "f16", "bf16", "i1", "i32", "i64"};
/* Absolute and relative tolerance per output element type. The reference
 * accumulates f16/bf16 GEMMs in f16/bf16 (D up to 256 terms), ours in f32. */
const double kAtol[] = {2e-4, 2e-2, 1.5e-1, 0, 0, 0};
const double kRtol[] = {2e-3, 2e-2, 1.5e-1, 0, 0, 0};

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

void *randomBuffer(const TensorInfo *info, uint64_t *state, int64_t intMax,
                          double scale, bool binary) {
  size_t bytes = kEltBytes[info->elt];
  char *data = calloc((size_t)(info->numElements ? info->numElements : 1), bytes);
  if (!data)
    abort();
  for (int64_t i = 0; i < info->numElements; ++i) {
    uint64_t r = nextRandom(state);
    float f = (float)(((double)(r >> 11) / 9007199254740992.0 * 2.0 - 1.0) * scale);
    if (binary)
      f = (r % 8) != 0; /* mostly 1 */
    char *p = data + i * (int64_t)bytes;
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
  return data;
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

/* Compares output `i`; prints a line; returns true when within tolerance. */
bool compareOutput(const char *func, int i, const Results *ref, const Results *got,
                          double tolScale) {
  const TensorInfo *info = &ref->info[i];
  const char *rd, *gd;
  int64_t ro, go;
  const int64_t *rs, *gs, *rst, *gst;
  resultView(ref, i, &rd, &ro, &rs, &rst);
  resultView(got, i, &gd, &go, &gs, &gst);
  for (int d = 0; d < info->rank; ++d)
    if (rs[d] != gs[d]) {
      printf("%s: output %d: shapes differ (dim %d: %ld vs %ld)\n", func, i, d, (long)rs[d],
             (long)gs[d]);
      return false;
    }
  double maxAbs = 0, maxRel = 0, atol = kAtol[info->elt] * tolScale,
         rtol = kRtol[info->elt] * tolScale;
  int64_t bad = 0, refNan = 0, total = 1, idx[8] = {0};
  for (int d = 0; d < info->rank; ++d)
    total *= rs[d];
  size_t eb = kEltBytes[info->elt];
  for (int64_t n = 0; n < total; ++n) {
    int64_t r = ro, g = go;
    for (int d = 0; d < info->rank; ++d) {
      r += idx[d] * rst[d];
      g += idx[d] * gst[d];
    }
    double a = eltGet(rd + r * (int64_t)eb, info->elt), b = eltGet(gd + g * (int64_t)eb, info->elt);
    if (isnan(a)) {
      ++refNan; /* e.g. fully masked rows: upstream gives NaN, fa gives 0 */
    } else if (isnan(b) || (isinf(a) || isinf(b) ? a != b : false)) {
      ++bad;
      maxAbs = INFINITY;
    } else if (!isinf(a)) {
      double err = fabs(a - b), rel = err / fmax(fabs(a), 1e-30);
      maxAbs = fmax(maxAbs, err);
      if (fabs(a) > 1e-6)
        maxRel = fmax(maxRel, rel);
      if (err > atol + rtol * fabs(a) && ++bad <= 3 && getenv("FA_CHECK_VERBOSE")) {
        printf("  at [");
        for (int d = 0; d < info->rank; ++d)
          printf("%s%ld", d ? ", " : "", (long)idx[d]);
        printf("]: reference %.6g, fa %.6g\n", a, b);
      }
    }
    for (int d = info->rank - 1; d >= 0 && ++idx[d] == rs[d]; --d)
      idx[d] = 0;
  }
  printf("%s: output %d (%s, %ld elements): max abs err %.3e, max rel err %.3e%s", func, i,
         kEltNames[info->elt], (long)total, maxAbs, maxRel, bad ? "  MISMATCH" : "  ok");
  if (bad)
    printf(" (%ld beyond atol %.1e + rtol %.1e)", (long)bad, atol, rtol);
  if (refNan)
    printf(" [%ld NaN in the reference not compared]", (long)refNan);
  printf("\n");
  return bad == 0;
}