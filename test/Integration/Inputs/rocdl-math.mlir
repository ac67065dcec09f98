// Math that convert-gpu-to-rocdl turns into ocml calls: f16 exp and erf (computed
// in f32), f32 floor and log2 (fa-rocdl-intrinsics: native intrinsics).
func.func @f(%a: tensor<64xf16>, %b: tensor<64xf32>) -> (tensor<64xf16>, tensor<64xf16>, tensor<64xf32>, tensor<64xf32>) {
  %e = math.exp %a : tensor<64xf16>
  %r = math.erf %a : tensor<64xf16>
  %f = math.floor %b : tensor<64xf32>
  %l = math.log2 %b : tensor<64xf32>
  return %e, %r, %f, %l : tensor<64xf16>, tensor<64xf16>, tensor<64xf32>, tensor<64xf32>
}
