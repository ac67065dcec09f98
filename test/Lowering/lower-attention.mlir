// fa-lower-attention turns fa.gridwise_attention into a call of a wrapper
// (tensors to memrefs) around a kernel function (fa.attention_kernel) whose
// grid is scf.parallel (cpu) or gpu.launch with workgroup tiles (gpu), and
// whose body is the online-softmax loop of fa.blockwise_* ops;
// fa-lower-blockwise then leaves no fa op: loops on the CPU, threads,
// shuffles and barriers on the GPU.
// RUN: fa-opt --pass-pipeline='builtin.module(fa-lower-attention{target=cpu})' %s | FileCheck %s --check-prefixes=COMMON,CPU
// RUN: fa-opt --pass-pipeline='builtin.module(fa-lower-attention{target=gpu})' %s | FileCheck %s --check-prefixes=COMMON,GPU
// RUN: fa-opt --pass-pipeline='builtin.module(fa-lower-attention{target=cpu},fa-lower-blockwise{target=cpu})' %s | FileCheck %s --check-prefix=CPULOOPS
// RUN: fa-opt --pass-pipeline='builtin.module(fa-lower-attention{target=gpu},fa-lower-blockwise{target=gpu})' %s | FileCheck %s --check-prefix=GPUTHREADS

// COMMON-LABEL: func.func @attention(
// COMMON: %[[R:.*]] = call @fa_attention_0_t(%arg0, %arg1, %arg2)
// COMMON-NEXT: return %[[R]]
// COMMON: func.func private @fa_attention_0({{.*}}) attributes {fa.attention_kernel} {
// CPU: scf.parallel
// GPU: gpu.launch blocks({{.*}}) workgroup({{.*}}#gpu.address_space<workgroup>>
// COMMON: "fa.blockwise_gemm"({{.*}}) {transpose_b}
// COMMON: "fa.blockwise_reduction"({{.*}}) {axis = 1 : i64, kind = "max"}
// COMMON: "fa.blockwise_reduction"({{.*}}) {axis = 1 : i64, kind = "sum"}
// COMMON: "fa.blockwise_gemm"
// COMMON: func.func private @fa_attention_0_t({{.*}}) -> tensor<2x8x128x64xf32>
// COMMON: bufferization.to_buffer
// COMMON: call @fa_attention_0(
// COMMON-NOT: fa.gridwise_attention

// CPULOOPS-NOT: "fa.
// CPULOOPS: scf.parallel
// CPULOOPS: scf.for
// CPULOOPS-NOT: "fa.
// CPULOOPS-NOT: gpu.

// GPUTHREADS-NOT: "fa.
// GPUTHREADS: gpu.launch
// GPUTHREADS: gpu.thread_id
// GPUTHREADS: gpu.barrier
// GPUTHREADS: gpu.shuffle
// GPUTHREADS-NOT: "fa.

func.func @attention(%q: tensor<2x8x128x64xf32>, %k: tensor<2x8x64x128xf32>, %v: tensor<2x8x128x64xf32>) -> tensor<2x8x128x64xf32> {
  %0 = "fa.gridwise_attention"(%q, %k, %v) {k_transposed, scale = 0.125 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>} : (tensor<2x8x128x64xf32>, tensor<2x8x64x128xf32>, tensor<2x8x128x64xf32>) -> tensor<2x8x128x64xf32>
  return %0 : tensor<2x8x128x64xf32>
}
