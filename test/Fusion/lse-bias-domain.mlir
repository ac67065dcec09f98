// Found by the differential fuzzer (seed 36, program 46915): an lse beside an
// additive padding mask of the lowest f32 (with causal and KV-length masks). A row
// whose every visible key is padded has lse ~ -3.4e38 in the source; the op's
// bias * log2(e) clamps at the lowest f32 there (docs/dialect.md), so its lse
// would be -2.36e38. Refused: an lse beside a bias that may go below -2.36e38.
// RUN: fa-opt --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s
// CHECK: remark: fa-fuse-attention: not fused: the log-sum-exp beside the attention would see a bias below -2.36e38
// RUN: fa-check --seed=2 %s | FileCheck %s --check-prefix=AGREE
// AGREE: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run
func.func @p46915_linalg_combo(%q: tensor<1x1x10x4xf32>, %k: tensor<1x1x6x4xf32>, %v: tensor<1x1x6x4xf32>, %kv: tensor<1xi32>, %pad: tensor<1x6xi1>) -> (tensor<1x1x10x4xf32>, tensor<1x1x10xf32>) {
  %c1 = arith.constant 0.000000000e+00 : f32
  %e2 = tensor.empty() : tensor<1x1x10x6xf32>
  %f3 = linalg.fill ins(%c1 : f32) outs(%e2 : tensor<1x1x10x6xf32>) -> tensor<1x1x10x6xf32>
  %g9 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x1x10x4xf32>, tensor<1x1x6x4xf32>) outs(%f3 : tensor<1x1x10x6xf32>) {
  ^bb0(%a4: f32, %a5: f32, %a6: f32):
    %b7 = arith.mulf %a4, %a5 : f32
    %b8 = arith.addf %a6, %b7 : f32
    linalg.yield %b8 : f32
  } -> tensor<1x1x10x6xf32>
  %e10 = tensor.empty() : tensor<1x1x10x6xf32>
  %g15 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g9 : tensor<1x1x10x6xf32>) outs(%e10 : tensor<1x1x10x6xf32>) {
  ^bb0(%a11: f32, %a12: f32):
    %k13 = arith.constant 1.250000000e-01 : f32
    %b14 = arith.mulf %a11, %k13 : f32
    linalg.yield %b14 : f32
  } -> tensor<1x1x10x6xf32>
  %e16 = tensor.empty() : tensor<1x1x10x6xf32>
  %g24 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g15, %pad : tensor<1x1x10x6xf32>, tensor<1x6xi1>) outs(%e16 : tensor<1x1x10x6xf32>) {
  ^bb0(%a17: f32, %a18: i1, %a19: f32):
    %k20 = arith.constant -3.40282347E+38 : f32
    %k21 = arith.constant 0.000000000e+00 : f32
    %b22 = arith.select %a18, %k21, %k20 : f32
    %b23 = arith.addf %a17, %b22 : f32
    linalg.yield %b23 : f32
  } -> tensor<1x1x10x6xf32>
  %e25 = tensor.empty() : tensor<1x1x10x6xf32>
  %g35 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g24 : tensor<1x1x10x6xf32>) outs(%e25 : tensor<1x1x10x6xf32>) {
  ^bb0(%a26: f32, %a27: f32):
    %i28 = linalg.index 2 : index
    %i29 = linalg.index 3 : index
    %b30 = arith.index_cast %i28 : index to i8
    %b31 = arith.index_cast %i29 : index to i8
    %b32 = arith.cmpi sgt, %b31, %b30 : i8
    %k33 = arith.constant 0xFF800000 : f32
    %b34 = arith.select %b32, %k33, %a26 : f32
    linalg.yield %b34 : f32
  } -> tensor<1x1x10x6xf32>
  %e36 = tensor.empty() : tensor<1x1x10x6xf32>
  %g47 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g35, %kv : tensor<1x1x10x6xf32>, tensor<1xi32>) outs(%e36 : tensor<1x1x10x6xf32>) {
  ^bb0(%a37: f32, %a38: i32, %a39: f32):
    %i40 = linalg.index 3 : index
    %b41 = arith.index_cast %i40 : index to i32
    %k42 = arith.constant 1 : i32
    %b43 = arith.addi %a38, %k42 : i32
    %k44 = arith.constant 0xFF800000 : f32
    %b45 = arith.cmpi sge, %b41, %b43 : i32
    %b46 = arith.select %b45, %k44, %a37 : f32
    linalg.yield %b46 : f32
  } -> tensor<1x1x10x6xf32>
  %e48 = tensor.empty() : tensor<1x1x10x6xf32>
  %p49 = linalg.softmax dimension(3) ins(%g47 : tensor<1x1x10x6xf32>) outs(%e48 : tensor<1x1x10x6xf32>) -> tensor<1x1x10x6xf32>
  %c50 = arith.constant 0xFF800000 : f32
  %e51 = tensor.empty() : tensor<1x1x10xf32>
  %f52 = linalg.fill ins(%c50 : f32) outs(%e51 : tensor<1x1x10xf32>) -> tensor<1x1x10xf32>
  %red53 = linalg.reduce ins(%g47 : tensor<1x1x10x6xf32>) outs(%f52 : tensor<1x1x10xf32>) dimensions = [3]
    (%a54: f32, %a55: f32) {
      %b56 = arith.maxnumf %a54, %a55 : f32
      linalg.yield %b56 : f32
    }
  %e57 = tensor.empty() : tensor<1x1x10xf32>
  %g65 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%red53 : tensor<1x1x10xf32>) outs(%e57 : tensor<1x1x10xf32>) {
  ^bb0(%a58: f32, %a59: f32):
    %b60 = math.absf %a58 : f32
    %k61 = arith.constant 0x7F800000 : f32
    %b62 = arith.cmpf oeq, %b60, %k61 : f32
    %k63 = arith.constant 0.000000000e+00 : f32
    %b64 = arith.select %b62, %k63, %a58 : f32
    linalg.yield %b64 : f32
  } -> tensor<1x1x10xf32>
  %e66 = tensor.empty() : tensor<1x1x10x6xf32>
  %g72 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%g47, %g65 : tensor<1x1x10x6xf32>, tensor<1x1x10xf32>) outs(%e66 : tensor<1x1x10x6xf32>) {
  ^bb0(%a67: f32, %a68: f32, %a69: f32):
    %b70 = arith.subf %a67, %a68 : f32
    %b71 = math.exp %b70 : f32
    linalg.yield %b71 : f32
  } -> tensor<1x1x10x6xf32>
  %c73 = arith.constant 0.000000000e+00 : f32
  %e74 = tensor.empty() : tensor<1x1x10xf32>
  %f75 = linalg.fill ins(%c73 : f32) outs(%e74 : tensor<1x1x10xf32>) -> tensor<1x1x10xf32>
  %red76 = linalg.reduce ins(%g72 : tensor<1x1x10x6xf32>) outs(%f75 : tensor<1x1x10xf32>) dimensions = [3]
    (%a77: f32, %a78: f32) {
      %b79 = arith.addf %a77, %a78 : f32
      linalg.yield %b79 : f32
    }
  %e80 = tensor.empty() : tensor<1x1x10xf32>
  %g86 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%red76, %g65 : tensor<1x1x10xf32>, tensor<1x1x10xf32>) outs(%e80 : tensor<1x1x10xf32>) {
  ^bb0(%a81: f32, %a82: f32, %a83: f32):
    %b84 = math.log %a81 : f32
    %b85 = arith.addf %b84, %a82 : f32
    linalg.yield %b85 : f32
  } -> tensor<1x1x10xf32>
  %c87 = arith.constant 0.000000000e+00 : f32
  %e88 = tensor.empty() : tensor<1x1x10x4xf32>
  %f89 = linalg.fill ins(%c87 : f32) outs(%e88 : tensor<1x1x10x4xf32>) -> tensor<1x1x10x4xf32>
  %g95 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p49, %v : tensor<1x1x10x6xf32>, tensor<1x1x6x4xf32>) outs(%f89 : tensor<1x1x10x4xf32>) {
  ^bb0(%a90: f32, %a91: f32, %a92: f32):
    %b93 = arith.mulf %a90, %a91 : f32
    %b94 = arith.addf %a92, %b93 : f32
    linalg.yield %b94 : f32
  } -> tensor<1x1x10x4xf32>
  return %g95, %g86 : tensor<1x1x10x4xf32>, tensor<1x1x10xf32>
}
