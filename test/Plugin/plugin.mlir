// The plugin loads into Debian's mlir-opt 22, lists our passes, defines the
// dialect and runs the fusion through MLIR's own pass registry.

// RUN: %mlir_opt --load-pass-plugin=%fa_plugin --help | FileCheck %s --check-prefix=HELP
// HELP-DAG: --fa-fuse-attention
// HELP-DAG: --fa-verify

// RUN: %mlir_opt --load-pass-plugin=%fa_plugin --pass-pipeline='builtin.module(fa-fuse-attention)' %s | FileCheck %s
// RUN: %mlir_opt --load-dialect-plugin=%fa_plugin --load-pass-plugin=%fa_plugin --pass-pipeline="builtin.module(fa-fuse-attention)" %s | %mlir_opt --load-dialect-plugin=%fa_plugin | FileCheck %s

// CHECK-LABEL: func.func @attention
// CHECK: "fa.gridwise_attention"
// CHECK-SAME: scale = 5.000000e-01 : f32
// CHECK-NOT: linalg.softmax
func.func @attention(%q: tensor<4x16x8xf32>, %k: tensor<4x32x8xf32>, %v: tensor<4x32x8xf32>) -> tensor<4x16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c = arith.constant 2.0 : f32
  %kt0 = tensor.empty() : tensor<4x8x32xf32>
  %kt = linalg.transpose ins(%k : tensor<4x32x8xf32>) outs(%kt0 : tensor<4x8x32xf32>) permutation = [0, 2, 1]
  %s0 = tensor.empty() : tensor<4x16x32xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<4x16x32xf32>) -> tensor<4x16x32xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x16x8xf32>, tensor<4x8x32xf32>) outs(%sz : tensor<4x16x32xf32>) -> tensor<4x16x32xf32>
  %ss = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x16x32xf32>) outs(%s0 : tensor<4x16x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.divf %x, %c : f32
    linalg.yield %y : f32
  } -> tensor<4x16x32xf32>
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x16x32xf32>) outs(%s0 : tensor<4x16x32xf32>) -> tensor<4x16x32xf32>
  %o0 = tensor.empty() : tensor<4x16x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x32xf32>, tensor<4x32x8xf32>) outs(%oz : tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %o : tensor<4x16x8xf32>
}
