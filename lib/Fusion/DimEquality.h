/* Internal: proving tensor dims equal from the IR (DimEquality.c). */
#ifndef FA_LIB_FUSION_DIMEQUALITY_H
#define FA_LIB_FUSION_DIMEQUALITY_H

#include "mlir-c/IR.h"

#include <stdbool.h>

/* Whether dim `da` of ranked tensor `a` and dim `db` of `b` are equal on
 * every run: both static and the same, or both traced to the same size. */
bool faDimsProvablyEqual(MlirValue a, intptr_t da, MlirValue b, intptr_t db);

/* Whether the product of dims `dims[0..n)` of `a` is dim `db` of `b` on
 * every run (a batch merge [B, H] -> B*H with dynamic B). */
bool faDimProductProvablyEqual(MlirValue a, const intptr_t *dims, int n, MlirValue b,
                               intptr_t db);

/* Whether the index or integer value `size` is dim `d` of `t` on every run. */
bool faSizeProvablyEqualsDim(MlirValue size, MlirValue t, intptr_t d);

#endif
