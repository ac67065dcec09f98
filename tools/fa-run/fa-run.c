/* fa-run MODEL.so DIR [--tol-scale=X] [--repeat=N]: runs every function that
 * `fa-check --save=DIR` recorded, from a library built by fa-compile, on the
 * recorded inputs, and compares each output with the recorded CPU reference
 * (fa-check's tolerances). Needs no MLIR: it runs where only the GPU driver
 * is. Exit 0: all agree; 1: an output disagrees; 2: could not run (bad
 * files, missing function, GPU runtime failure). */
#include "Tensors.h"

#include <dlfcn.h>
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

static Elt eltNamed(const char *s) {
  for (int e = 0; e < ELT_BAD; ++e)
    if (!strcmp(kEltNames[e], s))
      return (Elt)e;
  return ELT_BAD;
}

/* Reads one "in|out K ELT RANK sizes... FILE" line and the file's data. */
static void *readTensor(FILE *m, const char *dir, TensorInfo *info) {
  char kind[8], elt[8], file[512], path[1024];
  int k;
  if (fscanf(m, "%7s %d %7s %d", kind, &k, elt, &info->rank) != 4 || info->rank > 8)
    return NULL;
  info->elt = eltNamed(elt);
  info->numElements = 1;
  for (int d = 0; d < info->rank; ++d) {
    long s;
    if (fscanf(m, "%ld", &s) != 1)
      return NULL;
    info->sizes[d] = s;
    info->numElements *= s;
  }
  if (fscanf(m, "%511s", file) != 1 || info->elt == ELT_BAD)
    return NULL;
  if (!strcmp(file, "gen")) { /* regenerate fa-check's input */
    unsigned long long state;
    long intMax;
    double scale;
    int binary;
    if (fscanf(m, "%llu %ld %lf %d", &state, &intMax, &scale, &binary) != 4)
      return NULL;
    uint64_t st = state;
    void *data = NULL;
    size_t bytes = (size_t)info->numElements * kEltBytes[info->elt];
    if (posix_memalign(&data, 4096, bytes ? bytes : 1) != 0)
      return NULL;
    randomFill(data, info, &st, intMax, scale, binary != 0);
    return data;
  }
  snprintf(path, sizeof path, "%s/%s", dir, file);
  size_t bytes = (size_t)info->numElements * kEltBytes[info->elt];
  void *data = NULL;
  FILE *f = fopen(path, "rb");
  if (!f || posix_memalign(&data, 4096, bytes ? bytes : 1) != 0 ||
      fread(data, 1, bytes, f) != bytes) {
    fprintf(stderr, "fa-run: cannot read %s\n", path);
    free(data);
    data = NULL;
  }
  if (f)
    fclose(f);
  return data;
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

/* The loaded model library and, for GPU targets, its runtime's status. */
typedef struct {
  void *lib;
  int (*getStatus)(void);
  const char *(*getMessage)(void);
} Model;

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

static int runFunc(const Model *model, FILE *m, const char *dir, const char *name, int numIn,
                   int numOut, double tolScale, int repeat) {
  TensorInfo inInfo[23];
  void *inData[23] = {0}, *refData[8] = {0};
  Results ref = {numOut, {{0}}, NULL}, got = ref;
  int status = 2;
  bool ok = numIn + (numOut > 0) <= 24 && numIn <= 23 && numOut <= 8;
  if (!ok)
    fprintf(stderr, "fa-run: %s: too many inputs or results\n", name);
  for (int i = 0; i < numIn && ok; ++i)
    ok = (inData[i] = readTensor(m, dir, &inInfo[i])) != NULL;
  for (int i = 0; i < numOut && ok; ++i)
    ok = (refData[i] = readTensor(m, dir, &ref.info[i])) != NULL;
  char symbol[300];
  snprintf(symbol, sizeof symbol, "_mlir_ciface_%s", name);
  Entry entry = ok ? (Entry)dlsym(model->lib, symbol) : NULL;
  if (ok && !entry)
    fprintf(stderr, "fa-run: the library has no %s\n", symbol);
  if (entry) {
    size_t bytes = 0;
    for (int i = 0; i < numOut; ++i)
      bytes += descBytes(ref.info[i].rank);
    memcpy(got.info, ref.info, sizeof ref.info);
    ref.storage = calloc(1, bytes + 8);
    got.storage = calloc(1, bytes + 8);
    for (int i = 0; i < numOut; ++i)
      packResult(&ref, i, refData[i]);
    status = 0;
    for (int r = 0; r < repeat && status != 2; ++r) {
      int s = callOnce(model, entry, name, numIn, inInfo, inData, &ref, &got, tolScale);
      status = s > status ? s : status;
    }
  }
  free(ref.storage);
  free(got.storage);
  for (int i = 0; i < 23; ++i)
    free(inData[i]);
  for (int i = 0; i < 8; ++i)
    free(refData[i]);
  return status;
}

int main(int argc, char **argv) {
  double tolScale = 1;
  int repeat = 1;
  const char *libPath = NULL, *dir = NULL;
  for (int i = 1; i < argc; ++i) {
    if (!strncmp(argv[i], "--tol-scale=", 12))
      tolScale = strtod(argv[i] + 12, NULL);
    else if (!strncmp(argv[i], "--repeat=", 9))
      repeat = atoi(argv[i] + 9);
    else if (!libPath)
      libPath = argv[i];
    else
      dir = argv[i];
  }
  if (!libPath || !dir || repeat < 1) {
    fprintf(stderr, "usage: fa-run MODEL.so DIR [--tol-scale=X] [--repeat=N]\n"
                    "DIR holds what fa-check --save=DIR wrote. Each function is called\n"
                    "N times (default 1), each time on inputs in fresh heap memory.\n");
    return 2;
  }
  void *lib = dlopen(libPath, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "fa-run: cannot load %s: %s\n", libPath, dlerror());
    return 2;
  }
  Model model = {lib, (int (*)(void))dlsym(lib, "faRuntimeGetStatus"),
                 (const char *(*)(void))dlsym(lib, "faRuntimeGetErrorMessage")};
  char path[1024];
  snprintf(path, sizeof path, "%s/manifest.txt", dir);
  FILE *m = fopen(path, "r");
  if (!m) {
    fprintf(stderr, "fa-run: cannot read %s\n", path);
    return 2;
  }
  char word[16], name[256];
  int numIn, numOut, worst = 0, counts[3] = {0};
  while (fscanf(m, "%15s %255s %d %d", word, name, &numIn, &numOut) == 4 &&
         !strcmp(word, "func")) {
    int s = runFunc(&model, m, dir, name, numIn, numOut, tolScale, repeat);
    ++counts[s];
    worst = s > worst ? s : worst;
    if (s == 2)
      break; /* the manifest position is unknown after a failure */
  }
  fclose(m);
  printf("fa-run: %d functions: %d agree, %d disagree, %d could not run\n",
         counts[0] + counts[1] + counts[2], counts[0], counts[1], counts[2]);
  return worst;
}
