/*===-- fa-c/Runtime.h - fa-mlir GPU runtime status --------------*- C -*-===*\
|* The runtime libraries (libfa_rt_cuda.so over libcuda.so.1, libfa_rt_hip.so  *|
|* over libamdhip64.so, both opened with dlopen) implement the mgpu* functions *|
|* that MLIR's gpu-to-llvm host code calls. Those return no status, so every  *|
|* failure is printed to stderr once and recorded here; after a failure, the  *|
|* runtime launches nothing more until the status is cleared.                 *|
|*                                                                            *|
|* Environment: FA_GPU_DEVICE=N picks the device (default 0);                 *|
|* FA_RUNTIME_DRIVER=PATH loads that driver library instead of the vendor's   *|
|* default names (a driver outside the loader's path, or a test double).      *|
\*===----------------------------------------------------------------------===*/
#ifndef FA_C_RUNTIME_H
#define FA_C_RUNTIME_H

#include "fa-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 0 when every runtime call since the last clear succeeded, else the first
/// failing driver status (or -1 for a failure without a driver status).
FA_CAPI_EXPORTED int faRuntimeGetStatus(void);
/// The message of the first failure since the last clear ("" if none); owned
/// by the runtime.
FA_CAPI_EXPORTED const char *faRuntimeGetErrorMessage(void);
/// Forgets the recorded failure.
FA_CAPI_EXPORTED void faRuntimeClearStatus(void);
/// Milliseconds between two events made by mgpuEventCreate and recorded with
/// mgpuEventRecord (the end event must have completed); -1 on failure.
FA_CAPI_EXPORTED float faRuntimeEventElapsedMs(void *start, void *end);
/// Makes generated host code use `stream` (from mgpuStreamCreate) instead of
/// creating and destroying its own; NULL restores that. For timing with events.
FA_CAPI_EXPORTED void faRuntimeSetStream(void *stream);
/// With `async` and a caller's stream set by faRuntimeSetStream, generated
/// host code returns once its kernels are enqueued on that stream instead of
/// waiting for them: the caller synchronizes the stream (or an event recorded
/// after the calls) before it reads any result. For arguments in device
/// memory only. Off by default. For timing launches back to back.
FA_CAPI_EXPORTED void faRuntimeSetLaunchesAsync(bool async);
/// The device's multiprocessors (SMs), which size the grids of persistent
/// kernels (generated host code calls it); 1 after recording a failure.
FA_CAPI_EXPORTED int32_t faRuntimeGetMultiprocessorCount(void);
/// Name of the driver behind this runtime ("cuda" or "hip").
FA_CAPI_EXPORTED const char *faRuntimeGetBackendName(void);

#ifdef __cplusplus
}
#endif

#endif
