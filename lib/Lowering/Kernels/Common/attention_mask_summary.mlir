// The tile summary of a captured tensor that the op's mask reads (data masks:
// document ids, padding flags), made on the device before the kernel runs
// (MaskSummary.c; docs/lowering.md, "Block sparsity").
//
// The capture is viewed as %R rows (its leading indices, row-major) of %L
// elements (its last axis), cut in %NT tiles of 64 elements. Summary
// {{S}} holds, for each row r, level l < %LV (the bit length of %NT) and
// tile t, the minimum and the maximum (as i64) of the elements of tiles
// [t, t + 2^l) of row r:
//   %sum[((r * %LV + l) * %NT + t) * 2 + {0: min, 1: max}]
// A sparse table: the minimum and maximum over any index interval of a row
// are two reads (@{{NAME}}_mask_range). Entries whose run passes the row's
// end hold the minimum and maximum of a part of the run; no query reads them.
//#vars NAME S CAP_TYPE DIMS ROW_INDEX LOAD_ELT THREADS
//#flags GPU SKIP

// %R, %L, %NT, %LV of the capture.
func.func private @{{NAME}}_summary_shape{{S}}(%cap: {{CAP_TYPE}}) -> (index, index, index, index) attributes {fa.inline} {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %w = arith.constant 64 : i64
{{DIMS}}
  %nt0 = arith.ceildivui %L, %c64 : index
  %NT = arith.maxui %nt0, %c1 : index
  %nti = arith.index_cast %NT : index to i64
  %lz = math.ctlz %nti : i64
  %lvi = arith.subi %w, %lz : i64
  %LV = arith.index_cast %lvi : i64 to index
  return %R, %L, %NT, %LV : index, index, index, index
}

// The summary's size in i64 elements: at least 2, so that element 0 can be
// read where the capture is empty (the reads' results are not used then).
func.func private @{{NAME}}_summary_size{{S}}(%cap: {{CAP_TYPE}}) -> index attributes {fa.inline} {
  %c2 = arith.constant 2 : index
  %R, %L, %NT, %LV = func.call @{{NAME}}_summary_shape{{S}}(%cap) : ({{CAP_TYPE}}) -> (index, index, index, index)
  %a = arith.muli %R, %LV : index
  %b = arith.muli %a, %NT : index
  %n0 = arith.muli %b, %c2 : index
  %n = arith.maxui %n0, %c2 : index
  return %n : index
}

// Element %e of row %row (%e clamped to the row's last one), as i64.
func.func private @{{NAME}}_summary_elt{{S}}(%cap: {{CAP_TYPE}}, %row: index, %e: index) -> i64 attributes {fa.inline} {
  %c1 = arith.constant 1 : index
{{DIMS}}
  %last = arith.subi %L, %c1 : index
  %ec = arith.minui %e, %last : index
{{ROW_INDEX}}
{{LOAD_ELT}}
  return %x : i64
}

// Fills %sum (of @{{NAME}}_summary_size{{S}} elements): a workgroup per row,
// level 0 from the elements (eight loads in flight a step), each level from
// the one before. (SKIP: not where %skip[%skipAt] is set: packed documents
// in their own work items read no summary, attention_key_table.mlir.)
func.func private @{{NAME}}_summary{{S}}(%cap: {{CAP_TYPE}}, %sum: memref<?xi64>
//#if SKIP
                                         , %skip: memref<?xi32>, %skipAt: index
//#endif
                                         ) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %imax = arith.constant 9223372036854775807 : i64
  %imin = arith.constant -9223372036854775808 : i64
  %R, %L, %NT, %LV = func.call @{{NAME}}_summary_shape{{S}}(%cap) : ({{CAP_TYPE}}) -> (index, index, index, index)
  %rows = arith.cmpi ugt, %R, %c0 : index
  %elts = arith.cmpi ugt, %L, %c0 : index
  %some = arith.andi %rows, %elts : i1
  scf.if %some {
//#if GPU
  %nthreads = arith.constant {{THREADS}} : index
  gpu.launch blocks(%row, %u1, %u2) in (%gx = %R, %gy = %c1, %gz = %c1)
      threads(%tid, %u4, %u5) in (%sx = %nthreads, %sy = %c1, %sz = %c1) {
  // In an scf.execute_region: the inliner does not inline into gpu.launch.
  scf.execute_region {
    %nth = gpu.block_dim x
//#if SKIP
    %skipv = memref.load %skip[%skipAt] : memref<?xi32>
    %skip0 = arith.constant 0 : i32
    %todo = arith.cmpi eq, %skipv, %skip0 : i32
    scf.if %todo {
//#endif
//#else
  scf.parallel (%row) = (%c0) to (%R) step (%c1) {
    %tid = arith.constant 0 : index
    %nth = arith.constant 1 : index
//#endif
    %rl = arith.muli %row, %LV : index
    %base0 = arith.muli %rl, %NT : index
    scf.for %t = %tid to %NT step %nth {
      %e0 = arith.muli %t, %c64 : index
      %mm:2 = scf.for %u = %c0 to %c64 step %c8 iter_args(%mn = %imax, %mx = %imin) -> (i64, i64) {
        %eu = arith.addi %e0, %u : index
        // (Unrolled on GPUs: the eight loads are in flight together.)
//#if GPU
        %r8:2 = affine.for %k = 0 to 8 iter_args(%an = %mn, %ax = %mx) -> (i64, i64) {
//#else
        %r8:2 = scf.for %k = %c0 to %c8 step %c1 iter_args(%an = %mn, %ax = %mx) -> (i64, i64) {
//#endif
          %e = arith.addi %eu, %k : index
          %x = func.call @{{NAME}}_summary_elt{{S}}(%cap, %row, %e) : ({{CAP_TYPE}}, index, index) -> i64
          %an2 = arith.minsi %an, %x : i64
          %ax2 = arith.maxsi %ax, %x : i64
//#if GPU
          affine.yield %an2, %ax2 : i64, i64
//#else
          scf.yield %an2, %ax2 : i64, i64
//#endif
        }
        scf.yield %r8#0, %r8#1 : i64, i64
      }
      %at = arith.addi %base0, %t : index
      %i0 = arith.muli %at, %c2 : index
      %i1 = arith.addi %i0, %c1 : index
      memref.store %mm#0, %sum[%i0] : memref<?xi64>
      memref.store %mm#1, %sum[%i1] : memref<?xi64>
    }
    scf.for %l = %c1 to %LV step %c1 {
//#if GPU
      gpu.barrier
//#endif
      %lp = arith.subi %l, %c1 : index
      %half = arith.shli %c1, %lp : index
      %rp = arith.addi %rl, %lp : index
      %prev = arith.muli %rp, %NT : index
      %rc = arith.addi %rl, %l : index
      %cur = arith.muli %rc, %NT : index
      %tlast = arith.subi %NT, %c1 : index
      scf.for %t = %tid to %NT step %nth {
        %th = arith.addi %t, %half : index
        %t2 = arith.minui %th, %tlast : index
        %pa = arith.addi %prev, %t : index
        %pb = arith.addi %prev, %t2 : index
        %a0 = arith.muli %pa, %c2 : index
        %a1 = arith.addi %a0, %c1 : index
        %b0 = arith.muli %pb, %c2 : index
        %b1 = arith.addi %b0, %c1 : index
        %amin = memref.load %sum[%a0] : memref<?xi64>
        %amax = memref.load %sum[%a1] : memref<?xi64>
        %bmin = memref.load %sum[%b0] : memref<?xi64>
        %bmax = memref.load %sum[%b1] : memref<?xi64>
        %nmin = arith.minsi %amin, %bmin : i64
        %nmax = arith.maxsi %amax, %bmax : i64
        %pc = arith.addi %cur, %t : index
        %c0i = arith.muli %pc, %c2 : index
        %c1i = arith.addi %c0i, %c1 : index
        memref.store %nmin, %sum[%c0i] : memref<?xi64>
        memref.store %nmax, %sum[%c1i] : memref<?xi64>
      }
    }
//#if SKIP
    }
//#endif
//#if GPU
    scf.yield
  }
  gpu.terminator
  }
//#else
    scf.reduce
  }
//#endif
  }
  return
}
