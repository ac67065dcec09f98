// A row of scores that an additive -inf mask hides entirely (row 1), through
// upstream MLIR's lowering of TOSA: the row max (tosa.reduce_max), an
// unguarded softmax, and torch.logsumexp's guarded log-sum-exp
// (select(|max| == inf, 0, max)). test/Tools/oracle-masked-rows.test.
func.func @rmax(%x: tensor<2x4xf32>) -> (tensor<2x1xf32>, tensor<2x4xf32>, tensor<2xf32>, tensor<2xf32>) {
  %mask = "tosa.const"() <{values = dense<[[0.0, 0.0, 0xFF800000, 0.0], [0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000]]> : tensor<2x4xf32>}> : () -> tensor<2x4xf32>
  %zero8 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %inf = "tosa.const"() <{values = dense<0x7F800000> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zf = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %shape = tosa.const_shape {values = dense<[2]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %s = tosa.add %x, %mask : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %m = tosa.reduce_max %s {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2x1xf32>
  // Unguarded softmax.
  %d = tosa.sub %s, %m : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %e = tosa.exp %d : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %l = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2x1xf32>
  %r = tosa.reciprocal %l : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %p = tosa.mul %e, %r, %zero8 : (tensor<2x4xf32>, tensor<2x1xf32>, tensor<1xi8>) -> tensor<2x4xf32>
  // Unguarded log-sum-exp: log(sum(exp(x - max))) + max.
  %lu = tosa.log %l : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %lseu2 = tosa.add %lu, %m : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  %lseu = tosa.reshape %lseu2, %shape : (tensor<2x1xf32>, !tosa.shape<1>) -> tensor<2xf32>
  // torch.logsumexp's guard: select(|max| == inf, 0, max).
  %am = tosa.abs %m : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %isinf = tosa.equal %am, %inf : (tensor<2x1xf32>, tensor<1x1xf32>) -> tensor<2x1xi1>
  %g = tosa.select %isinf, %zf, %m : (tensor<2x1xi1>, tensor<1x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  %d2 = tosa.sub %s, %g : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %e2 = tosa.exp %d2 : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %l2 = tosa.reduce_sum %e2 {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2x1xf32>
  %lg = tosa.log %l2 : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %lse2 = tosa.add %lg, %g : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  %lse = tosa.reshape %lse2, %shape : (tensor<2x1xf32>, !tosa.shape<1>) -> tensor<2xf32>
  return %m, %p, %lseu, %lse : tensor<2x1xf32>, tensor<2x4xf32>, tensor<2xf32>, tensor<2xf32>
}
