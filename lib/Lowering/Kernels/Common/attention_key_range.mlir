//#vars RANGE_FN RANGE_CAPS RANGE_CAP_TYPES BN
    // --- key range: the key tiles [%kr_t0, %kr_t1) of [0, %nend) that the
    // op's mask may show rows [%m0, %m0 + %rows) -------------------------------
    // (attention_key_range.mlir, MaskRange.c.) Two binary searches over the
    // mask's interval extension: "may be true over keys [0, x]" only grows
    // with x, "over keys [x, nend)" only shrinks. Tiles outside are neither
    // loaded nor computed; inside, a tile the mask must keep whole skips it.
    %kr_c1 = arith.constant 1 : index
    %kr_c0 = arith.constant 0 : index
    %kr_bn = arith.constant {{BN}} : index
    %kr_nt = arith.ceildivui %nend, %kr_bn : index
    %kr_iend = arith.addi %m0, %rows : index
    %kr_ihi = arith.subi %kr_iend, %kr_c1 : index
    %kr_jlast = arith.subi %nend, %kr_c1 : index
    %kr_steps = arith.constant 40 : index
    %kr_a:2 = scf.for %kr_it = %kr_c0 to %kr_steps step %kr_c1
        iter_args(%kr_lo = %kr_c0, %kr_hi = %kr_nt) -> (index, index) {
      %kr_open = arith.cmpi ult, %kr_lo, %kr_hi : index
      %kr_next:2 = scf.if %kr_open -> (index, index) {
        %kr_sum = arith.addi %kr_lo, %kr_hi : index
        %kr_mid = arith.shrui %kr_sum, %kr_c1 : index
        %kr_mid1 = arith.addi %kr_mid, %kr_c1 : index
        %kr_jend0 = arith.muli %kr_mid1, %kr_bn : index
        %kr_jend = arith.minui %kr_jend0, %nend : index
        %kr_jhi = arith.subi %kr_jend, %kr_c1 : index
        %kr_may, %kr_must = func.call @{{RANGE_FN}}(%b, %h, %m0, %kr_ihi, %kr_c0, %kr_jhi{{RANGE_CAPS}})
            : (index, index, index, index, index, index{{RANGE_CAP_TYPES}}) -> (i1, i1)
        %kr_lo2 = arith.select %kr_may, %kr_lo, %kr_mid1 : index
        %kr_hi2 = arith.select %kr_may, %kr_mid, %kr_hi : index
        scf.yield %kr_lo2, %kr_hi2 : index, index
      } else {
        scf.yield %kr_lo, %kr_hi : index, index
      }
      scf.yield %kr_next#0, %kr_next#1 : index, index
    }
    %kr_t0 = arith.addi %kr_a#0, %kr_c0 : index
    %kr_b:2 = scf.for %kr_it = %kr_c0 to %kr_steps step %kr_c1
        iter_args(%kr_lo = %kr_t0, %kr_hi = %kr_nt) -> (index, index) {
      %kr_open = arith.cmpi ult, %kr_lo, %kr_hi : index
      %kr_next:2 = scf.if %kr_open -> (index, index) {
        %kr_sum = arith.addi %kr_lo, %kr_hi : index
        %kr_mid = arith.shrui %kr_sum, %kr_c1 : index
        %kr_mid1 = arith.addi %kr_mid, %kr_c1 : index
        %kr_jlo = arith.muli %kr_mid, %kr_bn : index
        %kr_may, %kr_must = func.call @{{RANGE_FN}}(%b, %h, %m0, %kr_ihi, %kr_jlo, %kr_jlast{{RANGE_CAPS}})
            : (index, index, index, index, index, index{{RANGE_CAP_TYPES}}) -> (i1, i1)
        %kr_lo2 = arith.select %kr_may, %kr_mid1, %kr_lo : index
        %kr_hi2 = arith.select %kr_may, %kr_hi, %kr_mid : index
        scf.yield %kr_lo2, %kr_hi2 : index, index
      } else {
        scf.yield %kr_lo, %kr_hi : index, index
      }
      scf.yield %kr_next#0, %kr_next#1 : index, index
    }
    %kr_t1 = arith.addi %kr_b#0, %kr_c0 : index
