// The portable FlashAttention-2 kernel (fa-lower-attention{target=cpu|gpu},
// and on nvvm where the tensor-core kernels do not apply), as
// AttentionPortable.c specialises it for one fa.gridwise_attention: kernel
// {{NAME}}, tiles of {{BM}} query rows x {{BN}} keys, D = {{D}}, Dv = {{DV}}.
// docs/lowering.md, "fa-lower-attention{target=cpu|gpu}", tells the algorithm.
//
// Written once for every target as code run by the %nth threads of a
// workgroup, thread %tid (Lowering.h): on the CPU (GPU unset) a workgroup is
// one iteration of an scf.parallel and one thread; on GPUs (GPU set) it is a
// gpu.launch block of {{THREADS}} threads, with barriers between the steps.
// The tiles are f32 memrefs (workgroup memory on GPUs: WORKGROUP is
// ", #gpu.address_space<workgroup>" there, empty on the CPU) that the
// fa.blockwise_* ops work on; fa-lower-blockwise lowers those.
//
// The pieces, each marked "// --- NAME": the tile loads are
// attention_portable_load.mlir, specialised for Q, K and V (the variables
// LOAD_Q, LOAD_K and LOAD_V below); the mask, the online softmax and the
// epilogue are attention_portable_mask, _softmax and _epilogue (included).
// Flags: CAUSAL, KVLEN (KVLEN_PER_HEAD: kv_len is [B, Hq]), BIAS, LSE;
// E_F32, BIAS_F32 and OUT_F32 where Q/K/V, the bias and O are f32.
//#vars NAME BM BN D DV THREADS WORKGROUP ARGS SCALE_LOG2E KV_ELT CAUSAL_OFFSET LOAD_Q A_SIZE
//#vars LOAD_K LOAD_V SUMMARY_BEGIN SUMMARY_END
//#flags GPU KVLEN KVLEN_PER_HEAD CAUSAL BIAS MASK
!tQ = memref<{{BM}}x{{D}}xf32{{WORKGROUP}}>
!tK = memref<{{BN}}x{{D}}xf32{{WORKGROUP}}>
!tV = memref<{{BN}}x{{DV}}xf32{{WORKGROUP}}>
!tS = memref<{{BM}}x{{BN}}xf32{{WORKGROUP}}>
!tA = memref<{{BM}}x{{DV}}xf32{{WORKGROUP}}>
!tR = memref<{{BM}}xf32{{WORKGROUP}}>
//#include attention_functions
// fa.attention_kernel marks it for fa-compile --export-kernels.
func.func private @{{NAME}}({{ARGS}}) attributes {fa.attention_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %cBM = arith.constant {{BM}} : index
  %cBN = arith.constant {{BN}} : index
  %cDV = arith.constant {{DV}} : index
  %zf = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %log2e = arith.constant 1.4426950408889634 : f32
  %lowest = arith.constant -3.40282347E+38 : f32
  %ln2 = arith.constant 0.69314718055994531 : f32
  // Q is pre-scaled by scale * log2(e): the softmax runs in the log2 domain.
  %qs = arith.constant {{SCALE_LOG2E}} : f32
  %B = memref.dim %q, %c0 : !Q
  %Hq = memref.dim %q, %c1 : !Q
  %M = memref.dim %q, %c2 : !Q
  %Hkv = memref.dim %v, %c1 : !V
  %N = memref.dim %v, %c2 : !V
  %G = arith.divui %Hq, %Hkv : index
  %MT = arith.ceildivui %M, %cBM : index
{{SUMMARY_BEGIN}}
  // One workgroup per (query tile %mt, head %h, batch %b).
//#if GPU
  %nthreads = arith.constant {{THREADS}} : index
  gpu.launch blocks(%mt, %h, %b) in (%gx = %MT, %gy = %Hq, %gz = %B)
      threads(%tx, %ty, %tz) in (%sx = %nthreads, %sy = %c1, %sz = %c1)
      workgroup(%qt : !tQ, %kt : !tK, %vt : !tV, %st : !tS, %acc : !tA,
                %mrow : !tR, %mnew : !tR, %lrow : !tR) {
  // The body sits in an scf.execute_region: the inliner does not inline
  // calls directly in a gpu.launch region.
  scf.execute_region {
//#else
  scf.parallel (%b, %h, %mt) = (%c0, %c0, %c0) to (%B, %Hq, %MT) step (%c1, %c1, %c1) {
    // Heap tiles per workgroup: allocas in a loop would grow the stack.
    %qt = memref.alloc() : !tQ
    %kt = memref.alloc() : !tK
    %vt = memref.alloc() : !tV
    %st = memref.alloc() : !tS
    %acc = memref.alloc() : !tA
    %mrow = memref.alloc() : !tR
    %mnew = memref.alloc() : !tR
    %lrow = memref.alloc() : !tR
//#endif
    // --- the workgroup: rows [%m0, %m0 + %rows) of head %h, batch %b ---------
//#include workgroup_threads
    %hk = arith.divui %h, %G : index
    %m0 = arith.muli %mt, %cBM : index
    %mrem = arith.subi %M, %m0 : index
    %rows = arith.minui %mrem, %cBM : index
    // The keys it visits, [0, %nend): at most kv_len, none past the causal
    // bound of its last row (tiles past them are not visited, not masked).
    %nend0 = arith.addi %N, %c0 : index
//#if KVLEN
//#if KVLEN_PER_HEAD
    %kvv = memref.load %kvl[%b, %h] : !KVL
//#else
    %kvv = memref.load %kvl[%b] : !KVL
//#endif
    %kvi = arith.index_cast %kvv : {{KV_ELT}} to index
    %kvc = arith.maxsi %kvi, %c0 : index
    %nend1 = arith.minsi %nend0, %kvc : index
//#endif
//#if CAUSAL
    %coff = arith.constant {{CAUSAL_OFFSET}} : index
    %mlast = arith.addi %m0, %rows : index
    %cend = arith.addi %mlast, %coff : index
    %cendc = arith.maxsi %cend, %c0 : index
//#if KVLEN
    %nend2 = arith.minsi %nend1, %cendc : index
//#else
    %nend2 = arith.minsi %nend0, %cendc : index
//#endif
    %nend = arith.addi %nend2, %c0 : index
//#else
//#if KVLEN
    %nend = arith.addi %nend1, %c0 : index
//#else
    %nend = arith.addi %nend0, %c0 : index
//#endif
//#endif
//#if MASK
//#include attention_key_range
    %NT0 = arith.addi %kr_t0, %c0 : index
    %NT = arith.addi %kr_t1, %c0 : index
//#else
    %NT0 = arith.addi %c0, %c0 : index
    %NT = arith.ceildivui %nend, %cBN : index
//#endif
//#if BIAS
    // Bias indices: a dim of size 1 is broadcast (%bi2, %bi3 per score).
    %bd0 = memref.dim %bias, %c0 : !BIAS
    %bone0 = arith.cmpi eq, %bd0, %c1 : index
    %bi0 = arith.select %bone0, %c0, %b : index
    %bd1 = memref.dim %bias, %c1 : !BIAS
    %bone1 = arith.cmpi eq, %bd1, %c1 : index
    %bi1 = arith.select %bone1, %c0, %h : index
    %bd2 = memref.dim %bias, %c2 : !BIAS
    %bone2 = arith.cmpi eq, %bd2, %c1 : index
    %bd3 = memref.dim %bias, %c3 : !BIAS
    %bone3 = arith.cmpi eq, %bd3, %c1 : index
//#endif
    // --- load: the Q tile, times scale * log2(e) -----------------------------
{{LOAD_Q}}
    "fa.blockwise_fill"(%acc, %zf) : (!tA, f32) -> ()
    "fa.blockwise_fill"(%mrow, %ninf) : (!tR, f32) -> ()
    "fa.blockwise_fill"(%lrow, %zf) : (!tR, f32) -> ()
    %a_n0 = arith.constant {{A_SIZE}} : index
    // --- key tile %nt: keys [%n0, %n0 + %cols) -------------------------------
    scf.for %nt = %NT0 to %NT step %c1 {
      %n0 = arith.muli %nt, %cBN : index
      %nrem = arith.subi %nend, %n0 : index
      %cols = arith.minui %nrem, %cBN : index
      // --- load: the K and V tiles -------------------------------------------
{{LOAD_K}}
{{LOAD_V}}
//#if GPU
      gpu.barrier
//#endif
      // --- scores: S = Q K^T -------------------------------------------------
      "fa.blockwise_fill"(%st, %zf) : (!tS, f32) -> ()
      "fa.blockwise_gemm"(%qt, %kt, %st) {transpose_b} : (!tQ, !tK, !tS) -> ()
//#include attention_portable_mask
//#if GPU
      gpu.barrier
//#endif
//#include attention_portable_softmax
      // --- P V: O += P V -----------------------------------------------------
      "fa.blockwise_gemm"(%st, %vt, %acc) : (!tS, !tV, !tA) -> ()
    }
//#include attention_portable_epilogue
//#if GPU
    scf.yield
  }
  gpu.terminator
  }
//#else
    memref.dealloc %qt : !tQ
    memref.dealloc %kt : !tK
    memref.dealloc %vt : !tV
    memref.dealloc %st : !tS
    memref.dealloc %acc : !tA
    memref.dealloc %mrow : !tR
    memref.dealloc %mnew : !tR
    memref.dealloc %lrow : !tR
    scf.reduce
  }
//#endif
{{SUMMARY_END}}
  return
}
