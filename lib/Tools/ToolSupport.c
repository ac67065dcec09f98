/* What the fa-check and fa-compile drivers share: a context with every
 * dialect, translation and pass registered and the fa dialect loaded, set
 * up around a tool's body, and running a textual pipeline on a module. */
#include "Tools/Tools.h"
#include "Tools/Tensors.h"

#include "Support/IRText.h"

#include "fa-c/Dialect.h"
#include "fa-c/Passes.h"

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

const char *faToolName = "fa-opt";

static void printError(MlirStringRef s, void *userData) {
  fwrite(s.data, 1, s.length, stderr);
}

MlirContext faToolContextCreate(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirRegisterAllLLVMTranslations(ctx);
  mlirRegisterAllPasses();
  return ctx;
}

int faToolRunOnFile(const char *path, FaToolBodyFn body, const void *options) {
  FaSource source;
  if (!faSourceRead(path, &source))
    return 2;
  MlirContext ctx = faToolContextCreate();
  FaDiagnostics *diags = faDiagnosticsCreate(ctx, &source, false);
  int status = 2;
  if (mlirLogicalResultIsSuccess(faContextLoadDialect(ctx)))
    status = body(ctx, &source, diags, options);
  faDiagnosticsDestroy(diags);
  mlirContextDestroy(ctx);
  faSourceDestroy(&source);
  return status;
}

bool faModuleRunPipeline(MlirOperation module, const char *pipeline) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirPassManager pm =
      mlirPassManagerCreateOnOperation(ctx, mlirStringRefCreateFromCString("builtin.module"));
  char text[4096];
  snprintf(text, sizeof text, "builtin.module(%s)", pipeline);
  MlirLogicalResult ok = faParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
                                             mlirStringRefCreateFromCString(text), printError,
                                             NULL);
  if (mlirLogicalResultIsSuccess(ok))
    ok = mlirPassManagerRunOnOp(pm, module);
  mlirPassManagerDestroy(pm);
  return mlirLogicalResultIsSuccess(ok);
}

int faEltOfType(MlirType t) {
  if (mlirTypeIsAF32(t)) return ELT_F32;
  if (mlirTypeIsAF16(t)) return ELT_F16;
  if (mlirTypeIsABF16(t)) return ELT_BF16;
  if (mlirTypeIsAInteger(t)) {
    switch (mlirIntegerTypeGetWidth(t)) {
    case 1: return ELT_I1;
    case 32: return ELT_I32;
    case 64: return ELT_I64;
    }
  }
  return ELT_BAD;
}

/* " ELT RANK SIZE..." of a shaped type; " ? 0" for anything else. */
static void appendShapeSignature(FaText *t, MlirType type) {
  if (!mlirTypeIsAShaped(type) || !mlirShapedTypeHasRank(type)) {
    faTextAppend(t, " ? 0");
    return;
  }
  int elt = faEltOfType(mlirShapedTypeGetElementType(type));
  intptr_t rank = mlirShapedTypeGetRank(type);
  faTextAppend(t, " %s %ld", elt == ELT_BAD ? "?" : kEltNames[elt], (long)rank);
  for (intptr_t d = 0; d < rank; ++d)
    faTextAppend(t, " %ld", mlirShapedTypeIsDynamicDim(type, d)
                                ? -1L
                                : (long)mlirShapedTypeGetDimSize(type, d));
}

bool faModuleAppendSignature(MlirOperation module, const char *name, MlirType funcType) {
  FaText sig, global;
  faTextInit(&sig);
  faTextInit(&global);
  intptr_t numIn = mlirFunctionTypeGetNumInputs(funcType);
  intptr_t numOut = mlirFunctionTypeGetNumResults(funcType);
  faTextAppend(&sig, "%ld %ld", (long)numIn, (long)numOut);
  for (intptr_t i = 0; i < numIn; ++i)
    appendShapeSignature(&sig, mlirFunctionTypeGetInput(funcType, i));
  for (intptr_t i = 0; i < numOut; ++i)
    appendShapeSignature(&sig, mlirFunctionTypeGetResult(funcType, i));
  faTextAppend(&global,
               "llvm.mlir.global external constant @\"_fa_signature_%s\"(\"%s\\00\") "
               "{addr_space = 0 : i32}\n",
               name, sig.data);
  bool ok = mlirLogicalResultIsSuccess(faModuleAppendParsed(module, &global));
  faTextDestroy(&sig);
  faTextDestroy(&global);
  return ok;
}
