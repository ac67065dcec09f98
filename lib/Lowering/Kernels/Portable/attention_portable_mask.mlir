//#vars S_SIZE BIAS_ELT MASK_FN MOD_FN CAPS CAP_TYPES RANGE_FN RANGE_CAPS RANGE_CAP_TYPES
//#flags CAUSAL BIAS BIAS_F32 MASK MOD
      // --- mask: S[r, c] of query %i = %m0 + r, key %j = %n0 + c -------------
      // (attention_portable_mask.mlir, included by attention_portable.mlir.)
      // -inf where the score is outside the tile (r >= %rows, c >= %cols) or,
      // with CAUSAL, above the diagonal (j > i + offset), or with MASK, where
      // the op's mask says false; elsewhere the bias times log2(e) is added
      // (with BIAS), and with MOD the op's score_mod maps the score (in the
      // natural domain: S is in the log2 domain here). %s_n also serves the
      // softmax.
      %s_n = arith.constant {{S_SIZE}} : index
//#if MASK
      // The tile's keys [%n0, %n0 + %cols) for rows [%m0, %m0 + %rows): where
      // the mask must show them all (MaskRange.c), it is not called.
      %tm_ihi0 = arith.addi %m0, %rows : index
      %tm_ihi = arith.subi %tm_ihi0, %c1 : index
      %tm_jhi0 = arith.addi %n0, %cols : index
      %tm_jhi = arith.subi %tm_jhi0, %c1 : index
      %tm_may, %tm_must = func.call @{{RANGE_FN}}(%b, %h, %m0, %tm_ihi, %n0, %tm_jhi{{RANGE_CAPS}})
          : (index, index, index, index, index, index{{RANGE_CAP_TYPES}}) -> (i1, i1)
//#endif
      scf.for %e = %tid to %s_n step %nth {
        %r = arith.divui %e, %cBN : index
        %c = arith.remui %e, %cBN : index
        %i = arith.addi %m0, %r : index
        %j = arith.addi %n0, %c : index
        %vr = arith.cmpi ult, %r, %rows : index
        %vc = arith.cmpi ult, %c, %cols : index
//#if CAUSAL
        %v0 = arith.andi %vr, %vc : i1
        %jlim = arith.addi %i, %coff : index
        %vis = arith.cmpi sle, %j, %jlim : index
//#if MASK
        %valid0 = arith.andi %v0, %vis : i1
//#else
        %valid = arith.andi %v0, %vis : i1
//#endif
//#else
//#if MASK
        %valid0 = arith.andi %vr, %vc : i1
//#else
        %valid = arith.andi %vr, %vc : i1
//#endif
//#endif
//#if MASK
        %inmask = scf.if %tm_must -> i1 {
          scf.yield %tm_must : i1
        } else {
          %fm = func.call @{{MASK_FN}}(%b, %h, %i, %j{{CAPS}}) : (index, index, index, index{{CAP_TYPES}}) -> i1
          scf.yield %fm : i1
        }
        %valid = arith.andi %valid0, %inmask : i1
//#endif
        %s = memref.load %st[%r, %c] : !tS
        %res = scf.if %valid -> f32 {
//#if BIAS
          %bi2 = arith.select %bone2, %c0, %i : index
          %bi3 = arith.select %bone3, %c0, %j : index
          %x = memref.load %bias[%bi0, %bi1, %bi2, %bi3] : !BIAS
//#if BIAS_F32
          %xf = arith.addf %x, %zf : f32
//#else
          %xf = arith.extf %x : {{BIAS_ELT}} to f32
//#endif
          // bias*log2(e), kept finite where the bias is (a finite "lowest"
          // fill must not overflow to -inf: a row of only such keys is not
          // masked).
          %xl0 = arith.mulf %xf, %log2e : f32
          %xl1 = arith.maximumf %xl0, %lowest : f32
          %xinf = arith.cmpf oeq, %xf, %ninf : f32
          %xl = arith.select %xinf, %ninf, %xl1 : f32
          %sb = arith.addf %s, %xl : f32
//#endif
//#if MOD
//#if BIAS
          %sn = arith.mulf %sb, %ln2 : f32
//#else
          %sn = arith.mulf %s, %ln2 : f32
//#endif
          %sm = func.call @{{MOD_FN}}(%sn, %b, %h, %i, %j{{CAPS}}) : (f32, index, index, index, index{{CAP_TYPES}}) -> f32
          %sl = arith.mulf %sm, %log2e : f32
          scf.yield %sl : f32
//#else
//#if BIAS
          scf.yield %sb : f32
//#else
          scf.yield %s : f32
//#endif
//#endif
        } else {
          scf.yield %ninf : f32
        }
        memref.store %res, %st[%r, %c] : !tS
      }
