/* fa-check: the numerical oracle. Compiles a model twice for the CPU, once
 * with upstream passes only (fa-upstream-to-cpu: no fusion) and once through
 * our fusion and lowering (fa-to-cpu), runs every public function of both in
 * MLIR's ExecutionEngine on the same seeded random inputs and compares every
 * output. Exit 0: all agree; 1: some output disagrees; 2: the model could
 * not be compiled or run. */
#include "fa-c/Check.h"

#include "Tools.h"

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
          "  --help\n");
}

static bool parseArgs(int argc, char **argv, CheckOptions *o) {
  *o = (CheckOptions){NULL, 8, 1, -1, 1.0, 1.0, false, 0, "fa-to-cpu"};
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
  return true;
}

/* --- element types -------------------------------------------------------- */

typedef enum { ELT_F32, ELT_F16, ELT_BF16, ELT_I1, ELT_I32, ELT_I64, ELT_BAD } Elt;

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

static const size_t kEltBytes[] = {4, 2, 2, 1, 4, 8};
static const char *const kEltNames[] = {"f32", "f16", "bf16", "i1", "i32", "i64"};
/* Absolute and relative tolerance per output element type. The reference
 * accumulates f16/bf16 GEMMs in f16/bf16 (D up to 256 terms), ours in f32. */
static const double kAtol[] = {2e-4, 2e-2, 1.5e-1, 0, 0, 0};
static const double kRtol[] = {2e-3, 2e-2, 1.5e-1, 0, 0, 0};

static uint16_t halfFromFloat(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000u, exp = (x >> 23) & 0xffu, man = x & 0x7fffffu;
  if (exp == 0xff)
    return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0));
  int e = (int)exp - 127 + 15;
  if (e >= 31)
    return (uint16_t)(sign | 0x7c00u);
  if (e <= 0) {
    if (e < -10)
      return (uint16_t)sign;
    man |= 0x800000u;
    uint32_t shift = (uint32_t)(14 - e), half = man >> shift;
    uint32_t rem = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1)))
      ++half;
    return (uint16_t)(sign | half);
  }
  uint32_t half = sign | ((uint32_t)e << 10) | (man >> 13), rem = man & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1)))
    ++half;
  return (uint16_t)half;
}

static float floatFromHalf(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  float f;
  if (exp == 0)
    f = ldexpf((float)man, -24);
  else if (exp == 31)
    f = man ? NAN : INFINITY;
  else
    f = ldexpf((float)(man | 0x400u), (int)exp - 25);
  return sign ? -f : f;
}

static uint16_t bf16FromFloat(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  x += 0x7fffu + ((x >> 16) & 1u);
  return (uint16_t)(x >> 16);
}

static float floatFromBf16(uint16_t h) {
  uint32_t x = (uint32_t)h << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

static double eltGet(const char *p, Elt e) {
  switch (e) {
  case ELT_F32: { float f; memcpy(&f, p, 4); return f; }
  case ELT_F16: { uint16_t h; memcpy(&h, p, 2); return floatFromHalf(h); }
  case ELT_BF16: { uint16_t h; memcpy(&h, p, 2); return floatFromBf16(h); }
  case ELT_I1: return (double)(*(const uint8_t *)p & 1);
  case ELT_I32: { int32_t i; memcpy(&i, p, 4); return i; }
  case ELT_I64: { int64_t i; memcpy(&i, p, 8); return (double)i; }
  default: return 0;
  }
}

/* --- buffers and descriptors ---------------------------------------------- */

/* A strided memref descriptor of rank <= 8, laid out as MLIR passes it:
 * allocated, aligned, offset, sizes[rank], strides[rank]. */
typedef struct {
  void *allocated, *aligned;
  int64_t words[1 + 16];
} Desc;

typedef struct {
  Elt elt;
  int rank;
  int64_t sizes[8];
  int64_t numElements;
} TensorInfo;

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

static void descInit(Desc *d, const TensorInfo *info, void *data) {
  memset(d, 0, sizeof *d);
  d->allocated = d->aligned = data;
  int64_t stride = 1;
  for (int k = info->rank - 1; k >= 0; --k) {
    d->words[1 + k] = info->sizes[k];
    d->words[1 + info->rank + k] = stride;
    stride *= info->sizes[k];
  }
}

/* Size in bytes of a descriptor of `rank` as the callee writes it. */
static size_t descBytes(int rank) { return 2 * sizeof(void *) + 8 * (1 + 2 * (size_t)rank); }

static uint64_t nextRandom(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static void *randomBuffer(const TensorInfo *info, uint64_t *state, int64_t intMax,
                          double scale, bool binary) {
  size_t bytes = kEltBytes[info->elt];
  char *data = calloc((size_t)(info->numElements ? info->numElements : 1), bytes);
  if (!data)
    abort();
  for (int64_t i = 0; i < info->numElements; ++i) {
    uint64_t r = nextRandom(state);
    float f = (float)(((double)(r >> 11) / 9007199254740992.0 * 2.0 - 1.0) * scale);
    if (binary)
      f = (r % 8) != 0; /* mostly 1 */
    char *p = data + i * (int64_t)bytes;
    switch (info->elt) {
    case ELT_F32: memcpy(p, &f, 4); break;
    case ELT_F16: { uint16_t h = halfFromFloat(f); memcpy(p, &h, 2); break; }
    case ELT_BF16: { uint16_t h = bf16FromFloat(f); memcpy(p, &h, 2); break; }
    case ELT_I1: *p = (r % 8) != 0; break; /* mostly true: few fully masked rows */
    case ELT_I32: { int32_t v = (int32_t)(r % (uint64_t)(intMax + 1)); memcpy(p, &v, 4); break; }
    case ELT_I64: { int64_t v = (int64_t)(r % (uint64_t)(intMax + 1)); memcpy(p, &v, 8); break; }
    default: break;
    }
  }
  return data;
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

static void printError(MlirStringRef s, void *userData) {
  fwrite(s.data, 1, s.length, stderr);
}

static MlirExecutionEngine compile(MlirOperation module, const char *pipeline) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  char text[4096];
  snprintf(text, sizeof text, "builtin.module(%s)", pipeline);
  MlirLogicalResult ok = faParsePassPipeline(mlirPassManagerGetAsOpPassManager(pm),
                                             mlirStringRefCreateFromCString(text),
                                             printError, NULL);
  if (mlirLogicalResultIsSuccess(ok))
    ok = mlirPassManagerRunOnOp(pm, module);
  mlirPassManagerDestroy(pm);
  if (mlirLogicalResultIsFailure(ok)) {
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

typedef struct {
  int numResults;
  TensorInfo info[8];
  char *storage; /* the result descriptors, as the callee writes them */
} Results;

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

/* The data pointer, offset and strides of result `i`. */
static void resultView(const Results *r, int i, const char **data, int64_t *offset,
                       const int64_t **sizes, const int64_t **strides) {
  const char *p = r->storage;
  for (int k = 0; k < i; ++k)
    p += descBytes(r->info[k].rank);
  const void *aligned;
  memcpy(&aligned, p + sizeof(void *), sizeof(void *));
  const int64_t *words = (const int64_t *)(p + 2 * sizeof(void *));
  *data = aligned;
  *offset = words[0];
  *sizes = words + 1;
  *strides = words + 1 + r->info[i].rank;
}

/* Compares output `i`; prints a line; returns true when within tolerance. */
static bool compareOutput(const char *func, int i, const Results *ref, const Results *got,
                          double tolScale) {
  const TensorInfo *info = &ref->info[i];
  const char *rd, *gd;
  int64_t ro, go;
  const int64_t *rs, *gs, *rst, *gst;
  resultView(ref, i, &rd, &ro, &rs, &rst);
  resultView(got, i, &gd, &go, &gs, &gst);
  for (int d = 0; d < info->rank; ++d)
    if (rs[d] != gs[d]) {
      printf("%s: output %d: shapes differ (dim %d: %ld vs %ld)\n", func, i, d, (long)rs[d],
             (long)gs[d]);
      return false;
    }
  double maxAbs = 0, maxRel = 0, atol = kAtol[info->elt] * tolScale,
         rtol = kRtol[info->elt] * tolScale;
  int64_t bad = 0, refNan = 0, total = 1, idx[8] = {0};
  for (int d = 0; d < info->rank; ++d)
    total *= rs[d];
  size_t eb = kEltBytes[info->elt];
  for (int64_t n = 0; n < total; ++n) {
    int64_t r = ro, g = go;
    for (int d = 0; d < info->rank; ++d) {
      r += idx[d] * rst[d];
      g += idx[d] * gst[d];
    }
    double a = eltGet(rd + r * (int64_t)eb, info->elt), b = eltGet(gd + g * (int64_t)eb, info->elt);
    if (isnan(a)) {
      ++refNan; /* e.g. fully masked rows: upstream gives NaN, fa gives 0 */
    } else if (isnan(b) || (isinf(a) || isinf(b) ? a != b : false)) {
      ++bad;
      maxAbs = INFINITY;
    } else if (!isinf(a)) {
      double err = fabs(a - b), rel = err / fmax(fabs(a), 1e-30);
      maxAbs = fmax(maxAbs, err);
      if (fabs(a) > 1e-6)
        maxRel = fmax(maxRel, rel);
      if (err > atol + rtol * fabs(a) && ++bad <= 3 && getenv("FA_CHECK_VERBOSE")) {
        printf("  at [");
        for (int d = 0; d < info->rank; ++d)
          printf("%s%ld", d ? ", " : "", (long)idx[d]);
        printf("]: reference %.6g, fa %.6g\n", a, b);
      }
    }
    for (int d = info->rank - 1; d >= 0 && ++idx[d] == rs[d]; --d)
      idx[d] = 0;
  }
  printf("%s: output %d (%s, %ld elements): max abs err %.3e, max rel err %.3e%s", func, i,
         kEltNames[info->elt], (long)total, maxAbs, maxRel, bad ? "  MISMATCH" : "  ok");
  if (bad)
    printf(" (%ld beyond atol %.1e + rtol %.1e)", (long)bad, atol, rtol);
  if (refNan)
    printf(" [%ld NaN in the reference not compared]", (long)refNan);
  printf("\n");
  return bad == 0;
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
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreateFromCString("builtin.module"));
  ok = mlirLogicalResultIsSuccess(mlirOpPassManagerAddPipeline(
           mlirPassManagerGetAsOpPassManager(pm),
           mlirStringRefCreateFromCString("transform-interpreter"), printError, NULL)) &&
       mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, module));
  mlirPassManagerDestroy(pm);
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

int faCheckMain(int argc, char **argv) {
  CheckOptions o;
  if (!parseArgs(argc, argv, &o))
    return 2;
  FaSource source;
  if (!faSourceRead(o.path, &source))
    return 2;
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, false);
  mlirDialectRegistryDestroy(registry);
  mlirRegisterAllLLVMTranslations(ctx);
  mlirRegisterAllPasses();
  FaDiagnostics *diags = faDiagnosticsCreate(ctx, &source, false);
  int status = 2;
  if (mlirLogicalResultIsSuccess(faContextLoadDialect(ctx))) {
    FaChunk *chunks;
    size_t numChunks = faSourceSplit(&source, o.split, &chunks);
    status = 0;
    for (size_t i = 0; i < numChunks; ++i) {
      if (faSourceIsBlank(chunks[i].begin, chunks[i].size))
        continue;
      size_t size;
      char *text = faChunkCreatePaddedText(&chunks[i], &size);
      faDiagnosticsBeginChunk(diags, &chunks[i]);
      int st = checkModule(ctx, text, size, &o);
      faDiagnosticsEndChunk(diags);
      free(text);
      status = st > status ? st : status;
    }
    free(chunks);
  }
  faDiagnosticsDestroy(diags);
  mlirContextDestroy(ctx);
  faSourceDestroy(&source);
  return status;
}
