// examples/attention_tosa.mlir in bf16 (bf16-cpu.test).
// Attention in TOSA (MIGraphX style): matmul, mul scale, reduce_max, sub, exp, reduce_sum, reciprocal, mul, matmul
func.func @attention(%q: tensor<16x128x64xbf16>, %kt: tensor<16x64x128xbf16>, %v: tensor<16x128x64xbf16>) -> tensor<16x128x64xbf16> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xbf16>}> : () -> tensor<1xbf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1xbf16>}> : () -> tensor<1x1x1xbf16>
  %s = tosa.matmul %q, %kt, %zp, %zp : (tensor<16x128x64xbf16>, tensor<16x64x128xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<16x128x128xbf16>
  %ss = tosa.mul %s, %scale, %shift : (tensor<16x128x128xbf16>, tensor<1x1x1xbf16>, tensor<1xi8>) -> tensor<16x128x128xbf16>
  %m = tosa.reduce_max %ss {axis = 2 : i32} : (tensor<16x128x128xbf16>) -> tensor<16x128x1xbf16>
  %d = tosa.sub %ss, %m : (tensor<16x128x128xbf16>, tensor<16x128x1xbf16>) -> tensor<16x128x128xbf16>
  %e = tosa.exp %d : (tensor<16x128x128xbf16>) -> tensor<16x128x128xbf16>
  %l = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<16x128x128xbf16>) -> tensor<16x128x1xbf16>
  %r = tosa.reciprocal %l : (tensor<16x128x1xbf16>) -> tensor<16x128x1xbf16>
  %p = tosa.mul %e, %r, %shift : (tensor<16x128x128xbf16>, tensor<16x128x1xbf16>, tensor<1xi8>) -> tensor<16x128x128xbf16>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<16x128x128xbf16>, tensor<16x128x64xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<16x128x64xbf16>
  return %o : tensor<16x128x64xbf16>
}
