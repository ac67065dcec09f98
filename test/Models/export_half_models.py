#!/usr/bin/env python3
"""Exports small half-precision (f16 / bf16) attention models, plus a few
attention variants, to MLIR with torch-mlir (run by hand, not by CI):

    python3 test/Models/export_half_models.py test/Models

Each model goes to linalg-on-tensors and to TOSA as
test/Models/half_<name>.<linalg|tosa>.mlir. Weights are function arguments
(as in export_models.py) so the IR stays small; dims are small; the
computation is written the way the reference implementations (HF eager,
SDPA) write it. Deterministic: seeded, and the IR depends only on shapes.
Needs torch (CPU is enough) and torch-mlir from PyPI; made with torch 2.15.0
and torch-mlir 20261001.

  gqa_decoder_f16     Llama-style block: RMSNorm, RoPE, GQA 8 query / 2 KV heads
                      through SDPA(is_causal, enable_gqa), seq 33, head dim 64
  gqa_decoder_bf16    the same in bf16
  encoder_padmask_f16 BERT/DistilBERT-style layer, int64 padding mask applied
                      with scores.masked_fill(mask == 0, finfo(f16).min)
  kv_decode_f16       one decode step (M = 1): the position index writes the new
                      K/V into a static cache (one-hot torch.where; index_copy
                      does not export, see KvDecode) and masks the not yet
                      written cache rows (masked_fill finfo.min)
  cross_attn_bf16     encoder-decoder cross-attention (BART-style, q scaled
                      first), M = 17 decoder tokens over N = 29 encoder tokens
  alibi_f16           BLOOM/MPT-style ALiBi: slope[h] * (j - i) added to the
                      scores, causal mask by masked_fill finfo.min
  sliding_window_f16  Mistral-style float bias: 0 inside a causal window of 8,
                      finfo(f16).min outside, added to the scores
  lse_f32             attention that also returns logsumexp of its scores
"""
import math
import os
import sys

import torch
import torch.nn.functional as F
from torch_mlir import fx

try:
    from importlib.metadata import version as _pkg_version
    TORCH_MLIR_VERSION = _pkg_version("torch-mlir")
except Exception:  # pragma: no cover
    TORCH_MLIR_VERSION = "unknown"


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_models import LlamaBlock  # noqa: E402


# The decoder layer is the f32 export's Llama block (export_models.py), run in
# f16 / bf16 here.
GqaDecoder = LlamaBlock


def args_gqa(dtype, B=1, S=33, H=512, F_=256):
    r, d = (lambda *s: torch.randn(*s, dtype=dtype)), GqaDecoder.d
    kv = GqaDecoder.kv_heads * d
    return (r(B, S, H), r(1, 1, S, d), r(1, 1, S, d), r(H, H), r(H, kv), r(H, kv),
            r(H, H), r(H, F_), r(H, F_), r(F_, H), r(H), r(H))


class EncoderPadMask(torch.nn.Module):
    """DistilBERT-style TransformerBlock (eager): the padding mask is an int64
    attention_mask (1 keep, 0 pad), applied with masked_fill of finfo.min."""
    heads = 4

    def forward(self, x, attention_mask, wq, wk, wv, wo, w1, w2, g1, b1, g2, b2):
        B, S, H = x.shape
        d = H // self.heads
        split = lambda t: t.view(B, S, self.heads, d).transpose(1, 2)
        q = split(x @ wq) / math.sqrt(d)
        k, v = split(x @ wk), split(x @ wv)
        scores = q @ k.transpose(2, 3)
        mask = (attention_mask == 0).view(B, 1, 1, S).expand_as(scores)
        scores = scores.masked_fill(mask, torch.finfo(scores.dtype).min)
        p = torch.softmax(scores, dim=-1)
        ctx = (p @ v).transpose(1, 2).reshape(B, S, H)
        h = F.layer_norm(ctx @ wo + x, (H,), g1, b1)
        return F.layer_norm(F.gelu(h @ w1) @ w2 + h, (H,), g2, b2)


def args_encoder(dtype, B=2, S=40, H=128, F_=256):
    r = lambda *s: torch.randn(*s, dtype=dtype)
    mask = torch.ones(B, S, dtype=torch.int64)
    mask[1, S // 2:] = 0
    return (r(B, S, H), mask, r(H, H), r(H, H), r(H, H), r(H, H), r(H, F_), r(F_, H),
            r(H), r(H), r(H), r(H))


class KvDecode(torch.nn.Module):
    """One decode step with a static KV cache: the int64 position `pos`
    (shape [1]) selects the cache row that the new token's K/V overwrite
    (torch.where on arange(L) == pos) and bounds the attended cache rows (key
    index <= pos, the others masked_fill'ed with finfo.min)."""
    heads, d = 4, 64

    def forward(self, x, pos, k_cache, v_cache, wq, wk, wv, wo):
        B, S, H = x.shape  # S == 1
        L = k_cache.shape[2]
        split = lambda t: t.view(B, S, self.heads, self.d).transpose(1, 2)
        q, k, v = split(x @ wq), split(x @ wk), split(x @ wv)
        # index_copy (HF StaticCache) exports to tm_tensor.scatter for
        # linalg-on-tensors and does not legalize to TOSA; the one-hot select
        # does the same update with plain elementwise ops in both.
        idx = torch.arange(L, device=x.device)
        write = (idx == pos).view(1, 1, L, 1)
        k_cache = torch.where(write, k, k_cache)
        v_cache = torch.where(write, v, v_cache)
        scores = q @ k_cache.transpose(2, 3) / math.sqrt(self.d)
        keep = idx.view(1, L) <= pos.view(S, 1)
        scores = scores.masked_fill(~keep.view(1, 1, S, L), torch.finfo(scores.dtype).min)
        p = torch.softmax(scores, dim=-1)
        a = (p @ v_cache).transpose(1, 2).reshape(B, S, H)
        return a @ wo, k_cache, v_cache


def args_kv_decode(dtype, B=1, L=48, H=256):
    r, d, h = (lambda *s: torch.randn(*s, dtype=dtype)), KvDecode.d, KvDecode.heads
    return (r(B, 1, H), torch.tensor([5], dtype=torch.int64), r(B, h, L, d), r(B, h, L, d),
            r(H, H), r(H, H), r(H, H), r(H, H))


class CrossAttention(torch.nn.Module):
    """BART-style encoder-decoder attention (eager): queries from the decoder,
    keys/values from the encoder output, q scaled before the matmul."""
    heads = 4

    def forward(self, x, memory, wq, wk, wv, wo):
        B, M, H = x.shape
        N = memory.shape[1]
        d = H // self.heads
        q = (x @ wq) * (d ** -0.5)
        q = q.view(B, M, self.heads, d).transpose(1, 2)
        k = (memory @ wk).view(B, N, self.heads, d).transpose(1, 2)
        v = (memory @ wv).view(B, N, self.heads, d).transpose(1, 2)
        p = torch.softmax(q @ k.transpose(2, 3), dim=-1)
        a = (p @ v).transpose(1, 2).reshape(B, M, H)
        return a @ wo


def args_cross(dtype, B=2, M=17, N=29, H=256):
    r = lambda *s: torch.randn(*s, dtype=dtype)
    return (r(B, M, H), r(B, N, H), r(H, H), r(H, H), r(H, H), r(H, H))


def alibi_slopes(n):
    start = 2 ** (-(2 ** -(math.log2(n) - 3)))
    return torch.tensor([start ** (i + 1) for i in range(n)])


class Alibi(torch.nn.Module):
    """ALiBi attention (causal): bias[h, i, j] = slope[h] * (j - i)."""
    heads, d = 8, 32

    def __init__(self):
        super().__init__()
        self.register_buffer("slopes", alibi_slopes(self.heads))

    def forward(self, x, wqkv, wo):
        B, S, H = x.shape
        q, k, v = (x @ wqkv).split(H, dim=2)
        split = lambda t: t.view(B, S, self.heads, self.d).transpose(1, 2)
        q, k, v = split(q), split(k), split(v)
        pos = torch.arange(S, device=x.device)
        rel = (pos.view(1, S) - pos.view(S, 1)).to(x.dtype)
        bias = self.slopes.to(x.dtype).view(1, self.heads, 1, 1) * rel.view(1, 1, S, S)
        scores = q @ k.transpose(2, 3) / math.sqrt(self.d) + bias
        causal = pos.view(1, S) > pos.view(S, 1)
        scores = scores.masked_fill(causal, torch.finfo(scores.dtype).min)
        p = torch.softmax(scores, dim=-1)
        return (p @ v).transpose(1, 2).reshape(B, S, H) @ wo


def args_alibi(dtype, B=1, S=33, H=256):
    r = lambda *s: torch.randn(*s, dtype=dtype)
    return (r(B, S, H), r(H, 3 * H), r(H, H))


class SlidingWindow(torch.nn.Module):
    """Mistral-style sliding-window attention (eager): a float bias, 0 where
    i - window < j <= i and finfo.min elsewhere, added to the scores."""
    heads, d, window = 4, 64, 8

    def forward(self, x, wq, wk, wv, wo):
        B, S, H = x.shape
        split = lambda t: t.view(B, S, self.heads, self.d).transpose(1, 2)
        q, k, v = split(x @ wq), split(x @ wk), split(x @ wv)
        i = torch.arange(S, device=x.device).view(S, 1)
        j = torch.arange(S, device=x.device).view(1, S)
        allowed = (j <= i) & (j > i - self.window)
        bias = torch.zeros(S, S, dtype=x.dtype, device=x.device)
        bias = bias.masked_fill(~allowed, torch.finfo(x.dtype).min)
        scores = q @ k.transpose(2, 3) / math.sqrt(self.d) + bias[None, None]
        p = torch.softmax(scores, dim=-1, dtype=torch.float32).to(q.dtype)
        return (p @ v).transpose(1, 2).reshape(B, S, H) @ wo


def args_window(dtype, B=1, S=33, H=256):
    r = lambda *s: torch.randn(*s, dtype=dtype)
    return (r(B, S, H), r(H, H), r(H, H), r(H, H), r(H, H))


class AttentionLse(torch.nn.Module):
    """Attention that also returns the log-sum-exp of its scaled scores (as a
    flash-attention forward does for its backward / split-KV merge)."""
    heads, d = 4, 64

    def forward(self, q, k, v):
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.d)
        lse = torch.logsumexp(scores, dim=-1)
        p = torch.softmax(scores, dim=-1)
        return p @ v, lse


def args_lse(dtype, B=1, M=33, N=40):
    r, h, d = (lambda *s: torch.randn(*s, dtype=dtype)), AttentionLse.heads, AttentionLse.d
    return (r(B, h, M, d), r(B, h, N, d), r(B, h, N, d))


MODELS = {
    "gqa_decoder_f16": (GqaDecoder, args_gqa, torch.float16),
    "gqa_decoder_bf16": (GqaDecoder, args_gqa, torch.bfloat16),
    "encoder_padmask_f16": (EncoderPadMask, args_encoder, torch.float16),
    "kv_decode_f16": (KvDecode, args_kv_decode, torch.float16),
    "cross_attn_bf16": (CrossAttention, args_cross, torch.bfloat16),
    "alibi_f16": (Alibi, args_alibi, torch.float16),
    "sliding_window_f16": (SlidingWindow, args_window, torch.float16),
    "lse_f32": (AttentionLse, args_lse, torch.float32),
}


def export_one(model, args, kind, path, title, script, **kwargs):
    """Exports `model` on `args` to `kind` at `path` under the header line
    `title` and one naming the `script` that made it; False (reported, not
    hidden) where torch-mlir fails."""
    try:
        text = str(fx.export_and_import(model, *args, output_type=kind, **kwargs))
    except Exception as e:
        msg = " ".join(str(e).split())
        print(f"{path}: torch-mlir failed: {type(e).__name__}: {msg[:300]}")
        return False
    with open(path, "w") as f:
        f.write(f"// {title}\n")
        f.write(f"// Generated by `python3 {script} test/Models`"
                f" (torch {torch.__version__.split('+')[0]}, torch-mlir"
                f" {TORCH_MLIR_VERSION}); do not edit.\n")
        f.write(text)
    print(f"{path}: written ({os.path.getsize(path)} bytes)")
    return True


def export_all(models, prefix, script, out_dir, only=None):
    """Exports each model of `models` (name -> (class, make_args, dtype)) to
    OUT_DIR/PREFIX_NAME.{linalg,tosa}.mlir; returns the exit status."""
    failed = 0
    for name, (cls, make_args, dtype) in models.items():
        if only and name not in only:
            continue
        doc = " ".join((cls.__doc__ or "").split())
        for kind, ext in (("linalg-on-tensors", "linalg"), ("tosa", "tosa")):
            torch.manual_seed(0)
            path = os.path.join(out_dir, f"{prefix}_{name}.{ext}.mlir")
            failed += not export_one(cls().eval(), make_args(dtype), kind, path,
                                     f"{prefix}_{name} ({kind}): {doc}", script, func_name=name)
    return 1 if failed else 0


def main(out_dir, only=None):
    return export_all(MODELS, "half", "test/Models/export_half_models.py", out_dir, only)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__),
                  set(sys.argv[2:])))
