// A bias the source computes from the query and key indices and small tables
// (T5's relative-position buckets gathered from a [2R+1, H] table, ALiBi's
// slope[h] * (j - i)) becomes the op's score_mod, s + bias(b, h, i, j) clamped
// into the bias operand's domain, with the tables as captures
// (lib/Fusion/IndexBias.c): the kernels compute it instead of reading a
// [B, H, M, N] tensor. A data tensor read at [.., i, .., j] (static or dynamic),
// or a generic that reads its destination, stays the dense bias operand.
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// RUN: fa-check --split-input-file --input-scale=3 %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-11: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run
// T5: the bucket clamp(j - i, -3, 3) + 3 in i64 from an iota, the [7, H] table
// gathered at (bucket, h), permuted and expanded to [1, H, M, N]: one capture,
// the source's i64 arithmetic, no bias operand, no ops of the bias left.
// CHECK-LABEL: func.func @t5_table
// CHECK-NOT: linalg.transpose
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %arg3) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 2.500000e-01 : f32, score_mod = @[[FN:fa_bias_[0-9]+]]} : ({{.*}}, tensor<7x2xf32>)
// CHECK: func.func private @[[FN]](%arg0: f32, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: tensor<7x2xf32>) -> f32
// CHECK-DAG: %[[J:.*]] = arith.index_cast %arg4 : index to i64
// CHECK-DAG: %[[I:.*]] = arith.index_cast %arg3 : index to i64
// CHECK: %[[D:.*]] = arith.subi %[[J]], %[[I]] : i64
// CHECK: arith.maxsi %[[D]], %{{.*}} : i64
// CHECK: arith.minsi
// CHECK: %[[BK:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK: %[[X:.*]] = arith.index_cast %[[BK]] : i64 to index
// CHECK: %[[T:.*]] = tensor.extract %arg5[%[[X]], %arg2] : tensor<7x2xf32>
// CHECK: %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[LOW:.*]] = arith.constant -2.300000e+38 : f32
// CHECK: %[[ISNINF:.*]] = arith.cmpf oeq, %[[T]], %[[NINF]] : f32
// CHECK: %[[MAX:.*]] = arith.maximumf %[[T]], %[[LOW]] : f32
// CHECK: %[[CL:.*]] = arith.select %[[ISNINF]], %[[NINF]], %[[MAX]] : f32
// CHECK: %[[R:.*]] = arith.addf %arg0, %[[CL]] : f32
// CHECK: return %[[R]] : f32
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention (its bias computed in the kernel as score_mod)

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @t5_table(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %table: tensor<7x2xf32>) -> tensor<1x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<1x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) outs(%sz : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %c3 = arith.constant 3 : i64
  %cm3 = arith.constant -3 : i64
  %it0 = tensor.empty() : tensor<8xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%it0 : tensor<8xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    linalg.yield %ii : i64
  } -> tensor<8xi64>
  %col = tensor.expand_shape %iota [[0, 1]] output_shape [1, 8] : tensor<8xi64> into tensor<1x8xi64>
  %row = tensor.expand_shape %iota [[0, 1]] output_shape [8, 1] : tensor<8xi64> into tensor<8x1xi64>
  %r0 = tensor.empty() : tensor<8x8xi64>
  %bucket = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%col, %row : tensor<1x8xi64>, tensor<8x1xi64>) outs(%r0 : tensor<8x8xi64>) {
  ^bb0(%kj: i64, %qi: i64, %out: i64):
    %d = arith.subi %kj, %qi : i64
    %lo = arith.maxsi %d, %cm3 : i64
    %hi = arith.minsi %lo, %c3 : i64
    %bk = arith.addi %hi, %c3 : i64
    linalg.yield %bk : i64
  } -> tensor<8x8xi64>
  %g0 = tensor.empty() : tensor<8x8x2xf32>
  %gathered = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bucket : tensor<8x8xi64>) outs(%g0 : tensor<8x8x2xf32>) {
  ^bb0(%bk: i64, %out: f32):
    %idx = arith.index_cast %bk : i64 to index
    %h = linalg.index 2 : index
    %t = tensor.extract %table[%idx, %h] : tensor<7x2xf32>
    linalg.yield %t : f32
  } -> tensor<8x8x2xf32>
  %p0 = tensor.empty() : tensor<2x8x8xf32>
  %perm = linalg.transpose ins(%gathered : tensor<8x8x2xf32>) outs(%p0 : tensor<2x8x8xf32>) permutation = [2, 0, 1]
  %bias = tensor.expand_shape %perm [[0, 1], [2], [3]] output_shape [1, 2, 8, 8] : tensor<2x8x8xf32> into tensor<1x2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) {
  ^bb0(%e: f32, %bb: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %e, %sc : f32
    %r = arith.addf %y, %bb : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %o0 = tensor.empty() : tensor<1x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32>) outs(%oz : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

// ALiBi: slopes[h] (a [H] argument read through the generic's map) times
// sitofp(j - i).
// CHECK-LABEL: func.func @alibi_slopes
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %arg3) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 2.500000e-01 : f32, score_mod = @[[FN:fa_bias_[0-9]+]]}
// CHECK: func.func private @[[FN]](%arg0: f32, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: tensor<2xf32>) -> f32
// CHECK: %[[SL:.*]] = tensor.extract %arg5[%arg2] : tensor<2xf32>
// CHECK: %[[DF:.*]] = arith.sitofp %{{.*}} : i64 to f32
// CHECK: arith.mulf %[[SL]], %[[DF]] : f32
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention (its bias computed in the kernel as score_mod)

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @alibi_slopes(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %slopes: tensor<2xf32>) -> tensor<1x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<1x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) outs(%sz : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %a0 = tensor.empty() : tensor<1x2x8x8xf32>
  %bias = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (h)>, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%slopes : tensor<2xf32>) outs(%a0 : tensor<1x2x8x8xf32>) {
  ^bb0(%sl: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %d = arith.subi %jj, %ii : i64
    %df = arith.sitofp %d : i64 to f32
    %t = arith.mulf %sl, %df : f32
    linalg.yield %t : f32
  } -> tensor<1x2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) {
  ^bb0(%e: f32, %bb: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %e, %sc : f32
    %r = arith.addf %y, %bb : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %o0 = tensor.empty() : tensor<1x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32>) outs(%oz : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

// A data tensor read at (i, j), static: stays the dense bias.
// CHECK-LABEL: func.func @data_static
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>, scale = 2.500000e-01 : f32}
// CHECK-NOT: fa_bias
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention{{$}}

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @data_static(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %data: tensor<8x8xf32>) -> tensor<1x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<1x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) outs(%sz : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %a0 = tensor.empty() : tensor<1x2x8x8xf32>
  %bias = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (i, j)>, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%data : tensor<8x8xf32>) outs(%a0 : tensor<1x2x8x8xf32>) {
  ^bb0(%dv: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %d = arith.subi %jj, %ii : i64
    %df = arith.sitofp %d : i64 to f32
    %t = arith.addf %dv, %df : f32
    linalg.yield %t : f32
  } -> tensor<1x2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) {
  ^bb0(%e: f32, %bb: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %e, %sc : f32
    %r = arith.addf %y, %bb : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %o0 = tensor.empty() : tensor<1x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32>) outs(%oz : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

// The same of dynamic shape.
// CHECK-LABEL: func.func @data_dynamic
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>, scale = 2.500000e-01 : f32}
// CHECK-NOT: fa_bias
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention{{$}}

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @data_dynamic(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %data: tensor<?x?xf32>) -> tensor<1x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<1x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) outs(%sz : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %a0 = tensor.empty() : tensor<1x2x8x8xf32>
  %bias = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (i, j)>, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%data : tensor<?x?xf32>) outs(%a0 : tensor<1x2x8x8xf32>) {
  ^bb0(%dv: f32, %out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %d = arith.subi %jj, %ii : i64
    %df = arith.sitofp %d : i64 to f32
    %t = arith.addf %dv, %df : f32
    linalg.yield %t : f32
  } -> tensor<1x2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) {
  ^bb0(%e: f32, %bb: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %e, %sc : f32
    %r = arith.addf %y, %bb : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %o0 = tensor.empty() : tensor<1x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32>) outs(%oz : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

// A generic that reads its destination (a fill of 1): stays the dense bias.
// CHECK-LABEL: func.func @reads_out
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>, scale = 2.500000e-01 : f32}
// CHECK-NOT: fa_bias
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention{{$}}

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @reads_out(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<1x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) outs(%sz : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %one = arith.constant 1.0 : f32
  %a0 = tensor.empty() : tensor<1x2x8x8xf32>
  %a1 = linalg.fill ins(%one : f32) outs(%a0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %bias = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%a1 : tensor<1x2x8x8xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %d = arith.subi %jj, %ii : i64
    %df = arith.sitofp %d : i64 to f32
    %t = arith.addf %out, %df : f32
    linalg.yield %t : f32
  } -> tensor<1x2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) {
  ^bb0(%e: f32, %bb: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %e, %sc : f32
    %r = arith.addf %y, %bb : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %o0 = tensor.empty() : tensor<1x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32>) outs(%oz : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

// T5's table beside a sliding window and causal (an index mask): the mask
// function takes the table too (both functions take the op's captures).
// CHECK-LABEL: func.func @t5_window
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %arg3) {causal_offset = 0 : i64, mask = @[[M:fa_mask_[0-9]+]], operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 2.500000e-01 : f32, score_mod = @[[S:fa_bias_[0-9]+]]}
// CHECK-DAG: func.func private @[[M]](%arg0: index, %arg1: index, %arg2: index, %arg3: index, %arg4: tensor<7x2xf32>) -> i1
// CHECK-DAG: func.func private @[[S]](%arg0: f32, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: tensor<7x2xf32>) -> f32
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention (its bias computed in the kernel as score_mod)

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @t5_window(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %table: tensor<7x2xf32>) -> tensor<1x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<1x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) outs(%sz : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %c3 = arith.constant 3 : i64
  %cm3 = arith.constant -3 : i64
  %it0 = tensor.empty() : tensor<8xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%it0 : tensor<8xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    linalg.yield %ii : i64
  } -> tensor<8xi64>
  %col = tensor.expand_shape %iota [[0, 1]] output_shape [1, 8] : tensor<8xi64> into tensor<1x8xi64>
  %row = tensor.expand_shape %iota [[0, 1]] output_shape [8, 1] : tensor<8xi64> into tensor<8x1xi64>
  %r0 = tensor.empty() : tensor<8x8xi64>
  %bucket = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%col, %row : tensor<1x8xi64>, tensor<8x1xi64>) outs(%r0 : tensor<8x8xi64>) {
  ^bb0(%kj: i64, %qi: i64, %out: i64):
    %d = arith.subi %kj, %qi : i64
    %lo = arith.maxsi %d, %cm3 : i64
    %hi = arith.minsi %lo, %c3 : i64
    %bk = arith.addi %hi, %c3 : i64
    linalg.yield %bk : i64
  } -> tensor<8x8xi64>
  %g0 = tensor.empty() : tensor<8x8x2xf32>
  %gathered = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bucket : tensor<8x8xi64>) outs(%g0 : tensor<8x8x2xf32>) {
  ^bb0(%bk: i64, %out: f32):
    %idx = arith.index_cast %bk : i64 to index
    %h = linalg.index 2 : index
    %t = tensor.extract %table[%idx, %h] : tensor<7x2xf32>
    linalg.yield %t : f32
  } -> tensor<8x8x2xf32>
  %p0 = tensor.empty() : tensor<2x8x8xf32>
  %perm = linalg.transpose ins(%gathered : tensor<8x8x2xf32>) outs(%p0 : tensor<2x8x8xf32>) permutation = [2, 0, 1]
  %bias = tensor.expand_shape %perm [[0, 1], [2], [3]] output_shape [1, 2, 8, 8] : tensor<2x8x8xf32> into tensor<1x2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) {
  ^bb0(%e: f32, %bb: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %e, %sc : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %w = arith.constant 3 : index
    %ninf = arith.constant 0xFF800000 : f32
    %dd = arith.subi %i, %j : index
    %in = arith.cmpi slt, %dd, %w : index
    %c = arith.cmpi sle, %j, %i : index
    %vis = arith.andi %in, %c : i1
    %yb = arith.addf %y, %bb : f32
    %r = arith.select %vis, %yb, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %o0 = tensor.empty() : tensor<1x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32>) outs(%oz : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

// -----

// TOSA (lib/Fusion/IndexBias.c reads TOSA chains too): a T5-like bucket
// from the iota constant (an index, not a capture), j - i in i32 through f32
// times 0.5 and back with tosa.cast (round to nearest even, saturating: as
// tosa-to-linalg lowers it; fptosi alone would truncate 0.5 and 1.5 and
// fa-check would disagree), tosa.clamp and tosa.add, then tosa.gather of the
// [1, 64] flattening from the [1, 5, 2] table, the [1, 64, 2] result
// reshaped to [8, 8, 2] and transposed: the reshapes regroup (i, j) without
// divisions, the table argument the one capture, no bias operand.
// CHECK-LABEL: func.func @tosa_t5_table
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}, %arg3) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 2.500000e-01 : f32, score_mod = @[[FN:fa_bias_[0-9]+]]} : ({{.*}}, tensor<5x2xf32>)
// CHECK-NOT: tosa.gather
// CHECK: func.func private @[[FN]](%arg0: f32, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: tensor<5x2xf32>) -> f32
// CHECK-DAG: %[[J:.*]] = arith.index_cast %arg4 : index to i32
// CHECK-DAG: %[[I:.*]] = arith.index_cast %arg3 : index to i32
// CHECK: %[[D:.*]] = arith.subi %[[J]], %[[I]] : i32
// CHECK: %[[DF:.*]] = arith.sitofp %[[D]] : i32 to f32
// CHECK: %[[H:.*]] = arith.mulf %[[DF]], %{{.*}} : f32
// CHECK: %[[R:.*]] = math.roundeven %[[H]] : f32
// CHECK: %[[LO:.*]] = arith.maximumf %[[R]], %{{.*}} : f32
// CHECK: %[[X:.*]] = arith.fptosi %[[LO]] : f32 to i32
// CHECK: %[[BIG:.*]] = arith.cmpf uge, %[[R]], %{{.*}} : f32
// CHECK: %[[SAT:.*]] = arith.select %[[BIG]], %{{.*}}, %[[X]] : i32
// CHECK: %[[C1:.*]] = arith.maxsi %{{.*}}, %[[SAT]] : i32
// CHECK: %[[C2:.*]] = arith.minsi %{{.*}}, %[[C1]] : i32
// CHECK: %[[BK:.*]] = arith.addi %[[C2]], %{{.*}} : i32
// CHECK-NOT: arith.divui
// CHECK-NOT: arith.remui
// CHECK: %[[IX:.*]] = arith.index_cast %[[BK]] : i32 to index
// CHECK: tensor.extract %arg5[%[[IX]], %arg2] : tensor<5x2xf32>
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention (its bias computed in the kernel as score_mod)

func.func @tosa_t5_table(%q: tensor<2x8x16xf32>, %kt: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %table: tensor<5x2xf32>) -> tensor<2x8x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %iota = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>}> : () -> tensor<8xi32>
  %rshape = tosa.const_shape {values = dense<[8, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %cshape = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s4shape = tosa.const_shape {values = dense<[1, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3shape = tosa.const_shape {values = dense<[2, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %rows = tosa.reshape %iota, %rshape : (tensor<8xi32>, !tosa.shape<2>) -> tensor<8x1xi32>
  %cols = tosa.reshape %iota, %cshape : (tensor<8xi32>, !tosa.shape<2>) -> tensor<1x8xi32>
  %rel = tosa.sub %cols, %rows : (tensor<1x8xi32>, tensor<8x1xi32>) -> tensor<8x8xi32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %two = "tosa.const"() <{values = dense<2> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %flat = tosa.const_shape {values = dense<[1, 64]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %tshape = tosa.const_shape {values = dense<[1, 5, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %gshape = tosa.const_shape {values = dense<[8, 8, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %relf = tosa.cast %rel : (tensor<8x8xi32>) -> tensor<8x8xf32>
  %halved = tosa.mul %relf, %half, %shift : (tensor<8x8xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<8x8xf32>
  %rounded = tosa.cast %halved : (tensor<8x8xf32>) -> tensor<8x8xi32>
  %clamped = tosa.clamp %rounded {min_val = -2 : i32, max_val = 2 : i32} : (tensor<8x8xi32>) -> tensor<8x8xi32>
  %bucket = tosa.add %clamped, %two : (tensor<8x8xi32>, tensor<1x1xi32>) -> tensor<8x8xi32>
  %flatb = tosa.reshape %bucket, %flat : (tensor<8x8xi32>, !tosa.shape<2>) -> tensor<1x64xi32>
  %table3 = tosa.reshape %table, %tshape : (tensor<5x2xf32>, !tosa.shape<3>) -> tensor<1x5x2xf32>
  %gathered = tosa.gather %table3, %flatb : (tensor<1x5x2xf32>, tensor<1x64xi32>) -> tensor<1x64x2xf32>
  %g3 = tosa.reshape %gathered, %gshape : (tensor<1x64x2xf32>, !tosa.shape<3>) -> tensor<8x8x2xf32>
  %perm = tosa.transpose %g3 {perms = array<i32: 2, 0, 1>} : (tensor<8x8x2xf32>) -> tensor<2x8x8xf32>
  %bias = tosa.reshape %perm, %s4shape : (tensor<2x8x8xf32>, !tosa.shape<4>) -> tensor<1x2x8x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x16xf32>, tensor<2x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %s4 = tosa.reshape %s, %s4shape : (tensor<2x8x8xf32>, !tosa.shape<4>) -> tensor<1x2x8x8xf32>
  %ss = tosa.mul %s4, %scale, %shift : (tensor<1x2x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x8xf32>
  %sb = tosa.add %ss, %bias : (tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %m = tosa.reduce_max %sb {axis = 3 : i32} : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x1xf32>
  %d = tosa.sub %sb, %m : (tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x8xf32>
  %e = tosa.exp %d : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %p4 = tosa.mul %e, %r, %shift : (tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32>, tensor<1xi8>) -> tensor<1x2x8x8xf32>
  %p = tosa.reshape %p4, %s3shape : (tensor<1x2x8x8xf32>, !tosa.shape<3>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// TOSA ALiBi: the [H] slopes reshaped to [1, H, 1, 1] times the iota's
// j - i cast to f32 ([1, 1, M, N]), with TOSA's broadcast.
// CHECK-LABEL: func.func @tosa_alibi
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}, %arg3) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 2.500000e-01 : f32, score_mod = @[[FN:fa_bias_[0-9]+]]} : ({{.*}}, tensor<2xf32>)
// CHECK: func.func private @[[FN]](%arg0: f32, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: tensor<2xf32>) -> f32
// CHECK: %[[SL:.*]] = tensor.extract %arg5[%arg2] : tensor<2xf32>
// CHECK: %[[D:.*]] = arith.subi %{{.*}}, %{{.*}} : i32
// CHECK: %[[DF:.*]] = arith.sitofp %[[D]] : i32 to f32
// CHECK: arith.mulf %[[SL]], %[[DF]] : f32
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention (its bias computed in the kernel as score_mod)

func.func @tosa_alibi(%q: tensor<2x8x16xf32>, %kt: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %slopes: tensor<2xf32>) -> tensor<2x8x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %iota = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>}> : () -> tensor<8xi32>
  %rshape = tosa.const_shape {values = dense<[8, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %cshape = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s4shape = tosa.const_shape {values = dense<[1, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3shape = tosa.const_shape {values = dense<[2, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %rows = tosa.reshape %iota, %rshape : (tensor<8xi32>, !tosa.shape<2>) -> tensor<8x1xi32>
  %cols = tosa.reshape %iota, %cshape : (tensor<8xi32>, !tosa.shape<2>) -> tensor<1x8xi32>
  %rel = tosa.sub %cols, %rows : (tensor<1x8xi32>, tensor<8x1xi32>) -> tensor<8x8xi32>
  %slshape = tosa.const_shape {values = dense<[1, 2, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %rshape4 = tosa.const_shape {values = dense<[1, 1, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %relf = tosa.cast %rel : (tensor<8x8xi32>) -> tensor<8x8xf32>
  %rel4 = tosa.reshape %relf, %rshape4 : (tensor<8x8xf32>, !tosa.shape<4>) -> tensor<1x1x8x8xf32>
  %sl4 = tosa.reshape %slopes, %slshape : (tensor<2xf32>, !tosa.shape<4>) -> tensor<1x2x1x1xf32>
  %bias = tosa.mul %sl4, %rel4, %shift : (tensor<1x2x1x1xf32>, tensor<1x1x8x8xf32>, tensor<1xi8>) -> tensor<1x2x8x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x16xf32>, tensor<2x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %s4 = tosa.reshape %s, %s4shape : (tensor<2x8x8xf32>, !tosa.shape<4>) -> tensor<1x2x8x8xf32>
  %ss = tosa.mul %s4, %scale, %shift : (tensor<1x2x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x8xf32>
  %sb = tosa.add %ss, %bias : (tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %m = tosa.reduce_max %sb {axis = 3 : i32} : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x1xf32>
  %d = tosa.sub %sb, %m : (tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x8xf32>
  %e = tosa.exp %d : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %p4 = tosa.mul %e, %r, %shift : (tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32>, tensor<1xi8>) -> tensor<1x2x8x8xf32>
  %p = tosa.reshape %p4, %s3shape : (tensor<1x2x8x8xf32>, !tosa.shape<3>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// Near miss: a tosa.cast f32 -> i8 (saturating at i8's range, a lowering
// not spelled out in IndexBias.c) stays the dense bias.
// CHECK-LABEL: func.func @tosa_cast_i8
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0, 0, 0>, scale = 2.500000e-01 : f32} : ({{.*}}, tensor<1x2x8x8xf32>)
// CHECK-NOT: score_mod
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention{{$}}

func.func @tosa_cast_i8(%q: tensor<2x8x16xf32>, %kt: tensor<2x16x8xf32>, %v: tensor<2x8x16xf32>, %slopes: tensor<2xf32>) -> tensor<2x8x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %iota = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>}> : () -> tensor<8xi32>
  %rshape = tosa.const_shape {values = dense<[8, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %cshape = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s4shape = tosa.const_shape {values = dense<[1, 2, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3shape = tosa.const_shape {values = dense<[2, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %rows = tosa.reshape %iota, %rshape : (tensor<8xi32>, !tosa.shape<2>) -> tensor<8x1xi32>
  %cols = tosa.reshape %iota, %cshape : (tensor<8xi32>, !tosa.shape<2>) -> tensor<1x8xi32>
  %rel = tosa.sub %cols, %rows : (tensor<1x8xi32>, tensor<8x1xi32>) -> tensor<8x8xi32>
  %slshape = tosa.const_shape {values = dense<[1, 2, 1, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %rshape4 = tosa.const_shape {values = dense<[1, 1, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %relh = tosa.cast %rel : (tensor<8x8xi32>) -> tensor<8x8xf32>
  %halved = tosa.mul %relh, %half, %shift : (tensor<8x8xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<8x8xf32>
  %rel8 = tosa.cast %halved : (tensor<8x8xf32>) -> tensor<8x8xi8>
  %relf = tosa.cast %rel8 : (tensor<8x8xi8>) -> tensor<8x8xf32>
  %rel4 = tosa.reshape %relf, %rshape4 : (tensor<8x8xf32>, !tosa.shape<4>) -> tensor<1x1x8x8xf32>
  %sl4 = tosa.reshape %slopes, %slshape : (tensor<2xf32>, !tosa.shape<4>) -> tensor<1x2x1x1xf32>
  %bias = tosa.mul %sl4, %rel4, %shift : (tensor<1x2x1x1xf32>, tensor<1x1x8x8xf32>, tensor<1xi8>) -> tensor<1x2x8x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<2x8x16xf32>, tensor<2x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8xf32>
  %s4 = tosa.reshape %s, %s4shape : (tensor<2x8x8xf32>, !tosa.shape<4>) -> tensor<1x2x8x8xf32>
  %ss = tosa.mul %s4, %scale, %shift : (tensor<1x2x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x8xf32>
  %sb = tosa.add %ss, %bias : (tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %m = tosa.reduce_max %sb {axis = 3 : i32} : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x1xf32>
  %d = tosa.sub %sb, %m : (tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x8xf32>
  %e = tosa.exp %d : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %p4 = tosa.mul %e, %r, %shift : (tensor<1x2x8x8xf32>, tensor<1x2x8x1xf32>, tensor<1xi8>) -> tensor<1x2x8x8xf32>
  %p = tosa.reshape %p4, %s3shape : (tensor<1x2x8x8xf32>, !tosa.shape<3>) -> tensor<2x8x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<2x8x8xf32>, tensor<2x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x16xf32>
  return %o : tensor<2x8x16xf32>
}

// -----

// TOSA tile (HF's [B, N] padding mask tiled over the query rows; here a
// per-key bias of two heads repeated for four, plus j - i from the iota):
// the [1, 2, 1, 8] argument tiled [1, 2, 8, 1] is read at (0, h mod 2, 0,
// j): the argument the capture, no bias operand.
// CHECK-LABEL: func.func @tosa_tile
// CHECK: "fa.gridwise_attention"(%{{.*}}, %{{.*}}, %{{.*}}, %arg3) {k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 2.500000e-01 : f32, score_mod = @[[FN:fa_bias_[0-9]+]]} : ({{.*}}, tensor<1x2x1x8xf32>)
// CHECK-NOT: tosa.tile
// CHECK: func.func private @[[FN]](%arg0: f32, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: tensor<1x2x1x8xf32>) -> f32
// CHECK: %[[R:.*]] = arith.remui %arg2, %{{.*}} : index
// CHECK: tensor.extract %arg5[%{{.*}}, %[[R]], %{{.*}}, %arg4] : tensor<1x2x1x8xf32>
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention (its bias computed in the kernel as score_mod)
func.func @tosa_tile(%q: tensor<4x8x16xf32>, %kt: tensor<4x16x8xf32>, %v: tensor<4x8x16xf32>, %pad: tensor<1x2x1x8xf32>) -> tensor<4x8x16xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.25> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %mult = tosa.const_shape {values = dense<[1, 2, 8, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s4shape = tosa.const_shape {values = dense<[1, 4, 8, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s3shape = tosa.const_shape {values = dense<[4, 8, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %tiled = tosa.tile %pad, %mult : (tensor<1x2x1x8xf32>, !tosa.shape<4>) -> tensor<1x4x8x8xf32>
  %iota = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>}> : () -> tensor<8xi32>
  %rshape = tosa.const_shape {values = dense<[1, 1, 8, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %cshape = tosa.const_shape {values = dense<[1, 1, 1, 8]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %rows = tosa.reshape %iota, %rshape : (tensor<8xi32>, !tosa.shape<4>) -> tensor<1x1x8x1xi32>
  %cols = tosa.reshape %iota, %cshape : (tensor<8xi32>, !tosa.shape<4>) -> tensor<1x1x1x8xi32>
  %rel = tosa.sub %cols, %rows : (tensor<1x1x1x8xi32>, tensor<1x1x8x1xi32>) -> tensor<1x1x8x8xi32>
  %relf = tosa.cast %rel : (tensor<1x1x8x8xi32>) -> tensor<1x1x8x8xf32>
  %bias = tosa.add %tiled, %relf : (tensor<1x4x8x8xf32>, tensor<1x1x8x8xf32>) -> tensor<1x4x8x8xf32>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x8x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  %s4 = tosa.reshape %s, %s4shape : (tensor<4x8x8xf32>, !tosa.shape<4>) -> tensor<1x4x8x8xf32>
  %ss = tosa.mul %s4, %scale, %shift : (tensor<1x4x8x8xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x8x8xf32>
  %sb = tosa.add %ss, %bias : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %m = tosa.reduce_max %sb {axis = 3 : i32} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x1xf32>
  %d = tosa.sub %sb, %m : (tensor<1x4x8x8xf32>, tensor<1x4x8x1xf32>) -> tensor<1x4x8x8xf32>
  %e = tosa.exp %d : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %l = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x1xf32>
  %r = tosa.reciprocal %l : (tensor<1x4x8x1xf32>) -> tensor<1x4x8x1xf32>
  %p = tosa.mul %e, %r, %shift : (tensor<1x4x8x8xf32>, tensor<1x4x8x1xf32>, tensor<1xi8>) -> tensor<1x4x8x8xf32>
  %p3 = tosa.reshape %p, %s3shape : (tensor<1x4x8x8xf32>, !tosa.shape<3>) -> tensor<4x8x8xf32>
  %o = tosa.matmul %p3, %v, %zp, %zp : (tensor<4x8x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

// A scalar the source computes outside the bias's ops (the slope read out of
// a rank-0 tensor by the function): a scalar capture, the rank-0 tensor
// made of it right after its definition.
// CHECK-LABEL: func.func @scalar_slope
// CHECK: %[[X:.*]] = tensor.extract %arg3[] : tensor<f32>
// CHECK-NEXT: %[[T:.*]] = tensor.from_elements %[[X]] : tensor<f32>
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %[[T]]) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 2.500000e-01 : f32, score_mod = @[[FN:fa_bias_[0-9]+]]}
// CHECK: func.func private @[[FN]](%arg0: f32, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: tensor<f32>) -> f32
// CHECK: tensor.extract %arg5[] : tensor<f32>
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention (its bias computed in the kernel as score_mod)

#ids = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @scalar_slope(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %st: tensor<f32>) -> tensor<1x2x8x16xf32> {
  %slope = tensor.extract %st[] : tensor<f32>
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<1x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) outs(%sz : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %a0 = tensor.empty() : tensor<1x2x8x8xf32>
  %bias = linalg.generic {indexing_maps = [#ids], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%a0 : tensor<1x2x8x8xf32>) {
  ^bb0(%out: f32):
    %sl = arith.addf %slope, %z : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %d = arith.subi %jj, %ii : i64
    %df = arith.sitofp %d : i64 to f32
    %t = arith.mulf %sl, %df : f32
    linalg.yield %t : f32
  } -> tensor<1x2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#ids, #ids, #ids], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<1x2x8x8xf32>, tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) {
  ^bb0(%e: f32, %bb: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %y = arith.mulf %e, %sc : f32
    %r = arith.addf %y, %bb : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<1x2x8x8xf32>) outs(%s0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %o0 = tensor.empty() : tensor<1x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32>) outs(%oz : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x16xf32>
  return %o : tensor<1x2x8x16xf32>
}

