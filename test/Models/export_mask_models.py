#!/usr/bin/env python3
"""Exports attention with the mask and score-modification spellings of issue 37
to MLIR with torch-mlir (run by hand, not by CI; the output is committed):

    python3 test/Models/export_mask_models.py test/Models [NAME...]

Each model goes to linalg-on-tensors and to TOSA as
test/Models/mask_<name>.<linalg|tosa>.mlir. Each is one attention, written the
way the named code base writes it (eager code, SDPA only where that code calls
SDPA), as a module that takes the projected q, k, v (and the mask, bias, sink
or table tensors the code passes in) as function arguments; the masks the code
builds from positions are built in the function from arange. Dims are small;
the IR depends only on the shapes (seeded, no weights inside). Made with
torch 2.15.0 and torch-mlir 20261001 (mask_models.md).

  gemma2_softcap_{f32,bf16}  HF Gemma-2 eager: q@k^T * scaling, tanh soft-capping
                     (softcap 50), + causal float mask (0 / finfo.min), softmax in
                     f32, GQA 4 q / 2 kv heads through repeat_kv (expand+reshape)
  gemma2_softcap_pad_{f32,bf16}  the same with a [B, N] padding mask (left padding)
                     in the 4-D float mask, added after the soft-capping
  gemma2_sliding_f32 the same with a sliding window of 8 AND causal in the 4-D
                     float mask (HF eager_mask: torch.where(bool, 0, finfo.min))
  mistral_swa_bool_f16  HF sdpa_attention_forward for Mistral: repeat_kv, then
                     SDPA with a boolean attn_mask (q - k < 8 and k <= q) from arange
  gptoss_sinks_{f32,bf16}  HF gpt-oss eager: scores * scale + causal mask, the
                     per-head sinks [H] -> [1,H,1,1] -> [B,H,M,1] cat'ed as a last
                     column, max subtracted, softmax, sink column dropped, @v
  llama4_chunked_f32 Llama-4 chunked local attention (chunk 8): llama-models'
                     create_chunked_attention_mask (block index equal, k <= q),
                     scores.masked_fill(~mask, -inf)
  prefix_lm_f32      prefix-LM mask k < 5 or k <= q, masked_fill(finfo.min)
  alibi_bloom_{f32,f16}  HF BLOOM: alibi [B*H,1,N] (an input) as baddbmm's
                     input (beta 1, alpha inv_norm) on merged batch*heads, view to
                     [B,H,M,N], f16 upcast to f32, masked_fill finfo.min, softmax in
                     f32, cast back, view merged, bmm with v
  t5_relbias_f32     HF T5: _relative_position_bucket(k - q, bidirectional, 32
                     buckets, max distance 128), the [32, H] bias table (an input)
                     looked up by bucket, permuted to [1,H,M,N], added to the
                     unscaled scores, softmax in f32
  hf_pad_causal_{f32,f16}  HF _prepare_4d_causal_attention_mask: int64 padding
                     mask [B, N] and the causal triangle as a float mask of
                     finfo(dtype).min, added to q@k^T / sqrt(d), softmax in f32
  clip_split_heads_f32  HF CLIP eager: bmm on [B*H,M,N], view to [B,H,M,N], +
                     causal mask [B,1,M,N], view back, softmax, bmm
  llama_clamp_min_f32  HF LLaMA 4.28: scores + (causal + padding mask), then
                     torch.max(scores, torch.tensor(finfo.min))
  espnet_masked_fill_zero_f32  ESPnet/WeNet forward_attention: bool mask
                     [B,1,N] (an input), scores.masked_fill(mask == 0, finfo.min),
                     softmax, .masked_fill(mask == 0, 0.0) on the probabilities
  starcoder_mqa_fold_f32  HF GPTBigCode MQA _attn: query [B,M,H*D] reshaped to
                     [B,M*H,D] against the one key head [B,D,N] with baddbmm,
                     view [B,M,H,N], torch.where(causal, w, finfo.min), softmax, bmm
  falcon_broadcast_kv_f32  Falcon-7B MQA: the one K/V head expanded to every
                     query head, SDPA(is_causal=True)
  flash_ref_row_guard_f32  flash-attn's attention_ref: key padding mask [B,N]
                     (bool input) and causal local mask, masked_fill(~mask, -inf),
                     softmax, rows with no visible key masked_fill'ed to 0
  packed_docs_sdpa_bf16  packed documents: int64 document ids [N] (an input),
                     same document and k <= q as SDPA's boolean attn_mask
  packed_docs_eager_f32  the same in eager code, masked_fill(~mask, -inf)
"""
import math
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export_half_models import export_all  # noqa: E402

SCRIPT = "test/Models/export_mask_models.py"


def rnd(dtype):
    return lambda *s: torch.randn(*s, dtype=dtype)


def repeat_kv(hidden_states, n_rep):
    """transformers' repeat_kv: [B, Hkv, S, D] -> [B, Hkv * n_rep, S, D]."""
    batch, num_key_value_heads, slen, head_dim = hidden_states.shape
    if n_rep == 1:
        return hidden_states
    hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)
    return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)


def hf_eager_mask(allowed, dtype):
    """transformers' masking_utils.eager_mask: the boolean mask (True = attend)
    becomes a float mask, 0 where allowed and finfo(dtype).min elsewhere."""
    min_dtype = torch.finfo(dtype).min
    return torch.where(allowed, torch.tensor(0.0, device=allowed.device, dtype=dtype), min_dtype)


# 1, 2 ----------------------------------------------------------------------
class Gemma2Softcap(torch.nn.Module):
    """HF Gemma-2 eager_attention_forward: repeat_kv (4 q / 2 kv heads), scores =
    q@k^T * scaling, tanh soft-capping by 50, + the 4-D float causal mask
    (finfo.min), softmax in f32 cast back, @v, transposed to [B, M, H, D]."""
    num_key_value_groups, softcap, query_pre_attn_scalar = 2, 50.0, 64
    sliding_window = None

    def forward(self, query, key, value):
        M, N = query.shape[-2], key.shape[-2]
        q_idx = torch.arange(M, device=query.device)[:, None]
        kv_idx = torch.arange(N, device=query.device)[None, :]
        allowed = kv_idx <= q_idx
        if self.sliding_window is not None:
            allowed = allowed & (kv_idx > q_idx - self.sliding_window)
        return self.attend(query, key, value, hf_eager_mask(allowed, query.dtype)[None, None])

    def attend(self, query, key, value, attention_mask):
        """Gemma-2's eager_attention_forward given the 4-D float mask."""
        scaling = self.query_pre_attn_scalar ** -0.5
        key_states = repeat_kv(key, self.num_key_value_groups)
        value_states = repeat_kv(value, self.num_key_value_groups)
        attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling
        attn_weights = attn_weights / self.softcap
        attn_weights = torch.tanh(attn_weights)
        attn_weights = attn_weights * self.softcap
        causal_mask = attention_mask[:, :, :, : key_states.shape[-2]]
        attn_weights = attn_weights + causal_mask
        attn_weights = F.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype)
        attn_output = torch.matmul(attn_weights, value_states)
        return attn_output.transpose(1, 2).contiguous()


class Gemma2Sliding(Gemma2Softcap):
    """HF Gemma-2 sliding-window layer: as gemma2_softcap, the 4-D float mask
    allowing q - 8 < k <= q (sliding window 8 combined with causal)."""
    sliding_window = 8


def args_gemma2(dtype, B=1, M=24, D=64):
    r = rnd(dtype)
    return (r(B, 4, M, D), r(B, 2, M, D), r(B, 2, M, D))


class Gemma2SoftcapPad(Gemma2Softcap):
    """HF Gemma-2 eager with a padding mask (batched generation, left padding):
    masking_utils' 4-D float mask allows k <= q and attention_mask[b, k] = 1
    (finfo.min elsewhere) and is added after the soft-capping; rows whose
    keys are all padding are fully masked (the source averages V there)."""

    def forward(self, query, key, value, attention_mask):
        M, N = query.shape[-2], key.shape[-2]
        q_idx = torch.arange(M, device=query.device)[:, None]
        kv_idx = torch.arange(N, device=query.device)[None, :]
        allowed = (kv_idx <= q_idx)[None, None] & attention_mask.bool()[:, None, None, :]
        return self.attend(query, key, value, hf_eager_mask(allowed, query.dtype))


def args_gemma2_pad(dtype, B=2, M=24, D=64):
    r = rnd(dtype)
    mask = torch.ones(B, M, dtype=torch.int64)
    mask[-1, : M // 4] = 0  # left padding
    return (r(B, 4, M, D), r(B, 2, M, D), r(B, 2, M, D), mask)


# 3 --------------------------------------------------------------------------
class MistralSwaBool(torch.nn.Module):
    """HF sdpa_attention_forward for Mistral: repeat_kv (8 q / 2 kv heads), then
    F.scaled_dot_product_attention with a boolean attn_mask (True = attend)
    built from arange: q - k < 8 and k <= q."""
    num_key_value_groups, sliding_window = 4, 8

    def forward(self, query, key, value):
        M, N = query.shape[-2], key.shape[-2]
        q_idx = torch.arange(M, device=query.device)[:, None]
        kv_idx = torch.arange(N, device=query.device)[None, :]
        attn_mask = ((q_idx - kv_idx < self.sliding_window) & (kv_idx <= q_idx))[None, None]
        key = repeat_kv(key, self.num_key_value_groups)
        value = repeat_kv(value, self.num_key_value_groups)
        attn_output = F.scaled_dot_product_attention(query, key, value, attn_mask=attn_mask,
                                                      dropout_p=0.0, is_causal=False)
        return attn_output.transpose(1, 2).contiguous()


def args_mistral(dtype, B=1, M=20, D=32):
    r = rnd(dtype)
    return (r(B, 8, M, D), r(B, 2, M, D), r(B, 2, M, D))


# 4 --------------------------------------------------------------------------
class GptOssSinks(torch.nn.Module):
    """HF gpt-oss eager_attention_forward: repeat_kv (4 q / 2 kv heads), scores =
    q@k^T * scaling + causal float mask; sinks [H] (an input) reshaped to
    [1,H,1,1], expanded to [B,H,M,1] and cat'ed as a last column; the row max
    subtracted, softmax, the sink column dropped, @v."""
    num_key_value_groups = 2

    def forward(self, query, key, value, sinks):
        M, N, D = query.shape[-2], key.shape[-2], query.shape[-1]
        q_idx = torch.arange(M, device=query.device)[:, None]
        kv_idx = torch.arange(N, device=query.device)[None, :]
        attention_mask = hf_eager_mask(kv_idx <= q_idx, query.dtype)[None, None]
        scaling = D ** -0.5
        key_states = repeat_kv(key, self.num_key_value_groups)
        value_states = repeat_kv(value, self.num_key_value_groups)
        attn_weights = torch.matmul(query, key_states.transpose(2, 3)) * scaling
        causal_mask = attention_mask[:, :, :, : key_states.shape[-2]]
        attn_weights = attn_weights + causal_mask
        sinks = sinks.reshape(1, -1, 1, 1).expand(query.shape[0], -1, query.shape[-2], -1)
        combined_logits = torch.cat([attn_weights, sinks], dim=-1)
        combined_logits = combined_logits - combined_logits.max(dim=-1, keepdim=True).values
        probs = F.softmax(combined_logits, dim=-1, dtype=combined_logits.dtype)
        scores = probs[..., :-1]
        attn_output = torch.matmul(scores, value_states)
        return attn_output.transpose(1, 2).contiguous()


def args_gptoss(dtype, B=2, M=16, D=64):
    r = rnd(dtype)
    return (r(B, 4, M, D), r(B, 2, M, D), r(B, 2, M, D), r(4))


# 5 --------------------------------------------------------------------------
class Llama4Chunked(torch.nn.Module):
    """Llama-4 chunked local attention (llama-models'
    create_chunked_attention_mask, chunk 8: same chunk and k <= q), applied to
    q@k^T / sqrt(d) with masked_fill(~mask, -inf)."""
    attention_chunk_size = 8

    def forward(self, query, key, value):
        seq_len, D = query.shape[-2], query.shape[-1]
        C = self.attention_chunk_size
        block_pos = torch.abs(
            (torch.arange(seq_len, device=query.device).unsqueeze(0) // C)
            - (torch.arange(seq_len, device=query.device).unsqueeze(1) // C))
        token_pos = (torch.arange(seq_len, device=query.device).unsqueeze(0)
                     - torch.arange(seq_len, device=query.device).unsqueeze(1))
        mask = (block_pos == 0) & (token_pos <= 0)
        scores = torch.matmul(query, key.transpose(2, 3)) / math.sqrt(D)
        scores = scores.masked_fill(~mask[None, None], float("-inf"))
        scores = F.softmax(scores.float(), dim=-1).type_as(query)
        return torch.matmul(scores, value).transpose(1, 2).contiguous()


def args_llama4(dtype, B=1, M=20, D=32):
    r = rnd(dtype)
    return (r(B, 4, M, D), r(B, 4, M, D), r(B, 4, M, D))


# 6 --------------------------------------------------------------------------
class PrefixLm(torch.nn.Module):
    """Prefix-LM (PaliGemma / UniLM style): key k is visible from query q when
    k < 5 (the bidirectional prefix) or k <= q; masked_fill(~mask, finfo.min) on
    q@k^T / sqrt(d), softmax, @v."""
    prefix = 5

    def forward(self, query, key, value):
        M, N, D = query.shape[-2], key.shape[-2], query.shape[-1]
        q_idx = torch.arange(M, device=query.device)[:, None]
        kv_idx = torch.arange(N, device=query.device)[None, :]
        mask = (kv_idx < self.prefix) | (kv_idx <= q_idx)
        scores = torch.matmul(query, key.transpose(-1, -2)) / math.sqrt(D)
        scores = scores.masked_fill(~mask[None, None], torch.finfo(scores.dtype).min)
        p = torch.softmax(scores, dim=-1)
        return torch.matmul(p, value)


def args_prefix(dtype, B=2, M=16, D=32):
    r = rnd(dtype)
    return (r(B, 2, M, D), r(B, 2, M, D), r(B, 2, M, D))


# 7 --------------------------------------------------------------------------
class AlibiBloom(torch.nn.Module):
    """HF BloomAttention (4.2x eager): q, k, v as _split_heads gives them
    [B, S, H, D] and alibi [B*H, 1, N] (an input, build_alibi_tensor's); heads
    merged into the batch, alibi.baddbmm(q, k^T, beta=1, alpha=1/sqrt(d)), view
    [B,H,M,N], f16 upcast to f32, masked_fill(causal, finfo.min), softmax in f32,
    cast back, view [B*H,M,N], bmm with v, heads merged back."""
    num_heads = 4

    def forward(self, query_layer, key_layer, value_layer, alibi):
        batch_size, q_length, _, head_dim = query_layer.shape
        inv_norm_factor = 1.0 / math.sqrt(head_dim)
        query_layer = query_layer.transpose(1, 2).reshape(batch_size * self.num_heads, q_length, head_dim)
        key_layer = key_layer.permute(0, 2, 3, 1).reshape(batch_size * self.num_heads, head_dim, q_length)
        value_layer = value_layer.transpose(1, 2).reshape(batch_size * self.num_heads, q_length, head_dim)
        kv_length = key_layer.shape[-1]
        # _make_causal_mask (True = masked), expanded to [B, 1, M, N]
        seq_ids = torch.arange(q_length, device=query_layer.device)
        attention_mask = (seq_ids[:, None] < seq_ids[None, :])[None, None].expand(batch_size, 1, q_length, kv_length)
        matmul_result = alibi.baddbmm(batch1=query_layer, batch2=key_layer, beta=1.0, alpha=inv_norm_factor)
        attention_scores = matmul_result.view(batch_size, self.num_heads, q_length, kv_length)
        input_dtype = attention_scores.dtype
        if input_dtype == torch.float16:
            attention_scores = attention_scores.to(torch.float)
        attn_weights = torch.masked_fill(attention_scores, attention_mask, torch.finfo(attention_scores.dtype).min)
        attention_probs = F.softmax(attn_weights, dim=-1, dtype=torch.float32).to(input_dtype)
        attention_probs_reshaped = attention_probs.view(batch_size * self.num_heads, q_length, kv_length)
        context_layer = torch.bmm(attention_probs_reshaped, value_layer)
        # _merge_heads
        x = context_layer.view(batch_size, self.num_heads, q_length, head_dim).permute(0, 2, 1, 3)
        return x.reshape(batch_size, q_length, self.num_heads * head_dim)


def args_bloom(dtype, B=2, S=16, D=32):
    r, H = rnd(dtype), AlibiBloom.num_heads
    # build_alibi_tensor: slopes * cumsum(attention_mask) - 1, [B*H, 1, S]
    base = 2 ** (-(2 ** -(math.log2(H) - 3)))
    slopes = torch.tensor([base ** (i + 1) for i in range(H)])
    alibi = (slopes[None, :, None] * torch.arange(S)[None, None, :]).expand(B, H, S)
    return (r(B, S, H, D), r(B, S, H, D), r(B, S, H, D), alibi.reshape(B * H, 1, S).to(dtype))


# 8 --------------------------------------------------------------------------
def _relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    """transformers' T5Attention._relative_position_bucket."""
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    relative_position_if_large = max_exact + (
        torch.log(relative_position.float() / max_exact)
        / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(
        relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1)
    )
    relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
    return relative_buckets


class T5RelBias(torch.nn.Module):
    """HF T5Attention (encoder, bidirectional): compute_bias buckets k - q
    (32 buckets, max distance 128), looks the [32, H] relative_attention_bias
    table (an input) up by bucket, permutes to [1,H,M,N]; scores = q@k^T (T5
    does not scale) + position_bias, softmax in f32, @v."""

    def forward(self, query_states, key_states, value_states, relative_attention_bias):
        query_length, key_length = query_states.shape[-2], key_states.shape[-2]
        context_position = torch.arange(query_length, dtype=torch.long, device=query_states.device)[:, None]
        memory_position = torch.arange(key_length, dtype=torch.long, device=query_states.device)[None, :]
        relative_position = memory_position - context_position
        relative_position_bucket = _relative_position_bucket(relative_position, bidirectional=True,
                                                             num_buckets=32, max_distance=128)
        values = F.embedding(relative_position_bucket, relative_attention_bias)
        position_bias = values.permute([2, 0, 1]).unsqueeze(0)
        scores = torch.matmul(query_states, key_states.transpose(3, 2))
        scores += position_bias
        attn_weights = F.softmax(scores.float(), dim=-1).type_as(scores)
        return torch.matmul(attn_weights, value_states)


def args_t5(dtype, B=1, S=40, H=4, D=16):
    r = rnd(dtype)
    return (r(B, H, S, D), r(B, H, S, D), r(B, H, S, D), r(32, H))


# 9 --------------------------------------------------------------------------
def _make_causal_mask(bsz, tgt_len, dtype, device):
    """transformers' AttentionMaskConverter._make_causal_mask (no past)."""
    mask = torch.full((tgt_len, tgt_len), torch.finfo(dtype).min, device=device)
    mask_cond = torch.arange(mask.size(-1), device=device)
    mask.masked_fill_(mask_cond < (mask_cond + 1).view(mask.size(-1), 1), 0)
    mask = mask.to(dtype)
    return mask[None, None, :, :].expand(bsz, 1, tgt_len, tgt_len)


def _expand_mask(mask, dtype, tgt_len):
    """transformers' AttentionMaskConverter._expand_mask: [B, N] 1/0 ->
    [B, 1, M, N] of 0 / finfo(dtype).min."""
    bsz, src_len = mask.size()
    expanded_mask = mask[:, None, None, :].expand(bsz, 1, tgt_len, src_len).to(dtype)
    inverted_mask = 1.0 - expanded_mask
    return inverted_mask.masked_fill(inverted_mask.to(torch.bool), torch.finfo(dtype).min)


class HfPadCausal(torch.nn.Module):
    """HF _prepare_4d_causal_attention_mask (AttentionMaskConverter.to_4d):
    the int64 padding mask [B, N] (1 keep, 0 pad) expanded and the causal
    triangle masked_fill'ed with finfo(dtype).min; added to q@k^T / sqrt(d)
    (LLaMA eager), softmax in f32 cast back, @v."""

    def forward(self, query_states, key_states, value_states, attention_mask):
        bsz, _, q_len, head_dim = query_states.shape
        causal_4d_mask = _make_causal_mask(bsz, q_len, query_states.dtype, query_states.device)
        expanded_attn_mask = _expand_mask(attention_mask, query_states.dtype, tgt_len=q_len)
        expanded_attn_mask = causal_4d_mask.masked_fill(expanded_attn_mask.bool(), torch.finfo(query_states.dtype).min)
        attn_weights = torch.matmul(query_states, key_states.transpose(2, 3)) / math.sqrt(head_dim)
        attn_weights = attn_weights + expanded_attn_mask
        attn_weights = F.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query_states.dtype)
        attn_output = torch.matmul(attn_weights, value_states)
        return attn_output.transpose(1, 2).contiguous()


def padding_mask(B, S):
    mask = torch.ones(B, S, dtype=torch.int64)
    mask[-1, : S // 4] = 0  # left padding
    return mask


def args_pad(dtype, B=2, S=24, H=4, D=32):
    r = rnd(dtype)
    return (r(B, H, S, D), r(B, H, S, D), r(B, H, S, D), padding_mask(B, S))


# 10 -------------------------------------------------------------------------
class ClipSplitHeads(torch.nn.Module):
    """HF CLIPAttention (eager, 4.3x): q, k, v projections [B, S, E]; q scaled,
    heads merged into the batch ([B*H, S, D]); bmm; view [B,H,M,N] + the causal
    mask [B,1,M,N] (_make_causal_mask, finfo.min); view back [B*H,M,N];
    softmax; bmm; heads split back to [B, M, E]."""
    num_heads = 4

    def forward(self, query_states, key_states, value_states):
        bsz, tgt_len, embed_dim = query_states.shape
        head_dim = embed_dim // self.num_heads
        scale = head_dim ** -0.5
        _shape = lambda t, s: t.view(bsz, s, self.num_heads, head_dim).transpose(1, 2).contiguous()
        causal_attention_mask = _make_causal_mask(bsz, tgt_len, query_states.dtype, query_states.device)
        proj_shape = (bsz * self.num_heads, -1, head_dim)
        query_states = _shape(query_states * scale, tgt_len).view(*proj_shape)
        key_states = _shape(key_states, -1).view(*proj_shape)
        value_states = _shape(value_states, -1).view(*proj_shape)
        src_len = key_states.size(1)
        attn_weights = torch.bmm(query_states, key_states.transpose(1, 2))
        attn_weights = attn_weights.view(bsz, self.num_heads, tgt_len, src_len) + causal_attention_mask
        attn_weights = attn_weights.view(bsz * self.num_heads, tgt_len, src_len)
        attn_weights = F.softmax(attn_weights, dim=-1)
        attn_output = torch.bmm(attn_weights, value_states)
        attn_output = attn_output.view(bsz, self.num_heads, tgt_len, head_dim).transpose(1, 2)
        return attn_output.reshape(bsz, tgt_len, embed_dim)


def args_clip(dtype, B=2, S=17, E=128):
    r = rnd(dtype)
    return (r(B, S, E), r(B, S, E), r(B, S, E))


# 11 -------------------------------------------------------------------------
class LlamaClampMin(torch.nn.Module):
    """HF LlamaAttention 4.28: _prepare_decoder_attention_mask ADDS the expanded
    int64 padding mask and the causal mask (both finfo.min, so min + min = -inf
    in f32); scores = q@k^T / sqrt(d) + mask, clamped with
    torch.max(scores, torch.tensor(finfo.min)), softmax in f32, @v."""

    def forward(self, query_states, key_states, value_states, attention_mask):
        bsz, _, q_len, head_dim = query_states.shape
        combined_attention_mask = _make_causal_mask(bsz, q_len, query_states.dtype, query_states.device)
        expanded_attn_mask = _expand_mask(attention_mask, query_states.dtype, tgt_len=q_len)
        combined_attention_mask = expanded_attn_mask + combined_attention_mask
        attn_weights = torch.matmul(query_states, key_states.transpose(2, 3)) / math.sqrt(head_dim)
        attn_weights = attn_weights + combined_attention_mask
        attn_weights = torch.max(attn_weights, torch.tensor(torch.finfo(attn_weights.dtype).min))
        attn_weights = F.softmax(attn_weights, dim=-1, dtype=torch.float32).to(query_states.dtype)
        attn_output = torch.matmul(attn_weights, value_states)
        return attn_output.transpose(1, 2).contiguous()


# 12 -------------------------------------------------------------------------
class EspnetMaskedFillZero(torch.nn.Module):
    """ESPnet / WeNet MultiHeadedAttention.forward_qkv + forward_attention: the
    bool mask [B, 1, N] (an input, True = keep), mask = mask.unsqueeze(1).eq(0);
    scores = q@k^T / sqrt(d_k), masked_fill(mask, finfo.min), softmax, then
    .masked_fill(mask, 0.0) on the probabilities, @v, heads merged."""
    h = 4

    def forward(self, q, k, v, mask):
        n_batch, _, _, d_k = q.shape
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)
        mask = mask.unsqueeze(1).eq(0)  # (batch, 1, *, time2)
        min_value = torch.finfo(scores.dtype).min
        scores = scores.masked_fill(mask, min_value)
        attn = torch.softmax(scores, dim=-1).masked_fill(mask, 0.0)
        x = torch.matmul(attn, v)
        return x.transpose(1, 2).contiguous().view(n_batch, -1, self.h * d_k)


def args_espnet(dtype, B=2, S=24, D=32):
    r = rnd(dtype)
    mask = torch.ones(B, 1, S, dtype=torch.bool)
    mask[-1, :, S - S // 4:] = False
    return (r(B, 4, S, D), r(B, 4, S, D), r(B, 4, S, D), mask)


# 13 -------------------------------------------------------------------------
class StarcoderMqaFold(torch.nn.Module):
    """HF GPTBigCodeAttention._attn, multi_query (CPU path: beta 1 on zeros):
    query [B, M, H*D] reshaped to [B, M*H, D]; baddbmm against the one key head
    [B, D, N] (alpha 1/sqrt(D)), view [B, M, H, N]; torch.where(causal mask
    [B, M, 1, N], w, finfo.min); softmax; bmm of the [B, M*H, N] view with the
    one value head [B, N, D], view back to [B, M, H*D]."""
    num_heads = 4

    def forward(self, query, key, value):
        # key arrives as key.transpose(-1, -2), as GPTBigCodeAttention.forward passes it
        head_dim = value.shape[-1]
        scale_factor = 1.0 / head_dim ** 0.5
        query_shape = query.shape
        batch_size, query_length = query_shape[0], query_shape[1]
        key_length = key.size(-1)
        attn_shape = (batch_size, query_length, self.num_heads, key_length)
        attn_view = (batch_size, query_length * self.num_heads, key_length)
        query = query.reshape(batch_size, query_length * self.num_heads, head_dim)
        # GPTBigCodeModel: self.bias[None, key_length - query_length : key_length, :key_length]
        # of the causal tril buffer, unsqueezed at 2 for MQA
        bias = torch.tril(torch.ones((key_length, key_length), dtype=torch.bool, device=query.device))
        attention_mask = bias[None, key_length - query_length: key_length, :key_length].unsqueeze(2)
        attn_weights = torch.zeros(attn_view, device=query.device, dtype=query.dtype)
        attn_weights = torch.baddbmm(attn_weights, query, key, beta=1, alpha=scale_factor).view(attn_shape)
        mask_value = torch.full([], torch.finfo(attn_weights.dtype).min, dtype=attn_weights.dtype,
                                device=attn_weights.device)
        attn_weights = torch.where(attention_mask, attn_weights, mask_value)
        attn_weights = F.softmax(attn_weights, dim=-1)
        return torch.bmm(attn_weights.view(attn_view), value).view(query_shape)


def args_starcoder(dtype, B=2, S=16, H=4, D=32):
    r = rnd(dtype)
    return (r(B, S, H * D), r(B, D, S), r(B, S, D))


# 14 -------------------------------------------------------------------------
class FalconBroadcastKv(torch.nn.Module):
    """Falcon-7B MQA (HF FalconAttention, SDPA path): q [B, H, S, D], the one K/V
    head [B, 1, S, D] expanded to every query head (a view, no copy), then
    F.scaled_dot_product_attention(is_causal=True)."""

    def forward(self, query_layer, key_layer, value_layer):
        B, H, S, D = query_layer.shape
        key_layer = key_layer.expand(B, H, S, D)
        value_layer = value_layer.expand(B, H, S, D)
        attn_output = F.scaled_dot_product_attention(query_layer, key_layer, value_layer, None, 0.0,
                                                     is_causal=True)
        return attn_output.transpose(1, 2).reshape(B, S, H * D)


def args_falcon(dtype, B=1, S=24, H=8, D=64):
    r = rnd(dtype)
    return (r(B, H, S, D), r(B, 1, S, D), r(B, 1, S, D))


# 15 -------------------------------------------------------------------------
class FlashRefRowGuard(torch.nn.Module):
    """flash-attn tests' attention_ref (window (-1, 0), i.e. causal, and a key
    padding mask [B, N] bool input): q, k, v [B, S, H, D]; scores by einsum of
    q / sqrt(d) and k; mask = key_padding & ~local_mask; masked_fill(~mask,
    -inf); softmax; rows with no visible key (torch.all(~mask, -1, keepdim))
    masked_fill'ed to 0; einsum with v."""

    def forward(self, q, k, v, key_padding_mask):
        seqlen_q, seqlen_k, d = q.shape[1], k.shape[1], q.shape[-1]
        # construct_local_mask(window_size=(-1, 0)): col > row + sk - sq
        row_idx = torch.arange(seqlen_q, device=q.device, dtype=torch.long)[:, None]
        col_idx = torch.arange(seqlen_k, device=q.device, dtype=torch.long)
        local_mask = col_idx > row_idx + seqlen_k - seqlen_q
        mask = key_padding_mask[:, None, None, :] & ~local_mask[None, None]
        scores = torch.einsum("bthd,bshd->bhts", q / math.sqrt(d), k)
        scores = scores.masked_fill(~mask, float("-inf"))
        attention = torch.softmax(scores, dim=-1).to(v.dtype)
        attention = attention.masked_fill(torch.all(~mask, dim=-1, keepdim=True), 0.0)
        return torch.einsum("bhts,bshd->bthd", attention, v)


def args_flash_ref(dtype, B=2, S=20, H=2, D=32):
    r = rnd(dtype)
    key_padding_mask = torch.ones(B, S, dtype=torch.bool)
    key_padding_mask[-1, :3] = False  # rows 0-2 of batch 1 see no key
    return (r(B, S, H, D), r(B, S, H, D), r(B, S, H, D), key_padding_mask)


# 14 -------------------------------------------------------------------------
class PackedDocsSdpa(torch.nn.Module):
    """Packed documents (sequence packing, as FlexAttention's document-masking
    example compares against): document ids [N] (an int64 input, one id per
    token), mask = same document and k <= q as a boolean attn_mask of SDPA."""

    def forward(self, query, key, value, document_ids):
        N = key.shape[-2]
        same = document_ids[:, None] == document_ids[None, :]
        pos = torch.arange(N, device=query.device)
        causal = pos[None, :] <= pos[:, None]
        return F.scaled_dot_product_attention(query, key, value, attn_mask=same & causal)


class PackedDocsEager(torch.nn.Module):
    """The same in eager code: q@k^T / sqrt(d), masked_fill(~mask, -inf),
    softmax in f32, @v."""

    def forward(self, query, key, value, document_ids):
        N, D = key.shape[-2], query.shape[-1]
        same = document_ids[:, None] == document_ids[None, :]
        pos = torch.arange(N, device=query.device)
        mask = same & (pos[None, :] <= pos[:, None])
        scores = torch.matmul(query, key.transpose(-1, -2)) / math.sqrt(D)
        scores = scores.masked_fill(~mask[None, None], float("-inf"))
        p = F.softmax(scores.float(), dim=-1).type_as(query)
        return torch.matmul(p, value)


def args_docs(dtype, B=1, S=40, H=2, D=32):
    r = rnd(dtype)
    ids = torch.tensor([0] * 13 + [1] * 9 + [2] * 18, dtype=torch.int64)
    return (r(B, H, S, D), r(B, H, S, D), r(B, H, S, D), ids)


MODELS = {
    "gemma2_softcap_f32": (Gemma2Softcap, args_gemma2, torch.float32),
    "gemma2_softcap_bf16": (Gemma2Softcap, args_gemma2, torch.bfloat16),
    "gemma2_sliding_f32": (Gemma2Sliding, args_gemma2, torch.float32),
    "gemma2_softcap_pad_f32": (Gemma2SoftcapPad, args_gemma2_pad, torch.float32),
    "gemma2_softcap_pad_bf16": (Gemma2SoftcapPad, args_gemma2_pad, torch.bfloat16),
    "mistral_swa_bool_f16": (MistralSwaBool, args_mistral, torch.float16),
    "gptoss_sinks_f32": (GptOssSinks, args_gptoss, torch.float32),
    "gptoss_sinks_bf16": (GptOssSinks, args_gptoss, torch.bfloat16),
    "llama4_chunked_f32": (Llama4Chunked, args_llama4, torch.float32),
    "prefix_lm_f32": (PrefixLm, args_prefix, torch.float32),
    "alibi_bloom_f32": (AlibiBloom, args_bloom, torch.float32),
    "alibi_bloom_f16": (AlibiBloom, args_bloom, torch.float16),
    "t5_relbias_f32": (T5RelBias, args_t5, torch.float32),
    "hf_pad_causal_f32": (HfPadCausal, args_pad, torch.float32),
    "hf_pad_causal_f16": (HfPadCausal, args_pad, torch.float16),
    "clip_split_heads_f32": (ClipSplitHeads, args_clip, torch.float32),
    "llama_clamp_min_f32": (LlamaClampMin, args_pad, torch.float32),
    "espnet_masked_fill_zero_f32": (EspnetMaskedFillZero, args_espnet, torch.float32),
    "starcoder_mqa_fold_f32": (StarcoderMqaFold, args_starcoder, torch.float32),
    "falcon_broadcast_kv_f32": (FalconBroadcastKv, args_falcon, torch.float32),
    "flash_ref_row_guard_f32": (FlashRefRowGuard, args_flash_ref, torch.float32),
    "packed_docs_sdpa_bf16": (PackedDocsSdpa, args_docs, torch.bfloat16),
    "packed_docs_eager_f32": (PackedDocsEager, args_docs, torch.float32),
}


def main(out_dir, only=None):
    return export_all(MODELS, "mask", SCRIPT, out_dir, only)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__),
                  set(sys.argv[2:])))
