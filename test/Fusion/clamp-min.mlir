// Scores clamped at the lowest f32 at the softmax input (LLaMA 4.28:
// torch.max(w + mask, finfo.min), where the padding and causal parts of the
// mask, finfo.min each, add to -inf: lib/Fusion/ClampLowest.c). The source
// turns every masked score into the lowest f32, so a fully masked row
// averages V; the op reads it as the bias clamped the same way (its bias at
// the lowest makes the masked scores equal: the row averages V too). An
// unclamped bias would give 0 there: fa-check (0/1 padding over 2 keys and 8
// batches: key 0 is padded in some batch, whose row 0 is fully masked)
// would disagree. Only a scale and one plain bias may lie under the clamp.
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// RUN: fa-check --split-input-file --input-scale=3 --int-max=1 %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-5: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// LLaMA 4.28 in TOSA: torch.max(w, finfo.min) as tosa.maximum (NaN
// propagating): the bias clamped by arith.maximumf. The bias, computed from
// the iota constants and the [B, 1, N] padding tensor, is the op's score_mod
// (lib/Fusion/IndexBias.c), the clamp in it.
// CHECK-LABEL: func.func @llama_tosa
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}, %arg3) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 1.250000e-01 : f32, score_mod = @[[FN:fa_bias_[0-9]+]]}
// CHECK: func.func private @[[FN]](
// CHECK: %[[C:.*]] = arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK: arith.cmpf oeq, %[[C]]
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @llama_tosa(%q: tensor<8x2x3x16xf32>, %k: tensor<8x2x2x16xf32>, %v: tensor<8x2x2x16xf32>, %keep: tensor<8x1x2xi64>) -> tensor<8x2x3x16xf32> {
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %i1 = "tosa.const"() <{values = dense<1> : tensor<1x1x1x1xi64>}> : () -> tensor<1x1x1x1xi64>
  %min = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %z4 = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %rows = "tosa.const"() <{values = dense<[[[[0], [1], [2]]]]> : tensor<1x1x3x1xi64>}> : () -> tensor<1x1x3x1xi64>
  %cols = "tosa.const"() <{values = dense<[[[[0, 1]]]]> : tensor<1x1x1x2xi64>}> : () -> tensor<1x1x1x2xi64>
  %s3 = tosa.const_shape {values = dense<[16, 3, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3 = tosa.const_shape {values = dense<[16, 16, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v3 = tosa.const_shape {values = dense<[16, 2, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.const_shape {values = dense<[16, 3, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sc4 = tosa.const_shape {values = dense<[8, 2, 3, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4 = tosa.const_shape {values = dense<[8, 2, 3, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %m4 = tosa.const_shape {values = dense<[8, 1, 1, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<8x2x2x16xf32>) -> tensor<8x2x16x2xf32>
  %q3 = tosa.reshape %q, %s3 : (tensor<8x2x3x16xf32>, !tosa.shape<3>) -> tensor<16x3x16xf32>
  %kt3 = tosa.reshape %kt, %k3 : (tensor<8x2x16x2xf32>, !tosa.shape<3>) -> tensor<16x16x2xf32>
  %s = tosa.matmul %q3, %kt3, %zero, %zero : (tensor<16x3x16xf32>, tensor<16x16x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16x3x2xf32>
  %s4 = tosa.reshape %s, %sc4 : (tensor<16x3x2xf32>, !tosa.shape<4>) -> tensor<8x2x3x2xf32>
  %ss = tosa.mul %s4, %scale, %shift : (tensor<8x2x3x2xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<8x2x3x2xf32>
  %keep4 = tosa.reshape %keep, %m4 : (tensor<8x1x2xi64>, !tosa.shape<4>) -> tensor<8x1x1x2xi64>
  %keepb = tosa.equal %keep4, %i1 : (tensor<8x1x1x2xi64>, tensor<1x1x1x1xi64>) -> tensor<8x1x1x2xi1>
  %future = tosa.greater %cols, %rows : (tensor<1x1x1x2xi64>, tensor<1x1x3x1xi64>) -> tensor<1x1x3x2xi1>
  %padpart = tosa.select %keepb, %z4, %min : (tensor<8x1x1x2xi1>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<8x1x1x2xf32>
  %causalpart = tosa.select %future, %min, %z4 : (tensor<1x1x3x2xi1>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x3x2xf32>
  %mask = tosa.add %padpart, %causalpart : (tensor<8x1x1x2xf32>, tensor<1x1x3x2xf32>) -> tensor<8x1x3x2xf32>
  %x0 = tosa.add %ss, %mask : (tensor<8x2x3x2xf32>, tensor<8x1x3x2xf32>) -> tensor<8x2x3x2xf32>
  %x = tosa.maximum %x0, %min : (tensor<8x2x3x2xf32>, tensor<1x1x1x1xf32>) -> tensor<8x2x3x2xf32>
  %mx = tosa.reduce_max %x {axis = 3 : i32} : (tensor<8x2x3x2xf32>) -> tensor<8x2x3x1xf32>
  %d = tosa.sub %x, %mx : (tensor<8x2x3x2xf32>, tensor<8x2x3x1xf32>) -> tensor<8x2x3x2xf32>
  %e = tosa.exp %d : (tensor<8x2x3x2xf32>) -> tensor<8x2x3x2xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<8x2x3x2xf32>) -> tensor<8x2x3x1xf32>
  %r = tosa.reciprocal %sum : (tensor<8x2x3x1xf32>) -> tensor<8x2x3x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<8x2x3x2xf32>, tensor<8x2x3x1xf32>, tensor<1xi8>) -> tensor<8x2x3x2xf32>
  %p3r = tosa.reshape %p, %p3 : (tensor<8x2x3x2xf32>, !tosa.shape<3>) -> tensor<16x3x2xf32>
  %vv = tosa.reshape %v, %v3 : (tensor<8x2x2x16xf32>, !tosa.shape<3>) -> tensor<16x2x16xf32>
  %o = tosa.matmul %p3r, %vv, %zero, %zero : (tensor<16x3x2xf32>, tensor<16x2x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16x3x16xf32>
  %o4r = tosa.reshape %o, %o4 : (tensor<16x3x16xf32>, !tosa.shape<4>) -> tensor<8x2x3x16xf32>
  return %o4r : tensor<8x2x3x16xf32>
}

// -----

// torch-mlir's linalg form: select(w > lowest, w, lowest) (NaN gives the
// lowest): the bias clamped by arith.maxnumf (in the score_mod, as above).
// CHECK-LABEL: func.func @llama_select
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}, %arg3) {{.*}}score_mod = @[[FN:fa_bias_[0-9]+]]}
// CHECK: func.func private @[[FN]](
// CHECK: %[[C:.*]] = arith.maxnumf %{{.*}}, %{{.*}} : f32
// CHECK: arith.cmpf oeq, %[[C]]
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @llama_select(%q: tensor<8x2x3x16xf32>, %k: tensor<8x2x2x16xf32>, %v: tensor<8x2x2x16xf32>, %keep: tensor<8x1x2xi64>) -> tensor<8x2x3x16xf32> {
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %i1 = "tosa.const"() <{values = dense<1> : tensor<1x1x1x1xi64>}> : () -> tensor<1x1x1x1xi64>
  %min = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %z4 = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %rows = "tosa.const"() <{values = dense<[[[[0], [1], [2]]]]> : tensor<1x1x3x1xi64>}> : () -> tensor<1x1x3x1xi64>
  %cols = "tosa.const"() <{values = dense<[[[[0, 1]]]]> : tensor<1x1x1x2xi64>}> : () -> tensor<1x1x1x2xi64>
  %s3 = tosa.const_shape {values = dense<[16, 3, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3 = tosa.const_shape {values = dense<[16, 16, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v3 = tosa.const_shape {values = dense<[16, 2, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.const_shape {values = dense<[16, 3, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sc4 = tosa.const_shape {values = dense<[8, 2, 3, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4 = tosa.const_shape {values = dense<[8, 2, 3, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %m4 = tosa.const_shape {values = dense<[8, 1, 1, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<8x2x2x16xf32>) -> tensor<8x2x16x2xf32>
  %q3 = tosa.reshape %q, %s3 : (tensor<8x2x3x16xf32>, !tosa.shape<3>) -> tensor<16x3x16xf32>
  %kt3 = tosa.reshape %kt, %k3 : (tensor<8x2x16x2xf32>, !tosa.shape<3>) -> tensor<16x16x2xf32>
  %s = tosa.matmul %q3, %kt3, %zero, %zero : (tensor<16x3x16xf32>, tensor<16x16x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16x3x2xf32>
  %s4 = tosa.reshape %s, %sc4 : (tensor<16x3x2xf32>, !tosa.shape<4>) -> tensor<8x2x3x2xf32>
  %ss = tosa.mul %s4, %scale, %shift : (tensor<8x2x3x2xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<8x2x3x2xf32>
  %keep4 = tosa.reshape %keep, %m4 : (tensor<8x1x2xi64>, !tosa.shape<4>) -> tensor<8x1x1x2xi64>
  %keepb = tosa.equal %keep4, %i1 : (tensor<8x1x1x2xi64>, tensor<1x1x1x1xi64>) -> tensor<8x1x1x2xi1>
  %future = tosa.greater %cols, %rows : (tensor<1x1x1x2xi64>, tensor<1x1x3x1xi64>) -> tensor<1x1x3x2xi1>
  %padpart = tosa.select %keepb, %z4, %min : (tensor<8x1x1x2xi1>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<8x1x1x2xf32>
  %causalpart = tosa.select %future, %min, %z4 : (tensor<1x1x3x2xi1>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x3x2xf32>
  %mask = tosa.add %padpart, %causalpart : (tensor<8x1x1x2xf32>, tensor<1x1x3x2xf32>) -> tensor<8x1x3x2xf32>
  %x0 = tosa.add %ss, %mask : (tensor<8x2x3x2xf32>, tensor<8x1x3x2xf32>) -> tensor<8x2x3x2xf32>
  %empty = tensor.empty() : tensor<8x2x3x2xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x0 : tensor<8x2x3x2xf32>) outs(%empty : tensor<8x2x3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %lo = arith.constant -3.40282347E+38 : f32
    %g = arith.cmpf ogt, %in, %lo : f32
    %c = arith.select %g, %in, %lo : f32
    linalg.yield %c : f32
  } -> tensor<8x2x3x2xf32>
  %mx = tosa.reduce_max %x {axis = 3 : i32} : (tensor<8x2x3x2xf32>) -> tensor<8x2x3x1xf32>
  %d = tosa.sub %x, %mx : (tensor<8x2x3x2xf32>, tensor<8x2x3x1xf32>) -> tensor<8x2x3x2xf32>
  %e = tosa.exp %d : (tensor<8x2x3x2xf32>) -> tensor<8x2x3x2xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<8x2x3x2xf32>) -> tensor<8x2x3x1xf32>
  %r = tosa.reciprocal %sum : (tensor<8x2x3x1xf32>) -> tensor<8x2x3x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<8x2x3x2xf32>, tensor<8x2x3x1xf32>, tensor<1xi8>) -> tensor<8x2x3x2xf32>
  %p3r = tosa.reshape %p, %p3 : (tensor<8x2x3x2xf32>, !tosa.shape<3>) -> tensor<16x3x2xf32>
  %vv = tosa.reshape %v, %v3 : (tensor<8x2x2x16xf32>, !tosa.shape<3>) -> tensor<16x2x16xf32>
  %o = tosa.matmul %p3r, %vv, %zero, %zero : (tensor<16x3x2xf32>, tensor<16x2x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16x3x16xf32>
  %o4r = tosa.reshape %o, %o4 : (tensor<16x3x16xf32>, !tosa.shape<4>) -> tensor<8x2x3x16xf32>
  return %o4r : tensor<8x2x3x16xf32>
}

// -----

// Near miss: a clamp at -1e30, not the lowest f32: refused.
// CHECK-LABEL: func.func @clamp_not_lowest
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: a max on the scores is not a clamp at the lowest f32
func.func @clamp_not_lowest(%q: tensor<8x2x3x16xf32>, %k: tensor<8x2x2x16xf32>, %v: tensor<8x2x2x16xf32>, %keep: tensor<8x1x2xi64>) -> tensor<8x2x3x16xf32> {
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %i1 = "tosa.const"() <{values = dense<1> : tensor<1x1x1x1xi64>}> : () -> tensor<1x1x1x1xi64>
  %min = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %z4 = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %rows = "tosa.const"() <{values = dense<[[[[0], [1], [2]]]]> : tensor<1x1x3x1xi64>}> : () -> tensor<1x1x3x1xi64>
  %cols = "tosa.const"() <{values = dense<[[[[0, 1]]]]> : tensor<1x1x1x2xi64>}> : () -> tensor<1x1x1x2xi64>
  %s3 = tosa.const_shape {values = dense<[16, 3, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3 = tosa.const_shape {values = dense<[16, 16, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v3 = tosa.const_shape {values = dense<[16, 2, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.const_shape {values = dense<[16, 3, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sc4 = tosa.const_shape {values = dense<[8, 2, 3, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4 = tosa.const_shape {values = dense<[8, 2, 3, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %m4 = tosa.const_shape {values = dense<[8, 1, 1, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<8x2x2x16xf32>) -> tensor<8x2x16x2xf32>
  %q3 = tosa.reshape %q, %s3 : (tensor<8x2x3x16xf32>, !tosa.shape<3>) -> tensor<16x3x16xf32>
  %kt3 = tosa.reshape %kt, %k3 : (tensor<8x2x16x2xf32>, !tosa.shape<3>) -> tensor<16x16x2xf32>
  %s = tosa.matmul %q3, %kt3, %zero, %zero : (tensor<16x3x16xf32>, tensor<16x16x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16x3x2xf32>
  %s4 = tosa.reshape %s, %sc4 : (tensor<16x3x2xf32>, !tosa.shape<4>) -> tensor<8x2x3x2xf32>
  %ss = tosa.mul %s4, %scale, %shift : (tensor<8x2x3x2xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<8x2x3x2xf32>
  %keep4 = tosa.reshape %keep, %m4 : (tensor<8x1x2xi64>, !tosa.shape<4>) -> tensor<8x1x1x2xi64>
  %keepb = tosa.equal %keep4, %i1 : (tensor<8x1x1x2xi64>, tensor<1x1x1x1xi64>) -> tensor<8x1x1x2xi1>
  %future = tosa.greater %cols, %rows : (tensor<1x1x1x2xi64>, tensor<1x1x3x1xi64>) -> tensor<1x1x3x2xi1>
  %padpart = tosa.select %keepb, %z4, %min : (tensor<8x1x1x2xi1>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<8x1x1x2xf32>
  %causalpart = tosa.select %future, %min, %z4 : (tensor<1x1x3x2xi1>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x3x2xf32>
  %mask = tosa.add %padpart, %causalpart : (tensor<8x1x1x2xf32>, tensor<1x1x3x2xf32>) -> tensor<8x1x3x2xf32>
  %x0 = tosa.add %ss, %mask : (tensor<8x2x3x2xf32>, tensor<8x1x3x2xf32>) -> tensor<8x2x3x2xf32>
  %big = "tosa.const"() <{values = dense<-1.0e30> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %x = tosa.maximum %x0, %big : (tensor<8x2x3x2xf32>, tensor<1x1x1x1xf32>) -> tensor<8x2x3x2xf32>
  %mx = tosa.reduce_max %x {axis = 3 : i32} : (tensor<8x2x3x2xf32>) -> tensor<8x2x3x1xf32>
  %d = tosa.sub %x, %mx : (tensor<8x2x3x2xf32>, tensor<8x2x3x1xf32>) -> tensor<8x2x3x2xf32>
  %e = tosa.exp %d : (tensor<8x2x3x2xf32>) -> tensor<8x2x3x2xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<8x2x3x2xf32>) -> tensor<8x2x3x1xf32>
  %r = tosa.reciprocal %sum : (tensor<8x2x3x1xf32>) -> tensor<8x2x3x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<8x2x3x2xf32>, tensor<8x2x3x1xf32>, tensor<1xi8>) -> tensor<8x2x3x2xf32>
  %p3r = tosa.reshape %p, %p3 : (tensor<8x2x3x2xf32>, !tosa.shape<3>) -> tensor<16x3x2xf32>
  %vv = tosa.reshape %v, %v3 : (tensor<8x2x2x16xf32>, !tosa.shape<3>) -> tensor<16x2x16xf32>
  %o = tosa.matmul %p3r, %vv, %zero, %zero : (tensor<16x3x2xf32>, tensor<16x2x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16x3x16xf32>
  %o4r = tosa.reshape %o, %o4 : (tensor<16x3x16xf32>, !tosa.shape<4>) -> tensor<8x2x3x16xf32>
  return %o4r : tensor<8x2x3x16xf32>
}

// -----

// Near miss: the clamp over a -inf causal select (it makes those scores
// finite in the source; the op would keep them -inf): refused.
// CHECK-LABEL: func.func @clamp_over_causal
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: a mask under the clamp at the lowest f32
func.func @clamp_over_causal(%q: tensor<8x2x3x16xf32>, %k: tensor<8x2x2x16xf32>, %v: tensor<8x2x2x16xf32>, %keep: tensor<8x1x2xi64>) -> tensor<8x2x3x16xf32> {
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %i1 = "tosa.const"() <{values = dense<1> : tensor<1x1x1x1xi64>}> : () -> tensor<1x1x1x1xi64>
  %min = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %z4 = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %rows = "tosa.const"() <{values = dense<[[[[0], [1], [2]]]]> : tensor<1x1x3x1xi64>}> : () -> tensor<1x1x3x1xi64>
  %cols = "tosa.const"() <{values = dense<[[[[0, 1]]]]> : tensor<1x1x1x2xi64>}> : () -> tensor<1x1x1x2xi64>
  %s3 = tosa.const_shape {values = dense<[16, 3, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3 = tosa.const_shape {values = dense<[16, 16, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v3 = tosa.const_shape {values = dense<[16, 2, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.const_shape {values = dense<[16, 3, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sc4 = tosa.const_shape {values = dense<[8, 2, 3, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4 = tosa.const_shape {values = dense<[8, 2, 3, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %m4 = tosa.const_shape {values = dense<[8, 1, 1, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<8x2x2x16xf32>) -> tensor<8x2x16x2xf32>
  %q3 = tosa.reshape %q, %s3 : (tensor<8x2x3x16xf32>, !tosa.shape<3>) -> tensor<16x3x16xf32>
  %kt3 = tosa.reshape %kt, %k3 : (tensor<8x2x16x2xf32>, !tosa.shape<3>) -> tensor<16x16x2xf32>
  %s = tosa.matmul %q3, %kt3, %zero, %zero : (tensor<16x3x16xf32>, tensor<16x16x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16x3x2xf32>
  %s4 = tosa.reshape %s, %sc4 : (tensor<16x3x2xf32>, !tosa.shape<4>) -> tensor<8x2x3x2xf32>
  %ss = tosa.mul %s4, %scale, %shift : (tensor<8x2x3x2xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<8x2x3x2xf32>
  %keep4 = tosa.reshape %keep, %m4 : (tensor<8x1x2xi64>, !tosa.shape<4>) -> tensor<8x1x1x2xi64>
  %keepb = tosa.equal %keep4, %i1 : (tensor<8x1x1x2xi64>, tensor<1x1x1x1xi64>) -> tensor<8x1x1x2xi1>
  %future = tosa.greater %cols, %rows : (tensor<1x1x1x2xi64>, tensor<1x1x3x1xi64>) -> tensor<1x1x3x2xi1>
  %padpart = tosa.select %keepb, %z4, %min : (tensor<8x1x1x2xi1>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<8x1x1x2xf32>
  %causalpart = tosa.select %future, %min, %z4 : (tensor<1x1x3x2xi1>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x3x2xf32>
  %mask = tosa.add %padpart, %causalpart : (tensor<8x1x1x2xf32>, tensor<1x1x3x2xf32>) -> tensor<8x1x3x2xf32>
  %xp = tosa.add %ss, %padpart : (tensor<8x2x3x2xf32>, tensor<8x1x1x2xf32>) -> tensor<8x2x3x2xf32>
  %x0 = tosa.select %future, %ninf, %xp : (tensor<1x1x3x2xi1>, tensor<1x1x1x1xf32>, tensor<8x2x3x2xf32>) -> tensor<8x2x3x2xf32>
  %x = tosa.maximum %x0, %min : (tensor<8x2x3x2xf32>, tensor<1x1x1x1xf32>) -> tensor<8x2x3x2xf32>
  %mx = tosa.reduce_max %x {axis = 3 : i32} : (tensor<8x2x3x2xf32>) -> tensor<8x2x3x1xf32>
  %d = tosa.sub %x, %mx : (tensor<8x2x3x2xf32>, tensor<8x2x3x1xf32>) -> tensor<8x2x3x2xf32>
  %e = tosa.exp %d : (tensor<8x2x3x2xf32>) -> tensor<8x2x3x2xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<8x2x3x2xf32>) -> tensor<8x2x3x1xf32>
  %r = tosa.reciprocal %sum : (tensor<8x2x3x1xf32>) -> tensor<8x2x3x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<8x2x3x2xf32>, tensor<8x2x3x1xf32>, tensor<1xi8>) -> tensor<8x2x3x2xf32>
  %p3r = tosa.reshape %p, %p3 : (tensor<8x2x3x2xf32>, !tosa.shape<3>) -> tensor<16x3x2xf32>
  %vv = tosa.reshape %v, %v3 : (tensor<8x2x2x16xf32>, !tosa.shape<3>) -> tensor<16x2x16xf32>
  %o = tosa.matmul %p3r, %vv, %zero, %zero : (tensor<16x3x2xf32>, tensor<16x2x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16x3x16xf32>
  %o4r = tosa.reshape %o, %o4 : (tensor<16x3x16xf32>, !tosa.shape<4>) -> tensor<8x2x3x16xf32>
  return %o4r : tensor<8x2x3x16xf32>
}

// -----

// Near miss: select(w > lowest, lowest, w) is a min, not a clamp: refused.
// CHECK-LABEL: func.func @clamp_wrong_branches
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused:
func.func @clamp_wrong_branches(%q: tensor<8x2x3x16xf32>, %k: tensor<8x2x2x16xf32>, %v: tensor<8x2x2x16xf32>, %keep: tensor<8x1x2xi64>) -> tensor<8x2x3x16xf32> {
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %i1 = "tosa.const"() <{values = dense<1> : tensor<1x1x1x1xi64>}> : () -> tensor<1x1x1x1xi64>
  %min = "tosa.const"() <{values = dense<-3.40282347E+38> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %z4 = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %rows = "tosa.const"() <{values = dense<[[[[0], [1], [2]]]]> : tensor<1x1x3x1xi64>}> : () -> tensor<1x1x3x1xi64>
  %cols = "tosa.const"() <{values = dense<[[[[0, 1]]]]> : tensor<1x1x1x2xi64>}> : () -> tensor<1x1x1x2xi64>
  %s3 = tosa.const_shape {values = dense<[16, 3, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3 = tosa.const_shape {values = dense<[16, 16, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v3 = tosa.const_shape {values = dense<[16, 2, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.const_shape {values = dense<[16, 3, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sc4 = tosa.const_shape {values = dense<[8, 2, 3, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4 = tosa.const_shape {values = dense<[8, 2, 3, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %m4 = tosa.const_shape {values = dense<[8, 1, 1, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<8x2x2x16xf32>) -> tensor<8x2x16x2xf32>
  %q3 = tosa.reshape %q, %s3 : (tensor<8x2x3x16xf32>, !tosa.shape<3>) -> tensor<16x3x16xf32>
  %kt3 = tosa.reshape %kt, %k3 : (tensor<8x2x16x2xf32>, !tosa.shape<3>) -> tensor<16x16x2xf32>
  %s = tosa.matmul %q3, %kt3, %zero, %zero : (tensor<16x3x16xf32>, tensor<16x16x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16x3x2xf32>
  %s4 = tosa.reshape %s, %sc4 : (tensor<16x3x2xf32>, !tosa.shape<4>) -> tensor<8x2x3x2xf32>
  %ss = tosa.mul %s4, %scale, %shift : (tensor<8x2x3x2xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<8x2x3x2xf32>
  %keep4 = tosa.reshape %keep, %m4 : (tensor<8x1x2xi64>, !tosa.shape<4>) -> tensor<8x1x1x2xi64>
  %keepb = tosa.equal %keep4, %i1 : (tensor<8x1x1x2xi64>, tensor<1x1x1x1xi64>) -> tensor<8x1x1x2xi1>
  %future = tosa.greater %cols, %rows : (tensor<1x1x1x2xi64>, tensor<1x1x3x1xi64>) -> tensor<1x1x3x2xi1>
  %padpart = tosa.select %keepb, %z4, %min : (tensor<8x1x1x2xi1>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<8x1x1x2xf32>
  %causalpart = tosa.select %future, %min, %z4 : (tensor<1x1x3x2xi1>, tensor<1x1x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x3x2xf32>
  %mask = tosa.add %padpart, %causalpart : (tensor<8x1x1x2xf32>, tensor<1x1x3x2xf32>) -> tensor<8x1x3x2xf32>
  %x0 = tosa.add %ss, %mask : (tensor<8x2x3x2xf32>, tensor<8x1x3x2xf32>) -> tensor<8x2x3x2xf32>
  %empty = tensor.empty() : tensor<8x2x3x2xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x0 : tensor<8x2x3x2xf32>) outs(%empty : tensor<8x2x3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %lo = arith.constant -3.40282347E+38 : f32
    %g = arith.cmpf ogt, %in, %lo : f32
    %c = arith.select %g, %lo, %in : f32
    linalg.yield %c : f32
  } -> tensor<8x2x3x2xf32>
  %mx = tosa.reduce_max %x {axis = 3 : i32} : (tensor<8x2x3x2xf32>) -> tensor<8x2x3x1xf32>
  %d = tosa.sub %x, %mx : (tensor<8x2x3x2xf32>, tensor<8x2x3x1xf32>) -> tensor<8x2x3x2xf32>
  %e = tosa.exp %d : (tensor<8x2x3x2xf32>) -> tensor<8x2x3x2xf32>
  %sum = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<8x2x3x2xf32>) -> tensor<8x2x3x1xf32>
  %r = tosa.reciprocal %sum : (tensor<8x2x3x1xf32>) -> tensor<8x2x3x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<8x2x3x2xf32>, tensor<8x2x3x1xf32>, tensor<1xi8>) -> tensor<8x2x3x2xf32>
  %p3r = tosa.reshape %p, %p3 : (tensor<8x2x3x2xf32>, !tosa.shape<3>) -> tensor<16x3x2xf32>
  %vv = tosa.reshape %v, %v3 : (tensor<8x2x2x16xf32>, !tosa.shape<3>) -> tensor<16x2x16xf32>
  %o = tosa.matmul %p3r, %vv, %zero, %zero : (tensor<16x3x2xf32>, tensor<16x2x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<16x3x16xf32>
  %o4r = tosa.reshape %o, %o4 : (tensor<16x3x16xf32>, !tosa.shape<4>) -> tensor<8x2x3x16xf32>
  return %o4r : tensor<8x2x3x16xf32>
}
