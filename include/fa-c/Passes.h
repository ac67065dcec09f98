/*===-- fa-c/Passes.h - Passes and named pipelines ----------------*- C -*-===*\
|* Every pass is an MlirPass the caller owns until it is added to a pass       *|
|* manager (mlirOpPassManagerAddOwnedPass takes it). Creators are named as     *|
|* MLIR's, faCreate<Group><Pass>, the group being the lib/ directory of the    *|
|* pass. Passes and named pipelines are also reachable by name through         *|
|* faParsePassPipeline, which accepts MLIR's textual pipeline syntax and mixes *|
|* our passes with every upstream pass and pipeline.                           *|
\*===----------------------------------------------------------------------===*/
#ifndef FA_C_PASSES_H
#define FA_C_PASSES_H

#include "fa-c/Support.h"

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Checks whether a pass handle is null (e.g. after bad options).
static inline bool faPassIsNull(MlirPass pass) { return !pass.ptr; }

/// `fa-verify`: runs faOperationVerify on the anchor op; fails on error.
FA_CAPI_EXPORTED MlirPass faCreateDialectVerify(void);

/// `fa-fuse-attention`: rewrites gemm-softmax-gemm chains into
/// fa.gridwise_attention. If `explain` is true, each refused candidate gets a
/// remark at its location saying which step did not match.
FA_CAPI_EXPORTED MlirPass faCreateFusionFuseAttention(bool explain);

/// `fa-lower-attention{target=cpu|gpu}`: replaces each fa.gridwise_attention
/// with a call of a generated kernel (the tiled online-softmax loop built from
/// fa.blockwise_* ops on memref tiles) behind bufferization.to_buffer /
/// to_tensor, so that one-shot bufferization sees only upstream ops.
FA_CAPI_EXPORTED MlirPass faCreateLoweringLowerAttention(bool gpu);

/// `fa-lower-blockwise{target=cpu|gpu}`: replaces each fa.blockwise_* op on
/// memref tiles with a call of a generated function: workgroup loops on the
/// CPU; threads, warp shuffles and barriers on GPUs. Run `inline` after it.
/// (The tensor-core targets, nvvm and nvvm-sm90a, of both lowerings are
/// reached by name: faParsePassPipeline, faLookupPass.)
FA_CAPI_EXPORTED MlirPass faCreateLoweringLowerBlockwise(bool gpu);

/// A pass of ours, by name. `create` parses the pass options (the text between
/// braces in a pipeline, possibly empty) and returns a null pass on bad
/// options, after reporting them through `errorCallback`.
typedef struct FaPassInfo {
  const char *argument;
  const char *description;
  const char *options; /* human-readable option list for --help, or "" */
  MlirPass (*create)(MlirStringRef options, MlirStringCallback errorCallback,
                     void *userData);
} FaPassInfo;

FA_CAPI_EXPORTED intptr_t faGetNumPasses(void);
FA_CAPI_EXPORTED const FaPassInfo *faGetPass(intptr_t pos);
/// Returns the pass registered under `argument`, or NULL.
FA_CAPI_EXPORTED const FaPassInfo *faLookupPass(MlirStringRef argument);

/// A named pipeline of ours: expands to passes added to `pm`.
typedef struct FaPipelineInfo {
  const char *argument;
  const char *description;
  const char *options;
  MlirLogicalResult (*build)(MlirOpPassManager pm, MlirStringRef options,
                             MlirStringCallback errorCallback, void *userData);
} FaPipelineInfo;

FA_CAPI_EXPORTED intptr_t faGetNumPipelines(void);
FA_CAPI_EXPORTED const FaPipelineInfo *faGetPipeline(intptr_t pos);
FA_CAPI_EXPORTED const FaPipelineInfo *faLookupPipeline(MlirStringRef argument);

/// Parses a textual pass pipeline (MLIR syntax, e.g.
/// "builtin.module(fa-fuse-attention,func.func(canonicalize))") into `pm`,
/// whose anchor must match the outermost op name. Our passes and pipelines are
/// resolved by name; everything else goes to MLIR's registry (call
/// mlirRegisterAllPasses first). Errors go to `errorCallback`.
FA_CAPI_EXPORTED MlirLogicalResult
faParsePassPipeline(MlirOpPassManager pm,
                    MlirStringRef pipeline,
                    MlirStringCallback errorCallback,
                    void *userData);

/// Adds pipeline elements (no anchor, e.g. "fa-fuse-attention,cse") to `pm`.
FA_CAPI_EXPORTED MlirLogicalResult
faOpPassManagerAddPipeline(MlirOpPassManager pm,
                           MlirStringRef elements,
                           MlirStringCallback errorCallback,
                           void *userData);

#ifdef __cplusplus
}
#endif
#endif /* FA_C_PASSES_H */
