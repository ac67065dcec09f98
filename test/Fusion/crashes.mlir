// Inputs that crashed fa-opt (issue 14, item 9; test/Fuzz/fuzz.py finds
// more: each becomes a case here). Integer attributes of source IR are
// range-checked before they index anything.
// RUN: fa-opt --split-input-file --fa-fuse-attention=explain %s 2>%t.why | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY < %t.why
// RUN: fa-opt --split-input-file --fa-fuse-attention %s | fa-opt --split-input-file --fa-verify > /dev/null

// A reassociation index of 2^32 (MLIR 22's verifier takes it) in a unit
// reshape of Q: SIGBUS in unitReshapeDims (via peelScale). The reshape is
// not looked through; Q is taken as it is.
// CHECK-LABEL: func.func @bmm_bad_reassociation_q
// CHECK: %[[QC:.*]] = tensor.collapse_shape %arg0 {{\[\[}}4294967296, 1], [2], [3]]
// CHECK: %[[Q:.*]] = tensor.expand_shape %[[QC]] {{\[\[}}0, 1], [2], [3]] output_shape [1, 4, 16, 8]
// CHECK: "fa.gridwise_attention"(%[[Q]],
// WHY: -:[[@LINE+19]]:8: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @bmm_bad_reassociation_q(%q4: tensor<4x1x16x8xf16>, %k: tensor<4x32x8xf16>, %v: tensor<4x32x8xf16>) -> tensor<4x16x8xf16> {
  %zero = arith.constant 0.0 : f16
  %c = arith.constant 0.25 : f16
  %kt0 = tensor.empty() : tensor<4x8x32xf16>
  %kt = linalg.transpose ins(%k : tensor<4x32x8xf16>) outs(%kt0 : tensor<4x8x32xf16>) permutation = [0, 2, 1]
  %s0 = tensor.empty() : tensor<4x16x32xf16>
  %sz = linalg.fill ins(%zero : f16) outs(%s0 : tensor<4x16x32xf16>) -> tensor<4x16x32xf16>
  %qc = tensor.collapse_shape %q4 [[4294967296, 1], [2], [3]] : tensor<4x1x16x8xf16> into tensor<4x16x8xf16>
  %s = linalg.batch_matmul ins(%qc, %kt : tensor<4x16x8xf16>, tensor<4x8x32xf16>) outs(%sz : tensor<4x16x32xf16>) -> tensor<4x16x32xf16>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x16x32xf16>) outs(%s0 : tensor<4x16x32xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.mulf %c, %x : f16
    linalg.yield %y : f16
  } -> tensor<4x16x32xf16>
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x16x32xf16>) outs(%s0 : tensor<4x16x32xf16>) -> tensor<4x16x32xf16>
  %o0 = tensor.empty() : tensor<4x16x8xf16>
  %oz = linalg.fill ins(%zero : f16) outs(%o0 : tensor<4x16x8xf16>) -> tensor<4x16x8xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x32xf16>, tensor<4x32x8xf16>) outs(%oz : tensor<4x16x8xf16>) -> tensor<4x16x8xf16>
  return %o : tensor<4x16x8xf16>
}

// -----

// The same index in a unit reshape of P: the softmax cannot be read through
// it, so nothing is fused (and nothing crashes).
// CHECK-LABEL: func.func @softmax_through_bad_collapse
// CHECK-NOT: fa.gridwise_attention
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}4294967296, 1], [2]]
// CHECK: linalg.matmul
func.func @softmax_through_bad_collapse(%q: tensor<1x16x8xf32>, %k: tensor<1x8x32xf32>, %v: tensor<32x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %s0 = tensor.empty() : tensor<1x16x32xf32>
  %sz = linalg.fill ins(%zero : f32) outs(%s0 : tensor<1x16x32xf32>) -> tensor<1x16x32xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<1x16x8xf32>, tensor<1x8x32xf32>) outs(%sz : tensor<1x16x32xf32>) -> tensor<1x16x32xf32>
  %p3 = linalg.softmax dimension(2) ins(%s : tensor<1x16x32xf32>) outs(%s0 : tensor<1x16x32xf32>) -> tensor<1x16x32xf32>
  %p = tensor.collapse_shape %p3 [[4294967296, 1], [2]] : tensor<1x16x32xf32> into tensor<16x32xf32>
  %o0 = tensor.empty() : tensor<16x8xf32>
  %oz = linalg.fill ins(%zero : f32) outs(%o0 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %o = linalg.matmul ins(%p, %v : tensor<16x32xf32>, tensor<32x8xf32>) outs(%oz : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %o : tensor<16x8xf32>
}

// -----

// P*V's only user is a tensor.extract (its result a scalar): SIGSEGV in
// mlirShapedTypeGetRank from peelBatchSplit (planLayout looked for a batch
// split after P*V in any single user's result).
// CHECK-LABEL: func.func @pv_used_by_extract
// CHECK: %[[O:.*]] = "fa.gridwise_attention"
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[O]]
// CHECK: tensor.extract %[[R]]
// WHY: -:[[@LINE+18]]:8: remark: fa-fuse-attention: fused into fa.gridwise_attention
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @pv_used_by_extract(%q4: tensor<4x16x8xf16>, %k: tensor<4x32x8xf16>, %v: tensor<4x32x8xf16>) -> f16 {
  %zero = arith.constant 0.0 : f16
  %c = arith.constant 0.25 : f16
  %kt0 = tensor.empty() : tensor<4x8x32xf16>
  %kt = linalg.transpose ins(%k : tensor<4x32x8xf16>) outs(%kt0 : tensor<4x8x32xf16>) permutation = [0, 2, 1]
  %s0 = tensor.empty() : tensor<4x16x32xf16>
  %sz = linalg.fill ins(%zero : f16) outs(%s0 : tensor<4x16x32xf16>) -> tensor<4x16x32xf16>
    %s = linalg.batch_matmul ins(%q4, %kt : tensor<4x16x8xf16>, tensor<4x8x32xf16>) outs(%sz : tensor<4x16x32xf16>) -> tensor<4x16x32xf16>
  %ss = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x16x32xf16>) outs(%s0 : tensor<4x16x32xf16>) {
  ^bb0(%x: f16, %o: f16):
    %y = arith.mulf %c, %x : f16
    linalg.yield %y : f16
  } -> tensor<4x16x32xf16>
  %p = linalg.softmax dimension(2) ins(%ss : tensor<4x16x32xf16>) outs(%s0 : tensor<4x16x32xf16>) -> tensor<4x16x32xf16>
  %o0 = tensor.empty() : tensor<4x16x8xf16>
  %oz = linalg.fill ins(%zero : f16) outs(%o0 : tensor<4x16x8xf16>) -> tensor<4x16x8xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x16x32xf16>, tensor<4x32x8xf16>) outs(%oz : tensor<4x16x8xf16>) -> tensor<4x16x8xf16>
  %c0 = arith.constant 0 : index
  %x = tensor.extract %o[%c0, %c0, %c0] : tensor<4x16x8xf16>
  return %x : f16
}

// -----

// Found by test/Fuzz/fuzz.py (seed 23, minimised): explain read the location
// of a P*V op the rewrite had already erased (SIGSEGV with =explain only).
// CHECK-LABEL: func.func @pv_used_by_extract_generic
// CHECK: "fa.gridwise_attention"
// WHY: -:[[@LINE+37]]:11: remark: fa-fuse-attention: fused into fa.gridwise_attention
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x16x8xf16>, tensor<4x32x8xf16>, tensor<4x32x8xf16>) -> f16, sym_name = "pv_used_by_extract_generic"}> ({
  ^bb0(%arg0: tensor<4x16x8xf16>, %arg1: tensor<4x32x8xf16>, %arg2: tensor<4x32x8xf16>):
    %0 = "arith.constant"() <{value = 0.000000e+00 : f16}> : () -> f16
    %1 = "arith.constant"() <{value = 2.500000e-01 : f16}> : () -> f16
    %2 = "tensor.empty"() : () -> tensor<4x8x32xf16>
    %3 = "linalg.transpose"(%arg1, %2) <{permutation = array<i64: 0, 2, 1>}> ({
    ^bb0(%arg15: f16, %arg16: f16):
      "linalg.yield"(%arg15) : (f16) -> ()
    }) : (tensor<4x32x8xf16>, tensor<4x8x32xf16>) -> tensor<4x8x32xf16>
    %4 = "tensor.empty"() : () -> tensor<4x16x32xf16>
    %5 = "linalg.fill"(%0, %4) <{operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg13: f16, %arg14: f16):
      "linalg.yield"(%arg13) : (f16) -> ()
    }) : (f16, tensor<4x16x32xf16>) -> tensor<4x16x32xf16>
    %6 = "linalg.batch_matmul"(%arg0, %3, %5) <{indexing_maps = [#map, #map1, #map2], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg10: f16, %arg11: f16, %arg12: f16):
      %17 = "arith.mulf"(%arg10, %arg11) <{fastmath = #arith.fastmath<none>}> : (f16, f16) -> f16
      %18 = "arith.addf"(%arg12, %17) <{fastmath = #arith.fastmath<none>}> : (f16, f16) -> f16
      "linalg.yield"(%18) : (f16) -> ()
    }) : (tensor<4x16x8xf16>, tensor<4x8x32xf16>, tensor<4x16x32xf16>) -> tensor<4x16x32xf16>
    %7 = "linalg.generic"(%6, %4) <{indexing_maps = [#map3, #map3], iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>], operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg8: f16, %arg9: f16):
      %16 = "arith.mulf"(%1, %arg8) <{fastmath = #arith.fastmath<none>}> : (f16, f16) -> f16
      "linalg.yield"(%16) : (f16) -> ()
    }) : (tensor<4x16x32xf16>, tensor<4x16x32xf16>) -> tensor<4x16x32xf16>
    %8 = "linalg.softmax"(%7, %4) <{dimension = 2 : i64}> : (tensor<4x16x32xf16>, tensor<4x16x32xf16>) -> tensor<4x16x32xf16>
    %9 = "tensor.empty"() : () -> tensor<4x16x8xf16>
    %10 = "linalg.fill"(%0, %9) <{operandSegmentSizes = array<i32: 1, 1>}> ({
    ^bb0(%arg6: f16, %arg7: f16):
      "linalg.yield"(%arg6) : (f16) -> ()
    }) : (f16, tensor<4x16x8xf16>) -> tensor<4x16x8xf16>
    %11 = "linalg.batch_matmul"(%8, %arg2, %10) <{indexing_maps = [#map, #map1, #map2], operandSegmentSizes = array<i32: 2, 1>}> ({
    ^bb0(%arg3: f16, %arg4: f16, %arg5: f16):
      %14 = "arith.mulf"(%arg3, %arg4) <{fastmath = #arith.fastmath<none>}> : (f16, f16) -> f16
      %15 = "arith.addf"(%arg5, %14) <{fastmath = #arith.fastmath<none>}> : (f16, f16) -> f16
      "linalg.yield"(%15) : (f16) -> ()
    }) : (tensor<4x16x32xf16>, tensor<4x32x8xf16>, tensor<4x16x8xf16>) -> tensor<4x16x8xf16>
    %12 = "arith.constant"() <{value = 4 : index}> : () -> index
    %13 = "tensor.extract"(%11, %12, %12, %12) : (tensor<4x16x8xf16>, index, index, index) -> f16
    "func.return"(%13) : (f16) -> ()
  }) : () -> ()
}) : () -> ()

// -----

// K is a tensor.empty (a fuzzer mutant of layouts.mlir): peelGroupBroadcast
// and peelCast read operand 0 of an op without operands (SIGSEGV). K is
// taken as it is; Q, V and O fold their transposes.
// CHECK-LABEL: func.func @k_from_empty
// CHECK: %[[K:.*]] = tensor.empty() : tensor<2x4x32x40xf32>
// CHECK: "fa.gridwise_attention"(%arg0, %[[K]], %arg2) {k_transposed, o_bshd, {{.*}}q_bshd, {{.*}}v_bshd}
// WHY: -:[[@LINE+17]]:9: remark: fa-fuse-attention: fused into fa.gridwise_attention
func.func @k_from_empty(%q: tensor<2x24x4x32xf32>, %k: tensor<2x40x4x32xf32>, %v: tensor<2x40x4x32xf32>) -> (tensor<2x24x4x32xf32>, tensor<2x24x4x32xf32>) {
  %z = arith.constant 0.0 : f32
  %t0 = tensor.empty() : tensor<2x4x24x32xf32>
  %qt = linalg.transpose ins(%q : tensor<2x24x4x32xf32>) outs(%t0 : tensor<2x4x24x32xf32>) permutation = [0, 2, 1, 3]
  %kt0 = tensor.empty() : tensor<2x4x32x40xf32>
  %vt0 = tensor.empty() : tensor<2x4x40x32xf32>
  %vt = linalg.transpose ins(%v : tensor<2x40x4x32xf32>) outs(%vt0 : tensor<2x4x40x32xf32>) permutation = [0, 2, 1, 3]
  %q3 = tensor.collapse_shape %qt [[0, 1], [2], [3]] : tensor<2x4x24x32xf32> into tensor<8x24x32xf32>
  %k3 = tensor.collapse_shape %kt0 [[0, 1], [2], [3]] : tensor<2x4x32x40xf32> into tensor<8x32x40xf32>
  %v3 = tensor.collapse_shape %vt [[0, 1], [2], [3]] : tensor<2x4x40x32xf32> into tensor<8x40x32xf32>
  %s0 = tensor.empty() : tensor<8x24x40xf32>
  %sz = linalg.fill ins(%z : f32) outs(%s0 : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %s = linalg.batch_matmul ins(%q3, %k3 : tensor<8x24x32xf32>, tensor<8x32x40xf32>) outs(%sz : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<8x24x40xf32>) outs(%s0 : tensor<8x24x40xf32>) -> tensor<8x24x40xf32>
  %o0 = tensor.empty() : tensor<8x24x32xf32>
  %oz = linalg.fill ins(%z : f32) outs(%o0 : tensor<8x24x32xf32>) -> tensor<8x24x32xf32>
  %o3 = linalg.batch_matmul ins(%p, %v3 : tensor<8x24x40xf32>, tensor<8x40x32xf32>) outs(%oz : tensor<8x24x32xf32>) -> tensor<8x24x32xf32>
  %o = tensor.expand_shape %o3 [[0, 1], [2], [3]] output_shape [2, 4, 24, 32] : tensor<8x24x32xf32> into tensor<2x4x24x32xf32>
  %ot0 = tensor.empty() : tensor<2x24x4x32xf32>
  %ot = linalg.transpose ins(%o : tensor<2x4x24x32xf32>) outs(%ot0 : tensor<2x24x4x32xf32>) permutation = [0, 2, 1, 3]
  return %ot, %ot : tensor<2x24x4x32xf32>, tensor<2x24x4x32xf32>
}
