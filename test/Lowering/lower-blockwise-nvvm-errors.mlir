// fa-lower-blockwise{target=nvvm} on fragment ops it cannot lower: element
// types only this lowering restricts are its own errors; tile shapes are the
// verifier's (the lowering asks it first; test/Dialect/invalid.mlir).
// RUN: fa-opt --split-input-file --verify-diagnostics --pass-pipeline="builtin.module(fa-lower-blockwise{target=nvvm})" %s

func.func @f32_fragments(%a: vector<8xf32>, %b: memref<16x16xf32, 3>, %c: vector<8xf32>) -> vector<8xf32> {
  // expected-error @+1 {{fragment GEMMs take f16 or bf16 operands}}
  %r = "fa.blockwise_gemm"(%a, %b, %c) {layout = "mma_m16n8k16"} : (vector<8xf32>, memref<16x16xf32, 3>, vector<8xf32>) -> vector<8xf32>
  return %r : vector<8xf32>
}
