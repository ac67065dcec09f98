// Attentions whose tensors keep heads after the sequence ([B, S, H, D]:
// q_bshd, k_bshd, v_bshd, o_bshd), for the GPU correctness run
// (scripts/gpu_check.sh: fa-run against fa-check's CPU reference, sm_90's
// mma.sync kernels and sm_90a's Hopper kernel) and layouts-gpu.test. The
// kernels read [B, H, S, D] views of these buffers: row strides of H * D, TMA
// maps encoded from the views, the decode kernel's head packing on them.
// A "gpu-check-args:" line gives fa-check's generator options for its case.

// The persistent Hopper kernel (D = 128): GQA, causal, lse, tails.
func.func @bshd_d128_gqa_causal_lse_f16(%q: tensor<2x300x8x128xf16>, %k: tensor<2x300x2x128xf16>, %v: tensor<2x300x2x128xf16>) -> (tensor<2x300x8x128xf16>, tensor<2x8x300xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, k_bshd, v_bshd, o_bshd, scale = 0.088 : f32, causal_offset = 0 : i64}
      : (tensor<2x300x8x128xf16>, tensor<2x300x2x128xf16>, tensor<2x300x2x128xf16>) -> (tensor<2x300x8x128xf16>, tensor<2x8x300xf32>)
  return %o, %lse : tensor<2x300x8x128xf16>, tensor<2x8x300xf32>
}

// -----

// D = 64 with few keys (the one-consumer Hopper kernel), kv_len per batch
// (rows past it zeroed in V's last tile), O in [B, H, M, D].
// gpu-check-args: --int-max=250
func.func @bshd_d64_kvlen_f16(%q: tensor<2x200x4x64xf16>, %k: tensor<2x250x4x64xf16>, %v: tensor<2x250x4x64xf16>, %len: tensor<2xi32>) -> tensor<2x4x200x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %len) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0, 0>, q_bshd, k_bshd, v_bshd, scale = 0.125 : f32}
      : (tensor<2x200x4x64xf16>, tensor<2x250x4x64xf16>, tensor<2x250x4x64xf16>, tensor<2xi32>) -> tensor<2x4x200x64xf16>
  return %o : tensor<2x4x200x64xf16>
}

// -----

// A decode step (M = 1): query heads of a KV head packed into rows, keys
// split over workgroups and merged; lse.
func.func @bshd_decode_gqa_lse_bf16(%q: tensor<2x1x8x64xbf16>, %k: tensor<2x900x2x64xbf16>, %v: tensor<2x900x2x64xbf16>) -> (tensor<2x1x8x64xbf16>, tensor<2x8x1xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, k_bshd, v_bshd, o_bshd, scale = 0.125 : f32}
      : (tensor<2x1x8x64xbf16>, tensor<2x900x2x64xbf16>, tensor<2x900x2x64xbf16>) -> (tensor<2x1x8x64xbf16>, tensor<2x8x1xf32>)
  return %o, %lse : tensor<2x1x8x64xbf16>, tensor<2x8x1xf32>
}

// -----

// D = 80 (zero-filled 64-column chunks) in bf16, a bias, K in [B, H, N, D].
func.func @bshd_d80_bias_bf16(%q: tensor<1x130x2x80xbf16>, %k: tensor<1x2x170x80xbf16>, %v: tensor<1x170x2x80xbf16>, %bias: tensor<1x2x130x170xbf16>) -> tensor<1x130x2x80xbf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %bias) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>, q_bshd, v_bshd, o_bshd, scale = 0.11 : f32}
      : (tensor<1x130x2x80xbf16>, tensor<1x2x170x80xbf16>, tensor<1x170x2x80xbf16>, tensor<1x2x130x170xbf16>) -> tensor<1x130x2x80xbf16>
  return %o : tensor<1x130x2x80xbf16>
}

// -----

// f32 output of a [B, S, H, D] f16 attention (O stored from the fragments).
func.func @bshd_f32_out_f16(%q: tensor<1x90x3x96xf16>, %k: tensor<1x120x3x96xf16>, %v: tensor<1x120x3x96xf16>) -> tensor<1x90x3x96xf32> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, k_bshd, v_bshd, o_bshd, scale = 0.1 : f32, causal_offset = 30 : i64}
      : (tensor<1x90x3x96xf16>, tensor<1x120x3x96xf16>, tensor<1x120x3x96xf16>) -> tensor<1x90x3x96xf32>
  return %o : tensor<1x90x3x96xf32>
}

// -----

// D = 128 with a bias per (batch, head, query, key), causal, GQA: a bias at
// D > 64 takes the Hopper kernel's 64-key tiles (with 128 keys the bias's
// registers spill).
func.func @bshd_d128_bias_causal_f16(%q: tensor<1x160x4x128xf16>, %k: tensor<1x190x2x128xf16>, %v: tensor<1x190x2x128xf16>, %bias: tensor<1x4x160x190xf16>) -> tensor<1x160x4x128xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %bias) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>, q_bshd, k_bshd, v_bshd, o_bshd, scale = 0.088 : f32, causal_offset = 30 : i64}
      : (tensor<1x160x4x128xf16>, tensor<1x190x2x128xf16>, tensor<1x190x2x128xf16>, tensor<1x4x160x190xf16>) -> tensor<1x160x4x128xf16>
  return %o : tensor<1x160x4x128xf16>
}
