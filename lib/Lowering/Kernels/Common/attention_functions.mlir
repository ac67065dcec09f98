//#vars MASK_FN MOD_FN CAP_TYPES RANGE_FN RANGE_CAP_TYPES SUMMARY_DECLS
//#flags MASK MOD
// --- the op's mask and score_mod, as kernel functions -----------------------
// (attention_functions.mlir.) Declared here; ScoreFunctions.c defines them
// (copies of the op's functions on the kernel's buffers, inlined later).
//#if MASK
func.func private @{{MASK_FN}}(index, index, index, index{{CAP_TYPES}}) -> i1
func.func private @{{RANGE_FN}}(index, index, index, index, index, index{{RANGE_CAP_TYPES}}) -> (i1, i1)
{{SUMMARY_DECLS}}
//#endif
//#if MOD
func.func private @{{MOD_FN}}(f32, index, index, index, index{{CAP_TYPES}}) -> f32
//#endif
