/* The FlashAttention-2 kernel on NVIDIA tensor cores: fa-lower-attention's
 * choice for f16/bf16 attention with target=nvvm. The kernel itself is the
 * template attention_mma.mlir; this file decides when it applies, picks
 * its tiles and fills in the template's variables. */
#include "Lowering/AttentionKernel.h"
#include "Support/Builders.h"
#include "Support/Template.h"
#include "Lowering/Kernels/Common/BlockwiseMma.h"
#include "Lowering/Kernels/Common/TensorCore.h"

#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>
#include <string.h>

/* --- tiles ------------------------------------------------------------------ */

/* Shared memory is limited to what sm_80 gives one block (163 KiB). */
/* Rows padded by 8 elements (16 bytes of f16 / bf16). */
enum { MMA_SMEM_LIMIT = 163 * 1024, MMA_PAD = 8 };
/* Decode (M <= FA_DECODE_MAX_M) runs a kernel with the tile table's decode
 * tiles whose keys are split over about MMA_SPLIT_WGS
 * workgroups (three per SM of a 132-SM H100 / H200), each scanning at least
 * MMA_SPLIT_MIN_TILES key tiles, at most MMA_SPLIT_MAX splits. Keys split
 * only where at least two splits fit, so at most MMA_SPLIT_WGS / 2 (batch,
 * head, query tile) triples have split counters. */
enum {
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

/* Elements a shared-memory row is padded by: none where the tiles are
 * swizzled (Kernels/Common/tile_copy.mlir). */
static int64_t rowPad(const FaAttentionKernel *k) { return k->swizzle ? 0 : MMA_PAD; }

/* The Q tile and one or two stages of K and V tiles; afterwards the same
 * memory stages the [bm x dv] output tile. */
static int64_t smemBytes(const FaAttentionKernel *k) {
  int64_t b = faTensorCoreEltBytes(k), pad = rowPad(k);
  int64_t tiles = b * (k->bm * (k->d + pad) + k->stages * k->bn * (k->d + pad) +
                       k->stages * k->bn * (k->dv + pad));
  int64_t out = faTensorCoreOutBytes(k) * k->bm * (k->dv + pad);
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
  for (int h = 0; h < FA_ATTENTION_HINT_COUNT; ++h)
    if (faAttentionIntAttr(k, h, -1) != -1)
      return true;
  return false;
}

const char *faAttentionMmaChooseTiles(FaAttentionKernel *k) {
  int64_t dmax = k->d > k->dv ? k->d : k->dv;
  const FaTileRow *row = faTileTableFind(FA_KERNEL_MMA_SYNC, FA_TILE_MAIN, true, k->causal, dmax);
  if (row)
    k->bm = row->bm, k->bn = row->bn, k->warps = row->warps, k->stages = row->stages,
    k->pvSplit = row->pvSplit;
  k->bm = faAttentionIntAttr(k, FA_ATTENTION_HINT_BLOCK_M, k->bm);
  k->bn = faAttentionIntAttr(k, FA_ATTENTION_HINT_BLOCK_N, k->bn);
  k->warps = faAttentionIntAttr(k, FA_ATTENTION_HINT_WARPS, k->warps);
  k->stages = faAttentionIntAttr(k, FA_ATTENTION_HINT_STAGES, k->stages);
  k->pvSplit = faAttentionIntAttr(k, FA_ATTENTION_HINT_PV_SPLIT, k->pvSplit);
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
  int64_t b = faTensorCoreEltBytes(k);
  faTemplateVarsSetInt(vars, "OFF_K", (long)(b * k->bm * (k->d + pad)));
  faTemplateVarsSetInt(vars, "OFF_V",
                       (long)(b * (k->bm + k->stages * k->bn) * (k->d + pad)));
  faTemplateVarsSetInt(vars, "STAGES", (long)k->stages);
  faTemplateVarsSetFlag(vars, "ONE_STAGE", k->stages == 1);
  faTemplateVarsSetInt(vars, "SMEM_BYTES", (long)smemBytes(k));
  faTensorCoreSetFragments(vars, k, rm);
  /* The epilogue's 16-byte chunks of the output tile. */
  long ob = (long)faTensorCoreOutBytes(k), threads = 32 * (long)k->warps;
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
  faTemplateVarsSetInt(vars, "ELT_BYTES", (long)faTensorCoreEltBytes(k));
  faTemplateVarsSetInt(vars, "CHUNKS", chunks);
  faTemplateVarsSetInt(vars, "N", n);
  faTemplateVarsSetInt(vars, "ITERS", (n + threads - 1) / threads);
  faTemplateVarsSetFlag(vars, "GUARD", n % threads != 0);
  /* Each thread keeps one column where the chunks of a row divide the threads. */
  faTemplateVarsSetFlag(vars, "STRIDED", threads % chunks == 0 && n % threads == 0);
  faTemplateVarsSetInt(vars, "ROW_STEP", threads / chunks);
  return faTextAppendTemplate(t, faTemplateTileCopy, vars);
}

/* One kernel of the template: `name` with k's tiles; `split` lets it split
 * its keys over workgroups. */
static const char *appendVariant(FaText *t, const FaAttentionKernel *k, const char *name,
                                 bool split) {
  FaTemplateVars vars;
  faTemplateVarsInit(&vars);
  faTensorCoreSetCommon(&vars, k, name, FA_KERNEL_MMA_SYNC);
  faTemplateVarsSet(&vars, "LAYOUT", "%s", FA_LAYOUT_MMA);
  setSplit(&vars, k, split);
  setShapes(&vars, k);
  const char *missing = faTextAppendTemplate(t, faTemplateAttentionMma, &vars);
  if (!missing)
    missing = faTensorCoreAppendScoreMod(t, &vars, k, name);
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

/* The decode kernel's tiles: the tile table's decode row. */
static FaAttentionKernel decodeTiles(const FaAttentionKernel *k) {
  FaAttentionKernel d = *k;
  int64_t dmax = k->d > k->dv ? k->d : k->dv;
  const FaTileRow *row =
      faTileTableFind(FA_KERNEL_MMA_SYNC, FA_TILE_DECODE, true, k->causal, dmax);
  d.bm = row->bm, d.bn = row->bn, d.warps = row->warps, d.stages = row->stages;
  d.pvSplit = row->pvSplit;
  /* Swizzled tiles where rows are whole 128-byte groups: padded rows cost
   * the copies half as much L2 traffic again (bench/tune_mma.txt). */
  d.swizzle = k->d % 64 == 0 && k->dv % 64 == 0;
  return d;
}

const char *faAttentionMmaAppendMain(FaText *t, const FaAttentionKernel *k, const char *name) {
  return appendVariant(t, k, name, false);
}

const char *faAttentionMmaAppendDecode(FaText *t, const FaAttentionKernel *k, const char *name) {
  FaAttentionKernel d = decodeTiles(k);
  return appendVariant(t, &d, name, true);
}
