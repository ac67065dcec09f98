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

/// Operands of a fa.gridwise_attention to build. `bias` and `kvLen` may be
/// null values (absent). `causalOffset` is used only if `causal` is true.
typedef struct FaAttentionOperands {
  MlirValue q, k, v;
  MlirValue bias;  /* optional */
  MlirValue kvLen; /* optional */
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
} FaAttentionAttrs;

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
/// until it is inserted in a block.
FA_CAPI_EXPORTED MlirOperation
faGridwiseAttentionOpCreate(MlirLocation loc, FaAttentionOperands operands,
                            FaAttentionAttrs attrs, MlirType outType);

#ifdef __cplusplus
}
#endif
#endif /* FA_C_DIALECT_H */
