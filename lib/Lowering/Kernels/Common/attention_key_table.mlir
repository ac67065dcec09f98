// The key-range table of a data mask (attention_key_table.mlir, MaskSummary.c):
// made on the GPU before the kernel's launch, after the tile summaries, so
// that the kernels read their key tiles instead of searching for them (two
// binary searches of a dozen dependent summary reads each, per work item).
// One thread per (batch, head, 64 rows): the 64-key tiles [t0, t1) that the
// mask may show those rows over keys [0, N) (attention_key_range with BN =
// 64), as i32 at [2 * entry] and [2 * entry + 1], entry = (b * Hq + h) *
// ceil(M / 64) + rows / 64. The kernels widen them to their own tiles.
//#vars NAME RANGE_PARAMS THREADS RANGE_FN RANGE_CAP_TYPES
func.func private @{{RANGE_FN}}(index, index, index, index, index, index{{RANGE_CAP_TYPES}}) -> (i1, i1)
func.func private @{{NAME}}_keytable(%B: index, %Hq: index, %M: index, %N: index{{RANGE_PARAMS}}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %g = arith.constant 64 : index
  %R = arith.ceildivui %M, %g : index
  %BH = arith.muli %B, %Hq : index
  %total = arith.muli %BH, %R : index
  %nth = arith.constant {{THREADS}} : index
  %blocks = arith.ceildivui %total, %nth : index
  %one = arith.maxui %blocks, %c1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %nth, %sy = %c1, %sz = %c1) {
    %id0 = arith.muli %bx, %nth : index
    %id = arith.addi %id0, %tx : index
    %in = arith.cmpi ult, %id, %total : index
    scf.if %in {
      %r = arith.remui %id, %R : index
      %bh = arith.divui %id, %R : index
      %h = arith.remui %bh, %Hq : index
      %b = arith.divui %bh, %Hq : index
      %m0 = arith.muli %r, %g : index
      %mleft = arith.subi %M, %m0 : index
      %rows = arith.minui %mleft, %g : index
      %nend = arith.addi %N, %c0 : index
//#include attention_key_range
      %e0 = arith.muli %id, %c2 : index
      %e1 = arith.addi %e0, %c1 : index
      %t0 = arith.index_cast %kr_t0 : index to i32
      %t1 = arith.index_cast %kr_t1 : index to i32
      memref.store %t0, %keytab[%e0] : memref<?xi32>
      memref.store %t1, %keytab[%e1] : memref<?xi32>
    }
    gpu.terminator
  }
  return
}
