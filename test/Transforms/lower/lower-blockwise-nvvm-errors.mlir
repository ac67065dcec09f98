// fa-lower-blockwise{target=nvvm} on fragment ops it cannot lower: tile
// shapes are the verifier's checks (the lowering asks it first; fa-opt stops
// at its error), element types only this lowering restricts are its own.
// RUN: fa-opt --split-input-file --verify-diagnostics --pass-pipeline="builtin.module(fa-lower-blockwise{target=nvvm})" %s

func.func @wgmma_tile(%q: memref<64x128xf16, 3>, %k: memref<128x128xf16, 3>, %s: vector<64xf32>) -> vector<64xf32> {
  // expected-error @+1 {{with layout "wgmma_m64", B must be a static [chunks][rows][64] memref tile}}
  %r = "fa.blockwise_gemm"(%q, %k, %s) {transpose_b, layout = "wgmma_m64"} : (memref<64x128xf16, 3>, memref<128x128xf16, 3>, vector<64xf32>) -> vector<64xf32>
  return %r : vector<64xf32>
}

// -----

func.func @f32_fragments(%a: vector<8xf32>, %b: memref<16x16xf32, 3>, %c: vector<8xf32>) -> vector<8xf32> {
  // expected-error @+1 {{fragment GEMMs take f16 or bf16 operands}}
  %r = "fa.blockwise_gemm"(%a, %b, %c) {layout = "mma_m16n8k16"} : (vector<8xf32>, memref<16x16xf32, 3>, vector<8xf32>) -> vector<8xf32>
  return %r : vector<8xf32>
}
