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

/* Tiles: {max head dim, keys per tile}. Two consumer warpgroups of 64 rows
 * (128 query rows), two stages of K and V. */
typedef struct {
  int64_t maxD, bn;
} WgmmaTileRow;

static const WgmmaTileRow kWgmmaTiles[] = {{128, 128}, {256, 64}};

/* Hopper gives a block 227 KiB of shared memory. */
enum { WG_SMEM_LIMIT = 227 * 1024, WG_CONSUMERS = 2, WG_STAGES = 2 };
/* setmaxnreg: the producer keeps 24 registers, the consumers take 240
 * (24 * 128 + 240 * 256 <= 65536). */
enum { WG_PRODUCER_REGS = 24, WG_CONSUMER_REGS = 240 };

static int64_t chunks(int64_t d) { return d / 64; }

static int64_t qBytes(const FaAttentionKernel *k) { return chunks(k->d) * k->bm * 128; }

static int64_t stageBytes(const FaAttentionKernel *k) {
  return (chunks(k->d) + chunks(k->dv)) * k->bn * 128;
}

/* Q | stages | mbarriers (qfull, then four per stage). */
static int64_t barOffset(const FaAttentionKernel *k) {
  return qBytes(k) + WG_STAGES * stageBytes(k);
}

static int64_t smemBytes(const FaAttentionKernel *k) {
  return barOffset(k) + 8 * (1 + 4 * WG_STAGES);
}

static FaAttentionKernel wgmmaTiles(const FaAttentionKernel *k) {
  FaAttentionKernel w = *k;
  int64_t dmax = k->d > k->dv ? k->d : k->dv;
  w.bm = 64 * WG_CONSUMERS, w.bn = 0, w.warps = 4 * (WG_CONSUMERS + 1);
  w.stages = WG_STAGES, w.pvSplit = 1;
  for (size_t i = 0; i < sizeof kWgmmaTiles / sizeof kWgmmaTiles[0] && !w.bn; ++i)
    if (kWgmmaTiles[i].maxD >= dmax)
      w.bn = kWgmmaTiles[i].bn;
  return w;
}

const char *faAttentionWgmmaUnsupported(const FaAttentionKernel *k) {
  if (k->d % 64 || k->dv % 64)
    return "the Hopper kernel takes D and Dv multiples of 64 (128-byte rows)";
  static const char *const kTuning[] = {"block_m", "block_n", "warps", "stages", "pv_split"};
  for (int i = 0; i < 5; ++i)
    if (faAttentionIntAttr(k, kTuning[i], -1) != -1)
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
  faTemplateVarsSetInt(vars, "CW", WG_CONSUMERS);
  faTemplateVarsSetInt(vars, "WGS", WG_CONSUMERS + 1);
  faTemplateVarsSetInt(vars, "THREADS", 128 * (WG_CONSUMERS + 1));
  faTemplateVarsSetInt(vars, "CONSUMER_THREADS", 128 * WG_CONSUMERS);
  faTemplateVarsSetInt(vars, "PRODUCER_REGS", WG_PRODUCER_REGS);
  faTemplateVarsSetInt(vars, "CONSUMER_REGS", WG_CONSUMER_REGS);
  faTemplateVarsSetInt(vars, "STAGES", WG_STAGES);
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
