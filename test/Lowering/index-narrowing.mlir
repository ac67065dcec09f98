// 32-bit index arithmetic in the kernels' copies of the op's functions
// (lib/Lowering/ScoreIndices.c, ScoreFunctions.c): an index or i64 add,
// sub, min, max, product, division or remainder by a positive constant whose
// operands and result lie in i32 by their static ranges (b, h, i, j lie in
// [0, 2^31)), and a compare of such operands, compute in i32; a capture read
// at an index in [0, 2^31) is clamped with one 32-bit MIN. What may leave
// i32 keeps its 64-bit form. Every kernel gets the same copies: the portable
// kernel's agree with the reference on the CPU (AGREE); GPU agreement:
// test/Integration/Inputs/score-mod-gpu.mlir and the chunked, window and
// document cases of scripts/gpu_prepare.sh.
// RUN: fa-opt --split-input-file --pass-pipeline='builtin.module(fa-lower-attention{target=nvvm-sm90a})' %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-lower-attention %s | FileCheck %s --check-prefix=CPU
// RUN: fa-check --split-input-file %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-3: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// Chunks of 24 (Llama-4's local layers): q floordiv 24 == k floordiv 24
// divides and compares in 32 bits.
// CHECK-LABEL: func.func @chunks
// CHECK: arith.floordivsi %{{.*}}, %{{.*}} : i32
// CHECK: arith.floordivsi %{{.*}}, %{{.*}} : i32
// CHECK: arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// CPU-LABEL: func.func @chunks
// CPU: arith.floordivsi %{{.*}}, %{{.*}} : i32
func.func private @same_chunk(%b: index, %h: index, %i: index, %j: index) -> i1 {
  %c = arith.constant 24 : index
  %qi = arith.floordivsi %i, %c : index
  %kj = arith.floordivsi %j, %c : index
  %r = arith.cmpi eq, %qi, %kj : index
  return %r : i1
}
func.func @chunks(%q: tensor<1x2x100x64xf16>, %k: tensor<1x2x100x64xf16>, %v: tensor<1x2x100x64xf16>) -> tensor<1x2x100x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 0.125 : f32, causal_offset = 0 : i64, mask = @same_chunk}
      : (tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>, tensor<1x2x100x64xf16>) -> tensor<1x2x100x64xf16>
  return %o : tensor<1x2x100x64xf16>
}

// -----

// i + 3e9 may leave i32: the sum, and the compare of it, stay index; the
// relative position k - q + 39 lies in i32 but not in [0, 2^31) by its
// static range: its read of the table keeps the 64-bit clamp.
// CHECK-LABEL: func.func @wide
// CHECK: arith.subi %{{.*}}, %{{.*}} : i32
// CHECK: arith.maxsi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: arith.minsi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: memref.load
// CHECK: arith.addi %{{.*}}, %c3000000000{{.*}} : index
// CHECK-NEXT: arith.addi %{{.*}}, %c3000000000{{.*}} : index
// CHECK-NEXT: arith.cmpi sge, %{{.*}}, %{{.*}} : index
func.func private @far(%b: index, %h: index, %i: index, %j: index, %t: tensor<79xf32>) -> i1 {
  %big = arith.constant 3000000000 : index
  %x = arith.addi %i, %big : index
  %y = arith.addi %j, %big : index
  %r = arith.cmpi sge, %x, %y : index
  return %r : i1
}
func.func private @table(%s: f32, %b: index, %h: index, %i: index, %j: index, %t: tensor<79xf32>) -> f32 {
  %c39 = arith.constant 39 : index
  %d0 = arith.subi %j, %i : index
  %d = arith.addi %d0, %c39 : index
  %e = tensor.extract %t[%d] : tensor<79xf32>
  %r = arith.addf %s, %e : f32
  return %r : f32
}
func.func @wide(%q: tensor<1x2x40x64xf16>, %k: tensor<1x2x40x64xf16>, %v: tensor<1x2x40x64xf16>, %t: tensor<79xf32>) -> tensor<1x2x40x64xf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %t) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.125 : f32, mask = @far, score_mod = @table}
      : (tensor<1x2x40x64xf16>, tensor<1x2x40x64xf16>, tensor<1x2x40x64xf16>, tensor<79xf32>) -> tensor<1x2x40x64xf16>
  return %o : tensor<1x2x40x64xf16>
}

// -----

// Document ids read at the query and the key: each read's clamp is one
// 32-bit MIN against min(dim - 1, 2^31 - 1), zero-extended.
// CHECK-LABEL: func.func @documents
// CHECK: %[[L:.*]] = arith.minsi %{{.*}}, %c2147483647{{.*}} : index
// CHECK-NEXT: %[[L32:.*]] = arith.index_cast %[[L]] : index to i32
// CHECK-NEXT: %[[I32:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT: %[[C:.*]] = arith.minsi %[[I32]], %[[L32]] : i32
// CHECK-NEXT: %[[X:.*]] = arith.index_castui %[[C]] : i32 to index
// CHECK-NEXT: memref.load %{{.*}}[%[[X]]] : memref<?xi32
func.func private @same_doc(%b: index, %h: index, %i: index, %j: index, %doc: tensor<90xi32>) -> i1 {
  %di = tensor.extract %doc[%i] : tensor<90xi32>
  %dj = tensor.extract %doc[%j] : tensor<90xi32>
  %r = arith.cmpi eq, %di, %dj : i32
  return %r : i1
}
func.func @documents(%q: tensor<1x2x90x64xbf16>, %k: tensor<1x2x90x64xbf16>, %v: tensor<1x2x90x64xbf16>, %doc: tensor<90xi32>) -> tensor<1x2x90x64xbf16> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %doc) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 0.125 : f32, causal_offset = 0 : i64, mask = @same_doc}
      : (tensor<1x2x90x64xbf16>, tensor<1x2x90x64xbf16>, tensor<1x2x90x64xbf16>, tensor<90xi32>) -> tensor<1x2x90x64xbf16>
  return %o : tensor<1x2x90x64xbf16>
}
