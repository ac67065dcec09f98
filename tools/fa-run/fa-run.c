/* fa-run MODEL.so DIR [--tol-scale=X] [--repeat=N]: runs every function that
 * `fa-check --save=DIR` recorded, from a library built by fa-compile, on the
 * recorded inputs, and compares each output with the recorded CPU reference
 * (fa-check's tolerances). Before a call, the manifest's tensors are checked
 * against the signature fa-compile recorded in the library
 * (_fa_signature_NAME). Needs no MLIR: it runs where only the GPU driver
 * is. Exit 0: all agree; 1: an output disagrees; 2: a bad command line
 * (ToolArgs.h), or could not run (bad files, a manifest that does not match
 * the library, GPU runtime failure). */
#include "Tools/Tensors.h"
#include "Tools/ToolArgs.h"

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*Entry)();

/* Calls `f` with `n` pointer arguments (MLIR's C interface passes only
 * pointers: the result struct first, then one descriptor per input). */
static bool callEntry(Entry f, void **a, int n) {
  switch (n) {
  case 1: ((void (*)(void *))f)(a[0]); break;
  case 2: ((void (*)(void *, void *))f)(a[0], a[1]); break;
  case 3: ((void (*)(void *, void *, void *))f)(a[0], a[1], a[2]); break;
  case 4: ((void (*)(void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3]); break;
  case 5: ((void (*)(void *, void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3], a[4]); break;
  case 6: ((void (*)(void *, void *, void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3], a[4], a[5]); break;
  case 7: ((void (*)(void *, void *, void *, void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3], a[4], a[5], a[6]); break;
  case 8: ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]); break;
  case 9: ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]); break;
  case 10: ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]); break;
  case 11: ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10]); break;
  case 12: ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]); break;
  case 13: ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12]); break;
  case 14: ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13]); break;
  case 15: ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14]); break;
  case 16: ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15]); break;
  case 17: ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16]); break;
  case 18: ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17]); break;
  case 19: ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18]); break;
  case 20: ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19]); break;
  case 21: ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20]); break;
  case 22: ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21]); break;
  case 23: ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22]); break;
  case 24: ((void (*)(void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *, void *))f)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23]); break;
  default:
    return false;
  }
  return true;
}

enum { kMaxIn = 23, kMaxOut = 8 };

static Elt eltNamed(const char *s) {
  for (int e = 0; e < ELT_BAD; ++e)
    if (!strcmp(kEltNames[e], s))
      return (Elt)e;
  return ELT_BAD;
}

/* --- the manifest, read line by line ----------------------------------------- */

typedef struct {
  FILE *f;
  char path[1100];
  const char *dir;
  int line;
  char text[8192];
  char *save; /* strtok_r state within `text` */
} Manifest;

static void manifestError(const Manifest *m, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void manifestError(const Manifest *m, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "fa-run: %s:%d: ", m->path, m->line);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
}

/* Reads the next non-blank line; false at the end of the file or on a read
 * error (m->f's error flag). */
static bool nextLine(Manifest *m) {
  while (fgets(m->text, sizeof m->text, m->f)) {
    ++m->line;
    m->save = NULL;
    if (strspn(m->text, " \t\r\n") != strlen(m->text))
      return true;
  }
  return false;
}

static const char *nextWord(Manifest *m) {
  const char *w = strtok_r(m->save ? NULL : m->text, " \t\r\n", &m->save);
  if (!m->save)
    m->save = m->text + strlen(m->text); /* the line is used up */
  return w;
}

/* The next word as an integer in [min, max]; `what` names it in errors. */
static bool nextInt(Manifest *m, const char *what, int64_t min, int64_t max, int64_t *out) {
  const char *w = nextWord(m);
  char *end;
  errno = 0;
  long long v = w ? strtoll(w, &end, 10) : 0;
  if (!w || *end || errno || v < min || v > max) {
    manifestError(m, "%s: expected an integer in [%lld, %lld], found '%s'", what,
                  (long long)min, (long long)max, w ? w : "end of line");
    return false;
  }
  *out = v;
  return true;
}

/* One "in|out K ELT RANK SIZE... (FILE | gen STATE INTMAX SCALE BINARY)". */
typedef struct {
  TensorInfo info;
  uint64_t bytes;
  bool gen;
  uint64_t state;
  int64_t intMax, binary;
  double scale;
  char file[512];
} TensorLine;

static bool readGenerator(Manifest *m, TensorLine *t) {
  const char *state = nextWord(m), *scale;
  char *end;
  t->gen = true;
  errno = 0;
  if (!state || (t->state = strtoull(state, &end, 10), *end) || errno || state[0] == '-' ||
      !nextInt(m, "generator int-max", 0, INT64_MAX - 1, &t->intMax) ||
      !(scale = nextWord(m)) || (t->scale = strtod(scale, &end), *end) ||
      !isfinite(t->scale) || !nextInt(m, "generator binary flag", 0, 1, &t->binary)) {
    manifestError(m, "a 'gen' input wants: STATE INT-MAX SCALE BINARY");
    return false;
  }
  return true;
}

static bool readTensorLine(Manifest *m, const char *kind, int k, TensorLine *t) {
  char what[32];
  snprintf(what, sizeof what, "%s %d", kind, k);
  const char *w;
  int64_t index, rank;
  if (!nextLine(m) || !(w = nextWord(m)) || strcmp(w, kind)) {
    manifestError(m, "expected the line of %s", what);
    return false;
  }
  if (!nextInt(m, what, k, k, &index) || !(w = nextWord(m)) ||
      (t->info.elt = eltNamed(w)) == ELT_BAD) {
    manifestError(m, "%s: expected an element type (f32, f16, bf16, i1, i32, i64)", what);
    return false;
  }
  if (!nextInt(m, "rank", 0, 8, &rank))
    return false;
  t->info.rank = (int)rank;
  for (int d = 0; d < t->info.rank; ++d)
    if (!nextInt(m, "size", 0, INT64_MAX, &t->info.sizes[d]))
      return false;
  char shape[256];
  tensorShapeText(&t->info, shape, sizeof shape);
  if (!tensorBytes(&t->info, &t->bytes)) {
    manifestError(m, "%s: %s is too large: its size in bytes does not fit in 64 bits", what,
                  shape);
    return false;
  }
  if (!(w = nextWord(m))) {
    manifestError(m, "%s: expected a file name or 'gen'", what);
    return false;
  }
  t->gen = false;
  if (!strcmp(w, "gen"))
    return readGenerator(m, t);
  snprintf(t->file, sizeof t->file, "%s", w);
  return true;
}

/* --- the library's signature ------------------------------------------------- */

/* What fa-compile recorded: the element type, rank and sizes (-1 dynamic) of
 * every input, then every result. */
typedef struct {
  int numIn, numOut;
  TensorInfo args[kMaxIn + kMaxOut];
} Signature;

static bool parseSignature(const char *text, Signature *sig) {
  const char *p = text;
  int n;
  if (sscanf(p, "%d %d%n", &sig->numIn, &sig->numOut, &n) != 2 || sig->numIn < 0 ||
      sig->numOut < 0 || sig->numIn > kMaxIn || sig->numOut > kMaxOut)
    return false;
  p += n;
  for (int i = 0; i < sig->numIn + sig->numOut; ++i) {
    char elt[8];
    TensorInfo *a = &sig->args[i];
    if (sscanf(p, "%7s %d%n", elt, &a->rank, &n) != 2 || a->rank < 0 || a->rank > 8)
      return false;
    p += n;
    a->elt = eltNamed(elt);
    for (int d = 0; d < a->rank; ++d) {
      long s;
      if (sscanf(p, "%ld%n", &s, &n) != 1)
        return false;
      a->sizes[d] = s;
      p += n;
    }
  }
  return true;
}

/* Whether `t` has the element type, rank and static sizes of `want`. */
static bool tensorMatches(const TensorInfo *t, const TensorInfo *want) {
  if (t->elt != want->elt || t->rank != want->rank)
    return false;
  for (int d = 0; d < t->rank; ++d)
    if (want->sizes[d] >= 0 && want->sizes[d] != t->sizes[d])
      return false;
  return true;
}

static void signatureShapeText(const TensorInfo *t, char *buf, size_t size) {
  size_t at = 0;
  buf[0] = 0;
  for (int d = 0; d < t->rank && at < size; ++d)
    at += t->sizes[d] < 0 ? (size_t)snprintf(buf + at, size - at, "?x")
                          : (size_t)snprintf(buf + at, size - at, "%ldx", (long)t->sizes[d]);
  if (at < size)
    snprintf(buf + at, size - at, "%s", t->elt < ELT_BAD ? kEltNames[t->elt] : "?");
}

/* --- running ----------------------------------------------------------------- */

/* The loaded model library and, for GPU targets, its runtime's status. */
typedef struct {
  void *lib;
  int (*getStatus)(void);
  const char *(*getMessage)(void);
} Model;

/* One function of the manifest. */
typedef struct {
  char name[256];
  int numIn, numOut;
  TensorLine in[kMaxIn], out[kMaxOut];
  int funcLine; /* manifest line of "func ..." */
} FuncEntry;

/* Checks the manifest's tensors against the library's signature of the
 * function; each mismatch is reported, naming the argument. */
static bool checkSignature(const Manifest *m, const FuncEntry *fe, const Signature *sig) {
  if (fe->numIn != sig->numIn || fe->numOut != sig->numOut) {
    fprintf(stderr, "fa-run: %s:%d: %s: the manifest has %d inputs and %d results, the "
                    "library's %s takes %d inputs and returns %d results\n",
            m->path, fe->funcLine, fe->name, fe->numIn, fe->numOut, fe->name, sig->numIn,
            sig->numOut);
    return false;
  }
  bool ok = true;
  for (int i = 0; i < fe->numIn + fe->numOut; ++i) {
    bool isIn = i < fe->numIn;
    const TensorInfo *t = isIn ? &fe->in[i].info : &fe->out[i - fe->numIn].info;
    if (tensorMatches(t, &sig->args[i]))
      continue;
    char have[256], want[256];
    tensorShapeText(t, have, sizeof have);
    signatureShapeText(&sig->args[i], want, sizeof want);
    fprintf(stderr, "fa-run: %s:%d: %s: %s %d is %s in the manifest, but the library's "
                    "function has %s\n",
            m->path, fe->funcLine, fe->name, isIn ? "input" : "result",
            isIn ? i : i - fe->numIn, have, want);
    ok = false;
  }
  return ok;
}

/* The function's entry point; NULL (with a message) when the library lacks
 * it, lacks its signature or the manifest does not match the signature. */
static Entry lookUpEntry(const Model *model, const Manifest *m, const FuncEntry *fe) {
  char symbol[300];
  snprintf(symbol, sizeof symbol, "_mlir_ciface_%s", fe->name);
  Entry entry = (Entry)dlsym(model->lib, symbol);
  if (!entry) {
    fprintf(stderr, "fa-run: the library has no %s\n", symbol);
    return NULL;
  }
  snprintf(symbol, sizeof symbol, "_fa_signature_%s", fe->name);
  const char *text = dlsym(model->lib, symbol);
  Signature sig;
  if (!text || !parseSignature(text, &sig)) {
    fprintf(stderr, "fa-run: the library has no readable %s (build it with this "
                    "fa-compile): cannot check the manifest against %s\n", symbol, fe->name);
    return NULL;
  }
  return checkSignature(m, fe, &sig) ? entry : NULL;
}

/* Fresh 4096-aligned memory with the tensor's data: regenerated or read. */
static void *loadTensor(const Manifest *m, const TensorLine *t) {
  void *data = NULL;
  if (posix_memalign(&data, 4096, t->bytes ? (size_t)t->bytes : 1) != 0) {
    fprintf(stderr, "fa-run: out of memory allocating %llu bytes\n",
            (unsigned long long)t->bytes);
    return NULL;
  }
  if (t->gen) { /* regenerate fa-check's input */
    uint64_t st = t->state;
    randomFill(data, &t->info, &st, t->intMax, t->scale, t->binary != 0);
    return data;
  }
  char path[1100];
  snprintf(path, sizeof path, "%s/%s", m->dir, t->file);
  FILE *f = fopen(path, "rb");
  bool ok = f && fread(data, 1, (size_t)t->bytes, f) == t->bytes;
  if (f)
    fclose(f);
  if (!ok) {
    fprintf(stderr, "fa-run: cannot read %llu bytes from %s\n", (unsigned long long)t->bytes,
            path);
    free(data);
    return NULL;
  }
  return data;
}

/* False (with a message) when the function's tensors, inputs twice (the
 * loaded data and the copy each call gets) and results twice (reference and
 * returned), would not fit in memory. */
static bool checkSizes(const Manifest *m, const FuncEntry *fe) {
  uint64_t total = 0;
  for (int i = 0; i < fe->numIn; ++i)
    if (__builtin_add_overflow(total, fe->in[i].bytes, &total))
      total = UINT64_MAX;
  for (int i = 0; i < fe->numOut; ++i)
    if (__builtin_add_overflow(total, fe->out[i].bytes, &total))
      total = UINT64_MAX;
  char what[1600];
  snprintf(what, sizeof what, "%s:%d: %s: the manifest's tensors, loaded and copied for the "
                              "call, need", m->path, fe->funcLine, fe->name);
  return !__builtin_mul_overflow(total, 2, &total) ? checkFitsInMemory("fa-run", what, total)
                                                   : checkFitsInMemory("fa-run", what,
                                                                       UINT64_MAX);
}

/* Packs result descriptors as the callee writes them. */
static void packResult(Results *r, int i, void *data) {
  char *p = r->storage;
  for (int k = 0; k < i; ++k)
    p += descBytes(r->info[k].rank);
  Desc d;
  descInit(&d, &r->info[i], data);
  memcpy(p, &d, descBytes(r->info[i].rank));
}

/* Calls `entry` on copies of the inputs in fresh heap memory, freed after
 * the call (as a program calling the model repeatedly passes its buffers),
 * and compares the results: 0 agree, 1 disagree, 2 runtime error. */
static int callOnce(const Model *model, Entry entry, const char *name, int numIn,
                    const TensorInfo *inInfo, void *const *inData, Results *ref,
                    Results *got, double tolScale) {
  Desc inputs[23];
  void *copies[23] = {0}, *args[24];
  int n = 0, status = 0;
  if (ref->numResults)
    args[n++] = got->storage;
  for (int i = 0; i < numIn; ++i) {
    size_t bytes = (size_t)inInfo[i].numElements * kEltBytes[inInfo[i].elt];
    copies[i] = malloc(bytes ? bytes : 1);
    memcpy(copies[i], inData[i], bytes);
    descInit(&inputs[i], &inInfo[i], copies[i]);
    args[n++] = &inputs[i];
  }
  callEntry(entry, args, n);
  for (int i = 0; i < numIn; ++i)
    free(copies[i]);
  if (model->getStatus && model->getStatus() != 0) {
    printf("%s: GPU runtime error: %s\n", name,
           model->getMessage ? model->getMessage() : "?");
    return 2;
  }
  for (int i = 0; i < ref->numResults; ++i)
    if (!compareOutput(name, i, ref, got, tolScale))
      status = 1;
  return status;
}

/* Loads the tensors of `fe` and calls it `repeat` times: 0 agree, 1 disagree,
 * 2 could not run. */
static int runEntry(const Model *model, const Manifest *m, Entry entry, const FuncEntry *fe,
                    double tolScale, int repeat) {
  TensorInfo inInfo[kMaxIn];
  void *inData[kMaxIn] = {0}, *refData[kMaxOut] = {0};
  Results ref = {fe->numOut, {{0}}, NULL}, got = ref;
  bool ok = true;
  for (int i = 0; i < fe->numIn && ok; ++i) {
    inInfo[i] = fe->in[i].info;
    ok = (inData[i] = loadTensor(m, &fe->in[i])) != NULL;
  }
  for (int i = 0; i < fe->numOut && ok; ++i) {
    ref.info[i] = fe->out[i].info;
    ok = (refData[i] = loadTensor(m, &fe->out[i])) != NULL;
  }
  int status = 2;
  if (ok) {
    size_t bytes = 0;
    for (int i = 0; i < fe->numOut; ++i)
      bytes += descBytes(ref.info[i].rank);
    memcpy(got.info, ref.info, sizeof ref.info);
    ref.storage = calloc(1, bytes + 8);
    got.storage = calloc(1, bytes + 8);
    for (int i = 0; i < fe->numOut; ++i)
      packResult(&ref, i, refData[i]);
    status = 0;
    for (int r = 0; r < repeat && status != 2; ++r) {
      int s = callOnce(model, entry, fe->name, fe->numIn, inInfo, inData, &ref, &got, tolScale);
      status = s > status ? s : status;
    }
  }
  free(ref.storage);
  free(got.storage);
  for (int i = 0; i < kMaxIn; ++i)
    free(inData[i]);
  for (int i = 0; i < kMaxOut; ++i)
    free(refData[i]);
  return status;
}

/* Reads the "func NAME NIN NOUT" line (already in m->text) and the tensor
 * lines after it. */
static bool readFunc(Manifest *m, FuncEntry *fe) {
  const char *w = nextWord(m), *name = nextWord(m);
  int64_t numIn, numOut;
  if (!w || strcmp(w, "func") || !name) {
    manifestError(m, "expected 'func NAME NUM-INPUTS NUM-RESULTS'");
    return false;
  }
  snprintf(fe->name, sizeof fe->name, "%s", name);
  fe->funcLine = m->line;
  if (!nextInt(m, "number of inputs", 0, kMaxIn, &numIn) ||
      !nextInt(m, "number of results", 0, kMaxOut, &numOut))
    return false;
  fe->numIn = (int)numIn;
  fe->numOut = (int)numOut;
  for (int i = 0; i < fe->numIn; ++i)
    if (!readTensorLine(m, "in", i, &fe->in[i]))
      return false;
  for (int i = 0; i < fe->numOut; ++i)
    if (!readTensorLine(m, "out", i, &fe->out[i]))
      return false;
  return true;
}

/* Runs every function of the manifest; counts[status] are incremented.
 * Stops at a malformed manifest (its position is then unknown). */
static void runManifest(const Model *model, Manifest *m, double tolScale, int repeat,
                        int counts[3]) {
  FuncEntry *fe = malloc(sizeof *fe);
  while (fe && nextLine(m)) {
    if (!readFunc(m, fe)) {
      ++counts[2];
      break;
    }
    Entry entry = checkSizes(m, fe) ? lookUpEntry(model, m, fe) : NULL;
    ++counts[entry ? runEntry(model, m, entry, fe, tolScale, repeat) : 2];
  }
  free(fe);
}

static void usage(FILE *f) {
  fprintf(f, "usage: fa-run MODEL.so DIR [--tol-scale=X] [--repeat=N]\n"
             "DIR holds what fa-check --save=DIR wrote. Each function is called\n"
             "N times (default 1), each time on inputs in fresh heap memory, and\n"
             "its outputs compared with the saved ones by fa-check's rules.\n"
             "Exit status: 0 agree (and after --help, --version), 1 an output\n"
             "disagrees, 2 a bad command line, or a function could not run.\n"
             "  --tol-scale=X  multiply the tolerances by X >= 0 (default 1)\n"
             "  --repeat=N     call each function N times, 1 <= N <= 1000000\n");
  faToolPrintInfoOptions(f, 14);
}

typedef struct {
  double tolScale;
  int64_t repeat;
  const char *libPath, *dir;
} RunOptions;

/* One argument: an option, MODEL.so or DIR. */
static bool parseArg(const char *a, RunOptions *o) {
  if (!strncmp(a, "--tol-scale=", 12))
    return parseRealOption("fa-run", "--tol-scale", a + 12, 0, &o->tolScale);
  if (!strncmp(a, "--repeat=", 9))
    return parseIntOption("fa-run", "--repeat", a + 9, 1, 1000000, &o->repeat);
  if (a[0] == '-' && a[1])
    return faToolArgError("fa-run", "unknown option '%s'", a);
  if (o->dir)
    return faToolArgError("fa-run", "unexpected argument '%s' after MODEL.so and DIR", a);
  *(o->libPath ? &o->dir : &o->libPath) = a;
  return true;
}

static FaArgsResult parseArgs(int argc, char **argv, RunOptions *o) {
  *o = (RunOptions){1.0, 1, NULL, NULL};
  for (int i = 1; i < argc; ++i) {
    if (faToolAnswerInfoOption("fa-run", argv[i], usage))
      return FA_ARGS_DONE;
    if (!parseArg(argv[i], o))
      return FA_ARGS_ERROR;
  }
  if (!o->dir) {
    faToolArgError("fa-run", "missing %s: the arguments are MODEL.so DIR (a library of "
                             "fa-compile, a directory of fa-check --save=DIR)",
                   o->libPath ? "DIR" : "MODEL.so and DIR");
    return FA_ARGS_ERROR;
  }
  return FA_ARGS_RUN;
}

/* dlopen of a path, never of a name: "lib.so" is ./lib.so, not a search. */
static void *openLibrary(const char *path) {
  char local[4096];
  if (!strchr(path, '/')) {
    snprintf(local, sizeof local, "./%s", path);
    path = local;
  }
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    fprintf(stderr, "fa-run: cannot load %s: %s\n", path, dlerror());
  return lib;
}

int main(int argc, char **argv) {
  RunOptions o;
  FaArgsResult args = parseArgs(argc, argv, &o);
  if (args != FA_ARGS_RUN)
    return args;
  void *lib = openLibrary(o.libPath);
  if (!lib)
    return 2;
  Model model = {lib, (int (*)(void))dlsym(lib, "faRuntimeGetStatus"),
                 (const char *(*)(void))dlsym(lib, "faRuntimeGetErrorMessage")};
  Manifest m = {.dir = o.dir};
  snprintf(m.path, sizeof m.path, "%s/manifest.txt", o.dir);
  m.f = fopen(m.path, "r");
  if (!m.f) {
    fprintf(stderr, "fa-run: cannot read %s: %s\n", m.path, strerror(errno));
    return 2;
  }
  int counts[3] = {0};
  runManifest(&model, &m, o.tolScale, (int)o.repeat, counts);
  int total = counts[0] + counts[1] + counts[2];
  bool readError = ferror(m.f), empty = !readError && total == 0;
  if (readError)
    fprintf(stderr, "fa-run: cannot read %s: %s\n", m.path, strerror(errno));
  else if (empty)
    fprintf(stderr, "fa-run: %s lists no function: nothing to run\n", m.path);
  fclose(m.f);
  printf("fa-run: %d functions: %d agree, %d disagree, %d could not run\n", total, counts[0],
         counts[1], counts[2]);
  return counts[2] || readError || empty ? 2 : counts[1] ? 1 : 0;
}
