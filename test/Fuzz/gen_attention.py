#!/usr/bin/env python3
"""Generative differential fuzzer of fa-fuse-attention (issue 35, item 2).

Standard library only. Generates random attention programs (QK^T -> scale /
bias / masks -> softmax -> PV, optionally with a log-sum-exp output) over the
spellings docs/passes.md lists, in linalg and in TOSA, each one public
func.func with small static shapes, and runs them through

  fa-opt --fa-fuse-attention=explain   did it fuse? (remarks on stderr)
  fa-check (on the SOURCE program)     the fused program, lowered by fa-to-cpu,
                                       against the unfused one lowered by
                                       upstream MLIR, on several input variants

Each program records its spelling family, the perturbation applied (a
math-changing near miss from a catalogue, or none) and whether it should fuse
(a canonical spelling with no perturbation). Outcomes:

  refused      not fused (with the matcher's remark)
  fused-agree  fused, and fa-check agrees on every input variant
  WRONG        fused, and fa-check disagrees: a wrong fusion (saved to --out)
  missed       should fuse but was refused (reported with the remark)
  error        fa-check could not compile/run it, or fa-opt failed (saved)

Programs are batched (--batch functions per module) for fa-opt and fa-check;
a batch that fa-opt or fa-check cannot process is bisected down to the
functions that fail. A WRONG is re-checked alone (the saved file carries the
fa-check command that reproduces it). Deterministic given --seed.

The index-mask and softcap families (window, band, prefix, chunk, softcap:
the op's mask and score_mod functions) are drawn only where --families names
them ("new", "all"), so that a seed's programs over the other families stay
what they were.

Exit status: 1 if any WRONG or error (or missed, with --strict-missed).
See docs/fuzz-differential.md.

  CI:        test/Fuzz/differential.test (about 100 programs, seconds)
  Long run:  test/Fuzz/gen_attention.py --fa-opt build/tools/fa-opt \\
                 --fa-check build/tools/fa-check --seed $RANDOM \\
                 --programs 50000 --jobs 2 --out diff-findings --summary
"""
import argparse
import collections
import concurrent.futures
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_spellings  # noqa: E402  (the spelling families: sinks, views, mqafold, ...)

LOWEST = -3.4028234663852886e38
NINF = float("-inf")
PINF = float("inf")
HALF_NINF = {"f32": "0xFF800000", "f16": "0xFC00", "bf16": "0xFF80"}
HALF_PINF = {"f32": "0x7F800000", "f16": "0x7C00", "bf16": "0x7F80"}


def fconst(v, et="f32"):
    """An MLIR float literal for v in element type et."""
    if v == NINF:
        return HALF_NINF[et]
    if v == PINF:
        return HALF_PINF[et]
    if v == LOWEST:
        return {"f32": "-3.40282347E+38", "f16": "-6.550400e+04", "bf16": "-3.38953139E+38"}[et]
    return "%.9e" % v


def tt(shape, et):
    return "tensor<%s>" % "x".join([str(s) for s in shape] + [et])


def amap(nd, res):
    return "affine_map<(%s) -> (%s)>" % (", ".join("d%d" % i for i in range(nd)),
                                         ", ".join(res))


def inv_perm(p):
    q = [0] * len(p)
    for i, x in enumerate(p):
        q[x] = i
    return q


def permute(shape, p):
    return [shape[x] for x in p]


def source_shape(target, p):
    """The shape S whose transpose by p is `target` (S[p[i]] = target[i])."""
    s = [0] * len(p)
    for i, x in enumerate(p):
        s[x] = target[i]
    return s


# --- one function's text -------------------------------------------------------

class Fn:
    def __init__(self, name):
        self.name = name
        self.args = []        # (name, type)
        self.lines = []
        self.n = 0
        self.int_args = False
        self.binary_args = []  # float inputs that take 0/1 values (--binary-arg)

    def v(self, hint="t"):
        self.n += 1
        return "%%%s%d" % (hint, self.n)

    def arg(self, hint, shape, et):
        name = "%%%s" % hint
        self.args.append((name, tt(shape, et)))
        if et in ("i32", "i64"):
            self.int_args = True
        return name

    def emit(self, line):
        self.lines.append("  " + line)

    def text(self, results):
        sig = ", ".join("%s: %s" % a for a in self.args)
        rtys = [r[1] for r in results]
        rty = rtys[0] if len(rtys) == 1 else "(%s)" % ", ".join(rtys)
        out = ["func.func @%s(%s) -> %s {" % (self.name, sig, rty)]
        out += self.lines
        out.append("  return %s : %s" % (", ".join(r[0] for r in results),
                                         ", ".join(rtys)))
        out.append("}")
        return "\n".join(out) + "\n"

    # small helpers
    def const(self, value, ty):
        v = self.v("c")
        self.emit("%s = arith.constant %s : %s" % (v, value, ty))
        return v

    def empty(self, shape, et):
        v = self.v("e")
        self.emit("%s = tensor.empty() : %s" % (v, tt(shape, et)))
        return v

    def filled(self, shape, et, value):
        c = self.const(fconst(value, et), et)
        e = self.empty(shape, et)
        v = self.v("f")
        self.emit("%s = linalg.fill ins(%s : %s) outs(%s : %s) -> %s"
                  % (v, c, et, e, tt(shape, et), tt(shape, et)))
        return v


class Body:
    """The region of one linalg.generic (names share the function's counter)."""

    def __init__(self, fn, args):
        self.fn = fn
        self.args = args
        self.lines = []
        self.indices = {}

    def v(self, hint="b"):
        return self.fn.v(hint)

    def emit(self, line):
        self.lines.append("    " + line)

    def op(self, text, hint="b"):
        v = self.v(hint)
        self.emit("%s = %s" % (v, text))
        return v

    def index(self, d):
        if d not in self.indices:
            self.indices[d] = self.op("linalg.index %d : index" % d, "i")
        return self.indices[d]

    def const(self, value, ty):
        return self.op("arith.constant %s : %s" % (value, ty), "k")


def generic(fn, ins, out_shape, out_et, body_fn, iters=None, out_map=None, init=None):
    """ins: list of (value, shape, et, map results). Returns the result."""
    nd = len(iters) if iters else len(out_shape)
    iters = iters or ["parallel"] * nd
    out_map = out_map or ["d%d" % i for i in range(nd)]
    if init is None:
        init = fn.empty(out_shape, out_et)
    maps = [amap(nd, m) for (_, _, _, m) in ins] + [amap(nd, out_map)]
    args = [fn.v("a") for _ in ins] + [fn.v("a")]
    body = Body(fn, args)
    y = body_fn(body, args)
    r = fn.v("g")
    ins_txt = ""
    if ins:
        ins_txt = "ins(%s : %s) " % (", ".join(i[0] for i in ins),
                                     ", ".join(tt(i[1], i[2]) for i in ins))
    fn.emit('%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]} %souts(%s : %s) {'
            % (r, ", ".join(maps), ", ".join('"%s"' % it for it in iters), ins_txt, init,
               tt(out_shape, out_et)))
    blk = ", ".join("%s: %s" % (a, et) for a, et in zip(args, [i[2] for i in ins] + [out_et]))
    fn.lines.append("  ^bb0(%s):" % blk)
    fn.lines.extend(body.lines)
    fn.lines.append("    linalg.yield %s : %s" % (y, out_et))
    fn.emit("} -> %s" % tt(out_shape, out_et))
    return r


def elementwise(fn, x, shape, et, fn_body, out_et=None):
    return generic(fn, [(x, shape, et, ["d%d" % i for i in range(len(shape))])], shape,
                   out_et or et, lambda b, a: fn_body(b, a[0]))


def collapse(fn, x, shape, et, reassoc):
    out = [int(math.prod(shape[i] for i in grp)) for grp in reassoc]
    v = fn.v("cs")
    fn.emit("%s = tensor.collapse_shape %s %s : %s into %s"
            % (v, x, str(reassoc), tt(shape, et), tt(out, et)))
    return v, out


def expand(fn, x, shape, et, reassoc, out):
    v = fn.v("ex")
    fn.emit("%s = tensor.expand_shape %s %s output_shape %s : %s into %s"
            % (v, x, str(reassoc), str(out), tt(shape, et), tt(out, et)))
    return v


def transpose(fn, x, shape, et, perm, spelling="named"):
    out = permute(shape, perm)
    if spelling == "generic":
        # a copying generic: out[i] = in[perm...]: in map = inverse
        inv = inv_perm(perm)
        r = generic(fn, [(x, shape, et, ["d%d" % inv[k] for k in range(len(shape))])], out, et,
                    lambda b, a: a[0])
        return r, out
    e = fn.empty(out, et)
    v = fn.v("tr")
    fn.emit("%s = linalg.transpose ins(%s : %s) outs(%s : %s) permutation = %s"
            % (v, x, tt(shape, et), e, tt(out, et), str(perm)))
    return v, out


# --- the catalogue ---------------------------------------------------------------

# Perturbations: (name, expectation). "refuse": docs/passes.md says the matcher
# refuses it; "either": a near miss that may fuse (then it MUST agree).
PERTURBATIONS = {
    "softmax-wrong-axis": "refuse",
    "max-wrong-axis": "refuse",
    "sum-wrong-axis": "refuse",
    "exp2": "refuse",
    "causal-narrow-wrap": "either",
    "causal-float-frac": "either",
    "causal-unsigned-negative": "either",
    "causal-anti": "either",
    "causal-fill-small": "either",
    "finite-fill-with-mask": "either",
    "fill-then-bias": "either",
    "alibi-near-threshold": "either",
    "kv-offset-large": "either",
    "kv-finite-fill": "either",
    "kv-unsigned": "either",
    "kv-row-dependent": "refuse",
    "scale-on-bias": "either",
    "scale-after-fill": "either",
    "scale-nonsplat": "either",
    "gqa-mod": "either",
    "transpose-perm": "either",
    "o-transpose-perm": "either",
    "lse-add-other": "refuse",
    "lse-raw-scores": "refuse",
    "round-after-fill": "either",
    "round-scores-f16-in-bf16": "either",
    "p-returned": "refuse",
    "acc-nonzero": "either",
    "max-init-zero": "either",
}

FAMILIES = ["plain", "causal", "kvlen", "padmask", "intmask", "floatmask", "bias", "alibi",
            "gqa", "bshd", "lse", "half", "f16all", "combo"]
TOSA_FAMILIES = ["plain", "causal", "kvlen", "padmask", "bias", "gqa", "bshd", "lse", "half",
                 "combo"]


def pick(rng, items, weights=None):
    if weights:
        return rng.choices(items, weights=weights)[0]
    return rng.choice(items)


class Program:
    def __init__(self, idx, name, dialect, family, pert, expect, text, fn, results):
        self.idx = idx
        self.name = name
        self.dialect = dialect
        self.family = family
        self.pert = pert or "none"
        self.expect = expect          # "fuse", "refuse" or "either"
        self.text = text
        self.int_args = fn.int_args
        self.binary_args = list(fn.binary_args)
        self.notes = ""
        self.tol_scale = 1.0
        self.elides = False

    @property
    def should_fuse(self):
        return self.expect == "fuse"


# --- spec --------------------------------------------------------------------------

def draw_spec(rng, dialect, family, pert_rate, perts_allowed):
    s = {"dialect": dialect, "family": family}
    s["B"] = rng.choice([1, 2])
    s["H"] = rng.choice([1, 2])
    s["Hkv"] = s["H"]
    s["M"] = rng.randint(1, 16)
    s["N"] = rng.randint(1, 16)
    s["D"] = rng.randint(4, 16)
    s["Dv"] = s["D"] if rng.random() < 0.7 else rng.randint(4, 16)
    s["prec"] = "f32"
    s["half"] = rng.choice(["f16", "bf16"])
    s["scale"] = pick(rng, [1.0 / math.sqrt(s["D"]), 0.125, 0.5, 1.0, 2.0])
    s["scale_at"] = pick(rng, ["scores", "scores", "scores", "q", "qk", "none"])
    s["scale_op"] = pick(rng, ["mul", "div"])
    s["layout"] = "bhsd"
    s["kt"] = rng.random() < 0.3
    s["causal"] = None
    s["kv"] = None
    s["pad"] = None
    s["bias"] = None
    s["lse"] = None
    s["round_scores"] = False
    s["round_p"] = False
    s["round_o"] = False
    s["o_perm"] = None
    s["gqa_mode"] = "div"
    s["perm_q"] = s["perm_k"] = s["perm_v"] = None
    s["pert"] = None
    s["pert_detail"] = ""
    s["fill_rank"] = None
    s["imask"] = None     # an index mask (the new families; docs/fuzz-differential.md)
    s["softcap"] = None
    s["newfam"] = False
    fill_inf = rng.random() < 0.7

    def fill():
        return NINF if fill_inf else pick(rng, [LOWEST, -1e4, -65504.0, -1e9])

    if dialect == "linalg":
        s["qk"] = pick(rng, ["generic4", "bmm3", "mm2"], [4, 4, 1])
        s["softmax"] = {"kind": pick(rng, ["named", "decomp"]),
                        "maxop": pick(rng, ["maximumf", "maxnumf"]),
                        "maxinit": pick(rng, [NINF, LOWEST]),
                        "red": pick(rng, ["reduce", "generic"]),
                        "norm": pick(rng, ["div", "recip", "recip_mul_rev"]),
                        "split_exp": rng.random() < 0.3}
        s["pv"] = pick(rng, ["generic4", "bmm"])
    else:
        s["qk"] = "tosa"
        s["tosa_in"] = pick(rng, ["b3", "b4"])
        s["softmax"] = {"kind": "decomp", "mul_rev": rng.random() < 0.5}
        s["pv"] = "tosa"

    s["steps_split"] = rng.random()  # how the score steps are grouped into generics
    s["order_seed"] = rng.randrange(1 << 30)  # the order of the masks

    def causal():
        off = pick(rng, [0, 0, s["N"] - s["M"], rng.randint(-2, s["N"])])
        c = {"off": off, "fill": fill()}
        if c["fill"] != NINF and off < 0:
            c["off"] = off = 0
        if dialect == "linalg":
            c["kind"] = pick(rng, ["index", "index", "index", "tri_add", "tri_bool", "iota_f",
                                   "sitofp"])
            c["form"] = pick(rng, ["sgt", "sge", "slt", "sle_keep", "ugt", "subj"])
            if c["form"] in ("ugt",) and off < 0:
                c["form"] = "sgt"
            c["itype"] = pick(rng, ["index", "index", "i64", "i32", "i16", "i8"])
            c["additive"] = c["fill"] == NINF and rng.random() < 0.2
            c["fform"] = pick(rng, ["ogt", "ugt", "oge", "olt_swap", "ole_keep"])
            if c["kind"] == "tri_add" and c["fill"] != NINF:
                c["kind"] = "index"
        else:
            c["kind"] = pick(rng, ["iota", "iota", "tri_add"])
            c["form"] = pick(rng, ["greater", "ge", "ge_keep"])
            c["ifloat"] = False
            c["baked"] = rng.random() < 0.2
        return c

    def kv():
        k = {"shape": pick(rng, ["b", "b", "bh"]), "itype": pick(rng, ["i32", "i64"]),
             "form": pick(rng, ["sge", "sgt", "slt_keep", "sle_swap"]),
             "add": pick(rng, [0, 0, 0, 1, 2]), "fill": NINF}
        if dialect == "tosa":
            k["itype"] = "i32"
            k["form"] = pick(rng, ["greater", "ge"])
            k["fill"] = NINF if rng.random() < 0.8 else pick(rng, [LOWEST, -1e4])
        return k

    def pad():
        p = {"kind": "bool", "form": pick(rng, ["keep", "masked", "additive"]), "fill": fill(),
             "shape": pick(rng, ["bn", "b11n"])}
        return p

    def bias():
        b = {"kind": "arg", "shape": pick(rng, ["bhmn", "1hmn", "mn", "b11n"])}
        return b

    fam = family
    if fam == "causal":
        s["causal"] = causal()
    elif fam == "kvlen":
        s["kv"] = kv()
    elif fam == "padmask":
        s["pad"] = pad()
    elif fam == "intmask":
        s["pad"] = {"kind": "int", "itype": pick(rng, ["i32", "i64"]),
                    "form": pick(rng, ["eq", "ne_keep"]), "fill": fill(), "shape": "bn",
                    "where": pick(rng, ["inline", "separate"])}
    elif fam == "floatmask":
        s["pad"] = {"kind": "float01", "fill": pick(rng, [-1e4, LOWEST, -1e9, -65504.0]),
                    "shape": "bn", "where": pick(rng, ["inline", "separate"])}
    elif fam == "bias":
        s["bias"] = bias()
        if rng.random() < 0.4:
            s["causal"] = causal()
            s["causal"]["fill"] = NINF
    elif fam == "alibi":
        s["H"] = s["Hkv"] = rng.choice([1, 2, 2])
        s["bias"] = {"kind": "alibi", "where": pick(rng, ["inline", "separate"]),
                     "slopes": [pick(rng, [0.5, 0.25, 0.125, 0.0625, 1.0])
                                for _ in range(s["H"])]}
        if rng.random() < 0.7:
            s["causal"] = causal()
            s["causal"]["kind"] = "index"
            s["causal"]["off"] = max(0, s["causal"]["off"])
            s["causal"]["fill"] = pick(rng, [LOWEST, NINF, -1e4])
    elif fam == "gqa":
        s["H"] = 4
        s["Hkv"] = 2
        if rng.random() < 0.5:
            s["causal"] = causal()
    elif fam == "bshd":
        s["layout"] = "bshd"
        if rng.random() < 0.6:
            s["o_perm"] = [0, 2, 1, 3]
        if rng.random() < 0.4:
            s["causal"] = causal()
    elif fam == "lse":
        s["lse"] = pick(rng, ["plain", "guarded"])
        if rng.random() < 0.5:
            s["causal"] = causal()
            s["causal"]["fill"] = NINF
    elif fam == "half":
        s["prec"] = pick(rng, ["ext", "mm"]) if dialect == "linalg" else pick(rng, ["ext", "mm"])
        s["round_scores"] = s["prec"] == "mm" and dialect == "linalg" and rng.random() < 0.5
        s["round_p"] = rng.random() < 0.6
        s["round_o"] = rng.random() < 0.5
        if rng.random() < 0.4:
            s["causal"] = causal()
            s["causal"]["fill"] = NINF
    elif fam == "f16all":
        s["prec"] = "f16all"
        s["half"] = "f16"
        r = rng.random()
        if r < 0.3:
            s["causal"] = causal()
            s["causal"]["fill"] = pick(rng, [NINF, -65504.0])
            if s["causal"]["fill"] != NINF:
                s["causal"]["off"] = max(0, s["causal"]["off"])
            if s["causal"]["kind"] in ("tri_add",):
                s["causal"]["kind"] = "index"
        elif r < 0.7:
            s["pad"] = {"kind": "bool", "form": pick(rng, ["additive", "keep", "masked"]),
                        "fill": pick(rng, [-65504.0, NINF]), "shape": "bn"}
        else:
            s["bias"] = {"kind": "arg", "shape": pick(rng, ["bhmn", "mn"])}
    elif fam == "combo":
        s["causal"] = causal()
        s["causal"]["fill"] = NINF
        if rng.random() < 0.5:
            s["kv"] = kv()
            s["kv"]["fill"] = NINF
        if rng.random() < 0.5:
            s["pad"] = pad()
            s["pad"]["fill"] = NINF
        if rng.random() < 0.5 and not s["pad"]:
            s["bias"] = bias()   # a boolean mask becomes the bias: one bias at most
        if rng.random() < 0.3:
            s["lse"] = pick(rng, ["plain", "guarded"])
        if rng.random() < 0.3:
            s["H"] = 4
            s["Hkv"] = 2
        if rng.random() < 0.3:
            s["layout"] = "bshd"
    elif fam in NEW_FAMILIES:
        draw_new_family(rng, s, dialect, fam, causal, kv, pad, bias)
    # (plain: nothing)

    # batch-dependent masks need the 4-D score space
    need4 = bool(s["kv"] or s["pad"] or (s["bias"] and s["bias"].get("shape") in
                                         ("bhmn", "1hmn", "b11n")) or
                 (s["bias"] and s["bias"]["kind"] == "alibi") or s["layout"] == "bshd" or
                 s["o_perm"] or s["H"] != s["Hkv"])
    if dialect == "linalg":
        if s["qk"] == "mm2" and (need4 or s["B"] * s["H"] != 1 or s["prec"] == "f16all"):
            s["qk"] = pick(rng, ["generic4", "bmm3"])
        if s["prec"] in ("mm", "f16all") and s["qk"] == "generic4":
            s["qk"] = "bmm3"
        if s["qk"] == "mm2":
            s["rank"] = 2
            s["B"] = s["H"] = s["Hkv"] = 1
        elif s["qk"] == "generic4":
            s["rank"] = 4
        else:
            s["rank"] = 4 if (need4 or rng.random() < 0.6) else 3
        if s["rank"] != 4 or s["round_p"] or s["prec"] in ("mm", "f16all"):
            s["pv"] = "bmm"
        if s["prec"] == "mm" and s["scale_at"] in ("q", "qk"):
            s["scale_at"] = "scores"
        if s["prec"] == "f16all" and s["lse"]:
            s["lse"] = None
        if s["layout"] == "bshd" and s["qk"] == "mm2":
            s["layout"] = "bhsd"
    else:
        s["rank"] = 4 if (need4 or s["lse"] or rng.random() < 0.5) else 3
        if s["layout"] == "bshd" or s["H"] != s["Hkv"]:
            s["tosa_in"] = "b4"
    if s["o_perm"] and s["rank"] != 4 and dialect == "linalg":
        s["o_perm"] = None
    c = s["causal"]
    if c and c.get("kind") in ("tri_add", "tri_bool") and not any(
            causal_masked(i, j, c["off"], c["form"]) for i in range(s["M"])
            for j in range(s["N"])):
        c["kind"] = "index" if dialect == "linalg" else "iota"   # not an all-zero constant
    s["ext_where"] = pick(rng, ["before", "after"])
    s["transpose_spelling"] = pick(rng, ["named", "named", "generic"])

    # a perturbation
    if rng.random() < pert_rate:
        cands = applicable_perts(s)
        if perts_allowed:
            cands = [c for c in cands if c in perts_allowed]
        if cands:
            apply_pert(rng, s, rng.choice(cands))
    if dialect == "tosa" and (s["lse"] == "plain" or s["pert"] == "lse-add-other"):
        no_full_ninf_rows(s)
    return s


def no_full_ninf_rows(s):
    """Oracle caveat (b): MLIR 22 lowers tosa.reduce_max of a row of -inf to the lowest
    f32, not -inf, so the unfused TOSA reference of an unguarded log-sum-exp gives -inf on
    a fully masked row where the source means NaN (-inf - -inf): it would agree with the
    op's -inf by accident. TOSA programs that return such an lse therefore get no -inf mask
    that can hide every key of a row: causal offsets >= 0 (key 0 stays visible), KV masks
    j > L with a small non-negative adjust, no padding masks, no negative fractional
    offsets. (O is NaN on such rows in both the reference and the spec, and the guarded
    lse -inf in both: those need no care.)"""
    c = s["causal"]
    if c:
        if c.get("fill", NINF) == NINF:
            c["off"] = abs(c["off"]) if c.get("ifloat") else max(0, c["off"])
        if c.get("form") == "anti":
            s["M"] = min(s["M"], s["N"])
            c["off"] = 0
    k = s["kv"]
    if k and k.get("fill", NINF) == NINF:
        k["form"] = "greater"
        if not 0 <= k.get("add", 0) <= 3:
            k["add"] = 0
            s["pert_detail"] += " (adjust dropped: tosa lse)"
    if s["pad"] and s["pad"].get("fill", NINF) == NINF:
        s["pad"] = None


def applicable_perts(s):
    if s.get("newfam"):
        return new_applicable_perts(s)
    d = s["dialect"]
    c = ["softmax-wrong-axis", "max-wrong-axis", "sum-wrong-axis", "p-returned", "scale-on-bias",
         "scale-nonsplat", "causal-float-frac", "causal-anti", "causal-fill-small"]
    if d == "linalg":
        c += ["exp2", "acc-nonzero", "max-init-zero", "causal-narrow-wrap",
              "causal-unsigned-negative"]
    if s["rank"] == 4:
        c += ["kv-offset-large", "kv-finite-fill", "alibi-near-threshold", "fill-then-bias",
              "finite-fill-with-mask"]
        if s["prec"] != "f16all":
            c.append("round-after-fill")
        if d == "linalg":
            c += ["kv-unsigned", "kv-row-dependent"]
        c += ["gqa-mod", "transpose-perm", "o-transpose-perm"]
    if s["lse"]:
        c += ["lse-add-other", "lse-raw-scores"]
        if d == "tosa" and s["lse"] == "plain":
            if "kv-offset-large" in c:   # it would hide every key (no_full_ninf_rows)
                c.remove("kv-offset-large")
    if s["prec"] in ("mm", "ext") and d == "linalg":
        c += ["round-scores-f16-in-bf16"]
    return c


def apply_pert(rng, s, name):
    s["pert"] = name
    dl = s["dialect"]
    if name in NEW_PERTURBATIONS:
        apply_new_pert(rng, s, name)
        rederive_rank(s)
        return
    if name in ("causal-narrow-wrap", "causal-float-frac", "causal-unsigned-negative",
                "causal-anti", "causal-fill-small"):
        c = s["causal"] or {"off": 0, "fill": NINF, "form": "sgt", "itype": "index",
                            "fform": "ogt", "ifloat": False}
        s["causal"] = c
        c["kind"] = "index" if dl == "linalg" else "iota"
        if name == "causal-narrow-wrap":
            it = rng.choice(["i8", "i16", "i32", "i64", "index"])
            big = {"i8": [100, 120, 126, 127], "i16": [32700, 32760, 32767],
                   "i32": [2147483600, 2147483640, 2147483647],
                   "i64": [9223372036854775800, 9223372036854775807],
                   "index": [9223372036854775807, 9223372036854775790]}[it]
            c["itype"] = it
            c["off"] = rng.choice(big)
            c["form"] = rng.choice(["sgt", "sge", "slt", "sle_keep"])
            c["fill"] = rng.choice([NINF, NINF, LOWEST])
        elif name == "causal-float-frac":
            c["kind"] = "sitofp" if dl == "linalg" and rng.random() < 0.5 else (
                "iota_f" if dl == "linalg" else "iota")
            c["ifloat"] = True
            c["off"] = rng.choice([1.5, -0.5, 1e-8, 0.5, -1.5, 2.5, 1e-3, -1e-8, 0.999999])
            c["fform"] = rng.choice(["ogt", "ugt", "oge", "olt_swap", "ole_keep"])
            c["form"] = rng.choice(["greater", "ge", "ge_keep"])
            c["fill"] = rng.choice([NINF, NINF, LOWEST])
        elif name == "causal-unsigned-negative":
            c["off"] = -rng.randint(1, 4)
            c["form"] = rng.choice(["ugt", "uge", "ult_swap"])
            c["itype"] = rng.choice(["index", "i64", "i32"])
            c["fill"] = NINF
        elif name == "causal-anti":
            c["form"] = "anti"
            c["fill"] = rng.choice([NINF, LOWEST])
        elif name == "causal-fill-small":
            c["fill"] = rng.choice([-1000.0, -100.0, -9999.0, -5000.0])
            if c["off"] < 0:
                c["off"] = 0
        s["pert_detail"] = "%s off=%s fill=%s" % (c.get("itype", ""), c["off"], c["fill"])
    elif name == "kv-offset-large":
        k = s["kv"] or {"shape": "b", "form": "sge", "fill": NINF}
        s["kv"] = k
        if dl == "tosa":
            k["itype"] = "i32"
            k["form"] = rng.choice(["greater", "ge"])
            k["add"] = rng.choice([2147483646, 2147483647, 2147483000, -2147483648])
        else:
            k["itype"] = rng.choice(["i32", "i64"])
            k["form"] = rng.choice(["sge", "sgt", "slt_keep", "sle_swap"])
            k["add"] = rng.choice({"i32": [2147483646, 2147483647, 2147483000, -2147483648],
                                   "i64": [4294967296, 4294967295, 2 ** 53 + 1, 2 ** 62,
                                           9223372036854775807]}[k["itype"]])
        k["fill"] = NINF
        s["pert_detail"] = "%s + %d" % (k["itype"], k["add"])
    elif name == "kv-finite-fill":
        k = s["kv"] or {"shape": "b", "itype": "i32", "add": 0,
                        "form": "sge" if dl == "linalg" else "ge"}
        s["kv"] = k
        k["fill"] = rng.choice([LOWEST, -1e4, -65504.0])
        if dl == "tosa":
            # TOSA's boolean kv compare with a finite fill is a documented spelling
            # (a bias): add a second mask so that it becomes a near miss
            s["causal"] = s["causal"] or {"off": 0, "fill": NINF, "kind": "iota",
                                          "form": "greater", "ifloat": False}
        s["pert_detail"] = "fill=%s" % k["fill"]
    elif name == "kv-unsigned":
        k = s["kv"] or {"shape": "b", "itype": "i32", "add": 0, "fill": NINF}
        s["kv"] = k
        k["form"] = rng.choice(["uge", "ugt", "ult_keep"])
    elif name == "kv-row-dependent":
        k = s["kv"] or {"itype": "i32", "add": 0, "fill": NINF, "form": "sge"}
        s["kv"] = k
        k["shape"] = "bm"
    elif name == "finite-fill-with-mask":
        f = rng.choice([LOWEST, -1e4, -65504.0, -1e9])
        if s["pad"] is None and rng.random() < 0.6:
            s["pad"] = {"kind": "bool", "form": rng.choice(["keep", "masked"]), "fill": f,
                        "shape": "bn"}
        elif s["pad"] is not None:
            s["pad"]["fill"] = f
        other = rng.choice(["causal", "kv", "bias"])
        if other == "causal" or s["pad"] is None:
            s["causal"] = s["causal"] or {"off": rng.randint(-1, 2), "fill": NINF,
                                          "kind": "index" if dl == "linalg" else "iota",
                                          "form": "sgt" if dl == "linalg" else "greater",
                                          "itype": "index", "ifloat": False}
            if s["pad"] is None:
                s["causal"]["fill"] = f
                s["causal"]["off"] = max(0, s["causal"]["off"])
                s["bias"] = s["bias"] or {"kind": "arg", "shape": "bhmn"}
        elif other == "kv":
            s["kv"] = s["kv"] or {"shape": "b", "itype": "i32", "add": 0, "fill": NINF,
                                  "form": "sge" if dl == "linalg" else "ge"}
        else:
            s["bias"] = s["bias"] or {"kind": "arg", "shape": "bhmn"}
        s["pert_detail"] = "fill=%s" % f
    elif name == "fill-then-bias":
        f = rng.choice([LOWEST, -1e4, -65504.0, NINF])
        if s["causal"] is None and s["pad"] is None:
            s["pad"] = {"kind": "bool", "form": rng.choice(["keep", "masked"]), "fill": f,
                        "shape": "bn"}
        for m in (s["causal"], s["pad"]):
            if m is not None and "fill" in m:
                m["fill"] = f
                if m is s["causal"]:
                    m["off"] = max(0, m["off"])
                    if m.get("kind") == "tri_add":
                        m["kind"] = "index"
        if s["bias"] is None or rng.random() < 0.5:
            if dl == "linalg" and rng.random() < 0.5 and s["prec"] != "f16all":
                s["bias"] = {"kind": "alibi", "where": "inline",
                             "slopes": [rng.choice([0.5, 1.0, 100.0, 700.0, -700.0, 1000.0])
                                        for _ in range(s["H"])]}
            else:
                s["bias"] = {"kind": "arg", "shape": rng.choice(["bhmn", "mn", "b11n"])}
        s["pert_detail"] = "fill=%s bias=%s" % (f, s["bias"]["kind"])
    elif name == "alibi-near-threshold":
        if dl != "linalg":
            s["pert"] = None
            return
        # ALiBi slope x distance reaching the finite fill's magnitude: with the fill first
        # (select then add), masked keys get fill + bias, which may no longer be masked
        fill = rng.choice([-1e4, -1e4, -65504.0, -1e5]) if s["prec"] != "f16all" else -65504.0
        dist = max(s["N"] - 1, 1)
        fac = rng.choice([0.9, 0.999, 0.99999, 1.0, 1.0001, 1.001, 1.05, -1.0, -0.999])
        s["H"] = s["Hkv"] = s["H"] if s["H"] == s["Hkv"] else 2
        s["bias"] = {"kind": "alibi", "where": rng.choice(["inline", "separate"]),
                     "slopes": [-fill / dist * fac * rng.choice([1.0, 1.0, 0.5])
                                for _ in range(s["H"])]}
        s["causal"] = {"off": rng.choice([0, 0, 1]), "kind": rng.choice(["index", "tri_add"]),
                       "form": rng.choice(["sgt", "sle_keep"]), "itype": "index",
                       "fill": fill, "fform": "ogt", "additive": rng.random() < 0.5}
        if s["causal"]["kind"] == "tri_add":
            s["causal"]["form"] = "sgt"
        s["fill_first"] = rng.random() < 0.6
        s["pert_detail"] = "slope=%.6g fill=%s fill_first=%s" % (
            s["bias"]["slopes"][0], fill, s["fill_first"])
    elif name == "scale-on-bias":
        s["bias"] = s["bias"] or {"kind": "arg", "shape": "bhmn"}
        s["scale_at"] = "after_bias"
        if s["scale"] == 1.0:
            s["scale"] = 0.125
    elif name == "scale-after-fill":
        if s["causal"] is None and s["pad"] is None and s["kv"] is None:
            s["causal"] = {"off": 0, "kind": "index" if dl == "linalg" else "iota",
                           "form": "sgt" if dl == "linalg" else "greater", "itype": "index",
                           "fill": NINF, "fform": "ogt", "ifloat": False}
        for m in (s["causal"], s["pad"]):
            if m is not None:
                m["fill"] = rng.choice([NINF, LOWEST, -1e4, -1e5])
        s["scale_at"] = "last"
        s["scale"] = rng.choice([0.125, 0.5, 0.01, 2.0])
    elif name == "scale-nonsplat":
        s["scale_at"] = "nonsplat"
    elif name == "gqa-mod":
        s["H"], s["Hkv"] = 4, 2
        s["gqa_mode"] = "mod"
        if dl == "tosa":
            s["tosa_in"] = "b4"
    elif name == "transpose-perm":
        which = rng.choice(["q", "k", "v"])
        perms = [[a, b, c, d] for a in range(4) for b in range(4) for c in range(4)
                 for d in range(4) if len({a, b, c, d}) == 4]
        s["layout"] = "bshd"
        p = rng.choice([p for p in perms if p not in ([0, 2, 1, 3], [0, 2, 3, 1])])
        s["perm_" + which] = p
        s["pert_detail"] = "%s perm %s" % (which, p)
        if dl == "tosa":
            s["tosa_in"] = "b4"
    elif name == "o-transpose-perm":
        perms = [[a, b, c, d] for a in range(4) for b in range(4) for c in range(4)
                 for d in range(4) if len({a, b, c, d}) == 4]
        # O's last axis stays last: fa-check exempts a fully masked query (NaN in the
        # source, 0 in the op by its definition) only as a whole row along that axis.
        s["o_perm"] = rng.choice([p for p in perms if p != [0, 2, 1, 3] and p != [0, 1, 2, 3]
                                  and p[3] == 3])
        s["pert_detail"] = "o perm %s" % s["o_perm"]
    elif name == "lse-add-other":
        s["softmax"]["kind"] = "decomp"
    elif name == "lse-raw-scores":
        s["softmax"]["kind"] = "decomp"
        if s["scale_at"] != "scores":
            s["scale_at"] = "scores"
        if s["scale"] == 1.0:
            s["scale"] = 0.5
    elif name == "round-after-fill":
        m = s["pad"] or s["causal"]
        if m is None:
            s["pad"] = m = {"kind": "bool", "form": rng.choice(["keep", "masked"]),
                            "fill": LOWEST, "shape": "bn"}
        m["fill"] = rng.choice([LOWEST, -1e9, -1e5])
        if m is s["causal"]:
            m["off"] = max(0, m["off"])
            if m.get("kind") == "tri_add":
                m["kind"] = "index"
        s["round_after"] = rng.choice(["f16", "bf16"])
        s["pert_detail"] = "fill=%s round to %s" % (m["fill"], s["round_after"])
    elif name == "round-scores-f16-in-bf16":
        s["round_scores"] = True
        s["round_scores_type"] = "f16" if s["half"] == "bf16" else "bf16"
    elif name in ("softmax-wrong-axis", "max-wrong-axis", "sum-wrong-axis", "exp2",
                  "max-init-zero"):
        if name != "softmax-wrong-axis" and dl == "linalg":
            s["softmax"]["kind"] = "decomp"
        if name == "max-init-zero":
            s["softmax"]["maxinit"] = 0.0
    elif name == "acc-nonzero":
        s["acc"] = rng.choice([("qk", 0.5), ("pv", 1.0), ("qk", -1.0)])
        s["pert_detail"] = "%s acc %s" % s["acc"]
    rederive_rank(s)


def rederive_rank(s):
    # re-derive the 4-D needs after a perturbation added masks
    if s["dialect"] == "linalg" and s["rank"] != 4 and (
            s["kv"] or s["pad"] or s["bias"] or s["layout"] == "bshd" or s["H"] != s["Hkv"]
            or s["o_perm"] or s.get("need4")):
        if s["qk"] == "mm2":
            s["qk"] = "bmm3"
        s["rank"] = 4
        if s["pv"] == "generic4" and (s["round_p"] or s["prec"] in ("mm", "f16all")):
            s["pv"] = "bmm"
    if s["dialect"] == "tosa" and s["rank"] != 4 and (
            s["kv"] or s["pad"] or s["bias"] or s["layout"] == "bshd" or s["H"] != s["Hkv"]
            or s["o_perm"] or s.get("need4")):
        s["rank"] = 4
        s["tosa_in"] = "b4"


# --- linalg ----------------------------------------------------------------------

def score_dims(rank):
    return {4: {"b": 0, "h": 1, "m": 2, "n": 3}, 3: {"m": 1, "n": 2},
            2: {"m": 0, "n": 1}}[rank]


def reduce_op(fn, x, shape, et, ax, kind, init_value, spelling):
    """Row reduction over axis ax (kind: maximumf, maxnumf, addf)."""
    rshape = [d for i, d in enumerate(shape) if i != ax]
    init = fn.filled(rshape, et, init_value)
    r = len(shape)
    if spelling == "reduce":
        v = fn.v("red")
        a, acc, y = fn.v("a"), fn.v("a"), fn.v("b")
        fn.emit("%s = linalg.reduce ins(%s : %s) outs(%s : %s) dimensions = [%d]"
                % (v, x, tt(shape, et), init, tt(rshape, et), ax))
        fn.lines.append("    (%s: %s, %s: %s) {" % (a, et, acc, et))
        fn.lines.append("      %s = arith.%s %s, %s : %s" % (y, kind, a, acc, et))
        fn.lines.append("      linalg.yield %s : %s" % (y, et))
        fn.lines.append("    }")
        return v, rshape
    iters = ["reduction" if i == ax else "parallel" for i in range(r)]
    rmap = ["d%d" % i for i in range(r) if i != ax]

    def body(b, a):
        return b.op("arith.%s %s, %s : %s" % (kind, a[0], a[1], et))
    return generic(fn, [(x, shape, et, ["d%d" % i for i in range(r)])], rshape, et, body,
                   iters=iters, out_map=rmap, init=init), rshape


def row_map(rank, ax):
    return ["d%d" % i for i in range(rank) if i != ax]


def emit_linalg(s, name):
    fn = Fn(name)
    B, H, Hkv, M, N, D, Dv = s["B"], s["H"], s["Hkv"], s["M"], s["N"], s["D"], s["Dv"]
    G = H // Hkv
    prec, half = s["prec"], s["half"]
    in_et = half if prec in ("ext", "mm", "f16all") else "f32"
    et = "f16" if prec == "f16all" else "f32"
    rank = s["rank"]
    kt = s["kt"]
    # --- inputs, in the layout the contraction wants ---
    if rank == 2:
        tq, tk, tv = [M, D], ([D, N] if kt else [N, D]), [N, Dv]
    else:
        tq, tk, tv = [B, H, M, D], ([B, Hkv, D, N] if kt else [B, Hkv, N, D]), [B, Hkv, N, Dv]
    perms = {}
    if s["layout"] == "bshd":
        perms = {"q": s["perm_q"] or [0, 2, 1, 3],
                 "k": s["perm_k"] or ([0, 2, 3, 1] if kt else [0, 2, 1, 3]),
                 "v": s["perm_v"] or [0, 2, 1, 3]}
    targets = {"q": tq, "k": tk, "v": tv}
    vals = {}
    v_half = None
    ext_v = not (prec == "ext" and s["round_p"])
    for nm in ("q", "k", "v"):
        shp = source_shape(targets[nm], perms[nm]) if nm in perms else targets[nm]
        x = fn.arg(nm, shp, in_et)
        xet = in_et

        def ext(x, shp, xet):
            if prec == "ext" and xet != "f32" and (nm != "v" or ext_v):
                return elementwise(fn, x, shp, xet,
                                   lambda b, a: b.op("arith.extf %s : %s to f32" % (a, xet)),
                                   out_et="f32"), "f32"
            return x, xet
        if s["ext_where"] == "before":
            x, xet = ext(x, shp, xet)
        if nm in perms:
            x, shp = transpose(fn, x, shp, xet, perms[nm], s["transpose_spelling"])
        if s["ext_where"] != "before":
            x, xet = ext(x, shp, xet)
        vals[nm] = (x, shp, xet)
    # --- constant scales of Q (and K) ---
    sc = s["scale"]
    if s["scale_at"] in ("q", "qk"):
        f = sc if s["scale_at"] == "q" else math.sqrt(sc)
        for nm in (("q",) if s["scale_at"] == "q" else ("q", "k")):
            x, shp, xet = vals[nm]
            vals[nm] = (elementwise(fn, x, shp, xet, lambda b, a: b.op(
                "arith.mulf %s, %s : %s" % (a, b.const(fconst(f, xet), xet), xet))), shp, xet)
    # --- GQA ---
    if G > 1:
        for nm in ("k", "v"):
            x, shp, xet = vals[nm]
            if s["gqa_mode"] == "div":
                bshape = [shp[0], shp[1], G] + shp[2:]
                dims = [2]
            else:
                bshape = [shp[0], G, shp[1]] + shp[2:]
                dims = [1]
            e = fn.empty(bshape, xet)
            bv = fn.v("bc")
            fn.emit("%s = linalg.broadcast ins(%s : %s) outs(%s : %s) dimensions = %s"
                    % (bv, x, tt(shp, xet), e, tt(bshape, xet), dims))
            cv, cshape = collapse(fn, bv, bshape, xet, [[0], [1, 2], [3], [4]])
            vals[nm] = (cv, cshape, xet)
    q, qshape, qet = vals["q"]
    k, kshape, ket = vals["k"]
    v, vshape, vet = vals["v"]
    acc = s.get("acc") or (None, 0.0)
    # --- Q K^T ---
    if s["qk"] == "generic4":
        init = fn.filled([B, H, M, N], et, acc[1] if acc[0] == "qk" else 0.0)
        kmap = ["d0", "d1", "d4", "d3"] if kt else ["d0", "d1", "d3", "d4"]

        def body(b, a):
            m = b.op("arith.mulf %s, %s : %s" % (a[0], a[1], et))
            return b.op("arith.addf %s, %s : %s" % (a[2], m, et))
        x = generic(fn, [(q, qshape, qet, ["d0", "d1", "d2", "d4"]), (k, kshape, ket, kmap)],
                    [B, H, M, N], et, body,
                    iters=["parallel"] * 4 + ["reduction"], out_map=["d0", "d1", "d2", "d3"],
                    init=init)
        xshape = [B, H, M, N]
    elif s["qk"] == "bmm3":
        q3, q3s = collapse(fn, q, qshape, qet, [[0, 1], [2], [3]])
        k3, k3s = collapse(fn, k, kshape, ket, [[0, 1], [2], [3]])
        if not kt:
            k3, k3s = transpose(fn, k3, k3s, ket, [0, 2, 1])
        init = fn.filled([B * H, M, N], et, acc[1] if acc[0] == "qk" else 0.0)
        x = fn.v("s")
        fn.emit("%s = linalg.batch_matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                % (x, q3, k3, tt(q3s, qet), tt(k3s, ket), init, tt([B * H, M, N], et),
                   tt([B * H, M, N], et)))
        xshape = [B * H, M, N]
        if rank == 4:
            x = expand(fn, x, xshape, et, [[0, 1], [2], [3]], [B, H, M, N])
            xshape = [B, H, M, N]
    else:
        if not kt:
            k, kshape = transpose(fn, k, kshape, ket, [1, 0])
        init = fn.filled([M, N], et, acc[1] if acc[0] == "qk" else 0.0)
        x = fn.v("s")
        fn.emit("%s = linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                % (x, q, k, tt(qshape, qet), tt(kshape, ket), init, tt([M, N], et),
                   tt([M, N], et)))
        xshape = [M, N]
    raw = x
    # --- rounding of the scores ---
    if s["round_scores"]:
        rt = s.get("round_scores_type", half)
        h = elementwise(fn, x, xshape, et,
                        lambda b, a: b.op("arith.truncf %s : %s to %s" % (a, et, rt)), out_et=rt)
        x = elementwise(fn, h, xshape, rt,
                        lambda b, a: b.op("arith.extf %s : %s to %s" % (a, rt, et)), out_et=et)
    # --- scale, bias, masks: steps in generics ---
    sd = score_dims(rank)
    steps = build_linalg_steps(fn, s, rank, sd, et)
    groups = []
    for st in steps:
        if groups and not st.get("alone") and not groups[-1][-1].get("alone") and \
                s["steps_split"] < 0.6:
            groups[-1].append(st)
        else:
            groups.append([st])
    for grp in groups:
        ins = [(x, xshape, et, ["d%d" % i for i in range(rank)])]
        slots = []
        for st in grp:
            slots.append((len(ins), len(st["extras"])))
            ins += st["extras"]

        def body(b, a, grp=grp, slots=slots):
            y = a[0]
            for st, (at, n) in zip(grp, slots):
                y = st["body"](b, y, a[at:at + n])
            return y
        x = generic(fn, ins, xshape, et, body)
    # --- softmax ---
    sm = s["softmax"]
    pert = s["pert"]
    ax = rank - 1
    wrong = 0 if rank == 2 else rank - 2
    if sm["kind"] == "named":
        e = fn.empty(xshape, et)
        p = fn.v("p")
        fn.emit("%s = linalg.softmax dimension(%d) ins(%s : %s) outs(%s : %s) -> %s"
                % (p, wrong if pert == "softmax-wrong-axis" else ax, x, tt(xshape, et), e,
                   tt(xshape, et), tt(xshape, et)))
        mx = ssum = None
    else:
        max_ax = wrong if pert in ("softmax-wrong-axis", "max-wrong-axis") else ax
        sum_ax = wrong if pert in ("softmax-wrong-axis", "sum-wrong-axis") else ax
        mx, mshape = reduce_op(fn, x, xshape, et, max_ax, sm["maxop"], sm["maxinit"], sm["red"])
        expop = "math.exp2" if pert == "exp2" else "math.exp"
        ins = [(x, xshape, et, ["d%d" % i for i in range(rank)]),
               (mx, mshape, et, row_map(rank, max_ax))]
        if sm["split_exp"]:
            d = generic(fn, ins, xshape, et,
                        lambda b, a: b.op("arith.subf %s, %s : %s" % (a[0], a[1], et)))
            ex = elementwise(fn, d, xshape, et, lambda b, a: b.op("%s %s : %s" % (expop, a, et)))
        else:
            ex = generic(fn, ins, xshape, et, lambda b, a: b.op("%s %s : %s" % (
                expop, b.op("arith.subf %s, %s : %s" % (a[0], a[1], et)), et)))
        ssum, sshape = reduce_op(fn, ex, xshape, et, sum_ax, "addf", 0.0, sm["red"])
        eins = (ex, xshape, et, ["d%d" % i for i in range(rank)])
        sins = (ssum, sshape, et, row_map(rank, sum_ax))
        if sm["norm"] == "div":
            p = generic(fn, [eins, sins], xshape, et,
                        lambda b, a: b.op("arith.divf %s, %s : %s" % (a[0], a[1], et)))
        else:
            r = elementwise(fn, ssum, sshape, et, lambda b, a: b.op("arith.divf %s, %s : %s" % (
                b.const(fconst(1.0, et), et), a, et)))
            rins = (r, sshape, et, row_map(rank, sum_ax))
            if sm["norm"] == "recip":
                p = generic(fn, [eins, rins], xshape, et,
                            lambda b, a: b.op("arith.mulf %s, %s : %s" % (a[0], a[1], et)))
            else:
                p = generic(fn, [rins, eins], xshape, et,
                            lambda b, a: b.op("arith.mulf %s, %s : %s" % (a[0], a[1], et)))
    results = []
    # --- log-sum-exp ---
    lse = None
    if s["lse"]:
        lse = emit_linalg_lse(fn, s, x if pert != "lse-raw-scores" else raw, xshape, et, rank,
                              mx, ssum)
    # --- P V ---
    pshape = xshape
    pet = et
    p_ret = p
    if s["round_p"]:
        p = elementwise(fn, p, xshape, et,
                        lambda b, a: b.op("arith.truncf %s : %s to %s" % (a, et, half)),
                        out_et=half)
        pet = half
    oet = et
    oinit_v = acc[1] if acc[0] == "pv" else 0.0
    if s["pv"] == "generic4":
        init = fn.filled([B, H, M, Dv], oet, oinit_v)

        def body(b, a):
            m = b.op("arith.mulf %s, %s : %s" % (a[0], a[1], et))
            return b.op("arith.addf %s, %s : %s" % (a[2], m, et))
        o = generic(fn, [(p, pshape, pet, ["d0", "d1", "d2", "d4"]),
                         (v, vshape, vet, ["d0", "d1", "d4", "d3"])], [B, H, M, Dv], oet, body,
                    iters=["parallel"] * 4 + ["reduction"], out_map=["d0", "d1", "d2", "d3"],
                    init=init)
        oshape = [B, H, M, Dv]
    elif rank == 2:
        init = fn.filled([M, Dv], oet, oinit_v)
        o = fn.v("o")
        fn.emit("%s = linalg.matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                % (o, p, v, tt(pshape, pet), tt(vshape, vet), init, tt([M, Dv], oet),
                   tt([M, Dv], oet)))
        oshape = [M, Dv]
    else:
        if rank == 4:
            p3, p3s = collapse(fn, p, pshape, pet, [[0, 1], [2], [3]])
        else:
            p3, p3s = p, pshape
        v3, v3s = collapse(fn, v, vshape, vet, [[0, 1], [2], [3]])
        init = fn.filled([B * H, M, Dv], oet, oinit_v)
        o = fn.v("o")
        fn.emit("%s = linalg.batch_matmul ins(%s, %s : %s, %s) outs(%s : %s) -> %s"
                % (o, p3, v3, tt(p3s, pet), tt(v3s, vet), init, tt([B * H, M, Dv], oet),
                   tt([B * H, M, Dv], oet)))
        oshape = [B * H, M, Dv]
        if rank == 4 or s["o_perm"] or s.get("o_expand"):
            o = expand(fn, o, oshape, oet, [[0, 1], [2], [3]], [B, H, M, Dv])
            oshape = [B, H, M, Dv]
    if s["round_o"] and prec in ("ext", "mm"):
        o = elementwise(fn, o, oshape, oet,
                        lambda b, a: b.op("arith.truncf %s : %s to %s" % (a, oet, half)),
                        out_et=half)
        oet = half
    if s["o_perm"] and len(oshape) == 4:
        o, oshape = transpose(fn, o, oshape, oet, s["o_perm"], s["transpose_spelling"])
    results.append((o, tt(oshape, oet)))
    if lse is not None:
        results.append(lse)
    if pert == "p-returned":
        results.append((p_ret, tt(xshape, et)))
    return fn, results


def emit_linalg_lse(fn, s, x, xshape, et, rank, mx, ssum):
    ax = rank - 1
    rshape = [d for i, d in enumerate(xshape) if i != ax]
    rm = row_map(rank, ax)
    full = ["d%d" % i for i in range(rank)]
    pert = s["pert"]
    shares = (mx is not None and pert not in ("max-wrong-axis", "softmax-wrong-axis",
                                             "sum-wrong-axis", "lse-raw-scores", "exp2",
                                             "max-init-zero"))
    m = mx if shares else reduce_op(fn, x, xshape, et, ax, "maxnumf", NINF, "reduce")[0]
    if s["lse"] == "plain" and shares and pert != "lse-add-other":
        sm_, addback = ssum, m
    else:
        g = m
        if s["lse"] == "guarded" or pert == "lse-add-other":
            def guard(b, a):
                ab = b.op("math.absf %s : %s" % (a, et))
                inf = b.const(fconst(PINF, et), et)
                c = b.op("arith.cmpf oeq, %s, %s : %s" % (ab, inf, et))
                return b.op("arith.select %s, %s, %s : %s" % (c, b.const(fconst(0.0, et), et),
                                                             a, et))
            g = elementwise(fn, m, rshape, et, guard)
        shift = g if s["lse"] == "guarded" else m
        ex = generic(fn, [(x, xshape, et, full), (shift, rshape, et, rm)], xshape, et,
                     lambda b, a: b.op("math.exp %s : %s" % (
                         b.op("arith.subf %s, %s : %s" % (a[0], a[1], et)), et)))
        sm_, _ = reduce_op(fn, ex, xshape, et, ax, "addf", 0.0, "reduce")
        addback = shift
        if pert == "lse-add-other":
            addback = m if s["lse"] == "guarded" else g
    ident = ["d%d" % i for i in range(len(rshape))]
    lse = generic(fn, [(sm_, rshape, et, ident), (addback, rshape, et, ident)], rshape, et,
                  lambda b, a: b.op("arith.addf %s, %s : %s" % (
                      b.op("math.log %s : %s" % (a[0], et)), a[1], et)))
    return (lse, tt(rshape, et))


def wrap_int(v, ty):
    bits = 64 if ty == "index" else int(ty[1:])
    v &= (1 << bits) - 1
    if v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def dense(rows, fmt):
    if isinstance(rows[0], list):
        return "[%s]" % ", ".join("[%s]" % ", ".join(fmt(x) for x in r) for r in rows)
    return "[%s]" % ", ".join(fmt(x) for x in rows)


def nested(flat, shape, fmt):
    """A dense literal of the flat values nested to `shape`."""
    if not shape:
        return fmt(flat[0])
    step = len(flat) // shape[0]
    return "[%s]" % ", ".join(nested(flat[i * step:(i + 1) * step], shape[1:], fmt)
                              for i in range(shape[0]))


def causal_masked(i, j, off, form):
    """Whether key j is masked for query i, for the canonical forms."""
    if form == "anti":
        return j < i + off
    return j > i + off


def build_linalg_steps(fn, s, rank, sd, et):
    B, H, M, N = s["B"], s["H"], s["M"], s["N"]
    full = ["d%d" % i for i in range(rank)]
    dm, dn = "d%d" % sd["m"], "d%d" % sd["n"]
    pert = s["pert"]
    steps = []

    def fillc(b, f):
        return b.const(fconst(f, et), et)

    def sel(b, c, a, bb):
        return b.op("arith.select %s, %s, %s : %s" % (c, a, bb, et))

    # scale
    def scale_step():
        sc = s["scale"]

        def body(b, y, e):
            if s["scale_op"] == "mul":
                return b.op("arith.mulf %s, %s : %s" % (y, b.const(fconst(sc, et), et), et))
            return b.op("arith.divf %s, %s : %s" % (y, b.const(fconst(1.0 / sc, et), et), et))
        return {"extras": [], "body": body}

    if s["scale_at"] == "nonsplat":
        vals = [s["scale"] * (1 + 0.1 * j) for j in range(N)]
        c = fn.const("dense<%s>" % dense(vals, lambda v: fconst(v, et)), tt([N], et))
        steps.append({"extras": [(c, [N], et, [dn])],
                      "body": lambda b, y, e: b.op("arith.mulf %s, %s : %s" % (y, e[0], et))})
    elif s["scale_at"] == "scores":
        steps.append(scale_step())

    masks = []
    # bias
    bs = s["bias"]
    if bs and bs["kind"] == "arg":
        shp, mp = {"bhmn": ([B, H, M, N], full), "1hmn": ([1, H, M, N], ["0", "d1", "d2", "d3"]),
                   "mn": ([M, N], [dm, dn]), "b11n": ([B, 1, 1, N], ["d0", "0", "0", "d3"])
                   }[bs["shape"] if rank == 4 else "mn"]
        a = fn.arg("bias", shp, et)
        masks.append(("bias", {"extras": [(a, shp, et, mp)],
                               "body": lambda b, y, e: b.op("arith.addf %s, %s : %s"
                                                            % (y, e[0], et))}))
    elif bs and bs["kind"] == "alibi":
        slopes = fn.const("dense<%s>" % dense((bs["slopes"] * H)[:H], lambda v: fconst(v, et)),
                          tt([H], et))
        if bs["where"] == "inline":
            def body(b, y, e):
                i, j = b.index(sd["m"]), b.index(sd["n"])
                d = b.op("arith.subi %s, %s : index" % (j, i))
                c = b.op("arith.index_cast %s : index to i64" % d)
                f = b.op("arith.sitofp %s : i64 to %s" % (c, et))
                bb = b.op("arith.mulf %s, %s : %s" % (e[0], f, et))
                return b.op("arith.addf %s, %s : %s" % (y, bb, et))
            masks.append(("bias", {"extras": [(slopes, [H], et, ["d1"])], "body": body}))
        else:
            def relb(b, a):
                i, j = b.index(0), b.index(1)
                return b.op("arith.subi %s, %s : i64" % (
                    b.op("arith.index_cast %s : index to i64" % j),
                    b.op("arith.index_cast %s : index to i64" % i)))
            rel = generic(fn, [], [M, N], "i64", relb)
            relf = elementwise(fn, rel, [M, N], "i64",
                               lambda b, a: b.op("arith.sitofp %s : i64 to %s" % (a, et)),
                               out_et=et)
            bias = generic(fn, [(slopes, [H], et, ["d1"]), (relf, [M, N], et, ["d2", "d3"])],
                           [1, H, M, N], et,
                           lambda b, a: b.op("arith.mulf %s, %s : %s" % (a[0], a[1], et)))
            mp = ["0", "d1", "d2", "d3"] if B > 1 else full
            masks.append(("bias", {"extras": [(bias, [1, H, M, N], et, mp)],
                                   "body": lambda b, y, e: b.op("arith.addf %s, %s : %s"
                                                                % (y, e[0], et))}))
    # causal
    c = s["causal"]
    if c:
        masks.append(("causal", causal_step(fn, c, s, rank, sd, et, fillc, sel)))
    # kv length
    k = s["kv"]
    if k:
        it = k["itype"]
        shp, mp = {"b": ([B], ["d0"]), "bh": ([B, H], ["d0", "d1"]),
                   "bm": ([B, M], ["d0", "d2"])}[k["shape"]]
        a = fn.arg("kv", shp, it)

        def body(b, y, e, k=k, it=it):
            j = b.op("arith.index_cast %s : index to %s" % (b.index(sd["n"]), it))
            L = e[0]
            if k["add"]:
                L = b.op("arith.addi %s, %s : %s" % (L, b.const(wrap_int(k["add"], it), it), it))
            f = fillc(b, k["fill"])
            form = k["form"]
            pred, lhs, rhs, keep = {
                "sge": ("sge", j, L, False), "sgt": ("sgt", j, L, False),
                "slt_keep": ("slt", j, L, True), "sle_swap": ("sle", L, j, False),
                "uge": ("uge", j, L, False), "ugt": ("ugt", j, L, False),
                "ult_keep": ("ult", j, L, True)}[form]
            cnd = b.op("arith.cmpi %s, %s, %s : %s" % (pred, lhs, rhs, it))
            return sel(b, cnd, y, f) if keep else sel(b, cnd, f, y)
        masks.append(("kv", {"extras": [(a, shp, it, mp)], "body": body}))
    # padding masks
    p = s["pad"]
    if p:
        if p["kind"] == "bool":
            shp, mp = ([B, N], ["d0", "d3"]) if p["shape"] == "bn" else \
                ([B, 1, 1, N], ["d0", "0", "0", "d3"])
            a = fn.arg("pad", shp, "i1")

            def body(b, y, e, p=p):
                f = fillc(b, p["fill"])
                if p["form"] == "keep":
                    return sel(b, e[0], y, f)
                if p["form"] == "masked":
                    return sel(b, e[0], f, y)
                t = sel(b, e[0], b.const(fconst(0.0, et), et), f)
                return b.op("arith.addf %s, %s : %s" % (y, t, et))
            masks.append(("pad", {"extras": [(a, shp, "i1", mp)], "body": body}))
        elif p["kind"] == "int":
            it = p["itype"]
            a = fn.arg("am", [B, N], it)

            pred = "eq" if p["form"] == "eq" else "ne"
            if p.get("where") == "separate":
                # DistilBERT: the i1 tensor mask == 0 of its own, then the select
                a = elementwise(fn, a, [B, N], it, lambda b, x, it=it: b.op(
                    "arith.cmpi %s, %s, %s : %s" % (pred, x, b.const(0, it), it)), out_et="i1")

                def body(b, y, e, p=p):
                    f = fillc(b, p["fill"])
                    return sel(b, e[0], f, y) if p["form"] == "eq" else sel(b, e[0], y, f)
                masks.append(("pad", {"extras": [(a, [B, N], "i1", ["d0", "d3"])],
                                      "body": body}))
            else:
                def body(b, y, e, p=p, it=it):
                    f = fillc(b, p["fill"])
                    c = b.op("arith.cmpi %s, %s, %s : %s" % (pred, e[0], b.const(0, it), it))
                    return sel(b, c, f, y) if p["form"] == "eq" else sel(b, c, y, f)
                masks.append(("pad", {"extras": [(a, [B, N], it, ["d0", "d3"])],
                                      "body": body}))
        else:
            fn.binary_args.append(len(fn.args))
            a = fn.arg("fmask", [B, N], et)

            def hf(b, m, p=p):
                one = b.const(fconst(1.0, et), et)
                t = b.op("arith.subf %s, %s : %s" % (one, m, et))
                return b.op("arith.mulf %s, %s : %s" % (t, fillc(b, p["fill"]), et))
            if p["where"] == "inline":
                masks.append(("pad", {"extras": [(a, [B, N], et, ["d0", "d3"])],
                                      "body": lambda b, y, e: b.op("arith.addf %s, %s : %s" % (
                                          y, hf(b, e[0]), et))}))
            else:
                bias = elementwise(fn, a, [B, N], et, hf)
                masks.append(("pad", {"extras": [(bias, [B, N], et, ["d0", "d3"])],
                                      "body": lambda b, y, e: b.op("arith.addf %s, %s : %s" % (
                                          y, e[0], et))}))
    if s["imask"]:
        masks.append(("imask", imask_step(fn, s, rank, sd, et, fillc, sel)))
    # order: bias before finite fills (ALiBi beside a finite causal fill), unless the
    # perturbation puts the fill first
    order = [m for m in masks]
    random.Random(s["order_seed"]).shuffle(order)
    finite = any(m is not None and m.get("fill", NINF) != NINF for m in (c, k, p, s["imask"]))
    if pert == "fill-then-bias" or s.get("fill_first"):
        order = [m for m in order if m[0] != "bias"] + [m for m in order if m[0] == "bias"]
    elif finite or s["scale_at"] == "after_bias":
        order = [m for m in order if m[0] == "bias"] + [m for m in order if m[0] != "bias"]
    if s["softcap"]:
        order = place_cap(s, order, ("cap", softcap_step(s, et)))
    for kind, st in order:
        steps.append(st)
        if kind == "bias" and s["scale_at"] == "after_bias":
            steps.append(scale_step())
        if kind == "cap" and s["scale_at"] == "after_cap":
            steps.append(scale_step())
    if s["scale_at"] == "last":
        steps.append(scale_step())
    if s.get("round_after"):
        rt = s["round_after"]
        steps.append({"extras": [], "alone": True, "body": lambda b, y, e: b.op(
            "arith.extf %s : %s to %s" % (b.op("arith.truncf %s : %s to %s" % (y, et, rt)),
                                          rt, et))})
    return steps


def causal_step(fn, c, s, rank, sd, et, fillc, sel):
    M, N = s["M"], s["N"]
    dm, dn = "d%d" % sd["m"], "d%d" % sd["n"]
    off = c["off"]
    kind = c["kind"]
    if kind in ("tri_add", "tri_bool"):
        masked = [[causal_masked(i, j, off, c["form"]) for j in range(N)] for i in range(M)]
        if kind == "tri_add":
            vals = [[c["fill"] if m else 0.0 for m in r] for r in masked]
            t = fn.const("dense<%s>" % dense(vals, lambda v: fconst(v, et)), tt([M, N], et))
            return {"extras": [(t, [M, N], et, [dm, dn])],
                    "body": lambda b, y, e: b.op("arith.addf %s, %s : %s" % (y, e[0], et))}
        t = fn.const("dense<%s>" % dense(masked, lambda v: "true" if v else "false"),
                     tt([M, N], "i1"))
        return {"extras": [(t, [M, N], "i1", [dm, dn])],
                "body": lambda b, y, e: sel(b, e[0], fillc(b, c["fill"]), y)}
    if kind in ("iota_f", "sitofp"):
        extras = []
        if kind == "iota_f":
            ii = fn.const("dense<%s>" % dense([float(i) for i in range(M)], fconst), tt([M], "f32"))
            jj = fn.const("dense<%s>" % dense([float(j) for j in range(N)], fconst), tt([N], "f32"))
            extras = [(ii, [M], "f32", [dm]), (jj, [N], "f32", [dn])]

        def body(b, y, e):
            if kind == "iota_f":
                fi, fj = e[0], e[1]
            else:
                fi, fj = [b.op("arith.sitofp %s : i64 to f32" % b.op(
                    "arith.index_cast %s : index to i64" % b.index(sd[d]))) for d in ("m", "n")]
            fo = off
            if c["fform"] == "oge" and float(off).is_integer() and s["pert"] != "causal-float-frac":
                fo = off + 1
            fi2 = fi if fo == 0 else b.op("arith.addf %s, %s : f32" % (fi, b.const(fconst(fo),
                                                                                   "f32")))
            pred, lhs, rhs, keep = {"ogt": ("ogt", fj, fi2, False), "ugt": ("ugt", fj, fi2, False),
                                    "oge": ("oge", fj, fi2, False),
                                    "olt_swap": ("olt", fi2, fj, False),
                                    "ole_keep": ("ole", fj, fi2, True)}[c["fform"]]
            cnd = b.op("arith.cmpf %s, %s, %s : f32" % (pred, lhs, rhs))
            f = fillc(b, c["fill"])
            return sel(b, cnd, y, f) if keep else sel(b, cnd, f, y)
        return {"extras": extras, "body": body}
    it = c.get("itype", "index")

    def body(b, y, e):
        i, j = b.index(sd["m"]), b.index(sd["n"])
        if it != "index":
            i = b.op("arith.index_cast %s : index to %s" % (i, it))
            j = b.op("arith.index_cast %s : index to %s" % (j, it))

        def add(v, k):
            k = wrap_int(k, it)
            if k == 0:
                return v
            return b.op("arith.addi %s, %s : %s" % (v, b.const(k, it), it))
        form = c["form"]
        keep = form == "sle_keep"
        # form -> (predicate, lhs, rhs), each side "j", "i+off" or "i+off+1"
        table = {"sgt": ("sgt", "j", "i+off"), "sge": ("sge", "j", "i+off+1"),
                 "slt": ("slt", "i+off", "j"), "sle_keep": ("sle", "j", "i+off"),
                 "ugt": ("ugt", "j", "i+off"), "uge": ("uge", "j", "i+off+1"),
                 "ult_swap": ("ult", "i+off", "j"), "anti": ("slt", "j", "i+off")}
        side = {"j": lambda: j, "i+off": lambda: add(i, off), "i+off+1": lambda: add(i, off + 1)}
        if form in table:
            pred, l, r = table[form]
            lhs, rhs = side[l](), side[r]()
        elif form == "subj":
            jj = j if off == 0 else b.op("arith.subi %s, %s : %s" % (j, b.const(wrap_int(off, it),
                                                                                it), it))
            pred, lhs, rhs = "sgt", jj, i
        else:
            raise ValueError(form)
        cnd = b.op("arith.cmpi %s, %s, %s : %s" % (pred, lhs, rhs, it))
        f = fillc(b, c["fill"])
        if c.get("additive"):
            # PyTorch's additive mask: s + select(masked, fill, 0)
            z = b.const(fconst(0.0, et), et)
            t = sel(b, cnd, z, f) if keep else sel(b, cnd, f, z)
            return b.op("arith.addf %s, %s : %s" % (y, t, et))
        return sel(b, cnd, y, f) if keep else sel(b, cnd, f, y)
    return {"extras": [], "body": body}


# --- TOSA ------------------------------------------------------------------------

class Tosa:
    def __init__(self, fn):
        self.fn = fn
        self._shift = None

    def const(self, values, shape, et):
        v = self.fn.v("tc")
        ty = tt(shape, et)
        self.fn.emit('%s = "tosa.const"() <{values = dense<%s> : %s}> : () -> %s'
                     % (v, values, ty, ty))
        return v

    def shift(self):
        if self._shift is None:
            self._shift = self.const("0", [1], "i8")
        return self._shift

    def op(self, name, operands, shapes_ets, out_shape, out_et, attrs=""):
        v = self.fn.v("t")
        self.fn.emit("%s = tosa.%s %s%s : (%s) -> %s"
                     % (v, name, ", ".join(operands), attrs,
                        ", ".join(tt(sh, et) for sh, et in shapes_ets), tt(out_shape, out_et)))
        return v

    def reshape(self, x, shape, et, new):
        sv = self.fn.v("sh")
        self.fn.emit("%s = tosa.const_shape {values = dense<%s> : tensor<%dxindex>} : () -> "
                     "!tosa.shape<%d>" % (sv, str(list(new)), len(new), len(new)))
        v = self.fn.v("rs")
        self.fn.emit("%s = tosa.reshape %s, %s : (%s, !tosa.shape<%d>) -> %s"
                     % (v, x, sv, tt(shape, et), len(new), tt(new, et)))
        return v

    def transpose(self, x, shape, et, perm):
        out = permute(shape, perm)
        v = self.fn.v("tp")
        self.fn.emit("%s = tosa.transpose %s {perms = array<i32: %s>} : (%s) -> %s"
                     % (v, x, ", ".join(map(str, perm)), tt(shape, et), tt(out, et)))
        return v, out

    def cast(self, x, shape, et, to):
        return self.op("cast", [x], [(shape, et)], shape, to)

    def mul(self, a, ash, b, bsh, out, et="f32"):
        v = self.fn.v("t")
        self.fn.emit("%s = tosa.mul %s, %s, %s : (%s, %s, tensor<1xi8>) -> %s"
                     % (v, a, b, self.shift(), tt(ash, et), tt(bsh, et), tt(out, et)))
        return v

    def bin(self, name, a, ash, b, bsh, et="f32", out_et=None):
        out = [max(x, y) for x, y in zip(ash, bsh)]
        return self.op(name, [a, b], [(ash, et), (bsh, et)], out, out_et or et), out

    def select(self, c, csh, a, ash, b, bsh, et="f32"):
        out = [max(x, y, z) for x, y, z in zip(csh, ash, bsh)]
        return self.op("select", [c, a, b], [(csh, "i1"), (ash, et), (bsh, et)], out, et), out


def fl_dense(v):
    return fconst(v, "f32")


def emit_tosa(s, name):
    fn = Fn(name)
    T = Tosa(fn)
    B, H, Hkv, M, N, D, Dv = s["B"], s["H"], s["Hkv"], s["M"], s["N"], s["D"], s["Dv"]
    G = H // Hkv
    BH = B * H
    prec, half = s["prec"], s["half"]
    in_et = half if prec in ("ext", "mm") else "f32"
    kt = s["kt"]
    R = s["rank"]
    pert = s["pert"]
    keep_v_half = prec == "ext" and s["round_p"]
    vals = {}
    if s["tosa_in"] == "b3":
        targets = {"q": [BH, M, D], "k": [BH, D, N] if kt else [BH, N, D], "v": [BH, N, Dv]}
        perms = {}
    else:
        targets = {"q": [B, H, M, D], "k": [B, Hkv, D, N] if kt else [B, Hkv, N, D],
                   "v": [B, Hkv, N, Dv]}
        perms = {}
        if s["layout"] == "bshd":
            perms = {"q": s["perm_q"] or [0, 2, 1, 3],
                     "k": s["perm_k"] or ([0, 2, 3, 1] if kt else [0, 2, 1, 3]),
                     "v": s["perm_v"] or [0, 2, 1, 3]}
    for nm in ("q", "k", "v"):
        shp = source_shape(targets[nm], perms[nm]) if nm in perms else targets[nm]
        x = fn.arg(nm, shp, in_et)
        xet = in_et
        do_ext = prec == "ext" and not (nm == "v" and keep_v_half)
        if do_ext and s["ext_where"] == "before":
            x, xet = T.cast(x, shp, xet, "f32"), "f32"
        if nm in perms:
            x, shp = T.transpose(x, shp, xet, perms[nm])
        if do_ext and s["ext_where"] != "before":
            x, xet = T.cast(x, shp, xet, "f32"), "f32"
        vals[nm] = [x, shp, xet]
    if G > 1:
        for nm in ("k", "v"):
            x, shp, xet = vals[nm]
            if s["gqa_mode"] == "div":
                s5, mult = [B, Hkv, 1] + shp[2:], [1, 1, G, 1, 1]
            else:
                s5, mult = [B, 1, Hkv] + shp[2:], [1, G, 1, 1, 1]
            r5 = T.reshape(x, shp, xet, s5)
            mv = fn.v("sh")
            fn.emit("%s = tosa.const_shape {values = dense<%s> : tensor<5xindex>} : () -> "
                    "!tosa.shape<5>" % (mv, mult))
            tl = fn.v("tl")
            t5 = [a * b for a, b in zip(s5, mult)]
            fn.emit("%s = tosa.tile %s, %s : (%s, !tosa.shape<5>) -> %s"
                    % (tl, r5, mv, tt(s5, xet), tt(t5, xet)))
            new = [B, H] + shp[2:]
            vals[nm] = [T.reshape(tl, t5, xet, new), new, xet]
    # K^T and the 3-D batch
    k, ksh, ket = vals["k"]
    if not kt:
        perm = [0, 2, 1] if len(ksh) == 3 else [0, 1, 3, 2]
        k, ksh = T.transpose(k, ksh, ket, perm)
    for nm, val in (("q", vals["q"]), ("k", [k, ksh, ket]), ("v", vals["v"])):
        x, shp, xet = val
        if len(shp) == 4:
            new = [shp[0] * shp[1]] + shp[2:]
            x, shp = T.reshape(x, shp, xet, new), new
        vals[nm] = [x, shp, xet]
    sc = s["scale"]
    if s["scale_at"] in ("q", "qk") and vals["q"][2] == "f32":
        f = sc if s["scale_at"] == "q" else math.sqrt(sc)
        for nm in (("q",) if s["scale_at"] == "q" else ("q", "k")):
            x, shp, xet = vals[nm]
            c = T.const(fl_dense(f), [1, 1, 1], "f32")
            vals[nm][0] = T.mul(x, shp, c, [1, 1, 1], shp)
    elif s["scale_at"] in ("q", "qk"):
        s["scale_at"] = "scores"
    q, qsh, qet = vals["q"]
    k, ksh, ket = vals["k"]
    v, vsh, vet = vals["v"]
    zp = T.const(fconst(0.0, qet), [1], qet)
    x = T.op("matmul", [q, k, zp, zp], [(qsh, qet), (ksh, ket), ([1], qet), ([1], qet)],
             [BH, M, N], "f32")
    xsh = [BH, M, N]
    if R == 4:
        x = T.reshape(x, xsh, "f32", [B, H, M, N])
        xsh = [B, H, M, N]
    raw, rawsh = x, xsh
    ones = [1] * R
    dm, dn = R - 2, R - 1

    def vec(dim, n):
        sh = [1] * R
        sh[dim] = n
        return sh

    def scale_step(x, xsh):
        c = T.const(fl_dense(sc), ones, "f32")
        if s["softmax"].get("mul_rev"):
            return T.mul(c, ones, x, xsh, xsh), xsh
        return T.mul(x, xsh, c, ones, xsh), xsh

    steps = []
    if s["scale_at"] == "nonsplat":
        def nonsplat(x, xsh):
            c = T.const(nested([sc * (1 + 0.1 * j) for j in range(N)], vec(dn, N), fl_dense),
                        vec(dn, N), "f32")
            return T.mul(x, xsh, c, vec(dn, N), xsh), xsh
        steps.append(("scale", nonsplat))
    elif s["scale_at"] == "scores":
        steps.append(("scale", scale_step))
    masks = []
    bs = s["bias"]
    if bs:
        shp = {"bhmn": [B, H, M, N], "1hmn": [1, H, M, N], "mn": [1, 1, M, N],
               "b11n": [B, 1, 1, N]}[bs.get("shape", "bhmn")] if R == 4 else \
            ([BH, M, N] if bs.get("shape") == "bhmn" else [1, M, N])
        a = fn.arg("bias", shp, "f32")
        masks.append(("bias", lambda x, xsh, a=a, shp=shp: T.bin("add", x, xsh, a, shp)))

    def fill_const(f):
        return T.const(fl_dense(f), ones, "f32")
    c = s["causal"]
    if c:
        def causal(x, xsh, c=c):
            off = c["off"]
            if c.get("kind") == "tri_add":
                vals_ = [[c["fill"] if causal_masked(i, j, off, c["form"]) else 0.0
                          for j in range(N)] for i in range(M)]
                t = T.const(nested([v for r in vals_ for v in r], [1] * (R - 2) + [M, N],
                                   fl_dense), [1] * (R - 2) + [M, N], "f32")
                return T.bin("add", x, xsh, t, [1] * (R - 2) + [M, N])
            flt = c.get("ifloat")
            cet = "f32" if flt else "i32"
            fmt = fl_dense if flt else str
            form = c["form"] if c["form"] in ("greater", "ge", "ge_keep", "anti") else "greater"
            if form == "anti":
                form = "anti"
            ro = off + 1 if form == "ge" and not flt else off
            col = T.const(nested([float(j) if flt else j for j in range(N)], vec(dn, N), fmt),
                          vec(dn, N), cet)
            rsh = [1] * (R - 2) + [M, 1]
            if c.get("baked"):
                # the offset baked into the row constant
                row = T.const(nested([i + ro for i in range(M)], rsh, fmt), rsh, cet)
            else:
                # an iota plus a constant offset
                row = T.const(nested([float(i) if flt else i for i in range(M)], rsh, fmt),
                              rsh, cet)
                if ro != 0:
                    oc = T.const(fmt(ro), [1] * R, cet)
                    row = T.op("add", [row, oc], [(rsh, cet), ([1] * R, cet)], rsh, cet)
            csh = vec(dn, N)
            msh = [1] * (R - 2) + [M, N]
            keep = False
            if form == "greater":
                cnd = T.op("greater", [col, row], [(csh, cet), (rsh, cet)], msh, "i1")
            elif form == "ge":
                cnd = T.op("greater_equal", [col, row], [(csh, cet), (rsh, cet)], msh, "i1")
            elif form == "ge_keep":
                cnd = T.op("greater_equal", [row, col], [(rsh, cet), (csh, cet)], msh, "i1")
                keep = True
            else:
                cnd = T.op("greater", [row, col], [(rsh, cet), (csh, cet)], msh, "i1")
            f = fill_const(c["fill"])
            if keep:
                return T.select(cnd, msh, x, xsh, f, ones)
            return T.select(cnd, msh, f, ones, x, xsh)
        masks.append(("causal", causal))
    k_ = s["kv"]
    if k_:
        shp = [B, 1, 1, 1] if k_["shape"] != "bh" else [B, H, 1, 1]
        a = fn.arg("kv", shp, "i32")

        def kv(x, xsh, a=a, shp=shp, k_=k_):
            L = a
            if k_.get("add"):
                cst = T.const(str(wrap_int(k_["add"], "i32")), [1, 1, 1, 1], "i32")
                L = T.op("add", [a, cst], [(shp, "i32"), ([1, 1, 1, 1], "i32")], shp, "i32")
            col = T.const(nested(list(range(N)), [1, 1, 1, N], str), [1, 1, 1, N], "i32")
            msh = [shp[0], shp[1], 1, N]
            op = "greater" if k_["form"] in ("greater", "sgt") else "greater_equal"
            cnd = T.op(op, [col, L], [([1, 1, 1, N], "i32"), (shp, "i32")], msh, "i1")
            return T.select(cnd, msh, fill_const(k_["fill"]), ones, x, xsh)
        masks.append(("kv", kv))
    p = s["pad"]
    if p:
        shp = [B, 1, 1, N]
        a = fn.arg("pad", shp, "i1")

        def pad(x, xsh, a=a, p=p):
            f = fill_const(p["fill"])
            if p["form"] == "keep":
                return T.select(a, shp, x, xsh, f, ones)
            if p["form"] == "masked":
                return T.select(a, shp, f, ones, x, xsh)
            z = T.const(fl_dense(0.0), ones, "f32")
            t, tsh = T.select(a, shp, z, ones, f, ones)
            return T.bin("add", x, xsh, t, tsh)
        masks.append(("pad", pad))
    if s["imask"]:
        masks.append(("imask", tosa_imask_step(T, s, R, fill_const)))
    order = list(masks)
    random.Random(s["order_seed"]).shuffle(order)
    finite = any(m is not None and m.get("fill", NINF) != NINF for m in (c, k_, p, s["imask"]))
    if pert == "fill-then-bias":
        order = [m for m in order if m[0] != "bias"] + [m for m in order if m[0] == "bias"]
    elif finite or s["scale_at"] == "after_bias":
        order = [m for m in order if m[0] == "bias"] + [m for m in order if m[0] != "bias"]
    if s["softcap"]:
        order = place_cap(s, order, ("cap", tosa_softcap_step(T, s, ones)))
    for kind, st in order:
        steps.append((kind, st))
        if kind == "bias" and s["scale_at"] == "after_bias":
            steps.append(("scale", scale_step))
        if kind == "cap" and s["scale_at"] == "after_cap":
            steps.append(("scale", scale_step))
    if s["scale_at"] == "last":
        steps.append(("scale", scale_step))
    for kind, st in steps:
        x, xsh = st(x, xsh)
    if s.get("round_after"):
        rt = s["round_after"]
        x = T.cast(T.cast(x, xsh, "f32", rt), xsh, rt, "f32")
    # softmax
    ax = R - 1
    wrong = R - 2
    max_ax = wrong if pert in ("softmax-wrong-axis", "max-wrong-axis") else ax
    sum_ax = wrong if pert in ("softmax-wrong-axis", "sum-wrong-axis") else ax

    def red(name, x, xsh, axis):
        out = [1 if i == axis else d for i, d in enumerate(xsh)]
        return T.op(name, [x], [(xsh, "f32")], out, "f32", " {axis = %d : i32}" % axis), out
    mx, mxsh = red("reduce_max", x, xsh, max_ax)
    d, _ = T.bin("sub", x, xsh, mx, mxsh)
    e = T.op("exp", [d], [(xsh, "f32")], xsh, "f32")
    sm, smsh = red("reduce_sum", e, xsh, sum_ax)
    r = T.op("reciprocal", [sm], [(smsh, "f32")], smsh, "f32")
    if s["softmax"].get("mul_rev"):
        pr = T.mul(r, smsh, e, xsh, xsh)
    else:
        pr = T.mul(e, xsh, r, smsh, xsh)
    results = []
    lse = None
    if s["lse"]:
        lse = emit_tosa_lse(T, s, x if pert != "lse-raw-scores" else raw, xsh, mx, mxsh,
                            e, sm, max_ax == ax and sum_ax == ax and pert != "lse-raw-scores")
    p_ret = pr
    pet = "f32"
    if prec == "mm" or s["round_p"]:
        pr = T.cast(pr, xsh, "f32", half)
        pet = half
    if pet != vet:
        # P and V must share a type in tosa.matmul
        if vet == "f32":
            pr, pet = T.cast(pr, xsh, pet, "f32"), "f32"
        else:
            v, vet = T.cast(v, vsh, vet, "f32"), "f32"
    if R == 4:
        pr = T.reshape(pr, xsh, pet, [BH, M, N])
    zp2 = T.const(fconst(0.0, pet), [1], pet)
    o = T.op("matmul", [pr, v, zp2, zp2], [([BH, M, N], pet), (vsh, vet), ([1], pet),
                                           ([1], pet)], [BH, M, Dv], "f32")
    osh = [BH, M, Dv]
    oet = "f32"
    if s["tosa_in"] == "b4" or s["o_perm"]:
        o = T.reshape(o, osh, "f32", [B, H, M, Dv])
        osh = [B, H, M, Dv]
    if s["round_o"] and prec in ("ext", "mm"):
        o = T.cast(o, osh, "f32", half)
        oet = half
    if s["o_perm"]:
        o, osh = T.transpose(o, osh, oet, s["o_perm"])
    results.append((o, tt(osh, oet)))
    if lse is not None:
        results.append(lse)
    if pert == "p-returned":
        results.append((p_ret, tt(xsh, "f32")))
    return fn, results


def emit_tosa_lse(T, s, x, xsh, mx, mxsh, e, sm, shares):
    fn = T.fn
    R = len(xsh)
    ax = R - 1
    r3 = xsh[:-1]
    pert = s["pert"]
    if not shares:
        mxsh = xsh[:-1] + [1]
        mx = T.op("reduce_max", [x], [(xsh, "f32")], mxsh, "f32", " {axis = %d : i32}" % ax)
    if s["lse"] == "plain" and shares and pert != "lse-add-other":
        se, shift = sm, mx
        addback = mx
    else:
        g = mx
        if s["lse"] == "guarded" or pert == "lse-add-other":
            ab = T.op("abs", [mx], [(mxsh, "f32")], mxsh, "f32")
            inf = T.const(fl_dense(PINF), [1] * R, "f32")
            isinf = T.op("equal", [ab, inf], [(mxsh, "f32"), ([1] * R, "f32")], mxsh, "i1")
            zero = T.const(fl_dense(0.0), [1] * R, "f32")
            g, _ = T.select(isinf, mxsh, zero, [1] * R, mx, mxsh)
        shift = g if s["lse"] == "guarded" else mx
        d, _ = T.bin("sub", x, xsh, shift, mxsh)
        e2 = T.op("exp", [d], [(xsh, "f32")], xsh, "f32")
        se = T.op("reduce_sum", [e2], [(xsh, "f32")], mxsh, "f32", " {axis = %d : i32}" % ax)
        addback = shift
        if pert == "lse-add-other":
            addback = mx if s["lse"] == "guarded" else g
    se3 = T.reshape(se, mxsh, "f32", r3)
    g3 = T.reshape(addback, mxsh, "f32", r3)
    lg = T.op("log", [se3], [(r3, "f32")], r3, "f32")
    lse = T.op("add", [lg, g3], [(r3, "f32"), (r3, "f32")], r3, "f32")
    return (lse, tt(r3, "f32"))


# --- index masks and softcaps (families window, band, prefix, chunk, softcap) -------
#
# An index mask is a formula over compares of the query and key indices (i, j; the
# head index h only in a perturbation): ("and", f, g), ("or", f, g), ("not", f),
# ("cmp", pred, lhs, rhs) on integer expressions of the mask's type, ("fcmp", pred,
# lhs, rhs, off) comparing sitofp(lhs) with sitofp(rhs) + off in f32. Expressions:
# ("i",), ("j",), ("h",), ("k", c), ("add"|"sub"|"mul", a, b), ("div", kind, a, C)
# (kind: floordivsi, divsi, divui, torch = fptosi(floor(sitofp(a) / sitofp(C))) in f64;
# TOSA: intdiv, which truncates, or intdiv_floor, torch-mlir's correction of it),
# ("abs", a). The formula is evaluated here with the source's semantics (wrapping in
# the type) to know which rows it empties.

NEW_FAMILIES = ["window", "band", "prefix", "chunk", "softcap"]
NEW_TOSA_FAMILIES = ["window", "band", "prefix", "chunk", "softcap"]

NEW_PERTURBATIONS = {
    "imask-off-by-one": "either",
    "imask-wrap": "either",
    "imask-float-frac": "either",
    "imask-trunc-negative": "either",
    "imask-empty-rows-finite": "either",
    "imask-unsigned": "either",
    "imask-head-index": "either",
    "imask-formula-flip": "either",
    "softcap-caps-differ": "refuse",
    "softcap-inverse-off": "either",
    "softcap-no-outer": "refuse",
    "softcap-mask-before": "refuse",
    "softcap-bias-after": "refuse",
    "softcap-bias-before": "refuse",
    "softcap-scale-after": "refuse",
    "softcap-fill-near-cap": "either",
}
PERTURBATIONS.update(NEW_PERTURBATIONS)
PERTURBATIONS.update(gen_spellings.SPELL_PERTURBATIONS)

NEG_PRED = {"slt": "sge", "sle": "sgt", "sgt": "sle", "sge": "slt", "ult": "uge", "ule": "ugt",
            "ugt": "ule", "uge": "ult", "eq": "ne", "ne": "eq"}
NEG_FPRED = {"olt": "uge", "ole": "ugt", "ogt": "ule", "oge": "ult", "ult": "oge", "ule": "ogt",
             "ugt": "ole", "uge": "olt", "oeq": "une", "une": "oeq", "one": "ueq", "ueq": "one"}


def f32r(x):
    return struct.unpack("f", struct.pack("f", x))[0]


def negate(f):
    k = f[0]
    if k == "and":
        return ("or", negate(f[1]), negate(f[2]))
    if k == "or":
        return ("and", negate(f[1]), negate(f[2]))
    if k == "not":
        return f[1]
    if k == "cmp":
        return ("cmp", NEG_PRED[f[1]], f[2], f[3])
    return ("fcmp", NEG_FPRED[f[1]], f[2], f[3], f[4])


def fstr(f):
    k = f[0]
    if k in ("and", "or"):
        return "(%s %s %s)" % (fstr(f[1]), "&" if k == "and" else "|", fstr(f[2]))
    if k == "not":
        return "!%s" % fstr(f[1])
    if k == "cmp":
        return "%s %s %s" % (fstr(f[2]), f[1], fstr(f[3]))
    if k == "fcmp":
        return "f(%s) %s f(%s)+%s" % (fstr(f[2]), f[1], fstr(f[3]), f[4])
    if k in ("i", "j", "h"):
        return k
    if k == "k":
        return str(f[1])
    if k in ("add", "sub", "mul"):
        return "(%s %s %s)" % (fstr(f[1]), {"add": "+", "sub": "-", "mul": "*"}[k], fstr(f[2]))
    if k == "div":
        return "%s(%s, %d)" % (f[1], fstr(f[2]), f[3])
    if k == "abs":
        return "|%s|" % fstr(f[1])
    raise ValueError(k)


def trunc_div(x, c):
    q = abs(x) // abs(c)
    return q if (x >= 0) == (c > 0) else -q


def ev_expr(e, env, it):
    k = e[0]
    w = lambda v: wrap_int(v, it)
    bits = 64 if it == "index" else int(it[1:])
    if k in ("i", "j", "h"):
        return w(env[k])
    if k == "k":
        return w(e[1])
    if k in ("add", "sub", "mul"):
        a, b = ev_expr(e[1], env, it), ev_expr(e[2], env, it)
        return w(a + b if k == "add" else a - b if k == "sub" else a * b)
    if k == "abs":
        return w(abs(ev_expr(e[1], env, it)))
    if k == "div":
        kind, x, c = e[1], ev_expr(e[2], env, it), w(e[3])
        if kind == "floordivsi":
            return w(x // c)
        if kind in ("divsi", "intdiv"):
            return w(trunc_div(x, c))
        if kind == "divui":
            m = (1 << bits) - 1
            return w((x & m) // (c & m))
        if kind == "torch":
            return w(int(math.floor(float(x) / float(c))))
        if kind == "intdiv_floor":
            q = w(trunc_div(x, c))
            fix = 0 > w(x * c) and w(q * c) != x
            return w(q - 1) if fix else q
    raise ValueError(k)


def ev_formula(f, env, it):
    k = f[0]
    if k == "and":
        return ev_formula(f[1], env, it) and ev_formula(f[2], env, it)
    if k == "or":
        return ev_formula(f[1], env, it) or ev_formula(f[2], env, it)
    if k == "not":
        return not ev_formula(f[1], env, it)
    if k == "cmp":
        p, a, b = f[1], ev_expr(f[2], env, it), ev_expr(f[3], env, it)
        if p[0] == "u":
            m = (1 << (64 if it == "index" else int(it[1:]))) - 1
            a, b = a & m, b & m
        rel = p if p in ("eq", "ne") else p[1:]
    else:
        p = f[1]
        a = f32r(float(ev_expr(f[2], env, it)))
        b = f32r(f32r(float(ev_expr(f[3], env, it))) + f32r(f[4]))
        rel = p[1:]   # never NaN: ordered and unordered agree
    return {"lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b, "eq": a == b,
            "ne": a != b}[rel]


def imask_empty_rows(s):
    im = s["imask"]
    for h in range(s["H"]):
        for i in range(s["M"]):
            if not any(ev_formula(im["f"], {"i": i, "j": j, "h": h}, im["it"])
                       for j in range(s["N"])):
                return True
    return False


def f_paths(f, kinds, path=()):
    out = [path] if f[0] in kinds else []
    for n, ch in enumerate(f):
        if isinstance(ch, tuple):
            out += f_paths(ch, kinds, path + (n,))
    return out


def f_get(f, path):
    for n in path:
        f = f[n]
    return f


def f_set(f, path, new):
    if not path:
        return new
    n = path[0]
    return f[:n] + (f_set(f[n], path[1:], new),) + f[n + 1:]


def has_kind(f, kind):
    return bool(f_paths(f, (kind,)))


def draw_softcap(rng, s, lin):
    c = pick(rng, [5.0, 20.0, 30.0, 50.0, 2.5])
    sc = {"c": c, "c_out": c, "kf": 1.0, "no_outer": False,
          "form": pick(rng, ["div", "mul"]) if lin else "mul",
          "order": pick(rng, ["tc", "ct"]), "et": "f32"}
    if lin and s["prec"] in ("ext", "mm") and rng.random() < 0.4:
        sc["et"] = s["half"]
    return sc


def draw_imask(rng, s, lin, kind, fill):
    M, N = s["M"], s["N"]
    it = pick(rng, ["index", "index", "i64", "i64", "i32", "i16"]) if lin else \
        pick(rng, ["i32", "i32", "i64"])
    im = {"kind": kind, "it": it, "fill": fill, "where": "inline",
          "spell": pick(rng, ["vis", "vis", "not", "masked", "additive"])}
    if lin and rng.random() < 0.25:
        im["where"] = "tensor"
    I, J = ("i",), ("j",)

    def k(v):
        return ("k", v)

    def causal_atom(off):
        ioff = I if off == 0 else ("add", I, k(off))
        return pick(rng, [("cmp", "sle", J, ioff), ("cmp", "sge", ioff, J),
                          ("cmp", "slt", J, ("add", I, k(off + 1))),
                          ("not", ("cmp", "sgt", J, ioff)),
                          ("cmp", "sle", ("sub", J, I), k(off))])
    coff = pick(rng, [0, 0, 0, N - M, rng.randint(-1, 2)])
    if kind == "window":
        W = rng.randint(1, max(1, N))
        conj = [pick(rng, [("cmp", "slt", ("sub", I, J), k(W)),
                           ("cmp", "sgt", ("sub", J, I), k(-W)),
                           ("cmp", "sgt", J, ("sub", I, k(W))),
                           ("cmp", "sle", ("sub", I, J), k(W - 1)),
                           ("cmp", "slt", I, ("add", J, k(W)))])]
        if rng.random() < 0.8:
            conj.append(causal_atom(coff))
    elif kind == "band":
        W1, W2 = rng.randint(0, N), rng.randint(0, N)
        r = rng.random()
        if r < 0.6:
            conj = [("cmp", "sle", ("sub", I, J), k(W1)), ("cmp", "sle", ("sub", J, I), k(W2))]
        elif r < 0.8:
            conj = [("cmp", "sle", ("abs", ("sub", I, J)), k(W1))]
        else:
            conj = [("not", ("cmp", "sgt", ("abs", ("sub", J, I)), k(W1)))]
        if rng.random() < 0.3:
            conj.append(causal_atom(coff))
    elif kind == "prefix":
        P = rng.randint(0, N)
        conj = [("or", pick(rng, [("cmp", "slt", J, k(P)), ("cmp", "sgt", k(P), J),
                                  ("cmp", "sle", J, k(P - 1))]), causal_atom(coff))]
        if rng.random() < 0.2:
            conj.append(("cmp", "slt", ("sub", I, J), k(rng.randint(1, max(1, N)))))
    else:   # chunk
        C = rng.randint(1, 6)
        o = pick(rng, [0, 0, 0, rng.randint(1, 3)])
        dk = pick(rng, ["floordivsi", "floordivsi", "divsi", "divui", "torch"]) if lin else \
            pick(rng, ["intdiv", "intdiv_floor"])
        if dk == "torch" and it == "index":
            it = im["it"] = "i64"

        def q(x):
            return ("div", dk, x if o == 0 else ("add", x, k(o)), C)
        conj = [pick(rng, [("cmp", "eq", q(I), q(J)), ("cmp", "eq", ("sub", q(I), q(J)), k(0)),
                           ("cmp", "eq", ("abs", ("sub", q(J), q(I))), k(0)),
                           ("not", ("cmp", "ne", q(I), q(J)))])]
        if rng.random() < 0.7:
            conj.append(causal_atom(coff))
    rng.shuffle(conj)
    f = conj[0]
    for c in conj[1:]:
        f = ("and", f, c)
    im["f"] = f
    return im


def draw_new_family(rng, s, dialect, fam, causal, kv, pad, bias):
    """The index-mask and softcap families: the formula (or the cap) and what goes with
    it: a separate causal mask, a KV length, a padding mask, a bias, an lse, GQA,
    [B, S, H, D], half-precision inputs."""
    s["newfam"] = True
    lin = dialect == "linalg"
    if rng.random() < 0.3:
        s["prec"] = pick(rng, ["ext", "mm"])
        s["round_p"] = rng.random() < 0.5
        s["round_o"] = rng.random() < 0.5
        s["round_scores"] = s["prec"] == "mm" and lin and rng.random() < 0.3
    fill = pick(rng, [NINF, NINF, NINF, LOWEST, LOWEST, -1e4])
    if fam == "softcap":
        s["softcap"] = draw_softcap(rng, s, lin)
        r = rng.random()
        if r < 0.4:
            s["causal"] = causal()
            s["causal"]["fill"] = pick(rng, [NINF, NINF, LOWEST, -1e4])
            if s["causal"]["fill"] != NINF:
                s["causal"]["off"] = max(0, s["causal"]["off"])
                if s["causal"]["kind"] == "tri_add":
                    s["causal"]["kind"] = "index" if lin else "iota"
        elif r < 0.75:
            s["imask"] = draw_imask(rng, s, lin, pick(rng, ["window", "chunk", "prefix",
                                                            "band"]), fill)
        elif r < 0.85:
            s["kv"] = kv()
            s["kv"]["fill"] = NINF
    else:
        s["imask"] = draw_imask(rng, s, lin, fam, fill)
        if rng.random() < 0.2:
            s["softcap"] = draw_softcap(rng, s, lin)
    r = rng.random()
    others = False
    if r < 0.15 and s["imask"]:
        s["causal"] = causal()
        s["causal"]["fill"] = NINF
        others = True
    elif r < 0.3:
        s["kv"] = kv()
        s["kv"]["fill"] = NINF
        others = True
    elif r < 0.4:
        s["pad"] = pad()
        s["pad"]["fill"] = NINF
        others = True
    elif r < 0.5 and not s["softcap"]:
        s["bias"] = bias()
        others = True
    if others and s["imask"] and rng.random() < 0.7:
        s["imask"]["fill"] = NINF
    if rng.random() < 0.2:
        s["lse"] = pick(rng, ["plain", "guarded"]) if lin else "guarded"
    if rng.random() < 0.2:
        s["H"] = 4
        s["Hkv"] = 2
    if rng.random() < 0.15:
        s["layout"] = "bshd"


def new_applicable_perts(s):
    d = s["dialect"]
    c = ["softmax-wrong-axis", "max-wrong-axis"]
    if d == "linalg":
        c.append("exp2")
    im = s["imask"]
    if im:
        c += ["imask-off-by-one", "imask-off-by-one", "imask-wrap", "imask-float-frac",
              "imask-empty-rows-finite", "imask-formula-flip"]
        if im["kind"] == "chunk":
            c += ["imask-trunc-negative"] * 3
        if d == "linalg":
            c += ["imask-unsigned", "imask-head-index"]
    if s["softcap"]:
        c += ["softcap-caps-differ", "softcap-inverse-off", "softcap-no-outer",
              "softcap-mask-before", "softcap-bias-after", "softcap-bias-before",
              "softcap-scale-after", "softcap-fill-near-cap", "softcap-fill-near-cap"]
    return c


WRAP_K = {"i8": [100, 120, 126, 127], "i16": [32700, 32760, 32767],
          "i32": [2147483600, 2147483640, 2147483647]}
SIGNED_TO_UNSIGNED = {"slt": "ult", "sle": "ule", "sgt": "ugt", "sge": "uge"}
TO_FPRED = {"slt": ["olt", "ult"], "sle": ["ole", "ule"], "sgt": ["ogt", "ugt"],
            "sge": ["oge", "uge"], "eq": ["oeq", "ueq"], "ne": ["une", "one"]}


def default_causal(dl):
    return {"off": 0, "fill": NINF, "kind": "index" if dl == "linalg" else "iota",
            "form": "sgt" if dl == "linalg" else "greater", "itype": "index",
            "fform": "ogt", "ifloat": False}


def apply_new_pert(rng, s, name):
    dl = s["dialect"]
    im = s["imask"]
    sc = s["softcap"]
    N, M = s["N"], s["M"]
    if name.startswith("imask-"):
        f = im["f"]
        cmps = f_paths(f, ("cmp",))
        if name == "imask-off-by-one":
            ks = f_paths(f, ("k",))
            strict = [p for p in cmps if f_get(f, p)[1] in ("slt", "sle", "sgt", "sge")]
            divs = f_paths(f, ("div",))
            opts = [("k", p) for p in ks] + [("pred", p) for p in strict] + \
                [("div", p) for p in divs]
            what, p = rng.choice(opts)
            node = f_get(f, p)
            if what == "k":
                new = ("k", node[1] + rng.choice([-1, 1]))
            elif what == "pred":
                new = ("cmp", {"slt": "sle", "sle": "slt", "sgt": "sge", "sge": "sgt"}[node[1]],
                       node[2], node[3])
            else:
                # every quotient by the other divisor (one divisor per compare)
                c2 = max(1, node[3] + rng.choice([-1, 1]))
                for dp in divs:
                    dn = f_get(f, dp)
                    f = f_set(f, dp, (dn[0], dn[1], dn[2], c2))
                new = None
            if new is not None:
                f = f_set(f, p, new)
            s["pert_detail"] = "%s at %s" % (what, p)
        elif name == "imask-wrap":
            it = rng.choice(["i8", "i16", "i32"]) if dl == "linalg" else "i32"
            if it != "i32" and has_kind(f, "div") and any(
                    f_get(f, p)[1] == "torch" for p in f_paths(f, ("div",))):
                it = "i32"
            im["it"] = it
            p = rng.choice(cmps)
            node = f_get(f, p)
            K = rng.choice(WRAP_K[it])
            f = f_set(f, p, ("cmp", node[1], ("add", node[2], ("k", K)),
                             ("add", node[3], ("k", K))))
            s["pert_detail"] = "%s + %d both sides" % (it, K)
        elif name == "imask-float-frac":
            p = rng.choice(cmps)
            node = f_get(f, p)
            fo = rng.choice([0.5, -0.5, 1e-8, -1e-8, 0.999999, 1.5, -1.5, 1e-3])
            fp = rng.choice(TO_FPRED[node[1]]) if node[1] in TO_FPRED else "olt"
            f = f_set(f, p, ("fcmp", fp, node[2], node[3], fo))
            s["pert_detail"] = "%s offset %s" % (fp, fo)
        elif name == "imask-trunc-negative":
            o = rng.randint(1, 3)
            kinds = ["floordivsi", "divsi", "divui", "torch"] if dl == "linalg" else \
                ["intdiv", "intdiv_floor"]
            kd = rng.choice(kinds)
            neg = rng.random() < 0.2
            for dp in f_paths(f, ("div",)):
                dn = f_get(f, dp)
                f = f_set(f, dp, ("div", kd, ("sub", dn[2], ("k", o)), -dn[3] if neg else dn[3]))
            if kd == "torch" and im["it"] == "index":
                im["it"] = "i64"
            s["pert_detail"] = "%s of x - %d%s" % (kd, o, " by a negative divisor" if neg else "")
        elif name == "imask-empty-rows-finite":
            im["fill"] = rng.choice([LOWEST, LOWEST, -1e4])
            I, J = ("i",), ("j",)
            K = rng.randint(1, 3)
            extra = rng.choice([("cmp", "sge", J, ("add", I, ("k", K))),
                                ("cmp", "slt", I, ("k", max(0, M - K))),
                                ("cmp", "sgt", J, ("k", max(0, N - K)))])
            f = ("and", f, extra)
            s["pert_detail"] = "fill=%s and %s" % (im["fill"], fstr(extra))
        elif name == "imask-unsigned":
            signed = [p for p in cmps if f_get(f, p)[1] in SIGNED_TO_UNSIGNED]
            if signed:
                p = rng.choice(signed)
                node = f_get(f, p)
                f = f_set(f, p, ("cmp", SIGNED_TO_UNSIGNED[node[1]], node[2], node[3]))
                s["pert_detail"] = fstr(f_get(f, p))
        elif name == "imask-head-index":
            ks = f_paths(f, ("k",))
            if ks:
                p = rng.choice(ks)
                f = f_set(f, p, ("add", f_get(f, p), ("h",)))
            else:
                p = rng.choice(cmps)
                node = f_get(f, p)
                f = f_set(f, p, ("cmp", node[1], node[2], ("add", node[3], ("h",))))
            im["where"] = "inline"
            if s["H"] == 1:
                s["H"] = s["Hkv"] = 2
            s["need4"] = True
        elif name == "imask-formula-flip":
            ops = f_paths(f, ("and", "or"))
            if ops and rng.random() < 0.5:
                p = rng.choice(ops)
                node = f_get(f, p)
                f = f_set(f, p, ("or" if node[0] == "and" else "and",) + node[1:])
            else:
                p = rng.choice(cmps)
                f = f_set(f, p, negate(f_get(f, p)))
            s["pert_detail"] = "at %s" % (p,)
        im["f"] = f
        return
    # softcap perturbations
    if name == "softcap-caps-differ":
        sc["c_out"] = sc["c"] * rng.choice([0.8, 1.25, 2.0, 1.0001])
        s["pert_detail"] = "c=%s outside %s" % (sc["c"], sc["c_out"])
    elif name == "softcap-inverse-off":
        sc["form"] = "mul"
        sc["kf"] = rng.choice([1 + 2.0 ** -24, 1 + 2.0 ** -22, 1 + 1e-6, 1 + 1e-4, 1 - 1e-3])
        s["pert_detail"] = "k = %.9g / c" % sc["kf"]
    elif name == "softcap-no-outer":
        sc["no_outer"] = True
    elif name == "softcap-mask-before":
        if not (s["imask"] or s["causal"] or s["kv"] or s["pad"]):
            s["causal"] = default_causal(dl)
        s["cap_pos"] = "after_masks"
    elif name in ("softcap-bias-after", "softcap-bias-before"):
        s["bias"] = s["bias"] or {"kind": "arg", "shape": rng.choice(["bhmn", "mn", "b11n"])}
        s["cap_pos"] = "bias_after" if name == "softcap-bias-after" else "bias_before"
    elif name == "softcap-scale-after":
        s["scale_at"] = "after_cap"
        if s["scale"] == 1.0:
            s["scale"] = 0.5
    elif name == "softcap-fill-near-cap":
        c = sc["c"]
        fv = rng.choice([-c - 1.0, -1.5 * c, -100.0, -1000.0, -1e4])
        if s["imask"]:
            s["imask"]["fill"] = fv
        else:
            s["causal"] = s["causal"] or default_causal(dl)
            s["causal"]["fill"] = fv
            s["causal"]["off"] = max(0, s["causal"]["off"])
            if s["causal"].get("kind") == "tri_add":
                s["causal"]["kind"] = "index" if dl == "linalg" else "iota"
        s["pert_detail"] = "cap %s fill %s" % (c, fv)


def new_soft_reason(s):
    """Why a new-family program without a perturbation may be refused by design."""
    im = s["imask"]
    masks = [m for m in (s["causal"], s["kv"], s["pad"], im) if m]
    if any(m.get("fill", NINF) != NINF for m in masks) and (len(masks) > 1 or s["bias"]):
        return "a finite fill beside another mask or a bias"
    if s["softcap"] and (s["bias"] or s["pad"]):
        return "a bias or boolean mask (a bias) after the softcap"
    if s["lse"] and s["bias"]:
        return "a log-sum-exp beside a bias tensor (unbounded below)"
    if im:
        empty = imask_empty_rows(s)
        fin = im["fill"] != NINF
        f = im["f"]
        if fin and empty:
            return "a finite index-mask fill on a row with no visible key"
        if fin and im["fill"] != LOWEST and im["spell"] != "additive":
            return "a replacing finite fill of %s" % im["fill"]
        if fin and im["spell"] == "additive":
            return "an additive finite fill (s + fill is not bounded by the fill)"
        if s["causal"]:
            return "an index mask beside a causal mask of its own (two causal masks)"
        if any(f_get(f, p)[1] not in ("eq", "ne") for p in f_paths(f, ("cmp",))
               if has_kind(f_get(f, p), "abs")):
            return "|x| compared otherwise than with 0"
        if (f[0] == "cmp" or (f[0] == "not" and f[1][0] == "cmp")) and not has_kind(f, "div"):
            return "a lone compare, no formula (not causal: keys before the query masked)"
        if s["lse"] == "plain" and (empty or s["kv"] or s["pad"]):
            return "an unguarded log-sum-exp beside a mask that may empty a row"
        if len(f_paths(f, ("cmp", "fcmp"))) > 6:
            return "more than six compares"
    return ""


def place_cap(s, order, cap):
    pos = s.get("cap_pos", "first")
    bias = [m for m in order if m[0] == "bias"]
    rest = [m for m in order if m[0] != "bias"]
    if pos == "after_masks":
        return order + [cap]
    if pos == "bias_before":
        return bias + [cap] + rest
    if pos == "bias_after":
        return [cap] + bias + rest
    return [cap] + order


class IdxEmit:
    """An index formula in a linalg.generic body, in the mask's integer type."""

    def __init__(self, b, it, idx):
        self.b, self.it, self.idx = b, it, idx
        self.cache = {}

    def leaf(self, k):
        if k not in self.cache:
            v = self.idx(k)
            if self.it != "index":
                v = self.b.op("arith.index_cast %s : index to %s" % (v, self.it))
            self.cache[k] = v
        return self.cache[k]

    def tofloat(self, v, ty="f32"):
        if self.it == "index":
            v = self.b.op("arith.index_cast %s : index to i64" % v)
            return self.b.op("arith.sitofp %s : i64 to %s" % (v, ty))
        return self.b.op("arith.sitofp %s : %s to %s" % (v, self.it, ty))

    def expr(self, e):
        b, it = self.b, self.it
        k = e[0]
        if k in ("i", "j", "h"):
            return self.leaf(k)
        if k == "k":
            return b.const(wrap_int(e[1], it), it)
        if k in ("add", "sub", "mul"):
            return b.op("arith.%si %s, %s : %s" % (k, self.expr(e[1]), self.expr(e[2]), it))
        if k == "abs":
            return b.op("math.absi %s : %s" % (self.expr(e[1]), it))
        if k == "div":
            x = self.expr(e[2])
            if e[1] == "torch":
                xf = self.tofloat(x, "f64")
                cf = self.tofloat(b.const(wrap_int(e[3], it), it), "f64")
                d = b.op("arith.divf %s, %s : f64" % (xf, cf))
                fl = b.op("math.floor %s : f64" % d)
                if it == "index":
                    return b.op("arith.index_cast %s : i64 to index" % b.op(
                        "arith.fptosi %s : f64 to i64" % fl))
                return b.op("arith.fptosi %s : f64 to %s" % (fl, it))
            return b.op("arith.%s %s, %s : %s" % (e[1], x, b.const(wrap_int(e[3], it), it), it))
        raise ValueError(k)

    def formula(self, f):
        b = self.b
        k = f[0]
        if k in ("and", "or"):
            return b.op("arith.%si %s, %s : i1" % (k, self.formula(f[1]), self.formula(f[2])))
        if k == "not":
            return b.op("arith.xori %s, %s : i1" % (self.formula(f[1]),
                                                    b.op("arith.constant true", "k")))
        if k == "cmp":
            return b.op("arith.cmpi %s, %s, %s : %s" % (f[1], self.expr(f[2]), self.expr(f[3]),
                                                       self.it))
        lf = self.tofloat(self.expr(f[2]))
        rf = self.tofloat(self.expr(f[3]))
        rf = b.op("arith.addf %s, %s : f32" % (rf, b.const(fconst(f[4]), "f32")))
        return b.op("arith.cmpf %s, %s, %s : f32" % (f[1], lf, rf))


def imask_cond(im):
    """The formula the source computes and whether it marks the visible keys."""
    if im["spell"] == "masked":
        return negate(im["f"]), False
    if im["spell"] == "not":
        return ("not", im["f"]), False
    return im["f"], True


def imask_step(fn, s, rank, sd, et, fillc, sel):
    im = s["imask"]
    f, visible = imask_cond(im)
    dmap = {"i": "m", "j": "n", "h": "h"}

    def apply(b, y, c):
        fv = fillc(b, im["fill"])
        if im["spell"] == "additive":
            t = sel(b, c, b.const(fconst(0.0, et), et), fv)
            return b.op("arith.addf %s, %s : %s" % (y, t, et))
        return sel(b, c, y, fv) if visible else sel(b, c, fv, y)
    if im["where"] == "tensor":
        M, N = s["M"], s["N"]
        t = generic(fn, [], [M, N], "i1", lambda b, a: IdxEmit(
            b, im["it"], lambda k: b.index({"i": 0, "j": 1}[k])).formula(f))
        return {"extras": [(t, [M, N], "i1", ["d%d" % sd["m"], "d%d" % sd["n"]])],
                "body": lambda b, y, e: apply(b, y, e[0])}
    return {"extras": [], "body": lambda b, y, e: apply(b, y, IdxEmit(
        b, im["it"], lambda k: b.index(sd[dmap[k]])).formula(f))}


def softcap_step(s, et):
    sc = s["softcap"]
    cet = sc["et"]

    def body(b, y, e):
        x = y
        if cet != et:
            x = b.op("arith.truncf %s : %s to %s" % (x, et, cet))
        if sc["form"] == "div":
            x = b.op("arith.divf %s, %s : %s" % (x, b.const(fconst(sc["c"], cet), cet), cet))
        else:
            x = b.op("arith.mulf %s, %s : %s" % (x, b.const(fconst(sc["kf"] / sc["c"], cet), cet),
                                                 cet))
        t = b.op("math.tanh %s : %s" % (x, cet))
        if not sc["no_outer"]:
            cc = b.const(fconst(sc["c_out"], cet), cet)
            t = b.op("arith.mulf %s, %s : %s" % ((cc, t, cet) if sc["order"] == "ct" else
                                                 (t, cc, cet)))
        if cet != et:
            t = b.op("arith.extf %s : %s to %s" % (t, cet, et))
        return t
    return {"extras": [], "body": body}


class TosaIdx:
    """An index formula in TOSA: iota constants, elementwise integer ops, compares."""

    def __init__(self, T, it, R, M, N):
        self.T, self.it, self.R, self.M, self.N = T, it, R, M, N

    def const(self, v):
        return self.T.const(str(wrap_int(v, self.it)), [1] * self.R, self.it), [1] * self.R

    def bin(self, name, a, b, et=None):
        (av, ash), (bv, bsh) = a, b
        et = et or self.it
        out = [max(x, y) for x, y in zip(ash, bsh)]
        if name == "mul":
            return self.T.mul(av, ash, bv, bsh, out, et), out
        oet = "i1" if name in ("greater", "greater_equal", "equal") else et
        return self.T.op(name, [av, bv], [(ash, et), (bsh, et)], out, oet), out

    def expr(self, e):
        T, it, R = self.T, self.it, self.R
        k = e[0]
        if k == "i":
            sh = [1] * (R - 2) + [self.M, 1]
            return T.const(nested(list(range(self.M)), sh, str), sh, it), sh
        if k == "j":
            sh = [1] * (R - 1) + [self.N]
            return T.const(nested(list(range(self.N)), sh, str), sh, it), sh
        if k == "k":
            return self.const(e[1])
        if k in ("add", "sub", "mul"):
            return self.bin(k, self.expr(e[1]), self.expr(e[2]))
        if k == "abs":
            v, sh = self.expr(e[1])
            return T.op("abs", [v], [(sh, it)], sh, it), sh
        if k == "div":
            x = self.expr(e[2])
            c = self.const(e[3])
            q = self.bin("intdiv", x, c)
            if e[1] == "intdiv":
                return q
            # torch-mlir's floor division: q - 1 where x * C < 0 and q * C != x
            neg = self.bin("greater", self.const(0), self.bin("mul", x, c), self.it)
            exact = self.bin("equal", self.bin("mul", q, c), x, self.it)
            ne = T.op("logical_not", [exact[0]], [(exact[1], "i1")], exact[1], "i1"), exact[1]
            fix = self.bin("logical_and", (neg[0], neg[1]), ne, "i1")
            qm1 = self.bin("sub", q, self.const(1))
            out = [max(a, b, d) for a, b, d in zip(fix[1], qm1[1], q[1])]
            v = T.op("select", [fix[0], qm1[0], q[0]], [(fix[1], "i1"), (qm1[1], it),
                                                       (q[1], it)], out, it)
            return v, out
        raise ValueError(k)

    def cmp(self, rel, a, b, et):
        T = self.T
        if rel == "lt":
            return self.bin("greater", b, a, et)
        if rel == "le":
            return self.bin("greater_equal", b, a, et)
        if rel == "gt":
            return self.bin("greater", a, b, et)
        if rel == "ge":
            return self.bin("greater_equal", a, b, et)
        r = self.bin("equal", a, b, et)
        if rel == "eq":
            return r
        return T.op("logical_not", [r[0]], [(r[1], "i1")], r[1], "i1"), r[1]

    def formula(self, f):
        T = self.T
        k = f[0]
        if k in ("and", "or"):
            return self.bin("logical_" + k, self.formula(f[1]), self.formula(f[2]), "i1")
        if k == "not":
            v, sh = self.formula(f[1])
            return T.op("logical_not", [v], [(sh, "i1")], sh, "i1"), sh
        if k == "cmp":
            rel = f[1] if f[1] in ("eq", "ne") else f[1][1:]
            return self.cmp(rel, self.expr(f[2]), self.expr(f[3]), self.it)
        a, ash = self.expr(f[2])
        b, bsh = self.expr(f[3])
        a = T.cast(a, ash, self.it, "f32"), ash
        b = T.cast(b, bsh, self.it, "f32"), bsh
        oc = T.const(fl_dense(f[4]), [1] * self.R, "f32"), [1] * self.R
        b = self.bin("add", b, oc, "f32")
        return self.cmp(f[1][1:], a, b, "f32")


def tosa_imask_step(T, s, R, fill_const):
    im = s["imask"]
    f, visible = imask_cond(im)
    ones = [1] * R

    def step(x, xsh):
        c, csh = TosaIdx(T, im["it"], R, s["M"], s["N"]).formula(f)
        fv = fill_const(im["fill"])
        if im["spell"] == "additive":
            z = T.const(fl_dense(0.0), ones, "f32")
            t, tsh = T.select(c, csh, z, ones, fv, ones)
            return T.bin("add", x, xsh, t, tsh)
        if visible:
            return T.select(c, csh, x, xsh, fv, ones)
        return T.select(c, csh, fv, ones, x, xsh)
    return step


def tosa_softcap_step(T, s, ones):
    sc = s["softcap"]

    def step(x, xsh):
        k = T.const(fl_dense(sc["kf"] / sc["c"]), ones, "f32")
        y = T.mul(x, xsh, k, ones, xsh)
        t = T.op("tanh", [y], [(xsh, "f32")], xsh, "f32")
        if sc["no_outer"]:
            return t, xsh
        cc = T.const(fl_dense(sc["c_out"]), ones, "f32")
        if sc["order"] == "ct":
            return T.mul(cc, ones, t, xsh, xsh), xsh
        return T.mul(t, xsh, cc, ones, xsh), xsh
    return step


# --- programs ----------------------------------------------------------------------

def describe(s):
    """A one-line summary of the spelling choices (for saved files and reports)."""
    parts = ["%s" % s["dialect"], "B%d H%d Hkv%d M%d N%d D%d Dv%d" % (
        s["B"], s["H"], s["Hkv"], s["M"], s["N"], s["D"], s["Dv"])]
    parts.append("prec=%s%s" % (s["prec"], "/" + s["half"] if s["prec"] != "f32" else ""))
    parts.append("qk=%s rank=%d pv=%s kt=%s layout=%s" % (s["qk"], s["rank"], s["pv"], s["kt"],
                                                          s["layout"]))
    parts.append("scale=%.6g@%s" % (s["scale"], s["scale_at"]))
    sm = s["softmax"]
    parts.append("softmax=%s" % ",".join("%s" % sm[k] for k in sorted(sm)))
    for m in ("causal", "kv", "pad", "bias"):
        if s[m]:
            parts.append("%s={%s}" % (m, ",".join("%s:%s" % (k, v) for k, v in
                                                   sorted(s[m].items()))))
    for f in ("lse", "round_scores", "round_p", "round_o", "o_perm", "round_after"):
        if s.get(f):
            parts.append("%s=%s" % (f, s[f]))
    if s["H"] != s["Hkv"]:
        parts.append("gqa=%s" % s["gqa_mode"])
    if s.get("imask"):
        im = s["imask"]
        parts.append("imask={%s %s %s fill=%s where=%s: %s}" % (
            im["kind"], im["it"], im["spell"], im["fill"], im["where"], fstr(im["f"])))
    if s.get("softcap"):
        parts.append("softcap={%s}" % ",".join("%s:%s" % (k, v) for k, v in
                                               sorted(s["softcap"].items())))
    return " ".join(parts)


def draw_program_spec(seed, idx, dialects, families, pert_rate, perts_allowed):
    rng = random.Random("%s:%d" % (seed, idx))
    dialect = rng.choice(dialects)
    fams = FAMILIES if dialect == "linalg" else TOSA_FAMILIES
    if families:
        # the new families are drawn only where --families names them (or "all",
        # "new"): a seed's programs over the old families are unchanged
        known = FAMILIES + NEW_FAMILIES if dialect == "linalg" else \
            TOSA_FAMILIES + NEW_TOSA_FAMILIES
        fams = [f for f in known if f in families] or \
            [f for f in families if f in FAMILIES + NEW_FAMILIES]
        if dialect == "tosa" and not [f for f in families if f in TOSA_FAMILIES +
                                      NEW_TOSA_FAMILIES + gen_spellings.SPELL_FAMILIES]:
            dialect = "linalg"
    if families and [f for f in families if f in gen_spellings.SPELL_FAMILIES]:
        # the spelling families (gen_spellings.py), drawn only where --families names
        # them; the lists above are what they were for any other --families
        fams = fams + [f for f in gen_spellings.SPELL_FAMILIES if f in families and (
            dialect == "tosa" or f in gen_spellings.SPELL_LINALG)]
        if not fams:   # a TOSA-only spelling family drawn for linalg
            dialect = "tosa"
            fams = [f for f in gen_spellings.SPELL_FAMILIES if f in families]
    family = rng.choice(fams)
    if family in gen_spellings.SPELL_FAMILIES:
        return gen_spellings.draw(rng, dialect, family, pert_rate, perts_allowed)
    return draw_spec(rng, dialect, family, pert_rate, perts_allowed)


def program_of_spec(s, idx):
    name = "p%d_%s_%s" % (idx, s["dialect"], s["family"])
    if s.get("spell"):
        fn = gen_spellings.emit(s, name)
        expect = gen_spellings.expect_of(s)
        soft = gen_spellings.soft_reason(s)
        if expect == "fuse" and soft:
            expect = "either"
        prog = Program(idx, name, s["dialect"], "%s/%s" % (s["dialect"], s["family"]),
                       s["pert"], expect, fn.text(None), fn, None)
        prog.detail = s["pert_detail"]
        prog.notes = gen_spellings.describe(s) + (" (expect either: %s)" % soft if soft
                                                  else "")
        prog.tol_scale = gen_spellings.tol_scale(s)
        prog.elides = prog.tol_scale != 1.0
        if prog.tol_scale != 1.0:
            prog.notes += " (tol-scale %g: an additive finite fill on fully masked rows)" \
                % prog.tol_scale
        return prog
    if s["dialect"] == "linalg":
        fn, results = emit_linalg(s, name)
    else:
        fn, results = emit_tosa(s, name)
    expect = "fuse" if s["pert"] is None else PERTURBATIONS[s["pert"]]
    soft = soft_reason(s)
    if expect == "fuse" and soft:
        expect = "either"
    prog = Program(idx, name, s["dialect"], "%s/%s" % (s["dialect"], s["family"]), s["pert"],
                   expect, fn.text(results), fn, results)
    prog.detail = s["pert_detail"]
    prog.notes = describe(s) + (" (expect either: %s)" % soft if soft else "")
    prog.tol_scale = elided_rounding_tol(s)
    # Scores, softmax or P in a half type whose roundings fusion elides.
    prog.elides = prog.tol_scale != 1.0 or s["prec"] == "f16all"
    if prog.tol_scale != 1.0:
        prog.notes += " (tol-scale %g: elided rounding of the scores)" % prog.tol_scale
    return prog


RTOL = {"f32": 2e-3, "f16": 2e-2, "bf16": 1.5e-1}   # fa-check's per-type tolerances


def elided_rounding_tol(s):
    """Fusion elides roundings of the scores and of P to f16/bf16 (docs/passes.md: the op
    keeps the scores in f32, so its softmax is more precise than the source's by at most
    the half type's rounding; test/Fusion/half-precision.mlir: the source's
    rounding of P moves an f32 output past f32's tolerance). Such a source is only as
    accurate as the half type it rounds to, so fa-check compares it with that type's
    tolerance (--tol-scale) where its output is of a more precise type. NaN and
    infinities are still compared exactly."""
    rounded = []
    if s["round_scores"]:
        rounded.append(s.get("round_scores_type", s["half"]))
    if s.get("round_after"):
        rounded.append(s["round_after"])
    if s["round_p"] or (s["dialect"] == "tosa" and s["prec"] == "mm"):
        rounded.append(s["half"])
    if s.get("softcap") and s["softcap"]["et"] != "f32":
        rounded.append(s["softcap"]["et"])
    im = s.get("imask")
    if im and im["spell"] == "additive" and im["fill"] not in (NINF, LOWEST) and \
            imask_empty_rows(s):
        # A row whose every key gets s + fill (-1e4) is shifted as a whole: the softmax
        # is that of s, but the source's f32 sum drops the scores' low bits (the step at
        # 1e4 is 2^-10), the op's (in log2 units) others: a precision limit of the source
        # (docs/fuzz-differential.md, seed 42 p871), checked with a 4x tolerance.
        rounded.append("x4")
    if not rounded:
        return 1.0
    out = s["half"] if (s["round_o"] and s["prec"] in ("ext", "mm")) else (
        "f16" if s["prec"] == "f16all" else "f32")
    if s.get("newfam") and s["lse"]:
        # the lse is f32 beside a rounded O: the most precise output sets the tolerance
        # (only for the new families, whose lse may sit beside half inputs)
        out = "f32"
    return max([1.0] + [4.0 if rt == "x4" else RTOL[rt] / RTOL[out] for rt in rounded])


def soft_reason(s):
    """Why a spelling with no perturbation may still be refused by design (then it is
    not counted as missed): a finite fill that replaces the scores but is not the lowest
    value of the type (fusion must prove it dominates every visible score, which it
    cannot for arbitrary inputs), or a bias / additive fill summed in f16 (it may round
    or saturate there)."""
    lowest = -65504.0 if s["prec"] == "f16all" else LOWEST
    if s.get("newfam"):
        r = new_soft_reason(s)
        if r:
            return r
    for m in (s["causal"], s["kv"], s["pad"]):
        if not m or "fill" not in m or m["fill"] in (NINF, lowest):
            continue
        additive = m.get("form") == "additive" or m.get("kind") in ("float01", "tri_add")
        if not additive:
            return "a replacing finite fill of %s" % m["fill"]
    if s["prec"] == "f16all" and (s["bias"] or (s["pad"] and s["pad"].get("form") ==
                                                 "additive")):
        return "a bias added in f16"
    c = s["causal"]
    if s["lse"] == "plain" and (s["kv"] or s["pad"] or (s["bias"] and s["bias"]["kind"] == "arg")
                                or (c and (c.get("off", 0) < 0 or c.get("form") == "anti"))):
        return "an unguarded log-sum-exp beside a mask that may empty a row"
    return ""


def make_program(seed, idx, dialects, families, pert_rate, perts_allowed):
    return program_of_spec(draw_program_spec(seed, idx, dialects, families, pert_rate,
                                             perts_allowed), idx)


# --- running the tools --------------------------------------------------------------

def run(cmd, timeout):
    # A tool being rebuilt under us (its library half written) is retried.
    for attempt in range(10):
        try:
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=timeout, universal_newlines=True, errors="replace")
        except subprocess.TimeoutExpired:
            return "timeout", "", "timed out after %ss" % timeout
        except OSError as e:
            if attempt < 9 and e.errno in (26, 8):   # ETXTBSY, ENOEXEC
                time.sleep(3)
                continue
            return "oserror", "", str(e)
        if r.returncode == 127 and "error while loading shared libraries" in r.stderr \
                and attempt < 9:
            time.sleep(3)
            continue
        return r.returncode, r.stdout, r.stderr


def tool_cmd(tool):
    """A tool given as a .py script runs under this Python (the test stand-ins)."""
    return [sys.executable, tool] if tool.endswith(".py") else [tool]


def module_text(progs):
    """The batch module: the functions one after another; their first lines."""
    starts, lines = [], 1
    out = []
    for p in progs:
        starts.append(lines)
        out.append(p.text)
        lines += p.text.count("\n")
    return "".join(out), starts


REMARK = re.compile(r"^(.*?):(\d+):(\d+): remark: fa-fuse-attention: (.*)$")
FUNC = re.compile(r"^\s*func\.func (?:public |private )?@([A-Za-z0-9_$.]+)\(", re.M)
CHECK_LINE = re.compile(r"^([A-Za-z0-9_$.]+): output (\d+)(.*)$")


def fuse_batch(opts, progs, tmp):
    """{name: (fused, [remarks])}, or raises (rc, stderr) when fa-opt fails."""
    text, starts = module_text(progs)
    path = os.path.join(tmp, "fuse.mlir")
    with open(path, "w") as f:
        f.write(text)
    rc, out, err = run(tool_cmd(opts.fa_opt) + ["--fa-fuse-attention=explain", path],
                       opts.timeout)
    if rc != 0:
        raise ToolFailure(rc, err)
    remarks = collections.defaultdict(list)
    for line in err.splitlines():
        m = REMARK.match(line)
        if not m:
            continue
        ln = int(m.group(2))
        at = 0
        for i, st in enumerate(starts):
            if st <= ln:
                at = i
        remarks[progs[at].name].append(m.group(4))
    fused = {}
    found = [(m.start(), m.group(1)) for m in FUNC.finditer(out)]
    for i, (pos, nm) in enumerate(found):
        end = found[i + 1][0] if i + 1 < len(found) else len(out)
        fused[nm] = "fa.gridwise_attention" in out[pos:end]
    res = {}
    for p in progs:
        if p.name not in fused:
            raise ToolFailure("missing", "fa-opt printed no function @%s" % p.name)
        res[p.name] = (fused[p.name], remarks.get(p.name, []))
    return res


class ToolFailure(Exception):
    def __init__(self, rc, err):
        Exception.__init__(self, "%s" % rc)
        self.rc = rc
        self.err = err


def tail(text, n=8):
    return "\n".join(text.strip().splitlines()[-n:])


def fuse_bisect(opts, progs, tmp, out):
    """Fills out[name] with (fused, remarks) or ("error", message)."""
    try:
        out.update(fuse_batch(opts, progs, tmp))
    except ToolFailure as e:
        if len(progs) == 1:
            out[progs[0].name] = ("error", "fa-opt --fa-fuse-attention=explain: exit %s: %s"
                                  % (e.rc, tail(e.err)))
            return
        h = len(progs) // 2
        fuse_bisect(opts, progs[:h], tmp, out)
        fuse_bisect(opts, progs[h:], tmp, out)


def check_batch(opts, progs, args, tmp):
    """Runs fa-check on the functions; {name: [lines]} and the exit status."""
    text, _ = module_text(progs)
    path = os.path.join(tmp, "check.mlir")
    with open(path, "w") as f:
        f.write(text)
    rc, out, err = run(tool_cmd(opts.fa_check) + args + [path], opts.timeout)
    lines = collections.defaultdict(list)
    for line in out.splitlines():
        m = CHECK_LINE.match(line)
        if m:
            lines[m.group(1)].append(line)
    return rc, lines, err, text


def variants(opts, progs, cseed, bidx):
    """(label, fa-check options, programs) for each input variant. Each fa-check run
    compiles every function again (about 0.3 s each), so a batch gets the default
    inputs, one of the scaled ones (alternating between batches), lengths of 0 (and,
    every other batch, lengths in 0..2) where an integer input is, and 0/1 values where
    a float mask is; --all-variants runs every one on every batch."""
    every = opts.all_variants
    # A float mask (HF's (1 - m) * finfo.min) is checked as the mask it is, with 0/1
    # values only: other values put distinct biases below -FLT_MAX / log2(e), which
    # the op's bias domain clamps (docs/dialect.md; docs/fuzz-differential.md).
    plain = [p for p in progs if not p.binary_args]
    # Scores 3x larger make the roundings fusion elides (of scores and P to f16/bf16,
    # documented in docs/passes.md) larger than any fixed tolerance: not for those.
    exact = [p for p in plain if not p.elides]
    ints = [p for p in plain if p.int_args]
    if opts.quick:  # one run of each program (two with integer inputs)
        label, args = (("seed", ["--seed=%d" % cseed]) if bidx % 2 == 0 else
                       ("scale0.3", ["--seed=%d" % (cseed + 1), "--input-scale=0.3"]))
        out = [(label, args, plain)] if plain else []
        if ints:
            out.append(("int-max0", ["--seed=%d" % (cseed + 3), "--int-max=0"], ints))
    else:
        out = [("seed", ["--seed=%d" % cseed], plain)] if plain else []
        if plain and (every or bidx % 2 == 0):
            out.append(("scale0.3", ["--seed=%d" % (cseed + 1), "--input-scale=0.3"], plain))
        if exact and (every or bidx % 2 == 1):
            out.append(("scale3", ["--seed=%d" % (cseed + 2), "--input-scale=3"], exact))
        if ints:
            out.append(("int-max0", ["--seed=%d" % (cseed + 3), "--int-max=0"], ints))
            if every or bidx % 2 == 1:
                out.append(("int-max2", ["--seed=%d" % (cseed + 4), "--int-max=2"], ints))
    bins = collections.defaultdict(list)
    for p in progs:
        for k in p.binary_args:
            bins[k].append(p)
    for k in sorted(bins):
        out.append(("binary%d" % k, ["--seed=%d" % (cseed + 5), "--binary-arg=%d" % k], bins[k]))
    return out


def check_bisect(opts, progs, args, tmp, verdict):
    """verdict[name] = ("WRONG", line, args) / ("error", message) / ("agree", None)."""
    rc, lines, err, _ = check_batch(opts, progs, args, tmp)
    if rc not in (0, 1):
        if len(progs) == 1:
            verdict[progs[0].name] = ("error", "fa-check %s: exit %s: %s"
                                      % (" ".join(args), rc, tail(err + "\n" + "\n".join(
                                          lines.get(progs[0].name, [])))))
            return
        # A function the JIT cannot compile sinks the whole module: bisect. Mismatches
        # seen before bisecting still count.
        for at, p in enumerate(progs):
            bad = [l for l in lines.get(p.name, []) if "MISMATCH" in l or "shapes differ" in l]
            if bad:
                verdict[p.name] = ("WRONG", bad[0], args, at)
        rest = [p for p in progs if p.name not in verdict]
        h = len(rest) // 2
        if rest:
            if len(rest) == 1:
                check_bisect(opts, rest, args, tmp, verdict)
            else:
                check_bisect(opts, rest[:h], args, tmp, verdict)
                check_bisect(opts, rest[h:], args, tmp, verdict)
        return
    for at, p in enumerate(progs):
        ls = lines.get(p.name, [])
        bad = [l for l in ls if "MISMATCH" in l or "shapes differ" in l]
        if bad:
            verdict[p.name] = ("WRONG", bad[0], args, at)
        elif not ls:
            verdict[p.name] = ("error", "fa-check %s printed nothing for @%s" % (" ".join(args),
                                                                                p.name))
        else:
            verdict[p.name] = ("agree", None)


PAD = "func.func @pad%d(%%a: tensor<1xf32>) -> tensor<1xf32> {\n  return %%a : tensor<1xf32>\n}\n"


class Padded:
    """The function after `n` trivial public functions: fa-check draws each function's
    inputs from the seed and the function's position in the module, so this gives it the
    inputs it had in the batch."""

    def __init__(self, prog, n):
        self.name = prog.name
        self.text = "".join(PAD % i for i in range(n)) + prog.text


def reproduce(opts, prog, args, at, tmp):
    """The fa-check options (and module) that show the mismatch: the function alone with
    the batch's options and then seeds 1..8; else the function at its batch position."""
    seeds = [a for a in args if a.startswith("--seed=")]
    rest = [a for a in args if not a.startswith("--seed=")]
    base = int(seeds[0].split("=")[1]) if seeds else 1
    for sd in [base] + list(range(1, 9)):
        a = ["--seed=%d" % sd] + rest
        rc, lines, err, _ = check_batch(opts, [prog], a, tmp)
        bad = [l for l in lines.get(prog.name, []) if "MISMATCH" in l or "shapes differ" in l]
        if bad:
            return a, bad[0], None
    if at:
        padded = Padded(prog, at)
        rc, lines, err, text = check_batch(opts, [padded], args, tmp)
        bad = [l for l in lines.get(prog.name, []) if "MISMATCH" in l or "shapes differ" in l]
        if bad:
            return args, bad[0], padded.text
    return None, None, None


def process_batch(job):
    opts, bidx, indices = job
    progs = [make_program(opts.seed, i, opts.dialect_list, opts.family_list, opts.perturb_rate,
                          opts.pert_list) for i in indices]
    tmp = tempfile.mkdtemp(prefix="fa-diff-")
    records = []
    try:
        fz = {}
        fuse_bisect(opts, progs, tmp, fz)
        fused = [p for p in progs if fz[p.name][0] is True]
        verdict = {}
        cseed = (opts.seed * 7919 + bidx * 104729) % 1000000007 + 1
        for label, args, members in variants(opts, fused, cseed, bidx):
            members = [p for p in members if verdict.get(p.name, ("agree",))[0] == "agree"]
            if not members:
                continue
            v = {}
            for ts in sorted(set(p.tol_scale for p in members)):
                group = [p for p in members if p.tol_scale == ts]
                check_bisect(opts, group, args + (["--tol-scale=%g" % ts] if ts != 1.0
                                                  else []), tmp, v)
            for nm, r in v.items():
                if r[0] != "agree" or nm not in verdict:
                    verdict[nm] = r
        for p in progs:
            f, info = fz[p.name]
            rec = {"idx": p.idx, "name": p.name, "family": p.family, "pert": p.pert,
                   "detail": p.detail, "expect": p.expect, "notes": p.notes, "remark": "",
                   "line": "", "repro": None, "text": None}
            if f == "error":
                rec["outcome"] = "error"
                rec["remark"] = info
                rec["text"] = p.text
            elif f:
                vd = verdict.get(p.name, ("agree", None))
                if vd[0] == "WRONG":
                    rec["outcome"] = "WRONG"
                    rec["line"] = vd[1]
                    a, line, padded = reproduce(opts, p, vd[2], vd[3], tmp)
                    rec["repro"] = a
                    if line:
                        rec["line"] = line
                    rec["batch_args"] = vd[2]
                    rec["text"] = padded or p.text
                    rec["padded"] = padded is not None
                elif vd[0] == "error":
                    rec["outcome"] = "error"
                    rec["remark"] = vd[1]
                    rec["text"] = p.text
                else:
                    rec["outcome"] = "fused-agree"
            else:
                rec["remark"] = "; ".join(sorted(set(r for r in info if
                                                     r.startswith("not fused")))) or \
                    "(no remark)"
                if p.should_fuse:
                    rec["outcome"] = "missed"
                    rec["text"] = p.text
                else:
                    rec["outcome"] = "refused"
            records.append(rec)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return records


# --- main -------------------------------------------------------------------------

def save(out, fname, rec, extra=""):
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, fname)
    hdr = ["// differential: %s  program %d  family %s  perturbation %s%s" % (
        rec["outcome"], rec["idx"], rec["family"], rec["pert"],
        (" (%s)" % rec["detail"]) if rec["detail"] else ""),
        "// spec: %s" % rec["notes"]]
    if rec.get("line"):
        hdr.append("// fa-check: %s" % rec["line"])
    if rec.get("repro"):
        hdr.append("// reproduce: fa-check %s %s" % (" ".join(rec["repro"]), fname))
        if rec.get("padded"):
            hdr.append("// (the trivial @pad functions put the program at its position in the "
                       "batch: fa-check draws its inputs from the seed and that position)")
    elif rec["outcome"] == "WRONG":
        hdr.append("// (seen in a batch with fa-check %s; not reproduced alone)"
                   % " ".join(rec.get("batch_args", [])))
    if rec.get("remark"):
        hdr += ["// %s" % l for l in rec["remark"].splitlines()]
    with open(path, "w") as f:
        f.write("\n".join(hdr) + "\n" + extra + rec["text"])
    return path


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--programs", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--batch", type=int, default=32, help="functions per module")
    ap.add_argument("--quick", action="store_true",
                    help="one fa-check input variant per program (two with integer inputs; "
                         "float masks as 0/1), alternating default and 0.3-scaled inputs")
    ap.add_argument("--fa-opt", default="fa-opt")
    ap.add_argument("--fa-check", default="fa-check")
    ap.add_argument("--out", default=None, help="where WRONG/error/missed programs go")
    ap.add_argument("--dialects", default="linalg,tosa")
    ap.add_argument("--families", default="",
                    help="comma list; 'new': the index-mask and softcap families, 'all': "
                         "those and the old ones (default: the families before those); "
                         "'spell': the spelling families (sinks, views, mqafold, clamp, "
                         "postzero, datamask)")
    ap.add_argument("--perturbations", default="", help="comma list (default: all)")
    ap.add_argument("--perturb-rate", type=float, default=0.5)
    ap.add_argument("--all-variants", action="store_true",
                    help="every fa-check input variant on every batch (slower)")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--summary", action="store_true")
    ap.add_argument("--strict-missed", action="store_true")
    ap.add_argument("--print", dest="print_only", action="store_true",
                    help="print the generated programs and exit")
    ap.add_argument("--quiet", action="store_true")
    opts = ap.parse_args(argv)
    opts.dialect_list = [d for d in opts.dialects.split(",") if d]
    for d in opts.dialect_list:
        if d not in ("linalg", "tosa"):
            ap.error("unknown dialect %s" % d)
    opts.family_list = []
    for f in opts.families.split(","):
        add = {"all": FAMILIES + NEW_FAMILIES, "new": NEW_FAMILIES,
               "spell": gen_spellings.SPELL_FAMILIES}.get(f, [f] if f else [])
        for g in add:
            if g not in FAMILIES + NEW_FAMILIES + gen_spellings.SPELL_FAMILIES:
                ap.error("unknown family %s" % g)
            if g not in opts.family_list:
                opts.family_list.append(g)
    opts.pert_list = [p for p in opts.perturbations.split(",") if p]
    for p in opts.pert_list:
        if p not in PERTURBATIONS:
            ap.error("unknown perturbation %s" % p)
    if opts.print_only:
        for i in range(opts.programs):
            p = make_program(opts.seed, i, opts.dialect_list, opts.family_list,
                             opts.perturb_rate, opts.pert_list)
            print("// %s %s expect=%s\n// %s" % (p.family, p.pert, p.expect, p.notes))
            print(p.text)
        return 0
    t0 = time.time()
    jobs = []
    for b, start in enumerate(range(0, opts.programs, opts.batch)):
        jobs.append((opts, b, list(range(start, min(opts.programs, start + opts.batch)))))
    records = []
    if opts.jobs > 1:
        with concurrent.futures.ProcessPoolExecutor(opts.jobs) as ex:
            for i, r in enumerate(ex.map(process_batch, jobs)):
                records += r
                progress(opts, records, t0)
    else:
        for job in jobs:
            records += process_batch(job)
            progress(opts, records, t0)
    return report(opts, records, t0)


def progress(opts, records, t0):
    if opts.quiet or not sys.stderr.isatty():
        return
    c = collections.Counter(r["outcome"] for r in records)
    sys.stderr.write("\rdifferential: %d/%d programs, %.0f s, WRONG %d, errors %d   "
                     % (len(records), opts.programs, time.time() - t0, c["WRONG"], c["error"]))
    sys.stderr.flush()


def report(opts, records, t0):
    if not opts.quiet and sys.stderr.isatty():
        sys.stderr.write("\n")
    c = collections.Counter(r["outcome"] for r in records)
    fused = c["fused-agree"] + c["WRONG"] + sum(1 for r in records if r["outcome"] == "error"
                                                 and r["remark"].startswith("fa-check"))
    refused = c["refused"] + c["missed"]
    saved = collections.Counter()
    missed_seen = {}
    for r in sorted(records, key=lambda r: r["idx"]):
        if r["outcome"] in ("WRONG", "error"):
            path = save(opts.out, "%s-%s.mlir" % (r["outcome"], r["name"]), r) if opts.out \
                else None
            print("differential: %s %s [%s, perturbation %s%s]" % (
                r["outcome"], r["name"], r["family"], r["pert"],
                (": " + r["detail"]) if r["detail"] else ""))
            if r["outcome"] == "WRONG":
                print("differential:   %s" % r["line"])
                if r.get("repro"):
                    print("differential:   reproduce: fa-check %s %s" % (
                        " ".join(r["repro"]), path or "<program>"))
            else:
                print("differential:   %s" % r["remark"].splitlines()[0])
        elif r["outcome"] == "missed":
            key = (r["family"], r["remark"])
            if key not in missed_seen:
                missed_seen[key] = r
                if opts.out:
                    saved["missed"] += 1
                    save(opts.out, "missed-%s.mlir" % r["name"], r)
            missed_seen.setdefault(("count",) + key, 0)
            missed_seen[("count",) + key] += 1
    for key, r in missed_seen.items():
        if key[0] == "count":
            continue
        print("differential: missed %s x%d (e.g. %s): %s" % (
            key[0], missed_seen[("count",) + key], r["name"], key[1]))
    if opts.summary:
        print_summary(records)
    print("differential: %.0f s, %d jobs, %d functions a module" % (time.time() - t0, opts.jobs,
                                                                   opts.batch))
    print("differential: programs %d (seed %d): fused %d, refused %d, agree %d, WRONG %d, "
          "missed %d, errors %d" % (len(records), opts.seed, fused, refused, c["fused-agree"],
                                    c["WRONG"], c["missed"], c["error"]))
    bad = c["WRONG"] or c["error"] or (opts.strict_missed and c["missed"])
    return 1 if bad else 0


def print_summary(records):
    outcomes = ["fused-agree", "refused", "missed", "WRONG", "error"]
    for key, title in (("family", "family"), ("pert", "perturbation")):
        table = collections.defaultdict(collections.Counter)
        for r in records:
            table[r[key]][r["outcome"]] += 1
        print("differential: %-34s %s" % (title, " ".join("%11s" % o for o in outcomes)))
        for k in sorted(table):
            print("differential:   %-32s %s" % (k, " ".join("%11d" % table[k][o]
                                                           for o in outcomes)))
    rem = collections.Counter(r["remark"] for r in records if r["outcome"] in
                              ("refused", "missed"))
    print("differential: refusal remarks")
    for k, n in rem.most_common():
        print("differential:   %6d  %s" % (n, k))


if __name__ == "__main__":
    sys.exit(main())
