/* fa-free-buffers: frees the buffers a function allocates and provably does
 * not let escape. One-shot bufferization allocates every intermediate result
 * and frees none; upstream's ownership-based deallocation refuses IR that
 * already frees some buffers (our CPU lowering frees its tiles) or holds ops
 * with unknown memory effects (gpu.barrier in kernels). This pass is
 * deliberately conservative: a memref.alloc of a single-block function body
 * gets a memref.dealloc before the return only if every use of it, through
 * views (subview, reshapes, casts), is a kernel launch, copy, load, store or
 * dim; a return, an existing dealloc, a call or any other op keeps it. */
#include "GpuPipeline/FreeBuffers.h"

#include "Support/Builders.h"
#include "Support/PassSupport.h"
#include "Registry/Passes.h"

#include "mlir-c/Dialect/MemRef.h"

/* Ops whose memref results are views of their first operand. */
static bool isView(MlirOperation op) {
  static const char *const kViews[] = {
      "memref.subview",     "memref.expand_shape",        "memref.collapse_shape",
      "memref.cast",        "memref.reinterpret_cast",    "memref.view",
      "memref.transpose",   "memref.memory_space_cast",   "memref.extract_strided_metadata",
      NULL};
  for (const char *const *n = kViews; *n; ++n)
    if (faOpIsA(op, *n))
      return true;
  return false;
}

/* Ops that use a buffer without keeping it beyond their own execution. */
static bool isTransientUse(MlirOperation op) {
  static const char *const kUses[] = {
      "gpu.launch_func", "memref.copy", "memref.load", "memref.store", "memref.dim",
      "gpu.memcpy",      "gpu.memset",  NULL};
  for (const char *const *n = kUses; *n; ++n)
    if (faOpIsA(op, *n))
      return true;
  return false;
}

/* True if `v` may outlive the function: it or a view of it reaches a return,
 * an op not known to be transient, or is already freed. */
static bool mayEscape(MlirValue v, int depth) {
  if (depth > 16)
    return true;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (isView(user)) {
      for (intptr_t r = 0; r < mlirOperationGetNumResults(user); ++r)
        if (mayEscape(mlirOperationGetResult(user, r), depth + 1))
          return true;
    } else if (!isTransientUse(user)) {
      return true;
    }
  }
  return false;
}

void faFuncFreeLocalBuffers(MlirOperation func) {
  MlirRegion body = mlirOperationGetRegion(func, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(body);
  MlirOperation ret = mlirBlockGetTerminator(entry);
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(entry)) || mlirOperationIsNull(ret) ||
      !faOpIsA(ret, "func.return"))
    return;
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationEqual(op, ret);
       op = mlirOperationGetNextInBlock(op)) {
    MlirValue buffer = mlirOperationGetResult(op, 0);
    if (faOpIsA(op, "memref.alloc") && !mayEscape(buffer, 0))
      faOperationCreateBefore(ret, "memref.dealloc", 1, &buffer, 0, NULL, 0, NULL);
  }
}

static void runFreeBuffers(MlirOperation module, MlirExternalPass pass, const void *state) {
  faModuleForEachFunc(module, faFuncFreeLocalBuffers);
}

static const FaDialectHandleFn kDialects[] = {mlirGetDialectHandle__memref__, NULL};

static const FaPassDef kFreeBuffersPass = {
    "FaFreeBuffers", "fa-free-buffers",
    "Free the buffers a function allocates and provably does not let escape",
    "builtin.module", runFreeBuffers, kDialects};

MlirPass faFreeBuffersPassCreateFromOptions(MlirStringRef options,
                                            MlirStringCallback errorCallback, void *userData) {
  return faPassCreateWithoutOptions(&kFreeBuffersPass, options, errorCallback, userData);
}
