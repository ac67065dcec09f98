/* fa-verify: the checks of faOperationVerify as a pass, so pipelines (and
 * mlir-opt with our plugin) can verify fa ops at any point. */
#include "Registry/Passes.h"
#include "Support/PassSupport.h"

#include "fa-c/Dialect.h"

static void runVerify(MlirOperation op, MlirExternalPass pass,
                      const void *state) {
  if (mlirLogicalResultIsFailure(faOperationVerify(op)))
    mlirExternalPassSignalFailure(pass);
}

const FaPassDef faVerifyPassDef = {
    "FaVerify", "fa-verify",
    "Check fa ops beyond their IRDL definition (shapes, types, attributes)",
    "", runVerify, NULL};

MlirPass faCreateDialectVerify(void) {
  return faPassCreate(&faVerifyPassDef, NULL, 0);
}

MlirPass faVerifyPassCreateFromOptions(MlirStringRef options,
                                       MlirStringCallback errorCallback,
                                       void *userData) {
  return faPassCreateWithoutOptions(&faVerifyPassDef, options, errorCallback, userData);
}
