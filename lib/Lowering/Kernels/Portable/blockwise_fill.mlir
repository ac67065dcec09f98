// fa.blockwise_fill on a memref tile, as fa-lower-blockwise specialises it
// (BlockwisePortable.c; Lowering.h tells the workgroup frame):
//   %a0[...] = %a1 over the {{SIZE}} elements of the tile ({{DEST}}),
// each thread storing every %nth-th element (element e at [e / {{COLS}},
// e % {{COLS}}] with RANK2, else at [e]). On GPUs a barrier ends it.
//#vars SIZE DEST COLS NAME VALUE
//#flags RANK2 GPU
func.func private @{{NAME}}(%a0: {{DEST}}, %a1: {{VALUE}}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
//#include workgroup_threads
  %n = arith.constant {{SIZE}} : index
  %w = arith.constant {{COLS}} : index
  scf.for %e = %tid to %n step %nth {
//#if RANK2
    %r = arith.divui %e, %w : index
    %c = arith.remui %e, %w : index
    memref.store %a1, %a0[%r, %c] : {{DEST}}
//#else
    memref.store %a1, %a0[%e] : {{DEST}}
//#endif
  }
//#if GPU
  gpu.barrier
//#endif
  return
}
