// The epilogue's row statistics: included (//#include) by the attention
// kernels after their key loop. From the loop's results %fin (O, m, l per
// thread's own columns) it makes %lfin (the rows' sums), %out = O / l (0 for
// a row with no visible key) and %lsev, the log-sum-exp (-inf there).
//#vars NR P O_ROW_STAT
    // Each thread summed its own columns of l: the quad's four partials make
    // the row's sum.
    %one32 = arith.constant 1 : i32
    %two32 = arith.constant 2 : i32
    %w32 = arith.constant 32 : i32
    %lfin = affine.for %i = 0 to {{NR}} iter_args(%lv = %fin#2) -> (!{{P}}rows) {
      %x = vector.extract %lv[%i] : f32 from !{{P}}rows
      %y1, %ok1 = gpu.shuffle xor %x, %one32, %w32 : f32
      %x1 = arith.addf %x, %y1 : f32
      %y2, %ok2 = gpu.shuffle xor %x1, %two32, %w32 : f32
      %x2 = arith.addf %x1, %y2 : f32
      %lv2 = vector.insert %x2, %lv[%i] : f32 into !{{P}}rows
      affine.yield %lv2 : !{{P}}rows
    }
    %onerows = arith.constant dense<1.0> : !{{P}}rows
    %lzero = arith.cmpf oeq, %lfin, %zrows : !{{P}}rows
    %linv0 = arith.divf %onerows, %lfin : !{{P}}rows
    %linv = arith.select %lzero, %zrows, %linv0 : vector<{{NR}}xi1>, !{{P}}rows
    %lb = vector.shuffle %linv, %linv [{{O_ROW_STAT}}] : !{{P}}rows, !{{P}}rows
    %out = arith.mulf %fin#0, %lb : !{{P}}ofrag
    // lse = (m + log2 l) * ln 2 in natural log; -inf for a row with no
    // visible key.
    %ln2 = arith.constant 0.69314718055994531 : f32
    %ln2r = vector.broadcast %ln2 : f32 to !{{P}}rows
    %lg = math.log2 %lfin : !{{P}}rows
    %me = arith.mulf %fin#1, %esr : !{{P}}rows
    %lsum = arith.addf %me, %lg : !{{P}}rows
    %lnat = arith.mulf %lsum, %ln2r : !{{P}}rows
    %lsev = arith.select %lzero, %ninfr, %lnat : vector<{{NR}}xi1>, !{{P}}rows
