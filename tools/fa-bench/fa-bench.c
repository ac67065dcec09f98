/* fa-bench KERNELS.so: times fa-mlir's attention kernels on the GPU.
 * KERNELS.so is bench/attention_bench.mlir (bench/gen_bench_kernels.py) built with
 *   fa-compile --export-kernels --target=sm_90 -o KERNELS.so
 * which exports _mlir_ciface_fa_attention_I for kernel I of bench/bench_kernels.def
 * (included below: one (D, dtype, causal, kind, param) a line; arguments Q, K, V,
 * then the sinks or the capture of a kernel with one, then O, as memrefs; Q
 * and O [B, Hq, M, D], K and V [B, Hkv, N, D]; causal kernels have offset 0).
 * Shapes: --shape=B,Hq,Hkv,M,N,D,DTYPE,CAUSAL (DTYPE f16 or bf16) or the older
 * --shape=B,H,N,D,CAUSAL (f16, Hq = Hkv, M = N); without any, the 12 shapes of
 * ../shared/spec/perf.md. Causal with M != N is bottom-right aligned as the
 * spec counts it: only M = 1 (every key visible: the non-causal kernel) and
 * M = N are taken.
 * Masks and score modifications: --shape=B,Hq,Hkv,M,N,D,DTYPE,KIND[,P] with the
 * definitions of ../shared/bench/anchors_flex.py (query q, key k, both from 0,
 * top-left aligned for any M and N): causal (k <= q); swa W (k <= q and
 * q - k < W); chunked C (k <= q and q / C == k / C); prefix P (k < P or
 * k <= q); document L (k <= q in the same document; documents packed, of
 * lengths uniform in [L/2, 3L/2], drawn by fa-bench's own seeded generator,
 * so not anchors_flex.py's torch draw: the same distribution, other lengths;
 * --doc-lengths=L1,L2,... gives them: bench/run_perf_flex.sh passes torch's);
 * alibi (causal, s + slope_h (k - q), slope_h = 2^(-8 (h+1) / Hq)); softcap C
 * (causal, C tanh(s / C)); relbias R (every key, s + table[clamp(k - q, -R,
 * R) + R, h], the table [2R+1, Hq] from N(0, 1)); sinks (causal, a per-head
 * sink logit from N(0, 1): the op's sinks operand). s is scale * q.k. The
 * kernel is the .def line of the kind with that param baked in (document's
 * ids are its i32 [max(M, N)] capture, param 0).
 * --layout=bshd keeps Q, K, V and O as [B, S, H, D] (heads after the
 * sequence: the kernels get [B, H, S, D] views of them, as the wrappers of ops
 * with q_bshd .. o_bshd pass them).
 * Per shape: Q, K and V drawn from N(0, 1) (as the anchors' torch.randn),
 * warm-up launches, then timed launches as triton.testing.do_bench times the
 * anchors: enqueued back to back on one stream without waiting for them
 * (faRuntimeSetStream, faRuntimeSetLaunchesAsync), each behind a 256 MB
 * memset that evicts the L2 and between its own two device events. The
 * median is reported as TFLOP/s = 4 B Hq (visible query-key pairs) D / t,
 * the visible pairs counted per kind as anchors_flex.py counts them.
 * 50 warm-up and 100 timed launches unless one launch takes so long that
 * --budget-s would be exceeded; the counts used are printed. Then O is set to
 * NaN and the kernel launched once more: rows 0..31 and M-32..M-1 of the first
 * and last (batch, head) of that O are checked against a double-precision CPU
 * reference (the kind's mask, score modification and sink; a NaN fails); exit
 * status 1 when a check fails, 2 on bad usage or a GPU runtime error.
 * Needs no MLIR; links libfa_rt_cuda. */
#include "Tools/Tensors.h"
#include "Tools/ToolArgs.h"

#include "fa-c/Runtime.h"

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream);
void *mgpuStreamCreate(void);
void mgpuStreamSynchronize(void *stream);
void *mgpuEventCreate(void);
void mgpuEventRecord(void *event, void *stream);
void mgpuEventSynchronize(void *event);
void mgpuEventDestroy(void *event);
void mgpuMemset32(void *dst, unsigned value, size_t count, void *stream);
void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream);

/* A shape's mask / score modification: KIND_NONE is the older forms (the
 * causal flag), the others anchors_flex.py's kinds and sinks. */
typedef enum {
  KIND_NONE,
  KIND_CAUSAL,
  KIND_SWA,
  KIND_CHUNKED,
  KIND_PREFIX,
  KIND_DOCUMENT,
  KIND_ALIBI,
  KIND_SOFTCAP,
  KIND_RELBIAS,
  KIND_SINKS,
  NUM_KINDS
} Kind;

static const char *const kKindNames[NUM_KINDS] = {
    "none", "causal", "swa", "chunked", "prefix", "document", "alibi", "softcap", "relbias",
    "sinks"};
/* The parameter of each kind that has one, and the kinds that are causal. */
static const char *const kKindParam[NUM_KINDS] = {
    [KIND_SWA] = "W",     [KIND_CHUNKED] = "C", [KIND_PREFIX] = "P",
    [KIND_DOCUMENT] = "L", [KIND_SOFTCAP] = "C", [KIND_RELBIAS] = "R"};
static const bool kKindCausal[NUM_KINDS] = {
    [KIND_CAUSAL] = true, [KIND_SWA] = true,     [KIND_CHUNKED] = true, [KIND_DOCUMENT] = true,
    [KIND_ALIBI] = true,  [KIND_SOFTCAP] = true, [KIND_SINKS] = true};

typedef struct {
  long b, hq, hkv, m, n, d;
  bool bf16, causal;
  Kind kind;
  long param;
  const long *docLengths; /* KIND_DOCUMENT: --doc-lengths's list, or NULL */
  int numDocLengths;
} Shape;

typedef void (*Kernel)(void);
typedef void (*Kernel4)(Desc *, Desc *, Desc *, Desc *);
typedef void (*Kernel5)(Desc *, Desc *, Desc *, Desc *, Desc *);

enum { MAX_SHAPES = 64, MAX_DOC_LENGTHS = 4096 };

/* The kernels of KERNELS.so: kernel I is _mlir_ciface_fa_attention_I. */
typedef struct {
  long d;
  const char *dtype;
  bool causal;
  const char *kind;
  long param;
} BenchKernel;

static const BenchKernel kKernels[] = {
#define FA_BENCH_KERNEL(d, dtype, causal, kind, param) {d, #dtype, causal, #kind, param},
#include "bench_kernels.def"
#undef FA_BENCH_KERNEL
};
enum { NUM_KERNELS = sizeof kKernels / sizeof kKernels[0] };

#define PERF_SHAPE(n, d, c) {4, 32, 32, n, n, d, false, c, KIND_NONE, 0, NULL, 0}
static const Shape kPerfShapes[12] = {
    PERF_SHAPE(1024, 64, false),  PERF_SHAPE(4096, 64, false),  PERF_SHAPE(16384, 64, false),
    PERF_SHAPE(1024, 64, true),   PERF_SHAPE(4096, 64, true),   PERF_SHAPE(16384, 64, true),
    PERF_SHAPE(1024, 128, false), PERF_SHAPE(4096, 128, false), PERF_SHAPE(16384, 128, false),
    PERF_SHAPE(1024, 128, true),  PERF_SHAPE(4096, 128, true),  PERF_SHAPE(16384, 128, true)};

static int cmpFloat(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return x < y ? -1 : x > y;
}

/* Causal masks of the kernels are top-left aligned (offset 0): with M = 1
 * bottom-right alignment sees every key, which the non-causal kernel computes. */
static bool usesCausalKernel(const Shape *s) {
  return s->kind == KIND_NONE ? s->causal && s->m != 1 : kKindCausal[s->kind];
}

/* The kernel's (kind, param) of a shape: the .def's names. */
static const char *kernelKind(const Shape *s) {
  return s->kind == KIND_CAUSAL ? "none" : kKindNames[s->kind];
}
static long kernelParam(const Shape *s) {
  return s->kind == KIND_DOCUMENT ? 0 : s->param;
}

/* The document ids of a KIND_DOCUMENT shape: packed documents of lengths
 * uniform in [L/2, 3L/2] (as anchors_flex.py draws them: torch.randint(L // 2,
 * 3 * L // 2 + 1)), the last one cut at the end; fa-bench's own seeded
 * generator, or --doc-lengths's list (repeated). `len` = max(M, N) ids (the
 * kernel reads doc[q] and doc[k]). */
static int32_t *documentIds(const Shape *s, long len) {
  int32_t *doc = malloc(sizeof(int32_t) * (size_t)len);
  uint64_t state = 0x9E3779B97F4A7C15ull;
  long lo = s->param / 2, span = 3 * s->param / 2 - lo + 1;
  for (long n = 0, id = 0; n < len; ++id) {
    long l = s->docLengths ? s->docLengths[id % s->numDocLengths]
                           : lo + (long)(nextRandom(&state) % (uint64_t)span);
    for (long e = n + (l < len - n ? l : len - n); n < e; ++n)
      doc[n] = (int32_t)id;
  }
  return doc;
}

/* Whether key k is visible to query q (anchors_flex.py's masks). */
static bool isVisible(const Shape *s, const int32_t *doc, long q, long k) {
  switch (s->kind) {
  case KIND_NONE:
    return !usesCausalKernel(s) || k <= q;
  case KIND_SWA:
    return k <= q && q - k < s->param;
  case KIND_CHUNKED:
    return k <= q && q / s->param == k / s->param;
  case KIND_PREFIX:
    return k < s->param || k <= q;
  case KIND_DOCUMENT:
    return k <= q && doc[q] == doc[k];
  case KIND_RELBIAS:
    return true;
  default: /* causal, alibi, softcap, sinks */
    return k <= q;
  }
}

/* The keys visible to query q, counted without visiting them; `docStart` is
 * the first index of q's document (KIND_DOCUMENT). */
static long rowVisible(const Shape *s, long q, long docStart) {
  long last = q < s->n - 1 ? q : s->n - 1, first = 0; /* causal: keys [first, last] */
  switch (s->kind) {
  case KIND_NONE:
    return usesCausalKernel(s) ? last + 1 : s->n;
  case KIND_RELBIAS:
    return s->n;
  case KIND_PREFIX: {
    long visible = s->param > q + 1 ? s->param : q + 1;
    return visible < s->n ? visible : s->n;
  }
  case KIND_SWA:
    first = q - s->param + 1;
    break;
  case KIND_CHUNKED:
    first = q / s->param * s->param;
    break;
  case KIND_DOCUMENT:
    first = docStart;
    break;
  default:
    break;
  }
  first = first > 0 ? first : 0;
  return last >= first ? last - first + 1 : 0;
}

/* The visible (query, key) pairs of one (batch, head), as anchors_flex.py's
 * visible() counts them (its mask over every query and key). */
static double visiblePairs(const Shape *s, const int32_t *doc) {
  double total = 0;
  for (long q = 0, start = 0; q < s->m; ++q) {
    if (doc && q > 0 && doc[q] != doc[q - 1])
      start = q;
    total += (double)rowVisible(s, q, start);
  }
  return total;
}

static const char *dtypeName(const Shape *s) { return s->bf16 ? "bf16" : "f16"; }

/* The table's "causal" column, in `text`: yes or no for the older forms,
 * else the kind and its parameter ("swa 4096"). */
static const char *kindText(const Shape *s, char text[48]) {
  if (s->kind == KIND_NONE)
    return s->causal ? "yes" : "no";
  if (!kKindParam[s->kind] || s->param <= 0)
    return kKindNames[s->kind];
  snprintf(text, 48, "%s %ld", kKindNames[s->kind], s->param);
  return text;
}

static float toFloat(const Shape *s, uint16_t x) {
  return s->bf16 ? floatFromBf16(x) : floatFromHalf(x);
}

/* Tensors are [B, H, rows, D] row-major, or with --layout=bshd [B, rows, H,
 * D] (the kernels see the same [B, H, rows, D] views, with other strides). */
static bool gBshd;

/* Offset of element (b, h, r, c) of a tensor of `heads` heads and `rows` rows. */
static size_t at(const Shape *s, long heads, long rows, long b, long h, long r, long c) {
  long outer = gBshd ? r * heads + h : h * rows + r;
  return (size_t)((b * heads * rows + outer) * s->d + c);
}

/* The sinks, captures and document ids a shape's kernel takes besides Q, K,
 * V and O: one extra operand at most (the sinks, the ALiBi slopes, the
 * relbias table or the document ids), random where anchors_flex.py draws it. */
typedef struct {
  void *host, *dev; /* NULL: the kernel takes none */
  Desc desc;
  const int32_t *doc; /* host: the document ids (KIND_DOCUMENT) */
} Extra;

/* The score of a visible pair after the kind's score modification; x is
 * scale * q.k, e the extra operand (slopes or table). */
static double modScore(const Shape *s, const float *e, double x, long h, long q, long k) {
  switch (s->kind) {
  case KIND_ALIBI:
    return x + (double)e[h] * (double)(k - q);
  case KIND_SOFTCAP:
    return (double)s->param * tanh(x / (double)s->param);
  case KIND_RELBIAS: {
    long r = k - q < -s->param ? -s->param : k - q > s->param ? s->param : k - q;
    return x + (double)e[(r + s->param) * s->hq + h];
  }
  default:
    return x;
  }
}

/* Max |O - reference| over the checked rows of the first and last (b, h), in
 * double precision on the host, with the shape's mask, score modification and
 * sink; a row where no key is visible is 0. Also checks, per row, that the
 * visible keys are rowVisible's count (what the TFLOP/s count): -1 if not. */
static double checkRows(const Shape *s, uint16_t *const t[4], const Extra *x) {
  double worst = 0, scale = 1 / sqrt((double)s->d);
  long heads[2] = {0, s->b * s->hq - 1};
  double *p = malloc(sizeof(double) * (size_t)s->n);
  const float *e = x->host;
  for (int hi = 0; hi < 2; ++hi) {
    long b = heads[hi] / s->hq, h = heads[hi] % s->hq, hk = h / (s->hq / s->hkv);
#define Q(r, c) toFloat(s, t[0][at(s, s->hq, s->m, b, h, r, c)])
#define K(j, c) toFloat(s, t[1][at(s, s->hkv, s->n, b, hk, j, c)])
#define V(j, c) toFloat(s, t[2][at(s, s->hkv, s->n, b, hk, j, c)])
#define O(r, c) toFloat(s, t[3][at(s, s->hq, s->m, b, h, r, c)])
    for (long r = 0; r < s->m; ++r) {
      if (r == 32 && s->m > 64)
        r = s->m - 32;
      long start = r, count = 0;
      while (x->doc && start > 0 && x->doc[start - 1] == x->doc[r])
        --start;
      double mx = s->kind == KIND_SINKS ? (double)e[h] : -INFINITY, l = 0;
      long j0 = s->n, j1 = -1; /* the first and last visible key */
      for (long j = 0; j < s->n; ++j) {
        if (!isVisible(s, x->doc, r, j)) {
          p[j] = -INFINITY;
          continue;
        }
        ++count;
        j0 = j < j0 ? j : j0, j1 = j;
        double dot = 0;
        for (long c = 0; c < s->d; ++c)
          dot += (double)Q(r, c) * K(j, c);
        p[j] = modScore(s, e, dot * scale, h, r, j);
        mx = fmax(mx, p[j]);
      }
      if (count != rowVisible(s, r, start)) {
        worst = -1; /* the FLOP count is wrong: fa-bench's own bug */
        break;
      }
      for (long j = j0; j <= j1; ++j)
        l += (p[j] = p[j] == -INFINITY ? 0 : exp(p[j] - mx));
      if (s->kind == KIND_SINKS)
        l += exp((double)e[h] - mx);
      for (long c = 0; c < s->d; ++c) {
        double acc = 0;
        for (long j = j0; j <= j1; ++j)
          acc += p[j] * V(j, c);
        double ref = count ? acc / l : 0;
        double err = fabs(ref - O(r, c));
        worst = isnan(err) ? INFINITY : fmax(worst, err);
      }
    }
#undef Q
#undef K
#undef V
#undef O
    if (worst < 0)
      break;
  }
  free(p);
  return worst;
}

/* Host and device buffers of Q, K, V (random, N(0, 1)) and O. */
typedef struct {
  uint16_t *host[4];
  void *dev[4];
  Desc desc[4];
} Buffers;

static void buffersInit(Buffers *bufs, const Shape *s) {
  long dims[4][4] = {{s->b, s->hq, s->m, s->d}, {s->b, s->hkv, s->n, s->d},
                     {s->b, s->hkv, s->n, s->d}, {s->b, s->hq, s->m, s->d}};
  /* A pool of random values, repeated with an odd period (its length is no
   * multiple of any row): filling gigabytes one random draw at a time would
   * take longer than the timing itself. */
  enum { POOL = (1 << 20) + 7 };
  uint16_t *pool = malloc(sizeof(uint16_t) * POOL);
  uint64_t state = 12345;
  for (size_t i = 0; i < POOL; ++i) { /* Box-Muller */
    double u1 = ((double)(nextRandom(&state) >> 11) + 1) / 9007199254740993.0;
    double u2 = (double)(nextRandom(&state) >> 11) / 9007199254740992.0;
    float x = (float)(sqrt(-2 * log(u1)) * cos(2 * M_PI * u2));
    pool[i] = s->bf16 ? bf16FromFloat(x) : halfFromFloat(x);
  }
  for (int t = 0; t < 4; ++t) {
    size_t count = (size_t)(dims[t][0] * dims[t][1] * dims[t][2] * dims[t][3]);
    TensorInfo info = {s->bf16 ? ELT_BF16 : ELT_F16, 4,
                       {dims[t][0], dims[t][1], dims[t][2], dims[t][3]}, (long)count};
    bufs->host[t] = malloc(count * 2);
    for (size_t i = 0, j = (size_t)t * 1000003 % POOL; i < count && t < 3; ++i) {
      bufs->host[t][i] = pool[j];
      j = j + 1 == POOL ? 0 : j + 1;
    }
    bufs->dev[t] = mgpuMemAlloc(count * 2, NULL, false);
    if (t < 3)
      mgpuMemcpy(bufs->dev[t], bufs->host[t], count * 2, NULL);
    descInit(&bufs->desc[t], &info, bufs->dev[t]);
    if (gBshd) { /* the [B, H, rows, D] view of [B, rows, H, D]: strides H*rows*D, D, H*D, 1 */
      bufs->desc[t].words[1 + 4 + 1] = dims[t][3];
      bufs->desc[t].words[1 + 4 + 2] = dims[t][1] * dims[t][3];
    }
  }
  free(pool);
}

/* Gaussian N(0, 1) draws (Box-Muller) from a seeded xorshift state. */
static float gaussian(uint64_t *state) {
  double u1 = ((double)(nextRandom(state) >> 11) + 1) / 9007199254740993.0;
  double u2 = (double)(nextRandom(state) >> 11) / 9007199254740992.0;
  return (float)(sqrt(-2 * log(u1)) * cos(2 * M_PI * u2));
}

/* The shape's extra operand, on the host and the device: sinks f32 [Hq] and
 * the relbias table f32 [2R+1, Hq] from N(0, 1), the ALiBi slopes f32 [Hq]
 * 2^(-8 (h+1) / Hq), the document ids i32 [max(M, N)]. */
static void extraInit(Extra *x, const Shape *s) {
  memset(x, 0, sizeof *x);
  TensorInfo info = {ELT_F32, 1, {s->hq}, s->hq};
  uint64_t state = 777;
  float *f = NULL;
  switch (s->kind) {
  case KIND_SINKS:
    f = malloc(sizeof(float) * (size_t)s->hq);
    for (long h = 0; h < s->hq; ++h)
      f[h] = gaussian(&state);
    break;
  case KIND_ALIBI:
    f = malloc(sizeof(float) * (size_t)s->hq);
    for (long h = 0; h < s->hq; ++h)
      f[h] = (float)pow(2.0, -8.0 * (double)(h + 1) / (double)s->hq);
    break;
  case KIND_RELBIAS:
    info = (TensorInfo){ELT_F32, 2, {2 * s->param + 1, s->hq}, (2 * s->param + 1) * s->hq};
    f = malloc(sizeof(float) * (size_t)info.numElements);
    for (long i = 0; i < info.numElements; ++i)
      f[i] = gaussian(&state);
    break;
  case KIND_DOCUMENT: {
    long len = s->m > s->n ? s->m : s->n;
    info = (TensorInfo){ELT_I32, 1, {len}, len};
    x->doc = documentIds(s, len);
    x->host = (void *)x->doc;
    break;
  }
  default:
    return;
  }
  if (f)
    x->host = f;
  size_t bytes = (size_t)info.numElements * 4;
  x->dev = mgpuMemAlloc(bytes, NULL, false);
  mgpuMemcpy(x->dev, x->host, bytes, NULL);
  descInit(&x->desc, &info, x->dev);
}

static void extraDestroy(Extra *x) {
  if (!x->dev)
    return;
  mgpuMemFree(x->dev, NULL);
  free(x->host);
}

/* One launch of the kernel on Q, K, V, [the extra operand,] O. */
static void launch(Kernel kernel, Buffers *bufs, Extra *x) {
  Desc *d = bufs->desc;
  if (x->dev)
    ((Kernel5)kernel)(&d[0], &d[1], &d[2], &x->desc, &d[3]);
  else
    ((Kernel4)kernel)(&d[0], &d[1], &d[2], &d[3]);
}

static void buffersDestroy(Buffers *bufs) {
  for (int t = 0; t < 4; ++t) {
    mgpuMemFree(bufs->dev[t], NULL);
    free(bufs->host[t]);
  }
}

/* What triton.testing.do_bench writes between the anchors' launches to
 * evict the L2: 256 MB. */
enum { FLUSH_BYTES = 256 << 20 };

/* Median seconds of one launch over `*iters` timed launches after `*warm`. */
static double timeKernel(Kernel kernel, Buffers *bufs, Extra *x, void *stream, double budget,
                         int *warm, int *iters) {
  void *start = mgpuEventCreate(), *end = mgpuEventCreate();
  mgpuEventRecord(start, stream); /* one launch, waited for, to size the run */
  launch(kernel, bufs, x);
  mgpuEventRecord(end, stream);
  mgpuEventSynchronize(end);
  double first = faRuntimeEventElapsedMs(start, end) / 1e3;
  mgpuEventDestroy(start);
  mgpuEventDestroy(end);
  *iters = 100, *warm = 50;
  if (first * 150 > budget) {
    *iters = (int)fmin(100, fmax(3, budget / first * 2 / 3));
    *warm = (int)fmax(1, fmin(50, *iters / 2));
  }
  void *flush = mgpuMemAlloc(FLUSH_BYTES, NULL, false);
  void **events = malloc(sizeof(void *) * 2 * (size_t)*iters);
  for (int i = 0; i < 2 * *iters; ++i)
    events[i] = mgpuEventCreate();
  faRuntimeSetLaunchesAsync(true);
  for (int i = 0; i < *warm; ++i)
    launch(kernel, bufs, x);
  for (int i = 0; i < *iters; ++i) {
    mgpuMemset32(flush, 0, FLUSH_BYTES / 4, stream);
    mgpuEventRecord(events[2 * i], stream);
    launch(kernel, bufs, x);
    mgpuEventRecord(events[2 * i + 1], stream);
  }
  faRuntimeSetLaunchesAsync(false);
  mgpuEventSynchronize(events[2 * *iters - 1]);
  float *ms = malloc(sizeof(float) * (size_t)*iters);
  for (int i = 0; i < *iters; ++i)
    ms[i] = faRuntimeEventElapsedMs(events[2 * i], events[2 * i + 1]);
  for (int i = 0; i < 2 * *iters; ++i)
    mgpuEventDestroy(events[i]);
  free(events);
  mgpuMemFree(flush, NULL);
  qsort(ms, (size_t)*iters, sizeof(float), cmpFloat);
  double median = ms[*iters / 2] / 1e3;
  free(ms);
  return median;
}

/* Times and checks one shape; false when its check failed. */
static bool runShape(Kernel kernel, const Shape *s, double budget, FILE *csv) {
  Buffers bufs;
  buffersInit(&bufs, s);
  Extra extra;
  extraInit(&extra, s);
  void *stream = mgpuStreamCreate();
  faRuntimeSetStream(stream);
  int warm, iters;
  double median = timeKernel(kernel, &bufs, &extra, stream, budget, &warm, &iters);
  double visible = visiblePairs(s, extra.doc);
  double tflops = 4.0 * s->b * s->hq * visible * s->d / median / 1e12;
  /* The check reads a launch after the timed ones, into O set to NaN: a
   * kernel that leaves O (or part of it) unwritten on a repeated launch fails. */
  size_t outBytes = (size_t)(s->b * s->hq * s->m * s->d) * 2;
  mgpuMemset16(bufs.dev[3], 0xFFFF, outBytes / 2, stream);
  launch(kernel, &bufs, &extra);
  mgpuMemcpy(bufs.host[3], bufs.dev[3], outBytes, stream);
  mgpuStreamSynchronize(stream);
  double err = checkRows(s, bufs.host, &extra);
  if (err < 0)
    fprintf(stderr, "fa-bench: internal error: the visible pairs of a row differ from the "
                    "mask's (the TFLOP/s would be wrong)\n");
  bool ok = faRuntimeGetStatus() == 0 && err >= 0 && err < 2e-2;
  const char *dtype = dtypeName(s);
  char kindBuf[48];
  printf("| %ld,%ld,%ld | %5ld | %5ld | %3ld | %-4s | %-3s | %9.3f | %8.2f | %4d/%-4d | %.1e %s |\n",
         s->b, s->hq, s->hkv, s->m, s->n, s->d, dtype, kindText(s, kindBuf), median * 1e3,
         tflops, warm, iters, err, ok ? "ok" : "WRONG");
  if (csv)
    fprintf(csv, "%ld,%ld,%ld,%ld,%ld,%ld,%s,%d,%.6f,%.3f,%d,%d,%.3e,%s,%ld,%.0f,%s\n", s->b,
            s->hq, s->hkv, s->m, s->n, s->d, dtype, s->causal,
            median * 1e3, tflops, warm, iters, err,
            s->kind == KIND_NONE ? (s->causal ? "causal" : "none") : kKindNames[s->kind],
            s->param, visible, ok ? "ok" : "wrong");
  fflush(stdout);
  faRuntimeSetStream(NULL);
  extraDestroy(&extra);
  buffersDestroy(&bufs);
  return ok;
}

/* The index of the kernel that computes `s`; -1 when there is none. */
static int kernelIndex(const Shape *s) {
  for (int i = 0; i < NUM_KERNELS; ++i)
    if (kKernels[i].d == s->d && !strcmp(kKernels[i].dtype, dtypeName(s)) &&
        kKernels[i].causal == usesCausalKernel(s) && !strcmp(kKernels[i].kind, kernelKind(s)) &&
        kKernels[i].param == kernelParam(s))
      return i;
  return -1;
}

/* "64, 80, 96, 128 or 256": the head dims of the kernels. */
static const char *headDimsText(void) {
  long dims[NUM_KERNELS];
  int n = 0;
  for (int i = 0; i < NUM_KERNELS; ++i) {
    int j = 0;
    while (j < n && dims[j] != kKernels[i].d)
      ++j;
    if (j == n)
      dims[n++] = kKernels[i].d;
  }
  static char text[128];
  size_t len = 0;
  for (int j = 0; j < n; ++j)
    len += (size_t)snprintf(text + len, sizeof text - len, "%s%ld", faToolListSeparator(j, n),
                            dims[j]);
  return text;
}

static bool shapeError(const char *text, const char *why) {
  return faToolArgError("fa-bench", "bad argument '--shape=%s': %s", text, why);
}

/* Reads any shape form into `s` (a kind's name into `kind`, "" for the older
 * forms; s->param -1 when a kind has none): false when it is none of them. */
static bool scanShape(const char *text, Shape *s, char dtype[8], int *causal, char kind[16]) {
  int end = 0;
  memset(s, 0, sizeof *s);
  strcpy(dtype, "f16");
  kind[0] = 0;
  if (sscanf(text, "%ld,%ld,%ld,%ld,%ld,%ld,%7[a-z0-9],%d%n", &s->b, &s->hq, &s->hkv, &s->m,
             &s->n, &s->d, dtype, causal, &end) == 8 && !text[end])
    return true;
  end = 0;
  if (sscanf(text, "%ld,%ld,%ld,%ld,%ld,%ld,%7[a-z0-9],%15[a-z]%n", &s->b, &s->hq, &s->hkv,
             &s->m, &s->n, &s->d, dtype, kind, &end) == 8) {
    int more = 0;
    s->param = -1;
    if (!text[end])
      return true;
    if (sscanf(text + end, ",%ld%n", &s->param, &more) == 1 && !text[end + more] &&
        s->param >= 0)
      return true;
    return false;
  }
  kind[0] = 0;
  end = 0;
  if (sscanf(text, "%ld,%ld,%ld,%ld,%d%n", &s->b, &s->hq, &s->n, &s->d, causal, &end) != 5 ||
      text[end])
    return false;
  s->hkv = s->hq, s->m = s->n;
  return true;
}

/* "causal, swa W, ...": the kinds of the shape form with one. */
static const char *kindsText(void) {
  static char text[160];
  size_t len = 0;
  for (int k = KIND_CAUSAL; k < NUM_KINDS; ++k)
    len += (size_t)snprintf(text + len, sizeof text - len, "%s%s%s%s",
                            faToolListSeparator(k - KIND_CAUSAL, NUM_KINDS - KIND_CAUSAL),
                            kKindNames[k], kKindParam[k] ? " " : "",
                            kKindParam[k] ? kKindParam[k] : "");
  return text;
}

/* Reads the KIND[,P] of a shape into s->kind and s->param; false (with a
 * message) when the kind is unknown or its parameter missing or extra. */
static bool parseKind(const char *text, const char *kind, Shape *s) {
  char why[200];
  int k = KIND_CAUSAL;
  while (k < NUM_KINDS && strcmp(kind, kKindNames[k]))
    ++k;
  if (k == NUM_KINDS) {
    snprintf(why, sizeof why, "unknown kind '%s' (the kinds are %s)", kind, kindsText());
    return shapeError(text, why);
  }
  s->kind = (Kind)k;
  s->causal = kKindCausal[k];
  if (kKindParam[k] && s->param <= 0) {
    snprintf(why, sizeof why, "%s needs a positive parameter: ...,%s,%s", kind, kind,
             kKindParam[k]);
    return shapeError(text, why);
  }
  if (!kKindParam[k] && s->param >= 0) {
    snprintf(why, sizeof why, "%s takes no parameter", kind);
    return shapeError(text, why);
  }
  if (!kKindParam[k])
    s->param = 0;
  return true;
}

/* "D = 128, bf16, swa 4096": the .def's kernels of a shape's kind. */
static const char *kindKernelsText(const Shape *s) {
  static char text[400];
  char kind[48];
  size_t len = 0;
  for (int i = 0; i < NUM_KERNELS && len < sizeof text; ++i)
    if (!strcmp(kKernels[i].kind, kernelKind(s)) && kKernels[i].causal == usesCausalKernel(s))
      len += (size_t)snprintf(text + len, sizeof text - len, "%sD = %ld, %s, %s", len ? "; " : "",
                              kKernels[i].d, kKernels[i].dtype, kindText(&(Shape){
                                  .kind = s->kind, .param = kKernels[i].param}, kind));
  return len ? text : "none";
}

/* Parses any shape form; false (with a message saying why) when it is none
 * of them or has no kernel. */
static bool parseShape(const char *text, Shape *s) {
  char dtype[8], why[600], kind[16], kindBuf[48];
  int c = 0;
  if (!scanShape(text, s, dtype, &c, kind))
    return shapeError(text, "expected B,Hq,Hkv,M,N,D,f16|bf16,CAUSAL, B,H,N,D,CAUSAL or "
                            "B,Hq,Hkv,M,N,D,f16|bf16,KIND[,P]");
  if (strcmp(dtype, "f16") && strcmp(dtype, "bf16"))
    return shapeError(text, "the dtype must be f16 or bf16");
  s->bf16 = strcmp(dtype, "bf16") == 0;
  s->causal = c != 0;
  if (kind[0] && !parseKind(text, kind, s))
    return false;
  if (s->b <= 0 || s->hq <= 0 || s->hkv <= 0 || s->m <= 0 || s->n <= 0 || s->hq % s->hkv)
    return shapeError(text, "sizes must be positive and Hq a multiple of Hkv");
  if (s->kind == KIND_NONE && s->causal && s->m != 1 && s->m != s->n)
    return shapeError(text, "causal needs M = N or M = 1");
  if (s->kind == KIND_NONE || s->kind == KIND_CAUSAL)
    snprintf(why, sizeof why, "no kernel for D = %ld (D is %s)", s->d, headDimsText());
  else
    snprintf(why, sizeof why,
             "no kernel for D = %ld, %s, %s in bench/bench_kernels.def (its %s kernels: %s)",
             s->d, dtype, kindText(s, kindBuf), kKindNames[s->kind], kindKernelsText(s));
  return kernelIndex(s) >= 0 || shapeError(text, why);
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: fa-bench KERNELS.so [--shape=B,Hq,Hkv,M,N,D,f16|bf16,CAUSAL]... "
          "[--shape=B,H,N,D,CAUSAL]... [--shape=B,Hq,Hkv,M,N,D,f16|bf16,KIND[,P]]... "
          "[--layout=bhsd|bshd] [--csv=FILE] [--doc-lengths=L1,...] [--budget-s=S]\n"
          "Times and checks the kernels of KERNELS.so (bench/attention_bench.mlir built by\n"
          "fa-compile --export-kernels) on each shape, on the GPU.\n"
          "Exit status: 0 every check ok (and after --help, --version), 1 a check failed,\n"
          "2 a bad command line, a kernel missing from KERNELS.so or a GPU runtime error.\n"
          "  --shape=...    a shape to time (up to %d): B,Hq,Hkv,M,N,D,f16|bf16,CAUSAL or\n"
          "                 B,H,N,D,CAUSAL (f16, Hkv = H, M = N); D is %s,\n"
          "                 Hq a multiple of Hkv, causal needs M = N or M = 1; without\n"
          "                 any: the 12 shapes of spec/perf.md\n"
          "  --shape=B,Hq,Hkv,M,N,D,f16|bf16,KIND[,P]\n"
          "                 a mask or score modification of anchors_flex.py (top-left\n"
          "                 aligned, any M and N) where bench_kernels.def has a kernel\n"
          "                 of that D, dtype, KIND and P: KIND is causal, swa W,\n"
          "                 chunked C, prefix P, document L, alibi, softcap C,\n"
          "                 relbias R or sinks\n"
          "  --layout=L     bhsd (default) or bshd: Q, K, V, O as [B, S, H, D]\n"
          "  --csv=FILE     also write the results to FILE as CSV\n"
          "  --doc-lengths=L1,L2,...\n"
          "                 the document shapes' lengths (repeated to max(M, N); the\n"
          "                 last one cut), instead of fa-bench's own random draw\n"
          "  --budget-s=S   seconds the timed launches of one shape may take (default 20)\n",
          MAX_SHAPES, headDimsText());
  faToolPrintInfoOptions(f, 14);
}

typedef struct {
  const char *libPath, *csvPath;
  long docLengths[MAX_DOC_LENGTHS];
  int numDocLengths;
  double budget;
  Shape shapes[MAX_SHAPES];
  int numShapes;
} BenchOptions;

static bool parseBudget(const char *text, double *budget) {
  if (!parseRealOption("fa-bench", "--budget-s", text, 0, budget))
    return false;
  return *budget > 0 ||
         faToolArgError("fa-bench", "--budget-s must be a positive number of seconds");
}

static bool addShape(const char *text, BenchOptions *o) {
  if (o->numShapes == MAX_SHAPES)
    return faToolArgError("fa-bench", "more than %d --shape options", MAX_SHAPES);
  if (!parseShape(text, &o->shapes[o->numShapes]))
    return false;
  ++o->numShapes;
  return true;
}

/* --doc-lengths=L1,L2,...: positive lengths, at most MAX_DOC_LENGTHS. */
static bool parseDocLengths(const char *text, BenchOptions *o) {
  const char *p = text;
  o->numDocLengths = 0;
  do {
    char *end;
    long l = strtol(p, &end, 10);
    if (end == p || l <= 0 || (*end && *end != ',') || o->numDocLengths == MAX_DOC_LENGTHS)
      return faToolArgError("fa-bench", "--doc-lengths: expected positive lengths L1,L2,..., "
                                        "got '%s'", text);
    o->docLengths[o->numDocLengths++] = l;
    p = *end ? end + 1 : end;
  } while (*p);
  return true;
}

/* One argument: an option or KERNELS.so. */
static bool parseArg(const char *a, BenchOptions *o) {
  if (!strncmp(a, "--shape=", 8))
    return addShape(a + 8, o);
  if (!strncmp(a, "--budget-s=", 11))
    return parseBudget(a + 11, &o->budget);
  if (!strcmp(a, "--layout=bshd") || !strcmp(a, "--layout=bhsd"))
    gBshd = !strcmp(a, "--layout=bshd");
  else if (!strncmp(a, "--layout=", 9))
    return faToolArgError("fa-bench", "--layout: '%s' is neither bhsd nor bshd", a + 9);
  else if (!strncmp(a, "--csv=", 6))
    o->csvPath = a + 6;
  else if (!strncmp(a, "--doc-lengths=", 14))
    return parseDocLengths(a + 14, o);
  else if (a[0] == '-')
    return faToolArgError("fa-bench", "unknown option '%s'", a);
  else if (o->libPath)
    return faToolArgError("fa-bench", "unexpected argument '%s' after KERNELS.so", a);
  else
    o->libPath = a;
  return true;
}

static FaArgsResult parseArgs(int argc, char **argv, BenchOptions *o) {
  *o = (BenchOptions){.budget = 20};
  for (int i = 1; i < argc; ++i) {
    if (faToolAnswerInfoOption("fa-bench", argv[i], usage))
      return FA_ARGS_DONE;
    if (!parseArg(argv[i], o))
      return FA_ARGS_ERROR;
  }
  if (!o->libPath) {
    faToolArgError("fa-bench", "missing KERNELS.so: give a library of fa-compile "
                               "--export-kernels (bench/attention_bench.mlir)");
    return FA_ARGS_ERROR;
  }
  if (!o->numShapes) {
    memcpy(o->shapes, kPerfShapes, sizeof kPerfShapes);
    o->numShapes = 12;
  }
  for (int i = 0; o->numDocLengths && i < o->numShapes; ++i) {
    o->shapes[i].docLengths = o->docLengths;
    o->shapes[i].numDocLengths = o->numDocLengths;
  }
  return FA_ARGS_RUN;
}

/* Times and checks every shape: 0 all ok, 1 a check failed, 2 a kernel is
 * missing or the GPU runtime failed. */
static int benchShapes(void *lib, const BenchOptions *o, FILE *csv) {
  if (csv)
    fprintf(csv, "B,Hq,Hkv,M,N,D,dtype,causal,median_ms,tflops,warmup,iters,max_err,kind,param,"
                 "visible_pairs,check\n");
  printf("| B,Hq,Hkv | M | N | D | dtype | causal | median ms | TFLOP/s | warm/iters | max err |\n"
         "|---|---|---|---|---|---|---|---|---|---|\n");
  int status = 0;
  for (int i = 0; i < o->numShapes; ++i) {
    char name[64];
    snprintf(name, sizeof name, "_mlir_ciface_fa_attention_%d", kernelIndex(&o->shapes[i]));
    Kernel k = (Kernel)dlsym(lib, name);
    if (!k) {
      fprintf(stderr, "fa-bench: %s has no %s: build it from bench/attention_bench.mlir with "
                      "fa-compile --export-kernels\n", o->libPath, name);
      return 2;
    }
    if (!runShape(k, &o->shapes[i], o->budget, csv))
      status = 1;
    if (faRuntimeGetStatus() != 0) {
      fprintf(stderr, "fa-bench: GPU runtime error: %s\n", faRuntimeGetErrorMessage());
      return 2;
    }
  }
  return status;
}

int main(int argc, char **argv) {
  BenchOptions o;
  FaArgsResult args = parseArgs(argc, argv, &o);
  if (args != FA_ARGS_RUN)
    return args;
  void *lib = dlopen(o.libPath, RTLD_NOW);
  if (!lib) {
    fprintf(stderr, "fa-bench: cannot load %s: %s\n", o.libPath, dlerror());
    return 2;
  }
  FILE *csv = o.csvPath ? fopen(o.csvPath, "w") : NULL;
  if (o.csvPath && !csv) {
    fprintf(stderr, "fa-bench: --csv=%s: cannot write it: %s\n", o.csvPath, strerror(errno));
    return 2;
  }
  int status = benchShapes(lib, &o, csv);
  if (csv)
    fclose(csv);
  return status;
}
