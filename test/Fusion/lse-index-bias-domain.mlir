// A guarded log-sum-exp beside an additive index mask of the lowest f32 that
// hides whole rows: s + select(j > 2, 0, -FLT_MAX) with N = 3 (TOSA), and the
// same bias as an f32 tensor of its own in linalg. The source's lse of such a
// row is log(3) - FLT_MAX = -3.40e38; the op's bias * log2(e) clamps at
// -FLT_MAX / log2(e) (docs/dialect.md), so fused its lse would be -2.36e38.
// Found by the generative differential fuzzer (seed 41, p40_tosa_window,
// imask-empty-rows-finite; fuzz-differential.md): a bias whose range fusion
// bounds was not counted as masking rows (rowsMayBeFullyMasked), so the
// bias-domain check was skipped. Now refused with the bias-domain remark, as
// the same with a boolean mask argument is (lse-bias-domain.mlir).
// RUN: fa-opt --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s
// RUN: fa-check --input-scale=3 %s | FileCheck %s --check-prefix=AGREE
// CHECK-COUNT-2: not fused: the log-sum-exp beside the attention would see a bias below -2.36e38 on rows it masks entirely
// AGREE: fa-check: 2 functions: 2 agree, 0 disagree, 0 could not run
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#mn = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
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

func.func @lse_index_bias_linalg(%q: tensor<1x1x2x4xf32>, %k: tensor<1x1x3x4xf32>, %v: tensor<1x1x3x4xf32>) -> (tensor<1x1x2x4xf32>, tensor<1x1x2xf32>) {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %s0 = tensor.empty() : tensor<1x1x2x3xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<1x1x2x3xf32>) -> tensor<1x1x2x3xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x1x2x4xf32>, tensor<1x1x3x4xf32>) outs(%sz : tensor<1x1x2x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x1x2x3xf32>
  // bias[i, j] = j > 2 ? 0 : lowest (N = 3: every key of every row)
  %b0 = tensor.empty() : tensor<2x3xf32>
  %bias = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%b0 : tensor<2x3xf32>) {
  ^bb0(%o: f32):
    %j = linalg.index 1 : index
    %c2 = arith.constant 2 : index
    %low = arith.constant -3.40282347E+38 : f32
    %vis = arith.cmpi sgt, %j, %c2 : index
    %r = arith.select %vis, %z, %low : f32
    linalg.yield %r : f32
  } -> tensor<2x3xf32>
  %x = linalg.generic {indexing_maps = [#id, #mn, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<1x1x2x3xf32>, tensor<2x3xf32>) outs(%s0 : tensor<1x1x2x3xf32>) {
  ^bb0(%e: f32, %bb: f32, %o: f32):
    %r = arith.addf %e, %bb : f32
    linalg.yield %r : f32
  } -> tensor<1x1x2x3xf32>
  %r0 = tensor.empty() : tensor<1x1x2xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%r0 : tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
  %mx = linalg.reduce ins(%x : tensor<1x1x2x3xf32>) outs(%mi : tensor<1x1x2xf32>) dimensions = [3]
    (%a: f32, %acc: f32) {
      %y = arith.maximumf %a, %acc : f32
      linalg.yield %y : f32
    }
  %ex = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %mx : tensor<1x1x2x3xf32>, tensor<1x1x2xf32>) outs(%s0 : tensor<1x1x2x3xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x1x2x3xf32>
  %si = linalg.fill ins(%z : f32) outs(%r0 : tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
  %sum = linalg.reduce ins(%ex : tensor<1x1x2x3xf32>) outs(%si : tensor<1x1x2xf32>) dimensions = [3]
    (%a: f32, %acc: f32) {
      %y = arith.addf %a, %acc : f32
      linalg.yield %y : f32
    }
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%ex, %sum : tensor<1x1x2x3xf32>, tensor<1x1x2xf32>) outs(%s0 : tensor<1x1x2x3xf32>) {
  ^bb0(%a: f32, %l: f32, %o: f32):
    %y = arith.divf %a, %l : f32
    linalg.yield %y : f32
  } -> tensor<1x1x2x3xf32>
  // torch.logsumexp: guarded max
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mx : tensor<1x1x2xf32>) outs(%r0 : tensor<1x1x2xf32>) {
  ^bb0(%m: f32, %o: f32):
    %ab = math.absf %m : f32
    %inf = arith.constant 0x7F800000 : f32
    %c = arith.cmpf oeq, %ab, %inf : f32
    %y = arith.select %c, %z, %m : f32
    linalg.yield %y : f32
  } -> tensor<1x1x2xf32>
  %e2 = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %g : tensor<1x1x2x3xf32>, tensor<1x1x2xf32>) outs(%s0 : tensor<1x1x2x3xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x1x2x3xf32>
  %s2 = linalg.reduce ins(%e2 : tensor<1x1x2x3xf32>) outs(%si : tensor<1x1x2xf32>) dimensions = [3]
    (%a: f32, %acc: f32) {
      %y = arith.addf %a, %acc : f32
      linalg.yield %y : f32
    }
  %lse = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s2, %g : tensor<1x1x2xf32>, tensor<1x1x2xf32>) outs(%r0 : tensor<1x1x2xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %l = math.log %a : f32
    %y = arith.addf %l, %m : f32
    linalg.yield %y : f32
  } -> tensor<1x1x2xf32>
  %o0 = tensor.empty() : tensor<1x1x2x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x1x2x4xf32>) -> tensor<1x1x2x4xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x1x2x3xf32>, tensor<1x1x3x4xf32>) outs(%oz : tensor<1x1x2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x1x2x4xf32>
  return %o, %lse : tensor<1x1x2x4xf32>, tensor<1x1x2xf32>
}
