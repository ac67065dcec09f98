// Attentions the Hopper kernel (fa-to-nvvm{chip=sm_90a}: TMA, mbarriers,
// wgmma) takes, for the GPU correctness run (scripts/gpu_check.sh: fa-run
// against fa-check's CPU reference), the sanitizers and the PTX test
// (hopper-ptx.test): tails of M and N (TMA's zero fill), GQA, causal offsets,
// a bias, kv_len with a fully masked batch, the lse result, f32 output,
// D = 64 / 80 / 96 / 128 / 192 / 256, Dv != D, f16 and bf16, no keys at all,
// both tilings of D = 64 (few keys and many, each with kv_len), the persistent kernel (more
// work items than an H100's 132 workgroups) with kv_len and with f32 output, and peaked
// scores with few keys (the softmax without the row max falling back to the whole one).
// A "gpu-check-args:" line gives fa-check's generator options for its case.

// GQA, tails in M and N.
func.func @gqa_tails_f16(%q: tensor<2x4x200x128xf16>, %k: tensor<2x2x300x128xf16>, %v: tensor<2x2x300x128xf16>) -> tensor<2x4x200x128xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.088 : f32}
      : (tensor<2x4x200x128xf16>, tensor<2x2x300x128xf16>, tensor<2x2x300x128xf16>) -> tensor<2x4x200x128xf16>
  return %o : tensor<2x4x200x128xf16>
}

// -----

// Causal (top-left) with lse, D = 64.
func.func @causal_lse_f16(%q: tensor<1x3x333x64xf16>, %k: tensor<1x3x333x64xf16>, %v: tensor<1x3x333x64xf16>) -> (tensor<1x3x333x64xf16>, tensor<1x3x333xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32, causal_offset = 0 : i64}
      : (tensor<1x3x333x64xf16>, tensor<1x3x333x64xf16>, tensor<1x3x333x64xf16>) -> (tensor<1x3x333x64xf16>, tensor<1x3x333xf32>)
  return %o, %lse : tensor<1x3x333x64xf16>, tensor<1x3x333xf32>
}

// -----

// D = 256, bf16.
func.func @d256_bf16(%q: tensor<1x2x130x256xbf16>, %k: tensor<1x2x150x256xbf16>, %v: tensor<1x2x150x256xbf16>) -> tensor<1x2x130x256xbf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.0625 : f32}
      : (tensor<1x2x130x256xbf16>, tensor<1x2x150x256xbf16>, tensor<1x2x150x256xbf16>) -> tensor<1x2x130x256xbf16>
  return %o : tensor<1x2x130x256xbf16>
}

// -----

// Causal, negative offset: the first 40 rows see no key (O = 0, lse = -inf);
// f32 output.
func.func @causal_masked_rows_f16(%q: tensor<1x2x170x128xf16>, %k: tensor<1x2x130x128xf16>, %v: tensor<1x2x130x128xf16>) -> (tensor<1x2x170x128xf32>, tensor<1x2x170xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.088 : f32, causal_offset = -40 : i64}
      : (tensor<1x2x170x128xf16>, tensor<1x2x130x128xf16>, tensor<1x2x130x128xf16>) -> (tensor<1x2x170x128xf32>, tensor<1x2x170xf32>)
  return %o, %lse : tensor<1x2x170x128xf32>, tensor<1x2x170xf32>
}

// -----

// A bias per (batch, query, key), broadcast over heads; kv_len per batch
// (0 masks batch 1: O = 0).
func.func @bias_kvlen_f16(%q: tensor<2x4x150x64xf16>, %k: tensor<2x4x260x64xf16>, %v: tensor<2x4x260x64xf16>, %bias: tensor<2x1x150x260xf16>, %len: tensor<2xi32>) -> tensor<2x4x150x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %bias, %len) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0, 0, 0>, scale = 0.125 : f32}
      : (tensor<2x4x150x64xf16>, tensor<2x4x260x64xf16>, tensor<2x4x260x64xf16>, tensor<2x1x150x260xf16>, tensor<2xi32>) -> tensor<2x4x150x64xf16>
  return %o : tensor<2x4x150x64xf16>
}

// -----

// Dv != D (D = 192, Dv = 64), bottom-right causal, MQA.
func.func @dv_ne_d_causal_f16(%q: tensor<1x4x140x192xf16>, %k: tensor<1x1x180x192xf16>, %v: tensor<1x1x180x64xf16>) -> tensor<1x4x140x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.072 : f32, causal_offset = 40 : i64}
      : (tensor<1x4x140x192xf16>, tensor<1x1x180x192xf16>, tensor<1x1x180x64xf16>) -> tensor<1x4x140x64xf16>
  return %o : tensor<1x4x140x64xf16>
}

// -----

// D = 80, bf16, causal: Q and K in two chunks of 64 columns (the second
// zero-filled past 80), P V with N = 80.
func.func @d80_causal_bf16(%q: tensor<1x2x260x80xbf16>, %k: tensor<1x2x260x80xbf16>, %v: tensor<1x2x260x80xbf16>) -> tensor<1x2x260x80xbf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.11 : f32, causal_offset = 0 : i64}
      : (tensor<1x2x260x80xbf16>, tensor<1x2x260x80xbf16>, tensor<1x2x260x80xbf16>) -> tensor<1x2x260x80xbf16>
  return %o : tensor<1x2x260x80xbf16>
}

// -----

// D = 96, Dv = 32 (one partial chunk), GQA, f16.
func.func @d96_dv32_f16(%q: tensor<2x4x150x96xf16>, %k: tensor<2x2x333x96xf16>, %v: tensor<2x2x333x32xf16>) -> tensor<2x4x150x32xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.1 : f32}
      : (tensor<2x4x150x96xf16>, tensor<2x2x333x96xf16>, tensor<2x2x333x32xf16>) -> tensor<2x4x150x32xf16>
  return %o : tensor<2x4x150x32xf16>
}

// -----

// No keys (N = 0): O = 0 and lse = -inf; the K and V maps still encode.
func.func @no_keys_f16(%q: tensor<1x2x40x64xf16>, %k: tensor<1x2x0x64xf16>, %v: tensor<1x2x0x64xf16>) -> (tensor<1x2x40x64xf16>, tensor<1x2x40xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32}
      : (tensor<1x2x40x64xf16>, tensor<1x2x0x64xf16>, tensor<1x2x0x64xf16>) -> (tensor<1x2x40x64xf16>, tensor<1x2x40xf32>)
  return %o, %lse : tensor<1x2x40x64xf16>, tensor<1x2x40xf32>
}

// -----

// D = 64 with many keys (over 1024 per workgroup): four consumer warpgroups
// (256 rows) running each tile in turn, one workgroup per SM; fewer keys take
// one consumer, four workgroups per SM.
func.func @d64_many_keys_f16(%q: tensor<1x2x130x64xf16>, %k: tensor<1x2x1700x64xf16>, %v: tensor<1x2x1700x64xf16>) -> tensor<1x2x130x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32}
      : (tensor<1x2x130x64xf16>, tensor<1x2x1700x64xf16>, tensor<1x2x1700x64xf16>) -> tensor<1x2x130x64xf16>
  return %o : tensor<1x2x130x64xf16>
}

// -----

// kv_len without a bias at D = 64 with few keys: the one-consumer kernel zeroes
// the V rows past kv_len in its last tile (its 128 threads, named barrier 8).
func.func @kv_len_few_keys_f16(%q: tensor<2x2x100x64xf16>, %k: tensor<2x2x300x64xf16>, %v: tensor<2x2x300x64xf16>, %len: tensor<2xi32>) -> tensor<2x2x100x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %len) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0, 0>, scale = 0.125 : f32}
      : (tensor<2x2x100x64xf16>, tensor<2x2x300x64xf16>, tensor<2x2x300x64xf16>, tensor<2xi32>) -> tensor<2x2x100x64xf16>
  return %o : tensor<2x2x100x64xf16>
}

// -----

// The persistent kernel (64 < D <= 128, no causal mask): 144 work items of
// 128 rows (tail of 16) over at most 132 workgroups, so some workgroups take
// two items, whose Q, K and V reuse one ring of barriers; kv_len per batch up
// to 300 (the generator's seed gives 140, 183, 52), GQA, lse.
// gpu-check-args: --int-max=300
func.func @persistent_kvlen_lse_f16(%q: tensor<3x12x400x96xf16>, %k: tensor<3x4x300x96xf16>, %v: tensor<3x4x300x96xf16>, %len: tensor<3xi32>) -> (tensor<3x12x400x96xf16>, tensor<3x12x400xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v, %len) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0, 0>, scale = 0.1 : f32}
      : (tensor<3x12x400x96xf16>, tensor<3x4x300x96xf16>, tensor<3x4x300x96xf16>, tensor<3xi32>) -> (tensor<3x12x400x96xf16>, tensor<3x12x400xf32>)
  return %o, %lse : tensor<3x12x400x96xf16>, tensor<3x12x400xf32>
}

// -----

// The persistent kernel with f32 output (O without TMA: Q's buffer is free
// after each item's last S), D = 80, 140 work items.
func.func @persistent_f32_out(%q: tensor<1x140x20x80xf16>, %k: tensor<1x140x200x80xf16>, %v: tensor<1x140x200x80xf16>) -> tensor<1x140x20x80xf32> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.11 : f32}
      : (tensor<1x140x20x80xf16>, tensor<1x140x200x80xf16>, tensor<1x140x200x80xf16>) -> tensor<1x140x20x80xf32>
  return %o : tensor<1x140x20x80xf32>
}

// -----

// The persistent kernel without keys (N = 0): 140 items without a key tile
// over at most 132 workgroups; a workgroup's second item waits for its first
// to free Q (qempty) with no S at all. O = 0, lse = -inf.
func.func @persistent_no_keys_f16(%q: tensor<1x140x20x96xf16>, %k: tensor<1x140x0x96xf16>, %v: tensor<1x140x0x96xf16>) -> (tensor<1x140x20x96xf16>, tensor<1x140x20xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.1 : f32}
      : (tensor<1x140x20x96xf16>, tensor<1x140x0x96xf16>, tensor<1x140x0x96xf16>) -> (tensor<1x140x20x96xf16>, tensor<1x140x20xf32>)
  return %o, %lse : tensor<1x140x20x96xf16>, tensor<1x140x20xf32>
}

// -----

// The persistent kernel under a causal mask, in groups of two items: 273
// work items (91 heads x 3 query tiles, an odd count, so groups straddle heads
// and the last group has one item) over at most 132 workgroups, so some take
// three items. Bottom-right causal with M > N: rows 0..29 see no key (O = 0,
// lse = -inf); GQA (13 query heads a K / V head), Dv = 16 < D = 80, lse.
func.func @persistent_causal_pairs_f16(%q: tensor<1x91x260x80xf16>, %k: tensor<1x7x230x80xf16>, %v: tensor<1x7x230x16xf16>) -> (tensor<1x91x260x16xf16>, tensor<1x91x260xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.11 : f32, causal_offset = -30 : i64}
      : (tensor<1x91x260x80xf16>, tensor<1x7x230x80xf16>, tensor<1x7x230x16xf16>) -> (tensor<1x91x260x16xf16>, tensor<1x91x260xf32>)
  return %o, %lse : tensor<1x91x260x16xf16>, tensor<1x91x260xf32>
}

// -----

// kv_len at D = 64 with many keys: the four-consumer kernel, which runs each
// tile in turn, zeroes the V rows past kv_len in the last tile inside its
// loop (its 512 consumer threads, named barrier 8); 300 rows are a 256-row
// tile and a tail of 44.
func.func @kv_len_many_keys_f16(%q: tensor<2x2x300x64xf16>, %k: tensor<2x2x1900x64xf16>, %v: tensor<2x2x1900x64xf16>, %len: tensor<2xi32>) -> tensor<2x2x300x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %len) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0, 0>, scale = 0.125 : f32}
      : (tensor<2x2x300x64xf16>, tensor<2x2x1900x64xf16>, tensor<2x2x1900x64xf16>, tensor<2xi32>) -> tensor<2x2x300x64xf16>
  return %o : tensor<2x2x300x64xf16>
}

// -----

// Peaked scores with few keys at D = 64 (inputs in [-4, 4]: a row's scores
// spread over hundreds in the exponent): the one-consumer kernel's softmax
// without the row max fails its test on many tiles, which S again and the
// whole softmax then take; tails in M and N.
// gpu-check-args: --input-scale=4
func.func @peaked_few_keys_f16(%q: tensor<1x4x130x64xf16>, %k: tensor<1x4x700x64xf16>, %v: tensor<1x4x700x64xf16>) -> tensor<1x4x130x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32}
      : (tensor<1x4x130x64xf16>, tensor<1x4x700x64xf16>, tensor<1x4x700x64xf16>) -> tensor<1x4x130x64xf16>
  return %o : tensor<1x4x130x64xf16>
}

// -----

// The same, causal (bottom-right, offset 64), bf16 with lse: the test's
// fallback on the diagonal tiles' masked scores as well.
// gpu-check-args: --input-scale=2
func.func @peaked_causal_lse_bf16(%q: tensor<2x2x200x64xbf16>, %k: tensor<2x2x264x64xbf16>, %v: tensor<2x2x264x64xbf16>) -> (tensor<2x2x200x64xbf16>, tensor<2x2x200xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32, causal_offset = 64 : i64}
      : (tensor<2x2x200x64xbf16>, tensor<2x2x264x64xbf16>, tensor<2x2x264x64xbf16>) -> (tensor<2x2x200x64xbf16>, tensor<2x2x200xf32>)
  return %o, %lse : tensor<2x2x200x64xbf16>, tensor<2x2x200xf32>
}
