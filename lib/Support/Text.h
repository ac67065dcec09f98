/* Internal: a growable string, shared by the layers (IR templates, tools'
 * output and diagnostics). */
#ifndef FA_LIB_SUPPORT_TEXT_H
#define FA_LIB_SUPPORT_TEXT_H

#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stddef.h>

/* Where a line of a text came from (a template file and its line). */
typedef struct {
  const char *file;
  int line;
} FaTextOrigin;

/* A growable, NUL-terminated string. Aborts when out of memory. Lines may
 * carry their origins (faTextNoteOrigin), so that an error in parsing the
 * text can name the template line it came from. */
typedef struct FaText {
  char *data;
  size_t size, cap;
  FaTextOrigin *origins; /* by line of data, 0-based; NULL: none noted */
  size_t numOrigins, numLines, scanned;
} FaText;

void faTextInit(FaText *t);
void faTextDestroy(FaText *t);
void faTextAppend(FaText *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Notes that the line of `t` being written (the text after its last
 * newline, and what is appended to it) comes from line `line` of `file` (a
 * string that outlives `t`). */
void faTextNoteOrigin(FaText *t, const char *file, int line);
/* The origin of line `line` (1-based) of `t`; false when none was noted. */
bool faTextGetOrigin(const FaText *t, int line, FaTextOrigin *origin);

/* An MlirStringCallback appending to the FaText `userData` (for the C API's
 * printers). */
void faTextAppendStringRef(MlirStringRef s, void *userData);

#endif
