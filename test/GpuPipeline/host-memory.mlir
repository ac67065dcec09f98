// RUN: fa-opt --split-input-file --fa-gpu-host-memory %s | FileCheck %s

// Host buffers become managed memory; those that do not escape are freed
// before the return (asynchronous gpu.dealloc, waited for); the returned one,
// the one returned through a view, and the one passed to an unknown op are
// not. A global is copied into managed memory, which is then freed too.
// Public memref arguments are registered for the call.

module attributes {gpu.container_module} {
  memref.global "private" constant @weights : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf32>, %b: memref<4xf32>) kernel { gpu.return }
  }
  func.func private @keep(memref<4xf32>)

  // CHECK-LABEL: func.func @model(
  // CHECK-SAME: %[[ARG:.*]]: memref<4xf32>
  // CHECK: %[[CAST:.*]] = memref.cast %[[ARG]] : memref<4xf32> to memref<*xf32>
  // CHECK: gpu.host_register %[[CAST]]
  // CHECK: %[[TMP:.*]] = gpu.alloc host_shared () : memref<4xf32>
  // CHECK: %[[OUT:.*]] = gpu.alloc host_shared () : memref<4xf32>
  // CHECK: %[[VIEWED:.*]] = gpu.alloc host_shared () : memref<2x2xf32>
  // CHECK: %[[KEPT:.*]] = gpu.alloc host_shared () : memref<4xf32>
  // CHECK: %[[G:.*]] = memref.get_global @weights
  // CHECK: %[[GCOPY:.*]] = gpu.alloc host_shared () : memref<4xf32>
  // CHECK: memref.copy %[[G]], %[[GCOPY]]
  // CHECK: gpu.launch_func @kernels::@k {{.*}} args(%[[GCOPY]] : memref<4xf32>, %[[TMP]] : memref<4xf32>)
  // CHECK: gpu.launch_func @kernels::@k {{.*}} args(%[[TMP]] : memref<4xf32>, %[[OUT]] : memref<4xf32>)
  // CHECK-NOT: gpu.dealloc {{.*}}%[[OUT]]
  // CHECK-NOT: gpu.dealloc {{.*}}%[[VIEWED]]
  // CHECK-NOT: gpu.dealloc {{.*}}%[[KEPT]]
  // CHECK: %[[T0:.*]] = gpu.wait async
  // CHECK: %[[T1:.*]] = gpu.dealloc async [%[[T0]]] %[[TMP]] : memref<4xf32>
  // CHECK: gpu.wait [%[[T1]]]
  // CHECK-NOT: gpu.dealloc {{.*}}%[[OUT]]
  // CHECK-NOT: gpu.dealloc {{.*}}%[[VIEWED]]
  // CHECK-NOT: gpu.dealloc {{.*}}%[[KEPT]]
  // CHECK: gpu.dealloc async [%{{.*}}] %[[GCOPY]] : memref<4xf32>
  // CHECK: gpu.host_unregister %[[CAST]] : memref<*xf32>
  // CHECK-NEXT: return %[[OUT]], %{{.*}} : memref<4xf32>, memref<4xf32>
  func.func @model(%arg: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
    %c1 = arith.constant 1 : index
    %tmp = memref.alloc() : memref<4xf32>
    %out = memref.alloc() : memref<4xf32>
    %viewed = memref.alloc() : memref<2x2xf32>
    %kept = memref.alloc() : memref<4xf32>
    %w = memref.get_global @weights : memref<4xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%w : memref<4xf32>, %tmp : memref<4xf32>)
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%tmp : memref<4xf32>, %out : memref<4xf32>)
    call @keep(%kept) : (memref<4xf32>) -> ()
    %flat = memref.collapse_shape %viewed [[0, 1]] : memref<2x2xf32> into memref<4xf32>
    return %out, %flat : memref<4xf32>, memref<4xf32>
  }
}

// -----

// Globals in a GPU address space (a kernel's dynamic shared memory, its
// device-global counters), which outlining copied into the gpu.module, leave
// the host; the host's own globals stay (one in a memory space of no GPU
// dialect), and the gpu.module keeps its copies.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK-NOT: @smem
// CHECK-NOT: @counters
// CHECK: memref.global "private" constant @host_table
// CHECK: memref.global "private" @host_space1 : memref<2xf32, 1>
// CHECK: gpu.module @kernels {
// CHECK-DAG: memref.global "public" @smem : memref<0xi8, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.global "public" @counters : memref<8xi32, #gpu.address_space<global>> = dense<0>
// CHECK: }
// CHECK-NOT: @smem
// CHECK-NOT: @counters
module attributes {gpu.container_module} {
  memref.global "public" @smem : memref<0xi8, #gpu.address_space<workgroup>>
  memref.global "public" @counters : memref<8xi32, #gpu.address_space<global>> = dense<0>
  memref.global "private" constant @host_table : memref<2xf32> = dense<[1.0, 2.0]>
  memref.global "private" @host_space1 : memref<2xf32, 1>
  gpu.module @kernels {
    memref.global "public" @smem : memref<0xi8, #gpu.address_space<workgroup>>
    memref.global "public" @counters : memref<8xi32, #gpu.address_space<global>> = dense<0>
    gpu.func @k() kernel {
      %c = memref.get_global @counters : memref<8xi32, #gpu.address_space<global>>
      gpu.return
    }
  }
}
