/*===-- fa-c/Dialect.h - The fa dialect ---------------------------*- C -*-===*\
|* The `fa` dialect is defined in IRDL and loaded into a context at run time.  *|
|* IRDL checks operand/result counts and attribute kinds; faOperationVerify    *|
|* adds the checks IRDL cannot express (shapes, element types, GQA, ranges).   *|
\*===----------------------------------------------------------------------===*/
#ifndef FA_C_DIALECT_H
#define FA_C_DIALECT_H

#include "fa-c/Support.h"

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FA_DIALECT_NAMESPACE "fa"
#define FA_OP_GRIDWISE_ATTENTION "fa.gridwise_attention"
#define FA_OP_BLOCKWISE_FILL "fa.blockwise_fill"
#define FA_OP_BLOCKWISE_REDUCTION "fa.blockwise_reduction"
#define FA_OP_BLOCKWISE_GEMM "fa.blockwise_gemm"

/// Loads the `fa` dialect (and the `irdl` dialect it is defined with) into
/// `ctx`. Idempotent. Fails, with a diagnostic, only if the context cannot
/// load IRDL dialects.
FA_CAPI_EXPORTED MlirLogicalResult faContextLoadDialect(MlirContext ctx);

/// Returns true if the `fa` dialect is loaded in `ctx`.
FA_CAPI_EXPORTED bool faContextIsDialectLoaded(MlirContext ctx);

/// The IRDL definition of the dialect (a static string, not owned).
FA_CAPI_EXPORTED MlirStringRef faDialectGetIRDLSource(void);

/// Verifies every `fa` op nested under `root` (including `root`) beyond what
/// IRDL checks. Each problem is reported with mlirEmitError at the op's
/// location. Returns failure if any op is invalid.
FA_CAPI_EXPORTED MlirLogicalResult faOperationVerify(MlirOperation root);

/// The tensors of a fa.gridwise_attention whose dims a layout attribute
/// orders, and the dims they have.
typedef enum FaAttentionTensor {
  FA_ATTENTION_Q,
  FA_ATTENTION_K,
  FA_ATTENTION_V,
  FA_ATTENTION_O
} FaAttentionTensor;
typedef enum FaAttentionDim {
  FA_DIM_BATCH,
  FA_DIM_HEADS,
  FA_DIM_SEQ, /* queries (Q, O) or keys (K, V) */
  FA_DIM_HEAD /* the head dim: D (Q, K) or Dv (V, O) */
} FaAttentionDim;

/* --- fa.gridwise_attention: its attributes and operands -------------------
 * One table (lib/Dialect/AttentionAttrs.def; docs/dialect.md, "The attribute
 * table") gives each attribute's name, kind, valid range and default; the
 * verifier, the builder and the getters below read it. Code outside
 * lib/Dialect reads the op through these getters, not by attribute names. */

/// The attributes of fa.gridwise_attention, in the table's order.
typedef enum FaAttentionAttr {
  FA_ATTENTION_ATTR_SCALE,         /* f32, required: the softmax scale */
  FA_ATTENTION_ATTR_CAUSAL_OFFSET, /* i64: causal mask j <= i + offset */
  FA_ATTENTION_ATTR_MASK,          /* @fn(b, h, i, j, captures...) -> i1 */
  FA_ATTENTION_ATTR_SCORE_MOD,     /* @fn(s, b, h, i, j, captures...) -> f32 */
  FA_ATTENTION_ATTR_K_TRANSPOSED,  /* unit: K is [B, Hkv, D, N] */
  FA_ATTENTION_ATTR_Q_BSHD,        /* unit: Q in [B, S, H, D] ... */
  FA_ATTENTION_ATTR_K_BSHD,
  FA_ATTENTION_ATTR_V_BSHD,
  FA_ATTENTION_ATTR_O_BSHD,        /* ... in FaAttentionTensor order */
  FA_ATTENTION_ATTR_BLOCK_M,       /* the tiling hints, in FaAttentionHint */
  FA_ATTENTION_ATTR_BLOCK_N,       /* order */
  FA_ATTENTION_ATTR_WARPS,
  FA_ATTENTION_ATTR_STAGES,
  FA_ATTENTION_ATTR_PV_SPLIT,
  FA_ATTENTION_ATTR_OPERAND_SEGMENT_SIZES,
  FA_ATTENTION_ATTR_RESULT_SEGMENT_SIZES,
  FA_ATTENTION_ATTR_COUNT
} FaAttentionAttr;

/// The tiling hints: optional integer attributes that override the tiles a
/// lowering chooses (which, absent, depend on the target and head dims).
typedef enum FaAttentionHint {
  FA_ATTENTION_HINT_BLOCK_M,  /* block_m: query rows per workgroup */
  FA_ATTENTION_HINT_BLOCK_N,  /* block_n: keys per step */
  FA_ATTENTION_HINT_WARPS,    /* warps per workgroup (tensor-core kernels) */
  FA_ATTENTION_HINT_STAGES,   /* K / V buffer stages (tensor-core kernels) */
  FA_ATTENTION_HINT_PV_SPLIT, /* key chunks of P V (tensor-core kernels) */
  FA_ATTENTION_HINT_COUNT
} FaAttentionHint;

/// The operand segments of fa.gridwise_attention, in operand order (the
/// entries of its operandSegmentSizes).
typedef enum FaAttentionOperandSegment {
  FA_ATTENTION_SEGMENT_Q,
  FA_ATTENTION_SEGMENT_K,
  FA_ATTENTION_SEGMENT_V,
  FA_ATTENTION_SEGMENT_BIAS,   /* optional */
  FA_ATTENTION_SEGMENT_KV_LEN, /* optional */
  FA_ATTENTION_SEGMENT_SINKS,  /* optional: [Hq], a logit per query head */
  FA_ATTENTION_SEGMENT_CAPTURE0, /* optional: what mask and score_mod read, */
  FA_ATTENTION_SEGMENT_CAPTURE1, /* in these four segments from the first */
  FA_ATTENTION_SEGMENT_CAPTURE2,
  FA_ATTENTION_SEGMENT_CAPTURE3,
  FA_ATTENTION_SEGMENT_COUNT
} FaAttentionOperandSegment;

/// The name of attribute `a` (a static string; "" if `a` is not one).
FA_CAPI_EXPORTED const char *faGridwiseAttentionGetAttrName(FaAttentionAttr a);

/// Attribute `a` of the fa.gridwise_attention `op` as it is, or a null
/// attribute when `op` lacks it (or `op` is null). The typed getters below
/// are what passes use.
FA_CAPI_EXPORTED MlirAttribute faGridwiseAttentionGetAttr(MlirOperation op, FaAttentionAttr a);

/// The softmax scale (attribute `scale`). IRDL requires it; on an op without
/// it (unverified), the table's default, 1.0.
FA_CAPI_EXPORTED double faGridwiseAttentionGetScale(MlirOperation op);

/// Whether `op` is causal (has an integer `causal_offset`: key j is visible
/// to query i iff j <= i + offset). Stores the offset, 0 when not causal, in
/// `*offset` unless `offset` is NULL.
FA_CAPI_EXPORTED bool faGridwiseAttentionGetCausalOffset(MlirOperation op, int64_t *offset);

/// Whether K is given as [B, Hkv, D, N] (unit attribute `k_transposed`).
FA_CAPI_EXPORTED bool faGridwiseAttentionIsKTransposed(MlirOperation op);

/// Whether tensor `t` is given in [B, S, H, D] (its unit attribute `*_bshd`).
FA_CAPI_EXPORTED bool faGridwiseAttentionIsBshd(MlirOperation op, FaAttentionTensor t);

/// Tiling hint `h` of `op` (an integer attribute), or `dflt` when `op` has
/// none: the lowering's own choice.
FA_CAPI_EXPORTED int64_t faGridwiseAttentionGetIntHint(MlirOperation op, FaAttentionHint h, int64_t dflt);

/// The operand of segment `s` of `op`, read through its operandSegmentSizes;
/// a null value when the segment is empty (an absent bias or kv_len).
FA_CAPI_EXPORTED MlirValue faGridwiseAttentionGetOperand(MlirOperation op, FaAttentionOperandSegment s);

/// The optional bias operand of `op`; a null value when absent.
FA_CAPI_EXPORTED MlirValue faGridwiseAttentionGetBias(MlirOperation op);

/// The optional kv_len operand of `op`; a null value when absent.
FA_CAPI_EXPORTED MlirValue faGridwiseAttentionGetKvLen(MlirOperation op);

/// Whether `op` has its optional second result, the f32 LSE [B, Hq, M].
FA_CAPI_EXPORTED bool faGridwiseAttentionHasLse(MlirOperation op);

/// The optional sinks operand of `op` ([Hq] floats, a logit per query head
/// that joins each row's softmax denominator); a null value when absent.
FA_CAPI_EXPORTED MlirValue faGridwiseAttentionGetSinks(MlirOperation op);

/// The most captures an op takes.
#define FA_ATTENTION_MAX_CAPTURES 4

/// The number of captures of `op` (the tensors and scalars its mask and
/// score_mod functions take after their index arguments: the non-empty
/// capture segments from capture0 up), and capture `i` (a null value when
/// out of range).
FA_CAPI_EXPORTED intptr_t faGridwiseAttentionGetNumCaptures(MlirOperation op);
FA_CAPI_EXPORTED MlirValue faGridwiseAttentionGetCapture(MlirOperation op, intptr_t i);

/// The func.func that attribute `a` (FA_ATTENTION_ATTR_MASK or
/// FA_ATTENTION_ATTR_SCORE_MOD) of `op` names, looked up in the nearest
/// symbol table above `op`; a null operation when `op` has no such attribute
/// or the symbol is not found.
FA_CAPI_EXPORTED MlirOperation faGridwiseAttentionGetFunction(MlirOperation op, FaAttentionAttr a);

/// Operands of a fa.gridwise_attention to build. `bias` and `kvLen` may be
/// null values (absent). `causalOffset` is used only if `causal` is true.
typedef struct FaAttentionOperands {
  MlirValue q, k, v;
  MlirValue bias;  /* optional */
  MlirValue kvLen; /* optional */
  MlirValue sinks; /* optional */
  intptr_t numCaptures; /* at most FA_ATTENTION_MAX_CAPTURES */
  MlirValue captures[FA_ATTENTION_MAX_CAPTURES];
} FaAttentionOperands;

typedef struct FaAttentionAttrs {
  float scale;
  bool causal;
  int64_t causalOffset;
  bool withLse;
  bool kTransposed; /* K is given as [B, Hkv, D, N] (attribute k_transposed) */
  /* Q, K, V and O in [B, S, H, D], heads after the sequence (attributes
   * q_bshd, k_bshd, v_bshd, o_bshd), indexed by FaAttentionTensor. */
  bool bshd[4];
  /* Tiling hints, indexed by FaAttentionHint; 0 leaves one out (the
   * lowering chooses). */
  int64_t hints[FA_ATTENTION_HINT_COUNT];
  /* The symbols of the mask and score_mod functions; NULL leaves one out. */
  const char *mask, *scoreMod;
} FaAttentionAttrs;

/// The name of the unit attribute that puts tensor `t` in [B, S, H, D]
/// ("q_bshd", "k_bshd", "v_bshd", "o_bshd"; a static string).
FA_CAPI_EXPORTED const char *faGridwiseAttentionGetBshdAttrName(FaAttentionTensor t);

/// The axis that holds dim `d` in a layout: [B, H, S, D], [B, S, H, D] with
/// `bshd`, [B, H, D, S] with `transposed` (K's k_transposed).
FA_CAPI_EXPORTED intptr_t faAttentionLayoutGetAxis(bool bshd, bool transposed, FaAttentionDim d);

/// The axis of tensor `t` of the fa.gridwise_attention `op` that holds dim
/// `d`: [B, H, S, D] by default, [B, S, H, D] with the tensor's `*_bshd`
/// attribute, K as [B, H, D, S] with `k_transposed`.
FA_CAPI_EXPORTED intptr_t
faGridwiseAttentionGetAxis(MlirOperation op, FaAttentionTensor t,
                           FaAttentionDim d);

/// Creates (does not insert) a fa.gridwise_attention with result type
/// `outType` (and an f32 LSE result if requested). The caller owns the op
/// until it is inserted in a block. A null operation if `operands` has more
/// than FA_ATTENTION_MAX_CAPTURES captures.
FA_CAPI_EXPORTED MlirOperation
faGridwiseAttentionOpCreate(MlirLocation loc, FaAttentionOperands operands,
                            FaAttentionAttrs attrs, MlirType outType);

#ifdef __cplusplus
}
#endif
#endif /* FA_C_DIALECT_H */
