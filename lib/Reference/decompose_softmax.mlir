// The transform script fa-decompose-softmax applies: every linalg.softmax is
// decomposed by upstream's own AggregatedOpInterface (max, exp(x - max), sum,
// division as linalg.generic ops), which every pipeline can lower.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__fa_decompose_softmax(%root: !transform.any_op {transform.readonly}) {
    %softmax = transform.structured.match ops{["linalg.softmax"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %parts = transform.structured.decompose_interface %softmax
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
