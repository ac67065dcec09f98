// Invalid fa ops give located errors (IRDL checks and our C verifier).
// RUN: fa-opt %s --split-input-file --verify-diagnostics

func.func @q_rank(%q: tensor<8x5x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x7x64xf16>) {
  // expected-error @+1 {{'fa.gridwise_attention' op Q must have rank 4, got rank 3}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32} : (tensor<8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x64xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @head_dim(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x32xf16>, %v: tensor<2x2x7x64xf16>) {
  // expected-error @+1 {{K dimension 3 (head dim of Q) is 32, expected 64}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32} : (tensor<2x8x5x64xf16>, tensor<2x2x7x32xf16>, tensor<2x2x7x64xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @gqa(%q: tensor<2x8x5x64xf16>, %k: tensor<2x3x7x64xf16>, %v: tensor<2x3x7x64xf16>) {
  // expected-error @+1 {{query heads (8) must be a multiple of KV heads (3)}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32} : (tensor<2x8x5x64xf16>, tensor<2x3x7x64xf16>, tensor<2x3x7x64xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @kv_keys(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x9x64xf16>) {
  // expected-error @+1 {{V dimension 2 (keys of K) is 9, expected 7}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x9x64xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @dtype(%q: tensor<2x8x5x64xi8>, %k: tensor<2x2x7x64xi8>, %v: tensor<2x2x7x64xi8>) {
  // expected-error @+1 {{Q element type must be f32, f16 or bf16}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32} : (tensor<2x8x5x64xi8>, tensor<2x2x7x64xi8>, tensor<2x2x7x64xi8>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @mixed(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x64xf32>, %v: tensor<2x2x7x64xf16>) {
  // expected-error @+1 {{Q, K and V must have the same element type}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf32>, tensor<2x2x7x64xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @result_shape(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x7x32xf16>) {
  // expected-error @+1 {{result O dimension 3 (value head dim) is 64, expected 32}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x32xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @bias_shape(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x7x64xf16>, %b: tensor<2x1x5x3xf16>) {
  // expected-error @+1 {{bias dimension 3 (keys) is 3, expected 1 or 7}}
  %o = "fa.gridwise_attention"(%q, %k, %v, %b) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x64xf16>, tensor<2x1x5x3xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @kv_len(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x7x64xf16>, %l: tensor<3xi32>) {
  // expected-error @+1 {{kv_len dimension 0 (batch) is 3, expected 2}}
  %o = "fa.gridwise_attention"(%q, %k, %v, %l) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0, 0>, scale = 1.0 : f32} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x64xf16>, tensor<3xi32>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @lse_type(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x7x64xf16>) {
  // expected-error @+1 {{result LSE element type must be f32}}
  %o, %l = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x64xf16>) -> (tensor<2x8x5x64xf16>, tensor<2x8x5xf16>)
  return
}

// -----

func.func @scale_type(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x7x64xf16>) {
  // expected-error @+1 {{attribute 'scale' must be an f32 float}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f64} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x64xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @scale_missing(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x7x64xf16>) {
  // expected-error @+1 {{attribute "scale" is expected but not provided}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x64xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @tuning(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x7x64xf16>) {
  // expected-error @+1 {{attribute 'block_n' is 48, expected a power of two}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32, block_n = 48 : i64} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x64xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @stages(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x7x64xf16>) {
  // expected-error @+1 {{attribute 'stages' is 0, expected a value in [1, 8]}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32, stages = 0 : i64} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x64xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @pv_split(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x7x64xf16>) {
  // expected-error @+1 {{attribute 'pv_split' is 3, expected a power of two}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32, pv_split = 3 : i64} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x64xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @pv_split_range(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x7x64xf16>) {
  // expected-error @+1 {{attribute 'pv_split' is 0, expected a value in [1, 8]}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32, pv_split = 0 : i64} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x64xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

// Each kind of check of the attribute table (lib/Dialect/AttentionAttrs.def).
func.func @scale_finite(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x7x64xf16>) {
  // expected-error @+1 {{attribute 'scale' must be finite}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0x7F800000 : f32} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x64xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @causal_offset_type(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x7x64xf16>) {
  // expected-error @+1 {{attribute 'causal_offset' must be an integer}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32, causal_offset = "diagonal"} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x64xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @block_m_range(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x7x64xf16>) {
  // expected-error @+1 {{attribute 'block_m' is 1024, expected a value in [1, 512]}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32, block_m = 1024 : i64} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x64xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @warps_power_of_two(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x7x64xf16>) {
  // expected-error @+1 {{attribute 'warps' is 6, expected a power of two}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.0 : f32, warps = 6 : i64} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x64xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @k_transposed_not_unit(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x7x64xf16>) {
  // expected-error @+1 {{attribute 'k_transposed' must be a unit attribute}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, k_transposed = 1 : i64, scale = 1.0 : f32} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x64xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @segments(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x7x64xf16>) {
  // expected-error @+1 {{'operandSegmentSizes' attribute for specifying operand segments must have 10 elements}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1>, scale = 1.0 : f32} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x64xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @fill_type(%t: memref<16xf32>) {
  %z = arith.constant 0.0 : f16
  // expected-error @+1 {{fill value type must equal the destination element type}}
  "fa.blockwise_fill"(%t, %z) : (memref<16xf32>, f16) -> ()
  return
}

// -----

func.func @fill_result(%t: tensor<16xf32>) {
  %z = arith.constant 0.0 : f32
  // expected-error @+1 {{must have one result of the destination's type when the destination is a tensor}}
  "fa.blockwise_fill"(%t, %z) : (tensor<16xf32>, f32) -> ()
  return
}

// -----

func.func @reduction_kind(%s: memref<16x32xf32>, %m: memref<16xf32>) {
  // expected-error @+1 {{"min"' does not satisfy the constraint}}
  "fa.blockwise_reduction"(%s, %m) {kind = "min", axis = 1 : i64} : (memref<16x32xf32>, memref<16xf32>) -> ()
  return
}

// -----

func.func @reduction_axis(%s: memref<16x32xf32>, %m: memref<16xf32>) {
  // expected-error @+1 {{attribute 'axis' is 2, expected 0 or 1}}
  "fa.blockwise_reduction"(%s, %m) {kind = "max", axis = 2 : i64} : (memref<16x32xf32>, memref<16xf32>) -> ()
  return
}

// -----

func.func @reduction_shape(%s: memref<16x32xf32>, %m: memref<32xf32>) {
  // expected-error @+1 {{init dimension 0 (kept dimension) is 32, expected 16}}
  "fa.blockwise_reduction"(%s, %m) {kind = "sum", axis = 1 : i64} : (memref<16x32xf32>, memref<32xf32>) -> ()
  return
}

// -----

func.func @gemm_shape(%a: memref<16x32xf16>, %b: memref<16x8xf16>, %c: memref<16x8xf32>) {
  // expected-error @+1 {{B dimension 0 (reduction) is 16, expected 32}}
  "fa.blockwise_gemm"(%a, %b, %c) : (memref<16x32xf16>, memref<16x8xf16>, memref<16x8xf32>) -> ()
  return
}

// -----

func.func @fragment_layout(%s: vector<32xf32>, %m: vector<2xf32>) -> vector<2xf32> {
  // expected-error @+1 {{fragment operands need layout = "mma_m16n8k16"}}
  %r = "fa.blockwise_reduction"(%s, %m) {kind = "max", axis = 1 : i64} : (vector<32xf32>, vector<2xf32>) -> vector<2xf32>
  return %r : vector<2xf32>
}

// -----

func.func @partial_tile(%s: memref<16x32xf32>, %m: memref<16xf32>) {
  // expected-error @+1 {{'partial' applies only to fragment reductions}}
  "fa.blockwise_reduction"(%s, %m) {kind = "sum", axis = 1 : i64, partial} : (memref<16x32xf32>, memref<16xf32>) -> ()
  return
}

// -----

func.func @partial_unit(%s: vector<32xf32>, %m: vector<2xf32>) -> vector<2xf32> {
  // expected-error @+1 {{'partial' must be a unit attribute}}
  %r = "fa.blockwise_reduction"(%s, %m) {kind = "sum", axis = 1 : i64, layout = "mma_m16n8k16", partial = 1 : i64} : (vector<32xf32>, vector<2xf32>) -> vector<2xf32>
  return %r : vector<2xf32>
}

// -----

func.func @fragment_rows(%s: vector<32xf32>, %m: vector<3xf32>) -> vector<3xf32> {
  // expected-error @+1 {{a fragment of 32 entries has no row vector of 3 entries}}
  %r = "fa.blockwise_reduction"(%s, %m) {kind = "max", axis = 1 : i64, layout = "mma_m16n8k16"} : (vector<32xf32>, vector<3xf32>) -> vector<3xf32>
  return %r : vector<3xf32>
}

// -----

func.func @fragment_result(%s: vector<32xf32>, %z: f32) -> vector<16xf32> {
  // expected-error @+1 {{must have one result of the fragment's type}}
  %r = "fa.blockwise_fill"(%s, %z) {layout = "mma_m16n8k16"} : (vector<32xf32>, f32) -> vector<16xf32>
  return %r : vector<16xf32>
}

// -----

func.func @fragment_gemm_a(%p: vector<16xf16>, %v: memref<64x32xf16, 3>, %o: vector<16xf32>) -> vector<16xf32> {
  // expected-error @+1 {{an A fragment must hold k/2 entries per 16-row slice}}
  %r = "fa.blockwise_gemm"(%p, %v, %o) {layout = "mma_m16n8k16"} : (vector<16xf16>, memref<64x32xf16, 3>, vector<16xf32>) -> vector<16xf32>
  return %r : vector<16xf32>
}

// -----

func.func @fragment_gemm_acc(%a: memref<64x64xf16, 3>, %b: memref<64x64xf16, 3>, %c: vector<32xf16>) -> vector<32xf16> {
  // expected-error @+1 {{a fragment accumulator must be a 1-D vector of f32}}
  %r = "fa.blockwise_gemm"(%a, %b, %c) {transpose_b, layout = "mma_m16n8k16"} : (memref<64x64xf16, 3>, memref<64x64xf16, 3>, vector<32xf16>) -> vector<32xf16>
  return %r : vector<32xf16>
}

// -----

func.func @wgmma_tile(%q: memref<64x128xf16, 3>, %k: memref<128x128xf16, 3>, %s: vector<64xf32>) -> vector<64xf32> {
  // expected-error @+1 {{with layout "wgmma_m64", B must be a static [chunks][rows][64] memref tile}}
  %r = "fa.blockwise_gemm"(%q, %k, %s) {transpose_b, layout = "wgmma_m64"} : (memref<64x128xf16, 3>, memref<128x128xf16, 3>, vector<64xf32>) -> vector<64xf32>
  return %r : vector<64xf32>
}

// -----

func.func @wgmma_n(%q: memref<2x64x64xf16, 3>, %k: memref<2x128x64xf16, 3>, %s: vector<32xf32>) -> vector<32xf32> {
  // expected-error @+1 {{a wgmma GEMM takes K a multiple of 16, N a multiple of 8 up to 256 (in B's last chunk), and C of n/2 entries (64 rows per warpgroup)}}
  %r = "fa.blockwise_gemm"(%q, %k, %s) {transpose_b, layout = "wgmma_m64"} : (memref<2x64x64xf16, 3>, memref<2x128x64xf16, 3>, vector<32xf32>) -> vector<32xf32>
  return %r : vector<32xf32>
}

// -----

func.func @wgmma_a_fragment(%p: vector<32xf16>, %v: memref<2x128x64xf16, 3>, %o: vector<64xf32>) -> vector<64xf32> {
  // expected-error @+1 {{an A fragment must hold k/2 entries (64 rows per warpgroup)}}
  %r = "fa.blockwise_gemm"(%p, %v, %o) {layout = "wgmma_m64"} : (vector<32xf16>, memref<2x128x64xf16, 3>, vector<64xf32>) -> vector<64xf32>
  return %r : vector<64xf32>
}

// -----

func.func @wgmma_a_tile(%q: memref<1x64x64xf16, 3>, %k: memref<2x128x64xf16, 3>, %s: vector<64xf32>) -> vector<64xf32> {
  // expected-error @+1 {{A must be a [chunks][64][64] tile with B's reduction dim}}
  %r = "fa.blockwise_gemm"(%q, %k, %s) {transpose_b, layout = "wgmma_m64"} : (memref<1x64x64xf16, 3>, memref<2x128x64xf16, 3>, vector<64xf32>) -> vector<64xf32>
  return %r : vector<64xf32>
}

// -----

func.func @async_mma(%p: vector<16xf16>, %v: memref<32x32xf16, 3>, %o: vector<16xf32>) -> vector<16xf32> {
  // expected-error @+1 {{'async' applies only to "wgmma_m64" fragment GEMMs}}
  %r = "fa.blockwise_gemm"(%p, %v, %o) {layout = "mma_m16n8k16", async} : (vector<16xf16>, memref<32x32xf16, 3>, vector<16xf32>) -> vector<16xf32>
  return %r : vector<16xf32>
}

// -----

func.func @async_tile(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %c: memref<16x16xf32>) {
  // expected-error @+1 {{'async' applies only to "wgmma_m64" fragment GEMMs}}
  "fa.blockwise_gemm"(%a, %b, %c) {async} : (memref<16x16xf32>, memref<16x16xf32>, memref<16x16xf32>) -> ()
  return
}

// -----

func.func @wgmma_n_chunk(%p: vector<64xf16>, %v: memref<2x128x64xf16, 3>, %o: vector<16xf32>) -> vector<16xf32> {
  // expected-error @+1 {{a wgmma GEMM takes K a multiple of 16, N a multiple of 8 up to 256 (in B's last chunk), and C of n/2 entries (64 rows per warpgroup)}}
  %r = "fa.blockwise_gemm"(%p, %v, %o) {layout = "wgmma_m64"} : (vector<64xf16>, memref<2x128x64xf16, 3>, vector<16xf32>) -> vector<16xf32>
  return %r : vector<16xf32>
}

// -----

func.func @wgmma_chunk_stride(%q: memref<2x64x64xf16, 3>, %k: memref<2x128x64xf16, strided<[8200, 64, 1]>, 3>, %s: vector<64xf32>) -> vector<64xf32> {
  // expected-error @+1 {{rows of 64, chunks a multiple of 1024 bytes apart}}
  %r = "fa.blockwise_gemm"(%q, %k, %s) {transpose_b, layout = "wgmma_m64"} : (memref<2x64x64xf16, 3>, memref<2x128x64xf16, strided<[8200, 64, 1]>, 3>, vector<64xf32>) -> vector<64xf32>
  return %r : vector<64xf32>
}

// -----

func.func @swizzle_not_unit(%q: memref<16x64xf16, 3>, %k: memref<32x64xf16, 3>, %s: vector<16xf32>) -> vector<16xf32> {
  // expected-error @+1 {{'swizzle' must be a unit attribute}}
  %r = "fa.blockwise_gemm"(%q, %k, %s) {transpose_b, layout = "mma_m16n8k16", swizzle = 8 : i64} : (memref<16x64xf16, 3>, memref<32x64xf16, 3>, vector<16xf32>) -> vector<16xf32>
  return %r : vector<16xf32>
}

// -----

func.func @swizzle_padded(%q: memref<16x64xf16, strided<[72, 1]>, 3>, %k: memref<32x64xf16, 3>, %s: vector<16xf32>) -> vector<16xf32> {
  // expected-error @+1 {{with 'swizzle', shared-memory tiles need rows of whole 128-byte groups, a static multiple of 128 bytes apart}}
  %r = "fa.blockwise_gemm"(%q, %k, %s) {transpose_b, layout = "mma_m16n8k16", swizzle} : (memref<16x64xf16, strided<[72, 1]>, 3>, memref<32x64xf16, 3>, vector<16xf32>) -> vector<16xf32>
  return %r : vector<16xf32>
}

// -----

func.func @swizzle_narrow(%p: vector<16xf16>, %v: memref<32x32xf16, 3>, %o: vector<16xf32>) -> vector<16xf32> {
  // expected-error @+1 {{with 'swizzle', shared-memory tiles need rows of whole 128-byte groups}}
  %r = "fa.blockwise_gemm"(%p, %v, %o) {layout = "mma_m16n8k16", swizzle} : (vector<16xf16>, memref<32x32xf16, 3>, vector<16xf32>) -> vector<16xf32>
  return %r : vector<16xf32>
}

// -----

func.func @swizzle_wgmma(%q: memref<1x64x64xf16, 3>, %k: memref<1x64x64xf16, 3>, %s: vector<32xf32>) -> vector<32xf32> {
  // expected-error @+1 {{'swizzle' applies only to "mma_m16n8k16" fragment GEMMs}}
  %r = "fa.blockwise_gemm"(%q, %k, %s) {transpose_b, layout = "wgmma_m64", swizzle} : (memref<1x64x64xf16, 3>, memref<1x64x64xf16, 3>, vector<32xf32>) -> vector<32xf32>
  return %r : vector<32xf32>
}

// -----

func.func @swizzle_tile(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %c: memref<16x16xf32>) {
  // expected-error @+1 {{'swizzle' applies only to "mma_m16n8k16" fragment GEMMs}}
  "fa.blockwise_gemm"(%a, %b, %c) {swizzle} : (memref<16x16xf32>, memref<16x16xf32>, memref<16x16xf32>) -> ()
  return
}

// -----

// Layouts: each tensor's dims are read where its attribute puts them.
func.func @bshd_heads(%q: tensor<2x5x8x64xf16>, %k: tensor<2x7x2x64xf16>, %v: tensor<2x7x2x64xf16>) {
  // expected-error @+1 {{V dimension 1 (KV heads of K) is 7, expected 2}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, k_bshd, scale = 1.0 : f32} : (tensor<2x5x8x64xf16>, tensor<2x7x2x64xf16>, tensor<2x7x2x64xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @bshd_result(%q: tensor<2x5x8x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x7x64xf16>) {
  // expected-error @+1 {{result O dimension 2 (query heads) is 5, expected 8}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, q_bshd, o_bshd, scale = 1.0 : f32} : (tensor<2x5x8x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x64xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @bshd_not_unit(%q: tensor<2x8x5x64xf16>, %k: tensor<2x2x7x64xf16>, %v: tensor<2x2x7x64xf16>) {
  // expected-error @+1 {{attribute 'v_bshd' must be a unit attribute}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, v_bshd = true, scale = 1.0 : f32} : (tensor<2x8x5x64xf16>, tensor<2x2x7x64xf16>, tensor<2x2x7x64xf16>) -> tensor<2x8x5x64xf16>
  return
}

// -----

func.func @bshd_k_transposed(%q: tensor<2x8x5x64xf16>, %k: tensor<2x7x2x64xf16>, %v: tensor<2x2x7x64xf16>) {
  // expected-error @+1 {{attributes 'k_transposed' and 'k_bshd' exclude each other}}
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, k_transposed, k_bshd, scale = 1.0 : f32} : (tensor<2x8x5x64xf16>, tensor<2x7x2x64xf16>, tensor<2x2x7x64xf16>) -> tensor<2x8x5x64xf16>
  return
}
