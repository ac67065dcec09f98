#!/usr/bin/env python3
"""Exports attention with dynamic dims to MLIR with torch-mlir (run by hand,
not by CI):

    python3 test/Models/export_dynamic_models.py test/Models

torch.export with a dynamic sequence length makes torch-mlir spell the
batch-head reshapes of the scores as tensor.reshape with a shape operand
(tensor.from_elements of computed sizes) and broadcast each matmul operand
with a linalg.generic of tensor.extract: docs/passes.md says which of those
fusion proves to be plain copies. Each model goes to
test/Models/dyn_<name>.linalg.mlir; TOSA is attempted too and, where
torch-mlir cannot legalize the dynamic shapes, reported, not written.
Needs torch (CPU is enough) and torch-mlir from PyPI; made with torch 2.15.0
and torch-mlir 20261001.

  seq_f32    multi-head self-attention, 4 heads of 16, sequence dynamic
  seq_f16    the same in f16
  batch_seq  batch and sequence both dynamic
"""
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_half_models import export_one  # noqa: E402


class SelfAttention(torch.nn.Module):
    """x @ wq/wk/wv split into heads, softmax(q k^T / sqrt(d)) v, heads merged."""
    heads = 4

    def forward(self, x, wq, wk, wv):
        B, S, H = x.shape
        d = H // self.heads
        split = lambda t: t.view(B, S, self.heads, d).transpose(1, 2)
        q, k, v = split(x @ wq), split(x @ wk), split(x @ wv)
        p = torch.softmax(q @ k.transpose(2, 3) / math.sqrt(d), dim=-1)
        return (p @ v).transpose(1, 2).reshape(B, S, H)


def args(dtype, B=2, S=16, H=64):
    r = lambda *s: torch.randn(*s, dtype=dtype)
    return (r(B, S, H), r(H, H), r(H, H), r(H, H))


SEQ = torch.export.Dim("seq", min=2, max=4096)
BATCH = torch.export.Dim("batch", min=1, max=64)

MODELS = {
    "seq_f32": (torch.float32, {"x": {1: SEQ}, "wq": None, "wk": None, "wv": None}),
    "seq_f16": (torch.float16, {"x": {1: SEQ}, "wq": None, "wk": None, "wv": None}),
    "batch_seq": (torch.float32, {"x": {0: BATCH, 1: SEQ}, "wq": None, "wk": None, "wv": None}),
}


def main(out_dir, only=None):
    failed = 0
    for name, (dtype, dynamic) in MODELS.items():
        if only and name not in only:
            continue
        for kind, ext in (("linalg-on-tensors", "linalg"), ("tosa", "tosa")):
            torch.manual_seed(0)
            path = os.path.join(out_dir, f"dyn_{name}.{ext}.mlir")
            ok = export_one(SelfAttention().eval(), args(dtype), kind, path,
                            f"dyn_{name} ({kind}): {SelfAttention.__doc__}",
                            "test/Models/export_dynamic_models.py",
                            func_name=f"dyn_{name}", dynamic_shapes=dynamic)
            failed += not ok and ext == "linalg"  # TOSA: torch-mlir's limit, reported
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__),
                  set(sys.argv[2:])))
