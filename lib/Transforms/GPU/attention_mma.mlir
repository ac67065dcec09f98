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
// @{{NAME}}_copy_q, _k and _v (GPU/tile_copy.mlir). With two stages, K and V
// of tile t+1 are in flight while tile t is used, behind one barrier per
// tile; with one stage (FlashAttention-2's order), V(t) lands while
// S = Q K(t)^T runs and K(t+1) while the softmax and P V(t) run, behind two
// barriers per tile. At the end the same memory stages O for 16-byte stores.

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
//#if SPLIT
  // Split over keys (flash-decoding) where the (batch, head, query tile)
  // workgroups are too few to fill the chip (decode, M = 1): each of %S
  // splits scans %TPS key tiles and writes its O / l and lse (f32) to a
  // workspace; @{{NAME}}_combine merges them. %S = 1 otherwise: one pass,
  // no workspace (an empty one is allocated and freed).
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
  %wsRows = arith.muli %wsRows0, %M : index
  %cDVh = arith.constant {{DV}} : index
  %wsOElts = arith.muli %wsRows, %cDVh : index
  %wsElts = arith.addi %wsOElts, %wsRows : index
  %c4h = arith.constant 4 : index
  %wsBytes = arith.muli %wsElts, %c4h : index
  %wsLOff = arith.muli %wsOElts, %c4h : index
  %tw0 = gpu.wait async
  %ws, %tw1 = gpu.alloc async [%tw0] (%wsBytes) : memref<?xi8>
  gpu.wait [%tw1]
  %wso = memref.view %ws[%c0][%wsS, %B, %Hq, %M] : memref<?xi8> to memref<?x?x?x?x{{DV}}xf32>
  %wsl = memref.view %ws[%wsLOff][%wsS, %B, %Hq, %M] : memref<?xi8> to memref<?x?x?x?xf32>
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
    %NTw = arith.ceildivui %nend, %cBN : index
    // This split's key tiles: [%t0, %NT).
    %t0u = arith.muli %sp, %TPS : index
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
//#if ONE_STAGE
//#else
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
    %qk = arith.constant {{SCALE_LOG2E}} : f32
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
      %s = "fa.blockwise_gemm"(%qs, %ks, %s_zero) {transpose_b, layout = "mma_m16n8k16"}
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
      %o0 = "fa.blockwise_gemm"(%pe0, %vc0, %accs) {layout = "mma_m16n8k16"} : (!{{P}}pchunk, !{{P}}tvc, !{{P}}ofrag) -> !{{P}}ofrag
      %l0 = "fa.blockwise_reduction"(%p0, %la) {kind = "sum", axis = 1 : i64, layout = "mma_m16n8k16", partial}
          : (!{{P}}schunk, !{{P}}rows) -> !{{P}}rows
//#if PV_SPLIT
      %e1 = vector.shuffle %earg, %earg [{{S_CHUNK1}}] : !{{P}}sfrag, !{{P}}sfrag
      %p1 = func.call @{{NAME}}_exp2(%e1) : (!{{P}}schunk) -> !{{P}}schunk
      %pe1 = arith.truncf %p1 : !{{P}}schunk to !{{P}}pchunk
      %cBNC = arith.constant {{BNC}} : index
      %vc1 = memref.subview %vbuf[%st, %cBNC, 0] [1, {{BNC}}, {{DV}}] [1, 1, 1] : memref<{{STAGES}}x{{BN}}x{{DVP}}x{{E}}, #{{P}}ws> to !{{P}}tvc
      %o1 = "fa.blockwise_gemm"(%pe1, %vc1, %o0) {layout = "mma_m16n8k16"} : (!{{P}}pchunk, !{{P}}tvc, !{{P}}ofrag) -> !{{P}}ofrag
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
      // workspace (8-byte stores straight from the fragments).
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
        %rin = arith.cmpi slt, %rx, %M : index
        scf.if %rin {
          %x0 = vector.extract %out[%e0] : f32 from !{{P}}ofrag
          %x1 = vector.extract %out[%e1] : f32 from !{{P}}ofrag
          %pair = vector.from_elements %x0, %x1 : vector<2xf32>
          vector.store %pair, %wso[%sp, %b, %h, %rx, %cx] : memref<?x?x?x?x{{DV}}xf32>, vector<2xf32>
        }
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
  scf.if %split {
    func.call @{{NAME}}_combine({{COMBINE_ARGS}}%wso, %wsl, %S) : ({{COMBINE_TYPES}}memref<?x?x?x?x{{DV}}xf32>, memref<?x?x?x?xf32>, index) -> ()
  }
  %tf0 = gpu.wait async
  %tf1 = gpu.dealloc async [%tf0] %ws : memref<?xi8>
  gpu.wait [%tf1]
//#endif
  return
}

//#if SPLIT
// The splits of the keys merged, one warp per query row (b, h, m): with
// w_s = exp(lse_s - max lse), O = sum w_s O_s / sum w_s and
// lse = max lse + log(sum w_s); O = 0 and lse = -inf where no split saw a key.
// Lane l weighs splits l and l + 32 (S <= {{SPLIT_MAX}} <= 64), the max and the sum
// go round the warp by shuffles, the weights through shared memory; each lane
// then sums its columns over the splits, 8 loads in flight at a time.
func.func private @{{NAME}}_combine(%o: !O, {{COMBINE_LSE_ARG}}%wso: memref<?x?x?x?x{{DV}}xf32>, %wsl: memref<?x?x?x?xf32>, %S: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %B = memref.dim %o, %c0 : !O
  %Hq = memref.dim %o, %c1 : !O
  %M = memref.dim %o, %c2 : !O
  gpu.launch blocks(%m, %h, %b) in (%gx = %M, %gy = %Hq, %gz = %B)
             threads(%lane, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1)
             workgroup(%wsh : memref<64xf32, #gpu.address_space<workgroup>>) {
    %zf = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %log2e = arith.constant 1.4426950408889634 : f32
    %ln2 = arith.constant 0.69314718055994531 : f32
    %cDV = arith.constant {{DV}} : index
    %c8 = arith.constant 8 : index
    %w32 = arith.constant 32 : i32
    %s0 = arith.addi %lane, %c0 : index
    %s1 = arith.addi %lane, %c32 : index
    %in0 = arith.cmpi ult, %s0, %S : index
    %in1 = arith.cmpi ult, %s1, %S : index
    %x0 = scf.if %in0 -> (f32) {
      %x = memref.load %wsl[%s0, %b, %h, %m] : memref<?x?x?x?xf32>
      scf.yield %x : f32
    } else {
      scf.yield %ninf : f32
    }
    %x1 = scf.if %in1 -> (f32) {
      %x = memref.load %wsl[%s1, %b, %h, %m] : memref<?x?x?x?xf32>
      scf.yield %x : f32
    } else {
      scf.yield %ninf : f32
    }
    %mx0 = arith.maximumf %x0, %x1 : f32
    %lmax = affine.for %i = 0 to 5 iter_args(%v = %mx0) -> (f32) {
      %ii = arith.index_cast %i : index to i32
      %one32 = arith.constant 1 : i32
      %d = arith.shli %one32, %ii : i32
      %y, %ok = gpu.shuffle xor %v, %d, %w32 : f32
      %r = arith.maximumf %v, %y : f32
      affine.yield %r : f32
    }
    %empty = arith.cmpf oeq, %lmax, %ninf : f32
    %shift = arith.select %empty, %zf, %lmax : f32
    %d0 = arith.subf %x0, %shift : f32
    %e0 = arith.mulf %d0, %log2e : f32
    %w0 = math.exp2 %e0 : f32
    %d1 = arith.subf %x1, %shift : f32
    %e1 = arith.mulf %d1, %log2e : f32
    %w1 = math.exp2 %e1 : f32
    memref.store %w0, %wsh[%s0] : memref<64xf32, #gpu.address_space<workgroup>>
    memref.store %w1, %wsh[%s1] : memref<64xf32, #gpu.address_space<workgroup>>
    %ws0 = arith.addf %w0, %w1 : f32
    %wsum = affine.for %i = 0 to 5 iter_args(%v = %ws0) -> (f32) {
      %ii = arith.index_cast %i : index to i32
      %one32 = arith.constant 1 : i32
      %d = arith.shli %one32, %ii : i32
      %y, %ok = gpu.shuffle xor %v, %d, %w32 : f32
      %r = arith.addf %v, %y : f32
      affine.yield %r : f32
    }
    gpu.barrier
    %inv0 = arith.divf %one, %wsum : f32
    %inv = arith.select %empty, %zf, %inv0 : f32
    %smax = arith.constant 63 : index
    scf.for %c = %lane to %cDV step %c32 {
      %sum = scf.for %sb = %c0 to %S step %c8 iter_args(%acc = %zf) -> (f32) {
        // Eight splits: weights past S are 0 (their lse is -inf), and their
        // loads read split S - 1 instead.
        %sl = arith.subi %S, %c1 : index
        %acc8 = affine.for %j = 0 to 8 iter_args(%a = %acc) -> (f32) {
          %sj = arith.addi %sb, %j : index
          %sc = arith.minui %sj, %sl : index
          %sw = arith.minui %sj, %smax : index
          %w = memref.load %wsh[%sw] : memref<64xf32, #gpu.address_space<workgroup>>
          %live = arith.cmpi ult, %sj, %S : index
          %wl = arith.select %live, %w, %zf : f32
          %ov = memref.load %wso[%sc, %b, %h, %m, %c] : memref<?x?x?x?x{{DV}}xf32>
          %a2 = math.fma %wl, %ov, %a : f32
          affine.yield %a2 : f32
        }
        scf.yield %acc8 : f32
      }
      %r = arith.mulf %sum, %inv : f32
//#if OUT_F32
      memref.store %r, %o[%b, %h, %m, %c] : !O
//#else
      %rt = arith.truncf %r : f32 to {{OE}}
      memref.store %rt, %o[%b, %h, %m, %c] : !O
//#endif
    }
//#if LSE
    %first = arith.cmpi eq, %lane, %c0 : index
    scf.if %first {
      %lg = math.log2 %wsum : f32
      %ln = arith.mulf %lg, %ln2 : f32
      %l0 = arith.addf %lmax, %ln : f32
      %l = arith.select %empty, %ninf, %l0 : f32
      memref.store %l, %lse[%b, %h, %m] : !LSE
    }
//#endif
    gpu.terminator
  }
  return
}
//#endif

//#include attention_exp2
