// The key-range table of a data mask (attention_key_table.mlir, MaskSummary.c):
// made on the GPU before the kernel's launch, after the tile summaries, so
// that the kernels read their key tiles instead of searching for them (two
// binary searches of a dozen dependent summary reads each, per work item).
// One thread per (batch, head, 64 rows): the 64-key tiles [t0, t1) that the
// mask may show those rows over keys [0, N) (attention_key_range with BN =
// 64) and a run [u0, u1) of them that it must show whole (empty: 0, 0), as
// i32 at [4 * entry + 0..3], entry = (b * Hq + h) * ceil(M / 64) + rows / 64;
// then (WORK_ORDER) the work order of the Hopper kernel's persistent grid.
// The kernels widen [t0, t1) to their own tiles and do not evaluate the mask
// on their tiles inside [u0, u1).
//#vars NAME RANGE_PARAMS THREADS RANGE_FN RANGE_CAPS RANGE_CAP_TYPES WORK_BM CAUSAL_OFFSET
//#flags WORK_ORDER CAUSAL
func.func private @{{RANGE_FN}}(index, index, index, index, index, index{{RANGE_CAP_TYPES}}) -> (i1, i1)
func.func private @{{NAME}}_keytable(%B: index, %Hq: index, %M: index, %N: index{{RANGE_PARAMS}}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4w = arith.constant 4 : index
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
//#if WORK_ORDER
  // The work order of the Hopper kernel's persistent workgroups (work items
  // of {{WORK_BM}} rows, attention_wgmma_tile.mlir): each (batch, head)'s
  // items sorted by the 64-key tiles they visit (the table's, cut at the
  // causal diagonal), most first, a counting sort per (batch, head) in a
  // workgroup; after the entries, order[bh * MT + k] = bh * MT + mt of its
  // k-th. The workgroups take it in a snake (a round forwards, the next
  // backwards): every workgroup visits about as many key tiles, and at any
  // time they work on neighbouring heads (K and V stay in L2).
  %wo_bm = arith.constant {{WORK_BM}} : index
  %wo_MT = arith.ceildivui %M, %wo_bm : index
  %wo_base = arith.muli %total, %c4w : index
  %wo_nth = arith.constant 256 : index
  %wo_bins = arith.constant 256 : index
  gpu.launch blocks(%wo_bx, %wo_by, %wo_bz) in (%wo_gx = %BH, %wo_gy = %c1, %wo_gz = %c1)
             threads(%wo_tx, %wo_ty, %wo_tz) in (%wo_sx = %wo_nth, %wo_sy = %c1, %wo_sz = %c1)
             workgroup(%wo_hist : memref<256xi32, #gpu.address_space<workgroup>>,
                       %wo_scan : memref<256xi32, #gpu.address_space<workgroup>>) {
    %wo_zero = arith.constant 0 : i32
    %wo_one = arith.constant 1 : i32
    scf.for %wo_x = %wo_tx to %wo_bins step %wo_nth {
      memref.store %wo_zero, %wo_hist[%wo_x] : memref<256xi32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    scf.for %wo_mt = %wo_tx to %wo_MT step %wo_nth {
      %wo_bin = func.call @{{NAME}}_work_bin(%wo_bx, %wo_mt, %M, %R, %keytab) : (index, index, index, index, memref<?xi32>) -> index
      %wo_o = memref.atomic_rmw addi %wo_one, %wo_hist[%wo_bin] : (i32, memref<256xi32, #gpu.address_space<workgroup>>) -> i32
    }
    gpu.barrier
    // Each bin's first position, the bins of most tiles first: thread t
    // scans bin 255 - t (an inclusive scan in eight doubling steps, then
    // less its own count).
    %wo_last = arith.subi %wo_bins, %c1 : index
    %wo_mine = arith.subi %wo_last, %wo_tx : index
    %wo_cnt = memref.load %wo_hist[%wo_mine] : memref<256xi32, #gpu.address_space<workgroup>>
    memref.store %wo_cnt, %wo_scan[%wo_tx] : memref<256xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %wo_c8 = arith.constant 8 : index
    %wo_inc = scf.for %wo_s = %c0 to %wo_c8 step %c1 iter_args(%wo_acc = %wo_cnt) -> (i32) {
      %wo_off = arith.shli %c1, %wo_s : index
      %wo_has = arith.cmpi uge, %wo_tx, %wo_off : index
      %wo_from0 = arith.subi %wo_tx, %wo_off : index
      %wo_from = arith.select %wo_has, %wo_from0, %wo_tx : index
      %wo_y0 = memref.load %wo_scan[%wo_from] : memref<256xi32, #gpu.address_space<workgroup>>
      %wo_y = arith.select %wo_has, %wo_y0, %wo_zero : i32
      %wo_acc2 = arith.addi %wo_acc, %wo_y : i32
      gpu.barrier
      memref.store %wo_acc2, %wo_scan[%wo_tx] : memref<256xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.yield %wo_acc2 : i32
    }
    %wo_start = arith.subi %wo_inc, %wo_cnt : i32
    memref.store %wo_start, %wo_hist[%wo_mine] : memref<256xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %wo_first = arith.muli %wo_bx, %wo_MT : index
    %wo_at0 = arith.addi %wo_base, %wo_first : index
    scf.for %wo_mt = %wo_tx to %wo_MT step %wo_nth {
      %wo_bin = func.call @{{NAME}}_work_bin(%wo_bx, %wo_mt, %M, %R, %keytab) : (index, index, index, index, memref<?xi32>) -> index
      %wo_pos = memref.atomic_rmw addi %wo_one, %wo_hist[%wo_bin] : (i32, memref<256xi32, #gpu.address_space<workgroup>>) -> i32
      %wo_posx = arith.index_castui %wo_pos : i32 to index
      %wo_at = arith.addi %wo_at0, %wo_posx : index
      %wo_it = arith.addi %wo_first, %wo_mt : index
      %wo_it32 = arith.index_castui %wo_it : index to i32
      memref.store %wo_it32, %keytab[%wo_at] : memref<?xi32>
    }
    gpu.terminator
  }
//#endif
  return
}

//#if WORK_ORDER
// The 64-key tiles that work item %mt of (batch, head) %bh visits (at most
// 255, 16k keys: more count as the most): the union of its 64-row blocks'
// entries of the table above (tiles then), cut at the causal diagonal.
func.func private @{{NAME}}_work_bin(%bh: index, %mt: index, %M: index, %R: index, %keytab: memref<?xi32>) -> index attributes {fa.inline} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %g = arith.constant 64 : index
  %bm = arith.constant {{WORK_BM}} : index
  %m0 = arith.muli %mt, %bm : index
  %mleft = arith.subi %M, %m0 : index
  %rows = arith.minui %mleft, %bm : index
  %r0 = arith.divui %m0, %g : index
  %rend = arith.addi %m0, %rows : index
  %r1 = arith.ceildivui %rend, %g : index
  %base = arith.muli %bh, %R : index
  %big = arith.constant 2147483647 : i32
  %zero = arith.constant 0 : i32
  %t:2 = scf.for %r = %r0 to %r1 step %c1 iter_args(%lo = %big, %hi = %zero) -> (i32, i32) {
    %e = arith.addi %base, %r : index
    %e0 = arith.muli %e, %c4 : index
    %e1 = arith.addi %e0, %c1 : index
    %a = memref.load %keytab[%e0] : memref<?xi32>
    %z = memref.load %keytab[%e1] : memref<?xi32>
    %lo2 = arith.minsi %lo, %a : i32
    %hi2 = arith.maxsi %hi, %z : i32
    scf.yield %lo2, %hi2 : i32, i32
  }
//#if CAUSAL
  %coff = arith.constant {{CAUSAL_OFFSET}} : index
  %cend0 = arith.addi %rend, %coff : index
  %cend1 = arith.maxsi %cend0, %c0 : index
  %cend = arith.ceildivui %cend1, %g : index
  %ce32 = arith.index_cast %cend : index to i32
  %hi = arith.minsi %t#1, %ce32 : i32
//#else
  %hi = arith.addi %t#1, %zero : i32
//#endif
  %n0 = arith.subi %hi, %t#0 : i32
  %n = arith.maxsi %n0, %zero : i32
  %cap = arith.constant 255 : i32
  %nb = arith.minsi %n, %cap : i32
  %bin = arith.index_cast %nb : i32 to index
  return %bin : index
}
//#endif
