// Dynamic-shape exports (torch.export with a dynamic sequence or batch;
// test/Models/dyn_*): torch-mlir splits and merges the batch and head dims of
// the scores with tensor.reshape and a computed shape, and copies each matmul
// operand through a "broadcast" linalg.generic of tensor.extract. Fusion reads
// them as the batch split / merge and the plain copies they are when the sizes
// provably agree (traced to the same dims, DimEquality.c), and refuses, with a
// reason, when they do not (dynamic-shapes-refused.mlir).
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// RUN: fa-check --split-input-file --dim=24 %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-2: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// Shapes from tensor.dim through index_cast and torch-mlir's guard for a
// view size of -1 (select(x < 0, _, x)), a dynamic batch merged as a product.
// CHECK-LABEL: func.func @reshape_split_merge(
// CHECK: %[[O:.*]] = "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32} : (tensor<2x4x?x16xf32>, tensor<2x4x16x?xf32>, tensor<2x4x?x16xf32>) -> tensor<2x4x?x16xf32>
// CHECK-NOT: tensor.reshape
// CHECK-NOT: linalg.softmax
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @reshape_split_merge(%q: tensor<2x4x?x16xf32>, %k: tensor<2x4x16x?xf32>, %v: tensor<2x4x?x16xf32>) -> tensor<8x?x16xf32> {
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c0_i64 = arith.constant 0 : i64
  %c8_i64 = arith.constant 8 : i64
  %c2_i64 = arith.constant 2 : i64
  %c4_i64 = arith.constant 4 : i64
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %q, %c2 : tensor<2x4x?x16xf32>
  %n = tensor.dim %k, %c3 : tensor<2x4x16x?xf32>
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<2x4x?x16xf32> into tensor<8x?x16xf32>
  %k3 = tensor.collapse_shape %k [[0, 1], [2], [3]] : tensor<2x4x16x?xf32> into tensor<8x16x?xf32>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<2x4x?x16xf32> into tensor<8x?x16xf32>
  %e = tensor.empty(%m, %n) : tensor<8x?x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x?x?xf32>) -> tensor<8x?x?xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<8x?x16xf32>, tensor<8x16x?xf32>) outs(%z : tensor<8x?x?xf32>) -> tensor<8x?x?xf32>
  %mi = arith.index_cast %m : index to i64
  %ni = arith.index_cast %n : index to i64
  %neg = arith.cmpi slt, %ni, %c0_i64 : i64
  %ng = arith.select %neg, %c8_i64, %ni : i64
  %shape4 = tensor.from_elements %c2_i64, %c4_i64, %mi, %ng : tensor<4xi64>
  %s4 = tensor.reshape %s(%shape4) : (tensor<8x?x?xf32>, tensor<4xi64>) -> tensor<2x4x?x?xf32>
  %e4 = tensor.empty(%m, %n) : tensor<2x4x?x?xf32>
  %p4 = linalg.softmax dimension(3) ins(%s4 : tensor<2x4x?x?xf32>) outs(%e4 : tensor<2x4x?x?xf32>) -> tensor<2x4x?x?xf32>
  %shape3 = tensor.from_elements %c8_i64, %mi, %ni : tensor<3xi64>
  %p3 = tensor.reshape %p4(%shape3) : (tensor<2x4x?x?xf32>, tensor<3xi64>) -> tensor<8x?x?xf32>
  %eo = tensor.empty(%m) : tensor<8x?x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x?x16xf32>) -> tensor<8x?x16xf32>
  %o = linalg.batch_matmul ins(%p3, %v3 : tensor<8x?x?xf32>, tensor<8x?x16xf32>) outs(%zo : tensor<8x?x16xf32>) -> tensor<8x?x16xf32>
  return %o : tensor<8x?x16xf32>
}

// -----

// P copied through torch-mlir's broadcast generic: index k is linalg.index k,
// or select(S == 1, 0, linalg.index k) with S provably the source's dim k.
// CHECK-LABEL: func.func @identity_copy(
// CHECK: "fa.gridwise_attention"
// CHECK-NOT: tensor.extract
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @identity_copy(%q: tensor<2x4x?x16xf32>, %k: tensor<2x4x?x16xf32>, %v: tensor<2x4x?x16xf32>) -> tensor<2x4x?x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %q, %c2 : tensor<2x4x?x16xf32>
  %n = tensor.dim %k, %c2 : tensor<2x4x?x16xf32>
  %e = tensor.empty(%m, %n) : tensor<2x4x?x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x?x?xf32>) -> tensor<2x4x?x?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x4x?x16xf32>, tensor<2x4x?x16xf32>) outs(%z : tensor<2x4x?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %x = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x4x?x?xf32>
  %p = linalg.softmax dimension(3) ins(%s : tensor<2x4x?x?xf32>) outs(%e : tensor<2x4x?x?xf32>) -> tensor<2x4x?x?xf32>
  %pc = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<2x4x?x?xf32>) {
  ^bb0(%out: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %one = arith.cmpi eq, %n, %c1 : index
    %j = arith.select %one, %c0, %i3 : index
    %x = tensor.extract %p[%i0, %i1, %i2, %j] : tensor<2x4x?x?xf32>
    linalg.yield %x : f32
  } -> tensor<2x4x?x?xf32>
  %eo = tensor.empty(%m) : tensor<2x4x?x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<2x4x?x16xf32>) -> tensor<2x4x?x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, j)>, affine_map<(b, h, i, j, d) -> (b, h, j, d)>, affine_map<(b, h, i, j, d) -> (b, h, i, d)>], iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]} ins(%pc, %v : tensor<2x4x?x?xf32>, tensor<2x4x?x16xf32>) outs(%zo : tensor<2x4x?x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %x = arith.mulf %a, %b : f32
    %y = arith.addf %acc, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x4x?x16xf32>
  return %o : tensor<2x4x?x16xf32>
}
