"""The spelling families of gen_attention.py (docs/fuzz-differential.md): gpt-oss attention
sinks, CLIP/BART masks between a split and a merge of the batch, GPTBigCode's MQA heads
folded into the query axis, LLaMA's clamp at the lowest f32, ESPnet's post-softmax zeroing
and flash-attn's row guard, and -inf masks combining a padding tensor with index compares.

Each program is written straight from a small spec (TOSA, with a linalg variant where the
exports have one), with its near misses. Standard library only; imported by gen_attention.py,
drawn only where --families names these families.
"""

SPELL_FAMILIES = ["sinks", "views", "mqafold", "clamp", "postzero", "datamask"]
SPELL_LINALG = ["sinks", "clamp", "postzero"]

LOWEST_S = "-3.40282347E+38"
NINF_S = "0xFF800000"

# perturbation -> "refuse" (passes.md refuses it) or "either" (may fuse; must agree)
SPELL_PERTURBATIONS = {
    "sink-slice-other": "refuse",      # the slice drops the first column, not the sink
    "sink-first": "refuse",            # the sink column concatenated first
    "sink-per-row": "refuse",          # an [M] column, not [H]
    "sink-scale-after": "refuse",      # the scale after the concat (scales the sink)
    "view-not-regroup": "either",      # [BH, M, N] viewed as [BH, N, M] for the mask
    "view-mask-per-batch": "refuse",   # a [B, 1, M, N] mask in the split view
    "view-p-transpose-heads": "either",  # P transposed over [B, H] (moves non-unit dims)
    "fold-mask-per-head": "refuse",    # the folded mask varies with the head
    "clamp-not-lowest": "refuse",      # max(x, -1e30 / -1e4 / -65504)
    "clamp-before-mask": "refuse",     # the clamp under the mask
    "zero-other-mask": "refuse",       # P zeroed by another padding mask
    "zero-value": "either",            # P "zeroed" with 1e-3 / 0.5 / -0.0 ...
    "guard-other-mask": "refuse",      # the row guard of another mask
    "dmask-finite-fill": "either",     # -1e4 / -1e9 / lowest instead of -inf
    "dmask-pad-per-query": "either",   # the padding tensor [B, M, N] (varies with the row)
    "causal-neg-offset": "either",     # j > i + off with off < 0: fully masked rows
}


class SFn:
    """What gen_attention.Program reads of a function: its text and argument kinds."""

    def __init__(self, text, int_args, binary_args):
        self._text = text
        self.int_args = int_args
        self.binary_args = binary_args

    def text(self, results):
        return self._text


def tt(shape, et):
    return "tensor<%s>" % "x".join([str(d) for d in shape] + [et])


class T:
    """A straight-line TOSA (and some linalg) function writer."""

    def __init__(self, name):
        self.name = name
        self.args = []
        self.lines = []
        self.n = 0
        self.consts = {}
        self.int_args = False

    def v(self, hint="t"):
        self.n += 1
        return "%%%s%d" % (hint, self.n)

    def arg(self, hint, shape, et):
        a = "%%%s" % hint
        self.args.append((a, tt(shape, et)))
        if et.startswith("i") and et != "i1":
            self.int_args = True
        return a

    def e(self, line):
        self.lines.append("  " + line)

    def const(self, vals, shape, et):
        key = (vals, tuple(shape), et)
        if key not in self.consts:
            c = self.v("c")
            self.e('%s = "tosa.const"() <{values = dense<%s> : %s}> : () -> %s'
                   % (c, vals, tt(shape, et), tt(shape, et)))
            self.consts[key] = c
        return self.consts[key]

    def splat(self, val, rank, et="f32"):
        return self.const(val, [1] * rank, et)

    def shape(self, dims):
        key = ("shape", tuple(dims))
        if key not in self.consts:
            c = self.v("sh")
            self.e("%s = tosa.const_shape {values = dense<[%s]> : tensor<%dxindex>} : () -> "
                   "!tosa.shape<%d>" % (c, ", ".join(map(str, dims)), len(dims), len(dims)))
            self.consts[key] = c
        return self.consts[key]

    def op(self, text, ins, out_shape, out_et="f32", attrs=""):
        """ins: [(value, shape, et)]"""
        r = self.v()
        self.e("%s = %s %s%s : (%s) -> %s" % (
            r, text, ", ".join(i[0] for i in ins), attrs,
            ", ".join(tt(i[1], i[2]) for i in ins), tt(out_shape, out_et)))
        return r

    def reshape(self, x, shp, et, new):
        r = self.v()
        self.e("%s = tosa.reshape %s, %s : (%s, !tosa.shape<%d>) -> %s" % (
            r, x, self.shape(new), tt(shp, et), len(new), tt(new, et)))
        return r

    def transpose(self, x, shp, et, perm):
        new = [shp[p] for p in perm]
        r = self.v()
        self.e("%s = tosa.transpose %s {perms = array<i32: %s>} : (%s) -> %s" % (
            r, x, ", ".join(map(str, perm)), tt(shp, et), tt(new, et)))
        return r, new

    def matmul(self, a, ash, b, bsh):
        z = self.const("0.0", [1], "f32")
        out = [ash[0], ash[1], bsh[2]]
        r = self.v()
        self.e("%s = tosa.matmul %s, %s, %s, %s : (%s, %s, tensor<1xf32>, tensor<1xf32>) -> %s"
               % (r, a, b, z, z, tt(ash, "f32"), tt(bsh, "f32"), tt(out, "f32")))
        return r, out

    def mul(self, a, ash, b, bsh, out):
        sh0 = self.const("0", [1], "i8")
        r = self.v()
        self.e("%s = tosa.mul %s, %s, %s : (%s, %s, tensor<1xi8>) -> %s" % (
            r, a, b, sh0, tt(ash, "f32"), tt(bsh, "f32"), tt(out, "f32")))
        return r

    def bcast(self, a, b):
        return [max(x, y) for x, y in zip(a, b)]

    def bin(self, opn, a, ash, b, bsh, et="f32", out_et=None):
        out = self.bcast(ash, bsh)
        return self.op(opn, [(a, ash, et), (b, bsh, et)], out, out_et or et), out

    def select(self, c, csh, a, ash, b, bsh):
        out = self.bcast(self.bcast(csh, ash), bsh)
        return self.op("tosa.select", [(c, csh, "i1"), (a, ash, "f32"), (b, bsh, "f32")],
                       out, "f32"), out

    def reduce(self, kind, x, shp, ax, et="f32"):
        out = list(shp)
        out[ax] = 1
        return self.op("tosa.reduce_%s" % kind, [(x, shp, et)], out, et,
                       attrs=" {axis = %d : i32}" % ax), out

    def cast(self, x, shp, et, to):
        return self.op("tosa.cast", [(x, shp, et)], shp, to)

    def softmax(self, x, shp, extra_shift=False):
        ax = len(shp) - 1
        if extra_shift:   # gpt-oss: the row max subtracted once more before the softmax
            m, msh = self.reduce("max", x, shp, ax)
            x, _ = self.bin("tosa.sub", x, shp, m, msh)
        m, msh = self.reduce("max", x, shp, ax)
        d, _ = self.bin("tosa.sub", x, shp, m, msh)
        e = self.op("tosa.exp", [(d, shp, "f32")], shp)
        s, ssh = self.reduce("sum", e, shp, ax)
        r = self.op("tosa.reciprocal", [(s, ssh, "f32")], ssh)
        return self.mul(e, shp, r, ssh, shp)

    def text(self, result, rty):
        sig = ", ".join("%s: %s" % a for a in self.args)
        out = ["func.func @%s(%s) -> %s {" % (self.name, sig, rty)]
        out += self.lines
        out.append("  return %s : %s" % (result, rty))
        out.append("}")
        return "\n".join(out) + "\n"


def dense_list(vals):
    return "[%s]" % ", ".join(map(str, vals))


def iotas(t, M, N, rank=4, off=0):
    """Row (query) and column (key) i64 iotas, [1,1,M,1] and [1,1,1,N] (rank 4)."""
    rows = t.const(dense_list(range(M)), [M], "i64")
    cols = t.const(dense_list(range(N)), [N], "i64") if N != M else rows
    rsh = [1] * (rank - 2) + [M, 1]
    csh = [1] * (rank - 1) + [N]
    r = t.reshape(rows, [M], "i64", rsh)
    c = t.reshape(cols, [N], "i64", csh)
    if off:
        o = t.splat(str(off), rank, "i64")
        r, _ = t.bin("tosa.add", r, rsh, o, [1] * rank, "i64")
    return r, rsh, c, csh


def future(t, M, N, rank=4, off=0):
    """j > i + off: the keys a causal mask hides."""
    r, rsh, c, csh = iotas(t, M, N, rank, off)
    return t.bin("tosa.greater", c, csh, r, rsh, "i64", "i1")


# --- spec ---------------------------------------------------------------------------

def draw(rng, dialect, family, pert_rate, perts_allowed):
    s = {"spell": True, "dialect": dialect, "family": family}
    s["B"] = rng.choice([1, 2])
    s["H"] = rng.choice([1, 2])
    s["M"] = rng.randint(1, 8)
    s["N"] = rng.randint(1, 8)
    s["D"] = rng.choice([4, 8])
    s["Dv"] = rng.choice([4, 8])
    s["prec"] = rng.choice(["f32", "f32", "f16", "bf16"])
    s["scale"] = rng.choice([0.125, 0.25, 0.5, 0.35355339])
    s["fill"] = rng.choice([NINF_S, LOWEST_S])
    s["off"] = 0
    if family == "sinks":
        s["mask"] = rng.choice(["none", "causal", "pad"])
        s["extra_shift"] = rng.random() < 0.5
        s["sink_et"] = rng.choice(["f32", "f32", "f16", "bf16"])
    elif family == "views":
        s["H"] = rng.choice([1, 2, 3])
        s["mask"] = rng.choice(["causal", "causal_lowest", "const"])
        s["p_unit_t"] = rng.random() < 0.4
    elif family == "mqafold":
        s["B"] = 1
        s["H"] = rng.choice([2, 3, 4])
        s["mask"] = rng.choice(["none", "causal"])
    elif family == "clamp":
        s["clamp"] = rng.choice(["maximum", "select", "generic_max", "generic_select"])
        s["mask"] = rng.choice(["pad+causal", "pad", "causal"])
    elif family == "postzero":
        s["zero"] = rng.choice(["espnet", "espnet", "guard"])
        s["fill"] = LOWEST_S if s["zero"] == "espnet" else rng.choice([NINF_S, LOWEST_S])
    elif family == "datamask":
        s["form"] = rng.choice(["and", "select2", "additive"])
        s["pad_kind"] = rng.choice(["keep", "len"])
    if dialect == "linalg":
        s["prec"] = "f32" if s["prec"] == "f32" else s["prec"]
    s["pert"] = None
    s["pert_detail"] = ""
    cands = applicable(s)
    if perts_allowed:
        cands = [p for p in cands if p in perts_allowed]
        if not cands:
            return s
        rate = 1.0 if all(p in SPELL_PERTURBATIONS for p in perts_allowed) else pert_rate
    else:
        rate = pert_rate
    if cands and rng.random() < rate:
        s["pert"] = rng.choice(cands)
        apply_pert(rng, s)
    return s


def applicable(s):
    f = s["family"]
    c = []
    if f == "sinks":
        c = ["sink-slice-other", "sink-first", "sink-per-row", "sink-scale-after",
             "causal-neg-offset"]
        if s["dialect"] == "linalg":
            c.remove("sink-per-row")
    elif f == "views":
        c = ["view-not-regroup", "view-mask-per-batch", "causal-neg-offset"]
        if s["B"] > 1 and s["H"] > 1:
            c.append("view-p-transpose-heads")
    elif f == "mqafold":
        c = ["fold-mask-per-head", "causal-neg-offset"]
    elif f == "clamp":
        c = ["clamp-not-lowest", "clamp-before-mask", "causal-neg-offset"]
    elif f == "postzero":
        c = ["zero-value", "causal-neg-offset"]
        c.append("zero-other-mask" if s["zero"] == "espnet" else "guard-other-mask")
    elif f == "datamask":
        c = ["dmask-finite-fill", "dmask-pad-per-query", "causal-neg-offset"]
    return c


def apply_pert(rng, s):
    p = s["pert"]
    if p == "causal-neg-offset":
        s["off"] = -rng.randint(1, 3)
        if s["family"] == "mqafold" or (s["family"] in ("sinks", "views") and
                                        s["mask"] not in ("causal", "causal_lowest")):
            s["mask"] = "causal"
        if s["family"] == "clamp" and s["mask"] == "pad":
            s["mask"] = "pad+causal"
        if s["family"] == "views" and s["mask"] == "const":
            s["mask"] = "causal"
        s["pert_detail"] = "off %d" % s["off"]
    elif p == "clamp-not-lowest":
        s["clamp_val"] = rng.choice(["-1.000000e+30", "-1.000000e+04", "-6.550400e+04",
                                     "-3.40282326E+38"])
        s["pert_detail"] = s["clamp_val"]
    elif p == "zero-value":
        s["zero_val"] = rng.choice(["1.000000e-03", "5.000000e-01", "-0.000000e+00",
                                    "1.000000e-30"])
        s["pert_detail"] = s["zero_val"]
    elif p == "dmask-finite-fill":
        s["fill"] = rng.choice(["-1.000000e+04", "-1.000000e+09", LOWEST_S])
        s["pert_detail"] = s["fill"]
    elif p == "view-not-regroup":
        if s["M"] == s["N"]:
            s["N"] = s["M"] + 1
    elif p == "view-mask-per-batch":
        s["B"] = 2


def expect_of(s):
    if s["pert"] is None:
        return "fuse"
    return SPELL_PERTURBATIONS[s["pert"]]


def soft_reason(s):
    """Why an unperturbed program may be refused by design (then it is not missed)."""
    if s["family"] == "clamp" and s["clamp"] in ("generic_max", "maximum") and (
            s["dialect"] == "linalg" or s["clamp"] == "generic_max"):
        return "a max in a linalg body (maximumf and maxnumf are not told apart)"
    if s["M"] == 1 or s["N"] == 1:
        return "a unit query or key axis (known misses)"
    if s["family"] == "clamp" and s["mask"] != "pad+causal":
        return "one additive finfo.min mask under the clamp is read as a mask, not a bias " \
            "(passes.md: only a scale and one plain bias may lie under it)"
    if s["family"] == "postzero" and s["dialect"] == "linalg" and (s["zero"] == "guard" or
                                                                  s["off"]):
        return "linalg: an i1 padding tensor joined with index compares inside the scores' " \
            "generic (a mask combines conditions that are not all compares)"
    if s["family"] == "sinks" and s["dialect"] == "tosa" and s["H"] == 1:
        return "TOSA sinks of one head (a [1] column reshaped to [1, 1, 1, 1]: 'the sink " \
            "column is not a per-head [H] tensor', a miss)"
    if s["family"] == "views" and s["H"] == 1:
        return "views with H = 1 (the heads merged into the batch: known misses)"
    return ""


def tol_scale(s):
    """An additive finite fill other than the lowest (-1e4, -1e9) on a row it masks fully:
    the source's f32 sum s + fill drops the scores' low bits (the step at 1e4 is 2^-10),
    the op's (in log2 units) others, a precision limit of the source (seed 48 p569, as
    seed 42 p871 of the index masks): checked with a 4x tolerance, not at 3x inputs."""
    if s["family"] == "datamask" and s.get("form") == "additive" and \
            s["pert"] == "dmask-finite-fill" and s["fill"] not in (NINF_S, LOWEST_S):
        return 4.0
    return 1.0


def describe(s):
    keys = sorted(k for k in s if k not in ("spell", "pert", "pert_detail"))
    return " ".join("%s=%s" % (k, s[k]) for k in keys)


# --- emitters -----------------------------------------------------------------------

def qkv_in(t, s, qsh, ksh, vsh):
    """Q, K, V arguments (in the program's precision), extended to f32."""
    et = s["prec"]
    q = t.arg("q", qsh, et)
    k = t.arg("k", ksh, et)
    v = t.arg("v", vsh, et)
    if et != "f32":
        q = t.cast(q, qsh, et, "f32")
        k = t.cast(k, ksh, et, "f32")
        v = t.cast(v, vsh, et, "f32")
    return q, k, v


def out_ret(t, s, o, osh):
    if s["prec"] != "f32":
        o = t.cast(o, osh, "f32", s["prec"])
    return o, tt(osh, s["prec"])


def scores4(t, s, q, k):
    """[B, H, M, N] scaled scores from [B, H, M, D] Q and [B, H, N, D] K."""
    B, H, M, N, D = s["B"], s["H"], s["M"], s["N"], s["D"]
    kt, _ = t.transpose(k, [B, H, N, D], "f32", [0, 1, 3, 2])
    q3 = t.reshape(q, [B, H, M, D], "f32", [B * H, M, D])
    k3 = t.reshape(kt, [B, H, D, N], "f32", [B * H, D, N])
    sc, ssh = t.matmul(q3, [B * H, M, D], k3, [B * H, D, N])
    s4 = t.reshape(sc, ssh, "f32", [B, H, M, N])
    c = t.splat(repr(s["scale"]), 4)
    return t.mul(s4, [B, H, M, N], c, [1, 1, 1, 1], [B, H, M, N])


def pv4(t, s, p, v, N=None):
    B, H, M, Dv = s["B"], s["H"], s["M"], s["Dv"]
    N = N or s["N"]
    p3 = t.reshape(p, [B, H, M, N], "f32", [B * H, M, N])
    v3 = t.reshape(v, [B, H, N, Dv], "f32", [B * H, N, Dv])
    o, osh = t.matmul(p3, [B * H, M, N], v3, [B * H, N, Dv])
    return t.reshape(o, osh, "f32", [B, H, M, Dv]), [B, H, M, Dv]


def pad_mask(t, s, name="keep", per_query=False):
    """A [B, 1, 1, N] (or [B, 1, M, N]) i1 of padded keys, from an i64 0/1-ish tensor (keys
    whose value is 0 are padded: fa-check's --int-max=0 pads every key)."""
    B, M, N = s["B"], s["M"], s["N"]
    if per_query:
        a = t.arg(name, [B, M, N], "i64")
        a4 = t.reshape(a, [B, M, N], "i64", [B, 1, M, N])
        sh = [B, 1, M, N]
    else:
        a = t.arg(name, [B, 1, N], "i64")
        a4 = t.reshape(a, [B, 1, N], "i64", [B, 1, 1, N])
        sh = [B, 1, 1, N]
    z = t.splat("0", 4, "i64")
    m, _ = t.bin("tosa.equal", a4, sh, z, [1, 1, 1, 1], "i64", "i1")
    return m, sh


def emit_sinks_tosa(t, s):
    B, H, M, N, D, Dv = s["B"], s["H"], s["M"], s["N"], s["D"], s["Dv"]
    q, k, v = qkv_in(t, s, [B, H, M, D], [B, H, N, D], [B, H, N, Dv])
    pert = s["pert"]
    if pert == "sink-scale-after":
        # the scale after the concat: the sink is scaled too
        kt, _ = t.transpose(k, [B, H, N, D], "f32", [0, 1, 3, 2])
        q3 = t.reshape(q, [B, H, M, D], "f32", [B * H, M, D])
        k3 = t.reshape(kt, [B, H, D, N], "f32", [B * H, D, N])
        sc, ssh = t.matmul(q3, [B * H, M, D], k3, [B * H, D, N])
        x = t.reshape(sc, ssh, "f32", [B, H, M, N])
    else:
        x = scores4(t, s, q, k)
    sh = [B, H, M, N]
    x = apply_mask_tosa(t, s, x, sh)
    if pert == "sink-per-row":
        sk = t.arg("sinks", [M], s["sink_et"])
        if s["sink_et"] != "f32":
            sk = t.cast(sk, [M], s["sink_et"], "f32")
        h4 = t.reshape(sk, [M], "f32", [1, 1, M, 1])
        mult = [B, H, 1, 1]
    else:
        sk = t.arg("sinks", [H], s["sink_et"])
        if s["sink_et"] != "f32":
            sk = t.cast(sk, [H], s["sink_et"], "f32")
        h4 = t.reshape(sk, [H], "f32", [1, H, 1, 1])
        mult = [B, 1, M, 1]
    col = t.v()
    t.e("%s = tosa.tile %s, %s : (%s, !tosa.shape<4>) -> %s" % (
        col, h4, t.shape(mult), tt([1, H, 1, 1] if pert != "sink-per-row" else [1, 1, M, 1],
                                   "f32"), tt([B, H, M, 1], "f32")))
    csh = [B, H, M, N + 1]
    parts = [(col, [B, H, M, 1], "f32"), (x, sh, "f32")] if pert == "sink-first" else \
        [(x, sh, "f32"), (col, [B, H, M, 1], "f32")]
    cat = t.op("tosa.concat", parts, csh, attrs=" {axis = 3 : i32}")
    if pert == "sink-scale-after":
        c = t.splat(repr(s["scale"]), 4)
        cat = t.mul(cat, csh, c, [1, 1, 1, 1], csh)
    p = t.softmax(cat, csh, s["extra_shift"])
    start = [0, 0, 0, 1] if pert == "sink-slice-other" else [0, 0, 0, 0]
    ps = t.v()
    t.e("%s = tosa.slice %s, %s, %s : (%s, !tosa.shape<4>, !tosa.shape<4>) -> %s" % (
        ps, p, t.shape(start), t.shape(sh), tt(csh, "f32"), tt(sh, "f32")))
    o, osh = pv4(t, s, ps, v)
    return out_ret(t, s, o, osh)


def apply_mask_tosa(t, s, x, sh):
    """The family's plain mask (sinks): none, causal (j > i + off), or padding."""
    m = s.get("mask", "none")
    fill = t.splat(s["fill"], 4)
    if m == "causal":
        fut, fsh = future(t, s["M"], s["N"], 4, s["off"])
        x, _ = t.select(fut, fsh, fill, [1, 1, 1, 1], x, sh)
    elif m == "pad":
        pm, psh = pad_mask(t, s)
        x, _ = t.select(pm, psh, fill, [1, 1, 1, 1], x, sh)
    return x


def emit_views_tosa(t, s):
    """CLIP/BART: scores [B*H, M, N] viewed [B, H, M, N], a mask added, viewed back."""
    B, H, M, N, D, Dv = s["B"], s["H"], s["M"], s["N"], s["D"], s["Dv"]
    BH = B * H
    et = s["prec"]
    q = t.arg("q", [BH, M, D], et)
    k = t.arg("k", [BH, N, D], et)
    v = t.arg("v", [BH, N, Dv], et)
    if et != "f32":
        q = t.cast(q, [BH, M, D], et, "f32")
        k = t.cast(k, [BH, N, D], et, "f32")
        v = t.cast(v, [BH, N, Dv], et, "f32")
    kt, _ = t.transpose(k, [BH, N, D], "f32", [0, 2, 1])
    sc, ssh = t.matmul(q, [BH, M, D], kt, [BH, D, N])
    c = t.splat(repr(s["scale"]), 3)
    x = t.mul(sc, ssh, c, [1, 1, 1], ssh)
    pert = s["pert"]
    fillv = LOWEST_S if s["mask"] == "causal_lowest" else NINF_S
    fill = t.splat(fillv, 2)
    zero = t.splat("0.0", 2)
    if pert == "view-not-regroup":
        # [BH, M, N] viewed as [BH, N, M] (not a regrouping of an axis), a causal mask
        # over that view, and back
        vsh = [BH, N, M]
        fut, fsh = future(t, N, M, 2, s["off"])
        add, ash = t.select(fut, fsh, fill, [1, 1], zero, [1, 1])
        m3 = t.reshape(add, ash, "f32", [1] + ash)
        xv = t.reshape(x, ssh, "f32", vsh)
        w, _ = t.bin("tosa.add", xv, vsh, m3, [1] + ash)
        w = t.reshape(w, vsh, "f32", ssh)
    else:
        vsh = [B, H, M, N]
        if pert == "view-mask-per-batch":
            m4 = t.arg("mask", [B, 1, M, N], "f32")
            msh = [B, 1, M, N]
        elif s["mask"] == "const":
            # a constant additive mask (0 / -inf pattern of a causal triangle, as a tensor)
            vals = [[0.0 if j <= i + s["off"] else "0xFF800000" for j in range(N)]
                    for i in range(M)]
            txt = "[%s]" % ", ".join("[%s]" % ", ".join(str(x) for x in r) for r in vals)
            m4 = t.const("[[%s]]" % txt, [1, 1, M, N], "f32")
            msh = [1, 1, M, N]
        else:
            fut, fsh = future(t, M, N, 2, s["off"])
            add, ash = t.select(fut, fsh, fill, [1, 1], zero, [1, 1])
            m4 = t.reshape(add, ash, "f32", [1, 1, M, N])
            msh = [1, 1, M, N]
        xv = t.reshape(x, ssh, "f32", vsh)
        w, _ = t.bin("tosa.add", xv, vsh, m4, msh)
        w = t.reshape(w, vsh, "f32", ssh)
    if s["p_unit_t"] and pert != "view-p-transpose-heads":
        # the softmax on a [1, B*H, M, N] view, P transposed to [B*H, 1, M, N] (unit dims)
        w4 = t.reshape(w, ssh, "f32", [1, BH, M, N])
        p4 = t.softmax(w4, [1, BH, M, N])
        pt, psh = t.transpose(p4, [1, BH, M, N], "f32", [1, 0, 2, 3])
        p = t.reshape(pt, psh, "f32", ssh)
        o, osh = t.matmul(p, ssh, v, [BH, N, Dv])
        return out_ret(t, s, o, osh)
    p = t.softmax(w, ssh)
    if pert == "view-p-transpose-heads":
        p4 = t.reshape(p, ssh, "f32", [B, H, M, N])
        pt, psh = t.transpose(p4, [B, H, M, N], "f32", [1, 0, 2, 3])
        p = t.reshape(pt, psh, "f32", ssh)
    o, osh = t.matmul(p, ssh, v, [BH, N, Dv])
    return out_ret(t, s, o, osh)


def emit_mqafold_tosa(t, s):
    """GPTBigCode MQA: Q [B, M, H*D] viewed [B, M*H, D], K^T [B, D, N], V [B, N, Dv]."""
    B, H, M, N, D, Dv = s["B"], s["H"], s["M"], s["N"], s["D"], s["Dv"]
    et = s["prec"]
    q = t.arg("q", [B, M, H * D], et)
    kt = t.arg("kt", [B, D, N], et)
    v = t.arg("v", [B, N, Dv], et)
    qf = t.reshape(q, [B, M, H * D], et, [B, M * H, D])
    if et != "f32":
        qf = t.cast(qf, [B, M * H, D], et, "f32")
        kt = t.cast(kt, [B, D, N], et, "f32")
        v = t.cast(v, [B, N, Dv], et, "f32")
    sc, ssh = t.matmul(qf, [B, M * H, D], kt, [B, D, N])
    c = t.splat(repr(s["scale"]), 3)
    x = t.mul(sc, ssh, c, [1, 1, 1], ssh)
    sh4 = [B, M, H, N]
    x4 = t.reshape(x, ssh, "f32", sh4)
    if s["mask"] == "causal" or s["pert"] == "fold-mask-per-head":
        fill = t.splat(s["fill"], 4)
        if s["pert"] == "fold-mask-per-head":
            # j > i + h: varies with the head
            rows = t.const(dense_list(range(M)), [M], "i64")
            heads = t.const(dense_list(range(H)), [H], "i64")
            cols = t.const(dense_list(range(N)), [N], "i64")
            r = t.reshape(rows, [M], "i64", [1, M, 1, 1])
            h = t.reshape(heads, [H], "i64", [1, 1, H, 1])
            cc = t.reshape(cols, [N], "i64", [1, 1, 1, N])
            rh, rhsh = t.bin("tosa.add", r, [1, M, 1, 1], h, [1, 1, H, 1], "i64")
            vis, vsh = t.bin("tosa.greater_equal", rh, rhsh, cc, [1, 1, 1, N], "i64", "i1")
        else:
            rows = t.const(dense_list(range(M)), [M], "i64")
            cols = t.const(dense_list(range(N)), [N], "i64")
            r = t.reshape(rows, [M], "i64", [M, 1])
            cc = t.reshape(cols, [N], "i64", [1, N])
            if s["off"]:
                o = t.splat(str(s["off"]), 2, "i64")
                r, _ = t.bin("tosa.add", r, [M, 1], o, [1, 1], "i64")
            vis2, _ = t.bin("tosa.greater_equal", r, [M, 1], cc, [1, N], "i64", "i1")
            vis = t.reshape(vis2, [M, N], "i1", [1, M, 1, N])
            vsh = [1, M, 1, N]
        x4, _ = t.select(vis, vsh, x4, sh4, fill, [1, 1, 1, 1])
    p = t.softmax(x4, sh4)
    p3 = t.reshape(p, sh4, "f32", ssh)
    o, osh = t.matmul(p3, ssh, v, [B, N, Dv])
    return out_ret(t, s, o, osh)


def lin_generic_unary(t, x, sh, body, et="f32"):
    """A 4-D elementwise linalg.generic; body(a) -> list of lines, last value yielded."""
    e = t.v("e")
    t.e("%s = tensor.empty() : %s" % (e, tt(sh, et)))
    r = t.v()
    idm = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
    t.e("%s = linalg.generic {indexing_maps = [%s, %s], iterator_types = [\"parallel\", "
        "\"parallel\", \"parallel\", \"parallel\"]} ins(%s : %s) outs(%s : %s) {" % (
            r, idm, idm, x, tt(sh, "f32"), e, tt(sh, et)))
    t.e("^bb0(%%in%d: f32, %%out%d: %s):" % (t.n, t.n, et))
    a = "%%in%d" % t.n
    lines, res = body(a)
    for ln in lines:
        t.e("  " + ln)
    t.e("  linalg.yield %s : %s" % (res, et))
    t.e("} -> %s" % tt(sh, et))
    return r


def emit_clamp_tosa(t, s):
    """LLaMA 4.28: s + (pad part + causal part) (finfo.min each), then max(x, finfo.min)."""
    B, H, M, N, D, Dv = s["B"], s["H"], s["M"], s["N"], s["D"], s["Dv"]
    q, k, v = qkv_in(t, s, [B, H, M, D], [B, H, N, D], [B, H, N, Dv])
    x = scores4(t, s, q, k)
    sh = [B, H, M, N]
    lo = t.splat(LOWEST_S, 4)
    z4 = t.splat("0.0", 4)
    parts = []
    if "pad" in s["mask"]:
        pm, psh = pad_mask(t, s)
        pp, ppsh = t.select(pm, psh, lo, [1] * 4, z4, [1] * 4)
        parts.append((pp, ppsh))
    if "causal" in s["mask"]:
        fut, fsh = future(t, M, N, 4, s["off"])
        cp, cpsh = t.select(fut, fsh, lo, [1] * 4, z4, [1] * 4)
        parts.append((cp, cpsh))
    mask, msh = parts[0]
    for pp, ppsh in parts[1:]:
        mask, msh = t.bin("tosa.add", mask, msh, pp, ppsh)
    cv = s.get("clamp_val", LOWEST_S)

    def clamp(y, ysh):
        kind = s["clamp"]
        if kind == "maximum":
            c = t.splat(cv, 4)
            return t.bin("tosa.maximum", y, ysh, c, [1] * 4)[0]
        if kind == "select":
            c = t.splat(cv, 4)
            g, gsh = t.bin("tosa.greater", y, ysh, c, [1] * 4, "f32", "i1")
            return t.select(g, gsh, y, ysh, c, [1] * 4)[0]

        def body(a):
            if kind == "generic_max":
                return (["%%lo%d = arith.constant %s : f32" % (t.n, cv),
                         "%%r%d = arith.maximumf %s, %%lo%d : f32" % (t.n, a, t.n)],
                        "%%r%d" % t.n)
            return (["%%lo%d = arith.constant %s : f32" % (t.n, cv),
                     "%%g%d = arith.cmpf ogt, %s, %%lo%d : f32" % (t.n, a, t.n),
                     "%%r%d = arith.select %%g%d, %s, %%lo%d : f32" % (t.n, t.n, a, t.n)],
                    "%%r%d" % t.n)
        return lin_generic_unary(t, y, ysh, body)

    if s["pert"] == "clamp-before-mask":
        x = clamp(x, sh)
        x, _ = t.bin("tosa.add", x, sh, mask, msh)
    else:
        x, _ = t.bin("tosa.add", x, sh, mask, msh)
        x = clamp(x, sh)
    p = t.softmax(x, sh)
    o, osh = pv4(t, s, p, v)
    return out_ret(t, s, o, osh)


def emit_postzero_tosa(t, s):
    """ESPnet: softmax(masked_fill(s, m, finfo.min)).masked_fill(m, 0); flash-attn's row
    guard: softmax(select(vis, s, fill)) zeroed where all(~vis, -1)."""
    B, H, M, N, D, Dv = s["B"], s["H"], s["M"], s["N"], s["D"], s["Dv"]
    q, k, v = qkv_in(t, s, [B, H, M, D], [B, H, N, D], [B, H, N, Dv])
    x = scores4(t, s, q, k)
    sh = [B, H, M, N]
    fill = t.splat(s["fill"], 4)
    zv = t.splat(s.get("zero_val", "0.0"), 4)
    pert = s["pert"]
    if s["zero"] == "espnet":
        pm, psh = pad_mask(t, s)
        if s["off"]:
            fut, fsh = future(t, M, N, 4, s["off"])
            pm, psh = t.bin("tosa.logical_or", pm, psh, fut, fsh, "i1")
        x, _ = t.select(pm, psh, fill, [1] * 4, x, sh)
        p = t.softmax(x, sh)
        zm, zsh = (pad_mask(t, s, "other") if pert == "zero-other-mask" else (pm, psh))
        p, _ = t.select(zm, zsh, zv, [1] * 4, p, sh)
    else:
        one = t.splat("1", 4, "i64")
        a = t.arg("keep", [B, 1, N], "i64")
        a4 = t.reshape(a, [B, 1, N], "i64", [B, 1, 1, N])
        keepb, ksh = t.bin("tosa.equal", a4, [B, 1, 1, N], one, [1] * 4, "i64", "i1")
        fut, fsh = future(t, M, N, 4, s["off"])
        past = t.op("tosa.logical_not", [(fut, fsh, "i1")], fsh, "i1")
        vis, vsh = t.bin("tosa.logical_and", keepb, ksh, past, fsh, "i1")
        x, _ = t.select(vis, vsh, x, sh, fill, [1] * 4)
        p = t.softmax(x, sh)
        if pert == "guard-other-mask":
            b = t.arg("other", [B, 1, N], "i64")
            b4 = t.reshape(b, [B, 1, N], "i64", [B, 1, 1, N])
            ob, _ = t.bin("tosa.equal", b4, [B, 1, 1, N], one, [1] * 4, "i64", "i1")
            gvis, gsh = t.bin("tosa.logical_and", ob, ksh, past, fsh, "i1")
        else:
            gvis, gsh = vis, vsh
        hid = t.op("tosa.logical_not", [(gvis, gsh, "i1")], gsh, "i1")
        allh, ash = t.reduce("all", hid, gsh, 3, "i1")
        p, _ = t.select(allh, ash, zv, [1] * 4, p, sh)
    o, osh = pv4(t, s, p, v)
    return out_ret(t, s, o, osh)


def emit_datamask_tosa(t, s):
    """A padding tensor ([B, N] keep flags or [B] lengths) with a causal compare, one -inf
    mask: and-ed booleans, two selects, or the sum of two additive parts."""
    B, H, M, N, D, Dv = s["B"], s["H"], s["M"], s["N"], s["D"], s["Dv"]
    q, k, v = qkv_in(t, s, [B, H, M, D], [B, H, N, D], [B, H, N, Dv])
    x = scores4(t, s, q, k)
    sh = [B, H, M, N]
    fillv = s["fill"] if s["pert"] == "dmask-finite-fill" else NINF_S
    fill = t.splat(fillv, 4)
    z4 = t.splat("0.0", 4)
    if s["pad_kind"] == "len":
        ln = t.arg("len", [B], "i64")
        l4 = t.reshape(ln, [B], "i64", [B, 1, 1, 1])
        cols = t.const(dense_list(range(N)), [N], "i64")
        c4 = t.reshape(cols, [N], "i64", [1, 1, 1, N])
        pm, psh = t.bin("tosa.greater_equal", c4, [1, 1, 1, N], l4, [B, 1, 1, 1], "i64", "i1")
    else:
        pm, psh = pad_mask(t, s, per_query=s["pert"] == "dmask-pad-per-query")
    fut, fsh = future(t, M, N, 4, s["off"])
    if s["form"] == "and":
        hid, hsh = t.bin("tosa.logical_or", pm, psh, fut, fsh, "i1")
        x, _ = t.select(hid, hsh, fill, [1] * 4, x, sh)
    elif s["form"] == "select2":
        x, _ = t.select(fut, fsh, fill, [1] * 4, x, sh)
        x, _ = t.select(pm, psh, fill, [1] * 4, x, sh)
    else:
        pp, ppsh = t.select(pm, psh, fill, [1] * 4, z4, [1] * 4)
        cp, cpsh = t.select(fut, fsh, fill, [1] * 4, z4, [1] * 4)
        m, msh = t.bin("tosa.add", pp, ppsh, cp, cpsh)
        x, _ = t.bin("tosa.add", x, sh, m, msh)
    p = t.softmax(x, sh)
    o, osh = pv4(t, s, p, v)
    return out_ret(t, s, o, osh)


# --- linalg variants ----------------------------------------------------------------

class L(T):
    """linalg: 4-D generics over [B, H, M, N]."""

    ID4 = "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>"
    PAR4 = '["parallel", "parallel", "parallel", "parallel"]'

    def empty(self, sh, et="f32"):
        e = self.v("e")
        self.e("%s = tensor.empty() : %s" % (e, tt(sh, et)))
        return e

    def zeros(self, sh):
        z = self.v("z")
        self.e("%s = arith.constant 0.0 : f32" % z)
        f = self.v("f")
        self.e("%s = linalg.fill ins(%s : f32) outs(%s : %s) -> %s" % (
            f, z, self.empty(sh), tt(sh, "f32"), tt(sh, "f32")))
        return f

    def ext(self, x, sh, et):
        if et == "f32":
            return x
        r = self.v()
        maps = ", ".join(["affine_map<(%s) -> (%s)>" % (
            ", ".join("d%d" % i for i in range(len(sh))),
            ", ".join("d%d" % i for i in range(len(sh))))] * 2)
        it = ", ".join(['"parallel"'] * len(sh))
        self.e("%s = linalg.generic {indexing_maps = [%s], iterator_types = [%s]} ins(%s : %s) "
               "outs(%s : %s) {" % (r, maps, it, x, tt(sh, et), self.empty(sh), tt(sh, "f32")))
        self.e("^bb0(%%a%d: %s, %%b%d: f32):" % (self.n, et, self.n))
        self.e("  %%w%d = arith.extf %%a%d : %s to f32" % (self.n, self.n, et))
        self.e("  linalg.yield %%w%d : f32" % self.n)
        self.e("} -> %s" % tt(sh, "f32"))
        return r

    def contract(self, a, ash, b, bsh, out, amap, bmap, omap):
        r = self.v()
        self.e("%s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (%s)>, "
               "affine_map<(b, h, m, n, d) -> (%s)>, affine_map<(b, h, m, n, d) -> (%s)>], "
               "iterator_types = [\"parallel\", \"parallel\", \"parallel\", \"parallel\", "
               "\"reduction\"]} ins(%s, %s : %s, %s) outs(%s : %s) {" % (
                   r, amap, bmap, omap, a, b, tt(ash, "f32"), tt(bsh, "f32"), self.zeros(out),
                   tt(out, "f32")))
        self.e("^bb0(%%a%d: f32, %%b%d: f32, %%acc%d: f32):" % (self.n, self.n, self.n))
        n = self.n
        self.e("  %%m%d = arith.mulf %%a%d, %%b%d : f32" % (n, n, n))
        self.e("  %%r%d = arith.addf %%acc%d, %%m%d : f32" % (n, n, n))
        self.e("  linalg.yield %%r%d : f32" % n)
        self.e("} -> %s" % tt(out, "f32"))
        return r

    def ew(self, ins, sh, lines_fn, out_et="f32"):
        """ins: [(value, shape, et, map)]; lines_fn(args) -> (lines, result)."""
        r = self.v()
        maps = ", ".join([i[3] for i in ins] + [self.ID4])
        insc = (" ins(%s : %s)" % (", ".join(i[0] for i in ins),
                                   ", ".join(tt(i[1], i[2]) for i in ins))) if ins else ""
        self.e("%s = linalg.generic {indexing_maps = [%s], iterator_types = %s}%s "
               "outs(%s : %s) {" % (r, maps, self.PAR4, insc, self.empty(sh, out_et),
                                    tt(sh, out_et)))
        n = self.n
        names = ["%%x%d_%d" % (n, k) for k in range(len(ins))]
        self.e("^bb0(%s):" % ", ".join(["%s: %s" % (nm, i[2]) for nm, i in zip(names, ins)] +
                                       ["%%o%d: %s" % (n, out_et)]))
        lines, res = lines_fn(names, n)
        for ln in lines:
            self.e("  " + ln)
        self.e("  linalg.yield %s : %s" % (res, out_et))
        self.e("} -> %s" % tt(sh, out_et))
        return r

    def softmax(self, x, sh):
        r = self.v()
        self.e("%s = linalg.softmax dimension(%d) ins(%s : %s) outs(%s : %s) -> %s" % (
            r, len(sh) - 1, x, tt(sh, "f32"), self.empty(sh), tt(sh, "f32"), tt(sh, "f32")))
        return r


def causal_lines(n, off):
    """linalg lines computing %fut<n> = j > i + off (index)."""
    ls = ["%%i%d = linalg.index 2 : index" % n, "%%j%d = linalg.index 3 : index" % n]
    if off:
        ls += ["%%co%d = arith.constant %d : index" % (n, off),
               "%%io%d = arith.addi %%i%d, %%co%d : index" % (n, n, n),
               "%%fut%d = arith.cmpi sgt, %%j%d, %%io%d : index" % (n, n, n)]
    else:
        ls += ["%%fut%d = arith.cmpi sgt, %%j%d, %%i%d : index" % (n, n, n)]
    return ls


def lin_qkv(t, s):
    B, H, M, N, D, Dv = s["B"], s["H"], s["M"], s["N"], s["D"], s["Dv"]
    et = s["prec"]
    q = t.ext(t.arg("q", [B, H, M, D], et), [B, H, M, D], et)
    k = t.ext(t.arg("k", [B, H, N, D], et), [B, H, N, D], et)
    v = t.ext(t.arg("v", [B, H, N, Dv], et), [B, H, N, Dv], et)
    sc = t.contract(q, [B, H, M, D], k, [B, H, N, D], [B, H, M, N],
                    "b, h, m, d", "b, h, n, d", "b, h, m, n")
    return sc, v


def lin_pv_fix(t, s, p, v):
    # P [b,h,m,n] x V [b,h,n,dv] -> O [b,h,m,dv], loops (b, h, m, d, n)
    B, H, M, N, Dv = s["B"], s["H"], s["M"], s["N"], s["Dv"]
    r = t.v()
    t.e("%s = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, "
        "affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> "
        "(b, h, m, d)>], iterator_types = [\"parallel\", \"parallel\", \"parallel\", "
        "\"parallel\", \"reduction\"]} ins(%s, %s : %s, %s) outs(%s : %s) {" % (
            r, p, v, tt([B, H, M, N], "f32"), tt([B, H, N, Dv], "f32"),
            t.zeros([B, H, M, Dv]), tt([B, H, M, Dv], "f32")))
    n = t.n
    t.e("^bb0(%%a%d: f32, %%b%d: f32, %%acc%d: f32):" % (n, n, n))
    t.e("  %%m%d = arith.mulf %%a%d, %%b%d : f32" % (n, n, n))
    t.e("  %%r%d = arith.addf %%acc%d, %%m%d : f32" % (n, n, n))
    t.e("  linalg.yield %%r%d : f32" % n)
    t.e("} -> %s" % tt([B, H, M, Dv], "f32"))
    return r


def lin_out(t, s, o):
    B, H, M, Dv = s["B"], s["H"], s["M"], s["Dv"]
    sh = [B, H, M, Dv]
    if s["prec"] == "f32":
        return o, tt(sh, "f32")
    et = s["prec"]
    r = t.ew([(o, sh, "f32", t.ID4)], sh,
             lambda a, n: (["%%t%d = arith.truncf %s : f32 to %s" % (n, a[0], et)], "%%t%d" % n),
             et)
    return r, tt(sh, et)


def lin_scale_mask(t, s, sc, with_scale=True):
    """Scale and the family's mask (none, causal j > i + off, padding [B, N])."""
    B, H, M, N = s["B"], s["H"], s["M"], s["N"]
    sh = [B, H, M, N]
    m = s.get("mask", "none")
    ins = [(sc, sh, "f32", t.ID4)]
    if m == "pad":
        pad = t.arg("pad", [B, N], "i1")
        ins.append((pad, [B, N], "i1", "affine_map<(d0, d1, d2, d3) -> (d0, d3)>"))

    def body(a, n):
        ls = []
        y = a[0]
        if with_scale:
            ls += ["%%sc%d = arith.constant %r : f32" % (n, s["scale"]),
                   "%%y%d = arith.mulf %s, %%sc%d : f32" % (n, a[0], n)]
            y = "%%y%d" % n
        if m == "none":
            return ls, y
        if m == "causal":
            ls += causal_lines(n, s["off"])
            c = "%%fut%d" % n
        else:
            c = a[1]
        ls += ["%%fl%d = arith.constant %s : f32" % (n, s["fill"]),
               "%%r%d = arith.select %s, %%fl%d, %s : f32" % (n, c, n, y)]
        return ls, "%%r%d" % n
    return t.ew(ins, sh, body)


def emit_sinks_linalg(t, s):
    B, H, M, N = s["B"], s["H"], s["M"], s["N"]
    sc, v = lin_qkv(t, s)
    pert = s["pert"]
    x = lin_scale_mask(t, s, sc, with_scale=pert != "sink-scale-after")
    sk = t.arg("sinks", [H], s["sink_et"])
    colsh = [B, H, M, 1]
    set_ = s["sink_et"]
    col = t.ew([(sk, [H], set_, "affine_map<(d0, d1, d2, d3) -> (d1)>")], colsh,
               lambda a, n: ((["%%w%d = arith.extf %s : %s to f32" % (n, a[0], set_)], "%%w%d" % n)
                             if set_ != "f32" else ([], a[0])))
    csh = [B, H, M, N + 1]
    parts = [col, x] if pert == "sink-first" else [x, col]
    shs = [colsh, [B, H, M, N]] if pert == "sink-first" else [[B, H, M, N], colsh]
    cat = t.v()
    t.e("%s = tensor.concat dim(3) %s, %s : (%s, %s) -> %s" % (
        cat, parts[0], parts[1], tt(shs[0], "f32"), tt(shs[1], "f32"), tt(csh, "f32")))
    if pert == "sink-scale-after":
        cat = t.ew([(cat, csh, "f32", t.ID4)], csh, lambda a, n: (
            ["%%sc%d = arith.constant %r : f32" % (n, s["scale"]),
             "%%y%d = arith.mulf %s, %%sc%d : f32" % (n, a[0], n)], "%%y%d" % n))
    p = t.softmax(cat, csh)
    start = 1 if pert == "sink-slice-other" else 0
    ps = t.v()
    t.e("%s = tensor.extract_slice %s[0, 0, 0, %d] [%d, %d, %d, %d] [1, 1, 1, 1] : %s to %s" % (
        ps, p, start, B, H, M, N, tt(csh, "f32"), tt([B, H, M, N], "f32")))
    o = lin_pv_fix(t, s, ps, v)
    return lin_out(t, s, o)


def emit_clamp_linalg(t, s):
    """linalg: the additive mask (finfo.min padding and causal parts, HF's to_4d) as a
    [B, 1, M, N] tensor of its own, added to the scaled scores, then the clamp (a generic of
    its own: select(x > lowest, x, lowest), or maximumf, which passes.md refuses)."""
    B, H, M, N = s["B"], s["H"], s["M"], s["N"]
    sh = [B, H, M, N]
    msh = [B, 1, M, N]
    sc, v = lin_qkv(t, s)
    pad = t.arg("pad", [B, N], "i1") if "pad" in s["mask"] else None
    cv = s.get("clamp_val", LOWEST_S)
    kind = s["clamp"]

    def clamp_lines(y, n):
        if kind in ("maximum", "generic_max"):
            return ["%%lo%d = arith.constant %s : f32" % (n, cv),
                    "%%cl%d = arith.maximumf %s, %%lo%d : f32" % (n, y, n)], "%%cl%d" % n
        return ["%%lo%d = arith.constant %s : f32" % (n, cv),
                "%%g%d = arith.cmpf ogt, %s, %%lo%d : f32" % (n, y, n),
                "%%cl%d = arith.select %%g%d, %s, %%lo%d : f32" % (n, n, y, n)], "%%cl%d" % n

    def mask_body(a, n):
        ls = ["%%zz%d = arith.constant 0.0 : f32" % n,
              "%%mn%d = arith.constant %s : f32" % (n, LOWEST_S)]
        cur = "%%zz%d" % n
        if pad is not None:
            ls += ["%%pp%d = arith.select %s, %%mn%d, %%zz%d : f32" % (n, a[0], n, n)]
            cur = "%%pp%d" % n
        if "causal" in s["mask"]:
            ls += causal_lines(n, s["off"])
            ls += ["%%cp%d = arith.select %%fut%d, %%mn%d, %%zz%d : f32" % (n, n, n, n),
                   "%%ac%d = arith.addf %s, %%cp%d : f32" % (n, cur, n)]
            cur = "%%ac%d" % n
        return ls, cur
    if pad is not None:
        mask = t.ew([(pad, [B, N], "i1", "affine_map<(d0, d1, d2, d3) -> (d0, d3)>")], msh,
                    mask_body)
    else:
        mask = t.ew([], msh, mask_body)
    before = s["pert"] == "clamp-before-mask"

    def body1(a, n):
        ls = ["%%sc%d = arith.constant %r : f32" % (n, s["scale"]),
              "%%y%d = arith.mulf %s, %%sc%d : f32" % (n, a[0], n)]
        y = "%%y%d" % n
        if before:
            l2, y = clamp_lines(y, n)
            ls += l2
        ls += ["%%am%d = arith.addf %s, %s : f32" % (n, y, a[1])]
        return ls, "%%am%d" % n
    x = t.ew([(sc, sh, "f32", t.ID4),
              (mask, msh, "f32", "affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>")], sh, body1)
    if not before:
        x = t.ew([(x, sh, "f32", t.ID4)], sh, lambda a, n: clamp_lines(a[0], n))
    p = t.softmax(x, sh)
    o = lin_pv_fix(t, s, p, v)
    return lin_out(t, s, o)


def emit_postzero_linalg(t, s):
    """linalg ESPnet / row guard: an i1 padding tensor [B, N] (true: padded) selected in the
    scores' generic, linalg.softmax, a generic zeroing P (the guard: all_j(hidden) by a
    reduction first)."""
    B, H, M, N = s["B"], s["H"], s["M"], s["N"]
    sh = [B, H, M, N]
    sc, v = lin_qkv(t, s)
    pad = t.arg("pad", [B, N], "i1")
    kmap = "affine_map<(d0, d1, d2, d3) -> (d0, d3)>"
    other = t.arg("other", [B, N], "i1") if s["pert"] in ("zero-other-mask",
                                                          "guard-other-mask") else pad
    zv = s.get("zero_val", "0.0")
    guard = s["zero"] == "guard"

    def hidden_lines(pv, n):
        c = pv
        ls = []
        if guard or s["off"]:
            ls += causal_lines(n, s["off"])
            ls += ["%%hd%d = arith.ori %s, %%fut%d : i1" % (n, pv, n)]
            c = "%%hd%d" % n
        return ls, c

    def body1(a, n):
        ls = ["%%sc%d = arith.constant %r : f32" % (n, s["scale"]),
              "%%y%d = arith.mulf %s, %%sc%d : f32" % (n, a[0], n)]
        l2, c = hidden_lines(a[1], n)
        ls += l2 + ["%%fl%d = arith.constant %s : f32" % (n, s["fill"]),
                    "%%r%d = arith.select %s, %%fl%d, %%y%d : f32" % (n, c, n, n)]
        return ls, "%%r%d" % n
    x = t.ew([(sc, sh, "f32", t.ID4), (pad, [B, N], "i1", kmap)], sh, body1)
    p = t.softmax(x, sh)
    if not guard:
        def body2(a, n):
            l2, c = hidden_lines(a[1], n)
            return l2 + ["%%zv%d = arith.constant %s : f32" % (n, zv),
                         "%%r%d = arith.select %s, %%zv%d, %s : f32" % (n, c, n, a[0])], \
                "%%r%d" % n
        p = t.ew([(p, sh, "f32", t.ID4), (other, [B, N], "i1", kmap)], sh, body2)
    else:
        hsh = [B, H, M, N]
        hid = t.ew([(other, [B, N], "i1", kmap)], hsh, lambda a, n: hidden_lines(a[0], n),
                   "i1")
        tr = t.v("c")
        t.e("%s = arith.constant true" % tr)
        rsh = [B, H, M]
        init = t.v("f")
        t.e("%s = linalg.fill ins(%s : i1) outs(%s : %s) -> %s" % (
            init, tr, t.empty(rsh, "i1"), tt(rsh, "i1"), tt(rsh, "i1")))
        allh = t.v()
        t.e("%s = linalg.reduce ins(%s : %s) outs(%s : %s) dimensions = [3]" % (
            allh, hid, tt(hsh, "i1"), init, tt(rsh, "i1")))
        n = t.n
        t.e("  (%%ia%d: i1, %%ib%d: i1) {" % (n, n))
        t.e("    %%an%d = arith.andi %%ia%d, %%ib%d : i1" % (n, n, n))
        t.e("    linalg.yield %%an%d : i1" % n)
        t.e("  }")
        p = t.ew([(p, sh, "f32", t.ID4),
                  (allh, rsh, "i1", "affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>")], sh,
                 lambda a, n: (["%%zv%d = arith.constant %s : f32" % (n, zv),
                                "%%r%d = arith.select %s, %%zv%d, %s : f32" % (n, a[1], n, a[0])],
                               "%%r%d" % n))
    o = lin_pv_fix(t, s, p, v)
    return lin_out(t, s, o)


EMIT = {
    ("tosa", "sinks"): (T, emit_sinks_tosa),
    ("tosa", "views"): (T, emit_views_tosa),
    ("tosa", "mqafold"): (T, emit_mqafold_tosa),
    ("tosa", "clamp"): (T, emit_clamp_tosa),
    ("tosa", "postzero"): (T, emit_postzero_tosa),
    ("tosa", "datamask"): (T, emit_datamask_tosa),
    ("linalg", "sinks"): (L, emit_sinks_linalg),
    ("linalg", "clamp"): (L, emit_clamp_linalg),
    ("linalg", "postzero"): (L, emit_postzero_linalg),
}


def emit(s, name):
    cls, fn = EMIT[(s["dialect"], s["family"])]
    t = cls(name)
    res, rty = fn(t, s)
    return SFn(t.text(res, rty), t.int_args, [])
