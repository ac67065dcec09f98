/* Internal: scores computed across views of the merged batch.
 *
 * Models that merge heads into the batch compute part of the scores on
 * [B*H, M, N] and part on its [B, H, M, N] view: BLOOM adds its ALiBi tensor
 * [B*H, 1, N] with baddbmm before the split view and masks after it; CLIP
 * masks the split view and merges it back for the softmax. A split and a
 * merge of the same axis are a pure regrouping (b*H + h), so the matcher
 * reads on through them where every value across the view is either that
 * regrouped tensor itself or does not vary with the batch and the head. */
#ifndef FA_LIB_FUSION_BATCHVIEWS_H
#define FA_LIB_FUSION_BATCHVIEWS_H

#include "Fusion/AttentionMatch.h"

/* `leaf`, a leaf of the scores' tree that holds no scores, read through a
 * view of the merged batch: in a [B*H, M, N] score space, a merge of a
 * [B, H, M, N] computation (projected onto the merged space); in a
 * [B, H, M, N] one, a split of a [B*H, M, N] computation (the score space
 * becomes that one). `*leaf` is overwritten with the tree read and `*read`
 * set; NULL and `*read` false where it is no such view; a reason where it is
 * one that cannot be read. */
const char *faBatchViewsRead(FaAttentionMatch *m, FaExpr *leaf, bool *read);

/* If `*p` (what P*V reads) is a transpose: where it moves only unit dims
 * (the others keep their order, the key dim last) it is a reshape, and `*p`
 * becomes its input (the transpose joins the chain); any other transpose of
 * a softmax is refused (the reason, `*isCandidate`). */
const char *faBatchViewsPeelTranspose(FaAttentionMatch *m, MlirValue *p, bool *isCandidate);

/* The scores `v` (static) reached from a [B*H, M, N] contraction through
 * reshapes and transposes that move only unit dims (einsum's exports:
 * expand to [B, H, M, 1, N], swap the unit dim, collapse): each step keeps
 * the elements' row-major order, so together they are the batch split.
 * Returns the rank-3 value (null where there is none); with `m`, only one
 * of m's score sizes [B*H, M, N], and the steps join m's chain. */
MlirValue faBatchViewsPeelScoreReshapes(FaAttentionMatch *m, MlirValue v);

/* Heads folded into the query axis (GPTBigCode's multi-query attention:
 * [B, M, H, N] scores reshaped to [B, M*H, N] for P*V, r = i*H + h): if
 * `pvLhs` is that fold of a rank-4 tensor, records it (m->foldHeads) and
 * returns the tensor (the softmax is matched over it); else null. */
MlirValue faBatchViewsPeelFold(FaAttentionMatch *m, MlirValue pvLhs);

/* After the softmax over `*x` (in [B, M, H, N]) matched, with a fold: `*x`
 * read over [B, M*H, N], the score space from there on (the query index i
 * of a mask is floor(r / H); a value that varies with the head is refused). */
const char *faBatchViewsFoldScores(FaAttentionMatch *m, FaExpr **x);

/* With a fold, after the layout is planned: where nothing reads the folded
 * row r but as the query floor(r / H) (mask terms; no bias, KV length or
 * causal compare of r) and Q is the [B, M*H, D] fold, the op takes the heads:
 * Hq = H, Hkv = 1, Q and O as [B, M, H, D] views (m->foldToHeads), the mask
 * terms in the query index, a lone causal one the causal_offset. Otherwise
 * the match keeps the folded rows (exact as they are). */
void faBatchViewsFoldHeads(FaAttentionMatch *m);

#endif
