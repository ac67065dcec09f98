/* fa-lower-blockwise: fa.blockwise_fill / _reduction / _gemm on memref
 * tiles -> loops run by the threads of a workgroup.
 *
 * Each op becomes a call of a private function written for its operand types,
 * attributes and the target (one per distinct signature); `inline` then puts
 * the loops in place. The functions are templates: on memref tiles
 * Kernels/Portable/blockwise_{fill,gemm,reduction}.mlir (BlockwisePortable.c):
 * fill and GEMM distribute elements over the workgroup's threads (Lowering.h);
 * a reduction is a loop per row on the CPU and, on GPUs, one warp per row:
 * lanes combine strided partials, then a butterfly of gpu.shuffle xor. On
 * GPUs every op ends with a barrier. The GEMM keeps its own function so that
 * a tensor-core lowering can replace only it. On register fragments (nvvm)
 * Kernels/MmaSync and Kernels/Wgmma (BlockwiseMma.c). */
#include "Support/Builders.h"
#include "Lowering/Kernels/Common/BlockwiseMma.h"
#include "Lowering/Kernels/Portable/BlockwisePortable.h"
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

/* The symbol of the template for `op`, made on first use; NULL when it cannot
 * be made (`*error`: the template engine's error, or NULL: the parse error was
 * reported). */
static const char *templateFor(MlirOperation module, MlirOperation op, Templates *ts,
                               const char **error) {
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
  *error = faBlockwiseIsFragment(op) ? faBlockwiseMmaAppend(&t, op, name)
                                      : faBlockwisePortableAppend(&t, op, name, ts->target);
  MlirLogicalResult ok =
      *error ? mlirLogicalResultFailure() : faModuleAppendParsed(module, &t);
  faTextDestroy(&t);
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
    const char *why = checkOperands(ops.ops[i], ts.target), *internal = NULL;
    const char *callee = why ? NULL : templateFor(module, ops.ops[i], &ts, &internal);
    if (!callee) {
      char msg[768];
      if (why)
        snprintf(msg, sizeof msg, "fa-lower-blockwise: %s", why);
      else
        snprintf(msg, sizeof msg, "fa-lower-blockwise: internal error: %s",
                 internal ? internal : "the template did not parse");
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
