/* Internal: a fused op's bias computed from indices and small tables, moved
 * into the kernel as a score_mod function (docs/passes.md, "Index biases as
 * score_mod"). */
#ifndef FA_LIB_FUSION_INDEXBIAS_H
#define FA_LIB_FUSION_INDEXBIAS_H

#include "mlir-c/IR.h"
#include "mlir-c/Rewrite.h"

#include <stdbool.h>

/* Rewrites the fa.gridwise_attention `attn`, which has a bias operand, no
 * score_mod and no captures, into one without the bias and with a score_mod
 * `s + bias(b, h, i, j)` (clamped into the bias's domain) created in the
 * symbol table `table`, the tensors it reads as captures (appended to the
 * op's mask function too, which must be the op's alone), where every
 * producer of the bias is understood and every capture is small; the bias's
 * producers that die are erased. Returns false and changes nothing
 * otherwise (also where the rewritten op would not verify). */
bool faIndexBiasToScoreMod(MlirRewriterBase rewriter, MlirOperation attn,
                           MlirOperation table);

#endif
