//#flags GPU
  // The workgroup's threads (Lowering.h): %nth of them, this one %tid. On
  // the CPU a workgroup is one thread.
//#if GPU
  %tid = gpu.thread_id x
  %nth = gpu.block_dim x
//#else
  %tid = arith.constant 0 : index
  %nth = arith.constant 1 : index
//#endif
