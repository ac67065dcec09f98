/* The runtime's failure modes through MLIR's mgpu* ABI, as generated host
 * code calls it: each scenario prints the recorded status and message and
 * what the runtime does next. Here both runtimes (CUDA and HIP) run over a
 * test double of the driver (Inputs/fake-gpu-driver.c, loaded through
 * FA_RUNTIME_DRIVER); GPU/runtime-errors.test runs the same program on a real
 * GPU.
 *
 * Exit status 0: the scenario went as a test expects it to (run, register:
 * no failure; sms: either, the checks read it; every other scenario: a
 * failure was recorded).
 *
 * No driver library, a driver without an entry point, no device, a device
 * that is not there:
// RUN: env FA_RUNTIME_DRIVER=%t.nowhere/libcuda.so.1 fa-rt-errors-cuda open 2>&1 | FileCheck %s --check-prefix=NODRIVER
// NODRIVER: fa-runtime (cuda): error: cannot load the GPU driver library {{.*}}nowhere/libcuda.so.1
// NODRIVER: open: status -1: cannot load the GPU driver library
// NODRIVER: then: stand-in buffer zeroed, launch skipped
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu_old fa-rt-errors-cuda open 2>&1 | FileCheck %s --check-prefix=OLD
// OLD: open: status -1: {{.*}}fake-gpu-driver-old.so has no symbol cuMemHostRegister_v2 (driver too old?)
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu FAKE_GPU_DEVICES=0 fa-rt-errors-cuda open 2>&1 | FileCheck %s --check-prefix=NODEV
// NODEV: open: status -1: no CUDA device found
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu FAKE_GPU_FAIL=cuInit:100 fa-rt-errors-cuda open 2>&1 | FileCheck %s --check-prefix=INIT
// INIT: open: status 100: cuInit failed (100): no usable NVIDIA driver or GPU
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu FA_GPU_DEVICE=3 fa-rt-errors-cuda open 2>&1 | FileCheck %s --check-prefix=BADDEV
// BADDEV: open: status -1: CUDA device 3 requested, 1 present
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu FAKE_GPU_DEVICES=2 FA_GPU_DEVICE=3 fa-rt-errors-hip open 2>&1 | FileCheck %s --check-prefix=HIPBADDEV
// HIPBADDEV: open: status -1: HIP device 3 requested, 2 present
 *
 * Success: the launch reaches the driver with its geometry; nothing failed.
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu fa-rt-errors-cuda run %S/Inputs/kernels.ptx 2>&1 | FileCheck %s --check-prefix=OK
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu fa-rt-errors-hip run %S/Inputs/kernels.ptx 2>&1 | FileCheck %s --check-prefix=OK
// OK-NOT: error
// OK: fake-gpu: {{cuLaunchKernel|hipModuleLaunchKernel}} grid (1,1,1) block (256,1,1) smem 0
// OK: run: status 0
// OK-NOT: fa-rt profile
 *
 * Per-kernel device time (FA_RT_PROFILE=1, lib/Runtime/Profile.c): each
 * launch between two events, summed per kernel and printed at exit (the
 * double's events are 1.5 ms apart).
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu FA_RT_PROFILE=1 fa-rt-errors-cuda run %S/Inputs/kernels.ptx 2>&1 | FileCheck %s --check-prefix=PROFILE
// PROFILE-DAG: run: status 0
// PROFILE-DAG: fa-rt profile: fa_test_fill{{ +}}1 launches, mean{{ +}}1500.00 us
 *
 * Host registration: nested registrations of one buffer reach the driver
 * once; memory registered before (by the caller) is never unregistered here.
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu fa-rt-errors-cuda register 2>&1 | FileCheck %s --check-prefix=REG
// REG: fake-gpu: cuMemHostRegister_v2 64 bytes
// REG-NOT: fake-gpu: cuMemHost
// REG: register: nested
// REG-NEXT: fake-gpu: cuMemHostUnregister
// REG-NEXT: register: status 0
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu FAKE_GPU_FAIL=cuMemHostRegister_v2:712 fa-rt-errors-cuda register 2>&1 | FileCheck %s --check-prefix=PREREG
// PREREG-NOT: fake-gpu: cuMemHostUnregister
// PREREG: register: status 0
 *
 * Device scratch memory (the split-over-keys workspace host code allocates and
 * frees around every call): the last block freed is kept and handed out again
 * to an allocation it holds; a larger one replaces it (the smaller is freed);
 * managed memory is never kept.
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu fa-rt-errors-cuda scratch 2>&1 | FileCheck %s --check-prefix=SCRATCH
// SCRATCH: fake-gpu: cuMemAlloc_v2 1024 bytes
// SCRATCH-NOT: fake-gpu: cuMem
// SCRATCH: scratch: reused yes
// SCRATCH-NEXT: fake-gpu: cuMemAlloc_v2 4096 bytes
// SCRATCH-NEXT: scratch: larger block new
// SCRATCH-NEXT: fake-gpu: cuMemFree_v2
// SCRATCH-NEXT: fake-gpu: cuMemFree_v2
// SCRATCH-NEXT: scratch: status 0
 *
 * Tensor maps (TMA, nvgpu.tma.create.descriptor): a [64 x 128] f16 memref at
 * element offset 8 with rows of 136, box [64 x 64], 128-byte swizzle, reaches
 * cuTensorMapEncodeTiled innermost first with byte strides; the map lands in
 * device memory, and the same request again returns that copy without asking
 * the driver. A driver without
 * cuTensorMapEncodeTiled (before CUDA 12), a failing encode, HIP, a rank of 6:
 * a recorded failure and NULL.
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu fa-rt-errors-cuda tma 2>&1 | FileCheck %s --check-prefix=TMA
// TMA: fake-gpu: cuTensorMapEncodeTiled type 6 rank 2 dims 128x64 strides 272 box 64x64 element strides 1 swizzle 3 interleave 0 l2 0 oob 0
// TMA-NEXT: fake-gpu: cuMemAlloc_v2 128 bytes
// TMA-NOT: cuTensorMapEncodeTiled
// TMA-NOT: cuMemAlloc
// TMA: tma: shared yes
// TMA: tma: first word the address
// TMA-NEXT: tma: status 0
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu_notma fa-rt-errors-cuda tma 2>&1 | FileCheck %s --check-prefix=NOTMA
// NOTMA: tma: status -2: the cuda driver has no cuTensorMapEncodeTiled: tensor maps (TMA) need an NVIDIA driver for CUDA 12 or newer
// NOTMA: tma: map NULL
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu FAKE_GPU_FAIL=cuTensorMapEncodeTiled:1 fa-rt-errors-cuda tma 2>&1 | FileCheck %s --check-prefix=TMAFAIL
// TMAFAIL: tma: status 1: encoding a tensor map (cuTensorMapEncodeTiled) failed: CUDA_ERROR_INVALID_VALUE (1)
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu fa-rt-errors-hip tma 2>&1 | FileCheck %s --check-prefix=HIPTMA
// HIPTMA: tma: status -2: the hip driver has no cuTensorMapEncodeTiled
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu fa-rt-errors-cuda tma-rank 2>&1 | FileCheck %s --check-prefix=TMARANK
// TMARANK: tma-rank: status -1: a tensor map of rank 6 and data type 6: TMA takes ranks 1 to 5 and types 0 to 12
 *
 * Thread block clusters (gpu.launch_func with clusters: mgpuLaunchClusterKernel)
 * go through cuLaunchKernelEx with the grid, the block, the dynamic shared
 * memory and the cluster dimension; a driver without it (before CUDA 12) and
 * HIP: a recorded failure.
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu fa-rt-errors-cuda cluster %S/Inputs/kernels.ptx 2>&1 | FileCheck %s --check-prefix=CLUSTER
// CLUSTER: fake-gpu: cuLaunchKernelEx grid (4,1,1) block (256,1,1) smem 65536
// CLUSTER-NEXT: fake-gpu: cuLaunchKernelEx cluster (2,1,1)
// CLUSTER: cluster: status 0
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu_notma fa-rt-errors-cuda cluster %S/Inputs/kernels.ptx 2>&1 | FileCheck %s --check-prefix=NOCLUSTER
// NOCLUSTER: cluster: status -2: the cuda driver has no cuLaunchKernelEx: thread block clusters need an NVIDIA driver for CUDA 12 or newer
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu fa-rt-errors-hip cluster %S/Inputs/kernels.ptx 2>&1 | FileCheck %s --check-prefix=HIPCLUSTER
// HIPCLUSTER: cluster: status -2: the hip driver has no cuLaunchKernelEx
 *
 * The multiprocessor count that sizes persistent grids: the driver's, else 1
 * with a recorded failure (a failing query; HIP, where no kernel asks):
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu FAKE_GPU_DEVICES=2 FA_GPU_DEVICE=1 fa-rt-errors-cuda sms 2>&1 | FileCheck %s --check-prefix=SMS
// SMS: fake-gpu: cuDeviceGetAttribute 16 of device 1
// SMS-NOT: cuDeviceGetAttribute
// SMS: sms: 132 multiprocessors, twice 132
// SMS-NEXT: sms: status 0
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu FAKE_GPU_FAIL=cuDeviceGetAttribute:1 fa-rt-errors-cuda sms 2>&1 | FileCheck %s --check-prefix=SMSFAIL
// SMSFAIL: sms: 1 multiprocessors, twice 1
// SMSFAIL: sms: status 1: asking the device's multiprocessor count failed: CUDA_ERROR_INVALID_VALUE (1)
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu fa-rt-errors-hip sms 2>&1 | FileCheck %s --check-prefix=HIPSMS
// HIPSMS: sms: 1 multiprocessors, twice 1
// HIPSMS: sms: status -2: the hip runtime does not count the device's multiprocessors
 *
 * A binary the driver rejects (with the JIT's log), a kernel the module lacks:
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu FAKE_GPU_FAIL=cuModuleLoadDataEx:218 fa-rt-errors-cuda bad-binary 2>&1 | FileCheck %s --check-prefix=BADBIN
// BADBIN: bad-binary: status 218: loading a GPU module failed: CUDA_ERROR_INVALID_PTX (218)
// BADBIN-NEXT: fake-ptxas: line 1: syntax error
// BADBIN-NOT: fake-gpu: cuLaunchKernel
// BADBIN: then: stand-in buffer zeroed, launch skipped
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu FAKE_GPU_FAIL=hipModuleLoadData:200 fa-rt-errors-hip bad-binary 2>&1 | FileCheck %s --check-prefix=HIPBADBIN
// HIPBADBIN: bad-binary: status 200: loading a GPU module failed: hipErrorInvalidImage (200)
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu FAKE_GPU_FAIL=cuModuleGetFunction:500 fa-rt-errors-cuda missing-kernel %S/Inputs/kernels.ptx 2>&1 | FileCheck %s --check-prefix=NOKERNEL
// NOKERNEL: missing-kernel: status -1: the GPU module has no kernel 'fa_test_missing'
// NOKERNEL-NOT: fake-gpu: cuLaunchKernel
// NOKERNEL: then: stand-in buffer zeroed, launch skipped
 *
 * Out of memory: the failure is recorded and host code gets zeroed host
 * memory, so it goes on safely; a request host memory cannot meet either
 * gives NULL and a second message.
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu FAKE_GPU_FAIL=cuMemAlloc_v2:2 fa-rt-errors-cuda oom %S/Inputs/kernels.ptx 2>&1 | FileCheck %s --check-prefix=OOM
// OOM: oom: status 2: allocating 1024 bytes of device memory failed: CUDA_ERROR_OUT_OF_MEMORY (2)
// OOM-NOT: fake-gpu: cuLaunchKernel
// OOM: then: stand-in buffer zeroed, launch skipped
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu FAKE_GPU_FAIL=hipMalloc:2 fa-rt-errors-hip oom %S/Inputs/kernels.ptx 2>&1 | FileCheck %s --check-prefix=HIPOOM
// HIPOOM: oom: status 2: allocating 1024 bytes of device memory failed: hipErrorOutOfMemory (2)
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu fa-rt-errors-cuda oom-huge 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: fa-runtime (cuda): error: allocating 1125899906842624 bytes of device memory failed: CUDA_ERROR_OUT_OF_MEMORY (2)
// HUGE: fa-runtime (cuda): error: no host memory for a 1125899906842624-byte stand-in buffer either
// HUGE: oom-huge: status 2: allocating 1125899906842624 bytes
// HUGE: then: NULL, launch skipped
 *
 * A launch the driver refuses, and a kernel that faults while it runs
 * (reported at the next synchronization): later launches are skipped.
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu FAKE_GPU_FAIL=cuLaunchKernel:701 fa-rt-errors-cuda launch %S/Inputs/kernels.ptx 2>&1 | FileCheck %s --check-prefix=LAUNCH
// LAUNCH: launch: status 701: kernel launch failed: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (701)
// LAUNCH-NOT: fake-gpu: cuLaunchKernel
// LAUNCH: then: stand-in buffer zeroed, launch skipped
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu FAKE_GPU_FAIL=cuStreamSynchronize:719 fa-rt-errors-cuda fault %S/Inputs/kernels.ptx 2>&1 | FileCheck %s --check-prefix=FAULT
// FAULT: fake-gpu: cuLaunchKernel grid (1,1,1) block (1,1,1) smem 0
// FAULT: fault: status 719: a kernel (stream synchronize) failed: CUDA_ERROR_LAUNCH_FAILED (719)
// FAULT-NOT: fake-gpu: cuLaunchKernel
// FAULT: then: stand-in buffer zeroed, launch skipped
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu FAKE_GPU_FAIL=hipStreamSynchronize:719 fa-rt-errors-hip fault %S/Inputs/kernels.ptx 2>&1 | FileCheck %s --check-prefix=HIPFAULT
// HIPFAULT: fault: status 719: a kernel (stream synchronize) failed: hipErrorLaunchFailure (719)
 *
 * Launches left asynchronous (fa-bench's timing): with the caller's stream
 * set and faRuntimeSetLaunchesAsync(true), host code's wait on that stream
 * does not reach the driver (so its failure is not seen there); switched
 * off, the wait does.
// RUN: env FA_RUNTIME_DRIVER=%fake_gpu FAKE_GPU_FAIL=cuStreamSynchronize:719 fa-rt-errors-cuda async 2>&1 | FileCheck %s --check-prefix=ASYNC
// ASYNC: async: status 0
// ASYNC: sync: status 719: a kernel (stream synchronize) failed
 */
#include "fa-c/Runtime.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* MLIR's GPU runtime ABI, as gpu-to-llvm's host code declares it. */
void *mgpuModuleLoad(void *data, size_t size);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchClusterKernel(void *function, intptr_t cx, intptr_t cy, intptr_t cz, intptr_t gx,
                             intptr_t gy, intptr_t gz, intptr_t bx, intptr_t by, intptr_t bz,
                             int32_t smem, void *stream, void **params, void **extra);
void mgpuLaunchKernel(void *function, intptr_t gx, intptr_t gy, intptr_t gz, intptr_t bx,
                      intptr_t by, intptr_t bz, int32_t smem, void *stream, void **params,
                      void **extra, size_t paramsCount);
void *mgpuStreamCreate(void);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamDestroy(void *stream);
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared);
void *mgpuTensorMapEncodeTiledMemref(int64_t rank, void *descriptor, int64_t dataType,
                                     int64_t interleave, int64_t swizzle, int64_t l2Promotion,
                                     int64_t oobFill, int64_t *boxDims);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t bytes, void *stream);
void mgpuMemHostRegister(void *ptr, uint64_t bytes);
void mgpuMemHostUnregister(void *ptr);

enum { kThreads = 256 };

/* The whole file, NUL-terminated (PTX is text); NULL if unreadable. */
static char *readFile(const char *path, size_t *size) {
  FILE *f = path ? fopen(path, "rb") : NULL;
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *data = calloc(1, (size_t)n + 1);
  *size = fread(data, 1, (size_t)n, f);
  fclose(f);
  return data;
}

static void *loadModule(char *data, size_t size) {
  if (strcmp(faRuntimeGetBackendName(), "cuda") == 0)
    return mgpuModuleLoadJIT(data, 2);
  return mgpuModuleLoad(data, size);
}

static void report(const char *scenario) {
  printf("%s: status %d: %s\n", scenario, faRuntimeGetStatus(), faRuntimeGetErrorMessage());
}

/* What host code sees after a failure: the next allocation is usable host
 * memory (or NULL if even that failed) and a launch does nothing. */
static void reportThen(void *stream, void *function, unsigned char *buffer, size_t bytes) {
  if (!buffer) {
    printf("then: NULL, launch skipped\n");
    return;
  }
  bool zeroed = true;
  for (size_t i = 0; i < bytes; ++i)
    zeroed = zeroed && buffer[i] == 0;
  void *args[] = {&buffer};
  mgpuLaunchKernel(function, 1, 1, 1, kThreads, 1, 1, 0, stream, args, NULL, 1);
  printf("then: stand-in buffer %s, launch skipped\n", zeroed ? "zeroed" : "NOT ZEROED");
}

/* Fills a device buffer with fa_test_fill and reads it back. */
static void *runFill(void *module, void *stream, int32_t *host) {
  void *fill = mgpuModuleGetFunction(module, "fa_test_fill");
  int32_t *device = mgpuMemAlloc(sizeof(int32_t) * kThreads, stream, false);
  void *args[] = {&device};
  mgpuLaunchKernel(fill, 1, 1, 1, kThreads, 1, 1, 0, stream, args, NULL, 1);
  mgpuMemcpy(host, device, sizeof(int32_t) * kThreads, stream);
  mgpuStreamSynchronize(stream);
  mgpuMemFree(device, stream);
  return fill;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s open|run|register|bad-binary|missing-kernel|oom|oom-huge|"
                    "launch|fault|async|scratch|tma|tma-rank|cluster|sms [KERNELS]\n", argv[0]);
    return 2;
  }
  setvbuf(stdout, NULL, _IONBF, 0); /* in order with the runtime's stderr */
  const char *scenario = argv[1];
  size_t size = 0;
  char garbage[] = "this is not a GPU binary";
  char *data = strcmp(scenario, "bad-binary") == 0 ? garbage : readFile(argv[2], &size);
  if (data == garbage)
    size = sizeof garbage;
  void *stream = mgpuStreamCreate();
  void *module = NULL, *function = NULL;
  /* The scenarios that need no module. */
  static const char *const kNoModule[] = {"open", "oom-huge", "register", "scratch", "tma",
                                          "tma-rank", "sms"};
  bool needsModule = true;
  for (size_t i = 0; i < sizeof kNoModule / sizeof kNoModule[0]; ++i)
    needsModule = needsModule && strcmp(scenario, kNoModule[i]) != 0;
  if (needsModule)
    module = loadModule(data, size);
  const size_t bytes = 1024;
  unsigned char *buffer = NULL;
  if (strcmp(scenario, "sms") == 0) { /* the second call asks the cache */
    int32_t first = faRuntimeGetMultiprocessorCount();
    printf("sms: %d multiprocessors, twice %d\n", first, faRuntimeGetMultiprocessorCount());
    report(scenario);
    return 0;
  }
  if (strcmp(scenario, "register") == 0) {
    char host[64];
    mgpuMemHostRegister(host, sizeof host);
    mgpuMemHostRegister(host, sizeof host);
    mgpuMemHostUnregister(host);
    printf("register: nested\n");
    mgpuMemHostUnregister(host);
    report(scenario);
    return faRuntimeGetStatus() != 0;
  }
  if (strncmp(scenario, "tma", 3) == 0) {
    /* memref<64x128xf16, strided<[136, 1], offset: 8>>: {allocated, aligned,
     * offset, sizes, strides} (rank 6 for tma-rank: only the rank is read). */
    static uint16_t data[64 * 136 + 8] __attribute__((aligned(128)));
    struct {
      void *allocated, *aligned;
      int64_t offset, sizes[2], strides[2];
    } d = {data, data, 8, {64, 128}, {136, 1}};
    int64_t box[2] = {64, 64};
    int64_t rank = strcmp(scenario, "tma-rank") == 0 ? 6 : 2;
    void *map = mgpuTensorMapEncodeTiledMemref(rank, &d, 6, 0, 3, 0, 0, box);
    if (!map) {
      report(scenario);
      printf("tma: map NULL\n");
      return faRuntimeGetStatus() == 0;
    }
    void *again = mgpuTensorMapEncodeTiledMemref(rank, &d, 6, 0, 3, 0, 0, box);
    printf("tma: shared %s\n", again == map ? "yes" : "no");
    void *encoded = NULL; /* the fake's map starts with the address */
    mgpuMemcpy(&encoded, map, sizeof encoded, stream);
    mgpuStreamSynchronize(stream);
    printf("tma: first word %s\n", encoded == (void *)(data + 8) ? "the address" : "other");
    report(scenario);
    return faRuntimeGetStatus() != 0;
  }
  if (strcmp(scenario, "scratch") == 0) {
    void *a = mgpuMemAlloc(1024, stream, false);
    mgpuMemFree(a, stream);
    void *b = mgpuMemAlloc(512, stream, false);
    printf("scratch: reused %s\n", a == b ? "yes" : "no");
    mgpuMemFree(b, stream);
    void *c = mgpuMemAlloc(4096, stream, false);
    printf("scratch: larger block %s\n", c == a ? "reused" : "new");
    mgpuMemFree(c, stream);
    void *m = mgpuMemAlloc(64, stream, true);
    mgpuMemFree(m, stream);
    report(scenario);
    return faRuntimeGetStatus() != 0;
  }
  if (strcmp(scenario, "async") == 0) {
    faRuntimeSetStream(stream);
    faRuntimeSetLaunchesAsync(true);
    mgpuStreamSynchronize(stream);
    report(scenario);
    faRuntimeSetLaunchesAsync(false);
    mgpuStreamSynchronize(stream);
    report("sync");
    faRuntimeSetStream(NULL);
    return faRuntimeGetStatus() == 0;
  }
  if (strcmp(scenario, "run") == 0) {
    int32_t host[kThreads] = {0};
    runFill(module, stream, host);
    report(scenario);
    printf("values: %d %d %d\n", host[0], host[7], host[kThreads - 1]);
    return faRuntimeGetStatus() != 0;
  }
  if (strcmp(scenario, "missing-kernel") == 0)
    function = mgpuModuleGetFunction(module, "fa_test_missing");
  if (strcmp(scenario, "oom") == 0 || strcmp(scenario, "launch") == 0 ||
      strcmp(scenario, "fault") == 0 || strcmp(scenario, "cluster") == 0)
    function = mgpuModuleGetFunction(module, "fa_test_fill");
  if (strcmp(scenario, "cluster") == 0) { /* clusters of 2 blocks, 64 KiB each */
    int32_t *device = mgpuMemAlloc(sizeof(int32_t) * kThreads * 4, stream, false);
    void *args[] = {&device};
    mgpuLaunchClusterKernel(function, 2, 1, 1, 4, 1, 1, kThreads, 1, 1, 64 * 1024, stream, args,
                            NULL);
    mgpuStreamSynchronize(stream);
    mgpuMemFree(device, stream);
    report(scenario);
    /* Launched, or refused for want of cuLaunchKernelEx (status -2). */
    return faRuntimeGetStatus() != 0 && faRuntimeGetStatus() != -2;
  }
  if (strcmp(scenario, "launch") == 0) { /* more threads than a block may have */
    void *none = NULL, *args[] = {&none};
    mgpuLaunchKernel(function, 1, 1, 1, 4096, 1, 1, 0, stream, args, NULL, 1);
  }
  if (strcmp(scenario, "fault") == 0) {
    mgpuLaunchKernel(mgpuModuleGetFunction(module, "fa_test_trap"), 1, 1, 1, 1, 1, 1, 0, stream,
                     NULL, NULL, 0);
    mgpuStreamSynchronize(stream);
  }
  if (strcmp(scenario, "oom-huge") == 0) {
    buffer = mgpuMemAlloc(1ull << 50, stream, false);
    report(scenario);
    reportThen(stream, function, buffer, 0);
    return faRuntimeGetStatus() == 0;
  }
  buffer = mgpuMemAlloc(bytes, stream, false);
  report(scenario);
  if (faRuntimeGetStatus() != 0)
    reportThen(stream, function, buffer, bytes);
  mgpuMemFree(buffer, stream);
  return faRuntimeGetStatus() == 0;
}
