// test/Models/half_lse_f32.tosa.mlir (attention and torch.logsumexp's guarded
// lse, TOSA) with an additive mask (%mask) that hides every key from queries 0
// and 5: upstream's tosa.reduce_max gives the lowest f32 there, the unguarded
// softmax NaN (0/0), the guarded lse -inf. @lse_f32_unguarded is the same
// without torch.logsumexp's guard, log(sum(exp(x - max))) + max: -inf there
// too (log(0) + lowest), where a max of -inf would give NaN.
// test/Tools/oracle-masked-rows.test.
module {
  func.func @lse_f32(%arg0: tensor<1x4x33x64xf32>, %arg1: tensor<1x4x40x64xf32>, %arg2: tensor<1x4x40x64xf32>) -> (tensor<1x4x33x64xf32>, tensor<1x4x33xf32>) {
    %0 = tosa.const_shape  {values = dense<[4, 33, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %1 = tosa.const_shape  {values = dense<[4, 64, 40]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %3 = tosa.const_shape  {values = dense<[1, 4, 33, 40]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %4 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %5 = tosa.const_shape  {values = dense<[1, 4, 33]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = tosa.const_shape  {values = dense<[4, 33, 40]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[4, 40, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %8 = tosa.const_shape  {values = dense<[1, 4, 33, 64]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %9 = "tosa.const"() <{values = dense<1.250000e-01> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %10 = "tosa.const"() <{values = dense<0x7FF0000000000000> : tensor<1x1x1x1xf64>}> : () -> tensor<1x1x1x1xf64>
    %11 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %mask = "tosa.const"() <{values = dense<[[[[0xFF800000], [0.0], [0.0], [0.0], [0.0], [0xFF800000], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0]]]]> : tensor<1x1x33x1xf32>}> : () -> tensor<1x1x33x1xf32>
    %12 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x4x40x64xf32>) -> tensor<1x4x64x40xf32>
    %13 = tosa.reshape %arg0, %0 : (tensor<1x4x33x64xf32>, !tosa.shape<3>) -> tensor<4x33x64xf32>
    %14 = tosa.reshape %12, %1 : (tensor<1x4x64x40xf32>, !tosa.shape<3>) -> tensor<4x64x40xf32>
    %15 = tosa.matmul %13, %14, %2, %2 : (tensor<4x33x64xf32>, tensor<4x64x40xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x33x40xf32>
    %16 = tosa.reshape %15, %3 : (tensor<4x33x40xf32>, !tosa.shape<4>) -> tensor<1x4x33x40xf32>
    %17 = tosa.mul %16, %9, %4 : (tensor<1x4x33x40xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x33x40xf32>
    %masked17 = tosa.add %17, %mask : (tensor<1x4x33x40xf32>, tensor<1x1x33x1xf32>) -> tensor<1x4x33x40xf32>
    %18 = tosa.reduce_max %masked17 {axis = 3 : i32} : (tensor<1x4x33x40xf32>) -> tensor<1x4x33x1xf32>
    %19 = tosa.abs %18 : (tensor<1x4x33x1xf32>) -> tensor<1x4x33x1xf32>
    %20 = tosa.cast %19 : (tensor<1x4x33x1xf32>) -> tensor<1x4x33x1xf64>
    %21 = tosa.equal %20, %10 : (tensor<1x4x33x1xf64>, tensor<1x1x1x1xf64>) -> tensor<1x4x33x1xi1>
    %22 = tosa.select %21, %11, %18 : (tensor<1x4x33x1xi1>, tensor<1x1x1x1xf32>, tensor<1x4x33x1xf32>) -> tensor<1x4x33x1xf32>
    %23 = tosa.reshape %22, %5 : (tensor<1x4x33x1xf32>, !tosa.shape<3>) -> tensor<1x4x33xf32>
    %24 = tosa.sub %masked17, %22 : (tensor<1x4x33x40xf32>, tensor<1x4x33x1xf32>) -> tensor<1x4x33x40xf32>
    %25 = tosa.exp %24 : (tensor<1x4x33x40xf32>) -> tensor<1x4x33x40xf32>
    %26 = tosa.reduce_sum %25 {axis = 3 : i32} : (tensor<1x4x33x40xf32>) -> tensor<1x4x33x1xf32>
    %27 = tosa.reshape %26, %5 : (tensor<1x4x33x1xf32>, !tosa.shape<3>) -> tensor<1x4x33xf32>
    %28 = tosa.log %27 : (tensor<1x4x33xf32>) -> tensor<1x4x33xf32>
    %29 = tosa.add %28, %23 : (tensor<1x4x33xf32>, tensor<1x4x33xf32>) -> tensor<1x4x33xf32>
    %30 = tosa.sub %masked17, %18 : (tensor<1x4x33x40xf32>, tensor<1x4x33x1xf32>) -> tensor<1x4x33x40xf32>
    %31 = tosa.exp %30 : (tensor<1x4x33x40xf32>) -> tensor<1x4x33x40xf32>
    %32 = tosa.reduce_sum %31 {axis = 3 : i32} : (tensor<1x4x33x40xf32>) -> tensor<1x4x33x1xf32>
    %33 = tosa.reciprocal %32 : (tensor<1x4x33x1xf32>) -> tensor<1x4x33x1xf32>
    %34 = tosa.mul %31, %33, %4 : (tensor<1x4x33x40xf32>, tensor<1x4x33x1xf32>, tensor<1xi8>) -> tensor<1x4x33x40xf32>
    %35 = tosa.reshape %34, %6 : (tensor<1x4x33x40xf32>, !tosa.shape<3>) -> tensor<4x33x40xf32>
    %36 = tosa.reshape %arg2, %7 : (tensor<1x4x40x64xf32>, !tosa.shape<3>) -> tensor<4x40x64xf32>
    %37 = tosa.matmul %35, %36, %2, %2 : (tensor<4x33x40xf32>, tensor<4x40x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x33x64xf32>
    %38 = tosa.reshape %37, %8 : (tensor<4x33x64xf32>, !tosa.shape<4>) -> tensor<1x4x33x64xf32>
    return %38, %29 : tensor<1x4x33x64xf32>, tensor<1x4x33xf32>
  }
  func.func @lse_f32_unguarded(%arg0: tensor<1x4x33x64xf32>, %arg1: tensor<1x4x40x64xf32>, %arg2: tensor<1x4x40x64xf32>) -> (tensor<1x4x33x64xf32>, tensor<1x4x33xf32>) {
    %0 = tosa.const_shape  {values = dense<[4, 33, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %1 = tosa.const_shape  {values = dense<[4, 64, 40]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %2 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
    %3 = tosa.const_shape  {values = dense<[1, 4, 33, 40]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %4 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %5 = tosa.const_shape  {values = dense<[1, 4, 33]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %6 = tosa.const_shape  {values = dense<[4, 33, 40]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %7 = tosa.const_shape  {values = dense<[4, 40, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %8 = tosa.const_shape  {values = dense<[1, 4, 33, 64]> : tensor<4xindex>} : () -> !tosa.shape<4>
    %9 = "tosa.const"() <{values = dense<1.250000e-01> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %10 = "tosa.const"() <{values = dense<0x7FF0000000000000> : tensor<1x1x1x1xf64>}> : () -> tensor<1x1x1x1xf64>
    %11 = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
    %mask = "tosa.const"() <{values = dense<[[[[0xFF800000], [0.0], [0.0], [0.0], [0.0], [0xFF800000], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0], [0.0]]]]> : tensor<1x1x33x1xf32>}> : () -> tensor<1x1x33x1xf32>
    %12 = tosa.transpose %arg1 {perms = array<i32: 0, 1, 3, 2>} : (tensor<1x4x40x64xf32>) -> tensor<1x4x64x40xf32>
    %13 = tosa.reshape %arg0, %0 : (tensor<1x4x33x64xf32>, !tosa.shape<3>) -> tensor<4x33x64xf32>
    %14 = tosa.reshape %12, %1 : (tensor<1x4x64x40xf32>, !tosa.shape<3>) -> tensor<4x64x40xf32>
    %15 = tosa.matmul %13, %14, %2, %2 : (tensor<4x33x64xf32>, tensor<4x64x40xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x33x40xf32>
    %16 = tosa.reshape %15, %3 : (tensor<4x33x40xf32>, !tosa.shape<4>) -> tensor<1x4x33x40xf32>
    %17 = tosa.mul %16, %9, %4 : (tensor<1x4x33x40xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x4x33x40xf32>
    %masked17 = tosa.add %17, %mask : (tensor<1x4x33x40xf32>, tensor<1x1x33x1xf32>) -> tensor<1x4x33x40xf32>
    %18 = tosa.reduce_max %masked17 {axis = 3 : i32} : (tensor<1x4x33x40xf32>) -> tensor<1x4x33x1xf32>
    %23 = tosa.reshape %18, %5 : (tensor<1x4x33x1xf32>, !tosa.shape<3>) -> tensor<1x4x33xf32>
    %24 = tosa.sub %masked17, %18 : (tensor<1x4x33x40xf32>, tensor<1x4x33x1xf32>) -> tensor<1x4x33x40xf32>
    %25 = tosa.exp %24 : (tensor<1x4x33x40xf32>) -> tensor<1x4x33x40xf32>
    %26 = tosa.reduce_sum %25 {axis = 3 : i32} : (tensor<1x4x33x40xf32>) -> tensor<1x4x33x1xf32>
    %27 = tosa.reshape %26, %5 : (tensor<1x4x33x1xf32>, !tosa.shape<3>) -> tensor<1x4x33xf32>
    %28 = tosa.log %27 : (tensor<1x4x33xf32>) -> tensor<1x4x33xf32>
    %29 = tosa.add %28, %23 : (tensor<1x4x33xf32>, tensor<1x4x33xf32>) -> tensor<1x4x33xf32>
    %30 = tosa.sub %masked17, %18 : (tensor<1x4x33x40xf32>, tensor<1x4x33x1xf32>) -> tensor<1x4x33x40xf32>
    %31 = tosa.exp %30 : (tensor<1x4x33x40xf32>) -> tensor<1x4x33x40xf32>
    %32 = tosa.reduce_sum %31 {axis = 3 : i32} : (tensor<1x4x33x40xf32>) -> tensor<1x4x33x1xf32>
    %33 = tosa.reciprocal %32 : (tensor<1x4x33x1xf32>) -> tensor<1x4x33x1xf32>
    %34 = tosa.mul %31, %33, %4 : (tensor<1x4x33x40xf32>, tensor<1x4x33x1xf32>, tensor<1xi8>) -> tensor<1x4x33x40xf32>
    %35 = tosa.reshape %34, %6 : (tensor<1x4x33x40xf32>, !tosa.shape<3>) -> tensor<4x33x40xf32>
    %36 = tosa.reshape %arg2, %7 : (tensor<1x4x40x64xf32>, !tosa.shape<3>) -> tensor<4x40x64xf32>
    %37 = tosa.matmul %35, %36, %2, %2 : (tensor<4x33x40xf32>, tensor<4x40x64xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x33x64xf32>
    %38 = tosa.reshape %37, %8 : (tensor<4x33x64xf32>, !tosa.shape<4>) -> tensor<1x4x33x64xf32>
    return %38, %29 : tensor<1x4x33x64xf32>, tensor<1x4x33xf32>
  }
}
