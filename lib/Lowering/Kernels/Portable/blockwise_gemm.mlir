// fa.blockwise_gemm on memref tiles, as fa-lower-blockwise specialises it
// (BlockwisePortable.c; Lowering.h tells the workgroup frame):
//   %a2[i, j] += sum over k < {{K}} of %a0[i, k] * %a1[k, j]
// (%a1[j, k] with TRANSPOSE_B), each thread computing every %nth-th of the
// {{SIZE}} elements of %a2 ({{C}}, {{COLS}} columns). The GEMM keeps a
// function of its own, so that a tensor-core lowering can replace only it.
// On GPUs a barrier ends it.
//#vars K SIZE C COLS NAME A B
//#flags TRANSPOSE_B GPU
func.func private @{{NAME}}(%a0: {{A}}, %a1: {{B}}, %a2: {{C}}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
//#include workgroup_threads
  %n = arith.constant {{SIZE}} : index
  %w = arith.constant {{COLS}} : index
  %kk = arith.constant {{K}} : index
  scf.for %e = %tid to %n step %nth {
    %i = arith.divui %e, %w : index
    %j = arith.remui %e, %w : index
    %init = memref.load %a2[%i, %j] : {{C}}
    %s = scf.for %k = %c0 to %kk step %c1 iter_args(%acc = %init) -> (f32) {
      %x = memref.load %a0[%i, %k] : {{A}}
//#if TRANSPOSE_B
      %y = memref.load %a1[%j, %k] : {{B}}
//#else
      %y = memref.load %a1[%k, %j] : {{B}}
//#endif
      %p = arith.mulf %x, %y : f32
      %q = arith.addf %acc, %p : f32
      scf.yield %q : f32
    }
    memref.store %s, %a2[%i, %j] : {{C}}
  }
//#if GPU
  gpu.barrier
//#endif
  return
}
