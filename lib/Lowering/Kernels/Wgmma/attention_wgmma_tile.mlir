// The work item %tile (this workgroup's %item-th) of the Hopper kernel, included (//#include) by its
// producer and by its consumers: batch %b, head %h (%hk of K and V), query
// rows [%m0, %m0 + %rows) and keys [0, %nend) in %NT key tiles.
//#vars L2_BUDGET KV_ELT CAUSAL_OFFSET
//#flags PAIRED CAUSAL KVLEN KVLEN_PER_HEAD MASK WORK_ORDER
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
    // The %item32-th position of this workgroup's snake in the work order
    // after the key-range table's entries (attention_key_table.mlir): item
    // bh MT + (query tile), which the reversal below turns back.
    %wo_odd = arith.andi %item32, %i1 : i32
    %wo_isodd = arith.cmpi ne, %wo_odd, %z32 : i32
    %wo_gl = arith.subi %gx32, %i1 : i32
    %wo_mir = arith.subi %wo_gl, %bid32 : i32
    %wo_slot = arith.select %wo_isodd, %wo_mir, %bid32 : i32
    %wo_r = arith.muli %item32, %gx32 : i32
    %wo_pos32 = arith.addi %wo_r, %wo_slot : i32
    %wo_pos = arith.index_castui %wo_pos32 : i32 to index
    %wo_g = arith.constant 64 : index
    %wo_c4 = arith.constant 4 : index
    %wo_R = arith.ceildivui %M, %wo_g : index
    %wo_BH = arith.muli %B, %Hq : index
    %wo_e = arith.muli %wo_BH, %wo_R : index
    %wo_base = arith.muli %wo_e, %wo_c4 : index
    %wo_at = arith.addi %wo_base, %wo_pos : index
    %wo_it32 = memref.load %keytab[%wo_at] : memref<?xi32>
    %wo_it = arith.index_castui %wo_it32 : i32 to index
    %bh = arith.divui %wo_it, %MT : index
    %wo_mt = arith.remui %wo_it, %MT : index
    %wo_last = arith.subi %MT, %c1 : index
    %mt = arith.subi %wo_last, %wo_mt : index
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
    // Query tiles in reverse order: under a causal mask the last ones do the
    // most work and start first.
    %mtlast = arith.subi %MT, %c1 : index
    %mtile = arith.subi %mtlast, %mt : index
    %m0 = arith.muli %mtile, %cBM : index
    %mleft = arith.subi %M, %m0 : index
    %rows = arith.minui %mleft, %cBM : index
    // Keys this work item visits: [0, %nend), %NT tiles.
//#if KVLEN
//#if KVLEN_PER_HEAD
    %kvv = memref.load %kvl[%b, %h] : !KVL
//#else
    %kvv = memref.load %kvl[%b] : !KVL
//#endif
    %kvi = arith.index_cast %kvv : {{KV_ELT}} to index
    %kvc = arith.maxsi %kvi, %c0 : index
    %nvalid = arith.minsi %N, %kvc : index
//#else
    %nvalid = arith.addi %N, %c0 : index
//#endif
//#if CAUSAL
    %coff = arith.constant {{CAUSAL_OFFSET}} : index
    %rend = arith.addi %m0, %rows : index
    %cend0 = arith.addi %rend, %coff : index
    %cend = arith.maxsi %cend0, %c0 : index
    %nend = arith.minsi %nvalid, %cend : index
//#else
    %nend = arith.addi %nvalid, %c0 : index
//#endif
    // With the op's mask: its key tiles [%T0, %T0 + %NT) only.
//#if MASK
//#include attention_key_range
    %T0 = arith.addi %kr_t0, %c0 : index
    %NT = arith.subi %kr_t1, %kr_t0 : index
//#else
    %T0 = arith.addi %c0, %c0 : index
    %NT = arith.ceildivui %nend, %cBN : index
//#endif
    %N0 = arith.muli %T0, %cBN : index
    %NT32 = arith.index_cast %NT : index to i32
