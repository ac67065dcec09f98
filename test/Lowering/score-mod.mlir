// Masks, score modifications and sinks: each kernel's result against the
// op's naive reference (fa-decompose-attention), on the CPU; and what the
// lowering makes of the functions (kernel copies on buffers, inlined, with
// clamped capture reads).
// RUN: fa-check --split-input-file --input-scale=2 %s | FileCheck %s --check-prefix=AGREE
// RUN: fa-opt --split-input-file --fa-lower-attention %s | FileCheck %s
// The GPU pipelines build every case (the portable kernel takes the functions).
// RUN: fa-opt --split-input-file --pass-pipeline='builtin.module(fa-to-nvvm{chip=sm_90a})' %s | FileCheck %s --check-prefix=BIN
// RUN: fa-opt --split-input-file --pass-pipeline='builtin.module(fa-to-rocdl{chip=gfx942})' %s | FileCheck %s --check-prefix=BIN
// BIN-COUNT-6: gpu.binary @
// AGREE-COUNT-6: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// Sliding window (q - k < 3) with causal_offset 0, ALiBi slopes per head,
// sinks per head; f16, GQA 4 / 2.
// The functions are inlined (no call and no copy is left); the slopes are
// read at the head index clamped into their bounds (in 32 bits: the head
// index lies in [0, 2^31), its clamp is one MIN against min(dim - 1, 2^31 -
// 1)), the sinks at the end.
// CHECK-LABEL: func.func @window_alibi_sinks
// CHECK-NOT: @fa_attention_0_m
// CHECK: func.func private @fa_attention_0(
// CHECK-NOT: @fa_attention_0_m
// CHECK: %[[L31:.*]] = arith.minsi %{{.*}}, %c2147483647{{.*}} : index
// CHECK-NEXT: %[[LAST:.*]] = arith.index_cast %[[L31]] : index to i32
// CHECK-NEXT: %[[H:.*]] = arith.index_cast %arg{{[0-9]+}} : index to i32
// CHECK-NEXT: %[[CL:.*]] = arith.minsi %[[H]], %[[LAST]] : i32
// CHECK-NEXT: %[[CX:.*]] = arith.index_castui %[[CL]] : i32 to index
// CHECK-NEXT: memref.load %arg4[%[[CX]]] : memref<?xf32, strided<[?], offset: ?>>
// CHECK: memref.load %arg3[%{{.*}}] : memref<?xf32, strided<[?], offset: ?>>
// CHECK-NOT: @fa_attention_0_m
func.func private @window(%b: index, %h: index, %i: index, %j: index, %slopes: tensor<4xf32>) -> i1 {
  %w = arith.constant 3 : index
  %d = arith.subi %i, %j : index
  %in = arith.cmpi slt, %d, %w : index
  return %in : i1
}
func.func private @alibi(%s: f32, %b: index, %h: index, %i: index, %j: index, %slopes: tensor<4xf32>) -> f32 {
  %m = tensor.extract %slopes[%h] : tensor<4xf32>
  %ii = arith.index_cast %i : index to i64
  %jj = arith.index_cast %j : index to i64
  %d = arith.subi %jj, %ii : i64
  %df = arith.sitofp %d : i64 to f32
  %t = arith.mulf %m, %df : f32
  %r = arith.addf %s, %t : f32
  return %r : f32
}
func.func @window_alibi_sinks(%q: tensor<2x4x9x16xf16>, %k: tensor<2x2x11x16xf16>, %v: tensor<2x2x11x16xf16>,
                              %sinks: tensor<4xf32>, %slopes: tensor<4xf32>) -> tensor<2x4x9x16xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %sinks, %slopes) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 1, 0, 0, 0>, scale = 0.25 : f32, causal_offset = 2 : i64, mask = @window, score_mod = @alibi}
      : (tensor<2x4x9x16xf16>, tensor<2x2x11x16xf16>, tensor<2x2x11x16xf16>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x9x16xf16>
  return %o : tensor<2x4x9x16xf16>
}

// -----

// Softcap 1.5 (tanh; inputs of 2 give scores well past it) with the LSE, bf16.
// CHECK-LABEL: func.func @softcap_lse
// CHECK: func.func private @fa_attention_0(
// CHECK: math.tanh
// CHECK-NOT: @fa_attention_0_mod
func.func private @cap(%s: f32, %b: index, %h: index, %i: index, %j: index) -> f32 {
  %c = arith.constant 1.5 : f32
  %x = arith.divf %s, %c : f32
  %t = math.tanh %x : f32
  %r = arith.mulf %t, %c : f32
  return %r : f32
}
func.func @softcap_lse(%q: tensor<1x3x8x32xbf16>, %k: tensor<1x3x13x32xbf16>, %v: tensor<1x3x13x32xbf16>) -> (tensor<1x3x8x32xbf16>, tensor<1x3x8xf32>) {
  %o, %l = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.5 : f32, score_mod = @cap}
      : (tensor<1x3x8x32xbf16>, tensor<1x3x13x32xbf16>, tensor<1x3x13x32xbf16>) -> (tensor<1x3x8x32xbf16>, tensor<1x3x8xf32>)
  return %o, %l : tensor<1x3x8x32xbf16>, tensor<1x3x8xf32>
}

// -----

// Documents: keys of the same document id, dynamic sequence; rows 0 and 1 see
// no key (the mask is false for i < 2): O = 0 and lse = -inf there.
func.func private @same_doc(%b: index, %h: index, %i: index, %j: index, %doc: tensor<?xi32>) -> i1 {
  %di = tensor.extract %doc[%i] : tensor<?xi32>
  %dj = tensor.extract %doc[%j] : tensor<?xi32>
  %same = arith.cmpi eq, %di, %dj : i32
  %c2 = arith.constant 2 : index
  %late = arith.cmpi uge, %i, %c2 : index
  %r = arith.andi %same, %late : i1
  return %r : i1
}
func.func @documents(%q: tensor<1x2x?x32xf32>, %k: tensor<1x2x?x32xf32>, %v: tensor<1x2x?x32xf32>, %doc: tensor<?xi32>) -> (tensor<1x2x?x32xf32>, tensor<1x2x?xf32>) {
  %o, %l = "fa.gridwise_attention"(%q, %k, %v, %doc) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 1.0 : f32, mask = @same_doc}
      : (tensor<1x2x?x32xf32>, tensor<1x2x?x32xf32>, tensor<1x2x?x32xf32>, tensor<?xi32>) -> (tensor<1x2x?x32xf32>, tensor<1x2x?xf32>)
  return %o, %l : tensor<1x2x?x32xf32>, tensor<1x2x?xf32>
}

// -----

// Sinks (bf16) with rows that see nothing: O = 0, lse = the sink.
func.func private @none_early(%b: index, %h: index, %i: index, %j: index) -> i1 {
  %c3 = arith.constant 3 : index
  %r = arith.cmpi uge, %i, %c3 : index
  return %r : i1
}
func.func @sinks_masked_rows(%q: tensor<2x2x6x16xf32>, %k: tensor<2x2x7x16xf32>, %v: tensor<2x2x7x16xf32>, %sinks: tensor<2xbf16>) -> (tensor<2x2x6x16xf32>, tensor<2x2x6xf32>) {
  %o, %l = "fa.gridwise_attention"(%q, %k, %v, %sinks) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 0, 0, 0, 0>, scale = 0.25 : f32, mask = @none_early}
      : (tensor<2x2x6x16xf32>, tensor<2x2x7x16xf32>, tensor<2x2x7x16xf32>, tensor<2xbf16>) -> (tensor<2x2x6x16xf32>, tensor<2x2x6xf32>)
  return %o, %l : tensor<2x2x6x16xf32>, tensor<2x2x6xf32>
}

// -----

// A T5-like relative-position bias from a [2R+1, H] table at clamp(k - q),
// with a dense bias too (applied first) and kv_len.
func.func private @relbias(%s: f32, %b: index, %h: index, %i: index, %j: index, %table: tensor<9x2xf32>) -> f32 {
  %ii = arith.index_cast %i : index to i64
  %jj = arith.index_cast %j : index to i64
  %d = arith.subi %jj, %ii : i64
  %lo = arith.constant -4 : i64
  %hi = arith.constant 4 : i64
  %c0 = arith.maxsi %d, %lo : i64
  %c1 = arith.minsi %c0, %hi : i64
  %r = arith.subi %c1, %lo : i64
  %ri = arith.index_cast %r : i64 to index
  %t = tensor.extract %table[%ri, %h] : tensor<9x2xf32>
  %y = arith.addf %s, %t : f32
  return %y : f32
}
func.func @relbias_bias_kvlen(%q: tensor<2x2x5x16xf32>, %k: tensor<2x2x12x16xf32>, %v: tensor<2x2x12x16xf32>, %bias: tensor<2x1x1x12xf32>, %len: tensor<2xi32>, %table: tensor<9x2xf32>) -> tensor<2x2x5x16xf32> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %bias, %len, %table) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 1, 0, 0, 0>, scale = 0.25 : f32, score_mod = @relbias}
      : (tensor<2x2x5x16xf32>, tensor<2x2x12x16xf32>, tensor<2x2x12x16xf32>, tensor<2x1x1x12xf32>, tensor<2xi32>, tensor<9x2xf32>) -> tensor<2x2x5x16xf32>
  return %o : tensor<2x2x5x16xf32>
}

// -----

// A score_mod that gives -inf (masks by value) on odd keys.
func.func private @odd_out(%s: f32, %b: index, %h: index, %i: index, %j: index) -> f32 {
  %c2 = arith.constant 2 : index
  %r = arith.remui %j, %c2 : index
  %c0 = arith.constant 0 : index
  %even = arith.cmpi eq, %r, %c0 : index
  %ninf = arith.constant 0xFF800000 : f32
  %y = arith.select %even, %s, %ninf : f32
  return %y : f32
}
func.func @mod_minus_inf(%q: tensor<1x2x7x16xf16>, %k: tensor<1x2x9x16xf16>, %v: tensor<1x2x9x16xf16>) -> tensor<1x2x7x16xf32> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.25 : f32, score_mod = @odd_out}
      : (tensor<1x2x7x16xf16>, tensor<1x2x9x16xf16>, tensor<1x2x9x16xf16>) -> tensor<1x2x7x16xf32>
  return %o : tensor<1x2x7x16xf32>
}
