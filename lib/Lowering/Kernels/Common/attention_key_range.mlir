//#vars RANGE_FN RANGE_CAPS RANGE_CAP_TYPES BN
//#flags KEY_TABLE DOC_RUNS
    // --- key range: the key tiles [%kr_t0, %kr_t1) of [0, %nend) that the
    // op's mask may show rows [%m0, %m0 + %rows) -------------------------------
    // (attention_key_range.mlir, MaskRange.c.) Two binary searches over the
    // mask's interval extension: "may be true over keys [0, x]" only grows
    // with x, "over keys [x, nend)" only shrinks. Tiles outside are neither
    // loaded nor computed; inside, a tile the mask must keep whole skips it.
//#if KEY_TABLE
    // Read from the key-range table the host made before the launch
    // (attention_key_table.mlir): the 64-key tiles of the 64-row blocks of
    // these rows, widened to this kernel's tiles, within [0, %nend).
    %kr_c1 = arith.constant 1 : index
    %kr_c0 = arith.constant 0 : index
    %kr_c2 = arith.constant 2 : index
    %kr_g = arith.constant 64 : index
    %kr_bn = arith.constant {{BN}} : index
    %kr_nt = arith.ceildivui %nend, %kr_bn : index
    %kr_iend = arith.addi %m0, %rows : index
    %kr_ihi = arith.subi %kr_iend, %kr_c1 : index
    %kr_r0 = arith.divui %m0, %kr_g : index
    %kr_r1 = arith.divui %kr_ihi, %kr_g : index
    %kr_r2 = arith.addi %kr_r1, %kr_c1 : index
    %kr_R = arith.ceildivui %M, %kr_g : index
    %kr_bh0 = arith.muli %b, %Hq : index
    %kr_bh = arith.addi %kr_bh0, %h : index
    %kr_base = arith.muli %kr_bh, %kr_R : index
    %kr_big = arith.constant 2147483647 : i32
    %kr_zero = arith.constant 0 : i32
    %kr_c3 = arith.constant 3 : index
    %kr_c4 = arith.constant 4 : index
    %kr_u:4 = scf.for %kr_r = %kr_r0 to %kr_r2 step %kr_c1
        iter_args(%kr_lo = %kr_big, %kr_hi = %kr_zero, %kr_wlo = %kr_zero, %kr_whi = %kr_big)
        -> (i32, i32, i32, i32) {
      %kr_e = arith.addi %kr_base, %kr_r : index
      %kr_e0 = arith.muli %kr_e, %kr_c4 : index
      %kr_e1 = arith.addi %kr_e0, %kr_c1 : index
      %kr_e2 = arith.addi %kr_e0, %kr_c2 : index
      %kr_e3 = arith.addi %kr_e0, %kr_c3 : index
      %kr_a = memref.load %keytab[%kr_e0] : memref<?xi32>
      %kr_z = memref.load %keytab[%kr_e1] : memref<?xi32>
      %kr_wa = memref.load %keytab[%kr_e2] : memref<?xi32>
      %kr_wz = memref.load %keytab[%kr_e3] : memref<?xi32>
      %kr_lo2 = arith.minsi %kr_lo, %kr_a : i32
      %kr_hi2 = arith.maxsi %kr_hi, %kr_z : i32
      %kr_wlo2 = arith.maxsi %kr_wlo, %kr_wa : i32
      %kr_whi2 = arith.minsi %kr_whi, %kr_wz : i32
      scf.yield %kr_lo2, %kr_hi2, %kr_wlo2, %kr_whi2 : i32, i32, i32, i32
    }
    %kr_u0 = arith.index_cast %kr_u#0 : i32 to index
    %kr_u1 = arith.index_cast %kr_u#1 : i32 to index
    %kr_k0 = arith.muli %kr_u0, %kr_g : index
    %kr_k1 = arith.muli %kr_u1, %kr_g : index
    %kr_f0 = arith.divui %kr_k0, %kr_bn : index
    %kr_f1 = arith.ceildivui %kr_k1, %kr_bn : index
    %kr_t0 = arith.minui %kr_f0, %kr_nt : index
    %kr_f2 = arith.minui %kr_f1, %kr_nt : index
    %kr_t1 = arith.maxui %kr_f2, %kr_t0 : index
    // Keys [%kr_tlo, %kr_thi) the mask may show some of these rows, and
    // [%kr_ulo, %kr_uhi) it must show all of them (attention_scores.mlir:
    // tiles outside the first are hidden whole, tiles inside the second
    // skip the mask, the others are masked per score).
    %kr_w0 = arith.index_cast %kr_u#2 : i32 to index
    %kr_w1 = arith.index_cast %kr_u#3 : i32 to index
    %kr_ulo0 = arith.muli %kr_w0, %kr_g : index
    %kr_uhi0 = arith.muli %kr_w1, %kr_g : index
//#if DOC_RUNS
    // A document's work item (%wo_exact, attention_wgmma_tile.mlir): the
    // mask shows every key it visits.
    %kr_all = arith.constant 4611686018427387904 : index
    %kr_tlo = arith.select %wo_exact, %kr_c0, %kr_k0 : index
    %kr_thi = arith.select %wo_exact, %kr_all, %kr_k1 : index
    %kr_ulo = arith.select %wo_exact, %kr_c0, %kr_ulo0 : index
    %kr_uhi = arith.select %wo_exact, %kr_all, %kr_uhi0 : index
//#else
    %kr_tlo = arith.addi %kr_k0, %kr_c0 : index
    %kr_thi = arith.addi %kr_k1, %kr_c0 : index
    %kr_ulo = arith.addi %kr_ulo0, %kr_c0 : index
    %kr_uhi = arith.addi %kr_uhi0, %kr_c0 : index
//#endif
//#else
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
//#endif
