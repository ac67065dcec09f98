// Scores reached from a [B*H, M, N] batch matmul through reshapes and a
// transpose that moves only a unit dim (torch.einsum's exports, flash-attn's
// attention_ref: expand to [B, H, M, 1, N], swap the unit dim, collapse):
// each step keeps the elements' order, so together they are the batch split
// and the chain fuses (BatchViews.c, faBatchViewsPeelScoreReshapes). A
// transpose that moves M and N is the transposed scores: refused.
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: fa-check --split-input-file --input-scale=3 %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-2: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// CHECK-LABEL: func.func @einsum_scores
// CHECK: "fa.gridwise_attention"
// CHECK-SAME: scale = 1.250000e-01
// CHECK-NOT: linalg.transpose
// REMARK: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @einsum_scores(%q: tensor<4x20x32xf32>, %k: tensor<4x32x20xf32>, %v: tensor<4x20x32xf32>) -> tensor<4x20x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x20x20xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x20x20xf32>) -> tensor<4x20x20xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<4x20x32xf32>, tensor<4x32x20xf32>) outs(%z0 : tensor<4x20x20xf32>) -> tensor<4x20x20xf32>
  %ex = tensor.expand_shape %s [[0, 1], [2], [3, 4]] output_shape [2, 2, 20, 1, 20] : tensor<4x20x20xf32> into tensor<2x2x20x1x20xf32>
  %e1 = tensor.empty() : tensor<2x2x20x20x1xf32>
  %t = linalg.transpose ins(%ex : tensor<2x2x20x1x20xf32>) outs(%e1 : tensor<2x2x20x20x1xf32>) permutation = [0, 1, 2, 4, 3]
  %c = tensor.collapse_shape %t [[0], [1], [2], [3, 4]] : tensor<2x2x20x20x1xf32> into tensor<2x2x20x20xf32>
  %e2 = tensor.empty() : tensor<2x2x20x20xf32>
  %sc = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<2x2x20x20xf32>) outs(%e2 : tensor<2x2x20x20xf32>) {
  ^bb0(%x: f32, %o: f32):
    %k8 = arith.constant 0.125 : f32
    %y = arith.mulf %x, %k8 : f32
    linalg.yield %y : f32
  } -> tensor<2x2x20x20xf32>
  %p = linalg.softmax dimension(3) ins(%sc : tensor<2x2x20x20xf32>) outs(%e2 : tensor<2x2x20x20xf32>) -> tensor<2x2x20x20xf32>
  %pc = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x2x20x20xf32> into tensor<4x20x20xf32>
  %e3 = tensor.empty() : tensor<4x20x32xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x20x32xf32>) -> tensor<4x20x32xf32>
  %o = linalg.batch_matmul ins(%pc, %v : tensor<4x20x20xf32>, tensor<4x20x32xf32>) outs(%z3 : tensor<4x20x32xf32>) -> tensor<4x20x32xf32>
  return %o : tensor<4x20x32xf32>
}

// -----

// CHECK-LABEL: func.func @transposed_scores
// CHECK-NOT: fa.gridwise_attention
// REMARK: remark: fa-fuse-attention: not fused: the softmax input does not come from a Q*K^T matmul
func.func @transposed_scores(%q: tensor<4x20x32xf32>, %k: tensor<4x32x20xf32>, %v: tensor<4x20x32xf32>) -> tensor<4x20x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x20x20xf32>
  %z0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<4x20x20xf32>) -> tensor<4x20x20xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<4x20x32xf32>, tensor<4x32x20xf32>) outs(%z0 : tensor<4x20x20xf32>) -> tensor<4x20x20xf32>
  %ex = tensor.expand_shape %s [[0, 1], [2], [3, 4]] output_shape [2, 2, 20, 1, 20] : tensor<4x20x20xf32> into tensor<2x2x20x1x20xf32>
  %e1 = tensor.empty() : tensor<2x2x20x1x20xf32>
  %t = linalg.transpose ins(%ex : tensor<2x2x20x1x20xf32>) outs(%e1 : tensor<2x2x20x1x20xf32>) permutation = [0, 1, 4, 3, 2]
  %c = tensor.collapse_shape %t [[0], [1], [2], [3, 4]] : tensor<2x2x20x1x20xf32> into tensor<2x2x20x20xf32>
  %e2 = tensor.empty() : tensor<2x2x20x20xf32>
  %p = linalg.softmax dimension(3) ins(%c : tensor<2x2x20x20xf32>) outs(%e2 : tensor<2x2x20x20xf32>) -> tensor<2x2x20x20xf32>
  %pc = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x2x20x20xf32> into tensor<4x20x20xf32>
  %e3 = tensor.empty() : tensor<4x20x32xf32>
  %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x20x32xf32>) -> tensor<4x20x32xf32>
  %o = linalg.batch_matmul ins(%pc, %v : tensor<4x20x20xf32>, tensor<4x20x32xf32>) outs(%z3 : tensor<4x20x32xf32>) -> tensor<4x20x32xf32>
  return %o : tensor<4x20x32xf32>
}
