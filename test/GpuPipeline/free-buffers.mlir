// RUN: fa-opt --fa-free-buffers %s | FileCheck %s

// A buffer used only by loads, stores, copies and views is freed before the
// return; the returned one, one returned through a view, one handed to a
// call and one already freed are not (freed once).

func.func private @keep(memref<4xf32>)

// CHECK-LABEL: func.func @f(
func.func @f(%arg: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
  %c0 = arith.constant 0 : index
  // CHECK: %[[TMP:.*]] = memref.alloc() : memref<4xf32>
  // CHECK: %[[OUT:.*]] = memref.alloc() : memref<4xf32>
  // CHECK: %[[VIEWED:.*]] = memref.alloc() : memref<2x2xf32>
  // CHECK: %[[KEPT:.*]] = memref.alloc() : memref<4xf32>
  // CHECK: %[[FREED:.*]] = memref.alloc() : memref<4xf32>
  // CHECK: %[[SUB:.*]] = memref.alloc() : memref<8xf32>
  %tmp = memref.alloc() : memref<4xf32>
  %out = memref.alloc() : memref<4xf32>
  %viewed = memref.alloc() : memref<2x2xf32>
  %kept = memref.alloc() : memref<4xf32>
  %freed = memref.alloc() : memref<4xf32>
  %sub = memref.alloc() : memref<8xf32>
  memref.copy %arg, %tmp : memref<4xf32> to memref<4xf32>
  scf.for %i = %c0 to %c0 step %c0 {
    %x = memref.load %tmp[%i] : memref<4xf32>
    memref.store %x, %out[%i] : memref<4xf32>
  }
  %s = memref.subview %sub[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %y = memref.load %s[%c0] : memref<4xf32, strided<[1]>>
  memref.store %y, %freed[%c0] : memref<4xf32>
  memref.dealloc %freed : memref<4xf32>
  call @keep(%kept) : (memref<4xf32>) -> ()
  %flat = memref.collapse_shape %viewed [[0, 1]] : memref<2x2xf32> into memref<4xf32>
  // CHECK: memref.dealloc %[[FREED]]
  // CHECK-NOT: memref.dealloc %[[FREED]]
  // CHECK-NOT: memref.dealloc %[[OUT]]
  // CHECK-NOT: memref.dealloc %[[VIEWED]]
  // CHECK-NOT: memref.dealloc %[[KEPT]]
  // CHECK: memref.dealloc %[[TMP]]
  // CHECK-NEXT: memref.dealloc %[[SUB]]
  // CHECK-NEXT: return %[[OUT]], %{{.*}}
  return %out, %flat : memref<4xf32>, memref<4xf32>
}

// A body of several blocks is left alone.
// CHECK-LABEL: func.func @blocks(
// CHECK-NOT: memref.dealloc
func.func @blocks(%c: i1) {
  %b = memref.alloc() : memref<4xf32>
  cf.cond_br %c, ^a, ^b
^a:
  return
^b:
  return
}
