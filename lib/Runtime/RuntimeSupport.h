/* Internal: what the CUDA and HIP runtimes share: the sticky status, opening
 * the driver with dlopen, and memrefCopy (so compiled models need no MLIR
 * library at run time). */
#ifndef FA_LIB_RUNTIME_RUNTIMESUPPORT_H
#define FA_LIB_RUNTIME_RUNTIMESUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FA_RT_EXPORT __attribute__((visibility("default")))

/* Records a failure (first one wins) and prints it to stderr. `status` is
 * the driver's code, or -1. */
void faRtFail(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool faRtFailed(void);

/* A function table filled from a shared library. Each entry names a symbol
 * and the slot its address goes to. */
typedef struct FaRtSymbol {
  const char *name;
  void **slot;
} FaRtSymbol;

/* dlopen's the first library of `names` (NULL-terminated) that loads and
 * resolves every symbol; on failure records a clear error naming the
 * library and symbol and returns false. */
bool faRtOpenDriver(const char *const *names, const FaRtSymbol *symbols, size_t numSymbols);

/* A symbol of the library faRtOpenDriver opened that newer drivers alone
 * have; NULL when absent. */
void *faRtOptionalSymbol(const char *name);

/* The (rank, descriptor, element size) of mgpuMemHostRegisterMemRef as a
 * byte range. */
void faRtMemRefRange(int64_t rank, const void *descriptor, int64_t elementSize,
                     void **begin, size_t *bytes);

#endif
