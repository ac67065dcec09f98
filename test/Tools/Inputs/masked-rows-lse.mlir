// masked-rows.mlir's @masked_rows (batch 1 sees no key) returning also the
// unguarded log-sum-exp of its scores, log(sum(exp(x - max))) + max, with the
// max's init -inf as here: for a query without keys that is
// log(exp(-inf - -inf)) - inf = NaN in the reference, where fa.gridwise_attention
// gives -inf (what a guarded source gives). test/Tools/oracle-masked-rows.test.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#bj = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
func.func @unguarded_lse(%q: tensor<2x2x3x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>) -> (tensor<2x2x3x16xf32>, tensor<2x2x3xf32>) {
  %z = arith.constant 0.0 : f32
  // Batch 1 sees no key: its rows are fully masked.
  %pad = arith.constant dense<[[true, true, false, true, true, true, true, true], [false, false, false, false, false, false, false, false]]> : tensor<2x8xi1>
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
  %lg = linalg.generic {indexing_maps = [affine_map<(b, h, m) -> (b, h, m)>, affine_map<(b, h, m) -> (b, h, m)>, affine_map<(b, h, m) -> (b, h, m)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%l, %mx : tensor<2x2x3xf32>, tensor<2x2x3xf32>) outs(%r0 : tensor<2x2x3xf32>) {
  ^bb0(%sa: f32, %ma: f32, %oa: f32):
    %lo = math.log %sa : f32
    %y = arith.addf %lo, %ma : f32
    linalg.yield %y : f32
  } -> tensor<2x2x3xf32>
  return %o, %lg : tensor<2x2x3x16xf32>, tensor<2x2x3xf32>
}

