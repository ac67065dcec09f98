/*===-- fa-c/Support.h - Visibility of the fa-mlir C API ----------*- C -*-===*\
|* FA_CAPI_EXPORTED marks every function of the public headers, as MLIR's      *|
|* MLIR_CAPI_EXPORTED does for its C API. The libraries are compiled with      *|
|* -fvisibility=hidden, so a function without it is not exported: libfa.so     *|
|* exports the functions of include/fa-c (and the MLIR C API it carries),      *|
|* libfa_rt_*.so those of fa-c/Runtime.h (and MLIR's mgpu* ABI); nothing of    *|
|* their internals (test/Install/exports.test checks both lists).              *|
|* No MLIR header here: fa-c/Runtime.h is for hosts without MLIR.              *|
\*===----------------------------------------------------------------------===*/
#ifndef FA_C_SUPPORT_H
#define FA_C_SUPPORT_H

#if defined(_WIN32) || defined(__CYGWIN__)
/* No DLL build of fa-mlir: visibility annotations disabled. */
#define FA_CAPI_EXPORTED
#else
#define FA_CAPI_EXPORTED __attribute__((visibility("default")))
#endif

#endif /* FA_C_SUPPORT_H */
