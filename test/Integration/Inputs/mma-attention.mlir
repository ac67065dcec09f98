// Attentions that fa-to-nvvm lowers to the tensor-core kernel: f16 and bf16,
// D = 64 / 128 / 80 / 256, causal with an offset, GQA, a bias, a kv length and
// the lse result (used by mma-ptx.test).
func.func @f16_d128(%q: tensor<2x8x100x128xf16>, %k: tensor<2x8x77x128xf16>, %v: tensor<2x8x77x128xf16>) -> tensor<2x8x100x128xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.088 : f32}
      : (tensor<2x8x100x128xf16>, tensor<2x8x77x128xf16>, tensor<2x8x77x128xf16>) -> tensor<2x8x100x128xf16>
  return %o : tensor<2x8x100x128xf16>
}
func.func @bf16_d64_causal_gqa(%q: tensor<1x8x33x64xbf16>, %k: tensor<1x2x65x64xbf16>, %v: tensor<1x2x65x64xbf16>) -> tensor<1x8x33x64xbf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32, causal_offset = 32 : i64}
      : (tensor<1x8x33x64xbf16>, tensor<1x2x65x64xbf16>, tensor<1x2x65x64xbf16>) -> tensor<1x8x33x64xbf16>
  return %o : tensor<1x8x33x64xbf16>
}
func.func @f16_d80_bias_kvlen_lse(%q: tensor<2x4x17x80xf16>, %k: tensor<2x4x50x80xf16>, %v: tensor<2x4x50x80xf16>, %bias: tensor<2x1x1x50xf32>, %kvl: tensor<2xi32>) -> (tensor<2x4x17x80xf32>, tensor<2x4x17xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v, %bias, %kvl) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0, 0, 0>, scale = 0.11 : f32}
      : (tensor<2x4x17x80xf16>, tensor<2x4x50x80xf16>, tensor<2x4x50x80xf16>, tensor<2x1x1x50xf32>, tensor<2xi32>) -> (tensor<2x4x17x80xf32>, tensor<2x4x17xf32>)
  return %o, %lse : tensor<2x4x17x80xf32>, tensor<2x4x17xf32>
}
func.func @bf16_d256(%q: tensor<1x2x1x256xbf16>, %k: tensor<1x2x300x256xbf16>, %v: tensor<1x2x300x256xbf16>) -> tensor<1x2x1x256xbf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.0625 : f32}
      : (tensor<1x2x1x256xbf16>, tensor<1x2x300x256xbf16>, tensor<1x2x300x256xbf16>) -> tensor<1x2x1x256xbf16>
  return %o : tensor<1x2x1x256xbf16>
}
