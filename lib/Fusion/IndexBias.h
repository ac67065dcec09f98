/* Internal: a fused op's bias computed from indices and small tables, moved
 * into the kernel as a score_mod function (docs/passes.md, "Index biases as
 * score_mod"). */
#ifndef FA_LIB_FUSION_INDEXBIAS_H
#define FA_LIB_FUSION_INDEXBIAS_H

#include "mlir-c/IR.h"
#include "mlir-c/Rewrite.h"

#include "Support/Text.h"

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

/* A softcap c * tanh(s / k) (or tanh(s * k)) that score_mod applies before
 * it adds the bias (Gemma-2's padding mask, added after its softcap). */
typedef struct {
  bool innerMul;
  double inner, outer;
} FaIndexBiasSoftcap;

/* Appends "  %OUT = c * tanh(%IN / k)" (or tanh(%IN * k)) as f32 ops, the
 * constants %k and %c bit-exact: the softcap as fusion writes it into a
 * score_mod (FuseAttention.c's, and this step's after-softcap form). */
void faIndexBiasAppendSoftcap(FaText *t, const FaIndexBiasSoftcap *softcap, const char *in,
                              const char *out);

/* The source ops the step read through, for the caller to erase once the
 * chain that used them is gone (with the chain's ops: one may be in both). */
enum { FA_INDEX_BIAS_MAX_PRODUCERS = 256 };
typedef struct {
  MlirOperation ops[FA_INDEX_BIAS_MAX_PRODUCERS];
  int n;
} FaIndexBiasProducers;

/* What score_mod computes around the bias, besides `s + bias(b, h, i, j)`:
 * `softcap` (or null) caps s first (Gemma-2's padding mask, added after its
 * softcap); `visible` (or null) is text defining the i1 value `%NAME`
 * (`visibleName`) from %b, %h, %i, %j (names with a digit, or coffset,
 * climit, causal, visible), and score_mod returns `fill` where it is false
 * (a finite fill replacing scores that include the bias: BLOOM's
 * masked_fill(finfo.min) of alibi + q.k), clamped into the bias's domain as
 * the bias is. */
typedef struct {
  const FaIndexBiasSoftcap *softcap;
  const char *visible, *visibleName;
  double fill;
  /* Null, or the half type (f16/bf16) the source rounds the sum to: score_mod
   * is then `extf(truncf(s) + truncf(bias))`, the sum in that type (it rounds
   * and overflows as the source's), or `extf(truncf(s + bias))`. */
  MlirType half;
  bool addInHalf; /* the sum in `half` (else in f32, rounded to `half` after) */
} FaIndexBiasForm;

/* As faIndexBiasToScoreMod with score_mod of the form `form`, while the
 * source chain still uses the bias's producers: they are listed in
 * `producers`, not erased. The bias may be only data, of any size (there is
 * no dense bias operand to keep instead). */
bool faIndexBiasToScoreModIn(MlirRewriterBase rewriter, MlirOperation attn, MlirOperation table,
                             const FaIndexBiasForm *form, FaIndexBiasProducers *producers);

#endif
