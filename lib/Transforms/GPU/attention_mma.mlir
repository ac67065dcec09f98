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
// ops): !sfrag holds a thread's part of the [BM x BN] scores, !ofrag its part
// of the [BM x Dv] output, !rows the running max / sum of its rows.
//
// Shared memory (dynamic, {{SMEM_BYTES}} bytes): the Q tile, then K and V
// tiles in {{STAGES}} stage(s); rows are padded by 16 bytes so that ldmatrix is
// free of bank conflicts. Tiles are copied with 16-byte cp.async by
// @{{NAME}}_copy_q, _k and _v (GPU/tile_copy.mlir). With two stages, K and V
// of tile t+1 are in flight while tile t is used, behind one barrier per
// tile; with one stage (FlashAttention-2's order), V(t) lands while
// S = Q K(t)^T runs and K(t+1) while the softmax and P V(t) run, behind two
// barriers per tile. At the end the same memory stages O for 16-byte stores.

#ws = #gpu.address_space<workgroup>
!tq = memref<{{BM}}x{{D}}x{{E}}, strided<[{{DP}}, 1]>, #ws>
!tk = memref<{{BN}}x{{D}}x{{E}}, strided<[{{DP}}, 1], offset: ?>, #ws>
!tv = memref<{{BN}}x{{DV}}x{{E}}, strided<[{{DVP}}, 1], offset: ?>, #ws>
!tvc = memref<{{BNC}}x{{DV}}x{{E}}, strided<[{{DVP}}, 1], offset: ?>, #ws>
!sfrag = vector<{{NS}}xf32>
!schunk = vector<{{NSC}}xf32>
!pchunk = vector<{{NSC}}x{{E}}>
!ofrag = vector<{{NO}}xf32>
!rows = vector<{{NR}}xf32>
!sidx = vector<{{NS}}xi32>
!oidx = vector<{{NO}}xi32>

memref.global "public" @{{NAME}}_smem : memref<0xi8, #ws> {alignment = 128 : i64}

func.func private @{{NAME}}({{ARGS}}) attributes {fa.attention_kernel} {
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
  // The body is in an scf.execute_region: the inliner does not inline into
  // gpu.launch.
//#if CAUSAL
  // Under a causal mask query tile i visits i + 1 key tiles: workgroups are
  // numbered longest first over all (batch, head) pairs, so that the last
  // ones to start are the shortest and every SM ends at about the same time.
  // Pairs go in chunks whose K and V fit {{L2_BUDGET}} bytes of L2, so that
  // the workgroups in flight share their keys.
  %BH = arith.muli %B, %Hq : index
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
    %b = arith.divui %bh, %Hq : index
//#else
  gpu.launch blocks(%mt, %h, %b) in (%gx = %MT, %gy = %Hq, %gz = %B)
             threads(%tid, %ty, %tz) in (%sx = %nth, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %smem {
  scf.execute_region {
//#endif
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
    %raw0 = memref.get_global @{{NAME}}_smem : memref<0xi8, #ws>
    %raw = memref.reinterpret_cast %raw0 to offset: [0], sizes: [{{SMEM_BYTES}}], strides: [1]
        : memref<0xi8, #ws> to memref<{{SMEM_BYTES}}xi8, #ws>
    %offK = arith.constant {{OFF_K}} : index
    %offV = arith.constant {{OFF_V}} : index
    %qbuf = memref.view %raw[%c0][] : memref<{{SMEM_BYTES}}xi8, #ws> to memref<{{BM}}x{{DP}}x{{E}}, #ws>
    %kbuf = memref.view %raw[%offK][] : memref<{{SMEM_BYTES}}xi8, #ws> to memref<{{STAGES}}x{{BN}}x{{DP}}x{{E}}, #ws>
    %vbuf = memref.view %raw[%offV][] : memref<{{SMEM_BYTES}}xi8, #ws> to memref<{{STAGES}}x{{BN}}x{{DVP}}x{{E}}, #ws>
    %qs = memref.subview %qbuf[0, 0] [{{BM}}, {{D}}] [1, 1] : memref<{{BM}}x{{DP}}x{{E}}, #ws> to !tq

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
    %NT = arith.ceildivui %nend, %cBN : index

    // Where this thread's scores sit: row %row0 + S_ROWS[i], column
    // n0 + %col0 + S_COLS[i] for fragment entry i. Masks compare the constant
    // offsets with scalars, so no per-entry index lives in registers.
    %wrow = arith.muli %warp, %cWR : index
    %row0a = arith.addi %m0, %wrow : index
    %row0 = arith.addi %row0a, %group : index
    %col0 = arith.muli %quad, %c2 : index
    %row0i = arith.index_cast %row0 : index to i32
    %col0i = arith.index_cast %col0 : index to i32
    %scols = arith.constant dense<[{{S_COLS}}]> : !sidx
//#if CAUSAL
    // col <= row + offset  <=>  S_COLS[i] - S_ROWS[i] <= row0 + offset - n0 - col0
    %sdiag = arith.constant dense<[{{S_COLS_MINUS_ROWS}}]> : !sidx
    %coffi = arith.constant {{CAUSAL_OFFSET}} : i32
    %diag0 = arith.addi %m0, %coff : index
    %diag = arith.addi %diag0, %c1 : index
//#endif
//#if BIAS
    %srows = arith.constant dense<[{{S_ROWS}}]> : !sidx
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
    func.call @{{NAME}}_copy_q(%q, %b, %h, %m0, %M, %qs) : (!Q, index, index, index, index, !tq) -> ()
    %k0 = memref.subview %kbuf[%c0, 0, 0] [1, {{BN}}, {{D}}] [1, 1, 1] : memref<{{STAGES}}x{{BN}}x{{DP}}x{{E}}, #ws> to !tk
    func.call @{{NAME}}_copy_k(%k, %b, %hk, %c0, %nend, %k0) : (!K, index, index, index, index, !tk) -> ()
    %v0 = memref.subview %vbuf[%c0, 0, 0] [1, {{BN}}, {{DV}}] [1, 1, 1] : memref<{{STAGES}}x{{BN}}x{{DVP}}x{{E}}, #ws> to !tv
//#if ONE_STAGE
//#else
    func.call @{{NAME}}_copy_v(%v, %b, %hk, %c0, %nend, %v0) : (!V, index, index, index, index, !tv) -> ()
//#endif
    %gq = "nvgpu.device_async_create_group"() : () -> !nvgpu.device.async.token

    %upoison = ub.poison : !ofrag
    %rpoison = ub.poison : !rows
    %spoison = ub.poison : !sfrag
    %o_init = "fa.blockwise_fill"(%upoison, %zf) {layout = "mma_m16n8k16"} : (!ofrag, f32) -> !ofrag
    %m_init = "fa.blockwise_fill"(%rpoison, %ninf) {layout = "mma_m16n8k16"} : (!rows, f32) -> !rows
    %l_init = "fa.blockwise_fill"(%rpoison, %zf) {layout = "mma_m16n8k16"} : (!rows, f32) -> !rows
    %s_zero = "fa.blockwise_fill"(%spoison, %zf) {layout = "mma_m16n8k16"} : (!sfrag, f32) -> !sfrag
    %qk = arith.constant {{SCALE_LOG2E}} : f32
    %qkv = vector.broadcast %qk : f32 to !sfrag
    %ninfs = vector.broadcast %ninf : f32 to !sfrag
    %zrows = vector.broadcast %zf : f32 to !rows
    %ninfr = vector.broadcast %ninf : f32 to !rows
    %negzs = arith.constant dense<-0.0> : !sfrag
    // The exponent's scale: scale * log2(e), or 1 where the scores were
    // scaled before the bias was added (or the scale is not positive).
    %es = arith.constant {{EXP_SCALE}} : f32
    %ess = vector.broadcast %es : f32 to !sfrag
    %esr = vector.broadcast %es : f32 to !rows

    %fin:3 = scf.for %t = %c0 to %NT step %c1
        iter_args(%acc = %o_init, %mrow = %m_init, %lrow = %l_init) -> (!ofrag, !rows, !rows) {
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
      func.call @{{NAME}}_copy_v(%v, %b, %hk, %n0, %nend, %v0) : (!V, index, index, index, index, !tv) -> ()
      %gv = "nvgpu.device_async_create_group"() : () -> !nvgpu.device.async.token
//#else
      %st = arith.remui %t, %c2 : index
      %st1 = arith.subi %c1, %st : index

      // Once K(t) and V(t) have landed and every warp is past tile t - 1,
      // K(t+1) and V(t+1) are copied into the other stage: one barrier per
      // tile, and the copies have a whole tile of work to hide behind.
      nvgpu.device_async_wait %gq {numGroups = 0 : i32}
      gpu.barrier
      scf.if %more {
        %kn = memref.subview %kbuf[%st1, 0, 0] [1, {{BN}}, {{D}}] [1, 1, 1] : memref<{{STAGES}}x{{BN}}x{{DP}}x{{E}}, #ws> to !tk
        func.call @{{NAME}}_copy_k(%k, %b, %hk, %n1, %nend, %kn) : (!K, index, index, index, index, !tk) -> ()
        %vn = memref.subview %vbuf[%st1, 0, 0] [1, {{BN}}, {{DV}}] [1, 1, 1] : memref<{{STAGES}}x{{BN}}x{{DVP}}x{{E}}, #ws> to !tv
        func.call @{{NAME}}_copy_v(%v, %b, %hk, %n1, %nend, %vn) : (!V, index, index, index, index, !tv) -> ()
      }
      %gn = "nvgpu.device_async_create_group"() : () -> !nvgpu.device.async.token
//#endif

      %ks = memref.subview %kbuf[%st, 0, 0] [1, {{BN}}, {{D}}] [1, 1, 1] : memref<{{STAGES}}x{{BN}}x{{DP}}x{{E}}, #ws> to !tk
      %s = "fa.blockwise_gemm"(%qs, %ks, %s_zero) {transpose_b, layout = "mma_m16n8k16"}
          : (!tq, !tk, !sfrag) -> !sfrag

      // Scores in the log2 domain: S * scale * log2(e) (+ bias * log2(e)).
      %n0i = arith.index_cast %n0 : index to i32
      %colbase = arith.addi %n0i, %col0i : i32
//#if BIAS
      %s2 = arith.mulf %s, %qkv : !sfrag
      %s3 = affine.for %i = 0 to {{NS}} iter_args(%sv = %s2) -> (!sfrag) {
        %rofs = vector.extract %srows[%i] : i32 from !sidx
        %cofs = vector.extract %scols[%i] : i32 from !sidx
        %ri = arith.addi %row0i, %rofs : i32
        %ci = arith.addi %colbase, %cofs : i32
        %ric = arith.minsi %ri, %Mi : i32
        %cic = arith.minsi %ci, %Ni : i32
        %rix = arith.index_cast %ric : i32 to index
        %cix = arith.index_cast %cic : i32 to index
        %rin = arith.cmpi slt, %ric, %Mi : i32
        %cin = arith.cmpi slt, %cic, %Ni : i32
        %inb = arith.andi %rin, %cin : i1
        %x = vector.extract %sv[%i] : f32 from !sfrag
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
        %sn = vector.insert %y, %sv[%i] : f32 into !sfrag
        affine.yield %sn : !sfrag
      }
//#else
//#if PRESCALE
      %s3 = arith.mulf %s, %qkv : !sfrag
//#else
      // Raw scores: scale * log2(e) is applied inside the exponent below.
      %s3 = arith.addf %s, %negzs : !sfrag
//#endif
//#endif

      // Masks only where some key of the tile is hidden: past N / kv_len, or
      // above the causal diagonal of the tile's first row.
      %tend = arith.addi %n0, %cBN : index
      %past = arith.cmpi sgt, %tend, %nvalid : index
//#if CAUSAL
      %above = arith.cmpi sgt, %tend, %diag : index
      %needmask = arith.ori %past, %above : i1
//#else
      %needmask = arith.ori %past, %past : i1
//#endif
      %s4 = scf.if %needmask -> (!sfrag) {
        %nvi = arith.index_cast %nvalid : index to i32
        %kvlim = arith.subi %nvi, %colbase : i32
        %kvlimv = vector.broadcast %kvlim : i32 to !sidx
        %inkv = arith.cmpi slt, %scols, %kvlimv : !sidx
//#if CAUSAL
        %dlim0 = arith.addi %row0i, %coffi : i32
        %dlim = arith.subi %dlim0, %colbase : i32
        %dlimv = vector.broadcast %dlim : i32 to !sidx
        %vis = arith.cmpi sle, %sdiag, %dlimv : !sidx
        %ok = arith.andi %inkv, %vis : vector<{{NS}}xi1>
//#else
        %ok = arith.andi %inkv, %inkv : vector<{{NS}}xi1>
//#endif
        %sm = arith.select %ok, %s3, %ninfs : vector<{{NS}}xi1>, !sfrag
        scf.yield %sm : !sfrag
      } else {
        scf.yield %s3 : !sfrag
      }
//#if ONE_STAGE

      // Once V(t) has landed and every warp is past S = Q K(t)^T, K(t+1) is
      // copied: it lands while the softmax and P V run.
      nvgpu.device_async_wait %gq {numGroups = 0 : i32}
      gpu.barrier
      scf.if %more {
        func.call @{{NAME}}_copy_k(%k, %b, %hk, %n1, %nend, %k0) : (!K, index, index, index, index, !tk) -> ()
      }
      %gk = "nvgpu.device_async_create_group"() : () -> !nvgpu.device.async.token
//#endif

      // Online softmax on the fragments: m' = max(m, rowmax S), P = exp2(S - m'),
      // alpha = exp2(m - m'), l' = l * alpha + rowsum P, O *= alpha. A row with
      // no visible key so far keeps m' = -inf; it is shifted by 0 instead, so
      // that P = 0 and alpha = 0 there, never NaN.
      // The running max is a bound, not the max: a row keeps its m unless the
      // tile's max exceeds it by more than {{MAX_SLACK}} in the exponent, so
      // P <= 2^{{MAX_SLACK}} (exact in f16 / bf16 as any P is; O and l share
      // the same m, so O / l is unchanged) and O is rescaled only on the few
      // tiles where some row's max jumps: in long rows, almost never.
      %mmax = "fa.blockwise_reduction"(%s4, %mrow) {kind = "max", axis = 1 : i64, layout = "mma_m16n8k16"}
          : (!sfrag, !rows) -> !rows
      %grow0 = arith.subf %mmax, %mrow : !rows
      %grow = arith.mulf %grow0, %esr : !rows
      %slack = arith.constant dense<{{MAX_SLACK}}.0> : !rows
      // Not for -inf - -inf = NaN: such a row has seen no key yet.
      %moved = arith.cmpf ogt, %grow, %slack : !rows
      %mnew = arith.select %moved, %mmax, %mrow : vector<{{NR}}xi1>, !rows
      %minf = arith.cmpf oeq, %mnew, %ninfr : !rows
      %msafe = arith.select %minf, %zrows, %mnew : vector<{{NR}}xi1>, !rows
      %dm0 = arith.subf %mrow, %msafe : !rows
      %dm = arith.mulf %dm0, %esr : !rows
      %alpha = math.exp2 %dm : !rows
      // O *= alpha only when the m of some row of the warp moved: alpha is
      // exactly 1 elsewhere (or 0 on a row whose O is still 0). The vote makes
      // the branch uniform over the warp.
      %mymove = vector.reduction <or>, %moved : vector<{{NR}}xi1> into i1
      %lanes = arith.constant -1 : i32
      %anymove = nvvm.vote.sync any %lanes, %mymove -> i1
      %accs = scf.if %anymove -> (!ofrag) {
        %ab = vector.shuffle %alpha, %alpha [{{O_ROW_STAT}}] : !rows, !rows
        %accr = arith.mulf %acc, %ab : !ofrag
        scf.yield %accr : !ofrag
      } else {
        scf.yield %acc : !ofrag
      }
      %mes = arith.mulf %msafe, %esr : !rows
      %mb = vector.shuffle %mes, %mes [{{S_ROW_STAT}}] : !rows, !rows
      %negmb = arith.negf %mb : !sfrag
      %earg = math.fma %s4, %ess, %negmb : !sfrag
      // P = exp2 and O += P V in {{PV_CHUNKS}} chunk(s) of {{BNC}} keys: the second
      // chunk's exp2 (MUFU) issues while the first chunk's mma runs. Each
      // thread sums only its own columns of l (`partial`): the quad's four
      // partials are added once, after the loop.
      %la = arith.mulf %lrow, %alpha : !rows
      %e0 = vector.shuffle %earg, %earg [{{S_CHUNK0}}] : !sfrag, !sfrag
      %p0 = func.call @{{NAME}}_exp2(%e0) : (!schunk) -> !schunk
      // P as the A operand of P V: the accumulator layout of two 8-key column
      // tiles is the A layout of one 16-key step, so a conversion suffices.
      %pe0 = arith.truncf %p0 : !schunk to !pchunk
      %vc0 = memref.subview %vbuf[%st, 0, 0] [1, {{BNC}}, {{DV}}] [1, 1, 1] : memref<{{STAGES}}x{{BN}}x{{DVP}}x{{E}}, #ws> to !tvc
      %o0 = "fa.blockwise_gemm"(%pe0, %vc0, %accs) {layout = "mma_m16n8k16"} : (!pchunk, !tvc, !ofrag) -> !ofrag
      %l0 = "fa.blockwise_reduction"(%p0, %la) {kind = "sum", axis = 1 : i64, layout = "mma_m16n8k16", partial}
          : (!schunk, !rows) -> !rows
//#if PV_SPLIT
      %e1 = vector.shuffle %earg, %earg [{{S_CHUNK1}}] : !sfrag, !sfrag
      %p1 = func.call @{{NAME}}_exp2(%e1) : (!schunk) -> !schunk
      %pe1 = arith.truncf %p1 : !schunk to !pchunk
      %cBNC = arith.constant {{BNC}} : index
      %vc1 = memref.subview %vbuf[%st, %cBNC, 0] [1, {{BNC}}, {{DV}}] [1, 1, 1] : memref<{{STAGES}}x{{BN}}x{{DVP}}x{{E}}, #ws> to !tvc
      %o1 = "fa.blockwise_gemm"(%pe1, %vc1, %o0) {layout = "mma_m16n8k16"} : (!pchunk, !tvc, !ofrag) -> !ofrag
      %l1 = "fa.blockwise_reduction"(%p1, %l0) {kind = "sum", axis = 1 : i64, layout = "mma_m16n8k16", partial}
          : (!schunk, !rows) -> !rows
      scf.yield %o1, %mnew, %l1 : !ofrag, !rows, !rows
//#else
      scf.yield %o0, %mnew, %l0 : !ofrag, !rows, !rows
//#endif
    }

    // Epilogue: O / l (0 for a row with no visible key), staged through
    // shared memory (the tiles are free once every warp is past the loop) and
    // stored with 16-byte stores, rows < M.
    nvgpu.device_async_wait %gq {numGroups = 0 : i32}
    // Each thread summed its own columns of l: the quad's four partials make
    // the row's sum.
    %one32 = arith.constant 1 : i32
    %two32 = arith.constant 2 : i32
    %w32 = arith.constant 32 : i32
    %lfin = affine.for %i = 0 to {{NR}} iter_args(%lv = %fin#2) -> (!rows) {
      %x = vector.extract %lv[%i] : f32 from !rows
      %y1, %ok1 = gpu.shuffle xor %x, %one32, %w32 : f32
      %x1 = arith.addf %x, %y1 : f32
      %y2, %ok2 = gpu.shuffle xor %x1, %two32, %w32 : f32
      %x2 = arith.addf %x1, %y2 : f32
      %lv2 = vector.insert %x2, %lv[%i] : f32 into !rows
      affine.yield %lv2 : !rows
    }
    %onerows = arith.constant dense<1.0> : !rows
    %lzero = arith.cmpf oeq, %lfin, %zrows : !rows
    %linv0 = arith.divf %onerows, %lfin : !rows
    %linv = arith.select %lzero, %zrows, %linv0 : vector<{{NR}}xi1>, !rows
    %lb = vector.shuffle %linv, %linv [{{O_ROW_STAT}}] : !rows, !rows
//#if OUT_F32
    %outv = arith.mulf %fin#0, %lb : !ofrag
//#else
    %out = arith.mulf %fin#0, %lb : !ofrag
    %outv = arith.truncf %out : !ofrag to vector<{{NO}}x{{OE}}>
//#endif
    %obuf = memref.view %raw[%c0][] : memref<{{SMEM_BYTES}}xi8, #ws> to memref<{{BM}}x{{DVP}}x{{OE}}, #ws>
    %orowc = arith.constant dense<[{{O_ROWS}}]> : !oidx
    %ocolc = arith.constant dense<[{{O_COLS}}]> : !oidx
    %wrow0 = arith.addi %wrow, %group : index
    gpu.barrier
    affine.for %i = 0 to {{NO_PAIRS}} {
      %e0 = arith.muli %i, %c2 : index
      %e1 = arith.addi %e0, %c1 : index
      %ri = vector.extract %orowc[%e0] : i32 from !oidx
      %ci = vector.extract %ocolc[%e0] : i32 from !oidx
      %rx0 = arith.index_cast %ri : i32 to index
      %cx0 = arith.index_cast %ci : i32 to index
      %rx = arith.addi %rx0, %wrow0 : index
      %cx = arith.addi %cx0, %col0 : index
      %x0 = vector.extract %outv[%e0] : {{OE}} from vector<{{NO}}x{{OE}}>
      %x1 = vector.extract %outv[%e1] : {{OE}} from vector<{{NO}}x{{OE}}>
      %pair = vector.from_elements %x0, %x1 : vector<2x{{OE}}>
      vector.store %pair, %obuf[%rx, %cx] {alignment = {{PAIR_ALIGN}}} : memref<{{BM}}x{{DVP}}x{{OE}}, #ws>, vector<2x{{OE}}>
    }
    gpu.barrier
    // Thread t stores chunks e = t + i * {{THREADS}}: row e / {{OUT_CHUNKS}},
    // {{OUT_VEC}} elements from column {{OUT_VEC}} * (e % {{OUT_CHUNKS}}).
    // The thread id read afresh: values derived from the prologue's would
    // be shared with the Q copy and kept in registers through the loop.
    %ti = llvm.inline_asm has_side_effects "mov.u32 $0, %tid.x;", "=r" : () -> i32
    %m0i = arith.index_cast %m0 : index to i32
    %Mi2 = arith.index_cast %M : index to i32
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
        %chunk = vector.load %obuf[%rx, %cx] {alignment = 16} : memref<{{BM}}x{{DVP}}x{{OE}}, #ws>, vector<{{OUT_VEC}}x{{OE}}>
        vector.store %chunk, %o[%b, %h, %growx, %cx] {alignment = 16} : !O, vector<{{OUT_VEC}}x{{OE}}>
      }
    }
//#if LSE
    // lse = (m + log2 l) * ln 2 in natural log; -inf for a fully masked row.
    %first = arith.cmpi eq, %quad, %c0 : index
    %ln2 = arith.constant 0.69314718055994531 : f32
    %rrowc = arith.constant dense<[{{R_ROWS}}]> : vector<{{NR}}xi32>
    scf.if %first {
      affine.for %i = 0 to {{NR}} {
        %ri = vector.extract %rrowc[%i] : i32 from vector<{{NR}}xi32>
        %r = arith.addi %ri, %row0i : i32
        %rin = arith.cmpi slt, %r, %Mi2 : i32
        scf.if %rin {
          %rx = arith.index_cast %r : i32 to index
          %l = vector.extract %lfin[%i] : f32 from !rows
          %m = vector.extract %fin#1[%i] : f32 from !rows
          %lz = arith.cmpf oeq, %l, %zf : f32
          %lg = math.log2 %l : f32
          %me = arith.mulf %m, %es : f32
          %s = arith.addf %me, %lg : f32
          %ln = arith.mulf %s, %ln2 : f32
          %y = arith.select %lz, %ninf, %ln : f32
          memref.store %y, %lse[%b, %h, %rx] : !LSE
        }
      }
    }
//#endif
    scf.yield
  }
  gpu.terminator
  }
  return
}

// exp2 of a chunk of scores, denormal results flushed to 0
// (ex2.approx.ftz: one MUFU each).
func.func private @{{NAME}}_exp2(%x: !schunk) -> !schunk {
  %p = affine.for %i = 0 to {{NSC}} iter_args(%pv = %x) -> (!schunk) {
    %xi = vector.extract %pv[%i] : f32 from !schunk
    %y = llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" %xi : (f32) -> f32
    %pn = vector.insert %y, %pv[%i] : f32 into !schunk
    affine.yield %pn : !schunk
  }
  return %p : !schunk
}
