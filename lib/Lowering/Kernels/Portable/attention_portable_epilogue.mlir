//#vars OE
//#flags OUT_F32 LSE
    // --- epilogue: O = acc / l, lse = (m + log2 l) * ln 2 --------------------
    // (attention_portable_epilogue.mlir, included by attention_portable.mlir.)
    // A row with no visible key has l = 0: O = 0 and lse = -inf there.
    scf.for %e = %tid to %a_n0 step %nth {
      %r = arith.divui %e, %cDV : index
      %c = arith.remui %e, %cDV : index
      %in = arith.cmpi ult, %r, %rows : index
      scf.if %in {
        %l = memref.load %lrow[%r] : !tR
        %a = memref.load %acc[%r, %c] : !tA
        %z = arith.cmpf oeq, %l, %zf : f32
        %dv = arith.divf %a, %l : f32
        %y = arith.select %z, %zf, %dv : f32
        %i = arith.addi %m0, %r : index
//#if OUT_F32
        memref.store %y, %o[%b, %h, %i, %c] : !O
//#else
        %yt = arith.truncf %y : f32 to {{OE}}
        memref.store %yt, %o[%b, %h, %i, %c] : !O
//#endif
      }
    }
//#if LSE
    scf.for %e = %tid to %cBM step %nth {
      %in = arith.cmpi ult, %e, %rows : index
      scf.if %in {
        %l = memref.load %lrow[%e] : !tR
        %m = memref.load %mrow[%e] : !tR
        %z = arith.cmpf oeq, %l, %zf : f32
        %lg = math.log2 %l : f32
        %s2 = arith.addf %m, %lg : f32
        %ln = arith.mulf %s2, %ln2 : f32
        %y = arith.select %z, %ninf, %ln : f32
        %i = arith.addi %m0, %e : index
        memref.store %y, %lse[%b, %h, %i] : !LSE
      }
    }
//#endif
