/* The FlashAttention-2 kernel on NVIDIA tensor cores: fa-lower-attention's
 * choice for f16/bf16 attention with target=nvvm. The kernel itself is the
 * template attention_mma.mlir; this file decides when it applies, picks
 * its tiles and fills in the template's variables. */
#include "Lowering/AttentionKernel.h"
#include "Support/Builders.h"
#include "Support/Template.h"
#include "Lowering/Kernels/Common/BlockwiseMma.h"

#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>
#include <string.h>

/* --- tiles ------------------------------------------------------------------ */

/* Tuning table: the first row whose max_d >= max(D, Dv) (and causal flag,
 * -1 = either) gives the tiles: the fastest spill-free entry of the sweep
 * of bench/tune_mma.sh on an H100 (bench/tune_mma.txt). Rows are 32 query
 * rows per warp (two 16-row slices) wherever the registers allow it, and
 * ptxas builds them without spills (test/Integration/bench-kernels.test).
 * stages = 1 (FlashAttention-2's order) measured faster than 2 at every D
 * (at D = 256 with 128 x 64 tiles and 8 warps, 16 rows each). pv_split = 2 (exp2 and P V in two chunks of
 * block_n / 2 keys, so that the second chunk's MUFU work overlaps the first
 * chunk's mma) measured faster at D = 64 (where 128 x 128 tiles, two
 * workgroups per SM, now beat 128 x 64 with three); one chunk measured as fast
 * or faster at D = 128. */
typedef struct {
  int64_t maxD;
  int causal;
  int64_t bm, bn, warps, stages, pvSplit;
} TileRow;

static const TileRow kTiles[] = {
    {64, -1, 128, 128, 4, 1, 2},
    {96, -1, 128, 64, 4, 1, 2},
    {128, -1, 128, 64, 4, 1, 1},
    {256, -1, 128, 64, 8, 1, 2},
};

/* Shared memory is limited to what sm_80 gives one block (163 KiB). */
/* f16 and bf16 elements; rows padded by 8 of them (16 bytes). */
enum { MMA_SMEM_LIMIT = 163 * 1024, MMA_PAD = 8, MMA_ELT_BYTES = 2 };
/* P = exp2(S - m) <= 2^MMA_MAX_SLACK where m lags the row's max (f16 holds
 * up to 65504, bf16 far more; f32 sums of such P stay exact enough). */
enum { MMA_MAX_SLACK = 8 };
/* Causal workgroups run longest first in chunks of (batch, head) pairs whose
 * K and V take at most this much of L2 (H100: 50 MB, A100: 40 MB). */
enum { MMA_L2_BUDGET = 16 << 20 };

/* Decode (M <= MMA_DECODE_MAX_M) runs a kernel of one warp and
 * MMA_DECODE_BM query rows whose keys are split over about MMA_SPLIT_WGS
 * workgroups (three per SM of a 132-SM H100 / H200), each scanning at least
 * MMA_SPLIT_MIN_TILES key tiles, at most MMA_SPLIT_MAX splits. Keys split
 * only where at least two splits fit, so at most MMA_SPLIT_WGS / 2 (batch,
 * head, query tile) triples have split counters. */
enum {
  MMA_DECODE_MAX_M = 16,
  MMA_DECODE_BM = 16,
  MMA_SPLIT_WGS = 396,
  MMA_SPLIT_MIN_TILES = 4,
  MMA_SPLIT_MAX = 64
};
/* The merge weighs two splits per lane of a warp and sums them
 * MMA_MERGE_SPLITS at a time (half that above Dv = 128): its steps must not
 * pass split 63. */
enum { MMA_MERGE_SPLITS = 8 };
_Static_assert(MMA_SPLIT_MAX <= 64 && MMA_SPLIT_MAX % MMA_MERGE_SPLITS == 0,
               "the merge of splits takes at most 64 splits");

static int64_t outBytes(const FaAttentionKernel *k) {
  return mlirTypeIsAF32(k->outElt) ? 4 : MMA_ELT_BYTES;
}

/* Elements a shared-memory row is padded by: none where the tiles are
 * swizzled (Kernels/Common/tile_copy.mlir). */
static int64_t rowPad(const FaAttentionKernel *k) { return k->swizzle ? 0 : MMA_PAD; }

/* The Q tile and one or two stages of K and V tiles; afterwards the same
 * memory stages the [bm x dv] output tile. */
static int64_t smemBytes(const FaAttentionKernel *k) {
  int64_t b = MMA_ELT_BYTES, pad = rowPad(k);
  int64_t tiles = b * (k->bm * (k->d + pad) + k->stages * k->bn * (k->d + pad) +
                       k->stages * k->bn * (k->dv + pad));
  int64_t out = outBytes(k) * k->bm * (k->dv + pad);
  return tiles > out ? tiles : out;
}

static bool isHalf(MlirType t) { return mlirTypeIsAF16(t) || mlirTypeIsABF16(t); }

const char *faAttentionMmaUnsupported(const FaAttentionKernel *k) {
  if (!isHalf(k->elt))
    return "Q, K and V are not f16 or bf16";
  if (k->d % 16 || k->dv % 16 || k->d > 256 || k->dv > 256)
    return "D and Dv must be multiples of 16 up to 256";
  if (k->kTransposed)
    return "K is stored transposed";
  return NULL;
}

bool faAttentionMmaIsTuned(const FaAttentionKernel *k) {
  static const char *const kTuning[] = {"block_m", "block_n", "warps", "stages", "pv_split"};
  for (size_t i = 0; i < sizeof kTuning / sizeof kTuning[0]; ++i)
    if (faAttentionIntAttr(k, kTuning[i], -1) != -1)
      return true;
  return false;
}

const char *faAttentionMmaChooseTiles(FaAttentionKernel *k) {
  int64_t dmax = k->d > k->dv ? k->d : k->dv;
  for (size_t i = 0; i < sizeof kTiles / sizeof kTiles[0]; ++i) {
    const TileRow *row = &kTiles[i];
    if (row->maxD >= dmax && (row->causal < 0 || row->causal == (int)k->causal)) {
      k->bm = row->bm, k->bn = row->bn, k->warps = row->warps, k->stages = row->stages;
      k->pvSplit = row->pvSplit;
      break;
    }
  }
  k->bm = faAttentionIntAttr(k, "block_m", k->bm);
  k->bn = faAttentionIntAttr(k, "block_n", k->bn);
  k->warps = faAttentionIntAttr(k, "warps", k->warps);
  k->stages = faAttentionIntAttr(k, "stages", k->stages);
  k->pvSplit = faAttentionIntAttr(k, "pv_split", k->pvSplit);
  if (k->warps < 1 || k->warps > 16 || k->bm < 16 || k->bm % (16 * k->warps))
    return "tensor-core tiles: block_m must be a multiple of 16 * warps (1 to 16 warps)";
  if (k->bn < 16 || k->bn > 256 || k->bn % 16)
    return "tensor-core tiles: block_n must be a multiple of 16 up to 256";
  if (k->stages < 1 || k->stages > 2)
    return "tensor-core tiles: stages must be 1 (FlashAttention-2's order) or 2";
  if ((k->pvSplit != 1 && k->pvSplit != 2) || (k->bn / k->pvSplit) % 16)
    return "tensor-core tiles: pv_split must be 1 or 2, with block_n / pv_split a "
           "multiple of 16";
  if (smemBytes(k) > MMA_SMEM_LIMIT)
    return "tensor-core tiles: the Q tile and the stages of K and V tiles (or the "
           "output tile) exceed 163 KiB of shared memory";
  return NULL;
}

/* --- the template's variables ------------------------------------------------ */

/* Which fragment entry a thread's element i of a [16*RM*warps x cols] tile
 * is: slice r, column tile j, entry e (see blockwise_mma.mlir). */
typedef enum { ROW_OFFSET, COL_OFFSET, COL_MINUS_ROW, ROW_STAT, STAT_ROW_OFFSET } FragField;

static long fragField(FragField f, long i, long ct) {
  long e = i % 4, j = (i / 4) % ct, r = i / 4 / ct;
  switch (f) {
  case ROW_OFFSET: return r * 16 + (e / 2) * 8;
  case COL_OFFSET: return j * 8 + e % 2;
  case COL_MINUS_ROW: return j * 8 + e % 2 - (r * 16 + (e / 2) * 8);
  case ROW_STAT: return r * 2 + e / 2;
  default: return (i / 2) * 16 + (i % 2) * 8; /* row of row-vector entry i */
  }
}

/* NAME = "v0, v1, ..." over the n entries of a fragment with ct column tiles. */
static void setFragList(FaTemplateVars *vars, const char *name, FragField f, long n,
                        long ct) {
  FaText t;
  faTextInit(&t);
  for (long i = 0; i < n; ++i)
    faTextAppend(&t, "%s%ld", i ? ", " : "", fragField(f, i, ct));
  faTemplateVarsSetText(vars, name, t.data);
  faTextDestroy(&t);
}

/* P V runs in pv_split chunks of BNC keys: S_CHUNK<c> lists the entries of an
 * S fragment that belong to chunk c, in the fragment order of a [rows x BNC]
 * tile. */
static void setChunks(FaTemplateVars *vars, const FaAttentionKernel *k, long ns) {
  long ct = (long)k->bn / 8, chunks = (long)k->pvSplit, ctc = ct / chunks;
  for (long c = 0; c < chunks; ++c) {
    FaText t;
    faTextInit(&t);
    for (long i = 0, n = 0; i < ns; ++i)
      if ((i / 4) % ct / ctc == c)
        faTextAppend(&t, "%s%ld", n++ ? ", " : "", i);
    faTemplateVarsSetText(vars, c ? "S_CHUNK1" : "S_CHUNK0", t.data);
    faTextDestroy(&t);
  }
  faTemplateVarsSetInt(vars, "PV_CHUNKS", chunks);
  faTemplateVarsSetInt(vars, "NSC", ns / chunks);
  faTemplateVarsSetInt(vars, "BNC", (long)k->bn / chunks);
  faTemplateVarsSetFlag(vars, "PV_SPLIT", chunks == 2);
}

static void setArgs(FaTemplateVars *vars, const FaAttentionKernel *k) {
  FaText t;
  faTextInit(&t);
  faAttentionAppendArgs(&t, k);
  faTemplateVarsSetText(vars, "ARGS", t.data);
  faTextDestroy(&t);
}

/* The entry's calls: CALL_ARGS "%q, %k, %v[, %bias][, %kvl], %o[, %lse]",
 * PACKED_ARGS the same with the packed views of Q, O and lse, TYPES theirs. */
static void setCallArgs(FaTemplateVars *vars, const FaAttentionKernel *k) {
  const char *bias = k->biasElt.ptr ? ", %bias" : "", *kvl = k->kvElt.ptr ? ", %kvl" : "";
  faTemplateVarsSet(vars, "CALL_ARGS", "%%q, %%k, %%v%s%s, %%o%s", bias, kvl,
                    k->hasLse ? ", %lse" : "");
  faTemplateVarsSet(vars, "PACKED_ARGS", "%%qp, %%k, %%v%s%s, %%op%s", bias, kvl,
                    k->hasLse ? ", %lsep" : "");
  faTemplateVarsSet(vars, "TYPES", "!Q, !K, !V%s%s, !O%s", k->biasElt.ptr ? ", !BIAS" : "",
                    k->kvElt.ptr ? ", !KVL" : "", k->hasLse ? ", !LSE" : "");
}

static long clampOffset(int64_t off) {
  const int64_t lim = (int64_t)1 << 30; /* |offset| beyond any i32 index */
  return (long)(off > lim ? lim : off < -lim ? -lim : off);
}

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* Whether the kernel may split its keys: not when B, Hq, M and N are static
 * and give the chip enough workgroups without (the host code's rule). */
static bool maySplit(const FaAttentionKernel *k) {
  int64_t b = faAttentionSize(k, FA_ATTENTION_Q, FA_DIM_BATCH);
  int64_t h = faAttentionSize(k, FA_ATTENTION_Q, FA_DIM_HEADS);
  int64_t m = faAttentionSize(k, FA_ATTENTION_Q, FA_DIM_SEQ);
  int64_t n = faAttentionSize(k, FA_ATTENTION_V, FA_DIM_SEQ);
  if (b < 0 || h < 0 || m < 0 || n < 0)
    return true;
  int64_t wgs = b * h * ceilDiv(m, k->bm);
  int64_t tiles = ceilDiv(n, k->bn);
  return wgs > 0 && MMA_SPLIT_WGS / wgs > 1 && ceilDiv(tiles, MMA_SPLIT_MIN_TILES) > 1;
}

/* The split over keys (flash-decoding), where `split` allows it: the host
 * code's constants, and the merge's arguments. */
static void setSplit(FaTemplateVars *vars, const FaAttentionKernel *k, bool split) {
  faTemplateVarsSetFlag(vars, "SPLIT", split && maySplit(k));
  faTemplateVarsSetInt(vars, "SPLIT_WGS", MMA_SPLIT_WGS);
  faTemplateVarsSetInt(vars, "SPLIT_MIN_TILES", MMA_SPLIT_MIN_TILES);
  faTemplateVarsSetInt(vars, "SPLIT_MAX", MMA_SPLIT_MAX);
  faTemplateVarsSetInt(vars, "COUNTERS", MMA_SPLIT_WGS / 2);
  faTemplateVarsSet(vars, "MERGE_ARGS", "%%o, %s", k->hasLse ? "%lse, " : "");
  faTemplateVarsSet(vars, "MERGE_TYPES", "!O, %s", k->hasLse ? "!LSE, " : "");
  faTemplateVarsSet(vars, "MERGE_LSE_ARG", "%s", k->hasLse ? "%lse: !LSE, " : "");
  /* The merge's threads sum 4 columns each, 4 x threads per chunk. */
  faTemplateVarsSetInt(vars, "MERGE_CHUNKS", (long)ceilDiv(k->dv, 4 * 32 * k->warps));
  /* Splits summed at a time: 4 rows x 8 loads of 16 bytes in flight, so
   * that up to 8 splits (the bf16 GQA decode row has 6) merge in one round
   * of loads: that row 8.49-8.52 -> 8.53-8.54 TFLOP/s, D 64 GQA 6.52-6.54
   * -> 6.71-6.72 (bench/tune_mma.txt). Above Dv = 128 half as many: with 8
   * the sm_90 D 256 decode kernel with a bias spills 44 bytes, not 32, and
   * the sm_80 D 256 combine kernel 4. */
  faTemplateVarsSetInt(vars, "MERGE_SPLITS", k->dv > 128 ? MMA_MERGE_SPLITS / 2 : MMA_MERGE_SPLITS);
}

static void setFeatures(FaTemplateVars *vars, const FaAttentionKernel *k) {
  faTemplateVarsSetInt(vars, "KV_ROW_BYTES", (long)(MMA_ELT_BYTES * (k->d + k->dv)));
  faTemplateVarsSetInt(vars, "L2_BUDGET", (long)MMA_L2_BUDGET);
  faTemplateVarsSetFlag(vars, "CAUSAL", k->causal);
  faTemplateVarsSetInt(vars, "CAUSAL_OFFSET", clampOffset(k->causalOffset));
  faTemplateVarsSetFlag(vars, "KVLEN", k->kvElt.ptr != NULL);
  faTemplateVarsSetFlag(vars, "KVLEN_PER_HEAD", k->kvPerHead);
  if (k->kvElt.ptr)
    faTemplateVarsSetType(vars, "KV_ELT", k->kvElt);
  faTemplateVarsSetFlag(vars, "BIAS", k->biasElt.ptr != NULL);
  if (k->biasElt.ptr) {
    faTemplateVarsSetFlag(vars, "BIAS_F32", mlirTypeIsAF32(k->biasElt));
    faTemplateVarsSetType(vars, "BIAS_ELT", k->biasElt);
  }
  faTemplateVarsSetFlag(vars, "LSE", k->hasLse);
  faTemplateVarsSetFlag(vars, "OUT_F32", mlirTypeIsAF32(k->outElt));
}

/* The register fragments of a workgroup of k->warps warps, each owning rm
 * 16-row slices of the [bm x bn] scores and [bm x dv] output (shared with
 * the Hopper kernel, whose warps own one slice each). */
void faAttentionMmaSetFragments(FaTemplateVars *vars, const FaAttentionKernel *k, long rm) {
  long ns = rm * (long)k->bn / 2, no = rm * (long)k->dv / 2;
  faTemplateVarsSetInt(vars, "NS", ns);
  faTemplateVarsSetInt(vars, "NO", no);
  faTemplateVarsSetInt(vars, "NR", 2 * rm);
  faTemplateVarsSetInt(vars, "NO_PAIRS", no / 2);
  setFragList(vars, "S_ROWS", ROW_OFFSET, ns, (long)k->bn / 8);
  setFragList(vars, "S_COLS", COL_OFFSET, ns, (long)k->bn / 8);
  setFragList(vars, "S_COLS_MINUS_ROWS", COL_MINUS_ROW, ns, (long)k->bn / 8);
  setFragList(vars, "S_ROW_STAT", ROW_STAT, ns, (long)k->bn / 8);
  setChunks(vars, k, ns);
  setFragList(vars, "O_ROWS", ROW_OFFSET, no, (long)k->dv / 8);
  setFragList(vars, "O_COLS", COL_OFFSET, no, (long)k->dv / 8);
  setFragList(vars, "O_ROW_STAT", ROW_STAT, no, (long)k->dv / 8);
  /* Row-vector entry r*2 + h: one entry per row of the fragment. */
  setFragList(vars, "R_ROWS", STAT_ROW_OFFSET, 2 * rm, 1);
  faTemplateVarsSetInt(vars, "PAIR_ALIGN", 2 * (long)outBytes(k));
}

static void setShapes(FaTemplateVars *vars, const FaAttentionKernel *k) {
  long rm = (long)(k->bm / (16 * k->warps));
  faTemplateVarsSetInt(vars, "D", (long)k->d);
  faTemplateVarsSetInt(vars, "DV", (long)k->dv);
  long pad = (long)rowPad(k);
  faTemplateVarsSetInt(vars, "DP", (long)k->d + pad);
  faTemplateVarsSetInt(vars, "DVP", (long)k->dv + pad);
  faTemplateVarsSetFlag(vars, "SWIZZLE", k->swizzle);
  faTemplateVarsSet(vars, "GEMM_SWIZZLE", "%s", k->swizzle ? ", swizzle" : "");
  faTemplateVarsSetInt(vars, "BM", (long)k->bm);
  faTemplateVarsSetInt(vars, "BN", (long)k->bn);
  faTemplateVarsSetInt(vars, "THREADS", (long)(32 * k->warps));
  faTemplateVarsSetInt(vars, "WARP_ROWS", 16 * rm);
  int64_t b = MMA_ELT_BYTES;
  faTemplateVarsSetInt(vars, "OFF_K", (long)(b * k->bm * (k->d + pad)));
  faTemplateVarsSetInt(vars, "OFF_V",
                       (long)(b * (k->bm + k->stages * k->bn) * (k->d + pad)));
  faTemplateVarsSetInt(vars, "STAGES", (long)k->stages);
  faTemplateVarsSetFlag(vars, "ONE_STAGE", k->stages == 1);
  faTemplateVarsSetInt(vars, "SMEM_BYTES", (long)smemBytes(k));
  faAttentionMmaSetFragments(vars, k, rm);
  /* The epilogue's 16-byte chunks of the output tile. */
  long ob = (long)outBytes(k), threads = 32 * (long)k->warps;
  long outChunks = (long)k->dv * ob / 16, outN = (long)k->bm * outChunks;
  faTemplateVarsSetInt(vars, "OUT_VEC", 16 / ob);
  faTemplateVarsSetInt(vars, "OUT_CHUNKS", outChunks);
  faTemplateVarsSetInt(vars, "OUT_N", outN);
  faTemplateVarsSetInt(vars, "OUT_ITERS", (outN + threads - 1) / threads);
}

/* One specialisation of Kernels/Common/tile_copy.mlir: NAME_SUFFIX copies a
 * [rows x cols] tile of type DST from SRC. */
static const char *appendCopy(FaText *t, FaTemplateVars *vars, const FaAttentionKernel *k,
                              const char *name, const char *suffix, const char *src,
                              const char *dst, int64_t rows, int64_t cols) {
  long threads = 32 * (long)k->warps, chunks = (long)cols / 8, n = (long)rows * chunks;
  faTemplateVarsSet(vars, "NAME", "%s_%s", name, suffix);
  faTemplateVarsSet(vars, "SRC", "%s", src);
  faTemplateVarsSet(vars, "DST", "%s", dst);
  faTemplateVarsSetInt(vars, "ROWS", (long)rows);
  faTemplateVarsSetInt(vars, "COLS", (long)cols);
  faTemplateVarsSetInt(vars, "ELT_BYTES", (long)MMA_ELT_BYTES);
  faTemplateVarsSetInt(vars, "CHUNKS", chunks);
  faTemplateVarsSetInt(vars, "N", n);
  faTemplateVarsSetInt(vars, "ITERS", (n + threads - 1) / threads);
  faTemplateVarsSetFlag(vars, "GUARD", n % threads != 0);
  /* Each thread keeps one column where the chunks of a row divide the threads. */
  faTemplateVarsSetFlag(vars, "STRIDED", threads % chunks == 0 && n % threads == 0);
  faTemplateVarsSetInt(vars, "ROW_STEP", threads / chunks);
  return faTextAppendTemplate(t, faTemplateTileCopy, vars);
}

void faAttentionMmaSetCommon(FaTemplateVars *vars, const FaAttentionKernel *k,
                             const char *name) {
  faTemplateVarsSet(vars, "NAME", "%s", name);
  /* The template's type aliases, one set per kernel of a module. */
  faTemplateVarsSet(vars, "P", "%s_", name);
  faTemplateVarsSetType(vars, "E", k->elt);
  faTemplateVarsSetType(vars, "OE", k->outElt);
  /* Without a bias and with a positive scale, the max runs on raw scores
   * and the scale folds into the exponent (one FFMA per score). */
  bool prescale = k->biasElt.ptr || !(k->scale > 0);
  double scaleLog2e = k->scale * 1.4426950408889634;
  faTemplateVarsSet(vars, "SCALE_LOG2E", "%.9e", scaleLog2e);
  faTemplateVarsSetFlag(vars, "PRESCALE", prescale);
  /* How far (log2) a row's running max may lag behind its true max. */
  faTemplateVarsSetInt(vars, "MAX_SLACK", MMA_MAX_SLACK);
  faTemplateVarsSet(vars, "EXP_SCALE", "%.9e", prescale ? 1.0 : scaleLog2e);
  setArgs(vars, k);
  setCallArgs(vars, k);
  setFeatures(vars, k);
}

/* One kernel of the template: `name` with k's tiles; `split` lets it split
 * its keys over workgroups. */
static const char *appendVariant(FaText *t, const FaAttentionKernel *k, const char *name,
                                 bool split) {
  FaTemplateVars vars;
  faTemplateVarsInit(&vars);
  faAttentionMmaSetCommon(&vars, k, name);
  faTemplateVarsSet(&vars, "LAYOUT", "%s", FA_LAYOUT_MMA);
  setSplit(&vars, k, split);
  setShapes(&vars, k);
  const char *missing = faTextAppendTemplate(t, faTemplateAttentionMma, &vars);
  char tq[200], tk[200], tv[200];
  snprintf(tq, sizeof tq, "!%s_tq", name);
  snprintf(tk, sizeof tk, "!%s_tk", name);
  snprintf(tv, sizeof tv, "!%s_tv", name);
  /* The decode kernel's copies prefetch into L2 (Kernels/Common/tile_copy.mlir). */
  faTemplateVarsSetFlag(&vars, "L2_PREFETCH", split);
  if (!missing)
    missing = appendCopy(t, &vars, k, name, "copy_q", "!Q", tq, k->bm, k->d);
  if (!missing)
    missing = appendCopy(t, &vars, k, name, "copy_k", "!K", tk, k->bn, k->d);
  if (!missing)
    missing = appendCopy(t, &vars, k, name, "copy_v", "!V", tv, k->bn, k->dv);
  faTemplateVarsDestroy(&vars);
  return faTemplateError("the tensor-core kernel", missing);
}

/* The decode kernel's tiles: one warp, 16 query rows, 64-key tiles (keys
 * split over workgroups); above D = 128 two warps of 16 rows and 32-key tiles
 * (one warp spills there). Two stages up to D = 64, above one (V(t) lands
 * while S = Q K(t)^T runs, K(t + 1) while P V(t) runs): bf16 D = 128 GQA
 * decode 7.83 -> 8.0 TFLOP/s, D = 256 5.0 -> 5.7, D = 64 6.0 -> 5.9
 * (bench/tune_mma.txt). */
static FaAttentionKernel decodeTiles(const FaAttentionKernel *k) {
  FaAttentionKernel d = *k;
  int64_t dmax = k->d > k->dv ? k->d : k->dv;
  d.bm = MMA_DECODE_BM, d.bn = 64, d.warps = 1, d.stages = dmax > 64 ? 1 : 2, d.pvSplit = 1;
  if (dmax > 128) /* two warps share the copies: one spills at D = 256 */
    d.bm = 2 * MMA_DECODE_BM, d.bn = 32, d.warps = 2;
  /* Swizzled tiles where rows are whole 128-byte groups: padded rows cost
   * the copies half as much L2 traffic again (bench/tune_mma.txt). */
  d.swizzle = k->d % 64 == 0 && k->dv % 64 == 0;
  return d;
}

/* Whether a decode step of grouped heads may pack its heads into rows:
 * nothing in the op may tell the heads or the rows apart. */
static bool mayPackHeads(const FaAttentionKernel *k, int64_t m) {
  if (m >= 0 && m != 1)
    return false;
  if (k->kvElt.ptr && k->kvPerHead)
    return false;
  if (k->biasElt.ptr) {
    MlirType b = mlirValueGetType(k->bias);
    if (mlirShapedTypeGetDimSize(b, 1) != 1 || mlirShapedTypeGetDimSize(b, 2) != 1)
      return false;
  }
  return true;
}

const char *faAttentionMmaAppend(FaText *t, const FaAttentionKernel *k, const char *name) {
  int64_t m = faAttentionSize(k, FA_ATTENTION_Q, FA_DIM_SEQ);
  bool dynM = m < 0;
  /* Tiles the op asks for hold for every M: no decode kernel then. */
  bool tuned = faAttentionMmaIsTuned(k);
  bool hasMain = tuned || dynM || m > MMA_DECODE_MAX_M;
  bool hasDecode = !tuned && (dynM || m <= MMA_DECODE_MAX_M);
  char variant[192];
  const char *missing = NULL;
  if (hasMain) {
    snprintf(variant, sizeof variant, "%s_main", name);
    if (k->hopper && !faAttentionWgmmaUnsupported(k))
      missing = faAttentionWgmmaAppend(t, k, variant);
    else
      missing = appendVariant(t, k, variant, false);
  }
  if (hasDecode && !missing) {
    FaAttentionKernel d = decodeTiles(k);
    snprintf(variant, sizeof variant, "%s_decode", name);
    missing = appendVariant(t, &d, variant, true);
  }
  if (missing)
    return missing;
  FaTemplateVars vars;
  faTemplateVarsInit(&vars);
  faTemplateVarsSet(&vars, "NAME", "%s", name);
  faTemplateVarsSetType(&vars, "E", k->elt);
  faTemplateVarsSetType(&vars, "OE", k->outElt);
  setArgs(&vars, k);
  setCallArgs(&vars, k);
  faTemplateVarsSetFlag(&vars, "HAS_MAIN", hasMain);
  faTemplateVarsSetFlag(&vars, "HAS_DECODE", hasDecode);
  faTemplateVarsSetFlag(&vars, "PACK", hasDecode && mayPackHeads(k, m));
  faTemplateVarsSetFlag(&vars, "CAUSAL", k->causal);
  faTemplateVarsSetFlag(&vars, "LSE", k->hasLse);
  faTemplateVarsSetInt(&vars, "CAUSAL_OFFSET", clampOffset(k->causalOffset));
  faTemplateVarsSetInt(&vars, "DECODE_MAX_M", MMA_DECODE_MAX_M);
  faTemplateVarsSetInt(&vars, "DECODE_BM", MMA_DECODE_BM);
  missing = faTextAppendTemplate(t, faTemplateAttentionDispatch, &vars);
  faTemplateVarsDestroy(&vars);
  return faTemplateError("the tensor-core dispatch", missing);
}
