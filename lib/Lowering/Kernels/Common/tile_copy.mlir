// A tile copy of the tensor-core kernel (Kernels/MmaSync/attention_mma.mlir), as
// AttentionMma.c specialises it for each of the kernel's tiles (Q, K, V):
//   dst[r, c] = src[b, h, r0 + r, c]   for r0 + r < rlim, 0 for the other rows,
// for the [{{ROWS}} x {{COLS}}] {{E}} tile dst of shared memory ({{DST}}).
// The {{THREADS}} threads of the workgroup issue 16-byte cp.async chunks
// (8 elements) and do not wait for them. The loop is unrolled, so a thread's
// copies are a few integer instructions each. With SWIZZLE, dst keeps chunk
// c of its row r at chunk c ^ (r % 8) (@{{NAME}}_col; rows counted from dst's
// first, as fa.blockwise_gemm {swizzle} counts them from its operand's).
//#vars ROWS COLS E DST THREADS NAME SRC CHUNKS ROW_STEP ELT_BYTES ITERS N
//#flags STRIDED L2_PREFETCH SWIZZLE GUARD
func.func private @{{NAME}}(%src: {{SRC}}, %b: index, %h: index, %r0: index, %rlim: index,
                            %dst: {{DST}}) attributes {fa.inline} {
  %c8 = arith.constant 8 : index
  %cchunks = arith.constant {{CHUNKS}} : index
  // The thread id read afresh: values derived from gpu.thread_id would be
  // shared with other copies and kept in registers across the kernel's loop.
  %t = llvm.inline_asm has_side_effects "mov.u32 $0, %tid.x;", "=r" : () -> i32
  %tid = arith.index_cast %t : i32 to index
//#if STRIDED
  // Thread t keeps one column: rows t / {{CHUNKS}} + i * {{ROW_STEP}}, so its
  // source addresses are one base plus i row steps and its destinations one
  // base plus constants. A row past rlim is copied with a source size of 0:
  // cp.async reads nothing there (the address is never dereferenced) and
  // fills the chunk with zeros.
  %c0 = arith.constant 0 : index
  %rstep = arith.constant {{ROW_STEP}} : index
  %tr = arith.divui %tid, %cchunks : index
  %tc = arith.remui %tid, %cchunks : index
  %col = arith.muli %tc, %c8 : index
  %srow0 = arith.addi %r0, %tr : index
  // Rows stored densely (row stride {{COLS}}, as bufferized tensors are):
  // the source offsets are constants too.
  %base, %off, %sz:4, %str:4 = memref.extract_strided_metadata %src
      : {{SRC}} -> memref<{{E}}>, index, index, index, index, index, index, index, index, index
  %ccols = arith.constant {{COLS}} : index
  %dense = arith.cmpi eq, %str#2, %ccols : index
  scf.if %dense {
//#if L2_PREFETCH
    // (Decode kernels) cp.async with an L2 prefetch of 128 bytes
    // (.L2::128B), written as PTX: MLIR 22's nvvm.cp.async.shared.global has
    // no prefetch qualifier. On an H100 it lifted the decode kernel 2-4 %
    // (bench/tune_mma.txt); the main kernels keep nvgpu's copies (at D = 64
    // the byte addresses cost them registers: spills). Source and
    // destination are byte addresses: one base each plus i row steps.
    %sgen = memref.extract_aligned_pointer_as_index %src : {{SRC}} -> index
    %sgen64 = arith.index_cast %sgen : index to i64
    %sglob = llvm.inline_asm "cvta.to.global.u64 $0, $1;", "=l,l" %sgen64 : (i64) -> i64
    %sbase = arith.index_cast %sglob : i64 to index
    %dbase = memref.extract_aligned_pointer_as_index %dst : {{DST}} -> index
    %dbuf, %doff, %dsz:2, %dstr:2 = memref.extract_strided_metadata %dst
        : {{DST}} -> memref<{{E}}, #gpu.address_space<workgroup>>, index, index, index, index, index
    %ceb = arith.constant {{ELT_BYTES}} : index
    %bo = arith.muli %b, %str#0 : index
    %ho = arith.muli %h, %str#1 : index
    %ro = arith.muli %srow0, %ccols : index
    %se0 = arith.addi %off, %bo : index
    %se1 = arith.addi %se0, %ho : index
    %se2 = arith.addi %se1, %ro : index
    %se = arith.addi %se2, %col : index
    %sbytes = arith.muli %se, %ceb : index
    %sa0 = arith.addi %sbase, %sbytes : index
    %dr = arith.muli %tr, %dstr#0 : index
    %de0 = arith.addi %doff, %dr : index
    %de = arith.addi %de0, %col : index
    %dbytes = arith.muli %de, %ceb : index
    %da0 = arith.addi %dbase, %dbytes : index
    %sstepe = arith.muli %rstep, %ccols : index
    %sstep = arith.muli %sstepe, %ceb : index
    %dstepe = arith.muli %rstep, %dstr#0 : index
    %dstep = arith.muli %dstepe, %ceb : index
    %full = arith.constant 16 : i32
    %none = arith.constant 0 : i32
    affine.for %i = 0 to {{ITERS}} {
      %di = arith.muli %i, %rstep : index
      %srow = arith.addi %srow0, %di : index
      %in = arith.cmpi slt, %srow, %rlim : index
      %n = arith.select %in, %full, %none : i32
      %so = arith.muli %i, %sstep : index
      %sa = arith.addi %sa0, %so : index
//#if SWIZZLE
      %drow = arith.addi %tr, %di : index
      %dcol = func.call @{{NAME}}_col(%drow, %col) : (index, index) -> index
      %dre = arith.muli %drow, %dstr#0 : index
      %dae0 = arith.addi %doff, %dre : index
      %dae = arith.addi %dae0, %dcol : index
      %dab = arith.muli %dae, %ceb : index
      %da = arith.addi %dbase, %dab : index
//#else
      %do = arith.muli %i, %dstep : index
      %da = arith.addi %da0, %do : index
//#endif
      %sa64 = arith.index_cast %sa : index to i64
      %da32 = arith.index_cast %da : index to i32
      llvm.inline_asm has_side_effects "cp.async.cg.shared.global.L2::128B [$0], [$1], 16, $2;", "r,l,r" %da32, %sa64, %n : (i32, i64, i32) -> ()
    }
//#else
    %srcd = memref.reinterpret_cast %base to offset: [%off], sizes: [%sz#0, %sz#1, %sz#2, {{COLS}}],
        strides: [%str#0, %str#1, {{COLS}}, 1]
        : memref<{{E}}> to memref<?x?x?x{{COLS}}x{{E}}, strided<[?, ?, {{COLS}}, 1], offset: ?>>
    affine.for %i = 0 to {{ITERS}} {
      %di = arith.muli %i, %rstep : index
      %drow = arith.addi %tr, %di : index
      %srow = arith.addi %srow0, %di : index
      %in = arith.cmpi slt, %srow, %rlim : index
      %count = arith.select %in, %c8, %c0 : index
      %dcol = func.call @{{NAME}}_col(%drow, %col) : (index, index) -> index
      %tok = nvgpu.device_async_copy %srcd[%b, %h, %srow, %col], %dst[%drow, %dcol], 8, %count {bypassL1}
          : memref<?x?x?x{{COLS}}x{{E}}, strided<[?, ?, {{COLS}}, 1], offset: ?>> to {{DST}}
    }
//#endif
  } else {
    affine.for %i = 0 to {{ITERS}} {
      %di = arith.muli %i, %rstep : index
      %drow = arith.addi %tr, %di : index
      %srow = arith.addi %srow0, %di : index
      %in = arith.cmpi slt, %srow, %rlim : index
      %count = arith.select %in, %c8, %c0 : index
      %dcol = func.call @{{NAME}}_col(%drow, %col) : (index, index) -> index
      %tok = nvgpu.device_async_copy %src[%b, %h, %srow, %col], %dst[%drow, %dcol], 8, %count {bypassL1}
          : {{SRC}} to {{DST}}
    }
  }
//#else
  // Thread t copies chunks e = t + i * {{THREADS}}: row e / {{CHUNKS}},
  // columns 8 * (e % {{CHUNKS}}) .. + 7. Rows past rlim read row rlim - 1 (a
  // valid address) with a source size of 0: cp.async fills them with zeros.
  // Index math is 32-bit.
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %eight = arith.constant 8 : i32
  %chunks = arith.constant {{CHUNKS}} : i32
  %nth = arith.constant {{THREADS}} : i32
  %r0i = arith.index_cast %r0 : index to i32
  %rlimi = arith.index_cast %rlim : index to i32
  %last0 = arith.subi %rlimi, %one : i32
  %last = arith.maxsi %last0, %zero : i32
  affine.for %i = 0 to {{ITERS}} {
    %ii = arith.index_cast %i : index to i32
    %step = arith.muli %ii, %nth : i32
    %e = arith.addi %t, %step : i32
//#if GUARD
    %n = arith.constant {{N}} : i32
    %live = arith.cmpi ult, %e, %n : i32
//#else
    %live = arith.constant true
//#endif
    scf.if %live {
      %r = arith.divui %e, %chunks : i32
      %ch = arith.remui %e, %chunks : i32
      %c = arith.muli %ch, %eight : i32
      %row = arith.addi %r0i, %r : i32
      %in = arith.cmpi slt, %row, %rlimi : i32
      %srow = arith.minsi %row, %last : i32
      %count = arith.select %in, %c8, %c0 : index
      %rx = arith.index_cast %r : i32 to index
      %cx = arith.index_cast %c : i32 to index
      %srx = arith.index_cast %srow : i32 to index
      %dcx = func.call @{{NAME}}_col(%rx, %cx) : (index, index) -> index
      %tok = nvgpu.device_async_copy %src[%b, %h, %srx, %cx], %dst[%rx, %dcx], 8, %count {bypassL1}
          : {{SRC}} to {{DST}}
    }
  }
//#endif
  return
}

// The column where dst keeps element column %col of row %row.
func.func private @{{NAME}}_col(%row: index, %col: index) -> index attributes {fa.inline} {
//#if SWIZZLE
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %r7 = arith.andi %row, %c7 : index
  %sw = arith.muli %r7, %c8 : index
  %c = arith.xori %col, %sw : index
  return %c : index
//#else
  return %col : index
//#endif
}
