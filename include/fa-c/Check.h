/*===-- fa-c/Check.h - The fa-check oracle -------------------------*- C -*-===*\
|* fa-check compiles a model twice for the CPU (upstream passes only, and      *|
|* our fa-to-cpu), runs every public function of both on the same seeded       *|
|* random inputs and compares the outputs within a per-type tolerance.         *|
\*===----------------------------------------------------------------------===*/
#ifndef FA_C_CHECK_H
#define FA_C_CHECK_H

#include "fa-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Runs fa-check with command-line arguments. Returns 0 when every output
/// agrees, 1 when one disagrees, 2 when the model could not be compiled or run.
FA_CAPI_EXPORTED int faCheckMain(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif /* FA_C_CHECK_H */
