/* Internal: one GPU driver (CUDA or HIP) as a table of functions, each
 * returning the driver's status (0 = success). Mgpu.c implements MLIR's mgpu*
 * ABI once on top of it; CudaDriver.c and HipDriver.c fill it from the
 * vendor's library opened with dlopen. */
#ifndef FA_LIB_RUNTIME_DRIVER_H
#define FA_LIB_RUNTIME_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct FaRtDriver {
  const char *name; /* "cuda" or "hip" */
  int alreadyRegistered; /* hostRegister's status for memory registered before */
  /* Opens the library, initializes the driver and selects `device`; returns
   * false after recording why (no library, no device, ...). */
  bool (*open)(int device);
  int (*bindThread)(void); /* makes the device current in this thread */
  const char *(*errorName)(int status);
  int (*moduleLoad)(void **module, const void *data, size_t size, bool jit, int optLevel,
                    char *log, size_t logSize);
  int (*moduleUnload)(void *module);
  int (*moduleGetFunction)(void **function, void *module, const char *name);
  int (*launch)(void *function, intptr_t gx, intptr_t gy, intptr_t gz, intptr_t bx,
                intptr_t by, intptr_t bz, int32_t smem, void *stream, void **params,
                void **extra);
  int (*streamCreate)(void **stream);
  int (*streamDestroy)(void *stream);
  int (*streamSynchronize)(void *stream);
  int (*streamWaitEvent)(void *stream, void *event);
  int (*eventCreate)(void **event);
  int (*eventDestroy)(void *event);
  int (*eventRecord)(void *event, void *stream);
  int (*eventSynchronize)(void *event);
  int (*eventElapsedMs)(float *ms, void *start, void *end);
  int (*memAlloc)(void **ptr, size_t bytes, bool hostShared);
  int (*memFree)(void *ptr);
  int (*memcpyAsync)(void *dst, const void *src, size_t bytes, void *stream);
  int (*memset32Async)(void *dst, uint32_t value, size_t count, void *stream);
  int (*memset16Async)(void *dst, uint16_t value, size_t count, void *stream);
  /* True if `ptr` is memory the driver allocated (device or managed). */
  bool (*isDriverMemory)(void *ptr);
  /* Page-locks host memory and maps it for the device. */
  int (*hostRegister)(void *ptr, size_t bytes);
  int (*hostUnregister)(void *ptr);
  /* cuTensorMapEncodeTiled: a 128-byte tensor map of a `rank`-D tensor at
   * `address` (dims, byte strides of dims 1.., box: innermost first);
   * FA_RT_UNSUPPORTED where the driver has none (HIP, CUDA before 12). */
  int (*tensorMapEncodeTiled)(void *map, int dataType, uint32_t rank, void *address,
                              const uint64_t *dims, const uint64_t *strides,
                              const uint32_t *box, int interleave, int swizzle,
                              int l2Promotion, int oobFill);
  /* A launch in thread block clusters of cx x cy x cz blocks (sm_90:
   * cuLaunchKernelEx with a cluster dimension); FA_RT_UNSUPPORTED where the
   * driver has none (HIP, CUDA before 12). */
  int (*launchCluster)(void *function, intptr_t cx, intptr_t cy, intptr_t cz, intptr_t gx,
                       intptr_t gy, intptr_t gz, intptr_t bx, intptr_t by, intptr_t bz,
                       int32_t smem, void *stream, void **params, void **extra);
  /* The device's multiprocessors (SMs; CUs); FA_RT_UNSUPPORTED where this
   * runtime does not ask (HIP: no kernel of ours needs it there). */
  int (*multiprocessorCount)(int *count);
} FaRtDriver;

/* The status of a driver call the driver does not have. */
enum { FA_RT_UNSUPPORTED = -2 };

/* The driver this runtime library was built with. */
const FaRtDriver *faRtGetDriver(void);

#endif
