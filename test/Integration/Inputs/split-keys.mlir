// Attentions whose keys the tensor-core kernel splits over workgroups
// (flash-decoding: few (batch, head, query tile) workgroups, many keys), for
// the GPU correctness run (scripts/gpu_check.sh: fa-run against fa-check's CPU
// reference) and the lowering test (split-keys.test): tails, GQA, the lse
// result, causal offsets that leave splits without a visible key, kv_len with
// fully masked batches, a bias, D = 64 / 80 / 128 / 256, f16 and bf16.

// S = 4 splits of 4 tiles; N = 1000 ends in a partial tile.
func.func @gqa_lse_f16(%q: tensor<1x8x1x128xf16>, %k: tensor<1x2x1000x128xf16>, %v: tensor<1x2x1000x128xf16>) -> (tensor<1x8x1x128xf16>, tensor<1x8x1xf32>) {
  %o, %l = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.088 : f32}
      : (tensor<1x8x1x128xf16>, tensor<1x2x1000x128xf16>, tensor<1x2x1000x128xf16>) -> (tensor<1x8x1x128xf16>, tensor<1x8x1xf32>)
  return %o, %l : tensor<1x8x1x128xf16>, tensor<1x8x1xf32>
}

// -----

// Bottom-right causal (M = 3) with a kv length per batch (0 masks a batch).
func.func @causal_kvlen_bf16(%q: tensor<2x4x3x64xbf16>, %k: tensor<2x4x777x64xbf16>, %v: tensor<2x4x777x64xbf16>, %len: tensor<2xi32>) -> tensor<2x4x3x64xbf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %len) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0, 0>, scale = 0.125 : f32, causal_offset = 774 : i64}
      : (tensor<2x4x3x64xbf16>, tensor<2x4x777x64xbf16>, tensor<2x4x777x64xbf16>, tensor<2xi32>) -> tensor<2x4x3x64xbf16>
  return %o : tensor<2x4x3x64xbf16>
}

// -----

// A bias over the keys, D = 256, MQA.
func.func @bias_d256_f16(%q: tensor<1x2x1x256xf16>, %k: tensor<1x1x1100x256xf16>, %v: tensor<1x1x1100x256xf16>, %bias: tensor<1x1x1x1100xf32>) -> tensor<1x2x1x256xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %bias) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>, scale = 0.0625 : f32}
      : (tensor<1x2x1x256xf16>, tensor<1x1x1100x256xf16>, tensor<1x1x1100x256xf16>, tensor<1x1x1x1100xf32>) -> tensor<1x2x1x256xf16>
  return %o : tensor<1x2x1x256xf16>
}

// -----

// Top-left causal: rows 0..15 see 1..16 keys, so most splits see none.
func.func @causal_empty_splits_f16(%q: tensor<1x2x16x80xf16>, %k: tensor<1x2x2000x80xf16>, %v: tensor<1x2x2000x80xf16>) -> (tensor<1x2x16x80xf32>, tensor<1x2x16xf32>) {
  %o, %l = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.11 : f32, causal_offset = 0 : i64}
      : (tensor<1x2x16x80xf16>, tensor<1x2x2000x80xf16>, tensor<1x2x2000x80xf16>) -> (tensor<1x2x16x80xf32>, tensor<1x2x16xf32>)
  return %o, %l : tensor<1x2x16x80xf32>, tensor<1x2x16xf32>
}
