/* Links the installed libfa and runs fa-fuse-attention from C. */
#include "fa-c/fa.h"

#include "mlir-c/RegisterEverything.h"

#include <stdio.h>

static void print(MlirStringRef s, void *u) { fwrite(s.data, 1, s.length, stdout); }

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
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  MlirModule module = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(kModel));
  if (mlirModuleIsNull(module))
    return 1;
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  mlirPassManagerAddOwnedPass(pm, faCreateFusionFuseAttention(false));
  MlirLogicalResult r = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  printf("consumer run: %s\n", mlirLogicalResultIsSuccess(r) ? "ok" : "failed");
  mlirOperationPrint(mlirModuleGetOperation(module), print, NULL);
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(ctx);
  return 0;
}
