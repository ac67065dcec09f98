/* The table of our passes and named pipelines, for lookup by name (pipeline
 * text, fa-opt flags, --help, the mlir-opt plugin). */
#include "Lowering/Lowering.h"
#include "Support/PassSupport.h"
#include "Registry/Passes.h"

#include <stdio.h>
#include <string.h>

static const FaPassInfo kPasses[] = {
    {"fa-decompose-attention",
     "Replace fa.gridwise_attention with a call to its naive element-wise reference "
     "(fa-check's reference for hand-written fa ops)",
     "", faDecomposeAttentionPassCreateFromOptions},
    {"fa-decompose-softmax",
     "Decompose linalg.softmax into linalg.generic ops (upstream's decomposition, applied "
     "through the transform interpreter)",
     "", faDecomposeSoftmaxPassCreateFromOptions},
    {"fa-expand-erf",
     "Replace f32 math.erf with calls to an exp-based approximation (for GPUs "
     "without a device math library); run inline afterwards",
     "", faExpandErfPassCreateFromOptions},
    {"fa-free-buffers",
     "Free the buffers a function allocates and provably does not let escape "
     "(before its return)",
     "", faFreeBuffersPassCreateFromOptions},
    {"fa-fuse-attention",
     "Rewrite gemm-softmax-gemm chains (linalg, tosa) into fa.gridwise_attention",
     "explain[=true|false]: emit a remark for each refused candidate",
     faFuseAttentionPassCreateFromOptions},
    {"fa-gpu-check-calls",
     "Reject functions a gpu.module declares but does not define (device-library calls)",
     "", faGpuCheckCallsPassCreateFromOptions},
    {"fa-gpu-host-memory",
     "Host buffers as managed GPU memory, constants copied into it, public memref "
     "arguments registered, buffers that do not escape freed (after gpu-kernel-outlining)",
     "", faGpuHostMemoryPassCreateFromOptions},
    {"fa-gpu-kernel-bounds",
     "Give outlined kernels the function attributes (nvvm.maxnreg, nvvm.minctasm, ...) an op "
     "of their body carries as fa.kernel_bounds (after gpu-kernel-outlining)",
     "", faGpuKernelBoundsPassCreateFromOptions},
    {"fa-lower-attention",
     "Lower fa.gridwise_attention to a tiled online-softmax kernel of fa.blockwise_* ops",
     "target=cpu|gpu|nvvm|nvvm-sm90a: scf.parallel over workgroups (cpu, default) or "
     "gpu.launch; nvvm: the tensor-core (mma.sync) kernel for f16/bf16; nvvm-sm90a: the "
     "Hopper (wgmma) kernel where it applies",
     faLowerAttentionPassCreateFromOptions},
    {"fa-lower-blockwise",
     "Lower fa.blockwise_* ops on memref tiles to loops (cpu) or threads, shuffles, barriers (gpu); "
     "on register fragments to ldmatrix / mma.sync, or wgmma (nvvm)",
     "target=cpu|gpu|nvvm|nvvm-sm90a (nvvm-sm90a: as nvvm)", faLowerBlockwisePassCreateFromOptions},
    {"fa-rocdl-intrinsics",
     "Replace ocml calls that have an LLVM intrinsic AMDGPU lowers natively (floor, log2, "
     "exp, ... on f16/f32) with that intrinsic",
     "", faRocdlIntrinsicsPassCreateFromOptions},
    {"fa-verify",
     "Check fa ops beyond their IRDL definition (shapes, types, attributes)", "",
     faVerifyPassCreateFromOptions},
};

intptr_t faGetNumPasses(void) {
  return (intptr_t)(sizeof(kPasses) / sizeof(kPasses[0]));
}

const FaPassInfo *faGetPass(intptr_t pos) {
  return pos >= 0 && pos < faGetNumPasses() ? &kPasses[pos] : NULL;
}

const FaPassInfo *faLookupPass(MlirStringRef argument) {
  for (intptr_t i = 0; i < faGetNumPasses(); ++i)
    if (mlirStringRefEqual(argument,
                           mlirStringRefCreateFromCString(kPasses[i].argument)))
      return &kPasses[i];
  return NULL;
}

/* fa-fuse: fusion framed by verification of every fa op, the entry point for
 * model IR that may already contain fa ops. */
static MlirLogicalResult buildFusePipeline(MlirOpPassManager pm,
                                           MlirStringRef options,
                                           MlirStringCallback errorCallback,
                                           void *userData) {
  MlirPass fuse =
      faFuseAttentionPassCreateFromOptions(options, errorCallback, userData);
  if (faPassIsNull(fuse))
    return mlirLogicalResultFailure();
  mlirOpPassManagerAddOwnedPass(pm, faCreateDialectVerify());
  mlirOpPassManagerAddOwnedPass(pm, fuse);
  mlirOpPassManagerAddOwnedPass(pm, faCreateDialectVerify());
  return mlirLogicalResultSuccess();
}

/* The pieces of the lowering pipelines, as pipeline text. */
#define FA_TOSA_TO_LINALG                                                     \
  "func.func(tosa-optional-decompositions,tosa-to-linalg-named,tosa-to-linalg," \
  "tosa-to-arith,tosa-to-tensor),"
#define FA_BUFFERIZE                                                          \
  "fa-decompose-softmax,func.func(convert-elementwise-to-linalg),canonicalize," \
  "one-shot-bufferize{bufferize-function-boundaries "                         \
  "function-boundary-type-conversion=identity-layout-map},"
#define FA_LOOPS_TO_LLVM                                                      \
  "convert-scf-to-cf,"                                                        \
  "expand-strided-metadata,lower-affine,finalize-memref-to-llvm,"             \
  "convert-math-to-llvm,convert-math-to-libm,arith-expand{include-bf16},convert-arith-to-llvm,"   \
  "convert-index-to-llvm,"                                                    \
  "convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts"
#define FA_CPU_TO_LLVM "func.func(convert-linalg-to-loops)," FA_LOOPS_TO_LLVM
#define FA_LOWER(target)                                                      \
  "fa-lower-attention{target=" target "},fa-lower-blockwise{target=" target   \
  "},inline,canonicalize,cse,"

static const char kUpstreamToCpu[] = FA_TOSA_TO_LINALG FA_BUFFERIZE FA_CPU_TO_LLVM;
static const char kFaToCpu[] = "fa-verify,fa-fuse-attention,fa-verify," FA_TOSA_TO_LINALG
    FA_LOWER("cpu") FA_BUFFERIZE "func.func(convert-linalg-to-loops),fa-free-buffers," FA_LOOPS_TO_LLVM;

/* Pipelines without options that expand to fixed text. */
static MlirLogicalResult addText(MlirOpPassManager pm, MlirStringRef options,
                                 MlirStringCallback errorCallback, void *userData,
                                 const char *text) {
  if (options.length) {
    faPassReportBadOptions(options, errorCallback, userData);
    return mlirLogicalResultFailure();
  }
  return faOpPassManagerAddPipeline(pm, mlirStringRefCreateFromCString(text),
                                    errorCallback, userData);
}

static MlirLogicalResult buildUpstreamToCpu(MlirOpPassManager pm, MlirStringRef options,
                                            MlirStringCallback errorCallback,
                                            void *userData) {
  return addText(pm, options, errorCallback, userData, kUpstreamToCpu);
}

static MlirLogicalResult buildFaToCpu(MlirOpPassManager pm, MlirStringRef options,
                                      MlirStringCallback errorCallback, void *userData) {
  return addText(pm, options, errorCallback, userData, kFaToCpu);
}

/* Register fragments are indexed by affine.for loops of constant trip count:
 * unrolled fully (innermost first, as deep as the templates nest), every index
 * is a constant and the fragments stay in registers. */
#define FA_UNROLL_FRAGMENTS "func.func(affine-loop-unroll{unroll-factor=-1 unroll-num-reps=8}),"

/* The part of the GPU pipelines before the target: fusion, our GPU lowering,
 * bufferization, upstream parallel-loops-to-GPU for every other op, kernel
 * outlining. */
#define FA_GPU_PREFIX(target)                                                 \
  "fa-verify,fa-fuse-attention,fa-verify," FA_TOSA_TO_LINALG                  \
  "fa-lower-attention{target=" target "},fa-lower-blockwise{target=" target   \
  "},inline{default-pipeline=},symbol-dce," FA_UNROLL_FRAGMENTS               \
  "canonicalize,cse," FA_BUFFERIZE                                            \
  "func.func(convert-linalg-to-parallel-loops),%s"                            \
  "func.func(gpu-map-parallel-loops,convert-parallel-loops-to-gpu),"           \
  "lower-affine,arith-expand,gpu-launch-sink-index-computations,"             \
  "gpu-kernel-outlining,fa-gpu-kernel-bounds,fa-gpu-host-memory,"

/* Parses `chip=PREFIX...` and `KEY=path` options of a GPU pipeline. */
static bool parseGpuOptions(MlirStringRef options, const char *chipPrefix,
                            char *chip, size_t chipSize, const char *pathKey,
                            char *path, size_t pathSize,
                            MlirStringCallback errorCallback, void *userData) {
  const FaPassOption opts[] = {{"chip", chip, chipSize}, {pathKey, path, pathSize}};
  if (!faPassParseOptions(options, opts, 2, errorCallback, userData))
    return false;
  if (strncmp(chip, chipPrefix, strlen(chipPrefix)) != 0 || strlen(chip) < 5) {
    faPassReportBadOptions(options, errorCallback, userData);
    return false;
  }
  return true;
}

/* fa-to-nvvm{chip=sm_80|sm_90 cuda-path=DIR}: PTX in a gpu.binary, libdevice
 * (DIR/nvvm/libdevice) linked for math calls. */
static MlirLogicalResult buildFaToNvvm(MlirOpPassManager pm, MlirStringRef options,
                                       MlirStringCallback errorCallback, void *userData) {
  char chip[16] = "sm_90", cuda[512] = FA_CUDA_PATH;
  if (!parseGpuOptions(options, "sm_", chip, sizeof chip, "cuda-path", cuda,
                       sizeof cuda, errorCallback, userData))
    return mlirLogicalResultFailure();
  /* sm_90a: the Hopper kernel, whose host code makes TMA tensor maps
   * (nvgpu.tma.create.descriptor, lowered on the host too). */
  const char *target = faTargetNameOfChip(chip);
  bool hopper = strcmp(target, "nvvm-sm90a") == 0;
  char text[4096];
  snprintf(text, sizeof text,
           FA_GPU_PREFIX("%s") "nvvm-attach-target{chip=%s features=+ptx80 O=3},"
           "gpu.module(expand-strided-metadata,lower-affine,convert-nvgpu-to-nvvm,convert-scf-to-cf,math-expand-ops{ops=fpowi},"
           "convert-gpu-to-nvvm,"
           "reconcile-unrealized-casts),%s"
           "convert-scf-to-cf,gpu-to-llvm,gpu-module-to-binary{format=isa toolkit=%s}," FA_CPU_TO_LLVM,
           target, target, "", chip,
           hopper ? "expand-strided-metadata,convert-nvgpu-to-nvvm," : "", cuda);
  return faOpPassManagerAddPipeline(pm, mlirStringRefCreateFromCString(text), errorCallback,
                                    userData);
}

/* fa-to-rocdl{chip=gfx90a|gfx942 rocm-path=DIR}: an AMDGPU code object in a
 * gpu.binary. Without rocm-path, f16/bf16 math is computed in f32 and math
 * becomes LLVM intrinsics (expanded where AMDGPU has none; ocml calls with a
 * native intrinsic replaced by fa-rocdl-intrinsics), so no device library is
 * needed; without rocm-path, a kernel that still
 * calls one is an error (fa-gpu-check-calls) and the toolkit is our stand-in
 * directory that has only Debian's ld.lld and empty device libraries. */
static MlirLogicalResult buildFaToRocdl(MlirOpPassManager pm, MlirStringRef options,
                                        MlirStringCallback errorCallback, void *userData) {
  char chip[16] = "gfx942", rocm[512] = "";
  if (!parseGpuOptions(options, "gfx", chip, sizeof chip, "rocm-path", rocm,
                       sizeof rocm, errorCallback, userData))
    return mlirLogicalResultFailure();
  bool ownToolkit = rocm[0] == 0;
  char text[4096];
  snprintf(text, sizeof text,
           FA_GPU_PREFIX("gpu") "rocdl-attach-target{chip=%s O=3},"
           "gpu.module(convert-scf-to-cf,math-expand-ops,convert-gpu-to-rocdl{chipset=%s},"
           "convert-math-to-llvm,reconcile-unrealized-casts),%s"
           "convert-scf-to-cf,gpu-to-llvm,gpu-module-to-binary{format=bin toolkit=%s}," FA_CPU_TO_LLVM,
           ownToolkit ? "math-extend-to-supported-types,fa-expand-erf,inline{default-pipeline=},"
                      : "",
           chip, chip, ownToolkit ? "fa-rocdl-intrinsics,fa-gpu-check-calls," : "",
           ownToolkit ? FA_ROCM_STANDIN_DIR : rocm);
  return faOpPassManagerAddPipeline(pm, mlirStringRefCreateFromCString(text), errorCallback,
                                    userData);
}

static const FaPipelineInfo kPipelines[] = {
    {"fa-fuse",
     "fa-verify, fa-fuse-attention, fa-verify: fuse attention in model IR and "
     "check every fa op before and after",
     "explain[=true|false]: as for fa-fuse-attention", buildFusePipeline},
    {"fa-to-cpu",
     "A whole model (linalg/tosa, attention fused or not) to the LLVM dialect for the "
     "host: fusion, fa-lower-attention/-blockwise{target=cpu}, inline, one-shot "
     "bufferization, loops, fa-free-buffers, LLVM",
     "", buildFaToCpu},
    {"fa-to-nvvm",
     "A whole model to LLVM with the kernels as PTX in gpu.binary: fusion, "
     "fa-lower-attention/-blockwise{target=nvvm} (nvvm-sm90a for chip=sm_90a), upstream "
     "parallel-loops-to-GPU for other ops, gpu-kernel-outlining, fa-gpu-kernel-bounds, "
     "fa-gpu-host-memory, convert-gpu-to-nvvm, gpu-to-llvm, gpu-module-to-binary",
     "chip=sm_80|sm_90|sm_90a (default sm_90; sm_90a: the Hopper wgmma kernel), cuda-path=DIR (libdevice; default: the "
     "CUDA toolkit found at build time)",
     buildFaToNvvm},
    {"fa-to-rocdl",
     "A whole model to LLVM with the kernels as AMDGPU code objects in gpu.binary: "
     "as fa-to-nvvm with fa-lower-attention/-blockwise{target=gpu}, then "
     "convert-gpu-to-rocdl, gpu-to-llvm, gpu-module-to-binary (ld.lld); without "
     "rocm-path, f16/bf16 math in f32 and math as LLVM intrinsics (fa-expand-erf, "
     "fa-rocdl-intrinsics), and a kernel that still calls a device library is an "
     "error (fa-gpu-check-calls)",
     "chip=gfx90a|gfx942 (default gfx942), rocm-path=DIR (link ROCm's device "
     "libraries; default: none)",
     buildFaToRocdl},
    {"fa-upstream-to-cpu",
     "fa-to-cpu without anything of ours: upstream passes only (the reference "
     "lowering fa-check compares against)",
     "", buildUpstreamToCpu},
};

intptr_t faGetNumPipelines(void) {
  return (intptr_t)(sizeof(kPipelines) / sizeof(kPipelines[0]));
}

const FaPipelineInfo *faGetPipeline(intptr_t pos) {
  return pos >= 0 && pos < faGetNumPipelines() ? &kPipelines[pos] : NULL;
}

const FaPipelineInfo *faLookupPipeline(MlirStringRef argument) {
  for (intptr_t i = 0; i < faGetNumPipelines(); ++i)
    if (mlirStringRefEqual(
            argument, mlirStringRefCreateFromCString(kPipelines[i].argument)))
      return &kPipelines[i];
  return NULL;
}
