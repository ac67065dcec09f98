// A KV-length mask whose fill is finite (masked_fill(arange(N) >= len,
// finfo.min), as the TOSA export of a KV-cache decode step writes it): a batch
// with len = 0 has no visible key, and the source averages V there (every
// score is the same fill). The op's kv_len would give 0 on those rows, so the
// boolean tensor the source computes becomes a bias of the lowest f32 instead
// (s + lowest == lowest: the masked scores stay equal, the row still averages
// V). Where the compare is not a tensor of its own (inside a linalg.generic)
// it stays refused (finite-fills.mlir).
// RUN: fa-opt --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// Every length 0 (every row fully masked), then lengths in 0..9.
// RUN: fa-check --int-max=0 %s | FileCheck %s --check-prefix=AGREE
// RUN: fa-check --int-max=9 --seed=3 %s | FileCheck %s --check-prefix=AGREE
// AGREE: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// That bias, computed from the key index (an iota constant) and the [B]
// lengths, is then the op's score_mod with the lengths a capture
// (lib/Fusion/IndexBias.c).
// CHECK-LABEL: func.func @tosa_kv_len_finite
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}, %arg3) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 1.250000e-01 : f32, score_mod = @[[FN:fa_bias_[0-9]+]]}
// CHECK-NOT: tosa.greater_equal
// CHECK: func.func private @[[FN]](%arg0: f32, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: tensor<2x1x1x1xi32>) -> f32
// CHECK: %[[J:.*]] = arith.index_cast %arg4 : index to i32
// CHECK: %[[L:.*]] = tensor.extract %arg5[%arg1, %{{.*}}, %{{.*}}, %{{.*}}] : tensor<2x1x1x1xi32>
// CHECK: %[[M:.*]] = arith.cmpi sge, %[[J]], %[[L]] : i32
// CHECK: %[[F:.*]] = arith.constant -3.40282347E+38 : f32
// CHECK: arith.select %[[M]], %[[F]], %{{.*}} : f32
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @tosa_kv_len_finite(%q: tensor<4x1x64xf32>, %kt: tensor<4x64x8xf32>, %v: tensor<4x8x64xf32>, %kv: tensor<2x1x1x1xi32>) -> tensor<4x1x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %fill = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %col = "tosa.const"() <{values = dense<[[[[0, 1, 2, 3, 4, 5, 6, 7]]]]> : tensor<1x1x1x8xi32>}> : () -> tensor<1x1x1x8xi32>
  %s4shape = tosa.const_shape {values = dense<[2, 2, 1, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3shape = tosa.const_shape {values = dense<[4, 1, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x1x64xf32>, tensor<4x64x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x1x8xf32>
  %s4 = tosa.reshape %s, %s4shape : (tensor<4x1x8xf32>, !tosa.shape<4>) -> tensor<2x2x1x8xf32>
  %ss = tosa.mul %s4, %scale, %shift : (tensor<2x2x1x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x2x1x8xf32>
  %ge = tosa.greater_equal %col, %kv : (tensor<1x1x1x8xi32>, tensor<2x1x1x1xi32>) -> tensor<2x1x1x8xi1>
  %sm = tosa.select %ge, %fill, %ss : (tensor<2x1x1x8xi1>, tensor<1x1x1x1xf32>, tensor<2x2x1x8xf32>) -> tensor<2x2x1x8xf32>
  %m = tosa.reduce_max %sm {axis = 3 : i32} : (tensor<2x2x1x8xf32>) -> tensor<2x2x1x1xf32>
  %d = tosa.sub %sm, %m : (tensor<2x2x1x8xf32>, tensor<2x2x1x1xf32>) -> tensor<2x2x1x8xf32>
  %e = tosa.exp %d : (tensor<2x2x1x8xf32>) -> tensor<2x2x1x8xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<2x2x1x8xf32>) -> tensor<2x2x1x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x2x1x1xf32>) -> tensor<2x2x1x1xf32>
  %p4 = tosa.mul %e, %r, %shift : (tensor<2x2x1x8xf32>, tensor<2x2x1x1xf32>, tensor<1xi8>) -> tensor<2x2x1x8xf32>
  %p = tosa.reshape %p4, %s3shape : (tensor<2x2x1x8xf32>, !tosa.shape<3>) -> tensor<4x1x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<4x1x8xf32>, tensor<4x8x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x1x64xf32>
  return %o : tensor<4x1x64xf32>
}
