/* Block sparsity for data masks: tile summaries of the tensors a mask reads.
 *
 * A mask that compares data (document ids: doc[i] == doc[j]; per-key
 * padding flags: pad[b, j] != 0) cannot be bounded from the IR alone. For
 * each captured tensor of integers the mask reads, the kernel's host
 * function makes a summary before its launch (SUMMARY_BEGIN; on the device
 * for GPU targets) and frees it after (SUMMARY_END): a sparse table of the
 * minimum and maximum of each row of the capture over runs of 2^l tiles of
 * 64 elements of its last axis (Kernels/Common/attention_mask_summary.mlir).
 * The mask's interval extension (MaskRange.c) reads it: a tensor.extract at
 * index intervals (leading indices one point, the last an interval) lies
 * between the minimum and maximum of two runs that cover the interval. So
 * the kernels' key-tile search and their "the mask must keep this tile
 * whole" test work on data masks as on index masks: packed documents visit
 * only their own key tiles and skip the mask inside a document.
 * docs/lowering.md, "Block sparsity". */
#include "Lowering/AttentionKernel.h"
#include "Support/Builders.h"
#include "Support/IRText.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>

enum { SUMMARY_THREADS = 256, SUMMARY_MAX_RANK = 4, DOC_MAX = 1024 };

static bool docRuns(const FaAttentionKernel *k);

/* Whether `fn` (the mask) reads its argument `arg` with tensor.extract. */
static bool extractsFrom(MlirOperation fn, intptr_t arg) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  MlirValue v = mlirBlockGetArgument(entry, arg);
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (faOpIsA(op, "tensor.extract") && mlirValueEqual(mlirOperationGetOperand(op, 0), v))
      return true;
  return false;
}

/* A ranked tensor of rank 1..4 of integers of at most 64 bits. */
static bool summarizable(MlirValue capture) {
  MlirType t = mlirValueGetType(capture);
  if (!mlirTypeIsARankedTensor(t))
    return false;
  intptr_t rank = mlirShapedTypeGetRank(t);
  MlirType elt = mlirShapedTypeGetElementType(t);
  return rank >= 1 && rank <= SUMMARY_MAX_RANK && mlirTypeIsAInteger(elt) &&
         mlirIntegerTypeGetWidth(elt) <= 64;
}

void faAttentionPlanSummaries(FaAttentionKernel *k) {
  k->numSummaries = 0;
  for (intptr_t c = 0; c < FA_ATTENTION_MAX_CAPTURES; ++c)
    k->summaryOf[c] = -1;
  if (mlirOperationIsNull(k->maskFn))
    return;
  for (intptr_t c = 0; c < k->numCaptures; ++c)
    if (summarizable(k->captures[c]) && extractsFrom(k->maskFn, 4 + c))
      k->summaryOf[c] = k->numSummaries++;
}

/* --- the summary functions -------------------------------------------------- */

/* %sd0.. (the dims), %R (rows: the leading dims' product), %L (the last). */
static void appendDims(FaText *t, const char *capType, int rank) {
  faTextAppend(t, "  %%sk0 = arith.constant 0 : index\n  %%sr0 = arith.constant 1 : index\n");
  for (int d = 0; d < rank; ++d) {
    if (d)
      faTextAppend(t, "  %%sk%d = arith.constant %d : index\n", d, d);
    faTextAppend(t, "  %%sd%d = memref.dim %%cap, %%sk%d : %s\n", d, d, capType);
  }
  for (int d = 0; d + 1 < rank; ++d)
    faTextAppend(t, "  %%sr%d = arith.muli %%sr%d, %%sd%d : index\n", d + 1, d, d);
  faTextAppend(t, "  %%R = arith.addi %%sr%d, %%sk0 : index\n", rank - 1);
  faTextAppend(t, "  %%L = arith.addi %%sd%d, %%sk0 : index\n", rank - 1);
}

/* The leading indices %ri0.. of row %row (row-major over the leading dims). */
static void appendRowIndex(FaText *t, int rank) {
  faTextAppend(t, "  %%rq%d = arith.addi %%row, %%sk0 : index\n", rank - 1);
  for (int d = rank - 2; d >= 0; --d)
    faTextAppend(t, "  %%ri%d = arith.remui %%rq%d, %%sd%d : index\n"
                    "  %%rq%d = arith.divui %%rq%d, %%sd%d : index\n",
                 d, d + 1, d, d, d + 1, d);
}

/* %x: the element at (%ri0, .., %ec) as i64 (i1 zero-, others sign-extended). */
static void appendLoad(FaText *t, const char *capType, int rank, MlirType elt) {
  faTextAppend(t, "  %%xv = memref.load %%cap[");
  for (int d = 0; d + 1 < rank; ++d)
    faTextAppend(t, "%%ri%d, ", d);
  faTextAppend(t, "%%ec] : %s\n", capType);
  unsigned w = mlirIntegerTypeGetWidth(elt);
  if (w == 64)
    faTextAppend(t, "  %%xv0 = arith.constant 0 : i64\n  %%x = arith.addi %%xv, %%xv0 : i64\n");
  else
    faTextAppend(t, "  %%x = arith.%s %%xv : i%u to i64\n", w == 1 ? "extui" : "extsi", w);
}

static const char *appendSummary(FaText *t, const FaAttentionKernel *k, intptr_t c) {
  FaText capType, dims, row, load;
  faTextInit(&capType);
  faTextInit(&dims);
  faTextInit(&row);
  faTextInit(&load);
  faAttentionAppendCaptureType(&capType, k, c);
  MlirType type = mlirValueGetType(k->captures[c]);
  int rank = (int)mlirShapedTypeGetRank(type);
  appendDims(&dims, capType.data, rank);
  appendRowIndex(&row, rank);
  appendLoad(&load, capType.data, rank, mlirShapedTypeGetElementType(type));
  FaTemplateVars vars;
  faTemplateVarsInit(&vars);
  faTemplateVarsSet(&vars, "NAME", "%s", k->name);
  faTemplateVarsSetInt(&vars, "S", k->summaryOf[c]);
  faTemplateVarsSetText(&vars, "CAP_TYPE", capType.data);
  faTemplateVarsSetText(&vars, "DIMS", dims.data);
  faTemplateVarsSetText(&vars, "ROW_INDEX", row.data);
  faTemplateVarsSetText(&vars, "LOAD_ELT", load.data);
  faTemplateVarsSetInt(&vars, "THREADS", SUMMARY_THREADS);
  faTemplateVarsSetFlag(&vars, "GPU", k->onGpu);
  faTemplateVarsSetFlag(&vars, "SKIP", docRuns(k));
  const char *missing = faTextAppendTemplate(t, faTemplateAttentionMaskSummary, &vars);
  faTemplateVarsDestroy(&vars);
  faTextDestroy(&capType);
  faTextDestroy(&dims);
  faTextDestroy(&row);
  faTextDestroy(&load);
  return faTemplateError("the mask's tile summary", missing);
}

bool faAttentionUsesKeyTable(const FaAttentionKernel *k) {
  return k->onGpu && k->numSummaries > 0 && faAttentionUsesTensorCores(k);
}

/* Whether packed documents may take their own work items (the key-range
 * table's first launch, before the summaries, which it may skip). */
static bool docRuns(const FaAttentionKernel *k) {
  return faAttentionUsesWorkOrder(k) && faAttentionDocumentCapture(k) >= 0;
}

bool faAttentionUsesWorkOrder(const FaAttentionKernel *k) {
  return faAttentionUsesKeyTable(k) && k->kernel == FA_KERNEL_WGMMA &&
         faAttentionWgmmaTakesWorkOrder(k);
}

/* The capture read by the extract `op` at the mask's argument `index`
 * (2: the query, 3: the key), else -1. */
static intptr_t extractAt(const FaAttentionKernel *k, MlirOperation op, intptr_t index) {
  if (!faOpIsA(op, "tensor.extract") || mlirOperationGetNumOperands(op) != 2)
    return -1;
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(k->maskFn, 0));
  if (!mlirValueEqual(mlirOperationGetOperand(op, 1), mlirBlockGetArgument(entry, index)))
    return -1;
  for (intptr_t c = 0; c < k->numCaptures; ++c)
    if (mlirValueEqual(mlirOperationGetOperand(op, 0), mlirBlockGetArgument(entry, 4 + c)))
      return c;
  return -1;
}

intptr_t faAttentionDocumentCapture(const FaAttentionKernel *k) {
  if (mlirOperationIsNull(k->maskFn))
    return -1;
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(k->maskFn, 0));
  MlirOperation ops[4];
  int n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (n++ < 4)
      ops[n - 1] = op;
  if (n != 4 || !faOpIsA(ops[2], "arith.cmpi") || !faOpIsA(ops[3], "func.return"))
    return -1;
  MlirAttribute pred = mlirOperationGetAttributeByName(ops[2], mlirStringRefCreateFromCString("predicate"));
  if (mlirAttributeIsNull(pred) || !mlirAttributeIsAInteger(pred) ||
      mlirIntegerAttrGetValueInt(pred) != 0 /* eq */)
    return -1;
  MlirValue r0 = mlirOperationGetResult(ops[0], 0), r1 = mlirOperationGetResult(ops[1], 0);
  MlirValue a = mlirOperationGetOperand(ops[2], 0), b = mlirOperationGetOperand(ops[2], 1);
  bool ordered = mlirValueEqual(a, r0) && mlirValueEqual(b, r1);
  bool swapped = mlirValueEqual(a, r1) && mlirValueEqual(b, r0);
  if ((!ordered && !swapped) ||
      !mlirValueEqual(mlirOperationGetOperand(ops[3], 0), mlirOperationGetResult(ops[2], 0)))
    return -1;
  intptr_t c = extractAt(k, ops[0], 2);
  intptr_t ck = extractAt(k, ops[1], 3);
  if (c < 0) { /* the key read first */
    c = extractAt(k, ops[0], 3);
    ck = extractAt(k, ops[1], 2);
  }
  if (c < 0 || c != ck || k->summaryOf[c] < 0 ||
      mlirShapedTypeGetRank(mlirValueGetType(k->captures[c])) != 1)
    return -1;
  return c;
}

static const char *appendKeyTable(FaText *t, const FaAttentionKernel *k) {
  FaText params, types, values;
  faTextInit(&params);
  faTextInit(&types);
  faTextInit(&values);
  faAttentionAppendRangeCaptures(&params, k, FA_CAPTURES_FULL_PARAMS);
  faAttentionAppendRangeCaptures(&types, k, FA_CAPTURES_FULL_TYPES);
  faAttentionAppendRangeCaptures(&values, k, FA_CAPTURES_VALUES);
  FaTemplateVars vars;
  faTemplateVarsInit(&vars);
  faTemplateVarsSet(&vars, "NAME", "%s", k->name);
  faTemplateVarsSetText(&vars, "RANGE_PARAMS", params.data);
  faTemplateVarsSetText(&vars, "RANGE_CAPS", values.data);
  faTemplateVarsSetText(&vars, "RANGE_CAP_TYPES", types.data);
  faTemplateVarsSet(&vars, "RANGE_FN", "%s_mask_range", k->name);
  faTemplateVarsSetInt(&vars, "BN", 64);
  faTemplateVarsSetInt(&vars, "THREADS", SUMMARY_THREADS);
  faTemplateVarsSetFlag(&vars, "KEY_TABLE", false);
  faTemplateVarsSetFlag(&vars, "WORK_ORDER", faAttentionUsesWorkOrder(k));
  faTemplateVarsSetInt(&vars, "WORK_BM", FA_WORK_ORDER_ROWS);
  /* Packed documents: their starts in workgroup memory, at most DOC_MAX. */
  intptr_t doc = faAttentionUsesWorkOrder(k) ? faAttentionDocumentCapture(k) : -1;
  FaText docType;
  faTextInit(&docType);
  if (doc >= 0)
    faAttentionAppendCaptureType(&docType, k, doc);
  else
    faTextAppend(&docType, "memref<?xi32>");
  faTemplateVarsSetFlag(&vars, "DOC_RUNS", doc >= 0);
  faTemplateVarsSetInt(&vars, "DOC_CAP", (long)(doc >= 0 ? doc : 0));
  faTemplateVarsSetInt(&vars, "DOC_S", doc >= 0 ? k->summaryOf[doc] : 0);
  faTemplateVarsSetText(&vars, "DOC_CAP_TYPE", docType.data);
  faTemplateVarsSetInt(&vars, "DOC_MAX", DOC_MAX);
  faTemplateVarsSetFlag(&vars, "CAUSAL", k->causal);
  faTemplateVarsSetInt(&vars, "CAUSAL_OFFSET", k->causalOffset);
  const char *missing = faTextAppendTemplate(t, faTemplateAttentionKeyTable, &vars);
  faTemplateVarsDestroy(&vars);
  faTextDestroy(&docType);
  faTextDestroy(&params);
  faTextDestroy(&types);
  faTextDestroy(&values);
  return faTemplateError("the mask's key-range table", missing);
}

/* Parses `t` into `module`; NULL or `why`. */
static const char *appendParsed(MlirOperation module, FaText *t, const char *missing,
                                const char *why) {
  if (!missing && mlirLogicalResultIsFailure(faModuleAppendParsed(module, t)))
    missing = why;
  faTextDestroy(t);
  return missing;
}

const char *faAttentionAppendSummaries(MlirOperation module, const FaAttentionKernel *k) {
  for (intptr_t c = 0; c < k->numCaptures; ++c) {
    if (k->summaryOf[c] < 0)
      continue;
    FaText t;
    faTextInit(&t);
    const char *missing = appendParsed(module, &t, appendSummary(&t, k, c),
                                       "the mask's tile summary did not parse");
    if (missing)
      return missing;
  }
  if (!faAttentionUsesKeyTable(k))
    return NULL;
  FaText t;
  faTextInit(&t);
  return appendParsed(module, &t, appendKeyTable(&t, k), "the mask's key-range table did not parse");
}

/* --- what the kernels' templates say ---------------------------------------- */

static void appendDeclarations(FaText *t, const FaAttentionKernel *k, intptr_t c) {
  int s = k->summaryOf[c];
  faTextAppend(t, "func.func private @%s_summary_size%d(!C%ld) -> index\n", k->name, s, (long)c);
  faTextAppend(t, "func.func private @%s_summary%d(!C%ld, memref<?xi64>%s)\n", k->name, s, (long)c,
               docRuns(k) ? ", memref<?xi32>, index" : "");
}

/* A summary's allocation (%sumS). */
static void appendAlloc(FaText *t, const FaAttentionKernel *k, intptr_t c) {
  int s = k->summaryOf[c];
  long n = (long)c;
  faTextAppend(t, "  %%sum%d_n = func.call @%s_summary_size%d(%%cap%ld) : (!C%ld) -> index\n", s,
               k->name, s, n, n);
  if (k->onGpu)
    faTextAppend(t,
                 "  %%sum%d_w = gpu.wait async\n"
                 "  %%sum%d, %%sum%d_a = gpu.alloc async [%%sum%d_w] (%%sum%d_n) : memref<?xi64>\n"
                 "  gpu.wait [%%sum%d_a]\n",
                 s, s, s, s, s, s);
  else
    faTextAppend(t, "  %%sum%d = memref.alloc(%%sum%d_n) : memref<?xi64>\n", s, s);
}

/* Its launch (skipped where packed documents took their own work items). */
static void appendCompute(FaText *t, const FaAttentionKernel *k, intptr_t c) {
  int s = k->summaryOf[c];
  long n = (long)c;
  bool skip = docRuns(k);
  faTextAppend(t, "  func.call @%s_summary%d(%%cap%ld, %%sum%d%s) {no_inline} : (!C%ld, memref<?xi64>%s) -> ()\n",
               k->name, s, n, s, skip ? ", %keytab, %kt_flag" : "", n,
               skip ? ", memref<?xi32>, index" : "");
}

static void appendEnd(FaText *t, const FaAttentionKernel *k, intptr_t c) {
  int s = k->summaryOf[c];
  if (k->onGpu)
    faTextAppend(t,
                 "  %%sum%d_f = gpu.wait async\n"
                 "  %%sum%d_d = gpu.dealloc async [%%sum%d_f] %%sum%d : memref<?xi64>\n"
                 "  gpu.wait [%%sum%d_d]\n",
                 s, s, s, s, s);
  else
    faTextAppend(t, "  memref.dealloc %%sum%d : memref<?xi64>\n", s);
}

/* The key-range table's declaration, allocation and launch, and free:
 * 4 x B x Hq x ceil(M / 64) i32 (attention_key_table.mlir), then with the
 * work order its count and flag (4 i32) and records, 4 i32 for each of at
 * most 4 x B x Hq x ceil(M / FA_WORK_ORDER_ROWS) items. */
static void keyTableDeclaration(FaText *t, const FaAttentionKernel *k) {
  faTextAppend(t, "func.func private @%s_keytable(index, index, index, index, index", k->name);
  faAttentionAppendRangeCaptures(t, k, FA_CAPTURES_TYPES);
  faTextAppend(t, ")\n");
}

/* Its allocation (%keytab; %kt_flag: where packed documents' work items are
 * flagged, attention_key_table.mlir). */
static void keyTableAlloc(FaText *t, const FaAttentionKernel *k) {
  faTextAppend(t, "  %%kt_g = arith.constant 64 : index\n"
                  "  %%kt_4 = arith.constant 4 : index\n"
                  "  %%kt_r = arith.ceildivui %%M, %%kt_g : index\n"
                  "  %%kt_bh = arith.muli %%B, %%Hq : index\n"
                  "  %%kt_r2 = arith.muli %%kt_r, %%kt_4 : index\n"
                  "  %%kt_e0 = arith.muli %%kt_bh, %%kt_r2 : index\n"
                  "  %%kt_1 = arith.constant 1 : index\n"
                  "  %%kt_flag = arith.addi %%kt_e0, %%kt_1 : index\n");
  if (faAttentionUsesWorkOrder(k))
    faTextAppend(t, "  %%kt_wr = arith.constant %d : index\n"
                    "  %%kt_wt = arith.ceildivui %%M, %%kt_wr : index\n"
                    "  %%kt_wn = arith.muli %%kt_bh, %%kt_wt : index\n"
                    "  %%kt_16 = arith.constant 16 : index\n"
                    "  %%kt_wr8 = arith.muli %%kt_wn, %%kt_16 : index\n"
                    "  %%kt_e1 = arith.addi %%kt_e0, %%kt_4 : index\n"
                    "  %%kt_e = arith.addi %%kt_e1, %%kt_wr8 : index\n",
                 (int)FA_WORK_ORDER_ROWS);
  else
    faTextAppend(t, "  %%kt_e = arith.addi %%kt_e0, %%kt_1 : index\n");
  faTextAppend(t, "  %%kt_w = gpu.wait async\n"
                  "  %%keytab, %%kt_a = gpu.alloc async [%%kt_w] (%%kt_e) : memref<?xi32>\n"
                  "  gpu.wait [%%kt_a]\n");
}

/* Its launch in `mode` (0: entries and order; 1: packed documents; 2: their
 * flag cleared). */
static void keyTableCall(FaText *t, const FaAttentionKernel *k, int mode) {
  faTextAppend(t, "  %%kt_m%d = arith.constant %d : index\n"
                  "  func.call @%s_keytable(%%kt_m%d, %%B, %%Hq, %%M, %%N",
               mode, mode, k->name, mode);
  faAttentionAppendRangeCaptures(t, k, FA_CAPTURES_VALUES);
  faTextAppend(t, ") {no_inline} : (index, index, index, index, index");
  faAttentionAppendRangeCaptures(t, k, FA_CAPTURES_TYPES);
  faTextAppend(t, ") -> ()\n");
}

static void keyTableEnd(FaText *t, const FaAttentionKernel *k) {
  (void)k;
  faTextAppend(t, "  %%kt_f = gpu.wait async\n"
                  "  %%kt_d = gpu.dealloc async [%%kt_f] %%keytab : memref<?xi32>\n"
                  "  gpu.wait [%%kt_d]\n");
}

void faAttentionSetSummaryVars(FaTemplateVars *vars, const FaAttentionKernel *k,
                               bool ownDocuments) {
  static const char *const kNames[3] = {"SUMMARY_DECLS", "SUMMARY_BEGIN", "SUMMARY_END"};
  bool table = faAttentionUsesKeyTable(k), docs = docRuns(k);
  for (int p = 0; p < 3; ++p) {
    FaText t;
    faTextInit(&t);
    faTextAppend(&t, "// (MaskSummary.c)\n");
    for (intptr_t c = 0; c < k->numCaptures; ++c)
      if (k->summaryOf[c] >= 0)
        (p == 0 ? appendDeclarations : p == 1 ? appendAlloc : appendEnd)(&t, k, c);
    if (table && p == 0)
      keyTableDeclaration(&t, k);
    if (table && p == 1)
      keyTableAlloc(&t, k);
    if (docs && p == 1) /* packed documents first: they may skip the rest */
      keyTableCall(&t, k, ownDocuments ? 1 : 2);
    for (intptr_t c = 0; p == 1 && c < k->numCaptures; ++c)
      if (k->summaryOf[c] >= 0)
        appendCompute(&t, k, c);
    if (table && p == 1)
      keyTableCall(&t, k, 0);
    if (table && p == 2)
      keyTableEnd(&t, k);
    faTemplateVarsSetText(vars, kNames[p], t.data);
    faTextDestroy(&t);
  }
}
