// The work item %tile (this workgroup's %item-th) of the Hopper kernel, included (//#include) by its
// producer and by its consumers: batch %b, head %h (%hk of K and V), query
// rows [%m0, %m0 + %rows) and keys [%N0, %nend) in %NT key tiles from %N0.
//#vars L2_BUDGET KV_ELT CAUSAL_OFFSET
//#flags PAIRED CAUSAL KVLEN KVLEN_PER_HEAD MASK WORK_ORDER DOC_RUNS
    %kv0 = arith.index_castui %kv032 : i32 to index
//#if PAIRED
    // Under a causal mask items come in groups of %S = 1 or 2 (%Slog32 = 0
    // or 1; the kernel's grid): this is the %mem32-th of group %grp0.
    %grp32 = arith.shrui %item32, %Slog32 : i32
    %mem32 = arith.andi %item32, %Slog32 : i32
    %gstep = arith.muli %grp32, %gx32 : i32
    %grp0 = arith.addi %bid32, %gstep : i32
    %grpS = arith.shli %grp0, %Slog32 : i32
    %tile32 = arith.addi %grpS, %mem32 : i32
//#else
    %istep = arith.muli %item32, %gx32 : i32
    %tile32 = arith.addi %bid32, %istep : i32
//#endif
    %tile = arith.index_castui %tile32 : i32 to index
//#if WORK_ORDER
    // Position %tile32 of the work order (attention_key_table.mlir: each
    // (batch, head)'s items sorted by the key tiles they visit, a long and a
    // short one in turn, so that a group of two visits about as many as any
    // other): after the key-range table's entries, the item count, then a
    // record per position: (batch * Hq + head, first row, first key, end of
    // its keys) where the first key is >= 0 (DOC_RUNS: rows of one
    // document, whose keys are [first key, end) and need no mask), or
    // (.., its query tile's first row, -1, 0): the table's entries say its
    // keys.
    %wo_pos = arith.index_castui %tile32 : i32 to index
    %wo_at = arith.muli %wo_pos, %wo_c4 : index
    %wo_at0 = arith.addi %wo_recs, %wo_at : index
    %wo_at1 = arith.addi %wo_at0, %c1 : index
    %wo_at2 = arith.addi %wo_at1, %c1 : index
    %wo_at3 = arith.addi %wo_at2, %c1 : index
    %wo_bh32 = memref.load %keytab[%wo_at0] : memref<?xi32>
    %wo_q032 = memref.load %keytab[%wo_at1] : memref<?xi32>
    %wo_ks32 = memref.load %keytab[%wo_at2] : memref<?xi32>
    %wo_ke32 = memref.load %keytab[%wo_at3] : memref<?xi32>
    %bh = arith.index_castui %wo_bh32 : i32 to index
//#else
//#if CAUSAL
//#if PAIRED
    // A (batch, head)'s query tiles alternate long and short (the last, the
    // first, the one before the last, ...): a group of two visits about
    // MT + 1 key tiles.
    %zMT = arith.index_castui %MT : index to i32
    %bh32 = arith.divui %tile32, %zMT : i32
    %zj = arith.remui %tile32, %zMT : i32
    %zhalf = arith.shrui %zj, %i1 : i32
    %zpar = arith.andi %zj, %i1 : i32
    %zshort = arith.cmpi ne, %zpar, %z32 : i32
    %zlast = arith.subi %zMT, %i1 : i32
    %zfar = arith.subi %zlast, %zhalf : i32
    %mt32 = arith.select %zshort, %zfar, %zhalf : i32
    %bh = arith.index_castui %bh32 : i32 to index
    %mt = arith.index_castui %mt32 : i32 to index
//#else
    // Under a causal mask later query tiles visit more key tiles: work items
    // are numbered longest first over all (batch, head) pairs, in chunks of
    // pairs whose K and V fit {{L2_BUDGET}} bytes of L2 (as the mma.sync kernel).
    %chunkLen = arith.muli %perChunk, %MT : index
    %chunkIdx = arith.divui %tile, %chunkLen : index
    %inChunk = arith.remui %tile, %chunkLen : index
    %bh0 = arith.muli %chunkIdx, %perChunk : index
    %bhLeft = arith.subi %BH, %bh0 : index
    %cw = arith.minui %perChunk, %bhLeft : index
    %mt = arith.divui %inChunk, %cw : index
    %bhIn = arith.remui %inChunk, %cw : index
    %bh = arith.addi %bh0, %bhIn : index
//#endif
//#else
    // Query tiles of one (batch, head) are neighbours (they share its K, V).
    %mt = arith.remui %tile, %MT : index
    %bh = arith.divui %tile, %MT : index
//#endif
//#endif
    %h = arith.remui %bh, %Hq : index
    %b = arith.divui %bh, %Hq : index
    %hk = arith.divui %h, %G : index
//#if WORK_ORDER
    %m0 = arith.index_castui %wo_q032 : i32 to index
//#else
    // Query tiles in reverse order: under a causal mask the last ones do the
    // most work and start first.
    %mtlast = arith.subi %MT, %c1 : index
    %mtile = arith.subi %mtlast, %mt : index
    %m0 = arith.muli %mtile, %cBM : index
//#endif
    // Rows [%m0, %rend) are the item's (a document's rows end at its end).
//#if DOC_RUNS
    %wo_exact = arith.cmpi sge, %wo_ks32, %z32 : i32
    %wo_ke = arith.index_cast %wo_ke32 : i32 to index
    %wo_ks = arith.index_cast %wo_ks32 : i32 to index
    %wo_kem = arith.minsi %wo_ke, %M : index
    %rend = arith.select %wo_exact, %wo_kem, %M : index
//#else
    %rend = arith.addi %M, %c0 : index
//#endif
    %mleft = arith.subi %rend, %m0 : index
    %rows = arith.minui %mleft, %cBM : index
    // Keys this work item visits: up to %nend, %NT tiles from %N0.
//#if KVLEN
//#if KVLEN_PER_HEAD
    %kvv = memref.load %kvl[%b, %h] : !KVL
//#else
    %kvv = memref.load %kvl[%b] : !KVL
//#endif
    %kvi = arith.index_cast %kvv : {{KV_ELT}} to index
    %kvc = arith.maxsi %kvi, %c0 : index
    %nvalid0 = arith.minsi %N, %kvc : index
//#else
    %nvalid0 = arith.addi %N, %c0 : index
//#endif
//#if DOC_RUNS
    // A document's keys end where it does: later ones count as past kv_len.
    %wo_kvn = arith.minsi %nvalid0, %wo_ke : index
    %nvalid = arith.select %wo_exact, %wo_kvn, %nvalid0 : index
//#else
    %nvalid = arith.addi %nvalid0, %c0 : index
//#endif
//#if CAUSAL
    %coff = arith.constant {{CAUSAL_OFFSET}} : index
    %rlast = arith.addi %m0, %rows : index
    %cend0 = arith.addi %rlast, %coff : index
    %cend = arith.maxsi %cend0, %c0 : index
    %nend = arith.minsi %nvalid, %cend : index
//#else
    %nend = arith.addi %nvalid, %c0 : index
//#endif
    // With the op's mask: its key tiles [%T0, %T0 + %NT) only.
//#if MASK
//#include attention_key_range
    %T0 = arith.addi %kr_t0, %c0 : index
    %NTm = arith.subi %kr_t1, %kr_t0 : index
    %N0m = arith.muli %T0, %cBN : index
//#if DOC_RUNS
    // A document's item: its keys from the document's first on, all shown
    // by the mask (attention_key_range.mlir); keys past the document's end
    // are hidden as past kv_len (%nvalid).
    %wo_kn0 = arith.subi %nend, %wo_ks : index
    %wo_kn = arith.maxsi %wo_kn0, %c0 : index
    %wo_nt = arith.ceildivui %wo_kn, %cBN : index
    %N0 = arith.select %wo_exact, %wo_ks, %N0m : index
    %NT = arith.select %wo_exact, %wo_nt, %NTm : index
//#else
    %N0 = arith.addi %N0m, %c0 : index
    %NT = arith.addi %NTm, %c0 : index
//#endif
//#else
    %NT = arith.ceildivui %nend, %cBN : index
    %N0 = arith.addi %c0, %c0 : index
//#endif
    %NT32 = arith.index_cast %NT : index to i32
