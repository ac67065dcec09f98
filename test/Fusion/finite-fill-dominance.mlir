// Finite fills and half-precision biases (issue 35). A finite fill stands for
// -inf only where it provably dominates every visible score (checkFiniteMask):
// masked_fill(j > i, -1e4) followed by a bias that lifts the masked scores back
// (1500 * (j - i) reaches +10500 there) would give the masked keys most of the
// weight in the source: refused. A bias added in f16 may saturate (f16's lowest
// added to f16 scores makes every score of a masked row -65504, so the row
// averages V, or -inf where the score is below -16): where fusion does not bound
// it within +-64 and it is the scores' only modification, score_mod adds it in
// f16 as the source does, `extf(truncf(s) + bias)`, on every key tile (an input
// bias, a padding select of f16's lowest: both agree, the latter at input scale
// 3, where masked rows saturate and overflow); a small constant bias fuses as an
// f32 bias and agrees. Roundings after the mask count
// as the softmax sees the scores: the lowest f32 rounded to f16 is -inf (an
// exact mask: fully masked rows are NaN in the source, exempt), and a bias
// added in f32 but rounded to f16 before the softmax is an f16 sum.
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// RUN: fa-check --split-input-file %s | FileCheck %s --check-prefix=AGREE
// RUN: fa-check --split-input-file --input-scale=3 %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-7: 1 agree, 0 disagree, 0 could not run

// CHECK-LABEL: func.func @causal_fill_1e4_then_steep_bias
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: a finite mask fill does not provably dominate every visible score
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @causal_fill_1e4_then_steep_bias(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %bias = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %ji = arith.index_cast %j : index to i64
    %d = arith.subi %ji, %ii : i64
    %df = arith.sitofp %d : i64 to f32
    %slope = arith.constant 1.5e+03 : f32
    %b = arith.mulf %slope, %df : f32
    linalg.yield %b : f32
  } -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %bias : tensor<8x8xf32>, tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %b: f32, %out: f32):
    %fill = arith.constant -1.0e+04 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi sgt, %j, %i : index
    %y = arith.select %c, %fill, %x : f32
    %yb = arith.addf %y, %b : f32
    linalg.yield %yb : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// CHECK-LABEL: func.func @f16_add_mask_arg
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}, %arg3) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 1.000000e+00 : f32, score_mod = @[[MOD:fa_bias_[0-9]+]]}
// CHECK: func.func private @[[MOD]](%[[S:.*]]: f32,
// CHECK: %[[B:.*]] = tensor.extract %{{.*}} : tensor<8x8xf16>
// CHECK: %[[SH:.*]] = arith.truncf %[[S]] : f32 to f16
// CHECK: %[[R:.*]] = arith.addf %[[SH]], %[[B]] : f16
// CHECK: arith.extf %[[R]] : f16 to f32
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention (the scores plus its bias in f16/bf16 as the source adds them, computed in the kernel as score_mod, every key tile visited)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f16_add_mask_arg(%q: tensor<8x4xf16>, %kt: tensor<4x8xf16>, %v: tensor<8x4xf16>, %mask: tensor<8x8xf16>) -> tensor<8x4xf16> {
  %z = arith.constant 0.0 : f16
  %s0 = tensor.empty() : tensor<8x8xf16>
  %sz = linalg.fill ins(%z : f16) outs(%s0 : tensor<8x8xf16>) -> tensor<8x8xf16>
  %o0 = tensor.empty() : tensor<8x4xf16>
  %oz = linalg.fill ins(%z : f16) outs(%o0 : tensor<8x4xf16>) -> tensor<8x4xf16>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf16>, tensor<4x8xf16>) outs(%sz : tensor<8x8xf16>) -> tensor<8x8xf16>
  %sm = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %mask : tensor<8x8xf16>, tensor<8x8xf16>) outs(%s0 : tensor<8x8xf16>) {
  ^bb0(%x: f16, %b: f16, %out: f16):
    %y = arith.addf %x, %b : f16
    linalg.yield %y : f16
  } -> tensor<8x8xf16>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf16>) outs(%s0 : tensor<8x8xf16>) -> tensor<8x8xf16>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf16>, tensor<8x4xf16>) outs(%oz : tensor<8x4xf16>) -> tensor<8x4xf16>
  return %o : tensor<8x4xf16>
}

// -----

// CHECK-LABEL: func.func @f16_add_small_bias
// CHECK: "fa.gridwise_attention"
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f16_add_small_bias(%q: tensor<8x4xf16>, %kt: tensor<4x8xf16>, %v: tensor<8x4xf16>, %unused: tensor<8x8xf16>) -> tensor<8x4xf16> {
  %mask = arith.constant dense<[[0.0, -1.5, 3.0, -60.0, 0.0, 2.0, -8.0, 1.0]]> : tensor<1x8xf16>
  %z = arith.constant 0.0 : f16
  %s0 = tensor.empty() : tensor<8x8xf16>
  %sz = linalg.fill ins(%z : f16) outs(%s0 : tensor<8x8xf16>) -> tensor<8x8xf16>
  %o0 = tensor.empty() : tensor<8x4xf16>
  %oz = linalg.fill ins(%z : f16) outs(%o0 : tensor<8x4xf16>) -> tensor<8x4xf16>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf16>, tensor<4x8xf16>) outs(%sz : tensor<8x8xf16>) -> tensor<8x8xf16>
  %sm = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (0, d1)>, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %mask : tensor<8x8xf16>, tensor<1x8xf16>) outs(%s0 : tensor<8x8xf16>) {
  ^bb0(%x: f16, %b: f16, %out: f16):
    %y = arith.addf %x, %b : f16
    linalg.yield %y : f16
  } -> tensor<8x8xf16>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf16>) outs(%s0 : tensor<8x8xf16>) -> tensor<8x8xf16>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf16>, tensor<8x4xf16>) outs(%oz : tensor<8x4xf16>) -> tensor<8x4xf16>
  return %o : tensor<8x4xf16>
}

// -----

// CHECK-LABEL: func.func @lowest_rounded_to_f16
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: "fa.gridwise_attention"
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @lowest_rounded_to_f16(%q: tensor<1x1x2x4xf32>, %k: tensor<1x1x3x4xf32>, %v: tensor<1x1x3x4xf32>, %pad: tensor<1x3xi1>) -> tensor<1x1x2x4xf32> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e2 = tensor.empty() : tensor<1x1x2x3xf32>
  %f3 = linalg.fill ins(%c1 : f32) outs(%e2 : tensor<1x1x2x3xf32>) -> tensor<1x1x2x3xf32>
  %g9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x1x2x4xf32>, tensor<1x1x3x4xf32>) outs(%f3 : tensor<1x1x2x3xf32>) {
  ^bb0(%a4: f32, %a5: f32, %a6: f32):
    %b7 = arith.mulf %a4, %a5 : f32
    %b8 = arith.addf %a6, %b7 : f32
    linalg.yield %b8 : f32
  } -> tensor<1x1x2x3xf32>
  %e10 = tensor.empty() : tensor<1x1x2x3xf32>
  %g16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g9, %pad : tensor<1x1x2x3xf32>, tensor<1x3xi1>) outs(%e10 : tensor<1x1x2x3xf32>) {
  ^bb0(%a11: f32, %a12: i1, %a13: f32):
    %k14 = arith.constant -3.40282347E+38 : f32
    %b15 = arith.select %a12, %k14, %a11 : f32
    linalg.yield %b15 : f32
  } -> tensor<1x1x2x3xf32>
  %e17 = tensor.empty() : tensor<1x1x2x3xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g16 : tensor<1x1x2x3xf32>) outs(%e17 : tensor<1x1x2x3xf32>) {
  ^bb0(%a18: f32, %a19: f32):
    %b20 = arith.truncf %a18 : f32 to f16
    %b21 = arith.extf %b20 : f16 to f32
    linalg.yield %b21 : f32
  } -> tensor<1x1x2x3xf32>
  %e23 = tensor.empty() : tensor<1x1x2x3xf32>
  %p24 = linalg.softmax dimension(3) ins(%g22 : tensor<1x1x2x3xf32>) outs(%e23 : tensor<1x1x2x3xf32>) -> tensor<1x1x2x3xf32>
  %c25 = arith.constant 0.000000000e+00 : f32
  %e26 = tensor.empty() : tensor<1x1x2x4xf32>
  %f27 = linalg.fill ins(%c25 : f32) outs(%e26 : tensor<1x1x2x4xf32>) -> tensor<1x1x2x4xf32>
  %g33 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p24, %v : tensor<1x1x2x3xf32>, tensor<1x1x3x4xf32>) outs(%f27 : tensor<1x1x2x4xf32>) {
  ^bb0(%a28: f32, %a29: f32, %a30: f32):
    %b31 = arith.mulf %a28, %a29 : f32
    %b32 = arith.addf %a30, %b31 : f32
    linalg.yield %b32 : f32
  } -> tensor<1x1x2x4xf32>
  return %g33 : tensor<1x1x2x4xf32>
}

// -----

// A bias added in f32, the sum rounded to f16 before the softmax: score_mod adds
// in f32 and rounds after, as the source does.
// CHECK-LABEL: func.func @bias_rounded_to_f16
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %arg3) {{.*}}score_mod = @[[MOD:fa_bias_[0-9]+]]}
// CHECK: func.func private @[[MOD]](%[[S:.*]]: f32,
// CHECK: %[[SUM:.*]] = arith.addf %[[S]], %{{.*}} : f32
// CHECK: %[[R:.*]] = arith.truncf %[[SUM]] : f32 to f16
// CHECK: arith.extf %[[R]] : f16 to f32
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention (the scores plus its bias in f16/bf16 as the source adds them, computed in the kernel as score_mod, every key tile visited)
func.func @bias_rounded_to_f16(%q: tensor<1x1x2x4xf32>, %k: tensor<1x1x3x4xf32>, %v: tensor<1x1x3x4xf32>, %bias: tensor<1x3xf32>) -> tensor<1x1x2x4xf32> {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e2 = tensor.empty() : tensor<1x1x2x3xf32>
  %f3 = linalg.fill ins(%c1 : f32) outs(%e2 : tensor<1x1x2x3xf32>) -> tensor<1x1x2x3xf32>
  %g9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x1x2x4xf32>, tensor<1x1x3x4xf32>) outs(%f3 : tensor<1x1x2x3xf32>) {
  ^bb0(%a4: f32, %a5: f32, %a6: f32):
    %b7 = arith.mulf %a4, %a5 : f32
    %b8 = arith.addf %a6, %b7 : f32
    linalg.yield %b8 : f32
  } -> tensor<1x1x2x3xf32>
  %e10 = tensor.empty() : tensor<1x1x2x3xf32>
  %g16 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g9, %bias : tensor<1x1x2x3xf32>, tensor<1x3xf32>) outs(%e10 : tensor<1x1x2x3xf32>) {
  ^bb0(%a11: f32, %a12: f32, %a13: f32):
    %b15 = arith.addf %a11, %a12 : f32
    linalg.yield %b15 : f32
  } -> tensor<1x1x2x3xf32>
  %e17 = tensor.empty() : tensor<1x1x2x3xf32>
  %g22 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g16 : tensor<1x1x2x3xf32>) outs(%e17 : tensor<1x1x2x3xf32>) {
  ^bb0(%a18: f32, %a19: f32):
    %b20 = arith.truncf %a18 : f32 to f16
    %b21 = arith.extf %b20 : f16 to f32
    linalg.yield %b21 : f32
  } -> tensor<1x1x2x3xf32>
  %e23 = tensor.empty() : tensor<1x1x2x3xf32>
  %p24 = linalg.softmax dimension(3) ins(%g22 : tensor<1x1x2x3xf32>) outs(%e23 : tensor<1x1x2x3xf32>) -> tensor<1x1x2x3xf32>
  %c25 = arith.constant 0.000000000e+00 : f32
  %e26 = tensor.empty() : tensor<1x1x2x4xf32>
  %f27 = linalg.fill ins(%c25 : f32) outs(%e26 : tensor<1x1x2x4xf32>) -> tensor<1x1x2x4xf32>
  %g33 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p24, %v : tensor<1x1x2x3xf32>, tensor<1x1x3x4xf32>) outs(%f27 : tensor<1x1x2x4xf32>) {
  ^bb0(%a28: f32, %a29: f32, %a30: f32):
    %b31 = arith.mulf %a28, %a29 : f32
    %b32 = arith.addf %a30, %b31 : f32
    linalg.yield %b32 : f32
  } -> tensor<1x1x2x4xf32>
  return %g33 : tensor<1x1x2x4xf32>
}

// -----

// A padding of f16's lowest added to the f16 scores: select(p > 0.8, 0, -65504),
// keys kept with probability 0.1 (fa-check's inputs in [-1, 1]), so that many
// rows are masked entirely: the source's f16 sums there are all -65504 (the
// row averages V); an f32 sum would weigh those keys by exp(s) instead.
// CHECK-LABEL: func.func @f16_pad_lowest
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}, %arg3) {{.*}}score_mod = @[[MOD:fa_bias_[0-9]+]]}
// CHECK: func.func private @[[MOD]](
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : f16
// CHECK: arith.addf %{{.*}}, %{{.*}} : f16
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention (the scores plus its bias in f16/bf16 as the source adds them, computed in the kernel as score_mod, every key tile visited)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f16_pad_lowest(%q: tensor<8x4xf16>, %kt: tensor<4x8xf16>, %v: tensor<8x4xf16>, %pad: tensor<8x8xf16>) -> tensor<8x4xf16> {
  %z = arith.constant 0.0 : f16
  %s0 = tensor.empty() : tensor<8x8xf16>
  %sz = linalg.fill ins(%z : f16) outs(%s0 : tensor<8x8xf16>) -> tensor<8x8xf16>
  %o0 = tensor.empty() : tensor<8x4xf16>
  %oz = linalg.fill ins(%z : f16) outs(%o0 : tensor<8x4xf16>) -> tensor<8x4xf16>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf16>, tensor<4x8xf16>) outs(%sz : tensor<8x8xf16>) -> tensor<8x8xf16>
  %bias = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%pad : tensor<8x8xf16>) outs(%s0 : tensor<8x8xf16>) {
  ^bb0(%p: f16, %out: f16):
    %zero = arith.constant 0.0 : f16
    %low = arith.constant -6.550400e+04 : f16
    %lim = arith.constant 0.8 : f16
    %keep = arith.cmpf ogt, %p, %lim : f16
    %b = arith.select %keep, %zero, %low : f16
    linalg.yield %b : f16
  } -> tensor<8x8xf16>
  %sm = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %bias : tensor<8x8xf16>, tensor<8x8xf16>) outs(%s0 : tensor<8x8xf16>) {
  ^bb0(%x: f16, %b: f16, %out: f16):
    %y = arith.addf %x, %b : f16
    linalg.yield %y : f16
  } -> tensor<8x8xf16>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf16>) outs(%s0 : tensor<8x8xf16>) -> tensor<8x8xf16>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf16>, tensor<8x4xf16>) outs(%oz : tensor<8x4xf16>) -> tensor<8x4xf16>
  return %o : tensor<8x4xf16>
}

// -----

// The same in bf16, whose lowest (-3.39e38) lies below the op's score domain
// (-2.36e38): score_mod clamps its sum to -2.3e38 as the f32 form clamps a bias,
// so a row masked entirely still ties (and averages V), as in the source (keys
// kept where p > 2.9: at input scale 3 about one in sixty, most rows masked
// entirely; unclamped, the op's rows came out 0).
// CHECK-LABEL: func.func @bf16_pad_lowest
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}, %arg3) {{.*}}score_mod = @[[MOD:fa_bias_[0-9]+]]}
// CHECK: func.func private @[[MOD]](
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : bf16
// CHECK: arith.addf %{{.*}}, %{{.*}} : bf16
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention (the scores plus its bias in f16/bf16 as the source adds them, computed in the kernel as score_mod, every key tile visited)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @bf16_pad_lowest(%q: tensor<8x4xbf16>, %kt: tensor<4x8xbf16>, %v: tensor<8x4xbf16>, %pad: tensor<8x8xbf16>) -> tensor<8x4xbf16> {
  %z = arith.constant 0.0 : bf16
  %s0 = tensor.empty() : tensor<8x8xbf16>
  %sz = linalg.fill ins(%z : bf16) outs(%s0 : tensor<8x8xbf16>) -> tensor<8x8xbf16>
  %o0 = tensor.empty() : tensor<8x4xbf16>
  %oz = linalg.fill ins(%z : bf16) outs(%o0 : tensor<8x4xbf16>) -> tensor<8x4xbf16>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xbf16>, tensor<4x8xbf16>) outs(%sz : tensor<8x8xbf16>) -> tensor<8x8xbf16>
  %bias = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%pad : tensor<8x8xbf16>) outs(%s0 : tensor<8x8xbf16>) {
  ^bb0(%p: bf16, %out: bf16):
    %zero = arith.constant 0.0 : bf16
    %low = arith.constant -3.38953139E+38 : bf16
    %lim = arith.constant 2.9 : bf16
    %keep = arith.cmpf ogt, %p, %lim : bf16
    %b = arith.select %keep, %zero, %low : bf16
    linalg.yield %b : bf16
  } -> tensor<8x8xbf16>
  %sm = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %bias : tensor<8x8xbf16>, tensor<8x8xbf16>) outs(%s0 : tensor<8x8xbf16>) {
  ^bb0(%x: bf16, %b: bf16, %out: bf16):
    %y = arith.addf %x, %b : bf16
    linalg.yield %y : bf16
  } -> tensor<8x8xbf16>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xbf16>) outs(%s0 : tensor<8x8xbf16>) -> tensor<8x8xbf16>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xbf16>, tensor<8x4xbf16>) outs(%oz : tensor<8x4xbf16>) -> tensor<8x4xbf16>
  return %o : tensor<8x4xbf16>
}

// -----

// A near miss: an unbounded f16 bias added, then a -inf causal mask (a
// select, not a finite fill that replaces the scores): score_mod would hold
// the half sum and the op the causal mask beside it, which the half form
// does not take: refused with the reason, the source left as it is.
// CHECK-LABEL: func.func @f16_bias_then_causal
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// WHY: remark: fa-fuse-attention: not fused: a bias or fill is added to the scores in f16/bf16 and may be large
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f16_bias_then_causal(%q: tensor<8x4xf16>, %kt: tensor<4x8xf16>, %v: tensor<8x4xf16>, %bias: tensor<8x8xf16>) -> tensor<8x4xf16> {
  %z = arith.constant 0.0 : f16
  %s0 = tensor.empty() : tensor<8x8xf16>
  %sz = linalg.fill ins(%z : f16) outs(%s0 : tensor<8x8xf16>) -> tensor<8x8xf16>
  %o0 = tensor.empty() : tensor<8x4xf16>
  %oz = linalg.fill ins(%z : f16) outs(%o0 : tensor<8x4xf16>) -> tensor<8x4xf16>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf16>, tensor<4x8xf16>) outs(%sz : tensor<8x8xf16>) -> tensor<8x8xf16>
  %sm = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %bias : tensor<8x8xf16>, tensor<8x8xf16>) outs(%s0 : tensor<8x8xf16>) {
  ^bb0(%x: f16, %b: f16, %out: f16):
    %y = arith.addf %x, %b : f16
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %hide = arith.cmpi ugt, %j, %i : index
    %ninf = arith.constant 0xFC00 : f16
    %r = arith.select %hide, %ninf, %y : f16
    linalg.yield %r : f16
  } -> tensor<8x8xf16>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf16>) outs(%s0 : tensor<8x8xf16>) -> tensor<8x8xf16>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf16>, tensor<8x4xf16>) outs(%oz : tensor<8x4xf16>) -> tensor<8x4xf16>
  return %o : tensor<8x4xf16>
}
