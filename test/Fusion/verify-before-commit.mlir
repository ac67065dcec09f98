// Fusion builds the fused op and its reshapes aside, runs the upstream
// verifiers and ours on them, and rewrites only if they all pass; otherwise
// the chain stays as it was and explain gives the verifier's message.
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | fa-opt --split-input-file --fa-verify | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY

// Q's batch is dynamic, K's is not: the expand_shape of K to [1, ?, 64, 128]
// would not verify (found by test/Fuzz/fuzz.py).
// CHECK-LABEL: func.func @dynamic_q_static_k
// CHECK-NOT: fa.gridwise_attention
// CHECK: tosa.matmul
// CHECK: tosa.matmul
// WHY: -:[[@LINE+11]]:8: remark: fa-fuse-attention: not fused: the fused op would not verify: 'tensor.expand_shape' op expected dimension 0 of collapsed type to be dynamic
func.func @dynamic_q_static_k(%q: tensor<?x128x64xf16>, %kt: tensor<16x64x128xf16>, %v: tensor<?x128x64xf16>) -> tensor<?x128x64xf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<?x128x64xf16>, tensor<16x64x128xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<16x128x128xf16>
  %m = tosa.reduce_max %s {axis = 2 : i32} : (tensor<16x128x128xf16>) -> tensor<16x128x1xf16>
  %d = tosa.sub %s, %m : (tensor<16x128x128xf16>, tensor<16x128x1xf16>) -> tensor<16x128x128xf16>
  %e = tosa.exp %d : (tensor<16x128x128xf16>) -> tensor<16x128x128xf16>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<16x128x128xf16>) -> tensor<16x128x1xf16>
  %r = tosa.reciprocal %l : (tensor<16x128x1xf16>) -> tensor<16x128x1xf16>
  %p = tosa.mul %e, %r, %shift : (tensor<16x128x128xf16>, tensor<16x128x1xf16>, tensor<1xi8>) -> tensor<16x128x128xf16>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<16x128x128xf16>, tensor<?x128x64xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<?x128x64xf16>
  return %o : tensor<?x128x64xf16>
}

// -----

// Each scale is finite, but their product (1e60) is not an f32: the op's
// scale attribute would be +inf.
// CHECK-LABEL: func.func @scale_overflows_f32
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// WHY: -:[[@LINE+22]]:8: remark: fa-fuse-attention: not fused: the fused op would not verify: 'fa.gridwise_attention' op attribute 'scale' must be finite
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scale_overflows_f32(%q: tensor<16x8xf32>, %k: tensor<8x32xf32>, %v: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %big = arith.constant 1.0e+30 : f32
  %q0 = tensor.empty() : tensor<16x8xf32>
  %qs = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%q : tensor<16x8xf32>) outs(%q0 : tensor<16x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %big : f32
    linalg.yield %y : f32
  } -> tensor<16x8xf32>
  %s0 = tensor.empty() : tensor<16x32xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %s = linalg.matmul ins(%qs, %k : tensor<16x8xf32>, tensor<8x32xf32>) outs(%sz : tensor<16x32xf32>) -> tensor<16x32xf32>
  %ss = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<16x32xf32>) outs(%s0 : tensor<16x32xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %big : f32
    linalg.yield %y : f32
  } -> tensor<16x32xf32>
  %p = linalg.softmax dimension(1) ins(%ss : tensor<16x32xf32>) outs(%s0 : tensor<16x32xf32>) -> tensor<16x32xf32>
  %o0 = tensor.empty() : tensor<16x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<16x32xf32>, tensor<32x8xf32>) outs(%oz : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}
