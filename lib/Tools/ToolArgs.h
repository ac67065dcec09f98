/* Internal: the command line every fa-mlir tool shares. No MLIR dependency:
 * fa-run and fa-bench link it as libfa's drivers (fa-opt, fa-check,
 * fa-compile) do.
 *   --help, -h   the usage (options, exit status) on stdout; exit status 0
 *   --version    "TOOL (fa-mlir) VERSION" on stdout; exit status 0
 *   a bad option, option value or argument: one line on stderr,
 *                "TOOL: MESSAGE; try 'TOOL --help'"; exit status 2 (fa-opt:
 *                1, as mlir-opt has it: docs/fa-opt.md) */
#ifndef FA_LIB_TOOLS_TOOLARGS_H
#define FA_LIB_TOOLS_TOOLARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* What parsing a command line came to. The two that end the tool are its
 * exit status. */
typedef enum {
  FA_ARGS_RUN = -1,  /* complete: run the tool */
  FA_ARGS_DONE = 0,  /* --help or --version answered */
  FA_ARGS_ERROR = 2, /* a bad command line, reported */
} FaArgsResult;

/* Prints a tool's usage, its options and exit status to `f`. */
typedef void (*FaToolUsageFn)(FILE *f);

/* When `arg` is --help or -h (the usage) or --version, answers it on stdout
 * and returns true; false for any other argument. */
bool faToolAnswerInfoOption(const char *tool, const char *arg, FaToolUsageFn usage);

/* "TOOL (fa-mlir) VERSION", VERSION being the project's (CMake). */
void faToolPrintVersion(const char *tool);

/* The usage lines of --help and --version, the option names padded to
 * `width` columns as the tool's other options are. */
void faToolPrintInfoOptions(FILE *f, int width);

/* "TOOL: MESSAGE; try 'TOOL --help'" on stderr (MESSAGE from `fmt`, printf
 * style). Returns false, for parsers that fail with it. */
bool faToolArgError(const char *tool, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* What comes before item `i` of `n` in a list "A, B or C": "", ", " or
 * " or ". */
const char *faToolListSeparator(int i, int n);

/* --- option values: a faToolArgError naming OPTION when malformed --------- */

/* `text` as a decimal integer in [min, max]. */
bool parseIntOption(const char *tool, const char *option, const char *text, int64_t min,
                    int64_t max, int64_t *out);
/* `text` as a finite number >= min. */
bool parseRealOption(const char *tool, const char *option, const char *text, double min,
                     double *out);

#endif
