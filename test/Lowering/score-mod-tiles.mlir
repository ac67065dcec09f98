// The tensor-core kernels' score_mod copies (lib/Lowering/ScoreIndices.c):
// the query and key split into a thread's base and an element's offset, an
// integer -> f32 conversion of +-i +-j + c as exact float arithmetic on the
// parts, and the tile-uniform copy of a score_mod that reads a table by
// position, with its test (MaskRange.c). GPU agreement:
// test/Integration/Inputs/score-mod-gpu.mlir (relbias_table, skewed_alibi).
// RUN: fa-opt --split-input-file --pass-pipeline='builtin.module(fa-lower-attention{target=nvvm-sm90a})' %s | FileCheck %s
// RUN: fa-opt --split-input-file --pass-pipeline='builtin.module(fa-lower-attention{target=nvvm})' %s | FileCheck %s --check-prefix=MMA
// RUN: fa-opt --split-input-file --fa-lower-attention %s | FileCheck %s --check-prefix=CPU
// RUN: fa-check --split-input-file --input-scale=2 %s | FileCheck %s --check-prefix=AGREE

// ALiBi: slope * (j - i). fa-lower-attention inlines the copies: per score,
// i = i0 + di and j = j0 + dj (nsw); the conversion of j - i becomes
// B = j0 - i0 (per thread) split at 1024 (the high part converted, the low
// one placed in 2^23's mantissa) and D = dj - di (a constant once the loop
// is unrolled), added in f32, sums and products free to contract into FMAs;
// no table read by position: no tile copy.
// CHECK-LABEL: func.func @alibi
// CHECK: affine.for
// CHECK: %[[I:.*]] = arith.addi %[[I0:.*]], %{{.*}} overflow<nsw> : index
// CHECK-NEXT: %[[J:.*]] = arith.addi %[[J0:.*]], %{{.*}} overflow<nsw> : index
// CHECK: arith.index_cast %[[I0]] : index to i64
// CHECK: arith.index_cast %[[J0]] : index to i64
// CHECK: %[[HI:.*]] = arith.andi %[[B:.*]], %c-1024_i64 : i64
// CHECK: %[[LO:.*]] = arith.andi %[[B]], %c1023_i64 : i64
// CHECK-NEXT: %[[LO32:.*]] = arith.trunci %[[LO]] : i64 to i32
// CHECK: %[[FH:.*]] = arith.sitofp %[[HI]] : i64 to f32
// CHECK-NEXT: %[[FHI:.*]] = arith.subf %[[FH]], %cst{{.*}} : f32
// CHECK: %[[BITS:.*]] = arith.ori %[[LO32]], %c1258291200_i32 : i32
// CHECK-NEXT: %[[FLO:.*]] = arith.bitcast %[[BITS]] : i32 to f32
// CHECK-NEXT: %[[D32:.*]] = arith.trunci %{{.*}} : i64 to i32
// CHECK-NEXT: %[[FD:.*]] = arith.sitofp %[[D32]] : i32 to f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[FLO]], %[[FD]] fastmath<contract> : f32
// CHECK-NEXT: %[[DF:.*]] = arith.addf %[[FHI]], %[[S]] fastmath<contract> : f32
// The product slope * (j - i) does not depend on the score: it stays a
// product (shared by the scores of one j - i), and the sum contracts with
// the score's scaling instead (ScoreFunctions.c, allowContraction).
// CHECK-NEXT: %[[T:.*]] = arith.mulf %{{.*}}, %[[DF]] : f32
// CHECK-NEXT: arith.addf %{{.*}}, %[[T]] fastmath<contract> : f32
// CHECK-NOT: scf.if
// CHECK: affine.yield
// MMA-LABEL: func.func @alibi
// MMA: arith.andi %{{.*}}, %c-1024_i64 : i64
// The portable kernel keeps (s, b, h, i, j), subtracts and converts in 32
// bits (k - q lies in i32).
// CPU-LABEL: func.func @alibi
// CPU-NOT: c-1024
// CPU: arith.subi %{{.*}}, %{{.*}} : i32
// CPU-NEXT: arith.extsi %{{.*}} : i32 to i64
// CPU-NEXT: arith.trunci %{{.*}} : i64 to i32
// CPU-NEXT: arith.sitofp %{{.*}} : i32 to f32
// AGREE: alibi: output 0 {{.*}} ok
func.func private @slope_alibi(%s: f32, %b: index, %h: index, %i: index, %j: index, %slopes: tensor<4xf32>) -> f32 {
  %m = tensor.extract %slopes[%h] : tensor<4xf32>
  %ii = arith.index_cast %i : index to i64
  %jj = arith.index_cast %j : index to i64
  %d = arith.subi %jj, %ii : i64
  %df = arith.sitofp %d : i64 to f32
  %t = arith.mulf %m, %df : f32
  %r = arith.addf %s, %t : f32
  return %r : f32
}
func.func @alibi(%q: tensor<1x4x100x64xf16>, %k: tensor<1x4x100x64xf16>, %v: tensor<1x4x100x64xf16>, %slopes: tensor<4xf32>) -> tensor<1x4x100x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %slopes) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.125 : f32, causal_offset = 0 : i64, score_mod = @slope_alibi}
      : (tensor<1x4x100x64xf16>, tensor<1x4x100x64xf16>, tensor<1x4x100x64xf16>, tensor<4xf32>) -> tensor<1x4x100x64xf16>
  return %o : tensor<1x4x100x64xf16>
}

// -----

// A table of relative positions: tiles on which the clamped position is
// one value (the interval extension of the position, per tile) take the
// tile-uniform copy, whose offsets read as 0 (one table read per thread);
// the others read per score. On the Hopper kernel the test covers the
// rows of the thread's warp: its first row rounded down to 16, and 15 more.
// CHECK-LABEL: func.func @relbias
// CHECK: %[[W0:.*]] = arith.andi %{{.*}}, %c-16_i32 : i32
// CHECK-NEXT: %[[WI:.*]] = arith.index_cast %[[W0]] : i32 to index
// CHECK-NEXT: arith.addi %[[WI]], %c16{{.*}} : index
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : i64
// CHECK: scf.if %{{.*}} -> (vector<{{[0-9]+}}xf32>) {
// CHECK-NEXT: arith.constant dense
// CHECK: affine.for
// CHECK: %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT: arith.addi %{{.*}}, %[[Z]] overflow<nsw> : index
// CHECK-NEXT: arith.addi %{{.*}}, %[[Z]] overflow<nsw> : index
// CHECK: memref.load
// CHECK: } else {
// CHECK: affine.for
// CHECK-NOT: arith.constant 0 : index
// CHECK: arith.addi %{{.*}}, %{{.*}} overflow<nsw> : index
// CHECK: memref.load
// MMA-LABEL: func.func @relbias
// MMA: scf.if %{{.*}} -> (vector<{{[0-9]+}}xf32>) {
// MMA: arith.constant 0 : index
// MMA: } else {
// CPU-LABEL: func.func @relbias
// CPU-NOT: overflow<nsw>
// AGREE: relbias: output 0 {{.*}} ok
func.func private @rel(%s: f32, %b: index, %h: index, %i: index, %j: index, %table: tensor<33x4xf32>) -> f32 {
  %ii = arith.index_cast %i : index to i64
  %jj = arith.index_cast %j : index to i64
  %d = arith.subi %jj, %ii : i64
  %lo = arith.constant -16 : i64
  %hi = arith.constant 16 : i64
  %c0 = arith.maxsi %d, %lo : i64
  %c1 = arith.minsi %c0, %hi : i64
  %r = arith.subi %c1, %lo : i64
  %ri = arith.index_cast %r : i64 to index
  %x = tensor.extract %table[%ri, %h] : tensor<33x4xf32>
  %y = arith.addf %s, %x : f32
  return %y : f32
}
func.func @relbias(%q: tensor<1x4x300x64xf16>, %k: tensor<1x4x300x64xf16>, %v: tensor<1x4x300x64xf16>, %table: tensor<33x4xf32>) -> tensor<1x4x300x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %table) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.125 : f32, score_mod = @rel}
      : (tensor<1x4x300x64xf16>, tensor<1x4x300x64xf16>, tensor<1x4x300x64xf16>, tensor<33x4xf32>) -> tensor<1x4x300x64xf16>
  return %o : tensor<1x4x300x64xf16>
}
