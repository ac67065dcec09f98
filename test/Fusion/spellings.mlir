// L3/L5/L6/L7/L8 and T1-T5: each spelling fuses with the right operands and
// attributes.
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --fa-fuse-attention %examples/attention_linalg_decomposed.mlir | FileCheck %s --check-prefix=DECOMP
// RUN: fa-opt --fa-fuse-attention %examples/attention_tosa.mlir | FileCheck %s --check-prefix=TOSA

// L3 + L5 + L6: decomposed softmax in generics, f16 GEMMs around an f32
// softmax, /sqrt(d), [B,1,1,N] padding mask; 4-D through batch reshapes.
// DECOMP: %[[O:.*]] = "fa.gridwise_attention"(%arg0, %arg1, %arg2, %arg3) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>, scale = 1.250000e-01 : f32} : (tensor<2x12x384x64xf16>, tensor<2x12x384x64xf16>, tensor<2x12x384x64xf16>, tensor<2x1x1x384xf32>) -> tensor<2x12x384x64xf16>
// DECOMP-NEXT: return %[[O]]

// T1: tosa.matmul, mul, reduce_max, sub, exp, reduce_sum, reciprocal, mul, matmul (K given as K^T).
// TOSA: "fa.gridwise_attention"({{.*}}) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.250000e-01 : f32} : (tensor<1x16x128x64xf16>, tensor<1x16x64x128xf16>, tensor<1x16x128x64xf16>) -> tensor<1x16x128x64xf16>
// TOSA-NOT: tosa.

// L5 causal built with linalg.index + cmpi + select, bottom-right aligned
// (offset N - M = 4); reductions as linalg.reduce; 1/sum in its own generic.
// CHECK-LABEL: func.func @causal_index_compare
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {causal_offset = 4 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// CHECK-NOT: linalg.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @causal_index_compare(%q: tensor<1x2x4x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x2x4x16xf32> {
  %z = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c4 = arith.constant 4 : index
  %kt0 = tensor.empty() : tensor<1x2x16x8xf32>
  %kt = linalg.transpose ins(%k : tensor<1x2x8x16xf32>) outs(%kt0 : tensor<1x2x16x8xf32>) permutation = [0, 1, 3, 2]
  %s0 = tensor.empty() : tensor<1x2x4x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, d, n)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %kt : tensor<1x2x4x16xf32>, tensor<1x2x16x8xf32>) outs(%sz : tensor<1x2x4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x8xf32>
  %masked = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<1x2x4x8xf32>) outs(%s0 : tensor<1x2x4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %i4 = arith.addi %i, %c4 : index
    %above = arith.cmpi ugt, %j, %i4 : index
    %y = arith.select %above, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x8xf32>
  %r0 = tensor.empty() : tensor<1x2x4xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%r0 : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %mx = linalg.reduce ins(%masked : tensor<1x2x4x8xf32>) outs(%mi : tensor<1x2x4xf32>) dimensions = [3]
    (%x: f32, %acc: f32) {
      %r = arith.maxnumf %x, %acc : f32
      linalg.yield %r : f32
    }
  %e = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%masked, %mx : tensor<1x2x4x8xf32>, tensor<1x2x4xf32>) outs(%s0 : tensor<1x2x4x8xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<1x2x4x8xf32>
  %li = linalg.fill ins(%z : f32) outs(%r0 : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %l = linalg.reduce ins(%e : tensor<1x2x4x8xf32>) outs(%li : tensor<1x2x4xf32>) dimensions = [3]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  %rl = linalg.generic {indexing_maps = [affine_map<(a, b, c) -> (a, b, c)>, affine_map<(a, b, c) -> (a, b, c)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%l : tensor<1x2x4xf32>) outs(%r0 : tensor<1x2x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.divf %one, %x : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e, %rl : tensor<1x2x4x8xf32>, tensor<1x2x4xf32>) outs(%s0 : tensor<1x2x4x8xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %y = arith.mulf %r, %x : f32
    linalg.yield %y : f32
  } -> tensor<1x2x4x8xf32>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x4x8xf32> into tensor<2x4x8xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x8x16xf32> into tensor<2x8x16xf32>
  %o0 = tensor.empty() : tensor<2x4x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %o = linalg.batch_matmul ins(%p3, %v3 : tensor<2x4x8xf32>, tensor<2x8x16xf32>) outs(%oz : tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %o4 = tensor.expand_shape %o [[0, 1], [2], [3]] output_shape [1, 2, 4, 16] : tensor<2x4x16xf32> into tensor<1x2x4x16xf32>
  return %o4 : tensor<1x2x4x16xf32>
}

// -----

// L5 causal as a constant upper-triangular -inf tensor [M, N] added to the
// scores; a second, real [1,H,M,N] bias becomes the bias operand.
// CHECK-LABEL: func.func @causal_constant_and_bias
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}, %[[B:.*]]) {causal_offset = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>, tensor<1x2x3x3xf32>)
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#mn = affine_map<(d0, d1, d2) -> (d1, d2)>
func.func @causal_constant_and_bias(%q: tensor<2x3x4xf32>, %k: tensor<2x3x4xf32>, %v: tensor<2x3x4xf32>, %bias: tensor<2x3x3xf32>) -> tensor<2x3x4xf32> {
  %z = arith.constant 0.0 : f32
  %tri = arith.constant dense<[[0.0, 0xFF800000, 0xFF800000], [0.0, 0.0, 0xFF800000], [0.0, 0.0, 0.0]]> : tensor<3x3xf32>
  %kt0 = tensor.empty() : tensor<2x4x3xf32>
  %kt = linalg.transpose ins(%k : tensor<2x3x4xf32>) outs(%kt0 : tensor<2x4x3xf32>) permutation = [0, 2, 1]
  %s0 = tensor.empty() : tensor<2x3x3xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x3x4xf32>, tensor<2x4x3xf32>) outs(%sz : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  %sb = linalg.generic {indexing_maps = [#id3, #mn, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %tri, %bias : tensor<2x3x3xf32>, tensor<3x3xf32>, tensor<2x3x3xf32>) outs(%s0 : tensor<2x3x3xf32>) {
  ^bb0(%x: f32, %t: f32, %b: f32, %o: f32):
    %y = arith.addf %x, %t : f32
    %w = arith.addf %b, %y : f32
    linalg.yield %w : f32
  } -> tensor<2x3x3xf32>
  %p = linalg.softmax dimension(2) ins(%sb : tensor<2x3x3xf32>) outs(%s0 : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  %o0 = tensor.empty() : tensor<2x3x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<2x3x3xf32>, tensor<2x3x4xf32>) outs(%oz : tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %o : tensor<2x3x4xf32>
}

// -----

// L7 GQA: K and V [B, 2, N, D] broadcast to 3 groups by linalg.broadcast and
// collapsed to 6 heads: the op gets the unbroadcast K and V.
// CHECK-LABEL: func.func @gqa_broadcast
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {k_transposed, {{.*}}} : (tensor<1x6x5x8xf32>, tensor<1x2x8x7xf32>, tensor<1x2x7x8xf32>) -> tensor<1x6x5x8xf32>
// CHECK-NOT: linalg.broadcast
func.func @gqa_broadcast(%q: tensor<1x6x5x8xf32>, %kt: tensor<1x2x8x7xf32>, %v: tensor<1x2x7x8xf32>) -> tensor<1x6x5x8xf32> {
  %z = arith.constant 0.0 : f32
  %kb0 = tensor.empty() : tensor<1x2x3x8x7xf32>
  %kb = linalg.broadcast ins(%kt : tensor<1x2x8x7xf32>) outs(%kb0 : tensor<1x2x3x8x7xf32>) dimensions = [2]
  %kg = tensor.collapse_shape %kb [[0], [1, 2], [3], [4]] : tensor<1x2x3x8x7xf32> into tensor<1x6x8x7xf32>
  %vb0 = tensor.empty() : tensor<1x2x3x7x8xf32>
  %vb = linalg.broadcast ins(%v : tensor<1x2x7x8xf32>) outs(%vb0 : tensor<1x2x3x7x8xf32>) dimensions = [2]
  %vg = tensor.collapse_shape %vb [[0], [1, 2], [3], [4]] : tensor<1x2x3x7x8xf32> into tensor<1x6x7x8xf32>
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x6x5x8xf32> into tensor<6x5x8xf32>
  %k3 = tensor.collapse_shape %kg [[0, 1], [2], [3]] : tensor<1x6x8x7xf32> into tensor<6x8x7xf32>
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

// L8 dynamic batch and sequence dims.
// CHECK-LABEL: func.func @dynamic
// CHECK: "fa.gridwise_attention"{{.*}} : (tensor<1x?x?x64xf16>, tensor<1x?x?x64xf16>, tensor<1x?x?x64xf16>) -> tensor<1x?x?x64xf16>
// CHECK: tensor.collapse_shape {{.*}} into tensor<?x?x64xf16>
// CHECK-NOT: linalg.
func.func @dynamic(%q: tensor<?x?x64xf16>, %k: tensor<?x?x64xf16>, %v: tensor<?x?x64xf16>) -> tensor<?x?x64xf16> {
  %zero = arith.constant 0.0 : f16
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = tensor.dim %q, %c0 : tensor<?x?x64xf16>
  %m = tensor.dim %q, %c1 : tensor<?x?x64xf16>
  %n = tensor.dim %k, %c1 : tensor<?x?x64xf16>
  %kt0 = tensor.empty(%b, %n) : tensor<?x64x?xf16>
  %kt = linalg.transpose ins(%k : tensor<?x?x64xf16>) outs(%kt0 : tensor<?x64x?xf16>) permutation = [0, 2, 1]
  %s0 = tensor.empty(%b, %m, %n) : tensor<?x?x?xf16>
  %sz = linalg.fill ins(%zero : f16) outs(%s0 : tensor<?x?x?xf16>) -> tensor<?x?x?xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<?x?x64xf16>, tensor<?x64x?xf16>) outs(%sz : tensor<?x?x?xf16>) -> tensor<?x?x?xf16>
  %p = linalg.softmax dimension(2) ins(%s : tensor<?x?x?xf16>) outs(%s0 : tensor<?x?x?xf16>) -> tensor<?x?x?xf16>
  %o0 = tensor.empty(%b, %m) : tensor<?x?x64xf16>
  %oz = linalg.fill ins(%zero : f16) outs(%o0 : tensor<?x?x64xf16>) -> tensor<?x?x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<?x?x?xf16>, tensor<?x?x64xf16>) outs(%oz : tensor<?x?x64xf16>) -> tensor<?x?x64xf16>
  return %o : tensor<?x?x64xf16>
}

// -----

// T2/T3/T4/T5: head split by tosa.reshape, K transposed by tosa.transpose,
// GQA by reshape + tosa.tile, f16 GEMMs with tosa.cast to an f32 softmax,
// causal by select(greater(col, row)) on iota constants.
// CHECK-LABEL: func.func @tosa_gqa_causal_cast
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {causal_offset = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.250000e-01 : f32} : (tensor<1x4x6x64xf16>, tensor<1x2x6x64xf16>, tensor<1x2x6x64xf16>) -> tensor<1x4x6x64xf16>
// CHECK-NOT: tosa.matmul
func.func @tosa_gqa_causal_cast(%q: tensor<1x4x6x64xf16>, %k: tensor<1x2x6x64xf16>, %v: tensor<1x2x6x64xf16>) -> tensor<1x4x6x64xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %col = "tosa.const"() <{values = dense<[[[0, 1, 2, 3, 4, 5]]]> : tensor<1x1x6xi32>}> : () -> tensor<1x1x6xi32>
  %row = "tosa.const"() <{values = dense<[[[0], [1], [2], [3], [4], [5]]]> : tensor<1x6x1xi32>}> : () -> tensor<1x6x1xi32>
  %mult = tosa.const_shape {values = dense<[1, 1, 2, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %s5 = tosa.const_shape {values = dense<[1, 2, 1, 6, 64]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %s4 = tosa.const_shape {values = dense<[1, 4, 6, 64]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3 = tosa.const_shape {values = dense<[4, 6, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s3t = tosa.const_shape {values = dense<[4, 64, 6]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %o4s = tosa.const_shape {values = dense<[1, 4, 6, 64]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %k5 = tosa.reshape %k, %s5 : (tensor<1x2x6x64xf16>, !tosa.shape<5>) -> tensor<1x2x1x6x64xf16>
  %kt5 = tosa.tile %k5, %mult : (tensor<1x2x1x6x64xf16>, !tosa.shape<5>) -> tensor<1x2x2x6x64xf16>
  %kg = tosa.reshape %kt5, %s4 : (tensor<1x2x2x6x64xf16>, !tosa.shape<4>) -> tensor<1x4x6x64xf16>
  %v5 = tosa.reshape %v, %s5 : (tensor<1x2x6x64xf16>, !tosa.shape<5>) -> tensor<1x2x1x6x64xf16>
  %vt5 = tosa.tile %v5, %mult : (tensor<1x2x1x6x64xf16>, !tosa.shape<5>) -> tensor<1x2x2x6x64xf16>
  %vg = tosa.reshape %vt5, %s4 : (tensor<1x2x2x6x64xf16>, !tosa.shape<4>) -> tensor<1x4x6x64xf16>
  %kT = tosa.transpose %kg {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x4x6x64xf16>) -> tensor<1x4x64x6xf16>
  %q3 = tosa.reshape %q, %s3 : (tensor<1x4x6x64xf16>, !tosa.shape<3>) -> tensor<4x6x64xf16>
  %k3 = tosa.reshape %kT, %s3t : (tensor<1x4x64x6xf16>, !tosa.shape<3>) -> tensor<4x64x6xf16>
  %v3 = tosa.reshape %vg, %s3 : (tensor<1x4x6x64xf16>, !tosa.shape<3>) -> tensor<4x6x64xf16>
  %s = tosa.matmul %q3, %k3, %zp, %zp : (tensor<4x6x64xf16>, tensor<4x64x6xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x6x6xf16>
  %sf = tosa.cast %s : (tensor<4x6x6xf16>) -> tensor<4x6x6xf32>
  %ss = tosa.mul %scale, %sf, %shift : (tensor<1x1x1xf32>, tensor<4x6x6xf32>, tensor<1xi8>) -> tensor<4x6x6xf32>
  %gt = tosa.greater %col, %row : (tensor<1x1x6xi32>, tensor<1x6x1xi32>) -> tensor<1x6x6xi1>
  %sm = tosa.select %gt, %ninf, %ss : (tensor<1x6x6xi1>, tensor<1x1x1xf32>, tensor<4x6x6xf32>) -> tensor<4x6x6xf32>
  %m = tosa.reduce_max %sm {axis = 2 : i32} : (tensor<4x6x6xf32>) -> tensor<4x6x1xf32>
  %d = tosa.sub %sm, %m : (tensor<4x6x6xf32>, tensor<4x6x1xf32>) -> tensor<4x6x6xf32>
  %e = tosa.exp %d : (tensor<4x6x6xf32>) -> tensor<4x6x6xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<4x6x6xf32>) -> tensor<4x6x1xf32>
  %r = tosa.reciprocal %l : (tensor<4x6x1xf32>) -> tensor<4x6x1xf32>
  %pf = tosa.mul %r, %e, %shift : (tensor<4x6x1xf32>, tensor<4x6x6xf32>, tensor<1xi8>) -> tensor<4x6x6xf32>
  %p = tosa.cast %pf : (tensor<4x6x6xf32>) -> tensor<4x6x6xf16>
  %o = tosa.matmul %p, %v3, %zp, %zp : (tensor<4x6x6xf16>, tensor<4x6x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<4x6x64xf16>
  %o4 = tosa.reshape %o, %o4s : (tensor<4x6x64xf16>, !tosa.shape<4>) -> tensor<1x4x6x64xf16>
  return %o4 : tensor<1x4x6x64xf16>
}
