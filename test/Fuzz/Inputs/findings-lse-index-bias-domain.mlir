// Finding of the generative differential fuzzer (test/Fuzz/gen_attention.py,
// --families new, seed 41, program p40_tosa_window, perturbation
// imask-empty-rows-finite), minimized by hand. A real wrong fusion; not fixed
// here (lib/Fusion is being edited elsewhere).
//
// TOSA attention with torch.logsumexp's guarded log-sum-exp beside it and an
// additive index mask of the lowest f32: s + select(j > 2, 0, -FLT_MAX) with
// N = 3, so no key of any row is visible. The source's scores of every row are
// all -FLT_MAX (s + -FLT_MAX rounds there), its max is finite, so its lse is
// log(3) - FLT_MAX = -3.40e38. Fusion takes the select as the op's bias (a
// tensor of its own) and fuses the lse; the op's bias * log2(e) clamps at
// -FLT_MAX / log2(e) (docs/dialect.md, the op's bias domain), so its lse is
// about -2.36e38:
//   fa-check: output 1 (f32, 2 elements): max abs err 1.044e+38  MISMATCH
// (O agrees: both average V on such rows.)
//
// The same with a boolean mask argument instead of the index compare is
// refused ("the log-sum-exp beside the attention would see a bias below
// -2.36e38 on rows it masks entirely", test/Fusion/lse-bias-domain.mlir).
// Cause: checkLseMaskedRows (lib/Fusion/AttentionMatch.c) runs its bias-domain
// test only when rowsMayBeFullyMasked(m), and that counts a bias as masking
// only if it is a boolean-mask bias or fusion cannot bound it
// (rangeOfExpr). This bias is computed from index constants, so its range
// [-FLT_MAX, 0] is known and the check is skipped, though its lower bound is
// below the clamp. With a causal or a window compare that keeps a key in every
// row the lse is right; any index condition that hides a whole row (here
// j > 2; in the fuzzer's program (j > i - 11) & (j < i + 1) & (j > 13), N = 14)
// shows it. Expected: refused with the bias-domain remark (or the bias's
// bounded range compared with -2.36e38 whatever its origin).
//
// reproduce: fa-opt --fa-fuse-attention=explain findings-lse-index-bias-domain.mlir  (fused; should be refused)
// reproduce: fa-check findings-lse-index-bias-domain.mlir  (output 1 MISMATCH)
func.func @lse_additive_index_mask_lowest(%q: tensor<1x2x4xf32>, %k: tensor<1x4x3xf32>, %v: tensor<1x3x4xf32>) -> (tensor<1x2x4xf32>, tensor<1x1x2xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s3 = tosa.matmul %q, %k, %zp, %zp : (tensor<1x2x4xf32>, tensor<1x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x3xf32>
  %sh4 = tosa.const_shape {values = dense<[1, 1, 2, 3]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s = tosa.reshape %s3, %sh4 : (tensor<1x2x3xf32>, !tosa.shape<4>) -> tensor<1x1x2x3xf32>
  %col = "tosa.const"() <{values = dense<[[[[0, 1, 2]]]]> : tensor<1x1x1x3xi32>}> : () -> tensor<1x1x1x3xi32>
  %row = "tosa.const"() <{values = dense<[[[[0], [1]]]]> : tensor<1x1x2x1xi32>}> : () -> tensor<1x1x2x1xi32>
  %c2 = "tosa.const"() <{values = dense<2> : tensor<1x1x1x1xi32>}> : () -> tensor<1x1x1x1xi32>
  %a = tosa.greater_equal %row, %col : (tensor<1x1x2x1xi32>, tensor<1x1x1x3xi32>) -> tensor<1x1x2x3xi1>
  %b = tosa.greater %col, %c2 : (tensor<1x1x1x3xi32>, tensor<1x1x1x1xi32>) -> tensor<1x1x1x3xi1>
  %vis = tosa.logical_and %a, %b : (tensor<1x1x2x3xi1>, tensor<1x1x1x3xi1>) -> tensor<1x1x2x3xi1>
  %low = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %bias = tosa.select %b, %zero, %low : (tensor<1x1x1x3xi1>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x3xf32>
  %x = tosa.add %s, %bias : (tensor<1x1x2x3xf32>, tensor<1x1x1x3xf32>) -> tensor<1x1x2x3xf32>
  %mx = tosa.reduce_max %x {axis = 3 : i32} : (tensor<1x1x2x3xf32>) -> tensor<1x1x2x1xf32>
  %ab = tosa.abs %mx : (tensor<1x1x2x1xf32>) -> tensor<1x1x2x1xf32>
  %inf = "tosa.const"() <{values = dense<0x7F800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %isinf = tosa.equal %ab, %inf : (tensor<1x1x2x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x2x1xi1>
  %g = tosa.select %isinf, %zero, %mx : (tensor<1x1x2x1xi1>, tensor<1x1x1x1xf32>, tensor<1x1x2x1xf32>) -> tensor<1x1x2x1xf32>
  %d = tosa.sub %x, %g : (tensor<1x1x2x3xf32>, tensor<1x1x2x1xf32>) -> tensor<1x1x2x3xf32>
  %e = tosa.exp %d : (tensor<1x1x2x3xf32>) -> tensor<1x1x2x3xf32>
  %se = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x1x2x3xf32>) -> tensor<1x1x2x1xf32>
  %sh3 = tosa.const_shape {values = dense<[1, 1, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %se3 = tosa.reshape %se, %sh3 : (tensor<1x1x2x1xf32>, !tosa.shape<3>) -> tensor<1x1x2xf32>
  %g3 = tosa.reshape %g, %sh3 : (tensor<1x1x2x1xf32>, !tosa.shape<3>) -> tensor<1x1x2xf32>
  %lg = tosa.log %se3 : (tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
  %lse = tosa.add %lg, %g3 : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
  %d0 = tosa.sub %x, %mx : (tensor<1x1x2x3xf32>, tensor<1x1x2x1xf32>) -> tensor<1x1x2x3xf32>
  %e0 = tosa.exp %d0 : (tensor<1x1x2x3xf32>) -> tensor<1x1x2x3xf32>
  %se0 = tosa.reduce_sum %e0 {axis = 3 : i32} : (tensor<1x1x2x3xf32>) -> tensor<1x1x2x1xf32>
  %r = tosa.reciprocal %se0 : (tensor<1x1x2x1xf32>) -> tensor<1x1x2x1xf32>
  %p = tosa.mul %e0, %r, %shift : (tensor<1x1x2x3xf32>, tensor<1x1x2x1xf32>, tensor<1xi8>) -> tensor<1x1x2x3xf32>
  %sh3p = tosa.const_shape {values = dense<[1, 2, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.reshape %p, %sh3p : (tensor<1x1x2x3xf32>, !tosa.shape<3>) -> tensor<1x2x3xf32>
  %o = tosa.matmul %p3, %v, %zp, %zp : (tensor<1x2x3xf32>, tensor<1x3x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x4xf32>
  return %o, %lse : tensor<1x2x4xf32>, tensor<1x1x2xf32>
}
