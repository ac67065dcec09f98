// O *= alpha (attention_online_softmax's), included (//#include) by the
// attention kernels: %accs from %acc.
//#vars P O_ROW_STAT
      %accs = scf.if %anymove -> (!{{P}}ofrag) {
        %ab = vector.shuffle %alpha, %alpha [{{O_ROW_STAT}}] : !{{P}}rows, !{{P}}rows
        %accr = arith.mulf %acc, %ab : !{{P}}ofrag
        scf.yield %accr : !{{P}}ofrag
      } else {
        scf.yield %acc : !{{P}}ofrag
      }
