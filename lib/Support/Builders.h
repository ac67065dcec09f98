/* Internal: IR-building helpers shared by all passes. */
#ifndef FA_LIB_SUPPORT_BUILDERS_H
#define FA_LIB_SUPPORT_BUILDERS_H

#include "mlir-c/IR.h"
#include "mlir-c/Rewrite.h"

/* Is `op` named `name`? */
bool faOpIsA(MlirOperation op, const char *name);

/* The attribute `name` of `op` (null if absent). */
MlirAttribute faOpGetAttr(MlirOperation op, const char *name);

/* Defining op of `v`, or null if `v` is a block argument. */
MlirOperation faValueGetDefiningOp(MlirValue v);

/* Is `op` named any of `names` (NULL-terminated)? */
bool faOpIsAnyOf(MlirOperation op, const char *const *names);

/* The op that is the only user of the op result `v`, if it has one result
 * and sits in the block of `v`'s op; else null. */
MlirOperation faValueGetSoleUser(MlirValue v);

/* arith.constant of index type, and tensor.dim of `v`. */
MlirValue faBuildIndexConstant(MlirRewriterBase rewriter, MlirLocation loc,
                               int64_t value);
MlirValue faBuildDim(MlirRewriterBase rewriter, MlirLocation loc, MlirValue v,
                     int64_t dim);

/* Inserts a tensor.expand_shape of `low` to `highType`. `group[d]` is the dim
 * of `low` that dim d of `highType` comes from (non-decreasing). A dynamic
 * high dim must be alone in its group; its size is read with tensor.dim. */
MlirValue faBuildExpandShape(MlirRewriterBase rewriter, MlirLocation loc,
                             MlirValue low, MlirType highType,
                             const int *group);
/* `v` as `type`: itself, or a tensor.cast where the types differ (static
 * and dynamic dims; the verifier refuses a cast between incompatible ones). */
MlirValue faBuildCastTo(MlirRewriterBase rewriter, MlirLocation loc, MlirValue v,
                        MlirType type);
/* The inverse: a tensor.collapse_shape of `high` to `lowType`. */
MlirValue faBuildCollapseShape(MlirRewriterBase rewriter, MlirLocation loc,
                               MlirValue high, MlirType lowType,
                               const int *group);

/* A tensor.splat of `value` (a scalar attribute) to `type`; dynamic sizes
 * are read from `like` (same rank) with tensor.dim. */
MlirValue faBuildSplat(MlirRewriterBase rewriter, MlirLocation loc,
                       MlirAttribute value, MlirType type, MlirValue like);

/* An op `name` of `n` operands and one result of `type` (e.g. arith.mulf on
 * tensors, which convert-elementwise-to-linalg lowers). */
MlirValue faBuildElementwise(MlirRewriterBase rewriter, MlirLocation loc, const char *name,
                             intptr_t n, MlirValue *operands, MlirType type);

/* select(cond, a, b) elementwise on tensors (arith.select). */
MlirValue faBuildSelect(MlirRewriterBase rewriter, MlirLocation loc,
                        MlirValue cond, MlirValue a, MlirValue b);

/* `v + c` elementwise (integer tensor of rank 1): arith.addi with a
 * tensor.splat of an arith.constant; dynamic sizes are read with tensor.dim. */
MlirValue faBuildAddIntConstant(MlirRewriterBase rewriter, MlirLocation loc,
                                MlirValue v, int64_t c);

/* Creates an op `name` with the given operands, result types and attributes
 * and inserts it before `before`. */
MlirOperation faOperationCreateBefore(MlirOperation before, const char *name,
                                      intptr_t numOperands, const MlirValue *operands,
                                      intptr_t numResults, const MlirType *results,
                                      intptr_t numAttrs, const MlirNamedAttribute *attrs);

/* arith.constant `value` of integer or index `type`, the binary op `name`
 * (both operands and the result of `a`'s type), and the unary op `name`
 * (a cast) of `v` to type `to`, before `before`. */
MlirValue faBuildIntConstantBefore(MlirOperation before, MlirType type, int64_t value);
MlirValue faBuildBinaryBefore(MlirOperation before, const char *name, MlirValue a, MlirValue b);
MlirValue faBuildUnaryBefore(MlirOperation before, const char *name, MlirValue v, MlirType to);

/* The named attribute `name` = `a`. */
MlirNamedAttribute faNamedAttributeGet(MlirContext ctx, const char *name, MlirAttribute a);

/* Replaces `op` with a func.call of `callee` taking its operands and giving
 * results of its result types (which take over its uses); destroys `op`. */
void faOperationReplaceWithCall(MlirOperation op, const char *callee);

/* Replaces `call` (a func.call) with a copy of the body of `callee`, a
 * func.func of one block: what MLIR's inliner does, for callees it refuses
 * (ops of dialects without an inliner interface, e.g. nvgpu). */
void faCallInline(MlirOperation call, MlirOperation callee);
/* Inlines, in one walk of `module`, every func.call of the functions named
 * in `names` (faCallInline), then erases those functions. */
void faModuleInlineCallsTo(MlirOperation module, const char *const *names, size_t numNames);
/* The same for the functions of `module` that carry the unit attribute
 * `attr` (templates mark their helpers so: {fa.inline}). */
void faModuleInlineMarked(MlirOperation module, const char *attr);
#define FA_INLINE_ATTR "fa.inline"

/* Calls `fn` on each func.func with a body at the top level of `module`. */
void faModuleForEachFunc(MlirOperation module, void (*fn)(MlirOperation func));

/* The ops under `root` (walked in `order`) for which `pred` holds, in a
 * malloc'ed array the caller frees with faOpListDestroy. */
typedef struct FaOpList {
  MlirOperation *ops;
  size_t size, cap;
} FaOpList;
FaOpList faOperationCollect(MlirOperation root, bool (*pred)(MlirOperation),
                            MlirWalkOrder order);
void faOpListDestroy(FaOpList *list);

/* Erases every op of `ops` that has no uses, repeatedly; producers of erased
 * ops' operands whose names are in `names` (NULL-terminated) are considered
 * too. Null entries are skipped; entries must be distinct. */
void faEraseDeadOps(MlirRewriterBase rewriter, const MlirOperation *ops,
                    size_t numOps, const char *const *names);

#endif
