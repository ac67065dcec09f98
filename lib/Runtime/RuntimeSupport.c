/* The status shared by the runtime libraries, the driver loader, and the
 * memrefCopy of MLIR's C runner utilities (the host code of a lowered model
 * calls it for strided copies). */
#include "RuntimeSupport.h"

#include "fa-c/Runtime.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t gLock = PTHREAD_MUTEX_INITIALIZER;
static int gStatus;
static char gMessage[512];

void faRtFail(int status, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  pthread_mutex_lock(&gLock);
  bool first = gStatus == 0;
  if (first) {
    gStatus = status ? status : -1;
    snprintf(gMessage, sizeof gMessage, "%s", msg);
  }
  pthread_mutex_unlock(&gLock);
  fprintf(stderr, "fa-runtime (%s): error: %s\n", faRuntimeGetBackendName(), msg);
}

bool faRtFailed(void) {
  pthread_mutex_lock(&gLock);
  bool failed = gStatus != 0;
  pthread_mutex_unlock(&gLock);
  return failed;
}

FA_RT_EXPORT int faRuntimeGetStatus(void) {
  pthread_mutex_lock(&gLock);
  int s = gStatus;
  pthread_mutex_unlock(&gLock);
  return s;
}

FA_RT_EXPORT const char *faRuntimeGetErrorMessage(void) { return gMessage; }

FA_RT_EXPORT void faRuntimeClearStatus(void) {
  pthread_mutex_lock(&gLock);
  gStatus = 0;
  gMessage[0] = 0;
  pthread_mutex_unlock(&gLock);
}

static void *gDriverLibrary;

void *faRtOptionalSymbol(const char *name) {
  return gDriverLibrary ? dlsym(gDriverLibrary, name) : NULL;
}

bool faRtOpenDriver(const char *const *names, const FaRtSymbol *symbols, size_t numSymbols) {
  const char *override = getenv("FA_RUNTIME_DRIVER");
  const char *const onlyOverride[] = {override, NULL};
  if (override && *override)
    names = onlyOverride;
  const char *tried = names[0];
  for (const char *const *n = names; *n; ++n) {
    void *lib = dlopen(*n, RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      continue;
    for (size_t i = 0; i < numSymbols; ++i) {
      *symbols[i].slot = dlsym(lib, symbols[i].name);
      if (!*symbols[i].slot) {
        faRtFail(-1, "%s has no symbol %s (driver too old?)", *n, symbols[i].name);
        dlclose(lib);
        return false;
      }
    }
    gDriverLibrary = lib;
    return true;
  }
  faRtFail(-1, "cannot load the GPU driver library %s: %s", tried, dlerror());
  return false;
}

void faRtMemRefRange(int64_t rank, const void *descriptor, int64_t elementSize,
                     void **begin, size_t *bytes) {
  const char *d = descriptor;
  char *aligned;
  memcpy(&aligned, d + sizeof(void *), sizeof aligned);
  const int64_t *words = (const int64_t *)(d + 2 * sizeof(void *));
  int64_t offset = words[0], extent = rank ? 0 : 1;
  for (int64_t k = 0; k < rank; ++k)
    if (words[1 + k] > 0)
      extent += (words[1 + k] - 1) * words[1 + rank + k];
  if (rank)
    extent += 1;
  for (int64_t k = 0; k < rank; ++k)
    if (words[1 + k] == 0)
      extent = 0;
  *begin = aligned + offset * elementSize;
  *bytes = (size_t)(extent * elementSize);
}

/* memrefCopy(elementSize, UnrankedMemRef *src, UnrankedMemRef *dst), as in
 * MLIR's CRunnerUtils: element-wise strided copy. */
typedef struct {
  int64_t rank;
  void *descriptor;
} UnrankedMemRef;

FA_RT_EXPORT void memrefCopy(int64_t elementSize, UnrankedMemRef *src, UnrankedMemRef *dst) {
  if (faRtFailed())
    return; /* buffers may be stand-ins (or NULL) after a failed allocation */
  int64_t rank = src->rank;
  const char *sd = src->descriptor, *dd = dst->descriptor;
  char *sBase, *dBase;
  memcpy(&sBase, sd + sizeof(void *), sizeof sBase);
  memcpy(&dBase, dd + sizeof(void *), sizeof dBase);
  const int64_t *sw = (const int64_t *)(sd + 2 * sizeof(void *));
  const int64_t *dw = (const int64_t *)(dd + 2 * sizeof(void *));
  int64_t total = 1, idx[16] = {0};
  for (int64_t k = 0; k < rank; ++k)
    total *= sw[1 + k];
  for (int64_t n = 0; n < total; ++n) {
    int64_t so = sw[0], doff = dw[0];
    for (int64_t k = 0; k < rank; ++k) {
      so += idx[k] * sw[1 + rank + k];
      doff += idx[k] * dw[1 + rank + k];
    }
    memcpy(dBase + doff * elementSize, sBase + so * elementSize, (size_t)elementSize);
    for (int64_t k = rank - 1; k >= 0 && ++idx[k] == sw[1 + k]; --k)
      idx[k] = 0;
  }
}
