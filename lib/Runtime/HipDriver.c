/* HIP (libamdhip64.so, opened with dlopen) as an FaRtDriver: what an AMD GPU
 * needs to run fa-to-rocdl code objects with only the ROCm runtime present. */
#include "Driver.h"
#include "RuntimeSupport.h"

typedef int hipError_t;

enum {
  hipStreamNonBlocking = 1,
  hipMemAttachGlobal = 1,
  hipMemcpyDefault = 4,
  HIP_POINTER_ATTRIBUTE_CONTEXT = 1,
  hipErrorHostMemoryAlreadyRegistered = 1061,
};

static struct {
  hipError_t (*init)(unsigned);
  hipError_t (*getDeviceCount)(int *);
  hipError_t (*setDevice)(int);
  const char *(*getErrorName)(hipError_t);
  hipError_t (*moduleLoadData)(void **, const void *);
  hipError_t (*moduleUnload)(void *);
  hipError_t (*moduleGetFunction)(void **, void *, const char *);
  hipError_t (*moduleLaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned,
                                   unsigned, unsigned, void *, void **, void **);
  hipError_t (*streamCreateWithFlags)(void **, unsigned);
  hipError_t (*streamDestroy)(void *);
  hipError_t (*streamSynchronize)(void *);
  hipError_t (*streamWaitEvent)(void *, void *, unsigned);
  hipError_t (*eventCreate)(void **);
  hipError_t (*eventDestroy)(void *);
  hipError_t (*eventRecord)(void *, void *);
  hipError_t (*eventSynchronize)(void *);
  hipError_t (*eventElapsedTime)(float *, void *, void *);
  hipError_t (*malloc)(void **, size_t);
  hipError_t (*mallocManaged)(void **, size_t, unsigned);
  hipError_t (*free)(void *);
  hipError_t (*memcpyAsync)(void *, const void *, size_t, int, void *);
  hipError_t (*memsetD32Async)(void *, int, size_t, void *);
  hipError_t (*memsetD16Async)(void *, unsigned short, size_t, void *);
  hipError_t (*hostRegister)(void *, size_t, unsigned);
  hipError_t (*hostUnregister)(void *);
  hipError_t (*pointerGetAttribute)(void *, int, void *);
} hip;

static int gDevice;

static bool hipOpen(int device) {
  static const char *const kLibs[] = {"libamdhip64.so", "libamdhip64.so.6",
                                      "libamdhip64.so.5", NULL};
  const FaRtSymbol syms[] = {
      {"hipInit", (void **)&hip.init},
      {"hipGetDeviceCount", (void **)&hip.getDeviceCount},
      {"hipSetDevice", (void **)&hip.setDevice},
      {"hipGetErrorName", (void **)&hip.getErrorName},
      {"hipModuleLoadData", (void **)&hip.moduleLoadData},
      {"hipModuleUnload", (void **)&hip.moduleUnload},
      {"hipModuleGetFunction", (void **)&hip.moduleGetFunction},
      {"hipModuleLaunchKernel", (void **)&hip.moduleLaunchKernel},
      {"hipStreamCreateWithFlags", (void **)&hip.streamCreateWithFlags},
      {"hipStreamDestroy", (void **)&hip.streamDestroy},
      {"hipStreamSynchronize", (void **)&hip.streamSynchronize},
      {"hipStreamWaitEvent", (void **)&hip.streamWaitEvent},
      {"hipEventCreate", (void **)&hip.eventCreate},
      {"hipEventDestroy", (void **)&hip.eventDestroy},
      {"hipEventRecord", (void **)&hip.eventRecord},
      {"hipEventSynchronize", (void **)&hip.eventSynchronize},
      {"hipEventElapsedTime", (void **)&hip.eventElapsedTime},
      {"hipMalloc", (void **)&hip.malloc},
      {"hipMallocManaged", (void **)&hip.mallocManaged},
      {"hipFree", (void **)&hip.free},
      {"hipMemcpyAsync", (void **)&hip.memcpyAsync},
      {"hipMemsetD32Async", (void **)&hip.memsetD32Async},
      {"hipMemsetD16Async", (void **)&hip.memsetD16Async},
      {"hipHostRegister", (void **)&hip.hostRegister},
      {"hipHostUnregister", (void **)&hip.hostUnregister},
      {"hipPointerGetAttribute", (void **)&hip.pointerGetAttribute},
  };
  if (!faRtOpenDriver(kLibs, syms, sizeof syms / sizeof syms[0]))
    return false;
  int count = 0;
  hipError_t r = hip.init(0);
  if (r == 0)
    r = hip.getDeviceCount(&count);
  if (r || count == 0) {
    faRtFail(r ? r : -1, "no HIP device found (status %d)", r);
    return false;
  }
  if (device < 0 || device >= count) {
    faRtFail(-1, "HIP device %d requested, %d present", device, count);
    return false;
  }
  gDevice = device;
  return true;
}

static int hipBindThread(void) { return hip.setDevice(gDevice); }
static const char *hipErrorName(int s) {
  const char *n = hip.getErrorName ? hip.getErrorName(s) : NULL;
  return n ? n : "unknown HIP error";
}
static int hipModuleLoad(void **m, const void *data, size_t size, bool jit, int optLevel,
                         char *log, size_t logSize) {
  return hip.moduleLoadData(m, data);
}
static int hipModuleUnloadFn(void *m) { return hip.moduleUnload(m); }
static int hipModuleGetFunctionFn(void **f, void *m, const char *n) {
  return hip.moduleGetFunction(f, m, n);
}
static int hipLaunch(void *f, intptr_t gx, intptr_t gy, intptr_t gz, intptr_t bx, intptr_t by,
                     intptr_t bz, int32_t smem, void *s, void **params, void **extra) {
  return hip.moduleLaunchKernel(f, (unsigned)gx, (unsigned)gy, (unsigned)gz, (unsigned)bx,
                                (unsigned)by, (unsigned)bz, (unsigned)smem, s, params, extra);
}
static int hipStreamCreateFn(void **s) { return hip.streamCreateWithFlags(s, hipStreamNonBlocking); }
static int hipStreamDestroyFn(void *s) { return hip.streamDestroy(s); }
static int hipStreamSynchronizeFn(void *s) { return hip.streamSynchronize(s); }
static int hipStreamWaitEventFn(void *s, void *e) { return hip.streamWaitEvent(s, e, 0); }
static int hipEventCreateFn(void **e) { return hip.eventCreate(e); }
static int hipEventDestroyFn(void *e) { return hip.eventDestroy(e); }
static int hipEventRecordFn(void *e, void *s) { return hip.eventRecord(e, s); }
static int hipEventSynchronizeFn(void *e) { return hip.eventSynchronize(e); }
static int hipEventElapsedMs(float *ms, void *a, void *b) { return hip.eventElapsedTime(ms, a, b); }
static int hipMemAlloc(void **p, size_t n, bool shared) {
  return shared ? hip.mallocManaged(p, n, hipMemAttachGlobal) : hip.malloc(p, n);
}
static int hipMemFree(void *p) { return hip.free(p); }
static int hipMemcpyAsyncFn(void *d, const void *s, size_t n, void *st) {
  return hip.memcpyAsync(d, s, n, hipMemcpyDefault, st);
}
static int hipMemset32Async(void *d, uint32_t v, size_t n, void *s) {
  return hip.memsetD32Async(d, (int)v, n, s);
}
static int hipMemset16Async(void *d, uint16_t v, size_t n, void *s) {
  return hip.memsetD16Async(d, v, n, s);
}
static bool hipIsDriverMemory(void *p) {
  void *owner = NULL;
  return hip.pointerGetAttribute(&owner, HIP_POINTER_ATTRIBUTE_CONTEXT, p) == 0 && owner;
}

static int hipHostRegisterFn(void *p, size_t n) { return hip.hostRegister(p, n, 0); }
static int hipHostUnregisterFn(void *p) { return hip.hostUnregister(p); }

/* HIP has no tensor memory accelerator. */
static int hipTensorMapEncodeTiled(void *map, int type, uint32_t rank, void *address,
                                   const uint64_t *dims, const uint64_t *strides,
                                   const uint32_t *box, int interleave, int swizzle,
                                   int l2Promotion, int oobFill) {
  (void)map, (void)type, (void)rank, (void)address, (void)dims, (void)strides, (void)box;
  (void)interleave, (void)swizzle, (void)l2Promotion, (void)oobFill;
  return FA_RT_UNSUPPORTED;
}

static int hipLaunchCluster(void *f, intptr_t cx, intptr_t cy, intptr_t cz, intptr_t gx,
                            intptr_t gy, intptr_t gz, intptr_t bx, intptr_t by, intptr_t bz,
                            int32_t smem, void *s, void **params, void **extra) {
  (void)f, (void)cx, (void)cy, (void)cz, (void)gx, (void)gy, (void)gz, (void)bx, (void)by;
  (void)bz, (void)smem, (void)s, (void)params, (void)extra;
  return FA_RT_UNSUPPORTED;
}

static int hipMultiprocessorCount(int *count) {
  (void)count;
  return FA_RT_UNSUPPORTED;
}

static const FaRtDriver kHip = {
    "hip", hipErrorHostMemoryAlreadyRegistered, hipOpen, hipBindThread, hipErrorName,
    hipModuleLoad, hipModuleUnloadFn, hipModuleGetFunctionFn, hipLaunch, hipStreamCreateFn,
    hipStreamDestroyFn, hipStreamSynchronizeFn, hipStreamWaitEventFn, hipEventCreateFn, hipEventDestroyFn,
    hipEventRecordFn, hipEventSynchronizeFn, hipEventElapsedMs, hipMemAlloc, hipMemFree,
    hipMemcpyAsyncFn, hipMemset32Async, hipMemset16Async, hipIsDriverMemory,
    hipHostRegisterFn, hipHostUnregisterFn, hipTensorMapEncodeTiled, hipLaunchCluster,
    hipMultiprocessorCount};

const FaRtDriver *faRtGetDriver(void) { return &kHip; }
