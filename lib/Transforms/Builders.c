/* IR-building helpers shared by all passes. */
#include "Builders.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <string.h>

bool faOpIsA(MlirOperation op, const char *name) {
  return !mlirOperationIsNull(op) &&
         mlirStringRefEqual(mlirIdentifierStr(mlirOperationGetName(op)),
                            mlirStringRefCreateFromCString(name));
}

MlirOperation faValueGetDefiningOp(MlirValue v) {
  if (mlirValueIsNull(v) || !mlirValueIsAOpResult(v))
    return (MlirOperation){NULL};
  return mlirOpResultGetOwner(v);
}

bool faValueHasSingleUse(MlirValue v, MlirOperation user, intptr_t operand) {
  MlirOpOperand use = mlirValueGetFirstUse(v);
  if (mlirOpOperandIsNull(use) ||
      !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)))
    return false;
  return mlirOperationEqual(mlirOpOperandGetOwner(use), user) &&
         mlirOpOperandGetOperandNumber(use) == (unsigned)operand;
}

/* Reassociation adding (4 - rank) leading unit dims: [[0..k], [k+1], ...]. */
static MlirAttribute unitReassociation(MlirContext ctx, intptr_t rank) {
  MlirAttribute groups[3];
  intptr_t lead = 4 - rank;
  for (intptr_t g = 0; g < rank; ++g) {
    MlirAttribute idx[4];
    intptr_t n = 0;
    for (intptr_t d = (g == 0 ? 0 : lead + g); d <= lead + g; ++d)
      idx[n++] = mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), d);
    groups[g] = mlirArrayAttrGet(ctx, n, idx);
  }
  return mlirArrayAttrGet(ctx, rank, groups);
}

static MlirNamedAttribute named(MlirContext ctx, const char *name,
                                MlirAttribute a) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), a);
}

static MlirValue insertReshape(MlirRewriterBase rewriter, MlirLocation loc,
                               const char *opName, MlirValue v, MlirType type,
                               intptr_t lowRank, bool withShape) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString(opName), loc);
  mlirOperationStateAddOperands(&st, 1, &v);
  mlirOperationStateAddResults(&st, 1, &type);
  MlirNamedAttribute attrs[2] = {
      named(ctx, "reassociation", unitReassociation(ctx, lowRank))};
  intptr_t n = 1;
  if (withShape) {
    int64_t shape[4];
    for (intptr_t i = 0; i < 4; ++i)
      shape[i] = mlirShapedTypeGetDimSize(type, i);
    attrs[n++] = named(ctx, "static_output_shape", mlirDenseI64ArrayGet(ctx, 4, shape));
  }
  mlirOperationStateAddAttributes(&st, n, attrs);
  MlirOperation op = mlirOperationCreate(&st);
  mlirRewriterBaseInsert(rewriter, op);
  return mlirOperationGetResult(op, 0);
}

MlirValue faBuildExpandToRank4(MlirRewriterBase rewriter, MlirLocation loc,
                               MlirValue v) {
  MlirType t = mlirValueGetType(v);
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t shape[4] = {1, 1, 1, 1};
  for (intptr_t i = 0; i < rank; ++i)
    shape[4 - rank + i] = mlirShapedTypeGetDimSize(t, i);
  MlirType t4 = mlirRankedTensorTypeGet(4, shape, mlirShapedTypeGetElementType(t),
                                        mlirAttributeGetNull());
  return insertReshape(rewriter, loc, "tensor.expand_shape", v, t4, rank, true);
}

MlirValue faBuildCollapseFromRank4(MlirRewriterBase rewriter, MlirLocation loc,
                                   MlirValue v, MlirType type) {
  return insertReshape(rewriter, loc, "tensor.collapse_shape", v, type,
                       mlirShapedTypeGetRank(type), false);
}

static bool nameIn(MlirOperation op, const char *const *names) {
  for (; *names; ++names)
    if (faOpIsA(op, *names))
      return true;
  return false;
}

static bool hasUses(MlirOperation op) {
  for (intptr_t i = 0, e = mlirOperationGetNumResults(op); i < e; ++i)
    if (!mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, i))))
      return true;
  return false;
}

void faEraseDeadChain(MlirRewriterBase rewriter, MlirOperation op,
                      const char *const *names) {
  if (mlirOperationIsNull(op) || hasUses(op))
    return;
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirOperation defs[8];
  if (n > 8)
    n = 8;
  for (intptr_t i = 0; i < n; ++i)
    defs[i] = faValueGetDefiningOp(mlirOperationGetOperand(op, i));
  mlirRewriterBaseEraseOp(rewriter, op);
  for (intptr_t i = 0; i < n; ++i)
    if (!mlirOperationIsNull(defs[i]) && nameIn(defs[i], names))
      faEraseDeadChain(rewriter, defs[i], names);
}
