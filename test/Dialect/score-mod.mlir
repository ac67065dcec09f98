// fa.gridwise_attention with a mask function, a score_mod function, sinks and
// captures: the round trip keeps them, and fa-verify accepts them.
// RUN: fa-opt %s | fa-opt | FileCheck %s
// RUN: fa-opt --mlir-print-op-generic %s | fa-opt | FileCheck %s

// Sliding window of 4 beside causal_offset; ALiBi from per-head slopes.
// CHECK-LABEL: func.func @window_alibi
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %arg3, %arg4) {causal_offset = 0 : i64, mask = @window, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 1, 0, 0, 0>, scale = 1.250000e-01 : f32, score_mod = @alibi}
func.func private @window(%b: index, %h: index, %i: index, %j: index, %slopes: tensor<8xf32>) -> i1 {
  %w = arith.constant 4 : index
  %d = arith.subi %i, %j : index
  %in = arith.cmpi slt, %d, %w : index
  return %in : i1
}
func.func private @alibi(%s: f32, %b: index, %h: index, %i: index, %j: index, %slopes: tensor<8xf32>) -> f32 {
  %m = tensor.extract %slopes[%h] : tensor<8xf32>
  %ii = arith.index_cast %i : index to i64
  %jj = arith.index_cast %j : index to i64
  %d = arith.subi %jj, %ii : i64
  %df = arith.sitofp %d : i64 to f32
  %t = arith.mulf %m, %df : f32
  %r = arith.addf %s, %t : f32
  return %r : f32
}
func.func @window_alibi(%q: tensor<2x8x16x64xf16>, %k: tensor<2x2x16x64xf16>, %v: tensor<2x2x16x64xf16>,
                        %sinks: tensor<8xf32>, %slopes: tensor<8xf32>) -> tensor<2x8x16x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %sinks, %slopes) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 1, 0, 0, 0>, scale = 0.125 : f32, causal_offset = 0 : i64, mask = @window, score_mod = @alibi}
      : (tensor<2x8x16x64xf16>, tensor<2x2x16x64xf16>, tensor<2x2x16x64xf16>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8x16x64xf16>
  return %o : tensor<2x8x16x64xf16>
}

// Softcap (math.tanh) with no captures, and an LSE.
// CHECK-LABEL: func.func @softcap
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.250000e-01 : f32, score_mod = @cap50}
func.func private @cap50(%s: f32, %b: index, %h: index, %i: index, %j: index) -> f32 {
  %c = arith.constant 50.0 : f32
  %x = arith.divf %s, %c : f32
  %t = math.tanh %x : f32
  %r = arith.mulf %t, %c : f32
  return %r : f32
}
func.func @softcap(%q: tensor<1x4x16x64xbf16>, %k: tensor<1x4x16x64xbf16>, %v: tensor<1x4x16x64xbf16>) -> (tensor<1x4x16x64xbf16>, tensor<1x4x16xf32>) {
  %o, %l = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32, score_mod = @cap50}
      : (tensor<1x4x16x64xbf16>, tensor<1x4x16x64xbf16>, tensor<1x4x16x64xbf16>) -> (tensor<1x4x16x64xbf16>, tensor<1x4x16xf32>)
  return %o, %l : tensor<1x4x16x64xbf16>, tensor<1x4x16xf32>
}

// Document masking from per-key ids (a captured tensor and a scalar).
// CHECK-LABEL: func.func @documents
// CHECK: mask = @same_doc, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 1, 0, 0>
func.func private @same_doc(%b: index, %h: index, %i: index, %j: index, %doc: tensor<?xi32>, %lim: i32) -> i1 {
  %di = tensor.extract %doc[%i] : tensor<?xi32>
  %dj = tensor.extract %doc[%j] : tensor<?xi32>
  %same = arith.cmpi eq, %di, %dj : i32
  %small = arith.cmpi slt, %dj, %lim : i32
  %r = arith.andi %same, %small : i1
  return %r : i1
}
func.func @documents(%q: tensor<1x2x?x32xf32>, %k: tensor<1x2x?x32xf32>, %v: tensor<1x2x?x32xf32>, %doc: tensor<?xi32>, %lim: i32) -> tensor<1x2x?x32xf32> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %doc, %lim) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 1, 0, 0>, scale = 1.0 : f32, mask = @same_doc}
      : (tensor<1x2x?x32xf32>, tensor<1x2x?x32xf32>, tensor<1x2x?x32xf32>, tensor<?xi32>, i32) -> tensor<1x2x?x32xf32>
  return %o : tensor<1x2x?x32xf32>
}
