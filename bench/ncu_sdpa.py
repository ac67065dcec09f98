#!/usr/bin/env python3
"""Calls PyTorch SDPA with one backend on one shape, so that Nsight Compute can
profile the anchor's kernels beside ours (bench/ncu_call.py):

  ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum \\
      python3 bench/ncu_sdpa.py cudnn 8,32,8,1,4096,128,bf16,0

Arguments: BACKEND (flash, cudnn, efficient) B,Hq,Hkv,M,N,D,f16|bf16,CAUSAL [CALLS]
(fa-bench's --shape form; causal only for M = N). With FA_NCU_FLUSH=1 each
call comes behind a 256 MB write, as triton.testing.do_bench times it: profile
with --cache-control none to see the kernels as the anchors are timed."""
import math
import os
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

if len(sys.argv) < 3:
    sys.exit(__doc__)
backend = {"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION,
           "efficient": SDPBackend.EFFICIENT_ATTENTION}[sys.argv[1]]
f = sys.argv[2].split(",")
b, hq, hkv, m, n, d = map(int, f[:6])
dtype, causal = {"f16": torch.float16, "bf16": torch.bfloat16}[f[6]], f[7] == "1"
calls = int(sys.argv[3]) if len(sys.argv) > 3 else 4
q = torch.randn(b, hq, m, d, device="cuda", dtype=dtype)
k, v = [torch.randn(b, hkv, n, d, device="cuda", dtype=dtype) for _ in range(2)]
flush = torch.empty(256 << 20, device="cuda", dtype=torch.uint8) if os.environ.get("FA_NCU_FLUSH") == "1" else None
with sdpa_kernel(backend):
    for _ in range(calls):
        if flush is not None:
            flush.zero_()
        F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=1 / math.sqrt(d),
                                       enable_gqa=hq != hkv)
torch.cuda.synchronize()
