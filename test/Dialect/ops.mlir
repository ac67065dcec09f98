// Round trip of every fa op: print, parse the printed form again, compare.
// RUN: fa-opt %s | fa-opt | FileCheck %s
// RUN: fa-opt --mlir-print-op-generic %s | fa-opt | FileCheck %s

// CHECK-LABEL: func.func @attention_full
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {block_m = 64 : i64, causal_offset = 3 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0, 0, 0>, scale = 1.250000e-01 : f32} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x32xf16>, tensor<2x1x1x7xf32>, tensor<2xi32>) -> (tensor<2x8x5x32xf16>, tensor<2x8x5xf32>)
func.func @attention_full(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x7x32xf16>, %bias: tensor<2x1x1x7xf32>, %len: tensor<2xi32>) -> (tensor<2x8x5x32xf16>, tensor<2x8x5xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v, %bias, %len) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0, 0, 0, 0, 0>, scale = 0.125 : f32, causal_offset = 3 : i64, block_m = 64 : i64} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x32xf16>, tensor<2x1x1x7xf32>, tensor<2xi32>) -> (tensor<2x8x5x32xf16>, tensor<2x8x5xf32>)
  return %o, %lse : tensor<2x8x5x32xf16>, tensor<2x8x5xf32>
}

// CHECK-LABEL: func.func @attention_dynamic
// CHECK: "fa.gridwise_attention"({{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32} : (tensor<?x4x?x80xbf16>, tensor<?x4x?x80xbf16>, tensor<?x4x?x96xbf16>) -> tensor<?x4x?x96xf32>
func.func @attention_dynamic(%q: tensor<?x4x?x80xbf16>, %k: tensor<?x4x?x80xbf16>, %v: tensor<?x4x?x96xbf16>) -> tensor<?x4x?x96xf32> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32} : (tensor<?x4x?x80xbf16>, tensor<?x4x?x80xbf16>, tensor<?x4x?x96xbf16>) -> tensor<?x4x?x96xf32>
  return %o : tensor<?x4x?x96xf32>
}

// Q, K, V and O with heads after the sequence ([B, S, H, D]), and lse.
// CHECK-LABEL: func.func @attention_bshd
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}) {k_bshd, o_bshd, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, scale = 1.250000e-01 : f32, v_bshd} : (tensor<2x5x8x64xf16>, tensor<2x7x2x64xf16>, tensor<2x7x2x32xf16>) -> (tensor<2x5x8x32xf16>, tensor<2x8x5xf32>)
func.func @attention_bshd(%q: tensor<2x5x8x64xf16>, %k: tensor<2x7x2x64xf16>, %v: tensor<2x7x2x32xf16>) -> (tensor<2x5x8x32xf16>, tensor<2x8x5xf32>) {
  %o, %lse = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, k_bshd, v_bshd, o_bshd, scale = 0.125 : f32} : (tensor<2x5x8x64xf16>, tensor<2x7x2x64xf16>, tensor<2x7x2x32xf16>) -> (tensor<2x5x8x32xf16>, tensor<2x8x5xf32>)
  return %o, %lse : tensor<2x5x8x32xf16>, tensor<2x8x5xf32>
}

// CHECK-LABEL: func.func @blockwise_memref
// CHECK: "fa.blockwise_fill"(%{{.*}}, %{{.*}}) : (memref<64x128xf32, 3>, f32) -> ()
// CHECK: "fa.blockwise_reduction"(%{{.*}}, %{{.*}}) {axis = 1 : i64, kind = "max"} : (memref<64x128xf32, 3>, memref<64xf32>) -> ()
// CHECK: "fa.blockwise_gemm"(%{{.*}}, %{{.*}}, %{{.*}}) {transpose_b} : (memref<64x64xf16>, memref<128x64xf16>, memref<64x128xf32, 3>) -> ()
func.func @blockwise_memref(%s: memref<64x128xf32, 3>, %m: memref<64xf32>, %a: memref<64x64xf16>, %b: memref<128x64xf16>) {
  %ninf = arith.constant 0xFF800000 : f32
  "fa.blockwise_fill"(%s, %ninf) : (memref<64x128xf32, 3>, f32) -> ()
  "fa.blockwise_reduction"(%s, %m) {kind = "max", axis = 1 : i64} : (memref<64x128xf32, 3>, memref<64xf32>) -> ()
  "fa.blockwise_gemm"(%a, %b, %s) {transpose_b} : (memref<64x64xf16>, memref<128x64xf16>, memref<64x128xf32, 3>) -> ()
  return
}

// CHECK-LABEL: func.func @blockwise_tensor
// CHECK: %[[F:.*]] = "fa.blockwise_fill"(%{{.*}}, %{{.*}}) : (tensor<16xf32>, f32) -> tensor<16xf32>
// CHECK: "fa.blockwise_reduction"(%{{.*}}, %[[F]]) {axis = 1 : i64, kind = "sum"} : (tensor<16x32xf32>, tensor<16xf32>) -> tensor<16xf32>
// CHECK: "fa.blockwise_gemm"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<16x32xf32>, tensor<32x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
func.func @blockwise_tensor(%p: tensor<16x32xf32>, %l: tensor<16xf32>, %v: tensor<32x8xf32>, %acc: tensor<16x8xf32>) -> (tensor<16xf32>, tensor<16x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %l0 = "fa.blockwise_fill"(%l, %zero) : (tensor<16xf32>, f32) -> tensor<16xf32>
  %l1 = "fa.blockwise_reduction"(%p, %l0) {kind = "sum", axis = 1 : i64} : (tensor<16x32xf32>, tensor<16xf32>) -> tensor<16xf32>
  %o = "fa.blockwise_gemm"(%p, %v, %acc) : (tensor<16x32xf32>, tensor<32x8xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  return %l1, %o : tensor<16xf32>, tensor<16x8xf32>
}

// The blockwise ops on register fragments (layout "mma_m16n8k16").
// CHECK-LABEL: func.func @blockwise_fragments
// CHECK: "fa.blockwise_fill"(%{{.*}}, %{{.*}}) {layout = "mma_m16n8k16"} : (vector<32xf32>, f32) -> vector<32xf32>
// CHECK: "fa.blockwise_gemm"(%{{.*}}, %{{.*}}, %{{.*}}) {layout = "mma_m16n8k16", transpose_b} : (memref<64x64xf16, 3>, memref<64x64xf16, 3>, vector<32xf32>) -> vector<32xf32>
// CHECK: "fa.blockwise_reduction"(%{{.*}}, %{{.*}}) {axis = 1 : i64, kind = "max", layout = "mma_m16n8k16"} : (vector<32xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK: "fa.blockwise_reduction"(%{{.*}}, %{{.*}}) {axis = 1 : i64, kind = "sum", layout = "mma_m16n8k16", partial} : (vector<32xf32>, vector<2xf32>) -> vector<2xf32>
// CHECK: "fa.blockwise_gemm"(%{{.*}}, %{{.*}}, %{{.*}}) {layout = "mma_m16n8k16"} : (vector<32xbf16>, memref<64x32xbf16, 3>, vector<16xf32>) -> vector<16xf32>
// CHECK: "fa.blockwise_gemm"(%{{.*}}, %{{.*}}, %{{.*}}) {layout = "mma_m16n8k16", swizzle, transpose_b} : (memref<64x64xf16, 3>, memref<64x64xf16, 3>, vector<32xf32>) -> vector<32xf32>
func.func @blockwise_fragments(%q: memref<64x64xf16, 3>, %k: memref<64x64xf16, 3>, %s0: vector<32xf32>,
                               %m: vector<2xf32>, %p: vector<32xbf16>, %v: memref<64x32xbf16, 3>,
                               %o: vector<16xf32>) -> (vector<2xf32>, vector<2xf32>, vector<16xf32>) {
  %z = arith.constant 0.0 : f32
  %s1 = "fa.blockwise_fill"(%s0, %z) {layout = "mma_m16n8k16"} : (vector<32xf32>, f32) -> vector<32xf32>
  %s = "fa.blockwise_gemm"(%q, %k, %s1) {transpose_b, layout = "mma_m16n8k16"} : (memref<64x64xf16, 3>, memref<64x64xf16, 3>, vector<32xf32>) -> vector<32xf32>
  %m2 = "fa.blockwise_reduction"(%s, %m) {kind = "max", axis = 1 : i64, layout = "mma_m16n8k16"} : (vector<32xf32>, vector<2xf32>) -> vector<2xf32>
  // partial: each thread sums only its own columns (no exchange in the quad).
  %l = "fa.blockwise_reduction"(%s, %m) {kind = "sum", axis = 1 : i64, layout = "mma_m16n8k16", partial} : (vector<32xf32>, vector<2xf32>) -> vector<2xf32>
  %o2 = "fa.blockwise_gemm"(%p, %v, %o) {layout = "mma_m16n8k16"} : (vector<32xbf16>, memref<64x32xbf16, 3>, vector<16xf32>) -> vector<16xf32>
  // swizzle: the tiles keep row r's 16-byte chunk c at chunk c ^ (r % 8).
  %s2 = "fa.blockwise_gemm"(%q, %k, %s1) {transpose_b, layout = "mma_m16n8k16", swizzle} : (memref<64x64xf16, 3>, memref<64x64xf16, 3>, vector<32xf32>) -> vector<32xf32>
  return %m2, %l, %o2 : vector<2xf32>, vector<2xf32>, vector<16xf32>
}

// The blockwise GEMMs of Hopper's warpgroup fragments (layout "wgmma_m64"):
// tiles are [chunks][rows][64]; `async` returns before the GEMM is done.
// CHECK-LABEL: func.func @blockwise_wgmma
// CHECK: "fa.blockwise_gemm"(%{{.*}}, %{{.*}}, %{{.*}}) {layout = "wgmma_m64", transpose_b} : (memref<2x64x64xf16, 3>, memref<2x128x64xf16, 3>, vector<64xf32>) -> vector<64xf32>
// CHECK: "fa.blockwise_gemm"(%{{.*}}, %{{.*}}, %{{.*}}) {async, layout = "wgmma_m64"} : (vector<64xf16>, memref<2x128x64xf16, 3>, vector<64xf32>) -> vector<64xf32>
// CHECK: "fa.blockwise_reduction"(%{{.*}}, %{{.*}}) {axis = 1 : i64, kind = "max", layout = "wgmma_m64"} : (vector<64xf32>, vector<2xf32>) -> vector<2xf32>
func.func @blockwise_wgmma(%q: memref<2x64x64xf16, 3>, %k: memref<2x128x64xf16, 3>, %s0: vector<64xf32>,
                           %p: vector<64xf16>, %v: memref<2x128x64xf16, 3>, %o: vector<64xf32>,
                           %m: vector<2xf32>) -> (vector<64xf32>, vector<2xf32>) {
  %s = "fa.blockwise_gemm"(%q, %k, %s0) {transpose_b, layout = "wgmma_m64"} : (memref<2x64x64xf16, 3>, memref<2x128x64xf16, 3>, vector<64xf32>) -> vector<64xf32>
  %o2 = "fa.blockwise_gemm"(%p, %v, %o) {layout = "wgmma_m64", async} : (vector<64xf16>, memref<2x128x64xf16, 3>, vector<64xf32>) -> vector<64xf32>
  %m2 = "fa.blockwise_reduction"(%s, %m) {kind = "max", axis = 1 : i64, layout = "wgmma_m64"} : (vector<64xf32>, vector<2xf32>) -> vector<2xf32>
  return %o2, %m2 : vector<64xf32>, vector<2xf32>
}
