// fa-lower-attention{target=nvvm-sm90a}: the persistent Hopper kernel's host
// code calls the runtime's @faRuntimeGetMultiprocessorCount () -> i32; a
// module whose function of that name is another one gets an error at it, and
// the pass fails without adding the kernel.
// RUN: fa-opt --verify-diagnostics --pass-pipeline='builtin.module(fa-lower-attention{target=nvvm-sm90a})' %s

// expected-error @+1 {{the module's @faRuntimeGetMultiprocessorCount is not the function the generated code calls: () -> i32}}
func.func private @faRuntimeGetMultiprocessorCount() -> i64

func.func @d128(%q: tensor<1x2x300x128xf16>, %k: tensor<1x2x300x128xf16>, %v: tensor<1x2x300x128xf16>) -> tensor<1x2x300x128xf16> {
  // expected-error @+1 {{fa-lower-attention: cannot add the kernel to the module (the error before says why)}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.088 : f32}
      : (tensor<1x2x300x128xf16>, tensor<1x2x300x128xf16>, tensor<1x2x300x128xf16>) -> tensor<1x2x300x128xf16>
  return %o : tensor<1x2x300x128xf16>
}
