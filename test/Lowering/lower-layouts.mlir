// Layouts with heads after the sequence (q_bshd, k_bshd, v_bshd, o_bshd):
// the wrapper hands the kernel [B, H, S, D] views of the [B, S, H, D]
// buffers (memref.transpose: strides only, no copy), allocates O in the
// op's layout and the lse as [B, H, M], on every target. The kernels are
// the same ones the default layout gets (they read strides); the Hopper
// kernel's tensor maps are encoded from the views.
// RUN: fa-opt --pass-pipeline='builtin.module(fa-lower-attention{target=cpu})' %s | FileCheck %s --check-prefixes=CHECK,CPU
// RUN: fa-opt --pass-pipeline='builtin.module(fa-lower-attention{target=nvvm})' %s | FileCheck %s --check-prefixes=CHECK,MMA
// RUN: fa-opt --pass-pipeline='builtin.module(fa-lower-attention{target=nvvm-sm90a})' %s | FileCheck %s --check-prefixes=CHECK,MMA,HOPPER
// Whole pipelines build them: AMD code objects too (the portable kernel).
// RUN: fa-opt --pass-pipeline='builtin.module(fa-to-rocdl{chip=gfx942})' %s | FileCheck %s --check-prefix=ROCDL
// ROCDL-COUNT-2: gpu.binary
// Their numerics (CPU lowering against references): test/Tools/
// fa-ops-reference.mlir (hand-written ops) and test/Fusion/layouts.mlir.

// HOPPER: func.func private @fa_attention_0_main_few(
// HOPPER: nvgpu.tma.create.descriptor
// CHECK-LABEL: func.func private @fa_attention_0(
// CHECK-LABEL: func.func private @fa_attention_0_t(
// CHECK-SAME: %[[Q:[a-z0-9]+]]: tensor<2x?x8x64xf16>, %[[K:[a-z0-9]+]]: tensor<2x?x2x64xf16>, %[[V:[a-z0-9]+]]: tensor<2x?x2x64xf16>) -> (tensor<2x?x8x64xf16>, tensor<2x8x?xf32>)
// CHECK: %[[QB:.*]] = bufferization.to_buffer %[[Q]]
// CHECK: %[[QC:.*]] = memref.cast %[[QB]]
// CHECK: %[[KB:.*]] = bufferization.to_buffer %[[K]]
// CHECK: %[[KC:.*]] = memref.cast %[[KB]]
// CHECK: %[[VB:.*]] = bufferization.to_buffer %[[V]]
// CHECK: %[[VC:.*]] = memref.cast %[[VB]]
// M is Q's dim 1:
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[M:.*]] = tensor.dim %[[Q]], %[[C1]]
// CHECK: %[[O:.*]] = memref.alloc(%[[M]]) : memref<2x?x8x64xf16>
// CHECK: %[[OC:.*]] = memref.cast %[[O]]
// CHECK: %[[L:.*]] = memref.alloc(%[[M]]) : memref<2x8x?xf32>
// CHECK: %[[LC:.*]] = memref.cast %[[L]]
// CPU: %[[QT:.*]] = memref.transpose %[[QC]] (d0, d1, d2, d3) -> (d0, d2, d1, d3) : memref<?x?x?x?xf16, strided<[?, ?, ?, ?], offset: ?>> to memref<?x?x?x?xf16, strided<[?, ?, ?, ?], offset: ?>>
// MMA: %[[QT:.*]] = memref.transpose %[[QC]] (d0, d1, d2, d3) -> (d0, d2, d1, d3) : memref<?x?x?x?xf16, strided<[?, ?, ?, 1], offset: ?>> to memref<?x?x?x?xf16, strided<[?, ?, ?, 1], offset: ?>>
// CHECK: %[[KT:.*]] = memref.transpose %[[KC]] (d0, d1, d2, d3) -> (d0, d2, d1, d3)
// CHECK: %[[VT:.*]] = memref.transpose %[[VC]] (d0, d1, d2, d3) -> (d0, d2, d1, d3)
// CHECK: %[[OT:.*]] = memref.transpose %[[OC]] (d0, d1, d2, d3) -> (d0, d2, d1, d3)
// CHECK: call @fa_attention_0(%[[QT]], %[[KT]], %[[VT]], %[[OT]], %[[LC]])
// CHECK: bufferization.to_tensor %[[O]]
func.func @bshd(%q: tensor<2x?x8x64xf16>, %k: tensor<2x?x2x64xf16>, %v: tensor<2x?x2x64xf16>) -> (tensor<2x?x8x64xf16>, tensor<2x8x?xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, k_bshd, v_bshd, o_bshd, scale = 0.125 : f32, causal_offset = 0 : i64}
      : (tensor<2x?x8x64xf16>, tensor<2x?x2x64xf16>, tensor<2x?x2x64xf16>) -> (tensor<2x?x8x64xf16>, tensor<2x8x?xf32>)
  return %o, %lse : tensor<2x?x8x64xf16>, tensor<2x8x?xf32>
}

// Only V: the others are passed as they are.
// CHECK-LABEL: func.func private @fa_attention_1_t(
// CHECK-NOT: memref.transpose
// CHECK: %[[VT:.*]] = memref.transpose %{{.*}} (d0, d1, d2, d3) -> (d0, d2, d1, d3)
// CHECK-NOT: memref.transpose
// CHECK: call @fa_attention_1(%{{[a-z_0-9]+}}, %{{[a-z_0-9]+}}, %[[VT]], %{{[a-z_0-9]+}})
func.func @v_only(%q: tensor<1x4x40x32xf16>, %k: tensor<1x4x40x32xf16>, %v: tensor<1x40x4x32xf16>) -> tensor<1x4x40x32xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, v_bshd, scale = 0.125 : f32}
      : (tensor<1x4x40x32xf16>, tensor<1x4x40x32xf16>, tensor<1x40x4x32xf16>) -> tensor<1x4x40x32xf16>
  return %o : tensor<1x4x40x32xf16>
}
