/* Internal: IR built from text templates. The C API has no op builders for
 * loops and kernels, so lowerings print the IR they need (with the types of
 * the ops they replace) and parse it into the module being rewritten. */
#ifndef FA_LIB_SUPPORT_IRTEXT_H
#define FA_LIB_SUPPORT_IRTEXT_H

#include "Support/Text.h"

#include "mlir-c/IR.h"

#include <stddef.h>

/* Appends the textual form of `type` (or `attr`). */
void faTextAppendType(FaText *t, MlirType type);
void faTextAppendAttribute(FaText *t, MlirAttribute attr);

/* Appends "  %NAME = arith.constant 0x... : f32" holding `v` rounded to f32
 * (its bits: exact, whatever printf would round). */
void faTextAppendF32Constant(FaText *t, const char *name, double v);

/* Parses `text` as the body of a module (type aliases and ops) in the
 * context of `module` and moves the ops to the end of `module`'s body, but
 * for declarations of functions `module` already has (runtime functions
 * that several kernels call).
 * Parse errors go to the context's diagnostic handlers. */
MlirLogicalResult faModuleAppendParsed(MlirOperation module, const FaText *text);

/* Writes into `out` a symbol name `prefix_N` not yet defined in `module`. */
void faModuleUniqueSymbol(MlirOperation module, const char *prefix, char *out,
                          size_t outSize);

#endif
