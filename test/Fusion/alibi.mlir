// ALiBi (slope[h] * (j - i), computed from iotas and a constant) beside a causal
// mask with a finite fill (masked_fill(j > i, finfo.min)): fusion bounds the bias
// (constants, iotas, conversions), the triangle keeps key 0 of every row, and the
// fill dominates every visible score (checkFiniteMask), so it acts as -inf: the op
// takes causal_offset = 0 and the bias, which it computes from the indices and
// the slopes (a capture) as its score_mod (test/Fusion/index-bias.mlir). Beside
// a bias fusion cannot bound (a function argument, uitofp's huge values) the
// fill is no mask (a bias of finfo.min ties with it): score_mod computes the
// source's select on every pair, no causal_offset (test/Fusion/fill-in-score-mod.mlir).
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// RUN: fa-check --split-input-file %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-4: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// CHECK-LABEL: func.func @alibi_causal_lowest
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %[[SLOPES:.*]]) {causal_offset = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 2.500000e-01 : f32, score_mod = @fa_bias_0} : ({{.*}}, tensor<2xf32>)
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#h = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @alibi_causal_lowest(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %slopes = arith.constant dense<[0.5, 0.25]> : tensor<2xf32>
  %s0 = tensor.empty() : tensor<1x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) outs(%sz : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  // As torch-mlir writes it: the relative position in i64 from iotas, then sitofp
  // in a generic of its own, then the slope of the head times it.
  %r0 = tensor.empty() : tensor<8x8xi64>
  %rel = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%r0 : tensor<8x8xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %ji = arith.index_cast %j : index to i64
    %d = arith.subi %ji, %ii : i64
    linalg.yield %d : i64
  } -> tensor<8x8xi64>
  %f0 = tensor.empty() : tensor<8x8xf32>
  %relf = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%rel : tensor<8x8xi64>) outs(%f0 : tensor<8x8xf32>) {
  ^bb0(%x: i64, %o: f32):
    %y = arith.sitofp %x : i64 to f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %bias = linalg.generic {indexing_maps = [#h, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%slopes, %relf : tensor<2xf32>, tensor<8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) {
  ^bb0(%slope: f32, %r: f32, %o: f32):
    %y = arith.mulf %slope, %r : f32
    linalg.yield %y : f32
  } -> tensor<1x2x8x8xf32>
  %masked = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) {
  ^bb0(%x: f32, %bv: f32, %o: f32):
    %quarter = arith.constant 0.25 : f32
    %fill = arith.constant -3.40282347E+38 : f32
    %xs = arith.mulf %x, %quarter : f32
    %xb = arith.addf %xs, %bv : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c = arith.cmpi sgt, %j, %i : index
    %y = arith.select %c, %fill, %xb : f32
    linalg.yield %y : f32
  } -> tensor<1x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %o0 = tensor.empty() : tensor<1x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32>) outs(%oz : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

// CHECK-LABEL: func.func @arg_bias_causal_lowest
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %arg3) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 2.500000e-01 : f32, score_mod = @fa_bias_0}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention (its mask's finite fill and the bias computed in the kernel as score_mod, every key tile visited)
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#h = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @arg_bias_causal_lowest(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %bias: tensor<1x2x8x8xf32>) -> tensor<1x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<1x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) outs(%sz : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %masked = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) {
  ^bb0(%x: f32, %bv: f32, %o: f32):
    %quarter = arith.constant 0.25 : f32
    %fill = arith.constant -3.40282347E+38 : f32
    %xs = arith.mulf %x, %quarter : f32
    %xb = arith.addf %xs, %bv : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c = arith.cmpi sgt, %j, %i : index
    %y = arith.select %c, %fill, %xb : f32
    linalg.yield %y : f32
  } -> tensor<1x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %o0 = tensor.empty() : tensor<1x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32>) outs(%oz : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

// The same with a slope of 5000: the bias reaches -35000, but it is added before
// the fill of the lowest f32 replaces the masked scores, and bounded: every
// visible score stays above the fill by f32's step there (2^104), so the fill
// acts as -inf (issue 35: it was refused while the rule was a +-1e4 bound).
// CHECK-LABEL: func.func @steep_bias_causal_lowest
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %{{.*}}) {causal_offset = 0 : i64
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#h = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @steep_bias_causal_lowest(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %slopes = arith.constant dense<[5.0e+03, 0.25]> : tensor<2xf32>
  %s0 = tensor.empty() : tensor<1x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) outs(%sz : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  // As torch-mlir writes it: the relative position in i64 from iotas, then sitofp
  // in a generic of its own, then the slope of the head times it.
  %r0 = tensor.empty() : tensor<8x8xi64>
  %rel = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%r0 : tensor<8x8xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %ji = arith.index_cast %j : index to i64
    %d = arith.subi %ji, %ii : i64
    linalg.yield %d : i64
  } -> tensor<8x8xi64>
  %f0 = tensor.empty() : tensor<8x8xf32>
  %relf = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%rel : tensor<8x8xi64>) outs(%f0 : tensor<8x8xf32>) {
  ^bb0(%x: i64, %o: f32):
    %y = arith.sitofp %x : i64 to f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %bias = linalg.generic {indexing_maps = [#h, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%slopes, %relf : tensor<2xf32>, tensor<8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) {
  ^bb0(%slope: f32, %r: f32, %o: f32):
    %y = arith.mulf %slope, %r : f32
    linalg.yield %y : f32
  } -> tensor<1x2x8x8xf32>
  %masked = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) {
  ^bb0(%x: f32, %bv: f32, %o: f32):
    %quarter = arith.constant 0.25 : f32
    %fill = arith.constant -3.40282347E+38 : f32
    %xs = arith.mulf %x, %quarter : f32
    %xb = arith.addf %xs, %bv : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c = arith.cmpi sgt, %j, %i : index
    %y = arith.select %c, %fill, %xb : f32
    linalg.yield %y : f32
  } -> tensor<1x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %o0 = tensor.empty() : tensor<1x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32>) outs(%oz : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

// uitofp reads the negative relative positions as huge values: no bound, so the
// fill stays a select in score_mod.
// CHECK-LABEL: func.func @unsigned_rel_causal_lowest
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 2.500000e-01 : f32, score_mod = @fa_bias_0}
// CHECK: arith.uitofp
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention (its mask's finite fill and the bias computed in the kernel as score_mod, every key tile visited)
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#h = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @unsigned_rel_causal_lowest(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %slopes = arith.constant dense<[0.5, 0.25]> : tensor<2xf32>
  %s0 = tensor.empty() : tensor<1x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) outs(%sz : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  // As torch-mlir writes it: the relative position in i64 from iotas, then sitofp
  // in a generic of its own, then the slope of the head times it.
  %r0 = tensor.empty() : tensor<8x8xi64>
  %rel = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%r0 : tensor<8x8xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %ji = arith.index_cast %j : index to i64
    %d = arith.subi %ji, %ii : i64
    linalg.yield %d : i64
  } -> tensor<8x8xi64>
  %f0 = tensor.empty() : tensor<8x8xf32>
  %relf = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%rel : tensor<8x8xi64>) outs(%f0 : tensor<8x8xf32>) {
  ^bb0(%x: i64, %o: f32):
    %y = arith.uitofp %x : i64 to f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %bias = linalg.generic {indexing_maps = [#h, affine_map<(d0, d1, d2, d3) -> (d2, d3)>, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%slopes, %relf : tensor<2xf32>, tensor<8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) {
  ^bb0(%slope: f32, %r: f32, %o: f32):
    %y = arith.mulf %slope, %r : f32
    linalg.yield %y : f32
  } -> tensor<1x2x8x8xf32>
  %masked = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) {
  ^bb0(%x: f32, %bv: f32, %o: f32):
    %quarter = arith.constant 0.25 : f32
    %fill = arith.constant -3.40282347E+38 : f32
    %xs = arith.mulf %x, %quarter : f32
    %xb = arith.addf %xs, %bv : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c = arith.cmpi sgt, %j, %i : index
    %y = arith.select %c, %fill, %xb : f32
    linalg.yield %y : f32
  } -> tensor<1x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%masked : tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %o0 = tensor.empty() : tensor<1x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32>) outs(%oz : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

