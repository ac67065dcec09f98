/* IR-building helpers shared by all passes. */
#include "Support/Builders.h"
#include "Support/Strings.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdlib.h>
#include <string.h>

bool faOpIsA(MlirOperation op, const char *name) {
  return !mlirOperationIsNull(op) &&
         mlirStringRefEqual(mlirIdentifierStr(mlirOperationGetName(op)),
                            mlirStringRefCreateFromCString(name));
}

MlirAttribute faOpGetAttr(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
}

MlirOperation faValueGetDefiningOp(MlirValue v) {
  if (mlirValueIsNull(v) || !mlirValueIsAOpResult(v))
    return (MlirOperation){NULL};
  return mlirOpResultGetOwner(v);
}

MlirOperation faValueGetSoleUser(MlirValue v) {
  MlirOperation none = {NULL};
  MlirOpOperand use = mlirValueGetFirstUse(v);
  if (!mlirValueIsAOpResult(v) || mlirOpOperandIsNull(use) ||
      !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)))
    return none;
  MlirOperation user = mlirOpOperandGetOwner(use);
  return mlirOperationGetNumResults(user) == 1 &&
                 mlirBlockEqual(mlirOperationGetBlock(user),
                                mlirOperationGetBlock(mlirOpResultGetOwner(v)))
             ? user
             : none;
}

static MlirNamedAttribute named(MlirContext ctx, const char *name,
                                MlirAttribute a) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), a);
}

static MlirOperation insertOp(MlirRewriterBase rewriter, MlirOperationState *st) {
  MlirOperation op = mlirOperationCreate(st);
  mlirRewriterBaseInsert(rewriter, op);
  return op;
}

MlirValue faBuildIndexConstant(MlirRewriterBase rewriter, MlirLocation loc,
                               int64_t value) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType index = mlirIndexTypeGet(ctx);
  MlirOperationState st = mlirOperationStateGet(
      mlirStringRefCreateFromCString("arith.constant"), loc);
  MlirNamedAttribute a = named(ctx, "value", mlirIntegerAttrGet(index, value));
  mlirOperationStateAddAttributes(&st, 1, &a);
  mlirOperationStateAddResults(&st, 1, &index);
  return mlirOperationGetResult(insertOp(rewriter, &st), 0);
}

MlirValue faBuildDim(MlirRewriterBase rewriter, MlirLocation loc, MlirValue v,
                     int64_t dim) {
  MlirValue operands[2] = {v, faBuildIndexConstant(rewriter, loc, dim)};
  MlirType index = mlirIndexTypeGet(mlirLocationGetContext(loc));
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("tensor.dim"), loc);
  mlirOperationStateAddOperands(&st, 2, operands);
  mlirOperationStateAddResults(&st, 1, &index);
  return mlirOperationGetResult(insertOp(rewriter, &st), 0);
}

/* [[dims of group 0], [dims of group 1], ...] from a group id per high dim. */
static MlirAttribute reassociation(MlirContext ctx, intptr_t highRank,
                                   const int *group) {
  MlirAttribute groups[8], idx[8];
  intptr_t numGroups = 0;
  for (intptr_t d = 0; d < highRank;) {
    intptr_t n = 0;
    int g = group[d];
    for (; d < highRank && group[d] == g; ++d)
      idx[n++] = mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), d);
    groups[numGroups++] = mlirArrayAttrGet(ctx, n, idx);
  }
  return mlirArrayAttrGet(ctx, numGroups, groups);
}

MlirValue faBuildExpandShape(MlirRewriterBase rewriter, MlirLocation loc,
                             MlirValue low, MlirType highType,
                             const int *group) {
  MlirContext ctx = mlirLocationGetContext(loc);
  intptr_t rank = mlirShapedTypeGetRank(highType);
  int64_t shape[8];
  MlirValue dynamic[9] = {low};
  intptr_t numDynamic = 0;
  for (intptr_t d = 0; d < rank; ++d) {
    shape[d] = mlirShapedTypeGetDimSize(highType, d);
    if (mlirShapedTypeIsDynamicDim(highType, d))
      dynamic[1 + numDynamic++] = faBuildDim(rewriter, loc, low, group[d]);
  }
  MlirOperationState st = mlirOperationStateGet(
      mlirStringRefCreateFromCString("tensor.expand_shape"), loc);
  mlirOperationStateAddOperands(&st, 1 + numDynamic, dynamic);
  mlirOperationStateAddResults(&st, 1, &highType);
  MlirNamedAttribute attrs[2] = {
      named(ctx, "reassociation", reassociation(ctx, rank, group)),
      named(ctx, "static_output_shape", mlirDenseI64ArrayGet(ctx, rank, shape))};
  mlirOperationStateAddAttributes(&st, 2, attrs);
  return mlirOperationGetResult(insertOp(rewriter, &st), 0);
}

MlirValue faBuildCollapseShape(MlirRewriterBase rewriter, MlirLocation loc,
                               MlirValue high, MlirType lowType,
                               const int *group) {
  MlirContext ctx = mlirLocationGetContext(loc);
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(high));
  MlirOperationState st = mlirOperationStateGet(
      mlirStringRefCreateFromCString("tensor.collapse_shape"), loc);
  mlirOperationStateAddOperands(&st, 1, &high);
  mlirOperationStateAddResults(&st, 1, &lowType);
  MlirNamedAttribute a = named(ctx, "reassociation", reassociation(ctx, rank, group));
  mlirOperationStateAddAttributes(&st, 1, &a);
  return mlirOperationGetResult(insertOp(rewriter, &st), 0);
}

MlirValue faBuildCastTo(MlirRewriterBase rewriter, MlirLocation loc, MlirValue v,
                        MlirType type) {
  if (mlirTypeEqual(mlirValueGetType(v), type))
    return v;
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("tensor.cast"), loc);
  mlirOperationStateAddOperands(&st, 1, &v);
  mlirOperationStateAddResults(&st, 1, &type);
  return mlirOperationGetResult(insertOp(rewriter, &st), 0);
}

static MlirValue buildUnary(MlirRewriterBase rewriter, MlirLocation loc,
                            const char *name, intptr_t n, MlirValue *operands,
                            MlirType type, MlirNamedAttribute *attr) {
  MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString(name), loc);
  mlirOperationStateAddOperands(&st, n, operands);
  mlirOperationStateAddResults(&st, 1, &type);
  if (attr)
    mlirOperationStateAddAttributes(&st, 1, attr);
  return mlirOperationGetResult(insertOp(rewriter, &st), 0);
}

MlirValue faBuildSplat(MlirRewriterBase rewriter, MlirLocation loc,
                       MlirAttribute value, MlirType type, MlirValue like) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirNamedAttribute a = named(ctx, "value", value);
  MlirValue ops[9] = {buildUnary(rewriter, loc, "arith.constant", 0, NULL,
                                 mlirAttributeGetType(value), &a)};
  intptr_t n = 1, rank = mlirShapedTypeGetRank(type);
  for (intptr_t d = 0; d < rank && d < 8; ++d)
    if (mlirShapedTypeIsDynamicDim(type, d))
      ops[n++] = faBuildDim(rewriter, loc, like, d);
  return buildUnary(rewriter, loc, "tensor.splat", n, ops, type, NULL);
}

MlirValue faBuildSelect(MlirRewriterBase rewriter, MlirLocation loc,
                        MlirValue cond, MlirValue a, MlirValue b) {
  MlirValue ops[3] = {cond, a, b};
  return buildUnary(rewriter, loc, "arith.select", 3, ops, mlirValueGetType(a), NULL);
}

MlirValue faBuildElementwise(MlirRewriterBase rewriter, MlirLocation loc, const char *name,
                             intptr_t n, MlirValue *operands, MlirType type) {
  return buildUnary(rewriter, loc, name, n, operands, type, NULL);
}

MlirValue faBuildAddIntConstant(MlirRewriterBase rewriter, MlirLocation loc,
                                MlirValue v, int64_t c) {
  MlirType type = mlirValueGetType(v);
  MlirAttribute value = mlirIntegerAttrGet(mlirShapedTypeGetElementType(type), c);
  MlirValue sum[2] = {v, faBuildSplat(rewriter, loc, value, type, v)};
  return buildUnary(rewriter, loc, "arith.addi", 2, sum, type, NULL);
}

MlirNamedAttribute faNamedAttributeGet(MlirContext ctx, const char *name, MlirAttribute a) {
  return named(ctx, name, a);
}

MlirOperation faOperationCreateBefore(MlirOperation before, const char *name,
                                      intptr_t numOperands, const MlirValue *operands,
                                      intptr_t numResults, const MlirType *results,
                                      intptr_t numAttrs, const MlirNamedAttribute *attrs) {
  MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString(name),
                                                mlirOperationGetLocation(before));
  mlirOperationStateAddOperands(&st, numOperands, operands);
  mlirOperationStateAddResults(&st, numResults, results);
  mlirOperationStateAddAttributes(&st, numAttrs, attrs);
  MlirOperation op = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before, op);
  return op;
}

void faOperationReplaceWithCall(MlirOperation op, const char *callee) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirOperationState st = mlirOperationStateGet(
      mlirStringRefCreateFromCString("func.call"), mlirOperationGetLocation(op));
  intptr_t numOperands = mlirOperationGetNumOperands(op);
  intptr_t numResults = mlirOperationGetNumResults(op);
  MlirValue *operands = malloc((numOperands ? numOperands : 1) * sizeof *operands);
  MlirType *results = malloc((numResults ? numResults : 1) * sizeof *results);
  if (!operands || !results)
    abort();
  for (intptr_t i = 0; i < numOperands; ++i)
    operands[i] = mlirOperationGetOperand(op, i);
  for (intptr_t i = 0; i < numResults; ++i)
    results[i] = mlirValueGetType(mlirOperationGetResult(op, i));
  mlirOperationStateAddOperands(&st, numOperands, operands);
  mlirOperationStateAddResults(&st, numResults, results);
  free(operands);
  free(results);
  MlirNamedAttribute attr = named(
      ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(callee)));
  mlirOperationStateAddAttributes(&st, 1, &attr);
  MlirOperation call = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(op), op, call);
  for (intptr_t i = 0; i < numResults; ++i)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, i),
                                  mlirOperationGetResult(call, i));
  mlirOperationDestroy(op);
}

static void faOpListAppend(FaOpList *list, MlirOperation op) {
  if (list->size == list->cap) {
    list->cap = list->cap * 2 + 16;
    list->ops = realloc(list->ops, list->cap * sizeof(MlirOperation));
    if (!list->ops)
      abort();
  }
  list->ops[list->size++] = op;
}

void faCallInline(MlirOperation call, MlirOperation callee) {
  MlirOperation body = mlirOperationClone(callee);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(body, 0));
  for (intptr_t i = 0, e = mlirBlockGetNumArguments(entry); i < e; ++i)
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(entry, i),
                                  mlirOperationGetOperand(call, i));
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (faOpIsA(op, "func.return")) {
      for (intptr_t r = 0, e = mlirOperationGetNumOperands(op); r < e; ++r)
        mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(call, r),
                                      mlirOperationGetOperand(op, r));
      break;
    }
    mlirOperationMoveBefore(op, call);
    op = next;
  }
  mlirOperationDestroy(body);
  mlirOperationDestroy(call);
}

typedef struct {
  const char *const *names;
  size_t numNames;
  FaOpList calls;
} CallsTo;

static MlirWalkResult collectCallTo(MlirOperation op, void *userData) {
  CallsTo *c = userData;
  if (!faOpIsA(op, "func.call"))
    return MlirWalkResultAdvance;
  MlirStringRef callee = mlirFlatSymbolRefAttrGetValue(faOpGetAttr(op, "callee"));
  /* Once, even where a name is listed twice (two functions of one name,
   * left by a lowering that failed halfway). */
  for (size_t i = 0; i < c->numNames; ++i)
    if (mlirStringRefEqual(callee, mlirStringRefCreateFromCString(c->names[i]))) {
      faOpListAppend(&c->calls, op);
      break;
    }
  return MlirWalkResultAdvance;
}

/* Whether `fn` is a function with a body that `call` can be inlined from:
 * as many arguments as the call has operands, results as it has. (After a
 * lowering that failed halfway, a call may name a declaration or a function
 * of another signature: it stays a call, the error already reported.) */
static bool callMatches(MlirOperation call, MlirOperation fn) {
  if (mlirOperationIsNull(fn) || mlirOperationGetNumRegions(fn) != 1)
    return false;
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  if (mlirBlockIsNull(entry) || mlirBlockGetNumArguments(entry) != mlirOperationGetNumOperands(call))
    return false;
  MlirOperation ret = mlirBlockGetTerminator(entry);
  return !mlirOperationIsNull(ret) &&
         mlirOperationGetNumOperands(ret) == mlirOperationGetNumResults(call);
}

void faModuleInlineCallsTo(MlirOperation module, const char *const *names, size_t numNames) {
  MlirSymbolTable table = mlirSymbolTableCreate(module);
  /* Rounds: a body inlined may itself call one of `names` (helpers nest a
   * few deep; a recursive one stops at the cap, its calls left as they are). */
  for (int round = 0; round < 8; ++round) {
    CallsTo c = {names, numNames, {NULL, 0, 0}};
    mlirOperationWalk(module, collectCallTo, &c, MlirWalkPostOrder);
    size_t found = c.calls.size;
    for (size_t i = 0; i < c.calls.size; ++i) {
      MlirStringRef callee =
          mlirFlatSymbolRefAttrGetValue(faOpGetAttr(c.calls.ops[i], "callee"));
      MlirOperation fn = mlirSymbolTableLookup(table, callee);
      if (callMatches(c.calls.ops[i], fn))
        faCallInline(c.calls.ops[i], fn);
    }
    faOpListDestroy(&c.calls);
    if (!found)
      break;
  }
  for (size_t i = 0; i < numNames; ++i) {
    MlirOperation f = mlirSymbolTableLookup(table, mlirStringRefCreateFromCString(names[i]));
    if (!mlirOperationIsNull(f))
      mlirSymbolTableErase(table, f);
  }
  mlirSymbolTableDestroy(table);
}

void faModuleInlineMarked(MlirOperation module, const char *attr) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  size_t n = 0;
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f))
    n += faOpIsA(f, "func.func") && !mlirAttributeIsNull(faOpGetAttr(f, attr));
  char **names = malloc((n ? n : 1) * sizeof *names);
  if (!names)
    abort();
  n = 0;
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f))
    if (faOpIsA(f, "func.func") && !mlirAttributeIsNull(faOpGetAttr(f, attr))) {
      MlirStringRef name = mlirStringAttrGetValue(faOpGetAttr(f, "sym_name"));
      names[n++] = faStringCopy(name.data, name.length);
    }
  faModuleInlineCallsTo(module, (const char *const *)names, n);
  for (size_t i = 0; i < n; ++i)
    free(names[i]);
  free(names);
}

typedef struct {
  FaOpList list;
  bool (*pred)(MlirOperation);
} Collector;

static MlirWalkResult collectOne(MlirOperation op, void *userData) {
  Collector *c = userData;
  if (!c->pred(op))
    return MlirWalkResultAdvance;
  faOpListAppend(&c->list, op);
  return MlirWalkResultAdvance;
}

FaOpList faOperationCollect(MlirOperation root, bool (*pred)(MlirOperation),
                            MlirWalkOrder order) {
  Collector c = {{NULL, 0, 0}, pred};
  mlirOperationWalk(root, collectOne, &c, order);
  return c.list;
}

void faOpListDestroy(FaOpList *list) {
  free(list->ops);
  *list = (FaOpList){NULL, 0, 0};
}

bool faOpIsAnyOf(MlirOperation op, const char *const *names) {
  for (; *names; ++names)
    if (faOpIsA(op, *names))
      return true;
  return false;
}

static bool hasUses(MlirOperation op) {
  for (intptr_t i = 0, e = mlirOperationGetNumResults(op); i < e; ++i)
    if (!mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, i))))
      return true;
  return false;
}

void faEraseDeadOps(MlirRewriterBase rewriter, const MlirOperation *ops,
                    size_t numOps, const char *const *names) {
  enum { kMax = 512 };
  MlirOperation work[kMax];
  size_t n = 0;
  for (size_t i = 0; i < numOps && n < kMax; ++i)
    if (!mlirOperationIsNull(ops[i]))
      work[n++] = ops[i];
  /* Erase any dead op of the list; its operands' producers join the list. */
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < n; ++i) {
      if (mlirOperationIsNull(work[i]) || hasUses(work[i]))
        continue;
      MlirOperation op = work[i];
      work[i] = (MlirOperation){NULL};
      for (intptr_t o = 0, e = mlirOperationGetNumOperands(op); o < e; ++o) {
        MlirOperation def = faValueGetDefiningOp(mlirOperationGetOperand(op, o));
        bool listed = false;
        for (size_t j = 0; j < n && !listed; ++j)
          listed = mlirOperationEqual(work[j], def);
        if (!listed && !mlirOperationIsNull(def) && faOpIsAnyOf(def, names) && n < kMax)
          work[n++] = def;
      }
      mlirRewriterBaseEraseOp(rewriter, op);
      changed = true;
    }
  }
}

void faModuleForEachFunc(MlirOperation module, void (*fn)(MlirOperation func)) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (faOpIsA(op, "func.func") &&
        !mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0))))
      fn(op);
}

MlirValue faBuildIntConstantBefore(MlirOperation before, MlirType type, int64_t value) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirNamedAttribute attr = faNamedAttributeGet(ctx, "value", mlirIntegerAttrGet(type, value));
  return mlirOperationGetResult(
      faOperationCreateBefore(before, "arith.constant", 0, NULL, 1, &type, 1, &attr), 0);
}

MlirValue faBuildBinaryBefore(MlirOperation before, const char *name, MlirValue a, MlirValue b) {
  MlirValue operands[2] = {a, b};
  MlirType type = mlirValueGetType(a);
  return mlirOperationGetResult(
      faOperationCreateBefore(before, name, 2, operands, 1, &type, 0, NULL), 0);
}

MlirValue faBuildUnaryBefore(MlirOperation before, const char *name, MlirValue v, MlirType to) {
  return mlirOperationGetResult(faOperationCreateBefore(before, name, 1, &v, 1, &to, 0, NULL), 0);
}
