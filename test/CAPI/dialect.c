/* C API test: load the fa dialect, build a fa.gridwise_attention from C,
 * verify it, and see the verifier reject a bad one with a located error;
 * read every attribute and operand back through the typed getters. */
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

/* The body of the module's function. */
static MlirBlock funcBody(MlirModule module) {
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
}

/* Parses `func` and inserts, from C, one attention op of its arguments (q,
 * k, v, then bias and kv_len if it has five) whose result type is `out`. */
static MlirModule buildModuleFrom(MlirContext ctx, const char *func, FaAttentionAttrs attrs,
                                  MlirType out) {
  MlirModule module = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(func));
  MlirBlock body = funcBody(module);
  bool full = mlirBlockGetNumArguments(body) == 5;
  FaAttentionOperands ops = {.q = mlirBlockGetArgument(body, 0),
                             .k = mlirBlockGetArgument(body, 1),
                             .v = mlirBlockGetArgument(body, 2),
                             .bias = full ? mlirBlockGetArgument(body, 3) : (MlirValue){NULL},
                             .kvLen = full ? mlirBlockGetArgument(body, 4) : (MlirValue){NULL}};
  MlirLocation loc = mlirLocationFileLineColGet(ctx, mlirStringRefCreateFromCString("capi.c"), 7, 3);
  MlirOperation attn = faGridwiseAttentionOpCreate(loc, ops, attrs, out);
  mlirBlockInsertOwnedOperationBefore(body, mlirBlockGetFirstOperation(body), attn);
  return module;
}

/* func @f(q, k, v) with one attention op whose result type is `out` (O in
 * [B, S, H, D] with `oBshd`). */
static MlirModule buildModule(MlirContext ctx, MlirType out, bool causal, bool oBshd) {
  FaAttentionAttrs attrs = {0.125f, causal, 0, true, false, {false, false, false, oBshd}, {0}, NULL, NULL};
  return buildModuleFrom(ctx,
                         "func.func @f(%q: tensor<2x8x16x64xf16>, %k: tensor<2x2x32x64xf16>,"
                         " %v: tensor<2x2x32x64xf16>) { return }",
                         attrs, out);
}

/* func @g(q, k, v, bias, kv_len), Q in [B, S, H, D], K transposed, causal
 * with offset -3, an LSE and every tiling hint, `blockN` its block_n. */
static MlirModule buildFullModule(MlirContext ctx, int64_t blockN) {
  FaAttentionAttrs attrs = {.scale = 0.5f, .causal = true, .causalOffset = -3, .withLse = true,
                            .kTransposed = true, .bshd = {[FA_ATTENTION_Q] = true},
                            .hints = {64, blockN, 4, 2, 2}};
  return buildModuleFrom(ctx,
                         "func.func @g(%q: tensor<2x16x8x64xf16>, %k: tensor<2x2x64x32xf16>,"
                         " %v: tensor<2x2x32x64xf16>, %bias: tensor<2x1x1x32xf32>,"
                         " %kv_len: tensor<2xi32>) { return }",
                         attrs, tensor4(ctx, 2, 8, 16, 64));
}

/* The attention op, the first of the module's function. */
static MlirOperation attentionOf(MlirModule module) {
  return mlirBlockGetFirstOperation(funcBody(module));
}

/* "argN", or "-" for a null value. */
static void printValue(const char *what, MlirValue v) {
  if (mlirValueIsNull(v))
    printf(" %s -", what);
  else
    printf(" %s arg%ld", what, (long)mlirBlockArgumentGetArgNumber(v));
}

/* Every getter of fa-c/Dialect.h on `op`, on three lines. */
static void printGetters(const char *label, MlirOperation op) {
  int64_t offset = 42;
  bool causal = faGridwiseAttentionGetCausalOffset(op, &offset);
  printf("%s: scale %g causal %d offset %ld null-offset %d k_transposed %d bshd", label,
         faGridwiseAttentionGetScale(op), causal, (long)offset,
         faGridwiseAttentionGetCausalOffset(op, NULL), faGridwiseAttentionIsKTransposed(op));
  for (int t = FA_ATTENTION_Q; t <= FA_ATTENTION_O; ++t)
    printf(" %d", faGridwiseAttentionIsBshd(op, t));
  printf(" lse %d\n%s: hints", faGridwiseAttentionHasLse(op), label);
  for (int h = 0; h < FA_ATTENTION_HINT_COUNT; ++h)
    printf(" %ld", (long)faGridwiseAttentionGetIntHint(op, h, -1));
  printf("\n%s: operands", label);
  static const char *const kSegments[FA_ATTENTION_SEGMENT_COUNT] = {"q", "k", "v", "bias",
                                                                    "kv_len", "sinks",
                                                                    "capture0", "capture1",
                                                                    "capture2", "capture3"};
  for (int s = 0; s < FA_ATTENTION_SEGMENT_COUNT; ++s)
    printValue(kSegments[s], faGridwiseAttentionGetOperand(op, s));
  printValue("GetBias", faGridwiseAttentionGetBias(op));
  printValue("GetKvLen", faGridwiseAttentionGetKvLen(op));
  printf(" GetAttr(scale) %d GetAttr(block_m) %d\n",
         !mlirAttributeIsNull(faGridwiseAttentionGetAttr(op, FA_ATTENTION_ATTR_SCALE)),
         !mlirAttributeIsNull(faGridwiseAttentionGetAttr(op, FA_ATTENTION_ATTR_BLOCK_M)));
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
     // CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {causal_offset = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.250000e-01 : f32} : (tensor<2x8x16x64xf16>, tensor<2x2x32x64xf16>, tensor<2x2x32x64xf16>) -> (tensor<2x8x16x64xf16>, tensor<2x8x16xf32>)
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
  MlirOperation bshdOp = attentionOf(bshd);
  // CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {o_bshd, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.250000e-01 : f32} : (tensor<2x8x16x64xf16>, tensor<2x2x32x64xf16>, tensor<2x2x32x64xf16>) -> (tensor<2x16x8x64xf16>, tensor<2x8x16xf32>)
  mlirOperationPrint(bshdOp, printToStdout, NULL);
  // CHECK: bshd: fa 1 axes O seq 1 heads 2 K seq 2 head 3 attr o_bshd
  printf("\nbshd: fa %d axes O seq %ld heads %ld K seq %ld head %ld attr %s\n",
         mlirLogicalResultIsSuccess(faOperationVerify(bshdOp)),
         (long)faGridwiseAttentionGetAxis(bshdOp, FA_ATTENTION_O, FA_DIM_SEQ),
         (long)faGridwiseAttentionGetAxis(bshdOp, FA_ATTENTION_O, FA_DIM_HEADS),
         (long)faGridwiseAttentionGetAxis(bshdOp, FA_ATTENTION_K, FA_DIM_SEQ),
         (long)faGridwiseAttentionGetAxis(bshdOp, FA_ATTENTION_K, FA_DIM_HEAD),
         faGridwiseAttentionGetBshdAttrName(FA_ATTENTION_O));

  /* The table's names, in FaAttentionAttr order. */
  // CHECK: names: scale causal_offset mask score_mod k_transposed q_bshd k_bshd v_bshd o_bshd block_m block_n warps stages pv_split operandSegmentSizes resultSegmentSizes|
  printf("names:");
  for (int a = 0; a <= FA_ATTENTION_ATTR_COUNT; ++a)
    printf(a < FA_ATTENTION_ATTR_COUNT ? " %s" : "%s|\n", faGridwiseAttentionGetAttrName(a));

  /* Every getter on the ops built above and on a null op. */
  // CHECK: good: scale 0.125 causal 1 offset 0 null-offset 1 k_transposed 0 bshd 0 0 0 0 lse 1
  // CHECK: good: hints -1 -1 -1 -1 -1
  // CHECK: good: operands q arg0 k arg1 v arg2 bias - kv_len - sinks - capture0 - capture1 - capture2 - capture3 - GetBias - GetKvLen - GetAttr(scale) 1 GetAttr(block_m) 0
  printGetters("good", attentionOf(good));
  // CHECK: bshd: scale 0.125 causal 0 offset 0 null-offset 0 k_transposed 0 bshd 0 0 0 1 lse 1
  printGetters("bshd", bshdOp);
  // CHECK: null: scale 1 causal 0 offset 0 null-offset 0 k_transposed 0 bshd 0 0 0 0 lse 0
  // CHECK: null: hints -1 -1 -1 -1 -1
  // CHECK: null: operands q - k - v - bias - kv_len - sinks - capture0 - capture1 - capture2 - capture3 - GetBias - GetKvLen - GetAttr(scale) 0 GetAttr(block_m) 0
  printGetters("null", (MlirOperation){NULL});

  /* Bias, kv_len, k_transposed, q_bshd and the hints, built and read back. */
  MlirModule full = buildFullModule(ctx, 32);
  MlirOperation fullOp = attentionOf(full);
  // CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %arg3, %arg4) {block_m = 64 : i64, block_n = 32 : i64, causal_offset = -3 : i64, k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0, 0, 0>, pv_split = 2 : i64, q_bshd, scale = 5.000000e-01 : f32, stages = 2 : i64, warps = 4 : i64} : (tensor<2x16x8x64xf16>, tensor<2x2x64x32xf16>, tensor<2x2x32x64xf16>, tensor<2x1x1x32xf32>, tensor<2xi32>) -> (tensor<2x8x16x64xf16>, tensor<2x8x16xf32>)
  mlirOperationPrint(fullOp, printToStdout, NULL);
  // CHECK: full: ir 1 fa 1
  printf("\nfull: ir %d fa %d\n", mlirOperationVerify(fullOp),
         mlirLogicalResultIsSuccess(faOperationVerify(fullOp)));
  // CHECK: full: scale 0.5 causal 1 offset -3 null-offset 1 k_transposed 1 bshd 1 0 0 0 lse 1
  // CHECK: full: hints 64 32 4 2 2
  // CHECK: full: operands q arg0 k arg1 v arg2 bias arg3 kv_len arg4 sinks - capture0 - capture1 - capture2 - capture3 - GetBias arg3 GetKvLen arg4 GetAttr(scale) 1 GetAttr(block_m) 1
  printGetters("full", fullOp);

  /* A hint out of the table's range, from C. */
  MlirModule badHint = buildFullModule(ctx, 1024);
  // CHECK: diagnostic: 'fa.gridwise_attention' op attribute 'block_n' is 1024, expected a value in [1, 512]
  // CHECK: bad hint: fa 0
  printf("bad hint: fa %d\n",
         mlirLogicalResultIsSuccess(faOperationVerify(attentionOf(badHint))));

  mlirModuleDestroy(badHint);
  mlirModuleDestroy(full);
  mlirModuleDestroy(bshd);
  mlirModuleDestroy(good);
  mlirModuleDestroy(bad);
  mlirContextDestroy(ctx);
  return 0;
}
