/* Umbrella header of the fa-mlir C API. */
#ifndef FA_C_FA_H
#define FA_C_FA_H
#include "fa-c/Dialect.h"
#include "fa-c/OptMain.h"
#include "fa-c/Passes.h"
#endif
