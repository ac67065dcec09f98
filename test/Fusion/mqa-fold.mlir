// Heads folded into the query axis (GPTBigCode's multi-query attention, as
// transformers writes it): Q [B, M, H*D] reshaped to [B, M*H, D] against the
// one K^T [B, D, N], the scores viewed as [B, M, H, N] for a causal mask on the
// query index i, the softmax, and P folded back to [B, M*H, N] for P*V with the
// one V [B, N, Dv]. Row r of the fold is query i = floor(r / H) of head
// h = r mod H (lib/Fusion/BatchViews.c): fused as attention over the M*H rows,
// K and V read once, the mask a function of floor(r / H) (exact: the quotient
// of index arithmetic). A mask that varies with the head stays unfused.
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// RUN: fa-check --split-input-file --input-scale=3 %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-2: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// CHECK-LABEL: func.func @mqa_fold
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}) {k_transposed, mask = @[[M:fa_mask_[0-9]+]], operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 2.500000e-01 : f32} : (tensor<1x1x16x16xf32>, tensor<1x1x16x8xf32>, tensor<1x1x8x16xf32>) -> tensor<1x1x16x16xf32>
// CHECK: func.func private @[[M]](%arg0: index, %arg1: index, %arg2: index, %arg3: index) -> i1
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK: arith.divui %arg2, %[[C2]] : index
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
