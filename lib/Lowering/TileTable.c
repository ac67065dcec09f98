/* The tile table (see TileTable.h). Where each row comes from:
 *
 * Portable: the largest square tile of at most 64 x 64 whose Q, K, V, O, S
 * and row statistics (f32) fit the budget, halved until they do; block_m is
 * then halved down to M (decode: no empty rows). GPUs keep the tiles in
 * 44 KiB of workgroup memory (48 KiB at most: the lowering refuses more).
 *
 * mma.sync main: the fastest spill-free entry of the sweep of
 * bench/tune_mma.sh on an H100 (bench/tune_mma.txt). Rows are 32 query rows
 * per warp (two 16-row slices) wherever the registers allow it, and ptxas
 * builds them without spills (test/Integration/bench-kernels.test).
 * stages = 1 (FlashAttention-2's order) measured faster than 2 at every D
 * (at D = 256 with 128 x 64 tiles and 8 warps, 16 rows each). pv_split = 2
 * (exp2 and P V in two chunks of block_n / 2 keys, so that the second chunk's
 * MUFU work overlaps the first chunk's mma) measured faster at D = 64 (where
 * 128 x 128 tiles, two workgroups per SM, now beat 128 x 64 with three); one
 * chunk measured as fast or faster at D = 128.
 *
 * mma.sync decode: one warp, 16 query rows, 64-key tiles (keys split over
 * workgroups); above D = 128 two warps of 16 rows and 32-key tiles (one warp
 * spills there). Two stages up to D = 64, above one (V(t) lands while
 * S = Q K(t)^T runs, K(t + 1) while P V(t) runs): bf16 D = 128 GQA decode
 * 7.83 -> 8.0 TFLOP/s, D = 256 5.0 -> 5.7, D = 64 6.0 -> 5.9
 * (bench/tune_mma.txt).
 *
 * wgmma (Hopper): two stages of K and V; block_m is 64 rows per consumer
 * warpgroup, warps are the consumers' and one producer warpgroup's. With
 * `overlap` a consumer's softmax of S(t) runs while its P(t-1) V(t-1) does
 * (FlashAttention-3's intra-warpgroup overlap, which keeps P(t-1) and S(t)
 * in registers together); without it each tile's S, softmax and P V run in
 * turn, and the consumers interleave with each other (D = 64: four
 * consumers of 256 rows, or four one-consumer workgroups an SM with few
 * keys; bench/tune_wgmma.txt, steps 21, 22). A persistent kernel runs as
 * many workgroups as fit the device at once, each walking work items: the
 * next one's Q and K / V load while the last one's O is stored
 * (bench/tune_wgmma.txt, step 13); under a causal mask in groups of a long
 * and a short item (step 17). Of the rows of a head dim the first whose keys
 * fit is taken (measured: bench/tune_wgmma.txt, step 8): with few keys a
 * workgroup's prologue (Q, the first S and its softmax) and epilogue (the
 * last P V, O) are a large part of its time, and small workgroups, several
 * per SM, overlap them with each other's loops. */
#include "Lowering/TileTable.h"

enum { KIB = 1024 };

#define PORTABLE(gpu, budget) {FA_KERNEL_PORTABLE, FA_TILE_MAIN, gpu, -1, INT64_MAX, 0, \
                               64, 64, 0, 0, 0, 0, false, false, budget}
#define MMA(use, maxD, bm, bn, warps, stages, pvSplit) \
  {FA_KERNEL_MMA_SYNC, use, 1, -1, maxD, 0, bm, bn, warps, stages, pvSplit, 0, false, false, 0}
#define WGMMA(maxD, maxKeys, bn, consumers, ctas, persistent, overlap)                     \
  {FA_KERNEL_WGMMA, FA_TILE_MAIN, 1, -1, maxD, maxKeys, 64 * (consumers), bn,             \
   4 * ((consumers) + 1), 2, 1, ctas, persistent, overlap, 0}

static const FaTileRow kTileTable[] = {
    PORTABLE(0, 512 * KIB),
    PORTABLE(1, 44 * KIB),
    /*  use           maxD  bm   bn  warps stages pv_split */
    MMA(FA_TILE_MAIN, 64, 128, 128, 4, 1, 2),
    MMA(FA_TILE_MAIN, 96, 128, 64, 4, 1, 2),
    MMA(FA_TILE_MAIN, 128, 128, 64, 4, 1, 1),
    MMA(FA_TILE_MAIN, 256, 128, 64, 8, 1, 2),
    MMA(FA_TILE_DECODE, 64, 16, 64, 1, 2, 1),
    MMA(FA_TILE_DECODE, 128, 16, 64, 1, 1, 1),
    MMA(FA_TILE_DECODE, 256, 32, 32, 2, 1, 1),
    /*    maxD maxKeys bn consumers ctas persistent overlap */
    WGMMA(64, 1024, 64, 1, 4, false, false),
    WGMMA(64, 0, 96, 4, 1, false, false),
    WGMMA(64, 0, 128, 2, 1, false, true),
    WGMMA(128, 0, 128, 2, 1, true, true),
    WGMMA(128, 0, 64, 2, 1, false, true),
    WGMMA(256, 0, 64, 2, 1, false, true),
};

const FaTileRow *faTileTableGet(size_t *size) {
  *size = sizeof kTileTable / sizeof kTileTable[0];
  return kTileTable;
}

static bool serves(int key, bool value) { return key < 0 || key == (int)value; }

const FaTileRow *faTileTableFind(FaKernelKind kernel, FaTileUse use, bool gpu, bool causal,
                                 int64_t headDim) {
  size_t n;
  const FaTileRow *rows = faTileTableGet(&n);
  for (size_t i = 0; i < n; ++i)
    if (rows[i].kernel == kernel && rows[i].use == use && serves(rows[i].gpu, gpu) &&
        serves(rows[i].causal, causal) && rows[i].maxD >= headDim)
      return &rows[i];
  return NULL;
}
