// A kernel launched in thread block clusters of two blocks (sm_90): each
// thread writes its block's rank in the cluster (gpu.cluster_block_id).
func.func @fill(%o: memref<256xf32>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  gpu.launch clusters(%cx, %cy, %cz) in (%sx = %c2, %sy = %c1, %sz = %c1)
             blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%tsx = %c128, %tsy = %c1, %tsz = %c1) {
    %b = gpu.block_id x
    %t = gpu.thread_id x
    %i0 = arith.muli %b, %c128 : index
    %i = arith.addi %i0, %t : index
    %r = gpu.cluster_block_id x
    %rf = arith.index_cast %r : index to i32
    %f = arith.sitofp %rf : i32 to f32
    memref.store %f, %o[%i] : memref<256xf32>
    gpu.terminator
  }
  return
}
