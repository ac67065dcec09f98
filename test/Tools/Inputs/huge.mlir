// Inputs too large to allocate: fa-check refuses them with the size.
func.func @huge(%a: tensor<8x100000x100000xf32>) -> tensor<8x100000x100000xf32> {
  return %a : tensor<8x100000x100000xf32>
}
