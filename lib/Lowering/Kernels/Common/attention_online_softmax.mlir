// The online softmax step of one key tile, on register fragments: included
// (//#include) by the attention kernels after attention_scores. From %s4,
// the running max %mrow and sum %lrow it makes %mnew, %alpha, %anymove (whether
// O needs the rescale of attention_rescale) and %earg (the exponents of P).
//#vars MAX_SLACK LAYOUT P NR
      // Online softmax on the fragments: m' = max(m, rowmax S), P = exp2(S - m'),
      // alpha = exp2(m - m'), l' = l * alpha + rowsum P, O *= alpha. A row with
      // no visible key so far keeps m' = -inf; it is shifted by 0 instead, so
      // that P = 0 and alpha = 0 there, never NaN.
      // The running max is a bound, not the max: a row keeps its m unless the
      // tile's max exceeds it by more than {{MAX_SLACK}} in the exponent, so
      // P <= 2^{{MAX_SLACK}} (exact in f16 / bf16 as any P is; O and l share
      // the same m, so O / l is unchanged) and O is rescaled only on the few
      // tiles where some row's max jumps: in long rows, almost never.
      %mmax = "fa.blockwise_reduction"(%s4, %mrow) {kind = "max", axis = 1 : i64, layout = "{{LAYOUT}}"}
          : (!{{P}}sfrag, !{{P}}rows) -> !{{P}}rows
      %grow0 = arith.subf %mmax, %mrow : !{{P}}rows
      %grow = arith.mulf %grow0, %esr : !{{P}}rows
      %slack = arith.constant dense<{{MAX_SLACK}}.0> : !{{P}}rows
      // Not for -inf - -inf = NaN: such a row has seen no key yet.
      %moved = arith.cmpf ogt, %grow, %slack : !{{P}}rows
      %mnew = arith.select %moved, %mmax, %mrow : vector<{{NR}}xi1>, !{{P}}rows
      %minf = arith.cmpf oeq, %mnew, %ninfr : !{{P}}rows
      %mshift = arith.select %minf, %zrows, %mnew : vector<{{NR}}xi1>, !{{P}}rows
      %dm0 = arith.subf %mrow, %mshift : !{{P}}rows
      %dm = arith.mulf %dm0, %esr : !{{P}}rows
      %alpha = math.exp2 %dm : !{{P}}rows
      // O *= alpha only when the m of some row of the warp moved: alpha is
      // exactly 1 elsewhere (or 0 on a row whose O is still 0). The vote makes
      // the branch uniform over the warp.
      %mymove = vector.reduction <or>, %moved : vector<{{NR}}xi1> into i1
      %lanes = arith.constant -1 : i32
      %anymove = nvvm.vote.sync any %lanes, %mymove -> i1
//#include attention_exp_arg
