// Masks computed exactly (issue 35): a compare is read as a causal offset only
// where every value of its index arithmetic fits its type (no integer wraps, no
// conversion truncates, no float sum rounds: lib/Fusion/AttentionMatch.c,
// spanOf), and a fractional float offset becomes the integer offset the
// compare means (j > i + 2.5 over integers is j >= i + 3). The fused cases
// agree with the unfused program lowered by upstream MLIR (fa-check).
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// RUN: fa-check --split-input-file %s | FileCheck %s --check-prefix=AGREE
// AGREE-COUNT-8: 1 agree, 0 disagree, 0 could not run

// CHECK-LABEL: func.func @i8_wrap
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: a mask's index arithmetic may wrap or round in its type
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @i8_wrap(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %j8 = arith.index_cast %j : index to i8
    %i8 = arith.index_cast %i : index to i8
    %off = arith.constant 125 : i8
    %lim = arith.addi %j8, %off : i8
    %c = arith.cmpi sgt, %lim, %i8 : i8
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// CHECK-LABEL: func.func @i32_wrap
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: a mask's index arithmetic may wrap or round in its type
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @i32_wrap(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %j8 = arith.index_cast %j : index to i32
    %i8 = arith.index_cast %i : index to i32
    %off = arith.constant 2147483644 : i32
    %lim = arith.addi %j8, %off : i32
    %c = arith.cmpi sgt, %lim, %i8 : i32
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// i8(j) + 1 > i8(i) wraps nowhere for 8 keys and rows: keys j >= i masked.
// CHECK-LABEL: func.func @i8_exact
// CHECK: "fa.gridwise_attention"({{.*}}causal_offset = -1 : i64
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @i8_exact(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %j8 = arith.index_cast %j : index to i8
    %i8 = arith.index_cast %i : index to i8
    %off = arith.constant 1 : i8
    %lim = arith.addi %j8, %off : i8
    %c = arith.cmpi sgt, %lim, %i8 : i8
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// fj >= fi + 1.5: keys j >= i + 2 masked (visible j <= i + 1).
// CHECK-LABEL: func.func @float_plus_1_5
// CHECK: "fa.gridwise_attention"({{.*}}causal_offset = 1 : i64
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @float_plus_1_5(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %i64 = arith.index_cast %i : index to i64
    %fj = arith.sitofp %j64 : i64 to f32
    %fi = arith.sitofp %i64 : i64 to f32
    %off = arith.constant 1.5 : f32
    %lim = arith.addf %fi, %off : f32
    %c = arith.cmpf oge, %fj, %lim : f32
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// fj > fi - 0.5: keys j >= i masked (visible j <= i - 1).
// CHECK-LABEL: func.func @float_minus_0_5
// CHECK: "fa.gridwise_attention"({{.*}}causal_offset = -1 : i64
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @float_minus_0_5(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %i64 = arith.index_cast %i : index to i64
    %fj = arith.sitofp %j64 : i64 to f32
    %fi = arith.sitofp %i64 : i64 to f32
    %off = arith.constant 0.5 : f32
    %lim = arith.subf %fi, %off : f32
    %c = arith.cmpf ogt, %fj, %lim : f32
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// fj >= fi + 1e-8 rounds to fj >= fi in f32 for i >= 1 but not for i = 0: refused.
// CHECK-LABEL: func.func @float_plus_1e_8
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: a mask's index arithmetic may wrap or round in its type
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @float_plus_1e_8(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %i64 = arith.index_cast %i : index to i64
    %fj = arith.sitofp %j64 : i64 to f32
    %fi = arith.sitofp %i64 : i64 to f32
    %off = arith.constant 1.0e-8 : f32
    %lim = arith.addf %fi, %off : f32
    %c = arith.cmpf oge, %fj, %lim : f32
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// in f16 the indices 0..7 and 2.5 are exact: keys j > i + 2.5, i.e. j >= i + 3, masked.
// CHECK-LABEL: func.func @f16_exact
// CHECK: "fa.gridwise_attention"({{.*}}causal_offset = 2 : i64
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f16_exact(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %i64 = arith.index_cast %i : index to i64
    %fj = arith.sitofp %j64 : i64 to f16
    %fi = arith.sitofp %i64 : i64 to f16
    %off = arith.constant 2.5 : f16
    %lim = arith.addf %fi, %off : f16
    %c = arith.cmpf ogt, %fj, %lim : f16
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// i8(j) of an i64 truncates nothing here, but i8(j + 250) does: refused.
// CHECK-LABEL: func.func @trunc_wrap
// CHECK-NOT: fa.gridwise_attention
// WHY: remark: fa-fuse-attention: not fused: a mask's index arithmetic may wrap or round in its type
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @trunc_wrap(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %j64 = arith.index_cast %j : index to i64
    %i64 = arith.index_cast %i : index to i64
    %off = arith.constant 250 : i64
    %lim = arith.addi %j64, %off : i64
    %t = arith.trunci %lim : i64 to i8
    %i8 = arith.trunci %i64 : i64 to i8
    %c = arith.cmpi sgt, %t, %i8 : i8
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

