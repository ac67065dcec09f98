// Finite fills and half-precision biases (issue 35). A finite fill stands for
// -inf only where it provably dominates every visible score (checkFiniteMask):
// masked_fill(j > i, -1e4) followed by a bias that lifts the masked scores back
// (1500 * (j - i) reaches +10500 there) would give the masked keys most of the
// weight in the source: refused. A bias added in f16 may saturate (f16's lowest
// added to f16 scores makes every score of a masked row -65504, so the row
// averages V) while the op adds in f32: refused unless fusion bounds it within
// +-64; a small constant bias fuses and agrees.
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// RUN: fa-check --split-input-file %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-3: 1 agree, 0 disagree, 0 could not run

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
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: a bias or fill is added to the scores in f16/bf16 and may be large
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
