// Attentions for the Hopper kernel in one module (test/Runtime/GPU/hopper.test,
// compiled for sm_90a at build time): GQA with tails of M and N at D = 128,
// causal attention with its lse at D = 64 (few keys: one consumer warpgroup,
// three workgroups per SM), D = 64 with many keys (three consumer
// warpgroups), and an attention without keys.
func.func @gqa_tails_f16(%q: tensor<2x4x200x128xf16>, %k: tensor<2x2x300x128xf16>, %v: tensor<2x2x300x128xf16>) -> tensor<2x4x200x128xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 0.088 : f32}
      : (tensor<2x4x200x128xf16>, tensor<2x2x300x128xf16>, tensor<2x2x300x128xf16>) -> tensor<2x4x200x128xf16>
  return %o : tensor<2x4x200x128xf16>
}

func.func @causal_lse_bf16(%q: tensor<1x3x333x64xbf16>, %k: tensor<1x3x333x64xbf16>, %v: tensor<1x3x333x64xbf16>) -> (tensor<1x3x333x64xbf16>, tensor<1x3x333xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 0.125 : f32, causal_offset = 0 : i64}
      : (tensor<1x3x333x64xbf16>, tensor<1x3x333x64xbf16>, tensor<1x3x333x64xbf16>) -> (tensor<1x3x333x64xbf16>, tensor<1x3x333xf32>)
  return %o, %lse : tensor<1x3x333x64xbf16>, tensor<1x3x333xf32>
}

// No keys (N = 0): O = 0 and lse = -inf.
func.func @no_keys_f16(%q: tensor<1x2x40x64xf16>, %k: tensor<1x2x0x64xf16>, %v: tensor<1x2x0x64xf16>) -> (tensor<1x2x40x64xf16>, tensor<1x2x40xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 0.125 : f32}
      : (tensor<1x2x40x64xf16>, tensor<1x2x0x64xf16>, tensor<1x2x0x64xf16>) -> (tensor<1x2x40x64xf16>, tensor<1x2x40xf32>)
  return %o, %lse : tensor<1x2x40x64xf16>, tensor<1x2x40xf32>
}

// D = 64 with many keys (over 1536 per workgroup): three consumer warpgroups
// (192 rows), one workgroup per SM; fewer keys take one consumer, three
// workgroups per SM.
func.func @d64_many_keys_f16(%q: tensor<1x2x130x64xf16>, %k: tensor<1x2x1700x64xf16>, %v: tensor<1x2x1700x64xf16>) -> tensor<1x2x130x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>, scale = 0.125 : f32}
      : (tensor<1x2x130x64xf16>, tensor<1x2x1700x64xf16>, tensor<1x2x1700x64xf16>) -> tensor<1x2x130x64xf16>
  return %o : tensor<1x2x130x64xf16>
}
