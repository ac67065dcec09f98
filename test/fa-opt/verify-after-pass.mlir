// fa-opt verifies fa ops after every pass, as mlir-opt runs the upstream
// verifiers: an upstream pass (here the transform interpreter annotating
// block_m = 3) that leaves an invalid fa op is an error at the op, exit 1.
// RUN: not fa-opt --transform-interpreter %s 2>&1 | FileCheck %s
// RUN: not fa-opt --pass-pipeline='builtin.module(transform-interpreter)' %s 2>&1 | FileCheck %s
// The same input is valid before the pass.
// RUN: fa-opt --fa-verify %s | FileCheck %s --check-prefix=BEFORE

// CHECK: verify-after-pass.mlir:[[@LINE+4]]:10: error: 'fa.gridwise_attention' op attribute 'block_m' is 3, expected a power of two
// BEFORE: "fa.gridwise_attention"
module attributes {transform.with_named_sequence} {
  func.func @attn(%q: tensor<1x2x4x8xf32>, %k: tensor<1x2x4x8xf32>, %v: tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32> {
    %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32} : (tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x4x8xf32>
    return %o : tensor<1x2x4x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["fa.gridwise_attention"]} in %root : (!transform.any_op) -> !transform.any_op
    %three = transform.param.constant 3 : i64 -> !transform.param<i64>
    transform.annotate %op "block_m" = %three : !transform.any_op, !transform.param<i64>
    transform.yield
  }
}
