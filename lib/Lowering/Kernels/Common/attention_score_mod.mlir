// The op's score_mod on one fragment of scores (attention_score_mod.mlir):
// a module-level function of the tensor-core kernels, appended once per
// kernel and again for tiles whose scores it maps uniformly (FRAG_FN
// calling MOD_CALLEE: ScoreFunctions.c, "tile-uniform score_mod"). Element
// e of the fragment is the score of query %row0 + S_ROWS[e] and key %col0 +
// S_COLS[e]; the callee takes the bases and the offsets apart (i0, di, j0,
// dj), so that its integer-to-float conversions and its tile-uniform reads
// are computed once per thread, not per score. The scores are in natural
// units (NATURAL) or in the log2 domain, converted for score_mod and back;
// products and sums may contract into FMAs (ScoreFunctions.c).
//#vars P NS S_ROWS S_COLS FRAG_FN MOD_CALLEE CAPS CAP_TYPES CAP_PARAMS
//#flags NATURAL
func.func private @{{FRAG_FN}}(%fv0: !{{P}}sfrag, %b: index, %h: index, %row0: index, %col0: index{{CAP_PARAMS}})
    -> !{{P}}sfrag attributes {fa.inline} {
  %frows = arith.constant dense<[{{S_ROWS}}]> : !{{P}}sidx
  %fcols = arith.constant dense<[{{S_COLS}}]> : !{{P}}sidx
//#if NATURAL
  %ln2f = arith.constant 1.0 : f32
  %log2ef = arith.constant 1.0 : f32
//#else
  %ln2f = arith.constant 0.69314718055994531 : f32
  %log2ef = arith.constant 1.4426950408889634 : f32
//#endif
  %r = affine.for %fi = 0 to {{NS}} iter_args(%fv = %fv0) -> (!{{P}}sfrag) {
    %frofs = vector.extract %frows[%fi] : i32 from !{{P}}sidx
    %fcofs = vector.extract %fcols[%fi] : i32 from !{{P}}sidx
    %di = arith.index_cast %frofs : i32 to index
    %dj = arith.index_cast %fcofs : i32 to index
    %fx = vector.extract %fv[%fi] : f32 from !{{P}}sfrag
    %fxn = arith.mulf %fx, %ln2f fastmath<contract> : f32
    %fxm = func.call @{{MOD_CALLEE}}(%fxn, %b, %h, %row0, %di, %col0, %dj{{CAPS}})
        : (f32, index, index, index, index, index, index{{CAP_TYPES}}) -> f32
    %fxo = arith.mulf %fxm, %log2ef fastmath<contract> : f32
    %fn = vector.insert %fxo, %fv[%fi] : f32 into !{{P}}sfrag
    affine.yield %fn : !{{P}}sfrag
  }
  return %r : !{{P}}sfrag
}
