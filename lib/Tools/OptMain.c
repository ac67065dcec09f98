/* fa-opt: an mlir-opt-style driver over libfa. Reads a file or stdin, runs
 * passes given as flags or as --pass-pipeline (ours and all of upstream's),
 * prints the result; --split-input-file and --verify-diagnostics behave as in
 * mlir-opt. Every failure is a located diagnostic and exit status 1. */
#include "fa-c/OptMain.h"

#include "Tools/Tools.h"
#include "Tools/ToolArgs.h"
#include "Support/Text.h"
#include "fa-c/Dialect.h"
#include "fa-c/Passes.h"

#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <stdlib.h>
#include <string.h>

typedef struct Options {
  const char *input, *output, *pipeline;
  bool split, verifyDiagnostics, allowUnregistered, printAfterAll,
      printBeforeAll, printGeneric, printDebugInfo, timing, help, version;
  char **passFlags; /* "name{options}" in command-line order */
  size_t numPassFlags;
} Options;

typedef struct {
  const char *name;
  size_t offset; /* of the bool in Options */
  const char *help;
} BoolFlag;

#define FLAG(n, f, h) {n, offsetof(Options, f), h}
static const BoolFlag kBoolFlags[] = {
    FLAG("split-input-file", split,
         "Split the input on '// -----' lines and process each piece alone"),
    FLAG("verify-diagnostics", verifyDiagnostics,
         "Check diagnostics against expected-{error,warning,note,remark} comments"),
    FLAG("allow-unregistered-dialect", allowUnregistered,
         "Accept operations of unregistered dialects"),
    FLAG("mlir-print-ir-after-all", printAfterAll,
         "Print the IR to stderr after every pass"),
    FLAG("mlir-print-ir-before-all", printBeforeAll,
         "Print the IR to stderr before every pass"),
    FLAG("mlir-print-op-generic", printGeneric, "Print ops in generic form"),
    FLAG("mlir-print-debuginfo", printDebugInfo, "Print locations"),
    FLAG("mlir-timing", timing, "Report the time spent in each pass"),
    FLAG("help", help, "Show this help (also -h) and exit"),
    FLAG("version", version, "Show the version and exit"),
};

static void printHelp(void) {
  printf("OVERVIEW: fa-opt - fuse and lower attention in MLIR (fa-mlir)\n\n"
         "USAGE: fa-opt [options] [--<pass>[=<options>] ...] [input | -]\n\n"
         "OPTIONS:\n"
         "  -o <file>                     Output file (default: stdout)\n"
         "  --pass-pipeline=<pipeline>    Textual pipeline, e.g. "
         "'builtin.module(fa-fuse-attention)'\n");
  for (size_t i = 0; i < sizeof(kBoolFlags) / sizeof(kBoolFlags[0]); ++i)
    printf("  --%-28s %s\n", kBoolFlags[i].name, kBoolFlags[i].help);
  printf("\nPASSES OF fa-mlir (flags or pipeline elements):\n");
  for (intptr_t i = 0; i < faGetNumPasses(); ++i) {
    const FaPassInfo *p = faGetPass(i);
    printf("  --%-28s %s\n", p->argument, p->description);
    if (*p->options)
      printf("  %-30s   option %s\n", "", p->options);
  }
  printf("\nPIPELINES OF fa-mlir:\n");
  for (intptr_t i = 0; i < faGetNumPipelines(); ++i) {
    const FaPipelineInfo *p = faGetPipeline(i);
    printf("  --%-28s %s\n", p->argument, p->description);
    if (*p->options)
      printf("  %-30s   option %s\n", "", p->options);
  }
  printf("\nEvery upstream MLIR pass and pipeline is accepted too, as --<name> "
         "or inside --pass-pipeline (see mlir-opt --help).\n"
         "\nEXIT STATUS:\n"
         "  0  success (--help and --version too)\n"
         "  1  any error, each reported on stderr: a bad option or unknown pass, an\n"
         "     unreadable, empty or invalid input, a failing pass\n");
}

/* --- command line -------------------------------------------------------- */

static bool setBoolFlag(Options *o, const char *name, size_t len) {
  for (size_t i = 0; i < sizeof(kBoolFlags) / sizeof(kBoolFlags[0]); ++i)
    if (strlen(kBoolFlags[i].name) == len &&
        strncmp(kBoolFlags[i].name, name, len) == 0) {
      *(bool *)((char *)o + kBoolFlags[i].offset) = true;
      return true;
    }
  return false;
}

/* --name=value becomes the pipeline element "name{value}". */
static void addPassFlag(Options *o, const char *name, size_t len,
                        const char *value) {
  size_t size = len + (value ? strlen(value) + 2 : 0) + 1;
  char *text = malloc(size);
  if (value)
    snprintf(text, size, "%.*s{%s}", (int)len, name, value);
  else
    snprintf(text, size, "%.*s", (int)len, name);
  o->passFlags = realloc(o->passFlags, (o->numPassFlags + 1) * sizeof(char *));
  o->passFlags[o->numPassFlags++] = text;
}

static bool argError(const char *msg, const char *arg) {
  return faToolArgError("fa-opt", "error: %s '%s'", msg, arg);
}

static bool parseArgs(int argc, char **argv, Options *o) {
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (arg[0] != '-' || strcmp(arg, "-") == 0) {
      if (o->input)
        return argError("more than one input file given:", arg);
      o->input = arg;
      continue;
    }
    if (strcmp(arg, "-h") == 0) {
      o->help = true;
      continue;
    }
    const char *name = arg + (arg[1] == '-' ? 2 : 1);
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    if (len == 0)
      return argError("invalid option", arg);
    const char *value = eq ? eq + 1 : NULL;
    bool isOutput = len == 1 && name[0] == 'o';
    bool isPipeline = len == 13 && strncmp(name, "pass-pipeline", 13) == 0;
    if ((isOutput || isPipeline) && !value) {
      if (i + 1 >= argc)
        return argError("missing value for option", arg);
      value = argv[++i];
    }
    if (isOutput)
      o->output = value;
    else if (isPipeline)
      o->pipeline = value;
    else if (value || !setBoolFlag(o, name, len))
      addPassFlag(o, name, len, value);
  }
  if (o->pipeline && o->numPassFlags)
    return argError("--pass-pipeline cannot be combined with pass flags such as",
                    o->passFlags[0]);
  if (!o->input)
    o->input = "-";
  return true;
}

static void freeOptions(Options *o) {
  for (size_t i = 0; i < o->numPassFlags; ++i)
    free(o->passFlags[i]);
  free(o->passFlags);
}

/* --- pass manager -------------------------------------------------------- */

static void printPipelineError(MlirStringRef s, void *userData) {
  if (!*(bool *)userData)
    fprintf(stderr, "fa-opt: error: ");
  *(bool *)userData = true;
  fwrite(s.data, 1, s.length, stderr);
}

static MlirPassManager buildPassManager(MlirContext ctx, const Options *o) {
  bool printed = false;
  const char *anchor = "builtin.module";
  size_t anchorLen = strlen(anchor);
  if (o->pipeline) {
    const char *paren = strchr(o->pipeline, '(');
    if (!paren) {
      fprintf(stderr, "fa-opt: error: --pass-pipeline must look like "
                      "'builtin.module(...)', got '%s'\n", o->pipeline);
      return (MlirPassManager){NULL};
    }
    anchor = o->pipeline;
    anchorLen = (size_t)(paren - o->pipeline);
    while (anchorLen && anchor[anchorLen - 1] == ' ')
      --anchorLen;
  }
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      ctx, mlirStringRefCreate(anchor, anchorLen));
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult ok = mlirLogicalResultSuccess();
  /* As mlir-opt verifies after every pass, fa ops are verified after each
   * pass flag and after the pipeline (our own passes also verify them after
   * every pass they run, inside pipelines too: see PassSupport.c). */
  if (o->pipeline) {
    ok = faParsePassPipeline(opm, mlirStringRefCreateFromCString(o->pipeline),
                             printPipelineError, &printed);
    mlirOpPassManagerAddOwnedPass(opm, faCreateDialectVerify());
  }
  for (size_t i = 0; i < o->numPassFlags && mlirLogicalResultIsSuccess(ok); ++i) {
    ok = faOpPassManagerAddPipeline(
        opm, mlirStringRefCreateFromCString(o->passFlags[i]),
        printPipelineError, &printed);
    if (mlirLogicalResultIsFailure(ok)) {
      if (printed)
        fputc('\n', stderr);
      faToolArgError("fa-opt", "error: unknown option or pass '--%s'", o->passFlags[i]);
    }
    mlirOpPassManagerAddOwnedPass(opm, faCreateDialectVerify());
  }
  if (mlirLogicalResultIsFailure(ok)) {
    if (printed && !o->numPassFlags)
      fputc('\n', stderr);
    mlirPassManagerDestroy(pm);
    return (MlirPassManager){NULL};
  }
  if (o->printAfterAll || o->printBeforeAll) {
    MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
    mlirPassManagerEnableIRPrinting(pm, o->printBeforeAll, o->printAfterAll,
                                    true, false, false, flags,
                                    mlirStringRefCreate(NULL, 0));
    mlirOpPrintingFlagsDestroy(flags);
  }
  if (o->timing)
    mlirPassManagerEnableTiming(pm);
  return pm;
}

/* --- processing ---------------------------------------------------------- */

/* Parses, verifies, transforms and prints one chunk. */
static bool processChunk(MlirContext ctx, MlirPassManager pm, const Options *o,
                         const FaChunk *chunk, FaText *out) {
  MlirModule module;
  if (!o->split && strcmp(o->input, "-") != 0) {
    /* Whole files are parsed from disk so locations carry their real name. */
    module = mlirModuleCreateParseFromFile(ctx, mlirStringRefCreateFromCString(o->input));
  } else {
    size_t size;
    char *text = faChunkCreatePaddedText(chunk, &size);
    module = mlirModuleCreateParse(ctx, mlirStringRefCreate(text, size));
    free(text);
  }
  if (mlirModuleIsNull(module))
    return false;
  MlirOperation op = mlirModuleGetOperation(module);
  bool ok = mlirLogicalResultIsSuccess(faOperationVerify(op)) &&
            mlirLogicalResultIsSuccess(mlirPassManagerRunOnOp(pm, op));
  if (ok) {
    MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
    if (o->printGeneric)
      mlirOpPrintingFlagsPrintGenericOpForm(flags);
    if (o->printDebugInfo)
      mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
    mlirOperationPrintWithFlags(op, flags, faTextAppendStringRef, out);
    faTextAppend(out, "\n");
    mlirOpPrintingFlagsDestroy(flags);
  }
  mlirModuleDestroy(module);
  return ok;
}

static bool processSource(MlirContext ctx, MlirPassManager pm, const Options *o,
                          const FaSource *source, FaText *out) {
  if (faSourceIsBlank(source->data, source->size)) {
    fprintf(stderr, "%s:1:1: error: input is empty: expected MLIR operations\n",
            source->name);
    return false;
  }
  FaChunk *chunks;
  size_t n = faSourceSplit(source, o->split, &chunks);
  FaDiagnostics *diags = faDiagnosticsCreate(ctx, source, o->verifyDiagnostics);
  bool ok = true;
  for (size_t i = 0; i < n; ++i) {
    if (i > 0)
      faTextAppend(out, "// -----\n");
    faDiagnosticsBeginChunk(diags, &chunks[i]);
    bool chunkOk = processChunk(ctx, pm, o, &chunks[i], out);
    ok &= o->verifyDiagnostics ? faDiagnosticsEndChunk(diags) : chunkOk;
  }
  faDiagnosticsDestroy(diags);
  free(chunks);
  return ok;
}

static bool writeOutput(const Options *o, const FaText *out) {
  bool toStdout = !o->output || strcmp(o->output, "-") == 0;
  FILE *f = toStdout ? stdout : fopen(o->output, "wb");
  if (!f) {
    fprintf(stderr, "fa-opt: error: cannot open output file '%s'\n", o->output);
    return false;
  }
  bool ok = fwrite(out->data, 1, out->size, f) == out->size;
  ok &= (toStdout ? fflush(f) : fclose(f)) == 0;
  return ok;
}

static MlirContext createContext(const Options *o) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  bool threads = !(o->verifyDiagnostics || o->printAfterAll || o->printBeforeAll);
  MlirContext ctx = mlirContextCreateWithRegistry(registry, threads);
  mlirDialectRegistryDestroy(registry);
  mlirRegisterAllLLVMTranslations(ctx);
  mlirContextSetAllowUnregisteredDialects(ctx, o->allowUnregistered);
  return ctx;
}

int faOptMain(int argc, char **argv) {
  Options o = {0};
  if (!parseArgs(argc, argv, &o)) {
    freeOptions(&o);
    return 1;
  }
  if (o.help || o.version) {
    if (o.help)
      printHelp();
    else
      faToolPrintVersion("fa-opt");
    freeOptions(&o);
    return 0;
  }
  mlirRegisterAllPasses();
  MlirContext ctx = createContext(&o);
  int status = 1;
  FaSource source = {0};
  FaText out;
  faTextInit(&out);
  MlirPassManager pm = {NULL};
  if (mlirLogicalResultIsSuccess(faContextLoadDialect(ctx)) &&
      !mlirPassManagerIsNull(pm = buildPassManager(ctx, &o)) &&
      faSourceRead(o.input, &source)) {
    bool ok = processSource(ctx, pm, &o, &source, &out);
    if ((ok || !o.output) && !writeOutput(&o, &out))
      ok = false;
    status = ok ? 0 : 1;
  }
  if (!mlirPassManagerIsNull(pm))
    mlirPassManagerDestroy(pm);
  faSourceDestroy(&source);
  faTextDestroy(&out);
  mlirContextDestroy(ctx);
  freeOptions(&o);
  return status;
}
