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
//#vars DOC_CAP DOC_S DOC_CAP_TYPE DOC_MAX
//#flags WORK_ORDER CAUSAL DOC_RUNS
func.func private @{{RANGE_FN}}(index, index, index, index, index, index{{RANGE_CAP_TYPES}}) -> (i1, i1)
// %mode 0: the entries, then the work order of query tiles; with DOC_RUNS,
// first (before the summaries) %mode 1: the documents' work order where the
// ids allow it, flagged at [4 * entries + 1], which then skips the
// summaries, the entries and the query tiles' order (the Hopper kernel reads
// none of them), or %mode 2 (the host of a kernel that reads them: the
// decode kernel): the flag cleared, nothing else.
func.func private @{{NAME}}_keytable(%mode: index, %B: index, %Hq: index, %M: index, %N: index{{RANGE_PARAMS}}) {
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
  %cnt = arith.muli %total, %c4w : index
  %flagAt = arith.addi %cnt, %c1 : index
  %entries = arith.cmpi eq, %mode, %c0 : index
  scf.if %entries {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %nth, %sy = %c1, %sz = %c1) {
    %id0 = arith.muli %bx, %nth : index
    %id = arith.addi %id0, %tx : index
    %in0 = arith.cmpi ult, %id, %total : index
//#if DOC_RUNS
    %done32 = memref.load %keytab[%flagAt] : memref<?xi32>
    %zero32 = arith.constant 0 : i32
    %todo = arith.cmpi eq, %done32, %zero32 : i32
    %in = arith.andi %in0, %todo : i1
//#else
    %in = arith.andi %in0, %in0 : i1
//#endif
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
  }
//#if WORK_ORDER
  // The work order of the Hopper kernel's persistent workgroups, after the
  // entries: the item count, then a record of four i32 per position (read
  // by attention_wgmma_tile.mlir). A workgroup per (batch, head) lists its
  // items, sorts them by the 64-key tiles they visit (a counting sort: a
  // histogram of 256 bins, a parallel scan, atomics place the items), most
  // first, and places them long and short in turn (sorted k-th at 2k in the
  // first half, the others from the end at odd positions): the kernel's
  // workgroups take groups of two neighbouring positions, which visit about
  // as many key tiles as any other group, and at any time work on
  // neighbouring heads (K and V stay in L2).
  // Items: {{WORK_BM}}-row query tiles, record (bh, first row, -1, 0), whose
  // keys the entries above say; or (DOC_RUNS: the mask is doc[i] == doc[j]
  // and the ids are sorted, fewer documents than tiles) each document's
  // rows in {{WORK_BM}}-row items from its first, record (bh, first row,
  // document's first key, its end): no key of another document, no mask.
  %wo_bm = arith.constant {{WORK_BM}} : index
  %wo_MT = arith.ceildivui %M, %wo_bm : index
  %wo_cnt = arith.addi %cnt, %c0 : index
  %wo_base = arith.addi %wo_cnt, %c4w : index
  %wo_docmode = arith.cmpi eq, %mode, %c1 : index
  %wo_c2m = arith.constant 2 : index
  %wo_clear = arith.cmpi eq, %mode, %wo_c2m : index
  %wo_nth = arith.constant 256 : index
  gpu.launch blocks(%wo_bx, %wo_by, %wo_bz) in (%wo_gx = %BH, %wo_gy = %c1, %wo_gz = %c1)
             threads(%wo_tx, %wo_ty, %wo_tz) in (%wo_sx = %wo_nth, %wo_sy = %c1, %wo_sz = %c1)
             workgroup(%wo_hist : memref<256xi32, #gpu.address_space<workgroup>>,
//#if DOC_RUNS
                       %wo_docs : memref<{{DOC_MAX}}xi32, #gpu.address_space<workgroup>>,
                       %wo_flag : memref<1xi32, #gpu.address_space<workgroup>>,
//#endif
                       %wo_scan : memref<256xi32, #gpu.address_space<workgroup>>) {
    %wo_zero = arith.constant 0 : i32
    %wo_one = arith.constant 1 : i32
    %wo_true = arith.constant true
    scf.for %wo_x = %wo_tx to %wo_nth step %wo_nth {
      memref.store %wo_zero, %wo_hist[%wo_x] : memref<256xi32, #gpu.address_space<workgroup>>
    }
//#if DOC_RUNS
    // %mode 1: the documents (%wo_exact > 0 where the ids allow), flagged
    // for what follows; %mode 0: query tiles unless flagged.
    %wo_exact = scf.if %wo_docmode -> (index) {
      %wo_ex = func.call @{{NAME}}_doc_starts(%wo_tx, %M, %N, %wo_MT, %cap{{DOC_CAP}}, %wo_scan, %wo_docs, %wo_flag)
          : (index, index, index, index, {{DOC_CAP_TYPE}}, memref<256xi32, #gpu.address_space<workgroup>>,
             memref<{{DOC_MAX}}xi32, #gpu.address_space<workgroup>>, memref<1xi32, #gpu.address_space<workgroup>>) -> index
      scf.yield %wo_ex : index
    } else {
      scf.yield %c0 : index
    }
    %wo_isexact = arith.cmpi ugt, %wo_exact, %c0 : index
    %wo_done32 = memref.load %keytab[%flagAt] : memref<?xi32>
    %wo_done = arith.cmpi ne, %wo_done32, %wo_zero : i32
    %wo_nodoc = arith.xori %wo_isexact, %wo_true : i1
    %wo_skip0 = arith.andi %wo_docmode, %wo_nodoc : i1
    %wo_nd0 = arith.xori %wo_docmode, %wo_true : i1
    %wo_skip1 = arith.andi %wo_nd0, %wo_done : i1
    %wo_skip2 = arith.ori %wo_skip0, %wo_skip1 : i1
    %wo_skip = arith.ori %wo_skip2, %wo_clear : i1
    %wo_t00 = arith.cmpi eq, %wo_tx, %c0 : index
    %wo_b00 = arith.cmpi eq, %wo_bx, %c0 : index
    %wo_first = arith.andi %wo_t00, %wo_b00 : i1
    %wo_flagmode = arith.ori %wo_docmode, %wo_clear : i1
    %wo_setflag = arith.andi %wo_first, %wo_flagmode : i1
    scf.if %wo_setflag {
      %wo_f32 = arith.extui %wo_isexact : i1 to i32
      memref.store %wo_f32, %keytab[%flagAt] : memref<?xi32>
    }
//#else
    %wo_isexact = arith.constant false
    %wo_skip = arith.constant false
//#endif
    gpu.barrier
    %wo_go = arith.xori %wo_skip, %wo_true : i1
    scf.if %wo_go {
    %wo_c2 = arith.constant 2 : index
    // Phase 0 counts the items of each bin, phase 1 places them.
    scf.for %wo_ph = %c0 to %wo_c2 step %c1 {
      %wo_place = arith.cmpi eq, %wo_ph, %c1 : index
      scf.if %wo_place {
        func.call @{{NAME}}_wo_scan(%wo_tx, %wo_hist, %wo_scan) : (index, memref<256xi32, #gpu.address_space<workgroup>>, memref<256xi32, #gpu.address_space<workgroup>>) -> ()
      }
      %wo_last = arith.constant 255 : index
      %wo_n32 = memref.load %wo_scan[%wo_last] : memref<256xi32, #gpu.address_space<workgroup>>
      %wo_n = arith.index_castui %wo_n32 : i32 to index
      scf.if %wo_isexact {
//#if DOC_RUNS
        %wo_nd = arith.subi %wo_exact, %c1 : index
        scf.for %wo_d = %wo_tx to %wo_nd step %wo_nth {
          %wo_s32 = memref.load %wo_docs[%wo_d] : memref<{{DOC_MAX}}xi32, #gpu.address_space<workgroup>>
          %wo_d1 = arith.addi %wo_d, %c1 : index
          %wo_more = arith.cmpi ult, %wo_d1, %wo_nd : index
          %wo_dn = arith.select %wo_more, %wo_d1, %wo_d : index
          %wo_en32 = memref.load %wo_docs[%wo_dn] : memref<{{DOC_MAX}}xi32, #gpu.address_space<workgroup>>
          %wo_big = arith.constant 2147483647 : i32
          %wo_e32 = arith.select %wo_more, %wo_en32, %wo_big : i32
          %wo_s = arith.index_castui %wo_s32 : i32 to index
          %wo_e = arith.index_castui %wo_e32 : i32 to index
          %wo_qe = arith.minui %wo_e, %M : index
          %wo_qs = arith.minui %wo_s, %wo_qe : index
          %wo_ql = arith.subi %wo_qe, %wo_qs : index
          %wo_nk = arith.ceildivui %wo_ql, %wo_bm : index
          scf.for %wo_k = %c0 to %wo_nk step %c1 {
            %wo_qo = arith.muli %wo_k, %wo_bm : index
            %wo_q0 = arith.addi %wo_s, %wo_qo : index
            %wo_bin = func.call @{{NAME}}_doc_bin(%wo_q0, %wo_s, %wo_e, %M, %N) : (index, index, index, index, index) -> index
            func.call @{{NAME}}_wo_visit(%wo_place, %wo_bin, %wo_q0, %wo_s32, %wo_e32, %wo_bx, %wo_n, %wo_hist, %keytab, %wo_base)
                : (i1, index, index, i32, i32, index, index, memref<256xi32, #gpu.address_space<workgroup>>, memref<?xi32>, index) -> ()
          }
        }
//#endif
      } else {
        %wo_none = arith.constant -1 : i32
        scf.for %wo_mt = %wo_tx to %wo_MT step %wo_nth {
          %wo_bin = func.call @{{NAME}}_work_bin(%wo_bx, %wo_mt, %M, %R, %keytab) : (index, index, index, index, memref<?xi32>) -> index
          %wo_q0 = arith.muli %wo_mt, %wo_bm : index
          func.call @{{NAME}}_wo_visit(%wo_place, %wo_bin, %wo_q0, %wo_none, %wo_zero, %wo_bx, %wo_n, %wo_hist, %keytab, %wo_base)
              : (i1, index, index, i32, i32, index, index, memref<256xi32, #gpu.address_space<workgroup>>, memref<?xi32>, index) -> ()
        }
      }
      gpu.barrier
      // The count: every (batch, head) lists as many items.
      %wo_t0 = arith.cmpi eq, %wo_tx, %c0 : index
      %wo_b0 = arith.cmpi eq, %wo_bx, %c0 : index
      %wo_w0 = arith.andi %wo_t0, %wo_b0 : i1
      %wo_w = arith.andi %wo_w0, %wo_place : i1
      scf.if %wo_w {
        %wo_all = arith.muli %wo_n, %BH : index
        %wo_all32 = arith.index_castui %wo_all : index to i32
        memref.store %wo_all32, %keytab[%wo_cnt] : memref<?xi32>
      }
    }
    }
    gpu.terminator
  }
//#endif
  return
}

//#if WORK_ORDER
// The inclusive scan of %x over the workgroup's 256 threads (thread %tx's
// sum of threads 0..tx; %scan[255] the total, after the barriers): eight
// doubling steps through %scan.
func.func private @{{NAME}}_wg_scan(%tx: index, %x: i32,
                                    %scan: memref<256xi32, #gpu.address_space<workgroup>>) -> i32 attributes {fa.inline} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i32
  memref.store %x, %scan[%tx] : memref<256xi32, #gpu.address_space<workgroup>>
  gpu.barrier
  %inc = scf.for %s = %c0 to %c8 step %c1 iter_args(%acc = %x) -> (i32) {
    %off = arith.shli %c1, %s : index
    %has = arith.cmpi uge, %tx, %off : index
    %from0 = arith.subi %tx, %off : index
    %from = arith.select %has, %from0, %tx : index
    %y0 = memref.load %scan[%from] : memref<256xi32, #gpu.address_space<workgroup>>
    %y = arith.select %has, %y0, %zero : i32
    %acc2 = arith.addi %acc, %y : i32
    gpu.barrier
    memref.store %acc2, %scan[%tx] : memref<256xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    scf.yield %acc2 : i32
  }
  return %inc : i32
}

// Each bin's first position, the bins of most tiles first (%hist: counts
// in, first positions out; %scan[255] the number of items): thread t scans
// bin 255 - t (@{{NAME}}_wg_scan, then less its own count).
func.func private @{{NAME}}_wo_scan(%tx: index, %hist: memref<256xi32, #gpu.address_space<workgroup>>,
                                    %scan: memref<256xi32, #gpu.address_space<workgroup>>) attributes {fa.inline} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0 : i32
  %last = arith.constant 255 : index
  %mine = arith.subi %last, %tx : index
  %cnt = memref.load %hist[%mine] : memref<256xi32, #gpu.address_space<workgroup>>
  %inc = func.call @{{NAME}}_wg_scan(%tx, %cnt, %scan) : (index, i32, memref<256xi32, #gpu.address_space<workgroup>>) -> i32
  %start = arith.subi %inc, %cnt : i32
  memref.store %start, %hist[%mine] : memref<256xi32, #gpu.address_space<workgroup>>
  gpu.barrier
  return
}

// One work item of (batch, head) %bx: counted in its bin (%place false), or
// placed (true): its sorted position k (the bin's next), at 2k in the first
// half of the %n items, else at 2 (n - 1 - k) + 1, as the record (bx, q0,
// ks, ke).
func.func private @{{NAME}}_wo_visit(%place: i1, %bin: index, %q0: index, %ks: i32, %ke: i32,
                                     %bx: index, %n: index,
                                     %hist: memref<256xi32, #gpu.address_space<workgroup>>,
                                     %keytab: memref<?xi32>, %base: index) attributes {fa.inline} {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1 : i32
  %k32 = memref.atomic_rmw addi %one, %hist[%bin] : (i32, memref<256xi32, #gpu.address_space<workgroup>>) -> i32
  scf.if %place {
    %k = arith.index_castui %k32 : i32 to index
    %half = arith.ceildivui %n, %c2 : index
    %first = arith.cmpi ult, %k, %half : index
    %even = arith.muli %k, %c2 : index
    %nl = arith.subi %n, %c1 : index
    %back = arith.subi %nl, %k : index
    %back2 = arith.muli %back, %c2 : index
    %odd = arith.addi %back2, %c1 : index
    %out = arith.select %first, %even, %odd : index
    %bn = arith.muli %bx, %n : index
    %pos = arith.addi %bn, %out : index
    %at0 = arith.muli %pos, %c4 : index
    %a0 = arith.addi %base, %at0 : index
    %a1 = arith.addi %a0, %c1 : index
    %a2 = arith.addi %a1, %c1 : index
    %a3 = arith.addi %a2, %c1 : index
    %bx32 = arith.index_castui %bx : index to i32
    %q032 = arith.index_castui %q0 : index to i32
    memref.store %bx32, %keytab[%a0] : memref<?xi32>
    memref.store %q032, %keytab[%a1] : memref<?xi32>
    memref.store %ks, %keytab[%a2] : memref<?xi32>
    memref.store %ke, %keytab[%a3] : memref<?xi32>
  }
  return
}

//#if DOC_RUNS
func.func private @{{NAME}}_summary_elt{{DOC_S}}({{DOC_CAP_TYPE}}, index, index) -> i64

// Packed documents: the starts of the documents of %doc (sorted ids: a new
// one wherever the id changes) over positions [0, min(L, max(M, N))) into
// %docs (the first is 0), in order: thread t counts the changes in its
// chunk of positions, a scan gives each chunk its first slot. Returns the
// number of documents + 1 where the ids are sorted and there are at most
// 3 %MT (and {{DOC_MAX}}) documents (so at most 4 %MT items: the records'
// room), else 0 (the query tiles' items instead).
func.func private @{{NAME}}_doc_starts(%tx: index, %M: index, %N: index, %MT: index, %doc: {{DOC_CAP_TYPE}},
                                       %scan: memref<256xi32, #gpu.address_space<workgroup>>,
                                       %docs: memref<{{DOC_MAX}}xi32, #gpu.address_space<workgroup>>,
                                       %flag: memref<1xi32, #gpu.address_space<workgroup>>) -> index attributes {fa.inline} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %nth = arith.constant 256 : index
  %cap = arith.constant {{DOC_MAX}} : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %true = arith.constant true
  %t0 = arith.cmpi eq, %tx, %c0 : index
  scf.if %t0 {
    memref.store %one, %flag[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
    memref.store %zero, %docs[%c0] : memref<{{DOC_MAX}}xi32, #gpu.address_space<workgroup>>
  }
  %L = memref.dim %doc, %c0 : {{DOC_CAP_TYPE}}
  %MN = arith.maxui %M, %N : index
  %P0 = arith.minui %L, %MN : index
  %P = arith.maxui %P0, %c1 : index
  %span = arith.subi %P, %c1 : index
  %C = arith.ceildivui %span, %nth : index
  %p0a = arith.muli %tx, %C : index
  %p0b = arith.addi %p0a, %c1 : index
  %p0 = arith.minui %p0b, %P : index
  %p1a = arith.addi %p0, %C : index
  %p1 = arith.minui %p1a, %P : index
  %false = arith.constant false
  %cs:2 = func.call @{{NAME}}_doc_chunk(%doc, %p0, %p1, %docs, %zero, %false)
      : ({{DOC_CAP_TYPE}}, index, index, memref<{{DOC_MAX}}xi32, #gpu.address_space<workgroup>>, i32, i1) -> (i32, i1)
  gpu.barrier
  %bad = arith.xori %cs#1, %true : i1
  scf.if %bad {
    memref.store %zero, %flag[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
  }
  %inc = func.call @{{NAME}}_wg_scan(%tx, %cs#0, %scan) : (index, i32, memref<256xi32, #gpu.address_space<workgroup>>) -> i32
  // Document 1 + (the changes before this chunk) starts at its first change.
  %excl = arith.subi %inc, %cs#0 : i32
  %slot0 = arith.addi %excl, %one : i32
  %fin:2 = func.call @{{NAME}}_doc_chunk(%doc, %p0, %p1, %docs, %slot0, %true)
      : ({{DOC_CAP_TYPE}}, index, index, memref<{{DOC_MAX}}xi32, #gpu.address_space<workgroup>>, i32, i1) -> (i32, i1)
  %l255 = arith.constant 255 : index
  %tot32 = memref.load %scan[%l255] : memref<256xi32, #gpu.address_space<workgroup>>
  %ok32 = memref.load %flag[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
  gpu.barrier
  // The scan buffer counts the items next.
  memref.store %zero, %scan[%tx] : memref<256xi32, #gpu.address_space<workgroup>>
  %tot = arith.index_castui %tot32 : i32 to index
  %nd = arith.addi %tot, %c1 : index
  %sorted = arith.cmpi ne, %ok32, %zero : i32
  %c3 = arith.constant 3 : index
  %MT3 = arith.muli %MT, %c3 : index
  %few0 = arith.cmpi ule, %nd, %MT3 : index
  %few1 = arith.cmpi ule, %nd, %cap : index
  %few = arith.andi %few0, %few1 : i1
  %use = arith.andi %sorted, %few : i1
  %nd1 = arith.addi %nd, %c1 : index
  %r = arith.select %use, %nd1, %c0 : index
  return %r : index
}

// Positions [%p0, %p1) (from 1) of %doc where the id changes: their count
// from %slot0 and whether the ids never decrease there; with %write, each
// at %docs[its slot] (up to {{DOC_MAX}}). 32 ids are loaded at a time
// (the affine loops unroll: the loads are in flight together).
func.func private @{{NAME}}_doc_chunk(%doc: {{DOC_CAP_TYPE}}, %p0: index, %p1: index,
                                      %docs: memref<{{DOC_MAX}}xi32, #gpu.address_space<workgroup>>,
                                      %slot0: i32, %write: i1) -> (i32, i1) attributes {fa.inline} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %cap = arith.constant {{DOC_MAX}} : index
  %true = arith.constant true
  %z32 = arith.constant dense<0> : vector<32xi64>
  %pm = arith.subi %p0, %c1 : index
  %x0 = func.call @{{NAME}}_summary_elt{{DOC_S}}(%doc, %c0, %pm) : ({{DOC_CAP_TYPE}}, index, index) -> i64
  %r:3 = scf.for %q = %p0 to %p1 step %c32 iter_args(%prev = %x0, %slot = %slot0, %ok = %true) -> (i64, i32, i1) {
    %ys = affine.for %k = 0 to 32 iter_args(%acc = %z32) -> (vector<32xi64>) {
      %p = arith.addi %q, %k : index
      %y = func.call @{{NAME}}_summary_elt{{DOC_S}}(%doc, %c0, %p) : ({{DOC_CAP_TYPE}}, index, index) -> i64
      %acc2 = vector.insert %y, %acc[%k] : i64 into vector<32xi64>
      affine.yield %acc2 : vector<32xi64>
    }
    %v:3 = affine.for %k = 0 to 32 iter_args(%x = %prev, %sl = %slot, %o = %ok) -> (i64, i32, i1) {
      %p = arith.addi %q, %k : index
      %in = arith.cmpi ult, %p, %p1 : index
      %y = vector.extract %ys[%k] : i64 from vector<32xi64>
      %ne0 = arith.cmpi ne, %x, %y : i64
      %ne = arith.andi %ne0, %in : i1
      %le0 = arith.cmpi sle, %x, %y : i64
      %out = arith.xori %in, %true : i1
      %le = arith.ori %le0, %out : i1
      %o2 = arith.andi %o, %le : i1
      %sx = arith.index_castui %sl : i32 to index
      %fits = arith.cmpi ult, %sx, %cap : index
      %put0 = arith.andi %ne, %fits : i1
      %put = arith.andi %put0, %write : i1
      scf.if %put {
        %p32 = arith.index_castui %p : index to i32
        memref.store %p32, %docs[%sx] : memref<{{DOC_MAX}}xi32, #gpu.address_space<workgroup>>
      }
      %ne32 = arith.extui %ne : i1 to i32
      %sl2 = arith.addi %sl, %ne32 : i32
      affine.yield %y, %sl2, %o2 : i64, i32, i1
    }
    scf.yield %v#0, %v#1, %v#2 : i64, i32, i1
  }
  %n = arith.subi %r#1, %slot0 : i32
  return %n, %r#2 : i32, i1
}

// The bin of a document's item at row %q0 (document [%s, %e)): the 64-key
// tiles of its keys [s, min(e, N)), cut at the causal diagonal; at most 255.
func.func private @{{NAME}}_doc_bin(%q0: index, %s: index, %e: index, %M: index, %N: index) -> index attributes {fa.inline} {
  %c0 = arith.constant 0 : index
  %g = arith.constant 64 : index
  %bm = arith.constant {{WORK_BM}} : index
  %cap = arith.constant 255 : index
  %ke0 = arith.minui %e, %N : index
//#if CAUSAL
  %qe0 = arith.minui %e, %M : index
  %qe1 = arith.addi %q0, %bm : index
  %qe = arith.minui %qe0, %qe1 : index
  %coff = arith.constant {{CAUSAL_OFFSET}} : index
  %ce0 = arith.addi %qe, %coff : index
  %ce = arith.maxsi %ce0, %c0 : index
  %ke = arith.minui %ke0, %ce : index
//#else
  %ke = arith.addi %ke0, %c0 : index
//#endif
  %has = arith.cmpi ugt, %ke, %s : index
  %len0 = arith.subi %ke, %s : index
  %len = arith.select %has, %len0, %c0 : index
  %t = arith.ceildivui %len, %g : index
  %bin = arith.minui %t, %cap : index
  return %bin : index
}
//#endif
//#endif

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
