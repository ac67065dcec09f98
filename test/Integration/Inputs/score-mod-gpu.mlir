// Masks and score modifications on the tensor-core kernels (mma.sync main and
// decode, wgmma on sm_90a): scripts/gpu_prepare.sh compiles each chunk, and
// scripts/gpu_check.sh compares the GPU's results with the CPU reference.
// gpu-check-args: --int-max=3

// A window of 40 keys with causal_offset 0 and ALiBi, f16, GQA 4 / 2, M = 150.
func.func private @window(%b: index, %h: index, %i: index, %j: index, %slopes: tensor<4xf32>) -> i1 {
  %w = arith.constant 40 : index
  %d = arith.subi %i, %j : index
  %in = arith.cmpi slt, %d, %w : index
  return %in : i1
}
func.func private @alibi(%s: f32, %b: index, %h: index, %i: index, %j: index, %slopes: tensor<4xf32>) -> f32 {
  %m = tensor.extract %slopes[%h] : tensor<4xf32>
  %ii = arith.index_cast %i : index to i64
  %jj = arith.index_cast %j : index to i64
  %d = arith.subi %jj, %ii : i64
  %df = arith.sitofp %d : i64 to f32
  %t = arith.mulf %m, %df : f32
  %r = arith.addf %s, %t : f32
  return %r : f32
}
func.func @window_alibi(%q: tensor<2x4x150x64xf16>, %k: tensor<2x2x150x64xf16>, %v: tensor<2x2x150x64xf16>, %slopes: tensor<4xf32>) -> tensor<2x4x150x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %slopes) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.125 : f32, causal_offset = 0 : i64, mask = @window, score_mod = @alibi}
      : (tensor<2x4x150x64xf16>, tensor<2x2x150x64xf16>, tensor<2x2x150x64xf16>, tensor<4xf32>) -> tensor<2x4x150x64xf16>
  return %o : tensor<2x4x150x64xf16>
}

// -----

// Softcap 5 with the LSE, bf16, D = 128, M = 130, N = 257.
func.func private @cap(%s: f32, %b: index, %h: index, %i: index, %j: index) -> f32 {
  %c = arith.constant 5.0 : f32
  %x = arith.divf %s, %c : f32
  %t = math.tanh %x : f32
  %r = arith.mulf %t, %c : f32
  return %r : f32
}
func.func @softcap(%q: tensor<1x2x130x128xbf16>, %k: tensor<1x2x257x128xbf16>, %v: tensor<1x2x257x128xbf16>) -> (tensor<1x2x130x128xbf16>, tensor<1x2x130xf32>) {
  %o, %l = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.25 : f32, score_mod = @cap}
      : (tensor<1x2x130x128xbf16>, tensor<1x2x257x128xbf16>, tensor<1x2x257x128xbf16>) -> (tensor<1x2x130x128xbf16>, tensor<1x2x130xf32>)
  return %o, %l : tensor<1x2x130x128xbf16>, tensor<1x2x130xf32>
}

// -----

// gpu-check-args: --int-max=3
// Documents (ids in [0, 3]) and causal, f16, with the LSE: rows whose
// document starts later see only their own keys.
func.func private @same_doc(%b: index, %h: index, %i: index, %j: index, %doc: tensor<200xi32>) -> i1 {
  %di = tensor.extract %doc[%i] : tensor<200xi32>
  %dj = tensor.extract %doc[%j] : tensor<200xi32>
  %r = arith.cmpi eq, %di, %dj : i32
  return %r : i1
}
func.func @documents(%q: tensor<1x2x200x64xf16>, %k: tensor<1x2x200x64xf16>, %v: tensor<1x2x200x64xf16>, %doc: tensor<200xi32>) -> (tensor<1x2x200x64xf16>, tensor<1x2x200xf32>) {
  %o, %l = "fa.gridwise_attention"(%q, %k, %v, %doc) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.125 : f32, causal_offset = 0 : i64, mask = @same_doc}
      : (tensor<1x2x200x64xf16>, tensor<1x2x200x64xf16>, tensor<1x2x200x64xf16>, tensor<200xi32>) -> (tensor<1x2x200x64xf16>, tensor<1x2x200xf32>)
  return %o, %l : tensor<1x2x200x64xf16>, tensor<1x2x200xf32>
}

// -----

// Decode (M = 1, GQA 8 / 2: heads not packed, the functions see h) with
// ALiBi and a window of 100 keys from the end.
func.func private @recent(%b: index, %h: index, %i: index, %j: index, %slopes: tensor<8xf32>) -> i1 {
  %c = arith.constant 400 : index
  %r = arith.cmpi uge, %j, %c : index
  return %r : i1
}
func.func private @alibi8(%s: f32, %b: index, %h: index, %i: index, %j: index, %slopes: tensor<8xf32>) -> f32 {
  %m = tensor.extract %slopes[%h] : tensor<8xf32>
  %jj = arith.index_cast %j : index to i64
  %df = arith.sitofp %jj : i64 to f32
  %t = arith.mulf %m, %df : f32
  %r = arith.addf %s, %t : f32
  return %r : f32
}
func.func @decode(%q: tensor<2x8x1x128xf16>, %k: tensor<2x2x500x128xf16>, %v: tensor<2x2x500x128xf16>, %slopes: tensor<8xf32>) -> tensor<2x8x1x128xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %slopes) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.088 : f32, mask = @recent, score_mod = @alibi8}
      : (tensor<2x8x1x128xf16>, tensor<2x2x500x128xf16>, tensor<2x2x500x128xf16>, tensor<8xf32>) -> tensor<2x8x1x128xf16>
  return %o : tensor<2x8x1x128xf16>
}

// -----

// Block skipping: a window of 200 keys over 1100 (causal_offset 0), f16,
// D = 64: each query tile visits only the key tiles the window may show.
func.func private @win200(%b: index, %h: index, %i: index, %j: index) -> i1 {
  %w = arith.constant 200 : index
  %d = arith.subi %i, %j : index
  %in = arith.cmpi slt, %d, %w : index
  return %in : i1
}
func.func @window_skip(%q: tensor<1x4x1100x64xf16>, %k: tensor<1x4x1100x64xf16>, %v: tensor<1x4x1100x64xf16>) -> (tensor<1x4x1100x64xf16>, tensor<1x4x1100xf32>) {
  %o, %l = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32, causal_offset = 0 : i64, mask = @win200}
      : (tensor<1x4x1100x64xf16>, tensor<1x4x1100x64xf16>, tensor<1x4x1100x64xf16>) -> (tensor<1x4x1100x64xf16>, tensor<1x4x1100xf32>)
  return %o, %l : tensor<1x4x1100x64xf16>, tensor<1x4x1100xf32>
}

// -----

// Chunks of 192 (i64 floor division), causal, bf16, D = 128, GQA 4 / 1.
func.func private @chunk192(%b: index, %h: index, %i: index, %j: index) -> i1 {
  %ii = arith.index_cast %i : index to i64
  %jj = arith.index_cast %j : index to i64
  %c = arith.constant 192 : i64
  %qi = arith.floordivsi %ii, %c : i64
  %kj = arith.floordivsi %jj, %c : i64
  %r = arith.cmpi eq, %qi, %kj : i64
  return %r : i1
}
func.func @chunked_skip(%q: tensor<2x4x700x128xbf16>, %k: tensor<2x1x700x128xbf16>, %v: tensor<2x1x700x128xbf16>) -> tensor<2x4x700x128xbf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.088 : f32, causal_offset = 0 : i64, mask = @chunk192}
      : (tensor<2x4x700x128xbf16>, tensor<2x1x700x128xbf16>, tensor<2x1x700x128xbf16>) -> tensor<2x4x700x128xbf16>
  return %o : tensor<2x4x700x128xbf16>
}

// -----

// Prefix-LM (k < 100 or k <= q) without causal_offset, f16, and a window
// from the other side for decode-sized M = 5 (the decode kernel, keys split).
func.func private @prefix100(%b: index, %h: index, %i: index, %j: index) -> i1 {
  %p = arith.constant 100 : index
  %inp = arith.cmpi slt, %j, %p : index
  %c = arith.cmpi sle, %j, %i : index
  %r = arith.ori %inp, %c : i1
  return %r : i1
}
func.func @prefix_skip(%q: tensor<1x2x600x64xf16>, %k: tensor<1x2x900x64xf16>, %v: tensor<1x2x900x64xf16>) -> tensor<1x2x600x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32, mask = @prefix100}
      : (tensor<1x2x600x64xf16>, tensor<1x2x900x64xf16>, tensor<1x2x900x64xf16>) -> tensor<1x2x600x64xf16>
  return %o : tensor<1x2x600x64xf16>
}

// -----

func.func private @late(%b: index, %h: index, %i: index, %j: index) -> i1 {
  %c = arith.constant 3000 : index
  %r = arith.cmpi uge, %j, %c : index
  return %r : i1
}
func.func @decode_skip(%q: tensor<2x4x5x64xf16>, %k: tensor<2x4x4000x64xf16>, %v: tensor<2x4x4000x64xf16>) -> tensor<2x4x5x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32, mask = @late}
      : (tensor<2x4x5x64xf16>, tensor<2x4x4000x64xf16>, tensor<2x4x4000x64xf16>) -> tensor<2x4x5x64xf16>
  return %o : tensor<2x4x5x64xf16>
}

// -----

// Sinks on the tensor cores (gpt-oss: a window of 128 and a sink per head),
// f32 sinks, bf16, GQA 8 / 2, with the LSE; M = 150 (main kernel).
func.func private @win128(%b: index, %h: index, %i: index, %j: index) -> i1 {
  %w = arith.constant 128 : index
  %d = arith.subi %i, %j : index
  %in = arith.cmpi slt, %d, %w : index
  return %in : i1
}
func.func @sinks_window(%q: tensor<1x8x150x64xbf16>, %k: tensor<1x2x150x64xbf16>, %v: tensor<1x2x150x64xbf16>, %s: tensor<8xf32>) -> (tensor<1x8x150x64xbf16>, tensor<1x8x150xf32>) {
  %o, %l = "fa.gridwise_attention"(%q, %k, %v, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 0, 0, 0, 0>, scale = 0.125 : f32, causal_offset = 0 : i64, mask = @win128}
      : (tensor<1x8x150x64xbf16>, tensor<1x2x150x64xbf16>, tensor<1x2x150x64xbf16>, tensor<8xf32>) -> (tensor<1x8x150x64xbf16>, tensor<1x8x150xf32>)
  return %o, %l : tensor<1x8x150x64xbf16>, tensor<1x8x150xf32>
}

// -----

// gpu-check-args: --int-max=300
// Sinks (f16) at M = 3 (the main kernel: the decode kernel's key splits do
// not take a sink), keys past kv_len, f16.
func.func @sinks_short(%q: tensor<2x4x3x128xf16>, %k: tensor<2x4x300x128xf16>, %v: tensor<2x4x300x128xf16>, %len: tensor<2xi32>, %s: tensor<4xf16>) -> tensor<2x4x3x128xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %len, %s) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 0, 0, 0, 0>, scale = 0.088 : f32}
      : (tensor<2x4x3x128xf16>, tensor<2x4x300x128xf16>, tensor<2x4x300x128xf16>, tensor<2xi32>, tensor<4xf16>) -> tensor<2x4x3x128xf16>
  return %o : tensor<2x4x3x128xf16>
}

// -----

// Packed documents (data: ids per batch row, sorted, 70 long, shifted by
// 37 b) and key padding (flags, j < 550 - 100 b), causal, bf16, B = 2, N =
// 600: the kernels summarize both captures (MaskSummary.c), visit only the
// key tiles of a query tile's documents and skip the mask inside one
// document; rows whose keys are all padding are fully masked.
func.func private @doc_pad(%b: index, %h: index, %i: index, %j: index, %doc: tensor<2x600xi32>, %pad: tensor<2x600xi1>) -> i1 {
  %di = tensor.extract %doc[%b, %i] : tensor<2x600xi32>
  %dj = tensor.extract %doc[%b, %j] : tensor<2x600xi32>
  %same = arith.cmpi eq, %di, %dj : i32
  %p = tensor.extract %pad[%b, %j] : tensor<2x600xi1>
  %r = arith.andi %same, %p : i1
  return %r : i1
}
func.func @documents_packed(%q: tensor<2x4x600x64xbf16>, %k: tensor<2x2x600x64xbf16>, %v: tensor<2x2x600x64xbf16>) -> tensor<2x4x600x64xbf16> {
  %e0 = tensor.empty() : tensor<2x600xi32>
  %doc = linalg.generic {indexing_maps = [affine_map<(b, n) -> (b, n)>], iterator_types = ["parallel", "parallel"]} outs(%e0 : tensor<2x600xi32>) {
  ^bb0(%x: i32):
    %b = linalg.index 0 : index
    %n = linalg.index 1 : index
    %c37 = arith.constant 37 : index
    %c70 = arith.constant 70 : index
    %sh = arith.muli %b, %c37 : index
    %s = arith.addi %n, %sh : index
    %d = arith.divui %s, %c70 : index
    %di = arith.index_cast %d : index to i32
    linalg.yield %di : i32
  } -> tensor<2x600xi32>
  %e1 = tensor.empty() : tensor<2x600xi1>
  %pad = linalg.generic {indexing_maps = [affine_map<(b, n) -> (b, n)>], iterator_types = ["parallel", "parallel"]} outs(%e1 : tensor<2x600xi1>) {
  ^bb0(%x: i1):
    %b = linalg.index 0 : index
    %n = linalg.index 1 : index
    %c100 = arith.constant 100 : index
    %c550 = arith.constant 550 : index
    %sh = arith.muli %b, %c100 : index
    %len = arith.subi %c550, %sh : index
    %in = arith.cmpi ult, %n, %len : index
    linalg.yield %in : i1
  } -> tensor<2x600xi1>
  %o = "fa.gridwise_attention"(%q, %k, %v, %doc, %pad) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 1, 0, 0>, scale = 0.125 : f32, causal_offset = 0 : i64, mask = @doc_pad}
      : (tensor<2x4x600x64xbf16>, tensor<2x2x600x64xbf16>, tensor<2x2x600x64xbf16>, tensor<2x600xi32>, tensor<2x600xi1>) -> tensor<2x4x600x64xbf16>
  return %o : tensor<2x4x600x64xbf16>
}

// -----

// A T5-like table of relative positions (clamped to +-64), f16, non-causal,
// M = 700, N = 900: key tiles far from the diagonal read one table entry
// (the tile-uniform copy), the others one per score.
func.func private @relbias(%s: f32, %b: index, %h: index, %i: index, %j: index, %table: tensor<129x4xf32>) -> f32 {
  %ii = arith.index_cast %i : index to i64
  %jj = arith.index_cast %j : index to i64
  %d = arith.subi %jj, %ii : i64
  %lo = arith.constant -64 : i64
  %hi = arith.constant 64 : i64
  %c0 = arith.maxsi %d, %lo : i64
  %c1 = arith.minsi %c0, %hi : i64
  %r = arith.subi %c1, %lo : i64
  %ri = arith.index_cast %r : i64 to index
  %x = tensor.extract %table[%ri, %h] : tensor<129x4xf32>
  %y = arith.addf %s, %x : f32
  return %y : f32
}
func.func @relbias_table(%q: tensor<1x4x700x64xf16>, %k: tensor<1x4x900x64xf16>, %v: tensor<1x4x900x64xf16>, %table: tensor<129x4xf32>) -> tensor<1x4x700x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %table) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.125 : f32, score_mod = @relbias}
      : (tensor<1x4x700x64xf16>, tensor<1x4x900x64xf16>, tensor<1x4x900x64xf16>, tensor<129x4xf32>) -> tensor<1x4x700x64xf16>
  return %o : tensor<1x4x700x64xf16>
}

// -----

// A conversion of i - j + 3000000 (the exact split of an index conversion:
// a constant, the key negated) and a table read at a per-key position,
// bf16, causal, GQA 2, M = N = 520.
func.func private @skewed(%s: f32, %b: index, %h: index, %i: index, %j: index, %w: tensor<520xf32>) -> f32 {
  %c = arith.constant 3000000 : index
  %d0 = arith.subi %i, %j : index
  %d = arith.addi %d0, %c : index
  %di = arith.index_cast %d : index to i64
  %df = arith.sitofp %di : i64 to f32
  %e = arith.constant 3000000.0 : f32
  %u = arith.subf %df, %e : f32
  %m = arith.constant -0.03125 : f32
  %t = arith.mulf %u, %m : f32
  %x = tensor.extract %w[%j] : tensor<520xf32>
  %y = arith.addf %s, %t : f32
  %z = arith.addf %y, %x : f32
  return %z : f32
}
func.func @skewed_alibi(%q: tensor<2x4x520x128xbf16>, %k: tensor<2x2x520x128xbf16>, %v: tensor<2x2x520x128xbf16>, %w: tensor<520xf32>) -> (tensor<2x4x520x128xbf16>, tensor<2x4x520xf32>) {
  %o, %l = "fa.gridwise_attention"(%q, %k, %v, %w) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.088388 : f32, causal_offset = 0 : i64, score_mod = @skewed}
      : (tensor<2x4x520x128xbf16>, tensor<2x2x520x128xbf16>, tensor<2x2x520x128xbf16>, tensor<520xf32>) -> (tensor<2x4x520x128xbf16>, tensor<2x4x520xf32>)
  return %o, %l : tensor<2x4x520x128xbf16>, tensor<2x4x520xf32>
}

// -----

// T5's bidirectional buckets (32 buckets, max distance 128: HF's
// _relative_position_bucket, log-spaced past 8), f16, M = N = 700: the
// bucket goes through floats (log), and key tiles past the last distance take
// the tile-uniform copy by the float interval rules (MaskRange.c).
func.func private @t5(%s: f32, %b: index, %h: index, %i: index, %j: index, %table: tensor<32x4xf32>) -> f32 {
  %ii = arith.index_cast %i : index to i64
  %jj = arith.index_cast %j : index to i64
  %rel = arith.subi %jj, %ii : i64
  %c0 = arith.constant 0 : i64
  %c8 = arith.constant 8 : i64
  %c15 = arith.constant 15 : i64
  %c16 = arith.constant 16 : i64
  %gt = arith.cmpi sgt, %rel, %c0 : i64
  %gti = arith.extui %gt : i1 to i64
  %pos = arith.muli %gti, %c16 : i64
  %neg = arith.subi %c0, %rel : i64
  %a = arith.maxsi %rel, %neg : i64
  %small = arith.cmpi slt, %a, %c8 : i64
  %af = arith.sitofp %a : i64 to f32
  %f8 = arith.constant 8.0 : f32
  %q = arith.divf %af, %f8 : f32
  %l = math.log %q : f32
  %ld = arith.constant 2.77258872 : f32
  %l2 = arith.divf %l, %ld : f32
  %l3 = arith.mulf %l2, %f8 : f32
  %li = arith.fptosi %l3 : f32 to i64
  %large0 = arith.addi %c8, %li : i64
  %large = arith.minsi %large0, %c15 : i64
  %sel = arith.select %small, %a, %large : i64
  %bucket = arith.addi %pos, %sel : i64
  %bi = arith.index_cast %bucket : i64 to index
  %x = tensor.extract %table[%bi, %h] : tensor<32x4xf32>
  %y = arith.addf %s, %x : f32
  return %y : f32
}
func.func @t5_buckets(%q: tensor<1x4x700x64xf16>, %k: tensor<1x4x700x64xf16>, %v: tensor<1x4x700x64xf16>, %table: tensor<32x4xf32>) -> tensor<1x4x700x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %table) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.125 : f32, score_mod = @t5}
      : (tensor<1x4x700x64xf16>, tensor<1x4x700x64xf16>, tensor<1x4x700x64xf16>, tensor<32x4xf32>) -> tensor<1x4x700x64xf16>
  return %o : tensor<1x4x700x64xf16>
}

// -----

// Packed documents of 90 tokens, causal, D = 128 bf16 (the Hopper kernel's
// two consumers of 64 rows), N = 700: documents start inside 64-row blocks
// and 128-row work items, so a work item's two consumers see different
// documents: tiles outside the keys the key-range table says the mask may
// show the item's rows are hidden whole (no per-score test), those it
// must show whole unmasked, the others masked per score.
func.func private @doc90(%b: index, %h: index, %i: index, %j: index, %doc: tensor<700xi32>) -> i1 {
  %di = tensor.extract %doc[%i] : tensor<700xi32>
  %dj = tensor.extract %doc[%j] : tensor<700xi32>
  %r = arith.cmpi eq, %di, %dj : i32
  return %r : i1
}
func.func @documents_straddle(%q: tensor<1x2x700x128xbf16>, %k: tensor<1x2x700x128xbf16>, %v: tensor<1x2x700x128xbf16>) -> (tensor<1x2x700x128xbf16>, tensor<1x2x700xf32>) {
  %e0 = tensor.empty() : tensor<700xi32>
  %doc = linalg.generic {indexing_maps = [affine_map<(n) -> (n)>], iterator_types = ["parallel"]} outs(%e0 : tensor<700xi32>) {
  ^bb0(%x: i32):
    %n = linalg.index 0 : index
    %c90 = arith.constant 90 : index
    %d = arith.divui %n, %c90 : index
    %di = arith.index_cast %d : index to i32
    linalg.yield %di : i32
  } -> tensor<700xi32>
  %o, %l = "fa.gridwise_attention"(%q, %k, %v, %doc) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.08838834764 : f32, causal_offset = 0 : i64, mask = @doc90}
      : (tensor<1x2x700x128xbf16>, tensor<1x2x700x128xbf16>, tensor<1x2x700x128xbf16>, tensor<700xi32>) -> (tensor<1x2x700x128xbf16>, tensor<1x2x700xf32>)
  return %o, %l : tensor<1x2x700x128xbf16>, tensor<1x2x700xf32>
}

// -----
// Documents whose ids repeat (runs of 50 with ids 0, 1, 2, 0, 1, 2, ...),
// causal, D = 128 bf16, N = 700, with the LSE: a row sees its own run and
// the earlier runs of its id: the key-range table's first key lies runs
// before the row's own run (attention_key_table.mlir), the tiles between
// are masked per score, and a work item's two consumers see different runs.
func.func private @doc_repeat(%b: index, %h: index, %i: index, %j: index, %doc: tensor<700xi32>) -> i1 {
  %di = tensor.extract %doc[%i] : tensor<700xi32>
  %dj = tensor.extract %doc[%j] : tensor<700xi32>
  %r = arith.cmpi eq, %di, %dj : i32
  return %r : i1
}
func.func @documents_repeat(%q: tensor<1x2x700x128xbf16>, %k: tensor<1x2x700x128xbf16>, %v: tensor<1x2x700x128xbf16>) -> (tensor<1x2x700x128xbf16>, tensor<1x2x700xf32>) {
  %e0 = tensor.empty() : tensor<700xi32>
  %doc = linalg.generic {indexing_maps = [affine_map<(n) -> (n)>], iterator_types = ["parallel"]} outs(%e0 : tensor<700xi32>) {
  ^bb0(%x: i32):
    %n = linalg.index 0 : index
    %c50 = arith.constant 50 : index
    %c3 = arith.constant 3 : index
    %r = arith.divui %n, %c50 : index
    %d = arith.remui %r, %c3 : index
    %di = arith.index_cast %d : index to i32
    linalg.yield %di : i32
  } -> tensor<700xi32>
  %o, %l = "fa.gridwise_attention"(%q, %k, %v, %doc) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.08838834764 : f32, causal_offset = 0 : i64, mask = @doc_repeat}
      : (tensor<1x2x700x128xbf16>, tensor<1x2x700x128xbf16>, tensor<1x2x700x128xbf16>, tensor<700xi32>) -> (tensor<1x2x700x128xbf16>, tensor<1x2x700xf32>)
  return %o, %l : tensor<1x2x700x128xbf16>, tensor<1x2x700xf32>
}

// -----
// Packed documents of 170 tokens, causal, GQA (8 query heads, 2 key/value
// heads), D = 80 bf16, B = 2, N = 1200 (a ragged last query tile): 160
// work items of 128 rows, more than an H100/H200 has SMs, so the
// persistent Hopper kernel's workgroups take two rounds of the key-range
// table's work order (attention_key_table.mlir), the second backwards.
func.func private @doc170(%b: index, %h: index, %i: index, %j: index, %doc: tensor<1200xi32>) -> i1 {
  %di = tensor.extract %doc[%i] : tensor<1200xi32>
  %dj = tensor.extract %doc[%j] : tensor<1200xi32>
  %r = arith.cmpi eq, %di, %dj : i32
  return %r : i1
}
func.func @documents_rounds(%q: tensor<2x8x1200x80xbf16>, %k: tensor<2x2x1200x80xbf16>, %v: tensor<2x2x1200x80xbf16>) -> tensor<2x8x1200x80xbf16> {
  %e0 = tensor.empty() : tensor<1200xi32>
  %doc = linalg.generic {indexing_maps = [affine_map<(n) -> (n)>], iterator_types = ["parallel"]} outs(%e0 : tensor<1200xi32>) {
  ^bb0(%x: i32):
    %n = linalg.index 0 : index
    %c170 = arith.constant 170 : index
    %d = arith.divui %n, %c170 : index
    %di = arith.index_cast %d : index to i32
    linalg.yield %di : i32
  } -> tensor<1200xi32>
  %o = "fa.gridwise_attention"(%q, %k, %v, %doc) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.1118033989 : f32, causal_offset = 0 : i64, mask = @doc170}
      : (tensor<2x8x1200x80xbf16>, tensor<2x2x1200x80xbf16>, tensor<2x2x1200x80xbf16>, tensor<1200xi32>) -> tensor<2x8x1200x80xbf16>
  return %o : tensor<2x8x1200x80xbf16>
}

// -----
// Packed documents of sorted ids whose starts fall anywhere (n^2 / 150000:
// 7 documents of 387 down to 52 tokens, more work items than query tiles),
// D = 128 bf16, M = N = 1000: the key-range table's work order cuts the
// Hopper kernel's work items at the documents' starts (DOC_RUNS,
// attention_key_table.mlir), their keys from the document's first; a
// document's last item stores its rows from its threads. Causal with the
// LSE, and without the causal mask (keys to the document's end).
func.func private @doc_sq(%b: index, %h: index, %i: index, %j: index, %doc: tensor<1000xi32>) -> i1 {
  %di = tensor.extract %doc[%i] : tensor<1000xi32>
  %dj = tensor.extract %doc[%j] : tensor<1000xi32>
  %r = arith.cmpi eq, %di, %dj : i32
  return %r : i1
}
func.func @documents_runs(%q: tensor<1x2x1000x128xbf16>, %k: tensor<1x2x1000x128xbf16>, %v: tensor<1x2x1000x128xbf16>) -> (tensor<1x2x1000x128xbf16>, tensor<1x2x1000xf32>, tensor<1x2x1000x128xbf16>) {
  %e0 = tensor.empty() : tensor<1000xi32>
  %doc = linalg.generic {indexing_maps = [affine_map<(n) -> (n)>], iterator_types = ["parallel"]} outs(%e0 : tensor<1000xi32>) {
  ^bb0(%x: i32):
    %n = linalg.index 0 : index
    %nn = arith.muli %n, %n : index
    %c = arith.constant 150000 : index
    %d = arith.divui %nn, %c : index
    %di = arith.index_cast %d : index to i32
    linalg.yield %di : i32
  } -> tensor<1000xi32>
  %o, %l = "fa.gridwise_attention"(%q, %k, %v, %doc) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.08838834764 : f32, causal_offset = 0 : i64, mask = @doc_sq}
      : (tensor<1x2x1000x128xbf16>, tensor<1x2x1000x128xbf16>, tensor<1x2x1000x128xbf16>, tensor<1000xi32>) -> (tensor<1x2x1000x128xbf16>, tensor<1x2x1000xf32>)
  %o2 = "fa.gridwise_attention"(%q, %k, %v, %doc) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.08838834764 : f32, mask = @doc_sq}
      : (tensor<1x2x1000x128xbf16>, tensor<1x2x1000x128xbf16>, tensor<1x2x1000x128xbf16>, tensor<1000xi32>) -> tensor<1x2x1000x128xbf16>
  return %o, %l, %o2 : tensor<1x2x1000x128xbf16>, tensor<1x2x1000xf32>, tensor<1x2x1000x128xbf16>
}
