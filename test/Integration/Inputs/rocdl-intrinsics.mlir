// Input of rocdl-math.test's pass-alone RUN line.
module {
  llvm.func @__ocml_floor_f32(f32) -> f32
  llvm.func @__ocml_log2_f16(f16) -> f16
  llvm.func @__ocml_atan_f32(f32) -> f32
  llvm.func @k(%x: f32, %h: f16) -> f32 {
    %a = llvm.call @__ocml_floor_f32(%x) : (f32) -> f32
    %b = llvm.call @__ocml_log2_f16(%h) : (f16) -> f16
    %c = llvm.call @__ocml_atan_f32(%a) : (f32) -> f32
    llvm.return %c : f32
  }
}
