// The entry of one tensor-core attention (fa-lower-attention{target=nvvm}):
// @{{NAME}}_main, the main kernel (mma.sync or wgmma), or, for few query rows
// (M <= {{DECODE_MAX_M}}: decode), @{{NAME}}_decode, the mma.sync template with the
// tile table's decode tiles (one or two warps) whose keys are split over
// workgroups and merged by its combine kernel. A decode step (M = 1) whose G
// query heads share a K/V head packs those heads into the rows of one
// workgroup, so K and V are read once per K/V head: Q, O and lse are viewed as
// [B, Hkv, G, ...], which is exact where nothing in the op tells the heads or
// the rows apart (no bias per head or row, no kv_len per head, a causal mask
// that leaves row 0 every key).
//#vars NAME DECODE_MAX_M ARGS CAUSAL_OFFSET E OE PACKED_ARGS TYPES CALL_ARGS
//#flags HAS_DECODE HAS_MAIN PACK CAUSAL LSE
//#include attention_functions
func.func private @{{NAME}}({{ARGS}}) attributes {fa.attention_kernel} {
//#if HAS_DECODE
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %M = memref.dim %q, %c2 : !Q
//#if HAS_MAIN
  %maxM = arith.constant {{DECODE_MAX_M}} : index
  %small = arith.cmpi ule, %M, %maxM : index
  scf.if %small {
//#endif
//#if PACK
    %Hq = memref.dim %q, %c1 : !Q
    %Hkv = memref.dim %v, %c1 : !V
    %N = memref.dim %v, %c2 : !V
    %G = arith.divui %Hq, %Hkv : index
    %one = arith.cmpi eq, %M, %c1 : index
    %grouped = arith.cmpi ugt, %G, %c1 : index
    %pack0 = arith.andi %one, %grouped : i1
//#if CAUSAL
    // Row 0 sees keys j <= offset: every key when offset >= N - 1.
    %coff = arith.constant {{CAUSAL_OFFSET}} : index
    %coff1 = arith.addi %coff, %c1 : index
    %allKeys = arith.cmpi sge, %coff1, %N : index
    %pack = arith.andi %pack0, %allKeys : i1
//#else
    %pack = arith.andi %pack0, %pack0 : i1
//#endif
//#if LSE
    // The lse view's rows are heads: packed only where heads are unit-strided
    // in lse (a contiguous [B, Hq, 1]).
    %lb, %lo, %ln:3, %ls:3 = memref.extract_strided_metadata %lse : !LSE -> memref<f32>, index, index, index, index, index, index, index
    %lunit = arith.cmpi eq, %ls#1, %c1 : index
    %packs = arith.andi %pack, %lunit : i1
//#else
    %packs = arith.andi %pack, %pack : i1
//#endif
    scf.if %packs {
      // [B, Hkv * G, 1, X] viewed as [B, Hkv, G, X]: row g of group h is
      // head h * G + g (its one query row), whatever the strides.
      %qb, %qo, %qn:4, %qs:4 = memref.extract_strided_metadata %q : !Q -> memref<{{E}}>, index, index, index, index, index, index, index, index, index
      %qsh = arith.muli %qs#1, %G : index
      %qp = memref.reinterpret_cast %q to offset: [%qo], sizes: [%qn#0, %Hkv, %G, %qn#3], strides: [%qs#0, %qsh, %qs#1, 1] : !Q to !Q
      %ob, %oo, %on:4, %os:4 = memref.extract_strided_metadata %o : !O -> memref<{{OE}}>, index, index, index, index, index, index, index, index, index
      %osh = arith.muli %os#1, %G : index
      %op = memref.reinterpret_cast %o to offset: [%oo], sizes: [%on#0, %Hkv, %G, %on#3], strides: [%os#0, %osh, %os#1, 1] : !O to !O
//#if LSE
      %lsep = memref.reinterpret_cast %lse to offset: [%lo], sizes: [%ln#0, %Hkv, %G], strides: [%ls#0, %G, 1] : !LSE to !LSE
//#endif
      func.call @{{NAME}}_decode({{PACKED_ARGS}}) : ({{TYPES}}) -> ()
    } else {
      func.call @{{NAME}}_decode({{CALL_ARGS}}) : ({{TYPES}}) -> ()
    }
//#else
    func.call @{{NAME}}_decode({{CALL_ARGS}}) : ({{TYPES}}) -> ()
//#endif
//#if HAS_MAIN
  } else {
    func.call @{{NAME}}_main({{CALL_ARGS}}) : ({{TYPES}}) -> ()
  }
//#endif
//#else
  func.call @{{NAME}}_main({{CALL_ARGS}}) : ({{TYPES}}) -> ()
//#endif
  return
}
