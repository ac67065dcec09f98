// The key-range table of a data mask (attention_key_table.mlir, MaskSummary.c):
// made on the GPU before the kernel's launch, after the tile summaries, so
// that the kernels read their key tiles instead of searching for them (two
// binary searches of a dozen dependent summary reads each, per work item).
// One thread per (batch, head, 64 rows): the 64-key tiles [t0, t1) that the
// mask may show those rows over keys [0, N) (attention_key_range with BN =
// 64) and a run [u0, u1) of them that it must show whole (empty: 0, 0), as
// i32 at [4 * entry + 0..3], entry = (b * Hq + h) * ceil(M / 64) + rows / 64.
// The kernels widen [t0, t1) to their own tiles and do not evaluate the mask
// on their tiles inside [u0, u1).
//#vars NAME RANGE_PARAMS THREADS RANGE_FN RANGE_CAPS RANGE_CAP_TYPES
func.func private @{{RANGE_FN}}(index, index, index, index, index, index{{RANGE_CAP_TYPES}}) -> (i1, i1)
func.func private @{{NAME}}_keytable(%B: index, %Hq: index, %M: index, %N: index{{RANGE_PARAMS}}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %g = arith.constant 64 : index
  %c63 = arith.constant 63 : index
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
      // A run [u0, u1) of tiles the mask must show whole: the first of the
      // four tiles from t0 that it must, then as far as it must (a binary
      // search: "must over keys [u0 * 64, x)" only shrinks as x grows).
      %c4 = arith.constant 4 : index
      %ua = scf.for %q = %c0 to %c4 step %c1 iter_args(%acc = %kr_t1) -> (index) {
        %t = arith.addi %kr_t0, %q : index
        %inr = arith.cmpi ult, %t, %kr_t1 : index
        %none = arith.cmpi eq, %acc, %kr_t1 : index
        %go = arith.andi %inr, %none : i1
        %nx = scf.if %go -> (index) {
          %jlo = arith.muli %t, %g : index
          %jhi = arith.addi %jlo, %c63 : index
          %may, %must = func.call @{{RANGE_FN}}(%b, %h, %m0, %kr_ihi, %jlo, %jhi{{RANGE_CAPS}})
              : (index, index, index, index, index, index{{RANGE_CAP_TYPES}}) -> (i1, i1)
          %v = arith.select %must, %t, %acc : index
          scf.yield %v : index
        } else {
          scf.yield %acc : index
        }
        scf.yield %nx : index
      }
      %found = arith.cmpi ult, %ua, %kr_t1 : index
      %ua1 = arith.addi %ua, %c1 : index
      %ujlo = arith.muli %ua, %g : index
      %steps = arith.constant 40 : index
      %ub:2 = scf.for %it = %c0 to %steps step %c1 iter_args(%lo = %ua1, %hi = %kr_t1) -> (index, index) {
        %open = arith.cmpi ult, %lo, %hi : index
        %nx:2 = scf.if %open -> (index, index) {
          %kts = arith.addi %lo, %hi : index
          %kts1 = arith.addi %kts, %c1 : index
          %mid = arith.shrui %kts1, %c1 : index
          %jend = arith.muli %mid, %g : index
          %jhi = arith.subi %jend, %c1 : index
          %may, %must = func.call @{{RANGE_FN}}(%b, %h, %m0, %kr_ihi, %ujlo, %jhi{{RANGE_CAPS}})
              : (index, index, index, index, index, index{{RANGE_CAP_TYPES}}) -> (i1, i1)
          %midm = arith.subi %mid, %c1 : index
          %lo2 = arith.select %must, %mid, %lo : index
          %hi2 = arith.select %must, %hi, %midm : index
          scf.yield %lo2, %hi2 : index, index
        } else {
          scf.yield %lo, %hi : index, index
        }
        scf.yield %nx#0, %nx#1 : index, index
      }
      %u0 = arith.select %found, %ua, %c0 : index
      %u1 = arith.select %found, %ub#0, %c0 : index
      %e0 = arith.muli %id, %c4 : index
      %e1 = arith.addi %e0, %c1 : index
      %e2 = arith.addi %e0, %c2 : index
      %e3 = arith.addi %e1, %c2 : index
      %t0 = arith.index_cast %kr_t0 : index to i32
      %t1 = arith.index_cast %kr_t1 : index to i32
      %w0 = arith.index_cast %u0 : index to i32
      %w1 = arith.index_cast %u1 : index to i32
      memref.store %t0, %keytab[%e0] : memref<?xi32>
      memref.store %t1, %keytab[%e1] : memref<?xi32>
      memref.store %w0, %keytab[%e2] : memref<?xi32>
      memref.store %w1, %keytab[%e3] : memref<?xi32>
    }
    gpu.terminator
  }
  return
}
