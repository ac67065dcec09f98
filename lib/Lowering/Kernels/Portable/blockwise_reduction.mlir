// fa.blockwise_reduction on memref tiles, as fa-lower-blockwise specialises
// it (BlockwisePortable.c; Lowering.h tells the workgroup frame):
//   %a1[r] = COMBINE(%a1[r], COMBINE over c < {{LEN}} of %a0[r, c])
// for the {{KEPT}} rows r (%a0[c, r] unless AXIS1: the reduced axis is 0),
// COMBINE being {{COMBINE}} and {{IDENTITY}} its identity. On the CPU a loop
// per row. On GPUs one warp per row: lane l combines elements l, l + {{WARP}},
// ..., a butterfly of gpu.shuffle xor combines the lanes' partials, lane 0
// updates %a1[r]; a barrier ends it.
//#vars LEN KEPT COMBINE IDENTITY WARP NAME IN INIT
//#flags GPU AXIS1
func.func private @{{NAME}}(%a0: {{IN}}, %a1: {{INIT}}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
//#include workgroup_threads
  %kept = arith.constant {{KEPT}} : index
  %len = arith.constant {{LEN}} : index
  %ident = arith.constant {{IDENTITY}} : f32
//#if GPU
  %cw = arith.constant {{WARP}} : index
  %lane = arith.remui %tid, %cw : index
  %warp = arith.divui %tid, %cw : index
  %nw = arith.divui %nth, %cw : index
  %width = arith.constant {{WARP}} : i32
  scf.for %r = %warp to %kept step %nw {
    %part = scf.for %c = %lane to %len step %cw iter_args(%a = %ident) -> (f32) {
//#else
  scf.for %r = %c0 to %kept step %c1 {
    %part = scf.for %c = %c0 to %len step %c1 iter_args(%a = %ident) -> (f32) {
//#endif
//#if AXIS1
      %x = memref.load %a0[%r, %c] : {{IN}}
//#else
      %x = memref.load %a0[%c, %r] : {{IN}}
//#endif
      %y = {{COMBINE}} %a, %x : f32
      scf.yield %y : f32
    }
//#if GPU
    // The butterfly over the 32 lanes of a warp: %t1 is the row's total.
    %o16 = arith.constant 16 : i32
    %s16, %ok16 = gpu.shuffle xor %part, %o16, %width : f32
    %t16 = {{COMBINE}} %part, %s16 : f32
    %o8 = arith.constant 8 : i32
    %s8, %ok8 = gpu.shuffle xor %t16, %o8, %width : f32
    %t8 = {{COMBINE}} %t16, %s8 : f32
    %o4 = arith.constant 4 : i32
    %s4, %ok4 = gpu.shuffle xor %t8, %o4, %width : f32
    %t4 = {{COMBINE}} %t8, %s4 : f32
    %o2 = arith.constant 2 : i32
    %s2, %ok2 = gpu.shuffle xor %t4, %o2, %width : f32
    %t2 = {{COMBINE}} %t4, %s2 : f32
    %o1 = arith.constant 1 : i32
    %s1, %ok1 = gpu.shuffle xor %t2, %o1, %width : f32
    %t1 = {{COMBINE}} %t2, %s1 : f32
    %first = arith.cmpi eq, %lane, %c0 : index
    scf.if %first {
      %old = memref.load %a1[%r] : {{INIT}}
      %new = {{COMBINE}} %old, %t1 : f32
      memref.store %new, %a1[%r] : {{INIT}}
    }
//#else
    %old = memref.load %a1[%r] : {{INIT}}
    %new = {{COMBINE}} %old, %part : f32
    memref.store %new, %a1[%r] : {{INIT}}
//#endif
  }
//#if GPU
  gpu.barrier
//#endif
  return
}
