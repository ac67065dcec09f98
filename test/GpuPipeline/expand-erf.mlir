// fa-expand-erf replaces f32 math.erf with a call to an exp-based
// approximation; other element types are left alone.
// RUN: fa-opt --pass-pipeline="builtin.module(fa-expand-erf)" %s | FileCheck %s
// The approximation agrees with upstream's erf (libm) within f32 tolerance,
// on inputs in [-4, 4] (tails included).
// RUN: fa-check --input-scale=4 --pipeline="fa-expand-erf,inline,fa-to-cpu" %s | FileCheck %s --check-prefix=NUM
// and the check could fail: the approximation is not exact.
// RUN: not fa-check --input-scale=4 --tol-scale=0 --pipeline="fa-expand-erf,inline,fa-to-cpu" %s | FileCheck %s --check-prefix=STRICT

// CHECK-LABEL: func.func @gelu
// CHECK-NOT: math.erf {{.*}} : f32
// CHECK: call @fa_erf_f32_{{[0-9]+}}(%{{.*}}) : (f32) -> f32
// CHECK-LABEL: func.func @keep_f16
// CHECK: math.erf {{.*}} : f16
// CHECK: func.func private @fa_erf_f32_{{[0-9]+}}(%{{.*}}: f32) -> f32
// CHECK: math.exp
// CHECK: math.copysign
// NUM: gelu: output 0 (f32, 4096 elements){{.*}} ok
// NUM: keep_f16: output 0 {{.*}} ok
// NUM: 2 agree, 0 disagree
// STRICT: gelu: output 0 {{.*}} MISMATCH
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @gelu(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.erf %a : f32
    linalg.yield %v : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

func.func @keep_f16(%x: tensor<8xf16>) -> tensor<8xf16> {
  %e = tensor.empty() : tensor<8xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf16>) outs(%e : tensor<8xf16>) {
  ^bb0(%a: f16, %o: f16):
    %v = math.erf %a : f16
    linalg.yield %v : f16
  } -> tensor<8xf16>
  return %r : tensor<8xf16>
}
