// fa-lower-attention{target=nvvm}: f16/bf16 attention becomes the tensor-core
// kernel (cp.async into dynamic shared memory, fa.blockwise_* on register
// fragments); f32 keeps the portable kernel. fa-lower-blockwise{target=nvvm}
// then lowers the fragment ops to ldmatrix / mma.sync / quad shuffles, inlined.
// RUN: fa-opt --split-input-file --pass-pipeline='builtin.module(fa-lower-attention{target=nvvm})' %s | FileCheck %s
// RUN: fa-opt --split-input-file --pass-pipeline='builtin.module(fa-lower-attention{target=nvvm},fa-lower-blockwise{target=nvvm})' %s | FileCheck %s --check-prefix=MMA
// RUN: fa-opt --split-input-file --pass-pipeline='builtin.module(fa-lower-attention{target=nvvm},fa-lower-blockwise{target=nvvm})' %s | grep -B1 nvgpu.ldmatrix | grep -c "arith.xori .* : index" | FileCheck %s --check-prefix=SWZ
// RUN: not fa-opt --split-input-file --pass-pipeline='builtin.module(fa-lower-attention{target=nvvm},fa-lower-blockwise{target=gpu})' %s 2>&1 | FileCheck %s --check-prefix=WRONG

// CHECK-LABEL: func.func @f16_causal_gqa(
// CHECK: memref.global "public" @fa_attention_0_main_smem : memref<0xi8, #gpu.address_space<workgroup>>
// CHECK: func.func private @fa_attention_0_main({{.*}}strided<[?, ?, ?, 1], offset: ?>{{.*}}) {
// Causal: a 1-D grid numbered longest first, in chunks of (batch, head)
// pairs whose K and V fit 16 MiB (64 x 2 x 2 bytes per key here).
// CHECK: %[[KVROW:.*]] = arith.constant 256 : index
// CHECK: %[[KVHEAD:.*]] = arith.muli %{{.*}}, %[[KVROW]] : index
// CHECK: arith.divui %c16777216, %{{.*}} : index
// CHECK: gpu.launch blocks(%[[LIN:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[NBLK:[0-9]+]], %{{.*}} = %c1, %{{.*}} = %c1) {{.*}} dynamic_shared_memory_size
// CHECK: %[[CHUNK:.*]] = arith.divui %[[LIN]], %[[CLEN:.*]] : index
// CHECK: arith.remui %[[LIN]], %[[CLEN]] : index
// One stage, 128-key tiles (the table's choice at D = 64, causal): Q | K | V.
// CHECK: memref.view {{.*}} to memref<1x128x72xf16, #gpu.address_space<workgroup>>
// CHECK: memref.view {{.*}} to memref<1x128x72xf16, #gpu.address_space<workgroup>>
// Dense source rows (row stride = D, checked at run time) are copied with constant offsets.
// CHECK: %[[DENSE:.*]] = arith.cmpi eq, %{{.*}}#2, %c64
// CHECK: scf.if %[[DENSE]]
// CHECK: memref.reinterpret_cast {{.*}} strides: [%{{.*}}, %{{.*}}, 64, 1]
// CHECK: nvgpu.device_async_copy {{.*}}, 8, {{.*}} {bypassL1}
// Q and K(0) before the loop, one group.
// CHECK: nvgpu.device_async_copy {{.*}} to memref<128x64xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_create_group
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: "fa.blockwise_fill"({{.*}}) {layout = "mma_m16n8k16"} : (vector<64xf32>, f32) -> vector<64xf32>
// CHECK: scf.for %[[T:[a-z0-9]+]] =
// Top of the tile: once K(t) has landed, V(t) is copied into V's only
// buffer.
// CHECK: nvgpu.device_async_wait {{.*}} {numGroups = 0 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.device_async_copy {{.*}} to memref<128x64xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_create_group
// CHECK: "fa.blockwise_gemm"({{.*}}) {layout = "mma_m16n8k16", transpose_b} : (memref<128x64xf16, strided<[72, 1]>, #gpu.address_space<workgroup>>, memref<128x64xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<128xf32>) -> vector<128xf32>
// After S: V(t) has landed and K(t+1) is copied into K's only buffer.
// CHECK: nvgpu.device_async_wait {{.*}} {numGroups = 0 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.if
// CHECK: nvgpu.device_async_create_group
// CHECK: %[[MAX:.*]] = "fa.blockwise_reduction"({{.*}}) {axis = 1 : i64, kind = "max", layout = "mma_m16n8k16"}
// The running max moves only when the tile's max exceeds it by more than 2^8 (log2 domain).
// CHECK: %[[GROW:.*]] = arith.subf %[[MAX]], %[[OLD:.*]] : vector<4xf32>
// CHECK: %[[GROWE:.*]] = arith.mulf %[[GROW]]
// CHECK: %[[SLACK:.*]] = arith.constant dense<8.000000e+00> : vector<4xf32>
// CHECK: %[[MOVED:.*]] = arith.cmpf ogt, %[[GROWE]], %[[SLACK]] : vector<4xf32>
// CHECK: arith.select %[[MOVED]], %[[MAX]], %[[OLD]] : vector<4xi1>, vector<4xf32>
// P V in two chunks of 64 keys (pv_split = 2 from the table); l summed per thread.
// CHECK: %[[P0:.*]] = arith.truncf {{.*}} : vector<64xf32> to vector<64xf16>
// CHECK: %[[O0:.*]] = "fa.blockwise_gemm"(%[[P0]], {{.*}}) {layout = "mma_m16n8k16"} : (vector<64xf16>, memref<64x64xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<64xf32>) -> vector<64xf32>
// CHECK: %[[L0:.*]] = "fa.blockwise_reduction"({{.*}}) {axis = 1 : i64, kind = "sum", layout = "mma_m16n8k16", partial} : (vector<64xf32>, vector<4xf32>)
// CHECK: vector.shuffle {{.*}} [32, 33, {{.*}}, 63, 96, 97, {{.*}}, 127] : vector<128xf32>, vector<128xf32>
// CHECK: memref.subview %{{.*}}[%{{.*}}, %c64{{.*}}, 0] [1, 64, 64]
// CHECK: %[[O1:.*]] = "fa.blockwise_gemm"({{.*}}, %[[O0]]) {layout = "mma_m16n8k16"} : (vector<64xf16>, memref<64x64xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<64xf32>) -> vector<64xf32>
// CHECK: %[[L1:.*]] = "fa.blockwise_reduction"({{.*}}, %[[L0]]) {axis = 1 : i64, kind = "sum", layout = "mma_m16n8k16", partial}
// CHECK: scf.yield %[[O1]], %{{.*}}, %[[L1]]
// After the loop the quad's four partial sums of l make the row's sum.
// CHECK: gpu.shuffle xor %{{.*}}, %c1_i32
// CHECK: gpu.shuffle xor %{{.*}}, %c2_i32
// CHECK-NOT: func.call @fa_attention_0_copy
// MMA-LABEL: func.func @f16_causal_gqa(
// MMA-NOT: "fa.blockwise
// MMA: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false}
// MMA: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32)
// MMA: gpu.shuffle xor
// MMA: nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true}
// MMA-NOT: "fa.blockwise
// MMA-NOT: call @fa_blockwise_{{[a-z]+}}_{{[0-9]+}}(
// WRONG: error: fa-lower-blockwise: register fragments are lowered only with target=nvvm
func.func @f16_causal_gqa(%q: tensor<1x4x100x64xf16>, %k: tensor<1x2x77x64xf16>, %v: tensor<1x2x77x64xf16>) -> tensor<1x4x100x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32, causal_offset = -2 : i64}
      : (tensor<1x4x100x64xf16>, tensor<1x2x77x64xf16>, tensor<1x2x77x64xf16>) -> tensor<1x4x100x64xf16>
  return %o : tensor<1x4x100x64xf16>
}

// -----

// bf16 with a bias, a kv length and lse; the tiles come from the op, P V in
// one chunk (pv_split = 1).
// CHECK-LABEL: func.func @bf16_bias_lse(
// CHECK: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c64{{.*}}
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<?xi32, strided<[1], offset: ?>>
// CHECK: "fa.blockwise_gemm"({{.*}}) {layout = "mma_m16n8k16", transpose_b} : (memref<32x96xbf16, strided<[104, 1]>, #gpu.address_space<workgroup>>, memref<32x96xbf16, {{.*}}>, vector<16xf32>) -> vector<16xf32>
// CHECK: %[[O:.*]] = "fa.blockwise_gemm"({{.*}}) {layout = "mma_m16n8k16"} : (vector<16xbf16>, memref<32x96xbf16, strided<[104, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<48xf32>) -> vector<48xf32>
// CHECK-NEXT: %[[L:.*]] = "fa.blockwise_reduction"({{.*}}) {axis = 1 : i64, kind = "sum", layout = "mma_m16n8k16", partial} : (vector<16xf32>, vector<2xf32>)
// CHECK-NEXT: scf.yield %[[O]], %{{.*}}, %[[L]]
// CHECK: memref.store {{.*}} : memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>
// MMA-LABEL: func.func @bf16_bias_lse(
// MMA: nvvm.mma.sync {{.*}}multiplicandAPtxType = #nvvm.mma_type<bf16>
func.func @bf16_bias_lse(%q: tensor<2x2x5x96xbf16>, %k: tensor<2x2x40x96xbf16>, %v: tensor<2x2x40x96xbf16>, %bias: tensor<2x1x1x40xf32>, %kvl: tensor<2xi32>) -> (tensor<2x2x5x96xbf16>, tensor<2x2x5xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v, %bias, %kvl) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0, 0, 0>, scale = 0.1 : f32, block_m = 32 : i64, block_n = 32 : i64, warps = 2 : i64, pv_split = 1 : i64}
      : (tensor<2x2x5x96xbf16>, tensor<2x2x40x96xbf16>, tensor<2x2x40x96xbf16>, tensor<2x1x1x40xf32>, tensor<2xi32>) -> (tensor<2x2x5x96xbf16>, tensor<2x2x5xf32>)
  return %o, %lse : tensor<2x2x5x96xbf16>, tensor<2x2x5xf32>
}

// -----

// A kv length per (batch, query head) is read at [b, h], on both kernels
// (M = 5: the tensor-core decode kernel, batch and split from the grid's z).
// CHECK: func.func private @fa_attention_0_decode({{.*}}memref<?x?xi64, strided<[?, 1], offset: ?>>
// CHECK: gpu.launch blocks(%{{[a-z0-9_]+}}, %[[H:[a-z0-9_]+]], %[[BS:[a-z0-9_]+]]) in
// CHECK: %[[B:.*]] = arith.divui %[[BS]], %{{.*}} : index
// CHECK: memref.load %{{.*}}[%[[B]], %[[H]]] : memref<?x?xi64, strided<[?, 1], offset: ?>>
// CHECK: layout = "mma_m16n8k16"
// CHECK: func.func private @fa_attention_1({{.*}}memref<?x?xi64, strided<[?, ?], offset: ?>>
// CHECK: gpu.launch blocks(%{{[a-z0-9_]+}}, %[[H2:[a-z0-9_]+]], %[[B2:[a-z0-9_]+]]) in
// CHECK: memref.load %{{.*}}[%[[B2]], %[[H2]]] : memref<?x?xi64
func.func @kv_len_per_head(%q: tensor<2x4x5x64xf16>, %k: tensor<2x2x40x64xf16>, %v: tensor<2x2x40x64xf16>, %kvl: tensor<2x4xi64>) -> tensor<2x4x5x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %kvl) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0, 0>, scale = 0.125 : f32}
      : (tensor<2x4x5x64xf16>, tensor<2x2x40x64xf16>, tensor<2x2x40x64xf16>, tensor<2x4xi64>) -> tensor<2x4x5x64xf16>
  return %o : tensor<2x4x5x64xf16>
}
func.func @kv_len_per_head_f32(%q: tensor<2x4x5x64xf32>, %k: tensor<2x2x40x64xf32>, %v: tensor<2x2x40x64xf32>, %kvl: tensor<2x4xi64>) -> tensor<2x4x5x64xf32> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %kvl) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0, 0>, scale = 0.125 : f32}
      : (tensor<2x4x5x64xf32>, tensor<2x2x40x64xf32>, tensor<2x2x40x64xf32>, tensor<2x4xi64>) -> tensor<2x4x5x64xf32>
  return %o : tensor<2x4x5x64xf32>
}

// -----

// f32 stays exact: the portable kernel (f32 tiles as workgroup attributions).
// CHECK-LABEL: func.func @f32_portable(
// CHECK: gpu.launch blocks({{.*}}) workgroup(
// CHECK-NOT: layout = "mma_m16n8k16"
func.func @f32_portable(%q: tensor<1x1x16x64xf32>, %k: tensor<1x1x16x64xf32>, %v: tensor<1x1x16x64xf32>) -> tensor<1x1x16x64xf32> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32}
      : (tensor<1x1x16x64xf32>, tensor<1x1x16x64xf32>, tensor<1x1x16x64xf32>) -> tensor<1x1x16x64xf32>
  return %o : tensor<1x1x16x64xf32>
}

// -----

// K stored transposed ([B, Hkv, D, N], as the TOSA and BART exports fuse): K is
// transposed back by a linalg.transpose before the op (one pass over K), so the
// tensor-core kernel takes it; the op loses k_transposed.
// CHECK-LABEL: func.func @bf16_k_transposed(
// CHECK: %[[K:.*]] = call @fa_attention_{{[0-9]+}}_k(%arg1) : (tensor<2x4x64x29xbf16>) -> tensor<2x4x29x64xbf16>
// CHECK: call @fa_attention_{{[0-9]+}}_t(%arg0, %[[K]], %arg2)
// CHECK: func.func private @fa_attention_{{[0-9]+}}_k(%[[A:.*]]: tensor<2x4x64x29xbf16>) -> tensor<2x4x29x64xbf16>
// CHECK: linalg.transpose ins(%[[A]] : tensor<2x4x64x29xbf16>) {{.*}} permutation = [0, 1, 3, 2]
// CHECK: "fa.blockwise_gemm"{{.*}}layout = "mma_m16n8k16", transpose_b
// CHECK-NOT: k_transposed
func.func @bf16_k_transposed(%q: tensor<2x4x17x64xbf16>, %k: tensor<2x4x64x29xbf16>, %v: tensor<2x4x29x64xbf16>) -> tensor<2x4x17x64xf32> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32}
      : (tensor<2x4x17x64xbf16>, tensor<2x4x64x29xbf16>, tensor<2x4x29x64xbf16>) -> tensor<2x4x17x64xf32>
  return %o : tensor<2x4x17x64xf32>
}

// -----

// Tiles the portable kernel could not hold in 48 KiB (64 x 64 at D = 128 in
// f32) do not stop K stored transposed from taking the tensor-core kernel:
// the transpose is decided first.
// CHECK-LABEL: func.func @f16_k_transposed_big_tiles(
// CHECK: call @fa_attention_{{[0-9]+}}_k(%arg1) : (tensor<1x2x128x40xf16>) -> tensor<1x2x40x128xf16>
// CHECK: "fa.blockwise_gemm"{{.*}}layout = "mma_m16n8k16", transpose_b
func.func @f16_k_transposed_big_tiles(%q: tensor<1x2x33x128xf16>, %k: tensor<1x2x128x40xf16>, %v: tensor<1x2x40x128xf16>) -> tensor<1x2x33x128xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.0625 : f32, block_m = 64 : i64, block_n = 64 : i64}
      : (tensor<1x2x33x128xf16>, tensor<1x2x128x40xf16>, tensor<1x2x40x128xf16>) -> tensor<1x2x33x128xf16>
  return %o : tensor<1x2x33x128xf16>
}

// -----

// stages = 2: K and V of the next tile are copied together into the other
// stage, behind one barrier per tile; without a causal mask the grid is
// (query tile, head, batch). The op's tiles hold for every M: no decode
// kernel.
// CHECK-LABEL: func.func @f16_two_stages(
// CHECK-NOT: _decode
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %{{.*}}, %{{.*}} = %dim{{.*}}, %{{.*}} = %{{.*}})
// CHECK: memref.view {{.*}} to memref<2x64x136xf16, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: nvgpu.device_async_wait {{.*}} {numGroups = 0 : i32}
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.device_async_copy {{.*}} to memref<64x128xf16, strided<[136, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy {{.*}} to memref<64x128xf16, strided<[136, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_create_group
// CHECK-NOT: gpu.barrier
// CHECK: "fa.blockwise_gemm"({{.*}}transpose_b
// CHECK-NOT: gpu.barrier
// CHECK: "fa.blockwise_gemm"
// CHECK: scf.yield
func.func @f16_two_stages(%q: tensor<?x?x?x128xf16>, %k: tensor<?x?x?x128xf16>, %v: tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.088 : f32, stages = 2 : i64}
      : (tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>, tensor<?x?x?x128xf16>) -> tensor<?x?x?x128xf16>
  return %o : tensor<?x?x?x128xf16>
}

// -----

// M = 1024 (static) needs no decode kernel: no workspace, no combine.
// CHECK-LABEL: func.func @f16_no_split(
// CHECK-NOT: gpu.alloc
// CHECK-NOT: _decode
// CHECK: return
func.func @f16_no_split(%q: tensor<2x16x1024x64xf16>, %k: tensor<2x16x1024x64xf16>, %v: tensor<2x16x1024x64xf16>) -> tensor<2x16x1024x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32}
      : (tensor<2x16x1024x64xf16>, tensor<2x16x1024x64xf16>, tensor<2x16x1024x64xf16>) -> tensor<2x16x1024x64xf16>
  return %o : tensor<2x16x1024x64xf16>
}

// -----

// A decode step (M = 1, N = 8192). The entry packs the G = 4 query heads of a
// K/V head into rows (M = 1, every key visible to row 0) and calls the decode
// kernel either way.
// CHECK-LABEL: func.func @f16_decode_split(
// The decode kernel: one warp, keys split over workgroups into a workspace,
// each split's O / l and lse in f32 (the workspace's rows padded to whole
// query tiles: the 8-byte stores need no bound check). With at most 4 rows
// (M <= 4) each split counts itself on its tile's counter (a device global
// that every launch leaves zero: no memset) with one acquire-release atomic
// (no separate fence), and the last one resets it and merges (the merge
// inlined: lse weights by shuffles, the four rows side by side, weighted
// sums); with more rows the combine kernel merges, a workgroup per 4 rows.
// CHECK: memref.global "public" @[[CNTG:fa_attention_[0-9]+_decode_counters]] : memref<198xi32, #gpu.address_space<global>> = dense<0>
// CHECK: func.func private @[[DEC:fa_attention_[0-9]+_decode]](
// CHECK: %[[SPLIT:.*]] = arith.cmpi ugt, %[[S:.*]], %c1 : index
// CHECK: %[[FEW:.*]] = arith.cmpi ule, %[[M:.*]], %[[C4:.*]] : index
// CHECK: %[[LAST:.*]] = arith.andi %[[SPLIT]], %[[FEW]] : i1
// CHECK: %[[COMB:.*]] = arith.xori %[[SPLIT]], %[[LAST]] : i1
// CHECK: %[[WS:.*]], %[[T:.*]] = gpu.alloc async [%{{.*}}] (%{{.*}}) : memref<?xi8>
// CHECK: %[[WSO:.*]] = memref.view %[[WS]][%c0][{{.*}}] : memref<?xi8> to memref<?x?x?x?x128xf32>
// CHECK-NOT: gpu.memset
// CHECK: gpu.launch {{.*}} threads({{.*}}) in ({{.*}} = %c32{{.*}}
// CHECK: scf.for
// CHECK: scf.if %[[SPLIT]] {
// CHECK-NEXT: affine.for
// CHECK-NOT: scf.if
// CHECK: vector.store %{{.*}}, %[[WSO]][{{.*}}] {alignment = 8 : i64} : memref<?x?x?x?x128xf32>, vector<2xf32>
// CHECK: scf.if %[[LAST]] {
// CHECK-NOT: nvvm.memory.barrier
// CHECK: gpu.barrier
// CHECK-NOT: nvvm.memory.barrier
// CHECK: %[[CNT:.*]] = memref.get_global @[[CNTG]]
// CHECK: %[[CNTP:.*]] = memref.extract_aligned_pointer_as_index %[[CNT]]
// CHECK: %[[DONE:.*]] = llvm.inline_asm has_side_effects "atom.acq_rel.gpu.global.add.u32 $0, [$1], $2;"
// CHECK-NOT: nvvm.memory.barrier
// CHECK: %[[ISLAST:.*]] = arith.cmpi eq, %[[DONE]], %{{.*}} : i32
// CHECK: scf.if %[[ISLAST]] {
// CHECK-NEXT: memref.store %c0_i32, %[[CNT]][%{{.*}}]
// CHECK: gpu.barrier
// CHECK: gpu.shuffle xor
// CHECK: math.exp2 %{{.*}} : vector<4xf32>
// CHECK: gpu.shuffle xor
// CHECK: vector.interleave
// CHECK: gpu.shuffle idx
// CHECK: vector.fma
// CHECK: } else {
// CHECK: scf.if %[[COMB]] {
// CHECK-NEXT: func.call @[[COMBINE:fa_attention_[0-9]+_decode_combine]](%{{.*}}, %{{.*}}, %[[WSO]], %{{.*}}, %[[S]])
// CHECK: gpu.dealloc async [%{{.*}}] %[[WS]] : memref<?xi8>
// CHECK: func.func private @[[COMBINE]](
// CHECK: gpu.launch
// CHECK: math.exp2
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<?x?x?xf32, strided<[?, ?, 1], offset: ?>>
// CHECK: vector.fma
// The entry packs the G = 4 query heads of a K/V head into rows (M = 1, every
// key visible to row 0, lse unit-strided over heads) and calls the decode
// kernel either way.
// CHECK: func.func private @fa_attention_{{[0-9]+}}({{.*}}) attributes {fa.attention_kernel}
// CHECK: %[[ONE:.*]] = arith.cmpi eq, %{{.*}}, %c1 : index
// CHECK: %[[PACK:.*]] = arith.andi %[[ONE]], %{{.*}} : i1
// CHECK: scf.if %{{.*}} {
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}], strides: [%{{.*}}, %{{.*}}, %{{.*}}, 1]
// CHECK: call @[[DEC]](
// CHECK: } else {
// CHECK: call @[[DEC]](
func.func @f16_decode_split(%q: tensor<1x32x1x128xf16>, %k: tensor<1x8x8192x128xf16>, %v: tensor<1x8x8192x128xf16>) -> (tensor<1x32x1x128xf16>, tensor<1x32x1xf32>) {
  %o, %l = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.088 : f32, causal_offset = 8191 : i64}
      : (tensor<1x32x1x128xf16>, tensor<1x8x8192x128xf16>, tensor<1x8x8192x128xf16>) -> (tensor<1x32x1x128xf16>, tensor<1x32x1xf32>)
  return %o, %l : tensor<1x32x1x128xf16>, tensor<1x32x1xf32>
}

// -----

// A decode step (M = 1, D = 128): the decode kernel's tiles are swizzled, not
// padded (rows of 128 elements in shared memory). Each copy writes 16-byte
// chunk c of row r at chunk c ^ (r % 8), and the GEMMs say so (`swizzle`): their
// ldmatrix columns are XORed with the lane's row bits.
// CHECK-LABEL: func.func @f16_decode(
// CHECK: func.func private @fa_attention_0_decode(
// CHECK: memref.view {{.*}} to memref<16x128xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: memref.view {{.*}} to memref<1x64x128xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: memref.view {{.*}} to memref<1x64x128xf16, #gpu.address_space<workgroup>>
// CHECK: %[[R7:.*]] = arith.andi %{{.*}}, %c7 : index
// CHECK: %[[SW:.*]] = arith.muli %[[R7]], %c8{{.*}} : index
// CHECK: arith.xori %{{.*}}, %[[SW]] : index
// CHECK: "fa.blockwise_gemm"({{.*}}) {layout = "mma_m16n8k16", swizzle, transpose_b} : (memref<16x128xf16, strided<[128, 1]>, #gpu.address_space<workgroup>>, memref<64x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<32xf32>)
// CHECK: "fa.blockwise_gemm"({{.*}}) {layout = "mma_m16n8k16", swizzle} : (vector<32xf16>, memref<64x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<64xf32>)
// Its three ldmatrix sites (Q, K, V) take a column just XORed; no other
// function's do (checked by the count below, over the whole file).
// SWZ: 3
func.func @f16_decode(%q: tensor<1x8x1x128xf16>, %k: tensor<1x2x4096x128xf16>, %v: tensor<1x2x4096x128xf16>) -> tensor<1x8x1x128xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32}
      : (tensor<1x8x1x128xf16>, tensor<1x2x4096x128xf16>, tensor<1x2x4096x128xf16>) -> tensor<1x8x1x128xf16>
  return %o : tensor<1x8x1x128xf16>
}
