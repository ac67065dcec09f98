/* fa-compile: a model to a host object or shared library in one step. The
 * module goes through fa-to-cpu, fa-to-nvvm{chip} or fa-to-rocdl{chip}, is
 * translated to LLVM IR (GPU binaries embedded, loaded at library load time
 * through the mgpu* runtime), optimized and emitted with LLVM's C API. Every
 * public function gets MLIR's C interface (_mlir_ciface_NAME). A .so output is
 * linked by the system C compiler against libfa_rt_cuda/hip (GPU) or
 * libmlir_c_runner_utils (CPU). */
#include "fa-c/Compile.h"

#include "Tools/Tools.h"
#include "Tools/ToolArgs.h"
#include "Lowering/Lowering.h"

#include "fa-c/Dialect.h"
#include "fa-c/Passes.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Target/LLVMIR.h"

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* A --target: the pipeline that lowers for it and the runtime library an
 * .so of it links (NULL: MLIR's runner utils, for the CPU). */
typedef struct {
  const char *name, *pipeline, *runtime;
} Target;

static const Target kTargets[] = {
    {"cpu", "fa-to-cpu", NULL},
    {"sm_80", "fa-to-nvvm{chip=sm_80}", "fa_rt_cuda"},
    {"sm_90", "fa-to-nvvm{chip=sm_90}", "fa_rt_cuda"},
    {"sm_90a", "fa-to-nvvm{chip=sm_90a}", "fa_rt_cuda"},
    {"gfx90a", "fa-to-rocdl{chip=gfx90a}", "fa_rt_hip"},
    {"gfx942", "fa-to-rocdl{chip=gfx942}", "fa_rt_hip"},
};
enum { kNumTargets = sizeof kTargets / sizeof kTargets[0] };

typedef struct {
  const char *input, *output;
  const Target *target;
  bool exportKernels, shared;
} CompileOptions;

/* "cpu, sm_80, ... or gfx942". */
static const char *targetNames(void) {
  static char names[128];
  size_t n = 0;
  for (int i = 0; i < kNumTargets; ++i)
    n += (size_t)snprintf(names + n, sizeof names - n, "%s%s",
                          faToolListSeparator(i, kNumTargets), kTargets[i].name);
  return names;
}

static void usage(FILE *f) {
  fprintf(f, "usage: fa-compile MODEL.mlir [--target=TARGET] -o OUT [--export-kernels]\n"
             "Fuses attention, lowers the model for the target and writes OUT: a host\n"
             "object (.o) or a shared library (.so) linked with fa-mlir's GPU runtime\n"
             "(libfa_rt_cuda.so or libfa_rt_hip.so; found next to OUT or in the build).\n"
             "Public functions are callable as _mlir_ciface_NAME (MLIR's C interface).\n"
             "Exit status: 0 OUT written (and after --help, --version), 1 the model could\n"
             "not be compiled, 2 a bad command line or an unreadable MODEL.\n"
             "  --target=TARGET   %s (default cpu)\n"
             "  -o OUT            OUT.o (an object) or OUT.so (a shared library)\n"
             "  --export-kernels  also export each fused attention kernel (memref\n"
             "                    arguments: Q, K, V, ..., O) as _mlir_ciface_fa_attention_N\n",
          targetNames());
  faToolPrintInfoOptions(f, 17);
}

static bool setTarget(const char *name, CompileOptions *o) {
  for (int i = 0; i < kNumTargets; ++i)
    if (!strcmp(name, kTargets[i].name)) {
      o->target = &kTargets[i];
      return true;
    }
  return faToolArgError("fa-compile", "unknown target '%s': the targets are %s", name,
                        targetNames());
}

static bool endsWith(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

/* Argument `*i` (an option, its value, or MODEL.mlir; "-" is stdin). */
static bool parseArg(int argc, char **argv, int *i, CompileOptions *o) {
  const char *a = argv[*i];
  if (!strncmp(a, "--target=", 9))
    return setTarget(a + 9, o);
  if (!strcmp(a, "-o")) {
    if (*i + 1 >= argc)
      return faToolArgError("fa-compile", "-o needs a file: -o OUT.o or -o OUT.so");
    o->output = argv[++*i];
  } else if (!strcmp(a, "--export-kernels")) {
    o->exportKernels = true;
  } else if (a[0] == '-' && a[1]) {
    return faToolArgError("fa-compile", "unknown option '%s'", a);
  } else if (o->input) {
    return faToolArgError("fa-compile", "more than one input file: '%s' and '%s'", o->input, a);
  } else {
    o->input = a;
  }
  return true;
}

/* The arguments every run needs. */
static bool checkArgs(CompileOptions *o) {
  if (!o->input)
    return faToolArgError("fa-compile", "no input file: give MODEL.mlir (or - for stdin)");
  if (!o->output)
    return faToolArgError("fa-compile", "no output: give -o OUT.o or -o OUT.so");
  o->shared = endsWith(o->output, ".so");
  if (!o->shared && !endsWith(o->output, ".o"))
    return faToolArgError("fa-compile", "-o %s: the output must end in .o (an object) or .so "
                                        "(a shared library)", o->output);
  return true;
}

static FaArgsResult parseArgs(int argc, char **argv, CompileOptions *o) {
  *o = (CompileOptions){NULL, NULL, &kTargets[0], false, false};
  for (int i = 1; i < argc; ++i) {
    if (faToolAnswerInfoOption("fa-compile", argv[i], usage))
      return FA_ARGS_DONE;
    if (!parseArg(argc, argv, &i, o))
      return FA_ARGS_ERROR;
  }
  return checkArgs(o) ? FA_ARGS_RUN : FA_ARGS_ERROR;
}

static bool appendSignature(MlirOperation module, MlirOperation func) {
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("sym_name")));
  char text[256];
  snprintf(text, sizeof text, "%.*s", (int)name.length, name.data);
  return faModuleAppendSignature(module, text,
                                 mlirTypeAttrGetValue(mlirOperationGetAttributeByName(
                                     func, mlirStringRefCreateFromCString("function_type"))));
}

/* Marks the top-level functions with a body as C-interface entry points,
 * each with its signature for fa-run (faModuleAppendSignature); with
 * `kernelsOnly`, only the kernels fa-lower-attention made (marked
 * fa.attention_kernel; made public). Returns the number marked, -1 when a
 * signature could not be added. */
static int markEntryPoints(MlirOperation module, bool kernelsOnly) {
  int count = 0;
  MlirContext ctx = mlirOperationGetContext(module);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!mlirStringRefEqual(mlirIdentifierStr(mlirOperationGetName(op)),
                            mlirStringRefCreateFromCString("func.func")) ||
        mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0))))
      continue;
    MlirStringRef visibility = mlirStringRefCreateFromCString("sym_visibility");
    bool isKernel = !mlirAttributeIsNull(mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("fa.attention_kernel")));
    if (kernelsOnly ? !isKernel
                    : !mlirAttributeIsNull(mlirOperationGetAttributeByName(op, visibility)))
      continue;
    mlirOperationRemoveAttributeByName(op, visibility);
    mlirOperationSetAttributeByName(op,
                                    mlirStringRefCreateFromCString("llvm.emit_c_interface"),
                                    mlirUnitAttrGet(ctx));
    ++count;
    if (!kernelsOnly && !appendSignature(module, op))
      return -1;
  }
  return count;
}

/* LLVM IR of the lowered module, optimized at O2, emitted as an object. */
static bool emitObject(MlirOperation module, const char *path) {
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
  LLVMContextRef llctx = LLVMContextCreate();
  LLVMModuleRef llmod = mlirTranslateModuleToLLVMIR(module, llctx);
  bool ok = false;
  if (!llmod) {
    fprintf(stderr, "fa-compile: translation to LLVM IR failed\n");
  } else {
    char *triple = LLVMGetDefaultTargetTriple(), *err = NULL;
    LLVMTargetRef target;
    if (LLVMGetTargetFromTriple(triple, &target, &err)) {
      fprintf(stderr, "fa-compile: %s\n", err);
    } else {
      LLVMTargetMachineRef tm = LLVMCreateTargetMachine(
          target, triple, "x86-64", "", LLVMCodeGenLevelDefault, LLVMRelocPIC,
          LLVMCodeModelDefault);
      LLVMSetTarget(llmod, triple);
      LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(tm);
      LLVMSetModuleDataLayout(llmod, layout);
      LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
      LLVMErrorRef perr = LLVMRunPasses(llmod, "default<O2>", tm, opts);
      if (perr) {
        char *msg = LLVMGetErrorMessage(perr);
        fprintf(stderr, "fa-compile: LLVM optimization failed: %s\n", msg);
        LLVMDisposeErrorMessage(msg);
      } else if (LLVMTargetMachineEmitToFile(tm, llmod, path, LLVMObjectFile, &err)) {
        fprintf(stderr, "fa-compile: cannot write %s: %s\n", path, err);
      } else {
        ok = true;
      }
      LLVMDisposePassBuilderOptions(opts);
      LLVMDisposeTargetData(layout);
      LLVMDisposeTargetMachine(tm);
    }
    LLVMDisposeMessage(err);
    LLVMDisposeMessage(triple);
    LLVMDisposeModule(llmod);
  }
  LLVMContextDispose(llctx);
  return ok;
}

/* cc -shared OBJ -o OUT, against the runtime (GPU) or MLIR's runner utils
 * (CPU: memrefCopy), with an rpath of $ORIGIN and the library's directory. */
static bool linkShared(const char *object, const char *output, const char *runtime) {
  char libFlag[256], rpath[1024], libDir[1024];
  const char *dir = runtime ? FA_RUNTIME_DIR : FA_LLVM_LIB_DIR;
  snprintf(libDir, sizeof libDir, "-L%s", dir);
  snprintf(libFlag, sizeof libFlag, "-l%s", runtime ? runtime : "mlir_c_runner_utils");
  snprintf(rpath, sizeof rpath, "-Wl,-rpath,$ORIGIN:%s", dir);
  char *argv[] = {"cc", "-shared", "-o", (char *)output, (char *)object, libDir, libFlag,
                  rpath, "-lm", NULL};
  pid_t pid;
  int status = 0;
  if (posix_spawnp(&pid, "cc", NULL, NULL, argv, environ) != 0 ||
      waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "fa-compile: linking %s failed (cc)\n", output);
    return false;
  }
  return true;
}

static int compileModule(MlirContext ctx, const FaSource *source, FaDiagnostics *diags,
                         const void *options) {
  const CompileOptions *o = options;
  const char *runtime = o->target->runtime;
  bool shared = o->shared;
  MlirModule module = mlirModuleCreateParse(
      ctx, mlirStringRefCreate(source->data, source->size));
  if (mlirModuleIsNull(module))
    return 1;
  MlirOperation op = mlirModuleGetOperation(module);
  int numEntries = markEntryPoints(op, false);
  bool ok = numEntries > 0;
  if (numEntries == 0)
    fprintf(stderr, "fa-compile: %s has no public function with a body: nothing to compile, "
                    "%s not written\n", source->name, o->output);
  if (o->exportKernels) {
    /* The same kernels as the target's pipeline makes: tensor cores on NVIDIA. */
    const char *chip = o->target->name;
    const char *target = runtime == NULL                 ? "cpu"
                         : strncmp(chip, "sm_", 3) == 0 ? faTargetNameOfChip(chip)
                                                        : "gpu";
    char text[160];
    snprintf(text, sizeof text, "fa-verify,fa-fuse-attention,fa-lower-attention{target=%s}",
             target);
    ok = ok && faModuleRunPipeline(op, text);
    if (ok)
      markEntryPoints(op, true);
  }
  ok = ok && faModuleRunPipeline(op, o->target->pipeline);
  char object[1100];
  snprintf(object, sizeof object, "%s%s", o->output, shared ? ".tmp.o" : "");
  ok = ok && emitObject(op, object);
  if (ok && shared) {
    ok = linkShared(object, o->output, runtime);
    unlink(object);
  }
  mlirModuleDestroy(module);
  return ok ? 0 : 1;
}

int faCompileMain(int argc, char **argv) {
  faToolName = "fa-compile";
  CompileOptions o;
  FaArgsResult args = parseArgs(argc, argv, &o);
  if (args != FA_ARGS_RUN)
    return args;
  return faToolRunOnFile(o.input, compileModule, &o);
}
