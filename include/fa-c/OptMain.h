/*===-- fa-c/OptMain.h - The fa-opt driver as a library ------------*- C -*-===*\
|* faOptMain implements fa-opt (an mlir-opt-style driver) so that other tools  *|
|* can embed it. Returns the process exit status (0 on success).               *|
\*===----------------------------------------------------------------------===*/
#ifndef FA_C_OPTMAIN_H
#define FA_C_OPTMAIN_H

#include "fa-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

FA_CAPI_EXPORTED int faOptMain(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif /* FA_C_OPTMAIN_H */
