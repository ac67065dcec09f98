// Fuzz finding (gen_attention.py --families views, seed 45: p55 and 5 others, all
// "missed"): not a wrong fusion, a miss. CLIP/BART's merged-batch views (scores
// [B*H, M, N] viewed [B, H, M, N], a [1, 1, M, N] mask added, viewed back) whose
// softmax then runs on a [1, B*H, M, N] view, with P transposed to [B*H, 1, M, N]
// (unit dims only) before P*V. With B = 1 it fuses; with B = 2 (B and H both > 1)
// it is refused with "the softmax input does not come from a Q*K^T matmul": the
// walk from the softmax's [1, B*H, M, N] input does not read through the reshape
// of the merge back of the split view (a reshape of a reshape of the merged
// scores). Each spelling alone fuses: the split/merge views with a 3-D softmax
// (test/Fusion/batch-views.mlir @clip_mask_views), the unit view and transpose
// without a split (@p_unit_transpose). Both functions compute the same attention.
//   fa-opt --fa-fuse-attention=explain findings-views-unit-view-missed.mlir
// @views_const_B1: fused; @views_const_B2: not fused (the miss).

func.func @views_const_B1(%q: tensor<2x3x4xf32>, %k: tensor<2x3x4xf32>, %v: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %t1 = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %c2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %t3 = tosa.matmul %q, %t1, %c2, %c2 : (tensor<2x3x4xf32>, tensor<2x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x3xf32>
  %c4 = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %c5 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %t6 = tosa.mul %t3, %c4, %c5 : (tensor<2x3x3xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x3x3xf32>
  %c7 = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %c8 = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %c9 = "tosa.const"() <{values = dense<[[[[0.0, 0xFF800000, 0xFF800000], [0.0, 0.0, 0xFF800000], [0.0, 0.0, 0.0]]]]> : tensor<1x1x3x3xf32>}> : () -> tensor<1x1x3x3xf32>
  %sh11 = tosa.const_shape {values = dense<[1, 2, 3, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %t10 = tosa.reshape %t6, %sh11 : (tensor<2x3x3xf32>, !tosa.shape<4>) -> tensor<1x2x3x3xf32>
  %t12 = tosa.add %t10, %c9 : (tensor<1x2x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32>
  %sh14 = tosa.const_shape {values = dense<[2, 3, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %t13 = tosa.reshape %t12, %sh14 : (tensor<1x2x3x3xf32>, !tosa.shape<3>) -> tensor<2x3x3xf32>
  %t15 = tosa.reshape %t13, %sh11 : (tensor<2x3x3xf32>, !tosa.shape<4>) -> tensor<1x2x3x3xf32>
  %t16 = tosa.reduce_max %t15 {axis = 3 : i32} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x1xf32>
  %t17 = tosa.sub %t15, %t16 : (tensor<1x2x3x3xf32>, tensor<1x2x3x1xf32>) -> tensor<1x2x3x3xf32>
  %t18 = tosa.exp %t17 : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %t19 = tosa.reduce_sum %t18 {axis = 3 : i32} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x1xf32>
  %t20 = tosa.reciprocal %t19 : (tensor<1x2x3x1xf32>) -> tensor<1x2x3x1xf32>
  %t21 = tosa.mul %t18, %t20, %c5 : (tensor<1x2x3x3xf32>, tensor<1x2x3x1xf32>, tensor<1xi8>) -> tensor<1x2x3x3xf32>
  %t22 = tosa.transpose %t21 {perms = array<i32: 1, 0, 2, 3>} : (tensor<1x2x3x3xf32>) -> tensor<2x1x3x3xf32>
  %t23 = tosa.reshape %t22, %sh14 : (tensor<2x1x3x3xf32>, !tosa.shape<3>) -> tensor<2x3x3xf32>
  %t24 = tosa.matmul %t23, %v, %c2, %c2 : (tensor<2x3x3xf32>, tensor<2x3x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x4xf32>
  return %t24 : tensor<2x3x4xf32>
}

func.func @views_const_B2(%q: tensor<4x3x4xf32>, %k: tensor<4x3x4xf32>, %v: tensor<4x3x4xf32>) -> tensor<4x3x4xf32> {
  %t1 = tosa.transpose %k {perms = array<i32: 0, 2, 1>} : (tensor<4x3x4xf32>) -> tensor<4x4x3xf32>
  %c2 = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %t3 = tosa.matmul %q, %t1, %c2, %c2 : (tensor<4x3x4xf32>, tensor<4x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x3x3xf32>
  %c4 = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %c5 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %t6 = tosa.mul %t3, %c4, %c5 : (tensor<4x3x3xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<4x3x3xf32>
  %c7 = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %c8 = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %c9 = "tosa.const"() <{values = dense<[[[[0.0, 0xFF800000, 0xFF800000], [0.0, 0.0, 0xFF800000], [0.0, 0.0, 0.0]]]]> : tensor<1x1x3x3xf32>}> : () -> tensor<1x1x3x3xf32>
  %sh11 = tosa.const_shape {values = dense<[2, 2, 3, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %t10 = tosa.reshape %t6, %sh11 : (tensor<4x3x3xf32>, !tosa.shape<4>) -> tensor<2x2x3x3xf32>
  %t12 = tosa.add %t10, %c9 : (tensor<2x2x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<2x2x3x3xf32>
  %sh14 = tosa.const_shape {values = dense<[4, 3, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %t13 = tosa.reshape %t12, %sh14 : (tensor<2x2x3x3xf32>, !tosa.shape<3>) -> tensor<4x3x3xf32>
  %sh16 = tosa.const_shape {values = dense<[1, 4, 3, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %t15 = tosa.reshape %t13, %sh16 : (tensor<4x3x3xf32>, !tosa.shape<4>) -> tensor<1x4x3x3xf32>
  %t17 = tosa.reduce_max %t15 {axis = 3 : i32} : (tensor<1x4x3x3xf32>) -> tensor<1x4x3x1xf32>
  %t18 = tosa.sub %t15, %t17 : (tensor<1x4x3x3xf32>, tensor<1x4x3x1xf32>) -> tensor<1x4x3x3xf32>
  %t19 = tosa.exp %t18 : (tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %t20 = tosa.reduce_sum %t19 {axis = 3 : i32} : (tensor<1x4x3x3xf32>) -> tensor<1x4x3x1xf32>
  %t21 = tosa.reciprocal %t20 : (tensor<1x4x3x1xf32>) -> tensor<1x4x3x1xf32>
  %t22 = tosa.mul %t19, %t21, %c5 : (tensor<1x4x3x3xf32>, tensor<1x4x3x1xf32>, tensor<1xi8>) -> tensor<1x4x3x3xf32>
  %t23 = tosa.transpose %t22 {perms = array<i32: 1, 0, 2, 3>} : (tensor<1x4x3x3xf32>) -> tensor<4x1x3x3xf32>
  %t24 = tosa.reshape %t23, %sh14 : (tensor<4x1x3x3xf32>, !tosa.shape<3>) -> tensor<4x3x3xf32>
  %t25 = tosa.matmul %t24, %v, %c2, %c2 : (tensor<4x3x3xf32>, tensor<4x3x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x3x4xf32>
  return %t25 : tensor<4x3x4xf32>
}
