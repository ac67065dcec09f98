// Attentions for the Hopper kernel in one module (test/Runtime/GPU/hopper.test,
// compiled for sm_90a at build time), the bf16 twins of inputs the wider GPU
// run (test/Integration/Inputs/hopper.mlir, f16) checks: GQA with tails of M
// and N at D = 128 on the persistent kernel with 280 work items (more than an
// H100's 132 workgroups: a workgroup walks two or three), causal attention with
// its lse at D = 64 (few keys: one consumer warpgroup, four workgroups per
// SM), D = 64 with many keys (four consumer warpgroups), and an attention
// without keys.
func.func @gqa_tails_persistent_bf16(%q: tensor<2x70x200x128xbf16>, %k: tensor<2x35x300x128xbf16>, %v: tensor<2x35x300x128xbf16>) -> tensor<2x70x200x128xbf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.088 : f32}
      : (tensor<2x70x200x128xbf16>, tensor<2x35x300x128xbf16>, tensor<2x35x300x128xbf16>) -> tensor<2x70x200x128xbf16>
  return %o : tensor<2x70x200x128xbf16>
}

func.func @causal_lse_bf16(%q: tensor<1x3x333x64xbf16>, %k: tensor<1x3x333x64xbf16>, %v: tensor<1x3x333x64xbf16>) -> (tensor<1x3x333x64xbf16>, tensor<1x3x333xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32, causal_offset = 0 : i64}
      : (tensor<1x3x333x64xbf16>, tensor<1x3x333x64xbf16>, tensor<1x3x333x64xbf16>) -> (tensor<1x3x333x64xbf16>, tensor<1x3x333xf32>)
  return %o, %lse : tensor<1x3x333x64xbf16>, tensor<1x3x333xf32>
}

// No keys (N = 0): O = 0 and lse = -inf.
func.func @no_keys_bf16(%q: tensor<1x2x40x64xbf16>, %k: tensor<1x2x0x64xbf16>, %v: tensor<1x2x0x64xbf16>) -> (tensor<1x2x40x64xbf16>, tensor<1x2x40xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32}
      : (tensor<1x2x40x64xbf16>, tensor<1x2x0x64xbf16>, tensor<1x2x0x64xbf16>) -> (tensor<1x2x40x64xbf16>, tensor<1x2x40xf32>)
  return %o, %lse : tensor<1x2x40x64xbf16>, tensor<1x2x40xf32>
}

// D = 64 with many keys (over 1024 per workgroup): four consumer warpgroups
// (256 rows), one workgroup per SM; fewer keys take one consumer, four
// workgroups per SM.
func.func @d64_many_keys_bf16(%q: tensor<1x2x130x64xbf16>, %k: tensor<1x2x1700x64xbf16>, %v: tensor<1x2x1700x64xbf16>) -> tensor<1x2x130x64xbf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32}
      : (tensor<1x2x130x64xbf16>, tensor<1x2x1700x64xbf16>, tensor<1x2x1700x64xbf16>) -> tensor<1x2x130x64xbf16>
  return %o : tensor<1x2x130x64xbf16>
}
