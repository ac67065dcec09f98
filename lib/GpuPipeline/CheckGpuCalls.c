/* fa-gpu-check-calls: after a gpu.module is in the LLVM dialect, every
 * function it declares without a body is a call into a device library (ocml,
 * libdevice). Pipelines that link no device library run this pass so such a
 * call is a clear error here rather than an unresolved symbol at load time. */
#include "Support/Builders.h"
#include "Registry/Passes.h"
#include "Support/PassSupport.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"

#include <stdio.h>

static bool isBodilessLlvmFunc(MlirOperation op) {
  if (!faOpIsA(op, "llvm.func"))
    return false;
  MlirRegion body = mlirOperationGetRegion(op, 0);
  return mlirBlockIsNull(mlirRegionGetFirstBlock(body));
}

/* Reports the declared functions of one gpu.module; fails if there are any. */
static MlirLogicalResult reportDeclarations(MlirOperation root, MlirOperation gpuModule,
                                            const void *state) {
  int count = 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(gpuModule, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!isBodilessLlvmFunc(op))
      continue;
    MlirStringRef callee = mlirStringAttrGetValue(faOpGetAttr(op, "sym_name"));
    char msg[256];
    snprintf(msg, sizeof msg,
             "kernel calls '%.*s', a device-library function this pipeline "
             "does not link (give the pipeline a toolkit path, e.g. rocm-path=)",
             (int)callee.length, callee.data);
    mlirEmitError(mlirOperationGetLocation(op), msg);
    ++count;
  }
  return count ? mlirLogicalResultFailure() : mlirLogicalResultSuccess();
}

static bool isGpuModule(MlirOperation op) {
  return faOpIsA(op, "gpu.module");
}

static void runCheckGpuCalls(MlirOperation op, MlirExternalPass pass, const void *state) {
  faPassRunOnEach(op, isGpuModule, reportDeclarations, state, pass);
}

static const FaPassDef kCheckGpuCallsPass = {
    "FaGpuCheckCalls", "fa-gpu-check-calls",
    "Reject functions declared but not defined in gpu.modules (device-library calls)",
    "", runCheckGpuCalls, NULL};

MlirPass faGpuCheckCallsPassCreateFromOptions(MlirStringRef options,
                                              MlirStringCallback errorCallback,
                                              void *userData) {
  return faPassCreateWithoutOptions(&kCheckGpuCallsPass, options, errorCallback, userData);
}
