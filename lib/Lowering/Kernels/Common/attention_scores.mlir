// Scores of one key tile in the log2 domain, masked: included (//#include)
// by the attention kernels after S = Q K^T of the tile at key %n0. From the
// fragment %s (layout of the kernel's fragments), it makes %s4: S * scale *
// log2(e) (+ bias * log2(e)) where the scale is applied first, raw S
// otherwise, and -inf where a key is hidden (past kv_len / N, above the
// causal diagonal), or where the op's mask says so (MASK), after the op's
// score_mod (MOD) maps each score in natural units (NATURAL, MOD without a
// bias: the scores are S * scale, and the exponent's scale is log2(e); with
// a bias they are in the log2 domain, converted around score_mod). The
// kernel defines the values it reads
// (%row0i, %col0i, %scols, %nvalid, %b, %h with MASK or MOD, the captures,
// and the bias / causal constants).
//#vars P NS BIAS_ELT S_ROWS MASK_FN MOD_FN CAPS CAP_TYPES RANGE_FN RANGE_CAPS RANGE_CAP_TYPES BM BN
//#vars ROW_RANGE_FN NR R_ROWS S_ROW_STAT
//#flags BIAS BIAS_F32 PRESCALE CAUSAL MASK MOD MOD_TILE FUNCS KEY_TABLE WARP_TILE_TEST ROW_TEST
      // Scores in the log2 domain: S * scale * log2(e) (+ bias * log2(e)).
      %n0i = arith.index_cast %n0 : index to i32
      %colbase = arith.addi %n0i, %col0i : i32
//#if BIAS
      %s2 = arith.mulf %s, %qkv : !{{P}}sfrag
      %s3 = affine.for %i = 0 to {{NS}} iter_args(%sv = %s2) -> (!{{P}}sfrag) {
        %rofs = vector.extract %srows[%i] : i32 from !{{P}}sidx
        %cofs = vector.extract %scols[%i] : i32 from !{{P}}sidx
        %ri = arith.addi %row0i, %rofs : i32
        %ci = arith.addi %colbase, %cofs : i32
        %ric = arith.minsi %ri, %Mi : i32
        %cic = arith.minsi %ci, %Ni : i32
        %rix = arith.index_cast %ric : i32 to index
        %cix = arith.index_cast %cic : i32 to index
        %rin = arith.cmpi slt, %ric, %Mi : i32
        %cin = arith.cmpi slt, %cic, %Ni : i32
        %inb = arith.andi %rin, %cin : i1
        %x = vector.extract %sv[%i] : f32 from !{{P}}sfrag
        %y = scf.if %inb -> f32 {
          %bi2 = arith.select %bone2, %c0, %rix : index
          %bi3 = arith.select %bone3, %c0, %cix : index
          %bv = memref.load %bias[%bi0, %bi1, %bi2, %bi3] : !BIAS
//#if BIAS_F32
          %bf = arith.addf %bv, %zf : f32
//#else
          %bf = arith.extf %bv : {{BIAS_ELT}} to f32
//#endif
          // bias * log2(e), kept finite where the bias is: a finite "lowest"
          // fill must not overflow to -inf (such a row is not masked).
          %bl0 = arith.mulf %bf, %log2e : f32
          %bl1 = arith.maximumf %bl0, %lowest : f32
          %binf = arith.cmpf oeq, %bf, %ninf : f32
          %bl = arith.select %binf, %ninf, %bl1 : f32
          %xb = arith.addf %x, %bl : f32
          scf.yield %xb : f32
        } else {
          scf.yield %x : f32
        }
        %sn = vector.insert %y, %sv[%i] : f32 into !{{P}}sfrag
        affine.yield %sn : !{{P}}sfrag
      }
//#else
//#if PRESCALE
      // (The product may contract with a score_mod's sum into an FMA.)
      %s3 = arith.mulf %s, %qkv fastmath<contract> : !{{P}}sfrag
//#else
      // Raw scores: scale * log2(e) is applied inside the exponent below.
      %s3 = arith.addf %s, %negzs : !{{P}}sfrag
//#endif
//#endif

//#if FUNCS
      // The op's score_mod, then its mask, on each score at its (query, key).
      %frows = arith.constant dense<[{{S_ROWS}}]> : !{{P}}sidx
      %fnegz = arith.constant dense<-0.0> : !{{P}}sfrag
//#if MOD
      // score_mod on the fragment (attention_score_mod.mlir), on tiles it
      // maps uniformly (MOD_TILE: every integer it derives from the query
      // and key is one value over rows [%mt_m0, %mt_m0 + BM) and keys [%n0,
      // %n0 + BN)) through its copy that computes those once per thread.
      // (WARP_TILE_TEST: over the 16 rows of this thread's warp, from its
      // first row rounded down; tiles near a relative-position table's
      // diagonal are uniform for more warps than for the whole item.)
      %frow0x = arith.index_cast %row0i : i32 to index
      %fcol0x = arith.index_cast %colbase : i32 to index
//#if MOD_TILE
      %mt_bn = arith.constant {{BN}} : index
      %mt_c1 = arith.constant 1 : index
//#if WARP_TILE_TEST
      %mt_bm = arith.constant 16 : index
      %mt_mask = arith.constant -16 : i32
      %mt_w0 = arith.andi %row0i, %mt_mask : i32
      %mt_m0 = arith.index_cast %mt_w0 : i32 to index
//#else
      %mt_bm = arith.constant {{BM}} : index
      %mt_m0 = arith.addi %m0, %c0 : index
//#endif
      %mt_ie = arith.addi %mt_m0, %mt_bm : index
      %mt_ihi = arith.subi %mt_ie, %mt_c1 : index
      %mt_je = arith.addi %n0, %mt_bn : index
      %mt_jhi = arith.subi %mt_je, %mt_c1 : index
      %mt_uni = func.call @{{MOD_FN}}_tile_range(%b, %h, %mt_m0, %mt_ihi, %n0, %mt_jhi{{CAPS}})
          : (index, index, index, index, index, index{{CAP_TYPES}}) -> i1
      %s3m = scf.if %mt_uni -> (!{{P}}sfrag) {
        %s3u = func.call @{{P}}mod_tile(%s3, %b, %h, %frow0x, %fcol0x{{CAPS}})
            : (!{{P}}sfrag, index, index, index, index{{CAP_TYPES}}) -> !{{P}}sfrag
        scf.yield %s3u : !{{P}}sfrag
      } else {
        %s3g = func.call @{{P}}mod(%s3, %b, %h, %frow0x, %fcol0x{{CAPS}})
            : (!{{P}}sfrag, index, index, index, index{{CAP_TYPES}}) -> !{{P}}sfrag
        scf.yield %s3g : !{{P}}sfrag
      }
//#else
      %s3m = func.call @{{P}}mod(%s3, %b, %h, %frow0x, %fcol0x{{CAPS}})
          : (!{{P}}sfrag, index, index, index, index{{CAP_TYPES}}) -> !{{P}}sfrag
//#endif
//#else
      %s3m = arith.addf %s3, %fnegz : !{{P}}sfrag
//#endif
//#if MASK
      // Only where the mask may hide some pair of the tile (rows
      // [%m0, %m0 + BM), keys [%n0, %n0 + BN): MaskRange.c).
      %tm_bn = arith.constant {{BN}} : index
      %tm_je = arith.addi %n0, %tm_bn : index
//#if KEY_TABLE
      // The key-range table's keys (attention_key_range.mlir): the tile is
      // inside the keys the mask must show all these rows, or outside those
      // it may show any of them, or masked per score (no test of the tile
      // itself: outside the run the table found, a tile the mask must show
      // whole is rare, and the test's dependent summary reads cost more than
      // the per-score mask; 2026-11-28, packed documents 0.85 -> 0.74 ms).
      %tm_in0 = arith.cmpi uge, %n0, %kr_ulo : index
      %tm_in1 = arith.cmpi ule, %tm_je, %kr_uhi : index
      %tm_must = arith.andi %tm_in0, %tm_in1 : i1
      %tm_out0 = arith.cmpi ule, %tm_je, %kr_tlo : index
      %tm_out1 = arith.cmpi uge, %n0, %kr_thi : index
      %tm_none = arith.ori %tm_out0, %tm_out1 : i1
//#else
      // (Between the first and the last tile the search found, a tile the
      // mask hides whole is rare: no shortcut for it.)
      %tm_bm = arith.constant {{BM}} : index
      %tm_c1 = arith.constant 1 : index
      %tm_ie = arith.addi %m0, %tm_bm : index
      %tm_ihi = arith.subi %tm_ie, %tm_c1 : index
      %tm_jhi = arith.subi %tm_je, %tm_c1 : index
      %tm_may, %tm_must = func.call @{{RANGE_FN}}(%b, %h, %m0, %tm_ihi, %n0, %tm_jhi{{RANGE_CAPS}})
          : (index, index, index, index, index, index{{RANGE_CAP_TYPES}}) -> (i1, i1)
      %tm_none = arith.constant false
//#endif
      // A tile the mask hides whole needs no per-score test either: it is
      // hidden below as keys past kv_len are (%fhide).
      %tm_skip = arith.ori %tm_must, %tm_none : i1
      %fhide = arith.ori %tm_none, %tm_none : i1
      %s3f = scf.if %tm_skip -> (!{{P}}sfrag) {
        scf.yield %s3m : !{{P}}sfrag
      } else {
//#if ROW_TEST
        // Row by row (the Hopper kernel with the key-range table; the
        // mma.sync kernels spill with it): the mask's interval extension at each of this
        // thread's rows (one query: the captures read there exactly) over
        // the tile's keys. Rows it must show whole or hides whole need no
        // per-score test; only tiles where some row's keys change (a
        // document's start inside the tile) are masked per score.
        %rt_c1 = arith.constant 1 : index
        %rt_jhi = arith.subi %tm_je, %rt_c1 : index
        %rt_rows = arith.constant dense<[{{R_ROWS}}]> : vector<{{NR}}xi32>
        %rt_none = arith.constant dense<false> : vector<{{NR}}xi1>
        %rt_true = arith.constant true
        %rt:2 = affine.for %ri = 0 to {{NR}} iter_args(%rt_ok = %rt_true, %rt_sv = %rt_none)
            -> (i1, vector<{{NR}}xi1>) {
          %rt_ro = vector.extract %rt_rows[%ri] : i32 from vector<{{NR}}xi32>
          %rt_r = arith.addi %row0i, %rt_ro : i32
          %rt_rx = arith.index_cast %rt_r : i32 to index
          %rt_may, %rt_must = func.call @{{ROW_RANGE_FN}}(%b, %h, %rt_rx, %rt_rx, %n0, %rt_jhi{{RANGE_CAPS}})
              : (index, index, index, index, index, index{{RANGE_CAP_TYPES}}) -> (i1, i1)
          %rt_hidden = arith.xori %rt_may, %rt_true : i1
          %rt_known = arith.ori %rt_must, %rt_hidden : i1
          %rt_ok2 = arith.andi %rt_ok, %rt_known : i1
          %rt_sv2 = vector.insert %rt_must, %rt_sv[%ri] : i1 into vector<{{NR}}xi1>
          affine.yield %rt_ok2, %rt_sv2 : i1, vector<{{NR}}xi1>
        }
        %s3r = scf.if %rt#0 -> (!{{P}}sfrag) {
          %rt_show = vector.shuffle %rt#1, %rt#1 [{{S_ROW_STAT}}] : vector<{{NR}}xi1>, vector<{{NR}}xi1>
          %rt_s = arith.select %rt_show, %s3m, %ninfs : vector<{{NS}}xi1>, !{{P}}sfrag
          scf.yield %rt_s : !{{P}}sfrag
        } else {
//#endif
        %s3k = affine.for %fi = 0 to {{NS}} iter_args(%fv = %s3m) -> (!{{P}}sfrag) {
          %frofs = vector.extract %frows[%fi] : i32 from !{{P}}sidx
          %fcofs = vector.extract %scols[%fi] : i32 from !{{P}}sidx
          %fri = arith.addi %row0i, %frofs : i32
          %fci = arith.addi %colbase, %fcofs : i32
          %frix = arith.index_cast %fri : i32 to index
          %fcix = arith.index_cast %fci : i32 to index
          %fx = vector.extract %fv[%fi] : f32 from !{{P}}sfrag
          %fvis = func.call @{{MASK_FN}}(%b, %h, %frix, %fcix{{CAPS}}) : (index, index, index, index{{CAP_TYPES}}) -> i1
          %fy = arith.select %fvis, %fx, %ninf : f32
          %fn = vector.insert %fy, %fv[%fi] : f32 into !{{P}}sfrag
          affine.yield %fn : !{{P}}sfrag
        }
//#if ROW_TEST
        scf.yield %s3k : !{{P}}sfrag
        }
        scf.yield %s3r : !{{P}}sfrag
//#else
        scf.yield %s3k : !{{P}}sfrag
//#endif
      }
//#else
      %s3f = arith.addf %s3m, %fnegz : !{{P}}sfrag
      %fhide = arith.constant false
//#endif
//#endif

      // Masks only where some key of the tile is hidden: past N / kv_len, or
      // above the causal diagonal of the tile's first row.
      %tend = arith.addi %n0, %cBN : index
      %past0 = arith.cmpi sgt, %tend, %nvalid : index
//#if FUNCS
      // (A tile the op's mask hides whole is masked as one past kv_len.)
      %past = arith.ori %past0, %fhide : i1
//#else
      %past = arith.ori %past0, %past0 : i1
//#endif
//#if CAUSAL
      %above = arith.cmpi sgt, %tend, %diag : index
      %needmask = arith.ori %past, %above : i1
//#else
      %needmask = arith.ori %past, %past : i1
//#endif
      %s4 = scf.if %needmask -> (!{{P}}sfrag) {
        %nvi = arith.index_cast %nvalid : index to i32
        %kvlim0 = arith.subi %nvi, %colbase : i32
//#if FUNCS
        %kvnone = arith.constant 0 : i32
        %kvlim = arith.select %fhide, %kvnone, %kvlim0 : i32
//#else
        %kvlim = arith.ori %kvlim0, %kvlim0 : i32
//#endif
        %kvlimv = vector.broadcast %kvlim : i32 to !{{P}}sidx
        %inkv = arith.cmpi slt, %scols, %kvlimv : !{{P}}sidx
//#if CAUSAL
        %dlim0 = arith.addi %row0i, %coffi : i32
        %dlim = arith.subi %dlim0, %colbase : i32
        %dlimv = vector.broadcast %dlim : i32 to !{{P}}sidx
        %vis = arith.cmpi sle, %sdiag, %dlimv : !{{P}}sidx
        %ok = arith.andi %inkv, %vis : vector<{{NS}}xi1>
//#else
        %ok = arith.andi %inkv, %inkv : vector<{{NS}}xi1>
//#endif
//#if FUNCS
        %sm = arith.select %ok, %s3f, %ninfs : vector<{{NS}}xi1>, !{{P}}sfrag
        scf.yield %sm : !{{P}}sfrag
      } else {
        scf.yield %s3f : !{{P}}sfrag
      }
//#else
        %sm = arith.select %ok, %s3, %ninfs : vector<{{NS}}xi1>, !{{P}}sfrag
        scf.yield %sm : !{{P}}sfrag
      } else {
        scf.yield %s3 : !{{P}}sfrag
      }
//#endif
