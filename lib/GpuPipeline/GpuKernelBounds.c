/* fa-gpu-kernel-bounds: after gpu-kernel-outlining, a kernel takes the
 * function attributes that an op of its body carries as `fa.kernel_bounds`
 * (a dictionary, e.g. {nvvm.maxnreg = 128 : i32, nvvm.minctasm = 2 : i32}).
 * gpu.launch has no place for attributes of the kernel it becomes (outlining
 * drops its discardable attributes), so a kernel written as a gpu.launch marks
 * one op of its body instead; convert-gpu-to-nvvm then carries nvvm.* to the
 * PTX (.maxnreg, .minnctapersm). Two marks that disagree on an attribute are
 * an error at the second. */
#include "Support/Builders.h"
#include "Registry/Passes.h"
#include "Support/PassSupport.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"

#include <stdio.h>

static const char kBoundsAttr[] = "fa.kernel_bounds";

static bool isKernel(MlirOperation op) {
  return faOpIsA(op, "gpu.func") && !mlirAttributeIsNull(faOpGetAttr(op, "gpu.kernel"));
}

static bool hasBounds(MlirOperation op) {
  return !mlirAttributeIsNull(faOpGetAttr(op, kBoundsAttr));
}

/* Sets one entry of `mark`'s dictionary on `kernel`. */
static MlirLogicalResult setBound(MlirOperation kernel, MlirOperation mark,
                                  MlirNamedAttribute entry) {
  MlirStringRef name = mlirIdentifierStr(entry.name);
  MlirAttribute old = mlirOperationGetDiscardableAttributeByName(kernel, name);
  if (!mlirAttributeIsNull(old) && !mlirAttributeEqual(old, entry.attribute)) {
    char msg[256];
    snprintf(msg, sizeof msg, "'%s' sets the kernel's '%.*s' differently from an earlier mark",
             kBoundsAttr, (int)name.length, name.data);
    mlirEmitError(mlirOperationGetLocation(mark), msg);
    return mlirLogicalResultFailure();
  }
  mlirOperationSetDiscardableAttributeByName(kernel, name, entry.attribute);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult applyMark(MlirOperation kernel, MlirOperation mark) {
  MlirAttribute dict = faOpGetAttr(mark, kBoundsAttr);
  if (!mlirAttributeIsADictionary(dict)) {
    char msg[96];
    snprintf(msg, sizeof msg, "'%s' must be a dictionary", kBoundsAttr);
    mlirEmitError(mlirOperationGetLocation(mark), msg);
    return mlirLogicalResultFailure();
  }
  for (intptr_t i = 0; i < mlirDictionaryAttrGetNumElements(dict); ++i)
    if (mlirLogicalResultIsFailure(setBound(kernel, mark, mlirDictionaryAttrGetElement(dict, i))))
      return mlirLogicalResultFailure();
  mlirOperationRemoveAttributeByName(mark, mlirStringRefCreateFromCString(kBoundsAttr));
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult applyMarks(MlirOperation root, MlirOperation kernel,
                                    const void *state) {
  FaOpList marks = faOperationCollect(kernel, hasBounds, MlirWalkPreOrder);
  MlirLogicalResult result = mlirLogicalResultSuccess();
  for (size_t i = 0; i < marks.size && mlirLogicalResultIsSuccess(result); ++i)
    result = applyMark(kernel, marks.ops[i]);
  faOpListDestroy(&marks);
  return result;
}

static void runGpuKernelBounds(MlirOperation op, MlirExternalPass pass, const void *state) {
  faPassRunOnEach(op, isKernel, applyMarks, state, pass);
}

static const FaPassDef kGpuKernelBoundsPass = {
    "FaGpuKernelBounds", "fa-gpu-kernel-bounds",
    "Give outlined kernels the function attributes their body's ops carry as fa.kernel_bounds",
    "", runGpuKernelBounds, NULL};

MlirPass faGpuKernelBoundsPassCreateFromOptions(MlirStringRef options,
                                                MlirStringCallback errorCallback,
                                                void *userData) {
  return faPassCreateWithoutOptions(&kGpuKernelBoundsPass, options, errorCallback, userData);
}
