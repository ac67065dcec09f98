// RUN: fa-opt --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=EXPLAIN
// RUN: fa-opt --fa-fuse-attention %fa_src_root/examples/negative_wrong_axis.mlir | FileCheck %s --check-prefix=UNFUSED
// RUN: fa-opt --fa-fuse-attention %fa_src_root/examples/negative_weights_escape.mlir | FileCheck %s --check-prefix=UNFUSED
// UNFUSED-NOT: fa.gridwise_attention
// UNFUSED: linalg.softmax

// CHECK-LABEL: func.func @mul_scale
// CHECK: %[[Q:.*]] = tensor.expand_shape %arg0 {{\[\[}}0, 1], [2], [3]] output_shape [1, 4, 16, 8]
// CHECK: %[[K:.*]] = tensor.expand_shape %arg1
// CHECK: %[[V:.*]] = tensor.expand_shape %arg2
// CHECK: %[[O:.*]] = "fa.gridwise_attention"(%[[Q]], %[[K]], %[[V]]) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 2.500000e-01 : f32} : (tensor<1x4x16x8xf16>, tensor<1x4x32x8xf16>, tensor<1x4x32x8xf16>) -> tensor<1x4x16x8xf16>
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[O]]
// CHECK-NOT: linalg
// CHECK: return %[[R]]
// EXPLAIN: fuse-attention.mlir:[[@LINE+14]]:8: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @mul_scale(%q: tensor<4x16x8xf16>, %k: tensor<4x32x8xf16>, %v: tensor<4x32x8xf16>) -> tensor<4x16x8xf16> {
  %zero = arith.constant 0.0 : f16
  %c = arith.constant 0.25 : f16
  %kt0 = tensor.empty() : tensor<4x8x32xf16>
  %kt = linalg.transpose ins(%k : tensor<4x32x8xf16>) outs(%kt0 : tensor<4x8x32xf16>) permutation = [0, 2, 1]
  %s0 = tensor.empty() : tensor<4x16x32xf16>
  %sz = linalg.fill ins(%zero : f16) outs(%s0 : tensor<4x16x32xf16>) -> tensor<4x16x32xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x16x8xf16>, tensor<4x8x32xf16>) outs(%sz : tensor<4x16x32xf16>) -> tensor<4x16x32xf16>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x16x32xf16>) outs(%s0 : tensor<4x16x32xf16>) {
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

// The P*V accumulator is not zero: the math differs, nothing is fused.
// CHECK-LABEL: func.func @nonzero_init
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// EXPLAIN: fuse-attention.mlir:[[@LINE+8]]:8: remark: fa-fuse-attention: not fused: the P*V accumulator is not zero-filled
func.func @nonzero_init(%q: tensor<16x8xf32>, %k: tensor<32x8xf32>, %v: tensor<32x8xf32>, %acc: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %kt0 = tensor.empty() : tensor<8x32xf32>
  %kt = linalg.transpose ins(%k : tensor<32x8xf32>) outs(%kt0 : tensor<8x32xf32>) permutation = [1, 0]
  %s0 = tensor.empty() : tensor<16x32xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<16x8xf32>, tensor<8x32xf32>) outs(%sz : tensor<16x32xf32>) -> tensor<16x32xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<16x32xf32>) outs(%s0 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %o = linalg.matmul ins(%p, %v : tensor<16x32xf32>, tensor<32x8xf32>) outs(%acc : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}

// K is not transposed by a transpose of the last two dims: refused.
// CHECK-LABEL: func.func @no_transpose
// CHECK-NOT: fa.gridwise_attention
// EXPLAIN: fuse-attention.mlir:[[@LINE+8]]:8: remark: fa-fuse-attention: not fused: the right operand of Q*K^T is not a linalg.transpose of K
func.func @no_transpose(%q: tensor<16x8xf32>, %kt: tensor<8x32xf32>, %v: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<16x32xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<16x8xf32>, tensor<8x32xf32>) outs(%sz : tensor<16x32xf32>) -> tensor<16x32xf32>
  %o0 = tensor.empty() : tensor<16x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<16x32xf32>) outs(%s0 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %o = linalg.matmul ins(%p, %v : tensor<16x32xf32>, tensor<32x8xf32>) outs(%oz : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}
