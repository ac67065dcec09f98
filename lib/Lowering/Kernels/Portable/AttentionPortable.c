/* The portable FlashAttention-2 kernel: fa-lower-attention's kernel on the
 * CPU, on GPUs without a tensor-core kernel (ROCDL) and for what the
 * tensor-core kernels do not take (f32, odd head dims). The kernel is the
 * template Kernels/Portable/attention_portable.mlir (with its pieces
 * attention_portable_*.mlir); this file only fills in its variables. Its
 * tiles are the selection's (Selection.c, TileTable.c). */
#include "Lowering/AttentionKernel.h"
#include "Support/Template.h"

#include "mlir-c/BuiltinTypes.h"

/* Tile shapes: BM query rows x BN keys; S_SIZE and A_SIZE elements in the
 * [BM x BN] scores and the [BM x Dv] output tile. */
static void setTiles(FaTemplateVars *vars, const FaAttentionKernel *k, FaTarget target) {
  faTemplateVarsSetFlag(vars, "GPU", faTargetIsGpu(target));
  faTemplateVarsSetInt(vars, "THREADS", FA_GPU_THREADS);
  faTemplateVarsSet(vars, "WORKGROUP", "%s",
                    faTargetIsGpu(target) ? ", #gpu.address_space<workgroup>" : "");
  faTemplateVarsSetInt(vars, "BM", (long)k->bm);
  faTemplateVarsSetInt(vars, "BN", (long)k->bn);
  faTemplateVarsSetInt(vars, "D", (long)k->d);
  faTemplateVarsSetInt(vars, "DV", (long)k->dv);
  faTemplateVarsSetInt(vars, "S_SIZE", (long)(k->bm * k->bn));
  faTemplateVarsSetInt(vars, "A_SIZE", (long)(k->bm * k->dv));
}

/* What the op has (bias, kv_len, causal mask, lse) and its element types. */
static void setFeatures(FaTemplateVars *vars, const FaAttentionKernel *k) {
  faTemplateVarsSet(vars, "SCALE_LOG2E", "%.9e", k->scale * FA_LOG2E);
  faTemplateVarsSetType(vars, "E", k->elt);
  faTemplateVarsSetFlag(vars, "E_F32", mlirTypeIsAF32(k->elt));
  faTemplateVarsSetType(vars, "OE", k->outElt);
  faAttentionSetFeatures(vars, k, (long)k->causalOffset);
}

/* One load of attention_portable_load.mlir: into the [rows x cols] tile
 * %tile from %src at [index], rows from %row0 up to %rowLimit, times %scale;
 * the kernel template takes it as variable `var`. */
typedef struct {
  const char *var, *tile, *tileType, *src, *srcType;
  int64_t rows, cols;
  const char *row0, *rowLimit, *index, *scale;
} TileLoad;

static const char *setLoad(FaTemplateVars *vars, const TileLoad *l) {
  faTemplateVarsSet(vars, "TILE", "%s", l->tile);
  faTemplateVarsSet(vars, "TILE_TYPE", "%s", l->tileType);
  faTemplateVarsSet(vars, "SRC", "%s", l->src);
  faTemplateVarsSet(vars, "SRC_TYPE", "%s", l->srcType);
  faTemplateVarsSetInt(vars, "TILE_ROWS", (long)l->rows);
  faTemplateVarsSetInt(vars, "TILE_COLS", (long)l->cols);
  faTemplateVarsSetInt(vars, "TILE_SIZE", (long)(l->rows * l->cols));
  faTemplateVarsSet(vars, "ROW0", "%s", l->row0);
  faTemplateVarsSet(vars, "ROW_LIMIT", "%s", l->rowLimit);
  faTemplateVarsSet(vars, "SRC_INDEX", "%s", l->index);
  faTemplateVarsSet(vars, "SCALE", "%s", l->scale);
  FaText t;
  faTextInit(&t);
  const char *missing = faTextAppendTemplate(&t, faTemplateAttentionPortableLoad, vars);
  faTemplateVarsSetText(vars, l->var, t.data);
  faTextDestroy(&t);
  return missing;
}

/* LOAD_Q: the query rows of the workgroup, pre-scaled; LOAD_K, LOAD_V: the
 * key tile at %n0 of K/V head %hk (K stored [B, Hkv, D, N] with
 * k_transposed). */
static const char *setLoads(FaTemplateVars *vars, const FaAttentionKernel *k) {
  const char *kIndex = k->kTransposed ? "%b, %hk, %c, %row" : "%b, %hk, %row, %c";
  const TileLoad loads[] = {
      {"LOAD_Q", "qt", "!tQ", "q", "!Q", k->bm, k->d, "m0", "rows", "%b, %h, %row, %c", "qs"},
      {"LOAD_K", "kt", "!tK", "k", "!K", k->bn, k->d, "n0", "cols", kIndex, "one"},
      {"LOAD_V", "vt", "!tV", "v", "!V", k->bn, k->dv, "n0", "cols", "%b, %hk, %row, %c", "one"},
  };
  const char *missing = NULL;
  for (size_t i = 0; !missing && i < sizeof loads / sizeof loads[0]; ++i)
    missing = setLoad(vars, &loads[i]);
  return missing;
}

const char *faAttentionPortableAppend(FaText *t, const FaAttentionKernel *k, FaTarget target,
                                      const char *name) {
  FaTemplateVars vars;
  faTemplateVarsInit(&vars);
  faTemplateVarsSet(&vars, "NAME", "%s", name);
  faAttentionSetArgs(&vars, k);
  faAttentionSetFunctionVars(&vars, k);
  setTiles(&vars, k, target);
  setFeatures(&vars, k);
  const char *missing = setLoads(&vars, k);
  if (!missing)
    missing = faTextAppendTemplate(t, faTemplateAttentionPortable, &vars);
  faTemplateVarsDestroy(&vars);
  return faTemplateError("the portable kernel", missing);
}
