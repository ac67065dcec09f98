"""The kernels of bench/attention_bench.mlir as bench/bench_kernels.def lists
them (fa-bench includes the same file): KERNELS[i] = (d, dtype, causal, kind,
param) is exported by fa-compile --export-kernels as _mlir_ciface_fa_attention_<i>
(kind "none" with param 0: the plain kernel; the other kinds are described in
bench_kernels.def)."""
import os
import re

_DEF = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench_kernels.def")
with open(_DEF) as _f:
    KERNELS = [(int(d), dtype, causal == "1", kind, int(param)) for d, dtype, causal, kind, param in
               re.findall(r"^FA_BENCH_KERNEL\((\d+), (\w+), ([01]), (\w+), (\d+)\)$", _f.read(), re.M)]


def kernel_index(d, dtype, causal, kind="none", param=0):
    """The index of the kernel of head dim d, dtype "f16" or "bf16", causal or
    not, and kind (with its param; "none" for the plain kernel)."""
    return KERNELS.index((d, dtype, bool(causal), kind, param))
