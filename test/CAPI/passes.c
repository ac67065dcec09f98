/* C API test: our passes and pipelines by name, mixed with upstream ones in
 * one pass manager, and errors for bad names and options. */
// RUN: fa-capi-passes 2>&1 | FileCheck %s
#include "fa-c/Dialect.h"
#include "fa-c/Passes.h"

#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>

static void print(MlirStringRef s, void *u) { fwrite(s.data, 1, s.length, stdout); }

static int tryPipeline(MlirContext ctx, const char *text) {
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  printf("[%s] ", text);
  MlirLogicalResult r = faParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
                                            mlirStringRefCreateFromCString(text), print, NULL);
  printf(" -> %s\n", mlirLogicalResultIsSuccess(r) ? "ok" : "error");
  mlirPassManagerDestroy(pm);
  return mlirLogicalResultIsSuccess(r);
}

static const char kModel[] =
    "func.func @attn(%q: tensor<8x4xf32>, %k: tensor<6x4xf32>, %v: tensor<6x4xf32>) -> tensor<8x4xf32> {\n"
    "  %z = arith.constant 0.0 : f32\n"
    "  %kt0 = tensor.empty() : tensor<4x6xf32>\n"
    "  %kt = linalg.transpose ins(%k : tensor<6x4xf32>) outs(%kt0 : tensor<4x6xf32>) permutation = [1, 0]\n"
    "  %s0 = tensor.empty() : tensor<8x6xf32>\n"
    "  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x6xf32>) -> tensor<8x6xf32>\n"
    "  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x6xf32>) outs(%sz : tensor<8x6xf32>) -> tensor<8x6xf32>\n"
    "  %p = linalg.softmax dimension(1) ins(%s : tensor<8x6xf32>) outs(%s0 : tensor<8x6xf32>) -> tensor<8x6xf32>\n"
    "  %o0 = tensor.empty() : tensor<8x4xf32>\n"
    "  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>\n"
    "  %o = linalg.matmul ins(%p, %v : tensor<8x6xf32>, tensor<6x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>\n"
    "  return %o : tensor<8x4xf32>\n}\n";

int main(void) {
  mlirRegisterAllPasses();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);

  // CHECK: passes: fa-decompose-attention fa-decompose-softmax fa-expand-erf fa-free-buffers fa-fuse-attention fa-gpu-check-calls fa-gpu-host-memory fa-gpu-kernel-bounds fa-lower-attention fa-lower-blockwise fa-rocdl-intrinsics fa-verify
  printf("passes:");
  for (intptr_t i = 0; i < faGetNumPasses(); ++i)
    printf(" %s", faGetPass(i)->argument);
  // CHECK: pipelines: fa-fuse fa-to-cpu fa-to-nvvm fa-to-rocdl fa-upstream-to-cpu
  printf("\npipelines:");
  for (intptr_t i = 0; i < faGetNumPipelines(); ++i)
    printf(" %s", faGetPipeline(i)->argument);
  printf("\n");
  // CHECK: lookup: 1 0
  printf("lookup: %d %d\n", faLookupPass(mlirStringRefCreateFromCString("fa-verify")) != NULL,
         faLookupPass(mlirStringRefCreateFromCString("fa-nope")) != NULL);

  // CHECK: [builtin.module(fa-fuse-attention{explain},func.func(cse,canonicalize),fa-fuse)]  -> ok
  tryPipeline(ctx, "builtin.module(fa-fuse-attention{explain},func.func(cse,canonicalize),fa-fuse)");
  // CHECK: [builtin.module(fa-fuse-attention{explain=maybe})] unknown or malformed pass option 'explain=maybe' -> error
  tryPipeline(ctx, "builtin.module(fa-fuse-attention{explain=maybe})");
  // CHECK: [builtin.module(no-such-pass)] {{.*}}'no-such-pass' does not refer to a registered pass or pass pipeline
  // CHECK: -> error
  tryPipeline(ctx, "builtin.module(no-such-pass)");
  // CHECK: [func.func(cse)] invalid pass pipeline: pipeline anchor does not match {{.*}} -> error
  tryPipeline(ctx, "func.func(cse)");
  // CHECK: [builtin.module(cse] invalid pass pipeline: expected ')' {{.*}} -> error
  tryPipeline(ctx, "builtin.module(cse");

  /* A host pass manager: our pass object added directly, then run. */
  MlirModule module = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModel));
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  mlirPassManagerAddOwnedPass(pm, faCreateFusionFuseAttention(false));
  MlirLogicalResult r = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  // CHECK: run: 1
  printf("run: %d\n", mlirLogicalResultIsSuccess(r));
  // CHECK: func.func @attn
     // CHECK-NOT: linalg.softmax
     // CHECK: "fa.gridwise_attention"({{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32} : (tensor<1x1x8x4xf32>, tensor<1x1x6x4xf32>, tensor<1x1x6x4xf32>) -> tensor<1x1x8x4xf32>
     // CHECK: tensor.collapse_shape {{.*}} tensor<1x1x8x4xf32> into tensor<8x4xf32>
  mlirOperationPrint(mlirModuleGetOperation(module), print, NULL);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
