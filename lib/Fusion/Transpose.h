/* Internal: transposes as the matcher and fusion read them. */
#ifndef FA_LIB_FUSION_TRANSPOSE_H
#define FA_LIB_FUSION_TRANSPOSE_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stdint.h>

/* If `op` transposes a whole tensor of rank `rank` (at most 8):
 * linalg.transpose, tosa.transpose, or a linalg.generic that yields its one
 * input, read through a permutation map, into an identity-mapped output:
 * returns that input, with perm[i] the input dim that result dim i is.
 * Otherwise (a null `op` too) a null value. */
MlirValue faTransposeGetInput(MlirOperation op, int64_t *perm, intptr_t rank);

/* Whether perm[0 .. rank) is want[0 .. rank). */
bool faPermutationIs(const int64_t *perm, const int64_t *want, intptr_t rank);

#endif
