"""What bench/ncu_call.py and bench/ncu_sdpa.py share: fa-bench's --shape form
and the L2 flush before each call (FA_NCU_FLUSH=1)."""
import os

import torch

DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16}


def parse_shape(arg):
    """B,Hq,Hkv,M,N,D,f16|bf16,CAUSAL -> (b, hq, hkv, m, n, d, dtype, causal)."""
    f = arg.split(",")
    b, hq, hkv, m, n, d = map(int, f[:6])
    return b, hq, hkv, m, n, d, DTYPES[f[6]], int(f[7])


def flusher():
    """What to call before each call: with FA_NCU_FLUSH=1 a 256 MB write, as fa-bench
    and triton.testing.do_bench time kernels (the L2 then holds its dirty lines);
    otherwise nothing."""
    if os.environ.get("FA_NCU_FLUSH") != "1":
        return lambda: None
    return torch.empty(256 << 20, device="cuda", dtype=torch.uint8).zero_
