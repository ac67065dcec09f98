/* fa-lower-attention's choice of kernels and tiles for one op, in one place:
 *
 *   target nvvm or nvvm-sm90a, Q/K/V f16 or bf16, D and Dv multiples of 16
 *   up to 256, K not stored transposed (else K is transposed first):
 *     tensor cores, an entry that picks by M at run time between
 *       main    (M > 16, dynamic M, or the op's tuning attributes):
 *               the Hopper wgmma kernel on nvvm-sm90a where its tiles fit
 *               (Kernels/Wgmma), else the mma.sync kernel (Kernels/MmaSync);
 *       decode  (M <= 16 or dynamic M, not tuned): the mma.sync kernel with
 *               the decode tiles, its keys split over workgroups;
 *   anything else: the portable kernel (Kernels/Portable) on scalar loops.
 *
 * The tiles of each come from the tile table (TileTable.c), then the op's
 * tuning attributes. A new kernel adds a folder, its rows of the table and a
 * line here. */
#include "Lowering/AttentionKernel.h"
#include "Lowering/TileTable.h"

/* Bytes of workgroup memory the portable kernel's f32 tiles take: Q, K, V,
 * O, S and three row statistics. */
static int64_t portableBytes(const FaAttentionKernel *k, int64_t bm, int64_t bn) {
  return 4 * (bm * k->d + bn * k->d + bn * k->dv + bm * k->dv + bm * bn + 3 * bm);
}

enum { PORTABLE_GPU_LIMIT = 48 * 1024, PORTABLE_MIN_TILE = 8 };

static int64_t headDim(const FaAttentionKernel *k) { return k->d > k->dv ? k->d : k->dv; }

/* The portable kernel's tiles: the row's square tile halved until it fits
 * the row's budget, block_m halved down to M (decode and short queries: no
 * empty rows), then the op's block_m and block_n. */
static const char *selectPortable(FaAttentionKernel *k, FaTarget target) {
  bool gpu = faTargetIsGpu(target);
  const FaTileRow *row =
      faTileTableFind(FA_KERNEL_PORTABLE, FA_TILE_MAIN, gpu, k->causal, headDim(k));
  int64_t m = faAttentionSize(k, FA_ATTENTION_Q, FA_DIM_SEQ), t = row->bm;
  while (t > PORTABLE_MIN_TILE && portableBytes(k, t, t) > row->budget)
    t /= 2;
  k->kernel = FA_KERNEL_PORTABLE;
  k->hasMain = true;
  k->bm = k->bn = t;
  while (m > 0 && k->bm > 1 && k->bm / 2 >= m)
    k->bm /= 2;
  k->bm = faAttentionIntAttr(k, FA_ATTENTION_HINT_BLOCK_M, k->bm);
  k->bn = faAttentionIntAttr(k, FA_ATTENTION_HINT_BLOCK_N, k->bn);
  if (k->bm < 1 || k->bn < 1)
    return "block_m and block_n must be positive";
  if (gpu && portableBytes(k, k->bm, k->bn) > PORTABLE_GPU_LIMIT)
    return "the tiles (block_m, block_n, D, Dv) do not fit in 48 KiB of "
           "workgroup memory";
  return NULL;
}

/* Tensor cores: which of main and decode the entry has, which kernel is the
 * main one, and the mma.sync kernel's tiles (checked even where only the
 * decode kernel runs, so that bad tuning attributes are always reported). */
static const char *selectTensorCore(FaAttentionKernel *k, FaTarget target) {
  int64_t m = faAttentionSize(k, FA_ATTENTION_Q, FA_DIM_SEQ);
  bool tuned = faAttentionMmaIsTuned(k);
  k->hasMain = tuned || m < 0 || m > FA_DECODE_MAX_M;
  /* The decode kernel splits keys over workgroups and merges them later: a
   * sink belongs to the merge, which does not take one (the main kernel
   * does). */
  k->hasDecode = !tuned && (m < 0 || m <= FA_DECODE_MAX_M) && !k->sinksElt.ptr;
  k->hasMain = k->hasMain || !k->hasDecode;
  k->kernel = FA_KERNEL_MMA_SYNC;
  if (target == FA_TARGET_NVVM_SM90A && !tuned && !faAttentionWgmmaUnsupported(k))
    k->kernel = FA_KERNEL_WGMMA;
  return faAttentionMmaChooseTiles(k);
}


const char *faAttentionSelect(FaAttentionKernel *k, FaTarget target) {
  if (faTargetIsNvvm(target) && !faAttentionMmaUnsupported(k))
    return selectTensorCore(k, target);
  return selectPortable(k, target);
}

bool faAttentionSelectUntransposesK(const FaAttentionKernel *k, FaTarget target) {
  if (!faTargetIsNvvm(target) || !k->kTransposed || faAttentionUsesTensorCores(k))
    return false;
  FaAttentionKernel plain = *k;
  plain.kTransposed = false;
  return faAttentionMmaUnsupported(&plain) == NULL;
}
