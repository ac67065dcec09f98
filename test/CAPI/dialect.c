/* C API test: load the fa dialect, build a fa.gridwise_attention from C,
 * verify it, and see the verifier reject a bad one with a located error. */
// RUN: fa-capi-dialect 2>&1 | FileCheck %s
#include "fa-c/Dialect.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>

static void printToStdout(MlirStringRef s, void *u) { fwrite(s.data, 1, s.length, stdout); }

static MlirLogicalResult printDiag(MlirDiagnostic d, void *u) {
  printf("diagnostic: ");
  mlirDiagnosticPrint(d, printToStdout, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static MlirType tensor4(MlirContext ctx, int64_t a, int64_t b, int64_t c, int64_t d) {
  int64_t shape[4] = {a, b, c, d};
  return mlirRankedTensorTypeGet(4, shape, mlirF16TypeGet(ctx), mlirAttributeGetNull());
}

/* Parses func @f(q, k, v) and inserts, from C, one attention op whose
 * result type is `out` (O in [B, S, H, D] with `oBshd`). */
static MlirModule buildModule(MlirContext ctx, MlirType out, bool causal, bool oBshd) {
  MlirModule module = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(
      "func.func @f(%q: tensor<2x8x16x64xf16>, %k: tensor<2x2x32x64xf16>,"
      " %v: tensor<2x2x32x64xf16>) { return }"));
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  FaAttentionOperands ops = {mlirBlockGetArgument(body, 0), mlirBlockGetArgument(body, 1),
                             mlirBlockGetArgument(body, 2), {NULL}, {NULL}};
  FaAttentionAttrs attrs = {0.125f, causal, 0, true, false, {false, false, false, oBshd}};
  MlirLocation loc = mlirLocationFileLineColGet(ctx, mlirStringRefCreateFromCString("capi.c"), 7, 3);
  MlirOperation attn = faGridwiseAttentionOpCreate(loc, ops, attrs, out);
  mlirBlockInsertOwnedOperationBefore(body, mlirBlockGetFirstOperation(body), attn);
  return module;
}

int main(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(ctx, printDiag, NULL, NULL);

  // CHECK: loaded before: 0
  printf("loaded before: %d\n", faContextIsDialectLoaded(ctx));
  // CHECK: load: 1 twice: 1 after: 1
  int first = mlirLogicalResultIsSuccess(faContextLoadDialect(ctx));
  int second = mlirLogicalResultIsSuccess(faContextLoadDialect(ctx));
  printf("load: %d twice: %d after: %d\n", first, second, faContextIsDialectLoaded(ctx));
  // CHECK: null context: 0
  printf("null context: %d\n",
         mlirLogicalResultIsSuccess(faContextLoadDialect((MlirContext){NULL})));

  MlirModule good = buildModule(ctx, tensor4(ctx, 2, 8, 16, 64), true, false);
  MlirOperation goodOp = mlirModuleGetOperation(good);
  // CHECK: func.func @f
     // CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {causal_offset = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 1.250000e-01 : f32} : (tensor<2x8x16x64xf16>, tensor<2x2x32x64xf16>, tensor<2x2x32x64xf16>) -> (tensor<2x8x16x64xf16>, tensor<2x8x16xf32>)
  mlirOperationPrint(goodOp, printToStdout, NULL);
  // CHECK: good: ir 1 fa 1
  printf("\ngood: ir %d fa %d\n", mlirOperationVerify(goodOp),
         mlirLogicalResultIsSuccess(faOperationVerify(goodOp)));

  MlirModule bad = buildModule(ctx, tensor4(ctx, 2, 8, 17, 64), false, false);
  // CHECK: diagnostic: 'fa.gridwise_attention' op result O dimension 2 (queries) is 17, expected 16
  // CHECK: bad: fa 0
  printf("bad: fa %d\n",
         mlirLogicalResultIsSuccess(faOperationVerify(mlirModuleGetOperation(bad))));
  // CHECK: null op: 0
  printf("null op: %d\n", mlirLogicalResultIsSuccess(faOperationVerify((MlirOperation){NULL})));

  /* O as [B, M, H, Dv]: the lse stays [B, H, M]; the axes follow. */
  MlirModule bshd = buildModule(ctx, tensor4(ctx, 2, 16, 8, 64), false, true);
  MlirOperation bshdFunc = mlirBlockGetFirstOperation(mlirModuleGetBody(bshd));
  MlirOperation bshdOp = mlirBlockGetFirstOperation(
      mlirRegionGetFirstBlock(mlirOperationGetRegion(bshdFunc, 0)));
  // CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {o_bshd, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 1.250000e-01 : f32} : (tensor<2x8x16x64xf16>, tensor<2x2x32x64xf16>, tensor<2x2x32x64xf16>) -> (tensor<2x16x8x64xf16>, tensor<2x8x16xf32>)
  mlirOperationPrint(bshdOp, printToStdout, NULL);
  // CHECK: bshd: fa 1 axes O seq 1 heads 2 K seq 2 head 3 attr o_bshd
  printf("\nbshd: fa %d axes O seq %ld heads %ld K seq %ld head %ld attr %s\n",
         mlirLogicalResultIsSuccess(faOperationVerify(bshdOp)),
         (long)faGridwiseAttentionGetAxis(bshdOp, FA_ATTENTION_O, FA_DIM_SEQ),
         (long)faGridwiseAttentionGetAxis(bshdOp, FA_ATTENTION_O, FA_DIM_HEADS),
         (long)faGridwiseAttentionGetAxis(bshdOp, FA_ATTENTION_K, FA_DIM_SEQ),
         (long)faGridwiseAttentionGetAxis(bshdOp, FA_ATTENTION_K, FA_DIM_HEAD),
         faGridwiseAttentionGetBshdAttrName(FA_ATTENTION_O));

  mlirModuleDestroy(bshd);
  mlirModuleDestroy(good);
  mlirModuleDestroy(bad);
  mlirContextDestroy(ctx);
  return 0;
}
