func.func @f(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  "test.crash_here"() : () -> ()
  %g = arith.addf %c, %c : f32
  %h = arith.mulf %g, %c : f32
  return %f : tensor<4x8xf32>
}
