/* Internal: every tile choice of fa-lower-attention's kernels, in one table
 * (lib/Lowering/TileTable.c), as FlashAttention-3 keeps its tile_size.h.
 * A row is keyed by kernel, use (main or decode), target class, head dim
 * (max(D, Dv) up to maxD), causal masking and, for the Hopper kernel, the
 * keys a workgroup visits; it gives the tiles. Each kernel's C reads its rows
 * and checks them against its own limits (shared memory, registers); the op's
 * tuning attributes (block_m, ...) override a row. */
#ifndef FA_LIB_LOWERING_TILETABLE_H
#define FA_LIB_LOWERING_TILETABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The kernels of fa-lower-attention (lib/Lowering/Kernels/NAME). */
typedef enum {
  FA_KERNEL_PORTABLE, /* scalar loops: CPU, any GPU, any element type */
  FA_KERNEL_MMA_SYNC, /* NVIDIA sm_80+: mma.sync on f16 / bf16 */
  FA_KERNEL_WGMMA     /* Hopper sm_90a: wgmma + TMA on f16 / bf16 */
} FaKernelKind;

/* What a row serves: the main kernel, or the decode kernel of few query rows
 * whose keys are split over workgroups. */
typedef enum { FA_TILE_MAIN, FA_TILE_DECODE } FaTileUse;

typedef struct {
  FaKernelKind kernel;
  FaTileUse use;
  int gpu;         /* target class: 1 GPU, 0 CPU, -1 either */
  int causal;      /* 1 causal only, 0 unmasked only, -1 either */
  int64_t maxD;    /* serves max(D, Dv) <= maxD */
  int64_t maxKeys; /* Hopper: most keys per workgroup on average (0: any) */
  /* The tiles: query rows and keys per step, warps, K / V stages, key chunks
   * of P V, workgroups per SM. */
  int64_t bm, bn, warps, stages, pvSplit, ctas;
  bool persistent; /* Hopper: a workgroup per SM walking work items */
  bool overlap;    /* Hopper: softmax of S(t) beside P(t-1) V(t-1) */
  int64_t budget;  /* portable: bytes of workgroup memory the tiles may take */
} FaTileRow;

/* The table, in order of preference. */
const FaTileRow *faTileTableGet(size_t *size);

/* The first row of `kernel` and `use` that serves head dim `headDim`,
 * `causal` and target class `gpu`; NULL when none does. */
const FaTileRow *faTileTableFind(FaKernelKind kernel, FaTileUse use, bool gpu, bool causal,
                                 int64_t headDim);

#endif
