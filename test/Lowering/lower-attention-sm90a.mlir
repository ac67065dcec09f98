// fa-lower-attention{target=nvvm-sm90a}: f16/bf16 attention with D, Dv
// multiples of 16 up to 256 (M > 16) becomes the Hopper kernel (docs/lowering.md, "The Hopper
// kernel"): tensor maps made on the host, a producer warpgroup issuing TMA
// loads into a ring of stages on mbarriers, consumer warpgroups running
// fa.blockwise_* on "wgmma_m64" fragments, S(t) and P(t-1) V(t-1) issued
// together (async); fa-lower-blockwise{target=nvvm} turns the GEMMs into
// wgmma.mma_async. An op with the mma.sync kernel's tuning attributes keeps it.
// RUN: fa-opt --split-input-file --pass-pipeline='builtin.module(fa-lower-attention{target=nvvm-sm90a})' %s | FileCheck %s
// RUN: fa-opt --split-input-file --pass-pipeline='builtin.module(fa-lower-attention{target=nvvm-sm90a},fa-lower-blockwise{target=nvvm})' %s | FileCheck %s --check-prefix=WG

// CHECK-LABEL: func.func @d128_gqa(
// Without a causal mask the kernel is persistent: a grid of at most one
// workgroup per SM, each walking work items (the runtime counts the SMs).
// CHECK: func.func private @faRuntimeGetMultiprocessorCount() -> i32
// CHECK: memref.global "public" @fa_attention_0_main_smem : memref<0xi8, #gpu.address_space<workgroup>> {alignment = 1024 : i64}
// CHECK: func.func private @fa_attention_0_main(
// Q, K and V: boxes of 128 rows (keys) x 64 columns; O: 64 rows (one warpgroup's).
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%c1, %c1, %c128, %c64] : memref<*xf16> -> <tensor = memref<1x1x128x64xf16, 3>, swizzle = swizzle_128b
// CHECK: nvgpu.tma.create.descriptor {{.*}} -> <tensor = memref<1x1x128x64xf16, 3>, swizzle = swizzle_128b
// CHECK: nvgpu.tma.create.descriptor {{.*}} -> <tensor = memref<1x1x128x64xf16, 3>, swizzle = swizzle_128b
// CHECK: nvgpu.tma.create.descriptor {{.*}} box[%c1, %c1, %c64, %c64] : memref<*xf16> -> <tensor = memref<1x1x64x64xf16, 3>, swizzle = swizzle_128b
// CHECK: %[[SMS:.*]] = call @faRuntimeGetMultiprocessorCount() : () -> i32
// CHECK: %[[SMSX:.*]] = arith.index_cast %[[SMS]] : i32 to index
// CHECK: %[[CAP:.*]] = arith.muli %[[SMSX]], %c1{{.*}} : index
// CHECK: %[[GRID:.*]] = arith.minui %{{.*}}, %[[CAP]] : index
// Three warpgroups: the producer and two consumers of 64 rows.
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[GRID]], {{.*}} threads({{.*}}) in (%{{.*}} = %c384{{.*}}
// qfull (one arrival: the producer's, with Q's bytes), qempty (the 256
// consumer threads').
// CHECK: nvvm.mbarrier.init %{{.*}}, %c1_i32
// CHECK-NEXT: nvvm.mbarrier.init %[[QEMPTY:.*]], %c256_i32
// One workgroup per SM, 168 registers a thread at launch (setmaxnreg's pool);
// fa-gpu-kernel-bounds moves them onto the outlined kernel.
// CHECK: gpu.barrier {fa.kernel_bounds = {nvvm.maxnreg = 168 : i32, nvvm.minctasm = 1 : i32}}
// CHECK: nvvm.setmaxregister decrease 24
// The producer's items: it waits for the last item's Q to be consumed.
// CHECK: scf.for %{{.*}} = %c0_i32 to %{{.*}} step %c1_i32 iter_args
// CHECK: nvvm.mbarrier.try_wait.parity %[[QEMPTY]]
// CHECK: nvvm.mbarrier.arrive.expect_tx
// CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global
// CHECK: scf.for
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK: nvvm.setmaxregister increase 240
// CHECK: "fa.blockwise_fill"({{.*}}) {layout = "wgmma_m64"} : (vector<64xf32>, f32) -> vector<64xf32>
// CHECK: "fa.blockwise_gemm"({{.*}}) {layout = "wgmma_m64", transpose_b} : (memref<2x64x64xf16, strided<[8192, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<2x128x64xf16, strided<[8192, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<64xf32>) -> vector<64xf32>
// CHECK: scf.for
// CHECK: "fa.blockwise_gemm"({{.*}}) {async, layout = "wgmma_m64", transpose_b}
// CHECK: "fa.blockwise_gemm"({{.*}}) {async, layout = "wgmma_m64"} : (vector<64xf16>, memref<2x128x64xf16, strided<[8192, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<64xf32>) -> vector<64xf32>
// CHECK: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 1;"
// The softmax of S(t) while P(t-1) V(t-1) runs: its row sums end the block with
// a branch never taken (sums are not negative), so that ptxas keeps the softmax
// ahead of the wait for P V; P(t) is packed to f16 pairs after that wait.
// CHECK: "fa.blockwise_reduction"({{.*}}) {axis = 1 : i64, kind = "max", layout = "wgmma_m64"}
// CHECK: llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;"
// CHECK: %[[L:.*]] = "fa.blockwise_reduction"({{.*}}) {axis = 1 : i64, kind = "sum", layout = "wgmma_m64", partial}
// CHECK: %[[L0:.*]] = vector.extract %[[L]][0]
// CHECK: %[[L1:.*]] = vector.extract %[[L]][1]
// CHECK: %[[LS:.*]] = arith.addf %[[L0]], %[[L1]] : f32
// CHECK: %[[NEVER:.*]] = arith.cmpf olt, %[[LS]], %{{.*}} : f32
// CHECK: scf.if %[[NEVER]] {
// CHECK-NEXT: arith.constant 1 : i32
// CHECK-NEXT: nvvm.nanosleep
// CHECK: llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned 0;"
// CHECK-NOT: ex2.approx
// CHECK: arith.truncf %{{.*}} : vector<64xf32> to vector<64xf16>
// After each item's last S its consumers free Q (qempty); the epilogue
// stores O by TMA from O's own buffer once the previous store has read it.
// CHECK: nvvm.mbarrier.arrive %[[QEMPTY]]
// CHECK: nvvm.mbarrier.arrive %[[QEMPTY]]
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK: nvvm.barrier
// CHECK: nvvm.fence.proxy
// CHECK: nvvm.barrier
// CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK: nvvm.cp.async.bulk.commit.group
// CHECK-NOT: nvvm.cp.async.bulk.wait_group
// CHECK: scf.yield
// The last store has read its buffer before the workgroup exits.
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}

// WG-LABEL: func.func @d128_gqa(
// WG: nvvm.wgmma.fence.aligned
// WG: llvm.inline_asm has_side_effects "{ .reg .pred p; setp.ne.b32 p, $130, 0; wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, $128, $129, p, 1, 1, 0, 0; }"
// WG: nvvm.wgmma.commit.group.sync.aligned
// WG: nvvm.wgmma.wait.group.sync.aligned 0
// WG: llvm.inline_asm has_side_effects "{ .reg .pred p; setp.ne.b32 p, $133, 0; wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, {$128, $129, $130, $131}, $132, p, 1, 1, 1; }"
// WG-NOT: fa.blockwise
func.func @d128_gqa(%q: tensor<2x4x200x128xf16>, %k: tensor<2x2x300x128xf16>, %v: tensor<2x2x300x128xf16>) -> tensor<2x4x200x128xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.088 : f32}
      : (tensor<2x4x200x128xf16>, tensor<2x2x300x128xf16>, tensor<2x2x300x128xf16>) -> tensor<2x4x200x128xf16>
  return %o : tensor<2x4x200x128xf16>
}

// -----

// D = 64 with many keys (2000 > 1024): four consumers (256 rows) of 96-key
// tiles, without the intra-warpgroup overlap: each tile's S = Q K^T (waited
// for), its softmax, then P V, all in one loop; f32 O is stored from the
// fragments.
// CHECK-LABEL: func.func @d64_f32_out(
// CHECK-NOT: main_few
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c640{{.*}}
// CHECK: gpu.barrier {fa.kernel_bounds = {nvvm.maxnreg = 96 : i32, nvvm.minctasm = 1 : i32}}
// CHECK: nvvm.setmaxregister increase 112
// CHECK-NOT: {async
// CHECK: scf.for
// CHECK-NOT: {async
// CHECK: "fa.blockwise_gemm"({{.*}}) {layout = "wgmma_m64", transpose_b} : (memref<1x64x64xbf16, {{.*}}>, memref<1x96x64xbf16, {{.*}}>, vector<48xf32>) -> vector<48xf32>
// CHECK-NOT: {async
// CHECK: "fa.blockwise_reduction"({{.*}}) {axis = 1 : i64, kind = "max", layout = "wgmma_m64"
// CHECK-NOT: {async
// CHECK: "fa.blockwise_gemm"({{.*}}) {layout = "wgmma_m64"} : (vector<48xbf16>, memref<1x96x64xbf16, {{.*}}>, vector<32xf32>) -> vector<32xf32>
// CHECK-NOT: {async
// CHECK-NOT: nvvm.cp.async.bulk.tensor.global.shared.cta
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<?x?x?x?xf32, strided<[?, ?, ?, 1], offset: ?>>, vector<2xf32>
func.func @d64_f32_out(%q: tensor<1x2x300x64xbf16>, %k: tensor<1x2x2000x64xbf16>, %v: tensor<1x2x2000x64xbf16>) -> tensor<1x2x300x64xf32> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32}
      : (tensor<1x2x300x64xbf16>, tensor<1x2x2000x64xbf16>, tensor<1x2x2000x64xbf16>) -> tensor<1x2x300x64xf32>
  return %o : tensor<1x2x300x64xf32>
}

// -----

// D = 80: Q and K in two chunks of 64 columns; P V with N = 80 (C of 40
// entries, V's second chunk read up to column 80).
// CHECK-LABEL: func.func @d80(
// CHECK: "fa.blockwise_gemm"({{.*}}) {layout = "wgmma_m64", transpose_b} : (memref<2x64x64xf16, {{.*}}>, memref<2x128x64xf16, {{.*}}>, vector<64xf32>) -> vector<64xf32>
// CHECK: "fa.blockwise_gemm"({{.*}}) {async, layout = "wgmma_m64"} : (vector<64xf16>, memref<2x128x64xf16, {{.*}}>, vector<40xf32>) -> vector<40xf32>
// WG-LABEL: func.func @d80(
// WG: wgmma.mma_async.sync.aligned.m64n80k16.f32.f16.f16
func.func @d80(%q: tensor<1x2x300x80xf16>, %k: tensor<1x2x300x80xf16>, %v: tensor<1x2x300x80xf16>) -> tensor<1x2x300x80xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.11 : f32}
      : (tensor<1x2x300x80xf16>, tensor<1x2x300x80xf16>, tensor<1x2x300x80xf16>) -> tensor<1x2x300x80xf16>
  return %o : tensor<1x2x300x80xf16>
}

// -----

// Tuning attributes are the mma.sync kernel's: it takes the op.
// CHECK-LABEL: func.func @tuned(
// CHECK-NOT: wgmma_m64
// CHECK: "fa.blockwise_gemm"({{.*}}) {layout = "mma_m16n8k16", transpose_b}
func.func @tuned(%q: tensor<1x2x300x64xf16>, %k: tensor<1x2x300x64xf16>, %v: tensor<1x2x300x64xf16>) -> tensor<1x2x300x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32, block_m = 64 : i64, warps = 4 : i64}
      : (tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16>) -> tensor<1x2x300x64xf16>
  return %o : tensor<1x2x300x64xf16>
}

// -----

// kv_len: V rows past it in the last key tile are zeroed in shared memory
// (16-byte stores by the consumers), then the consumers meet (named barrier 8)
// before that tile's P V. (300 keys: the few-keys tiles, 64 keys a tile, each
// tile in turn: the zeroing is in the key loop, on its last tile.)
// CHECK-LABEL: func.func @kv_len_zeroing(
// CHECK: scf.for
// CHECK: "fa.blockwise_gemm"({{.*}}) {layout = "wgmma_m64", transpose_b}
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK-NEXT: scf.if %[[LAST]] {
// CHECK: scf.for
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : memref<2x2x64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: nvvm.fence.proxy
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: "fa.blockwise_gemm"({{.*}}) {layout = "wgmma_m64"} : (vector<32xf16>
func.func @kv_len_zeroing(%q: tensor<2x2x300x64xf16>, %k: tensor<2x2x300x64xf16>, %v: tensor<2x2x300x64xf16>, %len: tensor<2xi32>) -> tensor<2x2x300x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %len) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0, 0>, scale = 0.125 : f32}
      : (tensor<2x2x300x64xf16>, tensor<2x2x300x64xf16>, tensor<2x2x300x64xf16>, tensor<2xi32>) -> tensor<2x2x300x64xf16>
  return %o : tensor<2x2x300x64xf16>
}

// -----

// D = 64 with few keys (300 <= 1024 a workgroup): one consumer warpgroup and
// 64-key tiles, each in turn, four workgroups per SM at 64 registers a thread
// at launch (the consumer takes 104); only that kernel where the shapes say it.
// CHECK-LABEL: func.func @d64_few_keys(
// CHECK-NOT: main_many
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%c1, %c1, %c64{{.*}}, %c64] : memref<*xf16> -> <tensor = memref<1x1x64x64xf16, 3>
// CHECK: nvgpu.tma.create.descriptor {{.*}} box[%c1, %c1, %c64{{.*}}, %c64] : memref<*xf16> -> <tensor = memref<1x1x64x64xf16, 3>
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c256{{.*}}
// CHECK: gpu.barrier {fa.kernel_bounds = {nvvm.maxnreg = 64 : i32, nvvm.minctasm = 4 : i32}}
// CHECK: nvvm.setmaxregister increase 104
// CHECK-NOT: {async
// CHECK: "fa.blockwise_gemm"({{.*}}) {layout = "wgmma_m64", transpose_b} : ({{.*}}, memref<1x64x64xf16, {{.*}}>, vector<32xf32>) -> vector<32xf32>
// CHECK-NOT: {async
// CHECK: "fa.blockwise_gemm"({{.*}}) {layout = "wgmma_m64"} : (vector<32xf16>, memref<1x64x64xf16, {{.*}}>, vector<32xf32>) -> vector<32xf32>
// CHECK-NOT: {async
func.func @d64_few_keys(%q: tensor<1x2x300x64xf16>, %k: tensor<1x2x300x64xf16>, %v: tensor<1x2x300x64xf16>) -> tensor<1x2x300x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32}
      : (tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16>, tensor<1x2x300x64xf16>) -> tensor<1x2x300x64xf16>
  return %o : tensor<1x2x300x64xf16>
}

// -----

// D = 64 whose M and N the shapes do not say: both kernels, and an entry that
// picks one at run time by the keys of a workgroup (causal: those of row M / 2).
// CHECK-LABEL: func.func @d64_dynamic_keys(
// CHECK: func.func private @fa_attention_0_main_few(
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c256{{.*}}
// CHECK: func.func private @fa_attention_0_main_many(
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c640{{.*}}
// CHECK: func.func private @fa_attention_0_main(
// CHECK: %[[N:.*]] = memref.dim %{{.*}}, %c2
// CHECK: %[[M:.*]] = memref.dim %{{.*}}, %c2
// CHECK: %[[HALF:.*]] = arith.divui %[[M]], %c2
// CHECK: %[[MID0:.*]] = arith.addi %[[HALF]], %c0
// CHECK: %[[MID:.*]] = arith.maxsi %[[MID0]], %c0
// CHECK: %[[KEYS:.*]] = arith.minsi %[[MID]], %[[N]]
// CHECK: %[[FEW:.*]] = arith.cmpi ule, %[[KEYS]], %c1024
// CHECK: scf.if %[[FEW]] {
// CHECK: call @fa_attention_0_main_few(
// CHECK: } else {
// CHECK: call @fa_attention_0_main_many(
func.func @d64_dynamic_keys(%q: tensor<1x2x?x64xf16>, %k: tensor<1x2x?x64xf16>, %v: tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32, causal_offset = 0 : i64}
      : (tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>) -> tensor<1x2x?x64xf16>
  return %o : tensor<1x2x?x64xf16>
}

// -----

// D = 64 with a bias: never the few-keys tiles (one consumer would spill), and
// three consumers leave too few registers: two consumers, 168 / 240.
// CHECK-LABEL: func.func @d64_bias(
// CHECK-NOT: main_few
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c384{{.*}}
// CHECK: gpu.barrier {fa.kernel_bounds = {nvvm.maxnreg = 168 : i32, nvvm.minctasm = 1 : i32}}
// CHECK: nvvm.setmaxregister increase 240
// CHECK-NOT: main_few
func.func @d64_bias(%q: tensor<1x2x?x64xf16>, %k: tensor<1x2x?x64xf16>, %v: tensor<1x2x?x64xf16>, %bias: tensor<1x1x1x1xf16>) -> tensor<1x2x?x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %bias) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32}
      : (tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x2x?x64xf16>, tensor<1x1x1x1xf16>) -> tensor<1x2x?x64xf16>
  return %o : tensor<1x2x?x64xf16>
}

// -----

// Static N, dynamic M, no mask: N alone says the keys (2000 > 1024): only
// the many-keys kernel, no selector.
// CHECK-LABEL: func.func @d64_static_keys(
// CHECK-NOT: main_few
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c640{{.*}}
// CHECK-NOT: main_few
func.func @d64_static_keys(%q: tensor<1x2x?x64xf16>, %k: tensor<1x2x2000x64xf16>, %v: tensor<1x2x2000x64xf16>) -> tensor<1x2x?x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32}
      : (tensor<1x2x?x64xf16>, tensor<1x2x2000x64xf16>, tensor<1x2x2000x64xf16>) -> tensor<1x2x?x64xf16>
  return %o : tensor<1x2x?x64xf16>
}

// -----

// Three persistent kernels in one module declare the runtime's SM count
// once. Under a causal mask a workgroup takes its items in groups of two (a
// long query tile and a short one) where there are more items than
// workgroups: the grid is min(ceil(items / S), SMs), S = 2 or 1.
// CHECK-LABEL: func.func @two_persistent(
// CHECK-COUNT-1: func.func private @faRuntimeGetMultiprocessorCount() -> i32
// CHECK-NOT: func.func private @faRuntimeGetMultiprocessorCount
// CHECK-LABEL: func.func private @fa_attention_2_main(
// CHECK: %[[SMS:.*]] = call @faRuntimeGetMultiprocessorCount() : () -> i32
// CHECK: %[[CAP:.*]] = arith.muli %{{.*}}, %c1{{.*}} : index
// CHECK: %[[MORE:.*]] = arith.cmpi ugt, %[[ITEMS:.*]], %[[CAP]] : index
// CHECK: %[[S:.*]] = arith.select %[[MORE]], %c2, %c1 : index
// CHECK: %[[GROUPS:.*]] = arith.ceildivui %[[ITEMS]], %[[S]] : index
// CHECK: %[[GRID:.*]] = arith.minui %[[GROUPS]], %[[CAP]] : index
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %[[GRID]],
// The item's group (item >> log2 S) and place in it (item & (S - 1)); a
// head's query tiles alternate: j even is tile MT - 1 - j / 2, j odd j / 2.
// CHECK: scf.for %[[ITEM:.*]] = %c0_i32 to
// CHECK: %[[GRP:.*]] = arith.shrui %[[ITEM]], %[[SLOG:.*]] : i32
// CHECK: arith.andi %[[ITEM]], %[[SLOG]] : i32
// CHECK: %[[J:.*]] = arith.remui %{{.*}}, %[[MT:.*]] : i32
// CHECK: %[[HALF:.*]] = arith.shrui %[[J]], %c1_i32 : i32
// CHECK: %[[PAR:.*]] = arith.andi %[[J]], %c1_i32 : i32
// CHECK: %[[SHORT:.*]] = arith.cmpi ne, %[[PAR]], %c0_i32 : i32
// CHECK: %[[LAST:.*]] = arith.subi %[[MT]], %c1_i32 : i32
// CHECK: %[[FAR:.*]] = arith.subi %[[LAST]], %[[HALF]] : i32
// CHECK: arith.select %[[SHORT]], %[[FAR]], %[[HALF]] : i32
// CHECK: func.func private @fa_attention_2_t(
func.func @two_persistent(%q: tensor<1x2x300x128xf16>, %k: tensor<1x2x300x128xf16>, %v: tensor<1x2x300x128xf16>) -> (tensor<1x2x300x128xf16>, tensor<1x2x300x128xf16>, tensor<1x2x300x128xf16>) {
  %o1 = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.088 : f32}
      : (tensor<1x2x300x128xf16>, tensor<1x2x300x128xf16>, tensor<1x2x300x128xf16>) -> tensor<1x2x300x128xf16>
  %o2 = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.5 : f32}
      : (tensor<1x2x300x128xf16>, tensor<1x2x300x128xf16>, tensor<1x2x300x128xf16>) -> tensor<1x2x300x128xf16>
  %o3 = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.088 : f32, causal_offset = 0 : i64}
      : (tensor<1x2x300x128xf16>, tensor<1x2x300x128xf16>, tensor<1x2x300x128xf16>) -> tensor<1x2x300x128xf16>
  return %o1, %o2, %o3 : tensor<1x2x300x128xf16>, tensor<1x2x300x128xf16>, tensor<1x2x300x128xf16>
}

// -----

// Two persistent kernels in a module that declares the runtime's SM count
// itself (before its function): that declaration (the same type) is neither
// repeated nor replaced after it.
// CHECK-LABEL: func.func @declared_sms(
// CHECK-NOT: func.func private @faRuntimeGetMultiprocessorCount
// CHECK: call @faRuntimeGetMultiprocessorCount() : () -> i32
// CHECK-NOT: func.func private @faRuntimeGetMultiprocessorCount
// CHECK: call @faRuntimeGetMultiprocessorCount() : () -> i32
// CHECK-NOT: func.func private @faRuntimeGetMultiprocessorCount
func.func private @faRuntimeGetMultiprocessorCount() -> i32
func.func @declared_sms(%q: tensor<2x4x200x128xf16>, %k: tensor<2x2x300x128xf16>, %v: tensor<2x2x300x128xf16>) -> (tensor<2x4x200x128xf16>, tensor<2x4x200x128xf16>) {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.088 : f32}
      : (tensor<2x4x200x128xf16>, tensor<2x2x300x128xf16>, tensor<2x2x300x128xf16>) -> tensor<2x4x200x128xf16>
  %p = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.05 : f32}
      : (tensor<2x4x200x128xf16>, tensor<2x2x300x128xf16>, tensor<2x2x300x128xf16>) -> tensor<2x4x200x128xf16>
  return %o, %p : tensor<2x4x200x128xf16>, tensor<2x4x200x128xf16>
}
