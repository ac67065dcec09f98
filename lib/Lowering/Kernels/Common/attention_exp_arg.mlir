// The exponents of P (log2 domain), included (//#include) after the scores:
// %earg = S * scale - m * scale, m the row's shift %mshift (broadcast over
// its columns), scale {{EXP_SCALE}} (%ess, %esr). One FFMA a score.
//#vars EXP_SCALE P S_ROW_STAT
      %mes = arith.mulf %mshift, %esr : !{{P}}rows
      %mb = vector.shuffle %mes, %mes [{{S_ROW_STAT}}] : !{{P}}rows, !{{P}}rows
      %negmb = arith.negf %mb : !{{P}}sfrag
      %earg = math.fma %s4, %ess, %negmb : !{{P}}sfrag
