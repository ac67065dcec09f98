// fa-decompose-softmax: a linalg.softmax that fusion left (here over the
// wrong axis for attention) becomes upstream's decomposition into generics,
// which every pipeline lowers; a module without one is left alone.
// RUN: fa-opt --split-input-file --fa-decompose-softmax %s | FileCheck %s
// Every pipeline lowers it now (it used to leave linalg.softmax and exit 0):
// RUN: fa-opt --pass-pipeline='builtin.module(fa-to-nvvm{chip=sm_80})' %examples/negative_wrong_axis.mlir | FileCheck %s --check-prefix=LOWERED
// RUN: fa-opt --pass-pipeline='builtin.module(fa-to-rocdl{chip=gfx942})' %examples/negative_wrong_axis.mlir | FileCheck %s --check-prefix=LOWERED
// RUN: fa-check %examples/negative_wrong_axis.mlir | FileCheck %s --check-prefix=CHECKED

// CHECK-LABEL: func.func @softmax_dim1(
// CHECK-NOT: linalg.softmax
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]
// CHECK: arith.maxnumf
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: arith.divf
// LOWERED-NOT: linalg.softmax
// LOWERED-NOT: unrealized_conversion_cast
// LOWERED: gpu.binary
// CHECKED: 1 agree, 0 disagree
func.func @softmax_dim1(%x: tensor<2x5x7xf32>) -> tensor<2x5x7xf32> {
  %e = tensor.empty() : tensor<2x5x7xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<2x5x7xf32>) outs(%e : tensor<2x5x7xf32>) -> tensor<2x5x7xf32>
  return %s : tensor<2x5x7xf32>
}

// -----

// CHECK-LABEL: func.func @no_softmax(
// CHECK-NEXT: return %arg0
func.func @no_softmax(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
