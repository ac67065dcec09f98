// Input of rocdl-objects.test: an f16 erf, which fa-expand-erf leaves alone.
func.func @erf16(%x: tensor<64xf16>) -> tensor<64xf16> {
  %e = tensor.empty() : tensor<64xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf16>) outs(%e : tensor<64xf16>) {
  ^bb0(%a: f16, %o: f16):
    %v = math.erf %a : f16
    linalg.yield %v : f16
  } -> tensor<64xf16>
  return %r : tensor<64xf16>
}
