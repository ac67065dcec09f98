//===- Plugin.cpp - fa-mlir as an mlir-opt plugin --------------------------===//
//
// The only C++ in fa-mlir: MLIR 22's C API cannot register a pass by name in
// the global registry, nor hand a dialect to a DialectRegistry, which is what
// `mlir-opt --load-pass-plugin` / `--load-dialect-plugin` need. Everything else
// comes from libfa through its C API.
//
//===----------------------------------------------------------------------===//

#include "fa-c/Dialect.h"
#include "fa-c/Passes.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

using namespace mlir;

static void registerFaPasses() {
  for (intptr_t i = 0, e = faGetNumPasses(); i < e; ++i) {
    const FaPassInfo *info = faGetPass(i);
    registerPass([info]() -> std::unique_ptr<Pass> {
      MlirPass pass = info->create(mlirStringRefCreate(nullptr, 0), nullptr,
                                   nullptr);
      return std::unique_ptr<Pass>(unwrap(pass));
    });
  }
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "fa-mlir", LLVM_VERSION_STRING,
          registerFaPasses};
}

// The fa dialect is defined in IRDL and loaded per context. The registry gets
// an extension that loads it once the func dialect is loaded (model IR always
// has functions); the builtin dialect is too early, its context is still
// being constructed.
static void registerFaDialect(DialectRegistry *registry) {
  registry->addExtension(+[](MLIRContext *ctx, func::FuncDialect *) {
    (void)faContextLoadDialect(wrap(ctx));
  });
}

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "fa-mlir", LLVM_VERSION_STRING,
          registerFaDialect};
}
