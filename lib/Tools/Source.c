/* Reading input buffers and splitting them for --split-input-file. */
#include "Tools/Tools.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char kSplitMarker[] = "// -----";

bool faSourceRead(const char *path, FaSource *out) {
  bool isStdin = strcmp(path, "-") == 0;
  FILE *f = isStdin ? stdin : fopen(path, "rb");
  out->name = isStdin ? "<stdin>" : path;
  if (!f) {
    fprintf(stderr, "%s: error: cannot open input file '%s': %s\n", faToolName, path,
            strerror(errno));
    return false;
  }
  size_t cap = 1 << 16, size = 0;
  char *data = malloc(cap);
  size_t n;
  while (data && (n = fread(data + size, 1, cap - size - 1, f)) > 0) {
    size += n;
    if (size + 1 == cap)
      data = realloc(data, cap *= 2);
  }
  bool readError = ferror(f);
  if (!isStdin)
    fclose(f);
  if (!data || readError) {
    fprintf(stderr, "%s: error: cannot read input file '%s'\n", faToolName, path);
    free(data);
    return false;
  }
  data[size] = 0;
  out->data = data;
  out->size = size;
  return true;
}

void faSourceDestroy(FaSource *source) {
  free(source->data);
  source->data = NULL;
}

static bool isMarkerLine(const char *line, const char *end) {
  size_t n = sizeof(kSplitMarker) - 1;
  return (size_t)(end - line) >= n && memcmp(line, kSplitMarker, n) == 0;
}

size_t faSourceSplit(const FaSource *source, bool split, FaChunk **chunksOwned) {
  size_t cap = 8, count = 0;
  FaChunk *chunks = malloc(cap * sizeof(FaChunk));
  const char *p = source->data, *end = source->data + source->size;
  FaChunk current = {p, 0, 1};
  unsigned line = 1;
  while (split && p < end) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    const char *next = eol ? eol + 1 : end;
    if (isMarkerLine(p, next)) {
      current.size = (size_t)(p - current.begin);
      if (count == cap)
        chunks = realloc(chunks, (cap *= 2) * sizeof(FaChunk));
      chunks[count++] = current;
      current = (FaChunk){next, 0, line + 1};
    }
    p = next;
    ++line;
  }
  current.size = (size_t)(end - current.begin);
  if (count == cap)
    chunks = realloc(chunks, (cap + 1) * sizeof(FaChunk));
  chunks[count++] = current;
  *chunksOwned = chunks;
  return count;
}

char *faChunkCreatePaddedText(const FaChunk *chunk, size_t *sizeOut) {
  size_t pad = chunk->firstLine - 1;
  char *text = malloc(pad + chunk->size + 1);
  memset(text, '\n', pad);
  memcpy(text + pad, chunk->begin, chunk->size);
  text[pad + chunk->size] = 0;
  *sizeOut = pad + chunk->size;
  return text;
}

bool faSourceIsBlank(const char *data, size_t size) {
  const char *p = data, *end = data + size;
  while (p < end) {
    if (*p == '/' && p + 1 < end && p[1] == '/') {
      const char *eol = memchr(p, '\n', (size_t)(end - p));
      p = eol ? eol + 1 : end;
    } else if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
      ++p;
    } else {
      return false;
    }
  }
  return true;
}
