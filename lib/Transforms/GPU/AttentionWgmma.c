/* The FlashAttention-3-style kernel for Hopper (sm_90a): fa-lower-attention's
 * main kernel for f16/bf16 attention with target=nvvm-sm90a where the head
 * dims allow it. The kernel is the template GPU/attention_wgmma.mlir; it
 * shares the scores, the online softmax and the row statistics with the
 * mma.sync kernel (GPU/AttentionMma.c), whose decode kernel still serves
 * M <= 16. */
#include "../AttentionKernel.h"
#include "../Template.h"
#include "BlockwiseMma.h"

#include <stdio.h>

#include "mlir-c/BuiltinTypes.h"

/* Tiles: {max head dim, keys per tile, consumer warpgroups of 64 query rows
 * each}; two stages of K and V. */
typedef struct {
  int64_t maxD, bn, consumers;
} WgmmaTileRow;

static const WgmmaTileRow kWgmmaTiles[] = {{64, 128, 3}, {128, 128, 2}, {256, 64, 2}};

/* Hopper gives a block 227 KiB of shared memory and 64 Ki registers. */
enum { WG_SMEM_LIMIT = 227 * 1024, WG_STAGES = 2, WG_REGS = 65536 };
/* setmaxnreg: the producer keeps 24 registers, the consumers share the rest
 * (240 each for two warpgroups, 160 for three). */
enum { WG_PRODUCER_REGS = 24 };

static long consumerRegs(int64_t consumers) {
  return (WG_REGS - 128 * WG_PRODUCER_REGS) / (128 * consumers) / 8 * 8;
}

/* 64-column chunks of a head dim (the last one zero-filled past D by TMA). */
static int64_t chunks(int64_t d) { return (d + 63) / 64; }

static int64_t qBytes(const FaAttentionKernel *k) { return chunks(k->d) * k->bm * 128; }

static int64_t stageBytes(const FaAttentionKernel *k) {
  return (chunks(k->d) + chunks(k->dv)) * k->bn * 128;
}

/* Q | stages | mbarriers (qfull, then four per stage). */
static int64_t barOffset(const FaAttentionKernel *k) {
  return qBytes(k) + k->stages * stageBytes(k);
}

static int64_t smemBytes(const FaAttentionKernel *k) {
  return barOffset(k) + 8 * (1 + 4 * k->stages);
}

static FaAttentionKernel wgmmaTiles(const FaAttentionKernel *k) {
  FaAttentionKernel w = *k;
  int64_t dmax = k->d > k->dv ? k->d : k->dv;
  w.bn = 0, w.stages = WG_STAGES, w.pvSplit = 1;
  for (size_t i = 0; i < sizeof kWgmmaTiles / sizeof kWgmmaTiles[0] && !w.bn; ++i)
    if (kWgmmaTiles[i].maxD >= dmax) {
      w.bn = kWgmmaTiles[i].bn;
      /* A bias needs more registers than three consumers leave (spills). */
      int64_t consumers = kWgmmaTiles[i].consumers;
      if (k->biasElt.ptr && consumers > 2)
        consumers = 2;
      w.bm = 64 * consumers;
      w.warps = 4 * (consumers + 1);
    }
  return w;
}

/* (Asked only of ops the mma.sync kernel takes: element types and head dims
 * are checked there.) */
const char *faAttentionWgmmaUnsupported(const FaAttentionKernel *k) {
  if (faAttentionMmaIsTuned(k))
    return "the op's tuning attributes are the mma.sync kernel's";
  FaAttentionKernel w = wgmmaTiles(k);
  if (!w.bn || smemBytes(&w) > WG_SMEM_LIMIT)
    return "the Hopper kernel's tiles exceed 227 KiB of shared memory";
  return NULL;
}

static void setLayout(FaTemplateVars *vars, const FaAttentionKernel *w) {
  faTemplateVarsSetInt(vars, "D", (long)w->d);
  faTemplateVarsSetInt(vars, "DV", (long)w->dv);
  faTemplateVarsSetInt(vars, "DC", (long)chunks(w->d));
  faTemplateVarsSetInt(vars, "DVC", (long)chunks(w->dv));
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
  faTemplateVarsSetInt(vars, "CONSUMER_REGS", consumerRegs(consumers));
  faTemplateVarsSetInt(vars, "STAGES", (long)w->stages);
  faTemplateVarsSetInt(vars, "QCS", (long)(w->bm * 64));
  faTemplateVarsSetInt(vars, "KCS", (long)(w->bn * 64));
  faTemplateVarsSetInt(vars, "Q_CHUNK_BYTES", (long)(w->bm * 128));
  faTemplateVarsSetInt(vars, "KV_CHUNK_BYTES", (long)(w->bn * 128));
  faTemplateVarsSetInt(vars, "Q_BYTES", (long)qBytes(w));
  faTemplateVarsSetInt(vars, "K_BYTES", (long)(chunks(w->d) * w->bn * 128));
  faTemplateVarsSetInt(vars, "V_BYTES", (long)(chunks(w->dv) * w->bn * 128));
  faTemplateVarsSetInt(vars, "OFF_KV", (long)qBytes(w));
  faTemplateVarsSetInt(vars, "OFF_BAR", (long)barOffset(w));
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

const char *faAttentionWgmmaAppend(FaText *t, const FaAttentionKernel *k, const char *name) {
  FaAttentionKernel w = wgmmaTiles(k);
  FaTemplateVars vars;
  faTemplateVarsInit(&vars);
  faAttentionMmaSetCommon(&vars, &w, name);
  faTemplateVarsSet(&vars, "LAYOUT", "%s", FA_LAYOUT_WGMMA);
  setLayout(&vars, &w);
  /* Each warp owns one 16-row slice of its warpgroup's 64 rows. */
  faAttentionMmaSetFragments(&vars, &w, 1);
  /* O through Q's buffer and TMA: O of the input type that fits it. */
  faTemplateVarsSetFlag(&vars, "TMA_STORE", mlirTypeEqual(w.outElt, w.elt) && w.dv <= w.d);
  bool bias = w.biasElt.ptr != NULL;
  faTemplateVarsSet(&vars, "SOFTMAX_EXTRA_ARGS", "%s", bias ? ", %bias, %b, %h, %M, %N" : "");
  faTemplateVarsSet(&vars, "SOFTMAX_EXTRA_TYPES", "%s",
                    bias ? ", !BIAS, index, index, index, index" : "");
  const char *missing = setWaits(&vars, &w, name);
  if (!missing)
    missing = faTextAppendTemplate(t, faTemplateAttentionWgmma, &vars);
  faTemplateVarsDestroy(&vars);
  return missing ? "the Hopper kernel template uses an unset variable" : NULL;
}
