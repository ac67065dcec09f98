/* fa-gpu-host-memory: makes the host side of a GPU-lowered module hand the
 * kernels only memory the device can reach, on a discrete GPU:
 *  - memref.alloc in host functions becomes gpu.alloc host_shared (managed
 *    memory), memref.dealloc an asynchronous gpu.dealloc that is waited for;
 *  - memref.get_global (weights, constants) is copied once per call into
 *    such memory;
 *  - buffers that do not escape the function, those copies included, are
 *    freed before its return (as fa-free-buffers does; kernel launches are
 *    synchronous here, so no kernel reads them later);
 *  - memref arguments of public functions are registered with
 *    gpu.host_register for the call (gpu.host_unregister before each
 *    return), so callers may pass ordinary host memory.
 *  - memref.global in a GPU address space (a kernel's dynamic shared
 *    memory, a kernel's device-global counters), which outlining copied into
 *    its gpu.module, is erased from the host.
 * Runs after gpu-kernel-outlining, before gpu-to-llvm. Kernels (gpu.module)
 * are untouched. */
#include "Support/Builders.h"
#include "Support/IRText.h"
#include "GpuPipeline/FreeBuffers.h"
#include "Registry/Passes.h"
#include "Support/PassSupport.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/Dialect/MemRef.h"

static MlirType tokenType(MlirContext ctx) {
  return mlirTypeParseGet(ctx, mlirStringRefCreateFromCString("!gpu.async.token"));
}

/* gpu.alloc host_shared of `type` before `before`, with `dynSizes`. */
static MlirValue buildSharedAlloc(MlirOperation before, MlirType type, intptr_t numDyn,
                                  const MlirValue *dynSizes) {
  MlirContext ctx = mlirOperationGetContext(before);
  int32_t segments[3] = {0, (int32_t)numDyn, 0};
  MlirNamedAttribute attrs[2] = {
      faNamedAttributeGet(ctx, "hostShared", mlirUnitAttrGet(ctx)),
      faNamedAttributeGet(ctx, "operandSegmentSizes",
                          mlirDenseI32ArrayGet(ctx, 3, segments))};
  MlirOperation alloc =
      faOperationCreateBefore(before, "gpu.alloc", numDyn, dynSizes, 1, &type, 2, attrs);
  return mlirOperationGetResult(alloc, 0);
}

static void replaceAndErase(MlirOperation op, MlirValue with) {
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), with);
  mlirOperationDestroy(op);
}

static void rewriteAlloc(MlirOperation op) {
  /* memref.alloc(dynamicSizes)[symbols]: only the sizes carry over; a
   * layout with symbols is not produced by bufferization. */
  MlirAttribute seg = faOpGetAttr(op, "operandSegmentSizes");
  intptr_t numDyn = mlirAttributeIsNull(seg) ? mlirOperationGetNumOperands(op)
                                             : mlirDenseI32ArrayGetElement(seg, 0);
  MlirValue sizes[8];
  for (intptr_t i = 0; i < numDyn && i < 8; ++i)
    sizes[i] = mlirOperationGetOperand(op, i);
  MlirType type = mlirValueGetType(mlirOperationGetResult(op, 0));
  replaceAndErase(op, buildSharedAlloc(op, type, numDyn, sizes));
}

static void rewriteDealloc(MlirOperation op) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirType token = tokenType(ctx);
  MlirValue start = mlirOperationGetResult(
      faOperationCreateBefore(op, "gpu.wait", 0, NULL, 1, &token, 0, NULL), 0);
  MlirValue operands[2] = {start, mlirOperationGetOperand(op, 0)};
  MlirValue done = mlirOperationGetResult(
      faOperationCreateBefore(op, "gpu.dealloc", 2, operands, 1, &token, 0, NULL), 0);
  faOperationCreateBefore(op, "gpu.wait", 1, &done, 0, NULL, 0, NULL);
  mlirOperationDestroy(op);
}

/* A memref.alloc holding a copy of the global, so the global is freed like
 * any other buffer of the function. */
static void copyGlobal(MlirOperation op) {
  MlirOperation next = mlirOperationGetNextInBlock(op);
  MlirValue global = mlirOperationGetResult(op, 0);
  MlirType type = mlirValueGetType(global);
  MlirValue copy = mlirOperationGetResult(
      faOperationCreateBefore(next, "memref.alloc", 0, NULL, 1, &type, 0, NULL), 0);
  mlirValueReplaceAllUsesOfWith(global, copy);
  MlirValue operands[2] = {global, copy};
  faOperationCreateBefore(next, "memref.copy", 2, operands, 0, NULL, 0, NULL);
}

static bool isReturn(MlirOperation op) { return faOpIsA(op, "func.return"); }

/* gpu.host_register of each memref argument on entry and gpu.host_unregister
 * before each return: the caller may free or reuse the memory afterwards. */
static void registerArguments(MlirOperation func) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirOperation first = mlirBlockGetFirstOperation(entry);
  FaOpList returns = faOperationCollect(func, isReturn, MlirWalkPostOrder);
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); ++i) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    MlirType type = mlirValueGetType(arg);
    if (!mlirTypeIsAMemRef(type))
      continue;
    MlirType unranked = mlirUnrankedMemRefTypeGet(mlirShapedTypeGetElementType(type),
                                                  mlirMemRefTypeGetMemorySpace(type));
    MlirValue cast = mlirOperationGetResult(
        faOperationCreateBefore(first, "memref.cast", 1, &arg, 1, &unranked, 0, NULL), 0);
    faOperationCreateBefore(first, "gpu.host_register", 1, &cast, 0, NULL, 0, NULL);
    for (size_t r = 0; r < returns.size; ++r)
      faOperationCreateBefore(returns.ops[r], "gpu.host_unregister", 1, &cast, 0, NULL, 0,
                              NULL);
  }
  faOpListDestroy(&returns);
}

static bool isHostMemoryOp(MlirOperation op) {
  return faOpIsA(op, "memref.alloc") || faOpIsA(op, "memref.dealloc");
}

static bool isGetGlobal(MlirOperation op) { return faOpIsA(op, "memref.get_global"); }

static void rewriteFunc(MlirOperation func) {
  FaOpList globals = faOperationCollect(func, isGetGlobal, MlirWalkPostOrder);
  for (size_t i = 0; i < globals.size; ++i)
    copyGlobal(globals.ops[i]);
  faOpListDestroy(&globals);
  faFuncFreeLocalBuffers(func);
  FaOpList ops = faOperationCollect(func, isHostMemoryOp, MlirWalkPostOrder);
  for (size_t i = 0; i < ops.size; ++i) {
    MlirOperation op = ops.ops[i];
    if (faOpIsA(op, "memref.alloc"))
      rewriteAlloc(op);
    else
      rewriteDealloc(op);
  }
  faOpListDestroy(&ops);
  if (mlirAttributeIsNull(faOpGetAttr(func, "sym_visibility")))
    registerArguments(func);
}

static bool isKernelGlobal(MlirOperation op) {
  if (!faOpIsA(op, "memref.global"))
    return false;
  MlirType type = mlirTypeAttrGetValue(faOpGetAttr(op, "type"));
  MlirAttribute space = mlirMemRefTypeGetMemorySpace(type);
  if (mlirAttributeIsNull(space))
    return false;
  /* A memory space of the gpu dialect: #gpu.address_space<...>. */
  MlirStringRef ns = mlirDialectGetNamespace(mlirAttributeGetDialect(space));
  return mlirStringRefEqual(ns, mlirStringRefCreateFromCString("gpu"));
}

static void eraseKernelGlobals(MlirOperation module) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (isKernelGlobal(op))
      mlirOperationDestroy(op);
    op = next;
  }
}

static void runGpuHostMemory(MlirOperation module, MlirExternalPass pass, const void *state) {
  faModuleForEachFunc(module, rewriteFunc);
  eraseKernelGlobals(module);
}

static const FaDialectHandleFn kDialects[] = {mlirGetDialectHandle__gpu__,
                                              mlirGetDialectHandle__memref__, NULL};

static const FaPassDef kGpuHostMemoryPass = {
    "FaGpuHostMemory", "fa-gpu-host-memory",
    "Host buffers as managed memory, constants copied into it, public memref "
    "arguments registered with the GPU (after gpu-kernel-outlining)",
    "builtin.module", runGpuHostMemory, kDialects};

MlirPass faGpuHostMemoryPassCreateFromOptions(MlirStringRef options,
                                              MlirStringCallback errorCallback,
                                              void *userData) {
  return faPassCreateWithoutOptions(&kGpuHostMemoryPass, options, errorCallback, userData);
}
