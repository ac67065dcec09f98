// A log-sum-exp of the scores returned beside the attention (as a FlashAttention
// forward returns it for the backward pass or a split-KV merge) becomes the op's
// lse result: PyTorch's guarded logsumexp (torch.logsumexp: the max is replaced
// by 0 where it is infinite) and the plain log(sum(exp(x - max))) + max. Any
// other user of the scores still blocks fusion, and so does a log-sum-exp of
// other values than the softmax's.
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// RUN: fa-check --split-input-file %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-5: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// CHECK-LABEL: func.func @guarded
// CHECK: %[[A:.*]]:2 = "fa.gridwise_attention"(%arg0, %{{.*}}, %arg2) {{.*}}scale = 1.250000e-01 : f32} : {{.*}} -> (tensor<1x2x8x16xf32>, tensor<1x2x8xf32>)
// CHECK-NOT: tosa.
// CHECK: return %[[A]]#0, %[[A]]#1
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @guarded(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x12x16xf32>, %v: tensor<1x2x12x16xf32>) -> (tensor<1x2x8x16xf32>, tensor<1x2x8xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %inf = "tosa.const"() <{values = dense<0x7FF0000000000000> : tensor<1x1x1x1xf64>}> : () -> tensor<1x1x1x1xf64>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %s3 = tosa.const_shape {values = dense<[2, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3 = tosa.const_shape {values = dense<[2, 16, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v3 = tosa.const_shape {values = dense<[2, 12, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.const_shape {values = dense<[2, 8, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4 = tosa.const_shape {values = dense<[1, 2, 8, 12]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4 = tosa.const_shape {values = dense<[1, 2, 8, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %r3 = tosa.const_shape {values = dense<[1, 2, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x2x12x16xf32>) -> tensor<1x2x16x12xf32>
  %qr = tosa.reshape %q, %s3 : (tensor<1x2x8x16xf32>, !tosa.shape<3>) -> tensor<2x8x16xf32>
  %kr = tosa.reshape %kt, %k3 : (tensor<1x2x16x12xf32>, !tosa.shape<3>) -> tensor<2x16x12xf32>
  %mm = tosa.matmul %qr, %kr, %zp, %zp : (tensor<2x8x16xf32>, tensor<2x16x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x12xf32>
  %s = tosa.reshape %mm, %s4 : (tensor<2x8x12xf32>, !tosa.shape<4>) -> tensor<1x2x8x12xf32>
  %x = tosa.mul %s, %scale, %shift : (tensor<1x2x8x12xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x12xf32>
  %mx = tosa.reduce_max %x {axis = 3 : i32} : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x1xf32>
  %ab = tosa.abs %mx : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %ab64 = tosa.cast %ab : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf64>
  %isinf = tosa.equal %ab64, %inf : (tensor<1x2x8x1xf64>, tensor<1x1x1x1xf64>) -> tensor<1x2x8x1xi1>
  %g = tosa.select %isinf, %zero, %mx : (tensor<1x2x8x1xi1>, tensor<1x1x1x1xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %g3 = tosa.reshape %g, %r3 : (tensor<1x2x8x1xf32>, !tosa.shape<3>) -> tensor<1x2x8xf32>
  %d = tosa.sub %x, %g : (tensor<1x2x8x12xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x12xf32>
  %e = tosa.exp %d : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x12xf32>
  %se = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x1xf32>
  %se3 = tosa.reshape %se, %r3 : (tensor<1x2x8x1xf32>, !tosa.shape<3>) -> tensor<1x2x8xf32>
  %lg = tosa.log %se3 : (tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %lse = tosa.add %lg, %g3 : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %d2 = tosa.sub %x, %mx : (tensor<1x2x8x12xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x12xf32>
  %e2 = tosa.exp %d2 : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x12xf32>
  %l = tosa.reduce_sum %e2 {axis = 3 : i32} : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x1xf32>
  %rl = tosa.reciprocal %l : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %p = tosa.mul %e2, %rl, %shift : (tensor<1x2x8x12xf32>, tensor<1x2x8x1xf32>, tensor<1xi8>) -> tensor<1x2x8x12xf32>
  %pr = tosa.reshape %p, %p3 : (tensor<1x2x8x12xf32>, !tosa.shape<3>) -> tensor<2x8x12xf32>
  %vr = tosa.reshape %v, %v3 : (tensor<1x2x12x16xf32>, !tosa.shape<3>) -> tensor<2x12x16xf32>
  %o = tosa.matmul %pr, %vr, %zp, %zp : (tensor<2x8x12xf32>, tensor<2x12x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x16xf32>
  %o4r = tosa.reshape %o, %o4 : (tensor<2x8x16xf32>, !tosa.shape<4>) -> tensor<1x2x8x16xf32>
  return %o4r, %lse : tensor<1x2x8x16xf32>, tensor<1x2x8xf32>
}

// -----

// The plain form: log(sum(exp(x - max))) + max.
// CHECK-LABEL: func.func @plain
// CHECK: %[[A:.*]]:2 = "fa.gridwise_attention"
// CHECK: return %[[A]]#0, %[[A]]#1
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @plain(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x12x16xf32>, %v: tensor<1x2x12x16xf32>) -> (tensor<1x2x8x16xf32>, tensor<1x2x8xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %s3 = tosa.const_shape {values = dense<[2, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3 = tosa.const_shape {values = dense<[2, 16, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v3 = tosa.const_shape {values = dense<[2, 12, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.const_shape {values = dense<[2, 8, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4 = tosa.const_shape {values = dense<[1, 2, 8, 12]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4 = tosa.const_shape {values = dense<[1, 2, 8, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %r3 = tosa.const_shape {values = dense<[1, 2, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x2x12x16xf32>) -> tensor<1x2x16x12xf32>
  %qr = tosa.reshape %q, %s3 : (tensor<1x2x8x16xf32>, !tosa.shape<3>) -> tensor<2x8x16xf32>
  %kr = tosa.reshape %kt, %k3 : (tensor<1x2x16x12xf32>, !tosa.shape<3>) -> tensor<2x16x12xf32>
  %mm = tosa.matmul %qr, %kr, %zp, %zp : (tensor<2x8x16xf32>, tensor<2x16x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x12xf32>
  %s = tosa.reshape %mm, %s4 : (tensor<2x8x12xf32>, !tosa.shape<4>) -> tensor<1x2x8x12xf32>
  %x = tosa.mul %s, %scale, %shift : (tensor<1x2x8x12xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x12xf32>
  %mx = tosa.reduce_max %x {axis = 3 : i32} : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x1xf32>
  %g3 = tosa.reshape %mx, %r3 : (tensor<1x2x8x1xf32>, !tosa.shape<3>) -> tensor<1x2x8xf32>
  %d = tosa.sub %x, %mx : (tensor<1x2x8x12xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x12xf32>
  %e = tosa.exp %d : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x12xf32>
  %se = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x1xf32>
  %se3 = tosa.reshape %se, %r3 : (tensor<1x2x8x1xf32>, !tosa.shape<3>) -> tensor<1x2x8xf32>
  %lg = tosa.log %se3 : (tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %lse = tosa.add %lg, %g3 : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %d2 = tosa.sub %x, %mx : (tensor<1x2x8x12xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x12xf32>
  %e2 = tosa.exp %d2 : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x12xf32>
  %l = tosa.reduce_sum %e2 {axis = 3 : i32} : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x1xf32>
  %rl = tosa.reciprocal %l : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %p = tosa.mul %e2, %rl, %shift : (tensor<1x2x8x12xf32>, tensor<1x2x8x1xf32>, tensor<1xi8>) -> tensor<1x2x8x12xf32>
  %pr = tosa.reshape %p, %p3 : (tensor<1x2x8x12xf32>, !tosa.shape<3>) -> tensor<2x8x12xf32>
  %vr = tosa.reshape %v, %v3 : (tensor<1x2x12x16xf32>, !tosa.shape<3>) -> tensor<2x12x16xf32>
  %o = tosa.matmul %pr, %vr, %zp, %zp : (tensor<2x8x12xf32>, tensor<2x12x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x16xf32>
  %o4r = tosa.reshape %o, %o4 : (tensor<2x8x16xf32>, !tosa.shape<4>) -> tensor<1x2x8x16xf32>
  return %o4r, %lse : tensor<1x2x8x16xf32>, tensor<1x2x8xf32>
}

// -----

// Refused: the log-sum-exp is over the unscaled scores, not the softmax's input.
// CHECK-LABEL: func.func @over_raw_scores
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: the log-sum-exp beside the attention is not over the softmax's scores
func.func @over_raw_scores(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x12x16xf32>, %v: tensor<1x2x12x16xf32>) -> (tensor<1x2x8x16xf32>, tensor<1x2x8xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %s3 = tosa.const_shape {values = dense<[2, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3 = tosa.const_shape {values = dense<[2, 16, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v3 = tosa.const_shape {values = dense<[2, 12, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.const_shape {values = dense<[2, 8, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4 = tosa.const_shape {values = dense<[1, 2, 8, 12]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4 = tosa.const_shape {values = dense<[1, 2, 8, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %r3 = tosa.const_shape {values = dense<[1, 2, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x2x12x16xf32>) -> tensor<1x2x16x12xf32>
  %qr = tosa.reshape %q, %s3 : (tensor<1x2x8x16xf32>, !tosa.shape<3>) -> tensor<2x8x16xf32>
  %kr = tosa.reshape %kt, %k3 : (tensor<1x2x16x12xf32>, !tosa.shape<3>) -> tensor<2x16x12xf32>
  %mm = tosa.matmul %qr, %kr, %zp, %zp : (tensor<2x8x16xf32>, tensor<2x16x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x12xf32>
  %s = tosa.reshape %mm, %s4 : (tensor<2x8x12xf32>, !tosa.shape<4>) -> tensor<1x2x8x12xf32>
  %x = tosa.mul %s, %scale, %shift : (tensor<1x2x8x12xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x12xf32>
  %mx = tosa.reduce_max %x {axis = 3 : i32} : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x1xf32>
  %ms = tosa.reduce_max %s {axis = 3 : i32} : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x1xf32>
  %g3 = tosa.reshape %ms, %r3 : (tensor<1x2x8x1xf32>, !tosa.shape<3>) -> tensor<1x2x8xf32>
  %d = tosa.sub %s, %ms : (tensor<1x2x8x12xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x12xf32>
  %e = tosa.exp %d : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x12xf32>
  %se = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x1xf32>
  %se3 = tosa.reshape %se, %r3 : (tensor<1x2x8x1xf32>, !tosa.shape<3>) -> tensor<1x2x8xf32>
  %lg = tosa.log %se3 : (tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %lse = tosa.add %lg, %g3 : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %d2 = tosa.sub %x, %mx : (tensor<1x2x8x12xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x12xf32>
  %e2 = tosa.exp %d2 : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x12xf32>
  %l = tosa.reduce_sum %e2 {axis = 3 : i32} : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x1xf32>
  %rl = tosa.reciprocal %l : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %p = tosa.mul %e2, %rl, %shift : (tensor<1x2x8x12xf32>, tensor<1x2x8x1xf32>, tensor<1xi8>) -> tensor<1x2x8x12xf32>
  %pr = tosa.reshape %p, %p3 : (tensor<1x2x8x12xf32>, !tosa.shape<3>) -> tensor<2x8x12xf32>
  %vr = tosa.reshape %v, %v3 : (tensor<1x2x12x16xf32>, !tosa.shape<3>) -> tensor<2x12x16xf32>
  %o = tosa.matmul %pr, %vr, %zp, %zp : (tensor<2x8x12xf32>, tensor<2x12x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x16xf32>
  %o4r = tosa.reshape %o, %o4 : (tensor<2x8x16xf32>, !tosa.shape<4>) -> tensor<1x2x8x16xf32>
  return %o4r, %lse : tensor<1x2x8x16xf32>, tensor<1x2x8xf32>
}

// -----

// Refused: shifted by the guarded max, but the unguarded max is added back.
// CHECK-LABEL: func.func @adds_other
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: the log-sum-exp beside the attention adds back another value than it shifted by
func.func @adds_other(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x12x16xf32>, %v: tensor<1x2x12x16xf32>) -> (tensor<1x2x8x16xf32>, tensor<1x2x8xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %inf = "tosa.const"() <{values = dense<0x7FF0000000000000> : tensor<1x1x1x1xf64>}> : () -> tensor<1x1x1x1xf64>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %s3 = tosa.const_shape {values = dense<[2, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3 = tosa.const_shape {values = dense<[2, 16, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v3 = tosa.const_shape {values = dense<[2, 12, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.const_shape {values = dense<[2, 8, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4 = tosa.const_shape {values = dense<[1, 2, 8, 12]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4 = tosa.const_shape {values = dense<[1, 2, 8, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %r3 = tosa.const_shape {values = dense<[1, 2, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x2x12x16xf32>) -> tensor<1x2x16x12xf32>
  %qr = tosa.reshape %q, %s3 : (tensor<1x2x8x16xf32>, !tosa.shape<3>) -> tensor<2x8x16xf32>
  %kr = tosa.reshape %kt, %k3 : (tensor<1x2x16x12xf32>, !tosa.shape<3>) -> tensor<2x16x12xf32>
  %mm = tosa.matmul %qr, %kr, %zp, %zp : (tensor<2x8x16xf32>, tensor<2x16x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x12xf32>
  %s = tosa.reshape %mm, %s4 : (tensor<2x8x12xf32>, !tosa.shape<4>) -> tensor<1x2x8x12xf32>
  %x = tosa.mul %s, %scale, %shift : (tensor<1x2x8x12xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x12xf32>
  %mx = tosa.reduce_max %x {axis = 3 : i32} : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x1xf32>
  %ab = tosa.abs %mx : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %ab64 = tosa.cast %ab : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf64>
  %isinf = tosa.equal %ab64, %inf : (tensor<1x2x8x1xf64>, tensor<1x1x1x1xf64>) -> tensor<1x2x8x1xi1>
  %g = tosa.select %isinf, %zero, %mx : (tensor<1x2x8x1xi1>, tensor<1x1x1x1xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %g3 = tosa.reshape %mx, %r3 : (tensor<1x2x8x1xf32>, !tosa.shape<3>) -> tensor<1x2x8xf32>
  %d = tosa.sub %x, %g : (tensor<1x2x8x12xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x12xf32>
  %e = tosa.exp %d : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x12xf32>
  %se = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x1xf32>
  %se3 = tosa.reshape %se, %r3 : (tensor<1x2x8x1xf32>, !tosa.shape<3>) -> tensor<1x2x8xf32>
  %lg = tosa.log %se3 : (tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %lse = tosa.add %lg, %g3 : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %d2 = tosa.sub %x, %mx : (tensor<1x2x8x12xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x12xf32>
  %e2 = tosa.exp %d2 : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x12xf32>
  %l = tosa.reduce_sum %e2 {axis = 3 : i32} : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x1xf32>
  %rl = tosa.reciprocal %l : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %p = tosa.mul %e2, %rl, %shift : (tensor<1x2x8x12xf32>, tensor<1x2x8x1xf32>, tensor<1xi8>) -> tensor<1x2x8x12xf32>
  %pr = tosa.reshape %p, %p3 : (tensor<1x2x8x12xf32>, !tosa.shape<3>) -> tensor<2x8x12xf32>
  %vr = tosa.reshape %v, %v3 : (tensor<1x2x12x16xf32>, !tosa.shape<3>) -> tensor<2x12x16xf32>
  %o = tosa.matmul %pr, %vr, %zp, %zp : (tensor<2x8x12xf32>, tensor<2x12x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x16xf32>
  %o4r = tosa.reshape %o, %o4 : (tensor<2x8x16xf32>, !tosa.shape<4>) -> tensor<1x2x8x16xf32>
  return %o4r, %lse : tensor<1x2x8x16xf32>, tensor<1x2x8xf32>
}

// -----

// Refused: the exponentials are returned too (a user that is no log-sum-exp).
// CHECK-LABEL: func.func @exps_returned
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: the scores or probabilities have another user
func.func @exps_returned(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x12x16xf32>, %v: tensor<1x2x12x16xf32>) -> (tensor<1x2x8x16xf32>, tensor<1x2x8xf32>, tensor<1x2x8x12xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %inf = "tosa.const"() <{values = dense<0x7FF0000000000000> : tensor<1x1x1x1xf64>}> : () -> tensor<1x1x1x1xf64>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %s3 = tosa.const_shape {values = dense<[2, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3 = tosa.const_shape {values = dense<[2, 16, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v3 = tosa.const_shape {values = dense<[2, 12, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.const_shape {values = dense<[2, 8, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4 = tosa.const_shape {values = dense<[1, 2, 8, 12]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4 = tosa.const_shape {values = dense<[1, 2, 8, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %r3 = tosa.const_shape {values = dense<[1, 2, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x2x12x16xf32>) -> tensor<1x2x16x12xf32>
  %qr = tosa.reshape %q, %s3 : (tensor<1x2x8x16xf32>, !tosa.shape<3>) -> tensor<2x8x16xf32>
  %kr = tosa.reshape %kt, %k3 : (tensor<1x2x16x12xf32>, !tosa.shape<3>) -> tensor<2x16x12xf32>
  %mm = tosa.matmul %qr, %kr, %zp, %zp : (tensor<2x8x16xf32>, tensor<2x16x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x12xf32>
  %s = tosa.reshape %mm, %s4 : (tensor<2x8x12xf32>, !tosa.shape<4>) -> tensor<1x2x8x12xf32>
  %x = tosa.mul %s, %scale, %shift : (tensor<1x2x8x12xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x12xf32>
  %mx = tosa.reduce_max %x {axis = 3 : i32} : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x1xf32>
  %ab = tosa.abs %mx : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %ab64 = tosa.cast %ab : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf64>
  %isinf = tosa.equal %ab64, %inf : (tensor<1x2x8x1xf64>, tensor<1x1x1x1xf64>) -> tensor<1x2x8x1xi1>
  %g = tosa.select %isinf, %zero, %mx : (tensor<1x2x8x1xi1>, tensor<1x1x1x1xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %g3 = tosa.reshape %g, %r3 : (tensor<1x2x8x1xf32>, !tosa.shape<3>) -> tensor<1x2x8xf32>
  %d = tosa.sub %x, %g : (tensor<1x2x8x12xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x12xf32>
  %e = tosa.exp %d : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x12xf32>
  %se = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x1xf32>
  %se3 = tosa.reshape %se, %r3 : (tensor<1x2x8x1xf32>, !tosa.shape<3>) -> tensor<1x2x8xf32>
  %lg = tosa.log %se3 : (tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %lse = tosa.add %lg, %g3 : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %d2 = tosa.sub %x, %mx : (tensor<1x2x8x12xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x12xf32>
  %e2 = tosa.exp %d2 : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x12xf32>
  %l = tosa.reduce_sum %e2 {axis = 3 : i32} : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x1xf32>
  %rl = tosa.reciprocal %l : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %p = tosa.mul %e2, %rl, %shift : (tensor<1x2x8x12xf32>, tensor<1x2x8x1xf32>, tensor<1xi8>) -> tensor<1x2x8x12xf32>
  %pr = tosa.reshape %p, %p3 : (tensor<1x2x8x12xf32>, !tosa.shape<3>) -> tensor<2x8x12xf32>
  %vr = tosa.reshape %v, %v3 : (tensor<1x2x12x16xf32>, !tosa.shape<3>) -> tensor<2x12x16xf32>
  %o = tosa.matmul %pr, %vr, %zp, %zp : (tensor<2x8x12xf32>, tensor<2x12x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x16xf32>
  %o4r = tosa.reshape %o, %o4 : (tensor<2x8x16xf32>, !tosa.shape<4>) -> tensor<1x2x8x16xf32>
  return %o4r, %lse, %e2 : tensor<1x2x8x16xf32>, tensor<1x2x8xf32>, tensor<1x2x8x12xf32>
}
