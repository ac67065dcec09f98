/* IR from text templates: a string builder and parse-and-append. */
#include "Support/IRText.h"

#include "Support/Builders.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"

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

MlirLogicalResult faModuleAppendParsed(MlirOperation module, const FaText *text) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirModule parsed =
      mlirModuleCreateParse(ctx, mlirStringRefCreate(text->data, text->size));
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
