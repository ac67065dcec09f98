/* The table of our passes and named pipelines, for lookup by name (pipeline
 * text, fa-opt flags, --help, the mlir-opt plugin). */
#include "Passes.h"

#include <string.h>

static const FaPassInfo kPasses[] = {
    {"fa-fuse-attention",
     "Rewrite gemm-softmax-gemm chains (linalg, tosa) into fa.gridwise_attention",
     "explain[=true|false]: emit a remark for each refused candidate",
     faFuseAttentionPassCreateFromOptions},
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
  mlirOpPassManagerAddOwnedPass(pm, faCreateVerifyPassOwned());
  mlirOpPassManagerAddOwnedPass(pm, fuse);
  mlirOpPassManagerAddOwnedPass(pm, faCreateVerifyPassOwned());
  return mlirLogicalResultSuccess();
}

static const FaPipelineInfo kPipelines[] = {
    {"fa-fuse",
     "fa-verify, fa-fuse-attention, fa-verify: fuse attention in model IR and "
     "check every fa op before and after",
     "explain[=true|false]: as for fa-fuse-attention", buildFusePipeline},
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
