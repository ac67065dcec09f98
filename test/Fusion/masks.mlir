// Masks (L5/T3): KV-cache lengths become the kv_len operand, boolean padding
// masks become an additive bias.
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// WHY-COUNT-6: remark: fa-fuse-attention: fused into fa.gridwise_attention
// Numerics on the CPU against the unfused source (lengths in 0..9: some rows see no key).
// RUN: fa-check --split-input-file --int-max=9 %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-6: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// linalg: index_cast(j) >= kv[b] inside a generic; kv_len is %kv as it is.
// CHECK-LABEL: func.func @linalg_kv_len
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %arg3) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32} : (tensor<2x2x3x16xf32>, tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>, tensor<2xi32>) -> tensor<2x2x3x16xf32>
// CHECK-NOT: linalg.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#batch = affine_map<(d0, d1, d2, d3) -> (d0)>
func.func @linalg_kv_len(%q: tensor<2x2x3x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>, %kv: tensor<2xi32>) -> tensor<2x2x3x16xf32> {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %s0 = tensor.empty() : tensor<2x2x3x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x2x3x8xf32>) -> tensor<2x2x3x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x3x16xf32>, tensor<2x2x8x16xf32>) outs(%sz : tensor<2x2x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x8xf32>
  %masked = linalg.generic {indexing_maps = [#id, #batch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %kv : tensor<2x2x3x8xf32>, tensor<2xi32>) outs(%s0 : tensor<2x2x3x8xf32>) {
  ^bb0(%x: f32, %len: i32, %o: f32):
    %j = linalg.index 3 : index
    %ji = arith.index_cast %j : index to i32
    %past = arith.cmpi sge, %ji, %len : i32
    %y = arith.select %past, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x2x3x8xf32>
  %r0 = tensor.empty() : tensor<2x2x3xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%r0 : tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
  %mx = linalg.reduce ins(%masked : tensor<2x2x3x8xf32>) outs(%mi : tensor<2x2x3xf32>) dimensions = [3]
    (%x: f32, %acc: f32) {
      %r = arith.maxnumf %x, %acc : f32
      linalg.yield %r : f32
    }
  %e = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%masked, %mx : tensor<2x2x3x8xf32>, tensor<2x2x3xf32>) outs(%s0 : tensor<2x2x3x8xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<2x2x3x8xf32>
  %li = linalg.fill ins(%z : f32) outs(%r0 : tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
  %l = linalg.reduce ins(%e : tensor<2x2x3x8xf32>) outs(%li : tensor<2x2x3xf32>) dimensions = [3]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e, %l : tensor<2x2x3x8xf32>, tensor<2x2x3xf32>) outs(%s0 : tensor<2x2x3x8xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %y = arith.divf %x, %r : f32
    linalg.yield %y : f32
  } -> tensor<2x2x3x8xf32>
  %o0 = tensor.empty() : tensor<2x2x3x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x2x3x16xf32>) -> tensor<2x2x3x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x3x8xf32>, tensor<2x2x8x16xf32>) outs(%oz : tensor<2x2x3x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x16xf32>
  return %o : tensor<2x2x3x16xf32>
}

// -----

// L5 padding mask as booleans, true = visible: select(pad[b, j], s, -inf)
// becomes the bias select(pad, 0, -inf) over [B, 1, 1, N].
// CHECK-LABEL: func.func @linalg_padding_mask
// CHECK: %[[PAD4:.*]] = tensor.expand_shape %arg3 {{\[}}[0], [1, 2, 3]] output_shape [2, 1, 1, 8] : tensor<2x8xi1> into tensor<2x1x1x8xi1>
// CHECK-DAG: %[[ZERO:.*]] = tensor.splat %{{.*}} : tensor<2x1x1x8xf32>
// CHECK-DAG: %[[NINF:.*]] = tensor.splat %{{.*}} : tensor<2x1x1x8xf32>
// CHECK: %[[BIAS:.*]] = arith.select %[[PAD4]], %[[ZERO]], %[[NINF]] : tensor<2x1x1x8xi1>, tensor<2x1x1x8xf32>
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %[[BIAS]]) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// CHECK-NOT: linalg.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#bj = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
func.func @linalg_padding_mask(%q: tensor<2x2x3x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>, %pad: tensor<2x8xi1>) -> tensor<2x2x3x16xf32> {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %s0 = tensor.empty() : tensor<2x2x3x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x2x3x8xf32>) -> tensor<2x2x3x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x3x16xf32>, tensor<2x2x8x16xf32>) outs(%sz : tensor<2x2x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x8xf32>
  %masked = linalg.generic {indexing_maps = [#id, #bj, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %pad : tensor<2x2x3x8xf32>, tensor<2x8xi1>) outs(%s0 : tensor<2x2x3x8xf32>) {
  ^bb0(%x: f32, %keep: i1, %o: f32):
    %y = arith.select %keep, %x, %ninf : f32
    linalg.yield %y : f32
  } -> tensor<2x2x3x8xf32>
  %r0 = tensor.empty() : tensor<2x2x3xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%r0 : tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
  %mx = linalg.reduce ins(%masked : tensor<2x2x3x8xf32>) outs(%mi : tensor<2x2x3xf32>) dimensions = [3]
    (%x: f32, %acc: f32) {
      %r = arith.maxnumf %x, %acc : f32
      linalg.yield %r : f32
    }
  %e = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%masked, %mx : tensor<2x2x3x8xf32>, tensor<2x2x3xf32>) outs(%s0 : tensor<2x2x3x8xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<2x2x3x8xf32>
  %li = linalg.fill ins(%z : f32) outs(%r0 : tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
  %l = linalg.reduce ins(%e : tensor<2x2x3x8xf32>) outs(%li : tensor<2x2x3xf32>) dimensions = [3]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e, %l : tensor<2x2x3x8xf32>, tensor<2x2x3xf32>) outs(%s0 : tensor<2x2x3x8xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %y = arith.divf %x, %r : f32
    linalg.yield %y : f32
  } -> tensor<2x2x3x8xf32>
  %o0 = tensor.empty() : tensor<2x2x3x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x2x3x16xf32>) -> tensor<2x2x3x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x3x8xf32>, tensor<2x2x8x16xf32>) outs(%oz : tensor<2x2x3x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x16xf32>
  return %o : tensor<2x2x3x16xf32>
}


// -----

// T3 KV-cache decode (M = 1): select(greater(col_iota, kv), -inf, s) on the
// scores split to [B, H, 1, N]; keys j > kv[b] are masked, so the op's
// kv_len is kv + 1 over [B].
// CHECK-LABEL: func.func @tosa_kv_cache
// CHECK-DAG: %[[LEN:.*]] = tensor.collapse_shape %arg3 {{\[}}[0, 1, 2, 3]] : tensor<2x1x1x1xi32> into tensor<2xi32>
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: %[[SPLAT:.*]] = tensor.splat %[[ONE]] : tensor<2xi32>
// CHECK: %[[LEN1:.*]] = arith.addi %[[LEN]], %[[SPLAT]] : tensor<2xi32>
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}, %[[LEN1]]) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0, 0>, scale = 1.250000e-01 : f32} : (tensor<2x2x1x64xf32>, tensor<2x2x64x8xf32>, tensor<2x2x8x64xf32>, tensor<2xi32>) -> tensor<2x2x1x64xf32>
// CHECK-NOT: tosa.matmul
// CHECK-NOT: tosa.greater
func.func @tosa_kv_cache(%q: tensor<4x1x64xf32>, %kt: tensor<4x64x8xf32>, %v: tensor<4x8x64xf32>, %kv: tensor<2x1x1x1xi32>) -> tensor<4x1x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %col = "tosa.const"() <{values = dense<[[[[0, 1, 2, 3, 4, 5, 6, 7]]]]> : tensor<1x1x1x8xi32>}> : () -> tensor<1x1x1x8xi32>
  %s4shape = tosa.const_shape {values = dense<[2, 2, 1, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3shape = tosa.const_shape {values = dense<[4, 1, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x1x64xf32>, tensor<4x64x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x1x8xf32>
  %s4 = tosa.reshape %s, %s4shape : (tensor<4x1x8xf32>, !tosa.shape<4>) -> tensor<2x2x1x8xf32>
  %ss = tosa.mul %s4, %scale, %shift : (tensor<2x2x1x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<2x2x1x8xf32>
  %gt = tosa.greater %col, %kv : (tensor<1x1x1x8xi32>, tensor<2x1x1x1xi32>) -> tensor<2x1x1x8xi1>
  %sm = tosa.select %gt, %ninf, %ss : (tensor<2x1x1x8xi1>, tensor<1x1x1x1xf32>, tensor<2x2x1x8xf32>) -> tensor<2x2x1x8xf32>
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

// -----

// TOSA: a [B, H, 1, 1] length (keys j > kv[b, h] masked) is a [B, Hq] kv_len of kv + 1.
// CHECK-LABEL: func.func @kv_len_per_head
// CHECK: %[[KV:.*]] = tensor.collapse_shape %arg3 {{\[}}[0], [1, 2, 3]] : tensor<2x2x1x1xi32> into tensor<2x2xi32>
// CHECK: %[[KV1:.*]] = arith.addi %[[KV]], %{{.*}} : tensor<2x2xi32>
// CHECK: "fa.gridwise_attention"({{.*}}, %[[KV1]]) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32} : ({{.*}}, tensor<2x2xi32>) -> tensor<2x2x1x64xf32>
func.func @kv_len_per_head(%q: tensor<4x1x64xf32>, %kt: tensor<4x64x8xf32>, %v: tensor<4x8x64xf32>, %kv: tensor<2x2x1x1xi32>) -> tensor<4x1x64xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %ninf = "tosa.const"() <{values = dense<0xFF800000> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %col = "tosa.const"() <{values = dense<[[[[0, 1, 2, 3, 4, 5, 6, 7]]]]> : tensor<1x1x1x8xi32>}> : () -> tensor<1x1x1x8xi32>
  %s4shape = tosa.const_shape {values = dense<[2, 2, 1, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3shape = tosa.const_shape {values = dense<[4, 1, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x1x64xf32>, tensor<4x64x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x1x8xf32>
  %s4 = tosa.reshape %s, %s4shape : (tensor<4x1x8xf32>, !tosa.shape<4>) -> tensor<2x2x1x8xf32>
  %gt = tosa.greater %col, %kv : (tensor<1x1x1x8xi32>, tensor<2x2x1x1xi32>) -> tensor<2x2x1x8xi1>
  %sm = tosa.select %gt, %ninf, %s4 : (tensor<2x2x1x8xi1>, tensor<1x1x1x1xf32>, tensor<2x2x1x8xf32>) -> tensor<2x2x1x8xf32>
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

// -----

// linalg: a KV length per (batch, head), kv[b, h], becomes a [B, Hq] kv_len.
// CHECK-LABEL: func.func @linalg_kv_len_per_head
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %arg3) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32} : (tensor<2x2x3x16xf32>, tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>, tensor<2x2xi64>) -> tensor<2x2x3x16xf32>
// CHECK-NOT: linalg.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#bh = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @linalg_kv_len_per_head(%q: tensor<2x2x3x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>, %kv: tensor<2x2xi64>) -> tensor<2x2x3x16xf32> {
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %s0 = tensor.empty() : tensor<2x2x3x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x2x3x8xf32>) -> tensor<2x2x3x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x3x16xf32>, tensor<2x2x8x16xf32>) outs(%sz : tensor<2x2x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x8xf32>
  %masked = linalg.generic {indexing_maps = [#id, #bh, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %kv : tensor<2x2x3x8xf32>, tensor<2x2xi64>) outs(%s0 : tensor<2x2x3x8xf32>) {
  ^bb0(%x: f32, %len: i64, %o: f32):
    %j = linalg.index 3 : index
    %ji = arith.index_cast %j : index to i64
    %past = arith.cmpi sge, %ji, %len : i64
    %y = arith.select %past, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x2x3x8xf32>
  %r0 = tensor.empty() : tensor<2x2x3xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%r0 : tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
  %mx = linalg.reduce ins(%masked : tensor<2x2x3x8xf32>) outs(%mi : tensor<2x2x3xf32>) dimensions = [3]
    (%x: f32, %acc: f32) {
      %r = arith.maxnumf %x, %acc : f32
      linalg.yield %r : f32
    }
  %e = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%masked, %mx : tensor<2x2x3x8xf32>, tensor<2x2x3xf32>) outs(%s0 : tensor<2x2x3x8xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<2x2x3x8xf32>
  %li = linalg.fill ins(%z : f32) outs(%r0 : tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
  %l = linalg.reduce ins(%e : tensor<2x2x3x8xf32>) outs(%li : tensor<2x2x3xf32>) dimensions = [3]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e, %l : tensor<2x2x3x8xf32>, tensor<2x2x3xf32>) outs(%s0 : tensor<2x2x3x8xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %y = arith.divf %x, %r : f32
    linalg.yield %y : f32
  } -> tensor<2x2x3x8xf32>
  %o0 = tensor.empty() : tensor<2x2x3x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x2x3x16xf32>) -> tensor<2x2x3x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x3x8xf32>, tensor<2x2x8x16xf32>) outs(%oz : tensor<2x2x3x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x16xf32>
  return %o : tensor<2x2x3x16xf32>
}

// -----

// The same with f16 Q, K, V extended to f32 (the op keeps f16: the tensor-core kernel on NVIDIA).
// CHECK-LABEL: func.func @linalg_kv_len_per_head_f16
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %arg3) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32} : (tensor<2x2x3x16xf16>, tensor<2x2x8x16xf16>, tensor<2x2x8x16xf16>, tensor<2x2xi64>) -> tensor<2x2x3x16xf32>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#bh = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @linalg_kv_len_per_head_f16(%qh: tensor<2x2x3x16xf16>, %kh: tensor<2x2x8x16xf16>, %vh: tensor<2x2x8x16xf16>, %kv: tensor<2x2xi64>) -> tensor<2x2x3x16xf32> {
  %q0 = tensor.empty() : tensor<2x2x3x16xf32>
  %kv0 = tensor.empty() : tensor<2x2x8x16xf32>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qh : tensor<2x2x3x16xf16>) outs(%q0 : tensor<2x2x3x16xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    linalg.yield %y : f32
  } -> tensor<2x2x3x16xf32>
  %k = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%kh : tensor<2x2x8x16xf16>) outs(%kv0 : tensor<2x2x8x16xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    linalg.yield %y : f32
  } -> tensor<2x2x8x16xf32>
  %v = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%vh : tensor<2x2x8x16xf16>) outs(%kv0 : tensor<2x2x8x16xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    linalg.yield %y : f32
  } -> tensor<2x2x8x16xf32>
  %z = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %s0 = tensor.empty() : tensor<2x2x3x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x2x3x8xf32>) -> tensor<2x2x3x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x3x16xf32>, tensor<2x2x8x16xf32>) outs(%sz : tensor<2x2x3x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x8xf32>
  %masked = linalg.generic {indexing_maps = [#id, #bh, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %kv : tensor<2x2x3x8xf32>, tensor<2x2xi64>) outs(%s0 : tensor<2x2x3x8xf32>) {
  ^bb0(%x: f32, %len: i64, %o: f32):
    %j = linalg.index 3 : index
    %ji = arith.index_cast %j : index to i64
    %past = arith.cmpi sge, %ji, %len : i64
    %y = arith.select %past, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<2x2x3x8xf32>
  %r0 = tensor.empty() : tensor<2x2x3xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%r0 : tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
  %mx = linalg.reduce ins(%masked : tensor<2x2x3x8xf32>) outs(%mi : tensor<2x2x3xf32>) dimensions = [3]
    (%x: f32, %acc: f32) {
      %r = arith.maxnumf %x, %acc : f32
      linalg.yield %r : f32
    }
  %e = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%masked, %mx : tensor<2x2x3x8xf32>, tensor<2x2x3xf32>) outs(%s0 : tensor<2x2x3x8xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<2x2x3x8xf32>
  %li = linalg.fill ins(%z : f32) outs(%r0 : tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
  %l = linalg.reduce ins(%e : tensor<2x2x3x8xf32>) outs(%li : tensor<2x2x3xf32>) dimensions = [3]
    (%x: f32, %acc: f32) {
      %r = arith.addf %x, %acc : f32
      linalg.yield %r : f32
    }
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e, %l : tensor<2x2x3x8xf32>, tensor<2x2x3xf32>) outs(%s0 : tensor<2x2x3x8xf32>) {
  ^bb0(%x: f32, %r: f32, %o: f32):
    %y = arith.divf %x, %r : f32
    linalg.yield %y : f32
  } -> tensor<2x2x3x8xf32>
  %o0 = tensor.empty() : tensor<2x2x3x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x2x3x16xf32>) -> tensor<2x2x3x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x3x8xf32>, tensor<2x2x8x16xf32>) outs(%oz : tensor<2x2x3x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x3x16xf32>
  return %o : tensor<2x2x3x16xf32>
}

