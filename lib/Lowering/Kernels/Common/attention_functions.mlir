//#vars MASK_FN MOD_FN MOD_INDICES CAP_TYPES RANGE_FN ROW_RANGE_FN RANGE_CAP_TYPES SUMMARY_DECLS
//#flags MASK MOD MOD_TILE KEY_TABLE
// --- the op's mask and score_mod, as kernel functions -----------------------
// (attention_functions.mlir.) Declared here; ScoreFunctions.c defines them
// (copies of the op's functions on the kernel's buffers, inlined later).
//#if MASK
func.func private @{{MASK_FN}}(index, index, index, index{{CAP_TYPES}}) -> i1
func.func private @{{RANGE_FN}}(index, index, index, index, index, index{{RANGE_CAP_TYPES}}) -> (i1, i1)
//#if KEY_TABLE
// (Its copy whose reads at one query are exact: the mixed tiles' row test.)
func.func private @{{ROW_RANGE_FN}}(index, index, index, index, index, index{{RANGE_CAP_TYPES}}) -> (i1, i1)
//#endif
{{SUMMARY_DECLS}}
//#endif
//#if MOD
// (The tensor-core kernels' copy takes the query and key as base and offset:
// MOD_INDICES; with MOD_TILE, its tile-uniform copy and that one's test.)
func.func private @{{MOD_FN}}(f32, {{MOD_INDICES}}{{CAP_TYPES}}) -> f32
//#if MOD_TILE
func.func private @{{MOD_FN}}_tile(f32, {{MOD_INDICES}}{{CAP_TYPES}}) -> f32
func.func private @{{MOD_FN}}_tile_range(index, index, index, index, index, index{{CAP_TYPES}}) -> i1
//#endif
//#endif
