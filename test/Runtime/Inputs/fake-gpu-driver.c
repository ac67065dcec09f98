/* A test double for the GPU drivers (libcuda.so.1 and libamdhip64.so in one
 * library), loaded by the runtime when FA_RUNTIME_DRIVER names it, so CI
 * without a GPU drives every path of lib/Runtime, failures included.
 *
 *   FAKE_GPU_FAIL=NAME:CODE[,NAME:CODE...]  entry point NAME returns CODE
 *   FAKE_GPU_DEVICES=N                      device count (default 1)
 *
 * Memory is host memory; modules are accepted as they are; a launch runs
 * nothing and prints its geometry to stderr, as host registrations print
 * theirs, and cuTensorMapEncodeTiled prints its arguments and fills the map
 * with them. Built with FAKE_GPU_OLD, it lacks cuMemHostRegister_v2 and
 * hipHostRegister (a driver too old); with FAKE_GPU_NO_TMA,
 * cuTensorMapEncodeTiled and cuLaunchKernelEx (a driver before CUDA 12).
 * cuLaunchKernelEx prints the launch and its cluster dimension. */
#include "CudaLaunchConfig.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

/* The code FAKE_GPU_FAIL gives entry point `name`, else 0. */
static int injected(const char *name) {
  const char *spec = getenv("FAKE_GPU_FAIL");
  size_t n = strlen(name);
  for (const char *p = spec; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
    if (strncmp(p, name, n) == 0 && p[n] == ':')
      return atoi(p + n + 1);
  return 0;
}

#define FAKE_ENTRY(name)                                                      \
  do {                                                                        \
    int injected_ = injected(#name);                                          \
    if (injected_)                                                            \
      return injected_;                                                       \
  } while (0)

static int deviceCount(void) {
  const char *env = getenv("FAKE_GPU_DEVICES");
  return env ? atoi(env) : 1;
}

static const struct {
  int code;
  const char *cuda, *hip;
} kErrors[] = {
    {1, "CUDA_ERROR_INVALID_VALUE", "hipErrorInvalidValue"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "hipErrorOutOfMemory"},
    {100, "CUDA_ERROR_NO_DEVICE", "hipErrorNoDevice"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "hipErrorInvalidImage"},
    {218, "CUDA_ERROR_INVALID_PTX", "hipErrorInvalidKernelFile"},
    {500, "CUDA_ERROR_NOT_FOUND", "hipErrorNotFound"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "hipErrorLaunchOutOfResources"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "hipErrorLaunchFailure"},
};

static const char *errorName(int code, int hip) {
  for (size_t i = 0; i < sizeof kErrors / sizeof kErrors[0]; ++i)
    if (kErrors[i].code == code)
      return hip ? kErrors[i].hip : kErrors[i].cuda;
  return NULL;
}

static void launch(const char *api, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                   unsigned by, unsigned bz, unsigned smem) {
  fprintf(stderr, "fake-gpu: %s grid (%u,%u,%u) block (%u,%u,%u) smem %u\n", api, gx, gy, gz,
          bx, by, bz, smem);
}

/* A host (un)registration: printed, with the size when registering. */
static int hostRegistration(const char *api, size_t bytes) {
  if (bytes)
    fprintf(stderr, "fake-gpu: %s %zu bytes\n", api, bytes);
  else
    fprintf(stderr, "fake-gpu: %s\n", api);
  return 0;
}

static int alloc(void **p, size_t bytes) {
  *p = calloc(1, bytes ? bytes : 1);
  return *p ? 0 : 2;
}

static void fill(void *dst, const void *value, size_t width, size_t count) {
  for (size_t i = 0; i < count; ++i)
    memcpy((char *)dst + i * width, value, width);
}

/* One handle stands for every module. */
static int loadModule(void **module) {
  static int handle;
  *module = &handle;
  return 0;
}

/*===--- CUDA driver API ---------------------------------------------------===*/

EXPORT int cuInit(unsigned flags) {
  FAKE_ENTRY(cuInit);
  return 0;
}
EXPORT int cuDeviceGetCount(int *n) {
  FAKE_ENTRY(cuDeviceGetCount);
  *n = deviceCount();
  return 0;
}
EXPORT int cuDeviceGet(int *dev, int ordinal) {
  FAKE_ENTRY(cuDeviceGet);
  *dev = ordinal;
  return 0;
}
EXPORT int cuDeviceGetAttribute(int *value, int attribute, int dev) {
  FAKE_ENTRY(cuDeviceGetAttribute);
  fprintf(stderr, "fake-gpu: cuDeviceGetAttribute %d of device %d\n", attribute, dev);
  *value = attribute == 16 ? 132 : 0; /* CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: an H100's */
  return 0;
}
EXPORT int cuDevicePrimaryCtxRetain(void **ctx, int dev) {
  static int context;
  FAKE_ENTRY(cuDevicePrimaryCtxRetain);
  *ctx = &context;
  return 0;
}
EXPORT int cuCtxSetCurrent(void *ctx) {
  FAKE_ENTRY(cuCtxSetCurrent);
  return 0;
}
EXPORT int cuGetErrorName(int code, const char **name) {
  *name = errorName(code, 0);
  return *name ? 0 : 1;
}
EXPORT int cuModuleLoadDataEx(void **module, const void *image, unsigned numOptions,
                              int *options, void **values) {
  int r = injected("cuModuleLoadDataEx");
  if (r) {
    /* Option 5/6: the error log buffer and its size, as the JIT fills them. */
    for (unsigned i = 0; i + 1 < numOptions; ++i)
      if (options[i] == 5 && options[i + 1] == 6)
        snprintf(values[i], (size_t)(uintptr_t)values[i + 1], "fake-ptxas: line 1: syntax error");
    return r;
  }
  return loadModule(module);
}
EXPORT int cuModuleUnload(void *module) { return 0; }
EXPORT int cuModuleGetFunction(void **f, void *module, const char *name) {
  FAKE_ENTRY(cuModuleGetFunction);
  *f = (void *)name;
  return 0;
}
EXPORT int cuFuncSetAttribute(void *f, int attribute, int value) {
  FAKE_ENTRY(cuFuncSetAttribute);
  return 0;
}
EXPORT int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                          unsigned by, unsigned bz, unsigned smem, void *stream, void **params,
                          void **extra) {
  FAKE_ENTRY(cuLaunchKernel);
  launch("cuLaunchKernel", gx, gy, gz, bx, by, bz, smem);
  return 0;
}
EXPORT int cuStreamCreate(void **s, unsigned flags) {
  static int stream;
  FAKE_ENTRY(cuStreamCreate);
  *s = &stream;
  return 0;
}
EXPORT int cuStreamDestroy_v2(void *s) { return 0; }
EXPORT int cuStreamSynchronize(void *s) {
  FAKE_ENTRY(cuStreamSynchronize);
  return 0;
}
EXPORT int cuStreamWaitEvent(void *s, void *e, unsigned flags) { return 0; }
EXPORT int cuEventCreate(void **e, unsigned flags) {
  static int event;
  *e = &event;
  return 0;
}
EXPORT int cuEventDestroy_v2(void *e) { return 0; }
EXPORT int cuEventRecord(void *e, void *s) { return 0; }
EXPORT int cuEventSynchronize(void *e) { return 0; }
EXPORT int cuEventElapsedTime(float *ms, void *a, void *b) {
  *ms = 1.5f;
  return 0;
}
EXPORT int cuMemAlloc_v2(void **p, size_t bytes) {
  FAKE_ENTRY(cuMemAlloc_v2);
  fprintf(stderr, "fake-gpu: cuMemAlloc_v2 %zu bytes\n", bytes);
  return alloc(p, bytes);
}
EXPORT int cuMemAllocManaged(void **p, size_t bytes, unsigned flags) {
  FAKE_ENTRY(cuMemAllocManaged);
  return alloc(p, bytes);
}
EXPORT int cuMemFree_v2(void *p) {
  fprintf(stderr, "fake-gpu: cuMemFree_v2\n");
  free(p);
  return 0;
}
EXPORT int cuMemcpyAsync(void *dst, const void *src, size_t n, void *s) {
  FAKE_ENTRY(cuMemcpyAsync);
  memcpy(dst, src, n);
  return 0;
}
EXPORT int cuMemsetD32Async(void *dst, unsigned v, size_t n, void *s) {
  fill(dst, &v, 4, n);
  return 0;
}
EXPORT int cuMemsetD16Async(void *dst, unsigned short v, size_t n, void *s) {
  fill(dst, &v, 2, n);
  return 0;
}
#ifndef FAKE_GPU_NO_TMA
EXPORT int cuLaunchKernelEx(const CUlaunchConfig *c, void *f, void **params, void **extra) {
  FAKE_ENTRY(cuLaunchKernelEx);
  launch("cuLaunchKernelEx", c->gridDimX, c->gridDimY, c->gridDimZ, c->blockDimX, c->blockDimY,
         c->blockDimZ, c->sharedMemBytes);
  for (unsigned i = 0; i < c->numAttrs; ++i)
    if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
      fprintf(stderr, "fake-gpu: cuLaunchKernelEx cluster (%u,%u,%u)\n",
              c->attrs[i].value.clusterDim.x, c->attrs[i].value.clusterDim.y,
              c->attrs[i].value.clusterDim.z);
  return 0;
}

EXPORT int cuTensorMapEncodeTiled(void *map, int type, uint32_t rank, void *address,
                                  const uint64_t *dims, const uint64_t *strides,
                                  const uint32_t *box, const uint32_t *elementStrides,
                                  int interleave, int swizzle, int l2, int oob) {
  FAKE_ENTRY(cuTensorMapEncodeTiled);
  fprintf(stderr, "fake-gpu: cuTensorMapEncodeTiled type %d rank %u dims", type, rank);
  for (uint32_t i = 0; i < rank; ++i)
    fprintf(stderr, "%s%llu", i ? "x" : " ", (unsigned long long)dims[i]);
  fprintf(stderr, " strides");
  for (uint32_t i = 0; i + 1 < rank; ++i)
    fprintf(stderr, " %llu", (unsigned long long)strides[i]);
  fprintf(stderr, " box");
  for (uint32_t i = 0; i < rank; ++i)
    fprintf(stderr, "%s%u", i ? "x" : " ", box[i]);
  fprintf(stderr, " element strides %u swizzle %d interleave %d l2 %d oob %d\n",
          elementStrides[0], swizzle, interleave, l2, oob);
  memset(map, 0, 128);
  memcpy(map, &address, sizeof address);
  memcpy((char *)map + 8, dims, 8 * (rank < 4 ? rank : 4));
  memcpy((char *)map + 40, box, 4 * rank);
  memcpy((char *)map + 60, &swizzle, sizeof swizzle);
  return 0;
}
#endif
#ifndef FAKE_GPU_OLD
EXPORT int cuMemHostRegister_v2(void *p, size_t n, unsigned flags) {
  FAKE_ENTRY(cuMemHostRegister_v2);
  return hostRegistration("cuMemHostRegister_v2", n);
}
#endif
EXPORT int cuMemHostUnregister(void *p) { return hostRegistration("cuMemHostUnregister", 0); }
EXPORT int cuPointerGetAttribute(void *out, int attribute, void *p) {
  return 1; /* no pointer is a driver allocation: the runtime registers */
}

/*===--- HIP ---------------------------------------------------------------===*/

/* Each HIP entry point takes its own injected failure, then does what its
 * CUDA counterpart does. */
EXPORT int hipInit(unsigned flags) {
  FAKE_ENTRY(hipInit);
  return cuInit(flags);
}
EXPORT int hipGetDeviceCount(int *n) {
  FAKE_ENTRY(hipGetDeviceCount);
  return cuDeviceGetCount(n);
}
EXPORT int hipSetDevice(int device) {
  FAKE_ENTRY(hipSetDevice);
  return 0;
}
EXPORT const char *hipGetErrorName(int code) { return errorName(code, 1); }
EXPORT int hipModuleLoadData(void **module, const void *image) {
  FAKE_ENTRY(hipModuleLoadData);
  return loadModule(module);
}
EXPORT int hipModuleUnload(void *module) { return 0; }
EXPORT int hipModuleGetFunction(void **f, void *module, const char *name) {
  FAKE_ENTRY(hipModuleGetFunction);
  *f = (void *)name;
  return 0;
}
EXPORT int hipModuleLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                 unsigned by, unsigned bz, unsigned smem, void *stream,
                                 void **params, void **extra) {
  FAKE_ENTRY(hipModuleLaunchKernel);
  launch("hipModuleLaunchKernel", gx, gy, gz, bx, by, bz, smem);
  return 0;
}
EXPORT int hipStreamCreateWithFlags(void **s, unsigned flags) { return cuStreamCreate(s, flags); }
EXPORT int hipStreamDestroy(void *s) { return 0; }
EXPORT int hipStreamSynchronize(void *s) {
  FAKE_ENTRY(hipStreamSynchronize);
  return 0;
}
EXPORT int hipStreamWaitEvent(void *s, void *e, unsigned flags) { return 0; }
EXPORT int hipEventCreate(void **e) { return cuEventCreate(e, 0); }
EXPORT int hipEventDestroy(void *e) { return 0; }
EXPORT int hipEventRecord(void *e, void *s) { return 0; }
EXPORT int hipEventSynchronize(void *e) { return 0; }
EXPORT int hipEventElapsedTime(float *ms, void *a, void *b) { return cuEventElapsedTime(ms, a, b); }
EXPORT int hipMalloc(void **p, size_t bytes) {
  FAKE_ENTRY(hipMalloc);
  return alloc(p, bytes);
}
EXPORT int hipMallocManaged(void **p, size_t bytes, unsigned flags) {
  FAKE_ENTRY(hipMallocManaged);
  return alloc(p, bytes);
}
EXPORT int hipFree(void *p) { return cuMemFree_v2(p); }
EXPORT int hipMemcpyAsync(void *dst, const void *src, size_t n, int kind, void *s) {
  FAKE_ENTRY(hipMemcpyAsync);
  return cuMemcpyAsync(dst, src, n, s);
}
EXPORT int hipMemsetD32Async(void *dst, int v, size_t n, void *s) {
  return cuMemsetD32Async(dst, (unsigned)v, n, s);
}
EXPORT int hipMemsetD16Async(void *dst, unsigned short v, size_t n, void *s) {
  return cuMemsetD16Async(dst, v, n, s);
}
#ifndef FAKE_GPU_OLD
EXPORT int hipHostRegister(void *p, size_t n, unsigned flags) {
  FAKE_ENTRY(hipHostRegister);
  return hostRegistration("hipHostRegister", n);
}
#endif
EXPORT int hipHostUnregister(void *p) { return hostRegistration("hipHostUnregister", 0); }
EXPORT int hipPointerGetAttribute(void *out, int attribute, void *p) { return 1; }
