/* fa-bench KERNELS.so: times fa-mlir's attention kernels on the GPU.
 * KERNELS.so is bench/attention_bench.mlir built with
 *   fa-compile --export-kernels --target=sm_90 -o KERNELS.so
 * which exports _mlir_ciface_fa_attention_{0,1,2,3} = D 64, D 64 causal,
 * D 128, D 128 causal (fp16, arguments Q, K, V, O as [B,H,N,D] memrefs).
 * Per shape: warm-up launches, then timed launches, each between two device
 * events on one stream (faRuntimeSetStream); the median is reported as
 * TFLOP/s = 4 B H N^2 D / t (halved when causal). 50 warm-up and 100 timed
 * launches unless one launch takes so long that --budget-s would be
 * exceeded; the counts used are printed. Rows 0..31 and N-32..N-1 of the
 * first and last head are checked against a double-precision CPU reference.
 * Needs no MLIR; links libfa_rt_cuda. */
#include "Tensors.h"

#include "fa-c/Runtime.h"

#include <dlfcn.h>
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

typedef struct {
  long b, h, n, d;
  bool causal;
} Shape;

typedef void (*Kernel)(Desc *, Desc *, Desc *, Desc *);

static const Shape kPerfShapes[12] = {
    {4, 32, 1024, 64, false},  {4, 32, 4096, 64, false},  {4, 32, 16384, 64, false},
    {4, 32, 1024, 64, true},   {4, 32, 4096, 64, true},   {4, 32, 16384, 64, true},
    {4, 32, 1024, 128, false}, {4, 32, 4096, 128, false}, {4, 32, 16384, 128, false},
    {4, 32, 1024, 128, true},  {4, 32, 4096, 128, true},  {4, 32, 16384, 128, true}};

static int cmpFloat(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return x < y ? -1 : x > y;
}

static void descFor(Desc *desc, const Shape *s, void *data) {
  TensorInfo info = {ELT_F16, 4, {s->b, s->h, s->n, s->d}, s->b * s->h * s->n * s->d};
  descInit(desc, &info, data);
}

/* Max |O - reference| over the checked rows, relative to max |reference|
 * there, in double precision on the host. */
static double checkRows(const Shape *s, const uint16_t *q, const uint16_t *k,
                        const uint16_t *v, const uint16_t *o) {
  double worst = 0, scale = 1 / sqrt((double)s->d);
  long heads[2] = {0, s->b * s->h - 1};
  double *p = malloc(sizeof(double) * (size_t)s->n);
  for (int hi = 0; hi < 2; ++hi) {
    size_t base = (size_t)heads[hi] * (size_t)(s->n * s->d);
    for (long r = 0; r < s->n; ++r) {
      if (r == 32 && s->n > 64)
        r = s->n - 32;
      long last = s->causal ? r : s->n - 1;
      double m = -INFINITY, l = 0;
      for (long j = 0; j <= last; ++j) {
        double dot = 0;
        for (long c = 0; c < s->d; ++c)
          dot += floatFromHalf(q[base + r * s->d + c]) * floatFromHalf(k[base + j * s->d + c]);
        p[j] = dot * scale;
        m = fmax(m, p[j]);
      }
      for (long j = 0; j <= last; ++j)
        l += (p[j] = exp(p[j] - m));
      for (long c = 0; c < s->d; ++c) {
        double acc = 0;
        for (long j = 0; j <= last; ++j)
          acc += p[j] * floatFromHalf(v[base + j * s->d + c]);
        worst = fmax(worst, fabs(acc / l - floatFromHalf(o[base + r * s->d + c])));
      }
    }
  }
  free(p);
  return worst;
}

static void runShape(Kernel kernel, const Shape *s, double budget, FILE *csv) {
  size_t count = (size_t)(s->b * s->h * s->n * s->d), bytes = count * 2;
  uint16_t *host[4];
  void *dev[4];
  uint64_t state = 12345;
  for (int t = 0; t < 4; ++t) {
    host[t] = malloc(bytes);
    for (size_t i = 0; i < count && t < 3; ++i)
      host[t][i] = halfFromFloat((float)((double)(nextRandom(&state) >> 11) / 9007199254740992.0 * 2 - 1));
    dev[t] = mgpuMemAlloc(bytes, NULL, false);
    if (t < 3)
      mgpuMemcpy(dev[t], host[t], bytes, NULL);
  }
  void *stream = mgpuStreamCreate();
  faRuntimeSetStream(stream);
  Desc d[4];
  for (int t = 0; t < 4; ++t)
    descFor(&d[t], s, dev[t]);
  void *start = mgpuEventCreate(), *end = mgpuEventCreate();
  /* One launch to size the run. */
  mgpuEventRecord(start, stream);
  kernel(&d[0], &d[1], &d[2], &d[3]);
  mgpuEventRecord(end, stream);
  mgpuEventSynchronize(end);
  double first = faRuntimeEventElapsedMs(start, end) / 1e3;
  int iters = 100, warm = 50;
  if (first * 150 > budget) {
    iters = (int)fmax(3, budget / first * 2 / 3);
    warm = (int)fmax(1, fmin(50, iters / 2));
    iters = iters > 100 ? 100 : iters;
  }
  for (int i = 0; i < warm; ++i)
    kernel(&d[0], &d[1], &d[2], &d[3]);
  float *ms = malloc(sizeof(float) * (size_t)iters);
  for (int i = 0; i < iters; ++i) {
    mgpuEventRecord(start, stream);
    kernel(&d[0], &d[1], &d[2], &d[3]);
    mgpuEventRecord(end, stream);
    mgpuEventSynchronize(end);
    ms[i] = faRuntimeEventElapsedMs(start, end);
  }
  qsort(ms, (size_t)iters, sizeof(float), cmpFloat);
  double median = ms[iters / 2] / 1e3;
  double flops = 4.0 * s->b * s->h * (double)s->n * s->n * s->d / (s->causal ? 2 : 1);
  mgpuMemcpy(host[3], dev[3], bytes, stream);
  mgpuStreamSynchronize(stream);
  double err = checkRows(s, host[0], host[1], host[2], host[3]);
  bool ok = faRuntimeGetStatus() == 0 && err < 2e-2;
  printf("| %3ld | %5ld | %-6s | %9.3f | %8.2f | %4d/%-4d | %.1e %s |\n", s->d, s->n,
         s->causal ? "yes" : "no", median * 1e3, flops / median / 1e12, warm, iters, err,
         ok ? "ok" : "WRONG");
  if (csv)
    fprintf(csv, "%ld,%ld,%ld,%ld,%d,%.6f,%.3f,%d,%d,%.3e,%s\n", s->b, s->h, s->n, s->d,
            s->causal, median * 1e3, flops / median / 1e12, warm, iters, err,
            ok ? "ok" : "wrong");
  fflush(stdout);
  faRuntimeSetStream(NULL);
  free(ms);
  for (int t = 0; t < 4; ++t) {
    mgpuMemFree(dev[t], NULL);
    free(host[t]);
  }
}

int main(int argc, char **argv) {
  const char *libPath = NULL, *csvPath = NULL;
  double budget = 20;
  Shape shapes[64];
  int numShapes = 0;
  for (int i = 1; i < argc; ++i) {
    Shape s;
    int c = 0;
    if (!strncmp(argv[i], "--csv=", 6))
      csvPath = argv[i] + 6;
    else if (!strncmp(argv[i], "--budget-s=", 11))
      budget = strtod(argv[i] + 11, NULL);
    else if (!strncmp(argv[i], "--shape=", 8) && numShapes < 64 &&
             sscanf(argv[i] + 8, "%ld,%ld,%ld,%ld,%d", &s.b, &s.h, &s.n, &s.d, &c) == 5 &&
             (s.d == 64 || s.d == 128)) {
      s.causal = c != 0;
      shapes[numShapes++] = s;
    } else if (argv[i][0] != '-' && !libPath)
      libPath = argv[i];
    else {
      fprintf(stderr, "usage: fa-bench KERNELS.so [--shape=B,H,N,D,CAUSAL]... [--csv=FILE] "
                      "[--budget-s=S]\n(D is 64 or 128; without --shape: the 12 shapes of "
                      "spec/perf.md)\n");
      return 2;
    }
  }
  if (!libPath) {
    fprintf(stderr, "fa-bench: no kernel library given\n");
    return 2;
  }
  if (!numShapes) {
    memcpy(shapes, kPerfShapes, sizeof kPerfShapes);
    numShapes = 12;
  }
  void *lib = dlopen(libPath, RTLD_NOW);
  if (!lib) {
    fprintf(stderr, "fa-bench: cannot load %s: %s\n", libPath, dlerror());
    return 2;
  }
  FILE *csv = csvPath ? fopen(csvPath, "w") : NULL;
  if (csv)
    fprintf(csv, "B,H,N,D,causal,median_ms,tflops,warmup,iters,max_err,check\n");
  printf("| D | N | causal | median ms | TFLOP/s | warm/iters | max err |\n"
         "|---|---|---|---|---|---|---|\n");
  int status = 0;
  for (int i = 0; i < numShapes; ++i) {
    char name[64];
    snprintf(name, sizeof name, "_mlir_ciface_fa_attention_%d",
             (shapes[i].d == 128) * 2 + shapes[i].causal);
    Kernel k = (Kernel)dlsym(lib, name);
    if (!k) {
      fprintf(stderr, "fa-bench: %s has no %s\n", libPath, name);
      return 2;
    }
    runShape(k, &shapes[i], budget, csv);
    if (faRuntimeGetStatus() != 0) {
      fprintf(stderr, "fa-bench: GPU runtime error: %s\n", faRuntimeGetErrorMessage());
      status = 2;
      break;
    }
  }
  if (csv)
    fclose(csv);
  return status;
}
