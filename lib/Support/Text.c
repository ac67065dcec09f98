/* A growable string (lib/Support/Text.h). */
#include "Support/Text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void faTextInit(FaText *t) {
  t->cap = 4096;
  t->size = 0;
  t->data = malloc(t->cap);
  if (!t->data)
    abort();
  t->data[0] = '\0';
  t->origins = NULL;
  t->numOrigins = t->numLines = t->scanned = 0;
}

void faTextDestroy(FaText *t) {
  free(t->data);
  free(t->origins);
  t->data = NULL;
  t->origins = NULL;
  t->size = t->cap = t->numOrigins = t->numLines = t->scanned = 0;
}

void faTextNoteOrigin(FaText *t, const char *file, int line) {
  for (; t->scanned < t->size; ++t->scanned)
    t->numLines += t->data[t->scanned] == '\n';
  if (t->numLines >= t->numOrigins) {
    size_t n = t->numOrigins ? t->numOrigins : 256;
    while (n <= t->numLines)
      n *= 2;
    t->origins = realloc(t->origins, n * sizeof *t->origins);
    if (!t->origins)
      abort();
    memset(t->origins + t->numOrigins, 0, (n - t->numOrigins) * sizeof *t->origins);
    t->numOrigins = n;
  }
  t->origins[t->numLines] = (FaTextOrigin){file, line};
}

bool faTextGetOrigin(const FaText *t, int line, FaTextOrigin *origin) {
  if (line < 1 || (size_t)line > t->numOrigins || !t->origins[line - 1].file)
    return false;
  *origin = t->origins[line - 1];
  return true;
}

static void reserve(FaText *t, size_t extra) {
  if (t->size + extra + 1 <= t->cap)
    return;
  while (t->size + extra + 1 > t->cap)
    t->cap *= 2;
  t->data = realloc(t->data, t->cap);
  if (!t->data)
    abort();
}

void faTextAppend(FaText *t, const char *fmt, ...) {
  va_list ap, copy;
  va_start(ap, fmt);
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  if (n > 0) {
    reserve(t, (size_t)n);
    vsnprintf(t->data + t->size, (size_t)n + 1, fmt, ap);
    t->size += (size_t)n;
  }
  va_end(ap);
}

void faTextAppendStringRef(MlirStringRef s, void *userData) {
  FaText *t = userData;
  reserve(t, s.length);
  memcpy(t->data + t->size, s.data, s.length);
  t->size += s.length;
  t->data[t->size] = '\0';
}
