// TOSA broadcasts as importers write them (issue 14, item 4): MIGraphX
// broadcasts a mask and the softmax's row max and sum by multiplying with a
// ones constant (tosa.mul x, 1 is x, read through); a per-head bias
// [1, H, 1, N] added with TOSA's implicit broadcast; a decode step (M = 1)
// whose [1, N] mask is reshaped to [1, 1, 1, N] and whose scores keep their
// unit M dim through the [B*H, 1, N] -> [B, H, 1, N] reshape.
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// RUN: fa-check --split-input-file %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-3: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run
// WHY-COUNT-3: remark: fa-fuse-attention: fused into fa.gridwise_attention

// CHECK-LABEL: func.func @migraphx_softmax(
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %arg3) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>, scale = 1.250000e-01 : f32} : (tensor<1x4x16x32xf32>, tensor<1x4x32x32xf32>, tensor<1x4x32x32xf32>, tensor<1x1x1x32xf32>) -> tensor<1x4x16x32xf32>
// CHECK-NOT: tosa.reduce_max
func.func @migraphx_softmax(%q: tensor<1x4x16x32xf32>, %k: tensor<1x4x32x32xf32>, %v: tensor<1x4x32x32xf32>, %mask: tensor<1x1x1x32xf32>) -> tensor<1x4x16x32xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %ones = "tosa.const"() <{values = dense<1.0> : tensor<1x4x16x32xf32>}> : () -> tensor<1x4x16x32xf32>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %s3shape = tosa.const_shape {values = dense<[4, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3shape = tosa.const_shape {values = dense<[4, 32, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4shape = tosa.const_shape {values = dense<[1, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q3 = tosa.reshape %q, %s3shape : (tensor<1x4x16x32xf32>, !tosa.shape<3>) -> tensor<4x16x32xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x4x32x32xf32>) -> tensor<1x4x32x32xf32>
  %k3 = tosa.reshape %kt, %k3shape : (tensor<1x4x32x32xf32>, !tosa.shape<3>) -> tensor<4x32x32xf32>
  %s3 = tosa.matmul %q3, %k3, %zp, %zp : (tensor<4x16x32xf32>, tensor<4x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x32xf32>
  %s = tosa.reshape %s3, %s4shape : (tensor<4x16x32xf32>, !tosa.shape<4>) -> tensor<1x4x16x32xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<1x4x16x32xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x16x32xf32>
  %maskb = tosa.mul %mask, %ones, %shift : (tensor<1x1x1x32xf32>, tensor<1x4x16x32xf32>, tensor<1xi8>) -> tensor<1x4x16x32xf32>
  %sm = tosa.add %ss, %maskb : (tensor<1x4x16x32xf32>, tensor<1x4x16x32xf32>) -> tensor<1x4x16x32xf32>
  %max = tosa.reduce_max %sm {axis = 3 : i32} : (tensor<1x4x16x32xf32>) -> tensor<1x4x16x1xf32>
  %maxb = tosa.mul %max, %ones, %shift : (tensor<1x4x16x1xf32>, tensor<1x4x16x32xf32>, tensor<1xi8>) -> tensor<1x4x16x32xf32>
  %sub = tosa.sub %sm, %maxb : (tensor<1x4x16x32xf32>, tensor<1x4x16x32xf32>) -> tensor<1x4x16x32xf32>
  %e = tosa.exp %sub : (tensor<1x4x16x32xf32>) -> tensor<1x4x16x32xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x4x16x32xf32>) -> tensor<1x4x16x1xf32>
  %sumb = tosa.mul %sum, %ones, %shift : (tensor<1x4x16x1xf32>, tensor<1x4x16x32xf32>, tensor<1xi8>) -> tensor<1x4x16x32xf32>
  %r = tosa.reciprocal %sumb : (tensor<1x4x16x32xf32>) -> tensor<1x4x16x32xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x4x16x32xf32>, tensor<1x4x16x32xf32>, tensor<1xi8>) -> tensor<1x4x16x32xf32>
  %p3 = tosa.reshape %p, %s3shape : (tensor<1x4x16x32xf32>, !tosa.shape<3>) -> tensor<4x16x32xf32>
  %v3 = tosa.reshape %v, %k3shape : (tensor<1x4x32x32xf32>, !tosa.shape<3>) -> tensor<4x32x32xf32>
  %o3 = tosa.matmul %p3, %v3, %zp, %zp : (tensor<4x16x32xf32>, tensor<4x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x32xf32>
  %o = tosa.reshape %o3, %s4shape : (tensor<4x16x32xf32>, !tosa.shape<4>) -> tensor<1x4x16x32xf32>
  return %o : tensor<1x4x16x32xf32>
}

// -----

// CHECK-LABEL: func.func @head_bias(
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %arg3) {{.*}} : (tensor<1x4x16x32xf32>, tensor<1x4x32x32xf32>, tensor<1x4x32x32xf32>, tensor<1x4x1x32xf32>) -> tensor<1x4x16x32xf32>
func.func @head_bias(%q: tensor<1x4x16x32xf32>, %k: tensor<1x4x32x32xf32>, %v: tensor<1x4x32x32xf32>, %bias: tensor<1x4x1x32xf32>) -> tensor<1x4x16x32xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %ones = "tosa.const"() <{values = dense<1.0> : tensor<1x4x16x32xf32>}> : () -> tensor<1x4x16x32xf32>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %s3shape = tosa.const_shape {values = dense<[4, 16, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3shape = tosa.const_shape {values = dense<[4, 32, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4shape = tosa.const_shape {values = dense<[1, 4, 16, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q3 = tosa.reshape %q, %s3shape : (tensor<1x4x16x32xf32>, !tosa.shape<3>) -> tensor<4x16x32xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x4x32x32xf32>) -> tensor<1x4x32x32xf32>
  %k3 = tosa.reshape %kt, %k3shape : (tensor<1x4x32x32xf32>, !tosa.shape<3>) -> tensor<4x32x32xf32>
  %s3 = tosa.matmul %q3, %k3, %zp, %zp : (tensor<4x16x32xf32>, tensor<4x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x32xf32>
  %s = tosa.reshape %s3, %s4shape : (tensor<4x16x32xf32>, !tosa.shape<4>) -> tensor<1x4x16x32xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<1x4x16x32xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x16x32xf32>
  %sm = tosa.add %ss, %bias : (tensor<1x4x16x32xf32>, tensor<1x4x1x32xf32>) -> tensor<1x4x16x32xf32>
  %max = tosa.reduce_max %sm {axis = 3 : i32} : (tensor<1x4x16x32xf32>) -> tensor<1x4x16x1xf32>
  %maxb = tosa.mul %max, %ones, %shift : (tensor<1x4x16x1xf32>, tensor<1x4x16x32xf32>, tensor<1xi8>) -> tensor<1x4x16x32xf32>
  %sub = tosa.sub %sm, %maxb : (tensor<1x4x16x32xf32>, tensor<1x4x16x32xf32>) -> tensor<1x4x16x32xf32>
  %e = tosa.exp %sub : (tensor<1x4x16x32xf32>) -> tensor<1x4x16x32xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x4x16x32xf32>) -> tensor<1x4x16x1xf32>
  %sumb = tosa.mul %sum, %ones, %shift : (tensor<1x4x16x1xf32>, tensor<1x4x16x32xf32>, tensor<1xi8>) -> tensor<1x4x16x32xf32>
  %r = tosa.reciprocal %sumb : (tensor<1x4x16x32xf32>) -> tensor<1x4x16x32xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x4x16x32xf32>, tensor<1x4x16x32xf32>, tensor<1xi8>) -> tensor<1x4x16x32xf32>
  %p3 = tosa.reshape %p, %s3shape : (tensor<1x4x16x32xf32>, !tosa.shape<3>) -> tensor<4x16x32xf32>
  %v3 = tosa.reshape %v, %k3shape : (tensor<1x4x32x32xf32>, !tosa.shape<3>) -> tensor<4x32x32xf32>
  %o3 = tosa.matmul %p3, %v3, %zp, %zp : (tensor<4x16x32xf32>, tensor<4x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x16x32xf32>
  %o = tosa.reshape %o3, %s4shape : (tensor<4x16x32xf32>, !tosa.shape<4>) -> tensor<1x4x16x32xf32>
  return %o : tensor<1x4x16x32xf32>
}

// -----

// CHECK-LABEL: func.func @decode_mask(
// CHECK: %[[MASK:.*]] = tensor.expand_shape %arg3
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %[[MASK]]) {{.*}} : (tensor<1x4x1x32xf32>, tensor<1x4x32x32xf32>, tensor<1x4x32x32xf32>, tensor<1x1x1x32xf32>) -> tensor<1x4x1x32xf32>
func.func @decode_mask(%q: tensor<1x4x1x32xf32>, %k: tensor<1x4x32x32xf32>, %v: tensor<1x4x32x32xf32>, %mask: tensor<1x32xf32>) -> tensor<1x4x1x32xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %ones = "tosa.const"() <{values = dense<1.0> : tensor<1x4x1x32xf32>}> : () -> tensor<1x4x1x32xf32>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %s3shape = tosa.const_shape {values = dense<[4, 1, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3shape = tosa.const_shape {values = dense<[4, 32, 32]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4shape = tosa.const_shape {values = dense<[1, 4, 1, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q3 = tosa.reshape %q, %s3shape : (tensor<1x4x1x32xf32>, !tosa.shape<3>) -> tensor<4x1x32xf32>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x4x32x32xf32>) -> tensor<1x4x32x32xf32>
  %k3 = tosa.reshape %kt, %k3shape : (tensor<1x4x32x32xf32>, !tosa.shape<3>) -> tensor<4x32x32xf32>
  %s3 = tosa.matmul %q3, %k3, %zp, %zp : (tensor<4x1x32xf32>, tensor<4x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x1x32xf32>
  %s = tosa.reshape %s3, %s4shape : (tensor<4x1x32xf32>, !tosa.shape<4>) -> tensor<1x4x1x32xf32>
  %ss = tosa.mul %s, %scale, %shift : (tensor<1x4x1x32xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x1x32xf32>
  %m4shape = tosa.const_shape {values = dense<[1, 1, 1, 32]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %mask4 = tosa.reshape %mask, %m4shape : (tensor<1x32xf32>, !tosa.shape<4>) -> tensor<1x1x1x32xf32>
  %maskb = tosa.mul %mask4, %ones, %shift : (tensor<1x1x1x32xf32>, tensor<1x4x1x32xf32>, tensor<1xi8>) -> tensor<1x4x1x32xf32>
  %sm = tosa.add %ss, %maskb : (tensor<1x4x1x32xf32>, tensor<1x4x1x32xf32>) -> tensor<1x4x1x32xf32>
  %max = tosa.reduce_max %sm {axis = 3 : i32} : (tensor<1x4x1x32xf32>) -> tensor<1x4x1x1xf32>
  %maxb = tosa.mul %max, %ones, %shift : (tensor<1x4x1x1xf32>, tensor<1x4x1x32xf32>, tensor<1xi8>) -> tensor<1x4x1x32xf32>
  %sub = tosa.sub %sm, %maxb : (tensor<1x4x1x32xf32>, tensor<1x4x1x32xf32>) -> tensor<1x4x1x32xf32>
  %e = tosa.exp %sub : (tensor<1x4x1x32xf32>) -> tensor<1x4x1x32xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x4x1x32xf32>) -> tensor<1x4x1x1xf32>
  %sumb = tosa.mul %sum, %ones, %shift : (tensor<1x4x1x1xf32>, tensor<1x4x1x32xf32>, tensor<1xi8>) -> tensor<1x4x1x32xf32>
  %r = tosa.reciprocal %sumb : (tensor<1x4x1x32xf32>) -> tensor<1x4x1x32xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x4x1x32xf32>, tensor<1x4x1x32xf32>, tensor<1xi8>) -> tensor<1x4x1x32xf32>
  %p3 = tosa.reshape %p, %s3shape : (tensor<1x4x1x32xf32>, !tosa.shape<3>) -> tensor<4x1x32xf32>
  %v3 = tosa.reshape %v, %k3shape : (tensor<1x4x32x32xf32>, !tosa.shape<3>) -> tensor<4x32x32xf32>
  %o3 = tosa.matmul %p3, %v3, %zp, %zp : (tensor<4x1x32xf32>, tensor<4x32x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x1x32xf32>
  %o = tosa.reshape %o3, %s4shape : (tensor<4x1x32xf32>, !tosa.shape<4>) -> tensor<1x4x1x32xf32>
  return %o : tensor<1x4x1x32xf32>
}
