/* fa-decompose-attention: replaces each fa.gridwise_attention with a call to
 * its naive reference (reference_attention.mlir specialised for the op's
 * types and attributes): scores, masks, softmax and P V element by element in
 * f32, sharing nothing with the tiled lowerings. fa-check lowers hand-written
 * fa ops through it with upstream passes as the reference for our kernels. */
#include "Support/Builders.h"
#include "Support/IRText.h"
#include "Registry/Passes.h"
#include "Support/PassSupport.h"
#include "Support/Template.h"

#include "fa-c/Dialect.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

#include <stdio.h>

static bool isAttention(MlirOperation op) { return faOpIsA(op, FA_OP_GRIDWISE_ATTENTION); }

static bool isHalf(MlirType t) { return mlirTypeIsAF16(t) || mlirTypeIsABF16(t); }

static MlirType elementOf(MlirValue v) {
  return mlirShapedTypeGetElementType(mlirValueGetType(v));
}

/* The names of the operands in the reference's arguments, by segment. */
static const char *const kNames[FA_ATTENTION_SEGMENT_COUNT] = {
    "q", "k", "v", "bias", "kvl", "sinks", "cap0", "cap1", "cap2", "cap3"};

/* The flags and types of the optional operand of segment `s`, `v`. */
static void setOptional(FaTemplateVars *vars, FaAttentionOperandSegment s, MlirValue v) {
  if (s == FA_ATTENTION_SEGMENT_BIAS) {
    faTemplateVarsSetFlag(vars, "BIAS", true);
    faTemplateVarsSetFlag(vars, "BIAS_HALF", isHalf(elementOf(v)));
    faTemplateVarsSetType(vars, "BE", elementOf(v));
  } else if (s == FA_ATTENTION_SEGMENT_KV_LEN) {
    faTemplateVarsSetFlag(vars, "KVLEN", true);
    faTemplateVarsSetFlag(vars, "KVLEN_PER_HEAD", mlirShapedTypeGetRank(mlirValueGetType(v)) == 2);
    faTemplateVarsSetType(vars, "KVE", elementOf(v));
  } else if (s == FA_ATTENTION_SEGMENT_SINKS) {
    faTemplateVarsSetFlag(vars, "SINKS", true);
    faTemplateVarsSetFlag(vars, "SINKS_HALF", isHalf(elementOf(v)));
    faTemplateVarsSetType(vars, "SE", elementOf(v));
  }
}

/* ARGS (`%q: T, ...`), the types of the optional operands, and the captures
 * as the mask and score_mod calls pass them (CAPS, CAP_TYPES), in the op's
 * operand order (its segments). */
static void setOperands(FaTemplateVars *vars, MlirOperation op) {
  static const char *const kTypes[FA_ATTENTION_SEGMENT_COUNT] = {"QT", "KT", "VT", "BT", "KVT",
                                                                  "ST"};
  FaText args, caps, capTypes;
  faTextInit(&args);
  faTextInit(&caps);
  faTextInit(&capTypes);
  const char *sep = "";
  for (int s = 0; s < FA_ATTENTION_SEGMENT_COUNT; ++s) {
    MlirValue v = faGridwiseAttentionGetOperand(op, s);
    if (mlirValueIsNull(v))
      continue;
    faTextAppend(&args, "%s%%%s: ", sep, kNames[s]);
    faTextAppendType(&args, mlirValueGetType(v));
    sep = ", ";
    if (s >= FA_ATTENTION_SEGMENT_CAPTURE0) {
      faTextAppend(&caps, ", %%%s", kNames[s]);
      faTextAppend(&capTypes, ", ");
      faTextAppendType(&capTypes, mlirValueGetType(v));
      continue;
    }
    faTemplateVarsSetType(vars, kTypes[s], mlirValueGetType(v));
    setOptional(vars, s, v);
  }
  faTemplateVarsSet(vars, "ARGS", "%s", args.data);
  faTemplateVarsSet(vars, "CAPS", "%s", caps.data);
  faTemplateVarsSet(vars, "CAP_TYPES", "%s", capTypes.data);
  faTextDestroy(&args);
  faTextDestroy(&caps);
  faTextDestroy(&capTypes);
}

/* MASK / MOD and the functions' names. */
static void setFunctions(FaTemplateVars *vars, MlirOperation op) {
  static const FaAttentionAttr kAttrs[2] = {FA_ATTENTION_ATTR_MASK, FA_ATTENTION_ATTR_SCORE_MOD};
  static const char *const kFlags[2] = {"MASK", "MOD"}, *const kVars[2] = {"MASK_FN", "MOD_FN"};
  for (int f = 0; f < 2; ++f) {
    MlirAttribute ref = faGridwiseAttentionGetAttr(op, kAttrs[f]);
    faTemplateVarsSetFlag(vars, kFlags[f], !mlirAttributeIsNull(ref));
    if (mlirAttributeIsNull(ref))
      continue;
    MlirStringRef name = mlirFlatSymbolRefAttrGetValue(ref);
    faTemplateVarsSet(vars, kVars[f], "%.*s", (int)name.length, name.data);
  }
}

static void setResults(FaTemplateVars *vars, MlirOperation op) {
  FaText res;
  faTextInit(&res);
  MlirValue o = mlirOperationGetResult(op, 0);
  faTextAppendType(&res, mlirValueGetType(o));
  faTemplateVarsSetType(vars, "OT", mlirValueGetType(o));
  faTemplateVarsSetType(vars, "OE", elementOf(o));
  faTemplateVarsSetFlag(vars, "OUT_HALF", isHalf(elementOf(o)));
  bool lse = faGridwiseAttentionHasLse(op);
  faTemplateVarsSetFlag(vars, "LSE", lse);
  if (lse) {
    MlirType lt = mlirValueGetType(mlirOperationGetResult(op, 1));
    faTextAppend(&res, ", ");
    faTextAppendType(&res, lt);
    faTemplateVarsSetType(vars, "LT", lt);
  }
  faTemplateVarsSet(vars, "RESULTS", "%s", res.data);
  faTextDestroy(&res);
}

static void setAttributes(FaTemplateVars *vars, MlirOperation op) {
  faTemplateVarsSet(vars, "SCALE", "%.9e", faGridwiseAttentionGetScale(op));
  int64_t offset;
  faTemplateVarsSetFlag(vars, "CAUSAL", faGridwiseAttentionGetCausalOffset(op, &offset));
  faTemplateVarsSetInt(vars, "CAUSAL_OFFSET", (long)offset);
}

/* VAR: the names of (batch, heads, sequence, head dim) in the order tensor
 * `t` keeps its dims, joined by ", " (each with `prefix`). */
static void setDimOrder(FaTemplateVars *vars, const char *var, MlirOperation op,
                        FaAttentionTensor t, const char *const names[4], const char *prefix) {
  const char *byAxis[4];
  for (int d = FA_DIM_BATCH; d <= FA_DIM_HEAD; ++d)
    byAxis[faGridwiseAttentionGetAxis(op, t, d)] = names[d];
  faTemplateVarsSet(vars, var, "%s%s, %s%s, %s%s, %s%s", prefix, byAxis[0], prefix, byAxis[1],
                    prefix, byAxis[2], prefix, byAxis[3]);
}

/* Where each tensor keeps its dims (the op's layout attributes). */
static void setLayouts(FaTemplateVars *vars, MlirOperation op) {
  static const char *const kQ[4] = {"b", "h", "i", "d"}, *const kK[4] = {"b", "hk", "j", "d"},
                           *const kV[4] = {"b", "hk", "j", "e"},
                           *const kO[4] = {"B", "Hq", "M", "Dv"},
                           *const kOMap[4] = {"b", "h", "i", "e"};
  setDimOrder(vars, "Q_INDEX", op, FA_ATTENTION_Q, kQ, "%");
  setDimOrder(vars, "K_INDEX", op, FA_ATTENTION_K, kK, "%");
  setDimOrder(vars, "V_INDEX", op, FA_ATTENTION_V, kV, "%");
  setDimOrder(vars, "O_SIZES", op, FA_ATTENTION_O, kO, "%");
  setDimOrder(vars, "O_MAP", op, FA_ATTENTION_O, kOMap, "");
  faTemplateVarsSetInt(vars, "Q_HEADS", (long)faGridwiseAttentionGetAxis(op, FA_ATTENTION_Q, FA_DIM_HEADS));
  faTemplateVarsSetInt(vars, "Q_SEQ", (long)faGridwiseAttentionGetAxis(op, FA_ATTENTION_Q, FA_DIM_SEQ));
  faTemplateVarsSetInt(vars, "V_HEADS", (long)faGridwiseAttentionGetAxis(op, FA_ATTENTION_V, FA_DIM_HEADS));
  faTemplateVarsSetInt(vars, "V_SEQ", (long)faGridwiseAttentionGetAxis(op, FA_ATTENTION_V, FA_DIM_SEQ));
}

/* Appends @NAME, the reference of `op`, to `module`. */
static MlirLogicalResult appendReference(MlirOperation module, MlirOperation op,
                                         const char *name) {
  FaTemplateVars vars;
  faTemplateVarsInit(&vars);
  faTemplateVarsSet(&vars, "NAME", "%s", name);
  MlirValue q = mlirOperationGetOperand(op, 0);
  faTemplateVarsSetType(&vars, "E", elementOf(q));
  faTemplateVarsSetFlag(&vars, "HALF", isHalf(elementOf(q)));
  static const char *const kOptional[] = {"BIAS",           "BIAS_HALF", "KVLEN",
                                          "KVLEN_PER_HEAD", "SINKS",     "SINKS_HALF"};
  for (size_t i = 0; i < sizeof kOptional / sizeof kOptional[0]; ++i)
    faTemplateVarsSetFlag(&vars, kOptional[i], false);
  setOperands(&vars, op);
  setFunctions(&vars, op);
  setResults(&vars, op);
  setAttributes(&vars, op);
  setLayouts(&vars, op);
  FaText t;
  faTextInit(&t);
  const char *missing = faTextAppendTemplate(&t, faTemplateReferenceAttention, &vars);
  MlirLogicalResult ok = missing ? mlirLogicalResultFailure() : faModuleAppendParsed(module, &t);
  faTextDestroy(&t);
  faTemplateVarsDestroy(&vars);
  return ok;
}

static void runDecomposeAttention(MlirOperation module, MlirExternalPass pass,
                                  const void *state) {
  FaOpList ops = faOperationCollect(module, isAttention, MlirWalkPreOrder);
  for (size_t i = 0; i < ops.size; ++i) {
    char name[64];
    snprintf(name, sizeof name, "fa_reference_%zu", i);
    if (mlirLogicalResultIsFailure(appendReference(module, ops.ops[i], name))) {
      mlirEmitError(mlirOperationGetLocation(ops.ops[i]),
                    "fa-decompose-attention: internal error: the reference did not parse");
      mlirExternalPassSignalFailure(pass);
      break;
    }
    faOperationReplaceWithCall(ops.ops[i], name);
  }
  faOpListDestroy(&ops);
}

static const FaPassDef kDecomposeAttentionPass = {
    "FaDecomposeAttention", "fa-decompose-attention",
    "Replace fa.gridwise_attention with a call to its naive element-wise reference "
    "(fa-check's reference for hand-written fa ops)",
    "builtin.module", runDecomposeAttention, faLoweringDialects};

MlirPass faDecomposeAttentionPassCreateFromOptions(MlirStringRef options,
                                                   MlirStringCallback errorCallback,
                                                   void *userData) {
  return faPassCreateWithoutOptions(&kDecomposeAttentionPass, options, errorCallback, userData);
}
