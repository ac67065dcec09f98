#!/usr/bin/env python3
"""Calls one exported benchmark kernel of a fa-compile --export-kernels library
on PyTorch tensors, so that Nsight Compute can profile it: ncu does not attach
to fa-bench ("Failed to connect to process"), but profiles Python processes.
The runtime (libfa_rt_cuda.so) shares PyTorch's primary context, so tensors'
device pointers go straight into the memref descriptors. Checks the result
against PyTorch's SDPA. Needs bench/ncu_common.py and bench/bench_kernels.py
(and .def) beside it.

  ncu --clock-control none -k regex:main_kernel -s 1 -c 1 --section SpeedOfLight \\
      python3 bench/ncu_call.py gpu-run/bench_kernels.so gpu-run/libfa_rt_cuda.so 128 1024 0

Arguments: KERNELS.so RUNTIME.so D N CAUSAL [CALLS]; fp16, B = 4, H = 32, M = N,
or KERNELS.so RUNTIME.so B,Hq,Hkv,M,N,D,f16|bf16,CAUSAL [CALLS] (fa-bench's
--shape form; causal bottom-right aligned as there, M = 1 taking the
non-causal kernel). The kernel is the one fa-bench takes: its index in
bench/bench_kernels.def (bench/bench_kernels.py reads it).

  ncu --clock-control none -k regex:decode -c 2 --section SpeedOfLight \\
      python3 bench/ncu_call.py gpu-run/bench_kernels.so gpu-run/libfa_rt_cuda.so \\
      8,32,8,1,4096,128,bf16,0

With FA_NCU_FLUSH=1 each call comes behind a 256 MB write, as fa-bench and
triton.testing.do_bench time kernels (the L2 then holds that write's dirty
lines): profile with --cache-control none to see the kernel as they time it.
"""
import ctypes
import sys

import torch
from bench_kernels import kernel_index
from ncu_common import flusher, parse_shape

if len(sys.argv) < 4 or ("," not in sys.argv[3] and len(sys.argv) < 6):
    sys.exit(__doc__)
kernels, runtime = sys.argv[1], sys.argv[2]
if "," in sys.argv[3]:
    b, hq, hkv, m, n, d, dtype, causal = parse_shape(sys.argv[3])
    rest = sys.argv[4:]
else:
    d, n, causal = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    b, hq, hkv, m, dtype = 4, 32, 32, n, torch.float16
    rest = sys.argv[6:]
calls = int(rest[0]) if rest else 2
causal = causal if m != 1 else 0
torch.zeros(1, device="cuda")  # PyTorch's context first: the runtime then shares it
rt = ctypes.CDLL(runtime, mode=ctypes.RTLD_GLOBAL)
lib = ctypes.CDLL(kernels)


class Memref4(ctypes.Structure):
    _fields_ = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
                ("offset", ctypes.c_int64), ("sizes", ctypes.c_int64 * 4),
                ("strides", ctypes.c_int64 * 4)]


def memref(t):
    return Memref4(t.data_ptr(), t.data_ptr(), 0, (ctypes.c_int64 * 4)(*t.shape),
                   (ctypes.c_int64 * 4)(*t.stride()))


q = torch.randn(b, hq, m, d, device="cuda", dtype=dtype)
k, v = [torch.randn(b, hkv, n, d, device="cuda", dtype=dtype) for _ in range(2)]
o = torch.empty_like(q)
index = kernel_index(d, "bf16" if dtype == torch.bfloat16 else "f16", causal)
kernel = getattr(lib, "_mlir_ciface_fa_attention_%d" % index)
args = [memref(t) for t in (q, k, v, o)]
flush = flusher()
for _ in range(calls):
    flush()
    kernel(*[ctypes.byref(a) for a in args])
torch.cuda.synchronize()
g = hq // hkv
kr, vr = k.repeat_interleave(g, 1).float(), v.repeat_interleave(g, 1).float()
mask = None
if causal:  # bottom-right aligned: row i sees keys j <= i + N - M
    mask = torch.ones(m, n, device="cuda", dtype=torch.bool).tril(n - m)
ref = torch.nn.functional.scaled_dot_product_attention(q.float(), kr, vr, attn_mask=mask).to(dtype)
err = (o - ref).abs().max().item()
print("ncu_call: max abs error %.3g, runtime status %d" % (err, rt.faRuntimeGetStatus()))
sys.exit(0 if err < (2e-2 if dtype == torch.bfloat16 else 1e-2) and rt.faRuntimeGetStatus() == 0 else 1)
