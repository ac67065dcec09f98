// A causal mask whose offset does not fit the source's index arithmetic
// (i + INT64_MAX wraps for every row but the first) is refused, never wrapped
// into causal_offset = INT64_MIN (which would hide every key of every row);
// a large offset that still fits (2^40) fuses as it is.
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY

// CHECK-LABEL: func.func @offset_int64_max
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// WHY: remark: fa-fuse-attention: not fused: a mask offset beyond +-2^53: the source's index arithmetic may wrap
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @offset_int64_max(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %off = arith.constant 9223372036854775807 : index
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %lim = arith.addi %i, %off : index
    %c = arith.cmpi sgt, %j, %lim : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// CHECK-LABEL: func.func @offset_2_pow_40
// CHECK: "fa.gridwise_attention"({{.*}}causal_offset = 1099511627776 : i64
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @offset_2_pow_40(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %off = arith.constant 1099511627776 : index
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %lim = arith.addi %i, %off : index
    %c = arith.cmpi sgt, %j, %lim : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}
