/* Internal: pieces of the fa-opt driver. */
#ifndef FA_LIB_TOOLS_TOOLS_H
#define FA_LIB_TOOLS_TOOLS_H

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The name tool messages start with ("fa-opt" unless a tool's main sets it). */
extern const char *faToolName;

/* --- Source.c: input buffers --------------------------------------------- */

typedef struct FaSource {
  char *data; /* owned, NUL-terminated */
  size_t size;
  const char *name; /* as given; "<stdin>" for "-" */
} FaSource;

/* Reads `path` ("-" is stdin). On failure prints an error and returns false. */
bool faSourceRead(const char *path, FaSource *out);
void faSourceDestroy(FaSource *source);

/* One piece of a --split-input-file buffer. The text handed to the parser is
 * padded with newlines so that line numbers are those of the whole file. */
typedef struct FaChunk {
  const char *begin;
  size_t size;
  unsigned firstLine; /* 1-based line of `begin` in the whole buffer */
} FaChunk;

/* Splits on lines starting with "// -----". Returns the number of chunks and
 * a malloc'ed array in *chunksOwned (free it). */
size_t faSourceSplit(const FaSource *source, bool split, FaChunk **chunksOwned);

/* Returns a malloc'ed, NUL-terminated copy of `chunk` preceded by
 * firstLine - 1 newlines; its length goes to *sizeOut. */
char *faChunkCreatePaddedText(const FaChunk *chunk, size_t *sizeOut);

/* True when the buffer holds only whitespace and // comments. */
bool faSourceIsBlank(const char *data, size_t size);

/* --- DiagnosticVerifier.c: printing and checking diagnostics --------------- */

typedef struct FaDiagnostics FaDiagnostics;

/* Attaches a handler to `ctx` for one buffer. In print mode diagnostics go to
 * stderr as "file:line:col: error: message" with the source line; in verify
 * mode they are recorded and checked against expected-* comments. */
FaDiagnostics *faDiagnosticsCreate(MlirContext ctx, const FaSource *source,
                                   bool verify);
/* Starts a chunk: resets records and reads its expected-* comments. */
void faDiagnosticsBeginChunk(FaDiagnostics *d, const FaChunk *chunk);
/* Ends a chunk. In verify mode, returns false (and reports) when diagnostics
 * and expectations disagree; in print mode returns true. */
bool faDiagnosticsEndChunk(FaDiagnostics *d);
void faDiagnosticsDestroy(FaDiagnostics *d);

/* --- ToolSupport.c: shared by fa-check and fa-compile ----------------------- */

/* A context with all dialects, LLVM translations and passes registered. */
MlirContext faToolContextCreate(void);

/* The body of a tool: works on `source` in `ctx` (fa dialect loaded;
 * diagnostics printed against the source through `diags`); returns the exit
 * status. */
typedef int (*FaToolBodyFn)(MlirContext ctx, const FaSource *source, FaDiagnostics *diags,
                            const void *options);

/* Reads `path`, sets up the context and diagnostics, runs `body`, tears all
 * down; 2 if the file cannot be read or the dialect not loaded. */
int faToolRunOnFile(const char *path, FaToolBodyFn body, const void *options);

/* The element type of a tensor as Tensors.h numbers them (an Elt; ELT_BAD
 * when unsupported). */
int faEltOfType(MlirType elementType);

/* Appends to `module` a constant global _fa_signature_NAME holding the
 * signature of function `name` of type `funcType` as text: "NIN NOUT" and
 * for each input, then each result, "ELT RANK SIZE..." (ELT as kEltNames or
 * "?", a dynamic size as -1). fa-run checks manifests against it. */
bool faModuleAppendSignature(MlirOperation module, const char *name, MlirType funcType);

/* Runs `pipeline` (pass-pipeline text inside builtin.module(...), ours and
 * upstream's) on `module`; errors go to stderr. */
bool faModuleRunPipeline(MlirOperation module, const char *pipeline);

#endif
