/* fa-check: the numerical oracle. Compiles a model twice for the CPU, once
 * with upstream passes only (fa-upstream-to-cpu: no fusion) and once through
 * our fusion and lowering (fa-to-cpu), runs every public function of both in
 * MLIR's ExecutionEngine on the same seeded random inputs and compares every
 * output. Exit 0: all agree; 1: some output disagrees; 2: a bad command line
 * (ToolArgs.h), or the model could not be compiled or run. */
#include "fa-c/Check.h"

#include "Tools/Tools.h"
#include "Tools/Tensors.h"
#include "Tools/ToolArgs.h"

#include "Support/IRText.h"

#include "fa-c/Dialect.h"
#include "fa-c/Passes.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* --- options ----------------------------------------------------------------- */

/* --dim=K=N (every dynamic dim of input K) or --dim=K.D=N (dim D of input K). */
typedef struct {
  int arg, dim; /* dim -1: every dynamic dim of the input */
  int64_t size;
} DimOverride;

enum { kMaxInputs = 32, kMaxResults = 8, kMaxDimOverrides = 64 };

typedef struct {
  const char *path;
  int64_t dim;      /* size of every dynamic dim without an override */
  DimOverride overrides[kMaxDimOverrides];
  int numOverrides;
  uint64_t seed;
  int64_t intMax;   /* integer inputs are uniform in [0, intMax] */
  double tolScale;  /* multiplies the per-type tolerances */
  double inputScale; /* float inputs are uniform in [-inputScale, inputScale] */
  bool split;       /* --split-input-file */
  uint64_t binaryArgs; /* bit k: float input k gets 0/1 values (masks) */
  const char *pipeline; /* the candidate lowering (default fa-to-cpu) */
  const char *saveDir;  /* --save: inputs and reference outputs for fa-run */
} CheckOptions;

static void usage(FILE *f) {
  fprintf(f,
          "usage: fa-check [options] MODEL.mlir\n"
          "Compiles MODEL twice for the CPU (upstream passes only, and fa-to-cpu),\n"
          "runs every public function of both on the same seeded random inputs (each\n"
          "run on its own copy) and prints, per function and output, the max absolute\n"
          "and relative error.\n"
          "Exit status: 0 agree (and after --help, --version), 1 disagree beyond the\n"
          "element type's tolerance, 2 a bad command line, or the model could not be\n"
          "compiled or run, or has no public function.\n"
          "  --dim=N        size of every dynamic dim (default 8)\n"
          "  --dim=K=N      size of every dynamic dim of input K (repeatable)\n"
          "  --dim=K.D=N    size of dim D of input K, a dynamic dim (repeatable),\n"
          "                 e.g. --dim=1.1=24 for a key length N != M\n"
          "  --seed=S       random seed (default 1)\n"
          "  --int-max=K    integer inputs are uniform in [0, K] (default: the dim)\n"
          "  --tol-scale=X  multiply the tolerances by X >= 0 (default 1)\n"
          "  --input-scale=X  float inputs are uniform in [-X, X] (default 1; whole\n"
          "                 models with random weights want less, e.g. 0.1)\n"
          "  --binary-arg=K float input K gets values 0 and 1 (a mask); repeatable\n"
          "  --split-input-file  check each '// -----' chunk as its own module\n"
          "  --pipeline=P   the candidate pipeline, ending in the LLVM dialect\n"
          "                 (default fa-to-cpu), e.g. 'fa-expand-erf,inline,fa-to-cpu'\n"
          "  --save=DIR     also write each function's inputs and reference outputs\n"
          "                 to DIR (manifest.txt and raw files), for fa-run on a GPU;\n"
          "                 DIR and its parents are created where missing\n");
  faToolPrintInfoOptions(f, 14);
}

/* `dir` and each missing parent of it, as mkdir -p makes them; false (with a
 * message naming the part that could not be made, and why) otherwise. */
static bool makeDirectories(const char *dir) {
  char path[1024];
  size_t len = strlen(dir);
  if (len >= sizeof path) {
    fprintf(stderr, "fa-check: --save: the directory name is longer than %zu bytes\n",
            sizeof path - 1);
    return false;
  }
  memcpy(path, dir, len + 1);
  for (size_t end = 1; end <= len; ++end) {
    if (path[end] != '/' && path[end] != 0)
      continue;
    if (path[end - 1] == '/')
      continue; /* "a//b", "/a" or "a/" */
    char saved = path[end];
    path[end] = 0;
    struct stat st;
    if (mkdir(path, 0777) != 0) {
      int err = errno;
      if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        if (err == EEXIST)
          fprintf(stderr, "fa-check: --save=%s: cannot create directory %s: it exists and is "
                          "not a directory\n", dir, path);
        else
          fprintf(stderr, "fa-check: --save=%s: cannot create directory %s: %s\n", dir, path,
                  strerror(err));
        return false;
      }
    }
    path[end] = saved;
  }
  return true;
}

/* --save: DIR (made where missing) with an empty manifest.txt (functions
 * are appended to it). */
static bool startManifest(const char *dir) {
  if (!makeDirectories(dir))
    return false;
  char path[1024];
  snprintf(path, sizeof path, "%s/manifest.txt", dir);
  FILE *m = fopen(path, "w");
  if (!m) {
    fprintf(stderr, "fa-check: cannot write %s: %s\n", path, strerror(errno));
    return false;
  }
  fclose(m);
  return true;
}

/* The largest dim --dim accepts; allocation sizes are checked per function. */
static const int64_t kMaxDim = INT64_MAX / 2;

/* --dim=N, --dim=K=N or --dim=K.D=N. */
static bool parseDim(const char *text, CheckOptions *o) {
  const char *eq = strchr(text, '=');
  if (!eq)
    return parseIntOption("fa-check", "--dim", text, 1, kMaxDim, &o->dim);
  if (o->numOverrides == kMaxDimOverrides)
    return faToolArgError("fa-check", "--dim: more than %d overrides", kMaxDimOverrides);
  char key[64];
  snprintf(key, sizeof key, "%.*s", (int)(eq - text), text);
  char *dot = strchr(key, '.');
  if (dot)
    *dot = 0;
  int64_t arg, dim = -1;
  DimOverride *d = &o->overrides[o->numOverrides];
  if (!parseIntOption("fa-check", "--dim input", key, 0, kMaxInputs - 1, &arg) ||
      (dot && !parseIntOption("fa-check", "--dim dim", dot + 1, 0, 7, &dim)) ||
      !parseIntOption("fa-check", "--dim", eq + 1, 1, kMaxDim, &d->size))
    return false;
  d->arg = (int)arg;
  d->dim = (int)dim;
  ++o->numOverrides;
  return true;
}

/* The value of `option` ("--name=VALUE" in the message), which must not be
 * empty. */
static bool parseNonEmpty(const char *option, const char *text, const char **out) {
  if (!*text)
    return faToolArgError("fa-check", "%s: the value is empty", option);
  *out = text;
  return true;
}

/* One "--name=value" option; false (with a message) when malformed. */
static bool parseOption(const char *a, CheckOptions *o) {
  int64_t k;
  if (!strncmp(a, "--dim=", 6))
    return parseDim(a + 6, o);
  if (!strncmp(a, "--seed=", 7)) {
    if (!parseIntOption("fa-check", "--seed", a + 7, 0, INT64_MAX, &k))
      return false;
    o->seed = (uint64_t)k;
    return true;
  }
  if (!strncmp(a, "--int-max=", 10))
    return parseIntOption("fa-check", "--int-max", a + 10, 0, INT64_MAX - 1, &o->intMax);
  if (!strncmp(a, "--input-scale=", 14))
    return parseRealOption("fa-check", "--input-scale", a + 14, 0, &o->inputScale);
  if (!strncmp(a, "--tol-scale=", 12))
    return parseRealOption("fa-check", "--tol-scale", a + 12, 0, &o->tolScale);
  if (!strncmp(a, "--binary-arg=", 13)) {
    if (!parseIntOption("fa-check", "--binary-arg", a + 13, 0, kMaxInputs - 1, &k))
      return false;
    o->binaryArgs |= 1ull << k;
    return true;
  }
  if (!strncmp(a, "--save=", 7))
    return parseNonEmpty("--save=DIR", a + 7, &o->saveDir);
  if (!strncmp(a, "--pipeline=", 11))
    return parseNonEmpty("--pipeline=P", a + 11, &o->pipeline);
  if (!strcmp(a, "--split-input-file")) {
    o->split = true;
    return true;
  }
  return faToolArgError("fa-check", "unknown option '%s'", a);
}

/* One argument: an option or MODEL.mlir ("-" is stdin). */
static bool parseArg(const char *a, CheckOptions *o) {
  if (a[0] == '-' && a[1])
    return parseOption(a, o);
  if (o->path)
    return faToolArgError("fa-check", "more than one input file: '%s' and '%s'", o->path, a);
  o->path = a;
  return true;
}

static FaArgsResult parseArgs(int argc, char **argv, CheckOptions *o) {
  *o = (CheckOptions){.dim = 8, .seed = 1, .intMax = -1, .tolScale = 1.0,
                      .inputScale = 1.0, .pipeline = "fa-to-cpu"};
  for (int i = 1; i < argc; ++i) {
    if (faToolAnswerInfoOption("fa-check", argv[i], usage))
      return FA_ARGS_DONE;
    if (!parseArg(argv[i], o))
      return FA_ARGS_ERROR;
  }
  if (!o->path) {
    faToolArgError("fa-check", "no input file: give MODEL.mlir (or - for stdin)");
    return FA_ARGS_ERROR;
  }
  if (o->intMax < 0)
    o->intMax = o->dim;
  return !o->saveDir || startManifest(o->saveDir) ? FA_ARGS_RUN : FA_ARGS_ERROR;
}

/* The size of dim `d` of input `k`, a dynamic dim: --dim=K.D=N, else
 * --dim=K=N, else --dim=N (the last of each kind given wins). */
static int64_t dynamicDimSize(const CheckOptions *o, int k, int d) {
  int64_t size = o->dim;
  bool exact = false;
  for (int i = 0; i < o->numOverrides; ++i) {
    const DimOverride *v = &o->overrides[i];
    if (v->arg == k && (v->dim == d || (v->dim < 0 && !exact))) {
      size = v->size;
      exact = v->dim == d;
    }
  }
  return size;
}

/* The element type and rank of `t`, and its sizes: those of input `k`
 * (dynamic dims from the options), or for a result (k < 0) 0 for a dynamic
 * dim until a run returns it. False unless a ranked tensor of a supported
 * element type. */
static bool tensorInfo(MlirType t, const CheckOptions *o, int k, TensorInfo *info) {
  if (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) > 8)
    return false;
  info->elt = (Elt)faEltOfType(mlirShapedTypeGetElementType(t));
  info->rank = (int)mlirShapedTypeGetRank(t);
  info->numElements = 0;
  for (int d = 0; d < info->rank; ++d)
    info->sizes[d] = !mlirShapedTypeIsDynamicDim(t, d) ? mlirShapedTypeGetDimSize(t, d)
                     : k < 0                             ? 0
                                                         : dynamicDimSize(o, k, d);
  return info->elt != ELT_BAD;
}

static bool hasDynamicDim(MlirType t) {
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); ++d)
    if (mlirShapedTypeIsDynamicDim(t, d))
      return true;
  return false;
}

/* --- compiling --------------------------------------------------------------- */

typedef struct {
  char name[256];
  MlirType type; /* function type */
} PublicFunc;

static int collectFuncs(MlirOperation module, PublicFunc *out, int max) {
  int n = 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef opName = mlirIdentifierStr(mlirOperationGetName(op));
    if (!mlirStringRefEqual(opName, mlirStringRefCreateFromCString("func.func")))
      continue;
    MlirAttribute vis = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_visibility"));
    if (!mlirAttributeIsNull(vis) || mlirRegionIsNull(mlirOperationGetRegion(op, 0)) ||
        mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0))))
      continue;
    if (n == max)
      break;
    MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_name")));
    snprintf(out[n].name, sizeof out[n].name, "%.*s", (int)name.length, name.data);
    out[n].type = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("function_type")));
    mlirOperationSetAttributeByName(
        op, mlirStringRefCreateFromCString("llvm.emit_c_interface"),
        mlirUnitAttrGet(mlirOperationGetContext(op)));
    ++n;
  }
  return n;
}

static MlirExecutionEngine compile(MlirOperation module, const char *pipeline) {
  if (!faModuleRunPipeline(module, pipeline)) {
    fprintf(stderr, "fa-check: %s failed on the model\n", pipeline);
    return (MlirExecutionEngine){NULL};
  }
  /* memrefCopy and friends, which lowered memref.copy calls. */
  MlirStringRef libs[1] = {mlirStringRefCreateFromCString(FA_LLVM_LIB_DIR
                                                          "/libmlir_c_runner_utils.so")};
  MlirExecutionEngine jit = mlirExecutionEngineCreate(mlirModuleFromOperation(module), 2, 1,
                                                      libs, false, false);
  if (mlirExecutionEngineIsNull(jit))
    fprintf(stderr, "fa-check: the JIT could not compile the %s output\n", pipeline);
  else
    mlirExecutionEngineInitialize(jit);
  return jit;
}

/* --- inputs ------------------------------------------------------------------ */

/* The inputs of one function, generated once: each run gets its own copy,
 * so that a function updating an argument in place (and returning it)
 * neither changes what the other run reads nor makes both runs return the
 * same buffer. */
typedef struct {
  int num;
  TensorInfo info[kMaxInputs];
  uint64_t bytes[kMaxInputs], genStates[kMaxInputs];
  void *data[kMaxInputs];
} Inputs;

/* One run's copies of the inputs, as descriptors. */
typedef struct {
  Desc desc[kMaxInputs];
  void *data[kMaxInputs];
} RunInputs;

static void inputsDestroy(Inputs *in) {
  for (int i = 0; i < in->num; ++i)
    free(in->data[i]);
  in->num = 0;
}

/* The type and sizes of every input of `f`; false (with a message) when one
 * is unsupported or the inputs, with a copy for each run, would not fit. */
static bool inputShapes(const PublicFunc *f, const CheckOptions *o, Inputs *in) {
  uint64_t total = 0;
  for (int i = 0; i < in->num; ++i) {
    TensorInfo *info = &in->info[i];
    if (!tensorInfo(mlirFunctionTypeGetInput(f->type, i), o, i, info)) {
      fprintf(stderr, "fa-check: %s: input %d is not a ranked tensor of f32, f16, bf16, i1, "
                      "i32 or i64\n", f->name, i);
      return false;
    }
    char shape[256];
    tensorShapeText(info, shape, sizeof shape);
    if (!tensorBytes(info, &in->bytes[i]) ||
        __builtin_add_overflow(total, in->bytes[i], &total)) {
      fprintf(stderr, "fa-check: %s: input %d (%s) is too large: its size in bytes does not "
                      "fit in 64 bits\n", f->name, i, shape);
      return false;
    }
  }
  char what[400];
  snprintf(what, sizeof what, "%.200s: the inputs, generated once and copied for each of the two "
                              "runs, need", f->name);
  return !__builtin_mul_overflow(total, 3, &total) && checkFitsInMemory("fa-check", what, total);
}

/* Generates the inputs of `f`: seeded random values (see randomFill). */
static bool inputsCreate(const PublicFunc *f, const CheckOptions *o, uint64_t *state,
                         Inputs *in) {
  in->num = (int)mlirFunctionTypeGetNumInputs(f->type);
  if (!inputShapes(f, o, in)) {
    in->num = 0;
    return false;
  }
  for (int i = 0; i < in->num; ++i) {
    in->genStates[i] = *state;
    in->data[i] = calloc(1, in->bytes[i] ? (size_t)in->bytes[i] : 1);
    if (!in->data[i]) {
      fprintf(stderr, "fa-check: %s: out of memory allocating %llu bytes for input %d\n",
              f->name, (unsigned long long)in->bytes[i], i);
      in->num = i;
      inputsDestroy(in);
      return false;
    }
    randomFill(in->data[i], &in->info[i], state, o->intMax, o->inputScale,
               (o->binaryArgs >> i) & 1);
  }
  return true;
}

static void runInputsDestroy(RunInputs *run, int num) {
  for (int i = 0; i < num; ++i)
    free(run->data[i]);
}

static bool runInputsCreate(const Inputs *in, RunInputs *run) {
  for (int i = 0; i < in->num; ++i) {
    run->data[i] = copyBuffer("fa-check", in->data[i], in->bytes[i]);
    if (!run->data[i]) {
      runInputsDestroy(run, i);
      return false;
    }
    descInit(&run->desc[i], &in->info[i], run->data[i]);
  }
  return true;
}

/* "FUNC: dynamic dims: inputs 2x8x64xf16 2x24x64xf16": what the options
 * made of the dynamic dims, printed for functions that have some. */
static void printDynamicShapes(const PublicFunc *f, const Inputs *in) {
  bool dynamic = false;
  for (int i = 0; i < in->num; ++i)
    dynamic = dynamic || hasDynamicDim(mlirFunctionTypeGetInput(f->type, i));
  if (!dynamic)
    return;
  printf("%s: dynamic dims: inputs", f->name);
  for (int i = 0; i < in->num; ++i) {
    char shape[256];
    tensorShapeText(&in->info[i], shape, sizeof shape);
    printf(" %s", shape);
  }
  printf("\n");
}

/* --- running and comparing ------------------------------------------------------ */

/* Calls `name` in `jit` on a fresh copy of the inputs, kept in `run` (a
 * result may be one of them) until the caller frees it. */
static bool runFunc(MlirExecutionEngine jit, const char *name, const Inputs *in,
                    RunInputs *run, Results *res) {
  size_t bytes = 0;
  for (int i = 0; i < res->numResults; ++i)
    bytes += descBytes(res->info[i].rank);
  res->storage = calloc(1, bytes + 8);
  if (!runInputsCreate(in, run))
    return false;
  void *resultPtr = res->storage;
  Desc *inputPtrs[kMaxInputs];
  void *args[kMaxInputs + 1];
  int n = 0;
  if (res->numResults)
    args[n++] = &resultPtr;
  for (int i = 0; i < in->num; ++i) {
    inputPtrs[i] = &run->desc[i];
    args[n++] = &inputPtrs[i];
  }
  /* The C API calls the packed wrapper of _mlir_ciface_NAME. */
  if (mlirLogicalResultIsFailure(
          mlirExecutionEngineInvokePacked(jit, mlirStringRefCreateFromCString(name), args))) {
    fprintf(stderr, "fa-check: could not call %s\n", name);
    runInputsDestroy(run, in->num);
    return false;
  }
  return true;
}

/* The sizes the run returned become those of the results' TensorInfo. */
static void takeResultShapes(Results *r) {
  for (int i = 0; i < r->numResults; ++i) {
    const char *data;
    int64_t offset;
    const int64_t *sizes, *strides;
    resultView(r, i, &data, &offset, &sizes, &strides);
    memcpy(r->info[i].sizes, sizes, sizeof(int64_t) * (size_t)r->info[i].rank);
    uint64_t bytes;
    tensorBytes(&r->info[i], &bytes);
  }
}

/* Appends one output line to the manifest and writes its elements,
 * contiguous, to DIR/FUNC.KIND.I.bin. */
static bool saveTensor(FILE *manifest, const char *dir, const char *func, const char *kind,
                       int i, const TensorInfo *info, const char *data, int64_t offset,
                       const int64_t *strides) {
  char path[2048];
  snprintf(path, sizeof path, "%.1500s/%.200s.%s.%d.bin", dir, func, kind, i);
  FILE *f = fopen(path, "wb");
  if (!f) {
    fprintf(stderr, "fa-check: cannot write %s\n", path);
    return false;
  }
  size_t eb = kEltBytes[info->elt];
  int64_t idx[8] = {0};
  for (int64_t n = 0; n < info->numElements; ++n) {
    int64_t at = offset;
    for (int d = 0; d < info->rank; ++d)
      at += idx[d] * strides[d];
    fwrite(data + at * (int64_t)eb, eb, 1, f);
    for (int d = info->rank - 1; d >= 0 && ++idx[d] == info->sizes[d]; --d)
      idx[d] = 0;
  }
  fclose(f);
  fprintf(manifest, "%s %d %s %d", kind, i, kEltNames[info->elt], info->rank);
  for (int d = 0; d < info->rank; ++d)
    fprintf(manifest, " %ld", (long)info->sizes[d]);
  fprintf(manifest, " %s.%s.%d.bin\n", func, kind, i);
  return true;
}

/* --save: the inputs and the reference's outputs of one function. */
static bool saveFunc(const CheckOptions *o, const char *func, const Inputs *in,
                     const Results *ref) {
  char path[1024];
  snprintf(path, sizeof path, "%s/manifest.txt", o->saveDir);
  FILE *m = fopen(path, "a");
  if (!m) {
    fprintf(stderr, "fa-check: cannot write %s\n", path);
    return false;
  }
  fprintf(m, "func %s %d %d\n", func, in->num, ref->numResults);
  bool ok = true;
  /* Inputs are recorded as how to regenerate them (fa-run uses the same
   * generator), which keeps model weights out of the files. */
  for (int i = 0; i < in->num; ++i) {
    fprintf(m, "in %d %s %d", i, kEltNames[in->info[i].elt], in->info[i].rank);
    for (int d = 0; d < in->info[i].rank; ++d)
      fprintf(m, " %ld", (long)in->info[i].sizes[d]);
    fprintf(m, " gen %llu %ld %.17g %d\n", (unsigned long long)in->genStates[i], (long)o->intMax,
            o->inputScale, (int)((o->binaryArgs >> i) & 1));
  }
  for (int i = 0; i < ref->numResults && ok; ++i) {
    const char *data;
    int64_t offset;
    const int64_t *sizes, *strides;
    resultView(ref, i, &data, &offset, &sizes, &strides);
    ok = saveTensor(m, o->saveDir, func, "out", i, &ref->info[i], data, offset, strides);
  }
  fclose(m);
  return ok;
}

/* The results' element types and ranks; false (with a message) when one is
 * unsupported. */
static bool resultsInit(const PublicFunc *f, const CheckOptions *o, Results *r) {
  *r = (Results){(int)mlirFunctionTypeGetNumResults(f->type), {{0}}, NULL};
  for (int i = 0; i < r->numResults; ++i)
    if (!tensorInfo(mlirFunctionTypeGetResult(f->type, i), o, -1, &r->info[i])) {
      fprintf(stderr, "fa-check: %s: result %d is not a ranked tensor of a supported type\n",
              f->name, i);
      return false;
    }
  return true;
}

/* Runs `f` in both engines, each on its own copy of `in`, and compares:
 * 0 agree, 1 disagree, 2 could not run. */
static int runAndCompare(const PublicFunc *f, MlirExecutionEngine ref, MlirExecutionEngine got,
                         const CheckOptions *o, const Inputs *in, Results *r0, Results *r1) {
  RunInputs run0, run1;
  bool ran0 = runFunc(ref, f->name, in, &run0, r0);
  bool ran1 = ran0 && runFunc(got, f->name, in, &run1, r1);
  int status = 2;
  if (ran1) {
    takeResultShapes(r0);
    status = o->saveDir && !saveFunc(o, f->name, in, r0) ? 2 : 0;
    for (int i = 0; i < r0->numResults; ++i)
      if (!compareOutput(f->name, i, r0, r1, o->tolScale) && status == 0)
        status = 1;
    runInputsDestroy(&run1, in->num);
  }
  if (ran0)
    runInputsDestroy(&run0, in->num);
  return status;
}

/* 0 agree, 1 disagree, 2 could not run. */
static int checkFunc(const PublicFunc *f, MlirExecutionEngine ref, MlirExecutionEngine got,
                     const CheckOptions *o, uint64_t *state) {
  if (mlirFunctionTypeGetNumInputs(f->type) > kMaxInputs ||
      mlirFunctionTypeGetNumResults(f->type) > kMaxResults) {
    fprintf(stderr, "fa-check: %s: more than %d inputs or %d results\n", f->name, kMaxInputs,
            kMaxResults);
    return 2;
  }
  Results r0, r1;
  Inputs in;
  if (!resultsInit(f, o, &r0) || !inputsCreate(f, o, state, &in))
    return 2;
  r1 = r0;
  printDynamicShapes(f, &in);
  int status = runAndCompare(f, ref, got, o, &in, &r0, &r1);
  free(r0.storage);
  free(r1.storage);
  inputsDestroy(&in);
  return status;
}

/* linalg.softmax has no upstream lowering to loops; the reference lowers it
 * with upstream's own decomposition (transform.structured.decompose_interface,
 * run by the transform interpreter), then drops the transform script. */
/* Looks for an op named `*(const char **)userData`; sets it to NULL if found. */
static MlirWalkResult findOpNamed(MlirOperation op, void *userData) {
  const char **name = userData;
  if (mlirStringRefEqual(mlirIdentifierStr(mlirOperationGetName(op)),
                         mlirStringRefCreateFromCString(*name))) {
    *name = NULL;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static bool containsOp(MlirOperation module, const char *name) {
  mlirOperationWalk(module, findOpNamed, &name, MlirWalkPreOrder);
  return name == NULL;
}

/* Hand-written fa ops have no unfused source: the reference computes them
 * with their naive element-wise decomposition (fa-decompose-attention). */
static bool decomposeAttention(MlirOperation module) {
  return !containsOp(module, FA_OP_GRIDWISE_ATTENTION) ||
         faModuleRunPipeline(module, "fa-decompose-attention");
}

static bool decomposeSoftmax(MlirOperation module) {
  bool found = containsOp(module, "linalg.softmax");
  if (!found)
    return true;
  static const char kScript[] =
      "module attributes {transform.with_named_sequence} {\n"
      "transform.named_sequence @__transform_main(%root: !transform.any_op "
      "{transform.readonly}) {\n"
      "  %s = transform.structured.match ops{[\"linalg.softmax\"]} in %root"
      " : (!transform.any_op) -> !transform.any_op\n"
      "  %d = transform.structured.decompose_interface %s"
      " : (!transform.any_op) -> !transform.any_op\n"
      "  transform.yield\n}\n}\n";
  FaText t;
  faTextInit(&t);
  faTextAppend(&t, "%s", kScript);
  MlirContext ctx = mlirOperationGetContext(module);
  MlirStringRef attr = mlirStringRefCreateFromCString("transform.with_named_sequence");
  bool ok = mlirLogicalResultIsSuccess(faModuleAppendParsed(module, &t));
  faTextDestroy(&t);
  if (!ok)
    return false;
  mlirOperationSetAttributeByName(module, attr, mlirUnitAttrGet(ctx));
  ok = faModuleRunPipeline(module, "transform-interpreter");
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirOperation last = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    last = op;
  mlirOperationDestroy(last); /* the script, appended last */
  mlirOperationRemoveAttributeByName(module, attr);
  return ok;
}

/* What the chunks of one source add up to. */
typedef struct {
  int numFuncs;
  bool overrideUsed[kMaxDimOverrides]; /* names a dynamic dim of some function */
  uint64_t floatInputs; /* bit k: input k of some function is a float tensor */
} SourceTally;

/* Marks the --dim overrides that name a dynamic dim of one of `funcs`, and
 * the float inputs (for --binary-arg). */
static void tallyOptions(const CheckOptions *o, const PublicFunc *funcs, int numFuncs,
                         SourceTally *tally) {
  for (int i = 0; i < numFuncs; ++i)
    for (intptr_t k = 0; k < mlirFunctionTypeGetNumInputs(funcs[i].type) && k < kMaxInputs;
         ++k) {
      MlirType t = mlirFunctionTypeGetInput(funcs[i].type, k);
      int elt = mlirTypeIsAShaped(t) ? faEltOfType(mlirShapedTypeGetElementType(t)) : ELT_BAD;
      if (elt == ELT_F32 || elt == ELT_F16 || elt == ELT_BF16)
        tally->floatInputs |= 1ull << k;
    }
  for (int v = 0; v < o->numOverrides; ++v)
    for (int i = 0; i < numFuncs && !tally->overrideUsed[v]; ++i) {
      const DimOverride *d = &o->overrides[v];
      if (d->arg >= mlirFunctionTypeGetNumInputs(funcs[i].type))
        continue;
      MlirType t = mlirFunctionTypeGetInput(funcs[i].type, d->arg);
      if (!mlirTypeIsARankedTensor(t))
        continue;
      tally->overrideUsed[v] = d->dim < 0 ? hasDynamicDim(t)
                                          : d->dim < mlirShapedTypeGetRank(t) &&
                                                mlirShapedTypeIsDynamicDim(t, d->dim);
    }
}

/* False (with a message) when a --dim override named no dynamic dim of any
 * function, or --binary-arg no float input: it would silently do nothing. */
static bool checkOptionsUsed(const CheckOptions *o, const SourceTally *tally) {
  bool ok = true;
  for (int k = 0; k < kMaxInputs; ++k)
    if ((o->binaryArgs >> k & 1) && !(tally->floatInputs >> k & 1)) {
      fprintf(stderr, "fa-check: --binary-arg=%d: no function has a float input %d\n", k, k);
      ok = false;
    }
  for (int v = 0; v < o->numOverrides; ++v) {
    const DimOverride *d = &o->overrides[v];
    if (tally->overrideUsed[v])
      continue;
    if (d->dim < 0)
      fprintf(stderr, "fa-check: --dim=%d=%ld: no function has a dynamic dim in input %d\n",
              d->arg, (long)d->size, d->arg);
    else
      fprintf(stderr, "fa-check: --dim=%d.%d=%ld: no function has a dynamic dim %d in input "
                      "%d\n", d->arg, d->dim, (long)d->size, d->dim, d->arg);
    ok = false;
  }
  return ok;
}

/* Checks one module; 0 agree, 1 disagree, 2 could not compile or run. Adds
 * its public functions to `tally`. */
static int checkModule(MlirContext ctx, const char *text, size_t size, const CheckOptions *o,
                       SourceTally *tally) {
  MlirModule module = mlirModuleCreateParse(ctx, mlirStringRefCreate(text, size));
  if (mlirModuleIsNull(module))
    return 2;
  int status = 2;
  MlirOperation refOp = mlirModuleGetOperation(module);
  MlirOperation faOp = mlirOperationClone(refOp);
  PublicFunc funcs[256];
  int numFuncs = collectFuncs(refOp, funcs, 256);
  collectFuncs(faOp, funcs, 256);
  tally->numFuncs += numFuncs;
  tallyOptions(o, funcs, numFuncs, tally);
  MlirExecutionEngine ref = decomposeAttention(refOp) && decomposeSoftmax(refOp)
                                ? compile(refOp, "fa-upstream-to-cpu")
                                : (MlirExecutionEngine){NULL};
  MlirExecutionEngine got = mlirExecutionEngineIsNull(ref)
                                ? (MlirExecutionEngine){NULL} : compile(faOp, o->pipeline);
  if (!mlirExecutionEngineIsNull(got)) {
    uint64_t state = o->seed * 0x9E3779B97F4A7C15ull + 1;
    int agree = 0, disagree = 0, failed = 0;
    for (int i = 0; i < numFuncs; ++i) {
      uint64_t s = state + (uint64_t)i * 7919u;
      int st = checkFunc(&funcs[i], ref, got, o, &s);
      agree += st == 0;
      disagree += st == 1;
      failed += st == 2;
    }
    printf("fa-check: %d functions: %d agree, %d disagree, %d could not run\n", numFuncs,
           agree, disagree, failed);
    status = failed ? 2 : disagree ? 1 : 0;
  }
  if (!mlirExecutionEngineIsNull(ref))
    mlirExecutionEngineDestroy(ref);
  if (!mlirExecutionEngineIsNull(got))
    mlirExecutionEngineDestroy(got);
  mlirOperationDestroy(faOp);
  mlirModuleDestroy(module);
  return status;
}

/* Checks each chunk of the source; the worst status wins. A source with no
 * public function (with a body) at all has nothing to compare: that is
 * status 2, as nothing was shown to agree. */
static int checkSource(MlirContext ctx, const FaSource *source, FaDiagnostics *diags,
                       const void *options) {
  const CheckOptions *o = options;
  FaChunk *chunks;
  size_t numChunks = faSourceSplit(source, o->split, &chunks);
  int status = 0;
  SourceTally tally = {0};
  for (size_t i = 0; i < numChunks; ++i) {
    if (faSourceIsBlank(chunks[i].begin, chunks[i].size))
      continue;
    size_t size;
    char *text = faChunkCreatePaddedText(&chunks[i], &size);
    faDiagnosticsBeginChunk(diags, &chunks[i]);
    int st = checkModule(ctx, text, size, o, &tally);
    faDiagnosticsEndChunk(diags);
    free(text);
    status = st > status ? st : status;
  }
  free(chunks);
  if (tally.numFuncs && !checkOptionsUsed(o, &tally))
    status = 2;
  if (status == 0 && tally.numFuncs == 0) {
    fprintf(stderr, "fa-check: %s: nothing to compare: no public function with a body\n",
            source->name);
    status = 2;
  }
  return status;
}

int faCheckMain(int argc, char **argv) {
  faToolName = "fa-check";
  CheckOptions o;
  FaArgsResult args = parseArgs(argc, argv, &o);
  if (args != FA_ARGS_RUN)
    return args;
  return faToolRunOnFile(o.path, checkSource, &o);
}
