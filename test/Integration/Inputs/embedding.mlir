// torch-mlir's embedding lookup: cf.assert inside a linalg.generic (the loop stays
// on the host, where the asserts lower; used by gpu-pipelines.test).
func.func @embed(%idx: tensor<4xi64>, %table: tensor<10x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %c10 = arith.constant 10 : index
  %c0 = arith.constant 0 : index
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%idx : tensor<4xi64>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%i: i64, %o: f32):
    %ii = arith.index_cast %i : i64 to index
    %lt = arith.cmpi slt, %ii, %c10 : index
    cf.assert %lt, "index must be smaller than dim size"
    %ge = arith.cmpi sge, %ii, %c0 : index
    cf.assert %ge, "index must be larger or equal to 0"
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%ii, %j] : tensor<10x8xf32>
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
