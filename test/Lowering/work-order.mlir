// The work order of the Hopper kernel's persistent grid for a data mask
// (MaskSummary.c, Kernels/Common/attention_key_table.mlir,
// Kernels/Wgmma/attention_wgmma_tile.mlir): after the key-range table's
// entries, a counting sort per (batch, head) in a workgroup orders its
// 128-row work items by the 64-key tiles they visit (cut at the causal
// diagonal), most first; the persistent workgroups take the order in a
// snake (round r forwards or backwards) instead of pairing long and short
// query tiles. Only where a Hopper kernel is persistent (head dims 65 to
// 128): D = 64 keeps its table alone. GPU agreement and compute-sanitizer:
// test/Integration/Inputs/score-mod-gpu.mlir (documents_straddle,
// documents_repeat; documents_rounds: 160 work items, two rounds of the
// snake, GQA, a ragged last tile).
// RUN: fa-opt --split-input-file --pass-pipeline='builtin.module(fa-lower-attention{target=nvvm-sm90a})' %s | FileCheck %s

// CHECK-LABEL: func.func private @fa_attention_0_keytable(
// The entries (a thread each), then the order: a workgroup per (batch, head)
// with a histogram of 256 bins and the scan's buffer.
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%[[HIST:.*]] : memref<256xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<256xi32, #gpu.address_space<workgroup>>)
// CHECK: memref.atomic_rmw addi %{{.*}}, %[[HIST]][%{{.*}}]
// CHECK: %[[POS:.*]] = memref.atomic_rmw addi %{{.*}}, %[[HIST]][%{{.*}}]
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xi32>
// The host allocates the entries and the order; the kernel reads its item
// from the order (no pairing).
// CHECK-LABEL: func.func private @fa_attention_0_main(
// CHECK: %[[KT:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%{{.*}}) : memref<?xi32>
// CHECK: call @fa_attention_0_keytable(
// CHECK: gpu.launch
// CHECK: %[[IT:.*]] = memref.load %[[KT]][%{{.*}}] : memref<?xi32>
// CHECK-NEXT: arith.index_castui %[[IT]] : i32 to index
func.func private @doc100(%b: index, %h: index, %i: index, %j: index, %doc: tensor<1000xi32>) -> i1 {
  %dq = tensor.extract %doc[%i] : tensor<1000xi32>
  %dk = tensor.extract %doc[%j] : tensor<1000xi32>
  %r = arith.cmpi eq, %dq, %dk : i32
  return %r : i1
}
func.func @documents_d128(%q: tensor<1x2x1000x128xbf16>, %k: tensor<1x2x1000x128xbf16>, %v: tensor<1x2x1000x128xbf16>, %doc: tensor<1000xi32>) -> tensor<1x2x1000x128xbf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %doc) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.0883883476 : f32, causal_offset = 0 : i64, mask = @doc100}
      : (tensor<1x2x1000x128xbf16>, tensor<1x2x1000x128xbf16>, tensor<1x2x1000x128xbf16>, tensor<1000xi32>) -> tensor<1x2x1000x128xbf16>
  return %o : tensor<1x2x1000x128xbf16>
}

// -----

// D = 64: no persistent Hopper kernel, no order.
// CHECK-LABEL: func.func private @fa_attention_0_keytable(
// CHECK: gpu.launch
// CHECK-NOT: workgroup(
// CHECK: return
func.func private @doc64(%b: index, %h: index, %i: index, %j: index, %doc: tensor<600xi32>) -> i1 {
  %dq = tensor.extract %doc[%i] : tensor<600xi32>
  %dk = tensor.extract %doc[%j] : tensor<600xi32>
  %r = arith.cmpi eq, %dq, %dk : i32
  return %r : i1
}
func.func @documents_d64(%q: tensor<1x2x600x64xf16>, %k: tensor<1x2x600x64xf16>, %v: tensor<1x2x600x64xf16>, %doc: tensor<600xi32>) -> tensor<1x2x600x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %doc) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.125 : f32, causal_offset = 0 : i64, mask = @doc64}
      : (tensor<1x2x600x64xf16>, tensor<1x2x600x64xf16>, tensor<1x2x600x64xf16>, tensor<600xi32>) -> tensor<1x2x600x64xf16>
  return %o : tensor<1x2x600x64xf16>
}
