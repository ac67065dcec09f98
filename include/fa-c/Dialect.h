/*===-- fa-c/Dialect.h - The fa dialect ---------------------------*- C -*-===*\
|* The `fa` dialect is defined in IRDL and loaded into a context at run time.  *|
|* IRDL checks operand/result counts and attribute kinds; faOperationVerify    *|
|* adds the checks IRDL cannot express (shapes, element types, GQA, ranges).   *|
\*===----------------------------------------------------------------------===*/
#ifndef FA_C_DIALECT_H
#define FA_C_DIALECT_H

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
MlirLogicalResult faContextLoadDialect(MlirContext ctx);

/// Returns true if the `fa` dialect is loaded in `ctx`.
bool faContextIsDialectLoaded(MlirContext ctx);

/// The IRDL definition of the dialect (a static string, not owned).
MlirStringRef faDialectGetIRDLSource(void);

/// Verifies every `fa` op nested under `root` (including `root`) beyond what
/// IRDL checks. Each problem is reported with mlirEmitError at the op's
/// location. Returns failure if any op is invalid.
MlirLogicalResult faOperationVerify(MlirOperation root);

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
} FaAttentionAttrs;

/// Creates (does not insert) a fa.gridwise_attention with result type
/// `outType` (and an f32 LSE result if requested). The caller owns the op
/// until it is inserted in a block.
MlirOperation faGridwiseAttentionOpCreateOwned(MlirLocation loc,
                                               FaAttentionOperands operands,
                                               FaAttentionAttrs attrs,
                                               MlirType outType);

#ifdef __cplusplus
}
#endif
#endif /* FA_C_DIALECT_H */
