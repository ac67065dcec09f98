// Half precision as torch-mlir writes it (docs/passes.md): f16/bf16 matmuls with an f32
// result, the scores rounded to the half type and extended again for an f32 softmax, P
// rounded before P V, O rounded to the half type after it, and Q, K, V extended to f32
// before the GEMMs. The op takes the
// f16/bf16 tensors; casts that are not exact on the inputs are never looked through
// (8-bit roundings of the scores: refusals.mlir).
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=EXPLAIN
// RUN: fa-check --split-input-file --input-scale=0.5 %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-5: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// O, computed in f32 and rounded to bf16 by the source, is written in bf16 by the op
// (rounded once, from its f32 O): the rounding generic is gone.
// CHECK-LABEL: func.func @bf16_round_trip
// CHECK: %[[O:.*]] = "fa.gridwise_attention"({{.*}}) {k_transposed, {{.*}}scale = 1.250000e-01 : f32} : (tensor<1x2x8x16xbf16>, tensor<1x2x16x24xbf16>, tensor<1x2x24x16xbf16>) -> tensor<1x2x8x16xbf16>
// CHECK-NEXT: %[[C:.*]] = tensor.collapse_shape %[[O]] {{.*}} into tensor<2x8x16xbf16>
// CHECK-NEXT: return %[[C]]
// EXPLAIN: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @bf16_round_trip(%q: tensor<2x8x16xbf16>, %kt: tensor<2x16x24xbf16>, %v: tensor<2x24x16xbf16>) -> tensor<2x8x16xbf16> {
  %z = arith.constant 0.0 : f32
  %c = arith.constant 0.125 : f32
  %s0 = tensor.empty() : tensor<2x8x24xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x8x16xbf16>, tensor<2x16x24xbf16>) outs(%sz : tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
  %h0 = tensor.empty() : tensor<2x8x24xbf16>
  %sh = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x8x24xf32>) outs(%h0 : tensor<2x8x24xbf16>) {
  ^bb0(%a: f32, %out: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<2x8x24xbf16>
  %sf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sh : tensor<2x8x24xbf16>) outs(%s0 : tensor<2x8x24xf32>) {
  ^bb0(%a: bf16, %out: f32):
    %e = arith.extf %a : bf16 to f32
    %m = arith.mulf %e, %c : f32
    linalg.yield %m : f32
  } -> tensor<2x8x24xf32>
  %p = linalg.softmax dimension(2) ins(%sf : tensor<2x8x24xf32>) outs(%s0 : tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
  %ph = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<2x8x24xf32>) outs(%h0 : tensor<2x8x24xbf16>) {
  ^bb0(%a: f32, %out: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<2x8x24xbf16>
  %o0 = tensor.empty() : tensor<2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%ph, %v : tensor<2x8x24xbf16>, tensor<2x24x16xbf16>) outs(%oz : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %oh0 = tensor.empty() : tensor<2x8x16xbf16>
  %oh = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : tensor<2x8x16xf32>) outs(%oh0 : tensor<2x8x16xbf16>) {
  ^bb0(%a: f32, %out: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<2x8x16xbf16>
  return %oh : tensor<2x8x16xbf16>
}

// -----

// O in f32 has another user besides its rounding: the op writes f32 and the
// rounding stays. (f16: with bf16 the source's rounding of P, which fusion elides, moves
// the f32 output past f32's tolerance.)
// CHECK-LABEL: func.func @f32_o_also_returned
// CHECK: %[[O:.*]] = "fa.gridwise_attention"({{.*}}) -> tensor<1x2x8x16xf32>
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[O]]
// CHECK: %[[R:.*]] = linalg.generic {{.*}}ins(%[[C]] : tensor<2x8x16xf32>)
// CHECK: return %[[R]], %[[C]]
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @f32_o_also_returned(%q: tensor<2x8x16xf16>, %kt: tensor<2x16x24xf16>, %v: tensor<2x24x16xf16>) -> (tensor<2x8x16xf16>, tensor<2x8x16xf32>) {
  %z = arith.constant 0.0 : f32
  %c = arith.constant 0.125 : f32
  %s0 = tensor.empty() : tensor<2x8x24xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x8x16xf16>, tensor<2x16x24xf16>) outs(%sz : tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
  %h0 = tensor.empty() : tensor<2x8x24xf16>
  %sh = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x8x24xf32>) outs(%h0 : tensor<2x8x24xf16>) {
  ^bb0(%a: f32, %out: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x8x24xf16>
  %sf = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sh : tensor<2x8x24xf16>) outs(%s0 : tensor<2x8x24xf32>) {
  ^bb0(%a: f16, %out: f32):
    %e = arith.extf %a : f16 to f32
    %m = arith.mulf %e, %c : f32
    linalg.yield %m : f32
  } -> tensor<2x8x24xf32>
  %p = linalg.softmax dimension(2) ins(%sf : tensor<2x8x24xf32>) outs(%s0 : tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
  %ph = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<2x8x24xf32>) outs(%h0 : tensor<2x8x24xf16>) {
  ^bb0(%a: f32, %out: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x8x24xf16>
  %o0 = tensor.empty() : tensor<2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = linalg.batch_matmul ins(%ph, %v : tensor<2x8x24xf16>, tensor<2x24x16xf16>) outs(%oz : tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %oh0 = tensor.empty() : tensor<2x8x16xf16>
  %oh = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : tensor<2x8x16xf32>) outs(%oh0 : tensor<2x8x16xf16>) {
  ^bb0(%a: f32, %out: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<2x8x16xf16>
  return %oh, %o : tensor<2x8x16xf16>, tensor<2x8x16xf32>
}

// -----

// SDPA's decomposition: Q, K, V extended to f32 (TOSA casts), the scale applied to Q.
// CHECK-LABEL: func.func @f16_extended_inputs
// CHECK-NOT: tosa.cast
// CHECK: "fa.gridwise_attention"({{.*}}) {{.*}}scale = 2.500000e-01 : f32} : (tensor<1x2x8x16xf16>, tensor<1x2x16x24xf16>, tensor<1x2x24x16xf16>) -> tensor<1x2x8x16xf32>
// EXPLAIN: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @f16_extended_inputs(%q: tensor<2x8x16xf16>, %kt: tensor<2x16x24xf16>, %v: tensor<2x24x16xf16>) -> tensor<2x8x16xf32> {
  %q32 = tosa.cast %q : (tensor<2x8x16xf16>) -> tensor<2x8x16xf32>
  %k32 = tosa.cast %kt : (tensor<2x16x24xf16>) -> tensor<2x16x24xf32>
  %v32 = tosa.cast %v : (tensor<2x24x16xf16>) -> tensor<2x24x16xf32>
  %c = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %qs = tosa.mul %q32, %c, %sh : (tensor<2x8x16xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<2x8x16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s = tosa.matmul %qs, %k32, %zp, %zp : (tensor<2x8x16xf32>, tensor<2x16x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x24xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<2x8x24xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %s, %m : (tensor<2x8x24xf32>, tensor<2x8x1xf32>) -> tensor<2x8x24xf32>
  %e = tosa.exp %d : (tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x24xf32>) -> tensor<2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p = tosa.mul %e, %r, %sh : (tensor<2x8x24xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x24xf32>
  %o = tosa.matmul %p, %v32, %zp, %zp : (tensor<2x8x24xf32>, tensor<2x24x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// Only Q comes from f16: Q, K and V would not share an element type.
// CHECK-LABEL: func.func @one_input_extended
// CHECK-NOT: fa.gridwise_attention
// EXPLAIN: remark: fa-fuse-attention: not fused: Q, K and V have different element types
func.func @one_input_extended(%q: tensor<2x8x16xf16>, %kt: tensor<2x16x24xf32>, %v: tensor<2x24x16xf32>) -> tensor<2x8x16xf32> {
  %q32 = tosa.cast %q : (tensor<2x8x16xf16>) -> tensor<2x8x16xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.matmul %q32, %kt, %zp, %zp : (tensor<2x8x16xf32>, tensor<2x16x24xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x24xf32>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<2x8x24xf32>) -> tensor<2x8x1xf32>
  %d = tosa.sub %s, %m : (tensor<2x8x24xf32>, tensor<2x8x1xf32>) -> tensor<2x8x24xf32>
  %e = tosa.exp %d : (tensor<2x8x24xf32>) -> tensor<2x8x24xf32>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x24xf32>) -> tensor<2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
  %p = tosa.mul %e, %r, %sh : (tensor<2x8x24xf32>, tensor<2x8x1xf32>, tensor<1xi8>) -> tensor<2x8x24xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x24xf32>, tensor<2x24x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// Q, K, V rounded from f32 to f16 (not exact): the op takes the rounded tensors, the
// casts stay.
// CHECK-LABEL: func.func @inputs_rounded
// CHECK-COUNT-3: tosa.cast
// CHECK: "fa.gridwise_attention"({{.*}}) {{.*}} : (tensor<1x2x8x16xf16>, tensor<1x2x16x24xf16>, tensor<1x2x24x16xf16>) -> tensor<1x2x8x16xf16>
// EXPLAIN: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @inputs_rounded(%q: tensor<2x8x16xf32>, %kt: tensor<2x16x24xf32>, %v: tensor<2x24x16xf32>) -> tensor<2x8x16xf16> {
  %q16 = tosa.cast %q : (tensor<2x8x16xf32>) -> tensor<2x8x16xf16>
  %k16 = tosa.cast %kt : (tensor<2x16x24xf32>) -> tensor<2x16x24xf16>
  %v16 = tosa.cast %v : (tensor<2x24x16xf32>) -> tensor<2x24x16xf16>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %sh = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.matmul %q16, %k16, %zp, %zp : (tensor<2x8x16xf16>, tensor<2x16x24xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x8x24xf16>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<2x8x24xf16>) -> tensor<2x8x1xf16>
  %d = tosa.sub %s, %m : (tensor<2x8x24xf16>, tensor<2x8x1xf16>) -> tensor<2x8x24xf16>
  %e = tosa.exp %d : (tensor<2x8x24xf16>) -> tensor<2x8x24xf16>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<2x8x24xf16>) -> tensor<2x8x1xf16>
  %r = tosa.reciprocal %l : (tensor<2x8x1xf16>) -> tensor<2x8x1xf16>
  %p = tosa.mul %e, %r, %sh : (tensor<2x8x24xf16>, tensor<2x8x1xf16>, tensor<1xi8>) -> tensor<2x8x24xf16>
  %o = tosa.matmul %p, %v16, %zp, %zp : (tensor<2x8x24xf16>, tensor<2x24x16xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<2x8x16xf16>
  return %o : tensor<2x8x16xf16>
}

