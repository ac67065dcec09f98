// Included (//#include) by the attention kernels:
// exp2 of a chunk of scores, denormal results flushed to 0
// (ex2.approx.ftz: one MUFU each).
//#vars NAME P NSC
func.func private @{{NAME}}_exp2(%x: !{{P}}schunk) -> !{{P}}schunk attributes {fa.inline} {
  %p = affine.for %i = 0 to {{NSC}} iter_args(%pv = %x) -> (!{{P}}schunk) {
    %xi = vector.extract %pv[%i] : f32 from !{{P}}schunk
    %y = llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" %xi : (f32) -> f32
    %pn = vector.insert %y, %pv[%i] : f32 into !{{P}}schunk
    affine.yield %pn : !{{P}}schunk
  }
  return %p : !{{P}}schunk
}
