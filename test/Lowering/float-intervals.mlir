// The interval rules on f32 values (lib/Lowering/MaskRange.c: sitofp, add,
// sub, mul, div by an interval without 0, log on [0, inf], floor / ceil /
// roundeven, min / max, select, fptosi back to integers) are sound: a mask
// that hides keys by T5's log-spaced buckets (bucket 15 or 31: past the
// last distance, 8 * log(|j - i| / 8) / log(16) >= 7 in both directions)
// skips the key tiles they prove hidden and still agrees with the reference
// on every row, on 8 x 8 tiles. The same rules let score_mod's tile test
// see T5's buckets as one value past the last distance
// (test/Integration/Inputs/score-mod-gpu.mlir, t5_buckets, on the GPU).
// RUN: fa-check --input-scale=2 %s | FileCheck %s --check-prefix=AGREE
// RUN: fa-opt --fa-lower-attention %s | FileCheck %s
// AGREE: t5_band: output 0 {{.*}} ok
// AGREE: t5_band: output 1 {{.*}} ok
// CHECK-LABEL: func.func @t5_band
// CHECK: math.log
// CHECK: arith.fptosi %{{.*}} : f32 to i64
func.func private @near(%b: index, %h: index, %i: index, %j: index) -> i1 {
  %ii = arith.index_cast %i : index to i64
  %jj = arith.index_cast %j : index to i64
  %rel = arith.subi %jj, %ii : i64
  %c0 = arith.constant 0 : i64
  %c4 = arith.constant 4 : i64
  %c7 = arith.constant 7 : i64
  %c8 = arith.constant 8 : i64
  %neg = arith.subi %c0, %rel : i64
  %a = arith.maxsi %rel, %neg : i64
  %small = arith.cmpi slt, %a, %c4 : i64
  %af = arith.sitofp %a : i64 to f32
  %f4 = arith.constant 4.0 : f32
  %q = arith.divf %af, %f4 : f32
  %l = math.log %q : f32
  %ld = arith.constant 1.38629436 : f32
  %l2 = arith.divf %l, %ld : f32
  %f8 = arith.constant 4.0 : f32
  %l3 = arith.mulf %l2, %f8 : f32
  %li = arith.fptosi %l3 : f32 to i64
  %large0 = arith.addi %c4, %li : i64
  %large = arith.minsi %large0, %c7 : i64
  %bucket = arith.select %small, %a, %large : i64
  %r = arith.cmpi slt, %bucket, %c7 : i64
  return %r : i1
}
func.func @t5_band(%q: tensor<1x2x90x16xf32>, %k: tensor<1x2x90x16xf32>, %v: tensor<1x2x90x16xf32>) -> (tensor<1x2x90x16xf32>, tensor<1x2x90xf32>) {
  %o, %l = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.25 : f32, mask = @near, block_m = 8 : i64, block_n = 8 : i64}
      : (tensor<1x2x90x16xf32>, tensor<1x2x90x16xf32>, tensor<1x2x90x16xf32>) -> (tensor<1x2x90x16xf32>, tensor<1x2x90xf32>)
  return %o, %l : tensor<1x2x90x16xf32>, tensor<1x2x90xf32>
}
