/* Internal: the indices of the kernels' copies of the op's functions
 * (ScoreIndices.c), shared by ScoreFunctions.c. */
#ifndef FA_LIB_LOWERING_SCOREINDICES_H
#define FA_LIB_LOWERING_SCOREINDICES_H

#include "mlir-c/IR.h"

#include <stdbool.h>

/* The values a copy's body reads as b, h, i and j: its block arguments, or
 * (split) i = i0 + di and j = j0 + dj; `parts` are then i0, di, j0, dj. */
typedef struct {
  MlirValue idx[4];
  MlirValue parts[4];
  bool split;
} FaScoreIndices;

/* The indices of `fn`'s entry block whose first index argument is `first`
 * (0 for a mask, 1 for a score_mod after its score). */
FaScoreIndices faScoreIndicesGet(MlirOperation fn, int first);

/* Splits the query and key arguments of score_mod copy `fn` into base and
 * offset: (s, b, h, i, j, captures) becomes (s, b, h, i0, di, j0, dj,
 * captures), i = i0 + di and j = j0 + dj at the entry. The kernels pass a
 * thread's first row and column as i0, j0 and a fragment element's offsets
 * (0 <= di, dj < 1024) as di, dj. Leaves function_type to the caller. */
void faScoreIndicesSplit(MlirOperation fn, FaScoreIndices *ix);

/* Rewrites `op` of a copy's body if an index rule applies to it: an integer
 * -> f32 conversion of a value that is +-i +-j + c, with split indices, as
 * exact float arithmetic on per-thread parts (below); else an i64 -> f32
 * conversion whose value fits i32 in 32 bits. */
void faScoreIndicesRewrite(MlirOperation op, const FaScoreIndices *ix);

/* Whether index `v` of a copy's body lies in [0, 2^31) by the static
 * ranges of the rules above (the indices b, h, i, j do). */
bool faScoreIndexFitsI32(MlirValue v, const FaScoreIndices *ix);

/* Whether score_mod `fn` reads a captured tensor at an index computed from
 * the query or the key (a table of relative positions): what its
 * tile-uniform copy saves. */
bool faScoreModReadsByPosition(MlirOperation fn);

/* Makes split copy `fn` its tile-uniform copy: the offsets di, dj read as 0,
 * so that every value computed from the query and key is the thread's
 * first element's. Exact where every integer the function derives from
 * them (and hands to a non-integer op) is one value over the tile: what the
 * kernels test before they call it (faAttentionAppendModTileRange). */
void faScoreModMakeTileUniform(MlirOperation fn);

#endif
