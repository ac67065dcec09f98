// [B, S, H, D] head layouts fold into fa.gridwise_attention: a [0, 2, 1, 3]
// transpose (linalg.transpose, tosa.transpose or a copying linalg.generic)
// making Q, K or V from [B, S, H, D] is read through (q_bshd / k_bshd /
// v_bshd), K^T made by [0, 2, 3, 1] of [B, N, H, D] becomes k_bshd (no
// k_transposed), and O's only user, a [0, 2, 1, 3] transpose, is replaced by
// the op writing [B, M, H, Dv] (o_bshd). Negatives: other permutations, and
// O with a second user, keep their transposes. Every function agrees
// numerically with its unfused IR.
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// RUN: fa-check --split-input-file %s | FileCheck %s --check-prefix=AGREE
// WHY-COUNT-11: remark: fa-fuse-attention: fused into fa.gridwise_attention
// WHY-NOT: remark
// AGREE-COUNT-11: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run
// AGREE-NOT: fa-check:

// 1. torch-mlir style: [B, S, H*D] expanded to [B, S, H, D]; Q and V
// transposed [0, 2, 1, 3], K to K^T with [0, 2, 3, 1]; 3-D batch_matmuls on
// the collapsed heads; causal (bottom-right, M = 24 < N = 40) and 1/sqrt(d)
// in one generic; O transposed back [0, 2, 1, 3] and collapsed to [B, S, H*D].
// All four transposes fold; K^T's fold drops k_transposed.
// CHECK-LABEL: func.func @torch_causal(
// CHECK-NEXT: %[[Q:.*]] = tensor.expand_shape %arg0 {{\[\[}}0], [1], [2, 3]] output_shape [2, 24, 4, 32]
// CHECK-NEXT: %[[K:.*]] = tensor.expand_shape %arg1 {{\[\[}}0], [1], [2, 3]] output_shape [2, 40, 4, 32]
// CHECK-NEXT: %[[V:.*]] = tensor.expand_shape %arg2 {{\[\[}}0], [1], [2, 3]] output_shape [2, 40, 4, 32]
// CHECK-NEXT: %[[O:.*]] = "fa.gridwise_attention"(%[[Q]], %[[K]], %[[V]]) {causal_offset = 16 : i64, k_bshd, o_bshd, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, scale = 0.176776{{[0-9]+}} : f32, v_bshd} : (tensor<2x24x4x32xf32>, tensor<2x40x4x32xf32>, tensor<2x40x4x32xf32>) -> tensor<2x24x4x32xf32>
// CHECK-NEXT: %[[R:.*]] = tensor.collapse_shape %[[O]] {{\[\[}}0], [1], [2, 3]] : tensor<2x24x4x32xf32> into tensor<2x24x128xf32>
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: linalg.

#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @torch_causal(%q: tensor<2x24x128xf32>, %k: tensor<2x40x128xf32>, %v: tensor<2x40x128xf32>) -> tensor<2x24x128xf32> {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c16 = arith.constant 16 : index
  %d = arith.constant 5.65685415 : f32
  %qe = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [2, 24, 4, 32] : tensor<2x24x128xf32> into tensor<2x24x4x32xf32>
  %ke = tensor.expand_shape %k [[0], [1], [2, 3]] output_shape [2, 40, 4, 32] : tensor<2x40x128xf32> into tensor<2x40x4x32xf32>
  %ve = tensor.expand_shape %v [[0], [1], [2, 3]] output_shape [2, 40, 4, 32] : tensor<2x40x128xf32> into tensor<2x40x4x32xf32>
  %t0 = tensor.empty() : tensor<2x4x24x32xf32>
  %qt = linalg.transpose ins(%qe : tensor<2x24x4x32xf32>) outs(%t0 : tensor<2x4x24x32xf32>) permutation = [0, 2, 1, 3]
  %vt0 = tensor.empty() : tensor<2x4x40x32xf32>
  %vt = linalg.transpose ins(%ve : tensor<2x40x4x32xf32>) outs(%vt0 : tensor<2x4x40x32xf32>) permutation = [0, 2, 1, 3]
  %kt0 = tensor.empty() : tensor<2x4x32x40xf32>
  %kt = linalg.transpose ins(%ke : tensor<2x40x4x32xf32>) outs(%kt0 : tensor<2x4x32x40xf32>) permutation = [0, 2, 3, 1]
  %q3 = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x4x32x40xf32> into tensor<8x32x40xf32>
  %s0 = tensor.empty() : tensor<8x24x40xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %s3 = linalg.batch_matmul ins(%q3, %k3 : tensor<8x24x32xf32>, tensor<8x32x40xf32>) outs(%sz : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %s = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [2, 4, 24, 40] : tensor<8x24x40xf32> into tensor<2x4x24x40xf32>
  %e0 = tensor.empty() : tensor<2x4x24x40xf32>
  %ss = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x4x24x40xf32>) outs(%e0 : tensor<2x4x24x40xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.divf %x, %d : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %i16 = arith.addi %i, %c16 : index
    %above = arith.cmpi ugt, %j, %i16 : index
    %w = arith.select %above, %ninf, %y : f32
    linalg.yield %w : f32
  } -> tensor<2x4x24x40xf32>
  %p = linalg.softmax dimension(3) ins(%ss : tensor<2x4x24x40xf32>) outs(%e0 : tensor<2x4x24x40xf32>) -> tensor<2x4x24x40xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<2x4x24x40xf32> into tensor<8x24x40xf32>
  %v3 = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<2x4x40x32xf32> into tensor<8x40x32xf32>
  %o0 = tensor.empty() : tensor<8x24x32xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x24x32xf32>) -> tensor<8x24x32xf32>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<8x24x40xf32>, tensor<8x40x32xf32>) outs(%oz : tensor<8x24x32xf32>) -> tensor<8x24x32xf32>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 24, 32] : tensor<8x24x32xf32> into tensor<2x4x24x32xf32>
  %ot0 = tensor.empty() : tensor<2x24x4x32xf32>
  %ot = linalg.transpose ins(%o : tensor<2x4x24x32xf32>) outs(%ot0 : tensor<2x24x4x32xf32>) permutation = [0, 2, 1, 3]
  %r = tensor.collapse_shape %ot [[0], [1], [2, 3]] : tensor<2x24x4x32xf32> into tensor<2x24x128xf32>
  return %r : tensor<2x24x128xf32>
}

// -----

// 2. TOSA: tosa.transpose perms [0, 2, 1, 3] (Q, V, O) and [0, 2, 3, 1]
// (K^T), tosa.matmul on tosa.reshape'd 3-D tensors; cross attention
// (M = 24, N = 40).
// CHECK-LABEL: func.func @tosa_bshd(
// CHECK-NEXT: %[[O:.*]] = "fa.gridwise_attention"(%arg0, %arg1, %arg2) {k_bshd, o_bshd, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, scale = 0.176776{{[0-9]+}} : f32, v_bshd} : (tensor<2x24x4x32xf32>, tensor<2x40x4x32xf32>, tensor<2x40x4x32xf32>) -> tensor<2x24x4x32xf32>
// CHECK-NEXT: return %[[O]] : tensor<2x24x4x32xf32>
// CHECK-NOT: tosa.

func.func @tosa_bshd(%q: tensor<2x24x4x32xf32>, %k: tensor<2x40x4x32xf32>, %v: tensor<2x40x4x32xf32>) -> tensor<2x24x4x32xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %scale = "tosa.const"() <{values = dense<0.176776695> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %qs3 = tosa.const_shape {values = dense<[8, 24, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %kts3 = tosa.const_shape {values = dense<[8, 32, 40]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %vs3 = tosa.const_shape {values = dense<[8, 40, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %ss3 = tosa.const_shape {values = dense<[8, 24, 40]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %ss4 = tosa.const_shape {values = dense<[2, 4, 24, 40]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %os4 = tosa.const_shape {values = dense<[2, 4, 24, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %qt = tosa.transpose %q {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x24x4x32xf32>) -> tensor<2x4x24x32xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 2, 3, 1>} : (tensor<2x40x4x32xf32>) -> tensor<2x4x32x40xf32>
  %vt = tosa.transpose %v {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x40x4x32xf32>) -> tensor<2x4x40x32xf32>
  %q3 = tosa.reshape %qt, %qs3 : (tensor<2x4x24x32xf32>, !tosa.shape<3>) -> tensor<8x24x32xf32>
  %k3 = tosa.reshape %kt, %kts3 : (tensor<2x4x32x40xf32>, !tosa.shape<3>) -> tensor<8x32x40xf32>
  %s3 = tosa.matmul %q3, %k3, %zp, %zp : (tensor<8x24x32xf32>, tensor<8x32x40xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x24x40xf32>
  %s = tosa.reshape %s3, %ss4 : (tensor<8x24x40xf32>, !tosa.shape<4>) -> tensor<2x4x24x40xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<2x4x24x40xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x4x24x40xf32>
  %max = tosa.reduce_max %ss {axis = 3 : i32} : (tensor<2x4x24x40xf32>) -> tensor<2x4x24x1xf32>
  %sub = tosa.sub %ss, %max : (tensor<2x4x24x40xf32>, tensor<2x4x24x1xf32>) -> tensor<2x4x24x40xf32>
  %e = tosa.exp %sub : (tensor<2x4x24x40xf32>) -> tensor<2x4x24x40xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<2x4x24x40xf32>) -> tensor<2x4x24x1xf32>
  %r = tosa.reciprocal %sum : (tensor<2x4x24x1xf32>) -> tensor<2x4x24x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<2x4x24x40xf32>, tensor<2x4x24x1xf32>, tensor<1xi8>) -> tensor<2x4x24x40xf32>
  %p3 = tosa.reshape %p, %ss3 : (tensor<2x4x24x40xf32>, !tosa.shape<3>) -> tensor<8x24x40xf32>
  %v3 = tosa.reshape %vt, %vs3 : (tensor<2x4x40x32xf32>, !tosa.shape<3>) -> tensor<8x40x32xf32>
  %o3 = tosa.matmul %p3, %v3, %zp, %zp : (tensor<8x24x40xf32>, tensor<8x40x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<8x24x32xf32>
  %o = tosa.reshape %o3, %os4 : (tensor<8x24x32xf32>, !tosa.shape<4>) -> tensor<2x4x24x32xf32>
  %ot = tosa.transpose %o {perms = array<i32: 0, 2, 1, 3>} : (tensor<2x4x24x32xf32>) -> tensor<2x24x4x32xf32>
  return %ot : tensor<2x24x4x32xf32>
}

// -----

// 3a. K as [B, N, H, D] transposed [0, 2, 1, 3] to [B, H, N, D], read
// transposed by the 4-D score generic's map (b, h, n, d): k_bshd without
// k_transposed. V's head dim (16) differs from Q's (32). O [B, H, M, Dv] is
// returned as it is: no o_bshd.
// CHECK-LABEL: func.func @k_bhnd_generic(
// CHECK-NEXT: %[[O:.*]] = "fa.gridwise_attention"(%arg0, %arg1, %arg2) {k_bshd, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, scale = 1.000000e+00 : f32, v_bshd} : (tensor<2x24x4x32xf32>, tensor<2x40x4x32xf32>, tensor<2x40x4x16xf32>) -> tensor<2x4x24x16xf32>
// CHECK-NEXT: return %[[O]] : tensor<2x4x24x16xf32>
// CHECK-NOT: linalg.

func.func @k_bhnd_generic(%q: tensor<2x24x4x32xf32>, %k: tensor<2x40x4x32xf32>, %v: tensor<2x40x4x16xf32>) -> tensor<2x4x24x16xf32> {
  %zero = arith.constant 0.0 : f32
  %t0 = tensor.empty() : tensor<2x4x24x32xf32>
  %qt = linalg.transpose ins(%q : tensor<2x24x4x32xf32>) outs(%t0 : tensor<2x4x24x32xf32>) permutation = [0, 2, 1, 3]
  %k0 = tensor.empty() : tensor<2x4x40x32xf32>
  %kt = linalg.transpose ins(%k : tensor<2x40x4x32xf32>) outs(%k0 : tensor<2x4x40x32xf32>) permutation = [0, 2, 1, 3]
  %v0 = tensor.empty() : tensor<2x4x40x16xf32>
  %vt = linalg.transpose ins(%v : tensor<2x40x4x16xf32>) outs(%v0 : tensor<2x4x40x16xf32>) permutation = [0, 2, 1, 3]
  %s0 = tensor.empty() : tensor<2x4x24x40xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<2x4x24x40xf32>) -> tensor<2x4x24x40xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%qt, %kt : tensor<2x4x24x32xf32>, tensor<2x4x40x32xf32>) outs(%sz : tensor<2x4x24x40xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x24x40xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<2x4x24x40xf32>) outs(%s0 : tensor<2x4x24x40xf32>) -> tensor<2x4x24x40xf32>
  %o0 = tensor.empty() : tensor<2x4x24x16xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<2x4x24x16xf32>) -> tensor<2x4x24x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %vt : tensor<2x4x24x40xf32>, tensor<2x4x40x16xf32>) outs(%oz : tensor<2x4x24x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x4x24x16xf32>
  return %o : tensor<2x4x24x16xf32>
}

// -----

// 3b. K as [B, N, H, D] transposed [0, 2, 1, 3], then its last two dims
// swapped by a second linalg.transpose (the existing K^T peel): k_bshd.
// CHECK-LABEL: func.func @k_bhnd_then_last_two(
// CHECK-NEXT: %[[O:.*]] = "fa.gridwise_attention"(%arg0, %arg1, %arg2) {k_bshd, o_bshd, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, scale = 1.000000e+00 : f32, v_bshd} : (tensor<2x24x4x32xf32>, tensor<2x40x4x32xf32>, tensor<2x40x4x32xf32>) -> tensor<2x24x4x32xf32>
// CHECK-NEXT: return %[[O]] : tensor<2x24x4x32xf32>
// CHECK-NOT: linalg.

func.func @k_bhnd_then_last_two(%q: tensor<2x24x4x32xf32>, %k: tensor<2x40x4x32xf32>, %v: tensor<2x40x4x32xf32>) -> tensor<2x24x4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %t0 = tensor.empty() : tensor<2x4x24x32xf32>
  %qt = linalg.transpose ins(%q : tensor<2x24x4x32xf32>) outs(%t0 : tensor<2x4x24x32xf32>) permutation = [0, 2, 1, 3]
  %k0 = tensor.empty() : tensor<2x4x40x32xf32>
  %kt = linalg.transpose ins(%k : tensor<2x40x4x32xf32>) outs(%k0 : tensor<2x4x40x32xf32>) permutation = [0, 2, 1, 3]
  %vt = linalg.transpose ins(%v : tensor<2x40x4x32xf32>) outs(%k0 : tensor<2x4x40x32xf32>) permutation = [0, 2, 1, 3]
  %kk0 = tensor.empty() : tensor<2x4x32x40xf32>
  %ktt = linalg.transpose ins(%kt : tensor<2x4x40x32xf32>) outs(%kk0 : tensor<2x4x32x40xf32>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
  %k3 = tensor.collapse_shape %ktt [[0, 1], [2], [3]] : tensor<2x4x32x40xf32> into tensor<8x32x40xf32>
  %v3 = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<2x4x40x32xf32> into tensor<8x40x32xf32>
  %s0 = tensor.empty() : tensor<8x24x40xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<8x24x32xf32>, tensor<8x32x40xf32>) outs(%sz : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<8x24x40xf32>) outs(%s0 : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %o0 = tensor.empty() : tensor<8x24x32xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<8x24x32xf32>) -> tensor<8x24x32xf32>
  %o3 = linalg.batch_matmul ins(%p, %v3 : tensor<8x24x40xf32>, tensor<8x40x32xf32>) outs(%oz : tensor<8x24x32xf32>) -> tensor<8x24x32xf32>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 24, 32] : tensor<8x24x32xf32> into tensor<2x4x24x32xf32>
  %ot0 = tensor.empty() : tensor<2x24x4x32xf32>
  %ot = linalg.transpose ins(%o : tensor<2x4x24x32xf32>) outs(%ot0 : tensor<2x24x4x32xf32>) permutation = [0, 2, 1, 3]
  return %ot : tensor<2x24x4x32xf32>
}

// -----

// 4. Copying linalg.generics (input map (d0, d2, d1, d3), identity output)
// as the transposes of V and of O; Q and K already [B, H, S, D].
// CHECK-LABEL: func.func @generic_copies(
// CHECK-NEXT: %[[O:.*]] = "fa.gridwise_attention"(%arg0, %arg1, %arg2) {o_bshd, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32, v_bshd} : (tensor<2x4x24x32xf32>, tensor<2x4x40x32xf32>, tensor<2x40x4x32xf32>) -> tensor<2x24x4x32xf32>
// CHECK-NEXT: return %[[O]] : tensor<2x24x4x32xf32>
// CHECK-NOT: linalg.

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#swap12 = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
func.func @generic_copies(%q: tensor<2x4x24x32xf32>, %k: tensor<2x4x40x32xf32>, %v: tensor<2x40x4x32xf32>) -> tensor<2x24x4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %v0 = tensor.empty() : tensor<2x4x40x32xf32>
  %vt = linalg.generic {indexing_maps = [#swap12, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%v : tensor<2x40x4x32xf32>) outs(%v0 : tensor<2x4x40x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<2x4x40x32xf32>
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
  %k3 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<2x4x40x32xf32> into tensor<8x40x32xf32>
  %v3 = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<2x4x40x32xf32> into tensor<8x40x32xf32>
  %kt0 = tensor.empty() : tensor<8x32x40xf32>
  %kt = linalg.transpose ins(%k3 : tensor<8x40x32xf32>) outs(%kt0 : tensor<8x32x40xf32>) permutation = [0, 2, 1]
  %s0 = tensor.empty() : tensor<8x24x40xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %s = linalg.batch_matmul ins(%q3, %kt : tensor<8x24x32xf32>, tensor<8x32x40xf32>) outs(%sz : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<8x24x40xf32>) outs(%s0 : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %o0 = tensor.empty() : tensor<8x24x32xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<8x24x32xf32>) -> tensor<8x24x32xf32>
  %o3 = linalg.batch_matmul ins(%p, %v3 : tensor<8x24x40xf32>, tensor<8x40x32xf32>) outs(%oz : tensor<8x24x32xf32>) -> tensor<8x24x32xf32>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 24, 32] : tensor<8x24x32xf32> into tensor<2x4x24x32xf32>
  %ot0 = tensor.empty() : tensor<2x24x4x32xf32>
  %ot = linalg.generic {indexing_maps = [#swap12, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o : tensor<2x4x24x32xf32>) outs(%ot0 : tensor<2x24x4x32xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<2x24x4x32xf32>
  return %ot : tensor<2x24x4x32xf32>
}

// -----

// 5. GQA: K^T and V transposed from [B, N, 2, D] below the linalg.broadcast
// over 2 groups that makes 4 heads: the op reads the unbroadcast [B, N, 2, D]
// K and V.
// CHECK-LABEL: func.func @gqa_bshd(
// CHECK-NEXT: %[[O:.*]] = "fa.gridwise_attention"(%arg0, %arg1, %arg2) {k_bshd, o_bshd, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, scale = 1.000000e+00 : f32, v_bshd} : (tensor<2x24x4x32xf32>, tensor<2x40x2x32xf32>, tensor<2x40x2x32xf32>) -> tensor<2x24x4x32xf32>
// CHECK-NEXT: return %[[O]] : tensor<2x24x4x32xf32>
// CHECK-NOT: linalg.

func.func @gqa_bshd(%q: tensor<2x24x4x32xf32>, %k: tensor<2x40x2x32xf32>, %v: tensor<2x40x2x32xf32>) -> tensor<2x24x4x32xf32> {
  %z = arith.constant 0.0 : f32
  %t0 = tensor.empty() : tensor<2x4x24x32xf32>
  %qt = linalg.transpose ins(%q : tensor<2x24x4x32xf32>) outs(%t0 : tensor<2x4x24x32xf32>) permutation = [0, 2, 1, 3]
  %kt0 = tensor.empty() : tensor<2x2x32x40xf32>
  %kt = linalg.transpose ins(%k : tensor<2x40x2x32xf32>) outs(%kt0 : tensor<2x2x32x40xf32>) permutation = [0, 2, 3, 1]
  %vt0 = tensor.empty() : tensor<2x2x40x32xf32>
  %vt = linalg.transpose ins(%v : tensor<2x40x2x32xf32>) outs(%vt0 : tensor<2x2x40x32xf32>) permutation = [0, 2, 1, 3]
  %kb0 = tensor.empty() : tensor<2x2x2x32x40xf32>
  %kb = linalg.broadcast ins(%kt : tensor<2x2x32x40xf32>) outs(%kb0 : tensor<2x2x2x32x40xf32>) dimensions = [2]
  %kg = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<2x2x2x32x40xf32> into tensor<2x4x32x40xf32>
  %vb0 = tensor.empty() : tensor<2x2x2x40x32xf32>
  %vb = linalg.broadcast ins(%vt : tensor<2x2x40x32xf32>) outs(%vb0 : tensor<2x2x2x40x32xf32>) dimensions = [2]
  %vg = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<2x2x2x40x32xf32> into tensor<2x4x40x32xf32>
  %q3 = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
  %k3 = tensor.collapse_shape %kg [[0, 1], [2], [3]] : tensor<2x4x32x40xf32> into tensor<8x32x40xf32>
  %v3 = tensor.collapse_shape %vg [[0, 1], [2], [3]] : tensor<2x4x40x32xf32> into tensor<8x40x32xf32>
  %s0 = tensor.empty() : tensor<8x24x40xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<8x24x32xf32>, tensor<8x32x40xf32>) outs(%sz : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<8x24x40xf32>) outs(%s0 : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %o0 = tensor.empty() : tensor<8x24x32xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x24x32xf32>) -> tensor<8x24x32xf32>
  %o3 = linalg.batch_matmul ins(%p, %v3 : tensor<8x24x40xf32>, tensor<8x40x32xf32>) outs(%oz : tensor<8x24x32xf32>) -> tensor<8x24x32xf32>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 24, 32] : tensor<8x24x32xf32> into tensor<2x4x24x32xf32>
  %ot0 = tensor.empty() : tensor<2x24x4x32xf32>
  %ot = linalg.transpose ins(%o : tensor<2x4x24x32xf32>) outs(%ot0 : tensor<2x24x4x32xf32>) permutation = [0, 2, 1, 3]
  return %ot : tensor<2x24x4x32xf32>
}

// -----

// 6a. O's only user is its transpose, which itself has two users (returned
// twice): still folds, and both results are the op's [B, M, H, Dv].
// CHECK-LABEL: func.func @o_transpose_two_users(
// CHECK-NEXT: %[[O:.*]] = "fa.gridwise_attention"(%arg0, %arg1, %arg2) {k_bshd, o_bshd, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, scale = 1.000000e+00 : f32, v_bshd} : (tensor<2x24x4x32xf32>, tensor<2x40x4x32xf32>, tensor<2x40x4x32xf32>) -> tensor<2x24x4x32xf32>
// CHECK-NEXT: return %[[O]], %[[O]] :
// CHECK-NOT: linalg.

func.func @o_transpose_two_users(%q: tensor<2x24x4x32xf32>, %k: tensor<2x40x4x32xf32>, %v: tensor<2x40x4x32xf32>) -> (tensor<2x24x4x32xf32>, tensor<2x24x4x32xf32>) {
  %z = arith.constant 0.0 : f32
  %t0 = tensor.empty() : tensor<2x4x24x32xf32>
  %qt = linalg.transpose ins(%q : tensor<2x24x4x32xf32>) outs(%t0 : tensor<2x4x24x32xf32>) permutation = [0, 2, 1, 3]
  %kt0 = tensor.empty() : tensor<2x4x32x40xf32>
  %kt = linalg.transpose ins(%k : tensor<2x40x4x32xf32>) outs(%kt0 : tensor<2x4x32x40xf32>) permutation = [0, 2, 3, 1]
  %vt0 = tensor.empty() : tensor<2x4x40x32xf32>
  %vt = linalg.transpose ins(%v : tensor<2x40x4x32xf32>) outs(%vt0 : tensor<2x4x40x32xf32>) permutation = [0, 2, 1, 3]
  %q3 = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x4x32x40xf32> into tensor<8x32x40xf32>
  %v3 = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<2x4x40x32xf32> into tensor<8x40x32xf32>
  %s0 = tensor.empty() : tensor<8x24x40xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<8x24x32xf32>, tensor<8x32x40xf32>) outs(%sz : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<8x24x40xf32>) outs(%s0 : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %o0 = tensor.empty() : tensor<8x24x32xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x24x32xf32>) -> tensor<8x24x32xf32>
  %o3 = linalg.batch_matmul ins(%p, %v3 : tensor<8x24x40xf32>, tensor<8x40x32xf32>) outs(%oz : tensor<8x24x32xf32>) -> tensor<8x24x32xf32>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 24, 32] : tensor<8x24x32xf32> into tensor<2x4x24x32xf32>
  %ot0 = tensor.empty() : tensor<2x24x4x32xf32>
  %ot = linalg.transpose ins(%o : tensor<2x4x24x32xf32>) outs(%ot0 : tensor<2x24x4x32xf32>) permutation = [0, 2, 1, 3]
  return %ot, %ot : tensor<2x24x4x32xf32>, tensor<2x24x4x32xf32>
}

// -----

// 6b. Negative: O [B, H, M, Dv] has a second user (returned beside its
// transpose): no o_bshd, the transpose stays. Q, K, V still fold.
// CHECK-LABEL: func.func @o_two_users(
// CHECK-NEXT: %[[O:.*]] = "fa.gridwise_attention"(%arg0, %arg1, %arg2) {k_bshd, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, scale = 1.000000e+00 : f32, v_bshd} : (tensor<2x24x4x32xf32>, tensor<2x40x4x32xf32>, tensor<2x40x4x32xf32>) -> tensor<2x4x24x32xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<2x24x4x32xf32>
// CHECK-NEXT: %[[T:.*]] = linalg.transpose ins(%[[O]] : tensor<2x4x24x32xf32>) outs(%[[E]] : tensor<2x24x4x32xf32>) permutation = [0, 2, 1, 3]
// CHECK-NEXT: return %[[T]], %[[O]] :

func.func @o_two_users(%q: tensor<2x24x4x32xf32>, %k: tensor<2x40x4x32xf32>, %v: tensor<2x40x4x32xf32>) -> (tensor<2x24x4x32xf32>, tensor<2x4x24x32xf32>) {
  %z = arith.constant 0.0 : f32
  %t0 = tensor.empty() : tensor<2x4x24x32xf32>
  %qt = linalg.transpose ins(%q : tensor<2x24x4x32xf32>) outs(%t0 : tensor<2x4x24x32xf32>) permutation = [0, 2, 1, 3]
  %kt0 = tensor.empty() : tensor<2x4x32x40xf32>
  %kt = linalg.transpose ins(%k : tensor<2x40x4x32xf32>) outs(%kt0 : tensor<2x4x32x40xf32>) permutation = [0, 2, 3, 1]
  %vt0 = tensor.empty() : tensor<2x4x40x32xf32>
  %vt = linalg.transpose ins(%v : tensor<2x40x4x32xf32>) outs(%vt0 : tensor<2x4x40x32xf32>) permutation = [0, 2, 1, 3]
  %q3 = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x4x32x40xf32> into tensor<8x32x40xf32>
  %v3 = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<2x4x40x32xf32> into tensor<8x40x32xf32>
  %s0 = tensor.empty() : tensor<8x24x40xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<8x24x32xf32>, tensor<8x32x40xf32>) outs(%sz : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<8x24x40xf32>) outs(%s0 : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %o0 = tensor.empty() : tensor<8x24x32xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x24x32xf32>) -> tensor<8x24x32xf32>
  %o3 = linalg.batch_matmul ins(%p, %v3 : tensor<8x24x40xf32>, tensor<8x40x32xf32>) outs(%oz : tensor<8x24x32xf32>) -> tensor<8x24x32xf32>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 24, 32] : tensor<8x24x32xf32> into tensor<2x4x24x32xf32>
  %ot0 = tensor.empty() : tensor<2x24x4x32xf32>
  %ot = linalg.transpose ins(%o : tensor<2x4x24x32xf32>) outs(%ot0 : tensor<2x24x4x32xf32>) permutation = [0, 2, 1, 3]
  return %ot, %o : tensor<2x24x4x32xf32>, tensor<2x4x24x32xf32>
}

// -----

// 7. Negative: transposes with other permutations stay. Q by [1, 0, 2, 3]
// (of [H, B, S, D]); K^T by [0, 2, 1, 3] (of [B, D, H, N], not the
// [0, 2, 3, 1] of a [B, N, H, D] K): k_transposed stays, no k_bshd; O by
// [0, 2, 3, 1]. V's [0, 2, 1, 3] still folds.
// CHECK-LABEL: func.func @other_perms(
// CHECK: %[[QT:.*]] = linalg.transpose ins(%arg0 : tensor<4x2x24x32xf32>) {{.*}} permutation = [1, 0, 2, 3]
// CHECK: %[[KT:.*]] = linalg.transpose ins(%arg1 : tensor<2x32x4x40xf32>) {{.*}} permutation = [0, 2, 1, 3]
// CHECK-NEXT: %[[O:.*]] = "fa.gridwise_attention"(%[[QT]], %[[KT]], %arg2) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32, v_bshd} : (tensor<2x4x24x32xf32>, tensor<2x4x32x40xf32>, tensor<2x40x4x32xf32>) -> tensor<2x4x24x32xf32>
// CHECK: %[[OT:.*]] = linalg.transpose ins(%[[O]] : tensor<2x4x24x32xf32>) {{.*}} permutation = [0, 2, 3, 1]
// CHECK-NEXT: return %[[OT]] : tensor<2x24x32x4xf32>

func.func @other_perms(%q: tensor<4x2x24x32xf32>, %k: tensor<2x32x4x40xf32>, %v: tensor<2x40x4x32xf32>) -> tensor<2x24x32x4xf32> {
  %z = arith.constant 0.0 : f32
  %t0 = tensor.empty() : tensor<2x4x24x32xf32>
  %qt = linalg.transpose ins(%q : tensor<4x2x24x32xf32>) outs(%t0 : tensor<2x4x24x32xf32>) permutation = [1, 0, 2, 3]
  %kt0 = tensor.empty() : tensor<2x4x32x40xf32>
  %kt = linalg.transpose ins(%k : tensor<2x32x4x40xf32>) outs(%kt0 : tensor<2x4x32x40xf32>) permutation = [0, 2, 1, 3]
  %vt0 = tensor.empty() : tensor<2x4x40x32xf32>
  %vt = linalg.transpose ins(%v : tensor<2x40x4x32xf32>) outs(%vt0 : tensor<2x4x40x32xf32>) permutation = [0, 2, 1, 3]
  %q3 = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x4x32x40xf32> into tensor<8x32x40xf32>
  %v3 = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<2x4x40x32xf32> into tensor<8x40x32xf32>
  %s0 = tensor.empty() : tensor<8x24x40xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<8x24x32xf32>, tensor<8x32x40xf32>) outs(%sz : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<8x24x40xf32>) outs(%s0 : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %o0 = tensor.empty() : tensor<8x24x32xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x24x32xf32>) -> tensor<8x24x32xf32>
  %o3 = linalg.batch_matmul ins(%p, %v3 : tensor<8x24x40xf32>, tensor<8x40x32xf32>) outs(%oz : tensor<8x24x32xf32>) -> tensor<8x24x32xf32>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 24, 32] : tensor<8x24x32xf32> into tensor<2x4x24x32xf32>
  %ot0 = tensor.empty() : tensor<2x24x32x4xf32>
  %ot = linalg.transpose ins(%o : tensor<2x4x24x32xf32>) outs(%ot0 : tensor<2x24x32x4xf32>) permutation = [0, 2, 3, 1]
  return %ot : tensor<2x24x32x4xf32>
}

// -----

// 8. Q's transpose has another user (its collapsed [B*H, M, D] is returned
// too): the op still reads the [B, S, H, D] source, the transpose stays for
// that user.
// CHECK-LABEL: func.func @q_transpose_shared(
// CHECK: %[[QT:.*]] = linalg.transpose ins(%arg0 : tensor<2x24x4x32xf32>) {{.*}} permutation = [0, 2, 1, 3]
// CHECK-NEXT: %[[QC:.*]] = tensor.collapse_shape %[[QT]]
// CHECK-NEXT: %[[O:.*]] = "fa.gridwise_attention"(%arg0, %arg1, %arg2) {k_bshd, o_bshd, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, scale = 1.000000e+00 : f32, v_bshd} : (tensor<2x24x4x32xf32>, tensor<2x40x4x32xf32>, tensor<2x40x4x32xf32>) -> tensor<2x24x4x32xf32>
// CHECK-NEXT: return %[[O]], %[[QC]] :
// CHECK-NOT: linalg.transpose

func.func @q_transpose_shared(%q: tensor<2x24x4x32xf32>, %k: tensor<2x40x4x32xf32>, %v: tensor<2x40x4x32xf32>) -> (tensor<2x24x4x32xf32>, tensor<8x24x32xf32>) {
  %z = arith.constant 0.0 : f32
  %t0 = tensor.empty() : tensor<2x4x24x32xf32>
  %qt = linalg.transpose ins(%q : tensor<2x24x4x32xf32>) outs(%t0 : tensor<2x4x24x32xf32>) permutation = [0, 2, 1, 3]
  %kt0 = tensor.empty() : tensor<2x4x32x40xf32>
  %kt = linalg.transpose ins(%k : tensor<2x40x4x32xf32>) outs(%kt0 : tensor<2x4x32x40xf32>) permutation = [0, 2, 3, 1]
  %vt0 = tensor.empty() : tensor<2x4x40x32xf32>
  %vt = linalg.transpose ins(%v : tensor<2x40x4x32xf32>) outs(%vt0 : tensor<2x4x40x32xf32>) permutation = [0, 2, 1, 3]
  %q3 = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<2x4x32x40xf32> into tensor<8x32x40xf32>
  %v3 = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<2x4x40x32xf32> into tensor<8x40x32xf32>
  %s0 = tensor.empty() : tensor<8x24x40xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<8x24x32xf32>, tensor<8x32x40xf32>) outs(%sz : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<8x24x40xf32>) outs(%s0 : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %o0 = tensor.empty() : tensor<8x24x32xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x24x32xf32>) -> tensor<8x24x32xf32>
  %o3 = linalg.batch_matmul ins(%p, %v3 : tensor<8x24x40xf32>, tensor<8x40x32xf32>) outs(%oz : tensor<8x24x32xf32>) -> tensor<8x24x32xf32>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 24, 32] : tensor<8x24x32xf32> into tensor<2x4x24x32xf32>
  %ot0 = tensor.empty() : tensor<2x24x4x32xf32>
  %ot = linalg.transpose ins(%o : tensor<2x4x24x32xf32>) outs(%ot0 : tensor<2x24x4x32xf32>) permutation = [0, 2, 1, 3]
  return %ot, %q3 : tensor<2x24x4x32xf32>, tensor<8x24x32xf32>
}

// -----

// 9. One transpose makes Q, K (then K^T by a last-two swap) and V, and O's
// transpose writes into the input tensor: all fold onto the one source.
// CHECK-LABEL: func.func @one_transpose_qkv(
// CHECK-NEXT: %[[O:.*]] = "fa.gridwise_attention"(%arg0, %arg0, %arg0) {k_bshd, o_bshd, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, scale = 1.000000e+00 : f32, v_bshd} : (tensor<2x24x4x32xf32>, tensor<2x24x4x32xf32>, tensor<2x24x4x32xf32>) -> tensor<2x24x4x32xf32>
// CHECK-NEXT: return %[[O]] : tensor<2x24x4x32xf32>
// CHECK-NOT: linalg.

func.func @one_transpose_qkv(%x: tensor<2x24x4x32xf32>) -> tensor<2x24x4x32xf32> {
  %z = arith.constant 0.0 : f32
  %t0 = tensor.empty() : tensor<2x4x24x32xf32>
  %xt = linalg.transpose ins(%x : tensor<2x24x4x32xf32>) outs(%t0 : tensor<2x4x24x32xf32>) permutation = [0, 2, 1, 3]
  %kk0 = tensor.empty() : tensor<2x4x32x24xf32>
  %ktt = linalg.transpose ins(%xt : tensor<2x4x24x32xf32>) outs(%kk0 : tensor<2x4x32x24xf32>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %xt [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
  %k3 = tensor.collapse_shape %ktt [[0, 1], [2], [3]] : tensor<2x4x32x24xf32> into tensor<8x32x24xf32>
  %s0 = tensor.empty() : tensor<8x24x24xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x24x24xf32>) -> tensor<8x24x24xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<8x24x32xf32>, tensor<8x32x24xf32>) outs(%sz : tensor<8x24x24xf32>) -> tensor<8x24x24xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<8x24x24xf32>) outs(%s0 : tensor<8x24x24xf32>) -> tensor<8x24x24xf32>
  %o0 = tensor.empty() : tensor<8x24x32xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x24x32xf32>) -> tensor<8x24x32xf32>
  %o3 = linalg.batch_matmul ins(%p, %q3 : tensor<8x24x24xf32>, tensor<8x24x32xf32>) outs(%oz : tensor<8x24x32xf32>) -> tensor<8x24x32xf32>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 24, 32] : tensor<8x24x32xf32> into tensor<2x4x24x32xf32>
  %ot = linalg.transpose ins(%o : tensor<2x4x24x32xf32>) outs(%x : tensor<2x24x4x32xf32>) permutation = [0, 2, 1, 3]
  return %ot : tensor<2x24x4x32xf32>
}
