// The Hopper kernel's entry where its tiles depend on the keys a workgroup
// visits and the shapes do not say them (fa-lower-attention{target=
// nvvm-sm90a}; docs/lowering.md, "The Hopper kernel"): @{{NAME}}_few, small
// workgroups of which {{FEW_CTAS}} share an SM (one's prologue and epilogue
// overlap the others' loops), when a workgroup visits at most
// {{FEW_MAX_KEYS}} keys on average, else @{{NAME}}_many.
//#vars NAME FEW_CTAS FEW_MAX_KEYS ARGS CAUSAL_OFFSET CALL_ARGS TYPES
//#flags CAUSAL
func.func private @{{NAME}}({{ARGS}}) {
  %c2 = arith.constant 2 : index
  %N = memref.dim %v, %c2 : !V
//#if CAUSAL
  // Under the causal mask row r visits min(N, r + 1 + offset) keys: taken as
  // those of row M / 2, min(N, max(0, M / 2 + offset)).
  %M = memref.dim %q, %c2 : !Q
  %half = arith.divui %M, %c2 : index
  %coff = arith.constant {{CAUSAL_OFFSET}} : index
  %mid0 = arith.addi %half, %coff : index
  %c0 = arith.constant 0 : index
  %mid = arith.maxsi %mid0, %c0 : index
  %keys = arith.minsi %mid, %N : index
  %most = arith.constant {{FEW_MAX_KEYS}} : index
  %few = arith.cmpi ule, %keys, %most : index
//#else
  %most = arith.constant {{FEW_MAX_KEYS}} : index
  %few = arith.cmpi ule, %N, %most : index
//#endif
  scf.if %few {
    func.call @{{NAME}}_few({{CALL_ARGS}}) : ({{TYPES}}) -> ()
  } else {
    func.call @{{NAME}}_many({{CALL_ARGS}}) : ({{TYPES}}) -> ()
  }
  return
}
