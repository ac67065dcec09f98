// Explain names the step that really refuses a chain (issue 14, item 8).
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY

// exp(x - max) / (sum + 1): the denominator is not the softmax's.
// CHECK-LABEL: func.func @denominator_plus_one
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: the softmax denominator is computed from the row sum (e.g. sum + 1), not the row sum itself
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#pad = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
func.func @denominator_plus_one(%q: tensor<1x2x4x8xf16>, %k: tensor<1x2x4x8xf16>, %v: tensor<1x2x4x8xf16>, %pad: tensor<1x1x1x4xf32>) -> tensor<1x2x4x8xf16> {
  %c0 = arith.constant 0.0 : f16
  %f0 = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %sqrtd = arith.constant 8.0 : f32
  %kt0 = tensor.empty() : tensor<1x2x8x4xf16>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf16>) outs(%kt0 : tensor<1x2x8x4xf16>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf16> into tensor<2x4x8xf16>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf16> into tensor<2x8x4xf16>
  %s0 = tensor.empty() : tensor<2x4x4xf16>
  %sz = linalg.fill ins(%c0 : f16) outs(%s0 : tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  %s3 = linalg.batch_matmul ins(%q3, %k3 : tensor<2x4x8xf16>, tensor<2x8x4xf16>) outs(%sz : tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  %s4 = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf16> into tensor<1x2x4x4xf16>
  %e0 = tensor.empty() : tensor<1x2x4x4xf32>
  %s = linalg.generic {indexing_maps = [#id, #pad, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4, %pad : tensor<1x2x4x4xf16>, tensor<1x1x1x4xf32>) outs(%e0 : tensor<1x2x4x4xf32>) {
  ^bb0(%x: f16, %b: f32, %o: f32):
    %xf = arith.extf %x : f16 to f32
    %xs = arith.divf %xf, %sqrtd : f32
    %xb = arith.addf %xs, %b : f32
    linalg.yield %xb : f32
  } -> tensor<1x2x4x4xf32>
  %m0 = tensor.empty() : tensor<1x2x4x1xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%m0 : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s : tensor<1x2x4x4xf32>) outs(%mi : tensor<1x2x4x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x1xf32>
  %e = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %m : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%e0 : tensor<1x2x4x4xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %d = arith.subf %x, %mx : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<1x2x4x4xf32>
  %li = linalg.fill ins(%f0 : f32) outs(%m0 : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %l = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%e : tensor<1x2x4x4xf32>) outs(%li : tensor<1x2x4x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x1xf32>
  %ph0 = tensor.empty() : tensor<1x2x4x4xf16>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e, %l : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%ph0 : tensor<1x2x4x4xf16>) {
  ^bb0(%x: f32, %sum: f32, %o: f16):
    %one = arith.constant 1.0 : f32
    %s1 = arith.addf %sum, %one : f32
    %y = arith.divf %x, %s1 : f32
    %yh = arith.truncf %y : f32 to f16
    linalg.yield %yh : f16
  } -> tensor<1x2x4x4xf16>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x4x4xf16> into tensor<2x4x4xf16>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf16> into tensor<2x4x8xf16>
  %o0 = tensor.empty() : tensor<2x4x8xf16>
  %oz = linalg.fill ins(%c0 : f16) outs(%o0 : tensor<2x4x8xf16>) -> tensor<2x4x8xf16>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<2x4x4xf16>, tensor<2x4x8xf16>) outs(%oz : tensor<2x4x8xf16>) -> tensor<2x4x8xf16>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf16> into tensor<1x2x4x8xf16>
  return %o : tensor<1x2x4x8xf16>
}

// -----

// x - select(max == -inf, 0, max): a select with a finite fill on the max.
// CHECK-LABEL: func.func @max_select_finite_fill
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: the softmax subtracts a value computed from the row max (e.g. a select or an add), not the row max itself
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#pad = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
func.func @max_select_finite_fill(%q: tensor<1x2x4x8xf16>, %k: tensor<1x2x4x8xf16>, %v: tensor<1x2x4x8xf16>, %pad: tensor<1x1x1x4xf32>) -> tensor<1x2x4x8xf16> {
  %c0 = arith.constant 0.0 : f16
  %f0 = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %sqrtd = arith.constant 8.0 : f32
  %kt0 = tensor.empty() : tensor<1x2x8x4xf16>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf16>) outs(%kt0 : tensor<1x2x8x4xf16>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf16> into tensor<2x4x8xf16>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf16> into tensor<2x8x4xf16>
  %s0 = tensor.empty() : tensor<2x4x4xf16>
  %sz = linalg.fill ins(%c0 : f16) outs(%s0 : tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  %s3 = linalg.batch_matmul ins(%q3, %k3 : tensor<2x4x8xf16>, tensor<2x8x4xf16>) outs(%sz : tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  %s4 = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf16> into tensor<1x2x4x4xf16>
  %e0 = tensor.empty() : tensor<1x2x4x4xf32>
  %s = linalg.generic {indexing_maps = [#id, #pad, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4, %pad : tensor<1x2x4x4xf16>, tensor<1x1x1x4xf32>) outs(%e0 : tensor<1x2x4x4xf32>) {
  ^bb0(%x: f16, %b: f32, %o: f32):
    %xf = arith.extf %x : f16 to f32
    %xs = arith.divf %xf, %sqrtd : f32
    %xb = arith.addf %xs, %b : f32
    linalg.yield %xb : f32
  } -> tensor<1x2x4x4xf32>
  %m0 = tensor.empty() : tensor<1x2x4x1xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%m0 : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s : tensor<1x2x4x4xf32>) outs(%mi : tensor<1x2x4x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x1xf32>
  %e = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %m : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%e0 : tensor<1x2x4x4xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %ni = arith.constant 0xFF800000 : f32
    %z = arith.constant 0.0 : f32
    %isinf = arith.cmpf oeq, %mx, %ni : f32
    %safe = arith.select %isinf, %z, %mx : f32
    %d = arith.subf %x, %safe : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<1x2x4x4xf32>
  %li = linalg.fill ins(%f0 : f32) outs(%m0 : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %l = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%e : tensor<1x2x4x4xf32>) outs(%li : tensor<1x2x4x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x1xf32>
  %ph0 = tensor.empty() : tensor<1x2x4x4xf16>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e, %l : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%ph0 : tensor<1x2x4x4xf16>) {
  ^bb0(%x: f32, %sum: f32, %o: f16):
    %y = arith.divf %x, %sum : f32
    %yh = arith.truncf %y : f32 to f16
    linalg.yield %yh : f16
  } -> tensor<1x2x4x4xf16>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x4x4xf16> into tensor<2x4x4xf16>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf16> into tensor<2x4x8xf16>
  %o0 = tensor.empty() : tensor<2x4x8xf16>
  %oz = linalg.fill ins(%c0 : f16) outs(%o0 : tensor<2x4x8xf16>) -> tensor<2x4x8xf16>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<2x4x4xf16>, tensor<2x4x8xf16>) outs(%oz : tensor<2x4x8xf16>) -> tensor<2x4x8xf16>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf16> into tensor<1x2x4x8xf16>
  return %o : tensor<1x2x4x8xf16>
}

// -----

// The row sums are read back per key (sum[j], not sum[i]): the wrong axis.
// CHECK-LABEL: func.func @sum_over_queries
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: the softmax sum is not taken over the last (key) axis
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#swap = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3, 0)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
#pad = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
func.func @sum_over_queries(%q: tensor<1x2x4x8xf16>, %k: tensor<1x2x4x8xf16>, %v: tensor<1x2x4x8xf16>, %pad: tensor<1x1x1x4xf32>) -> tensor<1x2x4x8xf16> {
  %c0 = arith.constant 0.0 : f16
  %f0 = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %sqrtd = arith.constant 8.0 : f32
  %kt0 = tensor.empty() : tensor<1x2x8x4xf16>
  %kt = linalg.transpose ins(%k : tensor<1x2x4x8xf16>) outs(%kt0 : tensor<1x2x8x4xf16>) permutation = [0, 1, 3, 2]
  %q3 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<1x2x4x8xf16> into tensor<2x4x8xf16>
  %k3 = tensor.collapse_shape %kt [[0, 1], [2], [3]] : tensor<1x2x8x4xf16> into tensor<2x8x4xf16>
  %s0 = tensor.empty() : tensor<2x4x4xf16>
  %sz = linalg.fill ins(%c0 : f16) outs(%s0 : tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  %s3 = linalg.batch_matmul ins(%q3, %k3 : tensor<2x4x8xf16>, tensor<2x8x4xf16>) outs(%sz : tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
  %s4 = tensor.expand_shape %s3 [[0, 1], [2], [3]] output_shape [1, 2, 4, 4] : tensor<2x4x4xf16> into tensor<1x2x4x4xf16>
  %e0 = tensor.empty() : tensor<1x2x4x4xf32>
  %s = linalg.generic {indexing_maps = [#id, #pad, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4, %pad : tensor<1x2x4x4xf16>, tensor<1x1x1x4xf32>) outs(%e0 : tensor<1x2x4x4xf32>) {
  ^bb0(%x: f16, %b: f32, %o: f32):
    %xf = arith.extf %x : f16 to f32
    %xs = arith.divf %xf, %sqrtd : f32
    %xb = arith.addf %xs, %b : f32
    linalg.yield %xb : f32
  } -> tensor<1x2x4x4xf32>
  %m0 = tensor.empty() : tensor<1x2x4x1xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%m0 : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %m = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%s : tensor<1x2x4x4xf32>) outs(%mi : tensor<1x2x4x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.maximumf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x1xf32>
  %e = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %m : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%e0 : tensor<1x2x4x4xf32>) {
  ^bb0(%x: f32, %mx: f32, %o: f32):
    %d = arith.subf %x, %mx : f32
    %ex = math.exp %d : f32
    linalg.yield %ex : f32
  } -> tensor<1x2x4x4xf32>
  %li = linalg.fill ins(%f0 : f32) outs(%m0 : tensor<1x2x4x1xf32>) -> tensor<1x2x4x1xf32>
  %l = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%e : tensor<1x2x4x4xf32>) outs(%li : tensor<1x2x4x1xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %r = arith.addf %x, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2x4x1xf32>
  %ph0 = tensor.empty() : tensor<1x2x4x4xf16>
  %p = linalg.generic {indexing_maps = [#id, #swap, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e, %l : tensor<1x2x4x4xf32>, tensor<1x2x4x1xf32>) outs(%ph0 : tensor<1x2x4x4xf16>) {
  ^bb0(%x: f32, %sum: f32, %o: f16):
    %y = arith.divf %x, %sum : f32
    %yh = arith.truncf %y : f32 to f16
    linalg.yield %yh : f16
  } -> tensor<1x2x4x4xf16>
  %p3 = tensor.collapse_shape %p [[0, 1], [2], [3]] : tensor<1x2x4x4xf16> into tensor<2x4x4xf16>
  %v3 = tensor.collapse_shape %v [[0, 1], [2], [3]] : tensor<1x2x4x8xf16> into tensor<2x4x8xf16>
  %o0 = tensor.empty() : tensor<2x4x8xf16>
  %oz = linalg.fill ins(%c0 : f16) outs(%o0 : tensor<2x4x8xf16>) -> tensor<2x4x8xf16>
  %o3 = linalg.batch_matmul ins(%p3, %v3 : tensor<2x4x4xf16>, tensor<2x4x8xf16>) outs(%oz : tensor<2x4x8xf16>) -> tensor<2x4x8xf16>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [1, 2, 4, 8] : tensor<2x4x8xf16> into tensor<1x2x4x8xf16>
  return %o : tensor<1x2x4x8xf16>
}
