/* MLIR's GPU runtime ABI (the mgpu* functions gpu-to-llvm's host code and the
 * gpu.binary translation call), implemented once over an FaRtDriver. The ABI
 * returns no status: failures are printed and recorded (fa-c/Runtime.h), and
 * after one the runtime launches nothing and allocations return zeroed host
 * memory (also when the allocation itself failed), so host code goes on
 * safely to its end. */
#include "Driver.h"
#include "Profile.h"
#include "RuntimeSupport.h"

#include "fa-c/Runtime.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static int gDevice;
static pthread_once_t gOnce = PTHREAD_ONCE_INIT;
static bool gOpen;

static void openOnce(void) {
  const char *env = getenv("FA_GPU_DEVICE");
  if (env)
    gDevice = atoi(env);
  gOpen = faRtGetDriver()->open(gDevice);
}

/* Opens the driver (once) and binds this thread; false if unusable. */
static bool ready(void) {
  pthread_once(&gOnce, openOnce);
  if (!gOpen)
    return false;
  int r = faRtGetDriver()->bindThread();
  if (r)
    faRtFail(r, "cannot make the GPU context current: %s", faRtGetDriver()->errorName(r));
  return r == 0;
}

/* Records a failed driver call; true if `status` is a failure. */
static bool failed(int status, const char *what) {
  if (status)
    faRtFail(status, "%s failed: %s (%d)", what, faRtGetDriver()->errorName(status), status);
  return status != 0;
}

/* The same for a call the driver may not have: FA_RT_UNSUPPORTED is
 * recorded as "the DRIVER `unsupported`". */
static bool failedOptional(int status, const char *what, const char *unsupported) {
  if (status == FA_RT_UNSUPPORTED) {
    faRtFail(status, "the %s %s", faRtGetDriver()->name, unsupported);
    return true;
  }
  return failed(status, what);
}

FA_RT_EXPORT const char *faRuntimeGetBackendName(void) { return faRtGetDriver()->name; }

FA_RT_EXPORT void mgpuSetDefaultDevice(int32_t device) { gDevice = device; }

static void *loadModule(void *data, size_t size, bool jit, int optLevel) {
  if (!ready())
    return NULL;
  void *module = NULL;
  char log[4096] = "";
  int r = faRtGetDriver()->moduleLoad(&module, data, size, jit, optLevel, log, sizeof log);
  if (r) {
    faRtFail(r, "loading a GPU module failed: %s (%d)%s%s", faRtGetDriver()->errorName(r), r,
             log[0] ? "\n" : "", log);
    return NULL;
  }
  return module;
}

FA_RT_EXPORT void *mgpuModuleLoad(void *data, size_t size) {
  return loadModule(data, size, false, 0);
}

FA_RT_EXPORT void *mgpuModuleLoadJIT(void *data, int optLevel) {
  return loadModule(data, 0, true, optLevel);
}

FA_RT_EXPORT void mgpuModuleUnload(void *module) {
  /* Runs from library destructors, possibly after the driver shut down at
   * exit: nothing to report then. */
  if (module && gOpen && faRtGetDriver()->bindThread() == 0)
    faRtGetDriver()->moduleUnload(module);
}

FA_RT_EXPORT void *mgpuModuleGetFunction(void *module, const char *name) {
  if (!module || !ready())
    return NULL;
  void *f = NULL;
  if (faRtGetDriver()->moduleGetFunction(&f, module, name)) {
    faRtFail(-1, "the GPU module has no kernel '%s'", name);
    return NULL;
  }
  faRtProfileNameFunction(f, name);
  return f;
}

/* Whether a launch of `function` may go ahead: no failure recorded (that
 * one is already reported), a driver, a loaded kernel. */
static bool launchable(void *function) {
  if (faRtFailed() || !ready())
    return false;
  if (!function)
    faRtFail(-1, "launch of a kernel that was not loaded");
  return function != NULL;
}

FA_RT_EXPORT void mgpuLaunchKernel(void *function, intptr_t gx, intptr_t gy, intptr_t gz,
                                   intptr_t bx, intptr_t by, intptr_t bz, int32_t smem,
                                   void *stream, void **params, void **extra,
                                   size_t paramsCount) {
  if (!launchable(function))
    return;
  int slot = faRtProfileBegin(faRtGetDriver(), function, stream);
  failed(faRtGetDriver()->launch(function, gx, gy, gz, bx, by, bz, smem, stream, params, extra),
         "kernel launch");
  faRtProfileEnd(faRtGetDriver(), slot, stream);
}

/* MLIR's ABI for gpu.launch_func with clusters (sm_90 thread block
 * clusters of cx x cy x cz blocks). */
FA_RT_EXPORT void mgpuLaunchClusterKernel(void *function, intptr_t cx, intptr_t cy, intptr_t cz,
                                          intptr_t gx, intptr_t gy, intptr_t gz, intptr_t bx,
                                          intptr_t by, intptr_t bz, int32_t smem, void *stream,
                                          void **params, void **extra) {
  if (!launchable(function))
    return;
  int r = faRtGetDriver()->launchCluster(function, cx, cy, cz, gx, gy, gz, bx, by, bz, smem,
                                         stream, params, extra);
  failedOptional(r, "cluster kernel launch",
                 "driver has no cuLaunchKernelEx: thread block clusters need an NVIDIA driver "
                 "for CUDA 12 or newer");
}

FA_RT_EXPORT int32_t faRuntimeGetMultiprocessorCount(void) {
  /* Of the device the runtime opened; 0 until known (a failed query is
   * asked again, and recorded, on the next call). */
  static _Atomic int cached;
  if (cached > 0 || !ready())
    return cached > 0 ? cached : 1;
  int count = 0;
  int r = faRtGetDriver()->multiprocessorCount(&count);
  if (!failedOptional(r, "asking the device's multiprocessor count",
                      "runtime does not count the device's multiprocessors")) {
    if (count < 1)
      faRtFail(-1, "the device reports %d multiprocessors", count);
    else
      cached = count;
  }
  return cached > 0 ? cached : 1;
}

/* A caller's stream that generated host code uses instead of its own
 * (fa-bench: device events around the calls). */
static void *gStream;

FA_RT_EXPORT void faRuntimeSetStream(void *stream) { gStream = stream; }

/* Whether generated host code skips waiting for the caller's stream. */
static bool gAsync;

FA_RT_EXPORT void faRuntimeSetLaunchesAsync(bool async) { gAsync = async; }

FA_RT_EXPORT void *mgpuStreamCreate(void) {
  void *s = NULL;
  if (gStream)
    return gStream;
  if (ready())
    failed(faRtGetDriver()->streamCreate(&s), "creating a stream");
  return s;
}

FA_RT_EXPORT void mgpuStreamDestroy(void *stream) {
  if (stream && stream != gStream && ready())
    failed(faRtGetDriver()->streamDestroy(stream), "destroying a stream");
}

FA_RT_EXPORT void mgpuStreamSynchronize(void *stream) {
  if (gAsync && stream && stream == gStream)
    return; /* the caller synchronizes its own stream */
  if (stream && ready())
    failed(faRtGetDriver()->streamSynchronize(stream), "a kernel (stream synchronize)");
}

FA_RT_EXPORT void mgpuStreamWaitEvent(void *stream, void *event) {
  if (stream && event && ready())
    failed(faRtGetDriver()->streamWaitEvent(stream, event), "stream wait");
}

FA_RT_EXPORT void *mgpuEventCreate(void) {
  void *e = NULL;
  if (ready())
    failed(faRtGetDriver()->eventCreate(&e), "creating an event");
  return e;
}

FA_RT_EXPORT void mgpuEventDestroy(void *event) {
  if (event && ready())
    failed(faRtGetDriver()->eventDestroy(event), "destroying an event");
}

FA_RT_EXPORT void mgpuEventSynchronize(void *event) {
  if (event && ready())
    failed(faRtGetDriver()->eventSynchronize(event), "event synchronize");
}

FA_RT_EXPORT void mgpuEventRecord(void *event, void *stream) {
  if (event && ready())
    failed(faRtGetDriver()->eventRecord(event, stream), "event record");
}

FA_RT_EXPORT float faRuntimeEventElapsedMs(void *start, void *end) {
  float ms = -1;
  if (start && end && ready() &&
      failed(faRtGetDriver()->eventElapsedMs(&ms, start, end), "event elapsed time"))
    ms = -1;
  return ms;
}

/* Host memory handed out when the device has none, so host code goes on
 * safely after the failure has been recorded. */
#define FA_RT_MAX_FALLBACK 1024
static void *gFallback[FA_RT_MAX_FALLBACK];
static pthread_mutex_t gFallbackLock = PTHREAD_MUTEX_INITIALIZER;

static void *fallbackAlloc(size_t bytes) {
  void *p = calloc(1, bytes ? bytes : 1);
  if (!p) {
    faRtFail(-1, "no host memory for a %llu-byte stand-in buffer either",
             (unsigned long long)bytes);
    return NULL;
  }
  pthread_mutex_lock(&gFallbackLock);
  for (int i = 0; i < FA_RT_MAX_FALLBACK; ++i)
    if (!gFallback[i]) {
      gFallback[i] = p;
      break;
    }
  pthread_mutex_unlock(&gFallbackLock);
  return p;
}

static bool fallbackFree(void *p) {
  bool found = false;
  pthread_mutex_lock(&gFallbackLock);
  for (int i = 0; i < FA_RT_MAX_FALLBACK && !found; ++i)
    if (gFallback[i] == p) {
      gFallback[i] = NULL;
      found = true;
    }
  pthread_mutex_unlock(&gFallbackLock);
  if (found)
    free(p);
  return found;
}

/* Device (not managed) memory is scratch space of generated host code (the
 * attention kernels' split-over-keys workspace), allocated and freed around
 * every call: the last block freed is kept and handed out again to the next
 * device allocation it can hold, instead of a cuMemFree (which waits for the
 * device) and a cuMemAlloc per call. Reuse is safe in stream order: host code
 * frees a block after enqueueing its last use, and later launches come after
 * it on the same stream, or after a synchronization. */
#define FA_RT_MAX_DEVICE_BLOCKS 64
typedef struct {
  void *ptr;
  uint64_t bytes;
} DeviceBlock;
static DeviceBlock gDeviceBlocks[FA_RT_MAX_DEVICE_BLOCKS]; /* handed out */
static DeviceBlock gIdle;                                  /* kept for reuse */
static pthread_mutex_t gDeviceLock = PTHREAD_MUTEX_INITIALIZER;

/* Records a device block handed out; false if the table is full (the block
 * is then freed as any other when it comes back). */
static bool deviceBlockAdd(void *p, uint64_t bytes) {
  for (int i = 0; i < FA_RT_MAX_DEVICE_BLOCKS; ++i)
    if (!gDeviceBlocks[i].ptr) {
      gDeviceBlocks[i] = (DeviceBlock){p, bytes};
      return true;
    }
  return false;
}

/* The idle block if it holds `bytes` (NULL otherwise), handed out. */
static void *deviceBlockReuse(uint64_t bytes) {
  void *p = NULL;
  pthread_mutex_lock(&gDeviceLock);
  if (gIdle.ptr && gIdle.bytes >= bytes && deviceBlockAdd(gIdle.ptr, gIdle.bytes)) {
    p = gIdle.ptr;
    gIdle = (DeviceBlock){NULL, 0};
  }
  pthread_mutex_unlock(&gDeviceLock);
  return p;
}

/* Takes back a device block handed out: it becomes the idle block, and the
 * block to free (the previous idle one, or this one if smaller) is returned.
 * `*known` is false for memory this table never handed out. */
static void *deviceBlockRelease(void *p, bool *known) {
  void *drop = p;
  *known = false;
  pthread_mutex_lock(&gDeviceLock);
  for (int i = 0; i < FA_RT_MAX_DEVICE_BLOCKS && !*known; ++i)
    if (gDeviceBlocks[i].ptr == p) {
      *known = true;
      DeviceBlock b = gDeviceBlocks[i];
      gDeviceBlocks[i] = (DeviceBlock){NULL, 0};
      if (b.bytes >= gIdle.bytes) {
        drop = gIdle.ptr;
        gIdle = b;
      }
    }
  pthread_mutex_unlock(&gDeviceLock);
  return drop;
}

FA_RT_EXPORT void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared) {
  if (bytes == 0)
    return NULL;
  void *p = NULL;
  if (faRtFailed() || !ready())
    return fallbackAlloc(bytes);
  if (!hostShared && (p = deviceBlockReuse(bytes)))
    return p;
  int r = faRtGetDriver()->memAlloc(&p, bytes, hostShared);
  if (r) {
    faRtFail(r, "allocating %llu bytes of %s memory failed: %s (%d)", (unsigned long long)bytes,
             hostShared ? "managed" : "device", faRtGetDriver()->errorName(r), r);
    return fallbackAlloc(bytes);
  }
  if (!hostShared) {
    pthread_mutex_lock(&gDeviceLock);
    deviceBlockAdd(p, bytes);
    pthread_mutex_unlock(&gDeviceLock);
  }
  return p;
}

FA_RT_EXPORT void mgpuMemFree(void *ptr, void *stream) {
  if (!ptr || fallbackFree(ptr) || !ready())
    return;
  bool known;
  void *drop = deviceBlockRelease(ptr, &known);
  if (!drop)
    return; /* kept as the idle block */
  if (stream)
    failed(faRtGetDriver()->streamSynchronize(stream), "a kernel (stream synchronize)");
  else if (known && gStream)
    failed(faRtGetDriver()->streamSynchronize(gStream), "a kernel (stream synchronize)");
  failed(faRtGetDriver()->memFree(drop), "freeing GPU memory");
}

FA_RT_EXPORT void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream) {
  if (bytes && ready())
    failed(faRtGetDriver()->memcpyAsync(dst, src, bytes, stream), "memcpy");
}

FA_RT_EXPORT void mgpuMemset32(void *dst, unsigned value, size_t count, void *stream) {
  if (count && ready())
    failed(faRtGetDriver()->memset32Async(dst, value, count, stream), "memset32");
}

FA_RT_EXPORT void mgpuMemset16(void *dst, unsigned short value, size_t count, void *stream) {
  if (count && ready())
    failed(faRtGetDriver()->memset16Async(dst, value, count, stream), "memset16");
}

/* Host memory this runtime registered, with how many registrations are
 * open: generated code registers its memref arguments on entry and
 * unregisters them on return, and only what was registered here is
 * unregistered (never a caller's own registration). A registration must end
 * before the memory is freed: the allocator may hand the range out again. */
#define FA_RT_MAX_REGISTERED 256
static struct {
  void *ptr;
  int count;
} gRegistered[FA_RT_MAX_REGISTERED];
static pthread_mutex_t gRegisteredLock = PTHREAD_MUTEX_INITIALIZER;

/* The slot of `ptr` (NULL: a free slot), or -1. Caller holds the lock. */
static int registeredSlot(void *ptr) {
  for (int i = 0; i < FA_RT_MAX_REGISTERED; ++i)
    if (gRegistered[i].ptr == ptr)
      return i;
  return -1;
}

FA_RT_EXPORT void mgpuMemHostRegister(void *ptr, uint64_t bytes) {
  if (!ptr || !bytes || !ready())
    return;
  pthread_mutex_lock(&gRegisteredLock);
  int slot = registeredSlot(ptr);
  const FaRtDriver *driver = faRtGetDriver();
  if (slot >= 0) {
    ++gRegistered[slot].count;
  } else if (!driver->isDriverMemory(ptr)) { /* driver memory needs no registration */
    int r = driver->hostRegister(ptr, bytes);
    /* Memory registered before (by the caller) stays the caller's. */
    if (r == 0 && (slot = registeredSlot(NULL)) >= 0) {
      gRegistered[slot].ptr = ptr;
      gRegistered[slot].count = 1;
    }
    failed(r == driver->alreadyRegistered ? 0 : r, "registering host memory");
  }
  pthread_mutex_unlock(&gRegisteredLock);
}

FA_RT_EXPORT void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                            int64_t elementSize) {
  void *begin;
  size_t bytes;
  faRtMemRefRange(rank, descriptor, elementSize, &begin, &bytes);
  mgpuMemHostRegister(begin, bytes);
}

FA_RT_EXPORT void mgpuMemHostUnregister(void *ptr) {
  if (!ptr || !gOpen)
    return;
  pthread_mutex_lock(&gRegisteredLock);
  int slot = registeredSlot(ptr);
  if (slot >= 0 && --gRegistered[slot].count == 0) {
    gRegistered[slot].ptr = NULL;
    if (ready())
      failed(faRtGetDriver()->hostUnregister(ptr), "unregistering host memory");
  }
  pthread_mutex_unlock(&gRegisteredLock);
}

FA_RT_EXPORT void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                              int64_t elementSize) {
  void *begin;
  size_t bytes;
  faRtMemRefRange(rank, descriptor, elementSize, &begin, &bytes);
  mgpuMemHostUnregister(begin);
}

/* --- tensor maps (TMA) ------------------------------------------------------ */

/* Bytes per element of each CUtensorMapDataType, in the enum's order (uint8,
 * uint16, uint32, int32, uint64, int64, f16, f32, f64, bf16, f32 ftz, tf32,
 * tf32 ftz). */
static const int kTensorMapElementBytes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};

/* What cuTensorMapEncodeTiled is asked (zero-padded, compared bytewise). */
typedef struct {
  const void *address;
  uint64_t dims[5], byteStrides[5];
  uint32_t box[5];
  int32_t dataType, rank, interleave, swizzle, l2Promotion, oobFill;
} TensorMapKey;

/* Encoded maps in device memory, each with what it was encoded from, so a
 * repeated request (host code encodes the same tensors' maps on every call)
 * shares the copy and skips the driver: MAX slots reused round robin. */
#define FA_RT_MAX_TENSOR_MAPS 64
typedef struct {
  TensorMapKey key;
  void *device;
} TensorMapSlot;
static TensorMapSlot gTensorMaps[FA_RT_MAX_TENSOR_MAPS];
static int gTensorMapNext;
static pthread_mutex_t gTensorMapLock = PTHREAD_MUTEX_INITIALIZER;

/* The device copy of the map encoded from `key`, if a slot holds it. */
static void *tensorMapLookup(const TensorMapKey *key) {
  void *device = NULL;
  pthread_mutex_lock(&gTensorMapLock);
  for (int i = 0; i < FA_RT_MAX_TENSOR_MAPS && !device; ++i)
    if (gTensorMaps[i].device && memcmp(&gTensorMaps[i].key, key, sizeof *key) == 0)
      device = gTensorMaps[i].device;
  pthread_mutex_unlock(&gTensorMapLock);
  return device;
}

/* The device copy of `map` (encoded from `key`): a slot (re)filled with it. */
static void *tensorMapToDevice(const unsigned char map[128], const TensorMapKey *key) {
  void *device = NULL;
  pthread_mutex_lock(&gTensorMapLock);
  TensorMapSlot *slot = &gTensorMaps[gTensorMapNext];
  if (slot->device) /* a kernel in flight may still read the old map */
    failed(faRtGetDriver()->streamSynchronize(gStream), "a kernel (stream synchronize)");
  else if (failed(faRtGetDriver()->memAlloc(&slot->device, 128, false),
                  "allocating a tensor map"))
    slot->device = NULL;
  if (slot->device &&
      !failed(faRtGetDriver()->memcpyAsync(slot->device, map, 128, gStream),
              "copying a tensor map")) {
    slot->key = *key;
    device = slot->device;
    gTensorMapNext = (gTensorMapNext + 1) % FA_RT_MAX_TENSOR_MAPS;
  }
  pthread_mutex_unlock(&gTensorMapLock);
  return device;
}

/* MLIR's ABI for nvgpu.tma.create.descriptor: the tiled tensor map of the
 * memref `descriptor` (rank 1 to 5; {allocated, aligned, offset, sizes,
 * strides}, outermost first, as `boxDims`), in device memory for kernels to
 * read; NULL after a recorded failure (no TMA in the driver, a bad shape). */
FA_RT_EXPORT void *mgpuTensorMapEncodeTiledMemref(int64_t rank, void *descriptor,
                                                  int64_t dataType, int64_t interleave,
                                                  int64_t swizzle, int64_t l2Promotion,
                                                  int64_t oobFill, int64_t *boxDims) {
  const int64_t numTypes = sizeof kTensorMapElementBytes / sizeof kTensorMapElementBytes[0];
  if (rank < 1 || rank > 5 || dataType < 0 || dataType >= numTypes) {
    faRtFail(-1, "a tensor map of rank %lld and data type %lld: TMA takes ranks 1 to 5 "
             "and types 0 to %lld", (long long)rank, (long long)dataType,
             (long long)numTypes - 1);
    return NULL;
  }
  if (faRtFailed() || !ready())
    return NULL;
  const char *d = descriptor;
  char *aligned;
  memcpy(&aligned, d + sizeof(void *), sizeof aligned);
  const int64_t *words = (const int64_t *)(d + 2 * sizeof(void *));
  const int64_t offset = words[0], *sizes = words + 1, *strides = words + 1 + rank;
  const int bytes = kTensorMapElementBytes[dataType];
  TensorMapKey key;
  memset(&key, 0, sizeof key);
  key.address = aligned + offset * bytes;
  key.dataType = (int32_t)dataType, key.rank = (int32_t)rank;
  key.interleave = (int32_t)interleave, key.swizzle = (int32_t)swizzle;
  key.l2Promotion = (int32_t)l2Promotion, key.oobFill = (int32_t)oobFill;
  for (int64_t i = 0; i < rank; ++i) { /* innermost first */
    key.dims[i] = (uint64_t)sizes[rank - 1 - i];
    key.box[i] = (uint32_t)boxDims[rank - 1 - i];
    if (i + 1 < rank)
      key.byteStrides[i] = (uint64_t)strides[rank - 2 - i] * (uint64_t)bytes;
  }
  void *cached = tensorMapLookup(&key);
  if (cached)
    return cached;
  unsigned char map[128] __attribute__((aligned(64))) = {0};
  int r = faRtGetDriver()->tensorMapEncodeTiled(
      map, (int)dataType, (uint32_t)rank, (void *)key.address, key.dims, key.byteStrides,
      key.box, (int)interleave, (int)swizzle, (int)l2Promotion, (int)oobFill);
  if (failedOptional(r, "encoding a tensor map (cuTensorMapEncodeTiled)",
                     "driver has no cuTensorMapEncodeTiled: tensor maps (TMA) need an "
                     "NVIDIA driver for CUDA 12 or newer"))
    return NULL;
  return tensorMapToDevice(map, &key);
}
