/* IR from text templates: a string builder and parse-and-append. */
#include "Support/IRText.h"

#include "Support/Builders.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

void faTextAppendType(FaText *t, MlirType type) { mlirTypePrint(type, faTextAppendStringRef, t); }

void faTextAppendAttribute(FaText *t, MlirAttribute attr) {
  mlirAttributePrint(attr, faTextAppendStringRef, t);
}

typedef enum { FA_DECL_NEW, FA_DECL_PRESENT, FA_DECL_CONFLICT } FaDeclaration;

/* Whether `op`, if it declares a function (no body), is one `module` has
 * already (the same type) or names another symbol of it; `*table` is made on
 * the first declaration asked about. */
static FaDeclaration declarationIn(MlirOperation module, MlirSymbolTable *table,
                                   MlirOperation op) {
  if (!faOpIsA(op, "func.func") ||
      !mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0))))
    return FA_DECL_NEW;
  MlirAttribute name =
      mlirOperationGetAttributeByName(op, mlirSymbolTableGetSymbolAttributeName());
  if (mlirAttributeIsNull(name))
    return FA_DECL_NEW;
  if (mlirSymbolTableIsNull(*table))
    *table = mlirSymbolTableCreate(module);
  MlirOperation old = mlirSymbolTableLookup(*table, mlirStringAttrGetValue(name));
  if (mlirOperationIsNull(old))
    return FA_DECL_NEW;
  MlirStringRef typeName = mlirStringRefCreateFromCString("function_type");
  MlirAttribute oldType = mlirOperationGetAttributeByName(old, typeName);
  if (faOpIsA(old, "func.func") && !mlirAttributeIsNull(oldType) &&
      mlirAttributeEqual(oldType, mlirOperationGetAttributeByName(op, typeName)))
    return FA_DECL_PRESENT;
  FaText t;
  faTextInit(&t);
  faTextAppend(&t, "the module's @%.*s is not the function the generated code calls: ",
               (int)mlirStringAttrGetValue(name).length, mlirStringAttrGetValue(name).data);
  faTextAppendAttribute(&t, mlirOperationGetAttributeByName(op, typeName));
  mlirEmitError(mlirOperationGetLocation(old), t.data);
  faTextDestroy(&t);
  return FA_DECL_CONFLICT;
}

/* Drops from `from` the function declarations `module` has already; false if
 * one names another symbol of it (an error, reported at that symbol). */
static bool dropKnownDeclarations(MlirOperation module, MlirBlock from) {
  MlirSymbolTable table = {NULL};
  bool fit = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(from); !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    FaDeclaration d = declarationIn(module, &table, op);
    fit &= d != FA_DECL_CONFLICT;
    if (d == FA_DECL_PRESENT)
      mlirOperationDestroy(op);
    op = next;
  }
  if (!mlirSymbolTableIsNull(table))
    mlirSymbolTableDestroy(table);
  return fit;
}

/* The first error of parsing a text, kept to be told at its template line. */
typedef struct {
  bool seen;
  int line, col;
  FaText message;
} ParseError;

static MlirLogicalResult keepParseError(MlirDiagnostic diag, void *userData) {
  ParseError *e = userData;
  if (e->seen || mlirDiagnosticGetSeverity(diag) != MlirDiagnosticError)
    return mlirLogicalResultSuccess();
  e->seen = true;
  MlirLocation loc = mlirDiagnosticGetLocation(diag);
  if (mlirLocationIsAFileLineColRange(loc)) {
    e->line = mlirLocationFileLineColRangeGetStartLine(loc);
    e->col = mlirLocationFileLineColRangeGetStartColumn(loc);
  }
  mlirDiagnosticPrint(diag, faTextAppendStringRef, &e->message);
  return mlirLogicalResultSuccess();
}

/* Reports a parse error at the template line that the failing line came
 * from (or the generated line, where no template made it). */
static void reportParseError(MlirContext ctx, const FaText *text, const ParseError *e) {
  FaTextOrigin origin;
  char msg[768];
  MlirLocation loc;
  if (faTextGetOrigin(text, e->line, &origin)) {
    loc = mlirLocationFileLineColGet(ctx, mlirStringRefCreateFromCString(origin.file),
                                     (unsigned)origin.line, (unsigned)e->col);
    snprintf(msg, sizeof msg, "the specialised template does not parse: %s", e->message.data);
  } else {
    loc = mlirLocationUnknownGet(ctx);
    snprintf(msg, sizeof msg, "generated IR, line %d, does not parse: %s", e->line,
             e->message.data);
  }
  mlirEmitError(loc, msg);
}

/* Parses `text`; a parse error is reported where the text came from. */
static MlirModule parseText(MlirContext ctx, const FaText *text) {
  ParseError e = {false, 0, 0, {0}};
  faTextInit(&e.message);
  MlirDiagnosticHandlerID id = mlirContextAttachDiagnosticHandler(ctx, keepParseError, &e, NULL);
  MlirModule parsed = mlirModuleCreateParse(ctx, mlirStringRefCreate(text->data, text->size));
  mlirContextDetachDiagnosticHandler(ctx, id);
  if (mlirModuleIsNull(parsed) && e.seen)
    reportParseError(ctx, text, &e);
  faTextDestroy(&e.message);
  return parsed;
}

MlirLogicalResult faModuleAppendParsed(MlirOperation module, const FaText *text) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirModule parsed = parseText(ctx, text);
  if (mlirModuleIsNull(parsed))
    return mlirLogicalResultFailure();
  MlirBlock from = mlirModuleGetBody(parsed);
  MlirBlock to = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  bool fit = dropKnownDeclarations(module, from);
  for (MlirOperation op = mlirBlockGetFirstOperation(from); fit && !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    mlirOperationRemoveFromParent(op);
    mlirBlockAppendOwnedOperation(to, op);
    op = next;
  }
  mlirModuleDestroy(parsed);
  return fit ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

void faModuleUniqueSymbol(MlirOperation module, const char *prefix, char *out,
                          size_t outSize) {
  MlirSymbolTable table = mlirSymbolTableCreate(module);
  for (unsigned n = 0;; ++n) {
    snprintf(out, outSize, "%s_%u", prefix, n);
    if (mlirOperationIsNull(
            mlirSymbolTableLookup(table, mlirStringRefCreateFromCString(out))))
      break;
  }
  mlirSymbolTableDestroy(table);
}

void faTextAppendF32Constant(FaText *t, const char *name, double v) {
  float f = (float)v;
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  faTextAppend(t, "  %%%s = arith.constant 0x%08X : f32\n", name, (unsigned)bits);
}
