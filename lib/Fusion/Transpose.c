/* Transposes as the matcher and fusion read them (Transpose.h). */
#include "Fusion/Transpose.h"
#include "Support/Builders.h"

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Linalg.h"

enum { kMaxRank = 8 };

static intptr_t rankOf(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsARankedTensor(t) ? mlirShapedTypeGetRank(t) : -1;
}

/* A permutation of `rank` dims given as an i64 or i32 dense array. */
static bool readPermutation(MlirAttribute a, int64_t *perm, intptr_t rank) {
  bool i64 = !mlirAttributeIsNull(a) && mlirAttributeIsADenseI64Array(a);
  if ((!i64 && (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI32Array(a))) ||
      mlirDenseArrayGetNumElements(a) != rank)
    return false;
  bool seen[kMaxRank] = {false};
  for (intptr_t i = 0; i < rank; ++i) {
    perm[i] = i64 ? mlirDenseI64ArrayGetElement(a, i) : mlirDenseI32ArrayGetElement(a, i);
    if (perm[i] < 0 || perm[i] >= rank || seen[perm[i]])
      return false;
    seen[perm[i]] = true;
  }
  return true;
}

/* A copying generic: out[d] = in[map(d)] with map a permutation; result
 * dim i is input dim j where map's result j is d_i. */
static bool readCopyPermutation(MlirOperation op, int64_t *perm, intptr_t rank) {
  if (!faOpIsA(op, "linalg.generic") || mlirOperationGetNumOperands(op) != 2)
    return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirOperation yield = mlirBlockGetTerminator(body);
  MlirAttribute maps = mlirLinalgGetIndexingMapsAttribute(op);
  MlirAffineMap in = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 0));
  MlirAffineMap out = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 1));
  if (mlirOperationGetNumOperands(yield) != 1 ||
      !mlirValueEqual(mlirOperationGetOperand(yield, 0), mlirBlockGetArgument(body, 0)) ||
      !mlirAffineMapIsIdentity(out) || mlirAffineMapGetNumResults(in) != rank ||
      mlirAffineMapGetNumDims(in) != rank)
    return false;
  bool seen[kMaxRank] = {false};
  for (intptr_t j = 0; j < rank; ++j) {
    MlirAffineExpr e = mlirAffineMapGetResult(in, j);
    if (!mlirAffineExprIsADim(e))
      return false;
    intptr_t d = mlirAffineDimExprGetPosition(e);
    if (d >= rank || seen[d])
      return false;
    seen[d] = true;
    perm[d] = j;
  }
  return true;
}

MlirValue faTransposeGetInput(MlirOperation op, int64_t *perm, intptr_t rank) {
  MlirValue none = {NULL};
  if (mlirOperationIsNull(op) || rank < 1 || rank > kMaxRank ||
      mlirOperationGetNumOperands(op) < 1 || mlirOperationGetNumResults(op) != 1 ||
      rankOf(mlirOperationGetOperand(op, 0)) != rank ||
      rankOf(mlirOperationGetResult(op, 0)) != rank)
    return none;
  bool ok = false;
  if (faOpIsA(op, "linalg.transpose"))
    ok = readPermutation(faOpGetAttr(op, "permutation"), perm, rank);
  else if (faOpIsA(op, "tosa.transpose"))
    ok = readPermutation(faOpGetAttr(op, "perms"), perm, rank);
  else
    ok = readCopyPermutation(op, perm, rank);
  return ok ? mlirOperationGetOperand(op, 0) : none;
}

bool faPermutationIs(const int64_t *perm, const int64_t *want, intptr_t rank) {
  for (intptr_t i = 0; i < rank; ++i)
    if (perm[i] != want[i])
      return false;
  return true;
}
