/* fa-lower-blockwise: fa.blockwise_fill / _reduction / _gemm on memref
 * tiles -> loops run by the threads of a workgroup.
 *
 * Each op becomes a call of a private function written for its operand types,
 * attributes and the target (one per distinct signature); `inline` then puts
 * the loops in place. Fill and GEMM distribute elements over the workgroup's
 * threads (Lowering.h); a reduction is a loop per row on the CPU and, on GPUs,
 * one warp per row: lanes combine strided partials, then a butterfly of
 * gpu.shuffle xor. On GPUs every op ends with a barrier. The GEMM keeps its
 * own function so that a tensor-core lowering can replace only it. */
#include "Support/Builders.h"
#include "Lowering/Kernels/Common/BlockwiseMma.h"
#include "Support/IRText.h"
#include "Lowering/Lowering.h"
#include "Support/PassSupport.h"
#include "Registry/Passes.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  FaTarget target;
  /* Templates made in this run: signature key -> symbol. */
  char **keys, **names;
  bool *fragment; /* inlined here: nvgpu ops stop MLIR's inliner */
  size_t size, cap;
} Templates;

static int64_t dimOf(MlirValue v, intptr_t d) {
  return mlirShapedTypeGetDimSize(mlirValueGetType(v), d);
}

static const char *checkOperands(MlirOperation op, FaTarget target) {
  if (faBlockwiseIsFragment(op))
    return faTargetIsNvvm(target)
               ? faBlockwiseMmaUnsupported(op)
               : "register fragments are lowered only with target=nvvm";
  for (intptr_t i = 0, e = mlirOperationGetNumOperands(op); i < e; ++i) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, i));
    if (!mlirTypeIsAShaped(t))
      continue;
    if (!mlirTypeIsAMemRef(t))
      return "only ops on memref tiles are lowered (bufferize tensor tiles first)";
    if (!mlirShapedTypeHasStaticShape(t))
      return "tile shapes must be static";
    if (!mlirTypeIsAF32(mlirShapedTypeGetElementType(t)))
      return "tiles must hold f32";
  }
  return NULL;
}

/* Signature of a template: op name, attributes, operand types. */
static void appendKey(FaText *t, MlirOperation op) {
  faTextAppend(t, "%.*s", (int)mlirIdentifierStr(mlirOperationGetName(op)).length,
               mlirIdentifierStr(mlirOperationGetName(op)).data);
  for (intptr_t i = 0, e = mlirOperationGetNumAttributes(op); i < e; ++i) {
    MlirNamedAttribute a = mlirOperationGetAttribute(op, i);
    faTextAppend(t, " %.*s=", (int)mlirIdentifierStr(a.name).length,
                 mlirIdentifierStr(a.name).data);
    faTextAppendAttribute(t, a.attribute);
  }
  for (intptr_t i = 0, e = mlirOperationGetNumOperands(op); i < e; ++i) {
    faTextAppend(t, " ");
    faTextAppendType(t, mlirValueGetType(mlirOperationGetOperand(op, i)));
  }
}

/* func.func private @NAME(%a0: T0, %a1: T1, ...) { + thread ids */
static void appendHeader(FaText *t, MlirOperation op, const char *name,
                         FaTarget target) {
  faTextAppend(t, "func.func private @%s(", name);
  for (intptr_t i = 0, e = mlirOperationGetNumOperands(op); i < e; ++i) {
    faTextAppend(t, "%s%%a%ld: ", i ? ", " : "", (long)i);
    faTextAppendType(t, mlirValueGetType(mlirOperationGetOperand(op, i)));
  }
  faTextAppend(t, ") {\n  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n");
  faTextAppendThreadIds(t, target);
}

static void appendFooter(FaText *t, FaTarget target) {
  faTextAppendBarrier(t, target);
  faTextAppend(t, "  return\n}\n");
}

/* dest[...] = value over the whole tile. */
static void appendFill(FaText *t, MlirOperation op, const char *name, FaTarget target) {
  MlirValue dest = mlirOperationGetOperand(op, 0);
  MlirType type = mlirValueGetType(dest);
  intptr_t rank = mlirShapedTypeGetRank(type);
  appendHeader(t, op, name, target);
  int64_t cols = dimOf(dest, rank - 1), size = rank == 2 ? dimOf(dest, 0) * cols : cols;
  faTextAppend(t, "  %%n = arith.constant %ld : index\n  %%w = arith.constant %ld : index\n",
               (long)size, (long)cols);
  faTextAppendElementLoop(t, "e", "%n");
  if (rank == 2)
    faTextAppend(t, "    %%r = arith.divui %%e, %%w : index\n"
                    "    %%c = arith.remui %%e, %%w : index\n"
                    "    memref.store %%a1, %%a0[%%r, %%c] : ");
  else
    faTextAppend(t, "    memref.store %%a1, %%a0[%%e] : ");
  faTextAppendType(t, type);
  faTextAppend(t, "\n  }\n");
  appendFooter(t, target);
}

/* c[i, j] += sum_k a[i, k] * b[k, j] (b[j, k] with transpose_b). */
static void appendGemm(FaText *t, MlirOperation op, const char *name, FaTarget target) {
  MlirValue a = mlirOperationGetOperand(op, 0), c = mlirOperationGetOperand(op, 2);
  bool tb = !mlirAttributeIsNull(faOpGetAttr(op, "transpose_b"));
  appendHeader(t, op, name, target);
  faTextAppend(t, "  %%n = arith.constant %ld : index\n  %%w = arith.constant %ld : index\n"
                  "  %%kk = arith.constant %ld : index\n",
               (long)(dimOf(c, 0) * dimOf(c, 1)), (long)dimOf(c, 1), (long)dimOf(a, 1));
  faTextAppendElementLoop(t, "e", "%n");
  faTextAppend(t, "    %%i = arith.divui %%e, %%w : index\n"
                  "    %%j = arith.remui %%e, %%w : index\n"
                  "    %%init = memref.load %%a2[%%i, %%j] : ");
  faTextAppendType(t, mlirValueGetType(c));
  faTextAppend(t, "\n    %%s = scf.for %%k = %%c0 to %%kk step %%c1 iter_args(%%acc = %%init) -> (f32) {\n"
                  "      %%x = memref.load %%a0[%%i, %%k] : ");
  faTextAppendType(t, mlirValueGetType(a));
  faTextAppend(t, "\n      %%y = memref.load %%a1[%s] : ", tb ? "%j, %k" : "%k, %j");
  faTextAppendType(t, mlirValueGetType(mlirOperationGetOperand(op, 1)));
  faTextAppend(t, "\n      %%p = arith.mulf %%x, %%y : f32\n"
                  "      %%q = arith.addf %%acc, %%p : f32\n"
                  "      scf.yield %%q : f32\n    }\n"
                  "    memref.store %%s, %%a2[%%i, %%j] : ");
  faTextAppendType(t, mlirValueGetType(c));
  faTextAppend(t, "\n  }\n");
  appendFooter(t, target);
}

/* init[r] = combine(init[r], reduce over `axis` of input). */
static void appendReduction(FaText *t, MlirOperation op, const char *name,
                            FaTarget target) {
  MlirValue in = mlirOperationGetOperand(op, 0);
  int64_t axis = mlirIntegerAttrGetValueInt(faOpGetAttr(op, "axis"));
  MlirStringRef kind = mlirStringAttrGetValue(faOpGetAttr(op, "kind"));
  bool isMax = kind.length == 3 && strncmp(kind.data, "max", 3) == 0;
  const char *combine = isMax ? "arith.maximumf" : "arith.addf";
  const char *idx = axis == 1 ? "%r, %c" : "%c, %r";
  appendHeader(t, op, name, target);
  faTextAppend(t, "  %%kept = arith.constant %ld : index\n  %%len = arith.constant %ld : index\n"
                  "  %%ident = arith.constant %s : f32\n",
               (long)dimOf(in, 1 - axis), (long)dimOf(in, axis), isMax ? "0xFF800000" : "0.0");
  bool gpu = faTargetIsGpu(target);
  if (gpu)
    faTextAppend(t, "  %%cw = arith.constant %d : index\n  %%lane = arith.remui %%tid, %%cw : index\n"
                    "  %%warp = arith.divui %%tid, %%cw : index\n  %%nw = arith.divui %%nth, %%cw : index\n"
                    "  %%width = arith.constant %d : i32\n",
                 FA_WARP_SIZE, FA_WARP_SIZE);
  faTextAppend(t, "  scf.for %%r = %s to %%kept step %s {\n", gpu ? "%warp" : "%c0",
               gpu ? "%nw" : "%c1");
  faTextAppend(t, "    %%part = scf.for %%c = %s to %%len step %s iter_args(%%a = %%ident) -> (f32) {\n"
                  "      %%x = memref.load %%a0[%s] : ",
               gpu ? "%lane" : "%c0", gpu ? "%cw" : "%c1", idx);
  faTextAppendType(t, mlirValueGetType(in));
  faTextAppend(t, "\n      %%y = %s %%a, %%x : f32\n      scf.yield %%y : f32\n    }\n", combine);
  const char *total = "part";
  char cur[16];
  for (int off = FA_WARP_SIZE / 2; gpu && off >= 1; off /= 2) {
    faTextAppend(t, "    %%o%d = arith.constant %d : i32\n"
                    "    %%s%d, %%ok%d = gpu.shuffle xor %%%s, %%o%d, %%width : f32\n"
                    "    %%t%d = %s %%%s, %%s%d : f32\n",
                 off, off, off, off, total, off, off, combine, total, off);
    snprintf(cur, sizeof cur, "t%d", off);
    total = cur;
  }
  const char *memType = NULL;
  FaText init;
  faTextInit(&init);
  faTextAppendType(&init, mlirValueGetType(mlirOperationGetOperand(op, 1)));
  memType = init.data;
  if (gpu)
    faTextAppend(t, "    %%first = arith.cmpi eq, %%lane, %%c0 : index\n    scf.if %%first {\n");
  faTextAppend(t, "    %%old = memref.load %%a1[%%r] : %s\n"
                  "    %%new = %s %%old, %%%s : f32\n"
                  "    memref.store %%new, %%a1[%%r] : %s\n",
               memType, combine, total, memType);
  faTextAppend(t, gpu ? "    }\n  }\n" : "  }\n");
  faTextDestroy(&init);
  appendFooter(t, target);
}

/* The symbol of the template for `op`, made on first use. */
static const char *templateFor(MlirOperation module, MlirOperation op, Templates *ts) {
  FaText key;
  faTextInit(&key);
  appendKey(&key, op);
  for (size_t i = 0; i < ts->size; ++i)
    if (strcmp(ts->keys[i], key.data) == 0) {
      faTextDestroy(&key);
      return ts->names[i];
    }
  char name[128];
  const char *opName = mlirIdentifierStr(mlirOperationGetName(op)).data + strlen("fa.");
  size_t len = mlirIdentifierStr(mlirOperationGetName(op)).length - strlen("fa.");
  char prefix[64];
  snprintf(prefix, sizeof prefix, "fa_%.*s", (int)len, opName);
  faModuleUniqueSymbol(module, prefix, name, sizeof name);
  FaText t;
  faTextInit(&t);
  const char *why = NULL;
  if (faBlockwiseIsFragment(op))
    why = faBlockwiseMmaAppend(&t, op, name);
  else if (faOpIsA(op, "fa.blockwise_fill"))
    appendFill(&t, op, name, ts->target);
  else if (faOpIsA(op, "fa.blockwise_gemm"))
    appendGemm(&t, op, name, ts->target);
  else
    appendReduction(&t, op, name, ts->target);
  MlirLogicalResult ok =
      why ? mlirLogicalResultFailure() : faModuleAppendParsed(module, &t);
  faTextDestroy(&t);
  if (why) {
    char msg[640];
    snprintf(msg, sizeof msg, "fa-lower-blockwise: internal error: %s", why);
    mlirEmitError(mlirOperationGetLocation(op), msg);
  }
  if (mlirLogicalResultIsFailure(ok)) {
    faTextDestroy(&key);
    return NULL;
  }
  if (ts->size == ts->cap) {
    ts->cap = ts->cap ? 2 * ts->cap : 8;
    ts->keys = realloc(ts->keys, ts->cap * sizeof(char *));
    ts->names = realloc(ts->names, ts->cap * sizeof(char *));
    ts->fragment = realloc(ts->fragment, ts->cap * sizeof(bool));
    if (!ts->keys || !ts->names || !ts->fragment)
      abort();
  }
  ts->fragment[ts->size] = faBlockwiseIsFragment(op);
  ts->keys[ts->size] = key.data; /* takes the buffer */
  ts->names[ts->size] = strdup(name);
  return ts->names[ts->size++];
}


static bool isBlockwise(MlirOperation op) {
  return faOpIsA(op, "fa.blockwise_fill") || faOpIsA(op, "fa.blockwise_gemm") ||
         faOpIsA(op, "fa.blockwise_reduction");
}

static void runLowerBlockwise(MlirOperation module, MlirExternalPass pass,
                              const void *state) {
  Templates ts = {*(const FaTarget *)state, NULL, NULL, NULL, 0, 0};
  FaOpList ops = faOperationCollect(module, isBlockwise, MlirWalkPreOrder);
  bool failed = false;
  for (size_t i = 0; i < ops.size; ++i) {
    const char *why = checkOperands(ops.ops[i], ts.target);
    const char *callee = why ? NULL : templateFor(module, ops.ops[i], &ts);
    if (!callee) {
      char msg[256];
      snprintf(msg, sizeof msg, "fa-lower-blockwise: %s",
               why ? why : "internal error: the template did not parse");
      mlirEmitError(mlirOperationGetLocation(ops.ops[i]), msg);
      failed = true;
      continue;
    }
    faOperationReplaceWithCall(ops.ops[i], callee);
  }
  /* Fragment templates hold nvgpu ops, which MLIR's inliner refuses. */
  const char **inlined = malloc((ts.size + 1) * sizeof(char *));
  size_t numInlined = 0;
  for (size_t i = 0; inlined && i < ts.size; ++i)
    if (ts.fragment[i])
      inlined[numInlined++] = ts.names[i];
  if (!inlined)
    abort();
  faModuleInlineCallsTo(module, inlined, numInlined);
  free(inlined);
  for (size_t i = 0; i < ts.size; ++i) {
    free(ts.keys[i]);
    free(ts.names[i]);
  }
  free(ts.keys);
  free(ts.names);
  free(ts.fragment);
  faOpListDestroy(&ops);
  if (failed)
    mlirExternalPassSignalFailure(pass);
}

static const FaPassDef kLowerBlockwise = {
    "FaLowerBlockwise", "fa-lower-blockwise",
    "Lower fa.blockwise_* ops on memref tiles to workgroup loops (CPU) or "
    "threads, warp shuffles and barriers (GPU)",
    "builtin.module", runLowerBlockwise, faLoweringDialects};

MlirPass faCreateLoweringLowerBlockwise(bool gpu) {
  return faLoweringPassCreate(&kLowerBlockwise, gpu ? FA_TARGET_GPU : FA_TARGET_CPU);
}

MlirPass faLowerBlockwisePassCreateFromOptions(MlirStringRef options,
                                               MlirStringCallback errorCallback,
                                               void *userData) {
  return faLoweringPassCreateFromOptions(&kLowerBlockwise, options, errorCallback, userData);
}
