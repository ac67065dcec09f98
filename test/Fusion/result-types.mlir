// The fused op's dims come from Q, K and V; a result of the source may hold
// a static dim where the op's is dynamic (a dynamic Q feeding static results)
// or the reverse. Fusion collapses and casts its results back to the
// source's types (tensor.cast), so the IR stays valid (found by
// test/Fuzz/fuzz.py: the LSE and O results replaced with other types made
// func.return fail to verify).
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | fa-opt --split-input-file --fa-verify > /dev/null
// RUN: fa-check --split-input-file --dim=0.1=2 %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-2: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// Q reshaped to a dynamic M: the op's lse is [1, 2, ?], the source's [1, 2, 8].
// CHECK-LABEL: func.func @plain(
// CHECK: %[[O:.*]]:2 = "fa.gridwise_attention"
// CHECK: tensor.cast %[[O]]#1 : tensor<1x2x?xf32> to tensor<1x2x8xf32>
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
  %qr = tosa.reshape %q, %s3 : (tensor<1x2x8x16xf32>, !tosa.shape<3>) -> tensor<2x?x16xf32>
  %kr = tosa.reshape %kt, %k3 : (tensor<1x2x16x12xf32>, !tosa.shape<3>) -> tensor<2x16x12xf32>
  %mm = tosa.matmul %qr, %kr, %zp, %zp : (tensor<2x?x16xf32>, tensor<2x16x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x12xf32>
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
  %o = tosa.matmul %pr, %vr, %zp, %zp : (tensor<2x8x12xf32>, tensor<2x12x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x?x16xf32>
  %o4r = tosa.reshape %o, %o4 : (tensor<2x?x16xf32>, !tosa.shape<4>) -> tensor<1x2x8x16xf32>
  return %o4r, %lse : tensor<1x2x8x16xf32>, tensor<1x2x8xf32>
}

// -----

// Q of dynamic heads read through an extf generic with static results.
// CHECK-LABEL: func.func @linalg_kv_len_per_head_f16(
// CHECK: %[[O:.*]] = "fa.gridwise_attention"
// CHECK: tensor.cast %[[O]] : tensor<2x?x3x16xf32> to tensor<2x2x3x16xf32>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#bh = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @linalg_kv_len_per_head_f16(%qh: tensor<2x?x3x16xf16>, %kh: tensor<2x2x8x16xf16>, %vh: tensor<2x2x8x16xf16>, %kv: tensor<2x2xi64>) -> tensor<2x2x3x16xf32> {
  %q0 = tensor.empty() : tensor<2x2x3x16xf32>
  %kv0 = tensor.empty() : tensor<2x2x8x16xf32>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%qh : tensor<2x?x3x16xf16>) outs(%q0 : tensor<2x2x3x16xf32>) {
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
