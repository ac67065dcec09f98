/* fa.blockwise_fill / _reduction / _gemm on "mma_m16n8k16" fragments: each
 * becomes a function specialised from Kernels/MmaSync/blockwise_mma.mlir,
 * which the pipeline inlines and unrolls; a GEMM on "wgmma_m64" fragments
 * (Hopper) one from Kernels/Wgmma/blockwise_wgmma.mlir. */
#include "Lowering/Kernels/Common/BlockwiseMma.h"
#include "fa-c/Dialect.h"

#include "Support/Builders.h"
#include "Support/Template.h"

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

static bool hasLayout(MlirOperation op, const char *layout) {
  MlirAttribute a = faOpGetAttr(op, "layout");
  return !mlirAttributeIsNull(a) && mlirAttributeIsAString(a) &&
         mlirStringRefEqual(mlirStringAttrGetValue(a), mlirStringRefCreateFromCString(layout));
}

static int64_t vecSize(MlirType t) { return mlirShapedTypeGetDimSize(t, 0); }

/* Layouts, tile shapes and strides are the verifier's (lib/Dialect/Verify.c),
 * asked first; what only this lowering needs is checked here. */
const char *faBlockwiseMmaUnsupported(MlirOperation op) {
  if (mlirLogicalResultIsFailure(faOperationVerify(op)))
    return "the op does not verify (see the error before)";
  if (faOpIsA(op, "fa.blockwise_gemm")) {
    MlirType e = mlirShapedTypeGetElementType(operandType(op, 1));
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

/* The variables of both GEMM templates: operand types, where A comes from
 * (`aSharedFrom` when it is a shared-memory tile), how B is stored, K, N. */
static void setGemmCommon(FaTemplateVars *vars, MlirOperation op, int64_t k, int64_t n,
                          const char *aSharedFrom) {
  MlirType a = operandType(op, 0), b = operandType(op, 1);
  bool aShared = mlirTypeIsAMemRef(a);
  faTemplateVarsSetFlag(vars, "GEMM", true);
  faTemplateVarsSetFlag(vars, "A_SHARED", aShared);
  faTemplateVarsSetType(vars, "A_TYPE", a);
  faTemplateVarsSetType(vars, "B_TYPE", b);
  faTemplateVarsSetType(vars, "E", mlirShapedTypeGetElementType(b));
  faTemplateVarsSet(vars, "A_FROM", "%s",
                    aShared ? aSharedFrom
                            : "a register fragment (the accumulator order of A's columns)");
  faTemplateVarsSet(vars, "B_STORED", "%s",
                    faOpGetAttr(op, "transpose_b").ptr ? "[N][K]" : "[K][N]");
  faTemplateVarsSetInt(vars, "K", (long)k);
  faTemplateVarsSetInt(vars, "N", (long)n);
  faTemplateVarsSetInt(vars, "KSTEPS", (long)(k / 16));
}

static void setGemm(FaTemplateVars *vars, MlirOperation op) {
  MlirType b = operandType(op, 1), c = operandType(op, 2);
  bool tb = !mlirAttributeIsNull(faOpGetAttr(op, "transpose_b"));
  MlirType e = mlirShapedTypeGetElementType(b);
  int64_t k = mlirShapedTypeGetDimSize(b, tb ? 1 : 0);
  int64_t n = mlirShapedTypeGetDimSize(b, tb ? 0 : 1);
  int64_t nc = vecSize(c), ct = n / 8, rm = nc / (ct * 4);
  setGemmCommon(vars, op, k, n, "a shared-memory tile read with ldmatrix");
  faTemplateVarsSetFlag(vars, "TRANSPOSE_B", tb);
  faTemplateVarsSetFlag(vars, "SWIZZLE", !mlirAttributeIsNull(faOpGetAttr(op, "swizzle")));
  faTemplateVarsSet(vars, "REG", "%s", mlirTypeIsAF16(e) ? "vector<2xf16>" : "i32");
  faTemplateVarsSetInt(vars, "NPAIRS", (long)(n / 16));
  faTemplateVarsSetInt(vars, "CT", (long)ct);
  faTemplateVarsSetInt(vars, "A_CT", (long)(k / 8));
  faTemplateVarsSetInt(vars, "RM", (long)rm);
  faTemplateVarsSetInt(vars, "WARP_ROWS", (long)(16 * rm));
  faTemplateVarsSetInt(vars, "NA", (long)(4 * rm));
  faTemplateVarsSetInt(vars, "NC", (long)nc);
}

/* --- wgmma ------------------------------------------------------------------ */

/* Descriptor bits 16-63 for a 128-byte-swizzled tile: leading and stride
 * byte offsets (>> 4) and the swizzle mode (1 = 128 bytes). */
static unsigned long long descHigh(long lbo, long sbo) {
  return ((unsigned long long)(lbo >> 4) << 16) | ((unsigned long long)(sbo >> 4) << 32) |
         (1ull << 62);
}

/* The operand lists of an inline asm on NC accumulators, in and out (tied):
 * D_ARGS / D_TYPES the inputs, CONSTRAINTS theirs (then `more`, the other
 * operands' constraints, if any), ACC_STRUCT the result, UNPACK its fields as
 * %r0.., R_ARGS those. */
static void setAccLists(FaTemplateVars *vars, long nc, const char *more) {
  FaText cons, args, types, res, st, lines;
  faTextInit(&cons), faTextInit(&args), faTextInit(&types), faTextInit(&res);
  faTextInit(&st), faTextInit(&lines);
  for (long i = 0; i < nc; ++i) {
    faTextAppend(&cons, "=f,");
    faTextAppend(&args, "%s%%d#%ld", i ? ", " : "", i);
    faTextAppend(&types, "%sf32", i ? ", " : "");
    faTextAppend(&res, "%s%%r%ld", i ? ", " : "", i);
  }
  for (long i = 0; i < nc; ++i)
    faTextAppend(&cons, "%s%ld", i ? "," : "", i);
  if (*more)
    faTextAppend(&cons, ",%s", more);
  faTextAppend(&st, "!llvm.struct<(%s)>", types.data);
  for (long i = 0; i < nc; ++i)
    faTextAppend(&lines, "%s  %%r%ld = llvm.extractvalue %%r[%ld] : %s", i ? "\n" : "", i, i,
                 st.data);
  faTemplateVarsSetText(vars, "CONSTRAINTS", cons.data);
  faTemplateVarsSetText(vars, "D_ARGS", args.data);
  faTemplateVarsSetText(vars, "D_TYPES", types.data);
  faTemplateVarsSetText(vars, "R_ARGS", res.data);
  faTemplateVarsSetText(vars, "ACC_STRUCT", st.data);
  faTemplateVarsSetText(vars, "UNPACK", lines.data);
  faTextDestroy(&cons), faTextDestroy(&args), faTextDestroy(&types), faTextDestroy(&res);
  faTextDestroy(&st), faTextDestroy(&lines);
}

/* The inline PTX of one wgmma step: after the NC accumulators, A (a
 * descriptor, or four registers), B's descriptor and scale-d. */
static void setWgmmaAsm(FaTemplateVars *vars, long n, long nc, bool aShared, bool bKMajor,
                        bool f16) {
  setAccLists(vars, nc, aShared ? "l,l,r" : "r,r,r,r,l,r");
  const char *e = f16 ? "f16" : "bf16";
  long a = 2 * nc, b = aShared ? a + 1 : a + 4, scale = b + 1;
  FaText ptx;
  faTextInit(&ptx);
  faTextAppend(&ptx, "{ .reg .pred p; setp.ne.b32 p, $%ld, 0; wgmma.mma_async.sync.aligned."
                     "m64n%ldk16.f32.%s.%s {", scale, n, e, e);
  for (long i = 0; i < nc; ++i)
    faTextAppend(&ptx, "%s$%ld", i ? ", " : "", i);
  if (aShared)
    faTextAppend(&ptx, "}, $%ld, $%ld, p, 1, 1, 0, %d; }", a, b, bKMajor ? 0 : 1);
  else
    faTextAppend(&ptx, "}, {$%ld, $%ld, $%ld, $%ld}, $%ld, p, 1, 1, %d; }", a, a + 1, a + 2,
                 a + 3, b, bKMajor ? 0 : 1);
  faTemplateVarsSetText(vars, "PTX", ptx.data);
  faTextDestroy(&ptx);
}

/* The op kinds the fragment templates tell apart, all off (flags are always
 * set: the template contract). */
static void clearKinds(FaTemplateVars *vars) {
  static const char *const kKinds[] = {"FILL", "REDUCTION", "GEMM", "WAIT"};
  for (size_t i = 0; i < sizeof kKinds / sizeof kKinds[0]; ++i)
    faTemplateVarsSetFlag(vars, kKinds[i], false);
}

const char *faBlockwiseWgmmaAppendWait(FaText *t, const char *name, long nc, int pending) {
  FaTemplateVars vars;
  faTemplateVarsInit(&vars);
  clearKinds(&vars);
  faTemplateVarsSet(&vars, "NAME", "%s", name);
  faTemplateVarsSetFlag(&vars, "WAIT", true);
  faTemplateVarsSetInt(&vars, "NC", nc);
  faTemplateVarsSetInt(&vars, "PENDING", pending);
  setAccLists(&vars, nc, "");
  const char *missing = faTextAppendTemplate(t, faTemplateBlockwiseWgmma, &vars);
  faTemplateVarsDestroy(&vars);
  return faTemplateError("the wgmma wait", missing);
}

/* B (and a shared A) are [chunks][rows][64] tiles: 128-byte rows in
 * 1024-byte groups of 8. K-major (A; B stored [N][K]): K = chunks * 64, the
 * stride between 8-row groups 1024 bytes. N-major (B stored [K][N]): K = rows,
 * N = twice C's entries (up to chunks * 64), chunks (64 columns) apart by the
 * leading byte offset. */
/* memref<T, space> of a tile: the base buffer extract_strided_metadata
 * gives for it. */
static void setBaseType(FaTemplateVars *vars, const char *name, MlirType tile) {
  MlirType base = mlirMemRefTypeGet(mlirShapedTypeGetElementType(tile), 0, NULL,
                                    mlirAttributeGetNull(), mlirMemRefTypeGetMemorySpace(tile));
  faTemplateVarsSetType(vars, name, base);
}

static void setWgmmaGemm(FaTemplateVars *vars, MlirOperation op) {
  MlirType a = operandType(op, 0), b = operandType(op, 1), c = operandType(op, 2);
  bool tb = !mlirAttributeIsNull(faOpGetAttr(op, "transpose_b"));
  bool aShared = mlirTypeIsAMemRef(a);
  MlirType e = mlirShapedTypeGetElementType(b);
  int64_t chunks = mlirShapedTypeGetDimSize(b, 0), rows = mlirShapedTypeGetDimSize(b, 1);
  int64_t nc = vecSize(c), k = tb ? chunks * 64 : rows, n = tb ? rows : 2 * nc;
  int64_t bStrides[3], off, aStrides[3];
  mlirMemRefTypeGetStridesAndOffset(b, bStrides, &off);
  setGemmCommon(vars, op, k, n, "a shared-memory tile (descriptor)");
  faTemplateVarsSetFlag(vars, "ASYNC", !mlirAttributeIsNull(faOpGetAttr(op, "async")));
  faTemplateVarsSetFlag(vars, "B_K_MAJOR", tb);
  setBaseType(vars, "B_BASE", b);
  if (aShared)
    setBaseType(vars, "A_BASE", a);
  faTemplateVarsSetInt(vars, "NC", (long)nc);
  long bChunkBytes = (long)bStrides[0] * 2;
  faTemplateVarsSetInt(vars, "B_CHUNK_UNITS", bChunkBytes / 16);
  faTemplateVarsSet(vars, "B_DESC_HIGH", "%llu",
                    tb ? descHigh(16, 1024) : descHigh(bChunkBytes, 1024));
  if (aShared) {
    mlirMemRefTypeGetStridesAndOffset(a, aStrides, &off);
    faTemplateVarsSetInt(vars, "A_CHUNK_UNITS", (long)aStrides[0] * 2 / 16);
    faTemplateVarsSet(vars, "A_DESC_HIGH", "%llu", descHigh(16, 1024));
  }
  setWgmmaAsm(vars, (long)n, (long)nc, aShared, tb, mlirTypeIsAF16(e));
}

const char *faBlockwiseMmaAppend(FaText *t, MlirOperation op, const char *name) {
  FaTemplateVars vars;
  faTemplateVarsInit(&vars);
  clearKinds(&vars);
  faTemplateVarsSet(&vars, "NAME", "%s", name);
  if (faOpIsA(op, "fa.blockwise_fill")) {
    faTemplateVarsSetFlag(&vars, "FILL", true);
    faTemplateVarsSetType(&vars, "T", operandType(op, 0));
  } else if (faOpIsA(op, "fa.blockwise_reduction")) {
    setReduction(&vars, op);
  } else if (hasLayout(op, FA_LAYOUT_WGMMA)) {
    setWgmmaGemm(&vars, op);
    const char *missing = faTextAppendTemplate(t, faTemplateBlockwiseWgmma, &vars);
    faTemplateVarsDestroy(&vars);
    return faTemplateError("the wgmma fragment", missing);
  } else {
    setGemm(&vars, op);
  }
  const char *missing = faTextAppendTemplate(t, faTemplateBlockwiseMma, &vars);
  faTemplateVarsDestroy(&vars);
  return faTemplateError("the fragment", missing);
}
