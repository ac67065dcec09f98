/* fa-decompose-softmax: linalg.softmax left in a model (an attention that was
 * not fused, a plain classifier head) has no lowering in MLIR 22's pipelines;
 * this pass decomposes it with upstream's own AggregatedOpInterface, by
 * applying the transform script decompose_softmax.mlir. Every pipeline runs
 * it after fusion (which wants to see linalg.softmax) and before
 * bufferization, the reference pipeline fa-upstream-to-cpu included. */
#include "Support/Builders.h"
#include "Registry/Passes.h"
#include "Support/PassSupport.h"
#include "Support/Template.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/Transform/Interpreter.h"

static bool isSoftmax(MlirOperation op) { return faOpIsA(op, "linalg.softmax"); }

static MlirLogicalResult applyScript(MlirOperation module) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirModule script =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(faTemplateDecomposeSoftmax));
  if (mlirModuleIsNull(script))
    return mlirLogicalResultFailure();
  MlirOperation scriptOp = mlirModuleGetOperation(script);
  MlirOperation entry = mlirBlockGetFirstOperation(mlirModuleGetBody(script));
  MlirTransformOptions options = mlirTransformOptionsCreate();
  MlirLogicalResult ok = mlirTransformApplyNamedSequence(module, entry, scriptOp, options);
  mlirTransformOptionsDestroy(options);
  mlirModuleDestroy(script);
  return ok;
}

static void runDecomposeSoftmax(MlirOperation module, MlirExternalPass pass, const void *state) {
  FaOpList softmaxes = faOperationCollect(module, isSoftmax, MlirWalkPreOrder);
  bool any = softmaxes.size > 0;
  faOpListDestroy(&softmaxes);
  if (any && mlirLogicalResultIsFailure(applyScript(module)))
    mlirExternalPassSignalFailure(pass);
}

static const FaPassDef kDecomposeSoftmaxPass = {
    "FaDecomposeSoftmax", "fa-decompose-softmax",
    "Decompose linalg.softmax into linalg.generic ops (upstream's decomposition, through "
    "the transform interpreter)",
    "builtin.module", runDecomposeSoftmax, NULL};

MlirPass faDecomposeSoftmaxPassCreateFromOptions(MlirStringRef options,
                                                 MlirStringCallback errorCallback,
                                                 void *userData) {
  return faPassCreateWithoutOptions(&kDecomposeSoftmaxPass, options, errorCallback, userData);
}
