// Softcapping (Gemma-2, Grok: c * tanh(s / c) between the scaled scores and
// the softmax) becomes the op's score_mod, a func.func private that fusion
// builds: tanh(s / c) * c (or tanh(s * k) * c where the source multiplies by
// k = 1/c as its type rounds it), in f32, with the source's constants. Masks
// after the cap (causal, KV length) are the op's; a bias after it that the
// kernel can compute joins score_mod after the cap (the op adds its bias
// before score_mod); a mask before it, any other bias after it, a scale
// after it, or a tanh that is not a cap stay unfused with their remarks.
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// RUN: fa-check --split-input-file --input-scale=3 %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-11: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run

// Gemma-2's softcap in f32: scale, w / 5, tanh, * 5, then a causal -inf select:
// score_mod = tanh(s / 5) * 5 in f32, causal_offset = 0. Cap 5 with inputs of
// scale 3 (fa-check): the tanh saturates.
// CHECK-LABEL: func.func @softcap_f32
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {causal_offset = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 2.500000e-01 : f32, score_mod = @[[FN:fa_softcap_[0-9]+]]}
// CHECK: func.func private @[[FN]](%arg0: f32, %arg1: index, %arg2: index, %arg3: index, %arg4: index) -> f32
// CHECK-DAG: %[[K:.*]] = arith.constant 5.000000e+00 : f32
// CHECK: %[[X:.*]] = arith.divf %arg0, %[[K]] : f32
// CHECK-NEXT: %[[T:.*]] = math.tanh %[[X]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.mulf %[[T]], %{{.*}} : f32
// CHECK-NEXT: return %[[R]] : f32
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @softcap_f32(%q: tensor<2x2x8x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<2x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>) outs(%sz : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) {
  ^bb0(%e: f32, %o: f32):
    %sc = arith.constant 0.25 : f32
    %cap = arith.constant 5.0 : f32
    %y = arith.mulf %e, %sc : f32
    %d = arith.divf %y, %cap : f32
    %t = math.tanh %d : f32
    %w = arith.mulf %t, %cap : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c = arith.cmpi ugt, %j, %i : index
    %ninf = arith.constant 0xFF800000 : f32
    %r = arith.select %c, %ninf, %w : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x8x8xf32>, tensor<2x2x8x16xf32>) outs(%oz : tensor<2x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x16xf32>
  return %o : tensor<2x2x8x16xf32>
}

// -----

// The same in bf16 as HF writes it for a bf16 model: the scores rounded to
// bf16, scaled, multiplied by 1/5 (0.2 rounded to bf16), tanh, * 5 in bf16,
// then the f32 softmax, O rounded to bf16 as the model does. score_mod mirrors the source's constants in f32;
// the source's bf16 roundings of the capped score are elided as the scores'
// own rounding is (docs/passes.md).
// CHECK-LABEL: func.func @softcap_bf16
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2) {causal_offset = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 2.500000e-01 : f32, score_mod = @[[FN:fa_softcap_[0-9]+]]}
// CHECK: func.func private @[[FN]](
// CHECK-DAG: %[[K:.*]] = arith.constant 0.200195313 : f32
// CHECK: %[[X:.*]] = arith.mulf %arg0, %[[K]] : f32
// CHECK-NEXT: math.tanh %[[X]] : f32
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @softcap_bf16(%q: tensor<2x2x8x16xbf16>, %k: tensor<2x2x8x16xbf16>, %v: tensor<2x2x8x16xbf16>) -> tensor<2x2x8x16xbf16> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<2x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x8x16xbf16>, tensor<2x2x8x16xbf16>) outs(%sz : tensor<2x2x8x8xf32>) {
  ^bb0(%a: bf16, %b: bf16, %acc: f32):
    %ae = arith.extf %a : bf16 to f32
    %be = arith.extf %b : bf16 to f32
    %m = arith.mulf %ae, %be : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) {
  ^bb0(%e: f32, %o: f32):
    %sc = arith.constant 0.25 : bf16
    %inv = arith.constant 0.2 : bf16
    %cap = arith.constant 5.0 : bf16
    %h = arith.truncf %e : f32 to bf16
    %y = arith.mulf %h, %sc : bf16
    %d = arith.mulf %y, %inv : bf16
    %t = math.tanh %d : bf16
    %w = arith.mulf %cap, %t : bf16
    %ninfh = arith.constant 0xFF80 : bf16
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c = arith.cmpi ugt, %j, %i : index
    %m = arith.select %c, %ninfh, %w : bf16
    %r = arith.extf %m : bf16 to f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x8x8xf32>, tensor<2x2x8x16xbf16>) outs(%oz : tensor<2x2x8x16xf32>) {
  ^bb0(%a: f32, %b: bf16, %acc: f32):
    %be = arith.extf %b : bf16 to f32
    %m = arith.mulf %a, %be : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x16xf32>
  %h0 = tensor.empty() : tensor<2x2x8x16xbf16>
  %oh = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%o : tensor<2x2x8x16xf32>) outs(%h0 : tensor<2x2x8x16xbf16>) {
  ^bb0(%a: f32, %b: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<2x2x8x16xbf16>
  return %oh : tensor<2x2x8x16xbf16>
}

// -----

// Near miss: tanh(s / 5) without the outer * 5 (no softcap: refused).
// CHECK-LABEL: func.func @tanh_no_outer_mul
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: a tanh on the scores is not a softcap c * tanh(s / c)
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @tanh_no_outer_mul(%q: tensor<2x2x8x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<2x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>) outs(%sz : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) {
  ^bb0(%e: f32, %o: f32):
    %cap = arith.constant 5.0 : f32
    %d = arith.divf %e, %cap : f32
    %t = math.tanh %d : f32
    linalg.yield %t : f32
  } -> tensor<2x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x8x8xf32>, tensor<2x2x8x16xf32>) outs(%oz : tensor<2x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x16xf32>
  return %o : tensor<2x2x8x16xf32>
}

// -----

// Near miss: 4 * tanh(s / 5).
// CHECK-LABEL: func.func @caps_differ
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: a softcap's constants inside and outside the tanh differ
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @caps_differ(%q: tensor<2x2x8x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<2x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>) outs(%sz : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) {
  ^bb0(%e: f32, %o: f32):
    %cap = arith.constant 5.0 : f32
    %cap2 = arith.constant 4.0 : f32
    %d = arith.divf %e, %cap : f32
    %t = math.tanh %d : f32
    %w = arith.mulf %t, %cap2 : f32
    linalg.yield %w : f32
  } -> tensor<2x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x8x8xf32>, tensor<2x2x8x16xf32>) outs(%oz : tensor<2x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x16xf32>
  return %o : tensor<2x2x8x16xf32>
}

// -----

// Near miss: 5 * tanh(s * 0.2001) (not 1/5 in f32).
// CHECK-LABEL: func.func @inverse_differs
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: a softcap's constants inside and outside the tanh differ
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @inverse_differs(%q: tensor<2x2x8x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<2x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>) outs(%sz : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) {
  ^bb0(%e: f32, %o: f32):
    %inv = arith.constant 0.2001 : f32
    %cap = arith.constant 5.0 : f32
    %d = arith.mulf %e, %inv : f32
    %t = math.tanh %d : f32
    %w = arith.mulf %t, %cap : f32
    linalg.yield %w : f32
  } -> tensor<2x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x8x8xf32>, tensor<2x2x8x16xf32>) outs(%oz : tensor<2x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x16xf32>
  return %o : tensor<2x2x8x16xf32>
}

// -----

// Near miss: the causal -inf applied before the cap: the source caps the
// masked scores to -5 (they keep weight), the op would drop them.
// CHECK-LABEL: func.func @mask_before_cap
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: a mask is applied before the softcap
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @mask_before_cap(%q: tensor<2x2x8x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<2x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>) outs(%sz : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) {
  ^bb0(%e: f32, %o: f32):
    %cap = arith.constant 5.0 : f32
    %i = linalg.index 2 : index
    %j = linalg.index 3 : index
    %c = arith.cmpi ugt, %j, %i : index
    %ninf = arith.constant 0xFF800000 : f32
    %m = arith.select %c, %ninf, %e : f32
    %d = arith.divf %m, %cap : f32
    %t = math.tanh %d : f32
    %w = arith.mulf %t, %cap : f32
    linalg.yield %w : f32
  } -> tensor<2x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x8x8xf32>, tensor<2x2x8x16xf32>) outs(%oz : tensor<2x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x16xf32>
  return %o : tensor<2x2x8x16xf32>
}

// -----

// A bias tensor (an argument: data of any size) added after the cap: the
// op adds its bias before score_mod, so score_mod reads it, as a capture,
// after the cap.
// CHECK-LABEL: func.func @bias_after_cap
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %arg3) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 1.000000e+00 : f32, score_mod = @[[FN:fa_bias_[0-9]+]]}
// CHECK: func.func private @[[FN]](%arg0: f32, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: tensor<2x2x8x8xf32>) -> f32
// CHECK: tensor.extract %arg5[%arg1, %arg2, %arg3, %arg4] : tensor<2x2x8x8xf32>
// CHECK: math.tanh
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention (its softcap and the bias after it computed in the kernel as score_mod)
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @bias_after_cap(%q: tensor<2x2x8x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>, %bias: tensor<2x2x8x8xf32>) -> tensor<2x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<2x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>) outs(%sz : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) {
  ^bb0(%e: f32, %bb: f32, %o: f32):
    %cap = arith.constant 5.0 : f32
    %d = arith.divf %e, %cap : f32
    %t = math.tanh %d : f32
    %w = arith.mulf %t, %cap : f32
    %r = arith.addf %w, %bb : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x8x8xf32>, tensor<2x2x8x16xf32>) outs(%oz : tensor<2x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x16xf32>
  return %o : tensor<2x2x8x16xf32>
}

// -----

// A padding mask added after the cap (Gemma-2 with a padding mask: 0 where
// pad[b, j] is set, f32's lowest elsewhere, test/Models/mask-models.test):
// computed from the indices and a [B, N] capture, so score_mod applies the
// cap and then adds it (IndexBias.c); rows of batch 1 whose keys are all
// padding average V in both.
// CHECK-LABEL: func.func @padding_after_cap
// CHECK: "fa.gridwise_attention"(%arg0, %arg1, %arg2, %arg3) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0, 0, 0>, scale = 1.000000e+00 : f32, score_mod = @[[FN:fa_bias_[0-9]+]]}
// CHECK: func.func private @[[FN]](%arg0: f32, %arg1: index, %arg2: index, %arg3: index, %arg4: index, %arg5: tensor<2x8xi64>) -> f32
// CHECK: tensor.extract %arg5[%arg1, %arg4] : tensor<2x8xi64>
// CHECK: %[[X:.*]] = arith.divf %arg0, %{{.*}} : f32
// CHECK-NEXT: %[[T:.*]] = math.tanh %[[X]] : f32
// CHECK-NEXT: %[[W:.*]] = arith.mulf %[[T]], %{{.*}} : f32
// CHECK: arith.addf %[[W]], %{{.*}} : f32
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention (its softcap and the bias after it computed in the kernel as score_mod)
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @padding_after_cap(%q: tensor<2x2x8x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>, %pad: tensor<2x8xi64>) -> tensor<2x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<2x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>) outs(%sz : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %bias = linalg.generic {indexing_maps = [affine_map<(b, h, m, n) -> (b, n)>, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%pad : tensor<2x8xi64>) outs(%s0 : tensor<2x2x8x8xf32>) {
  ^bb0(%p: i64, %o: f32):
    %c0 = arith.constant 0 : i64
    %keep = arith.cmpi ne, %p, %c0 : i64
    %zero = arith.constant 0.0 : f32
    %low = arith.constant -3.40282347E+38 : f32
    %r = arith.select %keep, %zero, %low : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) {
  ^bb0(%e: f32, %bb: f32, %o: f32):
    %cap = arith.constant 5.0 : f32
    %d = arith.divf %e, %cap : f32
    %t = math.tanh %d : f32
    %w = arith.mulf %t, %cap : f32
    %r = arith.addf %w, %bb : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x8x8xf32>, tensor<2x2x8x16xf32>) outs(%oz : tensor<2x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x16xf32>
  return %o : tensor<2x2x8x16xf32>
}

// -----

// Near miss: a bias after the cap that is a reduction (a sum over an axis
// of an argument): no score_mod computes it per score, and the op would add
// it before the cap.
// CHECK-LABEL: func.func @reduced_bias_after_cap
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: a bias is added after the softcap and is not one the kernel can compute from the indices and small tables
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @reduced_bias_after_cap(%q: tensor<2x2x8x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>, %parts: tensor<2x2x8x8x3xf32>) -> tensor<2x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<2x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>) outs(%sz : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %bias = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, r) -> (b, h, m, n, r)>, affine_map<(b, h, m, n, r) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%parts : tensor<2x2x8x8x3xf32>) outs(%sz : tensor<2x2x8x8xf32>) {
  ^bb0(%p: f32, %acc: f32):
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s, %bias : tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) {
  ^bb0(%e: f32, %bb: f32, %o: f32):
    %cap = arith.constant 5.0 : f32
    %d = arith.divf %e, %cap : f32
    %t = math.tanh %d : f32
    %w = arith.mulf %t, %cap : f32
    %r = arith.addf %w, %bb : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x8x8xf32>, tensor<2x2x8x16xf32>) outs(%oz : tensor<2x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x16xf32>
  return %o : tensor<2x2x8x16xf32>
}

// -----

// Near miss: scaled after the cap (2 * 5 * tanh(s / 5)).
// CHECK-LABEL: func.func @cap_then_scale
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: the scores are scaled after the softcap
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @cap_then_scale(%q: tensor<2x2x8x16xf32>, %k: tensor<2x2x8x16xf32>, %v: tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<2x2x8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>) outs(%sz : tensor<2x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s : tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) {
  ^bb0(%e: f32, %o: f32):
    %cap = arith.constant 5.0 : f32
    %two = arith.constant 2.0 : f32
    %d = arith.divf %e, %cap : f32
    %t = math.tanh %d : f32
    %w = arith.mulf %t, %cap : f32
    %r = arith.mulf %w, %two : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x8xf32>
  %p = linalg.softmax dimension(3) ins(%x : tensor<2x2x8x8xf32>) outs(%s0 : tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %o0 = tensor.empty() : tensor<2x2x8x16xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<2x2x8x16xf32>) -> tensor<2x2x8x16xf32>
  %o = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x2x8x8xf32>, tensor<2x2x8x16xf32>) outs(%oz : tensor<2x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<2x2x8x16xf32>
  return %o : tensor<2x2x8x16xf32>
}

// -----

// TOSA, with the guarded log-sum-exp beside it (test/Fusion/lse.mlir): 5 * tanh(s * 0.2)
// (tosa.mul by splat constants, tosa.tanh); the lse is the op's, of the capped scores.
// CHECK-LABEL: func.func @softcap_tosa_lse
// CHECK: %[[R:.*]]:2 = "fa.gridwise_attention"(%arg0, %arg1, %arg2) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.250000e-01 : f32, score_mod = @[[FN:fa_softcap_[0-9]+]]}
// CHECK: return %[[R]]#0, %[[R]]#1
// CHECK: func.func private @[[FN]](
// CHECK: arith.mulf %arg0, %{{.*}} : f32
// CHECK-NEXT: math.tanh
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @softcap_tosa_lse(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x12x16xf32>, %v: tensor<1x2x12x16xf32>) -> (tensor<1x2x8x16xf32>, tensor<1x2x8xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %scale = "tosa.const"() <{values = dense<0.125> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %inf = "tosa.const"() <{values = dense<0x7FF0000000000000> : tensor<1x1x1x1xf64>}> : () -> tensor<1x1x1x1xf64>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %s3 = tosa.const_shape {values = dense<[2, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3 = tosa.const_shape {values = dense<[2, 16, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v3 = tosa.const_shape {values = dense<[2, 12, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %p3 = tosa.const_shape {values = dense<[2, 8, 12]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s4 = tosa.const_shape {values = dense<[1, 2, 8, 12]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %o4 = tosa.const_shape {values = dense<[1, 2, 8, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %r3 = tosa.const_shape {values = dense<[1, 2, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %kt = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x2x12x16xf32>) -> tensor<1x2x16x12xf32>
  %qr = tosa.reshape %q, %s3 : (tensor<1x2x8x16xf32>, !tosa.shape<3>) -> tensor<2x8x16xf32>
  %kr = tosa.reshape %kt, %k3 : (tensor<1x2x16x12xf32>, !tosa.shape<3>) -> tensor<2x16x12xf32>
  %mm = tosa.matmul %qr, %kr, %zp, %zp : (tensor<2x8x16xf32>, tensor<2x16x12xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x12xf32>
  %s = tosa.reshape %mm, %s4 : (tensor<2x8x12xf32>, !tosa.shape<4>) -> tensor<1x2x8x12xf32>
  %x = tosa.mul %s, %scale, %shift : (tensor<1x2x8x12xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x12xf32>
  %inv = "tosa.const"() <{values = dense<0.2> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %cap = "tosa.const"() <{values = dense<5.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %xd = tosa.mul %x, %inv, %shift : (tensor<1x2x8x12xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x8x12xf32>
  %xt = tosa.tanh %xd : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x12xf32>
  %xc = tosa.mul %cap, %xt, %shift : (tensor<1x1x1x1xf32>, tensor<1x2x8x12xf32>, tensor<1xi8>) -> tensor<1x2x8x12xf32>
  %mx = tosa.reduce_max %xc {axis = 3 : i32} : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x1xf32>
  %ab = tosa.abs %mx : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %ab64 = tosa.cast %ab : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf64>
  %isinf = tosa.equal %ab64, %inf : (tensor<1x2x8x1xf64>, tensor<1x1x1x1xf64>) -> tensor<1x2x8x1xi1>
  %g = tosa.select %isinf, %zero, %mx : (tensor<1x2x8x1xi1>, tensor<1x1x1x1xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %g3 = tosa.reshape %g, %r3 : (tensor<1x2x8x1xf32>, !tosa.shape<3>) -> tensor<1x2x8xf32>
  %d = tosa.sub %xc, %g : (tensor<1x2x8x12xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x12xf32>
  %e = tosa.exp %d : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x12xf32>
  %se = tosa.reduce_sum %e {axis = 3 : i32} : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x1xf32>
  %se3 = tosa.reshape %se, %r3 : (tensor<1x2x8x1xf32>, !tosa.shape<3>) -> tensor<1x2x8xf32>
  %lg = tosa.log %se3 : (tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %lse = tosa.add %lg, %g3 : (tensor<1x2x8xf32>, tensor<1x2x8xf32>) -> tensor<1x2x8xf32>
  %d2 = tosa.sub %xc, %mx : (tensor<1x2x8x12xf32>, tensor<1x2x8x1xf32>) -> tensor<1x2x8x12xf32>
  %e2 = tosa.exp %d2 : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x12xf32>
  %l = tosa.reduce_sum %e2 {axis = 3 : i32} : (tensor<1x2x8x12xf32>) -> tensor<1x2x8x1xf32>
  %rl = tosa.reciprocal %l : (tensor<1x2x8x1xf32>) -> tensor<1x2x8x1xf32>
  %p = tosa.mul %e2, %rl, %shift : (tensor<1x2x8x12xf32>, tensor<1x2x8x1xf32>, tensor<1xi8>) -> tensor<1x2x8x12xf32>
  %pr = tosa.reshape %p, %p3 : (tensor<1x2x8x12xf32>, !tosa.shape<3>) -> tensor<2x8x12xf32>
  %vr = tosa.reshape %v, %v3 : (tensor<1x2x12x16xf32>, !tosa.shape<3>) -> tensor<2x12x16xf32>
  %o = tosa.matmul %pr, %vr, %zp, %zp : (tensor<2x8x12xf32>, tensor<2x12x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x16xf32>
  %o4r = tosa.reshape %o, %o4 : (tensor<2x8x16xf32>, !tosa.shape<4>) -> tensor<1x2x8x16xf32>
  return %o4r, %lse : tensor<1x2x8x16xf32>, tensor<1x2x8xf32>
}
