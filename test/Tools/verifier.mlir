// The verifier rejects Hkv = 0 and attributes no fa op has (a misspelt
// option would otherwise be ignored); dialect-prefixed (discardable)
// attributes and every known one, `layout` included, stay allowed.
// RUN: fa-opt %s --split-input-file --verify-diagnostics

func.func @no_kv_heads(%q: tensor<1x2x4x16xf32>, %k: tensor<1x0x4x16xf32>, %v: tensor<1x0x4x16xf32>) {
  // (A {{regex}} inside the message, the rest literal: parentheses and dots escaped.)
  // expected-error @+1 {{'fa.gridwise_attention' op KV heads (K dimension {{[0-9]+}}) must be positive, got 0}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32} : (tensor<1x2x4x16xf32>, tensor<1x0x4x16xf32>, tensor<1x0x4x16xf32>) -> tensor<1x2x4x16xf32>
  return
}

// -----

func.func @misspelt(%q: tensor<1x2x4x16xf32>, %k: tensor<1x1x4x16xf32>, %v: tensor<1x1x4x16xf32>) {
  // expected-error @+1 {{'fa.gridwise_attention' op has unknown attribute 'num_splits'}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {num_splits = 2 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32} : (tensor<1x2x4x16xf32>, tensor<1x1x4x16xf32>, tensor<1x1x4x16xf32>) -> tensor<1x2x4x16xf32>
  return
}

// -----

func.func @known(%q: tensor<1x2x4x16xf32>, %k: tensor<1x1x16x4xf32>, %v: tensor<1x1x4x16xf32>) {
  %o = "fa.gridwise_attention"(%q, %k, %v) {block_m = 64 : i64, block_n = 32 : i64, causal_offset = 0 : i64, k_transposed, mydialect.note = "kept", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32, stages = 2 : i64, warps = 4 : i64} : (tensor<1x2x4x16xf32>, tensor<1x1x16x4xf32>, tensor<1x1x4x16xf32>) -> tensor<1x2x4x16xf32>
  return
}

// -----

func.func @gemm_typo(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf32>) {
  // expected-error @+1 {{'fa.blockwise_gemm' op has unknown attribute 'transposeb'}}
  "fa.blockwise_gemm"(%a, %b, %c) {transposeb} : (memref<16x16xf16>, memref<16x16xf16>, memref<16x16xf32>) -> ()
  return
}

// -----

func.func @reduction_typo(%x: memref<16x16xf32>, %r: memref<16xf32>) {
  // expected-error @+1 {{'fa.blockwise_reduction' op has unknown attribute 'axes'}}
  "fa.blockwise_reduction"(%x, %r) {axes = 1 : i64, axis = 1 : i64, kind = "max"} : (memref<16x16xf32>, memref<16xf32>) -> ()
  return
}

// -----

func.func @fill_typo(%x: memref<16xf32>) {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{'fa.blockwise_fill' op has unknown attribute 'value'}}
  "fa.blockwise_fill"(%x, %z) {value = 0.0 : f32} : (memref<16xf32>, f32) -> ()
  return
}

// -----

func.func @fragments(%a: vector<8xf16>, %b: memref<16x16xf16>, %c: vector<8xf32>, %r: vector<2xf32>) -> (vector<8xf32>, vector<2xf32>) {
  %z = arith.constant 0.0 : f32
  %f = "fa.blockwise_fill"(%c, %z) {layout = "mma_m16n8k16"} : (vector<8xf32>, f32) -> vector<8xf32>
  %g = "fa.blockwise_gemm"(%a, %b, %f) {layout = "mma_m16n8k16", transpose_b} : (vector<8xf16>, memref<16x16xf16>, vector<8xf32>) -> vector<8xf32>
  %m = "fa.blockwise_reduction"(%g, %r) {axis = 1 : i64, kind = "max", layout = "mma_m16n8k16"} : (vector<8xf32>, vector<2xf32>) -> vector<2xf32>
  return %g, %m : vector<8xf32>, vector<2xf32>
}

// -----

// kv_len is [B] or [B, Hq]; a rank-2 length must have Hq columns.
func.func @kv_len_per_head_ok(%q: tensor<2x4x4x16xf32>, %k: tensor<2x2x4x16xf32>, %v: tensor<2x2x4x16xf32>, %kv: tensor<2x4xi32>) {
  %o = "fa.gridwise_attention"(%q, %k, %v, %kv) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0, 0>, scale = 1.0 : f32} : (tensor<2x4x4x16xf32>, tensor<2x2x4x16xf32>, tensor<2x2x4x16xf32>, tensor<2x4xi32>) -> tensor<2x4x4x16xf32>
  return
}

// -----

func.func @kv_len_per_kv_head(%q: tensor<2x4x4x16xf32>, %k: tensor<2x2x4x16xf32>, %v: tensor<2x2x4x16xf32>, %kv: tensor<2x2xi32>) {
  // expected-error @+1 {{'fa.gridwise_attention' op kv_len dimension 1 (query heads) is 2, expected 4}}
  %o = "fa.gridwise_attention"(%q, %k, %v, %kv) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0, 0>, scale = 1.0 : f32} : (tensor<2x4x4x16xf32>, tensor<2x2x4x16xf32>, tensor<2x2x4x16xf32>, tensor<2x2xi32>) -> tensor<2x4x4x16xf32>
  return
}

// -----

func.func @kv_len_rank3(%q: tensor<2x4x4x16xf32>, %k: tensor<2x2x4x16xf32>, %v: tensor<2x2x4x16xf32>, %kv: tensor<2x4x1xi32>) {
  // expected-error @+1 {{'fa.gridwise_attention' op kv_len must be a rank-1 tensor of per-batch lengths or a rank-2 tensor of per-(batch, query head) lengths}}
  %o = "fa.gridwise_attention"(%q, %k, %v, %kv) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0, 0>, scale = 1.0 : f32} : (tensor<2x4x4x16xf32>, tensor<2x2x4x16xf32>, tensor<2x2x4x16xf32>, tensor<2x4x1xi32>) -> tensor<2x4x4x16xf32>
  return
}
