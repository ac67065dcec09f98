#!/usr/bin/env python3
"""Writes bench/attention_bench.mlir: the kernels fa-bench times, one per line
of bench/bench_kernels.def (D, element type, causal, kind, param), in its
order, the list fa-bench includes to find a shape's kernel.
Q is [B, Hq, M, D], K and V [B, Hkv, N, D], all dims but D dynamic; the causal
kernels use offset 0 (PyTorch's is_causal, top-left aligned). A kind other
than "none" adds its mask or score_mod function (private, the param baked in
as a constant) and its sinks or capture operand, between V and the result:
the definitions of ../shared/bench/anchors_flex.py (bench_kernels.def lists
them).
usage: gen_bench_kernels.py > bench/attention_bench.mlir"""
import math

from bench_kernels import KERNELS

IDX = "%b: index, %h: index, %i: index, %j: index"


def functions(name, kind, p):
    """(mask or score_mod attribute text, the private functions, the extra
    operand's type and operand segment index) of one kind."""
    if kind == "none":
        return "", "", None, None
    if kind == "sinks":
        return "", "", "tensor<?xf32>", 5
    if kind == "swa":  # with causal_offset 0: q - W < k <= q
        return ", mask = @%s_mask" % name, (
            "func.func private @%s_mask(%s) -> i1 {\n"
            "  %%w = arith.constant %d : index\n"
            "  %%d = arith.subi %%i, %%j : index\n"
            "  %%r = arith.cmpi slt, %%d, %%w : index\n"
            "  return %%r : i1\n}\n" % (name, IDX, p)), None, None
    if kind == "chunked":  # with causal_offset 0: same chunk and k <= q
        return ", mask = @%s_mask" % name, (
            "func.func private @%s_mask(%s) -> i1 {\n"
            "  %%c = arith.constant %d : index\n"
            "  %%qc = arith.floordivsi %%i, %%c : index\n"
            "  %%kc = arith.floordivsi %%j, %%c : index\n"
            "  %%r = arith.cmpi eq, %%qc, %%kc : index\n"
            "  return %%r : i1\n}\n" % (name, IDX, p)), None, None
    if kind == "prefix":  # k < P or k <= q, no causal_offset
        return ", mask = @%s_mask" % name, (
            "func.func private @%s_mask(%s) -> i1 {\n"
            "  %%p = arith.constant %d : index\n"
            "  %%in = arith.cmpi slt, %%j, %%p : index\n"
            "  %%c = arith.cmpi sle, %%j, %%i : index\n"
            "  %%r = arith.ori %%in, %%c : i1\n"
            "  return %%r : i1\n}\n" % (name, IDX, p)), None, None
    if kind == "document":  # with causal_offset 0: same document and k <= q
        t = "tensor<?xi32>"
        return ", mask = @%s_mask" % name, (
            "func.func private @%s_mask(%s, %%doc: %s) -> i1 {\n"
            "  %%dq = tensor.extract %%doc[%%i] : %s\n"
            "  %%dk = tensor.extract %%doc[%%j] : %s\n"
            "  %%r = arith.cmpi eq, %%dq, %%dk : i32\n"
            "  return %%r : i1\n}\n" % (name, IDX, t, t, t)), t, 6
    if kind == "alibi":  # s + slope[h] * (k - q)
        t = "tensor<?xf32>"
        return ", score_mod = @%s_mod" % name, (
            "func.func private @%s_mod(%%s: f32, %s, %%slopes: %s) -> f32 {\n"
            "  %%m = tensor.extract %%slopes[%%h] : %s\n"
            "  %%ii = arith.index_cast %%i : index to i64\n"
            "  %%jj = arith.index_cast %%j : index to i64\n"
            "  %%d = arith.subi %%jj, %%ii : i64\n"
            "  %%df = arith.sitofp %%d : i64 to f32\n"
            "  %%t = arith.mulf %%m, %%df : f32\n"
            "  %%r = arith.addf %%s, %%t : f32\n"
            "  return %%r : f32\n}\n" % (name, IDX, t, t)), t, 6
    if kind == "softcap":  # C * tanh(s / C)
        return ", score_mod = @%s_mod" % name, (
            "func.func private @%s_mod(%%s: f32, %s) -> f32 {\n"
            "  %%c = arith.constant %d.0 : f32\n"
            "  %%x = arith.divf %%s, %%c : f32\n"
            "  %%t = math.tanh %%x : f32\n"
            "  %%r = arith.mulf %%c, %%t : f32\n"
            "  return %%r : f32\n}\n" % (name, IDX, p)), None, None
    if kind == "relbias":  # s + table[clamp(k - q, -R, R) + R, h]
        t = "tensor<?x?xf32>"
        return ", score_mod = @%s_mod" % name, (
            "func.func private @%s_mod(%%s: f32, %s, %%table: %s) -> f32 {\n"
            "  %%ii = arith.index_cast %%i : index to i64\n"
            "  %%jj = arith.index_cast %%j : index to i64\n"
            "  %%d = arith.subi %%jj, %%ii : i64\n"
            "  %%lo = arith.constant -%d : i64\n"
            "  %%hi = arith.constant %d : i64\n"
            "  %%c0 = arith.maxsi %%d, %%lo : i64\n"
            "  %%c1 = arith.minsi %%c0, %%hi : i64\n"
            "  %%r = arith.subi %%c1, %%lo : i64\n"
            "  %%ri = arith.index_cast %%r : i64 to index\n"
            "  %%x = tensor.extract %%table[%%ri, %%h] : %s\n"
            "  %%y = arith.addf %%s, %%x : f32\n"
            "  return %%y : f32\n}\n" % (name, IDX, t, p, p, t)), t, 6
    raise ValueError("unknown kind %r" % kind)


def kernel(d, t, causal, kind, p):
    ty = "tensor<?x?x?x%dx%s>" % (d, t)
    causal_attr = ", causal_offset = 0 : i64" if causal else ""
    name = "d%d_%s%s" % (d, t, "_causal" if causal else "")
    if kind != "none":
        name += "_%s%s" % (kind, p if p else "")
    attr, funcs, extra, segment = functions(name, kind, p)
    segments = [1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
    args, operands, types = "", "", ""
    if extra:
        segments[segment] = 1
        arg = "%sinks" if kind == "sinks" else "%c0"
        args, operands, types = ", %s: %s" % (arg, extra), ", " + arg, ", " + extra
    return (
        "%sfunc.func @%s(%%q: %s, %%k: %s, %%v: %s%s) -> %s {\n"
        "  %%o = \"fa.gridwise_attention\"(%%q, %%k, %%v%s) {operandSegmentSizes = "
        "array<i32: %s>, scale = %.10f : f32%s%s}\n"
        "      : (%s, %s, %s%s) -> %s\n"
        "  return %%o : %s\n}\n" % (funcs, name, ty, ty, ty, args, ty, operands,
                                   ", ".join(map(str, segments)), 1 / math.sqrt(d),
                                   causal_attr, attr, ty, ty, ty, types, ty, ty))


print("// Generated by bench/gen_bench_kernels.py: the kernels fa-bench times (see there).\n"
      "// fa-compile --export-kernels exports them in this order as\n"
      "// _mlir_ciface_fa_attention_0..%d (arguments Q, K, V, then the sinks or the\n"
      "// capture of a kernel with one, then O, as memrefs)." % (len(KERNELS) - 1))
for d, t, causal, kind, p in KERNELS:
    print(kernel(d, t, causal, kind, p), end="")
