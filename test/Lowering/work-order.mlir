// The work order of the Hopper kernel's persistent grid for a data mask
// (MaskSummary.c, Kernels/Common/attention_key_table.mlir,
// Kernels/Wgmma/attention_wgmma_tile.mlir): after the key-range table's
// entries, the item count and a record per position. A workgroup per
// (batch, head) lists its work items, sorts them by the 64-key tiles they
// visit (cut at the causal diagonal), most first, and places them long and
// short in turn; the persistent workgroups take groups of two neighbouring
// positions. Items are 128-row query tiles, or, where the mask is exactly
// doc[i] == doc[j] of a rank-1 capture (DOC_RUNS), the documents' rows from
// each document's start (where the ids are sorted and there are at most as
// many documents as query tiles: found on the device), whose keys start at
// the document's and are not masked. Only where a Hopper kernel is
// persistent (head dims 65 to 128): D = 64 keeps its table alone. GPU
// agreement and compute-sanitizer: test/Integration/Inputs/score-mod-gpu.mlir
// (documents_runs: documents cut anywhere, with and without the causal mask;
// documents_straddle: more documents than query tiles; documents_repeat:
// ids in no order; documents_rounds: several items per workgroup, GQA, a
// ragged last tile).
// RUN: fa-opt --split-input-file --pass-pipeline='builtin.module(fa-lower-attention{target=nvvm-sm90a})' %s | FileCheck %s

// CHECK-LABEL: func.func private @fa_attention_0_keytable(
// The entries (a thread each), then the order: a workgroup per (batch, head)
// with a histogram of 256 bins, the documents' starts, the sorted flag and
// the scan's buffer; counted, then placed with the atomics' positions.
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%[[HIST:.*]] : memref<256xi32, #gpu.address_space<workgroup>>, %[[DOCS:.*]] : memref<1024xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<1xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<256xi32, #gpu.address_space<workgroup>>)
// CHECK: memref.store %{{.*}}, %[[DOCS]][%{{.*}}]
// CHECK: memref.atomic_rmw addi %{{.*}}, %[[HIST]][%{{.*}}]
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xi32>
// The host allocates the entries, the count and the records; the kernel
// reads the count, then each item's record, whose first key (>= 0: a
// document's) replaces the table's tiles.
// CHECK-LABEL: func.func private @fa_attention_0_main(
// CHECK: %[[KT:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%{{.*}}) : memref<?xi32>
// CHECK: call @fa_attention_0_keytable(
// CHECK: gpu.launch
// CHECK: memref.load %[[KT]][%{{.*}}] : memref<?xi32>
// CHECK: memref.load %[[KT]][%{{.*}}] : memref<?xi32>
// CHECK-NEXT: memref.load %[[KT]][%{{.*}}] : memref<?xi32>
// CHECK-NEXT: %[[KS:.*]] = memref.load %[[KT]][%{{.*}}] : memref<?xi32>
// CHECK-NEXT: memref.load %[[KT]][%{{.*}}] : memref<?xi32>
// CHECK: arith.cmpi sge, %[[KS]], %{{.*}} : i32
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

// -----

// A mask that reads the ids and more (padding of the keys): query tiles'
// items only, no documents' starts.
// CHECK-LABEL: func.func private @fa_attention_0_keytable(
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK-NOT: memref<1024xi32
// CHECK: return
func.func private @doc_pad(%b: index, %h: index, %i: index, %j: index, %doc: tensor<1000xi32>, %pad: tensor<1000xi1>) -> i1 {
  %dq = tensor.extract %doc[%i] : tensor<1000xi32>
  %dk = tensor.extract %doc[%j] : tensor<1000xi32>
  %s = arith.cmpi eq, %dq, %dk : i32
  %p = tensor.extract %pad[%j] : tensor<1000xi1>
  %r = arith.andi %s, %p : i1
  return %r : i1
}
func.func @documents_pad(%q: tensor<1x2x1000x128xbf16>, %k: tensor<1x2x1000x128xbf16>, %v: tensor<1x2x1000x128xbf16>, %doc: tensor<1000xi32>, %pad: tensor<1000xi1>) -> tensor<1x2x1000x128xbf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %doc, %pad) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 1, 0, 0>, scale = 0.0883883476 : f32, causal_offset = 0 : i64, mask = @doc_pad}
      : (tensor<1x2x1000x128xbf16>, tensor<1x2x1000x128xbf16>, tensor<1x2x1000x128xbf16>, tensor<1000xi32>, tensor<1000xi1>) -> tensor<1x2x1000x128xbf16>
  return %o : tensor<1x2x1000x128xbf16>
}

// -----

// Dynamic shapes: the op has the Hopper kernel and the decode kernel (M at
// run time). Only the Hopper kernel's host lets the table find the documents
// first (mode 1: its summaries and entries then skipped); the decode
// kernel's host clears that flag (mode 2), so that the summaries and the
// entries its kernel reads are made.
// CHECK-LABEL: func.func private @fa_attention_0_main(
// CHECK: call @fa_attention_0_keytable(%c1{{(_[0-9]+)?}},
// CHECK-LABEL: func.func private @fa_attention_0_decode(
// CHECK-NOT: call @fa_attention_0_keytable(%c1
// CHECK: call @fa_attention_0_keytable(%c2{{(_[0-9]+)?}},
func.func private @docm(%b: index, %h: index, %i: index, %j: index, %doc: tensor<?xi32>) -> i1 {
  %dq = tensor.extract %doc[%i] : tensor<?xi32>
  %dk = tensor.extract %doc[%j] : tensor<?xi32>
  %r = arith.cmpi eq, %dq, %dk : i32
  return %r : i1
}
func.func @documents_dynamic(%q: tensor<?x?x?x128xbf16>, %k: tensor<?x?x?x128xbf16>, %v: tensor<?x?x?x128xbf16>, %doc: tensor<?xi32>) -> tensor<?x?x?x128xbf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %doc) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.0883883476 : f32, mask = @docm}
      : (tensor<?x?x?x128xbf16>, tensor<?x?x?x128xbf16>, tensor<?x?x?x128xbf16>, tensor<?xi32>) -> tensor<?x?x?x128xbf16>
  return %o : tensor<?x?x?x128xbf16>
}
