// fa.blockwise_* on register fragments of the layout "mma_m16n8k16", as
// fa-lower-blockwise{target=nvvm} specialises them (one function per
// signature, inlined afterwards; its affine.for loops are unrolled fully, so
// every fragment index becomes a constant and fragments stay in registers).
//
// The layout of a [rows x cols] f32 tile over a workgroup of W warps
// (rows = W * 16 * RM): warp w owns rows [w*16*RM, (w+1)*16*RM) as RM slices
// of 16 rows; in slice r, the 8-column tile j of the thread with lane l holds
//   element (r*CT + j)*4 + e  =  tile[w*16*RM + r*16 + l/4 + 8*(e/2)][j*8 + 2*(l%4) + e%2]
// (CT = cols / 8), the accumulator layout of mma.sync m16n8k16. Per-row
// vectors (!rows) hold element r*2 + h for row w*16*RM + r*16 + l/4 + 8*h.
// An f16/bf16 fragment with the same element order is the A operand of
// mma.sync for 16-column steps: elements (r*CT + 2k)*4 ... + 7 are the four
// A registers of slice r, step k.
//#vars NAME T NX NR CT IDENT E K KSTEPS N NPAIRS A_FROM B_STORED A_TYPE B_TYPE NC WARP_ROWS A_CT
//#vars NA RM REG
//#flags FILL REDUCTION MAX PARTIAL GEMM SWIZZLE TRANSPOSE_B A_SHARED

//#if FILL
// dest = value everywhere (the fragment is the thread's registers).
func.func private @{{NAME}}(%dest: {{T}}, %value: f32) -> {{T}} {
  %r = vector.broadcast %value : f32 to {{T}}
  return %r : {{T}}
}
//#endif

//#if REDUCTION
// The combining function. max is LLVM's maxnum (one FMNMX): arith.maxnumf
// would be expanded into compares and selects by the pipeline's arith-expand.
// A NaN score still reaches the row's output through exp2 and the sum.
func.func private @{{NAME}}_combine(%a: f32, %b: f32) -> f32 {
//#if MAX
  %r = llvm.intr.maxnum(%a, %b) : (f32, f32) -> f32
//#else
  %r = arith.addf %a, %b : f32
//#endif
  return %r : f32
}

// result[i] = combine(init[i], combine over the row of tile row-vector
// entry i): per-thread partials over its 2 * CT elements of the row, then a
// butterfly over the 4 lanes of the quad that share the row.
func.func private @{{NAME}}(%x: vector<{{NX}}xf32>, %init: vector<{{NR}}xf32>) -> vector<{{NR}}xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %cCT = arith.constant {{CT}} : index
  %ident = arith.constant {{IDENT}} : f32
  %zero = arith.constant -0.0 : f32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %width = arith.constant 32 : i32
  %res = affine.for %i = 0 to {{NR}} iter_args(%acc = %init) -> (vector<{{NR}}xf32>) {
    %r = arith.divui %i, %c2 : index
    %h = arith.remui %i, %c2 : index
    %rbase = arith.muli %r, %cCT : index
    %h2 = arith.muli %h, %c2 : index
    %part = affine.for %j = 0 to {{CT}} iter_args(%p = %ident) -> (f32) {
      %t = arith.addi %rbase, %j : index
      %t4 = arith.muli %t, %c4 : index
      %e0 = arith.addi %t4, %h2 : index
      %x0 = vector.extract %x[%e0] : f32 from vector<{{NX}}xf32>
      %p0 = func.call @{{NAME}}_combine(%p, %x0) : (f32, f32) -> f32
      %e1 = arith.addi %e0, %c1 : index
      %x1 = vector.extract %x[%e1] : f32 from vector<{{NX}}xf32>
      %p1 = func.call @{{NAME}}_combine(%p0, %x1) : (f32, f32) -> f32
      affine.yield %p1 : f32
    }
//#if PARTIAL
    %q2 = arith.addf %part, %zero : f32
//#else
    %s1, %ok1 = gpu.shuffle xor %part, %one, %width : f32
    %q1 = func.call @{{NAME}}_combine(%part, %s1) : (f32, f32) -> f32
    %s2, %ok2 = gpu.shuffle xor %q1, %two, %width : f32
    %q2 = func.call @{{NAME}}_combine(%q1, %s2) : (f32, f32) -> f32
//#endif
    %old = vector.extract %acc[%i] : f32 from vector<{{NR}}xf32>
    %new = func.call @{{NAME}}_combine(%old, %q2) : (f32, f32) -> f32
    %acc2 = vector.insert %new, %acc[%i] : f32 into vector<{{NR}}xf32>
    affine.yield %acc2 : vector<{{NR}}xf32>
  }
  return %res : vector<{{NR}}xf32>
}
//#endif

//#if GEMM
// C += A B with mma.sync m16n8k16 ({{E}} in, f32 accumulators): K = {{K}} in
// {{KSTEPS}} steps of 16, N = {{N}} in {{NPAIRS}} pairs of 8-column tiles.
// A is {{A_FROM}}; B is a shared-memory tile stored {{B_STORED}}, read with
// ldmatrix (x4: the two B registers of two column tiles at once).
func.func private @{{NAME}}(%a: {{A_TYPE}}, %b: {{B_TYPE}}, %c: vector<{{NC}}xf32>) -> vector<{{NC}}xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %cCT = arith.constant {{CT}} : index
  %tid = gpu.thread_id x
  %lane = arith.remui %tid, %c32 : index
  %warp = arith.divui %tid, %c32 : index
  // ldmatrix x4: lanes 8i..8i+7 give the row addresses of matrix i.
  %l8 = arith.remui %lane, %c8 : index
  %li = arith.divui %lane, %c8 : index
  %lk = arith.remui %li, %c2 : index
  %ln = arith.divui %li, %c2 : index
  %lk8 = arith.muli %lk, %c8 : index
  %ln8 = arith.muli %ln, %c8 : index
//#if SWIZZLE
  // Swizzled tiles keep 16-byte chunk c of row r at chunk c ^ (r % 8). Every
  // row this lane addresses is 8 j + (lane % 8) (the tiles' row offsets are
  // multiples of 8): its column chunk is XORed with lane % 8.
  %swz = arith.muli %l8, %c8 : index
//#else
  %swz = arith.addi %c0, %c0 : index
//#endif
//#if TRANSPOSE_B
  // B stored [N][K]: matrix i = (column tile i/2, k half i%2), rows are columns of B.
  %bn = arith.addi %ln8, %l8 : index
  %bk = arith.addi %lk8, %c0 : index
//#else
  // B stored [K][N]: matrix i = (k half i%2, column tile i/2), read transposed.
  %bk = arith.addi %lk8, %l8 : index
  %bn = arith.addi %ln8, %c0 : index
//#endif
//#if A_SHARED
  // A rows of this warp: matrices 0..3 = (rows 0-7 | 8-15) x (k 0-7 | 8-15).
  %cWR = arith.constant {{WARP_ROWS}} : index
  %l16 = arith.remui %lane, %c16 : index
  %lhi = arith.divui %lane, %c16 : index
  %wrow = arith.muli %warp, %cWR : index
  %arow = arith.addi %wrow, %l16 : index
  %acol = arith.muli %lhi, %c8 : index
//#else
  %cAT = arith.constant {{A_CT}} : index
//#endif
  %apoison = ub.poison : vector<{{NA}}xi32>
  %res = affine.for %kk = 0 to {{KSTEPS}} iter_args(%acc = %c) -> (vector<{{NC}}xf32>) {
    %k0 = arith.muli %kk, %c16 : index
    // The four A registers of each row slice for this k step.
    %af = affine.for %r = 0 to {{RM}} iter_args(%f = %apoison) -> (vector<{{NA}}xi32>) {
      %r4 = arith.muli %r, %c4 : index
//#if A_SHARED
      %r16 = arith.muli %r, %c16 : index
      %ar = arith.addi %arow, %r16 : index
      %ac0 = arith.addi %k0, %acol : index
      %ac = arith.xori %ac0, %swz : index
      %x = nvgpu.ldmatrix %a[%ar, %ac] {numTiles = 4 : i32, transpose = false}
          : {{A_TYPE}} -> vector<4x2x{{E}}>
//#else
      %rt = arith.muli %r, %cAT : index
      %k2 = arith.muli %kk, %c2 : index
      %t = arith.addi %rt, %k2 : index
      %base = arith.muli %t, %c4 : index
//#endif
      %f4 = affine.for %q = 0 to 4 iter_args(%g = %f) -> (vector<{{NA}}xi32>) {
//#if A_SHARED
        %pair = vector.extract %x[%q] : vector<2x{{E}}> from vector<4x2x{{E}}>
//#else
        %q2 = arith.muli %q, %c2 : index
        %e0 = arith.addi %base, %q2 : index
        %e1 = arith.addi %e0, %c1 : index
        %x0 = vector.extract %a[%e0] : {{E}} from {{A_TYPE}}
        %x1 = vector.extract %a[%e1] : {{E}} from {{A_TYPE}}
        %pair = vector.from_elements %x0, %x1 : vector<2x{{E}}>
//#endif
        %reg = llvm.bitcast %pair : vector<2x{{E}}> to i32
        %at = arith.addi %r4, %q : index
        %g2 = vector.insert %reg, %g[%at] : i32 into vector<{{NA}}xi32>
        affine.yield %g2 : vector<{{NA}}xi32>
      }
      affine.yield %f4 : vector<{{NA}}xi32>
    }
    %acc2 = affine.for %np = 0 to {{NPAIRS}} iter_args(%a2 = %acc) -> (vector<{{NC}}xf32>) {
      %n16 = arith.muli %np, %c16 : index
//#if TRANSPOSE_B
      %br = arith.addi %n16, %bn : index
      %bc0 = arith.addi %k0, %bk : index
      %bc = arith.xori %bc0, %swz : index
      %y = nvgpu.ldmatrix %b[%br, %bc] {numTiles = 4 : i32, transpose = false}
          : {{B_TYPE}} -> vector<4x2x{{E}}>
//#else
      %br = arith.addi %k0, %bk : index
      %bc0 = arith.addi %n16, %bn : index
      %bc = arith.xori %bc0, %swz : index
      %y = nvgpu.ldmatrix %b[%br, %bc] {numTiles = 4 : i32, transpose = true}
          : {{B_TYPE}} -> vector<4x2x{{E}}>
//#endif
      %a3 = affine.for %r = 0 to {{RM}} iter_args(%a4 = %a2) -> (vector<{{NC}}xf32>) {
        %r4 = arith.muli %r, %c4 : index
        %i0 = arith.addi %r4, %c1 : index
        %i1 = arith.addi %r4, %c2 : index
        %i2 = arith.addi %r4, %c3 : index
        %x0 = vector.extract %af[%r4] : i32 from vector<{{NA}}xi32>
        %x1 = vector.extract %af[%i0] : i32 from vector<{{NA}}xi32>
        %x2 = vector.extract %af[%i1] : i32 from vector<{{NA}}xi32>
        %x3 = vector.extract %af[%i2] : i32 from vector<{{NA}}xi32>
        %ra0 = llvm.bitcast %x0 : i32 to {{REG}}
        %ra1 = llvm.bitcast %x1 : i32 to {{REG}}
        %ra2 = llvm.bitcast %x2 : i32 to {{REG}}
        %ra3 = llvm.bitcast %x3 : i32 to {{REG}}
        %rct = arith.muli %r, %cCT : index
        %np2 = arith.muli %np, %c2 : index
        %ct0 = arith.addi %rct, %np2 : index
        // Column tiles 2np (B matrices 0, 1) and 2np + 1 (matrices 2, 3).
        %ra = affine.for %hf = 0 to 2 iter_args(%v = %a4) -> (vector<{{NC}}xf32>) {
          %m0 = arith.muli %hf, %c2 : index
          %m1 = arith.addi %m0, %c1 : index
          %y0 = vector.extract %y[%m0] : vector<2x{{E}}> from vector<4x2x{{E}}>
          %y1 = vector.extract %y[%m1] : vector<2x{{E}}> from vector<4x2x{{E}}>
          %rb0 = llvm.bitcast %y0 : vector<2x{{E}}> to {{REG}}
          %rb1 = llvm.bitcast %y1 : vector<2x{{E}}> to {{REG}}
          %ct = arith.addi %ct0, %hf : index
          %e0 = arith.muli %ct, %c4 : index
          %e1 = arith.addi %e0, %c1 : index
          %e2 = arith.addi %e0, %c2 : index
          %e3 = arith.addi %e0, %c3 : index
          %d0 = vector.extract %v[%e0] : f32 from vector<{{NC}}xf32>
          %d1 = vector.extract %v[%e1] : f32 from vector<{{NC}}xf32>
          %d2 = vector.extract %v[%e2] : f32 from vector<{{NC}}xf32>
          %d3 = vector.extract %v[%e3] : f32 from vector<{{NC}}xf32>
          %mma = nvvm.mma.sync A[%ra0, %ra1, %ra2, %ra3] B[%rb0, %rb1] C[%d0, %d1, %d2, %d3]
              {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>,
               multiplicandAPtxType = #nvvm.mma_type<{{E}}>, multiplicandBPtxType = #nvvm.mma_type<{{E}}>,
               shape = #nvvm.shape<m = 16, n = 8, k = 16>}
              : ({{REG}}, {{REG}}, f32) -> !llvm.struct<(f32, f32, f32, f32)>
          %o0 = llvm.extractvalue %mma[0] : !llvm.struct<(f32, f32, f32, f32)>
          %o1 = llvm.extractvalue %mma[1] : !llvm.struct<(f32, f32, f32, f32)>
          %o2 = llvm.extractvalue %mma[2] : !llvm.struct<(f32, f32, f32, f32)>
          %o3 = llvm.extractvalue %mma[3] : !llvm.struct<(f32, f32, f32, f32)>
          %v0 = vector.insert %o0, %v[%e0] : f32 into vector<{{NC}}xf32>
          %v1 = vector.insert %o1, %v0[%e1] : f32 into vector<{{NC}}xf32>
          %v2 = vector.insert %o2, %v1[%e2] : f32 into vector<{{NC}}xf32>
          %v3 = vector.insert %o3, %v2[%e3] : f32 into vector<{{NC}}xf32>
          affine.yield %v3 : vector<{{NC}}xf32>
        }
        affine.yield %ra : vector<{{NC}}xf32>
      }
      affine.yield %a3 : vector<{{NC}}xf32>
    }
    affine.yield %acc2 : vector<{{NC}}xf32>
  }
  return %res : vector<{{NC}}xf32>
}
//#endif
