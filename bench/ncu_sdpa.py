#!/usr/bin/env python3
"""Calls PyTorch SDPA with one backend on one shape, so that Nsight Compute can
profile the anchor's kernels beside ours (bench/ncu_call.py):

  ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum \\
      python3 bench/ncu_sdpa.py cudnn 8,32,8,1,4096,128,bf16,0

Arguments: BACKEND (flash, cudnn, efficient) B,Hq,Hkv,M,N,D,f16|bf16,CAUSAL [CALLS]
(fa-bench's --shape form; causal only for M = N). With FA_NCU_FLUSH=1 each
call comes behind a 256 MB write, as triton.testing.do_bench times it: profile
with --cache-control none to see the kernels as the anchors are timed. Needs
bench/ncu_common.py beside it."""
import math
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from ncu_common import flusher, parse_shape

if len(sys.argv) < 3:
    sys.exit(__doc__)
backend = {"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION,
           "efficient": SDPBackend.EFFICIENT_ATTENTION}[sys.argv[1]]
b, hq, hkv, m, n, d, dtype, causal = parse_shape(sys.argv[2])
calls = int(sys.argv[3]) if len(sys.argv) > 3 else 4
q = torch.randn(b, hq, m, d, device="cuda", dtype=dtype)
k, v = [torch.randn(b, hkv, n, d, device="cuda", dtype=dtype) for _ in range(2)]
flush = flusher()
with sdpa_kernel(backend):
    for _ in range(calls):
        flush()
        F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal), scale=1 / math.sqrt(d),
                                       enable_gqa=hq != hkv)
torch.cuda.synchronize()
