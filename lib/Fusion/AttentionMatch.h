/* Internal: recognizes one attention chain (gemm-softmax-gemm in linalg or
 * TOSA) ending in a P*V contraction, without changing the IR. */
#ifndef FA_LIB_FUSION_ATTENTIONMATCH_H
#define FA_LIB_FUSION_ATTENTIONMATCH_H

#include "Fusion/AttentionExpr.h"

#define FA_MATCH_MAX_OPS 96

/* Returns the reason `x` gives, if any (the matchers' steps). */
#define TRY_MATCH(x)                                                           \
  do {                                                                         \
    const char *why_ = (x);                                                    \
    if (why_)                                                                  \
      return why_;                                                             \
  } while (0)

#define FA_MASK_MAX_TERMS 6
enum { FA_MASK_TERM, FA_MASK_AND, FA_MASK_OR, FA_MASK_NOT, FA_MASK_TRUE };

/* Q, K or V as found under its layout ops. */
typedef struct FaAttentionInput {
  MlirValue value;    /* rank 2, 3 or 4: [.., rows, cols] */
  int64_t groups;     /* K, V: GQA broadcast folded away (1 = none) */
  /* Null, or the f16/bf16 [B, S, H, D] tensor that `value` (rank 4) is the
   * extension of, transposed after it to [B, H, S, D] (K^T: [B, H, D, S]):
   * the op reads it in place (*_bshd) where Q, K and V would otherwise
   * differ in element type. */
  MlirValue narrow;
  MlirOperation transpose; /* the transpose making `value`, with `narrow` */
} FaAttentionInput;

typedef struct FaAttentionMatch {
  MlirOperation pv;         /* the P*V contraction */
  MlirOperation qk;         /* the Q*K^T contraction */
  MlirOperation root;       /* the op whose result the fused op replaces */
  FaAttentionInput q, k, v;
  bool kTransposed;         /* k.value is [.., D, N] */
  double scale;
  FaExpr *bias;             /* a leaf in the score space, or NULL */
  const FaExpr *biasSource; /* where `bias` is computed inside the scores' own
                               generic (it has no tensor): the one tensor it
                               reads, at whose shape fusion computes it */
  bool biasIsMask;          /* bias is i1: maskBias where it equals */
  bool maskedValue;         /* maskedValue, 0 elsewhere */
  double maskBias;          /* -inf, or finite (see docs/passes.md) */
  bool finiteMask;          /* a finite fill was read as a causal or boolean
                               mask: it must be the only mask, and dominate */
  double fillMax;           /* the largest such fill, times the scales after it */
  double fillTieGap;        /* the least gap below visible scores that the
                               fills' types prove (0: none), scaled */
  bool fillAdded;           /* one is added to the scores (not replacing them) */
  bool addedFillsAsBias;    /* an added finite fill's tensor is a bias, not a
                               mask (where the mask's dominance is unproven) */
  bool biasAfterFill;       /* the bias is added after a finite fill */
  /* A finite fill replaces scores that include a bias fusion cannot bound
   * (BLOOM: masked_fill(causal, finfo.min) of alibi + q.k): the fill is not
   * a mask then (where the bias is the fill itself, visible scores tie with
   * it), so score_mod computes select(visible, s + bias, fill) on every
   * pair (IndexBias.c), the op with neither causal_offset nor mask. */
  bool fillInScoreMod;
  /* The sum of the scores and the bias is rounded to this half type (f16/bf16)
   * and the bias may be large (checkHalfBias): the source's sum rounds or
   * overflows there, so score_mod computes it so, `extf(truncf(s) + bias)` in
   * that type (or `extf(truncf(s + bias))` for an f32 add rounded after;
   * IndexBias.c), where it is the scores' only modification but the scale
   * (null: no such sum). */
  MlirType halfBiasAdd;
  bool halfAddInHalf;       /* that add is in the half type (else in f32, rounded after) */
  MlirType roundedTo;       /* the narrowest float type the scores are rounded
                               to between the point the walk reached and the
                               softmax (null: none) */
  /* A softcap between the scale and the masks: the op's score_mod computes
   * tanh(s / softcapInner) * softcapOuter (or tanh(s * softcapInner) where
   * softcapInnerMul), in f32, as the source writes it. */
  bool softcap;
  /* A bias is added after the softcap: the op can take it only as part of
   * score_mod (IndexBias.c computes it there, or the fusion is refused). */
  bool biasAfterSoftcap;
  bool softcapInnerMul;
  double softcapInner, softcapOuter;
  /* A mask function: key j visible for query i iff the formula maskNodes
   * (root: the last) holds; its terms are
   *   ci*i + cj*j + qi*floor((i + oi) / di) + qj*floor((j + oj) / dj) <pred> k
   * (di, dj > 0; qi = 0 or qj = 0: no such quotient), exact in index
   * arithmetic. numMaskTerms = 0: none. */
  int numMaskTerms, numMaskNodes;
  struct {
    int64_t ci, cj, k;
    int64_t qi, qj, di, dj, oi, oj;
    int pred; /* FaCmp */
  } maskTerms[FA_MASK_MAX_TERMS];
  struct {
    int kind; /* FA_MASK_TERM (a: term), _AND, _OR (a, b: nodes), _NOT (a), _TRUE */
    int a, b;
  } maskNodes[2 * FA_MASK_MAX_TERMS + 2];
  bool maskWithCausal; /* `causal` came from a term of the same condition */
  bool maskFiniteFill; /* the mask function's fill is finite */
  bool causal;
  int64_t causalOffset;
  const FaExpr *kvLen;      /* integer leaf: keys j >= kvLen + kvLenAdjust are */
  int64_t kvLenAdjust;      /* masked; NULL if there is no KV-length mask */
  bool kvLenPerHead;        /* kvLen varies with the (query) head too: [B, H] */
  /* gpt-oss's sinks: the [Hq] tensor whose logits P's softmax also took,
   * as a column it dropped (the slice, in the chain); null: none. */
  MlirValue sinks;
  MlirOperation sinkSlice;
  int64_t foldHeads;        /* heads folded into the query axis (0: none) */
  MlirValue foldScores;     /* then P*V's [B, M*H, N] operand */
  bool foldToHeads;         /* the op takes the folded heads as Hq (Q and O
                               [B, M, H, D] views of the folded rows) */
  bool scoresViewed;        /* the scores were read through a batch view
                               (BatchViews.c): no lse */
  MlirOperation lseRoot;    /* the op computing the scores' log-sum-exp beside
                               the attention (replaced by the op's lse), or null */
  int64_t b, h, hkv;        /* the op's batch, query heads, KV heads (-1: ?) */
  int scoreRank;            /* rank of the score space */
  MlirValue scores;         /* a tensor of the score space (for its shape) */
  /* Every op of the chain from the scores to P*V: all of their users must be
   * in the chain, and they die with it. */
  MlirOperation chain[FA_MATCH_MAX_OPS];
  int numChain;
  /* Layout ops around Q, K, V and the accumulators; erased if they die. */
  MlirOperation maybeDead[FA_MATCH_MAX_OPS];
  int numMaybeDead;
  /* Post-softmax zeroing (PostSoftmax.c): P is zeroed where `zeroKeys`
   * holds, or on the rows where `zeroRowsAll` (the input of a row `all`)
   * holds for every key; fusion takes it where that is exactly the score
   * mask of the one select (`selectCond`, marking masked scores where
   * `selectMaskedWhenTrue`). */
  const FaExpr *zeroKeys, *zeroRowsAll;
  const FaExpr *selectCond;
  bool selectMaskedWhenTrue;
  int numSelectMasks;
  bool additiveMask; /* a mask was read from an additive select or triangle */
  /* max(x, lowest f32) at the softmax input (ClampLowest.c): the op's bias
   * becomes the bias clamped the same way (maxnumf where the source's clamp
   * keeps the lowest for NaN, maximumf where it propagates NaN). */
  bool clampLowest, clampNumeric;
  FaExprBuilder exprs; /* owns `bias` */
} FaAttentionMatch;

/* The value a mask gives the scores it masks: -inf, or a finite fill that
 * replaces them (a select) or is added to them (an additive select). A
 * finite fill is not -inf: where it masks every key of a row, the source
 * averages V (the masked scores are equal) while the op's masked rows give
 * 0, so it may stand for a mask only where no row can be fully masked. */
typedef struct {
  double value;
  bool replaces;
  MlirType type; /* a replacing fill: the select's type (else null) */
} MaskFill;

/* Reads a boolean condition on the scores (marking masked scores where
 * `maskedWhenTrue`) as causal_offset, kv_len, a mask function or a boolean
 * mask (AttentionMatch.c). */
const char *faAttentionMaskFromCondition(FaAttentionMatch *m, const FaExpr *cond,
                                         bool maskedWhenTrue, MaskFill fill);
/* An i1 tensor of the source's as the boolean mask bias. */
const char *faAttentionSetBooleanMask(FaAttentionMatch *m, FaExpr *mask,
                                      bool maskedValue, MaskFill fill);

/* `e` (stripped) without its negations (tosa.logical_not, xori with true);
 * `*neg` flips with each. */
const FaExpr *faAttentionPeelNot(const FaExpr *e, bool *neg);

/* DataMasks.c: a condition that combines a data tensor (an i1 padding mask)
 * with index compares, split into the two where that is exact. Returns
 * NULL where it matched, `*tried` false where `cond` is no such
 * combination. */
const char *faAttentionSplitDataMask(FaAttentionMatch *m, const FaExpr *cond,
                                     bool maskedWhenTrue, MaskFill fill, bool *tried);

/* A leaf that is one value per row: every dim it reads but the key's
 * (broadcast over the heads, or the batch, allowed), as a row reduction
 * over the keys gives it. */
bool faAttentionIsKeyConstantLeaf(const FaExpr *e, int rank);

/* PostSoftmax.c: P = select(c, 0, softmax) zeroing the probabilities where
 * c holds (masked_fill(mask, 0.0) after the softmax): records c and returns
 * the softmax, or `e` itself. */
FaExpr *faAttentionStripPostSoftmaxZero(FaAttentionMatch *m, FaExpr *e);
/* A fully-masked-row guard all_j(c) over a condition c of the mask (not of
 * the scores): recorded for faAttentionCheckPostSoftmaxZero. False where
 * `all` is no boolean condition. */
bool faAttentionNoteRowGuardOnMask(FaAttentionMatch *m, const FaExpr *all);
/* After the scores are read: the zeroing must be exactly the score mask's
 * (then a finite fill stands for -inf: the source's fully masked rows are 0,
 * as the op's). */
const char *faAttentionCheckPostSoftmaxZero(FaAttentionMatch *m);

/* ClampLowest.c: `x` (stripped) is max(y, lowest f32) at the softmax input,
 * before anything else: records it and sets `*next` to y. `*tried` false
 * where `x` is no such clamp. */
const char *faAttentionMatchClampLowest(FaAttentionMatch *m, FaExpr *x, bool scaled,
                                        FaExpr **next, bool *tried);
/* After the scores are read: under the clamp only a scale and one plain
 * bias (no mask the clamp would turn finite). */
const char *faAttentionCheckClampLowest(const FaAttentionMatch *m);

/* Ops that may be a contraction of an attention chain (named matmuls,
 * linalg.generic, tosa.matmul): the pass's candidates. */
bool faOpIsContractionCandidate(MlirOperation op);

/* If `op` is the P*V contraction of an attention chain, fills `m` and returns
 * NULL; otherwise returns why not. `*isCandidate` says whether `op`'s left
 * operand is a softmax at all (refusals of other contractions are not worth
 * explaining). */
const char *faAttentionMatch(MlirOperation op, FaAttentionMatch *m,
                             bool *isCandidate);

/* How the bias leaf of `m` becomes a rank-4 operand: as it is (`direct`), or
 * expanded to `shape` with `group[d]` the bias dim of each new dim. */
const char *faAttentionBiasPlan(const FaAttentionMatch *m, int *group,
                                int64_t *shape, bool *direct);

/* For the spellings in files of their own (Sinks.c, BatchViews.c): the
 * matcher's bookkeeping and readers. */
void faAttentionAddChain(FaAttentionMatch *m, MlirOperation op);
/* The rank of a ranked tensor value (-1 otherwise) and a dim's static size
 * (-1 where dynamic). */
intptr_t faAttentionRankOf(MlirValue v);
int64_t faAttentionSizeOf(MlirValue v, intptr_t d);
void faAttentionAddMaybeDead(FaAttentionMatch *m, MlirOperation op);
/* Whether `v` reads as a softmax-like tree (worth a remark when refused);
 * resets m->exprs. */
bool faAttentionLooksLikeSoftmax(FaAttentionMatch *m, MlirValue v);
/* The input of the row reduction `row` (a row leaf) of `kind` (MAX, ADD),
 * the reduction joining the chain; NULL with `*why` otherwise. */
FaExpr *faAttentionReducedInput(FaAttentionMatch *m, const FaExpr *row,
                                FaExprKind kind, const char **why);
/* The source of a reshape between rank 4 and rank 3 (`merge`: to the rank-3
 * form) that `v` is, regrouping the dims as `groups` says (a group id per
 * rank-4 dim), and that reshape; null otherwise. */
/* Whether mask term t reads exactly "j <= i + *offset" (and that offset). */
bool faAttentionTermIsCausal(const FaAttentionMatch *m, int t, int64_t *offset);
MlirValue faAttentionPeelRegroup(MlirValue v, const int *groups, bool merge,
                                 MlirOperation *reshape);

#endif
