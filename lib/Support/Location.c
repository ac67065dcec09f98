/* Reading file:line:col out of MLIR locations. */
#include "Support/Location.h"

#include <stdlib.h>

bool faLocationResolve(MlirLocation loc, MlirStringRef *file, unsigned *line,
                       unsigned *col) {
  if (mlirLocationIsAFileLineColRange(loc)) {
    *file = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
    *line = (unsigned)mlirLocationFileLineColRangeGetStartLine(loc);
    *col = (unsigned)mlirLocationFileLineColRangeGetStartColumn(loc);
    return true;
  }
  if (mlirLocationIsAName(loc))
    return faLocationResolve(mlirLocationNameGetChildLoc(loc), file, line, col);
  if (mlirLocationIsACallSite(loc))
    return faLocationResolve(mlirLocationCallSiteGetCallee(loc), file, line, col);
  if (!mlirLocationIsAFused(loc))
    return false;
  unsigned n = mlirLocationFusedGetNumLocations(loc);
  MlirLocation *locs = malloc(n * sizeof(MlirLocation) + 1);
  mlirLocationFusedGetLocations(loc, locs);
  bool found = false;
  for (unsigned i = 0; i < n && !found; ++i)
    found = faLocationResolve(locs[i], file, line, col);
  free(locs);
  return found;
}
