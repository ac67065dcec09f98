// The FlashAttention-2 forward kernel on NVIDIA tensor cores (sm_80 and up),
// as fa-lower-attention{target=nvvm} specialises it for one
// fa.gridwise_attention with f16/bf16 Q, K, V (docs/lowering.md draws the
// layouts). {{NAME}} is the kernel, {{E}} the element type, tiles are
// {{BM}} query rows x {{BN}} keys, D = {{D}}, Dv = {{DV}}.
//
// A workgroup of {{THREADS}} threads (warps of 32) owns {{BM}} query rows of one
// (batch, head); warp w owns rows [w*{{WARP_ROWS}}, (w+1)*{{WARP_ROWS}}) of the
// tile, so every row's max and sum stay inside one warp. Scores S, the
// probabilities P and the output O live in registers as fragments of the
// mma.sync m16n8k16 accumulator layout ("mma_m16n8k16", see the blockwise
// ops): !{{P}}sfrag holds a thread's part of the [BM x BN] scores, !{{P}}ofrag its part
// of the [BM x Dv] output, !{{P}}rows the running max / sum of its rows.
//
// Shared memory (dynamic, {{SMEM_BYTES}} bytes): the Q tile, then K and V
// tiles in {{STAGES}} stage(s); rows are padded by 16 bytes so that ldmatrix is
// free of bank conflicts. Tiles are copied with 16-byte cp.async by
// @{{NAME}}_copy_q, _k and _v (Kernels/Common/tile_copy.mlir). With two stages, K and V
// of tile t+1 are in flight while tile t is used, behind one barrier per
// tile; with one stage (FlashAttention-2's order), V(t) lands while
// S = Q K(t)^T runs and K(t+1) while the softmax and P V(t) run, behind two
// barriers per tile. At the end the same memory stages O for 16-byte stores.
//#vars NAME E BM BN D DV THREADS WARP_ROWS P SMEM_BYTES STAGES DP DVP BNC NS NSC NO NR COUNTERS
//#vars ARGS SPLIT_WGS SPLIT_MIN_TILES SPLIT_MAX L2_BUDGET KV_ROW_BYTES OFF_K OFF_V KV_ELT
//#vars CAUSAL_OFFSET S_COLS S_COLS_MINUS_ROWS S_ROWS SCORE_SCALE EXP_SCALE GEMM_SWIZZLE PV_CHUNKS
//#vars S_CHUNK0 S_CHUNK1 R_ROWS O_ROWS O_COLS NO_PAIRS MERGE_ARGS MERGE_TYPES OE PAIR_ALIGN
//#vars OUT_CHUNKS OUT_VEC OUT_N OUT_ITERS MERGE_SPLITS MERGE_LSE_ARG MERGE_CHUNKS
//#vars SUMMARY_BEGIN SUMMARY_END
//#flags SPLIT CAUSAL KVLEN KVLEN_PER_HEAD BIAS ONE_STAGE PV_SPLIT OUT_F32 LSE MASK

#{{P}}ws = #gpu.address_space<workgroup>
!{{P}}tq = memref<{{BM}}x{{D}}x{{E}}, strided<[{{DP}}, 1]>, #{{P}}ws>
!{{P}}tk = memref<{{BN}}x{{D}}x{{E}}, strided<[{{DP}}, 1], offset: ?>, #{{P}}ws>
!{{P}}tv = memref<{{BN}}x{{DV}}x{{E}}, strided<[{{DVP}}, 1], offset: ?>, #{{P}}ws>
!{{P}}tvc = memref<{{BNC}}x{{DV}}x{{E}}, strided<[{{DVP}}, 1], offset: ?>, #{{P}}ws>
!{{P}}sfrag = vector<{{NS}}xf32>
!{{P}}schunk = vector<{{NSC}}xf32>
!{{P}}pchunk = vector<{{NSC}}x{{E}}>
!{{P}}ofrag = vector<{{NO}}xf32>
!{{P}}rows = vector<{{NR}}xf32>
!{{P}}sidx = vector<{{NS}}xi32>
!{{P}}oidx = vector<{{NO}}xi32>

memref.global "public" @{{NAME}}_smem : memref<0xi8, #{{P}}ws> {alignment = 128 : i64}
//#if SPLIT
// The decode kernel's split counters, one per (batch, head, query tile): zero
// when the module loads, and left zero by every launch (the split that counts
// last resets its tile's). Launches of one module run one after another (the
// runtime's single stream).
memref.global "public" @{{NAME}}_counters : memref<{{COUNTERS}}xi32, #gpu.address_space<global>> = dense<0>
//#endif

func.func private @{{NAME}}({{ARGS}}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %B = memref.dim %q, %c0 : !Q
  %Hq = memref.dim %q, %c1 : !Q
  %M = memref.dim %q, %c2 : !Q
  %Hkv = memref.dim %v, %c1 : !V
  %N = memref.dim %v, %c2 : !V
  %G = arith.divui %Hq, %Hkv : index
  %cBM = arith.constant {{BM}} : index
  %MT = arith.ceildivui %M, %cBM : index
  %nth = arith.constant {{THREADS}} : index
  %smem = arith.constant {{SMEM_BYTES}} : i32
{{SUMMARY_BEGIN}}
//#if SPLIT
  // Split over keys (flash-decoding) where the (batch, head, query tile)
  // workgroups are too few to fill the chip (decode, M = 1): each of %S
  // splits scans %TPS key tiles and writes its O / l and lse (f32) to a
  // workspace; @{{NAME}}_merge merges them. With at most 4 rows (M <= 4:
  // decode, packed heads) each split counts itself done on its tile's
  // counter in @{{NAME}}_counters and the last one merges (and zeroes the
  // counter for the next launch); with more rows @{{NAME}}_combine does, a
  // workgroup per 4 rows. %S = 1 otherwise: one pass, no workspace (an empty
  // one is allocated and freed).
  %BHM0 = arith.muli %B, %Hq : index
  %BHM = arith.muli %BHM0, %MT : index
  %BHM1 = arith.maxui %BHM, %c1 : index
  %wgs = arith.constant {{SPLIT_WGS}} : index
  %sFill = arith.divui %wgs, %BHM1 : index
  %cBNh = arith.constant {{BN}} : index
  %NTall = arith.ceildivui %N, %cBNh : index
  %minTiles = arith.constant {{SPLIT_MIN_TILES}} : index
  %sKeys = arith.ceildivui %NTall, %minTiles : index
  %maxS = arith.constant {{SPLIT_MAX}} : index
  %sp0 = arith.minui %sFill, %sKeys : index
  %sp1 = arith.minui %sp0, %maxS : index
  %sp2 = arith.maxui %sp1, %c1 : index
  %TPS0 = arith.ceildivui %NTall, %sp2 : index
  %TPS = arith.maxui %TPS0, %c1 : index
  %S0 = arith.ceildivui %NTall, %TPS : index
  %S = arith.maxui %S0, %c1 : index
  %split = arith.cmpi ugt, %S, %c1 : index
  %BS = arith.muli %B, %S : index
  %wsS = arith.select %split, %S, %c0 : index
  %wsRows0 = arith.muli %wsS, %BHM0 : index
  // Rows padded to whole query tiles (%Mp): each split stores its tile's
  // rows without a bound check.
  %Mp = arith.muli %MT, %cBM : index
  %wsRows = arith.muli %wsRows0, %Mp : index
  %cDVh = arith.constant {{DV}} : index
  %wsOElts = arith.muli %wsRows, %cDVh : index
  %wsElts = arith.addi %wsOElts, %wsRows : index
  // The last split merges where a query tile has at most 4 rows (one row
  // block of @{{NAME}}_merge). Keys split only where %sFill >= 2, so %BHM
  // <= {{SPLIT_WGS}} / 2 = {{COUNTERS}}: the counters always suffice.
  %c4m = arith.constant 4 : index
  %fewRows = arith.cmpi ule, %M, %c4m : index
  %lastMerges = arith.andi %split, %fewRows : i1
  %combine = arith.xori %split, %lastMerges : i1
  %c4h = arith.constant 4 : index
  %wsBytes = arith.muli %wsElts, %c4h : index
  %wsLOff = arith.muli %wsOElts, %c4h : index
  %tw0 = gpu.wait async
  %ws, %tw1 = gpu.alloc async [%tw0] (%wsBytes) : memref<?xi8>
  %wso = memref.view %ws[%c0][%wsS, %B, %Hq, %Mp] : memref<?xi8> to memref<?x?x?x?x{{DV}}xf32>
  %wsl = memref.view %ws[%wsLOff][%wsS, %B, %Hq, %Mp] : memref<?xi8> to memref<?x?x?x?xf32>
  gpu.wait [%tw1]
//#else
  // One pass over the keys: the shapes give the chip enough workgroups.
  %S = arith.addi %c1, %c0 : index
  %TPS = arith.constant 1073741824 : index
  %BS = arith.addi %B, %c0 : index
//#endif
  // The body is in an scf.execute_region: the inliner does not inline into
  // gpu.launch.
//#if CAUSAL
  // Under a causal mask query tile i visits i + 1 key tiles: workgroups are
  // numbered longest first over all (batch, head) pairs, so that the last
  // ones to start are the shortest and every SM ends at about the same time.
  // Pairs go in chunks whose K and V fit {{L2_BUDGET}} bytes of L2, so that
  // the workgroups in flight share their keys.
  %BH = arith.muli %BS, %Hq : index
  %nblk = arith.muli %BH, %MT : index
  %kvrow = arith.constant {{KV_ROW_BYTES}} : index
  %kvhead = arith.muli %N, %kvrow : index
  %kvhead1 = arith.maxui %kvhead, %c1 : index
  %l2 = arith.constant {{L2_BUDGET}} : index
  %perChunk0 = arith.divui %l2, %kvhead1 : index
  %perChunk = arith.maxui %perChunk0, %c1 : index
  gpu.launch blocks(%lin, %u1, %u2) in (%gx = %nblk, %gy = %c1, %gz = %c1)
             threads(%tid, %ty, %tz) in (%sx = %nth, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %smem {
  scf.execute_region {
    // Workgroup %lin: chunk %chunkIdx of %perChunk pairs, %cw of them in this chunk
    // (fewer in the last); within it tile %mt (0 = the last query tile,
    // the longest) of pair %bh.
    %chunkLen = arith.muli %perChunk, %MT : index
    %chunkIdx = arith.divui %lin, %chunkLen : index
    %inChunk = arith.remui %lin, %chunkLen : index
    %bh0 = arith.muli %chunkIdx, %perChunk : index
    %bhLeft = arith.subi %BH, %bh0 : index
    %cw = arith.minui %perChunk, %bhLeft : index
    %mt = arith.divui %inChunk, %cw : index
    %bhIn = arith.remui %inChunk, %cw : index
    %bh = arith.addi %bh0, %bhIn : index
    %h = arith.remui %bh, %Hq : index
    %bs = arith.divui %bh, %Hq : index
//#else
  gpu.launch blocks(%mt, %h, %bs) in (%gx = %MT, %gy = %Hq, %gz = %BS)
             threads(%tid, %ty, %tz) in (%sx = %nth, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %smem {
  scf.execute_region {
//#endif
    // Batch %b, split %sp of the keys.
    %b = arith.divui %bs, %S : index
    %sp = arith.remui %bs, %S : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %cBN = arith.constant {{BN}} : index
    %cWR = arith.constant {{WARP_ROWS}} : index
    %zf = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %lane = arith.remui %tid, %c32 : index
    %warp = arith.divui %tid, %c32 : index
    %group = arith.divui %lane, %c4 : index
    %quad = arith.remui %lane, %c4 : index
    %hk = arith.divui %h, %G : index
    // Query tiles in reverse order: under a causal mask the last ones do the
    // most work and start first.
    %mtlast = arith.subi %MT, %c1 : index
    %mtile = arith.subi %mtlast, %mt : index
    %m0 = arith.muli %mtile, %cBM : index
    %mleft = arith.subi %M, %m0 : index
    %rows = arith.minui %mleft, %cBM : index

    // Shared memory: Q | K stages | V stages.
    %raw0 = memref.get_global @{{NAME}}_smem : memref<0xi8, #{{P}}ws>
    %raw = memref.reinterpret_cast %raw0 to offset: [0], sizes: [{{SMEM_BYTES}}], strides: [1]
        : memref<0xi8, #{{P}}ws> to memref<{{SMEM_BYTES}}xi8, #{{P}}ws>
    %offK = arith.constant {{OFF_K}} : index
    %offV = arith.constant {{OFF_V}} : index
    %qbuf = memref.view %raw[%c0][] : memref<{{SMEM_BYTES}}xi8, #{{P}}ws> to memref<{{BM}}x{{DP}}x{{E}}, #{{P}}ws>
    %kbuf = memref.view %raw[%offK][] : memref<{{SMEM_BYTES}}xi8, #{{P}}ws> to memref<{{STAGES}}x{{BN}}x{{DP}}x{{E}}, #{{P}}ws>
    %vbuf = memref.view %raw[%offV][] : memref<{{SMEM_BYTES}}xi8, #{{P}}ws> to memref<{{STAGES}}x{{BN}}x{{DVP}}x{{E}}, #{{P}}ws>
    %qs = memref.subview %qbuf[0, 0] [{{BM}}, {{D}}] [1, 1] : memref<{{BM}}x{{DP}}x{{E}}, #{{P}}ws> to !{{P}}tq

    // Keys this workgroup visits: [0, %nend). Past kv_len and past the causal
    // diagonal of its last row nothing is visible.
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
//#if MASK
//#include attention_key_range
    %tlo = arith.addi %kr_t0, %c0 : index
    %NTw = arith.addi %kr_t1, %c0 : index
//#else
    %tlo = arith.addi %c0, %c0 : index
    %NTw = arith.ceildivui %nend, %cBN : index
//#endif
    // This split's key tiles: [%t0, %NT), from the first the mask may show.
    %t0s = arith.muli %sp, %TPS : index
    %t0u = arith.addi %tlo, %t0s : index
    %t0 = arith.minui %t0u, %NTw : index
    %tEnd = arith.addi %t0, %TPS : index
    %NT = arith.minui %tEnd, %NTw : index
    %nk0 = arith.muli %t0, %cBN : index

    // Where this thread's scores sit: row %row0 + S_ROWS[i], column
    // n0 + %col0 + S_COLS[i] for fragment entry i. Masks compare the constant
    // offsets with scalars, so no per-entry index lives in registers.
    %wrow = arith.muli %warp, %cWR : index
    %row0a = arith.addi %m0, %wrow : index
    %row0 = arith.addi %row0a, %group : index
    %col0 = arith.muli %quad, %c2 : index
    %row0i = arith.index_cast %row0 : index to i32
    %col0i = arith.index_cast %col0 : index to i32
    %scols = arith.constant dense<[{{S_COLS}}]> : !{{P}}sidx
//#if CAUSAL
    // col <= row + offset  <=>  S_COLS[i] - S_ROWS[i] <= row0 + offset - n0 - col0
    %sdiag = arith.constant dense<[{{S_COLS_MINUS_ROWS}}]> : !{{P}}sidx
    %coffi = arith.constant {{CAUSAL_OFFSET}} : i32
    %diag0 = arith.addi %m0, %coff : index
    %diag = arith.addi %diag0, %c1 : index
//#endif
//#if BIAS
    %srows = arith.constant dense<[{{S_ROWS}}]> : !{{P}}sidx
    %Mi = arith.index_cast %M : index to i32
    %Ni = arith.index_cast %N : index to i32
    %bd0 = memref.dim %bias, %c0 : !BIAS
    %bd1 = memref.dim %bias, %c1 : !BIAS
    %bd2 = memref.dim %bias, %c2 : !BIAS
    %c3 = arith.constant 3 : index
    %bd3 = memref.dim %bias, %c3 : !BIAS
    %bone0 = arith.cmpi eq, %bd0, %c1 : index
    %bone1 = arith.cmpi eq, %bd1, %c1 : index
    %bone2 = arith.cmpi eq, %bd2, %c1 : index
    %bone3 = arith.cmpi eq, %bd3, %c1 : index
    %bi0 = arith.select %bone0, %c0, %b : index
    %bi1 = arith.select %bone1, %c0, %h : index
    %log2e = arith.constant 1.4426950408889634 : f32
    %lowest = arith.constant -3.40282347E+38 : f32
//#endif

    // Q once, K and V of the first tile (with one stage, K only): one group.
    func.call @{{NAME}}_copy_q(%q, %b, %h, %m0, %M, %qs) : (!Q, index, index, index, index, !{{P}}tq) -> ()
    %k0 = memref.subview %kbuf[%c0, 0, 0] [1, {{BN}}, {{D}}] [1, 1, 1] : memref<{{STAGES}}x{{BN}}x{{DP}}x{{E}}, #{{P}}ws> to !{{P}}tk
    func.call @{{NAME}}_copy_k(%k, %b, %hk, %nk0, %nend, %k0) : (!K, index, index, index, index, !{{P}}tk) -> ()
    %v0 = memref.subview %vbuf[%c0, 0, 0] [1, {{BN}}, {{DV}}] [1, 1, 1] : memref<{{STAGES}}x{{BN}}x{{DVP}}x{{E}}, #{{P}}ws> to !{{P}}tv
//#if !ONE_STAGE
    func.call @{{NAME}}_copy_v(%v, %b, %hk, %nk0, %nend, %v0) : (!V, index, index, index, index, !{{P}}tv) -> ()
//#endif
    %gq = "nvgpu.device_async_create_group"() : () -> !nvgpu.device.async.token

    %upoison = ub.poison : !{{P}}ofrag
    %rpoison = ub.poison : !{{P}}rows
    %spoison = ub.poison : !{{P}}sfrag
    %o_init = "fa.blockwise_fill"(%upoison, %zf) {layout = "mma_m16n8k16"} : (!{{P}}ofrag, f32) -> !{{P}}ofrag
    %m_init = "fa.blockwise_fill"(%rpoison, %ninf) {layout = "mma_m16n8k16"} : (!{{P}}rows, f32) -> !{{P}}rows
    %l_init = "fa.blockwise_fill"(%rpoison, %zf) {layout = "mma_m16n8k16"} : (!{{P}}rows, f32) -> !{{P}}rows
    %s_zero = "fa.blockwise_fill"(%spoison, %zf) {layout = "mma_m16n8k16"} : (!{{P}}sfrag, f32) -> !{{P}}sfrag
    %qk = arith.constant {{SCORE_SCALE}} : f32
    %qkv = vector.broadcast %qk : f32 to !{{P}}sfrag
    %ninfs = vector.broadcast %ninf : f32 to !{{P}}sfrag
    %zrows = vector.broadcast %zf : f32 to !{{P}}rows
    %ninfr = vector.broadcast %ninf : f32 to !{{P}}rows
    %negzs = arith.constant dense<-0.0> : !{{P}}sfrag
    // The exponent's scale: scale * log2(e), or 1 where the scores were
    // scaled before the bias was added (or the scale is not positive).
    %es = arith.constant {{EXP_SCALE}} : f32
    %ess = vector.broadcast %es : f32 to !{{P}}sfrag
    %esr = vector.broadcast %es : f32 to !{{P}}rows

    %fin:3 = scf.for %t = %t0 to %NT step %c1
        iter_args(%acc = %o_init, %mrow = %m_init, %lrow = %l_init) -> (!{{P}}ofrag, !{{P}}rows, !{{P}}rows) {
      %n0 = arith.muli %t, %cBN : index
      %t1 = arith.addi %t, %c1 : index
      %more = arith.cmpi ult, %t1, %NT : index
      %n1 = arith.addi %n0, %cBN : index
//#if ONE_STAGE
      %st = arith.addi %c0, %c0 : index

      // Once K(t) has landed and every warp is past P V(t-1), V(t) is
      // copied: it lands while S = Q K^T runs. (Copying V(0) before the
      // loop measured slower: at D = 64 the kernel no longer fit 168
      // registers, three workgroups per SM.)
      nvgpu.device_async_wait %gq {numGroups = 0 : i32}
      gpu.barrier
      func.call @{{NAME}}_copy_v(%v, %b, %hk, %n0, %nend, %v0) : (!V, index, index, index, index, !{{P}}tv) -> ()
      %gv = "nvgpu.device_async_create_group"() : () -> !nvgpu.device.async.token
//#else
      %tr = arith.subi %t, %t0 : index
      %st = arith.remui %tr, %c2 : index
      %st1 = arith.subi %c1, %st : index

      // Once K(t) and V(t) have landed and every warp is past tile t - 1,
      // K(t+1) and V(t+1) are copied into the other stage: one barrier per
      // tile, and the copies have a whole tile of work to hide behind.
      nvgpu.device_async_wait %gq {numGroups = 0 : i32}
      gpu.barrier
      scf.if %more {
        %kn = memref.subview %kbuf[%st1, 0, 0] [1, {{BN}}, {{D}}] [1, 1, 1] : memref<{{STAGES}}x{{BN}}x{{DP}}x{{E}}, #{{P}}ws> to !{{P}}tk
        func.call @{{NAME}}_copy_k(%k, %b, %hk, %n1, %nend, %kn) : (!K, index, index, index, index, !{{P}}tk) -> ()
        %vn = memref.subview %vbuf[%st1, 0, 0] [1, {{BN}}, {{DV}}] [1, 1, 1] : memref<{{STAGES}}x{{BN}}x{{DVP}}x{{E}}, #{{P}}ws> to !{{P}}tv
        func.call @{{NAME}}_copy_v(%v, %b, %hk, %n1, %nend, %vn) : (!V, index, index, index, index, !{{P}}tv) -> ()
      }
      %gn = "nvgpu.device_async_create_group"() : () -> !nvgpu.device.async.token
//#endif

      %ks = memref.subview %kbuf[%st, 0, 0] [1, {{BN}}, {{D}}] [1, 1, 1] : memref<{{STAGES}}x{{BN}}x{{DP}}x{{E}}, #{{P}}ws> to !{{P}}tk
      %s = "fa.blockwise_gemm"(%qs, %ks, %s_zero) {transpose_b, layout = "mma_m16n8k16"{{GEMM_SWIZZLE}}}
          : (!{{P}}tq, !{{P}}tk, !{{P}}sfrag) -> !{{P}}sfrag

//#include attention_scores
//#if ONE_STAGE

      // Once V(t) has landed and every warp is past S = Q K(t)^T, K(t+1) is
      // copied: it lands while the softmax and P V run.
      nvgpu.device_async_wait %gq {numGroups = 0 : i32}
      gpu.barrier
      scf.if %more {
        func.call @{{NAME}}_copy_k(%k, %b, %hk, %n1, %nend, %k0) : (!K, index, index, index, index, !{{P}}tk) -> ()
      }
      %gk = "nvgpu.device_async_create_group"() : () -> !nvgpu.device.async.token
//#endif

//#include attention_online_softmax
//#include attention_rescale
      // P = exp2 and O += P V in {{PV_CHUNKS}} chunk(s) of {{BNC}} keys: the second
      // chunk's exp2 (MUFU) issues while the first chunk's mma runs. Each
      // thread sums only its own columns of l (`partial`): the quad's four
      // partials are added once, after the loop.
      %la = arith.mulf %lrow, %alpha : !{{P}}rows
      %e0 = vector.shuffle %earg, %earg [{{S_CHUNK0}}] : !{{P}}sfrag, !{{P}}sfrag
      %p0 = func.call @{{NAME}}_exp2(%e0) : (!{{P}}schunk) -> !{{P}}schunk
      // P as the A operand of P V: the accumulator layout of two 8-key column
      // tiles is the A layout of one 16-key step, so a conversion suffices.
      %pe0 = arith.truncf %p0 : !{{P}}schunk to !{{P}}pchunk
      %vc0 = memref.subview %vbuf[%st, 0, 0] [1, {{BNC}}, {{DV}}] [1, 1, 1] : memref<{{STAGES}}x{{BN}}x{{DVP}}x{{E}}, #{{P}}ws> to !{{P}}tvc
      %o0 = "fa.blockwise_gemm"(%pe0, %vc0, %accs) {layout = "mma_m16n8k16"{{GEMM_SWIZZLE}}} : (!{{P}}pchunk, !{{P}}tvc, !{{P}}ofrag) -> !{{P}}ofrag
      %l0 = "fa.blockwise_reduction"(%p0, %la) {kind = "sum", axis = 1 : i64, layout = "mma_m16n8k16", partial}
          : (!{{P}}schunk, !{{P}}rows) -> !{{P}}rows
//#if PV_SPLIT
      %e1 = vector.shuffle %earg, %earg [{{S_CHUNK1}}] : !{{P}}sfrag, !{{P}}sfrag
      %p1 = func.call @{{NAME}}_exp2(%e1) : (!{{P}}schunk) -> !{{P}}schunk
      %pe1 = arith.truncf %p1 : !{{P}}schunk to !{{P}}pchunk
      %cBNC = arith.constant {{BNC}} : index
      %vc1 = memref.subview %vbuf[%st, %cBNC, 0] [1, {{BNC}}, {{DV}}] [1, 1, 1] : memref<{{STAGES}}x{{BN}}x{{DVP}}x{{E}}, #{{P}}ws> to !{{P}}tvc
      %o1 = "fa.blockwise_gemm"(%pe1, %vc1, %o0) {layout = "mma_m16n8k16"{{GEMM_SWIZZLE}}} : (!{{P}}pchunk, !{{P}}tvc, !{{P}}ofrag) -> !{{P}}ofrag
      %l1 = "fa.blockwise_reduction"(%p1, %l0) {kind = "sum", axis = 1 : i64, layout = "mma_m16n8k16", partial}
          : (!{{P}}schunk, !{{P}}rows) -> !{{P}}rows
      scf.yield %o1, %mnew, %l1 : !{{P}}ofrag, !{{P}}rows, !{{P}}rows
//#else
      scf.yield %o0, %mnew, %l0 : !{{P}}ofrag, !{{P}}rows, !{{P}}rows
//#endif
    }

    // Epilogue: O / l (0 for a row with no visible key), staged through
    // shared memory (the tiles are free once every warp is past the loop) and
    // stored with 16-byte stores, rows < M.
    nvgpu.device_async_wait %gq {numGroups = 0 : i32}
//#include attention_row_stats
    %first = arith.cmpi eq, %quad, %c0 : index
    %rrowc = arith.constant dense<[{{R_ROWS}}]> : vector<{{NR}}xi32>
    %Mi2 = arith.index_cast %M : index to i32
    %orowc = arith.constant dense<[{{O_ROWS}}]> : !{{P}}oidx
    %ocolc = arith.constant dense<[{{O_COLS}}]> : !{{P}}oidx
    %wrow0 = arith.addi %wrow, %group : index
//#if SPLIT
    scf.if %split {
      // One split of the keys: O / l and lse of its keys, in f32, to the
      // workspace (8-byte stores straight from the fragments; every row of
      // the tile, the workspace's rows being padded to whole tiles: no
      // branch per store).
      affine.for %i = 0 to {{NO_PAIRS}} {
        %e0 = arith.muli %i, %c2 : index
        %e1 = arith.addi %e0, %c1 : index
        %ri = vector.extract %orowc[%e0] : i32 from !{{P}}oidx
        %ci = vector.extract %ocolc[%e0] : i32 from !{{P}}oidx
        %rx0 = arith.index_cast %ri : i32 to index
        %cx0 = arith.index_cast %ci : i32 to index
        %rx1 = arith.addi %rx0, %wrow0 : index
        %rx = arith.addi %rx1, %m0 : index
        %cx = arith.addi %cx0, %col0 : index
        %x0 = vector.extract %out[%e0] : f32 from !{{P}}ofrag
        %x1 = vector.extract %out[%e1] : f32 from !{{P}}ofrag
        %pair = vector.from_elements %x0, %x1 : vector<2xf32>
        vector.store %pair, %wso[%sp, %b, %h, %rx, %cx] {alignment = 8} : memref<?x?x?x?x{{DV}}xf32>, vector<2xf32>
      }
      scf.if %first {
        affine.for %i = 0 to {{NR}} {
          %ri = vector.extract %rrowc[%i] : i32 from vector<{{NR}}xi32>
          %r = arith.addi %ri, %row0i : i32
          %rin = arith.cmpi slt, %r, %Mi2 : i32
          scf.if %rin {
            %rx = arith.index_cast %r : i32 to index
            %y = vector.extract %lsev[%i] : f32 from !{{P}}rows
            memref.store %y, %wsl[%sp, %b, %h, %rx] : memref<?x?x?x?xf32>
          }
        }
      }
      scf.if %lastMerges {
        // Done: past the barrier, thread 0 counts the split on its tile's
        // counter with an acquire-release atomic: its release orders the
        // workgroup's stores (ordered before it by the barrier) before the
        // count. The split that counts S - 1 is the last; the acquire orders
        // the other splits' stores before its loads (past the next barrier),
        // and it merges.
        gpu.barrier
        %flag = memref.view %raw[%c0][] : memref<{{SMEM_BYTES}}xi8, #{{P}}ws> to memref<4xi32, #{{P}}ws>
        %tc = llvm.inline_asm has_side_effects "mov.u32 $0, %tid.x;", "=r" : () -> i32
        %zc = arith.constant 0 : i32
        %t0th = arith.cmpi eq, %tc, %zc : i32
        scf.if %t0th {
          %tile0 = arith.muli %b, %Hq : index
          %tile1 = arith.addi %tile0, %h : index
          %tile2 = arith.muli %tile1, %MT : index
          %mtq = arith.divui %m0, %cBM : index
          %tile = arith.addi %tile2, %mtq : index
          %count1 = arith.constant 1 : i32
          %cnt = memref.get_global @{{NAME}}_counters : memref<{{COUNTERS}}xi32, #gpu.address_space<global>>
          %cntp = memref.extract_aligned_pointer_as_index %cnt : memref<{{COUNTERS}}xi32, #gpu.address_space<global>> -> index
          %c4t = arith.constant 4 : index
          %cnto = arith.muli %tile, %c4t : index
          %cnta = arith.addi %cntp, %cnto : index
          %cntai = arith.index_cast %cnta : index to i64
          %done = llvm.inline_asm has_side_effects "atom.acq_rel.gpu.global.add.u32 $0, [$1], $2;", "=r,l,r" %cntai, %count1 : (i64, i32) -> i32
          %Sc = arith.subi %S, %c1 : index
          %Sci = arith.index_cast %Sc : index to i32
          %lastc = arith.cmpi eq, %done, %Sci : i32
          scf.if %lastc {
            memref.store %zc, %cnt[%tile] : memref<{{COUNTERS}}xi32, #gpu.address_space<global>>
          }
          %lastw = arith.extui %lastc : i1 to i32
          memref.store %lastw, %flag[%c0] : memref<4xi32, #{{P}}ws>
          // (b, h and m0 for the merge read back from shared memory: kept
          // from the prologue through the loop, they made ptxas spill for
          // sm_80.)
          %bi = arith.index_cast %b : index to i32
          %hi = arith.index_cast %h : index to i32
          %mi = arith.index_cast %m0 : index to i32
          memref.store %bi, %flag[%c1] : memref<4xi32, #{{P}}ws>
          memref.store %hi, %flag[%c2] : memref<4xi32, #{{P}}ws>
          %c3f = arith.constant 3 : index
          memref.store %mi, %flag[%c3f] : memref<4xi32, #{{P}}ws>
        }
        gpu.barrier
        %lastr = memref.load %flag[%c0] : memref<4xi32, #{{P}}ws>
        %last = arith.cmpi ne, %lastr, %zc : i32
        scf.if %last {
          %bl = memref.load %flag[%c1] : memref<4xi32, #{{P}}ws>
          %hl = memref.load %flag[%c2] : memref<4xi32, #{{P}}ws>
          %c3g = arith.constant 3 : index
          %ml = memref.load %flag[%c3g] : memref<4xi32, #{{P}}ws>
          %bx = arith.index_cast %bl : i32 to index
          %hx = arith.index_cast %hl : i32 to index
          %mx = arith.index_cast %ml : i32 to index
          %cBMm = arith.constant {{BM}} : index
          func.call @{{NAME}}_merge({{MERGE_ARGS}}%wso, %wsl, %S, %bx, %hx, %mx, %M, %cBMm)
              : ({{MERGE_TYPES}}memref<?x?x?x?x{{DV}}xf32>, memref<?x?x?x?xf32>, index, index, index, index, index, index) -> ()
        }
      }
    } else {
//#endif
//#if OUT_F32
    %negzo = arith.constant dense<-0.0> : !{{P}}ofrag
    %outv = arith.addf %out, %negzo : !{{P}}ofrag
//#else
    %outv = arith.truncf %out : !{{P}}ofrag to vector<{{NO}}x{{OE}}>
//#endif
    %obuf = memref.view %raw[%c0][] : memref<{{SMEM_BYTES}}xi8, #{{P}}ws> to memref<{{BM}}x{{DVP}}x{{OE}}, #{{P}}ws>
    gpu.barrier
    affine.for %i = 0 to {{NO_PAIRS}} {
      %e0 = arith.muli %i, %c2 : index
      %e1 = arith.addi %e0, %c1 : index
      %ri = vector.extract %orowc[%e0] : i32 from !{{P}}oidx
      %ci = vector.extract %ocolc[%e0] : i32 from !{{P}}oidx
      %rx0 = arith.index_cast %ri : i32 to index
      %cx0 = arith.index_cast %ci : i32 to index
      %rx = arith.addi %rx0, %wrow0 : index
      %cx = arith.addi %cx0, %col0 : index
      %x0 = vector.extract %outv[%e0] : {{OE}} from vector<{{NO}}x{{OE}}>
      %x1 = vector.extract %outv[%e1] : {{OE}} from vector<{{NO}}x{{OE}}>
      %pair = vector.from_elements %x0, %x1 : vector<2x{{OE}}>
      vector.store %pair, %obuf[%rx, %cx] {alignment = {{PAIR_ALIGN}}} : memref<{{BM}}x{{DVP}}x{{OE}}, #{{P}}ws>, vector<2x{{OE}}>
    }
    gpu.barrier
    // Thread t stores chunks e = t + i * {{THREADS}}: row e / {{OUT_CHUNKS}},
    // {{OUT_VEC}} elements from column {{OUT_VEC}} * (e % {{OUT_CHUNKS}}).
    // The thread id read afresh: values derived from the prologue's would
    // be shared with the Q copy and kept in registers through the loop.
    %ti = llvm.inline_asm has_side_effects "mov.u32 $0, %tid.x;", "=r" : () -> i32
    %m0i = arith.index_cast %m0 : index to i32
    %ochunks = arith.constant {{OUT_CHUNKS}} : i32
    %ovec = arith.constant {{OUT_VEC}} : i32
    %nthi = arith.constant {{THREADS}} : i32
    %onum = arith.constant {{OUT_N}} : i32
    affine.for %i = 0 to {{OUT_ITERS}} {
      %ii = arith.index_cast %i : index to i32
      %step = arith.muli %ii, %nthi : i32
      %e = arith.addi %ti, %step : i32
      %r = arith.divui %e, %ochunks : i32
      %ch = arith.remui %e, %ochunks : i32
      %c = arith.muli %ch, %ovec : i32
      %grow = arith.addi %m0i, %r : i32
      %live = arith.cmpi ult, %e, %onum : i32
      %rin = arith.cmpi slt, %grow, %Mi2 : i32
      %st = arith.andi %live, %rin : i1
      scf.if %st {
        %rx = arith.index_cast %r : i32 to index
        %cx = arith.index_cast %c : i32 to index
        %growx = arith.index_cast %grow : i32 to index
        %chunk = vector.load %obuf[%rx, %cx] {alignment = 16} : memref<{{BM}}x{{DVP}}x{{OE}}, #{{P}}ws>, vector<{{OUT_VEC}}x{{OE}}>
        vector.store %chunk, %o[%b, %h, %growx, %cx] {alignment = 16} : !O, vector<{{OUT_VEC}}x{{OE}}>
      }
    }
//#if LSE
    scf.if %first {
      affine.for %i = 0 to {{NR}} {
        %ri = vector.extract %rrowc[%i] : i32 from vector<{{NR}}xi32>
        %r = arith.addi %ri, %row0i : i32
        %rin = arith.cmpi slt, %r, %Mi2 : i32
        scf.if %rin {
          %rx = arith.index_cast %r : i32 to index
          %y = vector.extract %lsev[%i] : f32 from !{{P}}rows
          memref.store %y, %lse[%b, %h, %rx] : !LSE
        }
      }
    }
//#endif
//#if SPLIT
    }
//#endif
    scf.yield
  }
  gpu.terminator
  }
//#if SPLIT
  scf.if %combine {
    func.call @{{NAME}}_combine({{MERGE_ARGS}}%wso, %wsl, %S) : ({{MERGE_TYPES}}memref<?x?x?x?x{{DV}}xf32>, memref<?x?x?x?xf32>, index) -> ()
  }
  %tf0 = gpu.wait async
  %tf1 = gpu.dealloc async [%tf0] %ws : memref<?xi8>
  gpu.wait [%tf1]
//#endif
{{SUMMARY_END}}
  return
}

//#if SPLIT
// The splits of rows [m0, m0 + maxRows) below M merged, four rows at a time:
// by the last split of a query tile to finish (the tile's rows), or by the
// combine kernel (4 rows a workgroup). With w_s = exp(lse_s - max lse):
// O = sum w_s O_s / sum w_s and lse = max lse + log(sum w_s); O = 0 and
// lse = -inf where no split saw a key. In every warp lane l weighs splits l
// and l + 32 of each row (S <= {{SPLIT_MAX}} <= 64); the max and the sum go
// round the warp by shuffles, the four rows side by side. Then thread t sums columns 4 (t + {{THREADS}} j) ..
// + 3 of the four rows over the splits, {{MERGE_SPLITS}} splits at a time, each
// weight shuffled from the lane that holds it. Rows past M read row M - 1
// and splits past S split S - 1 (weight 0), so that no load waits behind a
// branch: 4 x {{MERGE_SPLITS}} loads of 16 bytes are in flight together.
func.func private @{{NAME}}_merge(%o: !O, {{MERGE_LSE_ARG}}%wso: memref<?x?x?x?x{{DV}}xf32>,
    %wsl: memref<?x?x?x?xf32>, %S: index, %b: index, %h: index, %m0: index, %M: index,
    %maxRows: index) attributes {fa.inline} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %ninf = arith.constant 0xFF800000 : f32
  %log2e = arith.constant 1.4426950408889634 : f32
  %ln2 = arith.constant 0.69314718055994531 : f32
  // The thread id read afresh (as in the epilogue): nothing of the
  // kernel's prologue is kept in registers through its loop for this.
  %ti = llvm.inline_asm has_side_effects "mov.u32 $0, %tid.x;", "=r" : () -> i32
  %tid = arith.index_cast %ti : i32 to index
  %lane = arith.remui %tid, %c32 : index
  %Sl = arith.subi %S, %c1 : index
  %Ml = arith.subi %M, %c1 : index
  %s1 = arith.addi %lane, %c32 : index
  %in0 = arith.cmpi ult, %lane, %S : index
  %in1 = arith.cmpi ult, %s1, %S : index
  %sc0 = arith.minui %lane, %Sl : index
  %sc1 = arith.minui %s1, %Sl : index
  %mleft = arith.subi %M, %m0 : index
  %rows = arith.minui %mleft, %maxRows : index
  %nblk = arith.ceildivui %rows, %c4 : index
  %cDV = arith.constant {{DV}} : index
  %cLast = arith.subi %cDV, %c4 : index
  %cNC = arith.constant {{MERGE_CHUNKS}} : index
  %nth = arith.constant {{THREADS}} : index
  %zacc = arith.constant dense<0.0> : vector<4x4xf32>
  %zrow = arith.constant dense<0.0> : vector<4xf32>
  %onerow = arith.constant dense<1.0> : vector<4xf32>
  %ninfrow = vector.broadcast %ninf : f32 to vector<4xf32>
  %log2erow = vector.broadcast %log2e : f32 to vector<4xf32>
  %ln2row = vector.broadcast %ln2 : f32 to vector<4xf32>
  scf.for %blk = %c0 to %nblk step %c1 {
    %r00 = arith.muli %blk, %c4 : index
    %r0 = arith.addi %m0, %r00 : index
    // The normalised weights of splits (lane, lane + 32) of the four rows,
    // the rows side by side: each step of the butterflies shuffles all four.
    %x:2 = affine.for %i = 0 to 4 iter_args(%a0 = %zrow, %a1 = %zrow) -> (vector<4xf32>, vector<4xf32>) {
      %r = arith.addi %r0, %i : index
      %rc = arith.minui %r, %Ml : index
      %y0 = memref.load %wsl[%sc0, %b, %h, %rc] : memref<?x?x?x?xf32>
      %y1 = memref.load %wsl[%sc1, %b, %h, %rc] : memref<?x?x?x?xf32>
      %z0 = arith.select %in0, %y0, %ninf : f32
      %z1 = arith.select %in1, %y1, %ninf : f32
      %b0 = vector.insert %z0, %a0[%i] : f32 into vector<4xf32>
      %b1 = vector.insert %z1, %a1[%i] : f32 into vector<4xf32>
      affine.yield %b0, %b1 : vector<4xf32>, vector<4xf32>
    }
    %mx0 = arith.maximumf %x#0, %x#1 : vector<4xf32>
    %isMax = arith.constant true
    %lmax = func.call @{{NAME}}_warp_all(%mx0, %isMax) : (vector<4xf32>, i1) -> vector<4xf32>
    %empty = arith.cmpf oeq, %lmax, %ninfrow : vector<4xf32>
    %shift = arith.select %empty, %zrow, %lmax : vector<4xi1>, vector<4xf32>
    %d0 = arith.subf %x#0, %shift : vector<4xf32>
    %e0 = arith.mulf %d0, %log2erow : vector<4xf32>
    %w0 = math.exp2 %e0 : vector<4xf32>
    %d1 = arith.subf %x#1, %shift : vector<4xf32>
    %e1 = arith.mulf %d1, %log2erow : vector<4xf32>
    %w1 = math.exp2 %e1 : vector<4xf32>
    %ws0 = arith.addf %w0, %w1 : vector<4xf32>
    %isSum = arith.constant false
    %wsum = func.call @{{NAME}}_warp_all(%ws0, %isSum) : (vector<4xf32>, i1) -> vector<4xf32>
    %inv0 = arith.divf %onerow, %wsum : vector<4xf32>
    %inv = arith.select %empty, %zrow, %inv0 : vector<4xi1>, vector<4xf32>
    %n0 = arith.mulf %w0, %inv : vector<4xf32>
    %n1 = arith.mulf %w1, %inv : vector<4xf32>
    %n01 = vector.interleave %n0, %n1 : vector<4xf32> -> vector<8xf32>
    %wts = vector.shape_cast %n01 : vector<8xf32> to vector<4x2xf32>
//#if LSE
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      %lg = math.log2 %wsum : vector<4xf32>
      %ln = arith.mulf %lg, %ln2row : vector<4xf32>
      %l0 = arith.addf %lmax, %ln : vector<4xf32>
      %l = arith.select %empty, %ninfrow, %l0 : vector<4xi1>, vector<4xf32>
      affine.for %i = 0 to 4 {
        %r = arith.addi %r0, %i : index
        %rin = arith.cmpi ult, %r, %M : index
        scf.if %rin {
          %li = vector.extract %l[%i] : f32 from vector<4xf32>
          memref.store %li, %lse[%b, %h, %r] : !LSE
        }
      }
    }
//#endif
    scf.for %j = %c0 to %cNC step %c1 {
      %e = arith.muli %j, %nth : index
      %ch = arith.addi %tid, %e : index
      %col = arith.muli %ch, %c4 : index
      %cc = arith.minui %col, %cLast : index
      // The first splits outside the loop: their loads need no weight, so
      // they issue beside the weights' loads.
      %cMS = arith.constant {{MERGE_SPLITS}} : index
      %acc0 = func.call @{{NAME}}_merge_splits(%wso, %wts, %c0, %zacc, %Sl, %Ml, %b, %h, %r0, %cc)
          : (memref<?x?x?x?x{{DV}}xf32>, vector<4x2xf32>, index, vector<4x4xf32>, index, index, index, index, index, index) -> vector<4x4xf32>
      %sum = scf.for %sb = %cMS to %S step %cMS iter_args(%acc = %acc0) -> (vector<4x4xf32>) {
        %acc2 = func.call @{{NAME}}_merge_splits(%wso, %wts, %sb, %acc, %Sl, %Ml, %b, %h, %r0, %cc)
            : (memref<?x?x?x?x{{DV}}xf32>, vector<4x2xf32>, index, vector<4x4xf32>, index, index, index, index, index, index) -> vector<4x4xf32>
        scf.yield %acc2 : vector<4x4xf32>
      }
      %cin = arith.cmpi ult, %col, %cDV : index
      affine.for %i = 0 to 4 {
        %r = arith.addi %r0, %i : index
        %rin = arith.cmpi ult, %r, %M : index
        %st = arith.andi %cin, %rin : i1
        scf.if %st {
          %v = vector.extract %sum[%i] : vector<4xf32> from vector<4x4xf32>
//#if OUT_F32
          vector.store %v, %o[%b, %h, %r, %col] : !O, vector<4xf32>
//#else
          %vt = arith.truncf %v : vector<4xf32> to vector<4x{{OE}}>
          vector.store %vt, %o[%b, %h, %r, %col] : !O, vector<4x{{OE}}>
//#endif
        }
      }
    }
  }
  return
}

// Each of %x's four values combined over the 32 lanes of the warp by a
// butterfly, the four shuffled side by side: the max where %max (a constant
// at each call: the other combine folds away), else the sum.
func.func private @{{NAME}}_warp_all(%x: vector<4xf32>, %max: i1) -> vector<4xf32> attributes {fa.inline} {
  %w32 = arith.constant 32 : i32
  %r = affine.for %k = 0 to 5 iter_args(%v = %x) -> (vector<4xf32>) {
    %ki = arith.index_cast %k : index to i32
    %one32 = arith.constant 1 : i32
    %d = arith.shli %one32, %ki : i32
    %y = affine.for %j = 0 to 4 iter_args(%yv = %v) -> (vector<4xf32>) {
      %e = vector.extract %v[%j] : f32 from vector<4xf32>
      %o, %ok = gpu.shuffle xor %e, %d, %w32 : f32
      %yv2 = vector.insert %o, %yv[%j] : f32 into vector<4xf32>
      affine.yield %yv2 : vector<4xf32>
    }
    %m = arith.maximumf %v, %y : vector<4xf32>
    %sm = arith.addf %v, %y : vector<4xf32>
    %n = arith.select %max, %m, %sm : vector<4xf32>
    affine.yield %n : vector<4xf32>
  }
  return %r : vector<4xf32>
}

// The merge of the splits where tiles have more than 4 rows: a workgroup of
// {{THREADS}} threads per 4 rows (b, h, 4 i ..), so that the rows merge side by
// side rather than one after the other in the last split.
func.func private @{{NAME}}_combine(%o: !O, {{MERGE_LSE_ARG}}%wso: memref<?x?x?x?x{{DV}}xf32>,
    %wsl: memref<?x?x?x?xf32>, %S: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %B = memref.dim %o, %c0 : !O
  %Hq = memref.dim %o, %c1 : !O
  %M = memref.dim %o, %c2 : !O
  %blocks = arith.ceildivui %M, %c4 : index
  %nth = arith.constant {{THREADS}} : index
  gpu.launch blocks(%rb, %h, %b) in (%gx = %blocks, %gy = %Hq, %gz = %B)
             threads(%t, %ty, %tz) in (%sx = %nth, %sy = %c1, %sz = %c1) {
  scf.execute_region {
    %m0 = arith.muli %rb, %c4 : index
    func.call @{{NAME}}_merge({{MERGE_ARGS}}%wso, %wsl, %S, %b, %h, %m0, %M, %c4)
        : ({{MERGE_TYPES}}memref<?x?x?x?x{{DV}}xf32>, memref<?x?x?x?xf32>, index, index, index, index, index, index) -> ()
    scf.yield
  }
  gpu.terminator
  }
  return
}
// Splits [sb, sb + {{MERGE_SPLITS}}) of four rows (from r0) added to acc, columns
// cc .. cc + 3: split sk's weight is lane (sk mod 32)'s (wts: this lane's
// weights of splits (lane, lane + 32)), 0 past S (S <= 64 and steps of
// {{MERGE_SPLITS}}: sk < 64); splits past S read split S - 1, rows past M row M - 1.
func.func private @{{NAME}}_merge_splits(%wso: memref<?x?x?x?x{{DV}}xf32>, %wts: vector<4x2xf32>,
    %sb: index, %acc: vector<4x4xf32>, %Sl: index, %Ml: index, %b: index, %h: index, %r0: index,
    %cc: index) -> vector<4x4xf32> attributes {fa.inline} {
  %w32 = arith.constant 32 : i32
  %m31 = arith.constant 31 : i32
  %sum = affine.for %k = 0 to {{MERGE_SPLITS}} iter_args(%a = %acc) -> (vector<4x4xf32>) {
    %sk = arith.addi %sb, %k : index
    %skc = arith.minui %sk, %Sl : index
    %ski = arith.index_cast %sk : index to i32
    %src = arith.andi %ski, %m31 : i32
    %hi = arith.cmpi uge, %ski, %w32 : i32
    %a2 = affine.for %i = 0 to 4 iter_args(%ai = %a) -> (vector<4x4xf32>) {
      %r = arith.addi %r0, %i : index
      %rc = arith.minui %r, %Ml : index
      %ov = vector.load %wso[%skc, %b, %h, %rc, %cc] {alignment = 16} : memref<?x?x?x?x{{DV}}xf32>, vector<4xf32>
      %wlo = vector.extract %wts[%i, 0] : f32 from vector<4x2xf32>
      %whi = vector.extract %wts[%i, 1] : f32 from vector<4x2xf32>
      %glo, %okl = gpu.shuffle idx %wlo, %src, %w32 : f32
      %ghi, %okh = gpu.shuffle idx %whi, %src, %w32 : f32
      %w = arith.select %hi, %ghi, %glo : f32
      %wv = vector.broadcast %w : f32 to vector<4xf32>
      %row = vector.extract %ai[%i] : vector<4xf32> from vector<4x4xf32>
      %nrow = vector.fma %wv, %ov, %row : vector<4xf32>
      %ai2 = vector.insert %nrow, %ai[%i] : vector<4xf32> into vector<4x4xf32>
      affine.yield %ai2 : vector<4x4xf32>
    }
    affine.yield %a2 : vector<4x4xf32>
  }
  return %sum : vector<4x4xf32>
}
//#endif

//#include attention_exp2
