// L1, L2, L4: named linalg ops; K transposed in every way; scale spellings.
// RUN: fa-opt --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=EXPLAIN

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

// L1 3-D batch_matmul, K by linalg.transpose, scores * c (c first).
// CHECK-LABEL: func.func @bmm_mul_scale
// CHECK: %[[Q:.*]] = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2], [3]] output_shape [1, 4, 16, 8]
// CHECK: %[[K:.*]] = tensor.expand_shape %arg1
// CHECK: %[[V:.*]] = tensor.expand_shape %arg2
// CHECK: %[[O:.*]] = "fa.gridwise_attention"(%[[Q]], %[[K]], %[[V]]) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 2.500000e-01 : f32} : (tensor<1x4x16x8xf16>, tensor<1x4x32x8xf16>, tensor<1x4x32x8xf16>) -> tensor<1x4x16x8xf16>
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[O]] {{\[\[}}0, 1], [2], [3]]
// CHECK-NOT: linalg.
// CHECK: return %[[R]]
// EXPLAIN: linalg-named.mlir:[[@LINE+17]]:8: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @bmm_mul_scale(%q: tensor<4x16x8xf16>, %k: tensor<4x32x8xf16>, %v: tensor<4x32x8xf16>) -> tensor<4x16x8xf16> {
  %zero = arith.constant 0.0 : f16
  %c = arith.constant 0.25 : f16
  %kt0 = tensor.empty() : tensor<4x8x32xf16>
  %kt = linalg.transpose ins(%k : tensor<4x32x8xf16>) outs(%kt0 : tensor<4x8x32xf16>) permutation = [0, 2, 1]
  %s0 = tensor.empty() : tensor<4x16x32xf16>
  %sz = linalg.fill ins(%zero : f16) outs(%s0 : tensor<4x16x32xf16>) -> tensor<4x16x32xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x16x8xf16>, tensor<4x8x32xf16>) outs(%sz : tensor<4x16x32xf16>) -> tensor<4x16x32xf16>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x16x32xf16>) outs(%s0 : tensor<4x16x32xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.mulf %c, %x : f16
    linalg.yield %y : f16
  } -> tensor<4x16x32xf16>
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x16x32xf16>) outs(%s0 : tensor<4x16x32xf16>) -> tensor<4x16x32xf16>
  %o0 = tensor.empty() : tensor<4x16x8xf16>
  %oz = linalg.fill ins(%zero : f16) outs(%o0 : tensor<4x16x8xf16>) -> tensor<4x16x8xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x32xf16>, tensor<4x32x8xf16>) outs(%oz : tensor<4x16x8xf16>) -> tensor<4x16x8xf16>
  return %o : tensor<4x16x8xf16>
}

// L1 2-D matmul, K given already transposed ([D, N]): k_transposed, no scale.
// CHECK-LABEL: func.func @matmul_kt_given
// CHECK: %[[K:.*]] = tensor.expand_shape %arg1 {{\[\[}}0, 1, 2], [3]] output_shape [1, 1, 8, 32]
// CHECK: "fa.gridwise_attention"(%{{.*}}, %[[K]], %{{.*}}) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32} : (tensor<1x1x16x8xf32>, tensor<1x1x8x32xf32>, tensor<1x1x32x8xf32>) -> tensor<1x1x16x8xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]]
// CHECK-NOT: linalg.
func.func @matmul_kt_given(%q: tensor<16x8xf32>, %kt: tensor<8x32xf32>, %v: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<16x32xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<16x8xf32>, tensor<8x32xf32>) outs(%sz : tensor<16x32xf32>) -> tensor<16x32xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<16x32xf32>) outs(%s0 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %o0 = tensor.empty() : tensor<16x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<16x32xf32>, tensor<32x8xf32>) outs(%oz : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}

// L2 matmul whose indexing_maps transpose the right operand (K is [N, D]),
// L4 division by sqrt(d).
// CHECK-LABEL: func.func @matmul_maps_transpose_b
// CHECK: "fa.gridwise_attention"{{.*}} {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.35355{{[0-9]+}} : f32} : (tensor<1x1x16x8xf32>, tensor<1x1x32x8xf32>, tensor<1x1x32x8xf32>)
func.func @matmul_maps_transpose_b(%q: tensor<16x8xf32>, %k: tensor<32x8xf32>, %v: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %d = arith.constant 2.8284271 : f32
  %s0 = tensor.empty() : tensor<16x32xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%q, %k : tensor<16x8xf32>, tensor<32x8xf32>) outs(%sz : tensor<16x32xf32>) -> tensor<16x32xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<16x32xf32>) outs(%s0 : tensor<16x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    linalg.yield %y : f32
  } -> tensor<16x32xf32>
  %p = linalg.softmax dimension(1) ins(%ss : tensor<16x32xf32>) outs(%s0 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %o0 = tensor.empty() : tensor<16x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<16x32xf32>, tensor<32x8xf32>) outs(%oz : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}

// L2 K transposed by a transposing linalg.generic; L1 4-D through
// collapse_shape / expand_shape around 3-D batch_matmul; L4 scale on Q.
// CHECK-LABEL: func.func @generic_transpose_4d
// CHECK-NOT: tensor.expand_shape %arg
// CHECK: %[[O:.*]] = "fa.gridwise_attention"(%arg0, %arg1, %arg2) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.250000e-01 : f32} : (tensor<2x3x16x8xf32>, tensor<2x3x32x8xf32>, tensor<2x3x32x8xf32>) -> tensor<2x3x16x8xf32>
// CHECK-NEXT: return %[[O]]
func.func @generic_transpose_4d(%q: tensor<2x3x16x8xf32>, %k: tensor<2x3x32x8xf32>, %v: tensor<2x3x32x8xf32>) -> tensor<2x3x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.125 : f32
  %qe = tensor.empty() : tensor<2x3x16x8xf32>
  %qs = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q : tensor<2x3x16x8xf32>) outs(%qe : tensor<2x3x16x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x3x16x8xf32>
  %kt0 = tensor.empty() : tensor<2x3x8x32xf32>
  %kt = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, d, c)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<2x3x32x8xf32>) outs(%kt0 : tensor<2x3x8x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x3x8x32xf32>
  %q3 = tensor.collapse_shape %qs [[0, 1], [2], [3]] : tensor<2x3x16x8xf32> into tensor<6x16x8xf32>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x3x8x32xf32> into tensor<6x8x32xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x3x32x8xf32> into tensor<6x32x8xf32>
  %s0 = tensor.empty() : tensor<6x16x32xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<6x16x32xf32>) -> tensor<6x16x32xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<6x16x8xf32>, tensor<6x8x32xf32>) outs(%sz : tensor<6x16x32xf32>) -> tensor<6x16x32xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<6x16x32xf32>) outs(%s0 : tensor<6x16x32xf32>) -> tensor<6x16x32xf32>
  %o0 = tensor.empty() : tensor<6x16x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<6x16x8xf32>) -> tensor<6x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v3 : tensor<6x16x32xf32>, tensor<6x32x8xf32>) outs(%oz : tensor<6x16x8xf32>) -> tensor<6x16x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [2, 3, 16, 8] : tensor<6x16x8xf32> into tensor<2x3x16x8xf32>
  return %o4 : tensor<2x3x16x8xf32>
}

// L4 sqrt(scale) on both Q and K (PyTorch math SDPA), 4-D contraction as a
// linalg.generic whose maps contract over D with K as [N, D].
// CHECK-LABEL: func.func @generic_contraction_sqrt_scale
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.12499{{[0-9]+}} : f32}
// CHECK-NOT: linalg.
func.func @generic_contraction_sqrt_scale(%q: tensor<1x2x16x64xf32>, %k: tensor<1x2x24x64xf32>, %v: tensor<1x2x24x32xf32>) -> tensor<1x2x16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 0.35355339 : f32
  %qe = tensor.empty() : tensor<1x2x16x64xf32>
  %qs = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q : tensor<1x2x16x64xf32>) outs(%qe : tensor<1x2x16x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<1x2x16x64xf32>
  %ke = tensor.empty() : tensor<1x2x24x64xf32>
  %ks = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x2x24x64xf32>) outs(%ke : tensor<1x2x24x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<1x2x24x64xf32>
  %s0 = tensor.empty() : tensor<1x2x16x24xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<1x2x16x24xf32>) -> tensor<1x2x16x24xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%qs, %ks : tensor<1x2x16x64xf32>, tensor<1x2x24x64xf32>) outs(%sz : tensor<1x2x16x24xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16x24xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<1x2x16x24xf32>) outs(%s0 : tensor<1x2x16x24xf32>) -> tensor<1x2x16x24xf32>
  %o0 = tensor.empty() : tensor<1x2x16x32xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<1x2x16x32xf32>) -> tensor<1x2x16x32xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x2x16x24xf32>, tensor<1x2x24x32xf32>) outs(%oz : tensor<1x2x16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x16x32xf32>
  return %o : tensor<1x2x16x32xf32>
}
