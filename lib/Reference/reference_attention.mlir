// The naive reference of one fa.gridwise_attention, as fa-decompose-attention
// specialises it (docs/passes.md): what docs/dialect.md says the op means, written
// element by element with no tiling, no online softmax and nothing shared with
// the lowerings, so that fa-check can compare our kernels with it on
// hand-written fa ops. All arithmetic in f32.
//   s[b,h,i,j] = score_mod(scale * sum_d Q[b,h,i,d] K[b,h/G,j,d] + bias[b,h,i,j],
//                          b, h, i, j, captures...)
//                where key j is visible to query i (causal_offset, kv_len and
//                mask(b, h, i, j, captures...)), else -inf
//   m = max(max_j s, sinks[h]), p = exp(s - m) (0 where m = -inf: a fully
//   masked row), l = sum_j p + exp(sinks[h] - m), O = (sum_j p V[b,h/G,j,:]) / l
//   (0 where l = 0), lse = m + log l (-inf where l = 0); without sinks, their
//   terms are absent.
// Each tensor is indexed in the order the op's layout attributes keep its
// dims ({{Q_INDEX}} etc.: [b, h, i, d], [b, i, h, d] with q_bshd, ...).
//#vars Q_INDEX NAME ARGS RESULTS SCALE QT Q_HEADS Q_SEQ V_HEADS VT V_SEQ K_INDEX KT E BT BE
//#vars CAUSAL_OFFSET KVT KVE O_SIZES OE O_MAP V_INDEX OT LT MASK_FN MOD_FN CAPS CAP_TYPES ST SE
//#flags HALF BIAS BIAS_HALF CAUSAL KVLEN KVLEN_PER_HEAD OUT_HALF LSE MASK MOD SINKS SINKS_HALF

// The op's functions, declared (the module defines them; the declarations are
// dropped when the reference joins it).
//#if MASK
func.func private @{{MASK_FN}}(index, index, index, index{{CAP_TYPES}}) -> i1
//#endif
//#if MOD
func.func private @{{MOD_FN}}(f32, index, index, index, index{{CAP_TYPES}}) -> f32
//#endif
func.func private @{{NAME}}({{ARGS}}) -> ({{RESULTS}}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant {{SCALE}} : f32
  %B = tensor.dim %q, %c0 : {{QT}}
  %Hq = tensor.dim %q, %c{{Q_HEADS}} : {{QT}}
  %M = tensor.dim %q, %c{{Q_SEQ}} : {{QT}}
  %D = tensor.dim %q, %c3 : {{QT}}
  %Hkv = tensor.dim %v, %c{{V_HEADS}} : {{VT}}
  %N = tensor.dim %v, %c{{V_SEQ}} : {{VT}}
  %Dv = tensor.dim %v, %c3 : {{VT}}
  %G = arith.divui %Hq, %Hkv : index

  // Scores, masked.
  %se = tensor.empty(%B, %Hq, %M, %N) : tensor<?x?x?x?xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%se : tensor<?x?x?x?xf32>) {
  ^bb0(%out: f32):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %hk = arith.divui %h, %G : index
    %dot = scf.for %d = %c0 to %D step %c1 iter_args(%acc = %zero) -> (f32) {
      %x = tensor.extract %q[{{Q_INDEX}}] : {{QT}}
      %y = tensor.extract %k[{{K_INDEX}}] : {{KT}}
//#if HALF
      %xf = arith.extf %x : {{E}} to f32
      %yf = arith.extf %y : {{E}} to f32
      %xy = arith.mulf %xf, %yf : f32
//#else
      %xy = arith.mulf %x, %y : f32
//#endif
      %next = arith.addf %acc, %xy : f32
      scf.yield %next : f32
    }
    %scaled = arith.mulf %dot, %scale : f32
//#if BIAS
    // The bias broadcasts along its unit dims.
    %bd0 = tensor.dim %bias, %c0 : {{BT}}
    %bd1 = tensor.dim %bias, %c1 : {{BT}}
    %bd2 = tensor.dim %bias, %c2 : {{BT}}
    %bd3 = tensor.dim %bias, %c3 : {{BT}}
    %u0 = arith.cmpi eq, %bd0, %c1 : index
    %u1 = arith.cmpi eq, %bd1, %c1 : index
    %u2 = arith.cmpi eq, %bd2, %c1 : index
    %u3 = arith.cmpi eq, %bd3, %c1 : index
    %bb = arith.select %u0, %c0, %b : index
    %bh = arith.select %u1, %c0, %h : index
    %bi = arith.select %u2, %c0, %i : index
    %bj = arith.select %u3, %c0, %j : index
    %bv = tensor.extract %bias[%bb, %bh, %bi, %bj] : {{BT}}
//#if BIAS_HALF
    %bf = arith.extf %bv : {{BE}} to f32
    %sb = arith.addf %scaled, %bf : f32
//#else
    %sb = arith.addf %scaled, %bv : f32
//#endif
//#else
    %sb = arith.addf %scaled, %zero : f32
//#endif
//#if MOD
    %sm = func.call @{{MOD_FN}}(%sb, %b, %h, %i, %j{{CAPS}}) : (f32, index, index, index, index{{CAP_TYPES}}) -> f32
//#else
    %sm = arith.addf %sb, %zero : f32
//#endif
    %all = arith.constant true
//#if CAUSAL
    %off = arith.constant {{CAUSAL_OFFSET}} : index
    %lim = arith.addi %i, %off : index
    %before = arith.cmpi sle, %j, %lim : index
//#else
    %before = arith.andi %all, %all : i1
//#endif
//#if KVLEN
//#if KVLEN_PER_HEAD
    %kvv = tensor.extract %kvl[%b, %h] : {{KVT}}
//#else
    %kvv = tensor.extract %kvl[%b] : {{KVT}}
//#endif
    %kvi = arith.index_cast %kvv : {{KVE}} to index
    %inkv = arith.cmpi slt, %j, %kvi : index
//#else
    %inkv = arith.andi %all, %all : i1
//#endif
//#if MASK
    %inmask = func.call @{{MASK_FN}}(%b, %h, %i, %j{{CAPS}}) : (index, index, index, index{{CAP_TYPES}}) -> i1
//#else
    %inmask = arith.andi %all, %all : i1
//#endif
    %vis0 = arith.andi %before, %inkv : i1
    %vis = arith.andi %vis0, %inmask : i1
    %r = arith.select %vis, %sm, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<?x?x?x?xf32>

  // Row max and sum of exp(s - m).
  %re = tensor.empty(%B, %Hq, %M) : tensor<?x?x?xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%re : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %m0 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>,
                                         affine_map<(b, h, i, j) -> (b, h, i)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%s : tensor<?x?x?x?xf32>) outs(%minit : tensor<?x?x?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.maximumf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<?x?x?xf32>
//#if SINKS
  // The sink of head h joins the max.
  %m = linalg.generic {indexing_maps = [affine_map<(b, h, i) -> (b, h, i)>,
                                        affine_map<(b, h, i) -> (b, h, i)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%m0 : tensor<?x?x?xf32>) outs(%re : tensor<?x?x?xf32>) {
  ^bb0(%x: f32, %out: f32):
    %h = linalg.index 1 : index
    %sk = tensor.extract %sinks[%h] : {{ST}}
//#if SINKS_HALF
    %skf = arith.extf %sk : {{SE}} to f32
//#else
    %skf = arith.addf %sk, %zero : f32
//#endif
    %y = arith.maximumf %x, %skf : f32
    linalg.yield %y : f32
  } -> tensor<?x?x?xf32>
//#else
  %m = tensor.cast %m0 : tensor<?x?x?xf32> to tensor<?x?x?xf32>
//#endif
  %p = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>,
                                        affine_map<(b, h, i, j) -> (b, h, i)>,
                                        affine_map<(b, h, i, j) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s, %m : tensor<?x?x?x?xf32>, tensor<?x?x?xf32>) outs(%se : tensor<?x?x?x?xf32>) {
  ^bb0(%x: f32, %mx: f32, %out: f32):
    %none = arith.cmpf oeq, %mx, %ninf : f32
    %dx = arith.subf %x, %mx : f32
    %ex = math.exp %dx : f32
    %y = arith.select %none, %zero, %ex : f32
    linalg.yield %y : f32
  } -> tensor<?x?x?x?xf32>
  %linit = linalg.fill ins(%zero : f32) outs(%re : tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %l0 = linalg.generic {indexing_maps = [affine_map<(b, h, i, j) -> (b, h, i, j)>,
                                         affine_map<(b, h, i, j) -> (b, h, i)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%p : tensor<?x?x?x?xf32>) outs(%linit : tensor<?x?x?xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %y = arith.addf %x, %acc : f32
    linalg.yield %y : f32
  } -> tensor<?x?x?xf32>
//#if SINKS
  // exp(sinks[h] - m) joins the sum (0 where m = -inf: the sink is -inf too).
  %l = linalg.generic {indexing_maps = [affine_map<(b, h, i) -> (b, h, i)>,
                                        affine_map<(b, h, i) -> (b, h, i)>,
                                        affine_map<(b, h, i) -> (b, h, i)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%l0, %m : tensor<?x?x?xf32>, tensor<?x?x?xf32>) outs(%re : tensor<?x?x?xf32>) {
  ^bb0(%x: f32, %mx: f32, %out: f32):
    %h = linalg.index 1 : index
    %sk = tensor.extract %sinks[%h] : {{ST}}
//#if SINKS_HALF
    %skf = arith.extf %sk : {{SE}} to f32
//#else
    %skf = arith.addf %sk, %zero : f32
//#endif
    %none = arith.cmpf oeq, %mx, %ninf : f32
    %d = arith.subf %skf, %mx : f32
    %e = math.exp %d : f32
    %e0 = arith.select %none, %zero, %e : f32
    %y = arith.addf %x, %e0 : f32
    linalg.yield %y : f32
  } -> tensor<?x?x?xf32>
//#else
  %l = tensor.cast %l0 : tensor<?x?x?xf32> to tensor<?x?x?xf32>
//#endif

  // O = (sum_j p V) / l.
  %oe = tensor.empty({{O_SIZES}}) : tensor<?x?x?x?x{{OE}}>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, i, e) -> (b, h, i)>,
                                        affine_map<(b, h, i, e) -> ({{O_MAP}})>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%l : tensor<?x?x?xf32>) outs(%oe : tensor<?x?x?x?x{{OE}}>) {
  ^bb0(%sum: f32, %out: {{OE}}):
    %b = linalg.index 0 : index
    %h = linalg.index 1 : index
    %i = linalg.index 2 : index
    %e = linalg.index 3 : index
    %hk = arith.divui %h, %G : index
    %pv = scf.for %j = %c0 to %N step %c1 iter_args(%acc = %zero) -> (f32) {
      %pj = tensor.extract %p[%b, %h, %i, %j] : tensor<?x?x?x?xf32>
      %vj = tensor.extract %v[{{V_INDEX}}] : {{VT}}
//#if HALF
      %vf = arith.extf %vj : {{E}} to f32
      %t = arith.mulf %pj, %vf : f32
//#else
      %t = arith.mulf %pj, %vj : f32
//#endif
      %next = arith.addf %acc, %t : f32
      scf.yield %next : f32
    }
    %empty = arith.cmpf oeq, %sum, %zero : f32
    %q0 = arith.divf %pv, %sum : f32
    %y = arith.select %empty, %zero, %q0 : f32
//#if OUT_HALF
    %yo = arith.truncf %y : f32 to {{OE}}
    linalg.yield %yo : {{OE}}
//#else
    linalg.yield %y : f32
//#endif
  } -> tensor<?x?x?x?x{{OE}}>
  %oc = tensor.cast %o : tensor<?x?x?x?x{{OE}}> to {{OT}}
//#if LSE
  %lse = linalg.generic {indexing_maps = [affine_map<(b, h, i) -> (b, h, i)>,
                                          affine_map<(b, h, i) -> (b, h, i)>,
                                          affine_map<(b, h, i) -> (b, h, i)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%m, %l : tensor<?x?x?xf32>, tensor<?x?x?xf32>) outs(%re : tensor<?x?x?xf32>) {
  ^bb0(%mx: f32, %sum: f32, %out: f32):
    %empty = arith.cmpf oeq, %sum, %zero : f32
    %lg = math.log %sum : f32
    %y0 = arith.addf %mx, %lg : f32
    %y = arith.select %empty, %ninf, %y0 : f32
    linalg.yield %y : f32
  } -> tensor<?x?x?xf32>
  %lsec = tensor.cast %lse : tensor<?x?x?xf32> to {{LT}}
  return %oc, %lsec : {{OT}}, {{LT}}
//#else
  return %oc : {{OT}}
//#endif
}
