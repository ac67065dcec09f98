/* Internal: freeing the buffers a function does not let escape (shared by
 * fa-free-buffers and fa-gpu-host-memory). */
#ifndef FA_LIB_GPUPIPELINE_FREEBUFFERS_H
#define FA_LIB_GPUPIPELINE_FREEBUFFERS_H

#include "mlir-c/IR.h"

/* Inserts a memref.dealloc before the func.return of `func` (a func.func
 * with a single-block body; others are left alone) for each memref.alloc of
 * that block whose uses, through views, are all transient (kernel launch,
 * copy, load, store, dim). */
void faFuncFreeLocalBuffers(MlirOperation func);

#endif
