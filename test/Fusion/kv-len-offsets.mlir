// KV-length masks with offsets (issue 35): the op's kv_len is L + adjust in
// L's type, fused only where neither the source's arithmetic nor that sum can
// wrap for a length L in [0, N]; otherwise refused.
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// Lengths in 0..9, so that some are 0 and some past N: every case agrees.
// RUN: fa-check --split-input-file --int-max=9 %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-3: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// -----

// j > L + 2^32 in index arithmetic masks no key; L + (1 - 2^32) in the
// length's i32 would wrap: refused.
// CHECK-LABEL: func.func @kv_offset_2_pow_32
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: the KV-length offset does not fit the length's type
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#batch = affine_map<(d0, d1, d2, d3) -> (d0)>
func.func @kv_offset_2_pow_32(%q: tensor<2x2x3x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>, %kv: tensor<2xi32>) -> tensor<2x2x3x16xf32> {
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
    %li = arith.index_cast %len : i32 to index
    %c = arith.constant 4294967296 : index
    %lim = arith.addi %li, %c : index
    %past = arith.cmpi sgt, %j, %lim : index
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

// j > L + 2147483646 in i32 wraps for L >= 2: refused.
// CHECK-LABEL: func.func @kv_offset_i32_wrap
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: a mask's index arithmetic may wrap or round in its type
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#batch = affine_map<(d0, d1, d2, d3) -> (d0)>
func.func @kv_offset_i32_wrap(%q: tensor<2x2x3x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>, %kv: tensor<2xi32>) -> tensor<2x2x3x16xf32> {
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
    %c = arith.constant 2147483646 : i32
    %lim = arith.addi %len, %c : i32
    %past = arith.cmpi sgt, %ji, %lim : i32
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

// j > L + 2 in index arithmetic: kv_len = L + 3 in i32, exact for every length.
// CHECK-LABEL: func.func @kv_offset_exact
// CHECK: arith.constant 3 : i32
// CHECK: "fa.gridwise_attention"
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#batch = affine_map<(d0, d1, d2, d3) -> (d0)>
func.func @kv_offset_exact(%q: tensor<2x2x3x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>, %kv: tensor<2xi32>) -> tensor<2x2x3x16xf32> {
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
    %li = arith.index_cast %len : i32 to index
    %c = arith.constant 2 : index
    %lim = arith.addi %li, %c : index
    %past = arith.cmpi sgt, %j, %lim : index
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
