#!/usr/bin/env python3
"""Launches one non-causal benchmark kernel (a cubin of gpu-run/ptx/) through
CuPy, so that Nsight Compute can profile it: ncu does not attach to fa-bench
("Failed to connect to process", cause not found), but profiles CuPy and
PyTorch programs. Times it with triton.testing.do_bench as anchors.py times
the anchors, and checks one (batch, head) against a float32 reference.

The kernel takes its memrefs as fa-to-nvvm's gpu.launch_func passes them for
the non-causal kernels: Q, V, then G = Hq / Hkv and MT = ceil(M / BM), then K,
O (each memref as allocated, aligned, offset, 4 sizes, 4 strides).

  ptxas -arch=sm_90 gpu-run/ptx/fa_attention_12_kernel.ptx -o k12.cubin
  ncu --clock-control none --set full -k regex:fa_attention --launch-skip 2 \\
      --launch-count 1 python3 bench/ncu_kernel.py k12.cubin fa_attention_12_kernel \\
      --n 1024 --d 128 --smem 69632
SMEM is the kernel's dynamic_shared_memory_size (fa-opt --fa-to-nvvm output)."""
import argparse
import math

import cupy as cp
import numpy as np
import torch
import triton

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("cubin")
ap.add_argument("kernel")
ap.add_argument("--b", type=int, default=4)
ap.add_argument("--h", type=int, default=32)
ap.add_argument("--n", type=int, default=1024)
ap.add_argument("--d", type=int, default=128)
ap.add_argument("--block-m", type=int, default=128)
ap.add_argument("--threads", type=int, default=128)
ap.add_argument("--smem", type=int, required=True)
a = ap.parse_args()

f = cp.RawModule(path=a.cubin).get_function(a.kernel)
f.max_dynamic_shared_size_bytes = a.smem
torch.manual_seed(0)
q, k, v = (torch.randn(a.b, a.h, a.n, a.d, dtype=torch.float16, device="cuda") for _ in range(3))
o = torch.zeros_like(q)


def desc(t):
    return [t.data_ptr(), t.data_ptr(), 0, a.b, a.h, a.n, a.d, a.h * a.n * a.d, a.n * a.d, a.d, 1]


mt = (a.n + a.block_m - 1) // a.block_m
args = tuple(np.uint64(x) for x in desc(q) + desc(v) + [1, mt] + desc(k) + desc(o))
stream = cp.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream)


def run():
    f((mt, a.h, a.b), (a.threads, 1, 1), args, shared_mem=a.smem, stream=stream)


run()
torch.cuda.synchronize()
ref = torch.softmax(q[0, 0].float() @ k[0, 0].float().T / math.sqrt(a.d), -1) @ v[0, 0].float()
err = (o[0, 0].float() - ref).abs().max().item()
ms = triton.testing.do_bench(run, warmup=50, rep=200)
print("%s N=%d D=%d: %.3f ms, %.1f TFLOP/s, max err %.1e"
      % (a.kernel, a.n, a.d, ms, 4 * a.b * a.h * a.n * a.n * a.d / ms / 1e9, err))
