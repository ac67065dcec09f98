/* Internal: reading file:line:col out of MLIR locations. */
#ifndef FA_LIB_SUPPORT_LOCATION_H
#define FA_LIB_SUPPORT_LOCATION_H

#include "mlir-c/IR.h"

/* Finds the first file:line:col inside `loc`, looking through names, call
 * sites (callee) and fused locations. Returns false if there is none. */
bool faLocationResolve(MlirLocation loc, MlirStringRef *file, unsigned *line,
                       unsigned *col);

#endif
