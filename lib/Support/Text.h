/* Internal: a growable string, shared by the layers (IR templates, tools'
 * output and diagnostics). */
#ifndef FA_LIB_SUPPORT_TEXT_H
#define FA_LIB_SUPPORT_TEXT_H

#include "mlir-c/Support.h"

#include <stddef.h>

/* A growable, NUL-terminated string. Aborts when out of memory. */
typedef struct FaText {
  char *data;
  size_t size, cap;
} FaText;

void faTextInit(FaText *t);
void faTextDestroy(FaText *t);
void faTextAppend(FaText *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* An MlirStringCallback appending to the FaText `userData` (for the C API's
 * printers). */
void faTextAppendStringRef(MlirStringRef s, void *userData);

#endif
