/* MlirPass objects from C functions: one place that owns the callbacks,
 * cloning of per-instance state and loading of the fa dialect. */
#include "Support/PassSupport.h"
#include "Support/Builders.h"

#include "fa-c/Dialect.h"

#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Bufferization.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/Dialect/Math.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Dialect/Tensor.h"

#include <stdlib.h>
#include <string.h>

typedef struct PassInstance {
  const FaPassDef *def;
  size_t stateSize;
  max_align_t state[]; /* stateSize bytes */
} PassInstance;

static PassInstance *instanceCreate(const FaPassDef *def, const void *state,
                                    size_t stateSize) {
  PassInstance *p = malloc(sizeof(PassInstance) + stateSize);
  if (!p)
    abort();
  p->def = def;
  p->stateSize = stateSize;
  if (stateSize)
    memcpy(p->state, state, stateSize);
  return p;
}

static void passConstruct(void *userData) {}

static void passDestruct(void *userData) { free(userData); }

static MlirLogicalResult passInitialize(MlirContext ctx, void *userData) {
  return faContextLoadDialect(ctx);
}

static void *passClone(void *userData) {
  PassInstance *p = userData;
  return instanceCreate(p->def, p->state, p->stateSize);
}

static void passRun(MlirOperation op, MlirExternalPass pass, void *userData) {
  PassInstance *p = userData;
  p->def->run(op, pass, p->state);
  /* As MLIR verifies after every pass: no pass of ours leaves an fa op that
   * fails our verifier (it would fail far from its cause). */
  if (p->def != &faVerifyPassDef && mlirLogicalResultIsFailure(faOperationVerify(op)))
    mlirExternalPassSignalFailure(pass);
}

const FaDialectHandleFn faLoweringDialects[] = {
    mlirGetDialectHandle__func__,   mlirGetDialectHandle__arith__,
    mlirGetDialectHandle__math__,   mlirGetDialectHandle__scf__,
    mlirGetDialectHandle__memref__, mlirGetDialectHandle__gpu__,
    mlirGetDialectHandle__tensor__, mlirGetDialectHandle__bufferization__,
    NULL};

MlirPass faPassCreate(const FaPassDef *def, const void *state,
                      size_t stateSize) {
  MlirExternalPassCallbacks callbacks = {passConstruct, passDestruct,
                                         passInitialize, passClone, passRun};
  MlirDialectHandle deps[16];
  intptr_t numDeps = 0;
  for (const FaDialectHandleFn *d = def->dialects; d && *d && numDeps < 16; ++d)
    deps[numDeps++] = (*d)();
  return mlirCreateExternalPass(
      mlirTypeIDCreate(def), mlirStringRefCreateFromCString(def->name),
      mlirStringRefCreateFromCString(def->argument),
      mlirStringRefCreateFromCString(def->description),
      mlirStringRefCreateFromCString(def->opName), numDeps, deps, callbacks,
      instanceCreate(def, state, stateSize));
}

void faPassReportBadOptions(MlirStringRef options,
                            MlirStringCallback errorCallback, void *userData) {
  if (!errorCallback)
    return;
  errorCallback(mlirStringRefCreateFromCString("unknown or malformed pass option '"),
                userData);
  errorCallback(options, userData);
  errorCallback(mlirStringRefCreateFromCString("'"), userData);
}

static bool refEq(MlirStringRef s, const char *lit) {
  return mlirStringRefEqual(s, mlirStringRefCreateFromCString(lit));
}

bool faPassParseFlagOption(MlirStringRef options, const char *name,
                           bool *value, MlirStringCallback errorCallback,
                           void *userData) {
  size_t len = strlen(name);
  if (options.length == 0)
    return true;
  if (options.length < len || strncmp(options.data, name, len) != 0)
    goto bad;
  MlirStringRef rest = mlirStringRefCreate(options.data + len,
                                           options.length - len);
  if (rest.length == 0 || refEq(rest, "=true") || refEq(rest, "=1")) {
    *value = true;
    return true;
  }
  if (refEq(rest, "=false") || refEq(rest, "=0")) {
    *value = false;
    return true;
  }
bad:
  faPassReportBadOptions(options, errorCallback, userData);
  return false;
}

static const FaPassOption *findOption(const FaPassOption *opts, size_t n,
                                      const char *key, size_t keyLen) {
  for (size_t i = 0; i < n; ++i)
    if (strlen(opts[i].key) == keyLen && strncmp(opts[i].key, key, keyLen) == 0)
      return &opts[i];
  return NULL;
}

bool faPassParseOptions(MlirStringRef options, const FaPassOption *opts,
                        size_t numOpts, MlirStringCallback errorCallback,
                        void *userData) {
  const char *p = options.data, *end = options.data + options.length;
  while (p < end) {
    if (*p == ' ') {
      ++p;
      continue;
    }
    const char *tok = p;
    while (p < end && *p != ' ')
      ++p;
    const char *eq = memchr(tok, '=', (size_t)(p - tok));
    const FaPassOption *opt =
        eq ? findOption(opts, numOpts, tok, (size_t)(eq - tok)) : NULL;
    size_t valueLen = eq ? (size_t)(p - eq - 1) : 0;
    if (!opt || valueLen + 1 > opt->capacity) {
      faPassReportBadOptions(options, errorCallback, userData);
      return false;
    }
    memcpy(opt->value, eq + 1, valueLen);
    opt->value[valueLen] = 0;
  }
  return true;
}

MlirPass faPassCreateWithoutOptions(const FaPassDef *def, MlirStringRef options,
                                    MlirStringCallback errorCallback, void *userData) {
  if (options.length != 0) {
    faPassReportBadOptions(options, errorCallback, userData);
    return (MlirPass){NULL};
  }
  return faPassCreate(def, NULL, 0);
}

void faPassRunOnEach(MlirOperation root, bool (*pred)(MlirOperation),
                     MlirLogicalResult (*fn)(MlirOperation root, MlirOperation op,
                                             const void *state),
                     const void *state, MlirExternalPass pass) {
  FaOpList ops = faOperationCollect(root, pred, MlirWalkPreOrder);
  bool failed = false;
  for (size_t i = 0; i < ops.size; ++i)
    failed |= mlirLogicalResultIsFailure(fn(root, ops.ops[i], state));
  faOpListDestroy(&ops);
  if (failed)
    mlirExternalPassSignalFailure(pass);
}
