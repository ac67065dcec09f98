/* fa-expand-erf: replaces f32 math.erf with a call to a polynomial
 * approximation built from exp, for GPU targets that link no device math
 * library (fa-to-rocdl without rocm-path). Abramowitz & Stegun 7.1.26:
 *   erf(x) = sign(x) (1 - t (a1 + t (a2 + t (a3 + t (a4 + t a5)))) e^(-x^2)),
 *   t = 1 / (1 + p |x|), with absolute error below 1.5e-7.
 * Run `inline` afterwards. */
#include "Support/Builders.h"
#include "Support/IRText.h"
#include "Registry/Passes.h"
#include "Support/PassSupport.h"

#include "mlir-c/BuiltinTypes.h"

static const char kErfFunc[] =
    "func.func private @%s(%%x: f32) -> f32 {\n"
    "  %%one = arith.constant 1.0 : f32\n"
    "  %%p = arith.constant 0.3275911 : f32\n"
    "  %%a1 = arith.constant 0.254829592 : f32\n"
    "  %%a2 = arith.constant -0.284496736 : f32\n"
    "  %%a3 = arith.constant 1.421413741 : f32\n"
    "  %%a4 = arith.constant -1.453152027 : f32\n"
    "  %%a5 = arith.constant 1.061405429 : f32\n"
    "  %%ax = math.absf %%x : f32\n"
    "  %%d = math.fma %%p, %%ax, %%one : f32\n"
    "  %%t = arith.divf %%one, %%d : f32\n"
    "  %%h4 = math.fma %%a5, %%t, %%a4 : f32\n"
    "  %%h3 = math.fma %%h4, %%t, %%a3 : f32\n"
    "  %%h2 = math.fma %%h3, %%t, %%a2 : f32\n"
    "  %%h1 = math.fma %%h2, %%t, %%a1 : f32\n"
    "  %%poly = arith.mulf %%h1, %%t : f32\n"
    "  %%x2 = arith.mulf %%ax, %%ax : f32\n"
    "  %%nx2 = arith.negf %%x2 : f32\n"
    "  %%e = math.exp %%nx2 : f32\n"
    "  %%pe = arith.mulf %%poly, %%e : f32\n"
    "  %%r = arith.subf %%one, %%pe : f32\n"
    "  %%s = math.copysign %%r, %%x : f32\n"
    "  return %%s : f32\n"
    "}\n";

static bool isF32Erf(MlirOperation op) {
  return faOpIsA(op, "math.erf") &&
         mlirTypeIsAF32(mlirValueGetType(mlirOperationGetResult(op, 0)));
}

static void runExpandErf(MlirOperation module, MlirExternalPass pass, const void *state) {
  FaOpList ops = faOperationCollect(module, isF32Erf, MlirWalkPreOrder);
  if (ops.size) {
    char callee[64];
    faModuleUniqueSymbol(module, "fa_erf_f32", callee, sizeof callee);
    FaText text;
    faTextInit(&text);
    faTextAppend(&text, kErfFunc, callee);
    if (mlirLogicalResultIsFailure(faModuleAppendParsed(module, &text)))
      mlirExternalPassSignalFailure(pass);
    else
      for (size_t i = 0; i < ops.size; ++i)
        faOperationReplaceWithCall(ops.ops[i], callee);
    faTextDestroy(&text);
  }
  faOpListDestroy(&ops);
}

static const FaPassDef kExpandErfPass = {
    "FaExpandErf", "fa-expand-erf",
    "Replace f32 math.erf with calls to an exp-based approximation (|error| < 1.5e-7)",
    "builtin.module", runExpandErf, faLoweringDialects};

MlirPass faExpandErfPassCreateFromOptions(MlirStringRef options,
                                          MlirStringCallback errorCallback,
                                          void *userData) {
  return faPassCreateWithoutOptions(&kExpandErfPass, options, errorCallback, userData);
}
