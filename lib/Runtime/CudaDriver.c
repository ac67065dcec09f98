/* The CUDA driver API (libcuda.so.1, opened with dlopen) as an FaRtDriver.
 * Only the driver is needed at run time: no CUDA runtime, no toolkit. */
#include "CudaLaunchConfig.h"
#include "Driver.h"
#include "RuntimeSupport.h"

#include <stdio.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef uintptr_t CUdeviceptr;

enum {
  CU_STREAM_NON_BLOCKING = 1,
  CU_MEM_ATTACH_GLOBAL = 1,
  CU_POINTER_ATTRIBUTE_CONTEXT = 1,
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_OPTIMIZATION_LEVEL = 7,
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
  CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
  CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
};

static struct {
  CUresult (*init)(unsigned);
  CUresult (*deviceGetCount)(int *);
  CUresult (*deviceGet)(CUdevice *, int);
  CUresult (*deviceGetAttribute)(int *, int, CUdevice);
  CUresult (*primaryCtxRetain)(CUcontext *, CUdevice);
  CUresult (*ctxSetCurrent)(CUcontext);
  CUresult (*getErrorName)(CUresult, const char **);
  CUresult (*moduleLoadDataEx)(void **, const void *, unsigned, int *, void **);
  CUresult (*moduleUnload)(void *);
  CUresult (*moduleGetFunction)(void **, void *, const char *);
  CUresult (*funcSetAttribute)(void *, int, int);
  CUresult (*launchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                           unsigned, void *, void **, void **);
  CUresult (*launchKernelEx)(const CUlaunchConfig *, void *, void **, void **);
  CUresult (*streamCreate)(void **, unsigned);
  CUresult (*streamDestroy)(void *);
  CUresult (*streamSynchronize)(void *);
  CUresult (*streamWaitEvent)(void *, void *, unsigned);
  CUresult (*eventCreate)(void **, unsigned);
  CUresult (*eventDestroy)(void *);
  CUresult (*eventRecord)(void *, void *);
  CUresult (*eventSynchronize)(void *);
  CUresult (*eventElapsedTime)(float *, void *, void *);
  CUresult (*memAlloc)(CUdeviceptr *, size_t);
  CUresult (*memAllocManaged)(CUdeviceptr *, size_t, unsigned);
  CUresult (*memFree)(CUdeviceptr);
  CUresult (*memcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, void *);
  CUresult (*memsetD32Async)(CUdeviceptr, unsigned, size_t, void *);
  CUresult (*memsetD16Async)(CUdeviceptr, unsigned short, size_t, void *);
  CUresult (*memHostRegister)(void *, size_t, unsigned);
  CUresult (*memHostUnregister)(void *);
  CUresult (*pointerGetAttribute)(void *, int, CUdeviceptr);
  CUresult (*tensorMapEncodeTiled)(void *, int, uint32_t, void *, const uint64_t *,
                                   const uint64_t *, const uint32_t *, const uint32_t *, int,
                                   int, int, int);
} cu;

static CUcontext gContext;
static CUdevice gCuDevice;

static bool cudaOpen(int device) {
  static const char *const kLibs[] = {"libcuda.so.1", "libcuda.so", NULL};
  const FaRtSymbol syms[] = {
      {"cuInit", (void **)&cu.init},
      {"cuDeviceGetCount", (void **)&cu.deviceGetCount},
      {"cuDeviceGet", (void **)&cu.deviceGet},
      {"cuDeviceGetAttribute", (void **)&cu.deviceGetAttribute},
      {"cuDevicePrimaryCtxRetain", (void **)&cu.primaryCtxRetain},
      {"cuCtxSetCurrent", (void **)&cu.ctxSetCurrent},
      {"cuGetErrorName", (void **)&cu.getErrorName},
      {"cuModuleLoadDataEx", (void **)&cu.moduleLoadDataEx},
      {"cuModuleUnload", (void **)&cu.moduleUnload},
      {"cuModuleGetFunction", (void **)&cu.moduleGetFunction},
      {"cuFuncSetAttribute", (void **)&cu.funcSetAttribute},
      {"cuLaunchKernel", (void **)&cu.launchKernel},
      {"cuStreamCreate", (void **)&cu.streamCreate},
      {"cuStreamDestroy_v2", (void **)&cu.streamDestroy},
      {"cuStreamSynchronize", (void **)&cu.streamSynchronize},
      {"cuStreamWaitEvent", (void **)&cu.streamWaitEvent},
      {"cuEventCreate", (void **)&cu.eventCreate},
      {"cuEventDestroy_v2", (void **)&cu.eventDestroy},
      {"cuEventRecord", (void **)&cu.eventRecord},
      {"cuEventSynchronize", (void **)&cu.eventSynchronize},
      {"cuEventElapsedTime", (void **)&cu.eventElapsedTime},
      {"cuMemAlloc_v2", (void **)&cu.memAlloc},
      {"cuMemAllocManaged", (void **)&cu.memAllocManaged},
      {"cuMemFree_v2", (void **)&cu.memFree},
      {"cuMemcpyAsync", (void **)&cu.memcpyAsync},
      {"cuMemsetD32Async", (void **)&cu.memsetD32Async},
      {"cuMemsetD16Async", (void **)&cu.memsetD16Async},
      {"cuMemHostRegister_v2", (void **)&cu.memHostRegister},
      {"cuMemHostUnregister", (void **)&cu.memHostUnregister},
      {"cuPointerGetAttribute", (void **)&cu.pointerGetAttribute},
  };
  if (!faRtOpenDriver(kLibs, syms, sizeof syms / sizeof syms[0]))
    return false;
  *(void **)&cu.tensorMapEncodeTiled = faRtOptionalSymbol("cuTensorMapEncodeTiled"); /* CUDA 12 */
  *(void **)&cu.launchKernelEx = faRtOptionalSymbol("cuLaunchKernelEx");             /* CUDA 12 */
  CUresult r;
  int count = 0;
  CUdevice dev = 0;
  if ((r = cu.init(0)) != 0) {
    faRtFail(r, "cuInit failed (%d): no usable NVIDIA driver or GPU", r);
    return false;
  }
  if ((r = cu.deviceGetCount(&count)) != 0 || count == 0) {
    faRtFail(r ? r : -1, "no CUDA device found");
    return false;
  }
  if (device < 0 || device >= count) {
    faRtFail(-1, "CUDA device %d requested, %d present", device, count);
    return false;
  }
  if ((r = cu.deviceGet(&dev, device)) != 0 || (r = cu.primaryCtxRetain(&gContext, dev)) != 0) {
    faRtFail(r, "cannot open CUDA device %d (status %d)", device, r);
    return false;
  }
  gCuDevice = dev;
  return true;
}

static int cudaBindThread(void) { return cu.ctxSetCurrent(gContext); }

static const char *cudaErrorName(int status) {
  const char *name = NULL;
  if (!cu.getErrorName || cu.getErrorName(status, &name) != 0 || !name)
    return "unknown CUDA error";
  return name;
}

static int cudaModuleLoad(void **module, const void *data, size_t size, bool jit, int optLevel,
                          char *log, size_t logSize) {
  int keys[3] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                 CU_JIT_OPTIMIZATION_LEVEL};
  void *values[3] = {log, (void *)(uintptr_t)logSize, (void *)(uintptr_t)optLevel};
  return cu.moduleLoadDataEx(module, data, jit ? 3 : 2, keys, values);
}

static int cudaModuleUnload(void *m) { return cu.moduleUnload(m); }
static int cudaModuleGetFunction(void **f, void *m, const char *name) {
  return cu.moduleGetFunction(f, m, name);
}

/* Lets `f` take `smem` bytes of dynamic shared memory (above 48 KiB). */
static int allowSharedMemory(void *f, int32_t smem) {
  return smem > 48 * 1024
             ? cu.funcSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem)
             : 0;
}

static int cudaLaunch(void *f, intptr_t gx, intptr_t gy, intptr_t gz, intptr_t bx, intptr_t by,
                      intptr_t bz, int32_t smem, void *stream, void **params, void **extra) {
  int r = allowSharedMemory(f, smem);
  if (r)
    return r;
  return cu.launchKernel(f, (unsigned)gx, (unsigned)gy, (unsigned)gz, (unsigned)bx,
                         (unsigned)by, (unsigned)bz, (unsigned)smem, stream, params, extra);
}

static int cudaLaunchCluster(void *f, intptr_t cx, intptr_t cy, intptr_t cz, intptr_t gx,
                             intptr_t gy, intptr_t gz, intptr_t bx, intptr_t by, intptr_t bz,
                             int32_t smem, void *stream, void **params, void **extra) {
  if (!cu.launchKernelEx)
    return FA_RT_UNSUPPORTED;
  int r = allowSharedMemory(f, smem);
  if (r)
    return r;
  CUlaunchAttribute cluster = {.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION};
  cluster.value.clusterDim.x = (unsigned)cx;
  cluster.value.clusterDim.y = (unsigned)cy;
  cluster.value.clusterDim.z = (unsigned)cz;
  CUlaunchConfig config = {(unsigned)gx, (unsigned)gy, (unsigned)gz, (unsigned)bx,
                           (unsigned)by, (unsigned)bz, (unsigned)smem, stream, &cluster, 1};
  return cu.launchKernelEx(&config, f, params, extra);
}

static int cudaStreamCreate(void **s) { return cu.streamCreate(s, CU_STREAM_NON_BLOCKING); }
static int cudaStreamDestroy(void *s) { return cu.streamDestroy(s); }
static int cudaStreamSynchronize(void *s) { return cu.streamSynchronize(s); }
static int cudaStreamWaitEvent(void *s, void *e) { return cu.streamWaitEvent(s, e, 0); }
static int cudaEventCreate(void **e) { return cu.eventCreate(e, 0); }
static int cudaEventDestroy(void *e) { return cu.eventDestroy(e); }
static int cudaEventRecord(void *e, void *s) { return cu.eventRecord(e, s); }
static int cudaEventSynchronize(void *e) { return cu.eventSynchronize(e); }
static int cudaEventElapsedMs(float *ms, void *a, void *b) { return cu.eventElapsedTime(ms, a, b); }

static int cudaMemAlloc(void **p, size_t bytes, bool shared) {
  CUdeviceptr d = 0;
  int r = shared ? cu.memAllocManaged(&d, bytes, CU_MEM_ATTACH_GLOBAL) : cu.memAlloc(&d, bytes);
  *p = (void *)d;
  return r;
}

static int cudaMemFree(void *p) { return cu.memFree((CUdeviceptr)p); }
static int cudaMemcpyAsync(void *dst, const void *src, size_t n, void *s) {
  return cu.memcpyAsync((CUdeviceptr)dst, (CUdeviceptr)src, n, s);
}
static int cudaMemset32Async(void *dst, uint32_t v, size_t n, void *s) {
  return cu.memsetD32Async((CUdeviceptr)dst, v, n, s);
}
static int cudaMemset16Async(void *dst, uint16_t v, size_t n, void *s) {
  return cu.memsetD16Async((CUdeviceptr)dst, v, n, s);
}

static bool cudaIsDriverMemory(void *p) {
  CUcontext owner = NULL;
  return cu.pointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)p) == 0 &&
         owner;
}

static int cudaHostRegister(void *p, size_t bytes) { return cu.memHostRegister(p, bytes, 0); }
static int cudaHostUnregister(void *p) { return cu.memHostUnregister(p); }

static int cudaTensorMapEncodeTiled(void *map, int type, uint32_t rank, void *address,
                                    const uint64_t *dims, const uint64_t *strides,
                                    const uint32_t *box, int interleave, int swizzle,
                                    int l2Promotion, int oobFill) {
  static const uint32_t kUnit[5] = {1, 1, 1, 1, 1};
  if (!cu.tensorMapEncodeTiled)
    return FA_RT_UNSUPPORTED;
  return cu.tensorMapEncodeTiled(map, type, rank, address, dims, strides, box, kUnit,
                                 interleave, swizzle, l2Promotion, oobFill);
}

static int cudaMultiprocessorCount(int *count) {
  return cu.deviceGetAttribute(count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, gCuDevice);
}

static const FaRtDriver kCuda = {
    "cuda", CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, cudaOpen, cudaBindThread, cudaErrorName,
    cudaModuleLoad, cudaModuleUnload, cudaModuleGetFunction, cudaLaunch, cudaStreamCreate, cudaStreamDestroy,
    cudaStreamSynchronize, cudaStreamWaitEvent, cudaEventCreate, cudaEventDestroy,
    cudaEventRecord, cudaEventSynchronize, cudaEventElapsedMs, cudaMemAlloc, cudaMemFree,
    cudaMemcpyAsync, cudaMemset32Async, cudaMemset16Async, cudaIsDriverMemory,
    cudaHostRegister, cudaHostUnregister, cudaTensorMapEncodeTiled, cudaLaunchCluster,
    cudaMultiprocessorCount};

const FaRtDriver *faRtGetDriver(void) { return &kCuda; }
