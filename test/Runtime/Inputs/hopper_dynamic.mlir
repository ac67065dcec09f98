// Attentions whose M and N only the call says, for the Hopper kernel
// (test/Runtime/GPU/hopper.test, compiled for sm_90a at build time): both
// D = 64 kernels are built and the entry picks one by the keys of a
// workgroup. fa-check gives every dynamic dim one size: --dim=300 takes the
// few-keys kernel for both functions, --dim=3200 the many-keys one (causal:
// the keys of row 1600 > 1024).
func.func @dynamic_f16(%q: tensor<1x2x?x64xf16>, %k: tensor<1x2x?x64xf16>, %v: tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32}
      : (tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16>
  return %o : tensor<1x2x?x64xf16>
}

func.func @dynamic_causal_bf16(%q: tensor<1x2x?x64xbf16>, %k: tensor<1x2x?x64xbf16>, %v: tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32, causal_offset = 0 : i64}
      : (tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>, tensor<1x2x?x64xbf16>) -> tensor<1x2x?x64xbf16>
  return %o : tensor<1x2x?x64xbf16>
}
