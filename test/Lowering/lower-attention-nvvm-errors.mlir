// Tuning attributes the tensor-core kernel cannot take are located errors.
// RUN: not fa-opt --split-input-file --pass-pipeline='builtin.module(fa-lower-attention{target=nvvm})' %s 2>&1 | FileCheck %s

// CHECK: lower-attention-nvvm-errors.mlir:[[@LINE+2]]:8: error: {{.*}}tensor-core tiles: stages must be 1 (FlashAttention-2's order) or 2
func.func @three_stages(%q: tensor<1x2x64x64xf16>, %k: tensor<1x2x64x64xf16>, %v: tensor<1x2x64x64xf16>) -> tensor<1x2x64x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32, stages = 3 : i64}
      : (tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>) -> tensor<1x2x64x64xf16>
  return %o : tensor<1x2x64x64xf16>
}

// -----

// CHECK: lower-attention-nvvm-errors.mlir:[[@LINE+2]]:8: error: {{.*}}tensor-core tiles: pv_split must be 1 or 2, with block_n / pv_split a multiple of 16
func.func @split_too_small(%q: tensor<1x2x64x64xf16>, %k: tensor<1x2x64x64xf16>, %v: tensor<1x2x64x64xf16>) -> tensor<1x2x64x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32, block_n = 16 : i64, pv_split = 2 : i64}
      : (tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>) -> tensor<1x2x64x64xf16>
  return %o : tensor<1x2x64x64xf16>
}

// -----

// CHECK: lower-attention-nvvm-errors.mlir:[[@LINE+2]]:8: error: {{.*}}tensor-core tiles: pv_split must be 1 or 2, with block_n / pv_split a multiple of 16
func.func @split_four(%q: tensor<1x2x64x64xf16>, %k: tensor<1x2x64x64xf16>, %v: tensor<1x2x64x64xf16>) -> tensor<1x2x64x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32, pv_split = 4 : i64}
      : (tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>, tensor<1x2x64x64xf16>) -> tensor<1x2x64x64xf16>
  return %o : tensor<1x2x64x64xf16>
}

// -----

// CHECK: lower-attention-nvvm-errors.mlir:[[@LINE+2]]:8: error: {{.*}}tensor-core tiles: the Q tile and the stages of K and V tiles (or the output tile) exceed 163 KiB of shared memory
func.func @too_much_shared(%q: tensor<1x2x64x256xf16>, %k: tensor<1x2x64x256xf16>, %v: tensor<1x2x64x256xf16>) -> tensor<1x2x64x256xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.0625 : f32, block_m = 128 : i64, block_n = 128 : i64, warps = 4 : i64, stages = 2 : i64}
      : (tensor<1x2x64x256xf16>, tensor<1x2x64x256xf16>, tensor<1x2x64x256xf16>) -> tensor<1x2x64x256xf16>
  return %o : tensor<1x2x64x256xf16>
}
