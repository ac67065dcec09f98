/* fa-check: the numerical oracle. Compiles a model twice for the CPU, once
 * with upstream passes only (fa-upstream-to-cpu: no fusion) and once through
 * our fusion and lowering (fa-to-cpu), runs every public function of both in
 * MLIR's ExecutionEngine on the same seeded random inputs and compares every
 * output. Exit 0: all agree; 1: some output disagrees; 2: the model could
 * not be compiled or run. */
#include "fa-c/Check.h"

#include "Tools.h"
#include "Tensors.h"

#include "../Transforms/IRText.h"

#include "fa-c/Dialect.h"
#include "fa-c/Passes.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- options ----------------------------------------------------------------- */

typedef struct {
  const char *path;
  int64_t dim;      /* size of every dynamic dim */
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
          "runs every public function of both on the same seeded random inputs and\n"
          "prints, per function and output, the max absolute and relative error.\n"
          "Exit status: 0 agree, 1 disagree beyond the element type's tolerance,\n"
          "2 the model could not be compiled or run.\n"
          "  --dim=N        size of every dynamic dim (default 8)\n"
          "  --seed=S       random seed (default 1)\n"
          "  --int-max=K    integer inputs are uniform in [0, K] (default: the dim)\n"
          "  --tol-scale=X  multiply the tolerances by X (default 1)\n"
          "  --input-scale=X  float inputs are uniform in [-X, X] (default 1; whole\n"
          "                 models with random weights want less, e.g. 0.1)\n"
          "  --binary-arg=K float input K gets values 0 and 1 (a mask); repeatable\n"
          "  --split-input-file  check each '// -----' chunk as its own module\n"
          "  --pipeline=P   the candidate pipeline, ending in the LLVM dialect\n"
          "                 (default fa-to-cpu), e.g. 'fa-expand-erf,inline,fa-to-cpu'\n"
          "  --save=DIR     also write each function's inputs and reference outputs\n"
          "                 to DIR (manifest.txt and raw files), for fa-run on a GPU\n"
          "  --help\n");
}

/* --save: an empty manifest.txt in DIR (functions are appended to it). */
static bool startManifest(const char *dir) {
  char path[1024];
  snprintf(path, sizeof path, "%s/manifest.txt", dir);
  FILE *m = fopen(path, "w");
  if (!m) {
    fprintf(stderr, "fa-check: cannot write %s\n", path);
    return false;
  }
  fclose(m);
  return true;
}

static bool parseArgs(int argc, char **argv, CheckOptions *o) {
  *o = (CheckOptions){NULL, 8, 1, -1, 1.0, 1.0, false, 0, "fa-to-cpu", NULL};
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      exit(0);
    } else if (!strncmp(a, "--dim=", 6)) {
      o->dim = strtoll(a + 6, NULL, 10);
    } else if (!strncmp(a, "--seed=", 7)) {
      o->seed = strtoull(a + 7, NULL, 10);
    } else if (!strncmp(a, "--int-max=", 10)) {
      o->intMax = strtoll(a + 10, NULL, 10);
    } else if (!strncmp(a, "--input-scale=", 14)) {
      o->inputScale = strtod(a + 14, NULL);
    } else if (!strncmp(a, "--binary-arg=", 13)) {
      long k = strtol(a + 13, NULL, 10);
      if (k >= 0 && k < 64)
        o->binaryArgs |= 1ull << k;
    } else if (!strncmp(a, "--save=", 7) && a[7]) {
      o->saveDir = a + 7;
    } else if (!strncmp(a, "--pipeline=", 11) && a[11]) {
      o->pipeline = a + 11;
    } else if (!strcmp(a, "--split-input-file")) {
      o->split = true;
    } else if (!strncmp(a, "--tol-scale=", 12)) {
      o->tolScale = strtod(a + 12, NULL);
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "fa-check: unknown option '%s'\n", a);
      return false;
    } else if (o->path) {
      fprintf(stderr, "fa-check: more than one input file\n");
      return false;
    } else {
      o->path = a;
    }
  }
  if (!o->path) {
    usage(stderr);
    return false;
  }
  if (o->dim < 1) {
    fprintf(stderr, "fa-check: --dim must be positive\n");
    return false;
  }
  if (o->intMax < 0)
    o->intMax = o->dim;
  return !o->saveDir || startManifest(o->saveDir);
}


static Elt eltOf(MlirType t) {
  if (mlirTypeIsAF32(t)) return ELT_F32;
  if (mlirTypeIsAF16(t)) return ELT_F16;
  if (mlirTypeIsABF16(t)) return ELT_BF16;
  if (mlirTypeIsAInteger(t)) {
    switch (mlirIntegerTypeGetWidth(t)) {
    case 1: return ELT_I1;
    case 32: return ELT_I32;
    case 64: return ELT_I64;
    }
  }
  return ELT_BAD;
}



static bool tensorInfo(MlirType t, int64_t dim, TensorInfo *info) {
  if (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) > 8)
    return false;
  info->elt = eltOf(mlirShapedTypeGetElementType(t));
  info->rank = (int)mlirShapedTypeGetRank(t);
  info->numElements = 1;
  for (int d = 0; d < info->rank; ++d) {
    info->sizes[d] = mlirShapedTypeIsDynamicDim(t, d) ? dim : mlirShapedTypeGetDimSize(t, d);
    info->numElements *= info->sizes[d];
  }
  return info->elt != ELT_BAD;
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

/* --- running and comparing ------------------------------------------------------ */


static bool runFunc(MlirExecutionEngine jit, const char *name, Desc *inputs, int numInputs,
                    Results *res) {
  size_t bytes = 0;
  for (int i = 0; i < res->numResults; ++i)
    bytes += descBytes(res->info[i].rank);
  res->storage = calloc(1, bytes + 8);
  void *resultPtr = res->storage;
  Desc *inputPtrs[32];
  void *args[33];
  int n = 0;
  if (res->numResults)
    args[n++] = &resultPtr;
  for (int i = 0; i < numInputs; ++i) {
    inputPtrs[i] = &inputs[i];
    args[n++] = &inputPtrs[i];
  }
  /* The C API calls the packed wrapper of _mlir_ciface_NAME. */
  if (mlirLogicalResultIsFailure(
          mlirExecutionEngineInvokePacked(jit, mlirStringRefCreateFromCString(name), args))) {
    fprintf(stderr, "fa-check: could not call %s\n", name);
    return false;
  }
  return true;
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
static bool saveFunc(const CheckOptions *o, const char *func, const uint64_t *genStates,
                     const TensorInfo *inInfo, int numInputs, const Results *ref) {
  char path[1024];
  snprintf(path, sizeof path, "%s/manifest.txt", o->saveDir);
  FILE *m = fopen(path, "a");
  if (!m) {
    fprintf(stderr, "fa-check: cannot write %s\n", path);
    return false;
  }
  fprintf(m, "func %s %d %d\n", func, numInputs, ref->numResults);
  bool ok = true;
  /* Inputs are recorded as how to regenerate them (fa-run uses the same
   * generator), which keeps model weights out of the files. */
  for (int i = 0; i < numInputs; ++i) {
    fprintf(m, "in %d %s %d", i, kEltNames[inInfo[i].elt], inInfo[i].rank);
    for (int d = 0; d < inInfo[i].rank; ++d)
      fprintf(m, " %ld", (long)inInfo[i].sizes[d]);
    fprintf(m, " gen %llu %ld %.17g %d\n", (unsigned long long)genStates[i], (long)o->intMax,
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

/* 0 agree, 1 disagree, 2 could not run. */
static int checkFunc(const PublicFunc *f, MlirExecutionEngine ref, MlirExecutionEngine got,
                     const CheckOptions *o, uint64_t *state) {
  intptr_t numInputs = mlirFunctionTypeGetNumInputs(f->type);
  intptr_t numResults = mlirFunctionTypeGetNumResults(f->type);
  if (numInputs > 32 || numResults > 8) {
    fprintf(stderr, "fa-check: %s: too many inputs or results\n", f->name);
    return 2;
  }
  Desc inputs[32];
  TensorInfo inInfo[32];
  uint64_t genStates[32];
  void *data[32];
  Results r0 = {(int)numResults, {{0}}, NULL}, r1 = r0;
  for (intptr_t i = 0; i < numInputs; ++i) {
    TensorInfo info;
    if (!tensorInfo(mlirFunctionTypeGetInput(f->type, i), o->dim, &info)) {
      fprintf(stderr, "fa-check: %s: input %ld is not a ranked tensor of f32, f16, bf16, i1, "
                      "i32 or i64\n", f->name, (long)i);
      for (intptr_t k = 0; k < i; ++k)
        free(data[k]);
      return 2;
    }
    inInfo[i] = info;
    genStates[i] = *state;
    data[i] = randomBuffer(&info, state, o->intMax, o->inputScale, (o->binaryArgs >> i) & 1);
    descInit(&inputs[i], &info, data[i]);
  }
  for (intptr_t i = 0; i < numResults; ++i)
    if (!tensorInfo(mlirFunctionTypeGetResult(f->type, i), o->dim, &r0.info[i])) {
      fprintf(stderr, "fa-check: %s: result %ld is not a ranked tensor of a supported type\n",
              f->name, (long)i);
      return 2;
    }
  memcpy(r1.info, r0.info, sizeof r0.info);
  int status = 2;
  if (runFunc(ref, f->name, inputs, (int)numInputs, &r0) &&
      runFunc(got, f->name, inputs, (int)numInputs, &r1)) {
    status = 0;
    if (o->saveDir && !saveFunc(o, f->name, genStates, inInfo, (int)numInputs, &r0))
      status = 2;
    for (int i = 0; i < (int)numResults; ++i)
      if (!compareOutput(f->name, i, &r0, &r1, o->tolScale))
        status = 1;
  }
  free(r0.storage);
  free(r1.storage);
  for (intptr_t i = 0; i < numInputs; ++i)
    free(data[i]);
  return status;
}

/* linalg.softmax has no upstream lowering to loops; the reference lowers it
 * with upstream's own decomposition (transform.structured.decompose_interface,
 * run by the transform interpreter), then drops the transform script. */
static MlirWalkResult findSoftmax(MlirOperation op, void *userData) {
  if (mlirStringRefEqual(mlirIdentifierStr(mlirOperationGetName(op)),
                         mlirStringRefCreateFromCString("linalg.softmax"))) {
    *(bool *)userData = true;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static bool decomposeSoftmax(MlirOperation module) {
  bool found = false;
  mlirOperationWalk(module, findSoftmax, &found, MlirWalkPreOrder);
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

/* Checks one module; 0 agree, 1 disagree, 2 could not compile or run. */
static int checkModule(MlirContext ctx, const char *text, size_t size, const CheckOptions *o) {
  MlirModule module = mlirModuleCreateParse(ctx, mlirStringRefCreate(text, size));
  if (mlirModuleIsNull(module))
    return 2;
  int status = 2;
  MlirOperation refOp = mlirModuleGetOperation(module);
  MlirOperation faOp = mlirOperationClone(refOp);
  PublicFunc funcs[256];
  int numFuncs = collectFuncs(refOp, funcs, 256);
  collectFuncs(faOp, funcs, 256);
  MlirExecutionEngine ref = decomposeSoftmax(refOp) ? compile(refOp, "fa-upstream-to-cpu")
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

/* Checks each chunk of the source; the worst status wins. */
static int checkSource(MlirContext ctx, const FaSource *source, FaDiagnostics *diags,
                       const void *options) {
  const CheckOptions *o = options;
  FaChunk *chunks;
  size_t numChunks = faSourceSplit(source, o->split, &chunks);
  int status = 0;
  for (size_t i = 0; i < numChunks; ++i) {
    if (faSourceIsBlank(chunks[i].begin, chunks[i].size))
      continue;
    size_t size;
    char *text = faChunkCreatePaddedText(&chunks[i], &size);
    faDiagnosticsBeginChunk(diags, &chunks[i]);
    int st = checkModule(ctx, text, size, o);
    faDiagnosticsEndChunk(diags);
    free(text);
    status = st > status ? st : status;
  }
  free(chunks);
  return status;
}

int faCheckMain(int argc, char **argv) {
  CheckOptions o;
  if (!parseArgs(argc, argv, &o))
    return 2;
  return faToolRunOnFile(o.path, checkSource, &o);
}
