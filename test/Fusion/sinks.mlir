// Attention sinks (gpt-oss): a per-head logit concatenated to the scores as a
// last column, the row max subtracted (which the softmax does again: its own
// max is then exactly 0), the softmax over both, the column dropped before
// P*V. Fused into the op's `sinks` operand ([Hq]; neither scaled nor masked,
// as the source's column is not): O = sum_j e^(s_j - m) V_j / (sum_j e^(s_j - m)
// + e^(sink - m)). A fully masked row gives O = 0 in both (the sink takes the
// row). Near misses stay unfused with their remarks: a slice dropping another
// column, the column concatenated first, a per-row column, a scale after the
// concatenation, and a column P*V keeps.
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// RUN: fa-check --split-input-file --input-scale=3 %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-7: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// TOSA, as torch-mlir exports gpt-oss: tile of the reshaped [H] sinks, concat,
// the extra shift by the row max, the softmax, tosa.slice.
// CHECK-LABEL: func.func @sinks_tosa
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}, %arg3) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 0, 0, 0, 0>, scale = 2.500000e-01 : f32} : (tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>, tensor<2xf32>)
// CHECK-NOT: tosa.concat
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @sinks_tosa(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x8x16xf32>, %sinks: tensor<2xf32>) -> tensor<2x8x16xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x16xf32>) -> tensor<2x16x8xf32>
  %s = tosa.matmul %q, %kt, %z, %z : (tensor<2x8x16xf32>, tensor<2x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %shape4 = tosa.const_shape {values = dense<[1, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s, %shape4 : (tensor<2x8x8xf32>, !tosa.shape<4>) -> tensor<1x2x8x8xf32>
  %x = tosa.mul %s4, %c, %sh0 : (tensor<1x2x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x8xf32>
  %hs = tosa.const_shape {values = dense<[1, 2, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %h4 = tosa.reshape %sinks, %hs : (tensor<2xf32>, !tosa.shape<4>) -> tensor<1x2x1x1xf32>
  %mult = tosa.const_shape {values = dense<[1, 1, 8, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %col = tosa.tile %h4, %mult : (tensor<1x2x1x1xf32>, !tosa.shape<4>) -> tensor<1x2x8x1xf32>
  %cat = tosa.concat %x, %col {axis = 3 : i32} : (tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x9xf32>
  %m0 = tosa.reduce_max %cat {axis = 3 : i32} : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x1xf32>
  %sh = tosa.sub %cat, %m0 : (tensor<1x2x8x9xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x9xf32>
  %m1 = tosa.reduce_max %sh {axis = 3 : i32} : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x1xf32>
  %d = tosa.sub %sh, %m1 : (tensor<1x2x8x9xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x9xf32>
  %e = tosa.exp %d : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x9xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %p = tosa.mul %e, %r, %sh0 : (tensor<1x2x8x9xf32>, tensor<1x2x8x1xf32>, tensor<1xi8>) -> tensor<1x2x8x9xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %ps = tosa.slice %p, %start, %shape4 : (tensor<1x2x8x9xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x2x8x8xf32>
  %shape3 = tosa.const_shape {values = dense<[2, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %ps, %shape3 : (tensor<1x2x8x8xf32>, !tosa.shape<3>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p3, %v, %z, %z : (tensor<2x8x8xf32>, tensor<2x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// linalg: a bf16 [H] sinks broadcast by a generic that extends it, a causal
// mask that hides every key of rows 0 and 1 (j > i - 2: causal_offset = -2;
// the sink takes those rows, O = 0), linalg.softmax, tensor.extract_slice.
// CHECK-LABEL: func.func @sinks_linalg_masked_rows
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %arg3) {causal_offset = -2 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 0, 0, 0, 0>, scale = 2.500000e-01 : f32} : ({{.*}}, tensor<2xbf16>)
// CHECK-NOT: tensor.concat
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @sinks_linalg_masked_rows(%q: tensor<2x2x8x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>, %sinks: tensor<2xbf16>) -> tensor<2x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<2x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>) outs(%sz : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) {
  ^bb0(%e: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %e, %sc : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c2 = arith.constant 2 : index
    %j2 = arith.addi %j, %c2 : index
    %c = arith.cmpi ugt, %j2, %i : index
    %ninf = arith.constant 0xFF800000 : f32
    %r = arith.select %c, %ninf, %y : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %c0 = tensor.empty() : tensor<2x2x8x1xf32>
  %col = linalg.generic {indexing_maps = [affine_map<(b, h, m, n) -> (h)>, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sinks : tensor<2xbf16>) outs(%c0 : tensor<2x2x8x1xf32>) {
  ^bb0(%e: bf16, %o: f32):
    %w = arith.extf %e : bf16 to f32
    linalg.yield %w : f32
  } -> tensor<2x2x8x1xf32>
  %cat = tensor.concat dim(3) %x, %col : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) -> tensor<2x2x8x9xf32>
  %p0 = tensor.empty() : tensor<2x2x8x9xf32>
  %p = linalg.softmax dimension(3) ins(%cat : tensor<2x2x8x9xf32>) outs(%p0 : tensor<2x2x8x9xf32>) -> tensor<2x2x8x9xf32>
  %ps = tensor.extract_slice %p[0, 0, 0, 0] [2, 2, 8, 8] [1, 1, 1, 1] : tensor<2x2x8x9xf32> to tensor<2x2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%ps, %v : tensor<2x2x8x8xf32>, tensor<2x2x8x16xf32>) outs(%oz : tensor<2x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x16xf32>
  return %o : tensor<2x2x8x16xf32>
}

// -----

// The slice drops the first column (a score), not the sink's.
// CHECK-LABEL: func.func @sinks_slice_first
// WHY: remark: fa-fuse-attention: not fused: P reaches P*V through a slice that is not the drop of its last (sink) column
// CHECK-NOT: fa.gridwise_attention
// CHECK: tosa.concat
func.func @sinks_slice_first(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x8x16xf32>, %sinks: tensor<2xf32>) -> tensor<2x8x16xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x16xf32>) -> tensor<2x16x8xf32>
  %s = tosa.matmul %q, %kt, %z, %z : (tensor<2x8x16xf32>, tensor<2x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %shape4 = tosa.const_shape {values = dense<[1, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s, %shape4 : (tensor<2x8x8xf32>, !tosa.shape<4>) -> tensor<1x2x8x8xf32>
  %x = tosa.mul %s4, %c, %sh0 : (tensor<1x2x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x8xf32>
  %hs = tosa.const_shape {values = dense<[1, 2, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %h4 = tosa.reshape %sinks, %hs : (tensor<2xf32>, !tosa.shape<4>) -> tensor<1x2x1x1xf32>
  %mult = tosa.const_shape {values = dense<[1, 1, 8, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %col = tosa.tile %h4, %mult : (tensor<1x2x1x1xf32>, !tosa.shape<4>) -> tensor<1x2x8x1xf32>
  %cat = tosa.concat %x, %col {axis = 3 : i32} : (tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x9xf32>
  %m0 = tosa.reduce_max %cat {axis = 3 : i32} : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x1xf32>
  %sh = tosa.sub %cat, %m0 : (tensor<1x2x8x9xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x9xf32>
  %m1 = tosa.reduce_max %sh {axis = 3 : i32} : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x1xf32>
  %d = tosa.sub %sh, %m1 : (tensor<1x2x8x9xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x9xf32>
  %e = tosa.exp %d : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x9xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %p = tosa.mul %e, %r, %sh0 : (tensor<1x2x8x9xf32>, tensor<1x2x8x1xf32>, tensor<1xi8>) -> tensor<1x2x8x9xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 0, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %ps = tosa.slice %p, %start, %shape4 : (tensor<1x2x8x9xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x2x8x8xf32>
  %shape3 = tosa.const_shape {values = dense<[2, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %ps, %shape3 : (tensor<1x2x8x8xf32>, !tosa.shape<3>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p3, %v, %z, %z : (tensor<2x8x8xf32>, tensor<2x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// The column is concatenated first: the last column P drops is a score.
// CHECK-LABEL: func.func @sinks_concat_first
// WHY: remark: fa-fuse-attention: not fused: the dropped column is not a sink column of [B, H, M, N + 1] scores
// CHECK-NOT: fa.gridwise_attention
// CHECK: tosa.concat
func.func @sinks_concat_first(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x8x16xf32>, %sinks: tensor<2xf32>) -> tensor<2x8x16xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x16xf32>) -> tensor<2x16x8xf32>
  %s = tosa.matmul %q, %kt, %z, %z : (tensor<2x8x16xf32>, tensor<2x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %shape4 = tosa.const_shape {values = dense<[1, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s, %shape4 : (tensor<2x8x8xf32>, !tosa.shape<4>) -> tensor<1x2x8x8xf32>
  %x = tosa.mul %s4, %c, %sh0 : (tensor<1x2x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x8xf32>
  %hs = tosa.const_shape {values = dense<[1, 2, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %h4 = tosa.reshape %sinks, %hs : (tensor<2xf32>, !tosa.shape<4>) -> tensor<1x2x1x1xf32>
  %mult = tosa.const_shape {values = dense<[1, 1, 8, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %col = tosa.tile %h4, %mult : (tensor<1x2x1x1xf32>, !tosa.shape<4>) -> tensor<1x2x8x1xf32>
  %cat = tosa.concat %col, %x {axis = 3 : i32} : (tensor<1x2x8x1xf32>, tensor<1x2x8x8xf32>) -> tensor<1x2x8x9xf32>
  %m0 = tosa.reduce_max %cat {axis = 3 : i32} : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x1xf32>
  %sh = tosa.sub %cat, %m0 : (tensor<1x2x8x9xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x9xf32>
  %m1 = tosa.reduce_max %sh {axis = 3 : i32} : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x1xf32>
  %d = tosa.sub %sh, %m1 : (tensor<1x2x8x9xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x9xf32>
  %e = tosa.exp %d : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x9xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %p = tosa.mul %e, %r, %sh0 : (tensor<1x2x8x9xf32>, tensor<1x2x8x1xf32>, tensor<1xi8>) -> tensor<1x2x8x9xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %ps = tosa.slice %p, %start, %shape4 : (tensor<1x2x8x9xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x2x8x8xf32>
  %shape3 = tosa.const_shape {values = dense<[2, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %ps, %shape3 : (tensor<1x2x8x8xf32>, !tosa.shape<3>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p3, %v, %z, %z : (tensor<2x8x8xf32>, tensor<2x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// A column that varies with the query row (an [M] tensor), not the head.
// CHECK-LABEL: func.func @sinks_per_row
// WHY: remark: fa-fuse-attention: not fused: the sink column is not a per-head [H] f32, f16 or bf16 tensor
// CHECK-NOT: fa.gridwise_attention
// CHECK: tosa.concat
func.func @sinks_per_row(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x8x16xf32>, %sinks: tensor<8xf32>) -> tensor<2x8x16xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x16xf32>) -> tensor<2x16x8xf32>
  %s = tosa.matmul %q, %kt, %z, %z : (tensor<2x8x16xf32>, tensor<2x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %shape4 = tosa.const_shape {values = dense<[1, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s, %shape4 : (tensor<2x8x8xf32>, !tosa.shape<4>) -> tensor<1x2x8x8xf32>
  %x = tosa.mul %s4, %c, %sh0 : (tensor<1x2x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x8xf32>
  %hs = tosa.const_shape {values = dense<[1, 1, 8, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %h4 = tosa.reshape %sinks, %hs : (tensor<8xf32>, !tosa.shape<4>) -> tensor<1x1x8x1xf32>
  %mult = tosa.const_shape {values = dense<[1, 2, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %col = tosa.tile %h4, %mult : (tensor<1x1x8x1xf32>, !tosa.shape<4>) -> tensor<1x2x8x1xf32>
  %cat = tosa.concat %x, %col {axis = 3 : i32} : (tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x9xf32>
  %m0 = tosa.reduce_max %cat {axis = 3 : i32} : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x1xf32>
  %sh = tosa.sub %cat, %m0 : (tensor<1x2x8x9xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x9xf32>
  %m1 = tosa.reduce_max %sh {axis = 3 : i32} : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x1xf32>
  %d = tosa.sub %sh, %m1 : (tensor<1x2x8x9xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x9xf32>
  %e = tosa.exp %d : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x9xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %p = tosa.mul %e, %r, %sh0 : (tensor<1x2x8x9xf32>, tensor<1x2x8x1xf32>, tensor<1xi8>) -> tensor<1x2x8x9xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %ps = tosa.slice %p, %start, %shape4 : (tensor<1x2x8x9xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x2x8x8xf32>
  %shape3 = tosa.const_shape {values = dense<[2, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %ps, %shape3 : (tensor<1x2x8x8xf32>, !tosa.shape<3>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p3, %v, %z, %z : (tensor<2x8x8xf32>, tensor<2x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// The scale after the concatenation scales the sink too (the op's is not).
// CHECK-LABEL: func.func @sinks_scaled_after_concat
// WHY: remark: fa-fuse-attention: not fused: the column P drops is not one concatenated to the scores before the softmax
// CHECK-NOT: fa.gridwise_attention
// CHECK: tosa.concat
func.func @sinks_scaled_after_concat(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x8x16xf32>, %sinks: tensor<2xf32>) -> tensor<2x8x16xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x16xf32>) -> tensor<2x16x8xf32>
  %s = tosa.matmul %q, %kt, %z, %z : (tensor<2x8x16xf32>, tensor<2x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %shape4 = tosa.const_shape {values = dense<[1, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s, %shape4 : (tensor<2x8x8xf32>, !tosa.shape<4>) -> tensor<1x2x8x8xf32>
  %x = tosa.mul %s4, %c, %sh0 : (tensor<1x2x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x8xf32>
  %hs = tosa.const_shape {values = dense<[1, 2, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %h4 = tosa.reshape %sinks, %hs : (tensor<2xf32>, !tosa.shape<4>) -> tensor<1x2x1x1xf32>
  %mult = tosa.const_shape {values = dense<[1, 1, 8, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %col = tosa.tile %h4, %mult : (tensor<1x2x1x1xf32>, !tosa.shape<4>) -> tensor<1x2x8x1xf32>
  %cat = tosa.concat %x, %col {axis = 3 : i32} : (tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x9xf32>
  %cat2 = tosa.mul %cat, %c, %sh0 : (tensor<1x2x8x9xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x9xf32>
  %m0 = tosa.reduce_max %cat2 {axis = 3 : i32} : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x1xf32>
  %sh = tosa.sub %cat2, %m0 : (tensor<1x2x8x9xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x9xf32>
  %m1 = tosa.reduce_max %sh {axis = 3 : i32} : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x1xf32>
  %d = tosa.sub %sh, %m1 : (tensor<1x2x8x9xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x9xf32>
  %e = tosa.exp %d : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x9xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %p = tosa.mul %e, %r, %sh0 : (tensor<1x2x8x9xf32>, tensor<1x2x8x1xf32>, tensor<1xi8>) -> tensor<1x2x8x9xf32>
  %start = tosa.const_shape {values = dense<[0, 0, 0, 0]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %ps = tosa.slice %p, %start, %shape4 : (tensor<1x2x8x9xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x2x8x8xf32>
  %shape3 = tosa.const_shape {values = dense<[2, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %ps, %shape3 : (tensor<1x2x8x8xf32>, !tosa.shape<3>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p3, %v, %z, %z : (tensor<2x8x8xf32>, tensor<2x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// The column is not dropped: P*V reads it (V has N + 1 rows).
// CHECK-LABEL: func.func @sinks_column_kept
// WHY: remark: fa-fuse-attention: not fused: the scores pass through an operation the pattern does not understand
// CHECK-NOT: fa.gridwise_attention
// CHECK: tosa.concat
func.func @sinks_column_kept(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x9x16xf32>, %sinks: tensor<2xf32>) -> tensor<2x8x16xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x16xf32>) -> tensor<2x16x8xf32>
  %s = tosa.matmul %q, %kt, %z, %z : (tensor<2x8x16xf32>, tensor<2x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %shape4 = tosa.const_shape {values = dense<[1, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s, %shape4 : (tensor<2x8x8xf32>, !tosa.shape<4>) -> tensor<1x2x8x8xf32>
  %x = tosa.mul %s4, %c, %sh0 : (tensor<1x2x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x8xf32>
  %hs = tosa.const_shape {values = dense<[1, 2, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %h4 = tosa.reshape %sinks, %hs : (tensor<2xf32>, !tosa.shape<4>) -> tensor<1x2x1x1xf32>
  %mult = tosa.const_shape {values = dense<[1, 1, 8, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %col = tosa.tile %h4, %mult : (tensor<1x2x1x1xf32>, !tosa.shape<4>) -> tensor<1x2x8x1xf32>
  %cat = tosa.concat %x, %col {axis = 3 : i32} : (tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x9xf32>
  %m0 = tosa.reduce_max %cat {axis = 3 : i32} : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x1xf32>
  %sh = tosa.sub %cat, %m0 : (tensor<1x2x8x9xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x9xf32>
  %m1 = tosa.reduce_max %sh {axis = 3 : i32} : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x1xf32>
  %d = tosa.sub %sh, %m1 : (tensor<1x2x8x9xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x9xf32>
  %e = tosa.exp %d : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x9xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x2x8x9xf32>) -> tensor<1x2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %p = tosa.mul %e, %r, %sh0 : (tensor<1x2x8x9xf32>, tensor<1x2x8x1xf32>, tensor<1xi8>) -> tensor<1x2x8x9xf32>
  %shape3 = tosa.const_shape {values = dense<[2, 8, 9]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %p, %shape3 : (tensor<1x2x8x9xf32>, !tosa.shape<3>) -> tensor<2x8x9xf32>
  %o = tosa.matmul %p3, %v, %z, %z : (tensor<2x8x9xf32>, tensor<2x9x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}
