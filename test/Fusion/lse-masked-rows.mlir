// The lse of fully masked rows (issue 35): the op's is -inf. Fusion takes an
// lse beside a mask that can empty a row only where the source gives -inf too
// (torch.logsumexp's guard of the max); the unguarded form (NaN there) and a
// finite fill (fill + log N there) are refused.
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// RUN: fa-check --split-input-file %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-3: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// -----

// A padding mask (-inf) may mask every key of a row: the unguarded form is NaN
// there in the source, the op's lse -inf: refused.
// CHECK-LABEL: func.func @plain_padded
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: the log-sum-exp beside the attention is unguarded: NaN on fully masked rows
func.func @plain_padded(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x12x16xf32>, %v: tensor<1x2x12x16xf32>, %pad: tensor<1x1x1x12xi1>) -> (tensor<1x2x8x16xf32>, tensor<1x2x8xf32>) {
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
  %fill = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %x0 = tosa.mul %s, %scale, %shift : (tensor<1x2x8x12xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x12xf32>
  %x = tosa.select %pad, %fill, %x0 : (tensor<1x1x1x12xi1>, tensor<1x1x1x1xf32>, tensor<1x2x8x12xf32>) -> tensor<1x2x8x12xf32>
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

// The guarded form gives -inf on such rows, as the op does: fused.
// CHECK-LABEL: func.func @guarded_padded
// CHECK: "fa.gridwise_attention"
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @guarded_padded(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x12x16xf32>, %v: tensor<1x2x12x16xf32>, %pad: tensor<1x1x1x12xi1>) -> (tensor<1x2x8x16xf32>, tensor<1x2x8xf32>) {
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
  %fill = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %x0 = tosa.mul %s, %scale, %shift : (tensor<1x2x8x12xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x12xf32>
  %x = tosa.select %pad, %fill, %x0 : (tensor<1x1x1x12xi1>, tensor<1x1x1x1xf32>, tensor<1x2x8x12xf32>) -> tensor<1x2x8x12xf32>
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

// A finite fill (the lowest f32): a row it masks entirely has lse fill + log(N)
// in the source: refused.
// CHECK-LABEL: func.func @guarded_finite_padded
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: the log-sum-exp beside the attention is fill + log(N) on rows a finite fill
func.func @guarded_finite_padded(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x12x16xf32>, %v: tensor<1x2x12x16xf32>, %pad: tensor<1x1x1x12xi1>) -> (tensor<1x2x8x16xf32>, tensor<1x2x8xf32>) {
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
  %fill = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %x0 = tosa.mul %s, %scale, %shift : (tensor<1x2x8x12xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x12xf32>
  %x = tosa.select %pad, %fill, %x0 : (tensor<1x1x1x12xi1>, tensor<1x1x1x1xf32>, tensor<1x2x8x12xf32>) -> tensor<1x2x8x12xf32>
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
