/* Internal: IR-building helpers shared by all passes. */
#ifndef FA_LIB_TRANSFORMS_BUILDERS_H
#define FA_LIB_TRANSFORMS_BUILDERS_H

#include "mlir-c/IR.h"
#include "mlir-c/Rewrite.h"

/* Is `op` named `name`? */
bool faOpIsA(MlirOperation op, const char *name);

/* Defining op of `v`, or null if `v` is a block argument. */
MlirOperation faValueGetDefiningOp(MlirValue v);

/* True if `v` has exactly one use, and it is operand `operand` of `user`. */
bool faValueHasSingleUse(MlirValue v, MlirOperation user, intptr_t operand);

/* Inserts (through `rewriter`) a tensor.expand_shape of a static rank-R
 * tensor `v` (R = 2 or 3) to rank 4 by adding leading unit dims. */
MlirValue faBuildExpandToRank4(MlirRewriterBase rewriter, MlirLocation loc,
                               MlirValue v);
/* The inverse: collapses a rank-4 `v` with unit leading dims to `type`. */
MlirValue faBuildCollapseFromRank4(MlirRewriterBase rewriter, MlirLocation loc,
                                   MlirValue v, MlirType type);

/* Erases `op` if it has no uses, then does the same for the defining ops of
 * its operands whose names are in `names` (NULL-terminated). */
void faEraseDeadChain(MlirRewriterBase rewriter, MlirOperation op,
                      const char *const *names);

#endif
