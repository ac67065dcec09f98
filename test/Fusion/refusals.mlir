// Every "never fuse when the math differs" rule: nothing is fused, and
// --fa-fuse-attention=explain says which step failed.
// RUN: fa-opt --allow-unregistered-dialect --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --allow-unregistered-dialect --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=EXPLAIN
// RUN: fa-opt --fa-fuse-attention=explain %examples/negative_wrong_axis.mlir 2>&1 | FileCheck %s --check-prefix=AXIS
// RUN: fa-opt --fa-fuse-attention=explain %examples/negative_weights_escape.mlir 2>&1 | FileCheck %s --check-prefix=ESCAPE
// AXIS: remark: fa-fuse-attention: not fused: the softmax is not over the last (key) dimension
// AXIS-NOT: fa.gridwise_attention
// ESCAPE: remark: fa-fuse-attention: not fused: the scores or probabilities have another user
// ESCAPE-NOT: fa.gridwise_attention
// CHECK-NOT: fa.gridwise_attention
// EXPLAIN: remark: fa-fuse-attention: not fused: the P*V accumulator is not zero-filled
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @nonzero_accumulator(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>, %acc: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%acc : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// EXPLAIN: remark: fa-fuse-attention: not fused: the scores are scaled by something that is not a splat constant
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scale_not_splat(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>, %t: tensor<8x8xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %ss = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %t : tensor<8x8xf32>, tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %y = arith.mulf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%ss : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// EXPLAIN: remark: fa-fuse-attention: not fused: the left operand of the contraction is not a softmax
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @dropout_after_softmax(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>, %keep: tensor<8x8xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %pd = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%p, %keep : tensor<8x8xf32>, tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %y = arith.mulf %a0, %a1 : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %o = linalg.matmul ins(%pd, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// EXPLAIN: remark: fa-fuse-attention: not fused: the bias is added before the scale
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @bias_then_scale(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>, %b: tensor<8x8xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sb = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %c = arith.constant 0.5 : f32
    %y = arith.addf %a0, %a1 : f32
    %w = arith.mulf %y, %c : f32
    linalg.yield %w : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sb : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// EXPLAIN: remark: fa-fuse-attention: not fused: a mask on the scores is not causal
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @mask_not_causal(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %below = arith.cmpi ult, %j, %i : index
    %y = arith.select %below, %ninf, %a0 : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// EXPLAIN: remark: fa-fuse-attention: not fused: Q is transposed in Q*K^T
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @q_transposed(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>, %qt: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%qt, %kt : tensor<4x8xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// EXPLAIN: remark: fa-fuse-attention: not fused: P is transposed in P*V
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @p_transposed(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// EXPLAIN: remark: fa-fuse-attention: not fused: the scores or probabilities have another user
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scores_returned(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%s : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  "test.keep"(%s) : (tensor<8x8xf32>) -> ()
  return %o : tensor<8x4xf32>
}

// -----

// The scores rounded to an 8-bit float on their way to the softmax: never elided.
// EXPLAIN: remark: fa-fuse-attention: not fused: the scores are cast to a type other than f16, bf16, f32 or f64
func.func @scores_to_f8(%q: tensor<2x8x16xf16>, %kt: tensor<2x16x24xf16>, %v: tensor<2x24x16xf16>) -> tensor<2x8x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x16xf16>, tensor<2x16x24xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x8x24xf32>
  %s8 = tosa.cast %s : (tensor<2x8x24xf32>) -> tensor<2x8x24xf8E4M3FN>
  %sf = tosa.cast %s8 : (tensor<2x8x24xf8E4M3FN>) -> tensor<2x8x24xf32>
  %m = tosa.reduce_max %sf {axis = 2 : i32} : (tensor<2x8x24xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %sf, %m : (tensor<2x8x24xf32>, tensor<2x8x1xf32>) -> tensor<2x8x24xf32>
  %e = tosa.exp %d : (tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x24xf32>) -> tensor<2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p = tosa.mul %e, %r, %sh : (tensor<2x8x24xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x24xf32>
  %ph = tosa.cast %p : (tensor<2x8x24xf32>) -> tensor<2x8x24xf16>
  %o = tosa.matmul %ph, %v, %zp, %zp : (tensor<2x8x24xf16>, tensor<2x24x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}
