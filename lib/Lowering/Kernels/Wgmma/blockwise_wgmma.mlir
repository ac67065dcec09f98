// fa.blockwise_gemm on register fragments of the layout "wgmma_m64", as
// fa-lower-blockwise{target=nvvm} specialises it (one function per
// signature, inlined and unrolled like the "mma_m16n8k16" ones).
//
// The layout: a warpgroup (4 warps of consecutive ids, the first a multiple
// of 4) owns 64 rows; warp w of it rows [16w, 16w + 16) in the accumulator
// order of mma.sync m16n8k16 (blockwise_mma.mlir, one 16-row slice), which is
// also the accumulator order of wgmma m64nNk16. fill and reduction are those
// of "mma_m16n8k16" with one slice per warp.
//
// Tiles in shared memory are [chunks][rows][64] of 16-bit elements: 128-byte
// rows, stored with the 128-byte swizzle of TMA, each chunk 1024-aligned.
//#vars K N KSTEPS E A_FROM B_STORED NAME A_TYPE B_TYPE NC B_DESC_HIGH B_BASE A_DESC_HIGH A_BASE
//#vars A_CHUNK_UNITS B_CHUNK_UNITS PTX CONSTRAINTS D_ARGS D_TYPES ACC_STRUCT UNPACK R_ARGS PENDING
//#flags GEMM ASYNC A_SHARED B_K_MAJOR WAIT
//#if GEMM
// Here: C += A B, M = 64 rows of the warpgroup, K = {{K}}, N = {{N}}, with
// {{KSTEPS}} wgmma.mma_async m64n{{N}}k16 ({{E}} in, f32 accumulators),
// issued back to back and waited for once at the end. A is {{A_FROM}};
// B is stored {{B_STORED}}.
//#if ASYNC
// `async`: the group is committed and not waited for; the result's registers
// are read only after a wait that ties them (WAIT below), so that the
// caller's work overlaps the tensor cores'.
//#endif
func.func private @{{NAME}}(%a: {{A_TYPE}}, %b: {{B_TYPE}}, %c: vector<{{NC}}xf32>) -> vector<{{NC}}xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %four = arith.constant 4 : i64
  %scaleD = arith.constant 1 : i32
  // Descriptor of a tile at byte address x: x >> 4 in bits 0-13, the leading
  // and stride byte offsets (>> 4) in bits 16-29 and 32-45, 128-byte swizzle
  // in bits 62-63. The k steps add their offset (>> 4) to the address field.
  %bhi = arith.constant {{B_DESC_HIGH}} : i64
  %bp = memref.extract_aligned_pointer_as_index %b : {{B_TYPE}} -> index
  %bb, %boff, %bsz:3, %bst:3 = memref.extract_strided_metadata %b : {{B_TYPE}} -> {{B_BASE}}, index, index, index, index, index, index, index
  %boff2 = arith.muli %boff, %c2 : index
  %baddr = arith.addi %bp, %boff2 : index
  %baddr64 = arith.index_cast %baddr : index to i64
  %bx = arith.shrui %baddr64, %four : i64
  %bdesc = arith.ori %bx, %bhi : i64
//#if A_SHARED
  %ahi = arith.constant {{A_DESC_HIGH}} : i64
  %ap = memref.extract_aligned_pointer_as_index %a : {{A_TYPE}} -> index
  %ab, %aoff, %asz:3, %ast:3 = memref.extract_strided_metadata %a : {{A_TYPE}} -> {{A_BASE}}, index, index, index, index, index, index, index
  %aoff2 = arith.muli %aoff, %c2 : index
  %aaddr = arith.addi %ap, %aoff2 : index
  %aaddr64 = arith.index_cast %aaddr : index to i64
  %ax = arith.shrui %aaddr64, %four : i64
  %adesc = arith.ori %ax, %ahi : i64
  %aChunk = arith.constant {{A_CHUNK_UNITS}} : index
//#endif
  nvvm.wgmma.fence.aligned
  %res = affine.for %kk = 0 to {{KSTEPS}} iter_args(%acc = %c) -> (vector<{{NC}}xf32>) {
    // Step kk reads k = 16 kk.. of A and B. In a K-major tile that is chunk
    // kk / 4, 32 bytes (2 units) per step within it; in an N-major one
    // (B stored [K][N]) 16 rows of 128 bytes further.
    %kc = arith.divui %kk, %c4 : index
    %kr = arith.remui %kk, %c4 : index
    %kr2 = arith.muli %kr, %c2 : index
//#if B_K_MAJOR
    %bChunk = arith.constant {{B_CHUNK_UNITS}} : index
    %bc = arith.muli %kc, %bChunk : index
    %bstep = arith.addi %bc, %kr2 : index
//#else
    %rowStep = arith.constant 128 : index
    %bstep = arith.muli %kk, %rowStep : index
//#endif
    %bstep64 = arith.index_cast %bstep : index to i64
    %db = arith.addi %bdesc, %bstep64 : i64
    %d:{{NC}} = vector.to_elements %acc : vector<{{NC}}xf32>
//#if A_SHARED
    %ac = arith.muli %kc, %aChunk : index
    %astep = arith.addi %ac, %kr2 : index
    %astep64 = arith.index_cast %astep : index to i64
    %da = arith.addi %adesc, %astep64 : i64
    %r = llvm.inline_asm has_side_effects "{{PTX}}", "{{CONSTRAINTS}}" {{D_ARGS}}, %da, %db, %scaleD
        : ({{D_TYPES}}, i64, i64, i32) -> {{ACC_STRUCT}}
//#else
    // A from registers: entries 8 kk .. 8 kk + 7 of the fragment, in pairs,
    // are the four A registers of the step (the mma.sync A order).
    %apoison = ub.poison : vector<4xi32>
    %pair0 = arith.muli %kk, %c4 : index
    %areg = affine.for %q = 0 to 4 iter_args(%g = %apoison) -> (vector<4xi32>) {
      %pairq = arith.addi %pair0, %q : index
      %e0 = arith.muli %pairq, %c2 : index
      %e1 = arith.addi %e0, %c1 : index
      %x0 = vector.extract %a[%e0] : {{E}} from {{A_TYPE}}
      %x1 = vector.extract %a[%e1] : {{E}} from {{A_TYPE}}
      %pair = vector.from_elements %x0, %x1 : vector<2x{{E}}>
      %reg = llvm.bitcast %pair : vector<2x{{E}}> to i32
      %g2 = vector.insert %reg, %g[%q] : i32 into vector<4xi32>
      affine.yield %g2 : vector<4xi32>
    }
    %ar:4 = vector.to_elements %areg : vector<4xi32>
    %r = llvm.inline_asm has_side_effects "{{PTX}}", "{{CONSTRAINTS}}" {{D_ARGS}}, %ar#0, %ar#1, %ar#2, %ar#3, %db, %scaleD
        : ({{D_TYPES}}, i32, i32, i32, i32, i64, i32) -> {{ACC_STRUCT}}
//#endif
{{UNPACK}}
    %v = vector.from_elements {{R_ARGS}} : vector<{{NC}}xf32>
    affine.yield %v : vector<{{NC}}xf32>
  }
  nvvm.wgmma.commit.group.sync.aligned
//#if !ASYNC
  nvvm.wgmma.wait.group.sync.aligned 0
//#endif
  return %res : vector<{{NC}}xf32>
}
//#endif

//#if WAIT
// Waits until at most {{PENDING}} wgmma groups of the warpgroup are pending and
// returns the fragment %c, whose registers the wait ties: nothing reads them
// before it.
func.func private @{{NAME}}(%c: vector<{{NC}}xf32>) -> vector<{{NC}}xf32> attributes {fa.inline} {
  %d:{{NC}} = vector.to_elements %c : vector<{{NC}}xf32>
  %r = llvm.inline_asm has_side_effects "wgmma.wait_group.sync.aligned {{PENDING}};", "{{CONSTRAINTS}}" {{D_ARGS}}
      : ({{D_TYPES}}) -> {{ACC_STRUCT}}
{{UNPACK}}
  %v = vector.from_elements {{R_ARGS}} : vector<{{NC}}xf32>
  return %v : vector<{{NC}}xf32>
}
//#endif