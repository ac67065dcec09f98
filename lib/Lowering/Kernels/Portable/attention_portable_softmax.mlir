//#vars A_SIZE
//#flags GPU
      // --- softmax: the online softmax of the key tile -----------------------
      // (attention_portable_softmax.mlir, included by attention_portable.mlir.)
      // m' = max(m, rowmax S), P = exp2(S - m'), alpha = exp2(m - m'),
      // O *= alpha, l = l * alpha + rowsum P, m = m'. Where m' = -inf (a row
      // with no visible key yet) it is taken as 0 (%ms), so that exp2 gives 0,
      // not NaN.
      // m' (%mnew) = max(m, rowmax S)
      scf.for %e = %tid to %cBM step %nth {
        %x = memref.load %mrow[%e] : !tR
        memref.store %x, %mnew[%e] : !tR
      }
//#if GPU
      gpu.barrier
//#endif
      "fa.blockwise_reduction"(%st, %mnew) {kind = "max", axis = 1 : i64} : (!tS, !tR) -> ()
      // P = exp2(S - m'), in place of S
      scf.for %e = %tid to %s_n step %nth {
        %r = arith.divui %e, %cBN : index
        %c = arith.remui %e, %cBN : index
        %mn = memref.load %mnew[%r] : !tR
        %ms_inf = arith.cmpf oeq, %mn, %ninf : f32
        %ms = arith.select %ms_inf, %zf, %mn : f32
        %s = memref.load %st[%r, %c] : !tS
        %d = arith.subf %s, %ms : f32
        %p = math.exp2 %d : f32
        memref.store %p, %st[%r, %c] : !tS
      }
      // O *= alpha
      %a_n = arith.constant {{A_SIZE}} : index
      scf.for %e = %tid to %a_n step %nth {
        %r = arith.divui %e, %cDV : index
        %c = arith.remui %e, %cDV : index
        %mo = memref.load %mrow[%r] : !tR
        %mn = memref.load %mnew[%r] : !tR
        %ms_inf = arith.cmpf oeq, %mn, %ninf : f32
        %ms = arith.select %ms_inf, %zf, %mn : f32
        %dm = arith.subf %mo, %ms : f32
        %al = math.exp2 %dm : f32
        %a = memref.load %acc[%r, %c] : !tA
        %as = arith.mulf %a, %al : f32
        memref.store %as, %acc[%r, %c] : !tA
      }
//#if GPU
      gpu.barrier
//#endif
      // l *= alpha, m = m'
      scf.for %e = %tid to %cBM step %nth {
        %mo = memref.load %mrow[%e] : !tR
        %mn = memref.load %mnew[%e] : !tR
        %ms_inf = arith.cmpf oeq, %mn, %ninf : f32
        %ms = arith.select %ms_inf, %zf, %mn : f32
        %dm = arith.subf %mo, %ms : f32
        %al = math.exp2 %dm : f32
        %l = memref.load %lrow[%e] : !tR
        %ls = arith.mulf %l, %al : f32
        memref.store %ls, %lrow[%e] : !tR
        memref.store %mn, %mrow[%e] : !tR
      }
//#if GPU
      gpu.barrier
//#endif
      // l += rowsum P
      "fa.blockwise_reduction"(%st, %lrow) {kind = "sum", axis = 1 : i64} : (!tS, !tR) -> ()
