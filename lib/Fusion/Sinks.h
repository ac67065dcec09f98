/* Internal: gpt-oss's attention sinks as the fused op's `sinks` operand.
 *
 * The source concatenates a per-head logit to the scores as a last column,
 * takes the softmax over both (after subtracting the row max, which the
 * softmax does again) and drops the column before P*V:
 *   P = softmax(concat(s, sink[h]) - max)[..., :N]
 * which is the op's O = sum_j e^(s_j - m) V_j / (sum_j e^(s_j - m) + e^(sink - m)).
 * The sink is neither scaled nor masked, as the op's is not. */
#ifndef FA_LIB_FUSION_SINKS_H
#define FA_LIB_FUSION_SINKS_H

#include "Fusion/AttentionMatch.h"

/* If `*p` (what P*V reads) is a slice: where it drops the last column of its
 * source, `*p` becomes the source and the slice joins the chain (m->sinkSlice);
 * any other slice of a softmax is refused (the reason, `*isCandidate`). */
const char *faSinksPeelSlice(FaAttentionMatch *m, MlirValue *p, bool *isCandidate);

/* After the softmax over `*x` matched, with a sink slice: `*x` must be the
 * concatenation of the scores and a column that is a per-head tensor, shifted
 * by its own row max or not. Sets m->sinks and m->scores; `*x` becomes the
 * scores' tree. Without a slice, nothing. */
const char *faSinksMatch(FaAttentionMatch *m, FaExpr **x);

#endif
