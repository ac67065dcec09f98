#!/usr/bin/env python3
"""Writes randomized attention variants in plain linalg (unfused), for fa-check.

usage: gen_sweep.py SEED COUNT OUT.mlir [PER_MODULE]

Every variant is a decomposed attention (generic contractions, an elementwise
generic for scale/bias/masks, reductions for max and sum) drawn from: shapes
with M, N not multiples of any tile and M = 1, D and Dv in 16..256 including
80 and 96, GQA through linalg.broadcast, causal masks with offsets, additive
bias ([B,1,1,N] or full), boolean padding masks (some rows fully masked), KV
lengths, and f32/f16/bf16 GEMMs with an f32 softmax. Variants are grouped
PER_MODULE functions to a '// -----' chunk so that one JIT compile covers
several. Only the standard library is used (CI has no numpy or torch).
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


def emit(v):
    t, b, h, hkv, g, m, n, d, dv = (v[k] for k in "t b h hkv g m n d dv".split())
    name = "case_%d" % v["idx"]
    args = ["%%q: %s" % tensor([b, h, m, d], t), "%%k: %s" % tensor([b, hkv, n, d], t),
            "%%v: %s" % tensor([b, hkv, n, dv], t)]
    if v["bias"] == "row":
        args.append("%%bias: %s" % tensor([b, 1, 1, n], "f32"))
    elif v["bias"] == "full":
        args.append("%%bias: %s" % tensor([b, h, m, n], "f32"))
    if v["pad"]:
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
        types.append(tensor([b, 1, 1, n], "f32") if v["bias"] == "row" else sf)
        maps.append("#bn" if v["bias"] == "row" else "#id")
        bargs.append("%bv: f32")
    if v["pad"]:
        ins.append("%pad")
        types.append(tensor([b, n], "i1"))
        maps.append("#padmap")
        bargs.append("%keep: i1")
    if v["kvlen"]:
        ins.append("%len")
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
    if v["pad"]:
        L.append("    %%y3 = arith.select %%keep, %s, %%ninf : f32" % cur)
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
    L.append("  %%p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = "
             "[\"parallel\", \"parallel\", \"parallel\", \"parallel\"]} ins(%%e, %%l : %s, %s) "
             "outs(%%s0 : %s) {" % (sf, rt, st))
    L.append("  ^bb0(%%x: f32, %%ll: f32, %%o: %s):" % t)
    L.append("    %dvd = arith.divf %x, %ll : f32")
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


HEADER = """#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#bn = affine_map<(d0, d1, d2, d3) -> (d0, 0, 0, d3)>
#padmap = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
#bmap = affine_map<(d0, d1, d2, d3) -> (d0)>
"""


def main():
    seed, count, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    per = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    rng = random.Random(seed)
    chunks = []
    for start in range(0, count, per):
        funcs = [emit(variant(rng, i)) for i in range(start, min(count, start + per))]
        chunks.append(HEADER + "\n".join(funcs) + "\n")
    with open(path, "w") as f:
        f.write("\n// -----\n".join(chunks))


if __name__ == "__main__":
    main()
