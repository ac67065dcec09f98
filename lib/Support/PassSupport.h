/* Internal: building MlirPass objects from C functions. */
#ifndef FA_LIB_SUPPORT_PASSSUPPORT_H
#define FA_LIB_SUPPORT_PASSSUPPORT_H

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#include <stddef.h>

/* A dialect a pass creates ops of (loaded before the pass runs). */
typedef MlirDialectHandle (*FaDialectHandleFn)(void);

/* Static description of one pass. Its address is the pass's TypeID, so every
 * definition must have static storage duration. */
typedef struct FaPassDef {
  const char *name;        /* C-style name, e.g. "FaFuseAttention" */
  const char *argument;    /* pipeline name, e.g. "fa-fuse-attention" */
  const char *description;
  const char *opName;      /* anchor op name, or "" for any op */
  /* Runs the pass on `op`; `state` is this pass instance's copy of the
   * options given at creation. Call mlirExternalPassSignalFailure on error. */
  void (*run)(MlirOperation op, MlirExternalPass pass, const void *state);
  const FaDialectHandleFn *dialects; /* NULL-terminated; may be NULL */
} FaPassDef;

/* fa-verify. Every other pass created here runs faOperationVerify on its op
 * after `run` and fails if an fa op does not verify. */
extern const FaPassDef faVerifyPassDef;

/* The dialects the lowerings create: func, arith, math, scf, memref, gpu,
 * tensor, bufferization. */
extern const FaDialectHandleFn faLoweringDialects[];

/* Creates a pass from `def` with a private copy of `state` (`stateSize`
 * bytes, may be 0). Before it runs, the pass loads the fa dialect into the
 * context, so it also works when the host never loaded it. */
MlirPass faPassCreate(const FaPassDef *def, const void *state,
                      size_t stateSize);

/* Creates a pass of `def` that takes no options and no state; any `options`
 * are reported through `errorCallback` and give a null pass. */
MlirPass faPassCreateWithoutOptions(const FaPassDef *def, MlirStringRef options,
                                    MlirStringCallback errorCallback, void *userData);

/* Calls `fn(root, op, state)` on each op under `root` that `pred` takes
 * (collected first, in pre-order, so `fn` may rewrite the IR), going on after
 * a failed call, and signals `pass`'s failure if any call failed. */
void faPassRunOnEach(MlirOperation root, bool (*pred)(MlirOperation),
                     MlirLogicalResult (*fn)(MlirOperation root, MlirOperation op,
                                             const void *state),
                     const void *state, MlirExternalPass pass);

/* Reports `options` as not understood through `errorCallback`. */
void faPassReportBadOptions(MlirStringRef options,
                            MlirStringCallback errorCallback, void *userData);

/* Parses a boolean pass option list of the form "" | "NAME" | "NAME=true" |
 * "NAME=false" (also 1/0). Returns false and reports through `errorCallback`
 * on anything else. */
bool faPassParseFlagOption(MlirStringRef options, const char *name,
                           bool *value, MlirStringCallback errorCallback,
                           void *userData);

/* One `key=value` pass option: the value is copied, NUL-terminated, into
 * `value` (`capacity` bytes); an option not given keeps its value. */
typedef struct FaPassOption {
  const char *key;
  char *value;
  size_t capacity;
} FaPassOption;

/* Parses space-separated `key=value` options. An unknown key, a token without
 * '=' or a value that does not fit is reported through `errorCallback`, and
 * false is returned. */
bool faPassParseOptions(MlirStringRef options, const FaPassOption *opts,
                        size_t numOpts, MlirStringCallback errorCallback,
                        void *userData);

#endif
