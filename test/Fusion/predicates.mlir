// Every arith.cmpi predicate and every arith.cmpf predicate the matcher
// accepts, in a mask select(cond, -inf, s) on query/key indices: each is read
// exactly (unsigned compares only where neither side can be negative, cmpf
// on exact iotas, where ordered and unordered agree) or refused with a reason.
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY

// masked iff j eq i
// CHECK-LABEL: func.func @cmpi_eq
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// WHY: remark: fa-fuse-attention: not fused: a mask on the scores is not causal (keys after query + offset)
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpi_eq(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi eq, %j, %i : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff j ne i
// CHECK-LABEL: func.func @cmpi_ne
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// WHY: remark: fa-fuse-attention: not fused: a mask on the scores is not causal (keys after query + offset)
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpi_ne(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi ne, %j, %i : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff j slt i
// CHECK-LABEL: func.func @cmpi_slt
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// WHY: remark: fa-fuse-attention: not fused: a mask on the scores is not causal (keys after query + offset)
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpi_slt(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi slt, %j, %i : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff j sle i
// CHECK-LABEL: func.func @cmpi_sle
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// WHY: remark: fa-fuse-attention: not fused: a mask on the scores is not causal (keys after query + offset)
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpi_sle(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi sle, %j, %i : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff j sgt i
// CHECK-LABEL: func.func @cmpi_sgt
// CHECK: "fa.gridwise_attention"(%{{.*}}) {causal_offset = 0 : i64, k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpi_sgt(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi sgt, %j, %i : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff j sge i
// CHECK-LABEL: func.func @cmpi_sge
// CHECK: "fa.gridwise_attention"(%{{.*}}) {causal_offset = -1 : i64, k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpi_sge(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi sge, %j, %i : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff j ult i
// CHECK-LABEL: func.func @cmpi_ult
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// WHY: remark: fa-fuse-attention: not fused: a mask on the scores is not causal (keys after query + offset)
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpi_ult(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi ult, %j, %i : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff j ule i
// CHECK-LABEL: func.func @cmpi_ule
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// WHY: remark: fa-fuse-attention: not fused: a mask on the scores is not causal (keys after query + offset)
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpi_ule(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi ule, %j, %i : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff j ugt i
// CHECK-LABEL: func.func @cmpi_ugt
// CHECK: "fa.gridwise_attention"(%{{.*}}) {causal_offset = 0 : i64, k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpi_ugt(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi ugt, %j, %i : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff j uge i
// CHECK-LABEL: func.func @cmpi_uge
// CHECK: "fa.gridwise_attention"(%{{.*}}) {causal_offset = -1 : i64, k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpi_uge(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi uge, %j, %i : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff i ult j
// CHECK-LABEL: func.func @cmpi_ult_swapped
// CHECK: "fa.gridwise_attention"(%{{.*}}) {causal_offset = 0 : i64, k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpi_ult_swapped(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi ult, %i, %j : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff i ule j
// CHECK-LABEL: func.func @cmpi_ule_swapped
// CHECK: "fa.gridwise_attention"(%{{.*}}) {causal_offset = -1 : i64, k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpi_ule_swapped(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi ule, %i, %j : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff i slt j
// CHECK-LABEL: func.func @cmpi_slt_swapped
// CHECK: "fa.gridwise_attention"(%{{.*}}) {causal_offset = 0 : i64, k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpi_slt_swapped(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi slt, %i, %j : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff i sle j
// CHECK-LABEL: func.func @cmpi_sle_swapped
// CHECK: "fa.gridwise_attention"(%{{.*}}) {causal_offset = -1 : i64, k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpi_sle_swapped(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpi sle, %i, %j : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff j ugt i + (-3): i - 3 wraps for the first rows, which see every key; not causal_offset = -3
// CHECK-LABEL: func.func @cmpi_ugt_negative_offset
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// WHY: remark: fa-fuse-attention: not fused: an unsigned compare of index expressions that may be negative (they wrap; the op's masks compare signed)
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpi_ugt_negative_offset(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %off = arith.constant -3 : index
    %io = arith.addi %i, %off : index
    %c = arith.cmpi ugt, %j, %io : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// the same compare signed: causal_offset = -3
// CHECK-LABEL: func.func @cmpi_sgt_negative_offset
// CHECK: "fa.gridwise_attention"(%{{.*}}) {causal_offset = -3 : i64, k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpi_sgt_negative_offset(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %off = arith.constant -3 : index
    %io = arith.addi %i, %off : index
    %c = arith.cmpi sgt, %j, %io : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff j ugt i + 2: both sides non-negative
// CHECK-LABEL: func.func @cmpi_ugt_positive_offset
// CHECK: "fa.gridwise_attention"(%{{.*}}) {causal_offset = 2 : i64, k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpi_ugt_positive_offset(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %off = arith.constant 2 : index
    %io = arith.addi %i, %off : index
    %c = arith.cmpi ugt, %j, %io : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff (j - i) uge 1: j - i wraps below the diagonal
// CHECK-LABEL: func.func @cmpi_uge_difference
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// WHY: remark: fa-fuse-attention: not fused: an unsigned compare of index expressions that may be negative (they wrap; the op's masks compare signed)
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpi_uge_difference(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %one = arith.constant 1 : index
    %d = arith.subi %j, %i : index
    %c = arith.cmpi uge, %d, %one : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff (j - i) sge 1: causal_offset = 0
// CHECK-LABEL: func.func @cmpi_sge_difference
// CHECK: "fa.gridwise_attention"(%{{.*}}) {causal_offset = 0 : i64, k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpi_sge_difference(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %one = arith.constant 1 : index
    %d = arith.subi %j, %i : index
    %c = arith.cmpi sge, %d, %one : index
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff float j oeq i
// CHECK-LABEL: func.func @cmpf_oeq
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// WHY: remark: fa-fuse-attention: not fused: a mask on the scores is not causal (keys after query + offset)
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpf_oeq(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpf oeq, %fj, %fi : f32
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff float j ogt i
// CHECK-LABEL: func.func @cmpf_ogt
// CHECK: "fa.gridwise_attention"(%{{.*}}) {causal_offset = 0 : i64, k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpf_ogt(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpf ogt, %fj, %fi : f32
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff float j oge i
// CHECK-LABEL: func.func @cmpf_oge
// CHECK: "fa.gridwise_attention"(%{{.*}}) {causal_offset = -1 : i64, k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpf_oge(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpf oge, %fj, %fi : f32
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff float j olt i
// CHECK-LABEL: func.func @cmpf_olt
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// WHY: remark: fa-fuse-attention: not fused: a mask on the scores is not causal (keys after query + offset)
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpf_olt(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpf olt, %fj, %fi : f32
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff float j ole i
// CHECK-LABEL: func.func @cmpf_ole
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// WHY: remark: fa-fuse-attention: not fused: a mask on the scores is not causal (keys after query + offset)
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpf_ole(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpf ole, %fj, %fi : f32
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff float j one i
// CHECK-LABEL: func.func @cmpf_one
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// WHY: remark: fa-fuse-attention: not fused: a mask on the scores is not causal (keys after query + offset)
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpf_one(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpf one, %fj, %fi : f32
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff float j ueq i
// CHECK-LABEL: func.func @cmpf_ueq
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// WHY: remark: fa-fuse-attention: not fused: a mask on the scores is not causal (keys after query + offset)
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpf_ueq(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpf ueq, %fj, %fi : f32
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff float j ugt i
// CHECK-LABEL: func.func @cmpf_ugt
// CHECK: "fa.gridwise_attention"(%{{.*}}) {causal_offset = 0 : i64, k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpf_ugt(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpf ugt, %fj, %fi : f32
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff float j uge i
// CHECK-LABEL: func.func @cmpf_uge
// CHECK: "fa.gridwise_attention"(%{{.*}}) {causal_offset = -1 : i64, k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpf_uge(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpf uge, %fj, %fi : f32
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff float j ult i
// CHECK-LABEL: func.func @cmpf_ult
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// WHY: remark: fa-fuse-attention: not fused: a mask on the scores is not causal (keys after query + offset)
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpf_ult(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpf ult, %fj, %fi : f32
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff float j ule i
// CHECK-LABEL: func.func @cmpf_ule
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// WHY: remark: fa-fuse-attention: not fused: a mask on the scores is not causal (keys after query + offset)
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpf_ule(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpf ule, %fj, %fi : f32
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff float j une i
// CHECK-LABEL: func.func @cmpf_une
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// WHY: remark: fa-fuse-attention: not fused: a mask on the scores is not causal (keys after query + offset)
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpf_une(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpf une, %fj, %fi : f32
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff float i olt j
// CHECK-LABEL: func.func @cmpf_olt_swapped
// CHECK: "fa.gridwise_attention"(%{{.*}}) {causal_offset = 0 : i64, k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpf_olt_swapped(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpf olt, %fi, %fj : f32
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff float i ult j
// CHECK-LABEL: func.func @cmpf_ult_swapped
// CHECK: "fa.gridwise_attention"(%{{.*}}) {causal_offset = 0 : i64, k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpf_ult_swapped(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpf ult, %fi, %fj : f32
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff float i ole j
// CHECK-LABEL: func.func @cmpf_ole_swapped
// CHECK: "fa.gridwise_attention"(%{{.*}}) {causal_offset = -1 : i64, k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpf_ole_swapped(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpf ole, %fi, %fj : f32
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

// masked iff float i ule j
// CHECK-LABEL: func.func @cmpf_ule_swapped
// CHECK: "fa.gridwise_attention"(%{{.*}}) {causal_offset = -1 : i64, k_transposed, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0, 0, 0>, scale = 1.000000e+00 : f32}
// WHY: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id = affine_map<(d0, d1) -> (d0, d1)>
#d0 = affine_map<(d0, d1) -> (d0)>
#d1 = affine_map<(d0, d1) -> (d1)>
func.func @cmpf_ule_swapped(%q: tensor<8x4xf32>, %kt: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %iota = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>
  %s0 = tensor.empty() : tensor<8x8xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o0 = tensor.empty() : tensor<8x4xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x4xf32>) -> tensor<8x4xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<8x4xf32>, tensor<4x8xf32>) outs(%sz : tensor<8x8xf32>) -> tensor<8x8xf32>
  %sm = linalg.generic {indexing_maps = [#id, #d0, #d1, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %iota, %iota : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%s0 : tensor<8x8xf32>) {
  ^bb0(%x: f32, %fi: f32, %fj: f32, %out: f32):
    %ninf = arith.constant 0xFF800000 : f32
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c = arith.cmpf ule, %fi, %fj : f32
    %y = arith.select %c, %ninf, %x : f32
    linalg.yield %y : f32
  } -> tensor<8x8xf32>
  %p = linalg.softmax dimension(1) ins(%sm : tensor<8x8xf32>) outs(%s0 : tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<8x8xf32>, tensor<8x4xf32>) outs(%oz : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}
