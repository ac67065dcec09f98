// Heads folded into the query axis (GPTBigCode's multi-query attention, as
// transformers writes it): Q [B, M, H*D] reshaped to [B, M*H, D] against the
// one K^T [B, D, N], the scores viewed as [B, M, H, N] for a causal mask on the
// query index i, the softmax, and P folded back to [B, M*H, N] for P*V with the
// one V [B, N, Dv]. Row r of the fold is query i = floor(r / H) of head
// h = r mod H (lib/Fusion/BatchViews.c). Where only the query floor(r / H) is
// read, the op takes the heads: Hq = H, Hkv = 1 (K and V read once), Q and O
// [B, M, H, D] views of the folded rows (q_bshd, o_bshd), the causal mask its
// causal_offset. With a bias the op keeps the folded rows (attention over M*H
// rows of one head, the mask a function of floor(r / H): exact, index
// arithmetic). A mask that varies with the head stays unfused.
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// RUN: fa-check --split-input-file --input-scale=3 %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-3: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// CHECK-LABEL: func.func @mqa_fold
// CHECK: %[[Q:.*]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3]] output_shape [1, 8, 2, 16] : tensor<1x16x16xf32> into tensor<1x8x2x16xf32>
// CHECK: %[[K:.*]] = tensor.expand_shape %arg1 {{\[\[}}0, 1], [2], [3]] output_shape [1, 1, 16, 8]
// CHECK: %[[V:.*]] = tensor.expand_shape %arg2 {{\[\[}}0, 1], [2], [3]] output_shape [1, 1, 8, 16]
// CHECK: %[[O:.*]] = "fa.gridwise_attention"(%[[Q]], %[[K]], %[[V]]) {causal_offset = 0 : i64, k_transposed, o_bshd, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, scale = 2.500000e-01 : f32} : (tensor<1x8x2x16xf32>, tensor<1x1x16x8xf32>, tensor<1x1x8x16xf32>) -> tensor<1x8x2x16xf32>
// CHECK: tensor.collapse_shape %[[O]] {{\[\[}}0], [1, 2], [3]] : tensor<1x8x2x16xf32> into tensor<1x16x16xf32>
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @mqa_fold(%q: tensor<1x8x32xf32>, %kt: tensor<1x16x8xf32>, %v: tensor<1x8x16xf32>) -> tensor<1x16x16xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %lowest = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %iota = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>}> : () -> tensor<8xi64>
  %rs = tosa.const_shape {values = dense<[8, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %cs = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %row = tosa.reshape %iota, %rs : (tensor<8xi64>, !tosa.shape<2>) -> tensor<8x1xi64>
  %col = tosa.reshape %iota, %cs : (tensor<8xi64>, !tosa.shape<2>) -> tensor<1x8xi64>
  %vis = tosa.greater_equal %row, %col : (tensor<8x1xi64>, tensor<1x8xi64>) -> tensor<8x8xi1>
  %ms = tosa.const_shape {values = dense<[1, 8, 1, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %mask = tosa.reshape %vis, %ms : (tensor<8x8xi1>, !tosa.shape<4>) -> tensor<1x8x1x8xi1>
  %qs = tosa.const_shape {values = dense<[1, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %qf = tosa.reshape %q, %qs : (tensor<1x8x32xf32>, !tosa.shape<3>) -> tensor<1x16x16xf32>
  %s = tosa.matmul %qf, %kt, %z, %z : (tensor<1x16x16xf32>, tensor<1x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x8xf32>
  %x = tosa.mul %s, %c, %sh0 : (tensor<1x16x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x16x8xf32>
  %s4 = tosa.const_shape {values = dense<[1, 8, 2, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %x4 = tosa.reshape %x, %s4 : (tensor<1x16x8xf32>, !tosa.shape<4>) -> tensor<1x8x2x8xf32>
  %w = tosa.select %mask, %x4, %lowest : (tensor<1x8x1x8xi1>, tensor<1x8x2x8xf32>, tensor<1x1x1x1xf32>) -> tensor<1x8x2x8xf32>
  %m0 = tosa.reduce_max %w {axis = 3 : i32} : (tensor<1x8x2x8xf32>) -> tensor<1x8x2x1xf32>
  %d = tosa.sub %w, %m0 : (tensor<1x8x2x8xf32>, tensor<1x8x2x1xf32>) -> tensor<1x8x2x8xf32>
  %e = tosa.exp %d : (tensor<1x8x2x8xf32>) -> tensor<1x8x2x8xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x8x2x8xf32>) -> tensor<1x8x2x1xf32>
  %r = tosa.reciprocal %l : (tensor<1x8x2x1xf32>) -> tensor<1x8x2x1xf32>
  %p = tosa.mul %e, %r, %sh0 : (tensor<1x8x2x8xf32>, tensor<1x8x2x1xf32>, tensor<1xi8>) -> tensor<1x8x2x8xf32>
  %s3 = tosa.const_shape {values = dense<[1, 16, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %p, %s3 : (tensor<1x8x2x8xf32>, !tosa.shape<3>) -> tensor<1x16x8xf32>
  %o = tosa.matmul %p3, %v, %z, %z : (tensor<1x16x8xf32>, tensor<1x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16xf32>
  return %o : tensor<1x16x16xf32>
}

// -----

// The mask varies with the head (an iota over H): no value of the folded rows'
// query index alone.
// CHECK-LABEL: func.func @mqa_fold_per_head_mask
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: the scores are combined across a view of the merged batch with a value that varies with the batch or the head
func.func @mqa_fold_per_head_mask(%q: tensor<1x8x32xf32>, %kt: tensor<1x16x8xf32>, %v: tensor<1x8x16xf32>) -> tensor<1x16x16xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %lowest = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %iota = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>}> : () -> tensor<8xi64>
  %hiota = "tosa.const"() <{values = dense<[0, 1]> : tensor<2xi64>}> : () -> tensor<2xi64>
  %rs = tosa.const_shape {values = dense<[2, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %cs = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %row = tosa.reshape %hiota, %rs : (tensor<2xi64>, !tosa.shape<2>) -> tensor<2x1xi64>
  %col = tosa.reshape %iota, %cs : (tensor<8xi64>, !tosa.shape<2>) -> tensor<1x8xi64>
  %vis = tosa.greater_equal %row, %col : (tensor<2x1xi64>, tensor<1x8xi64>) -> tensor<2x8xi1>
  %ms = tosa.const_shape {values = dense<[1, 1, 2, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %mask = tosa.reshape %vis, %ms : (tensor<2x8xi1>, !tosa.shape<4>) -> tensor<1x1x2x8xi1>
  %qs = tosa.const_shape {values = dense<[1, 16, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %qf = tosa.reshape %q, %qs : (tensor<1x8x32xf32>, !tosa.shape<3>) -> tensor<1x16x16xf32>
  %s = tosa.matmul %qf, %kt, %z, %z : (tensor<1x16x16xf32>, tensor<1x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x8xf32>
  %x = tosa.mul %s, %c, %sh0 : (tensor<1x16x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<1x16x8xf32>
  %s4 = tosa.const_shape {values = dense<[1, 8, 2, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %x4 = tosa.reshape %x, %s4 : (tensor<1x16x8xf32>, !tosa.shape<4>) -> tensor<1x8x2x8xf32>
  %w = tosa.select %mask, %x4, %lowest : (tensor<1x1x2x8xi1>, tensor<1x8x2x8xf32>, tensor<1x1x1x1xf32>) -> tensor<1x8x2x8xf32>
  %m0 = tosa.reduce_max %w {axis = 3 : i32} : (tensor<1x8x2x8xf32>) -> tensor<1x8x2x1xf32>
  %d = tosa.sub %w, %m0 : (tensor<1x8x2x8xf32>, tensor<1x8x2x1xf32>) -> tensor<1x8x2x8xf32>
  %e = tosa.exp %d : (tensor<1x8x2x8xf32>) -> tensor<1x8x2x8xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x8x2x8xf32>) -> tensor<1x8x2x1xf32>
  %r = tosa.reciprocal %l : (tensor<1x8x2x1xf32>) -> tensor<1x8x2x1xf32>
  %p = tosa.mul %e, %r, %sh0 : (tensor<1x8x2x8xf32>, tensor<1x8x2x1xf32>, tensor<1xi8>) -> tensor<1x8x2x8xf32>
  %s3 = tosa.const_shape {values = dense<[1, 16, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %p, %s3 : (tensor<1x8x2x8xf32>, !tosa.shape<3>) -> tensor<1x16x8xf32>
  %o = tosa.matmul %p3, %v, %z, %z : (tensor<1x16x8xf32>, tensor<1x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x16x16xf32>
  return %o : tensor<1x16x16xf32>
}

// -----

// linalg, with a key bias: the op keeps the folded rows (one head of 16 rows),
// the causal mask j <= floor(r / 2) a mask function.
// CHECK-LABEL: func.func @mqa_fold_key_bias
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {k_transposed, mask = @[[M:fa_mask_[0-9]+]], operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>, scale = 2.500000e-01 : f32} : (tensor<1x1x16x16xf32>, tensor<1x1x16x8xf32>, tensor<1x1x8x16xf32>, tensor<1x1x1x8xf32>) -> tensor<1x1x16x16xf32>
// CHECK: func.func private @[[M]](%arg0: index, %arg1: index, %arg2: index, %arg3: index) -> i1
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: arith.divui %arg2, %[[C2]] : index
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @mqa_fold_key_bias(%q: tensor<1x16x16xf32>, %kt: tensor<1x16x8xf32>, %v: tensor<1x8x16xf32>, %kb: tensor<8xf32>) -> tensor<1x16x16xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<1x16x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<1x16x8xf32>) -> tensor<1x16x8xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<1x16x16xf32>, tensor<1x16x8xf32>) outs(%sz : tensor<1x16x8xf32>) -> tensor<1x16x8xf32>
  %s4 = tensor.expand_shape %s [[0], [1, 2], [3]] output_shape [1, 8, 2, 8] : tensor<1x16x8xf32> into tensor<1x8x2x8xf32>
  %e4 = tensor.empty() : tensor<1x8x2x8xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(b, i, h, j) -> (b, i, h, j)>, affine_map<(b, i, h, j) -> (j)>, affine_map<(b, i, h, j) -> (b, i, h, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4, %kb : tensor<1x8x2x8xf32>, tensor<8xf32>) outs(%e4 : tensor<1x8x2x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %a, %sc : f32
    %yb = arith.addf %y, %b : f32
    %i = linalg.index 1 : index
    %j = linalg.index 3 : index
    %c = arith.cmpi ugt, %j, %i : index
    %ninf = arith.constant 0xFF800000 : f32
    %r = arith.select %c, %ninf, %yb : f32
    linalg.yield %r : f32
  } -> tensor<1x8x2x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<1x8x2x8xf32>) outs(%e4 : tensor<1x8x2x8xf32>) -> tensor<1x8x2x8xf32>
  %p3 = tensor.collapse_shape %p [[0], [1, 2], [3]] : tensor<1x8x2x8xf32> into tensor<1x16x8xf32>
  %o0 = tensor.empty() : tensor<1x16x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
  %o = linalg.batch_matmul ins(%p3, %v : tensor<1x16x8xf32>, tensor<1x8x16xf32>) outs(%oz : tensor<1x16x16xf32>) -> tensor<1x16x16xf32>
  return %o : tensor<1x16x16xf32>
}
