/* The FlashAttention-3-style kernel for Hopper (sm_90a): fa-lower-attention's
 * main kernel for f16/bf16 attention with target=nvvm-sm90a where the head
 * dims allow it. The kernel is the template attention_wgmma.mlir; it
 * shares the scores, the online softmax and the row statistics with the
 * mma.sync kernel (Kernels/MmaSync/AttentionMma.c), whose decode kernel still serves
 * M <= 16. */
#include "Lowering/AttentionKernel.h"
#include "Support/Template.h"
#include "Lowering/Kernels/Common/BlockwiseMma.h"
#include "Lowering/Kernels/Common/TensorCore.h"

#include <stdio.h>

#include "mlir-c/BuiltinTypes.h"

/* Tiles: the tile table's FA_KERNEL_WGMMA rows (lib/Lowering/TileTable.c says
 * why each), two stages of K and V, 64 query rows per consumer warpgroup. */
/* An SM of Hopper has 228 KiB of shared memory (227 for one block, 1 KiB
 * reserved per block) and 64 Ki registers. */
enum { WG_SMEM_SM = 228 * 1024, WG_SMEM_LIMIT = 227 * 1024, WG_REGS = 65536 };
/* setmaxnreg: the producer keeps 24 registers, the consumers share the rest
 * of what the workgroup was launched with. */
enum { WG_PRODUCER_REGS = 24 };
/* The softmax without the row max (each tile in turn) holds while no P
 * exceeds 2^WG_FAST_LOG2 (f16's largest finite is about 2^16). */
enum { WG_FAST_LOG2 = 12 };

/* Registers per thread at launch (.maxnreg): the SM's share of one workgroup. */
static long launchRegs(const FaAttentionKernel *w) {
  long regs = WG_REGS / (w->ctasPerSm * 32 * w->warps) / 8 * 8;
  return regs > 248 ? 248 : regs; /* .maxnreg <= 255, setmaxnreg's multiples of 8 */
}

static long consumerRegs(const FaAttentionKernel *w) {
  int64_t consumers = w->bm / 64;
  long regs = (launchRegs(w) * 32 * w->warps - 128 * WG_PRODUCER_REGS) / (128 * consumers) / 8 * 8;
  return regs > 256 ? 256 : regs;
}

/* 64-column chunks of a head dim (the last one zero-filled past D by TMA). */
static int64_t chunks(int64_t d) { return (d + 63) / 64; }

static int64_t qBytes(const FaAttentionKernel *k) { return chunks(k->d) * k->bm * 128; }

static int64_t stageBytes(const FaAttentionKernel *k) {
  return (chunks(k->d) + chunks(k->dv)) * k->bn * 128;
}

static int64_t oBytes(const FaAttentionKernel *k) { return chunks(k->dv) * k->bm * 128; }

/* mbarriers: qfull, four per stage, qempty. */
static int64_t barBytes(const FaAttentionKernel *k) { return 8 * (2 + 4 * k->stages); }

/* Whether O is stored with TMA through a buffer of its own (else through
 * Q's, after the last S; else without TMA): in a persistent kernel, where
 * O's type is Q's, so that the next item's Q loads while O is stored. */
static bool ownOBuffer(const FaAttentionKernel *w) {
  return w->persistent && mlirTypeEqual(w->outElt, w->elt);
}

static bool tmaStore(const FaAttentionKernel *w) {
  return mlirTypeEqual(w->outElt, w->elt) && (ownOBuffer(w) || w->dv <= w->d);
}

/* Q | stages | O (its own buffer) | mbarriers. */
static int64_t oOffset(const FaAttentionKernel *k) { return qBytes(k) + k->stages * stageBytes(k); }

static int64_t barOffset(const FaAttentionKernel *k) {
  return oOffset(k) + (ownOBuffer(k) ? oBytes(k) : 0);
}

static int64_t smemBytes(const FaAttentionKernel *k) { return barOffset(k) + barBytes(k); }

static bool smemFits(const FaAttentionKernel *w) {
  int64_t bytes = smemBytes(w);
  return bytes <= WG_SMEM_LIMIT && w->ctasPerSm * (bytes + 1024) <= WG_SMEM_SM;
}

static int64_t headDim(const FaAttentionKernel *k) { return k->d > k->dv ? k->d : k->dv; }

static FaAttentionKernel rowTiles(const FaAttentionKernel *k, const FaTileRow *row) {
  FaAttentionKernel w = *k;
  w.bn = row->bn, w.stages = row->stages, w.pvSplit = row->pvSplit;
  w.bm = row->bm;
  w.warps = row->warps;
  w.ctasPerSm = row->ctas;
  /* Persistent where O's buffer fits beside the others. */
  w.persistent = row->persistent;
  if (w.persistent && !smemFits(&w))
    w.persistent = false;
  return w;
}

/* Whether `row` serves k: its head dims, and its shared memory; rows of
 * several workgroups per SM, or of more than two consumers, leave too few
 * registers for a bias (spills). */
static bool rowServes(const FaAttentionKernel *k, const FaTileRow *row) {
  FaAttentionKernel w = rowTiles(k, row);
  /* setmaxnreg.inc only raises a consumer's count above the launch's. */
  bool regsFit = consumerRegs(&w) >= launchRegs(&w) && launchRegs(&w) >= WG_PRODUCER_REGS;
  bool biasFits = !k->biasElt.ptr ||
                  (row->ctas == 1 && row->bm <= 2 * 64 && (headDim(k) <= 64 || row->bn <= 64));
  /* A score_mod runs on every score among the fragments: it needs the
   * registers of one workgroup per SM. */
  bool modFits = mlirOperationIsNull(k->modFn) || row->ctas == 1;
  return row->maxD >= headDim(k) && biasFits && modFits && smemFits(&w) && regsFit;
}

/* The tiles of k: `many` for any keys (NULL: none fits), `few` (or NULL)
 * for at most few->maxKeys keys per workgroup on average. */
typedef struct {
  const FaTileRow *few, *many;
} WgmmaRows;

static WgmmaRows chooseRows(const FaAttentionKernel *k) {
  WgmmaRows r = {NULL, NULL};
  /* The rows of the smallest head dim of the table that covers k's. */
  const FaTileRow *first =
      faTileTableFind(FA_KERNEL_WGMMA, FA_TILE_MAIN, true, k->causal, headDim(k));
  size_t n;
  const FaTileRow *rows = faTileTableGet(&n);
  for (size_t i = 0; first && i < n; ++i) {
    const FaTileRow *row = &rows[i];
    if (row->kernel != FA_KERNEL_WGMMA || row->maxD != first->maxD || !rowServes(k, row))
      continue;
    if (row->maxKeys && !r.few)
      r.few = row;
    if (!row->maxKeys && !r.many)
      r.many = row;
  }
  return r;
}

/* The keys a workgroup visits on average, as the selector entry estimates
 * them, where the shapes say (else -1): N, or under a causal mask those of
 * query row M / 2, min(N, max(0, M / 2 + offset)) (kv_len not counted). */
static int64_t averageKeys(const FaAttentionKernel *k) {
  int64_t m = faAttentionSize(k, FA_ATTENTION_Q, FA_DIM_SEQ);
  int64_t n = faAttentionSize(k, FA_ATTENTION_V, FA_DIM_SEQ);
  if (n < 0 || (k->causal && m < 0))
    return -1;
  if (!k->causal)
    return n;
  int64_t half = m / 2, off = k->causalOffset;
  /* (Saturating: the offset may be any i64.) */
  if (off >= n)
    return n;
  if (off <= -half)
    return 0;
  return half + off < n ? half + off : n;
}

bool faAttentionWgmmaTakesWorkOrder(const FaAttentionKernel *k) {
  WgmmaRows r = chooseRows(k);
  const FaTileRow *rows[2] = {r.few, r.many};
  for (int i = 0; i < 2; ++i)
    if (rows[i] && rows[i]->bm == FA_WORK_ORDER_ROWS && rowTiles(k, rows[i]).persistent)
      return true;
  return false;
}

/* (Asked only of ops the mma.sync kernel takes: element types and head dims
 * are checked there.) */
const char *faAttentionWgmmaUnsupported(const FaAttentionKernel *k) {
  if (!chooseRows(k).many)
    return "the Hopper kernel's tiles exceed the shared memory of an SM";
  return NULL;
}

static void setLayout(FaTemplateVars *vars, const FaAttentionKernel *w) {
  faTemplateVarsSetInt(vars, "D", (long)w->d);
  faTemplateVarsSetInt(vars, "DV", (long)w->dv);
  faTemplateVarsSetInt(vars, "DC", (long)chunks(w->d));
  faTemplateVarsSetInt(vars, "DVC", (long)chunks(w->dv));
  /* A warpgroup's 64 rows of O in 16-byte pieces, per row and in all. */
  faTemplateVarsSetInt(vars, "DVC_PIECES", (long)chunks(w->dv) * 8);
  faTemplateVarsSetInt(vars, "WG_PIECES", 64L * chunks(w->dv) * 8);
  faTemplateVarsSetInt(vars, "KV_CHUNKS", (long)(chunks(w->d) + chunks(w->dv)));
  faTemplateVarsSetInt(vars, "BM", (long)w->bm);
  faTemplateVarsSetInt(vars, "BN", (long)w->bn);
  int64_t consumers = w->bm / 64;
  faTemplateVarsSetInt(vars, "CW", (long)consumers);
  faTemplateVarsSetInt(vars, "WGS", (long)consumers + 1);
  faTemplateVarsSetInt(vars, "THREADS", 32 * (long)w->warps);
  faTemplateVarsSetInt(vars, "CONSUMER_THREADS", 128 * (long)consumers);
  /* 16-byte stores per key row of V (the zeroing past kv_len). */
  faTemplateVarsSetInt(vars, "V_ZERO_PER_ROW", (long)(chunks(w->dv) * 8));
  faTemplateVarsSetInt(vars, "PRODUCER_REGS", WG_PRODUCER_REGS);
  faTemplateVarsSetInt(vars, "CONSUMER_REGS", consumerRegs(w));
  faTemplateVarsSetInt(vars, "LAUNCH_REGS", launchRegs(w));
  faTemplateVarsSetInt(vars, "CTAS_PER_SM", (long)w->ctasPerSm);
  faTemplateVarsSetInt(vars, "STAGES", (long)w->stages);
  faTemplateVarsSetInt(vars, "QCS", (long)(w->bm * 64));
  faTemplateVarsSetInt(vars, "KCS", (long)(w->bn * 64));
  faTemplateVarsSetInt(vars, "Q_CHUNK_BYTES", (long)(w->bm * 128));
  faTemplateVarsSetInt(vars, "KV_CHUNK_BYTES", (long)(w->bn * 128));
  faTemplateVarsSetInt(vars, "Q_BYTES", (long)qBytes(w));
  faTemplateVarsSetInt(vars, "K_BYTES", (long)(chunks(w->d) * w->bn * 128));
  faTemplateVarsSetInt(vars, "V_BYTES", (long)(chunks(w->dv) * w->bn * 128));
  faTemplateVarsSetInt(vars, "OFF_KV", (long)qBytes(w));
  faTemplateVarsSetInt(vars, "OFF_O", ownOBuffer(w) ? (long)oOffset(w) : 0);
  faTemplateVarsSetInt(vars, "OFF_BAR", (long)barOffset(w));
  /* qempty's index among the mbarriers (after qfull and four per stage). */
  faTemplateVarsSetInt(vars, "QEMPTY", 4 * (long)w->stages + 1);
  faTemplateVarsSetInt(vars, "SMEM_BYTES", (long)smemBytes(w));
}

/* The waits of the kernel's two wgmma groups: S (at most the P V group
 * pending) and O (none pending). */
static const char *setWaits(FaTemplateVars *vars, const FaAttentionKernel *w,
                            const char *name) {
  FaText t;
  faTextInit(&t);
  char s[192], o[192];
  snprintf(s, sizeof s, "%s_wait1_s", name);
  snprintf(o, sizeof o, "%s_wait0_o", name);
  const char *missing = faBlockwiseWgmmaAppendWait(&t, s, (long)w->bn / 2, 1);
  if (!missing)
    missing = faBlockwiseWgmmaAppendWait(&t, o, (long)w->dv / 2, 0);
  faTemplateVarsSetText(vars, "WAIT_HELPERS", t.data);
  faTextDestroy(&t);
  return missing;
}

/* What the scores function takes beyond its fragment: the bias and (b, h,
 * M, N) to index it; (b, h) and the captures for the op's functions. */
static void setSoftmaxExtra(FaTemplateVars *vars, const FaAttentionKernel *k) {
  bool bias = k->biasElt.ptr != NULL;
  bool funcs = !mlirOperationIsNull(k->maskFn) || !mlirOperationIsNull(k->modFn);
  FaText args, types, params;
  faTextInit(&args);
  faTextInit(&types);
  faTextInit(&params);
  if (bias) {
    faTextAppend(&args, ", %%bias, %%b, %%h, %%M, %%N");
    faTextAppend(&types, ", !BIAS, index, index, index, index");
    faTextAppend(&params, ", %%bias: !BIAS, %%b: index, %%h: index, %%M: index, %%N: index");
  } else if (funcs) {
    faTextAppend(&args, ", %%b, %%h");
    faTextAppend(&types, ", index, index");
    faTextAppend(&params, ", %%b: index, %%h: index");
  }
  if (funcs) {
    faAttentionAppendRangeCaptures(&args, k, FA_CAPTURES_VALUES);
    faAttentionAppendRangeCaptures(&types, k, FA_CAPTURES_TYPES);
    faAttentionAppendRangeCaptures(&params, k, FA_CAPTURES_PARAMS);
  }
  if (faAttentionUsesKeyTable(k)) { /* the keys its mask may show, must show whole */
    faTextAppend(&args, ", %%kr_tlo, %%kr_thi, %%kr_ulo, %%kr_uhi");
    faTextAppend(&types, ", index, index, index, index");
    faTextAppend(&params, ", %%kr_tlo: index, %%kr_thi: index, %%kr_ulo: index, %%kr_uhi: index");
  }
  faTemplateVarsSet(vars, "SOFTMAX_EXTRA_ARGS", "%s", args.data);
  faTemplateVarsSet(vars, "SOFTMAX_EXTRA_TYPES", "%s", types.data);
  faTemplateVarsSet(vars, "SOFTMAX_EXTRA_PARAMS", "%s", params.data);
  faTextDestroy(&args);
  faTextDestroy(&types);
  faTextDestroy(&params);
}

/* One kernel of the template: `name` with `row`'s tiles; the first
 * persistent one of an op declares the runtime function it calls
 * (*smsDeclared). */
static const char *appendKernel(FaText *t, const FaAttentionKernel *k, const FaTileRow *row,
                                const char *name, bool *smsDeclared) {
  FaAttentionKernel w = rowTiles(k, row);
  FaTemplateVars vars;
  faTemplateVarsInit(&vars);
  faTensorCoreSetCommon(&vars, &w, name, FA_KERNEL_WGMMA);
  faTemplateVarsSet(&vars, "LAYOUT", "%s", FA_LAYOUT_WGMMA);
  setLayout(&vars, &w);
  /* Each warp owns one 16-row slice of its warpgroup's 64 rows. */
  faTensorCoreSetFragments(&vars, &w, 1);
  faTemplateVarsSetFlag(&vars, "TMA_STORE", tmaStore(&w));
  faTemplateVarsSetFlag(&vars, "O_BUFFER", ownOBuffer(&w));
  faTemplateVarsSetFlag(&vars, "PERSISTENT", w.persistent);
  faTemplateVarsSetFlag(&vars, "SYNC_PV", !row->overlap);
  /* The softmax without the row max: in the few-keys kernel, each tile in
   * turn (with four consumers it spills; bench/tune_wgmma.txt, step 23). */
  faTemplateVarsSetFlag(&vars, "FAST_SOFTMAX", !row->overlap && row->maxKeys);
  /* The bound itself, 2^WG_FAST_LOG2, in the template. */
  faTemplateVarsSet(&vars, "FAST_LIMIT", "%.1f", (double)(1L << WG_FAST_LOG2));
  /* A data mask's work items in the order its key-range table gives (each
   * head's items by the key tiles they visit, most first), else paired. */
  bool workOrder = w.persistent && w.bm == FA_WORK_ORDER_ROWS && faAttentionUsesWorkOrder(k);
  faTemplateVarsSetFlag(&vars, "WORK_ORDER", workOrder);
  bool docRuns = workOrder && faAttentionDocumentCapture(k) >= 0;
  faTemplateVarsSetFlag(&vars, "DOC_RUNS", docRuns);
  faAttentionSetSummaryVars(&vars, k, docRuns);
  faTemplateVarsSetFlag(&vars, "PAIRED", w.persistent && (w.causal || workOrder));
  faTemplateVarsSetFlag(&vars, "DECLARE_SMS", w.persistent && !*smsDeclared);
  *smsDeclared = *smsDeclared || w.persistent;
  setSoftmaxExtra(&vars, &w);
  const char *missing = setWaits(&vars, &w, name);
  if (!missing)
    missing = faTextAppendTemplate(t, faTemplateAttentionWgmma, &vars);
  if (!missing)
    missing = faTensorCoreAppendScoreMod(t, &vars, k, name);
  faTemplateVarsDestroy(&vars);
  return faTemplateError("the Hopper kernel", missing);
}

/* The entry that picks one of two kernels by the keys of a workgroup. */
static const char *appendSelect(FaText *t, const FaAttentionKernel *k, const WgmmaRows *rows,
                                const char *name) {
  FaTemplateVars vars;
  faTemplateVarsInit(&vars);
  faTensorCoreSetCommon(&vars, k, name, FA_KERNEL_WGMMA);
  faTemplateVarsSetInt(&vars, "FEW_MAX_KEYS", (long)rows->few->maxKeys);
  faTemplateVarsSetInt(&vars, "FEW_CTAS", (long)rows->few->ctas);
  const char *missing = faTextAppendTemplate(t, faTemplateAttentionWgmmaSelect, &vars);
  faTemplateVarsDestroy(&vars);
  return faTemplateError("the Hopper kernel's entry", missing);
}

const char *faAttentionWgmmaAppend(FaText *t, const FaAttentionKernel *k, const char *name) {
  WgmmaRows rows = chooseRows(k);
  if (!rows.many)
    return "the Hopper kernel has no tiles for this op (ask faAttentionWgmmaUnsupported first)";
  int64_t keys = averageKeys(k);
  bool smsDeclared = false;
  if (rows.few && keys >= 0)
    return appendKernel(t, k, keys <= rows.few->maxKeys ? rows.few : rows.many, name,
                        &smsDeclared);
  if (!rows.few)
    return appendKernel(t, k, rows.many, name, &smsDeclared);
  char few[192], many[192];
  snprintf(few, sizeof few, "%s_few", name);
  snprintf(many, sizeof many, "%s_many", name);
  const char *missing = appendKernel(t, k, rows.few, few, &smsDeclared);
  if (!missing)
    missing = appendKernel(t, k, rows.many, many, &smsDeclared);
  return missing ? missing : appendSelect(t, k, &rows, name);
}
