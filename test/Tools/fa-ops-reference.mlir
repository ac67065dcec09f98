// fa-check on hand-written fa ops (no unfused source): the reference is each
// op's naive element-wise decomposition (fa-decompose-attention,
// lib/Reference/reference_attention.mlir) lowered by upstream passes; the
// candidate is our CPU lowering. Every feature of the op: GQA / MQA, Dv != D,
// bias, kv_len per batch and per head (lengths drawn from [0, dim]: rows with
// no key, O = 0 and lse = -inf), causal offsets of both signs (negative:
// the first rows see no key), LSE, k_transposed, f32 / f16 / bf16, M = 1.
// RUN: fa-opt --split-input-file --fa-decompose-attention %s | FileCheck %s
// RUN: fa-check --split-input-file %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-8: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run
// Not vacuous: with no tolerance, the two sides differ in the last bits.
// RUN: not fa-check --split-input-file --tol-scale=0 %s | FileCheck %s --check-prefix=EXACT
// EXACT: f32_mqa_negative_offset: output 0 {{.*}}  MISMATCH
// The reference agrees with the unfused sources of the fusion tests too.
// RUN: fa-check --split-input-file --pipeline="fa-fuse-attention,fa-decompose-attention,fa-upstream-to-cpu" %S/../Fusion/masks.mlir | FileCheck %s --check-prefix=SOURCE
// SOURCE-COUNT-6: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run
// ... and with those of the layout folds ([B, S, H, D] tensors).
// RUN: fa-check --split-input-file --pipeline="fa-fuse-attention,fa-decompose-attention,fa-upstream-to-cpu" %S/../Fusion/layouts.mlir | FileCheck %s --check-prefix=LAYOUTS
// LAYOUTS-COUNT-11: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// CHECK-LABEL: func.func @gqa_bias_kvlen_causal_lse(
// CHECK: %[[R:.*]]:2 = call @fa_reference_0(%arg0, %arg1, %arg2, %arg3, %arg4)
// CHECK-NOT: fa.gridwise_attention
// CHECK: func.func private @fa_reference_0(
func.func @gqa_bias_kvlen_causal_lse(%q: tensor<2x4x20x64xf16>, %k: tensor<2x2x37x64xf16>, %v: tensor<2x2x37x32xf16>, %bias: tensor<2x1x1x37xf32>, %len: tensor<2xi32>) -> (tensor<2x4x20x32xf16>, tensor<2x4x20xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v, %bias, %len) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0, 0, 0>, scale = 0.125 : f32, causal_offset = 3 : i64}
      : (tensor<2x4x20x64xf16>, tensor<2x2x37x64xf16>, tensor<2x2x37x32xf16>, tensor<2x1x1x37xf32>, tensor<2xi32>) -> (tensor<2x4x20x32xf16>, tensor<2x4x20xf32>)
  return %o, %lse : tensor<2x4x20x32xf16>, tensor<2x4x20xf32>
}

// -----

// CHECK-LABEL: func.func @f32_mqa_negative_offset(
func.func @f32_mqa_negative_offset(%q: tensor<1x3x17x80xf32>, %k: tensor<1x1x29x80xf32>, %v: tensor<1x1x29x96xf32>) -> (tensor<1x3x17x96xf32>, tensor<1x3x17xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.11 : f32, causal_offset = -4 : i64}
      : (tensor<1x3x17x80xf32>, tensor<1x1x29x80xf32>, tensor<1x1x29x96xf32>) -> (tensor<1x3x17x96xf32>, tensor<1x3x17xf32>)
  return %o, %lse : tensor<1x3x17x96xf32>, tensor<1x3x17xf32>
}

// -----

// CHECK-LABEL: func.func @bf16_k_transposed_head_bias(
func.func @bf16_k_transposed_head_bias(%q: tensor<2x2x9x32xbf16>, %k: tensor<2x2x32x24xbf16>, %v: tensor<2x2x24x32xbf16>, %bias: tensor<1x2x9x24xbf16>) -> tensor<2x2x9x32xf32> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %bias) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>, scale = 0.5 : f32}
      : (tensor<2x2x9x32xbf16>, tensor<2x2x32x24xbf16>, tensor<2x2x24x32xbf16>, tensor<1x2x9x24xbf16>) -> tensor<2x2x9x32xf32>
  return %o : tensor<2x2x9x32xf32>
}

// -----

// CHECK-LABEL: func.func @kvlen_per_head_decode(
func.func @kvlen_per_head_decode(%q: tensor<3x4x1x64xf16>, %k: tensor<3x2x48x64xf16>, %v: tensor<3x2x48x64xf16>, %len: tensor<3x4xi64>) -> tensor<3x4x1x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %len) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0, 0>, scale = 0.125 : f32}
      : (tensor<3x4x1x64xf16>, tensor<3x2x48x64xf16>, tensor<3x2x48x64xf16>, tensor<3x4xi64>) -> tensor<3x4x1x64xf16>
  return %o : tensor<3x4x1x64xf16>
}

// -----

// Dynamic dims: drawn by fa-check per input.
// CHECK-LABEL: func.func @dynamic(
func.func @dynamic(%q: tensor<?x2x?x16xf32>, %k: tensor<?x2x?x16xf32>, %v: tensor<?x2x?x16xf32>) -> tensor<?x2x?x16xf32> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.25 : f32, causal_offset = 0 : i64}
      : (tensor<?x2x?x16xf32>, tensor<?x2x?x16xf32>, tensor<?x2x?x16xf32>) -> tensor<?x2x?x16xf32>
  return %o : tensor<?x2x?x16xf32>
}

// -----

// Every key masked by a -inf bias row: O = 0, lse = -inf where the bias says so.
// CHECK-LABEL: func.func @inf_bias(
func.func @inf_bias(%q: tensor<1x1x8x16xf32>, %k: tensor<1x1x8x16xf32>, %v: tensor<1x1x8x16xf32>) -> (tensor<1x1x8x16xf32>, tensor<1x1x8xf32>) {
  %bias = arith.constant dense<[[[[0xFF800000], [0.0], [0xFF800000], [1.0], [0.0], [0xFF800000], [2.0], [0.0]]]]> : tensor<1x1x8x1xf32>
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v, %bias) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>, scale = 0.25 : f32}
      : (tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>, tensor<1x1x8x16xf32>, tensor<1x1x8x1xf32>) -> (tensor<1x1x8x16xf32>, tensor<1x1x8xf32>)
  return %o, %lse : tensor<1x1x8x16xf32>, tensor<1x1x8xf32>
}

// -----

// Heads after the sequence ([B, S, H, D]: q_bshd, k_bshd, v_bshd, o_bshd):
// the reference indexes each tensor in its own order; our kernel reads
// transposed views of the same buffers (no copies).
// O is written through (b, h, i, e) -> (b, i, h, e):
// CHECK: #[[OMAP:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d1, d3)>
// CHECK-LABEL: func.func @bshd_gqa_causal_lse(
// CHECK: func.func private @fa_reference_0(
// CHECK: %[[OE:.*]] = tensor.empty(%{{.*}}) : tensor<?x?x?x?xf16>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[OMAP]]]{{.*}} outs(%[[OE]] :
func.func @bshd_gqa_causal_lse(%q: tensor<2x21x4x32xf16>, %k: tensor<2x35x2x32xf16>, %v: tensor<2x35x2x48xf16>) -> (tensor<2x21x4x48xf16>, tensor<2x4x21xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, k_bshd, v_bshd, o_bshd, scale = 0.2 : f32, causal_offset = 14 : i64}
      : (tensor<2x21x4x32xf16>, tensor<2x35x2x32xf16>, tensor<2x35x2x48xf16>) -> (tensor<2x21x4x48xf16>, tensor<2x4x21xf32>)
  return %o, %lse : tensor<2x21x4x48xf16>, tensor<2x4x21xf32>
}

// -----

// Mixed layouts, K stored transposed, a bias, dynamic dims.
// CHECK-LABEL: func.func @bshd_mixed_dynamic(
func.func @bshd_mixed_dynamic(%q: tensor<?x?x3x16xbf16>, %k: tensor<?x3x16x?xbf16>, %v: tensor<?x?x3x16xbf16>, %bias: tensor<1x3x1x1xf32>) -> tensor<?x3x?x16xf32> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %bias) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>, q_bshd, k_transposed, v_bshd, scale = 0.25 : f32}
      : (tensor<?x?x3x16xbf16>, tensor<?x3x16x?xbf16>, tensor<?x?x3x16xbf16>, tensor<1x3x1x1xf32>) -> tensor<?x3x?x16xf32>
  return %o : tensor<?x3x?x16xf32>
}
