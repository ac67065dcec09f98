# The MLIR C API as one interface target: the static libMLIRCAPI*.a archives
# (whole-archive, so libfa re-exports the complete C API its users need) linked
# against the shared libMLIR.so and libLLVM.so.
set(FA_MLIR_CAPI_COMPONENTS
  IR Interfaces Debug RegisterEverything Transforms Conversion IRDL Func Linalg
  Tensor Arith Math MemRef SCF ControlFlow Tosa Bufferization Vector Index
  GPU LLVM NVVM NVGPU ROCDL AMDGPU Target ExecutionEngine TransformDialect
  TransformDialectTransforms)

set(FA_MLIR_CAPI_ARCHIVES)
foreach(c ${FA_MLIR_CAPI_COMPONENTS})
  set(a "${FA_LLVM_LIB_DIR}/libMLIRCAPI${c}.a")
  if(NOT EXISTS "${a}")
    message(FATAL_ERROR "missing ${a}: install libmlir-22-dev")
  endif()
  list(APPEND FA_MLIR_CAPI_ARCHIVES "${a}")
endforeach()

add_library(fa_mlir_shared INTERFACE)
target_include_directories(fa_mlir_shared INTERFACE ${MLIR_INCLUDE_DIRS} ${LLVM_INCLUDE_DIRS})
target_link_libraries(fa_mlir_shared INTERFACE
  "${FA_LLVM_LIB_DIR}/libMLIR.so" "${FA_LLVM_LIB_DIR}/libLLVM.so" stdc++ m)
