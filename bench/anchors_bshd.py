# Usage (GPU machine with PyTorch and Triton): python3 anchors_bshd.py SHAPES_FILE (one shape a line)
# PyTorch SDPA (flash, cuDNN, efficient backends) on [B, S, H, D] tensors, as models hold them
# after view(B, S, H, D): q, k and v are passed as .transpose(1, 2) views (no copies), the way
# fa-bench --layout=bshd passes them to our kernels. Shape lines "B Hq Hkv M N D dtype causal"
# (bench/shapes_bshd.txt); causal only with M = N or M = 1. TFLOP/s = 4 B Hq (visible pairs) D / t,
# timed by triton.testing.do_bench (a 256 MB write before each launch), as anchors_any.py does.
import sys, math, torch, triton
from torch.nn.attention import sdpa_kernel, SDPBackend
import torch.nn.functional as F
dtypes = {"f16": torch.float16, "bf16": torch.bfloat16}
backends = {"flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION,
            "efficient": SDPBackend.EFFICIENT_ATTENTION}
print(torch.__version__, torch.cuda.get_device_name(), flush=True)
print("B Hq Hkv M N D dtype causal " + " ".join(backends) + " best", flush=True)
for line in open(sys.argv[1]):
    if not line.strip() or line.startswith("#"):
        continue
    f = line.split()
    B, Hq, Hkv, M, N, D = map(int, f[:6])
    dtype, causal = dtypes[f[6]], f[7] == "1" and M != 1
    torch.manual_seed(0)
    q = torch.randn(B, M, Hq, D, dtype=dtype, device="cuda").transpose(1, 2)
    k = torch.randn(B, N, Hkv, D, dtype=dtype, device="cuda").transpose(1, 2)
    v = torch.randn(B, N, Hkv, D, dtype=dtype, device="cuda").transpose(1, 2)
    pairs = M * (M + 1) / 2 if causal else M * N
    flops = 4 * B * Hq * pairs * D
    row = []
    for name, backend in backends.items():
        try:
            with sdpa_kernel(backend):
                run = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal,
                                                             scale=1 / math.sqrt(D), enable_gqa=Hq != Hkv)
                run()
                ms = triton.testing.do_bench(run, warmup=25, rep=100)
            row.append(flops / ms / 1e9)
        except Exception:
            row.append(None)
    best = max([r for r in row if r] or [0])
    print(" ".join(f[:8]), " ".join("-" if r is None else f"{r:.2f}" for r in row), f"{best:.2f}", flush=True)
