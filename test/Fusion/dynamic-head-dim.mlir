// A dynamic head dim is not fused: every lowering of fa.gridwise_attention
// tiles D and Dv statically, so a fused op would only move the failure to the
// lowering. Fusion says why; the model still lowers unfused on every target.
// RUN: fa-opt --fa-fuse-attention %s | FileCheck %s
// RUN: fa-opt --fa-fuse-attention=explain %s 2>&1 >/dev/null | FileCheck %s --check-prefix=WHY
// RUN: fa-opt --pass-pipeline='builtin.module(fa-to-nvvm{chip=sm_80})' %s | FileCheck %s --check-prefix=LOWERED
// RUN: fa-opt --pass-pipeline='builtin.module(fa-to-cpu)' %s | FileCheck %s --check-prefix=LOWERED

// CHECK-LABEL: func.func @dynamic_head_dim
// CHECK-NOT: fa.gridwise_attention
// CHECK: linalg.softmax
// WHY: remark: fa-fuse-attention: not fused: the head dim (D or Dv) is dynamic; no lowering of the op takes it
// LOWERED: llvm.func @dynamic_head_dim
func.func @dynamic_head_dim(%q: tensor<?x?x?xf16>, %k: tensor<?x?x?xf16>, %v: tensor<?x?x?xf16>) -> tensor<?x?x?xf16> {
  %zero = arith.constant 0.0 : f16
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %b = tensor.dim %q, %c0 : tensor<?x?x?xf16>
  %m = tensor.dim %q, %c1 : tensor<?x?x?xf16>
  %d = tensor.dim %q, %c2 : tensor<?x?x?xf16>
  %n = tensor.dim %k, %c1 : tensor<?x?x?xf16>
  %dv = tensor.dim %v, %c2 : tensor<?x?x?xf16>
  %kt0 = tensor.empty(%b, %d, %n) : tensor<?x?x?xf16>
  %kt = linalg.transpose ins(%k : tensor<?x?x?xf16>) outs(%kt0 : tensor<?x?x?xf16>) permutation = [0, 2, 1]
  %s0 = tensor.empty(%b, %m, %n) : tensor<?x?x?xf16>
  %sz = linalg.fill ins(%zero : f16) outs(%s0 : tensor<?x?x?xf16>) -> tensor<?x?x?xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<?x?x?xf16>, tensor<?x?x?xf16>) outs(%sz : tensor<?x?x?xf16>) -> tensor<?x?x?xf16>
  %p = linalg.softmax dimension(2) ins(%s : tensor<?x?x?xf16>) outs(%s0 : tensor<?x?x?xf16>) -> tensor<?x?x?xf16>
  %o0 = tensor.empty(%b, %m, %dv) : tensor<?x?x?xf16>
  %oz = linalg.fill ins(%zero : f16) outs(%o0 : tensor<?x?x?xf16>) -> tensor<?x?x?xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<?x?x?xf16>, tensor<?x?x?xf16>) outs(%oz : tensor<?x?x?xf16>) -> tensor<?x?x?xf16>
  return %o : tensor<?x?x?xf16>
}
