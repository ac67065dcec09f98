// Scores computed across views of the merged batch (lib/Fusion/BatchViews.c),
// and a unit transpose of P. A split [B*H, M, N] -> [B, H, M, N] and a merge
// back are a pure regrouping (b*H + h): BLOOM adds its ALiBi tensor [B*H, 1, N]
// before the split and masks after it (the merged space becomes the score space:
// the ALiBi tensor is the bias, a [B, H, 1, N] view); CLIP masks the split view
// and merges it back for the softmax (the [1, 1, M, N] mask is read in the merged
// space). Near misses keep their remarks: BLOOM's finfo.min fill replacing scores
// that include an unbounded bias, a mask that varies with the batch, a transpose
// between the views, a tensor mask read over [B, H] above the split, a transpose
// of P that moves its heads.
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// RUN: fa-check --split-input-file --input-scale=3 %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-8: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// BLOOM with a -inf causal fill: alibi [B*H, 1, N] added before the split is the
// bias [1, 4, 1, 8] (the merged batch of 4 read as one batch of 4 heads).
// CHECK-LABEL: func.func @bloom_alibi_views
// CHECK: %[[B:.*]] = tensor.expand_shape %arg3 {{\[\[}}0, 1], [2], [3]] output_shape [1, 4, 1, 8] : tensor<4x1x8xf32> into tensor<1x4x1x8xf32>
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}, %[[B]]) {causal_offset = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>, scale = 2.500000e-01 : f32}
// CHECK-NOT: tosa.reshape
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @bloom_alibi_views(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>, %alibi: tensor<4x1x8xf32>) -> tensor<4x8x16xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %iota = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>}> : () -> tensor<8xi64>
  %rs = tosa.const_shape {values = dense<[8, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %cs = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %row = tosa.reshape %iota, %rs : (tensor<8xi64>, !tosa.shape<2>) -> tensor<8x1xi64>
  %col = tosa.reshape %iota, %cs : (tensor<8xi64>, !tosa.shape<2>) -> tensor<1x8xi64>
  %later = tosa.greater %col, %row : (tensor<1x8xi64>, tensor<8x1xi64>) -> tensor<8x8xi1>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = tosa.matmul %q, %kt, %z, %z : (tensor<4x8x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %x = tosa.mul %s, %c, %sh0 : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %s4 = tosa.const_shape {values = dense<[2, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3 = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %lowest = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %ms = tosa.const_shape {values = dense<[1, 1, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %m4 = tosa.reshape %later, %ms : (tensor<8x8xi1>, !tosa.shape<4>) -> tensor<1x1x8x8xi1>
  %tm = tosa.const_shape {values = dense<[2, 1, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %mask = tosa.tile %m4, %tm : (tensor<1x1x8x8xi1>, !tosa.shape<4>) -> tensor<2x1x8x8xi1>
  %b = tosa.add %alibi, %x : (tensor<4x1x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %b4 = tosa.reshape %b, %s4 : (tensor<4x8x8xf32>, !tosa.shape<4>) -> tensor<2x2x8x8xf32>
  %w = tosa.select %mask, %lowest, %b4 : (tensor<2x1x8x8xi1>, tensor<1x1x1x1xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %m0 = tosa.reduce_max %w {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %d = tosa.sub %w, %m0 : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
  %e = tosa.exp %d : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %p = tosa.mul %e, %r, %sh0 : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>
  %p3 = tosa.reshape %p, %s3 : (tensor<2x2x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p3, %v, %z, %z : (tensor<4x8x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

// CLIP: the split scores plus a [1, 1, M, N] -inf causal mask, merged back
// for a softmax over [B*H, M, N]: causal_offset = 0.
// CHECK-LABEL: func.func @clip_mask_views
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}) {causal_offset = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 2.500000e-01 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @clip_mask_views(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %iota = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>}> : () -> tensor<8xi64>
  %rs = tosa.const_shape {values = dense<[8, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %cs = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %row = tosa.reshape %iota, %rs : (tensor<8xi64>, !tosa.shape<2>) -> tensor<8x1xi64>
  %col = tosa.reshape %iota, %cs : (tensor<8xi64>, !tosa.shape<2>) -> tensor<1x8xi64>
  %later = tosa.greater %col, %row : (tensor<1x8xi64>, tensor<8x1xi64>) -> tensor<8x8xi1>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = tosa.matmul %q, %kt, %z, %z : (tensor<4x8x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %x = tosa.mul %s, %c, %sh0 : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %s4 = tosa.const_shape {values = dense<[2, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3 = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %add2 = tosa.select %later, %ninf, %zero : (tensor<8x8xi1>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<8x8xf32>
  %ms = tosa.const_shape {values = dense<[1, 1, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %mask = tosa.reshape %add2, %ms : (tensor<8x8xf32>, !tosa.shape<4>) -> tensor<1x1x8x8xf32>
  %x4 = tosa.reshape %x, %s4 : (tensor<4x8x8xf32>, !tosa.shape<4>) -> tensor<2x2x8x8xf32>
  %w4 = tosa.add %x4, %mask : (tensor<2x2x8x8xf32>, tensor<1x1x8x8xf32>) -> tensor<2x2x8x8xf32>
  %w = tosa.reshape %w4, %s3 : (tensor<2x2x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %m0 = tosa.reduce_max %w {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %w, %m0 : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %r, %sh0 : (tensor<4x8x8xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %p3 = tosa.reshape %p, %s3 : (tensor<4x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p3, %v, %z, %z : (tensor<4x8x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

// BLOOM's own fill: finfo.min replacing scores that include the (unbounded)
// ALiBi input; where a bias of finfo.min makes every visible score of a row
// finfo.min, the source averages V over the masked keys too, so the fill is
// score_mod's select on every pair (no causal_offset), the [B*H, 1, N] alibi
// its capture read at (b * H + h, 0, j) through the batch split (B = 1: h).
// CHECK-LABEL: func.func @bloom_alibi_views_lowest
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}, %arg3) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 2.500000e-01 : f32, score_mod = @[[MOD:fa_bias_[0-9]+]]}
// CHECK: func.func private @[[MOD]](%{{.*}}: f32, %{{.*}}: index, %[[H:.*]]: index, %{{.*}}: index, %[[J:.*]]: index, %[[A:.*]]: tensor<4x1x8xf32>)
// CHECK: tensor.extract %[[A]][%[[H]], %{{.*}}, %[[J]]]
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention (its mask's finite fill and the bias computed in the kernel as score_mod, every key tile visited)
func.func @bloom_alibi_views_lowest(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>, %alibi: tensor<4x1x8xf32>) -> tensor<4x8x16xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %iota = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>}> : () -> tensor<8xi64>
  %rs = tosa.const_shape {values = dense<[8, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %cs = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %row = tosa.reshape %iota, %rs : (tensor<8xi64>, !tosa.shape<2>) -> tensor<8x1xi64>
  %col = tosa.reshape %iota, %cs : (tensor<8xi64>, !tosa.shape<2>) -> tensor<1x8xi64>
  %later = tosa.greater %col, %row : (tensor<1x8xi64>, tensor<8x1xi64>) -> tensor<8x8xi1>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = tosa.matmul %q, %kt, %z, %z : (tensor<4x8x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %x = tosa.mul %s, %c, %sh0 : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %s4 = tosa.const_shape {values = dense<[2, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3 = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %lowest = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %ms = tosa.const_shape {values = dense<[1, 1, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %m4 = tosa.reshape %later, %ms : (tensor<8x8xi1>, !tosa.shape<4>) -> tensor<1x1x8x8xi1>
  %tm = tosa.const_shape {values = dense<[2, 1, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %mask = tosa.tile %m4, %tm : (tensor<1x1x8x8xi1>, !tosa.shape<4>) -> tensor<2x1x8x8xi1>
  %b = tosa.add %alibi, %x : (tensor<4x1x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %b4 = tosa.reshape %b, %s4 : (tensor<4x8x8xf32>, !tosa.shape<4>) -> tensor<2x2x8x8xf32>
  %w = tosa.select %mask, %lowest, %b4 : (tensor<2x1x8x8xi1>, tensor<1x1x1x1xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %m0 = tosa.reduce_max %w {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %d = tosa.sub %w, %m0 : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
  %e = tosa.exp %d : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %p = tosa.mul %e, %r, %sh0 : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>
  %p3 = tosa.reshape %p, %s3 : (tensor<2x2x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p3, %v, %z, %z : (tensor<4x8x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

// A mask input that varies with the batch, across the views: no value of the
// merged space.
// CHECK-LABEL: func.func @clip_mask_per_batch
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: the scores are combined across a view of the merged batch with a value that varies with the batch or the head
func.func @clip_mask_per_batch(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>, %mask: tensor<2x1x8x8xf32>) -> tensor<4x8x16xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %iota = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>}> : () -> tensor<8xi64>
  %rs = tosa.const_shape {values = dense<[8, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %cs = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %row = tosa.reshape %iota, %rs : (tensor<8xi64>, !tosa.shape<2>) -> tensor<8x1xi64>
  %col = tosa.reshape %iota, %cs : (tensor<8xi64>, !tosa.shape<2>) -> tensor<1x8xi64>
  %later = tosa.greater %col, %row : (tensor<1x8xi64>, tensor<8x1xi64>) -> tensor<8x8xi1>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = tosa.matmul %q, %kt, %z, %z : (tensor<4x8x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %x = tosa.mul %s, %c, %sh0 : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %s4 = tosa.const_shape {values = dense<[2, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3 = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %x4 = tosa.reshape %x, %s4 : (tensor<4x8x8xf32>, !tosa.shape<4>) -> tensor<2x2x8x8xf32>
  %w4 = tosa.add %x4, %mask : (tensor<2x2x8x8xf32>, tensor<2x1x8x8xf32>) -> tensor<2x2x8x8xf32>
  %w = tosa.reshape %w4, %s3 : (tensor<2x2x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %m0 = tosa.reduce_max %w {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %w, %m0 : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %r, %sh0 : (tensor<4x8x8xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %p3 = tosa.reshape %p, %s3 : (tensor<4x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p3, %v, %z, %z : (tensor<4x8x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

// A transpose of B and H between the split and the merge: not the same
// regrouping (b*H + h becomes h*B + b).
// CHECK-LABEL: func.func @clip_views_transposed
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: the scores are combined across a view of the merged batch with a value that varies with the batch or the head
func.func @clip_views_transposed(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %iota = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>}> : () -> tensor<8xi64>
  %rs = tosa.const_shape {values = dense<[8, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %cs = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %row = tosa.reshape %iota, %rs : (tensor<8xi64>, !tosa.shape<2>) -> tensor<8x1xi64>
  %col = tosa.reshape %iota, %cs : (tensor<8xi64>, !tosa.shape<2>) -> tensor<1x8xi64>
  %later = tosa.greater %col, %row : (tensor<1x8xi64>, tensor<8x1xi64>) -> tensor<8x8xi1>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = tosa.matmul %q, %kt, %z, %z : (tensor<4x8x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %x = tosa.mul %s, %c, %sh0 : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %s4 = tosa.const_shape {values = dense<[2, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3 = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %add2 = tosa.select %later, %ninf, %zero : (tensor<8x8xi1>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<8x8xf32>
  %ms = tosa.const_shape {values = dense<[1, 1, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %mask = tosa.reshape %add2, %ms : (tensor<8x8xf32>, !tosa.shape<4>) -> tensor<1x1x8x8xf32>
  %x5 = tosa.reshape %x, %s4 : (tensor<4x8x8xf32>, !tosa.shape<4>) -> tensor<2x2x8x8xf32>
  %x4 = tosa.transpose %x5 {perms = array<i32: 1, 0, 2, 3>} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %w4 = tosa.add %x4, %mask : (tensor<2x2x8x8xf32>, tensor<1x1x8x8xf32>) -> tensor<2x2x8x8xf32>
  %w = tosa.reshape %w4, %s3 : (tensor<2x2x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %m0 = tosa.reduce_max %w {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %d = tosa.sub %w, %m0 : (tensor<4x8x8xf32>, tensor<4x8x1xf32>) -> tensor<4x8x8xf32>
  %e = tosa.exp %d : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %p = tosa.mul %e, %r, %sh0 : (tensor<4x8x8xf32>, tensor<4x8x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %p3 = tosa.reshape %p, %s3 : (tensor<4x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p3, %v, %z, %z : (tensor<4x8x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

// A boolean [B, H, M, N] mask tensor read above the split (it would have to
// be read in the merged space too).
// CHECK-LABEL: func.func @bloom_bool_mask_above_split
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: a bias or mask tensor is read over [B, H] above a split of the merged batch
func.func @bloom_bool_mask_above_split(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>, %alibi: tensor<4x1x8xf32>, %mask: tensor<2x2x8x8xi1>) -> tensor<4x8x16xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %iota = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi64>}> : () -> tensor<8xi64>
  %rs = tosa.const_shape {values = dense<[8, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %cs = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %row = tosa.reshape %iota, %rs : (tensor<8xi64>, !tosa.shape<2>) -> tensor<8x1xi64>
  %col = tosa.reshape %iota, %cs : (tensor<8xi64>, !tosa.shape<2>) -> tensor<1x8xi64>
  %later = tosa.greater %col, %row : (tensor<1x8xi64>, tensor<8x1xi64>) -> tensor<8x8xi1>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = tosa.matmul %q, %kt, %z, %z : (tensor<4x8x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %x = tosa.mul %s, %c, %sh0 : (tensor<4x8x8xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x8x8xf32>
  %s4 = tosa.const_shape {values = dense<[2, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3 = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %lowest = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %b = tosa.add %alibi, %x : (tensor<4x1x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %b4 = tosa.reshape %b, %s4 : (tensor<4x8x8xf32>, !tosa.shape<4>) -> tensor<2x2x8x8xf32>
  %w = tosa.select %mask, %lowest, %b4 : (tensor<2x2x8x8xi1>, tensor<1x1x1x1xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %m0 = tosa.reduce_max %w {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %d = tosa.sub %w, %m0 : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
  %e = tosa.exp %d : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %p = tosa.mul %e, %r, %sh0 : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>
  %p3 = tosa.reshape %p, %s3 : (tensor<2x2x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p3, %v, %z, %z : (tensor<4x8x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

// P [1, 2, M, N] transposed to [2, 1, M, N] (only the unit batch moves: a
// reshape) before the batch merge of P*V: read through.
// CHECK-LABEL: func.func @p_unit_transpose
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 2.500000e-01 : f32} : (tensor<1x2x8x16xf32>
// CHECK-NOT: tosa.transpose %{{.*}} {perms = array<i32: 1, 0, 2, 3>}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @p_unit_transpose(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x8x16xf32>) -> tensor<2x16x8xf32>
  %s = tosa.matmul %q, %kt, %z, %z : (tensor<2x8x16xf32>, tensor<2x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %s4shape = tosa.const_shape {values = dense<[1, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s, %s4shape : (tensor<2x8x8xf32>, !tosa.shape<4>) -> tensor<1x2x8x8xf32>
  %w = tosa.mul %s4, %c, %sh0 : (tensor<1x2x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x8xf32>
  %m0 = tosa.reduce_max %w {axis = 3 : i32} : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x1xf32>
  %d = tosa.sub %w, %m0 : (tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x8xf32>
  %e = tosa.exp %d : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %p = tosa.mul %e, %r, %sh0 : (tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32>, tensor<1xi8>) -> tensor<1x2x8x8xf32>
  %pt = tosa.transpose %p {perms = array<i32: 1, 0, 2, 3>} : (tensor<1x2x8x8xf32>) -> tensor<2x1x8x8xf32>
  %s3 = tosa.const_shape {values = dense<[2, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %pt, %s3 : (tensor<2x1x8x8xf32>, !tosa.shape<3>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p3, %v, %z, %z : (tensor<2x8x8xf32>, tensor<2x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// P [2, 2, M, N] with B and H swapped before P*V: P*V pairs P of batch b, head h
// with V's merged batch h*2 + b, not attention's pairing.
// CHECK-LABEL: func.func @p_transpose_moves_heads
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: P reaches P*V through a transpose that moves more than unit dims
func.func @p_transpose_moves_heads(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %z = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = tosa.matmul %q, %kt, %z, %z : (tensor<4x8x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %s4shape = tosa.const_shape {values = dense<[2, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4 = tosa.reshape %s, %s4shape : (tensor<4x8x8xf32>, !tosa.shape<4>) -> tensor<2x2x8x8xf32>
  %w = tosa.mul %s4, %c, %sh0 : (tensor<2x2x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>
  %m0 = tosa.reduce_max %w {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %d = tosa.sub %w, %m0 : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) -> tensor<2x2x8x8xf32>
  %e = tosa.exp %d : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
  %p = tosa.mul %e, %r, %sh0 : (tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>, tensor<1xi8>) -> tensor<2x2x8x8xf32>
  %pt = tosa.transpose %p {perms = array<i32: 1, 0, 2, 3>} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %s3 = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %pt, %s3 : (tensor<2x2x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p3, %v, %z, %z : (tensor<4x8x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}
