//#vars OE SINKS_ELT
//#flags OUT_F32 LSE SINKS SINKS_F32 GPU
    // --- epilogue: O = acc / l, lse = (m + log2 l) * ln 2 --------------------
    // (attention_portable_epilogue.mlir, included by attention_portable.mlir.)
    // A row with no visible key has l = 0: O = 0 and lse = -inf there.
//#if SINKS
    // The sink of head %h (s, times log2(e)) joins each row's max and sum:
    // m' = max(m, s), alpha = exp2(m - m'), l' = l alpha + exp2(s - m'),
    // O = acc alpha / l' (alpha kept in %mnew); m' = -inf only where the sink
    // is -inf and no key is visible: l' = 0 there.
    %sk0 = memref.load %sinks[%h] : !SINKS
//#if SINKS_F32
    %skf = arith.addf %sk0, %zf : f32
//#else
    %skf = arith.extf %sk0 : {{SINKS_ELT}} to f32
//#endif
    %sk2 = arith.mulf %skf, %log2e : f32
    scf.for %e = %tid to %cBM step %nth {
      %m = memref.load %mrow[%e] : !tR
      %l = memref.load %lrow[%e] : !tR
      %mp = arith.maximumf %m, %sk2 : f32
      %mp_inf = arith.cmpf oeq, %mp, %ninf : f32
      %mps = arith.select %mp_inf, %zf, %mp : f32
      %dm = arith.subf %m, %mps : f32
      %al = math.exp2 %dm : f32
      %ds = arith.subf %sk2, %mps : f32
      %es = math.exp2 %ds : f32
      %la = arith.mulf %l, %al : f32
      %l2 = arith.addf %la, %es : f32
      memref.store %al, %mnew[%e] : !tR
      memref.store %l2, %lrow[%e] : !tR
      memref.store %mp, %mrow[%e] : !tR
    }
//#if GPU
    gpu.barrier
//#endif
//#endif
    scf.for %e = %tid to %a_n0 step %nth {
      %r = arith.divui %e, %cDV : index
      %c = arith.remui %e, %cDV : index
      %in = arith.cmpi ult, %r, %rows : index
      scf.if %in {
        %l = memref.load %lrow[%r] : !tR
//#if SINKS
        %a0 = memref.load %acc[%r, %c] : !tA
        %al = memref.load %mnew[%r] : !tR
        %a = arith.mulf %a0, %al : f32
//#else
        %a = memref.load %acc[%r, %c] : !tA
//#endif
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
