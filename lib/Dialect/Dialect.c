/* The fa dialect: IRDL definition and loading.
 *
 * IRDL gives us op names, operand/result segments, operand kinds and required
 * attributes. Everything that relates shapes to each other lives in Verify.c. */
#include "Dialect/AttentionAttrs.h"

#include "mlir-c/Dialect/IRDL.h"

/* The attribute list of fa.gridwise_attention's IRDL op, from its table
 * (AttentionAttrs.def): the REQUIRED rows, but the segment sizes, which IRDL
 * derives from the optional operands and results. A required INTEGER or
 * UNIT row would need an IRDL constraint for its kind here first. */
#define FA_IRDL_ATTR_REQUIRED_F32(name) "\"" name "\" = %float"
#define FA_IRDL_ATTR_REQUIRED_SEGMENTS(name)
#define FA_IRDL_ATTR_OPTIONAL_F32(name)
#define FA_IRDL_ATTR_OPTIONAL_INTEGER(name)
#define FA_IRDL_ATTR_OPTIONAL_UNIT(name)
#define FA_IRDL_ATTR_OPTIONAL_SYMBOL(name)
#define FA_IRDL_ATTR_OPTIONAL_SEGMENTS(name)
#define FA_IRDL_ATTR(kind, presence, name) FA_IRDL_ATTR_##presence##_##kind(name)

/* How many there are: the list joins them without a separator, so one. */
enum {
  kIRDLAttrCount = 0
#define FA_ATTENTION_ATTR(ID, name, kind, presence, ...) \
  + (sizeof(FA_IRDL_ATTR(kind, presence, "") "") > 1)
#include "Dialect/AttentionAttrs.def"
};
_Static_assert(kIRDLAttrCount == 1, "join the IRDL attributes with \", \"");

/* Note: in IRDL one constraint value used for several operands forces them
 * to be the same type, so every operand and result has its own constraint. */
static const char kFaIRDL[] =
    "irdl.dialect @fa {\n"
    "  irdl.operation @gridwise_attention {\n"
    "    %q = irdl.base \"!builtin.tensor\"\n"
    "    %k = irdl.base \"!builtin.tensor\"\n"
    "    %v = irdl.base \"!builtin.tensor\"\n"
    "    %bias = irdl.base \"!builtin.tensor\"\n"
    "    %kvlen = irdl.base \"!builtin.tensor\"\n"
    "    %sinks = irdl.base \"!builtin.tensor\"\n"
    "    %c0 = irdl.any\n"
    "    %c1 = irdl.any\n"
    "    %c2 = irdl.any\n"
    "    %c3 = irdl.any\n"
    "    %o = irdl.base \"!builtin.tensor\"\n"
    "    %lse = irdl.base \"!builtin.tensor\"\n"
    "    %float = irdl.base \"#builtin.float\"\n"
    "    irdl.operands(q: %q, k: %k, v: %v, bias: optional %bias,\n"
    "                  kv_len: optional %kvlen, sinks: optional %sinks,\n"
    "                  capture0: optional %c0, capture1: optional %c1,\n"
    "                  capture2: optional %c2, capture3: optional %c3)\n"
    "    irdl.results(o: %o, lse: optional %lse)\n"
    "    irdl.attributes {"
#define FA_ATTENTION_ATTR(ID, name, kind, presence, ...) FA_IRDL_ATTR(kind, presence, name)
#include "Dialect/AttentionAttrs.def"
    "}\n"
    "  }\n"
    "  irdl.operation @blockwise_fill {\n"
    "    %t = irdl.base \"!builtin.tensor\"\n"
    "    %m = irdl.base \"!builtin.memref\"\n"
    "    %f = irdl.base \"!builtin.vector\"\n"
    "    %dest = irdl.any_of(%t, %m, %f)\n"
    "    %f16 = irdl.is f16\n"
    "    %bf16 = irdl.is bf16\n"
    "    %f32 = irdl.is f32\n"
    "    %scalar = irdl.any_of(%f16, %bf16, %f32)\n"
    "    %rt = irdl.base \"!builtin.tensor\"\n"
    "    %rf = irdl.base \"!builtin.vector\"\n"
    "    %res = irdl.any_of(%rt, %rf)\n"
    "    irdl.operands(dest: %dest, value: %scalar)\n"
    "    irdl.results(result: optional %res)\n"
    "  }\n"
    "  irdl.operation @blockwise_reduction {\n"
    "    %t0 = irdl.base \"!builtin.tensor\"\n"
    "    %m0 = irdl.base \"!builtin.memref\"\n"
    "    %f0 = irdl.base \"!builtin.vector\"\n"
    "    %input = irdl.any_of(%t0, %m0, %f0)\n"
    "    %t1 = irdl.base \"!builtin.tensor\"\n"
    "    %m1 = irdl.base \"!builtin.memref\"\n"
    "    %f1 = irdl.base \"!builtin.vector\"\n"
    "    %init = irdl.any_of(%t1, %m1, %f1)\n"
    "    %rt = irdl.base \"!builtin.tensor\"\n"
    "    %rf = irdl.base \"!builtin.vector\"\n"
    "    %res = irdl.any_of(%rt, %rf)\n"
    "    %max = irdl.is \"max\"\n"
    "    %sum = irdl.is \"sum\"\n"
    "    %kind = irdl.any_of(%max, %sum)\n"
    "    %int = irdl.base \"#builtin.integer\"\n"
    "    irdl.operands(input: %input, init: %init)\n"
    "    irdl.results(result: optional %res)\n"
    "    irdl.attributes {\"kind\" = %kind, \"axis\" = %int}\n"
    "  }\n"
    "  irdl.operation @blockwise_gemm {\n"
    "    %ta = irdl.base \"!builtin.tensor\"\n"
    "    %ma = irdl.base \"!builtin.memref\"\n"
    "    %fa = irdl.base \"!builtin.vector\"\n"
    "    %a = irdl.any_of(%ta, %ma, %fa)\n"
    "    %tb = irdl.base \"!builtin.tensor\"\n"
    "    %mb = irdl.base \"!builtin.memref\"\n"
    "    %b = irdl.any_of(%tb, %mb)\n"
    "    %tc = irdl.base \"!builtin.tensor\"\n"
    "    %mc = irdl.base \"!builtin.memref\"\n"
    "    %fc = irdl.base \"!builtin.vector\"\n"
    "    %c = irdl.any_of(%tc, %mc, %fc)\n"
    "    %rt = irdl.base \"!builtin.tensor\"\n"
    "    %rf = irdl.base \"!builtin.vector\"\n"
    "    %res = irdl.any_of(%rt, %rf)\n"
    "    irdl.operands(a: %a, b: %b, c: %c)\n"
    "    irdl.results(result: optional %res)\n"
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
