/* fa.blockwise_* on memref tiles (see BlockwisePortable.h): the functions are
 * the templates blockwise_fill, blockwise_gemm and blockwise_reduction.mlir;
 * this file fills in their variables from the op. */
#include "Lowering/Kernels/Portable/BlockwisePortable.h"
#include "Support/Builders.h"
#include "Support/Template.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <string.h>

/* blockwise_reduction.mlir's butterfly has the 5 steps of 32 lanes. */
_Static_assert(FA_WARP_SIZE == 32, "blockwise_reduction.mlir assumes warps of 32 lanes");

static MlirType operandType(MlirOperation op, intptr_t i) {
  return mlirValueGetType(mlirOperationGetOperand(op, i));
}

static long dimOf(MlirOperation op, intptr_t i, intptr_t d) {
  return (long)mlirShapedTypeGetDimSize(operandType(op, i), d);
}

/* DEST, VALUE: the tile and the value; SIZE elements in rows of COLS. */
static const char *fill(FaTemplateVars *vars, MlirOperation op) {
  MlirType dest = operandType(op, 0);
  bool rank2 = mlirShapedTypeGetRank(dest) == 2;
  long cols = dimOf(op, 0, rank2 ? 1 : 0);
  faTemplateVarsSetType(vars, "DEST", dest);
  faTemplateVarsSetType(vars, "VALUE", operandType(op, 1));
  faTemplateVarsSetFlag(vars, "RANK2", rank2);
  faTemplateVarsSetInt(vars, "SIZE", rank2 ? dimOf(op, 0, 0) * cols : cols);
  faTemplateVarsSetInt(vars, "COLS", cols);
  return faTemplateBlockwiseFill;
}

/* A, B, C: the operands' types; C has SIZE elements in rows of COLS, the
 * products run over K. */
static const char *gemm(FaTemplateVars *vars, MlirOperation op) {
  faTemplateVarsSetType(vars, "A", operandType(op, 0));
  faTemplateVarsSetType(vars, "B", operandType(op, 1));
  faTemplateVarsSetType(vars, "C", operandType(op, 2));
  faTemplateVarsSetFlag(vars, "TRANSPOSE_B",
                        !mlirAttributeIsNull(faOpGetAttr(op, "transpose_b")));
  faTemplateVarsSetInt(vars, "SIZE", dimOf(op, 2, 0) * dimOf(op, 2, 1));
  faTemplateVarsSetInt(vars, "COLS", dimOf(op, 2, 1));
  faTemplateVarsSetInt(vars, "K", dimOf(op, 0, 1));
  return faTemplateBlockwiseGemm;
}

/* IN, INIT: the operands' types; KEPT rows of LEN elements reduced by
 * COMBINE from IDENTITY. */
static const char *reduction(FaTemplateVars *vars, MlirOperation op) {
  int64_t axis = mlirIntegerAttrGetValueInt(faOpGetAttr(op, "axis"));
  MlirStringRef kind = mlirStringAttrGetValue(faOpGetAttr(op, "kind"));
  bool isMax = kind.length == 3 && strncmp(kind.data, "max", 3) == 0;
  faTemplateVarsSetType(vars, "IN", operandType(op, 0));
  faTemplateVarsSetType(vars, "INIT", operandType(op, 1));
  faTemplateVarsSetFlag(vars, "AXIS1", axis == 1);
  faTemplateVarsSetInt(vars, "KEPT", dimOf(op, 0, 1 - axis));
  faTemplateVarsSetInt(vars, "LEN", dimOf(op, 0, axis));
  faTemplateVarsSet(vars, "COMBINE", "%s", isMax ? "arith.maximumf" : "arith.addf");
  faTemplateVarsSet(vars, "IDENTITY", "%s", isMax ? "0xFF800000" : "0.0");
  faTemplateVarsSetInt(vars, "WARP", FA_WARP_SIZE);
  return faTemplateBlockwiseReduction;
}

const char *faBlockwisePortableAppend(FaText *t, MlirOperation op, const char *name,
                                      FaTarget target) {
  FaTemplateVars vars;
  faTemplateVarsInit(&vars);
  faTemplateVarsSet(&vars, "NAME", "%s", name);
  faTemplateVarsSetFlag(&vars, "GPU", faTargetIsGpu(target));
  const char *tmpl = faOpIsA(op, "fa.blockwise_fill")   ? fill(&vars, op)
                     : faOpIsA(op, "fa.blockwise_gemm") ? gemm(&vars, op)
                                                        : reduction(&vars, op);
  const char *missing = faTextAppendTemplate(t, tmpl, &vars);
  faTemplateVarsDestroy(&vars);
  return faTemplateError("the blockwise op", missing);
}
