// A small fa op with dynamic dims (test/Fuzz/fuzz_tools.py gives fa-check random options on it).
func.func @small(%q: tensor<?x2x?x16xf32>, %k: tensor<?x1x?x16xf32>, %v: tensor<?x1x?x16xf32>, %len: tensor<?xi32>) -> tensor<?x2x?x16xf32> {
  %o = "fa.gridwise_attention"(%q, %k, %v, %len) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0, 0, 0, 0, 0>, scale = 0.25 : f32, causal_offset = 0 : i64}
      : (tensor<?x2x?x16xf32>, tensor<?x1x?x16xf32>, tensor<?x1x?x16xf32>, tensor<?xi32>) -> tensor<?x2x?x16xf32>
  return %o : tensor<?x2x?x16xf32>
}
