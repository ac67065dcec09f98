/* Internal to lib/Dialect: the rows of fa.gridwise_attention's attribute
 * table (AttentionAttrs.def) as data, for the verifier and the builder. */
#ifndef FA_LIB_DIALECT_ATTENTIONATTRS_H
#define FA_LIB_DIALECT_ATTENTIONATTRS_H

#include "fa-c/Dialect.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum FaAttrKind {
  FA_ATTR_KIND_F32,     /* a finite f32 FloatAttr */
  FA_ATTR_KIND_INTEGER, /* an IntegerAttr in [min, max] */
  FA_ATTR_KIND_UNIT,    /* a UnitAttr: true when present */
  FA_ATTR_KIND_SYMBOL,  /* a FlatSymbolRefAttr naming a func.func */
  FA_ATTR_KIND_SEGMENTS /* operand/result segment sizes (IRDL's) */
} FaAttrKind;

typedef struct FaAttentionAttrInfo {
  const char *name;
  FaAttrKind kind;
  bool required;
  int64_t min, max; /* INTEGER: the valid range */
  bool powerOfTwo;  /* INTEGER: a power of two */
  FaAttentionAttr excludes; /* a UNIT attribute not allowed with this one,
                               FA_ATTENTION_ATTR_COUNT when none */
  double dflt;      /* what the getters give when it is absent */
} FaAttentionAttrInfo;

/* Row `a` of the table; NULL if `a` is not an attribute. */
const FaAttentionAttrInfo *faAttentionAttrGetInfo(FaAttentionAttr a);

/* The attribute named `name`; FA_ATTENTION_ATTR_COUNT if none is. */
FaAttentionAttr faAttentionAttrLookup(MlirStringRef name);

/* Whether operand segment `s` may be empty (bias, kv_len, sinks, captures). */
bool faAttentionSegmentIsOptional(FaAttentionOperandSegment s);

/* The index of the first operand of segment `s` of `op` and, in `*size`,
 * how many it holds (read through operandSegmentSizes). */
intptr_t faAttentionSegmentGetStart(MlirOperation op, FaAttentionOperandSegment s,
                                    intptr_t *size);

/* The value of attribute `a` as its kind holds it, for the builder: INTEGER,
 * an i64 IntegerAttr of `value`; UNIT, a UnitAttr if `value` is nonzero and
 * a null attribute (absent) otherwise; a null attribute for other kinds. */
MlirAttribute faAttentionAttrGetInt(MlirContext ctx, FaAttentionAttr a, int64_t value);

/* The value of F32 attribute `a`: an f32 FloatAttr of `value` (a null
 * attribute if `a` is of another kind). */
MlirAttribute faAttentionAttrGetFloat(MlirContext ctx, FaAttentionAttr a, double value);

/* The attribute of the hint `h` and of tensor `t`'s layout. */
static inline FaAttentionAttr faAttentionAttrOfHint(FaAttentionHint h) {
  return (FaAttentionAttr)(FA_ATTENTION_ATTR_BLOCK_M + h);
}
static inline FaAttentionAttr faAttentionAttrOfBshd(FaAttentionTensor t) {
  return (FaAttentionAttr)(FA_ATTENTION_ATTR_Q_BSHD + t);
}

/* Verifies the functions op's `mask` and `score_mod` name and its captures
 * (VerifyFunctions.c); errors at the op's or the offending op's location. */
MlirLogicalResult faAttentionVerifyFunctions(MlirOperation op);

#endif
