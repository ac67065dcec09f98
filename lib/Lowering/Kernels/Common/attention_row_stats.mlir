// The epilogue's row statistics: included (//#include) by the attention
// kernels after their key loop. From the loop's results %fin (O, m, l per
// thread's own columns) it makes %lfin (the rows' sums), %out = O / l (0 for
// a row with no visible key) and %lsev, the log-sum-exp (-inf there). With
// SINKS, the sink of head %h (times log2(e)) joins each row's max and sum:
// m' = max(m, s), alpha = exp2(m - m'), l' = l alpha + exp2(s - m'),
// O = acc alpha / l', lse = (m' + log2 l') ln 2.
//#vars NR P O_ROW_STAT SINKS_ELT
//#flags SINKS SINKS_F32
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
//#if SINKS
    %sk0 = memref.load %sinks[%h] : !SINKS
//#if SINKS_F32
    %skf = arith.addf %sk0, %zf : f32
//#else
    %skf = arith.extf %sk0 : {{SINKS_ELT}} to f32
//#endif
    %sklog2e = arith.constant 1.4426950408889634 : f32
    %sk2 = arith.mulf %skf, %sklog2e : f32
    %sk2r = vector.broadcast %sk2 : f32 to !{{P}}rows
    %skme = arith.mulf %fin#1, %esr : !{{P}}rows
    %skmp = arith.maximumf %skme, %sk2r : !{{P}}rows
    %skinf = arith.cmpf oeq, %skmp, %ninfr : !{{P}}rows
    %skmps = arith.select %skinf, %zrows, %skmp : vector<{{NR}}xi1>, !{{P}}rows
    %skdm = arith.subf %skme, %skmps : !{{P}}rows
    %skal = math.exp2 %skdm : !{{P}}rows
    %skds = arith.subf %sk2r, %skmps : !{{P}}rows
    %skes = math.exp2 %skds : !{{P}}rows
    %skla = arith.mulf %lfin, %skal : !{{P}}rows
    %skl = arith.addf %skla, %skes : !{{P}}rows
    %lzero = arith.cmpf oeq, %skl, %zrows : !{{P}}rows
    %linvs = arith.divf %skal, %skl : !{{P}}rows
    %linv = arith.select %lzero, %zrows, %linvs : vector<{{NR}}xi1>, !{{P}}rows
    %lb = vector.shuffle %linv, %linv [{{O_ROW_STAT}}] : !{{P}}rows, !{{P}}rows
    %out = arith.mulf %fin#0, %lb : !{{P}}ofrag
    %ln2 = arith.constant 0.69314718055994531 : f32
    %ln2r = vector.broadcast %ln2 : f32 to !{{P}}rows
    %lg = math.log2 %skl : !{{P}}rows
    %lsum = arith.addf %skmp, %lg : !{{P}}rows
    %lnat = arith.mulf %lsum, %ln2r : !{{P}}rows
    %lsev = arith.select %lzero, %ninfr, %lnat : vector<{{NR}}xi1>, !{{P}}rows
//#else
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
//#endif
