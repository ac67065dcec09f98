// Block sparsity from the mask (MaskRange.c, attention_key_range.mlir): with
// 8 x 8 tiles, key tiles that the mask hides for a whole query tile are not
// visited, and tiles it must show whole are not masked. The results must be
// the reference's for every mask, the ones whose interval extension is exact
// (windows, chunks, prefixes, bands), the ones of data (documents, padding:
// tile summaries of the captures) and the ones it cannot bound (a wrapping
// i32 product, a periodic mask, a captured float table): those visit every
// tile.
// RUN: fa-check --split-input-file --int-max=5 %s | FileCheck %s --check-prefix=AGREE
// RUN: fa-opt --split-input-file --fa-lower-attention %s | FileCheck %s
// AGREE-COUNT-7: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// A window of 6 keys ending 3 after the query (q - 3 < k + 6, k <= q + 3), no
// causal_offset: both ends from the mask alone.
// CHECK-LABEL: func.func @window
// CHECK: func.func private @fa_attention_0(
// CHECK: scf.for
// CHECK: arith.shrui
// CHECK-NOT: call @fa_attention_0_mask_range
func.func private @band(%b: index, %h: index, %i: index, %j: index) -> i1 {
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %ihi = arith.addi %i, %c3 : index
  %le = arith.cmpi sle, %j, %ihi : index
  %jw = arith.addi %j, %c6 : index
  %lo = arith.cmpi slt, %ihi, %jw : index
  %r = arith.andi %le, %lo : i1
  return %r : i1
}
func.func @window(%q: tensor<1x2x61x16xf32>, %k: tensor<1x2x67x16xf32>, %v: tensor<1x2x67x16xf32>) -> (tensor<1x2x61x16xf32>, tensor<1x2x61xf32>) {
  %o, %l = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.25 : f32, mask = @band, block_m = 8 : i64, block_n = 8 : i64}
      : (tensor<1x2x61x16xf32>, tensor<1x2x67x16xf32>, tensor<1x2x67x16xf32>) -> (tensor<1x2x61x16xf32>, tensor<1x2x61xf32>)
  return %o, %l : tensor<1x2x61x16xf32>, tensor<1x2x61xf32>
}

// -----

// Chunks of 12 (q // 12 == k // 12, in i64) with causal_offset 0.
func.func private @chunk(%b: index, %h: index, %i: index, %j: index) -> i1 {
  %ii = arith.index_cast %i : index to i64
  %jj = arith.index_cast %j : index to i64
  %c = arith.constant 12 : i64
  %qi = arith.floordivsi %ii, %c : i64
  %kj = arith.floordivsi %jj, %c : i64
  %r = arith.cmpi eq, %qi, %kj : i64
  return %r : i1
}
func.func @chunked(%q: tensor<1x2x50x16xf16>, %k: tensor<1x2x50x16xf16>, %v: tensor<1x2x50x16xf16>) -> tensor<1x2x50x16xf32> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.25 : f32, causal_offset = 0 : i64, mask = @chunk, block_m = 8 : i64, block_n = 8 : i64}
      : (tensor<1x2x50x16xf16>, tensor<1x2x50x16xf16>, tensor<1x2x50x16xf16>) -> tensor<1x2x50x16xf32>
  return %o : tensor<1x2x50x16xf32>
}

// -----

// Prefix-LM: k < 13 or k <= q (the causal part in the mask too), per-head
// prefix from a scalar capture added in i32.
func.func private @prefix(%b: index, %h: index, %i: index, %j: index, %p: i32) -> i1 {
  %jj = arith.index_cast %j : index to i32
  %hh = arith.index_cast %h : index to i32
  %ph = arith.addi %p, %hh : i32
  %inp = arith.cmpi slt, %jj, %ph : i32
  %c = arith.cmpi ule, %j, %i : index
  %r = arith.ori %inp, %c : i1
  return %r : i1
}
func.func @prefix_lm(%q: tensor<2x2x40x16xf32>, %k: tensor<2x2x40x16xf32>, %v: tensor<2x2x40x16xf32>, %p: tensor<1xi32>) -> tensor<2x2x40x16xf32> {
  %c0 = arith.constant 0 : index
  %pv = tensor.extract %p[%c0] : tensor<1xi32>
  %o = "fa.gridwise_attention"(%q, %k, %v, %pv) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.25 : f32, mask = @prefix, block_m = 8 : i64, block_n = 8 : i64}
      : (tensor<2x2x40x16xf32>, tensor<2x2x40x16xf32>, tensor<2x2x40x16xf32>, i32) -> tensor<2x2x40x16xf32>
  return %o : tensor<2x2x40x16xf32>
}

// -----

// An i32 product that wraps: (k * 1000000000) mod 2^32 >= 0. The interval
// cannot bound it (it would wrap): every tile is visited and masked.
func.func private @wrap(%b: index, %h: index, %i: index, %j: index) -> i1 {
  %jj = arith.index_cast %j : index to i32
  %big = arith.constant 1000000000 : i32
  %p = arith.muli %jj, %big : i32
  %z = arith.constant 0 : i32
  %r = arith.cmpi sge, %p, %z : i32
  return %r : i1
}
func.func @wrapping(%q: tensor<1x1x24x16xf32>, %k: tensor<1x1x40x16xf32>, %v: tensor<1x1x40x16xf32>) -> tensor<1x1x24x16xf32> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.25 : f32, mask = @wrap, block_m = 8 : i64, block_n = 8 : i64}
      : (tensor<1x1x24x16xf32>, tensor<1x1x40x16xf32>, tensor<1x1x40x16xf32>) -> tensor<1x1x24x16xf32>
  return %o : tensor<1x1x24x16xf32>
}

// -----

// Every fourth key (k % 4 == 1, unsigned) and a band [q - 9, q + 9].
func.func private @periodic(%b: index, %h: index, %i: index, %j: index) -> i1 {
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %m = arith.remui %j, %c4 : index
  %one = arith.cmpi eq, %m, %c1 : index
  %lo = arith.subi %i, %c9 : index
  %hi = arith.addi %i, %c9 : index
  %a = arith.cmpi sge, %j, %lo : index
  %bb = arith.cmpi sle, %j, %hi : index
  %in = arith.andi %a, %bb : i1
  %r = arith.andi %one, %in : i1
  return %r : i1
}
func.func @periodic_band(%q: tensor<1x2x33x16xf32>, %k: tensor<1x2x70x16xf32>, %v: tensor<1x2x70x16xf32>) -> tensor<1x2x33x16xf32> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.25 : f32, mask = @periodic, block_m = 8 : i64, block_n = 8 : i64}
      : (tensor<1x2x33x16xf32>, tensor<1x2x70x16xf32>, tensor<1x2x70x16xf32>) -> tensor<1x2x33x16xf32>
  return %o : tensor<1x2x33x16xf32>
}

// -----

// Documents from a captured tensor of ids and causal: the kernel summarizes
// the ids (MaskSummary.c) before its loops, frees the summary after, and the
// range function reads it (random ids here: correct, little skipped).
// CHECK-LABEL: func.func @documents
// CHECK: func.func private @fa_attention_0_summary0(
// CHECK: math.ctlz
// CHECK: scf.parallel
// CHECK: func.func private @fa_attention_0(
// CHECK: %[[S:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK: call @fa_attention_0_summary0(%{{.*}}, %[[S]]) {no_inline}
// CHECK: memref.load %[[S]][
// CHECK: memref.dealloc %[[S]]
func.func private @doc(%b: index, %h: index, %i: index, %j: index, %d: tensor<48xi32>) -> i1 {
  %di = tensor.extract %d[%i] : tensor<48xi32>
  %dj = tensor.extract %d[%j] : tensor<48xi32>
  %r = arith.cmpi eq, %di, %dj : i32
  return %r : i1
}
func.func @documents(%q: tensor<1x2x48x16xf32>, %k: tensor<1x2x48x16xf32>, %v: tensor<1x2x48x16xf32>, %d: tensor<48xi32>) -> tensor<1x2x48x16xf32> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %d) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.25 : f32, causal_offset = 0 : i64, mask = @doc, block_m = 8 : i64, block_n = 8 : i64}
      : (tensor<1x2x48x16xf32>, tensor<1x2x48x16xf32>, tensor<1x2x48x16xf32>, tensor<48xi32>) -> tensor<1x2x48x16xf32>
  return %o : tensor<1x2x48x16xf32>
}

// -----

// Packed documents of 80 (ids sorted, per batch, shifted by 7 b) and key
// padding flags (j < 250 - 40 b), rank-2 captures (summaries of 64-key tiles): query tiles inside one
// document see only its key tiles, unmasked inside it; keys past the padding
// are hidden (rows whose keys are all padding are fully masked: 0).
// CHECK-LABEL: func.func @packed
// CHECK: func.func private @fa_attention_0_summary0(
// CHECK: func.func private @fa_attention_0_summary1(
// CHECK: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xi1
// CHECK: arith.extui %{{.*}} : i1 to i64
func.func private @doc_pad(%b: index, %h: index, %i: index, %j: index, %doc: tensor<2x256xi32>, %pad: tensor<2x256xi1>) -> i1 {
  %di = tensor.extract %doc[%b, %i] : tensor<2x256xi32>
  %dj = tensor.extract %doc[%b, %j] : tensor<2x256xi32>
  %same = arith.cmpi eq, %di, %dj : i32
  %p = tensor.extract %pad[%b, %j] : tensor<2x256xi1>
  %r = arith.andi %same, %p : i1
  return %r : i1
}
func.func @packed(%q: tensor<2x2x256x16xf32>, %k: tensor<2x2x256x16xf32>, %v: tensor<2x2x256x16xf32>) -> tensor<2x2x256x16xf32> {
  %e0 = tensor.empty() : tensor<2x256xi32>
  %doc = linalg.generic {indexing_maps = [affine_map<(b, n) -> (b, n)>], iterator_types = ["parallel", "parallel"]} outs(%e0 : tensor<2x256xi32>) {
  ^bb0(%x: i32):
    %b = linalg.index 0 : index
    %n = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %c20 = arith.constant 80 : index
    %sh = arith.muli %b, %c7 : index
    %s = arith.addi %n, %sh : index
    %d = arith.divui %s, %c20 : index
    %di = arith.index_cast %d : index to i32
    linalg.yield %di : i32
  } -> tensor<2x256xi32>
  %e1 = tensor.empty() : tensor<2x256xi1>
  %pad = linalg.generic {indexing_maps = [affine_map<(b, n) -> (b, n)>], iterator_types = ["parallel", "parallel"]} outs(%e1 : tensor<2x256xi1>) {
  ^bb0(%x: i1):
    %b = linalg.index 0 : index
    %n = linalg.index 1 : index
    %c9 = arith.constant 40 : index
    %c61 = arith.constant 250 : index
    %sh = arith.muli %b, %c9 : index
    %len = arith.subi %c61, %sh : index
    %in = arith.cmpi ult, %n, %len : index
    linalg.yield %in : i1
  } -> tensor<2x256xi1>
  %o = "fa.gridwise_attention"(%q, %k, %v, %doc, %pad) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 1, 0, 0>, scale = 0.25 : f32, causal_offset = 0 : i64, mask = @doc_pad, block_m = 8 : i64, block_n = 8 : i64}
      : (tensor<2x2x256x16xf32>, tensor<2x2x256x16xf32>, tensor<2x2x256x16xf32>, tensor<2x256xi32>, tensor<2x256xi1>) -> tensor<2x2x256x16xf32>
  return %o : tensor<2x2x256x16xf32>
}
