/* The fa dialect: IRDL definition and loading.
 *
 * IRDL gives us op names, operand/result segments, operand kinds and required
 * attributes. Everything that relates shapes to each other lives in Verify.c. */
#include "fa-c/Dialect.h"

#include "mlir-c/Dialect/IRDL.h"

static const char kFaIRDL[] =
    "irdl.dialect @fa {\n"
    "  irdl.operation @gridwise_attention {\n"
    "    %tensor = irdl.base \"!builtin.tensor\"\n"
    "    %float = irdl.base \"#builtin.float\"\n"
    "    irdl.operands(q: %tensor, k: %tensor, v: %tensor,\n"
    "                  bias: optional %tensor, kv_len: optional %tensor)\n"
    "    irdl.results(o: %tensor, lse: optional %tensor)\n"
    "    irdl.attributes {\"scale\" = %float}\n"
    "  }\n"
    "  irdl.operation @blockwise_fill {\n"
    "    %t = irdl.base \"!builtin.tensor\"\n"
    "    %m = irdl.base \"!builtin.memref\"\n"
    "    %tile = irdl.any_of(%t, %m)\n"
    "    %f16 = irdl.is f16\n"
    "    %bf16 = irdl.is bf16\n"
    "    %f32 = irdl.is f32\n"
    "    %scalar = irdl.any_of(%f16, %bf16, %f32)\n"
    "    irdl.operands(dest: %tile, value: %scalar)\n"
    "    irdl.results(result: optional %t)\n"
    "  }\n"
    "  irdl.operation @blockwise_reduction {\n"
    "    %t = irdl.base \"!builtin.tensor\"\n"
    "    %m = irdl.base \"!builtin.memref\"\n"
    "    %tile = irdl.any_of(%t, %m)\n"
    "    %max = irdl.is \"max\"\n"
    "    %sum = irdl.is \"sum\"\n"
    "    %kind = irdl.any_of(%max, %sum)\n"
    "    %int = irdl.base \"#builtin.integer\"\n"
    "    irdl.operands(input: %tile, init: %tile)\n"
    "    irdl.results(result: optional %t)\n"
    "    irdl.attributes {\"kind\" = %kind, \"axis\" = %int}\n"
    "  }\n"
    "  irdl.operation @blockwise_gemm {\n"
    "    %t = irdl.base \"!builtin.tensor\"\n"
    "    %m = irdl.base \"!builtin.memref\"\n"
    "    %tile = irdl.any_of(%t, %m)\n"
    "    irdl.operands(a: %tile, b: %tile, c: %tile)\n"
    "    irdl.results(result: optional %t)\n"
    "  }\n"
    "}\n";

MlirStringRef faDialectGetIRDLSource(void) {
  return mlirStringRefCreate(kFaIRDL, sizeof(kFaIRDL) - 1);
}

bool faContextIsDialectLoaded(MlirContext ctx) {
  if (mlirContextIsNull(ctx))
    return false;
  MlirDialect d = mlirContextGetOrLoadDialect(
      ctx, mlirStringRefCreateFromCString(FA_DIALECT_NAMESPACE));
  return !mlirDialectIsNull(d);
}

MlirLogicalResult faContextLoadDialect(MlirContext ctx) {
  if (mlirContextIsNull(ctx))
    return mlirLogicalResultFailure();
  if (faContextIsDialectLoaded(ctx))
    return mlirLogicalResultSuccess();
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__irdl__(), ctx);
  MlirModule defs = mlirModuleCreateParse(ctx, faDialectGetIRDLSource());
  if (mlirModuleIsNull(defs))
    return mlirLogicalResultFailure();
  MlirLogicalResult result = mlirLoadIRDLDialects(defs);
  mlirModuleDestroy(defs);
  return result;
}
