/* Internal: small string helpers shared by the layers. */
#ifndef FA_LIB_SUPPORT_STRINGS_H
#define FA_LIB_SUPPORT_STRINGS_H

#include <stdlib.h>
#include <string.h>

/* A NUL-terminated copy of the `n` bytes at `s` (malloc'd, the caller frees
 * it; aborts when out of memory). */
static inline char *faStringCopy(const char *s, size_t n) {
  char *c = malloc(n + 1);
  if (!c)
    abort();
  memcpy(c, s, n);
  c[n] = 0;
  return c;
}

#endif
