// The constants of the Hopper kernel's softmax functions, included
// (//#include) at their top: 0 and -inf (scalar and per row) and the
// exponent's scale {{EXP_SCALE}} (per score and per row).
//#vars EXP_SCALE P
  %zf = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %zrows = vector.broadcast %zf : f32 to !{{P}}rows
  %ninfr = vector.broadcast %ninf : f32 to !{{P}}rows
  %es = arith.constant {{EXP_SCALE}} : f32
  %ess = vector.broadcast %es : f32 to !{{P}}sfrag
  %esr = vector.broadcast %es : f32 to !{{P}}rows
