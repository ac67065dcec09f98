// Where fusion stops around the fused op's result (docs/passes.md): O's
// rounding to Q's f16 / bf16 and O's transpose to [B, S, H, D] are taken only
// when they are the only user, in the same block, and round to nearest; and a
// destination operand that only lends its shape (here another chain's P*V)
// never dies with a chain. Each function here once crashed fusion (a chain's
// rewrite erased the other chain's P*V, which was then matched again: freed
// memory), left invalid IR or blocked fusion (review of the layout folds).
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-check --split-input-file %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-5: fa-check: 1 functions: 1 agree, 0 disagree, 0 could not run


// O (f32) is rounded to f16 into a destination that is the other chain's
// P*V: both fuse; the first op writes f16 O, the other's result stays.
// CHECK-LABEL: func.func @rounding_into_other_chain(
// CHECK: "fa.gridwise_attention"(%arg3, %arg4, %arg5) {{.*}} -> tensor<1x2x8x16xf16>
// CHECK: %[[A:.*]] = "fa.gridwise_attention"(%arg0, %arg1, %arg2) {{.*}} -> tensor<1x2x8x16xf16>
// CHECK-NEXT: return %[[A]]
#it = ["parallel", "parallel", "parallel", "parallel", "reduction"]
#par = ["parallel", "parallel", "parallel", "parallel"]
#id = affine_map<(a, b, c, d) -> (a, b, c, d)>
func.func @rounding_into_other_chain(%q: tensor<1x2x8x16xf16>, %k: tensor<1x2x8x16xf16>, %v: tensor<1x2x8x16xf16>, %q2: tensor<1x2x8x16xf16>, %k2: tensor<1x2x4x16xf16>, %v2: tensor<1x2x4x16xf16>) -> tensor<1x2x8x16xf16> {
  %zero = arith.constant 0.0 : f32
  %zh = arith.constant 0.0 : f16
  %as0 = tensor.empty() : tensor<1x2x8x8xf32>
  %asz = linalg.fill ins(%zero : f32) outs(%as0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %as = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = #it} ins(%q, %k : tensor<1x2x8x16xf16>, tensor<1x2x8x16xf16>) outs(%asz : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %m = arith.mulf %ae, %be : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %ap = linalg.softmax dimension(3) ins(%as : tensor<1x2x8x8xf32>) outs(%as0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %aph0 = tensor.empty() : tensor<1x2x8x8xf16>
  %aph = linalg.generic {indexing_maps = [#id, #id], iterator_types = #par} ins(%ap : tensor<1x2x8x8xf32>) outs(%aph0 : tensor<1x2x8x8xf16>) {
  ^bb0(%x: f32, %y: f16):
    %h = arith.truncf %x : f32 to f16
    linalg.yield %h : f16
  } -> tensor<1x2x8x8xf16>
  %ao0 = tensor.empty() : tensor<1x2x8x16xf32>
  %aoz = linalg.fill ins(%zero : f32) outs(%ao0 : tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %ao = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = #it} ins(%aph, %v : tensor<1x2x8x8xf16>, tensor<1x2x8x16xf16>) outs(%aoz : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %m = arith.mulf %ae, %be : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x16xf32>
  %bs0 = tensor.empty() : tensor<1x2x8x4xf16>
  %bsz = linalg.fill ins(%zh : f16) outs(%bs0 : tensor<1x2x8x4xf16>) -> tensor<1x2x8x4xf16>
  %bs = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = #it} ins(%q2, %k2 : tensor<1x2x8x16xf16>, tensor<1x2x4x16xf16>) outs(%bsz : tensor<1x2x8x4xf16>) {
  ^bb0(%a: f16, %b: f16, %acc: f16):
    %m = arith.mulf %a, %b : f16
    %r = arith.addf %acc, %m : f16
    linalg.yield %r : f16
  } -> tensor<1x2x8x4xf16>
  %bp = linalg.softmax dimension(3) ins(%bs : tensor<1x2x8x4xf16>) outs(%bs0 : tensor<1x2x8x4xf16>) -> tensor<1x2x8x4xf16>
  %bo0 = tensor.empty() : tensor<1x2x8x16xf16>
  %boz = linalg.fill ins(%zh : f16) outs(%bo0 : tensor<1x2x8x16xf16>) -> tensor<1x2x8x16xf16>
  %bo = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = #it} ins(%bp, %v2 : tensor<1x2x8x4xf16>, tensor<1x2x4x16xf16>) outs(%boz : tensor<1x2x8x16xf16>) {
  ^bb0(%a: f16, %b: f16, %acc: f16):
    %m = arith.mulf %a, %b : f16
    %r = arith.addf %acc, %m : f16
    linalg.yield %r : f16
  } -> tensor<1x2x8x16xf16>
  %oc = linalg.generic {indexing_maps = [#id, #id], iterator_types = #par} ins(%ao : tensor<1x2x8x16xf32>) outs(%bo : tensor<1x2x8x16xf16>) {
  ^bb0(%x: f32, %y: f16):
    %h = arith.truncf %x : f32 to f16
    linalg.yield %h : f16
  } -> tensor<1x2x8x16xf16>
  return %oc : tensor<1x2x8x16xf16>
}

// -----

// O transposed to [B, S, H, D] into a destination that is the other chain's
// transposed (of that shape): both fuse, the first with o_bshd; the other's
// result, whose only user was that destination, is left unused.
// CHECK-LABEL: func.func @transpose_into_other_chain(
// CHECK: %[[A:.*]] = "fa.gridwise_attention"(%arg0, %arg1, %arg2) {{.*}}o_bshd{{.*}} -> tensor<1x8x2x16xf32>
// CHECK-NEXT: "fa.gridwise_attention"(%arg3, %arg4, %arg5)
// CHECK-NEXT: return %[[A]]
#it = ["parallel", "parallel", "parallel", "parallel", "reduction"]
#par = ["parallel", "parallel", "parallel", "parallel"]
#id = affine_map<(a, b, c, d) -> (a, b, c, d)>
func.func @transpose_into_other_chain(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>, %q2: tensor<1x2x8x16xf32>, %k2: tensor<1x2x4x16xf32>, %v2: tensor<1x2x4x16xf32>) -> tensor<1x8x2x16xf32> {
  %zero = arith.constant 0.0 : f32
  %as0 = tensor.empty() : tensor<1x2x8x8xf32>
  %asz = linalg.fill ins(%zero : f32) outs(%as0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %as = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = #it} ins(%q, %k : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) outs(%asz : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %ap = linalg.softmax dimension(3) ins(%as : tensor<1x2x8x8xf32>) outs(%as0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %ao0 = tensor.empty() : tensor<1x2x8x16xf32>
  %aoz = linalg.fill ins(%zero : f32) outs(%ao0 : tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %ao = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = #it} ins(%ap, %v : tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32>) outs(%aoz : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x16xf32>
  %bs0 = tensor.empty() : tensor<1x2x8x4xf32>
  %bsz = linalg.fill ins(%zero : f32) outs(%bs0 : tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32>
  %bs = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = #it} ins(%q2, %k2 : tensor<1x2x8x16xf32>, tensor<1x2x4x16xf32>) outs(%bsz : tensor<1x2x8x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x4xf32>
  %bp = linalg.softmax dimension(3) ins(%bs : tensor<1x2x8x4xf32>) outs(%bs0 : tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32>
  %bo0 = tensor.empty() : tensor<1x2x8x16xf32>
  %boz = linalg.fill ins(%zero : f32) outs(%bo0 : tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %bo = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = #it} ins(%bp, %v2 : tensor<1x2x8x4xf32>, tensor<1x2x4x16xf32>) outs(%boz : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x16xf32>
  %bc = tensor.empty() : tensor<1x8x2x16xf32>
  %bt = linalg.transpose ins(%bo : tensor<1x2x8x16xf32>) outs(%bc : tensor<1x8x2x16xf32>) permutation = [0, 2, 1, 3]
  %ot = linalg.transpose ins(%ao : tensor<1x2x8x16xf32>) outs(%bt : tensor<1x8x2x16xf32>) permutation = [0, 2, 1, 3]
  return %ot : tensor<1x8x2x16xf32>
}

// -----

// A rounding toward zero is not the op's (it rounds to nearest): f32 O.
// CHECK-LABEL: func.func @rounding_toward_zero(
// CHECK: %[[O:.*]] = "fa.gridwise_attention"({{.*}} -> tensor<1x2x8x16xf32>
// CHECK-NEXT: arith.truncf %[[O]] toward_zero
#it = ["parallel", "parallel", "parallel", "parallel", "reduction"]
#par = ["parallel", "parallel", "parallel", "parallel"]
#id = affine_map<(a, b, c, d) -> (a, b, c, d)>
func.func @rounding_toward_zero(%q: tensor<1x2x8x16xf16>, %k: tensor<1x2x8x16xf16>, %v: tensor<1x2x8x16xf16>) -> tensor<1x2x8x16xf16> {
  %zero = arith.constant 0.0 : f32
  %as0 = tensor.empty() : tensor<1x2x8x8xf32>
  %asz = linalg.fill ins(%zero : f32) outs(%as0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %as = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = #it} ins(%q, %k : tensor<1x2x8x16xf16>, tensor<1x2x8x16xf16>) outs(%asz : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %m = arith.mulf %ae, %be : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %ap = linalg.softmax dimension(3) ins(%as : tensor<1x2x8x8xf32>) outs(%as0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %aph0 = tensor.empty() : tensor<1x2x8x8xf16>
  %aph = linalg.generic {indexing_maps = [#id, #id], iterator_types = #par} ins(%ap : tensor<1x2x8x8xf32>) outs(%aph0 : tensor<1x2x8x8xf16>) {
  ^bb0(%x: f32, %y: f16):
    %h = arith.truncf %x : f32 to f16
    linalg.yield %h : f16
  } -> tensor<1x2x8x8xf16>
  %ao0 = tensor.empty() : tensor<1x2x8x16xf32>
  %aoz = linalg.fill ins(%zero : f32) outs(%ao0 : tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %ao = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = #it} ins(%aph, %v : tensor<1x2x8x8xf16>, tensor<1x2x8x16xf16>) outs(%aoz : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %m = arith.mulf %ae, %be : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x16xf32>
  %od = arith.truncf %ao toward_zero : tensor<1x2x8x16xf32> to tensor<1x2x8x16xf16>
  return %od : tensor<1x2x8x16xf16>
}

// -----

// The rounding sits in a region of its own: the op stays where P*V was,
// writing f32.
// CHECK-LABEL: func.func @rounding_in_region(
// CHECK: %[[O:.*]] = "fa.gridwise_attention"({{.*}} -> tensor<1x2x8x16xf32>
// CHECK: scf.execute_region
// CHECK-NEXT: arith.truncf %[[O]]
#it = ["parallel", "parallel", "parallel", "parallel", "reduction"]
#par = ["parallel", "parallel", "parallel", "parallel"]
#id = affine_map<(a, b, c, d) -> (a, b, c, d)>
func.func @rounding_in_region(%q: tensor<1x2x8x16xf16>, %k: tensor<1x2x8x16xf16>, %v: tensor<1x2x8x16xf16>) -> tensor<1x2x8x16xf16> {
  %zero = arith.constant 0.0 : f32
  %as0 = tensor.empty() : tensor<1x2x8x8xf32>
  %asz = linalg.fill ins(%zero : f32) outs(%as0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %as = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = #it} ins(%q, %k : tensor<1x2x8x16xf16>, tensor<1x2x8x16xf16>) outs(%asz : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %m = arith.mulf %ae, %be : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %ap = linalg.softmax dimension(3) ins(%as : tensor<1x2x8x8xf32>) outs(%as0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %aph0 = tensor.empty() : tensor<1x2x8x8xf16>
  %aph = linalg.generic {indexing_maps = [#id, #id], iterator_types = #par} ins(%ap : tensor<1x2x8x8xf32>) outs(%aph0 : tensor<1x2x8x8xf16>) {
  ^bb0(%x: f32, %y: f16):
    %h = arith.truncf %x : f32 to f16
    linalg.yield %h : f16
  } -> tensor<1x2x8x8xf16>
  %ao0 = tensor.empty() : tensor<1x2x8x16xf32>
  %aoz = linalg.fill ins(%zero : f32) outs(%ao0 : tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %ao = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = #it} ins(%aph, %v : tensor<1x2x8x8xf16>, tensor<1x2x8x16xf16>) outs(%aoz : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f16, %b: f16, %acc: f32):
    %ae = arith.extf %a : f16 to f32
    %be = arith.extf %b : f16 to f32
    %m = arith.mulf %ae, %be : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x16xf32>
  %r = scf.execute_region -> tensor<1x2x8x16xf16> {
    %od = arith.truncf %ao : tensor<1x2x8x16xf32> to tensor<1x2x8x16xf16>
    scf.yield %od : tensor<1x2x8x16xf16>
  }
  return %r : tensor<1x2x8x16xf16>
}

// -----

// An extension to f64 after P*V is no rounding of O: the op writes f32 and
// the extension stays (rounded back for fa-check, which takes no f64).
// CHECK-LABEL: func.func @extended_to_f64(
// CHECK: %[[O:.*]] = "fa.gridwise_attention"({{.*}} -> tensor<1x2x8x16xf32>
// CHECK-NEXT: arith.extf %[[O]]
#it = ["parallel", "parallel", "parallel", "parallel", "reduction"]
#par = ["parallel", "parallel", "parallel", "parallel"]
#id = affine_map<(a, b, c, d) -> (a, b, c, d)>
func.func @extended_to_f64(%q: tensor<1x2x8x16xf32>, %k: tensor<1x2x8x16xf32>, %v: tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %as0 = tensor.empty() : tensor<1x2x8x8xf32>
  %asz = linalg.fill ins(%zero : f32) outs(%as0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %as = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, d) -> (b, h, m, d)>, affine_map<(b, h, m, n, d) -> (b, h, n, d)>, affine_map<(b, h, m, n, d) -> (b, h, m, n)>], iterator_types = #it} ins(%q, %k : tensor<1x2x8x16xf32>, tensor<1x2x8x16xf32>) outs(%asz : tensor<1x2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x8xf32>
  %ap = linalg.softmax dimension(3) ins(%as : tensor<1x2x8x8xf32>) outs(%as0 : tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %ao0 = tensor.empty() : tensor<1x2x8x16xf32>
  %aoz = linalg.fill ins(%zero : f32) outs(%ao0 : tensor<1x2x8x16xf32>) -> tensor<1x2x8x16xf32>
  %ao = linalg.generic {indexing_maps = [affine_map<(b, h, m, d, n) -> (b, h, m, n)>, affine_map<(b, h, m, d, n) -> (b, h, n, d)>, affine_map<(b, h, m, d, n) -> (b, h, m, d)>], iterator_types = #it} ins(%ap, %v : tensor<1x2x8x8xf32>, tensor<1x2x8x16xf32>) outs(%aoz : tensor<1x2x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %m : f32
    linalg.yield %r : f32
  } -> tensor<1x2x8x16xf32>
  %od = arith.extf %ao : tensor<1x2x8x16xf32> to tensor<1x2x8x16xf64>
  %oe = arith.truncf %od : tensor<1x2x8x16xf64> to tensor<1x2x8x16xf32>
  return %oe : tensor<1x2x8x16xf32>
}
