// Dynamic-shape spellings fusion cannot prove to be a batch merge or a plain
// copy are refused, each with its reason (dynamic-shapes.mlir has the ones it
// proves).
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// The shape of the merge is an argument: not provably [B, H] -> B*H.
// CHECK-LABEL: func.func @unproven_merge(
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: P reaches P*V through a reshape that is not provably a [B, H] batch merge
func.func @unproven_merge(%q: tensor<8x?x16xf32>, %k: tensor<8x16x?xf32>, %v: tensor<8x?x16xf32>, %shape3: tensor<3xi64>) -> tensor<8x?x16xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c2_i64 = arith.constant 2 : i64
  %c4_i64 = arith.constant 4 : i64
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %q, %c1 : tensor<8x?x16xf32>
  %n = tensor.dim %k, %c2 : tensor<8x16x?xf32>
  %e = tensor.empty(%m, %n) : tensor<8x?x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x?x?xf32>) -> tensor<8x?x?xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<8x?x16xf32>, tensor<8x16x?xf32>) outs(%z : tensor<8x?x?xf32>) -> tensor<8x?x?xf32>
  %mi = arith.index_cast %m : index to i64
  %ni = arith.index_cast %n : index to i64
  %shape4 = tensor.from_elements %c2_i64, %c4_i64, %mi, %ni : tensor<4xi64>
  %s4 = tensor.reshape %s(%shape4) : (tensor<8x?x?xf32>, tensor<4xi64>) -> tensor<2x4x?x?xf32>
  %e4 = tensor.empty(%m, %n) : tensor<2x4x?x?xf32>
  %p4 = linalg.softmax dimension(3) ins(%s4 : tensor<2x4x?x?xf32>) outs(%e4 : tensor<2x4x?x?xf32>) -> tensor<2x4x?x?xf32>
  %p3 = tensor.reshape %p4(%shape3) : (tensor<2x4x?x?xf32>, tensor<3xi64>) -> tensor<8x?x?xf32>
  %eo = tensor.empty(%m) : tensor<8x?x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x?x16xf32>) -> tensor<8x?x16xf32>
  %o = linalg.batch_matmul ins(%p3, %v : tensor<8x?x?xf32>, tensor<8x?x16xf32>) outs(%zo : tensor<8x?x16xf32>) -> tensor<8x?x16xf32>
  return %o : tensor<8x?x16xf32>
}

// -----

// The copy broadcasts: its select tests a size that is not the source's dim
// (an argument), so P[.., 0] may be repeated over the keys: P is not a softmax
// of the scores any more.
// CHECK-LABEL: func.func @broadcast_copy(
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: P reaches P*V through a copy that may broadcast it (its sizes are not provably the softmax's)
func.func @broadcast_copy(%q: tensor<2x4x?x16xf32>, %k: tensor<2x4x?x16xf32>, %v: tensor<2x4x?x16xf32>, %w: index) -> tensor<2x4x?x16xf32> {
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
  %pc = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<2x4x?x?xf32>) {
  ^bb0(%out: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %one = arith.cmpi eq, %w, %c1 : index
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

// -----

// The split's size goes through i32: a cast that may truncate ends the trace.
// CHECK-LABEL: func.func @truncated_size(
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: P reaches P*V through a reshape that is not provably a [B, H] batch merge
func.func @truncated_size(%q: tensor<8x?x16xf32>, %k: tensor<8x16x?xf32>, %v: tensor<8x?x16xf32>) -> tensor<8x?x16xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c2_i64 = arith.constant 2 : i64
  %c4_i64 = arith.constant 4 : i64
  %c8_i64 = arith.constant 8 : i64
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %q, %c1 : tensor<8x?x16xf32>
  %n = tensor.dim %k, %c2 : tensor<8x16x?xf32>
  %e = tensor.empty(%m, %n) : tensor<8x?x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<8x?x?xf32>) -> tensor<8x?x?xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<8x?x16xf32>, tensor<8x16x?xf32>) outs(%z : tensor<8x?x?xf32>) -> tensor<8x?x?xf32>
  %mi = arith.index_cast %m : index to i64
  %n32 = arith.index_cast %n : index to i32
  %ni = arith.extsi %n32 : i32 to i64
  %shape4 = tensor.from_elements %c2_i64, %c4_i64, %mi, %ni : tensor<4xi64>
  %s4 = tensor.reshape %s(%shape4) : (tensor<8x?x?xf32>, tensor<4xi64>) -> tensor<2x4x?x?xf32>
  %e4 = tensor.empty(%m, %n) : tensor<2x4x?x?xf32>
  %p4 = linalg.softmax dimension(3) ins(%s4 : tensor<2x4x?x?xf32>) outs(%e4 : tensor<2x4x?x?xf32>) -> tensor<2x4x?x?xf32>
  %shape3 = tensor.from_elements %c8_i64, %mi, %ni : tensor<3xi64>
  %p3 = tensor.reshape %p4(%shape3) : (tensor<2x4x?x?xf32>, tensor<3xi64>) -> tensor<8x?x?xf32>
  %eo = tensor.empty(%m) : tensor<8x?x16xf32>
  %zo = linalg.fill ins(%zero : f32) outs(%eo : tensor<8x?x16xf32>) -> tensor<8x?x16xf32>
  %o = linalg.batch_matmul ins(%p3, %v : tensor<8x?x?xf32>, tensor<8x?x16xf32>) outs(%zo : tensor<8x?x16xf32>) -> tensor<8x?x16xf32>
  return %o : tensor<8x?x16xf32>
}
