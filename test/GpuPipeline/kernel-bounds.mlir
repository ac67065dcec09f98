// fa-gpu-kernel-bounds: an outlined kernel takes the function attributes an
// op of its body carries as fa.kernel_bounds (gpu.launch cannot carry them
// through gpu-kernel-outlining); the mark is removed. Ops outside kernels keep
// theirs; marks that disagree are an error. (convert-gpu-to-nvvm and the NVVM
// target turn nvvm.maxnreg / nvvm.minctasm into .maxnreg / .minnctapersm:
// test/Integration/hopper-ptx.test.)
// RUN: fa-opt --split-input-file --verify-diagnostics --pass-pipeline="builtin.module(gpu-kernel-outlining,fa-gpu-kernel-bounds)" %s | FileCheck %s

// CHECK-LABEL: gpu.module @launch_kernel
// CHECK: gpu.func @launch_kernel() kernel attributes {known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 4, 1, 1>, nvvm.maxnreg = 80 : i32, nvvm.minctasm = 3 : i32}
// CHECK-NOT: fa.kernel_bounds
// CHECK: gpu.barrier
// CHECK-NOT: fa.kernel_bounds
// CHECK: gpu.return
func.func @launch() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    gpu.barrier {fa.kernel_bounds = {nvvm.maxnreg = 80 : i32, nvvm.minctasm = 3 : i32}}
    gpu.terminator
  }
  return
}

// -----

// Two marks that agree are one; a host op's mark is not a kernel's.
// CHECK-LABEL: func.func @agree
// CHECK: arith.constant {fa.kernel_bounds = {nvvm.minctasm = 2 : i32}} 0 : index
// CHECK: gpu.func @agree_kernel() kernel attributes {{{.*}}nvvm.minctasm = 2 : i32}
// CHECK-NOT: fa.kernel_bounds
// CHECK: gpu.return
func.func @agree() {
  %c1 = arith.constant 1 : index
  %host = arith.constant {fa.kernel_bounds = {nvvm.minctasm = 2 : i32}} 0 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.barrier {fa.kernel_bounds = {nvvm.minctasm = 2 : i32}}
    gpu.barrier {fa.kernel_bounds = {nvvm.minctasm = 2 : i32}}
    gpu.terminator
  }
  return
}

// -----

func.func @disagree() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.barrier {fa.kernel_bounds = {nvvm.minctasm = 2 : i32}}
    // expected-error @below {{'fa.kernel_bounds' sets the kernel's 'nvvm.minctasm' differently from an earlier mark}}
    gpu.barrier {fa.kernel_bounds = {nvvm.minctasm = 1 : i32}}
    gpu.terminator
  }
  return
}

// -----

func.func @not_a_dictionary() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @below {{'fa.kernel_bounds' must be a dictionary}}
    gpu.barrier {fa.kernel_bounds = 2 : i32}
    gpu.terminator
  }
  return
}
