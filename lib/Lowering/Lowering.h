/* Internal: what the lowerings of fa ops share: the target, and the SPMD
 * frame of workgroup-level code. Kernel bodies are written once for every
 * target as code run by `%nth` threads of a workgroup, thread `%tid`:
 * element loops are `scf.for %e = %tid to SIZE step %nth`, and a barrier
 * separates steps. On the CPU a workgroup is one thread (tid 0, nth 1, no
 * barriers); on GPUs it is a gpu.launch block. The templates of
 * Kernels/Portable write that frame (workgroup_threads.mlir defines %tid and
 * %nth; `//#if GPU` keeps the barriers). */
#ifndef FA_LIB_LOWERING_LOWERING_H
#define FA_LIB_LOWERING_LOWERING_H

#include "Support/IRText.h"

#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <string.h>

/* cpu: loops; gpu: any GPU, scalar SPMD code (NVVM and ROCDL); nvvm: NVIDIA
 * from sm_80, tensor cores (mma.sync) where the op allows, gpu otherwise. */
/* nvvm-sm90a: nvvm, with the Hopper (wgmma) kernel where it applies. */
typedef enum { FA_TARGET_CPU, FA_TARGET_GPU, FA_TARGET_NVVM, FA_TARGET_NVVM_SM90A } FaTarget;

static inline bool faTargetIsGpu(FaTarget target) { return target != FA_TARGET_CPU; }
static inline bool faTargetIsNvvm(FaTarget target) {
  return target == FA_TARGET_NVVM || target == FA_TARGET_NVVM_SM90A;
}

/* The lowering target (its option text) of an NVIDIA chip: nvvm-sm90a for
 * sm_90a (the Hopper kernel), nvvm for the others. */
static inline const char *faTargetNameOfChip(const char *chip) {
  return strcmp(chip, "sm_90a") == 0 ? "nvvm-sm90a" : "nvvm";
}

/* Parses "" (cpu), "target=cpu", "target=gpu", "target=nvvm" or
 * "target=nvvm-sm90a". */
bool faTargetParseOption(MlirStringRef options, FaTarget *target,
                         MlirStringCallback errorCallback, void *userData);

/* A lowering pass of `def` whose state is its target, from a target or from
 * the option text faTargetParseOption takes (null pass on bad options). */
struct FaPassDef;
MlirPass faLoweringPassCreate(const struct FaPassDef *def, FaTarget target);
MlirPass faLoweringPassCreateFromOptions(const struct FaPassDef *def, MlirStringRef options,
                                         MlirStringCallback errorCallback, void *userData);

/* Threads per workgroup on GPUs (a multiple of the warp size, 32). */
enum { FA_GPU_THREADS = 128, FA_WARP_SIZE = 32 };

#endif
