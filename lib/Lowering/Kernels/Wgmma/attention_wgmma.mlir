// The FlashAttention-3-style forward kernel for Hopper (sm_90a), as
// fa-lower-attention{target=nvvm-sm90a} specialises it for one
// fa.gridwise_attention with f16/bf16 Q, K, V (docs/lowering.md, "The Hopper
// kernel").
// {{NAME}} is the kernel, {{E}} the element type; tiles are {{BM}} query rows
// x {{BN}} keys, D = {{D}}, Dv = {{DV}}.
//
// A workgroup works on one work item (a query tile of one head), or, when
// PERSISTENT, on several in turn (a grid of one workgroup per SM), and is
// {{WGS}} warpgroups of 128 threads, specialised by role:
//  - warpgroup 0, the producer, gives up registers (setmaxnreg) and one of
//    its threads issues the TMA loads: an item's Q (once the last item's is
//    consumed: qempty), then K and V tiles into a ring of {{STAGES}} stages,
//    each completing on an mbarrier (kfull / vfull) and refilled once every
//    consumer thread has arrived on its kempty / vempty;
//  - warpgroups 1..{{CW}}, the consumers, take the registers the producer gave
//    up; consumer c owns query rows [64c, 64c + 64) of the tile. It computes
//    S = Q K^T and O += P V with wgmma ("wgmma_m64" fragments: the accumulator
//    layout of wgmma m64nNk16, per warp that of mma.sync m16n8k16, so the
//    softmax is the one of the mma.sync kernel) and P fed from registers.
//
// Shared memory (dynamic, {{SMEM_BYTES}} bytes, 1024-aligned): Q as
// {{DC}} chunks of [{{BM}} rows x 64 columns], then each stage's K
// ({{DC}} chunks of [{{BN}} x 64]) and V ({{DVC}} chunks of [{{BN}} x 64]),
// O's own buffer (O_BUFFER: {{DVC}} chunks of [{{BM}} x 64]), then the
// mbarriers. A chunk's rows are 128 bytes, stored with TMA's
// 128-byte swizzle (the layout the wgmma descriptors read); columns past D of
// the last chunk, and rows past the tensor, are TMA's zero fill.
//#vars NAME E BM BN D DV WGS STAGES CW SMEM_BYTES DC DVC P QCS KCS KV_CHUNKS NS NO OE ARGS THREADS
//#vars CTAS_PER_SM KV_ROW_BYTES L2_BUDGET OFF_KV OFF_BAR QEMPTY CONSUMER_THREADS LAUNCH_REGS
//#vars PRODUCER_REGS Q_BYTES K_BYTES V_BYTES CONSUMER_REGS EXP_SCALE SOFTMAX_EXTRA_ARGS
//#vars SOFTMAX_EXTRA_TYPES O_ROWS O_COLS OFF_O NO_PAIRS PAIR_ALIGN V_ZERO_PER_ROW Q_CHUNK_BYTES
//#vars KV_CHUNK_BYTES SOFTMAX_EXTRA_PARAMS S_COLS S_COLS_MINUS_ROWS CAUSAL_OFFSET S_ROWS
//#vars SCORE_SCALE FAST_LIMIT MAX_SLACK NR WAIT_HELPERS SUMMARY_BEGIN SUMMARY_END DVC_PIECES WG_PIECES
//#flags DECLARE_SMS TMA_STORE PERSISTENT PAIRED CAUSAL SYNC_PV FAST_SOFTMAX KVLEN OUT_F32 O_BUFFER
//#flags LSE BIAS WORK_ORDER DOC_RUNS

#{{P}}ws = #gpu.address_space<workgroup>
!{{P}}tq = memref<{{DC}}x64x64x{{E}}, strided<[{{QCS}}, 64, 1], offset: ?>, #{{P}}ws>
!{{P}}tk = memref<{{DC}}x{{BN}}x64x{{E}}, strided<[{{KCS}}, 64, 1], offset: ?>, #{{P}}ws>
!{{P}}tv = memref<{{DVC}}x{{BN}}x64x{{E}}, strided<[{{KCS}}, 64, 1], offset: ?>, #{{P}}ws>
!{{P}}tkv = memref<{{STAGES}}x{{KV_CHUNKS}}x{{BN}}x64x{{E}}, #{{P}}ws>
!{{P}}sfrag = vector<{{NS}}xf32>
!{{P}}schunk = vector<{{NS}}xf32>
!{{P}}pfrag = vector<{{NS}}x{{E}}>
!{{P}}ofrag = vector<{{NO}}xf32>
!{{P}}rows = vector<2xf32>
!{{P}}sidx = vector<{{NS}}xi32>
!{{P}}oidx = vector<{{NO}}xi32>
!{{P}}map = !nvgpu.tensormap.descriptor<tensor = memref<1x1x{{BM}}x64x{{E}}, 3>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
!{{P}}omap = !nvgpu.tensormap.descriptor<tensor = memref<1x1x64x64x{{OE}}, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!{{P}}kvmap = !nvgpu.tensormap.descriptor<tensor = memref<1x1x{{BN}}x64x{{E}}, 3>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>

//#if DECLARE_SMS
// The runtime's count of the device's SMs (fa-c/Runtime.h), declared by the
// first persistent kernel of an op.
func.func private @faRuntimeGetMultiprocessorCount() -> i32

//#endif
memref.global "public" @{{NAME}}_smem : memref<0xi8, #{{P}}ws> {alignment = 1024 : i64}

func.func private @{{NAME}}({{ARGS}}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %B = memref.dim %q, %c0 : !Q
  %Hq = memref.dim %q, %c1 : !Q
  %M = memref.dim %q, %c2 : !Q
  %Hkv = memref.dim %v, %c1 : !V
  %N = memref.dim %v, %c2 : !V
  %G = arith.divui %Hq, %Hkv : index
  %cBM = arith.constant {{BM}} : index
  %cBN = arith.constant {{BN}} : index
  %MT = arith.ceildivui %M, %cBM : index
  %nth = arith.constant {{THREADS}} : index
  %smem = arith.constant {{SMEM_BYTES}} : i32
{{SUMMARY_BEGIN}}
  // Tensor maps of Q, K and V (TMA boxes of one (batch, head), 64 columns);
  // the kernel takes them as pointers to the maps in device memory.
  %qu = memref.cast %q : !Q to memref<*x{{E}}>
  // Without keys (N = 0) no key tile is loaded, but the maps must still
  // encode: K and V are viewed with at least one row.
  %N1 = arith.maxui %N, %c1 : index
  %kb, %koff, %ksz:4, %kst:4 = memref.extract_strided_metadata %k : !K -> memref<{{E}}>, index, index, index, index, index, index, index, index, index
  %k1 = memref.reinterpret_cast %k to offset: [%koff], sizes: [%ksz#0, %ksz#1, %N1, %ksz#3], strides: [%kst#0, %kst#1, %kst#2, 1] : !K to !K
  %vb, %voff, %vsz:4, %vst:4 = memref.extract_strided_metadata %v : !V -> memref<{{E}}>, index, index, index, index, index, index, index, index, index
  %v1 = memref.reinterpret_cast %v to offset: [%voff], sizes: [%vsz#0, %vsz#1, %N1, %vsz#3], strides: [%vst#0, %vst#1, %vst#2, 1] : !V to !V
  %ku = memref.cast %k1 : !K to memref<*x{{E}}>
  %vu = memref.cast %v1 : !V to memref<*x{{E}}>
  %qmap = nvgpu.tma.create.descriptor %qu box[%c1, %c1, %cBM, %c64] : memref<*x{{E}}> -> !{{P}}map
  %kmap = nvgpu.tma.create.descriptor %ku box[%c1, %c1, %cBN, %c64] : memref<*x{{E}}> -> !{{P}}kvmap
  %vmap = nvgpu.tma.create.descriptor %vu box[%c1, %c1, %cBN, %c64] : memref<*x{{E}}> -> !{{P}}kvmap
  %qmp = builtin.unrealized_conversion_cast %qmap : !{{P}}map to !llvm.ptr
//#if TMA_STORE
  %ou = memref.cast %o : !O to memref<*x{{OE}}>
  %omap = nvgpu.tma.create.descriptor %ou box[%c1, %c1, %c64, %c64] : memref<*x{{OE}}> -> !{{P}}omap
  %omp = builtin.unrealized_conversion_cast %omap : !{{P}}omap to !llvm.ptr
//#endif
  %kmp = builtin.unrealized_conversion_cast %kmap : !{{P}}kvmap to !llvm.ptr
  %vmp = builtin.unrealized_conversion_cast %vmap : !{{P}}kvmap to !llvm.ptr
  // Work items are (query tile, batch, head) triples, %tile = 0 .. B Hq MT - 1
  // (attention_wgmma_tile; with a data mask's work order, its records: a
  // packed document's rows are items of their own), a workgroup each; persistent: at most
  // {{CTAS_PER_SM}} workgroup(s) per SM of the device, and workgroup %bid
  // takes items %bid, %bid + %gx, ... (its next Q and K / V load during its
  // epilogue).
  %BH = arith.muli %B, %Hq : index
  %nblk = arith.muli %BH, %MT : index
//#if PERSISTENT
  %sms32 = func.call @faRuntimeGetMultiprocessorCount() : () -> i32
  %sms = arith.index_cast %sms32 : i32 to index
  %perSm = arith.constant {{CTAS_PER_SM}} : index
  %cap = arith.muli %sms, %perSm : index
//#if PAIRED
  // Under a causal mask, where there are more items than workgroups, a
  // workgroup takes its items in groups of %S = 2 (a long query tile and a
  // short one: attention_wgmma_tile), groups %bid, %bid + %gx, ...: every
  // group visits about the same number of key tiles (bench/tune_wgmma.txt,
  // step 17).
  %more = arith.cmpi ugt, %nblk, %cap : index
  %S = arith.select %more, %c2, %c1 : index
  %ngroups = arith.ceildivui %nblk, %S : index
  %grid = arith.minui %ngroups, %cap : index
//#else
  %grid = arith.minui %nblk, %cap : index
//#endif
//#else
  %grid = arith.addi %nblk, %c0 : index
//#endif
//#if CAUSAL
//#if !PAIRED
  // (Groups of neighbouring heads whose K and V fit L2: attention_wgmma_tile.)
  %kvrow = arith.constant {{KV_ROW_BYTES}} : index
  %kvhead = arith.muli %N, %kvrow : index
  %kvhead1 = arith.maxui %kvhead, %c1 : index
  %l2 = arith.constant {{L2_BUDGET}} : index
  %perChunk0 = arith.divui %l2, %kvhead1 : index
  %perChunk = arith.maxui %perChunk0, %c1 : index
//#endif
//#endif
  gpu.launch blocks(%bid, %u1, %u2) in (%gx = %grid, %gy = %c1, %gz = %c1)
             threads(%tid, %ty, %tz) in (%sx = %nth, %sy = %c1, %sz = %c1)
             dynamic_shared_memory_size %smem {
  scf.execute_region {
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %zf = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32

    // Shared memory: Q | K, V of each stage | O (where it has its own
    // buffer) | mbarriers (qfull, then per stage kfull, vfull, kempty,
    // vempty, then qempty).
    %raw0 = memref.get_global @{{NAME}}_smem : memref<0xi8, #{{P}}ws>
    %raw = memref.reinterpret_cast %raw0 to offset: [0], sizes: [{{SMEM_BYTES}}], strides: [1]
        : memref<0xi8, #{{P}}ws> to memref<{{SMEM_BYTES}}xi8, #{{P}}ws>
    %qbuf = memref.view %raw[%c0][] : memref<{{SMEM_BYTES}}xi8, #{{P}}ws> to memref<{{DC}}x{{BM}}x64x{{E}}, #{{P}}ws>
    %offKV = arith.constant {{OFF_KV}} : index
    %kvbuf = memref.view %raw[%offKV][] : memref<{{SMEM_BYTES}}xi8, #{{P}}ws> to !{{P}}tkv
    %sbase = memref.extract_aligned_pointer_as_index %raw : memref<{{SMEM_BYTES}}xi8, #{{P}}ws> -> index
    %sbase64 = arith.index_cast %sbase : index to i64
    %offBar = arith.constant {{OFF_BAR}} : i64
    %bar0 = arith.addi %sbase64, %offBar : i64
    %qfull = llvm.inttoptr %bar0 : i64 to !llvm.ptr<3>
    %cQe = arith.constant {{QEMPTY}} : index
    %qempty = func.call @{{NAME}}_bar(%bar0, %c0, %cQe) : (i64, index, index) -> !llvm.ptr<3>

    %isProducer = arith.cmpi ult, %tid, %c128 : index
    %isFirst = arith.cmpi eq, %tid, %c0 : index
    %c3b = arith.constant 3 : index
    %cSt = arith.constant {{STAGES}} : index
    // try_wait's suspend-time hint (ns) before it polls again.
    %ticks = arith.constant 1000000 : i32
    %i1 = arith.constant 1 : i32
    %cons32 = arith.constant {{CONSUMER_THREADS}} : i32
    scf.if %isFirst {
      nvvm.mbarrier.init %qfull, %i1 : !llvm.ptr<3>, i32
      nvvm.mbarrier.init %qempty, %cons32 : !llvm.ptr<3>, i32
      affine.for %st = 0 to {{STAGES}} {
        %kf = func.call @{{NAME}}_bar(%bar0, %st, %c1) : (i64, index, index) -> !llvm.ptr<3>
        %vf = func.call @{{NAME}}_bar(%bar0, %st, %c2) : (i64, index, index) -> !llvm.ptr<3>
        %ke = func.call @{{NAME}}_bar(%bar0, %st, %c3b) : (i64, index, index) -> !llvm.ptr<3>
        %ve = func.call @{{NAME}}_bar(%bar0, %st, %c4) : (i64, index, index) -> !llvm.ptr<3>
        nvvm.mbarrier.init %kf, %i1 : !llvm.ptr<3>, i32
        nvvm.mbarrier.init %vf, %i1 : !llvm.ptr<3>, i32
        nvvm.mbarrier.init %ke, %cons32 : !llvm.ptr<3>, i32
        nvvm.mbarrier.init %ve, %cons32 : !llvm.ptr<3>, i32
      }
      nvvm.fence.mbarrier.init
    }
    // The barrier carries the kernel's launch bounds (fa-gpu-kernel-bounds
    // moves them onto the outlined kernel): {{CTAS_PER_SM}} workgroup(s) per SM,
    // {{LAUNCH_REGS}} registers per thread at launch, the pool that setmaxnreg
    // redistributes.
    gpu.barrier {fa.kernel_bounds = {nvvm.maxnreg = {{LAUNCH_REGS}} : i32, nvvm.minctasm = {{CTAS_PER_SM}} : i32}}

    // Both roles walk the same work items: this workgroup's %item-th is
    // %bid + %item %gx; %kv0 counts the key tiles before its first (the ring's
    // stage and phase of key tile t are those of %kv0 + t: @{{NAME}}_stage).
    // (i32 counters: fewer registers than index's 64 bits.)
    %z32 = arith.constant 0 : i32
    %bid32 = arith.index_castui %bid : index to i32
    %gx32 = arith.index_castui %gx : index to i32
//#if PERSISTENT
//#if PAIRED
//#if WORK_ORDER
    // The work order's records after the key-range table's entries and the
    // item count (attention_key_table.mlir): %nblk, or more where work items
    // end at documents' ends.
    %wo_c4 = arith.constant 4 : index
    %wo_g = arith.constant 64 : index
    %wo_R = arith.ceildivui %M, %wo_g : index
    %wo_BH = arith.muli %B, %Hq : index
    %wo_e = arith.muli %wo_BH, %wo_R : index
    %wo_cnt = arith.muli %wo_e, %wo_c4 : index
    %wo_recs = arith.addi %wo_cnt, %wo_c4 : index
    %wo_n32 = memref.load %keytab[%wo_cnt] : memref<?xi32>
    %wo_n = arith.index_castui %wo_n32 : i32 to index
    %nitm = arith.addi %wo_n, %c0 : index
    %ngrpw = arith.ceildivui %nitm, %S : index
//#else
    %nitm = arith.addi %nblk, %c0 : index
    %ngrpw = arith.addi %ngroups, %c0 : index
//#endif
    // Groups %bid, %bid + %gx, ... of %S items; the last may be short.
    %Slog = arith.subi %S, %c1 : index
    %Slog32 = arith.index_castui %Slog : index to i32
    %gleft = arith.subi %ngrpw, %bid : index
    %ngrp = arith.ceildivui %gleft, %gx : index
    %ngrp1 = arith.subi %ngrp, %c1 : index
    %lastg0 = arith.muli %ngrp1, %gx : index
    %lastg = arith.addi %lastg0, %bid : index
    %lastAt = arith.muli %lastg, %S : index
    %lastLeft = arith.subi %nitm, %lastAt : index
    %lastN = arith.minui %lastLeft, %S : index
    %before = arith.muli %ngrp1, %S : index
    %nitemsx = arith.addi %before, %lastN : index
//#else
    %left = arith.subi %nblk, %bid : index
    %nitemsx = arith.ceildivui %left, %gx : index
//#endif
    %nitems = arith.index_cast %nitemsx : index to i32
//#else
    %nitems = arith.constant 1 : i32
//#endif
    scf.if %isProducer {
      // The producer: one thread issues every copy.
      nvvm.setmaxregister decrease {{PRODUCER_REGS}}
      scf.if %isFirst {
        %qbytes = arith.constant {{Q_BYTES}} : i32
        %kbytes = arith.constant {{K_BYTES}} : i32
        %vbytes = arith.constant {{V_BYTES}} : i32
        %pdone = scf.for %item32 = %z32 to %nitems step %i1 iter_args(%kv032 = %z32) -> (i32) : i32 {
//#include attention_wgmma_tile
          %b32 = arith.index_cast %b : index to i32
          %h32 = arith.index_cast %h : index to i32
          %hk32 = arith.index_cast %hk : index to i32
          %m032 = arith.index_cast %m0 : index to i32
          // Q of the previous item is consumed (a fresh barrier counts as
          // having completed the phase before its first).
          %qpar = arith.andi %item32, %i1 : i32
          %qepar = arith.xori %qpar, %i1 : i32
          nvvm.mbarrier.try_wait.parity %qempty, %qepar, %ticks : !llvm.ptr<3>, i32, i32
          nvvm.mbarrier.arrive.expect_tx %qfull, %qbytes : !llvm.ptr<3>, i32
          affine.for %ch = 0 to {{DC}} {
            %dst = func.call @{{NAME}}_chunk(%sbase64, %ch, %c0, %c0) : (i64, index, index, index) -> !llvm.ptr<7>
            %col = arith.muli %ch, %c64 : index
            %col32 = arith.index_cast %col : index to i32
            nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %qmp, %qfull, box[%col32, %m032, %h32, %b32]
                : !llvm.ptr<7>, !llvm.ptr
          }
          scf.for %t = %c0 to %NT step %c1 {
            // Stage s, its u-th use: wait until use u - 1 is consumed.
            %g = arith.addi %kv0, %t : index
            %st, %par = func.call @{{NAME}}_stage(%g, %cSt) : (index, index) -> (index, i32)
            %epar = arith.xori %par, %i1 : i32
            %tofs = arith.muli %t, %cBN : index
            %n0 = arith.addi %N0, %tofs : index
            %n032 = arith.index_cast %n0 : index to i32
            %kf = func.call @{{NAME}}_bar(%bar0, %st, %c1) : (i64, index, index) -> !llvm.ptr<3>
            %vf = func.call @{{NAME}}_bar(%bar0, %st, %c2) : (i64, index, index) -> !llvm.ptr<3>
            %ke = func.call @{{NAME}}_bar(%bar0, %st, %c3b) : (i64, index, index) -> !llvm.ptr<3>
            %ve = func.call @{{NAME}}_bar(%bar0, %st, %c4) : (i64, index, index) -> !llvm.ptr<3>
            nvvm.mbarrier.try_wait.parity %ke, %epar, %ticks : !llvm.ptr<3>, i32, i32
            nvvm.mbarrier.arrive.expect_tx %kf, %kbytes : !llvm.ptr<3>, i32
            affine.for %ch = 0 to {{DC}} {
              %dst = func.call @{{NAME}}_chunk(%sbase64, %ch, %st, %c1) : (i64, index, index, index) -> !llvm.ptr<7>
              %col = arith.muli %ch, %c64 : index
              %col32 = arith.index_cast %col : index to i32
              nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %kmp, %kf, box[%col32, %n032, %hk32, %b32]
                  : !llvm.ptr<7>, !llvm.ptr
            }
            nvvm.mbarrier.try_wait.parity %ve, %epar, %ticks : !llvm.ptr<3>, i32, i32
            nvvm.mbarrier.arrive.expect_tx %vf, %vbytes : !llvm.ptr<3>, i32
            affine.for %ch = 0 to {{DVC}} {
              %dst = func.call @{{NAME}}_chunk(%sbase64, %ch, %st, %c2) : (i64, index, index, index) -> !llvm.ptr<7>
              %col = arith.muli %ch, %c64 : index
              %col32 = arith.index_cast %col : index to i32
              nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %vmp, %vf, box[%col32, %n032, %hk32, %b32]
                  : !llvm.ptr<7>, !llvm.ptr
            }
          }
          %kv1 = arith.addi %kv032, %NT32 : i32
          scf.yield %kv1 : i32
        }
      }
    } else {
      nvvm.setmaxregister increase {{CONSUMER_REGS}}
      // Consumer %cwg owns rows [64 cwg, 64 cwg + 64) of the tile; warp %cwarp
      // of it rows 16 cwarp.. of those (the wgmma accumulator layout).
      %ctid = arith.subi %tid, %c128 : index
      %cwg = arith.divui %ctid, %c128 : index
      %wtid = arith.remui %ctid, %c128 : index
      %lane = arith.remui %wtid, %c32 : index
      %cwarp = arith.divui %wtid, %c32 : index
      %group = arith.divui %lane, %c4 : index
      %quad = arith.remui %lane, %c4 : index
      %cwrow = arith.muli %cwg, %c64 : index
      %c16 = arith.constant 16 : index
      %wrow1 = arith.muli %cwarp, %c16 : index
      %wrow = arith.addi %cwrow, %wrow1 : index
      // Named barrier 1 + cwg: the consumer warpgroup's 128 threads.
      %cwg32 = arith.index_cast %cwg : index to i32
      %barId = arith.addi %cwg32, %i1 : i32
      %wgThreads = arith.constant 128 : i32
      %qs = memref.subview %qbuf[0, %cwrow, 0] [{{DC}}, 64, 64] [1, 1, 1]
          : memref<{{DC}}x{{BM}}x64x{{E}}, #{{P}}ws> to !{{P}}tq
      %upoison = ub.poison : !{{P}}ofrag
      %rpoison = ub.poison : !{{P}}rows
      %spoison = ub.poison : !{{P}}sfrag
      %o_init = "fa.blockwise_fill"(%upoison, %zf) {layout = "wgmma_m64"} : (!{{P}}ofrag, f32) -> !{{P}}ofrag
      %m_init = "fa.blockwise_fill"(%rpoison, %ninf) {layout = "wgmma_m64"} : (!{{P}}rows, f32) -> !{{P}}rows
      %l_init = "fa.blockwise_fill"(%rpoison, %zf) {layout = "wgmma_m64"} : (!{{P}}rows, f32) -> !{{P}}rows
      %s_zero = "fa.blockwise_fill"(%spoison, %zf) {layout = "wgmma_m64"} : (!{{P}}sfrag, f32) -> !{{P}}sfrag
      %zrows = vector.broadcast %zf : f32 to !{{P}}rows
      %ninfr = vector.broadcast %ninf : f32 to !{{P}}rows
      %es = arith.constant {{EXP_SCALE}} : f32
      %esr = vector.broadcast %es : f32 to !{{P}}rows
      %wfirst = arith.cmpi eq, %wtid, %c0 : index
      %cdone = scf.for %item32 = %z32 to %nitems step %i1 iter_args(%kv032 = %z32) -> (i32) : i32 {
//#include attention_wgmma_tile
      %row0a = arith.addi %m0, %wrow : index
      %row0 = arith.addi %row0a, %group : index
      %col0 = arith.muli %quad, %c2 : index
      %row0i = arith.index_cast %row0 : index to i32
      %col0i = arith.index_cast %col0 : index to i32
      %ntMinus1 = arith.subi %NT, %c1 : index
      %any = arith.cmpi ugt, %NT, %c0 : index
      %qpar = arith.andi %item32, %i1 : i32
      nvvm.mbarrier.try_wait.parity %qfull, %qpar, %ticks : !llvm.ptr<3>, i32, i32

//#if SYNC_PV
      // Without the overlap (many consumers, too few registers to keep P(t-1)
      // beside S(t)): per tile S = Q K(t)^T, its softmax, O *= alpha, then
      // O += P(t) V(t); the warpgroups interleave instead.
      %fin:3 = scf.if %any -> (!{{P}}ofrag, !{{P}}rows, !{{P}}rows) {
        %lp:3 = scf.for %t = %c0 to %NT step %c1
            iter_args(%acc = %o_init, %mrow = %m_init, %lrow = %l_init)
            -> (!{{P}}ofrag, !{{P}}rows, !{{P}}rows) {
          %g = arith.addi %kv0, %t : index
          %st, %par = func.call @{{NAME}}_stage(%g, %cSt) : (index, index) -> (index, i32)
          %tofs = arith.muli %t, %cBN : index
          %n0 = arith.addi %N0, %tofs : index
          %kf = func.call @{{NAME}}_bar(%bar0, %st, %c1) : (i64, index, index) -> !llvm.ptr<3>
          %ke = func.call @{{NAME}}_bar(%bar0, %st, %c3b) : (i64, index, index) -> !llvm.ptr<3>
          %vf = func.call @{{NAME}}_bar(%bar0, %st, %c2) : (i64, index, index) -> !llvm.ptr<3>
          %ve = func.call @{{NAME}}_bar(%bar0, %st, %c4) : (i64, index, index) -> !llvm.ptr<3>
          nvvm.mbarrier.try_wait.parity %kf, %par, %ticks : !llvm.ptr<3>, i32, i32
          %ks = func.call @{{NAME}}_k_tile(%kvbuf, %st) : (!{{P}}tkv, index) -> !{{P}}tk
          %s = "fa.blockwise_gemm"(%qs, %ks, %s_zero) {transpose_b, layout = "wgmma_m64"}
              : (!{{P}}tq, !{{P}}tk, !{{P}}sfrag) -> !{{P}}sfrag
//#if FAST_SOFTMAX
          // Past the first tile, the softmax without the row max; where it
          // is not valid, S again (K(t) is still there: released below) and
          // the whole softmax. (The whole softmax is called in two branches,
          // on S again and on the first tile's S, so that no path keeps S
          // alive beside the fast softmax's P: 104 registers hold one.)
          %later = arith.cmpi ugt, %t, %c0 : index
          %pf, %mnew, %lnew, %alpha, %anymove = scf.if %later -> (!{{P}}schunk, !{{P}}rows, !{{P}}rows, !{{P}}rows, i1) {
            %fp, %fl, %mine = func.call @{{NAME}}_softmax_fast(%s, %n0, %mrow, %lrow, %row0i, %col0i, %nvalid, %m0{{SOFTMAX_EXTRA_ARGS}})
                : (!{{P}}sfrag, index, !{{P}}rows, !{{P}}rows, i32, i32, index, index{{SOFTMAX_EXTRA_TYPES}}) -> (!{{P}}schunk, !{{P}}rows, i1)
            // The whole warpgroup takes one branch: S is its wgmma.
            %fok = func.call @{{NAME}}_wg_all(%mine, %barId) : (i1, i32) -> i1
            %r:5 = scf.if %fok -> (!{{P}}schunk, !{{P}}rows, !{{P}}rows, !{{P}}rows, i1) {
              %ones = arith.constant dense<1.0> : !{{P}}rows
              %still = arith.constant false
              scf.yield %fp, %mrow, %fl, %ones, %still : !{{P}}schunk, !{{P}}rows, !{{P}}rows, !{{P}}rows, i1
            } else {
              %s2 = "fa.blockwise_gemm"(%qs, %ks, %s_zero) {transpose_b, layout = "wgmma_m64"}
                  : (!{{P}}tq, !{{P}}tk, !{{P}}sfrag) -> !{{P}}sfrag
              %x:5 = func.call @{{NAME}}_softmax(%s2, %n0, %mrow, %lrow, %row0i, %col0i, %nvalid, %m0{{SOFTMAX_EXTRA_ARGS}})
                  : (!{{P}}sfrag, index, !{{P}}rows, !{{P}}rows, i32, i32, index, index{{SOFTMAX_EXTRA_TYPES}}) -> (!{{P}}schunk, !{{P}}rows, !{{P}}rows, !{{P}}rows, i1)
              scf.yield %x#0, %x#1, %x#2, %x#3, %x#4 : !{{P}}schunk, !{{P}}rows, !{{P}}rows, !{{P}}rows, i1
            }
            scf.yield %r#0, %r#1, %r#2, %r#3, %r#4 : !{{P}}schunk, !{{P}}rows, !{{P}}rows, !{{P}}rows, i1
          } else {
            %x:5 = func.call @{{NAME}}_softmax(%s, %n0, %mrow, %lrow, %row0i, %col0i, %nvalid, %m0{{SOFTMAX_EXTRA_ARGS}})
                : (!{{P}}sfrag, index, !{{P}}rows, !{{P}}rows, i32, i32, index, index{{SOFTMAX_EXTRA_TYPES}}) -> (!{{P}}schunk, !{{P}}rows, !{{P}}rows, !{{P}}rows, i1)
            scf.yield %x#0, %x#1, %x#2, %x#3, %x#4 : !{{P}}schunk, !{{P}}rows, !{{P}}rows, !{{P}}rows, i1
          }
          %karr = nvvm.mbarrier.arrive %ke : !llvm.ptr<3> -> i64
//#else
          %karr = nvvm.mbarrier.arrive %ke : !llvm.ptr<3> -> i64
          %pf, %mnew, %lnew, %alpha, %anymove = func.call @{{NAME}}_softmax(%s, %n0, %mrow, %lrow, %row0i, %col0i, %nvalid, %m0{{SOFTMAX_EXTRA_ARGS}})
              : (!{{P}}sfrag, index, !{{P}}rows, !{{P}}rows, i32, i32, index, index{{SOFTMAX_EXTRA_TYPES}}) -> (!{{P}}schunk, !{{P}}rows, !{{P}}rows, !{{P}}rows, i1)
//#endif
//#include attention_rescale
          %pnew = arith.truncf %pf : !{{P}}schunk to !{{P}}pfrag
          nvvm.mbarrier.try_wait.parity %vf, %par, %ticks : !llvm.ptr<3>, i32, i32
//#if KVLEN
          %tlast = arith.cmpi eq, %t, %ntMinus1 : index
          scf.if %tlast {
            func.call @{{NAME}}_zero_v(%kvbuf, %st, %n0, %nvalid, %ctid)
                : (!{{P}}tkv, index, index, index, index) -> ()
          }
//#endif
          %vs = func.call @{{NAME}}_v_tile(%kvbuf, %st) : (!{{P}}tkv, index) -> !{{P}}tv
          %of = "fa.blockwise_gemm"(%pnew, %vs, %accs) {layout = "wgmma_m64"}
              : (!{{P}}pfrag, !{{P}}tv, !{{P}}ofrag) -> !{{P}}ofrag
          %varr = nvvm.mbarrier.arrive %ve : !llvm.ptr<3> -> i64
          scf.yield %of, %mnew, %lnew : !{{P}}ofrag, !{{P}}rows, !{{P}}rows
        }
//#if PERSISTENT
        %qarr = nvvm.mbarrier.arrive %qempty : !llvm.ptr<3> -> i64
//#endif
        scf.yield %lp#0, %lp#1, %lp#2 : !{{P}}ofrag, !{{P}}rows, !{{P}}rows
//#else
      // FlashAttention-3's order within a warpgroup: S(t) = Q K(t)^T and
      // O += P(t-1) V(t-1) are issued together (two wgmma groups); the
      // softmax of S(t) runs while P V still runs on the tensor cores, and
      // O is rescaled once that group is done. Tile 0's S before the loop,
      // the last tile's P V after it.
      %fin:3 = scf.if %any -> (!{{P}}ofrag, !{{P}}rows, !{{P}}rows) {
        %st0, %par0 = func.call @{{NAME}}_stage(%kv0, %cSt) : (index, index) -> (index, i32)
        %kf0 = func.call @{{NAME}}_bar(%bar0, %st0, %c1) : (i64, index, index) -> !llvm.ptr<3>
        %ke0 = func.call @{{NAME}}_bar(%bar0, %st0, %c3b) : (i64, index, index) -> !llvm.ptr<3>
        nvvm.mbarrier.try_wait.parity %kf0, %par0, %ticks : !llvm.ptr<3>, i32, i32
        %k0s = func.call @{{NAME}}_k_tile(%kvbuf, %st0) : (!{{P}}tkv, index) -> !{{P}}tk
        %s0 = "fa.blockwise_gemm"(%qs, %k0s, %s_zero) {transpose_b, layout = "wgmma_m64"}
            : (!{{P}}tq, !{{P}}tk, !{{P}}sfrag) -> !{{P}}sfrag
        %k0arr = nvvm.mbarrier.arrive %ke0 : !llvm.ptr<3> -> i64
        %sm0:5 = func.call @{{NAME}}_softmax(%s0, %N0, %m_init, %l_init, %row0i, %col0i, %nvalid, %m0{{SOFTMAX_EXTRA_ARGS}})
            : (!{{P}}sfrag, index, !{{P}}rows, !{{P}}rows, i32, i32, index, index{{SOFTMAX_EXTRA_TYPES}}) -> (!{{P}}schunk, !{{P}}rows, !{{P}}rows, !{{P}}rows, i1)
        %p0 = arith.truncf %sm0#0 : !{{P}}schunk to !{{P}}pfrag

        %lp:4 = scf.for %t = %c1 to %NT step %c1
            iter_args(%oprev = %o_init, %mrow = %sm0#1, %lrow = %sm0#2, %pprev = %p0)
            -> (!{{P}}ofrag, !{{P}}rows, !{{P}}rows, !{{P}}pfrag) {
          %g = arith.addi %kv0, %t : index
          %gp = arith.subi %g, %c1 : index
          %st, %par = func.call @{{NAME}}_stage(%g, %cSt) : (index, index) -> (index, i32)
          %stp, %parp = func.call @{{NAME}}_stage(%gp, %cSt) : (index, index) -> (index, i32)
          %tofs = arith.muli %t, %cBN : index
          %n0 = arith.addi %N0, %tofs : index
          %kf = func.call @{{NAME}}_bar(%bar0, %st, %c1) : (i64, index, index) -> !llvm.ptr<3>
          %ke = func.call @{{NAME}}_bar(%bar0, %st, %c3b) : (i64, index, index) -> !llvm.ptr<3>
          %vfp = func.call @{{NAME}}_bar(%bar0, %stp, %c2) : (i64, index, index) -> !llvm.ptr<3>
          %vep = func.call @{{NAME}}_bar(%bar0, %stp, %c4) : (i64, index, index) -> !llvm.ptr<3>
          nvvm.mbarrier.try_wait.parity %kf, %par, %ticks : !llvm.ptr<3>, i32, i32
          %ks = func.call @{{NAME}}_k_tile(%kvbuf, %st) : (!{{P}}tkv, index) -> !{{P}}tk
          %sf = "fa.blockwise_gemm"(%qs, %ks, %s_zero) {transpose_b, layout = "wgmma_m64", async}
              : (!{{P}}tq, !{{P}}tk, !{{P}}sfrag) -> !{{P}}sfrag
          nvvm.mbarrier.try_wait.parity %vfp, %parp, %ticks : !llvm.ptr<3>, i32, i32
          %vs = func.call @{{NAME}}_v_tile(%kvbuf, %stp) : (!{{P}}tkv, index) -> !{{P}}tv
          %of = "fa.blockwise_gemm"(%pprev, %vs, %oprev) {layout = "wgmma_m64", async}
              : (!{{P}}pfrag, !{{P}}tv, !{{P}}ofrag) -> !{{P}}ofrag
          // S(t) is ready once at most the P V group is pending.
          %s = func.call @{{NAME}}_wait1_s(%sf) : (!{{P}}sfrag) -> !{{P}}sfrag
          %karr = nvvm.mbarrier.arrive %ke : !llvm.ptr<3> -> i64
          %pf, %mnew, %lnew, %alpha, %anymove = func.call @{{NAME}}_softmax(%s, %n0, %mrow, %lrow, %row0i, %col0i, %nvalid, %m0{{SOFTMAX_EXTRA_ARGS}})
              : (!{{P}}sfrag, index, !{{P}}rows, !{{P}}rows, i32, i32, index, index{{SOFTMAX_EXTRA_TYPES}}) -> (!{{P}}schunk, !{{P}}rows, !{{P}}rows, !{{P}}rows, i1)
          // The softmax in a basic block of its own, ended by a branch on its
          // row sums that is never taken (they are not negative): ptxas
          // hoists a wgmma wait to early in its block and sinks what the
          // block's end does not need past the wait, so that the softmax
          // would not overlap P V.
          %lr0 = vector.extract %lnew[0] : f32 from !{{P}}rows
          %lr1 = vector.extract %lnew[1] : f32 from !{{P}}rows
          %lrs = arith.addf %lr0, %lr1 : f32
          %never = arith.cmpf olt, %lrs, %zf : f32
          scf.if %never {
            %ns = arith.constant 1 : i32
            nvvm.nanosleep %ns
          }
          %acc = func.call @{{NAME}}_wait0_o(%of) : (!{{P}}ofrag) -> !{{P}}ofrag
          // P(t) packed (cvt.rn.{{E}}x2.f32 in PTX) once P(t-1) V(t-1) is done
          // reading its registers: LLVM leaves it here or moves it to the top
          // of the next iteration. Packed before the wait, into the registers
          // P V still reads, ptxas would serialize the wgmma pipeline (info
          // C7513; hopper-ptx.test).
          %pnew = arith.truncf %pf : !{{P}}schunk to !{{P}}pfrag
          %varr = nvvm.mbarrier.arrive %vep : !llvm.ptr<3> -> i64
          // O *= alpha of tile t, before P(t) V(t) adds to it.
//#include attention_rescale
          scf.yield %accs, %mnew, %lnew, %pnew : !{{P}}ofrag, !{{P}}rows, !{{P}}rows, !{{P}}pfrag
        }

//#if PERSISTENT
        // Every S is done: the producer may load the next item's Q.
        %qarr = nvvm.mbarrier.arrive %qempty : !llvm.ptr<3> -> i64
//#endif
        // The last tile's P V.
        %gl0 = arith.addi %kv0, %NT : index
        %gl = arith.subi %gl0, %c1 : index
        %stl, %parl = func.call @{{NAME}}_stage(%gl, %cSt) : (index, index) -> (index, i32)
        %vfl = func.call @{{NAME}}_bar(%bar0, %stl, %c2) : (i64, index, index) -> !llvm.ptr<3>
        %vel = func.call @{{NAME}}_bar(%bar0, %stl, %c4) : (i64, index, index) -> !llvm.ptr<3>
        nvvm.mbarrier.try_wait.parity %vfl, %parl, %ticks : !llvm.ptr<3>, i32, i32
//#if KVLEN
        %tlofs = arith.muli %ntMinus1, %cBN : index
        %nlast = arith.addi %N0, %tlofs : index
        func.call @{{NAME}}_zero_v(%kvbuf, %stl, %nlast, %nvalid, %ctid)
            : (!{{P}}tkv, index, index, index, index) -> ()
//#endif
        %vls = func.call @{{NAME}}_v_tile(%kvbuf, %stl) : (!{{P}}tkv, index) -> !{{P}}tv
        %ol = "fa.blockwise_gemm"(%lp#3, %vls, %lp#0) {layout = "wgmma_m64"}
            : (!{{P}}pfrag, !{{P}}tv, !{{P}}ofrag) -> !{{P}}ofrag
        %vlarr = nvvm.mbarrier.arrive %vel : !llvm.ptr<3> -> i64
        scf.yield %ol, %lp#1, %lp#2 : !{{P}}ofrag, !{{P}}rows, !{{P}}rows
//#endif
      } else {
//#if PERSISTENT
        %qarr = nvvm.mbarrier.arrive %qempty : !llvm.ptr<3> -> i64
//#endif
        scf.yield %o_init, %m_init, %l_init : !{{P}}ofrag, !{{P}}rows, !{{P}}rows
      }

      // Epilogue: O / l and lse of this thread's rows (< M); O through shared
      // memory and TMA where its type is Q's (its own buffer, or Q's), else
      // from the fragments (pairs of columns).
//#include attention_row_stats
      %orowc = arith.constant dense<[{{O_ROWS}}]> : !{{P}}oidx
      %c8 = arith.constant 8 : index
      %ocolc = arith.constant dense<[{{O_COLS}}]> : !{{P}}oidx
//#if OUT_F32
      %negzo = arith.constant dense<-0.0> : !{{P}}ofrag
      %outv = arith.addf %out, %negzo : !{{P}}ofrag
//#else
      %outv = arith.truncf %out : !{{P}}ofrag to vector<{{NO}}x{{OE}}>
//#endif
//#if TMA_STORE
      // The warpgroup's O goes through its own rows of the O buffer (Q's,
      // whose last S is done, or its own) in TMA's 128-byte swizzle (16-byte
      // chunk j of row r at j ^ (r % 8)), then one thread stores it with TMA:
      // rows past M are clipped by the tensor map.
//#if O_BUFFER
      // The previous item's store has read the buffer.
      scf.if %wfirst {
        nvvm.cp.async.bulk.wait_group 0 {read}
      }
      nvvm.barrier id = %barId number_of_threads = %wgThreads
//#endif
      %offO = arith.constant {{OFF_O}} : index
      %obuf = memref.view %raw[%offO][] : memref<{{SMEM_BYTES}}xi8, #{{P}}ws> to memref<{{DVC}}x{{BM}}x64x{{E}}, #{{P}}ws>
      %c64e = arith.constant 64 : index
      affine.for %i = 0 to {{NO_PAIRS}} {
        %e0 = arith.muli %i, %c2 : index
        %e1 = arith.addi %e0, %c1 : index
        %ri = vector.extract %orowc[%e0] : i32 from !{{P}}oidx
        %ci = vector.extract %ocolc[%e0] : i32 from !{{P}}oidx
        %rx0 = arith.index_cast %ri : i32 to index
        %cx0 = arith.index_cast %ci : i32 to index
        %lrow0 = arith.addi %rx0, %wrow : index
        %lrow = arith.addi %lrow0, %group : index
        %cx = arith.addi %cx0, %col0 : index
        %ch = arith.divui %cx, %c64e : index
        %cc = arith.remui %cx, %c64e : index
        %j = arith.divui %cc, %c8 : index
        %jin = arith.remui %cc, %c8 : index
        %r8 = arith.remui %lrow, %c8 : index
        %js = arith.xori %j, %r8 : index
        %js8 = arith.muli %js, %c8 : index
        %col = arith.addi %js8, %jin : index
        %x0 = vector.extract %outv[%e0] : {{OE}} from vector<{{NO}}x{{OE}}>
        %x1 = vector.extract %outv[%e1] : {{OE}} from vector<{{NO}}x{{OE}}>
        %pair = vector.from_elements %x0, %x1 : vector<2x{{OE}}>
        vector.store %pair, %obuf[%ch, %lrow, %col] : memref<{{DVC}}x{{BM}}x64x{{E}}, #{{P}}ws>, vector<2x{{OE}}>
      }
      // The tensor-memory proxy sees the stores, then the warpgroup's
      // threads meet (named barrier 1 + cwg) and its first thread stores.
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      nvvm.barrier id = %barId number_of_threads = %wgThreads
//#if DOC_RUNS
      // Where the item's rows end before M and before this warpgroup's (a
      // document's last item), its threads store its rows themselves.
      %ep_wend0 = arith.addi %m0, %cwrow : index
      %ep_wend = arith.addi %ep_wend0, %c64 : index
      %ep_in = arith.cmpi ule, %ep_wend, %rend : index
      %ep_atM = arith.cmpi eq, %rend, %M : index
      %ep_tma = arith.ori %ep_in, %ep_atM : i1
      scf.if %ep_tma {
//#endif
      scf.if %wfirst {
        %b32 = arith.index_cast %b : index to i32
        %h32 = arith.index_cast %h : index to i32
        %orow = arith.addi %m0, %cwrow : index
        %orow32 = arith.index_cast %orow : index to i32
        affine.for %ch = 0 to {{DVC}} {
          %src0 = func.call @{{NAME}}_chunk(%sbase64, %ch, %c0, %c3b) : (i64, index, index, index) -> !llvm.ptr<7>
          %src1 = llvm.addrspacecast %src0 : !llvm.ptr<7> to !llvm.ptr<3>
          %rowBytes = arith.constant 128 : index
          %wgOff = arith.muli %cwrow, %rowBytes : index
          %wgOff64 = arith.index_cast %wgOff : index to i64
          %src = llvm.getelementptr %src1[%wgOff64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
          %col = arith.muli %ch, %c64 : index
          %col32 = arith.index_cast %col : index to i32
          nvvm.cp.async.bulk.tensor.global.shared.cta %omp, %src, box[%col32, %orow32, %h32, %b32]
              : !llvm.ptr, !llvm.ptr<3>
        }
        nvvm.cp.async.bulk.commit.group
//#if !O_BUFFER
        nvvm.cp.async.bulk.wait_group 0 {read}
//#endif
      }
//#if DOC_RUNS
      } else {
        // Rows [%m0, %rend) only, 16 bytes a thread at a time.
        %cp_per = arith.constant {{DVC_PIECES}} : index
        %cp_n = arith.constant {{WG_PIECES}} : index
        %cp_c8 = arith.constant 8 : index
        %cp_dv = arith.constant {{DV}} : index
        scf.for %cp_e = %wtid to %cp_n step %c128 {
          %cp_r = arith.divui %cp_e, %cp_per : index
          %cp_in = arith.remui %cp_e, %cp_per : index
          %cp_ch = arith.divui %cp_in, %cp_c8 : index
          %cp_j = arith.remui %cp_in, %cp_c8 : index
          %cp_lrow = arith.addi %cwrow, %cp_r : index
          %cp_grow = arith.addi %m0, %cp_lrow : index
          %cp_c64 = arith.muli %cp_ch, %c64 : index
          %cp_c8j = arith.muli %cp_j, %cp_c8 : index
          %cp_gcol = arith.addi %cp_c64, %cp_c8j : index
          %cp_rok = arith.cmpi ult, %cp_grow, %rend : index
          %cp_cok = arith.cmpi ult, %cp_gcol, %cp_dv : index
          %cp_ok = arith.andi %cp_rok, %cp_cok : i1
          scf.if %cp_ok {
            %cp_r8 = arith.remui %cp_lrow, %cp_c8 : index
            %cp_js = arith.xori %cp_j, %cp_r8 : index
            %cp_col = arith.muli %cp_js, %cp_c8 : index
            %cp_v = vector.load %obuf[%cp_ch, %cp_lrow, %cp_col] : memref<{{DVC}}x{{BM}}x64x{{E}}, #{{P}}ws>, vector<8x{{E}}>
            vector.store %cp_v, %o[%b, %h, %cp_grow, %cp_gcol] {alignment = 16} : !O, vector<8x{{E}}>
          }
        }
      }
//#endif
//#else
      affine.for %i = 0 to {{NO_PAIRS}} {
        %e0 = arith.muli %i, %c2 : index
        %e1 = arith.addi %e0, %c1 : index
        %ri = vector.extract %orowc[%e0] : i32 from !{{P}}oidx
        %ci = vector.extract %ocolc[%e0] : i32 from !{{P}}oidx
        %rx0 = arith.index_cast %ri : i32 to index
        %cx0 = arith.index_cast %ci : i32 to index
        %rx = arith.addi %rx0, %row0 : index
        %cx = arith.addi %cx0, %col0 : index
        %rin = arith.cmpi slt, %rx, %rend : index
        scf.if %rin {
          %x0 = vector.extract %outv[%e0] : {{OE}} from vector<{{NO}}x{{OE}}>
          %x1 = vector.extract %outv[%e1] : {{OE}} from vector<{{NO}}x{{OE}}>
          %pair = vector.from_elements %x0, %x1 : vector<2x{{OE}}>
          vector.store %pair, %o[%b, %h, %rx, %cx] {alignment = {{PAIR_ALIGN}}} : !O, vector<2x{{OE}}>
        }
      }
//#endif
//#if LSE
      %first = arith.cmpi eq, %quad, %c0 : index
      scf.if %first {
        affine.for %i = 0 to 2 {
          %r8 = arith.muli %i, %c8 : index
          %r = arith.addi %row0, %r8 : index
          %rin = arith.cmpi slt, %r, %rend : index
          scf.if %rin {
            %y = vector.extract %lsev[%i] : f32 from !{{P}}rows
            memref.store %y, %lse[%b, %h, %r] : !LSE
          }
        }
      }
//#endif
      %kv1 = arith.addi %kv032, %NT32 : i32
      scf.yield %kv1 : i32
      }
//#if O_BUFFER
      // The last store has read its buffer before the workgroup exits.
      scf.if %wfirst {
        nvvm.cp.async.bulk.wait_group 0 {read}
      }
//#endif
    }
    scf.yield
  }
  gpu.terminator
  }
{{SUMMARY_END}}
  return
}

// The address of mbarrier %j of stage %st (j = 1 kfull, 2 vfull, 3 kempty,
// 4 vempty; qfull is at %bar0, qempty is %j = {{QEMPTY}} of stage 0).
func.func private @{{NAME}}_bar(%bar0: i64, %st: index, %j: index) -> !llvm.ptr<3> attributes {fa.inline} {
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : i64
  %s4 = arith.muli %st, %c4 : index
  %i = arith.addi %s4, %j : index
  %i64 = arith.index_cast %i : index to i64
  %off = arith.muli %i64, %c8 : i64
  %a = arith.addi %bar0, %off : i64
  %p = llvm.inttoptr %a : i64 to !llvm.ptr<3>
  return %p : !llvm.ptr<3>
}

//#if KVLEN
// Keys past kv_len are memory of the tensor (TMA zero-fills only past N),
// which a KV cache may leave unwritten: their V rows, all in the last key
// tile (from key %nl0, in stage %st), are zeroed, so that their P = 0 never meets a NaN.
// The consumers write them (16-byte stores; a whole row is zero whatever the
// swizzle) and meet before the tensor cores read the tile.
func.func private @{{NAME}}_zero_v(%kvbuf: !{{P}}tkv,
                                   %st: index, %nl0: index, %nvalid: index, %ctid: index) attributes {fa.inline} {
  %cBN = arith.constant {{BN}} : index
  %vkeep0 = arith.subi %nvalid, %nl0 : index
  %vkeep = arith.minui %vkeep0, %cBN : index
  %vzRows = arith.subi %cBN, %vkeep : index
  %vzPerRow = arith.constant {{V_ZERO_PER_ROW}} : index
  %vzN = arith.muli %vzRows, %vzPerRow : index
  %zeros8 = arith.constant dense<0.0> : vector<8x{{E}}>
  %cons = arith.constant {{CONSUMER_THREADS}} : index
  %c8z = arith.constant 8 : index
  %cDC = arith.constant {{DC}} : index
  scf.for %e = %ctid to %vzN step %cons {
    %r0 = arith.divui %e, %vzPerRow : index
    %r = arith.addi %r0, %vkeep : index
    %inRow = arith.remui %e, %vzPerRow : index
    %vch0 = arith.divui %inRow, %c8z : index
    %vch = arith.addi %vch0, %cDC : index
    %v16 = arith.remui %inRow, %c8z : index
    %vcol = arith.muli %v16, %c8z : index
    vector.store %zeros8, %kvbuf[%st, %vch, %r, %vcol]
        : !{{P}}tkv, vector<8x{{E}}>
  }
  nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
  %vzBar = arith.constant 8 : i32
  %consI = arith.constant {{CONSUMER_THREADS}} : i32
  nvvm.barrier id = %vzBar number_of_threads = %consI
  return
}
//#endif

// K (chunks [0, {{DC}})) and V (chunks [{{DC}}, {{KV_CHUNKS}})) of stage %st.
func.func private @{{NAME}}_k_tile(%kvbuf: !{{P}}tkv, %st: index) -> !{{P}}tk attributes {fa.inline} {
  %k = memref.subview %kvbuf[%st, 0, 0, 0] [1, {{DC}}, {{BN}}, 64] [1, 1, 1, 1] : !{{P}}tkv to !{{P}}tk
  return %k : !{{P}}tk
}

func.func private @{{NAME}}_v_tile(%kvbuf: !{{P}}tkv, %st: index) -> !{{P}}tv attributes {fa.inline} {
  %v = memref.subview %kvbuf[%st, {{DC}}, 0, 0] [1, {{DVC}}, {{BN}}, 64] [1, 1, 1, 1] : !{{P}}tkv to !{{P}}tv
  return %v : !{{P}}tv
}

// The stage of a ring of %n stages that use %g (from 0) takes, and the
// parity of the mbarrier phase that completes it.
func.func private @{{NAME}}_stage(%g: index, %n: index) -> (index, i32) attributes {fa.inline} {
  %one = arith.constant 1 : i32
  %st = arith.remui %g, %n : index
  %u = arith.divui %g, %n : index
  %ui = arith.index_cast %u : index to i32
  %par = arith.andi %ui, %one : i32
  return %st, %par : index, i32
}

// The shared-memory address of chunk %ch of Q (%kind = 0), of K / V
// (%kind = 1 / 2) of stage %st, or of O (%kind = 3), as TMA's destination
// (shared::cluster, where the workgroup's own shared memory keeps its
// addresses).
func.func private @{{NAME}}_chunk(%base: i64, %ch: index, %st: index, %kind: index) -> !llvm.ptr<7> attributes {fa.inline} {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %isQ = arith.cmpi eq, %kind, %c0 : index
  %isO = arith.cmpi eq, %kind, %c3 : index
  %isV = arith.cmpi eq, %kind, %c2 : index
  %offO = arith.constant {{OFF_O}} : index
  %qChunk = arith.constant {{Q_CHUNK_BYTES}} : index
  %kvChunk = arith.constant {{KV_CHUNK_BYTES}} : index
  %kvChunks = arith.constant {{KV_CHUNKS}} : index
  %offKV = arith.constant {{OFF_KV}} : index
  %dc = arith.constant {{DC}} : index
  %qOff0 = arith.muli %ch, %qChunk : index
  %oOff = arith.addi %qOff0, %offO : index
  %qOff = arith.select %isO, %oOff, %qOff0 : index
  %vShift = arith.select %isV, %dc, %c0 : index
  %stChunks = arith.muli %st, %kvChunks : index
  %kvIdx0 = arith.addi %stChunks, %vShift : index
  %kvIdx = arith.addi %kvIdx0, %ch : index
  %kvOff0 = arith.muli %kvIdx, %kvChunk : index
  %kvOff = arith.addi %kvOff0, %offKV : index
  %isQO = arith.ori %isQ, %isO : i1
  %off = arith.select %isQO, %qOff, %kvOff : index
  %off64 = arith.index_cast %off : index to i64
  %a = arith.addi %base, %off64 : i64
  %p = llvm.inttoptr %a : i64 to !llvm.ptr<3>
  %pc = llvm.addrspacecast %p : !llvm.ptr<3> to !llvm.ptr<7>
  return %pc : !llvm.ptr<7>
}

// The scores of the key tile at %n0 for this thread's rows (row0i: its
// first row, col0i: its first column), masked, in the log2 domain
// (attention_scores).
func.func private @{{NAME}}_scores(%s: !{{P}}sfrag, %n0: index, %row0i: i32, %col0i: i32, %nvalid: index, %m0: index{{SOFTMAX_EXTRA_PARAMS}})
    -> !{{P}}sfrag attributes {fa.inline} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cBN = arith.constant {{BN}} : index
  %zf = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scols = arith.constant dense<[{{S_COLS}}]> : !{{P}}sidx
//#if CAUSAL
  %sdiag = arith.constant dense<[{{S_COLS_MINUS_ROWS}}]> : !{{P}}sidx
  %coffi = arith.constant {{CAUSAL_OFFSET}} : i32
  %coff = arith.constant {{CAUSAL_OFFSET}} : index
  %diag0 = arith.addi %m0, %coff : index
  %diag = arith.addi %diag0, %c1 : index
//#endif
//#if BIAS
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %srows = arith.constant dense<[{{S_ROWS}}]> : !{{P}}sidx
  %Mi = arith.index_cast %M : index to i32
  %Ni = arith.index_cast %N : index to i32
  %bd0 = memref.dim %bias, %c0 : !BIAS
  %bd1 = memref.dim %bias, %c1 : !BIAS
  %bd2 = memref.dim %bias, %c2 : !BIAS
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
  %qk = arith.constant {{SCORE_SCALE}} : f32
  %qkv = vector.broadcast %qk : f32 to !{{P}}sfrag
  %ninfs = vector.broadcast %ninf : f32 to !{{P}}sfrag
  %negzs = arith.constant dense<-0.0> : !{{P}}sfrag
//#include attention_scores
  return %s4 : !{{P}}sfrag
}

// The softmax of the scores %s of the key tile at %n0: returns P (the A
// operand of P V), m', l' (its own columns' part), alpha and whether O
// needs the rescale (some row's max moved).
func.func private @{{NAME}}_softmax(%s: !{{P}}sfrag, %n0: index, %mrow: !{{P}}rows, %lrow: !{{P}}rows, %row0i: i32, %col0i: i32, %nvalid: index, %m0: index{{SOFTMAX_EXTRA_PARAMS}})
    -> (!{{P}}schunk, !{{P}}rows, !{{P}}rows, !{{P}}rows, i1) attributes {fa.inline} {
  %s4 = func.call @{{NAME}}_scores(%s, %n0, %row0i, %col0i, %nvalid, %m0{{SOFTMAX_EXTRA_ARGS}})
      : (!{{P}}sfrag, index, i32, i32, index, index{{SOFTMAX_EXTRA_TYPES}}) -> !{{P}}sfrag
//#include attention_softmax_constants
//#include attention_online_softmax
  %la = arith.mulf %lrow, %alpha : !{{P}}rows
  %p = func.call @{{NAME}}_exp2(%earg) : (!{{P}}schunk) -> !{{P}}schunk
  %l = "fa.blockwise_reduction"(%p, %la) {kind = "sum", axis = 1 : i64, layout = "wgmma_m64", partial}
      : (!{{P}}schunk, !{{P}}rows) -> !{{P}}rows
  return %p, %mnew, %l, %alpha, %anymove : !{{P}}schunk, !{{P}}rows, !{{P}}rows, !{{P}}rows, i1
}
//#if FAST_SOFTMAX

// The softmax without the row max: P = exp2(S - m) with the running m as it
// is, l' = l + its row sums. Valid for this thread (%mine) where its rows
// have seen a key (m finite) and its part of each row sums to at most
// {{FAST_LIMIT}} (so that no P exceeds it; f16 and bf16 hold any such P as
// exactly as one below 2^{{MAX_SLACK}}; NaN fails the test): m and O stay
// as they are. Where it is not valid for every thread of the warpgroup, the
// caller runs @{{NAME}}_softmax on the tile.
func.func private @{{NAME}}_softmax_fast(%s: !{{P}}sfrag, %n0: index, %mshift: !{{P}}rows, %lrow: !{{P}}rows, %row0i: i32, %col0i: i32, %nvalid: index, %m0: index{{SOFTMAX_EXTRA_PARAMS}})
    -> (!{{P}}schunk, !{{P}}rows, i1) attributes {fa.inline} {
  %s4 = func.call @{{NAME}}_scores(%s, %n0, %row0i, %col0i, %nvalid, %m0{{SOFTMAX_EXTRA_ARGS}})
      : (!{{P}}sfrag, index, i32, i32, index, index{{SOFTMAX_EXTRA_TYPES}}) -> !{{P}}sfrag
//#include attention_softmax_constants
//#include attention_exp_arg
  %p = func.call @{{NAME}}_exp2(%earg) : (!{{P}}schunk) -> !{{P}}schunk
  %lpart = "fa.blockwise_reduction"(%p, %zrows) {kind = "sum", axis = 1 : i64, layout = "wgmma_m64", partial}
      : (!{{P}}schunk, !{{P}}rows) -> !{{P}}rows
  %lim = arith.constant dense<{{FAST_LIMIT}}> : !{{P}}rows
  %small = arith.cmpf ole, %lpart, %lim : !{{P}}rows
  %seen = arith.cmpf one, %mshift, %ninfr : !{{P}}rows
  %okr = arith.andi %small, %seen : vector<{{NR}}xi1>
  %mine = vector.reduction <and>, %okr : vector<{{NR}}xi1> into i1
  %l = arith.addf %lrow, %lpart : !{{P}}rows
  return %p, %l, %mine : !{{P}}schunk, !{{P}}rows, i1
}

// Whether %x holds for all 128 threads of the warpgroup that meet at named
// barrier %bar (bar.red.and).
func.func private @{{NAME}}_wg_all(%x: i1, %bar: i32) -> i1 attributes {fa.inline} {
  %x32 = arith.extui %x : i1 to i32
  %r = llvm.inline_asm has_side_effects "{ .reg .pred p, q; setp.ne.u32 q, $1, 0; bar.red.and.pred p, $2, 128, q; selp.u32 $0, 1, 0, p; }", "=r,r,r" %x32, %bar
      : (i32, i32) -> i32
  %z = arith.constant 0 : i32
  %all = arith.cmpi ne, %r, %z : i32
  return %all : i1
}
//#endif

//#include attention_exp2

{{WAIT_HELPERS}}
