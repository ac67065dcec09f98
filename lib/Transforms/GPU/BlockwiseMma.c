/* fa.blockwise_fill / _reduction / _gemm on "mma_m16n8k16" fragments: each
 * becomes a function specialised from GPU/blockwise_mma.mlir, which the
 * pipeline inlines and unrolls. */
#include "BlockwiseMma.h"

#include "../Builders.h"
#include "../Template.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <string.h>

static MlirType operandType(MlirOperation op, intptr_t i) {
  return mlirValueGetType(mlirOperationGetOperand(op, i));
}

bool faBlockwiseIsFragment(MlirOperation op) {
  for (intptr_t i = 0, e = mlirOperationGetNumOperands(op); i < e; ++i)
    if (mlirTypeIsAVector(operandType(op, i)))
      return true;
  return false;
}

static bool hasMmaLayout(MlirOperation op) {
  MlirAttribute a = faOpGetAttr(op, "layout");
  return !mlirAttributeIsNull(a) && mlirAttributeIsAString(a) &&
         mlirStringRefEqual(mlirStringAttrGetValue(a),
                            mlirStringRefCreateFromCString(FA_LAYOUT_MMA));
}

static int64_t vecSize(MlirType t) { return mlirShapedTypeGetDimSize(t, 0); }

static bool isStaticSharedTile(MlirType t) {
  return mlirTypeIsAMemRef(t) && mlirShapedTypeGetRank(t) == 2 &&
         mlirShapedTypeHasStaticShape(t);
}

const char *faBlockwiseMmaUnsupported(MlirOperation op) {
  if (!hasMmaLayout(op))
    return "fragment operands need layout = \"" FA_LAYOUT_MMA "\"";
  if (faOpIsA(op, "fa.blockwise_gemm")) {
    MlirType b = operandType(op, 1);
    if (!isStaticSharedTile(b))
      return "the B operand of a fragment GEMM must be a static 2-D memref tile";
    if (!mlirTypeIsAVector(operandType(op, 0)) && !isStaticSharedTile(operandType(op, 0)))
      return "the A operand of a fragment GEMM must be a fragment or a static 2-D memref tile";
    MlirType e = mlirShapedTypeGetElementType(b);
    if (!mlirTypeIsAF16(e) && !mlirTypeIsABF16(e))
      return "fragment GEMMs take f16 or bf16 operands";
  }
  return NULL;
}

static void setReduction(FaTemplateVars *vars, MlirOperation op) {
  MlirStringRef kind = mlirStringAttrGetValue(faOpGetAttr(op, "kind"));
  bool isMax = mlirStringRefEqual(kind, mlirStringRefCreateFromCString("max"));
  int64_t nx = vecSize(operandType(op, 0)), nr = vecSize(operandType(op, 1));
  faTemplateVarsSetFlag(vars, "REDUCTION", true);
  faTemplateVarsSetInt(vars, "NX", (long)nx);
  faTemplateVarsSetInt(vars, "NR", (long)nr);
  faTemplateVarsSetInt(vars, "CT", (long)(nx / (2 * nr)));
  faTemplateVarsSetFlag(vars, "MAX", isMax);
  faTemplateVarsSetFlag(vars, "PARTIAL", !mlirAttributeIsNull(faOpGetAttr(op, "partial")));
  faTemplateVarsSet(vars, "IDENT", "%s", isMax ? "0xFF800000" : "0.0");
}

static void setGemm(FaTemplateVars *vars, MlirOperation op) {
  MlirType a = operandType(op, 0), b = operandType(op, 1), c = operandType(op, 2);
  bool tb = !mlirAttributeIsNull(faOpGetAttr(op, "transpose_b"));
  bool aShared = mlirTypeIsAMemRef(a);
  MlirType e = mlirShapedTypeGetElementType(b);
  int64_t k = mlirShapedTypeGetDimSize(b, tb ? 1 : 0);
  int64_t n = mlirShapedTypeGetDimSize(b, tb ? 0 : 1);
  int64_t nc = vecSize(c), ct = n / 8, rm = nc / (ct * 4);
  faTemplateVarsSetFlag(vars, "GEMM", true);
  faTemplateVarsSetFlag(vars, "TRANSPOSE_B", tb);
  faTemplateVarsSetFlag(vars, "A_SHARED", aShared);
  faTemplateVarsSetType(vars, "A_TYPE", a);
  faTemplateVarsSetType(vars, "B_TYPE", b);
  faTemplateVarsSetType(vars, "E", e);
  faTemplateVarsSet(vars, "REG", "%s", mlirTypeIsAF16(e) ? "vector<2xf16>" : "i32");
  faTemplateVarsSet(vars, "A_FROM", "%s",
                    aShared ? "a shared-memory tile read with ldmatrix"
                            : "a register fragment (the accumulator order of A's columns)");
  faTemplateVarsSet(vars, "B_STORED", "%s", tb ? "[N][K]" : "[K][N]");
  faTemplateVarsSetInt(vars, "K", (long)k);
  faTemplateVarsSetInt(vars, "N", (long)n);
  faTemplateVarsSetInt(vars, "KSTEPS", (long)(k / 16));
  faTemplateVarsSetInt(vars, "NPAIRS", (long)(n / 16));
  faTemplateVarsSetInt(vars, "CT", (long)ct);
  faTemplateVarsSetInt(vars, "A_CT", (long)(k / 8));
  faTemplateVarsSetInt(vars, "RM", (long)rm);
  faTemplateVarsSetInt(vars, "WARP_ROWS", (long)(16 * rm));
  faTemplateVarsSetInt(vars, "NA", (long)(4 * rm));
  faTemplateVarsSetInt(vars, "NC", (long)nc);
}

const char *faBlockwiseMmaAppend(FaText *t, MlirOperation op, const char *name) {
  FaTemplateVars vars;
  faTemplateVarsInit(&vars);
  faTemplateVarsSet(&vars, "NAME", "%s", name);
  if (faOpIsA(op, "fa.blockwise_fill")) {
    faTemplateVarsSetFlag(&vars, "FILL", true);
    faTemplateVarsSetType(&vars, "T", operandType(op, 0));
  } else if (faOpIsA(op, "fa.blockwise_reduction")) {
    setReduction(&vars, op);
  } else {
    setGemm(&vars, op);
  }
  const char *missing = faTextAppendTemplate(t, faTemplateBlockwiseMma, &vars);
  faTemplateVarsDestroy(&vars);
  return missing ? "the fragment template uses an unset variable" : NULL;
}
