// The key-range table of a data mask on GPUs (MaskSummary.c,
// Kernels/Common/attention_key_table.mlir): the host function makes the ids'
// tile summary, then the table (4 x B x Hq x ceil(M / 64) i32) with the
// keytable kernel, and the kernel reads its rows' entries instead of
// searching; freed after the launch. The CPU keeps its search (no table).
// GPU agreement: test/Integration/Inputs/score-mod-gpu.mlir (documents,
// documents_packed).
// RUN: fa-opt --pass-pipeline='builtin.module(fa-lower-attention{target=nvvm-sm90a})' %s | FileCheck %s
// RUN: fa-opt --pass-pipeline='builtin.module(fa-lower-attention{target=nvvm})' %s | FileCheck %s --check-prefix=MMA
// RUN: fa-opt --fa-lower-attention %s | FileCheck %s --check-prefix=CPU
// RUN: fa-opt --pass-pipeline='builtin.module(fa-to-nvvm{chip=sm_90a})' %s | FileCheck %s --check-prefix=BIN
// RUN: fa-opt --pass-pipeline='builtin.module(fa-lower-attention{target=nvvm-sm90a})' %s | FileCheck %s --check-prefix=ROW
// RUN: fa-opt --pass-pipeline='builtin.module(fa-lower-attention{target=nvvm})' %s | FileCheck %s --check-prefix=MMAROW

// The Hopper kernel's row test of mixed tiles: each row's id read at the row
// itself (the interval extension's exact point read, an i64 bound); the
// mma.sync kernel has no row test (it masks such tiles per score, comparing
// the i32 ids).
// ROW-LABEL: func.func private @fa_attention_0_main(
// ROW: %[[ID:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<?xi32, strided<[1], offset: ?>>
// ROW-NEXT: arith.extsi %[[ID]] : i32 to i64
// MMAROW-LABEL: func.func private @fa_attention_0_main(
// MMAROW-NOT: arith.extsi %{{.*}} : i32 to i64
// MMAROW: func.func private @fa_attention_0(

// The table's kernel: one thread per (batch, head, 64 rows), four entries each.
// CHECK: func.func private @fa_attention_0_keytable(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: memref<?xi32, {{.*}}>, %{{.*}}: memref<?xi64>, %[[TAB:.*]]: memref<?xi32>)
// CHECK: gpu.launch
// CHECK-COUNT-4: memref.store %{{.*}}, %[[TAB]][%{{.*}}] : memref<?xi32>
// The host: the summary, the table, the launch; the kernel reads four entries a
// 64-row block: a key tile inside the run the mask must show whole is not
// masked, one outside the tiles it may show is hidden whole; on the others
// each thread tests its rows (the summary over the tile's keys, the ids read
// at the row itself) and masks per score only where a row stays undecided
// (attention_scores.mlir); both freed.
// CHECK: %[[SUM:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%{{.*}}) : memref<?xi64>
// CHECK: %[[KT:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] (%{{.*}}) : memref<?xi32>
// CHECK: call @fa_attention_0_keytable(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[SUM]], %[[KT]]) {no_inline}
// CHECK: gpu.launch
// CHECK-COUNT-4: memref.load %[[KT]][%{{.*}}] : memref<?xi32>
// CHECK: memref.load %{{.*}} : memref<?xi64>
// CHECK: gpu.dealloc async [%{{.*}}] %[[SUM]] : memref<?xi64>
// CHECK: gpu.dealloc async [%{{.*}}] %[[KT]] : memref<?xi32>
// MMA: call @fa_attention_0_keytable(
// MMA: memref.load %{{.*}}[%{{.*}}] : memref<?xi32>
// CPU-NOT: keytable
// BIN: gpu.binary @fa_attention_0_keytable_kernel
func.func private @same_doc(%b: index, %h: index, %i: index, %j: index, %doc: tensor<600xi32>) -> i1 {
  %dq = tensor.extract %doc[%i] : tensor<600xi32>
  %dk = tensor.extract %doc[%j] : tensor<600xi32>
  %r = arith.cmpi eq, %dq, %dk : i32
  return %r : i1
}
func.func @documents(%q: tensor<1x2x600x64xf16>, %k: tensor<1x2x600x64xf16>, %v: tensor<1x2x600x64xf16>, %doc: tensor<600xi32>) -> tensor<1x2x600x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %doc) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.125 : f32, causal_offset = 0 : i64, mask = @same_doc}
      : (tensor<1x2x600x64xf16>, tensor<1x2x600x64xf16>, tensor<1x2x600x64xf16>, tensor<600xi32>) -> tensor<1x2x600x64xf16>
  return %o : tensor<1x2x600x64xf16>
}
