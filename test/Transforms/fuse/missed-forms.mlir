// Valid attention forms that were refused (issue 35, "Also missed"), each fused
// and checked against the unfused source lowered by upstream MLIR, and beside
// each the near-miss whose math differs, refused (docs/passes.md, the matcher).
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// RUN: fa-check --split-input-file %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-13: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run
// -----

// 5. Single-head attention: the [B, M, N] scores split to [B, 1, M, N] for the
// softmax (the unit head dim grouped with M, as torch's unsqueeze(1) may give)
// and merged back for P V.
// CHECK-LABEL: func.func @single_head(
// CHECK: %[[Q:.*]] = tensor.expand_shape %arg0 {{\[}}[0, 1], [2], [3]] output_shape [2, 1, 5, 16]
// CHECK: "fa.gridwise_attention"(%[[Q]], %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 1.000000e+00 : f32} : (tensor<2x1x5x16xf32>, tensor<2x1x7x16xf32>, tensor<2x1x7x16xf32>) -> tensor<2x1x5x16xf32>
// CHECK-NOT: linalg.
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @single_head(%q: tensor<2x5x16xf32>, %k: tensor<2x7x16xf32>, %v: tensor<2x7x16xf32>) -> tensor<2x5x16xf32> {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %kt0 = tensor.empty() : tensor<2x16x7xf32>
  %kt = linalg.transpose ins(%k : tensor<2x7x16xf32>) outs(%kt0 : tensor<2x16x7xf32>) permutation = [0, 2, 1]
  %s0 = tensor.empty() : tensor<2x5x7xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x5x7xf32>) -> tensor<2x5x7xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x5x16xf32>, tensor<2x16x7xf32>) outs(%sz : tensor<2x5x7xf32>) -> tensor<2x5x7xf32>
  %s4 = tensor.expand_shape %s [[0], [1, 2], [3]] output_shape [2, 1, 5, 7] : tensor<2x5x7xf32> into tensor<2x1x5x7xf32>
  %e4 = tensor.empty() : tensor<2x1x5x7xf32>
  %p = linalg.softmax dimension(3) ins(%s4 : tensor<2x1x5x7xf32>) outs(%e4 : tensor<2x1x5x7xf32>) -> tensor<2x1x5x7xf32>
  %p3 = tensor.collapse_shape %p [[0], [1, 2], [3]] : tensor<2x1x5x7xf32> into tensor<2x5x7xf32>
  %o0 = tensor.empty() : tensor<2x5x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x5x16xf32>) -> tensor<2x5x16xf32>
  %o = linalg.batch_matmul ins(%p3, %v : tensor<2x5x7xf32>, tensor<2x7x16xf32>) outs(%oz : tensor<2x5x16xf32>) -> tensor<2x5x16xf32>
  return %o : tensor<2x5x16xf32>
}

// -----

// The same with the unit head dim grouped with B.
// CHECK-LABEL: func.func @single_head_reassoc_left(
// CHECK: %[[Q:.*]] = tensor.expand_shape %arg0 {{\[}}[0, 1], [2], [3]] output_shape [2, 1, 5, 16]
// CHECK: "fa.gridwise_attention"(%[[Q]], %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 1.000000e+00 : f32} : (tensor<2x1x5x16xf32>, tensor<2x1x7x16xf32>, tensor<2x1x7x16xf32>) -> tensor<2x1x5x16xf32>
// CHECK-NOT: linalg.
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @single_head_reassoc_left(%q: tensor<2x5x16xf32>, %k: tensor<2x7x16xf32>, %v: tensor<2x7x16xf32>) -> tensor<2x5x16xf32> {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %kt0 = tensor.empty() : tensor<2x16x7xf32>
  %kt = linalg.transpose ins(%k : tensor<2x7x16xf32>) outs(%kt0 : tensor<2x16x7xf32>) permutation = [0, 2, 1]
  %s0 = tensor.empty() : tensor<2x5x7xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x5x7xf32>) -> tensor<2x5x7xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x5x16xf32>, tensor<2x16x7xf32>) outs(%sz : tensor<2x5x7xf32>) -> tensor<2x5x7xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 1, 5, 7] : tensor<2x5x7xf32> into tensor<2x1x5x7xf32>
  %e4 = tensor.empty() : tensor<2x1x5x7xf32>
  %p = linalg.softmax dimension(3) ins(%s4 : tensor<2x1x5x7xf32>) outs(%e4 : tensor<2x1x5x7xf32>) -> tensor<2x1x5x7xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x1x5x7xf32> into tensor<2x5x7xf32>
  %o0 = tensor.empty() : tensor<2x5x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x5x16xf32>) -> tensor<2x5x16xf32>
  %o = linalg.batch_matmul ins(%p3, %v : tensor<2x5x7xf32>, tensor<2x7x16xf32>) outs(%oz : tensor<2x5x16xf32>) -> tensor<2x5x16xf32>
  return %o : tensor<2x5x16xf32>
}

// -----

// Near miss: the scores split to [B, M, 1, N] would read M as heads of one
// query each, which Q [B, M, D] is not: the merge back is no [B, H] merge,
// refused.
// CHECK-LABEL: func.func @unit_query_dim(
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: P reaches P*V through a reshape that is not provably a [B, H] batch merge
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
func.func @unit_query_dim(%q: tensor<2x5x16xf32>, %k: tensor<2x7x16xf32>, %v: tensor<2x7x16xf32>) -> tensor<2x5x16xf32> {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %kt0 = tensor.empty() : tensor<2x16x7xf32>
  %kt = linalg.transpose ins(%k : tensor<2x7x16xf32>) outs(%kt0 : tensor<2x16x7xf32>) permutation = [0, 2, 1]
  %s0 = tensor.empty() : tensor<2x5x7xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x5x7xf32>) -> tensor<2x5x7xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x5x16xf32>, tensor<2x16x7xf32>) outs(%sz : tensor<2x5x7xf32>) -> tensor<2x5x7xf32>
  %s4 = tensor.expand_shape %s [[0], [1], [2, 3]] output_shape [2, 5, 1, 7] : tensor<2x5x7xf32> into tensor<2x5x1x7xf32>
  %e4 = tensor.empty() : tensor<2x5x1x7xf32>
  %p = linalg.softmax dimension(3) ins(%s4 : tensor<2x5x1x7xf32>) outs(%e4 : tensor<2x5x1x7xf32>) -> tensor<2x5x1x7xf32>
  %p3 = tensor.collapse_shape %p [[0], [1], [2, 3]] : tensor<2x5x1x7xf32> into tensor<2x5x7xf32>
  %o0 = tensor.empty() : tensor<2x5x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x5x16xf32>) -> tensor<2x5x16xf32>
  %o = linalg.batch_matmul ins(%p3, %v : tensor<2x5x7xf32>, tensor<2x7x16xf32>) outs(%oz : tensor<2x5x16xf32>) -> tensor<2x5x16xf32>
  return %o : tensor<2x5x16xf32>
}
// -----

// 6. Scales written as a function of a constant head dim, folded as the source
// computes them in f32: x * rsqrt(16).
// CHECK-LABEL: func.func @scale_rsqrt(
// CHECK: "fa.gridwise_attention"({{.*}}) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 2.500000e-01 : f32}
// CHECK-NOT: linalg.
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @scale_rsqrt(%q: tensor<2x8x16xf32>, %kt: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %d = arith.constant 16.0 : f32
  %one = arith.constant 1.0 : f32
  %s0 = tensor.empty() : tensor<2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%sz : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x8x8xf32>) outs(%s0 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.rsqrt %d : f32
    %y = arith.mulf %a, %r : f32
    linalg.yield %y : f32
  } -> tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x8x8xf32>) outs(%s0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%oz : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}
// -----

// x * (1 / sqrt(96)): 1/sqrt rounded twice in f32, as the source does.
// CHECK-LABEL: func.func @scale_one_over_sqrt(
// CHECK: "fa.gridwise_attention"({{.*}}) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 0.102062{{[0-9]*}} : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @scale_one_over_sqrt(%q: tensor<2x8x16xf32>, %kt: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %d = arith.constant 96.0 : f32
  %one = arith.constant 1.0 : f32
  %s0 = tensor.empty() : tensor<2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%sz : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x8x8xf32>) outs(%s0 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.sqrt %d : f32
    %inv = arith.divf %one, %r : f32
    %y = arith.mulf %inv, %a : f32
    linalg.yield %y : f32
  } -> tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x8x8xf32>) outs(%s0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%oz : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}
// -----

// x / sqrt(64).
// CHECK-LABEL: func.func @scale_div_sqrt(
// CHECK: "fa.gridwise_attention"({{.*}}) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 1.250000e-01 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @scale_div_sqrt(%q: tensor<2x8x16xf32>, %kt: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %d = arith.constant 64.0 : f32
  %one = arith.constant 1.0 : f32
  %s0 = tensor.empty() : tensor<2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%sz : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x8x8xf32>) outs(%s0 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.sqrt %d : f32
    %y = arith.divf %a, %r : f32
    linalg.yield %y : f32
  } -> tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x8x8xf32>) outs(%s0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%oz : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}
// -----

// Near miss: x / sqrt(-64) divides by NaN (every score is NaN): refused.
// CHECK-LABEL: func.func @scale_sqrt_negative(
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: the scores are scaled by zero or a non-finite constant
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @scale_sqrt_negative(%q: tensor<2x8x16xf32>, %kt: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>) -> tensor<2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %d = arith.constant -64.0 : f32
  %one = arith.constant 1.0 : f32
  %s0 = tensor.empty() : tensor<2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%sz : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x8x8xf32>) outs(%s0 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.sqrt %d : f32
    %y = arith.divf %a, %r : f32
    linalg.yield %y : f32
  } -> tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x8x8xf32>) outs(%s0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%oz : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}
// -----

// Near miss: rsqrt of a tensor, not a constant (a scale per batch): refused.
// CHECK-LABEL: func.func @scale_rsqrt_of_tensor(
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: the softmax input does not come from a Q*K^T matmul
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#b = affine_map<(d0, d1, d2) -> (d0)>
func.func @scale_rsqrt_of_tensor(%q: tensor<2x8x16xf32>, %kt: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %dims: tensor<2xf32>) -> tensor<2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %d = arith.constant 16.0 : f32
  %one = arith.constant 1.0 : f32
  %s0 = tensor.empty() : tensor<2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%sz : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #b, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %dims : tensor<2x8x8xf32>, tensor<2xf32>) outs(%s0 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %dd: f32, %o: f32):
    %r = math.rsqrt %dd : f32
    %y = arith.mulf %a, %r : f32
    linalg.yield %y : f32
  } -> tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<2x8x8xf32>) outs(%s0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%oz : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}
// -----

// TOSA: tosa.rsqrt of the head dim, and tosa.reciprocal of sqrt(d) (a
// constant): scale 1/sqrt(32) either way.
// CHECK-LABEL: func.func @tosa_rsqrt(
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 0.176776{{[0-9]*}} : f32}
// CHECK-NOT: tosa.
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @tosa_rsqrt(%q: tensor<1x4x16x32xf32>, %k: tensor<1x4x32x32xf32>, %v: tensor<1x4x32x32xf32>) -> tensor<1x4x16x32xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %d = "tosa.const"() <{values = dense<32.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %scale = tosa.rsqrt %d : (tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  %s3shape = tosa.const_shape {values = dense<[4, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3shape = tosa.const_shape {values = dense<[4, 32, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4shape = tosa.const_shape {values = dense<[1, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q3 = tosa.reshape %q, %s3shape : (tensor<1x4x16x32xf32>, !tosa.shape<3>) -> tensor<4x16x32xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x4x32x32xf32>) -> tensor<1x4x32x32xf32>
  %k3 = tosa.reshape %kt, %k3shape : (tensor<1x4x32x32xf32>, !tosa.shape<3>) -> tensor<4x32x32xf32>
  %s3 = tosa.matmul %q3, %k3, %zp, %zp : (tensor<4x16x32xf32>, tensor<4x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x32xf32>
  %s = tosa.reshape %s3, %s4shape : (tensor<4x16x32xf32>, !tosa.shape<4>) -> tensor<1x4x16x32xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<1x4x16x32xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x16x32xf32>
  %max = tosa.reduce_max %ss {axis = 3 : i32} : (tensor<1x4x16x32xf32>) -> tensor<1x4x16x1xf32>
  %sub = tosa.sub %ss, %max : (tensor<1x4x16x32xf32>, tensor<1x4x16x1xf32>) -> tensor<1x4x16x32xf32>
  %e = tosa.exp %sub : (tensor<1x4x16x32xf32>) -> tensor<1x4x16x32xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x4x16x32xf32>) -> tensor<1x4x16x1xf32>
  %r = tosa.reciprocal %sum : (tensor<1x4x16x1xf32>) -> tensor<1x4x16x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x4x16x32xf32>, tensor<1x4x16x1xf32>, tensor<1xi8>) -> tensor<1x4x16x32xf32>
  %p3 = tosa.reshape %p, %s3shape : (tensor<1x4x16x32xf32>, !tosa.shape<3>) -> tensor<4x16x32xf32>
  %v3 = tosa.reshape %v, %k3shape : (tensor<1x4x32x32xf32>, !tosa.shape<3>) -> tensor<4x32x32xf32>
  %o3 = tosa.matmul %p3, %v3, %zp, %zp : (tensor<4x16x32xf32>, tensor<4x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x32xf32>
  %o = tosa.reshape %o3, %s4shape : (tensor<4x16x32xf32>, !tosa.shape<4>) -> tensor<1x4x16x32xf32>
  return %o : tensor<1x4x16x32xf32>
}

// -----

// CHECK-LABEL: func.func @tosa_reciprocal(
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 0.176776{{[0-9]*}} : f32}
// CHECK-NOT: tosa.
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @tosa_reciprocal(%q: tensor<1x4x16x32xf32>, %k: tensor<1x4x32x32xf32>, %v: tensor<1x4x32x32xf32>) -> tensor<1x4x16x32xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %d = "tosa.const"() <{values = dense<5.65685415> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %scale = tosa.reciprocal %d : (tensor<1x1x1x1xf32>) -> tensor<1x1x1x1xf32>
  %s3shape = tosa.const_shape {values = dense<[4, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3shape = tosa.const_shape {values = dense<[4, 32, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4shape = tosa.const_shape {values = dense<[1, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q3 = tosa.reshape %q, %s3shape : (tensor<1x4x16x32xf32>, !tosa.shape<3>) -> tensor<4x16x32xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x4x32x32xf32>) -> tensor<1x4x32x32xf32>
  %k3 = tosa.reshape %kt, %k3shape : (tensor<1x4x32x32xf32>, !tosa.shape<3>) -> tensor<4x32x32xf32>
  %s3 = tosa.matmul %q3, %k3, %zp, %zp : (tensor<4x16x32xf32>, tensor<4x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x32xf32>
  %s = tosa.reshape %s3, %s4shape : (tensor<4x16x32xf32>, !tosa.shape<4>) -> tensor<1x4x16x32xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<1x4x16x32xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x16x32xf32>
  %max = tosa.reduce_max %ss {axis = 3 : i32} : (tensor<1x4x16x32xf32>) -> tensor<1x4x16x1xf32>
  %sub = tosa.sub %ss, %max : (tensor<1x4x16x32xf32>, tensor<1x4x16x1xf32>) -> tensor<1x4x16x32xf32>
  %e = tosa.exp %sub : (tensor<1x4x16x32xf32>) -> tensor<1x4x16x32xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x4x16x32xf32>) -> tensor<1x4x16x1xf32>
  %r = tosa.reciprocal %sum : (tensor<1x4x16x1xf32>) -> tensor<1x4x16x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x4x16x32xf32>, tensor<1x4x16x1xf32>, tensor<1xi8>) -> tensor<1x4x16x32xf32>
  %p3 = tosa.reshape %p, %s3shape : (tensor<1x4x16x32xf32>, !tosa.shape<3>) -> tensor<4x16x32xf32>
  %v3 = tosa.reshape %v, %k3shape : (tensor<1x4x32x32xf32>, !tosa.shape<3>) -> tensor<4x32x32xf32>
  %o3 = tosa.matmul %p3, %v3, %zp, %zp : (tensor<4x16x32xf32>, tensor<4x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x32xf32>
  %o = tosa.reshape %o3, %s4shape : (tensor<4x16x32xf32>, !tosa.shape<4>) -> tensor<1x4x16x32xf32>
  return %o : tensor<1x4x16x32xf32>
}

// -----

// Near miss: rsqrt of a tensor (a scale per head): refused.
// CHECK-LABEL: func.func @tosa_rsqrt_of_tensor(
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: the scores are scaled by something that is not a splat constant
func.func @tosa_rsqrt_of_tensor(%q: tensor<1x4x16x32xf32>, %k: tensor<1x4x32x32xf32>, %v: tensor<1x4x32x32xf32>, %d: tensor<1x4x1x1xf32>) -> tensor<1x4x16x32xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %scale = tosa.rsqrt %d : (tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %s3shape = tosa.const_shape {values = dense<[4, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3shape = tosa.const_shape {values = dense<[4, 32, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4shape = tosa.const_shape {values = dense<[1, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q3 = tosa.reshape %q, %s3shape : (tensor<1x4x16x32xf32>, !tosa.shape<3>) -> tensor<4x16x32xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x4x32x32xf32>) -> tensor<1x4x32x32xf32>
  %k3 = tosa.reshape %kt, %k3shape : (tensor<1x4x32x32xf32>, !tosa.shape<3>) -> tensor<4x32x32xf32>
  %s3 = tosa.matmul %q3, %k3, %zp, %zp : (tensor<4x16x32xf32>, tensor<4x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x32xf32>
  %s = tosa.reshape %s3, %s4shape : (tensor<4x16x32xf32>, !tosa.shape<4>) -> tensor<1x4x16x32xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<1x4x16x32xf32>, tensor<1x4x1x1xf32>, tensor<1xi8>) -> tensor<1x4x16x32xf32>
  %max = tosa.reduce_max %ss {axis = 3 : i32} : (tensor<1x4x16x32xf32>) -> tensor<1x4x16x1xf32>
  %sub = tosa.sub %ss, %max : (tensor<1x4x16x32xf32>, tensor<1x4x16x1xf32>) -> tensor<1x4x16x32xf32>
  %e = tosa.exp %sub : (tensor<1x4x16x32xf32>) -> tensor<1x4x16x32xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x4x16x32xf32>) -> tensor<1x4x16x1xf32>
  %r = tosa.reciprocal %sum : (tensor<1x4x16x1xf32>) -> tensor<1x4x16x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x4x16x32xf32>, tensor<1x4x16x1xf32>, tensor<1xi8>) -> tensor<1x4x16x32xf32>
  %p3 = tosa.reshape %p, %s3shape : (tensor<1x4x16x32xf32>, !tosa.shape<3>) -> tensor<4x16x32xf32>
  %v3 = tosa.reshape %v, %k3shape : (tensor<1x4x32x32xf32>, !tosa.shape<3>) -> tensor<4x32x32xf32>
  %o3 = tosa.matmul %p3, %v3, %zp, %zp : (tensor<4x16x32xf32>, tensor<4x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x32xf32>
  %o = tosa.reshape %o3, %s4shape : (tensor<4x16x32xf32>, !tosa.shape<4>) -> tensor<1x4x16x32xf32>
  return %o : tensor<1x4x16x32xf32>
}
// -----

// 7. TOSA with a single key (N = 1): the row max and sum keep their reduced dim,
// of size 1 like the key dim they are read along.
// CHECK-LABEL: func.func @tosa_one_key(
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 1.250000e-01 : f32} : (tensor<1x4x16x32xf32>, tensor<1x4x1x32xf32>, tensor<1x4x1x32xf32>) -> tensor<1x4x16x32xf32>
// CHECK-NOT: tosa.
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @tosa_one_key(%q: tensor<1x4x16x32xf32>, %k: tensor<1x4x1x32xf32>, %v: tensor<1x4x1x32xf32>) -> tensor<1x4x16x32xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %q3shape = tosa.const_shape {values = dense<[4, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3shape = tosa.const_shape {values = dense<[4, 32, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v3shape = tosa.const_shape {values = dense<[4, 1, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s3shape = tosa.const_shape {values = dense<[4, 16, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4shape = tosa.const_shape {values = dense<[1, 4, 16, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4shape = tosa.const_shape {values = dense<[1, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q3 = tosa.reshape %q, %q3shape : (tensor<1x4x16x32xf32>, !tosa.shape<3>) -> tensor<4x16x32xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x4x1x32xf32>) -> tensor<1x4x32x1xf32>
  %k3 = tosa.reshape %kt, %k3shape : (tensor<1x4x32x1xf32>, !tosa.shape<3>) -> tensor<4x32x1xf32>
  %s3 = tosa.matmul %q3, %k3, %zp, %zp : (tensor<4x16x32xf32>, tensor<4x32x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x1xf32>
  %s = tosa.reshape %s3, %s4shape : (tensor<4x16x1xf32>, !tosa.shape<4>) -> tensor<1x4x16x1xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<1x4x16x1xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x16x1xf32>
  %max = tosa.reduce_max %ss {axis = 3 : i32} : (tensor<1x4x16x1xf32>) -> tensor<1x4x16x1xf32>
  %sub = tosa.sub %ss, %max : (tensor<1x4x16x1xf32>, tensor<1x4x16x1xf32>) -> tensor<1x4x16x1xf32>
  %e = tosa.exp %sub : (tensor<1x4x16x1xf32>) -> tensor<1x4x16x1xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x4x16x1xf32>) -> tensor<1x4x16x1xf32>
  %r = tosa.reciprocal %sum : (tensor<1x4x16x1xf32>) -> tensor<1x4x16x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x4x16x1xf32>, tensor<1x4x16x1xf32>, tensor<1xi8>) -> tensor<1x4x16x1xf32>
  %p3 = tosa.reshape %p, %s3shape : (tensor<1x4x16x1xf32>, !tosa.shape<3>) -> tensor<4x16x1xf32>
  %v3 = tosa.reshape %v, %v3shape : (tensor<1x4x1x32xf32>, !tosa.shape<3>) -> tensor<4x1x32xf32>
  %o3 = tosa.matmul %p3, %v3, %zp, %zp : (tensor<4x16x1xf32>, tensor<4x1x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x32xf32>
  %o = tosa.reshape %o3, %o4shape : (tensor<4x16x32xf32>, !tosa.shape<4>) -> tensor<1x4x16x32xf32>
  return %o : tensor<1x4x16x32xf32>
}

// -----

// Near miss: the same with the sum taken over the heads (axis 1), not the key:
// refused.
// CHECK-LABEL: func.func @tosa_one_key_sum_over_heads(
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: the softmax sum is not taken over the last (key) axis
func.func @tosa_one_key_sum_over_heads(%q: tensor<1x4x16x32xf32>, %k: tensor<1x4x1x32xf32>, %v: tensor<1x4x1x32xf32>) -> tensor<1x4x16x32xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %q3shape = tosa.const_shape {values = dense<[4, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3shape = tosa.const_shape {values = dense<[4, 32, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v3shape = tosa.const_shape {values = dense<[4, 1, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s3shape = tosa.const_shape {values = dense<[4, 16, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4shape = tosa.const_shape {values = dense<[1, 4, 16, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4shape = tosa.const_shape {values = dense<[1, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q3 = tosa.reshape %q, %q3shape : (tensor<1x4x16x32xf32>, !tosa.shape<3>) -> tensor<4x16x32xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x4x1x32xf32>) -> tensor<1x4x32x1xf32>
  %k3 = tosa.reshape %kt, %k3shape : (tensor<1x4x32x1xf32>, !tosa.shape<3>) -> tensor<4x32x1xf32>
  %s3 = tosa.matmul %q3, %k3, %zp, %zp : (tensor<4x16x32xf32>, tensor<4x32x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x1xf32>
  %s = tosa.reshape %s3, %s4shape : (tensor<4x16x1xf32>, !tosa.shape<4>) -> tensor<1x4x16x1xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<1x4x16x1xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x16x1xf32>
  %max = tosa.reduce_max %ss {axis = 3 : i32} : (tensor<1x4x16x1xf32>) -> tensor<1x4x16x1xf32>
  %sub = tosa.sub %ss, %max : (tensor<1x4x16x1xf32>, tensor<1x4x16x1xf32>) -> tensor<1x4x16x1xf32>
  %e = tosa.exp %sub : (tensor<1x4x16x1xf32>) -> tensor<1x4x16x1xf32>
  %sum = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<1x4x16x1xf32>) -> tensor<1x1x16x1xf32>
  %r = tosa.reciprocal %sum : (tensor<1x1x16x1xf32>) -> tensor<1x1x16x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x4x16x1xf32>, tensor<1x1x16x1xf32>, tensor<1xi8>) -> tensor<1x4x16x1xf32>
  %p3 = tosa.reshape %p, %s3shape : (tensor<1x4x16x1xf32>, !tosa.shape<3>) -> tensor<4x16x1xf32>
  %v3 = tosa.reshape %v, %v3shape : (tensor<1x4x1x32xf32>, !tosa.shape<3>) -> tensor<4x1x32xf32>
  %o3 = tosa.matmul %p3, %v3, %zp, %zp : (tensor<4x16x1xf32>, tensor<4x1x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x32xf32>
  %o = tosa.reshape %o3, %o4shape : (tensor<4x16x32xf32>, !tosa.shape<4>) -> tensor<1x4x16x32xf32>
  return %o : tensor<1x4x16x32xf32>
}
