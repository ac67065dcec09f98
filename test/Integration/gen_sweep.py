#!/usr/bin/env python3
"""Writes randomized attention variants in plain linalg (unfused), for fa-check.

usage: gen_sweep.py [--padded] SEED COUNT OUT.mlir [PER_MODULE]

Every variant is a decomposed attention (generic contractions, an elementwise
generic for scale/bias/masks, reductions for max and sum) drawn from: shapes
with M, N not multiples of any tile and M = 1, D and Dv in 16..256 including
80 and 96, GQA through linalg.broadcast, causal masks with offsets, additive
bias ([B,1,1,N] or full), boolean padding masks (some rows fully masked), KV
lengths, and f32/f16/bf16 GEMMs with an f32 softmax. Variants are grouped
PER_MODULE functions to a '// -----' chunk so that one JIT compile covers
several. Only the standard library is used (CI has no numpy or torch).

--padded draws one mask spelling per variant instead, with some batches
fully padded: masked_fill with a finite fill (torch.finfo(dtype).min, as
HuggingFace writes it) or with -inf, with true = kept or true = masked; an
additive finite bias; a KV length that is 0 for some batch. Padding masks and
biases are constants (fa-check's random i1 inputs are mostly true), the KV
length an input with one batch set to 0 by tensor.insert. -inf spellings get
PyTorch's fully-masked-row guard, so that their fully masked rows give 0, not
NaN, and are compared too. A fully masked row with a finite fill averages V.
"""
import random
import sys

TYPES = ["f32", "f16", "bf16"]
HEAD_DIMS = [16, 32, 64, 80, 96, 128, 256]


def tensor(shape, t):
    return "tensor<%sx%s>" % ("x".join(str(s) for s in shape), t)


def variant(rng, idx):
    t = rng.choice(TYPES)
    b = rng.choice([1, 2])
    hkv = rng.choice([1, 2])
    g = rng.choice([1, 1, 2, 3])
    h = hkv * g
    m = rng.choice([1, 1, 3, 7, 16, 33, 64, 65, 100])
    n = rng.choice([1, 5, 17, 64, 65, 97, 130])
    d = rng.choice(HEAD_DIMS)
    dv = d if rng.random() < 0.7 else rng.choice(HEAD_DIMS)
    if d * max(m, n) > 24000:  # keep each case small for CI
        d = dv = rng.choice([16, 32, 64, 80, 96])
    scale = rng.choice([1.0, 0.125, 1.0 / (d ** 0.5), 0.3])
    causal = rng.random() < 0.35
    offset = rng.choice([0, 0, n - m, 2, -1]) if causal else 0
    bias = rng.choice([None, None, "row", "full"])
    pad = bias is None and rng.random() < 0.35  # one bias operand: mask or bias
    kvlen = rng.random() < 0.2
    return dict(idx=idx, t=t, b=b, h=h, hkv=hkv, g=g, m=m, n=n, d=d, dv=dv,
                scale=scale, causal=causal, offset=offset, bias=bias, pad=pad,
                kvlen=kvlen)


# Finite fills: torch.finfo(f32 / f16 / bf16).min and a large constant.
FINITE_FILLS = [-3.4028234663852886e38, -65504.0, -3.3895313892515355e38, -1.0e9]
SPELLINGS = ["fill_finite", "fill_ninf", "bias_finite", "kv_len"]


def padded_variant(rng, idx):
    """One mask spelling; of B = 2 or 3 batches one is fully padded and one
    is not (a constant mask of one value would be a splat, not a mask)."""
    v = variant(rng, idx)
    spelling = rng.choice(SPELLINGS)
    v["b"] = b = rng.choice([2, 2, 3])
    n = v["n"]
    padded = [rng.random() < 0.5 for _ in range(b)]
    full, kept = rng.sample(range(b), 2)
    padded[full], padded[kept] = True, False
    keep = [[not padded[i] and (j == 0 or rng.random() < 0.75) for j in range(n)]
            for i in range(b)]
    v.update(spelling=spelling, bias=None, pad=None, kvlen=False, guard=False)
    if spelling in ("fill_finite", "fill_ninf"):
        fill = rng.choice(FINITE_FILLS) if spelling == "fill_finite" else "-inf"
        v["pad"] = dict(fill=fill, keep_true=rng.random() < 0.5, keep=keep)
    elif spelling == "bias_finite":
        fill = rng.choice(FINITE_FILLS[0::2])  # large enough to absorb the scores
        v["bias"] = "const"
        v["bias_values"] = [[0.0 if k else fill for k in row] for row in keep]
    else:
        v["kvlen"] = True
        v["zero_batch"] = padded.index(True)
    # A finite fill read as a mask must be the only mask.
    if spelling == "fill_finite":
        v["causal"] = False
    v["guard"] = spelling != "fill_finite" or rng.random() < 0.3
    return v


def dense(rows, fmt):
    return "[%s]" % ", ".join("[%s]" % ", ".join(fmt(x) for x in r) for r in rows)


def emit(v):
    t, b, h, hkv, g, m, n, d, dv = (v[k] for k in "t b h hkv g m n d dv".split())
    name = "case_%d" % v["idx"]
    args = ["%%q: %s" % tensor([b, h, m, d], t), "%%k: %s" % tensor([b, hkv, n, d], t),
            "%%v: %s" % tensor([b, hkv, n, dv], t)]
    pad, bias_const = v["pad"], v["bias"] == "const"
    if v["bias"] == "row":
        args.append("%%bias: %s" % tensor([b, 1, 1, n], "f32"))
    elif v["bias"] == "full":
        args.append("%%bias: %s" % tensor([b, h, m, n], "f32"))
    if pad is True:
        args.append("%%pad: %s" % tensor([b, n], "i1"))
    if v["kvlen"]:
        args.append("%%len: %s" % tensor([b], "i32"))
    out = tensor([b, h, m, dv], t)
    L = []
    L.append("// %s" % ", ".join("%s=%s" % (k, v[k]) for k in sorted(v) if k != "idx"))
    L.append("func.func @%s(%s) -> %s {" % (name, ", ".join(args), out))
    L.append("  %zt = arith.constant 0.0 : " + t)
    L.append("  %zf = arith.constant 0.0 : f32")
    L.append("  %ninf = arith.constant 0xFF800000 : f32")
    if isinstance(pad, dict):
        L.append("  %%pad = arith.constant dense<%s> : %s" % (
            dense(pad["keep"], lambda k: "true" if k == pad["keep_true"] else "false"),
            tensor([b, n], "i1")))
    if bias_const:
        L.append("  %%bias = arith.constant dense<%s> : %s" % (
            dense([[x] for x in v["bias_values"]], lambda r: "[[%s]]" % ", ".join(
                repr(x) for x in r)), tensor([b, 1, 1, n], "f32")))
    if v.get("zero_batch") is not None:
        L.append("  %%zb = arith.constant %d : index" % v["zero_batch"])
        L.append("  %z32 = arith.constant 0 : i32")
        L.append("  %%len0 = tensor.insert %%z32 into %%len[%%zb] : %s" % tensor([b], "i32"))
    kk, vv = "%k", "%v"
    if g > 1:
        for src, dd, nm in (("%k", d, "kg"), ("%v", dv, "vg")):
            L.append("  %%%s0 = tensor.empty() : %s" % (nm, tensor([b, hkv, g, n, dd], t)))
            L.append("  %%%s1 = linalg.broadcast ins(%s : %s) outs(%%%s0 : %s) dimensions = [2]"
                     % (nm, src, tensor([b, hkv, n, dd], t), nm, tensor([b, hkv, g, n, dd], t)))
            L.append("  %%%s = tensor.collapse_shape %%%s1 [[0], [1, 2], [3], [4]] : %s into %s"
                     % (nm, nm, tensor([b, hkv, g, n, dd], t), tensor([b, h, n, dd], t)))
        kk, vv = "%kg", "%vg"
    st, sf = tensor([b, h, m, n], t), tensor([b, h, m, n], "f32")
    L.append("  %%s0 = tensor.empty() : %s" % st)
    L.append("  %%sz = linalg.fill ins(%%zt : %s) outs(%%s0 : %s) -> %s" % (t, st, st))
    L.append("  %%s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, "
             "affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], "
             "iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\", \"reduction\"]} "
             "ins(%%q, %s : %s, %s) outs(%%sz : %s) {" % (kk, tensor([b, h, m, d], t),
                                                          tensor([b, h, n, d], t), st))
    L.append("  ^bb0(%%a: %s, %%bb: %s, %%acc: %s):" % (t, t, t))
    L.append("    %%mul = arith.mulf %%a, %%bb : %s" % t)
    L.append("    %%add = arith.addf %%acc, %%mul : %s" % t)
    L.append("    linalg.yield %%add : %s" % t)
    L.append("  } -> %s" % st)
    # scale, bias, masks in one elementwise generic
    ins, types, maps, bargs = ["%s"], [st], ["#id"], ["%%x: %s" % t]
    if v["bias"]:
        ins.append("%bias")
        types.append(sf if v["bias"] == "full" else tensor([b, 1, 1, n], "f32"))
        maps.append("#id" if v["bias"] == "full" else "#bn")
        bargs.append("%bv: f32")
    if v["pad"]:
        ins.append("%pad")
        types.append(tensor([b, n], "i1"))
        maps.append("#padmap")
        bargs.append("%keep: i1")
    if v["kvlen"]:
        ins.append("%len0" if v.get("zero_batch") is not None else "%len")
        types.append(tensor([b], "i32"))
        maps.append("#bmap")
        bargs.append("%lv: i32")
    L.append("  %%f0 = tensor.empty() : %s" % sf)
    L.append("  %%sm = linalg.generic {indexing_maps = [%s, #id], iterator_types = "
             "[\"parallel\", \"parallel\", \"parallel\", \"parallel\"]} ins(%s : %s) outs(%%f0 : %s) {"
             % (", ".join(maps), ", ".join(ins), ", ".join(types), sf))
    L.append("  ^bb0(%s, %%o: f32):" % ", ".join(bargs))
    if t != "f32":
        L.append("    %%xf = arith.extf %%x : %s to f32" % t)
    L.append("    %%sc = arith.constant %r : f32" % v["scale"])
    L.append("    %%y0 = arith.mulf %s, %%sc : f32" % ("%xf" if t != "f32" else "%x"))
    cur = "%y0"
    if v["bias"]:
        L.append("    %%y1 = arith.addf %s, %%bv : f32" % cur)
        cur = "%y1"
    if v["causal"] or v["kvlen"]:
        L.append("    %j = linalg.index 3 : index")
    if v["causal"]:
        L.append("    %i = linalg.index 2 : index")
        L.append("    %%off = arith.constant %d : index" % v["offset"])
        L.append("    %ioff = arith.addi %i, %off : index")
        L.append("    %above = arith.cmpi sgt, %j, %ioff : index")
        L.append("    %%y2 = arith.select %%above, %%ninf, %s : f32" % cur)
        cur = "%y2"
    if pad is True:
        L.append("    %%y3 = arith.select %%keep, %s, %%ninf : f32" % cur)
        cur = "%y3"
    elif pad:
        fill = "0xFF800000" if pad["fill"] == "-inf" else repr(pad["fill"])
        L.append("    %%fill = arith.constant %s : f32" % fill)
        sel = (cur, "%fill") if pad["keep_true"] else ("%fill", cur)
        L.append("    %%y3 = arith.select %%keep, %s, %s : f32" % sel)
        cur = "%y3"
    if v["kvlen"]:
        L.append("    %ji = arith.index_cast %j : index to i32")
        L.append("    %past = arith.cmpi sge, %ji, %lv : i32")
        L.append("    %%y4 = arith.select %%past, %%ninf, %s : f32" % cur)
        cur = "%y4"
    L.append("    linalg.yield %s : f32" % cur)
    L.append("  } -> %s" % sf)
    rt = tensor([b, h, m], "f32")
    L.append("  %%r0 = tensor.empty() : %s" % rt)
    L.append("  %%mi = linalg.fill ins(%%ninf : f32) outs(%%r0 : %s) -> %s" % (rt, rt))
    L.append("  %%mx = linalg.reduce ins(%%sm : %s) outs(%%mi : %s) dimensions = [3]" % (sf, rt))
    L.append("    (%in: f32, %acc: f32) {\n      %r = arith.maximumf %in, %acc : f32\n"
             "      linalg.yield %r : f32\n    }")
    L.append("  %%e = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = "
             "[\"parallel\", \"parallel\", \"parallel\", \"parallel\"]} ins(%%sm, %%mx : %s, %s) "
             "outs(%%f0 : %s) {" % (sf, rt, sf))
    L.append("  ^bb0(%x: f32, %mm: f32, %o: f32):\n    %dd = arith.subf %x, %mm : f32\n"
             "    %ex = math.exp %dd : f32\n    linalg.yield %ex : f32")
    L.append("  } -> %s" % sf)
    L.append("  %%li = linalg.fill ins(%%zf : f32) outs(%%r0 : %s) -> %s" % (rt, rt))
    L.append("  %%l = linalg.reduce ins(%%e : %s) outs(%%li : %s) dimensions = [3]" % (sf, rt))
    L.append("    (%in: f32, %acc: f32) {\n      %r = arith.addf %in, %acc : f32\n"
             "      linalg.yield %r : f32\n    }")
    guard = v.get("guard")
    if guard:
        L += guard_lines(b, h, m, n, sf, rt)
    L.append("  %%p = linalg.generic {indexing_maps = [#id, #row, %s#id], iterator_types = "
             "[\"parallel\", \"parallel\", \"parallel\", \"parallel\"]} ins(%%e, %%l%s : %s, %s%s) "
             "outs(%%s0 : %s) {" % ("#row, " if guard else "", ", %all" if guard else "", sf, rt,
                                    ", " + tensor([b, h, m], "i1") if guard else "", st))
    L.append("  ^bb0(%%x: f32, %%ll: f32, %s%%o: %s):" % ("%none: i1, " if guard else "", t))
    L.append("    %%%s = arith.divf %%x, %%ll : f32" % ("dvd0" if guard else "dvd"))
    if guard:
        L.append("    %dvd = arith.select %none, %zf, %dvd0 : f32")
    if t == "f32":
        L.append("    linalg.yield %dvd : f32")
    else:
        L.append("    %%pt = arith.truncf %%dvd : f32 to %s\n    linalg.yield %%pt : %s" % (t, t))
    L.append("  } -> %s" % st)
    L.append("  %%o0 = tensor.empty() : %s" % out)
    L.append("  %%oz = linalg.fill ins(%%zt : %s) outs(%%o0 : %s) -> %s" % (t, out, out))
    L.append("  %%out = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, "
             "affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], "
             "iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\", \"reduction\"]} "
             "ins(%%p, %s : %s, %s) outs(%%oz : %s) {" % (vv, st, tensor([b, h, n, dv], t), out))
    L.append("  ^bb0(%%a: %s, %%bb: %s, %%acc: %s):" % (t, t, t))
    L.append("    %%mul = arith.mulf %%a, %%bb : %s" % t)
    L.append("    %%add = arith.addf %%acc, %%mul : %s" % t)
    L.append("    linalg.yield %%add : %s" % t)
    L.append("  } -> %s" % out)
    L.append("  return %%out : %s" % out)
    L.append("}")
    return "\n".join(L)


def guard_lines(b, h, m, n, sf, rt):
    """PyTorch's guard: %all[b, h, i] = all_j(x[b, h, i, j] == -inf)."""
    mt, rti = tensor([b, h, m, n], "i1"), tensor([b, h, m], "i1")
    return [
        "  %%g0 = tensor.empty() : %s" % mt,
        "  %%eqm = linalg.generic {indexing_maps = [#id, #id], iterator_types = [\"parallel\", "
        "\"parallel\", \"parallel\", \"parallel\"]} ins(%%sm : %s) outs(%%g0 : %s) {" % (sf, mt),
        "  ^bb0(%x: f32, %o: i1):\n    %c = arith.cmpf oeq, %x, %ninf : f32\n    linalg.yield %c : i1",
        "  } -> %s" % mt,
        "  %%t = arith.constant true\n  %%a0 = tensor.empty() : %s" % rti,
        "  %%ai = linalg.fill ins(%%t : i1) outs(%%a0 : %s) -> %s" % (rti, rti),
        "  %%all = linalg.reduce ins(%%eqm : %s) outs(%%ai : %s) dimensions = [3]" % (mt, rti),
        "    (%in: i1, %acc: i1) {\n      %r = arith.andi %in, %acc : i1\n"
        "      linalg.yield %r : i1\n    }",
    ]


HEADER = """#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#bn = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
#padmap = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
#bmap = affine_map<(d0, d1, d2, d3) -> (d0)>
"""


def main():
    argv = sys.argv[1:]
    draw = variant
    if argv and argv[0] == "--padded":
        draw, argv = padded_variant, argv[1:]
    seed, count, path = int(argv[0]), int(argv[1]), argv[2]
    per = int(argv[3]) if len(argv) > 3 else 10
    rng = random.Random(seed)
    chunks = []
    for start in range(0, count, per):
        funcs = [emit(draw(rng, i)) for i in range(start, min(count, start + per))]
        chunks.append(HEADER + "\n".join(funcs) + "\n")
    with open(path, "w") as f:
        f.write("\n// -----\n".join(chunks))


if __name__ == "__main__":
    main()
