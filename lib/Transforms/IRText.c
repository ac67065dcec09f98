/* IR from text templates: a string builder and parse-and-append. */
#include "IRText.h"

#include "Builders.h"

#include "mlir-c/BuiltinAttributes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void faTextInit(FaText *t) {
  t->cap = 4096;
  t->size = 0;
  t->data = malloc(t->cap);
  if (!t->data)
    abort();
  t->data[0] = '\0';
}

void faTextDestroy(FaText *t) {
  free(t->data);
  t->data = NULL;
  t->size = t->cap = 0;
}

static void reserve(FaText *t, size_t extra) {
  if (t->size + extra + 1 <= t->cap)
    return;
  while (t->size + extra + 1 > t->cap)
    t->cap *= 2;
  t->data = realloc(t->data, t->cap);
  if (!t->data)
    abort();
}

void faTextAppend(FaText *t, const char *fmt, ...) {
  va_list ap, copy;
  va_start(ap, fmt);
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  if (n > 0) {
    reserve(t, (size_t)n);
    vsnprintf(t->data + t->size, (size_t)n + 1, fmt, ap);
    t->size += (size_t)n;
  }
  va_end(ap);
}

void faTextAppendStringRef(MlirStringRef s, void *userData) {
  FaText *t = userData;
  reserve(t, s.length);
  memcpy(t->data + t->size, s.data, s.length);
  t->size += s.length;
  t->data[t->size] = '\0';
}

void faTextAppendType(FaText *t, MlirType type) { mlirTypePrint(type, faTextAppendStringRef, t); }

void faTextAppendAttribute(FaText *t, MlirAttribute attr) {
  mlirAttributePrint(attr, faTextAppendStringRef, t);
}

/* Whether `op` declares a function (no body) that `module` already has;
 * `*table` is made on the first declaration asked about. */
static bool isDeclarationIn(MlirOperation module, MlirSymbolTable *table, MlirOperation op) {
  if (!faOpIsA(op, "func.func") ||
      !mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0))))
    return false;
  MlirAttribute name =
      mlirOperationGetAttributeByName(op, mlirSymbolTableGetSymbolAttributeName());
  if (mlirAttributeIsNull(name))
    return false;
  if (mlirSymbolTableIsNull(*table))
    *table = mlirSymbolTableCreate(module);
  return !mlirOperationIsNull(mlirSymbolTableLookup(*table, mlirStringAttrGetValue(name)));
}

MlirLogicalResult faModuleAppendParsed(MlirOperation module, const FaText *text) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirModule parsed =
      mlirModuleCreateParse(ctx, mlirStringRefCreate(text->data, text->size));
  if (mlirModuleIsNull(parsed))
    return mlirLogicalResultFailure();
  MlirBlock from = mlirModuleGetBody(parsed);
  MlirBlock to = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  MlirSymbolTable table = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(from); !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (!isDeclarationIn(module, &table, op)) {
      mlirOperationRemoveFromParent(op);
      mlirBlockAppendOwnedOperation(to, op);
    }
    op = next;
  }
  if (!mlirSymbolTableIsNull(table))
    mlirSymbolTableDestroy(table);
  mlirModuleDestroy(parsed);
  return mlirLogicalResultSuccess();
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

MlirOperation faOperationGetParentModule(MlirOperation op) {
  while (!mlirOperationIsNull(op) && !faOpIsA(op, "builtin.module"))
    op = mlirOperationGetParentOperation(op);
  return op;
}
