// Valid attention forms that were refused (issue 35, "Also missed"), each fused
// and checked against the unfused source lowered by upstream MLIR (fa-check:
// random inputs, then float argument 3 as a 0/1 mask and integers in 0..1, the
// masks HF passes), and beside each a near miss whose math differs, refused
// (docs/passes.md, the matcher).
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// RUN: fa-check --split-input-file %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-31: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run
// RUN: fa-check --split-input-file --binary-arg=3 --int-max=1 %s | FileCheck %s --check-prefix=MASKS
// MASKS-COUNT-31: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// 1. An f16 model in SDPA's math form (a timm ViT export): Q, K and V extended
// to f32 before the GEMMs, V [B, S, H, D] transposed to [B, H, S, D] after its
// extension. The op reads the f16 tensors, V in place (v_bshd).
// CHECK-LABEL: func.func @f16_v_transposed_after_extf(
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 2.500000e-01 : f32, v_bshd} : (tensor<1x2x8x16xf16>, tensor<1x2x8x16xf16>, tensor<1x8x2x16xf16>) -> tensor<1x2x8x16xf32>
// CHECK-NOT: linalg.
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @f16_v_transposed_after_extf(%q: tensor<1x2x8x16xf16>, %k: tensor<1x2x8x16xf16>, %v: tensor<1x8x2x16xf16>) -> tensor<1x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %c = arith.constant 0.5 : f32
  %e4 = tensor.empty() : tensor<1x2x8x16xf32>
  %qf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q : tensor<1x2x8x16xf16>) outs(%e4 : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<1x2x8x16xf32>
  %kf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x2x8x16xf16>) outs(%e4 : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<1x2x8x16xf32>
  %ve = tensor.empty() : tensor<1x8x2x16xf32>
  %vf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<1x8x2x16xf16>) outs(%ve : tensor<1x8x2x16xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<1x8x2x16xf32>
  %vt = linalg.transpose ins(%vf : tensor<1x8x2x16xf32>) outs(%e4 : tensor<1x2x8x16xf32>) permutation = [0, 2, 1, 3]
  %qs = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qf : tensor<1x2x8x16xf32>) outs(%e4 : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.mulf %a, %c : f32
    linalg.yield %x : f32
  } -> tensor<1x2x8x16xf32>
  %kte = tensor.empty() : tensor<1x2x16x8xf32>
  %kt = linalg.transpose ins(%kf : tensor<1x2x8x16xf32>) outs(%kte : tensor<1x2x16x8xf32>) permutation = [0, 1, 3, 2]
  %ks = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%kt : tensor<1x2x16x8xf32>) outs(%kte : tensor<1x2x16x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.mulf %a, %c : f32
    linalg.yield %x : f32
  } -> tensor<1x2x16x8xf32>
  %q3 = tensor.collapse_shape %qs [[0, 1], [2], [3]] : tensor<1x2x8x16xf32> into tensor<2x8x16xf32>
  %k3 = tensor.collapse_shape %ks [[0, 1], [2], [3]] : tensor<1x2x16x8xf32> into tensor<2x16x8xf32>
  %v3 = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<1x2x8x16xf32> into tensor<2x8x16xf32>
  %s0 = tensor.empty() : tensor<2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%sz : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x8x8xf32>) outs(%s0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v3 : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%oz : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 8, 16] : tensor<2x8x16xf32> into tensor<1x2x8x16xf32>
  return %o4 : tensor<1x2x8x16xf32>
}

// -----

// Q and K transposed after their extension (K to K^T [B, H, D, S]), V not;
// O rounded back to f16 by the source, as the op writes it.
// CHECK-LABEL: func.func @f16_qk_transposed_after_extf(
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {k_bshd, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, scale = 2.500000e-01 : f32} : (tensor<1x8x2x16xf16>, tensor<1x8x2x16xf16>, tensor<1x2x8x16xf16>) -> tensor<1x2x8x16xf16>
// CHECK-NOT: linalg.
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @f16_qk_transposed_after_extf(%q: tensor<1x8x2x16xf16>, %k: tensor<1x8x2x16xf16>, %v: tensor<1x2x8x16xf16>) -> tensor<1x2x8x16xf16> {
  %z = arith.constant 0.0 : f32
  %c = arith.constant 0.25 : f32
  %eb = tensor.empty() : tensor<1x8x2x16xf32>
  %qf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q : tensor<1x8x2x16xf16>) outs(%eb : tensor<1x8x2x16xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<1x8x2x16xf32>
  %kf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x8x2x16xf16>) outs(%eb : tensor<1x8x2x16xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<1x8x2x16xf32>
  %e4 = tensor.empty() : tensor<1x2x8x16xf32>
  %vf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<1x2x8x16xf16>) outs(%e4 : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<1x2x8x16xf32>
  %qt = linalg.transpose ins(%qf : tensor<1x8x2x16xf32>) outs(%e4 : tensor<1x2x8x16xf32>) permutation = [0, 2, 1, 3]
  %kte = tensor.empty() : tensor<1x2x16x8xf32>
  %kt = linalg.transpose ins(%kf : tensor<1x8x2x16xf32>) outs(%kte : tensor<1x2x16x8xf32>) permutation = [0, 2, 3, 1]
  %qs = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qt : tensor<1x2x8x16xf32>) outs(%e4 : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.mulf %a, %c : f32
    linalg.yield %x : f32
  } -> tensor<1x2x8x16xf32>
  %q3 = tensor.collapse_shape %qs [[0, 1], [2], [3]] : tensor<1x2x8x16xf32> into tensor<2x8x16xf32>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x16x8xf32> into tensor<2x16x8xf32>
  %v3 = tensor.collapse_shape %vf [[0, 1], [2], [3]] : tensor<1x2x8x16xf32> into tensor<2x8x16xf32>
  %s0 = tensor.empty() : tensor<2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%sz : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x8x8xf32>) outs(%s0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v3 : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%oz : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 8, 16] : tensor<2x8x16xf32> into tensor<1x2x8x16xf32>
  %oh0 = tensor.empty() : tensor<1x2x8x16xf16>
  %oh = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o4 : tensor<1x2x8x16xf32>) outs(%oh0 : tensor<1x2x8x16xf16>) {
  ^bb0(%a: f32, %out: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x2x8x16xf16>
  return %oh : tensor<1x2x8x16xf16>
}

// -----

// Near miss: V extended from bf16, Q and K from f16: no one half type holds
// all three, refused.
// CHECK-LABEL: func.func @bf16_v_with_f16_qk(
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: Q, K and V have different element types
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @bf16_v_with_f16_qk(%q: tensor<1x2x8x16xf16>, %k: tensor<1x2x8x16xf16>, %v: tensor<1x8x2x16xbf16>) -> tensor<1x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %c = arith.constant 0.5 : f32
  %e4 = tensor.empty() : tensor<1x2x8x16xf32>
  %qf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q : tensor<1x2x8x16xf16>) outs(%e4 : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<1x2x8x16xf32>
  %kf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x2x8x16xf16>) outs(%e4 : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<1x2x8x16xf32>
  %ve = tensor.empty() : tensor<1x8x2x16xf32>
  %vf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<1x8x2x16xbf16>) outs(%ve : tensor<1x8x2x16xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %x = arith.extf %a : bf16 to f32
    linalg.yield %x : f32
  } -> tensor<1x8x2x16xf32>
  %vt = linalg.transpose ins(%vf : tensor<1x8x2x16xf32>) outs(%e4 : tensor<1x2x8x16xf32>) permutation = [0, 2, 1, 3]
  %qs = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qf : tensor<1x2x8x16xf32>) outs(%e4 : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.mulf %a, %c : f32
    linalg.yield %x : f32
  } -> tensor<1x2x8x16xf32>
  %kte = tensor.empty() : tensor<1x2x16x8xf32>
  %kt = linalg.transpose ins(%kf : tensor<1x2x8x16xf32>) outs(%kte : tensor<1x2x16x8xf32>) permutation = [0, 1, 3, 2]
  %ks = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%kt : tensor<1x2x16x8xf32>) outs(%kte : tensor<1x2x16x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.mulf %a, %c : f32
    linalg.yield %x : f32
  } -> tensor<1x2x16x8xf32>
  %q3 = tensor.collapse_shape %qs [[0, 1], [2], [3]] : tensor<1x2x8x16xf32> into tensor<2x8x16xf32>
  %k3 = tensor.collapse_shape %ks [[0, 1], [2], [3]] : tensor<1x2x16x8xf32> into tensor<2x16x8xf32>
  %v3 = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<1x2x8x16xf32> into tensor<2x8x16xf32>
  %s0 = tensor.empty() : tensor<2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%sz : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<2x8x8xf32>) outs(%s0 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%p, %v3 : tensor<2x8x8xf32>, tensor<2x8x16xf32>) outs(%oz : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 8, 16] : tensor<2x8x16xf32> into tensor<1x2x8x16xf32>
  return %o4 : tensor<1x2x8x16xf32>
}
// -----

// 2. A causal mask compared in float: keys j with float(j) > float(i) + 4
// (sitofp of the indices, exact in f32 for these sizes) give causal_offset 4.
// CHECK-LABEL: func.func @sitofp_causal(
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {causal_offset = 4 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// CHECK-NOT: linalg.
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @sitofp_causal(%q: tensor<1x2x4x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x2x4x16xf32> {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c4 = arith.constant 4.0 : f32
  %s0 = tensor.empty() : tensor<1x2x4x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x2x4x16xf32>, tensor<1x2x8x16xf32>) outs(%sz : tensor<1x2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x8xf32>
  %masked = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x2x4x8xf32>) outs(%s0 : tensor<1x2x4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ii = arith.index_cast %i : index to i64
    %ji = arith.index_cast %j : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    %fj = arith.sitofp %ji : i64 to f32
    %fi4 = arith.addf %fi, %c4 : f32
    %above = arith.cmpf ogt, %fj, %fi4 : f32
    %y = arith.select %above, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x8xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<1x2x4x8xf32>) outs(%s0 : tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  %o0 = tensor.empty() : tensor<1x2x4x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x2x4x16xf32>) -> tensor<1x2x4x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x2x4x8xf32>, tensor<1x2x8x16xf32>) outs(%oz : tensor<1x2x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x16xf32>
  return %o : tensor<1x2x4x16xf32>
}

// -----

// The same in bf16, whose integers are exact up to 256: the 8 keys are.
// CHECK-LABEL: func.func @sitofp_causal_bf16(
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {causal_offset = 4 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @sitofp_causal_bf16(%q: tensor<1x2x4x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x2x4x16xf32> {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c4 = arith.constant 4.0 : bf16
  %s0 = tensor.empty() : tensor<1x2x4x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x2x4x16xf32>, tensor<1x2x8x16xf32>) outs(%sz : tensor<1x2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x8xf32>
  %masked = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x2x4x8xf32>) outs(%s0 : tensor<1x2x4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ii = arith.index_cast %i : index to i64
    %ji = arith.index_cast %j : index to i64
    %fi = arith.sitofp %ii : i64 to bf16
    %fj = arith.sitofp %ji : i64 to bf16
    %fi4 = arith.addf %fi, %c4 : bf16
    %above = arith.cmpf ogt, %fj, %fi4 : bf16
    %y = arith.select %above, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x8xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<1x2x4x8xf32>) outs(%s0 : tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  %o0 = tensor.empty() : tensor<1x2x4x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x2x4x16xf32>) -> tensor<1x2x4x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x2x4x8xf32>, tensor<1x2x8x16xf32>) outs(%oz : tensor<1x2x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x16xf32>
  return %o : tensor<1x2x4x16xf32>
}

// -----

// Near miss: 300 keys in bf16, where key 257 reads as 256 (float(j) > float(i)
// + 4 then masks other keys than j > i + 4): refused.
// CHECK-LABEL: func.func @sitofp_causal_bf16_inexact(
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: a mask's index arithmetic may wrap or round in its type
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @sitofp_causal_bf16_inexact(%q: tensor<1x2x4x16xf32>, %k: tensor<1x2x300x16xf32>, %v: tensor<1x2x300x16xf32>) -> tensor<1x2x4x16xf32> {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c4 = arith.constant 4.0 : bf16
  %s0 = tensor.empty() : tensor<1x2x4x300xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<1x2x4x300xf32>) -> tensor<1x2x4x300xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x2x4x16xf32>, tensor<1x2x300x16xf32>) outs(%sz : tensor<1x2x4x300xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x300xf32>
  %masked = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x2x4x300xf32>) outs(%s0 : tensor<1x2x4x300xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ii = arith.index_cast %i : index to i64
    %ji = arith.index_cast %j : index to i64
    %fi = arith.sitofp %ii : i64 to bf16
    %fj = arith.sitofp %ji : i64 to bf16
    %fi4 = arith.addf %fi, %c4 : bf16
    %above = arith.cmpf ogt, %fj, %fi4 : bf16
    %y = arith.select %above, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x300xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<1x2x4x300xf32>) outs(%s0 : tensor<1x2x4x300xf32>) -> tensor<1x2x4x300xf32>
  %o0 = tensor.empty() : tensor<1x2x4x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x2x4x16xf32>) -> tensor<1x2x4x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x2x4x300xf32>, tensor<1x2x300x16xf32>) outs(%oz : tensor<1x2x4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x16xf32>
  return %o : tensor<1x2x4x16xf32>
}
// -----

// 3. GQA as PyTorch's math SDPA writes it with enable_gqa: K and V repeated
// (repeat_interleave: a broadcasting generic), Q and the repeated K scaled by
// sqrt(scale) = 8^-1/4 each, K on the repeated [B, Hkv, G, N, D] tensor.
// CHECK-LABEL: func.func @gqa_scaled_after_repeat(
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.353553{{[0-9]*}} : f32} : (tensor<1x6x5x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>) -> tensor<1x6x5x8xf32>
// CHECK-NOT: linalg.
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#rep = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @gqa_scaled_after_repeat(%q: tensor<1x6x5x8xf32>, %k: tensor<1x2x7x8xf32>, %v: tensor<1x2x7x8xf32>) -> tensor<1x6x5x8xf32> {
  %z = arith.constant 0.0 : f32
  %c = arith.constant 0.594603539 : f32
  %e5 = tensor.empty() : tensor<1x2x3x7x8xf32>
  %kb = linalg.generic {indexing_maps = [#rep, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x2x7x8xf32>) outs(%e5 : tensor<1x2x3x7x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x2x3x7x8xf32>
  %ks = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%kb : tensor<1x2x3x7x8xf32>) outs(%e5 : tensor<1x2x3x7x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.mulf %a, %c : f32
    linalg.yield %x : f32
  } -> tensor<1x2x3x7x8xf32>
  %kg = tensor.collapse_shape %ks [[0], [1, 2], [3], [4]] : tensor<1x2x3x7x8xf32> into tensor<1x6x7x8xf32>
  %vb = linalg.generic {indexing_maps = [#rep, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<1x2x7x8xf32>) outs(%e5 : tensor<1x2x3x7x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x2x3x7x8xf32>
  %vg = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<1x2x3x7x8xf32> into tensor<1x6x7x8xf32>
  %e4 = tensor.empty() : tensor<1x6x5x8xf32>
  %qs = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q : tensor<1x6x5x8xf32>) outs(%e4 : tensor<1x6x5x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.mulf %a, %c : f32
    linalg.yield %x : f32
  } -> tensor<1x6x5x8xf32>
  %kte = tensor.empty() : tensor<1x6x8x7xf32>
  %kt = linalg.transpose ins(%kg : tensor<1x6x7x8xf32>) outs(%kte : tensor<1x6x8x7xf32>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %qs [[0, 1], [2], [3]] : tensor<1x6x5x8xf32> into tensor<6x5x8xf32>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x6x8x7xf32> into tensor<6x8x7xf32>
  %v3 = tensor.collapse_shape %vg [[0, 1], [2], [3]] : tensor<1x6x7x8xf32> into tensor<6x7x8xf32>
  %s0 = tensor.empty() : tensor<6x5x7xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<6x5x7xf32>) -> tensor<6x5x7xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<6x5x8xf32>, tensor<6x8x7xf32>) outs(%sz : tensor<6x5x7xf32>) -> tensor<6x5x7xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<6x5x7xf32>) outs(%s0 : tensor<6x5x7xf32>) -> tensor<6x5x7xf32>
  %o0 = tensor.empty() : tensor<6x5x8xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<6x5x8xf32>) -> tensor<6x5x8xf32>
  %o = linalg.batch_matmul ins(%p, %v3 : tensor<6x5x7xf32>, tensor<6x7x8xf32>) outs(%oz : tensor<6x5x8xf32>) -> tensor<6x5x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 6, 5, 8] : tensor<6x5x8xf32> into tensor<1x6x5x8xf32>
  return %o4 : tensor<1x6x5x8xf32>
}

// -----

// The repeat and the scale of K in one generic.
// CHECK-LABEL: func.func @gqa_scale_in_repeat(
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.353553{{[0-9]*}} : f32} : (tensor<1x6x5x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>) -> tensor<1x6x5x8xf32>
// CHECK-NOT: linalg.
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#rep = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @gqa_scale_in_repeat(%q: tensor<1x6x5x8xf32>, %k: tensor<1x2x7x8xf32>, %v: tensor<1x2x7x8xf32>) -> tensor<1x6x5x8xf32> {
  %z = arith.constant 0.0 : f32
  %c = arith.constant 0.594603539 : f32
  %e5 = tensor.empty() : tensor<1x2x3x7x8xf32>
  %ks = linalg.generic {indexing_maps = [#rep, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x2x7x8xf32>) outs(%e5 : tensor<1x2x3x7x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.mulf %a, %c : f32
    linalg.yield %x : f32
  } -> tensor<1x2x3x7x8xf32>
  %kg = tensor.collapse_shape %ks [[0], [1, 2], [3], [4]] : tensor<1x2x3x7x8xf32> into tensor<1x6x7x8xf32>
  %vb = linalg.generic {indexing_maps = [#rep, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<1x2x7x8xf32>) outs(%e5 : tensor<1x2x3x7x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x2x3x7x8xf32>
  %vg = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<1x2x3x7x8xf32> into tensor<1x6x7x8xf32>
  %e4 = tensor.empty() : tensor<1x6x5x8xf32>
  %qs = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q : tensor<1x6x5x8xf32>) outs(%e4 : tensor<1x6x5x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.mulf %a, %c : f32
    linalg.yield %x : f32
  } -> tensor<1x6x5x8xf32>
  %kte = tensor.empty() : tensor<1x6x8x7xf32>
  %kt = linalg.transpose ins(%kg : tensor<1x6x7x8xf32>) outs(%kte : tensor<1x6x8x7xf32>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %qs [[0, 1], [2], [3]] : tensor<1x6x5x8xf32> into tensor<6x5x8xf32>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x6x8x7xf32> into tensor<6x8x7xf32>
  %v3 = tensor.collapse_shape %vg [[0, 1], [2], [3]] : tensor<1x6x7x8xf32> into tensor<6x7x8xf32>
  %s0 = tensor.empty() : tensor<6x5x7xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<6x5x7xf32>) -> tensor<6x5x7xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<6x5x8xf32>, tensor<6x8x7xf32>) outs(%sz : tensor<6x5x7xf32>) -> tensor<6x5x7xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<6x5x7xf32>) outs(%s0 : tensor<6x5x7xf32>) -> tensor<6x5x7xf32>
  %o0 = tensor.empty() : tensor<6x5x8xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<6x5x8xf32>) -> tensor<6x5x8xf32>
  %o = linalg.batch_matmul ins(%p, %v3 : tensor<6x5x7xf32>, tensor<6x7x8xf32>) outs(%oz : tensor<6x5x8xf32>) -> tensor<6x5x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 6, 5, 8] : tensor<6x5x8xf32> into tensor<1x6x5x8xf32>
  return %o4 : tensor<1x6x5x8xf32>
}

// -----

// TOSA: tosa.tile, then tosa.mul of the repeated K.
// CHECK-LABEL: func.func @tosa_gqa_scaled_repeat(
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.353553{{[0-9]*}} : f32} : (tensor<1x6x5x8xf32>, tensor<1x2x7x8xf32>, tensor<1x2x7x8xf32>) -> tensor<1x6x5x8xf32>
// CHECK-NOT: tosa.
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @tosa_gqa_scaled_repeat(%q: tensor<1x6x5x8xf32>, %k: tensor<1x2x7x8xf32>, %v: tensor<1x2x7x8xf32>) -> tensor<1x6x5x8xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sq4 = "tosa.const"() <{values = dense<0.594603539> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %sq5 = "tosa.const"() <{values = dense<0.594603539> : tensor<1x1x1x1x1xf32>}> : () -> tensor<1x1x1x1x1xf32>
  %unit = tosa.const_shape {values = dense<[1, 2, 1, 7, 8]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %mult = tosa.const_shape {values = dense<[1, 1, 3, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %heads = tosa.const_shape {values = dense<[1, 6, 7, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q3shape = tosa.const_shape {values = dense<[6, 5, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3shape = tosa.const_shape {values = dense<[6, 8, 7]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v3shape = tosa.const_shape {values = dense<[6, 7, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4shape = tosa.const_shape {values = dense<[1, 6, 5, 7]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3shape = tosa.const_shape {values = dense<[6, 5, 7]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %o4shape = tosa.const_shape {values = dense<[1, 6, 5, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %k5 = tosa.reshape %k, %unit : (tensor<1x2x7x8xf32>, !tosa.shape<5>) -> tensor<1x2x1x7x8xf32>
  %kr = tosa.tile %k5, %mult : (tensor<1x2x1x7x8xf32>, !tosa.shape<5>) -> tensor<1x2x3x7x8xf32>
  %ks = tosa.mul %kr, %sq5, %shift : (tensor<1x2x3x7x8xf32>, tensor<1x1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x3x7x8xf32>
  %kg = tosa.reshape %ks, %heads : (tensor<1x2x3x7x8xf32>, !tosa.shape<4>) -> tensor<1x6x7x8xf32>
  %v5 = tosa.reshape %v, %unit : (tensor<1x2x7x8xf32>, !tosa.shape<5>) -> tensor<1x2x1x7x8xf32>
  %vr = tosa.tile %v5, %mult : (tensor<1x2x1x7x8xf32>, !tosa.shape<5>) -> tensor<1x2x3x7x8xf32>
  %vg = tosa.reshape %vr, %heads : (tensor<1x2x3x7x8xf32>, !tosa.shape<4>) -> tensor<1x6x7x8xf32>
  %qs = tosa.mul %q, %sq4, %shift : (tensor<1x6x5x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x6x5x8xf32>
  %q3 = tosa.reshape %qs, %q3shape : (tensor<1x6x5x8xf32>, !tosa.shape<3>) -> tensor<6x5x8xf32>
  %kt = tosa.transpose %kg {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x6x7x8xf32>) -> tensor<1x6x8x7xf32>
  %k3 = tosa.reshape %kt, %k3shape : (tensor<1x6x8x7xf32>, !tosa.shape<3>) -> tensor<6x8x7xf32>
  %s3 = tosa.matmul %q3, %k3, %zp, %zp : (tensor<6x5x8xf32>, tensor<6x8x7xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<6x5x7xf32>
  %s = tosa.reshape %s3, %s4shape : (tensor<6x5x7xf32>, !tosa.shape<4>) -> tensor<1x6x5x7xf32>
  %max = tosa.reduce_max %s {axis = 3 : i32} : (tensor<1x6x5x7xf32>) -> tensor<1x6x5x1xf32>
  %sub = tosa.sub %s, %max : (tensor<1x6x5x7xf32>, tensor<1x6x5x1xf32>) -> tensor<1x6x5x7xf32>
  %e = tosa.exp %sub : (tensor<1x6x5x7xf32>) -> tensor<1x6x5x7xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x6x5x7xf32>) -> tensor<1x6x5x1xf32>
  %r = tosa.reciprocal %sum : (tensor<1x6x5x1xf32>) -> tensor<1x6x5x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x6x5x7xf32>, tensor<1x6x5x1xf32>, tensor<1xi8>) -> tensor<1x6x5x7xf32>
  %p3 = tosa.reshape %p, %s3shape : (tensor<1x6x5x7xf32>, !tosa.shape<3>) -> tensor<6x5x7xf32>
  %v3 = tosa.reshape %vg, %v3shape : (tensor<1x6x7x8xf32>, !tosa.shape<3>) -> tensor<6x7x8xf32>
  %o3 = tosa.matmul %p3, %v3, %zp, %zp : (tensor<6x5x7xf32>, tensor<6x7x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<6x5x8xf32>
  %o = tosa.reshape %o3, %o4shape : (tensor<6x5x8xf32>, !tosa.shape<4>) -> tensor<1x6x5x8xf32>
  return %o : tensor<1x6x5x8xf32>
}

// -----

// Near miss: V scaled after the repeat (that scales O, not the scores):
// refused.
// CHECK-LABEL: func.func @gqa_v_scaled_after_repeat(
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: K and V are broadcast over different head groups
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#rep = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @gqa_v_scaled_after_repeat(%q: tensor<1x6x5x8xf32>, %k: tensor<1x2x7x8xf32>, %v: tensor<1x2x7x8xf32>) -> tensor<1x6x5x8xf32> {
  %z = arith.constant 0.0 : f32
  %c = arith.constant 0.594603539 : f32
  %e5 = tensor.empty() : tensor<1x2x3x7x8xf32>
  %kb = linalg.generic {indexing_maps = [#rep, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x2x7x8xf32>) outs(%e5 : tensor<1x2x3x7x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x2x3x7x8xf32>
  %kg = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<1x2x3x7x8xf32> into tensor<1x6x7x8xf32>
  %vb = linalg.generic {indexing_maps = [#rep, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<1x2x7x8xf32>) outs(%e5 : tensor<1x2x3x7x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x2x3x7x8xf32>
  %ks = linalg.generic {indexing_maps = [#id5, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%vb : tensor<1x2x3x7x8xf32>) outs(%e5 : tensor<1x2x3x7x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.mulf %a, %c : f32
    linalg.yield %x : f32
  } -> tensor<1x2x3x7x8xf32>
  %vg = tensor.collapse_shape %ks [[0], [1, 2], [3], [4]] : tensor<1x2x3x7x8xf32> into tensor<1x6x7x8xf32>
  %e4 = tensor.empty() : tensor<1x6x5x8xf32>
  %qs = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q : tensor<1x6x5x8xf32>) outs(%e4 : tensor<1x6x5x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.mulf %a, %c : f32
    linalg.yield %x : f32
  } -> tensor<1x6x5x8xf32>
  %kte = tensor.empty() : tensor<1x6x8x7xf32>
  %kt = linalg.transpose ins(%kg : tensor<1x6x7x8xf32>) outs(%kte : tensor<1x6x8x7xf32>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %qs [[0, 1], [2], [3]] : tensor<1x6x5x8xf32> into tensor<6x5x8xf32>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x6x8x7xf32> into tensor<6x8x7xf32>
  %v3 = tensor.collapse_shape %vg [[0, 1], [2], [3]] : tensor<1x6x7x8xf32> into tensor<6x7x8xf32>
  %s0 = tensor.empty() : tensor<6x5x7xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<6x5x7xf32>) -> tensor<6x5x7xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<6x5x8xf32>, tensor<6x8x7xf32>) outs(%sz : tensor<6x5x7xf32>) -> tensor<6x5x7xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<6x5x7xf32>) outs(%s0 : tensor<6x5x7xf32>) -> tensor<6x5x7xf32>
  %o0 = tensor.empty() : tensor<6x5x8xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<6x5x8xf32>) -> tensor<6x5x8xf32>
  %o = linalg.batch_matmul ins(%p, %v3 : tensor<6x5x7xf32>, tensor<6x7x8xf32>) outs(%oz : tensor<6x5x8xf32>) -> tensor<6x5x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 6, 5, 8] : tensor<6x5x8xf32> into tensor<1x6x5x8xf32>
  return %o4 : tensor<1x6x5x8xf32>
}

// -----

// Near miss: K repeated head-major (torch's repeat: head h reads KV head
// h mod Hkv, not h / G), then scaled: refused.
// CHECK-LABEL: func.func @gqa_k_repeated_head_major(
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: K and V are broadcast over different head groups
#id5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#rep = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
#tile = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d3, d4)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @gqa_k_repeated_head_major(%q: tensor<1x6x5x8xf32>, %k: tensor<1x2x7x8xf32>, %v: tensor<1x2x7x8xf32>) -> tensor<1x6x5x8xf32> {
  %z = arith.constant 0.0 : f32
  %c = arith.constant 0.594603539 : f32
  %e5 = tensor.empty() : tensor<1x2x3x7x8xf32>
  %e3 = tensor.empty() : tensor<1x3x2x7x8xf32>
  %ks = linalg.generic {indexing_maps = [#tile, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%k : tensor<1x2x7x8xf32>) outs(%e3 : tensor<1x3x2x7x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.mulf %a, %c : f32
    linalg.yield %x : f32
  } -> tensor<1x3x2x7x8xf32>
  %kg = tensor.collapse_shape %ks [[0], [1, 2], [3], [4]] : tensor<1x3x2x7x8xf32> into tensor<1x6x7x8xf32>
  %vb = linalg.generic {indexing_maps = [#rep, #id5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<1x2x7x8xf32>) outs(%e5 : tensor<1x2x3x7x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x2x3x7x8xf32>
  %vg = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<1x2x3x7x8xf32> into tensor<1x6x7x8xf32>
  %e4 = tensor.empty() : tensor<1x6x5x8xf32>
  %qs = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q : tensor<1x6x5x8xf32>) outs(%e4 : tensor<1x6x5x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %x = arith.mulf %a, %c : f32
    linalg.yield %x : f32
  } -> tensor<1x6x5x8xf32>
  %kte = tensor.empty() : tensor<1x6x8x7xf32>
  %kt = linalg.transpose ins(%kg : tensor<1x6x7x8xf32>) outs(%kte : tensor<1x6x8x7xf32>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %qs [[0, 1], [2], [3]] : tensor<1x6x5x8xf32> into tensor<6x5x8xf32>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x6x8x7xf32> into tensor<6x8x7xf32>
  %v3 = tensor.collapse_shape %vg [[0, 1], [2], [3]] : tensor<1x6x7x8xf32> into tensor<6x7x8xf32>
  %s0 = tensor.empty() : tensor<6x5x7xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<6x5x7xf32>) -> tensor<6x5x7xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<6x5x8xf32>, tensor<6x8x7xf32>) outs(%sz : tensor<6x5x7xf32>) -> tensor<6x5x7xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<6x5x7xf32>) outs(%s0 : tensor<6x5x7xf32>) -> tensor<6x5x7xf32>
  %o0 = tensor.empty() : tensor<6x5x8xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<6x5x8xf32>) -> tensor<6x5x8xf32>
  %o = linalg.batch_matmul ins(%p, %v3 : tensor<6x5x7xf32>, tensor<6x7x8xf32>) outs(%oz : tensor<6x5x8xf32>) -> tensor<6x5x8xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 6, 5, 8] : tensor<6x5x8xf32> into tensor<1x6x5x8xf32>
  return %o4 : tensor<1x6x5x8xf32>
}
// -----

// 4. HF's additive mask s + (1 - mask) * finfo.min computed inside the scores'
// own generic (elementwise fusion put it there): the bias is computed again
// at the mask's shape [B, 1, 1, N] and becomes the bias operand.
// CHECK-LABEL: func.func @hf_bias_inside(
// CHECK: %[[ONE:.*]] = tensor.splat %{{.*}} : tensor<2x1x1x8xf32>
// CHECK: %[[INV:.*]] = arith.subf %[[ONE]], %arg3 : tensor<2x1x1x8xf32>
// CHECK: %[[MIN:.*]] = tensor.splat %{{.*}} : tensor<2x1x1x8xf32>
// CHECK: %[[BIAS:.*]] = arith.mulf %[[INV]], %[[MIN]] : tensor<2x1x1x8xf32>
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %[[BIAS]]) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>, scale = 2.500000e-01 : f32}
// CHECK-NOT: linalg.
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bj = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
func.func @hf_bias_inside(%q: tensor<2x2x3x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>, %mask: tensor<2x1x1x8xf32>) -> tensor<2x2x3x16xf32> {
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %min = arith.constant -3.40282347E+38 : f32
  %c = arith.constant 0.25 : f32
  %s0 = tensor.empty() : tensor<2x2x3x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x2x3x8xf32>) -> tensor<2x2x3x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x3x16xf32>, tensor<2x2x8x16xf32>) outs(%sz : tensor<2x2x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #bj, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mask : tensor<2x2x3x8xf32>, tensor<2x1x1x8xf32>) outs(%s0 : tensor<2x2x3x8xf32>) {
  ^bb0(%a: f32, %mk: f32, %o: f32):
    %sc = arith.mulf %a, %c : f32
    %inv = arith.subf %one, %mk : f32
    %bias = arith.mulf %inv, %min : f32
    %y = arith.addf %sc, %bias : f32
    linalg.yield %y : f32
  } -> tensor<2x2x3x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x2x3x8xf32>) outs(%s0 : tensor<2x2x3x8xf32>) -> tensor<2x2x3x8xf32>
  %o0 = tensor.empty() : tensor<2x2x3x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x2x3x16xf32>) -> tensor<2x2x3x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x3x8xf32>, tensor<2x2x8x16xf32>) outs(%oz : tensor<2x2x3x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x16xf32>
  return %o : tensor<2x2x3x16xf32>
}

// -----

// The same from the integer mask HF takes ([B, N] i64, converted inside).
// CHECK-LABEL: func.func @hf_int_mask_inside(
// CHECK: %[[F:.*]] = arith.sitofp %arg3 : tensor<2x8xi64> to tensor<2x8xf32>
// CHECK: %[[INV:.*]] = arith.subf %{{.*}}, %[[F]] : tensor<2x8xf32>
// CHECK: %[[B:.*]] = arith.mulf %[[INV]], %{{.*}} : tensor<2x8xf32>
// CHECK: %[[B4:.*]] = tensor.expand_shape %[[B]] {{\[}}[0], [1, 2, 3]] output_shape [2, 1, 1, 8]
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %[[B4]])
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bj = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
func.func @hf_int_mask_inside(%q: tensor<2x2x3x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>, %mask: tensor<2x8xi64>) -> tensor<2x2x3x16xf32> {
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %min = arith.constant -3.40282347E+38 : f32
  %c = arith.constant 0.25 : f32
  %s0 = tensor.empty() : tensor<2x2x3x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x2x3x8xf32>) -> tensor<2x2x3x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x3x16xf32>, tensor<2x2x8x16xf32>) outs(%sz : tensor<2x2x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #bj, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mask : tensor<2x2x3x8xf32>, tensor<2x8xi64>) outs(%s0 : tensor<2x2x3x8xf32>) {
  ^bb0(%a: f32, %mi: i64, %o: f32):
    %mk = arith.sitofp %mi : i64 to f32
    %sc = arith.mulf %a, %c : f32
    %inv = arith.subf %one, %mk : f32
    %bias = arith.mulf %inv, %min : f32
    %y = arith.addf %sc, %bias : f32
    linalg.yield %y : f32
  } -> tensor<2x2x3x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x2x3x8xf32>) outs(%s0 : tensor<2x2x3x8xf32>) -> tensor<2x2x3x8xf32>
  %o0 = tensor.empty() : tensor<2x2x3x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x2x3x16xf32>) -> tensor<2x2x3x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x3x8xf32>, tensor<2x2x8x16xf32>) outs(%oz : tensor<2x2x3x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x16xf32>
  return %o : tensor<2x2x3x16xf32>
}

// -----

// Near miss: the same bias added before the scale (the op would not scale it):
// refused.
// CHECK-LABEL: func.func @hf_bias_before_scale(
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: the bias is added before the scale (the bias would be scaled)
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bj = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
func.func @hf_bias_before_scale(%q: tensor<2x2x3x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>, %mask: tensor<2x1x1x8xf32>) -> tensor<2x2x3x16xf32> {
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %min = arith.constant -3.40282347E+38 : f32
  %c = arith.constant 0.25 : f32
  %s0 = tensor.empty() : tensor<2x2x3x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x2x3x8xf32>) -> tensor<2x2x3x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x3x16xf32>, tensor<2x2x8x16xf32>) outs(%sz : tensor<2x2x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #bj, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mask : tensor<2x2x3x8xf32>, tensor<2x1x1x8xf32>) outs(%s0 : tensor<2x2x3x8xf32>) {
  ^bb0(%a: f32, %mk: f32, %o: f32):
    %inv = arith.subf %one, %mk : f32
    %bias = arith.mulf %inv, %min : f32
    %sb = arith.addf %a, %bias : f32
    %y = arith.mulf %sb, %c : f32
    linalg.yield %y : f32
  } -> tensor<2x2x3x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x2x3x8xf32>) outs(%s0 : tensor<2x2x3x8xf32>) -> tensor<2x2x3x8xf32>
  %o0 = tensor.empty() : tensor<2x2x3x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x2x3x16xf32>) -> tensor<2x2x3x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x3x8xf32>, tensor<2x2x8x16xf32>) outs(%oz : tensor<2x2x3x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x16xf32>
  return %o : tensor<2x2x3x16xf32>
}

// -----

// Near miss: (1 - mask) * s, a "bias" computed from the scores themselves:
// refused.
// CHECK-LABEL: func.func @bias_of_scores(
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: the scores are added to themselves
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bj = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
func.func @bias_of_scores(%q: tensor<2x2x3x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>, %mask: tensor<2x1x1x8xf32>) -> tensor<2x2x3x16xf32> {
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %min = arith.constant -3.40282347E+38 : f32
  %c = arith.constant 0.25 : f32
  %s0 = tensor.empty() : tensor<2x2x3x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x2x3x8xf32>) -> tensor<2x2x3x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x3x16xf32>, tensor<2x2x8x16xf32>) outs(%sz : tensor<2x2x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #bj, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %mask : tensor<2x2x3x8xf32>, tensor<2x1x1x8xf32>) outs(%s0 : tensor<2x2x3x8xf32>) {
  ^bb0(%a: f32, %mk: f32, %o: f32):
    %sc = arith.mulf %a, %c : f32
    %inv = arith.subf %one, %mk : f32
    %bias = arith.mulf %inv, %a : f32
    %y = arith.addf %sc, %bias : f32
    linalg.yield %y : f32
  } -> tensor<2x2x3x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x2x3x8xf32>) outs(%s0 : tensor<2x2x3x8xf32>) -> tensor<2x2x3x8xf32>
  %o0 = tensor.empty() : tensor<2x2x3x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x2x3x16xf32>) -> tensor<2x2x3x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x3x8xf32>, tensor<2x2x8x16xf32>) outs(%oz : tensor<2x2x3x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x16xf32>
  return %o : tensor<2x2x3x16xf32>
}
// -----

// 5. Single-head attention: the [B, M, N] scores split to [B, 1, M, N] for the
// softmax (the unit head dim grouped with M, as torch's unsqueeze(1) may give)
// and merged back for P V.
// CHECK-LABEL: func.func @single_head(
// CHECK: %[[Q:.*]] = tensor.expand_shape %arg0 {{\[}}[0, 1], [2], [3]] output_shape [2, 1, 5, 16]
// CHECK: "fa.gridwise_attention"(%[[Q]], %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32} : (tensor<2x1x5x16xf32>, tensor<2x1x7x16xf32>, tensor<2x1x7x16xf32>) -> tensor<2x1x5x16xf32>
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
// CHECK: "fa.gridwise_attention"(%[[Q]], %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32} : (tensor<2x1x5x16xf32>, tensor<2x1x7x16xf32>, tensor<2x1x7x16xf32>) -> tensor<2x1x5x16xf32>
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

// The scores split to [B, M, 1, N] and merged back: read as a [B, H] merge it
// would make M heads of one query each, which Q [B, M, D] is not; it is the
// fold of one head into the query axis (rows r = i; lib/Fusion/BatchViews.c),
// the attention the source computes: M = 5 queries of one head.
// CHECK-LABEL: func.func @unit_query_dim(
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}) {o_bshd, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, scale = 1.000000e+00 : f32} : (tensor<2x5x1x16xf32>, tensor<2x1x7x16xf32>, tensor<2x1x7x16xf32>) -> tensor<2x5x1x16xf32>
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
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
// CHECK: "fa.gridwise_attention"({{.*}}) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 2.500000e-01 : f32}
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
// CHECK: "fa.gridwise_attention"({{.*}}) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.102062{{[0-9]*}} : f32}
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
// CHECK: "fa.gridwise_attention"({{.*}}) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.250000e-01 : f32}
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
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.176776{{[0-9]*}} : f32}
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
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.176776{{[0-9]*}} : f32}
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
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.250000e-01 : f32} : (tensor<1x4x16x32xf32>, tensor<1x4x1x32xf32>, tensor<1x4x1x32xf32>) -> tensor<1x4x16x32xf32>
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
// -----

// 8. A TOSA decode step (M = 1) whose row iota, of one row, is the splat
// constant 20 (the position decoded): keys j > 20 masked is causal_offset 20.
// CHECK-LABEL: func.func @tosa_decode_causal(
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {causal_offset = 20 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.250000e-01 : f32} : (tensor<1x4x1x32xf32>, tensor<1x4x32x32xf32>, tensor<1x4x32x32xf32>) -> tensor<1x4x1x32xf32>
// CHECK-NOT: tosa.
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @tosa_decode_causal(%q: tensor<1x4x1x32xf32>, %k: tensor<1x4x32x32xf32>, %v: tensor<1x4x32x32xf32>) -> tensor<1x4x1x32xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %col = "tosa.const"() <{values = dense<[[[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]]]]> : tensor<1x1x1x32xi32>}> : () -> tensor<1x1x1x32xi32>
  %row = "tosa.const"() <{values = dense<20> : tensor<1x1x1x1xi32>}> : () -> tensor<1x1x1x1xi32>
  %s3shape = tosa.const_shape {values = dense<[4, 1, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3shape = tosa.const_shape {values = dense<[4, 32, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4shape = tosa.const_shape {values = dense<[1, 4, 1, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q3 = tosa.reshape %q, %s3shape : (tensor<1x4x1x32xf32>, !tosa.shape<3>) -> tensor<4x1x32xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x4x32x32xf32>) -> tensor<1x4x32x32xf32>
  %k3 = tosa.reshape %kt, %k3shape : (tensor<1x4x32x32xf32>, !tosa.shape<3>) -> tensor<4x32x32xf32>
  %s3 = tosa.matmul %q3, %k3, %zp, %zp : (tensor<4x1x32xf32>, tensor<4x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x1x32xf32>
  %s = tosa.reshape %s3, %s4shape : (tensor<4x1x32xf32>, !tosa.shape<4>) -> tensor<1x4x1x32xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<1x4x1x32xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x1x32xf32>
  %future = tosa.greater %col, %row : (tensor<1x1x1x32xi32>, tensor<1x1x1x1xi32>) -> tensor<1x1x1x32xi1>
  %sm = tosa.select %future, %ninf, %ss : (tensor<1x1x1x32xi1>, tensor<1x1x1x1xf32>, tensor<1x4x1x32xf32>) -> tensor<1x4x1x32xf32>
  %max = tosa.reduce_max %sm {axis = 3 : i32} : (tensor<1x4x1x32xf32>) -> tensor<1x4x1x1xf32>
  %sub = tosa.sub %sm, %max : (tensor<1x4x1x32xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x1x32xf32>
  %e = tosa.exp %sub : (tensor<1x4x1x32xf32>) -> tensor<1x4x1x32xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x4x1x32xf32>) -> tensor<1x4x1x1xf32>
  %r = tosa.reciprocal %sum : (tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x4x1x32xf32>, tensor<1x4x1x1xf32>, tensor<1xi8>) -> tensor<1x4x1x32xf32>
  %p3 = tosa.reshape %p, %s3shape : (tensor<1x4x1x32xf32>, !tosa.shape<3>) -> tensor<4x1x32xf32>
  %v3 = tosa.reshape %v, %k3shape : (tensor<1x4x32x32xf32>, !tosa.shape<3>) -> tensor<4x32x32xf32>
  %o3 = tosa.matmul %p3, %v3, %zp, %zp : (tensor<4x1x32xf32>, tensor<4x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x1x32xf32>
  %o = tosa.reshape %o3, %s4shape : (tensor<4x1x32xf32>, !tosa.shape<4>) -> tensor<1x4x1x32xf32>
  return %o : tensor<1x4x1x32xf32>
}

// -----

// The same as visible keys, row >= col, at position 7.
// CHECK-LABEL: func.func @tosa_decode_visible(
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {causal_offset = 7 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.250000e-01 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @tosa_decode_visible(%q: tensor<1x4x1x32xf32>, %k: tensor<1x4x32x32xf32>, %v: tensor<1x4x32x32xf32>) -> tensor<1x4x1x32xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %col = "tosa.const"() <{values = dense<[[[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]]]]> : tensor<1x1x1x32xi32>}> : () -> tensor<1x1x1x32xi32>
  %row = "tosa.const"() <{values = dense<7> : tensor<1x1x1x1xi32>}> : () -> tensor<1x1x1x1xi32>
  %s3shape = tosa.const_shape {values = dense<[4, 1, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3shape = tosa.const_shape {values = dense<[4, 32, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4shape = tosa.const_shape {values = dense<[1, 4, 1, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q3 = tosa.reshape %q, %s3shape : (tensor<1x4x1x32xf32>, !tosa.shape<3>) -> tensor<4x1x32xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x4x32x32xf32>) -> tensor<1x4x32x32xf32>
  %k3 = tosa.reshape %kt, %k3shape : (tensor<1x4x32x32xf32>, !tosa.shape<3>) -> tensor<4x32x32xf32>
  %s3 = tosa.matmul %q3, %k3, %zp, %zp : (tensor<4x1x32xf32>, tensor<4x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x1x32xf32>
  %s = tosa.reshape %s3, %s4shape : (tensor<4x1x32xf32>, !tosa.shape<4>) -> tensor<1x4x1x32xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<1x4x1x32xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x1x32xf32>
  %seen = tosa.greater_equal %row, %col : (tensor<1x1x1x1xi32>, tensor<1x1x1x32xi32>) -> tensor<1x1x1x32xi1>
  %sm = tosa.select %seen, %ss, %ninf : (tensor<1x1x1x32xi1>, tensor<1x4x1x32xf32>, tensor<1x1x1x1xf32>) -> tensor<1x4x1x32xf32>
  %max = tosa.reduce_max %sm {axis = 3 : i32} : (tensor<1x4x1x32xf32>) -> tensor<1x4x1x1xf32>
  %sub = tosa.sub %sm, %max : (tensor<1x4x1x32xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x1x32xf32>
  %e = tosa.exp %sub : (tensor<1x4x1x32xf32>) -> tensor<1x4x1x32xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x4x1x32xf32>) -> tensor<1x4x1x1xf32>
  %r = tosa.reciprocal %sum : (tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x4x1x32xf32>, tensor<1x4x1x1xf32>, tensor<1xi8>) -> tensor<1x4x1x32xf32>
  %p3 = tosa.reshape %p, %s3shape : (tensor<1x4x1x32xf32>, !tosa.shape<3>) -> tensor<4x1x32xf32>
  %v3 = tosa.reshape %v, %k3shape : (tensor<1x4x32x32xf32>, !tosa.shape<3>) -> tensor<4x32x32xf32>
  %o3 = tosa.matmul %p3, %v3, %zp, %zp : (tensor<4x1x32xf32>, tensor<4x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x1x32xf32>
  %o = tosa.reshape %o3, %s4shape : (tensor<4x1x32xf32>, !tosa.shape<4>) -> tensor<1x4x1x32xf32>
  return %o : tensor<1x4x1x32xf32>
}

// -----

// Near miss: two query rows masked by the one constant (both see keys 0..20):
// row 1 is not causal at offset 20, refused.
// CHECK-LABEL: func.func @tosa_two_rows_one_position(
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: a mask on the scores is not causal (keys after query + offset)
func.func @tosa_two_rows_one_position(%q: tensor<1x4x2x32xf32>, %k: tensor<1x4x32x32xf32>, %v: tensor<1x4x32x32xf32>) -> tensor<1x4x2x32xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %col = "tosa.const"() <{values = dense<[[[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]]]]> : tensor<1x1x1x32xi32>}> : () -> tensor<1x1x1x32xi32>
  %row = "tosa.const"() <{values = dense<20> : tensor<1x1x1x1xi32>}> : () -> tensor<1x1x1x1xi32>
  %s3shape = tosa.const_shape {values = dense<[4, 2, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3shape = tosa.const_shape {values = dense<[4, 32, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4shape = tosa.const_shape {values = dense<[1, 4, 2, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q3 = tosa.reshape %q, %s3shape : (tensor<1x4x2x32xf32>, !tosa.shape<3>) -> tensor<4x2x32xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x4x32x32xf32>) -> tensor<1x4x32x32xf32>
  %k3 = tosa.reshape %kt, %k3shape : (tensor<1x4x32x32xf32>, !tosa.shape<3>) -> tensor<4x32x32xf32>
  %s3 = tosa.matmul %q3, %k3, %zp, %zp : (tensor<4x2x32xf32>, tensor<4x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x2x32xf32>
  %s = tosa.reshape %s3, %s4shape : (tensor<4x2x32xf32>, !tosa.shape<4>) -> tensor<1x4x2x32xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<1x4x2x32xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x2x32xf32>
  %future = tosa.greater %col, %row : (tensor<1x1x1x32xi32>, tensor<1x1x1x1xi32>) -> tensor<1x1x1x32xi1>
  %sm = tosa.select %future, %ninf, %ss : (tensor<1x1x1x32xi1>, tensor<1x1x1x1xf32>, tensor<1x4x2x32xf32>) -> tensor<1x4x2x32xf32>
  %max = tosa.reduce_max %sm {axis = 3 : i32} : (tensor<1x4x2x32xf32>) -> tensor<1x4x2x1xf32>
  %sub = tosa.sub %sm, %max : (tensor<1x4x2x32xf32>, tensor<1x4x2x1xf32>) -> tensor<1x4x2x32xf32>
  %e = tosa.exp %sub : (tensor<1x4x2x32xf32>) -> tensor<1x4x2x32xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x4x2x32xf32>) -> tensor<1x4x2x1xf32>
  %r = tosa.reciprocal %sum : (tensor<1x4x2x1xf32>) -> tensor<1x4x2x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x4x2x32xf32>, tensor<1x4x2x1xf32>, tensor<1xi8>) -> tensor<1x4x2x32xf32>
  %p3 = tosa.reshape %p, %s3shape : (tensor<1x4x2x32xf32>, !tosa.shape<3>) -> tensor<4x2x32xf32>
  %v3 = tosa.reshape %v, %k3shape : (tensor<1x4x32x32xf32>, !tosa.shape<3>) -> tensor<4x32x32xf32>
  %o3 = tosa.matmul %p3, %v3, %zp, %zp : (tensor<4x2x32xf32>, tensor<4x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x2x32xf32>
  %o = tosa.reshape %o3, %s4shape : (tensor<4x2x32xf32>, !tosa.shape<4>) -> tensor<1x4x2x32xf32>
  return %o : tensor<1x4x2x32xf32>
}
