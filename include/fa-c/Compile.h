/*===-- fa-c/Compile.h - fa-compile driver -------------------------*- C -*-===*\
|* faCompileMain: fa-compile MODEL.mlir                                        *|
|* --target=cpu|sm_80|sm_90|sm_90a|gfx90a|gfx942 -o OUT.o|OUT.so. Fusion,      *|
|* lowering and LLVM code generation in one step.                              *|
\*===----------------------------------------------------------------------===*/
#ifndef FA_C_COMPILE_H
#define FA_C_COMPILE_H

#include "fa-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Runs fa-compile; returns the process exit status (0 ok, 1 compile error,
/// 2 bad usage or I/O error).
FA_CAPI_EXPORTED int faCompileMain(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
