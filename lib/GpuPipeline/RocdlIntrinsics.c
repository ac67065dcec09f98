/* fa-rocdl-intrinsics: in gpu.modules already in the LLVM dialect, a call of
 * an ocml function that computes what an LLVM intrinsic computes, and that
 * the AMDGPU backend lowers natively (v_floor_f32, v_log_f32, v_exp_f16, ...),
 * becomes that intrinsic. convert-gpu-to-rocdl turns math ops into ocml calls
 * and forbids the intrinsics it would otherwise be given, so a pipeline that
 * links no device library (fa-to-rocdl without rocm-path) runs this pass
 * before fa-gpu-check-calls. Transcendentals only for f16/f32: AMDGPU has no
 * native f64 exp, log or sine. */
#include "Support/Builders.h"
#include "Registry/Passes.h"
#include "Support/PassSupport.h"

#include "mlir-c/BuiltinAttributes.h"

#include <stdio.h>
#include <string.h>

/* ocml name (without __ocml_ and the type suffix) -> LLVM intrinsic name. */
typedef struct {
  const char *ocml, *intrinsic;
  bool f64;
} Mapping;

static const Mapping kMappings[] = {
    {"floor", "floor", true}, {"ceil", "ceil", true},   {"trunc", "trunc", true},
    {"rint", "rint", true},   {"fabs", "fabs", true},   {"sqrt", "sqrt", true},
    {"fma", "fma", true},     {"exp", "exp", false},    {"exp2", "exp2", false},
    {"log", "log", false},    {"log2", "log2", false},  {"log10", "log10", false},
    {"sin", "sin", false},    {"cos", "cos", false},
};

/* The intrinsic ("llvm.floor.f32") for callee "__ocml_floor_f32", or false. */
static bool intrinsicFor(MlirStringRef callee, char *out, size_t size) {
  static const char *const kTypes[] = {"f16", "f32", "f64"};
  for (size_t i = 0; i < sizeof kMappings / sizeof kMappings[0]; ++i)
    for (int t = 0; t < 3; ++t) {
      if (t == 2 && !kMappings[i].f64)
        continue;
      char name[64];
      snprintf(name, sizeof name, "__ocml_%s_%s", kMappings[i].ocml, kTypes[t]);
      if (mlirStringRefEqual(callee, mlirStringRefCreateFromCString(name))) {
        snprintf(out, size, "llvm.%s.%s", kMappings[i].intrinsic, kTypes[t]);
        return true;
      }
    }
  return false;
}

static MlirNamedAttribute parsedAttr(MlirContext ctx, const char *name, const char *text) {
  return faNamedAttributeGet(ctx, name,
                             mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(text)));
}

/* Replaces `call` with llvm.call_intrinsic `intrinsic` on the same operands. */
static void replaceWithIntrinsic(MlirOperation call, const char *intrinsic) {
  MlirContext ctx = mlirOperationGetContext(call);
  intptr_t n = mlirOperationGetNumOperands(call);
  MlirValue operands[4];
  for (intptr_t i = 0; i < n && i < 4; ++i)
    operands[i] = mlirOperationGetOperand(call, i);
  char segments[64];
  snprintf(segments, sizeof segments, "array<i32: %ld, 0>", (long)n);
  MlirNamedAttribute attrs[4] = {
      faNamedAttributeGet(ctx, "intrin",
                          mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(intrinsic))),
      parsedAttr(ctx, "fastmathFlags", "#llvm.fastmath<none>"),
      parsedAttr(ctx, "op_bundle_sizes", "array<i32>"),
      parsedAttr(ctx, "operandSegmentSizes", segments)};
  MlirType result = mlirValueGetType(mlirOperationGetResult(call, 0));
  MlirOperation op =
      faOperationCreateBefore(call, "llvm.call_intrinsic", n, operands, 1, &result, 4, attrs);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(call, 0), mlirOperationGetResult(op, 0));
  mlirOperationDestroy(call);
}

static bool isLlvmCall(MlirOperation op) {
  return faOpIsA(op, "llvm.call") && mlirOperationGetNumResults(op) == 1 &&
         mlirOperationGetNumOperands(op) <= 4 &&
         !mlirAttributeIsNull(faOpGetAttr(op, "callee"));
}

/* A declaration (bodiless llvm.func) of an ocml function we map. */
static bool isMappedDeclaration(MlirOperation op) {
  char intrinsic[64];
  return faOpIsA(op, "llvm.func") &&
         mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0))) &&
         intrinsicFor(mlirStringAttrGetValue(faOpGetAttr(op, "sym_name")), intrinsic,
                      sizeof intrinsic);
}

static void runRocdlIntrinsics(MlirOperation module, MlirExternalPass pass, const void *state) {
  FaOpList calls = faOperationCollect(module, isLlvmCall, MlirWalkPreOrder);
  for (size_t i = 0; i < calls.size; ++i) {
    char intrinsic[64];
    MlirStringRef callee = mlirFlatSymbolRefAttrGetValue(faOpGetAttr(calls.ops[i], "callee"));
    if (intrinsicFor(callee, intrinsic, sizeof intrinsic))
      replaceWithIntrinsic(calls.ops[i], intrinsic);
  }
  faOpListDestroy(&calls);
  /* Every call of a mapped function was replaced: its declaration is dead. */
  FaOpList decls = faOperationCollect(module, isMappedDeclaration, MlirWalkPreOrder);
  for (size_t i = 0; i < decls.size; ++i)
    mlirOperationDestroy(decls.ops[i]);
  faOpListDestroy(&decls);
}

static const FaPassDef kRocdlIntrinsicsPass = {
    "FaRocdlIntrinsics", "fa-rocdl-intrinsics",
    "Replace ocml calls that have an LLVM intrinsic AMDGPU lowers natively with that intrinsic",
    "", runRocdlIntrinsics, NULL};

MlirPass faRocdlIntrinsicsPassCreateFromOptions(MlirStringRef options,
                                                MlirStringCallback errorCallback,
                                                void *userData) {
  return faPassCreateWithoutOptions(&kRocdlIntrinsicsPass, options, errorCallback, userData);
}
